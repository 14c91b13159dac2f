"""Which build of the engine runs: compiled (mypyc) or pure Python (docs/compiled.md).

The set-up (scripts/setup.sh, scripts/compile.py) compiles `MODULES` into extension modules
that lie beside their sources; Python then imports a module's `.so` instead of its `.py`. With
`ENGINE_PURE=1` in the environment the set-up builds nothing and, when a build is there all
the same, `engine/__init__.py` installs `SourcesOnly` so that every engine module is imported
from its `.py`: the pure engine, from the same tree (the pure CI pass, the benchmarks' pure
side). `build_of` tells from the modules actually imported which build a game runs.

This module is never compiled: it decides how the others are imported.
"""

from __future__ import annotations

import importlib.abc
import os
import sys
from collections.abc import Sequence
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from types import ModuleType

PURE_ENV = "ENGINE_PURE"

# The compiled modules (one mypyc group, engine/native__mypyc.*.so, holds their code). Left
# out (docs/compiled.md, "What is compiled"): modules that define msgspec structs (a compiled
# struct body does not import), engine/errors.py and engine/messages.py (mypyc refuses a list or str subclass), the modules
# that take values as a client sent them (api, notation, position, the readers' checks), and
# this one.
MODULES: tuple[str, ...] = (
    "engine/rng.py",
    "engine/architectura/catalog.py",
    "engine/architectura/city.py",
    "engine/architectura/features.py",
    "engine/architectura/flow.py",
    "engine/architectura/model.py",
    "engine/architectura/scoring.py",
    "engine/architectura/serialize.py",
    "engine/architectura/setup.py",
    "engine/architectura/view.py",
    "engine/fora_de_prumo/building.py",
    "engine/fora_de_prumo/features.py",
    "engine/fora_de_prumo/flow.py",
    "engine/fora_de_prumo/model.py",
    "engine/fora_de_prumo/scoring.py",
    "engine/fora_de_prumo/setup.py",
    "engine/fora_de_prumo/work.py",
)


def module_name(source: str) -> str:
    """engine/fora_de_prumo/flow.py -> engine.fora_de_prumo.flow"""
    return source.removesuffix(".py").replace("/", ".")


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") == "1"


class SourcesOnly(importlib.abc.MetaPathFinder):
    """Finds the engine's modules from their `.py` files only, so that a build lying beside
    them is not imported. Anything else (and a name with no `.py`) is left to the usual
    finders."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("engine.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(
                fullname, target
            )
            if spec is not None and spec.loader is not None:
                return spec
        return None


def install_pure_import() -> None:
    """With ENGINE_PURE=1, import the engine's modules from their sources (idempotent)."""
    if pure_requested() and not any(isinstance(f, SourcesOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, SourcesOnly())


def is_extension(module: ModuleType) -> bool:
    origin = getattr(module, "__file__", None) or ""
    return origin.endswith(tuple(EXTENSION_SUFFIXES))


def build_of(package: str) -> str:
    """ "compiled" when the compiled modules of `package` (engine.architectura, say) that are
    imported came from the build, "pure" when they came from their sources ("mixed", which
    only a broken build could give, otherwise). A package with none compiled is "pure"."""
    names = [module_name(m) for m in MODULES if module_name(m).startswith(package + ".")]
    kinds = {is_extension(sys.modules[n]) for n in names if n in sys.modules}
    if kinds == {True}:
        return "compiled"
    return "mixed" if len(kinds) > 1 else "pure"
