"""A game's facts as data (`GameInfo`), and `register_game`, which each game package calls for
itself at the end of its `__init__` (the pattern of OpenSpiel's `GameType` and
`register_game`).

This module names no game and imports none: `engine/games.py` imports the game packages, in
one place, and answers for them (`GAMES`, `engine`, `info`, ...), and for any game registered
later from outside `engine/` (a test's toy game, tests/toygame/). `app/` and `ai/` read a
game's facts from its `GameInfo` instead of naming the game: its seat range, its clause
prefix and rule documents (GET /v1/rules), the set-up fields the HTTP layer writes out, the
decision that plays a card and a card's name in the balance report, its drawing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any


def same_card(card: str) -> str:
    """A card's name in the balance report: its id, for a game whose ids name one kind."""
    return card


@dataclass(frozen=True)
class PositionFeatures:
    """What a game's learned evaluation reads of a position (ai/model.py): game knowledge, so
    it lives with the game. `of(g)` gives every seat's features in a world `g` (a row per
    seat, as many floats as `names`); a seat's row reads only what that seat may see (a world
    sampled from its view gives it the same row), so the searching seat's own row is exact and
    the others' read the world as it was dealt, as a playout of that world would; `model` is
    the file of the model trained on them (versioned data beside the game; None: not trained
    yet)."""

    names: tuple[str, ...]
    of: Callable[[Any], list[list[float]]]
    model: Path | None = None


@dataclass(frozen=True)
class GameInfo:
    """What a game is, beside the rules its engine applies."""

    id: str  # the `game` field of its set-ups, states and views ("fora-de-prumo")
    name: str  # for people ("Fora de Prumo")
    rules_version: str  # the engine's RULES_VERSION
    min_seats: int  # the seat range: every count in min_seats..max_seats is a game
    max_seats: int
    clause_prefix: str  # the letter before every clause id of its rules ("F" in F-5.2)
    catalog_clause: str  # the clause that defines the catalog format (A-10, F-10)
    seats_clause: str  # the clause that numbers the seats (A-1.1, F-1.1)
    view_clause: str  # the clause on what a seat sees: its view (A-R13, F-R6)
    # its rules in the project's words and its rulings, relative to the repository, as
    # GET /v1/rules reads them (app/rules.py: clause items and sections; rulings tables)
    rule_documents: tuple[str, ...]
    ruling_documents: tuple[str, ...]
    play_decision: str  # the decision type that plays a card from a hand (balance report)
    # the name the balance report counts a played card under (one kind for several ids)
    card_name: Callable[[str], str] = same_card
    default_catalog: str = "reference"  # the built-in catalog of a set-up that names none
    # How the HTTP layer hands a set-up on (and a state's history keeps it): these fields
    # first, in this order, each as sent or else its default below, then the others as sent.
    setup_order: tuple[str, ...] = ("game", "catalog")
    setup_defaults: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({"catalog": "reference"}), hash=False
    )
    # The module that draws it as SVG for POST /v1/render (`render(board) -> str`, in
    # its package, pure SVG on engine/render/), None when it is not drawn.
    renderer: str | None = None
    # Every card a state holds, once for each (its hands, decks, table, ...), read from the
    # state's JSON: what the conformance suite (tests/common/test_conformance.py) checks a game
    # neither makes nor loses, decision after decision. None: not declared (not checked).
    state_cards: Callable[[Mapping[str, Any]], list[str]] | None = None
    # The ISMCTS bot's greedy prior at the root for this game (ai/mcts.py, PRIOR_WIDENING):
    # (the widening constant, the largest iteration budget it is used at), as measured to make
    # the bot stronger at equal CPU time; (0.0, 0): never (docs/bots.md, "Tried: a greedy prior").
    bot_prior: tuple[float, int] = (0.0, 0)
    # What its learned evaluation reads of a position, and the model (ai/model.py,
    # docs/model.md); None: the bots evaluate by random playouts only.
    features: PositionFeatures | None = None
    # What a page shows of the game without naming it (GET /v1/games, /play): a cell [a, b] of
    # its options and events in words ({0}, {1} its numbers; translated as msgctxt "cell"),
    # and the set-up fields a person picks, each with its choices (the first the default).
    cell_name: str = "({0}, {1})"
    setup_choices: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({}), hash=False
    )

    def __post_init__(self) -> None:
        if not 1 <= self.min_seats <= self.max_seats:
            raise ValueError(f"{self.id}: seats {self.min_seats}..{self.max_seats}")
        if not re.fullmatch(r"[A-Z]+", self.clause_prefix):
            raise ValueError(f"{self.id}: clause prefix {self.clause_prefix!r}")
        for clause in (self.catalog_clause, self.seats_clause, self.view_clause):
            if not clause.startswith(self.clause_prefix + "-"):
                raise ValueError(f"{self.id}: clause {clause!r} is not one of its own")
        unordered = set(self.setup_defaults) - set(self.setup_order)
        if unordered:
            raise ValueError(f"{self.id}: defaults of fields out of setup_order: {unordered}")
        unchosen = {k for k, v in self.setup_choices.items() if k not in self.setup_order or not v}
        if unchosen:
            raise ValueError(f"{self.id}: choices out of setup_order or empty: {unchosen}")
        object.__setattr__(self, "setup_choices", MappingProxyType(dict(self.setup_choices)))
        object.__setattr__(self, "setup_defaults", MappingProxyType(dict(self.setup_defaults)))

    @property
    def seats(self) -> range:
        """Every number of seats it is played by."""
        return range(self.min_seats, self.max_seats + 1)


@dataclass(frozen=True)
class Registered:
    info: GameInfo
    module: ModuleType


_REGISTERED: dict[str, Registered] = {}


def register_game(info: GameInfo, module: ModuleType) -> None:
    """Register a game: its facts and its package (whose names make `engine.games.GameModule`).
    Each game package calls it once, for itself; `engine/games.py` lists the packages."""
    if getattr(module, "INFO", None) is not info:
        raise ValueError(f"{module.__name__}.INFO is not the GameInfo it registers")
    known = _REGISTERED.get(info.id)
    if known is not None and known.module.__name__ != module.__name__:
        raise ValueError(f"game {info.id!r} is already registered by {known.module.__name__}")
    for other in _REGISTERED.values():
        if other.info.id != info.id and other.info.clause_prefix == info.clause_prefix:
            raise ValueError(f"clause prefix {info.clause_prefix!r} is {other.info.id!r}'s")
    _REGISTERED[info.id] = Registered(info, module)


def unregister_game(game_id: str) -> None:
    """Take a game out of the registry (a game registered for a test's time, after it:
    tests/common/test_conformance.py registers its toy game for its own tests only)."""
    _REGISTERED.pop(game_id, None)


def registered() -> Mapping[str, Registered]:
    """Every registered game by id, in the order they registered."""
    return MappingProxyType(_REGISTERED)
