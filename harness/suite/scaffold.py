"""`harness new GAME`: a game made from an instructor's solution and handout, ready to grade.

The solution is the reference as it is (a build recipe in the spec, compiled once); the spec
gets a target recipe for the solution's language and a rubric skeleton whose TODO titles and
points the instructor edits; one case is recorded by playing the solution with the given lines,
through the same path as `harness record`; the solution is the correct sample, so `harness
samples GAME` passes at once and goes on saying whether the game still grades its own solution
as the instructor changes the spec and adds cases.

A solution that draws at random (a secret number, a shuffled deck) replays one game only with its
draw fixed: its seed option (`--seed-option`, or an option naming a seed found in its sources)
goes in the spec and the first case is recorded with a seed; a solution that draws at random and
has neither a seed option nor a declared random start (`--random-start`) is refused before
anything is written, since no inputs can finish a game whose secret changes every run.
"""
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from harness import languages
from harness.errors import InputError
from harness.loading import config, paths, policy as policies
from harness.outcome import End
from harness.running import runner

GAME_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_JAVA_MAIN = re.compile(r"\bstatic\s+(?:public\s+)?void\s+main\s*\(")
CASE = "first-game"
FIRST_SEED = 1  # the seed the first case is recorded with, when the solution takes one
# An option naming a seed, written as a string in the solution ("--seed", '-seed', "--random-seed").
_SEED_OPTION = re.compile(r"""["'](-{1,2}[A-Za-z0-9-]*seed[A-Za-z0-9-]*)["']""", re.IGNORECASE)
# What draws at random in the three languages (a name each, as it is said to the instructor).
_DRAWS = re.compile(r"\b(java\.util\.Random|new\s+Random|SecureRandom|Math\.random|ThreadLocalRandom|"
                    r"import\s+random|from\s+random\s+import|random\.\w+\(|secrets\.\w+|"
                    r"std::mt19937|std::random_device|\bs?rand\s*\()")


@dataclass
class Plan:
    """What `harness new` was asked for."""
    game: str
    solution: list[Path]
    handout: Path | None = None
    language: str | None = None
    main: str | None = None
    inputs: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    random_start: str | None = None  # RE2 pattern whose group 1 is the start the program prints
    seed_option: str | None = None  # the solution's option that fixes its random draw (`--seed`)


@dataclass(frozen=True)
class Seeding:
    """How the solution's random draw is fixed for the recorded case: its seed option, and where
    it came from ("given", or the file it was found in); None when it draws nothing at random."""
    option: str | None
    found_in: str = "given"


def _sources(plan: Plan) -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8", errors="replace")) for path in plan.solution]


def draws_at_random(plan: Plan) -> str | None:
    """What in the solution draws at random ("new Random in Guess.java"), else None."""
    for name, text in _sources(plan):
        found = _DRAWS.search(text)
        if found:
            return f"{' '.join(found.group(1).split())} in {name}"
    return None


def seeding(plan: Plan) -> Seeding | None:
    """The seed option: given, else found in the sources (an option naming a seed), else None.
    A solution that draws at random with neither and no random start is an InputError."""
    if plan.seed_option:
        return Seeding(plan.seed_option)
    for name, text in _sources(plan):
        found = _SEED_OPTION.search(text)
        if found:
            return Seeding(found.group(1), name)
    draws = draws_at_random(plan)
    if draws and plan.random_start is None:
        raise InputError(f"your solution draws at random ({draws}) and takes no seed option that could be found, so "
                         "no --inputs can finish a game: its secret changes every run. Give --seed-option OPTION (the "
                         "option that makes it draw the same every time, e.g. --seed; the first case is recorded with "
                         f"OPTION {FIRST_SEED}) or --random-start PATTERN (the start it prints, which the grading reads)")
    return None


def language_of(plan: Plan) -> str:
    if plan.language:
        return plan.language
    found = {language.name for path in plan.solution if (language := languages.by_suffix(path.name, graded_only=True))}
    if len(found) != 1:
        raise InputError(f"cannot tell the solution's language from {', '.join(p.name for p in plan.solution)}; "
                         f"pass --language {', '.join(languages.GRADED_NAMES[:-1])} or {languages.GRADED_NAMES[-1]}")
    return found.pop()


def main_of(plan: Plan, language: str) -> str | None:
    """Java: the class with `static void main`; Python: the first file; C++ needs none."""
    if plan.main:
        return plan.main
    if language == "python":
        return plan.solution[0].name
    if language == "java":
        for path in plan.solution:
            if _JAVA_MAIN.search(path.read_text(encoding="utf-8", errors="replace")):
                return path.stem
        raise InputError("no class of the solution has `static void main`; pass --main CLASS")
    return None


def check(plan: Plan, root: Path) -> None:
    """The plan can be made without touching anything that exists; else an InputError."""
    if not GAME_NAME.fullmatch(plan.game):
        raise InputError(f"{plan.game!r} is not a game id; use lower-case letters, digits and dashes (e.g. nim)")
    for path in plan.solution + ([plan.handout] if plan.handout else []):
        if not path.is_file():
            raise InputError(f"no such file: {path}")
    names = [path.name for path in plan.solution]
    if len(set(names)) != len(names) or "spec.yaml" in names or "README.md" in names:
        raise InputError(f"the solution's files need distinct names other than spec.yaml and README.md: {', '.join(names)}")
    for folder in (root / "specs" / plan.game, paths.cases_dir(root / "specs" / plan.game, plan.game),
                   root / "examples" / plan.game):
        if folder.exists():
            raise InputError(f"{folder} exists: {plan.game} is a game already; choose another name or remove it")
    if plan.random_start is not None:
        try:
            compiled = policies.pattern(plan.random_start)
        except policies.PatternError as problem:
            raise InputError(f"--random-start: {problem}; give an RE2 pattern whose group 1 is the start") from None
        if compiled.groups < 1:
            raise InputError("--random-start needs a group: the part of the line that is the start, e.g. '^Start: (\\S+)'")
    if plan.seed_option is not None and not re.fullmatch(r"-{1,2}[A-Za-z][A-Za-z0-9-]*", plan.seed_option):
        raise InputError(f"--seed-option {plan.seed_option!r} is not an option; give it as the solution reads it, e.g. --seed")


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def spec_text(plan: Plan, language: str, main: str | None, seed_option: str | None = None) -> str:
    files = ", ".join(path.name for path in plan.solution)
    recipe = f"language: {language}, files: [{files}]" + (f", main: {main}" if main else "")
    handout = f"handout: {plan.handout.name}\n" if plan.handout else ""
    lines = [
        f"# {plan.game}: made by `harness new` from the instructor's solution; edit the TODOs, then",
        "# `harness regen` and `harness samples` (docs/adding-a-game.md).",
        f"title: {plan.game.replace('-', ' ').title()}",
        handout.rstrip("\n"),
        "# The solution is the reference: compiled once, cached by content, run like a submission.",
        f"reference: {{{recipe}}}",
    ]
    if seed_option is not None:
        lines += [f"seed_option: {seed_option}   # the solution's option that fixes its random draw"]
    lines += [
        "",
        "targets:",
        "  game:",
        "    title: The game program",
        "    languages:",
        f"      {language}: {{files: [{files}]" + (f", main: {main}" if main else "") + "}",
        "",
    ]
    if plan.random_start is not None:
        lines += [
            "# The program draws its start; the reference is re-run from the start it printed.",
            "random_start:",
            f"  capture: {_quoted(plan.random_start)}",
            "  option: --start-file     # the reference reads a start from this file",
            "  plan_option: --plan      # ... and prints the lines a strategy types from it",
            "  rejected_exit: 3         # a start the rules forbid",
            "  unplayable_exit: 4       # a start within the rules that shows no game",
            "  rubric: setup",
            "  seed: 1                  # the reference's draw for cases without a seed",
            "  # distribution: {uniform: [1, 6], least: 100, case: " + CASE + "}   # TODO: the law of the start's values",
            "",
        ]
    lines += ["rubric:   # TODO: the handout's items, titles and points"]
    if plan.random_start is not None:
        lines += ['  - {id: setup, title: "TODO: drawing the start", points: 10, compare: {preset: lenient, turns: first}}']
    lines += [
        '  - {id: play, title: "TODO: what the recorded case checks", points: 10}',
        '  - {id: style, title: "TODO: style, graded by a person", points: 10, graded: false}',
        "",
        "defaults:",
        "  compare: default",
        "  limits: {turn_seconds: 5, run_seconds: 20, output_bytes: 200000}",
    ]
    return "\n".join(line for line in lines if line is not None) + "\n"


def readme_text(plan: Plan, language: str, main: str | None) -> str:
    files = ", ".join(path.name for path in plan.solution)
    return (f"# {plan.game}\n\nTODO: the interface in words: what the program prints, reads and how it ends.\n\n"
            f"A {language} submission hands in {files}" + (f" (main: {main})" if main else "") + ".\n"
            + (f"\nThe handout: {plan.handout.name}.\n" if plan.handout else ""))


@dataclass
class Made:
    written: list[Path]
    ended: End  # how the recorded game ended (an exit with status 0 when the inputs finished it)
    seeding: Seeding | None = None  # the seed option the case was recorded with
    draws: str | None = None  # what in the solution draws at random, if anything


def create(plan: Plan, root: Path, settings: config.Settings = config.DEFAULTS) -> Made:
    """Write the game; on any failure what was written is removed, so the name stays free.
    `settings`: the command's, under which a compiled reference is built."""
    from harness.building import reference
    from harness.loading import spec as specs
    from harness.suite import recording

    check(plan, root)
    language = language_of(plan)
    main = main_of(plan, language)
    seeded = seeding(plan)
    option = seeded.option if seeded else "--seed" if plan.random_start is not None else None
    spec_folder = root / "specs" / plan.game
    cases = paths.cases_dir(spec_folder, plan.game)
    examples = root / "examples" / plan.game
    try:
        spec_folder.mkdir(parents=True)
        for path in plan.solution:
            shutil.copyfile(path, spec_folder / path.name)
        if plan.handout:
            shutil.copyfile(plan.handout, spec_folder / plan.handout.name)
        (spec_folder / "spec.yaml").write_text(spec_text(plan, language, main, option), encoding="utf-8")
        (spec_folder / "README.md").write_text(readme_text(plan, language, main), encoding="utf-8")
        spec = reference.prepared(specs.load(plan.game, root), settings=settings)
        seed = FIRST_SEED if option is not None and plan.random_start is None else None  # a random start has its own
        case = recording.record(spec, None, next(iter(spec.targets)), "play", plan.args, seed,
                                runner.FixedInputs(plan.inputs), description="TODO: what this game shows",
                                limits=spec.limits)
        recording.write(case, cases / f"{CASE}.yaml")
        (examples / "correct").mkdir(parents=True)
        for path in plan.solution:
            shutil.copyfile(path, examples / "correct" / path.name)
        (examples / "expected.yaml").write_text(
            "# What each sample must score (docs/adding-a-game.md): the solution, 100 %.\n"
            "samples:\n  correct: {}\n", encoding="utf-8")
    except BaseException:
        for folder in (spec_folder, cases, examples):
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return Made([spec_folder / "spec.yaml", spec_folder / "README.md", cases / f"{CASE}.yaml", examples / "correct",
                 examples / "expected.yaml"], case["_ended"], seeded, draws_at_random(plan))
