"""Paper 002's template and reproduction: the scenario it expands to, what each scheme does to
a 60 s upload, and the analysis, figures and report from a small store (the sweeps themselves
are `airtcp reproduce 002`; docs/paper-002.md)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import airtcp
from airtcp.config.errors import ScenarioError
from airtcp.config.templates import expand_template
from airtcp.reproduce import claims as cl
from airtcp.reproduce import p002, paper
from airtcp.reproduce.common import cell
from airtcp.reproduce.paper import VERDICT_WORDS, Report
from airtcp.sweep import SweepSpec, expand, run_sweep

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
    # §IV-A's laptop ran Linux 3.2: its profile (SACK, PRR, local congestion as CWR).
    assert cfg["tcp"] == {"profile": "linux-3.2", "cc": "reno", "mss_bytes": 1448}
    assert expand_template({"template": "paper-002"})["mac"]["qdisc"] == "pfifo"
    # The house: TGn's residential channel B standing still ("the data rate used in one
    # position is rather stable", IV-A), decoded per subcarrier; the earlier block fades a knob.
    ch = cfg["channel"]
    assert (ch["fading"], ch["doppler_hz"], ch["estimation"]) == ("tgn-b", 0.0, "ideal")
    blocks = expand_template({"template": "paper-002", "fading_model": "nakagami-blocks"})
    assert (blocks["channel"]["fading"], blocks["channel"]["coherence_ms"]) == ("nakagami", 50.0)


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


def _small_store(tmp_path: Path) -> tuple[Path, set[str]]:
    """Every sweep of the quick reproduction, shortened: two positions, short runs."""
    root = tmp_path / "store"
    specs = p002.sweeps(quick=True)
    main = specs["main"]
    short = {
        "main": SweepSpec(base={**main.base, "duration_s": 8.0}, grid={"distance_m": [1.2, 8.0]},
                          zips=main.zips, replications=2, seed=1, paired=main.paired),
        "anomaly": dataclasses.replace(specs["anomaly"], base={**specs["anomaly"].base,
                                       "duration_s": 5.0}, replications=1, seed=1),
        "timeline": dataclasses.replace(specs["timeline"], base={**specs["timeline"].base,
                                        "duration_s": 8.0}, seed=1),
        "rules-before": dataclasses.replace(specs["rules-before"], base={
            **specs["rules-before"].base, "duration_s": 8.0}, grid={"distance_m": [8.0]},
            replications=1),
        "cause-rate": dataclasses.replace(specs["cause-rate"], base={**specs["cause-rate"].base,
                                          "duration_s": 5.0}, grid={"distance_m": [8.0]}),
        # 5 s of TCP after the 5 s warm-up: about 0.1 % of MPDUs (0.1 ^ 3) fail all three
        # tries, some 5 a run at 15 Mbit/s, so the remedy's give-ups are no matter of luck.
        "cause-mpdu": dataclasses.replace(specs["cause-mpdu"], base={**specs["cause-mpdu"].base,
                                          "duration_s": 10.0}),
    }  # fmt: skip
    current: set[str] = set()
    for spec in short.values():
        run_sweep(spec, root, workers=1)
        current |= {r.run_hash for r in expand(spec)}
    return root, current


def test_the_sweeps_hold_the_papers_cases_and_the_test_of_the_cause() -> None:
    specs = p002.sweeps(quick=True)
    assert set(specs) == {"main", "anomaly", "timeline", "rules-before", "cause-rate", "cause-mpdu",
                          "tgn-b"}  # fmt: skip
    # The condition under which the remedy acts: Fig. 4's case in TGn B, the paper's schemes.
    tgn = specs["tgn-b"]
    assert (tgn.base["fading_model"], tgn.base["cc"], tgn.base["delay_ms"]) == (
        "tgn-b",
        "cubic",
        0.0,
    )
    cfg = expand_template({k: v for k, v in tgn.base.items() if k != "name"})
    assert (cfg["channel"]["fading"], cfg["channel"]["estimation"]) == ("tgn-b", "preamble")
    assert "coherence_ms" not in cfg["channel"] and max(tgn.grid["distance_m"]) == 12.0
    # What the kernel profile moved: the paper's schemes below 80 Mbit/s under the rules before.
    before = specs["rules-before"]
    assert before.base["tcp"] == {"profile": "rfc", "recovery": "sack"}
    assert before.grid == {"distance_m": [6.0, 8.0, 9.0, 10.0]}
    # Fig. 7 draws the paper's three schemes only.
    assert specs["timeline"].zips[0]["scheme"] == ["none", "none", "ba-retry"]
    # The cause: at a fixed MCS 0 (15 Mbit/s at 40 MHz, short GI) the limit is 2 on every frame.
    rate = specs["cause-rate"]
    assert rate.base["mcs"] == p002.CAUSE_MCS == 0 and p002.ba_retry_limit(15.0) == 2
    cfg = expand_template({k: v for k, v in rate.base.items() if k != "name"})
    assert cfg["mac"]["rate_control"] == "constant" and cfg["channel"]["model"] == "radio"
    # ... under the block fades where it failed (whole PPDUs at one gain).
    assert cfg["channel"]["fading"] == "nakagami"
    mpdu = specs["cause-mpdu"].base
    assert mpdu["channel"]["model"] == "range" and mpdu["ht"]["mcs"] == 0
    # 10 % of full-size MPDUs lost: 1 - (1 - ber)^(8 x 1538 bytes) = 0.1.
    ber = mpdu["channel"]["error"]["ber"]
    assert 1 - (1 - ber) ** (8 * 1538) == pytest.approx(0.10)


def test_on_the_templates_channel_the_remedy_cuts_the_rtt_at_natives_throughput() -> None:
    # The template's house (TGn B standing still), 7 m, 60 s, seed 1 (airtcp's runs): about 18.6
    # Mbit/s, so the remedy's limit is 2; MPDUs fail one by one at that steady rate, the remedy
    # gives 69 up and its RTT falls from native's 807 ms to 28 at the same throughput (11.41
    # against 11.44 Mbit/s): Fig. 4(a)-(b) below 80 Mbit/s.
    native = _run(distance_m=7.0)
    remedy = _run(distance_m=7.0, scheme="ba-retry")
    assert 13.5 < native["mac"]["mean_data_rate_mbps"] < 25.0
    assert native["tcp"]["rtt_mean_s"] > 0.6 and remedy["tcp"]["rtt_mean_s"] < 0.1
    assert remedy["flow"]["goodput_bps"] == pytest.approx(native["flow"]["goodput_bps"], rel=0.02)
    assert remedy["mac"]["drops_retry_limit"] > 0 and native["mac"]["drops_retry_limit"] == 0
    assert native["tcp"]["timeouts"] == remedy["tcp"]["timeouts"] == 0


def test_in_tgn_b_the_remedy_cuts_the_rtt_where_subframes_fail_on_their_own() -> None:
    # TGn B with the estimate at the preamble, 8 m (about 27 Mbit/s, limit 5), 60 s, seed 1
    # (airtcp's runs): native's RTT 793 ms, the remedy's 99 at 8.67 against 9.36 Mbit/s. Its
    # BlockAckReqs go at 6 Mbit/s (mac80211's lowest rate for non-data frames) and pass:
    # at the basic rate of 24 Mbit/s they failed and the window never moved.
    native = _run(distance_m=8.0, fading_model="tgn-b")
    remedy = _run(distance_m=8.0, fading_model="tgn-b", scheme="ba-retry")
    assert native["tcp"]["rtt_mean_s"] > 0.5 and remedy["tcp"]["rtt_mean_s"] < 0.2
    assert remedy["flow"]["goodput_bps"] > 0.85 * native["flow"]["goodput_bps"]
    assert remedy["mac"]["drops_retry_limit"] > 0 and native["mac"]["drops_retry_limit"] == 0
    assert remedy["mac"]["bar_attempts"] > 0
    assert remedy["mac"].get("bar_failures", 0) < remedy["mac"]["bar_attempts"] / 2


def test_the_analysis_reads_a_small_store(tmp_path: Path) -> None:
    root, current = _small_store(tmp_path)
    t = p002.table(root, current)
    a = p002.anomaly_table(root, current)
    c = p002.cause_table(root, current)
    assert len(a) == 3 * len(p002.ANOMALY_QUEUES)
    # Frame by frame the three stations get about the same throughput (the anomaly); with
    # airtime fairness the nearest gets more than the farthest.
    rr = p002.cell(a, queue="mac-fq").set_index("station")["throughput_mbps"]
    fair = p002.cell(a, queue="mac-fq-codel").set_index("station")["throughput_mbps"]
    assert rr.max() < 1.5 * rr.min() and fair["sta1"] > 2 * fair["sta3"]
    assert fair.sum() > rr.sum()
    assert len(t) == 2 * 2 * len(p002.SCHEMES) * len(p002.CASES) + 2 * len(p002.PAPER_SCHEMES)
    # The profile's section: the paper's three schemes at 8 m, before -> linux-3.2.
    before = [x for x in p002._before_rows(t) if x.startswith("| 8 m |")]
    assert len(before) == len(p002.PAPER_SCHEMES) and all(" -> " in x for x in before)
    assert set(t["scheme"]) == set(p002.SCHEMES) and set(t["case"]) == set(p002.CASES)
    # The average data rate falls with distance (the x-axis of every figure).
    main_t = t[t["sweep"] == "main"]
    near = main_t[main_t["distance_m"] == 1.2]["rate_mbps"].mean()
    far = main_t[main_t["distance_m"] == 8.0]["rate_mbps"].mean()
    assert near > 250 and far < near / 2
    # The cause sweeps: 2 + 3 schemes x 2 replications, every run at 15 Mbit/s.
    assert sorted(c.groupby(["arm", "scheme"]).size().items()) == [
        (("mpdu", "codel"), 2), (("mpdu", "native"), 2), (("mpdu", "remedy"), 2),
        (("rate", "native"), 2), (("rate", "remedy"), 2)]  # fmt: skip
    assert (c["rate_mbps"] == 15.0).all()
    # With each MPDU lost on its own the remedy gives MPDUs up; native never does.
    assert cell_sum(c, "mpdu", "remedy") > 0 and cell_sum(c, "mpdu", "native") == 0
    claims = p002.claims(t, c)
    assert len(claims) == p002.EVALUATED == 27
    assert {x.verdict for x in claims} <= set(VERDICT_WORDS)
    paths = p002.figures(t, root, tmp_path / "figures", a)
    assert {p.name for p in paths} == {
        "fig2.png", "fig7-timeline.png", "beyond-anomaly.png",
        "beyond-linux-today.png", *(f"{f}.png" for f in p002.CASE_FILES.values())}  # fmt: skip
    report = Report(claims, p002.NOT_EVALUABLE, "method", figures=paths,
                    captions=p002.captions(paths))  # fmt: skip
    text = "\n".join(paper.report_lines(p002, report, quick=True))
    assert text.startswith(f"# Paper 002 reproduced: {p002.TITLE}")
    assert (
        "**Coverage:** 34 claims in the paper (read sentence by sentence), 27 evaluated, 7 not"
        in text
    )
    assert f"![fig2](figures/fig2.png)\n\n{p002.FIG2_CAPTION}\n" in text
    for word in ("matches", "partly", "disagrees", "not measured", "same direction"):
        assert f"**{word}**" not in text


def cell_sum(c: pd.DataFrame, arm: str, scheme: str) -> int:
    return int(c[(c["arm"] == arm) & (c["scheme"] == scheme)]["drops_mac"].sum())


def test_every_figure_carries_its_number_and_the_papers_schemes(tmp_path: Path) -> None:
    # Synthetic runs of every scheme and case at three positions: the paper's panels draw the
    # paper's three schemes only; Linux today's have panels (files) of their own.
    t = _synthetic({s: 100.0 for s in p002.SCHEMES}, cases=tuple(p002.CASES))
    paths = p002.figures(t, tmp_path / "store", tmp_path / "figures")
    caps = p002.captions(paths)
    for p in paths:
        assert p.name in caps, p.name
        if p.name.startswith("fig"):
            number = p.name[3]
            assert f"Fig. {number}" in caps[p.name], p.name
        else:
            assert p.name.startswith(("beyond-", "text-ivb-")), p.name
    fig = p002._case_figure(cell(t, case="fig4"), p002.PAPER_SCHEMES, "Fig. 4")
    labels = {h.get_label() for ax in fig.axes for h in ax.collections}
    assert labels == {p002.LABELS[s] for s in p002.PAPER_SCHEMES}
    assert fig.axes[0].get_ylim()[0] == 0  # throughput from 0
    assert [ax.get_yscale() for ax in fig.axes] == ["linear", "log", "log"]
    # Linux today's schemes in a figure of their own, a row of the three panels per case.
    today = p002._today_figure(t)
    assert today is not None and len(today.axes) == 3 * len(p002.CASES)
    labels = {h.get_label() for ax in today.axes for h in ax.collections}
    assert labels == {p002.LABELS[s] for s in ("native", *p002.TODAY_SCHEMES)}


def _synthetic(
    values: dict[str, float | list[float]],
    measure: str = "rtt_ms",
    rates: tuple[float, ...] = (300.0, 60.0, 30.0),
    cases: tuple[str, ...] = ("fig4",),
) -> pd.DataFrame:
    """Main-sweep rows: each scheme's ``measure`` at each position (distance = 1 + index) and
    replication (a list: one value per replication, the same at every position)."""
    rows = []
    for case in cases:
        for i, rate in enumerate(rates):
            for s, v in values.items():
                for rep, x in enumerate(v if isinstance(v, list) else [v, v]):
                    rows.append({"sweep": "main", "case": case, "scheme": s, "distance_m": 1.0 + i,
                                 "replication": rep, "rate_mbps": rate, "rtt_ms": 100.0,
                                 "throughput_mbps": 10.0, "cwnd": 100.0, "timeouts": 0,
                                 measure: x})  # fmt: skip
    return pd.DataFrame(rows)


def test_lowest_of_three_needs_the_right_winner() -> None:
    # Paired by replication: remedy 10, 11, 12; CoDel 20, 22, 21; native 50, 51, 52 ms. The
    # remedy is lowest in every resample: its margin over CoDel, 21 - 11 = +10 ms by hand, is
    # above 0 (agrees); named winner CoDel, the margin 11 - 21 = -10 is below 0 (differs).
    t = _synthetic({"remedy": [10.0, 11.0, 12.0], "codel": [20.0, 22.0, 21.0],
                    "native": [50.0, 51.0, 52.0]}, rates=(30.0,))  # fmt: skip
    every = p002._everywhere
    order, est, _ = p002._ordering(t, "fig4", "remedy", "rtt_ms", every, seed=1)
    assert est.point == pytest.approx(10.0) and est.low > 0
    assert order.verdict(est).word == "agrees"
    order, est, _ = p002._ordering(t, "fig4", "codel", "rtt_ms", every, seed=1)
    assert est.point == pytest.approx(-10.0) and order.verdict(est).word == "differs"


def test_similar_is_judged_per_position_on_intervals() -> None:
    # The audit's case (Fig. 5(c)): CoDel's cwnd at a half of native's at every position, the
    # replications tight. Per position the paired difference is -500 +- t(0.975, 1) x 0 / ...
    # = [-510.., -490..]: wholly outside 10 % of native's 1000, so "similar" differs.
    t = _synthetic({"codel": [495.0, 505.0], "native": [1000.0, 1000.0]}, measure="cwnd")
    parts = p002._per_position(t, "fig4", "codel", "native", "cwnd", p002._everywhere,
                               lambda a, b: p002._similar(a, b))  # fmt: skip
    assert len(parts) == 3
    est = parts[0][1].estimate
    # Differences -505 and -495: mean -500, sd 7.071, t(0.975, 1) = 12.706: half 63.53.
    assert (est.point, est.low, est.high) == pytest.approx((-500.0, -563.53, -436.47), abs=0.01)
    assert {v.word for _, v in parts} == {"differs"}
    assert p002._all(parts).word == "differs"
    # Equal runs: a zero-width interval inside the band agrees.
    same = _synthetic({"codel": [990.0, 1010.0], "native": [990.0, 1010.0]}, measure="cwnd")
    parts = p002._per_position(same, "fig4", "codel", "native", "cwnd", p002._everywhere,
                               lambda a, b: p002._similar(a, b))  # fmt: skip
    assert p002._all(parts).word == "agrees"


def test_combinations_of_parts() -> None:
    est = cl.Estimate(0.0, -1.0, 1.0, 2, "t")
    agree = cl.Verdict(cl.AGREES, est, "a")
    differ = cl.Verdict(cl.DIFFERS, est, "d")
    open_ = cl.Verdict(cl.INCONCLUSIVE, est, "i", needed=7)
    # Every position: one part that differs decides; an open part leaves it inconclusive.
    assert p002._all([("x", agree), ("y", differ), ("z", open_)]).word == "differs"
    v = p002._all([("x", agree), ("z", open_)])
    assert (v.word, v.needed) == ("inconclusive", 7)
    assert p002._all([("x", agree), ("y", agree)]).word == "agrees"
    assert p002._all([]).word == "inconclusive"
    # "Some cases": one agreeing part decides; all differing parts differ.
    assert p002._any([("x", differ), ("y", agree)]).word == "agrees"
    assert p002._any([("x", differ), ("y", differ)]).word == "differs"
    assert p002._any([("x", differ), ("z", open_)]).word == "inconclusive"


def test_the_log_log_bend_by_hand() -> None:
    # RTT = 3000 / rate exactly: a straight line in log-log, bend 0 in every resample.
    rates = (300.0, 100.0, 30.0)
    rows = []
    for i, r in enumerate(rates):
        for rep in range(2):
            rows.append({"sweep": "main", "case": "fig4", "scheme": "native",
                         "distance_m": 1.0 + i, "replication": rep, "rate_mbps": r,
                         "rtt_ms": 3000.0 / r})  # fmt: skip
    est = p002._loglog_bend(pd.DataFrame(rows), "fig4", "native", seed=1)
    assert (est.point, est.low, est.high) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    # log10 RTT = 2 + (log10 rate - 2)^2 through rates 10, 100, 1000: c = 1, half the span
    # 1 decade, bend 1 x 1^2 = 1 decade (well outside the 0.1 the claim allows).
    for row, r in zip(rows, (1000.0, 1000.0, 100.0, 100.0, 10.0, 10.0), strict=True):
        row["rate_mbps"], row["rtt_ms"] = r, 10 ** (2 + (np.log10(r) - 2) ** 2)
    est = p002._loglog_bend(pd.DataFrame(rows), "fig4", "native", seed=1)
    assert est.point == pytest.approx(1.0)
    within = cl.Within(0.0, p002.LINEAR_BEND_DECADES)
    assert within.verdict(est).word == "differs"


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
