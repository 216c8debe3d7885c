"""Paper 003's ARF-aware window in the world (issue 13): a station metering the channel
bounds its connection's advertised window on every change of the rate it receives at, and the
ACKs it sends carry exactly min(buffer, max(MSS, wnd_max)) (docs/scenarios.md,
mac.arf_window_slot_ms; the arithmetic: xlayer/arf_window.rs, airtcp.analytic.p003_wnd_max)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError

MOBILE = Path(__file__).parents[2] / "examples" / "mobile-tcp.toml"
RADIOTAP, MAC, LLC, IP = 14, 24, 8, 20  # header bytes before the TCP header of a wlan record


def run(**over: Any) -> Any:
    base = {"duration_s": 10.0, "traces.windows": True, "mac.arf_window_slot_ms": 100.0}
    return airtcp.run(MOBILE, seed=1, overrides={**base, **over})


def test_the_advertised_window_after_a_rate_change_is_the_bound() -> None:
    r = run(**{"traces.frames": True, "traces.tcp_segments": True})
    w = r.traces["windows"].to_pandas()
    assert len(w) > 5 and set(w["role"]) == {"receiver"} and set(w["node"]) == {1}
    # Every decision is a change of the receiving rate, applied within [MSS, buffer].
    assert (w["old_kbps"] != w["new_kbps"]).all()
    want = w["wnd_max_bytes"].clip(lower=1460, upper=131072).astype(int)
    assert (w["applied_bytes"] == want).all()
    assert (w["applied_bytes"] < 131072).any(), "some bound below the buffer"
    # A connection idle in the last slot (a stall) gets no bound from it: Eq. 8 would be 0.
    assert (w["wnd_max_bytes"] > 0).all()
    # Every ACK the station builds after a decision (acknowledging the segment whose frame
    # triggered it, or later ones) and sends before the next advertises it; ACKs queued before
    # the decision carry the old window. RFC 7323 window scale 2 for a 131072-byte buffer: the
    # field holds the window >> 2.
    segs = r.traces["tcp_segments"].to_pandas()
    got = segs[segs["event"] == "received"]
    fr = r.traces["frames"].to_pandas()
    acks = fr[(fr["node"] == 1) & (fr["iface"] == 0) & ~fr["rx"] & (fr["kind"] == "data")]
    tcp = RADIOTAP + MAC + LLC + IP
    fields = [bytes(h) for h in acks["head"]]
    ack_no = [int.from_bytes(h[tcp + 8 : tcp + 12], "big") for h in fields]
    window = [int.from_bytes(h[tcp + 14 : tcp + 16], "big") << 2 for h in fields]
    sent = list(acks["time_ns"])
    checked = 0
    times = list(w["time_ns"])
    for k, applied in enumerate(w["applied_bytes"][:-1]):
        trigger = got[got["time_ns"] == times[k]]
        assert len(trigger) == 1, times[k]
        end = int(trigger["seq"].iloc[0] + trigger["len"].iloc[0])
        for at, a, wnd in zip(sent, ack_no, window, strict=True):
            if times[k] < at < times[k + 1] and a >= end:
                assert wnd == applied & ~3, (times[k], at, wnd, applied)
                checked += 1
    assert checked > 5


def test_the_window_is_off_unless_asked_and_a_slot_must_be_positive() -> None:
    # Whether it helps is the reproduction's question (airtcp reproduce 003, with intervals).
    plain = airtcp.run(MOBILE, seed=1, overrides={"duration_s": 10.0})
    assert "windows" not in plain.traces
    assert (
        "arf_window_slot_ms"
        not in airtcp.Scenario.from_dict({"traffic": "tcp", "stations": 1}).to_world_spec()["wifi"]
    )
    with pytest.raises(ScenarioError, match="arf_window_slot_ms"):
        airtcp.run(MOBILE, overrides={"mac.arf_window_slot_ms": 0})


def test_the_windows_trace_needs_the_scheme() -> None:
    with pytest.raises(ScenarioError, match=r"traces\.windows"):
        airtcp.run(MOBILE, overrides={"traces.windows": True, "duration_s": 1.0})


EXAMPLE = Path(__file__).parents[2] / "examples" / "paper-003.toml"


def test_the_paper_003_template() -> None:
    from airtcp.config import load_toml

    base = load_toml(EXAMPLE)
    spec = airtcp.Scenario.from_dict({**base, "speed_mps": 10.0}).to_world_spec()
    # from 10 m to 360 m at 10 m/s: 35 s; standard TCP: no window scheme; beacons on.
    assert spec["duration_ns"] == 35_000_000_000
    assert spec["nodes"][1]["position_m"][0] == 10.0
    assert spec["wifi"]["beacon_interval_tu"] == 100 and "arf_window_slot_ms" not in spec["wifi"]
    assert spec["wifi"]["rate_control"] == "arf" and spec["wifi"]["rts_threshold_bytes"] == 65535
    toward = airtcp.Scenario.from_dict(
        {**base, "mobility": "toward", "scheme": "wnd_max", "rts_cts": True}
    )
    t = toward.to_world_spec()
    assert t["nodes"][1]["position_m"][0] == 360.0 and t["duration_ns"] == 70_000_000_000
    assert t["wifi"]["arf_window_slot_ms"] == 100.0 and t["wifi"]["rts_threshold_bytes"] == 0
    # B: the paper's minimum speed 0, with the Yoon-Liu-Noble warning; the square inside the cell.
    with pytest.warns(UserWarning, match="speed_min_mps = 0"):
        rwp = airtcp.Scenario.from_dict({**base, "mobility": "random-waypoint", "duration_s": 60.0})
    m = rwp.to_world_spec()["nodes"][1]["mobility"]
    assert "random" in str(m) and rwp.to_world_spec()["duration_ns"] == 60_000_000_000
    with pytest.raises(ScenarioError, match="speed_mps"):
        airtcp.Scenario.from_dict({**base, "speed_mps": 0.0})


def test_an_uploading_station_caps_its_cwnd_at_the_bound() -> None:
    # III-C-1: at a sending station wnd_max is a cap on cwnd (Linux's snd_cwnd_clamp), in
    # segments rounded up; between two decisions cwnd never exceeds the last one's cap.
    over = {"scheme": "wnd_max", "direction": "upload", "speed_mps": 10.0, "traces.tcp": True,
            "traces.windows": True}  # fmt: skip
    r = airtcp.run(EXAMPLE, seed=1, overrides=over)
    w = r.traces["windows"].to_pandas()
    assert len(w) > 20 and set(w["role"]) == {"sender"} and set(w["node"]) == {1}
    cwnd = r.traces["tcp"].to_pandas()
    times = [*w["time_ns"], 1 << 62]
    capped = 0
    for k, applied in enumerate(w["applied_bytes"]):
        cap = -(-int(applied) // 1460)
        seen = cwnd[(cwnd["time_ns"] >= times[k]) & (cwnd["time_ns"] < times[k + 1])]["cwnd"]
        assert (seen <= cap).all(), (times[k], cap, seen.max())
        capped += int((seen == cap).any())
    assert capped > 5, "the cap binds"


def test_eq_11s_rtt_and_every_slot_reach_the_world_spec_and_need_the_window() -> None:
    from airtcp.config import load_toml

    base = {**load_toml(EXAMPLE), "duration_s": 5.0}
    wifi = airtcp.Scenario.from_dict(
        {**base, "scheme": "wnd_max", "rtt": "empty", "every_slot": True}
    ).to_world_spec()["wifi"]
    assert (wifi["arf_window_rtt"], wifi["arf_window_every_slot"]) == ("empty", True)
    # The paper's reading writes neither (every other world's spec stays as it was).
    wifi = airtcp.Scenario.from_dict({**base, "scheme": "wnd_max"}).to_world_spec()["wifi"]
    assert "arf_window_rtt" not in wifi and "arf_window_every_slot" not in wifi
    with pytest.raises(ScenarioError, match=r'rtt: .min. needs scheme = "wnd_max"'):
        airtcp.Scenario.from_dict({**base, "rtt": "min"}).to_world_spec()
    with pytest.raises(ScenarioError, match=r"mac\.arf_window_every_slot"):
        airtcp.run(MOBILE, overrides={"mac.arf_window_every_slot": True, "duration_s": 1.0})
    with pytest.raises(ScenarioError, match=r"mac\.arf_window_rtt"):
        airtcp.run(MOBILE, overrides={"mac.arf_window_rtt": "empty", "duration_s": 1.0})


def test_eq_11_on_the_empty_queues_rtt_keeps_the_ap_queue_from_overflowing() -> None:
    # Random waypoint, AP queue 20, 60 s, seed 1 (airtcp's runs): standard TCP loses 574
    # segments at the AP, the paper's window (smoothed RTT, which holds the queue's delay)
    # 479, the window on the RTT of empty queues 24: Eq. 11 then bounds the window by the
    # bandwidth-delay product (at most 3.8 segments here), not by the queue it has built.
    from airtcp.config import load_toml

    base = {**load_toml(EXAMPLE), "mobility": "random-waypoint", "queue_packets": 20,
            "duration_s": 60.0}  # fmt: skip

    def drops(**over: Any) -> tuple[int, Any]:
        r = airtcp.run(EXAMPLE, seed=1, overrides={**base, **over})
        mac = r.summary["nodes"][0]["mac"]
        return mac["drops_queue"] + mac["drops_retry_limit"], r

    with pytest.warns(UserWarning, match="speed_min_mps = 0"):
        standard, _ = drops(scheme="standard")
        smoothed, _ = drops(scheme="wnd_max")
        empty, r = drops(scheme="wnd_max", rtt="empty", **{"traces.windows": True})
    assert standard > 400 and 0.4 * standard < smoothed < standard, (standard, smoothed)
    assert empty < 0.1 * standard, (empty, standard)
    w = r.traces["windows"].to_pandas()
    assert w["applied_bytes"].max() < 6 * 1460, w["applied_bytes"].describe()
