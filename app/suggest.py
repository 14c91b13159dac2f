"""POST /v1/suggest: a bot's decision for one seat (ai/service.py, docs/bots.md).

create_app registers `bp` under /v1. Registering the blueprint also (`init_app`):
- attaches the position cache: Redis when app.config["CACHE_REDIS_URL"] is set, an
  in-process LRU otherwise, and adds its readiness check (not critical: without the cache
  /readyz says "degraded"); the bots' loggers ("ai.*") write JSON lines through the app's
  handler;
- answers 503 `model_unavailable` when a game's model file cannot be read and no good
  version of it was read before (a bad file read later leaves the last good one served:
  ai/model.py `model_for`), and adds the models' readiness check;
- caps the searches running at once in this worker process at SUGGEST_CONCURRENCY (default
  1): one more waits up to SUGGEST_WAIT_MS (default 500) for a free slot, then is refused
  with 503 `suggest_busy` and a `Retry-After` of the recent searches' mean length (`Gate`),
  so the other threads of a gthread worker stay free for cheap requests (/healthz,
  /v1/resolve, ...);
- bounds each suggestion by SUGGEST_MAX_MS of wall time (default 20000), the plan included.

A request with `"async": true`, or a budget above the synchronous limit (MAX_ITERATIONS,
MAX_TIME_MS of ai/base.py), is checked the same way and then queued as a background job
instead (202 and /v1/jobs/{id}: app/jobs.py).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app
from flask.blueprints import BlueprintSetupState
from marshmallow import ValidationError, fields, validate, validates_schema

from ai.bots import BOT_NAMES, JOB_MAX_ITERATIONS, JOB_MAX_TIME_MS, LEVELS, SAFETY_MS
from ai.cache import PositionCache, make_cache
from ai.model import ModelUnavailable, evaluation_version
from ai.service import MAX_SEED, PLANS, answer, prepare_request
from app.endpoint import engine_errors, read_body
from app.errors import ApiError
from app.jobs import start_suggest, wants_job
from app.jsonio import json_response
from app.limits import cache_scope
from app.schemas import Envelope, JsonBool, _strict_int
from app.settings import env_int
from engine.games import GAMES, MAX_SEATS, engine
from engine.messages import msg

bp = Blueprint("suggest", __name__)

EXTENSION = "position_cache"
GATE = "suggest_gate"
DEFAULT_CONCURRENCY = 1
DEFAULT_WAIT_MS = 500  # a busy slot's wait: the default level answers in ~0.1 s
FIRST_GUESS_MS = 1000  # a search's length before any has been timed
RECENT_WEIGHT = 0.2  # of the latest search in the mean length (an exponential moving mean)


class Gate:
    """The searches this process may run at once (SUGGEST_CONCURRENCY), and how long they
    have lately taken, for a refusal's Retry-After."""

    def __init__(self, slots: int, wait_ms: int) -> None:
        self.slots, self.wait_s = slots, wait_ms / 1000
        self._free = threading.BoundedSemaphore(slots)
        self.mean_ms = float(FIRST_GUESS_MS)

    @contextmanager
    def slot(self) -> Iterator[None]:
        """A slot, waited for up to SUGGEST_WAIT_MS (503 `suggest_busy` after that); the
        search's length counted in the mean when it ends."""
        if not self._free.acquire(timeout=self.wait_s):
            raise self.busy()
        t0 = time.perf_counter()
        try:
            yield
        finally:
            took = (time.perf_counter() - t0) * 1000
            self.mean_ms += RECENT_WEIGHT * (took - self.mean_ms)  # a race only blurs a mean
            self._free.release()

    def busy(self) -> ApiError:
        """503 `suggest_busy`: every slot held the whole wait (a review's too,
        app/review.py); come back after about one search's length."""
        retry = max(1, math.ceil(self.mean_ms / 1000))
        if self.slots == 1:
            sentence = msg(
                "This server process is already running a search, its only one at a time "
                "(SUGGEST_CONCURRENCY), and it did not end within {wait} ms; searches here "
                "take about {mean} ms: try again in {retry} s.",
                wait=round(self.wait_s * 1000),
                mean=round(self.mean_ms),
                retry=retry,
            )
        else:
            sentence = msg(
                "This server process is already running {limit} searches at once, its most "
                "(SUGGEST_CONCURRENCY), and none ended within {wait} ms; searches here take "
                "about {mean} ms: try again in {retry} s.",
                limit=self.slots,
                wait=round(self.wait_s * 1000),
                mean=round(self.mean_ms),
                retry=retry,
            )
        return ApiError(503, "suggest_busy", sentence, headers={"Retry-After": str(retry)})


class BudgetSchema(Envelope):
    # up to the synchronous limit (ai.bots.MAX_*) a call answers at once; above it, and up to
    # these, it runs as a background job (app/jobs.py)
    iterations = _strict_int(validate=validate.Range(1, JOB_MAX_ITERATIONS))
    time_ms = _strict_int(validate=validate.Range(1, JOB_MAX_TIME_MS))

    @validates_schema
    def _something(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError(msg("A budget needs iterations, time_ms or both."))


class SuggestSchema(Envelope):
    state = fields.Dict()
    view = fields.Dict()  # the answer of /v1/view for `seat`, in place of the state
    # absent: the view's own seat (`view_of`), or the seat the state asks (its pending)
    seat = _strict_int(validate=validate.Range(0, MAX_SEATS - 1))
    level = fields.String(validate=validate.OneOf(list(LEVELS)))
    budget = fields.Nested(BudgetSchema)
    seed = _strict_int(load_default=0, validate=validate.Range(0, MAX_SEED))
    bot = fields.String(load_default="ismcts", validate=validate.OneOf(list(BOT_NAMES)))
    catalog = fields.Dict()
    plan = fields.String(load_default="decision", validate=validate.OneOf(list(PLANS)))
    run_async = JsonBool(data_key="async")  # run as a background job (202, app/jobs.py)

    @validates_schema
    def _level_or_budget(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "level" in data and "budget" in data:
            raise ValidationError(msg("Give either a level or a budget, not both."), "budget")

    @validates_schema
    def _state_or_view(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "state" in data and "view" in data:
            raise ValidationError(msg("Give either a state or a view, not both."), "view")
        if "state" not in data and "view" not in data:
            raise ValidationError(
                msg("Missing data for required field: a state or a view."), "state"
            )


SUGGEST = SuggestSchema()


def init_app(app: Flask) -> PositionCache:
    """Attach the position cache, its readiness check and the concurrency cap (idempotent)."""
    existing: PositionCache | None = app.extensions.get(EXTENSION)
    if existing is not None:
        return existing
    app.config.setdefault(
        "SUGGEST_CONCURRENCY", env_int("SUGGEST_CONCURRENCY", DEFAULT_CONCURRENCY)
    )
    app.config.setdefault("SUGGEST_MAX_MS", env_int("SUGGEST_MAX_MS", SAFETY_MS))
    app.config.setdefault("SUGGEST_WAIT_MS", env_int("SUGGEST_WAIT_MS", DEFAULT_WAIT_MS))
    app.extensions[GATE] = Gate(
        int(app.config["SUGGEST_CONCURRENCY"]), int(app.config["SUGGEST_WAIT_MS"])
    )
    ai_log = logging.getLogger("ai")
    for handler in logging.getLogger("app").handlers:
        # the JSON-lines handler of app/logging.py (not whatever else is attached for now)
        if getattr(handler, "_architectura", False) and handler not in ai_log.handlers:
            ai_log.addHandler(handler)
    cache = make_cache(
        # never REDIS_URL's: the queue's and the anti-rollback marks' Redis evicts nothing, so
        # cached positions (one a seed, anyone's) would fill it and refuse every move
        app.config.get("CACHE_REDIS_URL"),
        ttl_s=int(app.config.get("CACHE_TTL_S", 3600)),
        max_entries=int(app.config.get("CACHE_MAX_ENTRIES", 10_000)),
        max_chars=int(app.config.get("CACHE_MAX_CHARS", 32 << 20)),
    )
    app.extensions[EXTENSION] = cache

    def position_cache_check() -> tuple[str, bool, str]:
        st = cache.status()
        return "position_cache", bool(st["ok"]), f"{st['backend']}: {st['detail']}"

    app.extensions.setdefault("readiness_checks", []).append(position_cache_check)
    app.extensions["readiness_checks"].append(models_check)
    app.register_error_handler(ModelUnavailable, _model_unavailable)
    return cache


def models_check() -> tuple[str, bool, str]:
    """/readyz: every game's model reads (or was read before, and is served)."""
    shown = []
    for game in sorted(GAMES):
        try:
            shown.append(f"{game}: {evaluation_version(engine(game))}")
        except ModelUnavailable:
            return "models", False, f"{game}: unreadable"
    return "models", True, ", ".join(shown)


def _model_unavailable(e: ModelUnavailable) -> Response:
    # the reason names a file path: logged (ai/model.py), not answered
    return ApiError(
        503,
        "model_unavailable",
        msg(
            "The bots' evaluation of {game} cannot be read on this server just now (its "
            "model file is being replaced or is damaged). Try again shortly.",
            game=e.game,
        ),
        headers={"Retry-After": "30"},
    ).response()


@bp.record_once
def _on_register(state: BlueprintSetupState) -> None:
    init_app(cast(Flask, state.app))


@bp.post("/suggest")
def suggest_route() -> Response:
    """The decision a bot would take for `seat` now, with its search statistics."""
    body = read_body(SUGGEST).body
    if wants_job(body):
        return start_suggest(body)
    cache: PositionCache | None = current_app.extensions.get(EXTENSION)
    gate: Gate = current_app.extensions[GATE]
    where = "/view" if "view" in body else "/state"
    with engine_errors(state=where):  # checked before the slot: a bad request holds none
        prepared = prepare_request(body)
    with gate.slot(), engine_errors(state=where):
        out = answer(
            prepared,
            max_ms=int(current_app.config["SUGGEST_MAX_MS"]),
            cache=cache,
            scope=cache_scope(body),
        )
    return json_response(out)
