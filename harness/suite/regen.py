"""Expected transcripts, regenerated from the reference: what changed, and --check for CI."""
import difflib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from harness.loading import yamlfile
from harness.loading.cases import Case
from harness.running.environment import Workdir, fork_server
from harness.errors import InputError
from harness.grading.submission import make_inputs, run_reference
from harness.starts.drawing import reference_seed_args
from harness.loading.spec import Spec
from harness.outcome import Kind


@dataclass
class Regenerated:
    case: Case
    expect: dict
    changed: bool
    summary: str  # what changed, for a person


def expected_for(spec: Spec, case: Case) -> dict:
    with Workdir() as home:
        try:
            run = run_reference(spec, case, reference_seed_args(spec, case), make_inputs(spec, case, home), home)
        except RuntimeError as problem:  # the reference could not plan the case's strategy
            line = case.document.line_of(["inputs"]) if case.document else 1
            raise InputError(f"{problem}; fix the strategy in inputs", case.path, line)
    if run.end.stopped or run.end.kind == Kind.SIGNAL:
        raise InputError(f"the reference did not finish this case ({run.end.label()}: {run.detail}); fix the inputs",
                         case.path, 1)
    return {"exit": run.end.value, "transcript": run.events}


def regenerate(spec: Spec, case: Case) -> Regenerated:
    new = expected_for(spec, case)
    old = case.expect
    if old == new:
        return Regenerated(case, new, False, "unchanged")
    if old is None:
        return Regenerated(case, new, True, "new expected transcript")
    return Regenerated(case, new, True, changes(old, new))


SHOWN_CHARS = 120  # of a changed line, in the summary


def _turns(events: list) -> list[tuple[str | None, str]]:
    """(the line typed before it, its output) per turn, events of any other kind left aside."""
    turns: list[tuple[str | None, str]] = [(None, "")]
    for event in events or []:
        if not isinstance(event, dict):
            continue
        if "in" in event:
            turns.append((str(event["in"]), ""))
        elif "out" in event:
            typed, text = turns[-1]
            turns[-1] = (typed, text + str(event["out"]))
    return turns


def _line(text: str) -> str:
    return "a blank line" if text == "" else repr(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…")


def _changed_lines(old: str, new: str) -> str:
    """The first change between two outputs, named: which line, what it was and what it is now."""
    mine, theirs = old.split("\n"), new.split("\n")
    for tag, a0, a1, b0, b1 in difflib.SequenceMatcher(None, mine, theirs, autojunk=False).get_opcodes():
        if tag == "replace":
            return f"line {a0 + 1} was {_line(mine[a0])}, now {_line(theirs[b0])}"
        if tag == "delete":
            return f"line {a0 + 1} ({_line(mine[a0])}) is gone" + (f" and {a1 - a0 - 1} more" if a1 - a0 > 1 else "")
        if tag == "insert":
            return f"line {a0 + 1} is new: {_line(theirs[b0])}" + (f" and {b1 - b0 - 1} more" if b1 - b0 > 1 else "")
    return "the same lines, printed in other pieces"


def changes(old: dict, new: dict) -> str:
    """What differs between the stored expectation and the reference's, for the person who
    decides whether the reference or the case is right: the first turn whose output changed,
    the line and its old and new text, how many turns changed, and the exit."""
    parts = []
    before, after = _turns(old.get("transcript")), _turns(new.get("transcript"))
    differing = [i for i in range(max(len(before), len(after)))
                 if i >= len(before) or i >= len(after) or before[i] != after[i]]
    if differing:
        first = differing[0]
        if first >= len(before) or first >= len(after):
            parts.append(f"the reference now reads {len(after) - 1} lines of input, the case {len(before) - 1}")
        else:
            (typed, was), (now_typed, now) = before[first], after[first]
            where = f"turn {first}" + (f" (after typing {typed!r})" if typed is not None else "")
            if typed != now_typed:
                parts.append(f"{where}: the input is now {now_typed!r}")
            else:
                parts.append(f"{where}: {_changed_lines(was, now)}")
        if len(differing) > 1:
            parts.append(f"{len(differing) - 1} later turn{'s' if len(differing) > 2 else ''} changed too")
    if old.get("exit") != new.get("exit"):
        parts.append(f"the exit was {old.get('exit')!r}, now {new.get('exit')!r}")
    return "; ".join(parts) or "transcript events regrouped"


def _regenerate_job(job: tuple[Spec, Case]) -> tuple[dict, bool, str]:
    outcome = regenerate(*job)
    return outcome.expect, outcome.changed, outcome.summary


def regenerate_all(selected: list[tuple[Spec, Case]], jobs: int) -> list[Regenerated]:
    """Every case regenerated, in order, references run side by side in worker processes (each
    run kills what it started, so runs must not share a process)."""
    if len(selected) < 2 or jobs < 2:
        return [regenerate(spec, case) for spec, case in selected]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=fork_server()) as pool:
        done = list(pool.map(_regenerate_job, selected))
    return [Regenerated(case, expect, changed, summary) for (_, case), (expect, changed, summary) in zip(selected, done)]


def write(regenerated: Regenerated) -> None:
    """Rewrite the case's `expect:`; the rest of the file (comments included) stays as written."""
    case = regenerated.case
    text = case.path.read_text(encoding="utf-8")
    data = dict(case.data)
    keys = list(data)
    data["expect"] = regenerated.expect
    if keys and keys[-1] == "expect" or "expect" not in keys:
        line = case.document.line_of(["expect"]) if "expect" in keys else None
        head = text.splitlines(keepends=True)[: line - 1] if line else text.splitlines(keepends=True)
        head_text = "".join(head)
        if head_text and not head_text.endswith("\n"):
            head_text += "\n"
        case.path.write_text(head_text + yamlfile.dump({"expect": regenerated.expect}), encoding="utf-8")
    else:
        case.path.write_text(yamlfile.dump(data), encoding="utf-8")
