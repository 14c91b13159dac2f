"""HTTP load benchmark: POST /v1/resolve on a mid-game 4-seat state, against gunicorn.

    python -m benchmarks.http [--seconds 10] [--connections 4] [--workers 2]
                              [--worker-class gthread|sync] [--threads 4]
                              [--searches 0] [--client auto|wrk|python]

Starts gunicorn with the repository's gunicorn.conf.py on a free loopback port, builds a
mid-game 4-seat state with the engine (random legal decisions from a seeded set-up) and
drives /v1/resolve with one legal decision, using `wrk` (a real load generator; installed
with apt-get when missing and allowed) or, failing that, a multi-process Python client with
keep-alive connections. Every response must be a 200. Prints requests/s and p50/p90/p99
latency; the last line is `resolve_rps=<number>`.

With `--searches N`, N clients meanwhile ask /v1/suggest for the largest budget (20000
iterations, 10 s) over and over, each as soon as the last answer came: the figures are then
those of cheap requests while the searches hold the CPU. Their answers (200, or 503 when the
worker's SUGGEST_CONCURRENCY searches already run) are counted and printed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import engine.architectura as arch
from benchmarks.local import gunicorn

ROOT = Path(__file__).resolve().parent.parent

WRK_SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BENCH_BODY"), "rb"))
wrk.body = f:read("*all")
f:close()
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format(
    "RESULT {\\"requests\\": %d, \\"duration_us\\": %d, \\"p50_us\\": %d, \\"p90_us\\": %d, " ..
    "\\"p99_us\\": %d, \\"max_us\\": %d, \\"errors\\": %d, \\"non_200\\": %d}\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max,
    summary.errors.connect + summary.errors.read + summary.errors.write +
    summary.errors.status + summary.errors.timeout, bad))
end
"""


def mid_game(seed: int = 4, decisions: int = 40) -> tuple[dict[str, Any], list[Any]]:
    """A 4-seat set-up and the random legal decisions that take it some 40 decisions in
    (every seat has cards in the city), not yet over."""
    rnd = random.Random(seed)
    setup = {"seats": 4, "seed": seed, "variant": "basic"}
    state = arch.new_game(setup)
    played = []
    for _ in range(decisions):
        played.append(rnd.choice(arch.legal_decisions(state)["options"]))
        state, _ = arch.apply(state, played[-1])
    assert not state["game_over"], "the benchmark state must be mid-game"
    return setup, played


def mid_game_body(seed: int = 4, decisions: int = 40) -> dict[str, Any]:
    """The state `mid_game` reaches, and one of the legal decisions of its pending turn."""
    setup, played = mid_game(seed, decisions)
    state, _ = arch.apply_all(arch.new_game(setup), played)
    return resolve_body(state)


def resolve_body(state: dict[str, Any]) -> dict[str, Any]:
    """A /v1/resolve body: `state` and the middle one of its listed options."""
    options = state["pending"]["options"]
    return {"state": state, "decisions": [options[len(options) // 2]]}


def find_wrk(install: bool) -> str | None:
    wrk = shutil.which("wrk")
    if wrk or not install or not shutil.which("apt-get") or os.geteuid() != 0:
        return wrk
    print("wrk not found; trying apt-get install -y wrk", file=sys.stderr)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "wrk"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return shutil.which("wrk")


def run_wrk(wrk: str, url: str, body_file: str, seconds: int, connections: int) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(WRK_SCRIPT)
        script = f.name
    try:
        # warm-up, then the measured run
        for duration in (2, seconds):
            out = subprocess.run(
                [wrk, "-t1", f"-c{connections}", f"-d{duration}s", "-s", script, url],
                env={**os.environ, "BENCH_BODY": body_file},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
    finally:
        os.unlink(script)
    line = next(x for x in out.splitlines() if x.startswith("RESULT "))
    r = json.loads(line.removeprefix("RESULT "))
    return {
        "client": "wrk",
        "requests": r["requests"],
        "rps": r["requests"] / (r["duration_us"] / 1e6),
        "p50_ms": r["p50_us"] / 1000,
        "p90_ms": r["p90_us"] / 1000,
        "p99_ms": r["p99_us"] / 1000,
        "max_ms": r["max_us"] / 1000,
        "failures": r["errors"] + r["non_200"],
    }


def _client(port: int, body: bytes, seconds: float, queue: Any) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    latencies: list[float] = []
    failures = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        conn.request("POST", "/v1/resolve", body=body, headers=headers)
        r = conn.getresponse()
        r.read()
        latencies.append(time.perf_counter() - t0)
        if r.status != 200:
            failures += 1
        if r.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    queue.put((latencies, failures))


def run_python(port: int, body: bytes, seconds: int, connections: int) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    results: list[tuple[list[float], int]] = []
    elapsed = 0.0
    for duration in (2.0, float(seconds)):  # warm-up, then the measured run
        procs = [
            ctx.Process(target=_client, args=(port, body, duration, queue))
            for _ in range(connections)
        ]
        t0 = time.perf_counter()
        for p in procs:
            p.start()
        results = [queue.get() for _ in procs]
        for p in procs:
            p.join()
        elapsed = time.perf_counter() - t0
    latencies = sorted(x for lat, _ in results for x in lat)
    q = statistics.quantiles(latencies, n=100)
    return {
        "client": "python",
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50_ms": q[49] * 1000,
        "p90_ms": q[89] * 1000,
        "p99_ms": q[98] * 1000,
        "max_ms": latencies[-1] * 1000,
        "failures": sum(f for _, f in results),
    }


class Searches:
    """`n` threads each posting the largest /v1/suggest in a loop until stopped."""

    def __init__(self, port: int, n: int) -> None:
        state = arch.new_game({"seats": 4, "seed": 5})
        self.request = {
            "state": state,
            "seat": state["pending"]["seat"],
            "budget": {"iterations": 20_000, "time_ms": 10_000},
        }
        self.port = port
        self.stopped = threading.Event()
        self.statuses: dict[int, int] = {}
        self.seeds = iter(range(10**9))  # a new seed each time: never a cache hit
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, daemon=True) for _ in range(n)]

    def _run(self) -> None:
        while not self.stopped.is_set():
            with self.lock:
                body = json.dumps({**self.request, "seed": next(self.seeds)}).encode()
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                conn.request("POST", "/v1/suggest", body, {"Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                with self.lock:
                    self.statuses[r.status] = self.statuses.get(r.status, 0) + 1
                if r.status != 200:
                    time.sleep(float(r.getheader("Retry-After") or 1))
            finally:
                conn.close()

    def __enter__(self) -> Searches:
        for t in self.threads:
            t.start()
        time.sleep(0.5)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        for t in self.threads:
            t.join(timeout=30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--worker-class",
        default=os.environ.get("GUNICORN_WORKER_CLASS") or "gthread",
        choices=["gthread", "sync"],
    )
    ap.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    ap.add_argument("--searches", type=int, default=0, help="largest suggests running meanwhile")
    ap.add_argument("--client", default="auto", choices=["auto", "wrk", "python"])
    ap.add_argument("--no-install", action="store_true", help="never apt-get install wrk")
    args = ap.parse_args()

    body = mid_game_body()
    raw = json.dumps(body).encode()
    wrk = None if args.client == "python" else find_wrk(not args.no_install)
    if args.client == "wrk" and wrk is None:
        raise SystemExit("wrk is not available")
    env = {
        "WEB_CONCURRENCY": str(args.workers),
        "GUNICORN_WORKER_CLASS": args.worker_class,
        "GUNICORN_THREADS": str(args.threads),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "info"),
    }
    with gunicorn(env) as base, tempfile.NamedTemporaryFile("wb", suffix=".json") as f:
        f.write(raw)
        f.flush()
        # the request must succeed before it is measured
        req = urllib.request.Request(
            f"{base}/v1/resolve", data=raw, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 200
        port = int(base.rsplit(":", 1)[1])
        with Searches(port, args.searches) as searches:
            if wrk is not None:
                res = run_wrk(wrk, f"{base}/v1/resolve", f.name, args.seconds, args.connections)
            else:
                res = run_python(port, raw, args.seconds, args.connections)
    threads = f" x {args.threads} threads" if args.worker_class == "gthread" else ""
    print(
        f"POST /v1/resolve, mid-game 4-seat state ({len(raw)} bytes), "
        f"gunicorn {args.workers} {args.worker_class} workers{threads}, {os.cpu_count()} CPUs, "
        f"client {res['client']} with {args.connections} connections, {args.seconds} s, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    if args.searches:
        print(f"meanwhile {args.searches} largest suggests: statuses {searches.statuses}")
    print(f"requests: {res['requests']}  failures (non-200 or socket errors): {res['failures']}")
    print(f"requests/s: {res['rps']:.1f}")
    print(
        f"latency ms: p50={res['p50_ms']:.2f} p90={res['p90_ms']:.2f} "
        f"p99={res['p99_ms']:.2f} max={res['max_ms']:.2f}"
    )
    if res["failures"]:
        print("some requests failed", file=sys.stderr)
        return 1
    print(f"resolve_rps={res['rps']:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
