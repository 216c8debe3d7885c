"""airtcp's bulk TCP over one 802.11 link against the closed-form models of airtcp.analytic.

One station uploads to the AP (topology bss, traffic "tcp", NewReno, MSS 1460, timestamps),
802.11a 54/6 and 802.11b 11/1 Mbit/s, one TCP ACK per segment (``delayed_ack`` false) or per
two (``delayed_ack`` true), 30 s measured after a 1 s warm-up, seeds 1-5. What is compared and
why the tolerances are what they are: docs/analytic.md, "TCP over one link".

Print the tables of the docs: ``.venv/bin/python python/tests/test_tcp_wifi.py``.
"""

from __future__ import annotations

import functools
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

if __name__ == "__main__":  # run as a script from a source checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from airtcp import analytic as a

SEEDS = (1, 2, 3, 4, 5)
CASES = (("80211a", 54.0, 6.0), ("80211b", 11.0, 1.0))
MSS = 1460
# Tolerances on the mean over the seeds of (airtcp / model - 1) and (airtcp p - model p), the
# model taken at each run's own ACK ratio. Per run these residuals scatter by 0.10 % (11a) and
# 0.17-0.32 % (11b) in rate, 0.001-0.002 in p (10 seeds), so the mean of 5 has standard errors
# 0.05 % / 0.14 % and < 0.001: the tolerances are 4-6 standard errors.
TOL_REL = {"80211a": 0.003, "80211b": 0.006}
TOL_P = 0.003


@dataclass(frozen=True)
class Run:
    """One airtcp run. ``data_bps``: the STA's data frames delivered x 8 MSS per second, what
    the model predicts; ``goodput_bps``: first arrivals only (the flow summary);
    ``ack_ratio``: TCP-ACK frames / data frames delivered."""

    seed: int
    goodput_bps: float
    data_bps: float
    collision_probability: float
    ack_ratio: float
    retransmitted: float  # TCP retransmissions / segments sent
    timeouts: int


@functools.cache
def measure(standard: str, data: float, basic: float, delayed_ack: bool) -> tuple[Run, ...]:
    import airtcp

    runs = []
    for seed in SEEDS:
        scenario = {
            "topology": "bss",
            "stations": 1,
            "traffic": "tcp",
            "standard": standard,
            "data_rate_mbps": data,
            "basic_rate_mbps": basic,
            "delayed_ack": delayed_ack,
            "duration_s": 31.0,
            "warmup_s": 1.0,
        }
        s = airtcp.run(scenario, seed=seed).summary
        mac = {n["name"]: n["mac"] for n in s["nodes"]}
        tcp = s["flows"][0]["tcp"]
        runs.append(
            Run(
                seed=seed,
                goodput_bps=s["flows"][0]["goodput_bps"],
                data_bps=mac["sta1"]["successes"] * 8 * MSS / s["measured_seconds"],
                collision_probability=s["totals"]["collision_probability"],
                ack_ratio=mac["ap"]["successes"] / mac["sta1"]["successes"],
                retransmitted=tcp["retransmissions"] / tcp["segments_sent"],
                timeouts=tcp["timeouts"],
            )
        )
    return tuple(runs)


@functools.cache
def model(
    standard: str, data: float, basic: float, ack_every: int, collider_eifs: bool
) -> a.TcpWifiResult:
    return a.tcp_wifi_contention(
        standard, data, basic, MSS, ack_every=ack_every, collider_eifs=collider_eifs
    )


def at_ratio(
    standard: str, data: float, basic: float, ack_ratio: float, collider_eifs: bool
) -> tuple[float, float]:
    """The model at a measured ACK ratio (ACKs per segment between 1/2 and 1): (bit/s, p).

    A receiver with delayed ACKs answers out-of-order segments at once (RFC 5681 4.2), so
    during loss recovery it ACKs every segment. With a share x of the segments ACKed one by
    one, ACKs per segment = (1 - x)/2 + x: x = 2 ratio - 1. Recovery lasts about one window
    (hundreds of segments), far longer than the MAC needs to settle, so the two regimes mix per
    segment: time per segment (1 - x)/R_2 + x/R_1, collisions and attempts likewise.
    """
    x = min(1.0, max(0.0, 2.0 * ack_ratio - 1.0))

    def per_frame(r: a.TcpWifiResult) -> tuple[float, float, float]:
        d = r.data_frames_per_s
        return 1 / d, r.collisions_per_s / d, (d + r.ack_frames_per_s + 2 * r.collisions_per_s) / d

    t1, c1, n1 = per_frame(model(standard, data, basic, 1, collider_eifs))
    t2, c2, n2 = per_frame(model(standard, data, basic, 2, collider_eifs))
    seconds = (1 - x) * t2 + x * t1
    return 8 * MSS / seconds, 2 * ((1 - x) * c2 + x * c1) / ((1 - x) * n2 + x * n1)


def residuals(
    standard: str, data: float, basic: float, delayed_ack: bool, collider_eifs: bool
) -> tuple[float, float]:
    """Mean over the runs of (airtcp / model - 1) and (airtcp p - model p), the model at each
    run's ACK ratio."""
    rel, dp = [], []
    for run in measure(standard, data, basic, delayed_ack):
        bps, p = at_ratio(standard, data, basic, run.ack_ratio, collider_eifs)
        rel.append(run.data_bps / bps - 1.0)
        dp.append(run.collision_probability - p)
    return statistics.fmean(rel), statistics.fmean(dp)


def mean(runs: tuple[Run, ...], field: str) -> float:
    return statistics.fmean(getattr(r, field) for r in runs)


@pytest.fixture(scope="module", autouse=True)
def _core() -> None:
    pytest.importorskip("airtcp._core")


@pytest.mark.parametrize(("standard", "data", "basic"), CASES)
def test_one_ack_per_segment(standard: str, data: float, basic: float) -> None:
    runs = measure(standard, data, basic, False)
    print(report(standard, data, basic, False))
    assert mean(runs, "ack_ratio") == pytest.approx(1.0, abs=0.005)  # every segment ACKed
    # The model under the standard's collision rule (colliders wait ACKTimeout + DIFS, no
    # EIFS: they never detected each other's frame) predicts airtcp's delivered data rate and
    # collision probability within the noise.
    rel, dp = residuals(standard, data, basic, False, False)
    assert abs(rel) <= TOL_REL[standard]
    assert abs(dp) <= TOL_P
    std = model(standard, data, basic, 1, False)
    # Two stations count down in parallel, so the alternating TMT is no upper bound: the model
    # and airtcp beat it at these rates (by 1.6 % on 11a, 6 % on 11b).
    tmt = a.tcp_tmt_bps(standard, data, basic, MSS)
    assert mean(runs, "data_bps") > 1.01 * tmt
    assert std.goodput_bps > 1.01 * tmt
    # TCP goodput counts first arrivals: at most the delivered data, less at most the share of
    # retransmitted segments (spurious ones after timeouts; resent queue drops are new here).
    for r in runs:
        assert r.data_bps * (1 - r.retransmitted) * 0.999 <= r.goodput_bps <= r.data_bps * 1.0001


@pytest.mark.parametrize(("standard", "data", "basic"), CASES)
def test_delayed_ack(standard: str, data: float, basic: float) -> None:
    runs = measure(standard, data, basic, True)
    print(report(standard, data, basic, True))
    # Known deviation from the nominal model (ack_every 2): airtcp's receiver sends more than
    # one ACK per two segments (immediate ACKs for out-of-order segments during loss recovery,
    # RFC 5681 4.2), 0.53 per segment on 11a and 0.62 on 11b. More ACKs, more contention:
    # airtcp is 1.3 % (11a) and 3.8 % (11b) below the nominal model, and collides more often.
    ratio = mean(runs, "ack_ratio")
    assert 0.51 < ratio < 0.7
    nominal = model(standard, data, basic, 2, False)
    assert mean(runs, "data_bps") < nominal.goodput_bps * (1 - TOL_REL[standard])
    assert mean(runs, "collision_probability") > nominal.collision_probability
    # At the ACK ratio each run measured, the model predicts it within the noise.
    rel, dp = residuals(standard, data, basic, True, False)
    assert abs(rel) <= TOL_REL[standard]
    assert abs(dp) <= TOL_P
    for r in runs:
        assert r.goodput_bps <= r.data_bps * 1.0001


def report(standard: str, data: float, basic: float, delayed_ack: bool) -> str:
    runs = measure(standard, data, basic, delayed_ack)
    k = 2 if delayed_ack else 1
    std, ce = model(standard, data, basic, k, False), model(standard, data, basic, k, True)
    rel, dp = residuals(standard, data, basic, delayed_ack, False)
    rel_ce, dp_ce = residuals(standard, data, basic, delayed_ack, True)
    return (
        f"{standard} {data:g}/{basic:g} ack_every {k}: airtcp data frames"
        f" {mean(runs, 'data_bps') / 1e6:.3f} Mbit/s, p {mean(runs, 'collision_probability'):.4f},"
        f" ACKs/segment {mean(runs, 'ack_ratio'):.4f}; model {std.goodput_bps / 1e6:.3f}"
        f" (p {std.collision_probability:.4f}), collider EIFS {ce.goodput_bps / 1e6:.3f}"
        f" (p {ce.collision_probability:.4f}); at the measured ratio: airtcp - model"
        f" {rel * 100:+.2f} % (p {dp:+.4f}), collider EIFS {rel_ce * 100:+.2f} % (p {dp_ce:+.4f})"
    )


def markdown_tables() -> str:
    """The two tables of docs/analytic.md."""
    head = [
        "| case | airtcp goodput | airtcp data frames | alternating TMT | model | model, "
        "collider EIFS | airtcp p | model p | model p, collider EIFS | ACKs/segment |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    ratio_head = [
        "| case | airtcp - model (rate) | airtcp - model (p) | airtcp - model, collider EIFS "
        "(rate) | airtcp - model, collider EIFS (p) |",
        "|---|---|---|---|---|",
    ]
    for standard, data, basic in CASES:
        for delayed in (False, True):
            runs = measure(standard, data, basic, delayed)
            k = 2 if delayed else 1
            std, ce = model(standard, data, basic, k, False), model(standard, data, basic, k, True)
            tmt = a.tcp_tmt_bps(standard, data, basic, MSS, ack_every=k)
            d = mean(runs, "data_bps")
            case = f"{standard} {data:g}/{basic:g}, ack_every {k}"
            head.append(
                f"| {case} | {mean(runs, 'goodput_bps') / 1e6:.3f} | {d / 1e6:.3f} "
                f"| {tmt / 1e6:.3f} | {std.goodput_bps / 1e6:.3f} "
                f"({(d / std.goodput_bps - 1) * 100:+.2f} %) | {ce.goodput_bps / 1e6:.3f} "
                f"({(d / ce.goodput_bps - 1) * 100:+.2f} %) "
                f"| {mean(runs, 'collision_probability'):.4f} | {std.collision_probability:.4f} "
                f"| {ce.collision_probability:.4f} | {mean(runs, 'ack_ratio'):.4f} |"
            )
            rel, dp = residuals(standard, data, basic, delayed, False)
            rel_ce, dp_ce = residuals(standard, data, basic, delayed, True)
            ratio_head.append(
                f"| {case} | {rel * 100:+.2f} % | {dp:+.4f} | {rel_ce * 100:+.2f} % "
                f"| {dp_ce:+.4f} |"
            )
    return "\n".join(head) + "\n\n" + "\n".join(ratio_head)


if __name__ == "__main__":
    for standard, data, basic in CASES:
        for delayed in (False, True):
            runs = measure(standard, data, basic, delayed)
            print(
                f"{standard} delayed_ack={delayed}: TCP retransmitted"
                f" {mean(runs, 'retransmitted') * 100:.2f} %, timeouts per run"
                f" {mean(runs, 'timeouts'):.1f}"
            )
    print(markdown_tables())
