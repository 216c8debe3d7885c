"""The radio model's shortcuts (issue 37) change the cost, never the results; ``channel.radio.
exact = true`` turns them off.

- Success rates from tables: each value comes with a bound on its distance from the exact
  model (at most 1e-6), and a draw that falls within that distance is settled by the exact
  model (``phy::success_table``).
- Near lists: without fading or with Rayleigh's, a frame is offered only to the nodes it can
  reach above the sensitivity with the largest fade the fading draws can give (``medium::snr``).

So a run with them is the exact run bit for bit: here the example scenarios on the radio model,
and channels chosen to reach every path (CCK under collisions and fading, YANS, 802.11n A-MPDUs
on a static, a Doppler-aged and a TGn channel, a chain whose far nodes are out of reach, with
and without Rayleigh fading), run both ways with every trace on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp import _core
from airtcp.config import Scenario, ScenarioError, apply_value_overrides, load_toml

REPO = Path(__file__).resolve().parents[2]
TRACES = {"mac_tx": True, "tcp": True, "tcp_segments": True, "packets": True, "receptions": True}
RADIO_EXAMPLES = ["distance-udp", "ht-upload", "mobile-tcp", "rayleigh-tcp", "paper-000-tee"]


def _bss(standard: str, stations: int, spacing_m: float = 10.0, **channel: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "name": f"tables-{standard}",
        "topology": "bss",
        "stations": stations,
        "spacing_m": spacing_m,
        "standard": standard,
        "payload_bytes": 1472,
        "channel": {"model": "radio", **channel},
    }
    if standard == "80211b":
        cfg |= {"data_rate_mbps": 11.0, "basic_rate_mbps": 1.0}
    if standard == "80211a":
        cfg |= {"data_rate_mbps": 54.0, "basic_rate_mbps": 6.0}
    if standard == "80211n":
        cfg["ht"] = {"mcs": 7, "ampdu": True}
    return cfg


# name -> scenario dict: the paths through the tables.
CASES: dict[str, dict[str, Any]] = {
    # CCK's tables under heavy collisions (SINRs far below the table's -30 dB), with fading.
    "cck-collisions-rayleigh": _bss("80211b", 30, fading="rayleigh"),
    "cck-collisions": _bss("80211b", 30),
    # OFDM under YANS, with fading, far enough for errors.
    "yans-rayleigh": _bss("80211a", 8, 40.0, fading="rayleigh", error_model="yans"),
    # 802.11n A-MPDUs, each subframe decided on its own: static near the edge of MCS 7, aged
    # by Doppler under the preamble's estimate (the tabulated NIST model is the model there),
    # and TGn's frequency-selective channel.
    "ht-ampdu": _bss("80211n", 3, 21.0),
    "ht-ampdu-doppler": _bss(
        "80211n", 2, 10.0, fading="doppler", doppler_hz=20.0, estimation="preamble"
    ),
    "ht-ampdu-tgn": _bss("80211n", 2, 12.0, fading="tgn-b"),
    # Chains longer than a frame's reach (about 220 m at ns-3's defaults, 735 m with Rayleigh's
    # largest fade, 15.7 dB): the near lists leave the far nodes out of each frame.
    "chain-near": {
        "name": "tables-chain",
        "topology": "chain",
        "hops": 8,
        "spacing_m": 40.0,
        "standard": "80211a",
        "data_rate_mbps": 6.0,
        "channel": {"model": "radio"},
    },
    "chain-near-rayleigh": {
        "name": "tables-chain",
        "topology": "chain",
        "hops": 28,
        "spacing_m": 30.0,
        "standard": "80211a",
        "data_rate_mbps": 6.0,
        "channel": {"model": "radio", "fading": "rayleigh"},
    },
}


def _run(data: dict[str, Any], exact: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    over = {"duration_s": 1.0, "warmup_s": 0.1, "traces": TRACES, "channel.exact": exact}
    res = airtcp.run(apply_value_overrides(data, over), seed=5)
    summary = {k: v for k, v in res.summary.items() if k != "wall_seconds"}
    traces = {k: res.traces[k].to_pylist() for k in TRACES if k in res.traces}
    return summary, traces


def _same_both_ways(data: dict[str, Any]) -> dict[str, Any]:
    fast, exact = _run(data, False), _run(data, True)
    assert fast[1] == exact[1]
    assert fast[0] == exact[0]
    return fast[0]


@pytest.mark.parametrize("name", RADIO_EXAMPLES)
def test_an_example_runs_bit_for_bit_with_the_shortcuts(name: str) -> None:
    _same_both_ways(load_toml(REPO / "examples" / f"{name}.toml"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_path_through_the_shortcuts_gives_the_exact_run(name: str) -> None:
    summary = _same_both_ways(CASES[name])
    # The run did what its name says: frames got through, and some were lost.
    mac = [n["mac"] for n in summary["nodes"] if n.get("mac")]
    assert sum(m["attempts"] for m in mac) > 100
    assert summary["totals"]["goodput_bps"] > 0


@pytest.mark.parametrize(
    ("model", "mode"),
    [
        ("nist", "DsssRate1Mbps"),
        ("nist", "DsssRate2Mbps"),
        ("nist", "DsssRate5_5Mbps"),
        ("nist", "DsssRate11Mbps"),
        ("nist", "OfdmRate6Mbps"),
        ("nist", "OfdmRate54Mbps"),
        ("yans", "OfdmRate24Mbps"),
        ("nist", "HtMcs7"),
        ("yans", "HtMcs15Ht40"),
    ],
)
def test_a_table_value_is_within_its_bound_of_the_exact_model(model: str, mode: str) -> None:
    # Every 0.05 dB from -40 to 55 dB, for a PHY header's, a control frame's and a data
    # frame's bits: the bound holds and is at most 1e-6 (the tables' stated error).
    answered = 0
    for tenth in range(-800, 1100):
        snr_db = tenth * 0.05
        for bits in (24, 48, 112, 304, 12_000):
            got = _core.chunk_success_tabulated(model, mode, snr_db, bits)
            if got is None:
                continue
            answered += 1
            p, bound = got
            exact = _core.chunk_success(model, mode, snr_db, bits)
            assert abs(p - exact) <= bound <= 1e-6, (snr_db, bits, p, exact, bound)
            assert (p == 1.0) == (exact == 1.0), (snr_db, bits)
    assert answered > 0.9 * 1900 * 5


def test_exact_is_a_radio_field() -> None:
    with pytest.raises(ScenarioError, match="exact") as info:
        Scenario.from_dict({"name": "r", "channel": {"exact": True}})
    assert "radio" in str(info.value)
    with pytest.raises(ScenarioError, match="exact") as info:
        Scenario.from_dict({"name": "r", "channel": {"model": "radio", "exact": "yes"}})
    assert "true or false" in str(info.value)
