"""Writing a submission's report files: result.json, report.html, Gradescope and JUnit."""
import json
from pathlib import Path

from harness.reports import exports, html
from harness.results import SubmissionResult


def write(result: SubmissionResult, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"json": folder / "result.json", "html": folder / "report.html"}
    paths.update(exports.write_all(result, folder))
    paths["json"].write_text(json.dumps(result.to_json(), indent=1, ensure_ascii=False), encoding="utf-8")
    paths["html"].write_text(html.render(result), encoding="utf-8")
    return paths
