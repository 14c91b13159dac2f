#!/usr/bin/env bash
# Set up (.venv with test tools, redis-server if missing) and run every check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
# bytecode caches kept under .venv (never in the checkout): where PYTHONDONTWRITEBYTECODE is
# set, every process (each pytest worker, each server or worker a test starts) would compile
# every module again, and pytest would rewrite its plugins' asserts again in each worker
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
# on every core (pytest-xdist; TEST_WORKERS=1 for one process): each test is safe beside the
# others (its own ports, redis-servers, browsers and files); worksteal evens out the slow ones
.venv/bin/python -m pytest -n "${TEST_WORKERS:-auto}" --dist worksteal "$@"
