"""The benchmark's /v1/resolve called N times in one process, for instruction counts (issue 19).

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no \\
        python -m benchmarks.http_calls {referee,minimal,app-layer} N [--unsealed] [--test-client]

The machine's load does not disturb a count of instructions: the difference between N
requests and 0 requests (each run makes the same body and app, then sends 21 requests
outside the count), divided by N, is what one request costs. The apps and the body are
`benchmarks.http_cpu`'s (a sealed mid-game 4-seat state as the service issues it, under a
fixed STATE_SECRET; `--unsealed` without one). Each request is one WSGI call with the
environ gunicorn would give it, its body a fresh stream and its socket a real one (the body
timeout sets it); `--test-client` sends it through Flask's test client instead (which adds
its own environ building, about 0.5 M instructions, to every app). Every answer must be a
200, the same bytes each time."""

from __future__ import annotations

import argparse
import io
import os
import socket
import sys
from collections.abc import Callable
from typing import Any

import orjson

SECRET = "http-calls-secret-0123456789abcdefghijklmnopqrstuvwxyz"
WARM_UP = 20


def wsgi_caller(app: Any, body: bytes) -> Callable[[], tuple[int, bytes]]:
    """One POST /v1/resolve as a WSGI call: (status, answer)."""
    sock = socket.socket()
    base: dict[str, Any] = {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": "/v1/resolve",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "40000",
        "HTTP_HOST": "127.0.0.1:8000",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_ACCEPT_ENCODING": "identity",  # as http.client (the benchmark's client) sends
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "gunicorn.socket": sock,
    }
    status: list[str] = []

    def start_response(s: str, headers: Any, exc_info: Any = None) -> None:
        status.append(s)

    def call() -> tuple[int, bytes]:
        env = {**base, "wsgi.input": io.BytesIO(body)}
        it = app(env, start_response)
        out = b"".join(it)
        if hasattr(it, "close"):
            it.close()
        return int(status.pop().split()[0]), out

    return call


def client_caller(app: Any, body: bytes) -> Callable[[], tuple[int, bytes]]:
    """One POST /v1/resolve through Flask's test client."""
    client = app.test_client()

    def call() -> tuple[int, bytes]:
        r = client.post("/v1/resolve", data=body, content_type="application/json")
        return r.status_code, r.data

    return call


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("app", choices=["referee", "minimal", "app-layer"])
    ap.add_argument("n", type=int, help="requests counted (after the warm-up)")
    ap.add_argument("--unsealed", action="store_true", help="no STATE_SECRET, no seal")
    ap.add_argument("--test-client", action="store_true", help="through Flask's test client")
    args = ap.parse_args()
    os.environ.pop("STATE_SECRET", None)
    from benchmarks.http_cpu import app_layer_only, minimal_app, service_mid_game_body

    secret = None if args.unsealed else SECRET
    body = orjson.dumps(service_mid_game_body(secret=secret))
    if secret is not None:
        os.environ["STATE_SECRET"] = secret  # read by create_app's settings
    if args.app == "minimal":
        app = minimal_app()
    elif args.app == "app-layer":
        app = app_layer_only()
    else:
        from app import create_app

        app = create_app()
    call = client_caller(app, body) if args.test_client else wsgi_caller(app, body)

    first = call()
    for _ in range(WARM_UP + args.n):
        if call() != first or first[0] != 200:
            raise SystemExit(f"/v1/resolve answered {first[0]}, or not the same bytes each time")
    print(f"{args.app}: {args.n} requests, body {len(body)} bytes, answer {len(first[1])} bytes")


if __name__ == "__main__":
    main()
