"""Intake: a reply's text → its blocks → one Patch each (PROTOCOL.md §1, §2, §8).

What this room knows: markdown fences, header directives (`FILE:`,
`TARGET_NODE:` …, read strictly but never swallowed), which file a block
names when it has no `FILE:` line (attribution), the syntax of text patches
(unified diffs, SEARCH/REPLACE, envelopes) and the cheap markers that say a
block may be one.

Its public face: `reader.read_reply(text)` (the blocks) and
`plan.plan(block) -> Patch`; `textpatch_syntax` for the parsed hunks
that `kopipasta.text` applies. Nothing here reads a project file or a tree.
"""
