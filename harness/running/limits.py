"""What a child process tree may use, set up in the child before it executes its program, and
a contained run of one command for builds.

`confine` puts the child in a control group of its own (`harness.running.cgroups`: memory and
processes bounded for the whole tree) and adds per-process limits that hold in any case (CPU
seconds, file size, no core files). Where no control group can be made, memory is bounded per
process (RLIMIT_DATA) and, when the harness is root, processes by RLIMIT_NPROC, which binds
the unprivileged uid the sandbox gives each run (one uid per run, so one fork bomb cannot
starve another run); a tree is then bounded only as far as those go.
"""
import os
import resource
import signal
import subprocess
import tempfile
from dataclasses import dataclass

from harness.running import cgroups
from harness.running.cgroups import TreeLimits

FILE_BYTES = 16 << 20  # the largest file a program may write
BUILD_TREE = TreeLimits(memory_bytes=2 << 30, tasks=256)  # a compiler and everything it starts


def confine(tree: TreeLimits, cpu_seconds: int, file_bytes: int = FILE_BYTES) -> bool:
    """Call in the child before exec. True if a control group bounds the whole tree."""
    try:
        grouped = cgroups.join(cgroups.name_for(os.getpid()), tree)
    except OSError:
        grouped = False
    limit_process(grouped, tree, cpu_seconds, file_bytes)
    return grouped


def limit_process(grouped: bool, tree: TreeLimits, cpu_seconds: int, file_bytes: int = FILE_BYTES) -> None:
    """The per-process limits, in the child before exec; without a control group (`grouped`
    False) also memory and processes per process."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    if not grouped:
        resource.setrlimit(resource.RLIMIT_DATA, (tree.memory_bytes, tree.memory_bytes))
        if os.geteuid() == 0:  # root itself is exempt; it binds the sandbox's per-run uid
            resource.setrlimit(resource.RLIMIT_NPROC, (tree.tasks, tree.tasks))


@dataclass
class StepResult:
    """One contained command: how it ended and what it printed."""
    status: int | None  # exit status (negative: killed by that signal); None if stopped at the time limit
    output: str  # stdout and stderr together, its middle cut past `output_bytes`
    timed_out: bool
    limits_hit: str = ""  # which tree limit it ran into, for a person


def run_contained(command: list[str], *, cwd: str, env: dict, seconds: float, tree: TreeLimits,
                  output_bytes: int = 1 << 20, file_bytes: int = 64 << 20) -> StepResult:
    """Run `command` (a build step) with its whole tree bounded; at the time limit, or once it
    has ended, everything it started is killed (a compiler's own children included)."""
    cgroups.places()  # found once here, not in every child
    with tempfile.TemporaryFile() as sink:
        def setup():
            os.setsid()
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            confine(tree, int(seconds) + 1, file_bytes)

        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=sink,
                                   stderr=subprocess.STDOUT, preexec_fn=setup)
        try:
            status, timed_out = process.wait(timeout=seconds), False
        except subprocess.TimeoutExpired:
            status, timed_out = None, True
        usage = cgroups.finish(cgroups.name_for(process.pid))
        try:
            os.killpg(process.pid, signal.SIGKILL)  # without a control group: the session it began
        except OSError:
            pass
        process.wait()
        sink.seek(0)
        size = os.fstat(sink.fileno()).st_size
        if size > output_bytes:
            head = sink.read(output_bytes // 2)
            sink.seek(size - output_bytes // 2)
            text = (head.decode("utf-8", "replace") + f"\n… [{size - output_bytes} bytes cut] …\n"
                    + sink.read().decode("utf-8", "replace"))
        else:
            text = sink.read().decode("utf-8", "replace")
    return StepResult(status, text, timed_out, usage.describe(tree) if usage else "")
