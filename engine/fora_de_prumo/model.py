"""The in-memory Fora de Prumo game: compact, mutable, cheap to copy (the bots copy it a lot).

Card ids are the catalog ids (each card exists once, F-1.3). Works and buildings are shared
between copies (copy-on-write), so `Game.copy()` costs a few list copies whatever the size of
the works: a seat's work and building that may be shared are copied before a lay or a
conversion changes them (`Game.own_work`), and a game's own are changed in place.

Actions (the in-memory decisions, OpenSpiel-style tuples; serialize.action_to_json gives the
JSON decision object for each):
- ("buy", card)                     F-3.1 market card, or (after a look) a peeked deck card
- ("look",)                         F-6.1 / F-R19 coordenadora
- ("skip",)                         F-3.1 no purchase
- ("lay", card, x, y, r, src)       F-3.3a; x, y, r are None for a site card (F-3.5);
                                    src: "" from the hand, "market"/"deck" in a final turn (F-R26)
- ("convert", designer, target)     F-6.3 / F-R20
- ("clone", card, target, src)      F-6.6 / F-R22
- ("pass",)                         F-3.3 no lay, no action
"""

from __future__ import annotations

from typing import Any, Final

from engine.fora_de_prumo.building import Building
from engine.fora_de_prumo.catalog import Catalog
from engine.fora_de_prumo.work import Work

GAME_ID = "fora-de-prumo"
RULES_VERSION = "fora-de-prumo-rules/1.0"

Action = tuple[Any, ...]
Event = dict[str, Any]

# turn steps (turn.step in the JSON state); Final: compiled, read as constants, not looked up
BUY: Final = "buy"
LAY: Final = "lay"
FINAL: Final = "final"

LOOK: Final[Action] = ("look",)
SKIP: Final[Action] = ("skip",)
PASS: Final[Action] = ("pass",)


class Game:
    __slots__ = (
        "_opts",
        "bought",
        "buildings",
        "cat",
        "deck",
        "final",
        "first_seat",
        "hands",
        "log",
        "market",
        "market_size",
        "n",
        "over",
        "own",
        "passes",
        "pcache",
        "peeked",
        "rng",
        "seat",
        "step",
        "turn",
        "works",
    )

    cat: Catalog
    n: int
    market_size: int
    first_seat: int
    hands: list[list[str]]
    works: list[Work]
    buildings: list[Building]  # buildings[s] mirrors works[s].building (+ conversions)
    # own[s]: works[s] and buildings[s] belong to this game alone (made by it since its last
    # `copy`), so a lay changes them in place; otherwise another game may share them
    own: list[bool]
    pcache: list[dict[str, list[Action]]]  # a space's lays per building (flow.hand_lays)
    deck: list[str]  # top first
    market: list[str]  # index 0 = first turned up (F-1.7, F-2.7)
    seat: int  # whose turn it is
    turn: int  # turn counter, 1 for the first turn
    step: str | None  # BUY, LAY, FINAL; None once the game is over
    peeked: list[str]  # cards seen with the coordenadora this turn, in deck order (F-R19)
    bought: str | None  # card bought this turn (F-R7)
    passes: int  # consecutive complete passes before the final round (F-R27)
    final: tuple[int, list[int]] | None  # (triggered_by, seats still to play) (F-R25)
    rng: int
    over: bool
    log: list[Event] | None
    _opts: list[Action] | None

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.cat, g.n, g.market_size, g.first_seat = (
            self.cat,
            self.n,
            self.market_size,
            self.first_seat,
        )
        g.hands = [h[:] for h in self.hands]
        g.works = self.works[:]
        g.buildings = self.buildings[:]
        g.own = [False] * self.n  # the works and buildings are shared from now on,
        self.own = [False] * self.n  # by both games
        g.pcache = self.pcache[:]
        g.deck = self.deck[:]
        g.market = self.market[:]
        g.seat, g.turn, g.step = self.seat, self.turn, self.step
        g.peeked = self.peeked[:]
        g.bought, g.passes = self.bought, self.passes
        g.final = None if self.final is None else (self.final[0], self.final[1][:])
        g.rng, g.over = self.rng, self.over
        g.log = None
        g._opts = self._opts  # options lists are never mutated in place
        return g

    def emit(self, event: Event) -> None:
        if self.log is not None:
            self.log.append(event)

    def own_work(self, seat: int) -> Work:
        """The seat's work, to be changed with its building (`buildings[seat]`): both copied
        first if they may be shared with another Game (copy-on-write)."""
        if not self.own[seat]:
            self.works[seat] = self.works[seat].copy()
            self.buildings[seat] = self.buildings[seat].copy()
            self.own[seat] = True
        return self.works[seat]

    def looked(self) -> bool:
        """A coordenadora look happened this turn (F-R19): at most one per turn."""
        return bool(self.peeked)

    def bought_from_deck(self) -> bool:
        return self.bought is not None and self.bought in self.peeked

    def peeked_on_deck(self) -> list[str]:
        """The seen cards still on top of the deck, in order (a deck purchase removes one)."""
        return [c for c in self.peeked if c != self.bought]
