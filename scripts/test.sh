#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run every test: Rust format, lint and tests; Python lint, the
# native module's stub, mypy, the wheel smoke test (scripts/wheel-smoke.sh) and the Python tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo test"
cargo test -p airtcp-core --quiet
echo "== ruff"
.venv/bin/ruff check
.venv/bin/ruff format --check
echo "== stubtest (airtcp/_core.pyi matches the native module)"
.venv/bin/python -m mypy.stubtest airtcp._core
echo "== mypy (the modules that read a run's summary, against its generated types; pyproject.toml)"
.venv/bin/mypy
echo "== wheel smoke test (abi3 wheel installed in a fresh venv without cargo; scripts/wheel-smoke.sh)"
bash scripts/wheel-smoke.sh
echo "== pytest"
.venv/bin/python -m pytest -q
