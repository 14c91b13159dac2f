"""The Redis position cache against a real redis-server that the tests start themselves
(never the machine's own Redis): round trip with TTL, Redis killed mid-test, a Redis that
hangs, and two gunicorn instances sharing one Redis."""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.request
from typing import Any

import pytest
import redis
from ai_support import POISONS, midgame, poisons

from ai.cache import KEY_PREFIX, RedisCache, decode, make_cache
from ai.redis_server import RedisServer, free_port
from ai.service import suggest
from benchmarks.local import gunicorn


def count_redis_commands(cache: RedisCache) -> list[str]:
    """Record every command the cache sends to Redis (the client's single entry point)."""
    calls: list[str] = []
    client = cache._client
    send: Any = client.execute_command

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(str(args[0]))
        return send(*args, **kwargs)

    client.execute_command = counting  # type: ignore[method-assign]
    return calls


def test_redis_round_trip_with_ttl(fresh_cache_redis_server: RedisServer) -> None:
    cache = make_cache(fresh_cache_redis_server.url, ttl_s=120)
    assert isinstance(cache, RedisCache)
    assert cache.get("nothing") is None
    cache.put("k1", {"decision": {"type": "pass"}, "n": 3})
    assert cache.get("k1") == {"decision": {"type": "pass"}, "n": 3}
    raw = redis.Redis.from_url(fresh_cache_redis_server.url)
    assert 0 < raw.ttl(KEY_PREFIX + "k1") <= 120
    raw.close()
    assert cache.status() == {"backend": "redis", "ok": True, "detail": "connected"}


def test_suggest_survives_redis_dying_mid_test(
    fresh_cache_redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    state = midgame(14)
    seat = state["pending"]["seat"]
    cache = RedisCache(fresh_cache_redis_server.url, backoff_s=0.2)
    first = suggest(state, seat, iterations=40, seed=1, cache=cache)
    hit = suggest(state, seat, iterations=40, seed=1, cache=cache)
    assert (first["cached"], hit["cached"]) == (False, True)

    fresh_cache_redis_server.kill()
    caplog.set_level(logging.WARNING, logger="ai.cache")
    for _ in range(5):
        out = suggest(state, seat, iterations=40, seed=1, cache=cache)
        assert out["cached"] is False
        assert out["decision"] == first["decision"]
    status = cache.status()
    assert status["backend"] == "redis" and status["ok"] is False
    assert "unavailable" in status["detail"]
    warnings = [r for r in caplog.records if r.name == "ai.cache"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "without the cache" in warnings[0].getMessage()

    # Redis comes back (empty): after the back-off the cache is used again.
    fresh_cache_redis_server.start()
    time.sleep(1.0)  # longer than the longest back-off reached above
    assert cache.status()["ok"] is True
    assert suggest(state, seat, iterations=40, seed=1, cache=cache)["cached"] is False
    assert suggest(state, seat, iterations=40, seed=1, cache=cache)["cached"] is True
    assert any("is back" in r.getMessage() for r in caplog.records if r.name == "ai.cache")


def test_a_hanging_redis_costs_one_short_timeout_then_nothing() -> None:
    """A server that accepts connections but never answers (a stuck Redis)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port = listener.getsockname()[1]
        cache = RedisCache(f"redis://127.0.0.1:{port}/0", socket_timeout=0.1, backoff_s=30)
        calls = count_redis_commands(cache)
        state = midgame(15)
        seat = state["pending"]["seat"]
        out = suggest(state, seat, iterations=20, seed=1, cache=cache)
        assert out["cached"] is False
        assert len(calls) == 1  # one lookup timed out; the result was not written
        for _ in range(5):
            assert cache.get("anything") is None
            cache.put("anything", {"x": 1})
        assert len(calls) == 1  # backing off: no Redis command at all
        assert cache.status()["ok"] is False


class _StalledClient:
    """A Redis client stand-in whose every GET waits until `callers` are inside, then fails
    as a stalled Redis does: the calls that were in flight together."""

    def __init__(self, callers: int) -> None:
        import threading

        self.inside = threading.Barrier(callers)

    def getrange(self, *_args: Any) -> bytes:
        self.inside.wait(5)
        raise redis.ConnectionError("stalled")


def test_the_calls_in_flight_when_redis_stalls_back_off_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Audit of 2026-11-30: each call that was waiting on Redis when it stalled counted as a
    failed retry and doubled the back-off (searches, /readyz, /metrics scrapes): with 8 in
    flight a 0.3 s stall turned the cache off for 60 s. They are one failure: the back-off
    stays at its minimum, and the outage is logged once."""
    import threading

    cache = RedisCache("redis://127.0.0.1:1/0", backoff_s=1.0, max_backoff_s=60.0)
    cache._client = _StalledClient(8)  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="ai.cache"):
        calls = [threading.Thread(target=cache.get, args=(f"k{i}",)) for i in range(8)]
        for t in calls:
            t.start()
        for t in calls:
            t.join(10)
    outage = cache._down
    assert outage.down and outage.backoff == 1.0
    assert outage.until - time.monotonic() <= 1.0
    assert sum("cache_outage" in str(getattr(r, "fields", "")) for r in caplog.records) == 1


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def test_two_gunicorn_instances_share_one_redis(fresh_cache_redis_server: RedisServer) -> None:
    env = {
        "CACHE_REDIS_URL": fresh_cache_redis_server.url,
        "WEB_CONCURRENCY": "1",
        "LOG_LEVEL": "warning",
    }
    with gunicorn(env) as first, gunicorn(env) as second:
        bases = [first, second]
        state = midgame(16)
        body = {
            "state": state,
            "seat": state["pending"]["seat"],
            "budget": {"iterations": 50},
            "seed": 8,
        }
        a = _post(f"{bases[0]}/v1/suggest", body)
        b = _post(f"{bases[1]}/v1/suggest", body)
        assert (a["cached"], b["cached"]) == (False, True)
        assert a["decision"] == b["decision"]
        assert a["stats"]["options"] == b["stats"]["options"]
        with urllib.request.urlopen(f"{bases[1]}/readyz", timeout=5) as r:
            ready = json.loads(r.read())
        assert ready["checks"]["position_cache"] == {"ok": True, "detail": "redis: connected"}


def test_readyz_reports_a_dead_redis_and_suggest_still_answers() -> None:
    from app import create_app

    port = free_port()  # nothing listens there
    client = create_app({"CACHE_REDIS_URL": f"redis://127.0.0.1:{port}/0"}).test_client()
    state = midgame(17)
    body = {"state": state, "seat": state["pending"]["seat"], "budget": {"iterations": 20}}
    r = client.post("/v1/suggest", json=body)
    assert r.status_code == 200 and r.get_json()["cached"] is False
    ready = client.get("/readyz")
    assert ready.status_code == 200
    out = ready.get_json()
    assert out["status"] == "degraded"
    check = out["checks"]["position_cache"]
    assert check["ok"] is False and check["detail"].startswith("redis: redis unavailable")


def _only_key(url: str) -> bytes:
    raw = redis.Redis.from_url(url)
    try:
        keys = raw.keys(KEY_PREFIX + "*")
    finally:
        raw.close()
    assert len(keys) == 1, keys
    key = keys[0]
    assert isinstance(key, bytes)
    return key


def _opponents_card_entry(state: dict[str, Any], seat: int, good: dict[str, Any]) -> Any:
    """A well-shaped entry whose decision plays a card from the opponent's hand."""
    card = state["seats"][1 - seat]["hand"][0]
    bad = {**good["decision"], "card": card}
    stats = {**good["stats"], "options": [{"decision": bad, "visits": 40, "value": 0.9}]}
    return {"decision": bad, "stats": stats}


@pytest.mark.parametrize("poison", ["[]", "{}", "opponents_card"])
def test_a_poisoned_entry_is_a_miss_and_is_overwritten(
    fresh_redis_server: RedisServer, poison: str, caplog: pytest.LogCaptureFixture
) -> None:
    state = midgame(18)
    seat = state["pending"]["seat"]
    assert state["seats"][1 - seat]["hand"]
    cache = RedisCache(fresh_redis_server.url)
    good = suggest(state, seat, iterations=40, seed=3, cache=cache)
    key = _only_key(fresh_redis_server.url)
    stored = json.loads(redis.Redis.from_url(fresh_redis_server.url).get(key) or b"null")
    value = (
        json.dumps(_opponents_card_entry(state, seat, good))
        if poison == "opponents_card"
        else poison
    )
    raw = redis.Redis.from_url(fresh_redis_server.url)
    raw.set(key, value, ex=60)
    caplog.set_level(logging.WARNING, logger="ai")
    again = suggest(state, seat, iterations=40, seed=3, cache=cache)
    assert again["cached"] is False  # searched afresh ...
    assert again["decision"] == good["decision"]
    assert again["decision"] in state["pending"]["options"]
    rewritten = json.loads(raw.get(key) or b"null")  # ... and the entry overwritten
    assert rewritten["decision"] == stored["decision"]
    assert rewritten["stats"]["options"] == stored["stats"]["options"]
    assert suggest(state, seat, iterations=40, seed=3, cache=cache)["cached"] is True
    if poison != "[]":  # a non-object is a plain miss; an object that fails the check is logged
        assert any(
            getattr(r, "fields", {}).get("event") == "cache_entry_rejected" for r in caplog.records
        )
    raw.close()


@pytest.mark.parametrize("kind", [*POISONS, "list"])
def test_anything_unreadable_in_redis_is_a_miss_and_is_overwritten(
    fresh_redis_server: RedisServer, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: a value nested 100,000 arrays deep made the position's /v1/suggest a lasting 500
    (RecursionError escaped the cache, and the entry was never overwritten). Each kind of bad
    value planted under the position's key: 200, `cached: false`, no log worse than a
    warning, and the key holds the fresh answer (the next call is a hit)."""
    from app import create_app

    client = create_app({"CACHE_REDIS_URL": fresh_redis_server.url}).test_client()
    state = midgame(18)
    seat = state["pending"]["seat"]
    body = {"state": state, "seat": seat, "budget": {"iterations": 30}, "seed": 3}
    good = client.post("/v1/suggest", json=body).get_json()
    assert good["cached"] is False
    key = _only_key(fresh_redis_server.url)
    raw = redis.Redis.from_url(fresh_redis_server.url)
    stored = raw.get(key)
    if kind == "list":  # a key of another type than a string
        raw.delete(key)
        raw.rpush(key, b"[]")
    else:
        raw.set(key, poisons(state, seat, good)[kind], ex=60)
    caplog.set_level(logging.DEBUG)
    again = client.post("/v1/suggest", json=body)
    assert again.status_code == 200, again.data[:300]
    assert again.get_json()["cached"] is False
    assert again.get_json()["decision"] == good["decision"]
    worst = max(r.levelno for r in caplog.records)
    assert worst <= logging.WARNING, [r.getMessage() for r in caplog.records]
    events = {getattr(r, "fields", {}).get("event") for r in caplog.records}
    assert events & {"cache_entry_unreadable", "cache_entry_rejected"}, events
    assert "cache_outage" not in events  # an entry's trouble is not Redis's
    now, first = decode(raw.get(key) or b""), decode(stored or b"")
    # the fresh answer (an iteration budget: the same search as the first)
    assert now["decision"] == first["decision"]
    assert now["stats"]["options"] == first["stats"]["options"]
    assert client.post("/v1/suggest", json=body).get_json()["cached"] is True
    raw.close()


def test_a_redis_refusing_writes_still_serves_reads(
    fresh_redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """maxmemory reached with noeviction: every SET is refused (OOM), reads go on; the outage
    is logged once, as one JSON line through the app's formatter."""
    from app.logging import JsonFormatter

    known, fresh = midgame(19), midgame(20)
    cache = RedisCache(fresh_redis_server.url, backoff_s=0.2)
    first = suggest(known, known["pending"]["seat"], iterations=30, seed=1, cache=cache)
    assert first["cached"] is False
    raw = redis.Redis.from_url(fresh_redis_server.url)
    raw.config_set("maxmemory-policy", "noeviction")
    raw.config_set("maxmemory", 1)
    with pytest.raises(redis.exceptions.OutOfMemoryError):
        raw.set("probe", "x")  # the server really refuses writes now
    caplog.set_level(logging.WARNING, logger="ai")
    for _ in range(3):
        out = suggest(fresh, fresh["pending"]["seat"], iterations=30, seed=1, cache=cache)
        assert out["cached"] is False  # could not be stored ...
        hit = suggest(known, known["pending"]["seat"], iterations=30, seed=1, cache=cache)
        assert hit["cached"] is True  # ... but what is stored is still read
        assert hit["decision"] == first["decision"]
    status = cache.status()
    assert status["ok"] is False and "refusing writes" in status["detail"]
    outages = [r for r in caplog.records if r.name == "ai.cache"]
    assert len(outages) == 1, [r.getMessage() for r in outages]
    line = JsonFormatter().format(outages[0])
    assert "\n" not in line
    logged = json.loads(line)
    assert logged["event"] == "cache_outage" and logged["operation"] == "set"
    assert logged["problem"] == "refusing writes" and "OutOfMemoryError" in logged["error"]
    # memory is given back: after the back-off, writes resume and that is logged once
    raw.config_set("maxmemory", "32mb")
    raw.config_set("maxmemory-policy", "allkeys-lru")  # as a cache's must be, to be ok
    time.sleep(0.3)
    suggest(fresh, fresh["pending"]["seat"], iterations=30, seed=1, cache=cache)
    assert suggest(fresh, fresh["pending"]["seat"], iterations=30, seed=1, cache=cache)["cached"]
    assert cache.status()["ok"] is True
    assert [r.fields["event"] for r in caplog.records if r.name == "ai.cache"] == [  # type: ignore[attr-defined]
        "cache_outage",
        "cache_recovered",
    ]
    raw.close()


def test_the_app_writes_cache_trouble_as_json_lines() -> None:
    """create_app routes the bots' loggers through the app's JSON handler."""
    from app import create_app

    create_app({"REDIS_URL": None})
    json_lines = [h for h in logging.getLogger("app").handlers if getattr(h, "_architectura", 0)]
    assert json_lines and all(h in logging.getLogger("ai").handlers for h in json_lines)


def test_the_cache_never_lives_in_the_queue_s_redis(fresh_redis_server: RedisServer) -> None:
    """Audit of 2026-11-30: with REDIS_URL alone (all STATE_ANTI_ROLLBACK needs), the cache
    fell back to it. That Redis evicts nothing (the queue's, the anti-rollback marks'), so
    anonymous 1-iteration suggestions, one key a seed, filled it until every move of every
    game was 503 anti_rollback_unavailable. Without CACHE_REDIS_URL the cache is the
    in-process one: no key of it reaches REDIS_URL's Redis."""
    from app import create_app

    client = create_app({"REDIS_URL": fresh_redis_server.url}).test_client()
    state = midgame(19)
    for seed in range(3):
        body = {"state": state, "seat": state["pending"]["seat"], "budget": {"iterations": 1}}
        first = client.post("/v1/suggest", json={**body, "seed": seed}).get_json()
        again = client.post("/v1/suggest", json={**body, "seed": seed}).get_json()
        assert (first["cached"], again["cached"]) == (False, True)  # cached, in the process
    raw = redis.Redis.from_url(fresh_redis_server.url)
    assert raw.keys(KEY_PREFIX + "*") == []
    raw.close()
    check = client.get("/readyz").get_json()["checks"]["position_cache"]
    assert check["detail"].startswith("memory")


def test_readyz_says_when_the_cache_redis_would_grow_without_bound() -> None:
    """Audit of 2026-11-30: a cache Redis without maxmemory (Redis's default) grows with
    every position searched until the host's memory runs out, and one under noeviction
    refuses new positions once full; /readyz said `connected` for both. Only a bounded,
    evicting one is ok."""
    from app import create_app

    for maxmemory, policy, ok in (
        ("0", "allkeys-lru", False),
        ("32mb", "noeviction", False),
        ("32mb", "allkeys-lru", True),
        ("32mb", "volatile-lru", True),  # every entry has a TTL: volatile policies evict them
    ):
        with RedisServer(maxmemory=maxmemory, policy=policy) as server:
            assert RedisCache(server.url).status()["ok"] is ok, (maxmemory, policy)
            client = create_app({"CACHE_REDIS_URL": server.url}).test_client()
            ready = client.get("/readyz").get_json()
            check = ready["checks"]["position_cache"]
            assert check["ok"] is ok and ready["status"] == ("ready" if ok else "degraded")
            if not ok:
                assert ("maxmemory" if maxmemory == "0" else "noeviction") in check["detail"]


def test_a_cache_redis_that_refuses_info_or_everything_is_not_ok(
    fresh_cache_redis_server: RedisServer,
) -> None:
    """A helper's review of 2026-11-30: an error reply to INFO was taken for a Redis that
    answers, so a user that may run nothing (every read and write refused) was `ok`. A Redis
    that pings but refuses INFO is told so (its bound unknown); one refusing the ping too is
    unavailable."""
    raw = redis.Redis.from_url(fresh_cache_redis_server.url)
    raw.execute_command("ACL", "SETUSER", "noinfo", "on", ">pw", "~*", "+@all", "-info")
    raw.execute_command("ACL", "SETUSER", "nothing", "on", ">pw", "~*", "-@all")
    raw.close()
    port = fresh_cache_redis_server.port
    noinfo = RedisCache(f"redis://noinfo:pw@127.0.0.1:{port}/0").status()
    assert noinfo["ok"] is False and "INFO refused" in noinfo["detail"], noinfo
    nothing = RedisCache(f"redis://nothing:pw@127.0.0.1:{port}/0").status()
    assert nothing["ok"] is False and "unavailable" in nothing["detail"], nothing
