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
# llama-cpp-python (the local model's runtime) ships as source only: build its wheel once,
# with visible progress, into a cache outside the checkout; later installs take it from there.
# Built for any x86-64 with AVX2 (not -march=native): a wheel tuned to the build machine's
# newest units (AMX tiles) dies with "Illegal instruction" where the kernel or hypervisor does
# not enable them, and the cached wheel may serve another machine. The folder names the build
# (pip's own cache, keyed by the source alone, is bypassed for it).
WHEELS=${KNOWLOOP_WHEELS:-$HOME/.cache/knowloop/wheels-avx2}
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}"
LLAMA=llama-cpp-python==0.3.36
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  if ! ls "$WHEELS"/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1; then
    if ! command -v cc >/dev/null || ! command -v c++ >/dev/null; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential
      else
        echo "llama-cpp-python needs a C/C++ compiler: apt-get install build-essential" >&2
        exit 1
      fi
    fi
    mkdir -p "$WHEELS"
    echo "Building $LLAMA once (≈ 6-15 min on 2 cores); the wheel is cached in $WHEELS"
    .venv/bin/python -m pip wheel --no-cache-dir --no-deps -v "$LLAMA" -w "$WHEELS" 2>&1 \
      | grep --line-buffered -oE '\[ *[0-9]+%\][^/]*' | awk '{printf "\r  llama.cpp build %s", $1; fflush()}' || true
    echo
    ls "$WHEELS"/llama_cpp_python-0.3.36-*.whl >/dev/null || { echo "wheel build failed" >&2; exit 1; }
  fi
  .venv/bin/python -m pip install --quiet --find-links "$WHEELS" -e ".[test]"
  echo "$want" > "$stamp"
fi
# The local model file is assembled once into the user cache (~/.cache/knowloop/models).
.venv/bin/python -m core model >/dev/null
# With --with-browser (the test command): the browser test (tests/test_browser.py) drives
# Debian's chromium through Playwright; the browsers `playwright install` would download cannot
# be fetched here, so it is never run. The emoji font makes the page's 👍/👎 render. The
# remote-KB tests (tests/test_remote_kb.py) start a real Virtuoso server: Debian's package.
if [ "${1:-}" = "--with-browser" ]; then
  missing=""
  [ -x /usr/bin/chromium ] || missing="chromium fonts-noto-color-emoji"
  command -v virtuoso-t >/dev/null || missing="$missing virtuoso-opensource"
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq
      # shellcheck disable=SC2086  # a list of package names
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    else
      echo "note: the browser and remote-KB tests need Debian packages:$missing; they are" \
        "skipped without them; install them as root with:" >&2
      echo "  apt-get update && apt-get install -y$missing" >&2
    fi
  fi
fi
