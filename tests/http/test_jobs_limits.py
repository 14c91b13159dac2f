"""The bounded job queue (app/jobs.py, ai/taskqueue.py `Bound`, `reserve`): past its own
JOB_QUEUE_PER_CLIENT a client gets 429 `job_quota_exceeded`, past JOB_QUEUE_MAX everybody gets
503 `jobs_queue_full`, both with `Retry-After` and without queueing anything; another client
is still served; jobs that end (finished, cancelled, expired) free their places; concurrent
requests cannot overshoot; /readyz shows the depth.

Against a redis-server and a real `rq worker` the tests start themselves. The worker is
suspended (`rq suspend`) once it listens: it stays registered, so jobs are accepted, but takes
none until resumed, so they stay queued without spending CPU."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from http_support import check_response, make_app
from rq.suspension import resume, suspend
from test_jobs import HUGE, WAIT_S, body, wait_for, workers

import ai.taskqueue as jobq
from ai.redis_server import RedisServer

A, B, C = "10.0.0.1", "10.0.0.2", "10.0.0.3"
SMALL = body(budget={"iterations": 20}, **{"async": True})
BIG = body(budget=HUGE)  # runs until cancelled
RETRY_AFTER = "30"  # app.jobs.QUEUE_RETRY_AFTER_S


@contextmanager
def held_worker(server: RedisServer) -> Iterator[redis.Redis]:
    """One worker on `suggest`, suspended: jobs are accepted and stay queued until
    `resume(conn)`. Yields a connection to the queue's Redis.

    RQ's worker will not start suspended, and once started it may already be waiting on the
    queue (BLMOVE), where a suspension is not seen: so it is suspended, then handed a no-op
    job (kept nowhere: result_ttl 0) that wakes it if it waits; either way it then sleeps in
    its suspended state, and a no-op it did not take is withdrawn."""
    conn = jobq.connect(server.url)
    try:
        with workers(server):
            suspend(conn)
            noop = jobq.enqueue(
                conn,
                "suggest",
                "ai.jobs.noop",
                [0],
                job_timeout_s=60,
                queued_ttl_s=60,
                result_ttl_s=0,
                retries=0,
            )
            (worker,) = conn.smembers("rq:workers:suggest")
            deadline = time.monotonic() + WAIT_S
            while conn.hget(worker, "state") != b"suspended":
                assert time.monotonic() < deadline, "the worker was not suspended"
                time.sleep(0.05)
            conn.lrem("rq:queue:suggest", 0, noop.id)
            conn.delete(noop.key)
            assert queued(conn) == (0, 0)
            yield conn
    finally:
        resume(conn)
        conn.close()


def app_client(server: RedisServer, **config: Any) -> Any:
    return make_app(REDIS_URL=server.url, JOB_MAX_MS=60_000, **config).test_client()


def post(client: Any, addr: str, b: dict[str, Any], **headers: str) -> Any:
    return client.post("/v1/suggest", json=b, headers=headers, environ_base={"REMOTE_ADDR": addr})


def start(client: Any, addr: str, b: dict[str, Any] = SMALL) -> str:
    r = post(client, addr, b)
    assert r.status_code == 202, r.get_json()
    return str(r.headers["Location"])


def queued(conn: redis.Redis) -> tuple[int, int]:
    """(ids on the suggest list, jobs stored at all): what a refusal must not change."""
    return int(conn.llen("rq:queue:suggest")), len(list(conn.scan_iter("rq:job:*")))


def jobs_check(client: Any) -> dict[str, Any]:
    r = client.get("/readyz")
    check_response("GET", "/readyz", r)
    check: dict[str, Any] = r.get_json()["checks"]["jobs"]
    return check


def refused(r: Any, status: int, code: str) -> str:
    problem = check_response("POST", "/v1/suggest", r)
    assert r.status_code == status, problem
    assert problem["code"] == code
    assert r.headers["Retry-After"] == RETRY_AFTER
    return str(problem["detail"])


def test_a_client_past_its_quota_gets_429_and_another_client_is_still_served(
    fresh_redis_server: RedisServer,
) -> None:
    c = app_client(fresh_redis_server, JOB_QUEUE_PER_CLIENT=2, JOB_QUEUE_MAX=10)
    with held_worker(fresh_redis_server) as conn:
        first = start(c, A)
        start(c, A, BIG)  # a large budget is a job too, and counts alike
        detail = refused(post(c, A, SMALL), 429, "job_quota_exceeded")
        assert detail.startswith("This client already has 2 background searches queued or")
        assert "(JOB_QUEUE_PER_CLIENT)" in detail and "in 30 s" in detail
        assert queued(conn) == (2, 2)  # nothing more was queued
        de = post(c, A, SMALL, **{"Accept-Language": "de"})
        assert de.status_code == 429 and de.headers["Content-Language"] == "de"
        assert de.get_json()["detail"].startswith("Dieser Client hat bereits 2 Hintergrundsuchen")

        # the request is still checked in full first: a bad one is its own answer
        wrong_seat = {**SMALL, "seat": 1 - SMALL["seat"]}
        assert post(c, A, wrong_seat).status_code == 422
        assert post(c, A, {**SMALL, "async": "yes"}).status_code == 400

        start(c, B)  # another client has its own quota
        assert queued(conn) == (3, 3)
        assert jobs_check(c) == {
            "ok": True,
            "detail": "1 worker(s) on queue 'suggest'; 3 queued, 0 running of at most 10",
        }

        # a cancelled job frees its place at once, and only one
        assert c.delete(first).get_json()["status"] == "cancelled"
        start(c, A)
        refused(post(c, A, SMALL), 429, "job_quota_exceeded")
        assert queued(conn)[0] == 3  # the cancelled job left the list


def test_behind_a_proxy_the_client_is_the_forwarded_address(
    fresh_redis_server: RedisServer,
) -> None:
    """The quota counts clients as the rate limiter does: X-Forwarded-For through
    TRUSTED_PROXY_HOPS, not the proxy's own address."""
    c = app_client(fresh_redis_server, JOB_QUEUE_PER_CLIENT=1, TRUSTED_PROXY_HOPS=1)
    proxy = "172.16.0.9"
    with held_worker(fresh_redis_server) as conn:
        start_via = {"X-Forwarded-For": "203.0.113.1"}
        assert post(c, proxy, SMALL, **start_via).status_code == 202
        refused(post(c, proxy, SMALL, **start_via), 429, "job_quota_exceeded")
        assert post(c, proxy, SMALL, **{"X-Forwarded-For": "203.0.113.2"}).status_code == 202
        assert queued(conn) == (2, 2)


def test_past_the_total_the_queue_answers_503_until_jobs_end(
    fresh_redis_server: RedisServer,
) -> None:
    c = app_client(fresh_redis_server, JOB_QUEUE_PER_CLIENT=2, JOB_QUEUE_MAX=3)
    with held_worker(fresh_redis_server) as conn:
        big = start(c, A, BIG)
        small_a = start(c, A)
        small_b = start(c, B)
        detail = refused(post(c, C, SMALL), 503, "jobs_queue_full")
        assert detail.startswith("The queue of background searches is full: 3 are queued or")
        assert "(JOB_QUEUE_MAX)" in detail and "synchronous /v1/suggest" in detail
        refused(post(c, B, SMALL), 503, "jobs_queue_full")  # B is within its own quota
        refused(post(c, A, SMALL), 429, "job_quota_exceeded")  # A's own limit is said first
        assert queued(conn) == (3, 3)
        full = "1 worker(s) on queue 'suggest'; 3 queued, 0 running of at most 3 (full)"
        assert jobs_check(c) == {"ok": False, "detail": full}
        # the synchronous path is not bounded by the queue
        assert post(c, C, {**SMALL, "async": False}).status_code == 200

        resume(conn)
        wait_for(c, big, lambda d: d["status"] == "started", "the big job to start")
        full = "1 worker(s) on queue 'suggest'; 2 queued, 1 running of at most 3 (full)"
        assert jobs_check(c) == {"ok": False, "detail": full}
        refused(post(c, C, SMALL), 503, "jobs_queue_full")  # a running job holds its place

        assert c.delete(big).get_json()["status"] == "cancelled"
        for location in (small_a, small_b):
            wait_for(c, location, lambda d: d["status"] == "finished", "the small jobs")
        assert jobs_check(c) == {
            "ok": True,
            "detail": "1 worker(s) on queue 'suggest'; 0 queued, 0 running of at most 3",
        }
        # finished and cancelled jobs hold no place, in all or for their client
        for addr in (C, A, A):
            start(c, addr)


def test_concurrent_requests_cannot_overshoot_either_limit(fresh_redis_server: RedisServer) -> None:
    app = make_app(REDIS_URL=fresh_redis_server.url, JOB_QUEUE_PER_CLIENT=3, JOB_QUEUE_MAX=5)

    def status(addr: str) -> int:
        return int(post(app.test_client(), addr, SMALL).status_code)

    with held_worker(fresh_redis_server) as conn, ThreadPoolExecutor(8) as pool:
        one_client = sorted(pool.map(status, [A] * 12))
        assert one_client == [202] * 3 + [429] * 9
        many_clients = sorted(pool.map(status, [f"10.1.0.{i}" for i in range(12)]))
        assert many_clients == [202] * 2 + [503] * 10
        assert queued(conn) == (5, 5)


def unattended_noop(conn: redis.Redis, arg: int, bound: jobq.Bound) -> Any:
    """A no-op job queued on `suggest` within `bound`, no worker needed (none will run it)."""
    return jobq.enqueue(
        conn,
        "suggest",
        "ai.jobs.noop",
        [arg],
        job_timeout_s=60,
        queued_ttl_s=60,
        result_ttl_s=60,
        retries=0,
        need_worker=False,
        bound=bound,
    )


def test_lapsed_reservations_and_expired_jobs_free_their_places(
    fresh_redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ai.taskqueue on its own: a reservation whose job was never queued (its process died)
    lapses after RESERVATION_S; a job whose hash expired holds no place for its client."""
    conn = jobq.connect(fresh_redis_server.url)
    bound = jobq.Bound(client="x", per_client=2, total=10, client_ttl_s=60)
    jobq.reserve(conn, "suggest", "dead-process", bound)
    job = unattended_noop(conn, 1, bound)
    assert jobq.depth(conn, "suggest") == (1, 0)
    assert conn.zrange(jobq.reserved_key("suggest"), 0, -1) == [b"dead-process"]
    with pytest.raises(jobq.QueueFull) as e:
        jobq.reserve(conn, "suggest", "b", bound)
    assert (e.value.scope, e.value.limit) == ("client", 2)

    monkeypatch.setattr(jobq, "RESERVATION_S", 0)
    jobq.reserve(conn, "suggest", "b", bound)  # the dead process's reservation lapsed
    monkeypatch.undo()
    with pytest.raises(jobq.QueueFull):
        jobq.reserve(conn, "suggest", "c", bound)
    jobq.release(conn, "suggest", "b", "x")
    jobq.reserve(conn, "suggest", "c", bound)
    with pytest.raises(jobq.QueueFull):
        jobq.reserve(conn, "suggest", "d", bound)

    conn.delete(f"rq:job:{job.id}")  # expired (JOB_QUEUED_TTL_S) or deleted
    jobq.reserve(conn, "suggest", "d", bound)
    assert conn.zcard(jobq.client_key("suggest", "x")) == 2  # c and d
    # the total: the expired job's id still counts until a worker pops it, and c and d
    total = jobq.Bound(client="y", per_client=5, total=3, client_ttl_s=60)
    with pytest.raises(jobq.QueueFull) as e:
        jobq.reserve(conn, "suggest", "e", total)
    assert (e.value.scope, e.value.limit) == ("total", 3)

    # the service's cancellation marker frees the client's place before the job has stopped
    marked = jobq.Bound(client="z", per_client=1, total=10, client_ttl_s=60, ended_prefix="m:")
    running = unattended_noop(conn, 2, marked)
    with pytest.raises(jobq.QueueFull):
        jobq.reserve(conn, "suggest", "f", marked)
    conn.set(f"m:{running.id}", 1)
    jobq.reserve(conn, "suggest", "f", marked)
    conn.close()
