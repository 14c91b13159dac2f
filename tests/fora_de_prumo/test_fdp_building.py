"""Fora de Prumo geometry and legal positions (F-2.4, F-2.5, F-4), and the Work record."""

from __future__ import annotations

import random

import pytest
from fdp_examples import CAT, STEPS_1, STEPS_2, STEPS_2_BEFORE, STEPS_4, build

from engine.fora_de_prumo.building import (
    BX,
    BY,
    DX,
    DY,
    SLOT_SIDE,
    Building,
    Placement,
    building_errors,
    cells_of,
    legal_placements,
    parse_compact,
    placement_error,
)
from engine.fora_de_prumo.work import Work

SPACES = [c.id for c in CAT.cards.values() if c.type == "space"]
CODES = {"invalid_rotation", "first_space_at_origin", "cell_occupied", "no_connection"}

# F-2.5, transcribed: r -> the (half, side) of slots 0..5
F25 = """
0 | A north | B north | B east | B south | A south | A west
1 | A east | B east | B south | B west | A west | A north
2 | A south | B south | B west | B north | A north | A east
3 | A west | B west | B north | B east | A east | A south
"""
SIDES = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def P(text: str) -> Placement:
    p = parse_compact(text)
    assert p is not None
    return p


def test_F_2_5_slot_table() -> None:
    for line in F25.strip().splitlines():
        r, *slots = (c.strip() for c in line.split("|"))
        for i, cell in enumerate(slots):
            half, side = cell.split()
            h, d = SLOT_SIDE[int(r)][i]
            assert (h, (DX[d], DY[d])) == ("AB".index(half), SIDES[side])


@pytest.mark.parametrize(("r", "b_cell"), [(0, (4, 7)), (1, (3, 8)), (2, (2, 7)), (3, (3, 6))])
def test_F_2_4_half_b_east_south_west_north(r: int, b_cell: tuple[int, int]) -> None:
    assert cells_of(Placement("SP01", 3, 7, r)) == ((3, 7), b_cell)
    assert (BX[r], BY[r]) == (b_cell[0] - 3, b_cell[1] - 7)


def test_F_2_7_compact_notation() -> None:
    assert P("SP09@0,-1r0") == Placement("SP09", 0, -1, 0)
    assert Placement("SP09", 0, -1, 0).compact() == "SP09@0,-1r0"
    for bad in ("SP09@0,-1r4", "SP09@0;-1r0", "@0,0r0", "SP09@0,0", "SP09@1.5,0r0"):
        assert parse_compact(bad) is None


def test_F_R10_first_space_at_origin_in_any_rotation() -> None:
    b = Building(CAT)
    assert legal_placements(b, "SP03", False) == [Placement("SP03", 0, 0, r) for r in range(4)]
    for r in range(4):
        assert placement_error(b, "SP03", 0, 0, r, False) is None
    err = placement_error(b, "SP03", 1, 0, 0, False)
    assert err is not None and err[:2] == ("first_space_at_origin", "F-R10")
    # r = 2: half B on (-1, 0), coordinates never renormalised
    b.add(Placement("SP03", 0, 0, 2))
    assert b.occ[-1, 0] == ("SP03", 1) and b.occ[0, 0] == ("SP03", 0)


@pytest.mark.parametrize("r", [4, -1, True, 1.0, "0"])
def test_F_2_4_invalid_rotation(r: object) -> None:
    err = placement_error(Building(CAT), "SP03", 0, 0, r, False)  # type: ignore[arg-type]
    assert err is not None and err[:2] == ("invalid_rotation", "F-2.4")


def test_F_4_3a_cell_occupied() -> None:
    b = Building(CAT, [P("SP05@0,0r0")])
    for x, y, r in ((0, 0, 1), (1, 0, 3), (1, -1, 1), (-1, 0, 0), (2, 0, 2)):
        err = placement_error(b, "SP10", x, y, r, True)
        assert err is not None and err[:2] == ("cell_occupied", "F-4.3"), (x, y, r)
        assert all((p.x, p.y, p.r) != (x, y, r) for p in legal_placements(b, "SP10", True))


def test_F_4_3b_no_connection_far_or_only_walls() -> None:
    b = Building(CAT, [P("SP05@0,0r0")])
    err = placement_error(b, "SP10", 5, 5, 0, True)
    assert err is not None and err[:2] == ("no_connection", "F-4.3")
    # SP10@0,-1r0 against SP05: SP10#3 D meets SP05#1 D: legal
    assert placement_error(b, "SP10", 0, -1, 0, False) is None
    # SP10@0,-1r2: its only meeting is SP10#0 (A south, D) with SP05#0 (W): needs the equipe
    err = placement_error(b, "SP10", 0, -1, 2, False)
    assert err is not None and err[0] == "no_connection"
    assert placement_error(b, "SP10", 0, -1, 2, True) is None
    # SP08@2,0r0: its only meeting is SP08#5 W with SP05#2 W: two walls never connect
    err = placement_error(b, "SP08", 2, 0, 0, True)
    assert err is not None and err[0] == "no_connection"


def test_F_6_5_equipe_lets_a_door_meet_a_wall() -> None:
    """F-9.1: the estação's only possible connection is its B door against a vestiários wall."""
    w = build(STEPS_1[: STEPS_1.index("PE05")])
    b = w.built(CAT)
    err = placement_error(b, "SP17", -1, 0, 1, False)
    assert err is not None and err[:2] == ("no_connection", "F-4.3")
    assert Placement("SP17", -1, 0, 1) not in legal_placements(b, "SP17", False)
    assert placement_error(b, "SP17", -1, 0, 1, True) is None
    assert Placement("SP17", -1, 0, 1) in legal_placements(b, "SP17", True)


def test_F_R11_other_meetings_are_free() -> None:
    """SP10@1,0r0 in F-9.4: its wall meets the corredor's G door (obstructed) and it is legal
    through its two doors meeting the praça; a wall may meet a wall (SP09#5 / SP01#5)."""
    w = build(["SP05@0,0r2", "SP12@-1,2r3", "SP09@1,2r2", "SP20@2,1r2"])
    b = w.built(CAT)
    assert placement_error(b, "SP10", 1, 0, 0, False) is None
    b.add(P("SP10@1,0r0"))
    assert placement_error(b, "SP01", 2, 2, 0, False) is None


def test_F_R9_card_already_built_and_not_a_space() -> None:
    b = Building(CAT, [P("SP05@0,0r0")])
    assert legal_placements(b, "SP05", False) == []
    err = placement_error(b, "SP05", 5, 5, 0, False)
    assert err is not None and err[:2] == ("already_built", "F-R9")
    err = placement_error(b, "PR01", 0, -1, 0, False)
    assert err is not None and err[:2] == ("not_a_space", "F-3.5")
    err = placement_error(b, "XX99", 0, -1, 0, False)
    assert err is not None and err[0] == "unknown_card"


def random_building(rnd: random.Random, size: int) -> tuple[Building, bool]:
    """A building grown by legal placements only (equipe present or not), with conversions."""
    equipe = rnd.random() < 0.5
    b = Building(CAT)
    pool = SPACES[:]
    rnd.shuffle(pool)
    for cid in pool:
        if len(b) >= size:
            break
        options = legal_placements(b, cid, equipe)
        if options:
            b.add(rnd.choice(options))
            if rnd.random() < 0.15:
                b.convert(rnd.choice(list(b.where)))
    return b, equipe


@pytest.mark.parametrize("seed", range(12))
def test_F_4_3_legal_placements_is_exactly_what_placement_error_accepts(seed: int) -> None:
    rnd = random.Random(seed)
    b, equipe = random_building(rnd, 2 + seed)
    xs = [c[0] for c in b.occ]
    ys = [c[1] for c in b.occ]
    box = [
        (x, y, r)
        for x in range(min(xs) - 3, max(xs) + 4)
        for y in range(min(ys) - 3, max(ys) + 4)
        for r in range(4)
    ]
    rebuilt = Building(CAT, b.placements, b.converted)
    for cid in SPACES:
        if cid in b.where:
            continue
        for eq in (equipe, not equipe):
            legal = legal_placements(b, cid, eq)
            assert legal == sorted(set(legal))
            assert legal == legal_placements(rebuilt, cid, eq)  # the frontier survives converts
            brute = []
            for x, y, r in box:
                err = placement_error(b, cid, x, y, r, eq)
                if err is None:
                    brute.append(Placement(cid, x, y, r))
                else:
                    assert err[0] in CODES and err[1] in ("F-4.3",), err
            assert legal == brute, (cid, eq)


def test_legal_placements_do_not_depend_on_copies() -> None:
    b = build(STEPS_1[:8]).built(CAT)
    c = b.copy()
    before = legal_placements(b, "SP20", False)
    c.add(before[0])
    c.convert("SP11")
    assert legal_placements(b, "SP20", False) == before
    assert "SP20" not in b.where and "SP11" not in b.converted
    assert legal_placements(c, "SP01", False) != legal_placements(b, "SP01", False)


def test_F_6_3_conversion_opens_new_positions() -> None:
    """Walls become doors (F-R20): a position against a former wall becomes legal."""
    b = Building(CAT, [P("SP05@0,0r0")])
    # SP08@0,-1r0: its only door SP08#4 (A south) meets SP05#0, a wall until converted
    assert placement_error(b, "SP08", 0, -1, 0, False) is not None
    b.convert("SP05")
    assert b.slots["SP05"] == "DDDDDG"
    assert placement_error(b, "SP08", 0, -1, 0, False) is None
    assert Placement("SP08", 0, -1, 0) in legal_placements(b, "SP08", False)


def test_building_errors_replays_a_record() -> None:
    record = [P(s) for s in STEPS_1 if "@" in s]
    assert building_errors(CAT, record, [], True) == []
    errors = building_errors(CAT, record, [], False)
    assert [(k, code) for k, code, *_ in errors] == [(4, "no_connection")]
    forged = [*record[:2], P("SP20@1,1r0")]
    assert [e[:2] for e in building_errors(CAT, forged, [], True)] == [(2, "cell_occupied")]
    assert [e[:2] for e in building_errors(CAT, [P("SP20@1,0r0")], [], True)] == [
        (0, "first_space_at_origin")
    ]
    # a lay legal only after a conversion is accepted however the record is ordered
    assert building_errors(CAT, [P("SP05@0,0r0"), P("SP08@0,-1r0")], ["SP05"], False) == []


def test_work_copy_records_and_abilities() -> None:
    w = build(STEPS_1)
    w.clones.append(("CO05", "PR02"))
    c = w.copy()
    c.site.append("PE01")
    c.building.append(P("SP20@5,5r0"))
    c.clones.append(("MA01", "PR03"))
    assert "PE01" not in w.site and len(w.building) == 5 and len(w.clones) == 1
    assert w.has_ability(CAT, "equipe_de_obras") and w.has_ability(CAT, "arquiteta")
    assert not w.has_ability(CAT, "coordenadora") and c.has_ability(CAT, "coordenadora")
    assert w.ability_count(CAT, "arquiteta") == 1
    assert w.cloned() == {"CO05"}
    assert sorted(w.all_cards()) == sorted(
        ["SP11", "SP12", "SP09", "SP02", "SP17", *[s for s in STEPS_1 if "@" not in s], "PR02"]
    )
    assert Work() == Work() and w != c


# F-9.2, before and after the designer converts SP05 (F-6.3): the text's two pictures differ only
# in SP05's row, its three former walls drawn as doors and its halves marked `*`.
F_9_2_BEFORE = """
          x=0      x=1      x=2
           D        W
y= -1   W 10a      10b  D    .
           P        D
           W        D        D
y=  0   G 05a      05b  W D 04a  D
           W        D
           Y        Y
y=  1   D 03a      03b  D P 04b  W
           W        W        W
"""
F_9_2_CONVERTED = F_9_2_BEFORE.replace(
    "           W        D        D\ny=  0   G 05a      05b  W D 04a  D\n           W        D\n",
    "           D        D        D\ny=  0   G 05a*     05b* D D 04a  D\n           D        D\n",
)

# The F-9 pictures, verbatim: every cell's card, half and conversion mark, and the slot
# character on each outer side of each card (y grows south).
PICTURES = {
    "F-9.1": (
        STEPS_1,
        """
         x=-1      x=0      x=1      x=2      x=3
                    W        W        W        W
y= -1      .     W 09a      09b  P D 02a      02b  W
                    D        B        G        W
           W        D        D
y=  0   D 17a  B W 11a      11b  W    .        .
                    W        G
                    W        B
y=  1   W 17b  W W 12a      12b  D    .        .
           D        D        D
""",
    ),
    "F-9.2 before the conversion": (STEPS_2_BEFORE, F_9_2_BEFORE),
    "F-9.2": (STEPS_2, F_9_2_CONVERTED),
    "F-9.4": (
        STEPS_4,
        """
         x=-1      x=0      x=1      x=2      x=3
           D        W        D        W        D
y=  0   W 05b      05a  G W 10a      10b  D Y 03b  W
           D        W        P        D
           D                 D        D
y=  1   B 12b  D    .     Y 20b      20a  W Y 03a  W
                             D        D        D
                    B        D        D        D
y=  2   W 12a  D P 09b      09a  W W 01a      01b  W
           W        W        W        W        Y
""",
    ),
}


def picture(b: Building) -> str:
    """Draw a building as F-9 does: a 9-character column per x, three lines per row y."""
    xs = [c[0] for c in b.occ]
    ys = [c[1] for c in b.occ]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)

    def side(cell: tuple[int, int], d: int) -> str:
        found = b.slot_facing(cell, d)
        return "" if found is None else found[2]

    def line(marks: dict[int, str]) -> str:
        chars = [" "] * (12 + 9 * (x1 - x0 + 1))
        for col, text in marks.items():
            chars[col : col + len(text)] = text
        return "".join(chars).rstrip()

    col = {x: 10 + 9 * (x - x0) for x in range(x0, x1 + 1)}  # where a cell's label starts
    out = [line({col[x] + 3 - len(f"x={x}"): f"x={x}" for x in col})]
    for y in range(y0, y1 + 1):
        north, row, south = {}, {}, {}
        row[0] = f"y={y:>3}"
        for x in col:
            if (x, y) not in b.occ:
                row[col[x] + 1] = "."
                continue
            cid, h = b.occ[x, y]
            mark = "*" if cid in b.converted else ""
            row[col[x]] = f"{cid[2:]}{'ab'[h]}{mark}"
            north[col[x] + 1] = side((x, y), 0)
            row[col[x] + 5] = side((x, y), 1)
            south[col[x] + 1] = side((x, y), 2)
            row[col[x] - 2] = side((x, y), 3)
        out += [line(north), line(row), line(south)]
    # the picture prints no line for an empty north or south side list
    return "\n".join(text for text in out if text)


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_F_9_pictures_cell_by_cell(name: str) -> None:
    steps, drawn = PICTURES[name]
    assert picture(build(steps).built(CAT)) == drawn.strip("\n")
