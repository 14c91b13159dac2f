"""Compressed answers (flask-compress): the Swagger bundle of /docs, /openapi.yaml, /play's
assets and large JSON or SVG answers travel compressed when the client asks for it
(`Accept-Encoding`). The decoded body is the same bytes as an uncompressed answer; small
answers (under 500 bytes) and streamed ones are sent as they are."""

from __future__ import annotations

from flask import Flask, Request
from flask_compress import Compress

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
