"""Lay out a PrairieLearn external grader for one game.

Usage: python prairielearn/make_grader.py GAME [-o prairielearn-GAME] [--image NAME] [--timeout SECONDS]

OUT/image/                          the image's build context: the Dockerfile and the harness (no
                                    reference, no case: the image is public on Docker Hub)
OUT/serverFilesCourse/harness-G/    copied into the course's serverFilesCourse/: run_grader (the
                                    entry point), grader-game.txt, the harness, the references and
                                    the game's spec and cases
OUT/questions/G/                    a question to start from: info.json (External grading, its
                                    externalGradingOptions) and question.html (an upload of the
                                    handout's files and the grader's results)
OUT/externalGradingOptions.json     the same externalGradingOptions alone, for an existing question
"""
import argparse
import json
import math
import shutil
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
SKIP = {"__pycache__", ".pytest_cache", ".mypy_cache"}
IMAGE = "YOUR-DOCKERHUB-NAME/game-harness-grader"  # the instructor pushes the image under their own name
MAX_TIMEOUT = 600  # PrairieLearn's largest externalGradingOptions.timeout, in seconds
RESERVE = 60  # of the job's time, kept for the container's start, the builds and writing results
GRADE = "/grade/serverFilesCourse"


def _copy(folder: Path, into: Path) -> int:
    """Copy `folder`'s files (no caches, no links) to the same place under `into`; how many."""
    count = 0
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and not SKIP & set(path.relative_to(ROOT).parts) \
                and path.suffix != ".pyc":
            target = into / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
            count += 1
    return count


def budget_for(timeout: int) -> int:
    """The submission's time budget (`harness prairielearn --budget`) that leaves the job time to
    build, start and write its results before PrairieLearn's timeout kills it."""
    return max(timeout - RESERVE, math.ceil(timeout / 2))


def grading_options(game: str, folder: str, image: str, timeout: int) -> dict:
    """The question's info.json `externalGradingOptions`."""
    return {"image": image, "serverFilesCourse": [f"{folder}/"],
            "entrypoint": f"{GRADE}/{folder}/run_grader {game} --budget {budget_for(timeout)}",
            "timeout": timeout}


def _upload(spec) -> str:
    """question.html's upload: the files of the handout's language for each target."""
    required, optional = [], []
    for target in spec.targets.values():
        language = target.languages.get(target.handout_language or "") or next(iter(target.languages.values()))
        required += [name for name in language.files if name not in language.optional]
        optional += list(language.optional)
    attributes = f'file-names="{", ".join(required)}"'
    if optional:
        attributes += f' optional-file-names="{", ".join(optional)}"'
    return f"<pl-file-upload {attributes}></pl-file-upload>"


QUESTION = """<pl-question-panel>
  <p>{title}: upload your program. It is graded by running it on the course's cases, as the handout
  describes; the hidden cases count toward the score without being shown.</p>
  {upload}
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""


def make(game: str, output: Path, image: str = IMAGE, timeout: int | None = None) -> dict[str, Path]:
    """Write the grader's folders under `output`; the main paths it wrote, by name."""
    sys.path.insert(0, str(ROOT))
    from harness.errors import InputError
    from harness.loading import config, paths
    from harness.loading import spec as specs
    try:
        spec, milestone = specs.parse_game(game, config.load().root)  # this script's settings, read once
    except InputError as problem:
        raise SystemExit(f"make_grader: {problem}")
    if timeout is None:  # the spec's time budget and the reserve, as far as PrairieLearn allows
        timeout = min(MAX_TIMEOUT, math.ceil(spec.submission_seconds) + RESERVE)
    if not 1 <= timeout <= MAX_TIMEOUT:
        raise SystemExit(f"make_grader: --timeout {timeout} is not a PrairieLearn timeout; give seconds from 1 "
                         f"to {MAX_TIMEOUT}")
    folder = f"harness-{spec.game}"
    question = spec.game + (f"-{milestone}" if milestone else "")
    if output.exists() and any(output.iterdir()):
        raise SystemExit(f"make_grader: {output} is not empty; give a new folder with -o")

    image_dir = output / "image"
    image_dir.mkdir(parents=True)
    shutil.copy2(HERE / "Dockerfile", image_dir / "Dockerfile")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, image_dir / name)
    _copy(ROOT / "harness", image_dir)

    files = output / "serverFilesCourse" / folder
    files.mkdir(parents=True)
    shutil.copy2(HERE / "run_grader", files / "run_grader")
    (files / "run_grader").chmod(0o755)
    (files / "grader-game.txt").write_text(game + "\n", encoding="utf-8")
    for package in ("harness", "reference"):
        _copy(ROOT / package, files)
    _copy_from(spec.folder, files / "specs" / spec.game)  # this checkout's, or HARNESS_ROOT's project's
    _copy_from(paths.cases_dir(spec.folder, spec.game), files / "cases" / spec.game)

    options = grading_options(game, folder, image, timeout)
    (output / "externalGradingOptions.json").write_text(json.dumps(options, indent=2) + "\n", encoding="utf-8")
    questions = output / "questions" / question
    questions.mkdir(parents=True)
    info = {"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"game-harness:prairielearn:{game}")),
            "title": spec.title + (f" ({milestone})" if milestone else ""), "topic": spec.title, "tags": ["harness"],
            "type": "v3", "gradingMethod": "External", "singleVariant": True,
            "externalGradingOptions": options}
    (questions / "info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    (questions / "question.html").write_text(QUESTION.format(title=spec.title, upload=_upload(spec)), encoding="utf-8")
    return {"image": image_dir, "serverFilesCourse": files, "question": questions,
            "options": output / "externalGradingOptions.json"}


def _copy_from(folder: Path, into: Path) -> None:
    """A folder of another project (HARNESS_ROOT's specs/GAME or cases/GAME) copied to `into`."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and not SKIP & set(path.relative_to(folder).parts):
            target = into / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game id, or GAME:MILESTONE")
    parser.add_argument("-o", "--output", type=Path, help="the folder to write (default: prairielearn-GAME)")
    parser.add_argument("--image", default=IMAGE, help=f"the image's name on Docker Hub (default: {IMAGE})")
    parser.add_argument("--timeout", type=int, help="the grading job's timeout in seconds, at most 600 "
                                                    "(default: the spec's time budget plus 60, at most 600)")
    args = parser.parse_args(argv)
    output = args.output or Path(f"prairielearn-{args.game.replace(':', '-')}")
    made = make(args.game, output, args.image, args.timeout)
    print(f"wrote {output}:\n"
          f"  {made['image']}: docker build -t {args.image} {made['image']} && docker push {args.image}\n"
          f"  {made['serverFilesCourse']}: copy into the course's serverFilesCourse/\n"
          f"  {made['question']}: a question to copy into the course's questions/ "
          f"(or put {made['options'].name} into an existing question's info.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
