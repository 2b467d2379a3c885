"""Two students who work together print the same wrong line and make it a suspect case: the
class page's card and `harness accept` say what accepting it lets through, and the case file
keeps how few asked for it, which the audit prints beside whatever the acceptance lets through
(docs/after-grading.md, "Suspect cases"; harness/reporting/suspects.py).

A real class of the fixture's Tally is graded with the real command line: four correct programs
and a pair, mallory and trudy, whose program says `Legal!` where the handout's is `Illegal!`."""
import html as htmllib
import os
import re
import shlex
import subprocess
import sys

import pytest
import yaml

from harness.reporting import suspects
from tests.helpers import FIXTURE, ROOT, copy_project

pytestmark = pytest.mark.slow

HONEST = ["ann", "bob", "cat", "dan"]
PAIR = ["mallory", "trudy"]


def harness(root, *args):
    return subprocess.run([sys.executable, "-m", "harness", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "HARNESS_ROOT": str(root),
                                                       "HARNESS_SANDBOX": "off"})


@pytest.fixture
def graded(tmp_path):
    root = copy_project(FIXTURE, tmp_path / "project", games=["tally"])
    correct = (FIXTURE / "examples" / "tally" / "correct" / "tally.py").read_text(encoding="utf-8")
    assert correct.count('print("Illegal!")') == 1
    folder, out = tmp_path / "class", tmp_path / "reports"
    for name in HONEST + PAIR:
        (folder / name).mkdir(parents=True)
        source = correct.replace('print("Illegal!")', 'print("Legal!")') if name in PAIR else correct
        (folder / name / "tally.py").write_text(source, encoding="utf-8")
    done = harness(root, "grade", "tally", folder, "-o", out, "-q", "--no-sandbox")
    assert done.returncode == 1, done.stdout + done.stderr
    return root, out


def test_the_page_and_accept_say_whose_wrong_line_an_acceptance_lets_through(graded):
    root, out = graded
    page = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="suspects"' in page  # two of six do well elsewhere and fail the same way: over the thresholds
    assert len(PAIR) >= suspects.MIN_SUBMISSIONS and len(PAIR) / len(HONEST + PAIR) >= suspects.MIN_SHARE
    text = htmllib.unescape(re.sub(r"<[^>]+>", " ", page))
    said = suspects.lets_through_said(PAIR)
    assert f"Accepting it turns the line of {len(PAIR)} submissions from failing to passing ({', '.join(PAIR)})" in said
    assert len(PAIR) < suspects.FEW and f"Only {len(PAIR)} submissions print it: read it against the handout" in said
    assert said in " ".join(text.split())
    for name in HONEST:
        assert name not in said

    commands = [htmllib.unescape(c) for c in re.findall(r'<code class="accept">([^<]*)</code>', page)]
    legal = [c for c in commands if "--also=Legal!" in shlex.split(c)]
    assert legal, commands
    words = shlex.split(legal[0])
    why = suspects.asked_by(len(PAIR), len(HONEST + PAIR))
    assert f"--why={why}" in words and "read it against the handout" in why

    done = harness(root, *words[1:], "-o", out)  # the page's command, told where the class's reports are
    assert done.returncode == 0, done.stderr
    told = " ".join(done.stdout.split())
    assert "it lets through: any program that prints 'Legal!' where the reference prints 'Illegal!'" in told
    assert f"In {out}: {said}" in told
    case = words[3]
    # the count stays with the acceptance in the case file: `harness audit` prints its `why` beside
    # every mutant it lets through
    accepted = yaml.safe_load((root / "cases" / "tally" / f"{case}.yaml").read_text(encoding="utf-8"))["accept"]
    assert [(entry["line"], entry["also"], entry["why"]) for entry in accepted] == [("Illegal!", "Legal!", why)]

    elsewhere = harness(root, *words[1:], "-o", out / "no-such-class")
    assert elsewhere.returncode == 0 and "whose lines it turns to passing is not known" in elsewhere.stdout

