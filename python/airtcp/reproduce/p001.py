"""Paper 001 (Brar, Singh, Bhatia: TCP in conflict-based wireless links), end to end.

The sweeps (every run stored in ``OUT/store``, resumable):

- ``tcp``: Tahoe, Reno and NewReno x minRTO 1 s, 0.2 s, 0 x replications (§IV, §V);
- ``ackskip``: Tahoe, minRTO 0, one ACK per two segments (§VI, "1-ACK-skip");
- ``probe``: a saturating UDP flow between the same nodes, the available bandwidth (§II).

Each run is the template ``paper-001`` (config/templates.py, as examples/paper-001.toml; §II
with NS-2 2.1b9a defaults, docs/paper-001.md) with the sweep's values. From the stored runs it computes each
claim's measure with a 95 % confidence interval, draws the figures and writes ``report.md``.
Definitions (also in the report and docs/paper-001.md):

- throughput of a transfer: file bytes x 8 / completion time (the paper's "net throughput");
- instantaneous goodput: bytes first delivered to the receiver per 0.1 s (``report_interval_s``);
- available bandwidth: mean goodput of the UDP probe;
- peak goodput: the 90th percentile of a transfer's 0.1 s goodput bins;
- ACKs per 0.1 s: ACKs arriving at the sender (new and duplicate) per bin; at peak: their mean
  over the bins whose goodput is at least the peak goodput;
- low-utilisation interval: a maximal run of 0.1 s bins below 25 % of the available bandwidth,
  at least 0.5 s long, before the transfer completes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from airtcp import analytic, store, sweep
from airtcp.reproduce import claims as cl
from airtcp.reproduce.common import Claim, mean_ci
from airtcp.reproduce.paper import Context, NotEvaluable, Report

__all__ = ["ID", "TEMPLATE", "TITLE", "Claim", "analyse", "scenario", "sweeps"]

ID = "001"
TITLE = "TCP in conflict-based wireless links"
# The scenario is the template "paper-001" (config/templates.py), as examples/paper-001.toml.
TEMPLATE = "paper-001"
DEFINITIONS = "Definitions (also in the report and docs/paper-001.md):"
VARIANTS = ("tahoe", "reno", "newreno")
MIN_RTOS_MS = (1000, 200, 0)
SEED = 2001
BIN_S = 0.1
LOW_UTIL_FRACTION = 0.25
LOW_UTIL_MIN_S = 0.5
PEAK_QUANTILE = 0.9
# Bootstrap resamples for ratio confidence intervals (fixed generator: reruns agree).


def scenario() -> dict[str, Any]:
    """The §II scenario (a TOML dict), as `airtcp run examples/paper-001.toml` loads it."""
    return {"template": TEMPLATE}


def _with(base: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(base))
    for key, value in changes.items():
        node = out
        *parents, leaf = key.split("__")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return out


def sweeps(quick: bool) -> dict[str, sweep.SweepSpec]:
    """The reproduction's sweeps, by name. The TCP runs take about 0.1 s each, so quick mode
    runs as many as the full one (30 a cell): their verdicts cannot differ between the modes
    (issue 31: at 10 a quick "matches" was a full "same direction"); quick mode shortens the
    UDP probe and runs fewer CLAP transfers."""
    reps = 30
    # The stored runs are told apart by name (config.name): the template's, written out.
    base = {**scenario(), "name": "paper-001"}
    traced = _with(base, traces__tcp_segments=True, traces__mac_tx=True, traces__tcp=True)
    probe = _with(
        base,
        name="paper-001-udp-probe",
        duration_s=5.0 if quick else 20.0,
        warmup_s=0.5,
        flows=[{"kind": "udp-saturating", "src": "sta1", "dst": "server", "payload_bytes": 1000}],
    )
    clap = _with(
        base,
        name="paper-001-clap",
        flows=[{"kind": "clap-file", "src": "sta1", "dst": "server", "file_bytes": 1_000_000}],
        clap={"mss_bytes": 1000},  # the same 1000-byte segments as TCP (docs/clap.md)
    )
    for cfg in (probe, clap):
        for key in ("recovery", "min_rto_ms", "tcp"):  # TCP settings: refused without TCP flows
            cfg.pop(key, None)
    ackskip = _with(
        traced,
        name="paper-001-ackskip",
        recovery="tahoe",
        min_rto_ms=0,
        tcp__delayed_ack=True,
        tcp__ack_every=2,
        tcp__delack_timeout_ms=100.0,  # ns-2 Agent/TCPSink/DelAck interval_ 100 ms
    )
    return {
        "tcp": sweep.SweepSpec(
            base=traced,
            grid={"recovery": list(VARIANTS), "min_rto_ms": list(MIN_RTOS_MS)},
            zips=[],
            replications=reps,
            seed=SEED,
        ),
        "ackskip": sweep.SweepSpec(base=ackskip, grid={}, zips=[], replications=reps, seed=SEED),
        "clap": sweep.SweepSpec(
            base=clap, grid={}, zips=[], replications=10 if quick else reps, seed=SEED
        ),
        "probe": sweep.SweepSpec(
            base=probe, grid={}, zips=[], replications=3 if quick else 5, seed=SEED
        ),
    }


# ---------------------------------------------------------------------------------------------
# Measures


def _bins(summary: Mapping[str, Any]) -> np.ndarray:
    """Goodput per 0.1 s bin [bit/s] of the run's first flow, up to its completion."""
    flow = summary["flows"][0]
    series = np.asarray(flow.get("interval_goodput_bps") or [], dtype=float)
    done = (flow.get("tcp") or flow.get("clap") or {}).get("completion_s")
    if done is not None:
        series = series[: max(1, math.ceil(done / BIN_S - 1e-9))]
    return series


def _low_util_intervals(bins: np.ndarray, available_bps: float) -> int:
    low = bins < LOW_UTIL_FRACTION * available_bps
    count, run = 0, 0
    for flag in [*low, False]:
        if flag:
            run += 1
        else:
            count += run * BIN_S >= LOW_UTIL_MIN_S - 1e-9
            run = 0
    return count


def _ack_bins(segments: pd.DataFrame, n_bins: int) -> np.ndarray:
    acks = segments[segments["event"].isin(["acked", "dupack"])]
    idx = (acks["time_ns"].to_numpy() // int(BIN_S * 1e9)).astype(int)
    idx = idx[idx < n_bins]
    return np.bincount(idx, minlength=n_bins).astype(float)


# One DuckDB connection per store during an analysis (each costs a scan of the store's files);
# reproduce() drops it before and after, so a connection never outlives the runs it saw.
_CONNECTIONS: dict[Path, Any] = {}


def _con(root: Path) -> Any:
    if root not in _CONNECTIONS:
        _CONNECTIONS[root] = store.connect(root)
    return _CONNECTIONS[root]


def _tcp_table(root: Path, available_bps: float) -> pd.DataFrame:
    """One row per TCP run: parameters and measures."""
    con = _con(root)
    runs = con.execute(
        'SELECT run_hash, replication, summary_json, error, "config.name" AS name '
        "FROM runs WHERE \"config.name\" IN ('paper-001', 'paper-001-ackskip')"
    ).df()
    failed = runs[runs["error"].notna()]
    if len(failed):
        raise RuntimeError(f"{len(failed)} runs failed, e.g. {failed['error'].iloc[0]}")
    segs = con.execute(
        "SELECT run_hash, time_ns, event FROM tcp_segments WHERE flow = 0 "
        "AND event IN ('acked', 'dupack')"
    ).df()
    by_run = dict(tuple(segs.groupby("run_hash")))
    rows = []
    for r in runs.itertuples():
        s = json.loads(r.summary_json)
        spec_tcp = s["flows"][0]["tcp"]
        if spec_tcp.get("completion_s") is None:
            raise RuntimeError(f"run {r.run_hash}: the transfer did not complete in the run")
        bins = _bins(s)
        acks = _ack_bins(by_run.get(r.run_hash, segs.iloc[:0]), len(bins))
        peak = float(np.quantile(bins, PEAK_QUANTILE)) if len(bins) else math.nan
        peak_acks = float(acks[bins >= peak].mean()) if len(bins) else math.nan
        rows.append(
            {
                "run_hash": r.run_hash,
                "name": r.name,
                "replication": r.replication,
                "completion_s": spec_tcp["completion_s"],
                "throughput_bps": s["flows"][0]["delivered_bytes"] * 8 / spec_tcp["completion_s"],
                "timeouts": spec_tcp["timeouts"],
                "fast_retransmits": spec_tcp["fast_retransmits"],
                "retransmissions": spec_tcp["retransmissions"],
                "low_util_intervals": _low_util_intervals(bins, available_bps),
                "peak_goodput_bps": peak,
                "peak_acks_per_bin": peak_acks,
            }
        )
    table = pd.DataFrame(rows)
    params = con.execute(
        'SELECT run_hash, "config.recovery" AS recovery, "config.min_rto_ms" AS min_rto_ms '
        "FROM runs"
    ).df()
    return table.merge(params, on="run_hash", how="left")


def _clap_table(root: Path) -> pd.DataFrame:
    """One row per CLAP run: throughput, completion, retransmissions, feedback packets."""
    rows = []
    for (js,) in (
        _con(root)
        .execute("SELECT summary_json FROM runs WHERE \"config.name\" = 'paper-001-clap'")
        .fetchall()
    ):
        f = json.loads(js)["flows"][0]
        c = f["clap"]
        if c.get("completion_s") is None:
            raise RuntimeError("a CLAP run did not complete its transfer")
        rows.append(
            {
                "throughput_bps": f["delivered_bytes"] * 8 / c["completion_s"],
                "completion_s": c["completion_s"],
                "segments": c["segments_sent"],
                "retransmissions": c["retransmissions"],
                "feedbacks": c["feedbacks_sent"],
            }
        )
    return pd.DataFrame(rows)


def _available(root: Path) -> tuple[float, list[float], np.ndarray]:
    """Available bandwidth: mean UDP-probe goodput [bit/s], per replication, and one series."""
    con = _con(root)
    rows = con.execute(
        "SELECT replication, summary_json FROM runs WHERE \"config.name\" = 'paper-001-udp-probe' "
        "ORDER BY replication"
    ).fetchall()
    if not rows:
        raise RuntimeError("no UDP probe run stored")
    per_rep = [json.loads(js)["flows"][0]["goodput_bps"] for _, js in rows]
    series = np.asarray(json.loads(rows[0][1])["flows"][0]["interval_goodput_bps"], dtype=float)
    return float(np.mean(per_rep)), per_rep, series


# ---------------------------------------------------------------------------------------------
# Claims


def _sel(t: pd.DataFrame, recovery: str, min_rto_ms: int, name: str = "paper-001") -> pd.DataFrame:
    return t[(t["name"] == name) & (t["recovery"] == recovery) & (t["min_rto_ms"] == min_rto_ms)]


# The declared tolerances of the one verdict rule (reproduce.claims): a value agrees when its
# whole 95 % interval lies within 10 % of the paper's; a relative change (a gain, "+80 %")
# within a quarter of the paper's change, at least 5 points. An interval that crosses an edge
# is inconclusive, with the replications that would decide it.
VALUE_TOLERANCE = 0.10


def _change_band(gain: float) -> cl.Within:
    """A paper's relative change ``gain`` (0.8 for "+80 %") as a declared comparison."""
    return cl.Within(gain, max(0.05, abs(gain) / 4), neutral=0.0)


def _pct(e: cl.Estimate) -> str:
    return f"{e.point * 100:+.0f} % [{e.low * 100:+.0f}, {e.high * 100:+.0f}]"


def _mbps(e: cl.Estimate) -> str:
    return f"{e.point / 1e6:.2f} Mbit/s [{e.low / 1e6:.2f}, {e.high / 1e6:.2f}] (n={e.n})"


def _judged(
    section: str,
    text: str,
    paper: str,
    comparison: cl.Comparison,
    est: cl.Estimate,
    shown: str,
    why: str = "",
) -> Claim:
    """The report's row of one claim, its verdict by the one rule on ``est``'s interval."""
    claim = cl.Claim(text, cl.Where(section), cl.Quantity(text), paper, comparison)
    verdict = claim.judge(est)
    return claim.row(verdict, shown, f"{why} Verdict: {verdict.reason}." if why else "")


def claims(t: pd.DataFrame, available_bps: float, clap: pd.DataFrame | None = None) -> list[Claim]:
    """Every claim of the paper, measured on the stored runs `t` (see :func:`_tcp_table`) and
    judged by one rule (reproduce.claims): the interval decides, never the point estimate.
    The variants' runs have seeds of their own (unpaired): ratios are BCa over independent
    means; means of throughputs, counts and times are Student t intervals clipped at 0."""

    def thr(rec: str, rto: int) -> np.ndarray:
        return _sel(t, rec, rto)["throughput_bps"].to_numpy()

    def mean(x: np.ndarray) -> cl.Estimate:
        return cl.mean_interval(x, "t", floor=0.0)

    out: list[Claim] = []
    # §IV / abstract: "Tahoe ... outperforms TCP-Reno with an 80% gain in throughput" (1 s).
    r = cl.ratio_of_means(thr("tahoe", 1000), thr("reno", 1000), seed=1)
    out.append(_judged(
        "IV", "Tahoe's throughput gain over Reno, minRTO 1 s", "+80 %", _change_band(0.80), r,
        _pct(r),
        "Reno deadlocks after multiple losses in a window and waits for the 1 s timer; Tahoe "
        "slow-starts at once. The size of the gain depends on how many deadlocks a transfer "
        "meets.",
    ))  # fmt: skip
    r = cl.ratio_of_means(thr("tahoe", 1000), thr("newreno", 1000), seed=2)
    out.append(_judged(
        "IV", "Tahoe outperforms NewReno, minRTO 1 s", 'Tahoe ahead "by a significant margin"',
        cl.Direction(+1, 0.0), r, _pct(r),
        "NewReno deadlocks only when a retransmission during fast recovery is lost, which is "
        "rarer here than in the paper. Not explained yet; one known difference: airtcp's "
        "NewReno is RFC 6582's (partial window deflation, timer restarted on partial ACKs), "
        "ns-2.1b9a ran with newreno_changes1_ 0 and partial_window_deflation_ 0 "
        "(docs/paper-001-ns2-defaults.md): a hypothesis, not yet tested by a run.",
    ))  # fmt: skip
    r = cl.ratio_of_means(thr("reno", 200), thr("reno", 1000), seed=3)
    out.append(_judged(
        "V", "Reno's throughput at minRTO 0.2 s over 1 s", '"nearly doubled" (about +100 %)',
        _change_band(1.0), r, _pct(r), "Same timeouts, each 0.8 s shorter.",
    ))  # fmt: skip
    means = {v: thr(v, 0) for v in VARIANTS}
    best = max(means, key=lambda v: means[v].mean())
    worst = min(means, key=lambda v: means[v].mean())
    spread = cl.ratio_of_means(means[best], means[worst], seed=4)
    out.append(_judged(
        "V", "All three alike at minRTO 0 (best over worst mean throughput)",
        '"similar throughputs" (within 10 %)', cl.Within(0.0, VALUE_TOLERANCE), spread,
        ", ".join(f"{v} {means[v].mean() / 1e6:.2f}" for v in VARIANTS)
        + f" Mbit/s; best/worst {_pct(spread)}",
        "With no floor on the timer, a deadlock costs about one RTT-based RTO. The best and "
        "the worst are chosen from the same runs, which biases the spread upward.",
    ))  # fmt: skip
    peak = t[(t["name"] == "paper-001") & (t["min_rto_ms"] == 1000)]
    n_acks = mean(peak["peak_acks_per_bin"].to_numpy())
    out.append(_judged(
        "III", "TCP-ACKs reaching the sender per 0.1 s at peak goodput (all variants, minRTO 1 s)",
        "about 40", cl.Within(40.0, VALUE_TOLERANCE, relative=True), n_acks,
        f"{n_acks.point:.1f} [{n_acks.low:.1f}, {n_acks.high:.1f}] (n={n_acks.n})",
        "At peak every data segment is answered by one ACK (ns-2's sink ACKs every segment).",
    ))  # fmt: skip
    gap = mean((available_bps - peak["peak_goodput_bps"]).to_numpy())
    peak_bps = float(peak["peak_goodput_bps"].mean())
    out.append(_judged(
        "I, III", "Available bandwidth - peak instantaneous goodput",
        "1.47 Mbit/s; peak goodput 30 % below the available bandwidth",
        cl.Within(1.47e6, VALUE_TOLERANCE, relative=True), gap,
        f"{_mbps(gap)}; peak {peak_bps / 1e6:.2f} Mbit/s, "
        f"{(1 - peak_bps / available_bps) * 100:.0f} % below",
        "The channel time of the ACKs and of the frames lost to data/ACK collisions.",
    ))  # fmt: skip
    model = analytic.paper001_overheads()
    lost = model.lost_bandwidth_bps(n_acks.point, BIN_S)
    # Eq. 2-3 against the gap: the difference, its interval from the gap's (the ACK count's
    # own interval moves Eq. 2-3 by less than 1 %).
    diff = cl.Estimate(lost - gap.point, lost - gap.high, lost - gap.low, gap.n, "Eq. 2-3 - gap")
    out.append(_judged(
        "III", "Eq. 2-3 (lost bandwidth from the ACK count) equals that gap",
        "yes: 1.47 Mbit/s both", cl.Within(0.0, VALUE_TOLERANCE * 1.47e6), diff,
        f"Eq. 2-3 with {n_acks.point:.1f} ACKs and the self-consistent T_ACK: "
        f"{lost / 1e6:.2f} Mbit/s vs the gap {gap.point / 1e6:.2f}",
        "Eq. 2 charges each ACK a whole contention cycle (DIFS + mean backoff), but the AP "
        "counts its backoff down while the station does, so an ACK costs less channel time "
        "than T_ACK. The printed Table 1 with 40 ACKs gives 1.71 Mbit/s, not 1.47 "
        "(docs/paper-001.md).",
    ))  # fmt: skip
    base0 = _sel(t, "tahoe", 0)["throughput_bps"].to_numpy()
    skip = t[t["name"] == "paper-001-ackskip"]["throughput_bps"].to_numpy()
    r = cl.ratio_of_means(skip, base0, seed=5)
    out.append(_judged(
        "VI", "Tahoe, minRTO 0: 1-ACK-skip over one ACK per segment", "3 -> 3.36 Mbit/s (+12 %)",
        _change_band(0.12), r,
        f"{base0.mean() / 1e6:.2f} -> {skip.mean() / 1e6:.2f} Mbit/s ({_pct(r)})",
        "Half the TCP-ACK frames: less channel time lost and fewer data/ACK collisions.",
    ))  # fmt: skip
    tahoe0 = mean(base0)
    out.append(_judged(
        "VI", "Tahoe's throughput at minRTO 0", "3 Mbit/s",
        cl.Within(3.0e6, VALUE_TOLERANCE, relative=True), tahoe0, _mbps(tahoe0),
    ))  # fmt: skip
    if clap is not None and not clap.empty:
        c = mean(clap["throughput_bps"].to_numpy())
        out.append(_judged(
            "VI", "CLAP's throughput", "4.41 Mbit/s",
            cl.Within(4.41e6, VALUE_TOLERANCE, relative=True), c, _mbps(c),
            f"{clap['feedbacks'].mean():.0f} feedback packets for {clap['segments'].mean():.0f} "
            "segments; the rate follows the MAC's service time (docs/clap.md: our design, the "
            "paper only sketches it).",
        ))  # fmt: skip
        for label, paper_gain, rto in (("1 s", 0.95, 1000), ("0", 0.47, 0)):
            r = cl.ratio_of_means(
                clap["throughput_bps"].to_numpy(), thr("tahoe", rto), seed=6 + rto
            )
            out.append(_judged(
                "VI", f"CLAP's gain over Tahoe at minRTO {label}", f"{paper_gain * 100:+.0f} %",
                _change_band(paper_gain), r, _pct(r),
                "No ACK per segment, no window to collapse: losses cost one retransmission.",
            ))  # fmt: skip
    else:
        out.append(Claim("VI", "CLAP's throughput", "4.41 Mbit/s", "not run", "not measured", ""))
    lows = {v: _sel(t, v, 1000)["low_util_intervals"].to_numpy() for v in VARIANTS}
    order = cl.Ordering("reno", ("reno", "newreno", "tahoe"))
    margin = order.margin(lows, seed=9)
    out.append(_judged(
        "IV", "Low-utilisation intervals per transfer, minRTO 1 s: Reno has the most",
        "6 / 3 / 1 (Reno / NewReno / Tahoe)", order, margin,
        " / ".join(f"{lows[v].mean():.1f}" for v in ("reno", "newreno", "tahoe")),
        "Each deadlock ends with a timeout; at minRTO 1 s that is about 1 s of near-zero "
        "goodput.",
    ))  # fmt: skip
    d = cl.mean_difference(lows["newreno"], lows["tahoe"], seed=10)
    out.append(_judged(
        "IV", "Low-utilisation intervals per transfer, minRTO 1 s: NewReno more than Tahoe",
        "3 against 1", cl.Direction(+1, 0.0), d,
        f"{d.point:+.1f} [{d.low:+.1f}, {d.high:+.1f}] intervals",
        "NewReno's deadlocks are rarer here than in the paper (see above).",
    ))  # fmt: skip
    reno = mean(_sel(t, "reno", 1000)["completion_s"].to_numpy())
    out.append(_judged(
        "I", "Reno's 1 MB transfer time, minRTO 1 s", '"over 8 seconds"', cl.Direction(+1, 8.0),
        reno, f"{reno.point:.1f} s [{reno.low:.1f}, {reno.high:.1f}] (n={reno.n})",
        "One run in the paper; ours vary with the number of deadlocks.",
    ))  # fmt: skip
    tahoe1 = mean(thr("tahoe", 1000))
    out.append(_judged(
        "VI", "Tahoe's throughput at minRTO 1 s (implied by CLAP's 4.41 Mbit/s = +95 %)",
        "4.41 / 1.95 = 2.26 Mbit/s", cl.Within(2.26e6, VALUE_TOLERANCE, relative=True), tahoe1,
        _mbps(tahoe1),
    ))  # fmt: skip
    return out


# ---------------------------------------------------------------------------------------------
# Figures


def _series(root: Path, name: str, recovery: str | None, min_rto_ms: int | None) -> np.ndarray:
    """Goodput per 0.1 s [bit/s] of replication 0 of one variant, up to completion."""
    cond = [f"\"config.name\" = '{name}'", "replication = 0"]
    if recovery is not None:
        cond.append(f"\"config.recovery\" = '{recovery}'")
    if min_rto_ms is not None:
        cond.append(f'"config.min_rto_ms" = {min_rto_ms}')
    rows = (
        _con(root).execute(f"SELECT summary_json FROM runs WHERE {' AND '.join(cond)}").fetchall()
    )
    return _bins(json.loads(rows[0][0])) if rows else np.zeros(0)


def _acks_series(root: Path, recovery: str, min_rto_ms: int, n_bins: int) -> np.ndarray:
    con = _con(root)
    segs = con.execute(
        "SELECT time_ns, event FROM tcp_segments JOIN runs USING (run_hash) "
        "WHERE \"config.name\" = 'paper-001' AND replication = 0 AND flow = 0 "
        f'AND "config.recovery" = \'{recovery}\' AND "config.min_rto_ms" = {min_rto_ms}'
    ).df()
    return _ack_bins(segs, n_bins)


def _time_axis(n: int) -> np.ndarray:
    return (np.arange(n) + 0.5) * BIN_S


def figures(
    root: Path, out: Path, available: tuple[float, np.ndarray], t: pd.DataFrame
) -> list[Path]:
    """Draw the paper's figures from the store into `out`; return their paths."""
    from matplotlib.figure import Figure

    from airtcp.plot import save

    avail_bps, avail_series = available
    paths = []
    colors = {"tahoe": "tab:blue", "reno": "tab:red", "newreno": "tab:green"}
    # The paper's Fig. 1/3 shape: instantaneous goodput per variant, one panel per minRTO.
    fig = Figure(figsize=(7.5, 8.5), layout="constrained")
    axes = fig.subplots(len(MIN_RTOS_MS), 1, sharex=True)
    for ax, rto in zip(axes, MIN_RTOS_MS, strict=True):
        for v in VARIANTS:
            s = _series(root, "paper-001", v, rto)
            ax.plot(_time_axis(len(s)), s / 1e6, label=v, color=colors[v], lw=1.2)
        ax.axhline(avail_bps / 1e6, color="grey", ls="--", lw=1, label="available (UDP probe)")
        ax.set_title(f"minRTO {rto / 1000:g} s")
        ax.set_ylabel("goodput [Mbit/s]")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, ncols=2)
    axes[-1].set_xlabel("time [s] (bins of 0.1 s; replication 0)")
    fig.suptitle("Paper 001: instantaneous goodput of a 1 MB transfer")
    paths.append(save(fig, out / "goodput-per-variant.png"))

    # ACKs received per 0.1 s beside the goodput (the paper's ACK-count figure), minRTO 1 s.
    fig = Figure(figsize=(7.5, 6), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    for v in VARIANTS:
        s = _series(root, "paper-001", v, 1000)
        ax1.plot(_time_axis(len(s)), s / 1e6, color=colors[v], label=v, lw=1.2)
        acks = _acks_series(root, v, 1000, len(s))
        ax2.plot(_time_axis(len(acks)), acks, color=colors[v], label=v, lw=1.2)
    ax1.set_ylabel("goodput [Mbit/s]")
    ax2.set_ylabel("ACKs at the sender per 0.1 s")
    ax2.set_xlabel("time [s] (minRTO 1 s; replication 0)")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    paths.append(save(fig, out / "acks-per-interval.png"))

    # Net throughput against minRTO with 95 % intervals (the paper's minrto_ figure).
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.add_subplot()
    width = 0.25
    for i, v in enumerate(VARIANTS):
        est = [mean_ci(_sel(t, v, r)["throughput_bps"].to_numpy()) for r in MIN_RTOS_MS]
        xs = np.arange(len(MIN_RTOS_MS)) + (i - 1) * width
        means = np.array([e.value for e in est]) / 1e6
        err = np.array([[e.value - e.low, e.high - e.value] for e in est]).T / 1e6
        ax.bar(xs, means, width, yerr=err, capsize=3, label=v, color=colors[v])
    ax.axhline(avail_bps / 1e6, color="grey", ls="--", lw=1, label="available (UDP probe)")
    ax.set_xticks(np.arange(len(MIN_RTOS_MS)), [f"{r / 1000:g} s" for r in MIN_RTOS_MS])
    ax.set_xlabel("minRTO")
    ax.set_ylabel("net throughput of 1 MB [Mbit/s]")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    n = int(t[t["name"] == "paper-001"].groupby(["recovery", "min_rto_ms"]).size().min())
    ax.set_title(f"mean and 95 % interval over {n} replications")
    paths.append(save(fig, out / "throughput-vs-minrto.png"))

    # CLAP beside Tahoe at minRTO 0 with and without 1-ACK-skip (the paper's §VI figure).
    fig = Figure(figsize=(7.5, 4.4), layout="constrained")
    ax = fig.add_subplot()
    for label, s, c in (
        ("Tahoe, minRTO 0", _series(root, "paper-001", "tahoe", 0), "tab:blue"),
        (
            "Tahoe, minRTO 0, 1-ACK-skip",
            _series(root, "paper-001-ackskip", None, None),
            "tab:purple",
        ),
        ("CLAP", _series(root, "paper-001-clap", None, None), "tab:green"),
    ):
        ax.plot(_time_axis(len(s)), s / 1e6, label=label, color=c, lw=1.2)
    ax.axhline(avail_bps / 1e6, color="grey", ls="--", lw=1, label="available (UDP probe)")
    ax.set_xlabel("time [s] (bins of 0.1 s; replication 0)")
    ax.set_ylabel("goodput [Mbit/s]")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    paths.append(save(fig, out / "ack-skipping-clap.png"))

    # The TCP/MAC sequence diagram (the paper's key view) around each variant's first burst of
    # losses: at least 3 of the sender's data frames lost within 60 ms (minRTO 1 s, rep. 0).
    from airtcp.sequence import sequence

    con = _con(root)
    for v in VARIANTS:
        row = con.execute(
            "SELECT run_hash FROM runs WHERE \"config.name\" = 'paper-001' AND replication = 0 "
            f'AND "config.recovery" = \'{v}\' AND "config.min_rto_ms" = 1000'
        ).fetchone()
        if row is None:
            continue
        lost = con.execute(
            # sta1, the sender, is node 1 of paper-001.toml (ap 0, sta1 1, server 2).
            "SELECT start_ns FROM mac_tx WHERE run_hash = ? AND node = 1 AND kind = 'data' "
            "AND flow = 0 AND outcome <> 'ok' ORDER BY start_ns",
            [row[0]],
        ).fetchall()
        times = [t * 1e-9 for (t,) in lost]
        burst = next(
            (t for i, t in enumerate(times) if i + 2 < len(times) and times[i + 2] - t <= 0.06),
            times[0] if times else None,
        )
        if burst is None:
            continue
        t0 = max(0.0, burst - 0.015)
        fig, _ = sequence(
            root,
            run=row[0],
            t0_s=t0,
            t1_s=t0 + 0.08,
            title=f"{v}, minRTO 1 s: TCP/MAC sequence around its first burst of collisions",
        )
        paths.append(save(fig, out / f"sequence-{v}.png"))
    return paths


# ---------------------------------------------------------------------------------------------
# Report


def _variant_table(t: pd.DataFrame, clap: pd.DataFrame | None = None) -> list[str]:
    lines = [
        "| variant | minRTO | throughput [Mbit/s] | completion [s] | timeouts | fast retransmits "
        "| retransmissions | low-utilisation intervals |",
        "|---|---|---|---|---|---|---|---|",
    ]
    groups = [("paper-001", v, r) for r in MIN_RTOS_MS for v in VARIANTS]
    groups.append(("paper-001-ackskip", "tahoe", 0))
    for name, v, r in groups:
        sub = _sel(t, v, r, name)
        if sub.empty:
            continue
        label = v + (", 1-ACK-skip" if name.endswith("ackskip") else "")
        cells = [
            mean_ci(sub["throughput_bps"].to_numpy()).fmt(1e-6, 2),
            mean_ci(sub["completion_s"].to_numpy()).fmt(1, 2),
            *(
                mean_ci(sub[c].to_numpy()).fmt(1, 1)
                for c in ("timeouts", "fast_retransmits", "retransmissions", "low_util_intervals")
            ),
        ]
        lines.append(f"| {label} | {r / 1000:g} s | " + " | ".join(cells) + " |")
    if clap is not None and not clap.empty:
        cells = [
            mean_ci(clap["throughput_bps"].to_numpy()).fmt(1e-6, 2),
            mean_ci(clap["completion_s"].to_numpy()).fmt(1, 2),
            "-",
            "-",
            mean_ci(clap["retransmissions"].to_numpy()).fmt(1, 1),
            "-",
        ]
        lines.append("| CLAP | - | " + " | ".join(cells) + " |")
    return lines


def _method() -> str:
    return (
        "§II with NS-2 2.1b9a defaults; docs/paper-001.md lists every choice. Every number is "
        "a mean with its 95 % interval over the replications (Student t, clipped at 0; ratios: "
        "BCa bootstrap over independent runs). Declared tolerances: a value within 10 % of the "
        "paper's; a relative change within a quarter of the paper's, at least 5 points; the "
        "paper's sign or winner."
    )


def _sections(
    t: pd.DataFrame, per_rep: list[float], clap: pd.DataFrame | None
) -> list[tuple[str, list[str]]]:
    model = analytic.paper001_overheads()
    avail = mean_ci(per_rep)
    return [
        ("Available bandwidth", [
            f"A saturating UDP flow (1000-byte payloads) between the same nodes: "
            f"{avail.fmt(1e-6, 3, 'Mbit/s')}. The closed form for one station (Table 1 "
            f"recomputed from the standard, `airtcp.analytic.paper001_overheads`): 1000 bytes "
            f"every {model.t_packet_us:.0f} us = {8000 / model.t_packet_us:.3f} Mbit/s of TCP "
            "payload (UDP's 12 fewer header bytes make the probe slightly faster).",
        ]),
        ("Per variant", _variant_table(t, clap)),
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Entry point


def analyse(ctx: Context) -> Report:
    """The claims, tables and figures from the stored runs (one DuckDB connection for the
    analysis, dropped before and after, so it never outlives the runs it saw)."""
    _CONNECTIONS.pop(ctx.root, None)
    try:
        avail_bps, per_rep, avail_series = _available(ctx.root)
        t = _tcp_table(ctx.root, avail_bps)
        clap = _clap_table(ctx.root)
        claim_list = claims(t, avail_bps, clap)
        paths = figures(ctx.root, ctx.figures, (avail_bps, avail_series), t)
    finally:
        _CONNECTIONS.pop(ctx.root, None)
    return Report(
        claims=claim_list,
        not_evaluable=NOT_EVALUABLE,
        method=_method(),
        sections=_sections(t, per_rep, clap),
        figures=paths,
        definitions=(__doc__ or "").split(DEFINITIONS)[-1],
        tables={"runs.csv": t},
    )


# The paper's claims this reproduction does not judge (with claims() above: every claim of the
# paper, read sentence by sentence; docs/paper-001.md).
NOT_EVALUABLE: list[NotEvaluable] = []
