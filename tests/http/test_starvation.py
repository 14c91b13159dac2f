"""No starvation: gunicorn (the repository's gunicorn.conf.py and its default worker set-up)
on a free loopback port, six /v1/suggest calls with the largest budget in flight, and
/healthz and a cheap engine endpoint probed meanwhile.

The largest budget is iterations 20000 and time_ms 10000 with plan "turn"; every suggestion
is bounded by SUGGEST_MAX_MS (20 s by default). The test sets SUGGEST_MAX_MS to 1.5 s, which
keeps the meaning (each of those calls runs to the request deadline, not to its budget: the
compiled engine searched all 20,000 iterations within 4 s on a quiet machine) and the test's
wall time short.
"""

from __future__ import annotations

import http.client
import json
import runpy
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from http_support import schema_errors

import engine.architectura as arch
from benchmarks.local import ROOT, gunicorn

MAX_MS = 1500
SUGGESTS = 6
PROBES = 8


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = {
        "WEB_CONCURRENCY": "2",
        "SUGGEST_MAX_MS": str(MAX_MS),
        "BODY_READ_TIMEOUT_S": "1",
        "LOG_LEVEL": "warning",
    }
    for name in ("GUNICORN_WORKER_CLASS", "GUNICORN_THREADS", "SUGGEST_CONCURRENCY"):
        env[name] = ""  # the defaults of gunicorn.conf.py, whatever the caller's environment
    with gunicorn(env) as base:
        yield base


def request(
    base: str, method: str, path: str, body: Any = None, timeout: float = 60
) -> tuple[int, dict[str, str], Any, float]:
    """(status, headers, JSON body, seconds) of one request on a new connection."""
    url = urlsplit(base)
    assert url.hostname is not None
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        headers = {} if data is None else {"Content-Type": "application/json"}
        conn.request(method, path, data, headers)
        r = conn.getresponse()
        out = json.loads(r.read())
        return r.status, dict(r.headers), out, time.perf_counter() - t0
    finally:
        conn.close()


def test_health_and_cheap_requests_answer_while_the_largest_searches_run(server: str) -> None:
    state = arch.new_game({"seats": 4, "seed": 5, "variant": "basic"})  # long rollouts
    seat = state["pending"]["seat"]
    body = {
        "state": state,
        "seat": seat,
        "budget": {"iterations": 20_000, "time_ms": 10_000},
        "plan": "turn",
    }
    results: list[tuple[int, dict[str, str], Any, float]] = []
    lock = threading.Lock()

    def one() -> None:
        out = request(server, "POST", "/v1/suggest", body, timeout=60)
        with lock:
            results.append(out)

    threads = [threading.Thread(target=one) for _ in range(SUGGESTS)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(0.5)  # the searches are under way
    probes = []
    for i in range(PROBES):
        status, _, out, took = request(server, "GET", "/healthz", timeout=5)
        probes.append((status, took))
        if i % 2:  # an engine endpoint too, on a state of the same size
            status, _, out, took = request(
                server, "POST", "/v1/legal-moves", {"state": state}, timeout=5
            )
            assert status == 200 and took < 1.0, (status, took)
        time.sleep(0.2)
    for t in threads:
        t.join(timeout=60)
    wall = time.perf_counter() - t0
    assert all(s == 200 for s, _ in probes), probes
    assert max(took for _, took in probes) < 1.0, probes
    assert len(results) == SUGGESTS and wall < 60
    statuses = sorted(s for s, *_ in results)
    assert set(statuses) <= {200, 429, 503}, statuses
    assert statuses.count(200) >= 1  # searches did run (one per worker at most by default)
    for status, headers, out, took in results:
        assert took < 60
        if status == 200:
            # the budget outlasts the request deadline: cut there, a few ms past it at most
            assert out["stats"]["truncated"] is True
            assert out["stats"]["elapsed_ms"] < MAX_MS + 500
            assert out["decision"] in state["pending"]["options"]
        else:
            assert headers["Content-Type"] == "application/problem+json"
            assert int(headers["Retry-After"]) >= 1
            assert out["code"] in ("suggest_busy", "rate_limited"), out


def test_a_stalled_body_is_cut_off_and_does_not_hold_a_thread(server: str) -> None:
    """A client that sends part of its body and then stalls gets 408 after
    BODY_READ_TIMEOUT_S (1 s here) of silence; meanwhile /healthz answers."""
    url = urlsplit(server)
    assert url.hostname is not None and url.port is not None
    stalled = []
    for _ in range(3):
        s = socket.create_connection((url.hostname, url.port), timeout=10)
        s.sendall(
            b"POST /v1/legal-moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        stalled.append(s)
    t0 = time.perf_counter()
    status, _, _, took = request(server, "GET", "/healthz", timeout=5)
    assert status == 200 and took < 1.0
    for s in stalled:
        answer = http.client.HTTPResponse(s)
        answer.begin()
        problem = json.loads(answer.read())
        assert answer.status == 408, problem
        assert problem["code"] == "body_timeout"
        # the connection closes after it, and the answer says so (it said keep-alive)
        assert answer.getheader("Connection") == "close"
        assert schema_errors("Problem", problem) == []  # openapi.yaml's BodyTimeout
        s.close()
    assert time.perf_counter() - t0 < 5


def _settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in ("GUNICORN_WORKER_CLASS", "GUNICORN_THREADS", "SUGGEST_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_the_configured_worker_class_is_the_one_gunicorn_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gunicorn runs gthread whenever threads > 1, whatever the worker class says: sync must
    come with one thread, and the default is gthread with room beside the searches. Both run
    as app/server_errors.py's subclasses (gunicorn's refusals as problems: tested through
    gunicorn in test_e2e_gunicorn.py); another class named is gunicorn's own."""
    default = _settings(monkeypatch)
    assert (default["worker_class"], default["threads"]) == ("app.server_errors.ThreadWorker", 4)
    sync = _settings(monkeypatch, GUNICORN_WORKER_CLASS="sync", GUNICORN_THREADS="8")
    assert (sync["worker_class"], sync["threads"]) == ("app.server_errors.SyncWorker", 1)
    assert _settings(monkeypatch, GUNICORN_WORKER_CLASS="gevent")["worker_class"] == "gevent"
    assert _settings(monkeypatch, GUNICORN_THREADS="6")["threads"] == 6
    with pytest.raises(ValueError, match="SUGGEST_CONCURRENCY"):
        _settings(monkeypatch, GUNICORN_THREADS="2", SUGGEST_CONCURRENCY="2")
