#!/usr/bin/env bash
# The engine, AI and app tests again with the optional compiled build (docs/compiled.md):
# build it (timed), run them with ENGINE_COMPILED=1, then remove the build, even on failure,
# so that the tree is left pure Python. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
trap 'bash scripts/compile.sh --clean' EXIT
start=$SECONDS
mkdir -p build
bash scripts/compile.sh >build/compile.log 2>&1 || { cat build/compile.log >&2; exit 1; }
echo "compiled build: $((SECONDS - start)) s" >&2
# Fora de Prumo shares only engine/rng.py with the build: its slow property and HTTP files
# are left to the pure pass. Two processes (pytest-xdist) keep this pass near 3 minutes.
fdp=$(ls tests/test_fdp_*.py | grep -v -e test_fdp_properties.py -e test_fdp_http.py)
# shellcheck disable=SC2086
ENGINE_COMPILED=1 .venv/bin/python -m pytest -p no:cacheprovider -n 2 \
  tests/test_compiled.py tests/test_engine_*.py tests/test_rng.py tests/test_state_schema.py \
  tests/test_notation.py tests/test_position.py tests/test_hostile.py tests/test_app_*.py \
  tests/test_ai_*.py $fdp tests/test_error_codes.py tests/test_rules_api.py \
  tests/test_schemas_per_type.py tests/test_starvation.py tests/test_record.py "$@"
echo "compiled pass: $((SECONDS - start)) s" >&2
