"""pcap export: header bytes by hand, files per node and interface, and tshark agreeing with
airtcp's own counters on a lossy TCP run (docs/pcap.md, docs/validation.md)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cli_runner import CliRunner

import airtcp
from airtcp.cli import app
from airtcp.pcap import (
    LINKTYPE_IEEE802_11_RADIOTAP,
    LINKTYPE_RAW,
    PcapError,
    file_header,
    ipv4_checksum,
    record,
    write_pcaps,
)
from airtcp.result import OutputExistsError

TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(
    TSHARK is None, reason="tshark is not installed (scripts/setup.sh installs it with apt-get)"
)

# A BSS where sta1 sends a 1 MB file over TCP to a server behind the AP: frame errors (FER 0.1)
# with one MAC retransmission make the MAC drop frames, so TCP retransmits; the wired link
# loses 1% of the packets in each direction. A 64 KiB window keeps every queue below its limit,
# so each TCP transmission goes on the air (a queue drop would never reach a capture).
LOSSY: dict[str, Any] = {
    "name": "pcap-lossy-tcp",
    "topology": "bss",
    "stations": 1,
    "standard": "80211a",
    "duration_s": 4.0,
    "warmup_s": 0.0,
    "retry_limit": 1,
    "channel": {"error": {"kind": "fer", "fer": 0.1}},
    "tcp": {"rcv_buf_bytes": 65536, "recovery": "sack"},
    "traces": {"frames": True, "mac_tx": True},
    "nodes": [{"name": "server", "role": "host"}],
    "links": [
        {
            "a": "ap",
            "b": "server",
            "rate_mbps": 100,
            "delay_ms": 2,
            "loss": 0.01,
            "reverse_loss": 0.01,
        }
    ],
    "flows": [{"kind": "tcp_file", "src": "sta1", "dst": "server", "file_bytes": 1_000_000}],
}

MAC = {"ap": "02:00:00:00:00:01", "sta1": "02:00:00:00:00:02", "server": "02:00:00:00:00:03"}

# Checksums and FCS validated, so a bad one becomes an expert error.
TSHARK_PREFS = [
    "-o", "ip.check_checksum:TRUE",
    "-o", "tcp.check_checksum:TRUE",
    "-o", "udp.check_checksum:TRUE",
    "-o", "wlan.check_checksum:TRUE",
]  # fmt: skip


def tshark(path: Path, fields: list[str], display_filter: str = "") -> list[list[str]]:
    """Rows of ``fields`` for the frames of ``path`` matching ``display_filter``."""
    assert TSHARK is not None
    cmd = [TSHARK, "-n", "-r", str(path), *TSHARK_PREFS, "-T", "fields", "-E", "separator=\t"]
    for f in fields:
        cmd += ["-e", f]
    if display_filter:
        cmd += ["-Y", display_filter]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def count(path: Path, display_filter: str) -> int:
    return len(tshark(path, ["frame.number"], display_filter))


# ---------------------------------------------------------------------------------------------
# bytes by hand


def test_ipv4_checksum_of_a_known_header() -> None:
    # The worked example of https://en.wikipedia.org/wiki/IPv4_header_checksum: 0xb861.
    header = bytes.fromhex("450000730000400040110000c0a80001c0a800c7")
    assert ipv4_checksum(header) == 0xB861
    assert ipv4_checksum(header[:10] + b"\xb8\x61" + header[12:]) == 0


def test_file_header_is_nanosecond_pcap() -> None:
    h = file_header(LINKTYPE_IEEE802_11_RADIOTAP, 128)
    assert h == bytes.fromhex("4d3cb2a1020004000000000000000000800000007f000000")


def test_an_ack_record_is_14_bytes_plus_radiotap_with_a_valid_fcs() -> None:
    # radiotap (14) + ACK: FC d4 00, Duration 0, RA 02:00:00:00:00:01 (IEEE 802.11-2016 9.3.1.3).
    radiotap = bytes.fromhex("00000e000e000000100c3c144001")
    mac = bytes.fromhex("d4000000020000000001")
    rec = record(1_500_000_123, radiotap + mac, 14, wireless=True, snap_bytes=128)
    sec, nsec, caplen, length = struct.unpack("<IIII", rec[:16])
    assert (sec, nsec, caplen, length) == (1, 500_000_123, 28, 28)
    frame = rec[16:]
    assert frame[14:24] == mac
    assert frame[24:] == struct.pack("<I", zlib.crc32(mac))
    assert len(frame) - 14 == 14


def test_a_long_frame_is_cut_at_the_snap_length_but_never_inside_headers() -> None:
    head = bytes(range(100))  # wired: an IP packet whose headers are 100 bytes
    rec = record(0, head, 1500, wireless=False, snap_bytes=64)
    assert struct.unpack("<IIII", rec[:16])[2:] == (100, 1500)
    rec = record(0, head, 1500, wireless=False, snap_bytes=128)
    assert struct.unpack("<IIII", rec[:16])[2:] == (128, 1500)
    assert rec[16:] == head + bytes(28)


def test_export_needs_the_frames_trace(tmp_path: Path) -> None:
    result = airtcp.run({"name": "x", "stations": 1, "duration_s": 0.01})
    with pytest.raises(PcapError, match=r"traces\.frames"):
        write_pcaps(result, tmp_path / "pcap")
    assert not (tmp_path / "pcap").exists()


# ---------------------------------------------------------------------------------------------
# files


@pytest.fixture(scope="module")
def lossy(tmp_path_factory: pytest.TempPathFactory) -> tuple[airtcp.Result, Path]:
    result = airtcp.run(LOSSY, seed=3)
    out = tmp_path_factory.mktemp("lossy") / "pcap"
    write_pcaps(result, out)
    return result, out


def test_one_file_per_node_and_interface(lossy: tuple[airtcp.Result, Path]) -> None:
    _, out = lossy
    names = sorted(p.name for p in out.glob("*.pcap"))
    assert names == ["ap-link0.pcap", "ap-wlan0.pcap", "server-link0.pcap", "sta1-wlan0.pcap"]
    for name in names:
        magic, _, _, _, _, _, linktype = struct.unpack("<IHHiIII", (out / name).read_bytes()[:24])
        assert magic == 0xA1B23C4D
        assert linktype == (LINKTYPE_IEEE802_11_RADIOTAP if "wlan" in name else LINKTYPE_RAW)


def test_an_existing_non_empty_directory_is_refused(
    lossy: tuple[airtcp.Result, Path], tmp_path: Path
) -> None:
    result, _ = lossy
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(OutputExistsError):
        write_pcaps(result, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


# ---------------------------------------------------------------------------------------------
# tshark against airtcp's counters


@needs_tshark
def test_tshark_finds_no_malformed_frames_and_valid_checksums(
    lossy: tuple[airtcp.Result, Path],
) -> None:
    _, out = lossy
    for path in sorted(out.glob("*.pcap")):
        assert count(path, "_ws.malformed || _ws.expert.severity == error") == 0, path.name
        assert count(path, "ip") == count(path, "ip.checksum.status == 1"), path.name
        # Checksums over a cut payload cannot be verified; every whole segment's is good.
        whole = count(path, "tcp && frame.cap_len == frame.len")
        assert whole > 0
        assert whole == count(path, "tcp.checksum.status == 1"), path.name
        assert count(path, "tcp.checksum.status == 0 || ip.checksum.status == 0") == 0
    for path in sorted(out.glob("*-wlan0.pcap")):
        whole = count(path, "frame.cap_len == frame.len")
        assert whole == count(path, "wlan.fcs.status == 1"), path.name
        assert count(path, "wlan.fcs.status == 0") == 0


@needs_tshark
def test_tshark_mac_counts_equal_airtcps_counters(lossy: tuple[airtcp.Result, Path]) -> None:
    result, out = lossy
    nodes = {n["name"]: n["mac"] for n in result.summary["nodes"]}
    mac_tx = result.traces["mac_tx"].to_pydict()
    for me, peer in (("sta1", "ap"), ("ap", "sta1")):
        path = out / f"{me}-wlan0.pcap"
        rows = tshark(path, ["wlan.fc.type_subtype", "wlan.ta", "wlan.ra", "wlan.fc.retry"])
        kinds = Counter()
        for subtype, ta, ra, retry in rows:
            mine = ta == MAC[me] if ta else ra == MAC[peer]  # ACK/CTS carry no TA
            kinds[(int(subtype, 0), mine, retry in ("1", "True"))] += 1
        data_tx = kinds[(0x20, True, False)] + kinds[(0x20, True, True)]
        assert data_tx == nodes[me]["attempts"], me
        assert kinds[(0x20, True, True)] == nodes[me]["retries"], me
        received = sum(v for (_, mine, _), v in kinds.items() if not mine)
        assert received == nodes[me]["rx_ok"], me
        # ACKs sent: the mac_tx trace (rows written at the end of each transmission).
        idx = [i for i, n in enumerate(result.summary["nodes"]) if n["name"] == me][0]
        acks = sum(
            1
            for n, k in zip(mac_tx["node"], mac_tx["kind"], strict=True)
            if n == idx and k == "ack"
        )
        assert kinds[(0x1D, True, False)] == acks, me


@needs_tshark
def test_tshark_tcp_retransmissions_and_bytes_equal_airtcps(
    lossy: tuple[airtcp.Result, Path],
) -> None:
    result, out = lossy
    flow = result.summary["flows"][0]
    tcp = flow["tcp"]
    assert tcp["retransmissions"] >= 5, tcp  # lossy enough to mean something
    sender = out / "sta1-wlan0.pcap"
    sent = "ip.src == 10.0.0.2 && tcp.len > 0 && wlan.ta == 02:00:00:00:00:02"
    # A sender's capture reorders nothing: Wireshark's "Out-Of-Order" there is a retransmission
    # that filled a hole within one RTT (docs/pcap.md).
    rtx = "(tcp.analysis.retransmission || tcp.analysis.out_of_order)"
    # Default preferences: Wireshark hands MAC retries (Retry bit, same sequence number) to TCP,
    # whose analysis flags each one as a retransmission too.
    both = count(sender, f"{sent} && {rtx}")
    mac_retries = count(sender, f"{sent} && wlan.fc.retry == 1")
    assert both == tcp["retransmissions"] + mac_retries
    # wlan.retransmitted:FALSE: MAC retries found in the same file are not subdissected; what
    # TCP flags is exactly airtcp's TCP retransmissions.
    no_mac = ["-o", "wlan.retransmitted:FALSE"]
    TSHARK_PREFS.extend(no_mac)
    try:
        # (not subdissected: found by their 802.11 header only)
        data_from_me = "wlan.fc.type_subtype == 0x20 && wlan.ta == 02:00:00:00:00:02"
        assert count(sender, f"{data_from_me} && wlan.analysis.retransmission") == mac_retries
        assert mac_retries == result.summary["nodes"][1]["mac"]["retries"]
        assert count(sender, f"{sent} && {rtx}") == tcp["retransmissions"]
        # ... and from the raw sequence numbers: segments that do not advance the highest byte.
        rows = tshark(sender, ["tcp.seq", "tcp.len"], f"{sent} && !wlan.analysis.retransmission")
        highest, resent, fresh = 0, 0, 0
        for seq, length in ((int(a), int(b)) for a, b in rows):
            if seq + length <= highest:
                resent += 1
            else:
                fresh += seq + length - max(seq, highest)
                highest = seq + length
        assert resent == tcp["retransmissions"]
        assert fresh == flow["delivered_bytes"] == LOSSY["flows"][0]["file_bytes"]
    finally:
        del TSHARK_PREFS[-len(no_mac) :]


@needs_tshark
def test_tshark_frame_lengths_equal_airtcps_sizes(lossy: tuple[airtcp.Result, Path]) -> None:
    result, out = lossy
    frames = result.traces["frames"].to_pydict()
    for name, idx in (("sta1-wlan0.pcap", 1), ("ap-wlan0.pcap", 0)):
        rows = tshark(
            out / name, ["frame.len", "radiotap.length", "ip.len", "wlan.fc.type_subtype"]
        )
        lengths = [int(f) - int(r) for f, r, _, _ in rows]
        cols = zip(frames["node"], frames["iface"], frames["bytes"], strict=True)
        mine = [b for n, i, b in cols if n == idx and i == 0]
        assert sorted(lengths) == sorted(mine)
        for f, r, ip_len, subtype in rows:
            if ip_len:  # Data: 24-byte header + 8 LLC/SNAP + IP packet + 4 FCS
                assert int(f) - int(r) == 24 + 8 + int(ip_len) + 4
            else:  # ACK 14 bytes (IEEE 802.11-2016 9.3.1.3)
                assert int(subtype, 0) == 0x1D and int(f) - int(r) == 14
    for name in ("ap-link0.pcap", "server-link0.pcap"):
        for frame_len, ip_len in tshark(out / name, ["frame.len", "ip.len"]):
            assert frame_len == ip_len


# ---------------------------------------------------------------------------------------------
# command line

TINY = """
name = "tiny-pcap"
topology = "bss"
stations = 1
traffic = "tcp"
duration_s = 0.05
warmup_s = 0.0

[[nodes]]
name = "server"
role = "host"

[[links]]
a = "ap"
b = "server"
rate_mbps = 100
delay_ms = 1

[[flows]]
kind = "tcp_bulk"
src = "sta1"
dst = "server"
"""


def test_cli_run_pcap_writes_one_file_per_node_and_interface(tmp_path: Path) -> None:
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY)
    res = CliRunner().invoke(app, ["run", str(scenario), "--pcap", str(tmp_path / "pcap")])
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "pcap").glob("*.pcap"))
    assert names == ["ap-link0.pcap", "ap-wlan0.pcap", "server-link0.pcap", "sta1-wlan0.pcap"]
    for name in names:
        assert (tmp_path / "pcap" / name).stat().st_size > 24 + 16


def test_cli_run_pcap_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY)
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "keep.txt").write_text("mine")
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["run", str(scenario), "--pcap", str(taken), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert res.stdout == ""
    assert res.stderr.startswith("error: ") and "taken" in res.stderr and "not empty" in res.stderr
    assert sorted(p.name for p in taken.iterdir()) == ["keep.txt"]
    assert not out.exists()


# ---------------------------------------------------------------------------------------------
# headers as Wireshark expects them (issue 9)

# sta1 sends to the server over EDCA (26-byte QoS Data header) with SACK and timestamps; the
# wired link drops 5 % toward the server, whose ACKs then carry three SACK blocks: the largest
# pure ACK airtcp makes, 14 radiotap + 26 QoS Data + 8 LLC/SNAP + 20 IPv4 + 20 TCP
# + 12 timestamps + 4 + 3 x 8 SACK + 4 FCS = 132 bytes (22 of them with seed 1).
SACK3: dict[str, Any] = {
    **LOSSY,
    "name": "pcap-sack3",
    "duration_s": 1.0,
    "channel": {"error": {"kind": "none"}},
    "mac": {"access": "edca"},
    "traces": {"frames": True},
    "links": [{**LOSSY["links"][0], "loss": 0.05, "reverse_loss": 0.0}],
}


def pcap_records(path: Path) -> list[tuple[int, int, bytes]]:
    """(captured length, original length, bytes) of every record of a pcap file."""
    data = path.read_bytes()
    records, at = [], 24
    while at < len(data):
        _, _, caplen, length = struct.unpack_from("<IIII", data, at)
        records.append((caplen, length, data[at + 16 : at + 16 + caplen]))
        at += 16 + caplen
    return records


def pure_acks(path: Path) -> list[tuple[int, int, bytes]]:
    """The records of a wireless file that carry a TCP segment without payload."""
    acks = []
    for caplen, length, frame in pcap_records(path):
        rt = frame[2] | frame[3] << 8
        fc0 = frame[rt]
        if fc0 not in (0x08, 0x88):  # Data, QoS Data (IEEE 802.11-2016 Table 9-1)
            continue
        ip = rt + (26 if fc0 == 0x88 else 24) + 8
        ip_len = int.from_bytes(frame[ip + 2 : ip + 4], "big")
        if frame[ip + 9] == 6 and ip_len == 20 + (frame[ip + 20 + 12] >> 4) * 4:
            acks.append((caplen, length, frame))
    return acks


def test_the_largest_pure_ack_is_captured_whole_at_the_default_snap_length(
    tmp_path: Path,
) -> None:
    from airtcp.pcap import DEFAULT_SNAP_BYTES

    assert DEFAULT_SNAP_BYTES == 132
    out = tmp_path / "pcap"
    write_pcaps(airtcp.run(SACK3, seed=1), out)
    acks = [a for path in sorted(out.glob("*-wlan0.pcap")) for a in pure_acks(path)]
    assert max(length for _, length, _ in acks) == 132
    assert any(frame[-4 - 28 : -4 - 24] == b"\x01\x01\x05\x1a" for _, _, frame in acks)
    for caplen, length, frame in acks:
        assert caplen == length  # whole, so with its FCS
        rt = frame[2] | frame[3] << 8
        assert frame[-4:] == struct.pack("<I", zlib.crc32(frame[rt:-4]))


@needs_tshark
@pytest.mark.parametrize(("recovery", "options"), [("sack", 12), ("newreno", 8)])
def test_tshark_reads_syns_without_timestamps_as_linux_sends_them(
    tmp_path: Path, recovery: str, options: int
) -> None:
    # Linux tcp_options_write without timestamps: MSS 4 + NOP NOP SACK_PERM 4 + NOP WS 4 = 12
    # option bytes, 8 without SACK (before: MSS, SACK_PERM or NOPs, 10 NOPs, NOP WS = 20).
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY)
    out = tmp_path / "pcap"
    args = ["--set", "tcp.timestamps=false", "--set", f"recovery={recovery}", "--pcap", str(out)]
    res = CliRunner().invoke(app, ["run", str(scenario), *args])
    assert res.exit_code == 0, res.output
    path = out / "sta1-wlan0.pcap"
    rows = tshark(path, ["tcp.hdr_len", "tcp.flags.ack"], "tcp.flags.syn == 1")
    assert sorted(ack for _, ack in rows) == ["0", "1"]  # the SYN and the SYN-ACK, once each
    assert {int(hdr) for hdr, _ in rows} == {20 + options}
    warnings = "_ws.expert.severity == warning || _ws.expert.severity == error"
    assert count(path, warnings) == 0
    # TCP port 5001 has no dissector of its own: Wireshark shows plain TCP.
    protocols = Counter(row[0] for row in tshark(path, ["_ws.col.Protocol"]))
    assert set(protocols) == {"802.11", "TCP"}, protocols


@needs_tshark
def test_tshark_sees_both_ends_stamp_their_clock_and_echo_the_other(
    lossy: tuple[airtcp.Result, Path],
) -> None:
    # RFC 7323 3.2: TSval is each end's clock, here simulated microseconds, and TSecr echoes
    # the peer's latest TSval. sta1 (10.0.0.2) sends, the server (10.0.0.3) acknowledges.
    _, out = lossy
    rows = tshark(
        out / "server-link0.pcap",
        [
            "frame.time_epoch",
            "ip.src",
            "tcp.options.timestamp.tsval",
            "tcp.options.timestamp.tsecr",
        ],
    )
    server_tsvals = {int(v) for _, src, v, _ in rows if src == "10.0.0.3"}
    assert len(server_tsvals) > 100 and min(server_tsvals) > 0
    for time, _, tsval, _ in rows:
        sec, _, frac = time.partition(".")
        now_us = int(sec) * 1_000_000 + int((frac + "000000")[:6])
        assert int(tsval) <= now_us  # stamped when TCP sent it, at or before the record
    echoed = {int(e) for _, src, _, e in rows if src == "10.0.0.2" and e != "0"}
    assert echoed and echoed <= server_tsvals


@needs_tshark
def test_tshark_reads_tiny_udp_payloads_as_plain_data(tmp_path: Path) -> None:
    # UDP 5001 is Wireshark's CPFI, which calls 1- and 2-byte payloads malformed; airtcp's UDP
    # receivers listen on the discard port 9 (RFC 863) instead.
    tiny = {"name": "tiny-udp", "stations": 1, "duration_s": 0.002, "warmup_s": 0.0}
    out = tmp_path / "pcap"
    write_pcaps(airtcp.run({**tiny, "payload_bytes": 1, "traces": {"frames": True}}), out)
    path = out / "ap-wlan0.pcap"
    rows = tshark(path, ["_ws.col.Protocol", "udp.dstport", "udp.length"], "udp")
    assert rows and all(row == ["UDP", "9", "9"] for row in rows), rows  # 8 + 1 bytes
    assert count(path, "_ws.malformed || _ws.expert.severity == error") == 0


@needs_tshark
def test_tshark_decodes_mesh_data_frames(tmp_path: Path) -> None:
    # mac.data_header_bytes = 38: four addresses, QoS Control with Mesh Control Present and the
    # 6-byte Mesh Control (TTL 31); a 1500-byte IP packet (1472 + 28) is then a 1550-byte MPDU.
    cfg = {
        "name": "mesh-header", "topology": "chain", "hops": 2, "standard": "80211g",
        "duration_s": 0.05, "warmup_s": 0.0, "payload_bytes": 1472,
        "mac": {"access": "edca", "data_header_bytes": 38}, "traces": {"frames": True},
        "flows": [{"kind": "udp_cbr", "src": "n0", "dst": "n2", "rate_mbps": 1.0}],
    }  # fmt: skip
    out = tmp_path / "pcap"
    write_pcaps(airtcp.run(cfg), out)
    path = out / "n1-wlan0.pcap"
    fields = ["wlan.fc.ds", "wlan.qos.mesh_ctl_present", "wlan.fixed.mesh_ttl", "ip.len"]
    rows = tshark(path, fields, "wlan.fc.type == 2")
    assert rows and all(r == ["0x03", "1", "0x1f", "1500"] for r in rows), rows[:3]
    lengths = tshark(path, ["frame.len", "radiotap.length"], "wlan.fc.type == 2")
    assert all(int(f) - int(r) == 1550 for f, r in lengths), lengths[:3]
    assert count(path, "_ws.malformed || _ws.expert.severity == error") == 0
