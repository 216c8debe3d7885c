"""Paper 000's 5-hop level on the ideal chain, step by step from the template to ns-3 3.44's
chain on the same channel (docs/paper-000.md, "The 5-hop level beside ns-3").

    .venv/bin/python bench/p000_level.py              # the airtcp steps, 4 seeds each (~30 s)
    .venv/bin/python bench/p000_level.py --ns3        # and ns-3's chain_tcp, 3 runs (~4 min)

Every step changes one thing of the one before, CUBIC over 5 hops at retry limit 7 on the
ideal channel (collisions only), 100 s after 5 s:

  template      the ``paper-000`` template (802.11s, Minstrel over rt2800's retry chain, CWmin
                31 as Linux 3.12's mesh point, 16-frame driver queues, Linux 3.12's TCP)
  cw-15         the same with Table II's CWmin 15 (the template before issue 36)
  fixed-54      every data frame at 54 Mbit/s (no Minstrel, no hardware fallback)
  rfc-tcp       RFC rules with SACK in place of Linux 3.12's profile (no TSQ, PRR, TLP, ...)
  chain         no 802.11s: static routes, 24-byte headers, no Beacons or HWMP; the scenario
                ns-3's ``chain_tcp`` runs (ERP long slot, EDCA AC_BE, CWmin 31, 16 packets)

``--ns3`` runs bench/ns3/build/chain_tcp with the same settings (``--erpMixed=1 --qos=1
--queuePackets=16 --retryLimit=7 --cc=cubic --sack=1 --recovery=prr --mss=1448``) for runs
1-3. Prints mean goodput with its standard deviation, the collision probability and the RTOs
per run.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import subprocess
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from airtcp.run import run

ROOT = Path(__file__).resolve().parents[1]
NS3_CHAIN = ROOT / "bench" / "ns3" / "build" / "chain_tcp"
TEMPLATE: dict[str, Any] = {
    "template": "paper-000",
    "hops": 5,
    "retry_limit": 7,
    "cc": "cubic",
    "channel": "ideal",
}
CHAIN: dict[str, Any] = {
    "topology": "chain",
    "hops": 5,
    "spacing_m": 5.0,
    "standard": "80211g",
    "erp_mixed": True,
    "data_rate_mbps": 54,
    "basic_rate_mbps": 6,
    "retry_limit": 7,
    "traffic": "tcp",
    "cc": "cubic",
    "recovery": "sack",
    "duration_s": 105.0,
    "warmup_s": 5.0,
    "mac": {"access": "edca", "a_cw_min": 31, "queue_limit_packets": 16},
    "tcp": {"mss_bytes": 1448},
    # ns-3's receiver: preamble detection on (bench_tcp.py)
    "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0, "preamble_detection": True},
}
STEPS: dict[str, dict[str, Any]] = {
    "template": TEMPLATE,
    "cw-15": {**TEMPLATE, "mac": {"a_cw_min": 15}},
    "fixed-54": {**TEMPLATE, "fixed_rate_mbps": 54},
    "rfc-tcp": {**TEMPLATE, "fixed_rate_mbps": 54, "tcp": {"profile": "rfc", "recovery": "sack"}},
    "chain": CHAIN,
}
NS3_ARGS = [
    "--hops=5",
    "--erpMixed=1",
    "--qos=1",
    "--queuePackets=16",
    "--retryLimit=7",
    "--cc=cubic",
    "--sack=1",
    "--recovery=prr",
    "--mss=1448",
    "--durationS=105",
    "--warmupS=5",
    "--seed=1",
]


def one(job: tuple[str, int]) -> tuple[str, float, float, int]:
    step, seed = job
    s = run(copy.deepcopy(STEPS[step]), seed=seed).summary
    flow = s["flows"][0]
    return (
        step,
        flow["goodput_bps"] / 1e6,
        s["totals"]["collision_probability"],
        flow["tcp"]["timeouts"],
    )


def ns3(runs: int) -> list[tuple[float, float]]:
    if not NS3_CHAIN.exists():
        sys.exit(f"{NS3_CHAIN} is missing: build it with bench/ns3/build.sh chain_tcp")
    out = []
    for k in range(1, runs + 1):
        res = subprocess.run([str(NS3_CHAIN), *NS3_ARGS, f"--run={k}"], capture_output=True,
                             text=True, check=True)  # fmt: skip
        d = json.loads(res.stdout.strip().splitlines()[-1])
        out.append((d["goodput_bps"] / 1e6, d["collision_probability"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--ns3", action="store_true", help="also run ns-3's chain_tcp")
    ap.add_argument("--ns3-runs", type=int, default=3)
    args = ap.parse_args()
    jobs = [(step, seed) for step in STEPS for seed in range(1, args.seeds + 1)]
    with Pool(2) as pool:
        rows = pool.map(one, jobs)
    print(f"{'step':<10} {'Mbit/s':>7} {'sd':>6} {'p(coll)':>8} {'RTOs':>5}")
    for step in STEPS:
        got = [r for r in rows if r[0] == step]
        x = [r[1] for r in got]
        print(f"{step:<10} {statistics.mean(x):7.3f} {statistics.stdev(x):6.3f} "
              f"{statistics.mean(r[2] for r in got):8.3f} {statistics.mean(r[3] for r in got):5.1f}")  # fmt: skip
    if args.ns3:
        res = ns3(args.ns3_runs)
        x = [r[0] for r in res]
        print(f"{'ns-3':<10} {statistics.mean(x):7.3f} {statistics.stdev(x):6.3f} "
              f"{statistics.mean(r[1] for r in res):8.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
