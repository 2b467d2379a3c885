"""`harness audit GAME --styles N`: is the grading fair to every style the handout allows?

A styled program is the game's reference run with its output redrawn by the game's styler
(`<reference>_styles.py` beside the reference module or script: which drawing, labels, glyphs,
paraphrases, clears and blank lines the handout leaves free, and never a text it prescribes),
seeded: the same seed is the same program. Each is graded as the audit grades a mutant, as a
ready build whose command runs it (`styling.py`), on every case, with each case's seed; a
correct program in any allowed style must score 100 %, so every one below is a grading fault
to show: its seed, score, the items it lost, the command that grades it again and the report
with its transcripts side by side with the reference's.
"""
import shlex
import tempfile
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from harness.classes import executor
from harness.errors import InputError
from harness.grading import submission as grading
from harness.loading import config, paths
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.reporting import files as report_files
from harness.results import FAILED, HARNESS_ERROR, UNGRADABLE, CaseResult, SubmissionResult
from harness.suite.audit_reference import Reference, ready_build, resolve, seeded

STYLER_SUFFIX = "_styles.py"


@dataclass(frozen=True)
class StyledResult:
    """One styled program's grading: full marks, or what it lost."""
    seed: int
    earned: float
    possible: float
    lost: tuple[str, ...]  # graded items below full marks
    failed: tuple[str, ...]  # "case: reason" of every case that did not pass
    style: tuple[str, ...]  # the style's choices, as its styler says them
    play: str  # a shell command that runs the styled program in a terminal (the reference's arguments after it)
    reports: tuple[Path, ...] = ()  # its report folders (written only below 100 %)

    @property
    def percent(self) -> float:
        return 100.0 * self.earned / self.possible if self.possible else 100.0

    @property
    def full(self) -> bool:
        """100 %, and no case that cost anything (a harness error publishes no total)."""
        return self.earned >= self.possible and not self.failed


@dataclass
class StylesReport:
    game: str
    title: str
    first_seed: int
    results: list[StyledResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def full(self) -> int:
        return sum(1 for r in self.results if r.full)

    @property
    def passed(self) -> bool:
        return self.full == len(self.results)


def styler_file(spec: Spec, reference: Reference | None = None) -> Path:
    """The game's styler: `<module>_styles.py` beside the Python file the reference command runs."""
    if spec.built_reference:
        raise InputError("--styles restyles a Python reference run in-process; this game's reference is a "
                         "build recipe", spec.folder / "spec.yaml")
    reference = reference or resolve(spec)
    found = reference.path.with_name(reference.path.stem + STYLER_SUFFIX)
    if not found.is_file():
        raise InputError(f"--styles needs the game's styler {found.name} beside {reference.name} (a module with "
                         "styler(rng): how this game's drawing and free texts may be redrawn; see docs/audit.md)",
                         found)
    return found


def command(spec: Spec, milestone: str | None, target: str, styler: Path, seed: int) -> list[str]:
    """The styled program's command: the reference command run inside `harness.suite.styling`."""
    words = spec.reference_command(milestone, target, [])
    flags = []
    for word in words[1:]:
        if not word.startswith("-") or word == "-m":
            break
        flags.append(word)  # the interpreter's own flags (-S) are the styled program's too
    return ["env", f"PYTHONPATH={paths.install_root()}", "PYTHONDONTWRITEBYTECODE=1", words[0], *flags,
            "-m", "harness.suite.styling", "--styler", str(styler), "--seed", str(seed),
            "--turn-seconds", f"{spec.limits.turn_seconds:g}", "--", *words]


def _groups(cases: list[Case]) -> dict[str | None, list[Case]]:
    groups: dict[str | None, list[Case]] = {}
    for case in cases:
        groups.setdefault(case.milestone, []).append(case)
    return groups


def _costs(case: CaseResult) -> bool:
    """The case costs the program something: it failed, the harness failed on it, or it could not be
    graded and was charged to an item (a seeded run's check of the start's law cannot be judged and
    is charged to nothing: it costs nothing, as for the audit's mutants)."""
    return case.status in (FAILED, HARNESS_ERROR) or case.status == UNGRADABLE and case.charged_to is not None


def _lost(result: SubmissionResult) -> list[str]:
    return [i.id for i in result.items if i.graded and i.counted and i.earned < i.weight]


def describe(styler: Path, seed: int, turn_seconds: float) -> tuple[str, ...]:
    """What the seed's style does (the styler's words, then the timing's)."""
    import random
    from harness.suite import styling
    made = styling.load_styler(styler).styler(random.Random(seed))
    return tuple(made.describe()) + tuple(styling.timing(seed, turn_seconds).describe())


def grade_one(grader: grading.Grader, spec: Spec, cases: list[Case], styler: Path, seed: int,
              scratch: Path, reports: Path | None) -> StyledResult:
    """Grade the seed's styled program on every case; below 100 %, its reports go to `reports/seed-N`."""
    folder = scratch / f"seed-{seed}"
    folder.mkdir()
    earned = possible = 0.0
    lost, failed, graded = [], [], []
    for milestone, group in _groups(cases).items():
        builds = {c.target: ready_build(c.target, folder, command(spec, milestone, c.target, styler, seed))
                  for c in group}
        result = grader.grade(spec, milestone, group, folder, builds, name=f"styled-{seed}")
        graded.append((milestone, result))
        earned, possible = earned + result.earned, possible + result.possible
        lost += [i for i in _lost(result) if i not in lost]
        failed += [f"{c.name}: {c.reason or c.status}" for c in result.cases if _costs(c)]
    target = next(iter(spec.targets))
    play = shlex.join(command(spec, None, target, styler, seed))
    written = []
    if reports is not None and (earned < possible or failed):
        for milestone, result in graded:
            where = reports / f"seed-{seed}" / (milestone or "")
            report_files.write(result, where)
            written.append(where)
    return StyledResult(seed, earned, possible, tuple(lost), tuple(failed),
                        describe(styler, seed, spec.limits.turn_seconds), play, tuple(written))


def grade(spec: Spec, cases: list[Case], count: int, first_seed: int = 0, jobs: int | None = None,
          settings: config.Settings = config.DEFAULTS, reports: Path | None = None,
          progress=None) -> StylesReport:
    """Grade `count` styled programs (seeds first_seed, first_seed + 1, ...) in one pool of case
    workers, as the audit grades its mutants."""
    styler = styler_file(spec)
    started = time.monotonic()
    spec, cases = seeded(spec, cases)
    report = StylesReport(spec.game, spec.title, first_seed)
    local = executor.Local(jobs, threads=2 * grading.workers(jobs, settings), settings=settings)
    futures: list[Future] = []
    with tempfile.TemporaryDirectory(prefix=paths.temporary("styles")) as scratch:
        try:
            futures = [local.builders.submit(grade_one, local.grader, spec, cases, styler, seed, Path(scratch), reports)
                       for seed in range(first_seed, first_seed + count)]
            for future in futures:
                report.results.append(future.result())
                if progress:
                    progress.advance()
        except KeyboardInterrupt:
            local.interrupt(futures)
            raise
        finally:
            local.close()
    report.seconds = round(time.monotonic() - started, 1)
    return report


def text(report: StylesReport, game_argument: str) -> str:
    """The terminal summary: K of N at 100 %, then each styled program below it, grouped by the
    items it lost, with what reproduces it."""
    lines = [f"Styles of {report.title} ({report.game}): seeds {report.first_seed}-"
             f"{report.first_seed + len(report.results) - 1}, {report.seconds:.0f} s",
             f"styles: {report.full} of {len(report.results)} at 100 %"]
    below = [r for r in report.results if not r.full]
    groups: dict[tuple[str, ...], list[StyledResult]] = {}
    for result in below:
        groups.setdefault(result.lost, []).append(result)
    for lost, results in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines += ["", f"lost {', '.join(lost) or 'nothing counted, but cases failed'}: "
                      f"{len(results)} style(s), seeds {', '.join(str(r.seed) for r in results)}"]
        for result in results:
            lines.append(f"- seed {result.seed}: {result.percent:.1f} %; style: {'; '.join(result.style)}")
            lines += [f"    failed {entry}" for entry in result.failed[:6]]
            if len(result.failed) > 6:
                lines.append(f"    ... and {len(result.failed) - 6} more case(s)")
            lines.append(f"    again: harness audit {game_argument} --styles 1 --seed {result.seed}")
            lines += [f"    transcripts: {where / 'report.html'}" for where in result.reports]
            lines.append(f"    play it: {result.play}")
    return "\n".join(lines) + "\n"
