"""Is a program's random setup drawn as the handout says? A spec can declare the law of the
values a start shows (`random_start.distribution`); the starts a program drew over the runs
grading makes anyway are its sample, topped up with runs of one named case when too few.

The test is exact and needs no large-sample approximation: for each value of the law, a
two-sided exact binomial test of how often it came, at FALSE_ALARM divided by the number of
values (Bonferroni), so a correct program fails it with a chance below FALSE_ALARM whatever
the counts; a value the law rules out fails it at once. Starts a program shows that are
unplayable (drawn again by the harness, and re-rolled by a program that follows the
reference's Decision) are not part of the sample: the law is that of the playable starts.
"""
import functools
import math
from collections import Counter
from dataclasses import dataclass

from harness.loading import functions
from harness.loading import policy as policies
from harness.loading.random_start import Law
from harness.results import LAW_CHECK_NAME

FALSE_ALARM = 1e-6  # the chance that a correct program fails the check
CHECK_NAME = LAW_CHECK_NAME  # the check's result's name; a case file may not take it


@dataclass
class LawVerdict:
    """Whether the random starts seen follow the spec's law, with the counts that say so."""
    passed: bool | None  # None: too few values to judge
    counts: dict[str, int]  # per value of the law, and any value outside it
    expected: dict[str, float]  # per value of the law: the count a correct program has on average
    starts: int
    outside: dict[str, int]
    worst: tuple[str, float] | None  # the value whose count is least likely, and that chance
    reason: str


def reader(rule: Law):
    """A start -> the values it shows: the spec's function, every match of its pattern (each
    group, if it has any), every fact of its kind the state reader reads, or the start itself."""
    if rule.values:
        return functions.load(rule.values)
    if rule.pattern is not None:
        return functools.partial(_matches, policies.pattern(rule.pattern))
    if rule.fact is not None:
        read = functions.load(rule.state_read)
        return lambda start: [value for kind, value in read(start) if kind == rule.fact]
    return lambda start: [start]


def _matches(compiled, start: str) -> list[str]:
    """Every match of an RE2 pattern in a start (linear in it; the start is capped in length)."""
    if not compiled.groups:
        return [match.group(0) for match in compiled.finditer(start)]
    return [value for match in compiled.finditer(start) for value in match.groups() if value is not None]


def counted(rule: Law, starts: list[str]) -> list[str]:
    """The starts that count: each distinct start once if the law says so."""
    return list(dict.fromkeys(starts)) if rule.distinct else list(starts)


def sample(rule: Law, starts: list[str]) -> list[str]:
    """The values the counted starts show."""
    read = reader(rule)
    return [str(value) for start in counted(rule, starts) for value in read(start)]


def check(rule: Law, starts: list[str]) -> "LawVerdict":
    """The law judged on the starts a program drew."""
    return judge(rule, sample(rule, starts), len(counted(rule, starts)))


def _tail(count: int, trials: int, probability: float) -> float:
    """The two-sided exact binomial test of `count` in `trials` at `probability`: the chance,
    under that law, of a count no more likely than this one (a count as likely within a
    relative 1e-7 is included, as the usual exact test does). The chances are summed from their
    logarithms, so no factorial overflows whatever the number of trials."""
    if not 0.0 < probability < 1.0:  # a certain count: only that one has a chance
        return 1.0 if count == (trials if probability >= 1.0 else 0) else 0.0
    log_p, log_q, log_n = math.log(probability), math.log1p(-probability), math.lgamma(trials + 1)

    def log_chance(k: int) -> float:
        return log_n - math.lgamma(k + 1) - math.lgamma(trials - k + 1) + k * log_p + (trials - k) * log_q

    bar = log_chance(count) + math.log1p(1e-7)
    return min(1.0, math.fsum(math.exp(c) for c in map(log_chance, range(trials + 1)) if c <= bar))


def judge(rule: Law, values: list[str], starts: int) -> LawVerdict:
    """The exact test of the values against the law."""
    counts = Counter(values)
    n = len(values)
    expected = {value: n * p for value, p in rule.probabilities.items()}
    shown = {value: counts.get(value, 0) for value in rule.probabilities}
    outside = {value: count for value, count in sorted(counts.items()) if value not in rule.probabilities}
    shown.update(outside)
    if outside:
        listed = ", ".join(f"{value!r} ({count} time{'s' if count > 1 else ''})" for value, count in outside.items())
        return LawVerdict(False, shown, expected, starts, outside, None,
                       f"the starts show values the handout rules out: {listed}")
    if n < rule.least:
        return LawVerdict(None, shown, expected, starts, {}, None,
                       f"too few values to judge the random setup ({n} from {starts} starts; the check needs {rule.least})")
    chances = {value: _tail(shown[value], n, p) for value, p in rule.probabilities.items()}
    value, chance = min(chances.items(), key=lambda pair: pair[1])
    if chance < FALSE_ALARM / len(rule.probabilities):
        reason = (f"the random setup is not drawn as the handout says: {value!r} came {shown[value]} times in {n} "
                  f"values ({expected[value]:.1f} expected); a correct program is this far off with a chance of "
                  f"{chance:.1e}")
        return LawVerdict(False, shown, expected, starts, {}, (value, chance), reason)
    return LawVerdict(True, shown, expected, starts, {}, (value, chance),
                   f"{n} values from {starts} starts drawn as the handout says")


def table(verdict: LawVerdict) -> str:
    """Observed against expected counts, one value a line."""
    lines = ["value  observed  expected"]
    for value, count in verdict.counts.items():
        mean = verdict.expected.get(value)
        lines.append(f"{value:>5}  {count:>8}  {mean:>8.1f}" if mean is not None else f"{value:>5}  {count:>8}  {'never':>8}")
    return "\n".join(lines)


def notes(rule: Law, verdict: LawVerdict) -> list[str]:
    """What the check's result says of itself: the counts against the law, and the least likely one."""
    said = [f"{verdict.reason}; counts of the values the starts show:\n{table(verdict)}"]
    if verdict.worst is not None:
        value, chance = verdict.worst
        said.append(f"the least likely count ({value!r}) has a chance of {chance:.2e} for a correct program; "
                    f"the check fails below {FALSE_ALARM / len(rule.probabilities):.1e} "
                    f"(a false alarm under {FALSE_ALARM:g} in all)")
    return said


def runs_to_add(rule: Law, drawn: list[str]) -> int:
    """How many more runs of the law's case should bring the sample to `least` values: as many
    as the starts that showed values so far promise (starts of other sizes, which show none,
    say nothing about the law's case); a probe of PROBE_RUNS when none showed any."""
    read = reader(rule)
    values = sample(rule, drawn)
    if len(values) >= rule.least:
        return 0
    showing = [start for start in counted(rule, drawn) if read(start)]
    if not showing:
        return PROBE_RUNS
    return max(1, math.ceil((rule.least - len(values)) * len(showing) / len(values)))


# Runs of the law's case that find out how many values its starts show, when no start so far
# showed one (a grading of few cases, or a program that crashes on most runs).
PROBE_RUNS = 10
