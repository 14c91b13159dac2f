"""Pictures of games: `POST /v1/render` answers an SVG drawing of a state or a seat's view.

Drawing is kept out of `engine/` (which stays pure): each game's drawing lives in its own
module here, chosen through `RENDERERS`, the one place that maps a game id to its renderer.
A renderer receives a `Board`: a document the engine produced itself (the state as checked by
the engine, or a seat's view re-derived by the engine), the engine's in-memory game for the
measures and scores, and the seat whose point of view it is (None for the referee's picture,
where every hand is shown).
"""

from __future__ import annotations

from collections.abc import Callable

from app.render import architectura, fora_de_prumo
from app.render.board import Board

Renderer = Callable[[Board], str]

# game id -> renderer: the only registration point
RENDERERS: dict[str, Renderer] = {
    "architectura": architectura.render,
    "fora-de-prumo": fora_de_prumo.render,
}

# A state is bounded by the request body limit and the catalog (each card exists once), so
# a drawing is too; this is a last guard against a pathological catalog (long names...).
MAX_SVG_BYTES = 4 * 1024 * 1024
