"""Local servers for the benchmarks and the tests: gunicorn serving this repository on a free
loopback port, started and stopped by the caller (a throw-away redis-server: ai/redis_server.py).

Nothing here talks to anything but 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ai.redis_server import free_port, stop

ROOT = Path(__file__).resolve().parent.parent


def extract(rev: str, into: Path, *paths: str) -> None:
    """Commit `rev` of this repository (only `paths` of it, if given) written into `into`,
    for a side-by-side benchmark against it (`git archive`)."""
    archive = subprocess.run(
        ["git", "archive", rev, *paths], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


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


def publish(summary: dict[str, Any], module: str, out: str | None) -> None:
    """Print a benchmark's summary as JSON, with the command that made it, and write it to
    `out` when given."""
    summary["command"] = f"python -m {module} " + " ".join(sys.argv[1:])
    text = json.dumps(summary, indent=2)
    print(text)
    if out:
        Path(out).write_text(text + "\n")


def baseline_module(rev: str) -> Any:
    """REV's ai/bots.py, imported as a module of its own on today's engine."""
    name = f"baseline_bots_{rev}"
    if name in sys.modules:
        return sys.modules[name]
    text = subprocess.run(
        ["git", "show", f"{rev}:ai/bots.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="baseline-bots-")) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def baseline_bot(rev: str, budget: Any) -> Any:
    """REV's IsmctsBot (`baseline_module`) with an `ai.base.Budget`'s iterations and time."""
    old = baseline_module(rev)
    return old.IsmctsBot(old.Budget(iterations=budget.iterations, time_ms=budget.time_ms))
