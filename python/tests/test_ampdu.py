"""802.11n A-MPDU under HT-immediate Block Ack (issue 14): aggregates as large as the limits
allow, one BlockAck per aggregate, the two retry budgets counted apart, BlockAckReq after a
drop, and in-order delivery through the recipient's reordering buffer. Exchange times by hand
from IEEE 802.11-2020 19.4.3 (HT-mixed TXTIME) and the EDCA timing of 802.11a in 5 GHz."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError

AIFS_US, SLOT_US, SIFS_US = 43.0, 9.0, 16.0  # AC_BE: SIFS + 3 slots (Table 9-155)
BA_24_US = 32.0  # 32-byte BlockAck at 24 Mbit/s: 20 + 4 x ceil((16 + 256 + 6) / 96)
MPDU = 1500 + 8 + 20 + 8 + 26 + 4  # UDP payload + UDP + IP + LLC/SNAP + QoS header + FCS


def scenario(traffic: str = "udp", **over: Any) -> dict[str, Any]:
    ht = {"mcs": 7, **over.pop("ht", {})}
    return {"standard": "80211n", "ht": ht, "traffic": traffic, "stations": 1,
            "spacing_m": 1.0, "duration_s": 3.0, "warmup_s": 0.5, **over}  # fmt: skip


def ampdu_us(n: int, ndbps: int = 260) -> float:
    """HT-mixed TXTIME of n subframes of MPDU bytes (each padded to 4 but the last)."""
    psdu = (n - 1) * (4 + MPDU + (4 - (4 + MPDU) % 4) % 4) + 4 + MPDU
    return 36 + 4 * math.ceil((8 * psdu + 22) / ndbps)


@pytest.mark.parametrize(("aggregation", "n"), [("ns3", 28), ("ath9k", 20)])
def test_saturated_udp_sends_aggregates_as_large_as_the_limits(aggregation: str, n: int) -> None:
    # MCS 7, 20 MHz, 1566-byte MPDUs: 5.484 ms holds 28 subframes (5,456 us), ath9k's 4 ms 20
    # (3,908 us). Each exchange: AIFS + 7.5 slots + the A-MPDU + SIFS + a BlockAck at 24.
    r = airtcp.run(airtcp.Scenario.from_dict(scenario(ht={"aggregation": aggregation})), seed=1)
    sta = r.summary["nodes"][1]["mac"]
    # PPDUs and MPDUs are counted apart (docs/scenarios.md, "MAC counters").
    assert sta["successes"] == sta["attempts"], "every PPDU answered"
    assert sta["mpdus_acked"] == sta["mpdus_sent"] == n * sta["attempts"], "every PPDU full"
    cycle = AIFS_US + 7.5 * SLOT_US + ampdu_us(n) + SIFS_US + BA_24_US
    got = r.summary["flows"][0]["goodput_bps"] / 1e6
    # Backoff sampling over ~450-600 exchanges: seed 1 is -0.06 % (ns3) and +0.04 % (ath9k) off.
    assert got == pytest.approx(n * 1500 * 8 / cycle, rel=0.005)


def test_block_ack_retransmission_hides_frame_errors_from_tcp() -> None:
    # 10 % of MPDUs (and of BlockAcks) lost, a 64 KiB window that never fills the station's
    # queue: the software retries recover every MPDU (none given up), the reordering buffer
    # passes the segments up in order, and TCP sees no loss at all: no retransmission, no
    # duplicate ACK that would trigger one.
    cfg = scenario("tcp", channel={"error": {"kind": "fer", "fer": 0.1}}, duration_s=4.0,
                   warmup_s=0.0, tcp={"rcv_buf_bytes": 65536})  # fmt: skip
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=3)
    sta, ap = (r.summary["nodes"][k]["mac"] for k in (1, 0))
    assert sta["mpdu_retries"] > 100 and ap["mpdu_retries"] > 10
    assert sta["drops_retry_limit"] == sta["drops_queue"] == ap["drops_retry_limit"] == 0
    tcp = r.summary["flows"][0]["tcp"]
    assert tcp["retransmissions"] == tcp["fast_retransmits"] == tcp["timeouts"] == 0
    assert r.summary["flows"][0]["goodput_bps"] > 20e6


def test_an_mpdu_past_its_software_limit_is_dropped_and_a_block_ack_req_follows() -> None:
    # Bit errors that lose half the 1566-byte MPDUs (BER 5.53e-5) and b = 1.4 % of the
    # 32-byte BlockAcks; one software retry. A round of an MPDU lasts until a BlockAck comes
    # (a 28-subframe PPDU always gets some MPDU through); the recipient scores every copy, so
    # the MPDU fails a round with (1 - b) p / (1 - b p) and is given up after two such rounds.
    ber = 1 - 0.5 ** (1 / (8 * MPDU))
    cfg = scenario(ht={"mpdu_retries": 1}, channel={"error": {"kind": "ber", "ber": ber}},
                   traces={"mac_tx": True})  # fmt: skip
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    sta = r.summary["nodes"][1]["mac"]
    done = sta["mpdus_acked"] + sta["drops_retry_limit"]
    p = sta["drops_retry_limit"] / done
    b = 1 - (1 - ber) ** (8 * 32)
    want = ((1 - b) * 0.5 / (1 - b * 0.5)) ** 2
    assert abs(p - want) < 4 * math.sqrt(want * (1 - want) / done), (p, want, done)
    kinds = r.traces["mac_tx"].to_pandas()["kind"].value_counts()
    assert kinds.get("block_ack_req", 0) > 10 and kinds["block_ack"] > kinds["block_ack_req"]


def test_a_ppdu_without_block_ack_costs_each_mpdu_one_software_retry() -> None:
    # Every MPDU lost (BER 0.01: a 1566-byte MPDU survives with 0.99^12528, about e^-126):
    # no BlockAck ever. Each A-MPDU is sent 3 times (ppdu_attempts),
    # then each of its MPDUs is charged one software retry; after 2 retries (3 rounds) it is
    # dropped: 9 transmissions per MPDU, 28 MPDUs per PPDU.
    cfg = scenario(ht={"ppdu_attempts": 3, "mpdu_retries": 2},
                   channel={"error": {"kind": "ber", "ber": 0.01}})  # fmt: skip
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    sta = r.summary["nodes"][1]["mac"]
    # Every data PPDU failed (the last may still be on the air); BlockAckReqs, counted apart,
    # are short enough for a few to get their BlockAck (24 and 32 bytes: 14 % and 8 %).
    assert sta["successes"] == sta["mpdus_acked"] == 0
    assert sta["attempts"] - 1 <= sta["failures"] <= sta["attempts"]
    assert 0 < sta["bar_failures"] <= sta["bar_attempts"]
    dropped, sent = sta["drops_retry_limit"], sta["mpdus_sent"]
    assert sent == 28 * sta["attempts"]
    assert dropped > 0 and dropped * 9 <= sent <= dropped * 9 + 28 * 9


@pytest.mark.parametrize(
    ("cfg", "needle"),
    [
        ({"ht": {"aggregation": "linux"}}, "ht.aggregation"),
        ({"ht": {"ppdu_attempts": 0}}, "ht.ppdu_attempts"),
        ({"mac": {"access": "dcf"}}, "mac.access: A-MPDU under Block Ack needs QoS data"),
    ],
)
def test_bad_aggregation_settings_name_the_field(cfg: dict[str, Any], needle: str) -> None:
    with pytest.raises(ScenarioError, match=needle):
        airtcp.Scenario.from_dict({"standard": "80211n", **cfg})


@pytest.mark.parametrize("distance_m", [21.0, 22.0])
def test_the_radio_model_decides_each_subframe_at_its_sinr(distance_m: float) -> None:
    # One station, the radio model, no fading: every subframe of every A-MPDU meets the same
    # SNR, so each MPDU transmission gets through with the NIST chunk success of its 1570
    # bytes (delimiter and MPDU) at MCS 7 (ns-3 InterferenceHelper, per MPDU of an A-MPDU).
    # MPDU transmissions: a BlockAck answers nearly every PPDU, so each MPDU's chance per
    # transmission is its share acknowledged at first.
    from airtcp import _core

    cfg = scenario(spacing_m=distance_m, channel={"model": "radio"}, traces={"receptions": True})
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    rx = r.traces["receptions"].to_pandas()
    snr_db = rx[(rx["node"] == 0) & (rx["kind"] == "data")]["snr_db"]
    assert snr_db.nunique() == 1
    p = _core.chunk_success("nist", "HtMcs7", float(snr_db.iloc[0]), 8 * (4 + MPDU))
    sta = r.summary["nodes"][1]["mac"]
    n = sta["mpdus_acked"] + sta["mpdu_retries"] + sta["drops_retry_limit"]
    got = sta["mpdus_acked"] / n
    assert 0.2 < p < 0.9 and abs(got - p) < 4 * math.sqrt(p * (1 - p) / n), (got, p, n)


def test_the_mpdus_trace_follows_every_mpdu_to_its_fate() -> None:
    # Every MPDU appears once per settled PPDU; the acknowledged and given-up ones match the
    # MAC's counters; retried ones come back, with one more software retry each time.
    ber = 1 - 0.5 ** (1 / (8 * MPDU))
    cfg = scenario(ht={"mpdu_retries": 1}, channel={"error": {"kind": "ber", "ber": ber}},
                   warmup_s=0.0, traces={"mpdus": True, "mac_tx": True})  # fmt: skip
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    m = r.traces["mpdus"].to_pandas()
    sta = r.summary["nodes"][1]["mac"]
    fates = m[m["node"] == 1]["fate"].value_counts()
    assert fates["acked"] == sta["mpdus_acked"] and fates["dropped"] == sta["drops_retry_limit"]
    # Each settled row's transmissions add up to the MPDUs sent, but for the last PPDU's.
    sent = int(m[m["node"] == 1]["ppdu_attempts"].sum())
    assert sent <= sta["mpdus_sent"] <= sent + 28 * 20, (sent, sta["mpdus_sent"])
    assert (m[m["fate"] == "dropped"]["sw_retries"] == 1).all()
    again = m[m["fate"] != "retry"].groupby("seq")["sw_retries"].max()
    assert set(again) <= {0, 1}
    # The PPDUs: each A-MPDU of the mac_tx trace carries the subframes the mpdus rows say.
    ppdus = r.traces["mac_tx"].to_pandas()
    data = ppdus[(ppdus["node"] == 1) & (ppdus["kind"] == "data")]
    assert sta["attempts"] - 1 <= len(data) <= sta["attempts"]  # the last may still be on the air


@pytest.mark.skipif(
    shutil.which("tshark") is None, reason="tshark is not installed (scripts/setup.sh)"
)
def test_tshark_reads_each_subframe_with_its_ampdu_status(tmp_path: Path) -> None:
    from airtcp.pcap import write_pcaps

    cfg = scenario(duration_s=0.05, warmup_s=0.0, traces={"frames": True})
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    pcaps = write_pcaps(r, tmp_path / "pcap", snap_bytes=65535)
    sent = next(p for p in pcaps if p.name == "sta1-wlan0.pcap")
    got = next(p for p in pcaps if p.name == "ap-wlan0.pcap")
    cmd = ["tshark", "-n", "-o", "wlan.check_checksum:TRUE", "-T", "fields", "-E",
           "separator=\t", "-Y", "wlan.fc.type_subtype == 0x0028", "-e", "radiotap.ampdu.reference",
           "-e", "radiotap.ampdu.flags.last", "-e", "wlan.seq", "-e", "wlan.fcs.status",
           "-e", "udp.length", "-r"]  # fmt: skip
    rows = [
        r.split("\t")
        for r in subprocess.run(
            [*cmd, str(sent)], check=True, capture_output=True, text=True
        ).stdout.splitlines()
    ]
    # 28 subframes per A-MPDU, sequence numbers consecutive, the last flagged, FCS good.
    by_ref: dict[str, list[list[str]]] = {}
    for row in rows:
        by_ref.setdefault(row[0], []).append(row)
    assert len(by_ref) >= 3
    for subs in by_ref.values():
        assert len(subs) == 28
        seqs = [int(s[2]) for s in subs]
        assert seqs == list(range(seqs[0], seqs[0] + 28))
        assert [s[1] for s in subs] == ["0"] * 27 + ["1"]
        assert {s[3] for s in subs} == {"1"} and {s[4] for s in subs} == {"1508"}
    # The AP records what it received (every subframe here: no errors at 1 m) and BlockAcks.
    out = subprocess.run([*cmd, str(got)], check=True, capture_output=True, text=True).stdout
    assert len(out.splitlines()) >= 28 * 3
    ba = subprocess.run(["tshark", "-n", "-r", str(got), "-Y", "wlan.fc.type_subtype == 0x0019",
                         "-T", "fields", "-e", "wlan.ba.bm"], check=True, capture_output=True,
                        text=True).stdout.split()  # fmt: skip
    # Each BlockAck acknowledges at least the 28 MPDUs of the A-MPDU it answers.
    assert ba and all(bin(int(b, 16)).count("1") >= 28 for b in ba), ba[:3]


def test_paper_002s_remedy_drops_tcp_frames_at_a_low_rate_and_leaves_udp_alone() -> None:
    # MCS 0 (6.5 Mbit/s: the averaged rate stays below 25, so the limit is 2 software
    # retries), 30 % of the MPDUs lost: MPDUs are given up (0.3^3 of them), TCP's window
    # and RTT shrink; without the remedy (10 retries, 0.3^11) none is given up. UDP frames
    # keep the channel's limit: the same run bit for bit with and without the remedy.
    mpdu = 1448 + 32 + 20 + 8 + 26 + 4  # MSS + TCP options and header, IP, LLC, QoS, FCS
    ber = 1 - 0.7 ** (1 / (8 * mpdu))

    def run(traffic: str, remedy: bool) -> dict[str, Any]:
        cfg = scenario(traffic, ht={"mcs": 0}, duration_s=10.0, warmup_s=1.0,
                       mac={"ba_retry_remedy": remedy},
                       channel={"error": {"kind": "ber", "ber": ber}})  # fmt: skip
        return airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1).summary

    off, on = run("tcp", False), run("tcp", True)
    assert off["nodes"][1]["mac"]["drops_retry_limit"] == 0
    assert on["nodes"][1]["mac"]["drops_retry_limit"] > 10
    t_off, t_on = off["flows"][0]["tcp"], on["flows"][0]["tcp"]
    assert t_on["mean_cwnd_segments"] < t_off["mean_cwnd_segments"] / 3
    assert t_on["rtt_mean_s"] < t_off["rtt_mean_s"] / 3
    same = ("flows", "nodes", "events")
    u_on, u_off = run("udp", True), run("udp", False)
    assert all(u_on[k] == u_off[k] for k in same)
    with pytest.raises(ScenarioError, match="mac.ba_retry_remedy"):
        airtcp.Scenario.from_dict({"standard": "80211a", "mac": {"ba_retry_remedy": True}})


@pytest.mark.skipif(
    shutil.which("tshark") is None, reason="tshark is not installed (scripts/setup.sh)"
)
def test_each_mpdu_carries_its_own_retry_bit(tmp_path: Path) -> None:
    # Issue 29: the Retry bit was the aggregate's and the capture copied it to every subframe
    # (first transmissions with Retry = 1). 20 % of MPDUs lost: software retries go in later
    # A-MPDUs beside new MPDUs. In the sender's file, an MPDU's Retry bit is set exactly on
    # its copies after the first (by transmitter, TID and sequence number; fewer than 4096
    # MPDUs, so no wrap), and their number is the node's mpdu_retries (docs/pcap.md).
    from airtcp.pcap import write_pcaps

    cfg = scenario(duration_s=0.12, warmup_s=0.0, traces={"frames": True},
                   channel={"error": {"kind": "fer", "fer": 0.2}})  # fmt: skip
    r = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    pcaps = write_pcaps(r, tmp_path / "pcap", snap_bytes=128)
    sent = next(p for p in pcaps if p.name == "sta1-wlan0.pcap")
    cmd = ["tshark", "-n", "-T", "fields", "-E", "separator=\t",
           "-Y", "wlan.fc.type_subtype == 0x0028 && wlan.ta == 02:00:00:00:00:02",
           "-e", "wlan.qos.tid", "-e", "wlan.seq", "-e", "wlan.fc.retry", "-r", str(sent)]  # fmt: skip
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    seen: set[tuple[str, str]] = set()
    wrong = resent = 0
    for tid, seq, retry in (line.split("\t") for line in out.splitlines()):
        again = (tid, seq) in seen
        seen.add((tid, seq))
        resent += again
        wrong += again != (retry in ("1", "True"))
    sta = r.summary["nodes"][1]["mac"]
    assert len(seen) < 4096 and resent > 50, (len(seen), resent)
    assert wrong == 0, f"{wrong} subframes whose Retry bit is not their own"
    assert resent == sta["mpdu_retries"]
    # The radiotap MCS field says STBC and Ness are known (0x7f): Wireshark warned on every
    # HT frame without them.
    warn = ["tshark", "-n", "-r", str(sent), "-Y", "_ws.expert.severity >= warning"]
    assert subprocess.run(warn, check=True, capture_output=True, text=True).stdout == ""
