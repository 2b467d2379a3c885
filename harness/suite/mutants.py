"""Mutants of a reference module: small, plausible bugs made with `ast`, each one source text.

A mutant changes one thing a student could get wrong, modelled on the bugs students make:
- a comparison (`<` for `<=`), arithmetic (`+` for `-`), an integer off by one, a range or a
  membership off by one (`range(n)` for `range(n + 1)`, `x in S` for `x in S[:-1]`);
- a boolean: `and` for `or`, a dropped `not`, a dropped `and`/`or` term, a condition negated or
  dropped (`if C:` as `if True:`, the test of a conditional expression or a comprehension filter
  left out);
- a statement deleted (a forgotten update of the state), two neighbouring statements or blocks
  swapped, the branches of an `if`/`elif` chain in the other order (a special case checked after
  the general one);
- names and arguments of the same type swapped (`grid[col][row]`, `mine` for `other`,
  `f(row, col)` for `f(col, row)`), an element dropped from a literal list, tuple, set or string
  of choices, or the first or last element of a list comprehension (one case of several left out);
- a message's text: a letter, a space, a newline, its letter case, its punctuation.
The new text is spliced into the original source over the changed part only, so the diff shows
what changed and the comments stay; each splice is parsed back and must give exactly the
intended tree (parenthesised if it has to be), else that mutant is not made; two operators
that make the same text make one mutant.

Not mutated: code the reference marks as its own (`# audit: reference-only` on a statement's
first line or on the line above it: the statement with everything in it, a whole function for
a `def`; or the lines between `# audit: begin reference-only` and `# audit: end
reference-only`): the --seed/--start/--start-file/--plan parsing the harness relies on, never
what the handout's program does. Also the functions the caller names in `skip` (the spec's
`rewrite`, state reader and law, which the harness calls in-process) with the module-level names
only they use, the `if __name__ == "__main__"` block and docstrings.
"""
import ast
import copy
import difflib
import re
from dataclasses import dataclass, field

# No function is left alone by its name: the reference marks its own code (MARKER).
SKIP = frozenset()
MARKER = re.compile(r"#\s*audit:\s*reference-only\b")
BEGIN = re.compile(r"#\s*audit:\s*begin\s+reference-only\b")
END = re.compile(r"#\s*audit:\s*end\s+reference-only\b")

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
    "int-1": "integer off by one (-1)", "range": "a range off by one", "member": "a membership off by one",
    "bool-op": "and/or swapped", "not": "a `not` dropped", "term-drop": "an and/or term dropped",
    "true-false": "True/False swapped", "text-letter": "a letter of a message changed",
    "text-space-": "a space removed", "text-space+": "a space added", "text-newline-": "a newline removed",
    "text-newline+": "a newline added", "text-case": "a text's letter case changed",
    "text-punct": "a text's punctuation dropped", "ifexp-swap": "branches of a conditional swapped",
    "if-negate": "an if/while test negated", "cond-drop": "a condition dropped",
    "stmt-del": "a statement deleted", "stmt-swap": "two statements swapped",
    "branch-swap": "if/elif branches reordered", "name-swap": "a name swapped for another of its type",
    "arg-swap": "two arguments of the same type swapped", "index-swap": "two indexes swapped",
    "elem-drop": "an element dropped from a literal or a comprehension",
}
PUNCTUATION = "!?.,:;'\"()-"
# Calls whose argument order means nothing or is not the program's (a swap is no bug, or no program).
_ORDERLESS = frozenset({"max", "min", "print", "isinstance", "getattr", "setattr", "hasattr", "range", "zip", "sum",
                        "sorted", "set", "frozenset", "dict", "list", "tuple", "str", "int", "super", "format"})


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
    statement: int = 0  # the first line of the statement it is in (a tracer reports a statement there)

    @property
    def lines(self) -> frozenset:
        """The lines it changes, and the first line of their statement: a line inside a literal
        that spans lines (a table) executes as its statement's first line."""
        return frozenset(range(self.line, self.end_line + 1)) | ({self.statement} if self.statement else frozenset())


@dataclass
class _Site:
    """A node to change, where it sits in the tree, and how; `text` is the new source when the
    change is not a splice of `new` over `node` (blocks moved by lines)."""
    path: tuple  # (field, index-or-None) steps from the module to the node
    node: ast.AST
    new: ast.AST
    operator: str
    description: str
    function: str | None
    text: str | None = None
    end_line: int | None = None
    at: ast.AST | None = None  # where the change starts, when not at `node`


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


def _case_change(text: str) -> str | None:
    """A text with upper-case letters in lower case; one without, its first letter in upper case."""
    if any(c.isupper() for c in text):
        return text.lower()
    for index, char in enumerate(text):
        if char.isalpha():
            return text[:index] + char.upper() + text[index + 1:]
    return None


def _text_variants(text: str) -> list[tuple[str, str, str]]:
    """(operator, new text, description) for a string constant: message text and whitespace."""
    out = []
    changed = _letter_change(text)
    if changed is not None:
        out.append(("text-letter", changed, f"{text!r} → {changed!r}"))
    cased = _case_change(text)
    if cased is not None and cased != text:
        out.append(("text-case", cased, f"{text!r} → {cased!r}"))
    marks = [i for i, c in enumerate(text) if c in PUNCTUATION]
    for at in sorted({marks[-1], marks[0]} if marks else set(), reverse=True):
        out.append(("text-punct", text[:at] + text[at + 1:], f"{text!r}: {text[at]!r} dropped"))
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


def between_markers(lines: list[str], begin: re.Pattern, end: re.Pattern) -> set[int]:
    """The line numbers from each line matching `begin` to the next matching `end`, both included
    (the reference's own blocks, whatever its language's comment syntax)."""
    marked: set[int] = set()
    start = None
    for number, line in enumerate(lines, 1):
        if begin.search(line):
            start = number
        elif end.search(line) and start is not None:
            marked.update(range(start, number + 1))
            start = None
    return marked


def _marked(source: str, tree: ast.Module) -> set[int]:
    """The lines of the code the reference marks as its own: a statement whose first line (or
    the line above it) carries MARKER, with everything in it; the lines between BEGIN and END."""
    lines = source.splitlines()
    marked = between_markers(lines, BEGIN, END)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            above = lines[first - 2].strip() if first >= 2 else ""
            if MARKER.search(lines[node.lineno - 1]) or MARKER.search(lines[first - 1]) \
                    or above.startswith("#") and MARKER.search(above):
                marked.update(range(first, node.end_lineno + 1))
    return marked


def _only_for_skipped(tree: ast.Module, skip: frozenset, marked: set[int] = frozenset()) -> tuple[frozenset, set[int]]:
    """The module-level functions, classes and assignments that only `skip` functions use,
    directly or through one another (the helpers of the spec's rewrite and state reader, a
    pattern only they read): (their names, the assignments' line numbers). Mutating them changes
    nothing a case can see, since the harness calls that code in-process, yet every case would
    reach an assignment."""
    readers: dict[str, set[str]] = {}
    for top in tree.body:
        # who reads a name: a function or class by its name, a module-level assignment by the names
        # it gives (`_GLYPHS = _BLACK | _WHITE`: only what reads _GLYPHS reads them), else the module
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            wheres = {top.name}
        elif isinstance(top, (ast.Assign, ast.AnnAssign)):
            targets = top.targets if isinstance(top, ast.Assign) else [top.target]
            wheres = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)} or {"<module>"}
        else:
            wheres = {"<module>"}
        for node in ast.walk(top):
            reader = {"<marked>"} if getattr(node, "lineno", None) in marked else wheres
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                readers.setdefault(node.id, set()).update(reader)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                readers.setdefault(node.attr, set()).update(reader)

    def names_of(top) -> list[str]:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [top.name]
        if isinstance(top, (ast.Assign, ast.AnnAssign)):
            targets = top.targets if isinstance(top, ast.Assign) else [top.target]
            return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        return []

    only, lines = set(skip) | {"<marked>"}, set()
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
    return frozenset(only - {"<marked>"}), lines


# --- what a name holds: enough to swap names and arguments of one type --------------------

def _annotation(node) -> str | None:
    return ast.unparse(node) if node is not None else None


class _Types:
    """The type of each name, where the source says it: annotations, literals, loop counters,
    calls of the module's annotated functions; a name given two types has none."""
    INT_CALLS = frozenset({"int", "len", "find", "index", "count", "next_int", "randint", "ord", "abs"})

    def __init__(self, tree: ast.Module):
        self.returns = {f.name: _annotation(f.returns) for f in ast.walk(tree)
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.returns is not None}
        self.params = {f.name: [_annotation(a.annotation) for a in f.args.posonlyargs + f.args.args]
                       for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.methods = {f.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        # module constants given together (`EMPTY, BLACK, WHITE = ".", "●", "○"`): one type, one group
        self.groups: dict[str, list[str]] = {}
        for top in tree.body:
            if isinstance(top, ast.Assign) and len(top.targets) == 1 and isinstance(top.targets[0], ast.Tuple) \
                    and isinstance(top.value, ast.Tuple) and len(top.value.elts) == len(top.targets[0].elts):
                pairs = [(t.id, v) for t, v in zip(top.targets[0].elts, top.value.elts)
                         if isinstance(t, ast.Name) and isinstance(v, ast.Constant)]
                for kind in {type(v.value) for _, v in pairs}:
                    names = [n for n, v in pairs if type(v.value) is kind]
                    for name in names if len(names) > 1 else []:
                        self.groups[name] = names

    def of(self, node, env: dict) -> str | None:
        if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
            return type(node.value).__name__
        if isinstance(node, ast.Name):
            return env.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.of(node.operand, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
            kinds = {self.of(node.left, env), self.of(node.right, env)} - {None}
            return "int" if kinds == {"int"} else None
        if isinstance(node, ast.IfExp):
            kinds = {self.of(node.body, env), self.of(node.orelse, env)} - {None}
            return kinds.pop() if len(kinds) == 1 else None
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else None
            if name in self.INT_CALLS:
                return "int"
            if isinstance(node.func, ast.Name):
                return self.returns.get(name)
        return None

    def env(self, function: ast.FunctionDef) -> dict[str, tuple[str, int]]:
        """name -> (type, the line it is first given) for the function's parameters and locals."""
        given: dict[str, set] = {}
        first: dict[str, int] = {}
        for arg in function.args.posonlyargs + function.args.args + function.args.kwonlyargs:
            if arg.arg not in ("self", "cls"):
                given.setdefault(arg.arg, set()).add(_annotation(arg.annotation))
                first.setdefault(arg.arg, function.lineno)
        flat = {}
        for _ in range(2):  # a local typed from another local: two passes
            flat = {n: next(iter(k)) for n, k in given.items() if len(k) == 1 and None not in k}
            for node in ast.walk(function):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not function:
                    continue
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name = node.targets[0].id
                    given.setdefault(name, set()).add(self.of(node.value, flat))
                    first[name] = min(first.get(name, node.lineno), node.lineno)
                elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                    given.setdefault(node.target.id, set())
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    given.setdefault(node.target.id, set()).add(_annotation(node.annotation))
                    first[node.target.id] = min(first.get(node.target.id, node.lineno), node.lineno)
                elif isinstance(node, (ast.For, ast.comprehension)):
                    target = node.target
                    iterator = node.iter
                    counted = isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Name) \
                        and iterator.func.id in ("range", "enumerate")
                    names = [target] if isinstance(target, ast.Name) else \
                        target.elts[:1] if isinstance(target, ast.Tuple) and counted and iterator.func.id == "enumerate" \
                        else []
                    for n in names:
                        if isinstance(n, ast.Name):
                            given.setdefault(n.id, set()).add("int" if counted else None)
                            first[n.id] = min(first.get(n.id, getattr(node, "lineno", function.lineno)),
                                              getattr(node, "lineno", function.lineno))
                    if isinstance(target, ast.Tuple) and not (counted and iterator.func.id == "enumerate"):
                        for n in target.elts:
                            if isinstance(n, ast.Name):
                                given.setdefault(n.id, set()).add(None)
        return {n: (next(iter(k)), first.get(n, function.lineno)) for n, k in given.items()
                if len(k) == 1 and None not in k and n != "_"}


def _sites(tree: ast.Module, source: str, skip: frozenset) -> list[_Site]:
    """Every change the operators can make, in source order."""
    found: list[_Site] = []
    marked = _marked(source, tree)
    helpers, unseen = _only_for_skipped(tree, skip - SKIP, marked)
    skip = skip | helpers
    types = _Types(tree)
    lines = source.splitlines(keepends=True)

    def visit(node, path, function, parent, in_format_spec, env, assigned):
        if isinstance(node, ast.stmt) and function is None and node.lineno in unseen:
            return
        if isinstance(node, ast.stmt) and marked.issuperset(range(node.lineno, node.end_lineno + 1)):
            return
        if isinstance(node, ast.ClassDef) and function is None and node.name in skip:
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in skip:
                return
            function = node.name if function is None else f"{function}.{node.name}"
            env = types.env(node)
            assigned = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) \
                and _is_docstring(parent, node.value):
            return
        if _main_guard(node):  # `if __name__ == "__main__":` only hands the command line to main
            return
        if function is not None:
            found.extend(_node_sites(node, path, function, parent, in_format_spec, types, env, assigned))
            found.extend(_block_sites(node, path, function, lines, marked))
        elif isinstance(node, ast.expr):  # module level: the game's tables and texts, not its flow
            found.extend(s for s in _node_sites(node, path, function, parent, in_format_spec, types, {}, set())
                         if s.operator not in ("name-swap",))
        for step, child in _children(node):
            visit(child, path + (step,), function, node,
                  in_format_spec or (isinstance(node, ast.FormattedValue) and step[0] == "format_spec"), env, assigned)

    visit(tree, (), None, None, False, {}, set())
    return found


def _main_guard(node) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def _is_int_const(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool)


def _plus(node, n: int) -> ast.AST:
    return ast.BinOp(copy.deepcopy(node), ast.Add() if n > 0 else ast.Sub(), ast.Constant(abs(n)))


def _node_sites(node, path, function, parent, in_format_spec, types: _Types, env: dict, assigned: set) -> list[_Site]:
    sites = []

    def add(new, operator, description, where=None, at=None):
        sites.append(_Site(path + (where or ()), at or node, new, operator, description, function))

    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            if type(op) in CMP_SWAPS:
                new = copy.deepcopy(node)
                new.ops[index] = CMP_SWAPS[type(op)]()
                which = f" (comparison {index + 1} of {len(node.ops)})" if len(node.ops) > 1 else ""
                add(new, "cmp", f"`{SYMBOLS[type(op)]}` → `{SYMBOLS[CMP_SWAPS[type(op)]]}`{which}")
            # membership off by one: the last or the first choice of a named sequence left out
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(node.comparators[index], (ast.Name, ast.Attribute)):
                where = ast.unparse(node.comparators[index])
                for cut, words in ((ast.Slice(None, ast.UnaryOp(ast.USub(), ast.Constant(1))), "its last"),
                                   (ast.Slice(ast.Constant(1), None), "its first")):
                    new = copy.deepcopy(node)
                    new.comparators[index] = ast.Subscript(copy.deepcopy(node.comparators[index]), cut, ast.Load())
                    add(new, "member", f"`{SYMBOLS[type(op)]} {where}` without {words} element")
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
        for index, value in enumerate(node.values):
            rest = [copy.deepcopy(v) for i, v in enumerate(node.values) if i != index]
            new = rest[0] if len(rest) == 1 else ast.BoolOp(type(node.op)(), rest)
            add(new, "term-drop", f"`{SYMBOLS[type(node.op)]}` term {index + 1} of {len(node.values)} dropped: "
                                  f"`{_short(value)}`")
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
        # a string of choices (`answer[0] in "yY"`): one of them left out
        if isinstance(parent, ast.Compare) and node in parent.comparators \
                and isinstance(parent.ops[parent.comparators.index(node)], (ast.In, ast.NotIn)) \
                and 2 <= len(node.value) <= 12:
            for index in range(len(node.value)):
                text = node.value[:index] + node.value[index + 1:]
                add(ast.Constant(text), "elem-drop", f"{node.value!r} → {text!r}")
    elif isinstance(node, ast.IfExp):
        new = copy.deepcopy(node)
        new.body, new.orelse = new.orelse, new.body
        add(new, "ifexp-swap", "`A if C else B` → `B if C else A`")
        add(copy.deepcopy(node.body), "cond-drop", "`A if C else B` → `A`")
    elif isinstance(node, (ast.If, ast.While)):
        negated = ast.UnaryOp(ast.Not(), copy.deepcopy(node.test))
        kind = "if" if isinstance(node, ast.If) else "while"
        add(negated, "if-negate", f"`{kind} C` → `… not (C)`", (("test", None),), node.test)
        if isinstance(node, ast.If):
            add(ast.Constant(True), "cond-drop", "`if C` → `if True` (the check left out)", (("test", None),), node.test)
    elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        for g, generator in enumerate(node.generators):
            for i, test in enumerate(generator.ifs):
                new = copy.deepcopy(node)
                del new.generators[g].ifs[i]
                add(new, "cond-drop", f"comprehension filter `if {_short(test)}` dropped")
        if isinstance(node, ast.ListComp):
            for cut, words in ((ast.Slice(ast.Constant(1), None), "first"),
                               (ast.Slice(None, ast.UnaryOp(ast.USub(), ast.Constant(1))), "last")):
                add(ast.Subscript(copy.deepcopy(node), cut, ast.Load()), "elem-drop", f"the comprehension's {words} "
                                                                                         "element dropped")
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and isinstance(getattr(node, "ctx", ast.Load()), ast.Load) \
            and 2 <= len(node.elts) <= 16 and not any(isinstance(e, ast.Starred) for e in node.elts) \
            and _droppable(node, parent):
        for index, element in enumerate(node.elts):
            new = copy.deepcopy(node)
            del new.elts[index]
            add(new, "elem-drop", f"element {index + 1} of {len(node.elts)} dropped: `{_short(element)}`")
    elif isinstance(node, ast.Dict) and 2 <= len(node.keys) <= 16 and None not in node.keys:
        for index, key in enumerate(node.keys):
            new = copy.deepcopy(node)
            del new.keys[index], new.values[index]
            add(new, "elem-drop", f"entry `{_short(key)}` dropped")

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
            and 1 <= len(node.args) <= 2 and not node.keywords:
        last = node.args[-1]
        if not _is_int_const(last):  # constants are already off by one
            for n in (1, -1):
                new = copy.deepcopy(node)
                new.args[-1] = _plus(last, n)
                add(new, "range", f"`{_short(node)}` → `{ast.unparse(new)}`")
        if len(node.args) == 1:
            new = copy.deepcopy(node)
            new.args = [ast.Constant(1), copy.deepcopy(last)]
            add(new, "range", f"`{_short(node)}` → `{ast.unparse(new)}`")
        elif not _is_int_const(node.args[0]):
            new = copy.deepcopy(node)
            new.args[0] = _plus(node.args[0], 1)
            add(new, "range", f"`{_short(node)}` → `{ast.unparse(new)}`")
    if isinstance(node, ast.Call) and len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args):
        callee = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else None
        declared = types.params.get(callee) if isinstance(node.func, ast.Name) else None
        if isinstance(node.func, ast.Attribute) and callee in types.methods and callee in types.params:
            declared = types.params[callee][1:]
        flat = {n: k for n, (k, _) in env.items()}
        if callee not in _ORDERLESS:
            for i in range(len(node.args) - 1):
                a, b = node.args[i], node.args[i + 1]
                same = declared is not None and len(declared) > i + 1 and declared[i] is not None \
                    and declared[i] == declared[i + 1]
                same = same or (types.of(a, flat) is not None and types.of(a, flat) == types.of(b, flat))
                if same and ast.dump(a) != ast.dump(b) and not (_is_int_const(a) and _is_int_const(b)):
                    new = copy.deepcopy(node)
                    new.args[i], new.args[i + 1] = new.args[i + 1], new.args[i]
                    add(new, "arg-swap", f"arguments {i + 1} and {i + 2} of `{callee}` swapped: "
                                         f"`{_short(a)}`, `{_short(b)}`")
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript) \
            and not isinstance(node.slice, (ast.Slice, ast.Constant)) \
            and not isinstance(node.value.slice, (ast.Slice, ast.Constant)) \
            and ast.dump(node.slice) != ast.dump(node.value.slice):
        new = copy.deepcopy(node)
        new.slice, new.value.slice = new.value.slice, new.slice
        add(new, "index-swap", f"`{_short(node)}` → `{ast.unparse(new)}`")
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and not _callee(node, parent):
        other = None
        if node.id in env:
            kind, _ = env[node.id]
            peers = sorted((line, name) for name, (k, line) in env.items()
                           if k == kind and name != node.id and line <= node.lineno)
            other = peers[-1][1] if peers else None
        elif node.id in types.groups and node.id not in assigned:
            group = [n for n in types.groups[node.id] if n not in assigned]
            if node.id in group and len(group) > 1:
                other = group[(group.index(node.id) + 1) % len(group)]
        if other is not None:
            add(ast.Name(other, ast.Load()), "name-swap", f"`{node.id}` → `{other}`")
    return sites


def _callee(node, parent) -> bool:
    return isinstance(parent, ast.Call) and parent.func is node


def _droppable(node, parent) -> bool:
    """A literal whose element a student could leave out: not a tuple packed for a format, a
    return, an unpacking or an index, where dropping one is a crash, not a bug."""
    if isinstance(parent, (ast.List, ast.Tuple, ast.Set)):
        return False  # one pair of a table of pairs: the table's element is what a student drops
    if not isinstance(node, ast.Tuple):
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod):
        return False
    if isinstance(parent, ast.Assign) and not all(isinstance(t, ast.Name) for t in parent.targets):
        return False  # `a, b = x, y`
    if isinstance(parent, (ast.Return, ast.Subscript, ast.AugAssign, ast.Yield)):
        return False
    return all(isinstance(e, (ast.Constant, ast.Tuple, ast.UnaryOp)) for e in node.elts)


def _short(node) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" "))]


def _whole_lines(node, lines: list[str]) -> bool:
    """The statement stands on lines of its own (nothing before it on its first line)."""
    return lines[node.lineno - 1][:node.col_offset].strip() == ""


def _block_sites(node, path, function, lines, marked) -> list[_Site]:
    """Statement-level changes inside a function: deleted statements, neighbouring statements or
    blocks swapped, the branches of an if/elif chain reordered."""
    sites = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if not isinstance(block, list) or not block or not isinstance(block[0], ast.stmt):
            continue
        for index, statement in enumerate(block):
            if statement.lineno in marked or _is_docstring(node, getattr(statement, "value", None)):
                continue
            deletable = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Break, ast.Continue, ast.If,
                         ast.For, ast.While)
            if isinstance(statement, deletable) and not (isinstance(statement, ast.Expr)
                                                         and isinstance(statement.value, ast.Constant)) \
                    and _whole_lines(statement, lines) and not (len(block) == 1 and isinstance(node, ast.FunctionDef)):
                sites.append(_Site(path + ((name, index),), statement, ast.Pass(), "stmt-del",
                                   f"line {statement.lineno} deleted: `{_short_stmt(statement, lines)}`", function))
            if index + 1 < len(block):
                second = block[index + 1]
                if second.lineno in marked or isinstance(statement, (ast.Return, ast.Raise, ast.Break, ast.Continue,
                                                                     ast.FunctionDef, ast.ClassDef, ast.Global,
                                                                     ast.Nonlocal, ast.Import, ast.ImportFrom)):
                    continue
                if isinstance(second, (ast.FunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal)):
                    continue
                site = _swap_site(node, name, index, path, function, lines)
                if site:
                    sites.append(site)
    if isinstance(node, ast.If) and len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If) \
            and lines[node.orelse[0].lineno - 1].lstrip().startswith("elif"):
        site = _branch_site(node, path, function, lines)
        if site:
            sites.append(site)
    return sites


def _short_stmt(statement, lines) -> str:
    text = lines[statement.lineno - 1].strip()
    return text if len(text) <= 50 else text[:47] + "..."


def _swap_site(holder, name, index, path, function, lines) -> _Site | None:
    block = getattr(holder, name)
    first, second = block[index], block[index + 1]
    if not (_whole_lines(first, lines) and _whole_lines(second, lines)) or first.end_lineno >= second.lineno:
        return None
    a = "".join(lines[first.lineno - 1:first.end_lineno])
    b = "".join(lines[second.lineno - 1:second.end_lineno])
    between = "".join(lines[first.end_lineno:second.lineno - 1])
    if _indent(a) != _indent(b) or not a.endswith("\n") or not b.endswith("\n"):
        return None
    text = "".join(lines[:first.lineno - 1]) + b + between + a + "".join(lines[second.end_lineno:])
    new = copy.copy(holder)
    swapped = list(block)
    swapped[index], swapped[index + 1] = second, first
    setattr(new, name, swapped)
    return _Site(path, holder, new, "stmt-swap", f"lines {first.lineno} and {second.lineno} swapped", function,
                 text=text, end_line=second.end_lineno, at=first)


def _branch_site(node: ast.If, path, function, lines) -> _Site | None:
    """`if A: X elif B: Y` → `if B: Y elif A: X` (the rest of the chain kept)."""
    second = node.orelse[0]
    if not all(_whole_lines(s, lines) for s in node.body + second.body):
        return None
    head_a = lines[node.lineno - 1]
    if node.test.lineno != node.lineno or node.test.end_lineno != node.lineno or \
            second.test.lineno != second.lineno or second.test.end_lineno != second.lineno:
        return None  # a test over several lines
    if node.body[0].lineno == node.lineno or second.body[0].lineno == second.lineno:
        return None  # a body on its header's line
    test_a, test_b = ast.get_source_segment("".join(lines), node.test), ast.get_source_segment("".join(lines), second.test)
    indent = _indent(head_a)
    body_a = "".join(lines[node.body[0].lineno - 1:node.body[-1].end_lineno])
    body_b = "".join(lines[second.body[0].lineno - 1:second.body[-1].end_lineno])
    between_a = "".join(lines[node.body[-1].end_lineno:second.lineno - 1])  # blank lines or comments
    if test_a is None or test_b is None or between_a.strip():
        return None
    region = f"{indent}if {test_b}:\n{body_b}{indent}elif {test_a}:\n{body_a}"
    end = second.body[-1].end_lineno
    text = "".join(lines[:node.lineno - 1]) + region + "".join(lines[end:])
    inner = ast.If(copy.deepcopy(node.test), node.body, second.orelse)
    new = ast.If(copy.deepcopy(second.test), second.body, [inner])
    return _Site(path, node, new, "branch-swap", f"branches `if {_cut(test_a)}` and `elif {_cut(test_b)}` "
                                                 "in the other order", function, text=text, end_line=end)


def _cut(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "..."


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


def _statement_line(tree: ast.Module, path: tuple) -> int:
    """The first line of the innermost statement on `path` (0 if none)."""
    node, found = tree, 0
    for name, index in path:
        node = getattr(node, name) if index is None else getattr(node, name)[index]
        if isinstance(node, ast.stmt):
            found = node.lineno
    return found


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


def generate(source: str, module: str, skip=SKIP) -> list[Mutant]:
    """Every mutant of `source` (the text of `module`), in source order, ids unique, no two
    with the same text."""
    skip = frozenset(skip)
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = _offsets(source)
    made: list[Mutant] = []
    seen: set[str] = set()
    texts: set[str] = {source}

    marked = _marked(source, tree)

    def keep(text, top, line, column, end_line, operator, description, function, expected_dump, starts_at=0):
        """Keep the mutant if its top-level statement parses back to exactly the intended tree
        (only that statement is parsed: the rest of the text is the original's)."""
        if marked.intersection(range(line, end_line + 1)):
            return True  # it touches code the reference marks as its own
        if text in texts:
            return text != source  # the same program as a mutant made already (or the reference)
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
        texts.add(text)
        made.append(Mutant(mutant_id, module, line, column, end_line, operator, description, function, text,
                           _diff(module, source, text), starts_at if starts_at < line else 0))
        return True

    for site in _sites(tree, source, skip):
        expected = _dump_with(tree, site.path, site.new)
        node = site.node
        if site.text is not None:
            at = site.at or node
            keep(site.text, site.path[0][1], at.lineno, at.col_offset, site.end_line or node.end_lineno,
                 site.operator, site.description, site.function, expected)
            continue
        replacement = ast.unparse(site.new)
        statement = _statement_line(tree, site.path)
        for text in (replacement, f"({replacement})"):
            if keep(_splice(source, lines, starts, node, text), site.path[0][1], node.lineno, node.col_offset,
                    node.end_lineno, site.operator, site.description, site.function, expected, statement):
                break
    made.sort(key=lambda m: (m.line, m.column, m.operator, m.id))
    return made
