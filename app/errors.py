"""Errors as application/problem+json (RFC 9457), with a stable `code`.

Every problem body has `type`, `title`, `status`, `code`, `detail` and `pointer` (a JSON
pointer into the request body; "" is the whole body), plus `clause` when a rule applies,
`index` for the failing decision of a batch, `problems` when there are several, and the
request id. Rule and consistency errors of the engine are 422; malformed requests are 400.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, Response, current_app, g
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from app.jsonio import PROBLEM_JSON, BadJSON, json_response
from engine.errors import CatalogError, EngineError, IllegalDecision, InvalidState, SetupError

log = logging.getLogger("app.errors")

TITLES = {
    400: "Bad request",
    404: "Not found",
    405: "Method not allowed",
    406: "Not acceptable",
    413: "Request body too large",
    415: "Unsupported media type",
    422: "Unprocessable request",
    500: "Internal server error",
    503: "Service unavailable",
}

HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "body_too_large",
    415: "unsupported_media_type",
    500: "internal_error",
}


def escape_token(token: object) -> str:
    """One JSON pointer reference token (RFC 6901)."""
    return str(token).replace("~", "~0").replace("/", "~1")


class ApiError(Exception):
    """An error answered as problem+json."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        pointer: str = "",
        clause: str | None = None,
        problems: list[dict[str, Any]] | None = None,
        index: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.pointer = pointer
        self.clause = clause
        self.problems = problems or []
        self.index = index
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": f"urn:architectura:problem:{self.code}",
            "title": TITLES.get(self.status, "Error"),
            "status": self.status,
            "code": self.code,
            "detail": self.detail,
            "pointer": self.pointer,
        }
        if self.clause:
            out["clause"] = self.clause
        if self.index is not None:
            out["index"] = self.index
        if self.problems:
            out["problems"] = self.problems
        rid = g.get("request_id")
        if rid:
            out["request_id"] = rid
        return out

    def response(self) -> Response:
        resp = json_response(self.body(), self.status, PROBLEM_JSON)
        for k, v in self.headers.items():
            resp.headers[k] = v
        return resp


def prefixed(problems: Iterable[Any], prefix: str) -> list[dict[str, Any]]:
    out = []
    for p in problems:
        d = p.to_json()
        d["pointer"] = prefix + d["pointer"]
        out.append(d)
    return out


def from_engine(
    e: EngineError, *, state: str = "/state", catalog: str = "/catalog", setup: str = ""
) -> ApiError:
    """An engine error as a 422 problem, its pointers rewritten to point into the request
    body: `state`, `catalog` and `setup` say where those documents sit in the body."""
    if isinstance(e, InvalidState):
        prefix = state
    elif isinstance(e, CatalogError):
        prefix = catalog
    elif isinstance(e, SetupError):
        prefix = setup
    else:  # IllegalDecision pointers are already relative to the request body
        prefix = ""
    index = e.index if isinstance(e, IllegalDecision) else None
    return ApiError(
        422,
        e.code,
        e.detail,
        prefix + e.pointer,
        e.clause,
        prefixed(e.problems, prefix),
        index,
    )


def _message_code(message: str) -> str:
    if message.startswith("Missing data for required field"):
        return "missing_field"
    if message.startswith("Unknown field"):
        return "unknown_field"
    return "invalid_field"


def flatten_messages(messages: Any, pointer: str = "") -> list[dict[str, Any]]:
    """marshmallow's nested error messages as a flat list of {code, detail, pointer}."""
    out: list[dict[str, Any]] = []
    if isinstance(messages, str):
        out.append({"code": _message_code(messages), "detail": messages, "pointer": pointer})
    elif isinstance(messages, list):
        for m in messages:
            out.extend(flatten_messages(m, pointer))
    elif isinstance(messages, dict):
        for key, sub in messages.items():
            if key == "_schema":
                out.extend(flatten_messages(sub, pointer))
            elif isinstance(sub, dict) and set(sub) <= {"key", "value"} and sub:
                # marshmallow's Dict field: errors of one entry's key and value
                for part in ("key", "value"):
                    if part in sub:
                        out.extend(flatten_messages(sub[part], f"{pointer}/{escape_token(key)}"))
            else:
                out.extend(flatten_messages(sub, f"{pointer}/{escape_token(key)}"))
    return out


def from_validation(e: ValidationError, prefix: str = "") -> ApiError:
    problems = flatten_messages(e.messages, prefix)
    if not problems:  # pragma: no cover - marshmallow always says something
        problems = [{"code": "invalid_field", "detail": str(e), "pointer": prefix}]
    first = problems[0]
    n = len(problems)
    detail = f"{first['pointer'] or 'the body'}: {first['detail']}"
    if n > 1:
        detail += f" (and {n - 1} more problems)"
    return ApiError(400, "invalid_request", detail, first["pointer"], None, problems)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api(e: ApiError) -> Response:
        return e.response()

    @app.errorhandler(BadJSON)
    def _bad_json(e: BadJSON) -> Response:
        return ApiError(400, "malformed_json", e.detail).response()

    @app.errorhandler(ValidationError)
    def _validation(e: ValidationError) -> Response:
        return from_validation(e).response()

    @app.errorhandler(EngineError)
    def _engine(e: EngineError) -> Response:
        return from_engine(e).response()

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException) -> Response:
        status = e.code or 500
        headers = {k: v for k, v in e.get_headers() if k.lower() == "allow"}
        if status == 413:
            limit = current_app.config.get("MAX_CONTENT_LENGTH")
            detail = f"The request body exceeds the limit of {limit} bytes (MAX_BODY_BYTES)."
        elif status == 404:
            detail = "No such resource."
        elif status == 405:
            allowed = headers.get("Allow", "")
            detail = f"This resource does not accept that method (allowed: {allowed})."
        else:
            detail = e.description or TITLES.get(status, "Error")
        code = HTTP_CODES.get(status, f"http_{status}")
        return ApiError(status, code, detail, headers=headers).response()

    @app.errorhandler(Exception)
    def _unexpected(e: Exception) -> Response:
        # A bug: every bad input must be answered by the handlers above (tests check that
        # no input reaches this one). Logged with its traceback, answered without details.
        log.exception("unhandled error", extra={"request_id": g.get("request_id")})
        return ApiError(
            500, "internal_error", "An unexpected error occurred; it has been logged."
        ).response()
