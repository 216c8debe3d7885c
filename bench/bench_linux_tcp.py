"""Benchmark: TCP loss recovery on a wired bottleneck, airtcp beside ns-3 3.44 (issue 34).

    .venv/bin/python bench/bench_linux_tcp.py                   # the matrix, seeds 1-3 (~40 s)
    .venv/bin/python bench/bench_linux_tcp.py --quick           # issue 34's case, one seed
    .venv/bin/python bench/bench_linux_tcp.py --ns3-recovery classic
    .venv/bin/python bench/bench_linux_tcp.py --airtcp-set tcp.local_congestion=cwr
    .venv/bin/python bench/bench_linux_tcp.py --airtcp-set tcp.profile=linux-6 \
        --airtcp-compare tcp.profile=rfc              # two airtcp settings side by side

The test bed is examples/wired-bottleneck.toml: sender --1000 Mbit/s, 0 ms, queue 1000--
router --R Mbit/s, D ms one way, drop-tail queue Q at each end-- receiver, one bulk TCP
upload for 30 s, MSS 1460, timestamps, SACK, min RTO 200 ms, IW 10, delayed ACK (2 segments,
40 ms), receive buffer 6 MiB, send buffer 4 MiB. ns-3 runs the same dumbbell
(bench/ns3/wired_tcp.cc, bench/ns3/NOTES.md "Wired bottleneck").

Matrix: R in {5, 20} Mbit/s x D in {10, 50} ms x Q in {half BDP, 2 BDP} x random loss
{0, 1 %} on the bottleneck's forward direction (router -> receiver), plus issue 34's fixed case
(5 Mbit/s, 10 ms, Q = 2, no loss), each with cubic and reno. BDP in packets = R x 2D / (1514
bytes x 8), the wire size of a full segment (1460 + 32 TCP + 20 IP + 2 PPP), rounded to the
nearest packet, at least 1. Congestion control: airtcp cubic <-> ns-3 TcpCubic, airtcp reno
<-> ns-3 TcpLinuxReno (Linux's Reno window arithmetic); airtcp recovery "sack" (RFC 6675),
ns-3 SACK on with TcpPrrRecovery (its default; --ns3-recovery classic for
TcpClassicRecovery). Seed k: airtcp seed k, ns-3 --seed=1 --run=k.

Prints a Markdown table: per case and side the mean over the seeds with its standard deviation
(+-), and the ratio airtcp/ns-3 of the means, for goodput (Mbit/s), retransmissions, RTOs,
fast retransmits (entries into recovery), the time-weighted mean cwnd (segments) and the
forward packets dropped at the bottleneck (its full queue at the router plus random losses),
then a second table from the same runs: mean RTT, segments sent, repeated retransmissions (a
segment retransmitted again) and the largest burst (segments sent at one instant; airtcp's
from its tcp_segments trace, ns-3's from the socket's Tx trace).
--airtcp-set KEY=VALUE (repeatable) goes to every airtcp run as `airtcp run --set` would, so
a later switch can be compared without editing this script. --airtcp-compare
KEY=VALUE[,KEY=VALUE...] (repeatable) runs airtcp once more per case and seed with these
settings on top of --airtcp-set, against the same ns-3 runs, and adds a third table: goodput,
retransmissions and RTOs of ns-3, airtcp and each comparison, their ratios to ns-3, and the
totals over the cases.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import airtcp
from airtcp.config import apply_overrides, load_toml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "ns3"))

EXAMPLE = ROOT / "examples" / "wired-bottleneck.toml"
WIRE_BYTES = 1514  # MSS 1460 + TCP 20 + timestamps 12 + IPv4 20 + PPP 2
RATES_MBPS = (5, 20)
DELAYS_MS = (10, 50)
LOSSES = (0.0, 0.01)
CCS = ("cubic", "reno")
NS3_CC = {"cubic": "cubic", "reno": "linuxreno"}
# (column label, key in both sides' run dicts, scale for printing); the TCP counters every
# Linux-TCP benchmark prints (bench_linux_tcp_bss.py too), then this one's bottleneck drops.
TCP_METRICS = (
    ("goodput (Mbit/s)", "goodput_bps", 1e-6),
    ("retransmissions", "retransmissions", 1.0),
    ("RTOs", "timeouts", 1.0),
    ("fast retransmits", "fast_retransmits", 1.0),
    ("mean cwnd (seg)", "mean_cwnd_segments", 1.0),
)
METRICS = (*TCP_METRICS, ("bottleneck drops", "bottleneck_drops", 1.0))
DETAIL = (
    ("mean RTT (ms)", "rtt_mean_s", 1e3),
    ("segments sent", "segments_sent", 1.0),
    ("repeated retransmissions", "retransmissions_repeated", 1.0),
    ("largest burst", "largest_burst", 1.0),
)


def bdp_packets(rate_mbps: float, delay_ms: float) -> float:
    """Bandwidth-delay product in full-size packets on the wire, RTT = 2 x one-way delay."""
    return rate_mbps * 1e6 * 2 * delay_ms / 1e3 / (WIRE_BYTES * 8)


def queue_packets(rate_mbps: float, delay_ms: float, factor: float) -> int:
    """``factor`` x BDP rounded to the nearest packet (halves up), at least 1."""
    return max(1, math.floor(factor * bdp_packets(rate_mbps, delay_ms) + 0.5))


def cases(quick: bool) -> list[dict[str, Any]]:
    """The matrix: issue 34's fixed case first, then rate x delay x queue x loss; x cc."""
    nets = [{"rate": 5, "delay": 10, "queue": 2, "qlabel": "2", "loss": 0.0}]
    if not quick:
        for rate in RATES_MBPS:
            for delay in DELAYS_MS:
                for factor, label in ((0.5, "BDP/2"), (2.0, "2 BDP")):
                    for loss in LOSSES:
                        q = queue_packets(rate, delay, factor)
                        nets.append(
                            {"rate": rate, "delay": delay, "queue": q, "qlabel": f"{q} ({label})"}
                            | {"loss": loss}
                        )
    ccs = ("cubic",) if quick else CCS
    return [net | {"cc": cc} for net in nets for cc in ccs]


def airtcp_overrides(case: dict[str, Any], duration_s: float, extra: list[str]) -> list[str]:
    """`--set` strings for examples/wired-bottleneck.toml (links.1 is the bottleneck)."""
    return [
        f"duration_s={duration_s:g}",
        f"links.1.rate_mbps={case['rate']}",
        f"links.1.delay_ms={case['delay']}",
        f"links.1.queue_limit_packets={case['queue']}",
        f"links.1.loss={case['loss']}",
        f"tcp.cc={case['cc']}",
        "tcp.recovery=sack",
        "traces.tcp_segments=true",  # read for the second table; changes nothing simulated
        *extra,
    ]


def run_airtcp(case: dict[str, Any], seed: int, duration_s: float, extra: list[str]) -> dict:
    data = apply_overrides(load_toml(EXAMPLE), airtcp_overrides(case, duration_s, extra))
    result = airtcp.run(data, seed=seed)
    s = result.summary
    flow = s["flows"][0]
    out = {"goodput_bps": flow["goodput_bps"], "wall_seconds": s["wall_seconds"]}
    out |= {k: flow["tcp"][k] for k in ("retransmissions", "timeouts", "fast_retransmits")}
    out |= {k: flow["tcp"][k] for k in ("mean_cwnd_segments", "rtt_mean_s", "segments_sent")}
    out["events"] = s["events"]
    # Packets of the forward direction dropped at the router's full queue or lost on the wire.
    link = next(x for x in s["links"] if (x["a"], x["b"]) == ("router", "receiver"))
    out["bottleneck_queue_drops"] = link["drops_queue"][0]
    out["bottleneck_random_losses"] = link["lost"][0]
    out["bottleneck_drops"] = link["drops_queue"][0] + link["lost"][0]
    seg = result.traces["tcp_segments"]
    events = seg.column("event").to_pylist()
    times = seg.column("time_ns").to_pylist()
    seqs = seg.column("seq").to_pylist()
    retransmitted: dict[int, int] = {}
    bursts: dict[int, int] = {}
    for ev, t, seq in zip(events, times, seqs, strict=True):
        if ev in ("sent", "retransmit"):
            bursts[t] = bursts.get(t, 0) + 1
        if ev == "retransmit":
            retransmitted[seq] = retransmitted.get(seq, 0) + 1
    out["retransmissions_repeated"] = sum(n - 1 for n in retransmitted.values())
    out["largest_burst"] = max(bursts.values(), default=0)
    return out


def run_ns3(
    case: dict[str, Any], seed: int, duration_s: float, recovery: str, extra: list[str]
) -> dict:
    import ns3_runner

    res = ns3_runner.run_wired_tcp(
        rate_mbps=case["rate"],
        delay_ms=case["delay"],
        queue_packets=case["queue"],
        loss=case["loss"],
        cc=NS3_CC[case["cc"]],
        recovery=recovery,
        sack=True,
        duration_s=duration_s,
        seed=1,
        run=seed,
        extra_args=extra,
    )
    keys = ("goodput_bps", "retransmissions", "timeouts", "fast_retransmits")
    keys += ("mean_cwnd_segments", "rtt_mean_s", "segments_sent", "events", "wall_seconds")
    out = {k: res[k] for k in keys}
    out["bottleneck_queue_drops"] = res["queue_drops"]["bottleneck_fwd"]
    out["bottleneck_random_losses"] = res["random_losses"]["fwd"]
    out["bottleneck_drops"] = out["bottleneck_queue_drops"] + out["bottleneck_random_losses"]
    out["retransmissions_repeated"] = res["retransmissions_repeated"]
    out["largest_burst"] = max(int(k) for k in res["tx_bursts"]) if res["tx_bursts"] else 0
    out["cmd"] = " ".join(["wired_tcp", *res["cmd"][1:]])
    return out


def _fmt(x: float, scale: float) -> str:
    v = x * scale
    if scale != 1.0 or not float(v).is_integer():
        return f"{v:.2f}" if abs(v) < 100 else f"{v:.1f}"
    return f"{v:.0f}"


def _cell(values: list[float], scale: float) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return _fmt(mean, scale)
    sd = statistics.stdev(values)
    return f"{_fmt(mean, scale)} ±{_fmt(sd, scale)}"


def _ratio(a: list[float], b: list[float]) -> str:
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    if mb == 0:
        return "=" if ma == 0 else "∞"
    return f"{ma / mb:.2f}"


def markdown(
    rows: list[dict[str, Any]],
    metrics: tuple[tuple[str, str, float], ...] = METRICS,
    ratios: bool = True,
) -> str:
    head = ["rate", "delay", "queue", "loss", "cc"]
    for label, _, _ in metrics:
        head += [f"{label} ns-3", "airtcp", *(["ratio"] if ratios else [])]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        c = r["case"]
        cells = [f"{c['rate']}", f"{c['delay']}", c["qlabel"], f"{c['loss'] * 100:g} %", c["cc"]]
        for _, key, scale in metrics:
            ns = [run[key] for run in r["ns3"]]
            at = [run[key] for run in r["airtcp"]]
            cells += [_cell(ns, scale), _cell(at, scale), *([_ratio(at, ns)] if ratios else [])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _label(settings: list[str]) -> str:
    return ", ".join(x.partition("=")[2] for x in settings)


def _mean(runs: list[dict], key: str) -> float:
    return statistics.fmean(run[key] for run in runs)


def comparison(rows: list[dict[str, Any]], labels: list[str]) -> str:
    """Goodput, retransmissions and RTOs of ns-3 and each airtcp setting (means over the seeds,
    ratio to ns-3), then the totals: the sums of the per-case means and the cases within
    +-10 % of ns-3's goodput or above 2x its RTOs or retransmissions."""
    names = labels
    head = ["rate", "delay", "queue", "loss", "cc"]
    for label, _, _ in METRICS[:3]:
        head += [f"{label} ns-3", *names, *(f"ratio {n}" for n in names)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        c = r["case"]
        cells = [f"{c['rate']}", f"{c['delay']}", c["qlabel"], f"{c['loss'] * 100:g} %", c["cc"]]
        for _, key, scale in METRICS[:3]:
            ns = [run[key] for run in r["ns3"]]
            sides = [[run[key] for run in r["variants"][v]] for v in labels]
            cells += [_fmt(statistics.fmean(ns), scale)]
            cells += [_fmt(statistics.fmean(at), scale) for at in sides]
            cells += [_ratio(at, ns) for at in sides]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for side, name in zip(["ns3", *labels], ["ns-3", *names], strict=True):
        runs = [r["ns3"] if side == "ns3" else r["variants"][side] for r in rows]
        total = {k: sum(_mean(x, k) for x in runs) for k in ("retransmissions", "timeouts")}
        text = f"- {name}: RTOs {total['timeouts']:.1f}, retransmissions "
        text += f"{total['retransmissions']:.0f} (sums of the per-case means)"
        if side != "ns3":
            ns_runs = [r["ns3"] for r in rows]
            pairs = list(zip(runs, ns_runs, strict=True))
            close = sum(
                abs(_mean(a, "goodput_bps") / _mean(b, "goodput_bps") - 1) <= 0.1 for a, b in pairs
            )
            more = {
                k: sum(_mean(a, k) > 2 * _mean(b, k) for a, b in pairs)
                for k in ("timeouts", "retransmissions")
            }
            text += f"; goodput within 10 % of ns-3 in {close} of {len(rows)} cases; more "
            text += f"than 2x ns-3's RTOs in {more['timeouts']}, its retransmissions in "
            text += f"{more['retransmissions']}"
        lines.append(text)
    return "\n".join(lines)


def counts(a: dict, b: dict) -> str:
    """A progress line's TCP counters, ns-3 (``b``) against airtcp (``a``)."""
    return (
        f"goodput ns-3 {b['goodput_bps'] / 1e6:.3f} airtcp {a['goodput_bps'] / 1e6:.3f}"
        f"  retx {b['retransmissions']}/{a['retransmissions']}"
        f"  RTO {b['timeouts']}/{a['timeouts']}"
        f"  FR {b['fast_retransmits']}/{a['fast_retransmits']}"
    )


def settings(airtcp_set: list[str], compare: list[str], default: str) -> tuple[dict, str]:
    """The airtcp settings a benchmark runs, by label: --airtcp-set alone first (labelled by
    its values, ``tcp.profile=linux-6`` -> ``linux-6``, or ``default``), then each comparison
    on top of it; and the first one's label."""
    label0 = _label(airtcp_set) or default
    variants = {label0: airtcp_set}
    for spec in compare:
        variants[_label(spec.split(","))] = [*airtcp_set, *spec.split(",")]
    return variants, label0


def run_matrix(
    args: argparse.Namespace,
    case_list: list[dict[str, Any]],
    seeds: list[int],
    variants: dict[str, list[str]],
    label0: str,
    run_a: Any,
    run_b: Any,
    progress: Any,
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Every case and seed: each airtcp setting (``run_a``) and ns-3 once (``run_b``), a
    progress line on stderr; the rows (``airtcp``: the first setting's runs) and the wall
    time of each side."""
    rows = []
    wall = {"airtcp": 0.0, "ns3": 0.0}
    for case in case_list:
        row: dict[str, Any] = {"case": case, "airtcp": [], "ns3": []}
        row["variants"] = {label: [] for label in variants}
        for seed in seeds:
            for label, extra in variants.items():
                run = run_a(case, seed, args.duration_s, extra)
                row["variants"][label].append(run)
                wall["airtcp"] += run["wall_seconds"]
            a = row["variants"][label0][-1]
            b = run_b(case, seed, args.duration_s, args.ns3_recovery, args.ns3_arg)
            row["airtcp"].append(a)
            row["ns3"].append(b)
            wall["ns3"] += b["wall_seconds"]
            print(progress(case, seed, a, b), file=sys.stderr, flush=True)
        rows.append(row)
    return rows, wall


def finish(
    args: argparse.Namespace,
    rows: list[dict[str, Any]],
    seeds: list[int],
    variants: dict[str, list[str]],
    label0: str,
    wall: dict[str, float],
    t0: float,
    compare_table: Any,
) -> None:
    """The comparison table of the settings (if more than one), the footer, the JSON file."""
    if len(variants) > 1:
        legend = "; ".join(f"{k} = {' '.join(v) or 'defaults'}" for k, v in variants.items())
        print(f"\nairtcp settings: {legend}; ratio = airtcp mean / ns-3 mean.\n")
        print(compare_table(rows, list(variants)))
    extra = " ".join(f"--set {s}" for s in args.airtcp_set) or "none"
    print(
        f"\nseeds {seeds[0]}..{seeds[-1]}, {args.duration_s:g} s simulated per run; ns-3 recovery "
        f"{args.ns3_recovery}; airtcp overrides: {extra}; ± = standard deviation over the "
        f"seeds; ratio = airtcp mean / ns-3 mean. Wall: airtcp {wall['airtcp']:.1f} s, ns-3 "
        f"Simulator::Run {wall['ns3']:.1f} s, total {time.perf_counter() - t0:.0f} s."
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        for row in rows:  # the first setting's runs are already under "airtcp"
            row["variants"] = {k: v for k, v in row["variants"].items() if k != label0}
        args.json.write_text(json.dumps(rows, indent=2))


def add_arguments(ap: argparse.ArgumentParser, program: str, quick: str, compare: str) -> None:
    """The options both Linux-TCP benchmarks take (this one and bench_linux_tcp_bss.py):
    ``program`` the ns-3 binary, ``quick`` and ``compare`` the help of --quick and of
    --airtcp-compare."""
    ap.add_argument("--quick", action="store_true", help=quick)
    ap.add_argument("--seeds", type=int, default=3, help="seeds 1..N (default 3)")
    ap.add_argument("--duration-s", type=float, default=30.0, help="simulated time per run")
    ap.add_argument(
        "--ns3-recovery",
        default="prr",
        choices=("prr", "classic"),
        help="ns-3 TcpL4Protocol::RecoveryType: TcpPrrRecovery (default) or TcpClassicRecovery",
    )
    ap.add_argument(
        "--airtcp-set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="passed to every airtcp run as --set KEY=VALUE (repeatable)",
    )
    ap.add_argument(
        "--airtcp-compare",
        action="append",
        default=[],
        metavar="KEY=VALUE[,KEY=VALUE...]",
        help="one more airtcp run per case and seed with these settings on top of --airtcp-set"
        + compare,
    )
    ap.add_argument(
        "--ns3-arg",
        action="append",
        default=[],
        help=f"extra argument for every {program} run, repeatable (e.g. --ns3-arg=--sack=0)",
    )
    ap.add_argument("--json", type=Path, help="also write every run's numbers to this file")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_arguments(ap, "wired_tcp", "issue 34's fixed case, cubic, one seed",
                  ", printed beside the first in a third table (repeatable)")  # fmt: skip
    args = ap.parse_args(argv)
    seeds = [1] if args.quick else list(range(1, args.seeds + 1))
    variants, label0 = settings(args.airtcp_set, args.airtcp_compare, "airtcp")

    def progress(case: dict[str, Any], seed: int, a: dict, b: dict) -> str:
        return (
            f"{case['rate']:>2} Mbit/s {case['delay']:>2} ms q={case['queue']:<3} "
            f"loss={case['loss']:<4} {case['cc']:<5} seed {seed}: {counts(a, b)}"
            f"  drops {b['bottleneck_drops']}/{a['bottleneck_drops']}"
        )

    t0 = time.perf_counter()
    rows, wall = run_matrix(args, cases(args.quick), seeds, variants, label0, run_airtcp, run_ns3,
                            progress)  # fmt: skip
    print(markdown(rows))
    print("\nDiagnostics (same runs): segments sent include retransmissions; a repeated")
    print("retransmission resends a segment already retransmitted; the largest burst is the most")
    print("segments the sender handed down at one instant.\n")
    print(markdown(rows, DETAIL, ratios=False))
    finish(args, rows, seeds, variants, label0, wall, t0, comparison)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
