"""Every language the README lists teaches the reply format by an example (issue 21, item 3).

One sample file per language, written where that language's generic stand-in
example points and holding the definition it restates, so each sample checks
both examples a prompt may show: the real one the prompt builds from the file,
and the generic one shown when no definition of the file fits. Each is applied
as a reply in a dry run and must resolve and change nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kopipasta.engine import apply_reply
from kopipasta.intake.reader import parse_reply
from kopipasta.loop.prompt import render_prompt
from kopipasta.loop.prompt_examples import generic_example
from kopipasta.model import Status

# The languages of README.md's "Languages" paragraph, with one sample file each.
SAMPLES: dict[str, tuple[str, str]] = {
    "Python": ("app/models.py", 'class User:\n    def display_name(self) -> str:\n        return f"{self.first} {self.last}"\n'),
    "JavaScript": ("src/Greeting.jsx", "function Greeting({ name }) {\n  return <p>Hello, {name}!</p>;\n}\n"),
    "TypeScript": ("src/format.ts",
                   "function formatPrice(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`;\n}\n"),
    "Go": ("server.go", 'package main\n\ntype Server struct{}\n\nfunc (s *Server) health() string {\n\treturn "ok"\n}\n'),
    "Rust": ("src/point.rs", "struct Point { x: f64, y: f64 }\n\nimpl Point {\n    fn norm(&self) -> f64 {\n"
             "        self.x.hypot(self.y)\n    }\n}\n"),
    "Java": ("src/main/java/app/Greeter.java", 'package app;\n\nclass Greeter {\n    public String greet(String name) {\n'
             '        return "Hello, " + name;\n    }\n}\n'),
    "C#": ("Greeter.cs", 'class Greeter\n{\n    public string Greet(string name)\n    {\n        return $"Hello, {name}";\n'
           "    }\n}\n"),
    "Kotlin": ("Greeter.kt", 'class Greeter {\n    fun greet(name: String): String = "Hello, $name"\n}\n'),
    "Scala": ("Greeter.scala", 'class Greeter {\n  def greet(name: String): String = s"Hello, $name"\n}\n'),
    "Swift": ("Greeter.swift", 'class Greeter {\n    func greet(_ name: String) -> String {\n        "Hello, \\(name)"\n'
              "    }\n}\n"),
    "C": ("src/math.c", "#include <stdio.h>\n\nint add(int a, int b) {\n    return a + b;\n}\n"),
    "C++": ("src/greeter.cpp", '#include <string>\n\nclass Greeter {\npublic:\n    std::string greet(const std::string &name)'
            ' const {\n        return "Hello, " + name;\n    }\n};\n'),
    "Ruby": ("lib/greeter.rb", 'class Greeter\n  def greet(name)\n    "Hello, #{name}"\n  end\nend\n'),
    "PHP": ("src/Greeter.php", '<?php\n\nclass Greeter\n{\n    public function greet(string $name): string\n    {\n'
            '        return "Hello, " . $name;\n    }\n}\n'),
    "Lua": ("greeter.lua", 'local M = {}\n\nfunction M.greet(name)\n  return "Hello, " .. name\nend\n\nreturn M\n'),
    "Bash": ("scripts/greet.sh", '#!/bin/bash\n\ngreet() {\n  echo "Hello, $1"\n}\n\ngreet "$@"\n'),
    "Vue": ("src/Greeting.vue", "<template>\n  <p>{{ greet('you') }}</p>\n</template>\n\n<script>\nexport default {\n"
            "  methods: {\n    greet(name) {\n      return `Hello, ${name}`;\n    },\n  },\n};\n</script>\n"),
    "Svelte": ("src/Greeting.svelte", '<script>\n  export let name = "world";\n\n  function greet() {\n'
               "    return `Hello, ${name}`;\n  }\n</script>\n\n<p>{greet()}</p>\n"),
    "CSS": ("src/styles.css", ".btn {\n  padding: 4px 8px;\n}\n\n@media (max-width: 600px) {\n  .btn {\n    padding: 2px;\n  }\n}\n"),
    "HTML": ("index.html", '<!doctype html>\n<html>\n<head>\n  <style>\n    .btn {\n      padding: 4px 8px;\n    }\n  </style>\n'
             '</head>\n<body>\n  <nav id="menu">\n    <a href="/">Home</a>\n  </nav>\n</body>\n</html>\n'),
    "JSON": ("package.json", '{\n  "name": "app",\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n'),
    "YAML": ("docker-compose.yml", 'services:\n  web:\n    image: nginx\n    ports:\n      - "8080:80"\n'),
    "TOML": ("pyproject.toml", '[project]\nname = "app"\n\n[tool.ruff]\nline-length = 100\n'),
}


def test_the_samples_cover_every_language_the_readme_lists() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("Languages: Python") :].split("for `TARGET_PATH`", 1)[0]
    listed = set(re.findall(r"([A-Z][\w#+]*)\s+\(`\.", paragraph)) | {"JSON"}
    assert listed == set(SAMPLES)


def _dry_run(block: str, root: Path) -> list[Status]:
    return [o.status for o in apply_reply(block + "\n", root, dry_run=True).outcomes]


@pytest.mark.parametrize("language", list(SAMPLES))
def test_each_language_gets_an_example_that_applies(language: str, tmp_path: Path) -> None:
    path, text = SAMPLES[language]
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text(text, encoding="utf-8")

    prompt = render_prompt([path], task="", root=tmp_path)
    reply_format = prompt.split("# Reply format", 1)[1]
    examples = [b for b in parse_reply(reply_format) if b.directive("TARGET_NODE") or b.directive("TARGET_PATH")]
    assert len(examples) == 1, prompt
    assert "(An illustration" not in prompt  # built from the sample, not the stand-in
    assert examples[0].directive("FILE") == path

    generic = generic_example(language)
    assert generic.file == path
    # The stand-in restates the sample's definition: a dry run resolves it and changes nothing.
    assert _dry_run(generic.block, tmp_path) == [Status.UNCHANGED], generic.block
    assert (tmp_path / path).read_text(encoding="utf-8") == text
