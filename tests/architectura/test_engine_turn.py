"""A-3 the turn: start-of-turn options (A-3.1 a/b/c), play, skip and pass (A-3.2), draw
(A-3.5), hand limits (A-7.9) and the end of the game (A-3.7)."""

from __future__ import annotations

import scenario as S
from scenario import build, decide, play

import engine.architectura as arch


def full_city() -> dict[S.Cell, str | list[str]]:
    """15 face-up cards in a 2-player city; (2,8) left empty."""
    blue = [f"blue.{c}" for c in S.basic_ids() if c not in ("villa", "bridge", "palace")]
    green = [f"green.{c}" for c in S.basic_ids() if c not in ("villa", "bridge", "well")]
    names = blue[:8] + green[:7]
    city: dict[S.Cell, str | list[str]] = {}
    for i, nm in enumerate(names):
        city[(1 + i // 8, 1 + i % 8)] = nm
    return city


def test_A_3_1b_mulligan_puts_the_hand_under_the_deck_and_draws_as_many() -> None:
    s = build(
        2,
        hands={0: ["blue.well", "blue.park", "blue.palace"], 1: ["green.well"]},
        decks={0: ["blue.temple", "blue.school", "blue.market"]},
        mulligan_used={0: False},
    )
    assert S.opt(seat=0, type="mulligan") in S.option_set(s)
    s2, ev = decide(s, "mulligan")
    seat = s2["seats"][0]
    assert seat["hand"] == ["blue.temple", "blue.school", "blue.market"]
    assert sorted(seat["deck"][-3:]) == ["blue.palace", "blue.park", "blue.well"]
    assert seat["deck"][:-3] == s["seats"][0]["deck"][3:]
    assert seat["mulligan_used"] is True and seat["first_turn_taken"] is True
    assert s2["rng"] != s["rng"]
    assert ev == [{"type": "mulligan", "seat": 0, "count": 3, "clause": "A-3.1b", "decision": 0}]
    # still blue's turn; the play follows; no second mulligan
    assert S.pending(s2)["seat"] == 0
    assert S.opt(seat=0, type="mulligan") not in S.option_set(s2)
    assert {o["type"] for o in S.options(s2)} == {"play"}


def test_A_3_1b_mulligan_only_once_per_game() -> None:
    s = build(2, hands={0: ["blue.well"], 1: ["green.well"]}, mulligan_used={0: True})
    e = S.illegal(s, {"seat": 0, "type": "mulligan"})
    assert e.code == "wrong_decision_type"


def test_A_3_1b_mulligan_is_deterministic_for_a_given_rng() -> None:
    s = build(
        2,
        hands={0: ["blue.well", "blue.park", "blue.palace"], 1: ["green.well"]},
        mulligan_used={0: False},
    )
    a, _ = decide(s, "mulligan")
    b, _ = decide(s, "mulligan")
    assert a == b


def test_A_3_1c_unpayable_card_removed_at_the_start_of_its_owners_turn() -> None:
    s = build(
        2,
        hands={0: ["blue.palace", "blue.well"], 1: ["green.city_hall", "green.well"]},
        rest="removed",
    )
    s2, ev = play(s, "blue.palace", (1, 1))
    # green's turn starts: City Hall has 1 other card (the Well): payable, kept
    assert "green.city_hall" in s2["seats"][1]["hand"]
    s3, _ = play(s2, "green.well", (1, 2))
    s4, ev = play(s3, "blue.well", (1, 3))
    # green's turn: City Hall alone in hand, cannot be paid: removed from the game
    assert {
        "type": "removed",
        "seat": 1,
        "card": "green.city_hall",
        "from": "hand",
        "reason": "cost_cannot_be_paid",
        "clause": "A-3.1c",
        "decision": 0,
    } in ev
    assert s4["seats"][1]["hand"] == [] and "green.city_hall" in s4["seats"][1]["removed"]
    assert s4["game_over"] is True


def test_A_3_1c_magic_academy_removed_without_two_other_cards() -> None:
    s = build(
        2,
        hands={0: ["blue.palace", "blue.well"], 1: ["green.magic_academy", "green.well"]},
        rest="removed",
    )
    s2, ev = play(s, "blue.palace", (1, 1))
    assert [e["card"] for e in S.of_type(ev, "removed")] == ["green.magic_academy"]
    assert s2["seats"][1]["hand"] == ["green.well"]


def test_A_3_2_skip_when_no_card_in_hand_or_deck() -> None:
    s = build(2, hands={0: ["blue.palace"], 1: []}, rest="removed")
    s2, ev = play(s, "blue.palace", (1, 1))
    # green has nothing; blue has nothing either: the game is over
    assert s2["game_over"] is True
    s = build(2, hands={0: ["blue.palace", "blue.well"], 1: []}, rest="removed")
    s2, ev = play(s, "blue.palace", (1, 1))
    assert {"type": "skipped", "seat": 1, "clause": "A-3.2", "decision": 0} in ev
    assert S.pending(s2)["seat"] == 0  # players with cards keep taking turns
    assert s2["turn"]["number"] == s["turn"]["number"] + 2


def pass_position(mulligan_used: bool = True) -> S.State:
    """Street 1: a face-down card at block 1, then 7 blue cards; street 2: 7 green cards and
    Blue's Fountain token on (2,8). Blue plays over the face-down card (block 1: no
    comparison); Green then has no eligible cell while Blue still has one."""
    blue = [f"blue.{c}" for c in S.basic_ids() if c not in ("villa", "bridge", "palace", "well")]
    green = [f"green.{c}" for c in S.basic_ids() if c not in ("villa", "bridge", "well", "palace")]
    city: dict[S.Cell, str | list[str]] = {(1, 1): "-green.temple"}
    for i, nm in enumerate(blue[:7]):
        city[(1, 2 + i)] = nm
    for i, nm in enumerate([g for g in green if g != "green.temple"][:7]):
        city[(2, 1 + i)] = nm
    return build(
        2,
        hands={0: ["blue.palace", "blue.villa"], 1: ["green.well", "green.palace"]},
        city=city,
        fountains={(2, 8): 0},
        rest="removed",
        mulligan_used={1: mulligan_used},
    )


def test_A_3_2_pass_is_automatic_when_cards_but_no_legal_play() -> None:
    """Ruling A-R3: no legal play and no start-of-turn option: the pass is automatic."""
    s = pass_position()
    assert S.play_cells(s, "blue.palace") == {(1, 1), (2, 8)}
    s2, ev = play(s, "blue.palace", (1, 1))
    assert {"type": "passed", "seat": 1, "clause": "A-3.2", "decision": 0} in ev
    assert s2["seats"][1]["hand"] == ["green.well", "green.palace"]
    assert S.pending(s2)["seat"] == 0
    assert S.play_cells(s2, "blue.villa") == {(2, 8)}


def test_A_3_2_pass_offered_next_to_an_open_mulligan() -> None:
    """A seat without a legal play but with its mulligan still open is asked: mulligan or
    pass (ruling A-R3)."""
    s = pass_position(mulligan_used=False)
    s2, _ = play(s, "blue.palace", (1, 1))
    assert S.pending(s2)["seat"] == 1
    assert S.option_set(s2) == {S.opt(seat=1, type="mulligan"), S.opt(seat=1, type="pass")}
    s3, ev = decide(s2, "pass")
    assert ev[0] == {"type": "passed", "seat": 1, "clause": "A-3.2", "decision": 0}
    assert S.pending(s3)["seat"] == 0
    assert s3["seats"][1]["first_turn_taken"] is True


def test_A_3_5_draw_up_to_the_hand_limit_and_nothing_from_an_empty_deck() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"], 1: ["green.well"]},
        decks={0: ["blue.well", "blue.park"]},
        rest="removed",
    )
    s2, ev = play(s, "blue.palace", (1, 1))
    assert s2["seats"][0]["hand"] == ["blue.well", "blue.park"]
    assert s2["seats"][0]["deck"] == []
    assert S.of_type(ev, "drew") == [
        S.event("drew", seat=0, count=2, cards=["blue.well", "blue.park"], clause="A-3.5")
    ]
    s3, _ = play(s2, "green.well", (1, 2))
    s4, ev = play(s3, "blue.well", (1, 3))
    assert "drew" not in [e["type"] for e in ev if e.get("seat") == 0]
    assert s4["seats"][0]["hand"] == ["blue.park"]


def test_A_7_9_hand_limit_raised_draws_more() -> None:
    s = build(2, hands={0: ["blue.obelisk", "blue.well"], 1: ["green.well"]})
    s2, _ = play(s, "blue.obelisk", (1, 1))
    assert s2["seats"][0]["hand_limit"] == 5
    assert len(s2["seats"][0]["hand"]) == 5


def test_A_3_7_game_ends_when_nobody_can_play() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"], 1: ["green.well"]},
        city={(1, 1): "green.palace"},
        rest="removed",
    )
    s2, _ = play(s, "blue.palace", (1, 2))
    assert s2["game_over"] is False and S.pending(s2)["seat"] == 1
    s3, ev = play(s2, "green.well", (1, 3))
    assert s3["game_over"] is True
    assert s3["pending"] is None and s3["resolving"] == []
    sc = arch.score(s3)
    assert sc.pop("final") is True and sc == s3["scores"]
    go = S.of_type(ev, "game_over")[0]
    assert go["clause"] == "A-3.7" and go["scores"] == s3["scores"]
    assert arch.legal_decisions(s3) == {"pending": None, "options": [], "game_over": True}
    e = S.illegal(s3, {"seat": 0, "type": "pass"})
    assert (e.code, e.clause) == ("game_over", "A-3.7")


def test_A_3_7_players_with_cards_keep_playing_while_others_are_out() -> None:
    s = build(
        2,
        hands={0: ["blue.palace"], 1: ["green.well", "green.park", "green.market"]},
        rest="removed",
    )
    s2, _ = play(s, "blue.palace", (1, 1))
    s3, ev = play(s2, "green.well", (1, 2))
    assert {"type": "skipped", "seat": 0, "clause": "A-3.2", "decision": 0} in ev
    assert S.pending(s3)["seat"] == 1
