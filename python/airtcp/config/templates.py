"""Scenario templates: a paper's scenario written once, with its own top-level knobs.

A scenario file with ``template = "paper-004"`` names the template; the template's knobs
(``scheme``, ``fer``, ...) are read, checked and turned into an ordinary scenario, over which
every other key of the file (``duration_s``, ``[traces]``, ``[tcp]`` ...) is merged, so
``--set scheme=lnmac`` and ``--set tcp.min_rto_ms=200`` both work. The expanded scenario is
what runs and what is stored.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from airtcp.config.errors import ScenarioError, _convert_validation_error
from airtcp.config.models import _field

__all__ = ["TEMPLATES", "expand_template", "paper004"]


class Paper004Knobs(BaseModel):
    """Paper 004's knobs (Ravichandran et al., LN-MAC; docs/paper-004.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    scheme: Literal["plain", "cdo", "lnmac", "lnmac-cdo"] = _field(
        "plain",
        '"plain", "cdo", "lnmac" or "lnmac-cdo"',
        "TCP plain (NewReno); TCP with CDO/CNO (corrupt frames passed up); LN-MAC (the MACs' "
        "loss notifications, answered with CNOs); LN-MAC with corrupt frames passed up too",
    )
    fer: float = _field(
        0.4,
        "number 0.001..0.95",
        "the link's frame error rate for 1500-byte frames: sets the B-C distance (and the D-E "
        "one); other frame sizes keep that distance",
        ge=0.001,
        le=0.95,
    )
    frame_bytes: int = _field(
        1500,
        "integer 100..2346 bytes",
        "the 802.11 data frame (MAC header 34 bytes with FCS, LLC/SNAP, IP, TCP, CDO, payload)",
        ge=100,
        le=2346,
    )
    retry_limit: int = _field(
        1,
        "integer 1..32 attempts",
        "the paper's 'max MAC retry limit': attempts per frame (1 = never retransmitted)",
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
        "rayleigh: Table I (radio model, a Rayleigh fade per frame, SINR per part); bit-errors: "
        "independent bit errors at the BER that gives fer for 1500-byte frames, so shorter "
        "frames see fewer errors (the paper's text; a sensitivity check)",
    )
    cno_reaction: Literal["aggressive", "conservative"] = _field(
        "aggressive",
        '"aggressive" or "conservative"',
        "the sender's reaction to a CNO: cwnd unchanged (the paper's) or cut as for a loss",
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
    flows: list[dict[str, Any]] = [{"kind": "tcp-bulk", "src": "A", "dst": "C"}]
    if k.interferers:
        nodes += [
            {"name": "D", "role": "adhoc", "x_m": 0.0, "y_m": y},
            {"name": "E", "role": "adhoc", "x_m": d, "y_m": y},
        ]
        flows.append({"kind": "tcp-bulk", "src": "D", "dst": "E"})
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
            "pass_corrupt": k.scheme in ("cdo", "lnmac-cdo"),
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
    """Paper 003's knobs (Kashibuchi et al., TCP over ARF; docs/scenarios.md#templates)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    scheme: Literal["standard", "wnd_max"] = _field(
        "standard",
        '"standard" or "wnd_max"',
        "standard TCP NewReno, or with the ARF-aware window (mac.arf_window_slot_ms)",
    )
    mobility: Literal["away", "toward", "random-waypoint"] = _field(
        "away",
        '"away", "toward" or "random-waypoint"',
        "A-1: from 10 m straight out to the 6 Mbit/s edge; A-2: from the edge straight in to "
        "10 m; B: random waypoint in the square inscribed in the cell, speed 0..speed_mps, no "
        "pause",
    )
    speed_mps: float = _field(
        5.0, "number 0.1..10 m/s", "the station's speed (B: the fastest leg)", ge=0.1, le=10.0
    )
    rts_cts: bool = _field(False, "true or false", "RTS/CTS before every data frame")
    direction: Literal["download", "upload"] = _field(
        "download",
        '"download" or "upload"',
        "the station downloads from the server (the paper's case: wnd_max is its advertised "
        "window) or uploads to it (wnd_max caps its cwnd, III-C-1)",
    )
    slot_ms: float = _field(
        100.0, "number 1..10000 ms", "wnd_max's observation slot T", ge=1.0, le=10000.0
    )
    queue_packets: int = _field(
        100,
        "integer 1..10000 packets",
        "the AP's interface queue (the paper does not give QualNet's)",
        ge=1,
        le=10000,
    )
    duration_s: float = _field(
        300.0,
        "number 1..3600 s",
        "B only (A-1 and A-2 last until the station has crossed the cell)",
        ge=1.0,
        le=3600.0,
    )


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
    if k.mobility == "random-waypoint":
        half = P003_EDGE_M / math.sqrt(2) - 1.0  # the square inside the circle, 1 m margin
        mobility: dict[str, Any] = {
            "kind": "random-waypoint",
            "area_m": [-half, -half, half, half],
            "speed_min_mps": 0.0,  # the paper's minimum (Yoon-Liu-Noble: speeds decay)
            "speed_max_mps": k.speed_mps,
            "pause_s": 0.0,
        }
        start_m, duration_s = P003_NEAR_M, k.duration_s
    else:
        mobility = {"kind": "constant-velocity", "speed_mps": k.speed_mps, "direction": k.mobility}
        start_m = P003_NEAR_M if k.mobility == "away" else P003_FAR_M
        duration_s = (P003_FAR_M - P003_NEAR_M) / k.speed_mps
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
            **({"arf_window_slot_ms": k.slot_ms} if k.scheme == "wnd_max" else {}),
        },
        "tcp": {
            "mss_bytes": 1460,
            "timestamps": True,
            "rcv_buf_bytes": 131072,
            "snd_buf_bytes": 131072,
        },
        "channel": {
            "model": "radio",
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
            {"kind": "tcp-bulk", "src": "server", "dst": "sta1"}
            if k.direction == "download"
            else {"kind": "tcp-bulk", "src": "sta1", "dst": "server"}
        ],
    }


class HtUploadKnobs(BaseModel):
    """One 802.11n station uploading (docs/scenarios.md#templates); defaults as ns-3's."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    mcs: int = _field(
        7, "integer 0..15", "the MCS of every data frame (rate_control constant), else the first",
        ge=0, le=15,
    )  # fmt: skip
    rate_control: Literal[
        "constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "minstrel-ht", "ath9k"
    ] = _field(
        "constant",
        '"constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "minstrel-ht" or '
        '"ath9k"',
        "how the data frames' MCS is chosen",
    )
    channel_width_mhz: Literal[20, 40] = _field(20, "20 or 40", "the channel width [MHz]")
    short_gi: bool = _field(False, "true or false", "the 400 ns guard interval")
    streams: Literal[1, 2] = _field(1, "1 or 2", "spatial streams (2 for MCS 8-15)")
    band_ghz: Literal[2.4, 5.0] = _field(5.0, "2.4 or 5", "the frequency band [GHz]")
    ampdu: bool = _field(True, "true or false", "A-MPDU under Block Ack (ns-3: 65,535 bytes)")
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


def ht_upload(knobs: HtUploadKnobs, rest: Mapping[str, Any]) -> dict[str, Any]:
    """One 802.11n station `distance_m` from its AP sending UDP or TCP to the AP or to a
    wired server behind it; the radio model (log-distance path loss, NIST errors: ns-3's
    defaults), EDCA, a 1 s warm-up when the run is long enough."""
    k = knobs
    del rest
    cfg: dict[str, Any] = {
        "name": f"ht-upload-mcs{k.mcs}"
        if k.rate_control == "constant"
        else f"ht-upload-{k.rate_control}",
        "topology": "bss",
        "stations": 1,
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
    if k.traffic == "tcp":
        cfg["tcp"] = {"cc": k.cc, "mss_bytes": 1448}
        cfg["flows"] = [{"kind": "tcp-bulk", "src": "sta1", "dst": dst}]
    else:
        cfg["flows"] = [{"kind": "udp-saturating", "src": "sta1", "dst": dst}]
    return cfg


TEMPLATES: dict[str, tuple[type[BaseModel], Callable[[Any, Mapping[str, Any]], dict[str, Any]]]] = {
    "ht-upload": (HtUploadKnobs, ht_upload),
    "paper-003": (Paper003Knobs, paper003),
    "paper-004": (Paper004Knobs, paper004),
}


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def expand_template(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with its template expanded (unchanged if it names none)."""
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
    return _merge(build(parsed, rest), rest)
