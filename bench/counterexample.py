"""How often, how short and how fast is a student's own counterexample? Runs the search
(harness/counterexample, `harness check --counterexample`) on every seeded-bug sample of the
games (examples/GAME/bug-*), one at a time, as a student's check runs it.

Usage: python bench/counterexample.py [GAME...] [--limit N] [--json FILE]

- found: a counterexample came back (shrunk and replayed three runs of three) for the sample;
  the rate is given over all bug samples and over those whose expected.yaml fails a hidden case
  (target: at least 90 %). The failing cases the search starts from are expected.yaml's
  (`fails:`, or the cases of the items in `loses:`), as a check's grading would find them.
- length: the lines typed in it (target: median at most 5).
- time: the search, shrink and replays of one sample, its build included (targets at the 95th
  percentile on 2 cores: 30 s for Java, 10 s for C++).
- runs: the program's runs (the shrink alone is capped at 200).
Per game and per language of the sample. `--limit N`: the first N bug samples of each game.
Every number comes from this run; nothing is compared with a stored figure.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.building import reference  # noqa: E402
from harness.counterexample import make  # noqa: E402
from harness.loading import cases as caseload  # noqa: E402
from harness.loading import spec as specs  # noqa: E402
from harness.loading import yamlfile  # noqa: E402
from harness.results import Visibility  # noqa: E402

LANGUAGES = {".java": "java", ".cpp": "cpp", ".h": "cpp", ".py": "python"}


def language(sample: Path) -> str:
    found = {LANGUAGES[p.suffix] for p in sample.rglob("*") if p.suffix in LANGUAGES}
    return "java" if "java" in found else "cpp" if "cpp" in found else "python"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-95 * len(ordered) // 100) - 1))] if ordered else float("nan")


def bench_game(game: str, limit: int | None) -> list[dict]:
    spec, default = specs.parse_game(game, ROOT)
    spec = reference.prepared(spec)
    expected = yamlfile.load(ROOT / "examples" / game / "expected.yaml").data.get("samples", {})
    rows = []
    for sample in sorted((ROOT / "examples" / game).glob("bug-*"))[:limit]:
        said = expected.get(sample.name, {}) or {}
        milestone = said.get("milestone", default)
        cases = caseload.load_all(spec, milestone)
        # the cases it fails: named (`fails:`), or those of the items it loses (`loses:`)
        failing = tuple(said.get("fails", ())) or tuple(c.name for c in cases if c.rubric in said.get("loses", ()))
        hidden = {c.name for c in cases if c.visibility == Visibility.HIDDEN}
        started = time.monotonic()
        found = make.counterexample(spec, cases, sample, str(sample), failing)
        rows.append({"game": game, "sample": sample.name, "language": language(sample),
                     "fails_hidden": bool(hidden & set(failing)), "found": found is not None,
                     "length": len(found.inputs) if found else None, "runs": found.runs if found else None,
                     "partly_shrunk": found.partly_shrunk if found else None,
                     "seconds": round(time.monotonic() - started, 2)})
        print(f"  {game}/{sample.name} ({rows[-1]['language']}): "
              + (f"{len(found.inputs)} lines, {found.runs} runs" + (", partly shrunk" if found.partly_shrunk else "")
                 if found else "none found") + f", {rows[-1]['seconds']} s", flush=True)
    return rows


def summary(rows: list[dict], label: str) -> str:
    found = [r for r in rows if r["found"]]
    hidden = [r for r in rows if r["fails_hidden"]]
    lengths = [r["length"] for r in found]
    runs = [r["runs"] for r in found]
    rate = f"{100 * len(found) / len(rows):.0f} % ({len(found)}/{len(rows)})" if rows else "-"
    hidden_rate = (f"{100 * sum(r['found'] for r in hidden) / len(hidden):.0f} % ({sum(r['found'] for r in hidden)}"
                   f"/{len(hidden)})") if hidden else "-"
    return (f"{label:<24} found {rate:<14} failing a hidden case: {hidden_rate:<14} "
            f"median length {statistics.median(lengths) if lengths else '-'}  "
            f"p95 time {p95([r['seconds'] for r in rows]):.1f} s  "
            f"runs median {statistics.median(runs) if runs else '-'} max {max(runs) if runs else '-'}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=specs.games(ROOT))
    parser.add_argument("--limit", type=int, help="the first N bug samples of each game")
    parser.add_argument("--json", type=Path, help="write every sample's row here")
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        print(f"{game}:", flush=True)
        rows += bench_game(game, args.limit)
    print()
    for game in args.games:
        print(summary([r for r in rows if r["game"] == game], game))
    for lang in sorted({r["language"] for r in rows}):
        print(summary([r for r in rows if r["language"] == lang], f"all {lang}"))
    print(summary(rows, "all"))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
