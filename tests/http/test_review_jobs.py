"""A review as a background job (app/review.py, app/jobs.py, ai/review_jobs.py) against a
redis-server and `rq worker` processes the test starts itself: split by decision over two
workers, it answers exactly what the synchronous review answers, reports its progress in
decisions, and a cancelled review stops its helpers."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis
from http_support import check_response, random_game, tripled_catalog

from ai import taskqueue as jobq
from ai.queue import local_workers
from ai.redis_server import RedisServer
from ai.review_jobs import PREFIX
from engine.games import engine

WAIT_S = 120
GAME = {"setup": {"seats": 2, "seed": 4}}


def a_game(client: Any) -> dict[str, Any]:
    """A short Architectura game's record (first decisions of seeded random play)."""
    import random

    rng = random.Random(1)
    state = client.post("/v1/games", json=GAME["setup"]).get_json()["state"]
    for _ in range(12):
        option = rng.choice(state["pending"]["options"])
        state = client.post("/v1/resolve", json={"state": state, "decisions": [option]})
        state = state.get_json()["state"]
    return dict(client.post("/v1/record", json={"state": state}).get_json())


def endless_review(client: Any, conn: redis.Redis, rec: dict[str, Any]) -> tuple[str, str]:
    """A review job of a million iterations a decision, once two workers (the parent and a
    helper) each took a decision: its id and its hash of takers."""
    r = client.post("/v1/review", json={**rec, "budget": {"iterations": 1_000_000}})
    assert r.status_code == 202, r.get_json()
    job_id = r.get_json()["id"]
    claimed = f"{PREFIX}{job_id}:claimed"
    deadline = time.monotonic() + WAIT_S
    while conn.hlen(claimed) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return job_id, claimed


def test_a_review_job_split_over_two_workers_is_the_synchronous_review(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    client = make_app(REDIS_URL=fresh_redis_server.url, JOB_MAX_MS=100_000).test_client()
    rec = a_game(client)
    # enough work a position (about a second in all) that the helper's worker, busy starting
    # its work horse on a loaded machine (tests run side by side), still finds positions left
    iterations = 200
    ask = {**rec, "budget": {"iterations": iterations}, "seed": 2}
    sync = client.post("/v1/review", json=ask)
    expected = check_response("POST", "/v1/review", sync)
    reviewed = sum(1 for r in expected["decisions"] if "verdict" in r)
    assert reviewed >= 4
    with local_workers(fresh_redis_server.url, 2, queues=["suggest"]):
        r = client.post("/v1/review", json={**ask, "async": True})
        doc = check_response("POST", "/v1/review", r)
        assert r.status_code == 202 and r.headers["Location"] == f"/v1/jobs/{doc['id']}"
        deadline = time.monotonic() + WAIT_S
        seen_positions = []
        while doc["status"] not in ("finished", "failed"):
            assert time.monotonic() < deadline, doc
            time.sleep(0.2)
            got = client.get(r.headers["Location"])
            doc = check_response("GET", "/v1/jobs/{job_id}", got)
            if "positions" in doc["progress"]:
                seen_positions.append(doc["progress"]["positions"])
    assert doc["status"] == "finished", doc
    assert doc["result"] == expected
    assert doc["progress"]["iterations"] == expected["iterations"] == iterations * reviewed
    assert seen_positions and all(p["total"] == reviewed for p in seen_positions)
    # both workers reviewed decisions: the parent and one helper
    conn = redis.Redis.from_url(fresh_redis_server.url)
    takers = set(conn.hvals(f"{PREFIX}{doc['id']}:claimed"))
    conn.close()
    assert len(takers) == 2, takers


def test_a_large_review_is_a_job_and_without_workers_is_refused(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    client = make_app(REDIS_URL=fresh_redis_server.url).test_client()
    rec = a_game(client)
    r = client.post("/v1/review", json={**rec, "budget": {"iterations": 5000}})
    body = check_response("POST", "/v1/review", r)
    assert r.status_code == 503 and body["code"] == "jobs_unavailable"
    assert r.headers["Retry-After"]


def test_cancelling_a_review_stops_its_helpers(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    """Each decision searched for up to a minute: cancelled once both workers search, the
    parent is stopped by RQ and its helper stops within a second or so, mid-search."""
    client = make_app(REDIS_URL=fresh_redis_server.url, JOB_MAX_MS=60_000).test_client()
    rec = a_game(client)
    conn = redis.Redis.from_url(fresh_redis_server.url)
    with local_workers(fresh_redis_server.url, 2, queues=["suggest"]):
        job_id, claimed = endless_review(client, conn, rec)
        helper = next(v.decode() for v in conn.hvals(claimed) if v.decode() != job_id)
        doc = client.delete(f"/v1/jobs/{job_id}").get_json()
        assert doc["status"] == "cancelled"
        t0 = time.monotonic()
        while conn.hget(f"rq:job:{helper}", "status") != b"finished":
            assert time.monotonic() - t0 < 15, conn.hget(f"rq:job:{helper}", "status")
            time.sleep(0.1)
    assert conn.hlen(f"{PREFIX}{job_id}:done") == 0  # nothing finished: both were cut
    conn.close()


def test_a_review_job_of_a_game_with_a_custom_catalog_reads_the_set_ups_own(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    """A job of a custom-catalog set-up gives the workers the set-up's own catalog: before, it
    was accepted (202) and failed in the worker, which got no catalog."""
    client = make_app(REDIS_URL=fresh_redis_server.url).test_client()
    setup = {"seats": 2, "seed": 4, "catalog": tripled_catalog()}
    ask = {
        "setup": setup,
        "decisions": random_game(engine("architectura"), setup, 1)[:12],
        "budget": {"iterations": 10},
    }
    expected = check_response("POST", "/v1/review", client.post("/v1/review", json=ask))
    with local_workers(fresh_redis_server.url, 1, queues=["suggest"]):
        r = client.post("/v1/review", json={**ask, "async": True})
        doc = check_response("POST", "/v1/review", r)
        deadline = time.monotonic() + WAIT_S
        while doc["status"] not in ("finished", "failed"):
            assert time.monotonic() < deadline, doc
            time.sleep(0.2)
            doc = check_response("GET", "/v1/jobs/{job_id}", client.get(r.headers["Location"]))
    assert doc["status"] == "finished", doc
    assert doc["result"] == expected


def test_a_review_job_s_helpers_take_places_of_its_client_s_jobs(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    """With 3 workers and 2 jobs a client, one review runs on 2 workers: its one helper takes
    the client's second place (audit of 2026-11-29: a review took one place and every worker,
    so a client's one review held all of them for up to JOB_MAX_MS)."""
    app = make_app(REDIS_URL=fresh_redis_server.url, JOB_MAX_MS=60_000, JOB_QUEUE_PER_CLIENT=2)
    client = app.test_client()
    rec = a_game(client)
    conn = redis.Redis.from_url(fresh_redis_server.url)
    with local_workers(fresh_redis_server.url, 3, queues=["suggest"]):
        job_id, claimed = endless_review(client, conn, rec)
        time.sleep(3)  # a second helper, were there one, has had a worker's time to start
        assert len(set(conn.hvals(claimed))) == 2
        assert conn.zcard(jobq.client_key(jobq.SUGGEST_QUEUE, "127.0.0.1")) == 2
        state = client.post("/v1/games", json=GAME["setup"]).get_json()["state"]
        body = {"state": state, "budget": {"iterations": 50}, "async": True}
        refused = client.post("/v1/suggest", json=body)  # the client's places are taken
        assert refused.status_code == 429, refused.get_json()
        client.delete(f"/v1/jobs/{job_id}")
    conn.close()


class _Progress:
    """What a review job's progress needs of ai/jobs.py's, without a job to write to."""

    iterations = 0

    def __init__(self, extra: Any) -> None:
        self.extra = extra

    def __call__(self, n: int) -> None:
        self.iterations += n

    def write(self) -> None:
        pass


def _parent_in_process(
    make_app: Any, url: str, monkeypatch: Any, job_id: str
) -> tuple[dict[str, Any], dict[str, Any], redis.Redis]:
    """A review job's request as POST /v1/review queues it, the answer the synchronous review
    gives, and a connection; `ai.review_jobs.run` then runs as job `job_id` in this process."""
    from flask import Response

    import ai.review_jobs as rj
    from app import review as app_review

    client = make_app(REDIS_URL=url).test_client()
    ask = {**a_game(client), "budget": {"iterations": 20}, "seed": 2}
    expected = check_response("POST", "/v1/review", client.post("/v1/review", json=ask))
    queued: list[dict[str, Any]] = []

    def capture(request: dict[str, Any]) -> Response:
        queued.append({**request, "max_ms": 60_000})
        return Response(status=202)

    monkeypatch.setattr(app_review, "start_review", capture)
    assert client.post("/v1/review", json={**ask, "async": True}).status_code == 202
    conn = redis.Redis.from_url(url)
    job = type("Job", (), {"id": job_id, "connection": conn})  # what run() reads of RQ's
    monkeypatch.setattr(rj, "get_current_job", lambda: job)
    return queued[0], expected, conn


def test_a_review_job_keeps_nothing_in_redis_for_good(
    make_app: Any, fresh_redis_server: RedisServer, monkeypatch: Any
) -> None:
    """Review of 2026-11-30: the parent set the TTL of its results, claims and counter before
    they existed (EXPIRE on a missing key does nothing), so each review left them for good
    in the queue's noeviction Redis. Everything it keeps now expires with its settings."""
    import ai.review_jobs as rj

    request, expected, conn = _parent_in_process(
        make_app, fresh_redis_server.url, monkeypatch, "one-review"
    )
    assert rj.run(request, _Progress) == expected
    keys = conn.keys(f"{PREFIX}one-review:*")
    assert len(keys) == 5  # settings, tasks, done, claimed, iterations (the to-do list is empty)
    assert all(conn.ttl(k) > 0 for k in keys), {k: conn.ttl(k) for k in keys}
    conn.close()


def test_a_retried_review_job_searches_only_what_its_first_attempt_left(
    make_app: Any, fresh_redis_server: RedisServer, monkeypatch: Any
) -> None:
    """A review's parent whose worker died after 2 results (JOB_RETRIES runs it again under the
    same id) searches the decisions left, the one it was searching included, and answers
    what the synchronous review answers, iterations counted once. Before, the retry pushed
    every decision on the to-do list again: each was searched twice, and the shown
    iterations counted both."""
    import ai.review_jobs as rj

    request, expected, conn = _parent_in_process(
        make_app, fresh_redis_server.url, monkeypatch, "retried-review"
    )
    assert len(request["tasks"]) >= 4

    class Lost(Exception):
        pass

    searched: list[int] = []
    real = rj.review_task

    def review_task(task: dict[str, Any], *args: Any) -> dict[str, Any]:
        if attempt == 1 and len(searched) == 2:
            raise Lost  # the worker dies in the third decision's search
        searched.append(task["index"])
        return real(task, *args)

    monkeypatch.setattr(rj, "review_task", review_task)
    attempt = 1
    with pytest.raises(Lost):
        rj.run(request, _Progress)
    assert len(searched) == 2
    attempt = 2
    assert rj.run(request, _Progress) == expected
    assert sorted(searched) == sorted(t["index"] for t in request["tasks"])  # each once
    assert int(conn.get(f"{PREFIX}retried-review:iterations") or 0) == expected["iterations"]
    conn.close()
