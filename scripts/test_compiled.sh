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
fdp=$(ls tests/fora_de_prumo/test_fdp_*.py | grep -v -e test_fdp_properties.py -e test_fdp_http.py)
# shellcheck disable=SC2086
ENGINE_COMPILED=1 .venv/bin/python -m pytest -p no:cacheprovider -n 2 \
  tests/common/test_compiled.py tests/architectura tests/common/test_rng.py \
  tests/common/test_notation.py tests/common/test_position.py tests/http/test_hostile.py \
  tests/http/test_app_*.py tests/bots/test_ai_*.py $fdp tests/http/test_error_codes.py \
  tests/http/test_rules_api.py tests/http/test_schemas_per_type.py tests/http/test_starvation.py \
  tests/http/test_record.py "$@"
echo "compiled pass: $((SECONDS - start)) s" >&2
