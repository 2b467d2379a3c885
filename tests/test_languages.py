"""A language is one record (harness/languages.py): the spec's schema, the command line, intake,
the build's recipes, the audit's mutants and the similarity check all read it, and no other
module keeps a table of suffixes or names of its own."""
import json
import re

from harness import languages
from harness.building import build, intake
from harness.classes import similarity
from harness.suite import source_mutants
from tests.helpers import ROOT


def test_the_specs_schema_offers_exactly_the_graded_languages():
    schema = json.loads((ROOT / "harness" / "loading" / "schemas" / "spec.schema.json").read_text(encoding="utf-8"))
    enums = []

    def walk(node):
        if isinstance(node, dict):
            if "enum" in node and "java" in node["enum"]:
                enums.append(node["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema)
    assert enums and all(tuple(e) == languages.GRADED_NAMES for e in enums), enums


def test_every_reader_of_a_language_reads_the_one_record():
    assert set(build.RECIPES) == set(languages.GRADED_NAMES)
    for language in languages.GRADED:
        assert build.RECIPES[language.name]["exts"] == language.sources
        for suffix in language.files:
            assert intake.language_of(f"Game{suffix.upper()}") == language.name
    assert {n: lexer for n, lexer in similarity.LEXERS.items()} == {l.name: l.lexer for l in languages.ALL}
    assert source_mutants.language_of("Board.java") == "java" and source_mutants.language_of("board.hpp") == "cpp"
    assert source_mutants.language_of("board.py") is None  # Python is mutated as a module, not as text
    assert intake.language_of("notes.txt") is None and intake.language_of(".java") is None


def test_no_other_module_keeps_a_table_of_languages():
    """The suffixes only a language table names, and the names a person reads, appear in
    languages.py alone (a second table is how a new language ends up known in one place only)."""
    table_words = re.compile(r'"\.(cxx|cc|hpp|kt|cs)"|"C\+\+"|"JavaScript"')
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "harness").rglob("*.py"))
             if path.name != "languages.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if table_words.search(line)]
    assert not found, found
