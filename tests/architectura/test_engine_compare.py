"""A-5 comparing the played card with its left neighbour (A-3.3, A-3.6)."""

from __future__ import annotations

import scenario as S
from scenario import build, decide, play, top, value


def compared(ev: list[S.Event]) -> list[S.Event]:
    return S.of_type(ev, "compared")


def left_and_play(
    left: str, card: str, seats: int = 2, **kw: object
) -> tuple[S.State, list[S.Event]]:
    s = build(seats, hands={0: [card], 1: ["green.well"]}, city={(1, 1): left}, **kw)  # type: ignore[arg-type]
    return play(s, card, (1, 2))


def test_A_5_1_equal_values_nothing_happens() -> None:
    s, ev = left_and_play("green.palace=9", "blue.temple")
    assert compared(ev) == [
        S.event(
            "compared",
            card="green.palace",
            cell=[1, 1],
            left_value=9,
            played_value=9,
            outcome="equal",
            clause="A-5.1",
        )
    ]
    assert top(s, (1, 1))["orientation"] == 1 and value(s, (1, 1)) == 9
    assert "rotated" not in S.types(ev) and "destroyed" not in S.types(ev)


def test_A_5_2_left_card_destroyed_when_at_most_half() -> None:
    s, ev = left_and_play("green.tavern=4", "blue.barracks")
    c = compared(ev)[0]
    assert (c["left_value"], c["played_value"], c["outcome"], c["clause"]) == (
        4,
        8,
        "destroy",
        "A-5.2",
    )
    assert S.face_up(s, (1, 1)) is False
    assert S.event("destroyed", card="green.tavern", cell=[1, 1], clause="A-5.2") in ev


def test_A_5_2_destroy_ignores_orientation_limits_and_one_sided_cards() -> None:
    """A one-sided card (Watchtower is shielded; use a Bridge) is still destroyed."""
    s, ev = left_and_play("green.bridge", "blue.barracks")  # 1 vs 8
    assert S.face_up(s, (1, 1)) is False
    assert compared(ev)[0]["outcome"] == "destroy"


def test_A_5_3_left_card_turns_lower_when_more_than_half() -> None:
    s, ev = left_and_play("green.school=5", "blue.barracks")  # 5 < 8, 10 > 8
    c = compared(ev)[0]
    assert (c["outcome"], c["clause"]) == ("lower", "A-5.3")
    assert value(s, (1, 1)) == 3 and top(s, (1, 1))["orientation"] == 0
    assert S.of_type(ev, "rotated")[0] == S.event(
        "rotated", card="green.school", cell=[1, 1], steps=-1, value=3, clause="A-5.3"
    )


def test_A_5_3_A_5_5_no_turn_below_the_lowest_value_no_wrap() -> None:
    s, ev = left_and_play("green.barracks=6", "blue.palace")  # 6 < 10, 12 > 10
    assert value(s, (1, 1)) == 4  # one step down from 6
    s, ev = left_and_play("green.barracks=4", "blue.palace")  # 4 < 10, 8 <= 10: destroy
    assert S.face_up(s, (1, 1)) is False
    s, ev = left_and_play("green.temple=7", "blue.palace")  # 7 < 10, 14 > 10: lower, at lowest
    assert compared(ev)[0]["outcome"] == "lower"
    assert value(s, (1, 1)) == 7 and top(s, (1, 1))["orientation"] == 0
    assert "rotated" not in S.types(ev)


def test_A_5_4_left_card_turns_higher_when_greater() -> None:
    s, ev = left_and_play("green.palace=9", "blue.well")
    c = compared(ev)[0]
    assert (c["outcome"], c["clause"]) == ("raise", "A-5.4")
    assert value(s, (1, 1)) == 10
    assert S.of_type(ev, "rotated")[0]["steps"] == 1


def test_A_5_4_A_5_5_no_turn_above_the_highest_value_no_wrap() -> None:
    s, ev = left_and_play("green.palace=11", "blue.well")
    assert compared(ev)[0]["outcome"] == "raise"
    assert value(s, (1, 1)) == 11 and top(s, (1, 1))["orientation"] == 3
    assert "rotated" not in S.types(ev)


def test_A_2_5_comparison_does_not_rotate_one_sided_cards() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city={(1, 1): "green.park", (1, 2): "green.bridge"},
    )
    _, ev = play(s, "blue.well", (1, 3))  # Bridge 2 > Well 1: raise, but one-sided
    assert compared(ev)[0]["outcome"] == "raise" and "rotated" not in S.types(ev)
    s, ev = left_and_play("green.villa", "blue.market")  # 2 vs 2: equal
    assert compared(ev)[0]["outcome"] == "equal"
    s = build(
        2,
        hands={0: ["blue.school"], 1: ["green.well"]},
        city={(1, 1): "green.palace=11", (1, 2): "green.villa"},
    )
    s2, ev = play(s, "blue.school", (1, 3))  # villa 13 vs 5: raise, one-sided
    assert compared(ev)[0]["outcome"] == "raise" and "rotated" not in S.types(ev)
    assert value(s2, (1, 2)) == 13


def test_A_5_comparison_uses_the_played_x_value() -> None:
    """A Villa played right of a Market (2) is worth 4 = 2*2: the Market is destroyed, and
    the Villa then reads X = 0 next to the face-down card."""
    s, ev = left_and_play("green.market", "blue.villa")
    c = compared(ev)[0]
    assert (c["left_value"], c["played_value"], c["outcome"]) == (2, 4, "destroy")
    assert S.face_up(s, (1, 1)) is False
    assert value(s, (1, 2)) == 2


def test_A_5_skipped_at_block_1_next_to_empty_and_next_to_face_down() -> None:
    s = build(2, hands={0: ["blue.palace"], 1: ["green.well"]})
    _, ev = play(s, "blue.palace", (1, 1))
    assert compared(ev) == []
    s, ev = left_and_play("-green.park", "blue.palace")
    assert compared(ev) == []
    assert S.face_up(s, (1, 1)) is False
    s = build(
        2,
        hands={0: ["blue.palace"], 1: ["green.well"]},
        city={(1, 1): "green.market", (1, 2): "-green.park"},
    )
    _, ev = play(s, "blue.palace", (2, 1))  # street 2 block 1: no left cell
    assert compared(ev) == []


def test_A_5_compares_regardless_of_colour() -> None:
    s, _ev = left_and_play("blue.tavern=4", "blue.barracks")
    assert S.face_up(s, (1, 1)) is False


def test_A_3_3_comparison_happens_before_the_effect() -> None:
    """Barracks (8) compared first: its left School (5) turns to 3; then the effect may
    destroy an adjacent card lower than 8: the School is now a target at value 3."""
    s = build(2, hands={0: ["blue.barracks"], 1: ["green.well"]}, city={(1, 1): "green.school"})
    s2, ev = play(s, "blue.barracks", (1, 2))
    assert S.types(ev)[:3] == ["played", "compared", "rotated"]
    assert S.pending(s2)["kind"] == "effect" and S.pending(s2)["clause"] == "A-7.3"
    assert S.option_set(s2) == {S.opt(seat=0, type="destroy", target="green.school")}


# -- protection ------------------------------------------------------------------------


def test_A_5_6_opponent_protected_card_unchanged() -> None:
    s, ev = left_and_play("green.tavern=4*", "blue.barracks")
    assert compared(ev)[0]["outcome"] == "destroy"
    assert S.face_up(s, (1, 1)) is True and top(s, (1, 1))["token"] is True
    assert S.event("protected", card="green.tavern", cell=[1, 1], clause="A-5.6") in ev


def test_A_5_6_opponent_shield_card_not_rotated() -> None:
    """The Watchtower's shield protects it against a lowering comparison? It is one-sided,
    so test a shielded Magic Academy (12) next to a played Palace (10): raise refused."""
    s = build(
        2,
        hands={0: ["blue.palace"], 1: ["green.well"]},
        city={(1, 1): "green.magic_academy"},
    )
    s2, ev = play(s, "blue.palace", (1, 2))
    assert compared(ev)[0]["outcome"] == "raise"
    assert value(s2, (1, 1)) == 12
    assert "protected" in S.types(ev) and "rotated" not in S.types(ev)


def test_A_5_6_own_protected_card_owner_chooses_apply() -> None:
    s, _ev = left_and_play("blue.tavern=4*", "blue.barracks")
    p = S.pending(s)
    assert p["seat"] == 0 and p["kind"] == "protection_choice" and p["clause"] == "A-6.3"
    assert p["card"] == "blue.tavern"
    assert S.option_set(s) == {S.opt(seat=0, type="apply"), S.opt(seat=0, type="decline")}
    assert S.face_up(s, (1, 1)) is True
    s2, ev2 = decide(s, "apply")
    assert S.face_up(s2, (1, 1)) is False
    assert s2["seats"][0]["tokens"] == 2  # the token came back
    assert [e["type"] for e in ev2][:2] == ["token_returned", "destroyed"]


def test_A_5_6_own_protected_card_owner_chooses_decline() -> None:
    s, _ = left_and_play("blue.school=5*", "blue.barracks")
    s2, ev = decide(s, "decline")
    assert value(s2, (1, 1)) == 5 and top(s2, (1, 1))["token"] is True
    assert ev[0] == S.event("protection_kept", card="blue.school", cell=[1, 1], clause="A-6.3")


def test_A_5_6_no_choice_asked_when_the_outcome_changes_nothing() -> None:
    s, _ev = left_and_play("blue.palace=11*", "blue.well")  # raise at highest
    assert S.pending(s)["seat"] == 1
    assert value(s, (1, 1)) == 11


def test_A_3_6_no_comparison_when_moved_swapped_or_restored() -> None:
    s = build(
        2,
        hands={0: ["blue.tavern"], 1: ["green.well"]},
        city={(1, 1): "green.tavern=4", (2, 1): "blue.palace"},
    )
    s2, ev = play(s, "blue.tavern", (2, 2))
    s3, ev = decide(s2, "move", target="blue.palace", cell=(1, 2))
    assert compared(ev) == [] and value(s3, (1, 1)) == 4 and S.face_up(s3, (1, 1))
