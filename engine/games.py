"""The one place where games are registered, and the interface every game offers.

A game is a sub-package of `engine/` whose module namespace satisfies `GameModule`: the
JSON face (plain data in, plain data out, for the HTTP layer and referees) and the
in-memory face (OpenSpiel-style, for the bots). Each game package registers itself with its
facts as data (`engine.registry.register_game(GameInfo(...), module)` at the end of its
`__init__`); this module imports the packages (`_PACKAGES`), the only place that does.
`app/` and `ai/` reach games only through `engine(...)`, `engine_for(...)`, `info(...)` and
this interface, never by importing a game package or naming a game.

Adding a game: write `engine/<game>/` exposing these names and registering itself, then add
it to the import and to `_PACKAGES` here. A game registered from outside engine/ (a test's toy
game, tests/toygame/) is served alike once its package is imported: every answer here reads
the registry when asked (`GAMES` too), so nothing else names it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, cast, overload

from engine import architectura, fora_de_prumo  # each registers itself: see _PACKAGES
from engine.errors import InvalidState, Problem, SetupError, short_repr
from engine.messages import Msg, msg
from engine.registry import GameInfo, register_game, registered

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "MAX_SEATS",
    "CatalogLike",
    "GameInfo",
    "GameLike",
    "GameModule",
    "WorldSamplerLike",
    "all_engines",
    "engine",
    "engine_for",
    "engine_for_state",
    "info",
    "register_game",
]


class CatalogLike(Protocol):
    """A game's catalog: the cards a game is played with."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def hash(self) -> str: ...  # its content hash (a state records it)

    def to_json(self) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]: ...


class GameLike(Protocol):
    """A game's in-memory state, the in-memory face's `g`."""

    @property
    def n(self) -> int: ...  # the number of seats
    @property
    def turn(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def cat(self) -> Any: ...  # its catalog

    def copy(self) -> Any: ...


class WorldSamplerLike(Protocol):
    @property
    def base(self) -> GameLike: ...

    def sample(self, rnd: random.Random) -> GameLike: ...


class GameModule(Protocol):
    """What `app/` and `ai/` may call. The in-memory face's `g` is the game's in-memory state
    (`GameLike`: `.n` seats, `.turn`, `.over`, `.cat` its catalog, `.copy()`; each game's own
    class has more, for its own modules). A state, a decision or a catalog document of the
    JSON face is `Any` on purpose: the engine reads whatever it is sent and names every
    problem; an action is the game's own (a tuple), taken from `legal_actions`."""

    INFO: GameInfo  # its facts, as it registered them: id, rules version, seats, clauses...
    SETUP_KEYS: tuple[str, ...]  # the fields a set-up may have (A-1, F-1)
    DECISION_FIELDS: dict[str, tuple[str, ...]]  # decision type -> its fields beside `type`
    # The types of the events after which the game goes on from cards the deciding seat had not
    # seen: every event that deals, draws, refills, shuffles or reveals a card (Architectura:
    # the mulligan A-3.1b, the Obelisk exchange A-3.1a, the draw; Fora de Prumo: the
    # coordenadora's look F-6.1 / F-R19, the refill F-3.6). A plan (ai.service, plan="turn")
    # ends at the first decision that produces one: what follows is chance to the seat.
    CHANCE_EVENTS: frozenset[str]

    # JSON face ----------------------------------------------------------------------------
    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]: ...
    def legal_decisions(self, state: Any, catalog: Any = None) -> dict[str, Any]: ...
    def apply_all(
        self, state: Any, decisions: Any, catalog: Any = None, sealed: bool = False
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]: ...
    def validate(self, state: Any, catalog: Any = None) -> list[Problem]: ...
    def player_view(self, state: Any, seat: int, catalog: Any = None) -> dict[str, Any]: ...
    def events_for_seat(self, events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]: ...
    def score(self, state: Any, catalog: Any = None) -> dict[str, Any]: ...
    def replay(self, start: Any, decisions: Any, catalog: Any = None) -> dict[str, Any]: ...
    def builtin_catalogs(self) -> Mapping[str, CatalogLike]: ...
    # notation (`<game>/notation.py`): a decision as one short string, and back
    def decision_notation(self, d: dict[str, Any]) -> str | None: ...
    def decision_from_notation(self, text: str, pointer: str = "") -> dict[str, Any]: ...
    def get_catalog(self, spec: Any) -> CatalogLike: ...

    # in-memory face (bots, tournaments) ---------------------------------------------------
    def load(self, state: Any, catalog: Any = None) -> GameLike: ...
    def new_game_internal(self, setup: dict[str, Any]) -> GameLike: ...
    def legal_actions(self, g: Any) -> list[Any]: ...
    def apply_action(self, g: Any, a: Any) -> None: ...
    def current_player(self, g: Any) -> int | None: ...
    def is_terminal(self, g: Any) -> bool: ...
    def returns(self, g: Any) -> list[float]: ...
    def final_scores(self, g: Any) -> dict[str, Any]: ...
    def game_view(self, g: Any, seat: int) -> dict[str, Any]: ...
    def action_to_json(self, g: Any, seat: int, a: Any) -> dict[str, Any]: ...
    def apply_internal(self, g: Any, d: Any, pointer: str = "") -> None: ...
    # a decision object read against a game (its type, fields and values; not its legality)
    def parse_decision(self, g: Any, d: Any, pointer: str = "") -> Any: ...
    def require_decider(self, g: Any, seat: int | None = None, pointer: str = "/seat") -> int: ...
    def tournament_setup(self, seed: int, seats: int, variant: str | None) -> dict[str, Any]: ...

    # determinization: full games consistent with a seat's view (the game's class)
    def WorldSampler(self, view: dict[str, Any], catalog: Any = None) -> WorldSamplerLike: ...


# The games of engine/, the default first (a set-up that names no game is its): importing a
# game package, above, registers it. mypy checks each package against GameModule here.
_PACKAGES: tuple[GameModule, ...] = (architectura, fora_de_prumo)


def _check_packages() -> None:
    games = registered()
    for p in _PACKAGES:
        game_id = p.INFO.id
        found = games.get(game_id)
        if found is None or found.module is not p:
            raise RuntimeError(f"game {game_id!r} does not register itself (register_game)")


_check_packages()


class _Games(Sequence[str]):
    """The registered games' ids, read from the registry at each use: engine/'s packages
    first (in `_PACKAGES` order, the default first), then any game registered since from
    outside engine/ (a test's toy game), in the order they registered. A tuple is taken of
    it where a fixed list is wanted (`tuple(GAMES)`)."""

    def _ids(self) -> tuple[str, ...]:
        own = tuple(p.INFO.id for p in _PACKAGES)
        return own + tuple(g for g in registered() if g not in own)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self._ids()[i]

    def __len__(self) -> int:
        return len(self._ids())

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __contains__(self, game_id: object) -> bool:
        return isinstance(game_id, str) and game_id in registered()

    def __repr__(self) -> str:
        return repr(self._ids())


# game ids, in order: the first is the default when a set-up names no game
GAMES: Sequence[str] = _Games()
DEFAULT_GAME = _PACKAGES[0].INFO.id
# the most seats any game of engine/ has: a seat index is 0..MAX_SEATS - 1 (a game's own range
# is its GameInfo's; its engine checks a seat against the game's number of seats). A game
# registered later is served up to this many seats (the request schemas' seat bounds).
MAX_SEATS = max(p.INFO.max_seats for p in _PACKAGES)


def unknown_game(game_id: Any) -> Msg:
    """The sentence for a game id that names no registered game (a set-up's, a state's, a
    query's)."""
    game, known = short_repr(game_id), ", ".join(GAMES)
    return msg("Unknown game {game}; known: {known}.", game=game, known=known)


def _unknown(game_id: Any) -> SetupError:
    return SetupError("unknown_game", unknown_game(game_id), None, "/game")


def engine(game_id: str) -> GameModule:
    """The engine of a registered game (SetupError `unknown_game` otherwise)."""
    found = registered().get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise _unknown(game_id)
    # a package registers itself with its INFO (register_game checks it); the rest of the interface is its own to offer (tests/common/test_registry.py,
    # tests/common/test_conformance.py check every name)
    return cast(GameModule, found.module)


def info(game_id: str) -> GameInfo:
    """The facts of a registered game (SetupError `unknown_game` otherwise)."""
    found = registered().get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise _unknown(game_id)
    return found.info


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
        raise InvalidState([Problem("unknown_game", unknown_game(game_id), "/game")])
    return engine(game_id)


def all_engines() -> dict[str, GameModule]:
    return {gid: engine(gid) for gid in GAMES}
