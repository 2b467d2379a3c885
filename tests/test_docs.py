"""The manual (docs/, mkdocs.yml) and the README a newcomer reads: the site builds with no broken
link or anchor, the README's and the manual's relative links reach files and headings that
exist, the command-line page names every command, option and setting the harness has, every
YAML example and every example in a table of options on the pages that write an assignment is
one the harness's schemas take, tables, lists and code blocks render as such, and the recipe
for a secret the program never prints grades as its page says.

The build is MkDocs' own in strict mode (`validation:` in mkdocs.yml makes a link to a missing
page or anchor a warning, and strict mode makes a warning fail the build), run as a real process.
"""
import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import cli
from tests.helpers import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
COMMAND_LINE = DOCS / "command-line.md"
CONFIG = ROOT / "harness" / "loading" / "config.py"

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"\n]*\")?\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config, "-d", site],
                          cwd=config.parent, capture_output=True, text=True, timeout=300)


def prose(text: str) -> str:
    """Markdown without its code blocks and code spans, where a bracket is not a link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading (as the README is read there): lower case, punctuation
    dropped, spaces as hyphens; MkDocs' toc makes the same for the plain headings used here."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown: Path) -> set[str]:
    return {github_anchor(h) for h in HEADING.findall(FENCE.sub("", markdown.read_text(encoding="utf-8")))}


def test_the_manual_builds_strict_with_every_link_and_anchor_found(tmp_path):
    built = mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stdout + built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    pages = sorted(p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.rglob("*.md"))
    for page in pages:
        html = "index.html" if page == "index" else f"{page}/index.html"
        assert (tmp_path / "site" / html).is_file(), f"docs/{page}.md was not built"


@pytest.mark.parametrize("broken", ["[a page](no-such-page.md)", "[a heading](cases.md#no-such-heading)",
                                    "[here](#no-such-heading)"])
def test_a_broken_link_or_anchor_fails_the_build(tmp_path, broken):
    """The strict build is what catches them: a copy of the manual with one bad link fails."""
    project = tmp_path / "project"
    shutil.copytree(DOCS, project / "docs")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    page = project / "docs" / "scores.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\nSee {broken}.\n", encoding="utf-8")
    built = mkdocs_build(project / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0
    target = broken.partition("(")[2].rstrip(")")
    assert f"'scores.md' contains a link '{target}'" in built.stderr, built.stderr


def readme_links() -> list[str]:
    return [t for t in LINK.findall(prose(README.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", t)]  # http:, https:, mailto: are not checked here


def test_the_readme_links_to_files_and_headings_that_exist():
    links = readme_links()
    assert any(t.startswith("docs/") for t in links)  # the README leads into the manual
    for target in links:
        path, _, anchor = target.partition("#")
        file = (ROOT / path).resolve() if path else README
        assert file.is_file() and ROOT in file.parents, f"README.md links to {target}: no such file"
        if anchor:
            assert anchor in anchors(file), f"README.md links to {target}: no such heading in {file.name}"


def test_the_readme_links_every_page_of_the_manual():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in readme_links()}
    missing = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in linked and p.name != "index.md"]
    assert not missing, f"README.md's list of the manual leaves out {missing}"


def commands() -> dict[str, object]:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.choices and a.dest == "command")
    return dict(sub.choices)


def test_the_command_line_page_names_every_command_and_option():
    page = COMMAND_LINE.read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `harness ")]
    for name, parser in commands().items():
        own = "\n".join(r for r in rows if re.match(rf"\| `harness {re.escape(name)}[ `]", r))
        assert own, f"docs/command-line.md has no row for `harness {name}`"
        for action in parser._actions:
            if not action.option_strings or "-h" in action.option_strings:
                continue
            assert any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", own) for o in action.option_strings), \
                f"docs/command-line.md: `harness {name}` does not name {'/'.join(action.option_strings)}"


def test_the_command_line_page_names_the_options_of_harness_itself():
    page = COMMAND_LINE.read_text(encoding="utf-8")
    for action in cli._parser()._actions:
        if action.option_strings and "-h" not in action.option_strings:
            assert any(f"`harness {o}`" in page for o in action.option_strings), \
                f"docs/command-line.md does not name `harness {'/'.join(action.option_strings)}`"


def test_the_command_line_page_names_every_setting():
    page = COMMAND_LINE.read_text(encoding="utf-8")
    settings = set(re.findall(r"HARNESS_[A-Z_]+", CONFIG.read_text(encoding="utf-8")))
    assert settings, "config.py names no HARNESS_ setting"
    assert not [s for s in sorted(settings) if f"`{s}`" not in page]


# --- the pages that write an assignment: every example is one the harness takes ---------------

SCHEMAS = {"spec": "spec.schema.json", "case": "case.schema.json", "samples": "samples.schema.json"}
# The smallest documents the schemas take: an example is laid onto one of these where it belongs.
BASE = {
    "spec": {"title": "T", "reference": "{python} -S {spec}/t.py",
             "targets": {"game": {"languages": {"python": {"files": ["t.py"], "main": "t.py"}}}},
             "rubric": [{"id": "play", "title": "Play", "points": 1}]},
    "case": {"description": "D", "rubric": "play", "inputs": []},
    "samples": {"samples": {"correct": {}}},
}
RANDOM_START = {"capture": "^Start: (\\S+)", "option": "--start-file", "plan_option": "--plan",
                "rejected_exit": 3, "unplayable_exit": 4}
# Where the examples in a table under each heading go: (document, keys of the mapping they are keys
# of, what that mapping holds before them). A new table of examples gets its place here.
PLACES = {
    ("specs.md", "Top-level keys"): ("spec", [], None),
    ("specs.md", "The reference"): ("spec", ["reference"], {"language": "python", "files": ["t.py"]}),
    ("specs.md", "Milestones"): ("spec", ["milestones", "ms1"], {"title": "M"}),
    ("specs.md", "Targets"): ("spec", ["targets", "game"], {"languages": {"python": {"files": ["t.py"]}}}),
    ("specs.md", "Building and running"): ("spec", ["targets", "game", "languages", "python"], {"files": ["t.py"]}),
    ("specs.md", "Rubric items"): ("spec", ["rubric", 0], {"id": "play", "title": "Play", "points": 1}),
    ("specs.md", "Limits"): ("spec", ["defaults", "limits"], {}),
    ("specs.md", "Message classes"): ("spec", ["messages", "tie"], {"text": "Tie", "accept": "tie"}),
    ("specs.md", "The state reader"): ("spec", ["state"], {"read": "reference.t:facts"}),
    ("specs.md", "Turn owners"): ("spec", ["owners", 0], {"item": "play", "what": "the end", "turn": "last"}),
    ("specs.md", "Options"): ("spec", ["random_start"], RANDOM_START),
    ("specs.md", "The law of a random setup"): ("spec", ["random_start", "distribution"],
                                                 {"uniform": [1, 6], "least": 10, "case": "first"}),
    ("cases.md", "Keys"): ("case", [], None),
    ("cases.md", "The expected transcript"): ("case", ["expect"], {"exit": 0, "transcript": []}),
    ("cases.md", "Accepted alternatives"): ("case", ["accept", 0], {"also": "Welcome!"}),
    ("cases.md", "Inputs that fit any start"): ("case", ["inputs"], {"strategy": "leftmost"}),
    ("cases.md", "Limits"): ("case", [], None),
    ("cases.md", "Flags"): ("case", [], None),
    ("cases.md", "What a case looks at"): ("case", [], None),
    ("adding-a-game.md", "Samples"): ("samples", ["samples", "bug"], {}),
}
# Keys of which a mapping holds one: an example of one replaces the other.
ALTERNATIVES = [{"capture", "fact"}, {"expect", "uniform"}, {"fails", "loses"}]
ASSIGNMENT_PAGES = ("adding-a-game.md", "specs.md", "cases.md")


def _blocks(page: str):
    """(heading, line, language, text) of every fenced block and (heading, line, rows) of every
    table of a page, rows as lists of cells; the heading is the nearest one above."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    heading, number, found = "", 0, []
    while number < len(lines):
        line = lines[number]
        fence = re.match(r"^(```|~~~)(\w*)", line)
        if fence:
            end = next(i for i in range(number + 1, len(lines)) if lines[i].startswith(fence.group(1)))
            found.append(("code", heading, number + 1, fence.group(2), "\n".join(lines[number + 1:end])))
            number = end + 1
            continue
        title = HEADING.match(line)
        if title:
            heading = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), title.group(1))
        elif line.startswith("|"):
            start = number
            while number < len(lines) and lines[number].startswith("|"):
                number += 1
            found.append(("table", heading, start + 1, None, [_cells(row) for row in lines[start:number]]))
            continue
        number += 1
    return found


def _cells(row: str) -> list[str]:
    """A table row's cells; a `|` inside a code span is not a cell's edge."""
    cells, cell, in_code = [], "", False
    for char in row.strip().strip("|"):
        if char == "`":
            in_code = not in_code
        if char == "|" and not in_code:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += char
    return cells + [cell.strip()]


def _validate(tmp_path: Path, kind: str, data: dict, where: str) -> None:
    """`data` as the harness reads a case or spec file: through its YAML loader and its schema."""
    from harness.errors import InputError
    from harness.loading import schema, yamlfile

    file = tmp_path / f"{kind}.yaml"
    file.write_text(json.dumps(data, default=str), encoding="utf-8")  # a YAML time as text
    try:
        schema.validate(yamlfile.load(file), SCHEMAS[kind])
    except InputError as error:
        pytest.fail(f"{where}: the example is not a valid {kind}: {error}\n{json.dumps(data, indent=1)}")


def _parsed(tmp_path: Path, text: str, where: str):
    """A YAML snippet read by the harness's own YAML loader (which refuses duplicate keys, aliases...)."""
    from harness.errors import InputError
    from harness.loading import yamlfile

    file = tmp_path / "snippet.yaml"
    file.write_text(text + "\n", encoding="utf-8")
    try:
        return yamlfile.load(file).data
    except InputError as error:
        pytest.fail(f"{where}: the YAML example does not load: {error}")


def _laid(kind: str, keys: list, holder: dict | None, example: dict) -> dict:
    """The smallest valid document of `kind` with `example`'s keys set in the mapping at `keys`."""
    document = copy.deepcopy(BASE[kind])
    if kind == "spec" and keys[:1] == ["random_start"]:
        document["random_start"] = copy.deepcopy(RANDOM_START)
    parent = document
    for depth, key in enumerate(keys):
        last = depth == len(keys) - 1
        if isinstance(parent, list):
            if key >= len(parent):
                parent.append(copy.deepcopy(holder if last else {}))
        elif last or key not in parent:
            parent[key] = copy.deepcopy(holder) if last else [] if isinstance(keys[depth + 1], int) else {}
        parent = parent[key]
    for key, value in example.items():
        for pair in ALTERNATIVES:
            if key in pair:
                for other in pair - {key}:
                    parent.pop(other, None)
        parent[key] = value
    return document


def _kind_of_block(page: str, data: dict) -> str:
    if page == "cases.md" or "description" in data:
        return "case"
    return "samples" if set(data) == {"samples"} else "spec"


@pytest.mark.parametrize("page", ASSIGNMENT_PAGES)
def test_every_yaml_example_on_the_assignment_pages_is_a_valid_spec_case_or_samples_file(tmp_path, page):
    """Each ```yaml block of the pages that write an assignment is a whole document or the top-level
    keys of one: laid onto the smallest valid document of its kind, it passes the harness's schema."""
    blocks = [b for b in _blocks(page) if b[0] == "code" and b[3] == "yaml"]
    assert blocks, f"docs/{page} has no YAML example"
    for _, heading, line, _, text in blocks:
        where = f"docs/{page}:{line} (under {heading!r})"
        data = _parsed(tmp_path, text, where)
        assert isinstance(data, dict), f"{where}: a YAML example is a mapping of top-level keys"
        kind = _kind_of_block(page, data)
        document = copy.deepcopy(BASE[kind])
        document.update(data)
        _validate(tmp_path, kind, document, where)


@pytest.mark.parametrize("page", ASSIGNMENT_PAGES)
def test_every_example_in_a_table_of_options_is_valid_where_it_belongs(tmp_path, page):
    """A table with an `example` column gives one example per key; each, set in the smallest valid
    document where its table's heading says the keys go, passes the schema, and names its row's key."""
    tables = [b for b in _blocks(page) if b[0] == "table" and "example" in b[4][0]]
    assert tables, f"docs/{page} has no table of options with examples"
    for _, heading, line, _, rows in tables:
        assert (page, heading) in PLACES, f"docs/{page}:{line}: a table of examples under {heading!r}, " \
                                          "which tests/test_docs.py's PLACES does not place"
        kind, keys, holder = PLACES[(page, heading)]
        column = rows[0].index("example")
        for row in rows[2:]:
            key = CODE_SPAN.findall(row[0])
            examples = [span.strip("`") for span in CODE_SPAN.findall(row[column])]
            if not key or not examples:
                continue  # a row that is no single key, or points to a section of its own
            where = f"docs/{page}:{line} (under {heading!r}, row {key[0]})"
            named = key[0].strip("`")
            for text in examples:
                example = _parsed(tmp_path, text, where)
                assert isinstance(example, dict), f"{where}: the example {text!r} is not `key: value`"
                shown = set(example) | {k for v in example.values() if isinstance(v, dict) for k in v}
                assert named in shown, f"{where}: the example {text!r} does not show {named}"
                _validate(tmp_path, kind, _laid(kind, keys, holder, example), where)


# --- links: every relative link of the manual reaches a page and a heading ---------------------

def _manual_links() -> list[tuple[Path, str]]:
    return [(page, target) for page in sorted(DOCS.glob("*.md"))
            for target in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def test_every_relative_link_of_the_manual_reaches_a_page_and_heading_that_exist():
    """Checked here without MkDocs too, so a page read on GitHub or in an editor links as the site does."""
    links = _manual_links()
    assert any(t == "specs.md#the-law-of-a-random-setup" for _, t in links)
    for page, target in links:
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.is_file(), f"docs/{page.name} links to {target}: no such file"
        if anchor:
            assert anchor in anchors(file), f"docs/{page.name} links to {target}: no heading #{anchor} in {file.name}"


def test_the_assignment_pages_name_no_readme_section_without_a_link():
    """The manual's pages used to be sections of the README; a reference to one is a link now."""
    for page in ASSIGNMENT_PAGES:
        text = prose((DOCS / page).read_text(encoding="utf-8"))
        stale = re.findall(r"README[’']s \"[^\"]+\"|\(README, \"[^\"]+\"\)", text)
        assert not stale, f"docs/{page} points to README sections that are pages now: {stale}"


# --- what a reader sees: tables, lists and code blocks render as such --------------------------

PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
# A line of a paragraph that Markdown left as text: a table row, a list item (a table or list
# with no blank line before it, or a list item indented too little to continue its list), or a
# fenced block rendered as inline code (a fence inside a list item).
UNRENDERED = re.compile(r"^\s*(?:\|.*\||[-*+] \S|\d+\. \S)")
FENCE_AS_CODE = re.compile(r"<code>\w+\n")
# Pages whose own text renders as a paragraph where a list was meant, until their authors fix it.
UNRENDERED_NOW = {"how-a-run-works": "a list after a paragraph with no blank line renders as the paragraph's text"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    built = mkdocs_build(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("site") / "site")
    assert built.returncode == 0, built.stdout + built.stderr
    return Path(built.args[-1])


def _pages():
    for page in sorted(p.stem for p in DOCS.glob("*.md")):
        reason = UNRENDERED_NOW.get(page)
        yield pytest.param(page, marks=pytest.mark.xfail(reason=reason)) if reason else page


@pytest.mark.parametrize("page", list(_pages()))
def test_tables_lists_and_code_blocks_render_as_such(site, page):
    html = (site / ("index.html" if page == "index" else f"{page}/index.html")).read_text(encoding="utf-8")
    main = html[html.index('role="main"'):html.index('<footer')]
    for paragraph in PARAGRAPH.findall(main):
        assert not FENCE_AS_CODE.search(paragraph), f"docs/{page}.md: a fenced block rendered as inline code: " \
                                                    f"{paragraph[:200]!r}"
        for line in TAG.sub("", paragraph).splitlines():
            assert not UNRENDERED.match(line), f"docs/{page}.md: Markdown left this line as a paragraph's text " \
                                               f"(a blank line missing before a table or list?): {line[:120]!r}"
    source = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    tables = len(re.findall(r"^\|[-|: ]+\|\s*$", FENCE.sub("", source), re.MULTILINE))
    assert main.count("<table") == tables, f"docs/{page}.md has {tables} tables, its page shows {main.count('<table')}"


# --- the recipe for a secret the program never prints, followed as the page says -----------------

SECRET_SECTION = "4. A secret the program never prints"


def test_the_secret_recipe_grades_as_the_page_says(tmp_path, harness_cli):
    """The section's own program, spec and case, put where the page says: the case regenerates from the
    reference told the secret, the program passes, and one that ignores the argument loses the item."""
    blocks = [b for b in _blocks("adding-a-game.md") if b[0] == "code" and b[1] == SECRET_SECTION]
    program = next(text for _, _, _, language, text in blocks if language == "python")
    spec_text, case_text = [text for _, _, _, language, text in blocks if language == "yaml"][:2]
    spec, case = _parsed(tmp_path, spec_text, "spec"), _parsed(tmp_path, case_text, "case")
    game, seed = "guess", case["seed"]
    root = tmp_path / "project"
    (root / "specs" / game).mkdir(parents=True)
    (root / "specs" / game / "spec.yaml").write_text(spec_text + "\n", encoding="utf-8")
    for file in spec["reference"]["files"]:
        (root / "specs" / game / file).write_text(program + "\n", encoding="utf-8")
    (root / "cases" / game).mkdir(parents=True)
    (root / "cases" / game / "six-tries.yaml").write_text(case_text + "\n", encoding="utf-8")
    env = {"HARNESS_ROOT": str(root)}

    regen = harness_cli("regen", game, cwd=root, env=env)
    assert regen.returncode == 0, regen.stdout + regen.stderr
    recorded = (root / "cases" / game / "six-tries.yaml").read_text(encoding="utf-8")
    tries = [str(line) for line in case["inputs"]].index(str(seed)) + 1
    assert f"Got it in {tries} tries!" in recorded  # the reference played against the case's seed

    main = spec["targets"]["game"]["languages"]["python"]["main"]
    other = seed + 1 if seed < 100 else seed - 1
    ignoring = program.replace('if "--secret" in args:', "if False:").replace("random.randint(1, 100)", str(other))
    assert ignoring != program
    for sample, text in (("correct", program), ("bug-ignores-secret", ignoring)):
        (root / "examples" / game / sample).mkdir(parents=True)
        (root / "examples" / game / sample / main).write_text(text + "\n", encoding="utf-8")
    item = case["rubric"]
    (root / "examples" / game / "expected.yaml").write_text(
        f"samples:\n  correct: {{}}\n  bug-ignores-secret: {{loses: [{item}]}}\n", encoding="utf-8")
    samples = harness_cli("samples", game, "--no-sandbox", cwd=root, env=env)
    assert samples.returncode == 0, samples.stdout + samples.stderr
    assert "2 of 2 samples as expected.yaml says" in samples.stdout


# --- the tables of options name every key the schemas take --------------------------------------

# Where the keys of each mapping the schemas define are listed: (document, keys to the mapping) ->
# the tables (page, heading) whose first column names them all.
COMPLETE = {
    ("spec", ()): [("specs.md", "Top-level keys")],
    ("spec", ("reference",)): [("specs.md", "The reference")],
    ("spec", ("milestones", "ms1")): [("specs.md", "Milestones")],
    ("spec", ("targets", "game")): [("specs.md", "Targets")],
    ("spec", ("targets", "game", "languages", "python")): [("specs.md", "Building and running")],
    ("spec", ("rubric", 0)): [("specs.md", "Rubric items")],
    ("spec", ("defaults", "limits")): [("specs.md", "Limits")],
    ("spec", ("messages", "tie")): [("specs.md", "Message classes")],
    ("spec", ("state",)): [("specs.md", "The state reader")],
    ("spec", ("owners", 0)): [("specs.md", "Turn owners")],
    ("spec", ("random_start",)): [("specs.md", "Options")],
    ("spec", ("random_start", "distribution")): [("specs.md", "The law of a random setup")],
    ("case", ()): [("cases.md", "Keys")],
    ("case", ("expect",)): [("cases.md", "The expected transcript")],
    ("case", ("accept", 0)): [("cases.md", "Accepted alternatives")],
    ("case", ("inputs",)): [("cases.md", "Inputs that fit any start")],
    ("case", ("limits",)): [("cases.md", "Limits")],
    ("case", ("compare",)): [("cases.md", "Presets"), ("cases.md", "Flags"), ("cases.md", "What a case looks at")],
    ("samples", ("samples", "correct")): [("adding-a-game.md", "Samples")],
}
NOT_A_ROW = {("case", ("compare",)): {"preset"}}  # the presets' own table names each preset instead


def _schema(name: str) -> dict:
    return json.loads((ROOT / "harness" / "loading" / "schemas" / name).read_text(encoding="utf-8"))


def _resolve(node: dict, document: dict) -> dict:
    """A schema node with its $ref followed (in its own file or case.schema.json) and, of a oneOf
    between a plain value and a mapping, the mapping."""
    while "$ref" in node:
        file, _, pointer = node["$ref"].partition("#")
        node = _schema(file) if file else document
        for part in pointer.strip("/").split("/"):
            node = node[part]
    mappings = [n for n in node.get("oneOf", []) if "properties" in n]
    return mappings[0] if "properties" not in node and mappings else node


def _keys_of(kind: str, keys: tuple) -> set[str]:
    document = _schema(SCHEMAS[kind])
    node = _resolve(document, document)
    for key in keys:
        node = _resolve(node["items"] if isinstance(key, int) else
                        node.get("properties", {}).get(key) or node["additionalProperties"], document)
    return set(node["properties"])


@pytest.mark.parametrize("place", list(COMPLETE), ids=lambda p: "/".join(map(str, (p[0], *p[1]))))
def test_the_tables_of_options_name_every_key_the_schema_takes(place):
    tables: dict[tuple[str, str], list] = {}
    for page in ASSIGNMENT_PAGES:
        for block in _blocks(page):
            if block[0] == "table":
                tables.setdefault((page, block[1]), []).extend(block[4][2:])
    named = set()
    for table in COMPLETE[place]:
        assert table in tables, f"docs/{table[0]} has no table under {table[1]!r}"
        named |= {span.strip("`").rstrip(":") for row in tables[table] for span in CODE_SPAN.findall(row[0])}
    missing = _keys_of(*place) - named - NOT_A_ROW.get(place, set())
    pages = ", ".join(f"docs/{page} ({heading!r})" for page, heading in COMPLETE[place])
    assert not missing, f"{pages}: no row for {sorted(missing)}, which the schema takes"
