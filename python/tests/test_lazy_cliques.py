"""Lazy members of isolated cliques (issue 37, ``medium::clique`` and ``mac::lazy``) change the
cost, never the results.

In a clique (every station hears and decodes every other, and no one outside hears them) the
stations that only listen share one radio and one MAC state, a phantom, and keep only their
backoff as a target on a shared clock; a busy or idle edge then costs O(1) for all of them.
Each scenario here runs that way and with ``mac.per_station_grants`` (every station on its
own, the path the golden outputs were frozen on), and the summaries and traces must be equal:
saturated and light traffic, uplink and downlink, UDP and TCP, DCF and EDCA with several access
categories, RTS/CTS, preamble detection, beacons, 802.11n aggregation, two cliques side by side,
and a topology with hidden stations where no clique forms.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import airtcp

TRACES = {"mac_tx": True, "packets": True, "tcp": True}


def bss(n: int, standard: str = "80211a", **extra: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "name": "clique", "topology": "bss", "stations": n, "standard": standard,
        "duration_s": 0.8, "warmup_s": 0.2, "channel": {"rx_range_m": 250.0}, "traces": TRACES,
    }  # fmt: skip
    if standard == "80211b":
        cfg.update(data_rate_mbps=11.0, basic_rate_mbps=1.0)
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(cfg.get(k), dict):
            cfg[k] = {**cfg[k], **v}
        else:
            cfg[k] = v
    return cfg


def custom(
    nodes: list[tuple[str, str, float, float]], flows: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "name": "clique", "topology": "custom", "standard": "80211a", "duration_s": 0.8,
        "warmup_s": 0.2, "channel": {"rx_range_m": 60.0}, "traces": TRACES,
        "nodes": [{"name": n, "role": r, "x_m": x, "y_m": y} for n, r, x, y in nodes],
        "flows": flows,
    }  # fmt: skip


def two_bsss() -> dict[str, Any]:
    nodes = [("ap1", "ap", 0.0, 0.0), ("ap2", "ap", 500.0, 0.0)]
    nodes += [(f"a{i}", "sta", 5.0 * i, 5.0) for i in range(8)]
    nodes += [(f"b{i}", "sta", 500.0 + 5.0 * i, 5.0) for i in range(7)]
    flows = [{"kind": "udp_saturating", "src": f"a{i}", "dst": "ap1"} for i in range(8)]
    flows += [{"kind": "tcp_bulk", "src": "ap2", "dst": f"b{i}"} for i in range(7)]
    return custom(nodes, flows)


def hidden() -> dict[str, Any]:
    # Two groups each hearing the AP but not each other: no view is a clique.
    nodes = [("ap", "ap", 0.0, 0.0)]
    nodes += [(f"l{i}", "sta", -40.0, float(i)) for i in range(5)]
    nodes += [(f"r{i}", "sta", 40.0, float(i)) for i in range(5)]
    flows = [{"kind": "udp_saturating", "src": n, "dst": "ap"} for n, *_ in nodes[1:]]
    return custom(nodes, flows)


def flows_to(n: int, kind: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"kind": kind, "src": f"sta{i}", "dst": "ap", **extra} for i in range(1, n + 1)]


CASES: dict[str, dict[str, Any]] = {
    "a-udp-7": bss(7),  # 8 nodes: the smallest clique with lazy members (LAZY_MIN)
    "a-udp-5": bss(5),  # 6 nodes: none
    "a-udp-40": bss(40),
    "b-udp-60": bss(60, "80211b"),
    "g-rts": bss(20, "80211g", mac={"rts_threshold_bytes": 500}),
    "a-preamble-detection": bss(30, channel={"preamble_detection": True}),
    "a-short-queues": bss(20, mac={"queue_limit_packets": 3, "short_retry_limit": 2}),
    "a-beacons": bss(15, mac={"beacon_interval_tu": 20}),
    "a-cbr-light": bss(25, flows=flows_to(25, "udp_cbr", rate_mbps=0.5)),
    "a-cbr-heavy": bss(25, flows=flows_to(25, "udp_cbr", rate_mbps=3.0)),
    "a-tcp-up": bss(12, flows=flows_to(12, "tcp_bulk")),
    "a-tcp-down": bss(
        12, flows=[{"kind": "tcp_bulk", "src": "ap", "dst": f"sta{i}"} for i in range(1, 13)]
    ),
    "a-edca-mixed": bss(
        16,
        mac={"access": "edca"},
        flows=flows_to(8, "udp_saturating", ac="vo") + flows_to(16, "udp_saturating", ac="be")[8:],
    ),
    "n-ampdu": bss(20, "80211n"),
    "two-bsss": two_bsss(),
    "hidden": hidden(),
}


def _run(
    cfg: dict[str, Any], per_station: bool, seed: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    c = copy.deepcopy(cfg)
    c.setdefault("mac", {})["per_station_grants"] = per_station
    res = airtcp.run(c, seed=seed)
    summary = {k: v for k, v in res.summary.items() if k not in ("wall_seconds", "events")}
    traces = {k: res.traces[k].to_pylist() for k in res.traces}
    return summary, traces


@pytest.mark.parametrize("name", sorted(CASES))
def test_lazy_members_give_the_results_of_per_station_loops(name: str) -> None:
    cfg = CASES[name]
    for seed in (1, 2):
        lazy, ref = _run(cfg, False, seed), _run(cfg, True, seed)
        assert lazy[1] == ref[1], f"{name} seed {seed}: a trace differs"
        assert lazy[0] == ref[0], f"{name} seed {seed}: the summary differs"


def test_the_cases_exercise_what_they_claim() -> None:
    # Collisions and retransmissions happen in the saturated cliques, so members leave and
    # join the shared state often; the light CBR leaves queues empty.
    s = airtcp.run(CASES["a-udp-40"], seed=1).summary
    assert s["totals"]["collisions"] > 100
    light = airtcp.run(CASES["a-cbr-light"], seed=1).summary
    assert light["flows"][0]["loss_ratio"] == 0.0
    rts = airtcp.run(CASES["g-rts"], seed=1).summary
    assert sum(n["mac"]["rts_attempts"] for n in rts["nodes"] if n.get("mac")) > 0
