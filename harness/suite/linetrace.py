"""Run a Python program and record which lines of one file it executed.

    python -S linetrace.py OUT FILE -m MODULE [ARGS...]
    python -S linetrace.py OUT FILE SCRIPT.py [ARGS...]

The program runs as `python -m MODULE` / `python SCRIPT.py` would run it (same sys.argv,
sys.path[0] and __main__). Each line of FILE is written to OUT the first time it executes, at
once: a run that ends killed while it waits for input (most cases end so) keeps what it
recorded. The mutation audit runs the unmutated reference this way once per case, so a mutant
is run only on the cases that reach the line it changes. Run by path, so nothing of the harness
is imported into the program.
"""
import sys

del sys.path[0]  # this file's folder (the harness's own modules) is no place to import from
import os  # noqa: E402
import runpy  # noqa: E402


def main() -> None:
    out, watched, *command = sys.argv[1:]
    watched = os.path.realpath(watched)
    module = command[0] == "-m"
    target = command[1] if module else command[0]
    sys.argv = [watched if module else target] + command[(2 if module else 1):]
    sys.path.insert(0, os.getcwd() if module else os.path.dirname(os.path.realpath(target)))
    handle = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    seen: set[int] = set()
    mine: dict[str, bool] = {}

    def lines(frame, event, arg):
        if event == "line" and frame.f_lineno not in seen:
            seen.add(frame.f_lineno)
            os.write(handle, f"{frame.f_lineno}\n".encode())
        return lines

    def calls(frame, event, arg):
        name = frame.f_code.co_filename
        if name not in mine:
            mine[name] = os.path.realpath(name) == watched
        return lines if mine[name] else None

    sys.settrace(calls)
    if module:
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        runpy.run_path(target, run_name="__main__")


if __name__ == "__main__":
    main()
