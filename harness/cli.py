"""The `harness` command line: every command's parser (`harness --help` lists them all) and what each does.

Exit codes: 0 all passed / done, 1 some case failed, 2 usage or input error.
"""
import argparse
import dataclasses
import math
import os
import sys
from collections import Counter
from pathlib import Path

from harness import arguments, languages
from harness.loading import config
from harness.building import build as builder
from harness.building import reference
from harness.loading import cases as caseload
from harness.grading import submission as grading
from harness.classes import progress
from harness.outcome import End
from harness.running import launcher, sandbox
from harness.loading import spec as specs
from harness.running.environment import reference_env
from harness.errors import InputError
from harness.running.inputs import TerminalInputs
from harness.reporting import selfcheck, terminal
from harness.results import Visibility
from harness import safe_text

def _parser(epilog: str | None = None) -> argparse.ArgumentParser:
    """The command line; `epilog` lists the games (default: those of the checkout)."""
    epilog = arguments.epilog() if epilog is None else epilog
    parser = arguments.Parser(prog="harness", epilog=epilog, formatter_class=arguments.Help)
    parser.add_argument("--version", action=_Version, help="show the harness's version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="play the reference game in this terminal", epilog=epilog)
    p.add_argument("game")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the game's own arguments, and --seed N / --start STATE")

    p = sub.add_parser("record", help="play the reference; the session becomes a case", epilog=epilog)
    p.add_argument("game")
    p.add_argument("-o", "--output", required=True, type=arguments.case_file,
                   help="the case file to write (cases/GAME/NAME.yaml)")
    p.add_argument("--force", action="store_true", help="overwrite the case file if it exists")
    p.add_argument("--rubric", help="rubric item the case scores (default: the milestone's first graded item)")
    p.add_argument("--description", default="Recorded session")
    p.add_argument("--points", type=arguments.points, default=1)
    p.add_argument("--seed", type=arguments.seed)
    p.add_argument("--target", help="target to record for (default: the first)")
    p.add_argument("args", nargs="*", help="the game's own command-line arguments")

    p = sub.add_parser("new", help="make a game from your solution (the reference) and handout",
                       epilog="GAME is the new game's id, any name no game of the project has yet.")
    p.add_argument("game", help="the new game's id (lower-case letters, digits, dashes)")
    p.add_argument("--solution", nargs="+", required=True, type=arguments.path, metavar="FILE",
                   help="your solution's source files (Java, C++ or Python): the reference and the correct sample")
    p.add_argument("--handout", type=arguments.path, metavar="FILE", help="the handout, copied beside the spec")
    p.add_argument("--language", choices=languages.GRADED_NAMES, help="default: from the files' extensions")
    p.add_argument("--main", help="the main class (Java) or file (Python); default: found in the files")
    p.add_argument("--inputs", nargs="*", default=[], metavar="LINE",
                   help="the lines typed to your solution for the first recorded case")
    p.add_argument("--args", dest="program_args", nargs="*", default=[], metavar="ARG",
                   help="the program's arguments for that case")
    p.add_argument("--random-start", metavar="PATTERN",
                   help="the program draws its start: an RE2 pattern whose group 1 is the start it prints "
                        "(e.g. '^Start: (.+)'); the spec gets a random_start block and a setup item")
    p.add_argument("--seed-option", metavar="OPTION",
                   help="the option that makes your solution draw the same every time (e.g. --seed): the first case "
                        "is recorded with it; default: an option naming a seed found in the solution's sources")

    p = sub.add_parser("run", help="run cases against a program and show the results", epilog=epilog)
    p.add_argument("game")
    p.add_argument("program", type=arguments.existing_path, help="a submission folder or source file, or an executable to run as is")
    p.add_argument("-k", dest="select", help="only cases whose name contains this text")
    p.add_argument("-v", "--verbose", action="store_true", help="show the first divergent turn of each failure")
    _budget_option(p)

    p = sub.add_parser("grade", help="build, run every case, score and write reports", epilog=epilog)
    p.add_argument("game")
    p.add_argument("submissions", nargs="+", type=arguments.path, metavar="SUBMISSION_OR_CLASS",
                   help="submission folders, archives or source files, or a class folder holding them "
                        "(an LMS export's files are grouped by student)")
    p.add_argument("-o", "--output", type=arguments.report_folder, default="reports", help="report folder (default: reports/)")
    p.add_argument("-k", dest="select", help="only cases whose name contains this text")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("-v", "--verbose", action="store_true", help="the full summary of every submission, not one line each")
    shown.add_argument("-q", "--quiet", action="store_true", help="only the final summary")
    p.add_argument("--color", "--colour", dest="color", choices=progress.COLOURS, default="auto",
                   help="colour the output: auto (a terminal without NO_COLOR), always or never")
    p.add_argument("--force", action="store_true",
                   help="grade every submission again, even those unchanged since the last run")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="grade on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:8786); "
                        "default: this machine")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run submissions without bubblewrap (only for programs you trust)")
    _budget_option(p)
    alike = p.add_argument_group("similarity", "pairs of submissions whose code is alike (the similarity extra); "
                                 "see docs/similarity.md")
    alike.add_argument("--similarity", action="store_true",
                       help="compare every pair of submissions: similarity.html, linked from the class page")
    alike.add_argument("--similarity-threshold", type=arguments.percent, metavar="PERCENT",
                       help="list a pair when at least PERCENT of either one's code is found in the other "
                            "(default: 50; implies --similarity)")
    late = p.add_argument_group("late work", "the deadline and penalty (over the spec's late:); see docs/late-work.md")
    late.add_argument("--deadline", type=arguments.deadline, metavar="TIME",
                      help="ISO 8601 with its time zone, e.g. 2026-03-02T23:59:00-05:00")
    late.add_argument("--late-penalty", type=arguments.percent, metavar="PERCENT",
                      help="percent of the earned score off per day or part of a day late")
    late.add_argument("--late-cap", type=arguments.percent, metavar="PERCENT", help="the most percent off in all")
    late.add_argument("--grace", type=arguments.minutes, metavar="MINUTES", help="minutes late that count as on time")
    late.add_argument("--times", type=arguments.path, metavar="FILE",
                      help="CSV student,submitted: each submission's time (ISO 8601 with its time zone)")
    late.add_argument("--extensions", type=arguments.path, metavar="FILE",
                      help="CSV student,deadline or student,days: a student's own deadline or days added")
    late.add_argument("--no-late", action="store_true",
                      help="grade without a late policy (the one kept with the reports is otherwise applied again)")

    p = sub.add_parser("check", help="a student's self-check on the public cases", epilog=epilog)
    p.add_argument("game")
    p.add_argument("submission", type=arguments.existing_path)
    p.add_argument("-o", "--output", type=arguments.report_folder,
                   help="where the HTML report goes, outside the submission (default: your cache, "
                        "~/.cache/game-harness/check/)")
    _budget_option(p)
    p.add_argument("--server", metavar="URL", help="check on the class's self-check service (`harness serve`) instead")
    p.add_argument("--token", help="your token for --server")
    p.add_argument("--counterexample", action="store_true",
                   help="also search for a game of your own where your program and the handout part ways, shrunk "
                        "to its shortest (needs the reference: the course's project folder)")
    p.add_argument("--replay", metavar="GAME_JSON",
                   help="play one game --counterexample printed to your program and judge it, instead of the cases")

    p = sub.add_parser("serve", help="a self-check service for a class, hidden cases kept",
                       epilog=epilog)
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--roster", type=arguments.path, help="CSV with the columns student,token")
    p.add_argument("--make-tokens", type=arguments.path, metavar="NAMES",
                   help="print a roster (CSV) with a fresh token for each name of NAMES (one a line), and stop")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--data", type=arguments.path, default=Path("serve-data"),
                   help="where uploads, results and the queue are kept (default: ./serve-data)")
    p.add_argument("--instructor-token", help="the token that opens /instructor (at least 16 characters)")
    p.add_argument("--rate", type=int, default=20, help="self-checks a student may ask for per hour (default: 20)")
    p.add_argument("--counterexamples", type=int, default=0, metavar="N",
                   help="search each upload for a game of the student's own where it and the handout part ways, "
                        "at most N searches per student per game a day (default: 0, none)")
    p.add_argument("--counterexample-turns", type=int, default=60, metavar="T",
                   help="with --counterexamples: at most T of the handout's turns shown per student per game a day "
                        "(default: 60)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="grade the uploads on the Dask cluster whose scheduler is at ADDRESS, as `grade --cluster` does")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run submissions without bubblewrap (only for programs you trust)")

    p = sub.add_parser("gradescope", help="grade a Gradescope autograder's submission into results.json",
                       epilog=epilog)
    p.add_argument("game")
    p.add_argument("--autograder-root", type=arguments.path, default=Path("/autograder"),
                   help="the autograder folder (default: /autograder); submission/ and results/ are in it")
    p.add_argument("--submission", type=arguments.path, help="the submission folder (default: ROOT/submission)")
    p.add_argument("--results", type=arguments.path, help="the results.json to write (default: ROOT/results/results.json)")
    p.add_argument("--hidden", choices=["after_published", "after_due_date", "hidden"], default="after_published",
                   help="Gradescope visibility of the hidden cases (default: after_published); their score counts either way")
    p.add_argument("-k", dest="select", help="only cases whose name contains this text")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run the submission without bubblewrap (the container is then the only sandbox)")

    p = sub.add_parser("prairielearn", help="grade a PrairieLearn external grading job into results.json",
                       epilog=epilog)
    p.add_argument("game", help="a game id, or GAME:MILESTONE")
    p.add_argument("--grade-root", type=arguments.path, default=Path("/grade"),
                   help="the job's folder (default: /grade); data/, student/ and results/ are in it")
    p.add_argument("--student", type=arguments.path, help="the student's files (default: ROOT/student)")
    p.add_argument("--results", type=arguments.path, help="the results.json to write (default: ROOT/results/results.json)")
    p.add_argument("-k", dest="select", help="only cases whose name contains this text")
    _budget_option(p)
    p.add_argument("--no-sandbox", action="store_true",
                   help="run the submission without bubblewrap (the container is then the only sandbox)")

    p = sub.add_parser("classroom", help="grade the checked-out repository for GitHub Classroom's autograding reporter",
                       epilog=epilog)
    p.add_argument("game", help="a game id, or GAME:MILESTONE")
    p.add_argument("--submission", type=arguments.path,
                   help="the student's files (default: $GITHUB_WORKSPACE, else the current folder)")
    p.add_argument("--points", type=_points, metavar="POINTS",
                   help="the assignment's points in Classroom; the score is scaled to them (default: the rubric's)")
    p.add_argument("--output", type=arguments.path,
                   help="the file result=... is appended to (default: $GITHUB_OUTPUT; printed when unset)")
    p.add_argument("-k", dest="select", help="only cases whose name contains this text")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run the submission without bubblewrap (the runner's machine is then the only sandbox)")

    p = sub.add_parser("audit", help="grade mutants of the reference: which cases kill which",
                       epilog=epilog)
    p.add_argument("game", help="GAME (every milestone) or GAME:MILESTONE")
    p.add_argument("-o", "--output", type=arguments.report_folder, help="report folder (default: reports/audit-GAME/)")
    p.add_argument("--sample", type=_audit_count, help="audit N mutants, drawn in turn for each graded item")
    p.add_argument("--seed", type=arguments.seed, default=0,
                   help="draw another sample; with --styles, the first style (default: 0)")
    p.add_argument("-k", dest="select", help="only cases whose name contains this text")
    p.add_argument("--jobs", type=_audit_count, help="parallel case workers (default: HARNESS_JOBS, else cores + 1)")
    p.add_argument("--mutant", dest="only", action="append", default=[], metavar="ID",
                   help="audit only this mutant (repeatable), e.g. a survivor after a case was added")
    p.add_argument("--every-case", action="store_true",
                   help="run every case that reaches a mutant (all its killers), not one killer per item")
    p.add_argument("--search", type=_audit_search, default=None, metavar="N",
                   help="input sequences grown from the cases to explain the survivors (default: 300; 0: no search)")
    p.add_argument("--suggest", nargs="?", const=True, default=None, metavar="DIR", type=arguments.path,
                   help="write each exposing input as a case file to review (default: cases/GAME/), "
                        "then `harness regen` fills it")
    p.add_argument("-q", "--quiet", action="store_true", help="no line per mutant")
    p.add_argument("--styles", type=_audit_count, metavar="N",
                   help="instead of mutants, grade N styled programs (the reference redrawn in styles the handout "
                        "allows, seeds --seed, --seed + 1, ...): each must score 100 %%")

    p = sub.add_parser("samples", help="grade a game's samples: does each get what expected.yaml says?",
                       epilog=epilog)
    p.add_argument("games", nargs="+", metavar="GAME", help="games whose examples/GAME/expected.yaml to check")
    p.add_argument("--sample", dest="only", action="append", default=[], metavar="NAME",
                   help="check only this sample (repeatable)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run the samples without bubblewrap (they are the project's own programs)")
    _budget_option(p)

    p = sub.add_parser("regen", help="rewrite expected transcripts from the reference", epilog=epilog)
    p.add_argument("targets", nargs="*", help="games and/or case files (default: every game)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if any case is stale (for CI)")

    p = sub.add_parser("accept", help="accept the students' version of a line as also correct", epilog=epilog)
    p.add_argument("game")
    p.add_argument("case", help="the case's name (its file name without .yaml)")
    p.add_argument("--also", required=True, help="the students' line, exactly as they print it")
    p.add_argument("--line", help="the reference's line it stands for (left out: --also is accepted as an extra line)")
    p.add_argument("--turn", type=arguments.turn, help="only in this turn (0: before anything is typed; default: any turn)")
    p.add_argument("--why", default="", help="why it is accepted, for whoever reviews the case")
    p.add_argument("-o", "--output", type=arguments.path, default=Path("reports"),
                   help="the class's report folder, to say whose lines it turns to passing (default: reports)")

    p = sub.add_parser("publish", help="release to students the reports a regrade holds back (their student files)",
                       epilog=epilog)
    p.add_argument("-o", "--output", type=arguments.path, default=Path("reports"),
                   help="the class's report folder (default: reports)")

    p = sub.add_parser("restore", help="put back the grades a regrade replaced (the newest entry of REPORTS/history/)",
                       epilog=epilog)
    p.add_argument("-o", "--output", type=arguments.path, default=Path("reports"),
                   help="the class's report folder (default: reports)")
    parser.description = f"The `harness` command: {', '.join(sub.choices)}."  # every command, as registered
    return parser


def _version() -> str:
    """The installed package's version (pyproject.toml), as pip and bug reports name it."""
    from importlib import metadata  # asked only for --version: its import is a tenth of a one-case run
    try:
        return metadata.version("game-harness")
    except metadata.PackageNotFoundError:
        return "(not installed: run `pip install -e .` in the project)"


class _Version(argparse.Action):
    """--version, which looks the version up only when it is asked for."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {_version()}")
        parser.exit()


def _budget(text: str) -> float:
    """--budget SECONDS: above 0 and at most the spec setting's cap."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= specs.MAX_SUBMISSION_SECONDS):
        raise argparse.ArgumentTypeError(f"{text!r} is not a time budget; give seconds above 0 and at most "
                                         f"{specs.MAX_SUBMISSION_SECONDS:g}")
    return value


def _points(text: str) -> float:
    """--points POINTS: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points; give a number above 0, such as 100")
    return value


def _budget_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--budget", type=_budget, metavar="SECONDS",
                   help="the wall time all the runs of one submission may take together (its draws, repeats and "
                        "extra runs; not the time it waits for a worker); what is left then fails, not run "
                        "(default: the cases' turns at their limit plus the spec's limits.submission_seconds, else 600)")


def _budgeted(spec, args):
    """The spec with the submission time budget given on the command line, if one was."""
    return dataclasses.replace(spec, submission_seconds=args.budget, budget_given=True) if args.budget else spec


def _game(name: str, settings: config.Settings):
    """`GAME` or `GAME:MILESTONE` -> (spec, milestone), the spec's reference built if it is a recipe:
    every command that runs the reference loads its spec here, so the reference is built once.
    The spec is looked for in the settings' root (HARNESS_ROOT)."""
    spec, milestone = specs.parse_game(name, settings.root)
    return reference.prepared(spec, settings=settings), milestone


def _spec(game: str, settings: config.Settings):
    """A game's spec (no milestone), prepared as `_game` prepares it."""
    return reference.prepared(specs.load(game, settings.root), settings=settings)


def _record_args(parser, args, extra: list[str]) -> list[str]:
    """`record GAME -o F 4 Alice Bob`: the program's arguments may follow the options (argparse
    takes positionals in one run, so they come back unrecognized), also after `--`, where they
    may start with a dash. Any other unrecognized word is a misuse."""
    if args.command != "record":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    words = list(args.args)
    for index, word in enumerate(extra):
        if word == "--":
            return words + extra[index + 1:]
        if word.startswith("-") and word != "-":
            parser.error(f"unrecognized arguments: {word} (put the program's own options after --)")
        words.append(word)
    return words


def main(argv=None) -> int:
    """The command line, as one command: its HARNESS_* settings read once, here, and passed to the
    command (and by it to everything it calls)."""
    try:
        settings, unusable = config.load(), None
    except InputError as problem:  # said once the command line is read, so --help still works
        settings, unusable = None, problem
    try:
        parser = _parser(arguments.epilog(settings.root if settings else None, unusable))
        args, extra = parser.parse_known_args(argv)
        if extra:
            args.args = _record_args(parser, args, extra)
    except SystemExit as done:  # --help, or a misuse already said on one line
        return done.code if isinstance(done.code, int) else 2
    try:
        if unusable is not None:  # a bad HARNESS_* setting stops everything before it starts
            raise unusable
        return COMMANDS[args.command](args, settings)
    except InputError as problem:
        print(f"harness: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nharness: interrupted", file=sys.stderr)
        return 130


# --- commands --------------------------------------------------------------------

def cmd_play(args, settings: config.Settings) -> int:
    spec, milestone = _game(args.game, settings)
    command = spec.reference_command(milestone, next(iter(spec.targets)), [a for a in args.args if a != "--"])
    env = dict(os.environ, PYTHONPATH=reference_env(os.getcwd())["PYTHONPATH"])
    from harness.running import play  # pexpect's interact(): this terminal's keys to the game's pty
    return play.play(command, env)


def cmd_record(args, settings: config.Settings) -> int:
    spec, milestone = _game(args.game, settings)
    target = args.target or next(iter(spec.targets))
    if target not in spec.targets:
        raise InputError(f"--target {target!r} is not in the spec; use one of: {', '.join(spec.targets)}")
    items = [i for i in spec.items(milestone) if i.graded]
    rubric = args.rubric or items[0].id
    if rubric not in {i.id for i in items}:
        raise InputError(f"--rubric {rubric!r} is not a graded item of {args.game}; use one of: {', '.join(i.id for i in items)}")
    if args.output.exists() and not args.force:
        raise InputError(f"{args.output} exists; pass --force to overwrite it, or give another name")
    if args.seed is not None and not spec.seed_option:
        raise InputError(f"--seed: {args.game} has no seed_option in its spec, so its reference takes no seed")
    from harness.suite import recording
    print(f"Recording {spec.title}: play; end the game or press Ctrl-D to stop.", file=sys.stderr)
    case = recording.record(spec, milestone, target, rubric, list(args.args), args.seed, TerminalInputs(),
                            description=args.description, points=args.points, echo=recording.echo_terminal)
    recording.write(case, args.output, args.force)
    print(f"\nwrote {args.output} ({len(case['inputs'])} inputs, ended: {case['_ended'].label()})", file=sys.stderr)
    return 0


def _load_cases(spec, milestone, select=None, public_only=False):
    found = caseload.load_all(spec, milestone, select, public_only)
    if not found:
        raise InputError(f"no cases for {spec.game}{':' + milestone if milestone else ''}"
                         f"{' matching ' + repr(select) if select else ''} in cases/{spec.game}/")
    caseload.require_expectations(found)
    _check_reference(spec, found)
    return found


def _check_reference(spec, found) -> None:
    """The reference takes back a start it drew (else exit 2: the instructor's error, no student's)."""
    if spec.random_start is None:
        return
    from harness.grading import preflight
    preflight.reference_takes_its_own_starts(spec, found, grading.state_reader(spec).read if spec.state else None)


def _grade_one(spec, milestone, found, submission: Path, settings: config.Settings, builds=None):
    if not submission.exists():
        raise InputError(f"no such file or folder: {submission}")
    return grading.grade(spec, milestone, found, submission, builds, settings)


def cmd_new(args, settings: config.Settings) -> int:
    from harness.loading import paths
    from harness.suite import scaffold
    plan = scaffold.Plan(args.game, list(args.solution), args.handout, args.language, args.main, list(args.inputs),
                         list(args.program_args), args.random_start, args.seed_option)
    made = scaffold.create(plan, paths.project_root(settings.root), settings)
    for path in made.written:
        print(f"wrote {path}")
    if made.seeding is not None and made.seeding.found_in != "given":
        print(f"seed option: {made.seeding.option} (found in {made.seeding.found_in}; --seed-option chooses another)")
    drawn = (f" (the game your solution draws with {made.seeding.option} {scaffold.FIRST_SEED})"
             if made.seeding is not None and args.random_start is None else "")
    print(f"the recorded case ({made.written[2].name}) ended: {made.ended.label()}"
          + ("" if made.ended == End.exited(0) else f"; give --inputs that finish a game{drawn}, or record one with "
             f"`harness record {args.game} -o cases/{args.game}/NAME.yaml`"))
    print(f"next: edit the TODOs in {made.written[0]}, add cases (`harness record {args.game} -o ...`), then "
          f"`harness samples {args.game}` (docs/adding-a-game.md)")
    return 0


def cmd_grade(args, settings: config.Settings) -> int:
    from harness.classes import batch, late_policy, lateness  # the class machinery loads only where it is used
    spec, milestone = _game(args.game, settings)
    spec = _budgeted(spec, args)
    batch.require_some(args.submissions)
    asked = any(value is not None for value in (args.deadline, args.late_penalty, args.late_cap, args.grace,
                                                 args.times, args.extensions))
    late = None if args.no_late else lateness.settings(spec.late_rule(milestone), args.deadline, args.late_penalty,
                                                       args.late_cap, args.grace, args.times, args.extensions)
    choice = late_policy.chosen(late, asked, args.output, args.no_late)  # the policy kept with the reports
    late = choice.settings
    found = _load_cases(spec, milestone, args.select)
    detail = progress.QUIET if args.quiet else progress.VERBOSE if args.verbose else progress.NORMAL
    similar = _similarity(args)
    if choice.said:
        print(choice.said)
    try:
        if not args.cluster:
            sandbox.require(args.no_sandbox, settings.sandbox)
            return batch.grade_class(spec, milestone, found, args.submissions,
                                     batch.Options(args.output, detail, args.color, args.force, late=late,
                                                   similarity=similar, settings=settings))
        from harness.classes import cluster  # each worker checks its own sandbox: a submission's verdict says when it has none
        pool = cluster.connect(args.cluster, args.no_sandbox or settings.sandbox == "off", settings)
        try:
            return batch.grade_class(spec, milestone, found, args.submissions,
                                     batch.Options(args.output, detail, args.color, args.force, pool, late, similar,
                                                   settings))
        finally:
            pool.close()
    finally:
        late_policy.keep(late, args.output, args.no_late)


def _similarity(args) -> float | None:
    """The threshold of `--similarity` (docs/similarity.md), or None when pairs are not compared."""
    from harness.classes import similarity
    if args.similarity_threshold is not None:
        return args.similarity_threshold
    return similarity.DEFAULT_THRESHOLD if args.similarity else None


def cmd_check(args, settings: config.Settings) -> int:
    if args.server or args.token:
        if not (args.server and args.token):
            raise InputError("--server and --token go together: the service's URL and your token")
        if args.counterexample or args.replay is not None:
            raise InputError("--counterexample and --replay need the reference, which the service keeps: run them "
                             "in the course's project folder, without --server")
        from harness.serve import client
        folder = selfcheck.report_folder(args.output, args.submission, args.game.split(":")[0])
        return client.check(args.game, args.submission, args.server, args.token, folder.parent)
    if not specs.games(settings.root):  # a lean install: the checks are the service's, or the course's specs
        raise InputError(f"harness check {args.game} runs the course's checks, and this install has none: give "
                         "--server URL --token TOKEN (the self-check service's address and your token, from your "
                         "instructor), or point HARNESS_ROOT at the course's project folder (its specs/ and cases/)")
    spec, milestone = _game(args.game, settings)
    spec = _budgeted(spec, args)
    if args.replay is not None:
        return _replay(spec, milestone, args, settings)
    folder = selfcheck.report_folder(args.output, args.submission, spec.game)
    found = _load_cases(spec, milestone, public_only=True)
    hidden = sum(case.visibility == Visibility.HIDDEN for case in caseload.load_all(spec, milestone))
    result = _grade_one(spec, milestone, found, args.submission, settings)
    if not sandbox.available(settings.sandbox) and any(not case.unbuilt for case in result.cases):  # only when a program ran
        print("note: bubblewrap is not installed, so your program ran without the sandbox", file=sys.stderr)
    terminal.render(result, colour=progress.style(progress.NORMAL, "auto").colour, public=True)  # NO_COLOR respected
    terminal.explain_failures(result)
    for line in selfcheck.notes(hidden):
        print(f"  {line}")
    from harness.reporting import files
    try:
        paths = files.write(result, folder, notes=selfcheck.notes(hidden))
    except OSError as problem:
        raise InputError(f"cannot write the report in {folder} ({problem.strerror or problem}); "
                         "choose another folder with -o") from None
    if args.counterexample:
        _own_game(spec, milestone, args, result, paths["html"], selfcheck.notes(hidden), settings)
    print(f"  full report: {paths['html']}")
    return 0 if result.all_passed else 1


def _own_game(spec, milestone, args, result, page: Path, notes: list[str], settings: config.Settings) -> None:
    """`check --counterexample`: the search, its game printed and put in the report's failing case."""
    from harness.counterexample import make, show
    from harness.reporting import html
    if any(case.unbuilt for case in result.cases):
        print("  no game of your own is searched: your program does not build (see above)")
        return
    failing = tuple(case.name for case in result.cases if not case.passed)
    print("  searching for a game of your own where your program and the handout part ways ...", flush=True)
    found = make.counterexample(spec, caseload.load_all(spec, milestone), args.submission, str(args.submission),
                                failing, settings)
    if found is None:
        print("  no game of your own found where your program and the handout part ways (the search is bounded: "
              "this is not a proof that there is none)")
        return
    for line in show.lines(found):
        print(f"  {line}")
    from harness.reporting import student
    page.write_text(safe_text.writable(html.render(result, notes, student_copy=student.STUDENT_COPY,
                                                   own_game=found.to_dict())), encoding="utf-8")


def _replay(spec, milestone, args, settings: config.Settings) -> int:
    """`check --replay`: one game played to the program and judged; 1 when it still differs."""
    from harness.counterexample import make, replay, show
    context, lines = replay.decode(args.replay, spec, milestone)
    if not args.submission.exists():
        raise InputError(f"no such file or folder: {args.submission}")
    judged = make.replayed(spec, args.submission, context, lines, settings)
    if judged is None:
        print("your program does not build: run harness check without --replay to see why")
        return 1
    if not judged.differs:
        print(f"your program and the handout agree on this game ({len(lines)} typed line{'s' if len(lines) != 1 else ''})")
        return 0
    print(f"your program and the handout still part ways, at turn {judged.turn}:")
    for line in show.side_by_side(judged.expected, judged.actual):
        print(f"  {line}")
    return 1


def cmd_serve(args, settings: config.Settings) -> int:
    from harness.serve import tokens
    if args.make_tokens:
        print(tokens.make(args.make_tokens), end="")
        return 0
    if not args.games or not args.roster:
        raise InputError("serve needs GAME... and --roster FILE (make one with --make-tokens NAMES)")
    if not 0 < args.port < 65536 or args.rate < 1:
        raise InputError("--port must be 1 to 65535 and --rate at least 1")
    if args.counterexamples < 0 or args.counterexample_turns < 1:
        raise InputError("--counterexamples must be 0 (none) or more, and --counterexample-turns at least 1")
    try:
        from harness.serve import own, start
    except ImportError:
        raise InputError("serve needs the serve extra: pip install 'game-harness[serve]'")
    sock = start.listening(args.host, args.port)  # a port in use is told before anything is loaded
    for game in args.games:  # a reference that rejects its own starts would charge every upload's setup
        spec, milestone = _game(game, settings)
        _check_reference(spec, caseload.load_all(spec, milestone))
    return start.run(args.games, args.roster, args.host, args.port, args.data, args.instructor_token, args.rate,
                     args.no_sandbox, cluster_address=args.cluster, sock=sock, settings=settings,
                     policy=own.Policy(args.counterexamples, args.counterexample_turns))


def cmd_run(args, settings: config.Settings) -> int:
    launcher.for_this_process().prepare()  # made already by `harness` itself (entry.py), not by `python -m harness.cli`
    spec, milestone = _game(args.game, settings)
    spec = _budgeted(spec, args)
    found = _load_cases(spec, milestone, args.select)
    program = args.program
    builds = None
    if program.is_file() and os.access(program, os.X_OK) and not program.suffix:
        # a ready program stands for the first target, and runs as it is
        target = next(iter(spec.targets))
        found = [case for case in found if case.target == target]
        if not found:
            raise InputError(f"no cases of target {target} selected for a ready program")
        builds = {target: builder.Build(target, "program", True, run=[str(program.resolve()), "{args}"],
                                        sandbox_setting=settings.sandbox)}
    result = _grade_one(spec, milestone, found, program, settings, builds)
    terminal.render(result, colour=progress.style(progress.NORMAL, "auto").colour)  # NO_COLOR respected
    if args.verbose:
        terminal.explain_failures(result, every=True)
    return 0 if result.all_passed else 1


def cmd_regen(args, settings: config.Settings) -> int:
    from harness.suite import accepting, regen
    selected = []
    for item in args.targets or specs.games(settings.root):
        if item.endswith((".yaml", ".yml")):
            path = Path(item)
            if not path.is_file():
                raise InputError(f"no such case file: {path}")
            spec = _spec(path.resolve().parent.name, settings)
            selected.append((spec, caseload.load_case(path, spec)))
        else:
            spec, _ = _game(item, settings)
            milestone = item.partition(":")[2] or None
            selected += [(spec, case) for case in caseload.load_all(spec, milestone)]
    for spec in {id(spec): spec for spec, _ in selected}.values():
        _check_reference(spec, [case for chosen, case in selected if chosen is spec and case.expect])
    stale = unaccepted = 0
    for (spec, case), outcome in zip(selected, regen.regenerate_all(selected, grading.workers(None, settings))):
        if not outcome.changed:
            continue
        stale += 1
        print(f"{'stale' if args.check else 'updated'}: {case.path}: {outcome.summary}")
        if not args.check:
            regen.write(outcome)
        for problem in accepting.stale(case, outcome.expect):
            unaccepted += 1
            print(f"harness: {case.path}:{case.document.line_of(['accept']) if case.document else 1}: {problem}",
                  file=sys.stderr)
    print(f"{len(selected)} cases, {stale} {'stale' if args.check else 'updated'}")
    if unaccepted:
        print(f"{unaccepted} accepted alternative{'s name' if unaccepted > 1 else ' names'} a line the reference "
              "no longer prints: grading refuses the case until it is fixed (see above)", file=sys.stderr)
    return 1 if (args.check and stale) or unaccepted else 0


def cmd_publish(args, settings: config.Settings) -> int:
    from harness.classes import history
    if not (args.output / "gradebook.csv").is_file():
        raise InputError(f"{args.output}: no graded class here (no gradebook.csv); give the folder `harness grade -o` wrote")
    done = history.publish(args.output)
    print(f"published: {len(done)} report{'s' if len(done) != 1 else ''}" + (f" ({', '.join(done)})" if done else
                                                                          " (nothing was waiting)"))
    return 0


def cmd_restore(args, settings: config.Settings) -> int:
    from harness.classes import history
    try:
        entry, reports = history.restore(args.output)
    except FileNotFoundError:
        raise InputError(f"{args.output}: no earlier grades kept (no {history.HISTORY}/ folder with an entry); "
                         "a class graded again keeps the grades it replaces there") from None
    print(f"restored the grades before {entry.name}: gradebook.csv, the class page and {len(reports)} report"
          f"{'s' if len(reports) != 1 else ''}; what they replaced is kept as a newer entry of "
          f"{args.output / history.HISTORY} (`harness restore` again undoes this)")
    return 0


def cmd_accept(args, settings: config.Settings) -> int:
    import difflib

    from harness.loading.acceptances import Acceptance
    from harness.suite import accepting
    spec, _ = _game(args.game, settings)
    names = {path.stem: path for path in caseload.case_files(spec)}
    if args.case not in names:
        close = difflib.get_close_matches(args.case, list(names), n=1)
        raise InputError(f"{spec.game} has no case {args.case!r}"
                         + (f"; did you mean {close[0]!r}?" if close else "; its cases are the files of cases/"
                            f"{spec.game}/, named without .yaml"))
    case = caseload.load_case(names[args.case], spec)
    where, added = accepting.accept(spec, case, Acceptance(args.line, args.also, args.turn, args.why))
    said = Acceptance(args.line, args.also, args.turn, args.why).describe()
    print(f"{'accepted' if added else 'already accepted'} in {where}: {said}\n"
          f"{accepting.lets_through(spec, case, Acceptance(args.line, args.also, args.turn, args.why), args.output)}\n"
          f"grade the class again to apply it (only the submissions that failed {case.name} are run again); "
          f"`harness audit {spec.game}` shows what it lets through")
    return 0


def _audit_count(text: str) -> int:
    from harness.suite.audit import positive
    return positive(text)


def _audit_search(text: str) -> int:
    from harness.suite.audit import positive
    return 0 if text.strip() == "0" else positive(text)


def cmd_audit(args, settings: config.Settings) -> int:
    from harness.suite import audit, audit_report, audit_suggest
    spec, milestone = _game(args.game, settings)
    milestones = audit.milestones_of(spec, args.game, milestone)
    found = _load_cases(spec, milestones[0] if len(milestones) == 1 else None, args.select)
    if args.styles:
        return _audit_styles(args, spec, found, settings)
    search = audit.SEARCH if args.search is None else args.search
    look = progress.style(progress.QUIET if args.quiet else progress.NORMAL, "never", out=sys.stderr)
    with progress.Progress(0, 0, look, out=sys.stderr, unit="mutants", verb="audited") as shown:
        report = audit.audit(spec, milestones, found, audit.AuditOptions(args.sample, args.seed, args.select, args.jobs,
                                                                    tuple(args.only), args.every_case, search,
                                                                    settings), shown)
    print(audit_report.text(report), end="")
    written = audit_report.write(report, args.output or Path("reports") / f"audit-{spec.game}")
    print(f"  report: {written['html']}")
    if args.suggest is not None:
        from harness.loading import paths
        folder = paths.cases_dir(spec.folder, spec.game) if args.suggest is True else args.suggest
        cases = audit_suggest.suggest(report, spec, found, folder)
        print(f"  suggested cases: {len(cases)} in {folder}" + (" (review them, then `harness regen`)" if cases else ""))
    return 0 if report.passed else 1


def _audit_styles(args, spec, found, settings: config.Settings) -> int:
    """`harness audit GAME --styles N`: N styled programs graded; 0 when every one scores 100 %."""
    from harness.suite import styles
    folder = (args.output or Path("reports") / f"audit-{spec.game}") / "styles"
    look = progress.style(progress.QUIET if args.quiet else progress.NORMAL, "never", out=sys.stderr)
    with progress.Progress(args.styles, 0, look, out=sys.stderr, unit="styles", verb="graded") as shown:
        report = styles.grade(spec, found, args.styles, args.seed, args.jobs, settings, folder, shown)
    print(styles.text(report, args.game), end="")
    return 0 if report.passed else 1


def cmd_samples(args, settings: config.Settings) -> int:
    from harness.suite import samples
    chosen = []
    for game in dict.fromkeys(args.games):
        spec = _budgeted(_spec(game, settings), args)
        expectations = samples.load(spec)
        _check_reference(spec, caseload.load_all(spec, None))
        for name in [] if args.only else samples.unlisted(spec, expectations):
            print(f"note: {samples.folder(spec) / name} has no entry in expected.yaml, so it is not checked", file=sys.stderr)
        chosen += [(spec, e) for e in expectations if not args.only or e.name in args.only]
    missing = [name for name in args.only if name not in {e.name for _, e in chosen}]
    if missing:
        raise InputError(f"--sample {missing[0]!r} is in no expected.yaml of {', '.join(args.games)}; "
                         "check its name (a sample folder with an entry)")
    sandbox.require(args.no_sandbox, settings.sandbox)
    count = Counter(spec.game for spec, _ in chosen)
    width = max(len(e.name) for _, e in chosen)
    told: dict[str, list] = {}

    def say(spec, verdict):
        if spec.game not in told:
            print(f"{spec.game}: {count[spec.game]} samples", flush=True)
        told.setdefault(spec.game, []).append(verdict)
        print(samples.line(verdict, width), flush=True)
        for problem in verdict.problems:
            print(f"       {problem}", flush=True)
        if len(told[spec.game]) == count[spec.game]:
            right = sum(v.ok for v in told[spec.game])
            print(f"{spec.game}: {right} of {count[spec.game]} samples as expected.yaml says", flush=True)

    from harness.classes import executor  # a class's machinery: the shared pool, and Ctrl-C ending every run
    pool = executor.Local(settings=settings)
    try:
        verdicts = samples.check(chosen, pool.grader, pool.builders, say)
    except KeyboardInterrupt:
        print("\nstopping: ending the programs and builds running now", file=sys.stderr, flush=True)
        pool.interrupt([])
        raise
    finally:
        pool.close()
    return 0 if all(v.ok for v in verdicts) else 1


def cmd_gradescope(args, settings: config.Settings) -> int:
    from harness.platforms import gradescope
    where = gradescope.layout(args.autograder_root, args.submission, args.results)
    try:
        return gradescope.grade(args.game, where, select=args.select, hidden=args.hidden,
                                allow_unconfined=args.no_sandbox, settings=settings)
    except InputError as problem:
        gradescope.not_graded(where, str(problem))
        raise


def cmd_prairielearn(args, settings: config.Settings) -> int:
    from harness.platforms import prairielearn
    where = prairielearn.layout(args.grade_root, args.student, args.results)
    try:
        return prairielearn.grade(args.game, where, select=args.select, allow_unconfined=args.no_sandbox,
                                  settings=settings, budget=args.budget)
    except InputError as problem:
        prairielearn.not_graded(where, str(problem))
        raise
    except Exception as problem:  # the harness failed: the student is told it is not their program's fault
        prairielearn.not_graded(where, f"the harness failed ({type(problem).__name__}).")
        raise


def cmd_classroom(args, settings: config.Settings) -> int:
    from harness.platforms import classroom
    place = classroom.where(args.submission, args.output)
    return classroom.run(args.game, place, points=args.points, select=args.select, allow_unconfined=args.no_sandbox,
                         settings=settings)


COMMANDS = {"new": cmd_new, "play": cmd_play, "record": cmd_record, "run": cmd_run, "grade": cmd_grade, "check": cmd_check,
            "regen": cmd_regen, "gradescope": cmd_gradescope, "prairielearn": cmd_prairielearn, "audit": cmd_audit, "samples": cmd_samples, "serve": cmd_serve,
            "classroom": cmd_classroom, "accept": cmd_accept, "publish": cmd_publish, "restore": cmd_restore}


if __name__ == "__main__":
    sys.exit(main())
