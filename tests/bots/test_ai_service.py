"""ai.service.suggest, the in-process cache, and POST /v1/suggest."""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from typing import Any

import pytest
from ai_support import POISONS, hide_differently, midgame, poisons, slow_search
from http_support import check_response

import engine.architectura as arch
from ai.bots import DEADLINE_CHECK_STEPS, LEVELS
from ai.cache import MemoryCache, decode, make_cache
from ai.service import suggest
from app import create_app
from engine.errors import IllegalDecision, InvalidState, SetupError


def test_suggestion_is_a_legal_option_with_stats() -> None:
    state = midgame(2)
    seat = state["pending"]["seat"]
    out = suggest(state, seat, iterations=120, seed=4)
    assert out["decision"] in state["pending"]["options"]
    assert out["bot"] == "ismcts" and out["level"] is None and out["cached"] is False
    assert out["settings"] == {"bot": "ismcts", "seed": 4, "iterations": 120}
    stats = out["stats"]
    assert stats["iterations"] == 120 and stats["time_ms"] > 0
    assert [o["decision"] for o in stats["options"]] == state["pending"]["options"]
    assert sum(o["visits"] for o in stats["options"]) == 120
    best = max(stats["options"], key=lambda o: o["visits"])
    assert best["decision"] == out["decision"]
    for o in stats["options"]:
        assert o["value"] is None or 0.0 <= o["value"] <= 1.0
    new_state, _ = arch.apply(state, out["decision"])
    assert new_state != state


def test_levels_and_default_level() -> None:
    state = midgame(6)
    seat = state["pending"]["seat"]
    out = suggest(state, seat, level="easy")
    assert out["level"] == "easy"
    assert out["settings"] == {"bot": "ismcts", "seed": 0, **LEVELS["easy"].to_json()}
    default = suggest(state, seat)
    assert default["level"] == "hard"  # the cheapest level clearly above greedy (docs/bots.md)
    assert default["settings"]["iterations"] == LEVELS["hard"].iterations
    greedy = suggest(state, seat, bot="greedy", seed=3)
    assert greedy["settings"] == {"bot": "greedy", "seed": 3}
    assert greedy["decision"] in state["pending"]["options"]


def test_memory_cache_hit_returns_the_same_answer() -> None:
    state = midgame(9)
    seat = state["pending"]["seat"]
    cache = make_cache(None)
    assert isinstance(cache, MemoryCache)
    first = suggest(state, seat, iterations=100, seed=1, cache=cache)
    again = suggest(state, seat, iterations=100, seed=1, cache=cache)
    assert (first["cached"], again["cached"]) == (False, True)
    assert again["decision"] == first["decision"]
    assert again["stats"]["options"] == first["stats"]["options"]
    # same information set, other hidden cards: same key, so a hit
    other = hide_differently(state, seat, random.Random(1))
    assert suggest(other, seat, iterations=100, seed=1, cache=cache)["cached"] is True
    # other settings are other keys
    assert suggest(state, seat, iterations=100, seed=2, cache=cache)["cached"] is False
    assert suggest(state, seat, iterations=101, seed=1, cache=cache)["cached"] is False
    assert suggest(state, seat, bot="greedy", seed=1, cache=cache)["cached"] is False
    assert suggest(state, seat, bot="greedy", seed=1, cache=cache)["cached"] is False
    assert len(cache) == 3  # a bot that does not search makes no entry
    status = cache.status()
    assert (status["backend"], status["ok"]) == ("memory", True)
    assert re.fullmatch(
        r"in-process LRU, at most 10000 entries and 33554432 characters", status["detail"]
    )


def test_memory_cache_is_a_bounded_lru_with_ttl() -> None:
    c = MemoryCache(max_entries=2, ttl_s=3600)
    c.put("a", {"v": 1})
    c.put("b", {"v": 2})
    assert c.get("a") == {"v": 1}
    c.put("c", {"v": 3})  # evicts b, the least recently used
    assert c.get("b") is None
    assert c.get("a") == {"v": 1} and c.get("c") == {"v": 3}
    got = c.get("a")
    assert got is not None
    got["v"] = 99  # callers get copies
    assert c.get("a") == {"v": 1}
    expired = MemoryCache(ttl_s=0)
    expired.put("k", {"v": 1})
    assert expired.get("k") is None


def test_memory_cache_is_bounded_in_characters_too() -> None:
    """Audit of 2026-11-30: bounded in entries only, 10,000 entries of a wide position's
    options (21 KB each, one a seed sent) held 237 MB a worker. The characters of keys and
    values held are bounded too: the oldest entries go, and one larger than the whole
    bound is not kept."""
    c = MemoryCache(max_entries=1000, max_chars=1000)
    for i in range(20):
        c.put(f"k{i}", {"v": "x" * 200})  # about 210 characters with its key
    assert len(c) == 4 and c.get("k19") is not None and c.get("k15") is None
    c.put("k19", {"v": "y" * 200})  # replacing an entry counts it once
    assert len(c) == 4 and c.get("k16") is not None
    c.put("huge", {"v": "z" * 2000})
    assert c.get("huge") is None and len(c) == 4
    assert 0 < c._chars <= 1000
    # /readyz is public: it names the limits, never the fill (who searched, how wide)
    assert c.status()["detail"] == "in-process LRU, at most 1000 entries and 1000 characters"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"level": "easy", "iterations": 10}, "invalid_budget"),
        ({"iterations": 0}, "invalid_budget"),
        ({"time_ms": 10**7}, "invalid_budget"),
        ({"level": "grandmaster"}, "unknown_level"),
        ({"bot": "minimax"}, "unknown_bot"),
        ({"seed": -1}, "invalid_seed"),
    ],
)
def test_bad_settings_are_setup_errors(kwargs: dict[str, Any], code: str) -> None:
    state = midgame(1)
    with pytest.raises(SetupError) as e:
        suggest(state, state["pending"]["seat"], **kwargs)
    assert e.value.code == code


def test_rule_errors() -> None:
    state = midgame(1)
    seat = state["pending"]["seat"]
    with pytest.raises(IllegalDecision) as e:
        suggest(state, 1 - seat, iterations=5)
    assert (e.value.code, e.value.clause, e.value.pointer) == ("not_your_decision", "A-3", "/seat")
    with pytest.raises(IllegalDecision) as e:
        suggest(state, 7, iterations=5)
    assert (e.value.code, e.value.clause) == ("unknown_seat", "A-1.1")  # as /v1/view's
    broken = dict(state, turn="soon")
    with pytest.raises(InvalidState):
        suggest(broken, seat, iterations=5)
    g = arch.load(state)
    rnd = random.Random(0)
    while not arch.is_terminal(g):
        arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
    with pytest.raises(IllegalDecision) as e:
        suggest(arch.game_to_json(g), 0, iterations=5)
    assert e.value.code == "game_over"


@pytest.fixture
def client() -> Any:
    app = create_app({"REDIS_URL": None, "TESTING": True})
    return app.test_client()


def test_http_suggest_and_cache(client: Any) -> None:
    state = midgame(12)
    seat = state["pending"]["seat"]
    body = {"state": state, "seat": seat, "budget": {"iterations": 60}, "seed": 5}
    r1 = client.post("/v1/suggest", json=body)
    assert r1.status_code == 200, r1.get_json()
    r2 = client.post("/v1/suggest", json=body)
    a, b = r1.get_json(), r2.get_json()
    assert (a["cached"], b["cached"]) == (False, True)
    assert a["decision"] == b["decision"] and a["decision"] in state["pending"]["options"]
    assert a["stats"]["iterations"] == 60
    r3 = client.post("/v1/suggest", json={"state": state, "seat": seat, "level": "easy"})
    assert r3.status_code == 200 and r3.get_json()["level"] == "easy"
    r4 = client.post("/v1/suggest", json={**body, "plan": "turn"})
    assert r4.status_code == 200, r4.get_json()
    planned = check_response("POST", "/v1/suggest", r4)
    assert planned["turn"][0]["decision"] == a["decision"] and planned["turn"][0]["cached"]
    ready = client.get("/readyz").get_json()
    assert ready["checks"]["position_cache"]["ok"] is True
    assert ready["checks"]["position_cache"]["detail"].startswith("memory")


@pytest.mark.parametrize(
    ("patch", "status", "code", "pointer"),
    [
        ({"level": "easy", "budget": {"iterations": 3}}, 400, "invalid_request", "/budget"),
        ({"budget": {}}, 400, "invalid_request", "/budget"),
        ({"budget": {"iterations": 0}}, 400, "invalid_request", "/budget/iterations"),
        ({"level": "godlike"}, 400, "invalid_request", "/level"),
        ({"bot": "alphazero"}, 400, "invalid_request", "/bot"),
        ({"plan": "game"}, 400, "invalid_request", "/plan"),
        ({"seed": "1"}, 400, "invalid_request", "/seed"),
        ({"seat": None}, 400, "invalid_request", "/seat"),
        ({"extra": 1}, 400, "invalid_request", "/extra"),
        ({"flip_seat": True}, 422, "not_your_decision", "/seat"),
        ({"state": {"game": "chess"}}, 422, "invalid_state", None),
    ],
)
def test_http_errors(
    client: Any, patch: dict[str, Any], status: int, code: str, pointer: str | None
) -> None:
    state = midgame(12)
    seat = state["pending"]["seat"]
    body: dict[str, Any] = {"state": state, "seat": seat, "budget": {"iterations": 5}}
    if patch.pop("flip_seat", False):
        body["seat"] = 1 - seat
    body.update(patch)
    r = client.post("/v1/suggest", json=body)
    assert r.status_code == status, r.get_json()
    assert r.mimetype == "application/problem+json"
    problem = r.get_json()
    assert problem["code"] == code
    if pointer is not None:
        assert problem["pointer"] == pointer
    else:
        assert problem["pointer"].startswith("/state")


def test_iteration_budget_cut_by_the_safety_limit_is_flagged_and_not_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ai.bots

    monkeypatch.setattr(ai.bots, "SAFETY_MS", 30)
    state = midgame(10)
    seat = state["pending"]["seat"]
    cache = MemoryCache()
    out = suggest(state, seat, iterations=20_000, cache=cache)
    assert out["stats"]["truncated"] is True
    assert 1 <= out["stats"]["iterations"] < 20_000
    assert out["decision"] in state["pending"]["options"]
    assert len(cache) == 0
    assert suggest(state, seat, iterations=20_000, cache=cache)["cached"] is False


def test_custom_catalog_states_are_searched_with_their_catalog() -> None:
    doc = arch.builtin_catalogs()["reference"].to_json()
    doc["id"] = "custom_test"
    state = arch.new_game({"seats": 2, "seed": 3, "catalog": doc})
    cache = MemoryCache()
    out = suggest(state, 0, iterations=30, catalog=doc, cache=cache)
    assert out["decision"] in state["pending"]["options"]
    assert suggest(state, 0, iterations=30, catalog=doc, cache=cache)["cached"] is True
    with pytest.raises(InvalidState):
        suggest(state, 0, iterations=30)  # the catalog document is needed


def _advanced_positions() -> list[dict[str, Any]]:
    """Positions before a play in advanced games rich in effects (Park, Tavern, School, …)."""
    reps = {"greenhouse": "park", "library": "school", "arsenal": "barracks"}
    out = []
    for seed in range(12):
        rnd = random.Random(seed)
        state = arch.new_game(
            {"seats": 2, "seed": seed, "variant": "advanced", "replacements": [reps, reps]}
        )
        for _ in range(8 + seed):
            state, _ = arch.apply(state, rnd.choice(arch.legal_decisions(state)["options"]))
        if not state["game_over"] and state["pending"]["kind"] == "play":
            out.append(state)
    return out


def test_plan_turn_lists_the_rest_of_the_seats_turn() -> None:
    """plan="turn": the first decision, then the seat's own effect choices of the same turn;
    the list is accepted by one apply_all batch, after which the turn has moved on or another
    seat must decide."""
    longest = 0
    for state in _advanced_positions():
        seat = state["pending"]["seat"]
        out = suggest(state, seat, iterations=40, seed=2, plan="turn")
        steps = out["turn"]
        assert out["turn_complete"] is True
        assert steps[0]["decision"] == out["decision"]
        assert all(s["decision"]["seat"] == seat for s in steps)
        assert steps[0]["iterations"] == out["stats"]["iterations"]
        after, _ = arch.apply_all(state, [s["decision"] for s in steps])
        assert (
            after["game_over"]
            or after["turn"]["number"] != state["turn"]["number"]
            or after["pending"]["seat"] != seat
        )
        single = suggest(state, seat, iterations=40, seed=2)
        assert single["decision"] == out["decision"] and "turn" not in single
        assert "turn_complete" not in single
        longest = max(longest, len(steps))
    assert longest > 1  # at least one of these turns had effect choices to plan


def test_plan_must_be_known() -> None:
    state = midgame(2)
    with pytest.raises(SetupError) as e:
        suggest(state, state["pending"]["seat"], iterations=5, plan="game")
    assert e.value.code == "invalid_plan"


def test_plan_turn_has_one_overall_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """plan="turn" is bounded as a whole by max_ms (SUGGEST_MAX_MS over HTTP): the largest
    budget returns at the deadline with the first decision, flagged; where the seat would
    have more to decide in that turn, the plan stops there, incomplete. The clock is virtual
    (it moves 0.5 ms an engine step), so a loaded machine cannot make the test race it."""
    import ai.service as service

    slow = slow_search(monkeypatch, arch, 0.0005, service)
    overrun = DEADLINE_CHECK_STEPS * slow.delay  # the clock is read every so many steps
    for state in _advanced_positions():
        seat = state["pending"]["seat"]
        t0 = slow.clock.now
        cut = suggest(state, seat, iterations=20_000, seed=2, plan="turn", max_ms=300)
        assert slow.clock.now - t0 <= 0.300 + overrun + 1e-9, slow.clock.now - t0
        assert cut["stats"]["truncated"] is True
        assert 0 < cut["stats"]["iterations"] < 20_000
        assert [s["decision"] for s in cut["turn"]] == [cut["decision"]]
        after, _ = arch.apply(state, cut["decision"])
        more = (
            not after["game_over"]
            and after["turn"]["number"] == state["turn"]["number"]
            and after["pending"]["seat"] == seat
        )
        assert cut["turn_complete"] is not more


def test_plan_turn_stops_when_the_deadline_passes_between_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline is the plan's, not each step's: once it has passed, no further step is
    searched and the plan so far is returned, flagged incomplete. The position is one whose
    whole plan has several steps (a play, then its effect's choices)."""
    import ai.service as service

    for state in _advanced_positions():
        seat = state["pending"]["seat"]
        full = suggest(state, seat, iterations=40, seed=2, plan="turn")
        if len(full["turn"]) > 1:
            break
    else:
        raise AssertionError("no position whose plan has more than one step")
    assert full["turn_complete"] is True

    search = service._search
    searches = []

    def slow_search(*args: Any) -> Any:
        out = search(*args)
        searches.append(out)
        time.sleep(0.35)  # the first step ends after the 300 ms deadline
        return out

    monkeypatch.setattr(service, "_search", slow_search)
    cut = suggest(state, seat, iterations=40, seed=2, plan="turn", max_ms=300)
    assert len(searches) == 1  # the second step was never searched
    assert cut["turn_complete"] is False
    assert cut["turn"] == full["turn"][:1]
    assert "truncated" not in cut["stats"]  # the first search itself was whole


def test_a_suggest_beyond_the_concurrency_cap_waits_briefly_then_is_refused() -> None:
    """SUGGEST_CONCURRENCY searches at once per process; one more waits SUGGEST_WAIT_MS for a
    slot, then 503 with a Retry-After of the recent searches' mean length (issue 29); the slot
    freed, the same request is served."""
    app = create_app(
        {"REDIS_URL": None, "TESTING": True, "SUGGEST_CONCURRENCY": 2, "SUGGEST_WAIT_MS": 300}
    )
    client = app.test_client()
    state = midgame(3)
    body = {"state": state, "seat": state["pending"]["seat"], "level": "easy"}
    gate = app.extensions["suggest_gate"]
    free = gate._free
    assert free.acquire(blocking=False) and free.acquire(blocking=False)  # two searches run
    gate.mean_ms = 3200.0  # searches here have lately taken 3.2 s
    try:
        t0 = time.perf_counter()
        r = client.post("/v1/suggest", json=body)
        waited = time.perf_counter() - t0
        assert 0.3 <= waited < 1.5
        problem = check_response("POST", "/v1/suggest", r)
        assert r.status_code == 503 and problem["code"] == "suggest_busy"
        assert r.headers["Retry-After"] == "4"
        assert "running 2 searches at once" in problem["detail"]
        assert "3200 ms" in problem["detail"]
        assert client.get("/healthz").status_code == 200
        # a slot freed during the wait is taken: the request is served, not refused
        threading.Timer(0.1, free.release).start()
        assert client.post("/v1/suggest", json=body).status_code == 200
    finally:
        free.release()
    assert client.post("/v1/suggest", json=body).status_code == 200
    # every slot is free again (the served requests gave their slots back)
    assert [free.acquire(blocking=False) for _ in range(3)] == [True, True, False]
    assert gate.mean_ms < 3200.0  # the searches served counted in the mean


def test_a_request_that_cannot_be_answered_is_refused_without_a_search_slot() -> None:
    """A request is read and checked before it waits for a slot: with every slot held, a
    forged view or a state of no game gets its 422 at once, not a 503 telling it to retry a
    request that can never succeed, and checking it holds no slot a search could use (it
    did: an audit's hostile views made valid requests 503)."""
    app = create_app({"REDIS_URL": None, "TESTING": True, "SUGGEST_WAIT_MS": 300})
    client = app.test_client()
    state = midgame(3)
    seat = state["pending"]["seat"]
    view = client.post("/v1/view", json={"state": state, "seat": seat}).get_json()
    free = app.extensions["suggest_gate"]._free
    assert free.acquire(blocking=False)  # the process's one search runs
    try:
        for bad, code in (
            ({"view": {**view, "junk": 1}}, "invalid_view"),
            ({"state": {"game": "architectura"}}, "invalid_state"),
            ({"state": state, "seat": 1 - seat}, "not_your_decision"),
        ):
            t0 = time.perf_counter()
            r = client.post("/v1/suggest", json={**bad, "level": "easy"})
            problem = check_response("POST", "/v1/suggest", r)
            assert (r.status_code, problem["code"]) == (422, code), problem
            assert time.perf_counter() - t0 < 0.3  # not after the wait for a slot
        r = client.post("/v1/suggest", json={"view": view, "level": "easy"})
        assert r.status_code == 503  # a request that can be answered waits for one
    finally:
        free.release()
    assert client.post("/v1/suggest", json={"view": view, "level": "easy"}).status_code == 200


def test_one_slot_is_said_in_the_singular() -> None:
    app = create_app({"REDIS_URL": None, "TESTING": True, "SUGGEST_WAIT_MS": 10})
    gate = app.extensions["suggest_gate"]
    with app.test_request_context():
        detail = gate.busy().detail
    assert "already running a search, its only one at a time" in detail
    assert "1 searches" not in detail


def _plant(cache: MemoryCache, key: str, value: bytes) -> None:
    """A bad value in the in-process cache, as if stored (its text; bytes that are not UTF-8
    kept as lone surrogates)."""
    expires, _ = cache._data[key]
    cache._data[key] = (expires, value.decode("utf-8", "surrogateescape"))


def _only_level_warning(caplog: pytest.LogCaptureFixture) -> set[Any]:
    worst = max(r.levelno for r in caplog.records)
    assert worst <= logging.WARNING, [r.getMessage() for r in caplog.records]
    return {getattr(r, "fields", {}).get("event") for r in caplog.records}


@pytest.mark.parametrize("kind", POISONS)
def test_anything_unreadable_in_the_memory_cache_is_a_miss_and_is_overwritten(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """As with Redis (tests/bots/test_ai_redis.py): each kind of bad value under the position's
    key is a miss (200, `cached: false`, a warning at most) and is overwritten (a hit next)."""
    app = create_app({"REDIS_URL": None, "TESTING": True})
    client = app.test_client()
    cache = app.extensions["position_cache"]
    assert isinstance(cache, MemoryCache)
    state = midgame(18)
    seat = state["pending"]["seat"]
    body = {"state": state, "seat": seat, "budget": {"iterations": 30}, "seed": 3}
    good = client.post("/v1/suggest", json=body).get_json()
    (key,) = list(cache._data)
    first = cache.get(key)
    _plant(cache, key, poisons(state, seat, good)[kind])
    caplog.set_level(logging.DEBUG)
    again = client.post("/v1/suggest", json=body)
    assert again.status_code == 200, again.data[:300]
    assert again.get_json()["cached"] is False
    events = _only_level_warning(caplog)
    assert events & {"cache_entry_unreadable", "cache_entry_rejected"}, events
    now = cache.get(key)
    assert now is not None and first is not None
    assert (now["decision"], now["stats"]["options"]) == (
        first["decision"],
        first["stats"]["options"],
    )
    assert client.post("/v1/suggest", json=body).get_json()["cached"] is True


def test_a_bad_entry_of_a_later_step_of_a_turn_is_overwritten() -> None:
    """plan="turn" with its first step from the cache: a later step's bad entry is a miss,
    searched again and overwritten, and the next plan comes wholly from the cache."""
    for state in _advanced_positions():
        seat = state["pending"]["seat"]
        cache = MemoryCache()
        full = suggest(state, seat, iterations=40, seed=2, plan="turn", cache=cache)
        if len(full["turn"]) < 2:
            continue
        keys = list(cache._data)  # in the order the steps were stored
        assert len(keys) == len(full["turn"])
        _plant(cache, keys[1], b"[" * 100_000 + b"]" * 100_000)
        again = suggest(state, seat, iterations=40, seed=2, plan="turn", cache=cache)
        assert [s["cached"] for s in again["turn"]][:2] == [True, False]
        assert [s["decision"] for s in again["turn"]] == [s["decision"] for s in full["turn"]]
        assert decode(cache._data[keys[1]][1])["decision"] == full["turn"][1]["decision"]
        third = suggest(state, seat, iterations=40, seed=2, plan="turn", cache=cache)
        assert all(s["cached"] for s in third["turn"])
        return
    raise AssertionError("no position with a multi-step turn")


def test_a_client_never_finds_another_clients_search_in_the_cache(client: Any) -> None:
    """Audit of 2026-11-30 (the cache as an oracle): entries were keyed by the seat's view
    alone, so a client holding only its own view could send each of another seat's possible
    views with that seat's settings and learn its hand from the first `cached: true` (or from
    the answer's speed). Entries are now shared by the holders of one state only; a view's
    search is not cached (an address is no identity: one NAT, one relaying server)."""
    state = midgame(12)
    seat = state["pending"]["seat"]
    asked = {"seat": seat, "budget": {"iterations": 40}, "seed": 3}
    view = client.post("/v1/view", json={"state": state, "seat": seat}).get_json()

    def cached(doc: dict[str, Any], addr: str) -> bool:
        r = client.post("/v1/suggest", json={**doc, **asked}, environ_base={"REMOTE_ADDR": addr})
        assert r.status_code == 200, r.get_json()
        return bool(r.get_json()["cached"])

    assert cached({"state": state}, "10.0.0.1") is False  # the seat's own app
    assert cached({"view": view}, "10.0.0.2") is False  # another client with the right view
    assert cached({"view": view}, "10.0.0.2") is False  # a view's search is never stored
    assert cached({"view": view}, "10.0.0.1") is False
    assert cached({"state": state}, "10.0.0.4") is True  # whoever holds the state shares it
    other = hide_differently(state, seat, random.Random(1))  # not the state: its own scope
    assert cached({"state": other}, "10.0.0.1") is False


def test_a_search_whose_model_changed_meanwhile_is_answered_not_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Audit of 2026-11-30: the key names the model read before the search, which looks the
    model up again; a file replaced in between stored the new model's answer under the old
    model's key."""
    import ai.service

    versions = iter(["architectura/g3/old", "architectura/g4/new"])
    monkeypatch.setattr(ai.service, "evaluation_version", lambda eng: next(versions))
    state = midgame(9)
    cache = make_cache(None)
    out = suggest(state, state["pending"]["seat"], iterations=20, seed=1, cache=cache)
    assert out["cached"] is False and len(cache) == 0
