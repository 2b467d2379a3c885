"""The result of a graded submission as plain data: what every report format renders."""
from harness import compare
from harness.grading import SubmissionResult
from harness.scoring import Score


def case_data(result) -> dict:
    comparison = result.comparison
    data = {
        "name": result.name, "description": result.description, "rubric": result.rubric,
        "points": result.points, "visibility": result.visibility, "status": result.status,
        "reason": result.reason, "seconds": round(result.seconds, 3), "runs": result.runs,
        "command": result.command, "typed": result.typed, "notes": result.notes,
        "expected_end": result.expected_end, "actual_end": result.actual_end, "end_detail": result.detail,
        "expected": result.expected, "actual": result.actual,
        "hint": comparison.hint if comparison else None,
        "first_divergence": comparison.first_divergence if comparison else None,
        "policy": compare.describe_policy(comparison.policy) if comparison else None,
        "turns": [
            {"index": t.index, "typed": t.typed, "expected": t.expected, "actual": t.actual, "equal": t.equal}
            for t in comparison.turns
        ] if comparison else [],
    }
    return data


def submission_data(sub: SubmissionResult, score: Score, title: str) -> dict:
    return {
        "submission": sub.submission,
        "game": sub.game,
        "title": title,
        "milestone": sub.milestone,
        "score": {"percent": round(score.percent, 2), "earned": round(score.earned, 3), "possible": score.possible},
        "items": [
            {"id": i.id, "title": i.title, "weight": i.weight, "graded": i.graded, "earned": round(i.earned, 3),
             "cases_passed": i.cases_passed, "cases_total": i.cases_total, "cases_ungradable": i.cases_ungradable,
             "gradable": i.gradable}
            for i in score.items
        ],
        "builds": {
            t: {"language": b.language, "ok": b.ok, "reason": b.reason, "log": b.log, "findings": b.findings,
                "seconds": round(b.seconds, 3)}
            for t, b in sub.builds.items()
        },
        "cases": [case_data(r) for r in sub.cases],
        "passed": sum(1 for r in sub.cases if r.passed),
        "total": len(sub.cases),
    }
