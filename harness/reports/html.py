"""The HTML report: rubric, build output, and every case turn by turn, side by side."""
import re

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

FOLD_LINES = 12  # equal turns longer than this are folded


def whitespace(text: str | None) -> Markup:
    """Escape, then make invisible characters visible: trailing spaces, tabs, CR, a missing final newline."""
    if text is None:
        return Markup('<span class="absent">(no such turn)</span>')
    out = []
    for line in re.split(r"(?<=\n)", text):
        body, newline = (line[:-1], "\n") if line.endswith("\n") else (line, "")
        stripped = body.rstrip(" ")
        trail = len(body) - len(stripped)
        piece = str(escape(stripped)).replace("\t", '<span class="ws">→</span>').replace("\r", '<span class="ws">␍</span>')
        piece += '<span class="ws">·</span>' * trail
        out.append(piece + ('<span class="ws">↵</span>\n' if newline else ""))
    return Markup("".join(out))


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("harness", "templates"), autoescape=select_autoescape(["html", "j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["ws"] = whitespace
    env.filters["lines"] = lambda text: (text or "").count("\n")
    return env


def render(data: dict) -> str:
    return _environment().get_template("report.html.j2").render(r=data, fold=FOLD_LINES)
