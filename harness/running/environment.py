"""The environment every child process gets, built from scratch so runs are the same anywhere."""
import os
import tempfile

from harness.loading import paths

# Nothing else is inherited: PYTHONUNBUFFERED, JAVA_TOOL_OPTIONS and friends change how
# programs behave or what they print, and differ between machines.
_KEEP = ("PATH", "JAVA_HOME")


# The fork server listens on a socket in a folder multiprocessing makes under TMPDIR
# (TMPDIR/pymp-XXXXXXXX/listener-XXXXXXXX), and a socket's path cannot pass 107 bytes: under
# a longer TMPDIR (a batch system's job folder, a deep test folder) no worker could start.
_SOCKET_FOLDER_BYTES = 70


def fork_server():
    """The multiprocessing context every pool of workers uses (forkserver: workers never
    inherit the threads that build submissions side by side), its server started with its
    socket where it fits: under TMPDIR when that is short enough, else in /tmp.
    (multiprocessing is imported here, where a pool is made: one case needs none.)"""
    import multiprocessing.forkserver
    import multiprocessing.util

    if len(os.fsencode(tempfile.gettempdir())) > _SOCKET_FOLDER_BYTES:
        chosen, tempfile.tempdir = tempfile.tempdir, "/tmp"
        try:
            multiprocessing.util.get_temp_dir()  # made once per process, then kept
        finally:
            tempfile.tempdir = chosen
    # The fork server is a fresh interpreter started with `-c`, which would put the folder the
    # harness was started in first on its import path: a student's checkout in GitHub Classroom,
    # or a submission folder an instructor grades from. PYTHONSAFEPATH (Python 3.11's -P) leaves
    # that folder out; the server, and every case worker forked from it, imports the harness's own
    # modules only.
    safe, os.environ["PYTHONSAFEPATH"] = os.environ.get("PYTHONSAFEPATH"), "1"
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if safe is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = safe
    return multiprocessing.get_context("forkserver")


def child_env(home: str, extra: dict | None = None) -> dict:
    env = {name: os.environ[name] for name in _KEEP if name in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update({
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
        "TERM": "dumb",
        "COLUMNS": "1000",
        "LINES": "500",
    })
    env.update(extra or {})
    return env


def reference_env(home: str) -> dict:
    """The environment of a run the harness trusts (a reference, its planner). The references
    are the `reference` package that ships beside the harness; `home` must be a
    `trusted_folder()`: Python looks in HOME for the user's site-packages (never here:
    PYTHONNOUSERSITE), and a reference may read or write its HOME and TMPDIR."""
    return child_env(home, {"PYTHONPATH": str(paths.install_root()),
                            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1"})


class Workdir:
    """A fresh, empty working folder for one run, removed afterwards (`kind` names it:
    paths.temporary)."""

    def __init__(self, kind: str = "run"):
        self.kind = kind

    def __enter__(self) -> str:
        self._dir = tempfile.TemporaryDirectory(prefix=paths.temporary(self.kind))
        return self._dir.name

    def __exit__(self, *exc):
        self._dir.cleanup()


def trusted_folder() -> Workdir:
    """The working folder, HOME and TMPDIR of one run the harness trusts (a reference, its
    planner): fresh, empty and the harness's alone (mode 0700). Never the folder a program ran
    in: a program may write anything into its own folder (a module named as the reference, a
    sitecustomize.py, a .pth, a results.json), and what starts in a folder imports from it and
    reads its settings there. Unconfined as root, a program runs as a uid of its own, which
    cannot enter this folder; in bubblewrap it does not see it."""
    return Workdir("trusted")
