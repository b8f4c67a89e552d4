#!/usr/bin/env bash
# Create .venv and install KnowLoop with its pinned dependencies (idempotent: re-runs only
# when pyproject.toml changed). Everything the app and the tests need comes from here.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
    || { echo "KnowLoop needs Python >= 3.11 (found: $("$PYTHON" --version))" >&2; exit 1; }
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.knowloop-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test]"
  echo "$want" > "$stamp"
fi
