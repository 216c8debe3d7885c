"""Regenerate bench/ns3/distance_reference.csv: ns-3 3.44 goodput of one saturating UDP
station against distance (distance_udp.cc, NOTES.md "Distance").

    python bench/ns3/make_distance_reference.py            # the reference grid, 2 processes
    python bench/ns3/make_distance_reference.py --jobs 1 --out /tmp/d.csv --error-models table

Grid (defaults): 802.11a; error models nist and yans; rate managers constant at 6, 12, 24 and
54 Mbit/s, arf, aarf, minstrel (ns-3 defaults); basic rate 6 Mbit/s; distances
1, 5, 10, 15, ..., 200 m (see DISTANCES); no fading; 10 s after a 1 s warm-up; seed 1, run 1;
retry limit 6 (7 attempts); ns-3's channel defaults (log-distance exponent 3, 46.6777 dB at
1 m, 16.0206 dBm, noise figure 7 dB, preamble detection MinimumRssi -82 dBm).

One row per run. data_rate_mbps is empty unless the rate manager is constant. data_modes are
the DATA modes on air after the warm-up, "mode:count" by decreasing count, ";"-separated.
snr_db is the mean SNR of the DATA frames the receiver decoded (empty if none). The runs are
deterministic: the same arguments give the same rows. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ns3_runner import build, run_distance  # noqa: E402

HERE = Path(__file__).resolve().parent
# The brief's grid (1, 10, ..., 160, 180, 200 m) plus 5, 15, 25, 35, 45 and 51 m, where the
# rates change: with ns-3's defaults nothing is received beyond 51.5 m (RX power below the
# preamble detection model's MinimumRssi of -82 dBm, NOTES.md "Distance").
DISTANCES = (
    1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 51, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150,
    160, 180, 200,
)  # fmt: skip
MANAGERS = (
    ("constant", 6.0),
    ("constant", 12.0),
    ("constant", 24.0),
    ("constant", 54.0),
    ("arf", None),
    ("aarf", None),
    ("minstrel", None),
)
COLUMNS = (
    "standard",
    "rate_manager",
    "data_rate_mbps",
    "error_model",
    "fading",
    "distance_m",
    "seed",
    "duration_s",
    "goodput_bps",
    "attempts",
    "phy_rx_errors",
    "data_modes",
    # extra diagnostics
    "warmup_s",
    "failures",
    "retry_drops",
    "rx_power_dbm",
    "snr_db",
)


def _modes(m: dict[str, int]) -> str:
    items = sorted(m.items(), key=lambda kv: (-kv[1], kv[0]))
    return ";".join(f"{k}:{v}" for k, v in items)


def _row(res: dict[str, Any]) -> dict[str, Any]:
    c = res["config"]
    return {
        "standard": c["standard"],
        "rate_manager": c["rate_manager"],
        "data_rate_mbps": f"{c['data_rate_mbps']:g}" if c["rate_manager"] == "constant" else "",
        "error_model": c["error_model"],
        "fading": c["fading"],
        "distance_m": f"{c['distance_m']:g}",
        "seed": c["seed"],
        "duration_s": f"{c['duration_s']:g}",
        "goodput_bps": f"{res['goodput_bps']:.1f}",
        "attempts": res["attempts"],
        "phy_rx_errors": res["phy_rx_errors"],
        "data_modes": _modes(res["data_modes"]),
        "warmup_s": f"{c['warmup_s']:g}",
        "failures": res["failures"],
        "retry_drops": res["retry_drops"],
        "rx_power_dbm": f"{res['rx_power_dbm']:.3f}",
        "snr_db": "" if res["mean_snr_db"] is None else f"{res['mean_snr_db']:.3f}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "distance_reference.csv")
    parser.add_argument("--jobs", type=int, default=2, help="parallel processes (max 2)")
    parser.add_argument("--standard", default="80211a")
    parser.add_argument("--basic-rate-mbps", type=float, default=6.0)
    parser.add_argument("--error-models", default="nist,yans")
    parser.add_argument("--fading", default="none", choices=("none", "rayleigh"))
    parser.add_argument("--distances", default=",".join(str(d) for d in DISTANCES))
    parser.add_argument("--duration-s", type=float, default=10.0)
    parser.add_argument("--warmup-s", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--extra-arg",
        action="append",
        default=[],
        help="passed to distance_udp verbatim, e.g. --extra-arg=--preambleMinRssiDbm=-101",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 2:
        parser.error("--jobs must be 1 or 2 (the machine is shared)")
    if args.standard != "80211a":
        parser.error("the MANAGERS table holds 802.11a rates; only --standard 80211a is supported")

    build()  # once, before the pool (build.sh is not safe to run twice at the same time)
    cases = [
        {
            "distance_m": float(d),
            "standard": args.standard,
            "rate_manager": manager,
            "data_rate_mbps": rate if rate is not None else 54.0,
            "basic_rate_mbps": args.basic_rate_mbps,
            "error_model": em,
            "fading": args.fading,
            "duration_s": args.duration_s,
            "warmup_s": args.warmup_s,
            "seed": args.seed,
            "extra_args": tuple(args.extra_arg),
        }
        for em in args.error_models.split(",")
        for manager, rate in MANAGERS
        for d in args.distances.split(",")
    ]

    t0 = time.perf_counter()
    done = 0

    def one(case: dict[str, Any]) -> dict[str, Any]:
        nonlocal done
        res = run_distance(**case)
        done += 1
        print(
            f"[{done}/{len(cases)}] {case['error_model']} {case['rate_manager']} "
            f"{case['data_rate_mbps'] if case['rate_manager'] == 'constant' else ''} "
            f"{case['distance_m']:g} m: {res['goodput_bps'] / 1e6:.3f} Mbit/s "
            f"({res['process_wall_seconds']:.1f} s)",
            file=sys.stderr,
            flush=True,
        )
        return _row(res)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(one, cases))  # keeps the order of `cases`
    elapsed = time.perf_counter() - t0

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} runs in {elapsed:.0f} s wall -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
