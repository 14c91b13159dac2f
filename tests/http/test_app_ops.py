"""Operations (issue 7, items 3 and 6): CORS for browser apps (CORS_ORIGINS), Prometheus
metrics at /metrics (every gunicorn worker counted), per-client rate limiting (RATE_LIMIT,
in Redis when REDIS_URL is set)."""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from http_support import check_response
from prometheus_client.parser import text_string_to_metric_families

import engine.architectura as arch
from ai.redis_server import RedisServer, free_port
from app.metrics import _children
from benchmarks.local import gunicorn

SETUP = {"seats": 2, "seed": 1}
ORIGIN = "https://table.example"


# -- CORS -------------------------------------------------------------------------------------


def _preflight(client: Any, origin: str) -> Any:
    return client.options(
        "/v1/resolve",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )


def test_no_cors_headers_unless_configured(client: Any) -> None:
    r = client.post("/v1/games", json=SETUP, headers={"Origin": ORIGIN})
    assert r.status_code == 200
    assert not [h for h, _ in r.headers.items() if h.lower().startswith("access-control-")]
    assert "Access-Control-Allow-Origin" not in _preflight(client, ORIGIN).headers


def test_cors_for_configured_origins_only(make_app: Any) -> None:
    client = make_app(CORS_ORIGINS=f"{ORIGIN}, https://other.example").test_client()
    r = client.post("/v1/games", json=SETUP, headers={"Origin": ORIGIN})
    assert r.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "X-Request-ID" in r.headers["Access-Control-Expose-Headers"]
    pre = _preflight(client, ORIGIN)
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert "content-type" in pre.headers["Access-Control-Allow-Headers"].lower()
    # a problem answer is readable by the page too
    r = client.post("/v1/games", json={"seats": 9}, headers={"Origin": ORIGIN})
    assert r.status_code == 422 and r.headers["Access-Control-Allow-Origin"] == ORIGIN
    # an origin not listed gets no CORS header: the browser withholds the answer
    r = client.post("/v1/games", json=SETUP, headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in r.headers
    assert "Access-Control-Allow-Origin" not in _preflight(client, "https://evil.example").headers
    # and says it depends on the Origin, so that a shared cache keeps it from a listed one
    # (was: `Vary: Origin` on the listed origins' answers only)
    assert "Origin" in r.headers.get("Vary", "")
    assert "Origin" in client.get("/v1/games").headers.get("Vary", "")


def test_cors_origins_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.settings import config_from_env

    monkeypatch.setenv("CORS_ORIGINS", " https://a.example ,https://b.example,")
    assert config_from_env()["CORS_ORIGINS"] == ["https://a.example", "https://b.example"]
    monkeypatch.setenv("CORS_ORIGINS", "")
    assert config_from_env()["CORS_ORIGINS"] is None


# -- metrics ----------------------------------------------------------------------------------


def scrape(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus exposition: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def metrics(client: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    return scrape(r.get_data(as_text=True))


def requests_total(m: dict[Any, float], endpoint: str, status: str, method: str = "POST") -> float:
    key = (
        "referee_http_requests_total",
        (("endpoint", endpoint), ("method", method), ("status", status)),
    )
    return m.get(key, 0.0)


def test_each_test_process_counts_its_own_metrics() -> None:
    """Under pytest-xdist every worker keeps its metrics in a directory of its own (see
    tests/conftest.py): a shared one let other workers' requests into these tests' counts."""
    import app.metrics

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    assert os.path.isdir(app.metrics.MULTIPROC_DIR)
    if worker:
        assert os.path.basename(app.metrics.MULTIPROC_DIR).startswith(f"referee-metrics-{worker}-")


def test_requests_are_counted_by_route_and_status(client: Any) -> None:
    before = metrics(client)
    for _ in range(3):
        client.post("/v1/games", json=SETUP)
    client.post("/v1/games", json={"game": "chess"})  # no game: a 400 (a bad seat count is a 422)
    client.get("/v1/catalogs/reference")
    client.get("/v1/catalogs/nothing")
    client.get("/no/such/path")
    after = metrics(client)

    def delta(endpoint: str, status: str, method: str = "POST") -> float:
        return requests_total(after, endpoint, status, method) - requests_total(
            before, endpoint, status, method
        )

    assert delta("/v1/games", "200") == 3
    assert delta("/v1/games", "400") == 1
    assert delta("/v1/catalogs/<catalog_id>", "200", "GET") == 1
    assert delta("/v1/catalogs/<catalog_id>", "404", "GET") == 1
    assert delta("<unmatched>", "404", "GET") == 1
    labels = (("endpoint", "/v1/games"), ("method", "POST"), ("status", "200"))
    count = "referee_http_request_duration_seconds_count"
    assert after[(count, labels)] - before.get((count, labels), 0) == 3
    inf = (*labels[:1], ("le", "+Inf"), *labels[1:])
    assert after[("referee_http_request_duration_seconds_bucket", inf)] >= 3


def test_made_up_methods_share_one_label(client: Any) -> None:
    """A client inventing methods (FOO1, FOO2, …) must not grow the label sets without bound:
    any method no route knows is counted as OTHER."""
    before = metrics(client)
    for i in range(5):
        assert client.open("/v1/games", method=f"FOO{i}").status_code == 405
    after = metrics(client)
    assert not [k for k in after if ("method", "FOO0") in k[1]]
    other = requests_total(after, "<unmatched>", "405", "OTHER")
    assert other - requests_total(before, "<unmatched>", "405", "OTHER") == 5


def test_made_up_methods_are_not_remembered_one_by_one(client: Any) -> None:
    """The label children are remembered per label set, not per method sent: long made-up
    methods (a request line may hold kilobytes) neither fill the cache nor push out the
    children of real requests."""
    client.open("/v1/games", method="FOO-warm")
    before = _children.cache_info().currsize
    for i in range(50):
        assert client.open("/v1/games", method=f"X{i}" + "Y" * 2000).status_code == 405
    assert _children.cache_info().currsize == before


def test_suggest_iterations_and_cache_hits(client: Any) -> None:
    state = arch.new_game({"seats": 2, "seed": 11})
    body = {"state": state, "seat": 0, "budget": {"iterations": 40}, "seed": 3}
    before = metrics(client)
    r1 = client.post("/v1/suggest", json=body)
    r2 = client.post("/v1/suggest", json=body)
    assert r1.status_code == r2.status_code == 200, r1.get_json()
    assert r1.get_json()["cached"] is False and r2.get_json()["cached"] is True
    after = metrics(client)

    def delta(name: str, labels: tuple[tuple[str, str], ...] = ()) -> float:
        return after.get((name, labels), 0) - before.get((name, labels), 0)

    assert delta("referee_suggest_cache_total", (("result", "miss"),)) == 1
    assert delta("referee_suggest_cache_total", (("result", "hit"),)) == 1
    assert delta("referee_suggest_iterations_count") == 1
    assert delta("referee_suggest_iterations_sum") == r1.get_json()["stats"]["iterations"]


def test_position_cache_state(make_app: Any, client: Any) -> None:
    m = metrics(client)
    assert m[("referee_position_cache_up", (("backend", "memory"),))] == 1
    dead = f"redis://127.0.0.1:{free_port()}/0"
    m = metrics(make_app(CACHE_REDIS_URL=dead).test_client())
    assert m[("referee_position_cache_up", (("backend", "redis"),))] == 0


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode())


@pytest.mark.slow
def test_metrics_add_up_every_gunicorn_worker(tmp_path: Path) -> None:
    """Two sync workers each serve some of the requests; /metrics (served by one of them)
    counts all of them. Requests go out eight at a time, so that a busy worker leaves the
    next connection to the other one (one at a time, the kernel may hand every connection
    to the same worker)."""
    from concurrent.futures import ThreadPoolExecutor

    env = {"WEB_CONCURRENCY": "2", "GUNICORN_WORKER_CLASS": "sync"}
    env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path)
    sent = 0

    def workers() -> set[str]:
        return {f.name.split("_")[-1] for f in tmp_path.glob("counter_*.db")}

    with gunicorn(env) as base, ThreadPoolExecutor(8) as pool:
        while sent < 2000 and (sent < 60 or len(workers()) < 2):
            list(pool.map(_get, [base + "/v1/catalogs"] * 40))
            sent += 40
        m = scrape(_get(base + "/metrics"))
    assert len(workers()) >= 2, workers()  # both workers counted requests
    assert requests_total(m, "/v1/catalogs", "200", "GET") == sent


def test_metrics_directory_made_when_unset(tmp_path: Path) -> None:
    """Without PROMETHEUS_MULTIPROC_DIR a fresh process makes its own directory, and
    removes it at exit."""
    import subprocess
    import sys

    code = (
        "import os, app.metrics as m; print(m.MULTIPROC_DIR); "
        "assert os.environ['PROMETHEUS_MULTIPROC_DIR'] == m.MULTIPROC_DIR; "
        "assert os.path.isdir(m.MULTIPROC_DIR)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    made = Path(out.stdout.strip())
    assert made.name.startswith("referee-metrics-") and not made.exists()


# -- rate limiting ----------------------------------------------------------------------------


def _post(client: Any, addr: str = "10.0.0.1", **headers: str) -> Any:
    return client.post("/v1/games", json=SETUP, environ_base={"REMOTE_ADDR": addr}, headers=headers)


def test_no_rate_limit_unless_configured(client: Any) -> None:
    assert all(_post(client).status_code == 200 for _ in range(30))


def test_rate_limit_per_client_with_retry_after(make_app: Any) -> None:
    client = make_app(RATE_LIMIT="3/minute").test_client()
    assert [_post(client).status_code for _ in range(3)] == [200, 200, 200]
    r = _post(client)
    body = check_response("POST", "/v1/games", r)
    assert r.status_code == 429 and body["code"] == "rate_limited"
    assert r.mimetype == "application/problem+json" and "RATE_LIMIT" in body["detail"]
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    # another client has its own allowance; health and metrics are never limited
    assert _post(client, "10.0.0.2").status_code == 200
    assert all(client.get(p).status_code == 200 for p in ["/healthz", "/metrics"] * 5)
    # the limit applies to every /v1 endpoint of the client
    r = client.get("/v1/catalogs", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert check_response("GET", "/v1/catalogs", r)["code"] == "rate_limited"


def test_rate_limit_behind_a_proxy(make_app: Any) -> None:
    """With TRUSTED_PROXY_HOPS=1 the client is the address the proxy saw, not the proxy."""
    client = make_app(RATE_LIMIT="2/minute", TRUSTED_PROXY_HOPS=1).test_client()
    for _ in range(2):
        assert _post(client, "172.18.0.5", **{"X-Forwarded-For": "203.0.113.7"}).status_code == 200
    assert _post(client, "172.18.0.5", **{"X-Forwarded-For": "203.0.113.7"}).status_code == 429
    assert _post(client, "172.18.0.5", **{"X-Forwarded-For": "203.0.113.8"}).status_code == 200


def test_bad_rate_limit_is_refused_at_start(make_app: Any) -> None:
    with pytest.raises(ValueError, match="RATE_LIMIT"):
        make_app(RATE_LIMIT="lots")


def test_rate_limit_shared_through_redis(make_app: Any, redis_server: RedisServer) -> None:
    """Two app instances (two workers, or two replicas) count one client together."""
    a = make_app(RATE_LIMIT="3/minute", REDIS_URL=redis_server.url).test_client()
    b = make_app(RATE_LIMIT="3/minute", REDIS_URL=redis_server.url).test_client()
    assert [_post(a).status_code, _post(b).status_code, _post(a).status_code] == [200] * 3
    assert _post(b).status_code == 429
    # without Redis each instance would have allowed 3 of its own
    c = make_app(RATE_LIMIT="3/minute").test_client()
    d = make_app(RATE_LIMIT="3/minute").test_client()
    assert [_post(x).status_code for x in (c, d, c, d, c, d)] == [200] * 6


def test_rate_limit_store_down_lets_requests_through(make_app: Any) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    client = make_app(RATE_LIMIT="100/minute", REDIS_URL=dead).test_client()
    assert [_post(client).status_code for _ in range(3)] == [200] * 3


def test_every_limited_operation_documents_429() -> None:
    """Every /v1 operation may answer 429 once RATE_LIMIT is set: the contract says so."""
    from http_support import spec

    missing = [
        f"{method.upper()} {path}"
        for path, ops in spec()["paths"].items()
        if path.startswith("/v1/")
        for method, op in ops.items()
        if method in ("get", "post") and "429" not in op["responses"]
    ]
    assert not missing, missing


def test_a_browser_may_cancel_a_job(make_app: Any) -> None:
    """DELETE /v1/jobs/{id} cancels a job; its preflight allowed GET and POST only, so a page
    could not (audit of 2026-11-29)."""
    client = make_app(CORS_ORIGINS=ORIGIN).test_client()
    pre = client.options(
        "/v1/jobs/00000000-0000-4000-8000-000000000000",
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": "DELETE"},
    )
    assert pre.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "DELETE" in pre.headers["Access-Control-Allow-Methods"]


def test_an_in_memory_rate_limit_forgets_clients_after_their_window(make_app: Any) -> None:
    """Audit of 2026-11-30: the moving window's in-memory store kept every client address it
    had seen (limits 5.8 empties a key's list but keeps the key) and rescanned them all after
    each request: 100,000 addresses took a worker +60 MB and 77 % of a core, for good. The
    sliding-window counters kept now expire with their windows."""
    import time

    app = make_app(RATE_LIMIT="100/second")
    client = app.test_client()
    for i in range(300):
        assert _post(client, f"10.1.{i // 256}.{i % 256}").status_code == 200
    storage: Any = app.extensions["rate_limiter"].limiter.storage
    held = lambda: len(storage.storage) + len(storage.events)  # noqa: E731
    assert held() >= 300
    time.sleep(2.2)  # two windows: the last one's weight is gone too
    for _ in range(2):  # each request sweeps up to SWEEP_MAX due counters (app/ratestore.py)
        _post(client, "10.9.9.9")
    assert held() <= 2


def test_an_ipv6_client_is_its_64_block(make_app: Any) -> None:
    """Audit of 2026-11-30: each IPv6 address had its own allowance, and a subscriber's /64
    holds 2^64 of them. Addresses of one /64 share one; an IPv4-mapped address is its IPv4."""
    client = make_app(RATE_LIMIT="2/minute").test_client()
    assert _post(client, "2001:db8:1:2::1").status_code == 200
    assert _post(client, "2001:db8:1:2:ffff::9").status_code == 200
    assert _post(client, "2001:db8:1:2::abcd").status_code == 429  # the same /64
    assert _post(client, "2001:db8:1:3::1").status_code == 200  # the next /64
    assert _post(client, "::ffff:10.2.0.1").status_code == 200
    assert _post(client, "10.2.0.1").status_code == 200
    assert _post(client, "::ffff:10.2.0.1").status_code == 429


class _CountedKeys(dict):  # type: ignore[type-arg]
    """An expirations table that counts the scans of all its keys (`keys()`)."""

    scans = 0

    def keys(self) -> Any:
        self.scans += 1
        return super().keys()


def test_an_in_memory_rate_limit_never_rescans_its_live_clients(make_app: Any) -> None:
    """Audit of 2026-11-30 (2nd): limits' MemoryStorage rescanned every live counter 10 ms
    after each request (130,000 counters, 65,536 clients of one IPv6 /48 in the window: 24 ms
    a scan, over half a core at 200 requests a second). app/ratestore.py sweeps only the
    counters that are due, in the main store and in the fallback used while Redis is down."""
    import time

    from limits.storage import MemoryStorage

    from app.ratestore import SweptMemoryStorage

    stock = MemoryStorage()  # the measure sees the stock store's scans
    stock.expirations = _CountedKeys()
    stock.incr("a", 60)
    time.sleep(0.1)
    assert stock.expirations.scans >= 1

    app = make_app(RATE_LIMIT="50/second")
    client = app.test_client()
    storage: Any = app.extensions["rate_limiter"].limiter.storage
    assert isinstance(storage, SweptMemoryStorage)
    storage.expirations = _CountedKeys(storage.expirations)
    for i in range(200):
        assert _post(client, f"10.3.{i // 256}.{i % 256}").status_code == 200
    time.sleep(0.1)
    assert storage.expirations.scans == 0
    time.sleep(2.1)  # two windows of 1 s: every counter is due
    _post(client, "10.9.9.8")
    assert len(storage.storage) == 1 and len(storage.due) == 1

    # one request sweeps SWEEP_MAX due counters at most (made in a burst, they fall due
    # together); the next ones take the rest
    from app.ratestore import SWEEP_MAX

    burst = SweptMemoryStorage()
    for i in range(3 * SWEEP_MAX):  # all due at once, but none while they are being made
        burst.incr(f"k{i}", 0.5)
    time.sleep(0.6)
    assert [burst.sweep() for _ in range(4)] == [SWEEP_MAX] * 3 + [0]
    assert not burst.storage and not burst.expirations and not burst.due

    dead = f"redis://127.0.0.1:{free_port()}/0"
    down = make_app(RATE_LIMIT="2/minute", REDIS_URL=dead)
    fallback: Any = down.extensions["rate_limiter"]._fallback_storage
    assert isinstance(fallback, SweptMemoryStorage)
    client = down.test_client()
    assert [_post(client, "10.4.0.1").status_code for _ in range(3)] == [200, 200, 429]
    assert len(fallback.storage) == 1


class _SlowExpirations(dict[str, float]):
    """Expiries whose first read of `key` answers what it read only once `made` is set (or
    after 0.5 s): the moment a `get` sits between its check and its drop."""

    def __init__(self, key: str, inside: Any, made: Any) -> None:
        super().__init__()
        self.key, self.inside, self.made, self.first = key, inside, made, True

    def get(self, key: str, default: Any = None) -> Any:
        value = super().get(key, default)
        if key == self.key and self.first:
            self.first = False
            self.inside.set()
            self.made.wait(0.5)
        return value


def test_a_new_clients_first_count_is_never_dropped_by_a_concurrent_read() -> None:
    """Audit of 2026-11-30: limits' `get` checks a counter's expiry, then drops it, with no
    lock. A `get` that read "no counter" and a first `incr` that made it in between dropped
    the new count, and the client's requests were counted from zero again (2 to 3 times the
    limit admitted in a burst). Every read and change now holds the store's lock."""
    import threading

    from app.ratestore import SweptMemoryStorage

    store = SweptMemoryStorage()
    inside, made = threading.Event(), threading.Event()
    store.expirations = _SlowExpirations("k", inside, made)
    reader = threading.Thread(target=store.get, args=("k",))
    reader.start()
    assert inside.wait(5)  # the read has checked, not yet dropped

    def first() -> None:
        store.incr("k", 60)
        made.set()

    writer = threading.Thread(target=first)
    writer.start()
    reader.join(5)
    writer.join(5)
    assert store.incr("k", 60) == 2  # both counted


def test_the_one_command_service_listens_on_this_machine_only() -> None:
    """Deployment audit of 2026-11-30: `bash scripts/serve.sh` listened on every interface,
    so another machine met gunicorn unbuffered and read /metrics and /readyz. It binds
    127.0.0.1 unless BIND says otherwise (compose.yaml puts nginx in front instead); the
    container's own default (gunicorn.conf.py) stays every interface, behind that proxy."""
    import subprocess

    serve = (Path(__file__).parents[2] / "scripts" / "serve.sh").read_text()
    lines = serve[: serve.index("exec ")].splitlines()
    env_lines = "\n".join(line for line in lines if line.startswith("export "))
    for given, bound in (({}, "127.0.0.1:8000"), ({"BIND": "0.0.0.0:9"}, "0.0.0.0:9")):
        out = subprocess.run(
            ["bash", "-c", env_lines + '\necho "$BIND"'],
            env={"PATH": os.environ["PATH"], **given},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == bound
