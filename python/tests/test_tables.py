"""Python's view of the core's tables (airtcp.tables) and the Python modules that rely on them.

The tables are defined once in the core (crates/airtcp-core/src/tables.rs); these tests check
that what Python still holds of its own (analytic's timing model, its constants) agrees with
them, mode by mode.
"""

from __future__ import annotations

import pytest

from airtcp import _core, analytic, tables


def test_every_standard_lists_its_modes_by_index_ascending() -> None:
    assert tables.standards() == analytic.STANDARDS
    for standard in tables.standards():
        modes = tables.standard_modes(standard)
        rates = [m.rate_mbps for m in modes]
        assert rates == sorted(rates) and len(set(rates)) == len(rates)
        assert analytic.rates_mbps(standard) == tuple(rates)
    # 802.11-2020 Table 17-4: eight OFDM rates; 802.11b: 1, 2, 5.5, 11 (Clauses 15, 16).
    assert tables.rates_mbps("80211a") == (6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0)
    assert tables.rates_mbps("80211b") == (1.0, 2.0, 5.5, 11.0)
    # 6 Mbit/s is two modes (OFDM in 11a, ERP-OFDM in 11g): a rate does not name a mode.
    six = {
        m.name for s in ("80211a", "80211g") for m in tables.standard_modes(s) if m.rate_mbps == 6
    }
    assert six == {"OfdmRate6Mbps", "ErpOfdmRate6Mbps"}


def test_analytic_ofdm_table_covers_exactly_the_cores_ofdm_modes() -> None:
    ofdm = {m.rate_mbps for m in tables.phy_modes() if m.modulation in ("ofdm", "erp-ofdm")}
    assert set(analytic._OFDM_NDBPS) == ofdm


@pytest.mark.parametrize("standard", ["80211a", "80211b", "80211g"])
def test_analytic_airtime_equals_the_cores_for_every_mode(standard: str) -> None:
    # Two implementations of Clauses 15-18 (Python's analytic model, the core's phy): equal to
    # the nanosecond for every mode of the standard, both preambles, three frame sizes.
    for mode in tables.standard_modes(standard):
        for preamble in ("long", "short"):
            if preamble == "short" and mode.rate_mbps == 1.0:
                continue  # the 1 Mbit/s DSSS rate has no short PPDU format (Clause 16)
            for size in (14, 100, 1564):
                want = _core.tx_duration_ns(standard, mode.rate_mbps, size, preamble)
                got = analytic.tx_duration_ns(standard, mode.rate_mbps, size, preamble=preamble)
                assert got == want, (mode.name, preamble, size)


def test_name_tables_and_limits_match_the_core() -> None:
    assert tables.congestion_controls() == (
        "reno",
        "newreno",
        "cubic",
        "bic",
        "vegas",
        "veno",
        "westwood",
        "illinois",
        "agent",
        "bbr",
    )
    assert tables.recoveries() == ("tahoe", "reno", "newreno", "sack")
    assert "constant" in tables.rate_controls()
    lim = tables.limits()
    assert analytic.MAX_RETRY_LIMIT == lim["max_retry_limit"]
    # 2304-byte MSDU (9.2.4.7.1) minus LLC/SNAP 8, IPv4 20 and UDP 8.
    assert lim["max_udp_payload_bytes"] == 2304 - 36


def test_scenario_bounds_hold_within_the_cores() -> None:
    from airtcp import config
    from airtcp.config import limits

    lim = tables.limits()
    assert config.CC_NAMES == tables.congestion_controls()
    assert config.RECOVERY_NAMES == tables.recoveries()
    assert limits.RATE_CONTROL_NAMES == tables.rate_controls()
    assert limits.MAX_QUEUE_PACKETS == lim["max_queue_packets"]
    assert limits.MAX_INITIAL_CWND == lim["max_initial_cwnd"]
    assert limits.MAX_REPORT_INTERVALS == lim["max_report_intervals"]
    assert limits.MAX_PAYLOAD_BYTES == lim["max_udp_payload_bytes"]
    # A scenario's own bound may be stricter than the core's, never looser.
    assert limits.MAX_FILE_BYTES <= lim["max_file_bytes"]


def test_rate_control_reaches_the_world_spec_and_a_bad_name_is_named() -> None:
    from airtcp.config import Scenario, ScenarioError

    spec = Scenario.from_dict({"stations": 1}).to_world_spec()
    assert spec["wifi"]["rate_control"] == "constant"
    with pytest.raises(ScenarioError, match=r"mac\.rate_control: unknown rate control"):
        Scenario.from_dict({"stations": 1, "mac": {"rate_control": "minstrel-htt"}})


def test_a_node_of_its_own_rate_control_reaches_the_world_spec() -> None:
    from airtcp.config import Scenario, ScenarioError

    nodes = [
        {"name": "ap", "role": "ap"},
        {"name": "sta", "role": "sta", "x_m": 5.0, "rate_control": "minstrel"},
    ]
    flows = [{"kind": "udp_saturating", "src": "sta", "dst": "ap"}]
    spec = Scenario.from_dict(
        {"topology": "custom", "nodes": nodes, "flows": flows}
    ).to_world_spec()
    assert "rate_control" not in spec["nodes"][0]
    assert spec["nodes"][1]["rate_control"] == "minstrel"
    bad = [*nodes[:1], {**nodes[1], "rate_control": "onoe"}]
    with pytest.raises(ScenarioError, match=r"nodes\.1\.rate_control: unknown rate control"):
        Scenario.from_dict({"topology": "custom", "nodes": bad, "flows": flows})
