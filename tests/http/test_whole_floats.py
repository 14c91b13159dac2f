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
