"""Scenario templates: a paper's scenario written once, with its own top-level knobs.

A scenario file with ``template = "paper-004"`` names the template; the template's knobs
(``scheme``, ``fer``, ...) are read, checked and turned into an ordinary scenario, over which
every other key of the file (``duration_s``, ``[traces]``, ``[tcp]`` ...) is merged, so
``--set scheme=lnmac`` and ``--set tcp.min_rto_ms=200`` both work. The expanded scenario is
what runs and what is stored.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from airtcp.config.convert import _convert_validation_error
from airtcp.config.errors import (
    ScenarioError,
    _line,
    _names,
    _Raw,
    _segment,
)
from airtcp.config.limits import _TCP_KINDS
from airtcp.config.models import _field

__all__ = [
    "P000_BURSTY",
    "TEMPLATES",
    "expand_template",
    "mark_template_problems",
    "paper000",
    "paper004",
    "shown_default",
    "template_knobs",
    "template_summary",
]


# Paper 000's congestion controls: Fig. 3's six, and Reno/NewReno.
P000Cc = Literal["cubic", "bic", "vegas", "veno", "westwood", "illinois", "reno", "newreno"]
_P000_CC_ALLOWED = '"cubic", "bic", "vegas", "veno", "westwood", "illinois", "reno" or "newreno"'


class Paper000Knobs(BaseModel):
    """Paper 000: TCP over an 802.11s mesh chain, the MAC's retry limit fixed or steered by
    ALM. Rethfeldt et al., ARQ retry limits under TCP in 802.11s chains (docs/paper-000.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    hops: int = _field(3, "integer 1..15", "hops of the chain (hops + 1 mesh points)", ge=1, le=15)
    retry_limit: int = _field(
        7,
        "integer 0..31 retransmissions",
        "`iw phy ... set retry short/long`: retransmissions per frame at every mesh point "
        "(rt2800's TX_RTY_CFG; Linux's default 7); the starting limit under alm-adaptive",
        ge=0,
        le=31,
    )
    cc: P000Cc = _field(
        "cubic",
        _P000_CC_ALLOWED,
        "the sender's congestion control (Fig. 3's six, and Reno/NewReno)",
    )
    channel: Literal["ideal", "bursty"] = _field(
        "bursty",
        '"ideal" or "bursty"',
        "ideal: collisions are the only losses; bursty: every directed link has loss episodes "
        "(Gilbert-Elliott: 50 ms at 70 % frame loss about every 2 s), the calibration of "
        "docs/paper-000.md",
    )
    scheme: Literal["fixed", "alm-adaptive"] = _field(
        "fixed",
        '"fixed" or "alm-adaptive"',
        "fixed: retry_limit everywhere; alm-adaptive: the paper's proposal (Eq. 5), each mesh "
        "point steering its limit from its path table ([mesh] alm_retry; [mesh] "
        "alm_travel_us_per_metric gives it a measured map)",
    )
    fixed_rate_mbps: Literal[0, 6, 9, 12, 18, 24, 36, 48, 54] = _field(
        0,
        "0, or an 802.11g rate: 6, 9, 12, 18, 24, 36, 48, 54",
        "0: Minstrel over rt2800's retry chain (the paper's); else every data frame at this rate "
        '(mac.rate_control = "constant")',
    )
    probe_mbps: float = _field(
        0.0,
        "number 0..10 Mbit/s",
        "0: the paper's TCP flow; else a UDP CBR probe of this rate from n0 to n{hops} in its "
        "place, with the packets trace on (the travel-time measurement of docs/paper-000.md)",
        ge=0.0,
        le=10.0,
    )
    good_ms: float = _field(
        2000.0,
        "number 1..1e6 ms",
        "bursty: mean time between a link's loss episodes (Gilbert-Elliott Good state)",
        ge=1.0,
        le=1e6,
    )
    bad_ms: float = _field(
        50.0, "number 0.01..1e5 ms", "bursty: mean length of a loss episode", ge=0.01, le=1e5
    )
    bad_loss: float = _field(
        0.7,
        "number in [0, 1]",
        "bursty: probability that a frame sent during an episode is lost",
        ge=0.0,
        le=1.0,
    )


# Paper 000's calibrated channel (docs/paper-000.md, "The channel"): per directed link a
# Gilbert-Elliott process, Good for 2 s and Bad for 50 ms on average, 70 % of frames lost in
# Bad (the knobs good_ms, bad_ms, bad_loss). Chosen from a scan (bench/p000_channel_scan.py):
# limits below 5 cost throughput, the curves peak within 3-9 and fall slightly after on 5 hops
# (docs/paper-000.md, "The channel").
P000_BURSTY: dict[str, Any] = {
    "kind": "gilbert",
    "good_ms": 2000.0,
    "bad_ms": 50.0,
    "loss_good": 0.0,
    "loss_bad": 0.7,
}
# rt2800usb_queue_init (Linux 3.12): 16 entries per TX queue (later kernels: 128).
P000_DRIVER_QUEUE = 16
# A Linux 3.12 mesh point's AC_BE CWmin on 2.4 GHz (ieee80211_set_wmm_default, use_11b).
P000_CW_MIN = 31


def paper000(knobs: Paper000Knobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Paper 000's test bed (§IV-A): ``hops`` + 1 Raspberry Pis with rt2800usb adapters in one
    room, an 802.11s chain enforced by peer-link blocking, 802.11g (b/g mixed mode) with
    Minstrel over rt2800's retry chain, Linux 3.12's TCP, one iperf flow end to end for 100 s
    sampled every 5 s."""
    k = knobs
    del rest
    error: dict[str, Any] = (
        {"kind": "none"}
        if k.channel == "ideal"
        else {**P000_BURSTY, "good_ms": k.good_ms, "bad_ms": k.bad_ms, "loss_bad": k.bad_loss}
    )
    traffic: dict[str, Any] = {"traffic": "tcp", "cc": k.cc}
    if k.probe_mbps > 0:
        probe = {"kind": "udp_cbr", "src": "n0", "dst": f"n{k.hops}", "rate_mbps": k.probe_mbps}
        traffic = {"flows": [probe], "traces": {"packets": True}}
    rate: dict[str, Any] = {"rate_control": "minstrel-rt2800"}
    if k.fixed_rate_mbps:
        rate = {"rate_control": "constant"}
    return {
        **traffic,
        **({"data_rate_mbps": float(k.fixed_rate_mbps)} if k.fixed_rate_mbps else {}),
        "name": f"paper-000-{k.hops}hop-{k.cc}-{k.scheme}",
        "topology": "chain",
        "hops": k.hops,
        "spacing_m": 5.0,  # one room: every mesh point hears every other
        "standard": "80211g",
        "erp_mixed": True,  # Table II: slot 20 us, AIFS[BE] 70 us
        "basic_rate_mbps": 6.0,  # Table III: ACKs at 6 Mbit/s
        "retry_limit": k.retry_limit,
        "duration_s": 105.0,  # 5 s to peer and find the path, then iperf's 100 s
        "warmup_s": 5.0,
        "report_interval_s": 5.0,  # §IV-A: sampled every 5 s
        "mac": {
            **rate,
            # Linux 3.12 ieee80211_set_wmm_default: aCWmin 31 on 2.4 GHz unless the interface
            # operates in G mode, which only a station's association or an IBSS join sets; a
            # mesh point's AC_BE contends with CWmin 31 (Table II's 15 is the white paper's),
            # its AC_VO (HWMP, peering) with 7.
            "a_cw_min": P000_CW_MIN,
            "queue_limit_packets": P000_DRIVER_QUEUE,
            "qdisc": "pfifo",  # pfifo_fast, txqueuelen 1000; forwarded frames skip it
        },
        # Linux 3.12 (§IV-A, "default settings"), its kernel profile (docs/scenarios.md,
        # "Kernel profiles"): SACK, timestamps (1448 payload bytes in the 1460-byte MSS),
        # delayed ACKs and quick-ack, RTO 200 ms..120 s (initial 1 s, SRTT + at least 200 ms),
        # TCP Small Queues, growth by one step per ACK while cwnd-limited, PRR, early
        # retransmit, TLP, F-RTO, local congestion as CWR; the Pis' jiffy clock for RTT samples
        # and the RTO, HZ = 100 (bcmrpi_defconfig sets no CONFIG_HZ: ARM's default).
        "tcp": {"profile": "linux-3.12", "clock_hz": 100, "mss_bytes": 1448},
        "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0, "error": error},
        "mesh": {"alm_retry": k.scheme == "alm-adaptive"},
    }


class Paper000TeeKnobs(BaseModel):
    """Paper 000's remedy on an uneven mesh: a 5-hop chain with a faded spur, two TCP flows.
    Where airtcp evaluates the remedy beyond the paper (docs/paper-000.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    retry_limit: int = _field(
        7, "integer 0..31 retransmissions",
        "retransmissions per frame at every mesh point; the start under a remedy",
        ge=0, le=31,
    )  # fmt: skip
    cc: P000Cc = _field("cubic", _P000_CC_ALLOWED, "both flows' congestion control")
    scheme: Literal["fixed", "alm-adaptive"] = _field(
        "fixed",
        '"fixed" or "alm-adaptive"',
        "fixed limits, or paper 000's remedy ([mesh] alm_retry; [mesh] alm_travel_us_per_metric "
        "gives it a measured map)",
    )
    spur_m: float = _field(
        25.0,
        "number 1..50 m",
        "the spur's length: s stands this far from n2 (25 m: Minstrel runs it at 18-36 Mbit/s "
        "through its fades, where the chain's 5-m links run at 54)",
        ge=1.0,
        le=50.0,
    )
    coherence_ms: float = _field(
        20.0, "number 0.1..1e4 ms", "how long a Rayleigh fade lasts", ge=0.1, le=1e4
    )


def paper000_tee(knobs: Paper000TeeKnobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Paper 000's test bed (the `paper-000` template's radios, queues and TCP) on a mesh whose
    paths differ in length and quality: the 5-hop chain n0..n5 (5 m links) and a spur s,
    ``spur_m`` from n2; Rayleigh fading on every link; flows n0 -> n5 (5 hops, strong links)
    and s -> n3 (2 hops over the weak spur), both forwarded by n2. Every peer link but the
    tee's is blocked."""
    del rest
    base = paper000(
        Paper000Knobs(hops=5, retry_limit=knobs.retry_limit, cc=knobs.cc, scheme=knobs.scheme,
                      channel="ideal"), {},
    )  # fmt: skip
    nodes: list[dict[str, Any]] = [
        {"name": f"n{i}", "role": "mesh", "x_m": 5.0 * i, "y_m": 0.0} for i in range(6)
    ]
    nodes.append({"name": "s", "role": "mesh", "x_m": 10.0, "y_m": knobs.spur_m})
    names = [n["name"] for n in nodes]
    tee = {("n0", "n1"), ("n1", "n2"), ("n2", "n3"), ("n3", "n4"), ("n4", "n5"), ("n2", "s")}
    blocked = [
        [a, b] for i, a in enumerate(names) for b in names[i + 1 :]
        if (a, b) not in tee and (b, a) not in tee
    ]  # fmt: skip
    for key in ("topology", "hops", "spacing_m", "cc", "traffic"):
        base.pop(key, None)
    return {
        **base,
        "name": f"paper-000-tee-{knobs.cc}-{knobs.scheme}",
        "topology": "custom",
        "nodes": nodes,
        "flows": [
            {"kind": "tcp_bulk", "src": "n0", "dst": "n5", "cc": knobs.cc},
            {"kind": "tcp_bulk", "src": "s", "dst": "n3", "cc": knobs.cc},
        ],
        # ns-3's YANS defaults (log-distance, exponent 3), a Rayleigh fade per coherence time.
        "channel": {"model": "radio", "fading": "rayleigh", "coherence_ms": knobs.coherence_ms},
        "mesh": {**base["mesh"], "blocked_links": blocked},
    }


class Paper004Knobs(BaseModel):
    """Paper 004: TCP over a lossy 802.11 link, plain, with corruption options or LN-MAC.
    Ravichandran et al., LN-MAC (docs/paper-004.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    scheme: Literal["plain", "cdo", "lnmac", "lnmac-cdo", "lnmac-once"] = _field(
        "plain",
        '"plain", "cdo", "lnmac", "lnmac-cdo" or "lnmac-once"',
        "plain: TCP NewReno; cdo: TCP with CDO/CNO, corrupt frames passed up (mac.pass_corrupt, "
        "tcp.corruption); lnmac: LN-MAC, the MACs' loss notifications answered with CNOs "
        "(mac.lnmac, tcp.corruption); lnmac-cdo: LN-MAC with corrupt frames passed up too; "
        "lnmac-once: lnmac-cdo with one CNO per segment per RTT (tcp.cno_once_per_rtt: the "
        "corrupt copies MAC retries deliver within the receiver's RTT are not answered)",
    )
    fer: float = _field(
        0.4,
        "number 0.001..0.95",
        "the link's frame error rate for 1500-byte frames: with errors rayleigh it sets the B-C "
        "distance (and the D-E one) by the closed form of airtcp.fading, with bit-errors the "
        "BER; other frame sizes keep that distance or BER",
        ge=0.001,
        le=0.95,
    )
    frame_bytes: int = _field(
        1500,
        "integer 100..2346 bytes",
        "the 802.11 data frame: the MAC header (34 bytes with the FCS), LLC/SNAP, IPv4, TCP with "
        "its options (timestamps, the CDO), payload; tcp.mss_bytes is what fills it",
        ge=100,
        le=2346,
    )
    retry_limit: int = _field(
        1,
        "integer 1..32 attempts",
        "the paper's 'max MAC retry limit': attempts per frame (1 = never retransmitted); it "
        "counts attempts, unlike the top-level retry_limit of a scenario (retransmissions)",
        ge=1,
        le=32,
    )
    delay_ms: float = _field(
        20.0, "number 0..10000 ms", "one-way delay D of the wired link A-B", ge=0.0, le=10000.0
    )
    interferers: Literal[0, 1] = _field(
        0, "0 or 1", "Fig. 11: 1 adds the pair D -> E, each source offered 600 packets/s"
    )
    errors: Literal["rayleigh", "bit-errors"] = _field(
        "rayleigh",
        '"rayleigh" or "bit-errors"',
        "rayleigh: Table I (the radio model: log-distance exponent 4, 100 mW, busy above -107 "
        "dBm, interference counted above -137 dBm, a Rayleigh fade per frame, SINR per part, no "
        "preamble detection model); bit-errors: the range model with independent bit errors at "
        "the BER that gives fer for 1500-byte frames, so shorter frames see fewer errors (the "
        "paper's text; a sensitivity check)",
    )
    cno_reaction: Literal["aggressive", "conservative"] = _field(
        "aggressive",
        '"aggressive" or "conservative"',
        "the sender's reaction to a CNO: cwnd unchanged (the paper's) or cut as for a loss "
        "(tcp.corruption, when the scheme is not plain)",
    )


# Sizes of paper 004's frames [bytes]: ns-2's 802.11 header with the FCS (FC 2, Duration 2,
# three addresses, Sequence Control 2, a fourth address, FCS 4 = 34; Table I "MAC Header"),
# LLC/SNAP 8, IPv4 20, TCP 20 (no timestamps), CDO 8 (RFC 6994 form).
P004_MAC_HEADER_BYTES = 34
P004_UPPER_BYTES = 8 + 20 + 20
P004_CDO_BYTES = 8
# Reference frame of the FER axis.
P004_REFERENCE_FRAME_BYTES = 1500
# Offered load: 1200 packets/s at A (600 at A and at D with the interferers).
P004_PACKETS_PER_S = (1200, 600)
# Distance between the B-C pair and the D-E pair in Fig. 11 [m] (the paper gives none; all
# four nodes sense each other, so the pairs contend rather than hide).
P004_PAIR_SEPARATION_M = 10.0


# RFC 7323 timestamps with their two NOPs.
P004_TIMESTAMP_BYTES = 12


def p004_mss_bytes(frame_bytes: int, scheme: str, timestamps: bool = True) -> int:
    """TCP payload of a full data frame of ``frame_bytes``: options (timestamps, the CDO) take
    payload bytes, as Linux takes them from the MSS, so every scheme sends frames of the same
    size."""
    cdo = P004_CDO_BYTES if scheme != "plain" else 0
    ts = P004_TIMESTAMP_BYTES if timestamps else 0
    return frame_bytes - P004_MAC_HEADER_BYTES - P004_UPPER_BYTES - cdo - ts


def p004_distance_m(fer: float) -> float:
    """The B-C distance whose mean SNR gives ``fer`` for 1500-byte frames (airtcp.fading)."""
    from airtcp import fading

    frame = fading.FrameBits.dsss(P004_REFERENCE_FRAME_BYTES)
    snr = fading.snr_db_for_fer(fer, frame)
    return round(fading.distance_for_snr_db(snr, fading.Link()), 4)


def paper004(knobs: Paper004Knobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Paper 004's scenario (Fig. 5, or Fig. 11 with ``interferers = 1``), Table I's channel
    and MAC, the scheme's options. ``rest``: the file's other keys (merged over the result by
    the caller); a ``tcp.timestamps`` there changes the MSS that fills the frame."""
    k = knobs
    tcp_over = rest.get("tcp") if isinstance(rest.get("tcp"), Mapping) else {}
    timestamps = tcp_over.get("timestamps", True) is not False
    mss = p004_mss_bytes(k.frame_bytes, k.scheme, timestamps)
    if mss < 1:
        least = k.frame_bytes - mss + 1
        raise ScenarioError(
            f"frame_bytes: {k.frame_bytes} leaves no TCP payload with these options "
            f"(allowed: >= {least})"
        )
    d = p004_distance_m(k.fer)
    y = P004_PAIR_SEPARATION_M
    nodes: list[dict[str, Any]] = [
        {"name": "A", "role": "host"},
        {"name": "B", "role": "ap", "x_m": 0.0, "y_m": 0.0},
        {"name": "C", "role": "sta", "x_m": d, "y_m": 0.0},
    ]
    flows: list[dict[str, Any]] = [{"kind": "tcp_bulk", "src": "A", "dst": "C"}]
    if k.interferers:
        nodes += [
            {"name": "D", "role": "adhoc", "x_m": 0.0, "y_m": y},
            {"name": "E", "role": "adhoc", "x_m": d, "y_m": y},
        ]
        flows.append({"kind": "tcp_bulk", "src": "D", "dst": "E"})
    on = k.scheme != "plain"
    if k.errors == "rayleigh":
        channel: dict[str, Any] = {
            "model": "radio",
            "path_loss": "log-distance",
            "path_loss_exponent": 4.0,  # Table I: beta = 4
            "reference_loss_db": 40.05,  # Friis at 2.412 GHz, 1 m: footnote 3's 150 m
            "tx_power_dbm": 20.0,  # Table I: 100 mW
            "rx_sensitivity_dbm": -137.0,  # §III: interference counted above -137 dBm
            "rx_sensitivity_by_rate_dbm": [[r, -107.0] for r in (1, 2, 5.5, 11)],
            "cca_threshold_dbm": -107.0,  # §III: busy above -107 dBm
            "fading": "rayleigh",  # Table I: flat Rayleigh, constant over a frame
            "preamble_detection": False,
        }
    else:
        # FER(L) = 1 - (1 - BER)^(8 L): the BER at which 1500-byte frames see `fer`.
        ber = 1.0 - (1.0 - k.fer) ** (1.0 / (8 * P004_REFERENCE_FRAME_BYTES))
        channel = {"model": "range", "error": {"kind": "ber", "ber": ber}}
    return {
        "name": f"paper-004-{k.scheme}",
        "topology": "custom",
        "standard": "80211b",
        "data_rate_mbps": 11,  # §III-A: 802.11b at 11 Mbit/s
        "basic_rate_mbps": 1,
        "preamble": "long",  # Table I: PHY header 192 bits
        "retry_limit": k.retry_limit - 1,  # the paper counts attempts
        "duration_s": 60.0,
        "warmup_s": 5.0,
        "mac": {
            "cw_min": 31,  # Table I
            "cw_max": 255,  # Table I (802.11b: 1023)
            "data_header_bytes": P004_MAC_HEADER_BYTES - 4,  # + FCS = 34 (Table I)
            "queue_limit_packets": 1000,  # §III-A: no congestion loss at B
            # LN-MAC needs no corrupt frames: its MAC names the lost segment itself (docs/
            # paper-004.md: with them it would inherit CDO's duplicate CNOs under retries).
            "pass_corrupt": k.scheme in ("cdo", "lnmac-cdo", "lnmac-once"),
            "lnmac": k.scheme.startswith("lnmac"),
        },
        # §III: NewReno (RFC 3782), as Linux 2.6 ran it at the paper's time (docs/paper-004.md):
        # timestamps, minimum RTO 200 ms, RFC 3390's initial window, an ACK per segment.
        "tcp": {
            "cc": "newreno",
            "recovery": "newreno",
            "mss_bytes": mss,
            "timestamps": True,
            "delayed_ack": False,
            "initial_cwnd": 3,
            "min_rto_ms": 200.0,
            "rcv_buf_bytes": 65535,  # no window scaling: B's queue never overflows
            "corruption": k.cno_reaction if on else "off",
            **({"cno_once_per_rtt": True} if k.scheme == "lnmac-once" else {}),
        },
        "channel": channel,
        "nodes": nodes,
        "links": [
            {
                "a": "A",
                "b": "B",
                "rate_mbps": 100.0,
                "delay_ms": k.delay_ms,  # Fig. 5: D
                "queue_limit_packets": 1000,
            }
        ],
        "flows": flows,
    }


class Paper003Knobs(BaseModel):
    """Paper 003: a moving station's TCP download over ARF, with or without the ARF-aware
    window. Kashibuchi et al., TCP over ARF (docs/paper-003.md, docs/scenarios.md#templates)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    scheme: Literal["standard", "wnd_max"] = _field(
        "standard",
        '"standard" or "wnd_max"',
        "standard TCP NewReno, or with the ARF-aware window (mac.arf_window_slot_ms = slot_ms)",
    )
    mobility: Literal["away", "toward", "random-waypoint"] = _field(
        "away",
        '"away", "toward" or "random-waypoint"',
        "away (A-1): from 10 m straight out to 360 m, 10 m inside the 6 Mbit/s edge, the run "
        "ending there; toward (A-2): from 360 m straight in to 10 m; random-waypoint (B): "
        "random waypoint in the square inscribed in the cell, speed 0..speed_mps, no pause (the "
        "paper's minimum speed 0 draws the Yoon-Liu-Noble warning: the mean speed decays)",
    )
    speed_mps: float = _field(
        5.0, "number 0.1..10 m/s", "the station's speed (B: the fastest leg)", ge=0.1, le=10.0
    )
    rts_cts: bool = _field(
        False,
        "true or false",
        "RTS/CTS before every data frame (mac.rts_threshold_bytes 0; false: 65535)",
    )
    direction: Literal["download", "upload"] = _field(
        "download",
        '"download" or "upload"',
        "the station downloads from the server (the paper's case: wnd_max is its advertised "
        "window) or uploads to it (wnd_max caps its cwnd, III-C-1)",
    )
    slot_ms: float = _field(
        100.0, "number 1..10000 ms", "wnd_max's observation slot T", ge=1.0, le=10000.0
    )
    rtt: Literal["smoothed", "min", "empty"] = _field(
        "smoothed",
        '"smoothed", "min" or "empty" (scheme = "wnd_max")',
        "Eq. 11's RTT (mac.arf_window_rtt): the connection's smoothed RTT (the paper's), its "
        "least sample, or the RTT of empty queues at the new rate",
    )
    every_slot: bool = _field(
        False,
        'true or false (true: scheme = "wnd_max")',
        "wnd_max also recomputed at the end of every observation slot, not only on a rate "
        "change (mac.arf_window_every_slot)",
    )
    noise_figure_db: float = _field(
        10.0,
        "number 0..50 dB",
        "the receivers' noise figure (channel.noise_figure_db): QualNet's default "
        "PHY-NOISE-FACTOR, 10 dB (phy.h PHY_DEFAULT_NOISE_FACTOR); ns-3's is 7",
        ge=0.0,
        le=50.0,
    )
    queue_packets: int = _field(
        100,
        "integer 1..10000 packets",
        "the AP's interface queue (mac.queue_limit_packets; the paper does not give QualNet's)",
        ge=1,
        le=10000,
    )
    duration_s: float | None = _field(
        None,
        "unset, or number 1..3600 s",
        "simulated time; unset: 300 s in B, and in A-1 and A-2 the time the station takes to "
        "cross the cell, (360 - 10) / speed_mps seconds (shorter: it stops partway; longer: it "
        "walks on beyond the cell's edge)",
        ge=1.0,
        le=3600.0,
    )

    def effective(self) -> dict[str, Any]:
        """The knobs as the template uses them: the run's duration filled in."""
        out = self.model_dump()
        if self.duration_s is None:
            walk_s = (P003_FAR_M - P003_NEAR_M) / self.speed_mps
            out["duration_s"] = 300.0 if self.mobility == "random-waypoint" else walk_s
        return out


# Paper 003's cell (section IV; the QualNet tables of examples/mobile-tcp.toml, docs/validation.md
# section 12): the 6 Mbit/s edge at 370 m, 54 Mbit/s at 37 m.
P003_EDGE_M = 370.0
# Where A-1 starts and A-2 ends, and where A-1 ends and A-2 starts: 10 m from the AP, and 10 m
# inside the edge (the paper does not say; the station never leaves the cell).
P003_NEAR_M, P003_FAR_M = 10.0, 360.0


def paper003(knobs: Paper003Knobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Paper 003's BSS (Fig. 3): an AP, one station (N = 1) downloading from an FTP server on a
    100 Mbit/s wired link behind the AP, 802.11a with QualNet's power and sensitivity tables,
    ARF with QualNet's constants, beacons every 100 TU."""
    k = knobs
    del rest
    if k.scheme == "standard":
        for knob, value in (("rtt", k.rtt != "smoothed"), ("every_slot", k.every_slot)):
            if value:
                raise ScenarioError(
                    f'{knob}: {getattr(k, knob)!r} needs scheme = "wnd_max" (standard TCP has '
                    f"no window to compute; allowed: the default {'smoothed' if knob == 'rtt' else False!r})"
                )
    window: dict[str, Any] = {}
    if k.scheme == "wnd_max":
        window = {"arf_window_slot_ms": k.slot_ms}
        if k.rtt != "smoothed":
            window["arf_window_rtt"] = k.rtt
        if k.every_slot:
            window["arf_window_every_slot"] = True
    if k.mobility == "random-waypoint":
        half = P003_EDGE_M / math.sqrt(2) - 1.0  # the square inside the circle, 1 m margin
        mobility: dict[str, Any] = {
            "kind": "random-waypoint",
            "area_m": [-half, -half, half, half],
            "speed_min_mps": 0.0,  # the paper's minimum (Yoon-Liu-Noble: speeds decay)
            "speed_max_mps": k.speed_mps,
            "pause_s": 0.0,
        }
        start_m, duration_s = P003_NEAR_M, 300.0 if k.duration_s is None else k.duration_s
    else:
        mobility = {"kind": "constant-velocity", "speed_mps": k.speed_mps, "direction": k.mobility}
        start_m = P003_NEAR_M if k.mobility == "away" else P003_FAR_M
        walk_s = (P003_FAR_M - P003_NEAR_M) / k.speed_mps
        duration_s = walk_s if k.duration_s is None else k.duration_s
    return {
        "name": f"paper-003-{k.scheme}" + ("" if k.direction == "download" else "-upload"),
        "topology": "bss",
        "stations": 1,
        "spacing_m": start_m,
        "standard": "80211a",
        "basic_rate_mbps": 6,
        "duration_s": round(duration_s, 6),
        "warmup_s": 0.0,
        "cc": "newreno",
        "delayed_ack": False,  # b = 1
        "mobility": mobility,
        "mac": {
            "rate_control": "arf",  # QualNet's: theta_up 10, theta_down 2, T_up 60 ms
            "rts_threshold_bytes": 0 if k.rts_cts else 65535,
            "beacon_interval_tu": 100,
            "queue_limit_packets": k.queue_packets,
            **window,
        },
        "tcp": {
            "mss_bytes": 1460,
            "timestamps": True,
            "rcv_buf_bytes": 131072,
            "snd_buf_bytes": 131072,
        },
        "channel": {
            "model": "radio",
            "noise_figure_db": k.noise_figure_db,
            "path_loss_exponent": 2.0,
            "reference_loss_db": 53.64,
            "tx_power_dbm": 20.0,
            "tx_power_by_rate_dbm": [
                [6, 20],
                [9, 20],
                [12, 19],
                [18, 19],
                [24, 18],
                [36, 18],
                [48, 16],
                [54, 16],
            ],
            "rx_sensitivity_by_rate_dbm": [
                [6, -85],
                [9, -85],
                [12, -83],
                [18, -83],
                [24, -78],
                [36, -78],
                [48, -69],
                [54, -69],
            ],
            # QualNet receives by sensitivity alone: ns-3's preamble detection (-82 dBm)
            # would cut the 370 m cell to 260 m.
            "preamble_detection": False,
        },  # fmt: skip
        "nodes": [{"name": "server", "role": "host"}],
        "links": [{"a": "ap", "b": "server", "rate_mbps": 100, "delay_ms": 1}],
        "flows": [
            {"kind": "tcp_bulk", "src": "server", "dst": "sta1"}
            if k.direction == "download"
            else {"kind": "tcp_bulk", "src": "sta1", "dst": "server"}
        ],
    }


class Paper001Knobs(BaseModel):
    """Paper 001 section II: a wireless TCP sender uploads a 1 MB file through its AP.
    See docs/paper-001.md and docs/scenarios.md#templates."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    recovery: Literal["tahoe", "reno", "newreno"] = _field(
        "tahoe", '"tahoe", "reno" or "newreno"', "TCP's loss recovery (section IV's three)"
    )
    min_rto_ms: float = _field(
        1000.0,
        "number 0..120000 ms",
        "NS-2's minrto_, the least RTO (section V: 1 s, the ns-2.1b9a default, 0.2 s or 0)",
        ge=0.0,
        le=120000.0,
    )
    newreno_rule: Literal["rfc6582", "ns-2.1b9a"] = _field(
        "rfc6582",
        '"rfc6582" or "ns-2.1b9a" (recovery = "newreno")',
        "NewReno's recovery (tcp.newreno_rule): RFC 6582's, or ns-2.1b9a's Agent/TCP/Newreno at "
        "its defaults (a partial ACK takes the whole inflation back, at most two new segments "
        "per ACK in recovery, recovery ends at ssthresh)",
    )
    backoff_rule: Literal["standard", "ns-2"] = _field(
        "standard",
        '"standard" or "ns-2"',
        "when a frame backs off (mac.backoff_rule): the standard's rule (a frame that finds the "
        "medium idle goes after DIFS), or ns-2's Mac802_11 (every frame waits DIFS and a "
        "backoff uniform in [0, CW - 1], even on an idle medium)",
    )


def paper001(knobs: Paper001Knobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Section II: 802.11b at 11 Mbit/s, MAC retransmissions disabled, one station uploading a
    1 MB file over TCP through its AP to a wired receiver (10 Mbit/s, 2 ms); NS-2 2.1b9a's
    defaults where the paper relies on them (docs/paper-001-ns2-defaults.md)."""
    k = knobs
    del rest
    if k.newreno_rule != "rfc6582" and k.recovery != "newreno":
        raise ScenarioError(
            f'newreno_rule: {k.newreno_rule!r} needs recovery = "newreno" (got '
            f'{k.recovery!r}; allowed with it: "rfc6582")'
        )
    return {
        "name": "paper-001",
        "topology": "bss",  # "ap" and one station "sta1" (the TCP sender)
        "stations": 1,
        "spacing_m": 10.0,
        "standard": "80211b",
        "data_rate_mbps": 11,  # section II: 802.11b at 11 Mbit/s
        "basic_rate_mbps": 1,  # section II: MAC ACKs at 1 Mbit/s
        "preamble": "long",
        "retry_limit": 0,  # section II: MAC retransmissions disabled (one attempt per frame)
        # An upper bound: the transfer ends within it (about 3.5 s) and the run goes on, so
        # goodput_bps averages the file over all 30 s (transfer_throughput_bps: its own time).
        "duration_s": 30.0,
        "warmup_s": 0.0,  # the whole transfer is measured
        "report_interval_s": 0.1,  # the paper's instantaneous goodput: per 0.1 s
        "recovery": k.recovery,
        "min_rto_ms": k.min_rto_ms,
        "tcp": {
            "mss_bytes": 1000,  # ns-2 packetSize_ 1000 (+ 40 header bytes)
            "timestamps": False,  # ns-2 Agent/TCP: one timed segment per RTT
            "limited_transmit": True,  # section IV: RFC 3042 (ns-2 singledup_ 1)
            "initial_cwnd": 2,  # ns-2.1b9a windowInit_ 2
            "delayed_ack": False,  # ns-2 Agent/TCPSink: an ACK for every segment
            "rcv_buf_bytes": 20000,  # ns-2 window_ 20 packets
            "initial_rto_ms": 6000,  # ns-2.1b9a rtxcur_init_ 6.0 s
            "clock_granularity_ms": 10,  # ns-2.1b9a tcpTick_ 0.01 s
            **({"newreno_rule": k.newreno_rule} if k.newreno_rule != "rfc6582" else {}),
        },
        "mac": {
            "queue_limit_packets": 50,  # ns-2 wireless interface queue (ifqlen 50)
            **({"backoff_rule": k.backoff_rule} if k.backoff_rule != "standard" else {}),
        },
        "nodes": [{"name": "server", "role": "host"}],  # the wired TCP receiver
        "links": [
            # section II: 10 Mbit/s duplex, 2 ms; ns-2 Queue limit_ 50
            {"a": "ap", "b": "server", "rate_mbps": 10, "delay_ms": 2, "queue_limit_packets": 50}
        ],
        "flows": [
            # section II: a 1 MB file
            {"kind": "tcp_file", "src": "sta1", "dst": "server", "file_bytes": 1000000}
        ],
    }


class HtUploadKnobs(BaseModel):
    """802.11n stations uploading TCP or UDP to their AP, with or without A-MPDU. Defaults as
    ns-3's (docs/scenarios.md#templates)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    mcs: int = _field(
        7, "integer 0..15",
        "the MCS of every data frame with rate_control constant (the adaptive ones start from "
        "their own tables)",
        ge=0, le=15,
    )  # fmt: skip
    rate_control: Literal[
        "constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "minstrel-ht", "ath9k"
    ] = _field(
        "constant",
        '"constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "minstrel-ht" or '
        '"ath9k"',
        "how the data frames' MCS is chosen (mac.rate_control)",
    )
    channel_width_mhz: Literal[20, 40] = _field(
        20, "20 or 40", "the channel width [MHz] (ht.channel_width_mhz)"
    )
    short_gi: bool = _field(False, "true or false", "the 400 ns guard interval (ht.short_gi)")
    streams: Literal[1, 2] = _field(1, "1 or 2", "spatial streams (ht.streams; 2 for MCS 8-15)")
    band_ghz: Literal[2.4, 5.0] = _field(5.0, "2.4 or 5", "the frequency band [GHz] (ht.band_ghz)")
    ampdu: bool = _field(
        True, "true or false", "A-MPDU under Block Ack (ht.ampdu; ns-3: 65,535 bytes)"
    )
    traffic: Literal["tcp", "udp"] = _field(
        "udp", '"tcp" or "udp"', "a bulk TCP flow or saturating UDP"
    )
    cc: str = _field("cubic", "a congestion control (tcp.cc)", "TCP's congestion control")
    server: Literal["ap", "wired"] = _field(
        "ap",
        '"ap" or "wired"',
        "the receiver: the AP, or a server on a 1 Gbit/s, 1 ms link behind it",
    )
    distance_m: float = _field(
        1.0, "number 0.1..1000 m", "station to AP (the radio model: ns-3's log-distance defaults)",
        ge=0.1, le=1000.0,
    )  # fmt: skip
    duration_s: float = _field(10.0, "number 0.1..3600 s", "simulated time", ge=0.1, le=3600.0)
    stations: int = _field(
        1,
        "integer 1..64",
        "stations, each distance_m from the AP (on a circle) and each uploading; the run's name "
        "ends in -Nsta",
        ge=1,
        le=64,
    )


def ht_upload(knobs: HtUploadKnobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """One 802.11n station `distance_m` from its AP sending UDP or TCP to the AP or to a
    wired server behind it; the radio model (log-distance path loss, NIST errors: ns-3's
    defaults), EDCA, a 1 s warm-up when the run is long enough."""
    k = knobs
    del rest
    cfg: dict[str, Any] = {
        "name": (
            f"ht-upload-mcs{k.mcs}"
            if k.rate_control == "constant"
            else f"ht-upload-{k.rate_control}"
        )
        + (f"-{k.stations}sta" if k.stations > 1 else ""),
        "topology": "bss",
        "stations": k.stations,
        "spacing_m": k.distance_m,
        "standard": "80211n",
        "ht": {
            "band_ghz": k.band_ghz,
            "channel_width_mhz": k.channel_width_mhz,
            "short_gi": k.short_gi,
            "streams": k.streams,
            "mcs": k.mcs,
            "ampdu": k.ampdu,
        },
        "duration_s": k.duration_s,
        "warmup_s": 1.0 if k.duration_s > 2.0 else 0.0,
        "mac": {"rate_control": k.rate_control},
        "channel": {"model": "radio"},
        "payload_bytes": 1472,  # ns-3's HT examples: 1500-byte IP packets
    }
    dst = "ap"
    if k.server == "wired":
        cfg["nodes"] = [{"name": "server", "role": "host"}]
        cfg["links"] = [{"a": "ap", "b": "server", "rate_mbps": 1000, "delay_ms": 1}]
        dst = "server"
    kind = "tcp_bulk" if k.traffic == "tcp" else "udp_saturating"
    if k.traffic == "tcp":
        cfg["tcp"] = {"cc": k.cc, "mss_bytes": 1448}
    cfg["flows"] = [{"kind": kind, "src": f"sta{i}", "dst": dst} for i in range(1, k.stations + 1)]
    return cfg


P002Queue = Literal["native", "codel", "mac-fq", "mac-fq-codel", "mac-fq-codel-aql"]


def p002_queue(queue: str) -> dict[str, Any]:
    """The ``[mac]`` keys of paper 002's queue knob."""
    if queue in ("native", "codel"):
        return {
            "queue_limit_packets": P002_ATH9K_QDEPTH,
            "qdisc": "pfifo" if queue == "native" else "codel",
            "qdisc_limit_packets": P002_QDISC_LIMIT_PACKETS,
        }
    return {
        "queue_limit_packets": P002_DRIVER_FRAMES,
        "txq": "fq-codel",
        "airtime_fairness": queue != "mac-fq",
        "aql": queue == "mac-fq-codel-aql",
    }


class Paper002Knobs(BaseModel):
    """Paper 002: TCP over 802.11n A-MPDU, the Block-Ack retry limit fixed or from the data
    rate. Nomoto, Wu, Ohzahata, Kato (docs/paper-002.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    distance_m: float = _field(
        5.0,
        "number 0.1..100 m",
        "station to AP in the wooden house (the paper's positions span 1.2 to 10 m); the "
        "station's average data rate under ath9k on the default channel (tgn-b-static): 300 "
        "Mbit/s at 1.2-2 m, 218 at 3 m, 161 at 4 m, 41 at 5 m, 27 at 6 m, 19 at 7 m, 13 at 8 m, "
        "6.9 at 9-10 m (Table I's lowest, 6.5, most of the time; docs/paper-002.md, the channel)",
        ge=0.1,
        le=100.0,
    )
    mcs: int | None = _field(
        None,
        "unset, or integer 0..15",
        "a fixed MCS at 40 MHz with the short guard interval (rate_control becomes constant); "
        "unset: the rate control chooses",
        ge=0,
        le=15,
    )
    cc: Literal["reno", "cubic"] = _field(
        "cubic", '"reno" or "cubic"', "TCP's congestion control (tcp.cc)"
    )
    delay_ms: float = _field(
        0.0,
        "number 0..1000 ms",
        "one-way delay the bridge (netem) adds between the AP and the server (paper: 0 or 50)",
        ge=0.0,
        le=1000.0,
    )
    queue: P002Queue = _field(
        "native",
        '"native", "codel", "mac-fq", "mac-fq-codel" or "mac-fq-codel-aql"',
        "the queues: native, Linux 3.2's pfifo_fast (mac.qdisc pfifo, 1000 packets) over "
        "ath9k's 123 frames per AC (mac.queue_limit_packets 123); codel, Linux 3.5's CoDel "
        "(target 5 ms, interval 100 ms) as the qdisc (mac.qdisc codel) over the same; or Linux "
        'today, mac80211\'s per-station FQ-CoDel (mac.txq = "fq-codel"; 20 ms, 100 ms) over 64 '
        "frames in the driver: frame by frame without airtime fairness (mac-fq), with it "
        "(mac-fq-codel), or with AQL too (mac-fq-codel-aql)",
    )
    scheme: Literal["none", "ba-retry"] = _field(
        "none",
        '"none" or "ba-retry"',
        "none: native 802.11n (Block-Ack retry limit 10); ba-retry: the paper's remedy "
        "(mac.ba_retry_remedy: limit 10/8/5/2 by the averaged data rate, TCP frames only)",
    )
    rate_control: Literal["ath9k", "minstrel-ht", "constant"] = _field(
        "ath9k",
        '"ath9k", "minstrel-ht" or "constant"',
        "the rate control of both ends (mac.rate_control; the paper's laptop: ath9k's own, "
        "Linux 3.2); constant needs mcs",
    )
    duration_s: float = _field(
        60.0,
        "number 0.1..3600 s",
        "the upload, after a 5 s warm-up (a 0.5 Mbit/s trickle each way trains both rate controls)",
        ge=0.1,
        le=3600.0,
    )
    fading_model: Literal["tgn-b-static", "tgn-b", "nakagami-blocks"] = _field(
        "tgn-b-static",
        '"tgn-b-static", "tgn-b" or "nakagami-blocks"',
        "the house's fading: tgn-b-static, TGn's residential channel B (IEEE 802.11-03/940r4: 9 "
        "taps, 15 ns of delay spread) standing still (Doppler 0: nobody moving; one realization "
        "of the taps for the house, channel.fading_seed = 1, so each position keeps one rate "
        "as the paper saw), each PPDU "
        "decoded per subcarrier, its MPDUs failing one by one; tgn-b, the same channel moving "
        "at TGn's environment Doppler of 1.2 km/h, decoded against the estimate taken at the "
        "preamble, so subframes late in an A-MPDU fail on their own; nakagami-blocks, a "
        "Nakagami-3 fade per 50 ms block, a whole PPDU at one gain (the calibration before "
        "issue 36) (channel.fading, channel.doppler_hz, channel.estimation)",
    )

    def effective(self) -> dict[str, Any]:
        """The knobs as the template uses them: with ``mcs`` the rate control is constant."""
        out = self.model_dump()
        if self.mcs is not None:
            out["rate_control"] = "constant"
        return out


# Paper 002's wooden house (IV-A, no figures of the radio given): a log-distance loss with
# exponent 4 (two floors, stairs, wooden walls; ITU-R P.1238's residential 2.8 plus a floor) and
# 59.5 dB at 1 m, 16 dBm at both ends, TGn's residential channel B standing still by default
# ("the data rate was rather stable", IV-A; knob fading_model), or (the calibration before issue
# 36) a Nakagami-3 fade per 50 ms block (people moving in a room; a coherence time of 0.42 / f_d
# at walking speed is about 25 ms at 5 GHz). Receivers
# sense and detect preambles down to -90 dBm (a real chip's floor, about 4 dB of SNR at 40 MHz,
# rather than the standard's -82 dBm minimum, which would hide the two ends from each other in
# a fade at 9 m). Calibrated so that 1.2 to 10 m spans the average data rates ath9k's rate
# control reaches (docs/paper-002.md, "The channel").
P002_PATH_LOSS_EXPONENT = 4.0
P002_REFERENCE_LOSS_DB = 59.5
P002_NAKAGAMI_M = 3.0
P002_COHERENCE_MS = 50.0
P002_DETECT_DBM = -90.0
# TGn B standing still is one realization of its taps for the house, the same in every run at
# every position (channel.fading_seed: the paper's runs at a position shared its spot): the
# first seed, taken before any run of the reproduction.
P002_PLACE_SEED = 1
# The house's fading per knob value (channel fields). Standing still, the estimate taken at the
# preamble is the channel, so it is decoded ideally; moving, against the preamble's estimate.
P002_FADING: dict[str, dict[str, Any]] = {
    "tgn-b-static": {"fading": "tgn-b", "doppler_hz": 0.0, "estimation": "ideal",
                     "fading_seed": P002_PLACE_SEED},
    "tgn-b": {"fading": "tgn-b", "estimation": "preamble"},
    "nakagami-blocks": {"fading": "nakagami", "nakagami_m": P002_NAKAGAMI_M,
                        "coherence_ms": P002_COHERENCE_MS},
}  # fmt: skip
# Before the upload the laptop is associated and in use (the paper's runs follow one another):
# a 0.5 Mbit/s trickle each way for this long trains both ends' rate control, then iperf's
# 60 s upload starts and is measured alone.
P002_WARMUP_S = 5.0
P002_TRICKLE_MBPS = 0.5
# Linux 3.2's queues: txqueuelen 1000 per pfifo_fast child, ath9k's ATH_MAX_QDEPTH 123 per AC.
P002_QDISC_LIMIT_PACKETS = 1000
P002_ATH9K_QDEPTH = 123
# Linux today: what ath9k holds below mac80211's queues, two A-MPDUs (ATH_AGGR_MIN_QDEPTH) of
# at most 32 subframes per access category.
P002_DRIVER_FRAMES = 64


def paper002(knobs: Paper002Knobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Paper 002's set-up (Fig. 3): an ath9k laptop uploading by TCP through its AP and a
    bridge (netem's delay) to a server on Gigabit Ethernet, 802.11n at 5 GHz, 40 MHz, two
    streams, short guard interval (Table I's rates), ath9k's aggregation and retry limits."""
    k = knobs
    del rest
    if k.rate_control == "constant" and k.mcs is None:
        raise ScenarioError('mcs: required with rate_control = "constant" (allowed: integer 0..15)')
    rc = "constant" if k.mcs is not None else k.rate_control
    mac: dict[str, Any] = {
        "rate_control": rc,
        **p002_queue(k.queue),
        "ba_retry_remedy": k.scheme == "ba-retry",
    }
    return {
        "name": f"paper-002-{k.queue}-{k.scheme}-{k.cc}",
        "topology": "bss",
        "stations": 1,
        "spacing_m": k.distance_m,
        "standard": "80211n",
        "ht": {
            "band_ghz": 5.0,
            "channel_width_mhz": 40,
            "short_gi": True,
            "streams": 2,
            "mcs": 15 if k.mcs is None else k.mcs,
            "ampdu": True,
            "aggregation": "ath9k",
        },
        "duration_s": P002_WARMUP_S + k.duration_s,
        "warmup_s": P002_WARMUP_S,
        "mac": mac,
        "channel": {
            "model": "radio",
            "path_loss_exponent": P002_PATH_LOSS_EXPONENT,
            "reference_loss_db": P002_REFERENCE_LOSS_DB,
            **P002_FADING[k.fading_model],
            "cca_threshold_dbm": P002_DETECT_DBM,
            "preamble_detection_min_rssi_dbm": P002_DETECT_DBM,
        },
        # The laptop's Linux 3.2 (§IV-A), its kernel profile (docs/scenarios.md, "Kernel
        # profiles"): SACK, PRR in recovery, a full qdisc is local congestion (CWR), no TSQ.
        "tcp": {"profile": "linux-3.2", "cc": k.cc, "mss_bytes": 1448},
        "payload_bytes": 1448,
        "nodes": [{"name": "server", "role": "host"}],
        "links": [{"a": "ap", "b": "server", "rate_mbps": 1000, "delay_ms": k.delay_ms}],
        "flows": [
            {"kind": "tcp_bulk", "src": "sta1", "dst": "server", "start_s": P002_WARMUP_S},
            *(
                {
                    "kind": "udp_cbr",
                    "src": a,
                    "dst": b,
                    "rate_mbps": P002_TRICKLE_MBPS,
                    "stop_s": P002_WARMUP_S,
                }
                for a, b in (("sta1", "server"), ("server", "sta1"))
            ),
        ],
    }


class Paper002AnomalyKnobs(BaseModel):
    """Beyond paper 002: several 802.11n stations at different rates behind one AP. See
    docs/paper-002.md, "Linux-today queueing"."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    queue: P002Queue = _field(
        "native",
        '"native", "codel", "mac-fq", "mac-fq-codel" or "mac-fq-codel-aql"',
        "the queues of every node, as paper-002's knob",
    )
    distances_m: list[float] = _field(
        [2.0, 6.0, 8.0],
        "a list of 1..8 numbers 0.1..100 m",
        "each station's distance from the AP, all on one side (they hear one another)",
        min_length=1,
        max_length=8,
    )
    direction: Literal["download", "upload"] = _field(
        "download", '"download" or "upload"', "TCP from the server to each station, or back"
    )
    cc: Literal["reno", "cubic"] = _field(
        "cubic", '"reno" or "cubic"', "TCP's congestion control (tcp.cc)"
    )
    rate_control: Literal["ath9k", "minstrel-ht"] = _field(
        "minstrel-ht",
        '"ath9k" or "minstrel-ht"',
        "the rate control of every node (Linux today's ath9k runs mac80211's Minstrel-HT)",
    )
    fading: bool = _field(
        False,
        "true or false",
        "the house's Nakagami block fades (paper-002's channel before issue 36); false: no "
        "fading, each station at a steady rate",
    )
    duration_s: float = _field(
        30.0, "number 0.1..3600 s", "the transfers (after a 5 s warm-up trickle)", ge=0.1, le=3600.0
    )


def paper002_anomaly(knobs: Paper002AnomalyKnobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """Paper 002's house with one bulk TCP flow per station, each at its own distance (so at
    its own rate): the 802.11 performance anomaly and mac80211's airtime fairness."""
    k = knobs
    # The house's block fades, or none (each station at a steady rate, no fading at all).
    base = paper002(Paper002Knobs(queue=k.queue, cc=k.cc, rate_control=k.rate_control,
                                  duration_s=k.duration_s, fading_model="nakagami-blocks"),
                    rest)  # fmt: skip
    for d in k.distances_m:
        if not (0.1 <= d <= 100.0):
            raise ScenarioError(f"distances_m: {d!r} is out of range (allowed: numbers 0.1..100 m)")
    stas = [f"sta{i + 1}" for i in range(len(k.distances_m))]
    base.update(
        name=f"paper-002-anomaly-{k.queue}",
        topology="custom",
        nodes=[
            {"name": "ap", "role": "ap"},
            *(
                {"name": s, "role": "sta", "x_m": d}
                for s, d in zip(stas, k.distances_m, strict=True)
            ),
            {"name": "server", "role": "host"},
        ],
        flows=[
            *(
                {"kind": "tcp_bulk", "src": "server", "dst": s, "start_s": P002_WARMUP_S}
                if k.direction == "download"
                else {"kind": "tcp_bulk", "src": s, "dst": "server", "start_s": P002_WARMUP_S}
                for s in stas
            ),
            *(
                {
                    "kind": "udp_cbr",
                    "src": a,
                    "dst": b,
                    "rate_mbps": P002_TRICKLE_MBPS,
                    "stop_s": P002_WARMUP_S,
                }
                for s in stas
                for a, b in ((s, "server"), ("server", s))
            ),
        ],  # fmt: skip
    )
    for key in ("stations", "spacing_m"):
        base.pop(key, None)
    # Linux today's TCP beside today's queues (mac80211's FQ, CoDel, AQL): the linux-6 profile.
    base["tcp"] = {**base["tcp"], "profile": "linux-6"}
    if not k.fading:
        for key in ("fading", "nakagami_m", "coherence_ms"):
            base["channel"].pop(key)
    return base


TEMPLATES: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], dict[str, Any]]]] = {
    "ht-upload": (HtUploadKnobs, ht_upload),
    "paper-000": (Paper000Knobs, paper000),
    "paper-000-tee": (Paper000TeeKnobs, paper000_tee),
    "paper-001": (Paper001Knobs, paper001),
    "paper-002": (Paper002Knobs, paper002),
    "paper-002-anomaly": (Paper002AnomalyKnobs, paper002_anomaly),
    "paper-003": (Paper003Knobs, paper003),
    "paper-004": (Paper004Knobs, paper004),
}


def template_summary(name: str) -> str:
    """The first sentence of template ``name``'s knob model: what the template builds."""
    doc = " ".join((TEMPLATES[name][0].__doc__ or "").split())
    return doc.split(". ")[0].rstrip(".") + "."


def template_knobs(name: str) -> list[dict[str, str]]:
    """Template ``name``'s knobs, in declaration order: each one's name, default (as JSON:
    ``null`` for a knob unset by default), allowed values and doc, from its knob model (the one
    place they are declared; ``airtcp templates NAME --json`` prints them as they are, and
    docs/scenarios.md's tables are generated from them)."""
    model = TEMPLATES[name][0]
    out = []
    for key, field in model.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        default = field.get_default(call_default_factory=True)
        out.append(
            {
                "knob": key,
                "default": json.dumps(default),
                "allowed": str(extra.get("allowed", "")),
                "doc": field.description or "",
            }
        )
    return out


def shown_default(knob: Mapping[str, str]) -> str:
    """A knob's default as a reader wants it: ``unset`` for a knob unset by default (JSON
    ``null``, the value a program reads), else the JSON."""
    return "unset" if knob["default"] == "null" else knob["default"]


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


# The arrays of tables of a scenario's topology: a template builds its own. A file's array
# could only replace the template's (whose links and flows name its nodes, so that they would
# name nodes that are gone) or half fit it: refused, with the knobs. A file's [[flows]] replace
# the template's traffic over its topology.
_TOPOLOGY_ARRAYS = ("nodes", "links", "routes")
# The top-level TCP shortcuts: a template sets them for its own TCP flows.
_TCP_SHORTCUTS = ("cc", "recovery", "delayed_ack", "min_rto_ms")


def _entries(key: str, built: list[Any]) -> str:
    """The template's entries of the array ``key``, in a few words."""
    if key == "nodes":
        return _names(str(n.get("name")) for n in built)
    if key == "links":
        return ", ".join(f"{e.get('a')} - {e.get('b')}" for e in built[:8])
    return f"{len(built)} entries"


def _refuse_arrays(
    name: str, knobs: list[str], built: Mapping[str, Any], rest: Mapping[str, Any]
) -> None:
    """ScenarioError if the file sets an array of the topology (``[[nodes]]`` ...)."""
    problems = []
    for key in _TOPOLOGY_ARRAYS:
        if key not in rest:
            continue
        given = rest[key]
        got: object = given
        if isinstance(given, list):
            got = _Raw(f"{len(given)} {'entry' if len(given) == 1 else 'entries'}")
        own = built.get(key)
        what = (
            f'template "{name}" builds its own [[{key}]] ({_entries(key, own)}); a file cannot '
            "replace them"
            if isinstance(own, list) and own
            else f'template "{name}" builds the topology; a file cannot add [[{key}]]'
        )
        problems.append(
            _line(
                key,
                what,
                got,
                f"no {key} with this template ([[flows]] may replace its traffic); its knobs: "
                f"{', '.join(knobs)}; or a scenario without template",
            )
        )
    if problems:
        raise ScenarioError(problems)


def _written(path: str, data: Any) -> bool:
    """Whether the file's ``data`` sets the field at the dotted ``path`` (or a value above it:
    an array or a value it replaces whole)."""
    while isinstance(data, Mapping | list):
        if isinstance(data, list):
            return True  # an array given in the file replaces the template's whole
        seg = next(
            (
                _segment(k)
                for k in data
                if path == _segment(k) or path.startswith(_segment(k) + ".")
            ),
            None,
        )
        if seg is None:
            return False
        data = data[next(k for k in data if _segment(k) == seg)]
        path = path[len(seg) + 1 :]
        if not path:
            return True
    return True


def mark_template_problems(problems: list[str], data: Mapping[str, Any]) -> list[str]:
    """``problems`` of the scenario that ``data`` (a file naming a template) expanded into,
    each about a field the file does not set marked as the template's: the user sees which
    lines name fields they never wrote."""
    name = data.get("template")
    out = []
    for line in problems:
        path = line.split(": ", 1)[0]
        plain = path.replace(".", "").replace("_", "").isalnum()
        if plain and path != "template" and not _written(path, data):
            line += f' [set by template "{name}", not by the file]'
        out.append(line)
    return out


# A template never ignores what a file says (issue 33): a knob given a value that changes
# nothing is refused, and so is a field the template copies from a knob (set the knob).


def _leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    """The scalar fields of ``data`` by dotted path (arrays whole)."""
    if not isinstance(data, Mapping):
        return {prefix: data}
    out: dict[str, Any] = {}
    for k, v in data.items():
        out.update(_leaves(v, f"{prefix}.{k}" if prefix else str(k)))
    return out


@dataclass(frozen=True)
class _Expansion:
    """One file's expansion by its template: the template, the knobs the file gives, the rest
    of the file and the scenario the template built from them."""

    name: str
    model: type[BaseModel]
    build: Callable[[Any, Mapping[str, Any]], dict[str, Any]]
    knobs: Mapping[str, Any]
    rest: Mapping[str, Any]
    built: Mapping[str, Any]

    def with_knobs(self, knobs: Mapping[str, Any]) -> dict[str, Any] | None:
        """The template's scenario for ``knobs``, or None if they are not valid together."""
        try:
            return self.build(self.model.model_validate(dict(knobs)), self.rest)
        except (ValidationError, ScenarioError, ValueError):
            return None

    def effective(self, knobs: Mapping[str, Any]) -> dict[str, Any]:
        """The knobs as the template uses them (a model's ``effective()``, else as given with
        the defaults); empty if they are not valid together."""
        try:
            parsed = self.model.model_validate(dict(knobs))
        except ValidationError:
            return {}
        effective = getattr(parsed, "effective", None)
        return effective() if callable(effective) else parsed.model_dump()

    def help(self, key: str) -> str:
        field = self.model.model_fields[key]
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        allowed = extra.get("allowed", "")
        return f"{key} = {allowed}: {field.description}" if allowed else str(field.description)

    def alternatives(self, key: str, value: Any) -> list[Any]:
        """Other values of knob ``key`` than ``value`` to try (its options, the other boolean,
        a nearby number)."""
        args = getattr(self.model.model_fields[key].annotation, "__args__", ())
        if isinstance(value, bool):
            return [not value]
        if args and all(isinstance(a, str | int | float) for a in args):
            return [a for a in args if a != value][:2]
        if isinstance(value, int | float):
            return [value + 1, value - 1, value * 2, value / 2]
        return []

    def enablers(self, key: str) -> list[str]:
        """The other knobs' values (``traffic = "tcp"``) with which knob ``key`` would be
        used."""
        full = self.model.model_validate(dict(self.knobs)).model_dump()
        default = self.model.model_fields[key].default
        out = []
        for other, value in full.items():
            if other == key:
                continue
            for alt in self.alternatives(other, value):
                on = self.with_knobs({**full, other: alt})
                off = self.with_knobs({**full, other: alt, key: default})
                if on is not None and off is not None and on != off:
                    out.append(f"{other} = {alt!r}".replace("'", '"'))
                    break
        return out

    def refuse_unused_knobs(self) -> None:
        """ScenarioError naming each knob the file gives a value other than its default that
        the template, with the other knobs as given, does not use (the scenario is the same
        without it), unless it is the value the template takes anyway."""
        problems = []
        for key, value in self.knobs.items():
            if value == self.model.model_fields[key].default:
                continue
            without = {k: v for k, v in self.knobs.items() if k != key}
            if value == self.effective(without).get(key):
                continue  # the value the template takes anyway (paper-002's constant with mcs)
            if self.with_knobs(without) == self.built:
                enablers = self.enablers(key)
                problems.append(
                    _line(
                        key,
                        f'template "{self.name}" does not use it with the other knobs as they '
                        f"are ({self.help(key)})",
                        value,
                        "unset" + (f", or with {' or '.join(enablers)}" if enablers else ""),
                    )
                )
        if problems:
            raise ScenarioError(problems)

    def knob_owned(self) -> dict[str, str]:
        """The fields of the built scenario that copy a knob (the field takes the knob's value
        when the knob changes), by dotted path: the knob that sets each."""
        full = self.model.model_validate(dict(self.knobs)).model_dump()
        base = _leaves(self.built)
        owned: dict[str, str] = {}
        for key, value in full.items():
            for alt in self.alternatives(key, value):
                other = self.with_knobs({**full, key: alt})
                if other is None:
                    continue
                for path, v in _leaves(other).items():
                    if path in base and base[path] != v and v == alt and base[path] == value:
                        owned[path] = key
                break
        return owned

    def refuse_knob_fields(self) -> None:
        """ScenarioError naming each field the file sets that the template copies from a knob
        (``ht.mcs`` of ``ht-upload`` is its knob ``mcs``): the knob is the one place to set it,
        so that the run's name and the template's other choices follow."""
        built = _leaves(self.built)
        given = {p: v for p, v in _leaves(self.rest).items() if p in built and p != "name"}
        if not given:
            return
        owned = self.knob_owned()
        problems = [
            _line(
                path,
                f'template "{self.name}" sets it from its knob {owned[path]}',
                value,
                f"set {owned[path]} instead ({self.help(owned[path])})",
            )
            for path, value in given.items()
            if path in owned
        ]
        if problems:
            raise ScenarioError(problems)


def expand_template(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with its template expanded (unchanged if it names none).

    Raises ScenarioError for an unknown template, a bad knob, or an array of the topology
    (``[[nodes]]``, ``[[links]]``, ``[[routes]]``): the template builds those. A file's
    ``[[flows]]`` replace the template's traffic; the TCP shortcuts the template set (``cc``
    ...) then go unless one of them is a TCP flow.
    """
    if "template" not in data:
        return dict(data)
    name = data["template"]
    if not isinstance(name, str) or name not in TEMPLATES:
        allowed = ", ".join(f'"{t}"' for t in TEMPLATES)
        raise ScenarioError(f"template: unknown {name!r} (allowed: {allowed})")
    model, build = TEMPLATES[name]
    names = set(model.model_fields)
    knobs = {k: v for k, v in data.items() if k in names}
    rest = {k: v for k, v in data.items() if k not in names and k != "template"}
    try:
        parsed = model.model_validate(knobs)
    except ValidationError as exc:
        raise ScenarioError(_convert_validation_error(exc, model)) from None
    for key, value in knobs.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ScenarioError(f"{key}: not a finite number")
    built = build(parsed, rest)
    _refuse_arrays(name, list(model.model_fields), built, rest)
    expansion = _Expansion(name, model, build, knobs, rest, built)
    expansion.refuse_unused_knobs()
    expansion.refuse_knob_fields()
    flows = rest.get("flows")
    if isinstance(flows, list) and not any(
        isinstance(f, Mapping) and f.get("kind") in _TCP_KINDS for f in flows
    ):
        for key in (*_TCP_SHORTCUTS, "tcp"):  # the template's, for its TCP flows, now gone
            if key not in data:
                built.pop(key, None)
    return _merge(built, rest)
