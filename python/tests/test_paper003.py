"""Paper 003's reproduction: the claims judged by the one verdict rule (issue 31), the analysis,
figures and report from a small store (the sweeps themselves are `airtcp reproduce 003`;
docs/paper-003.md)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from airtcp.reproduce import claims as cl
from airtcp.reproduce import p003, paper
from airtcp.sweep import SweepSpec, expand, run_sweep


def _frame(rows: list[tuple[str, int, float, float]]) -> pd.DataFrame:
    """Runs of one condition: (scheme, replication, throughput [bit/s], drop rate [%])."""
    return pd.DataFrame(
        [
            {"scheme": s, "replication": r, "throughput_bps": thr, "drop_rate_pct": drop}
            for s, r, thr, drop in rows
        ]
    )


def test_a_paired_difference_by_hand() -> None:
    # wnd_max - standard per replication: 1, 2, 3 -> mean 2, Student t (n = 3 < BCA_MIN_N):
    # 2 +- t(0.975, 2) * 1 / sqrt(3) = 2 +- 4.3027 * 0.57735 = 2 +- 2.4841.
    g = _frame([("standard", r, 10.0, 0) for r in range(3)]
               + [("wnd_max", r, 11.0 + r, 0) for r in range(3)])  # fmt: skip
    d = p003.paired_diff(g, "throughput_bps")
    assert (d.point, round(d.low, 4), round(d.high, 4), d.n) == (2.0, -0.4841, 4.4841, 3)
    # The interval spans 0: "higher" is undecided; with differences 2, 3, 4 it lies above 0:
    # "higher" agrees, "lower" differs.
    assert cl.Direction(+1).verdict(d).word == cl.INCONCLUSIVE
    up = p003.paired_diff(
        _frame(
            [("standard", r, 10.0, 0) for r in range(3)]
            + [("wnd_max", r, 12.0 + r, 0) for r in range(3)]
        ),  # fmt: skip
        "throughput_bps",
    )
    assert (round(up.low, 4), round(up.high, 4)) == (0.5159, 5.4841)
    assert cl.Direction(+1).verdict(up).word == cl.AGREES
    assert cl.Direction(-1).verdict(up).word == cl.DIFFERS
    # Pairs are matched by replication, not by row order.
    shuffled = _frame([("wnd_max", r, 12.0 + r, 0) for r in (2, 0, 1)]
                      + [("standard", r, 10.0, 0) for r in (1, 2, 0)])  # fmt: skip
    assert p003.paired_diff(shuffled, "throughput_bps") == up


def test_a_paired_change_by_hand() -> None:
    # Below BCA_MIN_N pairs: the paired t interval of the difference over standard's mean:
    # (11, 12, 13) against (10, 10, 10): +20 % [-4.841, +44.841] %.
    g = _frame([("standard", r, 10.0, 1.0) for r in range(3)]
               + [("wnd_max", r, 11.0 + r, 0.5) for r in range(3)])  # fmt: skip
    e = p003.paired_change(g, "throughput_bps")
    assert (round(e.point, 6), round(e.low, 5), round(e.high, 5)) == (0.2, -0.04841, 0.44841)
    # Drops halved in every pair: a degenerate interval at -50 %.
    e = p003.paired_change(g, "drop_rate_pct")
    assert (e.point, e.low, e.high) == (-0.5, -0.5, -0.5)
    # From BCA_MIN_N pairs on: the paired BCa ratio of reproduce.claims.
    n = p003.BCA_MIN_N
    g = _frame([("standard", r, 10.0 + r, 1.0) for r in range(n)]
               + [("wnd_max", r, 11.0 + r, 1.0) for r in range(n)])  # fmt: skip
    e = p003.paired_change(g, "throughput_bps")
    assert e.method.startswith("paired BCa")
    assert e.point == pytest.approx(n / sum(10.0 + r for r in range(n)))
    # Standard TCP dropped nothing: there is no change to judge (no interval: inconclusive).
    none = _frame([("standard", r, 10.0, 0.0) for r in range(3)]
                  + [("wnd_max", r, 10.0, 0.0) for r in range(3)])  # fmt: skip
    e = p003.paired_change(none, "drop_rate_pct")
    assert not e.has_interval
    assert cl.Within(-0.95, 0.5, relative=True, neutral=0.0).verdict(e).word == cl.INCONCLUSIVE


def test_table_i_gain_band_by_hand() -> None:
    # Table I: 8.85 / 8.44 - 1 = +4.858 %, declared within half of itself: [+2.429, +7.287] %.
    gain = 8.85 / 8.44 - 1
    band = cl.Within(gain, p003.CHANGE_TOLERANCE, relative=True, neutral=0.0)
    assert band.band == pytest.approx((gain / 2, gain * 1.5))

    def word(lo: float, hi: float) -> str:
        return band.verdict(cl.Estimate((lo + hi) / 2, lo, hi, 20, "t")).word

    assert word(0.03, 0.06) == cl.AGREES
    assert word(0.10, 0.15) == cl.AGREES_IN_DIRECTION  # beyond the band, on the paper's side
    assert word(-0.02, 0.01) == cl.DIFFERS  # a loss, or nothing, where the paper gains
    assert word(0.01, 0.05) == cl.INCONCLUSIVE


def test_levels_stay_non_negative() -> None:
    # A drop rate of 0, 0, 3 %: the t interval 1 +- 4.3027 * 1.732 / 1.732 reaches -3.30; the
    # quantity cannot, so it is clipped at 0 (reproduce.claims: clipping keeps the coverage).
    e = p003.level([0.0, 0.0, 3.0])
    assert e.point == 1.0 and e.low == 0.0 and e.high == pytest.approx(1 + 4.302653)
    big = p003.level([0.0] * 15 + [3.0] * 5)  # BCa from BCA_MIN_N on: inside the data's range
    assert big.method.startswith("BCa")
    assert big.low >= 0.0


def test_every_speed_is_judged_on_its_own() -> None:
    est = cl.Estimate(1.0, 0.5, 1.5, 3, "t")
    agree = cl.Direction(+1).verdict(est)
    differ = cl.Direction(+1).verdict(cl.Estimate(-1.0, -1.5, -0.5, 3, "t"))
    open_ = cl.Direction(+1).verdict(cl.Estimate(0.5, -0.5, 1.5, 3, "t"))
    assert open_.needed == 12  # 3 * (1.0 / 0.5) ** 2
    assert p003.every([("1 m/s", agree), ("2 m/s", agree)], "speed").word == cl.AGREES
    # One speed below 0 contradicts "at every speed", however many agree.
    v = p003.every([("1 m/s", agree), ("2 m/s", differ), ("3 m/s", open_)], "speed")
    assert v.word == cl.DIFFERS and "2 m/s" in v.reason
    v = p003.every([("1 m/s", agree), ("2 m/s", open_)], "speed")
    assert (v.word, v.needed) == (cl.INCONCLUSIVE, 12) and "2 m/s" in v.reason
    assert "at the others" in v.reason
    assert "at the others" not in p003.every([("2 m/s", open_)], "speed").reason
    assert "about 12 replications" in v.reason
    # k speeds: each interval at 1 - 0.05 / k, 95 % for the k together (Bonferroni).
    assert p003.simultaneous(10) == pytest.approx(0.995)
    assert p003.simultaneous(1) == pytest.approx(0.95)


def test_arf_first_frames_by_hand() -> None:
    # Blocks where the first frame after an increase fails 80 % against 10 % for the rest:
    # a paired difference of +70 points per block, above 0.
    units = pd.DataFrame(
        {
            "first_failed": [0.8, 0.7, 0.9],
            "first_n": [10, 10, 10],
            "other_failed": [0.1, 0.1, 0.1],
            "other_n": [100, 100, 100],
        }
    )
    row = p003.arf_claim(units)
    assert row.verdict == cl.AGREES and "80.0 % of 30 first frames" in row.airtcp
    units["first_failed"] = [0.01, 0.02, 0.0]  # differences -0.09, -0.08, -0.10
    assert p003.arf_claim(units).verdict == cl.DIFFERS


def test_the_switching_claim_pairs_walks_by_hand() -> None:
    # B at the claims' queue under ARF (the main sweep) and AARF, the same walks: per walk the
    # gains (11/10 - 1, 12/10 - 1, 13/10 - 1) = +10, +20, +30 % under ARF, 0 under AARF:
    # differences 0.1, 0.2, 0.3 -> 0.2 +- 4.3027 * 0.1 / sqrt(3) = [-0.0484, +0.4484]: spans 0.
    rows = []
    for sweep_, wnd in (("main", (11.0, 12.0, 13.0)), ("aarf", (10.0, 10.0, 10.0))):
        for r in range(3):
            for scheme, thr in (("standard", 10.0), ("wnd_max", wnd[r])):
                rows.append({"sweep": sweep_, "mobility": "random-waypoint", "scheme": scheme,
                             "queue_packets": p003.PAPER_QUEUE, "replication": r,
                             "throughput_bps": thr})  # fmt: skip
    t = pd.DataFrame(rows)
    row = p003.switching_claim(t)
    assert row is not None and row.verdict == cl.INCONCLUSIVE
    assert "+20.00 [-4.84, +44.84] points" in row.airtcp
    # Shifted by +0.3 (gains +40, +50, +60 % under ARF): above 0, the paper's explanation holds.
    t.loc[(t["sweep"] == "main") & (t["scheme"] == "wnd_max"), "throughput_bps"] += 3.0
    assert p003.switching_claim(t).verdict == cl.AGREES
    assert p003.switching_claim(t[t["sweep"] == "main"]) is None  # no AARF runs: not judged


def test_figure_names_carry_the_papers_number() -> None:
    assert p003.figure_name(4, "away", p003.PAPER_QUEUE) == "fig4-away.png"
    assert p003.figure_name(5, "toward", 100) == "fig5-toward-q100.png"


def test_the_inventory_is_the_papers_claims() -> None:
    # 4 (Fig. 4 and 5 x throughput, drop rate) + 4 (Table I: two changes, two levels) + §IV's
    # explanation by ARF's switching + ARF's first frame (§III-B-1) evaluated; the abstract's
    # and the conclusion's summary not.
    assert (p003.EVALUATED, len(p003.NOT_EVALUABLE), p003.INVENTORY) == (10, 1, 11)
    assert all(c.why for c in p003.NOT_EVALUABLE)


def _small_store(root: Path) -> set[str]:
    line = SweepSpec(
        base={**p003.BASE, "speed_mps": 10.0, "queue_packets": p003.PAPER_QUEUE},
        grid={"scheme": list(p003.SCHEMES), "mobility": ["away", "toward"]},
        zips=[],
        replications=2,
        seed=1,
        paired=("scheme",),
    )
    specs = p003.sweeps(quick=True)
    timeline = specs["timeline"]
    up = specs["upload"]
    up = SweepSpec(base={**up.base, "duration_s": 5.0, "queue_packets": 5}, grid={"scheme": list(p003.SCHEMES)},
                   zips=[], replications=2, seed=1, paired=("scheme",))  # fmt: skip
    hashes: set[str] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for spec in (line, timeline, up):
            run_sweep(spec, root, workers=1)
            hashes |= {r.run_hash for r in expand(spec)}
    return hashes


def test_the_analysis_reads_a_small_store(tmp_path: Path) -> None:
    hashes = _small_store(tmp_path / "store")
    t = p003.table(tmp_path / "store", hashes)
    assert set(t["sweep"]) == {"main", "timeline", "upload"} and len(t) == 14
    # Uploading, drops are the station's: a 5-packet queue under a 131072-byte window drops.
    assert (t[t["sweep"] == "upload"]["drop_rate_pct"] > 0).all()
    assert "| upload (cwnd cap) | 5 |" in "\n".join(p003._variant_rows(t))
    ctx = paper.Context(tmp_path, quick=True, current=hashes)
    report = p003.analyse(ctx)
    # One verdict rule: every verdict is one of the four words.
    assert report.claims and all(c.verdict in paper.VERDICT_WORDS for c in report.claims)
    fig4 = [c for c in report.claims if "Fig. 4" in c.section]
    assert len(fig4) == 2 and "10 m/s:" in fig4[0].airtcp
    # No random waypoint in this store: Table I's four claims and §IV's switching claim say
    # so, the count stays 11.
    assert len(report.claims) + len(report.not_evaluable) == p003.INVENTORY
    assert sum(c.why.startswith("not run") for c in report.not_evaluable) == 5
    assert any(c.section == "III-B-1" for c in report.claims)  # the traced runs' mac_tx
    names = {p.name for p in report.figures}
    assert names >= {"fig4-away.png", "fig5-toward.png", "extra-timeline.png"}
    # The paper's figure number in each paper figure's file name and caption.
    for p in report.figures:
        m = re.match(r"(fig(\d)|table1|extra)-", p.name)
        assert m, p.name
        if m.group(2):
            assert report.captions[p.name].startswith(f"Fig. {m.group(2)} of the paper")
        assert p.name in report.captions
    lines = paper.report_lines(p003, report, quick=True)
    text = "\n".join(lines)
    assert text.startswith("# Paper 003 reproduced: TCP over adaptive multi-rate 802.11 (ARF)")
    assert "**Coverage:** 11 claims in the paper" in text
    assert "| 20 | away | 10 |" in text and "| 20 | toward | 10 |" in text
    for word in ("matches", "partly", "same direction", "not measured"):
        assert f"**{word}**" not in text


@pytest.mark.slow
def test_reproduce_quick_writes_the_report(tmp_path: Path) -> None:
    from airtcp.reproduce import reproduce

    out = tmp_path / "p003"
    with warnings.catch_warnings():  # B's minimum speed 0 is the paper's (stated in the report)
        warnings.filterwarnings("ignore", message=r".*speed_min_mps = 0", category=UserWarning)
        report = reproduce("003", out, quick=True)
    text = report.read_text()
    assert text.startswith("# Paper 003 reproduced")
    assert f"**Coverage:** {p003.INVENTORY} claims in the paper" in text
    claims = json.loads((out / "claims.json").read_text())
    assert len(claims["claims"]) + len(claims["not_evaluable"]) == p003.INVENTORY
    words = {c["verdict"].removesuffix(" (quick)") for c in claims["claims"]}
    assert words <= set(paper.VERDICT_WORDS)
    # Every "differs" names its cause: tested by a run, or a hypothesis.
    for c in claims["claims"]:
        if c["verdict"] == cl.DIFFERS:
            assert "Cause tested by" in c["why"] or "Hypothesis" in c["why"], c
    for name in ("fig4-away", "fig5-toward", "fig4-away-q100", "table1-rwp-queue"):
        assert (out / "figures" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
        assert f"![{name}](figures/{name}.png)" in text
    assert (out / "report.html").exists() and (out / "runs.csv").exists()
    assert np.isfinite(pd.read_csv(out / "runs.csv")["throughput_bps"]).all()


def test_table_i_rows_by_hand() -> None:
    # Random waypoint at one queue: standard TCP 8.44 Mbit/s and 0.351 % exactly as Table I,
    # wnd_max +4.9 % and -95 % in every pair: every row agrees (degenerate intervals).
    gain, drop = 8.85 / 8.44 - 1, 0.017 / 0.351 - 1
    g = _frame([("standard", r, 8.44e6, 0.351) for r in range(3)]
               + [("wnd_max", r, 8.44e6 * (1 + gain), 0.351 * (1 + drop)) for r in range(3)])  # fmt: skip
    g["queue_packets"] = 20
    rows = p003.table_claims(g)
    assert [r.verdict for r in rows] == [cl.AGREES] * 4
    assert all(r.section == "IV, Table I (B), AP queue 20" for r in rows)
    # Nothing dropped by either scheme: no change to judge, and the level differs.
    g["drop_rate_pct"] = 0.0
    rows = p003.table_claims(g)
    assert rows[1].verdict == cl.INCONCLUSIVE and "dropped nothing" in rows[1].why
    assert rows[3].verdict == cl.DIFFERS


def test_eq11_readings_are_paired_with_rwp_and_lead_the_report_by_hand() -> None:
    # rwp's standard TCP at Table I's values (8.44 Mbit/s, 0.351 %) on three walks; the eq11
    # sweep's window on the RTT of empty queues at +4.9 % and -95 % on each walk, on the
    # smoothed RTT unchanged: the empty reading agrees on both of Table I's changes, the
    # smoothed one differs; the headline section shows the paper's row and the condition's.
    gain, drop = 8.85 / 8.44 - 1, 0.017 / 0.351 - 1
    base = {"sweep": "main", "mobility": "random-waypoint", "queue_packets": 20,
            "every_slot": False}  # fmt: skip
    rows = [{**base, "scheme": "standard", "rtt": "smoothed", "replication": r,
             "throughput_bps": 8.44e6, "drop_rate_pct": 0.351} for r in range(3)]  # fmt: skip
    rows += [{**base, "sweep": "eq11", "scheme": "wnd_max", "rtt": "empty", "replication": r,
              "throughput_bps": 8.44e6 * (1 + gain), "drop_rate_pct": 0.351 * (1 + drop)}
             for r in range(3)]  # fmt: skip
    rows += [{**base, "sweep": "eq11", "scheme": "wnd_max", "rtt": "smoothed", "replication": r,
              "throughput_bps": 8.44e6, "drop_rate_pct": 0.351} for r in range(3)]  # fmt: skip
    t = pd.DataFrame(rows)
    empty = p003.eq11_claims(t, "empty", False, 20)
    assert [c.verdict for c in empty.values()] == [cl.AGREES, cl.AGREES], empty
    # Keyed by the paper's claim, each labelled with the reading it was judged under.
    for paper_claim, c in empty.items():
        assert c.claim == f"{paper_claim} (Eq. 11 on the RTT of empty queues)"
    smoothed = p003.eq11_claims(t, "smoothed", False, 20)
    assert [c.verdict for c in smoothed.values()] == [cl.DIFFERS, cl.DIFFERS], smoothed
    assert p003.eq11_claims(t, "min", False, 20) == {}  # not in the store: no row
    section = "\n".join(p003._eq11_rows(t))
    assert "| RTT of empty queues | rate changes | 20 |" in section
    # The paper's own row is judged on rwp's wnd_max runs; here the smoothed eq11 runs stand
    # in for them (the same settings).
    paper_rows = p003.table_claims(p003.eq11_pairs(t, "smoothed", False, 20))
    heads = p003.headlines(t, paper_rows, quick=False)
    assert [h.claim.verdict for h in heads[:2]] == [cl.DIFFERS, cl.DIFFERS]
    assert [h.under.verdict for h in heads[:2] if h.under] == [cl.AGREES, cl.AGREES]
    lines = "\n".join(paper.headline_lines(heads, quick=False, stable=set()))
    assert lines.startswith("## Headline results")
    assert "| **differs** | Eq. 11 on the RTT of empty queues (AP queue 20) |" in lines
    assert "rtt=empty" in lines
