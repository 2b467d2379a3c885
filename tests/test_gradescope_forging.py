"""On Gradescope without bubblewrap, a submission cannot forge its score (docs/gradescope.md).

The real run_autograder runs in an /autograder-like folder of its own, with a `bwrap` first on
PATH that fails as one does in a container without user namespaces (so the script grades with
--no-sandbox). The submission, a Java program, tries what a hostile student would: write a
results.json of 100 points and put a folder where the harness writes its own (so the harness
cannot replace it), and rewrite the part of run_autograder after the harness's line so that it
writes one after the harness is done. The results must be the honest ones: the
program fails its case, and it says it was refused both times.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from tests.helpers import ROOT

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                                 reason="Gradescope runs run_autograder as root (and setpriv drops the program)")]

FORGED = '{"score": 100.0, "output": "forged", "tests": []}'
FORGER = r'''
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

public class Reversi {
    public static void main(String[] args) {
        String root = "ROOT", forged = "FORGED";
        try {
            Files.writeString(Path.of(root, "results", "results.json"), forged);
            // the harness writes results.json.partial, then renames it: a folder there stops it
            Files.createDirectories(Path.of(root, "results", "results.json.partial"));
            System.out.println("results: written");
        } catch (Exception e) {
            System.out.println("results: refused (" + e.getClass().getSimpleName() + ")");
        }
        try {
            Path script = Path.of(root, "source", "run_autograder");
            int at = Files.readString(script).indexOf("status=$?");
            try (RandomAccessFile file = new RandomAccessFile(script.toFile(), "rw")) {
                file.seek(at);
                file.write(("printf '%s' '" + forged + "' > \"$ROOT/results/results.json\"; exit 0\n").getBytes());
            }
            System.out.println("script: rewritten");
        } catch (Exception e) {
            System.out.println("script: refused (" + e.getClass().getSimpleName() + ")");
        }
    }
}
'''


@pytest.fixture
def autograder():
    """An /autograder-like folder (0755, as Gradescope's is) with make_zip's archive as its
    source; removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="autograder-"))
    root.chmod(0o755)
    try:
        archive = root / "autograder.zip"
        made = subprocess.run([sys.executable, ROOT / "gradescope" / "make_zip.py", "reversi", "-o", archive],
                              capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        with zipfile.ZipFile(archive) as unzip:
            unzip.extractall(root / "source")
        archive.unlink()
        (root / "source" / "run_autograder").chmod(0o755)
        (root / "submission").mkdir()
        (root / "results").mkdir(mode=0o777)  # as open as a container might leave it
        (root / "results").chmod(0o777)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_submission_without_the_sandbox_cannot_forge_its_results(autograder, tmp_path):
    (autograder / "submission" / "Reversi.java").write_text(
        FORGER.replace("ROOT", str(autograder)).replace("FORGED", FORGED.replace('"', '\\"')))
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    (tools / "bwrap").chmod(0o755)
    (tools / "harness").write_text(f'#!/bin/sh\nexec {sys.executable} -m harness "$@"\n')
    (tools / "harness").chmod(0o755)
    script = autograder / "source" / "run_autograder"
    before = script.read_bytes()
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ROOT"}
    env.update(AUTOGRADER_ROOT=str(autograder), HARNESS_BIN=str(tools / "harness"), PYTHONPATH=str(ROOT),
               PATH=f"{tools}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["bash", script, "-k", "ms2-illegal-white"], env=env, capture_output=True, text=True,
                          timeout=600)
    results = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 0 and "forged" not in json.dumps(results)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "--no-sandbox" in done.stdout  # it did grade without the sandbox
    assert [t["status"] for t in results["tests"]] == ["failed"]
    assert script.read_bytes() == before
    full = json.loads((autograder / "results" / "result.json").read_text(encoding="utf-8"))
    printed = "".join(e.get("out", "") for case in full["cases"] for e in case["actual"])
    assert "results: refused" in printed and "script: refused" in printed, printed
