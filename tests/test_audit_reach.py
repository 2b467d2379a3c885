"""The audit's line tracer runs a module reference as the spec's command does, with Python's -P
(no folder put first on the import path): the copy the audit made is what runs and is traced,
never another module of the same name further along the path. A real process each."""
import os
import subprocess
import sys
from pathlib import Path

from harness.suite import linetrace

LINETRACE = Path(linetrace.__file__)


def _package(root: Path, answer: int) -> Path:
    (root / "game").mkdir(parents=True)
    (root / "game" / "__init__.py").write_text("", encoding="utf-8")
    module = root / "game" / "play.py"
    module.write_text(f"import sys\n\n\ndef main():\n    print({answer})\n\n\nif __name__ == '__main__':\n    main()\n",
                      encoding="utf-8")
    return module


def test_a_module_run_with_safe_path_is_traced_from_the_copy_first_on_the_path(tmp_path):
    copy, original = _package(tmp_path / "copy", 1), _package(tmp_path / "original", 2)
    out, home = tmp_path / "lines", tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "PYTHONPATH": os.pathsep.join([str(copy.parent.parent), str(original.parent.parent)])}
    done = subprocess.run([sys.executable, "-P", "-S", str(LINETRACE), str(out), str(copy), "-m", "game.play"],
                          cwd=home, env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout == "1\n", done.stderr  # the copy ran, not the module of the same name after it
    executed = {int(n) for n in out.read_text(encoding="utf-8").split()}
    assert {5, 9} <= executed  # print(...) in main, and the call of main
