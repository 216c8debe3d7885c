"""Paper 000's scenario (template "paper-000"): what it builds, Linux 3.12's small queues
and mesh forwarding that keep the chain's RTT near its air time, and bad knobs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError, load_toml
from airtcp.config.templates import P000_BURSTY, expand_template

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "paper-000.toml"


def scenario(**over: Any) -> dict[str, Any]:
    cfg = load_toml(EXAMPLE)
    cfg.update(over)
    return cfg


def test_the_template_builds_section_iv_a() -> None:
    s = expand_template(scenario(hops=5, retry_limit=16, cc="veno", scheme="alm-adaptive"))
    assert (s["topology"], s["hops"], s["retry_limit"], s["cc"]) == ("chain", 5, 16, "veno")
    assert s["mac"]["rate_control"] == "minstrel-rt2800"
    assert s["mac"]["queue_limit_packets"] == 16  # rt2800usb_queue_init, Linux 3.12
    assert s["tcp"]["small_queues"] and s["tcp"]["recovery"] == "sack"
    assert s["duration_s"] - s["warmup_s"] == 100.0  # §IV-A: 100 s runs
    assert s["channel"]["error"] == P000_BURSTY
    assert s["mesh"]["alm_retry"] is True
    assert expand_template(scenario(channel="ideal"))["channel"]["error"] == {"kind": "none"}


@pytest.mark.parametrize(
    ("over", "where", "allowed"),
    [
        ({"hops": 0}, "hops", "1..15"),
        ({"retry_limit": 32}, "retry_limit", "0..31"),
        ({"cc": "bbr"}, "cc", "westwood"),
        ({"channel": "rayleigh"}, "channel", "bursty"),
        ({"scheme": "adaptive"}, "scheme", "alm-adaptive"),
    ],
)
def test_bad_knobs_name_the_field(over: dict[str, Any], where: str, allowed: str) -> None:
    with pytest.raises(ScenarioError) as e:
        airtcp.run(scenario(**over))
    assert where in str(e.value) and allowed in str(e.value)


def rtt_s(seed: int, **over: Any) -> float:
    res = airtcp.run(scenario(channel="ideal", duration_s=25.0, **over), seed=seed)
    return float(res.summary["flows"][0]["tcp"]["rtt_mean_s"])


def test_small_queues_keep_the_queue_off_the_source() -> None:
    # One hop: without TCP Small Queues the window fills the sender's 16-frame driver queue
    # and the 1000-packet pfifo above (387 ms of RTT). With them at most 3 data packets wait
    # below TCP; what remains is the receiver's ACKs, which contend 1:1 with the data and
    # fill its 16-frame driver queue: (3 + 2 x 16) segments at 1530 segments/s = 23 ms in
    # steady state (hand count; the mean over the run is 32 ms with the start).
    for seed in (1, 2):
        assert rtt_s(seed, hops=1) < 0.05
        assert rtt_s(seed, hops=1, tcp={"small_queues": False}) > 0.3


def test_relays_forward_past_their_qdisc() -> None:
    # Linux 3.12 ieee80211_rx_h_mesh_fwding: a forwarded frame goes straight to the driver's
    # 16-frame queue (dropped if it is full), never to the relay's pfifo. A relay's backlog is
    # thus at most 16 frames: 39 ms of RTT on 3 hops over seeds 1-2 (a pfifo would hold 1000).
    for seed in (1, 2):
        assert rtt_s(seed, hops=3) < 0.06
