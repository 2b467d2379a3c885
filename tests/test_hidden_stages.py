"""Hidden cases in stages: the spec's `hidden_stages:` decide what a student is shown of a failed
hidden case — the count, then its name and description, then the turn where the output first
differs, then the whole case — and the student's view says which stage applies and when the
next begins. Against a real service (the fixture game, the bug-illegal sample failing its
hidden case), with stages dated in the past and in the far future so that the stage that
applies now is known without touching a clock; nothing beyond the stage is in anything sent."""
import json
import shutil
import subprocess

import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, SAMPLES
from tests.test_serve import HIDDEN, Server

pytestmark = pytest.mark.slow  # a service started and a submission graded per stage

PAST, FUTURE = "2000-01-01T00:00:00+00:00", "2999-01-01T00:00:00+00:00"
NAME, DESCRIPTION = HIDDEN, "A word and 5 are refused"


def _root(tmp_path, stages: list[tuple[str, str]]):
    root = tmp_path / "root"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    spec = root / "specs" / "tally" / "spec.yaml"
    spec.write_text(spec.read_text() + "hidden_stages:\n"
                    + "".join(f"  - {{from: '{start}', show: {show}}}\n" for start, show in stages))
    return root


def _secret_input(root) -> str:
    """A line the hidden case types that no public case does: only its transcript shows it."""
    cases = caseload.load_all(specs.load("tally", root), None)
    public = {line for c in cases if c.visibility == "public" and not c.strategy for line in c.prefix}
    (hidden,) = [c for c in cases if c.visibility == "hidden"]
    return next(line for line in hidden.prefix if line not in public)


def _seen(tmp_path, root) -> tuple[str, str, dict]:
    """bug-illegal graded, its hidden case done: (the status JSON, the report page, the hidden part)."""
    (tmp_path / "serve").mkdir()
    server = Server(tmp_path / "serve", root=root).start()
    try:
        status, body = server.upload("student1", [("tally.py", (SAMPLES / "bug-illegal" / "tally.py").read_bytes())])
        assert status == 202, body
        ident = json.loads(body)["id"]
        server.wait("student1", ident, whole=True)  # the hidden case has run
        status, state = server.call(f"/api/submissions/{ident}", server.tokens["student1"])
        assert status == 200
        status, page = server.call(f"/api/submissions/{ident}/report", server.tokens["student1"])
        assert status == 200
        return state.decode(), page.decode(), json.loads(state)["result"]["hidden"]
    finally:
        server.stop()


def test_before_the_first_stage_the_student_sees_the_count_and_when_more_comes(tmp_path):
    root = _root(tmp_path, [(FUTURE, "names")])
    state, page, hidden = _seen(tmp_path, root)
    assert hidden["stage"] == "count" and hidden["hidden"] == 1 and hidden["failed"] is None and hidden["cases"] == []
    assert FUTURE in hidden["said"] and "name and description" in hidden["said"]
    for sent in (state, page):
        assert NAME not in sent and DESCRIPTION not in sent


def test_at_the_names_stage_the_name_and_description_and_nothing_more(tmp_path):
    root = _root(tmp_path, [(PAST, "names"), (FUTURE, "turn")])
    secret = _secret_input(root)
    state, page, hidden = _seen(tmp_path, root)
    assert hidden["stage"] == "names" and hidden["failed"] == 1
    assert [(c["name"], c["description"].startswith(DESCRIPTION), c["turn"]) for c in hidden["cases"]] == \
        [(NAME, True, None)]
    assert FUTURE in hidden["said"]
    assert NAME in page and DESCRIPTION in page
    for sent in (state, page):
        assert f'"{secret}"' not in sent and "first differs after your" not in sent


def test_at_the_turn_stage_the_turn_that_differs_without_the_expected_text(tmp_path):
    root = _root(tmp_path, [(PAST, "turn")])
    secret = _secret_input(root)
    spec = specs.load("tally", root)
    (case,) = [c for c in caseload.load_all(spec, None) if c.visibility == "hidden"]
    # bug-illegal takes any whole number: the first turn after a number outside 1-3 is typed differs
    differs = next(i for i, line in enumerate(case.prefix, 1) if line.isdigit() and not 1 <= int(line) <= 3)
    state, page, hidden = _seen(tmp_path, root)
    assert [(c["name"], c["turn"], c["turns"]) for c in hidden["cases"]] == [(NAME, differs, [])]
    assert hidden["said"].endswith("first differs.") or "Hidden cases" in hidden["said"]
    expected_turn = [e["out"] for e in case.expected_events if "out" in e][differs]
    for sent in (state, page):
        assert f'"{secret}"' not in sent and f">{secret}<" not in sent
    assert expected_turn.splitlines()[0] not in json.dumps(hidden)


def test_at_the_transcript_stage_the_whole_case_in_a_browser(tmp_path):
    root = _root(tmp_path, [(PAST, "names"), ("2001-01-01T00:00:00+00:00", "transcript")])
    secret = _secret_input(root)
    state, page, hidden = _seen(tmp_path, root)
    assert hidden["stage"] == "transcript" and "From" not in hidden["said"]  # the last stage: nothing comes next
    (shown,) = hidden["cases"]
    assert secret in [turn["typed"] for turn in shown["turns"]]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no headless Chromium installed (apt-get install chromium)")
    path = tmp_path / "student.html"
    path.write_text(page, encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'p'}",
                          "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert 'id="hidden-cases"' in dom and NAME in dom and f"<pre>{secret}</pre>" in dom


def test_stages_out_of_order_or_showing_less_are_refused_at_their_line(tmp_path, harness_cli):
    for stages, says in (([(FUTURE, "names"), (PAST, "turn")], "time order"),
                         ([(PAST, "turn"), (FUTURE, "names")], "shows less"),
                         ([("2026-12-01", "names")], "time zone")):
        root = _root(tmp_path / says.replace(" ", "-"), stages)
        done = harness_cli("run", "tally", str(SAMPLES / "correct"), env={"HARNESS_ROOT": str(root)})
        assert done.returncode == 2 and says in done.stderr and "spec.yaml:" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("show", ["count", "names", "turn", "transcript"])
def test_gradescope_writes_a_hidden_test_at_the_level_of_the_last_stage(tmp_path, harness_cli, show):
    """Gradescope shows a test at one moment (after the due date, or when published): a hidden
    case's test carries what the spec's last stage shows, and no more."""
    root = _root(tmp_path, [(PAST, show)])
    secret = _secret_input(root)
    autograder = tmp_path / "autograder"
    shutil.copytree(SAMPLES / "bug-illegal", autograder / "submission")
    done = harness_cli("gradescope", "tally", "--autograder-root", str(autograder), "--no-sandbox",
                       env={"HARNESS_ROOT": str(root)})
    assert done.returncode in (0, 1), done.stderr
    results = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    (test,) = [t for t in results["tests"] if t["visibility"] != "visible"]
    text = json.dumps(test)
    assert (NAME in text) == (show != "count") and (DESCRIPTION in text) == (show != "count")
    assert ("first differs after your" in text) == (show == "turn")
    if show != "transcript":
        assert f'"{secret}"' not in text and f"'{secret}'" not in text
    assert test["max_score"] > 0  # it counts in the score at every level
