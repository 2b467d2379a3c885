"""Faster JVM start-up: a class-data-sharing archive of the JDK classes games use, made once.

A JVM spends most of a short game starting up. An archive of the JDK's own classes (made
by a small warm-up program that uses Scanner, collections and formatting) cuts that by
about a fifth, and since it holds no student class it works with any classpath. It is made
once per machine and JDK in the user's cache; if anything about it fails, runs simply go
without it. HARNESS_NO_CDS=1 (read by the front door, passed down as `no_cds`) goes without it
too.

Submissions are built side by side in threads (and graders may run side by side), so the
archive is looked up or made under a lock held across threads and a file lock held across
processes: no build goes ahead without the flags while another is still making the archive.
"""
import fcntl
import hashlib
import os
import threading
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness.loading import paths

_WARM_UP = r"""
import java.util.*;
public class Warm {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        Random r = new Random(1);
        List<Integer> list = new ArrayList<>(); Map<String, Integer> map = new HashMap<>();
        Set<Integer> set = new HashSet<>(); Set<Integer> tree = new TreeSet<>(); StringBuilder sb = new StringBuilder();
        while (in.hasNext()) {
            if (in.hasNextInt()) { int v = in.nextInt(); list.add(v); set.add(v); tree.add(v); }
            else { String s = in.next(); map.put(s, s.length()); sb.append(s.charAt(0)); }
            System.out.print("move? ");
            System.out.println(String.format("%2d%-12s%8d", list.size(), sb, r.nextInt(6)));
            System.out.printf("%s %d%n", "x", 3);
        }
        Collections.sort(list);
        System.out.println(Arrays.toString(list.toArray()) + map + set + tree + Math.max(1, 2) + Integer.parseInt("4") + "\u25CF");
    }
}
"""


def _java_identity() -> str | None:
    """This JDK, by its files rather than by asking it (`java -version` would start a JVM on
    every harness call): the real path, size and time of the launcher and of its class library."""
    java = shutil.which("java")
    if java is None:
        return None
    real = os.path.realpath(java)
    parts = [real]
    for path in (real, os.path.join(os.path.dirname(os.path.dirname(real)), "lib", "modules")):
        try:
            status = os.stat(path)
        except OSError:
            continue
        parts.append(f"{path}:{status.st_size}:{status.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _make(archive: Path, env: dict) -> bool:
    with tempfile.TemporaryDirectory(prefix=paths.temporary("cds")) as work:
        (Path(work) / "Warm.java").write_text(_WARM_UP)
        steps = [
            (["javac", "-d", work, str(Path(work) / "Warm.java")], None),
            (["java", "-Xshare:off", f"-XX:DumpLoadedClassList={work}/all.lst", "-cp", work, "Warm"], b"1 a\n2 b\nq\n"),
        ]
        for command, stdin in steps:
            if subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=120).returncode != 0:
                return False
        classes = [line for line in Path(work, "all.lst").read_text().splitlines() if not line.startswith("Warm")]
        Path(work, "jdk.lst").write_text("\n".join(classes) + "\n")
        partial = archive.with_suffix(f".{os.getpid()}.tmp")
        dump = subprocess.run(["java", "-Xshare:dump", f"-XX:SharedClassListFile={work}/jdk.lst",
                               f"-XX:SharedArchiveFile={partial}"], capture_output=True, env=env, timeout=300)
        if dump.returncode != 0 or not partial.exists():
            return False
        check = subprocess.run(["java", f"-XX:SharedArchiveFile={partial}", "-Xshare:auto", "-cp", work, "Warm"],
                               input=b"", capture_output=True, env=env, timeout=60)
        if check.returncode != 0 or check.stderr or check.stdout.decode("utf-8", "replace").strip() != "[]{}[][]24●":
            partial.unlink(missing_ok=True)
            return False
        os.replace(partial, archive)
        return True


class _Archive:
    """The flags, found or made once per process; every caller waits for the first one."""

    def __init__(self):
        self._lock = threading.Lock()
        self._flags: list[str] | None = None

    def flags(self, env: dict) -> list[str]:
        with self._lock:
            if self._flags is None:
                self._flags = _find_or_make(env)
            return list(self._flags)


def _find_or_make(env: dict) -> list[str]:
    try:
        identity = _java_identity()
        if identity is None:
            return []
        cache = paths.cache_root()
        cache.mkdir(parents=True, exist_ok=True)
        archive = cache / f"jdk-{identity}.jsa"
        with open(cache / f"jdk-{identity}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another grader may be making it right now
            if archive.exists() or _make(archive, env):
                return [f"-XX:SharedArchiveFile={archive}"]
    except (OSError, subprocess.SubprocessError):
        pass
    return []


_ARCHIVE = _Archive()


def archive_flags(env: dict, no_cds: bool) -> list[str]:
    """`-XX:SharedArchiveFile=…` for this machine's JDK, making the archive the first time;
    none when `no_cds` (the settings' HARNESS_NO_CDS)."""
    return [] if no_cds else _ARCHIVE.flags(env)
