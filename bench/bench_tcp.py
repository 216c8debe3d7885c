"""Benchmark: bulk TCP over 802.11, airtcp beside ns-3 3.44.

    .venv/bin/python bench/bench_tcp.py                        # every case, 100 s after 5 s
    .venv/bin/python bench/bench_tcp.py --cases bss-cubic-ack1,chain-newreno-ack2
    .venv/bin/python bench/bench_tcp.py --no-ns3                # airtcp only
    .venv/bin/python bench/bench_tcp.py --ns3-arg=--sack=1      # an ns-3 diagnostic variant

Cases: one STA -> AP bulk flow on 802.11a 54/6 (examples/bss-tcp-bulk.toml) with cc newreno
and cubic, each with an ACK for every segment (ack1) and with delayed ACKs (ack2); the 5-hop
802.11g 54/6 chain (examples/chain-tcp.toml, every node in range, hop-by-hop routes, 8 MAC
attempts) with newreno, ack2 (the example's default) and ack1. airtcp runs with
channel.preamble_detection, the receiver ns-3 models by default (docs/validation.md section 3).
The ns-3 arguments are taken from the airtcp world spec of each case (MSS, initial window,
minimum RTO, timestamps, send and receive buffers, delayed-ACK count and timeout, MAC queue
and retry limit), so both run the same TCP settings; what ns-3 cannot mirror is in
bench/ns3/NOTES.md, section "TCP".

Prints, per case, both goodputs, the gap airtcp/ns-3 - 1, both wall times (airtcp: the core
run; ns-3: Simulator::Run() only) and their ratio, plus the TCP counters of both (segments,
retransmissions, timeouts, fast retransmits, mean cwnd, mean RTT). The ns-3 programs are built
on first use by bench/ns3/build.sh against the PyPI wheel ns3==3.44.post0. One ns-3 process
at a time.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any

import airtcp
from airtcp.config import Scenario, load_toml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "ns3"))

BSS_EXAMPLE = ROOT / "examples" / "bss-tcp-bulk.toml"
CHAIN_EXAMPLE = ROOT / "examples" / "chain-tcp.toml"

# name -> (topology, cc, ack_every)
CASES: dict[str, tuple[str, str, int]] = {
    "bss-newreno-ack1": ("bss", "newreno", 1),
    "bss-newreno-ack2": ("bss", "newreno", 2),
    "bss-cubic-ack1": ("bss", "cubic", 1),
    "bss-cubic-ack2": ("bss", "cubic", 2),
    "chain-newreno-ack2": ("chain", "newreno", 2),
    "chain-newreno-ack1": ("chain", "newreno", 1),
}
TCP_KEYS = ("segments_sent", "retransmissions", "timeouts", "fast_retransmits")


def scenario(
    topology: str,
    cc: str,
    ack_every: int,
    duration_s: float,
    warmup_s: float,
    recovery: str = "newreno",
) -> dict[str, Any]:
    """The airtcp scenario dict of one case: the example with the case's overrides."""
    d = load_toml(BSS_EXAMPLE if topology == "bss" else CHAIN_EXAMPLE)
    d["cc"] = cc
    d["recovery"] = recovery
    d["duration_s"] = warmup_s + duration_s
    d["warmup_s"] = warmup_s
    if ack_every == 1:
        d["delayed_ack"] = False
    else:
        d["delayed_ack"] = True
        d.setdefault("tcp", {})["ack_every"] = ack_every
    d["channel"] = {**d.get("channel", {}), "preamble_detection": True}
    return d


def run_airtcp(d: dict[str, Any], seed: int) -> dict[str, Any]:
    r = airtcp.run(copy.deepcopy(d), seed=seed)
    s = r.summary
    flow = s["flows"][0]
    return {
        "goodput_bps": flow["goodput_bps"],
        "wall_seconds": s["wall_seconds"],
        "events": s["events"],
        "collision_probability": s["totals"]["collision_probability"],
        "attempts": s["totals"]["attempts"],
        "queue_drops": sum(n["mac"]["drops_queue"] for n in s["nodes"]),
        "retry_drops": sum(n["mac"]["drops_retry_limit"] for n in s["nodes"]),
        "tcp": flow["tcp"],
    }


def ns3_kwargs(d: dict[str, Any]) -> dict[str, Any]:
    """ns3_runner keyword arguments mirroring the airtcp world spec of ``d``."""
    spec = Scenario.from_dict(d).to_world_spec()
    wifi = spec["wifi"]
    tcp = spec["flows"][0]["tcp"]
    # No RTS/CTS (rts_threshold_bytes 65535): every frame falls under the short retry limit.
    return {
        "standard": wifi["standard"],
        "data_rate_mbps": wifi["data_rate_mbps"],
        "basic_rate_mbps": wifi["basic_rate_mbps"],
        "duration_s": spec["duration_ns"] / 1e9,
        "warmup_s": spec["warmup_ns"] / 1e9,
        "retry_limit": wifi["short_retry_limit"],
        "queue_packets": wifi["queue_limit_packets"],
        "cc": tcp["cc"],
        "mss": tcp["mss_bytes"],
        "del_ack_count": tcp["ack_every"],
        "del_ack_timeout_ms": tcp["delack_timeout_ms"],
        "min_rto_ms": tcp["min_rto_ms"],
        "initial_cwnd": tcp["initial_cwnd"],
        "timestamps": tcp["timestamps"],
        "snd_rcv_buf": tcp["rcv_buf_bytes"],
        "rcv_buf": tcp["rcv_buf_bytes"],
        # airtcp >= 4625788 has a send buffer (Linux tcp_wmem[2], 4 MiB); before: unlimited
        "snd_buf": tcp.get("snd_buf_bytes"),
    }


def run_ns3(topology: str, d: dict[str, Any], seed: int, extra_args: list[str]) -> dict[str, Any]:
    import ns3_runner

    kw = ns3_kwargs(d)
    if topology == "bss":
        res = ns3_runner.run_bss_tcp(seed=seed, extra_args=extra_args, **kw)
    else:
        hops = int(d["hops"])
        standard = kw.pop("standard")
        rate = kw.pop("data_rate_mbps")
        basic = kw.pop("basic_rate_mbps")
        res = ns3_runner.run_chain_tcp(
            hops, standard, rate, basic, seed=seed, extra_args=extra_args, **kw
        )
    return {
        "goodput_bps": res["goodput_bps"],
        "wall_seconds": res["wall_seconds"],
        "process_wall_seconds": res["process_wall_seconds"],
        "events": res["events"],
        "collision_probability": res["collision_probability"],
        "attempts": res["attempts"],
        "queue_drops": res["queue_full_drops_after_warmup"],
        "retry_drops": res["retry_drops"],
        "tcp": res["tcp"],
        "cmd": res["cmd"],
    }


def _tcp_line(label: str, r: dict[str, Any]) -> str:
    t = r["tcp"]
    counters = "  ".join(f"{k}={t.get(k, 0)}" for k in TCP_KEYS)
    return (
        f"    {label:>6}: {counters}  mean_cwnd={t.get('mean_cwnd_segments', 0):.1f}  "
        f"rtt_mean={t.get('rtt_mean_s', 0) * 1e3:.1f} ms  p={r['collision_probability']:.4f}  "
        f"queue_drops={r['queue_drops']}  retry_drops={r['retry_drops']}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    ap.add_argument("--duration-s", type=float, default=100.0, help="measured simulated time")
    ap.add_argument("--warmup-s", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ns3", action="store_true", help="run airtcp only")
    ap.add_argument(
        "--recovery",
        default="newreno",
        choices=["tahoe", "reno", "newreno", "sack"],
        help="airtcp's loss recovery; with sack, ns-3 gets --sack=1 (like for like)",
    )
    ap.add_argument(
        "--ns3-arg",
        action="append",
        default=[],
        help="extra argument for the ns-3 program, repeatable (e.g. --ns3-arg=--sack=1)",
    )
    ap.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    args = ap.parse_args(argv)

    names = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in names if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {unknown}; known: {', '.join(CASES)}")

    rows = []
    for name in names:
        topology, cc, ack_every = CASES[name]
        d = scenario(topology, cc, ack_every, args.duration_s, args.warmup_s, args.recovery)
        row: dict[str, Any] = {"case": name, "cc": cc, "ack_every": ack_every}
        a = run_airtcp(d, args.seed)
        row["airtcp"] = a
        print(
            f"{name:<20} airtcp: {a['goodput_bps'] / 1e6:7.3f} Mbit/s  "
            f"wall={a['wall_seconds']:.3f} s  events={a['events']:,}",
            flush=True,
        )
        if not args.no_ns3:
            sack = ["--sack=1"] if args.recovery == "sack" else []
            b = run_ns3(topology, d, args.seed, sack + args.ns3_arg)
            row["ns3"] = b
            gap = a["goodput_bps"] / b["goodput_bps"] - 1.0
            ratio = b["wall_seconds"] / a["wall_seconds"]
            row["goodput_gap"] = gap
            row["speedup"] = ratio
            print(
                f"{'':<20}   ns-3: {b['goodput_bps'] / 1e6:7.3f} Mbit/s  "
                f"wall={b['wall_seconds']:.3f} s (process {b['process_wall_seconds']:.3f} s)  "
                f"events={b['events']:,}  gap airtcp/ns-3 {gap * 100:+.2f} %  "
                f"airtcp is {ratio:.0f}x faster",
                flush=True,
            )
        print(_tcp_line("airtcp", a), flush=True)
        if "ns3" in row:
            print(_tcp_line("ns-3", row["ns3"]), flush=True)
        rows.append(row)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
