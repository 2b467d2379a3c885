"""One line per case, then the rubric and the total: what a person reads in the shell."""
import sys

_COLOURS = {"passed": "32", "failed": "31", "ungradable": "33", "bold": "1", "dim": "2"}


def _paint(text: str, colour: str, on: bool) -> str:
    return f"\x1b[{_COLOURS[colour]}m{text}\x1b[0m" if on else text


def render(data: dict, stream=None, verbose: bool = False) -> None:
    stream = stream or sys.stdout
    on = stream.isatty()
    marks = {"passed": "PASS", "failed": "FAIL", "ungradable": "SKIP"}
    print(_paint(f"{data['title']}{' ' + data['milestone'] if data['milestone'] else ''} — {data['submission']}", "bold", on), file=stream)
    for target, build in data["builds"].items():
        if not build["ok"]:
            print(_paint(f"  build of {target} ({build['language']}): {build['reason']}", "failed", on), file=stream)
            if build["log"].strip():
                print("    " + "\n    ".join(build["log"].strip().splitlines()[-15:]), file=stream)
        for finding in build["findings"]:
            print(_paint(f"  source check: {finding}", "ungradable", on), file=stream)
    for case in data["cases"]:
        mark = _paint(marks[case["status"]], case["status"], on)
        line = f"  {mark} {case['name']} [{case['rubric']}] {case['seconds']:.2f}s"
        print(line, file=stream)
        if case["status"] != "passed":
            print(f"       {case['reason']}", file=stream)
            if case["hint"]:
                print(_paint(f"       hint: {case['hint']}", "dim", on), file=stream)
    print(file=stream)
    for item in data["items"]:
        if not item["graded"]:
            print(f"  {'—':>7}  {item['title']} (graded by a person, {item['weight']:g} points)", file=stream)
            continue
        if not item["gradable"]:
            why = "no cases run" if not item["cases_total"] else "no case could be graded on this run"
            print(f"  {'—':>7}  {item['title']} ({why}; not counted)", file=stream)
            continue
        cases = f"{item['cases_passed']}/{item['cases_total'] - item['cases_ungradable']} cases"
        if item["cases_ungradable"]:
            cases += f", {item['cases_ungradable']} not gradable"
        print(f"  {item['earned']:>5.1f}/{item['weight']:<4g} {item['title']} ({cases})", file=stream)
    score = data["score"]
    colour = "passed" if data["passed"] == data["total"] else "failed"
    print(_paint(f"  {data['passed']}/{data['total']} cases passed — score {score['earned']:.1f}/{score['possible']:g} "
                 f"= {score['percent']:.1f} %", colour, on), file=stream)
