"""Background searches: POST /v1/suggest answered 202, GET and DELETE /v1/jobs/{id}
(ai/taskqueue.py, ai/jobs.py, docs/scale.md).

A suggestion runs as a job on the RQ queue `suggest` (over REDIS_URL) when the request says
`"async": true` or its budget is above what a synchronous call may have (MAX_ITERATIONS
iterations, MAX_TIME_MS ms; a job may have up to JOB_MAX_ITERATIONS / JOB_MAX_TIME_MS). The
request is checked in full first, by the same code as a synchronous call, so a bad request is
the same 400/422 at once and never a failed job. Then:

- without REDIS_URL the service runs no jobs, a condition no retry changes: 422
  `budget_too_large` for a budget above the synchronous limit (the endpoint asked, the work
  it needs against the limit, and what would fit), 422 `jobs_not_configured` for
  `"async": true` (`without_jobs`); a job id is then 404 `job_not_found`;
- with Redis unreachable, or with no worker listening on the queue, the answer is 503
  `jobs_unavailable` with `Retry-After` (a job nobody would run is not queued);
- when this client already has JOB_QUEUE_PER_CLIENT jobs queued or running (the client as
  the rate limiter counts it: its address after TRUSTED_PROXY_HOPS), 429
  `job_quota_exceeded` with `Retry-After`;
- when the queue holds JOB_QUEUE_MAX jobs queued or running in all, 503 `jobs_queue_full`
  with `Retry-After`;
- otherwise 202 with `Location: /v1/jobs/{id}` and the job's document.

The two limits bound the wait a job can meet (at most JOB_QUEUE_MAX jobs ahead of it) and
stop one client from filling the queue (it holds at most JOB_QUEUE_PER_CLIENT places). They
are counted on Redis, atomically, for every process of the service alike (ai/taskqueue.py
`reserve`). Trade-offs: a client is an address, so clients behind one NAT share a quota, and
one client with many addresses gets many (the total still bounds them all); `Retry-After` is
a fixed QUEUE_RETRY_AFTER_S, since when a place frees depends on jobs' budgets the service
does not predict (a client at its quota knows better: its own jobs' Locations, or DELETE one).
`/readyz`'s `jobs` check reports workers, jobs queued and running, and the limit.

GET /v1/jobs/{id}: status (queued, started, finished, failed, cancelled), attempts, progress
(ISMCTS iterations so far, written by the worker at most every 0.25 s) and, when finished,
`result`: the answer a synchronous call gives. A failed job says why (`error.code`:
worker_lost, job_timeout, job_error). A job whose worker vanished (killed, machine lost) is
found here too: reading a started job runs RQ's clean-up of abandoned jobs first, which
re-queues it (JOB_RETRIES, 1 by default) or fails it with `worker_lost`.

DELETE /v1/jobs/{id} cancels a queued or running job (a running search is stopped: RQ kills
its work horse); a finished or failed job answers 409 `job_finished`.

Jobs expire: one still queued after JOB_QUEUED_TTL_S is dropped, and a finished, failed or
cancelled job is kept JOB_RESULT_TTL_S; after that, 404 `job_not_found`. A job id is a random
128-bit capability: whoever holds it may read or cancel the job.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict
from typing import Any, cast

import redis
from flask import Blueprint, Flask, Response, current_app, url_for
from flask.blueprints import BlueprintSetupState
from rq.exceptions import NoSuchJobError
from rq.job import Job

from ai import taskqueue as jobq
from ai.bots import LEVELS, MAX_ITERATIONS, MAX_TIME_MS
from ai.service import as_view_request, prepare_request
from app.endpoint import engine_errors
from app.errors import ApiError
from app.jsonio import json_response
from app.limits import cache_scope, client_id
from app.settings import env_int
from engine.messages import Msg, msg

bp = Blueprint("jobs", __name__)

EXTENSION = "job_queue"
FUNC = "ai.jobs.run_suggest"
REVIEW_FUNC = "ai.jobs.run_review"  # POST /v1/review over the synchronous limit (app/review.py)
ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")  # RQ: uuid4
RETRY_AFTER_S = 5
QUEUE_RETRY_AFTER_S = 30  # past a job limit: a place frees when a job ends (seconds to minutes)
DEFAULT_QUEUE_MAX = 100  # jobs queued or running in all
DEFAULT_QUEUE_PER_CLIENT = 4  # jobs queued or running per client
# a job's own deadline: its search and plan stop there; RQ kills it a minute later at worst
DEFAULT_JOB_MAX_MS = 900_000


def init_app(app: Flask) -> None:
    """The job settings (environment, then app config) and, with REDIS_URL, a readiness
    check (not critical: without workers the service still answers everything else)."""
    if EXTENSION in app.extensions:
        return
    app.config.setdefault("JOB_MAX_MS", env_int("JOB_MAX_MS", DEFAULT_JOB_MAX_MS))
    app.config.setdefault("JOB_QUEUED_TTL_S", env_int("JOB_QUEUED_TTL_S", 3600))
    app.config.setdefault("JOB_RESULT_TTL_S", env_int("JOB_RESULT_TTL_S", 3600))
    app.config.setdefault("JOB_RETRIES", env_int("JOB_RETRIES", 1))
    app.config.setdefault("JOB_QUEUE_MAX", env_int("JOB_QUEUE_MAX", DEFAULT_QUEUE_MAX))
    app.config.setdefault(
        "JOB_QUEUE_PER_CLIENT", env_int("JOB_QUEUE_PER_CLIENT", DEFAULT_QUEUE_PER_CLIENT)
    )
    url = app.config.get("REDIS_URL")
    app.extensions[EXTENSION] = jobq.connect(url, timeout_s=1.0, waits_s=0) if url else None

    if not url:
        return  # background searches are off by configuration: nothing to report

    def jobs_check() -> tuple[str, bool, str]:
        """Workers listening, and the queue's depth against JOB_QUEUE_MAX: not ok without a
        worker, nor when full (a job posted now would be refused either way)."""
        conn = app.extensions[EXTENSION]
        limit = int(app.config["JOB_QUEUE_MAX"])
        try:
            n = jobq.live_workers(conn, jobq.SUGGEST_QUEUE)
            queued, running = jobq.depth(conn, jobq.SUGGEST_QUEUE)
            policy = jobq.evicting(conn)
        except redis.RedisError as e:
            return "jobs", False, f"redis unavailable ({type(e).__name__})"
        full = queued + running >= limit
        detail = (
            f"{n} worker(s) on queue {jobq.SUGGEST_QUEUE!r}; {queued} queued, {running} running "
            f"of at most {limit}" + (" (full)" if full else "")
        )
        if policy:
            detail += (
                f"; REDIS_URL's Redis evicts keys (maxmemory-policy {policy}): jobs, results, "
                "rate counts (and anti-rollback marks, without STATE_ROLLBACK_REDIS_URL) can be "
                "lost; run it with noeviction, the position cache on its own Redis "
                "(CACHE_REDIS_URL)"
            )
        return "jobs", n > 0 and not full and not policy, detail

    app.extensions.setdefault("readiness_checks", []).append(jobs_check)


@bp.record_once
def _on_register(state: BlueprintSetupState) -> None:
    init_app(cast(Flask, state.app))


def wants_job(body: dict[str, Any]) -> bool:
    """Run as a job: asked for, or a budget above the synchronous limit."""
    large = large_budget(body.get("budget") or {})
    if large and body.get("run_async") is False:
        raise ApiError(
            422,
            "budget_too_large",
            msg(
                "A synchronous suggestion may search at most {iterations} iterations and "
                '{ms} ms; leave out "async": false to run this budget as a job.',
                iterations=MAX_ITERATIONS,
                ms=MAX_TIME_MS,
            ),
            "/budget",
        )
    return bool(body.get("run_async")) or large


def large_budget(budget: dict[str, Any]) -> bool:
    """A suggestion's budget above the synchronous limit."""
    iterations: int = budget.get("iterations", 0)
    time_ms: int = budget.get("time_ms", 0)
    return iterations > MAX_ITERATIONS or time_ms > MAX_TIME_MS


def _unavailable(why: str) -> ApiError:
    """503 `jobs_unavailable` with `Retry-After`: Redis down or no worker yet, which coming
    back can mend (a service without a job store says so otherwise: `without_jobs`)."""
    return ApiError(
        503,
        "jobs_unavailable",
        msg(
            "Background searches cannot start: {why}. A synchronous /v1/suggest (without "
            '"async", budget up to {iterations} iterations and {ms} ms) still works.',
            why=why,
            iterations=MAX_ITERATIONS,
            ms=MAX_TIME_MS,
        ),
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


def _unreadable(e: redis.RedisError) -> ApiError:
    """503 `jobs_unavailable` for reading or cancelling a job while Redis is down: not "cannot
    start" (the job may be running), and nothing a synchronous search would replace."""
    return ApiError(
        503,
        "jobs_unavailable",
        msg(
            "The job store cannot be reached: Redis unavailable ({error}). The job is not "
            "read or changed; ask again after Retry-After.",
            error=type(e).__name__,
        ),
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


def configured() -> bool:
    """This service runs background jobs (it has REDIS_URL)."""
    return current_app.extensions.get(EXTENSION) is not None


def without_jobs(endpoint: str, over: Msg | None, pointer: str) -> ApiError:
    """422 on a service without a job store (no REDIS_URL), where no retry can help: `over`
    says why the request needs a job (its work against the synchronous limit, and what
    would fit: `budget_too_large`); None, that it asked for one (`"async": true`:
    `jobs_not_configured`)."""
    if over is None:
        return ApiError(
            422,
            "jobs_not_configured",
            msg(
                "This service runs no background jobs (REDIS_URL is not set), so {endpoint} "
                'cannot run as one: leave out "async" to have it answered at once, within the '
                "synchronous limit of {iterations} iterations and {ms} ms of search.",
                endpoint=endpoint,
                iterations=MAX_ITERATIONS,
                ms=MAX_TIME_MS,
            ),
            "/async",
        )
    return ApiError(
        422,
        "budget_too_large",
        msg(
            "This service runs no background jobs (REDIS_URL is not set), so {endpoint} is "
            "answered only within the synchronous limit of {iterations} iterations and {ms} "
            "ms of search: {over}",
            endpoint=endpoint,
            iterations=MAX_ITERATIONS,
            ms=MAX_TIME_MS,
            over=over,
        ),
        pointer,
    )


def budget_over(budget: dict[str, Any]) -> Msg:
    """Why a suggestion's budget needs a job, and what fits instead."""
    largest = max(LEVELS, key=lambda k: LEVELS[k].iterations or 0)
    return msg(
        "this budget asks {asked}. Send a budget within the limit, or a level (the largest, "
        "{level}, searches {level_iterations} iterations).",
        asked=work(budget.get("iterations"), budget.get("time_ms")),
        level=largest,
        level_iterations=LEVELS[largest].iterations,
    )


def work(iterations: int | None, time_ms: int | None) -> Msg:
    """A search's work in words: its iterations, its time, or both."""
    if iterations is not None and time_ms is not None:
        return msg("{iterations} iterations and {ms} ms", iterations=iterations, ms=time_ms)
    if time_ms is not None:
        return msg("{ms} ms", ms=time_ms)
    return msg("{iterations} iterations", iterations=iterations)


def _full(e: jobq.QueueFull) -> ApiError:
    """The answer past a job limit: 429 for this client's own, 503 for the service's."""
    retry = {"Retry-After": str(QUEUE_RETRY_AFTER_S)}
    if e.scope == "client":
        return ApiError(
            429,
            "job_quota_exceeded",
            msg(
                "This client already has {limit} background searches queued or running, the "
                "most one client may have (JOB_QUEUE_PER_CLIENT). Try again when one of them "
                "has ended or been cancelled (DELETE on its Location), or in {wait} s.",
                limit=e.limit,
                wait=QUEUE_RETRY_AFTER_S,
            ),
            headers=retry,
        )
    return ApiError(
        503,
        "jobs_queue_full",
        msg(
            "The queue of background searches is full: {limit} are queued or running, "
            "the most the service takes (JOB_QUEUE_MAX). Try again in {wait} s; a "
            'synchronous /v1/suggest (without "async", budget up to {iterations} '
            "iterations and {ms} ms) still works.",
            limit=e.limit,
            wait=QUEUE_RETRY_AFTER_S,
            iterations=MAX_ITERATIONS,
            ms=MAX_TIME_MS,
        ),
        headers=retry,
    )


def _conn() -> redis.Redis:
    conn: redis.Redis | None = current_app.extensions.get(EXTENSION)
    if conn is None:  # the callers ask `configured` first: a request is refused before this
        raise without_jobs(msg("this request"), None, "")
    return conn


def start_suggest(body: dict[str, Any]) -> Response:
    """Check the request as a synchronous call would, then queue it (202) or refuse it
    (503 without Redis or workers or when the queue is full, 429 past this client's quota),
    queueing nothing."""
    with engine_errors(state="/view" if "view" in body else "/state"):
        # the synchronous path's own checks (state or view, seat, decider, catalog,
        # settings, plan) without its search
        prepared = prepare_request(body)
        # queued as the seat's view: the queue never holds what the seat may not see
        queued = as_view_request({k: v for k, v in body.items() if k != "run_async"}, prepared)
        queued["cache_scope"] = cache_scope(body)  # the request's, not its view's
    if not configured():
        budget = body.get("budget") or {}
        over = budget_over(budget) if large_budget(budget) else None
        raise without_jobs("/v1/suggest", over, "/budget" if over is not None else "/async")
    return _enqueue(FUNC, queued)


def start_review(request: dict[str, Any]) -> Response:
    """Queue a review already checked and walked by app/review.py (its tasks made): 202, or
    the same refusals as a suggestion. ai/jobs.py `run_review` splits it over the workers."""
    return _enqueue(REVIEW_FUNC, request)


def _enqueue(func: str, request: dict[str, Any]) -> Response:
    """Queue `func(request)` within the job limits (202), or refuse it, queueing nothing."""
    conn = _conn()
    cfg = current_app.config
    request["max_ms"] = int(cfg["JOB_MAX_MS"])
    timeout_s = int(cfg["JOB_MAX_MS"]) // 1000 + 60
    queued_ttl_s = int(cfg["JOB_QUEUED_TTL_S"])
    retries = int(cfg["JOB_RETRIES"])
    bound = jobq.Bound(
        client=client_id(),
        per_client=int(cfg["JOB_QUEUE_PER_CLIENT"]),
        total=int(cfg["JOB_QUEUE_MAX"]),
        # as long as a job of this client can be waiting or running, every attempt included
        client_ttl_s=(retries + 1) * (queued_ttl_s + timeout_s),
        ended_prefix=jobq.CANCELLED_PREFIX,
    )
    if func == REVIEW_FUNC:  # its helpers are held to the same limits (ai/review_jobs.py)
        request["quota"] = asdict(bound)
    try:
        job = jobq.enqueue(
            conn,
            jobq.SUGGEST_QUEUE,
            func,
            [request],
            job_timeout_s=timeout_s,
            queued_ttl_s=queued_ttl_s,
            result_ttl_s=int(cfg["JOB_RESULT_TTL_S"]),
            retries=retries,
            bound=bound,
        )
    except jobq.QueueUnavailable as e:
        raise _unavailable(str(e)) from None
    except jobq.QueueFull as e:
        raise _full(e) from None
    location = url_for("jobs.get_job", job_id=job.id)
    # read from the job alone (no one holds its id yet to cancel it): Redis failing once the
    # job was queued answered a 500, its quota place held with no one knowing its id (audit
    # of 2026-11-29)
    response = json_response(_shown(job, jobq.state(job)), 202)
    response.headers["Location"] = location
    return response


def _iso(t: dt.datetime | None) -> str | None:
    if t is None:
        return None
    return t.replace(tzinfo=dt.UTC).isoformat(timespec="milliseconds")


def _document(conn: redis.Redis, job: Job) -> dict[str, Any]:
    """The job as GET /v1/jobs/{id} tells it: its state, checked with RQ's clean-up and the
    cancellation marker."""
    st = jobq.state(job)
    if st["status"] == "started":  # its worker may be gone: let RQ's clean-up tell
        jobq.recover_abandoned(conn, jobq.SUGGEST_QUEUE)
        job.refresh()  # type: ignore[no-untyped-call]
        st = jobq.state(job)
    if st["status"] != "finished" and conn.exists(jobq.CANCELLED_PREFIX + job.id):
        # a cancelled job never finishes (ai/jobs.py `Cancelled`): a finished one ended
        # before its cancellation reached it, and its result is real
        st = {"attempts": st["attempts"], "status": "cancelled"}
    return _shown(job, st)


def _shown(job: Job, st: dict[str, Any]) -> dict[str, Any]:
    """The job's document for its state `st` (`jobq.state`, or cancelled), from the job
    alone: no Redis round trip (a job just queued is told so)."""
    progress = job.meta.get("progress") or {"iterations": 0}
    shown: dict[str, Any] = {"iterations": int(progress.get("iterations", 0))}
    if isinstance(progress.get("positions"), dict):  # a review: decisions reviewed so far
        shown["positions"] = {k: int(progress["positions"][k]) for k in ("done", "total")}
    doc: dict[str, Any] = {
        "id": job.id,
        "status": st["status"],
        "attempts": st["attempts"],
        "progress": shown,
        "enqueued_at": _iso(job.enqueued_at),
        "started_at": _iso(job.started_at) if st["status"] != "queued" else None,
        "ended_at": _iso(job.ended_at) if st["status"] in ("finished", "failed") else None,
    }
    if st["status"] == "finished":
        result = job.return_value()
        doc["result"] = result
        doc["progress"]["iterations"] = _iterations(result, doc["progress"]["iterations"])
    if "error" in st:
        doc["error"] = st["error"]
    return doc


def _iterations(result: Any, fallback: int) -> int:
    """Every search iteration of a finished suggestion (a plan's steps too)."""
    try:
        if "seats" in result:  # a review (app/review.py): its searches in all
            return int(result["iterations"])
        steps = result.get("turn") or [{"iterations": result["stats"]["iterations"]}]
        return sum(int(s["iterations"]) for s in steps)
    except (AttributeError, KeyError, TypeError, ValueError):
        return fallback


def _job(conn: redis.Redis, job_id: str) -> Job:
    """A suggestion job by id (404 for anything else: unknown, expired, another kind)."""
    try:
        job = jobq.fetch(conn, job_id)
        if job.func_name not in (FUNC, REVIEW_FUNC):
            raise NoSuchJobError(job_id)
    except NoSuchJobError:
        raise ApiError(
            404,
            "job_not_found",
            msg(
                "No job has this id: it never existed, or it expired (a finished job is kept "
                "{ttl} s at most, fewer when many newer jobs end).",
                ttl=current_app.config["JOB_RESULT_TTL_S"],
            ),
            "",
        ) from None
    return job


def _conn_for(job_id: str) -> redis.Redis:
    """The job store, once `job_id` has the shape of one (404 first: no Redis is needed to
    know that a string is not a job id; and a service without a job store has no job)."""
    if not ID.fullmatch(job_id):
        raise ApiError(
            404,
            "job_not_found",
            msg("No job has this id: send the id of the Location a 202 answer gave."),
            "",
        )
    if not configured():
        raise ApiError(
            404,
            "job_not_found",
            msg("No job has this id: this service runs no background jobs (no REDIS_URL)."),
            "",
        )
    return _conn()


@bp.get("/jobs/<job_id>")
def get_job(job_id: str) -> Response:
    """A background search: its status, progress and, once finished, its result."""
    conn = _conn_for(job_id)
    try:
        return json_response(_document(conn, _job(conn, job_id)))
    except redis.RedisError as e:
        raise _unreadable(e) from None


@bp.delete("/jobs/<job_id>")
def cancel_job(job_id: str) -> Response:
    """Cancel a queued or running search."""
    conn = _conn_for(job_id)
    try:
        job = _job(conn, job_id)
        doc = _document(conn, job)
        if doc["status"] in ("finished", "failed"):
            raise ApiError(
                409,
                "job_finished",
                msg(
                    "This job has already {status}; there is nothing to cancel (it is kept until "
                    "it expires).",
                    status=doc["status"],
                ),
                "",
            )
        # again when already cancelled: a stop the worker missed is sent anew
        ttl = int(current_app.config["JOB_RESULT_TTL_S"])
        conn.set(jobq.CANCELLED_PREFIX + job.id, 1, ex=ttl)
        jobq.cancel(conn, job)
        return json_response(_document(conn, job))
    except redis.RedisError as e:
        raise _unreadable(e) from None
