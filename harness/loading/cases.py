"""Cases: one YAML file each, validated against the schema and the spec before anything runs."""
from dataclasses import dataclass, field
from pathlib import Path

from harness.loading import acceptances, paths
from harness.loading import schema
from harness.loading import yamlfile
from harness.errors import InputError
from harness.outcome import End
from harness.loading.spec import Spec, check_policy
from harness.results import LAW_CHECK_NAME, Visibility
from harness.transcript import Transcript


@dataclass
class Case:
    """One case file, parsed and checked: its inputs, its expectation and what it is worth."""
    name: str
    path: Path
    description: str
    milestone: str | None
    target: str
    rubric: str
    points: float
    visibility: Visibility
    args: list[str]
    seed: int | None
    repeat: int
    inputs: list[str] | dict
    compare: dict | str | None
    limits: dict
    expect: dict | None
    data: dict = field(repr=False)
    document: yamlfile.Document | None = field(repr=False)
    accept: tuple[acceptances.Acceptance, ...] = ()  # the students' versions accepted as also correct

    def __getstate__(self):
        """A case travels to a worker whole (its expected transcript included), without its YAML node tree."""
        return {**self.__dict__, "document": None}

    @property
    def expected_end(self) -> End:
        return End.parse(self.expect["exit"])

    @property
    def expected_events(self) -> Transcript:
        return self.expect["transcript"]

    @property
    def strategy(self) -> dict | None:
        return self.inputs if isinstance(self.inputs, dict) else None

    @property
    def prefix(self) -> list[str]:
        return [str(x) for x in (self.inputs.get("prefix", []) if self.strategy else self.inputs)]


def load_case(path: Path, spec: Spec) -> Case:
    if path.stem == LAW_CHECK_NAME:
        raise InputError(f"a case may not be named {LAW_CHECK_NAME!r}: the check of the random starts' law has that "
                         "name in every report; rename the file", path, 1)
    doc = yamlfile.load(path)
    schema.validate(doc, "case.schema.json")
    data = doc.data
    milestones = list(spec.milestones)
    milestone = data.get("milestone")
    if milestones and milestone is None:
        raise InputError(f"missing 'milestone:'; this game has milestones {', '.join(milestones)}", path, 1)
    if milestone is not None and milestone not in spec.milestones:
        raise InputError(f"milestone {milestone!r} is not in the spec; use one of: {', '.join(milestones) or 'none'}",
                         path, doc.line_of(["milestone"]))
    target = data.get("target", next(iter(spec.targets)))
    if target not in spec.targets:
        raise InputError(f"target {target!r} is not in the spec; use one of: {', '.join(spec.targets)}",
                         path, doc.line_of(["target"]))
    items = {item.id: item for item in spec.rubric}
    rubric = data["rubric"]
    if rubric not in items:
        raise InputError(f"rubric item {rubric!r} is not in the spec; use one of: {', '.join(items)}",
                         path, doc.line_of(["rubric"]))
    if milestone and items[rubric].milestone not in (None, milestone):
        raise InputError(f"rubric item {rubric!r} belongs to milestone {items[rubric].milestone}, not {milestone}",
                         path, doc.line_of(["rubric"]))
    if not items[rubric].graded:
        raise InputError(f"rubric item {rubric!r} is marked graded: false (graded by a person); pick another item",
                         path, doc.line_of(["rubric"]))
    check_policy(doc, ["compare"], data.get("compare"))
    if isinstance(data["inputs"], dict) and not spec.random_start_for(target):
        raise InputError(f"inputs given as a strategy, but target {target} has no random start: list the lines instead",
                         path, doc.line_of(["inputs"]))
    accepted = acceptances.parse(data.get("accept"))
    expect = data.get("expect")
    acceptances.check(accepted, expect["transcript"] if expect else None, path, doc.line_of)
    return Case(
        name=path.stem, path=path, description=data["description"], milestone=milestone, target=target,
        rubric=rubric, points=data.get("points", 1), visibility=Visibility(data.get("visibility", "public")),
        args=[str(a) for a in data.get("args", [])], seed=data.get("seed"), repeat=data.get("repeat", 1),
        inputs=data["inputs"], compare=data.get("compare"), limits=data.get("limits", {}),
        expect=expect, data=data, document=doc, accept=accepted,
    )


def case_files(spec: Spec) -> list[Path]:
    folder = paths.cases_dir(spec.folder, spec.game)
    return sorted(folder.glob("*.yaml"))


def load_all(spec: Spec, milestone: str | None = None, select: str | None = None,
             public_only: bool = False) -> list[Case]:
    """The game's cases for a milestone (all when None), optionally filtered by a name substring."""
    found = []
    for path in case_files(spec):
        if select and select not in path.stem:
            continue
        case = load_case(path, spec)
        if milestone and case.milestone != milestone:
            continue
        if public_only and case.visibility != Visibility.PUBLIC:
            continue
        found.append(case)
    return found


def require_expectations(cases: list[Case]) -> None:
    for case in cases:
        if case.expect is None:
            raise InputError("no expected transcript yet; run `harness regen` on this file", case.path, 1)
