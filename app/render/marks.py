"""`last_events` of POST /v1/render: the events a /v1/resolve answer returned for the last
decision(s), read into the cards and cells the picture marks with class `last-move`.

Stateless: the client sends back the events it was given; the service remembers nothing.
Hostile input: at most MAX_LAST_EVENTS events of at most MAX_EVENT_FIELDS fields each, and
only the fields that name a card or a cell are read, each of its declared shape (any other
field is ignored, so every event of either game is accepted as answered). A field of the
wrong shape is a 400 `invalid_request` whose pointer names it (`/last_events/3/card`).
Marking is only drawing: a card or cell named by an event but not on the board marks nothing.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from app.schemas import BoundedList
from engine.declared import is_int
from engine.messages import Msg, msg
from engine.render.board import NO_MARKS, Marks

MAX_LAST_EVENTS = 64  # a decision of either game writes at most about ten
MAX_EVENT_FIELDS = 32
MAX_NAMED = 8  # cards or cells in one field (`cards`, `cells`)
MAX_ID = 64  # characters of a card id
CARD_FIELDS = ("card", "target", "designer")  # a card id (null when withheld)
CELL_FIELDS = ("cell", "from", "to")  # a cell, or a source named by a word ("market", "hand")
BOUND = 10**6  # a cell's coordinates

Named = tuple[frozenset[str], frozenset[tuple[int, int]]]

CARD_SHAPE = msg("Must be a card id (a string of at most 64 characters) or null.")
CELL_SHAPE = msg("Must be a cell (two integers), a word such as market, or null.")


def _card(v: Any) -> str | None:
    if v is None or (isinstance(v, str) and 1 <= len(v) <= MAX_ID):
        return v
    raise ValueError


def _cell(v: Any) -> tuple[int, int]:
    if isinstance(v, list) and len(v) == 2 and all(is_int(c) and abs(c) <= BOUND for c in v):
        return (v[0], v[1])
    raise ValueError


def _place(v: Any) -> tuple[int, int] | None:
    """A cell, or where a card came from or went named by a word (`market`, `hand`)."""
    if v is None or (isinstance(v, str) and len(v) <= MAX_ID):
        return None
    return _cell(v)


def _many(v: Any, one: Any) -> list[Any]:
    if not isinstance(v, list) or len(v) > MAX_NAMED:
        raise ValueError
    return [one(x) for x in v]


def _read(event: dict[str, Any]) -> Named:
    """The cards and cells `event` names (ValidationError naming the first bad field)."""
    cards: list[str | None] = []
    cells: list[tuple[int, int] | None] = []
    readers: list[tuple[str, Any, list[Any], Msg]] = [
        *((f, _card, cards, CARD_SHAPE) for f in CARD_FIELDS),
        ("cards", lambda v: _many(v, _card), cards, msg("Must be a list of card ids.")),
        *((f, _place, cells, CELL_SHAPE) for f in CELL_FIELDS),
        ("cells", lambda v: _many(v, _cell), cells, msg("Must be a list of cells.")),
    ]
    for name, read, into, shape in readers:
        if name not in event:
            continue
        try:
            got = read(event[name])
        except ValueError:
            raise ValidationError({name: [shape]}) from None
        into.extend(got if isinstance(got, list) else [got])
    return (
        frozenset(c for c in cards if c is not None),
        frozenset(c for c in cells if c is not None),
    )


class EventNames(fields.Field):  # type: ignore[type-arg]
    """One event of a /v1/resolve answer, read for the cards and cells it names."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Named:
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            raise ValidationError(msg("Must be an event object, as /v1/resolve answers it."))
        if len(value) > MAX_EVENT_FIELDS:
            raise ValidationError(msg("An event has at most {most} fields.", most=MAX_EVENT_FIELDS))
        return _read(value)


def last_events_field() -> BoundedList:
    return BoundedList(EventNames(), most=MAX_LAST_EVENTS, what=msg("events (the last decision's)"))


def marks(named: list[Named] | None) -> Marks:
    """What the picture marks: every card and cell the events name."""
    if not named:
        return NO_MARKS
    return Marks(
        frozenset().union(*(cards for cards, _ in named)),
        frozenset().union(*(cells for _, cells in named)),
    )
