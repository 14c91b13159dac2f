#!/usr/bin/env bash
# Create .venv and install the project (with test tools when called with --dev).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then "$PY" -m venv .venv; fi
.venv/bin/python -m pip install -q --upgrade pip
if [ "${1:-}" = "--dev" ]; then
  .venv/bin/python -m pip install -q -e '.[dev]'
  # Tests that need Redis start their own redis-server; install it if the machine lacks one.
  if ! command -v redis-server >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      (apt-get update -qq && apt-get install -y -qq redis-server) >/dev/null || echo "warning: could not install redis-server" >&2
    fi
  fi
else
  .venv/bin/python -m pip install -q -e .
fi
