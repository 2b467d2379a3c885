"""The manual (docs/, mkdocs.yml) and the README a newcomer reads: the site builds with no broken
link or anchor, the README's relative links reach files and headings that exist, and the
command-line page names every command, option and setting the harness has.

The build is MkDocs' own in strict mode (`validation:` in mkdocs.yml makes a link to a missing
page or anchor a warning, and strict mode makes a warning fail the build), run as a real process.
"""
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
