"""Mutants of a reference module: small, plausible bugs made with `ast`, each one source text.

A mutant changes one thing a student could get wrong: a comparison (`<` for `<=`), arithmetic
(`+` for `-`), an integer off by one, a boolean (`and` for `or`, a dropped `not`), a message's
text (a letter, a space, a newline) or the order of play (the branches of a conditional, the
test of an `if`/`while`, two statements swapped). The new text is spliced into the original
source over the changed expression only, so the diff shows one line and the comments stay;
each splice is parsed back and must give exactly the intended tree (parenthesised if it has to
be), else that mutant is not made.

Functions named in SKIP (argument parsing: a mutant there only breaks the command-line
contract the harness relies on, not the game), the spec's `rewrite` function (the harness
calls it in-process, never through the program) and module-level names only it reads, the
`if __name__ == "__main__"` block and docstrings are not mutated.
"""
import ast
import copy
import difflib
from dataclasses import dataclass, field

# Functions a mutant never touches: they read the command line (--seed, --start, --plan),
# which is the reference's contract with the harness, not what a student writes.
SKIP = frozenset({"main"})

CMP_SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
             ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
ARITH_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
               ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
BOOL_SWAPS = {ast.And: ast.Or, ast.Or: ast.And}
SYMBOLS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
           ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
           ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%", ast.And: "and", ast.Or: "or"}

# Operator families, as the report groups them.
OPERATORS = {
    "cmp": "comparison swapped", "arith": "arithmetic swapped", "int+1": "integer off by one (+1)",
    "int-1": "integer off by one (-1)", "bool-op": "and/or swapped", "not": "a `not` dropped",
    "true-false": "True/False swapped", "text-letter": "a letter of a message changed",
    "text-space-": "a space removed", "text-space+": "a space added", "text-newline-": "a newline removed",
    "text-newline+": "a newline added", "ifexp-swap": "branches of a conditional swapped",
    "if-negate": "an if/while test negated", "stmt-swap": "two statements swapped",
}


@dataclass(frozen=True)
class Mutant:
    """One mutant: a stable id (module:line:column:operator), what changed, and the new source."""
    id: str
    module: str  # the file's name as the report shows it
    line: int
    column: int
    end_line: int
    operator: str  # a key of OPERATORS
    description: str  # e.g. "`<` → `<=`"
    function: str | None  # the enclosing function, if any
    source: str = field(repr=False)  # the whole mutated module
    diff: str = field(repr=False)  # unified diff against the original

    @property
    def lines(self) -> range:
        return range(self.line, self.end_line + 1)


@dataclass
class _Site:
    """A node to change, where it sits in the tree, and how."""
    path: tuple  # (field, index-or-None) steps from the module to the node
    node: ast.AST
    new: ast.AST
    operator: str
    description: str
    function: str | None


def _children(node: ast.AST):
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield (name, index), item
        elif isinstance(value, ast.AST):
            yield (name, None), value


def _is_docstring(parent: ast.AST, node: ast.AST) -> bool:
    return (isinstance(parent, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and parent.body and isinstance(parent.body[0], ast.Expr) and parent.body[0].value is node)


def _letter_change(text: str) -> str | None:
    """The text with one letter changed: the last letter of its first word of two or more letters."""
    start = None
    for index, char in enumerate(text + " "):
        if char.isalpha() and start is None:
            start = index
        elif not char.isalpha() and start is not None:
            if index - start >= 2:
                old = text[index - 1]
                new = "a" if old.lower() != "a" else "e"
                return text[:index - 1] + (new.upper() if old.isupper() else new) + text[index:]
            start = None
    return None


def _text_variants(text: str) -> list[tuple[str, str, str]]:
    """(operator, new text, description) for a string constant: message text and whitespace."""
    out = []
    changed = _letter_change(text)
    if changed is not None:
        out.append(("text-letter", changed, f"{text!r} → {changed!r}"))
    if " " in text:
        at = text.index(" ")
        out.append(("text-space-", text[:at] + text[at + 1:], f"{text!r}: first space removed"))
        out.append(("text-space+", text[:at] + "  " + text[at + 1:], f"{text!r}: first space doubled"))
    if "\n" in text:
        at = text.index("\n")
        out.append(("text-newline-", text[:at] + text[at + 1:], f"{text!r}: first newline removed"))
    elif " " in text:
        out.append(("text-newline+", text + "\n", f"{text!r}: a newline added at the end"))
    return out


def _only_for_skipped(tree: ast.Module, skip: frozenset) -> tuple[frozenset, set[int]]:
    """The module-level functions, classes and assignments that only `skip` functions use,
    directly or through one another (the helpers of the spec's rewrite and state reader, a
    pattern only they read): (their names, the assignments' line numbers). Mutating them changes
    nothing a case can see, since the harness calls that code in-process, yet every case would
    reach an assignment."""
    readers: dict[str, set[str]] = {}
    for top in tree.body:
        where = top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else "<module>"
        for node in ast.walk(top):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                readers.setdefault(node.id, set()).add(where)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                readers.setdefault(node.attr, set()).add(where)

    def names_of(top) -> list[str]:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [top.name]
        if isinstance(top, (ast.Assign, ast.AnnAssign)):
            targets = top.targets if isinstance(top, ast.Assign) else [top.target]
            return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        return []

    only, lines = set(skip), set()
    changed = True
    while changed:
        changed = False
        for top in tree.body:
            names = names_of(top)
            if not names or set(names) <= only and not isinstance(top, (ast.Assign, ast.AnnAssign)):
                continue
            used = set().union(*(readers.get(n, set()) - set(names) for n in names))
            if used and used <= only and top.lineno not in lines:
                only |= set(names)
                if isinstance(top, (ast.Assign, ast.AnnAssign)):
                    lines.add(top.lineno)
                changed = True
    return frozenset(only), lines


def _sites(tree: ast.Module, skip: frozenset) -> list[_Site]:
    """Every change the operators can make, in source order."""
    found: list[_Site] = []
    # main's own names stay: main prints things a case sees (a usage message)
    helpers, unseen = _only_for_skipped(tree, skip - SKIP)
    skip = skip | helpers

    def visit(node, path, function, parent, in_format_spec):
        if isinstance(node, ast.stmt) and function is None and node.lineno in unseen:
            return
        if isinstance(node, ast.ClassDef) and function is None and node.name in skip:
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in skip:
                return
            function = node.name if function is None else f"{function}.{node.name}"
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) \
                and _is_docstring(parent, node.value):
            return
        if _main_guard(node):  # `if __name__ == "__main__":` only hands the command line to main
            return
        for site in _node_sites(node, path, function, in_format_spec):
            found.append(site)
        for step, child in _children(node):
            visit(child, path + (step,), function, node,
                  in_format_spec or (isinstance(node, ast.FormattedValue) and step[0] == "format_spec"))

    visit(tree, (), None, None, False)
    return found


def _main_guard(node) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def _node_sites(node, path, function, in_format_spec) -> list[_Site]:
    sites = []

    def add(new, operator, description):
        sites.append(_Site(path, node, new, operator, description, function))

    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            if type(op) in CMP_SWAPS:
                new = copy.deepcopy(node)
                new.ops[index] = CMP_SWAPS[type(op)]()
                which = f" (comparison {index + 1} of {len(node.ops)})" if len(node.ops) > 1 else ""
                add(new, "cmp", f"`{SYMBOLS[type(op)]}` → `{SYMBOLS[CMP_SWAPS[type(op)]]}`{which}")
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in ARITH_SWAPS:
        operands = [node.left, node.right] if isinstance(node, ast.BinOp) else [node.value]
        textual = any(isinstance(o, ast.JoinedStr) or isinstance(o, ast.Constant) and isinstance(o.value, str)
                      for o in operands)
        if not textual:  # "a" - b is a crash any case finds, not a plausible bug
            new = copy.deepcopy(node)
            new.op = ARITH_SWAPS[type(node.op)]()
            eq = "=" if isinstance(node, ast.AugAssign) else ""
            add(new, "arith", f"`{SYMBOLS[type(node.op)]}{eq}` → `{SYMBOLS[ARITH_SWAPS[type(node.op)]]}{eq}`")
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = BOOL_SWAPS[type(node.op)]()
        add(new, "bool-op", f"`{SYMBOLS[type(node.op)]}` → `{SYMBOLS[type(new.op)]}`")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        add(copy.deepcopy(node.operand), "not", "`not` dropped")
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        add(ast.Constant(not node.value), "true-false", f"`{node.value}` → `{not node.value}`")
    elif isinstance(node, ast.Constant) and isinstance(node.value, int):
        add(ast.Constant(node.value + 1), "int+1", f"`{node.value}` → `{node.value + 1}`")
        add(ast.Constant(node.value - 1), "int-1", f"`{node.value}` → `{node.value - 1}`")
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not in_format_spec:
        for operator, text, description in _text_variants(node.value):
            add(ast.Constant(text), operator, description)
    elif isinstance(node, ast.IfExp):
        new = copy.deepcopy(node)
        new.body, new.orelse = new.orelse, new.body
        add(new, "ifexp-swap", "`A if C else B` → `B if C else A`")
    elif isinstance(node, (ast.If, ast.While)):
        negated = ast.UnaryOp(ast.Not(), copy.deepcopy(node.test))
        sites.append(_Site(path + (("test", None),), node.test, negated, "if-negate",
                           f"`{'if' if isinstance(node, ast.If) else 'while'} C` → `… not (C)`", function))
    return sites


def _dump_with(tree: ast.Module, path: tuple, new: ast.AST) -> str:
    """The dump of the top-level statement holding the node at `path`, with that node replaced
    (and put back afterwards: no copy of the tree)."""
    parent = tree
    for name, index in path[:-1]:
        parent = getattr(parent, name) if index is None else getattr(parent, name)[index]
    name, index = path[-1]
    holder = parent if index is None else getattr(parent, name)
    old = getattr(holder, name) if index is None else holder[index]
    try:
        if index is None:
            setattr(holder, name, new)
        else:
            holder[index] = new
        return ast.dump(tree.body[path[0][1]])
    finally:
        if index is None:
            setattr(holder, name, old)
        else:
            holder[index] = old


def _offsets(source: str) -> list[int]:
    """The character offset at which each line starts (1-based lines; ast columns are UTF-8 bytes)."""
    starts, total = [0, 0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def _char_col(source_lines: list[str], line: int, byte_col: int) -> int:
    return len(source_lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", "replace"))


def _splice(source: str, lines: list[str], starts: list[int], node: ast.AST, text: str) -> str:
    begin = starts[node.lineno] + _char_col(lines, node.lineno, node.col_offset)
    end = starts[node.end_lineno] + _char_col(lines, node.end_lineno, node.end_col_offset)
    return source[:begin] + text + source[end:]


def _diff(module: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        f"a/{module}", f"b/{module}", n=1))


def _statement_swaps(tree: ast.Module, source: str, skip: frozenset) -> list[tuple]:
    """Pairs of neighbouring simple statements, each on whole lines of its own, in a function body."""
    pairs, seen = [], set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.name in skip:
            continue
        for block in ast.walk(function):
            for name in ("body", "orelse", "finalbody"):
                statements = getattr(block, name, None)
                if not isinstance(statements, list):
                    continue
                for first, second in zip(statements, statements[1:]):
                    simple = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
                    if isinstance(first, simple) and isinstance(second, simple) and first.end_lineno < second.lineno \
                            and not _is_docstring(block, getattr(first, "value", None)) \
                            and (first.lineno, second.lineno) not in seen:
                        seen.add((first.lineno, second.lineno))
                        pairs.append((function.name, first, second))
    return pairs


def generate(source: str, module: str, skip=SKIP) -> list[Mutant]:
    """Every mutant of `source` (the text of `module`), in source order, ids unique."""
    skip = frozenset(skip)
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = _offsets(source)
    made: list[Mutant] = []
    seen: set[str] = set()

    def keep(text, top, line, column, end_line, operator, description, function, expected_dump):
        """Keep the mutant if its top-level statement parses back to exactly the intended tree
        (only that statement is parsed: the rest of the text is the original's)."""
        statement = tree.body[top]
        first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
        segment = text[starts[first]:starts[statement.end_lineno + 1] + len(text) - len(source)]
        try:
            parsed = ast.parse(segment).body
        except SyntaxError:
            return False
        if len(parsed) != 1 or ast.dump(parsed[0]) != expected_dump:
            return False
        base = f"{module}:{line}:{column}:{operator}"
        mutant_id, n = base, 2
        while mutant_id in seen:  # two changes of one operator at one place (a chained comparison)
            mutant_id, n = f"{base}#{n}", n + 1
        seen.add(mutant_id)
        made.append(Mutant(mutant_id, module, line, column, end_line, operator, description, function, text,
                           _diff(module, source, text)))
        return True

    for site in _sites(tree, skip):
        expected = _dump_with(tree, site.path, site.new)
        replacement = ast.unparse(site.new)
        node = site.node
        for text in (replacement, f"({replacement})"):
            if keep(_splice(source, lines, starts, node, text), site.path[0][1], node.lineno, node.col_offset,
                    node.end_lineno, site.operator, site.description, site.function, expected):
                break
    for function, first, second in _statement_swaps(tree, source, skip | _only_for_skipped(tree, skip - SKIP)[0]):
        a = "".join(lines[first.lineno - 1:first.end_lineno])
        b = "".join(lines[second.lineno - 1:second.end_lineno])
        between = "".join(lines[first.end_lineno:second.lineno - 1])
        indent_a = len(a) - len(a.lstrip(" "))
        indent_b = len(b) - len(b.lstrip(" "))
        if indent_a != indent_b or not a.endswith("\n") or not b.endswith("\n"):
            continue
        text = "".join(lines[:first.lineno - 1]) + b + between + a + "".join(lines[second.end_lineno:])
        holder = _holder(tree, first)
        if text == source or holder is None:
            continue
        top = next(i for i, s in enumerate(tree.body) if s.lineno <= first.lineno <= s.end_lineno)
        index = holder.index(first)
        holder[index], holder[index + 1] = second, first
        try:
            expected = ast.dump(tree.body[top])
        finally:
            holder[index], holder[index + 1] = first, second
        keep(text, top, first.lineno, first.col_offset, second.end_lineno, "stmt-swap",
             f"lines {first.lineno} and {second.lineno} swapped", function, expected)
    made.sort(key=lambda m: (m.line, m.column, m.operator, m.id))
    return made


def _holder(tree: ast.Module, statement: ast.stmt) -> list | None:
    """The statement list of `tree` in which `statement` is followed by another."""
    for block in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            statements = getattr(block, name, None)
            if isinstance(statements, list) and any(s is statement for s in statements[:-1]):
                return statements
    return None
