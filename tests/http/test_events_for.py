"""Every seat's copy of the events in one /v1/resolve call (issue 29): `events_for` an array
of seats answers `events_by_seat`, each copy the one `events_for` that seat alone answers,
and `events` the referee's full log; the single-seat form is unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest
from http_support import check_response, make_app

CLIENT = make_app().test_client()


def _resolve(body: dict[str, Any]) -> dict[str, Any]:
    r = CLIENT.post("/v1/resolve", json=body)
    out: dict[str, Any] = check_response("POST", "/v1/resolve", r)
    assert r.status_code == 200, out
    return out


@pytest.mark.parametrize("notation", [False, True])
@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_every_seat_in_one_call_is_each_seat_alone(game: str, notation: bool) -> None:
    seats = 3
    state = CLIENT.post("/v1/games", json={"game": game, "seats": seats, "seed": 9}).get_json()
    state = state["state"]
    rnd = random.Random(9)
    hidden = 0
    for _ in range(12):
        decision = rnd.choice(state["pending"]["options"])
        base = {"state": state, "decisions": [decision], "notation": notation}
        full = _resolve(base)
        assert "events_by_seat" not in full
        many = _resolve({**base, "events_for": [2, 0, 1]})
        assert many["events"] == full["events"]
        assert [c["seat"] for c in many["events_by_seat"]] == [2, 0, 1]
        for copy in many["events_by_seat"]:
            alone = _resolve({**base, "events_for": copy["seat"]})
            assert "events_by_seat" not in alone
            assert copy["events"] == alone["events"]
            hidden += sum("hidden" in e for e in copy["events"])
        state = full["state"]
    if game == "architectura":  # a draw each turn: the copies withheld the cards drawn
        assert hidden


def test_a_seat_past_the_game_is_named_by_its_place() -> None:
    state = CLIENT.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    body = {"state": state, "decisions": [state["pending"]["options"][0]], "events_for": [0, 2]}
    r = CLIENT.post("/v1/resolve", json=body)
    problem = check_response("POST", "/v1/resolve", r)
    assert r.status_code == 422 and problem["code"] == "unknown_seat"
    assert problem["pointer"] == "/events_for/1"
    for bad in ([], [0, 0], [0, "1"], "0"):
        r = CLIENT.post("/v1/resolve", json={**body, "events_for": bad})
        problem = check_response("POST", "/v1/resolve", r)
        assert r.status_code == 400 and problem["pointer"] == "/events_for", problem
        assert "a seat (an integer from 0 to 3) or an array of different seats" in problem["detail"]
