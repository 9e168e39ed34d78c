"""Startup: what keeps a short command-line run short (issue 9).

Stand-ins for the standard library that cost nothing until they are needed:
regular expressions compiled on first use (`lazy_pattern`), the cyclic
garbage collector's pace for a short run (`shortrun`), `textwrap.dedent`
without importing textwrap (`dedent`), and difflib's line counts without
difflib (`line_counts`). Every room may use them; they use nothing of ours.
"""
