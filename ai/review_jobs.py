"""A review as a background job, split by decision over the RQ workers (docs/scale.md).

POST /v1/review over the synchronous limit queues one job, `ai.jobs.run_review` (the
*parent*), through the same bounded queue as a suggestion (app/jobs.py). The parent:

1. puts the review's tasks (one per reviewed decision: a seat's view, the decision played, a
   seed; ai/review.py) in Redis, and their indices on a to-do list;
2. queues one helper job (`ai.jobs.run_review_part`) per other worker listening on the
   `suggest` queue, at most one per task beyond its own;
3. takes tasks off the to-do list itself (LPOP: each task goes to exactly one taker) and
   reviews them, as each helper does, writing each result to the review's results;
4. once the list is empty, waits for the tasks helpers took; a task whose helper ended (or
   vanished) without a result is reviewed by the parent itself. Results are deterministic
   (an iteration budget, seeds from the task), so a task reviewed twice answers the same.

So N workers review about N times faster (no worker sits waiting while there is a task
left). A helper stops when the list is empty, or within CHECK_S of its parent ending
(cancelled: RQ kills the parent's work horse; failed), its search cut where it is. Everything lives
under `arch:review:<parent id>:` and expires with the job's time limit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import redis
from rq import get_current_job
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from ai import taskqueue as jobq
from ai.bots import PROGRESS, Budget
from ai.review import Decision, assemble, read_catalog, review_all, review_task

PREFIX = "arch:review:"
WAIT_S = 0.1  # how often the parent looks for its helpers' results
CHECK_S = 0.5  # how often a searching helper looks whether its parent still runs
ENDED = {JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED}


def _key(parent: str, part: str) -> str:
    return f"{PREFIX}{parent}:{part}"


def _settings(conn: redis.Redis, parent: str) -> tuple[Budget, Any, float]:
    raw = conn.get(_key(parent, "settings"))
    doc = json.loads(raw) if raw else {}
    return Budget(**doc["budget"]), doc.get("catalog"), float(doc["deadline"])


def _text(raw: object) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


# A task taken off the to-do list and claimed at once (KEYS: todo, claimed, settings), so that
# a retried parent never sees it neither listed nor claimed; and a result put (KEYS: done,
# iterations, settings). The hashes and the counter made here expire with the review's
# settings (EXPIRE on a key not yet made does nothing: they were kept for good in the queue's
# noeviction Redis).
_TAKE_LUA = """
local i = redis.call('LPOP', KEYS[1])
if not i then return false end
redis.call('HSET', KEYS[2], i, ARGV[1])
local t = redis.call('TTL', KEYS[3])
if t > 0 then redis.call('EXPIRE', KEYS[2], t) end
return i
"""
_PUT_LUA = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCRBY', KEYS[2], ARGV[3])
local t = redis.call('TTL', KEYS[3])
if t > 0 then
  redis.call('EXPIRE', KEYS[1], t)
  redis.call('EXPIRE', KEYS[2], t)
end
return 1
"""
_TAKE, _PUT = jobq.script(_TAKE_LUA), jobq.script(_PUT_LUA)


def _take(conn: redis.Redis, parent: str, me: str) -> dict[str, Any] | None:
    """The next task of the review, claimed by job `me` (None: none left)."""
    keys = [_key(parent, part) for part in ("todo", "claimed", "settings")]
    i = _TAKE(keys=keys, args=[me], client=conn)
    if i is None:
        return None
    raw = conn.hget(_key(parent, "tasks"), _text(i))
    return json.loads(raw) if raw else None


def _put(conn: redis.Redis, parent: str, result: dict[str, Any]) -> None:
    keys = [_key(parent, part) for part in ("done", "iterations", "settings")]
    args: list[str | int] = [str(result["index"]), json.dumps(result), int(result["iterations"])]
    _PUT(keys=keys, args=args, client=conn)


def _work(
    conn: redis.Redis,
    parent: str,
    me: str,
    keep_going: Callable[[], bool],
    after: Callable[[], None] | None = None,
) -> int:
    """Review tasks off the to-do list until it is empty (or `keep_going` says stop);
    `after` is called after each result is put."""
    budget, catalog, deadline = _settings(conn, parent)
    n = 0
    while keep_going():
        task = _take(conn, parent, me)
        if task is None:
            break
        catalog = read_catalog(task["view"], catalog)  # once: then it comes back unchanged
        wall = time.time()
        left = max(0.0, deadline - wall)
        _put(conn, parent, review_task(task, budget, catalog, time.perf_counter() + left))
        n += 1
        if after is not None:
            after()
    return n


class ParentEnded(Exception):
    """The review a helper works for was cancelled or ended: its search stops here."""


def help_review(parent: str) -> int:
    """A helper job's whole work (`ai.jobs.run_review_part`): the number of tasks it reviewed.
    While it searches, it looks at its parent every CHECK_S (from the search's progress
    calls) and stops at once when the parent has ended (a cancelled review)."""
    job = get_current_job()
    assert job is not None
    conn = job.connection
    checked = [time.monotonic()]

    def parent_alive() -> bool:
        try:
            st = jobq.fetch(conn, parent).get_status(refresh=True)
        except NoSuchJobError:
            return False
        return st not in ENDED

    def watch(_iterations: int) -> None:
        if time.monotonic() - checked[0] >= CHECK_S:
            checked[0] = time.monotonic()
            if not parent_alive():
                raise ParentEnded(parent)

    if not conn.exists(_key(parent, "settings")):
        return 0
    token = PROGRESS.set(watch)
    try:
        return _work(conn, parent, job.id, parent_alive)
    except ParentEnded:
        return 0
    finally:
        PROGRESS.reset(token)


def _left(conn: redis.Redis, parent: str, tasks: list[dict[str, Any]]) -> list[str]:
    """The tasks a (retried) parent still has to put on the to-do list: those without a
    result, not on the list already, and not taken by a helper (`_collect` looks after
    those). A task the parent's earlier attempt took died with it."""
    done = {_text(k) for k in conn.hkeys(_key(parent, "done"))}
    queued = {_text(k) for k in conn.lrange(_key(parent, "todo"), 0, -1)}
    claimed = conn.hgetall(_key(parent, "claimed")).items()
    helped = {_text(k) for k, v in claimed if _text(v) != parent}
    return [i for i in (str(t["index"]) for t in tasks) if i not in done | queued | helped]


def _publish(conn: redis.Redis, job: Job, request: dict[str, Any], ttl: int) -> None:
    """The review's tasks and settings in Redis, the to-do list, and the helper jobs. A
    retried parent (its worker lost, JOB_RETRIES) keeps the results its first attempt and its
    helpers put, so that no decision is searched, counted or helped twice; its deadline
    starts again with the attempt, as RQ's time limit does."""
    tasks = request["tasks"]
    deadline = time.time() + int(request["max_ms"]) / 1000
    settings = {
        "budget": request["budget"],
        "catalog": request.get("catalog"),
        "deadline": deadline,
    }
    retried = bool(conn.exists(_key(job.id, "settings")))
    todo = _left(conn, job.id, tasks) if retried else [str(t["index"]) for t in tasks]
    with conn.pipeline() as p:
        p.set(_key(job.id, "settings"), json.dumps(settings), ex=ttl)
        if tasks and not retried:
            p.hset(_key(job.id, "tasks"), mapping={str(t["index"]): json.dumps(t) for t in tasks})
        if todo:
            p.rpush(_key(job.id, "todo"), *todo)
        for part in ("tasks", "todo", "done", "claimed", "iterations"):
            p.expire(_key(job.id, part), ttl)
        p.execute()
    # each helper takes a place of its client's jobs, as the review did (`quota`, app/jobs.py):
    # one review runs on no more workers than the client may keep busy with suggestions
    quota = request.get("quota")
    bound = jobq.Bound(**quota) if isinstance(quota, dict) else None
    waiting = int(conn.llen(_key(job.id, "todo")))
    helpers = min(waiting - 1, jobq.live_workers(conn, jobq.SUGGEST_QUEUE) - 1)
    for _ in range(max(0, helpers)):
        try:
            jobq.enqueue(
                conn,
                jobq.SUGGEST_QUEUE,
                "ai.jobs.run_review_part",
                [job.id],
                job_timeout_s=ttl,
                queued_ttl_s=ttl,
                result_ttl_s=60,
                retries=0,
                need_worker=False,
                bound=bound,
            )
        except jobq.QueueFull:
            break  # the review's own worker (and the helpers queued) do the rest


def _collect(conn: redis.Redis, parent: str, total: int, progress: Any) -> list[dict[str, Any]]:
    """Wait for every task's result; review itself a task whose taker ended without one."""
    done_key, claimed_key = _key(parent, "done"), _key(parent, "claimed")
    budget, catalog, deadline = _settings(conn, parent)
    while conn.hlen(done_key) < total:
        progress.write()
        done = set(conn.hkeys(done_key))
        for idx, raw_taker in conn.hgetall(claimed_key).items():
            taker = _text(raw_taker)
            if idx in done or taker == parent:
                continue
            try:
                ended = jobq.fetch(conn, taker).get_status(refresh=True) in ENDED
            except NoSuchJobError:
                ended = True
            if ended:  # it took the task and ended (or vanished) without its result
                raw = conn.hget(_key(parent, "tasks"), idx)
                if raw is not None:
                    left = max(0.0, deadline - time.time())
                    result = review_task(
                        json.loads(raw), budget, catalog, time.perf_counter() + left
                    )
                    _put(conn, parent, result)
        time.sleep(WAIT_S)
    return [json.loads(v) for v in conn.hvals(done_key)]


def run(request: dict[str, Any], progress_for: Callable[..., Any]) -> dict[str, Any]:
    """The parent job (module doc); without a job (called directly), every task here."""
    tasks = request["tasks"]
    job = get_current_job()
    if job is None:
        results = review_all(tasks, Budget(**request["budget"]), request.get("catalog"))
    else:
        conn = job.connection
        ttl = int(request["max_ms"]) // 1000 + 600
        total = len(tasks)

        def extra() -> tuple[int, dict[str, int]]:
            helped = int(conn.get(_key(job.id, "iterations")) or 0)
            return helped, {"done": int(conn.hlen(_key(job.id, "done"))), "total": total}

        # shown: every result's iterations (the counter) + the parent's search under way
        progress = progress_for(extra)
        _publish(conn, job, request, ttl)

        def searched() -> None:
            progress.iterations = 0

        token = PROGRESS.set(progress)
        try:
            _work(conn, job.id, job.id, lambda: True, searched)
        finally:
            PROGRESS.reset(token)
        results = _collect(conn, job.id, total, progress)
        progress.write()
    by_index = {t["index"]: t for t in tasks}
    walk = [
        Decision(r["index"], r["seat"], r["options"], by_index.get(r["index"]))
        for r in request["walk"]
    ]
    return {**request["head"], **assemble(walk, results, int(request["seats"]))}
