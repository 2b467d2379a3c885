"""What the command line says is true: its help lists every command, a wrong upload is told
once as what was found and what the assignment expects, a port in use is one `harness:` line,
and a YAML slip is named at its line with a hint. Each test runs the real `harness` command."""
import re
import socket

import pytest

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
