"""Benchmark: peak memory of a long TCP run stays flat with the simulated time.

    .venv/bin/python bench/bench_memory.py                       # 1 h and 24 h simulated
    .venv/bin/python bench/bench_memory.py --hours 0.1,1,6

Each run is examples/bss-tcp-bulk.toml (one 802.11a station, a bulk TCP flow to its AP, about
930 RTT samples per simulated second) with ``duration_s`` set, in a child process of its own so
that its peak resident set size (``ru_maxrss`` of ``os.wait4``, KiB on Linux) is its own. A short
reference run (10 s simulated) gives the interpreter's own footprint (Python, pyarrow, the
extension); the growth column is each run's peak minus that reference. Prints simulated
seconds, events, RTT samples, wall time and peak RSS per run. Memory is measured here, never in
the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bss-tcp-bulk.toml"
REFERENCE_S = 10.0

# What the child runs: one airtcp run, its figures as one JSON line on stdout.
CHILD = """
import json, sys
import airtcp
r = airtcp.run(sys.argv[1], seed=1, overrides={"duration_s": float(sys.argv[2])})
s = r.summary
t = s["flows"][0]["tcp"]
print(json.dumps({"events": s["events"], "wall_seconds": s["wall_seconds"],
                  "rtt_samples": t["rtt_samples"], "rtt_p50_s": t["rtt_p50_s"],
                  "rtt_p99_s": t["rtt_p99_s"]}))
"""


def measure(duration_s: float) -> dict[str, Any]:
    """Run the example for ``duration_s`` simulated seconds in a child; its figures and peak RSS."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(EXAMPLE), repr(duration_s)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage, not all children's
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"run of {duration_s} s failed with exit status {proc.returncode}")
    row: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    row["duration_s"] = duration_s
    row["process_wall_seconds"] = time.perf_counter() - start
    row["peak_rss_kib"] = usage.ru_maxrss  # getrusage(2): kilobytes on Linux
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hours", default="1,24", help="comma-separated simulated durations, hours")
    ap.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    args = ap.parse_args(argv)
    hours = [float(h) for h in args.hours.split(",") if h.strip()]

    ref = measure(REFERENCE_S)
    rows = [ref]
    print(
        f"{'simulated':>10} {'events':>14} {'RTT samples':>12} {'wall s':>8} "
        f"{'peak RSS MiB':>13} {'growth MiB':>11}"
    )

    def show(r: dict[str, Any]) -> None:
        growth = (r["peak_rss_kib"] - ref["peak_rss_kib"]) / 1024
        print(
            f"{r['duration_s'] / 3600:>9.3g}h {r['events']:>14,} {r['rtt_samples']:>12,} "
            f"{r['wall_seconds']:>8.1f} {r['peak_rss_kib'] / 1024:>13.1f} {growth:>11.1f}",
            flush=True,
        )

    show(ref)
    for h in hours:
        r = measure(h * 3600.0)
        rows.append(r)
        show(r)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
