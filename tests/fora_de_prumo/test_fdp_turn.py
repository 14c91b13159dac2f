"""F-3: a turn (buy, lay, refill), F-4 placements through decisions, and the refusal of
illegal or malformed decisions, each with its code, clause and pointer."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fdp_support import PASS, SKIP, State, arrange, fresh, lay, play, refused

import engine.fora_de_prumo as fdp
from engine.errors import IllegalDecision

CAT = fdp.builtin_catalogs()["reference"]


def start(**hands: list[str]) -> State:
    return arrange(fresh(2, seed=11), hands={int(k[1:]): v for k, v in hands.items()})


def test_F_1_1_turns_go_round_in_seat_order() -> None:
    s = fresh(3, first_seat=1)
    order = []
    for _ in range(4):
        order.append(s["turn"]["seat"])
        s = play(s, {"type": "buy", "card": s["market"][0]}, PASS)
    assert order == [1, 2, 0, 1]


def test_F_3_1_buy_step_options_are_market_cards_and_skip() -> None:
    s = fresh(2)
    types = [(o["type"], o.get("card")) for o in s["pending"]["options"]]
    assert types == [("buy", c) for c in s["market"]] + [("skip", None)]
    assert s["pending"]["clause"] == "F-3.1"


def test_F_3_1_F_3_6_bought_card_to_hand_refill_appended_after_the_lay() -> None:
    s = fresh(2)
    card, top = s["market"][2], s["deck"][0]
    s2, events = fdp.apply(s, {"type": "buy", "card": card})
    assert card in s2["seats"][0]["hand"] and card not in s2["market"]
    assert len(s2["market"]) == 4 and s2["deck"][0] == top  # no refill during the turn
    assert s2["turn"]["bought"] == card and s2["pending"]["kind"] == "lay"
    assert events[0]["type"] == "bought" and events[0]["clause"] == "F-3.1"
    s3, events = fdp.apply(s2, {"type": "pass"})
    assert s3["market"] == [c for c in s["market"] if c != card] + [top]
    assert [e["type"] for e in events] == ["passed", "refilled"]
    assert s3["passes"] == 0  # a purchase is no complete pass (F-R27)


def test_F_3_6_no_refill_without_a_purchase() -> None:
    s = fresh(2)
    s2 = play(s, SKIP, PASS)
    assert s2["market"] == s["market"] and s2["deck"] == s["deck"]


def test_F_R7_one_purchase_per_turn() -> None:
    s = play(fresh(2), {"type": "buy", "card": fresh(2)["market"][0]})
    e = refused(s, {"type": "buy", "card": s["market"][0]})
    assert (e.code, e.clause, e.pointer) == ("already_bought", "F-R7", "/decisions/0/type")


def test_F_3_1_card_not_in_market() -> None:
    s = fresh(2)
    e = refused(s, {"type": "buy", "card": s["deck"][0]})
    assert (e.code, e.clause, e.pointer) == ("card_not_in_market", "F-3.1", "/decisions/0/card")


def test_F_3_3_lay_only_from_the_hand() -> None:
    s = play(fresh(2), SKIP)
    e = refused(s, lay(s["market"][0]))
    assert (e.code, e.clause, e.pointer) == ("card_not_in_hand", "F-3.3", "/decisions/0/card")


def test_F_3_wrong_step() -> None:
    s = fresh(2)
    e = refused(s, PASS)
    assert (e.code, e.clause) == ("wrong_decision_type", "F-3.1")
    s = play(s, SKIP)
    e = refused(s, SKIP)
    assert (e.code, e.clause) == ("wrong_decision_type", "F-3.3")
    e = refused(s, {"type": "look"})
    assert e.code == "wrong_decision_type"
    e = refused(s, {"type": "buy", "card": s["market"][0]})
    assert (e.code, e.clause) == ("wrong_decision_type", "F-3.3")  # the buy was skipped


def test_F_3_5_site_cards_are_always_legal_and_take_no_position() -> None:
    s = play(start(s0=["MA01", "PE02", "CO01", "PR01", "SP01"]), SKIP)
    opts = s["pending"]["options"]
    for c in ("MA01", "PE02", "CO01", "PR01"):
        assert {"seat": 0, "type": "lay", "card": c} in opts
    e = refused(s, {"type": "lay", "card": "MA01", "x": 0, "y": 0, "r": 0})
    assert (e.code, e.clause, e.pointer) == ("not_a_space", "F-3.5", "/decisions/0/x")
    s2, ev = fdp.apply(s, lay("MA01"))
    assert s2["seats"][0]["work"]["site"] == ["MA01"]
    assert ev[0] == {"type": "laid", "seat": 0, "card": "MA01", "clause": "F-3.5", "decision": 0}


def test_F_R10_first_space_at_origin_any_rotation() -> None:
    s = play(start(s0=["SP01"]), SKIP)
    spaces = [o for o in s["pending"]["options"] if o["type"] == "lay"]
    assert spaces == [
        {"seat": 0, "type": "lay", "card": "SP01", "x": 0, "y": 0, "r": r} for r in range(4)
    ]
    e = refused(s, lay("SP01", 1, 0, 0))
    assert (e.code, e.clause) == ("first_space_at_origin", "F-R10")
    e = refused(s, lay("SP01"))
    assert (e.code, e.clause) == ("position_required", "F-4.3")


def test_F_4_3_near_misses_refused_with_the_rule_they_break() -> None:
    # SP11 at the origin; SP12 below it connects by SP11#3 G / SP12#1 B (F-9.1)
    s = start(s0=["SP11", "SP12"])
    s = play(s, SKIP, lay("SP11", 0, 0, 0), SKIP, PASS, SKIP)
    assert {"seat": 0, **lay("SP12", 0, 1, 0)} in s["pending"]["options"]
    cases = [
        (lay("SP12", 1, 0, 0), "cell_occupied", "F-4.3"),
        (lay("SP12", 5, 5, 0), "no_connection", "F-4.3"),
        (lay("SP12", 0, 1, 4), "invalid_rotation", "F-2.4"),
    ]
    for d, code, clause in cases:
        e = refused(s, d)
        assert (e.code, e.clause) == (code, clause), d


def test_F_3_3_pass_ends_the_turn() -> None:
    s = play(fresh(2), SKIP)
    s2, ev = fdp.apply(s, PASS)
    assert s2["turn"] == {"seat": 1, "number": 2, "step": "buy", "peeked": [], "bought": None}
    assert ev[0]["type"] == "passed" and s2["passes"] == 1


def test_F_3_decisions_belong_to_the_seat_whose_turn_it_is() -> None:
    s = fresh(2)
    e = refused(s, {"seat": 1, "type": "skip"})
    assert (e.code, e.pointer) == ("not_your_decision", "/decisions/0/seat")
    e = refused(s, {"seat": "0", "type": "skip"})
    assert e.code == "not_your_decision"


@pytest.mark.parametrize(
    ("decision", "code", "pointer"),
    [
        ([], "malformed_decision", "/decisions/0"),
        ({"type": "fly"}, "malformed_decision", "/decisions/0/type"),
        ({"type": ["lay"]}, "malformed_decision", "/decisions/0/type"),
        ({"type": "skip", "card": "SP01"}, "malformed_decision", "/decisions/0/card"),
        ({"type": "buy", "card": "XX99"}, "unknown_card", "/decisions/0/card"),
        ({"type": "buy", "card": {"a": 1}}, "unknown_card", "/decisions/0/card"),
        ({"type": "buy", "card": "SP06"}, "unknown_card", "/decisions/0/card"),  # 3+ players
        ({"type": "buy"}, "unknown_card", "/decisions/0/card"),
    ],
)
def test_F_3_malformed_decisions_refused(decision: Any, code: str, pointer: str) -> None:
    e = refused(fresh(2), decision)
    assert (e.code, e.pointer) == (code, pointer)
    assert e.detail


@pytest.mark.parametrize(
    ("extra", "pointer"),
    [
        ({"x": "0", "y": 0, "r": 0}, "/decisions/0/x"),
        ({"x": 0, "y": True, "r": 0}, "/decisions/0/y"),
        ({"x": 0, "y": 0, "r": 10**400}, "/decisions/0/r"),
        ({"x": 0, "y": 0}, "/decisions/0/r"),
        ({"x": 0.5, "y": 0, "r": 0}, "/decisions/0/x"),
        ({"from": "attic"}, "/decisions/0/from"),
    ],
)
def test_F_2_4_malformed_positions_refused(extra: dict[str, Any], pointer: str) -> None:
    s = play(start(s0=["SP01"]), SKIP)
    e = refused(s, {"type": "lay", "card": "SP01", **extra})
    assert (e.code, e.pointer) == ("malformed_decision", pointer)


def test_F_8_2_from_only_in_a_final_turn() -> None:
    s = play(fresh(2), SKIP)
    e = refused(s, {"type": "lay", "card": s["market"][0], "from": "market"})
    assert (e.code, e.clause) == ("wrong_decision_type", "F-8.2")


def test_F_3_apply_all_is_all_or_nothing_with_the_index() -> None:
    s = fresh(2)
    with pytest.raises(IllegalDecision) as e:
        fdp.apply_all(s, [SKIP, PASS, PASS])
    assert e.value.index == 2
    out = fdp.replay(s, [SKIP, PASS, PASS])
    assert out["ok"] is False and out["applied"] == 2
    assert out["error"]["code"] == "wrong_decision_type"


def test_F_3_every_option_is_accepted_unchanged() -> None:
    """Each listed option, applied as it stands, is that decision: its first event says it
    (same seat, card, position), the state after it is valid and at the next step (the lay
    step after the buy step; the next seat after the lay step, its final round after a
    second pass in a row), and the state applied to is left as it was."""
    s = play(start(s0=["SP11", "SP12", "MA01", "PE05"]), SKIP, lay("SP11", 0, 0, 0), SKIP, PASS)
    event_of = {"buy": "bought", "skip": "skipped", "lay": "laid", "pass": "passed"}
    next_step = {"buy": (0, "lay"), "skip": (0, "lay"), "lay": (1, "buy"), "pass": (1, "final")}
    for phase, types in (("buy", {"buy", "skip"}), ("lay", {"lay", "pass"})):
        assert (s["pending"]["kind"], s["pending"]["seat"]) == (phase, 0)
        assert {o["type"] for o in s["pending"]["options"]} == types
        before = copy.deepcopy(s)
        for o in s["pending"]["options"]:
            new, events = fdp.apply(s, o)
            said = {k: v for k, v in events[0].items() if k in o}
            assert said == {**o, "type": events[0]["type"]}, (o, events[0])
            assert events[0]["type"] == event_of[o["type"]]
            assert fdp.validate(new) == [], o
            assert (new["turn"]["seat"], new["turn"]["step"]) == next_step[o["type"]], o
        assert s == before
        s = play(s, SKIP) if phase == "buy" else s
