"""Edit: one patch applied to one file, in memory (PROTOCOL.md §4, §4a, §6).

`operations.apply_patch` is the room's public face and the engine's one call:
it resolves, renders, splices and checks. `replace` replaces a definition,
`insert` adds and removes them (INSERT_AFTER/BEFORE, APPEND_TO, DELETE_NODE,
spaced like their neighbours and in the right `visibility` section), `merge`
and `mergeplan` merge fragments and elided payloads definition by definition,
`anchors` fills an in-body placeholder from the original, `splice` puts the
rendered bytes in place. Nothing here writes to disk.
"""
