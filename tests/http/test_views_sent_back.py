"""A view sent back to POST /v1/suggest as a client's serializer leaves it (issue 29): its null
fields left out, as a state's may be; a view changed says which field; a state sent as `view`
is told to be sent as `state`; without `seat`, the view's own seat (or the state's pending
one) is searched for."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from http_support import check_response, make_app

from ai.redis_server import RedisServer

CLIENT = make_app().test_client()
GAMES = ("architectura", "fora-de-prumo")


def _post(path: str, body: dict[str, Any]) -> Any:
    r = CLIENT.post(path, json=body)
    check_response("POST", path, r)
    return r


def without_nulls(doc: Any) -> Any:
    """What a serializer that drops nulls sends."""
    if isinstance(doc, dict):
        return {k: without_nulls(v) for k, v in doc.items() if v is not None}
    if isinstance(doc, list):
        return [without_nulls(v) for v in doc]
    return doc


def _positions(
    game: str, seats: int, every: int, count: int | None = None
) -> list[tuple[dict[str, Any], int]]:
    """(a deciding seat's view, that seat) at every `every`th decision of a random game, to
    its end or its first `count` such positions. The views are checked against the contract;
    the walk's /v1/resolve answers are not (other tests do: here they are only the way)."""
    state = _post("/v1/games", {"game": game, "seats": seats, "seed": seats}).get_json()["state"]
    rnd, out, n = random.Random(seats), [], 0
    while not state["game_over"] and len(out) != count:
        seat = state["pending"]["seat"]
        if n % every == 0:
            out.append((_post("/v1/view", {"state": state, "seat": seat}).get_json(), seat))
        decision = rnd.choice(state["pending"]["options"])
        r = CLIENT.post("/v1/resolve", json={"state": state, "decisions": [decision]})
        state = r.get_json()["state"]
        n += 1
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_a_view_without_its_nulls_gets_the_same_suggestion(game: str, seats: int) -> None:
    positions = _positions(game, seats, every=7)
    assert len(positions) >= 4
    for view, seat in positions:
        light = without_nulls(view)
        assert light != view  # a view has null fields (rng, the others' hands)
        whole = _post("/v1/suggest", {"view": view, "seat": seat, "bot": "random"})
        dropped = _post("/v1/suggest", {"view": light, "bot": "random"})  # seat: view_of
        assert whole.status_code == dropped.status_code == 200, dropped.get_json()
        assert dropped.get_json()["decision"] == whole.get_json()["decision"]


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_view_names_the_field(game: str) -> None:
    view, seat = _positions(game, 3, every=5, count=3)[2]
    other = (seat + 1) % 3
    view = copy.deepcopy(view)
    view["seats"][other]["hand_count"] += 1  # one hidden card more
    r = _post("/v1/suggest", {"view": view, "seat": seat, "bot": "random"})
    body = r.get_json()
    assert r.status_code == 422 and body["code"] == "invalid_view", body
    # the field the state rebuilt from the view tells apart first: the hand it holds now, or
    # the deck that is one card shorter
    pointer = body["pointer"]
    assert pointer.startswith((f"/view/seats/{other}/hand", "/view/deck_count")), body
    assert "send the answer of /v1/view unchanged." not in body["detail"]


def test_a_state_sent_as_a_view_is_told_to_be_sent_as_state() -> None:
    state = _post("/v1/games", {"seats": 2, "seed": 1}).get_json()["state"]
    r = _post("/v1/suggest", {"view": state, "seat": 0, "bot": "random"})
    body = r.get_json()
    assert r.status_code == 422 and body["problems"][0]["code"] == "state_not_view", body
    assert "send it as `state`" in body["detail"] and "no seat's" not in body["detail"]


@pytest.mark.parametrize("path", ["/v1/suggest", "/v1/render"])
def test_a_view_of_an_unknown_game_is_not_a_view_on_every_endpoint(path: str) -> None:
    """/v1/render called it `invalid_state`, where /v1/suggest said `invalid_view`."""
    view = _positions("fora-de-prumo", 2, 1, 1)[0][0]
    r = _post(path, {"view": {**view, "game": "chess"}})
    body = r.get_json()
    assert (r.status_code, body["code"], body["pointer"]) == (422, "invalid_view", "/view/game")


def test_an_encrypted_state_sent_as_a_view_is_told_to_be_sent_as_state(
    redis_server: RedisServer,
) -> None:
    """It was told "a view names its seat (view_of)", which no change of it can follow."""
    settings = {"STATE_ANTI_ROLLBACK": True, "REDIS_URL": redis_server.url}
    client = make_app(
        STATE_SECRET="test-secret-0123456789abcdefghijk", STATE_ENCRYPT=True, **settings
    ).test_client()
    state = client.post("/v1/games", json={"seats": 2, "seed": 1}).get_json()["state"]
    r = client.post("/v1/suggest", json={"view": state, "seat": 0, "bot": "random"})
    body = check_response("POST", "/v1/suggest", r)
    assert r.status_code == 422 and body["problems"][0]["code"] == "state_not_view", body
    assert "send it as `state`" in body["detail"], body


@pytest.mark.parametrize("game", GAMES)
def test_without_a_seat_the_pending_seat_is_searched(game: str) -> None:
    state = _post("/v1/games", {"game": game, "seats": 3, "seed": 4}).get_json()["state"]
    seat = state["pending"]["seat"]
    r = _post("/v1/suggest", {"state": state, "bot": "random"})
    assert r.status_code == 200 and r.get_json()["decision"]["seat"] == seat


def test_a_bot_without_levels_answers_no_level() -> None:
    """The contract: `level` is null when no level applies (greedy, random, a budget)."""
    state = _post("/v1/games", {"seats": 2, "seed": 4}).get_json()["state"]
    for bot in ("greedy", "random"):
        r = _post("/v1/suggest", {"state": state, "bot": bot, "level": "expert"})
        assert r.status_code == 200 and r.get_json()["level"] is None, r.get_json()
    r = _post("/v1/suggest", {"state": state, "level": "easy"})
    assert r.get_json()["level"] == "easy"


@pytest.mark.parametrize("game", GAMES)
def test_a_view_without_its_nulls_is_drawn_the_same(game: str) -> None:
    view, _ = _positions(game, 3, every=9, count=2)[1]
    whole = _post("/v1/render", {"view": view})
    light = _post("/v1/render", {"view": without_nulls(view)})
    assert whole.status_code == light.status_code == 200
    assert light.data == whole.data


def test_a_reordered_hand_names_the_field_it_changes() -> None:
    """A hand sorted otherwise is not what /v1/view answers: the answer names where the view
    stops matching the state rebuilt from it (its options follow the hand's order)."""
    view, seat = _positions("architectura", 2, every=5, count=2)[1]
    view = copy.deepcopy(view)
    hand = view["seats"][seat]["hand"]
    assert len(hand) > 1
    hand.reverse()
    r = _post("/v1/suggest", {"view": view, "bot": "random"})
    body = r.get_json()
    assert r.status_code == 422 and body["code"] == "invalid_view", body
    assert body["pointer"].startswith("/view/")
    assert body["pointer"].removeprefix("/view") + " is " in body["detail"]
