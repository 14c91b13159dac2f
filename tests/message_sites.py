"""Every message a client can read in a problem's `title` or `detail`, found in the code.

The reader walks app/, engine/ and ai/ (ast) for the places a message is made: the detail
argument of the error classes (Problem, EngineError and its subclasses, ApiError, BadJSON,
marshmallow's ValidationError) and of any function or method that passes one of its
parameters on to such a place (`r.bad(code, detail, …)`, `_refuse(…)`, `tampered(…)`), found
by following parameters until nothing new turns up. A message expression is read as the
shapes it can take, each value written "{}": a literal, an f-string, a conditional, a
concatenation, a local name bound to literals, a call of a function whose every return is
such an expression. An expression read no further (a detail handed on from another error)
must be listed in PASSED_ON with the reason: a new message site is therefore either read,
and must then have a translation, or makes the test that uses this module fail.

marshmallow writes messages of its own (a field's "Not a valid integer.", a validator's
"Must be one of: {choices}."): those are read from the schemas themselves, every field of
every Schema subclass the app defines.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("app", "engine", "ai")

# callee name -> (position of the detail among the arguments, its keyword name)
ERROR_CLASSES: dict[str, tuple[int, str]] = {
    "Problem": (1, "detail"),
    "EngineError": (1, "detail"),
    "IllegalDecision": (1, "detail"),
    "SetupError": (1, "detail"),
    "ApiError": (2, "detail"),
    "BadJSON": (0, "detail"),
    "ValidationError": (0, "message"),
}

# (file, function, expression) whose text was written elsewhere, and why that is enough
PASSED_ON: dict[tuple[str, str, str], str] = {
    ("engine/setup_fields.py", "setup_catalog", "e.detail"): "ENGINE",
    ("engine/errors.py", "add_problems_of", "p.detail"): "ENGINE",
    ("engine/fora_de_prumo/api.py", "validate", "e.detail"): "ENGINE",
    ("engine/fora_de_prumo/api.py", "_placement", "detail"): "placement_error's third item "
    "(PLACEMENT below)",
    ("engine/architectura/api.py", "validate", "e.detail"): "ENGINE",
    ("engine/architectura/api.py", "parse_decision", "p.detail"): "parse_cell's problem",
    ("engine/protocol.py", "apply_logged", "e.detail"): "ENGINE",
    ("app/notation.py", "expand", "e.detail"): "ENGINE",
    ("app/record.py", "record", "err['detail']"): "ENGINE",
    ("app/history.py", "_verify_decision", "e.detail"): "ENGINE",
    ("app/errors.py", "from_engine", "e.detail"): "ENGINE",
    ("app/errors.py", "_bad_json", "e.detail"): "a BadJSON's detail, read where it was written",
}
PASSED_ON = {
    k: {"ENGINE": "another engine error's detail, read where it was written"}.get(v, v)
    for k, v in PASSED_ON.items()
}
# parameters that carry part of a sentence into a message ("unknown {what}field …"): the
# arguments given for them are messages too; any other value put into a message is a value
# (a card, a number, a field's name) and is kept as it is
FRAGMENTS = ("why", "what")
# functions returning (code, clause, detail): the detail is the tuple's third item
PLACEMENT = {"placement_error": 2}


@dataclass
class Site:
    path: str
    function: str
    line: int
    shapes: list[str]


@dataclass
class Found:
    messages: dict[str, list[Site]] = field(default_factory=dict)  # shape -> where
    unread: list[tuple[str, str, int, str]] = field(default_factory=list)
    passed: set[tuple[str, str, str]] = field(default_factory=set)  # PASSED_ON entries met

    def add(self, site: Site) -> None:
        for s in site.shapes:
            self.messages.setdefault(s, []).append(site)


@dataclass
class _Func:
    path: str
    node: ast.FunctionDef
    params: list[str]  # positional parameters, without self / cls
    text: set[str]  # the parameters annotated `str`: those may carry a message on
    method: bool  # its first parameter is self or cls

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
            # the module's own code (class bodies included) read as one more function
            top = ast.FunctionDef(
                name="<module>",
                args=ast.arguments(
                    posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]
                ),
                body=tree.body,
                decorator_list=[],
                lineno=0,
            )
            out.append(_Func(rel, top, [], set(), False))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    params = [a.arg for a in node.args.posonlyargs + node.args.args]
                    method = bool(params) and params[0] in ("self", "cls")
                    if method:
                        params = params[1:]
                    text = {
                        a.arg
                        for a in node.args.posonlyargs + node.args.args
                        if a.annotation is not None and ast.unparse(a.annotation) == "str"
                    }
                    out.append(_Func(rel, node, params, text, method))
    return out


def _placeholder(v: ast.expr) -> str:
    """A name for the value an f-string puts in a message (the catalog's {placeholder})."""
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


def _body(f: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function, without those of the functions defined inside it."""
    todo: list[ast.AST] = list(f.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


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


class _Reader:
    """Reads message expressions; collects the parameters that carry a message on."""

    def __init__(self, funcs: list[_Func]) -> None:
        self.by_name: dict[str, list[_Func]] = {}
        for f in funcs:
            self.by_name.setdefault(f.name, []).append(f)
        self.sinks: dict[tuple[str, str, int], tuple[int, str]] = {}  # (path, fn) -> (index, name)
        self.fragments: dict[tuple[str, str, int], tuple[int, str]] = {}  # values put in a message
        self._returns: dict[tuple[str, str, int], list[str] | None] = {}

    def known(self, f: _Func) -> dict[str, list[str]]:
        """Local names whose every assignment is a literal message."""
        found: dict[str, list[str]] = {}
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
                shapes = (
                    self.shapes(value, f, {}, carry=False)
                    if value is not None and not isinstance(node, ast.AugAssign)
                    else None
                )
                if shapes is None:
                    spoiled.add(t.id)
                else:
                    found.setdefault(t.id, []).extend(shapes)
        return {k: v for k, v in found.items() if k not in spoiled}

    def shapes(
        self, e: ast.expr, f: _Func, known: dict[str, list[str]], carry: bool = True
    ) -> list[str] | None:
        """The shapes of a message expression ("{}" for each value), None when unread.
        `carry`: the expression is a message's (not a local value's): a parameter in it
        makes the function a place where messages are made."""
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            return [e.value]
        if isinstance(e, ast.JoinedStr):
            out = [""]
            for v in e.values:
                parts = ["{" + _placeholder(v) + "}"]
                if isinstance(v, ast.Constant):
                    parts = [str(v.value)]
                elif isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name):
                    name = v.value.id
                    if name in known:
                        parts = known[name]
                    elif carry:
                        self.fragment(f, name)
                out = [s + p for s in out for p in parts]
            return out
        if isinstance(e, ast.IfExp):
            a, b = self.shapes(e.body, f, known, carry), self.shapes(e.orelse, f, known, carry)
            return None if a is None or b is None else a + b
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            a, b = self.shapes(e.left, f, known, carry), self.shapes(e.right, f, known, carry)
            return None if a is None or b is None else [x + y for x in a for y in b]
        if isinstance(e, (ast.List, ast.Tuple)):
            return self._all(e.elts, f, known, carry)
        if isinstance(e, ast.Dict):
            return self._all(e.values, f, known, carry)
        if isinstance(e, ast.Name):
            if e.id in known:
                return known[e.id]
            if e.id in f.text and e.id in f.params and carry:
                self.sinks[f.key] = (f.params.index(e.id), e.id)
                return []
            return None
        if isinstance(e, ast.Call) and (name := _callee(e)) is not None:
            target = self.resolve(name, f.path)
            if target is not None:
                return self.returns(target)
        return None

    def fragment(self, f: _Func, name: str) -> bool:
        """A parameter put into a message as part of its sentence (named why or what, of
        type str) makes the function's callers' arguments messages too."""
        if name in FRAGMENTS and name in f.text and name in f.params:
            self.fragments[f.key] = (f.params.index(name), name)
            return True
        return False

    def _all(
        self, items: list[ast.expr | None], f: _Func, known: dict[str, list[str]], carry: bool
    ) -> list[str] | None:
        out: list[str] = []
        for item in items:
            s = None if item is None else self.shapes(item, f, known, carry)
            if s is None:
                return None
            out += s
        return out

    def returns(self, f: _Func) -> list[str] | None:
        """The shapes a function returns, when every `return` is a message."""
        key = f.key
        if key not in self._returns:
            self._returns[key] = None  # recursion reads nothing
            known = self.known(f)
            rets = [n.value for n in _body(f.node) if isinstance(n, ast.Return)]
            self._returns[key] = (
                self._all(list(rets), f, known, False) if rets and all(rets) else None
            )
        return self._returns[key]

    def resolve(self, name: str, path: str) -> _Func | None:
        """The function a call names: the one of the calling module, else the only one."""
        funcs = self.candidates(name, path)
        return funcs[0] if len(funcs) == 1 else None

    def candidates(self, name: str, path: str, method: bool | None = None) -> list[_Func]:
        """The functions a call may name: methods for `x.name(…)`, functions for `name(…)`;
        those of the calling module, else all (methods of one name in one module are told
        apart by what they do with their arguments)."""
        funcs = [f for f in self.by_name.get(name, []) if method is None or f.method == method]
        return [f for f in funcs if f.path == path] or funcs

    def carrier(
        self, call: ast.Call, path: str, table: dict[tuple[str, str, int], tuple[int, str]]
    ) -> tuple[int, str] | None:
        """Where the message goes among a call's arguments, if the callee carries one on."""
        name = _callee(call) or ""
        method = isinstance(call.func, ast.Attribute)
        for f in self.candidates(name, path, method) or self.candidates(name, path):
            if f.key in table:
                return table[f.key]
        return None


def _sink_of(call: ast.Call, path: str, r: _Reader) -> tuple[int, str] | None:
    name = _callee(call)
    if name is None:
        return None
    if name in ERROR_CLASSES:
        return ERROR_CLASSES[name]
    return r.carrier(call, path, r.sinks)


def read_sources() -> tuple[Found, set[str]]:
    """The messages of the code, and the fragments put into them (see the module's doc)."""
    funcs = _functions()
    r = _Reader(funcs)
    while True:  # until no parameter newly carries a message on
        before = (len(r.sinks), len(r.fragments))
        found, fragments = Found(), set()
        for f in funcs:
            known = r.known(f)
            args = f.node.args
            for a, default in [
                *zip(args.args[len(args.args) - len(args.defaults) :], args.defaults, strict=True),
                *zip(args.kwonlyargs, args.kw_defaults, strict=True),
            ]:
                if a.arg in FRAGMENTS and default is not None:
                    fragments.update(r.shapes(default, f, {}, carry=False) or [])
            for node in _body(f.node):
                if isinstance(node, ast.Return) and f.name in PLACEMENT:
                    if isinstance(node.value, ast.Tuple):
                        detail: ast.expr | None = node.value.elts[PLACEMENT[f.name]]
                        shapes = r.shapes(detail, f, known) if detail is not None else None
                        found.add(Site(f.path, f.name, node.lineno, shapes or []))
                    continue
                if not isinstance(node, ast.Call):
                    continue
                for kw in node.keywords:  # what=…, why=…: a part of a sentence, whoever takes it
                    if kw.arg in FRAGMENTS:
                        fragments.update(r.shapes(kw.value, f, known, carry=False) or [])
                frag = r.carrier(node, f.path, r.fragments)
                arg = _argument(node, *frag) if frag is not None else None
                if arg is not None and not (isinstance(arg, ast.Name) and r.fragment(f, arg.id)):
                    fragments.update(r.shapes(arg, f, known, carry=False) or [])
                sink = _sink_of(node, f.path, r)
                if sink is None or (arg := _argument(node, *sink)) is None:
                    continue
                shapes = r.shapes(arg, f, known)
                if shapes is None:
                    text = ast.unparse(arg)
                    if (f.path, f.name, text) in PASSED_ON:
                        found.passed.add((f.path, f.name, text))
                    else:
                        found.unread.append((f.path, f.name, node.lineno, text))
                else:
                    found.add(Site(f.path, f.name, node.lineno, shapes))
        if (len(r.sinks), len(r.fragments)) == before:
            read_sources.reader = r  # type: ignore[attr-defined]
            return found, fragments


def _schema_classes() -> Iterator[type]:
    from marshmallow import Schema

    import app

    for mod in pkgutil.walk_packages(app.__path__, "app."):
        importlib.import_module(mod.name)
    seen: set[type] = set()
    todo: list[type] = [Schema]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if sub.__module__.startswith("app."):
                    yield sub


def marshmallow_messages() -> set[str]:
    """Every message marshmallow may write for the app's schemas: each field's
    error_messages (its class's and marshmallow's), each validator's, each schema's own."""
    from marshmallow import fields, validate

    out: set[str] = set()

    def field_messages(fd: fields.Field) -> None:  # type: ignore[type-arg]
        out.update(str(m) for m in fd.error_messages.values())
        for v in fd.validators:
            for attr in ("error", "message_min", "message_max", "message_all", "message_equal"):
                m = getattr(v, attr, None)
                if isinstance(m, str):
                    out.add(m)
            if isinstance(v, validate.Validator):
                out.add(str(v.default_message) if hasattr(v, "default_message") else "")
        for sub in ("inner", "key_field", "value_field"):
            inner = getattr(fd, sub, None)
            if isinstance(inner, fields.Field):
                field_messages(inner)
        if isinstance(fd, fields.Nested):
            out.update(schema_messages(fd.schema))

    def schema_messages(schema: object) -> set[str]:
        from marshmallow import Schema

        assert isinstance(schema, Schema)
        out.update(str(m) for m in schema.error_messages.values())
        for fd in schema.fields.values():
            field_messages(fd)
        return out

    for cls in _schema_classes():
        schema_messages(cls())
    out.discard("")
    return out


def shape(message: str) -> str:
    """A message with each {placeholder} written "{}"."""
    return re.sub(r"\{\w*\}", "{}", message)
