#!/usr/bin/env bash
# Create .venv and install airtcp (Rust core built by maturin) with its pinned dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo (Rust toolchain) is needed to build the airtcp core" >&2
  exit 2
fi
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -c constraints.txt -e ".[dev]"
