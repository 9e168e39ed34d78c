"""Syntax: Tree-sitter, and nothing above it. The one room that touches py-tree-sitter's API.

What this room knows: which language a file is written in (extension →
`LanguageSpec`), its grammar and the query file under `queries/` (loaded
lazily, compiled once), patterns matched below their root in Python
(`query_shapes`), PHP's `<?php` opening tag, and the syntax check that stands
before every write (`check.check_syntax`: a patch may not add an error).

Its public face: `languages` (`language_for_path`, `parse`, `reparse`,
`Change`, `captures`), `check`, `opening_tag`. Code, data and text patches
all stand on it; it stands on nothing of kopipasta's but `errors`.
"""
