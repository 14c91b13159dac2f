"""gunicorn settings for the referee: `gunicorn -c gunicorn.conf.py "app:create_app()"`.

Environment: PORT (8000), BIND (0.0.0.0:$PORT), WEB_CONCURRENCY (workers, 2),
GUNICORN_WORKER_CLASS (sync), GUNICORN_THREADS (threads per gthread worker, 2),
GUNICORN_TIMEOUT (30 s), LOG_LEVEL (info).
Sync workers by default: the engine is CPU-bound Python, so one request at a time per
process gave the steadiest tail latency on 2 cores (docs/http.md has the measurements);
gthread adds keep-alive and threads for deployments without a buffering proxy in front.
"""

from __future__ import annotations

import os

port = os.environ.get("PORT", "8000")
bind = [os.environ.get("BIND", f"0.0.0.0:{port}")]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
keepalive = 5
# the app writes its own JSON access line per request (app/logging.py)
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# load the engine and its catalogs once, before forking
preload_app = True
# reject oversized request lines and headers before they reach the app
limit_request_line = 8190
limit_request_fields = 100
# no runtime control socket (gunicorn >= 25): nothing uses it, and parallel instances
# (tests, benchmarks) would contend for the same path
control_socket_disable = True
