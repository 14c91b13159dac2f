"""Pure rules engines (no HTTP, no Redis). Game-specific code lives in sub-packages.

`engine.architectura` is the first game; the shared pieces here (errors, the seeded
generator, canonical JSON) are what a second game would reuse.

With ENGINE_PURE=1 the engine's modules are imported from their sources even where a compiled
build lies beside them (engine/compiled.py): set up here, before any of them is imported.
"""

from engine.compiled import install_pure_import
from engine.errors import (
    CatalogError,
    EngineError,
    IllegalDecision,
    InvalidState,
    Problem,
    SetupError,
)

install_pure_import()

__all__ = [
    "CatalogError",
    "EngineError",
    "IllegalDecision",
    "InvalidState",
    "Problem",
    "SetupError",
]
