"""The rate limit's in-memory counters (app/limits.py), their expiry swept as it falls due.

limits 5.8's `MemoryStorage` rescans every live key 10 ms after each request, in a timer
thread that holds the GIL: with 65,536 clients in the window (one IPv6 /48 holds that many
/64s) a scan takes some 24 ms, so a worker serving 200 requests a second spent over half a
core on it (audit of 2026-11-30). Here each counter's expiry is kept in a heap when it is set,
and a request removes only the counters that are due, at most SWEEP_MAX of them (counters
made in one burst fall due together; the next requests take the rest, and a counter read
when due is dropped by `get` anyway): its cost is bounded, never the live keys'. Only the
counters of fixed and sliding windows are swept; the moving window's events are not used
(app/limits.py uses `sliding-window-counter`).

Every read or change of a counter holds one lock of the store's: limits' `get` drops an
expired counter in three steps without a lock, so a `get` that read "absent" could drop a
counter another thread's first `incr` had just made, and the client's count started again
(audit of 2026-11-30: 2 to 3 times the limit admitted in a burst of new clients' requests).

It overrides a name-mangled method of limits 5.x (`_MemoryStorage__schedule_expiry`); a
limits without it is refused when the store is made, not silently rescanned again.
"""

from __future__ import annotations

import heapq
import math
import threading
import time
from typing import Any

from limits.storage import MemoryStorage

SWEEP_MAX = 256  # due counters removed by one request at most (module doc)


class SweptMemoryStorage(MemoryStorage):
    """`MemoryStorage` whose counters expire through a heap of their expiry times (module doc);
    `referee-memory://` names it to flask-limiter."""

    STORAGE_SCHEME = ["referee-memory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any):
        if not callable(getattr(MemoryStorage, "_MemoryStorage__schedule_expiry", None)):
            raise RuntimeError(
                "limits' MemoryStorage no longer has the method app/ratestore.py replaces: "
                "its rescan of every key would be back; pin limits to a version it fits"
            )
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()  # the rescan MemoryStorage starts at once: none here
        self.due: list[tuple[float, str]] = []  # (expiry, key), a heap; stale ones skipped
        self.lock = threading.RLock()  # every counter's read and change (module doc)

    # the name MemoryStorage's methods call (name-mangled): the rescan is replaced by the sweep
    def _MemoryStorage__schedule_expiry(self) -> None:
        self.sweep()

    def sweep(self) -> int:
        """Remove the counters whose expiry has passed, SWEEP_MAX at most; how many."""
        now = time.time()
        removed = popped = 0
        with self.lock:
            while self.due and self.due[0][0] <= now and popped < SWEEP_MAX:
                _, key = heapq.heappop(self.due)
                popped += 1
                # a key set again since has a later expiry and a heap entry of its own
                if self.expirations.get(key, math.inf) <= now:
                    self.storage.pop(key, None)
                    self.expirations.pop(key, None)
                    self.locks.pop(key, None)
                    removed += 1
        return removed

    def get(self, key: str) -> int:
        with self.lock:
            return super().get(key)

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """As `MemoryStorage.incr`, the new counter's expiry also kept in the heap."""
        with self.lock:
            self.get(key)
            self.sweep()
            self.storage[key] += amount
            if self.storage[key] == amount:
                self.expirations[key] = due = time.time() + expiry
                heapq.heappush(self.due, (due, key))
            return self.storage.get(key, 0)

    def decr(self, key: str, amount: int = 1) -> int:
        with self.lock:
            return super().decr(key, amount)

    def clear(self, key: str) -> None:
        with self.lock:
            super().clear(key)

    def reset(self) -> int | None:
        with self.lock:
            return super().reset()
