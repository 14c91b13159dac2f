"""openapi.yaml's ErrorCode enum is exactly the set of codes the service can answer: read from
the sources (engine/, app/, ai/) with ast and from the proxy's own answers (deploy/nginx.conf),
so a code raised but not listed, or listed but never raised, fails here."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

from http_support import ROOT, spec

from app.errors import HTTP_CODES, OTHER_HTTP_CODE

PACKAGES = ("engine", "app", "ai")

# Functions that return a code a caller raises, or a tuple starting with one (`code, clause,
# detail = perr`, then IllegalDecision(code, ...)); their returned strings are harvested.
CODE_RETURNING = {"placement_error", "_message_code"}
# Code arguments that are not a string literal: each forwards a code found elsewhere (an error
# caught and re-raised, a problem promoted to the error, a helper's own `code` parameter, whose
# callers are scanned). A new one must be looked at and added here, or the test fails.
FORWARDED = {
    "code",  # a helper's parameter (bad, add, ...) or a code from a CODE_RETURNING function
    "e.code",
    "p.code",
    "first.code",
    "first_p.code",
    "err['code']",
    "_message_code(messages)",  # a CODE_RETURNING function
    "HTTP_CODES.get(status, OTHER_HTTP_CODE)",  # HTTP_CODES (below); see the note there
    "refusal.code",  # app/server_errors.py: a Refusal's, whose literals are scanned
}


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))


Taker = tuple[int, str | None, int]  # the code's position, its default, arguments required


def _code_position(fn: ast.FunctionDef) -> Taker | None:
    """(position among the arguments a caller passes, default, how many arguments a call
    needs at least) of a `code` parameter."""
    names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if "code" not in names:
        return None
    i = names.index("code")
    defaults = fn.args.defaults
    j = i - (len(names) - len(defaults))
    default = defaults[j] if j >= 0 else None
    lit = (
        default.value
        if isinstance(default, ast.Constant) and isinstance(default.value, str)
        else None
    )
    shift = 1 if names[:1] in (["self"], ["cls"]) else 0
    return i - shift, lit, len(names) - len(defaults) - shift


def _callables(trees: list[tuple[str, ast.Module]]) -> dict[str, Taker]:
    """Every function, method or class (by its __init__ or dataclass fields) that takes a
    `code`, with where it is passed and its default."""
    out: dict[str, Taker] = {}
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                pos = _code_position(node)
                if pos is not None:
                    out[node.name] = pos
            elif isinstance(node, ast.ClassDef):
                init = next(
                    (
                        b
                        for b in node.body
                        if isinstance(b, ast.FunctionDef) and b.name == "__init__"
                    ),
                    None,
                )
                fields = [
                    b.target.id
                    for b in node.body
                    if isinstance(b, ast.AnnAssign) and isinstance(b.target, ast.Name)
                ]
                if init is not None and (pos := _code_position(init)) is not None:
                    out[node.name] = pos
                elif init is None and "code" in fields:  # a dataclass: fields in order
                    out[node.name] = (fields.index("code"), None, fields.index("code") + 1)
    out.pop("__init__", None)
    # a class without its own __init__ takes its base's (SetupError is an EngineError's)
    classes = [n for _, t in trees for n in ast.walk(t) if isinstance(n, ast.ClassDef)]
    changed = True
    while changed:
        changed = False
        for c in classes:
            own = any(isinstance(b, ast.FunctionDef) and b.name == "__init__" for b in c.body)
            base = next((b.id for b in c.bases if isinstance(b, ast.Name) and b.id in out), None)
            if c.name not in out and not own and base is not None:
                out[c.name] = out[base]
                changed = True
    return out


def _enclosing(tree: ast.Module) -> dict[ast.AST, ast.AST]:
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def raised_codes() -> tuple[set[str], list[str]]:
    """(every code the sources can answer, the non-literal code arguments not FORWARDED)."""
    trees = list(_sources())
    takers = _callables(trees)
    codes = {default for _, default, _ in takers.values() if default}
    unexplained = []
    for path, tree in trees:
        parents = _enclosing(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "__init__":  # super().__init__(code, ...) in a subclass
                    cls = next(
                        (p for p in _ancestors(node, parents) if isinstance(p, ast.ClassDef)),
                        None,
                    )
                    bases = [b.id for b in cls.bases if isinstance(b, ast.Name)] if cls else []
                    name = next((b for b in bases if b in takers), "")
                if name not in takers:
                    continue
                pos, _, needed = takers[name]
                if len(node.args) + len(node.keywords) < needed:
                    continue  # another function of that name (a set's add, say)
                kw = {k.arg: k.value for k in node.keywords}
                arg = node.args[pos] if len(node.args) > pos else kw.get("code")
                if arg is None:
                    continue  # the default, counted above
                found = _literals(arg, _ancestors(node, parents))
                if found:
                    codes |= found
                elif ast.unparse(arg) not in FORWARDED:
                    unexplained.append(f"{path}:{node.lineno} {name}({ast.unparse(arg)})")
            elif isinstance(node, ast.Dict):  # {"code": "missing_field", ...}
                for k, v in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == "code"
                        and isinstance(v, ast.Constant)
                        and isinstance(v.value, str)
                    ):
                        codes.add(v.value)
            elif isinstance(node, ast.FunctionDef) and node.name in CODE_RETURNING:
                for ret in ast.walk(node):
                    if not isinstance(ret, ast.Return) or ret.value is None:
                        continue
                    first = ret.value.elts[0] if isinstance(ret.value, ast.Tuple) else ret.value
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        codes.add(first.value)
    # The HTTP errors werkzeug raises (404, 405, the static files' 412 and 416, ...), and the
    # code of any other status it may raise (none today; tests/http/test_i18n.py raises them all)
    codes |= set(HTTP_CODES.values()) | {OTHER_HTTP_CODE}
    # the buffering proxy's own refusals (deploy/nginx.conf; tests/http/test_nginx_errors.py)
    codes |= set(re.findall(r'"code":"(\w+)"', (ROOT / "deploy" / "nginx.conf").read_text()))
    return codes, unexplained


def _literals(arg: ast.expr, ancestors: Iterator[ast.AST]) -> set[str]:
    """The codes an argument can be: a literal, either branch of `a if c else b`, or a local
    variable given literals in the enclosing function (`bad = "inconsistent_resolving"`)."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value}
    if isinstance(arg, ast.IfExp):
        body, orelse = _literals(arg.body, iter(())), _literals(arg.orelse, iter(()))
        return body | orelse if body and orelse else set()
    if isinstance(arg, ast.Name):
        fn = next((a for a in ancestors if isinstance(a, ast.FunctionDef)), None)
        if fn is None:
            return set()
        assigned = [
            n.value.value
            for n in ast.walk(fn)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == arg.id for t in n.targets)
            and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)
        ]
        return set(assigned)
    return set()


def _ancestors(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Iterator[ast.AST]:
    while node in parents:
        node = parents[node]
        yield node


def _enum() -> list[str]:
    values: list[str] = spec()["components"]["schemas"]["ErrorCode"]["enum"]
    return values


def test_every_code_argument_is_a_literal_or_a_known_forward() -> None:
    _, unexplained = raised_codes()
    assert not unexplained, (
        "a code that is neither a literal nor forwarded from one (add it to FORWARDED once "
        f"its codes are scanned): {unexplained}"
    )


def test_the_enum_lists_every_code_raised() -> None:
    codes, _ = raised_codes()
    missing = sorted(codes - set(_enum()))
    assert not missing, f"codes the service answers but openapi.yaml's ErrorCode lacks: {missing}"


def test_the_enum_lists_no_code_nothing_raises() -> None:
    codes, _ = raised_codes()
    stale = sorted(set(_enum()) - codes)
    assert not stale, f"ErrorCode lists codes nothing raises: {stale}"


def test_the_enum_is_sorted_and_unique_and_used_by_every_problem_schema() -> None:
    enum = _enum()
    assert enum == sorted(set(enum))
    schemas = spec()["components"]["schemas"]
    ref = {"$ref": "#/components/schemas/ErrorCode"}
    for name in ("Problem", "ProblemItem", "EngineError"):
        assert schemas[name]["properties"]["code"] == ref, name


def test_the_scan_sees_codes_of_every_kind() -> None:
    """The scanner is not vacuous: codes raised in each way it reads are found."""
    codes, _ = raised_codes()
    assert {
        "cell_not_eligible",  # IllegalDecision literal
        "invalid_state",  # super().__init__ of InvalidState
        "malformed_json",  # BadJSON's default
        "duplicate_key",  # BadJSON's second argument
        "rate_limited",  # ApiError's second argument
        "missing_field",  # a *_code function's return
        "invalid_rotation",  # placement_error's tuple
        "not_found",  # HTTP_CODES
        "wrong_type",  # a helper's (Problems.bad) literal
        "unknown_field",  # unknown_keys' default
    } <= codes


def test_a_live_error_code_is_in_the_enum(client: Any) -> None:
    """Answers really carry enum codes (an illegal decision, a malformed body, a 404)."""

    answers = [
        client.post("/v1/games", data=b"{", content_type="application/json"),
        client.post("/v1/games", json={"seats": 9, "seed": 1}),
        client.get("/v1/nothing-here"),
    ]
    for r in answers:
        body = r.get_json()
        assert r.status_code >= 400 and body["code"] in _enum(), body
        for item in body.get("problems", []):
            assert item["code"] in _enum(), item
