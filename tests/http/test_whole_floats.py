"""Whole-number floats (2.0): the envelope takes them as JSON Schema's integers, as
docs/http.md says; a state or a decision, written by the service and sent back unchanged,
does not, in either game alike; and a refusal shows such a value as read, not as "a number
with a fraction" (it has none)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from http_support import make_app

from engine.describe import brief

GAMES = {
    "architectura": {"seats": 2, "seed": 3},
    "fora-de-prumo": {"game": "fora-de-prumo", "seats": 2, "seed": 3},
}


def _post(client: Any, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


@pytest.fixture(scope="module")
def client() -> Any:
    return make_app().test_client()


@pytest.mark.parametrize("game", GAMES)
def test_events_for_takes_a_whole_float_as_its_seat(client: Any, game: str) -> None:
    state = _post(client, "/v1/games", GAMES[game]).get_json()["state"]
    option = state["pending"]["options"][0]
    as_int = _post(client, "/v1/resolve", {"state": state, "decisions": [option], "events_for": 0})
    for sent in (0.0, [0.0, 1.0]):
        r = _post(
            client, "/v1/resolve", {"state": state, "decisions": [option], "events_for": sent}
        )
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["events"] == as_int.get_json()["events"]
    bad = _post(client, "/v1/resolve", {"state": state, "decisions": [option], "events_for": 0.5})
    assert bad.status_code == 400


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_s_seat_written_as_a_float_is_refused_alike_in_both_games(
    client: Any, game: str
) -> None:
    """Architectura took seat 0.0 (0.0 == 0), Fora de Prumo refused it, saying 'not seat a
    number with a fraction'."""
    state = _post(client, "/v1/games", GAMES[game]).get_json()["state"]
    option = {**state["pending"]["options"][0], "seat": 0.0}
    r = _post(client, "/v1/resolve", {"state": state, "decisions": [option]})
    problem = r.get_json()
    assert r.status_code == 422 and problem["code"] == "not_your_decision"
    assert problem["pointer"] == "/decisions/0/seat"
    assert "not seat 0.0" in problem["detail"] and "fraction" not in problem["detail"]


def test_a_state_field_written_as_a_whole_float_is_refused_without_a_false_word(
    client: Any,
) -> None:
    state = _post(client, "/v1/games", GAMES["architectura"]).get_json()["state"]
    option = state["pending"]["options"][0]
    state["seats"][0]["tokens"] = 2.0
    for path, body in (
        ("/v1/validate", {"state": state}),
        ("/v1/resolve", {"state": state, "decisions": [option]}),
    ):
        r = _post(client, path, body)
        got = r.get_json()
        problems = got["problems"] if path == "/v1/validate" else got.get("problems", [got])
        assert any(p["pointer"] == "/state/seats/0/tokens" for p in problems), got
        assert not any("fraction" in p["detail"] for p in problems)


def test_brief_names_a_float_with_a_fraction_and_shows_a_whole_one() -> None:
    assert brief(2.0) == "2.0" and brief(1.8446744073709552e19) == "1.8446744073709552e+19"
    assert "fraction" in str(brief(2.5))


def _first_shown_value(state: dict[str, Any]) -> tuple[list[Any], Any]:
    """The path of the first face-up card's shown `value` in an Architectura city, and it."""
    for st, street in enumerate(state["city"]):
        for b, stack in enumerate(street):
            for depth, card in enumerate(stack or []):
                if isinstance(card, dict) and "value" in card:
                    return [st, b, depth], card["value"]
    raise AssertionError("no card shown in the city")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seat", [0.0, -0.0, False])
def test_a_pending_seat_sent_as_a_float_or_a_boolean_is_refused(
    client: Any, game: str, seat: Any
) -> None:
    """`pending` was compared with Python's ==, which takes 0.0, -0.0 and false for 0: the
    state was valid, resolved, and a replay request's answer echoed `"seat":-0.0` (audit of
    2026-11-29). The state is strict there too: what the service wrote, not its look-alike."""
    state = _post(client, "/v1/games", GAMES[game]).get_json()["state"]
    option = state["pending"]["options"][0]
    assert state["pending"]["seat"] == 0
    state["pending"]["seat"] = seat
    r = _post(client, "/v1/validate", {"state": state})
    got = r.get_json()
    assert r.status_code == 200 and got["valid"] is False, got
    assert any(p["code"] == "inconsistent_pending" for p in got["problems"]), got
    r = _post(client, "/v1/resolve", {"state": state, "decisions": [option]})
    assert r.status_code == 422, r.get_json()
    r = _post(client, "/v1/record", {"state": state, "decisions": [option]})
    assert r.status_code == 422 and b"-0.0" not in r.data


def test_a_shown_value_and_final_scores_sent_as_floats_are_refused(client: Any) -> None:
    """Architectura: a card's shown value 2.0 (A-2.6) and a finished game's scores as floats
    (A-8) passed `==` against the integers the engine writes."""
    from http_support import finished_game

    state = _post(client, "/v1/games", GAMES["architectura"]).get_json()["state"]
    option = state["pending"]["options"][0]
    state = _post(client, "/v1/resolve", {"state": state, "decisions": [option]}).get_json()[
        "state"
    ]
    (st, b, depth), value = _first_shown_value(state)
    state["city"][st][b][depth]["value"] = float(value)
    got = _post(client, "/v1/validate", {"state": state}).get_json()
    assert got["valid"] is False and got["problems"][0]["code"] == "value_mismatch", got
    over, _ = finished_game()
    assert _post(client, "/v1/validate", {"state": over}).get_json()["valid"] is True
    over["scores"]["seats"][0]["total"] = float(over["scores"]["seats"][0]["total"])
    got = _post(client, "/v1/validate", {"state": over}).get_json()
    assert got["valid"] is False and got["problems"][0]["code"] == "inconsistent_scores", got


def test_a_record_header_is_compared_as_written(client: Any) -> None:
    """A record's header whose result says `game_over: 0` or `decisions: 1.0` replayed as if
    it said false and 1: compared with ==. Now 422 `record_mismatch` on the key."""
    state = _post(client, "/v1/games", GAMES["architectura"]).get_json()["state"]
    option = state["pending"]["options"][0]
    state = _post(client, "/v1/resolve", {"state": state, "decisions": [option]}).get_json()[
        "state"
    ]
    record = _post(client, "/v1/record", {"state": state}).get_json()
    assert _post(client, "/v1/replay", record).status_code == 200
    result = record["record"]["result"]
    for forged_result in ({**result, "decisions": 1.0}, {**result, "game_over": 0}):
        forged = {**record, "record": {**record["record"], "result": forged_result}}
        r = _post(client, "/v1/replay", forged)
        problem = r.get_json()
        assert r.status_code == 422 and problem["code"] == "record_mismatch", problem
        assert problem["pointer"] == "/record/result"
