"""Benchmark: one 802.11n station uploading to its AP, airtcp beside ns-3 3.44.

    .venv/bin/python bench/bench_ht.py              # 8 cases, 10 s after a 2 s warm-up
    .venv/bin/python bench/bench_ht.py --no-ns3     # airtcp only
    .venv/bin/python bench/bench_ht.py --aging      # the channel models' cost, airtcp only

Cases: MCS 0 and MCS 7 (5 GHz, 20 MHz, long GI, the station 1 m from the AP) x saturating UDP
(1472-byte payloads) and TCP CUBIC (MSS 1448) x A-MPDU on (65,535 bytes, 5.484 ms) and off.
Both run EDCA (AC_BE), beacons every 100 TU, a 100-packet MAC queue and the basic rate set
that answers MCS 7 at 24 Mbit/s and MCS 0 at 6. The ns-3 side is bench/ns3/ht_upload.cc
(bench/ns3/NOTES.md, "802.11n (HT)"), built on first use against the PyPI wheel
ns3==3.44.post0. Where the models differ: ns-3 counts no retries under a Block Ack agreement
and its TCP defaults (SACK off, tcp_common.h) are not airtcp's, so TCP rows compare the links,
not the stacks.

Prints, per case, both goodputs and the gap airtcp/ns-3 - 1, MPDUs per PPDU on both sides,
airtcp's events per PPDU (the cost of aggregation must stay per PPDU, not per MPDU), and both
wall times (airtcp: the core run; ns-3: Simulator::Run()) with their ratio.

With --aging (issue 35), the A-MPDU cases run under the radio model at 5 m, 60 s, with
fading as blocks (Nakagami m = 1, a fade per 50 ms), as flat Doppler fading at 17.3 Hz with the
estimate at the preamble (each subframe decided at its own SINR), and as TGn D likewise:
the core's wall time of each (the best of three), its ratio to the block model's, and events
per PPDU, which the per-subframe decisions must leave unchanged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import airtcp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "ns3"))


def case_config(mcs: int, traffic: str, ampdu: bool, **over: Any) -> dict[str, Any]:
    """One station uploading to its AP 1 m away for 12 s (a 2 s warm-up), `over` replacing
    keys (the aging cases' distance, duration and channel)."""
    cfg: dict[str, Any] = {
        "standard": "80211n",
        "ht": {"mcs": mcs, "ampdu": ampdu},
        "traffic": traffic,
        "stations": 1,
        "spacing_m": 1.0,
        "duration_s": 12.0,
        "warmup_s": 2.0,
        "payload_bytes": 1472,
        "mac": {"access": "edca", "beacon_interval_tu": 100},
        **over,
    }
    if traffic == "tcp":
        cfg.update(cc="cubic", tcp={"mss_bytes": 1448})
    return cfg


def airtcp_case(mcs: int, traffic: str, ampdu: bool) -> dict[str, Any]:
    cfg = case_config(mcs, traffic, ampdu)
    s = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1).summary
    sta = s["nodes"][1]["mac"]
    ppdus = max(1, sta["attempts"])
    return {
        "goodput_bps": s["flows"][0]["goodput_bps"],
        "mpdus_per_ppdu": sta["mpdus_sent"] / ppdus,
        "events_per_ppdu": s["events"] / ppdus,
        "events_per_mpdu": s["events"] / max(1, sta["mpdus_acked"]),
        "wall_seconds": s["wall_seconds"],
    }


AGING_CHANNELS: dict[str, dict[str, Any]] = {
    "blocks": {"fading": "nakagami", "nakagami_m": 1.0, "coherence_ms": 50.0},
    "doppler": {"fading": "doppler", "doppler_hz": 17.3, "estimation": "preamble"},
    "tgn-d": {"fading": "tgn-d", "doppler_hz": 17.3, "estimation": "preamble"},
}


def aging_case(mcs: int, traffic: str, channel: dict[str, Any]) -> dict[str, Any]:
    cfg = case_config(
        mcs,
        traffic,
        True,
        spacing_m=5.0,
        duration_s=62.0,
        channel={"model": "radio", **channel},
    )
    runs = [airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1).summary for _ in range(3)]
    s = runs[0]
    sta = s["nodes"][1]["mac"]
    return {
        "goodput_bps": s["flows"][0]["goodput_bps"],
        "subframes": sta["mpdus_sent"],
        "events_per_ppdu": s["events"] / max(1, sta["attempts"]),
        "wall_seconds": min(r["wall_seconds"] for r in runs),
    }


def aging() -> None:
    for mcs in (0, 7):
        for traffic in ("udp", "tcp"):
            base = None
            for name, channel in AGING_CHANNELS.items():
                a = aging_case(mcs, traffic, channel)
                base = base or a["wall_seconds"]
                extra_us = (a["wall_seconds"] - base) / max(1, a["subframes"]) * 1e6
                print(
                    f"MCS {mcs} {traffic:3} {name:8} {a['goodput_bps'] / 1e6:7.3f} Mbit/s  "
                    f"{a['subframes']:8d} subframes  {a['events_per_ppdu']:5.2f} events/PPDU  "
                    f"wall {a['wall_seconds']:.3f} s  x{a['wall_seconds'] / base:.2f} the blocks  "
                    f"{extra_us:+.2f} us/subframe",
                    flush=True,
                )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--no-ns3", action="store_true", help="airtcp only")
    ap.add_argument("--aging", action="store_true", help="the channel models' cost (issue 35)")
    args = ap.parse_args()
    if args.aging:
        aging()
        return
    if not args.no_ns3:
        import ns3_runner

        ns3_runner.build()
    for mcs in (0, 7):
        for traffic in ("udp", "tcp"):
            for ampdu in (True, False):
                a = airtcp_case(mcs, traffic, ampdu)
                name = f"MCS {mcs} {traffic:3} A-MPDU {'on ' if ampdu else 'off'}"
                line = (
                    f"{name}  airtcp {a['goodput_bps'] / 1e6:7.3f} Mbit/s  "
                    f"{a['mpdus_per_ppdu']:5.2f} MPDU/PPDU  {a['events_per_ppdu']:5.2f} events/PPDU "
                    f"{a['events_per_mpdu']:5.2f} /MPDU  "
                    f"wall {a['wall_seconds']:.3f} s"
                )
                if not args.no_ns3:
                    b = ns3_runner.run_ht(
                        mcs=mcs,
                        traffic=traffic,
                        max_ampdu_bytes=65535 if ampdu else 0,
                        duration_s=10.0,
                        warmup_s=2.0,
                    )
                    gap = a["goodput_bps"] / b["goodput_bps"] - 1
                    line += (
                        f" | ns-3 {b['goodput_bps'] / 1e6:7.3f} Mbit/s  "
                        f"{b['mean_mpdus_per_ppdu']:5.2f} MPDU/PPDU  wall {b['wall_seconds']:.3f} s"
                        f" | gap {gap * 100:+.2f} %  ns-3/airtcp wall x{b['wall_seconds'] / a['wall_seconds']:.0f}"
                    )
                print(line, flush=True)


if __name__ == "__main__":
    main()
