"""The machine-wide counters of /proc, shown to a sandboxed program as constant files.

/proc/meminfo, /proc/loadavg, /proc/stat, /proc/sys/fs/aio-nr and the like count what every
process of the machine does: a hidden run that takes memory, AIO contexts, open files or CPU
in proportion to its inputs moves them, and a run whose output a student sees could read them
(at once, or later: most of them add up and never go back). Inside the sandbox each of them is
a read-only file the harness writes once (`binds()`), the same for every run: it says what a
program needs to start (the JVM reads /proc/meminfo and /proc/cpuinfo; glibc counts the
processors from /proc/stat when /sys is not there) and nothing that moves. What is static
(the machine's total memory, its processors, its boot time, a configured maximum) is kept;
everything that counts is zero, or a fixed plausible value where zero would not be plausible
(free memory).

A file the host does not have, or lets only root read, is left alone (the program cannot
read it either). The files live in the user's cache (`sandbox-proc/`), written whole (as atomic.py does) and
only when their text changes, so runs already started keep what they bound.
"""
import contextlib
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Callable

from harness.loading import paths

_PRESSURE = ("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
             "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
# meminfo fields that never move while the machine runs (its size, configured limits)
_STATIC_MEMORY = {"MemTotal", "SwapTotal", "VmallocTotal", "CommitLimit", "Hugepagesize",
                  "HugePages_Total", "Hugetlb"}
_FREE_MEMORY = {"MemFree", "MemAvailable"}  # three quarters of the total: plausible, and fixed


def _meminfo(host: str) -> str:
    total = next((int(m.group(1)) for m in re.finditer(r"^MemTotal:\s+(\d+)", host, re.M)), 0)
    lines = []
    for line in host.splitlines():
        key, _, rest = line.partition(":")
        unit = " kB" if rest.rstrip().endswith("kB") else ""
        if key in _STATIC_MEMORY:
            lines.append(line)
            continue
        value = total * 3 // 4 if key in _FREE_MEMORY else 0
        lines.append(f"{key}:{' ' * max(1, 16 - len(key))}{value:>8}{unit}")
    return "\n".join(lines) + "\n"


def _stat(host: str) -> str:
    """One line per processor (glibc counts them here when /sys is absent), every time zero,
    the boot time kept."""
    cpus = [line.split()[0] for line in host.splitlines() if line.startswith("cpu")]
    boot = next((line for line in host.splitlines() if line.startswith("btime ")), "btime 0")
    zeros = " 0" * 10
    return ("".join(f"{cpu}{' ' if cpu == 'cpu' else ''}{zeros}\n" for cpu in cpus)
            + f"intr 0\nctxt 0\n{boot}\nprocesses 1\nprocs_running 1\nprocs_blocked 0\nsoftirq" + " 0" * 11 + "\n")


def _zeros(host: str) -> str:
    """Every `name value` line with its value zero (/proc/vmstat)."""
    return "".join(f"{line.split()[0]} 0\n" for line in host.splitlines() if line.split())


def _cpuinfo(host: str) -> str:
    """The processors as they are, but their clock (which follows the load where the frequency
    scales) fixed."""
    return re.sub(r"^(cpu MHz\s*:).*$", r"\1 1000.000", host, flags=re.M)


def _file_nr(host: str) -> str:
    return f"1024\t0\t{(host.split() or ['0'])[-1]}\n"  # allocated, free, the configured maximum


def _kept(host: str) -> str:
    return host  # a configured maximum: it moves only when the machine's owner sets it


def _text(text: str) -> Callable[[str], str]:
    return lambda _host: text


# each counter's path under /proc and how its constant text is made from the host's
MAKERS: dict[str, Callable[[str], str]] = {
    "meminfo": _meminfo,
    "stat": _stat,
    "vmstat": _zeros,
    "cpuinfo": _cpuinfo,
    "loadavg": _text("0.00 0.00 0.00 1/1 1\n"),
    "uptime": _text("1000.00 1000.00\n"),
    "zoneinfo": _text(""),
    "buddyinfo": _text(""),
    "pagetypeinfo": _text(""),
    "slabinfo": _text(""),
    "diskstats": _text(""),
    "interrupts": _text(""),
    "softirqs": _text(""),
    "schedstat": _text(""),
    "key-users": _text(""),
    "locks": _text(""),
    "cgroups": _text(""),
    "pressure/cpu": _text(_PRESSURE),
    "pressure/io": _text(_PRESSURE),
    "pressure/memory": _text(_PRESSURE),
    "pressure/irq": _text(_PRESSURE),
    "sys/fs/aio-nr": _text("0\n"),
    "sys/fs/aio-max-nr": _kept,
    "sys/fs/file-nr": _file_nr,
    "sys/fs/inode-nr": _text("0\t0\n"),
    "sys/fs/inode-state": _text("0\t0\t0\t0\t0\t0\t0\n"),
    "sys/fs/dentry-state": _text("0\t0\t45\t0\t0\t0\n"),
    "sys/kernel/random/entropy_avail": _text("256\n"),
    "sys/kernel/pty/nr": _text("0\n"),
}


def _readable_by_all(path: str) -> bool:
    try:
        return os.stat(path).st_mode & 0o004 != 0
    except OSError:
        return False


def _host(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            return source.read(1 << 20)
    except OSError:
        return None


@cache
def binds() -> tuple[str, ...]:
    """bwrap's arguments that lay a constant file over each counter this machine shows to
    anyone; given after `--proc /proc`. In the user's cache, else (an unwritable cache) in a
    temporary folder of this process's."""
    try:
        return _written(paths.cache_root() / "sandbox-proc")
    except OSError:
        return _written(Path(tempfile.mkdtemp(prefix=paths.temporary("proc"))))


def _written(place: Path) -> tuple[str, ...]:
    """The constant files written in `place` (only those whose text changed), as bwrap binds."""
    args: list[str] = []
    place.mkdir(parents=True, exist_ok=True)
    os.chmod(place, 0o755)
    for name, make in MAKERS.items():
        real = f"/proc/{name}"
        host = _host(real) if _readable_by_all(real) else None
        if host is None:
            continue
        constant = place / name.replace("/", "-")
        text = make(host)
        if _host(str(constant)) != text:
            _write(constant, text)
        args += ["--ro-bind", str(constant), real]
    return tuple(args)


def _write(path: Path, text: str) -> None:
    """`text` as `path`, whole and readable by anyone from the moment it is there (a run may
    bind it as soon as it is renamed)."""
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            os.fchmod(file.fileno(), 0o444)
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
