"""Paper 003 (Kashibuchi, Taleb, Jamalipour, Nemoto, Kato: TCP over ARF), end to end.

The sweeps (every run stored in ``OUT/store``, resumable), each over standard TCP and the
ARF-aware window (``wnd_max``) on the template ``paper-003`` (examples/paper-003.toml;
docs/scenarios.md#templates):

- ``line``: the station moving straight away from the AP (A-1, Fig. 4) and toward it (A-2,
  Fig. 5) at 1-10 m/s, across the cell, with the AP's queue at 100 packets (airtcp's default)
  and at 20 (which a 131072-byte window overflows; QualNet's is not given);
- ``rwp``: random waypoint at 0-10 m/s, no pause (B, Table I), at AP queues of 10 to 100
  packets (the trade-off between drops and idle air);
- ``rts``: B with RTS/CTS before every data frame (the case the equations are written for);
- ``upload``: B with the station uploading, wnd_max capping its cwnd (III-C-1);
- ``slot``: A-1 at 5 m/s with the observation slot T from 20 ms to 2 s (the paper gives none);
- ``timeline``: one traced A-1 run at 5 m/s: the rates, the windows set, cwnd.

Measures (also in the report):

- throughput: the TCP goodput of server -> station over the whole run [Mbit/s];
- packet drop rate: TCP data frames the sender's WiFi interface discarded (queue overflow or
  retry limit: the AP's in a download, the station's in an upload) over the TCP segments sent,
  in % (the only place a data segment is lost: the wired link drops nothing here).
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from airtcp import store, sweep
from airtcp.reproduce.common import (
    Claim,
    Estimate,
    _version,
    cell,
    claims_table,
    figures_and_definitions,
    mean_ci,
    paired_diff_ci,
    run_sweeps,
    scheme_curves,
    stored_runs,
    write_report_lines,
)

__all__ = ["SCHEMES", "claims", "reproduce", "sweeps", "table"]

SCHEMES = ("standard", "wnd_max")
LABELS = {"standard": "standard TCP", "wnd_max": "ARF-aware window"}
COLORS = {"standard": "tab:blue", "wnd_max": "tab:green"}
SEED = 2003
BASE: dict[str, Any] = {
    "template": "paper-003",
    "scheme": "standard",
    "mobility": "away",
    "speed_mps": 5.0,
    "rts_cts": False,
    "slot_ms": 100.0,
    "duration_s": 300.0,
    "queue_packets": 100,
    "direction": "download",
}
# The AP's queue: airtcp's default, and one a 131072-byte window overflows.
QUEUES = (100, 20)
# Table I of the paper: throughput [Mbit/s] and packet drop rate [%].
TABLE_I = {"wnd_max": (8.85, 0.017), "standard": (8.44, 0.351)}


# The AP queue of the traced run: one the window overflows, so both mechanisms show.
TIMELINE_QUEUE = 20
# The AP queues of the random-waypoint sweep (quick: the two of QUEUES).
RWP_QUEUES = (10, 20, 50, 100)
# Sweep names (the runs' ``name``) of the sweeps that are not the paper's main grid.
NAMES = {
    "paper-003-slot": "slot",
    "paper-003-timeline": "timeline",
    "paper-003-rts": "rts",
    "paper-003-up": "upload",
}


def _axes(quick: bool) -> tuple[list[float], int, float, list[float]]:
    """Speeds, replications, the random-waypoint duration and the slots T."""
    if quick:
        return [2.0, 6.0, 10.0], 3, 60.0, [20.0, 100.0, 1000.0]
    return [float(v) for v in range(1, 11)], 20, 300.0, [20.0, 50.0, 100.0, 500.0, 2000.0]


def sweeps(quick: bool) -> dict[str, sweep.SweepSpec]:
    """The reproduction's sweeps, by name; quick mode runs fewer points and replications."""
    speeds, reps, rwp_s, slots = _axes(quick)

    def spec(base: dict[str, Any], grid: dict[str, list[Any]], n: int = reps) -> sweep.SweepSpec:
        # Paired: both schemes of a replication share its seed, hence its walk (sweeps.md).
        return sweep.SweepSpec(base={**BASE, **base}, grid=grid, zips=[], replications=n,
                               seed=SEED, paired=("scheme",) if "scheme" in grid else ())  # fmt: skip

    rwp = {"mobility": "random-waypoint", "speed_mps": 10.0, "duration_s": rwp_s}
    traced = {"traces": {"rates": True, "tcp": True}, "queue_packets": TIMELINE_QUEUE,
              "report_interval_s": 1.0, "name": "paper-003-timeline"}  # fmt: skip
    return {
        "line": spec(
            {},
            {
                "scheme": list(SCHEMES),
                "mobility": ["away", "toward"],
                "speed_mps": speeds,
                "queue_packets": list(QUEUES),
            },
        ),
        # One set of walks for every queue too: the curve against the queue is paired.
        "rwp": sweep.SweepSpec(
            base={**BASE, **rwp},
            zips=[],
            replications=reps,
            seed=SEED,
            grid={"scheme": list(SCHEMES), "queue_packets": list(QUEUES if quick else RWP_QUEUES)},
            paired=("scheme", "queue_packets"),
        ),  # fmt: skip
        "rts": spec(
            {**rwp, "rts_cts": True, "name": "paper-003-rts"},
            {"scheme": list(SCHEMES), "queue_packets": list(QUEUES)},
        ),
        "upload": spec(
            {**rwp, "direction": "upload", "name": "paper-003-up"},
            {"scheme": list(SCHEMES), "queue_packets": list(QUEUES)},
        ),
        # At the queue where the bound matters; every T on the same seeds (paired).
        "slot": sweep.SweepSpec(
            base={**BASE, "scheme": "wnd_max", "name": "paper-003-slot", "queue_packets": 20},
            grid={"slot_ms": slots},
            zips=[],
            replications=max(3, reps // 2),
            seed=SEED,
            paired=("slot_ms",),
        ),  # fmt: skip
        # Both schemes on one walk (paired), the windows trace where the scheme runs.
        "timeline": sweep.SweepSpec(
            base={**BASE, **traced},
            grid={},
            replications=1,
            seed=SEED,
            paired=("scheme",),
            zips=[{"scheme": list(SCHEMES), "traces.windows": [False, True]}],
        ),  # fmt: skip
    }


def table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per stored run (of the run hashes ``only``, if given): its knobs and measures."""
    knobs = ("scheme", "mobility", "speed_mps", "slot_ms", "name", "queue_packets", "direction")
    runs = stored_runs(root, knobs, only)
    rows = []
    for r in runs.itertuples():
        s = json.loads(r.summary_json)
        up = r.direction == "upload"
        flow, mac = s["flows"][0], s["nodes"][1 if up else 0]["mac"]  # the sender's interface
        sent = max(1, flow["tcp"]["segments_sent"])
        rows.append(
            {
                "run_hash": r.run_hash,
                "replication": r.replication,
                "sweep": NAMES.get(r.name, "main"),
                "scheme": r.scheme,
                "mobility": r.mobility,
                "speed_mps": float(r.speed_mps),
                "slot_ms": float(r.slot_ms),
                "queue_packets": int(r.queue_packets),
                "throughput_bps": flow["goodput_bps"],
                "drop_rate_pct": 100.0 * (mac["drops_queue"] + mac["drops_retry_limit"]) / sent,
                "timeouts": flow["tcp"]["timeouts"],
                "duration_s": s["sim_seconds"],
            }
        )
    return pd.DataFrame(rows)


def _diff(g: pd.DataFrame, measure: str) -> Estimate:
    """wnd_max minus standard in ``measure``, paired by replication (common random numbers)."""
    per = {s: dict(zip(cell(g, scheme=s)["replication"], cell(g, scheme=s)[measure], strict=True))
           for s in SCHEMES}  # fmt: skip
    return paired_diff_ci(per["wnd_max"], per["standard"])


def _compare(t: pd.DataFrame, measure: str, **where: Any) -> tuple[int, int, int]:
    """(wnd_max significantly higher, significantly lower, conditions) of ``measure``."""
    sub = cell(t, **where)
    hi = lo = n = 0
    for _, g in sub.groupby("speed_mps"):
        d = _diff(g, measure)
        hi += d.low > 0
        lo += d.high < 0
        n += 1
    return hi, lo, n


def claims(t: pd.DataFrame) -> list[Claim]:
    """Each of the paper's claims beside airtcp's measure, with a verdict, per AP queue."""
    out: list[Claim] = []
    for q in sorted(set(t["queue_packets"]), reverse=True):
        main = t[(t["queue_packets"] == q) & (t["sweep"] == "main")]
        for c in _claims_at(main):
            out.append(dataclasses.replace(c, section=f"{c.section}, AP queue {q}"))
    return out


def _claims_at(t: pd.DataFrame) -> list[Claim]:
    out: list[Claim] = []
    line = t[t["mobility"].isin(["away", "toward"]) & (t["sweep"] == "main")]
    for mob, fig in (("away", "Fig. 4 (A-1)"), ("toward", "Fig. 5 (A-2)")):
        if cell(line, mobility=mob).empty:
            continue
        hi, lo, n = _compare(line, "throughput_bps", mobility=mob)
        out.append(
            Claim(
                f"IV, {fig}",
                "The ARF-aware window gives a higher throughput at every speed",
                "higher at 1-10 m/s",
                f"significantly higher at {hi} of {n} speeds, lower at {lo}",
                "matches" if hi == n else ("differs" if lo or not hi else "partly"),
                "paired 95 % interval of the difference at each speed (common random numbers)",
            )
        )
        hi, lo, n = _compare(line, "drop_rate_pct", mobility=mob)
        out.append(
            Claim(
                f"IV, {fig}",
                "The ARF-aware window gives a lower packet drop rate at every speed",
                "lower at 1-10 m/s",
                f"significantly lower at {lo} of {n} speeds, higher at {hi}",
                "matches" if lo == n else ("differs" if hi or not lo else "partly"),
                "drops: the AP's queue overflows and retry-limit discards over segments sent",
            )
        )
    rwp = t[t["mobility"] == "random-waypoint"]
    if rwp.empty:
        return out
    for k, (measure, scale, unit) in enumerate(
        (("throughput_bps", 1e-6, "Mbit/s"), ("drop_rate_pct", 1.0, "%"))
    ):
        est = {s: mean_ci(cell(rwp, scheme=s)[measure].to_numpy()) for s in SCHEMES}
        paper = {s: TABLE_I[s][k] for s in SCHEMES}
        d = _diff(rwp, measure)
        want_up = paper["wnd_max"] > paper["standard"]
        same_way = (d.low > 0) if want_up else (d.high < 0)
        other_way = (d.high < 0) if want_up else (d.low > 0)
        out.append(
            Claim(
                "IV, Table I (B)",
                f"Random waypoint: {'throughput' if k == 0 else 'packet drop rate'} with and without",
                f"{paper['wnd_max']} vs {paper['standard']} {unit}",
                f"{est['wnd_max'].fmt(scale, 3, unit)} vs {est['standard'].fmt(scale, 3, unit)}",
                "matches" if same_way else "differs",
                f"paired difference {d.fmt(scale, 3, unit)}"
                + ("" if same_way or other_way else ": not significant"),
            )
        )
    return out


def _curve(ax: Any, t: pd.DataFrame, measure: str, scale: float, **where: Any) -> None:
    scheme_curves(ax, t, "speed_mps", measure, scale, {s: (LABELS[s], COLORS[s]) for s in SCHEMES},
                  **where)  # fmt: skip
    ax.set_xlabel("speed [m/s]")


def figures(t: pd.DataFrame, root: Path, out: Path) -> list[Path]:
    """Fig. 4 and Fig. 5 per AP queue, the sensitivity to T and the time line of one run."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for q in sorted(set(t["queue_packets"]), reverse=True):
        main = t[(t["sweep"] == "main") & (t["queue_packets"] == q)]
        line = main[main["mobility"].isin(["away", "toward"])]
        paths.extend(_line_figures(line, out, "" if q == 100 else f"-q{q}", q))
    paths.extend(_queue_figure(t, out))
    paths.extend(_slot_figure(t, out))
    paths.extend(_timeline(t, root, out))
    return paths


def _line_figures(line: pd.DataFrame, out: Path, suffix: str, q: int) -> list[Path]:
    from matplotlib.figure import Figure

    from airtcp.plot import save

    paths = []
    for mob, no in (("away", 4), ("toward", 5)):
        if cell(line, mobility=mob).empty:
            continue
        fig = Figure(figsize=(9, 3.8), layout="constrained")
        a1, a2 = fig.subplots(1, 2)
        _curve(a1, line, "throughput_bps", 1e-6, mobility=mob)
        a1.set_ylabel("TCP throughput [Mbit/s]")
        _curve(a2, line, "drop_rate_pct", 1.0, mobility=mob)
        a2.set_ylabel("packet drop rate [%]")
        a1.legend(fontsize=8)
        fig.suptitle(f"Fig. {no}: the station moves {mob} {'from' if mob == 'away' else 'to'} the AP; "
                     f"AP queue {q} packets; mean and 95 % CI")  # fmt: skip
        paths.append(save(fig, out / f"fig{no}-{mob}{suffix}.png"))
    return paths


def _queue_figure(t: pd.DataFrame, out: Path) -> list[Path]:
    """Random waypoint against the AP's queue: what the bound buys (drops) and costs (air)."""
    from matplotlib.figure import Figure

    from airtcp.plot import save

    rwp = t[(t["sweep"] == "main") & (t["mobility"] == "random-waypoint")]
    if rwp["queue_packets"].nunique() < 2:
        return []
    fig = Figure(figsize=(9, 3.8), layout="constrained")
    a1, a2 = fig.subplots(1, 2)
    xs = sorted(rwp["queue_packets"].unique())
    # Left: wnd_max minus standard, paired by walk (the walks' own spread cancels).
    d = [_diff(cell(rwp, queue_packets=q), "throughput_bps") for q in xs]
    err = np.nan_to_num(np.array([[e.value - e.low, e.high - e.value] for e in d]).T)
    a1.errorbar(xs, [e.value / 1e6 for e in d], yerr=err / 1e6, marker="o", ms=3, capsize=3,
                color=COLORS["wnd_max"], label="ARF-aware window - standard TCP")  # fmt: skip
    a1.axhline(0, color="grey", lw=0.8)
    a1.set_ylabel("throughput difference [Mbit/s]")
    for scheme in SCHEMES:
        sub = cell(rwp, scheme=scheme)
        est = [mean_ci(cell(sub, queue_packets=q)["drop_rate_pct"].to_numpy()) for q in xs]
        err = np.nan_to_num(np.array([[e.value - e.low, e.high - e.value] for e in est]).T)
        a2.errorbar(xs, [e.value for e in est], yerr=err, marker="o", ms=3, capsize=3,
                    label=LABELS[scheme], color=COLORS[scheme])  # fmt: skip
    a2.set_ylabel("packet drop rate [%]")
    for ax in (a1, a2):
        ax.set_xscale("log")
        ax.set_xlabel("AP interface queue [packets]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Table I's random waypoint against the AP's queue; mean and 95 % CI")
    return [save(fig, out / "rwp-queue.png")]


def _variant_rows(t: pd.DataFrame) -> list[str]:
    """Random waypoint as the paper ran it, with RTS/CTS, and uploading: both schemes."""
    rows = [
        "| variant | AP queue | standard TCP [Mbit/s] | ARF-aware window [Mbit/s] | difference [Mbit/s] | drop rate standard [%] | drop rate wnd_max [%] |",
        "|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    rwp = t[t["mobility"] == "random-waypoint"]
    for sw, label in (
        ("main", "download (Table I)"),
        ("rts", "RTS/CTS"),
        ("upload", "upload (cwnd cap)"),
    ):
        for q, g in sorted(cell(rwp, sweep=sw).groupby("queue_packets"), reverse=True):
            thr = [mean_ci(cell(g, scheme=x)["throughput_bps"].to_numpy()) for x in SCHEMES]
            drop = [mean_ci(cell(g, scheme=x)["drop_rate_pct"].to_numpy()) for x in SCHEMES]
            d = _diff(g, "throughput_bps")
            rows.append(f"| {label} | {q} | {thr[0].fmt(1e-6, 2)} | {thr[1].fmt(1e-6, 2)} | "
                        f"{d.fmt(1e-6, 3)} | {drop[0].fmt(1, 3)} | {drop[1].fmt(1, 3)} |")  # fmt: skip
    return rows


def _slot_figure(t: pd.DataFrame, out: Path) -> list[Path]:
    from matplotlib.figure import Figure

    from airtcp.plot import save

    slot = t[t["sweep"] == "slot"]
    if slot.empty:
        return []
    fig = Figure(figsize=(6, 3.8), layout="constrained")
    ax = fig.add_subplot()
    xs = sorted(slot["slot_ms"].unique())
    est = [mean_ci(cell(slot, slot_ms=v)["throughput_bps"].to_numpy()) for v in xs]
    err = np.nan_to_num(np.array([[e.value - e.low, e.high - e.value] for e in est]).T / 1e6)
    ax.errorbar(xs, [e.value / 1e6 for e in est], yerr=err, marker="o", capsize=3)
    ax.set_xscale("log")
    ax.set_xlabel("observation slot T [ms]")
    ax.set_ylabel("TCP throughput [Mbit/s]")
    ax.set_title("ARF-aware window, A-1 at 5 m/s, AP queue 20: sensitivity to T")
    ax.grid(alpha=0.3)
    return [save(fig, out / "slot-sensitivity.png")]


def _timeline(t: pd.DataFrame, root: Path, out: Path) -> list[Path]:
    """The traced walk under both schemes: the AP's rate, the windows, goodput per second."""
    from matplotlib.figure import Figure

    from airtcp.plot import save

    if not {"windows", "rates", "tcp"} <= set(store.trace_kinds(root)):
        return []
    con = store.connect(root)
    try:
        runs = con.execute(
            """SELECT run_hash, "config.scheme" AS scheme, summary_json FROM runs
               WHERE "config.name" = 'paper-003-timeline'"""
        ).df()
        runs = runs[runs["run_hash"].isin(set(t[t["sweep"] == "timeline"]["run_hash"]))]
        hashes = dict(zip(runs["scheme"], runs["run_hash"], strict=True))
        if set(hashes) != set(SCHEMES):
            return []
        q = "SELECT * FROM {} WHERE run_hash = ? ORDER BY time_ns"
        rates = con.execute(q.format("rates"), [hashes["wnd_max"]]).df()
        wins = con.execute(q.format("windows"), [hashes["wnd_max"]]).df()
        tcp = {s: con.execute(q.format("tcp"), [hashes[s]]).df() for s in SCHEMES}
    finally:
        con.close()
    rates = rates[rates["node"] == 0]
    fig = Figure(figsize=(9, 8), layout="constrained")
    a1, a2, a3 = fig.subplots(3, 1, sharex=True)
    a1.step(rates["time_ns"] / 1e9, rates["rate_kbps"] / 1e3, where="post", lw=0.6)
    a1.set_ylabel("AP's data rate [Mbit/s]")
    a2.step(wins["time_ns"] / 1e9, wins["applied_bytes"] / 1460, where="post", lw=1,
            color=COLORS["wnd_max"], label="wnd_max (advertised window)")  # fmt: skip
    for scheme in SCHEMES:
        c = tcp[scheme]
        a2.step(c["time_ns"] / 1e9, c["cwnd"], where="post", lw=0.6, alpha=0.8,
                color=COLORS[scheme], ls="-" if scheme == "standard" else ":",
                label=f"cwnd, {LABELS[scheme]}")  # fmt: skip
    a2.axhline(131072 / 1460, color="grey", ls="--", lw=0.8, label="receive buffer")
    a2.set_ylim(0, 1.5 * 131072 / 1460)  # cwnd grows past the buffer when nothing is lost
    a2.set_ylabel("window [segments of 1460 B]")
    a2.legend(fontsize=7, loc="upper right")
    for r in runs.itertuples():
        g = json.loads(r.summary_json)["flows"][0].get("interval_goodput_bps", [])
        a3.step(np.arange(1, len(g) + 1), np.asarray(g) / 1e6, where="pre", lw=1,
                color=COLORS[r.scheme], label=LABELS[r.scheme])  # fmt: skip
    a3.set_ylabel("goodput per second [Mbit/s]")
    a3.set_xlabel(f"time [s] (A-1 at {BASE['speed_mps']:g} m/s: 10 m at 0 s, 360 m at 70 s)")
    a3.legend(fontsize=8)
    for ax in (a1, a2, a3):
        ax.grid(alpha=0.3)
    fig.suptitle(f"One walk, both schemes (AP queue {TIMELINE_QUEUE}): rates, windows, goodput")
    return [save(fig, out / "timeline.png")]


def write_report(
    out: Path, t: pd.DataFrame, claim_list: list[Claim], paths: list[Path], quick: bool
) -> Path:
    """Write report.md atomically; return its path."""
    line = t[t["mobility"].isin(["away", "toward"]) & (t["sweep"] == "main")]
    rows = ["| AP queue | mobility | speed [m/s] | standard TCP [Mbit/s] | ARF-aware window [Mbit/s] | drop rate standard [%] | drop rate wnd_max [%] |",
            "|---|---|---|---|---|---|---|"]  # fmt: skip
    for (q, mob, v), g in line.groupby(["queue_packets", "mobility", "speed_mps"]):
        cells = [
            mean_ci(cell(g, scheme=s)["throughput_bps"].to_numpy()).fmt(1e-6, 2) for s in SCHEMES
        ]
        drops = [mean_ci(cell(g, scheme=s)["drop_rate_pct"].to_numpy()).fmt(1, 3) for s in SCHEMES]
        rows.append(f"| {q} | {mob} | {v:g} | " + " | ".join(cells + drops) + " |")
    slot = t[t["sweep"] == "slot"]
    slot_rows = [
        f"| {v:g} | {mean_ci(cell(slot, slot_ms=v)['throughput_bps'].to_numpy()).fmt(1e-6, 2)} | "
        f"{mean_ci(cell(slot, slot_ms=v)['drop_rate_pct'].to_numpy()).fmt(1, 3)} |"
        for v in sorted(slot["slot_ms"].unique())
    ]
    lines = [
        "# Paper 003 reproduced: TCP over adaptive multi-rate 802.11 (ARF)",
        "",
        f"Made by `airtcp reproduce 003{' --quick' if quick else ''}` (airtcp {_version()}). "
        "Means with Student-t 95 % intervals; both schemes of a replication share its seed "
        "(the same walk), and a difference is significant when its paired interval excludes 0. Scenario: the `paper-003` template (examples/paper-003.toml).",
        "",
        "## Claims",
        "",
        *claims_table(claim_list),
        "",
        "## What the paper leaves open, and what airtcp chose",
        "",
        "- The server: on a 100 Mbit/s, 1 ms wired link behind the AP.",
        "- A run: A-1 from 10 m to 360 m (10 m inside the 370 m edge), A-2 the reverse, the "
        "whole run measured; B for a fixed time in the square inscribed in the cell, minimum "
        "speed 0 as the paper (its mean speed decays: Yoon, Liu, Noble).",
        "- The observation slot T: 100 ms (sensitivity below); the window stays within [MSS, "
        "buffer]; a connection idle in the last slot is not bounded from it.",
        "- Reception by sensitivity alone (QualNet), beacons every 100 TU at 6 Mbit/s.",
        "- The AP's interface queue: the paper does not give QualNet's. At airtcp's 100 packets a "
        "131072-byte window (at most 89 segments) never fills it and standard TCP loses "
        "nothing; at 20 it overflows. Every claim is checked at both.",
        "",
        "## Per speed",
        "",
        *rows,
        "",
        "## Random waypoint: the AP's queue, RTS/CTS and uploading",
        "",
        "In an upload the queue that fills is the station's (the same `queue_packets`), and "
        "wnd_max caps the station's cwnd instead of its advertised window.",
        "",
        *_variant_rows(t),
        "",
        "## Sensitivity to the observation slot T (A-1, 5 m/s, AP queue 20)",
        "",
        "| T [ms] | ARF-aware window [Mbit/s] | drop rate [%] |",
        "|---|---|---|",
        *slot_rows,
        "",
        *figures_and_definitions(paths, __doc__, "Measures (also in the report):"),
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
    with warnings.catch_warnings():
        # B uses the paper's minimum speed 0 on purpose (stated in the report).
        warnings.filterwarnings("ignore", message=r".*speed_min_mps = 0", category=UserWarning)
        current = run_sweeps(sweeps(quick), root, workers=workers, progress=progress)
        t = table(root, current)
    claim_list = claims(t)
    paths = figures(t, root, out / "figures")
    t.to_csv(out / "runs.csv", index=False)
    return write_report(out, t, claim_list, paths, quick)
