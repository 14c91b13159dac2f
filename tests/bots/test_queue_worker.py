"""A worker runs only the functions of `ai.taskqueue.RUNNABLE` (`AllowedJob`), and keeps an
ended job's result, not its arguments, and JOB_KEPT_MAX ended suggestions at most.

Audit of 2026-11-30: RQ imports and calls whatever dotted name a job names, whatever the
serializer, so whoever could write to the queue's Redis ran `subprocess.getoutput` as the
worker's user on every worker. A job naming another function (or an instance) now fails,
a callback outside the list is skipped and logged, and nothing of either is imported."""

from __future__ import annotations

import json
import time
import zlib
from pathlib import Path

import pytest
import redis
from rq import Queue
from rq.job import Callback, Job, JobStatus
from rq.results import Result

from ai.queue import KEPT_KEY, local_workers
from ai.redis_server import RedisServer
from ai.taskqueue import GAMES_QUEUE, SERIALIZER, SUGGEST_QUEUE


def _ended(job: Job, timeout_s: float = 30) -> JobStatus:
    """The job's status once it ended and, a suggestion, once its worker has dropped its
    arguments and counted it among the kept (RQ writes the status first)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = job.get_status(refresh=True)
        kept = job.origin != SUGGEST_QUEUE or job.connection.zscore(KEPT_KEY, job.id)
        if status in (JobStatus.FINISHED, JobStatus.FAILED) and kept:
            return status  # one script writes the kept entry and drops the arguments
        time.sleep(0.05)
    raise AssertionError(f"job {job.id} still {job.get_status()}")


def test_a_worker_runs_no_function_outside_the_list(tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    log = tmp_path / "workers.log"
    with (
        RedisServer(policy="noeviction") as server,
        log.open("wb") as out,
        local_workers(server.url, 1, log=out),
    ):
        conn = redis.Redis.from_url(server.url)
        q = Queue(SUGGEST_QUEUE, connection=conn, serializer=SERIALIZER)
        # the audit's job, as plain RQ writes it: a function of the standard library
        shell = q.enqueue("subprocess.getoutput", f"touch {pwned}")
        # an allowed function with a callback outside the list (print would take its arguments)
        callback = q.enqueue(
            "ai.jobs.noop", 1, on_success=Callback("builtins.print"), result_ttl=60
        )
        allowed = q.enqueue("ai.jobs.noop", 7, result_ttl=60)
        assert _ended(allowed) == JobStatus.FINISHED and allowed.return_value() == 7
        assert _ended(shell) == JobStatus.FAILED
        assert "not a function a worker runs" in str(shell.latest_result().exc_string)
        assert _ended(callback) == JobStatus.FINISHED  # its callback skipped, not called
        conn.close()
    assert not pwned.exists()
    assert f"job {callback.id}: callback 'builtins.print' skipped" in log.read_text()


def test_every_job_this_project_reads_is_held_to_the_list(
    fresh_redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review of the fix: `rq worker` builds its queues with RQ's own job class, whose
    clean-up of an abandoned job calls its failure callback in the worker's own loop, and
    this service cleans up abandoned jobs too (`recover_abandoned`, on reading a job). Every
    queue, fetched job and clean-up is `AllowedJob`'s, and a callback outside the list reads
    as none: raised, it would end the worker's loop (a stopped job's callback runs there)."""
    import ai.taskqueue as jobq
    from ai.queue import Worker

    conn = redis.Redis.from_url(fresh_redis_server.url)
    odd = Callback("builtins.print")
    job = jobq.queue(conn, SUGGEST_QUEUE).enqueue(
        "ai.jobs.noop",
        1,
        on_success=Callback("ai.jobs.notify_done"),
        on_failure=odd,
        on_stopped=odd,
    )
    fetched = jobq.fetch(conn, job.id)
    assert isinstance(fetched, jobq.AllowedJob)
    assert fetched.failure_callback is None and fetched.stopped_callback is None
    assert fetched.success_callback is not None  # ai.jobs.notify_done, on the list
    worker = Worker([Queue(SUGGEST_QUEUE, connection=conn)], connection=conn)  # as `rq worker`
    assert [q.job_class for q in worker.queues] == [jobq.AllowedJob]
    classes: list[type] = []

    class Registry:
        def __init__(self, *args: object, job_class: type, **kwargs: object) -> None:
            classes.append(job_class)

        def cleanup(self) -> None:
            pass

    monkeypatch.setattr(jobq, "StartedJobRegistry", Registry)
    jobq.recover_abandoned(conn, SUGGEST_QUEUE)
    assert classes == [jobq.AllowedJob]
    conn.close()


def _called_with(conn: redis.Redis, job: Job) -> list[object]:
    data = conn.hget(job.key, "data")
    assert isinstance(data, bytes)
    func, _instance, args, _kwargs = json.loads(zlib.decompress(data))
    assert func == job.func_name
    return list(args)


def test_an_ended_job_keeps_its_result_not_its_arguments() -> None:
    """Audit of 2026-11-30: a finished job kept what the client sent (a view, a catalog of up
    to MAX_BODY_BYTES) for JOB_RESULT_TTL_S beside its result, so one client's stream of
    quick jobs filled the queue's Redis in minutes (with the anti-rollback marks, when they
    share it: every game then answered 503). Done or failed for good, a job keeps its
    function's name and its result; a job still to be retried keeps its arguments."""
    with RedisServer(policy="noeviction") as server, local_workers(server.url, 1):
        conn = redis.Redis.from_url(server.url)
        q = Queue(SUGGEST_QUEUE, connection=conn, serializer=SERIALIZER)
        done = q.enqueue("ai.jobs.noop", 7, result_ttl=60)
        refused = q.enqueue("subprocess.getoutput", "x" * 10_000, failure_ttl=60)
        nobody = Queue("nobody", connection=conn, serializer=SERIALIZER)
        waiting = nobody.enqueue("ai.jobs.noop", 8)  # on a queue no worker takes
        assert _called_with(conn, waiting) == [8]  # queued: as sent
        assert _ended(done) == JobStatus.FINISHED and _ended(refused) == JobStatus.FAILED
        assert _called_with(conn, done) == [] and done.return_value() == 7
        assert _called_with(conn, refused) == []
        assert 0 < int(conn.ttl(done.key)) <= 60  # its expiry as it was
        conn.close()


def test_at_most_job_kept_max_ended_jobs_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deployment audit of 2026-11-30, what bounds the queue's Redis: without arguments an
    ended job still keeps some 6.5 KB for JOB_RESULT_TTL_S, and the workers end tens a second.
    Of the ended jobs the JOB_KEPT_MAX latest are kept; an older one is deleted with its
    result (its id then reads as an expired job's)."""
    monkeypatch.setenv("JOB_KEPT_MAX", "3")
    queues = [SUGGEST_QUEUE, GAMES_QUEUE]
    with RedisServer(policy="noeviction") as server, local_workers(server.url, 1, queues=queues):
        conn = redis.Redis.from_url(server.url)
        q = Queue(SUGGEST_QUEUE, connection=conn, serializer=SERIALIZER)
        jobs = []
        for i in range(5):  # one after the other: they end in this order
            jobs.append(q.enqueue("ai.jobs.noop", i, result_ttl=600))
            assert _ended(jobs[-1]) == JobStatus.FINISHED
        assert [bool(conn.exists(j.key)) for j in jobs] == [False, False, True, True, True]
        assert [bool(conn.exists(Result.get_key(j.id))) for j in jobs[:2]] == [False, False]
        assert [j.return_value() for j in jobs[2:]] == [2, 3, 4]
        assert conn.zcard(KEPT_KEY) == 3
        # a game's result travels by its notify list: the games queue keeps its own TTLs
        games = Queue(GAMES_QUEUE, connection=conn, serializer=SERIALIZER)
        played = [games.enqueue("ai.jobs.noop", i, result_ttl=600) for i in range(5)]
        assert [_ended(j) for j in played] == [JobStatus.FINISHED] * 5
        assert [j.return_value() for j in played] == list(range(5))
        assert conn.zcard(KEPT_KEY) == 3 and all(conn.exists(j.key) for j in jobs[2:])
        conn.close()


class _Pickled:
    """What a pickle in Redis would run when unpickled: a file made."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(self.path),))


def test_a_workers_maintenance_unpickles_nothing(tmp_path: Path) -> None:
    """Review of 2026-11-30: `rq worker` builds its queues with its own serializer, pickle by
    default, and RQ's maintenance at a worker's start reads the jobs of their registries with
    it: a pickle in an abandoned job's meta ran on the worker. The worker switches its queues
    to JSON: the abandoned job is failed, nothing of it unpickled. The workers also import
    the jobs' code before they fork, so that a job does not pay for it (18 against 40 ms)."""
    import pickle
    import subprocess
    import sys

    from rq.registry import StartedJobRegistry

    made = tmp_path / "unpickled"
    with RedisServer(policy="noeviction") as server:
        conn = redis.Redis.from_url(server.url)
        job = Job.create(
            "ai.jobs.noop", args=[1], connection=conn, serializer=SERIALIZER, origin=GAMES_QUEUE
        )
        job.set_status(JobStatus.STARTED)
        job.save()
        conn.hset(job.key, "meta", pickle.dumps(_Pickled(made)))
        conn.zadd(StartedJobRegistry.key_template.format(GAMES_QUEUE), {f"{job.id}:x": 1})
        with local_workers(server.url, 1, queues=[GAMES_QUEUE]):
            deadline = time.monotonic() + 30
            while conn.zcard(StartedJobRegistry.key_template.format(GAMES_QUEUE)):
                assert time.monotonic() < deadline, "the abandoned job was never cleaned up"
                time.sleep(0.1)
        conn.close()
    assert not made.exists()
    code = "import sys, ai.queue; print('ai.jobs' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
