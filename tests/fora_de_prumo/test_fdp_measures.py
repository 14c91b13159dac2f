"""Fora de Prumo building measures (F-5): connections, qualifications, street doors, patios,
rectangles and suit counts, checked slot by slot on the worked examples of F-9."""

from __future__ import annotations

import random

import pytest
from fdp_examples import CAT, STEPS_1, STEPS_2, STEPS_2_BEFORE, STEPS_4, build

from engine.fora_de_prumo.building import (
    DX,
    DY,
    SLOT_SIDE,
    Building,
    Measures,
    Placement,
    cells_of,
    legal_placements,
    measure,
)
from engine.fora_de_prumo.catalog import SUITS
from engine.fora_de_prumo.scoring import measure_work, work_value


def M(steps: list[str], detail: bool = True) -> Measures:
    w = build(steps)
    return measure(w.built(CAT), w.has_ability(CAT, "equipe_de_obras"), detail)


def meetings(m: Measures) -> dict[frozenset[str], tuple[bool, set[tuple[str, str]]]]:
    return {frozenset((x.a, x.b)): (x.connection, set(x.qualified)) for x in m.meetings}


def test_F_9_1_meetings_slot_by_slot() -> None:
    m = M(STEPS_1)
    assert meetings(m) == {
        frozenset({"SP09#4", "SP11#0"}): (True, set()),
        frozenset({"SP09#3", "SP11#1"}): (True, {("SP09#3", "circulacoes")}),
        frozenset({"SP09#2", "SP02#5"}): (True, {("SP09#2", "conforto")}),
        frozenset({"SP11#3", "SP12#1"}): (
            True,
            {("SP11#3", "exteriores"), ("SP12#1", "circulacoes")},
        ),
        frozenset({"SP11#4", "SP12#0"}): (False, set()),
        frozenset({"SP17#0", "SP11#5"}): (True, {("SP17#0", "circulacoes")}),
        frozenset({"SP17#1", "SP12#5"}): (False, set()),
    }
    assert m.connections == 5
    assert m.qualifications == {"circulacoes": 3, "conforto": 1, "exteriores": 1, "atividades": 0}
    assert (m.qualified, m.qualified_types) == (5, 3)
    assert sorted(m.street_door_slots) == sorted(
        ["SP17#4", "SP17#2", "SP12#2", "SP12#3", "SP12#4", "SP02#4"]
    )
    assert m.street_doors == 6 and m.obstructed_doors == 0


def test_F_5_2_doubly_qualified_connection() -> None:
    """Vestiários G into galerias (exteriores) and galerias B into vestiários (circulações)."""
    m = M(STEPS_1[: STEPS_1.index("SP12@0,1r0") + 1])
    assert m.connections == 1 and m.qualified == 2 and m.qualified_types == 2


def test_F_5_2_symbols_into_other_suits_give_a_simple_connection() -> None:
    """F-9.2 before the conversion: Y into the corredor (circulações), P into the sala de aula
    (atividades): connections, no qualification."""
    m = M(STEPS_2_BEFORE)
    assert m.connections == 3 and m.qualified == 0 and m.qualified_types == 0
    assert all(not x.qualified for x in m.meetings)


def test_F_R13_two_connections_along_a_long_side() -> None:
    """Auditório over vestiários (F-9.1): two unit edges, two connections."""
    m = M(["SP11@0,0r0", "SP09@0,-1r0"])
    assert m.connections == 2 and m.qualified == 1


def test_F_R14_door_wall_connection_only_the_door_qualifies() -> None:
    m = M(STEPS_1)
    estacao = next(x for x in m.meetings if "SP17#0" in (x.a, x.b))
    assert estacao.connection and estacao.qualified == (("SP17#0", "circulacoes"),)


def test_F_6_5_without_the_equipe_the_estacao_door_is_obstructed() -> None:
    b = build(STEPS_1).built(CAT)
    m = measure(b, False, True)
    assert m.connections == 4 and m.qualifications["circulacoes"] == 2
    assert m.obstructed_slots == ("SP17#0",) and m.obstructed_doors == 1


def test_F_R21_equipe_counts_door_wall_meetings_formed_before_it() -> None:
    """F-9.2 before the conversion, with the equipe laid last: its 3 obstructed doors connect."""
    w = build([*STEPS_2_BEFORE, "PE05"])
    m = measure_work(CAT, w)
    assert m.connections == 6 and m.obstructed_doors == 0


def test_F_9_2_conversion_slot_by_slot() -> None:
    before = M(STEPS_2_BEFORE)
    assert sorted(before.obstructed_slots) == ["SP03#0", "SP04#4", "SP10#4"]
    assert before.street_doors == 6
    m = M(STEPS_2)
    assert meetings(m) == {
        frozenset({"SP10#4", "SP05#0"}): (True, {("SP10#4", "conforto")}),
        frozenset({"SP10#3", "SP05#1"}): (True, set()),
        frozenset({"SP03#0", "SP05#4"}): (True, {("SP03#0", "atividades")}),
        frozenset({"SP03#1", "SP05#3"}): (True, {("SP03#1", "atividades")}),
        frozenset({"SP04#4", "SP05#2"}): (True, set()),
        frozenset({"SP04#3", "SP03#2"}): (True, set()),
    }
    assert m.connections == 6 and m.qualified == 3
    assert m.qualifications == {"conforto": 1, "atividades": 2, "exteriores": 0, "circulacoes": 0}
    assert sorted(m.street_door_slots) == sorted(
        ["SP05#5", "SP10#0", "SP10#2", "SP03#5", "SP04#0", "SP04#5"]
    )
    assert m.obstructed_doors == 0


def test_F_9_4_rectangle_with_a_patio() -> None:
    m = M(STEPS_4)
    assert m.patios == ((0, 1),) and m.patio_cells == 1
    assert m.rectangular and m.area == 15 and m.spaces == 7
    assert m.connections == 8 and m.qualified == 0
    assert sorted(m.obstructed_slots) == ["SP03#0", "SP05#5"]
    assert sorted(m.street_door_slots) == sorted(
        ["SP05#3", "SP10#0", "SP03#2", "SP01#3", "SP12#1", "SP12#3", "SP09#3", "SP20#2"]
    )


def test_F_R15_a_door_facing_a_patio_is_a_street_door() -> None:
    m = M(STEPS_4)
    b = build(STEPS_4).built(CAT)
    facing_patio = []
    for ref in m.street_door_slots:
        cid, slot = ref.split("#")
        p = b.where[cid]
        h, d = SLOT_SIDE[p.r][int(slot)]
        x, y = cells_of(p)[h]
        if (x + DX[d], y + DY[d]) in m.patios:
            facing_patio.append(ref)
    assert sorted(facing_patio) == ["SP09#3", "SP12#3", "SP20#2"]


def test_F_R16_patio_cells_counted_one_by_one_and_diagonal_gaps_do_not_open() -> None:
    b = Building(CAT)
    for p in (
        Placement("SP01", 0, 0, 1),  # (0,0)-(0,1)
        Placement("SP03", 0, 2, 1),  # (0,2)-(0,3)
        Placement("SP04", 1, 0, 0),  # (1,0)-(2,0)
        Placement("SP05", 3, 1, 1),  # (3,1)-(3,2)
        Placement("SP10", 1, 3, 0),  # (1,3)-(2,3)
    ):
        b.add(p)
    # corners (3,0) and (3,3) empty: the hole touches them only diagonally
    m = measure(b, False)
    assert m.patios == ((1, 1), (1, 2), (2, 1), (2, 2)) and m.patio_cells == 4
    assert not m.rectangular and m.area == 16
    c = b.copy()
    c.add(Placement("SP12", 3, 0, 3))  # (3,0)-(3,-1): fills a corner, grows the box
    assert measure(c, False).patio_cells == 4
    # an opening: remove the bottom wall of the ring -> the hole reaches the box's edge
    d = Building(CAT, b.placements[:4])
    assert measure(d, False).patio_cells == 0


def test_F_R17_rectangles() -> None:
    one = measure(Building(CAT, [Placement("SP05", 0, 0, 3)]), False)
    assert one.rectangular and one.area == 2 and one.patio_cells == 0
    two = measure(Building(CAT, [Placement("SP05", 0, 0, 0), Placement("SP10", 0, -1, 0)]), False)
    assert two.rectangular and two.area == 4
    ell = measure(Building(CAT, [Placement("SP05", 0, 0, 0), Placement("SP10", 2, 0, 1)]), False)
    assert not ell.rectangular and ell.area == 6
    empty = measure(Building(CAT), False)
    assert (empty.spaces, empty.area, empty.rectangular, empty.connections) == (0, 0, False, 0)


def test_F_R18_spaces_of_suit_with_joker_and_converted() -> None:
    m = M(STEPS_2)  # SP05 converted; no printed joker
    assert m.spaces_of_suit == {"exteriores": 2, "conforto": 2, "circulacoes": 1, "atividades": 2}
    assert m.space_suits == 4 and m.spaces == 4
    j = measure(Building(CAT, [Placement("SP01", 0, 0, 0)]), False)
    assert j.spaces_of_suit == dict.fromkeys(SUITS, 1) and j.space_suits == 4
    k = measure(Building(CAT, [Placement("SP03", 0, 0, 0)]), False)
    assert k.spaces_of_suit["atividades"] == 1 and k.space_suits == 1


def test_F_7_4_work_values() -> None:
    w = build(STEPS_1)
    assert work_value(CAT, w, "spaces") == 5
    assert work_value(CAT, w, "spaces", "circulacoes") == 2
    assert work_value(CAT, w, "space_suits") == 4
    assert work_value(CAT, w, "cards", "material") == 3
    assert work_value(CAT, w, "cards", "project") == 1
    assert work_value(CAT, w, "connections") == 5
    assert work_value(CAT, w, "qualified") == 5
    assert work_value(CAT, w, "qualified", "circulacoes") == 3
    assert work_value(CAT, w, "qualified_types") == 3
    assert work_value(CAT, w, "street_doors") == 6
    assert work_value(CAT, build(STEPS_4), "patio_cells") == 1
    w.clones.append(("MA01", "PR02"))  # a clone card is no project (F-R22)
    assert work_value(CAT, w, "cards", "project") == 1


@pytest.mark.parametrize("seed", range(6))
def test_measures_are_symmetric_and_detail_free_counts_agree(seed: int) -> None:
    """Random legal buildings: every edge read once, the counts equal the detailed lists,
    and a door is either connected, obstructed or a street door."""
    rnd = random.Random(seed)
    spaces = [c.id for c in CAT.cards.values() if c.type == "space"]
    rnd.shuffle(spaces)
    equipe = seed % 2 == 1
    b = Building(CAT)
    for cid in spaces[:12]:
        options = legal_placements(b, cid, equipe)
        if options:
            b.add(rnd.choice(options))
    full, lean = measure(b, equipe, True), measure(b, equipe)
    assert full.street_doors == len(full.street_door_slots) == lean.street_doors
    assert full.obstructed_doors == len(full.obstructed_slots) == lean.obstructed_doors
    assert full.connections == sum(x.connection for x in full.meetings) == lean.connections
    assert full.qualified == sum(len(x.qualified) for x in full.meetings)
    edges = [frozenset((x.a, x.b)) for x in full.meetings]
    assert len(edges) == len(set(edges))
    doors = sum(ch != "W" for cid in b.where for ch in b.slots[cid])
    door_ends = sum((x.a_slot != "W") + (x.b_slot != "W") for x in full.meetings if x.connection)
    assert doors == full.street_doors + full.obstructed_doors + door_ends
