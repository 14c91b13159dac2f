"""The internal game model: compact, mutable, cheap to copy (the bots copy it a lot).

The public face is plain JSON (serialize.py); this module is what the rule functions work on.
Card instances are small integers; a city entry is a tuple
(instance, orientation index, face_up, token) where `token` means one of the owner's
protection tokens lies on the card (A-6.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.architectura.catalog import CardDef, Catalog

BLOCKS = 8
RULES_VERSION = "architectura-rules/1.0"
HAND_LIMIT = 3
TOKENS = 2
VARIANTS = ("basic", "advanced")  # the basic game, or with replacements

Entry = tuple[int, int, bool, bool]
Action = tuple[Any, ...]
Task = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Instances:
    """Every card instance of one game: its stable id (`red.palace`), owner seat and card."""

    names: tuple[str, ...]
    owner: tuple[int, ...]
    cdef: tuple[CardDef, ...]
    index: dict[str, int]
    # each instance's `CardDef.shielded_in_city`, read as a tuple item: protection
    # is tested for most targets of every operation, and a property is a call each time
    shielded: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    # whether any instance has a play cost (A-9 City Hall, Magic Academy): without one (the
    # basic game) no card in hand is ever unpayable (A-3.1c), and a turn need not look
    costs: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shielded", tuple(c.shielded_in_city for c in self.cdef))
        object.__setattr__(self, "costs", any(c.cost_remove for c in self.cdef))


class Game:
    __slots__ = (
        "_at",
        "_opts",
        "cat",
        "city",
        "colours",
        "decks",
        "fountain",
        "graves",
        "hands",
        "inst",
        "limits",
        "log",
        "mulligan",
        "n",
        "outside",
        "over",
        "removed",
        "replacements",
        "rng",
        "seat",
        "started",
        "tasks",
        "tokens",
        "turn",
        "variant",
    )

    cat: Catalog
    inst: Instances
    n: int
    colours: tuple[str, ...]
    variant: str
    replacements: tuple[tuple[tuple[str, str], ...], ...]
    decks: list[list[int]]
    hands: list[list[int]]
    tokens: list[int]
    limits: list[int]
    mulligan: list[bool]
    started: list[bool]
    outside: list[list[int]]
    graves: list[list[int]]
    removed: list[list[int]]
    city: list[list[Entry]]
    fountain: list[int]
    seat: int
    turn: int
    tasks: list[Task]
    rng: int
    over: bool
    log: list[Event] | None
    _opts: list[Action] | None
    # _at[iid]: the cell where `locate` last found instance iid (or where it was last put):
    # a hint, checked before it is trusted, never part of the state
    _at: list[int]

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.cat, g.inst, g.n, g.colours = self.cat, self.inst, self.n, self.colours
        g.variant, g.replacements = self.variant, self.replacements
        copy = list.copy  # C-level copies of the small lists (cheaper than comprehensions)
        g.decks = list(map(copy, self.decks))
        g.hands = list(map(copy, self.hands))
        g.tokens = self.tokens[:]
        g.limits = self.limits[:]
        g.mulligan = self.mulligan[:]
        g.started = self.started[:]
        g.outside = list(map(copy, self.outside))
        g.graves = list(map(copy, self.graves))
        g.removed = list(map(copy, self.removed))
        g.city = list(map(copy, self.city))
        g.fountain = self.fountain[:]
        g.seat, g.turn, g.rng, g.over = self.seat, self.turn, self.rng, self.over
        g.tasks = self.tasks[:]  # tasks are never mutated in place
        g.log = None
        g._opts = self._opts
        g._at = self._at[:]
        return g

    # -- small queries used everywhere -------------------------------------------------

    def emit(self, event: Event) -> None:
        if self.log is not None:
            self.log.append(event)

    def name(self, iid: int) -> str:
        return self.inst.names[iid]

    def owner(self, iid: int) -> int:
        return self.inst.owner[iid]

    def card(self, iid: int) -> CardDef:
        return self.inst.cdef[iid]

    def top(self, cell: int) -> Entry | None:
        stack = self.city[cell]
        return stack[-1] if stack else None

    def locate(self, iid: int) -> int:
        """The cell where `iid` is the top card, or -1."""
        city = self.city
        cell = self._at[iid]
        stack = city[cell]
        if stack and stack[-1][0] == iid:  # where it was last seen: most often still there
            return cell
        cell = 0
        for stack in city:
            if stack and stack[-1][0] == iid:
                self._at[iid] = cell
                return cell
            cell += 1  # noqa: SIM113 (a counter is cheaper than enumerate's tuples here)
        return -1


def cell_json(cell: int) -> list[int]:
    """Cells are [street, block], both counted from 1 as the rulebook does."""
    return [cell // BLOCKS + 1, cell % BLOCKS + 1]


def cell_event(
    g: Game,
    kind: str,
    iid: int,
    cell: int,
    clause: str,
    extra: Event | None = None,
    seat: int | None = None,
) -> Event:
    """The event of a card of a cell (played, destroyed, removed, protected): its type, the
    seat (where given), card and cell, then `extra`'s fields, then the clause (the order the
    log has always written)."""
    event: Event = {"type": kind}
    if seat is not None:
        event["seat"] = seat
    event["card"] = g.name(iid)
    event["cell"] = cell_json(cell)
    if extra is not None:
        event.update(extra)
    event["clause"] = clause
    return event
