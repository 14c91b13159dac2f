"""The task queue: RQ (python-rq) over the Redis the service already uses (docs/scale.md).

What the enqueuing side needs (the HTTP service, app/jobs.py; a tournament or balance run,
ai/tournament.py, ai/balance.py): a connection, the queues, and jobs put on them, waited on,
read and cancelled. The workers that run the jobs, and the queue's own measurements, are
ai/queue.py's.

Two queues:
- `suggest`: long /v1/suggest searches (ai.jobs.run_suggest), listed first by the workers so
  that they take an interactive search before the next tournament game;
- `games`: one tournament or balance game per job (ai.jobs.play_match_game, play_balance_game).

Jobs are serialised as JSON (`rq.serializers.JSONSerializer`), never pickle: arguments and
results are JSON documents. A job names its function (`ai.jobs.…`): this module never imports
what the workers run, and every job read from Redis is an `AllowedJob`, which runs only the
functions of `RUNNABLE`, whatever a job names.

A queue may be bounded (`Bound`, given to `enqueue`): at most so many jobs queued or running
in all, and at most so many per client; past either, `enqueue` raises `QueueFull` and queues
nothing (`reserve` says how that is counted, and what can still overshoot).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Literal

import redis
from redis.commands.core import Script
from rq import Queue, Retry
from rq.command import send_stop_job_command
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Callback, Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

# `CANCELLED_PREFIX + job id` exists once a job is cancelled (DELETE /v1/jobs/{id}): its
# client's place is free, and the job stops when it sees it (ai/jobs.py `Cancelled`)
CANCELLED_PREFIX = "arch:jobs:cancelled:"
SUGGEST_QUEUE = "suggest"
GAMES_QUEUE = "games"
QUEUES = (SUGGEST_QUEUE, GAMES_QUEUE)
SERIALIZER = JSONSerializer
# The functions (and callbacks) of ai/jobs.py a worker runs, by the name a job gives:
# `AllowedJob` imports no other, since RQ imports whatever dotted name a job names
RUNNABLE: frozenset[str] = frozenset(
    f"ai.jobs.{name}"
    for name in (
        "run_suggest",
        "run_review",
        "run_review_part",
        "play_match_game",
        "play_balance_game",
        "play_selfplay_game",
        "noop",
        "notify_done",
    )
)

log = logging.getLogger("ai.taskqueue")


class JobRefused(Exception):
    """A job names a function the workers do not run (`RUNNABLE`)."""


def _runnable(name: str | None) -> bool:
    return name is None or name in RUNNABLE


class AllowedJob(Job):
    """RQ's job, whose function and callbacks are imported only when `RUNNABLE` names them
    (deployment audit of 2026-11-30: whoever could write to the queue's Redis could have a
    worker, or this service cleaning up an abandoned job, run `subprocess.getoutput`). Every
    job this project reads is one: the workers' (ai/queue.py), `queue`, `fetch`, and the
    clean-up of abandoned jobs. Another function fails its job in the work horse; another
    callback is skipped and logged, not raised, since RQ calls callbacks in the worker's own
    loop too (a stopped job's), which an exception would end."""

    @property
    def func(self) -> Any:
        if self.instance is not None or not _runnable(self.func_name):
            raise JobRefused(f"{self.func_name!r} is not a function a worker runs (RUNNABLE)")
        return super().func

    def _allowed(self, name: str | None) -> bool:
        if _runnable(name):
            return True
        log.warning("job %s: callback %r skipped: not one a worker runs", self.id, name)
        return False

    @property
    def success_callback(self) -> Any:
        return super().success_callback if self._allowed(self._success_callback_name) else None

    @property
    def failure_callback(self) -> Any:
        return super().failure_callback if self._allowed(self._failure_callback_name) else None

    @property
    def stopped_callback(self) -> Any:
        return super().stopped_callback if self._allowed(self._stopped_callback_name) else None


class QueueUnavailable(Exception):
    """Redis cannot be reached, or no worker listens on the queue."""


class QueueFull(Exception):
    """A bounded queue refused a job: its client already has `limit` jobs queued or running
    (`scope` "client"), or the queue has `limit` in all (`scope` "total")."""

    def __init__(self, scope: Literal["client", "total"], limit: int) -> None:
        super().__init__(f"{scope} limit of {limit} jobs reached")
        self.scope = scope
        self.limit = limit


@dataclass(frozen=True)
class Bound:
    """The limits one `enqueue` is held to.

    - `client`: who asks (the HTTP service gives the address its rate limiter counts by);
    - `per_client`: jobs of that client queued or running at most;
    - `total`: jobs queued or running on the queue at most, whoever asked;
    - `client_ttl_s`: how long the client's list of jobs outlives its latest job (at least
      as long as one of its jobs can stay queued or running, retries included);
    - `ended_prefix`: a key prefix whose `prefix + job id` existing counts the job as ended
      for its client (the service's cancellation marker: a cancelled running job frees its
      client's place at once, and its place in the total once its worker has stopped it).
    """

    client: str
    per_client: int
    total: int
    client_ttl_s: int
    ended_prefix: str = ""


def connect(url: str, timeout_s: float = 2.0, waits_s: float = 5.0) -> redis.Redis:
    """A client for the queue's Redis: an answer waited for at most `timeout_s`, plus
    `waits_s` for the blocking reads (BLPOP) of the clients that wait on results. The HTTP
    service makes none: its requests give up after `timeout_s` when Redis stalls (each held a
    thread 6 s: audit of 2026-11-29)."""
    return redis.Redis.from_url(
        url,
        socket_timeout=timeout_s + waits_s,
        socket_connect_timeout=timeout_s,
        health_check_interval=0,
    )


def evicting(conn: redis.Redis) -> str | None:
    """The eviction policy of the queue's Redis when it may drop keys to make room (a
    `maxmemory` and a policy other than noeviction), else None. Such a Redis drops queued
    jobs, results, client quotas, RQ's worker list and the referee's anti-rollback marks
    when the position cache fills it (audit of 2026-11-29): the cache belongs on its own
    Redis (CACHE_REDIS_URL), the queue's on noeviction."""
    memory = conn.info("memory")
    policy = str(memory.get("maxmemory_policy", "noeviction"))
    return policy if int(memory.get("maxmemory", 0)) > 0 and policy != "noeviction" else None


def script(lua: str) -> Script:
    """A Lua script made once, its SHA1 with it, run on whichever client a call names
    (`script(lua)(keys=..., args=..., client=conn)`)."""
    return Script(None, lua.encode())  # type: ignore[arg-type]


def queue(conn: redis.Redis, name: str) -> Queue:
    return Queue(name, connection=conn, serializer=SERIALIZER, job_class=AllowedJob)


def fetch(conn: redis.Redis, job_id: str) -> Job:
    """The job (rq.exceptions.NoSuchJobError when unknown or expired)."""
    return AllowedJob.fetch(job_id, connection=conn, serializer=SERIALIZER)


def live_workers(conn: redis.Redis, name: str) -> int:
    """Workers listening on queue `name` whose registration has not expired (a worker killed
    without warning stays listed until its key's TTL ends; the count skips expired ones)."""
    keys = list(conn.smembers(f"rq:workers:{name}"))
    if not keys:
        return 0
    with conn.pipeline() as p:
        for k in keys:
            p.exists(k)
        return sum(1 for alive in p.execute() if alive)


def depth(conn: redis.Redis, name: str) -> tuple[int, int]:
    """(queued, running) on queue `name`: its list's length, and the jobs in its
    StartedJobRegistry whose worker still beats (an abandoned one, not yet re-queued or
    failed by `recover_abandoned`, runs nowhere and is not counted)."""
    with conn.pipeline(transaction=False) as p:
        p.llen(queue_key(name))
        p.zcount(started_key(name), time.time(), "+inf")
        queued, running = p.execute()
    return int(queued), int(running)


def queue_key(name: str) -> str:
    """RQ's list of the jobs waiting on queue `name`."""
    return f"{Queue.redis_queue_namespace_prefix}{name}"


def started_key(name: str) -> str:
    """RQ's StartedJobRegistry of queue `name` (job:execution -> heartbeat deadline)."""
    return str(StartedJobRegistry.key_template.format(name))


def client_key(name: str, client: str) -> str:
    """The sorted set of a client's jobs on queue `name` (job id -> when it was reserved)."""
    return f"arch:queue:{name}:client:{client}"


def reserved_key(name: str) -> str:
    """The sorted set of jobs reserved on queue `name` and not yet queued (id -> when)."""
    return f"arch:queue:{name}:reserved"


RESERVATION_S = 30  # a reservation whose job was never queued (its process died) lapses
# Reserve a place for job ARGV[1], or say why not. Per client: the client's set, pruned of
# jobs that ended (status finished, failed, stopped, canceled; the `ended_prefix` marker) or
# are gone (expired or deleted, unless still reserved), holds fewer than ARGV[2]. In all:
# queued (the list) + running (started, heartbeat alive) + reserved-not-yet-queued is below
# ARGV[3]. Reads the job hashes by name (keys not in KEYS: fine on one Redis, which is all
# RQ supports). Cost: one HGET and one EXISTS per job of this client, at most ARGV[2] (the
# set never grows past the limit), plus O(log n) for the rest, whatever the queue's length.
_RESERVE = """
local now = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - tonumber(ARGV[8]))
local mine = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local st = redis.call('HGET', ARGV[6] .. id, 'status')
  local ended = st == 'finished' or st == 'failed' or st == 'stopped' or st == 'canceled'
  if not st then ended = not redis.call('ZSCORE', KEYS[4], id) end
  if not ended and ARGV[7] ~= '' then ended = redis.call('EXISTS', ARGV[7] .. id) == 1 end
  if ended then redis.call('ZREM', KEYS[1], id) else mine = mine + 1 end
end
if mine >= tonumber(ARGV[2]) then return {1, mine} end
local total = redis.call('LLEN', KEYS[2]) + redis.call('ZCOUNT', KEYS[3], now, '+inf')
  + redis.call('ZCARD', KEYS[4])
if total >= tonumber(ARGV[3]) then return {2, total} end
redis.call('ZADD', KEYS[4], now, ARGV[1])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return {0, mine + 1}
"""


def reserve(conn: redis.Redis, name: str, job_id: str, bound: Bound) -> None:
    """Hold a place on queue `name` for `job_id`, within `bound`, or raise QueueFull (the
    client's limit is checked first: past it, the answer is about what the client can fix).

    One Lua script, so concurrent requests cannot both take the last place: per client,
    nothing overshoots. In all, a few things are counted loosely:
    a job a worker has taken off the list but not yet registered as started (milliseconds)
    is not counted, so the total can overshoot by at most one job per worker dequeuing at
    that instant; a queued job that expired (JOB_QUEUED_TTL_S) still counts until a worker
    pops its id; an abandoned job (its worker stopped beating) is not counted until its
    clean-up re-queues it. (A job being queued is never counted twice: the transaction that
    queues it drops its reservation.)"""
    script = conn.register_script(_RESERVE)
    keys = [client_key(name, bound.client), queue_key(name), started_key(name), reserved_key(name)]
    args: list[str | int] = [
        job_id,
        bound.per_client,
        bound.total,
        repr(time.time()),
        max(1, bound.client_ttl_s),
        Job.redis_job_namespace_prefix,
        bound.ended_prefix,
        RESERVATION_S,
    ]
    outcome, _ = script(keys=keys, args=args)
    if outcome == 1:
        raise QueueFull("client", bound.per_client)
    if outcome == 2:
        raise QueueFull("total", bound.total)


def release(conn: redis.Redis, name: str, job_id: str, client: str) -> None:
    """Give back a reservation whose job was not queued."""
    with conn.pipeline() as p:
        p.zrem(reserved_key(name), job_id)
        p.zrem(client_key(name, client), job_id)
        p.execute()


def cancel(conn: redis.Redis, job: Job) -> None:
    """Take a queued job off its queue, or stop a running one (its worker kills the work
    horse; the job ends `stopped`, never retried)."""
    if job.get_status(refresh=True) != JobStatus.STARTED:
        with suppress(InvalidJobOperation):
            job.cancel()  # also marks a started job canceled, without stopping it: hence below
        job.refresh()  # type: ignore[no-untyped-call]
    if job.worker_name:  # it started (now or on an earlier attempt): stop it wherever it runs
        with suppress(InvalidJobOperation, NoSuchJobError):
            send_stop_job_command(conn, job.id, serializer=SERIALIZER)


def recover_abandoned(conn: redis.Redis, name: str) -> None:
    """Re-queue (retries left) or fail the jobs of queue `name` whose worker stopped beating:
    RQ's own clean-up, which workers otherwise run only every maintenance interval."""
    registry = StartedJobRegistry(name, conn, job_class=AllowedJob, serializer=SERIALIZER)
    registry.cleanup()


def enqueue(
    conn: redis.Redis,
    name: str,
    func: str,
    args: list[Any],
    *,
    job_timeout_s: int,
    queued_ttl_s: int,
    result_ttl_s: int,
    retries: int,
    need_worker: bool = True,
    meta: dict[str, Any] | None = None,
    on_success: Any = None,
    on_failure: Any = None,
    bound: Bound | None = None,
) -> Job:
    """Put one job on queue `name`. Raises QueueUnavailable when Redis cannot be reached or
    (`need_worker`) no worker listens: a job nobody will run is refused, not queued. With a
    `bound`, raises QueueFull past its limits, before anything is queued (`reserve`)."""
    try:
        if need_worker and live_workers(conn, name) == 0:
            raise QueueUnavailable(f"no worker is listening on queue {name!r}")
        job_id = str(uuid.uuid4())  # RQ's own kind of id, chosen here to be reserved first
        if bound is not None:
            reserve(conn, name, job_id, bound)
        try:
            # how long the job may run, wait queued, and keep its result (or its failure)
            times = {"job_timeout": job_timeout_s, "ttl": queued_ttl_s}
            times |= {"result_ttl": result_ttl_s, "failure_ttl": result_ttl_s}
            # one transaction queues the job and drops its reservation: never counted twice
            with conn.pipeline() as pipe:
                job = queue(conn, name).enqueue(
                    func,
                    args=args,
                    job_id=job_id,
                    **times,
                    retry=Retry(max=retries) if retries else None,
                    meta={**(meta or {}), "retries": retries},
                    on_success=on_success,
                    on_failure=on_failure,
                    pipeline=pipe,
                )
                pipe.zrem(reserved_key(name), job_id)
                pipe.execute()
        except redis.RedisError:
            if bound is not None:
                with suppress(redis.RedisError):
                    release(conn, name, job_id, bound.client)
            raise
        return job
    except redis.RedisError as e:
        raise QueueUnavailable(f"Redis unavailable ({type(e).__name__})") from e


GAME_RETRIES = 2  # a game whose worker dies is played again, from its arguments
GAME_TIMEOUT_S = 3600
POLL_S = 1.0  # how often a waiting client looks for failed or abandoned jobs


def run_games(
    url: str, func: str, jobs: Sequence[Sequence[Any]], done: Callable[[], Any]
) -> list[dict[str, Any]]:
    """Play `jobs` (argument lists for `func`, one game each) as jobs on the `games` queue
    and return their results in the order of `jobs`, calling `done` as each one ends.

    One pipeline enqueues them all; each job's success callback pushes its result onto a
    list of this run, which this client waits on (BLPOP), so waiting costs one round trip per
    game. Between results, every POLL_S, it runs RQ's clean-up of abandoned jobs (a worker
    killed mid-game: the game is re-queued, GAME_RETRIES times) and checks for failed jobs,
    which end the run with an error. Interrupted, it cancels the games not yet started."""
    conn = connect(url)
    try:
        if live_workers(conn, GAMES_QUEUE) == 0:
            raise QueueUnavailable(f"no worker is listening on queue {GAMES_QUEUE!r}")
        notify = f"arch:notify:{uuid.uuid4().hex}"
        q = queue(conn, GAMES_QUEUE)
        specs = [
            Queue.prepare_data(
                func,
                args=[list(a)],
                timeout=GAME_TIMEOUT_S,
                result_ttl=GAME_TIMEOUT_S,
                failure_ttl=GAME_TIMEOUT_S,
                ttl=24 * 3600,
                retry=Retry(max=GAME_RETRIES),
                meta={"notify": notify, "retries": GAME_RETRIES},
                on_success=Callback("ai.jobs.notify_done"),
            )
            for a in jobs
        ]
        index = {job.id: i for i, job in enumerate(q.enqueue_many(specs))}
    except redis.RedisError as e:
        raise QueueUnavailable(f"Redis unavailable ({type(e).__name__}: {e})") from e
    results: dict[int, dict[str, Any]] = {}
    last_check = time.monotonic()
    try:
        while len(results) < len(jobs):
            item = conn.blpop([notify], timeout=POLL_S)
            if item is not None:
                msg = json.loads(item[1])
                i = index.get(msg["id"])
                if i is not None and i not in results:
                    results[i] = msg["result"]
                    done()
            if item is None or time.monotonic() - last_check > POLL_S:
                last_check = time.monotonic()
                _check_failed(conn, [j for j, i in index.items() if i not in results])
    finally:
        pending = [j for j, i in index.items() if i not in results]
        if pending:  # interrupted or failed: the rest is not played for nobody
            for jid in pending:
                with suppress(redis.RedisError, NoSuchJobError):
                    cancel(conn, fetch(conn, jid))
        conn.delete(notify)
        conn.close()
    return [results[i] for i in range(len(jobs))]


def _check_failed(conn: redis.Redis, pending: list[str]) -> None:
    recover_abandoned(conn, GAMES_QUEUE)
    with conn.pipeline() as p:
        for jid in pending:
            p.hget(f"rq:job:{jid}", "status")
        statuses = p.execute()
    for jid, st in zip(pending, statuses, strict=True):
        if st is None:
            raise RuntimeError(f"game job {jid} expired or was deleted before it ended")
        if st in (b"failed", b"stopped", b"canceled"):
            job = fetch(conn, jid)
            result = job.latest_result()
            why = failure_code(result.exc_string if result is not None else None)
            last = (result.exc_string or "").strip().splitlines()[-1:] if result else []
            raise RuntimeError(f"game job {jid} {st.decode()} ({why}) {''.join(last)}")


# What a failed job's stored error says, as a stable code for clients (the exception text
# itself never leaves the service).
FAILURES = (
    ("Work-horse terminated unexpectedly", "worker_lost"),
    ("AbandonedJobError", "worker_lost"),
    ("JobTimeoutException", "job_timeout"),
)
FAILURE_DETAILS = {
    "worker_lost": "The worker running this job died (killed, out of memory, machine lost) "
    "on every attempt.",
    "job_timeout": "The job ran past its time limit and was stopped.",
    "job_error": "The job failed with an internal error (see the worker's log).",
}


def failure_code(exc_info: str | None) -> str:
    text = exc_info or ""
    for needle, code in FAILURES:
        if needle in text:
            return code
    return "job_error"


def state(job: Job) -> dict[str, Any]:
    """A job's status as the service reports it: status (queued, started, finished, failed,
    cancelled), attempts so far, and for a failed job a code and a sentence. The status is
    the one `job` was read with (fetched or refreshed by the caller): read again alone, it
    could say finished beside the times of the read before (an `ended_at` of None)."""
    status = job.get_status(refresh=False)
    out: dict[str, Any] = {"attempts": 1 + _retried(job)}
    if status in (JobStatus.CANCELED, JobStatus.STOPPED):
        out["status"] = "cancelled"
    elif status == JobStatus.FINISHED:
        out["status"] = "finished"
    elif status == JobStatus.FAILED:
        result = job.latest_result()
        code = failure_code(result.exc_string if result is not None else job.exc_info)
        out.update(status="failed", error={"code": code, "detail": FAILURE_DETAILS[code]})
    elif status == JobStatus.STARTED:
        out["status"] = "started"
    else:  # queued, deferred, scheduled (a retry waiting for its interval)
        out["status"] = "queued"
    return out


def _retried(job: Job) -> int:
    """How many times RQ re-queued the job after a failure (Retry counts down)."""
    total = job.meta.get("retries")
    if not isinstance(total, int) or job.retries_left is None:
        return 0
    return max(0, total - int(job.retries_left))
