"""Writing a submission's report files: result.json and report.html."""
import json
from pathlib import Path

from harness.reports import exports, html


def write(data: dict, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"json": folder / "result.json", "html": folder / "report.html"}
    paths.update(exports.write_all(data, folder))
    paths["json"].write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    paths["html"].write_text(html.render(data), encoding="utf-8")
    return paths
