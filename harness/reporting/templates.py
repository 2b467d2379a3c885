"""The one Jinja environment every page is rendered with: this package's templates/, HTML
autoescaped (a program's output and a file's name are untrusted), made once a process so a
template is compiled once (about 20 ms each) and kept."""
import functools

from jinja2 import Environment, PackageLoader, select_autoescape


@functools.cache
def environment() -> Environment:
    """The pages' environment; a page's own filters are added by the module that renders it,
    before its template is first loaded."""
    return Environment(loader=PackageLoader("harness.reporting", "templates"), autoescape=select_autoescape(["html", "j2"]),
                       trim_blocks=True, lstrip_blocks=True)
