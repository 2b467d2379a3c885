"""The warm compiler (one javac JVM for a grading) and the build cache, with real javac runs:
the same diagnostics as the javac command, a program it compiled runs, plain javac takes over
when it is killed, two building threads at once, and a build reused only for identical sources."""
import os
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from harness.building import build as builder
from harness.building import build_cache
from harness.building import diagnose
from harness.grading import submission as grading
from harness.loading import spec as specs
from harness.building.javac_server import START_AFTER, WarmJavac
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # the warm javac server against plain javac

BROKEN = 'public class A {\n    public static void main(String[] args) {\n        int x = "s";\n    }\n}\n'
HELLO = 'public class B {\n    public static void main(String[] args) {\n        System.out.println("hi " + args.length);\n    }\n}\n'
RECIPE = "javac -encoding UTF-8 -proc:none -Xlint:none -d {out} {sources}"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Every test builds for real: a build cache of its own, empty."""
    monkeypatch.setattr(build_cache, "folder", lambda: tmp_path / "build-cache")


@pytest.fixture
def warm():
    with WarmJavac() as compiler:
        yield compiler


def build_folder(compiler: WarmJavac, name: str, text: str) -> tuple[str, list[str]]:
    folder = Path(tempfile.mkdtemp(dir=compiler.workspace()))  # None (a folder of its own) until it is ready
    (folder / "out").mkdir()
    (folder / name).write_text(text)
    return str(folder), builder.expand(RECIPE, out=str(folder / "out"), sources=[name])


def ready(compiler: WarmJavac) -> None:
    """One submission never pays for the compiler: the first START_AFTER builds run plain
    javac and start nothing; the next starts it and waits until it is ready."""
    for _ in range(START_AFTER):
        folder, command = build_folder(compiler, "B.java", HELLO)
        assert compiler.compile(command, folder, 60) is None  # plain javac's turn
    assert compiler.pid() is None
    assert compiler.workspace() is not None, "the warm compiler did not start"
    assert compiler.pid() is not None


def test_the_same_diagnostics_as_the_javac_command(warm):
    ready(warm)
    folder, command = build_folder(warm, "A.java", BROKEN)
    reply = warm.compile(command, folder, 60)
    plain = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    assert reply is not None and warm.answered == 1
    assert reply.status == plain.returncode == 1
    assert reply.output == plain.stdout + plain.stderr
    assert diagnose.first_error(reply.output) == "A.java:3: error: incompatible types: String cannot be converted to int"
    assert not os.listdir(Path(folder) / "out")


def test_a_program_it_compiled_runs(warm):
    ready(warm)
    folder, command = build_folder(warm, "B.java", HELLO)
    reply = warm.compile(command, folder, 60)
    assert reply is not None and (reply.status, reply.output) == (0, "")
    ran = subprocess.run(["java", "-cp", str(Path(folder) / "out"), "B", "x", "y"], capture_output=True, text=True)
    assert ran.stdout == "hi 2\n"


def test_a_graded_submission_built_by_it_passes(warm):
    spec, milestone = specs.parse_game("reversi")
    from harness.loading import cases as caseload
    found = [c for c in caseload.load_all(spec, milestone) if c.name in ("ms2-illegal-white", "ms2-result-tie")]
    assert len(found) == 2
    ready(warm)
    with grading.Grader(jobs=2) as grader:
        grader.compiler.close()
        grader.compiler = warm
        result = grader.grade(spec, milestone, found, ROOT / "examples" / "reversi" / "correct-java")
    assert warm.answered == 1
    assert result.status == "graded" and result.passed == 2, [c.reason for c in result.cases]
    assert result.builds["game"].intake[-1] == "built with javac (the warm compiler): Reversi.java"


def test_plain_javac_takes_over_when_it_is_killed_and_a_fresh_compiler_the_next_build(warm, tmp_path):
    ready(warm)
    killed = warm.pid()
    os.killpg(killed, signal.SIGKILL)
    sample = ROOT / "examples" / "reversi" / "correct-java"
    spec = specs.load("reversi")
    built = builder.build(sample, spec, "game", warm)  # sent to the killed compiler: plain javac instead
    try:
        assert built.ok, built.reason
        assert (Path(built.out) / "Reversi.class").is_file()
        assert built.log.startswith("$ javac ")
    finally:
        builder.cleanup(built)
    assert warm.answered == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "Reversi.java").write_text((sample / "Reversi.java").read_text() + "// another submission\n")
    again = builder.build(other, spec, "game", warm)  # starts a fresh compiler and waits for it
    try:
        assert again.ok and again.intake[-1] == "built with javac (the warm compiler): Reversi.java", again.intake
        assert warm.pid() not in (None, killed)
    finally:
        builder.cleanup(again)
    assert warm.answered == 1


def test_two_threads_compile_at_once(warm):
    ready(warm)
    jobs = [build_folder(warm, "A.java", BROKEN), build_folder(warm, "B.java", HELLO)]
    replies = [None, None]
    start = threading.Barrier(2)

    def compile_one(index):
        start.wait()
        replies[index] = warm.compile(jobs[index][1], jobs[index][0], 60)

    threads = [threading.Thread(target=compile_one, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status for r in replies] == [1, 0]
    assert "A.java:3: error: incompatible types" in replies[0].output and replies[1].output == ""
    assert os.listdir(Path(jobs[1][0]) / "out") == ["B.class"] and not os.listdir(Path(jobs[0][0]) / "out")
    assert warm.answered == 2


def test_it_runs_in_the_sandbox_seeing_only_this_gradings_builds(warm, tmp_path):
    from harness.running import sandbox
    if not sandbox.available():
        pytest.skip("bubblewrap cannot run here: the compiler runs unconfined, as plain javac would")
    ready(warm)
    leader = warm.pid()
    children = subprocess.run(["pgrep", "-s", str(leader)], capture_output=True, text=True).stdout.split()
    java = [int(pid) for pid in children if Path(f"/proc/{pid}/exe").resolve().name == "java"]
    assert java, children
    root = Path(f"/proc/{java[0]}/root")
    assert (root / warm.workspace().relative_to("/")).is_dir()
    assert not (root / ROOT.relative_to("/")).exists()  # the project (cases, expected transcripts) is not there
    assert not (root / tmp_path.relative_to("/")).exists()  # nor any other folder, the build cache included
    assert not (root / build_cache.folder().relative_to("/")).exists()


def test_a_build_is_reused_only_for_identical_sources(tmp_path):
    spec = specs.load("reversi")
    sample = tmp_path / "sub"
    sample.mkdir()
    source = (ROOT / "examples" / "reversi" / "correct-java" / "Reversi.java").read_text()
    (sample / "Reversi.java").write_text(source)
    seen = []
    for text in (source, source, source + "\n// changed\n"):
        (sample / "Reversi.java").write_text(text)
        built = builder.build(sample, spec, "game")
        try:
            assert built.ok, built.reason
            assert (Path(built.out) / "Reversi.class").is_file()
            assert built.src in built.log  # the log names this build's folder, not the first one's
            seen.append(built.reused)  # the build cache's, told apart by type: never an intake line
        finally:
            builder.cleanup(built)
    assert seen == [False, True, False]


def test_a_failed_build_is_reused_with_its_first_error(tmp_path):
    spec = specs.load("reversi")
    (tmp_path / "Reversi.java").write_text("public class Reversi { void f() { int x = \"s\"; } }\n")
    first, second = builder.build(tmp_path, spec, "game"), builder.build(tmp_path, spec, "game")
    assert not first.ok and not second.ok
    assert first.reason == second.reason
    assert "Reversi.java:1: error: incompatible types: String cannot be converted to int" in second.reason
    assert second.diagnosis == first.diagnosis


def test_a_valid_case_is_remembered_but_an_edited_one_is_validated_again(tmp_path, monkeypatch):
    from harness.loading import schema
    from harness.loading import yamlfile
    from harness.errors import InputError
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    case = tmp_path / "case.yaml"
    case.write_text((ROOT / "cases" / "reversi" / "ms2-result-tie.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    schema.validate(yamlfile.load(case), "case.schema.json")
    assert len(list((tmp_path / "xdg" / "game-harness" / "valid").rglob("*"))) == 2  # one folder, one marker
    case.write_text(case.read_text(encoding="utf-8") + "colour: blue\n", encoding="utf-8")
    with pytest.raises(InputError, match="colour"):
        schema.validate(yamlfile.load(case), "case.schema.json")
    assert len(list((tmp_path / "xdg" / "game-harness" / "valid").rglob("*"))) == 2  # an error is never remembered
