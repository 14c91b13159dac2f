"""POST /v1/suggest: a bot's decision for one seat (ai/service.py, docs/bots.md).

create_app registers `bp` under /v1. Registering the blueprint also attaches the position
cache (`init_app`): Redis when app.config["REDIS_URL"] is set, an in-process LRU otherwise,
and adds its readiness check (not critical: without the cache /readyz says "degraded").
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app
from flask.blueprints import BlueprintSetupState
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ai.bots import BOT_NAMES, LEVELS, MAX_ITERATIONS, MAX_TIME_MS
from ai.cache import PositionCache, make_cache
from ai.service import MAX_SEED, PLANS, suggest
from app.jsonio import json_response
from app.routes import engine_errors, read_body
from app.schemas import _strict_int

bp = Blueprint("suggest", __name__)

EXTENSION = "position_cache"


class BudgetSchema(Schema):
    iterations = _strict_int(validate=validate.Range(1, MAX_ITERATIONS))
    time_ms = _strict_int(validate=validate.Range(1, MAX_TIME_MS))

    @validates_schema
    def _something(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("A budget needs iterations, time_ms or both.")


class SuggestSchema(Schema):
    state = fields.Dict(required=True)
    seat = _strict_int(required=True, validate=validate.Range(0, 3))
    level = fields.String(validate=validate.OneOf(list(LEVELS)))
    budget = fields.Nested(BudgetSchema)
    seed = _strict_int(load_default=0, validate=validate.Range(0, MAX_SEED))
    bot = fields.String(load_default="ismcts", validate=validate.OneOf(list(BOT_NAMES)))
    catalog = fields.Dict()
    plan = fields.String(load_default="decision", validate=validate.OneOf(list(PLANS)))

    @validates_schema
    def _level_or_budget(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "level" in data and "budget" in data:
            raise ValidationError("Give either a level or a budget, not both.", "budget")


SUGGEST = SuggestSchema()


def init_app(app: Flask) -> PositionCache:
    """Attach the position cache and its readiness check (idempotent)."""
    existing: PositionCache | None = app.extensions.get(EXTENSION)
    if existing is not None:
        return existing
    cache = make_cache(
        app.config.get("REDIS_URL"),
        ttl_s=int(app.config.get("CACHE_TTL_S", 3600)),
        max_entries=int(app.config.get("CACHE_MAX_ENTRIES", 10_000)),
    )
    app.extensions[EXTENSION] = cache

    def position_cache_check() -> tuple[str, bool, str]:
        st = cache.status()
        return "position_cache", bool(st["ok"]), f"{st['backend']}: {st['detail']}"

    app.extensions.setdefault("readiness_checks", []).append(position_cache_check)
    return cache


@bp.record_once
def _on_register(state: BlueprintSetupState) -> None:
    init_app(cast(Flask, state.app))


@bp.post("/suggest")
def suggest_route() -> Response:
    """The decision a bot would take for `seat` now, with its search statistics."""
    body = read_body(SUGGEST)
    budget = body.get("budget") or {}
    cache: PositionCache | None = current_app.extensions.get(EXTENSION)
    with engine_errors():
        out = suggest(
            body["state"],
            body["seat"],
            level=body.get("level"),
            iterations=budget.get("iterations"),
            time_ms=budget.get("time_ms"),
            seed=body["seed"],
            bot=body["bot"],
            cache=cache,
            catalog=body.get("catalog"),
            plan=body["plan"],
        )
    return json_response(out)
