"""The front doors' one call: a submission's counterexample (the target built, the search run,
the build removed), or the replay of one game; nothing here prints."""
from pathlib import Path

from harness.building import build as builder
from harness.counterexample import replay, search, show
from harness.counterexample.game import Context, Counterexample, Trial
from harness.counterexample.trial import Games
from harness.loading import cases as caseload
from harness.loading import config
from harness.loading.cases import Case
from harness.loading.spec import Spec
from harness.results import Visibility


def _built(spec: Spec, submission: Path, target: str, settings: config.Settings) -> builder.Build | None:
    made = builder.build(submission, spec, target, None, settings)
    if made.ok:
        return made
    builder.cleanup(made)
    return None


def counterexample(spec: Spec, cases: list[Case], submission: Path, shown_as: str, failing: tuple[str, ...] = (),
                   settings: config.Settings = config.DEFAULTS,
                   options: search.Options = search.Options(), public_contexts: bool = False) -> Counterexample | None:
    """The counterexample of a submission on `cases` (all of a milestone's: the hidden ones are
    only kept out of it); `shown_as`: the submission as the replay command names it;
    `public_contexts`: games played in the public cases' contexts only (the service's: nothing
    of a hidden case, not even its item or seed, is in what is shown). None when it does not
    build or no difference is found within the budget."""
    failed = [case for case in cases if case.name in failing]
    contexts = [case for case in cases if case.visibility == Visibility.PUBLIC] if public_contexts else None
    target = failed[0].target if failed else (contexts or cases)[0].target
    made = _built(spec, submission, target, settings)
    if made is None:
        return None
    try:
        found = search.find(spec, cases, made, submission, failing, options,
                            lines_from=caseload.load_all(spec, None, public_only=True), contexts_from=contexts)
    finally:
        builder.cleanup(made)
    if found is not None:
        found.replay = show.replay_command(spec.game if not found.context.milestone else
                                           f"{spec.game}:{found.context.milestone}", shown_as,
                                           replay.encode(found.context, found.inputs))
    return found


def replayed(spec: Spec, submission: Path, context: Context, inputs: tuple[str, ...],
             settings: config.Settings = config.DEFAULTS) -> Trial | None:
    """One game played to the program and judged; None when the program does not build."""
    made = _built(spec, submission, context.target, settings)
    if made is None:
        return None
    try:
        return Games(spec, made).trial(context, inputs, fresh=True)
    finally:
        builder.cleanup(made)
