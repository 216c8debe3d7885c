#!/usr/bin/env bash
# Set up and run the main job: paper 001 reproduced end to end (airtcp reproduce 001 --quick),
# report and figures in results/paper-001/ (report.md, figures/, store/); extra arguments go to
# airtcp reproduce. Full replications: .venv/bin/airtcp reproduce 001 --out results/paper-001-full
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/airtcp reproduce 001 --quick --out results/paper-001 "$@"
