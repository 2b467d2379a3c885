"""What the command line says is true: its help lists every command, a wrong upload is told
once as what was found and what the assignment expects, a port in use is one `harness:` line,
and a YAML slip is named at its line with a hint. Each test runs the real `harness` command."""
import re
import socket

import pytest

from tests.helpers import FIXTURE, ROOT

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
