"""Paper 003 (Kashibuchi, Taleb, Jamalipour, Nemoto, Kato: TCP over ARF), end to end.

The sweeps (every run stored in ``OUT/store``, resumable), each over standard TCP and the
ARF-aware window (``wnd_max``) on the template ``paper-003`` (examples/paper-003.toml;
docs/scenarios.md#templates):

- ``line``: the station moving straight away from the AP (A-1, Fig. 4) and toward it (A-2,
  Fig. 5) at 1-10 m/s, across the cell, with the AP's queue at 20 packets (which a
  131072-byte window overflows: the paper's claims are judged there) and at 100 (airtcp's
  default, where nothing is dropped);
- ``queue10``: A-1 and A-2 at 2, 6 and 10 m/s (quick: A-1 at 10 m/s) at an AP queue of 10
  packets, where a drop costs more: the queue as the cause of Fig. 4 and 5's results, tested;
- ``rwp``: random waypoint at 0-10 m/s, no pause (B, Table I), at AP queues of 10 to 100
  packets (the trade-off between drops and idle air);
- ``aarf``: B at the claims' queue with AARF in place of ARF (fewer rate switches), on
  ``rwp``'s walks: §IV's "more effective because ARF switches many times", tested;
- ``rts``: B with RTS/CTS before every data frame (the case the equations are written for);
- ``upload``: B with the station uploading, wnd_max capping its cwnd (III-C-1);
- ``slot``: A-1 at 5 m/s with the observation slot T from 20 ms to 2 s (the paper gives none);
- ``eq11``: B on ``rwp``'s walks with the ARF-aware window's Eq. 11 RTT read three ways (the
  smoothed RTT, the paper's; the least sample; the RTT of empty queues at the new rate), each
  recomputed on rate changes only (the paper's) or also at every slot's end, at the claims'
  AP queue and (full run) at 50 packets, where standard TCP drops about as often as the
  paper's: the setting under which Table I's drop reduction appears, found;
- ``timeline``: one traced A-1 run at 5 m/s under both schemes: the rates, the windows set,
  cwnd, and (wnd_max's run) every MAC transmission (ARF's first frame after a rate increase,
  §III-B-1).

Each of the paper's claims is a ``reproduce.claims`` claim judged by the one verdict rule on a
95 % interval (``analyse``); the claims the reproduction cannot judge are in ``NOT_EVALUABLE``.

Measures (also in the report):

- throughput: the TCP goodput of server -> station over the whole run [Mbit/s];
- packet drop rate: TCP data frames the sender's WiFi interface discarded (queue overflow or
  retry limit: the AP's in a download, the station's in an upload) over the TCP segments sent,
  in % (the only place a data segment is lost: the wired link drops nothing here);
- throughput gain, drop-rate change: mean(wnd_max) / mean(standard) - 1 over the runs of one
  condition, both schemes of a replication on the same walk (paired);
- ARF's first frame after an increase: the first data frame a sender transmits to its peer
  after ARF raised the rate toward it (the ``rates`` trace), failed when its outcome in the
  ``mac_tx`` trace is not ``ok``; compared with every other data frame of the same sender in
  the same 10 s block of the traced run.
"""

from __future__ import annotations

import dataclasses
import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from airtcp import store, sweep
from airtcp.reproduce import claims as cl
from airtcp.reproduce.common import Claim, cell, fit_title, scheme_curves, stored_runs
from airtcp.reproduce.paper import (
    Context,
    Headline,
    NotEvaluable,
    Report,
    pick_headlines,
    under_condition,
)
from airtcp.result import load_summary

__all__ = [
    "ID",
    "NOT_EVALUABLE",
    "SCHEMES",
    "TEMPLATE",
    "TITLE",
    "analyse",
    "claims",
    "sweeps",
    "table",
]

ID = "003"
TITLE = "TCP over adaptive multi-rate 802.11 (ARF)"
TEMPLATE = "paper-003"
DEFINITIONS = "Measures (also in the report):"

# B uses the paper's minimum speed 0 on purpose (stated in the report): the sweeps' expansion
# warns of it for every run; the driver silences this message alone (reproduce.paper).
EXPECTED_WARNINGS = (r".*speed_min_mps = 0",)

SCHEMES = ("standard", "wnd_max")
LABELS = {"standard": "standard TCP", "wnd_max": "ARF-aware window"}
COLORS = {"standard": "tab:blue", "wnd_max": "tab:green"}
SEED = 2003
BASE: dict[str, Any] = {
    "template": TEMPLATE,
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
# The queue the claims are judged at. The paper does not give QualNet's, but its Table I has
# standard TCP dropping 0.351 % of its packets, so its queue overflowed; at airtcp's 100 packets
# a 131072-byte window (at most 89 segments) never fills it and nothing is dropped. 20 packets
# is the queue of QUEUES that overflows; the other queues are in the report's own section.
PAPER_QUEUE = 20
# Table I of the paper: throughput [Mbit/s] and packet drop rate [%].
TABLE_I = {"wnd_max": (8.85, 0.017), "standard": (8.44, 0.351)}

# The declared tolerances of the one verdict rule (reproduce.claims), fixed before any run:
# a level (a throughput, a drop rate) agrees when its whole 95 % interval lies within 10 % of
# the paper's value; a relative change (a gain) within half the paper's change, so the band
# never reaches 0 and an interval beyond it on the paper's side is "agrees in direction";
# "higher" / "lower" is the sign of the paired difference.
VALUE_TOLERANCE = 0.10
CHANGE_TOLERANCE = 0.5
# Paired intervals: Student t below this many replications (a bootstrap interval undercovers at
# n = 2-3), BCa from here on (reproduce.claims).
BCA_MIN_N = 10

# The queue of the `queue10` sweep: one shorter than the claims', where drops cost more.
CAUSE_QUEUE = 10
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
    "paper-003-aarf": "aarf",
    "paper-003-eq11": "eq11",
}
# The eq11 sweep's readings of Eq. 11's RTT (the template's `rtt`) and their labels.
EQ11_RTTS = {
    "smoothed": "smoothed RTT (the paper's)",
    "min": "least RTT sample",
    "empty": "RTT of empty queues",
}


def _eq11_queues(quick: bool) -> list[int]:
    """The AP queues of the eq11 sweep: the claims' and (full run) the one where standard TCP
    drops about as often as the paper's (0.27 % at 50 packets against 0.351 %)."""
    return [PAPER_QUEUE] if quick else [PAPER_QUEUE, 50]


def _axes(quick: bool) -> tuple[list[float], int, float, list[float]]:
    """Speeds, replications, the random-waypoint duration and the slots T."""
    if quick:
        return [2.0, 6.0, 10.0], 3, 60.0, [20.0, 1000.0]
    return [float(v) for v in range(1, 11)], 20, 300.0, [20.0, 50.0, 100.0, 500.0, 2000.0]


def sweeps(quick: bool) -> dict[str, sweep.SweepSpec]:
    """The reproduction's sweeps, by name; quick mode runs fewer points and replications."""
    speeds, reps, rwp_s, slots = _axes(quick)

    def spec(base: dict[str, Any], grid: dict[str, list[Any]], n: int = reps) -> sweep.SweepSpec:
        # Paired: both schemes of a replication share its seed, hence its walk (sweeps.md).
        return sweep.SweepSpec(base={**BASE, **base}, grid=grid, zips=[], replications=n,
                               seed=SEED, paired=("scheme",) if "scheme" in grid else ())  # fmt: skip

    rwp = {"mobility": "random-waypoint", "speed_mps": 10.0, "duration_s": rwp_s}
    traced = {"traces": {"rates": True, "tcp": True},
              "queue_packets": TIMELINE_QUEUE, "report_interval_s": 1.0,
              "name": "paper-003-timeline"}  # fmt: skip
    # One set of walks for every queue too: the curve against the queue is paired.
    rwp_spec = sweep.SweepSpec(
        base={**BASE, **rwp},
        zips=[],
        replications=reps,
        seed=SEED,
        grid={"scheme": list(SCHEMES), "queue_packets": list(QUEUES if quick else RWP_QUEUES)},
        paired=("scheme", "queue_packets"),
    )  # fmt: skip
    with warnings.catch_warnings():  # B's minimum speed 0 is the paper's (see above)
        warnings.filterwarnings("ignore", message=r".*speed_min_mps = 0", category=UserWarning)
        runs = sweep.expand(rwp_spec)
    walks = [seed for _, seed in sorted({(r.replication, r.seed) for r in runs})]
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
        # The cause the queue is, for Fig. 4 and 5: a queue shorter still (quick: A-1, 10 m/s).
        "queue10": spec(
            {"queue_packets": CAUSE_QUEUE},
            {
                "scheme": list(SCHEMES),
                "mobility": ["away"] if quick else ["away", "toward"],
                "speed_mps": [10.0] if quick else [2.0, 6.0, 10.0],
            },
        ),
        "rwp": rwp_spec,
        # B at the claims' queue with ARF's switching slowed (AARF), on rwp's walks (its seeds):
        # the §IV explanation "more effective because ARF switches many times", tested.
        "aarf": sweep.SweepSpec(
            base={
                **BASE,
                **rwp,
                "queue_packets": PAPER_QUEUE,
                "mac": {"rate_control": "aarf"},
                "name": "paper-003-aarf",
            },
            grid={"scheme": list(SCHEMES)},
            zips=[],
            replications=len(walks),
            seed=SEED,
            seeds=tuple(walks),
            paired=("scheme",),
        ),  # fmt: skip
        "rts": spec(
            {**rwp, "rts_cts": True, "name": "paper-003-rts"},
            {"scheme": list(SCHEMES), "queue_packets": list(QUEUES)},
        ),
        "upload": spec(
            {**rwp, "direction": "upload", "name": "paper-003-up"},
            {"scheme": list(SCHEMES), "queue_packets": list(QUEUES)},
        ),
        # Eq. 11's RTT three ways, each on rate changes only or every slot too, on rwp's walks.
        "eq11": sweep.SweepSpec(
            base={**BASE, **rwp, "scheme": "wnd_max", "name": "paper-003-eq11"},
            grid={
                "rtt": list(EQ11_RTTS),
                "every_slot": [False, True],
                "queue_packets": _eq11_queues(quick),
            },
            zips=[],
            replications=len(walks),
            seed=SEED,
            seeds=tuple(walks),
            paired=("rtt", "every_slot", "queue_packets"),
        ),  # fmt: skip
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
            zips=[
                {
                    "scheme": list(SCHEMES),
                    "traces.windows": [False, True],
                    "traces.mac_tx": [False, True],
                }
            ],  # fmt: skip
        ),  # fmt: skip
    }


def table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per stored run (of the run hashes ``only``, if given): its knobs and measures."""
    knobs = ("scheme", "mobility", "speed_mps", "slot_ms", "name", "queue_packets", "direction")
    runs = stored_runs(root, knobs, only)
    rows = []
    for r in runs.itertuples():
        s = load_summary(r.summary_json)
        params = json.loads(r.params)
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
                "rtt": params.get("rtt", "smoothed"),
                "every_slot": bool(params.get("every_slot", False)),
                "queue_packets": int(r.queue_packets),
                "throughput_bps": flow["goodput_bps"],
                "drop_rate_pct": 100.0 * (mac["drops_queue"] + mac["drops_retry_limit"]) / sent,
                "timeouts": flow["tcp"]["timeouts"],
                "duration_s": s["sim_seconds"],
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Estimates


def _per_rep(g: pd.DataFrame, measure: str) -> dict[str, dict[int, float]]:
    """Each scheme's ``measure`` by replication (the schemes of a replication share a walk)."""
    return {
        s: dict(zip(cell(g, scheme=s)["replication"], cell(g, scheme=s)[measure], strict=True))
        for s in SCHEMES
    }


def _kind(n: int) -> str:
    return "t" if n < BCA_MIN_N else "bca"


def paired_diff(g: pd.DataFrame, measure: str, level: float = 0.95) -> cl.Estimate:
    """wnd_max minus standard in ``measure``, paired by replication (common random numbers):
    Student t below BCA_MIN_N pairs, BCa from there on; the interval at ``level``."""
    per = _per_rep(g, measure)
    n = len(set(per["wnd_max"]) & set(per["standard"]))
    return cl.paired_difference(per["wnd_max"], per["standard"], kind=_kind(n), level=level)


def simultaneous(k: int, level: float = 0.95) -> float:
    """Each of ``k`` intervals' level for a claim over k conditions to hold at ``level`` as a
    whole (Bonferroni): with k intervals at 95 % each, one of ten lying on the wrong side of 0
    by chance is likely, and "at every speed" would differ by chance alone."""
    return cl.family_level(k, level)


def paired_change(g: pd.DataFrame, measure: str) -> cl.Estimate:
    """mean(wnd_max) / mean(standard) - 1 in ``measure`` over paired replications. From
    BCA_MIN_N pairs on the paired BCa ratio (reproduce.claims.paired_ratio); below, where a
    bootstrap undercovers, the paired Student-t interval of the difference over standard
    TCP's mean. No interval when standard TCP's mean is 0 (no change to speak of)."""
    per = _per_rep(g, measure)
    keys = sorted(set(per["wnd_max"]) & set(per["standard"]))
    a = np.array([per["wnd_max"][k] for k in keys], float)
    b = np.array([per["standard"][k] for k in keys], float)
    if len(b) == 0 or b.mean() == 0:
        return cl.Estimate(math.nan, math.nan, math.nan, len(b), "no change: standard is 0")
    if len(keys) >= BCA_MIN_N:
        return cl.paired_ratio(a, b)
    d = cl.paired_difference(a, b, kind="t")
    m = float(b.mean())
    return cl.Estimate(d.point / m, d.low / m, d.high / m, d.n,
                       "paired Student t of the difference over the baseline's mean")  # fmt: skip


def level(x: Any) -> cl.Estimate:
    """A non-negative quantity's mean: Student t clipped at 0 below BCA_MIN_N runs, BCa
    (inside the data's range) from there on."""
    x = np.asarray(x, float)
    return cl.mean_interval(x, _kind(len(x)), floor=0.0)


# ---------------------------------------------------------------------------------------------
# Claims


def every(parts: list[tuple[str, cl.Verdict]], what: str) -> cl.Verdict:
    """The declared combination of a claim over several conditions ("at every speed"): agrees
    when it agrees at every condition, differs when it differs at any (that one is named),
    inconclusive otherwise, with the replications the least decided condition needs."""
    if not parts:
        raise ValueError("no condition to judge")
    differ = [name for name, v in parts if v.word == cl.DIFFERS]
    if differ:
        first = next(v for name, v in parts if name == differ[0])
        return cl.Verdict(cl.DIFFERS, first.estimate,
                          f"the interval lies on the other side at {', '.join(differ)} ({what})")  # fmt: skip
    open_ = [(name, v) for name, v in parts if v.word != cl.AGREES]
    if not open_:
        return cl.Verdict(cl.AGREES, parts[0][1].estimate, f"agrees at every {what}")
    needs = [v.needed for _, v in open_]
    need = None if any(n is None for n in needs) else max(n for n in needs if n is not None)
    undecided = ", ".join(name for name, _ in open_)
    rest = "; agrees at the others" if len(open_) < len(parts) else ""
    if need is None:
        rest += "; no number of replications decides it (an interval's point on 0)"
    else:
        rest += f"; about {need} replications would decide it"
    return cl.Verdict(cl.INCONCLUSIVE, open_[0][1].estimate,
                      f"undecided at {undecided} ({what}){rest}", need)  # fmt: skip


def _iv(e: cl.Estimate, scale: float, digits: int, sign: bool = True) -> str:
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    if not e.has_interval:
        return f.format(e.point * scale) if not math.isnan(e.point) else "-"
    return (f"{f.format(e.point * scale)} [{f.format(e.low * scale)}, "
            f"{f.format(e.high * scale)}]")  # fmt: skip


def _pct(e: cl.Estimate) -> str:
    return _iv(e, 100.0, 1) + " %" if not math.isnan(e.point) else "-"


def _judged(claim: cl.Claim, verdict: cl.Verdict, shown: str, cause: str = "") -> Claim:
    """The row; a "differs" (or "agrees in direction") row's why names its cause and run."""
    why = f"{verdict.reason}."
    if verdict.word in (cl.DIFFERS, cl.AGREES_IN_DIRECTION) and cause:
        why += f" {cause}"
    return claim.row(verdict, shown, why)


_LINE = {
    "away": ("IV, Fig. 4 (A-1)", "Fig. 4", "A-1, away from the AP"),
    "toward": ("IV, Fig. 5 (A-2)", "Fig. 5", "A-2, toward the AP"),
}
_QUOTE = (
    '"achieves a higher throughput and a lower packet drop rate regardless of the movement speed"'
)


def line_claims(t: pd.DataFrame, q: int, causes: dict[str, str] | None = None) -> list[Claim]:
    """Fig. 4 and 5 at AP queue ``q``: throughput higher and drop rate lower at every speed,
    each speed's paired difference judged on its own, combined by :func:`every`."""
    causes = causes or {}
    out = []
    line = cell(t, sweep="main", queue_packets=q)
    for mob, (section, fig, label) in _LINE.items():
        sub = cell(line, mobility=mob)
        if sub.empty:
            continue
        for measure, sign, text, scale, digits, unit in (
            ("throughput_bps", +1, "throughput", 1e-6, 2, "Mbit/s"),
            ("drop_rate_pct", -1, "packet drop rate", 1.0, 3, "points"),
        ):
            claim = cl.Claim(
                f"{fig}-{measure}",
                cl.Where("IV", fig, _QUOTE),
                cl.Quantity(
                    f"{label}: wnd_max minus standard TCP in {text} at each speed (AP queue {q})",
                    unit,
                ),
                f"{'higher' if sign > 0 else 'lower'} at every speed, 1-10 m/s ({_QUOTE})",
                cl.Direction(sign),
            )
            parts, shown = [], []
            each = simultaneous(sub["speed_mps"].nunique())
            for v, g in sub.groupby("speed_mps"):
                d = paired_diff(g, measure, each)
                parts.append((f"{v:g} m/s", claim.judge(d)))
                shown.append(f"{v:g} m/s: {_iv(d, scale, digits)}")
            verdict = every(parts, "speed; each speed's paired difference judged on its own")
            airtcp = (f"{unit} (n={d.n}, {d.method}; each speed's interval at {each:.2%}, "
                      "95 % for all speeds together): " + "; ".join(shown))  # fmt: skip
            row = _judged(claim, verdict, airtcp, causes.get(f"{measure}-{mob}", ""))
            out.append(dataclasses.replace(row, section=section))
    return out


def table_claims(rwp: pd.DataFrame, causes: dict[str, str] | None = None) -> list[Claim]:
    """Table I (random waypoint, one AP queue): the gain in throughput, the change in drop
    rate, and standard TCP's two levels."""
    causes = causes or {}
    out = []
    paper_gain = TABLE_I["wnd_max"][0] / TABLE_I["standard"][0] - 1
    paper_drop = TABLE_I["wnd_max"][1] / TABLE_I["standard"][1] - 1
    where = cl.Where("IV", "Table I", '"the proposed scheme exhibits similar performance"')
    for key, measure, paper_change, text, paper in (
        ("gain", "throughput_bps", paper_gain, "throughput gain of wnd_max over standard TCP",
         f"8.85 vs 8.44 Mbit/s ({paper_gain * 100:+.1f} %)"),
        ("drops", "drop_rate_pct", paper_drop, "change in packet drop rate, wnd_max over standard",
         f"0.017 vs 0.351 % ({paper_drop * 100:+.1f} %)"),
    ):  # fmt: skip
        claim = cl.Claim(
            f"table1-{key}",
            where,
            cl.Quantity(f"Random waypoint (B): {text}", "%"),
            paper,
            cl.Within(paper_change, CHANGE_TOLERANCE, relative=True, neutral=0.0),
        )
        e = paired_change(rwp, measure)
        means = {s: cell(rwp, scheme=s)[measure].mean() for s in SCHEMES}
        scale, unit = (1e-6, "Mbit/s") if measure == "throughput_bps" else (1.0, "%")
        shown = (f"{means['wnd_max'] * scale:.3f} vs {means['standard'] * scale:.3f} {unit} "
                 f"({_pct(e)}, n={e.n}, {e.method})")  # fmt: skip
        verdict = claim.judge(e)
        if math.isnan(e.point):
            verdict = cl.Verdict(cl.INCONCLUSIVE, e, "standard TCP dropped nothing: no change "
                                 "to judge, at any number of replications")  # fmt: skip
        out.append(_judged(claim, verdict, shown, causes.get(key, "")))
    std = cell(rwp, scheme="standard")
    for key, measure, value, scale, unit, text in (
        ("thr", "throughput_bps", TABLE_I["standard"][0], 1e6, "Mbit/s", "throughput"),
        ("drop", "drop_rate_pct", TABLE_I["standard"][1], 1.0, "%", "packet drop rate"),
    ):
        claim = cl.Claim(
            f"table1-standard-{key}",
            where,
            cl.Quantity(f"Random waypoint (B): standard TCP's {text}", unit),
            f"{value:g} {unit}",
            cl.Within(value * scale, VALUE_TOLERANCE, relative=True),
        )
        e = level(std[measure].to_numpy())
        shown = f"{_iv(e, 1 / scale, 3, sign=False)} {unit} (n={e.n}, {e.method})"
        out.append(_judged(claim, claim.judge(e), shown, causes.get(key, "")))
    section = f"IV, Table I (B), AP queue {int(rwp['queue_packets'].iloc[0])}"
    return [dataclasses.replace(c, section=section) for c in out]


# ARF's first frames are compared within blocks of this many seconds of one sender in one run:
# the units resampled (frames close in time are not independent; blocks nearly are).
BLOCK_S = 10.0


def first_frames(root: Path, hashes: set[str]) -> pd.DataFrame | None:
    """Per block of BLOCK_S seconds of one sender (AP or station) in one traced run (of
    ``hashes``): the share of failed first data frames after an ARF rate increase, and of every
    other data frame (None without the traces)."""
    if not {"mac_tx", "rates"} <= set(store.trace_kinds(root)) or not hashes:
        return None
    con = store.connect(root)
    try:
        marks = ", ".join("?" for _ in hashes)
        tx = con.execute(
            "SELECT run_hash, node, dst, start_ns, outcome FROM mac_tx "
            f"WHERE kind = 'data' AND run_hash IN ({marks}) ORDER BY start_ns",
            list(hashes),
        ).df()
        rates = con.execute(
            "SELECT run_hash, node, peer, time_ns, rate_kbps FROM rates "
            f"WHERE run_hash IN ({marks}) ORDER BY time_ns",
            list(hashes),
        ).df()
    finally:
        con.close()
    if tx.empty or rates.empty:
        return None
    rows = []
    for (h, node, peer), r in rates.groupby(["run_hash", "node", "peer"]):
        frames = tx[(tx["run_hash"] == h) & (tx["node"] == node) & (tx["dst"] == peer)]
        starts = frames["start_ns"].to_numpy()
        failed = (frames["outcome"] != "ok").to_numpy()
        kbps = r["rate_kbps"].to_numpy()
        ups = r["time_ns"].to_numpy()[1:][np.diff(kbps) > 0]
        idx = np.searchsorted(starts, ups)
        first = np.zeros(len(starts), bool)
        first[idx[idx < len(starts)]] = True
        block = (starts // int(BLOCK_S * 1e9)).astype(int)
        for b in np.unique(block):
            f, o = first & (block == b), ~first & (block == b)
            if f.any() and o.any():
                rows.append({"run_hash": h, "node": int(node), "block": int(b),
                             "first_n": int(f.sum()), "first_failed": float(failed[f].mean()),
                             "other_n": int(o.sum()), "other_failed": float(failed[o].mean())})  # fmt: skip
    return pd.DataFrame(rows) if rows else None


def arf_claim(units: pd.DataFrame) -> Claim:
    """§III-B-1: ARF tends to fail the first data frame after an increase (more often than its
    other data frames), paired within each block of one sender in one traced run."""
    claim = cl.Claim(
        "arf-first-frame",
        cl.Where("III-B-1", "", '"the ARF algorithm tends to fail in transmitting the first DATA '
                 'frame after increasing the data rate"'),  # fmt: skip
        cl.Quantity("ARF: failure share of the first data frame after a rate increase minus "
                    "that of the other data frames (the traced run, A-1 at 5 m/s, AP queue 20)", "points"),
        '"tends to fail" the first frame after an increase (more often than other frames)',
        cl.Direction(+1),
    )  # fmt: skip
    a, b = units["first_failed"].to_numpy(), units["other_failed"].to_numpy()
    e = cl.paired_difference(a, b, kind=_kind(len(a)))
    first = float((units["first_failed"] * units["first_n"]).sum() / units["first_n"].sum())
    other = float((units["other_failed"] * units["other_n"]).sum() / units["other_n"].sum())
    shown = (f"{first * 100:.1f} % of {units['first_n'].sum()} first frames failed, "
             f"{other * 100:.1f} % of {units['other_n'].sum()} others; per block of "
             f"{BLOCK_S:g} s of one sender: {_iv(e, 100, 1)} points (n={e.n} blocks, {e.method})")  # fmt: skip
    return _judged(claim, claim.judge(e), shown)


def switching_claim(t: pd.DataFrame) -> Claim | None:
    """§IV: the scheme "becomes more effective" because ARF switches the rate many times in a
    short interval: B's gain under ARF above its gain under AARF (which raises its success
    threshold after each failed probe, so it switches less often), on the same walks."""
    arf = cell(t, sweep="main", mobility="random-waypoint", queue_packets=PAPER_QUEUE)
    aarf = cell(t, sweep="aarf")
    if arf.empty or aarf.empty:
        return None

    def gains(g: pd.DataFrame) -> dict[int, float]:
        per = _per_rep(g, "throughput_bps")
        return {r: per["wnd_max"][r] / per["standard"][r] - 1 for r in per["wnd_max"]}

    a, b = gains(arf), gains(aarf)
    claim = cl.Claim(
        "switching",
        cl.Where("IV", "", QUOTE_SWITCHING),
        cl.Quantity(f"B at AP queue {PAPER_QUEUE}: wnd_max's throughput gain under ARF minus "
                    "under AARF (fewer rate switches), per walk", "points"),
        "more effective where ARF switches often: gain(ARF) > gain(AARF)",
        cl.Direction(+1),
    )  # fmt: skip
    n = len(set(a) & set(b))
    e = cl.paired_difference(a, b, kind=_kind(n))
    bs = list(b.values())
    shown = (f"gain {np.mean(list(a.values())) * 100:+.2f} % under ARF, "
             f"{np.mean(bs) * 100:+.2f} % under AARF (per walk {min(bs) * 100:+.1f} to "
             f"{max(bs) * 100:+.1f} %): difference {_iv(e, 100, 2)} points "
             f"(n={e.n}, {e.method})")  # fmt: skip
    cause = (
        "Tested by this run (`aarf`: ARF's switching slowed, the same walks). Hypothesis, not "
        "tested by a run: AARF changes more than how often the rate switches (its raised "
        "threshold also keeps a failing rate longer), so the comparison does not isolate "
        "switching alone."
    )
    return _judged(claim, claim.judge(e), shown, cause)


QUOTE_SWITCHING = (
    '"because the STA changes the data rate many times in a short interval due to the ARF '
    'algorithm, the proposed scheme becomes more effective"'
)


# The paper's claims this reproduction does not judge (with the evaluated ones: every claim of
# the paper, read sentence by sentence; docs/paper-003.md).
NOT_EVALUABLE: list[NotEvaluable] = [
    NotEvaluable(
        "Abstract, V",
        '"the proposed scheme enhances the transmission efficiency of TCP"; "effectively '
        'improves the transmission efficiency, i.e., the throughput and the packet loss ratio"',
        "a summary of Fig. 4, Fig. 5 and Table I with no value of its own: judged in their rows "
        "(throughput and drop rate, A-1, A-2 and B).",
    ),
]
# The paper's claims: the evaluated rows (Fig. 4 and 5 x throughput and drop rate, Table I's
# two changes and standard TCP's two levels, §IV's explanation by ARF's switching, ARF's first
# frame) and NOT_EVALUABLE.
EVALUATED = 10
INVENTORY = EVALUATED + len(NOT_EVALUABLE)


def claims(t: pd.DataFrame, frames: pd.DataFrame | None = None) -> list[Claim]:
    """The paper's evaluated claims at PAPER_QUEUE (see there), judged by the one rule; each
    "differs" row names its cause and the run that tests it (from the same stored runs)."""
    causes = _causes(t)
    out = line_claims(t, PAPER_QUEUE, causes)
    rwp = cell(t, sweep="main", mobility="random-waypoint", queue_packets=PAPER_QUEUE)
    if not rwp.empty:
        out += table_claims(rwp, causes)
    switching = switching_claim(t)
    if switching is not None:
        out.append(switching)
    if frames is not None:
        out.append(arf_claim(frames))
    return out


def not_evaluable(t: pd.DataFrame, frames: Any) -> list[NotEvaluable]:
    """NOT_EVALUABLE, and any evaluable claim whose runs are not in the store."""
    out = list(NOT_EVALUABLE)
    line = cell(t, sweep="main", queue_packets=PAPER_QUEUE)
    for mob, (section, _, label) in _LINE.items():
        if cell(line, mobility=mob).empty:
            out += [NotEvaluable(section, f"{label}: {m}", "not run")
                    for m in ("throughput higher", "drop rate lower")]  # fmt: skip
    if cell(line, mobility="random-waypoint").empty:
        out += [NotEvaluable("IV, Table I (B)", c, "not run") for c in (
            "throughput gain", "drop-rate change", "standard TCP's throughput",
            "standard TCP's drop rate")]  # fmt: skip
    if switching_claim(t) is None:
        out.append(NotEvaluable("IV", QUOTE_SWITCHING, "not run (the `aarf` sweep)"))
    if frames is None:
        out.append(NotEvaluable("III-B-1", "ARF fails the first frame after an increase",
                                "the traced runs (mac_tx, rates) are not in the store"))  # fmt: skip
    return out


def _range(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


def _short(c: Claim) -> str:
    """A row's verdict and its per-speed differences, for a cause's text."""
    return f"{c.verdict} ({c.airtcp.split(': ', 1)[-1]})"


def _causes(t: pd.DataFrame) -> dict[str, str]:
    """Each "differs" row's cause and the runs that test it (the suspected cause changed, the
    result moving or not), from the stored runs; what no run tests is a hypothesis."""
    main = cell(t, sweep="main")
    line = main[main["mobility"].isin(["away", "toward"])]
    rwp = cell(main, mobility="random-waypoint")
    out: dict[str, str] = {}
    ratchet = (
        "Hypothesis, not tested by a run: Eq. 13 charges a rate decrease twice (tau measured "
        "at the old rate, T_TCP at the new one) and a window-limited connection measures a "
        "short RTT, so wnd_max falls below what the air allows (extra-timeline.png; "
        "docs/paper-003.md, 'a ratchet in Eq. 13')."
    )
    # Changed: the side that applies the bound (`upload`: a cwnd cap at the sender) and the
    # access (`rts`: RTS/CTS, the case the equations are written for), B at PAPER_QUEUE.
    band = cl.Within(TABLE_I["wnd_max"][0] / TABLE_I["standard"][0] - 1, CHANGE_TOLERANCE,
                     relative=True, neutral=0.0)  # fmt: skip
    variants = []
    for sw, what in (("rts", "with RTS/CTS (`rts`)"), ("upload", "as a cwnd cap (`upload`)")):
        g = cell(t, sweep=sw, queue_packets=PAPER_QUEUE)
        if not g.empty:
            e = paired_change(g, "throughput_bps")
            variants.append(f"{what} B's gain is {_pct(e)}, {band.verdict(e).word}")
    changed = (
        f"Changed by runs at {PAPER_QUEUE} packets: " + "; ".join(variants) + "."
        if variants
        else ""
    )
    slot = cell(t, sweep="slot")
    if not slot.empty:
        means = slot.groupby("slot_ms")["throughput_bps"].mean() / 1e6
        changed += (
            f" `slot`: T from {means.index.min():g} to {means.index.max():g} ms (the paper "
            f"gives none) keeps wnd_max's A-1 throughput within {_range(list(means))} Mbit/s."
        )
    for mob in _LINE:
        queues = sorted(set(cell(line, mobility=mob)["queue_packets"]) - {PAPER_QUEUE})
        moved: dict[str, list[str]] = {"throughput_bps": [], "drop_rate_pct": []}
        for q in queues:
            for c in line_claims(cell(t, mobility=mob), q):
                m = "throughput_bps" if "throughput" in c.claim else "drop_rate_pct"
                moved[m].append(f"at {q} packets {_short(c)}")
        for m, texts in moved.items():
            head = (
                "Cause tested by runs: the AP's queue (`line` at 100 packets, airtcp's "
                f"default, and `queue10` at {CAUSE_QUEUE}); the same claim is "
                + "; ".join(texts)
                + "."
                if texts
                else ""
            )
            tail = f" {changed} {ratchet}" if m == "throughput_bps" else ""
            out[f"{m}-{mob}"] = (head + tail).strip()
    by_q = {int(q): g for q, g in rwp.groupby("queue_packets")}
    if len(by_q) > 1:
        gains = {q: paired_change(g, "throughput_bps") for q, g in by_q.items()}
        std = {q: cell(g, scheme="standard") for q, g in by_q.items()}
        drops = {q: level(g["drop_rate_pct"]) for q, g in std.items()}
        thr = {q: level(g["throughput_bps"]) for q, g in std.items()}
        gtxt = "; ".join(
            f"{q}: {_pct(e)} ({band.verdict(e).word})" for q, e in sorted(gains.items())
        )
        dtxt = "; ".join(f"{q}: {_iv(e, 1, 3, sign=False)} %" for q, e in sorted(drops.items()))
        ttxt = "; ".join(f"{q}: {_iv(e, 1e-6, 2, sign=False)}" for q, e in sorted(thr.items()))
        out["gain"] = (
            "Cause tested by runs: the AP's queue (`rwp` at every queue, the same walks): the "
            f"gain by queue [packets] is {gtxt}. {changed} {ratchet}"
        )
        out["drops"] = out["drop"] = (
            "Cause tested by runs: the AP's queue (`rwp` at every queue, the same walks): "
            f"standard TCP's drop rate by queue [packets] is {dtxt}: the queue, which the "
            "paper does not give, sets it."
        )
        out["thr"] = (
            f"The AP's queue, tested by runs (`rwp`), hardly moves it: {ttxt} Mbit/s by queue "
            "[packets]. Hypothesis, not tested by a run: the walk's area and length (the paper "
            "gives neither: airtcp walks the square inscribed in the cell, its speeds "
            "decaying from a minimum of 0) and QualNet's MAC overheads set the level."
        )
    return out


# ---------------------------------------------------------------------------------------------
# Figures


def _curve(ax: Any, t: pd.DataFrame, measure: str, scale: float, **where: Any) -> None:
    scheme_curves(ax, t, "speed_mps", measure, scale, {s: (LABELS[s], COLORS[s]) for s in SCHEMES},
                  **where)  # fmt: skip
    ax.set_xlabel("moving speed [m/s]")
    ax.set_xlim(0.5, 10.5)
    ax.set_xticks(range(1, 11))
    ax.set_ylim(0, ax.get_ylim()[1] * 1.1)  # from 0, with room above the curves for a legend


def figure_name(no: int, mob: str, q: int) -> str:
    """Fig. 4 / Fig. 5's file name: the paper's number first, the queue when not the claims'."""
    return f"fig{no}-{mob}" + ("" if q == PAPER_QUEUE else f"-q{q}") + ".png"


def figures(t: pd.DataFrame, root: Path, out: Path) -> tuple[list[Path], dict[str, str]]:
    """Fig. 4 and Fig. 5 per AP queue, Table I against the queue, the sensitivity to T and the
    time line of one run; with each file's caption."""
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    captions: dict[str, str] = {}
    main = cell(t, sweep="main")
    for q in sorted(set(main["queue_packets"]), key=lambda q: (q != PAPER_QUEUE, -q)):
        line = cell(main, queue_packets=q)
        line = line[line["mobility"].isin(["away", "toward"])]
        for p, c in _line_figures(line, out, q):
            paths.append(p)
            captions[p.name] = c
    for p, c in [*_queue_figure(t, out), *_slot_figure(t, out), *_timeline(t, root, out)]:
        paths.append(p)
        captions[p.name] = c
    return paths, captions


def _line_figures(line: pd.DataFrame, out: Path, q: int) -> list[tuple[Path, str]]:
    from matplotlib.figure import Figure

    from airtcp.plot import save

    paths = []
    for mob, no in (("away", 4), ("toward", 5)):
        sub = cell(line, mobility=mob)
        if sub.empty:
            continue
        n = int(sub.groupby(["scheme", "speed_mps"]).size().min())
        fig = Figure(figsize=(9, 3.8), layout="constrained")
        a1, a2 = fig.subplots(1, 2)
        _curve(a1, line, "throughput_bps", 1e-6, mobility=mob)
        a1.set_ylabel("throughput [Mbps]")
        _curve(a2, line, "drop_rate_pct", 1.0, mobility=mob)
        a2.set_ylabel("packet drop rate [%]")
        a1.legend(fontsize=8)
        way = "away from" if mob == "away" else "toward"
        title = (f"Fig. {no}: STA moves {way} the AP ({'A-1' if mob == 'away' else 'A-2'}); "
                 f"AP queue {q} packets; mean and 95 % interval (n = {n})")  # fmt: skip
        fig.suptitle(fit_title(title, 9))
        path = save(fig, out / figure_name(no, mob, q))
        judged = "the claims are judged here" if q == PAPER_QUEUE else "not the claims' queue"
        paths.append((path, (
            f"Fig. {no} of the paper (STA moves {way} the AP, "
            f"{'A-1' if mob == 'away' else 'A-2'}) at an AP queue of {q} packets ({judged}): "
            "throughput and packet drop rate against the speed, both schemes, mean and "
            "Student-t 95 % interval over the replications, clipped at 0."
        )))  # fmt: skip
    return paths


def _errorbars(ax: Any, xs: list[Any], est: list[cl.Estimate], scale: float, **kw: Any) -> None:
    err = np.nan_to_num(np.array([[e.point - e.low, e.high - e.point] for e in est]).T * scale)
    ax.errorbar(xs, [e.point * scale for e in est], yerr=err, marker="o", ms=3, capsize=3, **kw)


def _queue_figure(t: pd.DataFrame, out: Path) -> list[tuple[Path, str]]:
    """Random waypoint against the AP's queue: what the bound buys (drops) and costs (air)."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter

    from airtcp.plot import save

    rwp = cell(t, sweep="main", mobility="random-waypoint")
    if rwp["queue_packets"].nunique() < 2:
        return []
    fig = Figure(figsize=(9, 3.8), layout="constrained")
    a1, a2 = fig.subplots(1, 2)
    xs = sorted(rwp["queue_packets"].unique())
    # Left: the relative gain, paired by walk (the walks' own spread cancels); it has a sign.
    d = [paired_change(cell(rwp, queue_packets=q), "throughput_bps") for q in xs]
    _errorbars(a1, xs, d, 100.0, color=COLORS["wnd_max"], label="ARF-aware window over standard")
    a1.axhline(0, color="grey", lw=0.8)
    a1.axhline(100 * (TABLE_I["wnd_max"][0] / TABLE_I["standard"][0] - 1), color="black",
               ls=":", lw=1, label="the paper (Table I)")  # fmt: skip
    a1.set_ylabel("throughput gain [%]")
    for scheme in SCHEMES:
        sub = cell(rwp, scheme=scheme)
        est = [level(cell(sub, queue_packets=q)["drop_rate_pct"].to_numpy()) for q in xs]
        _errorbars(a2, xs, est, 1.0, label=LABELS[scheme], color=COLORS[scheme])
        a2.axhline(TABLE_I[scheme][1], color=COLORS[scheme], ls=":", lw=1,
                   label=f"{LABELS[scheme]}, the paper")  # fmt: skip
    a2.set_ylabel("packet drop rate [%]")
    a2.set_ylim(bottom=0)
    for ax in (a1, a2):
        ax.set_xscale("log")
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("AP interface queue [packets]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(fit_title("Table I's random waypoint (B) against the AP's queue; "
                           "mean and 95 % interval", 9))  # fmt: skip
    path = save(fig, out / "table1-rwp-queue.png")
    return [(path, (
        "Table I of the paper (random waypoint, B) at every AP queue airtcp ran (the paper "
        "gives none): left, the throughput gain of the ARF-aware window over standard TCP "
        "(paired by walk; the paper's +4.9 % dotted); right, each scheme's packet drop rate "
        "(interval clipped at 0; the paper's values dotted)."
    ))]  # fmt: skip


def _slot_figure(t: pd.DataFrame, out: Path) -> list[tuple[Path, str]]:
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter

    from airtcp.plot import save

    slot = cell(t, sweep="slot")
    if slot.empty:
        return []
    fig = Figure(figsize=(6, 3.8), layout="constrained")
    ax = fig.add_subplot()
    xs = sorted(slot["slot_ms"].unique())
    est = [level(cell(slot, slot_ms=v)["throughput_bps"].to_numpy()) for v in xs]
    _errorbars(ax, xs, est, 1e-6)
    ax.set_xscale("log")
    ax.set_xticks(xs, [f"{x:g}" for x in xs])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("observation slot T [ms]")
    ax.set_ylabel("throughput [Mbps]")
    ax.set_ylim(bottom=0)
    ax.set_title(fit_title("ARF-aware window, A-1 at 5 m/s, AP queue 20: sensitivity to T", 6))
    ax.grid(alpha=0.3)
    path = save(fig, out / "extra-slot-sensitivity.png")
    return [(path, (
        "Not in the paper (it gives no T): the ARF-aware window's throughput at A-1, 5 m/s, "
        "AP queue 20, against the observation slot T, mean and 95 % interval clipped at 0."
    ))]  # fmt: skip


def _timeline(t: pd.DataFrame, root: Path, out: Path) -> list[tuple[Path, str]]:
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
    a1.set_ylim(0, 60)
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
        g = load_summary(r.summary_json)["flows"][0].get("interval_goodput_bps", [])
        a3.step(np.arange(1, len(g) + 1), np.asarray(g) / 1e6, where="pre", lw=1,
                color=COLORS[r.scheme], label=LABELS[r.scheme])  # fmt: skip
    a3.set_ylabel("goodput per second [Mbit/s]")
    a3.set_ylim(bottom=0)
    a3.set_xlabel(f"time [s] (A-1 at {BASE['speed_mps']:g} m/s: 10 m at 0 s, 360 m at 70 s)")
    a3.legend(fontsize=8)
    for ax in (a1, a2, a3):
        ax.grid(alpha=0.3)
    fig.suptitle(fit_title(f"One walk, both schemes (AP queue {TIMELINE_QUEUE}): rates, "
                           "windows, goodput", 9))  # fmt: skip
    path = save(fig, out / "extra-timeline.png")
    return [(path, (
        f"Not in the paper: one A-1 walk at {BASE['speed_mps']:g} m/s, AP queue "
        f"{TIMELINE_QUEUE}, under both schemes on the same seed: the AP's data rate (ARF), the "
        "window wnd_max sets and each scheme's cwnd, and goodput per second."
    ))]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Report


def _per_speed_rows(t: pd.DataFrame) -> list[str]:
    line = cell(t, sweep="main")
    line = line[line["mobility"].isin(["away", "toward"])]
    rows = ["| AP queue | mobility | speed [m/s] | standard TCP [Mbit/s] | ARF-aware window [Mbit/s] | difference [Mbit/s] | drop rate standard [%] | drop rate wnd_max [%] | difference [points] |",
            "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for (q, mob, v), g in line.groupby(["queue_packets", "mobility", "speed_mps"]):
        thr = [_iv(level(cell(g, scheme=s)["throughput_bps"]), 1e-6, 2, False) for s in SCHEMES]
        drops = [_iv(level(cell(g, scheme=s)["drop_rate_pct"]), 1, 3, False) for s in SCHEMES]
        dt = _iv(paired_diff(g, "throughput_bps"), 1e-6, 2)
        dd = _iv(paired_diff(g, "drop_rate_pct"), 1, 3)
        rows.append(f"| {q} | {mob} | {v:g} | {thr[0]} | {thr[1]} | {dt} | {drops[0]} | "
                    f"{drops[1]} | {dd} |")  # fmt: skip
    return rows


def _queue_section(t: pd.DataFrame, quick: bool = False) -> list[str]:
    """Every claim's verdict at each AP queue airtcp ran: the cause the queue is, tested."""
    main = cell(t, sweep="main")
    rwp = cell(main, mobility="random-waypoint")
    lines = [
        "The paper does not give QualNet's queue; the claims above are judged at "
        f"{PAPER_QUEUE} packets. The same claims, by the same rule, at every queue airtcp ran "
        "(the `line` sweep: Fig. 4 and 5; `rwp`: Table I, the same walks at every queue):",
        "",
        "| AP queue | claim | airtcp | verdict | why |",
        "|---|---|---|---|---|",
    ]
    rows: list[tuple[int, Claim]] = []
    for q in sorted(set(main["queue_packets"]), reverse=True):
        if q != PAPER_QUEUE:
            rows += [(q, c) for c in line_claims(t, q)]
        g = cell(rwp, queue_packets=q)
        if not g.empty:
            rows += [(q, c) for c in table_claims(g)]
    for q, c in sorted(rows, key=lambda qc: -qc[0]):
        airtcp = c.airtcp if len(c.airtcp) < 160 else c.airtcp[:157] + "..."
        decidable = "no number of" not in c.why and "at any number of" not in c.why
        word = c.verdict + (
            " (quick)" if quick and decidable and c.verdict == cl.INCONCLUSIVE else ""
        )
        why = c.why.split(" Cause tested")[0].split(" Hypothesis")[0]
        lines.append(f"| {q} | {c.claim} | {airtcp} | {word} | {why} |")
    return lines


def _variant_rows(t: pd.DataFrame) -> list[str]:
    """Random waypoint as the paper ran it, with RTS/CTS, and uploading: both schemes."""
    rows = [
        "| variant | AP queue | standard TCP [Mbit/s] | ARF-aware window [Mbit/s] | gain [%] | drop rate standard [%] | drop rate wnd_max [%] |",
        "|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    rwp = t[t["mobility"] == "random-waypoint"]
    for sw, label in (
        ("main", "download (Table I)"),
        ("rts", "RTS/CTS"),
        ("upload", "upload (cwnd cap)"),
    ):
        for q, g in sorted(cell(rwp, sweep=sw).groupby("queue_packets"), reverse=True):
            thr = [_iv(level(cell(g, scheme=x)["throughput_bps"]), 1e-6, 2, False) for x in SCHEMES]
            drop = [_iv(level(cell(g, scheme=x)["drop_rate_pct"]), 1, 3, False) for x in SCHEMES]
            d = _pct(paired_change(g, "throughput_bps"))
            rows.append(f"| {label} | {q} | {thr[0]} | {thr[1]} | {d} | {drop[0]} | {drop[1]} |")
    return rows


def eq11_pairs(t: pd.DataFrame, rtt: str, every_slot: bool, q: int) -> pd.DataFrame:
    """B at AP queue ``q``: rwp's standard TCP runs beside the eq11 sweep's ARF-aware window
    with Eq. 11's RTT read as ``rtt`` (recomputed every slot too if ``every_slot``), on the
    same walks (replication by replication); empty if either is not in the store."""
    rwp = cell(t, sweep="main", mobility="random-waypoint", queue_packets=q)
    std = cell(rwp, scheme="standard")
    win = cell(t, sweep="eq11", queue_packets=q, rtt=rtt, every_slot=every_slot)
    if win.empty and (rtt, every_slot) == ("smoothed", False):
        # The paper's reading on rwp's walks is rwp's own wnd_max run: the store keeps one
        # copy of a run (its world and seed), whichever sweep asked for it.
        win = cell(rwp, scheme="wnd_max")
    if std.empty or win.empty:
        return std.iloc[0:0]
    return pd.concat([std, win], ignore_index=True)


def eq11_claims(t: pd.DataFrame, rtt: str, every_slot: bool, q: int) -> dict[str, Claim]:
    """Table I's throughput gain and drop-rate change judged with Eq. 11's RTT read as
    ``rtt`` (and every slot's recomputation if ``every_slot``) at AP queue ``q``, by the text
    of the paper's claim they stand beside (empty without the runs)."""
    g = eq11_pairs(t, rtt, every_slot, q)
    if g.empty:
        return {}
    how = f"Eq. 11 on the {EQ11_RTTS[rtt]}" + (", recomputed every slot" if every_slot else "")
    return {c.claim: dataclasses.replace(c, claim=f"{c.claim} ({how})", runs=("rwp", "eq11"),
                                         section=f"IV, Table I (B), AP queue {q}")
            for c in table_claims(g)[:2]}  # fmt: skip


def _eq11_rows(t: pd.DataFrame) -> list[str]:
    """Every reading of Eq. 11's RTT against standard TCP on rwp's walks: the gain and the
    drop-rate change, each with its interval and Table I's verdict."""
    eq = cell(t, sweep="eq11")
    if eq.empty:
        return ["Not run (the `eq11` sweep)."]
    rows = [
        "Table I's two changes (paper: throughput +4.9 %, drop rate -95.2 %) judged by the same "
        "rule with Eq. 11's RTT read three ways, on rwp's walks, each reading paired with "
        "standard TCP's run on the same walk. The smoothed RTT recomputed on rate changes is "
        "the paper's reading: rwp's own wnd_max runs (the same world and seeds, stored once).",
        "",
        "| Eq. 11's RTT | recomputed | AP queue | standard TCP [Mbit/s] | window [Mbit/s] | "
        "throughput gain | verdict | drop rate standard -> window [%] | drop-rate change | "
        "verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for q in sorted(eq["queue_packets"].unique()):
        for rtt in EQ11_RTTS:
            for every_slot in (False, True):
                g = eq11_pairs(t, rtt, every_slot, int(q))
                c = list(eq11_claims(t, rtt, every_slot, int(q)).values())
                if g.empty or len(c) < 2:
                    continue
                lv = {x: level(cell(g, scheme=x)["throughput_bps"]) for x in SCHEMES}
                dr = {x: cell(g, scheme=x)["drop_rate_pct"].mean() for x in SCHEMES}
                gain = _pct(paired_change(g, "throughput_bps"))
                drop = _pct(paired_change(g, "drop_rate_pct"))
                rows.append(
                    f"| {EQ11_RTTS[rtt]} | {'every slot' if every_slot else 'rate changes'} | "
                    f"{int(q)} | {_iv(lv['standard'], 1e-6, 2, False)} | "
                    f"{_iv(lv['wnd_max'], 1e-6, 2, False)} | {gain} | {c[0].verdict} | "
                    f"{dr['standard']:.3f} -> {dr['wnd_max']:.3f} | {drop} | {c[1].verdict} |"
                )
    return rows


def headlines(t: pd.DataFrame, claim_list: list[Claim], quick: bool) -> list[Headline]:
    """Table I's headline (drops almost removed while throughput rises) and its level, each
    on the paper's setting and, where that does not agree, under the setting found."""
    q = PAPER_QUEUE
    heads = pick_headlines(claim_list, [
        ("Random waypoint (B): change in packet drop rate",
         "Random waypoint: the ARF-aware window almost removes standard TCP's drops",
         "On the smoothed RTT (the paper's RTT_ij) the window follows the queue: the RTT it "
         "multiplies by already holds the queueing delay, so the bound grows with the queue it "
         "should prevent. On the RTT of empty queues (or the least sample) it is the "
         "bandwidth-delay product (3-5 segments), and the AP's drops fall as the paper's did. "
         "The paper does not say which RTT QualNet measured; a window that removes the drops "
         "must have left the queue's delay out of it."),
        ("Random waypoint (B): throughput gain of wnd_max",
         "... while raising throughput (8.44 -> 8.85 Mbit/s)",
         "The reading that removes the drops costs throughput here: a window of the "
         "bandwidth-delay product leaves the air idle while ACKs and rate steps come and go, "
         "and standard TCP's drops cost it little (NewReno repairs them in fast recovery). The "
         "paper's gain needs drops that cost standard TCP more (its timeouts), which no setting "
         "tried here gives."),
        ("Random waypoint (B): standard TCP's throughput",
         "Table I: standard TCP's throughput in random waypoint",
         "With QualNet's default noise figure (10 dB, the template's since issue 36; ns-3's 7 "
         "dB made the cell richer). The walk's area and length are not given."),
    ])  # fmt: skip
    run = (f"airtcp reproduce 003{' --quick' if quick else ''} --out DIR  # the eq11 sweep; "
           f"one run: airtcp run examples/paper-003.toml --set mobility=random-waypoint --set "
           f"queue_packets={q} --set scheme=wnd_max --set rtt=empty")  # fmt: skip
    return under_condition(heads, eq11_claims(t, "empty", False, q),
                           f"Eq. 11 on the RTT of empty queues (AP queue {q})", run)  # fmt: skip


def _slot_rows(t: pd.DataFrame) -> list[str]:
    slot = cell(t, sweep="slot")
    return [
        "| T [ms] | ARF-aware window [Mbit/s] | drop rate [%] |",
        "|---|---|---|",
        *(
            f"| {v:g} | {_iv(level(cell(slot, slot_ms=v)['throughput_bps']), 1e-6, 2, False)} | "
            f"{_iv(level(cell(slot, slot_ms=v)['drop_rate_pct']), 1, 3, False)} |"
            for v in sorted(slot["slot_ms"].unique())
        ),
    ]


def method(t: pd.DataFrame) -> str:
    """The report's method paragraph: runs, estimators, tolerances, the scenario's choices."""
    n = cell(t, sweep="main").groupby(["scheme", "mobility", "speed_mps", "queue_packets"]).size()
    reps = int(n.min()) if len(n) else 0
    return (
        f"{reps} replications per point; both schemes of a replication share its seed (the same "
        "walk), so every comparison of the schemes is paired by replication: the difference's "
        f"Student t interval below {BCA_MIN_N} pairs, its BCa bootstrap from {BCA_MIN_N} on "
        "(a gain: the paired BCa ratio of means; below, the paired t interval of the difference "
        "over standard TCP's mean). Levels: Student t clipped at 0 below "
        f"{BCA_MIN_N} runs, BCa above. Declared tolerances: a level within "
        f"{VALUE_TOLERANCE:.0%} of the paper's; a gain within {CHANGE_TOLERANCE:.0%} of the "
        'paper\'s gain; "higher"/"lower" the sign of the paired difference; "at every speed" '
        "judged at each speed, agreeing when every speed agrees and differing when any speed "
        "differs, each speed's interval at 1 - 0.05/k for k speeds (Bonferroni: 95 % for the "
        f"speeds together). The claims are judged at an AP queue of {PAPER_QUEUE} packets: the paper "
        "does not give QualNet's, its standard TCP drops 0.351 %, and at airtcp's default 100 "
        "a 131072-byte window never fills the queue (nothing is dropped); every other queue is "
        "in its own section. Scenario choices where the paper is silent: the server on a 100 "
        "Mbit/s, 1 ms wired link behind the AP; A-1 from 10 m to 360 m (10 m inside the 370 m "
        "edge), A-2 the reverse, the whole run measured; B for a fixed time in the square "
        "inscribed in the cell, minimum speed 0 as the paper (its mean speed decays: Yoon, Liu, "
        "Noble); the observation slot T 100 ms (its sensitivity below); the window within "
        "[MSS, buffer], a connection idle in the last slot not bounded from it; reception by "
        "sensitivity alone (QualNet), beacons every 100 TU at 6 Mbit/s."
    )


def analyse(ctx: Context) -> Report:
    """The claims, tables and figures from the stored runs of the paper's sweeps."""
    t = table(ctx.root, ctx.current)
    traced = set(cell(t, sweep="timeline")["run_hash"])
    frames = first_frames(ctx.root, traced)
    claim_list = claims(t, frames)
    paths, captions = figures(t, ctx.root, ctx.figures)
    sections = [
        ("The AP's queue: every claim at every queue", _queue_section(t, ctx.quick)),
        ("Per speed (Fig. 4 and 5)", _per_speed_rows(t)),
        (
            "Random waypoint: the AP's queue, RTS/CTS and uploading",
            [
                "Uploading, the queue that fills is the station's (the same `queue_packets`), "
                "and wnd_max caps the station's cwnd instead of its advertised window. The gain "
                "is paired by walk.",
                "",
                *_variant_rows(t),
            ],
        ),
        ("Sensitivity to the observation slot T (A-1, 5 m/s, AP queue 20)", _slot_rows(t)),
        ("Eq. 11's RTT: where Table I's drop reduction appears (`eq11`)", _eq11_rows(t)),
    ]
    return Report(
        claims=claim_list,
        not_evaluable=not_evaluable(t, frames),
        method=method(t),
        sections=sections,
        figures=paths,
        captions=captions,
        definitions=(__doc__ or "").split(DEFINITIONS)[-1],
        tables={"runs.csv": t},
        headlines=headlines(t, claim_list, ctx.quick),
    )
