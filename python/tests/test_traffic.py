"""Poisson and on/off UDP sources and a start jitter in scenarios (issue 30, item 9): the
scenario's fields reach the core, bad values name the field, and a run is a pure function of
its seed. The sources' statistics are tested in the core (crates/airtcp-core/tests/traffic.rs)."""

from __future__ import annotations

from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError


def bss(flow: dict[str, Any], **over: Any) -> dict[str, Any]:
    return {
        "name": "traffic", "standard": "80211a", "stations": 1, "duration_s": 6.0,
        "warmup_s": 1.0, "payload_bytes": 1000,
        "flows": [{"src": "sta1", "dst": "ap", **flow}], **over,
    }  # fmt: skip


def test_an_on_off_source_offers_its_rate_times_its_on_share() -> None:
    # 4 Mbit/s while on, 100 ms on and 300 ms off on average: 1 Mbit/s (ns-3 OnOff), within
    # 35 % over 5 s (about 12 cycles of exponential periods).
    flow = {"kind": "udp_onoff", "rate_mbps": 4.0, "on_ms": 100.0, "off_ms": 300.0}
    r = airtcp.run(bss(flow), seed=1)
    spec = r.spec["flows"][0]
    assert spec["kind"] == "udp_onoff"
    assert spec["on_off"] == {"on_mean_ns": 100_000_000, "off_mean_ns": 300_000_000,
                              "distribution": "exponential", "pareto_shape": 1.5}  # fmt: skip
    got = r.summary["flows"][0]["goodput_bps"]
    assert 0.65e6 < got < 1.35e6, got
    assert airtcp.run(bss(flow), seed=1).summary["flows"] == r.summary["flows"]


def test_a_poisson_source_offers_its_mean_rate() -> None:
    r = airtcp.run(bss({"kind": "udp_poisson", "rate_mbps": 2.0}), seed=1)
    # 250 packets a second over 5 s: 1250, within 4 sigma (4 x sqrt(1250) = 141).
    assert abs(r.summary["flows"][0]["delivered_packets"] - 1250) < 141


def test_a_start_jitter_is_in_the_spec_only_when_set() -> None:
    base = airtcp.Scenario.from_dict(bss({"kind": "udp_cbr", "rate_mbps": 1.0}))
    assert "start_jitter_ns" not in base.spec_json()
    jit = airtcp.Scenario.from_dict(
        bss({"kind": "udp_cbr", "rate_mbps": 1.0, "start_s": 1.0, "start_jitter_s": 0.5})
    )
    assert '"start_jitter_ns":500000000' in jit.spec_json()


@pytest.mark.parametrize(
    ("flow", "where", "allowed"),
    [
        ({"kind": "udp_onoff", "rate_mbps": 1.0}, "flows.0.on_ms", "number > 0 ms"),
        ({"kind": "udp_poisson"}, "flows.0.rate_mbps", "number > 0 Mbit/s"),
        ({"kind": "udp_cbr", "rate_mbps": 1.0, "on_ms": 5.0}, "flows.0.on_ms", "udp_onoff"),
        (
            {"kind": "udp_cbr", "rate_mbps": 1.0, "periods": "pareto"},
            "flows.0.periods",
            "udp_onoff",
        ),
        (
            {
                "kind": "udp_onoff",
                "rate_mbps": 1.0,
                "on_ms": 5.0,
                "off_ms": 5.0,
                "pareto_shape": 1.0,
            },
            "flows.0.pareto_shape",
            "> 1",
        ),
        (
            {"kind": "udp_cbr", "rate_mbps": 1.0, "start_jitter_s": 9.0},
            "flows.0.start_jitter_s",
            "< 6",
        ),
        (
            {"kind": "udp_cbr", "rate_mbps": 1.0, "stop_s": 2.0, "start_jitter_s": 3.0},
            "flows.0.start_jitter_s",
            "< 2",
        ),
    ],
)
def test_bad_traffic_fields_name_the_field(flow: dict[str, Any], where: str, allowed: str) -> None:
    with pytest.raises(ScenarioError) as e:
        airtcp.Scenario.from_dict(bss(flow))
    assert where in str(e.value) and allowed in str(e.value), str(e.value)


def test_log_normal_shadowing_reaches_the_core_only_when_set() -> None:
    # Stations 40 m from the AP at 6 Mbit/s under the radio model: about 24 dB of SNR
    # without shadowing. With sigma = 12 dB each of 20 links draws its own loss for the run, so
    # some links fall far below what the rate needs while others gain: the stations' goodputs
    # spread where they were equal.
    def cfg(**ch: Any) -> dict[str, Any]:
        return {
            "name": "shadow", "standard": "80211a", "stations": 20, "spacing_m": 40.0,
            "duration_s": 1.5, "warmup_s": 0.5, "data_rate_mbps": 6.0,
            "channel": {"model": "radio", **ch},
            "flows": [{"kind": "udp_cbr", "src": "sta*", "dst": "ap", "rate_mbps": 0.1}],
        }  # fmt: skip

    assert "shadowing_db" not in airtcp.Scenario.from_dict(cfg()).spec_json()
    flat = airtcp.run(cfg(), seed=1).summary["flows"]
    shadowed = airtcp.run(cfg(shadowing_db=12.0), seed=1).summary["flows"]
    assert len({f["delivered_packets"] for f in flat}) <= 2
    assert min(f["delivered_packets"] for f in shadowed) < 0.5 * max(
        f["delivered_packets"] for f in flat
    )
    with pytest.raises(ScenarioError, match="channel.shadowing_db"):
        airtcp.Scenario.from_dict({**cfg(shadowing_db=3.0), "channel": {"shadowing_db": 3.0}})
