"""Find: a file's definitions, and the one a target names.

The Document (`document.Document`) is this room's public face: one version of
a file, its tree, its definitions, its indent unit and the places in its bytes
(`line_start`, `line_end`, `indentation_at`), computed once and asked by every
operation. `definitions` lists what the queries capture; `resolve` turns a
`[kind] name` target into exactly one definition or an explicit failure
(with `overloads` and `shape` to let the payload settle what the name cannot);
`placement` checks where a payload's definitions landed; `samename` finds
files of the same name for "did you mean".
"""
