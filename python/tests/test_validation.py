"""The closed-form rungs of the validation ladder (docs/validation.md).

Expected values come from closed-form models (airtcp.analytic: Jun et al. 2003 TMT; Bianchi
2000 with a finite retry limit, Wu et al. 2002), which are themselves tested against hand
computations in test_analytic.py. Tolerances are the foundation issue's acceptance bounds.
"""

from __future__ import annotations

import pytest

pytest.importorskip("airtcp._core")

from airtcp import validation as v  # noqa: E402


@pytest.mark.parametrize("case", v.tmt_cases(), ids=lambda c: f"{c.standard}-{c.data_rate_mbps:g}")
def test_one_station_goodput_within_1_percent_of_tmt(case):
    r = v.run_tmt(case, duration_s=20.0)
    assert abs(r["error"]) < 0.01, r


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    v.bianchi_cases(),
    ids=lambda c: f"{c.access}{'-pd' if c.preamble_detection else ''}-{c.standard}-n{c.stations}",
)
def test_n_stations_match_bianchi(case):
    r = v.run_bianchi(case, duration_s=30.0, seeds=(1, 2, 3))
    # Goodput within 3 % of the variant whose collision time the receivers impose: EIFS under
    # the standard's rule, DIFS when no bystander detects a same-slot collision.
    assert abs(r["error"]) < 0.03, r
    if case.stations >= 10:
        # ... and closer to it than to the other variant once the two differ by > 3 %.
        other = r["error_difs"] if case.collision == "eifs" else r["error_eifs"]
        assert abs(other) > abs(r["error"]), r
    if v.known_dcf_bias(case):
        # DCF freezes the counter through busy slots (10.3.4.3): fewer attempts, lower p.
        assert -0.035 < r["p_error"] < -0.015, r
    else:
        assert abs(r["p_error"]) < 0.02, r


def test_report_is_written_whole(tmp_path):
    tmt = [v.run_tmt(v.TmtCase("80211a", 54, 6), duration_s=2.0)]
    bianchi = [v.run_bianchi(v.BianchiCase("80211b", 11, 1, 2), duration_s=2.0, seeds=(1,))]
    out = v.write_report(tmp_path / "val", tmt, bianchi)
    assert sorted(p.name for p in out.iterdir()) == [
        ".airtcp-output",
        "validation.json",
        "validation.md",
    ]
    (out / "notes.txt").write_text("mine")  # a file of the user's in the report directory
    v.write_report(tmp_path / "val", tmt, bianchi)  # replacing a report leaves no debris
    assert sorted(p.name for p in tmp_path.iterdir()) == ["val"]
    assert sorted(p.name for p in out.iterdir()) == [
        ".airtcp-output",
        "notes.txt",
        "validation.json",
        "validation.md",
    ]
    assert (out / "notes.txt").read_text() == "mine"  # issue 9: never removed
    assert "| 80211a | 54/6 |" in (out / "validation.md").read_text()


def test_rust_airtime_equals_the_analytic_model():
    # Two independent implementations of the same clauses must agree to the nanosecond.
    from airtcp import _core, analytic

    for standard in analytic.STANDARDS:
        for rate in analytic.rates_mbps(standard):
            for preamble in ("long", "short"):
                if preamble == "short" and (rate == 1 or rate not in (2, 5.5, 11)):
                    continue
                for size in (14, 20, 100, 1564, 2346):
                    assert _core.tx_duration_ns(standard, rate, size, preamble) == (
                        analytic.tx_duration_ns(standard, rate, size, preamble=preamble)
                    ), (standard, rate, preamble, size)
