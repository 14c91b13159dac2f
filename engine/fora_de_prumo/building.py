"""The building: placements on the grid (F-2.4, F-2.5), legal positions (F-4) and measures (F-5).

Geometry. A cell is (x, y), x east, y south. Directions are numbered N=0, E=1, S=2, W=3; a
slot of a placed space lies on one side of one of its halves (the F-2.5 table, SLOT_SIDE) and
faces the cell beyond that side. A Building keeps, besides the occupancy, its **frontier**: for
every empty cell next to it, a 4-bit mask of the directions in which a door of the building
faces that cell, and one for walls, held as one int (`doors << 4 | walls`). `legal_positions`
reads the frontier through a table, computed once per slot string, of the (rotation, half)
pairs that connect to each mask pair, so it never scans a box and never re-derives a slot's
side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from engine.fora_de_prumo.catalog import SUIT_OF_CODE, SUITS, Card, Catalog
from engine.messages import Msg, msg

Cell = tuple[int, int]

DX: Final = (0, 1, 0, -1)
DY: Final = (-1, 0, 1, 0)
# F-2.4: half B lies east, south, west or north of A for r = 0, 1, 2, 3
BX: Final = (1, 0, -1, 0)
BY: Final = (0, 1, 0, -1)
# F-2.5, r = 0: slot i lies on (half, side); half 0 = A, 1 = B
_BASE_SIDES = ((0, 0), (1, 0), (1, 1), (1, 2), (0, 2), (0, 3))
# SLOT_SIDE[r][i] = (half, direction): a rotation turns every side by r quarter-turns (F-2.5)
SLOT_SIDE: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((h, (d + r) % 4) for h, d in _BASE_SIDES) for r in range(4)
)
# SIDE_SLOT[r][half][direction] = slot index, or -1 for the side shared by A and B
SIDE_SLOT: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        tuple(next((i for i, hd in enumerate(SLOT_SIDE[r]) if hd == (h, d)), -1) for d in range(4))
        for h in range(2)
    )
    for r in range(4)
)
ALL_SUITS: Final = frozenset(SUITS)

# Hot paths use an int per cell, (x << 20) + y: one int add per step instead of a tuple. Cells
# of a building stay within a few hundred of the origin (each space touches the building).
SHIFT: Final = 20
LIMIT: Final = 1 << (SHIFT - 2)
HALF: Final = 1 << (SHIFT - 1)
DK: Final = tuple((DX[d] << SHIFT) + DY[d] for d in range(4))
BK: Final = tuple((BX[r] << SHIFT) + BY[r] for r in range(4))
# SLOT_KEY[r][i]: the key offset, from half A's cell, of the cell that slot i faces
SLOT_KEY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((BK[r] if h else 0) + DK[d] for h, d in SLOT_SIDE[r]) for r in range(4)
)
# SLOT_BIT[r][i]: the frontier bit of a wall in slot i, seen from the cell it faces (a door's
# is this << 4); DOOR_BITS[r]: the six door bits (a converted space, F-6.3)
SLOT_BIT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(1 << ((d + 2) & 3) for _, d in SLOT_SIDE[r]) for r in range(4)
)
DOOR_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b << 4 for b in SLOT_BIT[r]) for r in range(4)
)


def cell_key(x: int, y: int) -> int:
    return (x << SHIFT) + y


def key_cell(k: int) -> Cell:
    x = (k + HALF) >> SHIFT
    return x, k - (x << SHIFT)


def _in_reach(x: int, y: int) -> bool:
    """A cell whose key is its own: every built cell is one (`Building.add`)."""
    return -LIMIT < x < LIMIT and -LIMIT < y < LIMIT


class Placement(NamedTuple):
    """A space on the grid (F-2.4): half A on (x, y), half B towards direction r."""

    card: str
    x: int
    y: int
    r: int

    def compact(self) -> str:
        """F-2.7 compact notation, e.g. SP09@0,-1r0."""
        return f"{self.card}@{self.x},{self.y}r{self.r}"


def placement(card: str, x: int, y: int, r: int) -> Placement:
    """Placement(card, x, y, r), without the interpreted `__new__` of a named tuple (a
    compiled caller would run it for every lay)."""
    return tuple.__new__(Placement, (card, x, y, r))


_COORD = r"(?:0|-?[1-9][0-9]{0,5})"  # one spelling: no leading zero, no -0 (each was rewritten)
_COMPACT = re.compile(rf"([A-Za-z0-9][A-Za-z0-9_.-]{{0,63}})@({_COORD}),({_COORD})r([0-3])")


def parse_compact(text: str) -> Placement | None:
    """F-2.7 compact notation back to a placement (None if malformed)."""
    found = match_compact(text)
    return found[0] if found is not None and found[1] == len(text) else None


def match_compact(text: str, pos: int = 0) -> tuple[Placement, int] | None:
    """The placement in F-2.7 compact notation that starts at `pos` of `text`, and where it
    ends (None if none does)."""
    m = _COMPACT.match(text, pos)
    if m is None:
        return None
    return Placement(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))), m.end()


def cells_of(p: Placement) -> tuple[Cell, Cell]:
    """The cells of halves A and B (F-2.4)."""
    return (p.x, p.y), (p.x + BX[p.r], p.y + BY[p.r])


def converted_slots(slots: str) -> str:
    """F-6.3/F-R20: every wall becomes a plain door; printed doors keep their symbols."""
    return slots.replace("W", "D")


def connects(a: str, b: str, equipe: bool) -> bool:
    """F-5.1/F-6.5: door with door; with the equipe de obras door with wall too; never two walls."""
    if a == "W":
        return equipe and b != "W"
    return b != "W" or equipe


class CardInfo:
    """What the hot paths read of one card, derived once per catalog (`Geometry`): typed
    attributes of a compiled class instead of the catalog's `Card` (an interpreted class)."""

    __slots__ = ("ability", "bits", "half_a", "half_b", "slots", "space", "suits", "tables", "type")

    type: str  # F-2.1: space, person, concept, project or material
    space: bool
    slots: str  # F-2.5 order ("" unless a space)
    suits: frozenset[str]
    ability: str | None
    # bits[r][i]: slot i's frontier bit, rotated by r (SLOT_BIT, << 4 for a door)
    bits: tuple[tuple[int, ...], ...]
    # the `cells` values of its two halves, (id, 0) and (id, 1): typed Any, they are kept as
    # the tuples themselves (compiled, a tuple[str, int] is unpacked, and boxed anew when read)
    half_a: Any
    half_b: Any
    # the candidate tables of `legal_codes`, without and with the equipe (built when needed)
    tables: list[tuple[tuple[int, ...], ...] | None]

    def __init__(self, card: Card) -> None:
        self.type = card.type
        self.space = card.type == "space"
        self.slots = card.slots
        self.suits = card.suits
        self.ability = card.ability
        self.bits = tuple(
            tuple(
                SLOT_BIT[r][i] if self.slots[i] == "W" else SLOT_BIT[r][i] << 4
                for i in range(len(self.slots))
            )
            for r in range(4)
        )
        self.half_a = (card.id, 0)
        self.half_b = (card.id, 1)
        self.tables = [None, None]


class Geometry:
    """A catalog's `CardInfo` per card id, and the candidate tables per slot string (shared
    by the cards printed alike); one per catalog (`geometry`)."""

    __slots__ = ("cards", "tables")

    def __init__(self, cat: Catalog) -> None:
        self.cards: dict[str, CardInfo] = {cid: CardInfo(c) for cid, c in cat.cards.items()}
        self.tables: dict[tuple[str, bool], tuple[tuple[int, ...], ...]] = {}


def geometry(cat: Catalog) -> Geometry:
    geo = cat.cache.get("fdp_geometry")
    if geo is None:
        geo = cat.cache["fdp_geometry"] = Geometry(cat)
    return geo


class Building:
    """A player's spaces (mutable; `copy()` is a few dict copies).

    `cells` maps a cell key to (card id, half) (`occ`, keyed by cell); `where` a card id to
    its placement; `slots` a card id to its slot string as it stands (converted spaces have no
    walls, F-6.3).
    """

    __slots__ = (
        "cat",
        "cells",
        "converted",
        "frontier",
        "geo",
        "placements",
        "slots",
        "where",
    )

    cat: Catalog
    geo: Geometry
    placements: list[Placement]
    # conversions only add doors, so applying them from the start is the same final building
    converted: set[str]
    where: dict[str, Placement]
    slots: dict[str, str]
    cells: dict[int, tuple[str, int]]
    # empty cell key next to the building -> the directions of the doors facing it << 4 | the
    # directions of the walls facing it (their union: the directions of its built neighbours)
    frontier: dict[int, int]

    def __init__(
        self,
        cat: Catalog,
        placements: Iterable[Placement] = (),
        converted: Iterable[str] = (),
        copy_of: Building | None = None,
    ) -> None:
        self.cat = cat
        if copy_of is not None:  # `copy` (compiled, `Building.__new__` would run __init__)
            self.geo = copy_of.geo
            self.placements = copy_of.placements[:]
            self.converted = set(copy_of.converted)
            self.cells = copy_of.cells.copy()
            self.where = copy_of.where.copy()
            self.slots = copy_of.slots.copy()
            self.frontier = copy_of.frontier.copy()
            return
        self.geo = geometry(cat)
        self.placements = []
        self.converted = set(converted)
        self.where = {}
        self.slots = {}
        self.cells = {}
        self.frontier = {}
        for p in placements:
            self.add(p)

    def copy(self) -> Building:
        return Building(self.cat, (), (), self)

    def __len__(self) -> int:
        return len(self.placements)

    @property
    def occ(self) -> dict[Cell, tuple[str, int]]:
        """Cell -> (card id, half), in the order they were built (made on each read)."""
        return {key_cell(k): v for k, v in self.cells.items()}

    def add(self, p: Placement) -> None:
        """Lay a space; legality is `placement_error`'s business (call it first)."""
        cid, x, y, r = p
        if not _in_reach(x, y):
            raise ValueError(f"{p.compact()} is too far from the origin for any legal building")
        info = self.geo.cards[cid]
        if cid in self.converted:
            slots = converted_slots(info.slots)
            bits = DOOR_BITS[r]
        else:
            slots = info.slots
            bits = info.bits[r]
        self.placements.append(p)
        self.where[cid] = p
        self.slots[cid] = slots
        a = cell_key(x, y)
        # (the keys typed Any: compiled, each is boxed once, not at every use)
        cell_a: Any = a
        cell_b: Any = a + BK[r]
        keys, frontier = self.cells, self.frontier
        keys[cell_a] = info.half_a
        keys[cell_b] = info.half_b
        if cell_a in frontier:
            del frontier[cell_a]
        if cell_b in frontier:
            del frontier[cell_b]
        offsets = SLOT_KEY[r]
        for i in range(6):
            f: Any = a + offsets[i]
            if f not in keys:  # seen from f, the new space lies opposite the slot's side
                frontier[f] = frontier.get(f, 0) | bits[i]

    def convert(self, card_id: str) -> None:
        """F-6.3: the space becomes a joker with six doors, in place."""
        self.converted.add(card_id)
        p = self.where.get(card_id)
        if p is None:
            return
        old = self.slots[card_id]
        self.slots[card_id] = converted_slots(old)
        a = cell_key(p.x, p.y)
        ks = (a, a + BK[p.r])
        for i, (h, d) in enumerate(SLOT_SIDE[p.r]):
            f = ks[h] + DK[d]
            if old[i] == "W" and f in self.frontier:
                bit = 1 << ((d + 2) & 3)  # a wall facing f becomes a door
                self.frontier[f] = (self.frontier[f] & ~bit) | bit << 4

    def suits_of(self, card_id: str) -> frozenset[str]:
        """F-5.2/F-R18: a converted space has every suit."""
        return ALL_SUITS if card_id in self.converted else self.geo.cards[card_id].suits

    def slot_facing(self, cell: Cell, direction: int) -> tuple[str, int, str] | None:
        """The (card, slot index, slot char) on the side `direction` of an occupied cell."""
        x, y = cell
        o = self.cells.get(cell_key(x, y)) if _in_reach(x, y) else None
        if o is None:
            return None
        cid, h = o
        i = SIDE_SLOT[self.where[cid].r][h][direction]
        return None if i < 0 else (cid, i, self.slots[cid][i])


# ---- legal positions (F-4) -------------------------------------------------------------------

# per (slot string, equipe): for each frontier mask pair, index doors << 4 | walls, the codes
# (`legal_codes`) of the placements through that frontier cell, less the frontier cell's key * 4


def _candidate_table(slots: str, equipe: bool) -> tuple[tuple[int, ...], ...]:
    """Half A or half B of the card on a frontier cell, in each rotation, where one of its
    slots connects (F-4.3) and its other half's cell is empty: that cell is a neighbour of
    the frontier cell, built on exactly when a side of the building faces the frontier cell
    from there, so when its direction is in doors | walls."""
    table: list[tuple[int, ...]] = []
    for index in range(256):
        doors, walls = index >> 4, index & 15
        built = doors | walls
        out = []
        for r in range(4):
            for h in range(2):
                ok = False
                for d in range(4):
                    i = SIDE_SLOT[r][h][d]
                    if i < 0:
                        continue
                    if doors >> d & 1:
                        ok = slots[i] != "W" or equipe
                    elif walls >> d & 1:
                        ok = equipe and slots[i] != "W"
                    if ok:
                        break
                other = BK[r] if h == 0 else -BK[r]  # the other half's cell, from this one
                if ok and not built >> DK.index(other) & 1:
                    out.append((0 if h == 0 else -BK[r]) * 4 + r)
        table.append(tuple(out))
    return tuple(table)


def _table(geo: Geometry, info: CardInfo, equipe: bool) -> tuple[tuple[int, ...], ...]:
    t = info.tables[equipe]
    if t is None:
        t = geo.tables.get((info.slots, equipe))
        if t is None:
            t = geo.tables[info.slots, equipe] = _candidate_table(info.slots, equipe)
        info.tables[equipe] = t
    return t


def _card_id(card: str | Card) -> str:
    return card if isinstance(card, str) else card.id


def legal_placements(b: Building, card: str | Card, equipe: bool) -> list[Placement]:
    """Every legal placement of a space card (F-4.2, F-4.3, F-R10), sorted (legal_positions)."""
    cid = _card_id(card)
    return [Placement(cid, x, y, r) for x, y, r in legal_positions(b, cid, equipe)]


def legal_positions(b: Building, cid: str, equipe: bool) -> list[tuple[int, int, int]]:
    """Every legal (x, y, r) for the space card `cid` (F-4.2, F-4.3, F-R10), sorted."""
    out: list[tuple[int, int, int]] = []
    for v in legal_codes(b, cid, equipe):
        x, y = key_cell(v >> 2)
        out.append((x, y, v & 3))
    return out


def legal_codes(b: Building, cid: str, equipe: bool) -> list[int]:
    """Every legal placement of the space card `cid` (F-4.2, F-4.3, F-R10) as one int,
    cell_key(x, y) * 4 + r, which sorts as (x, y, r): sorted, each once.

    Enumerated from the frontier: a new space connects through one of its halves lying on an
    empty cell next to the building, so each frontier cell is tried as half A and as half B
    in the four rotations (`_candidate_table`). An empty building offers the four rotations
    at (0, 0). A card already in the building has no position (F-R9).
    """
    if cid in b.where:
        return []
    if not b.placements:
        return [0, 1, 2, 3]
    table = _table(b.geo, b.geo.cards[cid], equipe)
    found: list[int] = []
    for k, masks in b.frontier.items():
        k4 = k << 2  # k * 4 (compiled, a product of a negative key takes the generic path)
        for c in table[masks]:
            found.append(k4 + c)
    found.sort()
    for i in range(len(found) - 1, 0, -1):
        if found[i] == found[i - 1]:
            del found[i]  # found from the cells of both its halves
    return found


PlacementError = tuple[str, str, Msg]


def placement_error(
    b: Building, card: str | Card, x: int, y: int, r: object, equipe: bool
) -> PlacementError | None:
    """Why laying `card` at (x, y, r) is illegal, as (code, clause, detail), or None (F-4).
    `r` is checked here, as given (compiled code would turn a `True` typed `int` into 1)."""
    cid = _card_id(card)
    c = b.cat.cards.get(cid)
    if c is None:
        return (
            "unknown_card",
            "F-2.1",
            msg("{card} is not a card of this catalog", card=repr(cid)),
        )
    if c.type != "space":
        return (
            "not_a_space",
            "F-3.5",
            msg(
                "{card} is a {card_type}: it goes to the site, not the building",
                card=cid,
                card_type=c.type,
            ),
        )
    if type(r) is not int or not 0 <= r <= 3:
        return (
            "invalid_rotation",
            "F-2.4",
            msg("r must be 0, 1, 2 or 3 (quarter-turns clockwise)"),
        )
    if cid in b.where:
        return ("already_built", "F-R9", msg("{card} is already in the building", card=cid))
    p = Placement(cid, x, y, r)
    if not b.placements:
        if (x, y) != (0, 0):
            return (
                "first_space_at_origin",
                "F-R10",
                msg("the first space is placed with its half A on (0, 0)"),
            )
        return None
    cells = cells_of(p)
    for c_ in cells:
        if _in_reach(c_[0], c_[1]) and cell_key(c_[0], c_[1]) in b.cells:
            return (
                "cell_occupied",
                "F-4.3",
                msg("cell [{x}, {y}] is already built on", x=c_[0], y=c_[1]),
            )
    slots = c.slots
    for i, (h, d) in enumerate(SLOT_SIDE[r]):
        cx, cy = cells[h]
        other = b.slot_facing((cx + DX[d], cy + DY[d]), (d + 2) & 3)
        if other is not None and connects(slots[i], other[2], equipe):
            return None
    return (
        "no_connection",
        "F-4.3",
        (
            msg(
                "{placement} makes no connection: one of its slots must meet a door of the "
                "building",
                placement=p.compact(),
            )
            if not equipe
            else msg(
                "{placement} makes no connection: one of its slots must meet a door (or door "
                "and wall, with the equipe de obras) of the building",
                placement=p.compact(),
            )
        ),
    )


def building_errors(
    cat: Catalog, placements: Iterable[Placement], converted: Iterable[str], equipe: bool
) -> list[tuple[int, str, str, Msg]]:
    """Replay a recorded building: (index, code, clause, detail) for each placement that no
    legal history explains. Conversions and the equipe are applied from the start: both only
    add connections, so this accepts every legal order of lays, conversions and site cards."""
    b = Building(cat, (), converted)
    errors = []
    for k, p in enumerate(placements):
        err = placement_error(b, p.card, p.x, p.y, p.r, equipe)
        if err is not None:
            errors.append((k, *err))
        else:
            b.add(p)
    return errors


# ---- measures (F-5) --------------------------------------------------------------------------


class Meeting(NamedTuple):
    """Two slots on one unit edge (F-2.6), `a` of the space laid first."""

    a: str  # slot reference, e.g. "SP09#4" (F-2.7)
    a_slot: str
    b: str
    b_slot: str
    connection: bool
    qualified: tuple[tuple[str, str], ...]  # (door slot reference, suit) per qualification


@dataclass(slots=True, init=False)
class Measures:
    """What F-5 reads on a building (equipe de obras in the work or not); read, never
    changed. (Its __init__ is written out: a dataclass's generated one, frozen's object
    __setattr__ per field included, stays interpreted in the compiled build.)"""

    connections: int  # F-5.1, per unit edge (F-R13)
    qualifications: dict[str, int]  # suit -> qualifications of that type (F-5.2, F-R14)
    qualified: int
    qualified_types: int
    street_doors: int  # F-5.3 / F-R15
    obstructed_doors: int  # doors meeting a wall that is no connection (F-4.4)
    patio_cells: int  # F-5.4 / F-R16
    rectangular: bool  # F-5.5 / F-R17
    area: int  # bounding box width x height (patio cells included); 0 without a space
    spaces: int
    spaces_of_suit: dict[str, int]  # F-5.6 / F-R18
    space_suits: int  # F-7.4
    patios: tuple[Cell, ...]
    # filled by measure(..., detail=True) only
    meetings: tuple[Meeting, ...]
    street_door_slots: tuple[str, ...]
    obstructed_slots: tuple[str, ...]

    def __init__(
        self,
        *,
        connections: int,
        qualifications: dict[str, int],
        qualified: int,
        qualified_types: int,
        street_doors: int,
        obstructed_doors: int,
        patio_cells: int,
        rectangular: bool,
        area: int,
        spaces: int,
        spaces_of_suit: dict[str, int],
        space_suits: int,
        patios: tuple[Cell, ...],
        meetings: tuple[Meeting, ...] = (),
        street_door_slots: tuple[str, ...] = (),
        obstructed_slots: tuple[str, ...] = (),
    ) -> None:
        self.connections = connections
        self.qualifications = qualifications
        self.qualified = qualified
        self.qualified_types = qualified_types
        self.street_doors = street_doors
        self.obstructed_doors = obstructed_doors
        self.patio_cells = patio_cells
        self.rectangular = rectangular
        self.area = area
        self.spaces = spaces
        self.spaces_of_suit = spaces_of_suit
        self.space_suits = space_suits
        self.patios = patios
        self.meetings = meetings
        self.street_door_slots = street_door_slots
        self.obstructed_slots = obstructed_slots


def _patios(keys: Iterable[int], x0: int, y0: int, x1: int, y1: int) -> list[Cell]:
    """F-R16: empty cells of the box from which no path of empty cells leaves the box.

    Flood fill over the box padded with a ring of outside cells (column-major); the empty
    cells the flood never reaches are the patio cells. `keys`: the built cells' keys."""
    h = y1 - y0 + 3
    size = (x1 - x0 + 3) * h
    grid = [False] * size  # (a list of bools: indexed natively when compiled)
    for k in keys:
        x, y = key_cell(k)
        grid[(x - x0 + 1) * h + (y - y0 + 1)] = True
    grid[0] = True
    stack = [0]
    while stack:
        i = stack.pop()
        # a step of +-1 off the top or bottom row lands in the padding ring: still outside
        # (the four steps written out: compiled, a loop over a tuple of them boxes each)
        if i >= 1 and not grid[i - 1]:
            grid[i - 1] = True
            stack.append(i - 1)
        if i + 1 < size and not grid[i + 1]:
            grid[i + 1] = True
            stack.append(i + 1)
        if i >= h and not grid[i - h]:
            grid[i - h] = True
            stack.append(i - h)
        if i + h < size and not grid[i + h]:
            grid[i + h] = True
            stack.append(i + h)
    return [(i // h - 1 + x0, i % h - 1 + y0) for i in range(size) if not grid[i]]


def _area_and_patios(cells: dict[int, tuple[str, int]]) -> tuple[int, list[Cell]]:
    """The bounding box's area (0 without a cell) and the patio cells (F-5.4, F-R16)."""
    if not cells:
        return 0, []
    x0 = y0 = LIMIT  # every built cell lies within LIMIT
    x1 = y1 = -LIMIT
    for k in cells:
        x, y = key_cell(k)
        if x < x0:
            x0 = x
        if x > x1:
            x1 = x
        if y < y0:
            y0 = y
        if y > y1:
            y1 = y
    area = (x1 - x0 + 1) * (y1 - y0 + 1)
    return area, (_patios(cells, x0, y0, x1, y1) if area > len(cells) else [])


def measure(b: Building, equipe: bool, detail: bool = False) -> Measures:
    """Every F-5 measure of the building as it stands. The slot-by-slot lists (`meetings`,
    `street_door_slots`, `obstructed_slots`) are filled only with `detail` (they cost)."""
    quals = dict.fromkeys(SUITS, 0)
    connections = street_doors = obstructed_doors = 0
    street: list[str] = []
    obstructed: list[str] = []
    meetings: list[Meeting] = []
    order = {p.card: k for k, p in enumerate(b.placements)}
    cells, where, slots_of = b.cells, b.where, b.slots
    for k, p in enumerate(b.placements):
        cid = p.card
        slots = slots_of[cid]
        a = (p.x << SHIFT) + p.y
        ks = (a, a + BK[p.r])
        for i, (h, d) in enumerate(SLOT_SIDE[p.r]):
            mine = slots[i]
            o = cells.get(ks[h] + DK[d])
            if o is None:
                if mine != "W":
                    street_doors += 1
                    if detail:
                        street.append(f"{cid}#{i}")
                continue
            ocid, oh = o
            if order[ocid] < k:
                continue  # each edge is read once, from the space laid first
            j = SIDE_SLOT[where[ocid].r][oh][(d + 2) & 3]
            theirs = slots_of[ocid][j]
            q: list[tuple[str, str]] = []
            conn = connects(mine, theirs, equipe)
            if conn:
                connections += 1
                for owner, slot, ch, other in ((cid, i, mine, ocid), (ocid, j, theirs, cid)):
                    suit = SUIT_OF_CODE.get(ch)
                    if suit is not None and suit in b.suits_of(other):
                        quals[suit] += 1
                        if detail:
                            q.append((f"{owner}#{slot}", suit))
            elif mine != theirs:  # a door against a wall (two walls obstruct nothing)
                obstructed_doors += 1
                if detail:
                    obstructed.append(f"{cid}#{i}" if mine != "W" else f"{ocid}#{j}")
            if detail:
                meetings.append(Meeting(f"{cid}#{i}", mine, f"{ocid}#{j}", theirs, conn, tuple(q)))
    spaces = len(b.placements)
    of_suit = dict.fromkeys(SUITS, 0)
    for cid in b.where:
        for s in b.suits_of(cid):
            of_suit[s] += 1
    area, patios = _area_and_patios(b.cells)
    rectangular = bool(b.cells) and len(b.cells) + len(patios) == area
    return Measures(
        connections=connections,
        qualifications=quals,
        qualified=sum(quals.values()),
        qualified_types=sum(1 for v in quals.values() if v),
        street_doors=street_doors,
        obstructed_doors=obstructed_doors,
        patio_cells=len(patios),
        rectangular=rectangular,
        area=area,
        spaces=spaces,
        spaces_of_suit=of_suit,
        space_suits=sum(1 for v in of_suit.values() if v),
        meetings=tuple(meetings),
        street_door_slots=tuple(street),
        obstructed_slots=tuple(obstructed),
        patios=tuple(patios),
    )
