#!/usr/bin/env bash
# openapi.yaml's per-game schemas from the code's declarations (app/contract.py, docs/contract.md):
#   bash scripts/contract.sh          # rewrite the generated regions
#   bash scripts/contract.sh --check  # exit 1, with a diff, when they differ from the code
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if [ ! -x "$PY" ]; then PY=${PYTHON:-python3}; fi
# PyYAML comes with the test tools, not with the service (scripts/serve.sh)
"$PY" -c "import yaml" 2>/dev/null || { echo "contract.sh needs the test tools: run 'bash scripts/setup.sh --dev' first" >&2; exit 2; }
exec "$PY" -m app.contract "$@"
