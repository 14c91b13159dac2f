"""A-4 eligible cells: (a) right of an occupied cell, (b) the first empty street opens,
(c) face-down tops; A-4.2 three in a row; A-4.3 Fountain cells; A-4.4 lifting."""

from __future__ import annotations

import pytest
import scenario as S
from scenario import build, decide, illegal, play, play_cells


def test_A_4_1_b_first_empty_street_opens() -> None:
    s = build(3, hands={0: ["blue.palace"]})
    assert play_cells(s, "blue.palace") == {(1, 1)}


def test_A_4_1_b_next_street_opens_only_after_the_previous_one() -> None:
    s = build(3, hands={0: ["blue.palace"]}, city={(1, 1): "green.well"})
    assert play_cells(s, "blue.palace") == {(1, 2), (2, 1)}
    s = build(3, hands={0: ["blue.palace"]}, city={(1, 1): "green.well", (2, 1): "yellow.well"})
    assert play_cells(s, "blue.palace") == {(1, 2), (2, 2), (3, 1)}


def test_A_4_1_b_an_emptied_street_reopens_before_later_ones() -> None:
    """Street 1 lost its only card (removed by a Temple): it is again the first street
    without cards, so its block 1 is eligible and street 3 stays closed."""
    s = build(3, hands={0: ["blue.palace"]}, city={(2, 1): "yellow.well"})
    assert play_cells(s, "blue.palace") == {(1, 1), (2, 2)}


def test_A_4_1_a_empty_cell_right_of_a_face_up_card() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well", (1, 2): "green.park"})
    assert (1, 3) in play_cells(s, "blue.palace")
    assert (1, 4) not in play_cells(s, "blue.palace")


def test_A_4_1_a_empty_cell_right_of_a_face_down_card() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well", (1, 2): "-green.park"})
    assert play_cells(s, "blue.palace") == {(1, 2), (1, 3), (2, 1)}


def test_A_4_1_a_no_cell_right_of_a_hole() -> None:
    """An empty cell whose left neighbour is empty is not eligible (a hole left by Temple)."""
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well", (1, 3): "green.park"})
    cells = play_cells(s, "blue.palace")
    assert (1, 2) in cells and (1, 4) in cells
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 2): "green.well", (2, 1): "green.park"})
    cells = play_cells(s, "blue.palace")
    # street 1 has a card, so its block 1 is not opened by (b), and it has no left neighbour
    assert (1, 1) not in cells
    assert cells == {(1, 3), (2, 2)}


def test_A_4_1_c_face_down_top_is_eligible_and_covered() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well", (1, 2): "-green.park"})
    s2, _ev = play(s, "blue.palace", (1, 2))
    assert S.stack(s2, (1, 2))[0]["card"] == "green.park"
    assert S.stack(s2, (1, 2))[0]["face_up"] is False
    assert S.top_card(s2, (1, 2)) == "blue.palace"
    # the covered card does not come back into play
    assert "value" not in S.stack(s2, (1, 2))[0]


def test_A_4_1_face_up_cell_is_not_eligible() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well"})
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 1]})
    assert (e.code, e.clause, e.pointer) == ("cell_not_eligible", "A-4.1", "/decisions/0/cell")
    assert e.index == 0


def test_A_4_1_empty_cell_with_empty_left_is_not_eligible() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well"})
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 5]})
    assert (e.code, e.clause) == ("cell_not_eligible", "A-4.1")


def test_A_4_1_b_second_street_closed_while_first_is_empty() -> None:
    s = build(2, hands={0: ["blue.palace"]})
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [2, 1]})
    assert (e.code, e.clause) == ("cell_not_eligible", "A-4.1")


def test_A_4_1_cell_outside_the_city_refused() -> None:
    s = build(2, hands={0: ["blue.palace"]})
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [3, 1]})
    assert (e.code, e.clause) == ("invalid_cell", "A-1.2")
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 9]})
    assert e.code == "invalid_cell"


# -- three in a row ----------------------------------------------------------------


def test_A_4_2_third_consecutive_own_card_refused_with_3_players() -> None:
    s = build(3, hands={0: ["blue.palace"]}, city={(1, 1): "blue.well", (1, 2): "blue.park"})
    assert (1, 3) not in play_cells(s, "blue.palace")
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 3]})
    assert (e.code, e.clause) == ("three_in_a_row", "A-4.2")


def test_A_4_2_applies_with_4_players() -> None:
    s = build(4, hands={0: ["blue.palace"]}, city={(1, 1): "blue.well", (1, 2): "blue.park"})
    assert (1, 3) not in play_cells(s, "blue.palace")


def test_A_4_2_no_restriction_with_2_players() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "blue.well", (1, 2): "blue.park"})
    assert (1, 3) in play_cells(s, "blue.palace")


def test_A_4_2_filling_a_gap_between_own_cards_refused() -> None:
    """Playing onto a face-down card between two own face-up cards makes a run of 3."""
    s = build(
        3,
        hands={0: ["blue.palace"]},
        city=S.streets("blue.well -green.park blue.park"),
    )
    assert (1, 2) not in play_cells(s, "blue.palace")
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 2]})
    assert e.code == "three_in_a_row"


# Blue cards in a line that something cuts, so no run: the city's streets, and the cell
# where blue's Palace stays eligible though it would be a third blue card in that line.
RUN_BREAKERS = {
    "A-4.2 face-down card breaks a run": (("blue.well -blue.park blue.market",), (1, 4)),
    "A-4.2 opponent card breaks a run": (("blue.well green.park blue.market",), (1, 4)),
    "A-4.2 runs count within one street only": (("blue.well green.park", "blue.market"), (2, 2)),
}


@pytest.mark.parametrize("clause", RUN_BREAKERS)
def test_A_4_2_no_run_of_three_across_a_break(clause: str) -> None:
    city, cell = RUN_BREAKERS[clause]
    s = build(3, hands={0: ["blue.palace"]}, city=S.streets(*city))
    assert cell in play_cells(s, "blue.palace")


def test_A_4_2_moves_may_create_runs() -> None:
    """A Tavern move may make 3 of a colour in a row (A-4.2, A-7.5)."""
    s = build(
        3,
        hands={0: ["blue.tavern"]},
        city=S.streets("blue.well blue.park", "blue.palace"),
    )
    s2, _ = play(s, "blue.tavern", (2, 2))
    assert S.opt(seat=0, type="move", target="blue.palace", cell=(1, 3)) in S.option_set(s2)
    s3, _ev = decide(s2, "move", target="blue.palace", cell=(1, 3))
    assert [S.top_card(s3, (1, b)) for b in (1, 2, 3)] == ["blue.well", "blue.park", "blue.palace"]


# -- Fountain --------------------------------------------------------------------------


def test_A_4_3_fountain_cell_not_eligible_for_rivals() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"]},
        city={(1, 1): "green.well"},
        fountains={(1, 2): 1},
        replacements={1: {"fountain": "market"}},
        variant="advanced",
    )
    assert (1, 2) not in play_cells(s, "blue.palace")
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": [1, 2]})
    assert (e.code, e.clause) == ("fountain_cell", "A-4.3")


def test_A_4_3_fountain_cell_counts_as_occupied_for_the_next_cell() -> None:
    """Ruling: the token occupies its cell for A-4.1(a)."""
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.well"}, fountains={(1, 2): 1})
    assert play_cells(s, "blue.palace") == {(1, 3), (2, 1)}


def test_A_4_3_fountain_token_alone_occupies_its_street() -> None:
    """Ruling: a street holding only a Fountain token is not 'without card' for (b)... it is
    occupied, so the next street opens."""
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 2): "green.well"}, fountains={(1, 1): 1})
    assert play_cells(s, "blue.palace") == {(1, 3), (2, 1)}


def test_A_4_3_fountain_cell_stays_eligible_for_its_owner_who_takes_the_token_back() -> None:
    s = S.with_fountain(
        0, (1, 2), hands={0: ["blue.palace"], 1: ["green.park"]}, city={(1, 1): "green.well"}
    )
    assert (1, 2) in play_cells(s, "blue.palace")
    s2, ev = play(s, "blue.palace", (1, 2))
    assert s2["fountains"] == []
    assert s2["seats"][0]["tokens"] == 2
    assert S.event("token_returned", seat=0, cell=[1, 2], reason="fountain", clause="A-9") in ev


# -- lifting ----------------------------------------------------------------------------


def test_A_4_4_move_eligibility_judged_after_lifting() -> None:
    """Moving the last card of street 1: the cell right of it stops being eligible, and
    street 2 closes (street 1 is the first empty street once the card is lifted)."""
    s = build(2, hands={0: ["blue.tavern"]}, city={(1, 1): "blue.palace"})
    s2, _ = play(s, "blue.tavern", (1, 2))
    moves = {(o["target"], tuple(o["cell"])) for o in S.options(s2) if o["type"] == "move"}
    # palace lifted from (1,1): (1,2) holds the tavern, so (1,3) is eligible;
    # street 1 still has the tavern so (2,1) opens; (1,1) itself is excluded
    assert ("blue.palace", (1, 3)) in moves and ("blue.palace", (2, 1)) in moves
    assert ("blue.palace", (1, 1)) not in moves
    # tavern lifted from (1,2): (1,3) loses its left neighbour
    assert ("blue.tavern", (1, 3)) not in moves
    assert ("blue.tavern", (2, 1)) in moves


def test_A_4_4_lifting_the_only_card_closes_the_next_street() -> None:
    s = build(2, hands={0: ["blue.tavern"]}, city={(1, 1): "blue.palace", (1, 2): "green.well"})
    s2, _ = play(s, "blue.tavern", (2, 1))
    moves = {(o["target"], tuple(o["cell"])) for o in S.options(s2) if o["type"] == "move"}
    # tavern lifted from (2,1): street 2 is empty again, so only its block 1 would open,
    # and that is the tavern's own cell (excluded): it can go right of the green well
    assert ("blue.tavern", (1, 3)) in moves
    assert ("blue.tavern", (2, 2)) not in moves
    assert ("blue.tavern", (2, 1)) not in moves
