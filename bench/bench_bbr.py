"""Benchmark: BBR v1 on a wired bottleneck, airtcp beside ns-3 3.44, with CUBIC for contrast.

    .venv/bin/python bench/bench_bbr.py                      # bbr and cubic, seeds 1-3 (~20 s)
    .venv/bin/python bench/bench_bbr.py --seeds 1 --duration 30
    .venv/bin/python bench/bench_bbr.py --cc bbr --json bench/out/bbr.json   # with the series
    .venv/bin/python bench/bench_bbr.py --airtcp-set tcp.profile=linux-6

The test bed is examples/wired-bottleneck.toml with its bottleneck at 20 Mbit/s, 20 ms one way
(base RTT about 40 ms, BDP about 66 full-size packets) and a drop-tail queue of 100 packets at
each end: sender --1000 Mbit/s, 0 ms, queue 1000-- router --20 Mbit/s, 20 ms, queue 100--
receiver, one bulk TCP upload for --duration (60) simulated seconds, MSS 1460, timestamps,
SACK, IW 10, delayed ACK (2 segments, 40 ms). 60 s holds five of BBR's ProbeRTT dips (one
every 10 s, when its min-RTT estimate expires). ns-3 runs the same dumbbell
(bench/ns3/wired_tcp.cc; bench/ns3/NOTES.md "Wired bottleneck" and "BBR on the wired
bottleneck"): bbr -> ns3::TcpBbr with pacing on (also for the initial window), cubic ->
ns3::TcpCubic unpaced, SACK on, TcpPrrRecovery (TcpBbr bypasses it). Seed k: airtcp seed k,
ns-3 --seed=1 --run=k. Everything is counted from --warmup (5 s) to the end:

- goodput: payload bytes the receiver got in [5 s, end], x 8 / (end - 5 s). airtcp: the flow's
  goodput_bps with warmup_s = 5; ns-3: wired_tcp's goodput_bps with --warmupS=5.
- mean and median RTT: over the RTT samples after 5 s. airtcp: the summary's rtt_mean_s and
  rtt_p50_s (one sample per ACK of new data); ns-3: one sample per ACK of new data, now -
  TSecr on ns-3's millisecond timestamp clock, as TcpSocketBase takes them (so the median is a
  whole number of ms).
- mean pacing rate: time-weighted over [5 s, end] (the rate in force at 5 s, then each change).
  airtcp: the tcp trace's pacing_rate_bps column (a row after every ACK and timeout); ns-3: the
  socket's "PacingRate" trace source. "-" when the sender does not pace (ns-3's TcpCubic; an
  airtcp trace without the column or with zeros only).
- cwnd dips: the times after 5 s at which cwnd fell from above 4 segments to 4 or below (BBR's
  ProbeRTT floor); a fall within 1 s of the last time cwnd was that low belongs to the same dip.
  airtcp: from the tcp trace's cwnd column; ns-3: from the "CongestionWindow" trace source
  (wired_tcp --seriesMs). "min cwnd": the smallest cwnd after 5 s, in segments (ns-3's TcpBbr
  shows 2919 bytes = 2.0 for an instant at each ProbeRTT exit: a wrap-around of its restored
  cwnd, bench/ns3/NOTES.md "BBR on the wired bottleneck" (1)).

Prints a Markdown table per seed (rows ns-3, airtcp and their ratio airtcp/ns-3 per figure; the
dips' ratio is that of their counts), then the means over the seeds with the standard deviation
(+-) and the ratio of the means. An airtcp run the core rejects (e.g. cc = "bbr" before airtcp
has it) prints "airtcp: <cc> not available" in its row and the script goes on. airtcp's BBR needs
RACK (its core refuses cc = "bbr" without tcp.rack = true, "as Linux 4.18+ runs it"), so bbr runs
get --set tcp.rack=true; cubic runs keep the example's recovery (sack, no RACK; ns-3 3.44 has no
RACK). The airtcp command of one run, as the CLI takes it:

    .venv/bin/airtcp run examples/wired-bottleneck.toml --seed 1 --set tcp.cc=bbr \\
        --set tcp.rack=true --set links.1.rate_mbps=20 --set links.1.delay_ms=20 \\
        --set links.1.queue_limit_packets=100 --set duration_s=60 --set warmup_s=5 \\
        --set traces.tcp=true --out results/bbr-1

--json OUT writes every run's figures, ns-3's series (t_s, cwnd_bytes, pacing_rate_bps, rtt_ms,
rx_bytes, bbr_state every --series-ms) and airtcp's tcp trace sampled at the same times
(cwnd_bytes, pacing_rate_bps, srtt_ms).
"""

from __future__ import annotations

import argparse
import bisect
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

import airtcp
from airtcp.config import apply_overrides, load_toml

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ns3"))

from bench_linux_tcp import EXAMPLE, _cell, _fmt  # noqa: E402

RATE_MBPS = 20
DELAY_MS = 20
QUEUE_PACKETS = 100
MSS = 1460
CCS = ("bbr", "cubic")
NS3_CC = {"bbr": "bbr", "cubic": "cubic"}
# airtcp settings a cc needs on top of the test bed (see the docstring).
AIRTCP_CC_SET = {"bbr": ("tcp.rack=true",)}
DIP_SEGMENTS = 4
DIP_MERGE_S = 1.0
# (label, key in both sides' run dicts, scale for printing)
FIGURES = (
    ("goodput (Mbit/s)", "goodput_bps", 1e-6),
    ("mean RTT (ms)", "rtt_mean_s", 1e3),
    ("median RTT (ms)", "rtt_median_s", 1e3),
    ("mean pacing (Mbit/s)", "pacing_mean_bps", 1e-6),
    ("min cwnd (seg)", "min_cwnd_segments", 1.0),
    ("dips", "dip_count", 1.0),
)


def cwnd_dips(
    times_s: list[float], cwnd_bytes: list[float], after_s: float, mss: int = MSS
) -> tuple[list[float], float | None]:
    """The dip times of a cwnd trace (``times_s`` ascending, the cwnd from each time on) and the
    smallest cwnd after ``after_s``: a dip is a fall from above DIP_SEGMENTS x ``mss`` to that or
    below at or after ``after_s``; a fall within DIP_MERGE_S of the last time cwnd was that low
    belongs to the same dip (wired_tcp.cc's rule)."""
    low = DIP_SEGMENTS * mss
    dips: list[float] = []
    last_low: float | None = None
    prev: float | None = None
    smallest: float | None = None
    for t, c in zip(times_s, cwnd_bytes, strict=True):
        if t >= after_s:
            if smallest is None and prev is not None:
                smallest = prev  # the cwnd in force at after_s
                if prev <= low:
                    last_low = after_s
            smallest = c if smallest is None else min(smallest, c)
            if prev is not None and prev > low >= c:
                if last_low is None or t - last_low > DIP_MERGE_S:
                    dips.append(t)
            if c <= low or (prev is not None and prev <= low):
                last_low = t
        prev = c
    return dips, smallest


def time_weighted_mean(
    times_s: list[float], values: list[float], start_s: float, end_s: float
) -> float:
    """Mean over [start_s, end_s] of a step function: ``values[i]`` from ``times_s[i]`` on."""
    area = 0.0
    for i, v in enumerate(values):
        t0 = max(times_s[i], start_s)
        t1 = min(times_s[i + 1] if i + 1 < len(times_s) else end_s, end_s)
        if t1 > t0:
            area += (t1 - t0) * v
    return area / (end_s - start_s) if end_s > start_s else 0.0


def sample_at(times_s: list[float], values: list[float], grid: list[float]) -> list[float | None]:
    """The step function's value at each time of ``grid`` (None before its first row)."""
    out: list[float | None] = []
    for t in grid:
        i = bisect.bisect_right(times_s, t) - 1
        out.append(values[i] if i >= 0 else None)
    return out


def airtcp_overrides(cc: str, duration: float, warmup: float, extra: list[str]) -> list[str]:
    """`--set` strings for examples/wired-bottleneck.toml (links.1 is the bottleneck)."""
    return [
        f"tcp.cc={cc}",
        *AIRTCP_CC_SET.get(cc, ()),
        f"links.1.rate_mbps={RATE_MBPS}",
        f"links.1.delay_ms={DELAY_MS}",
        f"links.1.queue_limit_packets={QUEUE_PACKETS}",
        f"duration_s={duration:g}",
        f"warmup_s={warmup:g}",
        "traces.tcp=true",  # cwnd and pacing rate after every ACK; changes nothing simulated
        *extra,
    ]


def run_airtcp(
    cc: str,
    seed: int,
    duration: float,
    warmup: float = 5.0,
    extra: list[str] | None = None,
    grid: list[float] | None = None,
) -> dict[str, Any]:
    """One airtcp run of the test bed (as `airtcp run examples/wired-bottleneck.toml --seed
    SEED --set ...`): the figures of the docstring from its summary and tcp trace. Raises
    airtcp's ScenarioError (a ValueError) if the core rejects the scenario (e.g. an unknown
    cc). ``grid``: times (s) at which to sample the trace into ``series``."""
    data = apply_overrides(load_toml(EXAMPLE), airtcp_overrides(cc, duration, warmup, extra or []))
    mss = int(data.get("tcp", {}).get("mss_bytes", MSS))
    result = airtcp.run(data, seed=seed)
    s = result.summary
    flow = s["flows"][0]
    tcp = flow["tcp"]
    trace = result.traces["tcp"]
    cols = trace.column_names
    rows = trace.filter(pc.equal(trace.column("flow"), flow["id"]))
    times = [t / 1e9 for t in rows.column("time_ns").to_pylist()]
    cwnd = [c * mss for c in rows.column("cwnd").to_pylist()]  # the trace counts segments
    dips, smallest = cwnd_dips(times, cwnd, warmup, mss)
    pacing = rows.column("pacing_rate_bps").to_pylist() if "pacing_rate_bps" in cols else []
    paces = any(p > 0 for p in pacing)
    out: dict[str, Any] = {
        "goodput_bps": flow["goodput_bps"],
        "rtt_mean_s": tcp["rtt_mean_s"],
        "rtt_median_s": tcp.get("rtt_p50_s"),
        "pacing_mean_bps": time_weighted_mean(times, pacing, warmup, duration) if paces else None,
        "dips_s": dips,
        "dip_count": len(dips),
        "min_cwnd_segments": smallest / mss if smallest is not None else None,
        "retransmissions": tcp["retransmissions"],
        "timeouts": tcp["timeouts"],
        "wall_seconds": s["wall_seconds"],
        "overrides": airtcp_overrides(cc, duration, warmup, extra or []),
    }
    if grid is not None:
        srtt = [x / 1e6 for x in rows.column("srtt_ns").to_pylist()]
        out["series"] = {
            "t_s": grid,
            "cwnd_bytes": sample_at(times, cwnd, grid),
            "pacing_rate_bps": sample_at(times, pacing, grid) if pacing else [],
            "srtt_ms": sample_at(times, srtt, grid),
        }
    return out


def run_ns3(
    cc: str, seed: int, duration: float, warmup: float, series_ms: float, extra: list[str]
) -> dict[str, Any]:
    """One wired_tcp run (bench/ns3/ns3_runner.run_wired_tcp with --seriesMs)."""
    import ns3_runner

    res = ns3_runner.run_wired_tcp(
        rate_mbps=RATE_MBPS,
        delay_ms=DELAY_MS,
        queue_packets=QUEUE_PACKETS,
        cc=NS3_CC[cc],
        recovery="prr",
        sack=True,
        duration_s=duration,
        warmup_s=warmup,
        seed=1,
        run=seed,
        series_ms=series_ms,
        extra_args=extra,
    )
    paces = bool(res["tcp_config"].get("pacing", 0))
    return {
        "goodput_bps": res["goodput_bps"],
        "rtt_mean_s": res["rtt_mean_s"],
        "rtt_median_s": res["rtt_median_s"],
        "pacing_mean_bps": res["pacing_rate_mean_bps"] if paces else None,
        "dips_s": res["cwnd_dips_s"],
        "dip_count": len(res["cwnd_dips_s"]),
        "min_cwnd_segments": res["min_cwnd_bytes_after_5s"] / MSS
        if res["min_cwnd_bytes_after_5s"] is not None
        else None,
        "bbr_probe_rtt_s": res["bbr_probe_rtt_s"],
        "retransmissions": res["retransmissions"],
        "timeouts": res["timeouts"],
        "wall_seconds": res["wall_seconds"],
        "cmd": " ".join(["wired_tcp", *res["cmd"][1:]]),
        "series": res["series"],
    }


def _value(x: float | None, scale: float) -> str:
    return "-" if x is None else _fmt(x, scale)


def _ratio1(a: float | None, b: float | None) -> str:
    if a is None or b is None:
        return "-"
    if b == 0:
        return "=" if a == 0 else "∞"
    return f"{a / b:.2f}"


def _times(ts: list[float]) -> str:
    return " ".join(f"{t:.2f}" for t in ts) or "none"


def seed_table(rows: list[dict[str, Any]]) -> str:
    """One line per side and run, then the ratio airtcp/ns-3 of each figure."""
    head = ["cc", "seed", "side", *(label for label, _, _ in FIGURES), "dip times (s)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        ns, at = r["ns3"], r["airtcp"]
        cells = [r["cc"], str(r["seed"]), "ns-3"]
        cells += [_value(ns[k], sc) for _, k, sc in FIGURES] + [_times(ns["dips_s"])]
        lines.append("| " + " | ".join(cells) + " |")
        if "error" in at:
            msg = [r["cc"], str(r["seed"]), f"airtcp: {r['cc']} not available"]
            lines.append("| " + " | ".join(msg + [""] * (len(head) - 3)) + " |")
            continue
        cells = [r["cc"], str(r["seed"]), "airtcp"]
        cells += [_value(at[k], sc) for _, k, sc in FIGURES] + [_times(at["dips_s"])]
        lines.append("| " + " | ".join(cells) + " |")
        cells = [r["cc"], str(r["seed"]), "ratio"]
        cells += [_ratio1(at[k], ns[k]) for _, k, _ in FIGURES] + [""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def mean_table(rows: list[dict[str, Any]], ccs: list[str]) -> str:
    """Per cc: the means over the seeds (± standard deviation) and the ratio of the means."""
    head = ["cc"]
    for label, _, _ in FIGURES:
        head += [f"{label} ns-3", "airtcp", "ratio"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for cc in ccs:
        mine = [r for r in rows if r["cc"] == cc]
        cells = [cc]
        for _, key, scale in FIGURES:
            ns = [r["ns3"][key] for r in mine if r["ns3"][key] is not None]
            at = [r["airtcp"][key] for r in mine if r["airtcp"].get(key) is not None]
            cells.append(_cell(ns, scale) if ns else "-")
            cells.append(_cell(at, scale) if at else "-")
            both = ns and at
            cells.append(_ratio1(statistics.fmean(at), statistics.fmean(ns)) if both else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", type=int, default=3, help="seeds 1..N (default 3)")
    ap.add_argument("--duration", type=float, default=60.0, help="simulated s per run (60)")
    ap.add_argument("--warmup", type=float, default=5.0, help="figures count from here (5 s)")
    ap.add_argument("--cc", action="append", choices=CCS, help="repeatable (default: both)")
    ap.add_argument("--series-ms", type=float, default=100.0, help="ns-3 --seriesMs (100)")
    ap.add_argument(
        "--airtcp-set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="passed to every airtcp run as --set KEY=VALUE (repeatable)",
    )
    ap.add_argument(
        "--ns3-arg",
        action="append",
        default=[],
        help="extra argument for every wired_tcp run, repeatable (e.g. --ns3-arg=--sack=0)",
    )
    ap.add_argument("--json", type=Path, help="also write every run's figures and series here")
    args = ap.parse_args(argv)
    ccs = args.cc or list(CCS)
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    wall = {"airtcp": 0.0, "ns3": 0.0}
    for cc in ccs:
        for seed in range(1, args.seeds + 1):
            ns = run_ns3(cc, seed, args.duration, args.warmup, args.series_ms, args.ns3_arg)
            wall["ns3"] += ns["wall_seconds"]
            try:
                at = run_airtcp(
                    cc, seed, args.duration, args.warmup, args.airtcp_set, ns["series"]["t_s"]
                )
                wall["airtcp"] += at["wall_seconds"]
                note = f"airtcp {at['goodput_bps'] / 1e6:.3f} Mbit/s, dips {_times(at['dips_s'])}"
            except ValueError as exc:  # airtcp's ScenarioError: the core rejects the scenario
                at = {"error": str(exc)}
                note = f"airtcp: {cc} not available ({str(exc).splitlines()[0]})"
            print(
                f"{cc:<5} seed {seed}: ns-3 {ns['goodput_bps'] / 1e6:.3f} Mbit/s, dips "
                f"{_times(ns['dips_s'])}; {note}",
                file=sys.stderr,
                flush=True,
            )
            rows.append({"cc": cc, "seed": seed, "ns3": ns, "airtcp": at})
    print(seed_table(rows))
    print()
    print(mean_table(rows, ccs))
    print(
        f"\nseeds 1..{args.seeds}, {args.duration:g} s simulated per run, figures over "
        f"[{args.warmup:g} s, {args.duration:g} s]; ratio = airtcp / ns-3 (dips: of the counts); "
        f"± = standard deviation over the seeds. airtcp overrides: "
        f"{' '.join(args.airtcp_set) or 'none'}. Wall: airtcp {wall['airtcp']:.1f} s, ns-3 "
        f"Simulator::Run {wall['ns3']:.1f} s, total {time.perf_counter() - t0:.0f} s."
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
