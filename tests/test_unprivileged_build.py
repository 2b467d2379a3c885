"""Where bubblewrap cannot run (a grading container without user namespaces), the compiler has
no more rights than the program it builds: a C++ source that includes a file of the grader's
(a hidden case, say) is refused it, and nothing of that file reaches the compiler's output,
which the student sees."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURE

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0 or shutil.which("g++") is None or shutil.which("setpriv") is None,
                                 reason="the unprivileged uid is the root harness's; needs g++ and setpriv")]

HARNESS = Path(sys.executable).with_name("harness")
SECRET = "hidden-case-inputs-4f1c2b"


def unconfined_path(tmp: Path) -> str:
    """PATH with a bwrap first that cannot make its namespaces, as in a container without them."""
    fake = tmp / "no-namespaces"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    (fake / "bwrap").chmod(0o755)
    return f"{fake}{os.pathsep}{os.environ['PATH']}"


def test_a_source_cannot_include_a_file_of_the_graders(tmp_path):
    source = tmp_path / "source"  # laid out as a platform lays out its autograder: root's alone
    (source / "cases").mkdir(parents=True)
    secret = source / "cases" / "hidden.yaml"
    secret.write_text(f"inputs: [{SECRET}]\n")
    source.chmod(0o700)
    secret.chmod(0o600)
    submission = tmp_path / "mallory"
    submission.mkdir()
    program = (FIXTURE / "examples" / "tally" / "correct-cpp" / "tally.cpp").read_text(encoding="utf-8")
    (submission / "tally.cpp").write_text(f'#include "{secret}"\n' + program, encoding="utf-8")
    reports = tmp_path / "reports"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_"))}
    env.update(PATH=unconfined_path(tmp_path), HARNESS_ROOT=str(FIXTURE))
    done = subprocess.run([str(HARNESS), "grade", "tally", str(submission), "-o", str(reports), "--no-sandbox"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    result = json.loads((reports / "mallory" / "result.json").read_text(encoding="utf-8"))
    assert result["sandbox"] == "none"
    build = next(iter(result["builds"].values()))
    assert not build["ok"]
    assert "Permission denied" in build["log"]
    everything = "\n".join(path.read_text(encoding="utf-8", errors="replace")
                           for path in reports.rglob("*") if path.is_file())
    assert SECRET not in everything + done.stdout + done.stderr
