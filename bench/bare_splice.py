"""The least any Tree-sitter tool must do to replace one definition, as a whole process.

    python bench/bare_splice.py LANGUAGE FILE OFFSET NEW_TEXT_FILE

Import Tree-sitter and the grammar, parse FILE, take the definition that starts
at byte OFFSET (its position is given: no resolution by name), splice the new
text over it, tell the tree about the edit, reparse incrementally, refuse a new
syntax error, and write the file atomically. No re-indentation, no report: the
new text is given exactly as it must land. The bench's comparator for big files.
"""

import importlib
import os
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

DEFINITIONS = {
    "function_definition", "class_definition", "function_declaration", "method_declaration",
    "function_item", "impl_item", "export_statement", "lexical_declaration",
}


def point(data: bytes, offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


def main() -> int:
    language, path, offset_text, new_path = sys.argv[1:5]
    offset = int(offset_text)
    parser = get_parser(language)  # a name from the command line
    with open(path, "rb") as source:
        data = source.read()
    tree = parser.parse(data)
    had_error = tree.root_node.has_error
    node = tree.root_node.descendant_for_byte_range(offset, offset)
    while node is not None and not (node.start_byte == offset and node.type in DEFINITIONS):
        node = node.parent
    if node is None:
        print(f"no definition starts at byte {offset}", file=sys.stderr)
        return 2
    with open(new_path, "rb") as new_file:
        new = new_file.read()
    start, old_end = node.start_byte, node.end_byte
    spliced = data[:start] + new + data[old_end:]
    new_end = start + len(new)
    tree.edit(
        start_byte=start, old_end_byte=old_end, new_end_byte=new_end,
        start_point=point(data, start), old_end_point=point(data, old_end),
        new_end_point=point(spliced, new_end),
    )
    if parser.parse(spliced, tree).root_node.has_error and not had_error:
        print("the new text has a syntax error", file=sys.stderr)
        return 1
    temporary = path + ".bench-tmp"
    with open(temporary, "wb") as out:
        out.write(spliced)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
