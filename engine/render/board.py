"""What a renderer is given (see app/render/__init__.py): a `Board`, with the translator of
the answer's language passed in, so that drawing stays pure (no Flask, no catalogs here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# (msgid, msgctxt) -> its translation, None when the catalog lacks it (then English is drawn)
Translator = Callable[[str, str], str | None]


def english(msgid: str, context: str) -> str | None:
    """The translator of English pictures: every label as written."""
    return None


# Seat colours drawn for colour names the catalog uses; other names fall back by seat index.
PALETTE = {
    "blue": "#2f6fd0",
    "green": "#2e9e4f",
    "yellow": "#d9a400",
    "red": "#d13c3c",
}
FALLBACK = ("#2f6fd0", "#2e9e4f", "#d9a400", "#d13c3c", "#8e44ad", "#16a085")


def seat_colour(seat: int, name: object = None) -> str:
    """A fixed hex colour (never a value from the input, which is only ever shown as text)."""
    if isinstance(name, str) and name in PALETTE:
        return PALETTE[name]
    return FALLBACK[seat % len(FALLBACK)]


DECIDED_BY = {
    "score": "highest score",
    "face_up_cards": "tie broken by face-up cards, A-8.2",
    "lowest_card": "tie broken by the lowest card, A-8.2",
    "connections": "tie broken by connections, F-8.12",
    "spaces": "tie broken by spaces, F-8.12",
    "shared": "a shared win",
}


def decided(board: Board) -> str:
    """How the winners were decided, for a person (the engine's `decided_by`)."""
    how = str(board.scores.get("decided_by", "score"))
    return board.t(DECIDED_BY[how]) if how in DECIDED_BY else how


@dataclass(frozen=True)
class Marks:
    """What the last decision changed, to be marked (class `last-move`): the card ids and the
    cells (Architectura's [street, block]) that its events name (app/render/http.py reads
    them from the request's `last_events`)."""

    cards: frozenset[str] = frozenset()
    cells: frozenset[tuple[int, int]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.cards or self.cells)


NO_MARKS = Marks()
LAST_MOVE = "last-move"


@dataclass(frozen=True)
class Board:
    doc: dict[str, Any]  # a state or a view (JSON the engine produced itself)
    game: Any  # the engine's in-memory game (`.cat`, `.n`, ...)
    viewer: int | None  # the seat whose view this is; None = the whole state
    scores: dict[str, Any]  # the engine's standings now (final once the game is over)
    translate: Translator = english  # the answer's language (app/render/http.py passes it)
    composed: bool = False  # the state was composed from a position, not dealt (docs/trust.md)
    # an option of the pending decision to draw as if taken (never applied), or None
    preview: dict[str, Any] | None = None
    marks: Marks = NO_MARKS  # what the last decision changed (docs/render.md, last_events)
    columns: int | None = None  # at most this many seats' panels side by side (None: the game's)

    def mark(self, cls: str, card: object = None, cell: object = None) -> str:
        """`cls`, with `last-move` added when the last decision changed `card` or `cell`."""
        hit = (isinstance(card, str) and card in self.marks.cards) or (
            isinstance(cell, tuple) and cell in self.marks.cells
        )
        return f"{cls} {LAST_MOVE}" if hit else cls

    @classmethod
    def for_legend(cls, translate: Translator = english) -> Board:
        """A board without a game, for drawing a game's legend with its board's helpers."""
        return cls(doc={}, game=None, viewer=None, scores={}, translate=translate)

    def heading(self, game_name: str) -> str:
        """The picture's first line: the game, whose view it is, and a composed position."""
        parts = [game_name]
        if self.viewer is not None:
            parts.append(self.t("view of seat {seat}", seat=self.viewer))
        if self.composed:
            parts.append(self.t("composed position, not dealt"))
        return " · ".join(parts)

    def t(self, msgid: str, **values: object) -> str:
        """A fixed label of the picture in its language (msgctxt "render"; English when the
        catalog lacks it), with `values` put in its placeholders."""
        return (self.translate(msgid, "render") or msgid).format(**values)

    def word(self, value: object, context: str = "card") -> str:
        """A name as the catalogs translate it (card, colour, card type, prompt); names the
        catalogs do not know (custom catalogs, Fora de Prumo's Portuguese names) stay as given."""
        s = str(value)
        return self.translate(s, context) or s
