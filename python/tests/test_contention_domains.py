"""Contention domains (issue 18, ``mac::contention``) change the cost, never the results.

Stations sharing one view of the medium keep their backoff ends in one table with a single
scheduler event at the earliest; each armed grant keeps the insertion sequence number its own
event would have had, so every event happens in the same order as with per-station grants
(``mac.per_station_grants``). The golden cases check this on frozen outputs
(test_golden.py); here every example scenario, with every trace on, runs both ways.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import apply_value_overrides, load_toml

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.toml") if not p.name.startswith("sweep-"))
TRACES = {"mac_tx": True, "tcp": True, "tcp_segments": True, "packets": True}


def _run(path: Path, per_station: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    data = load_toml(path)
    over: dict[str, Any] = {"duration_s": 1.0, "warmup_s": 0.1, "traces": TRACES}
    if per_station:
        over["mac.per_station_grants"] = True
    res = airtcp.run(apply_value_overrides(data, over), seed=3)
    summary = {k: v for k, v in res.summary.items() if k != "wall_seconds"}
    traces = {k: res.traces[k].to_pylist() for k in TRACES if k in res.traces}
    return summary, traces


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_domains_give_the_results_of_per_station_grants(path: Path) -> None:
    (fast, fast_traces), (ref, ref_traces) = _run(path, False), _run(path, True)
    assert fast_traces == ref_traces
    assert fast.pop("events") <= ref.pop("events")
    assert fast == ref


def test_one_collision_domain_costs_a_constant_number_of_events_per_attempt() -> None:
    # 50 saturated 802.11b stations in one collision domain: per-station grants pop about one
    # stale grant per contender and busy period (42 events per attempt, bench/bench_scale.py);
    # a domain pops a few per busy period, as one station does (5.6).
    def per_attempt(stations: int, per_station: bool) -> float:
        cfg = {
            "name": "d", "topology": "bss", "stations": stations, "standard": "80211b",
            "data_rate_mbps": 11.0, "basic_rate_mbps": 1.0, "duration_s": 0.5, "warmup_s": 0.0,
            "channel": {"rx_range_m": 250.0}, "mac": {"per_station_grants": per_station},
        }  # fmt: skip
        s = airtcp.run(cfg, seed=1).summary
        return s["events"] / sum(n["mac"]["attempts"] for n in s["nodes"] if n.get("mac"))

    one = per_attempt(1, False)
    assert per_attempt(50, False) < 1.5 * one
    assert per_attempt(50, True) > 4 * one
