"""Structured logs: one JSON line per request, and a request id echoed in X-Request-ID.

An incoming X-Request-ID (1 to 128 characters of A-Z a-z 0-9 . _ : -) is kept; otherwise
one is generated. The access line has method, path, status, duration_ms, request_id and the
body sizes; errors are logged as JSON lines too (logger "app.errors", with a traceback).
"""

from __future__ import annotations

import logging
import math
import os
import re
import sys
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response

from app import current
from app.jsonio import dumps
from engine.text import BIDI, CONTROL, SEPARATORS

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

access_log = logging.getLogger("app.access")
# what JSON lets through unescaped but a log reader takes for a line break (C1 controls, U+2028,
# U+2029: str.splitlines splits on them) or reads reversed (bidi controls): a path can carry
# them, so a line holds them escaped (audit of 2026-11-29)
_UNSAFE = re.compile(f"[{CONTROL}{SEPARATORS}{BIDI}]")


def _escaped(ch: re.Match[str]) -> str:
    return f"\\u{ord(ch.group()):04x}"


def json_line(obj: dict[str, Any]) -> str:
    """`obj` as one JSON line that every log reader reads as one line, as written."""
    line = dumps(obj).decode("utf-8")
    return line if line.isascii() else _UNSAFE.sub(_escaped, line)


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", None)
        out = _line_object(
            record.created, record.levelname, record.name, record.getMessage(), fields
        )
        rid = getattr(record, "request_id", None)
        if rid and "request_id" not in out:
            out["request_id"] = rid
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json_line(out)


# the last second written, and its date and time: a log line a request writes them again
_second: tuple[int, str] = (-1, "")


def timestamp(created: float) -> str:
    """`datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")`, its date and
    time to the second written once a second (the datetime and its formatting were a third
    of the access line): the fraction rounded to microseconds as datetime rounds it (half to
    even, a carry into the next second), then cut to milliseconds."""
    global _second
    frac, whole = math.modf(created)
    micro = round(frac * 1e6)
    if micro >= 1_000_000:
        whole, micro = whole + 1, micro - 1_000_000
    second = int(whole)
    known = _second  # one read: another thread may write it meanwhile
    if known[0] != second:
        known = (second, datetime.fromtimestamp(second, UTC).isoformat()[:19])
        _second = known
    return f"{known[1]}.{micro // 1000:03d}+00:00"


def _line_object(
    created: float, level: str, logger: str, msg: str, fields: Any = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ts": timestamp(created),
        "level": level.lower(),
        "logger": logger,
        "msg": msg,
    }
    if isinstance(fields, dict):
        out.update(fields)
    return out


def configure_logging(level: str) -> None:
    """JSON lines on stderr for the "app" loggers (idempotent)."""
    logger = logging.getLogger("app")
    logger.setLevel(getattr(logging, level, logging.INFO))
    # (logging's process and thread flags stay on: gunicorn's own lines print %(process)d)
    if not any(getattr(h, "_architectura", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler._architectura = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.propagate = False


def new_request_id() -> str:
    """128 random bits in hex (32 characters, as a uuid4's hex; without building a UUID)."""
    return os.urandom(16).hex()


def _json_stream(logger: logging.Logger) -> logging.StreamHandler[Any] | None:
    """The one handler an INFO line of `logger` reaches, when that is this module's JSON
    handler without filters (the configuration `configure_logging` makes); None otherwise."""
    found: list[logging.Handler] = []
    lg: logging.Logger | None = logger
    while lg is not None:
        found += lg.handlers
        lg = lg.parent if lg.propagate else None
    h = found[0] if len(found) == 1 else None
    if not isinstance(h, logging.StreamHandler) or not getattr(h, "_architectura", False):
        return None
    return h if not h.filters and not logger.filters and h.level <= logging.INFO else None


def _access_line(fields: dict[str, Any]) -> None:
    """The access line, as `JsonFormatter` writes it. With the usual configuration it is
    written directly: a LogRecord, its formatting and the handler chain were a measurable
    share of a small request (issue 10). Any other configuration gets a record."""
    h = _json_stream(access_log)
    if h is None:
        record = access_log.makeRecord(
            access_log.name, logging.INFO, "", 0, "request", (), None, extra={"fields": fields}
        )
        access_log.handle(record)
        return
    line = json_line(_line_object(time.time(), "INFO", access_log.name, "request", fields))
    h.acquire()
    try:
        h.stream.write(line + h.terminator)
        h.flush()
    except Exception:  # as logging does: a broken log stream must not fail the request
        h.handleError(
            access_log.makeRecord(access_log.name, logging.INFO, "", 0, "request", (), None)
        )
    finally:
        h.release()


def install_request_logging(app: Flask) -> None:
    # each proxy (g, request) is resolved once per hook, without its proxy (app/current.py)
    @app.before_request
    def _start() -> None:
        ctx = current.values()
        ctx["t0"] = time.perf_counter()  # also the metrics' start (app/metrics.py)
        rid = current.environ().get("HTTP_X_REQUEST_ID")
        ctx["request_id"] = rid if rid and REQUEST_ID_RE.fullmatch(rid) else new_request_id()

    @app.after_request
    def _finish(response: Response) -> Response:
        ctx = current.values()  # one lookup instead of a proxied g.get per value
        rid = ctx.get("request_id") or new_request_id()
        response.headers[REQUEST_ID_HEADER] = rid
        if access_log.isEnabledFor(logging.INFO):
            t0 = ctx.get("t0")
            req = current.req()
            _access_line(
                {
                    "method": req.method,
                    "path": req.path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - t0) * 1000, 3) if t0 else 0.0,
                    "request_id": rid,
                    "bytes_in": req.content_length or 0,
                    "bytes_out": response.calculate_content_length() or 0,
                    "remote": req.environ.get("REMOTE_ADDR"),
                }
            )
        return response
