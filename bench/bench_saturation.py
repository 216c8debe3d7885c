"""Benchmark: N stations saturating UDP toward an AP, airtcp beside ns-3 3.44.

    .venv/bin/python bench/bench_saturation.py                      # N = 10, 50; 100 s; 802.11a
    .venv/bin/python bench/bench_saturation.py --standard 80211b --stations 10
    .venv/bin/python bench/bench_saturation.py --no-ns3              # airtcp only
    .venv/bin/python bench/bench_saturation.py --standard 80211b --stations 200 --duration-s 20 \
        --model radio                                   # the radio model's channels beside ns-3
    .venv/bin/python bench/bench_saturation.py --model radio --exact   # no tables, every receiver

Prints, per scenario: airtcp's goodput, collision probability, events, events per delivered
frame, events per wall second and simulated seconds per wall second, under the range model with
the standard's EIFS rule and with channel.preamble_detection (what ns-3's default preamble
detection model does with equal-power collisions, see docs/validation.md), and under the radio
model (path loss, SINR, ns-3's defaults) without and with Rayleigh fading: the cost of the
channel per frame; ns-3's goodput, failure probability
and wall time (Simulator::Run only, like airtcp's core time); the goodput gap to the like-for-
like airtcp run and the wall-time ratio of each channel. With the radio model it first prints
the success-rate tables' largest error against the exact model for the standard's modes
(the tables decide only where their bound settles a draw, so ``--exact``, which sets
``channel.radio.exact``, gives the same runs, slower). The ns-3 programs are built on first use by bench/ns3/build.sh against the
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


# The modes whose tables the radio model reads, per standard (data and control rates).
TABLE_MODES = {
    "80211a": ["OfdmRate6Mbps", "OfdmRate54Mbps"],
    "80211b": ["DsssRate1Mbps", "DsssRate2Mbps", "DsssRate5_5Mbps", "DsssRate11Mbps"],
    "80211g": ["DsssRate1Mbps", "ErpOfdmRate6Mbps", "ErpOfdmRate54Mbps"],
}


def table_error(standard: str) -> None:
    """Print, per mode, the tables' largest error against the exact model (NIST) every 0.01 dB
    from -40 to 55 dB for 48-, 304- and 12,000-bit chunks, the largest bound they state, and
    the share of chunks they answer (the rest: the exact model)."""
    from airtcp import _core

    for mode in TABLE_MODES[standard]:
        worst = bound = 0.0
        answered = total = 0
        for step in range(-4000, 5501):
            snr_db = step * 0.01
            for bits in (48, 304, 12_000):
                total += 1
                got = _core.chunk_success_tabulated("nist", mode, snr_db, bits)
                if got is None:
                    continue
                answered += 1
                exact = _core.chunk_success("nist", mode, snr_db, bits)
                worst = max(worst, abs(got[0] - exact))
                bound = max(bound, got[1])
        print(
            f"table {mode:<18} largest error {worst:.2e}  largest bound {bound:.2e}  "
            f"answered {answered / total:.1%} of {total:,} chunks",
            flush=True,
        )


def run_airtcp(
    stations: int,
    standard: str,
    duration_s: float,
    seed: int,
    channel: dict[str, Any],
    exact: bool = False,
) -> dict[str, Any]:
    if channel.get("model") == "radio" and exact:
        channel = {**channel, "exact": True}
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
    ap.add_argument(
        "--model",
        choices=["all", "range", "radio"],
        default="all",
        help="the channels to run: the range model's, the radio model's, or both (default)",
    )
    ap.add_argument(
        "--exact",
        action="store_true",
        help="channel.radio.exact in the radio runs: no shortcuts (the same results, slower)",
    )
    args = ap.parse_args(argv)
    channels = {
        label: ch
        for label, ch in CHANNELS.items()
        if args.model == "all" or (ch.get("model") == "radio") == (args.model == "radio")
    }
    if args.model != "range":
        table_error(args.standard)

    rows = []
    for n in [int(x) for x in args.stations.split(",")]:
        row: dict[str, Any] = {"stations": n, "standard": args.standard}
        for label, channel in channels.items():
            a = run_airtcp(n, args.standard, args.duration_s, args.seed, channel, args.exact)
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
            # Like for like: preamble detection under the range model (ns-3's program gives
            # every link one power, FixedRssLossModel); with --model radio the radio model,
            # which is not (its stations stand at different distances from each other).
            like = "airtcp_pd" if "airtcp_pd" in row else "radio"
            a = row[like]
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
                f"gap {like}/ns-3 {gap * 100:+.2f} %"
                f"{'' if like == 'airtcp_pd' else ' (not like for like)'}  "
                f"airtcp is {ratio:.0f}x faster",
                flush=True,
            )
            for label in channels:
                r = b["wall_seconds"] / row[label]["wall_seconds"]
                row[f"speedup_{label}"] = r
                print(f"{'':>{len(args.standard) + 14}}     ns-3 / {label}: {r:.0f}x", flush=True)
        rows.append(row)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
