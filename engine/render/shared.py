"""Pieces both games' pictures draw the same way: the heading, a seat's standing (to play,
winner, points), framed cards and panels, the hatch of hidden cards and the picture itself."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from engine.render.board import LAST_MOVE, Board, decided
from engine.render.svg import clip, document, el, rect, text

# the hatch of a face-down or hidden card
HATCH = (
    '<pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="8" height="8" fill="#5a5550"/>'
    '<line x1="0" y1="0" x2="0" y2="8" stroke="#77716a" stroke-width="4"/></pattern>'
)
STATUS_COLOUR = ("#1c7c32", "#b35c00")  # a winner, the seat to play
# what the last decision changed (Board.marks): a magenta glow around the card or cell
LAST_MOVE_STYLE = (
    f"svg .{LAST_MOVE}{{filter:drop-shadow(0 0 2px #e6007e) drop-shadow(0 0 4px #e6007e)}}"
)


def count(doc: dict[str, Any], key: str) -> Any:
    """How many cards `doc[key]` holds: the list's length, or `<key>_count` where a view
    keeps only the count."""
    cards = doc.get(key)
    return len(cards) if isinstance(cards, list) else doc.get(f"{key}_count", 0)


def standing(board: Board, seat: int) -> tuple[bool, bool]:
    """(the seat is to play, the seat has won)."""
    doc = board.doc
    pending = doc.get("pending") or {}
    to_play = not doc.get("game_over") and pending.get("seat") == seat
    won = bool(doc.get("game_over")) and seat in board.scores.get("winners", [])
    return to_play, won


def status(board: Board, x: float, y: float, to_play: bool, won: bool) -> str:
    """The seat's standing (to play, or winner), right-aligned at (x, y)."""
    label = board.t("▶ to play") if to_play else board.t("★ winner") if won else ""
    return text(x, y, label, class_="r b", font_size=12, fill=STATUS_COLOUR[to_play])


def points(board: Board, x: float, y: float, total: object) -> str:
    """The seat's points now (nothing when unknown), right-aligned at (x, y)."""
    label = board.t("{total} pts", total=total) if total is not None else ""
    return text(x, y, label, class_="r b", font_size=16, fill="#222")


def game_over(board: Board, name: Callable[[int], str]) -> str:
    """The heading's line once the game is over: the winners (`name` of each seat) and how."""
    names = ", ".join(name(w) for w in board.scores.get("winners", []))
    return board.t("Game over · winner: {names} ({decided})", names=names, decided=decided(board))


def heading(board: Board, game_name: str, x: float, line: str, chars: int = 130) -> list[str]:
    """The picture's two first lines: the game (and whose view), then `line` (at most `chars`
    characters: a narrow picture's are fewer)."""
    label = board.heading(game_name)
    return [
        text(x, 16, label, class_="b", font_size=18, fill="#3b2f1e"),
        text(x, 38, clip(line, chars), font_size=13, fill="#333"),
    ]


def framed(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    rx: int,
    band: float,
    colour: str,
    fill: str,
    stroke: float,
) -> list[str]:
    """A card: its frame, edged in `colour` (`stroke` wide), and its top band in `colour`."""
    return [
        rect(x, y, w, h, rx=rx, fill=fill, stroke=colour, stroke_width=stroke),
        rect(x, y, w, band, rx=rx, fill=colour),
    ]


def panel_frame(x: float, y: float, w: float, h: float, rx: int, colour: str, bold: bool) -> str:
    """A seat's panel, its edge thicker while the seat is to play."""
    return rect(x, y, w, h, rx=rx, fill="#fff", stroke=colour, stroke_width=4 if bold else 2)


def picture(
    width: float, height: float, label: str, *parts: str, defs: str, marked: bool = False
) -> str:
    """The whole picture on its paper-coloured ground (`marked`: with the style of the
    last move's marks)."""
    ground = rect(0, 0, width, height, fill="#efe8d8")
    style = LAST_MOVE_STYLE if marked else ""
    return document(width, height, label, ground, *parts, defs=defs, style=style)


# A game's legend (GET /v1/legend): one row per symbol, drawn by the board's own helpers in a
# LEGEND_SYMBOL x LEGEND_ROW box, its label beside it, wrapped.
LEGEND_W, LEGEND_ROW, LEGEND_SYMBOL = 400, 40, 84
LegendRow = tuple[str, str, str]  # (kind, the symbol's markup in its box, the label)


def at(markup: str, point: tuple[float, float], scale: float = 1.0) -> str:
    """`markup` moved and scaled so that its `point` lands in the middle of a legend box."""
    px, py = point
    dx, dy = LEGEND_SYMBOL / 2 - px * scale, LEGEND_ROW / 2 - py * scale
    return el("g", markup, transform=f"translate({dx:.2f} {dy:.2f}) scale({scale})")


def legend(board: Board, game_name: str, rows: list[LegendRow], defs: str) -> str:
    """The legend of a game's pictures: each row a symbol (class `legend-item`, `data-symbol`
    its kind) and what it means."""
    heading = board.t("{game}: what the pictures show", game=game_name)
    parts = [text(12, 18, heading, class_="b", font_size=16, fill="#3b2f1e")]
    y = 34.0
    for kind, symbol, label in rows:
        lines = textwrap.wrap(label, 38) or [""]
        h = max(LEGEND_ROW, 16 * len(lines) + 10)
        middle = y + h / 2
        words = [
            text(LEGEND_SYMBOL + 18, middle + 16 * (i - (len(lines) - 1) / 2), part, font_size=13)
            for i, part in enumerate(lines)
        ]
        box = el("g", symbol, transform=f"translate(10 {y + (h - LEGEND_ROW) / 2})")
        parts.append(el("g", box, *words, class_="legend-item", data_symbol=kind))
        y += h
    return picture(LEGEND_W, y + 8, heading, *parts, defs=defs, marked=True)
