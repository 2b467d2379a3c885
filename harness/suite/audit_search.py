"""The differential search's runs, inside worker processes: input sequences grown from the cases'
own (coverage-guided, seeded) with the reference run on each under the line tracer, and a mutant
run on those that reach its lines until its output differs, the difference shrunk. How each run
ended is typed here, where it leaves `linetrace.execute` (a `SearchEnd`), and compared as such."""
import random
import re
import resource
import sys
from dataclasses import dataclass, replace

from harness.outcome import End, Kind
from harness.suite import linetrace
from harness.suite.audit_results import SearchEnd


@dataclass
class Probe:
    """An input sequence the search types, grown from a case, and what the reference did on it."""
    case: str  # the case it grew from (its milestone, target, arguments and seed)
    milestone: str | None
    target: str
    argv: tuple[str, ...]  # the reference's arguments (the milestone's, the case's, its seed)
    inputs: tuple[str, ...]
    seed: int | None = None
    output: str = ""
    end: SearchEnd | None = None
    lines: frozenset = frozenset()


def _ended(end: tuple[str, int | str | None]) -> SearchEnd:
    """`linetrace.execute`'s end (`("exit", N)`, `("crash", NAME)`, `("waiting", None)`, …) typed."""
    kind, detail = end
    if kind == "crash":
        return SearchEnd(None, str(detail))
    if kind == "exit":
        return SearchEnd(End.exited(int(detail)))
    return SearchEnd(End(Kind(kind)))


def _execute(source: str, filename: str, argv: list[str], stdin: str,
             trace: bool = False) -> tuple[str, SearchEnd, frozenset]:
    """One run in this process (`linetrace.execute`), its end typed."""
    output, end, lines = linetrace.execute(source, filename, argv, stdin, trace=trace)
    return output, _ended(end), lines


def _variants(token: str) -> list[str]:
    """Near misses of a typed token: its other cases, neighbours of a number or a letter, a part."""
    out = {token.upper(), token.lower(), token.capitalize(), token.swapcase(), token.strip()}
    if len(token) > 1:
        out |= {token[0], token[:-1], token[1:], token + token[-1]}
    if re.fullmatch(r"[+-]?[0-9]+", token.strip()):
        n = int(token)
        out |= {str(n - 1), str(n + 1), str(-n), "0", f"0{n}", f"+{n}"}
    elif len(token) == 1 and token.isalpha():
        out |= {chr(ord(token) - 1), chr(ord(token) + 1)}
    if token:
        out |= {token + "x", " " + token, token + " " + token}
    out.discard(token)
    return sorted(out)


def _grow(rng: random.Random, inputs: list[str], others: list[list[str]], alphabet: list[str]) -> list[str]:
    """One to three edits of a sequence, as a student's session would differ from a case's."""
    seq = list(inputs)
    for _ in range(rng.choice((1, 1, 2, 3))):
        at = rng.randint(0, len(seq))
        kind = rng.random()
        other = rng.choice(others) if others else seq
        if kind < 0.25 and seq:  # a typed token changed: a near miss or another token
            at = min(at, len(seq) - 1)
            seq[at] = rng.choice(_variants(seq[at]) or [seq[at]]) if rng.random() < 0.7 else rng.choice(alphabet)
        elif kind < 0.45:  # a window of another case's moves put in
            if other:
                start = rng.randrange(len(other))
                seq[at:at] = other[start:start + rng.randint(1, 4)]
        elif kind < 0.6 and seq:  # some moves left out
            del seq[min(at, len(seq) - 1):min(at, len(seq) - 1) + rng.randint(1, 3)]
        elif kind < 0.75:  # another case's game from here on
            if other:
                seq = seq[:at] + other[rng.randrange(len(other)):]
        elif kind < 0.85 and seq:  # a move typed again
            at = min(at, len(seq) - 1)
            seq[at:at] = seq[at:at + rng.randint(1, 2)]
        else:  # random tokens put in
            seq[at:at] = [rng.choice(alphabet) for _ in range(rng.randint(1, 3))]
    return seq[:400]


def worker_init(search_path: list[str]) -> None:
    for folder in reversed(search_path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:  # a mutant that allocates without end stops at a MemoryError, not the machine's memory
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (ValueError, OSError):
        pass


def corpus_job(job: tuple) -> list[Probe]:
    """Grow `count` sequences from the cases of one milestone and target, the reference run on
    each (its output, how it ended, the lines it executed); a sequence that reaches lines no
    earlier one did becomes a parent of later ones (coverage-guided)."""
    source, filename, bases, count, seed = job
    rng = random.Random(seed)
    others = [list(b.inputs) for b in bases if b.inputs]
    alphabet = sorted({t for b in bases for t in b.inputs} | {"", "0", "-1", "99", "x", "q", "y", "n"})
    pool = list(bases)
    covered: set[int] = set()
    seen: set[tuple] = {tuple(b.inputs) for b in bases}
    probes = []
    for _ in range(count * 3):
        if len(probes) >= count:
            break
        parent = rng.choice(pool[-40:] if pool[len(bases):] and rng.random() < 0.5 else pool)
        inputs = tuple(_grow(rng, list(parent.inputs), others, alphabet))
        if inputs in seen:
            continue
        seen.add(inputs)
        output, end, lines = _execute(source, filename, list(parent.argv), "".join(i + "\n" for i in inputs),
                                      trace=True)
        probe = replace(parent, inputs=inputs, output=output, end=end, lines=lines)
        probes.append(probe)
        if lines - covered:
            covered |= lines
            pool.append(probe)
    return probes


def _differs(a: tuple[str, SearchEnd], b: tuple[str, SearchEnd]) -> bool:
    return a[0] != b[0] or a[1] != b[1]


def _shrink(run, inputs: list[str], budget: int = 120) -> list[str]:
    """A shorter sequence on which the two programs still differ the same way (text or ending)."""
    def differs(seq):
        nonlocal budget
        budget -= 1
        ref, mut = run(seq)
        return ref[0] != mut[0] if text else _differs(ref, mut)

    ref, mut = run(inputs)
    text = ref[0] != mut[0]
    low, high = 0, len(inputs)  # the shortest prefix that differs
    while low < high and budget > 0:
        middle = (low + high) // 2
        if differs(inputs[:middle]):
            high = middle
        else:
            low = middle + 1
    seq = inputs[:high] if high < len(inputs) and differs(inputs[:high]) else list(inputs)
    for size in (4, 2, 1):
        at = 0
        while at < len(seq) and budget > 0:
            shorter = seq[:at] + seq[at + size:]
            if shorter and differs(shorter):
                seq = shorter
            else:
                at += 1
    return seq


@dataclass(frozen=True)
class Difference:
    """A sequence on which a mutant's output differs from the reference's: the probe with the
    reference's output and end on the shrunk inputs, and the mutant's."""
    probe: Probe
    actual: str
    actual_end: SearchEnd


def differ_job(job: tuple) -> tuple[int, list[Difference]]:
    """Run a mutant on the sequences that reach its lines until three differ from the
    reference: (sequences run, the differences, each shrunk)."""
    source, reference, filename, probes, wanted = job
    found, tried = [], 0

    def run(seq, argv):
        stdin = "".join(i + "\n" for i in seq)
        ref = _execute(reference, filename, list(argv), stdin)
        mut = _execute(source, filename, list(argv), stdin)
        return ref[:2], mut[:2]

    for probe in probes:
        tried += 1
        mut = _execute(source, filename, list(probe.argv), "".join(i + "\n" for i in probe.inputs))
        if not _differs((probe.output, probe.end), mut[:2]):
            continue
        seq = _shrink(lambda s: run(s, probe.argv), list(probe.inputs))
        ref, mut = run(seq, probe.argv)
        found.append(Difference(replace(probe, inputs=tuple(seq), output=ref[0], end=ref[1], lines=frozenset()),
                                mut[0], mut[1]))
        if len(found) >= wanted:
            break
    return tried, found
