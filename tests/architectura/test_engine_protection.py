"""A-6 protection: tokens (only own colour, no double protection), the shield, A-6.2
opponents cannot affect, A-6.3 the owner chooses, A-6.4 where the token goes."""

from __future__ import annotations

import scenario as S
from scenario import blue_plays, build, decide, illegal, play, top, value


def test_A_6_1_school_protects_an_own_card_with_a_token() -> None:
    s2, _ = blue_plays("blue.school", (1, 2), city={(1, 1): "blue.palace"})
    assert S.pending(s2)["clause"] == "A-7.8"
    assert S.option_set(s2) == S.offered(0, "protect", "blue.palace", "blue.school", decline=True)
    s3, ev = decide(s2, "protect", target="blue.palace")
    assert top(s3, (1, 1))["token"] is True
    assert s3["seats"][0]["tokens"] == 1
    assert ev[0] == S.event("protected", card="blue.palace", cell=[1, 1], seat=0, clause="A-7.8")


def test_A_6_1_only_own_colour_can_be_protected() -> None:
    s2, _ = blue_plays("blue.school", (1, 2), city={(1, 1): "green.palace"})
    targets = {o.get("target") for o in S.options(s2)}
    assert targets == {"blue.school", None}
    e = illegal(s2, {"seat": 0, "type": "protect", "target": "green.palace"})
    assert (e.code, e.clause) == ("illegal_target", "A-7.8")


def test_A_6_1_no_double_protection_token_or_shield() -> None:
    s2, _ = blue_plays(
        "blue.school", (1, 3), city={(1, 1): "blue.palace*", (1, 2): "blue.watchtower"}
    )
    assert {o.get("target") for o in S.options(s2)} == {"blue.school", None}


def test_A_6_1_no_token_in_supply_no_protection() -> None:
    s = build(
        2,
        hands={0: ["blue.school"], 1: ["green.well"]},
        city={(1, 1): "blue.palace*", (1, 2): "blue.temple=10*"},
    )
    assert s["seats"][0]["tokens"] == 0
    s2, ev = play(s, "blue.school", (1, 3))
    assert S.pending(s2)["seat"] == 1  # the optional effect had no target
    assert "protected" not in S.types(ev)


def test_A_6_1_shield_protects_from_the_start_without_spending_a_token() -> None:
    s = build(2, hands={0: ["blue.watchtower"], 1: ["green.well"]})
    s2, _ = play(s, "blue.watchtower", (1, 1))
    assert top(s2, (1, 1))["token"] is False
    assert s2["seats"][0]["tokens"] == 2
    # green's Barracks cannot destroy it (6 < 8)
    s3 = build(
        2,
        hands={1: ["green.barracks"], 0: ["blue.well"]},
        city={(1, 1): "blue.watchtower", (2, 1): "blue.park"},
        turn=1,
    )
    s4, _ev = play(s3, "green.barracks", (2, 2))
    assert value(s4, (1, 1)) == 6 and S.face_up(s4, (1, 1))


def test_A_6_2_opponent_effect_cannot_target_protected_card() -> None:
    s2, _ = blue_plays("blue.park", (2, 1), city={(1, 1): "green.palace*", (1, 2): "green.temple"})
    # (1,1) protected: Park has no legal target there -> no decision at all
    assert S.pending(s2)["seat"] == 1
    s2, _ = blue_plays("blue.park", (2, 2), city={(1, 1): "green.palace*", (2, 1): "green.temple"})
    assert {o.get("target") for o in S.options(s2)} == {"green.temple", None}
    e = illegal(s2, {"seat": 0, "type": "rotate", "target": "green.palace", "steps": 1})
    assert (e.code, e.clause, e.pointer) == ("target_protected", "A-6.2", "/decisions/0/target")


def test_A_6_2_opponent_barracks_cannot_destroy_protected_card() -> None:
    s2, _ev = blue_plays(
        "blue.barracks", (2, 2), city={(1, 1): "green.school=5*", (2, 1): "green.tavern"}
    )
    # tavern (4) destroyed by comparison; school protected: nothing left
    assert S.face_up(s2, (2, 1)) is False
    assert S.face_up(s2, (1, 1)) is True and S.pending(s2)["seat"] == 1


def test_A_6_2_opponent_swap_cannot_take_a_protected_card() -> None:
    s2, _ = blue_plays(
        "blue.market", (2, 1), city={(1, 1): "green.palace*", (1, 2): "green.temple"}
    )
    assert S.pending(s2)["seat"] == 1


def test_A_6_3_own_effect_may_affect_own_protected_card() -> None:
    s2, _ = blue_plays("blue.park", (2, 1), city={(1, 1): "blue.palace*"})
    assert S.opt(seat=0, type="rotate", target="blue.palace", steps=1) in S.option_set(s2)
    s3, _ = decide(s2, "rotate", target="blue.palace", steps=1)
    assert value(s3, (1, 1)) == 11 and top(s3, (1, 1))["token"] is True


def test_A_6_3_mandatory_effect_on_own_protected_card_may_be_declined() -> None:
    """Ruling: Barracks must destroy, but if its only targets are the actor's own protected
    cards the owner may decline (A-6.3)."""
    s2, _ = blue_plays(
        "blue.barracks", (2, 2), city=S.streets("green.temple blue.school=5*", "green.barracks")
    )
    assert S.option_set(s2) == S.offered(0, "destroy", "blue.school", decline=True)
    s3, ev = decide(s2, "decline")
    assert S.face_up(s3, (1, 2)) is True
    assert ev[0]["type"] == "declined"


def test_A_6_3_mandatory_effect_with_an_unprotected_target_cannot_be_declined() -> None:
    s = build(
        3,
        hands={0: ["blue.barracks"], 1: ["green.well"]},
        city=S.streets("yellow.well blue.school=5*", "green.barracks", "yellow.market green.park"),
    )
    s2, _ = play(s, "blue.barracks", (2, 2))
    assert S.option_set(s2) == S.offered(0, "destroy", "blue.school", "green.park")
    e = illegal(s2, {"seat": 0, "type": "decline"})
    assert e.code == "wrong_decision_type"


# -- where the token goes -----------------------------------------------------------


def test_A_6_4_token_returns_when_the_card_is_destroyed() -> None:
    s2, _ = blue_plays(
        "blue.barracks", (2, 2), city=S.streets("green.temple blue.school=5*", "green.barracks")
    )
    assert s2["seats"][0]["tokens"] == 1
    s3, ev = decide(s2, "destroy", target="blue.school")
    assert s3["seats"][0]["tokens"] == 2
    assert top(s3, (1, 2)) == S.placed("blue.school", 1, None, face_up=False)
    assert ev[0] == S.event(
        "token_returned", seat=0, card="blue.school", reason="destroyed", clause="A-6.4"
    )


def test_A_6_4_token_returns_when_the_card_returns_to_hand() -> None:
    s = build(
        2,
        hands={0: ["blue.manufactory", "blue.palace"], 1: ["green.well"]},
        city={(1, 1): "blue.school*", (1, 2): "green.park"},
    )
    s2, _ = play(s, "blue.manufactory", (1, 3))
    s3, ev = decide(s2, "manufactory", target="blue.school")
    assert s3["seats"][0]["tokens"] == 2
    assert (
        S.event(
            "token_returned", seat=0, card="blue.school", reason="returned_to_hand", clause="A-6.4"
        )
        in ev
    )


def test_A_6_4_token_returns_when_the_card_is_removed() -> None:
    """Smithy protected by a token is removed from the game after copying: token back."""
    # playing it: 5 vs 6: school lowered
    s2, _ = blue_plays("blue.smithy", (1, 2), city={(1, 1): "green.school", (2, 1): "blue.palace"})
    s3, _ = decide(s2, "smithy", target="green.school")
    s4, _ = decide(s3, "protect", target="blue.smithy")
    # the copied School effect ended: Smithy removed from the game, its token back
    assert s4["seats"][0]["tokens"] == 2
    assert "blue.smithy" in s4["seats"][0]["removed"]
    assert S.stack(s4, (1, 2)) == []


def test_A_6_4_token_travels_with_a_moved_card() -> None:
    s2, _ = blue_plays("blue.tavern", (1, 2), city={(1, 1): "blue.palace=11*"})
    s3, _ = decide(s2, "move", target="blue.palace", cell=(2, 1))
    assert top(s3, (2, 1))["token"] is True and s3["seats"][0]["tokens"] == 1


def test_A_6_4_token_travels_with_a_swapped_card() -> None:
    # playing it: 11 > 2: raise, already at its highest
    s2, _ = blue_plays("blue.market", (1, 2), city={(1, 1): "blue.palace=11*"})
    s3, ev = decide(s2, "swap", target="blue.palace")
    assert top(s3, (1, 2)) == S.placed("blue.palace", 3, 11, token=True)
    assert top(s3, (1, 1))["card"] == "blue.market" and top(s3, (1, 1))["token"] is False
    assert ev[0]["type"] == "swapped" and ev[0]["clause"] == "A-7.6"
