"""Architectura as SVG: the city (streets x blocks, A-1.2), the seats and their hands.

Each cell shows its top card (A-1.2): name, current value (A-2), the card's side values with
the one on top marked and an arrow for its orientation (A-2.1), face-down cards hatched
(A-2.6), protection tokens (A-6), Fountain tokens (A-4.3), and a badge counting the cards
beneath; hovering a cell lists its whole stack. Cells, city cards and hand cards carry
`data-cell` / `data-card` attributes so a page can map clicks to decisions.
"""

from __future__ import annotations

import json
from typing import Any

from app.render.board import Board, decided, seat_colour
from app.render.svg import clip, document, el, text, title

CW, CH, GAP = 118, 132, 6  # cell size and gap
LEFT = 40  # street labels
HEADER = 52
PANEL_H = 78
HAND_W, HAND_H = 112, 58


def _def(cat: Any, inst: str) -> Any:
    """The catalog card of an instance id `colour.card`."""
    return cat.cards.get(inst.partition(".")[2])


def _name(board: Board, inst: str) -> str:
    d = _def(board.game.cat, inst)
    return board.word(d.name) if d is not None else inst


def _formula(d: Any) -> str | None:
    if d is None or d.formula is None:
        return None
    off = d.offset
    return f"{d.formula}{'+' if off >= 0 else '-'}{abs(off)}" if off else d.formula


def _owner(seats: list[dict[str, Any]], inst: str) -> int:
    colour = inst.partition(".")[0]
    for i, s in enumerate(seats):
        if s.get("colour") == colour:
            return i
    return 0


def _describe(board: Board, entry: dict[str, Any], colour: str) -> str:
    d = _def(board.game.cat, entry["card"])
    name = _name(board, entry["card"])
    colour = board.word(colour, "colour")
    if not entry.get("face_up", True):
        return board.t("{colour} {card}, face down (no value, A-2.6)", colour=colour, card=name)
    out = board.t(
        "{colour} {card}, value {value}", colour=colour, card=name, value=entry.get("value")
    )
    if d is not None and len(d.values) > 1:
        out = board.t(
            "{description} (orientation {orientation} of values {values})",
            description=out,
            orientation=entry.get("orientation"),
            values="/".join(map(str, d.values)),
        )
    if entry.get("token"):
        out = board.t("{description}, protected by a token (A-6)", description=out)
    return out


def _shield(board: Board, x: float, y: float, fill: str) -> str:
    path = (
        f"M{x},{y - 9} L{x + 8},{y - 6} L{x + 7},{y + 3} Q{x + 4},{y + 8} {x},{y + 10} "
        f"Q{x - 4},{y + 8} {x - 7},{y + 3} L{x - 8},{y - 6} Z"
    )
    return el(
        "path",
        title(board.t("protection token (A-6): the card cannot be targeted by rivals' effects")),
        d=path,
        fill=fill,
        stroke="#fff",
        stroke_width=1.5,
        class_="token",
    )


def _orientation_arrow(board: Board, x: float, y: float, orientation: int, n: int) -> str:
    tip = board.t(
        "orientation {orientation} of {n} (A-2.1): rotate clockwise for a higher value",
        orientation=orientation,
        n=n,
    )
    return el(
        "path",
        title(tip),
        d=f"M{x},{y - 7} L{x + 5},{y + 4} L{x},{y + 1} L{x - 5},{y + 4} Z",
        fill="#444",
        transform=f"rotate({90 * orientation} {x} {y})",
    )


def _card_face(
    board: Board, entry: dict[str, Any], x: float, y: float, colour: str, fill: str
) -> list[str]:
    d = _def(board.game.cat, entry["card"])
    name = _name(board, entry["card"])
    parts: list[str] = []
    if not entry.get("face_up", True):
        parts.append(
            el(
                "rect",
                x=x + 3,
                y=y + 3,
                width=CW - 6,
                height=CH - 6,
                rx=8,
                fill="url(#hatch)",
                stroke=colour,
                stroke_width=3,
            )
        )
        parts.append(
            text(x + CW / 2, y + CH / 2 - 10, clip(name, 14), class_="c", fill="#eee", font_size=13)
        )
        parts.append(
            text(
                x + CW / 2,
                y + CH / 2 + 10,
                board.t("face down"),
                class_="c",
                fill="#ddd",
                font_size=11,
                font_style="italic",
            )
        )
        return parts
    parts.append(
        el(
            "rect",
            x=x + 3,
            y=y + 3,
            width=CW - 6,
            height=CH - 6,
            rx=8,
            fill=fill,
            stroke=colour,
            stroke_width=3,
        )
    )
    parts.append(el("rect", x=x + 3, y=y + 3, width=CW - 6, height=22, rx=8, fill=colour))
    parts.append(text(x + CW / 2, y + 15, clip(name, 15), class_="c b", fill="#fff", font_size=12))
    value = entry.get("value")
    parts.append(
        text(
            x + CW / 2,
            y + 58,
            "-" if value is None else value,
            class_="c b",
            font_size=34,
            fill="#222",
        )
    )
    formula = _formula(d)
    if formula is not None:
        parts.append(text(x + CW / 2, y + 92, formula, class_="c", font_size=13, fill="#555"))
    elif d is not None and d.values:
        values = list(d.values)
        k = entry.get("orientation", 0)
        step = min(24, (CW - 20) / max(len(values), 1))
        x0 = x + CW / 2 - step * (len(values) - 1) / 2
        for i, v in enumerate(values):
            cx = x0 + i * step
            if i == k:
                parts.append(
                    el("rect", x=cx - 10, y=y + 84, width=20, height=17, rx=4, fill=colour)
                )
            parts.append(
                text(
                    cx,
                    y + 93,
                    v,
                    class_="c" + (" b" if i == k else ""),
                    font_size=12,
                    fill="#fff" if i == k else "#555",
                )
            )
        if len(values) > 1:
            parts.append(_orientation_arrow(board, x + 16, y + 40, int(k), len(values)))
    if entry.get("token"):
        parts.append(_shield(board, x + CW - 17, y + 42, colour))
    return parts


def _cell(
    board: Board,
    street: int,
    block: int,
    stack: list[dict[str, Any]],
    x: float,
    y: float,
    fountain: tuple[int, str] | None,
) -> str:
    seats = board.doc["seats"]
    cat = board.game.cat
    cell = [street, block]
    parts: list[str] = []
    lines = [
        board.t(
            "cell {cell} (street {street}, block {block})",
            cell=json.dumps(cell),
            street=street,
            block=block,
        )
    ]
    card_attr: str | None = None
    if not stack:
        parts.append(
            el(
                "rect",
                x=x + 3,
                y=y + 3,
                width=CW - 6,
                height=CH - 6,
                rx=8,
                fill="#f6f2e8",
                stroke="#c9bfa8",
                stroke_width=1.5,
                stroke_dasharray="5 4",
                class_="empty",
            )
        )
        lines.append(board.t("empty"))
    else:
        top = stack[-1]
        owner = _owner(seats, top["card"])
        cname = seats[owner].get("colour", f"seat {owner}")
        colour = seat_colour(owner, cname)
        parts += _card_face(board, top, x, y, colour, "#fffdf7")
        card_attr = top["card"]
        lines.append(_describe(board, top, str(cname)))
        d = _def(cat, top["card"])
        if d is not None and d.text and top.get("face_up", True):
            lines.append(d.text)
        beneath = stack[:-1]
        if beneath:
            below = "; ".join(
                _describe(board, e, str(seats[_owner(seats, e["card"])].get("colour")))
                for e in beneath
            )
            lines.append(board.t("beneath, bottom first: {cards}", cards=below))
            parts.append(el("circle", cx=x + CW - 18, cy=y + CH - 18, r=11, fill="#333"))
            parts.append(
                text(
                    x + CW - 18,
                    y + CH - 18,
                    f"+{len(beneath)}",
                    class_="c b",
                    fill="#fff",
                    font_size=11,
                )
            )
    if fountain is not None:
        fseat, fname = fountain
        fcol = seat_colour(fseat, fname)
        lines.append(
            board.t(
                "Fountain token of {colour} (seat {seat}): its rivals may not play here (A-4.3)",
                colour=board.word(fname, "colour"),
                seat=fseat,
            )
        )
        parts.append(
            el(
                "circle",
                cx=x + 18,
                cy=y + CH - 18,
                r=12,
                fill="#bfe3ff",
                stroke=fcol,
                stroke_width=3,
                class_="fountain",
            )
        )
        parts.append(text(x + 18, y + CH - 18, "F", class_="c b", fill="#0b4f8a", font_size=13))
    return el(
        "g",
        title("\n".join(lines)),
        *parts,
        class_="cell",
        data_cell=json.dumps(cell),
        data_card=card_attr,
    )


ZONES = ("outside", "graveyard", "removed")  # a seat's other piles, counted in its panel


def _seat_panel(board: Board, i: int, x: float, y: float, w: float) -> str:
    s = board.doc["seats"][i]
    name = str(s.get("colour", f"seat {i}"))
    colour = seat_colour(i, name)
    pending = board.doc.get("pending") or {}
    score_seats = board.scores.get("seats", [])
    total = score_seats[i]["total"] if i < len(score_seats) else None
    hand = s.get("hand")
    hand_n = len(hand) if isinstance(hand, list) else s.get("hand_count", 0)
    deck = s.get("deck")
    deck_n = len(deck) if isinstance(deck, list) else s.get("deck_count", 0)
    to_play = not board.doc.get("game_over") and pending.get("seat") == i
    won = board.doc.get("game_over") and i in board.scores.get("winners", [])
    parts = [
        el(
            "rect",
            x=x,
            y=y,
            width=w - 8,
            height=PANEL_H - 8,
            rx=8,
            fill="#fff",
            stroke=colour,
            stroke_width=4 if to_play else 2,
        ),
        el("rect", x=x, y=y, width=10, height=PANEL_H - 8, rx=4, fill=colour),
        text(
            x + 20,
            y + 16,
            board.t("{colour} · seat {seat}", colour=board.word(name, "colour"), seat=i)
            + (" · " + board.t("you") if board.viewer == i else ""),
            class_="b",
            font_size=15,
            fill=colour,
        ),
        text(
            x + w - 18,
            y + 16,
            board.t("{total} pts", total=total) if total is not None else "",
            class_="r b",
            font_size=16,
            fill="#222",
        ),
        text(
            x + 20,
            y + 38,
            board.t(
                "hand {hand} · deck {deck} · tokens {tokens}",
                hand=hand_n,
                deck=deck_n,
                tokens=s.get("tokens", 0),
            ),
            font_size=12,
            fill="#333",
        ),
    ]
    extra = []
    for zone in ZONES:
        cards = s.get(zone) or []
        if cards:
            extra.append(f"{board.t(zone)} {len(cards)}")
    status = board.t("▶ to play") if to_play else board.t("★ winner") if won else ""
    parts.append(text(x + 20, y + 56, " · ".join(extra) or " ", font_size=11, fill="#666"))
    parts.append(
        text(
            x + w - 18,
            y + 56,
            status,
            class_="r b",
            font_size=12,
            fill="#b35c00" if to_play else "#1c7c32",
        )
    )
    zone_lines = [
        board.t(
            "{zone}: {cards}",
            zone=board.t(zone),
            cards=", ".join(_name(board, c) for c in (s.get(zone) or [])),
        )
        for zone in ZONES
        if s.get(zone)
    ]
    tip = "\n".join(
        [
            board.t(
                "{colour} (seat {seat}): {total} points now",
                colour=board.word(name, "colour"),
                seat=i,
                total=total,
            ),
            *zone_lines,
        ]
    )
    return el("g", title(tip), *parts, class_="seat", data_seat=i)


def _hand(board: Board, i: int, x: float, y: float) -> str:
    s = board.doc["seats"][i]
    cat = board.game.cat
    name = str(s.get("colour", f"seat {i}"))
    colour = seat_colour(i, name)
    label = board.t("{colour} hand", colour=board.word(name, "colour"))
    parts = [text(x, y + HAND_H / 2, label, class_="b", font_size=13, fill=colour)]
    for k, inst in enumerate(s.get("hand") or []):
        cx = x + 96 + k * (HAND_W + 8)
        d = _def(cat, inst)
        basic: object = ""
        if d is not None:
            basic = _formula(d) or (d.values[d.basic_index] if d.values else "")
        tip = _name(board, inst)
        if basic != "":
            tip = board.t("{card} (basic value {value})", card=tip, value=basic)
        if d is not None and d.text:
            tip += "\n" + d.text
        parts.append(
            el(
                "g",
                title(tip),
                el(
                    "rect",
                    x=cx,
                    y=y,
                    width=HAND_W,
                    height=HAND_H,
                    rx=7,
                    fill="#fffdf7",
                    stroke=colour,
                    stroke_width=2.5,
                ),
                el("rect", x=cx, y=y, width=HAND_W, height=18, rx=7, fill=colour),
                text(
                    cx + HAND_W / 2,
                    y + 10,
                    clip(_name(board, inst), 15),
                    class_="c b",
                    fill="#fff",
                    font_size=11,
                ),
                text(cx + HAND_W / 2, y + 38, basic, class_="c b", font_size=20, fill="#222"),
                class_="hand-card",
                data_card=inst,
                data_seat=i,
            )
        )
    return el("g", *parts, class_="hand", data_seat=i)


def _header(board: Board) -> str:
    doc = board.doc
    seats = doc["seats"]
    if doc.get("game_over"):
        winners = board.scores.get("winners", [])
        names = ", ".join(
            board.t(
                "{colour} (seat {seat})",
                colour=board.word(seats[w].get("colour"), "colour"),
                seat=w,
            )
            for w in winners
        )
        line = board.t(
            "Game over · winner: {names} ({decided})", names=names, decided=decided(board)
        )
    else:
        pending = doc.get("pending") or {}
        seat = pending.get("seat", 0)
        line = board.t(
            "Turn {turn} · {colour} (seat {seat}): {prompt} [{clause}]",
            turn=doc.get("turn", {}).get("number", "?"),
            colour=board.word(seats[seat].get("colour"), "colour"),
            seat=seat,
            prompt=board.word(pending.get("prompt", ""), "prompt"),
            clause=pending.get("clause", ""),
        )
    label = board.heading("Architectura")
    return text(LEFT, 16, label, class_="b", font_size=18, fill="#3b2f1e") + text(
        LEFT, 38, clip(line, 130), font_size=13, fill="#333"
    )


def render(board: Board) -> str:
    doc = board.doc
    seats = doc["seats"]
    city = doc["city"]
    blocks = max((len(street) for street in city), default=8)
    width = LEFT + blocks * CW + 10
    fountains = {}
    for f in doc.get("fountains") or []:
        fs = f["seat"]
        fountains[tuple(f["cell"])] = (fs, str(seats[fs].get("colour", f"seat {fs}")))
    parts = [_header(board)]
    n = len(seats)
    pw = (width - LEFT) / max(n, 1)
    for i in range(n):
        parts.append(_seat_panel(board, i, LEFT + i * pw, HEADER, pw))
    gy = HEADER + PANEL_H + 18
    for b in range(blocks):
        parts.append(
            text(LEFT + b * CW + CW / 2, gy - 8, b + 1, class_="c", font_size=12, fill="#8a7a5c")
        )
    for s, street in enumerate(city):
        y = gy + s * CH
        parts.append(text(LEFT / 2, y + CH / 2, s + 1, class_="c b", font_size=14, fill="#8a7a5c"))
        for b, stack in enumerate(street):
            parts.append(
                _cell(board, s + 1, b + 1, stack, LEFT + b * CW, y, fountains.get((s + 1, b + 1)))
            )
    y = gy + len(city) * CH + 14
    for i, s in enumerate(seats):
        if isinstance(s.get("hand"), list) and s["hand"]:
            parts.append(_hand(board, i, LEFT, y))
            y += HAND_H + 10
    height = y + 6
    defs = (
        '<pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="8" height="8" fill="#5a5550"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#77716a" stroke-width="4"/></pattern>'
    )
    bg = el("rect", x=0, y=0, width=width, height=height, fill="#efe8d8")
    return document(width, height, board.t("Architectura board"), bg, *parts, defs=defs)
