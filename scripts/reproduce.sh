#!/usr/bin/env bash
# Set up and run the main job: papers 000, 001, 002, 003 and 004 reproduced end to end (airtcp reproduce
# ID --quick), reports and figures in results/paper-00N/ (report.md, figures/, store/); extra
# arguments go to airtcp reproduce. Full replications:
# .venv/bin/airtcp reproduce 001 --out results/paper-001-full (and 004 likewise).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/airtcp reproduce 000 --quick --out results/paper-000 "$@"
.venv/bin/airtcp reproduce 001 --quick --out results/paper-001 "$@"
.venv/bin/airtcp reproduce 002 --quick --out results/paper-002 "$@"
.venv/bin/airtcp reproduce 003 --quick --out results/paper-003 "$@"
.venv/bin/airtcp reproduce 004 --quick --out results/paper-004 "$@"
