"""A-2 card values: side values and rotation, X and No. formulas, one-sided cards."""

from __future__ import annotations

import copy
from typing import Any

import scenario as S
from scenario import build, decide, play, value

import engine.architectura as arch


def custom_catalog(villa: str = "X+2", bridge: str = "No.") -> dict[str, Any]:
    doc = copy.deepcopy(S.reference_raw())
    doc["id"] = "formulas"
    for c in doc["cards"]:
        if c["id"] == "villa":
            c["formula"] = villa
        if c["id"] == "bridge":
            c["formula"] = bridge
    return doc


def test_A_2_2_played_card_enters_with_basic_value() -> None:
    s = build(2, hands={0: ["blue.palace"]})
    s2, ev = play(s, "blue.palace", (1, 1))
    t = S.top(s2, (1, 1))
    assert t == S.placed("blue.palace", 2, 10)
    assert ev[0] == S.event(
        "played", seat=0, card="blue.palace", cell=[1, 1], value=10, clause="A-3.2"
    )


def test_A_2_6_face_down_card_has_no_value() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "-green.palace"})
    assert value(s, (1, 1)) is None
    assert S.face_up(s, (1, 1)) is False


def test_A_2_3_x_follows_the_left_card() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.palace=8", (1, 2): "green.villa"})
    assert value(s, (1, 2)) == 10
    s = build(
        2, hands={0: ["blue.palace"]}, city={(1, 1): "green.palace=11", (1, 2): "green.villa"}
    )
    assert value(s, (1, 2)) == 13


def test_A_2_3_x_recomputed_when_the_left_card_turns() -> None:
    """Blue's Park rotates the green Park; the green Villa to its right follows at once."""
    s = build(
        2,
        hands={0: ["blue.park"]},
        city={(1, 1): "green.park=3", (1, 2): "green.villa"},
    )
    assert value(s, (1, 2)) == 5
    s2, _ = play(s, "blue.park", (2, 1))
    s3, ev = decide(s2, "rotate", target="green.park", steps=1)
    assert value(s3, (1, 1)) == 4
    assert value(s3, (1, 2)) == 6
    assert S.of_type(ev, "rotated")[0]["value"] == 4


def test_A_2_3_x_chains_resolve_left_to_right() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"]},
        city=S.streets("green.palace=9 green.villa blue.villa"),
    )
    assert [value(s, (1, b)) for b in (1, 2, 3)] == [9, 11, 13]


def test_A_2_3_x_is_zero_next_to_an_empty_cell_or_block_1() -> None:
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.villa"})
    assert value(s, (1, 1)) == 2
    # a hole on the left (Temple removed the card there) also gives X = 0
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 2): "green.villa", (2, 1): "blue.well"})
    assert value(s, (1, 2)) == 2


def test_A_2_3_x_is_zero_next_to_a_face_down_card() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"]},
        city=S.streets("-green.palace green.villa blue.villa"),
    )
    assert [value(s, (1, b)) for b in (2, 3)] == [2, 4]


def test_A_2_3_x_follows_a_destruction_of_the_left_card() -> None:
    """Blue's Barracks (8) destroys the adjacent green Market (2); the Villa right of the
    Market drops from 4 to X=0 -> 2."""
    s = build(
        2,
        hands={0: ["blue.barracks"]},
        city=S.streets("green.palace=8 green.market green.villa"),
    )
    assert value(s, (1, 3)) == 4
    s = build(
        2,
        hands={0: ["blue.barracks"]},
        city=S.streets("green.palace=8 green.market green.villa", "green.well"),
    )
    s2, _ev = play(s, "blue.barracks", (2, 2))
    assert S.face_up(s2, (1, 2)) is True
    opts = S.options(s2)
    assert {"seat": 0, "type": "destroy", "target": "green.market"} in opts
    s3, _ = decide(s2, "destroy", target="green.market")
    assert S.face_up(s3, (1, 2)) is False
    assert value(s3, (1, 3)) == 2


def test_A_2_3_x_value_may_be_negative() -> None:
    doc = custom_catalog(villa="X-3")
    s = build(2, hands={0: ["blue.palace"]}, city={(1, 1): "green.villa"}, catalog=doc)
    assert value(s, (1, 1)) == -3
    s = build(
        2,
        hands={0: ["blue.palace"]},
        city={(1, 1): "green.market=1", (1, 2): "green.villa"},
        catalog=doc,
    )
    assert value(s, (1, 2)) == -2
    assert arch.score(s, doc)["seats"][1]["city"] == 1 - 2


def test_A_2_4_no_value_is_the_block_number() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"]},
        city=S.streets("green.bridge -green.well blue.bridge"),
    )
    assert value(s, (1, 1)) == 1
    assert value(s, (1, 3)) == 3


def test_A_2_4_no_value_with_offset() -> None:
    doc = custom_catalog(bridge="No.-2")
    s = build(
        2,
        hands={0: ["blue.palace"]},
        city=S.streets("green.bridge green.well blue.bridge"),
        catalog=doc,
    )
    assert value(s, (1, 1)) == -1
    assert value(s, (1, 3)) == 1


def test_A_2_4_moved_bridge_takes_its_new_block_number() -> None:
    s = build(
        2,
        hands={0: ["blue.tavern"]},
        city=S.streets("blue.bridge green.well green.market"),
    )
    s2, _ = play(s, "blue.tavern", (1, 4))
    s3, ev = decide(s2, "move", target="blue.bridge", cell=(1, 5))
    assert value(s3, (1, 5)) == 5
    assert S.of_type(ev, "moved")[0]["to"] == [1, 5]


def test_A_2_1_rotation_effect_wraps_from_highest_to_lowest() -> None:
    s = build(2, hands={0: ["blue.park"]}, city={(1, 1): "green.palace=11"})
    s2, _ = play(s, "blue.park", (2, 1))
    assert S.opt(seat=0, type="rotate", target="green.palace", steps=1) in S.option_set(s2)
    s3, ev = decide(s2, "rotate", target="green.palace", steps=1)
    assert value(s3, (1, 1)) == 8
    assert S.top(s3, (1, 1))["orientation"] == 0
    assert S.of_type(ev, "rotated")[0] == S.event(
        "rotated", card="green.palace", cell=[1, 1], steps=1, value=8, clause="A-7.2"
    )


def test_A_2_1_rotation_effect_wraps_from_lowest_to_highest() -> None:
    s = build(2, hands={0: ["blue.park"]}, city={(1, 1): "green.palace=8"})
    s2, _ = play(s, "blue.park", (2, 1))
    s3, _ = decide(s2, "rotate", target="green.palace", steps=-1)
    assert value(s3, (1, 1)) == 11
    assert S.top(s3, (1, 1))["orientation"] == 3


def test_A_2_1_rotation_both_directions_offered() -> None:
    s = build(2, hands={0: ["blue.park"]}, city={(1, 1): "green.palace"})
    s2, _ = play(s, "blue.park", (2, 1))
    assert S.option_set(s2) == {
        S.opt(seat=0, type="rotate", target="green.palace", steps=1),
        S.opt(seat=0, type="rotate", target="green.palace", steps=-1),
        S.opt(seat=0, type="decline"),
    }


def test_A_2_5_one_sided_cards_cannot_be_rotated_by_effects() -> None:
    """Park next to a Watchtower, a Villa and a Bridge only: nothing to rotate, so the
    optional effect is skipped without a decision."""
    s = build(
        2,
        hands={0: ["blue.park"]},
        city=S.streets("green.watchtower green.villa green.bridge", "green.park"),
    )
    s2, ev = play(s, "blue.park", (2, 2))
    # adjacent: (2,1) park (rotatable) is offered; the one-sided villa above is not
    targets = {o.get("target") for o in S.options(s2)}
    assert targets == {"green.park", None}
    s = build(
        2,
        hands={0: ["blue.park"], 1: ["green.well"]},
        city=S.streets("green.watchtower green.villa green.bridge"),
    )
    s2, ev = play(s, "blue.park", (2, 1))
    # only the one-sided watchtower is adjacent: no decision, the turn passed on
    assert S.pending(s2)["seat"] == 1
    assert "rotated" not in S.types(ev)


def test_A_2_2_moved_card_keeps_its_orientation() -> None:
    s = build(2, hands={0: ["blue.tavern"]}, city={(1, 1): "blue.palace=8", (1, 2): "green.well"})
    s2, _ = play(s, "blue.tavern", (1, 3))
    s3, _ = decide(s2, "move", target="blue.palace", cell=(2, 1))
    assert S.top(s3, (2, 1))["orientation"] == 0 and value(s3, (2, 1)) == 8
