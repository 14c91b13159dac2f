"""Server CPU per POST /v1/resolve, against a minimal Flask app, side by side (issue 10).

    python -m benchmarks.http_cpu [--rounds 10] [--requests 1000] [--baseline REV]
                                  [--baseline-tree DIR] [--sealed]

Starts gunicorn servers with the repository's gunicorn.conf.py (same settings, same
environment): the referee (`app:create_app()`) and `minimal_app()` below, a bare Flask app
whose only route parses the /v1/resolve body with orjson and returns it; with `--baseline
REV`, also commit REV's referee (extracted with `git archive`, served from its own tree with
this environment's libraries: its engine pure, whatever this tree runs); with
`--baseline-tree DIR`, the referee of the checkout DIR as it is, its build included (a
compiled worktree of the commit to compare with, for a compiled tree). All get the same
request: one legal decision on a mid-game 4-seat state some 40 decisions in, as the service
issues it (with its `history`;
`--engine-state` sends the engine's state without one, as `benchmarks.http.mid_game_body`
builds it; `--sealed` serves every app under a `STATE_SECRET` and sends the state sealed, as
that service issues it: docs/trust.md), over one keep-alive connection, one request at a time. Each round sends
`--requests` requests to each server in turn (which one goes first turns round) and reads
the server's worker processes' CPU time (utime + stime in /proc/<pid>/stat) before and
after. Prints each round, then the median ratios with quartiles, min and max: referee ÷
minimal, and with a baseline REV (or DIR) ÷ minimal and REV ÷ referee (how much CPU a
request saves against REV, each round's servers measured one after the other); the last
line is `cpu_ratio=<referee ÷ minimal median>`.

Linux only (/proc). CPU time is counted in clock ticks (usually 10 ms): keep
`--requests` times the CPU per request well above that."""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from flask import Flask, Response, request

from benchmarks.local import ROOT, extract, gunicorn_server

TICKS = os.sysconf("SC_CLK_TCK")


MINIMAL = "benchmarks.http_cpu:minimal_app()"
APP_LAYER = "benchmarks.http_cpu:app_layer_only()"


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


def app_layer_only() -> Flask:
    """The referee with the engine's work taken away (`--app-layer`): each game's `apply_all`
    answers an input equal to the last one it computed with that answer, so the benchmark's
    repeated body costs the application layer and one comparison (`==` of the parsed inputs,
    in C), not a read, a move and a write. What it measures is the floor the rest of the
    referee stands on."""
    from app import create_app
    from engine.games import GAMES, engine

    for game_id in GAMES:
        eng: Any = engine(game_id)
        eng.apply_all = _memo(eng.apply_all)
    return create_app()


def _memo(apply_all: Any) -> Any:
    """`apply_all` remembering its last input (a copy) and answer. The answer is handed out
    again as it is, for the benchmark's one body: what the routes add to it (the state's
    `history`, overwritten on each request) leaves its bytes the referee's
    (tests/bench/test_bench_http_cpu.py). Bodies that ask for `notation` or send no history would
    see the previous request's additions: not a general-purpose memo."""
    last: list[Any] = [None, None]

    def memo(
        state: Any, decisions: Any, catalog: Any = None, sealed: bool = False, *until: Any
    ) -> Any:
        # `until` (an encrypted batch's stop, since dc64208) only when the routes pass it:
        # a baseline tree's apply_all has no such parameter
        given = [state, decisions, catalog, sealed, [sorted(u) for u in until]]
        if given != last[0]:
            last[:] = [
                orjson.loads(orjson.dumps(given)),
                apply_all(state, decisions, catalog, sealed, *until),
            ]
        return last[1]

    return memo


@contextmanager
def server(
    app: str, tree: Path | None = None, extra: dict[str, str] | None = None
) -> Iterator[tuple[str, int]]:
    """gunicorn serving `app` with gunicorn.conf.py on a free loopback port; yields the base
    URL and the master's pid once /healthz answers and every worker is up. `tree`: another
    checkout to serve (its own gunicorn.conf.py and packages, this environment's libraries);
    `extra`: environment variables added (STATE_SECRET)."""
    env = dict(extra or {})
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        found = subprocess.run(
            [sys.executable, "-c", "import app, engine; print(app.__file__, engine.__file__)"],
            cwd=tree,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        if not all(Path(f).is_relative_to(tree) for f in found):
            raise RuntimeError(f"{tree} does not import its own packages: {found}")
    with gunicorn_server(app, env=env, cwd=tree or ROOT) as (base, proc):
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

    def reopen(self) -> None:
        """One request outside the measure, on a new connection if the server closed the
        idle one (its keep-alive ran out while the other servers were measured)."""
        try:
            self.send(1)
        except (ConnectionError, http.client.HTTPException):
            self.conn.close()
            self.send(1)

    def close(self) -> None:
        self.conn.close()


def measure(client: Client, pids: list[int], n: int) -> float:
    """Server CPU seconds per request over `n` requests."""
    client.reopen()
    before = cpu_seconds(pids)
    client.send(n)
    return (cpu_seconds(pids) - before) / n


def service_mid_game_body(
    seed: int = 4, decisions: int = 40, secret: str | None = None
) -> dict[str, Any]:
    """The state of `benchmarks.http.mid_game_body` as a client holds it: the same decisions
    replayed by the service (in process) from the set-up, so that it carries its history
    (and, with `secret`, its seal: the service run with that STATE_SECRET)."""
    from app import create_app
    from benchmarks.http import mid_game, resolve_body

    setup, played = mid_game(seed, decisions)
    config: dict[str, Any] = {"TESTING": True}
    if secret is not None:
        config["STATE_SECRET"] = secret
    client = create_app(config).test_client()
    replayed = orjson.loads(
        client.post("/v1/replay", json={"setup": setup, "decisions": played}).data
    )
    assert replayed["ok"] and "history" in replayed["state"]
    return resolve_body(replayed["state"])


def spread(values: list[float]) -> str:
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return (
        f"median {statistics.median(values):.2f} (quartiles {q[0]:.2f}-{q[2]:.2f}, "
        f"min {min(values):.2f}, max {max(values):.2f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--requests", type=int, default=1000, help="requests per round and server")
    ap.add_argument(
        "--engine-state", action="store_true", help="send the engine's state (no history)"
    )
    ap.add_argument("--baseline", metavar="REV", help="also serve commit REV's referee")
    ap.add_argument(
        "--baseline-tree",
        metavar="DIR",
        type=Path,
        help="also serve the referee of the checkout DIR as it is (its own build)",
    )
    ap.add_argument(
        "--app-layer",
        action="store_true",
        help="also serve the referee with the engine's work memoised (app_layer_only)",
    )
    ap.add_argument(
        "--sealed",
        action="store_true",
        help="serve under a STATE_SECRET and send the state sealed, as that service issues it",
    )
    args = ap.parse_args()
    if args.baseline and args.baseline_tree:
        ap.error("one baseline: --baseline REV or --baseline-tree DIR")
    if args.sealed and args.engine_state:
        ap.error("--sealed sends the state as the service issues it: not with --engine-state")
    from benchmarks.http import mid_game_body  # after argparse: it imports the engine

    secret = secrets.token_urlsafe(32) if args.sealed else None
    extra = {"STATE_SECRET": secret} if secret is not None else {}
    body = orjson.dumps(
        mid_game_body() if args.engine_state else service_mid_game_body(secret=secret)
    )
    with contextlib.ExitStack() as stack:
        specs: list[tuple[str, str, Path | None]] = [
            ("referee", "app:create_app()", None),
            ("minimal", MINIMAL, None),
        ]
        baseline: str | None = None  # the baseline's name in the report
        if args.baseline:
            tree = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="http-base-")))
            extract(args.baseline, tree)
            baseline = args.baseline
            specs.append((baseline, "app:create_app()", tree))
        if args.baseline_tree:
            baseline = args.baseline_tree.resolve().name
            specs.append((baseline, "app:create_app()", args.baseline_tree.resolve()))
        if args.app_layer:
            specs.append(("app-layer", APP_LAYER, None))
        servers: dict[str, tuple[Client, list[int]]] = {}
        for name, app, where in specs:
            url, pid = stack.enter_context(server(app, where, extra))
            client = Client(url, body)
            stack.callback(client.close)
            client.send(50)  # warm-up: imports, first-request set-up, caches
            servers[name] = (client, workers_of(pid))
        print(
            f"body {len(body)} bytes{' (sealed)' if secret else ''}; {args.rounds} rounds of {args.requests} requests "
            f"per server ({', '.join(servers)})"
        )
        cpu: dict[str, list[float]] = {name: [] for name in servers}
        for i in range(args.rounds):
            order = list(servers)[i % len(servers) :] + list(servers)[: i % len(servers)]
            for name in order:  # which server goes first turns round
                cpu[name].append(measure(*servers[name], args.requests))
            print(
                f"round {i + 1:2d}: "
                + "  ".join(f"{n} {cpu[n][-1] * 1e3:6.3f}" for n in servers)
                + f" ms CPU/request; referee/minimal {cpu['referee'][-1] / cpu['minimal'][-1]:.2f}"
            )
    for name in servers:
        print(f"{name}: median {statistics.median(cpu[name]) * 1e3:.3f} ms CPU per request")

    def per_round(a: str, b: str) -> list[float]:  # server a's CPU over server b's, each round
        return [x / y for x, y in zip(cpu[a], cpu[b], strict=True)]

    ratios = per_round("referee", "minimal")
    if baseline is not None:
        rev = baseline
        print(f"{rev}/minimal: {spread(per_round(rev, 'minimal'))}")
        print(f"{rev}/referee (CPU saved per request): {spread(per_round(rev, 'referee'))}")
    if args.app_layer:
        floor = per_round("app-layer", "minimal")
        print(f"app-layer/minimal (the referee without the engine's work): {spread(floor)}")
    print(f"referee/minimal: {spread(ratios)}")
    print(f"cpu_ratio={statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
