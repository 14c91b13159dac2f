"""Rewrite the message sites of app/, engine/ and ai/ as `msg(template, name=value, ...)` calls
(engine/messages.py): the tool that made messages data, kept so that it can be run again on
files still written with f-string messages (a branch merged later):

    .venv/bin/python scripts/rewrite_messages.py [--check] [FILE ...]
    .venv/bin/ruff check --fix . && .venv/bin/ruff format .
    bash scripts/messages.sh    # new templates into the catalogs (then translate them)
    .venv/bin/mypy              # a detail still a str is refused: write it with msg by hand

It finds the places a message is made as tests/message_sites.py did (until messages became
msg calls): the detail argument of the error classes (Problem, EngineError and its
subclasses, ApiError, BadJSON, ValidationError) and of any function that passes one of its
`str` parameters on to such a place, followed until nothing new turns up; parts of sentences
(arguments named `what`/`why`, and those given for such parameters); returns of functions
whose every return is a message; local names bound to literal messages. Each string literal
or f-string found there becomes a `msg(...)` call, its template the catalog's msgid of the
same shape (app/locales/messages.pot, so that the translations are kept), else the f-string
with each value named after its expression; a parameter that carries a message on is
annotated `Msg`. It is idempotent (a msg call is left as it is). With FILE arguments only
those files are rewritten (the whole tree is still read, for the call graph); --check
rewrites nothing and says what it would do. What it cannot rewrite (a concatenation with a
call, a local message spliced into an f-string: one template per case) is listed, to be
written by hand, like the templates not yet in the catalog.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("app", "engine", "ai")
POT = ROOT / "app" / "locales" / "messages.pot"

ERROR_CLASSES: dict[str, tuple[int, str]] = {
    "Problem": (1, "detail"),
    "EngineError": (1, "detail"),
    "IllegalDecision": (1, "detail"),
    "SetupError": (1, "detail"),
    "ApiError": (2, "detail"),
    "BadJSON": (0, "detail"),
    "ValidationError": (0, "message"),
}
FRAGMENTS = ("why", "what")
PLACEMENT = {"placement_error": 2}  # functions returning (code, clause, detail)
MESSAGE_CALLS = ("msg", "template")  # already rewritten


@dataclass
class _Func:
    path: str
    node: ast.FunctionDef
    params: list[str]
    text: set[str]
    method: bool

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.path, self.name, self.node.lineno)


def _functions() -> list[_Func]:
    out = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            module = ast.FunctionDef(
                name="<module>",
                args=ast.arguments(
                    posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]
                ),
                body=tree.body,
                decorator_list=[],
                lineno=0,
            )
            out.append(_Func(rel, module, [], set(), False))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    params = [a.arg for a in node.args.posonlyargs + node.args.args]
                    method = bool(params) and params[0] in ("self", "cls")
                    if method:
                        params = params[1:]
                    text = {
                        a.arg
                        for a in node.args.posonlyargs + node.args.args
                        if a.annotation is not None and ast.unparse(a.annotation) in ("str", "Msg")
                    }
                    out.append(_Func(rel, node, params, text, method))
    return out


def _placeholder(v: ast.expr) -> str:
    e = v.value if isinstance(v, ast.FormattedValue) else v
    while True:
        if isinstance(e, ast.Name):
            return e.id
        if isinstance(e, ast.Attribute):
            return e.attr
        if isinstance(e, ast.Call) and e.args:
            e = e.args[0]
        elif isinstance(e, ast.Subscript):
            if isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, str):
                return e.slice.value
            e = e.value
        else:
            return "value"


def _body(f: ast.FunctionDef) -> list[ast.AST]:
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(f.body)
    while todo:
        node = todo.pop()
        out.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return out


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == keyword:
            return k.value
    if len(call.args) > index and not any(isinstance(a, ast.Starred) for a in call.args):
        return call.args[index]
    return None


def _is_message_call(e: ast.expr) -> bool:
    return isinstance(e, ast.Call) and _callee(e) in MESSAGE_CALLS


class _Reader:
    """Follows message expressions: which parameters carry a message on, which local names
    hold literal ones, which functions return one; `found` collects the expressions to
    rewrite, `unread` those it cannot."""

    def __init__(self, funcs: list[_Func]) -> None:
        self.by_name: dict[str, list[_Func]] = {}
        for f in funcs:
            self.by_name.setdefault(f.name, []).append(f)
        self.sinks: dict[tuple[str, str, int], tuple[int, str]] = {}
        self.fragments: dict[tuple[str, str, int], tuple[int, str]] = {}
        self._returns: dict[tuple[str, str, int], bool] = {}
        self.found: dict[tuple[str, int, int], tuple[str, ast.expr]] = {}
        self.unread: set[tuple[str, int, str]] = set()

    def _add(self, f: _Func, e: ast.expr) -> None:
        self.found[(f.path, e.lineno, e.col_offset)] = (f.path, e)

    def known(self, f: _Func) -> dict[str, list[ast.expr]]:
        """Local names whose every assignment is a message (literal, f-string, …)."""
        found: dict[str, list[ast.expr]] = {}
        spoiled: set[str] = set()
        for node in _body(f.node):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets = [node.target]
            for t in targets:
                if not isinstance(t, ast.Name):
                    continue
                value = getattr(node, "value", None)
                ok = (
                    value is not None
                    and not isinstance(node, ast.AugAssign)
                    and self.read(value, f, {}, carry=False, mark=False)
                )
                if ok and value is not None:
                    found.setdefault(t.id, []).append(value)
                else:
                    spoiled.add(t.id)
        return {k: v for k, v in found.items() if k not in spoiled}

    def read(
        self,
        e: ast.expr,
        f: _Func,
        known: dict[str, list[ast.expr]],
        carry: bool = True,
        mark: bool = True,
    ) -> bool:
        """Whether `e` is a message expression; with `mark`, its parts are noted for
        rewriting."""
        if _is_message_call(e):
            return True
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            if mark:
                self._add(f, e)
            return True
        if isinstance(e, ast.JoinedStr):
            for v in e.values:
                if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name):
                    name = v.value.id
                    if name in known:
                        if mark:
                            self.unread.add((f.path, e.lineno, "a local message spliced in"))
                    elif carry:
                        self.fragment(f, name)
            if mark:
                self._add(f, e)
            return True
        if isinstance(e, ast.IfExp):
            a = self.read(e.body, f, known, carry, mark)
            b = self.read(e.orelse, f, known, carry, mark)
            return a and b
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            if self._joined(e) is not None:
                if mark:
                    self._add(f, e)
                return True
            a = self.read(e.left, f, known, carry, False)
            b = self.read(e.right, f, known, carry, False)
            if a and b and mark:
                self.unread.add((f.path, e.lineno, "a concatenation"))
            return a and b
        if isinstance(e, (ast.List, ast.Tuple)):
            return all([self.read(x, f, known, carry, mark) for x in e.elts])
        if isinstance(e, ast.Dict):
            return all([self.read(x, f, known, carry, mark) for x in e.values])
        if isinstance(e, ast.Name):
            if e.id in known:
                if mark:
                    for v in known[e.id]:
                        self.read(v, f, {}, carry, True)
                return True
            if e.id in f.text and e.id in f.params and carry:
                self.sinks[f.key] = (f.params.index(e.id), e.id)
                return True
            return False
        if isinstance(e, ast.Call) and (callee := _callee(e)) is not None:
            target = self.resolve(callee, f.path)
            if target is not None:
                return self.returns(target, mark)
        return False

    @staticmethod
    def _joined(e: ast.expr) -> list[ast.expr] | None:
        """The literal and f-string parts of a concatenation, if that is all it is."""
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            a, b = _Reader._joined(e.left), _Reader._joined(e.right)
            return None if a is None or b is None else a + b
        if isinstance(e, ast.JoinedStr) or (
            isinstance(e, ast.Constant) and isinstance(e.value, str)
        ):
            return [e]
        return None

    def fragment(self, f: _Func, name: str) -> bool:
        if name in FRAGMENTS and name in f.text and name in f.params:
            self.fragments[f.key] = (f.params.index(name), name)
            return True
        return False

    def returns(self, f: _Func, mark: bool) -> bool:
        key = f.key
        if key not in self._returns:
            self._returns[key] = False
            rets = [n.value for n in _body(f.node) if isinstance(n, ast.Return)]
            known = self.known(f)
            self._returns[key] = bool(rets) and all(
                [r is not None and self.read(r, f, known, False, False) for r in rets]
            )
        if self._returns[key] and mark:
            known = self.known(f)
            for n in _body(f.node):
                if isinstance(n, ast.Return) and n.value is not None:
                    self.read(n.value, f, known, False, True)
        return self._returns[key]

    def resolve(self, name: str, path: str) -> _Func | None:
        funcs = self.candidates(name, path)
        return funcs[0] if len(funcs) == 1 else None

    def candidates(self, name: str, path: str, method: bool | None = None) -> list[_Func]:
        funcs = [f for f in self.by_name.get(name, []) if method is None or f.method == method]
        return [f for f in funcs if f.path == path] or funcs

    def carrier(
        self, call: ast.Call, path: str, table: dict[tuple[str, str, int], tuple[int, str]]
    ) -> tuple[int, str] | None:
        name = _callee(call) or ""
        method = isinstance(call.func, ast.Attribute)
        for f in self.candidates(name, path, method) or self.candidates(name, path):
            if f.key in table:
                return table[f.key]
        return None

    def sink_of(self, call: ast.Call, path: str) -> tuple[int, str] | None:
        name = _callee(call)
        if name is None:
            return None
        if name in ERROR_CLASSES:
            return ERROR_CLASSES[name]
        return self.carrier(call, path, self.sinks)

    def visit(self, f: _Func, mark: bool) -> None:
        known = self.known(f)
        args = f.node.args
        for a, default in [
            *zip(args.args[len(args.args) - len(args.defaults) :], args.defaults, strict=True),
            *zip(args.kwonlyargs, args.kw_defaults, strict=True),
        ]:
            if a.arg in FRAGMENTS and default is not None and not _empty(default):
                self.read(default, f, {}, carry=False, mark=mark)
        for node in _body(f.node):
            if isinstance(node, ast.Return) and f.name in PLACEMENT:
                if isinstance(node.value, ast.Tuple):
                    self.read(node.value.elts[PLACEMENT[f.name]], f, known, mark=mark)
                continue
            if isinstance(node, ast.Call) and _is_message_call(node):
                for kw in node.keywords:  # msg("… {why}", why=why): `why` a part of a sentence
                    if kw.arg in FRAGMENTS and isinstance(kw.value, ast.Name):
                        self.fragment(f, kw.value.id)
                continue
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                if kw.arg in FRAGMENTS and not _empty(kw.value):
                    self.read(kw.value, f, known, carry=False, mark=mark)
            frag = self.carrier(node, f.path, self.fragments)
            arg = _argument(node, *frag) if frag is not None else None
            if arg is not None and not (isinstance(arg, ast.Name) and self.fragment(f, arg.id)):
                self.read(arg, f, known, carry=False, mark=mark)
            sink = self.sink_of(node, f.path)
            if sink is not None and (arg := _argument(node, *sink)) is not None:
                self.read(arg, f, known, mark=mark)


def _empty(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and e.value == ""


def shape(text: str) -> str:
    return re.sub(r"\{\w*\}", "{}", text)


def catalog_templates() -> dict[str, str]:
    """The template's messages without context, by shape."""
    from babel.messages.pofile import read_po

    with POT.open("rb") as fh:
        pot = read_po(fh)
    return {shape(str(m.id)): str(m.id) for m in pot if m.id and not m.context}


def _value_source(v: ast.FormattedValue, src: str) -> str:
    text = ast.get_source_segment(src, v.value) or ast.unparse(v.value)
    if "\n" in text:
        text = ast.unparse(v.value)
    conv = {ord("r"): "repr", ord("s"): "str", ord("a"): "ascii"}.get(v.conversion)
    if conv:
        text = f"{conv}({text})"
    if v.format_spec is not None:
        spec = ast.unparse(v.format_spec)
        text = f"format({text}, {spec[1:]})" if spec.startswith("f") else f"format({text}, {spec})"
    return text


def rewrite(e: ast.expr, src: str, templates: dict[str, str], new: list[str]) -> str:
    """The `msg(...)` call that replaces a literal, an f-string or their concatenation."""
    parts = _Reader._joined(e) or []
    pieces: list[tuple[str, str | None]] = []  # (literal, None) or (placeholder, value source)
    for p in parts:
        if isinstance(p, ast.Constant):
            pieces.append((str(p.value), None))
            continue
        assert isinstance(p, ast.JoinedStr)
        for v in p.values:
            if isinstance(v, ast.Constant):
                pieces.append((str(v.value), None))
            else:
                assert isinstance(v, ast.FormattedValue)
                pieces.append((_placeholder(v), _value_source(v, src)))
    values = [(name, value) for name, value in pieces if value is not None]
    english = "".join(
        "{}" if v is not None else t.replace("{", "{{").replace("}", "}}") for t, v in pieces
    )
    if not values:
        return f"msg({literal(''.join(t for t, _ in pieces))})"
    msgid = templates.get(
        shape(english.replace("{{", "\0").replace("}}", "\1")).replace("\0", "{").replace("\1", "}")
    )
    names: list[str]
    if msgid is not None:
        names = re.findall(r"\{(\w+)\}", msgid)
    else:
        names, seen = [], set()
        for name, _ in values:
            n, i = name, 2
            while n in seen:
                n, i = f"{name}{i}", i + 1
            seen.add(n)
            names.append(n)
        it = iter(names)
        msgid = "".join(
            "{" + next(it) + "}" if v is not None else t.replace("{", "{{").replace("}", "}}")
            for t, v in pieces
        )
        new.append(msgid)
    if len(set(names)) != len(names):  # a placeholder twice: one value each time it is the same
        assert all(
            v == dict(zip(names, (x for _, x in values), strict=True))[n]
            for n, (_, v) in zip(names, values, strict=True)
        ), msgid
    args = dict(zip(names, (v for _, v in values), strict=True))
    kwargs = ", ".join(f"{k}={v}" for k, v in args.items())
    return f"msg({literal(msgid)}, {kwargs})"


PIECE = 76  # characters of a template's literal per line


def literal(text: str) -> str:
    """A string literal's source, split at spaces into implicitly concatenated pieces of
    about PIECE characters (ruff format lays them out one a line)."""
    if len(repr(text)) <= PIECE + 4:
        return repr(text)
    pieces, current = [], ""
    for word in re.split(r"(?<= )", text):
        if current and len(current) + len(word) > PIECE:
            pieces.append(current)
            current = ""
        current += word
    pieces.append(current)
    return "\n".join(repr(p) for p in pieces)  # inside the call's parentheses


def reflow(src: str) -> str:
    """`src` with each long one-line template of a msg() call split into pieces."""
    tree = ast.parse(src)
    lines = src.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) == "msg" and node.args:
            a = node.args[0]
            if (
                isinstance(a, ast.Constant)
                and isinstance(a.value, str)
                and a.lineno == a.end_lineno
                and (a.end_col_offset or 0) - a.col_offset > PIECE + 4
            ):
                start = _offset(lines, a.lineno, a.col_offset)
                end = _offset(lines, a.end_lineno, a.end_col_offset or 0)
                edits.append((start, end, literal(a.value)))
    for start, end, text in sorted(edits, reverse=True):
        src = src[:start] + text + src[end:]
    return src


def _sink_annotations(r: _Reader, funcs: list[_Func]) -> dict[str, list[ast.expr]]:
    """The `str` annotations of the parameters that carry a message on to an error."""
    out: dict[str, list[ast.expr]] = {}
    for f in funcs:
        if f.key not in r.sinks:
            continue
        name = r.sinks[f.key][1]
        for a in f.node.args.posonlyargs + f.node.args.args:
            if a.arg == name and a.annotation is not None and ast.unparse(a.annotation) == "str":
                out.setdefault(f.path, []).append(a.annotation)
    return out


def _offset(lines: list[str], line: int, col: int) -> int:
    """The character offset of a (1-based line, UTF-8 byte column) position."""
    before = sum(len(x) for x in lines[: line - 1])
    return before + len(lines[line - 1].encode("utf-8")[:col].decode("utf-8"))


def _add_import(src: str) -> str:
    """`src` importing msg (and Msg, when an annotation names it) from engine.messages."""
    names = {"msg"} | ({"Msg"} if re.search(r"\bMsg\b", src) else set())
    found = re.search(r"^from engine\.messages import (.+)$", src, re.M)
    if found is not None:
        have = {n.strip() for n in found[1].split(",")}
        line = f"from engine.messages import {', '.join(sorted(have | names))}"
        return src[: found.start()] + line + src[found.end() :]
    tree = ast.parse(src)
    last = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            last = node.end_lineno or node.lineno
        elif last:
            break
    lines = src.splitlines(keepends=True)
    line = f"from engine.messages import {', '.join(sorted(names))}\n"
    return "".join(lines[:last]) + line + "".join(lines[last:])


def main(argv: list[str]) -> int:
    check = "--check" in argv
    only = {Path(a).resolve().relative_to(ROOT).as_posix() for a in argv if a != "--check"}
    funcs = _functions()
    r = _Reader(funcs)
    while True:
        before = (len(r.sinks), len(r.fragments))
        for f in funcs:
            r.visit(f, mark=False)
        if (len(r.sinks), len(r.fragments)) == before:
            break
    for f in funcs:
        r.visit(f, mark=True)
    annotations = _sink_annotations(r, funcs)
    templates = catalog_templates()
    new: list[str] = []
    by_file: dict[str, list[ast.expr]] = {}
    for path, e in r.found.values():
        if not only or path in only:
            by_file.setdefault(path, []).append(e)
    for path in annotations:
        by_file.setdefault(path, [])
    for path, exprs in sorted(by_file.items()):
        if only and path not in only:
            continue
        file = ROOT / path
        src = file.read_text(encoding="utf-8")
        lines = src.splitlines(keepends=True)
        edits = []
        for a in annotations.get(path, []):  # a parameter that carries a message: Msg
            start = _offset(lines, a.lineno, a.col_offset)
            end = _offset(lines, a.end_lineno or a.lineno, a.end_col_offset or 0)
            edits.append((start, end, "Msg"))
        for e in exprs:
            if _empty(e):
                continue
            start = _offset(lines, e.lineno, e.col_offset)
            end = _offset(lines, e.end_lineno or e.lineno, e.end_col_offset or 0)
            edits.append((start, end, rewrite(e, src, templates, new)))
        edits.sort(reverse=True)
        for i, (start, end, text) in enumerate(edits):
            assert i + 1 == len(edits) or edits[i + 1][1] <= start, f"{path}: overlapping edits"
            src = src[:start] + text + src[end:]
        print(f"{path}: {len(edits)} message(s)")
        if not check:
            file.write_text(reflow(_add_import(src)), encoding="utf-8")
    for path, line, why in sorted(r.unread):
        if not only or path in only:
            print(f"{path}:{line}: to write by hand: {why}")
    for m in sorted(set(new)):
        print(f"not in messages.pot (run scripts/messages.sh, then translate): {m!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
