#!/usr/bin/env bash
# The compiled engine by hand (docs/compiled.md; scripts/setup.sh builds it anyway when it can):
#   bash scripts/compile.sh          build (again only when a compiled source changed)
#   bash scripts/compile.sh --clean  remove the build: the pure-Python engine again
# Needs mypyc and setuptools (the "compile" extra), a C compiler and the Python headers.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--clean" ]; then exec "${PYTHON:-python3}" scripts/compile.py --clean; fi
if [ ! -x .venv/bin/mypyc ]; then ENGINE_PURE=1 bash scripts/setup.sh; fi
exec .venv/bin/python scripts/compile.py "$@"
