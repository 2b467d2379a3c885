"""First steps and the manual: the README's demo class is a folder that exists and is graded as a
class (each sample folder one submission, the real command on the fixture's samples), the `docs`
extra is MkDocs alone, and the built manual lists every grading page on its home page, shows
the adding-a-game options without stray backslashes and loads nothing from the network."""
import csv
import re
import subprocess
import sys
import tomllib

import pytest
import yaml

from harness.classes import classroom
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, SAMPLES

pytestmark = pytest.mark.slow  # a class graded, the manual built

DEMO = re.compile(r"^harness grade (\S+) (examples/\S+/) -o reports/$", re.M)


def _samples(folder) -> set[str]:
    return set(yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))["samples"])


def test_the_readmes_demo_class_exists_and_is_graded_as_a_class(tmp_path, harness_cli):
    """The README's step 2 names a samples folder that exists and reads as a class of its
    samples; the same command on the fixture game's samples (quicker than Reversi's javac builds)
    grades each sample folder as one submission."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    step = readme.split("### 2. Grade a class")[1].split("### 3.")[0]
    game, folder = DEMO.search(step).groups()
    assert "harness samples" in step
    found = classroom.find([ROOT / folder], specs.load(game, ROOT))
    assert {entry.name for entry in found.entries} == _samples(ROOT / folder)

    out = tmp_path / "reports"
    done = harness_cli("grade", "tally", f"{SAMPLES}/", "-o", out, "-q", "-k", "add-two",
                       env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode in (0, 1), done.stdout + done.stderr  # seeded bugs fail
    with (out / "gradebook.csv").open(encoding="utf-8", newline="") as f:
        assert {row["submission"] for row in csv.DictReader(f)} == _samples(SAMPLES)
    assert (out / "index.html").is_file()


def test_the_docs_extra_is_mkdocs_alone():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert [re.split(r"[<>=!~ ]", d)[0] for d in extras["docs"]] == ["mkdocs"]


def test_the_built_manual_lists_its_pages_and_loads_nothing_from_the_network(tmp_path):
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    home = (site / "index.html").read_text(encoding="utf-8")
    for page in ("late-work", "after-grading", "similarity", "prairielearn", "github-classroom"):
        assert f'href="{page}/"' in home, page
    adding = (site / "adding-a-game" / "index.html").read_text(encoding="utf-8")
    assert "\\|" not in adding and "<code>java</code>" in adding
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//', text), page
