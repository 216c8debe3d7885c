"""BBR v1 (Linux tcp_bbr.c with tcp_rate.c's sampler and internal pacing) end to end.

The bed is examples/wired-bottleneck.toml at 20 Mbit/s and 20 ms one way (base RTT 40 ms), a
drop-tail queue of 100 packets, Linux 6's sender (tcp.profile = "linux-6"). Payload capacity:
20 Mbit/s x 1460 / 1514 (MSS 1460; 20 bytes of IP, 32 of TCP with timestamps, 2 of PPP) =
19.287 Mbit/s. bench/bench_bbr.py puts the same bed beside ns-3's TcpBbr.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from airtcp.config import ScenarioError
from airtcp.run import Result, run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "wired-bottleneck.toml"
CAPACITY_BPS = 20e6 * 1460 / 1514
BED = {
    "tcp.profile": "linux-6",
    "links.1.rate_mbps": 20,
    "links.1.delay_ms": 20,
    "links.1.queue_limit_packets": 100,
    "duration_s": 25.0,
    "warmup_s": 0.0,
    "traces.tcp": True,
    "traces.tcp_segments": True,
}


@cache
def bed(cc: str, seed: int = 1) -> Result:
    return run(EXAMPLE, seed=seed, overrides={**BED, "tcp.cc": cc})


def column(res: Result, table: str, name: str) -> list[Any]:
    return list(res.traces[table].column(name).to_pylist())


def probe_rtt_spells(res: Result) -> list[tuple[float, float]]:
    """(start, length) in s of each spell with cwnd at 4 segments or fewer after the first 2 s."""
    t, cwnd = column(res, "tcp", "time_ns"), column(res, "tcp", "cwnd")
    spells: list[tuple[float, float]] = []
    start = None
    for ti, ci in zip(t, cwnd, strict=True):
        if ti < 2e9:
            continue
        if ci <= 4 and start is None:
            start = ti
        elif ci > 4 and start is not None:
            spells.append((start / 1e9, (ti - start) / 1e9))
            start = None
    return spells


def test_bbr_fills_the_bottleneck_with_a_short_queue_where_cubic_fills_the_buffer() -> None:
    bbr, cubic = bed("bbr"), bed("cubic")
    fb, fc = bbr.summary["flows"][0], cubic.summary["flows"][0]
    # 25 s with ProbeRTT's two 200 ms spells at 4 segments and Startup: at least 95 % of the
    # payload capacity (closed form above).
    assert fb["goodput_bps"] >= 0.95 * CAPACITY_BPS, fb["goodput_bps"]
    # BBR keeps about the BDP in flight (a few ms of queue over the 40 ms base RTT); CUBIC
    # fills the 100-packet buffer (60 ms at 20 Mbit/s) before each loss.
    assert fb["tcp"]["rtt_p50_s"] < 0.050, fb["tcp"]["rtt_p50_s"]
    assert fc["tcp"]["rtt_p50_s"] > 0.060, fc["tcp"]["rtt_p50_s"]
    model = fb["tcp"]["bbr"]
    assert model["mode"] in ("probe_bw", "probe_rtt")
    # The sampler measures the bottleneck's payload rate (0.01 % here, seed 1).
    assert abs(model["bw_bps"] / CAPACITY_BPS - 1) < 0.001, model
    # Closed form: 40 ms of propagation + 605.6 us for a 1514-byte packet at 20 Mbit/s + 12 us
    # at 1 Gbit/s + the ACK's ~30 us back = 40.65 ms.
    assert 0.0405 <= model["min_rtt_s"] < 0.0407, model
    assert "bbr" not in fc["tcp"], "only BBR reports its model"


def test_probe_rtt_holds_four_segments_for_200_ms_every_10_s() -> None:
    res = bed("bbr")
    spells = probe_rtt_spells(res)
    assert res.summary["flows"][0]["tcp"]["bbr"]["probe_rtt_entries"] == len(spells) == 2, spells
    (t1, d1), (t2, d2) = spells
    # The first min-RTT sample is the handshake's, at 40 ms; a sample as low comes again only
    # in ProbeRTT, so each expiry is 10 s after the last ProbeRTT (tcp_bbr.c, 10 s window).
    assert 10.0 < t1 < 10.6 and 10.0 < t2 - t1 < 10.8, spells
    # max(200 ms, one round at 4 segments), plus the round trip that drains the flight.
    for d in (d1, d2):
        assert 0.2 <= d < 0.35, spells


def test_the_pacing_rate_follows_the_gain_cycle_around_the_bottleneck_rate() -> None:
    res = bed("bbr")
    t, rate = column(res, "tcp", "time_ns"), column(res, "tcp", "pacing_rate_bps")
    steady = [r for ti, r in zip(t, rate, strict=True) if 3e9 < ti < 9.5e9]
    mean = sum(steady) / len(steady)
    # ProbeBW averages gain 1 (5/4, 3/4, then 1 x 6) less the 1 % margin.
    assert abs(mean / CAPACITY_BPS - 1) < 0.05, mean
    # The 5/4 and 3/4 phases show as rates well above and below the mean.
    assert max(steady) > 1.15 * mean and min(steady) < 0.85 * mean
    cubic = column(bed("cubic"), "tcp", "pacing_rate_bps")
    assert set(cubic) == {0}, "an unpaced sender traces 0"


def test_segments_leave_at_the_pacing_rate_not_at_the_access_link_rate() -> None:
    # The sender's own link runs at 1 Gbit/s (12 us per segment). Paced, BBR sends about
    # 1.7 segments per ms (2.1 at gain 5/4): at most a handful in any 1 ms, even as ProbeRTT
    # hands back a window of ~140 segments at once. Unpaced, that would leave in ~2 ms.
    res = bed("bbr")
    ev, t = column(res, "tcp_segments", "event"), column(res, "tcp_segments", "time_ns")
    sends = [ti for e, ti in zip(ev, t, strict=True) if e in ("sent", "retransmit") and ti > 1e9]
    worst = max(
        b - a for a, b in zip(range(len(sends)), _window_ends(sends, 1_000_000), strict=True)
    )
    assert worst <= 6, worst


def _window_ends(times: list[int], width_ns: int) -> list[int]:
    """For each i, one past the last index j with times[j] < times[i] + width_ns."""
    out, j = [], 0
    for i, ti in enumerate(times):
        j = max(j, i)
        while j < len(times) and times[j] < ti + width_ns:
            j += 1
        out.append(j)
    return out


def test_bbr_is_deterministic_and_its_cycle_phases_follow_the_seed() -> None:
    a, b = bed("bbr", 1), run(EXAMPLE, seed=1, overrides={**BED, "tcp.cc": "bbr"})
    assert a.summary["flows"] == b.summary["flows"]
    rates = {tuple(column(bed("bbr", s), "tcp", "pacing_rate_bps")[:4000]) for s in (1, 2, 3, 4)}
    assert len(rates) > 1, "the gain cycle's random start draws from the flow's own stream"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"tcp.recovery": "newreno"}, "tcp.recovery"),
        ({"tcp.rack": False}, "tcp.rack"),
        ({"tcp.wifi_pacing_shift": 0}, "tcp.wifi_pacing_shift"),
    ],
)
def test_settings_bbr_cannot_run_with_are_refused_by_name(
    overrides: dict[str, Any], field: str
) -> None:
    with pytest.raises(ScenarioError) as e:
        run(EXAMPLE, overrides={**BED, "tcp.cc": "bbr", **overrides})
    assert field in str(e.value)
    assert "allowed" in str(e.value)


def test_mac80211s_pacing_shift_lets_8_ms_below_tcp_on_a_station_and_nothing_changes_wired() -> (
    None
):
    # Linux 4.20+: mac80211 sets sk_pacing_shift = 7 on the TCP sockets it carries; TSQ's
    # limit and BBR's TSO goal become ~8 ms of data at the pacing rate instead of ~1 ms. One
    # 802.11n MCS 7 station uploading to its AP: with 1 ms below TCP BBR cannot fill the
    # aggregates (its min RTT is under 1 ms, its window a few segments over the BDP).
    ht = Path(__file__).resolve().parents[2] / "examples" / "ht-upload.toml"
    base = {"traffic": "tcp", "cc": "bbr", "tcp.profile": "linux-6", "duration_s": 3.0}
    g = {
        shift: run(ht, overrides={**base, "tcp.wifi_pacing_shift": shift}).summary["flows"][0][
            "goodput_bps"
        ]
        for shift in (7, 10)
    }
    assert g[7] > 1.3 * g[10], g
    profile = run(ht, overrides=base).summary["flows"][0]["goodput_bps"]
    assert profile == g[7], "linux-6 carries mac80211's 7"
    # A wired first hop keeps TCP's own 10, whatever the setting.
    wired = {**BED, "tcp.cc": "bbr", "traces.tcp": False, "traces.tcp_segments": False}
    a, b = (
        run(EXAMPLE, overrides={**wired, "tcp.wifi_pacing_shift": s}).summary["flows"][0]
        for s in (7, 10)
    )
    a["tcp"].pop("effective"), b["tcp"].pop("effective")  # which fields were written
    assert a == b


def test_the_bbr_vs_cubic_example_runs_one_bbr_and_two_cubic_uploads() -> None:
    # examples/bbr-vs-cubic.toml, shortened: each flow moves data, only the BBR flow reports
    # a model, and BBR keeps less queued than either CUBIC flow (docs/validation.md 29).
    ex = Path(__file__).resolve().parents[2] / "examples" / "bbr-vs-cubic.toml"
    flows = run(ex, overrides={"duration_s": 10.0, "warmup_s": 3.0}).summary["flows"]
    assert [("bbr" in f["tcp"]) for f in flows] == [True, False, False]
    assert all(f["goodput_bps"] > 10e6 for f in flows), [f["goodput_bps"] for f in flows]
    rtt = [f["tcp"]["rtt_mean_s"] for f in flows]
    assert rtt[0] < min(rtt[1:]), rtt
