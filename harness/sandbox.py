"""Submissions build and run inside bubblewrap when it is installed: no network, a read-only
view of the machine, a private /tmp, and the project folder (cases with their expected
transcripts, the references) and the folder holding the submissions hidden.

`HARNESS_SANDBOX=off` turns it off; without bwrap, programs run unconfined (and say so).
"""
import os
import shutil
import signal
import subprocess
from functools import cache


@cache
def available() -> bool:
    if os.environ.get("HARNESS_SANDBOX", "").lower() in ("off", "0", "no"):
        return False
    if shutil.which("bwrap") is None:
        return False
    try:  # bwrap needs namespaces the machine may refuse
        return subprocess.run(["bwrap", *_BASE, "--", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


_BASE = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
         "--unshare-all", "--die-with-parent"]


def wrap(command: list[str], writable: list[str], readable: list[str], hidden: list[str], cwd: str) -> list[str]:
    """`command` inside the sandbox; `writable` and `readable` folders are bound back in after
    /tmp is replaced, `hidden` ones are covered by empty folders."""
    if not available():
        return command
    args = ["bwrap", *_BASE]
    for folder in hidden:
        if os.path.isdir(folder) and os.path.realpath(folder) not in ("/", os.path.expanduser("~")):
            args += ["--tmpfs", folder]
    for folder in readable:
        args += ["--ro-bind", folder, folder]
    for folder in writable:
        args += ["--bind", folder, folder]
    return args + ["--chdir", cwd, "--", *command]


def exit_status(end):
    """bwrap reports a program killed by signal N as exit status 128 + N: say it as the signal."""
    if available() and isinstance(end, int) and 128 < end < 128 + 32:
        try:
            return f"signal {signal.Signals(end - 128).name}"
        except ValueError:
            return end
    return end
