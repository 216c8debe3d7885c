"""CLAP (docs/clap.md) through the Python API: paper 001's upload as a clap_file flow."""

from __future__ import annotations

import pytest

import airtcp

pytest.importorskip("airtcp._core")


def test_paper_001_clap_example_moves_the_file_once(examples_dir):
    r = airtcp.run(examples_dir / "paper-001-clap.toml", seed=1)
    (flow,) = r.summary["flows"]
    clap = flow["clap"]
    assert flow["kind"] == "clap_file"
    assert flow["delivered_bytes"] == 1_000_000  # every byte once
    done = clap["completion_s"]
    # Below the one-station bound 1000 B / 1649 us = 4.85 Mbit/s (analytic.paper001_overheads).
    assert 0 < 8e6 / done < 8000 / 1649e-6
    assert clap["feedbacks_sent"] * 10 < clap["segments_sent"]
    # Goodput per 0.1 s adds up to the file.
    assert sum(g * 0.1 / 8 for g in flow["interval_goodput_bps"]) == pytest.approx(1e6)
    again = airtcp.run(examples_dir / "paper-001-clap.toml", seed=1).summary
    assert {**r.summary, "wall_seconds": 0} == {**again, "wall_seconds": 0}  # deterministic
