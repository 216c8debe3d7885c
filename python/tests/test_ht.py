"""802.11n's PHY (issue 14, first slice): HT modes at 20 and 40 MHz, both guard intervals, one
or two streams, in either band; single MPDUs, each acknowledged at the non-HT reference rate's
basic rate. Airtime by hand from IEEE 802.11-2020 19.3.11.5 and 19.4.3 (the Rust unit tests
`phy::tests::ht_durations` check the same formulas frame by frame)."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError
from airtcp.pcap import write_pcaps

DIFS_US, SLOT_US, SIFS_US = 34.0, 9.0, 16.0  # 802.11a timing in 5 GHz (Table 17-21)
ACK_US = {6: 44.0, 24: 28.0}  # 14 bytes: 20 + 4 x ceil(134 / N_DBPS), N_DBPS 24 and 96


def ht_us(mpdu_bytes: int, ndbps: int, streams: int = 1, sgi: bool = False) -> float:
    """HT-mixed TXTIME: 36 us (+4 per extra stream) + N_SYM symbols of 4 us (short GI: 3.6 us,
    rounded up to 4)."""
    n_sym = math.ceil((8 * mpdu_bytes + 22) / ndbps)
    data = 4 * math.ceil(0.9 * n_sym) if sgi else 4 * n_sym
    return 36 + 4 * (streams - 1) + data


def udp(**ht: Any) -> dict[str, Any]:
    """Single MPDUs under DCF (the A-MPDU tests are test_ampdu.py)."""
    return {"standard": "80211n", "ht": {"ampdu": False, **ht}, "traffic": "udp", "stations": 1,
            "spacing_m": 1.0, "duration_s": 4.0, "warmup_s": 0.5, "mac": {"access": "dcf"}}  # fmt: skip


@pytest.mark.parametrize(
    ("ht", "ndbps", "streams", "sgi", "ack"),
    [({"mcs": 7}, 260, 1, False, 24), ({"mcs": 0}, 26, 1, False, 6),
     ({"mcs": 15, "channel_width_mhz": 40, "short_gi": True, "streams": 2}, 1080, 2, True, 24)],
)  # fmt: skip
def test_saturated_udp_matches_the_exchange_time(
    ht: dict[str, Any], ndbps: int, streams: int, sgi: bool, ack: int
) -> None:
    # One station, no collisions, no errors at 1 m: each 1500-byte datagram takes DIFS + the
    # mean backoff (CWmin 15: 7.5 slots) + the PPDU + SIFS + an ACK at the basic rate 24, or
    # for MCS 0 (non-HT reference rate 6) at 6 Mbit/s. MPDU: 1500 + 8 + 20 + 8 + 24 + 4.
    r = airtcp.run(airtcp.Scenario.from_dict(udp(**ht)), seed=1)
    cycle = DIFS_US + 7.5 * SLOT_US + ht_us(1564, ndbps, streams, sgi) + SIFS_US + ACK_US[ack]
    want = 1500 * 8 / cycle  # Mbit/s
    got = r.summary["flows"][0]["goodput_bps"] / 1e6
    # The mean backoff of ~3,500 draws has a standard error of ~0.08 slots (0.2 % of an MCS 7
    # cycle); seed 1 is +0.22 % off at MCS 7, -0.04 % at MCS 0.
    assert got == pytest.approx(want, rel=0.005), (got, want)


def test_2_4_ghz_adds_the_signal_extension() -> None:
    # 2.4 GHz: 802.11g's short-slot timing (slot 9, SIFS 10, DIFS 28) and 6 us after every HT
    # PPDU; the ACK is ERP-OFDM 24 Mbit/s, 28 + 6 us.
    r = airtcp.run(airtcp.Scenario.from_dict(udp(mcs=7, band_ghz=2.4)), seed=1)
    cycle = 28 + 7.5 * 9 + ht_us(1564, 260) + 6 + 10 + 34
    got = r.summary["flows"][0]["goodput_bps"] / 1e6
    assert got == pytest.approx(1500 * 8 / cycle, rel=0.005)  # as above: +0.22 % at seed 1


@pytest.mark.parametrize(
    ("cfg", "needle"),
    [
        ({"standard": "80211a", "ht": {"mcs": 1}}, "ht: [ht] is for 802.11n"),
        ({"standard": "80211n", "ht": {"mcs": 9}}, "ht.mcs: needs more than 1 spatial stream"),
        ({"standard": "80211n", "data_rate_mbps": 54.0}, "data_rate_mbps: 802.11n names"),
        ({"standard": "80211a", "mac": {"rate_control": "ath9k"}}, "mac.rate_control"),
        ({"standard": "80211n", "ht": {"channel_width_mhz": 80}}, "ht.channel_width_mhz"),
        ({"standard": "80211n", "ht": {"band_ghz": 6.0}}, "ht.band_ghz"),
        ({"standard": "80211n", "basic_rate_mbps": 11.0}, "basic_rate_mbps"),
    ],
)
def test_bad_ht_settings_name_the_field(cfg: dict[str, Any], needle: str) -> None:
    with pytest.raises(ScenarioError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        airtcp.Scenario.from_dict(cfg)


@pytest.mark.skipif(
    shutil.which("tshark") is None, reason="tshark is not installed (scripts/setup.sh)"
)
def test_tshark_reads_the_mcs_from_radiotap(tmp_path: Path) -> None:
    cfg = udp(mcs=13, channel_width_mhz=40, short_gi=True, streams=2)
    cfg.update(duration_s=0.01, warmup_s=0.0, traces={"frames": True})
    result = airtcp.run(airtcp.Scenario.from_dict(cfg), seed=1)
    pcaps = write_pcaps(result, tmp_path / "pcap", snap_bytes=65535)  # whole, with the FCS
    wlan = next(p for p in pcaps if p.name == "ap-wlan0.pcap")
    cmd = ["tshark", "-n", "-r", str(wlan), "-o", "wlan.check_checksum:TRUE", "-T", "fields",
           "-E", "separator=\t", "-Y", "wlan.fc.type_subtype == 0x0020", "-e", "radiotap.mcs.index",
           "-e", "radiotap.mcs.bw", "-e", "radiotap.mcs.gi", "-e", "wlan.fcs.status",
           "-e", "radiotap.channel.freq"]  # fmt: skip
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(out) > 5
    # MCS 13, bandwidth 1 (40 MHz), short GI, FCS good, 5180 MHz.
    assert set(out) == {"13\t1\t1\t1\t5180"}


HT_UPLOAD = Path(__file__).parents[2] / "examples" / "ht-upload.toml"


def test_the_ht_upload_example_expands_to_ns3s_defaults() -> None:
    from airtcp.config import load_toml

    base = load_toml(HT_UPLOAD)
    spec = airtcp.Scenario.from_dict(base).to_world_spec()
    ht = spec["wifi"]["ht"]
    assert (ht["band_ghz"], ht["channel_width_mhz"], ht["short_gi"], ht["mcs"], ht["ampdu"]) == (
        5.0, 20, False, 7, True,
    )  # fmt: skip
    assert spec["wifi"]["access"] == "edca" and spec["channel"]["radio"] is not None
    tcp = airtcp.Scenario.from_dict({**base, "traffic": "tcp", "server": "wired"}).to_world_spec()
    assert [n["name"] for n in tcp["nodes"]] == ["ap", "sta1", "server"]
    assert tcp["flows"][0]["kind"] == "tcp_bulk" and tcp["flows"][0]["dst"] == 2
    with pytest.raises(ScenarioError, match="mcs"):
        airtcp.Scenario.from_dict({**base, "mcs": 16})
    with pytest.raises(ScenarioError, match="rate_control"):
        airtcp.Scenario.from_dict({**base, "rate_control": "minstrel-typo"})
    # 1 m, MCS 7, UDP: within 0.2 % of ns-3 3.44's 59.615 Mbit/s (bench/bench_ht.py) with
    # beacons there; here without them, a little more.
    r = airtcp.run(HT_UPLOAD, seed=1, overrides={"duration_s": 3.0})
    assert 59.6e6 < r.summary["flows"][0]["goodput_bps"] < 60.4e6
