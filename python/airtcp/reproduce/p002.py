"""Paper 002 (Nomoto, Wu, Ohzahata, Kato: bufferbloat of TCP uploads over 802.11n), end to end.

The sweeps (every run stored in ``OUT/store``, resumable) on the template ``paper-002``
(examples/paper-002.toml; docs/paper-002.md), each over the three schemes of section IV
(native 802.11n, CoDel as the qdisc, the rate-driven Block-Ack retry limit) at the station's
positions 1.2 to 10 m from the AP, 60 s uploads:

- ``main``: the four cases of Fig. 4-6 and the text: CUBIC and Reno, without and with the
  bridge's 50 ms one-way delay; every scheme of a replication on the same fades (paired);
- ``timeline``: Fig. 7: Reno with 100 ms of added round-trip delay where ath9k's average data
  rate is near 216 Mbit/s, traced (cwnd) with goodput per second, the three schemes;
- beside the paper's three, Linux today's queueing in both sweeps (mac80211's per-station
  FQ-CoDel under airtime fairness, without and with AQL, no qdisc), the rate control kept;
- ``anomaly``: beyond the paper, three stations 2, 6 and 8 m from the AP (steady rates, no
  fades, Minstrel-HT as Linux today runs) each downloading by CUBIC for 30 s: Linux 3.2's
  queues, mac80211's queues taking turns frame by frame, and with airtime fairness (and AQL):
  the 802.11 performance anomaly and its cure.

Measures (also in the report), per 60 s upload:

- average data rate: the mean of the data rate each TCP frame found toward the AP as the
  station's driver took it (the rate control's choice for a first attempt; the rate the remedy averages)
  [Mbit/s], the x-axis of every figure, as the paper's;
- throughput: TCP goodput station -> server over the run [Mbit/s];
- RTT: the mean of the sender's RTT samples (RFC 7323 timestamps, every ACK) [ms];
- cwnd: the time average of the sender's congestion window [segments].
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from airtcp import store, sweep
from airtcp.config.templates import P002_WARMUP_S
from airtcp.reproduce.common import (
    Claim,
    Estimate,
    _version,
    cell,
    claims_table,
    figures_and_definitions,
    mean_ci,
    run_sweeps,
    stored_runs,
    write_report_lines,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "BA_RETRY_LIMITS",
    "CASES",
    "SCHEMES",
    "ba_retry_limit",
    "claims",
    "fig2",
    "reproduce",
    "sweeps",
    "table",
]

# The schemes of section IV as (queue, scheme) knobs of the template.
SCHEMES: dict[str, tuple[str, str]] = {
    "native": ("native", "none"),
    "codel": ("codel", "none"),
    "remedy": ("native", "ba-retry"),
    "fq-codel": ("mac-fq-codel", "none"),
    "fq-codel-aql": ("mac-fq-codel-aql", "none"),
}
PAPER_SCHEMES = ("native", "codel", "remedy")
TODAY_SCHEMES = ("fq-codel", "fq-codel-aql")
LABELS = {
    "native": "native 802.11n",
    "codel": "CoDel",
    "remedy": "proposal (BA retry limit)",
    "fq-codel": "Linux today: mac80211 FQ-CoDel + airtime",
    "fq-codel-aql": "Linux today: + AQL",
}
COLORS = {"native": "tab:red", "codel": "tab:blue", "remedy": "tab:green",
          "fq-codel": "tab:purple", "fq-codel-aql": "tab:gray"}  # fmt: skip
MARKERS = {"native": "o", "codel": "s", "remedy": "^", "fq-codel": "D", "fq-codel-aql": "x"}
# The anomaly sweep's queues (the template's knob) and their labels.
ANOMALY_QUEUES = {
    "native": "Linux 3.2 (pfifo_fast + ath9k FIFO)",
    "mac-fq": "mac80211 FQ-CoDel, frame by frame",
    "mac-fq-codel": "mac80211 FQ-CoDel + airtime fairness",
    "mac-fq-codel-aql": "+ AQL",
}
ANOMALY_BASE: dict[str, Any] = {"template": "paper-002-anomaly", "distances_m": [2.0, 6.0, 8.0],
                                "cc": "cubic", "rate_control": "minstrel-ht", "fading": False,
                                "duration_s": 30.0, "direction": "download"}  # fmt: skip
# The cases (congestion control, one-way delay [ms]) and the paper's figure for each.
CASES: dict[str, tuple[str, float]] = {"fig4": ("cubic", 0.0), "fig5": ("cubic", 50.0),
                                       "fig6": ("reno", 50.0), "reno0": ("reno", 0.0)}  # fmt: skip
CASE_SHORT = {"fig4": "Fig. 4", "fig5": "Fig. 5", "fig6": "Fig. 6", "reno0": "Reno, 0 ms"}
CASE_TITLES = {
    "fig4": "Fig. 4: CUBIC, no added delay",
    "fig5": "Fig. 5: CUBIC, 100 ms added round-trip delay",
    "fig6": "Fig. 6: Reno, 100 ms added round-trip delay",
    "reno0": "Reno, no added delay (the text: similar to Fig. 4)",
}
SEED = 2002
BASE: dict[str, Any] = {
    "template": "paper-002",
    "distance_m": 5.0,
    "cc": "cubic",
    "delay_ms": 0.0,
    "queue": "native",
    "scheme": "none",
    "rate_control": "ath9k",
    "duration_s": 60.0,
}
# The template's warm-up before the upload starts [s] (templates.P002_WARMUP_S).
WARMUP_S = P002_WARMUP_S
# Fig. 7's position: where ath9k's average data rate is near 216 Mbit/s in the wooden house.
TIMELINE_DISTANCE_M = 4.2
# The rate bounds the paper's claims name [Mbit/s].
LOW_RATE_MBPS = 30.0
REMEDY_SPLIT_MBPS = 80.0
HIGH_RATE_MBPS = 100.0
# The proposal's Block-Ack retry limit (002 III-B, Fig. 2's solid line) as (lowest averaged
# data rate [Mbit/s], limit), highest first; each bound belongs to its own step ("10 if rate
# >= 100 Mbit/s, 8 if 50 <= rate < 100, 5 if 25 <= rate < 50, 2 if rate < 25"). The core's
# xlayer::ba_retry::limit_for holds the rule; this copy draws Fig. 2 (tested against it).
BA_RETRY_LIMITS: tuple[tuple[float, int], ...] = ((100.0, 10), (50.0, 8), (25.0, 5), (0.0, 2))
# Fig. 2's dashed line (III-B's first step): the limit linear in log(rate) from 2 at 10 Mbit/s
# to 10 at 100 Mbit/s, 2 below and 10 above.
BA_RETRY_LINE = ((10.0, 2.0), (100.0, 10.0))
# The paper's rate axis: Table I's rates, 6.5 to 300 Mbit/s; ticks at every other rate (all
# twelve crowd the log axis above 200).
RATE_TICKS = (6.5, 13.5, 27.0, 54.0, 108.0, 216.0, 300.0)

# Fig. 2's caption in the report.
FIG2_CAPTION = (
    "Fig. 2: the proposal's Block-Ack retry limit against the averaged data rate (III-B's solid "
    "line: 10 at >= 100 Mbit/s, 8 at [50, 100), 5 at [25, 50), 2 below 25; a filled dot marks "
    "the step a bound belongs to), drawn from the constants of airtcp's rule "
    "(xlayer::ba_retry), with III-B's dashed line. The ticks along the bottom are the remedy's "
    "runs at their average data rates; the runs do not record the limit their frames got, so "
    "no measured limit is drawn."
)


def ba_retry_limit(rate_mbps: float) -> int:
    """The proposal's Block-Ack retry limit for an averaged data rate [Mbit/s] (III-B)."""
    return next(limit for low, limit in BA_RETRY_LIMITS if rate_mbps >= low)


def _axes(quick: bool) -> tuple[list[float], int, float]:
    """Distances, replications and the run length."""
    if quick:
        return [1.2, 4.0, 6.0, 8.0, 9.0, 10.0], 2, 60.0
    return [1.2, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 8.5, 9.0, 9.5, 10.0], 5, 60.0


def sweeps(quick: bool) -> dict[str, sweep.SweepSpec]:
    """The reproduction's sweeps, by name; quick mode runs fewer positions and replications."""
    distances, reps, duration = _axes(quick)
    schemes = {
        "queue": [q for q, _ in SCHEMES.values()],
        "scheme": [s for _, s in SCHEMES.values()],
    }
    cases = {"cc": [c for c, _ in CASES.values()], "delay_ms": [d for _, d in CASES.values()]}
    return {
        # Paired: the three schemes of a replication at a position share its seed (its fades).
        "main": sweep.SweepSpec(
            base={**BASE, "duration_s": duration},
            grid={"distance_m": distances},
            zips=[schemes, cases],
            replications=reps,
            seed=SEED,
            paired=("queue", "scheme"),
        ),
        "anomaly": sweep.SweepSpec(
            base=ANOMALY_BASE,
            grid={"queue": list(ANOMALY_QUEUES)},
            zips=[],
            replications=2 if quick else 5,
            seed=SEED,
            paired=("queue",),
        ),
        "timeline": sweep.SweepSpec(
            base={
                **BASE,
                "cc": "reno",
                "delay_ms": 50.0,
                "distance_m": TIMELINE_DISTANCE_M,
                "report_interval_s": 1.0,
                "traces": {"tcp": True},
                "name": "paper-002-timeline",
            },  # fmt: skip
            grid={},
            zips=[schemes],
            replications=1,
            seed=SEED,
            paired=("queue", "scheme"),
        ),
    }


def _scheme_of(queue: str, scheme: str) -> str | None:
    return next((k for k, v in SCHEMES.items() if v == (queue, scheme)), None)


def _case_of(cc: str, delay_ms: float) -> str | None:
    return next((k for k, v in CASES.items() if v == (cc, float(delay_ms))), None)


def table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per stored run (of the run hashes ``only``, if given): its knobs and measures."""
    knobs = ("queue", "scheme", "cc", "delay_ms", "distance_m", "name", "template")
    runs = stored_runs(root, knobs, only)
    runs = runs[runs["template"] == "paper-002"]
    rows = []
    for r in runs.itertuples():
        scheme, case = _scheme_of(r.queue, r.scheme), _case_of(r.cc, r.delay_ms)
        if scheme is None or case is None:
            continue  # a run of other knobs in the same store (not this reproduction's)
        s = json.loads(r.summary_json)
        flow = s["flows"][0]
        sta = next(n for n in s["nodes"] if n["name"] == "sta1")["mac"]
        rows.append(
            {
                "run_hash": r.run_hash,
                "replication": r.replication,
                "sweep": "timeline" if r.name == "paper-002-timeline" else "main",
                "scheme": scheme,
                "case": case,
                "distance_m": float(r.distance_m),
                "rate_mbps": sta.get("mean_data_rate_mbps", float("nan")),
                "throughput_mbps": flow["goodput_bps"] / 1e6,
                # No sample: no RTT (the summary's 0 would pull every mean down).
                "rtt_ms": flow["tcp"]["rtt_mean_s"] * 1e3 if flow["tcp"]["rtt_samples"] else np.nan,
                "cwnd": flow["tcp"]["mean_cwnd_segments"],
                "timeouts": flow["tcp"]["timeouts"],
                "retransmissions": flow["tcp"]["retransmissions"],
                "drops_mac": sta.get("drops_retry_limit", 0),
                "drops_qdisc": sta.get("drops_qdisc", 0) + sta.get("drops_codel", 0),
            }
        )
    return pd.DataFrame(rows)


def anomaly_table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per station of each stored anomaly run: its queue, throughput, RTT and rate."""
    runs = stored_runs(root, ("queue", "direction", "template"), only)
    runs = runs[runs["template"] == "paper-002-anomaly"]
    rows = []
    for r in runs.itertuples():
        s = json.loads(r.summary_json)
        rate = {n["name"]: n["mac"].get("mean_data_rate_mbps") for n in s["nodes"]}
        ap = s["nodes"][0]["mac"]
        for f in s["flows"]:
            if not f["kind"].startswith("tcp"):
                continue
            sta = f["src"] if r.direction == "upload" else f["dst"]
            rtt = f["tcp"]["rtt_mean_s"] * 1e3 if f["tcp"]["rtt_samples"] else np.nan
            rows.append({
                "run_hash": r.run_hash, "replication": r.replication, "queue": r.queue,
                "station": sta, "throughput_mbps": f["goodput_bps"] / 1e6,
                "rtt_ms": rtt, "timeouts": f["tcp"]["timeouts"],
                "ap_rate_mbps": ap.get("mean_data_rate_mbps"), "sta_rate_mbps": rate[sta],
            })  # fmt: skip
    return pd.DataFrame(rows)


def _anomaly_rows(a: pd.DataFrame) -> list[str]:
    if a.empty:
        return []
    stations = sorted(a["station"].unique())
    rows = ["| queues | " + " | ".join(f"{s}: throughput [Mbit/s], RTT [ms]" for s in stations)
            + " | total [Mbit/s] |", "|---|" + "---|" * (len(stations) + 1)]  # fmt: skip
    for q, label in ANOMALY_QUEUES.items():
        g = cell(a, queue=q)
        if g.empty:
            continue
        cells = [
            f"{mean_ci(cell(g, station=s)['throughput_mbps'].to_numpy()).fmt(1, 1)}, "
            f"{cell(g, station=s)['rtt_ms'].mean():.0f}"
            for s in stations
        ]
        total = mean_ci(g.groupby("run_hash")["throughput_mbps"].sum().to_numpy())
        rows.append(f"| {label} | " + " | ".join(cells) + f" | {total.fmt(1, 1)} |")
    return rows


def _pairs(t: pd.DataFrame, case: str, a: str, b: str, measure: str, where: Any) -> Estimate:
    """mean(a - b) in ``measure`` over the (position, replication) pairs of ``case`` whose
    native average data rate satisfies ``where(rate)``: paired by common random numbers."""
    g = t[(t["sweep"] == "main") & (t["case"] == case)]
    native_rate = cell(g, scheme="native").groupby("distance_m")["rate_mbps"].mean()
    keep = [d for d, r in native_rate.items() if where(r)]
    diffs = []
    for d in keep:
        x = cell(g, distance_m=d)
        va = dict(zip(cell(x, scheme=a)["replication"], cell(x, scheme=a)[measure], strict=True))
        vb = dict(zip(cell(x, scheme=b)["replication"], cell(x, scheme=b)[measure], strict=True))
        diffs += [va[r] - vb[r] for r in sorted(set(va) & set(vb)) if np.isfinite(va[r] - vb[r])]
    return mean_ci(diffs) if diffs else Estimate(float("nan"), float("nan"), float("nan"), 0)


def _region(t: pd.DataFrame, case: str, scheme: str, measure: str, where: Any) -> Estimate:
    """Mean of ``measure`` over the runs of ``scheme`` at positions whose native average data
    rate satisfies ``where``."""
    g = t[(t["sweep"] == "main") & (t["case"] == case)]
    native_rate = cell(g, scheme="native").groupby("distance_m")["rate_mbps"].mean()
    keep = [d for d, r in native_rate.items() if where(r)]
    v = cell(g, scheme=scheme)
    v = v[v["distance_m"].isin(keep)][measure].to_numpy()
    v = v[np.isfinite(v)]
    return mean_ci(v) if len(v) else Estimate(float("nan"), float("nan"), float("nan"), 0)


def _below(e: Estimate) -> bool:
    return e.n > 1 and e.high < 0


def _above(e: Estimate) -> bool:
    return e.n > 1 and e.low > 0


def _per_position_below(
    t: pd.DataFrame, case: str, a: str, b: str, measure: str
) -> tuple[int, int]:
    """Positions where ``a``'s ``measure`` is significantly below ``b``'s, of all positions."""
    g = t[(t["sweep"] == "main") & (t["case"] == case)]
    ds = sorted(g["distance_m"].unique())
    n = sum(
        _below(_pairs(t[t["distance_m"] == d], case, a, b, measure, lambda r: True)) for d in ds
    )
    return n, len(ds)


def claims(t: pd.DataFrame) -> list[Claim]:
    """Each claim of section IV with airtcp's figure and a verdict."""
    out: list[Claim] = []
    if t.empty or "sweep" not in t:
        return out
    main = t[t["sweep"] == "main"]
    by_position = cell(main, case="fig4", scheme="native").groupby("distance_m")["rate_mbps"]
    lowest = float(by_position.mean().min())
    reached_low = lowest < LOW_RATE_MBPS
    # 1. Native RTT about 1000 ms below 30 Mbit/s (Fig. 4b); else at the slowest position.
    bound = LOW_RATE_MBPS if reached_low else lowest
    rtt = _region(t, "fig4", "native", "rtt_ms", lambda r: r < bound or r == lowest)
    out.append(Claim(
        "IV-B, Fig. 4(b)", "native 802.11n: average RTT about 1000 ms below 30 Mbit/s",
        "about 1000 ms", f"{rtt.fmt(1, 0, 'ms')}" + ("" if reached_low else
        f" at the lowest positions (average data rate {lowest:.0f} Mbit/s at best: none below 30)"),
        "agrees" if 700 <= rtt.value <= 1300 else "disagrees",
        "the queues below TCP (pfifo_fast 1000 + ath9k 123 frames) hold about a second at a few "
        "Mbit/s of goodput" if 700 <= rtt.value <= 1300 else
        "ath9k's rate control keeps a higher rate than the channel carries well, so goodput is "
        "a fraction of the data rate and TCP loses segments to drops and spurious timeouts; "
        "the queues are full only part of the time (docs/paper-002.md)",
    ))  # fmt: skip
    # 2. Native cwnd 700-900 at every rate (Fig. 4c).
    per_pos = cell(main, case="fig4", scheme="native").groupby("distance_m")["cwnd"].mean()
    hi_rate = _region(t, "fig4", "native", "cwnd", lambda r: r >= HIGH_RATE_MBPS)
    lo_rate = _region(t, "fig4", "native", "cwnd", lambda r: r < HIGH_RATE_MBPS)
    in_band = ((per_pos >= 700) & (per_pos <= 900)).sum()
    out.append(Claim(
        "IV-B, Fig. 4(c)", "native: average cwnd 700-900 segments at every data rate",
        "700-900", f">= 100 Mbit/s: {hi_rate.fmt(1, 0)}; < 100: {lo_rate.fmt(1, 0)}; "
        f"{in_band} of {len(per_pos)} positions within 700-900",
        "agrees" if in_band == len(per_pos) else ("partly" if in_band else "disagrees"),
        "the window fills pfifo_fast and ath9k's queue (1123 packets) before it overflows"
        + ("" if in_band == len(per_pos) else "; at the far positions drops and spurious "
           "timeouts keep it lower"),
    ))  # fmt: skip
    # 3. CoDel's RTT below native at every rate (Fig. 4b).
    n, m = _per_position_below(t, "fig4", "codel", "native", "rtt_ms")
    d_all = _pairs(t, "fig4", "codel", "native", "rtt_ms", lambda r: True)
    out.append(Claim(
        "IV-B, Fig. 4(b)", "CoDel's RTT below native at every average data rate",
        "below everywhere", f"{n} of {m} positions significantly below; overall "
        f"{d_all.fmt(1, 0, 'ms')}", "agrees" if n == m else ("partly" if n else "disagrees"),
        "CoDel drops at the qdisc once the sojourn stays above 5 ms for 100 ms",
    ))  # fmt: skip
    # 4. Remedy equal to native above 80 Mbit/s (Fig. 4b, 4c).
    hi = lambda r: r > REMEDY_SPLIT_MBPS  # noqa: E731
    d_hi = _pairs(t, "fig4", "remedy", "native", "rtt_ms", hi)
    equal = d_hi.n > 1 and not _below(d_hi) and not _above(d_hi) and abs(d_hi.value) < 5
    out.append(Claim(
        "IV-B, Fig. 4(b)", "the proposal's RTT equals native's above 80 Mbit/s",
        "similar", f"remedy - native: {d_hi.fmt(1, 1, 'ms')}",
        "agrees" if equal else "disagrees",
        "above 100 Mbit/s the limit stays 10, native's; between 80 and 100 it is 8, which the "
        "Block Ack rarely reaches",
    ))  # fmt: skip
    # 5. Remedy below native and CoDel under 80 Mbit/s.
    lo = lambda r: r < REMEDY_SPLIT_MBPS  # noqa: E731
    d_nat = _pairs(t, "fig4", "remedy", "native", "rtt_ms", lo)
    d_codel = _pairs(t, "fig4", "remedy", "codel", "rtt_ms", lo)
    verdict = ("agrees" if _below(d_nat) and _below(d_codel) else
               "partly" if _below(d_nat) else "disagrees")  # fmt: skip
    out.append(Claim(
        "IV-B, Fig. 4(b)", "below 80 Mbit/s the proposal's RTT is below native's, and even "
        "below CoDel's", "below both", f"remedy - native: {d_nat.fmt(1, 0, 'ms')}; remedy - "
        f"CoDel: {d_codel.fmt(1, 0, 'ms')}", verdict,
        "the rate the remedy averages is the rate control's choice for each first attempt, above "
        "the rate frames finally go at, so its limit stays at 8-10 longer; where it does cut "
        "cwnd the queues stay as deep as its losses allow, while CoDel keeps the qdisc's "
        "sojourn near 5 ms (docs/paper-002.md)" if verdict != "agrees" else
        "limit 2-5 turns Block-Ack losses into TCP losses",
    ))  # fmt: skip
    # 6. Throughput similar (Fig. 4a).
    d_tp = _pairs(t, "fig4", "codel", "native", "throughput_mbps", lambda r: True)
    d_tr = _pairs(t, "fig4", "remedy", "native", "throughput_mbps", lambda r: True)
    tp = _region(t, "fig4", "native", "throughput_mbps", lambda r: True)
    small = max(abs(d_tp.value), abs(d_tr.value)) < 0.1 * tp.value
    out.append(Claim(
        "IV-B, Fig. 4(a)", "the three schemes give a similar throughput (CUBIC, no delay)",
        "similar", f"CoDel - native {d_tp.fmt(1, 1, 'Mbit/s')}; remedy - native "
        f"{d_tr.fmt(1, 1, 'Mbit/s')} (native mean {tp.value:.1f})",
        "agrees" if small else "disagrees", "differences under 10 % of native's mean"
        if small else "see the per-position table",
    ))  # fmt: skip
    # 7. CUBIC + 100 ms: CoDel's cwnd similar to native at >= 100 Mbit/s (Fig. 5c).
    high = lambda r: r >= HIGH_RATE_MBPS  # noqa: E731
    c5 = _region(t, "fig5", "codel", "cwnd", high)
    n5 = _region(t, "fig5", "native", "cwnd", high)
    c4 = _region(t, "fig4", "codel", "cwnd", high)
    ok = c5.value > c4.value and c5.value > 0.5 * n5.value
    out.append(Claim(
        "IV-B, Fig. 5(c)", "with 100 ms added, CoDel's cwnd at >= 100 Mbit/s is larger than "
        "without and similar to native's", "larger; similar", f"CoDel {c5.fmt(1, 0)} (no delay "
        f"{c4.fmt(1, 0)}); native {n5.fmt(1, 0)}", "agrees" if ok else "disagrees",
        "the bandwidth-delay product (about 1700 segments at 200 Mbit/s and 100 ms) needs the "
        "window, and CoDel drops only when the sojourn stays above 5 ms",
    ))  # fmt: skip
    # 8. Reno + 100 ms: CoDel's throughput lower at >= 100 Mbit/s (Fig. 6a).
    d6 = _pairs(t, "fig6", "codel", "native", "throughput_mbps", high)
    d5 = _pairs(t, "fig5", "codel", "native", "throughput_mbps", high)
    out.append(Claim(
        "IV-B, Fig. 6(a)", "Reno with 100 ms added: CoDel's throughput below the others at >= "
        "100 Mbit/s (and not so with CUBIC)", "lower", f"Reno: CoDel - native "
        f"{d6.fmt(1, 1, 'Mbit/s')}; CUBIC: {d5.fmt(1, 1, 'Mbit/s')}",
        ("agrees" if not _below(d5) else "partly") if _below(d6) else "disagrees",
        "after a CoDel drop Reno grows by one segment per RTT (100+ ms): it cannot refill a "
        "bandwidth-delay product of hundreds of segments within the run"
        + ("" if not _below(d5) else "; CUBIC loses too here: at the fading positions its "
           "losses come with spurious timeouts that CoDel's extra drops make more frequent"),
    ))  # fmt: skip
    # 9. Fig. 7: CoDel's throughput falls at a loss and recovers slowly.
    tl = t[t["sweep"] == "timeline"]
    if len(tl) == len(SCHEMES):
        v = {s: cell(tl, scheme=s).iloc[0] for s in SCHEMES}
        out.append(Claim(
            "IV-B, Fig. 7", "Reno, 100 ms, 216 Mbit/s: CoDel's throughput falls at a loss (15 s) "
            "and its cwnd regrows only slowly", "falls at 15 s",
            f"throughput native {v['native'].throughput_mbps:.1f}, CoDel "
            f"{v['codel'].throughput_mbps:.1f}, remedy {v['remedy'].throughput_mbps:.1f} Mbit/s; "
            f"average data rate {v['native'].rate_mbps:.0f} Mbit/s (figure timeline.png)",
            "agrees" if v["codel"].throughput_mbps < 0.9 * v["native"].throughput_mbps
            else "disagrees", "one run, as the paper's; the figure shows when CoDel dropped",
        ))  # fmt: skip
    return out


def figures(
    t: pd.DataFrame, root: Path, out: Path, anomaly: pd.DataFrame | None = None
) -> list[Path]:
    """Fig. 2 (the remedy's limit), Fig. 4-6 (and Reno without delay), Fig. 7 and the anomaly
    as PNG files; return their paths."""
    anomaly = pd.DataFrame() if anomaly is None else anomaly
    from matplotlib.figure import Figure

    from airtcp.plot import save

    out.mkdir(parents=True, exist_ok=True)
    paths = [save(fig2(t), out / "fig2.png")]
    main = t[t["sweep"] == "main"]
    measures = (("throughput_mbps", "average throughput [Mbit/s]"),
                ("rtt_ms", "average RTT [ms]"), ("cwnd", "average cwnd [segments]"))  # fmt: skip
    for case, title in CASE_TITLES.items():
        g = cell(main, case=case)
        if g.empty:
            continue
        fig = Figure(figsize=(13, 4), layout="constrained")
        axes = fig.subplots(1, 3)
        for ax, (m, label) in zip(axes, measures, strict=True):
            for s in SCHEMES:
                x = cell(g, scheme=s)
                ax.scatter(x["rate_mbps"], x[m], s=14, marker=MARKERS[s], color=COLORS[s],
                           alpha=0.7, label=LABELS[s])  # fmt: skip
            _rate_axis(ax)
            if m != "throughput_mbps":
                ax.set_yscale("log")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3, which="both")
        axes[0].legend(fontsize=8)
        fig.suptitle(title + " (one point per 60 s upload)")
        paths.append(save(fig, out / f"{case}.png"))
    paths += _timeline(t, root, out)
    paths += _anomaly_figure(anomaly, out)
    return paths


def _rate_axis(ax: Any) -> None:
    """The paper's rate axis: log scale over Table I's rates, 6.5 to 300 Mbit/s, as the range
    and the ticks (positions the runs do not reach show as a gap), no minor labels."""
    ax.set_xscale("log")
    ax.set_xticks(RATE_TICKS, [f"{v:g}" for v in RATE_TICKS])
    ax.set_xlim(RATE_TICKS[0] / 1.15, RATE_TICKS[-1] * 1.15)
    ax.xaxis.set_minor_formatter("")
    ax.set_xlabel("average data rate [Mbit/s]")


def fig2(t: pd.DataFrame) -> Figure:
    """Fig. 2: the proposal's Block-Ack retry limit against the averaged data rate (III-B):
    the steps of :data:`BA_RETRY_LIMITS` (a filled dot where a bound belongs to the step above),
    the paper's dashed line, and along the bottom the average data rate of each of the remedy's
    runs in ``t``. The runs do not record the limits their frames got, so none is drawn."""
    from matplotlib.figure import Figure

    lo, hi = RATE_TICKS[0] / 1.15, RATE_TICKS[-1] * 1.15
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    bounds = [low for low, _ in reversed(BA_RETRY_LIMITS)][1:]
    limits = [limit for _, limit in reversed(BA_RETRY_LIMITS)]
    xs = [lo, *bounds, hi]
    ax.step(xs, [*limits, limits[-1]], where="post", color="black", lw=1.8,
            label="the proposal's limit for III-C's averaged rate (III-B)")  # fmt: skip
    ax.plot(bounds, limits[1:], "o", color="black", ms=5, zorder=3)
    ax.plot(bounds, limits[:-1], "o", mfc="white", color="black", ms=5, zorder=3)
    (r0, l0), (r1, l1) = BA_RETRY_LINE
    line_x = np.geomspace(r0, r1, 50)
    line_y = l0 + (l1 - l0) * np.log10(line_x / r0) / np.log10(r1 / r0)
    ax.plot([lo, *line_x, hi], [l0, *line_y, l1], "--", color="tab:gray", lw=1.2,
            label="III-B's first step: linear in log(rate), 10-100 Mbit/s")  # fmt: skip
    runs = t[(t["sweep"] == "main") & (t["scheme"] == "remedy")] if "sweep" in t else t[:0]
    if len(runs):
        ax.plot(runs["rate_mbps"], np.full(len(runs), 0.6), "|", color=COLORS["remedy"], ms=14,
                alpha=0.5, label=f"the remedy's runs: average data rate ({len(runs)} uploads)")  # fmt: skip
    _rate_axis(ax)
    ax.set_ylabel("Block-Ack retransmission limit")
    ax.set_yticks(range(0, 12, 2))
    ax.set_ylim(0, 11)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="upper left")
    fig.suptitle("Fig. 2: the proposal's Block-Ack retry limit against the data rate")
    return fig


def _anomaly_figure(a: pd.DataFrame, out: Path) -> list[Path]:
    """Each station's throughput under each queue arrangement (mean over replications)."""
    from matplotlib.figure import Figure

    from airtcp.plot import save

    if a.empty:
        return []
    stations = sorted(a["station"].unique())
    fig = Figure(figsize=(9, 4), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / len(stations)
    queues = [q for q in ANOMALY_QUEUES if q in set(a["queue"])]
    for j, s in enumerate(stations):
        means = [cell(a, queue=q, station=s)["throughput_mbps"].mean() for q in queues]
        rate = a[a["station"] == s]["sta_rate_mbps"].mean()
        ax.bar(np.arange(len(queues)) + (j - (len(stations) - 1) / 2) * width, means, width,
               label=f"{s} (its uplink's rate {rate:.0f} Mbit/s)")  # fmt: skip
    ax.set_xticks(np.arange(len(queues)), [ANOMALY_QUEUES[q].replace(" (", "\n(").replace(", ", ",\n")
                                           .replace(" + ", "\n+ ") for q in queues], fontsize=8)  # fmt: skip
    ax.set_ylabel("TCP throughput [Mbit/s]")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    fig.suptitle(
        "Three stations downloading at 2, 6 and 8 m: the performance anomaly and airtime fairness"
    )
    return [save(fig, out / "anomaly.png")]


def _timeline(t: pd.DataFrame, root: Path, out: Path) -> list[Path]:
    """Fig. 7: throughput per second and cwnd against time, Reno, 100 ms, near 216 Mbit/s."""
    from matplotlib.figure import Figure

    from airtcp.plot import save

    tl = t[t["sweep"] == "timeline"]
    if len(tl) != len(SCHEMES) or "tcp" not in store.trace_kinds(root):
        return []
    con = store.connect(root)
    try:
        runs = con.execute(
            "SELECT run_hash, summary_json FROM runs WHERE run_hash IN "
            f"({', '.join('?' * len(tl))})",
            list(tl["run_hash"]),
        ).df()
        tcp = {
            r.scheme: con.execute(
                "SELECT time_ns, cwnd FROM tcp WHERE run_hash = ? ORDER BY time_ns", [r.run_hash]
            ).df()
            for r in tl.itertuples()
        }
    finally:
        con.close()
    goodput = {
        tl[tl["run_hash"] == h]["scheme"].iloc[0]: json.loads(s)["flows"][0].get(
            "interval_goodput_bps", []
        )
        for h, s in zip(runs["run_hash"], runs["summary_json"], strict=True)
    }
    fig = Figure(figsize=(9, 6), layout="constrained")
    a1, a2 = fig.subplots(2, 1, sharex=True)
    for s in SCHEMES:
        g = np.asarray(goodput.get(s, []), dtype=float) / 1e6
        a1.step(np.arange(1, len(g) + 1), g, where="pre", color=COLORS[s], lw=1, label=LABELS[s])
        c = tcp[s]  # the upload starts after the warm-up: its clock, as the goodput's
        a2.step(c["time_ns"] / 1e9 - WARMUP_S, c["cwnd"], where="post", color=COLORS[s], lw=0.8)
    a1.set_ylabel("throughput per second [Mbit/s]")
    a1.legend(fontsize=8)
    a2.set_ylabel("cwnd [segments]")
    a2.set_xlabel(
        "time since the upload started [s] (native and the proposal coincide: its limit stays 10)"
    )
    a2.set_xlim(left=0)
    for ax in (a1, a2):
        ax.grid(alpha=0.3)
    rate = cell(tl, scheme="native")["rate_mbps"].iloc[0]
    fig.suptitle(f"Fig. 7: Reno, 100 ms added RTT, average data rate {rate:.0f} Mbit/s "
                 f"({TIMELINE_DISTANCE_M:g} m)")  # fmt: skip
    return [save(fig, out / "timeline.png")]


def _rows(t: pd.DataFrame, case: str) -> list[str]:
    g = cell(t[t["sweep"] == "main"], case=case)
    head = ("| distance [m] | " + " | ".join(
        f"{LABELS[s]}: rate, throughput [Mbit/s], RTT [ms], cwnd" for s in SCHEMES) + " |")  # fmt: skip
    rows = [head, "|---|" + "---|" * len(SCHEMES)]
    for d, x in g.groupby("distance_m"):
        cells = []
        for s in SCHEMES:
            y = cell(x, scheme=s)
            cells.append(
                f"{y['rate_mbps'].mean():.0f}, {mean_ci(y['throughput_mbps'].to_numpy()).fmt(1, 1)}, "
                f"{mean_ci(y['rtt_ms'].to_numpy()).fmt(1, 0)}, {y['cwnd'].mean():.0f}"
            )
        rows.append(f"| {d:g} | " + " | ".join(cells) + " |")
    return rows


def _today_rows(t: pd.DataFrame) -> list[str]:
    """Every scheme's mean RTT and throughput below and above 80 Mbit/s, per case."""
    rows = ["| case | scheme | RTT < 80 Mbit/s [ms] | RTT >= 80 [ms] | throughput < 80 [Mbit/s] "
            "| throughput >= 80 [Mbit/s] |", "|---|---|---|---|---|---|"]  # fmt: skip
    lo = lambda r: r < REMEDY_SPLIT_MBPS  # noqa: E731
    hi = lambda r: r >= REMEDY_SPLIT_MBPS  # noqa: E731
    for case in CASE_TITLES:
        for s in SCHEMES:
            e = [_region(t, case, s, m, w) for m in ("rtt_ms", "throughput_mbps") for w in (lo, hi)]
            rows.append(f"| {CASE_SHORT[case]} | {LABELS[s]} | {e[0].fmt(1, 0)} | "
                        f"{e[1].fmt(1, 0)} | {e[2].fmt(1, 1)} | {e[3].fmt(1, 1)} |")  # fmt: skip
    return rows


def write_report(
    out: Path,
    t: pd.DataFrame,
    claim_list: list[Claim],
    paths: list[Path],
    quick: bool,
    anomaly: pd.DataFrame | None = None,
) -> Path:
    """Write report.md atomically; return its path."""
    anomaly = pd.DataFrame() if anomaly is None else anomaly
    per_case = []
    for case, title in CASE_TITLES.items():
        per_case += [f"### {title}", "", *_rows(t, case), ""]
    lines = [
        "# Paper 002 reproduced: bufferbloat of TCP uploads over 802.11n at low data rates",
        "",
        f"Made by `airtcp reproduce 002{' --quick' if quick else ''}` (airtcp {_version()}). "
        "Means with Student-t 95 % intervals; the schemes of a replication at a position "
        "share its seed (the same fades), and a difference is significant when its paired "
        "interval excludes 0. Scenario: the `paper-002` template (examples/paper-002.toml); "
        "the channel's calibration and every choice the paper leaves open: docs/paper-002.md.",
        "",
        "## Claims",
        "",
        *claims_table(claim_list),
        "",
        "## Beyond the paper: Linux today's queueing beside the paper's schemes",
        "",
        "mac80211's per-station FQ-CoDel (target 20 ms) with airtime fairness, no qdisc, 64 "
        "frames in the driver, and with AQL (5/12/24 ms of airtime); the rate control kept "
        "(ath9k's), so only the queues differ. Positions grouped by native's average data rate.",
        "",
        *_today_rows(t),
        "",
        "### Several stations: the performance anomaly and airtime fairness",
        "",
        "Three stations at 2, 6 and 8 m (no fades, Minstrel-HT) each download by CUBIC for 30 s "
        "from the server behind the AP; the AP's queues decide who gets the air.",
        "",
        *_anomaly_rows(anomaly),
        "",
        "## Per position (mean over replications)",
        "",
        *per_case,
        *figures_and_definitions(
            paths,
            __doc__,
            "Measures (also in the report), per 60 s upload:",
            {"fig2.png": FIG2_CAPTION},
        ),
    ]
    return write_report_lines(out, lines)


def reproduce(
    out: Path,
    *,
    quick: bool = False,
    workers: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Path:
    """Run the sweeps into ``out/store`` (resuming), draw ``out/figures`` and write
    ``out/report.md``; return the report's path."""
    root = out / "store"
    current = run_sweeps(sweeps(quick), root, workers=workers, progress=progress)
    t = table(root, current)
    anomaly = anomaly_table(root, current)
    claim_list = claims(t)
    paths = figures(t, root, out / "figures", anomaly)
    anomaly.to_csv(out / "anomaly.csv", index=False)
    t.to_csv(out / "runs.csv", index=False)
    (out / "claims.json").write_text(
        json.dumps([dataclasses.asdict(c) for c in claim_list], indent=1), encoding="utf-8"
    )
    return write_report(out, t, claim_list, paths, quick, anomaly)
