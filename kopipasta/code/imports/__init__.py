"""Imports: the import lines a payload brings, merged into the file's own (PROTOCOL.md §4b).

`imports` takes them off a payload and holds the byte edits (`TextEdit`,
`apply_edits`) every merge is made of; `import_merge` plans the merge for
Python and JS/TS; `statement_imports` for the languages whose imports are one
statement per line (Go, Rust, Java, C#, Kotlin, Scala, Swift).
"""
