"""Pictures of games: `POST /v1/render` answers an SVG drawing of a state or a seat's view.

Each game's drawing is pure SVG code in its own package (`engine/<game>/render.py`, on the
helpers of `engine/render/`), which the game's registration names (GameInfo.renderer);
`RENDERERS` maps each registered game that has one to its `render`, `LEGENDS` to its
`legend` (the symbols of its pictures, drawn by the same helpers, GET /v1/legend).
A renderer receives a `Board`: a document the engine produced itself (the state as checked by
the engine, or a seat's view re-derived by the engine), the engine's in-memory game for the
measures and scores, and the seat whose point of view it is (None for the referee's picture,
where every hand is shown).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import cast

from engine.games import GAMES, info
from engine.render.board import Board

Renderer = Callable[[Board], str]


class _Renderers(Mapping[str, Renderer]):
    """game id -> its drawing module's function `name` (`render`, `legend`), as each game's
    registration names the module (read from the registry at each use, so a game registered
    later is drawn too)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _paths(self) -> dict[str, str]:
        return {g: path for g in GAMES if (path := info(g).renderer) is not None}

    def __getitem__(self, game_id: str) -> Renderer:
        path = self._paths()[game_id]  # KeyError: not drawn
        drawn = getattr(importlib.import_module(path), self.name, None)
        if drawn is None:  # drawn, but without this picture (a legend)
            raise KeyError(game_id)
        return cast(Renderer, drawn)

    def __iter__(self) -> Iterator[str]:
        return iter(g for g in self._paths() if g in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


RENDERERS: Mapping[str, Renderer] = _Renderers("render")
LEGENDS: Mapping[str, Renderer] = _Renderers("legend")

# A state is bounded by the request body limit and the catalog (each card exists once), so
# a drawing is too; this is a last guard against a pathological catalog (long names...).
MAX_SVG_BYTES = 4 * 1024 * 1024
