"""Build the autograder zip to upload to Gradescope for one game.

Usage: python gradescope/make_zip.py GAME [-o autograder.zip]

The zip's root holds setup.sh and run_autograder (Gradescope looks for them there), the
harness and the references (installed by setup.sh), the game's spec and cases, and
autograder-game.txt naming the game (GAME or GAME:MILESTONE) that run_autograder grades.
"""
import argparse
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
SKIP = {"__pycache__", ".pytest_cache", ".mypy_cache"}


def _files(folder: Path):
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and not SKIP & set(path.relative_to(ROOT).parts) \
                and path.suffix != ".pyc":
            yield path


def make(game: str, output: Path) -> list[str]:
    """Write the zip; the names it holds."""
    sys.path.insert(0, str(ROOT))
    from harness.loading import config
    from harness.loading import spec as specs
    from harness.errors import InputError
    try:
        spec, _ = specs.parse_game(game, config.load().root)  # this script's settings, read once
    except InputError as problem:
        raise SystemExit(f"make_zip: {problem}")
    names = []
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        def put(path: Path, name: str, mode: int = 0o644) -> None:
            info = zipfile.ZipInfo.from_file(path, name)
            info.external_attr = (0o100000 | mode) << 16  # the scripts must stay executable
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
            names.append(name)

        put(HERE / "setup.sh", "setup.sh", 0o755)
        put(HERE / "run_autograder", "run_autograder", 0o755)
        archive.writestr("autograder-game.txt", game + "\n")
        names.append("autograder-game.txt")
        for name in ("pyproject.toml", "README.md"):
            put(ROOT / name, name)
        for folder in (ROOT / "harness", ROOT / "reference", ROOT / "specs" / spec.game, ROOT / "cases" / spec.game):
            for path in _files(folder):
                put(path, path.relative_to(ROOT).as_posix())
    return names


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game id, or GAME:MILESTONE")
    parser.add_argument("-o", "--output", type=Path, default=Path("autograder.zip"))
    args = parser.parse_args(argv)
    names = make(args.game, args.output)
    print(f"wrote {args.output}: {len(names)} files; upload it as the autograder of a Gradescope programming assignment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
