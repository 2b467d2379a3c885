"""A case made by playing the reference: `harness record` (a person types) and `harness new`
(the lines are given). Both go through `record`, so a recorded case is what regen would make."""
import sys
from pathlib import Path

from harness.errors import InputError
from harness.loading import yamlfile
from harness.loading.spec import Spec
from harness.running import runner
from harness.running.environment import Workdir, reference_env
from harness import transcript

# A person at the keyboard takes their time: a recording waits for them.
PERSON = runner.Limits(turn_seconds=3600, run_seconds=24 * 3600)


def reference_seed(spec: Spec, target: str, seed: int | None) -> list[str]:
    """The seed the reference draws with: the one asked for, else the random start's fixed seed
    (so the case records the start `regen` reproduces)."""
    settings = spec.random_start_for(target)
    return spec.seed_args(seed if seed is not None else settings.seed if settings else None)


def record(spec: Spec, milestone: str | None, target: str, rubric: str, program_args: list[str], seed: int | None,
           inputs, *, description: str, points: float = 1, limits: runner.Limits = PERSON, echo=None) -> dict:
    """Play the reference with `inputs` (a person's TerminalInputs, or FixedInputs) into a case."""
    command = spec.reference_command(milestone, target, list(program_args) + reference_seed(spec, target, seed))
    with Workdir() as home:
        run = runner.run(command, env=reference_env(home), cwd=home, inputs=inputs, limits=limits, echo=echo)
    case = {"description": description}
    if milestone:
        case["milestone"] = milestone
    if target != next(iter(spec.targets)):
        case["target"] = target
    case.update({"rubric": rubric, "points": points, "visibility": "public"})
    if program_args:
        case["args"] = list(program_args)
    if seed is not None:
        case["seed"] = seed
    case["inputs"] = transcript.typed(run.events)
    case["expect"] = {"exit": run.end.value, "transcript": run.events}
    case["_ended"] = run.end  # how the reference ended (typed; not written to the file)
    return case


def write(case: dict, path: Path, force: bool = False) -> None:
    """The case file, never overwriting one unless `force`."""
    data = {k: v for k, v in case.items() if not k.startswith("_")}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w" if force else "x", encoding="utf-8") as handle:
            handle.write(yamlfile.dump(data))
    except FileExistsError:
        raise InputError(f"{path} exists (it appeared while the reference played); pass --force to overwrite it")
    except OSError as problem:
        raise InputError(f"cannot write {path} ({problem.strerror or problem}); choose another place")


def echo_terminal(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
