"""The one place where games are registered, and the interface every game offers.

A game is a sub-package of `engine/` whose module namespace satisfies `GameDefinition[G, A]`
(G its in-memory state, A its action): the JSON face (plain data in, plain data out, for the
HTTP layer and referees) and the in-memory face (OpenSpiel-style, for the bots). mypy checks
each package against it with its own G and A (`_PACKAGES` below); the registry hands a game
out as a `GameModule`, its G and A its own business (a bot passes back what it was given). Each game package registers itself with its
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

import functools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar, cast, overload

from engine import architectura, fora_de_prumo  # each registers itself: see _PACKAGES
from engine.errors import InvalidState, Problem, SetupError, short_repr
from engine.messages import Msg, msg
from engine.protocol import null_skeleton, with_nulls
from engine.registry import GameInfo, register_game, registered

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "MAX_SEATS",
    "CatalogLike",
    "GameDefinition",
    "GameInfo",
    "GameLike",
    "GameModule",
    "Json",
    "JsonObject",
    "WorldSamplerLike",
    "all_engines",
    "engine",
    "engine_for",
    "engine_for_state",
    "info",
    "register_game",
]


# An untrusted document of the JSON face (a state, a set-up, a decision, a catalog): whatever
# was sent, read by the game's engine, which names every problem.
Json = object
# A document the engine writes (a state, a view, an event, a decision): JSON data.
JsonObject = dict[str, Any]


class CatalogLike(Protocol):
    """A game's catalog: the cards a game is played with."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def hash(self) -> str: ...  # its content hash (a state records it)

    def to_json(self) -> JsonObject: ...

    def summary(self) -> JsonObject: ...


class GameLike(Protocol):
    """A game's in-memory state, the in-memory face's `g`."""

    @property
    def n(self) -> int: ...  # the number of seats
    @property
    def turn(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def cat(self) -> CatalogLike: ...

    def copy(self) -> Self: ...


G = TypeVar("G", bound=GameLike)  # a game's in-memory state
A = TypeVar("A")  # a game's action (an in-memory decision)
G_co = TypeVar("G_co", bound=GameLike, covariant=True)


class WorldSamplerLike(Protocol[G_co]):
    @property
    def base(self) -> G_co: ...

    def sample(self, rnd: random.Random) -> G_co: ...


class GameDefinition(Protocol[G, A]):
    """What a game offers and `app/` and `ai/` may call. The in-memory face's `g` is the
    game's in-memory state G (`GameLike`: `.n` seats, `.turn`, `.over`, `.cat` its catalog,
    `.copy()`; each game's own class has more, for its own modules), and its actions are A,
    taken from `legal_actions`. A document sent to the JSON face is `Json` (`object`): the
    engine reads whatever it is sent and names every problem."""

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
    def new_game(self, setup: JsonObject) -> JsonObject: ...
    def legal_decisions(self, state: Json, catalog: Json = None) -> JsonObject: ...
    def apply_all(
        self,
        state: Json,
        decisions: Json,
        catalog: Json = None,
        sealed: bool = False,
        until: frozenset[str] = frozenset(),
    ) -> tuple[JsonObject, list[JsonObject]]: ...
    def validate(self, state: Json, catalog: Json = None) -> list[Problem]: ...
    def player_view(self, state: Json, seat: int, catalog: Json = None) -> JsonObject: ...
    def events_for_seat(self, events: list[JsonObject], seat: int) -> list[JsonObject]: ...
    def score(self, state: Json, catalog: Json = None) -> JsonObject: ...
    def replay(self, start: Json, decisions: Json, catalog: Json = None) -> JsonObject: ...
    def builtin_catalogs(self) -> Mapping[str, CatalogLike]: ...
    # notation (`<game>/notation.py`): a decision as one short string, and back
    def decision_notation(self, d: JsonObject) -> str | None: ...
    def decision_from_notation(self, text: str, pointer: str = "") -> JsonObject: ...
    def get_catalog(self, spec: Json) -> CatalogLike: ...

    # in-memory face (bots, tournaments) ---------------------------------------------------
    def load(self, state: Json, catalog: Json = None) -> G: ...
    def new_game_internal(self, setup: JsonObject) -> G: ...
    def legal_actions(self, g: G) -> list[A]: ...
    def apply_action(self, g: G, a: A) -> None: ...
    def current_player(self, g: G) -> int | None: ...
    def is_terminal(self, g: G) -> bool: ...
    def returns(self, g: G) -> list[float]: ...
    def final_scores(self, g: G) -> JsonObject: ...
    # final_scores' totals, parts and winners without their explanation (what a search reads)
    def tally(self, g: G) -> JsonObject: ...
    def game_view(self, g: G, seat: int) -> JsonObject: ...
    def action_to_json(self, g: G, seat: int, a: A) -> JsonObject: ...
    def apply_internal(self, g: G, d: Json, pointer: str = "") -> None: ...
    # a decision object read against a game (its type, fields and values; not its legality)
    def parse_decision(self, g: G, d: Json, pointer: str = "") -> A: ...
    def require_decider(self, g: G, seat: int | None = None, pointer: str = "/seat") -> int: ...
    def tournament_setup(self, seed: int, seats: int, variant: str | None) -> JsonObject: ...

    # determinization: full games consistent with a seat's view (the game's class); `catalog`
    # is the game's own catalog object (from `get_catalog`), None for the view's built-in one
    def WorldSampler(self, view: JsonObject, catalog: Any = None) -> WorldSamplerLike[G]: ...


# A registered game as `app/` and `ai/` hold it: its G and A are its own (what `load` or
# `legal_actions` gives is handed back to the same game), checked where it is defined.
GameModule = GameDefinition[Any, Any]

# The games of engine/, the default first (a set-up that names no game is its): importing a
# game package, above, registers it. mypy checks each package here against GameDefinition
# with its own in-memory state and action.
_ARCHITECTURA: GameDefinition[architectura.Game, architectura.Action] = architectura
_FORA_DE_PRUMO: GameDefinition[fora_de_prumo.Game, fora_de_prumo.Action] = fora_de_prumo
_PACKAGES: tuple[GameModule, ...] = (_ARCHITECTURA, _FORA_DE_PRUMO)


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


MAX_TEMPLATE_SEATS = 8  # a view's seats read for its template (more: no template)
MAX_VARIANT = 40  # the characters of a view's variant read for its template


def nulls_written(eng: GameModule, view: Any) -> Any:
    """A view sent back with its null fields written in where a view of the same game, seats,
    viewer and variant at the start of a game has them null (`engine.protocol.with_nulls`):
    what a serializer that drops nulls leaves out, read as a state's absent nulls are. The
    view is otherwise as sent (its own reader says what else is wrong)."""
    if not isinstance(view, dict):
        return view
    seats, viewer, variant = view.get("seats"), view.get("view_of"), view.get("variant")
    if not isinstance(seats, list) or not isinstance(viewer, int) or isinstance(viewer, bool):
        return view
    if not 0 <= viewer < len(seats) <= MAX_TEMPLATE_SEATS:
        return view
    if not (variant is None or (isinstance(variant, str) and len(variant) <= MAX_VARIANT)):
        return view
    return with_nulls(view, _template_view(eng.INFO.id, len(seats), viewer, variant))


@functools.lru_cache(maxsize=256)
def _template_view(game: str, seats: int, viewer: int, variant: str | None) -> Any:
    eng = engine(game)
    try:
        g = eng.new_game_internal(eng.tournament_setup(0, seats, variant))
    except (SetupError, InvalidState):
        return None  # no such game: the view's reader says what is wrong
    return null_skeleton(eng.game_view(g, viewer))
