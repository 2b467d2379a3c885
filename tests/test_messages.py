"""What the command line says is true: its help lists every command, a wrong upload is told
once as what was found and what the assignment expects, a port in use is one `harness:` line,
and a YAML slip is named at its line with a hint. Each test runs the real `harness` command."""
import re

from tests.helpers import ROOT

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
    for line in lines:
        name, _, summary = line.strip().partition(" ")
        assert line.startswith("    ") and not line.startswith("     ") and summary.strip(), \
            f"a command without its summary beside it: {line!r}"
        listed[name] = summary.strip()
    documented = _documented_commands()
    assert documented and documented <= set(listed), documented - set(listed)
    described = text.split("\n\n", 2)[1]  # the line under the usage
    named = set(re.findall(r"[a-z-]+", described.split(":", 1)[1]))
    assert set(listed) <= named, set(listed) - named
