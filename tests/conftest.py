"""Fixtures every test module may use: the referee app and its test client (as
`http_support.make_app` builds it: TESTING, LOG_LEVEL WARNING), a factory of configured apps,
and throw-away redis-servers (ai/redis_server.py)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

# Each xdist worker counts its own metrics. app.metrics keeps prometheus-client's files in
# PROMETHEUS_MULTIPROC_DIR, and the controller (which imported the app through this file
# before it started the workers) would otherwise hand its directory to every worker, so
# that one worker's requests showed in another's counters.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    _METRICS = tempfile.mkdtemp(prefix=f"referee-metrics-{_WORKER}-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _METRICS
    atexit.register(shutil.rmtree, _METRICS, True)

import http_support  # noqa: E402
import pytest  # noqa: E402

from ai.redis_server import RedisServer  # noqa: E402


@pytest.fixture(scope="session")
def make_app() -> Callable[..., Any]:
    """The factory of configured apps: `make_app(RATE_LIMIT="3/minute")` (a fixture of any
    scope may use it)."""
    return http_support.make_app


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    """An app of this test alone, with the default settings."""
    return make_app()


@pytest.fixture
def client(app: Any) -> Any:
    """A test client of `app`."""
    return app.test_client()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    """A throw-away redis-server shared by the tests of one module (what one test writes,
    the next may read)."""
    with RedisServer() as server:
        yield server


@pytest.fixture
def fresh_redis_server() -> Iterator[RedisServer]:
    """A throw-away redis-server of this test alone: for a test that counts what Redis holds,
    reconfigures it or stops it. It evicts nothing, as the queue's Redis must not
    (ai/taskqueue.py `evicting`)."""
    with RedisServer(policy="noeviction") as server:
        yield server


@pytest.fixture
def fresh_cache_redis_server() -> Iterator[RedisServer]:
    """A throw-away redis-server of this test alone, configured as a position cache's must
    be (bounded, evicting: ai/cache.py `unbounded_by`)."""
    with RedisServer() as server:
        yield server
