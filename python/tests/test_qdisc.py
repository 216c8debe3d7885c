"""The queueing discipline above a WiFi interface (issue 15): Linux 3.2's stack for paper 002
(pfifo_fast of txqueuelen 1000 above ath9k's 123 frames per AC) and Linux 3.5's CoDel in its
place. Unit tests of each: crates/airtcp-core/src/net/{qdisc,codel}.rs."""

from __future__ import annotations

from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError


def upload(qdisc: str, **over: Any) -> dict[str, Any]:
    # One 802.11n station at MCS 0 (6.5 Mbit/s) uploading with CUBIC and Linux's buffers.
    cfg = {"standard": "80211n", "ht": {"mcs": 0}, "traffic": "tcp", "stations": 1,
           "spacing_m": 1.0, "duration_s": 20.0, "warmup_s": 5.0, "cc": "cubic",
           "tcp": {"rcv_buf_bytes": 6291456, "snd_buf_bytes": 4194304},
           "mac": {"qdisc": qdisc, "queue_limit_packets": 123}, **over}  # fmt: skip
    return airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1).summary


def test_linux_3_2s_queues_bloat_and_codel_holds_the_delay_down() -> None:
    # pfifo_fast 1000 + 123 in the driver at 6.5 Mbit/s: about 1,100 packets of 1.5 kB take
    # 2 s to drain; TCP fills them (paper 002: RTT about 1000 ms below 30 Mbit/s, cwnd
    # 700-900). CoDel (5 ms / 100 ms) drops early: a fraction of the RTT, the same throughput.
    fifo, codel = upload("pfifo"), upload("codel")
    f, c = fifo["flows"][0], codel["flows"][0]
    assert f["tcp"]["rtt_mean_s"] > 0.7 and f["tcp"]["mean_cwnd_segments"] > 700
    assert fifo["nodes"][1]["mac"]["drops_qdisc"] > 0
    assert c["tcp"]["rtt_mean_s"] < f["tcp"]["rtt_mean_s"] / 2.5
    assert codel["nodes"][1]["mac"]["drops_codel"] > 0
    assert c["goodput_bps"] == pytest.approx(f["goodput_bps"], rel=0.05)


def test_a_qdisc_that_never_holds_a_packet_changes_nothing() -> None:
    # A 1 Mbit/s CBR flow never fills the MAC's queue: every packet goes straight down, and
    # the run is the one without a qdisc, bit for bit.
    flows = [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1.0}]
    runs = [upload(q, traffic="udp", flows=flows, cc=None) for q in ("none", "pfifo", "codel")]
    assert all(r["flows"] == runs[0]["flows"] and r["nodes"] == runs[0]["nodes"] for r in runs)


def test_bad_qdisc_settings_name_the_field() -> None:
    with pytest.raises(ScenarioError, match="mac.qdisc"):
        airtcp.Scenario.from_dict({"mac": {"qdisc": "fq_codel"}})
    with pytest.raises(ScenarioError, match="mac.codel_target_ms"):
        airtcp.Scenario.from_dict({"mac": {"qdisc": "codel", "codel_target_ms": 0}})


def test_saturating_sources_fill_mac80211s_queues_and_take_turns() -> None:
    # Saturating UDP from an AP to three stations at different distances (so at different
    # rates) under Linux today's queues: the sources fill each station's intermediate queue up
    # to its limit (AQL holding a station back must not make them spin), and frame by frame the
    # three get the same throughput (the 802.11 performance anomaly), which airtime fairness
    # breaks in favour of the fast station.
    def run(aql: bool, fair: bool) -> list[float]:
        s = airtcp.run(
            {
                "standard": "80211n",
                "topology": "custom",
                "duration_s": 2.0,
                "warmup_s": 0.5,
                "channel": {"model": "radio"},
                "nodes": [{"name": "ap", "role": "ap"}]
                + [
                    {"name": f"sta{i}", "role": "sta", "x_m": x}
                    for i, x in ((1, 2.0), (2, 20.0), (3, 40.0))
                ],
                "mac": {
                    "rate_control": "minstrel-ht",
                    "txq": "fq-codel",
                    "aql": aql,
                    "airtime_fairness": fair,
                    "queue_limit_packets": 64,
                },
                "flows": [
                    {"kind": "udp_saturating", "src": "ap", "dst": f"sta{i}"} for i in (1, 2, 3)
                ],
            }  # fmt: skip
        ).summary
        return [f["goodput_bps"] / 1e6 for f in s["flows"]]

    rr = run(False, False)
    assert max(rr) < 1.05 * min(rr), rr
    fair = run(False, True)
    assert fair[0] > 1.3 * rr[0] and fair[2] < rr[2], (rr, fair)
    held = run(True, True)
    assert all(g > 0 for g in held), held


def test_fq_codel_keeps_a_sparse_flow_out_of_a_bulk_flows_queue() -> None:
    # A bulk TCP upload and a 0.1 Mbit/s CBR flow (200-byte packets) from one station, above a
    # driver queue of 4 frames (BQL-like, so that the qdisc holds the backlog): CoDel keeps
    # the shared queue short (tens of ms) and its drops hit the CBR flow too; fq_codel serves
    # the sparse flow first (RFC 8290 1.2), at a few ms and without loss, the TCP goodput the
    # same within 5 %.
    flows = [
        {"kind": "tcp_bulk", "src": "sta1", "dst": "ap"},
        {"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 0.1, "payload_bytes": 200},
    ]
    codel, fq = (
        upload(q, flows=flows, mac={"qdisc": q, "queue_limit_packets": 4})
        for q in ("codel", "fq-codel")
    )
    (ct, cu), (ft, fu) = codel["flows"], fq["flows"]
    assert fu["loss_ratio"] == 0.0 and fu["mean_delay_s"] < cu["mean_delay_s"] / 2
    assert ft["goodput_bps"] == pytest.approx(ct["goodput_bps"], rel=0.05)
    assert fq["nodes"][1]["mac"]["drops_codel"] > 0
