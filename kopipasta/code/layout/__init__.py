"""Layout: where a payload's bytes sit on a line (PROTOCOL.md §4, Re-indentation).

`indent` learns a file's indent unit and fits a payload to it; `render` turns
a payload into the lines to splice in, finding string literals first so that
their lines are never re-indented. Knows the grammars, nothing of definitions.
"""
