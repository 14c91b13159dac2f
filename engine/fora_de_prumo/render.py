"""Fora de Prumo as SVG: the market, and each seat's work (F-4.1): its building on the grid
and its site, with the score as the engine computes it.

A space (F-2.3) is a 1x2 card drawn over its two cells (F-2.4) in its suit's colour (F-2.2;
jokers and converted spaces striped with all four). Its six slots (F-2.5) are drawn on their
unit edges: a wall is a thick line, a door an opening, a door with a suit symbol carries a dot
of that suit's colour and letter. Where two slots meet (F-2.6) a marker says what the meeting
is, read from the engine's own measures (F-5): a connection (white ring), a qualified one (gold
diamond, F-5.2), an obstructed door (red cross, F-4.4). Street doors (F-R15) get an outward
arrow, patio cells (F-R16) a green hatch. Empty cells around the building carry `data-cell`
so a page can offer the spaces that can be laid there; cards carry `data-card`.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from engine.fora_de_prumo.building import SLOT_SIDE, Building, Placement, cells_of, measure
from engine.render import shared
from engine.render.board import LAST_MOVE, Board, seat_colour
from engine.render.svg import circle, clip, el, line, rect, text, title

C = 58  # cell size
PAD = 16
CHIP_W, CHIP_H = 104, 52  # a space chip is its two cells at CHIP_H each
MIN_PANEL_W = 470
NARROW_PANEL_W = 330  # one seat a row (a phone's 390 px, its margins kept)

SUIT_STYLE = {  # F-2.2: code, symbol, colour (strong, light)
    "exteriores": ("G", "sun", "#3f9d3f", "#d7efcf"),
    "conforto": ("P", "cushion", "#d4528f", "#f8d9e7"),
    "circulacoes": ("B", "arrows", "#3a7fcf", "#d3e4f7"),
    "atividades": ("Y", "gears", "#d19a00", "#fbeebf"),
}
SUIT_OF_CODE = {v[0]: k for k, v in SUIT_STYLE.items()}
TYPE_COLOUR = {
    "space": "#7a6a52",
    "material": "#8c6239",
    "person": "#7b4fa3",
    "concept": "#1f8a8a",
    "project": "#c4621b",
}
# the patterns: jokers striped with the four suits, patio cells dotted, hidden cards hatched
DEFS = (
    '<linearGradient id="joker" x1="0" y1="0" x2="1" y2="1">'
    + "".join(
        f'<stop offset="{k / 4}" stop-color="{v[3]}"/><stop offset="{(k + 1) / 4}" '
        f'stop-color="{v[3]}"/>'
        for k, v in enumerate(SUIT_STYLE.values())
    )
    + "</linearGradient>"
    '<pattern id="patio" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<rect width="8" height="8" fill="#e4f4de"/><circle cx="4" cy="4" r="1.3" fill="#7dbb72"/>'
    "</pattern>" + shared.HATCH
)
# an empty cell around a building, where a space may be laid
GRID_CELL = {
    "rx": 3,
    "fill": "#fbf8f1",
    "stroke": "#d8cfbd",
    "stroke_dasharray": "3 3",
    "class_": "grid-cell",
}
# the outline of a previewed space (not laid yet)
PREVIEW = {"fill": "none", "stroke": "#d10068", "stroke_width": 3, "stroke_dasharray": "6 4"}
WALL = "#35302a"
# per direction N, E, S, W: the unit edge of a cell (dx0, dy0, dx1, dy1) and its inward normal
EDGE = ((0, 0, 1, 0), (1, 0, 1, 1), (0, 1, 1, 1), (0, 0, 0, 1))
INWARD = ((0, 1), (-1, 0), (0, -1), (1, 0))


def _card_line(board: Board, card: Any) -> str:
    """A card described for a hover title (names, suits, abilities and measures are the
    catalog's ids, kept as they are)."""
    out = board.t(
        "{id} {name} ({gloss}) · {type}, phase {phase}",
        id=card.id,
        name=board.word(card.name),
        gloss=card.gloss,
        type=board.word(card.type, "card type"),
        phase=card.phase,
    )
    if card.type == "space":
        suits = (
            board.t("joker (all four suits)") if card.is_joker else ", ".join(sorted(card.suits))
        )
        out = board.t("{line} · {suits} · slots {slots}", line=out, suits=suits, slots=card.slots)
    elif card.type == "material":
        out = board.t(
            "{line} · +{value} per {suit} qualification", line=out, value=card.value, suit=card.suit
        )
    elif card.type == "person":
        out = board.t("{line} · ability {ability}", line=out, ability=card.ability)
    elif card.type == "concept":
        obj = card.objective or {}
        param = obj.get("suit") or obj.get("type")
        out = board.t(
            "{line} · most {measure} · {points} per connection when met",
            line=out,
            measure=f"{obj.get('measure')}{' (' + param + ')' if param else ''}",
            points=card.points,
        )
    elif card.type == "project":
        out = board.t("{line} · +{value} per space", line=out, value=card.value)
    return out


def _chip(
    board: Board,
    card: Any,
    x: float,
    y: float,
    cls: str,
    seat: int | None,
    badge: str = "",
    note: str = "",
) -> str:
    colour = TYPE_COLOUR.get(card.type, "#666")
    fill = "#fff"
    if card.type == "material" and card.suit in SUIT_STYLE:
        fill = SUIT_STYLE[card.suit][3]
    parts = shared.framed(x, y, CHIP_W, CHIP_H, rx=6, band=15, colour=colour, fill=fill, stroke=2)
    kind = board.word(card.type, "card type")
    name = clip(board.word(card.name), 17)
    parts += [
        text(x + 5, y + 8, card.id, class_="b", font_size=10, fill="#fff"),
        text(x + CHIP_W - 5, y + 8, kind, class_="r", font_size=9, fill="#fff"),
        text(x + CHIP_W / 2, y + 29, name, class_="c", font_size=11, fill="#222"),
    ]
    sub = note
    if not sub and card.type in ("material", "project"):
        sub = f"+{card.value}"
    elif not sub and card.type == "concept":
        sub = board.t("{points}/conn.", points=card.points)
    if sub:
        parts.append(
            text(x + CHIP_W / 2, y + 42, clip(sub, 20), class_="c", font_size=9, fill="#555")
        )
    if badge:
        parts += _badge(x + CHIP_W, y + CHIP_H, badge)
    tip = _card_line(board, card) + (f"\n{note}" if note else "")
    return el(
        "g", title(tip), *parts, class_=board.mark(cls, card.id), data_card=card.id, data_seat=seat
    )


def _badge(right: float, bottom: float, badge: str) -> list[str]:
    """A chip's badge (`x2` a cloned card, `spent` a designer) in its bottom right corner."""
    bw = max(30, 6 * len(badge))  # a translated badge ("spent") may be longer
    return [
        rect(right - bw, bottom - 13, bw, 13, rx=4, fill="#222"),
        text(right - bw / 2, bottom - 6, badge, class_="c b", font_size=9, fill="#fff"),
    ]


def _space_chip(board: Board, card: Any, x: float, y: float, cls: str, seat: int | None) -> str:
    """A space in a hand, the market or the deck: drawn as it is laid (F-2.5's reference
    position, r = 0: slot 0 top left, clockwise), its two cells CHIP_H wide each."""
    parts, lines = _space_parts(_Grid(0, 0, 0, 0), board, Placement(card.id, 0, 0, 0), card.slots)
    scale = f"translate({x} {y}) scale({CHIP_H / C:.4f})"
    return el(
        "g",
        title("\n".join(lines)),
        el("g", *parts, transform=scale),
        class_=board.mark(cls, card.id),
        data_card=card.id,
        data_seat=seat,
    )


def _hidden_chip(x: float, y: float, label: str) -> str:
    frame = rect(x, y, CHIP_W, CHIP_H, rx=6, fill="url(#hatch)", stroke="#555", stroke_width=2)
    name = clip(label, 18)
    shown = text(x + CHIP_W / 2, y + CHIP_H / 2, name, class_="c", font_size=10, fill="#fff")
    return el("g", title(label), frame, shown, class_="hidden-card")


class _Grid:
    """Pixel positions of a building's cells inside a seat's panel."""

    def __init__(self, x0: int, y0: int, ox: float, oy: float) -> None:
        self.x0, self.y0, self.ox, self.oy = x0, y0, ox, oy

    def px(self, cell: tuple[int, int]) -> tuple[float, float]:
        return self.ox + (cell[0] - self.x0) * C, self.oy + (cell[1] - self.y0) * C

    def edge(self, cell: tuple[int, int], d: int) -> tuple[float, float, float, float]:
        x, y = self.px(cell)
        e = EDGE[d]
        return x + e[0] * C, y + e[1] * C, x + e[2] * C, y + e[3] * C


def _slot_edge(p: Placement, i: int) -> tuple[tuple[int, int], int]:
    h, d = SLOT_SIDE[p.r][i]
    return cells_of(p)[h], d


def _slot(board: Board, grid: _Grid, p: Placement, i: int, ch: str) -> list[str]:
    """Slot `i` of a laid space on its edge: a wall, or a door (with its suit's symbol)."""
    cell, d = _slot_edge(p, i)
    x1, y1, x2, y2 = grid.edge(cell, d)
    nx, ny = INWARD[d]
    x1, y1, x2, y2 = x1 + 3 * nx, y1 + 3 * ny, x2 + 3 * nx, y2 + 3 * ny
    wall = {"stroke": WALL, "stroke_width": 5, "stroke_linecap": "square"}
    if ch == "W":
        return [line(x1, y1, x2, y2, **wall)]
    # a door: wall stubs at both ends, the opening between them
    parts = [
        line(x1 + (x2 - x1) * a, y1 + (y2 - y1) * a, x1 + (x2 - x1) * b, y1 + (y2 - y1) * b, **wall)
        for a, b in ((0.0, 0.22), (0.78, 1.0))
    ]
    suit = SUIT_OF_CODE.get(ch)
    if suit is not None:
        code, symbol, strong, _ = SUIT_STYLE[suit]
        sx, sy = (x1 + x2) / 2 + 8 * nx, (y1 + y2) / 2 + 8 * ny
        tip = board.t(
            "{slot}: door with the {suit} symbol ({symbol}, {code})",
            slot=f"{p.card}#{i}",
            suit=suit,
            symbol=board.t(symbol),
            code=code,
        )
        dot = circle(sx, sy, 6.5, fill=strong, stroke="#fff", stroke_width=1.2)
        letter = text(sx, sy + 0.5, code, class_="c b", font_size=8, fill="#fff")
        parts.append(el("g", title(tip), dot, letter, class_="symbol"))
    return parts


def _box(grid: _Grid, p: Placement) -> tuple[float, float, int, int]:
    """The box a space covers on `grid`: its two cells' top left corner, width and height."""
    (ax, ay), (bx, by) = cells_of(p)
    x, y = grid.px((min(ax, bx), min(ay, by)))
    return x, y, C * (abs(ax - bx) + 1), C * (abs(ay - by) + 1)


def _space_parts(
    grid: _Grid, board: Board, p: Placement, slots: str, converted: bool = False
) -> tuple[list[str], list[str]]:
    """A space over its two cells on `grid`: (its drawing, its hover lines)."""
    card = board.game.cat.cards[p.card]
    x, y, w, h = _box(grid, p)
    suits = sorted(card.suits)
    joker = converted or card.is_joker
    fill = "url(#joker)" if joker else SUIT_STYLE[suits[0]][3] if suits else "#fff"
    cx, cy = x + w / 2, y + h / 2
    rot = f"rotate(-90 {cx} {cy})" if h > w else None
    name = clip(board.word(card.name), 13)
    parts = [
        rect(x + 2, y + 2, w - 4, h - 4, rx=3, fill=fill, stroke="#b9ad97", stroke_width=1),
        text(cx, cy - 7, card.id, class_="c b", font_size=12, fill="#222", transform=rot),
        text(cx, cy + 8, name, class_="c", font_size=10, fill="#333", transform=rot),
    ]
    lines = [_card_line(board, card)]
    if converted:
        parts.append(
            text(
                cx,
                cy + 19,
                "converted",
                class_="c",
                font_size=8,
                fill="#7b4fa3",
                font_style="italic",
                transform=rot,
            )
        )
        lines.append(board.t("converted: every wall is a door, every suit (F-6.3)"))
    for i, ch in enumerate(slots):
        parts += _slot(board, grid, p, i, ch)
    return parts, lines


def _space(
    grid: _Grid,
    board: Board,
    p: Placement,
    slots: str,
    converted: bool,
    seat: int,
    preview: bool = False,
) -> str:
    """A space laid in a building, with where it was laid in its hover title; `preview`: the
    page's choice drawn as if laid, outlined, before it is confirmed."""
    parts, lines = _space_parts(grid, board, p, slots, converted)
    lines.insert(1, board.t("laid {placement} (F-2.7)", placement=p.compact()))
    if preview:
        x, y, w, h = _box(grid, p)
        parts.append(rect(x + 1, y + 1, w - 2, h - 2, rx=4, **PREVIEW))
        lines.append(board.t("preview: not laid until the decision is confirmed"))
    tip = "\n".join(lines)
    cls = board.mark("space preview" if preview else "space", p.card)
    return el("g", title(tip), *parts, class_=cls, data_card=p.card, data_seat=seat)


def _shown_building(board: Board, seat: int) -> tuple[Building, Placement | None]:
    """`seat`'s building as drawn, and the space previewed in it: the pending decision's lay
    into the building that the picture previews (app/render/http.py checked it is one of the
    options), added to a copy (drawn and measured, never kept), or None."""
    b = board.game.buildings[seat]
    o = board.preview
    if o is None or o.get("seat") != seat or o.get("type") != "lay" or o.get("x") is None:
        return b, None
    ahead = Placement(str(o["card"]), int(o["x"]), int(o["y"]), int(o["r"]))
    b = b.copy()
    b.add(ahead)
    return b, ahead


def _meeting(board: Board, mt: Any, mx: float, my: float) -> str | None:
    """A meeting of two slots at (mx, my): a connection (qualified or not), an obstructed door,
    or nothing (two walls, or two doors that make no connection)."""
    slots = {"a": mt.a, "a_slot": mt.a_slot, "b": mt.b, "b_slot": mt.b_slot}
    if mt.connection:
        tip = board.t("connection {a} ({a_slot}) with {b} ({b_slot}) (F-5.1)", **slots)
        if not mt.qualified:
            ring = circle(mx, my, 5, fill="#fff", stroke="#222", stroke_width=2)
            return el("g", title(tip), ring, class_="connection")
        quals = ", ".join(f"{ref} → {suit}" for ref, suit in mt.qualified)
        tip = board.t(
            "{connection}; qualified: {qualified} (F-5.2)", connection=tip, qualified=quals
        )
        diamond = f"M{mx},{my - 8} L{mx + 8},{my} L{mx},{my + 8} L{mx - 8},{my} Z"
        shape = el("path", d=diamond, fill="#f5c518", stroke="#6b4e00", stroke_width=1.5)
        n = text(mx, my + 0.5, len(mt.qualified), class_="c b", font_size=8, fill="#3b2a00")
        return el("g", title(tip), shape, n, class_="connection qualified")
    if (mt.a_slot == "W") == (mt.b_slot == "W"):
        return None
    # a door against a wall (F-4.4)
    tip = board.t("obstructed door: {a} ({a_slot}) meets {b} ({b_slot}) (F-4.4)", **slots)
    r = 4.5
    cross = f"M{mx - r},{my - r} L{mx + r},{my + r} M{mx - r},{my + r} L{mx + r},{my - r}"
    shape = el("path", d=cross, stroke="#d12f2f", stroke_width=2.5)
    return el("g", title(tip), shape, class_="obstructed")


def _street_door(board: Board, ref: str, grid: _Grid, cell: tuple[int, int], d: int) -> str:
    x1, y1, x2, y2 = grid.edge(cell, d)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    nx, ny = INWARD[d]
    tx, ty = mx - 9 * nx, my - 9 * ny  # the tip, outside the card
    px, py = -ny, nx  # along the edge
    path = (
        f"M{tx},{ty} L{mx - 2 * nx + 5 * px},{my - 2 * ny + 5 * py} "
        f"L{mx - 2 * nx - 5 * px},{my - 2 * ny - 5 * py} Z"
    )
    tip = title(board.t("street door {door} (F-R15)", door=ref))
    return el("path", tip, d=path, fill="#6d6d6d", class_="street-door")


def _markers(board: Board, grid: _Grid, b: Any, m: Any) -> list[str]:
    """The engine's meetings, street doors and obstructed doors, drawn on their edges."""
    out: list[str] = []

    def locate(ref: str) -> tuple[tuple[int, int], int]:
        cid, _, i = ref.partition("#")
        return _slot_edge(b.where[cid], int(i))

    for mt in m.meetings:
        x1, y1, x2, y2 = grid.edge(*locate(mt.a))
        drawn = _meeting(board, mt, (x1 + x2) / 2, (y1 + y2) / 2)
        if drawn is not None:
            out.append(drawn)
    for ref in m.street_door_slots:
        out.append(_street_door(board, ref, grid, *locate(ref)))
    return out


def _grid_cell(board: Board, grid: _Grid, x: int, y: int, patio: bool, seat: int | None) -> str:
    """An empty cell around a building (a patio cell, F-R16, drawn as such)."""
    px, py = grid.px((x, y))
    cell = json.dumps([x, y])
    if not patio:
        return rect(px + 2, py + 2, C - 4, C - 4, **GRID_CELL, data_seat=seat, data_cell=cell)
    return el(
        "g",
        title(board.t("patio cell [{x}, {y}] (F-R16)", x=x, y=y)),
        rect(px + 1, py + 1, C - 2, C - 2, fill="url(#patio)", stroke="#6aa86a"),
        text(px + C / 2, py + C / 2, board.t("patio"), class_="c", font_size=10, fill="#2d6b2d"),
        class_="patio grid-cell",
        data_seat=seat,
        data_cell=cell,
    )


def _building(board: Board, seat: int, ox: float, oy: float) -> tuple[list[str], float, float]:
    """The building of `seat` at (ox, oy): (markup, width, height)."""
    g = board.game
    cat = g.cat
    b, ahead = _shown_building(board, seat)
    work = g.works[seat]
    m = measure(b, work.has_ability(cat, "equipe_de_obras"), detail=True)
    occ = b.occ  # (a dict made from the building's cell keys: made once here)
    cells = list(occ) or [(0, 0)]
    x0 = min(c[0] for c in cells) - 1
    x1 = max(c[0] for c in cells) + 1
    y0 = min(c[1] for c in cells) - 1
    y1 = max(c[1] for c in cells) + 1
    grid = _Grid(x0, y0, ox, oy)
    patios = set(m.patios)
    parts = [
        _grid_cell(board, grid, x, y, (x, y) in patios, seat)
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
        if (x, y) not in occ
    ]
    for p in b.placements:
        converted = p.card in b.converted
        parts.append(_space(grid, board, p, b.slots[p.card], converted, seat, p == ahead))
    parts += _markers(board, grid, b, m)
    # the origin, for reading the placements' coordinates (F-R10)
    px, py = grid.px((0, 0))
    parts.append(text(px + 4, py + 8, "0,0", font_size=7, fill="#9a8f7a"))
    return parts, (x1 - x0 + 1) * C, (y1 - y0 + 1) * C


def _chips(
    cards: list[str],
    board: Board,
    x: float,
    y: float,
    width: float,
    cls: str,
    seat: int | None,
    notes: dict[str, tuple[str, str]] | None = None,
) -> tuple[list[str], float]:
    """A wrapped row of card chips; returns (markup, height used)."""
    cat = board.game.cat
    per_row = max(1, int((width + 6) // (CHIP_W + 6)))
    out = []
    for k, cid in enumerate(cards):
        cx = x + (k % per_row) * (CHIP_W + 6)
        cy = y + (k // per_row) * (CHIP_H + 6)
        badge, note = (notes or {}).get(cid, ("", ""))
        card = cat.cards.get(cid)
        if card is None:
            out.append(_hidden_chip(cx, cy, cid))
        elif card.type == "space":
            out.append(_space_chip(board, card, cx, cy, cls, seat))
        else:
            out.append(_chip(board, card, cx, cy, cls, seat, badge, note))
    rows = (len(cards) + per_row - 1) // per_row
    return out, rows * (CHIP_H + 6)


# each kind of pending decision (serialize.STEP_INFO) and the label the status line draws
STEP_LABELS = {"buy": "buy", "lay": "lay", "final": "final"}

# the engine's score components (F-8.4 order) and the label each is drawn with
SCORE_PARTS = (
    ("qualified_connections", "qualified"),
    ("materials", "materials"),
    ("people", "people"),
    ("concepts", "concepts"),
    ("projects", "projects"),
    ("complete_projects", "trios"),
)
MEASURES = ("connections", "qualified", "spaces", "street_doors", "patio_cells")


def _score_lines(board: Board, score: dict[str, Any]) -> tuple[str, str]:
    first = " + ".join(f"{board.t(label)} {score.get(k, 0)}" for k, label in SCORE_PARTS)
    ms = score.get("measures", {})
    second = board.t(
        "{connections} connections · {qualified} qualifications · {spaces} spaces · "
        "{street_doors} street doors · {patio_cells} patio cells",
        **{k: ms.get(k, 0) for k in MEASURES},
    )
    return first, second


def _site_notes(board: Board, work: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The site cards drawn with a badge and a note: (badge, note) by card."""
    cloned = {c["target"]: c["card"] for c in work.get("clones", [])}
    spent = set(work.get("spent", []))
    notes: dict[str, tuple[str, str]] = {}
    for cid in work.get("site", []):
        if cid in cloned:
            clone = cloned[cid]
            what = board.t("a face-down card") if clone is None else clone
            notes[cid] = ("x2", board.t("cloned with {card} (F-6.6)", card=what))
        elif cid in spent:
            notes[cid] = (board.t("spent"), board.t("designer spent (F-R20)"))
    return notes


def _panel_head(board: Board, seat: int, x: float, y: float, w: float) -> list[str]:
    """A seat panel's first lines: the seat, its hand, its standing and its score."""
    s = board.doc["seats"][seat]
    score = board.scores["seats"][seat]
    name = board.t("Seat {seat}", seat=seat) + (
        " · " + board.t("you") if board.viewer == seat else ""
    )
    hand = board.t("hand {hand}", hand=shared.count(s, "hand"))
    first, second = _score_lines(board, score)
    told = board.t("score as it stands (F-8.4 order): {score}", score=first)
    narrow = w < MIN_PANEL_W  # one seat a row on a phone: closer, and the lines cut to fit
    chars = (
        int((w - 32) / 5.5) if narrow else 1000
    )  # of the 10 px score lines (the first whole in its title)
    return [
        text(x + 16, y + 18, name, class_="b", font_size=16, fill=seat_colour(seat)),
        text(x + (130 if narrow else 160), y + 18, hand, font_size=12, fill="#444"),
        shared.status(
            board, x + w - (72 if narrow else 110), y + 18, *shared.standing(board, seat)
        ),
        shared.points(board, x + w - 16, y + 18, score["total"]),
        el("g", title(told), text(x + 16, y + 38, clip(first, chars), font_size=10, fill="#555")),
        text(x + 16, y + 52, clip(second, chars), font_size=10, fill="#555"),
    ]


def _labelled_chips(
    board: Board,
    label: str,
    cards: list[str],
    x: float,
    y: float,
    w: float,
    cls: str,
    seat: int,
    notes: dict[str, tuple[str, str]] | None = None,
) -> tuple[list[str], float]:
    """A labelled row of chips in a seat's panel; returns (markup, height used)."""
    chips, ch = _chips(cards, board, x, y + 14, w, cls, seat, notes)
    return [text(x, y + 6, label, class_="b", font_size=11, fill="#6b5d45"), *chips], 14 + max(
        ch, 8
    )


def _panel(board: Board, seat: int, x: float, y: float, w: float) -> tuple[str, float]:
    s = board.doc["seats"][seat]
    work = s["work"]
    parts = _panel_head(board, seat, x, y, w)
    bparts, bw, bh = _building(board, seat, 0, 0)
    shift = f"translate({x + (w - bw) / 2} {y + 64})"
    parts.append(el("g", *bparts, transform=shift, class_="building", data_seat=seat))
    cy = y + 64 + bh + 10
    site = list(work.get("site", []))
    notes = _site_notes(board, work)
    chips, used = _labelled_chips(
        board, board.t("site"), site, x + 16, cy, w - 32, "site-card", seat, notes
    )
    parts += chips
    cy += used
    hand = s.get("hand")
    if isinstance(hand, list):
        chips, used = _labelled_chips(
            board, board.t("hand"), list(hand), x + 16, cy, w - 32, "hand-card", seat
        )
        parts += chips
        cy += used
    height = cy - y + 6
    frame = shared.panel_frame(
        x + 4, y + 2, w - 8, height - 4, 10, seat_colour(seat), shared.standing(board, seat)[0]
    )
    return el("g", frame, *parts, class_="seat", data_seat=seat), height


def _top(board: Board, width: float) -> tuple[list[str], float]:
    doc = board.doc
    if doc.get("game_over"):
        now = shared.game_over(board, lambda w: board.t("seat {seat}", seat=w))
    else:
        pending = doc.get("pending") or {}
        turn = doc.get("turn") or {}
        now = board.t(
            "Turn {turn} · seat {seat} · {kind}: {prompt} [{clause}]",
            turn=turn.get("number", "?"),
            seat=pending.get("seat"),
            kind=board.t(STEP_LABELS.get(pending.get("kind", ""), "?")),
            prompt=board.word(pending.get("prompt", ""), "prompt"),
            clause=pending.get("clause", ""),
        )
        if doc.get("final_round"):
            now += " · " + board.t("final round")
    narrow = width < 2 * MIN_PANEL_W  # one seat a row: the status line cut to the picture's width
    parts = shared.heading(
        board, "Fora de Prumo", PAD, now, int((width - 2 * PAD) / 7) if narrow else 130
    )
    parts.append(text(PAD, 70, board.t("market"), class_="b", font_size=12, fill="#6b5d45"))
    deck = board.t("deck {deck}", deck=shared.count(doc, "deck"))
    parts.append(text(PAD, 86, deck, font_size=11, fill="#555"))
    chips, ch = _chips(
        list(doc.get("market", [])), board, PAD + 70, 56, width - 90 - PAD, "market-card", None
    )
    parts += chips
    y = 56 + max(ch, CHIP_H + 6)
    peeked = (doc.get("turn") or {}).get("peeked")
    if isinstance(peeked, list) and peeked:
        parts.append(
            text(PAD, y + 16, board.t("seen on the deck (coordenadora)"), font_size=11, fill="#555")
        )
        chips, ch = _chips(
            list(peeked), board, PAD + 200, y + 4, width - 220 - PAD, "deck-card", None
        )
        parts += chips
        y += ch + 4
    return parts, y + 6


def render(board: Board) -> str:
    n = len(board.doc["seats"])
    # two seats a row, or as many as the request's `columns` allows: one a row (a phone) in
    # narrower panels, so that the picture grows down, not sideways
    per_row = min(board.columns or 2, n)
    least = MIN_PANEL_W if per_row > 1 else NARROW_PANEL_W
    widths = []
    for seat in range(n):
        cells = list(_shown_building(board, seat)[0].occ) or [(0, 0)]
        bw = (max(c[0] for c in cells) - min(c[0] for c in cells) + 3) * C
        widths.append(max(least, bw + 40))
    rows = [list(range(i, min(i + per_row, n))) for i in range(0, n, per_row)]
    width = max(sum(widths[s] for s in row) for row in rows) + 2 * PAD
    top, y = _top(board, width)
    panels: list[str] = []
    for row in rows:
        x = float(PAD)
        heights = []
        for seat in row:
            markup, h = _panel(board, seat, x, y, widths[seat])
            panels.append(markup)
            heights.append(h)
            x += widths[seat]
        y += max(heights) + 8
    height = y + 4
    label = board.t("Fora de Prumo board")
    return shared.picture(width, height, label, *top, *panels, defs=DEFS, marked=bool(board.marks))


def _legend_slots(board: Board) -> list[shared.LegendRow]:
    """Walls, doors and the four suits' symbols, each on the top edge of a cell."""
    grid, p = _Grid(0, 0, 0, 0), Placement("A", 0, 0, 0)

    def slot(ch: str) -> str:  # slot 0 of a space at r = 0: the top edge of its half A
        return shared.at("".join(_slot(board, grid, p, 0, ch)), (C / 2, 8), 1.2)

    rows = [
        ("wall", slot("W"), board.t("wall (F-2.3)")),
        ("door", slot("D"), board.t("door: an opening (F-2.3)")),
    ]
    for suit, (code, symbol, _, _) in SUIT_STYLE.items():
        label = board.t(
            "{code}: door with the {suit} symbol ({symbol}), a preferred connection (F-5.2)",
            code=code,
            suit=suit,
            symbol=board.t(symbol),
        )
        rows.append((f"suit-{code}", slot(code), label))
    return rows


def _legend_meetings(board: Board) -> list[shared.LegendRow]:
    """The markers of meetings (F-5), street doors and patio cells."""

    def meeting(connection: bool, qualified: list[tuple[str, str]], b_slot: str) -> str:
        mt = SimpleNamespace(
            a="A#0", a_slot="D", b="B#4", b_slot=b_slot, connection=connection, qualified=qualified
        )
        return shared.at(_meeting(board, mt, 0, 0) or "", (0, 0), 1.6)

    grid = _Grid(0, 0, 0, 0)
    door = Placement("A", 0, 0, 0)
    street = "".join(
        [*_slot(board, grid, door, 0, "D"), _street_door(board, "A#0", grid, (0, 0), 0)]
    )
    two = [("A#0", "exteriores"), ("B#4", "exteriores")]
    return [
        ("connection", meeting(True, [], "D"), board.t("connection: two doors meet (F-5.1)")),
        (
            "qualified",
            meeting(True, two, "D"),
            board.t("qualified connection, with its number of qualifications (F-5.2)"),
        ),
        (
            "obstructed",
            meeting(False, [], "W"),
            board.t("obstructed door: a door against a wall (F-4.4)"),
        ),
        (
            "street-door",
            shared.at(street, (C / 2, 0), 1.2),
            board.t("street door: a door to the outside (F-R15)"),
        ),
        (
            "patio",
            shared.at(_grid_cell(board, grid, 0, 0, True, None), (C / 2, C / 2), 0.62),
            board.t("patio cell (F-R16)"),
        ),
    ]


def _legend_cards(board: Board) -> list[shared.LegendRow]:
    """Joker spaces, badges, hidden cards and the last move's mark."""
    box = (CHIP_W / 2, CHIP_H / 2)
    joker = rect(0, 0, CHIP_W, CHIP_H, rx=3, fill="url(#joker)", stroke="#b9ad97")
    frame = rect(0, 0, CHIP_W, CHIP_H, rx=6, fill="#fff", stroke="#7a6a52", stroke_width=2)
    return [
        (
            "joker",
            shared.at(joker, box, 0.7),
            board.t("joker or converted space: all four suits (F-2.2, F-6.3)"),
        ),
        (
            "x2",
            shared.at(frame + "".join(_badge(CHIP_W, CHIP_H, "x2")), box, 0.7),
            board.t("x2: a card cloned with a teórica (F-6.6)"),
        ),
        (
            "spent",
            shared.at(frame + "".join(_badge(CHIP_W, CHIP_H, board.t("spent"))), box, 0.7),
            board.t("spent: a designer already used (F-R20)"),
        ),
        (
            "hidden",
            shared.at(_hidden_chip(0, 0, ""), box, 0.7),
            board.t("a card you may not see (F-1.10)"),
        ),
        (
            "last-move",
            shared.at(el("g", frame, class_=LAST_MOVE), box, 0.7),
            board.t("what the last decision changed"),
        ),
    ]


def legend(board: Board) -> str:
    """GET /v1/legend?game=fora-de-prumo: every symbol of the board and what it means."""
    rows = _legend_slots(board) + _legend_meetings(board) + _legend_cards(board)
    return shared.legend(board, "Fora de Prumo", rows, defs=DEFS)
