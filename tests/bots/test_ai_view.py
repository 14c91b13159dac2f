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


@pytest.mark.parametrize("game", ["architectura", "fora-de-prumo"])
def test_the_view_must_be_the_seats_own(game: str) -> None:
    """Refused citing the game's clause on what a seat sees (A-R13, F-R6), as a view that
    matches no state is."""
    state = positions(game, 1)[0]
    seat = state["pending"]["seat"]
    with pytest.raises(IllegalDecision) as e:
        suggest(None, seat, view=view_of(state, 1 - seat), iterations=5)
    clause = engine(game).INFO.view_clause
    assert (e.value.code, e.value.pointer, e.value.clause) == (
        "wrong_view",
        "/view/view_of",
        clause,
    )
    mismatched = view_of(state, seat)
    mismatched["pending"] = None  # the decision the position asks, hidden
    with pytest.raises(InvalidState) as bad:
        suggest(None, seat, view=mismatched, iterations=5)
    assert bad.value.problems[0].clause == clause, bad.value.problems


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
            # what to send instead, not only the name of the exception that said no
            assert "(ValueError)." not in problem["detail"], problem


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


def _other(view: dict[str, Any]) -> dict[str, Any]:
    return dict(view["seats"][1 - view["view_of"]])


ARCH_COUNT_FORGERIES: dict[str, tuple[Any, str]] = {
    # a negative count dealt from the list's end, and was refused as a full hand
    "a negative hand_count": (lambda s: s.update(hand_count=-1), "hand_count"),
    "a hand_count not an integer": (lambda s: s.update(hand_count=2.0), "hand_count"),
    "counts that do not add up": (lambda s: s.update(deck_count=s["deck_count"] + 1), "hand_count"),
    # 300 entries: a 2 MB list was shuffled whole before the reader refused it
    "more unseen cards than a catalog holds": (lambda s: s.update(unseen=["x"] * 300), "unseen"),
}


@pytest.mark.parametrize("forgery", list(ARCH_COUNT_FORGERIES))
def test_an_architectura_views_counts_are_read_before_the_world_is_dealt(forgery: str) -> None:
    """Each seat's unseen cards and counts are bounded and consistent before the sampler
    deals them: the refusal names the view's own field and A-R13 (it named the rebuilt
    state's `hand` or `deck`, fields a view does not have, with a hand-limit or duplicate
    reason)."""
    state = positions("architectura", 1)[0]
    view = view_of(state, state["pending"]["seat"])
    other = 1 - view["view_of"]
    change, field = ARCH_COUNT_FORGERIES[forgery]
    view["seats"][other] = _other(view)
    change(view["seats"][other])
    with pytest.raises(InvalidState) as e:
        suggest(None, None, view=view, iterations=5)
    first = e.value.problems[0]
    assert (first.pointer, first.clause) == (f"/seats/{other}/{field}", "A-R13"), e.value.problems


def test_a_view_of_a_seat_the_game_does_not_have_says_so() -> None:
    state = positions("architectura", 1)[0]
    view = {**view_of(state, state["pending"]["seat"]), "view_of": 2}
    with pytest.raises(InvalidState) as e:
        suggest(None, None, view=view, iterations=5)
    first = e.value.problems[0]
    assert (first.pointer, first.clause) == ("/view_of", "A-1.1"), e.value.problems


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("view_of", [0.0, -0.0, 1.0, False, True, "0", None, [0]])
@pytest.mark.parametrize("with_seat", [True, False])
def test_a_view_of_no_integer_seat_is_refused_at_view_of(
    client: Any, game_id: str, view_of: Any, with_seat: bool
) -> None:
    """Audit of 2026-11-30 (compiled against pure): a view whose view_of was 0.0 (or false)
    passed for seat 0, then failed inside the compiled world builder, answered there as "not
    a view (TypeError)" and by the pure engine as another field; a boolean was "seat False's".
    It is one refusal at /view/view_of on both engines (CI runs this suite on each)."""
    state = positions(game_id, 1)[0]
    seat = state["pending"]["seat"]
    view = client.post("/v1/view", json={"state": state, "seat": seat}).get_json()
    body: dict[str, Any] = {"view": {**view, "view_of": view_of}, "bot": "greedy"}
    if with_seat:
        body["seat"] = seat
    r = client.post("/v1/suggest", json=body)
    problem = check_response("POST", "/v1/suggest", r)
    assert (r.status_code, problem["code"], problem["pointer"]) == (
        422,
        "invalid_view",
        "/view/view_of",
    ), problem
    assert "Error" not in problem["detail"] and "False" not in problem["detail"]
    assert problem["detail"].startswith("view_of is the seat whose view this is"), problem
