"""The harness's environment settings, read and checked in one place.

Every `HARNESS_*` variable is read here into a frozen `Settings`; a value the harness cannot
use is an InputError naming the variable and what it accepts, so a typo in a shell profile
stops the run with one line instead of a traceback deep inside a worker.

Only a process's front door calls `load()`: each command of the command line, `harness serve`,
the pytest plugin's session and the platforms' entry points read the settings once, as the
command starts, and pass them (or the one field needed) down as an argument. Nothing below a
front door reads the environment for them; a case worker in another process (the pool's, a
cluster's) gets what it needs with the work it is given. `DEFAULTS` are the settings with no
variable set: what a library call made without settings (a test, a bench script) uses.
"""
import os
from dataclasses import dataclass
from pathlib import Path

from harness.errors import InputError

MAX_JOBS = 256
_TRUE = ("1", "yes", "true", "on")
_FALSE = ("", "0", "no", "false", "off")
SANDBOX_VALUES = ("auto", "off")  # and the yes/no spellings of _TRUE / _FALSE


@dataclass(frozen=True)
class Settings:
    """The HARNESS_* environment settings, read once per command."""
    root: Path | None  # HARNESS_ROOT: the project holding specs/ and cases/ (None: found from the install)
    sandbox: str  # HARNESS_SANDBOX: "auto" (bubblewrap when installed) or "off"
    jobs: int | None  # HARNESS_JOBS: parallel case workers (None: one per core plus one)
    no_cds: bool  # HARNESS_NO_CDS: do not make or use a JVM class-data archive
    gate_dir: Path | None = None  # HARNESS_GATE_DIR: the machine's gate (None: the user's cache)


DEFAULTS = Settings(root=None, sandbox="auto", jobs=None, no_cds=False)


def load(environ=None) -> Settings:
    """The settings from `environ` (default: this process's environment)."""
    env = os.environ if environ is None else environ
    return Settings(root=_root(env.get("HARNESS_ROOT", "")), sandbox=_sandbox(env.get("HARNESS_SANDBOX", "")),
                    jobs=_jobs(env.get("HARNESS_JOBS", "")), no_cds=_flag("HARNESS_NO_CDS", env.get("HARNESS_NO_CDS", "")),
                    gate_dir=_gate_dir(env.get("HARNESS_GATE_DIR", "")))


def _gate_dir(value: str) -> Path | None:
    """The folder of the machine's gate (classes/gate.py checks who may write it when it opens it)."""
    if not value.strip():
        return None
    if not os.path.isabs(os.path.expanduser(value)):
        raise InputError(f"HARNESS_GATE_DIR={value!r} is not an absolute path; give the folder every harness "
                         "process of this machine shares (such as /var/lib/game-harness/gate), or unset it")
    return Path(value).expanduser()


def _root(value: str) -> Path | None:
    if not value:
        return None
    root = Path(value).expanduser().resolve()
    if not (root / "specs").is_dir():
        raise InputError(f"HARNESS_ROOT={value!r} has no specs/ folder; set it to a project folder "
                         "(holding specs/ and cases/) or unset it")
    return root


def _sandbox(value: str) -> str:
    word = value.strip().lower()
    if word in ("", "auto") or word in _TRUE:
        return "auto"
    if word in _FALSE:
        return "off"
    raise InputError(f"HARNESS_SANDBOX={value!r} is not a setting; use auto (the default: bubblewrap when "
                     "installed) or off")


def _jobs(value: str) -> int | None:
    if not value.strip():
        return None
    try:
        jobs = int(value.strip())
    except ValueError:
        jobs = None
    if jobs is None or not 1 <= jobs <= MAX_JOBS:
        raise InputError(f"HARNESS_JOBS={value!r} is not a number of workers; use a whole number from 1 to "
                         f"{MAX_JOBS}, or unset it for one per core plus one")
    return jobs


def _flag(name: str, value: str) -> bool:
    word = value.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise InputError(f"{name}={value!r} is not a yes/no setting; use 1 or 0 (or unset it)")
