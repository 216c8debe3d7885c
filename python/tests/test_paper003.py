"""Paper 003's reproduction: the analysis, figures and report from a small store (the sweeps
themselves are `airtcp reproduce 003`; docs/paper-003.md)."""

from __future__ import annotations

import warnings
from pathlib import Path

from airtcp.reproduce import p003
from airtcp.sweep import SweepSpec, run_sweep


def test_the_analysis_reads_a_small_store(tmp_path: Path) -> None:
    root = tmp_path / "store"
    line = SweepSpec(
        base={**p003.BASE, "speed_mps": 10.0},
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        run_sweep(line, root, workers=1)
        run_sweep(timeline, root, workers=1)
        run_sweep(up, root, workers=1)
    t = p003.table(root)
    assert set(t["sweep"]) == {"main", "timeline", "upload"} and len(t) == 14
    # Uploading, drops are the station's: a 5-packet queue under a 131072-byte window drops.
    assert (t[t["sweep"] == "upload"]["drop_rate_pct"] > 0).all()
    assert "| upload (cwnd cap) | 5 |" in "\n".join(p003._variant_rows(t))
    claims = p003.claims(t)
    fig4 = [c for c in claims if "Fig. 4" in c.section]
    assert len(fig4) == 2 and all(c.verdict in ("matches", "partly", "differs") for c in fig4)
    assert "of 1 speeds" in fig4[0].airtcp
    paths = p003.figures(t, root, tmp_path / "figures")
    assert {p.name for p in paths} >= {"fig4-away.png", "fig5-toward.png", "timeline.png"}
    report = p003.write_report(tmp_path, t, claims, paths, quick=True).read_text()
    assert "| away | 10 |" in report and "| toward | 10 |" in report
