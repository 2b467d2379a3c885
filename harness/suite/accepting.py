"""`harness accept`: record the students' version of a line as also correct, in the case file,
as data a person reviews (`accept:`), never as code.

The file is edited as text: the `accept:` block is written (or rewritten) just before `expect:`,
so `regen`, which rewrites `expect:` only, keeps it, and the rest of the file (comments
included) stays as written. The edited case is loaded again before it is kept: an acceptance
that names no line of the expected transcript is refused, and the file is left as it was."""
from pathlib import Path

from harness import atomic
from harness.loading import acceptances, yamlfile
from harness.loading.acceptances import Acceptance
from harness.loading.cases import Case, load_case
from harness.loading.spec import Spec


def _block_span(lines: list[str], key: str) -> tuple[int, int] | None:
    """The lines [start, end) of a top-level `key:` and the indented lines under it."""
    for start, line in enumerate(lines):
        if line.startswith(f"{key}:"):
            end = start + 1
            while end < len(lines) and (lines[end][:1] in (" ", "\t", "#") or not lines[end].strip()):
                end += 1
            while end > start + 1 and not lines[end - 1].strip():
                end -= 1
            return start, end
    return None


def with_acceptance(text: str, accepted: list[Acceptance]) -> str:
    """The case file's text with its `accept:` block holding exactly `accepted`."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    block = yamlfile.dump({"accept": [entry.to_data() for entry in accepted]}) if accepted else ""
    if not block.endswith("\n") and block:
        block += "\n"
    span = _block_span(lines, "accept")
    if span is not None:
        start, end = span
        return "".join(lines[:start]) + block + "".join(lines[end:])
    expect = _block_span(lines, "expect")
    at = expect[0] if expect is not None else len(lines)
    return "".join(lines[:at]) + block + "".join(lines[at:])


def accept(spec: Spec, case: Case, entry: Acceptance) -> tuple[Path, bool]:
    """Add `entry` to the case's acceptances; returns the file and whether it was new."""
    current = list(case.accept)
    if entry in current:
        return case.path, False
    original = case.path.read_text(encoding="utf-8")
    atomic.write_text(case.path, with_acceptance(original, current + [entry]))
    try:
        load_case(case.path, spec)
    except BaseException:
        atomic.write_text(case.path, original)
        raise
    return case.path, True


def lets_through(spec: Spec, case: Case, entry: Acceptance, reports: Path) -> str:
    """What `entry` lets through, said for the instructor who just made it: every program that
    prints its line there passes from now on; which submissions of the class graded into
    `reports` it turns from failing to passing (the class page's suspect card says the same);
    and, when they are few, that it is worth reading against the handout: two students who work
    together can make a wrong line look common."""
    from harness.classes import resume
    from harness.reporting import suspects

    where = f"at turn {entry.turn}" if entry.turn is not None else "at any turn"
    instead = f"where the reference prints {entry.line!r}" if entry.line is not None else "as an extra line"
    said = (f"it lets through: any program that prints {entry.also!r} {instead} {where} of {case.name} "
            "passes there from now on, whatever the handout says")
    folders = sorted(folder for folder in reports.iterdir() if folder.is_dir()) if reports.is_dir() else []
    results = [found for found in map(resume.stored_result, folders) if found is not None]
    if not results or results[0].game != spec.game:
        return (f"{said}. No class of {spec.game} is graded in {reports} (-o names the class's report folder), "
                "so whose lines it turns to passing is not known; read it against the handout")
    return f"{said}. In {reports}: {suspects.lets_through_said(suspects.let_through(results, case.name, entry.line, entry.also, entry.turn))}"


def stale(case: Case, expect: dict) -> list[str]:
    """The acceptances a new expected transcript (from `regen`) no longer has the line of."""
    problems = []
    turns = acceptances.expected_turns(expect["transcript"])
    for index, entry in enumerate(case.accept):
        if entry.line is None:
            continue
        looked = [turns[entry.turn]] if entry.turn is not None and entry.turn < len(turns) else \
            ([] if entry.turn is not None else turns)
        if not any(entry.line.rstrip() in lines for lines in looked):
            problems.append(f"accept[{index}] names {entry.line!r}, which the new transcript no longer has "
                            f"{'at turn ' + str(entry.turn) if entry.turn is not None else ''}: "
                            "fix its `line` or remove it")
    return problems
