"""Benchmark: TCP loss recovery on an 802.11a BSS, airtcp beside ns-3 3.44 (issue 34).

    .venv/bin/python bench/bench_linux_tcp_bss.py              # 4 cases x 2 cc x seeds 1-3 (~1 min)
    .venv/bin/python bench/bench_linux_tcp_bss.py --quick      # one seed, cubic only
    .venv/bin/python bench/bench_linux_tcp_bss.py --no-profiles    # airtcp rfc only
    .venv/bin/python bench/bench_linux_tcp_bss.py --airtcp-set tcp.profile=linux-6 \
        --airtcp-compare tcp.profile=rfc                   # another pair of airtcp settings

The wireless half of bench/bench_linux_tcp.py (the wired dumbbell). One station uploads one
bulk TCP flow to its access point (examples/bss-tcp-bulk.toml; ns-3: bench/ns3/bss_tcp.cc,
bench/ns3/NOTES.md "TCP recovery on an 802.11 BSS"): 802.11a, DATA at 24 Mbit/s, ACKs at
6 Mbit/s, 7 attempts per MPDU, no RTS/CTS, DCF. TCP data segments and TCP ACKs are both DATA
frames and contend. 30 s counted from the start (slow start included), MSS 1460, timestamps,
SACK, min RTO 200 ms, IW 10, delayed ACK (2 segments, 40 ms), send buffer 4 MiB, receive buffer
6 MiB unless the case says otherwise. The ns-3 arguments are taken from the airtcp world spec
of each run (bench_tcp.ns3_kwargs), so both sides run the same settings.

Cases, where the losses come from the WiFi side:
  clean   no channel errors, MAC queue 100, receive buffer 64 KiB: the window (44 segments)
          never fills the queue, so nothing is lost; TCP is receive-window limited.
  q100    no channel errors, MAC queue 100, receive buffer 6 MiB: the window grows until the
          station's queue overflows (bench_tcp.py's BSS set-up).
  q10     as q100 with a MAC queue of 10 packets at the station and the AP.
  48 m    log-distance channel (n = 3, 46.6777 dB at 1 m, 16.0206 dBm, noise figure 7 dB),
          NIST error model, no fading, station 48 m from the AP: about 56 % of the 1556-byte
          DATA frames fail, MPDUs are dropped after their 7th attempt; MAC queue 100.

Each case runs with cubic (ns-3 TcpCubic) and reno (ns-3 TcpLinuxReno, Linux's Reno window
arithmetic). airtcp: tcp.recovery = "sack" (RFC 6675); ns-3: SACK on, TcpPrrRecovery (its
default; --ns3-recovery classic for TcpClassicRecovery). Seed k: airtcp seed k, ns-3
--seed=1 --run=k. By default airtcp also runs under tcp.profile = "linux-6" and "linux-3.12"
(--airtcp-compare), against the same ns-3 runs.

Prints Markdown tables: per case and side the mean over the seeds with its standard deviation
(+-) and the ratio airtcp/ns-3 of the means, for goodput, retransmissions, RTOs (ns-3: expiries
of the retransmission timer, counted as the RTO trace's doublings), fast retransmits (entries
into recovery), time-averaged cwnd, mean RTT and the MAC drops (full queue; retry limit); then
the comparison of the airtcp settings.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import airtcp
from airtcp.config import apply_overrides, load_toml

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ns3"))

from bench_linux_tcp import (  # noqa: E402
    TCP_METRICS,
    _cell,
    _fmt,
    _mean,
    _ratio,
    add_arguments,
    counts,
    finish,
    run_matrix,
    settings,
)
from bench_tcp import BSS_EXAMPLE, ns3_kwargs  # noqa: E402

DATA_RATE_MBPS = 24
NS3_CC = {"cubic": "cubic", "reno": "linuxreno"}
CCS = ("cubic", "reno")
DEFAULT_COMPARE = ("tcp.profile=linux-6", "tcp.profile=linux-3.12")
RADIO = (
    "channel.model=radio",
    "channel.path_loss=log-distance",
    "channel.path_loss_exponent=3",
    "channel.reference_loss_db=46.6777",
    "channel.tx_power_dbm=16.0206",
    "channel.noise_figure_db=7",
    "channel.error_model=nist",
    "channel.fading=none",
)
# name -> (MAC queue in packets, receive buffer in bytes, distance in m or 0 for no errors)
NETS: dict[str, tuple[int, int, float]] = {
    "clean": (100, 65536, 0.0),
    "q100": (100, 6291456, 0.0),
    "q10": (10, 6291456, 0.0),
    "48 m": (100, 6291456, 48.0),
}
METRICS = TCP_METRICS
DETAIL = (
    ("mean RTT (ms)", "rtt_mean_s", 1e3),
    ("MAC queue drops", "queue_drops", 1.0),
    ("MAC retry drops", "retry_drops", 1.0),
    ("P(fail)", "failure_probability", 1.0),
)


def cases(quick: bool) -> list[dict[str, Any]]:
    ccs = ("cubic",) if quick else CCS
    return [
        {"net": net, "queue": q, "rcv_buf": buf, "distance_m": dist, "cc": cc}
        for net, (q, buf, dist) in NETS.items()
        for cc in ccs
    ]


def airtcp_overrides(case: dict[str, Any], duration_s: float, extra: list[str]) -> list[str]:
    """`--set` strings for examples/bss-tcp-bulk.toml."""
    sets = [
        f"duration_s={duration_s:g}",
        "warmup_s=0",  # count from the start, as ns-3 --warmupS=0 (and the wired benchmark)
        f"data_rate_mbps={DATA_RATE_MBPS}",
        "basic_rate_mbps=6",
        f"cc={case['cc']}",
        "delayed_ack=true",
        "tcp.recovery=sack",
        f"tcp.rcv_buf_bytes={case['rcv_buf']}",
        f"mac.queue_limit_packets={case['queue']}",
        "channel.preamble_detection=true",  # ns-3's receiver (docs/validation.md section 3)
    ]
    if case["distance_m"] > 0:
        sets += [*RADIO, f"spacing_m={case['distance_m']:g}"]
    return [*sets, *extra]


def scenario(case: dict[str, Any], duration_s: float, extra: list[str]) -> dict[str, Any]:
    return apply_overrides(load_toml(BSS_EXAMPLE), airtcp_overrides(case, duration_s, extra))


def run_airtcp(case: dict[str, Any], seed: int, duration_s: float, extra: list[str]) -> dict:
    result = airtcp.run(scenario(case, duration_s, extra), seed=seed)
    s = result.summary
    flow = s["flows"][0]
    tcp = flow["tcp"]
    out = {"goodput_bps": flow["goodput_bps"], "wall_seconds": s["wall_seconds"]}
    out |= {k: tcp[k] for k in ("retransmissions", "timeouts", "fast_retransmits")}
    out |= {k: tcp[k] for k in ("mean_cwnd_segments", "rtt_mean_s", "segments_sent")}
    out["queue_drops"] = sum(n["mac"]["drops_queue"] for n in s["nodes"])
    out["retry_drops"] = sum(n["mac"]["drops_retry_limit"] for n in s["nodes"])
    attempts = sum(n["mac"]["attempts"] for n in s["nodes"])
    failures = sum(n["mac"]["failures"] for n in s["nodes"])
    out["failure_probability"] = failures / attempts if attempts else 0.0
    out["events"] = s["events"]
    return out


def run_ns3(
    case: dict[str, Any], seed: int, duration_s: float, recovery: str, extra: list[str]
) -> dict:
    import ns3_runner

    kw = ns3_kwargs(scenario(case, duration_s, []))
    kw |= {"cc": NS3_CC[case["cc"]], "recovery": recovery, "sack": True, "seed": 1, "run": seed}
    radio = []
    if case["distance_m"] > 0:
        radio = [f"--distanceM={case['distance_m']:g}", "--errorModel=nist", "--fading=none"]
    res = ns3_runner.run_bss_tcp(extra_args=[*radio, *extra], **kw)
    tcp = res["tcp"]
    out = {"goodput_bps": res["goodput_bps"], "wall_seconds": res["wall_seconds"]}
    out |= {k: tcp[k] for k in ("retransmissions", "fast_retransmits", "mean_cwnd_segments")}
    out |= {k: tcp[k] for k in ("rtt_mean_s", "segments_sent")}
    out["timeouts"] = tcp["rto_expiries"]
    out["loss_state_entries"] = tcp["timeouts"]
    out["queue_drops"] = res["queue_full_drops_after_warmup"]
    out["retry_drops"] = res["retry_drops"]
    out["failure_probability"] = res["collision_probability"]
    out["events"] = res["events"]
    out["cmd"] = " ".join(["bss_tcp", *res["cmd"][1:]])
    return out


def _case_cells(c: dict[str, Any]) -> list[str]:
    return [c["net"], str(c["queue"]), f"{c['rcv_buf'] // 1024} KiB", c["cc"]]


HEAD = ["case", "MAC queue", "rcv buf", "cc"]


def markdown(
    rows: list[dict[str, Any]], metrics: tuple[tuple[str, str, float], ...] = METRICS
) -> str:
    head = list(HEAD)
    for label, _, _ in metrics:
        head += [f"{label} ns-3", "airtcp", "ratio"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = _case_cells(r["case"])
        for _, key, scale in metrics:
            ns = [run[key] for run in r["ns3"]]
            at = [run[key] for run in r["airtcp"]]
            if key == "failure_probability":
                cells += [f"{statistics.fmean(ns):.4f}", f"{statistics.fmean(at):.4f}"]
                cells += [_ratio(at, ns)]
                continue
            cells += [_cell(ns, scale), _cell(at, scale), _ratio(at, ns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def comparison(rows: list[dict[str, Any]], labels: list[str]) -> str:
    """ns-3 and each airtcp setting side by side (means over the seeds, ratio to ns-3), then
    per setting the cases within 5 % of ns-3's goodput and the sums of RTOs and
    retransmissions."""
    metrics = (*METRICS[:3], METRICS[4])
    head = list(HEAD)
    for label, _, _ in metrics:
        head += [f"{label} ns-3", *labels, *(f"ratio {n}" for n in labels)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = _case_cells(r["case"])
        for _, key, scale in metrics:
            ns = [run[key] for run in r["ns3"]]
            sides = [[run[key] for run in r["variants"][v]] for v in labels]
            cells += [_fmt(statistics.fmean(ns), scale)]
            cells += [_fmt(statistics.fmean(at), scale) for at in sides]
            cells += [_ratio(at, ns) for at in sides]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for side in ["ns3", *labels]:
        runs = [r["ns3"] if side == "ns3" else r["variants"][side] for r in rows]
        total = {k: sum(_mean(x, k) for x in runs) for k in ("retransmissions", "timeouts")}
        text = f"- {'ns-3' if side == 'ns3' else side}: RTOs {total['timeouts']:.1f}, "
        text += f"retransmissions {total['retransmissions']:.0f} (sums of the per-case means)"
        if side != "ns3":
            pairs = list(zip(runs, [r["ns3"] for r in rows], strict=True))
            close = sum(
                abs(_mean(a, "goodput_bps") / _mean(b, "goodput_bps") - 1) <= 0.05 for a, b in pairs
            )
            text += f"; goodput within 5 % of ns-3 in {close} of {len(rows)} cases"
        lines.append(text)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_arguments(ap, "bss_tcp", "cubic only, one seed",
                  f" (repeatable; default: {' and '.join(DEFAULT_COMPARE)})")  # fmt: skip
    ap.add_argument("--cases", default=",".join(NETS), help=f"subset of {', '.join(NETS)}")
    ap.add_argument("--no-profiles", action="store_true", help="no --airtcp-compare default")
    args = ap.parse_args(argv)
    seeds = [1] if args.quick else list(range(1, args.seeds + 1))
    wanted = [c.strip() for c in args.cases.split(",") if c.strip()]
    if unknown := [c for c in wanted if c not in NETS]:
        ap.error(f"unknown case(s) {unknown}; known: {', '.join(NETS)}")
    compare = args.airtcp_compare or ([] if args.no_profiles else list(DEFAULT_COMPARE))
    variants, label0 = settings(args.airtcp_set, compare, "rfc")

    def progress(case: dict[str, Any], seed: int, a: dict, b: dict) -> str:
        return (
            f"{case['net']:<5} {case['cc']:<5} seed {seed}: {counts(a, b)}"
            f"  drops q {b['queue_drops']}/{a['queue_drops']}"
            f" retry {b['retry_drops']}/{a['retry_drops']}"
        )

    t0 = time.perf_counter()
    chosen = [c for c in cases(args.quick) if c["net"] in wanted]
    rows, wall = run_matrix(args, chosen, seeds, variants, label0, run_airtcp, run_ns3, progress)
    print(markdown(rows))
    print("\nSame runs: mean RTT, MAC drops at a full queue and at the retry limit (both nodes),")
    print("P(fail) = failed DATA attempts / attempts (both nodes).\n")
    print(markdown(rows, DETAIL))
    finish(args, rows, seeds, variants, label0, wall, t0, comparison)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
