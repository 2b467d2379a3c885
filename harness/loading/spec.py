"""A game's spec: its reference, milestones, build targets, rubric and defaults."""
import re
import shlex
import string
import sys
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path

from harness.loading import owners as turn_owners
from harness.loading import policy as policies
from harness.loading import random_start as random_starts
from harness.loading.run_limits import Limits
from harness.loading import functions, paths, stages
from harness.loading import schema
from harness.loading import yamlfile
from harness.errors import InputError
from harness.loading.paths import project_root

# A submission's time budget when its spec sets none (`defaults: limits: {submission_seconds}`):
# the wall time all its runs may take together (harness/running/budget.py). A correct program of the
# course games takes a small part of it; a program that spends it loses the cases left.
SUBMISSION_SECONDS = 600.0
MAX_SUBMISSION_SECONDS = 86400.0  # a day: the cap of the setting and of --budget


PYTHON = "{python}"  # the harness's interpreter, in a reference's command
SAFE_PATH = "-P"  # Python 3.11+: the folder it starts in is not searched for imports
# Python's options that take no argument, and those that take the next word.
_FLAGS = frozenset("bBdEiIOPqsSuvx")
_WITH_ARGUMENT = frozenset({"-X", "-W", "--check-hash-based-pycs"})


def _runs_module(options: list[str]) -> bool:
    """The interpreter's words after it run a module (-m) or a command (-c), which put the folder
    Python starts in first on the import path; a script's own folder (the instructor's) is put
    there instead, and stays."""
    words = iter(options)
    for word in words:
        if word in _WITH_ARGUMENT:
            next(words, None)
        elif word.startswith("--") and len(word) > 2:
            continue
        elif not word.startswith("-") or len(word) < 2:
            return False  # the script, or "-" (standard input)
        elif word[-1] in "mc" and set(word[1:-1]) <= _FLAGS:
            return True
        elif not set(word[1:]) <= _FLAGS:
            return False  # an option this reading does not know (an -X or -W glued to its value)
    return False


@dataclass
class Language:
    """How one target is built in one language: the files it needs and its compile and run commands."""
    name: str
    files: list[str]
    support: list[str]
    optional: list[str]  # may be left out: the copy in support/ stands in
    compile: list[str] | None
    main: str | None
    build: list[str] | None
    run: str | None
    source_checks: list[dict]


@dataclass
class Target:
    """A program the handout asks for (a game, a function): its reference's arguments and its languages."""
    id: str
    title: str
    reference_args: list[str]
    seed_args: list[str]
    languages: dict[str, Language]
    handout_language: str | None = None  # the one the handout asks for, when others are taken too


@dataclass
class RubricItem:
    """One line of the handout's rubric: its points, its milestone, whether the harness grades it."""
    id: str
    title: str
    points: float
    milestone: str | None
    graded: bool
    compare: dict | str | None = None  # the policy of this item's cases, between the defaults and the case's


@dataclass(frozen=True)
class LateRule:
    """The spec's `late:` (or a milestone's, over it): the deadline and what lateness costs.
    A key left out is None: the command line or the default fills it (docs/late-work.md)."""
    deadline: datetime | None = None
    penalty_per_day: float | None = None  # percent of the earned score per day or part of a day
    cap: float | None = None  # the most percent taken off
    grace: float | None = None  # minutes late that count as on time


@dataclass(frozen=True)
class BuiltReference:
    """A reference recipe built once: the command that runs it ("{args}" marks the arguments),
    and the folder of sources it was built from (a copy of the spec elsewhere builds its own)."""
    words: tuple[str, ...]
    sources: str


@dataclass
class Spec:
    """A game's spec.yaml, parsed and checked once: everything grading needs to know about the game."""
    game: str
    folder: Path
    title: str
    handout: str | None
    reference: str | Language  # a command, or a recipe built by harness.building.reference
    milestones: dict[str, dict]
    targets: dict[str, Target]
    rubric: list[RubricItem]
    compare: policies.Policy  # the spec's defaults, merged once
    limits: Limits  # of each run (a case may set its own on top)
    random_start: random_starts.RandomStart | None
    document: yamlfile.Document | None = field(repr=False)
    seed_option: str | None = None
    rewrite: str | None = None  # "module:function" reading the handout's alternative renderings as the reference's
    messages: tuple = ()  # policies.MessageClass, in the spec's order
    state: dict | None = None  # {read: "module:function", carry: [kinds]}: the state a person reads from output
    submission_seconds: float = SUBMISSION_SECONDS  # the time budget of one submission's runs, all together
    budget_given: bool = False  # submission_seconds is --budget's or a platform's: a hard total, not on top of the cases' turns
    built: BuiltReference | None = None  # the recipe's build (harness.building.reference.prepared)
    owners: tuple = ()  # turn_owners.OwnerRule, in the spec's order: which item a turn of any case belongs to
    late: dict = field(default_factory=dict)  # LateRule by milestone (None: the spec's own `late:`)
    hidden_stages: tuple = ()  # stages.Stage: what a student sees of a failed hidden case, from each date on

    def __getstate__(self):
        """Workers get the spec without its YAML node tree (line numbers matter only at load)."""
        return {**self.__dict__, "document": None}

    def reference_command(self, milestone: str | None, target: str, extra: list[str]) -> list[str]:
        args = [str(a) for a in self.milestones[milestone].get("reference_args", [])] if milestone else []
        args += self.targets[target].reference_args + [str(a) for a in extra]
        command = self._reference_words()
        if "{args}" in command:  # a built reference's run template places them
            at = command.index("{args}")
            return command[:at] + args + command[at + 1:]
        return command + args

    def _reference_words(self) -> list[str]:
        """The command that runs the reference (a built one marks where its arguments go with "{args}")."""
        if isinstance(self.reference, str):
            parts = shlex.split(self.reference)
            words = []
            for at, part in enumerate(parts):
                if part == PYTHON:
                    words += [sys.executable, SAFE_PATH] if _runs_module(parts[at + 1:]) else [sys.executable]
                else:
                    words.append(part.replace("{spec}", str(self.folder)))
            return words
        if self.built is None:  # every front door prepares the spec (building.reference.prepared) before a run
            raise InputError(f"the reference of {self.game} is a recipe that was not built before it was run; "
                             "this is the harness's own mistake: report it", self.folder / "spec.yaml")
        return list(self.built.words)

    @property
    def built_reference(self) -> bool:
        """The reference is a recipe the harness builds, not a command."""
        return not isinstance(self.reference, str)

    def random_start_for(self, target: str) -> random_starts.RandomStart | None:
        """The random-start settings if this target's programs draw their own start."""
        if self.random_start is not None and self.random_start.applies_to(target):
            return self.random_start
        return None

    def items(self, milestone: str | None) -> list[RubricItem]:
        return [item for item in self.rubric if milestone is None or item.milestone in (None, milestone)]

    def policy(self, rubric: str, case_compare) -> policies.Policy:
        """A case's comparison policy: the spec's defaults, then its item's, then its own."""
        item = next((i for i in self.rubric if i.id == rubric), None)
        return policies.policy("default", self.compare, item.compare if item else None, case_compare)

    def late_rule(self, milestone: str | None) -> LateRule:
        """The late-work rule of a milestone: its own `late:` keys over the spec's."""
        rule = self.late.get(None, LateRule())
        own = self.late.get(milestone) if milestone else None
        if own is None:
            return rule
        return replace(rule, **{key: value for key, value in own.__dict__.items() if value is not None})

    def seed_args(self, seed: int | None) -> list[str]:
        return [self.seed_option, str(seed)] if seed is not None and self.seed_option else []

    @property
    def support_dir(self) -> Path:
        return self.folder / "support"


def games(root: Path | None = None) -> list[str]:
    root = root or project_root()
    return sorted(p.parent.name for p in (root / "specs").glob("*/spec.yaml"))


def parse_game(name: str, root: Path | None = None) -> tuple["Spec", str | None]:
    """`GAME` or `GAME:MILESTONE` -> (spec, milestone); a plain name means the last milestone."""
    game, _, milestone = name.partition(":")
    spec = load(game, root)
    if milestone:
        if milestone not in spec.milestones:
            known = ", ".join(f"{spec.game}:{m}" for m in spec.milestones) or "none"
            raise InputError(f"{spec.game} has no milestone {milestone!r}; use one of: {known}")
        return spec, milestone
    return spec, (list(spec.milestones)[-1] if spec.milestones else None)


def game_id(game: str, root: Path) -> str:
    """The game a typed name stands for: its id, letter case aside (`My-Game` finds `my-game`); a name that is
    none gets the nearest ids offered. A name, never a path: "../x" or "/etc" find nothing."""
    known = games(root)
    by_case = {name.casefold(): name for name in known}
    if game in known or game.casefold() in by_case:
        return game if game in known else by_case[game.casefold()]
    import difflib  # only for a name that is no game's

    near = difflib.get_close_matches(game.casefold(), list(by_case), n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(by_case[n] for n in near)}? " if near else ""
    raise InputError(f"unknown game {game!r}; {hint}games: {', '.join(known) or 'none found'} "
                     f"(looked in {root / 'specs'})")


def load(game: str, root: Path | None = None) -> Spec:
    root = root or project_root()
    game = game_id(game, root)
    path = root / "specs" / game / "spec.yaml"
    doc = yamlfile.load(path)
    schema.validate(doc, "spec.schema.json")
    data = doc.data
    milestones = data.get("milestones", {})
    targets = {
        tid: Target(
            tid, t.get("title", tid), [str(a) for a in t.get("reference_args", [])],
            [str(a) for a in t.get("seed_args", [])],
            {lang: Language(lang, l["files"], l.get("support", []), l.get("optional", []), l.get("compile"), l.get("main"),
                            l.get("build"), l.get("run"), l.get("source_checks", []))
             for lang, l in t["languages"].items()},
            t.get("handout_language"),
        )
        for tid, t in data["targets"].items()
    }
    rubric = [RubricItem(i["id"], i["title"], i["points"], i.get("milestone"), i.get("graded", True), i.get("compare"))
              for i in data["rubric"]]
    messages = tuple(_message_class(doc, mid, m) for mid, m in data.get("messages", {}).items())
    limits = dict(data.get("defaults", {}).get("limits", {}))
    budget = float(limits.pop("submission_seconds", SUBMISSION_SECONDS))  # the submission's, not a run's
    spec = Spec(game, path.parent, data["title"], data.get("handout"), _reference(data["reference"]), milestones,
                targets, rubric, policies.policy("default", data.get("defaults", {}).get("compare")),
                Limits(**limits), random_starts.parse(data.get("random_start"), (data.get("state") or {}).get("read")),
                doc,
                data.get("seed_option"), data.get("rewrite"), messages, data.get("state"), budget,
                owners=turn_owners.parse(doc, [item.id for item in rubric]),
                late=_late_rules(doc),
                hidden_stages=stages.parse(doc, lambda keys, value: _deadline(doc, keys, value)))
    _check_references(spec)
    return spec


def _late_rules(doc: yamlfile.Document) -> dict:
    """The spec's `late:` and each milestone's, read: a deadline must carry its time zone."""
    rules = {}
    data = doc.data
    places = [(None, ["late"], data.get("late"))]
    places += [(mid, ["milestones", mid, "late"], m.get("late")) for mid, m in (data.get("milestones") or {}).items()]
    for milestone, keys, late in places:
        if late is None:
            continue
        deadline = late.get("deadline")
        if deadline is not None:
            deadline = _deadline(doc, [*keys, "deadline"], deadline)
        rules[milestone] = LateRule(deadline, late.get("penalty_per_day"), late.get("cap"), late.get("grace"))
    return rules


def _deadline(doc: yamlfile.Document, keys: list, value) -> datetime:
    example = "2026-03-02T23:59:00-05:00"
    where = ".".join(map(str, keys))
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise InputError(f"{where}: {value!r} is not an ISO 8601 time; write e.g. {example}",
                             doc.path, doc.line_of(keys)) from None
    if not isinstance(value, datetime):
        what = "a date without a time" if isinstance(value, date) else f"{value!r}"
        raise InputError(f"{where} is {what}; write the time and its zone, e.g. {example}", doc.path, doc.line_of(keys))
    if value.tzinfo is None or value.utcoffset() is None:
        raise InputError(f"{where} has no time zone; add it, e.g. {example} (or Z for UTC)", doc.path, doc.line_of(keys))
    return value


def _reference(data: str | dict) -> str | Language:
    """The reference as a command, or as a build recipe (a target language entry of its own)."""
    if isinstance(data, str):
        return data
    return Language(data["language"], list(data["files"]), [], [], data.get("compile"), data.get("main"),
                    data.get("build"), data.get("run"), [])


def _message_class(doc: yamlfile.Document, message_id: str, data: dict) -> "policies.MessageClass":
    """A message class with its patterns compiled by RE2 (they run on every line a program prints)."""
    patterns = {}
    for key in ("accept", "unless"):
        value = data.get(key)
        listed = value if isinstance(value, list) else [] if value is None else [value]
        where = ["messages", message_id, key]
        patterns[key] = [_re2_pattern(doc, where + [i] if isinstance(value, list) else where, text)
                         for i, text in enumerate(listed)]
    message = policies.MessageClass(message_id, data["text"], tuple(patterns["accept"]), tuple(patterns["unless"]))
    named = max((int(g) for g in re.findall(r"\\(\d+)", data["text"])), default=0)
    if named > message.groups:
        raise InputError(f"messages.{message_id}.text uses group \\{named}, but accept has {message.groups} group(s)",
                         doc.path, doc.line_of(["messages", message_id, "text"]))
    return message


def _re2_pattern(doc: yamlfile.Document, keys: list, text: str):
    """A pattern over program output, compiled by RE2 (linear time) or refused at its line."""
    try:
        return policies.pattern(text)
    except policies.PatternError as problem:
        raise InputError(f"{'.'.join(map(str, keys))} is not a pattern RE2 can run: {problem}; a program's output "
                         "is matched with RE2, in linear time, so write the pattern in RE2's syntax",
                         doc.path, doc.line_of(keys))


def check_policy(doc: yamlfile.Document, where: list, layer) -> None:
    """The line filters of a compare policy must be patterns RE2 can run."""
    if not isinstance(layer, dict):
        return
    for key in ("keep_lines", "drop_lines"):
        if layer.get(key):
            _re2_pattern(doc, [*where, key], layer[key])


# The placeholders of build and run templates; those holding several words stand alone.
PLACEHOLDERS = ("src", "out", "main", "sources", "args", "python", "jvm")
_LIST_PLACEHOLDERS = ("sources", "args", "jvm")


def _check_regex(doc: yamlfile.Document, keys: list, pattern: str) -> None:
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError) as problem:
        raise InputError(f"{'.'.join(map(str, keys))} is not a valid regular expression: {problem}; fix the pattern",
                         doc.path, doc.line_of(keys))


def _check_template(doc: yamlfile.Document, keys: list, template: str, allowed) -> None:
    """A command template must split into words (shlex) and name only known placeholders."""
    where = ".".join(map(str, keys))
    line = doc.line_of(keys)
    try:
        words = shlex.split(template)
    except ValueError as problem:
        raise InputError(f"{where} cannot be split into words ({problem}); balance its quotes", doc.path, line)
    if not words:
        raise InputError(f"{where} is empty; give a command", doc.path, line)
    known = ", ".join("{" + name + "}" for name in allowed)
    for word in words:
        try:
            fields = [(name, spec_, conversion) for _, name, spec_, conversion in string.Formatter().parse(word)
                      if name is not None]
        except ValueError as problem:
            raise InputError(f"{where}: {word!r} is not a template ({problem}); write a literal brace as {{{{ or }}}}",
                             doc.path, line)
        for name, spec_, conversion in fields:
            if name not in allowed or spec_ or conversion:
                raise InputError(f"{where} uses {{{name}{'!' + conversion if conversion else ''}"
                                 f"{':' + spec_ if spec_ else ''}}}, which is not a placeholder; use {known}",
                                 doc.path, line)
            if name in _LIST_PLACEHOLDERS and word != "{" + name + "}":
                raise InputError(f"{where}: {{{name}}} stands for several words, so it must be a word of its own, "
                                 f"not part of {word!r}", doc.path, line)


def _check_language(doc: yamlfile.Document, keys: list, lang: Language) -> None:
    """File names stay inside the submission and support folders; patterns and templates work."""
    for field_ in ("files", "support", "optional", "compile"):
        for index, name in enumerate(getattr(lang, field_) or []):
            parts = name.replace("\\", "/").split("/")
            if not name or name.startswith("/") or ".." in parts or name in (".", "./"):
                raise InputError(f"{field_}: {name!r} must be a relative path inside the folder, without '..' "
                                 "(e.g. Game.java or src/Game.java)", doc.path, doc.line_of([*keys, field_, index]))
    for index, check in enumerate(lang.source_checks):
        _check_regex(doc, [*keys, "source_checks", index, "pattern"], check["pattern"])
    for index, step in enumerate(lang.build or []):
        _check_template(doc, [*keys, "build", index], step, PLACEHOLDERS)
    if lang.run is not None:
        _check_template(doc, [*keys, "run"], lang.run, PLACEHOLDERS)


def _check_function(doc: yamlfile.Document, keys: list, name: str) -> None:
    """A `module:function` setting names a function of an importable module."""
    try:
        functions.load(name)
    except TypeError:
        raise InputError(f"{'.'.join(map(str, keys))}: {name} is not a function", doc.path, doc.line_of(keys)) from None
    except (ImportError, AttributeError, ValueError) as problem:
        raise InputError(f"{'.'.join(map(str, keys))}: cannot find {name} ({problem}); give module:function of an importable module",
                         doc.path, doc.line_of(keys)) from None


def _check_references(spec: Spec) -> None:
    doc = spec.document
    ids = [item.id for item in spec.rubric]
    check_policy(doc, ["defaults", "compare"], doc.data.get("defaults", {}).get("compare"))
    if spec.rewrite:
        _check_function(doc, ["rewrite"], spec.rewrite)
    if spec.state:
        _check_function(doc, ["state", "read"], spec.state["read"])
    for index, item in enumerate(spec.rubric):
        check_policy(doc, ["rubric", index, "compare"], item.compare)
        if ids.count(item.id) > 1:
            raise InputError(f"rubric id {item.id!r} is used twice; make ids unique", doc.path, doc.line_of(["rubric", index, "id"]))
        if item.milestone is not None and item.milestone not in spec.milestones:
            raise InputError(f"rubric item {item.id!r} names milestone {item.milestone!r}, which is not under milestones:",
                             doc.path, doc.line_of(["rubric", index, "milestone"]))
    if isinstance(spec.reference, str):
        _check_template(doc, ["reference"], spec.reference, {"python", "spec"})
    else:
        _check_language(doc, ["reference"], spec.reference)
        for index, name in enumerate(spec.reference.files):
            if not (spec.folder / name).is_file():
                raise InputError(f"reference.files: {name!r} is not in {spec.folder}; put the reference's sources "
                                 "beside spec.yaml", doc.path, doc.line_of(["reference", "files", index]))
    if spec.random_start is not None:
        random_starts.check(doc, spec.random_start, random_starts.Context(
            spec.game, ids, list(spec.targets), bool(spec.state),
            lambda case: (paths.cases_dir(spec.folder, spec.game) / f"{case}.yaml").is_file(),
            lambda keys, pattern: _check_regex(doc, keys, pattern), lambda keys, name: _check_function(doc, keys, name),
            lambda keys, pattern: _re2_pattern(doc, keys, pattern)))
    for tid, target in spec.targets.items():
        if target.handout_language is not None and target.handout_language not in target.languages:
            raise InputError(f"targets.{tid}.handout_language: {target.handout_language!r} is not one of its languages "
                             f"({', '.join(target.languages)}); add its entry under languages or name one of those",
                             doc.path, doc.line_of(["targets", tid, "handout_language"]))
        for lang in target.languages.values():
            _check_language(doc, ["targets", tid, "languages", lang.name], lang)
            for name in lang.support + lang.optional:
                if not (spec.support_dir / name).is_file():
                    raise InputError(f"support file {name!r} of target {tid} is missing from {spec.support_dir}",
                                     doc.path, doc.line_of(["targets", tid, "languages", lang.name, "support"]))
