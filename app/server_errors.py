"""gunicorn's own refusals as problem+json, like every other error of the referee.

gunicorn answers some requests before the application sees them: a request line over
`limit_request_line`, more than `limit_request_fields` headers, a malformed request line,
header or HTTP version, an unknown transfer coding. Its workers write those answers in
`handle_error` as a fixed HTML page, and it has no setting for another body
(benoitc/gunicorn#993). gunicorn.conf.py runs these workers instead, whose `handle_error`
answers in the app's shape: `type`, `title`, `status`, `code`, `detail` (what gunicorn found,
then what to send instead) and `pointer`. The request's headers were not read, so the answer
is in English.

A malformed chunked body the app did not read (a GET, a 404) is found only when gunicorn
drains it, after the answer went out: then nothing more is written, the connection is closed
(a second answer would be read as the next request's). A body the app reads is refused by
the app (app/body_timeout.py, `malformed_body`).
"""

from __future__ import annotations

import socket
from typing import Any, NamedTuple

import orjson
from gunicorn import util
from gunicorn.http.errors import (
    ChunkMissingTerminator,
    ExpectationFailed,
    InvalidChunkExtension,
    InvalidChunkSize,
    LimitRequestHeaders,
    LimitRequestLine,
    ParseException,
    UnsupportedTransferCoding,
)
from gunicorn.workers.gthread import ThreadWorker as GunicornThreadWorker
from gunicorn.workers.sync import SyncWorker as GunicornSyncWorker

from app.errors import TITLES, cut_detail
from app.i18n import translate
from app.jsonio import PROBLEM_JSON


class Refusal(NamedTuple):
    status: int
    code: str
    instead: str  # what to send instead; {limits} is the server's


LIMITS = "at most {line} bytes of request line and {fields} headers of {size} bytes each"
MALFORMED = Refusal(
    400,
    "malformed_request",
    "send a request line `METHOD /path HTTP/1.1`, then headers `Name: value` with token "
    "names, each line ended by CRLF (RFC 9112, 3 and 5)",
)
BY_ERROR: tuple[tuple[type[Exception], Refusal], ...] = (
    (LimitRequestLine, Refusal(414, "request_line_too_long", "send a shorter one ({limits})")),
    (
        LimitRequestHeaders,
        Refusal(431, "headers_too_large", "send fewer or shorter headers ({limits})"),
    ),
    (
        UnsupportedTransferCoding,
        Refusal(
            501,
            "unsupported_transfer_coding",
            "send the body with a Content-Length, or with `Transfer-Encoding: chunked` alone",
        ),
    ),
    (
        ExpectationFailed,
        Refusal(417, "expectation_failed", "send no Expect header but `Expect: 100-continue`"),
    ),
)
INTERNAL = Refusal(500, "internal_error", "try again; if it persists, report it")
# raised while the unread body of a request already answered is drained (module doc)
AFTER_ANSWER = (InvalidChunkSize, ChunkMissingTerminator, InvalidChunkExtension)
TITLES_EN = {status: translate(title, "en") for status, title in TITLES.items()} | {
    414: "URI too long",
    417: "Expectation failed",
    431: "Request header fields too large",
}
LOGGED = 200  # characters of gunicorn's description in a log line (it quotes the client)


def refusal_for(exc: BaseException) -> Refusal:
    for cls, refusal in BY_ERROR:
        if isinstance(exc, cls):
            return refusal
    return MALFORMED if isinstance(exc, ParseException) else INTERNAL


def problem(refusal: Refusal, found: str, limits: str) -> bytes:
    """The whole HTTP answer: `found` is gunicorn's description of what it refused (it
    quotes the client's bytes, so it is cut)."""
    instead = refusal.instead.format(limits=limits)
    detail = f"{found.rstrip('.')}: {instead}." if found else f"{instead}."
    title = TITLES_EN.get(refusal.status, "Error")
    body = orjson.dumps(
        {
            "type": f"urn:card-referee:problem:{refusal.code}",
            "title": title,
            "status": refusal.status,
            "code": refusal.code,
            "detail": cut_detail(detail[:1].upper() + detail[1:]),
            "pointer": "",
        }
    )
    head = (
        f"HTTP/1.1 {refusal.status} {title}\r\nConnection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
        "X-Content-Type-Options: nosniff\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ProblemAnswers:
    """A gunicorn worker's `handle_error`, answering problem+json (module doc); after it the
    worker closes the connection."""

    cfg: Any
    log: Any

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: BaseException) -> None:
        found = str(exc)
        logged = repr(found[:LOGGED])  # one line, however many bytes the client sent
        if isinstance(exc, AFTER_ANSWER):
            self.log.info("Closed after its answer: the unread body is malformed: %s", logged)
            return
        refusal = refusal_for(exc)
        if refusal is INTERNAL:
            self.log.exception("Error handling request")
        else:
            ip = addr[0] if addr else ""
            self.log.warning("Invalid request from ip=%s: %s", ip, logged)
        cfg = self.cfg
        limits = LIMITS.format(
            line=cfg.limit_request_line,
            fields=cfg.limit_request_fields,
            size=cfg.limit_request_field_size,
        )
        try:
            util.write_nonblock(
                client, problem(refusal, "" if refusal is INTERNAL else found, limits)
            )
        except Exception:
            self.log.debug("Failed to send error message.")


class ThreadWorker(ProblemAnswers, GunicornThreadWorker):  # type: ignore[misc]
    """gunicorn's gthread worker, its refusals as problems."""


class SyncWorker(ProblemAnswers, GunicornSyncWorker):  # type: ignore[misc]
    """gunicorn's sync worker, its refusals as problems."""


# GUNICORN_WORKER_CLASS -> the worker run (any other class is gunicorn's own, HTML pages)
WORKERS = {"gthread": "app.server_errors.ThreadWorker", "sync": "app.server_errors.SyncWorker"}
