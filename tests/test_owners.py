"""One owner for each concept: the places that decide the user's cache, read a HARNESS_*
setting, or show a text on one line are the owners alone (read from the source, so a copy
added later fails here rather than drifting apart)."""
import re
from pathlib import Path

HARNESS = Path(__file__).resolve().parent.parent / "harness"


def _sources():
    for path in sorted(HARNESS.rglob("*.py")):
        yield path.relative_to(HARNESS).as_posix(), path.read_text(encoding="utf-8")


def test_only_paths_reads_xdg_cache_home():
    readers = [name for name, text in _sources() if re.search(r"environ[^\n]*XDG_CACHE_HOME", text)]
    assert readers == ["loading/paths.py"]


def test_only_config_reads_a_harness_setting():
    """HARNESS_SERVE_PID is no setting: the service hands it to its own processes."""
    readers = [name for name, text in _sources()
               if re.search(r"""(\.get\(|getenv\(|environ\[)\s*["']HARNESS_(?!SERVE_PID)""", text)]
    assert readers == ["loading/config.py"]


def test_one_line_and_folder_hashes_have_one_definition():
    defining = {concept: [name for name, text in _sources() if re.search(pattern, text, re.M)]
                for concept, pattern in (("one_line", r"^def one_line\("), ("tree walk", r"os\.walk\(|os\.scandir\("))}
    assert defining["one_line"] == ["safe_text.py"]
    assert "classes/resume.py" not in defining["tree walk"] and "building/build_cache.py" not in defining["tree walk"]
    assert "loading/code.py" not in defining["tree walk"]
