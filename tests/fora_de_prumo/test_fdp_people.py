"""F-6: the people who act during play: coordenadora (F-6.1, F-R19), designer de interiores
(F-6.3, F-R20), teórica (F-6.6, F-R22), equipe de obras for placement (F-6.5), and F-R8."""

from __future__ import annotations

from typing import Any

from fdp_support import PASS, SKIP, State, arrange, fresh, lay, play, refused

import engine.fora_de_prumo as fdp

LOOK = {"type": "look"}


def with_coordenadora(deck_top: list[str], extra: list[str] | None = None) -> State:
    """Seat 0 lays the coordenadora in turn 1; seat 1 passes; seat 0's buy step is next."""
    s = arrange(fresh(2, seed=21), hands={0: ["PE01", *(extra or [])]}, deck_top=deck_top)
    return play(s, SKIP, lay("PE01"), SKIP, PASS)


def test_F_R8_coordenadora_acts_from_the_next_turn() -> None:
    s = arrange(fresh(2, seed=21), hands={0: ["PE01"]})
    assert LOOK | {"seat": 0} not in s["pending"]["options"]
    s = play(s, SKIP, lay("PE01"), SKIP, PASS)
    assert {"seat": 0, "type": "look"} in s["pending"]["options"]


def test_F_6_1_look_then_buy_the_second_card_first_stays_on_top() -> None:
    s = with_coordenadora(["MA01", "MA02"])
    market = list(s["market"])
    s2, ev = fdp.apply(s, LOOK)
    assert ev[0] == {
        "type": "looked",
        "seat": 0,
        "count": 2,
        "cards": ["MA01", "MA02"],
        "clause": "F-6.1",
        "decision": 0,
    }
    opts = s2["pending"]["options"]
    assert {"seat": 0, "type": "buy", "card": "MA02"} in opts
    assert {"seat": 0, "type": "look"} not in opts  # one look per turn
    assert s2["turn"]["peeked"] == ["MA01", "MA02"] and s2["deck"][:2] == ["MA01", "MA02"]
    s3 = play(s2, {"type": "buy", "card": "MA02"})
    assert s3["deck"][0] == "MA01" and "MA02" in s3["seats"][0]["hand"]
    s4 = play(s3, PASS)
    assert s4["market"] == market  # F-3.6: no refill after a deck purchase
    assert s4["deck"][0] == "MA01" and s4["passes"] == 0


def test_F_R19_look_then_market_card_or_nothing() -> None:
    s = play(with_coordenadora(["MA01", "MA02"]), LOOK)
    m0 = s["market"][0]
    s2 = play(s, {"type": "buy", "card": m0}, PASS)
    assert s2["market"][-1] == "MA01"  # the market purchase is refilled from the deck top
    s3 = play(s, SKIP, PASS)
    # seat 1 passed, then this look without a purchase: 2 complete passes in a row (F-R27)
    assert s3["final_round"] == {"triggered_by": 0, "remaining": [1, 0]}


def test_F_R19_refusals() -> None:
    s = with_coordenadora(["MA01", "MA02", "MA03"])
    e = refused(s, {"type": "buy", "card": "MA01"})  # not seen yet
    assert (e.code, e.clause) == ("card_not_in_market", "F-3.1")
    s = play(s, LOOK)
    e = refused(s, LOOK)
    assert (e.code, e.clause) == ("already_looked", "F-R19")
    e = refused(s, {"type": "buy", "card": "MA03"})  # third card: never seen
    assert e.code == "card_not_in_market"
    s = play(s, SKIP, PASS)
    e = refused(s, LOOK)  # seat 1 has no coordenadora
    assert (e.code, e.clause, e.pointer) == ("no_coordenadora", "F-6.1", "/decisions/0/type")


def test_F_R19_with_one_card_left_only_it_is_seen_and_F_8_1_its_purchase_ends() -> None:
    s = arrange(fresh(2, seed=21), hands={0: ["PE01"]})
    keep = s["deck"][0]
    s = arrange(s, hands={0: ["PE01"], 1: s["seats"][1]["hand"] + s["deck"][1:]}, deck_top=[keep])
    assert s["deck"] == [keep]
    s = play(s, SKIP, lay("PE01"), SKIP, PASS)
    s2, ev = fdp.apply(s, LOOK)
    assert ev[0]["cards"] == [keep] and s2["turn"]["peeked"] == [keep]
    s3, ev = fdp.apply(s2, {"type": "buy", "card": keep})
    s4, ev = fdp.apply(s3, PASS)
    assert [e["type"] for e in ev] == ["passed", "end_triggered", "final_round"]
    assert ev[1]["reason"] == "deck_empty" and ev[1]["clause"] == "F-8.1"
    assert s4["final_round"] == {"triggered_by": 0, "remaining": [1, 0]}


def test_F_R6_looked_cards_hidden_from_the_others() -> None:
    s = with_coordenadora(["MA01", "MA02"])
    s2, ev = fdp.apply_all(s, [LOOK, {"type": "buy", "card": "MA01"}])
    other = fdp.events_for_seat(ev, 1)
    assert "cards" not in other[0] and other[0]["hidden"] == "cards"
    assert "card" not in other[1] and other[1]["hidden"] == "card"
    assert fdp.events_for_seat(ev, 0) == ev
    v1, v0 = fdp.player_view(s2, 1), fdp.player_view(s2, 0)
    assert v1["turn"]["peeked"] is None and v1["turn"]["bought"] is None
    assert v1["turn"]["peeked_count"] == 2 and v1["turn"]["bought_from"] == "deck"
    assert v0["turn"]["peeked"] == ["MA01", "MA02"] and v0["turn"]["bought"] == "MA01"
    assert "MA02" not in v0["unseen"] and "MA02" in v1["unseen"] and "MA01" in v1["unseen"]


def designer_position() -> State:
    s = arrange(fresh(2, seed=22), hands={0: ["SP05", "SP10", "PE03", "SP04"]})
    return play(
        s,
        SKIP,
        lay("SP05", 0, 0, 0),
        SKIP,
        PASS,
        SKIP,
        lay("SP10", 0, -1, 0),
        SKIP,
        PASS,
        SKIP,
        lay("PE03"),
        SKIP,
        PASS,
        SKIP,
    )


def conv(designer: str, target: str) -> dict[str, Any]:
    return {"type": "convert", "designer": designer, "target": target}


def test_F_6_3_conversion_opens_every_wall() -> None:
    s = designer_position()
    opts = s["pending"]["options"]
    assert {"seat": 0, **conv("PE03", "SP05")} in opts
    assert {"seat": 0, **conv("PE03", "SP10")} in opts
    before = fdp.score(s)["seats"][0]["measures"]
    s2, ev = fdp.apply(s, conv("PE03", "SP05"))
    assert ev[0]["type"] == "converted" and ev[0]["clause"] == "F-6.3"
    w = s2["seats"][0]["work"]
    assert w["converted"] == ["SP05"] and w["spent"] == ["PE03"]
    after = fdp.score(s2)["seats"][0]["measures"]
    # SP10#4 P now meets SP05#0, a wall turned door: one more connection, and the
    # corredor is now a joker, so the bar's conforto door is qualified (F-5.2)
    assert after["connections"] == before["connections"] + 1
    assert after["qualified"] == before["qualified"] + 1
    assert after["spaces_of_suit"]["atividades"] == before["spaces_of_suit"]["atividades"] + 1


def test_F_R20_conversion_refusals() -> None:
    s = designer_position()
    s = play(s, conv("PE03", "SP05"), SKIP, PASS, SKIP)
    cases = [
        (conv("PE03", "SP05"), "already_converted", "F-R20", "/target"),
        (conv("PE03", "SP10"), "designer_spent", "F-R20", "/designer"),
        (conv("PE03", "SP04"), "convert_target", "F-R20", "/target"),
        (conv("SP10", "SP10"), "no_designer", "F-6.3", "/designer"),
    ]
    for d, code, clause, ptr in cases:
        e = refused(s, d)
        assert (e.code, e.clause, e.pointer) == (code, clause, "/decisions/0" + ptr), d
    assert not any(o["type"] == "convert" for o in s["pending"]["options"])


def clone(card: str, target: str) -> dict[str, Any]:
    return {"type": "clone", "card": card, "target": target}


def teorica_position() -> State:
    s = arrange(fresh(2, seed=23), hands={0: ["MA06", "PE06", "PR02", "CO06", "SP01"]})
    return play(s, SKIP, lay("MA06"), SKIP, PASS, SKIP, lay("PE06"), SKIP, PASS, SKIP)


def test_F_6_6_clone_a_hand_card_face_down() -> None:
    s = teorica_position()
    opts = s["pending"]["options"]
    for c in ("PR02", "CO06", "SP01"):  # any hand card, a space too
        assert {"seat": 0, **clone(c, "MA06")} in opts
    assert not any(o["type"] == "clone" and o["target"] == "PE06" for o in opts)
    s2, ev = fdp.apply(s, clone("PR02", "MA06"))
    assert s2["seats"][0]["work"]["clones"] == [{"target": "MA06", "card": "PR02"}]
    assert "PR02" not in s2["seats"][0]["work"]["site"]
    other = fdp.events_for_seat(ev, 1)
    assert "card" not in other[0] and other[0]["target"] == "MA06"
    v = fdp.player_view(s2, 1)
    assert v["seats"][0]["work"]["clones"] == [{"target": "MA06", "card": None}]
    assert "PR02" in v["unseen"]
    assert fdp.player_view(s2, 0)["seats"][0]["work"]["clones"][0]["card"] == "PR02"


def test_F_R22_clone_again_later_on_another_card_never_twice_on_one() -> None:
    s = play(teorica_position(), clone("PR02", "MA06"), SKIP, PASS, SKIP)
    e = refused(s, clone("CO06", "MA06"))
    assert (e.code, e.clause, e.pointer) == ("already_cloned", "F-6.6", "/decisions/0/target")
    e = refused(s, clone("CO06", "PR02"))  # a clone card is never a target
    assert (e.code, e.clause) == ("clone_target", "F-6.6")
    e = refused(s, clone("CO06", "PE06"))  # a person is not a target
    assert e.code == "clone_target"
    s = play(s, lay("CO06"), SKIP, PASS, SKIP)
    s = play(s, clone("SP01", "CO06"))
    assert len(s["seats"][0]["work"]["clones"]) == 2


def test_F_6_6_no_teorica_no_clone() -> None:
    s = arrange(fresh(2, seed=24), hands={0: ["MA06", "PR02"]})
    s = play(s, SKIP, lay("MA06"), SKIP, PASS, SKIP)
    e = refused(s, clone("PR02", "MA06"))
    assert (e.code, e.clause) == ("no_teorica", "F-6.6")
    e = refused(s, clone("MA01", "MA06"))
    assert e.code == "card_not_in_hand"


def test_F_6_5_equipe_lets_a_door_meet_a_wall_for_placement() -> None:
    s = arrange(fresh(2, seed=25), hands={0: ["SP02", "SP17", "PE05"]})
    s = play(s, SKIP, lay("SP02", 0, 0, 0), SKIP, PASS, SKIP)
    without = {(o["x"], o["y"], o["r"]) for o in s["pending"]["options"] if o.get("card") == "SP17"}
    before = s
    s = play(s, lay("PE05"), SKIP, PASS, SKIP)
    with_equipe = {
        (o["x"], o["y"], o["r"]) for o in s["pending"]["options"] if o.get("card") == "SP17"
    }
    assert without < with_equipe  # every door-door placement stays; door-wall ones are added
    x, y, r = sorted(with_equipe - without)[0]
    e = refused(before, lay("SP17", x, y, r))
    assert (e.code, e.clause) == ("no_connection", "F-4.3")
    s = play(s, lay("SP17", x, y, r))
    assert s["seats"][0]["work"]["building"][-1] == {"card": "SP17", "x": x, "y": y, "r": r}
