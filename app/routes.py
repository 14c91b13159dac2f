"""The /v1 endpoints: parse and check the envelope, call the engine, answer JSON.

Each handler is a thin translation; the engine decides everything about the game. Engine
errors become 422 problems whose pointers point into the request body.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, current_app, request
from marshmallow import Schema
from werkzeug.exceptions import RequestEntityTooLarge

import engine.architectura as arch
from app import schemas
from app.errors import ApiError, from_engine, prefixed
from app.jsonio import json_response, loads
from engine.errors import EngineError

bp = Blueprint("v1", __name__, url_prefix="/v1")

JSON_TYPES = ("application/json",)


def read_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON object, checked by `schema` (400 problems otherwise)."""
    mt = request.mimetype
    if mt not in JSON_TYPES and not (mt.startswith("application/") and mt.endswith("+json")):
        raise ApiError(
            415,
            "unsupported_media_type",
            f"Send the body as application/json (got {mt or 'no Content-Type'}).",
        )
    raw = request.get_data(cache=False)  # 413 when Content-Length exceeds the limit
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if request.content_length is None and limit is not None and len(raw) >= limit:
        # a chunked body is cut at the limit by werkzeug: refuse it rather than misread it
        raise RequestEntityTooLarge()
    body = loads(raw)
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_request", "The request body must be a JSON object.", "")
    data: dict[str, Any] = schema.load(body)
    return data


@contextmanager
def engine_errors(**prefixes: str) -> Iterator[None]:
    """Engine errors as 422 problems; `prefixes` say where state/catalog/setup sit."""
    try:
        yield
    except EngineError as e:
        raise from_engine(e, **prefixes) from None


def check_decision_count(decisions: list[Any], minimum: int) -> None:
    limit = int(current_app.config["MAX_DECISIONS"])
    if not minimum <= len(decisions) <= limit:
        raise ApiError(
            400,
            "invalid_request",
            f"decisions must hold {minimum} to {limit} decisions (MAX_DECISIONS), not {len(decisions)}.",
            "/decisions",
        )


@bp.post("/games")
def new_game() -> Response:
    """A-1: a new game's state."""
    setup = read_body(schemas.SETUP)
    with engine_errors(setup=""):
        state = arch.new_game(setup)
    return json_response({"state": state})


@bp.post("/legal-moves")
def legal_moves() -> Response:
    """The pending decision and every option (each accepted unchanged by /v1/resolve)."""
    body = read_body(schemas.STATE)
    with engine_errors():
        out = arch.legal_decisions(body["state"], body.get("catalog"))
    return json_response(out)


@bp.post("/resolve")
def resolve() -> Response:
    """Apply decisions, all or nothing."""
    body = read_body(schemas.RESOLVE)
    check_decision_count(body["decisions"], 1)
    with engine_errors():
        state, events = arch.apply_all(body["state"], body["decisions"], body.get("catalog"))
        if "events_for" in body:
            seat = body["events_for"]
            if seat >= len(state["seats"]):
                raise EngineError(
                    "unknown_seat",
                    f"events_for must be a seat 0..{len(state['seats']) - 1}",
                    "A-1.1",
                    "/events_for",
                )
            events = arch.events_for_seat(events, seat)
    return json_response(
        {
            "state": state,
            "events": events,
            "pending": state["pending"],
            "game_over": state["game_over"],
            "scores": state["scores"],
        }
    )


@bp.post("/validate")
def validate_state() -> Response:
    """Every consistency problem of a state (200 with the list, empty when valid)."""
    body = read_body(schemas.STATE)
    with engine_errors():
        problems = arch.validate(body["state"], body.get("catalog"))
    listed = prefixed(problems, "/state")
    return json_response({"valid": not listed, "problems": listed})


@bp.post("/view")
def view() -> Response:
    """What one seat may see."""
    body = read_body(schemas.VIEW)
    with engine_errors():
        out = arch.player_view(body["state"], body["seat"], body.get("catalog"))
    return json_response(out)


@bp.post("/score")
def score() -> Response:
    """Standings now, or the final scores with the tie-break detail (A-8)."""
    body = read_body(schemas.STATE)
    with engine_errors():
        out = arch.score(body["state"], body.get("catalog"))
    return json_response(out)


@bp.post("/replay")
def replay() -> Response:
    """Settle a dispute: a start (state or set-up) and a decision log."""
    body = read_body(schemas.REPLAY)
    check_decision_count(body["decisions"], 0)
    if "setup" in body:
        start: Any = {"setup": body["setup"]}
        prefixes = {"setup": "/setup", "catalog": "/setup/catalog"}
    else:
        start = body["state"]
        prefixes = {}
    with engine_errors(**prefixes):
        out = arch.replay(start, body["decisions"], body.get("catalog"))
    return json_response(out)


def _catalog_summary(cat: arch.Catalog) -> dict[str, Any]:
    return {
        "id": cat.id,
        "name": cat.name,
        "hash": cat.hash,
        "colours": list(cat.colours),
        "cards": len(cat.cards),
    }


@bp.get("/catalogs")
def catalogs() -> Response:
    """The built-in catalogs."""
    cats = arch.builtin_catalogs()
    return json_response({"catalogs": [_catalog_summary(cats[k]) for k in sorted(cats)]})


@bp.get("/catalogs/<catalog_id>")
def catalog(catalog_id: str) -> Response:
    """One built-in catalog: its summary and the whole catalog document (A-10)."""
    cat = arch.builtin_catalogs().get(catalog_id)
    if cat is None:
        raise ApiError(
            404,
            "unknown_catalog",
            f"No built-in catalog {catalog_id!r}; known: {', '.join(sorted(arch.builtin_catalogs()))}.",
            "",
            "A-10",
        )
    out = _catalog_summary(cat)
    out["catalog"] = cat.to_json()
    return json_response(out)
