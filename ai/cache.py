"""Position cache for /v1/suggest: Redis when REDIS_URL is set, an in-process LRU otherwise.

Values are small JSON documents (a decision and its search statistics, well under 4 KiB).
Every key has a TTL. Redis memory is bounded by the server, not by us: run Redis with
`maxmemory` and `maxmemory-policy allkeys-lru` (see docs/bots.md), so that old positions are
evicted instead of refusing writes. The in-process LRU is bounded by `max_entries`.

The cache is an optimisation, never a dependency: a Redis that is down, slow or refusing
writes makes `get` return None and `put` do nothing. The first failure is logged once as a
warning; the cache then stays off for a back-off period (doubling up to a minute) before it
tries Redis again, so a dead Redis costs one short socket timeout per back-off period, not
one per request. `status()` reports the state for /readyz.
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


class PositionCache(Protocol):
    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, value: dict[str, Any]) -> None: ...

    def status(self) -> dict[str, Any]: ...


class MemoryCache:
    """Thread-safe LRU with a TTL; values are stored as JSON text (callers get copies)."""

    def __init__(self, max_entries: int = 10000, ttl_s: int = 3600) -> None:
        self.max_entries = max_entries
        self.ttl_s = ttl_s
        self._data: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        now = time.monotonic()
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            expires, text = item
            if expires <= now:
                del self._data[key]
                return None
            self._data.move_to_end(key)
        value: dict[str, Any] = json.loads(text)
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        text = json.dumps(value, separators=(",", ":"))
        with self._lock:
            self._data[key] = (time.monotonic() + self.ttl_s, text)
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)

    def status(self) -> dict[str, Any]:
        return {
            "backend": "memory",
            "ok": True,
            "detail": f"in-process LRU, {len(self._data)}/{self.max_entries} entries",
        }


class RedisCache:
    """Redis-backed cache that degrades to no cache when Redis fails (see module doc)."""

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
        self._min_backoff = backoff_s
        self._max_backoff = max_backoff_s
        self._backoff = backoff_s
        self._down_until = 0.0
        self._down = False
        self._detail = "not used yet"
        self._lock = threading.Lock()
        self._client = redis.Redis.from_url(
            url,
            socket_timeout=socket_timeout,
            socket_connect_timeout=socket_timeout,
            retry_on_timeout=False,
            health_check_interval=0,
        )

    # -- failure handling ----------------------------------------------------------------

    def _usable(self) -> bool:
        """False while backing off after a failure; true again once the back-off is over
        (the next call is the retry)."""
        if not self._down:
            return True
        return time.monotonic() >= self._down_until

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            self._detail = f"redis unavailable ({type(exc).__name__}: {exc}); running without cache"
            if not self._down:
                log.warning(
                    "position cache: Redis at %s unavailable (%s: %s); suggestions continue "
                    "without the cache, retrying in the background",
                    _safe_url(self.url),
                    type(exc).__name__,
                    exc,
                )
                self._down = True
                self._backoff = self._min_backoff
            else:
                self._backoff = min(self._backoff * 2, self._max_backoff)
            self._down_until = time.monotonic() + self._backoff

    def _succeeded(self) -> None:
        if self._down:
            with self._lock:
                if self._down:
                    log.warning("position cache: Redis at %s is back", _safe_url(self.url))
                self._down = False
                self._backoff = self._min_backoff
        self._detail = "connected"

    # -- the cache -------------------------------------------------------------------------

    def get(self, key: str) -> dict[str, Any] | None:
        if not self._usable():
            return None
        try:
            raw = self._client.get(KEY_PREFIX + key)
        except Exception as e:  # any Redis or socket error: run without the cache
            self._failed(e)
            return None
        self._succeeded()
        if raw is None:
            return None
        try:
            value: dict[str, Any] = json.loads(raw)
        except ValueError:
            return None
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        if not self._usable():
            return
        try:
            self._client.set(
                KEY_PREFIX + key, json.dumps(value, separators=(",", ":")), ex=self.ttl_s
            )
        except Exception as e:
            self._failed(e)
            return
        self._succeeded()

    def status(self) -> dict[str, Any]:
        """Pings Redis unless backing off after a recent failure."""
        if self._usable():
            try:
                self._client.ping()
            except Exception as e:
                self._failed(e)
            else:
                self._succeeded()
        ok = not self._down
        return {"backend": "redis", "ok": ok, "detail": self._detail if not ok else "connected"}


def _safe_url(url: str) -> str:
    """The URL without a password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url


def make_cache(
    redis_url: str | None, *, ttl_s: int = 3600, max_entries: int = 10000
) -> PositionCache:
    """Redis when a URL is given (e.g. redis://localhost:6379/0), else an in-process LRU."""
    if redis_url:
        return RedisCache(redis_url, ttl_s=ttl_s)
    return MemoryCache(max_entries=max_entries, ttl_s=ttl_s)
