"""Other graders' formats: Gradescope results.json, JUnit XML, and a CSV gradebook for a class."""
import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path


def _case_points(data: dict) -> dict[str, float]:
    """Each case's share of its rubric item's weight, so the cases add up to the item."""
    items = {item["id"]: item for item in data["items"]}
    totals: dict[str, float] = {}
    for case in data["cases"]:
        if case["status"] != "ungradable":
            totals[case["rubric"]] = totals.get(case["rubric"], 0) + case["points"]
    return {c["name"]: (items[c["rubric"]]["weight"] * c["points"] / totals[c["rubric"]]
                        if c["status"] != "ungradable" else 0.0) for c in data["cases"]}


def _message(case: dict) -> str:
    lines = [case["description"]]
    if case["reason"]:
        lines.append(case["reason"])
    if case["hint"]:
        lines.append(f"Hint: this case {case['hint']}.")
    return "\n\n".join(lines)


def gradescope(data: dict) -> dict:
    """Gradescope's autograder results format; hidden cases are shown after the due date."""
    points = _case_points(data)
    tests = [{
        "name": f"{case['name']} [{case['rubric']}]",
        "score": round(points[case["name"]] if case["status"] == "passed" else 0.0, 4),
        "max_score": round(points[case["name"]], 4),
        "status": "passed" if case["status"] == "passed" else "failed",
        "output": _message(case),
        "visibility": "visible" if case["visibility"] == "public" else "after_due_date",
    } for case in data["cases"]]
    notes = [f"{target}: {build['reason']}" for target, build in data["builds"].items() if not build["ok"]]
    notes += [f for build in data["builds"].values() for f in build["findings"]]
    return {"score": round(data["score"]["earned"], 4), "output": "\n".join(notes) or f"{data['title']}",
            "tests": tests}


def junit(data: dict) -> str:
    suite = ET.Element("testsuite", name=f"{data['game']}{':' + data['milestone'] if data['milestone'] else ''}",
                       tests=str(data["total"]), failures=str(sum(c["status"] == "failed" for c in data["cases"])),
                       skipped=str(sum(c["status"] == "ungradable" for c in data["cases"])),
                       time=f"{sum(c['seconds'] for c in data['cases']):.3f}")
    for case in data["cases"]:
        element = ET.SubElement(suite, "testcase", classname=f"{data['game']}.{case['rubric']}", name=case["name"],
                                time=f"{case['seconds']:.3f}")
        if case["status"] == "failed":
            ET.SubElement(element, "failure", message=case["reason"][:500]).text = _message(case)
        elif case["status"] == "ungradable":
            ET.SubElement(element, "skipped", message=case["reason"][:500])
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)


def gradebook(rows: list[dict], path: Path) -> None:
    """One row per submission: the percentage, then every graded rubric item."""
    items = [item for item in rows[0]["items"] if item["graded"]] if rows else []
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["submission", "percent", "earned", "possible", "cases_passed", "cases_total",
                         *[item["id"] for item in items]])
        for data in rows:
            earned = {item["id"]: item["earned"] for item in data["items"]}
            writer.writerow([Path(data["submission"]).name, f"{data['score']['percent']:.2f}",
                             f"{data['score']['earned']:.2f}", data["score"]["possible"], data["passed"],
                             data["total"], *[f"{earned[item['id']]:.2f}" for item in items]])


def write_all(data: dict, folder: Path) -> dict[str, Path]:
    paths = {"gradescope": folder / "results.json", "junit": folder / "junit.xml"}
    paths["gradescope"].write_text(json.dumps(gradescope(data), indent=1, ensure_ascii=False), encoding="utf-8")
    paths["junit"].write_text(junit(data), encoding="utf-8")
    return paths
