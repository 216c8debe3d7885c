"""Benchmark: `airtcp reproduce 001 --quick` from an empty output directory.

    .venv/bin/python bench/bench_reproduce.py              # 2 workers (the CI machine's cores)
    .venv/bin/python bench/bench_reproduce.py --workers 1

Prints the wall time of each stage (the sweeps; the analysis, figures and report) and the whole,
against the target of issue 5: under 2 minutes on 2 cores. A benchmark, not a test: it prints,
it does not fail.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from airtcp.reproduce import reproduce

TARGET_S = 120.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="the full replications, not --quick")
    args = ap.parse_args()
    marks: dict[str, float] = {}
    start = time.perf_counter()

    def progress(stage: str, done: int, total: int) -> None:
        if done == total:
            marks.setdefault(stage, time.perf_counter() - start)

    with tempfile.TemporaryDirectory(prefix="airtcp-bench-p001-") as d:
        report = reproduce(
            "001", Path(d) / "out", quick=not args.full, workers=args.workers, progress=progress
        )
        total = time.perf_counter() - start
        runs = sum(1 for _ in (Path(d) / "out" / "store" / "runs").glob("*/*.parquet"))
        assert report.exists()
    mode = "full" if args.full else "--quick"
    print(f"airtcp reproduce 001 {mode}, {args.workers} workers: {runs} runs")
    last = 0.0
    for stage, t in marks.items():
        print(f"  sweep {stage:<8} done at {t:6.1f} s (+{t - last:5.1f} s)")
        last = t
    print(f"  analysis, figures, report  {total - last:5.1f} s")
    verdict = "under" if total < TARGET_S else "OVER"
    print(f"total {total:.1f} s: {verdict} the {TARGET_S:.0f} s target")


if __name__ == "__main__":
    main()
