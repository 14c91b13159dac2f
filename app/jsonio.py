"""JSON in and out: strict parsing and deterministic, fast serialization (orjson).

Responses keep the engine's key order, so the same request always yields byte-identical
bodies. Parsing is strict JSON (no NaN/Infinity, nesting at most 1024 levels deep).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"


class BadJSON(Exception):
    """The request body is not one JSON value."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        # orjson refuses integers beyond 64 bits; the standard library writes them
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(body: bytes) -> Any:
    if not body.strip():
        raise BadJSON("The request body is empty; a JSON object is expected.")
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise BadJSON(f"The request body is not valid JSON: {e}.") from None


def json_response(value: Any, status: int = 200, mimetype: str = JSON) -> Response:
    return Response(dumps(value), status=status, mimetype=mimetype)
