"""The task queue's workers: RQ (python-rq) over the Redis the service already uses
(docs/scale.md). The queues themselves, and putting jobs on them, are ai/taskqueue.py's.

Two queues (`suggest`, then `games`), served by any number of `rq worker` processes on any
machine that reaches Redis:

    rq worker -w ai.queue.Worker -u redis://HOST:6379/0 suggest games

`Worker` is RQ's forking worker with three settings fixed here, so that every machine runs
the same thing whatever its command line says:
- jobs are serialised as JSON (`rq.serializers.JSONSerializer`), never pickle: arguments and
  results are JSON documents; the queues the `rq worker` command builds (with its own
  serializer, pickle by default) are switched to it too, since RQ's maintenance reads the
  jobs of their registries with it (review of 2026-11-30: a pickle in an abandoned job's
  meta ran on the worker);
- a job runs only a function of `ai.taskqueue.RUNNABLE` (`AllowedJob`, also the class of the
  queues the `rq worker` command builds, whose clean-up of abandoned jobs calls their failure
  callbacks): RQ imports and calls whatever dotted name a job (or its callback) names, so
  whoever could write to the queue's Redis could run `subprocess.getoutput` on every worker
  (audit of 2026-11-30);
- a job that ended for good (done, or failed with no retry left) in a worker's hands keeps
  its result, not its arguments, and at most `JOB_KEPT_MAX` ended suggestions and reviews
  (the `suggest` queue) are kept, the oldest dropped first (`ended`; a job failed by the
  clean-up of abandoned ones, or cancelled while queued, keeps them until its TTL): the
  arguments are what a client sent (a view, a catalog of up to
  MAX_BODY_BYTES), kept for JOB_RESULT_TTL_S, so one client's stream of quick jobs filled the
  queue's Redis, with the anti-rollback marks when they share it (audit of 2026-11-30);
- the engine, the bots and the catalogs are imported before the worker forks its work horse,
  so a job does not pay for the imports;
- the heartbeat grace after which a job whose worker vanished counts as abandoned is
  `RQ_HEARTBEAT_GRACE_S` (RQ's 60 s by default; the tests lower it with
  `--job-monitoring-interval 1`). An abandoned job is re-queued while it has retries left,
  then failed (RQ's StartedJobRegistry clean-up, run by `ai.taskqueue.recover_abandoned`).

`python -m ai.queue overhead --jobs 200` measures the queue's own cost per job (docs/scale.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import redis
from rq import Worker as RqWorker
from rq.job import Callback, Job
from rq.results import Result

import ai.jobs  # noqa: F401  (imported before the fork: jobs start without imports)
from ai.redis_server import RedisServer
from ai.taskqueue import (
    GAMES_QUEUE,
    QUEUES,
    SERIALIZER,
    SUGGEST_QUEUE,
    AllowedJob,
    connect,
    live_workers,
    queue,
    run_games,
    script,
)
from ai.tournament import run_match
from engine.games import all_engines

DEFAULT_GRACE_S = 60  # RQ's own margin past a heartbeat
log = logging.getLogger("ai.queue")


KEPT_KEY = "referee:jobs:kept:suggest"  # the suggest queue's ended jobs, by when they ended
DEFAULT_KEPT_MAX = 10_000  # some 65 MB of ended suggestions at 6.5 KB each (docs/scale.md)

# An ended job (KEYS[1], its hash; ARGV[2], its id). With a bound (ARGV[3] > 0), the oldest
# kept jobs past it go first, with their results (prefixes ARGV[4], ARGV[5]): DEL is allowed
# in a full Redis where writes are not; then the job joins the kept (KEYS[2], scored by
# Redis's clock, not a worker's). Last, its data without its arguments (ARGV[1]) where the
# job still is.
_ENDED_LUA = """
local bound = tonumber(ARGV[3])
if bound > 0 then
  local over = redis.call('ZCARD', KEYS[2]) + 1 - bound
  if over > 0 then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, over - 1)) do
      redis.call('DEL', ARGV[4] .. id, ARGV[5] .. id)
    end
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  end
  local now = redis.call('TIME')
  redis.call('ZADD', KEYS[2], tonumber(now[1]) + tonumber(now[2]) / 1e6, ARGV[2])
end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'data', ARGV[1]) end
"""
_ENDED = script(_ENDED_LUA)
# where a job and its results are kept, by id: the prefixes the script deletes under
_ENDED_PREFIXES: tuple[str, str] = (
    Job.redis_job_namespace_prefix,
    str(Result.get_key("")),  # type: ignore[no-untyped-call]
)


def ended(conn: redis.Redis, job: Job, kept_max: int) -> None:
    """A job ended for good (module doc): what it was called with is dropped, its function's
    name and result kept, and its key's expiry left as it is (a job already gone is not
    written again); of the suggest queue's ended jobs, the `kept_max` latest are kept, older
    ones deleted (their ids then answer 404 `job_not_found`, as an expired job's; games'
    results travel by their notify list). Never raises: the job's own outcome stands, and
    the worker's loop, which calls this for a stopped or lost job, goes on."""
    try:
        data = zlib.compress(SERIALIZER.dumps((job.func_name, None, [], {})))  # type: ignore[no-untyped-call]
        bound = kept_max if job.origin == SUGGEST_QUEUE else 0
        args: list[bytes | str | int] = [data, job.id, bound, *_ENDED_PREFIXES]
        _ENDED(keys=[job.key, KEPT_KEY], args=args, client=conn)
    except Exception as e:  # a Redis error, a job whose data cannot be read
        log.warning("job %s: its arguments and place among the kept not written (%r)", job.id, e)


class Worker(RqWorker):
    """RQ's forking worker with JSON jobs, only `ai.taskqueue.RUNNABLE`'s functions, and a
    configurable heartbeat grace (module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["serializer"] = SERIALIZER
        kwargs["job_class"] = AllowedJob
        super().__init__(*args, **kwargs)
        for q in self.queues:  # `rq worker` makes them with RQ's job class and serializer
            q.job_class, q.serializer = AllowedJob, self.serializer
        raw = os.environ.get("RQ_HEARTBEAT_GRACE_S", "").strip()
        self.grace_s = int(raw) if raw else DEFAULT_GRACE_S
        raw = os.environ.get("JOB_KEPT_MAX", "").strip()
        self.kept_max = int(raw) if raw else DEFAULT_KEPT_MAX
        if self.kept_max < 1:
            raise ValueError(f"JOB_KEPT_MAX must be a positive integer, not {raw!r}")
        for eng in all_engines().values():
            eng.builtin_catalogs()  # parsed once here, before the fork

    def handle_job_success(self, job: Job, queue: Any, started_job_registry: Any) -> None:
        super().handle_job_success(job, queue, started_job_registry)
        ended(self.connection, job, self.kept_max)

    def handle_job_failure(
        self, job: Job, queue: Any, started_job_registry: Any = None, exc_string: str = ""
    ) -> None:
        again = job.should_retry and self._stopped_job_id != job.id  # as RQ decides it
        super().handle_job_failure(job, queue, started_job_registry, exc_string)
        if not again:
            ended(self.connection, job, self.kept_max)

    def get_heartbeat_ttl(self, job: Job) -> int:
        # RQ's rule (the time to the next heartbeat) with our grace instead of its fixed 60 s
        ttl = int(super().get_heartbeat_ttl(job))
        return max(1, ttl - 60 + self.grace_s)


@contextmanager
def local_workers(
    url: str,
    n: int,
    *,
    queues: list[str] | None = None,
    monitoring_interval_s: int | None = None,
    grace_s: int | None = None,
    log: IO[bytes] | None = None,
    own_session: bool = True,
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`n` `rq worker` processes of this repository on this machine (tests, benchmarks);
    yields them once all are registered, stops them after. `own_session`: each in a session
    of its own (a signal to the caller's group does not reach them; note that Linux's
    autogroup scheduling then gives each worker a CPU share of its own, as a separate machine
    would have, while the caller's local processes share one)."""
    env = {**os.environ, "REDIS_URL": url}
    if grace_s is not None:
        env["RQ_HEARTBEAT_GRACE_S"] = str(grace_s)
    cmd = [sys.executable, "-m", "rq.cli", "worker", "-w", "ai.queue.Worker", "-u", url]
    if monitoring_interval_s is not None:
        cmd += ["--job-monitoring-interval", str(monitoring_interval_s)]
    names = list(queues or QUEUES)
    root = Path(__file__).resolve().parent.parent
    procs = [
        subprocess.Popen(
            [*cmd, "--name", f"local-{os.getpid()}-{i}-{time.monotonic_ns()}", *names],
            cwd=root,
            env=env,
            stdout=log if log is not None else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
            start_new_session=own_session,
        )
        for i in range(n)
    ]
    try:
        conn = connect(url)
        deadline = time.monotonic() + 60
        while live_workers(conn, names[0]) < n:
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise RuntimeError("rq workers did not start")
            time.sleep(0.1)
        conn.close()
        yield procs
    finally:
        # RQ: a first SIGTERM is a warm shut-down (the running job finishes), a second one a
        # cold one (its work horse is killed)
        for _ in range(2):
            for p in procs:
                if p.poll() is None:
                    p.terminate()
            time.sleep(0.3)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


# -- the queue's own cost ------------------------------------------------------------------


def _commands(conn: redis.Redis) -> int:
    info = conn.info("stats")
    return int(info["total_commands_processed"])


def measure_overhead(url: str, jobs: int, idle_commands_per_s: float) -> dict[str, Any]:
    """`jobs` no-op games through `run_games` (the tournament's own path: one pipeline to
    enqueue, retries, the success callback, BLPOP) on one idle worker started by the
    caller: Redis commands per job (the server's counter, less the idle worker's own rate),
    wall time per job (mostly the worker's fork and bookkeeping), and the JSON size and
    round-trip time of a tournament game job's arguments."""
    conn = connect(url)
    before = _commands(conn)
    t0 = time.perf_counter()
    run_games(url, "ai.jobs.noop", [[i] for i in range(jobs)], lambda: None)
    wall = time.perf_counter() - t0
    total = _commands(conn) - before - 1 - idle_commands_per_s * wall
    # what JSONSerializer does (json.dumps, encoded): a game job's arguments and its result
    payload = json.dumps(
        ["ai.jobs.play_match_game", None, [["ismcts:50it", "greedy", 17, True, None, "x"]], {}]
    ).encode()
    t1 = time.perf_counter()
    for _ in range(1000):
        json.loads(json.dumps(json.loads(payload)).encode())
    codec_us = (time.perf_counter() - t1) * 1000
    return {
        "jobs": jobs,
        "redis_commands_per_job": round(total / jobs, 1),
        "wall_ms_per_job": round(wall / jobs * 1000, 2),
        "game_job_payload_bytes": len(payload),
        "json_round_trip_us": round(codec_us, 2),
    }


def measure_latency(url: str, jobs: int) -> dict[str, Any]:
    """One no-op job at a time on an idle worker: latency from enqueue to start, and from
    enqueue to the client seeing the result (a BLPOP on the success callback's list, as
    `run_games` waits)."""
    conn = connect(url)
    q = queue(conn, GAMES_QUEUE)
    notify = f"arch:notify:{uuid.uuid4().hex}"
    start, seen = [], []
    for i in range(jobs):
        t0 = time.perf_counter()
        job = q.enqueue(
            "ai.jobs.noop",
            args=[i],
            result_ttl=600,
            meta={"notify": notify},
            on_success=Callback("ai.jobs.notify_done"),
        )
        assert conn.blpop([notify], timeout=30) is not None
        seen.append((time.perf_counter() - t0) * 1000)
        job.refresh()  # type: ignore[no-untyped-call]
        assert job.started_at is not None and job.enqueued_at is not None
        start.append((job.started_at - job.enqueued_at).total_seconds() * 1000)
    start.sort()
    seen.sort()
    return {
        "start_latency_ms_p50": round(start[jobs // 2], 1),
        "start_latency_ms_p90": round(start[int(jobs * 0.9)], 1),
        "result_seen_ms_p50": round(seen[jobs // 2], 1),
        "result_seen_ms_p90": round(seen[int(jobs * 0.9)], 1),
    }


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def measure_scaling(
    a: str, b: str, games: int, rounds: int, own_session: bool = True
) -> list[dict[str, Any]]:
    """The same match (bots `a` and `b`, `games` games, seed 1) run locally on 1 and 2
    processes and through the queue on 1 and 2 workers, the four interleaved, `rounds`
    times; games per second of each run with the 1-minute load average before and after.
    `own_session=False` keeps the workers in this process's session, hence in the same
    scheduler autogroup as the local pool (the fair comparison on a shared machine)."""
    rows: list[dict[str, Any]] = []
    with RedisServer() as server:
        for r in range(rounds):
            for how in ("local-1", "queue-1", "local-2", "queue-2"):
                kind, n = how.split("-")
                before = _load()
                if kind == "local":
                    m = run_match(a, b, games, processes=int(n), progress=False)
                else:
                    with local_workers(
                        server.url, int(n), queues=[GAMES_QUEUE], own_session=own_session
                    ):
                        m = run_match(a, b, games, progress=False, queue=server.url)
                row = {
                    "own_session": own_session,
                    "round": r,
                    "run": how,
                    "games": m.games,
                    "seconds": round(m.seconds, 2),
                    "games_per_s": round(m.games / m.seconds, 3),
                    "load_before": before,
                    "load_after": _load(),
                    "a_wins": m.a_wins,
                }
                print(json.dumps(row), flush=True)
                rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ai.queue", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("overhead", help="the queue's own cost per job (starts its own Redis)")
    o.add_argument("--jobs", type=int, default=200)
    sc = sub.add_parser("scaling", help="a fixed match locally and on 1 and 2 queue workers")
    sc.add_argument("--a", default="ismcts:200it")
    sc.add_argument("--b", default="greedy")
    sc.add_argument("--games", type=int, default=12)
    sc.add_argument("--rounds", type=int, default=3)
    sc.add_argument(
        "--same-session", action="store_true", help="workers in this session's autogroup"
    )
    args = p.parse_args(argv)
    if args.cmd == "scaling":
        measure_scaling(args.a, args.b, args.games, args.rounds, not args.same_session)
        return 0
    if args.cmd == "overhead":
        with RedisServer() as server, local_workers(server.url, 1, queues=[GAMES_QUEUE]):
            conn = connect(server.url)
            base = _commands(conn)
            time.sleep(3.0)
            idle = (_commands(conn) - base - 1) / 3.0  # the idle worker's own rate
            out = measure_overhead(server.url, args.jobs, idle)
            out.update(measure_latency(server.url, 50))
        out["idle_worker_commands_per_s"] = round(idle, 2)
        out["load_average_1min"] = _load()
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
