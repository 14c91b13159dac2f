"""Who may call, and how much: the body size, browser origins (CORS), requests per client.

- Body: MAX_CONTENT_LENGTH (MAX_BODY_BYTES) applies alike to a body announced by
  Content-Length and to a chunked one: a body of exactly the limit is read, one byte more is
  a 413, whichever way it is sent.
- CORS (flask-cors): CORS_ORIGINS, a comma-separated list of origins (`*` for any) allowed to
  call the API from a browser; unset, no CORS header is sent and browsers keep to their
  same-origin rule.
- Rate limit (flask-limiter): RATE_LIMIT, e.g. `100/minute` (several: `10/second;100/minute`),
  per client address, in a sliding window (this window's count and the last one's, weighted
  by how much of it is still inside); unset, there is none. Counted in Redis when REDIS_URL is set (shared
  by every worker and instance), else in each worker's memory (app/ratestore.py: a request
  costs the expired counters it removes, never a scan of the live ones). Beyond it: 429 `rate_limited`
  with Retry-After. Only the API (/v1/...) is limited: health, readiness, metrics, the
  contract and the pages are not. When the
  counting store fails, requests pass (counted in memory meanwhile): the limit protects the
  service, it must not take it down. Behind proxies, TRUSTED_PROXY_HOPS (the number of
  proxies in front, each adding to X-Forwarded-For) makes the client address the one the
  first proxy saw; compose.yaml's nginx is one hop. The same client (`client_id`) is what
  JOB_QUEUE_PER_CLIENT counts background jobs by (app/jobs.py).
"""

from __future__ import annotations

import ipaddress
import math
import time
from typing import IO, Any

from flask import Flask, Response, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wsgi import LimitedStream, get_content_length, get_input_stream

from app import current
from app.errors import ApiError
from app.settings import origins
from engine.canonical import digest
from engine.messages import msg

EXPOSED_HEADERS = ["X-Request-ID", "Retry-After"]
LIMITED_PREFIX = "/v1/"


def body_bytes() -> bytes:
    """The request body, at most MAX_CONTENT_LENGTH bytes (413 above it)."""
    limit = current.config().get("MAX_CONTENT_LENGTH")
    env = current.environ()
    length = get_content_length(env)  # what request.content_length reads
    if length is not None:
        # werkzeug's stream, as request.stream makes it, refuses a Content-Length over the
        # limit before reading (413)
        return read_all(get_input_stream(env, max_content_length=limit), length)
    if limit is None or "wsgi.input_terminated" not in env:
        # a chunked body from a server that does not end it reads as empty
        return request.get_data(cache=False)
    # Chunked: werkzeug's own stream stops silently at the limit, so read one byte past it
    # to tell "exactly the limit" from "more". (Its read errors stay werkzeug's:
    # ClientDisconnected, with the socket timeout as context for a stalled body.)
    raw = LimitedStream(env["wsgi.input"], limit + 1, is_max=True).read()
    if len(raw) > limit:
        raise RequestEntityTooLarge()
    return raw


def read_all(stream: IO[bytes], size: int) -> bytes:
    """`stream.read()` (werkzeug's request stream) in reads of `size` bytes, the announced
    length, until one reads nothing: the same bytes and errors (413, ClientDisconnected) as
    its `readall`, whose reads of 64 KiB each allocate and clear a 64 KiB buffer (a body of
    a few KB took two of them)."""
    chunks = []
    while chunk := stream.read(size):
        chunks.append(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def client_id() -> str:
    """Who the client is, for every per-client limit (requests, background jobs): its
    address after TRUSTED_PROXY_HOPS (werkzeug's ProxyFix), as flask-limiter's
    get_remote_address reads it; an IPv6 address by its /64, the block one subscriber gets
    (else one machine has 2^64 allowances: audit of 2026-11-30)."""
    addr = request.remote_addr or "127.0.0.1"
    if ":" not in addr:
        return addr
    try:
        ip = ipaddress.IPv6Address(addr.partition("%")[0])
    except ValueError:
        return addr
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


def cache_scope(body: dict[str, Any]) -> str | None:
    """Whose position cache entries a suggestion shares (ai/service.py): a state's holders
    (the digest of the state as sent: its hidden cards, decks and generator are in it, so no
    one without the state finds its entries); a view's, no one (None: not cached). A view
    holds no secret beyond the hand another seat would guess, and an address is no identity
    (one NAT, one relaying application, a proxy without TRUSTED_PROXY_HOPS), so any shared
    scope would let a client holding its own view try another seat's possible views and
    learn, from `cached` or the answer's speed, which one was asked: that seat's hand."""
    return "state:" + digest(body["state"]) if "state" in body else None


def install_cors(app: Flask) -> None:
    allowed = app.config.get("CORS_ORIGINS")
    if isinstance(allowed, str):
        allowed = origins(allowed)
    if not allowed:
        return
    from flask_cors import CORS

    CORS(
        app,
        origins=allowed,
        methods=["GET", "POST", "DELETE"],  # DELETE: a job cancelled
        allow_headers=["Content-Type", "X-Request-ID"],
        expose_headers=EXPOSED_HEADERS,
        max_age=600,
    )

    @app.after_request
    def _vary_on_origin(resp: Response) -> Response:
        # every answer depends on the Origin (flask-cors says so only to an allowed one): a
        # shared cache must not hand one origin's answer to another
        resp.vary.add("Origin")
        return resp


def install_rate_limit(app: Flask) -> None:
    rate = app.config.get("RATE_LIMIT")
    hops = int(app.config.get("TRUSTED_PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops)  # type: ignore[method-assign]
    if not rate:
        return
    from flask_limiter import Limiter
    from limits import parse_many

    try:
        parse_many(rate)
    except ValueError:
        raise ValueError(
            f"RATE_LIMIT must be a rate like 100/minute or 10/second;500/hour, not {rate!r}"
        ) from None
    from flask_limiter.errors import RateLimitExceeded
    from limits.strategies import SlidingWindowCounterRateLimiter

    from app.ratestore import SweptMemoryStorage  # registers referee-memory://

    limiter = Limiter(
        client_id,
        app=app,
        application_limits=[rate],  # one allowance per client for the whole API
        # in memory: limits' store with its expiry swept as it falls due (app/ratestore.py)
        storage_uri=app.config.get("REDIS_URL") or "referee-memory://",
        # not "moving-window": its in-memory store (limits 5.8) keeps every client's key
        # after its window empties, and rescans them all after each request (100,000
        # addresses: +60 MB and 77 % of a core for good; audit of 2026-11-30); the counters'
        # keys expire with their window (two windows, weighted: a close moving window)
        strategy="sliding-window-counter",
        swallow_errors=True,
        in_memory_fallback_enabled=True,
        key_prefix="referee",
    )
    # while Redis is down flask-limiter (4.1) counts in a stock MemoryStorage of its own: the
    # swept one instead (tests/http/test_app_ops.py checks both stores)
    if not hasattr(limiter, "_fallback_storage"):
        raise RuntimeError(
            "flask-limiter no longer has _fallback_storage: app/limits.py replaces it"
        )
    limiter._fallback_storage = SweptMemoryStorage()
    limiter._fallback_limiter = SlidingWindowCounterRateLimiter(limiter._fallback_storage)
    app.extensions["rate_limiter"] = limiter

    @limiter.request_filter
    def _unlimited() -> bool:
        return not request.path.startswith(LIMITED_PREFIX) or request.method == "OPTIONS"

    @app.errorhandler(RateLimitExceeded)
    def _limited(e: RateLimitExceeded) -> Response:
        current: Any = limiter.current_limit
        wait = 1
        if current is not None:  # when the window lets one more request in
            wait = max(1, math.ceil(current.window[0] - time.time()))
        return ApiError(
            429,
            "rate_limited",
            msg(
                (
                    "Too many requests from this client: the limit is {limit} (RATE_LIMIT). Try "
                    "again in {wait} s."
                ),
                limit=e.description,
                wait=wait,
            ),
            headers={"Retry-After": str(wait)},
        ).response()
