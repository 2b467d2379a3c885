"""The `harness` command as a process: it keeps its own bytecode and ends without a teardown.

A class is thousands of `harness run`s, and each used to spend a third of its time before the
first case: compiling 12,000 lines of the harness where PYTHONDONTWRITEBYTECODE is set (so
no compiled copy was ever kept), then tearing every module down at exit. The command writes
the bytecode of what it imports (the programs it runs still get PYTHONDONTWRITEBYTECODE), and
once its work is done, flushed and its exit handlers have run, it leaves at once.

Importing the harness makes some 100,000 objects that live as long as the process; the cyclic
garbage collector would look at them again and again while they are made (28 collections,
3–4 ms of a one-case run). It is off while the harness imports itself, and what was imported
is then frozen out of its reach (`gc.freeze`): later collections look only at later objects.
"""
import atexit
import gc
import os
import sys
import threading


def main() -> None:
    sys.dont_write_bytecode = False
    gc.disable()
    if sys.argv[1:2] == ["run"]:
        # `harness run` runs its program in this process: that program's process is made now,
        # so its control group is joined while the harness imports itself (launcher's docstring)
        from harness.running import launcher

        launcher.for_this_process().prepare()
    from harness.cli import main as run_command

    gc.freeze()
    gc.enable()
    code = run_command()
    if threading.active_count() > 1:  # a thread still at work gets the ordinary exit, which joins it
        sys.exit(code)
    atexit._run_exitfuncs()  # temporary folders, worker pools: what an ordinary exit would clean up
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken pipe: nothing more can be said there
            pass
    os._exit(code if isinstance(code, int) else 1)
