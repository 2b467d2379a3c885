"""One line per case, then the rubric and the total: what a person reads in the shell.

Everything a program printed is shown with its control characters made visible, so no
submission can clear the grader's screen or fake a score line.
"""
import sys

from harness.results import MARKS, Status, SubmissionResult, Verdict
from harness.safe_text import cap, one_line, visible

# One palette for every status word the shell shows: a case's, a submission's, and a tone.
COLOURS = {Status.PASSED: "32", Status.FAILED: "31", Status.UNGRADABLE: "33", Status.HARNESS_ERROR: "35",
           Verdict.GRADED: "32", Verdict.BUILD_FAILED: "31", Verdict.MISSING_FILES: "31", Verdict.NOT_GRADED: "33",
           "failing": "33", "bold": "1", "dim": "2"}
REASON_CHARS = 600


def paint(text: str, colour: str, on: bool) -> str:
    """`text` in the colour of a status word (or a tone), when colour is on."""
    code = COLOURS.get(colour)
    return f"\x1b[{code}m{text}\x1b[0m" if on and code else text


def _safe(text: str, limit: int = REASON_CHARS) -> str:
    return visible(cap(text, limit))


def render(result: SubmissionResult, stream=None, colour: bool | None = None) -> None:
    stream = stream or sys.stdout
    on = stream.isatty() if colour is None else colour
    say = lambda text="": print(text, file=stream)  # noqa: E731
    milestone = f" {result.milestone}" if result.milestone else ""
    say(paint(f"{result.title}{milestone} — {one_line(cap(result.submission, REASON_CHARS))}", "bold", on))
    if result.sandbox == "none":
        say(paint("  note: submissions ran without the sandbox (bubblewrap)", "ungradable", on))
    for target, build in result.builds.items():
        for line in build.intake:
            say(paint(f"  intake ({target}): {one_line(cap(line, REASON_CHARS))}", "dim", on))
        if not build.ok:
            reason = one_line(cap(build.reason, REASON_CHARS))
            say(paint(f"  build of {target} ({build.language}): {reason}", "failed", on))
            shown = build.diagnosis or "\n".join(build.log.strip().splitlines()[-15:])
            if shown.strip():
                say("    " + "\n    ".join(_safe(shown, 3000).splitlines()))
        for finding in build.findings:
            say(paint(f"  source check: {_safe(finding)}", "ungradable", on))
    for case in result.cases:
        mark = paint(MARKS[case.status], case.status, on)
        say(f"  {mark} {case.name} [{case.rubric}] {case.seconds:.2f}s")
        if not case.passed:
            say(f"       {_safe(case.reason)}")
            if case.hint:
                say(paint(f"       hint: {case.hint}", "dim", on))
    say()
    for item in result.items:
        if not item.graded:
            say(f"  {'—':>7}  {item.title} (graded by a person, {item.weight:g} points)")
            continue
        if not item.counted:
            why = "no cases run" if not item.cases_gradable + item.cases_ungradable else "no case could be graded"
            say(f"  {'—':>7}  {item.title} ({why}; not counted)")
            continue
        cases = f"{item.cases_passed}/{item.cases_gradable} cases"
        if item.cases_ungradable:
            cases += f", {item.cases_ungradable} not gradable"
        if item.charges:
            cases += f", {item.charges} start{'s' if item.charges > 1 else ''} against the rules"
        say(f"  {item.earned:>5.1f}/{item.weight:<4g} {item.title} ({cases})")
    colour_name = "passed" if result.all_passed else "failed"
    if not result.published:
        say(paint(f"  {result.passed}/{result.total} cases passed — no score: the harness failed on a case, "
                   "so this submission must be regraded", "failed", on))
        return
    say(paint(f"  {result.passed}/{result.total} cases passed — score {result.earned:.1f}/{result.possible:g} "
               f"= {result.percent:.1f} %", colour_name, on))


def explain_failures(result: SubmissionResult, stream=None, every: bool = False) -> None:
    """The first divergent turn of a failing case, expected above actual."""
    stream = stream or sys.stdout
    for case in result.cases:
        if case.status != "failed" or case.first_divergence is None:
            continue
        turn = case.turns[case.first_divergence]
        typed = f" (after typing {visible(turn.typed)!r})" if turn.typed is not None else ""
        print(f"\n  {case.name}: first difference in turn {turn.index}{typed}", file=stream)
        for label, text in (("expected", turn.expected), ("got", turn.actual)):
            print(f"  --- {label}:", file=stream)
            for line in _safe(text if text is not None else "(nothing)", 4000).split("\n"):
                print(f"    {line}" + ("·" if line.endswith(" ") else ""), file=stream)
        if not every:
            return
