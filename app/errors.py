"""Errors as application/problem+json (RFC 9457), with a stable `code`.

Every problem body has `type`, `title`, `status`, `code`, `detail` and `pointer` (a JSON
pointer into the request body; "" is the whole body), plus `clause` when a rule applies,
`index` for the failing decision of a batch, `problems` when there are several, and the
request id. Rule and consistency errors of the engine are 422; malformed requests are 400.

Answers are bounded whatever the input: `problems` lists at most MAX_PROBLEMS (and at most
PROBLEMS_BUDGET bytes of them), and `problems_total` counts them all when some are left
off; details are cut at MAX_DETAIL characters, and a pointer longer than MAX_POINTER names
its nearest ancestor that fits (still a pointer into the body). An answer thus stays under
64 KiB.
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import orjson
from flask import Flask, Response, current_app, g, has_app_context, has_request_context
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, PreconditionFailed

from app import current
from app.i18n import answer_language, translate
from app.jsonio import PROBLEM_JSON, BadJSON, json_response
from engine.errors import (
    MAX_PROBLEMS,
    MORE,
    CatalogError,
    EngineError,
    IllegalDecision,
    InvalidState,
    SetupError,
    pointer_token,
)
from engine.messages import Msg, msg

log = logging.getLogger("app.errors")

TITLES: dict[int, Msg] = {
    400: msg("Bad request"),
    403: msg("Forbidden"),
    404: msg("Not found"),
    405: msg("Method not allowed"),
    406: msg("Not acceptable"),
    408: msg("Request timeout"),
    409: msg("Conflict"),
    412: msg("Precondition failed"),
    413: msg("Request body too large"),
    414: msg("URI too long"),
    415: msg("Unsupported media type"),
    416: msg("Range not satisfiable"),
    417: msg("Expectation failed"),
    422: msg("Unprocessable request"),
    429: msg("Too many requests"),
    431: msg("Request header fields too large"),
    500: msg("Internal server error"),
    501: msg("Not implemented"),
    503: msg("Service unavailable"),
}

ERROR_TITLE = msg("Error")  # of any other status

# the codes of werkzeug's HTTP errors; any other status werkzeug may raise is `http_error`
HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    412: "precondition_failed",
    413: "body_too_large",
    415: "unsupported_media_type",
    416: "range_not_satisfiable",
    500: "internal_error",
}
OTHER_HTTP_CODE = "http_error"
# the headers of werkzeug's HTTP errors that an answer keeps (405's Allow, 416's Content-Range
# naming the file's length, Retry-After)
HTTP_HEADERS = ("allow", "content-range", "retry-after")
# where a 400's detail says its first problem is when that is the whole body
WHOLE_BODY = msg("the body")

escape_token = pointer_token

MAX_DETAIL = 400  # characters of a detail in an answer
MAX_POINTER = 400  # characters of a pointer in an answer
PROBLEMS_BUDGET = 40 * 1024  # bytes of listed problems in one answer


def cut_detail(detail: str) -> str:
    return detail if len(detail) <= MAX_DETAIL else detail[: MAX_DETAIL - 3] + "..."


def cut_pointer(pointer: str) -> str:
    """The pointer, or its nearest ancestor of at most MAX_POINTER characters (a key of
    megabytes is not echoed back; "" names the whole body)."""
    if len(pointer) <= MAX_POINTER:
        return pointer
    return pointer[: max(pointer.rfind("/", 0, MAX_POINTER + 1), 0)]


def bounded(problems: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """The first problems of a list, within MAX_PROBLEMS and PROBLEMS_BUDGET, translated to
    `lang` and cut."""
    out: list[dict[str, Any]] = []
    size = 0
    for p in problems[:MAX_PROBLEMS]:
        item = dict(
            p,
            detail=cut_detail(translate(p.get("detail", ""), lang)),
            pointer=cut_pointer(str(p.get("pointer", ""))),
        )
        size += len(orjson.dumps(item)) + 1
        if size > PROBLEMS_BUDGET:
            break
        out.append(item)
    return out


# Refusals that leave a body unread or half read on the connection: the server closes it
# after the answer, and the answer says so (`Connection: close`, RFC 9112, 9.6). WSGI
# forbids the app that header (PEP 3333); the flag in the environ asks gunicorn's worker
# for it (app/server_errors.py `closing`).
CLOSES_CONNECTION = frozenset({"body_too_large", "body_timeout", "malformed_body"})
CLOSE_CONNECTION = "referee.close_connection"


class ApiError(Exception):
    """An error answered as problem+json."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: Msg,
        pointer: str = "",
        clause: str | None = None,
        problems: list[dict[str, Any]] | None = None,
        index: int | None = None,
        headers: Mapping[str, str] | None = None,
        problems_total: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
        self.pointer, self.clause = pointer, clause  # where in the body, and the rule
        self.problems = problems or []
        self.problems_total = max(problems_total or 0, len(self.problems))
        self.index = index
        self.headers = dict(headers or {})

    def body(self, lang: str = "en") -> dict[str, Any]:
        """The problem, its sentences in `lang` (app/i18n.py)."""
        out: dict[str, Any] = {
            "type": f"urn:card-referee:problem:{self.code}",
            "title": translate(TITLES.get(self.status, ERROR_TITLE), lang),
            "status": self.status,
            "code": self.code,
            "detail": cut_detail(translate(self.detail, lang)),
            "pointer": cut_pointer(self.pointer),
        }
        if self.clause:
            out["clause"] = self.clause
        if self.index is not None:
            out["index"] = self.index
        if self.problems:
            out["problems"] = bounded(self.problems, lang)
            if self.problems_total > len(out["problems"]):
                out["problems_total"] = self.problems_total
        rid = g.get("request_id") if has_app_context() else None  # none: gunicorn's refusals
        if rid:
            out["request_id"] = rid
        return out

    def response(self) -> Response:
        if self.code in CLOSES_CONNECTION and has_request_context():
            current.environ()[CLOSE_CONNECTION] = True
        resp = json_response(self.body(answer_language()), self.status, PROBLEM_JSON)
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
        problems_total=e.problems_total,
    )


def _message_code(message: str) -> str:
    if message.startswith("Missing data for required field"):
        return "missing_field"
    if message.startswith("Unknown field"):
        return "unknown_field"
    return "invalid_field"


def flatten_messages(messages: Any, pointer: str = "") -> Iterator[dict[str, Any]]:
    """marshmallow's nested error messages as a flat sequence of {code, detail, pointer}
    (lazily: only the problems listed are built; the others are only counted)."""
    if isinstance(messages, str):
        yield {"code": _message_code(messages), "detail": messages, "pointer": pointer}
    elif isinstance(messages, list):
        for m in messages:
            yield from flatten_messages(m, pointer)
    elif isinstance(messages, dict):
        for key, sub in messages.items():
            if key == "_schema":
                yield from flatten_messages(sub, pointer)
            elif isinstance(sub, dict) and set(sub) <= {"key", "value"} and sub:
                # marshmallow's Dict field: errors of one entry's key and value
                for part in ("key", "value"):
                    if part in sub:
                        yield from flatten_messages(sub[part], f"{pointer}/{escape_token(key)}")
            else:
                yield from flatten_messages(sub, f"{pointer}/{escape_token(key)}")


def from_validation(e: ValidationError, prefix: str = "") -> ApiError:
    found = flatten_messages(e.messages, prefix)
    problems = list(itertools.islice(found, MAX_PROBLEMS))
    if not problems:  # pragma: no cover - marshmallow always says something
        problems = [{"code": "invalid_field", "detail": str(e), "pointer": prefix}]
    n = len(problems) + sum(1 for _ in found)
    first = problems[0]
    where = first["pointer"] or WHOLE_BODY
    detail = msg("{where}: {why}", where=where, why=first["detail"])
    if n > 1:
        detail = msg(MORE, problem=detail, more=n - 1)
    return ApiError(
        400, "invalid_request", detail, first["pointer"], None, problems, problems_total=n
    )


def http_detail(status: int, allowed: str) -> Msg:
    """The detail of one of werkzeug's HTTP errors, a catalog message like every other
    (werkzeug's own descriptions are English only); `allowed`: the Allow header of a 405."""
    if status == 404:
        return msg("No such resource: send the request to one of the paths of /openapi.yaml.")
    if status == 405 and allowed:
        return msg(
            "This resource does not accept that method (allowed: {allowed}).", allowed=allowed
        )
    if status == 412:
        return msg("The resource does not match the request's If-Match header.")
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return msg(
            "The request body exceeds the limit of {limit} bytes (MAX_BODY_BYTES).", limit=limit
        )
    if status == 416:
        return msg(
            "The requested range lies outside the resource: send one range "
            "`bytes=first-last` within its length (Content-Range), or no Range header."
        )
    return msg("This request cannot be answered (HTTP status {status}).", status=status)


# one range of bytes, `first-last` (first <= last), `first-` or `-suffix` (RFC 9110, 14.1.2)
ONE_RANGE = re.compile(r"bytes=(?:(\d{1,18})-(\d{0,18})|-\d{1,18})")


def served_range(header: str) -> bool:
    """Whether a Range header is one werkzeug should serve (or refuse, 416, when it lies
    outside the file): one well-formed range of bytes. Any other (another unit, several
    ranges, a malformed one) is ignored, the whole file answered (RFC 9110, 14.2)."""
    found = ONE_RANGE.fullmatch(header.strip())
    return found is not None and not (found[2] and int(found[1]) > int(found[2]))


def _refuse_failed_preconditions(app: Flask) -> None:
    """werkzeug answers a static file whose If-Match fails with the file itself under status
    412 (`make_conditional` sets the status, raises nothing): raised here as the error it is,
    so that it is answered as a problem like every other. A Range it should not read is
    taken away first (`served_range`; werkzeug answered `items=0-1` or two ranges with a
    416: audit of 2026-11-29)."""
    static = app.view_functions.get("static")
    if static is None:  # pragma: no cover - Flask(__name__) always has its static route
        return

    @functools.wraps(static)
    def _static(**kwargs: Any) -> Any:
        environ = current.environ()
        asked = environ.get("HTTP_RANGE")
        if asked is not None and not served_range(asked):
            del environ["HTTP_RANGE"]
        resp = static(**kwargs)
        if getattr(resp, "status_code", None) == 412:
            raise PreconditionFailed()
        return resp

    app.view_functions["static"] = _static


def register_error_handlers(app: Flask) -> None:
    _refuse_failed_preconditions(app)

    @app.errorhandler(ApiError)
    def _api(e: ApiError) -> Response:
        return e.response()

    @app.errorhandler(BadJSON)
    def _bad_json(e: BadJSON) -> Response:
        return ApiError(400, e.code, e.detail).response()

    @app.errorhandler(ValidationError)
    def _validation(e: ValidationError) -> Response:
        return from_validation(e).response()

    @app.errorhandler(EngineError)
    def _engine(e: EngineError) -> Response:
        return from_engine(e).response()

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException) -> Response:
        status = e.code or 500
        headers = {k: v for k, v in e.get_headers() if k.lower() in HTTP_HEADERS}
        code = HTTP_CODES.get(status, OTHER_HTTP_CODE)
        detail = http_detail(status, headers.get("Allow", ""))
        return ApiError(status, code, detail, headers=headers).response()

    @app.errorhandler(Exception)
    def _unexpected(e: Exception) -> Response:
        # A bug: every bad input must be answered by the handlers above (tests check that
        # no input reaches this one). Logged with its traceback, answered without details.
        log.exception("unhandled error", extra={"request_id": g.get("request_id")})
        return ApiError(
            500, "internal_error", msg("An unexpected error occurred; it has been logged.")
        ).response()
