"""A packet that reaches a third party's queue in the SIFS gap between a data frame and its ACK
must wait for the NAV (802.11-2020 10.3.2.1: carrier sense is physical and virtual).

Listeners that will sense the ACK used to be left out when the medium turned idle at the data
frame's end (`Medium::release`: their countdown would be frozen again at the ACK's start), so
a packet arriving in that gap resumed the countdown from the idle period before the data
frame, and the station could transmit at once, into the ACK. They are now told the medium
turned idle with carrier sense busy (`medium::response_follows`): the idle start is noted at
the NAV's end, no countdown. Case: 25 stations whose CBR packets all arrive at the same
instants, every 4 ms, some of them inside such a gap.
"""

from __future__ import annotations

import bisect

import airtcp

SIFS_NS = 16_000  # 802.11a, Table 17-21


def test_no_data_frame_starts_in_the_sifs_gap_before_an_ack() -> None:
    flows = [
        {"kind": "udp_cbr", "src": f"sta{i}", "dst": "ap", "rate_mbps": 3.0} for i in range(1, 26)
    ]
    cfg = {
        "name": "nav-gap", "topology": "bss", "stations": 25, "standard": "80211a",
        "duration_s": 3.0, "warmup_s": 0.0, "channel": {"rx_range_m": 250.0},
        "traces": {"mac_tx": True}, "flows": flows,
    }  # fmt: skip
    rows = airtcp.run(cfg, seed=1).traces["mac_tx"].to_pylist()
    data = [r for r in rows if r["kind"] == "data"]
    ends = sorted(r["end_ns"] for r in data)
    in_gap = []
    for r in data:
        k = bisect.bisect_left(ends, r["start_ns"])
        if k > 0 and 0 < r["start_ns"] - ends[k - 1] < SIFS_NS:
            in_gap.append(r)
    assert len(data) > 10_000
    assert in_gap == [], f"{len(in_gap)} data frames started inside a SIFS gap"
