"""Pure rules engines (no HTTP, no Redis). Game-specific code lives in sub-packages.

`engine.architectura` is the first game; the shared pieces here (errors, the seeded
generator, canonical JSON) are what a second game would reuse.
"""

from engine.errors import (
    CatalogError,
    EngineError,
    IllegalDecision,
    InvalidState,
    Problem,
    SetupError,
)

__all__ = [
    "CatalogError",
    "EngineError",
    "IllegalDecision",
    "InvalidState",
    "Problem",
    "SetupError",
]
