"""Background searches (app/jobs.py, ai/jobs.py, ai/taskqueue.py, ai/queue.py) against a redis-server and
`rq worker` processes the tests start themselves: a job's answer is the synchronous one,
progress is reported, cancelling stops the search, a worker killed mid-job leaves the job
re-queued or failed with a clear status, and without Redis (or workers) the answer is 503.

Workers run with a 1 s job-monitoring interval and a 2 s heartbeat grace, so a vanished
worker is noticed in about 3 s (RQ's defaults: 30 s and 60 s)."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from typing import Any

import pytest
from ai_support import midgame
from http_support import check_response, flush_redis

from ai import taskqueue as jobq
from ai.queue import local_workers
from ai.redis_server import RedisServer, free_port

HUGE = {"iterations": 1_000_000}  # above the synchronous limit: a job that runs until stopped
WAIT_S = 60


@pytest.fixture
def client(make_app: Any, fresh_redis_server: RedisServer) -> Any:
    app = make_app(REDIS_URL=fresh_redis_server.url, JOB_MAX_MS=60_000)
    return app.test_client()


def workers(server: RedisServer, n: int = 1) -> Any:
    return local_workers(server.url, n, queues=["suggest"], monitoring_interval_s=1, grace_s=2)


def body(seed: int = 3, **extra: Any) -> dict[str, Any]:
    state = midgame(seed)
    return {"state": state, "seat": state["pending"]["seat"], "seed": 5, **extra}


def wait_for(
    client: Any, location: str, ok: Callable[[dict[str, Any]], bool], what: str
) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        r = client.get(location)
        assert r.status_code == 200, r.get_json()
        doc: dict[str, Any] = r.get_json()
        if ok(doc):
            return doc
        assert time.monotonic() < deadline, f"waited {WAIT_S} s for {what}: {doc}"
        time.sleep(0.1)


def start(client: Any, b: dict[str, Any]) -> str:
    r = client.post("/v1/suggest", json=b)
    assert r.status_code == 202, r.get_json()
    doc = r.get_json()
    assert doc["status"] == "queued" and doc["attempts"] == 1
    assert r.headers["Location"] == f"/v1/jobs/{doc['id']}"
    return str(r.headers["Location"])


def test_a_job_gives_the_synchronous_answer(client: Any, fresh_redis_server: RedisServer) -> None:
    b = body(budget={"iterations": 300}, plan="turn")
    sync = client.post("/v1/suggest", json=b)
    assert sync.status_code == 200
    expected = sync.get_json()
    flush_redis(fresh_redis_server)  # the job must search, not read the cache
    with workers(fresh_redis_server):
        ready = client.get("/readyz").get_json()
        assert ready["checks"]["jobs"] == {
            "ok": True,
            "detail": "1 worker(s) on queue 'suggest'; 0 queued, 0 running of at most 100",
        }
        location = start(client, {**b, "async": True})
        queued = queued_request(fresh_redis_server, location.rsplit("/", 1)[1])
        doc = wait_for(client, location, lambda d: d["status"] == "finished", "the job")
    # the queue holds the seat's view, never the state's hidden cards or its generator
    assert "state" not in queued and queued["view"]["view_of"] == b["seat"]
    assert b["state"]["rng"] not in json.dumps(queued)
    got = doc["result"]
    assert got["cached"] is False
    for key in ("decision", "settings", "bot", "level", "turn", "turn_complete"):
        assert got[key] == expected[key], key
    assert got["stats"]["options"] == expected["stats"]["options"]
    assert got["stats"]["iterations"] == expected["stats"]["iterations"] == 300
    assert doc["progress"]["iterations"] == sum(s["iterations"] for s in got["turn"])
    assert doc["started_at"] and doc["ended_at"] and doc["attempts"] == 1


def test_a_jobs_document_is_one_read_of_it(client: Any, fresh_redis_server: RedisServer) -> None:
    """Status and times come from the same read of the job: a job read while it waited and
    then finished is told as it was read (queued, no times), never as finished beside the
    end time of the read before (CI once saw `finished` with `ended_at: null`: the status
    alone was read again)."""
    import redis

    from app.jobs import _document

    conn = redis.Redis.from_url(fresh_redis_server.url)
    with workers(fresh_redis_server):
        running = start(client, body(budget=HUGE))
        wait_for(client, running, lambda d: d["status"] == "started", "the first job to start")
        waiting = start(client, body(seed=6, budget={"iterations": 20}, **{"async": True}))
        stale = jobq.fetch(conn, waiting.rsplit("/", 1)[1])  # read while it waits
        assert client.delete(running).status_code == 200  # the worker takes the next job
        done = wait_for(client, waiting, lambda d: d["status"] == "finished", "the next job")
    assert done["ended_at"] is not None
    doc = _document(conn, stale)
    assert doc["status"] == "queued" and doc["started_at"] is None and doc["ended_at"] is None
    conn.close()


def queued_request(server: RedisServer, job_id: str) -> dict[str, Any]:
    """The request a job was queued with, as RQ keeps it in Redis."""
    import redis

    conn = redis.Redis.from_url(server.url)
    try:
        request: dict[str, Any] = jobq.fetch(conn, job_id).args[0]
    finally:
        conn.close()
    return request


def test_progress_and_cancelling_a_running_and_a_queued_job(
    client: Any, fresh_redis_server: RedisServer
) -> None:
    with workers(fresh_redis_server):
        running = start(client, body(budget=HUGE))
        queued = start(client, body(seed=4, budget=HUGE))
        first = wait_for(client, running, lambda d: d["progress"]["iterations"] > 0, "progress")
        later = wait_for(
            client,
            running,
            lambda d: d["progress"]["iterations"] > first["progress"]["iterations"],
            "more progress",
        )
        assert later["status"] == "started"
        assert client.get(queued).get_json()["status"] == "queued"  # one worker, busy

        r = client.delete(queued)
        assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
        r = client.delete(running)
        assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
        assert client.delete(running).get_json()["status"] == "cancelled"  # idempotent
        # the search really stopped: the only worker takes the next job and finishes it
        small = start(client, body(seed=6, budget={"iterations": 40}, **{"async": True}))
        done = wait_for(client, small, lambda d: d["status"] == "finished", "the next job")
        assert done["result"]["stats"]["iterations"] == 40
        assert client.get(queued).get_json()["status"] == "cancelled"
        assert client.get(queued).get_json()["started_at"] is None  # never ran
        stopped = client.get(running).get_json()
        assert stopped["status"] == "cancelled" and "result" not in stopped
        r = client.delete(small)
        assert r.status_code == 409 and r.get_json()["code"] == "job_finished"


def _horse(client: Any, location: str, attempt: int) -> int:
    """The pid of the work horse running the job's `attempt` (from its meta)."""
    from ai.taskqueue import connect, fetch

    wait_for(
        client,
        location,
        lambda d: d["status"] == "started" and d["attempts"] == attempt,
        f"attempt {attempt} to start",
    )
    conn = connect(client.application.config["REDIS_URL"])
    job = fetch(conn, location.rsplit("/", 1)[1])
    deadline = time.monotonic() + WAIT_S
    while job.meta.get("pid") is None or job.meta.get("progress", {}).get("iterations", 0) == 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
        job.refresh()  # type: ignore[no-untyped-call]
    pid = int(job.meta["pid"])
    conn.close()
    return pid


def test_a_killed_work_horse_is_retried_then_failed(
    client: Any, fresh_redis_server: RedisServer
) -> None:
    with workers(fresh_redis_server):
        location = start(client, body(budget=HUGE))
        os.kill(_horse(client, location, 1), signal.SIGKILL)
        # re-queued once (JOB_RETRIES=1) and taken again by the worker
        os.kill(_horse(client, location, 2), signal.SIGKILL)
        doc = wait_for(client, location, lambda d: d["status"] == "failed", "the failure")
    assert doc["attempts"] == 2
    assert doc["error"]["code"] == "worker_lost"
    assert "died" in doc["error"]["detail"]
    assert "result" not in doc


def test_a_whole_worker_killed_mid_job_is_requeued_for_another(
    client: Any, fresh_redis_server: RedisServer
) -> None:
    with workers(fresh_redis_server) as procs:
        location = start(client, body(budget=HUGE))
        horse = _horse(client, location, 1)
        os.kill(procs[0].pid, signal.SIGKILL)  # the machine is gone: worker and horse
        os.kill(horse, signal.SIGKILL)
        t0 = time.monotonic()
        doc = wait_for(client, location, lambda d: d["status"] != "started", "abandonment")
        took = time.monotonic() - t0
    assert doc["status"] == "queued" and doc["attempts"] == 2, doc
    assert took < 15  # monitoring interval 1 s + grace 2 s, plus this machine's load
    with workers(fresh_redis_server):  # another machine's worker takes it over
        _horse(client, location, 2)
        assert client.delete(location).get_json()["status"] == "cancelled"


def test_without_redis_or_workers_a_job_is_refused_with_503(
    make_app: Any,
    fresh_redis_server: RedisServer,
) -> None:
    """Redis down or no worker yet: 503 with Retry-After, since coming back can help."""
    b = body(budget={"iterations": 50}, **{"async": True})
    dead = f"redis://127.0.0.1:{free_port()}/0"
    for config in ({"REDIS_URL": dead}, {"REDIS_URL": fresh_redis_server.url}):
        c = make_app(**config).test_client()
        r = c.post("/v1/suggest", json=b)
        assert r.status_code == 503, (config, r.get_json())
        problem = r.get_json()
        assert problem["code"] == "jobs_unavailable"
        assert int(r.headers["Retry-After"]) >= 1
        assert r.headers["Content-Type"] == "application/problem+json"
        checks = c.get("/readyz").get_json()["checks"]
        if config["REDIS_URL"] == dead:
            assert "Redis unavailable" in problem["detail"]
        else:
            assert "no worker" in problem["detail"]
            assert checks["jobs"]["ok"] is False  # degraded: nobody would run a job
        # the synchronous path is unaffected
        assert c.post("/v1/suggest", json={**b, "async": False}).status_code == 200


def test_reading_a_job_while_redis_is_down_does_not_say_it_cannot_start(make_app: Any) -> None:
    """Was: GET and DELETE of a job answered "Background searches cannot start" and offered a
    synchronous search, as if the job had never been posted."""
    c = make_app(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0").test_client()
    location = "/v1/jobs/00000000-0000-4000-8000-000000000000"  # a job id's shape (UUID4)
    for r in (c.get(location), c.delete(location)):
        problem = r.get_json()
        assert r.status_code == 503 and problem["code"] == "jobs_unavailable", problem
        assert int(r.headers["Retry-After"]) >= 1
        assert "cannot be reached: Redis unavailable" in problem["detail"]
        assert "cannot start" not in problem["detail"] and "synchronous" not in problem["detail"]


def test_without_a_job_store_nothing_is_a_503(make_app: Any) -> None:
    """No REDIS_URL: no retry can help, so no answer is a 503 (issue 29). A job asked for is
    422 `jobs_not_configured`; a budget above the synchronous limit, 422 `budget_too_large`
    naming the endpoint, the work asked against the limit and the largest level; a job id,
    404."""
    c = make_app().test_client()
    assert "jobs" not in c.get("/readyz").get_json()["checks"]  # off by configuration
    r = c.post("/v1/suggest", json=body(budget={"iterations": 50}, **{"async": True}))
    problem = check_response("POST", "/v1/suggest", r)
    assert r.status_code == 422 and problem["code"] == "jobs_not_configured", problem
    assert problem["pointer"] == "/async" and "REDIS_URL" in problem["detail"]
    assert "Retry-After" not in r.headers
    r = c.post("/v1/suggest", json=body(budget={"iterations": 50_000}))
    problem = check_response("POST", "/v1/suggest", r)
    assert r.status_code == 422 and problem["code"] == "budget_too_large", problem
    assert problem["pointer"] == "/budget"
    for words in ("/v1/suggest", "20000 iterations", "50000 iterations", "master", "2560"):
        assert words in problem["detail"], (words, problem["detail"])
    # the synchronous path is unaffected
    assert c.post("/v1/suggest", json=body(budget={"iterations": 50})).status_code == 200
    r = c.get("/v1/jobs/00000000-0000-4000-8000-000000000000")
    assert r.status_code == 404 and r.get_json()["code"] == "job_not_found"
    assert "no background jobs" in r.get_json()["detail"]


def test_requests_are_checked_before_anything_is_queued(client: Any) -> None:
    b = body(**{"async": True})
    bad_state = {**b, "state": {**b["state"], "turn": {"seat": 7, "number": 1}}}
    r = client.post("/v1/suggest", json=bad_state)
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_state"
    wrong_seat = {**b, "seat": 1 - b["seat"]}
    r = client.post("/v1/suggest", json=wrong_seat)
    assert r.status_code == 422
    r = client.post("/v1/suggest", json={**b, "async": "yes"})
    assert r.status_code == 400 and r.get_json()["pointer"] == "/async"
    r = client.post("/v1/suggest", json={**b, "async": False, "budget": HUGE})
    assert r.status_code == 422 and r.get_json()["code"] == "budget_too_large"
    r = client.post("/v1/suggest", json={**b, "budget": {"iterations": 1_000_001}})
    assert r.status_code == 400
    for job_id in ("nope", "0" * 32, "00000000-0000-4000-8000-000000000000", "A" * 200):
        r = client.get(f"/v1/jobs/{job_id}")
        assert r.status_code == 404 and r.get_json()["code"] == "job_not_found", job_id
        assert client.delete(f"/v1/jobs/{job_id}").status_code == 404


def test_failure_reasons_become_stable_codes() -> None:
    from ai.taskqueue import FAILURE_DETAILS, failure_code

    assert failure_code("Work-horse terminated unexpectedly; waitpid returned 9") == "worker_lost"
    assert failure_code("Moved to FailedJobRegistry, due to AbandonedJobError, at ...") == (
        "worker_lost"
    )
    assert failure_code("Traceback ...\nrq.timeouts.JobTimeoutException: Task exceeded") == (
        "job_timeout"
    )
    assert failure_code("Traceback ...\nKeyError: 'seat'") == "job_error"
    assert failure_code(None) == "job_error"
    assert set(FAILURE_DETAILS) == {"worker_lost", "job_timeout", "job_error"}  # openapi's enum


def test_a_finished_job_expires_after_its_ttl(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    c = make_app(REDIS_URL=fresh_redis_server.url, JOB_RESULT_TTL_S=1).test_client()
    with workers(fresh_redis_server):
        location = start(c, body(budget={"iterations": 20}, **{"async": True}))
        wait_for(c, location, lambda d: d["status"] == "finished", "the job")
    time.sleep(2.5)
    r = c.get(location)
    assert r.status_code == 404 and r.get_json()["code"] == "job_not_found"
    assert "expired" in r.get_json()["detail"]
