"""ECN end to end (RFC 3168): a TCP flow that asks for it (``tcp.ecn``) through a CoDel that
marks (``mac.codel_ecn``, or mac80211's queues, ``mac.txq_ecn``, on by default). Unit tests:
``crates/airtcp-core/src/tcp/tests.rs`` (negotiation, ECT on new data only, ECE until CWR,
one reduction per window in every congestion control) and ``src/net/codel.rs`` (marks on the
drop schedule)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError
from airtcp.pcap import write_pcaps


def upload(ecn: bool, mac: dict[str, Any], **over: Any) -> dict[str, Any]:
    """One 802.11n station at MCS 0 (6.5 Mbit/s) uploading with CUBIC and Linux's buffers
    (test_qdisc.py's case), its MAC queue 123 frames (ath9k) below the queue under test."""
    cfg = {
        "standard": "80211n", "ht": {"mcs": 0}, "traffic": "tcp", "stations": 1,
        "spacing_m": 1.0, "duration_s": 20.0, "warmup_s": 5.0, "cc": "cubic",
        "tcp": {"rcv_buf_bytes": 6291456, "snd_buf_bytes": 4194304, "ecn": ecn},
        "mac": {"queue_limit_packets": 123, **mac}, **over,
    }  # fmt: skip
    return airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1).summary


@pytest.mark.parametrize(
    "mac",
    [{"qdisc": "codel", "codel_ecn": True}, {"qdisc": "fq-codel"}, {"txq": "fq-codel"}],
    ids=["sch_codel", "sch_fq_codel", "mac80211"],
)
def test_a_marked_flow_loses_nothing_to_codel_and_keeps_its_rtt(mac: dict[str, Any]) -> None:
    # The same CoDel with a flow that drops (no tcp.ecn) and one that is marked: the marked
    # flow retransmits nothing and CoDel drops none of its packets; the marks cut its window
    # as the drops cut the other's, so the delay CoDel holds stays (here lower: no recovery
    # episodes), and the goodput is the same within 5 %.
    dropped, marked = upload(False, mac), upload(True, mac)
    d, m = dropped["flows"][0], marked["flows"][0]
    dm, mm = dropped["nodes"][1]["mac"], marked["nodes"][1]["mac"]
    assert dm["drops_codel"] > 0 and d["tcp"]["retransmissions"] > 0
    assert "ecn_marks_codel" not in dm and "ecn" not in d["tcp"]
    assert "drops_codel" not in mm and mm["ecn_marks_codel"] > 0
    assert m["tcp"]["retransmissions"] == 0
    ecn = m["tcp"]["ecn"]
    assert ecn["negotiated"] and ecn["ce_received"] > 0 and ecn["reductions"] > 0
    assert ecn["reductions"] <= ecn["ce_received"] and ecn["cwr_sent"] >= ecn["reductions"]
    assert m["tcp"]["rtt_mean_s"] <= 1.1 * d["tcp"]["rtt_mean_s"]
    assert m["goodput_bps"] == pytest.approx(d["goodput_bps"], rel=0.05)


def test_a_queue_that_does_not_mark_drops_an_ecn_flow_as_any_other() -> None:
    # Marking needs both ends: CoDel without ecn drops the ECN-capable flow's packets (and the
    # losses' recoveries send CWRs), mac80211's queues with txq_ecn = false too.
    for mac in (
        {"qdisc": "codel"},
        {"qdisc": "fq-codel", "codel_ecn": False},
        {"txq": "fq-codel", "txq_ecn": False},
    ):
        s = upload(True, mac)
        f, node = s["flows"][0], s["nodes"][1]["mac"]
        assert node["drops_codel"] > 0 and "ecn_marks_codel" not in node, mac
        assert f["tcp"]["ecn"]["ce_received"] == 0 and f["tcp"]["retransmissions"] > 0, mac


def test_a_marking_queue_changes_nothing_for_a_flow_without_ecn() -> None:
    # Not ECN-capable, the packets are dropped as before: the same run, bit for bit.
    plain, marking = (
        upload(False, {"qdisc": "codel"}),
        upload(False, {"qdisc": "codel", "codel_ecn": True}),
    )
    assert plain["flows"] == marking["flows"] and plain["nodes"] == marking["nodes"]


def test_codel_ecn_without_codel_is_refused_naming_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"mac\.codel_ecn"):
        airtcp.Scenario.from_dict({"mac": {"qdisc": "pfifo", "codel_ecn": True}})
    with pytest.raises(ScenarioError, match=r"mac\.codel_ecn"):
        airtcp.Scenario.from_dict({"mac": {"codel_ecn": False}})
    with pytest.raises(ScenarioError, match=r"tcp\.ecn"):
        airtcp.Scenario.from_dict({"tcp": {"ecn": "yes"}})


TSHARK = shutil.which("tshark")


@pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (scripts/setup.sh installs it)")
def test_wireshark_decodes_the_ecn_bits(tmp_path: Path) -> None:
    # The station's capture: an ECN-setup SYN (ECE and CWR), the SYN-ACK with ECE alone, new
    # data ECT(0), the packets CoDel marked CE, ACKs with ECE and data with CWR; tshark
    # counts the CE-marked data and the CWRs as airtcp does.
    cfg = {
        "standard": "80211n", "ht": {"mcs": 0}, "traffic": "tcp", "stations": 1,
        "spacing_m": 1.0, "duration_s": 8.0, "warmup_s": 0.0, "cc": "cubic",
        "tcp": {"ecn": True}, "traces": {"frames": True},
        "mac": {"queue_limit_packets": 123, "qdisc": "codel", "codel_ecn": True},
    }  # fmt: skip
    result = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    write_pcaps(result, tmp_path / "pcap")
    path = tmp_path / "pcap" / "sta1-wlan0.pcap"
    assert TSHARK is not None

    def count(display_filter: str) -> int:
        cmd = [
            TSHARK,
            "-n",
            "-r",
            str(path),
            "-Y",
            display_filter,
            "-T",
            "fields",
            "-e",
            "frame.number",
        ]
        return len(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split())

    ecn = result.summary["flows"][0]["tcp"]["ecn"]
    marks = result.summary["nodes"][1]["mac"]["ecn_marks_codel"]
    assert marks > 0 and ecn["cwr_sent"] > 0
    syn = "tcp.flags.syn == 1 && tcp.flags.ack == 0"
    assert count(f"{syn} && tcp.flags.ece == 1 && tcp.flags.cwr == 1") >= 1
    assert (
        count(
            "tcp.flags.syn == 1 && tcp.flags.ack == 1 && tcp.flags.ece == 1 && tcp.flags.cwr == 0"
        )
        >= 1
    )
    # The station's wlan0 sees its data leave (ECT(0) or CE, every one a first transmission
    # here or Not-ECT if sent again) and the AP's ACKs arrive.
    data = "tcp.len > 0 && ip.src == 10.0.0.2"
    assert count(f"{data} && ip.dsfield.ecn == 2") > 1000
    assert count(f"{data} && ip.dsfield.ecn == 3") == marks
    assert count(f"{data} && tcp.flags.cwr == 1") == ecn["cwr_sent"]
    assert count("tcp.len == 0 && tcp.flags.syn == 0 && tcp.flags.ece == 1") == ecn["ece_received"]
    assert count("_ws.expert.severity == error") == 0
