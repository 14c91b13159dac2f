"""State validation: malformed and inconsistent states are refused with every problem
listed, each with a JSON pointer (and the player view, A-1.3 / A-7.3 / A-R13)."""

from __future__ import annotations

import copy
import json

import pytest
import scenario as S
from scenario import build

import engine.architectura as arch
from engine.errors import IllegalDecision, InvalidState


def base() -> S.State:
    return build(
        2,
        hands={0: ["blue.palace", "blue.park"], 1: ["green.well"]},
        city={
            (1, 1): "green.market",
            (1, 2): ["-green.temple", "blue.school*"],
            (1, 3): "green.villa",
        },
    )


def problems(state: S.State) -> set[tuple[str, str]]:
    return {(p.code, p.pointer) for p in arch.validate(state)}


def test_a_valid_state_has_no_problem_and_round_trips() -> None:
    s = base()
    assert arch.validate(s) == []
    assert arch.game_to_json(arch.load(s)) == s
    assert arch.game_to_json(arch.load(json.loads(json.dumps(s)))) == s


def test_duplicate_card() -> None:
    s = base()
    s["seats"][0]["hand"].append("blue.school")
    # the hand is read first, so the second sighting is the city entry's card field
    assert problems(s) == {("duplicate_card", "/city/0/1/1/card")}


def test_every_problem_pointer_resolves_in_the_document() -> None:
    """A JSON pointer must name a place in the state (RFC 6901): an unknown card in a city
    entry is at .../card, not at a list index inside the entry object."""
    s = base()
    s["city"][0][0][0]["card"] = "green.castle"
    for p in arch.validate(s):
        node: object = s
        for part in p.pointer.split("/")[1:]:
            if isinstance(node, list):
                node = node[int(part)]
            else:
                assert isinstance(node, dict) and part in node, (p.code, p.pointer)
                node = node[part]


def test_missing_card() -> None:
    s = base()
    s["seats"][1]["deck"].pop()
    assert ("missing_cards", "/seats") in problems(s)


def test_unknown_card() -> None:
    s = base()
    s["seats"][0]["hand"][0] = "blue.castle"
    got = problems(s)
    assert ("unknown_card", "/seats/0/hand/0") in got
    assert ("missing_cards", "/seats") in got  # the palace is now nowhere: both listed


def test_wrong_owner() -> None:
    s = base()
    s["seats"][0]["hand"].append(s["seats"][1]["deck"].pop())
    assert ("wrong_owner", "/seats/0/hand/2") in problems(s)


def test_orientation_out_of_range() -> None:
    s = base()
    s["city"][0][0][0]["orientation"] = 4
    s["city"][0][2][0]["orientation"] = 1  # the one-sided Villa has orientation 0 only
    got = problems(s)
    assert ("out_of_range", "/city/0/0/0/orientation") in got
    assert ("out_of_range", "/city/0/2/0/orientation") in got


def test_wrong_grid_size() -> None:
    s = base()
    s["city"].append([[] for _ in range(8)])
    assert ("wrong_city_size", "/city") in problems(s)
    s = base()
    s["city"][1].pop()
    assert ("wrong_city_size", "/city/1") in problems(s)


def test_token_count_wrong() -> None:
    s = base()
    s["seats"][0]["tokens"] = 2  # one lies on the school
    assert ("token_count", "/seats/0/tokens") in problems(s)


def test_token_on_face_down_or_covered_card_or_shield() -> None:
    s = base()
    s["city"][0][1][0]["token"] = True  # the covered face-down temple
    got = problems(s)
    assert ("token_on_hidden_card", "/city/0/1/0/token") in got
    s = build(
        2,
        hands={0: ["blue.palace"], 1: ["green.well"]},
        city={(1, 1): "blue.watchtower"},
        load=False,
    )
    s["city"][0][0][0]["token"] = True
    s["seats"][0]["tokens"] = 1
    assert ("token_on_shield", "/city/0/0/0/token") in problems(s)


def test_covered_face_up_card() -> None:
    s = base()
    s["city"][0][1][0]["face_up"] = True
    assert ("covered_face_up", "/city/0/1/0") in problems(s)


def test_value_mismatch() -> None:
    s = base()
    s["city"][0][2][0]["value"] = 3  # the villa reads 2 + 2 = 4
    assert problems(s) == {("value_mismatch", "/city/0/2/0/value")}


def test_bad_rng() -> None:
    s = base()
    s["rng"] = "xyz"
    assert ("invalid_rng", "/rng") in problems(s)


def test_unknown_catalog() -> None:
    s = base()
    s["catalog"]["hash"] = "sha256:" + "0" * 64
    got = arch.validate(s)
    assert [(p.code, p.pointer, p.clause) for p in got] == [("unknown_catalog", "/catalog", "A-10")]


def test_pending_inconsistent() -> None:
    s = base()
    s["pending"]["seat"] = 1
    assert ("inconsistent_pending", "/pending") in problems(s)
    s = base()
    s["resolving"] = [{"k": "turn", "seat": 1}]
    assert ("inconsistent_pending", "/resolving/0") in problems(s)
    s = base()
    s["resolving"] = []
    assert ("inconsistent_pending", "/resolving") in problems(s)
    s = base()
    s["resolving"].append({"k": "fly"})
    assert ("invalid_task", "/resolving/1/k") in problems(s)


def test_finished_game_with_pending_or_wrong_scores() -> None:
    s = base()
    s["game_over"] = True
    got = problems(s)
    assert ("inconsistent_pending", "/resolving") in got
    assert ("inconsistent_pending", "/pending") in got


def test_every_problem_is_listed_at_once() -> None:
    s = base()
    s["seats"][0]["hand"][0] = "blue.castle"
    s["city"][0][0][0]["orientation"] = 9
    s["seats"][1]["tokens"] = 5
    s["rng"] = "00"
    s["extra"] = 1
    with pytest.raises(InvalidState) as e:
        arch.load(s)
    got = {(p.code, p.pointer) for p in e.value.problems}
    assert {
        ("unknown_field", "/extra"),
        ("unknown_card", "/seats/0/hand/0"),
        ("out_of_range", "/city/0/0/0/orientation"),
        ("out_of_range", "/seats/1/tokens"),
        ("invalid_rng", "/rng"),
    } <= got
    assert e.value.code == "invalid_state"
    assert e.value.to_json()["problems"] == [p.to_json() for p in e.value.problems]


def test_wrong_seat_count_and_not_an_object() -> None:
    assert [p.code for p in arch.validate([])] == ["wrong_type"]
    s = base()
    s["seats"] = s["seats"][:1]
    assert ("invalid_seat_count", "/seats") in problems(s)


def test_hand_over_limit_and_bad_hand_limit() -> None:
    s = base()
    s["seats"][0]["hand"] += [s["seats"][0]["deck"].pop(), s["seats"][0]["deck"].pop()]
    assert ("hand_over_limit", "/seats/0/hand") in problems(s)
    s = base()
    s["seats"][0]["hand_limit"] = 7
    assert ("invalid_hand_limit", "/seats/0/hand_limit") in problems(s)


def test_replacements_checked_in_a_state() -> None:
    s = base()
    s["seats"][0]["replacements"] = {"museum": "park"}
    got = problems(s)
    assert ("illegal_replacement", "/seats/0/replacements/museum") in got


def test_fountain_on_an_occupied_cell() -> None:
    s = base()
    s["fountains"] = [{"cell": [1, 1], "seat": 1}]
    s["seats"][1]["tokens"] = 1
    assert ("fountain_on_occupied_cell", "/fountains/0/cell") in problems(s)


# -- player view --------------------------------------------------------------------------------


def test_player_view_hides_other_hands_every_deck_order_and_the_rng() -> None:
    s = base()
    v = arch.player_view(s, 0)
    me, other = v["seats"]
    assert me["hand"] == s["seats"][0]["hand"]
    assert me["deck"] is None and me["deck_count"] == len(s["seats"][0]["deck"])
    assert me["unseen"] == sorted(s["seats"][0]["deck"])
    assert other["hand"] is None and other["hand_count"] == 1
    assert other["deck"] is None and other["deck_count"] == len(s["seats"][1]["deck"])
    assert other["unseen"] == sorted(s["seats"][1]["deck"] + s["seats"][1]["hand"])
    assert v["rng"] is None and v["view_of"] == 0
    # the input is unchanged
    assert s == base()


def test_player_view_keeps_face_down_identities_visible() -> None:
    v = arch.player_view(base(), 1)
    assert v["city"][0][1][0] == {
        "card": "green.temple",
        "orientation": 2,
        "face_up": False,
        "token": False,
    }


def test_player_view_hides_options_of_another_seats_pending_decision() -> None:
    s = base()
    assert arch.player_view(s, 0)["pending"]["options"] == s["pending"]["options"]
    v = arch.player_view(s, 1)
    assert v["pending"]["options"] is None
    assert v["pending"]["seat"] == 0 and v["pending"]["kind"] == "play"


def test_player_view_does_not_leak_the_other_hand() -> None:
    s = base()
    v = arch.player_view(s, 1)
    blue = copy.deepcopy(v["seats"][0])
    blue.pop("unseen")
    assert "blue.palace" not in json.dumps(blue)
    assert "blue.palace" not in json.dumps(v["pending"])


def test_player_view_unknown_seat() -> None:
    with pytest.raises(IllegalDecision) as e:
        arch.player_view(base(), 2)
    assert e.value.code == "unknown_seat"


def test_A_1_3_events_for_seat_withhold_other_seats_drawn_cards() -> None:
    """A-1.3 / A-R13: the referee's log names drawn cards; a seat's copy keeps only its own."""
    state = arch.new_game({"seats": 2, "seed": 3})
    decision = arch.legal_decisions(state)["options"][0]
    _, events = arch.apply(state, decision)
    drew = [e for e in events if e["type"] == "drew"]
    assert drew and drew[0]["seat"] == 0 and drew[0]["cards"]
    mine = [e for e in arch.events_for_seat(events, 0) if e["type"] == "drew"]
    theirs = [e for e in arch.events_for_seat(events, 1) if e["type"] == "drew"]
    assert mine == drew
    assert "cards" not in theirs[0] and theirs[0]["hidden"] == "cards"
    assert theirs[0]["count"] == drew[0]["count"]
    assert [e["type"] for e in arch.events_for_seat(events, 1)] == [e["type"] for e in events]
