"""POST /v1/suggest from a seat's view (what /v1/view answers) instead of the full state:
the same decision for every registered game, and a view that is not one is refused (4xx,
never a 5xx)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from http_support import check_response

from ai.cache import MemoryCache
from ai.service import suggest
from app import create_app
from engine.errors import IllegalDecision, InvalidState
from engine.games import GAMES, engine


def positions(game_id: str, count: int = 3) -> list[dict[str, Any]]:
    """2-seat states of `game_id` some random decisions in, each at a real choice."""
    eng = engine(game_id)
    out = []
    for seed in range(40):
        rnd = random.Random(seed)
        state = eng.new_game(eng.tournament_setup(seed, 2, None))
        for _ in range(4 + 3 * seed % 17):
            moves = eng.legal_decisions(state)
            if moves["game_over"]:
                break
            state, _ = eng.apply_all(state, [rnd.choice(moves["options"])])
        moves = eng.legal_decisions(state)
        if not moves["game_over"] and len(moves["options"]) >= 2:
            out.append(state)
        if len(out) == count:
            return out
    raise AssertionError(f"{game_id}: no position with a choice")


def view_of(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return engine(state["game"]).player_view(state, seat)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_view_gets_the_same_answer_as_its_state(game_id: str) -> None:
    for state in positions(game_id):
        seat = state["pending"]["seat"]
        view = view_of(state, seat)
        assert view != state  # something is really hidden
        for bot, kwargs in (
            ("ismcts", {"iterations": 60}),
            ("greedy", {}),
            ("random", {}),
        ):
            full = suggest(state, seat, bot=bot, seed=7, **kwargs)  # type: ignore[arg-type]
            seen = suggest(None, seat, view=view, bot=bot, seed=7, **kwargs)  # type: ignore[arg-type]
            assert seen["decision"] == full["decision"], (game_id, bot)
            assert seen["stats"]["options"] == full["stats"]["options"]
            assert seen["settings"] == full["settings"]
        # plan="turn": from a view the plan is the state's plan, step for step (both stop
        # at chance; tests/bots/test_ai_plan.py)
        full = suggest(state, seat, iterations=30, seed=3, plan="turn")
        seen = suggest(None, seat, view=view, iterations=30, seed=3, plan="turn")
        assert seen["turn"] == full["turn"]
        assert seen["turn_complete"] is full["turn_complete"]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_state_and_its_view_share_the_cache_entry(game_id: str) -> None:
    state = positions(game_id, 1)[0]
    seat = state["pending"]["seat"]
    cache = MemoryCache()
    first = suggest(state, seat, iterations=30, seed=1, cache=cache)
    hit = suggest(None, seat, view=view_of(state, seat), iterations=30, seed=1, cache=cache)
    assert (first["cached"], hit["cached"]) == (False, True)
    assert hit["decision"] == first["decision"] and len(cache) == 1


@pytest.fixture
def client() -> Any:
    return create_app({"REDIS_URL": None, "TESTING": True}).test_client()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_http_suggest_from_the_answer_of_view(client: Any, game_id: str) -> None:
    state = positions(game_id, 1)[0]
    seat = state["pending"]["seat"]
    r = client.post("/v1/view", json={"state": state, "seat": seat})
    assert r.status_code == 200
    view = r.get_json()
    budget = {"budget": {"iterations": 40}, "seed": 2, "seat": seat}
    a = client.post("/v1/suggest", json={"view": view, **budget})
    b = client.post("/v1/suggest", json={"state": state, **budget})
    assert a.status_code == 200, a.get_json()
    out = check_response("POST", "/v1/suggest", a)
    assert out["decision"] == b.get_json()["decision"]
    assert out["decision"] in state["pending"]["options"]


def test_the_view_must_be_the_seats_own() -> None:
    state = positions("architectura", 1)[0]
    seat = state["pending"]["seat"]
    with pytest.raises(IllegalDecision) as e:
        suggest(None, seat, view=view_of(state, 1 - seat), iterations=5)
    assert (e.value.code, e.value.pointer) == ("wrong_view", "/view/view_of")


def _forged_views(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Views no state gives: a card moved into the viewer's hand from the unseen cards, a
    hidden hand shown, counts changed, the generator revealed."""
    seat = view["view_of"]
    out = []
    v = copy.deepcopy(view)
    own = v["seats"][seat]
    own["hand"].append(own["unseen"].pop())
    out.append(v)
    v = copy.deepcopy(view)
    v["seats"][1 - seat]["hand"] = v["seats"][1 - seat]["unseen"][:1]
    out.append(v)
    v = copy.deepcopy(view)
    v["seats"][1 - seat]["hand_count"] += 1
    out.append(v)
    v = copy.deepcopy(view)
    v["rng"] = "00000000000000ff"
    out.append(v)
    return out


def test_a_forged_view_is_refused(client: Any) -> None:
    state = positions("architectura", 1)[0]
    seat = state["pending"]["seat"]
    for forged in _forged_views(view_of(state, seat)):
        with pytest.raises(InvalidState):
            suggest(None, seat, view=forged, iterations=5)
        r = client.post("/v1/suggest", json={"view": forged, "seat": seat, "level": "easy"})
        problem = check_response("POST", "/v1/suggest", r)
        assert r.status_code == 422 and problem["code"] == "invalid_view", problem
        assert problem["pointer"].startswith("/view"), problem


JUNK: list[Any] = [None, [], {}, "x", 1, -1, 2.5, True, [[]], {"a": 1}]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_junk_anywhere_in_a_view_is_a_4xx(client: Any, game_id: str) -> None:
    """Every top-level field and every field of a seat removed or replaced by junk: a typed
    4xx problem, never a 5xx."""
    state = positions(game_id, 1)[0]
    seat = state["pending"]["seat"]
    view = view_of(state, seat)
    variants: list[Any] = []
    for key in view:
        variants.append({k: v for k, v in view.items() if k != key})
        variants += [{**view, key: junk} for junk in JUNK]
    for key in view["seats"][seat]:
        for junk in JUNK:
            v = copy.deepcopy(view)
            v["seats"][seat][key] = junk
            variants.append(v)
    variants += [{"game": game_id}, {"game": game_id, "view_of": seat}]
    for v in variants:
        r = client.post("/v1/suggest", json={"view": v, "seat": seat, "level": "easy"})
        assert r.status_code < 500, (v, r.get_json())
        if r.status_code != 200:  # a junk value can still leave a view of some state
            problem = r.get_json()
            assert problem["code"] in ("invalid_view", "wrong_view", "invalid_request"), problem
            assert problem["detail"], problem


@pytest.mark.parametrize(
    "body",
    [
        {"seat": 0},  # neither
        {"seat": 0, "state": {}, "view": {}},  # both
        {"seat": 0, "view": []},
    ],
)
def test_state_or_view_exactly_one(client: Any, body: dict[str, Any]) -> None:
    r = client.post("/v1/suggest", json=body)
    assert r.status_code == 400
    assert r.get_json()["code"] == "invalid_request"
