#!/usr/bin/env bash
# Create .venv and install the project (with test tools when called with --dev), then build the
# compiled engine when this machine can (docs/compiled.md).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then "$PY" -m venv .venv; fi
.venv/bin/python -m pip install -q --upgrade pip
# a .venv from before the distribution was renamed (architectura-referee, now card-game-referee)
if .venv/bin/python -m pip show -q architectura-referee >/dev/null 2>&1; then
  .venv/bin/python -m pip uninstall -q -y architectura-referee
fi
if [ "${1:-}" = "--dev" ]; then
  .venv/bin/python -m pip install -q -e '.[dev,compile]'
  # Tests that need Redis start their own redis-server; install it if the machine lacks one.
  if ! command -v redis-server >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      (apt-get update -qq && apt-get install -y -qq redis-server) >/dev/null || echo "warning: could not install redis-server" >&2
    fi
  fi
  # The README's walkthrough (examples/walkthrough.sh, run by tests/http/test_examples.py) uses jq.
  if ! command -v jq >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      (apt-get update -qq && apt-get install -y -qq jq) >/dev/null || echo "warning: could not install jq" >&2
    fi
  fi
  # The browser tests (tests/http/test_browser.py) drive Debian's chromium: a browser downloaded by
  # Playwright does not run on these machines.
  if [ ! -x /usr/bin/chromium ]; then
    if command -v apt-get >/dev/null 2>&1; then
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
        || echo "warning: could not install chromium; the browser tests will be skipped" >&2
    fi
  fi
else
  .venv/bin/python -m pip install -q -e '.[compile]'
fi
# The compiled engine: built (again only when a compiled source changed) when a C compiler and
# the Python headers are there, else the pure engine; one line says which. ENGINE_PURE=1 skips
# the build and makes the engine import its pure modules even where a build lies.
if [ "${ENGINE_PURE:-}" = "1" ]; then
  echo "engine: pure Python (ENGINE_PURE=1)" >&2
else
  .venv/bin/python scripts/compile.py --if-possible >&2
fi
