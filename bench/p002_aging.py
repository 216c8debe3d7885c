"""Paper 002's house when the receiver estimates the channel at the preamble (issue 35): how
many MPDUs a BlockAck's bitmap leaves out against those of PPDUs no BlockAck answered, and what
the paper's remedy (the Block-Ack retry limit by data rate) then drops and does to RTT below
80 Mbit/s.

    .venv/bin/python bench/p002_aging.py --fading tgn-b     # TGn B, f_d 5.73 Hz (3 min)
    .venv/bin/python bench/p002_aging.py --fading doppler   # flat Rayleigh at 5.73 Hz

The runs: the paper-002 template (CUBIC upload, Linux 3.2's queues, 40 MHz with the short
guard interval) at 6 and 8 m, a fixed MCS 0-3 (15, 30, 45, 60 Mbit/s), native 802.11n and the
remedy, 30 s after the warm-up, seeds 1-3, the template's Nakagami blocks replaced by the
chosen fading with the preamble's estimate. From the mpdus trace of the station's data: a
subframe lost with its PPDU answered is a bitmap loss, one whose PPDU no BlockAck answered a
whole-PPDU loss; `dropped` counts subframes given up (the remedy's drops are the excess over
native's). Prints one markdown row per position and rate: goodput native / remedy (mean of
the seeds), mean RTT native / remedy, the bitmap's share of native's losses (and bitmap losses
per MPDU sent), the remedy's extra drops over the three runs, and the RTOs native / remedy.
"""

from __future__ import annotations

import argparse
import statistics as st
from typing import Any

import airtcp

RATES_MBPS = {0: 15, 1: 30, 2: 45, 3: 60}
SEEDS = (1, 2, 3)
DISTANCES_M = (6.0, 8.0)
# TGn's environment Doppler, 1.2 km/h at the template's 5.15 GHz.
ENV_DOPPLER_HZ = 5.73


def run(fading: str, dist: float, mcs: int, scheme: str, seed: int) -> dict[str, Any]:
    channel: dict[str, Any] = {
        "fading": fading,
        "estimation": "preamble",
        "coherence_ms": None,
        "nakagami_m": 1.0,
        "doppler_hz": ENV_DOPPLER_HZ,
    }
    cfg = {
        "template": "paper-002",
        "distance_m": dist,
        "mcs": mcs,
        "scheme": scheme,
        "duration_s": 30.0,
        "traces": {"mpdus": True},
        "channel": channel,
    }
    res = airtcp.run(cfg, seed=seed)
    t = res.traces["mpdus"].to_pandas()
    up = t[t["node"] == 1]  # the station's data
    lost = up[up["fate"] != "acked"]
    flow = res.summary["flows"][0]
    return {
        "goodput": flow["goodput_bps"] / 1e6,
        "mpdus": len(up),
        "bitmap": int(lost["block_ack"].sum()),
        "whole": int((~lost["block_ack"]).sum()),
        "dropped": int((up["fate"] == "dropped").sum()),
        "rtt_ms": flow["tcp"]["rtt_mean_s"] * 1e3,
        "rto": flow["tcp"]["timeouts"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fading", choices=("tgn-b", "tgn-d", "doppler"), default="tgn-b")
    args = ap.parse_args()
    print(
        "| position, rate | goodput [Mbit/s] | mean RTT [ms] | bitmap share (of MPDUs) "
        "| remedy's drops | RTOs |"
    )
    print("|---|---|---|---|---|---|")
    for dist in DISTANCES_M:
        for mcs, rate in RATES_MBPS.items():
            n = [run(args.fading, dist, mcs, "none", s) for s in SEEDS]
            b = [run(args.fading, dist, mcs, "ba-retry", s) for s in SEEDS]
            lost = sum(x["bitmap"] + x["whole"] for x in n)
            share = sum(x["bitmap"] for x in n) / max(lost, 1)
            per_mpdu = sum(x["bitmap"] for x in n) / max(sum(x["mpdus"] for x in n), 1)
            extra = sum(x["dropped"] for x in b) - sum(x["dropped"] for x in n)
            print(
                f"| {dist:g} m, {rate} Mbit/s "
                f"| {st.mean(x['goodput'] for x in n):.2f} / {st.mean(x['goodput'] for x in b):.2f} "
                f"| {st.mean(x['rtt_ms'] for x in n):.0f} / {st.mean(x['rtt_ms'] for x in b):.0f} "
                f"| {share:.2f} ({100 * per_mpdu:.1f} %) | {extra} "
                f"| {sum(x['rto'] for x in n)} / {sum(x['rto'] for x in b)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
