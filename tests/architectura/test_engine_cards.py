"""Every card of the reference catalog (A-9, A-10): its effect, exact options and events."""

from __future__ import annotations

import scenario as S
from scenario import blue_plays, build, decide, illegal, play, top, value

import engine.architectura as arch


def score_of(state: S.State, seat: int) -> dict[str, object]:
    out: dict[str, object] = arch.score(state)["seats"][seat]
    return out


# -- basic cards ------------------------------------------------------------------------------


def test_card_well_restores_adjacent_face_down_card_with_basic_value() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.market"]},
        city=S.streets("green.school -green.palace@0", "-green.temple"),
    )
    s2, ev = play(s, "blue.well", (1, 3))
    assert S.pending(s2)["clause"] == "A-7.4"
    assert S.option_set(s2) == S.offered(0, "restore", "green.palace", decline=True)
    s3, ev = decide(s2, "restore", target="green.palace")
    assert top(s3, (1, 2)) == S.placed("green.palace", 2, 10)
    # no comparison, no effect (palace 10 > school 5 would have raised the school)
    assert S.types(ev)[0] == "restored" and "compared" not in S.types(ev)
    assert value(s3, (1, 1)) == 5


def test_card_well_cannot_restore_a_covered_card() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.market"]},
        city={(1, 1): "green.well", (1, 2): ["-green.palace", "green.school=3"]},
    )
    s2, _ = play(s, "blue.well", (2, 1))
    # adjacent to (2,1): (1,1) face up; nothing face down on top: no decision
    assert S.pending(s2)["seat"] == 1
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.market"]},
        city={(1, 1): "green.well", (1, 2): ["-green.palace", "green.school=3"]},
    )
    s2, _ = play(s, "blue.well", (1, 3))  # 3 > 1: the school is raised; nothing to restore
    assert S.pending(s2)["seat"] == 1


def test_card_market_swaps_with_an_adjacent_face_up_card() -> None:
    s2, _ = blue_plays(
        "blue.market", (1, 2), city={(1, 1): "green.palace=11", (2, 1): "-green.park"}
    )
    assert S.option_set(s2) == S.offered(0, "swap", "green.palace", decline=True)
    s3, ev = decide(s2, "swap", target="green.palace")
    assert top(s3, (1, 1))["card"] == "blue.market" and value(s3, (1, 1)) == 2
    assert top(s3, (1, 2))["card"] == "green.palace" and value(s3, (1, 2)) == 11
    assert ev[0] == S.event(
        "swapped", cards=["blue.market", "green.palace"], cells=[[1, 2], [1, 1]], clause="A-7.6"
    )
    assert "compared" not in S.types(ev)


def test_card_market_decline_changes_nothing() -> None:
    s2, _ = blue_plays("blue.market", (1, 2), city={(1, 1): "green.palace=11"})
    s3, ev = decide(s2, "decline")
    assert ev[0] == {"type": "declined", "seat": 0, "clause": "A-7", "decision": 0}
    assert top(s3, (1, 1))["card"] == "green.palace"


def test_card_park_rotates_one_adjacent_card_one_step() -> None:
    s2, _ = blue_plays(
        "blue.park", (2, 1), city=S.streets("green.palace green.temple green.market")
    )
    assert S.option_set(s2) == {
        S.opt(seat=0, type="rotate", target="green.palace", steps=1),
        S.opt(seat=0, type="rotate", target="green.palace", steps=-1),
        S.opt(seat=0, type="decline"),
    }
    e = illegal(s2, {"seat": 0, "type": "rotate", "target": "green.temple", "steps": 1})
    assert (e.code, e.clause) == ("illegal_target", "A-7.2")
    e = illegal(s2, {"seat": 0, "type": "rotate", "target": "green.palace", "steps": 2})
    assert e.code == "illegal_target"
    s3, _ = decide(s2, "rotate", target="green.palace", steps=-1)
    assert value(s3, (1, 1)) == 9
    assert S.pending(s3)["seat"] == 1  # count 1: done


def test_card_park_may_rotate_itself() -> None:
    """'An effect may target the card just played' — but Park says adjacent, so not itself."""
    s2, _ = blue_plays("blue.park", (2, 1), city={(1, 1): "green.palace"})
    assert "blue.park" not in {o.get("target") for o in S.options(s2)}


def test_card_tavern_moves_one_of_your_face_up_cards() -> None:
    # playing it: 5 > 4: school raised to 6
    s2, _ = blue_plays(
        "blue.tavern",
        (1, 3),
        city={(1, 1): "green.palace=11", (1, 2): ["-green.park", "blue.school"]},
    )
    moves = {(o["target"], tuple(o["cell"])) for o in S.options(s2) if o["type"] == "move"}
    assert {t for t, _ in moves} == {"blue.school", "blue.tavern"}
    assert ("blue.school", (1, 4)) in moves and ("blue.school", (2, 1)) in moves
    assert S.opt(seat=0, type="decline") in S.option_set(s2)
    s3, ev = decide(s2, "move", target="blue.school", cell=(2, 1))
    # covered cards stay; the face-down park is on top again, eligible
    assert S.stack(s3, (1, 2)) == [S.placed("green.park", 1, None, face_up=False)]
    assert top(s3, (2, 1))["card"] == "blue.school" and value(s3, (2, 1)) == 6
    assert ev[0] == {
        "type": "moved",
        "card": "blue.school",
        "from": [1, 2],
        "to": [2, 1],
        "clause": "A-7.5",
        "decision": 0,
    }
    assert "compared" not in S.types(ev)


def test_card_tavern_moving_onto_own_fountain_takes_the_token_back() -> None:
    s = S.with_fountain(
        0, (2, 1), hands={0: ["blue.tavern"], 1: ["green.well"]}, city={(1, 1): "blue.palace=11"}
    )
    s2, _ = play(s, "blue.tavern", (1, 2))
    s3, ev = decide(s2, "move", target="blue.palace", cell=(2, 1))
    assert s3["fountains"] == [] and s3["seats"][0]["tokens"] == 2
    assert "token_returned" in S.types(ev)


def test_card_school_protects_this_card() -> None:
    s2, _ = blue_plays("blue.school", (1, 1))
    s3, _ = decide(s2, "protect", target="blue.school")
    assert top(s3, (1, 1))["token"] is True


def test_card_watchtower_shielded_no_effect() -> None:
    s = build(2, hands={0: ["blue.watchtower"], 1: ["green.well"]})
    s2, ev = play(s, "blue.watchtower", (1, 1))
    assert S.pending(s2)["seat"] == 1 and value(s2, (1, 1)) == 6
    # an opponent's comparison cannot destroy it (6 vs 12)
    s = build(
        2,
        hands={1: ["green.magic_academy", "green.well", "green.park"], 0: ["blue.well"]},
        city={(1, 1): "blue.watchtower"},
        turn=1,
    )
    s2, _ = play(s, "green.magic_academy", (1, 2))
    s3, _ = decide(s2, "pay", card="green.well")
    s4, ev = decide(s3, "pay", card="green.park")
    assert S.face_up(s4, (1, 1)) is True
    assert [e["outcome"] for e in S.of_type(ev, "compared")] == ["destroy"]
    assert "protected" in S.types(ev)


def test_card_theatre_scores_one_per_adjacent_face_up_card() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city=S.streets("green.market blue.theatre -green.park", "green.temple green.palace"),
    )
    sc = score_of(s, 0)
    assert sc["city"] == 7
    assert sc["bonuses"] == [{"card": "blue.theatre", "cell": [1, 2], "points": 2}]
    assert sc["total"] == 9


def test_card_barracks_destroys_lower_adjacent() -> None:
    # playing it: tavern 4 vs 8: destroyed by comparison
    s2, _ = blue_plays(
        "blue.barracks",
        (2, 3),
        city=S.streets("green.temple green.school green.palace=8", "green.market green.tavern"),
    )
    assert S.face_up(s2, (2, 2)) is False
    # adjacent: (1,3) palace 8 (not lower), (2,2) face down, (2,4) empty: nothing to destroy
    assert S.pending(s2)["seat"] == 1
    # playing it: 9 > 8 raise (already highest)
    s2, _ = blue_plays(
        "blue.barracks", (2, 2), city=S.streets("green.temple green.school", "green.barracks=9")
    )
    # adjacent: (1,2) school 5 < 8 -> target (mandatory, no decline)
    assert S.option_set(s2) == S.offered(0, "destroy", "green.school")
    assert S.pending(s2)["prompt"].startswith("you must destroy")
    s3, ev = decide(s2, "destroy", target="green.school")
    assert S.face_up(s3, (1, 2)) is False
    assert ev[0] == S.event("destroyed", card="green.school", cell=[1, 2], clause="A-7.3")


def test_card_temple_removes_a_face_down_card_of_this_street() -> None:
    s2, _ = blue_plays(
        "blue.temple",
        (1, 4),
        city={
            (1, 1): "-green.park",
            (1, 2): ["-green.market", "-blue.park"],
            (1, 3): "green.school",
            (2, 1): "-blue.market",
        },
    )
    assert S.pending(s2)["clause"] == "A-7.7"
    assert S.option_set(s2) == S.offered(0, "remove", "green.park", "blue.park", decline=True)
    s3, ev = decide(s2, "remove", target="blue.park")
    assert S.stack(s3, (1, 2)) == [S.placed("green.market", 1, None, face_up=False)]
    assert s3["seats"][0]["removed"][-1] == "blue.park"
    assert ev[0] == S.event("removed", card="blue.park", cell=[1, 2], clause="A-7.7")


def test_card_palace_has_no_effect() -> None:
    s2, ev = blue_plays("blue.palace", (1, 1))
    assert S.types(ev) == ["played", "drew"]
    assert S.pending(s2)["seat"] == 1 and value(s2, (1, 1)) == 10


def test_card_villa_is_x_plus_2_and_bridge_is_the_block_number() -> None:
    s = build(
        2,
        hands={0: ["blue.villa"], 1: ["green.well"]},
        city={(1, 1): "green.palace", (1, 2): "green.bridge"},
    )
    assert value(s, (1, 2)) == 2
    s2, ev = play(s, "blue.villa", (1, 3))  # 4 vs bridge 2: destroyed
    assert S.of_type(ev, "played")[0]["value"] == 4
    assert value(s2, (1, 3)) == 2


# -- additional cards -------------------------------------------------------------------------


def test_card_museum_hand_limit_4_stays_after_destruction() -> None:
    s = build(
        2,
        hands={0: ["blue.museum", "blue.palace"], 1: ["green.barracks", "green.well"]},
    )
    s2, ev = play(s, "blue.museum", (1, 1))
    assert s2["seats"][0]["hand_limit"] == 4
    assert len(s2["seats"][0]["hand"]) == 4
    assert {"type": "hand_limit", "seat": 0, "limit": 4, "clause": "A-7.9", "decision": 0} in ev
    # green destroys the Museum by comparison (1 vs 8): the limit stays
    s3, _ = play(s2, "green.barracks", (1, 2))
    assert S.face_up(s3, (1, 1)) is False
    assert s3["seats"][0]["hand_limit"] == 4


def test_card_museum_does_not_lower_a_higher_limit() -> None:
    s2, ev = blue_plays("blue.museum", (1, 1), hand_limits={0: 5})
    assert s2["seats"][0]["hand_limit"] == 5
    assert "hand_limit" not in S.types(ev)


def test_card_fountain_places_a_token_on_an_eligible_empty_cell() -> None:
    s = build(
        2,
        hands={0: ["blue.fountain"], 1: ["green.well", "green.palace"]},
        city={(1, 1): "green.market", (1, 2): "-green.park"},
    )
    s2, _ = play(s, "blue.fountain", (1, 3))
    assert S.pending(s2)["clause"] == "A-9"
    # eligible empty cells for blue: (1,4) right of the Fountain card, (2,1); the face-down
    # (1,2) is eligible but not empty
    assert S.option_set(s2) == {
        S.opt(seat=0, type="fountain", cell=(1, 4)),
        S.opt(seat=0, type="fountain", cell=(2, 1)),
    }
    s3, ev = decide(s2, "fountain", cell=(1, 4))
    assert s3["fountains"] == [{"cell": [1, 4], "seat": 0}]
    assert s3["seats"][0]["tokens"] == 1
    assert ev[0] == S.event("fountain_placed", seat=0, cell=[1, 4], clause="A-9")
    # green cannot play there, but may play right of it (the token occupies the cell)
    cells = S.play_cells(s3, "green.palace")
    assert (1, 4) not in cells and (1, 5) in cells


def test_card_fountain_needs_a_token_in_supply() -> None:
    s2, ev = blue_plays(
        "blue.fountain", (1, 3), city={(1, 1): "blue.palace=11*", (1, 2): "blue.temple=10*"}
    )
    assert S.pending(s2)["seat"] == 1
    assert "fountain_placed" not in S.types(ev)


def test_card_guesthouse_owner_moves_it_instead_of_destruction() -> None:
    s = build(2, hands={0: ["blue.barracks"], 1: ["green.well"]}, city={(1, 1): "green.guesthouse"})
    s2, ev = play(s, "blue.barracks", (1, 2))
    p = S.pending(s2)
    assert (p["seat"], p["kind"], p["clause"], p["card"]) == (
        1,
        "guesthouse",
        "A-9",
        "green.guesthouse",
    )
    assert S.option_set(s2) == {
        S.opt(seat=1, type="guesthouse", cell=(1, 3)),
        S.opt(seat=1, type="guesthouse", cell=(2, 1)),
        S.opt(seat=1, type="decline"),
    }
    # it is green's decision, not blue's
    e = illegal(s2, {"seat": 0, "type": "decline"})
    assert (e.code, e.clause) == ("not_your_decision", "A-3")
    s3, ev = decide(s2, "guesthouse", cell=(2, 1))
    assert top(s3, (2, 1))["card"] == "green.guesthouse" and S.face_up(s3, (2, 1))
    assert S.stack(s3, (1, 1)) == []
    assert ev[0]["type"] == "moved" and ev[0]["to"] == [2, 1]


def test_card_guesthouse_owner_may_decline_and_it_is_destroyed() -> None:
    s2, _ = blue_plays("blue.barracks", (1, 2), city={(1, 1): "green.guesthouse"})
    s3, ev = decide(s2, "decline")
    assert S.face_up(s3, (1, 1)) is False
    assert ev[0]["type"] == "destroyed" and ev[0]["clause"] == "A-5.2"


def test_card_guesthouse_destroyed_when_no_eligible_cell() -> None:
    """A full city: the only non-face-up cell is the one Blue plays on; the Guesthouse has
    nowhere to go and is destroyed without asking."""
    blue = ["blue." + c for c in S.basic_ids() if c != "barracks"]
    green = ["green." + c for c in S.basic_ids() if c not in ("well", "villa", "market")]
    faces = [c for c in blue if not c.endswith(("villa", "bridge"))][:8] + [
        c for c in green if not c.endswith(("villa", "bridge"))
    ][:6]
    city: dict[S.Cell, str | list[str]] = {}
    for i, name in enumerate(faces):
        city[(1 + i // 8, 1 + i % 8)] = name
    city[(2, 7)] = "green.guesthouse"
    city[(2, 8)] = "-blue.villa"
    s2, ev = blue_plays(
        "blue.barracks", (2, 8), city=city, replacements={1: {"guesthouse": "market"}}
    )
    assert S.face_up(s2, (2, 7)) is False
    assert S.of_type(ev, "destroyed")[0]["card"] == "green.guesthouse"


def test_card_greenhouse_rotates_one_or_two_own_cards() -> None:
    # playing it: school 5 vs 3: raised to 6
    s2, _ = blue_plays(
        "blue.greenhouse", (2, 2), city=S.streets("blue.palace=11 green.temple", "blue.school")
    )
    targets = {o.get("target") for o in S.options(s2)}
    assert targets == {"blue.palace", "blue.school", "blue.greenhouse", None}
    s3, _ = decide(s2, "rotate", target="blue.palace", steps=1)  # wraps to 8
    assert value(s3, (1, 1)) == 8
    # a second card, optional; not the same card again
    targets = {o.get("target") for o in S.options(s3)}
    assert targets == {"blue.school", "blue.greenhouse", None}
    s4, _ = decide(s3, "rotate", target="blue.school", steps=-1)
    assert value(s4, (2, 1)) == 5
    assert S.pending(s4)["seat"] == 1


def test_card_greenhouse_may_rotate_only_one() -> None:
    s2, _ = blue_plays("blue.greenhouse", (1, 2), city={(1, 1): "blue.palace=11"})
    s3, _ = decide(s2, "rotate", target="blue.greenhouse", steps=1)
    s4, _ev = decide(s3, "decline")
    assert value(s4, (1, 2)) == 4 and S.pending(s4)["seat"] == 1


def test_card_graveyard_played_outside_then_collects_destroyed_cards() -> None:
    s = build(
        2,
        hands={0: ["blue.graveyard", "blue.well"], 1: ["green.barracks"]},
        city={(1, 1): ["-green.park", "blue.market"]},
    )
    assert (("blue.graveyard", None)) in S.plays(s)
    s2, ev = play(s, "blue.graveyard", None)
    assert s2["seats"][0]["outside"] == ["blue.graveyard"]
    assert ev[0] == S.event("played", seat=0, card="blue.graveyard", cell=None, clause="A-9")
    # green's Barracks destroys the blue Market by comparison: it goes beside the Graveyard
    s3, ev = play(s2, "green.barracks", (1, 2))
    assert s3["seats"][0]["graveyard"] == ["blue.market"]
    assert S.stack(s3, (1, 1)) == [S.placed("green.park", 1, None, face_up=False)]
    assert (
        S.event("destroyed", card="blue.market", cell=[1, 1], to="graveyard", clause="A-5.2") in ev
    )
    sc = score_of(s3, 0)
    # Graveyard's own value 3 scores, +2 per card beside it
    assert sc["outside"] == 3
    assert sc["bonuses"] == [{"card": "blue.graveyard", "cell": None, "points": 2}]


def test_card_graveyard_cell_becomes_empty_when_nothing_was_covered() -> None:
    s2, _ = blue_plays(
        "blue.barracks", (1, 2), city={(1, 1): "green.market"}, outside={1: ["green.graveyard"]}
    )
    assert S.stack(s2, (1, 1)) == [] and s2["seats"][1]["graveyard"] == ["green.market"]


def test_card_graveyard_is_not_compared_and_cannot_go_in_the_city() -> None:
    s = build(2, hands={0: ["blue.graveyard"], 1: ["green.well"]}, city={(1, 1): "green.palace"})
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.graveyard", "cell": [1, 2]})
    assert (e.code, e.clause) == ("played_outside_city", "A-9")
    s = build(2, hands={0: ["blue.palace"], 1: ["green.well"]})
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.palace", "cell": None})
    assert (e.code, e.clause) == ("cell_required", "A-3.2")


def test_card_statue_scores_4_next_to_any_park() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city={(1, 1): "green.park", (1, 2): "blue.statue"},
    )
    assert score_of(s, 0)["bonuses"] == [{"card": "blue.statue", "cell": [1, 2], "points": 4}]
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city=S.streets("-green.park blue.statue", "green.palace"),
    )
    assert score_of(s, 0)["bonuses"] == []


def test_card_manufactory_returns_a_card_and_replays_another_with_comparison_and_effect() -> None:
    s = build(
        2,
        hands={0: ["blue.manufactory", "blue.barracks"], 1: ["green.well"]},
        city=S.streets("green.school blue.market -green.park green.tavern", "green.temple"),
    )
    s2, _ = play(s, "blue.manufactory", (1, 3))  # 2 vs 4: the Market is destroyed
    assert S.face_up(s2, (1, 2)) is False
    assert S.option_set(s2) == S.offered(0, "manufactory", "blue.manufactory", decline=True)
    s3, ev = decide(s2, "manufactory", target="blue.manufactory")
    assert "blue.manufactory" in s3["seats"][0]["hand"]
    assert S.pending(s3)["kind"] == "manufactory_play"
    # the follow-up is mandatory and only a different card onto that cell
    assert S.option_set(s3) == {S.opt(seat=0, type="play", card="blue.barracks", cell=(1, 3))}
    e = illegal(s3, {"seat": 0, "type": "decline"})
    assert e.code == "wrong_decision_type"
    s4, ev = decide(s3, "play", card="blue.barracks", cell=(1, 3))
    assert top(s4, (1, 3))["card"] == "blue.barracks"
    # the Barracks is played over the face-down park again: compared with the face-down
    # market (skipped), then its effect: the adjacent tavern (4) is lower than 8
    assert [e["face_up"] for e in S.stack(s4, (1, 3))] == [False, True]
    assert S.pending(s4)["clause"] == "A-7.3"
    assert S.option_set(s4) == S.offered(0, "destroy", "green.tavern")
    assert S.types(ev) == ["played"]


def test_card_manufactory_only_offers_cards_with_a_follow_up_play() -> None:
    """Ruling: with no other card in hand, nothing can be returned: no decision."""
    s2, ev = blue_plays("blue.manufactory", (1, 2), city={(1, 1): "blue.palace=11"})
    assert S.pending(s2)["seat"] == 1
    assert "returned_to_hand" not in S.types(ev)


def test_card_library_rotates_up_to_one_card_of_each_player() -> None:
    """A-9 Library: up to 1 card of each player (own included), so up to 3 rotations in a
    3-player game, at most one per owner."""
    s = build(
        3,
        hands={0: ["blue.library"], 1: ["green.well"]},
        city=S.streets("green.palace green.temple", "yellow.park blue.palace"),
    )
    s2, _ = play(s, "blue.library", (2, 3))  # palace 10 > 5: raised to 11
    targets = {o.get("target") for o in S.options(s2)}
    assert targets == {
        "green.palace",
        "green.temple",
        "yellow.park",
        "blue.palace",
        "blue.library",
        None,
    }
    s3, _ = decide(s2, "rotate", target="green.palace", steps=1)
    targets = {o.get("target") for o in S.options(s3)}
    assert targets == {"yellow.park", "blue.palace", "blue.library", None}
    s4, _ = decide(s3, "rotate", target="blue.palace", steps=-1)
    assert {o.get("target") for o in S.options(s4)} == {"yellow.park", None}
    s5, _ = decide(s4, "decline")
    assert (value(s5, (1, 1)), value(s5, (2, 2)), value(s5, (2, 1))) == (11, 10, 3)
    assert S.pending(s5)["seat"] == 1


def test_card_smithy_copies_an_effect_then_is_removed() -> None:
    """Smithy copies a Barracks: 'adjacent' and 'lower than this card' read from Smithy."""
    # playing it: 8 vs 6: barracks raised to 9
    s2, _ = blue_plays(
        "blue.smithy", (1, 2), city={(1, 1): "green.barracks", (2, 1): "green.school"}
    )
    assert S.option_set(s2) == S.offered(
        0, "smithy", "green.barracks", "green.school", decline=True
    )
    s3, ev = decide(s2, "smithy", target="green.barracks")
    assert ev[0] == S.event("copied", seat=0, card="green.barracks", by="blue.smithy", clause="A-9")
    # Smithy (6) at (1,2): adjacent lower cards: none at (2,2); barracks 9 not lower.
    assert "blue.smithy" in s3["seats"][0]["removed"]
    assert S.stack(s3, (1, 2)) == []


def test_card_smithy_copied_effect_uses_smithy_as_source() -> None:
    s2, _ = blue_plays(
        "blue.smithy", (1, 2), city=S.streets("green.barracks=9", "green.school green.tavern")
    )
    s3, _ = decide(s2, "smithy", target="green.barracks")
    # adjacent to Smithy (1,2): (2,2) tavern 4 < 6
    assert S.option_set(s3) == S.offered(0, "destroy", "green.tavern")
    s4, ev = decide(s3, "destroy", target="green.tavern")
    assert S.face_up(s4, (2, 2)) is False
    assert S.types(ev)[:2] == ["destroyed", "removed"]
    assert "blue.smithy" in s4["seats"][0]["removed"]


def test_card_smithy_decline_keeps_smithy() -> None:
    s2, _ = blue_plays("blue.smithy", (2, 1), city={(1, 1): "green.park"})
    s3, _ = decide(s2, "decline")
    assert top(s3, (2, 1))["card"] == "blue.smithy"


def test_card_smithy_cannot_copy_another_smithy_or_a_card_without_on_play() -> None:
    """Ruling: Smithy cannot copy Smithy; Palace and Theatre have no on-play effect."""
    s2, ev = blue_plays(
        "blue.smithy", (1, 3), city=S.streets("green.smithy green.palace", "green.theatre")
    )
    assert S.pending(s2)["seat"] == 1 and "copied" not in S.types(ev)


def test_card_smithy_may_copy_a_protected_opponent_card() -> None:
    """Ruling: copying reads a protected card without affecting it."""
    s2, _ = blue_plays("blue.smithy", (2, 1), city={(1, 1): "green.park=5*"})
    assert S.opt(seat=0, type="smithy", target="green.park") in S.option_set(s2)
    s3, _ = decide(s2, "smithy", target="green.park")
    # Park copied from (2,1): the only adjacent card is the protected green park: no target
    assert top(s3, (1, 1))["orientation"] == 3
    assert "blue.smithy" in s3["seats"][0]["removed"]


def test_card_smithy_removed_even_if_it_left_the_city() -> None:
    """A-9 Smithy: 'if you do, remove Smithy from the game'. Copying Manufactory and
    returning Smithy itself to the hand must still remove Smithy from the game."""
    s = build(
        2,
        hands={0: ["blue.smithy", "blue.palace"], 1: ["green.well"]},
        city={(1, 1): "green.manufactory", (1, 2): "green.park"},
    )
    s2, _ = play(s, "blue.smithy", (1, 3))
    s3, _ = decide(s2, "smithy", target="green.manufactory")
    s4, _ = decide(s3, "manufactory", target="blue.smithy")
    s5, _ = decide(s4, "play", card="blue.palace", cell=(1, 3))
    assert "blue.smithy" not in s5["seats"][0]["hand"]
    assert "blue.smithy" in s5["seats"][0]["removed"]


def test_card_laboratory_opponents_play_face_down_in_turn_order() -> None:
    s = build(
        4,
        hands={
            0: ["blue.laboratory"],
            1: ["green.well", "green.market"],
            2: [],
            3: ["red.park", "red.palace"],
        },
        city=S.streets("green.palace blue.school yellow.tavern", "green.temple green.park"),
        turn=0,
    )
    s2, ev = play(s, "blue.laboratory", (1, 4))
    p = S.pending(s2)
    assert (p["seat"], p["kind"], p["clause"]) == (1, "laboratory", "A-9")
    # 3-in-a-row does not apply to the face-down plays (ruling): every eligible cell
    assert S.option_set(s2) == {
        S.opt(seat=1, type="play_face_down", card=c, cell=cell)
        for c in ("green.well", "green.market")
        for cell in ((1, 5), (2, 3), (3, 1))
    }
    e = illegal(s2, {"seat": 0, "type": "play_face_down", "card": "green.well", "cell": [1, 5]})
    assert e.code == "not_your_decision"
    s3, ev = decide(s2, "play_face_down", card="green.well", cell=(1, 5))
    # yellow has no card: skipped; red is next
    assert ev[:2] == [
        S.event("played_face_down", seat=1, card="green.well", cell=[1, 5], clause="A-9"),
        S.event("skipped", seat=2, reason="laboratory_no_card_or_cell", clause="A-9"),
    ]
    assert S.pending(s3)["seat"] == 3
    s4, ev = decide(s3, "play_face_down", card="red.palace", cell=(1, 5))
    # covers the face-down green well; no comparison, no effect
    assert [e["face_up"] for e in S.stack(s4, (1, 5))] == [False, False]
    assert "compared" not in S.types(ev)
    assert S.pending(s4)["seat"] == 1  # blue's turn ended; green plays
    assert s4["seats"][3]["hand"] == ["red.park"]


def test_card_laboratory_cards_stay_in_the_city_despite_a_graveyard() -> None:
    s2, _ = blue_plays(
        "blue.laboratory", (1, 2), city={(1, 1): "green.palace"}, outside={1: ["green.graveyard"]}
    )
    s3, _ = decide(s2, "play_face_down", card="green.well", cell=(2, 1))
    assert S.stack(s3, (2, 1))[0]["card"] == "green.well"
    assert S.face_up(s3, (2, 1)) is False and s3["seats"][1]["graveyard"] == []


def test_card_arsenal_destroys_every_lower_card_in_the_street() -> None:
    # playing it: park 3 vs 8: destroyed by comparison
    s2, ev = blue_plays(
        "blue.arsenal",
        (1, 5),
        city=S.streets(
            "green.palace=8 blue.school* green.market* green.park . blue.market", "green.temple"
        ),
    )
    p = S.pending(s2)
    # own protected school: the owner chooses
    assert (p["kind"], p["card"], p["seat"]) == ("protection_choice", "blue.school", 0)
    s3, ev = decide(s2, "apply")
    faces = [S.face_up(s3, (1, b)) for b in range(1, 7)]
    # palace 8 is not lower; green market protected; street 2 untouched
    assert faces == [True, False, True, False, True, False]
    assert S.face_up(s3, (2, 1)) is True
    assert [e["card"] for e in S.of_type(ev, "destroyed")] == ["blue.school", "blue.market"]


def test_card_arsenal_targets_fixed_by_values_when_the_effect_starts() -> None:
    """Ruling: a Villa right of a destroyed card drops to 2 during the effect, but it was
    not lower than the Arsenal (8) when the effect started, so it stays."""
    s = build(
        2,
        hands={0: ["blue.arsenal"], 1: ["green.well"]},
        city=S.streets("green.school=6 green.villa green.palace"),
    )
    assert value(s, (1, 2)) == 8
    s2, _ = play(s, "blue.arsenal", (1, 4))  # palace 10 > 8: raised to 11
    assert value(s2, (1, 2)) == 2  # school destroyed, villa now X=0+2
    assert S.face_up(s2, (1, 1)) is False
    assert S.face_up(s2, (1, 2)) is True


def test_card_obelisk_pregame_exchange_and_hand_limit_5() -> None:
    s = build(
        2,
        hands={0: ["blue.well", "blue.park", "blue.palace"], 1: ["green.well"]},
        decks={0: ["blue.obelisk"]},
        first_turn_taken={0: False},
        mulligan_used={0: False},
    )
    opts = S.option_set(s)
    assert S.opt(seat=0, type="obelisk", card="blue.well") in opts
    assert S.opt(seat=0, type="mulligan") in opts
    s2, ev = decide(s, "obelisk", card="blue.well")
    assert sorted(s2["seats"][0]["hand"]) == ["blue.obelisk", "blue.palace", "blue.park"]
    assert "blue.well" in s2["seats"][0]["deck"] and "blue.obelisk" not in s2["seats"][0]["deck"]
    assert len(s2["seats"][0]["deck"]) == 9
    assert ev[0] == S.event(
        "obelisk_taken", seat=0, card="blue.obelisk", gave="blue.well", clause="A-3.1a"
    )
    assert s2["rng"] != s["rng"]  # the deck was shuffled
    # no second exchange; the mulligan is still available
    opts = S.option_set(s2)
    assert not any('"obelisk"' in o for o in opts)
    assert S.opt(seat=0, type="mulligan") in opts
    s3, ev = play(s2, "blue.obelisk", (1, 1))
    assert s3["seats"][0]["hand_limit"] == 5 and len(s3["seats"][0]["hand"]) == 5


def test_card_obelisk_option_only_before_the_first_turn() -> None:
    s = build(
        2,
        hands={0: ["blue.well", "blue.park", "blue.palace"], 1: ["green.well"]},
        decks={0: ["blue.obelisk"]},
        mulligan_used={0: False},
    )
    assert not any('"obelisk"' in o for o in S.option_set(s))


def test_card_city_hall_costs_one_other_card_of_the_hand() -> None:
    s = build(2, hands={0: ["blue.city_hall", "blue.well", "blue.park"], 1: ["green.well"]})
    s2, ev = play(s, "blue.city_hall", (1, 1))
    p = S.pending(s2)
    assert (p["seat"], p["kind"], p["clause"]) == (0, "pay_cost", "A-9")
    assert S.option_set(s2) == {
        S.opt(seat=0, type="pay", card="blue.well"),
        S.opt(seat=0, type="pay", card="blue.park"),
    }
    assert S.stack(s2, (1, 1)) == []  # not in the city until paid
    s3, ev = decide(s2, "pay", card="blue.park")
    assert ev[0] == {
        "type": "removed",
        "seat": 0,
        "card": "blue.park",
        "reason": "play_cost",
        "for": "blue.city_hall",
        "clause": "A-9",
        "decision": 0,
    }
    assert value(s3, (1, 1)) == 11
    assert "blue.park" in s3["seats"][0]["removed"]


def test_card_magic_academy_costs_two_from_hand_or_graveyard() -> None:
    s = build(
        2,
        hands={0: ["blue.magic_academy", "blue.well"], 1: ["green.well"]},
        outside={0: ["blue.graveyard"]},
        graveyard={0: ["blue.market", "blue.tavern"]},
    )
    s2, _ = play(s, "blue.magic_academy", (1, 1))
    assert S.option_set(s2) == {
        S.opt(seat=0, type="pay", card="blue.well"),
        S.opt(seat=0, type="pay", card="blue.market"),
        S.opt(seat=0, type="pay", card="blue.tavern"),
    }
    s3, _ = decide(s2, "pay", card="blue.market")
    s4, _ = decide(s3, "pay", card="blue.well")
    assert value(s4, (1, 1)) == 12
    assert s4["seats"][0]["graveyard"] == ["blue.tavern"]
    assert sorted(s4["seats"][0]["removed"])[:2] == ["blue.market", "blue.well"]
    # shield: protected from the start
    assert arch.builtin_catalogs()["reference"].cards["magic_academy"].shield


def test_card_magic_academy_not_playable_without_enough_cards() -> None:
    s = build(2, hands={0: ["blue.magic_academy", "blue.well"], 1: ["green.well"]}, rest="removed")
    assert S.play_cells(s, "blue.magic_academy") == set()
    e = illegal(s, {"seat": 0, "type": "play", "card": "blue.magic_academy", "cell": [1, 1]})
    assert (e.code, e.clause) == ("cost_cannot_be_paid", "A-3.1c")


def test_card_guesthouse_also_escapes_an_effect() -> None:
    """Ruling A-R10: the owner is asked whenever a face-up Guesthouse would be destroyed,
    by an effect as well as by a comparison."""
    # playing it: 8 = 8: equal
    s2, _ = blue_plays(
        "blue.barracks", (2, 2), city=S.streets("green.palace green.guesthouse=4", "green.barracks")
    )
    assert S.option_set(s2) == S.offered(0, "destroy", "green.guesthouse")
    s3, _ = decide(s2, "destroy", target="green.guesthouse")
    p = S.pending(s3)
    assert (p["seat"], p["kind"]) == (1, "guesthouse")
    # lifted from (1,2), it cannot go to (1,3) (A-4.4: its left neighbour is gone)
    assert S.option_set(s3) == {
        S.opt(seat=1, type="guesthouse", cell=(2, 3)),
        S.opt(seat=1, type="decline"),
    }
    s4, _ = decide(s3, "guesthouse", cell=(2, 3))
    assert top(s4, (2, 3))["card"] == "green.guesthouse" and value(s4, (2, 3)) == 4
    assert S.stack(s4, (1, 2)) == []


def test_card_laboratory_play_onto_own_fountain_returns_the_token() -> None:
    """Ruling A-R7: an opponent's face-down play onto their own Fountain cell takes the token
    back."""
    s2, _ = blue_plays(
        "blue.laboratory", (1, 2), city={(1, 1): "green.palace"}, fountains={(2, 1): 1}
    )
    assert S.opt(seat=1, type="play_face_down", card="green.well", cell=(2, 1)) in S.option_set(s2)
    s3, _ev = decide(s2, "play_face_down", card="green.well", cell=(2, 1))
    assert s3["fountains"] == [] and s3["seats"][1]["tokens"] == 2
    assert S.face_up(s3, (2, 1)) is False


def test_card_obelisk_option_gone_after_a_mulligan_A_R14() -> None:
    """A-3.1a before A-3.1b (A-R14): a mulligan starts the turn, so the Obelisk exchange,
    offered before it, is no longer offered after it."""
    s = build(
        2,
        hands={0: ["blue.well", "blue.park", "blue.palace"], 1: ["green.well"]},
        decks={0: ["blue.obelisk", "blue.school", "blue.tavern"]},
        first_turn_taken={0: False},
        mulligan_used={0: False},
    )
    assert S.opt(seat=0, type="obelisk", card="blue.well") in S.option_set(s)
    s2, ev = decide(s, "mulligan")
    assert S.types(ev) == ["mulligan"]
    assert s2["seats"][0]["first_turn_taken"] is True
    assert not any('"obelisk"' in o for o in S.option_set(s2))
    assert not any('"mulligan"' in o for o in S.option_set(s2))


def test_card_smithy_copying_museum_raises_the_hand_limit_A_R16() -> None:
    """A-7.9 / A-R16: a copied hand-limit effect is Smithy's own: its owner draws up to 4,
    and the limit stays after Smithy leaves the game."""
    s = build(
        2,
        hands={0: ["blue.smithy", "blue.well"], 1: ["green.park"]},
        decks={0: ["blue.park", "blue.school", "blue.temple"]},
        city={(1, 1): "green.palace", (2, 1): "green.museum"},
    )
    s2, _ = play(s, "blue.smithy", (1, 2))  # Palace 10 > 6: raised; the Museum is untouched
    s3, ev = decide(s2, "smithy", target="green.museum")
    assert [e for e in ev if e["type"] == "hand_limit"] == [
        {"type": "hand_limit", "seat": 0, "limit": 4, "clause": "A-7.9", "decision": 0}
    ]
    assert s3["seats"][0]["hand_limit"] == 4
    assert s3["seats"][1]["hand_limit"] == 3  # the Museum's owner gains nothing
    assert "blue.smithy" in s3["seats"][0]["removed"]
    assert len(s3["seats"][0]["hand"]) == 4  # drew up to the new limit at the end of the turn


def test_card_museum_limit_stays_after_the_museum_is_destroyed_A_7_9() -> None:
    """A-7.9: the hand limit stays when the card that gave it is destroyed."""
    s = build(
        2,
        hands={0: ["blue.museum"], 1: ["green.barracks"]},
        decks={0: ["blue.park", "blue.school", "blue.temple", "blue.tavern"]},
        city={(1, 1): "green.palace"},
        turn=0,
    )
    s2, _ = play(s, "blue.museum", (1, 2))
    assert s2["seats"][0]["hand_limit"] == 4
    s3, _ = play(s2, "green.barracks", (1, 3))  # 1 vs 8: the Museum is destroyed
    assert S.face_up(s3, (1, 2)) is False
    assert s3["seats"][0]["hand_limit"] == 4
