#!/usr/bin/env bash
# Optional: compile the engine's hot modules with mypyc, in place (docs/compiled.md).
#   bash scripts/compile.sh          build (again only when a compiled source changed)
#   bash scripts/compile.sh --clean  remove the build: the pure-Python engine again
# Needs the dev tools (mypy brings mypyc), a C compiler and the Python headers.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/mypyc ]; then bash scripts/setup.sh --dev; fi
exec .venv/bin/python scripts/compile.py "$@"
