"""A bare Tree-sitter parse of one file, as a whole process: the memory floor.

    python bench/bare_parse.py LANGUAGE FILE

Import Tree-sitter and the grammar, parse the file, print the root node's type,
exit. The bench compares our peak memory on a big file with this one's.
"""

import importlib
import sys

from tree_sitter import Language, Parser

# Each grammar's own package, imported as any Tree-sitter tool would (no loading tricks).
PACKAGES = {
    "python": ("tree_sitter_python", "language"), "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"), "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
}


def get_parser(name: str) -> Parser:
    package, function = PACKAGES[name]
    return Parser(Language(getattr(importlib.import_module(package), function)()))

language, path = sys.argv[1:3]
with open(path, "rb") as source:
    tree = get_parser(language).parse(source.read())
print(tree.root_node.type)
