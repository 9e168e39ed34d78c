"""What compiling each grammar's queries costs, in-process (issue 9: query compilation).

    python bench/query_compile.py              # every grammar, min of 7 compiles each
    python bench/query_compile.py --repeat 15 cpp typescript

Columns (thread CPU time, ms, the minimum over the rounds):
  kopipasta  the definitions query as `languages._query` compiles it: patterns marked
             `(#structure-in-python!)` as their root alone (query_shapes.py)
  whole      the same text with every pattern compiled whole by Tree-sitter (what every
             process paid before the marks; the marks themselves cost nothing to compile)
  values     the strings/comments query of the indent unit (`languages._types_query`)
  floor      a one-node query `(_) @x`: what any query on the grammar costs (Tree-sitter
             scans the whole parse table for every query it compiles)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kopipasta.syntax import languages  # noqa: E402


def _best(repeat: int, compile_once: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        compile_once()
        best = min(best, time.thread_time() - start)
    return best * 1000


def _row(spec: languages.LanguageSpec, repeat: int) -> str:
    from tree_sitter import Query

    text = "\n".join(languages._query_text(name) for name in (spec.query_file, *spec.extra_queries))
    language = languages.grammar_language(spec.grammar)
    query, shaped = languages.compile_definitions_query(spec.grammar, text)
    types = (*spec.string_types, *spec.comment_types)
    values_text = "[" + " ".join(f"({t})" for t in dict.fromkeys(types)) + "] @node"
    ours = _best(repeat, lambda: languages.compile_definitions_query(spec.grammar, text))
    whole = _best(repeat, lambda: languages.compile_definitions_query(spec.grammar, text, native=True))
    values = _best(repeat, lambda: Query(language, values_text))
    floor = _best(repeat, lambda: Query(language, "(_) @x"))
    marked = f"{len(shaped)}/{query.pattern_count}"
    return f"{spec.grammar:12} {marked:>8} {ours:10.2f} {whole:8.2f} {values:8.2f} {floor:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("grammars", nargs="*", help="only these grammars (default: every one with a query)")
    args = parser.parse_args()
    print(f"{'grammar':12} {'marked':>8} {'kopipasta':>10} {'whole':>8} {'values':>8} {'floor':>7}")
    for spec in languages.LANGUAGES:
        if spec.query_file and (not args.grammars or spec.grammar in args.grammars):
            print(_row(spec, args.repeat))


if __name__ == "__main__":
    main()
