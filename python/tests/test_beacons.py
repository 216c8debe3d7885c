"""Beacons (issue 13, paper 003's t_beacon): every AP broadcasts a Beacon each TBTT at the
lowest rate, PIFS after the medium turns idle; sizes, timing, priority over data, reception by
every station, and tshark reading the frames (docs/scenarios.md, mac.beacon_interval_tu)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError
from airtcp.pcap import write_pcaps


def bss(standard: str = "80211a", **over: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "name": "beacons",
        "standard": standard,
        "stations": 1,
        "duration_s": 1.0,
        "mac": {"beacon_interval_tu": 100},
        # Every 8 ms from 1.3 ms: never at a TBTT, where both would start at once and collide.
        "flows": [
            {
                "kind": "udp_cbr",
                "src": "sta1",
                "dst": "ap",
                "rate_mbps": 0.1,
                "payload_bytes": 100,
                "start_s": 0.0013,
            }
        ],  # fmt: skip
        "traces": {"mac_tx": True},
    }
    cfg.update(over)
    return cfg


def beacons(cfg: dict[str, Any]) -> Any:
    t = airtcp.run(cfg, seed=1).traces["mac_tx"].to_pandas()
    return t[t["kind"] == "beacon"]


def test_a_beacon_every_100_tu_at_the_lowest_rate() -> None:
    b = beacons(bss())
    # TBTTs 0, 102.4, ..., 921.6 ms in one second: 10 beacons, broadcast.
    assert len(b) == 10 and set(b["dst"]) == {2**32 - 1}
    tbtt = [k * 102_400_000 for k in range(10)]
    # The first waits PIFS (16 + 9 us) from the idle start at 0; later ones find the medium
    # idle for longer than PIFS and go at the TBTT itself (10.3.4.2).
    assert list(b["start_ns"]) == [25_000, *tbtt[1:]]
    # 802.11a: 24 + 36 (timestamp 8, interval 2, capability 2, SSID 2 + 6, rates 2 + 8, TIM 6)
    # + 4 = 64 bytes at 6 Mbit/s: 20 us + 4 us x ceil((16 + 512 + 6) / 24) = 112 us.
    assert set(b["bytes"]) == {64}
    assert set(b["end_ns"] - b["start_ns"]) == {112_000}
    # 802.11b: 24 + 35 (no Supported Rates beyond 4, a DS Parameter Set) + 4 = 63 bytes at
    # 1 Mbit/s, long preamble: 192 + 504 = 696 us. 802.11g: 12 rates (8 + 4 extended): 73.
    bb = beacons(bss("80211b"))
    assert set(bb["bytes"]) == {63} and set(bb["end_ns"] - bb["start_ns"]) == {696_000}
    assert set(beacons(bss("80211g"))["bytes"]) == {73}


def test_beacons_go_before_data_and_every_station_hears_them() -> None:
    # A saturating AP: a beacon waits at most for the exchange on the air, then goes PIFS
    # after it (before the data's DIFS + backoff).
    sat = {"kind": "udp_saturating", "src": "ap", "payload_bytes": 1500}
    cfg = bss(stations=2, flows=[{**sat, "dst": "sta1"}, {**sat, "dst": "sta2"}])
    t = airtcp.run(cfg, seed=2).traces["mac_tx"].to_pandas()
    b = t[t["kind"] == "beacon"]
    assert len(b) == 10
    late = b["start_ns"].to_numpy() - [k * 102_400_000 for k in range(10)]
    # 1500-byte data at 54 Mbit/s + SIFS + ACK + PIFS is under 0.5 ms.
    assert (late >= 0).all() and (late < 500_000).all()
    # Each goes at its TBTT if the medium is idle then, else exactly PIFS after the frame on
    # the air ends: never after a backoff.
    busy = 0
    for k, start in enumerate(b["start_ns"]):
        before = t[t["end_ns"] <= start]["end_ns"].max()
        if k > 0 and start != k * 102_400_000:  # the first: PIFS after the start of the run
            busy += 1
            assert start - before == 25_000, (k, start, before)
    assert busy >= 5  # at saturation most TBTTs find the medium busy
    s = airtcp.run(bss(stations=3), seed=3).summary
    for node in s["nodes"][1:]:
        assert node["mac"]["rx_ok"] >= 10  # every station heard every beacon


def test_no_beacons_unless_asked_and_bad_intervals_are_refused() -> None:
    cfg = bss()
    cfg["mac"] = {}
    assert beacons(cfg).empty
    for bad in (0, 65536, 1.5):
        with pytest.raises(ScenarioError, match="beacon_interval_tu"):
            airtcp.Scenario.from_dict(bss(mac={"beacon_interval_tu": bad}))


@pytest.mark.skipif(
    shutil.which("tshark") is None, reason="tshark is not installed (scripts/setup.sh)"
)
def test_tshark_reads_the_beacons(tmp_path: Path) -> None:
    cfg = bss("80211g")
    cfg["traces"] = {"frames": True}
    pcaps = write_pcaps(airtcp.run(cfg, seed=1), tmp_path / "pcap")
    wlan = next(p for p in pcaps if p.name == "sta1-wlan0.pcap")
    fields = ["wlan.sa", "wlan.da", "wlan.ssid", "wlan.fixed.beacon", "wlan.supported_rates",
              "wlan.extended_supported_rates", "wlan.ds.current_channel", "wlan.fcs.status"]  # fmt: skip
    cmd = ["tshark", "-n", "-r", str(wlan), "-o", "wlan.check_checksum:TRUE", "-T", "fields",
           "-E", "separator=\t", "-Y", "wlan.fc.type_subtype == 0x0008"]  # fmt: skip
    for f in fields:
        cmd += ["-e", f]
    rows = [
        r.split("\t")
        for r in subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    ]
    assert len(rows) == 10
    sa, da, ssid, interval, rates, ext, channel, fcs = rows[0]
    assert (sa, da) == ("02:00:00:00:00:01", "ff:ff:ff:ff:ff:ff")
    assert bytes.fromhex(ssid.replace(":", "")) == b"airtcp" or ssid == "airtcp"
    assert interval == "100"  # TU
    # 500 kbit/s units; the basic rate (6 Mbit/s on 802.11g) flagged 0x80.
    assert rates.split(",") == ["0x02", "0x04", "0x0b", "0x8c", "0x12", "0x16", "0x18", "0x24"]
    assert ext.split(",") == ["0x30", "0x48", "0x60", "0x6c"]
    assert channel == "1" and fcs == "1"


@pytest.mark.skipif(
    shutil.which("tshark") is None, reason="tshark is not installed (scripts/setup.sh)"
)
@pytest.mark.parametrize(("standard", "offset_us"), [("80211g", 192 + 192), ("80211a", 20 + 32)])
def test_a_beacons_timestamp_is_the_tsf_as_its_field_goes_out(
    tmp_path: Path, standard: str, offset_us: int
) -> None:
    # 11.1.3.1: the Timestamp is the TSF when the symbol holding its first bit goes out, not
    # when the PPDU starts (the capture's time). Hand computation: 802.11g's Beacons at 1
    # Mbit/s DSSS: 192 us of preamble and header, then the 24-byte MAC header at 1 us a bit;
    # 802.11a's at 6 Mbit/s: 20 us, then SERVICE + 192 bits fill 8 symbols of 4 us.
    cfg = bss(standard)
    cfg["traces"] = {"frames": True}
    pcaps = write_pcaps(airtcp.run(cfg, seed=1), tmp_path / "pcap")
    wlan = next(p for p in pcaps if p.name == "ap-wlan0.pcap")
    cmd = ["tshark", "-n", "-r", str(wlan), "-T", "fields", "-E", "separator=\t",
           "-Y", "wlan.fc.type_subtype == 0x0008", "-e", "frame.time_epoch",
           "-e", "wlan.fixed.timestamp"]  # fmt: skip
    rows = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(rows) == 10
    for row in rows:
        start_s, tsf_us = row.split("\t")
        assert int(tsf_us) - round(float(start_s) * 1e6) == offset_us, row
