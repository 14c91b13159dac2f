#!/usr/bin/env bash
# One command to start the referee: set up .venv, then gunicorn on $PORT (8000) with the
# in-process cache (no Redis needed; set CACHE_REDIS_URL to use one). Ctrl-C stops it.
# It listens on this machine only (BIND=0.0.0.0:$PORT for others: gunicorn then meets clients
# unbuffered, and /metrics and /readyz are public; compose.yaml puts nginx in front).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PORT="${PORT:-8000}"
export BIND="${BIND:-127.0.0.1:${PORT}}"
echo "Card-game referee (Architectura, Fora de Prumo) on http://localhost:${PORT} (play: /play, API docs: /docs, contract: /openapi.yaml)" >&2
exec .venv/bin/gunicorn -c gunicorn.conf.py "app:create_app()"
