"""A bare Tree-sitter parse of one file, as a whole process: the memory floor.

    python bench/bare_parse.py LANGUAGE FILE

Import Tree-sitter and the grammar, parse the file, print the root node's type,
exit. The bench compares our peak memory on a big file with this one's.
"""

import sys

from tree_sitter_language_pack import get_parser

language, path = sys.argv[1:3]
with open(path, "rb") as source:
    tree = get_parser(language).parse(source.read())  # type: ignore[arg-type]
print(tree.root_node.type)
