"""What the command line says is true: its help lists every command, a wrong upload is told
once as what was found and what the assignment expects, a port in use is one `harness:` line,
and a YAML slip is named at its line with a hint. Each test runs the real `harness` command."""
import os
import re
import socket
import sys

import pexpect
import pytest

from harness.loading import cases as caseload
from harness.loading import spec as specs
from tests.helpers import FIXTURE, ROOT, SAMPLES

COMMAND_ROW = re.compile(r"^\| `harness ([a-z-]+)", re.MULTILINE)


def _documented_commands() -> set[str]:
    """The commands docs/command-line.md's table describes."""
    return set(COMMAND_ROW.findall((ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")))


def test_help_lists_every_command_with_its_summary_on_its_line(harness_cli):
    done = harness_cli("--help", env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    text = done.stdout
    listed = {}
    lines = text.split("COMMAND\n", 1)[1].split("\n\n", 1)[0].splitlines()
    column = len(lines[0]) - len(lines[0].split(None, 1)[1])  # where the first summary starts
    for line in lines:
        if line[:column].strip():  # a command: its summary starts beside its name
            name, _, summary = line.strip().partition(" ")
            assert summary.strip() and line[column - 1] == " " and line[column] != " ", \
                f"a command without its summary beside it: {line!r}"
            listed[name] = summary.strip()
        else:  # a long summary goes on under the one before
            assert listed and line[column] != " ", f"a line of the list that belongs to no command: {line!r}"
    documented = _documented_commands()
    assert documented and documented <= set(listed), documented - set(listed)
    described = text.split("\n\n", 2)[1]  # the line under the usage
    named = set(re.findall(r"[a-z-]+", described.split(":", 1)[1]))
    assert set(listed) <= named, set(listed) - named


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_2(harness_cli, tmp_path):
    pytest.importorskip("uvicorn")
    names = tmp_path / "names.txt"
    names.write_text("ada\nbob\n", encoding="utf-8")
    made = harness_cli("serve", "--make-tokens", names)
    assert made.returncode == 0, made.stderr
    roster = tmp_path / "roster.csv"
    roster.write_text(made.stdout, encoding="utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = harness_cli("serve", "tally", "--roster", roster, "--host", "127.0.0.1", "--port", port,
                           "--data", tmp_path / "data", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == f"harness: port {port} on 127.0.0.1 is in use — choose another with --port\n"
    assert "http://" not in done.stdout + done.stderr  # no address said for a service that never listened


def _loading(harness_cli, project):
    """`harness run` on the fixture game of `project`: a broken case or spec stops it before anything runs."""
    return harness_cli("run", "tally", SAMPLES / "correct", env={"HARNESS_ROOT": str(project)})


def _first(lines: list[str], start: str) -> int:
    """The 0-based index of the first line that starts with `start`."""
    return next(i for i, line in enumerate(lines) if line.startswith(start))


def test_a_line_indented_one_space_too_far_is_named_not_the_line_after_it(harness_cli, tally_project):
    """`exit:` one space deeper than `transcript:` under `expect:`: libyaml gives up at the
    `transcript:` line ("did not find expected key"); the slip is on the line before."""
    case = tally_project / "cases" / "tally" / "add-two.yaml"
    lines = case.read_text(encoding="utf-8").split("\n")
    slip = _first(lines, "  exit:")
    assert lines[slip + 1].startswith("  transcript:")  # the line libyaml stops at
    lines[slip] = " " + lines[slip]
    case.write_text("\n".join(lines), encoding="utf-8")
    done = _loading(harness_cli, tally_project)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"harness: {case}:{slip + 1}: the indentation of line {slip + 1} does not match "
                                  "the lines around it") and done.stderr.count("\n") == 1, done.stderr


def test_a_text_line_indented_less_than_its_block_is_named(harness_cli, tally_project):
    """A line of an `out: |-` block indented less than the block: libyaml reads it as a key and
    gives up on the line after, waiting for its `:`."""
    case = tally_project / "cases" / "tally" / "add-two.yaml"
    lines = case.read_text(encoding="utf-8").split("\n")
    slip = _first(lines, "        Add?")
    lines[slip] = lines[slip].strip()
    lines[slip] = "      " + lines[slip]
    case.write_text("\n".join(lines), encoding="utf-8")
    done = _loading(harness_cli, tally_project)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"harness: {case}:{slip + 1}: line {slip + 1} reads as a key with no `:`: its "
                                  "indentation does not match the lines around it") and done.stderr.count("\n") == 1


def test_a_misspelt_key_of_a_case_gets_the_key_it_meant(harness_cli, tally_project):
    case = tally_project / "cases" / "tally" / "add-two.yaml"
    lines = case.read_text(encoding="utf-8").split("\n")
    at = _first(lines, "rubric:")
    lines[at] = lines[at].replace("rubric:", "rubirc:")
    case.write_text("\n".join(lines), encoding="utf-8")
    done = _loading(harness_cli, tally_project)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"harness: {case}:{at + 1}: ") and done.stderr.count("\n") == 1
    assert "'rubirc'" in done.stderr and done.stderr.rstrip().endswith("did you mean `rubric`?"), done.stderr


def test_a_misspelt_key_deep_in_a_spec_gets_the_key_it_meant(harness_cli, tally_project):
    spec = tally_project / "specs" / "tally" / "spec.yaml"
    lines = spec.read_text(encoding="utf-8").split("\n")
    at = _first(lines, "  limits:")
    assert "turn_seconds:" in lines[at]
    lines[at] = lines[at].replace("turn_seconds:", "turn_secnds:")
    spec.write_text("\n".join(lines), encoding="utf-8")
    done = _loading(harness_cli, tally_project)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"harness: {spec}:{at + 1}: ") and done.stderr.count("\n") == 1
    assert "'turn_secnds'" in done.stderr and done.stderr.rstrip().endswith("did you mean `turn_seconds`?")


def test_a_key_near_no_allowed_one_is_told_to_be_checked(harness_cli, tally_project):
    case = tally_project / "cases" / "tally" / "add-two.yaml"
    case.write_text(case.read_text(encoding="utf-8") + "zzz: 1\n", encoding="utf-8")
    done = _loading(harness_cli, tally_project)
    assert done.returncode == 2 and "'zzz'" in done.stderr and "did you mean" not in done.stderr
    assert "remove it or check its spelling" in done.stderr


# --- a wrong upload -------------------------------------------------------------------------

NAMES = {"java": "Java", "python": "Python", "cpp": "C++"}


def _expects(game: str, target: str, *root) -> str:
    """What the spec says the target takes, the handout's language first, as a person reads it."""
    spec, _ = specs.parse_game(game, *root)
    chosen = spec.targets[target]
    languages = sorted(chosen.languages.values(), key=lambda lang: lang.name != chosen.handout_language)
    told = [f"{NAMES[lang.name]}: {', '.join(lang.files)}" for lang in languages]
    return told[0] + (f" (or {', or '.join(told[1:])})" if told[1:] else "")


def _case_count(game: str, public_only: bool = False) -> int:
    spec, milestone = specs.parse_game(game)
    return sum(1 for case in caseload.load_all(spec, milestone) if not public_only or case.visibility != "hidden")


def _says_nothing_untrue(out: str) -> None:
    assert "build failed" not in out and "without the sandbox" not in out, out  # nothing was built, nothing ran
    assert "submission for target" not in out and "written in" not in out, out  # no language was guessed


def test_a_notes_file_for_a_java_assignment_says_what_was_found_and_what_is_expected(harness_cli, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# My notes\n", encoding="utf-8")
    done = harness_cli("grade", "silver-dollar", notes, "-o", tmp_path / "out")
    assert done.returncode == 1, done.stdout + done.stderr
    _says_nothing_untrue(done.stdout)
    told = [line for line in done.stdout.splitlines() if "notes.md" in line and "build of" in line]
    assert told == [f"  build of game: found notes.md (no source file); this assignment expects "
                    f"{_expects('silver-dollar', 'game')}"], done.stdout
    assert f"  FAIL {_case_count('silver-dollar')} cases not run: nothing was built (above)" in done.stdout
    page = (tmp_path / "out" / "notes" / "report.html").read_text(encoding="utf-8")  # the report says the same
    assert "(None)" not in page and "build failed" not in page
    assert page.count("not run: nothing was built") == _case_count("silver-dollar")
    # Gradescope's and JUnit's copies say the same of every case: nothing was built, not a failed build
    for name in ("results.json", "junit.xml"):
        export = (tmp_path / "out" / "notes" / name).read_text(encoding="utf-8")
        assert "build failed" not in export, name
        assert export.count("Not run: nothing was built") == _case_count("silver-dollar"), name


def test_a_check_of_an_empty_folder_says_it_is_empty_and_no_sandbox_note(harness_cli, tmp_path):
    (tmp_path / "empty").mkdir()
    done = harness_cli("check", "silver-dollar", tmp_path / "empty", "-o", tmp_path / "report")
    assert done.returncode == 1, done.stdout + done.stderr
    _says_nothing_untrue(done.stdout + done.stderr)
    assert (f"  build of game: the submission is empty; this assignment expects {_expects('silver-dollar', 'game')}"
            in done.stdout.splitlines()), done.stdout
    assert f"{_case_count('silver-dollar', public_only=True)} cases not run: nothing was built" in done.stdout


def test_a_folder_of_text_only_says_there_is_no_source_file(harness_cli, tmp_path):
    folder = tmp_path / "alice"
    folder.mkdir()
    (folder / "readme.txt").write_text("I ran out of time\n", encoding="utf-8")
    done = harness_cli("grade", "tally", folder, "-o", tmp_path / "out", env={"HARNESS_ROOT": str(FIXTURE)})
    assert done.returncode == 1, done.stdout + done.stderr
    _says_nothing_untrue(done.stdout)
    assert (f"  build of game: found readme.txt (no source file); this assignment expects {_expects('tally', 'game', FIXTURE)}"
            in done.stdout.splitlines()), done.stdout


def test_a_python_file_for_a_java_only_game_is_named_as_python_once(harness_cli, tmp_path):
    """Flip takes Java only, for two targets: the Python file is named once, for both."""
    program = tmp_path / "flip.py"
    program.write_text("print('hello')\n", encoding="utf-8")
    spec, _ = specs.parse_game("flip")
    assert all(list(target.languages) == ["java"] for target in spec.targets.values())
    expects = {_expects("flip", target) for target in spec.targets}
    assert len(expects) == 1
    done = harness_cli("grade", "flip", program, "-o", tmp_path / "out")
    assert done.returncode == 1, done.stdout + done.stderr
    _says_nothing_untrue(done.stdout)
    told = [line for line in done.stdout.splitlines() if "flip.py" in line and "build of" in line]
    assert told == [f"  build of {', '.join(spec.targets)}: found flip.py (Python, which this assignment does not "
                    f"take); this assignment expects {expects.pop()}"], done.stdout


def test_a_misnamed_source_in_the_right_language_says_what_is_missing_and_what_was_found(harness_cli, tmp_path):
    folder = tmp_path / "bob"
    folder.mkdir()
    (folder / "SilverDollar.java").write_text("class SilverDollar {}\n", encoding="utf-8")
    spec, _ = specs.parse_game("silver-dollar")
    java = spec.targets["game"].languages["java"].files
    done = harness_cli("grade", "silver-dollar", folder, "-o", tmp_path / "out")
    assert done.returncode == 1
    _says_nothing_untrue(done.stdout.replace("  build of game (java)", ""))
    assert (f"  build of game (java): missing file{'s' if len(java) > 1 else ''} {', '.join(java)}: found "
            f"SilverDollar.java; a Java submission needs {', '.join(java)}" in done.stdout.splitlines()), done.stdout


def test_check_on_a_terminal_is_in_colour_unless_no_color_is_set(tmp_path):
    """`harness check` and `harness run` colour their summary on a terminal, and never with NO_COLOR set
    (https://no-color.org), as `harness grade` does."""
    def on_terminal(**extra) -> str:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONUNBUFFERED")}
        env.update(HARNESS_ROOT=str(FIXTURE), **extra)
        child = pexpect.spawn(sys.executable, ["-m", "harness", "check", "tally",
                                               str(FIXTURE / "examples" / "tally" / "bug-add"), "-o", str(tmp_path / "r")],
                              cwd=str(ROOT), env=env, encoding="utf-8", timeout=300)
        child.expect(pexpect.EOF)
        child.close()
        return child.before

    assert "\x1b[" in on_terminal()
    assert "\x1b[" not in on_terminal(NO_COLOR="1")
