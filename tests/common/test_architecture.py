"""The project's import graph: no cycle, no arrow back from the shipped packages to the
benchmarks, and an engine that knows nothing of HTTP, Redis, the app or the bots.

The graph is read from the source with `ast`: every import statement of a module counts,
wherever it is (a function's lazy import, an `if TYPE_CHECKING:` block). `from pkg import x`
is an arrow to the submodule `pkg.x` when there is one, else to `pkg` itself; `import a.b.c`
is an arrow to `a.b.c`. A package's `__init__` importing its submodules, or a submodule
importing a sibling, is no cycle; a submodule importing its package's `__init__` that imports
the submodule back is one.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "engine", "ai", "benchmarks")


def _module_name(path: Path) -> tuple[str, bool]:
    """(dotted name, is a package's __init__) of a source file under ROOT."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


@cache
def _sources() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name, is_package = _module_name(path)
            found[name] = (path, is_package)
    return found


def _imports(name: str, path: Path, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every module `name` imports, as written (absolute, dotted), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, up `level - 1` more
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            sources = _sources()
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield (sub if sub in sources else target), node.lineno


@cache
def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first such import}, for every import, the
    project's own modules and the rest (their full dotted names)."""
    edges: dict[str, dict[str, int]] = {}
    for name, (path, is_package) in _sources().items():
        out: dict[str, int] = {}
        for target, line in _imports(name, path, is_package):
            if target != name:
                out.setdefault(target, line)
        edges[name] = out
    return edges


def _own(module: str) -> str | None:
    """The project module an imported name lands in (its longest known prefix), if any."""
    sources = _sources()
    parts = module.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in sources:
            return candidate
        parts.pop()
    return None


def own_graph() -> dict[str, set[str]]:
    return {
        name: {t for t in (_own(m) for m in out) if t is not None and t != name}
        for name, out in graph().items()
    }


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of `edges` (its modules, the first repeated at the end), or None."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(edges, white)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = grey
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if colour.get(nxt, black) == grey:
                return [*stack[stack.index(nxt) :], nxt]
            if colour.get(nxt) == white and (cycle := visit(nxt)) is not None:
                return cycle
        stack.pop()
        colour[node] = black
        return None

    for start in sorted(edges):
        if colour[start] == white and (cycle := visit(start)) is not None:
            return cycle
    return None


def _where(module: str, target: str) -> str:
    path, _ = _sources()[module]
    line = min(line for m, line in graph()[module].items() if _own(m) == target or m == target)
    return f"{path.relative_to(ROOT)}:{line}"


def test_the_graph_is_read() -> None:
    edges = own_graph()
    assert {"app", "app.routes", "engine.games", "ai.queue", "benchmarks.local"} <= set(edges)
    assert "app.errors" in edges["app"]
    assert "engine.games" in edges["app"]
    # a lazy import inside a function counts
    assert "app.docs" in edges["app"]


def test_every_import_statement_counts(tmp_path: Path) -> None:
    source = tmp_path / "fake.py"
    source.write_text(
        "from app import create_app, routes\n"
        "from . import errors\n"
        "def f() -> None:\n"
        "    import ai.queue\n"
        "    from engine.games import engine\n",
        encoding="utf-8",
    )
    found = [target for target, _ in _imports("app.fake", source, False)]
    # a name that is no submodule is an arrow to the package's __init__
    assert found == ["app", "app.routes", "app.errors", "ai.queue", "engine.games"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_cycle() -> None:
    cycle = find_cycle(own_graph())
    assert cycle is None, "import cycle: " + ", ".join(
        f"{a} -> {b} ({_where(a, b)})" for a, b in itertools.pairwise(cycle)
    )


def test_the_shipped_packages_do_not_import_the_benchmarks() -> None:
    arrows = [
        f"{name} -> {target} ({_where(name, target)})"
        for name, targets in own_graph().items()
        if name.split(".")[0] in ("app", "ai")
        for target in targets
        if target.split(".")[0] == "benchmarks"
    ]
    assert arrows == []


def test_the_engine_imports_no_service() -> None:
    forbidden = {"flask", "werkzeug", "redis", "rq", "app", "ai", "benchmarks"}
    arrows = [
        f"{name} -> {target} ({_where(name, target)})"
        for name, targets in graph().items()
        if name.split(".")[0] == "engine"
        for target in targets
        if target.split(".")[0] in forbidden
    ]
    assert arrows == []
