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
# tshark cross-checks the pcap export (python/tests/test_pcap.py); install it when missing.
if ! command -v tshark >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  echo "installing tshark (pcap export tests)" >&2
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tshark >/dev/null; }
  apt_install || { apt-get update -qq && apt_install; } \
    || echo "warning: could not install tshark; the pcap tshark tests will be skipped" >&2
fi
