"""Paper 002 (Nomoto, Wu, Ohzahata, Kato: bufferbloat of TCP uploads over 802.11n), end to end.

The sweeps (every run stored in ``OUT/store``, resumable) on the template ``paper-002``
(examples/paper-002.toml; docs/paper-002.md), each over the three schemes of section IV
(native 802.11n, CoDel as the qdisc, the rate-driven Block-Ack retry limit) at the station's
positions 1.2 to 10 m from the AP, 60 s uploads:

- ``main``: the four cases of Fig. 4-6 and the text: CUBIC and Reno, without and with the
  bridge's 50 ms one-way delay, in the template's house (TGn's residential channel B standing
  still, ``fading_model = "tgn-b-static"``: one rate per position, as the paper saw); every
  scheme of a replication on the same channel (paired);
  beside the paper's three, Linux today's queueing (mac80211's per-station FQ-CoDel under
  airtime fairness, without and with AQL, no qdisc), the rate control kept;
- ``timeline``: Fig. 7: Reno with 100 ms of added round-trip delay where ath9k's average data
  rate is near 216 Mbit/s, traced (cwnd) with goodput per second, the paper's three schemes;
- ``tgn-b``: Fig. 4's case (CUBIC, no added delay) in the same channel moving at TGn's
  environment Doppler (1.2 km/h), the estimate taken at each PPDU's preamble
  (``fading_model = "tgn-b"``), positions 1.2 to 12 m (about 270 to 11 Mbit/s): the headline
  claims judged where the rate is not steady, for the report's headline section;
- ``cause-rate`` and ``cause-mpdu``: the test of the cause of the remedy's failure: the same
  stack at a fixed 15 Mbit/s (MCS 0, so the remedy's limit is 2 on every TCP frame), CUBIC,
  30 s: in the wooden house under Nakagami block fades at 8 and 10 m (``fading_model =
  "nakagami-blocks"``, the calibration before issue 36: whole PPDUs fail), and in a channel
  without fades where each MPDU is lost on its own (10 % of them);
- ``anomaly``: beyond the paper, three stations 2, 6 and 8 m from the AP (steady rates, no
  fades, Minstrel-HT as Linux today runs) each downloading by CUBIC for 30 s: Linux 3.2's
  queues, mac80211's queues taking turns frame by frame, and with airtime fairness (and AQL):
  the 802.11 performance anomaly and its cure.

Measures (also in the report), per 60 s upload:

- average data rate: the mean of the data rate each TCP frame found toward the AP as the
  station's driver took it (the rate control's choice for a first attempt; the rate the remedy
  averages) [Mbit/s], the x-axis of every figure, as the paper's;
- throughput: TCP goodput station -> server over the run [Mbit/s];
- RTT: the mean of the sender's RTT samples (RFC 7323 timestamps, every ACK) [ms];
- cwnd: the time average of the sender's congestion window [segments];
- timeouts: the sender's retransmission timeouts (each one a restart from slow start);
- MPDUs given up: the station's MPDUs dropped at a retry limit (the remedy's losses).

A position's average data rate is native's mean over its replications: the regions the paper
names ("below 80 Mbit/s", "100 Mbit/s and larger") are sets of positions by that rate, so the
schemes of a replication stay paired.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from airtcp import store, sweep
from airtcp.config.templates import P002_WARMUP_S, expand_template
from airtcp.reproduce import claims as cl
from airtcp.reproduce.common import (
    Claim,
    cell,
    fit_title,
    mean_ci,
    stored_runs,
)
from airtcp.reproduce.paper import (
    Context,
    Headline,
    NotEvaluable,
    Report,
    pick_headlines,
    under_condition,
)
from airtcp.result import RunSummary, load_summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "BA_RETRY_LIMITS",
    "CASES",
    "ID",
    "NOT_EVALUABLE",
    "SCHEMES",
    "TEMPLATE",
    "TITLE",
    "analyse",
    "ba_retry_limit",
    "cause_table",
    "claims",
    "fig2",
    "figures",
    "sweeps",
    "table",
]

ID = "002"
TITLE = "bufferbloat of TCP uploads over 802.11n at low data rates"
TEMPLATE = "paper-002"
DEFINITIONS = "Measures (also in the report), per 60 s upload:"

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
    "reno0": "IV-B's text: Reno, no added delay (similar to Fig. 4; no figure in the paper)",
}
# Each case's figure file (the paper's figure number first) and its Linux-today companion.
CASE_FILES = {"fig4": "fig4-cubic-no-delay", "fig5": "fig5-cubic-100ms",
              "fig6": "fig6-reno-100ms", "reno0": "text-ivb-reno-no-delay"}  # fmt: skip
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
# Fig. 7's position: where ath9k's average data rate is near 216 Mbit/s in the wooden house
# (217.5 Mbit/s at 3 m on the template's channel, seeds 11-13).
TIMELINE_DISTANCE_M = 3.0
FIG7_RATE_MBPS = 216.0
# The rate bounds the paper's claims name [Mbit/s].
LOW_RATE_MBPS = 30.0
CWND_SPLIT_MBPS = 40.0
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

# The test of the cause (the cause sweeps): MCS 0 at 40 MHz with the short GI is 15 Mbit/s, so
# the remedy's averaged rate is 15 and its limit 2 on every TCP frame (III-B).
CAUSE_MCS = 0
CAUSE_RATE_MBPS = 15.0
CAUSE_DISTANCES_M = (8.0, 10.0)
CAUSE_DURATION_S = 30.0
CAUSE_MPDU_LOSS = 0.10
# An MPDU of a full segment: MSS + TCP options and header, IP, LLC, QoS MAC header, FCS.
CAUSE_MPDU_BYTES = 1448 + 32 + 20 + 8 + 26 + 4
CAUSE_ARMS = {
    "rate": "Nakagami block fades, fixed 15 Mbit/s (a PPDU's subframes fail together)",
    "mpdu": "no fades, fixed 15 Mbit/s, 10 % of MPDUs lost each on its own",
}

# The declared tolerances of the one verdict rule (reproduce.claims), fixed before any run:
# "similar" = the paired difference's whole interval within 10 % of the reference scheme's
# mean over the same runs; "about X" read off a log-scale figure = within 25 % of X; a band the
# paper states (cwnd 700-900) as stated; "linear in the log-log scale" = the quadratic term of
# a log-log fit bends the curve by at most 0.1 decade (a factor 1.26) from the straight line.
SIMILAR = 0.10
ABOUT = 0.25
LINEAR_BEND_DECADES = 0.1

# The causes of differences no run of this reproduction tests (written as hypotheses).
HYPOTHESIS_RENO = (
    " Hypothesis (not tested by a run): after each loss (a drop of CoDel's, an MPDU the remedy "
    "gives up) Reno regrows its window by one segment per RTT where CUBIC regrows it in a few "
    "seconds, so where losses come often Reno's queues stand shorter than CUBIC's."
)
HYPOTHESIS_CODEL_DELAY = (
    " Hypothesis (not tested by a run): with 100 ms added the path itself holds about 200 "
    "Mbit/s x 100 ms, some 1,700 segments, at the fastest positions; each of CoDel's drops "
    "cuts CUBIC's window by 30 % and it regrows over many RTTs of 100 ms, so CoDel's window "
    "and throughput stay below native's there (the paper saw this only with Reno, Fig. 6)."
)

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


# The template's TCP before it took the linux-3.2 profile: RFC rules with SACK (a segment the
# full qdisc refuses is a loss; an RTO clears the SACK scoreboard; no PRR; cwnd grows on every
# ACK). The run `rules-before` repeats the paper's schemes at the positions below 80 Mbit/s
# with it: what the profile moved.
RULES_BEFORE: dict[str, Any] = {"profile": "rfc", "recovery": "sack"}
BEFORE_NAME = "paper-002-rules-before"


# The channel moving (issue 36): Fig. 4's case (CUBIC, no added delay) in the template's TGn B
# at TGn's environment Doppler with the estimate taken at the preamble (fading_model =
# "tgn-b"), where the rate follows the fades and subframes late in an A-MPDU fail on their
# own. Its positions reach 12 m (about 11 Mbit/s; 13 m and beyond TCP starves).
TGN_NAME = "paper-002-tgn-b"


def _tgn_distances(quick: bool) -> list[float]:
    """The TGn B sweep's positions: from about 270 Mbit/s at 1.2 m to 11 at 12 m."""
    return (
        [1.2, 6.0, 8.0, 10.0, 12.0] if quick else [1.2, 2.0, 4.0, 6.0, 8.0, 9.0, 10.0, 11.0, 12.0]
    )


def _before_distances(quick: bool) -> list[float]:
    """The positions below 80 Mbit/s of the main sweep (5 m and beyond: 41 Mbit/s at 5 m)."""
    return [d for d in _axes(quick)[0] if d >= 5.0]


def _mpdu_base() -> dict[str, Any]:
    """The cause sweep's second arm: the paper-002 stack at MCS 0 in a channel without fades
    where each MPDU of a full segment is lost with probability CAUSE_MPDU_LOSS on its own."""
    cfg = expand_template({**BASE, "mcs": CAUSE_MCS, "duration_s": CAUSE_DURATION_S,
                           "distance_m": CAUSE_DISTANCES_M[0]})  # fmt: skip
    ber = 1 - (1 - CAUSE_MPDU_LOSS) ** (1 / (8 * CAUSE_MPDU_BYTES))
    cfg["channel"] = {"model": "range", "error": {"kind": "ber", "ber": ber}}
    cfg["name"] = "paper-002-cause-mpdu"
    return cfg


def sweeps(quick: bool) -> dict[str, sweep.SweepSpec]:
    """The reproduction's sweeps, by name; quick mode runs fewer positions and replications."""
    distances, reps, duration = _axes(quick)
    schemes = {
        "queue": [q for q, _ in SCHEMES.values()],
        "scheme": [s for _, s in SCHEMES.values()],
    }
    paper = {
        "queue": [SCHEMES[s][0] for s in PAPER_SCHEMES],
        "scheme": [SCHEMES[s][1] for s in PAPER_SCHEMES],
    }
    cases: dict[str, list[Any]] = {
        "cc": [c for c, _ in CASES.values()],
        "delay_ms": [d for _, d in CASES.values()],
    }
    cause_reps = 2 if quick else 5
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
            zips=[paper],
            replications=1,
            seed=SEED,
            paired=("queue", "scheme"),
        ),
        # What the test bed's kernel profile moved: the paper's schemes under the rules before.
        "rules-before": sweep.SweepSpec(
            base={**BASE, "duration_s": duration, "tcp": dict(RULES_BEFORE), "name": BEFORE_NAME},
            grid={"distance_m": _before_distances(quick)},
            zips=[paper],
            replications=reps,
            seed=SEED,
            paired=("queue", "scheme"),
        ),
        # Fig. 4's case in the same channel moving at TGn's Doppler, the paper's schemes.
        "tgn-b": sweep.SweepSpec(
            base={**BASE, "duration_s": duration, "fading_model": "tgn-b", "name": TGN_NAME},
            grid={"distance_m": _tgn_distances(quick)},
            zips=[paper],
            replications=reps,
            seed=SEED,
            paired=("queue", "scheme"),
        ),
        # The cause: native and the remedy at a fixed 15 Mbit/s (limit 2 on every TCP frame).
        "cause-rate": sweep.SweepSpec(
            base={
                **BASE,
                "mcs": CAUSE_MCS,
                "duration_s": CAUSE_DURATION_S,
                "fading_model": "nakagami-blocks",
                "name": "paper-002-cause-rate",
            },  # fmt: skip
            grid={"distance_m": list(CAUSE_DISTANCES_M)},
            zips=[{"scheme": ["none", "ba-retry"]}],
            replications=cause_reps,
            seed=SEED,
            paired=("scheme",),
        ),
        # ... and with each MPDU lost on its own (no fades), CoDel beside them.
        "cause-mpdu": sweep.SweepSpec(
            base=_mpdu_base(),
            grid={},
            zips=[
                {
                    "mac.ba_retry_remedy": [False, False, True],
                    "mac.qdisc": ["pfifo", "codel", "pfifo"],
                }
            ],  # fmt: skip
            replications=cause_reps,
            seed=SEED,
            paired=("mac.ba_retry_remedy", "mac.qdisc"),
        ),
    }


def _scheme_of(queue: str, scheme: str) -> str | None:
    return next((k for k, v in SCHEMES.items() if v == (queue, scheme)), None)


def _case_of(cc: str, delay_ms: float) -> str | None:
    return next((k for k, v in CASES.items() if v == (cc, float(delay_ms))), None)


def _sweep_of(name: Any) -> str | None:
    """The sweep a paper-002 run belongs to, by its name (the main runs have none)."""
    if not isinstance(name, str):
        return "main"
    # the cause sweeps: cause_table
    return {"paper-002-timeline": "timeline", BEFORE_NAME: "rules-before",
            TGN_NAME: "tgn-b"}.get(name)  # fmt: skip


def table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per stored run of the main and timeline sweeps (of the run hashes ``only``, if
    given): its knobs and measures (the cause sweeps: :func:`cause_table`)."""
    knobs = ("queue", "scheme", "cc", "delay_ms", "distance_m", "name", "template")
    runs = stored_runs(root, knobs, only)
    runs = runs[runs["template"] == "paper-002"]
    rows = []
    for r in runs.itertuples():
        scheme, case = _scheme_of(r.queue, r.scheme), _case_of(r.cc, r.delay_ms)
        which = _sweep_of(r.name)
        if scheme is None or case is None or which is None:
            continue  # a run of other knobs in the same store (not this reproduction's)
        rows.append({"run_hash": r.run_hash, "replication": r.replication, "sweep": which,
                     "scheme": scheme, "case": case, "distance_m": float(r.distance_m),
                     **_measures(load_summary(r.summary_json))})  # fmt: skip
    return pd.DataFrame(rows)


def _measures(s: RunSummary) -> dict[str, Any]:
    """A run's measures from its summary (the station's first flow and MAC)."""
    flow = s["flows"][0]
    sta = next(n for n in s["nodes"] if n["name"] == "sta1")["mac"]
    return {
        "rate_mbps": sta.get("mean_data_rate_mbps", float("nan")),
        "throughput_mbps": flow["goodput_bps"] / 1e6,
        # No sample: no RTT (the summary's 0 would pull every mean down).
        "rtt_ms": flow["tcp"]["rtt_mean_s"] * 1e3 if flow["tcp"]["rtt_samples"] else np.nan,
        "cwnd": flow["tcp"]["mean_cwnd_segments"],
        "timeouts": flow["tcp"]["timeouts"],
        "retransmissions": flow["tcp"]["retransmissions"],
        "drops_mac": sta.get("drops_retry_limit", 0),
        "drops_qdisc": sta.get("drops_qdisc", 0) + sta.get("drops_codel", 0),
        # A digest of the run's outcome (flows and nodes), to tell runs the same bit for bit.
        "outcome": hashlib.blake2b(
            json.dumps([s["flows"], s["nodes"]], sort_keys=True).encode(), digest_size=8
        ).hexdigest(),
    }


def cause_table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per run of the two cause sweeps (of the run hashes ``only``, if given): arm
    ("rate", "mpdu"), scheme, position, replication and the measures."""
    runs = stored_runs(root, (), only, names=("paper-002-cause-rate", "paper-002-cause-mpdu"))
    rows = []
    for r in runs.itertuples():
        knobs = json.loads(r.params)
        if r.name == "paper-002-cause-rate":
            arm, distance = "rate", float(knobs["distance_m"])
            scheme = "remedy" if knobs["scheme"] == "ba-retry" else "native"
        else:
            arm, distance = "mpdu", math.nan
            remedy, qdisc = knobs["mac.ba_retry_remedy"], knobs["mac.qdisc"]
            scheme = "remedy" if remedy else ("codel" if qdisc == "codel" else "native")
        rows.append({"run_hash": r.run_hash, "arm": arm, "scheme": scheme,
                     "distance_m": distance, "replication": r.replication,
                     **_measures(load_summary(r.summary_json))})  # fmt: skip
    cols = ["run_hash", "arm", "scheme", "distance_m", "replication"]
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=cols)


def anomaly_table(root: Path, only: set[str] | None = None) -> pd.DataFrame:
    """One row per station of each stored anomaly run: its queue, throughput, RTT and rate."""
    runs = stored_runs(root, ("queue", "direction", "template"), only)
    runs = runs[runs["template"] == "paper-002-anomaly"]
    rows = []
    for r in runs.itertuples():
        s = load_summary(r.summary_json)
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
            f"{mean_ci(cell(g, station=s)['throughput_mbps'].to_numpy(), floor=0.0).fmt(1, 1)}, "
            f"{cell(g, station=s)['rtt_ms'].mean():.0f}"
            for s in stations
        ]
        total = mean_ci(g.groupby("run_hash")["throughput_mbps"].sum().to_numpy(), floor=0.0)
        rows.append(f"| {label} | " + " | ".join(cells) + f" | {total.fmt(1, 1)} |")
    return rows


# ---------------------------------------------------------------------------------------------
# Claims: measures over positions, estimates, verdicts

Where = Callable[[float], bool]


def _everywhere(_rate: float) -> bool:
    return True


def _main(t: pd.DataFrame, case: str) -> pd.DataFrame:
    if t.empty or "sweep" not in t:
        return t
    return t[(t["sweep"] == "main") & (t["case"] == case)]


def _position_rates(t: pd.DataFrame, case: str) -> pd.Series:
    """Each position's average data rate: native's mean over its replications [Mbit/s]."""
    return cell(_main(t, case), scheme="native").groupby("distance_m")["rate_mbps"].mean()


def _positions(t: pd.DataFrame, case: str, where: Where) -> list[float]:
    return [float(d) for d, r in _position_rates(t, case).items() if where(r)]


def _aligned(
    t: pd.DataFrame, case: str, schemes: Sequence[str], measure: str, positions: Sequence[float]
) -> dict[str, np.ndarray]:
    """Per scheme the ``measure`` of the (position, replication) runs that every scheme has
    with a finite value, in the same order: samples paired by seed."""
    g = _main(t, case)
    g = g[g["distance_m"].isin(list(positions)) & g["scheme"].isin(list(schemes))]
    if g.empty:
        return {s: np.zeros(0) for s in schemes}
    wide = g.pivot_table(index=["distance_m", "replication"], columns="scheme", values=measure,
                         aggfunc="first")  # fmt: skip
    wide = wide.reindex(columns=list(schemes)).dropna()
    return {s: wide[s].to_numpy(float) for s in schemes}


def _nan(method: str, n: int = 0) -> cl.Estimate:
    return cl.Estimate(math.nan, math.nan, math.nan, n, method)


def _diff(a: np.ndarray, b: np.ndarray) -> cl.Estimate:
    """mean(a - b) over runs paired by seed, Student t on the differences (conservative at a
    few pairs, where a bootstrap undercovers)."""
    if len(a) == 0:
        return _nan("paired t")
    return cl.paired_difference(a, b, kind="t")


def _mean(x: np.ndarray) -> cl.Estimate:
    """A non-negative quantity's mean, Student t clipped at 0."""
    x = x[np.isfinite(x)]
    return cl.mean_interval(x, "t", floor=0.0) if len(x) else _nan("Student t, floor 0")


def _similar(a: np.ndarray, b: np.ndarray) -> tuple[cl.Estimate, cl.Within]:
    """a - b paired, and "similar": within SIMILAR of b's mean over the same runs."""
    tol = SIMILAR * abs(float(b.mean())) if len(b) else 0.0
    return _diff(a, b), cl.Within(0.0, tol)


def _all(parts: Sequence[tuple[str, cl.Verdict]]) -> cl.Verdict:
    """A claim over several conditions (every position, every scheme): agrees when every part
    agrees, differs when any part differs, inconclusive otherwise (with the replications the
    least decided part needs)."""
    if not parts:
        return cl.Verdict(cl.INCONCLUSIVE, _nan("none"), "no run lies in the claim's region")
    for name, v in parts:
        if v.word == cl.DIFFERS:
            return cl.Verdict(cl.DIFFERS, v.estimate, f"{name}: {v.reason}")
    open_ = [(name, v) for name, v in parts if v.word != cl.AGREES]
    if not open_:
        return cl.Verdict(cl.AGREES, parts[0][1].estimate, "every part agrees")
    needs = [v.needed for _, v in open_]
    need = None if any(n is None for n in needs) else max(n for n in needs if n is not None)
    name, v = max(open_, key=lambda nv: nv[1].needed or math.inf)
    return cl.Verdict(cl.INCONCLUSIVE, v.estimate, f"{name}: {v.reason}", need)


def _any(parts: Sequence[tuple[str, cl.Verdict]]) -> cl.Verdict:
    """A claim of "some cases": agrees when any part agrees, differs when every part differs,
    inconclusive otherwise."""
    for name, v in parts:
        if v.word == cl.AGREES:
            return cl.Verdict(cl.AGREES, v.estimate, f"{name}: {v.reason}")
    if parts and all(v.word == cl.DIFFERS for _, v in parts):
        return cl.Verdict(cl.DIFFERS, parts[0][1].estimate, "every part differs")
    return _all([p for p in parts if p[1].word != cl.DIFFERS])


def _parts_text(parts: Sequence[tuple[str, cl.Verdict]], digits: int = 0, unit: str = "") -> str:
    """Each part's estimate and verdict word, for the report's airtcp column."""
    return "; ".join(
        f"{name}: {v.estimate.fmt(digits=digits, unit=unit)} {v.word}" for name, v in parts
    )


@dataclasses.dataclass(frozen=True)
class _Spec:
    """One claim of the paper: where (section and figure), the sentence quoted briefly, the
    quantity, the paper's value or shape in its words, and how parts combine."""

    section: str
    figure: str
    quote: str
    quantity: str
    unit: str
    paper: str

    def row(self, comparison: cl.Comparison, v: cl.Verdict, shown: str, why: str) -> Claim:
        where = cl.Where(self.section, self.figure, self.quote)
        claim = cl.Claim(self.quantity, where, cl.Quantity(self.quantity, self.unit), self.paper,
                         comparison)  # fmt: skip
        place = f"{self.section}, {self.figure}" if self.figure else self.section
        row = claim.row(v, shown, f"{why} Verdict: {v.reason}." if why else v.reason)
        return dataclasses.replace(row, section=place, claim=f'{self.quantity} ("{self.quote}")')


def _pos(d: float, rates: pd.Series) -> str:
    return f"{rates.get(d, math.nan):.0f} Mbit/s ({d:g} m)"


def _per_position(
    t: pd.DataFrame, case: str, a: str, b: str, measure: str, where: Where, cmp: Any
) -> list[tuple[str, cl.Verdict]]:
    """The claim judged at each position in ``where``: ``cmp(a_samples, b_samples)`` returns
    (estimate, comparison)."""
    rates = _position_rates(t, case)
    parts = []
    for d in _positions(t, case, where):
        s = _aligned(t, case, (a, b), measure, [d])
        if len(s[a]) == 0:
            continue
        est, comparison = cmp(s[a], s[b])
        parts.append((_pos(d, rates), comparison.verdict(est)))
    return parts


def _direction(sign: int) -> Callable[[np.ndarray, np.ndarray], tuple[cl.Estimate, Any]]:
    def f(a: np.ndarray, b: np.ndarray) -> tuple[cl.Estimate, Any]:
        return _diff(a, b), cl.Direction(sign)

    return f


def _ordering(
    t: pd.DataFrame, case: str, winner: str, measure: str, where: Where, seed: int
) -> tuple[cl.Ordering, cl.Estimate, dict[str, np.ndarray]]:
    """``winner`` lowest of the paper's three schemes in ``measure`` over the positions in
    ``where``: the margin over its best rival, the schemes resampled together (paired)."""
    order = cl.Ordering(winner, PAPER_SCHEMES, higher=False)
    s = _aligned(t, case, PAPER_SCHEMES, measure, _positions(t, case, where))
    if len(s[winner]) == 0:
        return order, _nan("winner margin"), s
    return order, order.margin(s, paired=True, seed=seed), s


def _loglog_bend(t: pd.DataFrame, case: str, scheme: str, seed: int) -> cl.Estimate:
    """How far the log-log curve of ``scheme``'s mean RTT against its mean average data rate
    over the positions bends from a straight line [decades]: the quadratic coefficient c of a
    fit of log10 RTT on log10 rate times (span / 2)^2, c's deviation at the middle of the
    range from the chord. Interval: a percentile bootstrap that resamples the replications
    within each position (stratified)."""
    g = cell(_main(t, case), scheme=scheme)
    g = g[np.isfinite(g["rtt_ms"]) & (g["rtt_ms"] > 0)]
    groups = [(x["rate_mbps"].to_numpy(float), x["rtt_ms"].to_numpy(float))
              for _, x in g.groupby("distance_m")]  # fmt: skip
    if len(groups) < 3:
        return _nan("quadratic log-log fit", len(groups))

    def bend(rates: np.ndarray, rtts: np.ndarray) -> np.ndarray:
        """The bend of each row's curve (rows: resamples; columns: positions)."""
        lx, ly = np.log10(rates), np.log10(rtts)
        a = np.stack([lx**2, lx, np.ones_like(lx)], axis=-1)
        at = np.swapaxes(a, -1, -2)
        coef = np.linalg.solve(at @ a, (at @ ly[..., None]))[..., 0]
        half = (lx.max(axis=-1) - lx.min(axis=-1)) / 2
        return coef[..., 0] * half**2

    means = [(r.mean(), y.mean()) for r, y in groups]
    point = float(bend(np.array([[m[0] for m in means]]), np.array([[m[1] for m in means]]))[0])
    n = min(len(r) for r, _ in groups)
    if n < 2:
        return cl.Estimate(point, math.nan, math.nan, n, "quadratic log-log fit")
    rng = np.random.Generator(np.random.PCG64(seed))
    picks = [rng.integers(0, len(r), (cl.RESAMPLES, len(r))) for r, _ in groups]
    rates = np.stack([r[k].mean(axis=1) for (r, _), k in zip(groups, picks, strict=True)], 1)
    rtts = np.stack([y[k].mean(axis=1) for (_, y), k in zip(groups, picks, strict=True)], 1)
    boot = bend(rates, rtts)
    lo, hi = np.quantile(boot, [0.025, 0.975])
    return cl.Estimate(point, float(lo), float(hi), n,
                       "quadratic log-log fit, stratified percentile bootstrap")  # fmt: skip


def _cause_numbers(c: pd.DataFrame) -> dict[str, Any]:
    """What the cause sweeps show: per arm and scheme the mean RTT and cwnd, the MPDUs given
    up, and how many of the remedy's runs are native's bit for bit."""
    out: dict[str, Any] = {}
    if c.empty:
        return out
    for arm in CAUSE_ARMS:
        g = c[c["arm"] == arm]
        if g.empty:
            continue
        key = ["distance_m", "replication"]
        nat = cell(g, scheme="native").fillna({"distance_m": -1}).set_index(key)
        rem = cell(g, scheme="remedy").fillna({"distance_m": -1}).set_index(key)
        both = nat.index.intersection(rem.index)
        same = int((nat.loc[both, "outcome"] == rem.loc[both, "outcome"]).sum())
        out[arm] = {
            "same": same,
            "pairs": len(both),
            "rtt": {s: cell(g, scheme=s)["rtt_ms"].mean() for s in set(g["scheme"])},
            "cwnd": {s: cell(g, scheme=s)["cwnd"].mean() for s in set(g["scheme"])},
            "given_up": {s: cell(g, scheme=s)["drops_mac"].mean() for s in set(g["scheme"])},
            "d_rtt": _diff(
                rem.loc[both, "rtt_ms"].to_numpy(float), nat.loc[both, "rtt_ms"].to_numpy(float)
            ),  # fmt: skip
        }
    return out


def _cause_text(c: pd.DataFrame) -> str:
    """The cause sweeps' result in one sentence, cited by the rows about the remedy."""
    k = _cause_numbers(c)
    if "rate" not in k or "mpdu" not in k:
        return "hypothesis (the cause sweeps were not run): whole PPDUs fail, not subframes."
    r, m = k["rate"], k["mpdu"]
    return (
        f"Tested (section 'The cause, tested by a run'): at a fixed {CAUSE_RATE_MBPS:g} Mbit/s "
        f"the remedy's limit is 2 on every TCP frame, yet it gives up "
        f"{r['given_up'].get('remedy', 0):.1f} MPDUs a run and {r['same']} of {r['pairs']} of "
        "its runs are native's bit for bit: the rate it averages, which only sets the limit, is "
        "not the cause. Under Nakagami block fades (the calibration before issue 36) a fade "
        "fails a PPDU with all its subframes (Block-Ack retries come only after the hardware's "
        "tries, never from a partial Block Ack). With each MPDU "
        f"lost on its own ({CAUSE_MPDU_LOSS:.0%}, no fades) the remedy gives up "
        f"{m['given_up'].get('remedy', 0):.0f} MPDUs a run and its RTT falls to "
        f"{m['rtt'].get('remedy', math.nan):.0f} ms, against native's "
        f"{m['rtt'].get('native', math.nan):.0f} and CoDel's {m['rtt'].get('codel', math.nan):.0f}"
        " (that arm also drops the fades and the distance)."
    )


def _lowest(est: cl.Estimate) -> str:
    """A margin for "lowest" (positive: the named scheme is lowest, by that much)."""
    note = f"; {est.detail}" if est.detail else ""
    return f"margin {est.fmt(digits=0, sign=True)} (positive: lowest by that much{note})"


def claims(t: pd.DataFrame, cause: pd.DataFrame | None = None) -> list[Claim]:
    """Every evaluable claim of the paper, measured on the main runs ``t`` (:func:`table`) and
    judged by one rule (reproduce.claims): the interval decides, never the point estimate.
    ``cause``: the cause sweeps' runs (:func:`cause_table`), cited where the remedy differs."""
    if t.empty or "sweep" not in t:
        return []
    cause = pd.DataFrame() if cause is None else cause
    tested = _cause_text(cause)
    out: list[Claim] = []
    below = {b: (lambda r, b=b: r < b) for b in (LOW_RATE_MBPS, CWND_SPLIT_MBPS,
                                                 REMEDY_SPLIT_MBPS, HIGH_RATE_MBPS)}  # fmt: skip
    above80: Where = lambda r: r > REMEDY_SPLIT_MBPS  # noqa: E731
    from100: Where = lambda r: r >= HIGH_RATE_MBPS  # noqa: E731
    over100: Where = lambda r: r > HIGH_RATE_MBPS  # noqa: E731

    def similar_pooled(case: str, a: str, b: str, measure: str, where: Where) -> cl.Verdict:
        s = _aligned(t, case, (a, b), measure, _positions(t, case, where))
        est, within = _similar(s[a], s[b])
        return within.verdict(est)

    def direction_pooled(case: str, a: str, b: str, measure: str, where: Where) -> cl.Verdict:
        s = _aligned(t, case, (a, b), measure, _positions(t, case, where))
        return cl.Direction(-1).verdict(_diff(s[a], s[b]))

    def similar_at(a_: np.ndarray, b_: np.ndarray) -> tuple[cl.Estimate, Any]:
        return _similar(a_, b_)

    # 1. Fig. 4(a): the three give a similar throughput.
    spec = _Spec("IV-B", "Fig. 4(a)", "give a similar TCP throughput",
                 "throughput of CoDel and of the proposal minus native's, CUBIC, no delay, all "
                 "positions pooled (paired)", "Mbit/s", "similar")  # fmt: skip
    parts = [(f"{s} - native", similar_pooled("fig4", s, "native", "throughput_mbps",
                                               _everywhere)) for s in ("codel", "remedy")]  # fmt: skip
    out.append(spec.row(cl.Within(0.0, SIMILAR), _all(parts), _parts_text(parts, 1, "Mbit/s"),
                        f"Similar: within {SIMILAR:.0%} of native's mean; both must agree."))  # fmt: skip

    # 2. Fig. 4(b): native's RTT about 1000 ms below 30 Mbit/s.
    spec = _Spec("IV-B", "Fig. 4(b)", "the average RTT of the native 802.11n is large, about "
                 "1000 msec", "native's mean RTT at the positions below 30 Mbit/s, CUBIC",
                 "ms", "about 1000 ms")  # fmt: skip
    low = _positions(t, "fig4", below[LOW_RATE_MBPS])
    est = _mean(_aligned(t, "fig4", ("native",), "rtt_ms", low)["native"])
    within = cl.Within(1000.0, ABOUT, relative=True)
    k = _cause_numbers(cause).get("rate")
    fixed = (f"At a fixed {CAUSE_RATE_MBPS:g} Mbit/s (no rate control; the cause sweep, 30 s "
             f"runs) native's RTT is {k['rtt'].get('native', math.nan):.0f} ms: a rate control "
             "that keeps too high a rate is not the cause (tested). " if k else "")  # fmt: skip
    v = within.verdict(est) if low else _all([])  # no position below 30: nothing to judge
    before = t[(t["sweep"] == "rules-before") & (t["case"] == "fig4")] if "sweep" in t else t[:0]
    before = before[(before["scheme"] == "native") & before["distance_m"].isin(low)]
    kernel = (
        "Cause, tested by the run `rules-before` (section 'What Linux 3.2's kernel profile "
        f"moved'): under RFC rules, where a segment the full qdisc refuses is a loss repaired "
        f"by SACK and RTOs that empty the queues below TCP, native's RTT there is "
        f"{before['rtt_ms'].mean():.0f} ms; under Linux 3.2 a refused segment stays unsent "
        "(CWR), so the queues (1123 packets, about 1.3 s at 10 Mbit/s of goodput) stay full."
        if len(before)
        else "The run `rules-before` (RFC rules) is not in this store."
    )
    out.append(spec.row(within, v, est.fmt(digits=0, unit="ms"),
        f"Positions: {', '.join(f'{d:g} m' for d in low) or 'none below 30 Mbit/s'}. {fixed}"
        + kernel))  # fmt: skip

    # 3. Fig. 4(b): CoDel's RTT below native's at every rate.
    spec = _Spec("IV-B", "Fig. 4(b)", "The average RTT of CoDel is smaller than that of the "
                 "native 802.11n for all values", "CoDel's RTT minus native's at each position, "
                 "CUBIC, no delay (paired)", "ms", "below at every rate")  # fmt: skip
    parts = _per_position(t, "fig4", "codel", "native", "rtt_ms", _everywhere, _direction(-1))
    out.append(spec.row(cl.Direction(-1), _all(parts), _parts_text(parts, 0, "ms"),
                        "Judged per position; every position must agree."))  # fmt: skip

    # 4. Fig. 4(b): native's and CoDel's RTT linear against the rate in log-log.
    spec = _Spec("IV-B", "Fig. 4(b)", "maintains a linear relationship with the average data "
                 "rate in the log-log scale", "bend of the log-log curve of mean RTT against "
                 "average data rate from a straight line, native and CoDel, CUBIC", "decades",
                 "a straight line (linear in log-log)")  # fmt: skip
    within = cl.Within(0.0, LINEAR_BEND_DECADES)
    parts = [(s, within.verdict(_loglog_bend(t, "fig4", s, seed=40 + i)))
             for i, s in enumerate(("native", "codel"))]  # fmt: skip
    out.append(spec.row(within, _all(parts), _parts_text(parts, 2, "decades"),
                        f"Straight: a bend of at most {LINEAR_BEND_DECADES:g} decade; both "
                        "schemes must agree."))  # fmt: skip

    # 5-7, 14-16: the proposal against native and CoDel in Fig. 4(b) and 5(b).
    for case, fig in (("fig4", "Fig. 4(b)"), ("fig5", "Fig. 5(b)")):
        what = "CUBIC, no delay" if case == "fig4" else "CUBIC, 100 ms added"
        spec = _Spec("IV-B", fig, "the average RTT is similar with that of the native 802.11n "
                     "while the average data rate is larger than 80 Mbps",
                     f"the proposal's RTT minus native's above 80 Mbit/s, {what}, pooled "
                     "(paired)", "ms", "similar")  # fmt: skip
        s = _aligned(t, case, ("remedy", "native"), "rtt_ms", _positions(t, case, above80))
        est, within = _similar(s["remedy"], s["native"])
        out.append(spec.row(within, within.verdict(est), est.fmt(digits=1, unit="ms"),
                            "Above 100 Mbit/s the limit stays 10, native's; between 80 and 100 "
                            f"it is 8. Similar: within {SIMILAR:.0%} of native's mean."))  # fmt: skip
        spec = _Spec("IV-B", fig, "the average RTT of our proposal becomes smaller than that of "
                     "the native 802.11n", f"the proposal's RTT minus native's below 80 Mbit/s, "
                     f"{what}, pooled (paired)", "ms", "below")  # fmt: skip
        v = direction_pooled(case, "remedy", "native", "rtt_ms", below[REMEDY_SPLIT_MBPS])
        out.append(spec.row(cl.Direction(-1), v, v.estimate.fmt(digits=0, unit="ms"),
                            tested if v.word != cl.AGREES else ""))  # fmt: skip
        spec = _Spec("IV-B", fig, "and even that of CoDel", f"below 80 Mbit/s the proposal has "
                     f"the lowest RTT of the three, {what}: its margin over the lowest rival "
                     "(paired, pooled)", "ms", "the proposal lowest (below native and CoDel)")  # fmt: skip
        order, est, _ = _ordering(t, case, "remedy", "rtt_ms", below[REMEDY_SPLIT_MBPS],
                                  seed=50 if case == "fig4" else 51)  # fmt: skip
        v = order.verdict(est)
        out.append(spec.row(order, v, _lowest(est),
                            "Judged on which scheme is lowest (Ordering), not only on a gap. "
                            + (tested if v.word != cl.AGREES else "")))  # fmt: skip

    # 8. Fig. 4(c): native's cwnd 700-900 at every rate.
    spec = _Spec("IV-B", "Fig. 4(c)", "the average cwnd is large, 700 to 900 segments, for all "
                 "values", "native's mean cwnd at each position, CUBIC, no delay", "segments",
                 "700-900")  # fmt: skip
    band = cl.Within(800.0, 100.0)
    rates = _position_rates(t, "fig4")
    parts = [(_pos(d, rates), band.verdict(_mean(_aligned(t, "fig4", ("native",), "cwnd",
                                                          [d])["native"])))
             for d in _positions(t, "fig4", _everywhere)]  # fmt: skip
    out.append(spec.row(band, _all(parts), _parts_text(parts),
                        "Judged per position; every position must agree. Hypothesis (not "
                        "tested by a run): under Linux 3.2 the window settles where the queues "
                        "(1123 packets) refuse a segment and CWR cuts it, plus what the path "
                        "holds: inside the band at the slow positions, above it where aggregates "
                        "of up to 64 MPDUs and the Block-Ack window hold many more (300 "
                        "Mbit/s)."))  # fmt: skip

    # 9. Fig. 4(c): CoDel's cwnd small throughout (below native's at every position).
    spec = _Spec("IV-B", "Fig. 4(c)", "In the case of CoDel, the average cwnd is small "
                 "throughout all the range", "CoDel's cwnd minus native's at each position, "
                 "CUBIC, no delay (paired)", "segments", "small everywhere (below native's)")  # fmt: skip
    parts = _per_position(t, "fig4", "codel", "native", "cwnd", _everywhere, _direction(-1))
    out.append(spec.row(cl.Direction(-1), _all(parts), _parts_text(parts),
                        "Judged per position; every position must agree."))  # fmt: skip

    # 10. Fig. 4(c): the proposal's cwnd similar to native's at >= 100 Mbit/s.
    spec = _Spec("IV-B", "Fig. 4(c)", "the average cwnd is similar with that of the native "
                 "802.11n while the average data rate is 100 Mbps or larger", "the proposal's "
                 "cwnd minus native's at >= 100 Mbit/s, CUBIC, pooled (paired)", "segments",
                 "similar")  # fmt: skip
    s = _aligned(t, "fig4", ("remedy", "native"), "cwnd", _positions(t, "fig4", from100))
    est, within = _similar(s["remedy"], s["native"])
    out.append(spec.row(within, within.verdict(est), est.fmt(digits=1),
                        f"Similar: within {SIMILAR:.0%} of native's mean."))  # fmt: skip

    # 11. Fig. 4(c): the proposal's cwnd smaller below 100 Mbit/s.
    spec = _Spec("IV-B", "Fig. 4(c)", "When the average data rate becomes smaller than 100 Mbps, "
                 "the average cwnd also becomes smaller", "the proposal's cwnd minus native's "
                 "below 100 Mbit/s, CUBIC, pooled (paired)", "segments", "smaller")  # fmt: skip
    v = direction_pooled("fig4", "remedy", "native", "cwnd", below[HIGH_RATE_MBPS])
    out.append(spec.row(cl.Direction(-1), v, v.estimate.fmt(digits=0),
                        tested if v.word != cl.AGREES else ""))  # fmt: skip

    # 12. Fig. 4(c): below 40 Mbit/s the proposal's cwnd is below CoDel's.
    spec = _Spec("IV-B", "Fig. 4(c)", "in the range of below 40 Mbps, it is smaller than that of "
                 "CoDel", "the proposal's cwnd minus CoDel's below 40 Mbit/s, CUBIC, pooled "
                 "(paired)", "segments", "below CoDel's")  # fmt: skip
    v = direction_pooled("fig4", "remedy", "codel", "cwnd", below[CWND_SPLIT_MBPS])
    out.append(spec.row(cl.Direction(-1), v, v.estimate.fmt(digits=0),
                        tested if v.word != cl.AGREES else ""))  # fmt: skip

    # 13. IV-B: Reno without delay similar to Fig. 4; 21. Fig. 6(b) similar to Fig. 5(b).
    for case, ref, fig, quote in (
        ("reno0", "fig4", "text", "When TCP Reno is used, the results were similar"),
        ("fig6", "fig5", "Fig. 6(b)", "the average RTT is similar with that in Figure 5 (b)"),
    ):
        spec = _Spec("IV-B", fig, quote, f"each scheme's mean RTT over all positions, "
                     f"{CASE_SHORT[case]} over {CASE_SHORT[ref]} - 1 (independent runs)", "",
                     "similar")  # fmt: skip
        within = cl.Within(0.0, SIMILAR)
        parts = []
        for i, scheme in enumerate(PAPER_SCHEMES):
            a = cell(_main(t, case), scheme=scheme)["rtt_ms"].dropna().to_numpy(float)
            b = cell(_main(t, ref), scheme=scheme)["rtt_ms"].dropna().to_numpy(float)
            est = cl.ratio_of_means(a, b, seed=60 + i) if len(a) and len(b) else _nan("ratio")
            parts.append((scheme, within.verdict(est)))
        shown = "; ".join(f"{n}: {v.estimate.fmt(100, 0, '%', sign=True)} {v.word}"
                          for n, v in parts)  # fmt: skip
        v = _all(parts)
        out.append(spec.row(within, v, shown,
                            f"The RTT is the quantity the paper discusses; similar: the ratio "
                            f"within {SIMILAR:.0%}; every scheme must agree."
                            + (HYPOTHESIS_RENO if v.word == cl.DIFFERS else "")))  # fmt: skip

    # 14. Fig. 5(b): native large and CoDel below native below 100 Mbit/s.
    spec = _Spec("IV-B", "Fig. 5(b)", "the CoDel is smaller than that of the native 802.11n, "
                 "while the average data rate is smaller than 100 Mbps", "CoDel's RTT minus "
                 "native's at each position below 100 Mbit/s, CUBIC, 100 ms added (paired)",
                 "ms", "below")  # fmt: skip
    parts = _per_position(t, "fig5", "codel", "native", "rtt_ms", below[HIGH_RATE_MBPS],
                          _direction(-1))  # fmt: skip
    out.append(spec.row(cl.Direction(-1), _all(parts), _parts_text(parts, 0, "ms"),
                        "Judged per position; every position must agree."))  # fmt: skip

    # 18. Fig. 5(c): CoDel's cwnd larger with the delay than without.
    spec = _Spec("IV-B", "Fig. 5(c)", "The average cwnd of CoDel in the case of additional delay "
                 "is larger", "CoDel's mean cwnd with 100 ms added minus without, CUBIC, all "
                 "positions (independent runs)", "segments", "larger")  # fmt: skip
    a = cell(_main(t, "fig5"), scheme="codel")["cwnd"].to_numpy(float)
    b = cell(_main(t, "fig4"), scheme="codel")["cwnd"].to_numpy(float)
    est = cl.mean_difference(a, b, seed=70) if len(a) and len(b) else _nan("difference")
    out.append(spec.row(cl.Direction(1), cl.Direction(1).verdict(est), est.fmt(digits=0),
                        "The bandwidth-delay product needs the window."))  # fmt: skip

    # 19, 20. Fig. 5(c), 5(a): CoDel's cwnd and throughput similar to the others at >= 100.
    for measure, fig, quote, unit in (
        (
            "cwnd",
            "Fig. 5(c)",
            "The average cwnd of CoDel is similar with the native 802.11n and "
            "our proposal for 100 Mbps and larger",
            "segments",
        ),
        ("throughput_mbps", "Fig. 5(a)", "This brings the similar TCP throughput", "Mbit/s"),
    ):
        what = "cwnd" if measure == "cwnd" else "throughput"
        spec = _Spec("IV-B", fig, quote, f"CoDel's {what} minus native's and minus the "
                     "proposal's at each position of >= 100 Mbit/s, CUBIC, 100 ms added "
                     "(paired)", unit, "similar")  # fmt: skip
        parts = []
        for other in ("native", "remedy"):
            parts += [(f"{n}, - {other}", v) for n, v in _per_position(
                t, "fig5", "codel", other, measure, from100, similar_at)]  # fmt: skip
        v = _all(parts)
        out.append(spec.row(cl.Within(0.0, SIMILAR), v, _parts_text(parts),
                            f"Judged per position and per scheme: within {SIMILAR:.0%} of the "
                            "other's mean there; every part must agree."
                            + (HYPOTHESIS_CODEL_DELAY if v.word == cl.DIFFERS else "")))  # fmt: skip

    # 22, 23. Fig. 6(a), 6(c): CoDel lowest above 100 Mbit/s, Reno, 100 ms.
    for measure, fig, quote, unit in (
        (
            "throughput_mbps",
            "Fig. 6(a)",
            "the average throughput of CoDel is lower than the other schemes",
            "Mbit/s",
        ),
        (
            "cwnd",
            "Fig. 6(c)",
            "the average cwnd of CoDel is also smaller than those of our proposal and the native",
            "segments",
        ),
    ):
        what = "cwnd" if measure == "cwnd" else "throughput"
        spec = _Spec("IV-B", fig, quote, f"above 100 Mbit/s CoDel has the lowest {what} of the "
                     "three, Reno, 100 ms added: its margin over the lowest rival (paired, "
                     "pooled)", unit, "CoDel lowest")  # fmt: skip
        order, est, _ = _ordering(t, "fig6", "codel", measure, over100, seed=80 + len(out))
        out.append(spec.row(order, order.verdict(est), _lowest(est),
                            "After a CoDel drop Reno grows by one segment per RTT (100+ ms)."))  # fmt: skip

    # 24, 25. Fig. 7: CoDel's throughput low at 216 Mbit/s, and a loss causes slow start.
    rates6 = _position_rates(t, "fig6")
    if len(rates6):
        d7 = float((rates6 - FIG7_RATE_MBPS).abs().idxmin())
        spec = _Spec("IV-B", "Fig. 7(a)", "the throughput of CoDel becomes low", "CoDel lowest "
                     "throughput of the three at the position nearest 216 Mbit/s, Reno, 100 ms "
                     "added: its margin over the lowest rival (paired)", "Mbit/s",
                     "CoDel low (from 15 s on, one run)")  # fmt: skip
        order, est, _ = _ordering(t, "fig6", "codel", "throughput_mbps", lambda r: r ==
                                  rates6[d7], seed=90)  # fmt: skip
        out.append(spec.row(order, order.verdict(est), _lowest(est),
                            f"The replications at {_pos(d7, rates6)}; the time of the drop in one"
                            " run (15 s in the paper's) is not compared: see Fig. 7's figure."))  # fmt: skip
        spec = _Spec("IV-B", "Fig. 7(b)", "a packet loss causes slow start", "CoDel's "
                     "retransmission timeouts (each a restart from slow start) per run at the "
                     "position nearest 216 Mbit/s, Reno, 100 ms added", "", "at least one")  # fmt: skip
        est = _mean(_aligned(t, "fig6", ("codel",), "timeouts", [d7])["codel"])
        out.append(spec.row(cl.Direction(1), cl.Direction(1).verdict(est), est.fmt(digits=1),
                            f"At {_pos(d7, rates6)}."))  # fmt: skip

    # 26. V and abstract: the proposal and CoDel decrease the delay at a low data rate.
    spec = _Spec("V", "abstract", "our proposal and CoDel decrease the delay at a low data rate",
                 "CoDel's and the proposal's RTT minus native's below 80 Mbit/s in Fig. 4, 5 "
                 "and 6, pooled per figure (paired)", "ms", "below native")  # fmt: skip
    parts = [(f"{CASE_SHORT[case]} {s}", direction_pooled(case, s, "native", "rtt_ms",
                                                         below[REMEDY_SPLIT_MBPS]))
             for case in ("fig4", "fig5", "fig6") for s in ("codel", "remedy")]  # fmt: skip
    v = _all(parts)
    out.append(spec.row(cl.Direction(-1), v, _parts_text(parts, 0, "ms"),
                        "Every figure and both schemes must agree. "
                        + (tested if v.word != cl.AGREES else "")))  # fmt: skip

    # 27. V and abstract: in some cases CoDel's throughput lower at a high data rate.
    spec = _Spec("V", "abstract", "there are some cases where ... the throughput in CoDel "
                 "becomes lower at a high data rate", "CoDel's throughput minus native's at >= "
                 "100 Mbit/s in Fig. 4, 5 and 6, pooled per figure (paired)", "Mbit/s",
                 "lower in some cases")  # fmt: skip
    parts = [(CASE_SHORT[case], direction_pooled(case, "codel", "native", "throughput_mbps",
                                                 from100)) for case in ("fig4", "fig5", "fig6")]  # fmt: skip
    out.append(spec.row(cl.Direction(-1), _any(parts), _parts_text(parts, 1, "Mbit/s"),
                        "'Some cases': agrees when any figure agrees, differs when all differ."))  # fmt: skip
    return out


# The paper's inventory, read sentence by sentence (docs/paper-002.md): the claims claims()
# judges, and the ones it does not (with why).
EVALUATED = 27
NOT_EVALUABLE: list[NotEvaluable] = [
    NotEvaluable("I", "[2], the previous paper: at 10 m packet losses do not increase but the "
                 "RTT rises up to several seconds", "a result of the previous paper's testbed "
                 "and positions, not of this paper's runs; this paper's own value (about "
                 "1000 ms, Fig. 4(b)) is judged above"),
    NotEvaluable("II-A", "at 6.5 and 13.5 Mbit/s the MAC's retransmission works well and there "
                 "are few packet losses at the TCP and IP level ([2])", "no value stated, and a "
                 "result of the previous paper's runs (airtcp's runs at 7-10 Mbit/s, the "
                 "per-position table, show TCP's retransmissions and timeouts there)"),
    NotEvaluable("III-B", "[2] showed that 2 is an appropriate limit at 6.5 and 13.5 Mbit/s",
                 "a result of the previous paper (its runs, not this paper's)"),
    NotEvaluable("II-A, Table I", "the terminal and the AP support 12 data rates, 6.5 to "
                 "300 Mbit/s", "the testbed's set-up, not a result: airtcp's HT40 short-GI "
                 "two-stream table is these 12 (cargo test ht_rates_include_paper_002s_table_i)"),
    NotEvaluable("III-B, Fig. 2", "the Block-Ack retry limit: 10 / 8 / 5 / 2 at 100 / 50 / 25 "
                 "Mbit/s, and the dashed line linear in log(rate)", "the scheme's definition, "
                 "not a result: drawn from the core's constants (fig2.png; "
                 "test_fig2_draws_the_cores_limits, cargo test ba_retry)"),
    NotEvaluable("III-C", "the rate the limit uses is an exponential moving average with "
                 "coefficient 0.25 at each data transfer request", "the scheme's definition, "
                 "not a result (cargo test ba_retry: 163.625 after 216 then 6.5 Mbit/s)"),
    NotEvaluable("IV-A", "the data rate used in one position is rather stable", "no value or "
                 "tolerance stated; each position's spread of average data rates is in the "
                 "per-position table"),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Figures

MEASURES = (("throughput_mbps", "(a) average throughput [Mbit/s]"),
            ("rtt_ms", "(b) average RTT [ms]"), ("cwnd", "(c) average cwnd [segments]"))  # fmt: skip


def _panels(axes: Sequence[Any], g: pd.DataFrame, schemes: Sequence[str]) -> None:
    """The paper's three panels (a) throughput, (b) RTT, (c) cwnd against the average data
    rate, one point per 60 s upload, for ``schemes``, on ``axes``."""
    for ax, (m, label) in zip(axes, MEASURES, strict=True):
        for s in schemes:
            x = cell(g, scheme=s)
            ax.scatter(x["rate_mbps"], x[m], s=14, marker=MARKERS[s], color=COLORS[s],
                       alpha=0.7, label=LABELS[s])  # fmt: skip
        _rate_axis(ax)
        if m != "throughput_mbps":
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=0)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize=8)


def _case_figure(g: pd.DataFrame, schemes: Sequence[str], title: str) -> Figure:
    """One case in the paper's three panels (:func:`_panels`)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13, 4.2), layout="constrained")
    _panels(fig.subplots(1, 3), g, schemes)
    fig.suptitle(fit_title(title, 13))
    return fig


def _today_figure(main: pd.DataFrame) -> Figure | None:
    """Beyond the paper: Linux today's queueing beside native, a row of the three panels for
    each case (one figure: the paper's panels keep the paper's schemes)."""
    from matplotlib.figure import Figure

    cases = [c for c in CASE_TITLES if not cell(main, case=c).empty]
    if not cases:
        return None
    fig = Figure(figsize=(13, 3.6 * len(cases)), layout="constrained")
    rows = fig.subplots(len(cases), 3, squeeze=False)
    for row, case in zip(rows, cases, strict=True):
        _panels(row, cell(main, case=case), ("native", *TODAY_SCHEMES))
        row[1].set_title(CASE_TITLES[case].split(" (")[0], fontsize=10)
    fig.suptitle(fit_title("Beyond the paper: Linux today's queueing (mac80211 FQ-CoDel with "
                           "airtime fairness, and with AQL) beside native, one point per 60 s "
                           "upload", 13))  # fmt: skip
    return fig


def figures(
    t: pd.DataFrame, root: Path, out: Path, anomaly: pd.DataFrame | None = None
) -> list[Path]:
    """Fig. 2 (the remedy's limit), Fig. 4-6 (and Reno without delay) with the paper's three
    schemes, Linux today's queueing in a figure of its own, Fig. 7 and the anomaly as PNG
    files; return their paths."""
    anomaly = pd.DataFrame() if anomaly is None else anomaly
    from airtcp.plot import save

    out.mkdir(parents=True, exist_ok=True)
    paths = [save(fig2(t), out / "fig2.png")]
    main = t[t["sweep"] == "main"] if "sweep" in t else t
    for case, title in CASE_TITLES.items():
        g = cell(main, case=case)
        if g.empty:
            continue
        paths.append(save(_case_figure(g, PAPER_SCHEMES, title + " (one point per 60 s upload)"),
                          out / f"{CASE_FILES[case]}.png"))  # fmt: skip
    today = _today_figure(main)
    if today is not None:
        paths.append(save(today, out / "beyond-linux-today.png"))
    paths += _timeline(t, root, out)
    paths += _anomaly_figure(anomaly, out)
    return paths


def captions(paths: Sequence[Path]) -> dict[str, str]:
    """The report's caption of each figure, by file name."""
    text = {"fig2.png": FIG2_CAPTION}
    for case, title in CASE_TITLES.items():
        text[f"{CASE_FILES[case]}.png"] = (
            f"{title}: (a) throughput, (b) RTT, (c) cwnd against the average data rate, one "
            "point per 60 s upload, the paper's three schemes; the rate axis is the paper's "
            "(Table I, 6.5-300 Mbit/s), airtcp's runs reach down to about 27."
        )
    text["beyond-linux-today.png"] = (
        "Beyond the paper: Linux today's queueing, mac80211's FQ-CoDel with airtime fairness, "
        "without and with AQL, beside native, in the paper's three panels, a row per case "
        "(Fig. 4-6's and Reno without delay); kept out of the paper's panels."
    )
    text["fig7-timeline.png"] = (
        "Fig. 7: Reno with 100 ms added near 216 Mbit/s, one run per scheme as the paper's: "
        "(a) throughput per second, (b) cwnd against time since the upload started."
    )
    text["beyond-anomaly.png"] = (
        "Beyond the paper: three stations downloading at 2, 6 and 8 m under each queue "
        "arrangement (mean over replications): the performance anomaly and airtime fairness."
    )
    return {p.name: text[p.name] for p in paths if p.name in text}


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
    fig.suptitle(fit_title("Beyond the paper: three stations downloading at 2, 6 and 8 m: the "
                           "performance anomaly and airtime fairness", 9))  # fmt: skip
    return [save(fig, out / "beyond-anomaly.png")]


def _timeline(t: pd.DataFrame, root: Path, out: Path) -> list[Path]:
    """Fig. 7: throughput per second and cwnd against time, Reno, 100 ms, near 216 Mbit/s,
    the paper's three schemes."""
    from matplotlib.figure import Figure

    from airtcp.plot import save

    tl = t[(t["sweep"] == "timeline") & t["scheme"].isin(PAPER_SCHEMES)] if "sweep" in t else t
    if len(tl) != len(PAPER_SCHEMES) or "tcp" not in store.trace_kinds(root):
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
        tl[tl["run_hash"] == h]["scheme"].iloc[0]: load_summary(s)["flows"][0].get(
            "interval_goodput_bps", []
        )
        for h, s in zip(runs["run_hash"], runs["summary_json"], strict=True)
    }
    fig = Figure(figsize=(9, 6), layout="constrained")
    a1, a2 = fig.subplots(2, 1, sharex=True)
    for s in PAPER_SCHEMES:
        g = np.asarray(goodput.get(s, []), dtype=float) / 1e6
        a1.step(np.arange(1, len(g) + 1), g, where="pre", color=COLORS[s], lw=1, label=LABELS[s])
        c = tcp[s]  # the upload starts after the warm-up: its clock, as the goodput's
        a2.step(c["time_ns"] / 1e9 - WARMUP_S, c["cwnd"], where="post", color=COLORS[s], lw=0.8)
    a1.set_ylabel("(a) throughput per second [Mbit/s]")
    a1.set_ylim(bottom=0)
    a1.legend(fontsize=8)
    a2.set_ylabel("(b) cwnd [segments]")
    a2.set_xlabel(
        "time since the upload started [s] (native and the proposal coincide: its limit stays 10)"
    )
    a2.set_xlim(left=0)
    for ax in (a1, a2):
        ax.grid(alpha=0.3)
    rate = cell(tl, scheme="native")["rate_mbps"].iloc[0]
    fig.suptitle(fit_title(f"Fig. 7: Reno, 100 ms added RTT, average data rate {rate:.0f} "
                           f"Mbit/s ({TIMELINE_DISTANCE_M:g} m), one run per scheme", 9))  # fmt: skip
    return [save(fig, out / "fig7-timeline.png")]


# ---------------------------------------------------------------------------------------------
# Report


def _rows(t: pd.DataFrame, case: str) -> list[str]:
    g = cell(t[t["sweep"] == "main"], case=case)
    head = ("| distance [m] | " + " | ".join(
        f"{LABELS[s]}: rate, throughput [Mbit/s], RTT [ms], cwnd, timeouts" for s in SCHEMES)
        + " |")  # fmt: skip
    rows = [head, "|---|" + "---|" * len(SCHEMES)]
    for d, x in g.groupby("distance_m"):
        cells = []
        for s in SCHEMES:
            y = cell(x, scheme=s)
            cells.append(
                f"{y['rate_mbps'].mean():.0f}, "
                f"{mean_ci(y['throughput_mbps'].to_numpy(), floor=0.0).fmt(1, 1)}, "
                f"{mean_ci(y['rtt_ms'].dropna().to_numpy(), floor=0.0).fmt(1, 0)}, "
                f"{y['cwnd'].mean():.0f}, {y['timeouts'].mean():.1f}"
            )
        rows.append(f"| {d:g} | " + " | ".join(cells) + " |")
    return rows


def _region(t: pd.DataFrame, case: str, scheme: str, measure: str, where: Where) -> str:
    """Mean of ``measure`` over ``scheme``'s runs at the positions in ``where`` (t, floor 0)."""
    v = _aligned(t, case, (scheme,), measure, _positions(t, case, where))[scheme]
    return mean_ci(v, floor=0.0).fmt(1, 0 if measure == "rtt_ms" else 1) if len(v) else "-"


def _today_rows(t: pd.DataFrame) -> list[str]:
    """Every scheme's mean RTT and throughput below and above 80 Mbit/s, per case."""
    rows = ["| case | scheme | RTT < 80 Mbit/s [ms] | RTT >= 80 [ms] | throughput < 80 [Mbit/s] "
            "| throughput >= 80 [Mbit/s] |", "|---|---|---|---|---|---|"]  # fmt: skip
    lo: Where = lambda r: r < REMEDY_SPLIT_MBPS  # noqa: E731
    hi: Where = lambda r: r >= REMEDY_SPLIT_MBPS  # noqa: E731
    for case in CASE_TITLES:
        for s in SCHEMES:
            e = [_region(t, case, s, m, w) for m in ("rtt_ms", "throughput_mbps") for w in (lo, hi)]
            rows.append(f"| {CASE_SHORT[case]} | {LABELS[s]} | " + " | ".join(e) + " |")
    return rows


def _cause_rows(c: pd.DataFrame) -> list[str]:
    """The cause sweeps, per arm and scheme: RTT, cwnd, throughput, MPDUs given up."""
    if c.empty:
        return ["The cause sweeps were not run."]
    k = _cause_numbers(c)
    rows = ["| arm | scheme | RTT [ms] | cwnd [segments] | throughput [Mbit/s] | MPDUs given up "
            "| runs native's bit for bit |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for arm, label in CAUSE_ARMS.items():
        g = c[c["arm"] == arm]
        for s in ("native", "codel", "remedy"):
            y = cell(g, scheme=s)
            if y.empty:
                continue
            same = f"{k[arm]['same']} of {k[arm]['pairs']}" if s == "remedy" else "-"
            rows.append(
                f"| {label} | {LABELS[s]} | {mean_ci(y['rtt_ms'].to_numpy(), 0.0).fmt(1, 0)} | "
                f"{mean_ci(y['cwnd'].to_numpy(), 0.0).fmt(1, 0)} | "
                f"{mean_ci(y['throughput_mbps'].to_numpy(), 0.0).fmt(1, 1)} | "
                f"{mean_ci(y['drops_mac'].to_numpy(), 0.0).fmt(1, 1)} | {same} |"
            )
    lines = [
        f"The remedy's failure below 80 Mbit/s was blamed on the rate it averages (the rate "
        f"control's choice for a first attempt, above the rate frames finally go at, keeping "
        f"its limit at 8-10). The test: the same stack at a fixed {CAUSE_RATE_MBPS:g} Mbit/s "
        f"(MCS 0, 40 MHz, short GI; the averaged rate is {CAUSE_RATE_MBPS:g}, so the limit is "
        f"{ba_retry_limit(CAUSE_RATE_MBPS)} on every TCP frame), CUBIC, "
        f"{CAUSE_DURATION_S:g} s uploads, native and the remedy paired by seed, in the wooden "
        f'house under Nakagami block fades (`fading_model = "nakagami-blocks"`, the '
        f"calibration before issue 36) at {', '.join(f'{d:g}' for d in CAUSE_DISTANCES_M)} m; "
        "then in a channel "
        f"without fades where each MPDU is lost on its own ({CAUSE_MPDU_LOSS:.0%}), CoDel "
        "beside them. Means with Student-t 95 % intervals clipped at 0.",
        "",
        *rows,
        "",
    ]
    if "rate" in k and "mpdu" in k:
        lines.append(
            f"Result: under block fades the remedy minus native's RTT is "
            f"{k['rate']['d_rtt'].fmt(digits=1, unit='ms')} and {k['rate']['same']} of "
            f"{k['rate']['pairs']} runs are native's bit for bit: with its limit at 2 it gives "
            f"up {k['rate']['given_up'].get('remedy', 0):.1f} MPDUs a run, so the averaged rate "
            "(which only sets the limit) is not the cause. With MPDUs lost on their "
            f"own the remedy minus native's RTT is {k['mpdu']['d_rtt'].fmt(digits=0, unit='ms')}"
            ": the remedy works, as the paper's, when subframes fail one by one. Under block "
            "fades a fade fails a PPDU with all its subframes, so a Block Ack never reports a "
            "partial loss (the cause). The template's channel (TGn B standing still) decodes "
            "each PPDU per subcarrier at one steady SINR, where MPDUs fail one by one."
        )
    return lines


def _welch(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> cl.Estimate:
    """mean(a) - mean(b) of independent samples with Welch's t interval (no interval below
    two runs a side or without spread)."""
    from scipy import stats

    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    n = min(len(a), len(b))
    if n == 0:
        return cl.Estimate(math.nan, math.nan, math.nan, 0, "difference of means")
    d = float(a.mean() - b.mean())
    if n < 2:
        return cl.Estimate(d, math.nan, math.nan, n, "difference of means")
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return cl.Estimate(d, d, d, n, "difference of means, Welch")
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    h = float(stats.t.ppf(0.5 + level / 2, df)) * se
    return cl.Estimate(d, d - h, d + h, n, "difference of means, Welch")


def _before_rows(t: pd.DataFrame) -> list[str]:
    """The paper's schemes (CUBIC, no added delay) at the positions below 80 Mbit/s under the
    test bed's linux-3.2 profile (the main sweep) and under the rules before it."""
    if t.empty or "sweep" not in t or not (t["sweep"] == "rules-before").any():
        return ["The run `rules-before` is not in this store."]
    lines = [
        "CUBIC, no added delay. The claims are judged under the test bed's TCP, airtcp's "
        "`linux-3.2` profile (docs/scenarios.md, 'Kernel profiles'). The run `rules-before` "
        "repeats the paper's schemes at the positions below 80 Mbit/s with the rules the "
        "template ran before it (RFC rules with SACK): each cell shows before -> linux-3.2, "
        "means over the runs (independent seeds); the RTT change with its Student-t 95 % "
        "interval (a difference of independent means, Welch).",
        "",
        "| position | scheme | RTT [ms] | RTT change [ms] | throughput [Mbit/s] | cwnd "
        "[segments] | TCP retransmissions | RTOs | segments the full qdisc refused |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    before = t[(t["sweep"] == "rules-before") & (t["case"] == "fig4")]
    after = _main(t, "fig4")
    for d in sorted(before["distance_m"].unique()):
        for s in PAPER_SCHEMES:
            b = cell(before, scheme=s, distance_m=d)
            a = cell(after, scheme=s, distance_m=d)
            if b.empty or a.empty:
                continue

            def pair(col: str, digits: int = 0, b: pd.DataFrame = b, a: pd.DataFrame = a) -> str:
                return f"{b[col].mean():.{digits}f} -> {a[col].mean():.{digits}f}"

            change = _welch(a["rtt_ms"].to_numpy(), b["rtt_ms"].to_numpy())
            lines.append(
                f"| {d:g} m | {LABELS[s]} | {pair('rtt_ms')} | {change.fmt(digits=0, sign=True)} "
                f"| {pair('throughput_mbps', 1)} | {pair('cwnd')} | {pair('retransmissions')} | "
                f"{pair('timeouts', 1)} | {pair('drops_qdisc')} |"
            )
    return lines + [
        "",
        "What the profile changes: under the RFC rules a segment the station's full pfifo "
        "(1000 packets over ath9k's 123) refuses is a loss, repaired by SACK or an RTO that "
        "empties the queues below TCP; under Linux 3.2 (tcp_transmit_skb on NET_XMIT_DROP) "
        "the segment stays unsent and the sender enters CWR (a cut per window, so far fewer "
        "refusals), TCP retransmits nothing and the queue stays full: native's window and RTT "
        "rise toward the paper's (700-900 segments, 'about 1000 ms' below 30 Mbit/s). CoDel "
        "drops at the head of the queue before the qdisc fills, so it is little moved.",
    ]


def _method(quick: bool) -> str:
    distances, reps, _ = _axes(quick)
    return (
        f"Runs: {len(distances)} positions x {reps} replications of 60 s per scheme and case; "
        "the schemes of a replication at a position share its seed (the same channel), so "
        "differences are paired. Estimators: a difference of two schemes, the paired "
        "differences' mean with a Student-t interval (conservative at a few pairs, where a "
        "bootstrap undercovers); a mean of a non-negative quantity, Student t clipped at 0; "
        "which scheme is lowest, the winner's margin over its best rival, bootstrap over "
        "pairs (`claims.winner_margin`); two cases (independent seeds), BCa bootstrap of the "
        "ratio or difference of means; the log-log shape, a stratified bootstrap of a "
        "quadratic fit. Regions (below 80 Mbit/s, ...) are sets of positions by native's mean "
        "average data rate there. Declared tolerances, fixed before any run: 'similar' = "
        f"within {SIMILAR:.0%} of the reference scheme's mean over the same runs; 'about X' "
        f"read off a log-scale figure = within {ABOUT:.0%} of X; a band the paper states "
        f"(700-900) as stated; 'linear in log-log' = bent at most {LINEAR_BEND_DECADES:g} "
        "decade from a straight line. A claim over several positions, schemes or figures is "
        "judged per part: agrees when every part agrees, differs when any part differs "
        "('some cases': agrees when any part agrees, differs when all differ). The channel's "
        "calibration and every choice the paper leaves open: docs/paper-002.md; the "
        "positions 1.2 to 10 m span about 300 down to 7 Mbit/s (the paper's 300 to 6.5)."
    )


def _sections(
    t: pd.DataFrame, cause: pd.DataFrame, anomaly: pd.DataFrame
) -> list[tuple[str, list[str]]]:
    per_case: list[str] = []
    for case, title in CASE_TITLES.items():
        per_case += [f"### {title}", "", *_rows(t, case), ""]
    return [
        ("The cause, tested by a run", _cause_rows(cause)),
        ("The channel moving: TGn B at its environment Doppler (run `tgn-b`)", _tgn_rows(t)),
        ("What Linux 3.2's kernel profile moved (run `rules-before`)", _before_rows(t)),
        ("Beyond the paper: Linux today's queueing beside the paper's schemes", [
            "mac80211's per-station FQ-CoDel (target 20 ms) with airtime fairness, no qdisc, 64 "
            "frames in the driver, and with AQL (5/12/24 ms of airtime); the rate control kept "
            "(ath9k's), so only the queues differ. Positions grouped by native's average data "
            "rate; Student-t 95 % intervals clipped at 0.",
            "",
            *_today_rows(t),
            "",
            "### Several stations: the performance anomaly and airtime fairness",
            "",
            "Three stations at 2, 6 and 8 m (no fades, Minstrel-HT) each download by CUBIC for "
            "30 s from the server behind the AP; the AP's queues decide who gets the air.",
            "",
            *_anomaly_rows(anomaly),
        ]),
        ("Per position (mean over replications)", per_case),
    ]  # fmt: skip


# Which channel the paper's house most likely was, and what the others do (issue 36).
STEADY = (
    "The template's channel is TGn's residential channel B standing still (`fading_model = "
    '"tgn-b-static"`): each position keeps one rate, as the paper saw (IV-A: "the data rate '
    'used in one position is rather stable"), and MPDUs fail one by one at that rate, so the '
    "Block-Ack limit has subframes to give up. The paper's house most likely behaved so: a "
    "wooden house is TGn B's residential case, a laptop on a table with nobody moving keeps "
    "its channel, and only subframe losses let a Block-Ack limit act. There the remedy acts "
    "where ath9k's steady rate loses MPDUs (its RTT a few tens of ms at native's throughput, "
    "below CoDel's: the per-position table), and not where the rate seldom fails (a limit of "
    "5 at 25-50 Mbit/s; Table I's lowest rate on a clean link), where it is native bit for "
    "bit; pooled below 80 Mbit/s CoDel stays lowest. Under Nakagami block "
    "fades (the calibration before issue 36) whole PPDUs fail together and the remedy never "
    "acts (the cause section); with the channel moving at TGn's environment Doppler (the "
    "condition beside), the rate swings, and at the far positions TCP times out and the "
    "remedy costs throughput."
)
TGN_CONDITION = 'TGn B moving at 1.2 km/h, estimate at the preamble (`fading_model = "tgn-b"`)'


def headlines(
    claim_list: Sequence[Claim], under: Mapping[str, Claim], quick: bool
) -> list[Headline]:
    """Native's RTT near 1 s at low rates, and the remedy's RTT the lowest below 80 Mbit/s
    at native's throughput; ``under``: the same claims in the `tgn-b` sweep, by text."""
    heads = pick_headlines(claim_list, [
        ("native's mean RTT at the positions below 30 Mbit/s",
         "Native 802.11n's RTT about 1000 ms below 30 Mbit/s", ""),
        ("below 80 Mbit/s the proposal has the lowest RTT of the three, CUBIC, no delay",
         "Below 80 Mbit/s the Block-Ack retry limit's RTT is below native's and CoDel's", STEADY),
        ("throughput of CoDel and of the proposal minus native's",
         "... at native's throughput", ""),
    ])  # fmt: skip
    cmd = (f"airtcp reproduce 002{' --quick' if quick else ''} --out DIR  # the tgn-b sweep; one "
           "run: airtcp run examples/paper-002.toml --set fading_model=tgn-b --set distance_m=8 "
           "--set scheme=ba-retry")  # fmt: skip
    return under_condition(heads, under, TGN_CONDITION, cmd)


def tgn_claims(t: pd.DataFrame, cause: pd.DataFrame) -> dict[str, Claim]:
    """The claims of Fig. 4's case judged on the `tgn-b` sweep's runs, by their text (the
    other cases' claims have no runs there); empty without them."""
    tgn = t[t["sweep"] == "tgn-b"] if "sweep" in t else t.iloc[0:0]
    if tgn.empty:
        return {}
    rows = claims(tgn.assign(sweep="main"), cause)
    return {c.claim: dataclasses.replace(c, runs=("tgn-b",)) for c in rows}


def _tgn_rows(t: pd.DataFrame) -> list[str]:
    """The `tgn-b` sweep per position: the paper's three schemes' rate, throughput, RTT and
    the MPDUs the remedy gave up."""
    tgn = t[t["sweep"] == "tgn-b"] if "sweep" in t else t.iloc[0:0]
    if tgn.empty:
        return ["Not run (the `tgn-b` sweep)."]
    rows = [
        "Fig. 4's case (CUBIC, no added delay) in the template's channel moving: TGn's "
        "residential channel B (IEEE 802.11-03/940r4) at its environment Doppler of 1.2 km/h, "
        "each PPDU decoded per subcarrier against the estimate taken at its preamble, so "
        "subframes late in an A-MPDU fail on their own and the rate follows the fades. Means "
        "over the replications (Student t 95 % for the RTT, clipped at 0).",
        "",
        "| position | average data rate [Mbit/s] | throughput native / CoDel / proposal [Mbit/s] "
        "| RTT native / CoDel / proposal [ms] | MPDUs the proposal gave up |",
        "|---|---|---|---|---|",
    ]
    for d, g in tgn.groupby("distance_m"):
        by = {s: g[g["scheme"] == s] for s in PAPER_SCHEMES}
        thr = " / ".join(f"{by[s]['throughput_mbps'].mean():.1f}" for s in PAPER_SCHEMES)
        rtt = " / ".join(mean_ci(by[s]["rtt_ms"].dropna(), floor=0.0).fmt(digits=0)
                         for s in PAPER_SCHEMES)  # fmt: skip
        rows.append(f"| {d:g} m | {by['native']['rate_mbps'].mean():.1f} | {thr} | {rtt} | "
                    f"{by['remedy']['drops_mac'].mean():.1f} |")  # fmt: skip
    return rows


def analyse(ctx: Context) -> Report:
    """The claims, tables and figures from the stored runs of the paper's sweeps."""
    t = table(ctx.root, ctx.current)
    anomaly = anomaly_table(ctx.root, ctx.current)
    cause = cause_table(ctx.root, ctx.current)
    paths = figures(t, ctx.root, ctx.figures, anomaly)
    claim_list = claims(t, cause)
    return Report(
        headlines=headlines(claim_list, tgn_claims(t, cause), ctx.quick),
        claims=claim_list,
        not_evaluable=NOT_EVALUABLE,
        method=_method(ctx.quick),
        sections=_sections(t, cause, anomaly),
        figures=paths,
        captions=captions(paths),
        definitions=(__doc__ or "").split(DEFINITIONS)[-1],
        tables={"runs.csv": t, "anomaly.csv": anomaly, "cause.csv": cause},
    )
