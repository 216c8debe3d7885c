"""Benchmark: `airtcp reproduce PAPER --quick` from an empty output directory.

    .venv/bin/python bench/bench_reproduce.py              # paper 001, 2 workers (CI's cores)
    .venv/bin/python bench/bench_reproduce.py --paper 004  # paper 004
    .venv/bin/python bench/bench_reproduce.py --workers 1

Prints the wall time of each stage (the sweeps; the analysis, figures and report) and the whole,
against each paper's target on 2 cores: 001 under 2 minutes (issue 5), 004 under 3 minutes
(issue 12). A benchmark, not a test: it prints, it does not fail.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from airtcp.reproduce import reproduce

TARGET_S = {"001": 120.0, "004": 180.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paper", choices=sorted(TARGET_S), default="001")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="the full replications, not --quick")
    args = ap.parse_args()
    marks: dict[str, float] = {}
    start = time.perf_counter()

    def progress(stage: str, done: int, total: int) -> None:
        if done == total:
            marks.setdefault(stage, time.perf_counter() - start)

    with tempfile.TemporaryDirectory(prefix=f"airtcp-bench-p{args.paper}-") as d:
        report = reproduce(
            args.paper, Path(d) / "out", quick=not args.full, workers=args.workers,
            progress=progress,
        )  # fmt: skip
        total = time.perf_counter() - start
        runs = sum(1 for _ in (Path(d) / "out" / "store" / "runs").glob("*/*.parquet"))
        assert report.exists()
    mode = "full" if args.full else "--quick"
    print(f"airtcp reproduce {args.paper} {mode}, {args.workers} workers: {runs} runs")
    last = 0.0
    for stage, t in marks.items():
        print(f"  sweep {stage:<9} done at {t:6.1f} s (+{t - last:5.1f} s)")
        last = t
    print(f"  analysis, figures, report  {total - last:5.1f} s")
    target = TARGET_S[args.paper]
    verdict = "under" if total < target else "OVER"
    print(f"total {total:.1f} s: {verdict} the {target:.0f} s target")


if __name__ == "__main__":
    main()
