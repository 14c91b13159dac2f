"""A server-side limit on how long reading a request body may take (BODY_READ_TIMEOUT_S).

gunicorn has no setting for it: its gthread worker waits at most 5 s for a connection's
first byte, then reads headers and body from a blocking socket with no timeout, so a client
sending its body at 1 byte/s holds a worker thread for as long as it likes. gunicorn hands
the application that socket (`environ["gunicorn.socket"]`); before a request is handled we
give it a timeout, so a body read that stalls longer raises `TimeoutError`, answered 408
`body_timeout`. (Python's timeout applies to each receive, and to a whole `sendall`: the
answer must also be taken within that time by a client reading slowly.) The buffering proxy
of compose.yaml (deploy/nginx.conf) is the real defence: it reads whole requests before
they reach gunicorn and bounds slow headers too; this is the fallback without it.

A transfer coding other than chunked is refused, 501 `unsupported_transfer_coding`: gunicorn
accepts gzip, deflate and compress before chunked, and decodes none of them.
"""

from __future__ import annotations

from flask import Flask, Response, current_app
from gunicorn.http.errors import ParseException
from werkzeug.exceptions import ClientDisconnected

from app import current
from app.errors import ApiError
from app.settings import env_int
from engine.messages import msg

DEFAULT_BODY_READ_TIMEOUT_S = 10


def install_body_timeout(app: Flask) -> None:
    app.config.setdefault(
        "BODY_READ_TIMEOUT_S", env_int("BODY_READ_TIMEOUT_S", DEFAULT_BODY_READ_TIMEOUT_S)
    )

    config = app.config  # this app's own (read per request: it may change), not the proxy

    @app.before_request
    def _limit_body_reads() -> None:
        environ = current.environ()
        sock = environ.get("gunicorn.socket")
        if sock is not None:  # served by gunicorn (not the test client)
            sock.settimeout(float(config["BODY_READ_TIMEOUT_S"]))
        codings = environ.get("HTTP_TRANSFER_ENCODING", "")
        if (
            codings
            and environ.get("REQUEST_METHOD") == "POST"  # the only requests whose body is read
            and any(c.strip().lower() != "chunked" for c in codings.split(","))
        ):
            # gunicorn takes gzip, deflate and compress before chunked, and decodes none of
            # them: the app would read the coded bytes as the body (audit of 2026-11-29)
            raise ApiError(
                501,
                "unsupported_transfer_coding",
                msg(
                    "The request body is sent with a transfer coding the service does not "
                    "decode: send it with a Content-Length, or with `Transfer-Encoding: "
                    "chunked` alone."
                ),
            )

    @app.errorhandler(ParseException)
    def _malformed(e: ParseException) -> Response:
        # raised by gunicorn's reader of a chunked body while the body is read: a chunk size
        # that is not hex, data without its CRLF, a bad extension or trailer
        return ApiError(
            400,
            "malformed_body",
            msg(
                "The request body is not well-formed chunked encoding (RFC 9112, 7.1): "
                "send it with a Content-Length, or as chunks of a hexadecimal size, each "
                "followed by CRLF."
            ),
        ).response()

    @app.errorhandler(ClientDisconnected)
    def _timed_out(e: ClientDisconnected) -> Response:
        if not isinstance(e.__context__, TimeoutError):
            return ApiError(
                400, "bad_request", msg("The request body ended before its announced length.")
            ).response()
        return ApiError(
            408,
            "body_timeout",
            msg(
                "The request body did not arrive within {seconds} s (BODY_READ_TIMEOUT_S).",
                seconds=current_app.config["BODY_READ_TIMEOUT_S"],
            ),
        ).response()
