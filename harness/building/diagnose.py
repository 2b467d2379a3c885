"""Point at the cause of a failed build: the compiler's first error (not the tail of its log,
where warnings and follow-on errors bury it) and a one-line hint for the non-portable
constructs student programs bring from other compilers and IDEs.
"""
import re

_ERROR_LINES = [
    # g++ and javac: file:line[:column]: [fatal ]error: message
    re.compile(r"^(?P<loc>[^\s:][^:\n]*:\d+(?::\d+)?): (?:fatal )?error: (?P<msg>.+)$", re.M),
    # the linker: file.cpp:(.text+0x1c): undefined reference to `f()'
    re.compile(r"^(?P<loc>[^\s:][^:\n]*):\(\.\w+[^)]*\): (?P<msg>(?:undefined reference|multiple definition).+)$", re.M),
    re.compile(r"^(?P<loc>)(?P<msg>.*\berror\b.*)$", re.M | re.I),
]

_CPP_HINTS = [
    (re.compile(r"\bvoid\s+main\s*\("), None,
     "`void main()` is accepted by Visual C++ only: standard C++ (and g++) needs `int main()`"),
    (re.compile(r'#\s*include\s*[<"]\s*stdafx\.h\s*[>"]', re.I), None,
     "stdafx.h is Visual Studio's precompiled header: remove `#include \"stdafx.h\"`"),
    (re.compile(r"#\s*include\s*<\s*conio\.h\s*>|\b_?getche?\s*\("), None,
     "<conio.h> and _getch() exist on Windows only: read input with std::cin or getchar()"),
    (re.compile(r"\b(?:long\s+long|long\s+double|unsigned\s+(?:long\s+long|long|int|short|char)|signed\s+char)\s*\("),
     re.compile(r"expected primary-expression before '(?:long|unsigned|signed)'"),
     "a cast like `long long(x)` names a two-word type, which only Visual C++ accepts: "
     "write `(long long)(x)` or `static_cast<long long>(x)`"),
]
_PAUSE = re.compile(r'\bsystem\s*\(\s*"pause"\s*\)')
_MISSING_INCLUDE = re.compile(r"note: '(?P<name>[\w:]+)' is defined in header '<(?P<header>[\w./]+)>'; "
                              r"(?:did you forget|this is probably fixable by adding)")
_FORGOT_INCLUDE = re.compile(r"did you forget to '#include <(?P<header>[\w./]+)>'")
# Names a program often uses without their header, which other compilers' headers pull in.
_HEADERS = {
    "iomanip": ("setw", "setprecision", "setfill", "put_time", "quoted"),
    "cmath": ("sqrt", "pow", "floor", "ceil", "fabs", "round"),
    "cstdlib": ("rand", "srand", "exit", "atoi", "abs", "system"),
    "ctime": ("time", "clock"),
    "cstring": ("strlen", "strcpy", "strcmp", "strcat", "memset"),
    "string": ("string", "getline", "to_string", "stoi"),
    "algorithm": ("sort", "max", "min", "swap", "reverse", "find", "count"),
    "limits": ("numeric_limits",),
    "sstream": ("stringstream", "istringstream", "ostringstream"),
}
_UNDECLARED = re.compile(r"error: '(?:std::)?(\w+)' (?:was not declared in this scope|is not a member of 'std')")
_JAVA_PUBLIC = re.compile(r"class (\w+) is public, should be declared in a file named (\w+\.java)")
_JAVA_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)


def _blank(text: str) -> str:
    return "".join("\n" if ch == "\n" else " " for ch in text)


def _string_end(text: str, start: int) -> int:
    """Past the closing quote of the string literal opened at `start`, or -1 (a line ends first)."""
    at = start + 1
    while at < len(text):
        ch = text[at]
        if ch == "\\":
            at += 2
        elif ch == '"':
            return at + 1
        elif ch == "\n":
            return -1
        else:
            at += 1
    return -1


def strip_comments(text: str, strings: bool = True) -> str:
    """C-like comments (and string literals unless `strings` is False) blanked, lines kept.
    Plain string code in one pass: a student's source is hostile text (a run of unclosed `/*`
    made the regular expression this replaces quadratic: 20,000 of them took 4 s)."""
    out, at, unclosed_from = [], 0, len(text) + 1  # no `*/` at or after unclosed_from
    while at < len(text):
        slash, quote = text.find("/", at), text.find('"', at)
        nxt = min(i for i in (slash, quote, len(text)) if i >= 0)
        out.append(text[at:nxt])
        if nxt == len(text):
            break
        end = -1
        if text[nxt] == '"':
            end = _string_end(text, nxt)
            if end >= 0:
                out.append(_blank(text[nxt:end]) if strings else text[nxt:end])
        elif text.startswith("//", nxt):
            end = text.find("\n", nxt)
            end = len(text) if end < 0 else end
            out.append(_blank(text[nxt:end]))
        elif text.startswith("/*", nxt) and nxt + 2 < unclosed_from:
            close = text.find("*/", nxt + 2)
            if close < 0:
                unclosed_from = nxt + 2
            else:
                end = close + 2
                out.append(_blank(text[nxt:end]))
        if end < 0:  # no comment or literal starts here: the character stays
            out.append(text[nxt])
            end = nxt + 1
        at = end
    return "".join(out)


def _plain(log: str) -> str:
    """g++ quotes with ‘ ’ in a UTF-8 locale: plain quotes, so messages read the same anywhere."""
    return log.replace("\u2018", "'").replace("\u2019", "'")


def files_in_error(log: str) -> set[str]:
    """The files the compiler reported an error in."""
    return {m["loc"].split(":")[0] for m in _ERROR_LINES[0].finditer(_plain(log))}


def first_error(log: str) -> str:
    """The first error the compiler or linker reported, with its place; "" if none."""
    log = _plain(log)
    for pattern in _ERROR_LINES:
        match = pattern.search(log)
        if match:
            line = (f"{match['loc']}: error: {match['msg'].strip()}" if match["loc"] else match["msg"].strip())
            after = [text.strip() for text in log[match.end():].split("\n")[1:5]]
            symbol = next((text for text in after if text.startswith("symbol:")), None)
            return line + (f" ({' '.join(symbol.split())})" if symbol and "cannot find symbol" in line else "")
    return ""


def hints(language: str, log: str, sources: dict[str, str]) -> list[str]:
    """One line per non-portable construct found in the sources or named by the compiler."""
    found, log = [], _plain(log)
    code = {name: strip_comments(text, strings=False) for name, text in sources.items()}
    if language == "cpp":
        for pattern, in_log, message in _CPP_HINTS:
            where = _where(pattern, code)
            if where and (in_log is None or in_log.search(log)):
                found.append(f"{where}: {message}")
        for match in _MISSING_INCLUDE.finditer(log):
            found.append(f"add `#include <{match['header']}>`: g++ says {match['name']} is declared there "
                         "(other compilers may include it through another header)")
        if not any("#include" in line and "add" in line for line in found):
            for header in dict.fromkeys(m["header"] for m in _FORGOT_INCLUDE.finditer(log)):
                found.append(f"add `#include <{header}>` (g++ suggests it)")
        for name in dict.fromkeys(m[1] for m in _UNDECLARED.finditer(log)):
            header = next((h for h, names in _HEADERS.items() if name in names), None)
            if header and not any(f"<{header}>" in line for line in found):
                found.append(f"add `#include <{header}>`: {name} is declared there "
                             "(other compilers' headers may include it for you)")
        where = _where(_PAUSE, code)
        if where:
            found.append(f"{where}: system(\"pause\") waits for a key on Windows only; here it prints "
                         "`sh: 1: pause: not found` and the program goes on (a note, not an error)")
    if language == "java":
        for match in _JAVA_PUBLIC.finditer(log):
            found.append(f"the public class {match[1]} must be in a file named {match[1]}.java (letter case counts): "
                         "rename the class or the file")
        packages = sorted({m[1] for text in code.values() for m in _JAVA_PACKAGE.finditer(text)})
        if packages and re.search(r"cannot find symbol|package [\w.]+ does not exist|is not public in", log):
            found.append(f"the sources declare package {', '.join(packages)}: a class in another package "
                         "(or in the default package, as the course's files are) needs an import or the same package")
    return list(dict.fromkeys(found))


def _where(pattern: re.Pattern, code: dict[str, str]) -> str:
    for name, text in code.items():
        match = pattern.search(text)
        if match:
            return f"{name}:{text.count(chr(10), 0, match.start()) + 1}"
    return ""


def diagnose(language: str, log: str, sources: dict[str, str], failed: bool) -> str:
    """The first error (for a failed build) and the hints, one per line."""
    lines = [first_error(log)] if failed else []
    return "\n".join(line for line in lines + hints(language, log, sources) if line)
