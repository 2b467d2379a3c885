"""The `harness` command as a process: it keeps its own bytecode and ends without a teardown.

A class is thousands of `harness run`s, and each used to spend a third of its time before the
first case: compiling 12,000 lines of the harness where PYTHONDONTWRITEBYTECODE is set (so
no compiled copy was ever kept), then tearing every module down at exit. The command writes
the bytecode of what it imports (the programs it runs still get PYTHONDONTWRITEBYTECODE), and
once its work is done, flushed and its exit handlers have run, it leaves at once.
"""
import atexit
import os
import sys
import threading


def main() -> None:
    sys.dont_write_bytecode = False
    from harness.cli import main as run_command

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
