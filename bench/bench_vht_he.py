"""Benchmark: one 802.11ac (VHT) or 802.11ax (HE) station uploading saturated UDP to its AP,
airtcp beside ns-3 3.44 (issue 38's "within 1 % of ns-3, A-MPDU sizes equal").

    .venv/bin/python bench/bench_vht_he.py            # ns-3's figures from the stored reference
    .venv/bin/python bench/bench_vht_he.py --ns3      # rerun ns-3 too (~8 min, builds ht_upload)
    .venv/bin/python bench/bench_vht_he.py --seeds 1  # quicker, one seed a side
    .venv/bin/python bench/bench_vht_he.py --tcp bbr --tcp cubic \
        --plot docs/figures/bbr-he-pacing.png         # one TCP upload beside ns-3 (~4 min)

The cases are bench/ns3/ns3_runner.py's VHT_HE_CASES (MCS, width, streams, guard interval), each
with ns-3's default A-MPDU limit (BE_MaxAmpduSize 65,535 bytes) and the standard's largest
(1,048,575 VHT, 6,500,631 HE; airtcp's ht.max_ampdu_bytes): one station 1 m from its AP in
5 GHz, a constant MCS, 1472-byte payloads, EDCA, beacons every 100 TU, a 1024-packet queue
(above HE's 256-MPDU Block Ack window), 10 s with a 2 s warm-up, seeds 1-3. ns-3 sends its
HE "GI 1600" case at 3.2 us (its rate manager takes the GI from the peer's capabilities,
bench/ns3/NOTES.md); airtcp's 1.6 us case is compared with ns-3's --heGiFromConfig=1 row.

Prints per case and limit: both goodputs (means over the seeds) and the gap airtcp/ns-3 - 1,
MPDUs per PPDU on both sides and airtcp's events per PPDU. The known differences
(bench/ns3/NOTES.md, docs/validation.md section 30): ns-3 leaves VHT-SIG-B out of an SU PPDU
(4 us shorter) and its HE-LTF is 8 us whatever the GI (0.8 us longer at 0.8 us, 8 us shorter
at 3.2 us). Both sides answer HE aggregates with a 256-bit BlockAck (a 256-MPDU window).

With --tcp CC (repeatable: bbr, cubic; issue 38's "BBR on an 802.11ax link beside ns-3's
TcpBbr"), only one TCP case runs: the HE station at MCS 11, 80 MHz, 1 stream, GI 0.8 us (ns-3
with --heGiFromConfig=1, so that it sends 0.8 us too), both A-MPDU limits at 65,535 bytes (ns-3's
default), the same 1024-packet queue, uploading one bulk TCP flow (MSS 1448) to its AP for
--tcp-duration (34) s counted from 2 s, seeds 1..--seeds (airtcp seed k, ns-3 --seed=1 --run=k,
each ns-3 run its own process, --jobs (2) at a time, after the airtcp runs). TCP settings:
airtcp tcp.recovery = "sack" (and tcp.rack = true for bbr, which its BBR needs), otherwise its
defaults (timestamps on); ns-3 ht_upload with tcp_common.h's defaults and --sack=1, and for bbr
--timestamps=0: with millisecond timestamps TcpBbr's min RTT becomes 1 us and it never probes
RTT (bench/ns3/NOTES.md "BBR on an 802.11n upload"). Prints, per cc, side and seed, then as
means (± sd over the seeds) with the gap airtcp/ns-3 - 1: goodput, mean RTT (airtcp's rtt_mean_s;
ns-3's ack_rtt, both per ACK of new data at the simulator's clock), BBR's mean pacing rate
(time-weighted over the counted time: airtcp from its tcp trace, ns-3 from TcpBbr's "PacingRate"
trace source), ProbeRTT entries and times (the falls of cwnd from above 4 segments to 4 or
below after 2 s, a fall within 1 s of the last low counting once, bench/bench_bbr.py's rule:
airtcp from its tcp trace, ns-3 from the "CongestionWindow" trace source; each spell ends when
airtcp's cwnd is above 4 segments again or TcpBbr leaves PROBE_RTT; ns-3's PROBE_RTT entries are
added where they differ from its dips), TCP retransmissions, MPDUs per PPDU, retransmitted MPDUs,
the mean cwnd and BBR's min-RTT estimate at the end. --plot FILE draws seed 1's BBR pacing rate and cwnd on both sides against
time (airtcp's trace and ns-3's --seriesMs samples, every 10 ms) with the ProbeRTT times.
bench/ns3/NOTES.md "BBR on an 802.11ax upload" has the figures and the differences.
"""

from __future__ import annotations

import argparse
import bisect
import json
import re
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import airtcp
from airtcp.config import apply_overrides

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "ns3"))
sys.path.insert(0, str(ROOT / "bench"))  # bench_bbr (--tcp)
REFERENCE = ROOT / "bench" / "ns3" / "vht_he_reference.md"


def config(
    standard: str, mcs: int, width: int, nss: int, gi: int, max_bytes: int | None
) -> dict[str, Any]:
    """The airtcp scenario of one case: ht.short_gi for VHT (gi 1: 400 ns), ht.gi_ns for HE."""
    ht: dict[str, Any] = {"mcs": mcs, "channel_width_mhz": width, "streams": nss}
    if standard == "80211ac":
        ht["short_gi"] = bool(gi)
    else:
        ht["gi_ns"] = gi
    if max_bytes is not None:
        ht["max_ampdu_bytes"] = max_bytes
    return {
        "standard": standard,
        "ht": ht,
        "stations": 1,
        "spacing_m": 1.0,
        "duration_s": 10.0,
        "warmup_s": 2.0,
        "payload_bytes": 1472,
        "mac": {"access": "edca", "beacon_interval_tu": 100, "queue_limit_packets": 1024},
    }


def airtcp_case(cfg: dict[str, Any], seeds: list[int]) -> dict[str, float]:
    goodputs, mpdus, ppdus, events = [], 0, 0, 0
    for seed in seeds:
        s = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=seed).summary
        sta = s["nodes"][1]["mac"]
        goodputs.append(s["flows"][0]["goodput_bps"] / 1e6)
        mpdus += sta["mpdus_sent"]
        ppdus += sta["attempts"]
        events += s["events"]
    return {
        "goodput_mbps": statistics.mean(goodputs),
        "mpdus_per_ppdu": mpdus / max(1, ppdus),
        "events_per_ppdu": events / max(1, ppdus),
    }


def stored_reference() -> dict[tuple[str, str], dict[str, float]]:
    """ns-3's rows of bench/ns3/vht_he_reference.md by (case, limit)."""
    rows: dict[tuple[str, str], dict[str, float]] = {}
    for line in REFERENCE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 7 or not re.match(r"^(VHT|HE) MCS", cells[0]):
            continue
        limit = "default" if "default" in cells[1] else "max"
        rows[(cells[0], limit)] = {
            "goodput_mbps": float(cells[3]),
            "mpdus_per_ppdu": float(cells[5]),
            "ppdu_us": float(cells[7]),
        }
    return rows


def rerun_reference(seeds: list[int]) -> dict[tuple[str, str], dict[str, float]]:
    import ns3_runner

    rows: dict[tuple[str, str], dict[str, float]] = {}
    for r in ns3_runner.vht_he_matrix(seeds=seeds):
        limit = "default" if r["max_ampdu_bytes"] is None else "max"
        rows[(r["case"], limit)] = {
            "goodput_mbps": r["goodput_mbps"],
            "mpdus_per_ppdu": r["mpdus_per_ppdu"],
            "ppdu_us": r["mean_ppdu_us"],
        }
    return rows


# ---- --tcp: one bulk TCP upload, HE MCS 11 / 80 MHz / 1 stream / GI 0.8 us ----------------

TCP_CASE = {"mcs": 11, "width": 80, "nss": 1, "gi": 800}
TCP_MSS = 1448
TCP_WARMUP_S = 2.0
DIP_SEGMENTS = 4  # BBR's ProbeRTT cwnd (bench_bbr.py's dip rule)
SERIES_MS = 10.0  # ns-3 --seriesMs; airtcp's trace is sampled at the same times for the plot
TCP_CCS = ("bbr", "cubic")
# airtcp: SACK on both ccs (as ns-3's --sack=1); its BBR is refused without RACK.
AIRTCP_TCP_SET = {"bbr": ("tcp.recovery=sack", "tcp.rack=true"), "cubic": ("tcp.recovery=sack",)}
# ns-3: SACK on; TcpBbr without timestamps (with them its min RTT is 1 us: no ProbeRTT).
NS3_TCP_ARGS = {"bbr": ("--sack=1", "--timestamps=0"), "cubic": ("--sack=1",)}


def dip_ends(
    times_s: list[float], cwnd_bytes: list[float], dips: list[float], low: float
) -> list[float | None]:
    """For each dip time, the first time after it at which cwnd is above ``low`` again (the end
    of the ProbeRTT spell; None if the trace ends first)."""
    ends: list[float | None] = []
    i = 0
    for dip in dips:
        i = bisect.bisect_left(times_s, dip, lo=i)
        while i < len(times_s) and cwnd_bytes[i] <= low:
            i += 1
        ends.append(times_s[i] if i < len(times_s) else None)
    return ends


def _spans(starts: list[float] | None, ends: list[float | None] | None) -> str:
    """ "10.00-10.21 20.21-20.42": each start with the first end at or after it ("-" without
    starts)."""
    if starts is None:
        return "-"
    if not starts:
        return "none"
    known = sorted(e for e in ends or [] if e is not None)
    out = []
    for a in starts:
        b = next((e for e in known if e >= a), None)
        out.append(f"{a:.2f}-{b:.2f}" if b is not None else f"{a:.2f}-")
    return " ".join(out)


def tcp_config(cc: str, duration_s: float) -> dict[str, Any]:
    """config()'s HE case as one bulk TCP upload with `cc` (tcp trace on for BBR)."""
    c = TCP_CASE
    cfg = config("80211ax", c["mcs"], c["width"], c["nss"], c["gi"], None)
    cfg.update(
        traffic="tcp",
        cc=cc,
        tcp={"mss_bytes": TCP_MSS},
        duration_s=duration_s,
        warmup_s=TCP_WARMUP_S,
    )
    if cc == "bbr":
        cfg["traces"] = {"tcp": True}  # cwnd and pacing rate per ACK; changes nothing simulated
    return cfg


def airtcp_tcp_run(cc: str, seed: int, duration_s: float, extra: Sequence[str]) -> dict[str, Any]:
    import pyarrow.compute as pc
    from bench_bbr import cwnd_dips, sample_at, time_weighted_mean

    sets = [*AIRTCP_TCP_SET[cc], *extra]
    cfg = apply_overrides(tcp_config(cc, duration_s), sets)
    t0 = time.perf_counter()
    res = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=seed)
    elapsed = time.perf_counter() - t0
    s = res.summary
    flow = s["flows"][0]
    tcp = flow["tcp"]
    sta = s["nodes"][1]["mac"]
    bbr = tcp.get("bbr")
    out: dict[str, Any] = {
        "goodput_bps": flow["goodput_bps"],
        "rtt_mean_s": tcp["rtt_mean_s"],
        "tcp_retransmissions": tcp["retransmissions"],
        "mpdus_per_ppdu": sta["mpdus_sent"] / max(1, sta["attempts"]),
        "mpdu_retransmissions": sta["mpdu_retries"],
        "mean_cwnd_segments": tcp["mean_cwnd_segments"],
        "min_rtt_s": bbr["min_rtt_s"] if bbr else None,
        "pacing_mean_bps": None,
        "dips_s": None,
        "dip_ends_s": None,
        "bbr": bbr,
        "overrides": sets,
        "wall_seconds": s["wall_seconds"],
        "call_seconds": elapsed,
    }
    if "tcp" in res.traces:
        mss = int(cfg.get("tcp", {}).get("mss_bytes", TCP_MSS))
        trace = res.traces["tcp"]
        rows = trace.filter(pc.equal(trace.column("flow"), flow["id"]))
        times = [t / 1e9 for t in rows.column("time_ns").to_pylist()]
        cwnd = [c * mss for c in rows.column("cwnd").to_pylist()]  # the trace counts segments
        pacing = rows.column("pacing_rate_bps").to_pylist()
        dips, _ = cwnd_dips(times, cwnd, TCP_WARMUP_S, mss)
        out["dips_s"] = dips
        out["dip_ends_s"] = dip_ends(times, cwnd, dips, DIP_SEGMENTS * mss)
        out["pacing_mean_bps"] = time_weighted_mean(times, pacing, TCP_WARMUP_S, duration_s)
        grid = [k * SERIES_MS / 1e3 for k in range(1, int(duration_s * 1e3 / SERIES_MS))]
        out["series"] = {
            "t_s": grid,
            "cwnd_bytes": sample_at(times, cwnd, grid),
            "pacing_rate_bps": sample_at(times, pacing, grid),
        }
    out["probe_rtt_entries"] = len(out["dips_s"]) if out["dips_s"] is not None else None
    return out


def ns3_tcp_run(cc: str, seed: int, duration_s: float, extra: Sequence[str]) -> dict[str, Any]:
    import ns3_runner

    c = TCP_CASE
    r = ns3_runner.run_ht(
        mcs=c["mcs"],
        traffic="tcp",
        cc=cc,
        mss=TCP_MSS,
        max_ampdu_bytes=None,  # ns-3's default, 65,535 bytes
        queue_packets=1024,
        duration_s=duration_s,
        warmup_s=TCP_WARMUP_S,
        seed=1,
        run=seed,
        standard="80211ax",
        width_mhz=c["width"],
        nss=c["nss"],
        gi_ns=c["gi"],
        he_gi_from_config=True,
        series_ms=SERIES_MS if cc == "bbr" else 0.0,
        extra_args=[*NS3_TCP_ARGS[cc], *extra],
    )
    bbr = r.get("bbr")
    dips = bbr["cwnd_dips_s"] if bbr else None
    return {
        "goodput_bps": r["goodput_bps"],
        "rtt_mean_s": r["ack_rtt"]["mean_s"],
        "tcp_retransmissions": r["tcp"]["retransmissions"],
        "mpdus_per_ppdu": r["mean_mpdus_per_ppdu"],
        "mpdu_retransmissions": r["retransmitted_mpdus"],
        "mean_cwnd_segments": r["tcp"]["mean_cwnd_segments"],
        "min_rtt_s": bbr["min_rtt_s"] if bbr else None,
        "pacing_mean_bps": bbr["pacing_rate_mean_bps"] if bbr else None,
        "dips_s": dips,
        "probe_rtt_entries": len(dips) if dips is not None else None,
        # TcpBbr restores cwnd as it leaves PROBE_RTT: the state's exits end the dips
        "dip_ends_s": bbr["probe_rtt_end_s"] if bbr else None,
        "probe_rtt_state_s": [t for t in bbr["probe_rtt_s"] if t >= TCP_WARMUP_S] if bbr else None,
        "probe_rtt_state_end_s": [t for t in bbr["probe_rtt_end_s"] if t >= TCP_WARMUP_S]
        if bbr
        else None,
        "bbr": {k: v for k, v in bbr.items() if k != "cwnd_dips_s"} if bbr else None,
        "data_modes": r["sta"]["data_modes"],
        "series": r.get("series"),
        "cmd": " ".join(["ht_upload", *r["cmd"][1:]]),
        "wall_seconds": r["wall_seconds"],
        "call_seconds": r["process_wall_seconds"],
    }


# (label, key, scale, decimals); the gap airtcp/ns-3 - 1 is printed for each
TCP_FIGURES = (
    ("goodput (Mbit/s)", "goodput_bps", 1e-6, 2),
    ("mean RTT (ms)", "rtt_mean_s", 1e3, 3),
    ("mean pacing (Mbit/s)", "pacing_mean_bps", 1e-6, 2),
    ("ProbeRTT entries", "probe_rtt_entries", 1.0, 1),
    ("TCP retx", "tcp_retransmissions", 1.0, 1),
    ("MPDUs/PPDU", "mpdus_per_ppdu", 1.0, 2),
    ("MPDU retx", "mpdu_retransmissions", 1.0, 0),
    ("mean cwnd (seg)", "mean_cwnd_segments", 1.0, 1),
    ("BBR min RTT (ms)", "min_rtt_s", 1e3, 3),
)


def _num(x: float | None, scale: float, digits: int) -> str:
    return "-" if x is None else f"{x * scale:.{digits}f}"


def _times(ts: list[float] | None) -> str:
    return "-" if ts is None else (" ".join(f"{t:.2f}" for t in ts) or "none")


def _mean(values: list[float], scale: float, digits: int) -> str:
    if not values:
        return "-"
    m = statistics.fmean(values) * scale
    if len(values) < 2:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} ±{statistics.stdev(values) * scale:.{digits}f}"


def _gap(a: list[float], b: list[float]) -> str:
    if not a or not b:
        return "-"
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    if mb == 0:
        return "=" if ma == 0 else "∞"
    return f"{ma / mb - 1:+.1%}"


def tcp_seed_table(rows: list[dict[str, Any]]) -> str:
    head = ["cc", "seed", "side", *(f[0] for f in TCP_FIGURES), "ProbeRTT at (s)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["cc"], str(r["seed"]), r["side"]]
        cells += [_num(r.get(k), sc, d) for _, k, sc, d in TCP_FIGURES]
        times = _spans(r.get("dips_s"), r.get("dip_ends_s"))
        state, dips = r.get("probe_rtt_state_s"), r.get("dips_s") or []
        if state is not None and (
            len(state) != len(dips)
            or any(abs(a - b) > 0.005 for a, b in zip(state, dips, strict=True))
        ):
            times += f" (PROBE_RTT state entries: {_times(state)})"
        lines.append("| " + " | ".join([*cells, times]) + " |")
    return "\n".join(lines)


def tcp_mean_table(rows: list[dict[str, Any]], ccs: list[str]) -> str:
    head = ["cc", "side", "seeds", *(f[0] for f in TCP_FIGURES)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for cc in ccs:
        per_side: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["cc"] == cc:
                per_side.setdefault(r["side"], []).append(r)
        for side, mine in per_side.items():
            cells = [cc, side, ",".join(str(r["seed"]) for r in mine)]
            for _, k, sc, d in TCP_FIGURES:
                cells.append(_mean([r[k] for r in mine if r.get(k) is not None], sc, d))
            lines.append("| " + " | ".join(cells) + " |")
        if "airtcp" in per_side and "ns-3" in per_side:
            cells = [cc, "gap airtcp/ns-3 - 1", ""]
            for _, k, _, _ in TCP_FIGURES:
                a = [r[k] for r in per_side["airtcp"] if r.get(k) is not None]
                b = [r[k] for r in per_side["ns-3"] if r.get(k) is not None]
                cells.append(_gap(a, b))
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tcp_plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Seed 1's BBR pacing rate (top) and cwnd (bottom) on both sides against time, with each
    side's ProbeRTT times (cwnd dips) as dotted lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [r for r in rows if r["cc"] == "bbr" and r["seed"] == 1 and r.get("series")]
    if not runs:
        print("--plot: no BBR run of seed 1 with a series", file=sys.stderr)
        return
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6.5), sharex=True)
    colours = {"airtcp": "tab:blue", "ns-3": "tab:orange"}
    for r in runs:
        ser = r["series"]
        colour = colours.get(r["side"], "tab:gray")
        label = f"{r['side']} ({r['goodput_bps'] / 1e6:.0f} Mbit/s goodput)"
        t = [x for x, v in zip(ser["t_s"], ser["pacing_rate_bps"], strict=True) if v is not None]
        pacing = [v / 1e6 for v in ser["pacing_rate_bps"] if v is not None]
        top.plot(t, pacing, lw=0.7, color=colour, label=label)
        cw = [(x, v / TCP_MSS) for x, v in zip(ser["t_s"], ser["cwnd_bytes"], strict=True) if v]
        bottom.plot([x for x, _ in cw], [v for _, v in cw], lw=0.7, color=colour, label=r["side"])
        ends = sorted(e for e in r.get("dip_ends_s") or r.get("probe_rtt_state_end_s") or [] if e)
        for i, dip in enumerate(r.get("dips_s") or []):
            end = next((e for e in ends if e >= dip), None)
            for ax in (top, bottom):
                ax.axvline(dip, color=colour, ls=":", lw=1.0, label=None)
                if end is not None:
                    ax.axvspan(dip, end, color=colour, alpha=0.15, lw=0)
            top.annotate(
                f"{dip:.2f}",
                (dip, 0.98 - 0.07 * (r["side"] == "ns-3")),
                xycoords=("data", "axes fraction"),
                color=colour,
                fontsize=7,
                ha="left" if i % 2 == 0 else "right",
                va="top",
            )
    top.set_ylabel("pacing rate (Mbit/s)")
    peak = max(  # after the warm-up: Startup's high-gain peak left off the scale
        (
            v
            for r in runs
            for t, v in zip(r["series"]["t_s"], r["series"]["pacing_rate_bps"], strict=True)
            if v is not None and t >= TCP_WARMUP_S
        ),
        default=0,
    )
    top.set_ylim(0, peak / 1e6 * 1.3 if peak else None)
    top.legend(loc="lower right", fontsize=8)
    bottom.set_ylabel("cwnd (segments)")
    bottom.set_yscale("log")
    bottom.set_xlabel("time (s); dotted and shaded: ProbeRTT (cwnd at 4 segments)")
    bottom.legend(loc="lower right", fontsize=8)
    c = TCP_CASE
    top.set_title(
        f"BBR, one 802.11ax upload (HE MCS {c['mcs']}, {c['width']} MHz, {c['nss']} ss, "
        f"GI 0.8 us, 65,535-byte A-MPDUs), seed 1: airtcp vs ns-3 3.44 TcpBbr",
        fontsize=9,
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=130)
    print(f"plot: {path}", file=sys.stderr)


def tcp_cases(a: argparse.Namespace) -> None:
    ccs = list(dict.fromkeys(a.tcp))
    seeds = list(range(1, a.seeds + 1))
    t_start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for cc in ccs:
        for seed in seeds:
            r = airtcp_tcp_run(cc, seed, a.tcp_duration, a.airtcp_set)
            rows.append({"cc": cc, "seed": seed, "side": "airtcp", **r})
            print(
                f"{cc} seed {seed} airtcp: {r['goodput_bps'] / 1e6:.2f} Mbit/s, RTT "
                f"{r['rtt_mean_s'] * 1e3:.2f} ms, ProbeRTT {_times(r['dips_s'])}, "
                f"core {r['wall_seconds']:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    airtcp_elapsed = time.perf_counter() - t0
    ns3_elapsed = 0.0
    if not a.no_ns3:
        import ns3_runner

        ns3_runner.build(programs=("ht_upload",))  # once, before the parallel runs
        t0 = time.perf_counter()
        jobs = [(cc, seed) for cc in ccs for seed in seeds]
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            futures = {
                job: pool.submit(ns3_tcp_run, job[0], job[1], a.tcp_duration, a.ns3_arg)
                for job in jobs
            }
            for (cc, seed), fut in futures.items():
                r = fut.result()
                rows.append({"cc": cc, "seed": seed, "side": "ns-3", **r})
                print(
                    f"{cc} seed {seed} ns-3: {r['goodput_bps'] / 1e6:.2f} Mbit/s, RTT "
                    f"{r['rtt_mean_s'] * 1e3:.2f} ms, ProbeRTT {_times(r['dips_s'])}, "
                    f"Run() {r['wall_seconds']:.1f} s, {r['data_modes']}",
                    file=sys.stderr,
                    flush=True,
                )
        ns3_elapsed = time.perf_counter() - t0
    rows.sort(key=lambda r: (ccs.index(r["cc"]), r["seed"], r["side"] != "airtcp"))
    print(tcp_seed_table(rows))
    print()
    print(tcp_mean_table(rows, ccs))
    walls = {
        side: sum(r["wall_seconds"] for r in rows if r["side"] == side)
        for side in ("airtcp", "ns-3")
    }
    print(
        f"\n{a.tcp_duration:g} s per run, counted from {TCP_WARMUP_S:g} s; seeds "
        f"{seeds[0]}..{seeds[-1]} (ns-3 --seed=1 --run=k). airtcp --set: "
        + "; ".join(f"{cc} {' '.join(AIRTCP_TCP_SET[cc])}" for cc in ccs)
        + f", every run {' '.join(a.airtcp_set) or 'nothing more'}. ns-3 args: "
        + "; ".join(f"{cc} {' '.join(NS3_TCP_ARGS[cc])}" for cc in ccs)
        + f", every run {' '.join(a.ns3_arg) or 'nothing more'}. Wall: airtcp core "
        f"{walls['airtcp']:.1f} s "
        f"({airtcp_elapsed:.1f} s with the traces' reading), ns-3 Simulator::Run "
        f"{walls['ns-3']:.1f} s ({ns3_elapsed:.0f} s elapsed, {a.jobs} at a time); "
        f"total {time.perf_counter() - t_start:.0f} s."
    )
    if a.plot:
        tcp_plot(rows, a.plot)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(rows, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seeds", type=int, default=3, help="seeds 1..N on each side (default 3)")
    ap.add_argument("--ns3", action="store_true", help="rerun ns-3 instead of the stored table")
    ap.add_argument(
        "--tcp",
        action="append",
        choices=TCP_CCS,
        metavar="CC",
        help="the TCP case only, with this congestion control (bbr, cubic; repeatable)",
    )
    ap.add_argument("--plot", type=Path, help="with --tcp bbr: seed 1's pacing traces (PNG)")
    ap.add_argument("--tcp-duration", type=float, default=34.0, help="with --tcp: simulated s (34)")
    ap.add_argument("--no-ns3", action="store_true", help="with --tcp: airtcp only")
    ap.add_argument("--jobs", type=int, default=2, help="with --tcp: ns-3 runs at a time (2)")
    ap.add_argument(
        "--airtcp-set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="with --tcp: --set KEY=VALUE for every airtcp run (repeatable)",
    )
    ap.add_argument(
        "--ns3-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="with --tcp: extra ht_upload argument for every run (repeatable)",
    )
    ap.add_argument("--json", type=Path, help="with --tcp: every run's figures and series")
    a = ap.parse_args()
    if a.tcp:
        tcp_cases(a)
        return
    seeds = list(range(1, a.seeds + 1))
    import ns3_runner

    ref = rerun_reference(seeds) if a.ns3 else stored_reference()
    print(
        f"{'case':<52} {'limit':>8} {'ns-3 Mbit/s':>11} {'airtcp':>9} {'gap':>7} "
        f"{'MPDUs ns-3':>10} {'airtcp':>7} {'ev/PPDU':>8}"
    )
    gaps = []
    for label, standard, mcs, width, nss, gi, from_config in ns3_runner.VHT_HE_CASES:
        if standard == "80211ax" and gi == 1600 and not from_config:
            continue  # ns-3 sends it at 3.2 us: the --heGiFromConfig=1 row is the like case
        for limit in ("default", "max"):
            row = ref.get((label, limit))
            if row is None:
                continue
            max_bytes = None if limit == "default" else ns3_runner.STANDARD_MAX_AMPDU[standard]
            got = airtcp_case(config(standard, mcs, width, nss, gi, max_bytes), seeds)
            gap = got["goodput_mbps"] / row["goodput_mbps"] - 1
            gaps.append(gap)
            print(
                f"{label:<52} {limit:>8} {row['goodput_mbps']:>11.3f} "
                f"{got['goodput_mbps']:>9.3f} {gap:>+7.2%} {row['mpdus_per_ppdu']:>10.1f} "
                f"{got['mpdus_per_ppdu']:>7.1f} {got['events_per_ppdu']:>8.2f}"
            )
    print(f"largest |gap|: {max(abs(g) for g in gaps):.2%} over {len(gaps)} rows")


if __name__ == "__main__":
    main()
