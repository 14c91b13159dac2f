"""The compiled build (scripts/compile.py, docs/compiled.md) is what runs when it is there, and
only when it matches the sources; with ENGINE_PURE=1 the pure engine runs from the same tree.

The set-up builds it when the machine can (a C compiler and the Python headers); without a
build every engine module is its .py file. With one, each compiled module is imported from its
extension module, and the build must have been made from today's sources: a .so left behind
after an edit would run the old code. CI's default run (.ci/run) sets ENGINE_COMPILED=1, so
that a build that failed cannot let that run test the pure engine instead; its pure pass
(scripts/test_pure.sh) sets ENGINE_PURE=1.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.compiled import MODULES, build_of, module_name, pure_requested

ROOT = Path(__file__).resolve().parents[2]


def compile_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compile_script", ROOT / "scripts" / "compile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_compiled_modules_run_when_built_from_todays_sources_and_only_then() -> None:
    script = compile_script()
    built = script.built_files()
    if os.environ.get("ENGINE_COMPILED") == "1":
        assert built, "ENGINE_COMPILED=1 but there is no compiled build (bash scripts/compile.sh)"
        assert not pure_requested(), "ENGINE_COMPILED=1 and ENGINE_PURE=1"
    compiled = bool(built) and not pure_requested()
    for source in MODULES:
        origin = str(importlib.import_module(module_name(source)).__spec__.origin)
        if compiled:
            assert origin.endswith(".so"), f"{source}: imported from {origin}, not the build"
        else:
            assert origin == str(ROOT / source)
    for package in ("engine.architectura", "engine.fora_de_prumo"):
        assert build_of(package) == ("compiled" if compiled else "pure")
    if built:
        expected = {module_name(m) for m in MODULES} | {script.GROUP + "__mypyc"}
        found = {str(p.relative_to(ROOT)).split(".", 1)[0].replace("/", ".") for p in built}
        assert found == expected, "extension modules that are not the build's (scripts/compile.py)"
        assert script.STAMP.exists(), "a build without its stamp: bash scripts/compile.sh again"
        assert json.loads(script.STAMP.read_text()) == script.stamp(), (
            "the compiled build is older than its sources: bash scripts/compile.sh (or --clean)"
        )


def builds_in_a_process(pure: str) -> dict[str, str]:
    code = (
        "import json, engine.architectura, engine.fora_de_prumo\n"
        "from engine.compiled import build_of\n"
        "print(json.dumps({p: build_of(p) for p in "
        "('engine.architectura', 'engine.fora_de_prumo')}))"
    )
    env = {**os.environ, "ENGINE_PURE": pure, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-P", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, str] = json.loads(out.stdout)
    return result


def test_engine_pure_imports_the_sources_even_beside_a_build() -> None:
    """ENGINE_PURE=1: both games run pure; otherwise they run the build when there is one."""
    assert set(builds_in_a_process("1").values()) == {"pure"}
    expected = "compiled" if compile_script().built_files() else "pure"
    assert set(builds_in_a_process("0").values()) == {expected}


def test_readyz_and_the_startup_log_name_the_engine_that_runs() -> None:
    import logging

    from app import create_app

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("app")
    keep = Keep()
    logger.addHandler(keep)
    try:
        app = create_app({"TESTING": True})
    finally:
        logger.removeHandler(keep)
    compiled = bool(compile_script().built_files()) and not pure_requested()
    expected = dict.fromkeys(("architectura", "fora-de-prumo"), "compiled" if compiled else "pure")
    body = app.test_client().get("/readyz").get_json()
    assert {g: body["engines"][g] for g in expected} == expected
    lines = [r.getMessage() for r in records if r.getMessage().startswith("engine: ")]
    assert lines == [
        f"engine: architectura {expected['architectura']}, fora-de-prumo "
        f"{expected['fora-de-prumo']}"
    ]


def test_the_set_up_names_what_is_missing_for_a_build(monkeypatch: Any) -> None:
    """Without a C compiler the set-up stays pure and says why (scripts/compile.py)."""
    script = compile_script()
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert script.missing_tool() == "no C compiler (/nonexistent/cc)"
    monkeypatch.setenv("CC", sys.executable)  # some executable: the headers are checked next
    monkeypatch.setattr(script.sysconfig, "get_paths", lambda: {"include": "/nonexistent"})
    assert script.missing_tool() == "no Python headers (/nonexistent/Python.h)"
