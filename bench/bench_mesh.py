"""Benchmark: a 3-hop 802.11s mesh chain, airtcp's mesh (docs/mesh.md) beside ns-3 3.44's.

    .venv/bin/python bench/bench_mesh.py                  # 5 seeds, 20 s after a 2 s warm-up
    .venv/bin/python bench/bench_mesh.py --quick          # 2 seeds, 10 s
    .venv/bin/python bench/bench_mesh.py --cases tcp --no-ns3
    .venv/bin/python bench/bench_mesh.py --ns3-arg=--ns3::dot11s::PeerLink::MaxBeaconLoss=20

Scenario (both simulators): mesh points n0..n3 on a line 10 m apart, each decoding and sensing
only its neighbours (airtcp: range model, rx_range_m = cs_range_m = 15; ns-3:
RangePropagationLossModel with MaxRange 15 m), 802.11g without b/g mixed mode (9 us slot),
data at 54 Mbit/s, ACKs at 6, management frames at 1 Mbit/s, EDCA (data in AC_BE), 7 attempts
per frame, 100-packet MAC queues, preamble detection on both sides (as bench_tcp.py), each
simulator's own mesh defaults (airtcp: Linux's open80211s; ns-3: its Dot11s stack). One flow
n0 -> n3 starts at --start-s (1 s: peering is over by 0.6 s in both); counting starts at
--warmup-s (2 s) and lasts --duration-s. Cases:

  cbr         UDP constant bit rate 2 Mbit/s, 1472-byte payloads
  saturating  saturating UDP, 1472-byte payloads
  tcp         one bulk TCP flow, NewReno, with the TCP settings of bench_tcp.py's chain pairing
              (airtcp's defaults: MSS 1460, IW 10, delayed ACK every 2 / 40 ms, min RTO 200 ms,
              timestamps, no SACK; ns-3 gets them from the airtcp world spec)

Seeds: airtcp seed k and ns-3 --seed=1 --run=k for k = 1..--seeds. Prints per case the goodput
mean with its 95 % Student-t interval for each simulator, the mean set-up time of n0's first
path discovery to n3 (airtcp: summary nodes[0].mesh.path_setups[0].setup_ms; ns-3: the first
HwmpProtocol "RouteDiscoveryTime" of n0), the mean wall time per run (airtcp: the core run;
ns-3: Simulator::Run() only), the ratio ns-3/airtcp and the mean event counts, then per case
the diagnostics that explain the gaps (path discoveries, peer-link closures, drops). The ns-3
program (bench/ns3/mesh_chain.cc) is built on first use by bench/ns3/build.sh.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

import airtcp
from airtcp.config import Scenario

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "ns3"))

CASES: dict[str, str] = {"cbr": "udp_cbr", "saturating": "udp_saturating", "tcp": "tcp_bulk"}
HOPS = 3
PAYLOAD = 1472
CBR_MBPS = 2.0

# two-sided 95 % Student-t quantiles t_{0.975, df}
_T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    15: 2.131,
    20: 2.086,
    30: 2.042,
}


def t975(df: int) -> float:
    if df in _T975:
        return _T975[df]
    below = max(k for k in _T975 if k <= df)
    return _T975[below]


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % Student-t interval (nan for one sample)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.nan
    return m, t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


def scenario(case: str, duration_s: float, warmup_s: float, start_s: float) -> dict[str, Any]:
    """The airtcp scenario dict of one case."""
    flow: dict[str, Any] = {"kind": CASES[case], "src": "n0", "dst": f"n{HOPS}", "start_s": start_s}
    if case != "tcp":
        flow["payload_bytes"] = PAYLOAD
    if case == "cbr":
        flow["rate_mbps"] = CBR_MBPS
    d: dict[str, Any] = {
        "name": f"mesh-chain-{case}",
        "topology": "chain",
        "hops": HOPS,
        "spacing_m": 10.0,
        "standard": "80211g",
        "data_rate_mbps": 54,
        "basic_rate_mbps": 6,
        "duration_s": warmup_s + duration_s,
        "warmup_s": warmup_s,
        # neighbours only; preamble detection as ns-3's default receiver (bench_tcp.py)
        "channel": {"rx_range_m": 15.0, "cs_range_m": 15.0, "preamble_detection": True},
        "mesh": {},
        "flows": [flow],
    }
    if case == "tcp":
        d["cc"] = "newreno"
    return d


def run_airtcp(d: dict[str, Any], seed: int) -> dict[str, Any]:
    r = airtcp.run(copy.deepcopy(d), seed=seed)
    s = r.summary
    flow = s["flows"][0]
    mesh = [n["mesh"] for n in s["nodes"]]
    setups = mesh[0]["path_setups"]
    return {
        "goodput_bps": flow["goodput_bps"],
        "path_setup_ms": setups[0]["setup_ms"] if setups else math.nan,
        "path_setups": len(setups),
        "wall_seconds": s["wall_seconds"],
        "events": s["events"],
        "peered_by_s": max(p["established_s"] for m in mesh for p in m["peers"]),
        "links_broken": sum(m["links_broken"] for m in mesh),
        "drops_no_path": sum(m["drops_no_path"] for m in mesh),
        "retry_drops": sum(n["mac"]["drops_retry_limit"] for n in s["nodes"]),
        "queue_drops": sum(n["mac"]["drops_queue"] for n in s["nodes"]),
        "delivered_packets": flow.get("delivered_packets"),
        "sent_packets": flow.get("sent_packets"),
        "tcp": flow.get("tcp"),
    }


def ns3_kwargs(d: dict[str, Any]) -> dict[str, Any]:
    """ns3_runner.run_mesh keyword arguments mirroring the airtcp world spec of ``d``."""
    spec = Scenario.from_dict(d).to_world_spec()
    wifi = spec["wifi"]
    flow = spec["flows"][0]
    kw: dict[str, Any] = {
        "hops": int(d["hops"]),
        "standard": wifi["standard"],
        "data_rate_mbps": wifi["data_rate_mbps"],
        "basic_rate_mbps": wifi["basic_rate_mbps"],
        "duration_s": spec["duration_ns"] / 1e9,
        "warmup_s": spec["warmup_ns"] / 1e9,
        "start_s": d["flows"][0]["start_s"],
        "spacing_m": d["spacing_m"],
        "range_m": d["channel"]["rx_range_m"],
        # no RTS/CTS (rts_threshold_bytes 65535): every frame falls under the short retry limit
        "retry_limit": wifi["short_retry_limit"],
        "queue_packets": wifi["queue_limit_packets"],
    }
    kind = d["flows"][0]["kind"]
    if kind == "tcp_bulk":
        tcp = flow["tcp"]
        kw.update(
            traffic="tcp",
            cc=tcp["cc"],
            mss=tcp["mss_bytes"],
            del_ack_count=tcp["ack_every"],
            del_ack_timeout_ms=tcp["delack_timeout_ms"],
            min_rto_ms=tcp["min_rto_ms"],
            initial_cwnd=tcp["initial_cwnd"],
            timestamps=tcp["timestamps"],
            snd_rcv_buf=tcp["rcv_buf_bytes"],
            rcv_buf=tcp["rcv_buf_bytes"],
            snd_buf=tcp.get("snd_buf_bytes"),
        )
    else:
        kw.update(
            traffic="cbr" if kind == "udp_cbr" else "saturating",
            payload_bytes=flow["payload_bytes"],
            rate_mbps=d["flows"][0].get("rate_mbps", CBR_MBPS),
        )
    return kw


def run_ns3(d: dict[str, Any], run: int, extra_args: list[str]) -> dict[str, Any]:
    import ns3_runner

    res = ns3_runner.run_mesh(seed=1, run=run, extra_args=extra_args, **ns3_kwargs(d))
    nodes = res["nodes"]
    closes = sum(1 for n in nodes for _, ev in n["link_events"] if ev.startswith("close"))
    first_open = [
        min((t for t, ev in n["link_events"] if ev.startswith("open")), default=math.nan)
        for n in nodes
    ]
    return {
        "goodput_bps": res["goodput_bps"],
        "path_setup_ms": res["path_setup_ms"] if res["path_setup_ms"] >= 0 else math.nan,
        "path_setups": len(nodes[0]["route_discovery_ms"]),
        "wall_seconds": res["wall_seconds"],
        "process_wall_seconds": res["process_wall_seconds"],
        "events": res["events"],
        "peered_by_s": max(first_open),
        # each closure is seen by both ends: count link closures once
        "link_closures": closes // 2,
        "hwmp_dropped": sum(n["hwmp"]["totalDropped"] for n in nodes),
        "retry_drops": res["retry_drops"],
        "queue_drops": sum(n["queue_drops"] for n in nodes),
        "delivered_packets": res.get("udp_delivered_packets_after_warmup"),
        "sent_packets": res.get("udp_sent_packets_after_warmup"),
        "frames_n1": nodes[1]["frames"],
        "tcp": res.get("tcp"),
        "mesh_defaults": res["mesh_defaults"],
        "cmd": res["cmd"],
    }


def _fmt_ci(xs: list[float]) -> str:
    m, h = mean_ci([x / 1e6 for x in xs])
    return f"{m:6.3f} ± {h:5.3f}" if not math.isnan(h) else f"{m:6.3f}"


def _mean(xs: list[float]) -> float:
    xs = [x for x in xs if not math.isnan(x)]
    return statistics.fmean(xs) if xs else math.nan


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated: cbr,saturating,tcp")
    ap.add_argument("--seeds", type=int, default=5, help="seeds / run numbers 1..N")
    ap.add_argument("--duration-s", type=float, default=20.0, help="measured simulated time")
    ap.add_argument("--warmup-s", type=float, default=2.0)
    ap.add_argument("--start-s", type=float, default=1.0, help="when the flow starts")
    ap.add_argument("--quick", action="store_true", help="2 seeds, 10 s")
    ap.add_argument("--no-ns3", action="store_true", help="run airtcp only")
    ap.add_argument(
        "--ns3-arg",
        action="append",
        default=[],
        help="extra argument for mesh_chain, repeatable (e.g. an ns-3 attribute default)",
    )
    ap.add_argument("--json", type=Path, help="also write every run to this JSON file")
    args = ap.parse_args(argv)
    if args.quick:
        args.seeds, args.duration_s = 2, 10.0

    names = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in names if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {unknown}; known: {', '.join(CASES)}")
    seeds = list(range(1, args.seeds + 1))
    print(
        f"3-hop 802.11s chain, 802.11g 54/6, {args.duration_s:g} s measured after "
        f"{args.warmup_s:g} s (flow from {args.start_s:g} s), seeds {seeds}",
        flush=True,
    )

    results: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for name in names:
        d = scenario(name, args.duration_s, args.warmup_s, args.start_s)
        results[name] = {"airtcp": [], "ns3": []}
        for k in seeds:
            a = run_airtcp(d, k)
            results[name]["airtcp"].append(a)
            line = (
                f"{name:<10} seed {k}  airtcp {a['goodput_bps'] / 1e6:7.3f} Mbit/s "
                f"setup {a['path_setup_ms']:7.2f} ms  wall {a['wall_seconds']:.3f} s"
            )
            if not args.no_ns3:
                b = run_ns3(d, k, args.ns3_arg)
                results[name]["ns3"].append(b)
                line += (
                    f" | ns-3 {b['goodput_bps'] / 1e6:7.3f} Mbit/s "
                    f"setup {b['path_setup_ms']:7.2f} ms  wall {b['wall_seconds']:.3f} s "
                    f"(process {b['process_wall_seconds']:.3f} s)"
                )
            print(line, flush=True)

    # ---- the table
    print()
    head = (
        "| case | airtcp goodput (Mbit/s) | ns-3 goodput (Mbit/s) | airtcp setup (ms) "
        "| ns-3 setup (ms) | airtcp wall/run (s) | ns-3 wall/run (s) | ns-3/airtcp "
        "| airtcp events | ns-3 events |"
    )
    print(head)
    print("|" + "---|" * 10)
    for name in names:
        a, b = results[name]["airtcp"], results[name]["ns3"]
        aw = _mean([r["wall_seconds"] for r in a])
        row = (
            f"| {name} | {_fmt_ci([r['goodput_bps'] for r in a])} "
            f"| {_fmt_ci([r['goodput_bps'] for r in b]) if b else '-'} "
            f"| {_mean([r['path_setup_ms'] for r in a]):.2f} "
            f"| {_mean([r['path_setup_ms'] for r in b]) if b else math.nan:.2f} "
            f"| {aw:.4f} "
        )
        if b:
            bw = _mean([r["wall_seconds"] for r in b])
            row += (
                f"| {bw:.3f} | {bw / aw:.0f}x "
                f"| {_mean([r['events'] for r in a]):,.0f} | {_mean([r['events'] for r in b]):,.0f} |"
            )
        else:
            row += f"| - | - | {_mean([r['events'] for r in a]):,.0f} | - |"
        print(row)

    # ---- diagnostics
    print()
    for name in names:
        a, b = results[name]["airtcp"], results[name]["ns3"]
        print(
            f"{name:<10} airtcp: peered by {max(r['peered_by_s'] for r in a):.3f} s, "
            f"discoveries by n0 {[r['path_setups'] for r in a]}, "
            f"drops for want of a path {[r['drops_no_path'] for r in a]}, "
            f"links broken {[r['links_broken'] for r in a]}, "
            f"retry drops {[r['retry_drops'] for r in a]}, "
            f"queue drops {[r['queue_drops'] for r in a]}"
        )
        if b:
            print(
                f"{'':<10}   ns-3: peered by {max(r['peered_by_s'] for r in b):.3f} s, "
                f"discoveries by n0 {[r['path_setups'] for r in b]}, "
                f"HWMP drops {[r['hwmp_dropped'] for r in b]}, "
                f"peer-link closures {[r['link_closures'] for r in b]}, "
                f"retry drops {[r['retry_drops'] for r in b]}, "
                f"queue drops {[r['queue_drops'] for r in b]}"
            )
        if name == "cbr":
            print(
                f"{'':<10}   delivered/sent after warm-up: airtcp "
                f"{[(r['delivered_packets'], r['sent_packets']) for r in a]}"
                + (
                    f", ns-3 {[(r['delivered_packets'], r['sent_packets']) for r in b]}"
                    if b
                    else ""
                )
            )
        if name == "tcp":
            for label, rs in (("airtcp", a), ("ns-3", b)):
                for r in rs:
                    t = r["tcp"] or {}
                    print(
                        f"{'':<10} {label:>8} tcp: retx={t.get('retransmissions')} "
                        f"timeouts={t.get('timeouts')} fast_retx={t.get('fast_retransmits')} "
                        f"mean_cwnd={t.get('mean_cwnd_segments', 0):.1f} "
                        f"rtt_mean={t.get('rtt_mean_s', 0) * 1e3:.1f} ms"
                    )
    if any(results[n]["ns3"] for n in names):
        first = next(results[n]["ns3"][0] for n in names if results[n]["ns3"])
        print("\nns-3 mesh defaults:", json.dumps(first["mesh_defaults"]))
        print(
            "ns-3 frames sent by n1 (type@mode/bytes), first run:", json.dumps(first["frames_n1"])
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
