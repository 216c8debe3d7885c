#!/usr/bin/env bash
# Set up and run the main job: airtcp against its closed-form models (TMT, Bianchi),
# results in results/validation/ (validation.md, validation.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/airtcp validate --out results/validation "$@"
