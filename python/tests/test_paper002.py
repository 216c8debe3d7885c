"""Paper 002's template and reproduction: the scenario it expands to, what each scheme does to
a 60 s upload, and the analysis, figures and report from a small store (the sweeps themselves
are `airtcp reproduce 002`; docs/paper-002.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import airtcp
from airtcp.config.errors import ScenarioError
from airtcp.config.templates import expand_template
from airtcp.reproduce import p002
from airtcp.sweep import SweepSpec, run_sweep

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "paper-002.toml"
CORE_BA_RETRY = Path(__file__).resolve().parents[2] / "crates/airtcp-core/src/xlayer/ba_retry.rs"
# Table I's twelve rates [Mbit/s].
TABLE_I = (6.5, 13.5, 27.0, 40.5, 54.0, 81.0, 108.0, 162.0, 216.0, 243.0, 270.0, 300.0)


def _run(**knobs: Any) -> dict[str, Any]:
    s = airtcp.run(EXAMPLE, overrides=knobs).summary
    flow = s["flows"][0]
    sta = next(n for n in s["nodes"] if n["name"] == "sta1")["mac"]
    return {"flow": flow, "tcp": flow["tcp"], "mac": sta}


def test_the_template_is_the_papers_set_up() -> None:
    cfg = expand_template({"template": "paper-002", "queue": "codel", "scheme": "ba-retry",
                           "delay_ms": 50.0, "cc": "reno"})  # fmt: skip
    # Table I's rates: 5 GHz, 40 MHz, two streams, short GI; ath9k's limits (section IV-A).
    assert cfg["ht"] == {"band_ghz": 5.0, "channel_width_mhz": 40, "short_gi": True, "streams": 2,
                         "mcs": 15, "ampdu": True, "aggregation": "ath9k"}  # fmt: skip
    # Linux 3.2: txqueuelen 1000 over ath9k's ATH_MAX_QDEPTH 123; CoDel as the qdisc.
    assert cfg["mac"]["queue_limit_packets"] == 123 and cfg["mac"]["qdisc_limit_packets"] == 1000
    assert cfg["mac"]["qdisc"] == "codel" and cfg["mac"]["ba_retry_remedy"] is True
    assert cfg["links"][0]["delay_ms"] == 50.0 and cfg["links"][0]["rate_mbps"] == 1000
    assert cfg["tcp"]["cc"] == "reno" and cfg["tcp"]["recovery"] == "sack"
    assert expand_template({"template": "paper-002"})["mac"]["qdisc"] == "pfifo"


def test_bad_knobs_name_the_field() -> None:
    with pytest.raises(ScenarioError, match="mcs: required"):
        expand_template({"template": "paper-002", "rate_control": "constant"})
    with pytest.raises(ScenarioError, match="queue"):
        expand_template({"template": "paper-002", "queue": "fq"})


def test_at_mcs_0_native_fills_the_queues_and_codel_empties_them() -> None:
    # MCS 0 at 40 MHz with the short GI, 15 Mbit/s: CUBIC fills pfifo_fast and ath9k's queue,
    # 1123 packets of 1500 B, 1.2 s at 11 Mbit/s of goodput (hand computation; section II-A's
    # mechanism): slow start overflows them, and the mean RTT stays above 0.4 s.
    native = _run(mcs=0, rate_control="constant", distance_m=2.0, duration_s=30.0)
    codel = _run(mcs=0, rate_control="constant", distance_m=2.0, duration_s=30.0, queue="codel")
    assert native["tcp"]["rtt_mean_s"] > 0.4 and native["tcp"]["mean_cwnd_segments"] > 500
    # CoDel keeps the qdisc's sojourn near 5 ms, but ath9k's 123 frames below it still hold
    # up to 123 x 1500 B x 8 / 11.7 Mbit/s = 126 ms: its RTT lies between.
    assert 0.05 < codel["tcp"]["rtt_mean_s"] < min(0.15, native["tcp"]["rtt_mean_s"] / 3)
    assert codel["mac"]["drops_codel"] > 0
    # Both carry the link: within 10 % of each other.
    assert codel["flow"]["goodput_bps"] > 0.9 * native["flow"]["goodput_bps"]
    # The average data rate is the constant rate (MCS 0, 40 MHz, short GI: 15 Mbit/s).
    assert native["mac"]["mean_data_rate_mbps"] == pytest.approx(15.0)


def test_linux_todays_queues_at_mcs_0() -> None:
    # mac80211's FQ-CoDel holds its sojourn near 20 ms, but below it the driver holds up to 64
    # frames: 64 x 1500 B x 8 / 15 Mbit/s = 51 ms more. AQL lets a station have at most 12 ms
    # of airtime there (plus the frame that crossed the limit), so it cuts about 38 ms of
    # the RTT (hand computation) at the same throughput.
    kw: dict[str, Any] = {
        "mcs": 0,
        "rate_control": "constant",
        "distance_m": 2.0,
        "duration_s": 30.0,
    }
    fq = _run(queue="mac-fq-codel", **kw)
    aql = _run(queue="mac-fq-codel-aql", **kw)
    assert fq["tcp"]["rtt_mean_s"] - aql["tcp"]["rtt_mean_s"] > 0.025
    assert 0.02 < aql["tcp"]["rtt_mean_s"] < 0.05
    assert aql["flow"]["goodput_bps"] > 0.95 * fq["flow"]["goodput_bps"]
    assert fq["mac"]["drops_codel"] > 0 and "drops_qdisc" not in fq["mac"]


def test_the_queue_knobs_reject_bad_combinations() -> None:
    with pytest.raises(ScenarioError, match=r"mac\.txq: not with qdisc"):
        airtcp.Scenario.from_dict({"mac": {"txq": "fq-codel", "qdisc": "codel"}})
    with pytest.raises(ScenarioError, match=r"mac\.aql_high_us: must be >= mac\.aql_low_us"):
        airtcp.Scenario.from_dict({"mac": {"aql_low_us": 9000, "aql_high_us": 8000}})


def test_the_remedy_is_native_bit_for_bit_at_300_mbit_s() -> None:
    # Close to the AP (300 Mbit/s) the limit stays 10: the remedy is native, bit for bit.
    near = [_run(distance_m=1.2, duration_s=10.0, scheme=s)["flow"] for s in ("none", "ba-retry")]
    assert near[0] == near[1]


def test_the_analysis_reads_a_small_store(tmp_path: Path) -> None:
    root = tmp_path / "store"
    specs = p002.sweeps(quick=True)
    main = specs["main"]
    small = SweepSpec(base={**main.base, "duration_s": 8.0}, grid={"distance_m": [1.2, 8.0]},
                      zips=main.zips, replications=2, seed=1, paired=main.paired)  # fmt: skip
    tl = specs["timeline"]
    timeline = SweepSpec(base={**tl.base, "duration_s": 8.0}, grid={}, zips=tl.zips,
                         replications=1, seed=1, paired=tl.paired)  # fmt: skip
    an = specs["anomaly"]
    anomaly = SweepSpec(base={**an.base, "duration_s": 5.0}, grid=an.grid, zips=[],
                        replications=1, seed=1, paired=an.paired)  # fmt: skip
    run_sweep(small, root, workers=1)
    run_sweep(timeline, root, workers=1)
    run_sweep(anomaly, root, workers=1)
    t = p002.table(root)
    a = p002.anomaly_table(root)
    assert len(a) == 3 * len(p002.ANOMALY_QUEUES)
    # Frame by frame the three stations get about the same throughput (the anomaly); with
    # airtime fairness the nearest gets more than the farthest.
    rr = p002.cell(a, queue="mac-fq").set_index("station")["throughput_mbps"]
    fair = p002.cell(a, queue="mac-fq-codel").set_index("station")["throughput_mbps"]
    assert rr.max() < 1.5 * rr.min() and fair["sta1"] > 2 * fair["sta3"]
    assert fair.sum() > rr.sum()
    assert len(t) == 2 * 2 * len(p002.SCHEMES) * len(p002.CASES) + len(p002.SCHEMES)
    assert set(t["scheme"]) == set(p002.SCHEMES) and set(t["case"]) == set(p002.CASES)
    # The average data rate falls with distance (the x-axis of every figure).
    main_t = t[t["sweep"] == "main"]
    near = main_t[main_t["distance_m"] == 1.2]["rate_mbps"].mean()
    far = main_t[main_t["distance_m"] == 8.0]["rate_mbps"].mean()
    assert near > 250 and far < near / 2
    claims = p002.claims(t)
    assert len(claims) == 9
    assert all(c.verdict in ("agrees", "partly", "disagrees") for c in claims)
    paths = p002.figures(t, root, tmp_path / "figures", a)
    assert {p.name for p in paths} == {"fig2.png", "fig4.png", "fig5.png", "fig6.png",
                                       "reno0.png", "timeline.png", "anomaly.png"}  # fmt: skip
    report = p002.write_report(tmp_path, t, claims, paths, quick=True, anomaly=a).read_text()
    assert "| IV-B, Fig. 7 |" in report and "![timeline](figures/timeline.png)" in report
    assert f"![fig2](figures/fig2.png)\n\n{p002.FIG2_CAPTION}\n" in report
    assert "| + AQL |" in report


def _core_limit_for() -> list[tuple[float, int]]:
    """The steps of the core's ``xlayer::ba_retry::limit_for`` as (lowest rate, limit), read
    from its source: each ``rate_mbps >= B { L }`` branch in order, then the ``else { L }``."""
    src = CORE_BA_RETRY.read_text()
    body = src[src.index("pub fn limit_for") :]
    body = body[: body.index("\n}\n")]
    assert not re.search(r"rate_mbps\s*(>|<|<=)\s*\d", body), "limit_for compares other than >="
    steps = re.findall(r"rate_mbps\s*>=\s*([\d.]+)\s*\{\s*(\d+)\s*\}", body)
    (last,) = re.findall(r"else\s*\{\s*(\d+)\s*\}", body)
    return [(float(b), int(v)) for b, v in steps] + [(0.0, int(last))]


def test_fig2_draws_the_cores_limits(tmp_path: Path) -> None:
    core = _core_limit_for()
    assert len(core) == 4  # III-B: 10, 8, 5, 2
    assert list(p002.BA_RETRY_LIMITS) == core

    def core_limit(rate: float) -> int:
        return next(v for b, v in core if rate >= b)

    # Each bound belongs to the step above it (III-B: "10 if rate >= 100 Mbit/s", ...).
    probes = [*TABLE_I, 10.0, 24.99, 25.0, 49.99, 50.0, 99.99, 100.0]
    assert [p002.ba_retry_limit(r) for r in probes] == [core_limit(r) for r in probes]
    assert [p002.ba_retry_limit(r) for r in (6.5, 27.0, 54.0, 108.0)] == [2, 5, 8, 10]
    # The figure's solid line: at each probe the step drawn is the core's limit.
    runs = pd.DataFrame({"sweep": "main", "scheme": ["remedy", "remedy", "native"],
                         "rate_mbps": [30.0, 220.0, 31.0]})  # fmt: skip
    fig = p002.fig2(runs)
    (ax,) = fig.axes
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    step = next(ln for k, ln in lines.items() if k.startswith("the proposal's limit"))
    xs, ys = np.asarray(step.get_xdata(), float), np.asarray(step.get_ydata(), float)
    assert step.get_drawstyle() == "steps-post"
    drawn = [ys[np.searchsorted(xs, r, side="right") - 1] for r in probes]
    assert drawn == [core_limit(r) for r in probes]
    assert xs[0] < min(TABLE_I) and xs[-1] > max(TABLE_I)  # the paper's whole rate axis
    assert [tick for tick in ax.get_xticks()] == list(p002.RATE_TICKS)
    assert ax.get_xscale() == "log"
    # The remedy's runs (and only those) along the bottom, at their average data rates.
    rug = next(ln for k, ln in lines.items() if k.startswith("the remedy's runs"))
    assert list(rug.get_xdata()) == [30.0, 220.0]
    # Written by figures() even before any run is stored; a PNG of some substance.
    empty = pd.DataFrame(columns=["sweep", "scheme", "case", "rate_mbps"])
    (path,) = p002.figures(empty, tmp_path / "store", tmp_path / "figures")
    data = path.read_bytes()
    assert path.name == "fig2.png" and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
