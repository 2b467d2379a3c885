"""The grading steps a random start adds, for every front door alike.

In a case worker, `draw` runs a case until it draws a start it can be graded on. Once a
submission's cases are in, `law_check` judges the law of its starts (topped up with runs of the
law's case) and `settle` runs again the setup cases that passed while other runs drew a start
the rules forbid. Each returns what it decided; `harness.grading.drawn` alone makes the case
results of it, so a grading, a self-check, a single case, Gradescope, the cluster, the audit and
the pytest plugin reach one verdict.
"""
import dataclasses
import math
from typing import Callable

from harness.loading.cases import Case
from harness.loading.random_start import Law, RandomStart
from harness.loading.spec import Spec
from harness.results import FAILED, UNGRADABLE, Cause, CaseResult
from harness.running import runner
from harness.starts import law as distribution
from harness.starts.law import LawVerdict
from harness.starts.planning import StrategyInputs
from harness.starts.reading import MISSING, RULES, UNPLAYABLE, UNUSABLE, Rerun, StartProblem, expected_from_start, \
    find_start, too_long

# Draws a case of a random game may take to get a start it can be graded on. A program whose
# starts are usable at least half the time gets one within 20 draws but for a chance below one
# in a million; one that rarely draws a usable start has lost its setup item long before.
START_DRAWS = 20
# A run that shows no start at all (a crash before the first board) is drawn again too, but a
# correct program shows its start on every run, so a case whose first runs all show none fails:
# after SAME_MISSES runs with the very same output (a deterministic crash; a program that
# crashes on a sixth of its draws does that by chance once in 7,776 cases), or after MISSES
# whatever they printed (text that differs every run; by chance (1/6)**8 < 1e-6), not START_DRAWS.
SAME_MISSES = 5
MISSES = 8
# Runs a passing setup case takes in all, once the program has drawn a start the rules forbid:
# a program that breaks the rules on one draw in six or more (a die's face) then passes them all
# by a chance below one in a million ((5/6)**76 < 1e-6), so its grade does not hang on its luck.
SETTLE_RUNS = 76
# Rounds of extra runs of the law's case a check may take to collect its sample (a program that
# shows a start on fewer runs than expected, or repeats its starts, may need a second).
TOP_UP_ROUNDS = 3

Attempt = Callable[[], tuple[CaseResult, StartProblem | None]]
RunCases = Callable[[list[Case]], list[CaseResult]]  # cases of built targets, run side by side, in order


# --- one case ------------------------------------------------------------------------------

def drawing(spec: Spec, case: Case) -> RandomStart | None:
    """The random-start settings when this case's program draws its own start (not handed a seed)."""
    settings = spec.random_start_for(case.target)
    return None if settings is None or seeded(spec, case) else settings


def seeded(spec: Spec, case: Case) -> bool:
    """The program is handed the case's seed, so it draws the case's own start on every run."""
    return case.seed is not None and bool(spec.targets[case.target].seed_args)


def reference_seed_args(spec: Spec, case: Case) -> list[str]:
    """The case's seed; for a random-start target without one, the spec's fixed seed, so the
    reference's own draw (and the expected transcript) is the same every time."""
    settings = spec.random_start_for(case.target)
    return spec.seed_args(case.seed if case.seed is not None else settings.seed if settings else None)


def inputs(spec: Spec, case: Case, rewrite, reader):
    """What is typed: the case's lines, or its prefix then the lines its strategy plays from the start drawn."""
    if case.strategy is None:
        return runner.FixedInputs(case.prefix)
    reference = spec.reference_command(case.milestone, case.target, case.args)
    return StrategyInputs(case.prefix, case.strategy, reference, spec.random_start_for(case.target), rewrite, reader)


def expected(spec: Spec, case: Case, output: str, typed, rerun, reader) -> Rerun | StartProblem | None:
    """None: the case's own transcript is expected; else the reference's from the program's own
    start (`rerun(extra_args, lines)`), or why this run's start cannot be graded."""
    settings = drawing(spec, case)
    if settings is None:
        return None
    return expected_from_start(settings, case.expected_events, case.expected_end, output, typed, rerun, reader)


def drawn(spec: Spec, case: Case, output: str, problem: StartProblem | None, reader) -> list[str]:
    """The start the program drew on this run, for the check of its random setup: none if it
    was handed its start (a seed), showed none, or showed an unplayable one."""
    settings = drawing(spec, case)
    if settings is None or problem is not None and problem.kind != RULES:
        return []
    start = find_start(settings, output, reader)
    return [start] if start is not None and too_long(settings, start) is None else []


@dataclasses.dataclass
class Drawn:
    """What the draws of one case decided: the attempt whose result stands, the status it takes
    instead of its own judgement (None: as judged), the item a start against the rules is
    charged to, a note saying why, and every start the draws showed. Grading makes the result."""
    result: CaseResult
    starts: list[str]  # every start the draws showed, for the check of the random setup
    against_rules: list[str]  # those the rules forbid
    status: str | None = None
    charged_to: str | None = None
    note: str | None = None


def draw(spec: Spec, case: Case, attempt: Attempt) -> Drawn:
    """A random game may draw a start that cannot be graded. Another run draws another:
    an unplayable start (within the rules) never counts; one against the rules is charged to
    the setup item, except that the setup item's own cases take the first start they get
    that is not unplayable, since a start against the rules is exactly what they look for."""
    settings = drawing(spec, case)
    draws = START_DRAWS if settings is not None else 1
    setup = settings.rubric if settings is not None else None
    starts: list[str] = []
    broken: list[str] = []
    seen: dict[str, CaseResult] = {}
    missed: list[str] = []  # outputs of the runs that showed no start
    for tried in range(draws):
        result, problem = attempt()
        starts += result.starts
        if problem is None:
            spent = tried and result.cause in (Cause.OUT_OF_TIME, Cause.BUDGET_SPENT)
            return Drawn(result, starts, broken, note=(
                f"drawn {tried} times before the time budget was spent, without a start to grade" if spent else None))
        if problem.kind == UNUSABLE:  # the program's output, not a harness fault: charged to its case
            return Drawn(result, starts, broken, FAILED)
        if problem.kind == RULES:
            broken += result.starts
        seen.setdefault(problem.kind, result)
        if problem.kind in (RULES, MISSING) and case.rubric == setup:
            return Drawn(result, starts, broken, FAILED)  # exactly what the setup item looks for
        if problem.kind == MISSING:
            missed.append(repr(result.actual))
            if set(seen) == {MISSING} and (len(missed) >= SAME_MISSES and len(set(missed)) == 1
                                           or len(missed) >= MISSES):
                break  # no run of this case showed a start, and a correct program shows one every run
    if RULES in seen:
        return Drawn(seen[RULES], starts, broken, UNGRADABLE, setup, f"no start within the rules in {draws} draws")
    if MISSING in seen:
        return Drawn(seen[MISSING], starts, broken, FAILED,
                     note=f"no start shown in {len(missed)} runs" if len(missed) > 1 else None)
    return Drawn(seen[UNPLAYABLE], starts, broken, UNGRADABLE,
                 note=f"every one of {draws} starts drawn showed no game; not counted")


# --- the whole submission --------------------------------------------------------------------

@dataclasses.dataclass
class Settling:
    """A passed setup case run again: the run whose result stands (the first that failed, else
    the last) and what all the runs together showed."""
    index: int  # the case's position in the submission's list
    result: CaseResult
    runs: int
    starts: list[str]
    against_rules: list[str]
    note: str


def settle(spec: Spec, cases: list[Case], results: list[CaseResult], built: Callable[[str], bool],
           run_cases: RunCases) -> list[Settling]:
    """A setup case that passed, from a program seen drawing a start the rules forbid, may
    have passed by luck: it runs again, SETTLE_RUNS more times in all, until a run fails.
    A correct program never draws such a start, so it never pays for these runs."""
    setup = spec.random_start.rubric if spec.random_start is not None else None
    broken = [start for result in results for start in result.against_rules]
    if not setup or not broken:
        return []
    settled = []
    for index, (case, result) in enumerate(zip(cases, results)):
        if case.rubric != setup or not result.passed or drawing(spec, case) is None or not built(case.target):
            continue
        batch = max(1, case.repeat)
        again = dataclasses.replace(case, repeat=batch)
        reruns = run_cases([again] * math.ceil(SETTLE_RUNS / batch))
        failed = next((r for r in reruns if not r.passed), None)
        runs = result.runs + sum(r.runs for r in reruns)
        settled.append(Settling(
            index, failed or reruns[-1], runs, result.starts + [s for r in reruns for s in r.starts],
            result.against_rules + [s for r in reruns for s in r.against_rules],
            f"the program drew a start the rules forbid on other runs ({broken[0]!r}), so this case, "
            f"passed on its first {result.runs} run(s), ran {runs - result.runs} more times to settle "
            + ("its verdict: this run failed" if failed else "its verdict: every run passed")))
    return settled


@dataclasses.dataclass
class LawCheck:
    """The check of the random setup's law: its verdict, the starts of its top-up runs the rules
    forbid, and, when the submission's budget ran out before the sample was whole, the budget said."""
    rule: Law
    verdict: LawVerdict
    against_rules: list[str]
    cut_short: str | None = None


def law_check(spec: Spec, cases: list[Case], results: list[CaseResult], built: Callable[[str], bool],
              run_cases: RunCases, budget=None) -> LawCheck | None:
    """The check of the random setup, for a target whose spec declares the law of its starts
    and whose named case is graded: the starts its runs drew, topped up with runs of that case.
    A check left without enough starts because the submission spent its time budget is cut short
    (grading fails it: not gradable would let a slow program keep the points)."""
    rule = spec.random_start.law if spec.random_start is not None else None
    if rule is None:
        return None
    named = next((c for c in cases if c.name == rule.case), None)
    if named is None or not built(named.target):
        return None
    starts = [s for c, r in zip(cases, results) if c.target == named.target for s in r.starts]
    broken: list[str] = []  # starts of the top-up runs the rules forbid (the cases keep their own)
    for _ in range(TOP_UP_ROUNDS):
        more = min(rule.least, distribution.runs_to_add(rule, starts))
        if not more or budget is not None and budget.left() <= 0:
            break
        topped = run_cases([dataclasses.replace(named, repeat=1)] * more)
        starts += [s for r in topped for s in r.starts]
        broken += [s for r in topped for s in r.against_rules]
    verdict = distribution.check(rule, starts)
    spent = verdict.passed is None and budget is not None and budget.left() <= 0
    return LawCheck(rule, verdict, broken, budget.describe() if spent else None)
