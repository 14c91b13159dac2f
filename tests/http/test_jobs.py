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
from engine.canonical import digest

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
    # its cache entries are the state's, as the synchronous call's (ai/service.py, the scope)
    assert queued["cache_scope"] == "state:" + digest(b["state"])
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


@pytest.mark.parametrize("running", [False, True])
def test_a_cancelled_job_stops_even_where_the_stop_command_missed_it(
    client: Any, fresh_redis_server: RedisServer, running: bool
) -> None:
    """A DELETE that reads the job as queued while a worker has just taken it off the queue
    cancels it in RQ and sends no stop (no worker is named yet): RQ then ran the whole
    search, its client's place already freed (audit of 2026-11-29: 8 times of 8). The state
    that race leaves is made here: the cancellation marker is set as DELETE sets it, and
    the job is left to a worker, queued (`running` False) or started (True), with no stop
    command. The job sees the marker and stops, and is not retried."""
    import redis

    conn = redis.Redis.from_url(fresh_redis_server.url)
    ttl = client.application.config["JOB_RESULT_TTL_S"]
    with workers(fresh_redis_server):
        blocker = None if running else start(client, body(seed=4, budget=HUGE))
        if blocker:  # the only worker busy: the job waits on the queue
            wait_for(client, blocker, lambda d: d["status"] == "started", "the first job")
        location = start(client, body(budget=HUGE))
        job_id = location.rsplit("/", 1)[1]
        if running:
            wait_for(client, location, lambda d: d["progress"]["iterations"] > 0, "progress")
        conn.set(jobq.CANCELLED_PREFIX + job_id, 1, ex=ttl)
        if blocker:
            assert client.delete(blocker).status_code == 200  # the worker takes the job
        deadline = time.monotonic() + WAIT_S
        while jobq.fetch(conn, job_id).get_status() != "failed":
            assert time.monotonic() < deadline, "the cancelled job still runs"
            time.sleep(0.1)
        # the worker is free: the next job runs
        small = start(client, body(seed=6, budget={"iterations": 40}, **{"async": True}))
        wait_for(client, small, lambda d: d["status"] == "finished", "the next job")
    doc = client.get(location).get_json()
    assert doc["status"] == "cancelled" and doc["attempts"] == 1 and "result" not in doc
    if not running:
        assert doc["progress"]["iterations"] == 0  # it never searched
    conn.close()


def test_a_job_finished_before_its_cancellation_reached_it_shows_its_result(
    client: Any, fresh_redis_server: RedisServer
) -> None:
    """A DELETE arriving as the job finishes sets the marker after the end: the finished
    result was shown `cancelled` for good (audit of 2026-11-29). A cancelled job never
    finishes, so a finished one is shown as it is."""
    import redis

    conn = redis.Redis.from_url(fresh_redis_server.url)
    with workers(fresh_redis_server):
        small = start(client, body(seed=6, budget={"iterations": 40}, **{"async": True}))
        wait_for(client, small, lambda d: d["status"] == "finished", "the job")
    conn.set(jobq.CANCELLED_PREFIX + small.rsplit("/", 1)[1], 1, ex=60)
    doc = client.get(small).get_json()
    assert doc["status"] == "finished" and doc["result"]["stats"]["iterations"] == 40
    conn.close()


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


def test_a_stalled_redis_holds_a_request_one_second_not_six(
    make_app: Any, fresh_redis_server: RedisServer
) -> None:
    """Redis that accepts connections and answers nothing (a stopped process, a full network
    buffer): each GET of a job held its thread for the queue client's 6 s (its read timeout
    had 5 s added for blocking reads, which the HTTP service never makes), so a few random job
    ids made /healthz wait (audit of 2026-11-29). Now 1 s, then 503."""
    c = make_app(REDIS_URL=fresh_redis_server.url).test_client()
    location = "/v1/jobs/00000000-0000-4000-8000-000000000000"
    assert c.get(location).status_code == 404  # connected, the job unknown
    assert fresh_redis_server.proc is not None
    fresh_redis_server.proc.send_signal(signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        r = c.get(location)
        took = time.monotonic() - t0
    finally:
        fresh_redis_server.proc.send_signal(signal.SIGCONT)
    assert r.status_code == 503 and r.get_json()["code"] == "jobs_unavailable"
    assert took < 3.0  # the 1 s timeout, far from the 6 s it was


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


def test_a_queue_redis_that_evicts_keys_is_reported_and_the_cache_can_live_apart(
    make_app: Any,
) -> None:
    """One Redis under allkeys-lru for the position cache and the queue: 6,000 cheap
    suggestions evicted queued jobs, results, quotas, RQ's list of workers (every job then
    refused until the workers restarted) and anti-rollback marks (audit of 2026-11-29). The
    readiness check now says so, and the cache has its own Redis (CACHE_REDIS_URL), where
    its entries go and nothing of the queue's."""
    import redis

    with RedisServer() as evicting, RedisServer(policy="noeviction") as queue_redis:
        with workers(evicting):
            check = make_app(REDIS_URL=evicting.url).test_client().get("/readyz").get_json()
        assert check["checks"]["jobs"]["ok"] is False
        assert "maxmemory-policy allkeys-lru" in check["checks"]["jobs"]["detail"]
        assert "CACHE_REDIS_URL" in check["checks"]["jobs"]["detail"]
        c = make_app(REDIS_URL=queue_redis.url, CACHE_REDIS_URL=evicting.url).test_client()
        with workers(queue_redis):
            assert c.get("/readyz").get_json()["checks"]["jobs"]["ok"] is True
        queue_keys = set(redis.Redis.from_url(queue_redis.url).keys())
        r = c.post("/v1/suggest", json=body(budget={"iterations": 20}))
        assert r.status_code == 200 and r.get_json()["cached"] is False
        assert c.post("/v1/suggest", json=body(budget={"iterations": 20})).get_json()["cached"]
        assert set(redis.Redis.from_url(queue_redis.url).keys()) == queue_keys
        assert redis.Redis.from_url(evicting.url).dbsize() > 0


def test_compose_runs_the_queue_on_a_redis_that_evicts_nothing() -> None:
    """compose.yaml: the queue's Redis (REDIS_URL) under noeviction, the position cache
    (CACHE_REDIS_URL, the referee's and the workers') on another, which evicts."""
    from pathlib import Path

    import yaml

    compose = yaml.safe_load((Path(__file__).parents[2] / "compose.yaml").read_text())
    services = compose["services"]

    def policy(name: str) -> str:
        command = services[name]["command"]
        return str(command[command.index("--maxmemory-policy") + 1])

    assert policy("redis") == "noeviction" and policy("cache") == "allkeys-lru"
    env = services["referee"]["environment"]
    assert env["REDIS_URL"] == "redis://redis:6379/0"
    # the anti-rollback marks on a Redis of their own (deployment audit of 2026-11-30: a flood
    # of jobs filled the queue's, and every move was 503), which evicts nothing either
    assert policy("games") == "noeviction" and env["STATE_ANTI_ROLLBACK"] == "1"
    assert env["STATE_ROLLBACK_REDIS_URL"] == "redis://games:6379/0"
    assert env["STATE_SECRET"].startswith("${STATE_SECRET:?")  # no default: it must be set
    assert env["RATE_LIMIT"].startswith("${RATE_LIMIT:-")
    for name in ("referee", "worker"):
        assert services[name]["environment"]["CACHE_REDIS_URL"] == "redis://cache:6379/0"
    assert "redis://redis:6379/0" in services["worker"]["command"]


def test_redis_failing_right_after_a_job_is_queued_still_answers_202(
    make_app: Any, fresh_redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The job was queued, then Redis went away before the answer was read back from it: a
    500, the job queued with its client's place held and its id told to no one (audit of
    2026-11-29). Now 202 with its Location, as queued."""
    import app.jobs

    real = app.jobs.jobq.enqueue

    def enqueue_then_fail(*args: Any, **kwargs: Any) -> Any:
        job = real(*args, **kwargs)
        fresh_redis_server.stop()
        return job

    c = make_app(REDIS_URL=fresh_redis_server.url, JOB_MAX_MS=60_000).test_client()
    with workers(fresh_redis_server):
        monkeypatch.setattr(app.jobs.jobq, "enqueue", enqueue_then_fail)
        r = c.post("/v1/suggest", json=body(budget=HUGE))
    doc = check_response("POST", "/v1/suggest", r)
    assert r.status_code == 202, doc
    assert doc["status"] == "queued" and r.headers["Location"] == f"/v1/jobs/{doc['id']}"
