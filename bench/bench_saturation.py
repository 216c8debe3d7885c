"""Benchmark: N stations saturating UDP toward an AP, airtcp beside ns-3 3.44.

    .venv/bin/python bench/bench_saturation.py                      # N = 10, 50; 100 s; 802.11a
    .venv/bin/python bench/bench_saturation.py --standard 80211b --stations 10
    .venv/bin/python bench/bench_saturation.py --no-ns3              # airtcp only

Prints, per scenario: airtcp's goodput, collision probability, events, events per delivered
frame, events per wall second and simulated seconds per wall second, under the range model with
the standard's EIFS rule and with channel.preamble_detection (what ns-3's default preamble
detection model does with equal-power collisions, see docs/validation.md), and under the radio
model (path loss, SINR, ns-3's defaults) without and with Rayleigh fading: the cost of the
channel per frame; ns-3's goodput, failure probability
and wall time (Simulator::Run only, like airtcp's core time); the goodput gap to the like-for-
like airtcp run and the wall-time ratio. The ns-3 programs are built on first use by bench/ns3/build.sh against the
PyPI wheel ns3==3.44.post0 (installed into the running interpreter if missing). Speed is
measured here, never in the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import airtcp

sys.path.insert(0, str(Path(__file__).resolve().parent / "ns3"))

RATES = {"80211a": (54.0, 6.0), "80211b": (11.0, 1.0), "80211g": (54.0, 6.0)}
PAYLOAD_BYTES = 1500
WARMUP_S = 1.0


# The channels airtcp runs, by label: the range model under the standard's EIFS rule and with
# preamble detection, and the radio model at ns-3's defaults (stations 10 m from the AP:
# log-distance path loss, NIST errors, preamble detection), without and with Rayleigh fading.
CHANNELS: dict[str, dict[str, Any]] = {
    "airtcp": {"preamble_detection": False},
    "airtcp_pd": {"preamble_detection": True},
    "radio": {"model": "radio"},
    "rayleigh": {"model": "radio", "fading": "rayleigh"},
}


def run_airtcp(
    stations: int, standard: str, duration_s: float, seed: int, channel: dict[str, Any]
) -> dict[str, Any]:
    data, basic = RATES[standard]
    r = airtcp.run(
        {
            "name": f"bench-bss-{stations}",
            "stations": stations,
            "standard": standard,
            "data_rate_mbps": data,
            "basic_rate_mbps": basic,
            "payload_bytes": PAYLOAD_BYTES,
            "duration_s": duration_s,
            "warmup_s": WARMUP_S,
            "channel": channel,
        },
        seed=seed,
    )
    s = r.summary
    delivered = sum(f["delivered_packets"] for f in s["flows"])
    wall = s["wall_seconds"]
    return {
        "goodput_bps": s["totals"]["goodput_bps"],
        "collision_probability": s["totals"]["collision_probability"],
        "events": s["events"],
        "events_per_frame": s["events"] / max(delivered, 1),
        "events_per_second": s["events"] / wall,
        "sim_seconds_per_wall_second": duration_s / wall,
        "wall_seconds": wall,
    }


def run_ns3(stations: int, standard: str, duration_s: float, seed: int) -> dict[str, Any]:
    import ns3_runner

    data, basic = RATES[standard]
    return ns3_runner.run_bss(
        stations=stations,
        standard=standard,
        data_rate_mbps=data,
        basic_rate_mbps=basic,
        payload_bytes=PAYLOAD_BYTES,
        duration_s=duration_s,
        warmup_s=WARMUP_S,
        seed=seed,
        qos=False,
        retry_limit=6,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--stations", default="10,50", help="comma-separated N (default 10,50)")
    ap.add_argument("--standard", default="80211a", choices=sorted(RATES))
    ap.add_argument("--duration-s", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ns3", action="store_true", help="run airtcp only")
    ap.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    args = ap.parse_args(argv)

    rows = []
    for n in [int(x) for x in args.stations.split(",")]:
        row: dict[str, Any] = {"stations": n, "standard": args.standard}
        for label, channel in CHANNELS.items():
            a = run_airtcp(n, args.standard, args.duration_s, args.seed, channel)
            row[label] = a
            print(
                f"{args.standard} N={n:<3} {args.duration_s:g} s  {label:>9}: "
                f"{a['goodput_bps'] / 1e6:7.3f} Mbit/s  p={a['collision_probability']:.4f}  "
                f"wall={a['wall_seconds']:.3f} s  events={a['events']:,}  "
                f"events/frame={a['events_per_frame']:.1f}  "
                f"events/s={a['events_per_second']:.3g}  "
                f"sim-s/wall-s={a['sim_seconds_per_wall_second']:.0f}",
                flush=True,
            )
        if not args.no_ns3:
            a = row["airtcp_pd"]
            b = run_ns3(n, args.standard, args.duration_s, args.seed)
            row["ns3"] = b
            gap = a["goodput_bps"] / b["goodput_bps"] - 1.0
            ratio = b["wall_seconds"] / a["wall_seconds"]
            row["goodput_gap"] = gap
            row["speedup"] = ratio
            print(
                f"{'':>{len(args.standard) + 14}}     ns-3: {b['goodput_bps'] / 1e6:7.3f} Mbit/s  "
                f"p={b.get('collision_probability') or float('nan'):.4f}  "
                f"wall={b['wall_seconds']:.3f} s (process {b['process_wall_seconds']:.3f} s)  "
                f"events={b.get('events') or 0:,}  "
                f"gap airtcp_pd/ns-3 {gap * 100:+.2f} %  airtcp is {ratio:.0f}x faster",
                flush=True,
            )
        rows.append(row)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
