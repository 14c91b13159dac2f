"""Every number the service writes survives a client that reads JSON numbers as doubles
(JavaScript's JSON.parse, jq): a game started without a seed is played to its end and written
down (/v1/record) by such a client, in both games, sealed or not. Before the service picked
its random seeds below 2^53, 99.95 % of such games ended in 422 `history_mismatch` at the
record (issue 29)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from http_support import make_app

from engine.setup_fields import JSON_SAFE_INT, random_seed


def _js_number(v: float) -> int | float:
    """A double as JavaScript's JSON.stringify writes it: an integral value in its shortest
    round-trip digits, padded with zeros (1.2345678901234567e19 -> 12345678901234567000)."""
    return int(Decimal(repr(v))) if v.is_integer() else v


def _as_js(doc: Any) -> Any:
    if isinstance(doc, float):
        return _js_number(doc)
    if isinstance(doc, list):
        return [_as_js(x) for x in doc]
    if isinstance(doc, dict):
        return {k: _as_js(x) for k, x in doc.items()}
    return doc


def js_round_trip(text: bytes) -> Any:
    """What a JavaScript client holds after JSON.parse and sends back after JSON.stringify:
    every number a double."""
    return _as_js(json.loads(text, parse_int=float))


class DoublesClient:
    """A client that reads every answer's numbers as doubles and sends what it read."""

    def __init__(self, **config: Any) -> None:
        self.http = make_app(**config).test_client()

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        r = self.http.post(path, data=json.dumps(body), content_type="application/json")
        return r.status_code, js_round_trip(r.data)


def play_and_record(client: DoublesClient, setup: dict[str, Any]) -> tuple[int, Any, Any]:
    """A game from `setup` played to its end (the first option each time), then recorded:
    (the record's status, the record, the final state)."""
    status, doc = client.post("/v1/games", setup)
    assert status == 200, doc
    state = doc["state"]
    for _ in range(2000):
        if state["game_over"]:
            break
        status, doc = client.post(
            "/v1/resolve", {"state": state, "decisions": [state["pending"]["options"][0]]}
        )
        assert status == 200, doc
        state = doc["state"]
    assert state["game_over"]
    status, record = client.post("/v1/record", {"state": state})
    return status, record, state


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
@pytest.mark.parametrize("sealed", [False, True], ids=["unsealed", "sealed"])
def test_a_doubles_client_records_a_game_started_without_a_seed(game: str, sealed: bool) -> None:
    config = {"STATE_SECRET": "test-secret-0123456789abcdefghijk"} if sealed else {}
    client = DoublesClient(**config)
    status, record, state = play_and_record(client, {"game": game, "seats": 2})
    assert status == 200, record
    seed = record["setup"]["seed"]
    assert 0 <= seed <= JSON_SAFE_INT
    # the record replays to the state the client holds
    status, replay = client.post("/v1/replay", record)
    assert status == 200 and replay["ok"] is True, replay
    assert replay["state"]["scores"] == state["scores"]


def test_random_seeds_stay_within_what_doubles_keep() -> None:
    seeds = [random_seed() for _ in range(2000)]
    assert all(0 <= s <= JSON_SAFE_INT for s in seeds)
    assert all(float(s) == s for s in seeds)
    # and they use the range: more than half are above 2^52
    assert sum(s > 2**52 for s in seeds) > 900


def test_a_rounded_seed_is_named_in_the_mismatch() -> None:
    """A game set up with a seed above 2^53 by a client that keeps integers, then relayed by
    one that reads doubles: the record's refusal says the seed may have been rounded, rather
    than blaming an edit."""
    exact = DoublesClient()
    big = 12345678901234567891
    # a state set up before new games' seeds were held to 2^53-1: its record still replays
    setup = {"seats": 2, "seed": big}
    state = exact.http.post("/v1/replay", json={"setup": setup, "decisions": []}).get_json()[
        "state"
    ]
    for _ in range(6):
        option = state["pending"]["options"][0]
        r = exact.http.post("/v1/resolve", json={"state": state, "decisions": [option]})
        state = r.get_json()["state"]
    rounded = js_round_trip(json.dumps({"state": state}).encode())
    assert rounded["state"]["history"]["setup"]["seed"] != big
    status, problem = exact.post("/v1/record", rounded)
    assert status == 422
    assert problem["code"] == "history_mismatch"
    assert "2^53" in problem["detail"] and "doubles" in problem["detail"]
    assert problem["pointer"] == "/state/history/setup/seed"


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_a_new_games_seed_is_one_every_client_reads_exactly(game: str) -> None:
    """POST /v1/games kept a seed up to 2^64-1 in the state's history, a number a doubles
    client rounds, so that the game's record no longer replayed (audit of 2026-11-29). A new
    game's seed is now at most 2^53-1; a record of a game set up with a larger one, as older
    states were, still replays."""
    client = DoublesClient()
    r = client.http.post("/v1/games", json={"game": game, "seats": 2, "seed": JSON_SAFE_INT})
    assert r.status_code == 200
    assert js_round_trip(r.data)["state"]["history"]["setup"]["seed"] == JSON_SAFE_INT
    for seed in (JSON_SAFE_INT + 1, 2**64 - 1, 1e19):
        r = client.http.post("/v1/games", json={"game": game, "seats": 2, "seed": seed})
        problem = r.get_json()
        assert r.status_code == 422 and problem["code"] == "invalid_seed", problem
        assert problem["pointer"] == "/seed" and "2^53-1" in problem["detail"]
    # the engine's own range is unchanged: 2^64 is refused as before, naming its clause
    r = client.http.post("/v1/games", json={"game": game, "seats": 2, "seed": 2**64})
    assert r.status_code == 422 and r.get_json()["problems"][0]["code"] == "invalid_seed"
    old = {"game": game, "seats": 2, "seed": 2**60}
    status, replay = client.post("/v1/replay", {"setup": old, "decisions": []})
    assert status == 200 and replay["ok"] is True, replay


@pytest.mark.parametrize(
    ("path", "extra"),
    [("/v1/suggest", {"budget": {"iterations": 3}}), ("/v1/review", {"budget": {"iterations": 3}})],
)
def test_a_search_seed_is_one_every_client_reads_exactly(path: str, extra: dict[str, Any]) -> None:
    """/v1/suggest and /v1/review echo their seed (`settings.seed`); they took seeds up to
    2^63 - 1 and wrote them back as JSON numbers a doubles client rounds. The largest seed
    they take is now 2^53 - 1, echoed exactly; one more is refused with a sentence that
    says the range."""
    client = DoublesClient()
    state = client.http.post("/v1/games", json={"seats": 2, "seed": 3}).get_json()["state"]
    option = state["pending"]["options"][0]
    body: dict[str, Any] = {"state": state, **extra}
    if path == "/v1/review":
        after = client.http.post("/v1/resolve", json={"state": state, "decisions": [option]})
        body = {"setup": {"seats": 2, "seed": 3}, "decisions": [option], **extra}
        assert after.status_code == 200
    r = client.http.post(path, json={**body, "seed": JSON_SAFE_INT})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["settings"]["seed"] == JSON_SAFE_INT
    assert js_round_trip(r.data)["settings"]["seed"] == JSON_SAFE_INT
    refused = client.http.post(path, json={**body, "seed": JSON_SAFE_INT + 1})
    assert 400 <= refused.status_code < 500
    problem = refused.get_json()
    assert problem["pointer"] == "/seed" and str(JSON_SAFE_INT) in json.dumps(problem)
