#!/usr/bin/env bash
# Regenerate the catalogs' messages from the code (scripts/messages.py): pybabel extracts every
# msg("template", ...) of app/, engine/ and ai/ (scripts/babel.cfg); new ones are added to
# app/locales/messages.pot and (untranslated) to each messages.po, ones no code writes are
# removed (more than PRUNE_AT only with --prune); translations and layout kept.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
PYTHONPATH=tests .venv/bin/pybabel -q extract -F scripts/babel.cfg --no-default-keywords -k msg \
  --no-location --omit-header -o build/messages-code.pot app engine ai
.venv/bin/python scripts/messages.py build/messages-code.pot "$@"
