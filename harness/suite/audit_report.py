"""The audit's reports: a line per mutant as it goes, the terminal summary, the HTML page and
both written to the report folder."""
from pathlib import Path

from harness.errors import InputError
from harness.reporting import templates
from harness.suite import mutants
from harness.suite.audit_results import NOT_EXPLAINED, Audit, Finding, MutantResult, MutantStatus


def progress_line(count: int, total: int, result: MutantResult) -> str:
    """One mutant's outcome as the audit goes (`harness audit` without -q)."""
    how = f" by {len(result.killed_by)} case(s)" if result.killed_by else ""
    return f"  {count}/{total} {result.status.value}{how}: {result.mutant.id}"


def difference_in_context(expected: str, actual: str, context: int = 2) -> list[str]:
    """The lines around the first line where two outputs differ exactly, the reference's then
    the mutant's (for a person reading the audit; judging.differences.first_differing_line is the
    grader's, which looks past spacing and letter case first)."""
    a, b = expected.split("\n"), actual.split("\n")
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, at - context)
    out = [f"line {at + 1}:"]
    out += ["  reference: " + repr(x) for x in a[lo:at + context + 1]]
    out += ["  mutant:    " + repr(y) for y in b[lo:at + context + 1]]
    return out


def operator_table(report: Audit) -> list[tuple[str, int, int, int, int, int, int]]:
    """Per operator: (operator, mutants, killed, exposed, liberty, equivalent, unreachable or not reached),
    of the viable mutants."""
    rows = {}
    for r in report.results:
        if r.status is MutantStatus.NOT_VIABLE:
            continue
        row = rows.setdefault(r.mutant.operator, [0] * 6)
        row[0] += 1
        verdict = r.search.verdict if r.search else None
        if r.status is MutantStatus.KILLED:
            row[1] += 1
        elif r.status in (MutantStatus.UNREACHABLE, MutantStatus.NOT_REACHED):
            row[5] += 1
        elif verdict is Finding.EXPOSED:
            row[2] += 1
        elif verdict is Finding.LIBERTY:
            row[3] += 1
        elif r.status is MutantStatus.SURVIVED:
            row[4] += 1
    return [(op, *row) for op, row in sorted(rows.items())]


RECALL_TARGET, COLLATERAL_TARGET = 0.95, 0.05


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def precision_lines(report: Audit) -> list[str]:
    """Charging precision: per graded item, of the killed mutants drawn for it, the share that
    lose it (recall) and the share that lose another item of its milestone (collateral), then the game's."""
    width = max([len(i.id) for i in report.items] + [5])
    lines = [f"  {'item':<{width}}  drawn  killed  recall  collateral   (charging: each mutant should lose its own "
             f"item and only it; target recall >= {RECALL_TARGET:.0%}, collateral <= {COLLATERAL_TARGET:.0%})"]
    for item in report.items:
        lines.append(f"  {item.id:<{width}}  {item.drawn:>5}  {item.drawn_killed:>6}  {_share(item.recall):>6}  "
                     f"{_share(item.collateral):>10}")
    drawn = sum(i.drawn for i in report.items)
    killed = sum(i.drawn_killed for i in report.items)
    met = (report.recall is not None and report.recall >= RECALL_TARGET
           and report.collateral is not None and report.collateral <= COLLATERAL_TARGET)
    lines.append(f"  {'total':<{width}}  {drawn:>5}  {killed:>6}  {_share(report.recall):>6}  "
                 f"{_share(report.collateral):>10}   {'on target' if met else 'below target' if killed else ''}".rstrip())
    return lines


def text(report: Audit) -> str:
    """The terminal summary: a table of the graded items, then the survivors explained."""
    where = ", ".join(m for m in report.milestones if m) or "all cases"
    sample = f", a sample of {len(report.results)} (seed {report.seed})" if report.sample else ""
    exposed, liberty, equivalent = (report.verdicts(v) for v in (Finding.EXPOSED, Finding.LIBERTY, Finding.EQUIVALENT))
    survivors = [r for r in report.results if r.status is MutantStatus.SURVIVED]
    lines = [f"Audit of {report.title} ({report.game}: {where}): {report.reference}, {report.made} mutants{sample}, "
             f"{report.cases} cases",
             f"  killed {report.count(MutantStatus.KILLED)}, survived {len(survivors)}"
             + (f" (exposed {len(exposed)}, liberty {len(liberty)}, probably equivalent {len(equivalent)}; "
                f"{report.searched} sequences searched)" if report.searched else "")
             + f", unreachable {report.count(MutantStatus.UNREACHABLE)}, "
               f"not reached by any case {report.count(MutantStatus.NOT_REACHED)}, "
               f"harness errors {report.count(MutantStatus.ERROR)}"
             + (f", not viable (do not compile) {report.count(MutantStatus.NOT_VIABLE)}"
                if not report.explained else "")
             + f"; {report.seconds:.0f} s",
             f"  mutation score {report.score:.0%} "
             f"(killed {report.count(MutantStatus.KILLED)} of {report.viable} viable)", ""]
    width = max([len(i.id) for i in report.items] + [4])
    lines.append(f"  {'item':<{width}}  cases  killed  exposed  score  verdict")
    for item in report.items:
        verdict = "ok" if item.passed else "FAIL: no case of this item kills a mutant"
        if item.passed and item.score < 0.95:
            verdict = "ok, below 95 %: see the exposed survivors"
        lines.append(f"  {item.id:<{width}}  {len(item.cases):>5}  {item.killed:>6}  {item.exposed:>7}  "
                     f"{item.score:>5.0%}  {verdict}")
    lines += [""] + precision_lines(report)
    survived = "equivalent" if report.explained else "  survived"  # a compiled reference's survivors: not searched
    lines += ["", f"  operator        mutants  killed  exposed  liberty  {survived}  unreachable"]
    for op, total, killed, exp, lib, equiv, unreached in operator_table(report):
        lines.append(f"  {op:<15} {total:>7}  {killed:>6}  {exp:>7}  {lib:>7}  {equiv:>10}  {unreached:>11}")

    def head(result):
        m = result.mutant
        return [f"- {m.id} in {m.function or 'module level'}: {m.description} (ran on {len(result.ran)} case(s))"] + \
            ["    " + line for line in m.diff.splitlines()[2:]]

    if exposed:
        lines += ["", f"Survivors an input exposes ({len(exposed)}; a case with these inputs would kill them):"]
        for result in exposed:
            search = result.search
            lines += head(result)
            lines.append(f"    {search.says()}")
            lines.append(f"    inputs ({search.milestone or 'no milestone'}, {search.target}): {search.inputs}")
            lines += ["    " + line for line in difference_in_context(search.expected, search.actual)]
            if search.expected_end != search.actual_end:
                lines.append(f"    ends: reference {search.expected_end}, mutant {search.actual_end}")
    spilling, missing = report.spilling(), report.missing()
    if spilling:
        lines += ["", f"Killed mutants that lose another item than their own ({len(spilling)}; one mistake should "
                      "cost one item: the worst first):"]
        for result in spilling:
            lines += head(result)
            lines.append(f"    drawn for {result.drawn_for}; loses {', '.join(result.lost)}")
    if missing:
        lines += ["", f"Killed mutants that do not lose their own item ({len(missing)}):"]
        for result in missing:
            lines += head(result)
            lines.append(f"    drawn for {result.drawn_for}; loses {', '.join(result.lost) or 'no item'}")
    let_in = [r for r in survivors if r.let_through]
    if let_in:
        lines += ["", f"Let through by accepted alternatives ({len(let_in)}; each was caught before its case "
                      "accepted the students' version: check the acceptance is what the handout allows):"]
        for result in let_in:
            lines += head(result)
            lines += [f"    passed only through {entry}" for entry in result.let_through]
    if liberty:
        lines += ["", f"Survivors whose output differs where no item looks ({len(liberty)}; liberties the spec "
                      "leaves, or an item to add):"]
        for result in liberty:
            lines += head(result)
            lines.append(f"    inputs: {result.search.inputs}")
            lines += ["    " + line for line in difference_in_context(result.search.expected, result.search.actual)]
    rest = [r for r in survivors if r not in exposed and r not in liberty]
    if rest:
        title = "Probably equivalent" if report.searched else "Surviving mutants"
        lines += ["", f"{title} ({len(rest)}; each ran on the cases that reach its lines, and all passed"
                      + (", and no searched sequence told it from the reference):" if report.searched else "):")
                  if report.explained else f"Surviving mutants ({len(rest)}; each ran on every case, and all passed; "
                                           f"{NOT_EXPLAINED}):"]
        for result in rest:
            lines += head(result)
            if result.search:
                lines.append(f"    {result.search.says()}")
    for status, title in ((MutantStatus.UNREACHABLE, "Unreachable (no case and no searched sequence executes them)"),
                          (MutantStatus.NOT_REACHED, "Not reached by any case"),
                          (MutantStatus.NOT_VIABLE, "Not viable (they do not compile)")):
        unreached = [r for r in report.results if r.status is status]
        if unreached:
            counts: dict[str, int] = {}
            for result in unreached:
                name = result.mutant.function or "module level"
                counts[name] = counts.get(name, 0) + 1
            lines += ["", f"{title} ({len(unreached)}): " +
                      ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1]))]
    failing = [i.id for i in report.items if not i.passed]
    lines += ["", f"audit failed: no case of {', '.join(failing)} kills a mutant" if failing
              else "audit passed: every graded item's cases kill a mutant"]
    return "\n".join(lines) + "\n"


def html(report: Audit) -> str:
    """The page: the template selects by the enums (`MutantStatus`, `Finding`) and shows their values."""
    return templates.environment().get_template("audit.html.j2").render(
        a=report, operators=mutants.OPERATORS, MutantStatus=MutantStatus, Finding=Finding, NOT_EXPLAINED=NOT_EXPLAINED,
        table=operator_table(report), difference_in_context=difference_in_context)


def write(report: Audit, folder: Path) -> dict[str, Path]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written = {"html": folder / "audit.html", "text": folder / "audit.txt"}
        written["html"].write_text(html(report), encoding="utf-8")
        written["text"].write_text(text(report), encoding="utf-8")
    except OSError as problem:
        raise InputError(f"cannot write the audit to {folder} ({problem.strerror or problem}); choose another -o")
    return written
