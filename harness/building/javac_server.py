"""javac kept warm for a whole grading: one JVM runs the JDK's compiler for every Java build.

Starting javac costs most of a small build (a JVM, then the compiler's own classes loaded and
compiled by the JIT); a class of a hundred submissions pays it a hundred times. `WarmJavac`
starts one compiler JVM (harness/building/java/WarmJavac.java) when a second Java build asks (so
grading one submission never pays for it); builds that ask while it starts wait for it (a
third of a second), and every build sends it its javac arguments over a pipe, one request at
a time, and gets back javac's exit status and exactly the text the javac command prints (it
calls the same `Tool.run`).

What it may touch: the JVM runs inside the sandbox like a build step, with the same tree
limits, seeing the system read-only, its own source read-only and one writable folder that
holds only this grading's build folders (`workspace()`); annotation processing is always off,
so no code of a submission runs in it. Anything unexpected (no compiler, it crashed, ran out
of memory, was killed) makes that request return None, and the caller runs plain javac: a
warm compiler can make a build faster, never different.
"""
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from harness.running import cgroups
from harness.running import limits
from harness.running import sandbox
from harness.running.environment import child_env
from harness.loading import paths

SOURCE = Path(__file__).resolve().parent / "java" / "WarmJavac.java"
READY_SECONDS = 180  # to start the JVM and warm it up, on a loaded machine
START_AFTER = 1  # builds that run plain javac before the compiler is started: one submission never pays for it
START_WAIT = 10  # seconds a build waits for a starting compiler before it runs plain javac
MAX_STARTS = 3  # a compiler that keeps failing is given up for this grading: plain javac
# C1 only: a grading's few hundred builds never repay C2's compilations (30 builds of a game:
# 3.1 s of CPU with C2, 1.4 s without; 200 builds: 7.2 s and 3.8 s, each build no slower)
JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", "-Xshare:auto",
       "-XX:ErrorFile=/tmp/hs_err_%p.log", "-Dfile.encoding=UTF-8"]
_CPU_SECONDS = 24 * 3600  # a request over its time limit is killed long before
_PROCESSORS = ("-processor", "-processorpath", "--processor-path", "--processor-module-path")
_CLASSPATH = ("-cp", "-classpath", "--class-path")


@dataclass
class Reply:
    """The warm compiler's answer to one build."""
    status: int | None  # javac's exit status; None: the request ran over its time limit
    output: str  # what javac printed, file names as javac in the build folder prints them


class _Server:
    """One running compiler and the thread that owns it (a sandboxed child dies with the
    thread that started it, so that thread lives exactly as long as the compiler)."""

    def __init__(self, builds: Path, tool: Path, sandboxed: bool):
        self.builds, self.tool, self.sandboxed = builds, tool, sandboxed
        self.process: subprocess.Popen | None = None
        self.uid: int | None = None  # the sandbox uid it runs as (when the harness is root)
        self.ready = threading.Event()  # set once it said "ready" (or failed: then process is None)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._own, name="warm-javac", daemon=True)
        self.thread.start()

    def _own(self) -> None:
        try:
            self._start()
        except (OSError, ValueError, subprocess.SubprocessError):
            self._kill()
        finally:
            self.ready.set()
        self.stop.wait()
        self._kill()

    def _start(self) -> None:
        command = ["java", *JVM, str(self.tool / SOURCE.name)]
        confined = sandbox.wrap(command, writable=[str(self.builds)], readable=[str(self.tool)], hidden=[],
                                cwd=str(self.builds)) if self.sandboxed else command
        self.uid = sandbox.sandbox_uid() if self.sandboxed and os.geteuid() == 0 else None

        def setup():
            os.setsid()
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            limits.confine(limits.BUILD_TREE, _CPU_SECONDS)

        self.process = subprocess.Popen(confined, cwd=str(self.builds), env=child_env(str(self.builds)),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        preexec_fn=setup)
        line = _read_line(self.process.stdout, time.monotonic() + READY_SECONDS)
        if line != b"ready\n":
            self._kill()

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        cgroups.finish(cgroups.name_for(process.pid))
        process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


class WarmJavac:
    """The warm compiler of one grading: started on the first Java build, shut down by `close()`
    (after which the next build starts another). Safe to call from the threads that build
    submissions side by side: requests are answered one at a time. `sandbox_setting` (the
    front door's HARNESS_SANDBOX, "auto" or "off"): whether the compiler runs in the sandbox."""

    def __init__(self, sandbox_setting: str = "auto"):
        self.sandbox_setting = sandbox_setting
        self._lock = threading.Lock()
        self._root: Path | None = None  # holds tool/ (the server's source) and builds/
        self._server: _Server | None = None
        self._starts = 0
        self._asked = 0
        self.answered = 0  # requests the warm compiler answered (the rest ran plain javac)

    def __enter__(self) -> "WarmJavac":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def workspace(self) -> Path | None:
        """Where a Java build makes its folder: the running compiler's builds folder (the only
        one it can write), or None (a folder of its own, for plain javac). Each Java build asks
        once; the compiler is started after START_AFTER of them, and a build that asks while it
        starts waits for it (up to START_WAIT seconds): it is ready before a plain javac beside
        it would be done, and costs a fraction of its CPU."""
        with self._lock:
            self._asked += 1
            server = self._server
            if server is not None and server.ready.is_set() and server.process is None:
                self._server = server = None  # it failed to start: the next build starts another
            if server is None:
                if self._starts >= MAX_STARTS or self._asked <= START_AFTER:
                    return None
                self._starts += 1
                self._server = server = _Server(self._new_builds_folder(), self._tool(),
                                               sandbox.available(self.sandbox_setting))
        if not server.ready.wait(START_WAIT):
            return None
        return server.builds if server.process is not None else None

    def _tool(self) -> Path:
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix=paths.temporary("javac")))
            (self._root / "tool").mkdir()
            shutil.copyfile(SOURCE, self._root / "tool" / SOURCE.name)
        return self._root / "tool"

    def _new_builds_folder(self) -> Path:
        """A builds folder per compiler started: one that replaces a crashed one never takes
        over (or changes the owner of) builds that are going on without it."""
        self._tool()
        builds = Path(tempfile.mkdtemp(prefix="builds-", dir=self._root))
        (builds / ".keep").touch()  # never an empty folder: the sandbox would show a private one
        return builds

    def compile(self, command: list[str], cwd: str, timeout: float) -> Reply | None:
        """Compile as `command` (a javac command line run in `cwd`, a build folder made in
        `workspace()`) would; None when the warm compiler cannot answer it: run plain javac."""
        words = _request(command, cwd)
        if words is None:
            return None
        with self._lock:
            server = self._server
            if server is None or not server.ready.is_set() or Path(cwd).resolve().parent != server.builds.resolve():
                return None
            if server.process is None:
                self._server = None  # it crashed: the next build starts another
                server.close()
                return None
            if server.uid is not None:
                _give(cwd, server.uid)
            reply = _ask(server.process, words, time.monotonic() + timeout)
            if reply is None or reply.status is None or reply.status < 0:
                self._server = None
                server.close()
                return Reply(None, "") if reply is not None and reply.status is None else None
            self.answered += 1
        prefix = cwd.rstrip("/") + "/"
        return Reply(reply.status, reply.output.replace(prefix, ""))

    def close(self) -> None:
        """Stop the compiler and remove the workspace (builds still in it are gone too)."""
        with self._lock:
            server, self._server, root, self._root = self._server, None, self._root, None
            self._starts = self._asked = 0
        if server is not None:
            server.close()
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)

    def pid(self) -> int | None:
        """The compiler's process group once it is ready (None before), so a test can kill it."""
        with self._lock:
            server = self._server
        if server is None or not server.ready.is_set() or server.process is None:
            return None
        return server.process.pid

    def wait_ready(self, seconds: float = READY_SECONDS) -> bool:
        """Wait until a started compiler is ready; False if none was started or it failed."""
        with self._lock:
            server = self._server
        return server is not None and server.ready.wait(seconds) and server.process is not None


def _request(command: list[str], cwd: str) -> list[str] | None:
    """The javac arguments the server runs, paths made absolute (it runs in another folder),
    annotation processing off; None for a command it must not or cannot run as javac would.

    A file name reaches it as the build passes it to javac: never option-like (`./-Xmx1m.java`,
    see build.command_path), and made absolute here. An argument file (`@x`, which javac would
    expand into options) and a word the line protocol cannot carry (a line break, a byte that is
    not UTF-8) send the build to plain javac."""
    if not command or command[0] != "javac":
        return None
    words = command[1:]
    for word in words:
        if word.startswith(("-J", "@")) or word.startswith(_PROCESSORS) or not _carried(word):
            return None
        if word.startswith("-proc:") and word != "-proc:none":
            return None
    words = [word if word.startswith("-") or os.path.isabs(word) or not os.path.lexists(os.path.join(cwd, word))
             else os.path.join(cwd, word) for word in words]
    if "-proc:none" not in words:
        words.insert(0, "-proc:none")
    if not any(word in _CLASSPATH for word in words):
        words[:0] = ["-cp", cwd]  # javac's default class path is its working folder
    return words


def _carried(word: str) -> bool:
    """The word goes through the line protocol unchanged: UTF-8, no line break."""
    if "\n" in word or "\r" in word:
        return False
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _give(folder: str, uid: int) -> None:
    """The build folder becomes the compiler's (it writes out/ there), links not followed."""
    os.lchown(folder, uid, uid)
    for parent, folders, files in os.walk(folder):
        for name in folders + files:
            os.lchown(os.path.join(parent, name), uid, uid)


def _read_line(stream, deadline: float) -> bytes | None:
    line = b""
    while not line.endswith(b"\n"):
        byte = _read(stream, 1, deadline)
        if not byte:
            return None
        line += byte
    return line


def _read(stream, size: int, deadline: float) -> bytes:
    """Up to `size` bytes, b"" at the end of the stream or the deadline."""
    chunks, left = [], size
    while left:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([stream], [], [], remaining)[0]:
            break
        chunk = os.read(stream.fileno(), left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _ask(process: subprocess.Popen, words: list[str], deadline: float) -> Reply | None:
    """One request; None if the compiler is gone, a Reply with no status past the deadline."""
    try:
        process.stdin.write(("\n".join([str(len(words)), *words]) + "\n").encode("utf-8"))
        process.stdin.flush()
    except (OSError, ValueError):
        return None
    header = _read_line(process.stdout, deadline)
    if header is None:
        return Reply(None, "") if time.monotonic() >= deadline else None
    try:
        status, size = (int(word) for word in header.split())
    except ValueError:
        return None
    body = _read(process.stdout, size, deadline)
    if len(body) < size:
        return Reply(None, "") if time.monotonic() >= deadline else None
    return Reply(status, body.decode("utf-8", "replace"))
