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
# Debian packages the tests use, installed when missing: tshark cross-checks the pcap export
# (python/tests/test_pcap.py); chromium and chromium-driver open `airtcp report`'s page in a
# headless browser (python/tests/test_report.py; about 20 s and 350 MB the first time).
packages=()
command -v tshark >/dev/null 2>&1 || packages+=(tshark)
[ -x /usr/bin/chromium ] || packages+=(chromium)
[ -x /usr/bin/chromedriver ] || packages+=(chromium-driver)
if [ ${#packages[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${packages[*]} (pcap export and report tests)" >&2
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null; }
  apt_install || { apt-get update -qq && apt_install; } \
    || echo "warning: could not install ${packages[*]}; the tests that need them will be skipped" >&2
fi
