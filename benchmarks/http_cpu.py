"""Server CPU per POST /v1/resolve, against a minimal Flask app, side by side (issue 10).

    python -m benchmarks.http_cpu [--rounds 10] [--requests 1000]

Starts two gunicorn servers with the repository's gunicorn.conf.py (same settings, same
environment): the referee (`app:create_app()`) and `minimal_app()` below, a bare Flask app
whose only route parses the /v1/resolve body with orjson and returns it. Both get the same
request: one legal decision on a mid-game 4-seat state some 40 decisions in, as the service
issues it (with its `history`; `--engine-state` sends the engine's state without one, as
`benchmarks.http.mid_game_body` builds it), over one keep-alive connection, one request at
a time. Rounds alternate the two servers
(which one goes first alternating too); each round sends `--requests` requests to one server
and reads its worker processes' CPU time (utime + stime in /proc/<pid>/stat) before and
after. Prints each round pair, then the median ratio (referee ÷ minimal) with quartiles,
min and max; the last line is `cpu_ratio=<median>`.

Linux only (/proc). CPU time is counted in clock ticks (usually 10 ms): keep
`--requests` times the CPU per request well above that.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from flask import Flask, Response, request

from benchmarks.local import gunicorn_server

TICKS = os.sysconf("SC_CLK_TCK")


def minimal_app() -> Flask:
    """The floor: parse the same body with orjson and send it back."""
    app = Flask("minimal")

    @app.post("/v1/resolve")
    def resolve() -> Response:
        body = orjson.loads(request.get_data())
        return Response(orjson.dumps(body), mimetype="application/json")

    @app.get("/healthz")
    def healthz() -> Response:
        return Response(b'{"status":"ok"}', mimetype="application/json")

    return app


@contextmanager
def server(app: str) -> Iterator[tuple[str, int]]:
    """gunicorn serving `app` with gunicorn.conf.py on a free loopback port; yields the base
    URL and the master's pid once /healthz answers and every worker is up."""
    with gunicorn_server(app) as (base, proc):
        deadline = time.monotonic() + 30
        want = int(os.environ.get("WEB_CONCURRENCY") or 2)  # gunicorn.conf.py's default
        while len(workers_of(proc.pid)) < want:  # /healthz answers once the first is up
            if time.monotonic() > deadline:
                raise RuntimeError(f"{app} did not start {want} workers")
            time.sleep(0.1)
        yield base, proc.pid


def workers_of(master: int) -> list[int]:
    """The master's child processes (gunicorn's workers)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == master:
                out.append(int(entry))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of the processes, in seconds."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text()
        rest = fields[fields.rindex(")") + 2 :].split()
        total += int(rest[11]) + int(rest[12])  # fields 14 and 15 of proc(5)
    return total / TICKS


class Client:
    """One keep-alive connection sending the same POST."""

    def __init__(self, base: str, body: bytes) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)
        self.body = body

    def send(self, n: int) -> None:
        headers = {"Content-Type": "application/json"}
        for _ in range(n):
            self.conn.request("POST", "/v1/resolve", self.body, headers)
            r = self.conn.getresponse()
            r.read()
            if r.status != 200:
                raise RuntimeError(f"/v1/resolve answered {r.status}")

    def close(self) -> None:
        self.conn.close()


def measure(client: Client, pids: list[int], n: int) -> float:
    """Server CPU seconds per request over `n` requests."""
    before = cpu_seconds(pids)
    client.send(n)
    return (cpu_seconds(pids) - before) / n


def service_mid_game_body(seed: int = 4, decisions: int = 40) -> dict[str, Any]:
    """The state of `benchmarks.http.mid_game_body` as a client holds it: the same decisions
    replayed by the service (in process) from the set-up, so that it carries its history."""
    from app import create_app
    from benchmarks.http import mid_game, resolve_body

    setup, played = mid_game(seed, decisions)
    client = create_app({"TESTING": True}).test_client()
    replayed = orjson.loads(
        client.post("/v1/replay", json={"setup": setup, "decisions": played}).data
    )
    assert replayed["ok"] and "history" in replayed["state"]
    return resolve_body(replayed["state"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--requests", type=int, default=1000, help="requests per round and server")
    ap.add_argument(
        "--engine-state", action="store_true", help="send the engine's state (no history)"
    )
    args = ap.parse_args()
    from benchmarks.http import mid_game_body  # after argparse: it imports the engine

    body = orjson.dumps(mid_game_body() if args.engine_state else service_mid_game_body())
    with (
        server("app:create_app()") as (ref_url, ref_pid),
        server("benchmarks.http_cpu:minimal_app()") as (min_url, min_pid),
    ):
        ref, low = Client(ref_url, body), Client(min_url, body)
        ref_pids, min_pids = workers_of(ref_pid), workers_of(min_pid)
        ref.send(50)  # warm-up: imports, first-request set-up, caches
        low.send(50)
        print(
            f"referee workers {ref_pids}, minimal workers {min_pids}; body {len(body)} bytes; "
            f"{args.rounds} round pairs of {args.requests} requests"
        )
        ratios: list[float] = []
        refs: list[float] = []
        lows: list[float] = []
        for i in range(args.rounds):
            order: list[Any] = [(ref, ref_pids), (low, min_pids)]
            if i % 2:
                order.reverse()
            got = {id(c): measure(c, p, args.requests) for c, p in order}
            r, m = got[id(ref)], got[id(low)]
            refs.append(r)
            lows.append(m)
            ratios.append(r / m)
            print(
                f"round {i + 1:2d}: referee {r * 1e3:7.3f} ms CPU/request  "
                f"minimal {m * 1e3:7.3f}  ratio {r / m:5.2f}"
            )
        ref.close()
        low.close()
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(
        f"median referee {statistics.median(refs) * 1e3:.3f} ms, minimal "
        f"{statistics.median(lows) * 1e3:.3f} ms CPU per request; ratio median "
        f"{statistics.median(ratios):.2f} (quartiles {q[0]:.2f}-{q[2]:.2f}, "
        f"min {min(ratios):.2f}, max {max(ratios):.2f})"
    )
    print(f"cpu_ratio={statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
