"""Submissions build and run inside bubblewrap, which shows them an allow-list of the machine.

What a sandboxed program sees:
- read-only: the toolchains and system libraries (/usr and the /bin, /sbin, /lib* links or
  folders), the Python interpreter's own prefix and the JDK's when they live elsewhere, the
  few /etc files the loader, g++ and the JVM read (`_ETC`), the JVM class-data archive a
  command names, the folders the caller passes as `readable`;
- writable: the `writable` folders the caller passes (an empty one, such as a fresh run
  folder, is given as a private tmpfs of `_TMPFS_BYTES`, so nothing written there reaches the
  disk or outlives the run), and a private /tmp and /dev/shm of the same size;
- a minimal, read-only /dev, the /proc of its own pid namespace, no network, no IPC with the host.
Nothing else exists for it: home folders, any checkout of the project or of a course, the
cases, the reports and /etc/shadow are simply not there.

Nothing passes from one run to another (a hidden case's inputs must not reach a public run's
output): a run's folders and /tmp are its own tmpfs, its build folder is its own copy
(`own_copies`), its pid, IPC, network, UTS and cgroup namespaces are its own, and the seccomp
filter every run gets from the launcher (`harness.running.seccomp`) refuses the calls that act
on a file every run shares (the system's files, /dev/null) so that another can see it: record
locks, flock, leases, dnotify, inotify and fanotify, and the kernel's keyrings.

Who it runs as: when the harness is root, bwrap runs without a user namespace and
`setpriv` drops the program, after the mounts are made, to an unprivileged host uid of its
own (`sandbox_uid()`: one per build step or run, derived from the calling thread, never 0),
with no capabilities, an empty bounding set and no_new_privs, so files of the host are also
protected by their owners and modes, and it can signal no other run. Folders it must write
are given to that uid and folders it must read are opened to everyone, where `wrap` binds
them. When the harness is not root, bwrap's user namespace maps the program to uid 65534
with every capability dropped; on the host it is the (already unprivileged) user.

Memory, processes and time are bounded per process tree by `harness.running.cgroups` (control groups
where the machine allows them, per-process rlimits otherwise); `describe()` says what holds.

`HARNESS_SANDBOX=off` turns the sandbox off: the front door reads it into its settings and passes
the setting (`"auto"` or `"off"`) to what decides here (`available`, `require`, `unprivileged`,
`mode`, `describe`); this module never reads the environment for it. Without it, `require` refuses to grade unless
running unconfined was asked for explicitly. Unconfined because bubblewrap cannot run (not
switched off), a harness that is root still runs each program as an unprivileged uid of its
own (`unprivileged`): it sees the machine, but can write only its run folder and the places
anyone may write (/tmp), never what the grading reads or writes (the cases, the harness, the
results, a script that started the grading), and signals no one else; without `setpriv` that
is impossible, and `require` refuses.
"""
import contextlib
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from functools import cache
from pathlib import Path
from typing import Iterator

from harness import atomic, languages
from harness.running import cgroups, counters
from harness.loading import paths
from harness.errors import InputError
from harness.outcome import Kind

UID_BASE = 1_900_000_000  # far above the ids of people and of subordinate-id ranges
_UID_SPAN = 1 << 22  # the largest pid_max: thread ids below it never collide
_NOBODY = 65534
_TMPFS_BYTES = 64 << 20
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone",
        "nsswitch.conf", "java-*")
_TOOLS = tuple(tool for language in languages.GRADED for tool in language.tools)  # their installs, seen read-only
_ARCHIVE_FLAG = "-XX:SharedArchiveFile="


def _root() -> bool:
    return os.geteuid() == 0 and _setpriv() is not None


def _setpriv() -> str | None:
    """util-linux's setpriv: on PATH, or where the system keeps it."""
    return shutil.which("setpriv") or next((p for p in ("/usr/bin/setpriv", "/bin/setpriv") if os.access(p, os.X_OK)), None)


@cache
def _options() -> frozenset[str]:
    """The bwrap options this version knows (--size and --perms are recent)."""
    known = _remembered()
    if known is not None:
        return frozenset(known["options"])
    try:
        shown = subprocess.run(["bwrap", "--help"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(word for word in shown.split() if word.startswith("--"))


def available(setting: str = "auto") -> bool:
    """Submissions run in bubblewrap: the sandbox `setting` (HARNESS_SANDBOX as the front door
    read it, "auto" or "off"; "auto" is also the default, no variable set) does not switch it
    off, and bwrap works on this machine."""
    return setting != "off" and works()


@cache
def works() -> bool:
    """bwrap is installed and can make its namespaces on this machine (whatever the setting)."""
    if shutil.which("bwrap") is None:
        return False
    if _remembered() is not None:
        return True
    try:
        works = subprocess.run(_wrap(["true"], [], [], "/"), capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    if works:
        _remember(sorted(_options()))
    return works


# Probing bwrap (its --help, then a sandbox around `true`) costs two processes, a tenth of a
# one-case `harness run`. A probe that worked is remembered in the user's cache for this bwrap
# binary, this user and this boot (namespaces allowed at boot stay allowed); anything else,
# and a probe that failed, is probed again.
def _probe_file() -> Path:
    return paths.cache_root() / "sandbox-probe.json"


def _probe_key() -> str | None:
    bwrap = shutil.which("bwrap")
    try:
        with open("/proc/sys/kernel/random/boot_id") as boot:
            boot_id = boot.read().strip()
        status = os.stat(os.path.realpath(bwrap)) if bwrap else None
    except OSError:
        return None
    if status is None:
        return None
    return f"{os.path.realpath(bwrap)}:{status.st_size}:{status.st_mtime_ns}:{os.geteuid()}:{_root()}:{boot_id}"


@cache
def _remembered() -> dict | None:
    """The remembered working probe of this bwrap, user and boot, if there is one."""
    key = _probe_key()
    try:
        known = json.loads(_probe_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if key is None or not isinstance(known, dict) or known.get("key") != key or not isinstance(known.get("options"), list):
        return None
    return known


def _remember(options: list[str]) -> None:
    key = _probe_key()
    if key is None:
        return
    try:
        _probe_file().parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(_probe_file(), json.dumps({"key": key, "options": options}).encode())
    except OSError:  # an unwritable cache: probe again next time
        pass


def mode(setting: str = "auto") -> str:
    """"bubblewrap" or "none", for reports, under the sandbox `setting`."""
    return "bubblewrap" if available(setting) else "none"


def describe(setting: str = "auto") -> str:
    """The containment in force under the sandbox `setting`, in one line: sandbox, identity and
    what bounds a tree."""
    limits = cgroups.mechanism()
    bounds = (f"whole-tree memory and process limits by {limits}" if limits != "rlimits"
              else "per-process rlimits (no control group could be made)")
    if not available(setting) and setting != "off" and _root():
        return f"no sandbox: submissions see the machine, as an unprivileged uid of their own per run; {bounds}"
    if not available(setting):
        return f"no sandbox: submissions run with the grader's rights; {bounds}"
    who = "an unprivileged uid of its own per run" if _root() else "uid 65534 in a user namespace"
    return f"bubblewrap allow-list, no network, {who}; {bounds}"


def require(allow_unconfined: bool, setting: str) -> None:
    """Grading runs strangers' code: refuse to do it unconfined unless that was asked for
    (`allow_unconfined`, or the sandbox `setting` "off": HARNESS_SANDBOX=off)."""
    if available(setting) or setting == "off":
        return
    if allow_unconfined and os.geteuid() == 0 and _setpriv() is None:
        raise InputError("bubblewrap cannot run here and setpriv (util-linux) is missing, so a submission "
                         "would run as root and could rewrite the grading's results: install bubblewrap "
                         "or util-linux (apt-get install bubblewrap util-linux)")
    if allow_unconfined:
        return
    if shutil.which("bwrap") is None:
        raise InputError("bubblewrap is not installed: install it (apt-get install bubblewrap) "
                         "or pass --no-sandbox to run submissions unconfined")
    raise InputError("bubblewrap is installed but cannot create its namespaces on this machine "
                     "(try `bwrap --ro-bind / / true` to see why): allow them, "
                     "or pass --no-sandbox to run submissions unconfined")


def sandbox_uid() -> int:
    """The host uid a program started from this thread runs as (when the harness is root)."""
    return UID_BASE + threading.get_native_id() % _UID_SPAN


class _Mounts:
    """bwrap's mount arguments, each mount point's missing parents made first, searchable by
    anyone (bwrap would make them 0700, which an unprivileged uid cannot pass)."""

    def __init__(self):
        self.args: list[str] = []
        self.made = {"/"}

    def _parents(self, path: str) -> None:
        parent = os.path.dirname(path.rstrip("/"))
        if parent in self.made:
            return
        self._parents(parent)
        self.args += (["--perms", "0755"] if "--perms" in _options() else []) + ["--dir", parent]
        self.made.add(parent)

    def add(self, option: list[str], path: str) -> None:
        self._parents(path)
        self.args += [*option, path]
        self.made.add(path)


@cache
def _system_binds() -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
    """The bwrap arguments that show the system, the folders they make, and the folders they show."""
    mounts = _Mounts()
    bound: list[str] = []
    for folder in _SYSTEM:
        if os.path.islink(folder):
            mounts.add(["--symlink", os.readlink(folder)], folder)
        elif os.path.isdir(folder):
            mounts.add(["--ro-bind", folder], folder)
            bound.append(folder)
    prefixes = [os.path.realpath(sys.base_prefix)]
    for tool in _TOOLS:
        found = shutil.which(tool)
        if found:
            prefixes.append(os.path.dirname(os.path.dirname(os.path.realpath(found))))
    if os.environ.get("JAVA_HOME"):
        prefixes.append(os.path.realpath(os.environ["JAVA_HOME"]))
    for prefix in prefixes:
        if os.path.isdir(prefix) and prefix != "/" and not any(_inside(prefix, b) for b in bound):
            mounts.add(["--ro-bind", prefix], prefix)
            bound.append(prefix)
    for pattern in _ETC:
        for path in sorted(glob.glob(os.path.join("/etc", pattern))):
            mounts.add(["--ro-bind", path], path)
    for special in ("/dev", "/proc", "/tmp"):
        mounts.made.add(special)
    return tuple(mounts.args), frozenset(mounts.made), tuple(bound)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _tmpfs() -> list[str]:
    """A private tmpfs anyone may write to, of bounded size where bwrap can say so."""
    known = _options()
    sized = ["--size", str(_TMPFS_BYTES)] if "--size" in known else []
    opened = ["--perms", "1777"] if "--perms" in known else []
    return [*opened, *sized, "--tmpfs"]


def _dev() -> list[str]:
    """A minimal /dev that holds no more than the run's other tmpfs: bwrap makes it a tmpfs of no
    size of its own, which the user-namespace uid owns, so it is made read-only (its device nodes
    stay usable) and /dev/shm, where POSIX shared memory lives, is a private tmpfs of `_TMPFS_BYTES`
    (what a run writes there is memory, charged to the run's control group as its own pages are)."""
    return ["--dev", "/dev", "--remount-ro", "/dev", *_tmpfs(), "/dev/shm"]


def _give(folder: str, uid: int) -> None:
    """Make `folder` and everything in it the sandbox uid's, links included but not followed."""
    os.lchown(folder, uid, uid)
    for parent, folders, files in os.walk(folder):
        for name in folders + files:
            os.lchown(os.path.join(parent, name), uid, uid)


def _open_to_all(folder: str) -> None:
    """Let any uid read `folder`: directories searchable, files readable (links untouched)."""
    for parent, folders, files in os.walk(folder):
        for name, bits in [(parent, 0o555)] + [(os.path.join(parent, f), 0o444) for f in files]:
            if not os.path.islink(name):
                mode = os.stat(name).st_mode
                if mode & bits != bits:
                    os.chmod(name, mode | bits)


def _wrap(command: list[str], writable: list[str], readable: list[str], cwd: str,
          copies: dict[str, str] | None = None) -> list[str]:
    root = _root()
    system, made, shown = _system_binds()
    copies = copies or {}
    mounts = _Mounts()
    mounts.made |= made
    for word in command:
        path = word[len(_ARCHIVE_FLAG):] if word.startswith(_ARCHIVE_FLAG) else None
        if path and os.path.isfile(path):
            mounts.add(["--ro-bind", path], path)
    if os.path.isfile(command[0]) and not any(_inside(command[0], folder) for folder in [*shown, *copies]):
        mounts.add(["--ro-bind", command[0]], command[0])  # a ready program (not one of the run's own copies)
    uid = sandbox_uid()
    for folder in readable:
        if root:
            _open_to_all(folder)
        mounts.add(["--ro-bind", folder], folder)
    for folder, copy in copies.items():
        if root:
            _open_to_all(copy)
        mounts.add(["--ro-bind", copy], folder)
    for folder in writable:
        if os.path.isdir(folder) and not os.listdir(folder):
            mounts.add(_tmpfs(), folder)
            continue
        if root:
            _give(folder, uid)
        mounts.add(["--bind", folder], folder)
    args = ["bwrap", "--die-with-parent", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup-try", "--hostname", "sandbox", *system,
            *_dev(), "--proc", "/proc", *counters.binds(), *_tmpfs(), "/tmp", *mounts.args, "--chdir", cwd]
    if root:
        # mounts are made as root; setpriv keeps just what it needs to make the program a
        # nobody of its own (and to enter its folder), then drops every capability
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                 "--cap-add", "CAP_SETPCAP", "--cap-add", "CAP_DAC_READ_SEARCH", "--", "setpriv", f"--reuid={uid}", f"--regid={uid}",
                 "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    else:
        private = ["--disable-userns"] if "--disable-userns" in _options() else []
        args[1:1] = ["--unshare-user", "--uid", str(_NOBODY), "--gid", str(_NOBODY), "--cap-drop", "ALL", *private]
        args += ["--"]
    return args + command


@contextlib.contextmanager
def own_copies(folders: list[str]) -> Iterator[dict[str, str]]:
    """A private copy of each folder for one run, removed afterwards: {folder: its copy}.
    `wrap` shows each copy read-only where its folder is, so no file the run sees is one another
    run sees (a lock or watch on it reaches no one). A build folder is sources and compiled
    output, a few KB to a few hundred: copied into memory (/dev/shm) it costs a fraction of a
    millisecond. The caller passes its folders only when the run is sandboxed; without a
    working bubblewrap, {}."""
    if not folders or not works():
        yield {}
        return
    try:
        base, copies = _copied(folders, _memory_folder())
    except OSError:  # a full /dev/shm: on disk then
        base, copies = _copied(folders, None)
    try:
        yield copies
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _copied(folders: list[str], place: str | None) -> tuple[str, dict[str, str]]:
    """A new folder in `place` (None: the temporary folder) holding a copy of each folder."""
    base = tempfile.mkdtemp(prefix=paths.temporary("copy"), dir=place)
    try:
        copies = {}
        for index, folder in enumerate(folders):
            copies[folder] = os.path.join(base, str(index))
            shutil.copytree(folder, copies[folder], symlinks=True, copy_function=shutil.copy)  # modes, not times
        return base, copies
    except OSError:
        shutil.rmtree(base, ignore_errors=True)
        raise


@cache
def _memory_folder() -> str | None:
    """/dev/shm when it is a folder the harness may write and programs may execute from (a
    container may mount it noexec), for the runs' copies: a copy there costs a fifth of a
    millisecond, in /tmp on a disk other processes keep busy 15-30 ms (its metadata journal)."""
    try:
        status = os.statvfs("/dev/shm")
    except OSError:
        return None
    if status.f_flag & (os.ST_NOEXEC | os.ST_RDONLY) or not os.access("/dev/shm", os.W_OK | os.X_OK):
        return None
    return "/dev/shm"


def wrap(command: list[str], writable: list[str], readable: list[str], hidden: list[str], cwd: str,
         copies: dict[str, str] | None = None) -> list[str]:
    """`command` inside the sandbox, seeing only the system, `readable` folders (read-only),
    `writable` ones, and each folder of `copies` ({folder: copy}, from `own_copies`) as its
    private copy, read-only. `hidden` is kept for callers: with an allow-list nothing else is
    visible anyway. The caller wraps only what its sandbox setting confines (a build's
    `sandboxed`); without a working bubblewrap, `command` as it is."""
    if not works():
        return command
    return _wrap(command, writable, readable, cwd, copies)


def unprivileged(command: list[str], writable: list[str], readable: list[str], setting: str) -> list[str]:
    """Without bubblewrap (the sandbox `setting` not "off"), as root: `command` run by `setpriv` as the run's own
    unprivileged uid (`sandbox_uid`), no groups, no capabilities, no_new_privs. `writable`
    folders become that uid's; `readable` ones are opened to everyone, with the temporary
    folders above them searchable. Anything else: `command` as it is."""
    if available(setting) or setting == "off" or not _root():
        return command
    uid = sandbox_uid()
    for folder in writable:
        _give(folder, uid)
        _reachable(folder)
    for folder in readable:
        _open_to_all(folder)
        _reachable(folder)
    return [_setpriv(), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all", "--no-new-privs", "--", *command]


def _reachable(folder: str) -> None:
    """Let anyone pass through the folders above `folder` that the harness made in the temporary
    folder (mkdtemp makes them 0700); nothing above the temporary folder is changed."""
    top = os.path.realpath(tempfile.gettempdir())
    parent = os.path.dirname(os.path.realpath(folder))
    while _inside(parent, top) and parent != top:
        mode = os.stat(parent).st_mode
        if mode & 0o111 != 0o111:
            os.chmod(parent, mode | 0o111)
        parent = os.path.dirname(parent)


def exit_status(end):
    """bwrap reports a program killed by signal N as exit status 128 + N: say it as the signal.
    Takes a plain status or an `End`, and gives back the same kind; the caller asks only of a
    sandboxed run."""
    status = getattr(end, "status", end) if getattr(end, "kind", Kind.EXIT) == Kind.EXIT else None
    if works() and isinstance(status, int) and not isinstance(status, bool) and 128 < status < 128 + 32:
        try:
            name = signal.Signals(status - 128).name
        except ValueError:
            return end
        if hasattr(end, "kind"):
            return type(end).killed(name)
        return f"signal {name}"
    return end
