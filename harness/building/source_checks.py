"""The spec's `source_checks`: regular expressions whose matches are reported, never deducted.

A pattern is matched with RE2, in time linear in the file, so no pattern or source can stall
grading. A pattern RE2 cannot run (a backreference, a lookaround) runs with Python's `re` in
a separate process that is killed after CHECK_SECONDS; a check that times out is a finding
that says so. RE2 and multiprocessing are imported when a check runs: most specs have none.
"""
import re

from harness.building.diagnose import strip_comments

CHECK_SECONDS = 5.0
MAX_CHECKED_CHARS = 512 * 1024


def _re2(pattern: str):
    import re2

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(f"(?m){pattern}", options)
    except re2.error:
        return None


def _python_matches(pattern: str, text: str, conn) -> None:
    conn.send([m.start() for m in re.finditer(pattern, text, flags=re.M)])


def _bounded_python(pattern: str, text: str) -> list[int] | None:
    """Match starts with Python's `re` in a spawned process; None if it ran out of time."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_python_matches, args=(pattern, text, send), daemon=True)
    worker.start()
    try:
        return receive.recv() if receive.poll(CHECK_SECONDS) else None
    except EOFError:
        return []
    finally:
        worker.kill()
        worker.join()
        receive.close()
        send.close()


def findings(checks: list[dict], sources: dict[str, str]) -> list[str]:
    """`name:line: message: the line` for each match; `sources` maps staged names to text.
    A check with `files:` looks at those names only."""
    found = []
    for check in checks:
        compiled = _re2(check["pattern"])
        for name in check.get("files") or list(sources):
            if name not in sources:
                continue
            original = sources[name][:MAX_CHECKED_CHARS]
            text = strip_comments(original)
            starts = ([m.start() for m in compiled.finditer(text)] if compiled is not None
                      else _bounded_python(check["pattern"], text))
            if starts is None:
                found.append(f"{name}: the check \"{check['message']}\" took longer than {CHECK_SECONDS:g} s "
                             "and was stopped (not reported either way)")
                continue
            lines = original.split("\n")
            for start in starts:
                line = text.count("\n", 0, start) + 1
                found.append(f"{name}:{line}: {check['message']}: {lines[line - 1].strip()}")
    return found
