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

from engine.render import shared
from engine.render.board import LAST_MOVE, Board, seat_colour
from engine.render.svg import circle, clip, el, rect, text, title

CW, CH, GAP = 118, 132, 6  # cell size and gap
LEFT = 40  # street labels
HEADER = 52
PANEL_H = 78
HAND_W, HAND_H = 112, 58
EMPTY = {"fill": "#f6f2e8", "stroke": "#c9bfa8", "stroke_width": 1.5, "stroke_dasharray": "5 4"}


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
    tip = board.t("protection token (A-6): the card cannot be targeted by rivals' effects")
    return el(
        "path", title(tip), d=path, fill=fill, stroke="#fff", stroke_width=1.5, class_="token"
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


def _face_down(board: Board, name: str, x: float, y: float, colour: str) -> list[str]:
    cx, cy = x + CW / 2, y + CH / 2
    return [
        rect(x + 3, y + 3, CW - 6, CH - 6, rx=8, fill="url(#hatch)", stroke=colour, stroke_width=3),
        text(cx, cy - 10, clip(name, 14), class_="c", fill="#eee", font_size=13),
        text(
            cx,
            cy + 10,
            board.t("face down"),
            class_="c",
            fill="#ddd",
            font_size=11,
            font_style="italic",
        ),
    ]


def _values(board: Board, d: Any, k: int, x: float, y: float, colour: str) -> list[str]:
    """The card's side values, the one on top (orientation `k`) marked, and the arrow."""
    parts = _dial(list(d.values), k, x, y, colour)
    if len(d.values) > 1:
        parts.append(_orientation_arrow(board, x + 16, y + 40, int(k), len(d.values)))
    return parts


def _dial(values: list[int], k: int, x: float, y: float, colour: str) -> list[str]:
    """The value dial: a card's side values in a row, the one on top (index `k`) marked."""
    step = min(24, (CW - 20) / max(len(values), 1))
    x0 = x + CW / 2 - step * (len(values) - 1) / 2
    parts: list[str] = []
    for i, v in enumerate(values):
        cx = x0 + i * step
        if i == k:
            parts.append(rect(cx - 10, y + 84, 20, 17, rx=4, fill=colour))
        on = " b" if i == k else ""
        parts.append(
            text(cx, y + 93, v, class_="c" + on, font_size=12, fill="#fff" if i == k else "#555")
        )
    return parts


def _value(x: float, y: float, shown: object) -> str:
    """A top card's value now (A-2.6), large in the middle of its cell at (x, y)."""
    return text(x + CW / 2, y + 58, shown, class_="c b", font_size=34, fill="#222")


def _formula_text(x: float, y: float, formula: str) -> str:
    """The formula of a card valued by its cell (A-2.3 `X+2`, A-2.4 `No.`), under the value."""
    return text(x + CW / 2, y + 92, formula, class_="c", font_size=13, fill="#555")


def _beneath(bx: float, by: float, n: int) -> list[str]:
    """The badge counting the cards beneath a top card (`+n`)."""
    return [
        circle(bx, by, 11, fill="#333"),
        text(bx, by, f"+{n}", class_="c b", fill="#fff", font_size=11),
    ]


def _card_face(
    board: Board, entry: dict[str, Any], x: float, y: float, colour: str, fill: str
) -> list[str]:
    d = _def(board.game.cat, entry["card"])
    name = _name(board, entry["card"])
    if not entry.get("face_up", True):
        return _face_down(board, name, x, y, colour)
    parts = shared.framed(
        x + 3, y + 3, CW - 6, CH - 6, rx=8, band=22, colour=colour, fill=fill, stroke=3
    )
    parts.append(text(x + CW / 2, y + 15, clip(name, 15), class_="c b", fill="#fff", font_size=12))
    value = entry.get("value")
    shown = "-" if value is None else value
    parts.append(_value(x, y, shown))
    formula = _formula(d)
    if formula is not None:
        parts.append(_formula_text(x, y, formula))
    elif d is not None and d.values:
        parts += _values(board, d, entry.get("orientation", 0), x, y, colour)
    if entry.get("token"):
        parts.append(_shield(board, x + CW - 17, y + 42, colour))
    return parts


def _stack(
    board: Board, stack: list[dict[str, Any]], x: float, y: float
) -> tuple[list[str], list[str]]:
    """A cell's stack: (its top card and the badge counting those beneath, the hover lines)."""
    seats = board.doc["seats"]
    top = stack[-1]
    owner = _owner(seats, top["card"])
    cname = seats[owner].get("colour", f"seat {owner}")
    parts = _card_face(board, top, x, y, seat_colour(owner, cname), "#fffdf7")
    lines = [_describe(board, top, str(cname))]
    d = _def(board.game.cat, top["card"])
    if d is not None and d.text and top.get("face_up", True):
        lines.append(d.text)
    beneath = stack[:-1]
    if beneath:
        below = "; ".join(
            _describe(board, e, str(seats[_owner(seats, e["card"])].get("colour"))) for e in beneath
        )
        lines.append(board.t("beneath, bottom first: {cards}", cards=below))
        parts += _beneath(x + CW - 18, y + CH - 18, len(beneath))
    return parts, lines


def _fountain(board: Board, fountain: tuple[int, str], x: float, y: float) -> tuple[str, str]:
    """A Fountain token on a cell: (its drawing, its hover line)."""
    fseat, fname = fountain
    line = board.t(
        "Fountain token of {colour} (seat {seat}): its rivals may not play here (A-4.3)",
        colour=board.word(fname, "colour"),
        seat=fseat,
    )
    fx, fy = x + 18, y + CH - 18
    token = circle(
        fx,
        fy,
        12,
        fill="#bfe3ff",
        stroke=seat_colour(fseat, fname),
        stroke_width=3,
        class_="fountain",
    )
    return token + text(fx, fy, "F", class_="c b", fill="#0b4f8a", font_size=13), line


def _cell(
    board: Board,
    street: int,
    block: int,
    stack: list[dict[str, Any]],
    x: float,
    y: float,
    fountain: tuple[int, str] | None,
) -> str:
    cell = json.dumps([street, block])
    where = board.t(
        "cell {cell} (street {street}, block {block})", cell=cell, street=street, block=block
    )
    if stack:
        parts, lines = _stack(board, stack, x, y)
    else:
        parts = [rect(x + 3, y + 3, CW - 6, CH - 6, rx=8, **EMPTY, class_="empty")]
        lines = [board.t("empty")]
    if fountain is not None:
        token, line = _fountain(board, fountain, x, y)
        parts.append(token)
        lines.append(line)
    top = stack[-1]["card"] if stack else None
    tip = title("\n".join([where, *lines]))
    cls = board.mark("cell", top, (street, block))
    return el("g", tip, *parts, class_=cls, data_cell=cell, data_card=top)


ZONES = ("outside", "graveyard", "removed")  # a seat's other piles, counted in its panel


def _seat_tip(board: Board, s: dict[str, Any], i: int, name: str, total: object) -> str:
    """A seat panel's hover: its points, and the cards of its other piles."""
    lines = [
        board.t(
            "{colour} (seat {seat}): {total} points now",
            colour=board.word(name, "colour"),
            seat=i,
            total=total,
        )
    ]
    for zone in ZONES:
        if s.get(zone):
            cards = ", ".join(_name(board, c) for c in s[zone])
            lines.append(board.t("{zone}: {cards}", zone=board.t(zone), cards=cards))
    return "\n".join(lines)


def _seat_panel(board: Board, i: int, x: float, y: float, w: float) -> str:
    s = board.doc["seats"][i]
    name = str(s.get("colour", f"seat {i}"))
    colour = seat_colour(i, name)
    score_seats = board.scores.get("seats", [])
    total = score_seats[i]["total"] if i < len(score_seats) else None
    to_play, won = shared.standing(board, i)
    who = board.t("{colour} · seat {seat}", colour=board.word(name, "colour"), seat=i)
    if board.viewer == i:
        who += " · " + board.t("you")
    counts = board.t(
        "hand {hand} · deck {deck} · tokens {tokens}",
        hand=shared.count(s, "hand"),
        deck=shared.count(s, "deck"),
        tokens=s.get("tokens", 0),
    )
    piles = " · ".join(f"{board.t(zone)} {len(s[zone])}" for zone in ZONES if s.get(zone))
    return el(
        "g",
        title(_seat_tip(board, s, i, name, total)),
        shared.panel_frame(x, y, w - 8, PANEL_H - 8, 8, colour, to_play),
        rect(x, y, 10, PANEL_H - 8, rx=4, fill=colour),
        text(x + 20, y + 16, who, class_="b", font_size=15, fill=colour),
        shared.points(board, x + w - 18, y + 16, total),
        text(x + 20, y + 38, counts, font_size=12, fill="#333"),
        text(x + 20, y + 56, piles or " ", font_size=11, fill="#666"),
        shared.status(board, x + w - 18, y + 56, to_play, won),
        class_="seat",
        data_seat=i,
    )


def _hand_card(board: Board, i: int, inst: str, x: float, y: float, colour: str) -> str:
    d = _def(board.game.cat, inst)
    basic: object = ""
    if d is not None:
        basic = _formula(d) or (d.values[d.basic_index] if d.values else "")
    name = _name(board, inst)
    tip = name
    if basic != "":
        tip = board.t("{card} (basic value {value})", card=tip, value=basic)
    if d is not None and d.text:
        tip += "\n" + d.text
    return el(
        "g",
        title(tip),
        *shared.framed(
            x, y, HAND_W, HAND_H, rx=7, band=18, colour=colour, fill="#fffdf7", stroke=2.5
        ),
        text(x + HAND_W / 2, y + 10, clip(name, 15), class_="c b", fill="#fff", font_size=11),
        text(x + HAND_W / 2, y + 38, basic, class_="c b", font_size=20, fill="#222"),
        class_=board.mark("hand-card", inst),
        data_card=inst,
        data_seat=i,
    )


def _hand(board: Board, i: int, x: float, y: float) -> str:
    s = board.doc["seats"][i]
    name = str(s.get("colour", f"seat {i}"))
    colour = seat_colour(i, name)
    label = board.t("{colour} hand", colour=board.word(name, "colour"))
    parts = [text(x, y + HAND_H / 2, label, class_="b", font_size=13, fill=colour)]
    for k, inst in enumerate(s.get("hand") or []):
        parts.append(_hand_card(board, i, inst, x + 96 + k * (HAND_W + 8), y, colour))
    return el("g", *parts, class_="hand", data_seat=i)


def _header(board: Board) -> list[str]:
    doc = board.doc
    seats = doc["seats"]
    if doc.get("game_over"):
        line = shared.game_over(
            board,
            lambda w: board.t(
                "{colour} (seat {seat})",
                colour=board.word(seats[w].get("colour"), "colour"),
                seat=w,
            ),
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
    return shared.heading(board, "Architectura", LEFT, line)


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
    parts = _header(board)
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
    label = board.t("Architectura board")
    return shared.picture(width, height, label, *parts, defs=shared.HATCH, marked=bool(board.marks))


def _legend_rows(board: Board) -> list[shared.LegendRow]:
    """Every symbol of the board, drawn by the helpers above, and what it means."""
    blue, at = seat_colour(0, "blue"), shared.at
    card = shared.framed(6, 4, 72, 32, rx=6, band=12, colour=blue, fill="#fffdf7", stroke=2.5)
    token, _ = _fountain(board, (0, "blue"), 0, 0)
    return [
        ("card", "".join(card), board.t("a card: its name on a band in its owner's colour")),
        ("value", at(_value(0, 0, 7), (CW / 2, 58), 0.6), board.t("its value now (A-2.6)")),
        (
            "dial",
            at("".join(_dial([5, 7, 8, 9], 1, 0, 0, blue)), (CW / 2, 93), 0.75),
            board.t("its side values, the one on top marked (A-2.1)"),
        ),
        (
            "arrow",
            at(_orientation_arrow(board, 0, 0, 1, 4), (0, 0), 1.6),
            board.t("its orientation: turned clockwise, a higher value (A-2.1)"),
        ),
        (
            "formula-x",
            at(_formula_text(0, 0, "X+2"), (CW / 2, 92), 1.3),
            board.t("X+2: the value of the card to its left in the street, plus 2 (A-2.3)"),
        ),
        (
            "formula-no",
            at(_formula_text(0, 0, "No."), (CW / 2, 92), 1.3),
            board.t("No.: the block number of its cell (A-2.4)"),
        ),
        (
            "beneath",
            at("".join(_beneath(0, 0, 1)), (0, 0), 1.3),
            board.t("+1: cards beneath the top card (hover the cell to list them)"),
        ),
        (
            "shield",
            at(_shield(board, 0, 0, blue), (0, 0), 1.5),
            board.t("protection token: rivals' effects cannot target the card (A-6)"),
        ),
        (
            "fountain",
            at(token, (18, CH - 18), 1.2),
            board.t("Fountain token: its owner's rivals may not play on the cell (A-4.3)"),
        ),
        (
            "face-down",
            at("".join(_face_down(board, "", 0, 0, blue)), (CW / 2, CH / 2), 0.28),
            board.t("face down (destroyed): no value (A-2.6)"),
        ),
        (
            "last-move",
            el("g", *card, class_=LAST_MOVE),
            board.t("what the last decision changed"),
        ),
    ]


def legend(board: Board) -> str:
    """GET /v1/legend?game=architectura: every symbol of the board and what it means."""
    return shared.legend(board, "Architectura", _legend_rows(board), defs=shared.HATCH)
