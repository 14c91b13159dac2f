"""Prometheus metrics at GET /metrics (prometheus-client).

- `referee_http_requests_total{method, endpoint, status}` and
  `referee_http_request_duration_seconds{method, endpoint, status}` (a histogram): every
  request, `endpoint` being the route's rule (`/v1/catalogs/<catalog_id>`; `<unmatched>` for
  a path no route has, so a scan of random paths cannot make unbounded label values);
- `referee_suggest_iterations` (a histogram) of each search `/v1/suggest` runs, and
  `referee_suggest_cache_total{result="hit"|"miss"}` for each decision it answers (a plan
  of several steps counts each step);
- `referee_position_cache_up{backend}`: 1 while the bots' position cache's readiness check
  is ok (it answers; a Redis, when CACHE_REDIS_URL is set, bounded and evicting), read when
  /metrics is scraped.

gunicorn runs several worker processes, each with its own counters; prometheus-client's
multiprocess mode adds them up. Its files live in PROMETHEUS_MULTIPROC_DIR: when the
variable is unset, the first process that imports this module (the gunicorn master: the
app is preloaded before the fork) makes a temporary directory, and the workers inherit it;
the process that made it removes it at exit. A directory given by the operator must be
emptied before the service starts (prometheus-client's rule).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from functools import lru_cache
from typing import Any

import orjson
from flask import Flask, Response, current_app

from app import current

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def _multiprocess_dir() -> str:
    path = os.environ.get(MULTIPROC_ENV)
    if path:
        return path
    path = tempfile.mkdtemp(prefix="referee-metrics-")
    os.environ[MULTIPROC_ENV] = path
    owner = os.getpid()

    def _remove() -> None:  # forked workers inherit this hook: only the owner removes
        if os.getpid() == owner:
            shutil.rmtree(path, ignore_errors=True)

    atexit.register(_remove)
    return path


MULTIPROC_DIR = _multiprocess_dir()

# prometheus-client picks its value class (shared files or process memory) when imported:
# after the directory is known.
from prometheus_client import (  # noqa: E402
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)

if values.ValueClass.__name__ != "MmapedValue":  # imported earlier, before the variable
    values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
REQUESTS = Counter(
    "referee_http_requests",
    "HTTP requests answered, by method, route and status.",
    ["method", "endpoint", "status"],
)
LATENCY = Histogram(
    "referee_http_request_duration_seconds",
    "Time to answer an HTTP request, by method, route and status.",
    ["method", "endpoint", "status"],
    buckets=BUCKETS,
)
SUGGEST_ITERATIONS = Histogram(
    "referee_suggest_iterations",
    "ISMCTS iterations of each search run by /v1/suggest (cached answers excluded).",
    buckets=(1, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 20_000),
)
SUGGEST_CACHE = Counter(
    "referee_suggest_cache",
    "Decisions answered by /v1/suggest from the position cache (hit) or by a search (miss).",
    ["result"],
)
CACHE_UP = Gauge(
    "referee_position_cache_up",
    "1 when the bots' position cache's readiness check is ok (it answers; a Redis, when "
    "CACHE_REDIS_URL is set, bounded and evicting), else 0.",
    ["backend"],
    multiprocess_mode="mostrecent",
)

SUGGEST_RULE = "/v1/suggest"


def _record_suggest(response: Response) -> None:
    """Search statistics from a /v1/suggest answer (the route is the bots' own module;
    its answer says what was searched and what came from the cache)."""
    try:
        out: Any = orjson.loads(response.get_data())
        steps = [{"iterations": out["stats"]["iterations"], "cached": out["cached"]}]
        steps += out.get("turn", [])[1:]  # the plan's first step is the decision itself
        for step in steps:
            if step["cached"]:
                SUGGEST_CACHE.labels("hit").inc()
            else:
                SUGGEST_CACHE.labels("miss").inc()
                SUGGEST_ITERATIONS.observe(float(step["iterations"]))
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return  # an answer of another shape: nothing to count


KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


@lru_cache(maxsize=4096)
def _children(method: str, rule: str, status: int) -> tuple[Any, Any]:
    """The request counter and latency histogram of one label set (looked up once: the
    label lookup was a measurable part of a request); `method` is a label (`_method`)."""
    labels = (method, rule, str(status))
    return REQUESTS.labels(*labels), LATENCY.labels(*labels)


def _method(method: str) -> str:
    """The method's label: any other than KNOWN_METHODS counts as `OTHER`, so that a client
    sending made-up methods grows neither the label sets nor `_children`'s cache."""
    return method if method in KNOWN_METHODS else "OTHER"


def install_metrics(app: Flask) -> None:
    """Count every request and serve GET /metrics."""

    @app.after_request
    def _count(response: Response) -> Response:
        # the request's start as the access log took it (app/logging.py, installed first)
        t0 = current.values().get("t0")
        if t0 is None:  # pragma: no cover - a request that skipped before_request
            return response
        req = current.req()
        rule = req.url_rule.rule if req.url_rule is not None else "<unmatched>"
        count, latency = _children(_method(req.method), rule, response.status_code)
        count.inc()
        latency.observe(time.perf_counter() - t0)
        if rule == SUGGEST_RULE and response.status_code == 200:
            _record_suggest(response)
        return response

    @app.get("/metrics")
    def metrics() -> Response:
        """Prometheus text exposition of every worker's metrics."""
        cache = current_app.extensions.get("position_cache")
        if cache is not None:
            try:
                st = cache.status()
                CACHE_UP.labels(str(st["backend"])).set(1 if st["ok"] else 0)
            except Exception:  # a status that fails is a cache that is down
                CACHE_UP.labels("unknown").set(0)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
