"""A class's late policy kept with its reports (`late-policy.json` beside the gradebook).

Grading a class again without the late options applies the policy its reports were graded
with, and says so: a late column of the gradebook never vanishes because an option was left off
the command. The policy changes only when the command says so: new late options (or the spec's
`late:`) replace it, `--no-late` grades without one and removes it."""
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from harness import atomic
from harness.classes import lateness
from harness.errors import InputError

FILE = "late-policy.json"


@dataclass(frozen=True)
class Choice:
    """The late settings a grading uses, and the line that says where they came from ("": the
    command's own options or none at all, nothing to say)."""
    settings: lateness.Settings | None
    said: str = ""


def describe(settings: lateness.Settings) -> str:
    """The policy on one line: deadline, penalty, cap, grace and the CSVs it reads."""
    policy = settings.policy
    parts = [f"deadline {policy.deadline.isoformat(timespec='minutes')}", f"−{policy.penalty_per_day:g} % a day",
             f"at most −{policy.cap:g} %"]
    if policy.grace_minutes:
        parts.append(f"{policy.grace_minutes:g} minutes' grace")
    parts += [f"{what} {path}" for what, path in (("times", settings.times_file),
                                                   ("extensions", settings.extensions_file)) if path]
    return ", ".join(parts)


def chosen(given: lateness.Settings | None, asked: bool, out: Path, drop: bool) -> Choice:
    """The settings to grade with: `given` (from the options and the spec) when the command asked
    for late work or the spec sets it; else the policy kept in `out`; none with `drop`."""
    path = out / FILE
    if drop:
        if asked:
            raise InputError("--no-late grades without a late policy: leave out --deadline, --late-penalty, "
                             "--late-cap, --grace, --times and --extensions, or --no-late")
        return Choice(None, f"late policy: none (--no-late); the one kept in {path} is removed" if path.is_file()
                      else "")
    if asked or given is not None or not path.is_file():
        return Choice(given)
    kept = read(path)
    return Choice(kept, f"late policy kept from {path} (the last grading's): {describe(kept)}; give the late "
                        "options to change it, or --no-late to grade without one")


def read(path: Path) -> lateness.Settings:
    """The kept policy, its CSVs read again (exit 2 naming the file when it cannot be used)."""
    fix = f"give the late options again, or --no-late (which removes {path.name})"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        deadline = datetime.fromisoformat(data["deadline"])
        numbers = [float(data[key]) for key in ("penalty_per_day", "cap", "grace_minutes")]
        files = [Path(data[key]) if data.get(key) else None for key in ("times", "extensions")]
    except (OSError, ValueError, KeyError, TypeError) as problem:
        raise InputError(f"{path}: not a late policy this grader wrote ({problem}); {fix}", path, 1) from None
    if deadline.tzinfo is None:
        raise InputError(f"{path}: its deadline has no time zone; {fix}", path, 1)
    return lateness.settings(None, deadline, *numbers, *files)


def keep(settings: lateness.Settings | None, out: Path, drop: bool) -> None:
    """After a grading that wrote a gradebook: its policy kept beside it, or removed (`drop`)."""
    path = out / FILE
    if drop:
        path.unlink(missing_ok=True)
        return
    if settings is None or not (out / "gradebook.csv").is_file():
        return
    policy = settings.policy
    data = {"deadline": policy.deadline.isoformat(), "penalty_per_day": policy.penalty_per_day, "cap": policy.cap,
            "grace_minutes": policy.grace_minutes,
            "times": str(settings.times_file.resolve()) if settings.times_file else "",
            "extensions": str(settings.extensions_file.resolve()) if settings.extensions_file else ""}
    atomic.write_text(path, json.dumps(data, indent=1) + "\n")
