"""Toy Match drawn as SVG for POST /v1/render (GameInfo.renderer names this module): the
pile's top card, each hand (its cards, or their backs for a hidden hand) and the deck."""

from __future__ import annotations

from html import escape
from typing import Any

COLOURS = ("#d13c3c", "#2f6fd0", "#2e9e4f", "#d9a400")


def _card(x: int, y: int, label: str, fill: str) -> str:
    return (
        f'<rect x="{x}" y="{y}" width="36" height="50" rx="4" fill="{fill}" stroke="#333"/>'
        f'<text x="{x + 18}" y="{y + 30}" text-anchor="middle" fill="#fff">{escape(label)}</text>'
    )


def render(board: Any) -> str:
    doc, suits = board.doc, sorted({c.suit for c in board.game.cat.cards.values()})
    shade = {s: COLOURS[i % len(COLOURS)] for i, s in enumerate(suits)}

    def fill(cid: str) -> str:
        return shade[board.game.cat.cards[cid].suit]

    title = board.heading("Toy Match")
    parts = [f'<text x="10" y="20">{escape(title)}</text>']
    top = doc["pile"][-1]["card"]
    parts.append(_card(10, 30, top, fill(top)))
    deck = doc["deck_count"] if doc.get("deck") is None else len(doc["deck"])
    parts.append(_card(60, 30, str(deck), "#777"))
    for j, seat in enumerate(doc["seats"]):
        y = 100 + 60 * j
        parts.append(f'<text x="10" y="{y + 30}">{j}</text>')
        hand = seat["hand"]
        cards = hand if hand is not None else [None] * seat["hand_count"]
        for k, cid in enumerate(cards):
            label, colour = ("?", "#555") if cid is None else (cid, fill(cid))
            parts.append(_card(30 + 40 * k, y, label, colour))
    height = 110 + 60 * len(doc["seats"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="{height}" '
        f'font-family="sans-serif" font-size="12">{"".join(parts)}</svg>'
    )


def legend(board: Any) -> str:
    """What its pictures show (GET /v1/legend): a card's colour is its suit."""
    rows = [
        f'{_card(10, 10 + 60 * i, suit[0].upper(), fill)}<text x="56" y="40" '
        f'transform="translate(0 {60 * i})">{escape(suit)}</text>'
        for i, (suit, fill) in enumerate(zip(("red", "blue"), COLOURS, strict=False))
    ]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="130" font-family="sans-serif"'
        f' font-size="12">{"".join(rows)}</svg>'
    )
