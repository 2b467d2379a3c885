"""Run a Python program and record which lines of one file it executed.

    python -S linetrace.py OUT FILE -m MODULE [ARGS...]
    python -S linetrace.py OUT FILE SCRIPT.py [ARGS...]

The program runs as `python -m MODULE` / `python SCRIPT.py` would run it (same sys.argv,
sys.path[0] and __main__). Each line of FILE is written to OUT the first time it executes, at
once: a run that ends killed while it waits for input (most cases end so) keeps what it
recorded. The mutation audit runs the unmutated reference this way once per case, so a mutant
is run only on the cases that reach the line it changes. Run by path, so nothing of the harness
is imported into the program.

`execute` runs a module's source the same way inside the calling process (a worker of the
audit's differential search): its input given at once, its output captured (what it writes on
standard error dropped, as the grader compares standard output), bounded in time
and size, the lines of the module it ran recorded on request, Python's `random` seeded alike on
every run (the reference and a mutant that draw unseeded draw the same). Thousands of runs a
minute, where a process and a terminal per run would allow a few hundred.
"""
import io
import os
import random
import runpy
import signal
import sys
import types


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


# --- in the calling process ------------------------------------------------------------------

class _Stop(BaseException):
    """Ends a run from outside the program's own exception handling (time or output spent)."""


class _Capped(io.RawIOBase):
    def __init__(self, limit: int):
        self.data, self.limit = bytearray(), limit

    def writable(self):
        return True

    def write(self, chunk):
        self.data += chunk
        if len(self.data) > self.limit:
            raise _Stop("output-limit")
        return len(chunk)


class _Typed(io.StringIO):
    """The lines typed, then nothing: a program that reads past them waits, as it would in a
    terminal where no more is typed, and its run ends there (`waiting`), never at an end of file."""

    def readline(self, size=-1):
        line = super().readline(size)
        if not line:
            raise _Stop("waiting")
        return line

    def read(self, size=-1):
        data = super().read(size)
        if not data:
            raise _Stop("waiting")
        return data

    def __iter__(self):
        return self

    def __next__(self):
        return self.readline()


_CODE: dict[tuple[str, int], types.CodeType] = {}


def _exit_status(code) -> int:
    """The status a process would exit with, given what main returned or SystemExit carried:
    a number as it is (True is 1), None 0, anything else (a message) 1."""
    return int(code) if isinstance(code, int) else 0 if code is None else 1


def execute(source: str, filename: str, argv: list[str], stdin: str, trace: bool = False,
            seconds: float = 2.0, max_bytes: int = 1 << 20) -> tuple[str, tuple[str, int | str | None], frozenset]:
    """Run `source` (the text of the module at `filename`) as its `main(argv)` with `stdin` as
    its whole input: (its standard output, how it ended as plain data: `("exit", N)`,
    `("crash", EXCEPTION_NAME)`, `("waiting", None)` (for more input), `("timeout", None)` or
    `("output-limit", None)`, the lines of `filename` it executed when `trace`). Plain data, as
    this module also runs as a script that imports nothing of the harness."""
    key = (filename, hash(source))
    if key not in _CODE:
        if len(_CODE) > 64:
            _CODE.clear()
        _CODE[key] = compile(source, filename, "exec")
    raw = _Capped(max_bytes)
    stdout = io.TextIOWrapper(raw, encoding="utf-8", newline="\n", write_through=True)
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv
    seen: set[int] = set()

    def lines(frame, event, arg):
        if event == "line":
            seen.add(frame.f_lineno)
        return lines

    def calls(frame, event, arg):
        return lines if frame.f_code.co_filename == filename else None

    def expire(signum, frame):
        raise _Stop("timeout")

    module = types.ModuleType("__audit_main__")
    module.__file__ = filename
    random.seed(0)  # a program that draws unseeded draws the same on every run here
    previous = signal.signal(signal.SIGALRM, expire)
    sys.stdin, sys.stdout, sys.stderr, sys.argv = _Typed(stdin), stdout, io.StringIO(), [filename, *argv]
    sys.modules["__audit_main__"] = module
    end: tuple[str, int | str | None] = ("exit", 0)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        if trace:
            sys.settrace(calls)
        exec(_CODE[key], module.__dict__)
        status = module.main(list(argv))
        end = ("exit", _exit_status(status))
    except SystemExit as stop:
        end = ("exit", _exit_status(stop.code))
    except _Stop as stop:
        end = (str(stop), None)
    except RecursionError:
        end = ("crash", "RecursionError")
    except Exception as problem:  # noqa: BLE001 - a mutant's crash is its outcome
        end = ("crash", type(problem).__name__)
    finally:
        sys.settrace(None)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        try:
            stdout.flush()
        except _Stop:
            end = ("output-limit", None)
        except Exception:  # noqa: BLE001
            pass
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved
        sys.modules.pop("__audit_main__", None)
    return bytes(raw.data).decode("utf-8", "replace"), end, frozenset(seen)


if __name__ == "__main__":
    # this file's folder (the harness's own modules) is no place to import from; under -P (how a
    # module reference runs) Python put no folder first, and the first entry is the program's own
    if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
        del sys.path[0]
    main()
