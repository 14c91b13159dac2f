"""Compressed answers (flask-compress): the Swagger bundle of /docs, /openapi.yaml, /play's
assets and large JSON or SVG answers travel compressed when the client asks for it
(`Accept-Encoding`). The decoded body is the same bytes as an uncompressed answer; small
answers (under 500 bytes) and streamed ones are sent as they are."""

from __future__ import annotations

from flask import Flask, Request
from flask_compress import Compress

from app import current
from app.i18n import MAX_ACCEPT_CHARS, bounded_accept

MIMETYPES = (
    "application/json",
    "application/problem+json",
    "application/yaml",
    "application/javascript",
    "text/javascript",
    "text/css",
    "text/html",
    "text/plain",
    "image/svg+xml",
)


# The documents that never change while the service runs: compressed once per algorithm.
FIXED = ("/openapi.yaml", "/docs/assets/", "/static/")


def fixed_document(request: Request) -> str:
    """The cache key of an answer: its path for a fixed document, "" for any other. A HEAD
    takes its GET's bytes (it was compressed anew each time: 35 ms of CPU for the Swagger
    bundle; audit of 2026-11-29)."""
    path = request.path
    if request.method in ("GET", "HEAD") and any(path.startswith(f) for f in FIXED):
        return path
    return ""


class FixedDocuments:
    """flask-compress's cache: the compressed bytes of the fixed documents (a bundle of 1.6 MB
    costs ~17 ms to compress), none of any other answer."""

    def __init__(self) -> None:
        self._store: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self._store.get(key)

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";"):  # "<algorithm>;<path>"; "<algorithm>;" is any other answer
            self._store[key] = value


def install_compression(app: Flask) -> None:
    """Registered before the other after-request hooks, so that it runs last (Flask runs them
    last registered first): it compresses the finished answer."""
    app.config.setdefault("COMPRESS_MIMETYPES", list(MIMETYPES))
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])  # zstd: few browsers yet
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", FixedDocuments)
    app.config.setdefault("COMPRESS_CACHE_KEY", fixed_document)
    app.extensions["compression"] = Compress(app)

    @app.before_request
    def _refused_codings() -> None:
        environ = current.environ()
        asked = environ.get("HTTP_ACCEPT_ENCODING", "")
        if len(asked) > MAX_ACCEPT_CHARS:
            asked = environ["HTTP_ACCEPT_ENCODING"] = bounded_accept(asked)
        if ";" in asked:
            environ["HTTP_ACCEPT_ENCODING"] = acceptable(asked)


def acceptable(accept_encoding: str) -> str:
    """An Accept-Encoding without the codings it refuses: `q=0`, or a weight that is not one
    (RFC 9110, 12.4.2). flask-compress took `gzip;q=0` as a wish for gzip (audit of
    2026-11-29)."""
    kept = []
    for part in accept_encoding.split(","):
        _, _, params = part.partition(";")
        weight = params.strip().lower().removeprefix("q=") if params else "1"
        try:
            q = float(weight)
        except ValueError:
            continue
        if 0 < q <= 1:
            kept.append(part)
    return ",".join(kept)
