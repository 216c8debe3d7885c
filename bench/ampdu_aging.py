"""Subframe error rate against position in an A-MPDU under channel aging (issue 35): airtcp's
runs of examples/ampdu-aging.toml beside the model's expectation computed apart from the
simulator.

    .venv/bin/python bench/ampdu_aging.py                  # 0, 1, 3, 5 m/s, 10 s each
    .venv/bin/python bench/ampdu_aging.py --out docs/figures/ampdu-aging-ser.png

The run: one 802.11n station 5 m from its AP, UDP at MCS 7 in ath9k's 4-ms A-MPDUs (20
subframes), walking round the AP at v (Rayleigh fading with Clarke's Doppler spectrum at
f_D = v f / c, 5.18 GHz, from the station's own motion), the channel estimated at the
preamble. A subframe's error rate at each position is the share of
its subframes the BlockAck did not acknowledge, among PPDUs a BlockAck answered (the mpdus
trace), with a 95 % Wilson interval.

The expectation: a subframe whose middle is dt after the estimate is decoded at SINR
snr |h0|^2 / (1 + snr |h(dt) - h0|^2) (the simulator's model: MoFA's, the estimation error as
noise), with h a complex Gaussian process of autocorrelation J0(2 pi f_D tau) (Clarke's, not
the simulator's sum of sinusoids),
snr the mean SNR of the scenario's link budget (`airtcp.config.budget.link_budgets`), and the success of its bits at that SINR by the NIST model
(airtcp._core.chunk_success, tabulated every 0.01 dB), conditioned as the runs are on a PPDU
with at least one subframe through. 200,000 draws of the channel at the estimate and at every
subframe's middle, jointly (covariance J0(2 pi f_D |t_i - t_j|)): the expectation's Monte
Carlo error is about 0.002.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import airtcp
from airtcp import plot
from airtcp.config import Scenario
from airtcp.config.budget import link_budgets, topology_of
from airtcp.config.expand import SPEED_OF_LIGHT_MPS
from airtcp.config.load import load_toml
from airtcp.fading import aging_subframe_errors

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ampdu-aging.toml"
CARRIER_HZ = 5.18e9
SPEEDS_MPS = (0.0, 1.0, 3.0, 5.0)
DRAWS = 200_000


def mean_snr_db(cfg: dict) -> float:
    """The station's mean SNR at its AP [dB], from the world's own link budget (the path loss,
    powers and noise of the scenario's radio channel, no fade)."""
    spec = Scenario.from_dict(cfg).to_world_spec()
    names = [n["name"] for n in spec["nodes"]]
    link = (names.index("sta1"), names.index("ap"), "HtMcs7", 1500)
    return float(link_budgets(topology_of(spec), [link])[0]["snr_db"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration-s", type=float, default=10.0)
    ap.add_argument("--out", type=Path, default=None, help="write the figure here (.png)")
    args = ap.parse_args()
    base = load_toml(EXAMPLE)
    base["duration_s"] = args.duration_s
    snr_db = mean_snr_db(base)
    print(f"mean SNR {snr_db:.2f} dB (5 m)")
    results = []
    for v in SPEEDS_MPS:
        fd = v * CARRIER_HZ / SPEED_OF_LIGHT_MPS
        cfg = {**base, "mobility": {**base["mobility"], "speed_mps": v}}
        res = airtcp.run(cfg, seed=1)
        results.append(res)
        _, data = plot.trace(res, kind="mpdus")
        trace = res.traces["mpdus"].to_pandas()
        step_s = (
            float(np.diff(trace.groupby("position")["offset_ns"].mean().to_numpy()).mean()) * 1e-9
        )
        mids = data["offset_ms"].to_numpy() * 1e-3 + step_s / 2
        bits = round(step_s * 65e6)
        model = aging_subframe_errors(fd, mids, bits, snr_db, draws=DRAWS)
        gp = res.summary["flows"][0]["goodput_bps"] / 1e6
        print(f"\n{v:g} m/s (f_D {fd:.1f} Hz): goodput {gp:.2f} Mbit/s, {bits} bits a subframe")
        print("position  airtcp [95 % interval]      model")
        for k in (0, 1, 2, 4, 7, 9, 14, 19):
            row = data.iloc[k]
            print(
                f"{k:8d}  {row['value']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"
                f"{'':8s}{model[k]:.3f}"
                + ("" if row["lo"] - 0.002 <= model[k] <= row["hi"] + 0.002 else "  outside")
            )
    if args.out is not None:
        fig, _ = plot.trace(
            results,
            kind="mpdus",
            title="subframe error rate by position: MCS 7, 4-ms A-MPDUs, 0 / 1 / 3 / 5 m/s",
        )
        fig.savefig(args.out, dpi=110)
        print(f"\nwritten {args.out}")


if __name__ == "__main__":
    main()
