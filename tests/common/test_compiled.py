"""The optional compiled build (scripts/compile.sh, docs/compiled.md) is what runs when it is
there, and only when it matches the sources.

Without a build (the README's commands) every engine module is its .py file. With one, each
compiled module is imported from its extension module, and the build must have been made from
today's sources: a .so left behind after an edit would run the old code. The compiled CI pass
(scripts/test_compiled.sh) sets ENGINE_COMPILED=1, so that a build that failed to load cannot
let that pass test the pure-Python engine instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def compile_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compile_script", ROOT / "scripts" / "compile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def module_name(source: str) -> str:
    return source.removesuffix(".py").replace("/", ".")


def test_the_compiled_modules_run_when_built_from_todays_sources_and_only_then() -> None:
    script = compile_script()
    built = script.built_files()
    if os.environ.get("ENGINE_COMPILED") == "1":
        assert built, "ENGINE_COMPILED=1 but there is no compiled build (bash scripts/compile.sh)"
    for source in script.MODULES:
        origin = str(importlib.import_module(module_name(source)).__spec__.origin)
        if built:
            assert origin.endswith(".so"), f"{source}: imported from {origin}, not the build"
        else:
            assert origin == str(ROOT / source)
    if built:
        expected = {module_name(m) for m in script.MODULES} | {script.GROUP + "__mypyc"}
        found = {str(p.relative_to(ROOT)).split(".", 1)[0].replace("/", ".") for p in built}
        assert found == expected, "extension modules that are not the build's (scripts/compile.py)"
        assert script.STAMP.exists(), "a build without its stamp: bash scripts/compile.sh again"
        assert json.loads(script.STAMP.read_text()) == script.stamp(), (
            "the compiled build is older than its sources: bash scripts/compile.sh (or --clean)"
        )
