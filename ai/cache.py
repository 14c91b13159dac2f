"""Position cache for /v1/suggest: Redis when CACHE_REDIS_URL is set, an in-process LRU
otherwise (never REDIS_URL's Redis: the queue's and the anti-rollback marks' evicts nothing,
and cached positions, one per seed sent, would fill it until it refused every move).

Values are JSON documents (a decision and its search statistics: about 1 KiB, up to some 21
KiB for the widest Fora de Prumo positions).
Every key has a TTL. Redis memory is bounded by the server, not by us: run the cache's Redis
with `maxmemory` and `maxmemory-policy allkeys-lru` (see docs/bots.md), so that old positions
are evicted instead of refusing writes, and apart from the queue's (CACHE_REDIS_URL), which
such a policy would empty. The in-process LRU is bounded by `max_entries`.

The cache is an optimisation, never a dependency. Two kinds of trouble are told apart:
- Redis unreachable (connection refused, timeout): `get` returns None and `put` does nothing;
  the cache stays off for a back-off period (doubling up to a minute) before Redis is tried
  again, so a dead Redis costs one short socket timeout per back-off period, not one per
  request.
- Redis answering but refusing writes (an error reply to SET: `maxmemory` reached under
  `noeviction`, a read-only replica): only writes back off; reads go on being served.
Each outage is logged once, as one warning (a JSON line through the app's log handler, with
`event`, `backend`, `operation`, `error`), and its end once. `status()` reports for /readyz.

Anything the cache cannot read is a miss, logged as a warning (`event: cache_entry_unreadable`)
and overwritten by the fresh answer: a value larger than MAX_VALUE_BYTES (Redis is asked for
no more than that), not UTF-8, not JSON, nested too deep for the parser, a JSON value that is
not an object, a Redis key of another type than a string. Both backends read through one
function, `decode`. The service checks what it reads (the shape of an entry, and that its
decision is legal now: ai/service.py).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from typing import Any, Protocol

log = logging.getLogger("ai.cache")

KEY_PREFIX = "arch:suggest:"
# what is read of one value at most: real entries are under 32 KiB (docs/bots.md)
MAX_VALUE_BYTES = 256 * 1024


class Unreadable(ValueError):
    """A cached value that is not a JSON object within MAX_VALUE_BYTES; the reason."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(raw: bytes | str) -> dict[str, Any]:
    """A cached value as the object it holds; Unreadable for anything else (whatever json
    raises, RecursionError for a value nested deeper than the parser goes, bytes that are
    not UTF-8, more than MAX_VALUE_BYTES, NaN and Infinity, which JSON does not have)."""
    if len(raw) > MAX_VALUE_BYTES:
        raise Unreadable(f"larger than {MAX_VALUE_BYTES} bytes")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        value = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8") from None
    except RecursionError:
        raise Unreadable("nested too deep") from None
    except (ValueError, TypeError) as e:
        raise Unreadable(f"not JSON ({type(e).__name__})") from None
    if not isinstance(value, dict):
        raise Unreadable(f"a JSON {type(value).__name__}, not an object")
    return value


def read_entry(backend: str, key: str, raw: bytes | str) -> dict[str, Any] | None:
    """`decode(raw)`, or None (a miss) for a value it cannot read, with one warning."""
    try:
        return decode(raw)
    except Unreadable as e:
        unreadable(backend, key, str(e))
        return None


def unreadable(backend: str, key: str, reason: str) -> None:
    log.warning(
        "position cache: an entry cannot be read (%s); searching again and overwriting it",
        reason,
        extra={
            "fields": {
                "event": "cache_entry_unreadable",
                "backend": backend,
                "key": key,
                "reason": reason,
            }
        },
    )


class PositionCache(Protocol):
    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, value: dict[str, Any]) -> None: ...

    def status(self) -> dict[str, Any]: ...


class MemoryCache:
    """Thread-safe LRU with a TTL; values are stored as JSON text (callers get copies).
    Bounded in entries and in characters (keys and values): an entry lists every option of
    its position, and a wide Fora de Prumo position's came to 21 KB, so 10,000 of them
    (one a seed sent) held 237 MB a worker (audit of 2026-11-30)."""

    def __init__(
        self, max_entries: int = 10000, ttl_s: int = 3600, max_chars: int = 32 << 20
    ) -> None:
        self.max_entries = max_entries
        self.max_chars = max_chars
        self.ttl_s = ttl_s
        self._data: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._chars = 0  # of every key and value held
        self._lock = threading.Lock()

    def _drop(self, key: str) -> None:
        _, text = self._data.pop(key)
        self._chars -= len(key) + len(text)

    def get(self, key: str) -> dict[str, Any] | None:
        now = time.monotonic()
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            expires, text = item
            if expires <= now:
                self._drop(key)
                return None
            self._data.move_to_end(key)
        return read_entry("memory", key, text)

    def put(self, key: str, value: dict[str, Any]) -> None:
        text = json.dumps(value, separators=(",", ":"))
        if len(key) + len(text) > self.max_chars:
            return
        with self._lock:
            if key in self._data:
                self._drop(key)
            self._data[key] = (time.monotonic() + self.ttl_s, text)
            self._chars += len(key) + len(text)
            while len(self._data) > self.max_entries or self._chars > self.max_chars:
                self._drop(next(iter(self._data)))

    def __len__(self) -> int:
        return len(self._data)

    def status(self) -> dict[str, Any]:
        return {
            "backend": "memory",
            "ok": True,
            # its limits, not its fill: /readyz is public, and how many entries and characters
            # it holds told when anyone searched, and how wide (audit of 2026-11-30)
            "detail": f"in-process LRU, at most {self.max_entries} entries and "
            f"{self.max_chars} characters",
        }


class _Outage:
    """One kind of Redis trouble: down since the first failure, retried after a back-off
    that doubles up to a maximum; its start and its end are logged once each."""

    def __init__(self, what: str, min_backoff: float, max_backoff: float, url: str) -> None:
        self.what = what  # "unavailable" | "refusing writes"
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self.backoff = min_backoff
        self.url = url
        self.down = False
        self.since = 0.0  # when the current back-off began
        self.until = 0.0
        self.detail = ""
        self._lock = threading.Lock()

    def usable(self) -> float | None:
        """When this call starts (its ticket for `failed` and `succeeded`), or None while
        backing off; once the back-off is over the next call retries."""
        now = time.monotonic()
        return now if not self.down or now >= self.until else None

    def failed(self, operation: str, exc: Exception, started: float) -> None:
        """A call that `started` then failed. Only a call made after the back-off began is
        its retry and doubles it: the calls that were in flight when Redis stalled (searches,
        /readyz, /metrics scrapes) each doubled it once, so a stall of 0.3 s turned the cache
        off for a minute (audit of 2026-11-30)."""
        with self._lock:
            # /readyz shows it to anyone: the error's class, not its text (which names the
            # store's address); the log line below keeps the whole error
            self.detail = f"redis {self.what} ({type(exc).__name__})"
            if not self.down:
                log.warning(
                    "position cache: Redis %s; suggestions continue %s",
                    self.what,
                    "without the cache" if self.what == "unavailable" else "(reads only)",
                    extra={
                        "fields": {
                            "event": "cache_outage",
                            "backend": "redis",
                            "url": _safe_url(self.url),
                            "problem": self.what,
                            "operation": operation,
                            "error": f"{type(exc).__name__}: {exc}",
                        }
                    },
                )
                self.down = True
                self.backoff = self.min_backoff
            elif started >= self.since:
                self.backoff = min(self.backoff * 2, self.max_backoff)
            else:
                return
            self.since = time.monotonic()
            self.until = self.since + self.backoff

    def succeeded(self, started: float) -> None:
        """A call that `started` then succeeded: Redis is back, unless the call began before
        the outage was seen (it tells nothing of now, and would log the outage twice)."""
        if not self.down:
            return
        with self._lock:
            if self.down and started >= self.since:
                log.warning(
                    "position cache: Redis is back (was %s)",
                    self.what,
                    extra={
                        "fields": {
                            "event": "cache_recovered",
                            "backend": "redis",
                            "url": _safe_url(self.url),
                            "problem": self.what,
                        }
                    },
                )
                self.down = False
                self.backoff = self.min_backoff


class RedisCache:
    """Redis-backed cache that degrades to no cache, or to reads only, when Redis fails (see
    the module doc)."""

    def __init__(
        self,
        url: str,
        *,
        ttl_s: int = 3600,
        socket_timeout: float = 0.1,
        backoff_s: float = 1.0,
        max_backoff_s: float = 60.0,
    ) -> None:
        import redis

        self.url = url
        self.ttl_s = ttl_s
        self._reply_error = redis.exceptions.ResponseError
        self._down = _Outage("unavailable", backoff_s, max_backoff_s, url)
        self._writes = _Outage("refusing writes", backoff_s, max_backoff_s, url)
        self._client = redis.Redis.from_url(
            url,
            socket_timeout=socket_timeout,
            socket_connect_timeout=socket_timeout,
            retry_on_timeout=False,
            health_check_interval=0,
        )

    def get(self, key: str) -> dict[str, Any] | None:
        started = self._down.usable()
        if started is None:
            return None
        try:
            # at most MAX_VALUE_BYTES + 1 bytes, whatever the value's size ("" when absent)
            raw = self._client.getrange(KEY_PREFIX + key, 0, MAX_VALUE_BYTES)
        except self._reply_error as e:
            if not str(e).startswith("WRONGTYPE"):  # another error reply: as below
                self._down.failed("get", e, started)
                return None
            self._down.succeeded(started)  # Redis answered: the key holds a list, a hash, ...
            unreadable("redis", key, "not a string value")
            return None
        except Exception as e:  # any Redis or socket error: run without the cache
            self._down.failed("get", e, started)
            return None
        self._down.succeeded(started)
        if not raw:
            return None
        return read_entry("redis", key, raw)

    def put(self, key: str, value: dict[str, Any]) -> None:
        started = self._down.usable()
        if started is None or self._writes.usable() is None:
            return
        try:
            self._client.set(
                KEY_PREFIX + key, json.dumps(value, separators=(",", ":")), ex=self.ttl_s
            )
        except self._reply_error as e:  # Redis answered with an error: writes only
            self._down.succeeded(started)
            self._writes.failed("set", e, started)
            return
        except Exception as e:
            self._down.failed("set", e, started)
            return
        self._down.succeeded(started)
        self._writes.succeeded(started)

    def status(self) -> dict[str, Any]:
        """Asks Redis its memory bound (a ping) unless backing off after a recent failure."""
        unbounded = None
        started = self._down.usable()
        if started is not None:
            try:
                unbounded = self._unbounded()
            except Exception as e:
                self._down.failed("ping", e, started)
            else:
                self._down.succeeded(started)
        if self._down.down:
            return {
                "backend": "redis",
                "ok": False,
                "detail": f"{self._down.detail}; running without cache",
            }
        if self._writes.down:
            return {
                "backend": "redis",
                "ok": False,
                "detail": f"{self._writes.detail}; reads continue",
            }
        if unbounded is not None:
            return {"backend": "redis", "ok": False, "detail": f"connected, but {unbounded}"}
        return {"backend": "redis", "ok": True, "detail": "connected"}

    def _unbounded(self) -> str | None:
        """`unbounded_by` this Redis; raises when it cannot be used (down, or refusing even a
        ping). A Redis that refuses INFO alone (an ACL) but pings is told as such."""
        try:
            memory = self._client.info("memory")
        except self._reply_error:
            self._client.ping()
            return "its memory bound is unknown (INFO refused): allow INFO to check it"
        try:
            return unbounded_by(memory)
        except (TypeError, ValueError):  # a Redis-like server's own fields: not its outage
            return "its memory bound is unknown (INFO memory unreadable)"


def unbounded_by(memory: Any) -> str | None:
    """Why a cache Redis (its INFO memory) would not stay bounded by evicting old positions,
    or None. Entries are made as fast as searches are asked for (one a seed sent), so without
    `maxmemory` the cache grows until the host's memory runs out, and under `noeviction` a
    full one refuses every new position (audit of 2026-11-30)."""
    policy = str(memory.get("maxmemory_policy", "noeviction"))
    if int(memory.get("maxmemory", 0)) <= 0:
        return "unbounded (no maxmemory): set maxmemory and maxmemory-policy allkeys-lru"
    if policy == "noeviction":
        return "maxmemory-policy noeviction refuses new positions once full: use allkeys-lru"
    return None


def _safe_url(url: str) -> str:
    """The URL without a password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url


def make_cache(
    redis_url: str | None,
    *,
    ttl_s: int = 3600,
    max_entries: int = 10000,
    max_chars: int = 32 << 20,
) -> PositionCache:
    """Redis when a URL is given (e.g. redis://localhost:6379/0), else an in-process LRU."""
    if redis_url:
        return RedisCache(redis_url, ttl_s=ttl_s)
    return MemoryCache(max_entries=max_entries, ttl_s=ttl_s, max_chars=max_chars)
