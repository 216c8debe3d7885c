"""Benchmark: `airtcp reproduce PAPER --quick` from an empty output directory.

    .venv/bin/python bench/bench_reproduce.py              # paper 001, 2 workers (CI's cores)
    .venv/bin/python bench/bench_reproduce.py --paper 004  # paper 004
    .venv/bin/python bench/bench_reproduce.py --workers 1
    .venv/bin/python bench/bench_reproduce.py --paper 000 --full --out results/p000-bench

Prints the wall time of each stage (the sweeps; the analysis, figures and report) and the whole,
against each paper's target on 2 cores: 001 under 2 minutes (issue 5), 004 under 3 minutes
(issue 12), 000 under 3 minutes with --quick and its Fig. 3 grid (the ``fig3`` sweep, 840 runs
of 100 s) under 5 minutes in the full run (issue 17). A benchmark, not a test: it prints, it
does not fail.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from airtcp.reproduce import reproduce

TARGET_S = {"000": 180.0, "001": 120.0, "004": 180.0}
# Targets of single sweeps in the full run [s]: paper 000's Fig. 3 grid.
STAGE_TARGET_S = {("000", "fig3"): 300.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paper", choices=sorted(TARGET_S), default="001")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="the full replications, not --quick")
    ap.add_argument("--out", type=Path, help="keep the reproduction here (a new directory)")
    args = ap.parse_args()
    marks: dict[str, float] = {}
    start = time.perf_counter()

    def progress(stage: str, done: int, total: int) -> None:
        if done == total:
            marks.setdefault(stage, time.perf_counter() - start)

    with tempfile.TemporaryDirectory(prefix=f"airtcp-bench-p{args.paper}-") as d:
        out = args.out or Path(d) / "out"
        report = reproduce(
            args.paper, out, quick=not args.full, workers=args.workers, progress=progress
        )
        total = time.perf_counter() - start
        runs = sum(1 for _ in (out / "store" / "runs").glob("*/*.parquet"))
        assert report.exists()
    mode = "full" if args.full else "--quick"
    print(f"airtcp reproduce {args.paper} {mode}, {args.workers} workers: {runs} runs")
    last = 0.0
    for stage, t in marks.items():
        goal = STAGE_TARGET_S.get((args.paper, stage)) if args.full else None
        note = (
            f" ({'under' if t - last < goal else 'OVER'} its {goal:.0f} s target)" if goal else ""
        )
        print(f"  sweep {stage:<12} done at {t:6.1f} s (+{t - last:5.1f} s){note}")
        last = t
    print(f"  analysis, figures, report  {total - last:5.1f} s")
    if args.full:
        print(f"total {total:.1f} s")
        return
    target = TARGET_S[args.paper]
    verdict = "under" if total < target else "OVER"
    print(f"total {total:.1f} s: {verdict} the {target:.0f} s target (--quick)")


if __name__ == "__main__":
    main()
