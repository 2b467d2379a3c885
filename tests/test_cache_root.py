"""The harness's folder in the user's cache is decided in one place (`paths.cache_root`), and an
XDG_CACHE_HOME that is empty or relative counts as unset, as the XDG Base Directory spec says (a
relative path is invalid and must be ignored): no cache lands in the folder a command ran in."""
from pathlib import Path

import pytest

from harness.loading import paths
from tests.helpers import FIXTURE


def test_the_cache_is_under_an_absolute_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert paths.cache_root() == tmp_path / "xdg" / "game-harness"


@pytest.mark.parametrize("value", [None, "", "relative/cache", "."], ids=["unset", "empty", "relative", "dot"])
def test_an_unset_empty_or_relative_xdg_cache_home_means_the_home_cache(tmp_path, monkeypatch, value):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if value is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", value)
    assert paths.cache_root() == tmp_path / "home" / ".cache" / "game-harness"


def test_a_run_with_a_relative_xdg_cache_home_caches_nothing_where_it_ran(harness_cli, tmp_path):
    """Every user of the cache (the parsed YAML, the schema checks, the code's version, the
    build cache) asks the one place: with XDG_CACHE_HOME relative, all of it goes to the home
    cache, none of it into the working folder."""
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    done = harness_cli("run", "tally", FIXTURE / "examples" / "tally" / "correct", cwd=work,
                       env={"HARNESS_ROOT": str(FIXTURE), "HOME": str(home), "XDG_CACHE_HOME": "cache"})
    assert done.returncode == 0, done.stderr
    assert not (work / "cache").exists()
    cached = home / ".cache" / "game-harness"
    assert (cached / "code-version.json").is_file() and (cached / "yaml").is_dir()
