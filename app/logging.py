"""Structured logs: one JSON line per request, and a request id echoed in X-Request-ID.

An incoming X-Request-ID (1 to 128 characters of A-Z a-z 0-9 . _ : -) is kept; otherwise
one is generated. The access line has method, path, status, duration_ms, request_id and the
body sizes; errors are logged as JSON lines too (logger "app.errors", with a traceback).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, g, request

from app.jsonio import dumps

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

access_log = logging.getLogger("app.access")


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        rid = getattr(record, "request_id", None)
        if rid and "request_id" not in out:
            out["request_id"] = rid
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return dumps(out).decode("utf-8")


def configure_logging(level: str) -> None:
    """JSON lines on stderr for the "app" loggers (idempotent)."""
    logger = logging.getLogger("app")
    logger.setLevel(getattr(logging, level, logging.INFO))
    # No record written here shows a thread or process name, and collecting them is a
    # measurable part of each access line (the logging HOWTO's "Optimization" advice).
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    if not any(getattr(h, "_architectura", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler._architectura = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.propagate = False


def new_request_id() -> str:
    """128 random bits in hex (32 characters, as a uuid4's hex; without building a UUID)."""
    return os.urandom(16).hex()


def install_request_logging(app: Flask) -> None:
    @app.before_request
    def _start() -> None:
        g.t0 = time.perf_counter()
        rid = request.headers.get(REQUEST_ID_HEADER, "")
        g.request_id = rid if rid and REQUEST_ID_RE.match(rid) else new_request_id()

    @app.after_request
    def _finish(response: Response) -> Response:
        rid = g.get("request_id") or new_request_id()
        response.headers[REQUEST_ID_HEADER] = rid
        t0 = g.get("t0")
        duration = (time.perf_counter() - t0) * 1000 if t0 is not None else 0.0
        if access_log.isEnabledFor(logging.INFO):
            fields = {
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round(duration, 3),
                "request_id": rid,
                "bytes_in": request.content_length or 0,
                "bytes_out": response.calculate_content_length() or 0,
                "remote": request.remote_addr,
            }
            # made and handled directly: Logger.info would also look up its caller's frame
            # on every request (logging's findCaller), which a line without a source skips
            record = access_log.makeRecord(
                access_log.name, logging.INFO, "", 0, "request", (), None, extra={"fields": fields}
            )
            access_log.handle(record)
        return response
