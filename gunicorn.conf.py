"""gunicorn settings for the referee: `gunicorn -c gunicorn.conf.py "app:create_app()"`.

Environment: PORT (8000), BIND (0.0.0.0:$PORT), WEB_CONCURRENCY (worker processes, 2),
GUNICORN_WORKER_CLASS (gthread), GUNICORN_THREADS (threads per gthread worker, 4),
GUNICORN_TIMEOUT (30 s), GUNICORN_KEEPALIVE (5 s), LOG_LEVEL (info); the app reads
SUGGEST_CONCURRENCY (searches at once per worker, 1) and checks it here against the threads.

Why gthread with 4 threads: a worker runs at most SUGGEST_CONCURRENCY bot searches (the only
long requests, bounded by SUGGEST_MAX_MS) and refuses more with 503, so each worker always
keeps threads free for /healthz and the engine endpoints, which answer in milliseconds even
while searches hold the CPU (the GIL is handed over every 5 ms). Sync workers cannot do that:
one long search makes a sync worker deaf to everything else (docs/http.md has the figures).

gunicorn turns `sync` into gthread whenever threads > 1 (its documented behaviour), so the
thread count is only applied to gthread here and `sync` really runs sync workers.

`timeout` is gunicorn's: a worker whose main loop stops answering the arbiter for that long
is restarted. For sync workers that bounds each request; for gthread it does not (requests
run in threads while the main loop keeps beating), which is why long work bounds itself
(SUGGEST_MAX_MS) and body reads are bounded by the app (BODY_READ_TIMEOUT_S,
app/body_timeout.py). Slow clients are best kept away by a buffering proxy in front
(compose.yaml, deploy/nginx.conf).
"""

from __future__ import annotations

import gc
import os


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    value = int(raw) if raw else default
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, not {raw!r}")
    return value


port = os.environ.get("PORT", "8000")
bind = [os.environ.get("BIND", f"0.0.0.0:{port}")]
workers = _int("WEB_CONCURRENCY", 2)
worker_class = os.environ.get("GUNICORN_WORKER_CLASS") or "gthread"
if worker_class == "gthread":
    threads = _int("GUNICORN_THREADS", 4)
    if _int("SUGGEST_CONCURRENCY", 1) >= threads:
        raise ValueError(
            "SUGGEST_CONCURRENCY must be below GUNICORN_THREADS, so that every worker keeps a "
            "thread for cheap requests while it searches"
        )
else:
    threads = 1  # more would silently turn these workers into gthread ones
# gthread and sync run as app/server_errors.py's subclasses: gunicorn's own refusals (a request
# line too long, too many headers...) answered as problem+json instead of its HTML page. (Named,
# not imported: the config stays readable without the app; `-k` or GUNICORN_CMD_ARGS naming a
# class brings gunicorn's own pages back.)
WORKERS = {"gthread": "app.server_errors.ThreadWorker", "sync": "app.server_errors.SyncWorker"}
worker_class = WORKERS.get(worker_class, worker_class)
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = 25  # a running search ends within SUGGEST_MAX_MS (20 s by default)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
# the app writes its own JSON access line per request (app/logging.py)
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# load the engine and its catalogs once, before forking
preload_app = True
# reject oversized request lines and headers before they reach the app
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
# no runtime control socket (gunicorn >= 25): nothing uses it, and parallel instances
# (tests, benchmarks) would contend for the same path
control_socket_disable = True


def pre_fork(server: object, worker: object) -> None:
    """Move what the preloaded app made (engine tables, catalogs, translations) out of the
    collector's reach before each fork (Python's gc.freeze advice for pre-fork servers): a
    worker's collections then skip those objects, and do not dirty their shared pages."""
    gc.freeze()
