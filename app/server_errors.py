"""gunicorn's own refusals as problem+json, like every other error of the referee.

gunicorn answers some requests before the application sees them: a request line over
`limit_request_line`, more than `limit_request_fields` headers, a malformed request line,
header or HTTP version, an unknown transfer coding. Its workers write those answers in
`handle_error` as a fixed HTML page, and it has no setting for another body
(benoitc/gunicorn#993). gunicorn.conf.py runs these workers instead, whose `handle_error`
answers in the app's shape: `type`, `title`, `status`, `code`, `detail` (what gunicorn found,
then what to send instead) and `pointer`. The request's headers were not read, so the answer
is in English.

A body the app did not read (a GET's, a 404's) is read by the gthread worker right after the
answer, before the connection waits for another request: a malformed one (its chunks, its
trailers) closes the connection with nothing more written, where gunicorn would find it when
parsing the next request and answer a second time (a proxy passing chunks on would take that
for the next request's answer). A body the app reads is refused by the app
(app/body_timeout.py, `malformed_body`). An answer after which the connection closes (the
app's refusals of a body: app/errors.py CLOSES_CONNECTION) says `Connection: close`, where
gunicorn wrote `keep-alive` and then closed.

Run with `-k` or GUNICORN_CMD_ARGS naming another worker class, gunicorn writes its own pages.
"""

from __future__ import annotations

import socket
import ssl
from typing import Any, NamedTuple

import orjson
from gunicorn import util
from gunicorn.http.errors import (
    ConfigurationProblem,
    ExpectationFailed,
    InvalidResponseHeader,
    InvalidResponseHeaderName,
    LimitRequestHeaders,
    LimitRequestLine,
    ParseException,
    UnsupportedTransferCoding,
)
from gunicorn.workers.gthread import ThreadWorker as GunicornThreadWorker
from gunicorn.workers.sync import SyncWorker as GunicornSyncWorker

from app.errors import CLOSE_CONNECTION, ApiError
from app.jsonio import PROBLEM_JSON
from engine.messages import Msg


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
# what gunicorn raises for the server's own faults (a header the app sent, its settings):
# ParseExceptions too, but not the client's to mend
SERVER_FAULTS = (InvalidResponseHeader, InvalidResponseHeaderName, ConfigurationProblem)
# characters of gunicorn's description (it quotes the client's bytes) in a log line or an answer
QUOTED = 200
# bytes of a body the app did not read that are read before the connection is kept open
DRAINED = 64 * 1024


def refusal_for(exc: BaseException) -> Refusal:
    """What an exception gunicorn's worker caught is answered with."""
    if isinstance(exc, SERVER_FAULTS):
        return INTERNAL
    for cls, refusal in BY_ERROR:
        if isinstance(exc, cls):
            return refusal
    return MALFORMED if isinstance(exc, ParseException) else INTERNAL


def problem(refusal: Refusal, found: str, limits: str) -> bytes:
    """The whole HTTP answer: `found` is gunicorn's description of what it refused (it
    quotes the client's bytes, so it is cut)."""
    instead = refusal.instead.format(limits=limits)
    found = found[:QUOTED].rstrip(".")  # the sentence that follows it is never cut
    detail = f"{found}: {instead}." if found else f"{instead}."
    detail = detail[:1].upper() + detail[1:]
    # the app's own problem, in English: no request was read (a value, not a template)
    doc = ApiError(refusal.status, refusal.code, Msg.made(detail, detail, {})).body("en")
    body = orjson.dumps(doc)
    head = (
        f"HTTP/1.1 {refusal.status} {doc['title']}\r\nConnection: close\r\n"
        f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
        "X-Content-Type-Options: nosniff\r\n\r\n"
    )
    return head.encode("latin-1") + body


def closing(app: Any) -> Any:
    """The WSGI app, its answers closing the connection where the app flagged it in the
    environ (CLOSE_CONNECTION): gunicorn drops an app's hop-by-hop headers, so the flag asks
    gunicorn's response (start_response's object) to close instead."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer: Any = getattr(start_response, "__self__", None)
            if environ.get(CLOSE_CONNECTION) and hasattr(answer, "force_close"):
                answer.force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return wsgi


class ProblemAnswers:
    """A gunicorn worker's `handle_error`, answering problem+json (module doc); after it the
    worker closes the connection. Its app closes the connection after the answers the app
    flags (`closing`)."""

    cfg: Any
    log: Any
    wsgi: Any

    def load_wsgi(self) -> None:
        super().load_wsgi()  # type: ignore[misc]
        self.wsgi = closing(self.wsgi)

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: BaseException) -> None:
        if isinstance(exc, ssl.SSLError):  # not HTTP: a plain answer would be noise on TLS
            self.log.warning("TLS error from ip=%s: %s", _ip(addr), _quoted(exc))
            return
        refusal = refusal_for(exc)
        if refusal is INTERNAL:
            where = repr(f"{req.method} {req.uri}"[:QUOTED]) if hasattr(req, "method") else ""
            self.log.exception("Error handling request %s", where)
        else:
            self.log.warning("Invalid request from ip=%s: %s", _ip(addr), _quoted(exc))
        cfg = self.cfg
        limits = LIMITS.format(
            line=cfg.limit_request_line,
            fields=cfg.limit_request_fields,
            size=cfg.limit_request_field_size,
        )
        found = "" if refusal is INTERNAL else str(exc)
        try:
            util.write_nonblock(client, problem(refusal, found, limits))
        except Exception:
            self.log.debug("Failed to send error message.")


def _ip(addr: Any) -> str:
    return str(addr[0]) if addr else ""


def _quoted(exc: BaseException) -> str:
    """gunicorn's description on one log line, however many bytes the client sent."""
    return repr(str(exc)[:QUOTED])


class ThreadWorker(ProblemAnswers, GunicornThreadWorker):  # type: ignore[misc]
    """gunicorn's gthread worker, its refusals as problems, a request's unread body read
    right after its answer (module doc)."""

    def handle_request(self, req: Any, conn: Any) -> bool:
        keepalive: bool = super().handle_request(req, conn)
        return keepalive and self.drained(req)

    def drained(self, req: Any) -> bool:
        """Whether the rest of `req`'s body was read whole, at most DRAINED bytes of it; else
        the connection closes (a client streaming a body no one reads held the thread for as
        long as it kept sending: audit of 2026-11-29)."""
        left = DRAINED
        try:
            while left > 0 and (chunk := req.body.read(min(left, 8192))):
                left -= len(chunk)
            if left <= 0 and req.body.read(1):
                self.log.info("Closing after the answer: the unread body is over %d bytes", DRAINED)
                return False
        except (ParseException, OSError) as e:
            self.log.info("Closing after the answer: the unread body is malformed: %s", _quoted(e))
            return False
        return True


class SyncWorker(ProblemAnswers, GunicornSyncWorker):  # type: ignore[misc]
    """gunicorn's sync worker, its refusals as problems."""
