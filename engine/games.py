"""The one place where games are registered, and the interface every game offers.

A game is a sub-package of `engine/` whose module namespace satisfies `GameModule`: the
JSON face (plain data in, plain data out, for the HTTP layer and referees) and the
in-memory face (OpenSpiel-style, for the bots). `app/` and `ai/` reach games only through
`engine_for(...)` and this interface, never by importing a game package.

Adding a game: write `engine/<game>/` exposing these names, then add one line to `GAMES`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol, cast

from engine.errors import InvalidState, Problem, SetupError, short_repr

# game id -> module path; the first entry is the default when a set-up names no game
GAMES: dict[str, str] = {
    "architectura": "engine.architectura",
    "fora-de-prumo": "engine.fora_de_prumo",
}
DEFAULT_GAME = "architectura"


class CatalogLike(Protocol):
    id: str
    name: str
    hash: str

    def to_json(self) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]: ...


class WorldSamplerLike(Protocol):
    base: Any

    def sample(self, rnd: random.Random) -> Any: ...


class GameModule(Protocol):
    """What `app/` and `ai/` may call. `G` below is the game's in-memory state object: it has
    `.n` (seats), `.turn` (turn counter), `.over`, `.cat` (its catalog) and `.copy()`."""

    GAME_ID: str
    RULES_VERSION: str
    CATALOG_CLAUSE: str  # the clause that defines the catalog format (A-10, F-10)
    SEATS_CLAUSE: str  # the clause that numbers the seats (A-1.1, F-1.1)
    SETUP_KEYS: tuple[str, ...]  # the fields of a set-up (A-1, F-1); its engine refuses others

    # JSON face ----------------------------------------------------------------------------
    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]: ...
    def legal_decisions(self, state: Any, catalog: Any = None) -> dict[str, Any]: ...
    def apply_all(
        self, state: Any, decisions: Any, catalog: Any = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]: ...
    def validate(self, state: Any, catalog: Any = None) -> list[Problem]: ...
    def player_view(self, state: Any, seat: int, catalog: Any = None) -> dict[str, Any]: ...
    def events_for_seat(self, events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]: ...
    def score(self, state: Any, catalog: Any = None) -> dict[str, Any]: ...
    def replay(self, start: Any, decisions: Any, catalog: Any = None) -> dict[str, Any]: ...
    def builtin_catalogs(self) -> Mapping[str, Any]: ...
    # notation (`<game>/notation.py`): a decision as one short string, and back
    def decision_notation(self, d: dict[str, Any]) -> str | None: ...
    def decision_from_notation(self, text: str, pointer: str = "") -> dict[str, Any]: ...
    def get_catalog(self, spec: Any) -> Any: ...

    # in-memory face (bots, tournaments) ---------------------------------------------------
    def load(self, state: Any, catalog: Any = None) -> Any: ...
    def new_game_internal(self, setup: dict[str, Any]) -> Any: ...
    def legal_actions(self, g: Any) -> list[Any]: ...
    def apply_action(self, g: Any, a: Any) -> None: ...
    def current_player(self, g: Any) -> int | None: ...
    def is_terminal(self, g: Any) -> bool: ...
    def returns(self, g: Any) -> list[float]: ...
    def final_scores(self, g: Any) -> dict[str, Any]: ...
    def game_view(self, g: Any, seat: int) -> dict[str, Any]: ...
    def action_to_json(self, g: Any, seat: int, a: Any) -> dict[str, Any]: ...
    def apply_internal(self, g: Any, d: Any, pointer: str = "") -> None: ...
    def require_decider(self, g: Any, seat: int | None = None, pointer: str = "/seat") -> int: ...
    def tournament_setup(self, seed: int, seats: int, variant: str | None) -> dict[str, Any]: ...

    WorldSampler: Any  # WorldSampler(view, catalog=None) -> WorldSamplerLike


@cache
def engine(game_id: str) -> GameModule:
    """The engine of a registered game (SetupError `unknown_game` otherwise)."""
    path = GAMES.get(game_id) if isinstance(game_id, str) else None
    if path is None:
        raise SetupError(
            "unknown_game",
            f"Unknown game {short_repr(game_id)}; known: {', '.join(GAMES)}.",
            None,
            "/game",
        )
    return cast(GameModule, importlib.import_module(path))


def engine_for(setup: Any) -> GameModule:
    """The engine of a set-up: its `game` field, the default game when absent."""
    game_id = setup.get("game", DEFAULT_GAME) if isinstance(setup, dict) else DEFAULT_GAME
    return engine(game_id)


def engine_for_state(document: Any) -> GameModule:
    """The engine of a state or a view, by its `game` field. An unknown game makes the
    document an invalid state (a state without the field is left to the default game's
    reader, which names what is missing)."""
    game_id = document.get("game", DEFAULT_GAME) if isinstance(document, dict) else DEFAULT_GAME
    if not isinstance(game_id, str) or game_id not in GAMES:
        detail = f"Unknown game {short_repr(game_id)}; known: {', '.join(GAMES)}."
        raise InvalidState([Problem("unknown_game", detail, "/game")])
    return engine(game_id)


def all_engines() -> dict[str, GameModule]:
    return {gid: engine(gid) for gid in GAMES}
