#!/usr/bin/env bash
# The engine, AI and app tests again on the pure-Python engine (docs/compiled.md): the default
# test run (scripts/test.sh) tests the compiled build that the set-up made; this pass imports the
# same tree with ENGINE_PURE=1, so that every engine module comes from its .py file even where
# a build lies beside it (tests/common/test_compiled.py checks that). Nothing is moved or
# removed. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -c "import pytest, xdist" 2>/dev/null || { echo "test_pure.sh needs the test tools: run 'bash scripts/test.sh' (or 'bash scripts/setup.sh --dev') first" >&2; exit 2; }
# bytecode caches under .venv, as scripts/test.sh keeps them (why: there)
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
start=$SECONDS
# the slow property and HTTP files of Fora de Prumo stay in the default (compiled) run only;
# two processes (pytest-xdist) keep this pass near 3 minutes
fdp=$(ls tests/fora_de_prumo/test_fdp_*.py | grep -v -e test_fdp_properties.py -e test_fdp_http.py)
# shellcheck disable=SC2086
ENGINE_PURE=1 .venv/bin/python -m pytest -p no:cacheprovider -n 2 \
  tests/common/test_compiled.py tests/architectura tests/common/test_rng.py \
  tests/common/test_notation.py tests/common/test_position.py tests/http/test_hostile.py \
  tests/http/test_app_*.py tests/bots/test_ai_*.py $fdp tests/http/test_error_codes.py \
  tests/http/test_rules_api.py tests/http/test_schemas_per_type.py tests/http/test_starvation.py \
  tests/http/test_record.py "$@"
echo "pure pass: $((SECONDS - start)) s" >&2
