"""Benchmark: one 802.11n station uploading to its AP, airtcp beside ns-3 3.44.

    .venv/bin/python bench/bench_ht.py              # 8 cases, 10 s after a 2 s warm-up
    .venv/bin/python bench/bench_ht.py --no-ns3     # airtcp only
    .venv/bin/python bench/bench_ht.py --aging      # the channel models' cost, airtcp only
    .venv/bin/python bench/bench_ht.py --cc bbr --cc cubic --mcs 7 --ampdu on --seeds 3
    .venv/bin/python bench/bench_ht.py --cc bbr --mcs 7 --ampdu on --no-ns3 \
        --airtcp-set tcp.profile=linux-6

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

With --cc (repeatable), only the TCP cases run, with that congestion control on both sides,
for seeds 1..--seeds (airtcp seed k; ns-3 --seed=1 --run=k), both for 12 s counted from 2 s
(ns-3 runs 12 s here, not 10, so that counts compare), and a Markdown table gives per cc
and side the means (± standard deviation over the seeds) of: goodput; mean RTT (airtcp: the
flow's rtt_mean_s, one sample per ACK of new data from the echoed timestamp at the ns clock;
ns-3: ht_upload's ack_rtt.mean_s, one sample per ACK that advances SND.UNA from the first send
of the oldest segment it acknowledges, at the simulator's clock: ns-3's own timestamps count
whole milliseconds); MPDUs per PPDU; TCP and MAC (MPDU) retransmissions; the mean cwnd; for
BBR, airtcp's bw_bps and min_rtt_s (summary tcp.bbr, at the end) beside ns-3's TcpBbr pacing
rate (time-weighted over the measured time), final cwnd and min-RTT estimate (MinRtt at the
end). The cc goes to airtcp as the scenario's top-level cc (= --set cc=NAME, which overrides
tcp.cc) and to ns-3 as --cc=NAME; bbr also gets tcp.recovery = "sack" and tcp.rack = true
(airtcp's BBR needs both) unless --airtcp-set names a tcp.profile. --mcs and --ampdu narrow the
cases (also without --cc); --airtcp-set KEY=VALUE and --ns3-arg=ARG reach every run
(bench/ns3/NOTES.md "BBR on an 802.11n upload").

With --aging (issue 35), the A-MPDU cases run under the radio model at 5 m, 60 s, with
fading as blocks (Nakagami m = 1, a fade per 50 ms), as flat Doppler fading at 17.3 Hz with the
estimate at the preamble (each subframe decided at its own SINR), and as TGn D likewise:
the core's wall time of each (the best of three), its ratio to the block model's, and events
per PPDU, which the per-subframe decisions must leave unchanged.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import airtcp
from airtcp.config import apply_overrides

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


# airtcp's congestion controls (docs/scenarios.md "[tcp]"), all in ht_upload's --cc table.
CCS = ("reno", "newreno", "cubic", "bic", "vegas", "veno", "westwood", "illinois", "bbr")
# airtcp settings a cc needs unless a profile is given: its BBR is refused without SACK + RACK.
AIRTCP_CC_SET = {"bbr": ("tcp.recovery=sack", "tcp.rack=true")}


def airtcp_cc_overrides(cc: str, extra: Sequence[str]) -> list[str]:
    """`--set` strings for a TCP case with `cc`: its needs (AIRTCP_CC_SET) unless `extra` names
    a tcp.profile, then `extra`."""
    profile = any(o.partition("=")[0].strip() == "tcp.profile" for o in extra)
    return [*(() if profile else AIRTCP_CC_SET.get(cc, ())), *extra]


def airtcp_tcp_case(
    mcs: int, ampdu: bool, cc: str, seed: int, extra: Sequence[str] = ()
) -> dict[str, Any]:
    """One TCP upload with `cc` (case_config's, the top-level cc = `cc`, then the overrides)."""
    cfg = case_config(mcs, "tcp", ampdu)
    cfg["cc"] = cc
    sets = airtcp_cc_overrides(cc, extra)
    s = airtcp.run(airtcp.Scenario.from_dict(apply_overrides(cfg, sets)), seed=seed).summary
    sta = s["nodes"][1]["mac"]
    tcp = s["flows"][0]["tcp"]
    bbr = tcp.get("bbr")
    return {
        "goodput_bps": s["flows"][0]["goodput_bps"],
        "rtt_mean_s": tcp["rtt_mean_s"],
        "mpdus_per_ppdu": sta["mpdus_sent"] / max(1, sta["attempts"]),
        "tcp_retransmissions": tcp["retransmissions"],
        "mpdu_retransmissions": sta["mpdu_retries"],
        "mean_cwnd_segments": tcp["mean_cwnd_segments"],
        "bw_bps": bbr["bw_bps"] if bbr else None,
        "min_rtt_s": bbr["min_rtt_s"] if bbr else None,
        "bbr": bbr,
        "overrides": sets,
        "wall_seconds": s["wall_seconds"],
    }


def ns3_tcp_case(
    mcs: int, ampdu: bool, cc: str, seed: int, extra: Sequence[str] = ()
) -> dict[str, Any]:
    """The same case in ht_upload, --run=`seed`: 12 s with a 2 s warm-up, the airtcp case's
    (the default cases run ns-3 for 10 s), so that both count over 10 s."""
    import ns3_runner

    r = ns3_runner.run_ht(
        mcs=mcs,
        traffic="tcp",
        cc=cc,
        max_ampdu_bytes=65535 if ampdu else 0,
        duration_s=12.0,
        warmup_s=2.0,
        seed=1,
        run=seed,
        extra_args=extra,
    )
    bbr = r.get("bbr")
    return {
        "goodput_bps": r["goodput_bps"],
        "rtt_mean_s": r["ack_rtt"]["mean_s"],
        "rtt_ms_timestamps_mean_s": r["tcp"]["rtt_mean_s"],
        "mpdus_per_ppdu": r["mean_mpdus_per_ppdu"],
        "tcp_retransmissions": r["tcp"]["retransmissions"],
        "mpdu_retransmissions": r["retransmitted_mpdus"],
        "mean_cwnd_segments": r["tcp"]["mean_cwnd_segments"],
        "final_cwnd_segments": r["tcp"]["final_cwnd_segments"],
        "bw_bps": bbr["pacing_rate_mean_bps"] if bbr else None,
        "min_rtt_s": bbr["min_rtt_s"] if bbr else None,
        "bbr": bbr,
        "cmd": r["cmd"],
        "wall_seconds": r["wall_seconds"],
    }


# (label, key in both sides' dicts, scale, decimals for printing)
CC_FIGURES = (
    ("goodput (Mbit/s)", "goodput_bps", 1e-6, 2),
    ("mean RTT (ms)", "rtt_mean_s", 1e3, 2),
    ("MPDUs/PPDU", "mpdus_per_ppdu", 1.0, 2),
    ("TCP retx", "tcp_retransmissions", 1.0, 0),
    ("MPDU retx", "mpdu_retransmissions", 1.0, 0),
    ("mean cwnd (seg)", "mean_cwnd_segments", 1.0, 1),
    ("BBR bw (Mbit/s) / ns-3 pacing", "bw_bps", 1e-6, 2),
    ("BBR min RTT (ms)", "min_rtt_s", 1e3, 3),
    ("final cwnd (seg)", "final_cwnd_segments", 1.0, 1),
)


def _cell(values: list[float], scale: float, digits: int) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values) * scale
    if len(values) < 2:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ±{statistics.stdev(values) * scale:.{digits}f}"


def cc_table(rows: list[dict[str, Any]]) -> str:
    """Markdown: a row per (case, cc, side), each figure's mean ± sd over the seeds."""
    head = "| case | cc | side | seeds | " + " | ".join(f[0] for f in CC_FIGURES) + " |"
    lines = [head, "|" + "---|" * (4 + len(CC_FIGURES))]
    keys = dict.fromkeys((r["case"], r["cc"], r["side"]) for r in rows)
    for case, cc, side in keys:
        mine = [r for r in rows if (r["case"], r["cc"], r["side"]) == (case, cc, side)]
        cells = [case, cc, side, ",".join(str(r["seed"]) for r in mine)]
        for _, key, scale, digits in CC_FIGURES:
            cells.append(_cell([r[key] for r in mine if r.get(key) is not None], scale, digits))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def cc_cases(args: argparse.Namespace) -> None:
    rows: list[dict[str, Any]] = []
    label = "airtcp" + (f" ({' '.join(args.airtcp_set)})" if args.airtcp_set else "")
    for mcs in args.mcs:
        for ampdu in args.ampdu:
            case = f"MCS {mcs} A-MPDU {'on' if ampdu else 'off'}"
            for cc in args.cc:
                for seed in range(1, args.seeds + 1):
                    runs = [(label, airtcp_tcp_case(mcs, ampdu, cc, seed, args.airtcp_set))]
                    if not args.no_ns3:
                        runs.append(("ns-3", ns3_tcp_case(mcs, ampdu, cc, seed, args.ns3_arg)))
                    for side, r in runs:
                        rows.append({"case": case, "cc": cc, "side": side, "seed": seed, **r})
                        print(
                            f"{case} {cc} seed {seed} {side}: "
                            f"{r['goodput_bps'] / 1e6:.3f} Mbit/s, RTT "
                            f"{r['rtt_mean_s'] * 1e3:.2f} ms, {r['mpdus_per_ppdu']:.2f} MPDU/PPDU, "
                            f"TCP retx {r['tcp_retransmissions']}"
                            + (f", bbr {json.dumps(r['bbr'])}" if r["bbr"] else ""),
                            file=sys.stderr,
                            flush=True,
                        )
    print(cc_table(rows))
    print(
        "\nBoth sides: 12 s, counted from 2 s (10 s). "
        "BBR bw: airtcp's bw_bps; ns-3's column is TcpBbr's pacing rate, time-weighted. "
        f"airtcp overrides: {' '.join(args.airtcp_set) or 'none'} (bbr: + tcp.recovery=sack "
        f"tcp.rack=true without a tcp.profile); ns-3 args: {' '.join(args.ns3_arg) or 'none'}."
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))


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
    ap.add_argument(
        "--cc",
        action="append",
        choices=CCS,
        help="TCP cases only, with this congestion control on both sides (repeatable)",
    )
    ap.add_argument(
        "--mcs", action="append", type=int, choices=(0, 7), help="repeatable (default: 0 and 7)"
    )
    ap.add_argument(
        "--ampdu", action="append", choices=("on", "off"), help="repeatable (default: both)"
    )
    ap.add_argument("--seeds", type=int, default=1, help="with --cc: seeds 1..N (default 1)")
    ap.add_argument(
        "--airtcp-set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="with --cc: --set KEY=VALUE for every airtcp run (repeatable)",
    )
    ap.add_argument(
        "--ns3-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="with --cc: extra ht_upload argument, e.g. --ns3-arg=--timestamps=0 (repeatable)",
    )
    ap.add_argument("--json", type=Path, help="with --cc: write every run's figures here")
    args = ap.parse_args()
    if args.aging:
        aging()
        return
    args.mcs = args.mcs or [0, 7]
    args.ampdu = [a == "on" for a in args.ampdu or ("on", "off")]
    if args.cc:
        cc_cases(args)
        return
    if not args.no_ns3:
        import ns3_runner

        ns3_runner.build()
    for mcs in args.mcs:
        for traffic in ("udp", "tcp"):
            for ampdu in args.ampdu:
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
