"""CPU per unknown-field flood on every POST endpoint, as a ratio to /v1/legal-moves (issue 22).

    python -m benchmarks.flood [--rounds 15] [--requests 10] [--fields 150000] [--out FILE]

Every POST operation of openapi.yaml is sent its first request example with `--fields`
unknown top-level fields beside it (150,000: ≈1.7 MB, under the 2 MiB body limit), through
the WSGI app in this process (Flask's test client: the body read, parsed, checked and
answered as gunicorn's worker would, without the socket). Each round sends `--requests`
requests to each endpoint in turn, the order turned round each round, and reads the
process's CPU time (time.process_time) around each endpoint's requests. Prints each round's
CPU per request, then per endpoint its ratio to /v1/legal-moves in the same round: the median
with quartiles, min and max; the last line is `max_ratio=<largest median ratio>`. `--out`
writes every figure as JSON (docs/measurements/)."""

from __future__ import annotations

import argparse
import json
import logging
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from typing import Any

import orjson
import yaml
from flask import Flask

from benchmarks.local import ROOT

REFERENCE = "/v1/legal-moves"


def _resolve(spec: dict[str, Any], obj: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in obj:
        node: Any = spec
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part]
        obj = node
    return obj


def post_examples() -> dict[str, Any]:
    """Every POST operation of openapi.yaml and its first request example."""
    with open(ROOT / "openapi.yaml", encoding="utf-8") as f:
        spec: dict[str, Any] = yaml.safe_load(f)
    out = {}
    for path, ops in spec["paths"].items():
        if "post" in ops:
            content = _resolve(spec, ops["post"]["requestBody"])["content"]["application/json"]
            out[path] = _resolve(spec, next(iter(content["examples"].values())))["value"]
    return out


def flood_bodies(n: int) -> dict[str, bytes]:
    """Each endpoint's example with `n` unknown fields beside it, as sent."""
    junk = {f"k{i}": 0 for i in range(n)}
    return {path: orjson.dumps({**body, **junk}) for path, body in post_examples().items()}


def quiet_app() -> Flask:
    from app import create_app

    app = create_app()
    logging.getLogger("app").setLevel(logging.WARNING)  # no access line per request
    return app


def cpu_per_request(app: Flask, path: str, body: bytes, n: int) -> tuple[float, int]:
    """CPU seconds per request over `n` requests, and the last status."""
    client = app.test_client()
    status = 0
    t0 = time.process_time()
    for _ in range(n):
        r = client.post(path, data=body, content_type="application/json")
        status = r.status_code
    return (time.process_time() - t0) / n, status


def spread(values: list[float]) -> dict[str, float]:
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return {
        "median": statistics.median(values),
        "q1": q[0],
        "q3": q[2],
        "min": min(values),
        "max": max(values),
    }


def run(rounds: int, requests: int, fields: int) -> dict[str, Any]:
    app = quiet_app()
    bodies = flood_bodies(fields)
    paths = list(bodies)
    for path in paths:  # warm up: imports, caches; and every endpoint refuses the flood
        _, status = cpu_per_request(app, path, bodies[path], 1)
        if status != 400:
            raise SystemExit(f"{path} answered {status} to the flood, not 400")
    cpu: dict[str, list[float]] = {p: [] for p in paths}
    for r in range(rounds):
        order = paths[r % len(paths) :] + paths[: r % len(paths)]
        if r % 2:
            order.reverse()
        for path in order:
            cpu[path].append(cpu_per_request(app, path, bodies[path], requests)[0])
        print(
            f"round {r + 1}: "
            + ", ".join(f"{p.removeprefix('/v1/')} {cpu[p][-1] * 1e3:.1f}" for p in paths)
            + " ms",
            flush=True,
        )
    ratios = {p: [a / b for a, b in zip(cpu[p], cpu[REFERENCE], strict=True)] for p in paths}
    return {
        "benchmark": "python -m benchmarks.flood",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "rounds": rounds,
        "requests_per_round": requests,
        "unknown_fields": fields,
        "body_bytes": {p: len(b) for p, b in bodies.items()},
        "cpu_ms_per_request": {p: [v * 1e3 for v in cpu[p]] for p in paths},
        "cpu_ms": {p: spread([v * 1e3 for v in cpu[p]]) for p in paths},
        "ratio_to_legal_moves": {p: spread(ratios[p]) for p in paths},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--requests", type=int, default=10, help="per endpoint per round")
    ap.add_argument("--fields", type=int, default=150_000, help="unknown fields per body")
    ap.add_argument("--out", help="write every figure as JSON here")
    args = ap.parse_args(argv)
    result = run(args.rounds, args.requests, args.fields)
    for path, s in result["ratio_to_legal_moves"].items():
        c = result["cpu_ms"][path]
        print(
            f"{path}: {c['median']:.1f} ms CPU; ratio {s['median']:.2f} "
            f"(quartiles {s['q1']:.2f}-{s['q3']:.2f}, min {s['min']:.2f}, max {s['max']:.2f})"
        )
    worst = max(s["median"] for s in result["ratio_to_legal_moves"].values())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    print(f"max_ratio={worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
