"""Paper 000's channel calibration: Fig. 3's curve (CUBIC, 3 and 5 hops, retry limits 1-31)
on candidate channels, to pick the one whose shape is the paper's (docs/paper-000.md).

    .venv/bin/python bench/p000_channel_scan.py                # the candidates, 4 seeds each
    .venv/bin/python bench/p000_channel_scan.py --seeds 2 --cc vegas

Every candidate is the ``paper-000`` template with ``channel = "ideal"`` (collisions only) or
``"bursty"`` with its knobs ``good_ms`` / ``bad_ms`` / ``bad_loss`` (a Gilbert-Elliott process per
directed link: mean Good and Bad sojourns, frame loss in Bad). Prints the mean throughput [Mbit/s] per retry limit, then the mean RTOs per run and
the mean RTT [ms]; the wall time per run shows the cost.
"""

from __future__ import annotations

import argparse
import statistics
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from airtcp.run import run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "paper-000.toml"
LIMITS = (1, 3, 5, 7, 9, 16, 31)


def gilbert(good_ms: float, bad_ms: float, bad_loss: float) -> dict[str, Any]:
    return {"channel": "bursty", "good_ms": good_ms, "bad_ms": bad_ms, "bad_loss": bad_loss}


CANDIDATES: dict[str, dict[str, Any] | None] = {
    "ideal": None,
    "ge500/5/1.0": gilbert(500, 5, 1.0),
    "ge1000/20/1.0": gilbert(1000, 20, 1.0),
    "ge3000/100/1.0": gilbert(3000, 100, 1.0),
    "ge2000/30/0.7": gilbert(2000, 30, 0.7),
    "ge2000/50/0.7": gilbert(2000, 50, 0.7),  # the calibration (P000_BURSTY)
    "ge3000/50/0.7": gilbert(3000, 50, 0.7),
    "ge2000/50/0.6": gilbert(2000, 50, 0.6),
    "ge2000/80/0.5": gilbert(2000, 80, 0.5),
    "ge2000/200/0.9": gilbert(2000, 200, 0.9),
    "ge5000/300/0.95": gilbert(5000, 300, 0.95),
    "ge1000/100/0.8": gilbert(1000, 100, 0.8),
}


def one(job: tuple[str, int, int, int, str]) -> tuple[str, int, int, int, float, int, float, float]:
    name, hops, limit, seed, cc = job
    over: dict[str, Any] = {"hops": hops, "retry_limit": limit, "cc": cc, "channel": "ideal"}
    over.update(CANDIDATES[name] or {})
    r = run(EXAMPLE, seed=seed, overrides=over)
    f = r.summary["flows"][0]
    return (name, hops, limit, seed, f["goodput_bps"] / 1e6, f["tcp"]["timeouts"],
            f["tcp"]["rtt_mean_s"] or 0.0, r.summary["wall_seconds"])  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--cc", default="cubic")
    ap.add_argument("--only", nargs="*", default=list(CANDIDATES), help="candidate names")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    jobs = [(n, h, r, s, a.cc) for n in a.only for h in (3, 5) for r in LIMITS
            for s in range(1, a.seeds + 1)]  # fmt: skip
    with Pool(a.workers) as p:
        res = p.map(one, jobs)
    print(f"{'channel':16s} hops  " + " ".join(f"{r:>5d}" for r in LIMITS) + "   RTOs / RTT ms")
    for n in a.only:
        for h in (3, 5):
            cells = [[x for x in res if x[0] == n and x[1] == h and x[2] == r] for r in LIMITS]
            thr = " ".join(f"{statistics.mean(x[4] for x in c):5.2f}" for c in cells)
            rto = " ".join(f"{statistics.mean(x[5] for x in c):.0f}" for c in cells)
            rtt = " ".join(f"{1e3 * statistics.mean(x[6] for x in c):.0f}" for c in cells)
            print(f"{n:16s} {h:4d}  {thr}   {rto} / {rtt}")
    print(f"wall per run: {statistics.mean(x[7] for x in res):.3f} s")


if __name__ == "__main__":
    main()
