#!/usr/bin/env bash
# Optional: compile the engine's hot modules with mypyc, in place (docs/compiled.md).
#   bash scripts/compile.sh          build (again only when a compiled source changed)
#   bash scripts/compile.sh --clean  remove the build: the pure-Python engine again
# Needs the dev tools (mypy brings mypyc), a C compiler and the Python headers.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--clean" ]; then exec "${PYTHON:-python3}" scripts/compile.py --clean; fi
if [ ! -x .venv/bin/mypyc ]; then bash scripts/setup.sh --dev; fi
# the build drives setuptools, which venvs of Python 3.12+ no longer hold
.venv/bin/python -c "import setuptools" 2>/dev/null || .venv/bin/python -m pip install -q setuptools
exec .venv/bin/python scripts/compile.py "$@"
