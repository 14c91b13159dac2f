"""Local servers for the benchmarks and the tests: gunicorn serving this repository and a
throw-away redis-server, each on a free loopback port, started and stopped by the caller.

Nothing here talks to anything but 127.0.0.1, and the machine's own Redis is never used.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import redis

ROOT = Path(__file__).resolve().parent.parent


def extract(rev: str, into: Path, *paths: str) -> None:
    """Commit `rev` of this repository (only `paths` of it, if given) written into `into`,
    for a side-by-side benchmark against it (`git archive`)."""
    archive = subprocess.run(
        ["git", "archive", rev, *paths], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate, then kill if it does not stop within 15 s."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def gunicorn_server(
    app: str = "app:create_app()",
    env: dict[str, str] | None = None,
    log: IO[bytes] | None = None,
    timeout_s: float = 30,
    cwd: Path = ROOT,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """gunicorn serving `app` with the repository's gunicorn.conf.py on a free loopback port;
    yields the base URL and the master process once /healthz answers. `env` adds environment
    variables (WEB_CONCURRENCY, REDIS_URL, …); `log` receives gunicorn's output (discarded by
    default); `cwd` is the tree served (another commit's, for a side-by-side benchmark)."""
    port = free_port()
    full_env = {**os.environ, "PORT": str(port), "BIND": f"127.0.0.1:{port}", **(env or {})}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", app],
        cwd=cwd,
        env=full_env,
        stdout=log if log is not None else subprocess.DEVNULL,
        stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn ({app}) did not start on port {port}")
            time.sleep(0.1)
        yield base, proc
    finally:
        stop(proc)


@contextmanager
def gunicorn(
    env: dict[str, str] | None = None, log: IO[bytes] | None = None, timeout_s: float = 30
) -> Iterator[str]:
    """The referee under gunicorn (see `gunicorn_server`); yields the base URL."""
    with gunicorn_server(env=env, log=log, timeout_s=timeout_s) as (base, _):
        yield base


class RedisServer:
    """A throw-away redis-server: no persistence, bounded memory, LRU eviction."""

    def __init__(self, port: int | None = None, maxmemory: str = "32mb") -> None:
        self.port = port if port is not None else free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.maxmemory = maxmemory
        self.proc: subprocess.Popen[bytes] | None = None

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    def start(self) -> None:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--maxmemory",
                self.maxmemory,
                "--maxmemory-policy",
                "allkeys-lru",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=0.5)
        deadline = time.monotonic() + 10
        try:
            while True:
                try:
                    if client.ping():
                        return
                except redis.RedisError:
                    pass
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(f"redis-server did not start on port {self.port}")
                time.sleep(0.05)
        finally:
            client.close()

    def kill(self) -> None:
        """Stop it at once (SIGKILL), as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
