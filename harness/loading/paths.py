"""Where the project's specs and cases live, and where the harness itself is installed.

Everything that needs one of these folders asks here, so that HARNESS_ROOT (as the front door
read it into its settings), a checkout and an installed copy all agree; the harness's folder in
the user's cache is found here too, and the names of the harness's own temporary folders.
"""
import os
from pathlib import Path

TEMP_PREFIX = "harness-"  # every temporary folder and file the harness makes is named so (shown as <tmp>)
BUILD_KIND = "build"  # a submission's build folder (shown as <build>)


def temporary(kind: str) -> str:
    """The name prefix of a temporary folder or file of this kind (`harness-run-`): the one
    convention by which reports show the harness's own folders as <tmp> and <build>
    (grading/shown_paths.py), whatever the system's temporary folder."""
    return f"{TEMP_PREFIX}{kind}-"


def install_root() -> Path:
    """The folder holding the `harness` and `reference` packages (the checkout, when editable)."""
    return Path(__file__).resolve().parents[2]


def project_root(configured: Path | None = None) -> Path:
    """`configured` (the settings' root: HARNESS_ROOT as the front door read it), else the
    checkout this package was installed from, else the working folder."""
    if configured is not None:
        return configured
    checkout = install_root()
    if (checkout / "specs").is_dir():
        return checkout
    return Path.cwd()


def cache_root() -> Path:
    """The harness's folder in the user's cache: `$XDG_CACHE_HOME/game-harness`, else
    `~/.cache/game-harness`. An empty or relative XDG_CACHE_HOME counts as unset, as the XDG
    Base Directory spec says (a relative one would put the cache wherever the command ran)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        return Path.home() / ".cache" / "game-harness"
    return Path(base) / "game-harness"


def root_of(spec_folder: Path) -> Path:
    """The project a spec belongs to: specs/<game>/ sits two levels below it."""
    return Path(spec_folder).parent.parent


def cases_dir(spec_folder: Path, game: str) -> Path:
    return root_of(spec_folder) / "cases" / game
