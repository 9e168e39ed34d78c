"""Code: everything that knows source code, in five rooms stacked one on the next.

- `layout/`  where bytes sit on a line: the indent unit, re-indentation, a
             payload rendered to the lines it will be spliced as.
- `find/`    a file's definitions and how a target names one: the Document
             (one file version, analysed once, asked by all), the
             definitions, `resolve`, overloads, where a definition landed.
- `imports/` the imports a payload brings and their merge into the file's.
- `read/`    what a block or a file holds: a payload parsed with its
             placeholders, a container's members, whole-file and elided
             blocks, Vue/Svelte hosts, the inventory `nodes` lists, staleness.
- `edit/`    the edits: splice, replace, insert, delete, merge of fragments
             and elided payloads, and `operations`, one patch on one file.

Each room imports only the rooms listed above it here (import-linter's
"code rooms" contract in pyproject.toml). The public face of the whole is
`edit.operations.apply_patch` (engine) and `read.inventory` (nodes, prompt).
"""
