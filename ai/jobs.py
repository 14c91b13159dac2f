"""The functions RQ workers run (ai/taskqueue.py enqueues them by name; docs/scale.md).

Arguments and results are JSON documents (the queue's serializer is JSON). Each function is
the local code path itself, called with the same arguments: a job's answer is the answer
the same call gives without the queue.

- `run_suggest(request)`: `ai.service.suggest` for an asynchronous POST /v1/suggest, with the
  ISMCTS progress (iterations so far) written to the job's meta while it searches;
- `run_review(request)` and `run_review_part(parent_id)`: a review (POST /v1/review, ai/review.py)
  split by decision over the workers (`ai.review_jobs`);
- `play_match_game(args)`: one tournament game (`ai.tournament.play_job`);
- `play_balance_game(args)`: one balance game (`ai.balance.play_job`);
- `notify_done(...)`: an RQ success callback that pushes the result onto the list the
  enqueuing client named in `meta["notify"]`, so that a tournament waits on one BLPOP
  instead of polling every job.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from rq import get_current_job

import ai.bots
from ai import balance, review_jobs, tournament
from ai import taskqueue as jobq
from ai.cache import PositionCache, make_cache
from ai.service import suggest_request

PROGRESS_WRITE_S = 0.25  # at most this often a job's progress is written to Redis
NOTIFY_TTL_S = 24 * 3600  # a notification list nobody reads expires


class Cancelled(Exception):
    """The job was cancelled (DELETE /v1/jobs/{id}): it stops where it is, not retried. The
    worker's stop command may miss a job cancelled as its worker took it off the queue (RQ
    then runs it: audit of 2026-11-29), so the job also looks for its cancellation marker
    when it starts and whenever it writes its progress."""


def stop_if_cancelled(job: Any) -> None:
    """Raise `Cancelled` when `job` (None outside a worker) has been cancelled."""
    if job is not None and job.connection.exists(jobq.CANCELLED_PREFIX + job.id):
        # the worker's own job object: no retry, and the retries it will not make are not
        # counted among its attempts (ai/taskqueue.py `state`)
        unspent = job.retries_left or 0
        job.retries_left = 0
        job.meta["retries"] = int(job.meta.get("retries") or 0) - unspent
        job.save_meta()
        raise Cancelled(job.id)


class _Progress:
    """The iterations a job's searches have done so far, written to its meta now and then
    (`extra`, for a review: other workers' iterations and the decisions reviewed so far)."""

    def __init__(self, extra: Callable[[], tuple[int, dict[str, int]]] | None = None) -> None:
        self.job = get_current_job()
        self.iterations = 0
        self.written = 0.0
        self.extra = extra

    def __call__(self, n: int) -> None:
        self.iterations += n
        now = time.monotonic()
        if now - self.written >= PROGRESS_WRITE_S:
            self.write(now)

    def write(self, now: float | None = None) -> None:
        self.written = time.monotonic() if now is None else now
        stop_if_cancelled(self.job)
        if self.job is not None:
            shown: dict[str, Any] = {"iterations": self.iterations}
            if self.extra is not None:
                more, positions = self.extra()
                shown = {"iterations": self.iterations + more, "positions": positions}
            self.job.meta["progress"] = shown
            self.job.save_meta()  # type: ignore[no-untyped-call]


_CACHE: list[PositionCache | None] = []


def _cache() -> PositionCache | None:
    """The position cache shared with the HTTP service (CACHE_REDIS_URL in the worker's
    environment); none without it (a forked work horse would keep an in-process one for a
    single job), and never on REDIS_URL's Redis (app/suggest.py says why)."""
    if not _CACHE:
        url = os.environ.get("CACHE_REDIS_URL")
        _CACHE.append(make_cache(url) if url else None)
    return _CACHE[0]


def run_suggest(request: dict[str, Any]) -> dict[str, Any]:
    """One suggestion, exactly as POST /v1/suggest computes it (request: the checked body,
    plus `max_ms`, the job's deadline)."""
    progress = _Progress()
    job = progress.job
    stop_if_cancelled(job)
    if job is not None:
        job.meta.update(pid=os.getpid(), progress={"iterations": 0})
        job.save_meta()  # type: ignore[no-untyped-call]
    token = ai.bots.PROGRESS.set(progress)
    try:
        out = suggest_request(
            request, max_ms=request["max_ms"], cache=_cache(), scope=request.get("cache_scope")
        )
    finally:
        ai.bots.PROGRESS.reset(token)
    progress.write()
    return out


def play_match_game(args: list[Any]) -> dict[str, Any]:
    return tournament.play_job(args).to_json()


def play_balance_game(args: list[Any]) -> dict[str, Any]:
    return balance.play_job(args)


def noop(i: int) -> int:
    """A job that does nothing: the queue's own cost (python -m ai.queue overhead)."""
    return i


def notify_done(job: Any, connection: Any, result: Any, *args: Any, **kwargs: Any) -> None:
    """RQ on_success callback: push {"id", "result"} onto meta["notify"] (see module doc)."""
    key = job.meta.get("notify")
    if key:
        with connection.pipeline() as p:
            p.rpush(key, json.dumps({"id": job.id, "result": result}))
            p.expire(key, NOTIFY_TTL_S)
            p.execute()


def run_review(request: dict[str, Any]) -> dict[str, Any]:
    """A review, exactly as POST /v1/review computes it, its decisions shared with helper
    jobs on the other workers (ai/review_jobs.py)."""
    stop_if_cancelled(get_current_job())
    return review_jobs.run(request, _Progress)


def run_review_part(parent_id: str) -> int:
    """A helper of review job `parent_id`: reviews its decisions until none is left."""
    return review_jobs.help_review(parent_id)


def play_selfplay_game(args: list[Any]) -> dict[str, Any]:
    """One self-play game of a training run (ai/train.py)."""
    from ai.train import selfplay_job

    return selfplay_job(args)
