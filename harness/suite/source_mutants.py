"""Mutants of a compiled reference (Java or C++), made on its source text.

There is no syntax tree to lean on here, so the source is cut into tokens first (comments,
string and character literals, text blocks, raw strings and preprocessor lines are tokens of
their own and never changed), and each operator changes one token or one statement:
- `cmp`: `<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=` (the angle brackets of a generic or a template
  are not comparisons and are left alone);
- `arith`: `+` ↔ `-`, `*` ↔ `/`, `%` → `*`, and their compound assignments (binary only: a
  sign or a pointer's star is not arithmetic; a `+` joining a string literal is not either);
- `int+1`, `int-1`: a decimal integer literal off by one;
- `if-negate`: `if (C)` / `while (C)` → `if (!(C))`;
- `stmt-del`: an expression statement deleted (a call, an assignment, an increment), never a
  declaration, a brace, a `return`/`break`, nor the body of a braceless `if`/`for`/`while`.
The keys and descriptions are those of the Python operators (`mutants.OPERATORS`), so a report
groups both kinds the same way. A mutant that does not compile is the audit's to find out
("not viable"): the operators only avoid the changes that can never compile or mean nothing.

Not mutated: the lines the reference marks as its own, as a Python reference does
(`// audit: reference-only` on a statement's first line or on the line above it: that
statement, a whole method when it is a method's; the lines between `// audit: begin
reference-only` and `// audit: end reference-only`): the seed and start flags the harness
passes, never what the handout's program does.
"""
import difflib
import re
from dataclasses import dataclass

from harness import languages
from harness.suite.mutants import Mutant, between_markers

MARKER = re.compile(r"//\s*audit:\s*reference-only\b")
BEGIN = re.compile(r"//\s*audit:\s*begin\s+reference-only\b")
END = re.compile(r"//\s*audit:\s*end\s+reference-only\b")

CMP_SWAPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITH_SWAPS = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*",
               "+=": "-=", "-=": "+=", "*=": "/=", "/=": "*=", "%=": "*="}
ASSIGNMENTS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="})
# Keywords after which a `(` is no call and a `{` no function body.
CONTROL = frozenset({"if", "while", "for", "switch", "catch", "synchronized", "try", "else", "do", "return", "new",
                     "sizeof", "throw", "case", "assert", "typeid", "decltype", "alignof", "noexcept", "static_assert"})
# Words that end an operand (an operator after them is binary).
OPERAND_WORDS = frozenset({"this", "true", "false", "null", "nullptr", "super"})
# Words that start no expression statement (a declaration, a jump, a label).
KEYWORDS = frozenset({
    "abstract", "assert", "auto", "bool", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "extends", "extern",
    "final", "finally", "float", "for", "friend", "goto", "if", "implements", "import", "inline", "instanceof",
    "int", "interface", "long", "mutable", "namespace", "native", "new", "operator", "package", "private",
    "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "strictfp", "struct",
    "switch", "synchronized", "template", "throw", "throws", "transient", "try", "typedef", "typename", "union",
    "unsigned", "using", "var", "virtual", "void", "volatile", "while", "yield", "record", "sealed"})
# What may follow the name an expression statement starts with (else the statement declares).
EXPRESSION_FOLLOWERS = ASSIGNMENTS | {"(", "[", "++", "--", "<<", ">>", "->", "."}

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<text>"{3}.*?(?:"{3}|\Z))
  | (?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)"|(?:u8|[uUL])?R"[^\n]*)
  | (?P<string>(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*"?)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.]|'(?=[0-9A-Za-z]))*)
  | (?P<char>(?:u8|[uUL])?'(?:[^'\\\n]|\\.)*'?)
  | (?P<name>[A-Za-z_$][A-Za-z_$0-9]*)
  | (?P<op>>>>=|<<=|>>=|>>>|->\*|\.\.\.|::|\+\+|--|->|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=?|.)
""", re.S | re.X)


@dataclass(frozen=True)
class Token:
    kind: str  # space | comment | text | raw | string | number | char | name | op | pre (a preprocessor line)
    text: str
    start: int  # character offset in the source
    line: int
    column: int

    @property
    def code(self) -> bool:
        return self.kind not in ("space", "comment", "pre")

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def tokens(source: str, language: str) -> list[Token]:
    """The source cut into tokens, every character in exactly one (joined, they give it back);
    a C++ preprocessor line (with its continuations) is one token."""
    out: list[Token] = []
    at, line, line_start = 0, 1, 0
    while at < len(source):
        if language == "cpp" and source[at] == "#" and not source[line_start:at].strip():
            end = at
            while True:
                end = source.find("\n", end)
                if end == -1:
                    end = len(source)
                elif source[end - 1] == "\\":
                    end += 1
                    continue
                break
            kind, text = "pre", source[at:end]
        else:
            match = _TOKEN.match(source, at)
            kind = "raw" if match.group("raw") else match.lastgroup
            text = match.group(0)
        out.append(Token(kind, text, at, line, at - line_start))
        if "\n" in text:
            line += text.count("\n")
            line_start = at + text.rindex("\n") + 1
        at += len(text)
    return out


# --- what a token means here --------------------------------------------------------------

def _matching(code: list[Token], index: int, opening: str, closing: str) -> int | None:
    """The index (in `code`) of the bracket closing the one at `index`."""
    depth = 0
    for at in range(index, len(code)):
        if code[at].text == opening:
            depth += 1
        elif code[at].text == closing:
            depth -= 1
            if depth == 0:
                return at
    return None


def _angles(code: list[Token]) -> set[int]:
    """The indexes of `<`, `>` and `>>` tokens that bracket type arguments (generics, templates):
    a `<` after a name whose tokens up to a matching close are only type-like words."""
    found: set[int] = set()
    for index, token in enumerate(code):
        if token.text != "<" or index == 0 or code[index - 1].kind != "name" and code[index - 1].text != "template":
            continue
        depth, inside = 1, [index]
        for at in range(index + 1, min(len(code), index + 80)):
            t = code[at]
            if t.text == "<":
                depth += 1
            elif t.text in (">", ">>", ">>>"):
                depth -= len(t.text)
            elif not (t.kind in ("name", "number") or t.text in (",", ".", "::", "?", "&", "*", "[", "]")):
                break
            inside.append(at)
            if depth <= 0:
                if depth == 0:
                    found.update(i for i in inside if code[i].text in ("<", ">", ">>", ">>>"))
                break
    return found


def _operand_end(token: Token | None) -> bool:
    """Whether an operator after this token is binary (the token ends an operand)."""
    if token is None:
        return False
    if token.kind in ("number", "string", "char", "text", "raw"):
        return True
    if token.kind == "name":
        return token.text not in KEYWORDS or token.text in OPERAND_WORDS
    return token.text in (")", "]", "++", "--")


def _functions(code: list[Token]) -> list[tuple[int, int, str]]:
    """(open index, close index, name) of each function or method body: a `{` after a
    parameter list `NAME(...)` (and `const`, `override`, `noexcept`, `throws X, Y`)."""
    found = []
    for index, token in enumerate(code):
        if token.text != "{":
            continue
        at = index - 1
        while at >= 0 and (code[at].kind == "name" and code[at].text in ("const", "override", "noexcept", "final")):
            at -= 1
        if at >= 0 and code[at].kind == "name":  # throws A, B
            back = at
            while back >= 0 and (code[back].kind == "name" and code[back].text != "throws"
                                 or code[back].text in (",", ".")):
                back -= 1
            if back >= 0 and code[back].text == "throws":
                at = back - 1
        if at < 1 or code[at].text != ")":
            continue
        depth, opening = 0, None
        for back in range(at, -1, -1):
            depth += {")": 1, "(": -1}.get(code[back].text, 0)
            if depth == 0:
                opening = back
                break
        if opening is None or opening == 0:
            continue
        name = code[opening - 1]
        if name.kind != "name" or name.text in CONTROL or name.text in KEYWORDS:
            continue
        if opening >= 2 and code[opening - 2].text == "new":
            continue  # an anonymous class
        close = _matching(code, index, "{", "}")
        if close is not None:
            found.append((index, close, name.text))
    return found


def _marked(source: str, code: list[Token]) -> set[int]:
    """The lines the reference marks as its own: the statement (or method) starting on a
    MARKER line, or on the line after a comment-only MARKER line; the lines between BEGIN and END."""
    lines = source.splitlines()
    marked = between_markers(lines, BEGIN, END)
    for number, line in enumerate(lines, 1):
        if not MARKER.search(line):
            continue
        target = number + 1 if line.strip().startswith("//") else number
        first = next((i for i, t in enumerate(code) if t.line >= target), None)
        if first is None:
            continue
        last = first
        for at in range(first, len(code)):
            last = at
            if code[at].text == ";":
                break
            if code[at].text == "{":
                last = _matching(code, at, "{", "}") or len(code) - 1
                break
        marked.update(range(code[first].line, code[last].line + 1))
    return marked


# --- the operators --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Change:
    start: int  # character offsets replaced
    end: int
    text: str | None  # None: the condition negated around start..end
    line: int
    column: int
    end_line: int
    operator: str
    description: str


def _token_changes(code: list[Token], index: int, angles: set[int]) -> list[_Change]:
    token = code[index]
    before = code[index - 1] if index else None
    after = code[index + 1] if index + 1 < len(code) else None
    out = []

    def change(text, operator, description):
        out.append(_Change(token.start, token.end, text, token.line, token.column, token.line, operator, description))

    if token.kind == "op" and token.text in CMP_SWAPS and index not in angles \
            and not (before is not None and before.text == "operator"):
        change(CMP_SWAPS[token.text], "cmp", f"`{token.text}` → `{CMP_SWAPS[token.text]}`")
    if token.kind == "op" and token.text in ARITH_SWAPS and _operand_end(before) \
            and not (before is not None and before.text == "operator"):
        strings = ("string", "text", "raw")
        if not (token.text in ("+", "+=") and (before.kind in strings or after is not None and after.kind in strings)):
            change(ARITH_SWAPS[token.text], "arith", f"`{token.text}` → `{ARITH_SWAPS[token.text]}`")
    if token.kind == "number" and re.fullmatch(r"[0-9]+[lLuU]{0,3}", token.text) \
            and not (after is not None and after.text == "." and after.kind == "op"):
        digits = re.match(r"[0-9]+", token.text).group(0)
        suffix = token.text[len(digits):]
        if len(digits) == 1 or digits[0] != "0":  # 017 is octal in C++ and Java
            value = int(digits)
            for operator, new in (("int+1", value + 1), ("int-1", value - 1)):
                text = f"{new}{suffix}" if new >= 0 else f"({new}{suffix})"
                change(text, operator, f"`{token.text}` → `{new}{suffix}`")
    return out


def _negations(code: list[Token]) -> list[_Change]:
    """`if (C)` / `while (C)` → `if (!(C))` (not a C++17 `if (init; C)`)."""
    out = []
    for index, token in enumerate(code):
        if token.kind != "name" or token.text not in ("if", "while") or index + 1 >= len(code) \
                or code[index + 1].text != "(":
            continue
        close = _matching(code, index + 1, "(", ")")
        if close is None or close == index + 2:
            continue
        inner = code[index + 2:close]
        depth = 0
        split = False
        for t in inner:
            depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(t.text, 0)
            split = split or (depth == 0 and t.text == ";")
        if split:
            continue
        first, last = code[index + 2], code[close - 1]
        out.append(_Change(first.start, last.end, None, first.line, first.column, last.line, "if-negate",
                           f"`{token.text} (C)` → `{token.text} (!(C))`"))
    return out


def _qualified_end(code: list[Token], at: int) -> int:
    """The index after a name chain `a.b.c` / `a::b` starting at `at`."""
    at += 1
    while at + 1 < len(code) and code[at].text in (".", "::") and code[at + 1].kind == "name":
        at += 2
    return at


def _expression_statement(code: list[Token], start: int, end: int) -> bool:
    """Tokens start..end (the `;`) make an expression statement, not a declaration: a call, an
    assignment, an increment, a stream operation."""
    first = code[start]
    if first.text in ("++", "--"):
        return code[start + 1].kind == "name"
    if first.kind != "name" or first.text in KEYWORDS and first.text not in ("this", "super"):
        return False
    after = _qualified_end(code, start)
    if after > end:
        return False
    follower = code[after]
    if follower.text == "[":  # `x[i] = ...` but not `int[] xs = ...`
        return after + 1 <= end and code[after + 1].text != "]"
    return follower.text in EXPRESSION_FOLLOWERS


def _deletions(source: str, code: list[Token]) -> list[_Change]:
    """Each expression statement removed (the statement's text, with the rest of its line when
    nothing else is on it), where a statement may stand: after `;`, `{`, `}` or a label's `:`."""
    out = []
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    depth = 0
    for index, token in enumerate(code):
        if token.text in ("(", "["):
            depth += 1
        elif token.text in (")", "]"):
            depth -= 1
        if depth != 0:
            continue
        before = code[index - 1] if index else None
        if before is not None and before.text not in (";", "{", "}", ":"):
            continue
        if before is not None and before.text == ":" and index >= 3 and code[index - 3].text == "?":
            continue
        end, level = None, 0
        for at in range(index, len(code)):
            text = code[at].text
            if text == "{" and level == 0:
                break  # an initializer or a body: not one simple statement
            if text in ("(", "[", "{"):
                level += 1
            elif text in (")", "]", "}"):
                level -= 1
                if level < 0:
                    break
            elif text == ";" and level == 0:
                end = at
                break
        if end is None or not _expression_statement(code, index, end):
            continue
        last = code[end]
        begin, finish = token.start, last.end
        line_begin = starts[token.line - 1]
        line_end = starts[last.line]
        rest = source[finish:line_end]
        if not source[line_begin:begin].strip() and (not rest.strip() or rest.strip().startswith("//")):
            begin, finish = line_begin, line_end  # the whole line(s)
        shown = re.sub(r"\s+", " ", source[token.start:last.end])
        shown = shown if len(shown) <= 50 else shown[:47] + "..."
        out.append(_Change(begin, finish, "", token.line, token.column, last.line, "stmt-del",
                           f"line {token.line} deleted: `{shown}`"))
    return out


def _diff(module: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        f"a/{module}", f"b/{module}", n=1))


def language_of(name: str) -> str | None:
    """java or cpp for a source file's name, None for a file the operators do not read."""
    found = languages.by_suffix(name)
    return found.name if found and found.source_mutants else None


def generate(source: str, module: str, language: str | None = None) -> list[Mutant]:
    """Every mutant of `source` (the text of the file `module`), in source order, ids unique, no
    two with the same text; a mutant's lines are those it changes."""
    language = language or language_of(module) or "java"
    every = tokens(source, language)
    code = [t for t in every if t.code]
    marked = _marked(source, code)
    angles = _angles(code)
    functions = _functions(code)
    changes: list[_Change] = []
    for index in range(len(code)):
        changes += _token_changes(code, index, angles)
    changes += _negations(code)
    changes += _deletions(source, code)
    made: list[Mutant] = []
    seen: set[str] = set()
    texts = {source}
    for change in sorted(changes, key=lambda c: (c.line, c.column, c.operator)):
        if marked.intersection(range(change.line, change.end_line + 1)):
            continue
        if change.operator == "if-negate":
            text = source[:change.start] + "!(" + source[change.start:change.end] + ")" + source[change.end:]
        else:
            text = source[:change.start] + change.text + source[change.end:]
        if text in texts:
            continue
        texts.add(text)
        base = f"{module}:{change.line}:{change.column}:{change.operator}"
        mutant_id, n = base, 2
        while mutant_id in seen:
            mutant_id, n = f"{base}#{n}", n + 1
        seen.add(mutant_id)
        function = next((name for open_, close, name in reversed(functions)
                         if code[open_].start <= change.start < code[close].end), None)
        made.append(Mutant(mutant_id, module, change.line, change.column, change.end_line, change.operator,
                           change.description, function, text, _diff(module, source, text)))
    made.sort(key=lambda m: (m.line, m.column, m.operator, m.id))
    return made
