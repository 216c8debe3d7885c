"""Scenarios: the user's description of a run, validated, and expanded into the world spec.

A scenario is a TOML file (or a dict) with a few top-level knobs (``stations``, ``standard``,
``duration_s``, ``traffic``, ``cc`` ...) and optional tables (``[mac]``, ``[tcp]``,
``[channel]``, ``[[nodes]]``, ``[[links]]``, ``[[routes]]``, ``[[flows]]``, ``[traces]``);
docs/scenarios.md is the reference.
:meth:`Scenario.to_world_spec` expands it into the explicit world spec of docs/world-spec.md:
generated nodes with positions, node indices, static routes, one flow per source, integer
nanoseconds and bit/s.

Every invalid input raises :class:`ScenarioError` whose message lists each problem as
``<dotted.field.path>: <what is wrong> (got <value>; allowed: <what>)``.
"""

from __future__ import annotations

import copy
import difflib
import fnmatch
import json
import math
import re
import tomllib
import types
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator
from pydantic.fields import FieldInfo

from airtcp.outpath import NAME_ALLOWED, safe_name

__all__ = [
    "CC_NAMES",
    "MAX_MSS_BYTES",
    "MAX_PAYLOAD_BYTES",
    "RECOVERY_NAMES",
    "ChannelConfig",
    "ErrorBer",
    "ErrorFer",
    "ErrorNone",
    "FlowConfig",
    "LinkConfig",
    "MacConfig",
    "MatrixConfig",
    "NodeConfig",
    "RouteConfig",
    "Scenario",
    "ScenarioError",
    "TcpConfig",
    "TracesConfig",
    "apply_overrides",
    "default_basic_rate_mbps",
    "default_data_rate_mbps",
    "load",
    "load_toml",
    "set_dotted",
]

# 2304-byte maximum MSDU (IEEE 802.11-2020 9.2.4.7.1 Table 9-19 footnote, non-A-MSDU) minus the
# 8-byte LLC/SNAP header, the 20-byte IPv4 header and the 8-byte UDP header.
MAX_PAYLOAD_BYTES = 2304 - 8 - 20 - 8
_PAYLOAD_ALLOWED = (
    f"integer 1..{MAX_PAYLOAD_BYTES} bytes: the 2304-byte maximum MSDU minus 8 LLC/SNAP, "
    "20 IPv4 and 8 UDP header bytes"
)
# 2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4, 20 TCP and 12 timestamp-option bytes.
MAX_MSS_BYTES = 2304 - 8 - 20 - 20 - 12
_MSS_ALLOWED = (
    f"integer 1..{MAX_MSS_BYTES} bytes: the 2304-byte maximum MSDU minus 8 LLC/SNAP, "
    "20 IPv4, 20 TCP and 12 timestamp-option bytes"
)
# Congestion controls by their Linux names, and loss-recovery variants (the core's lists).
CC_NAMES = ("reno", "newreno", "cubic", "bic", "vegas", "veno", "westwood", "illinois")
RECOVERY_NAMES = ("tahoe", "reno", "newreno", "sack")
_CC_ALLOWED = ", ".join(CC_NAMES)
_RECOVERY_ALLOWED = ", ".join(RECOVERY_NAMES)
_TCP_KINDS = ("tcp-bulk", "tcp-file")
_FILE_KINDS = ("tcp-file", "clap-file")
# 2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4 and 20 CLAP data-header bytes (docs/clap.md).
MAX_CLAP_MSS_BYTES = 2304 - 8 - 20 - 20
_U32_MAX = 2**32 - 1
# Upper bounds (docs/scenarios.md "Limits"). They keep every value inside what the core holds
# (u64 nanoseconds reach 1.8e10 s, u32 counters 4.3e9) and every run's cost bounded.
MAX_TIME_S = 1e7  # simulated times: 116 days
MAX_TIME_MS = MAX_TIME_S * 1e3
MAX_DISTANCE_M = 1e6  # positions and ranges: 1000 km
MAX_LINK_RATE_MBPS = 1e5  # wired links: 100 Gbit/s
MAX_CBR_RATE_MBPS = 1e4  # a CBR source: 10 Gbit/s ...
MAX_CBR_PACKETS_PER_S = 1_000_000  # ... and at most 10^6 packets per simulated second
MAX_QUEUE_PACKETS = 100_000  # the core's bound: a saturating source fills what it is given
MAX_INITIAL_CWND = 1_000_000  # segments (the core's bound)
MAX_CLAP_SEGMENTS = 2**32 - 1  # segments of one CLAP transfer (32-bit sequence numbers)
MAX_FILE_BYTES = 10**12  # 1 TB
# Nodes of a scenario: Python expands routes between every pair (a table of N^2 entries), so
# 500 nodes take about 4 s and 250 MB before the first frame.
MAX_NODES = 500
MAX_REPORT_INTERVALS = 1_000_000  # duration_s / report_interval_s
_GLOB_CHARS = "*?["
_NS_PER_S = 1_000_000_000


class ScenarioError(ValueError):
    """An invalid scenario; ``problems`` holds one line per problem, each naming its field."""

    def __init__(self, problems: str | Iterable[str]) -> None:
        self.problems: list[str] = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


# ---------------------------------------------------------------------------------------------
# Problems found by our own validators. They travel through pydantic as a ValueError and are
# unpacked again by _convert_validation_error, so their paths join pydantic's own.

_NO_VALUE = object()


class _Issue:
    __slots__ = ("allowed", "got", "loc", "what")

    def __init__(
        self, loc: tuple[str | int, ...], what: str, got: object = _NO_VALUE, allowed: str = ""
    ) -> None:
        self.loc, self.what, self.got, self.allowed = loc, what, got, allowed


class _Issues(ValueError):
    def __init__(self, issues: list[_Issue]) -> None:
        self.issues = issues
        super().__init__("; ".join(i.what for i in issues))


class _Raw(str):
    """A description shown as is in "got ..." (not quoted like a string value)."""

    __slots__ = ()


# An error message echoes at most this many characters of a bad value or key.
_ECHO_CHARS = 60


def _segment(key: object) -> str:
    """A key as a segment of a dotted path: quoted if it is blank or holds a dot, a space or
    a quote (``flows.0." "``), so the path stays readable."""
    text = str(key)
    if isinstance(key, str) and (not text.strip() or any(c in text for c in ' ."\t\n')):
        return _clip(json.dumps(text), 40)
    return text


def _clip(text: str, limit: int = _ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(text)} characters)"


def _fmt(value: object) -> str:
    """A value as the user wrote it in TOML (a short prefix of a long one)."""
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _clip(json.dumps(value))
    if isinstance(value, float):
        return _num(value)
    if value is None:
        return "nothing"
    if isinstance(value, dict | list | tuple):
        try:
            text = json.dumps(value, default=str)
        except (ValueError, RecursionError):  # nested too deep to print
            text = f"a {type(value).__name__} nested too deeply to show"
        return _clip(text)
    return _clip(str(value))


def _num(x: object) -> str:
    """A number as written: integral floats without ".0", others in full (54.0000001, not 54)."""
    if isinstance(x, float) and math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x) if isinstance(x, float) else _clip(str(x))


def _names(names: Iterable[str], limit: int = 20) -> str:
    names = list(names)
    shown = ", ".join(json.dumps(n) for n in names[:limit])
    return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")


def _line(path: str, what: str, got: object = _NO_VALUE, allowed: str = "") -> str:
    parts = []
    if got is not _NO_VALUE:
        parts.append(f"got {_fmt(got)}")
    if allowed:
        parts.append(f"allowed: {allowed}")
    return f"{_clip(path, 120)}: {what}" + (f" ({'; '.join(parts)})" if parts else "")


def _check_choice(
    issues: list[_Issue],
    loc: tuple[str | int, ...],
    value: str | None,
    choices: tuple[str, ...],
    what: str,
) -> None:
    """An issue if ``value`` (unset is fine) is not one of ``choices``."""
    if value is None or value in choices:
        return
    close = difflib.get_close_matches(value.lower(), choices, n=1)
    hint = f"; did you mean {json.dumps(close[0])}?" if close else ""
    issues.append(_Issue(loc, f"unknown {what}{hint}", value, ", ".join(choices)))


# ---------------------------------------------------------------------------------------------
# Models


def _field(default: Any, allowed: str, doc: str, **kw: Any) -> Any:
    """A model field whose ``allowed`` text is shown in error messages and in the docs."""
    return Field(default, description=doc, json_schema_extra={"allowed": allowed}, **kw)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class MacConfig(_Model):
    """``[mac]``: channel access and the MAC's retry and queue limits."""

    access: Literal["dcf", "edca"] = _field(
        "dcf", '"dcf" or "edca"', "DCF (DIFS, non-QoS data) or EDCA (AIFS[AC], QoS data)"
    )
    cw_min: int | None = _field(
        None,
        "integer 1..32767 slots, or unset",
        "CWmin override; unset = the standard's",
        ge=1,
        le=32767,
    )
    cw_max: int | None = _field(
        None,
        "integer 1..32767 slots, >= mac.cw_min, or unset",
        "CWmax override; unset = the standard's",
        ge=1,
        le=32767,
    )
    aifsn: int | None = _field(
        None,
        "integer 1..15 slots, or unset",
        "AIFSN override; unset = DIFS / the AC's",
        ge=1,
        le=15,
    )
    short_retry_limit: int = _field(
        6,
        "integer 0..31 retransmissions; 0 = never retransmit",
        "retransmissions of frames up to rts_threshold_bytes",
        ge=0,
        le=31,
    )
    long_retry_limit: int = _field(
        3,
        "integer 0..31 retransmissions; 0 = never retransmit",
        "retransmissions of frames longer than rts_threshold_bytes",
        ge=0,
        le=31,
    )
    rts_threshold_bytes: int = _field(
        65535,
        "integer 0..65535 bytes",
        "MPDUs longer than this use RTS/CTS; 65535 = never",
        ge=0,
        le=65535,
    )
    queue_limit_packets: int = _field(
        100,
        f"integer 1..{MAX_QUEUE_PACKETS} packets",
        "DropTail interface queue per access category",
        ge=1,
        le=MAX_QUEUE_PACKETS,
    )

    @model_validator(mode="after")
    def _check(self) -> MacConfig:
        issues = []
        if self.cw_min is not None and self.cw_max is not None and self.cw_max < self.cw_min:
            issues.append(
                _Issue(
                    ("cw_max",),
                    f"must be >= mac.cw_min = {self.cw_min}",
                    self.cw_max,
                    f"integer {self.cw_min}..32767 slots",
                )
            )
        if issues:
            raise _Issues(issues)
        return self


class TcpConfig(_Model):
    """``[tcp]``: parameters of every TCP flow; defaults follow Linux."""

    cc: str = _field(
        "newreno", _CC_ALLOWED, "congestion control, by its Linux name (per flow: flows.N.cc)"
    )
    recovery: str = _field(
        "newreno",
        _RECOVERY_ALLOWED,
        "loss recovery: tahoe (slow start after every loss), reno (fast recovery), "
        "newreno (fast recovery with partial ACKs, RFC 6582)",
    )
    mss_bytes: int = _field(
        1460,
        _MSS_ALLOWED,
        "maximum segment size: payload bytes per segment (and the payload of the flow)",
        ge=1,
        le=MAX_MSS_BYTES,
    )
    min_rto_ms: float = _field(
        200.0,
        "number 0..1e10 ms",
        "lower bound of the retransmission timeout (Linux 200 ms)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    max_rto_ms: float = _field(
        120_000.0,
        "number > 0 ms, >= min_rto_ms, <= 1e10",
        "upper bound of the retransmission timeout (Linux 120 s)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    initial_rto_ms: float = _field(
        1000.0,
        "number > 0 ms, <= 1e10",
        "RTO before the first RTT sample (RFC 6298: 1 s)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    clock_granularity_ms: float = _field(
        0.0,
        "number 0..1e10 ms; 0 = the nanosecond clock",
        "clock granularity G: RTO = SRTT + max(G, 4 RTTVAR) (RFC 6298; NS-2 tcpTick_ 10 ms)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    timestamps: bool = _field(
        True,
        "true or false",
        "RFC 7323 timestamps: 12 option bytes per segment, an RTT sample on every ACK",
    )
    limited_transmit: bool = _field(
        True,
        "true or false",
        "RFC 3042 limited transmit: a new segment on each of the first two duplicate ACKs",
    )
    initial_cwnd: int = _field(
        10,
        f"integer 1..{MAX_INITIAL_CWND} segments",
        "initial congestion window (RFC 6928, Linux: 10)",
        ge=1,
        le=MAX_INITIAL_CWND,
    )
    delayed_ack: bool = _field(
        True,
        "true or false",
        "the receiver delays ACKs (ack_every, delack_timeout_ms); false = ACK every segment",
    )
    ack_every: int = _field(
        2,
        "integer >= 1 segments (ignored, = 1, when delayed_ack is false)",
        "the receiver ACKs every this many full segments (2 = delayed ACK, RFC 5681)",
        ge=1,
        le=_U32_MAX,
    )
    delack_timeout_ms: float = _field(
        40.0,
        "number 0..1e10 ms; 0 = no timer",
        "a held ACK goes out after this (Linux TCP_DELACK_MIN 40 ms)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    rcv_buf_bytes: int = _field(
        6 * 1024 * 1024,
        "integer >= tcp.mss_bytes bytes",
        "receive buffer = the largest advertised window (Linux tcp_rmem[2] = 6 MiB)",
        ge=1,
        le=_U32_MAX,
    )
    snd_buf_bytes: int = _field(
        4 * 1024 * 1024,
        "integer >= tcp.mss_bytes bytes",
        "send buffer = the most unacknowledged data (Linux tcp_wmem[2] = 4 MiB)",
        ge=1,
        le=_U32_MAX,
    )
    hystart: bool = _field(
        True, "true or false", "CUBIC's HyStart slow-start exit (Linux default on); cubic only"
    )

    @model_validator(mode="after")
    def _check(self) -> TcpConfig:
        issues: list[_Issue] = []
        _check_choice(issues, ("cc",), self.cc, CC_NAMES, "congestion control")
        _check_choice(issues, ("recovery",), self.recovery, RECOVERY_NAMES, "loss recovery")
        for name in ("rcv_buf_bytes", "snd_buf_bytes"):
            value = getattr(self, name)
            if value < self.mss_bytes:
                issues.append(
                    _Issue(
                        (name,),
                        f"must be >= tcp.mss_bytes = {self.mss_bytes}",
                        value,
                        f"integer {self.mss_bytes}..{_U32_MAX} bytes",
                    )
                )
        if issues:
            raise _Issues(issues)
        return self


class MatrixConfig(_Model):
    """``[channel.matrix]``: explicit 0/1 connectivity, overriding the ranges."""

    rx: list[list[Literal[0, 1]]] = _field(
        ...,
        "n x n array of 0/1, one row and one column per node in node order",
        "rx[i][j] = 1: node j decodes node i's frames (the diagonal is ignored)",
    )
    cs: list[list[Literal[0, 1]]] = _field(
        ...,
        "n x n array of 0/1, one row and one column per node in node order, 1 wherever rx is 1",
        "cs[i][j] = 1: node j senses (and is interfered with by) node i's frames",
    )


class ErrorNone(_Model):
    """No frame errors besides collisions."""

    kind: Literal["none"] = _field("none", '"none", "fer" or "ber"', "error model")


class ErrorFer(_Model):
    """Every data frame is corrupted with a fixed probability."""

    kind: Literal["fer"] = _field(..., '"none", "fer" or "ber"', "error model")
    fer: float = _field(..., "number in [0, 1)", "frame error rate", ge=0.0, lt=1.0)


class ErrorBer(_Model):
    """Every bit is corrupted independently with a fixed probability."""

    kind: Literal["ber"] = _field(..., '"none", "fer" or "ber"', "error model")
    ber: float = _field(..., "number in [0, 1)", "bit error rate", ge=0.0, lt=1.0)


_ErrorModel = Annotated[Union[ErrorNone, ErrorFer, ErrorBer], Field(discriminator="kind")]  # noqa: UP007


class ChannelConfig(_Model):
    """``[channel]``: who hears whom, and the error model."""

    rx_range_m: float = _field(
        250.0, "number > 0 metres, <= 1e6", "decode range", gt=0.0, le=MAX_DISTANCE_M
    )
    cs_range_m: float | None = _field(
        None,
        "number >= channel.rx_range_m metres, <= 1e6, or unset (= rx_range_m)",
        "carrier-sense / interference range",
        gt=0.0,
        le=MAX_DISTANCE_M,
    )
    matrix: MatrixConfig | None = _field(
        None, "a table with rx and cs, or unset", "explicit connectivity, overrides the ranges"
    )
    error: _ErrorModel = Field(  # type: ignore[assignment]
        default_factory=ErrorNone,
        description="frame error model",
        json_schema_extra={"allowed": 'kind = "none", "fer" (with fer) or "ber" (with ber)'},
    )
    preamble_detection: bool = _field(
        False,
        "true or false",
        "frames starting within 4 us of each other are detected by nobody (ns-3's default)",
    )

    @model_validator(mode="after")
    def _check(self) -> ChannelConfig:
        if self.cs_range_m is not None and self.cs_range_m < self.rx_range_m:
            raise _Issues(
                [
                    _Issue(
                        ("cs_range_m",),
                        f"must be >= channel.rx_range_m = {_num(self.rx_range_m)}",
                        self.cs_range_m,
                        f"number >= {_num(self.rx_range_m)} metres, or unset",
                    )
                ]
            )
        return self


class NodeConfig(_Model):
    """``[[nodes]]``: a node besides the generated ones (all nodes for topology "custom")."""

    name: str = _field(
        ..., "a unique name: " + NAME_ALLOWED, "node name, used by links/routes/flows"
    )
    x_m: float = _field(
        0.0, "number -1e6..1e6 metres", "position x", ge=-MAX_DISTANCE_M, le=MAX_DISTANCE_M
    )
    y_m: float = _field(
        0.0, "number -1e6..1e6 metres", "position y", ge=-MAX_DISTANCE_M, le=MAX_DISTANCE_M
    )
    z_m: float = _field(
        0.0, "number -1e6..1e6 metres", "position z", ge=-MAX_DISTANCE_M, le=MAX_DISTANCE_M
    )
    role: Literal["ap", "sta", "adhoc", "host"] = _field(
        ...,
        '"ap", "sta", "adhoc" or "host"',
        'access point, station, ad-hoc node, or "host" (no WiFi, wired links only)',
    )


class LinkConfig(_Model):
    """``[[links]]``: a wired point-to-point link."""

    a: str = _field(..., "a node name", "one end")
    b: str = _field(..., "a node name", "the other end")
    rate_mbps: float = _field(
        ..., "number > 0 Mbit/s, <= 1e5", "link rate", gt=0.0, le=MAX_LINK_RATE_MBPS
    )
    delay_ms: float = _field(
        ..., "number 0..1e10 ms", "one-way propagation delay", ge=0.0, le=MAX_TIME_MS
    )
    queue_limit_packets: int = _field(
        100,
        f"integer 1..{MAX_QUEUE_PACKETS} packets",
        "DropTail queue per end",
        ge=1,
        le=MAX_QUEUE_PACKETS,
    )
    loss: float = _field(
        0.0, "number in [0, 1)", "random loss of packets from a to b (netem loss)", ge=0.0, lt=1.0
    )
    reverse_loss: float = _field(
        0.0, "number in [0, 1)", "random loss of packets from b to a", ge=0.0, lt=1.0
    )


class RouteConfig(_Model):
    """``[[routes]]``: a static route; explicit routes win over computed ones."""

    node: str = _field(..., "a node name", "the node that forwards")
    dst: str = _field(..., "a node name", "the destination")
    next_hop: str = _field(..., "a node name, a neighbour of node", "where node sends packets")


FlowKind = Literal["udp-saturating", "udp-cbr", "tcp-bulk", "tcp-file", "clap-file"]


class FlowConfig(_Model):
    """``[[flows]]``: a traffic source; a glob ``src`` gives one flow per matching node."""

    kind: FlowKind = _field(
        ...,
        '"udp-saturating", "udp-cbr", "tcp-bulk", "tcp-file" or "clap-file"',
        "traffic source",
    )
    src: str = _field(
        ...,
        'a node name, or a glob like "sta*" (one flow per matching node except dst)',
        "sender",
    )
    dst: str = _field(..., "a node name", "receiver")
    payload_bytes: int | None = _field(
        None,
        _PAYLOAD_ALLOWED + ", or unset (= top-level payload_bytes); unset for TCP flows",
        "UDP payload",
        ge=1,
    )
    rate_mbps: float | None = _field(
        None,
        'number > 0 Mbit/s, <= 1e4 and <= 10^6 packets/s, for "udp-cbr"; unset for the other kinds',
        "offered load of a CBR flow",
        gt=0.0,
        le=MAX_CBR_RATE_MBPS,
    )
    file_bytes: int | None = _field(
        None,
        'integer 1..10^12 bytes for "tcp-file" and "clap-file"; unset for the other kinds',
        "bytes a tcp-file or clap-file flow transfers",
        ge=1,
        le=MAX_FILE_BYTES,
    )
    cc: str | None = _field(
        None,
        _CC_ALLOWED + ", or unset (= top-level cc, else tcp.cc); TCP flows only",
        "congestion control of this flow",
    )
    recovery: str | None = _field(
        None,
        _RECOVERY_ALLOWED + ", or unset (= top-level recovery, else tcp.recovery); TCP flows only",
        "loss recovery of this flow",
    )
    start_s: float = _field(0.0, "number >= 0 s, < duration_s", "start time", ge=0.0, le=MAX_TIME_S)
    stop_s: float | None = _field(
        None,
        'number > start_s seconds, <= 1e7, or unset (= until the end); unset for "tcp-file"',
        "stop time",
        gt=0.0,
        le=MAX_TIME_S,
    )
    ac: Literal["be", "bk", "vi", "vo"] = _field(
        "be", '"be", "bk", "vi" or "vo"', "EDCA access category (ignored by DCF)"
    )
    report_interval_s: float | None = _field(
        None,
        "number > 0 seconds, >= duration_s / 10^6, or unset (= top-level report_interval_s)",
        "goodput reported per interval, like iperf -i",
        gt=0.0,
        le=MAX_TIME_S,
    )

    @property
    def is_tcp(self) -> bool:
        return self.kind in _TCP_KINDS

    @model_validator(mode="after")
    def _check(self) -> FlowConfig:
        issues: list[_Issue] = []
        kind = f'kind = "{self.kind}"'
        if self.payload_bytes is not None and self.is_tcp:
            issues.append(
                _Issue(
                    ("payload_bytes",),
                    f"not allowed for {kind} (TCP segments carry tcp.mss_bytes of payload)",
                    self.payload_bytes,
                    "unset; set tcp.mss_bytes instead",
                )
            )
        elif self.payload_bytes is not None and self.kind == "clap-file":
            issues.append(
                _Issue(
                    ("payload_bytes",),
                    f"not allowed for {kind} (CLAP segments carry clap.mss_bytes of payload)",
                    self.payload_bytes,
                    "unset; set clap.mss_bytes instead",
                )
            )
        elif self.payload_bytes is not None and self.payload_bytes > MAX_PAYLOAD_BYTES:
            issues.append(
                _Issue(
                    ("payload_bytes",),
                    f"must be <= {MAX_PAYLOAD_BYTES}",
                    self.payload_bytes,
                    _PAYLOAD_ALLOWED,
                )
            )
        if self.kind == "udp-cbr" and self.rate_mbps is None:
            issues.append(
                _Issue(("rate_mbps",), 'required for kind = "udp-cbr"', allowed="number > 0 Mbit/s")
            )
        if self.kind != "udp-cbr" and self.rate_mbps is not None:
            why = (
                "TCP sends as fast as its window allows"
                if self.is_tcp
                else "CLAP's rate comes from its sender's MAC"
                if self.kind == "clap-file"
                else "it sends as fast as it can"
            )
            issues.append(
                _Issue(
                    ("rate_mbps",),
                    f"not allowed for {kind} ({why})",
                    self.rate_mbps,
                    'unset, or kind = "udp-cbr"',
                )
            )
        if self.kind in _FILE_KINDS and self.file_bytes is None:
            issues.append(
                _Issue(
                    ("file_bytes",),
                    f"required for {kind}",
                    allowed="integer >= 1 bytes",
                )
            )
        if self.kind not in _FILE_KINDS and self.file_bytes is not None:
            issues.append(
                _Issue(
                    ("file_bytes",),
                    f"not allowed for {kind} (only tcp-file and clap-file flows have a file)",
                    self.file_bytes,
                    'unset, or kind = "tcp-file" or "clap-file"',
                )
            )
        if self.kind in _FILE_KINDS and self.stop_s is not None:
            issues.append(
                _Issue(
                    ("stop_s",),
                    f"not allowed for {kind} (it ends when the file is delivered)",
                    self.stop_s,
                    'unset, or kind = "tcp-bulk"',
                )
            )
        if self.is_tcp:
            _check_choice(issues, ("cc",), self.cc, CC_NAMES, "congestion control")
            _check_choice(issues, ("recovery",), self.recovery, RECOVERY_NAMES, "loss recovery")
        else:
            for name in ("cc", "recovery"):
                value = getattr(self, name)
                if value is not None:
                    issues.append(
                        _Issue(
                            (name,),
                            f"only used by TCP flows, not {kind}",
                            value,
                            'unset, or kind = "tcp-bulk" or "tcp-file"',
                        )
                    )
        if self.stop_s is not None and self.stop_s <= self.start_s:
            issues.append(
                _Issue(
                    ("stop_s",),
                    f"must be > start_s = {_num(self.start_s)}",
                    self.stop_s,
                    f"number > {_num(self.start_s)} seconds, or unset",
                )
            )
        if issues:
            raise _Issues(issues)
        return self


class ClapConfig(_Model):
    """``[clap]``: parameters of every clap-file flow (docs/clap.md gives each reason)."""

    mss_bytes: int = _field(
        1000,
        f"integer 1..{MAX_CLAP_MSS_BYTES} bytes: the 2304-byte maximum MSDU minus 8 LLC/SNAP, "
        "20 IPv4 and 20 CLAP header bytes",
        "payload per data segment (paper 001: 1000)",
        ge=1,
        le=MAX_CLAP_MSS_BYTES,
    )
    feedback_interval_ms: float = _field(
        100.0,
        "number 0.001..1e10 ms",
        "the receiver sends one aggregate NACK feedback per interval",
        ge=0.001,
        le=MAX_TIME_MS,
    )
    max_nack_ranges: int = _field(
        16, "integer 1..16 ranges", "NACK ranges per feedback (8 bytes each)", ge=1, le=16
    )
    queue_target_frames: int = _field(
        2,
        "integer >= 0 frames",
        "MAC queue length the rate law aims at (q*)",
        ge=0,
        le=_U32_MAX,
    )
    send_buffer_segments: int = _field(
        4096,
        "integer >= 1 segments",
        "new segments are sent only below the cumulative point + this many",
        ge=1,
        le=_U32_MAX,
    )


class TracesConfig(_Model):
    """``[traces]``: which per-event traces the core records."""

    mac_tx: bool = _field(False, "true or false", "one row per MAC transmission attempt")
    packets: bool = _field(False, "true or false", "one row per delivered UDP packet")
    tcp: bool = _field(
        False,
        "true or false",
        "TCP sender state per ACK or timeout: cwnd, ssthresh, srtt, rto, bytes in flight, CA state",
    )
    tcp_segments: bool = _field(
        False,
        "true or false",
        "TCP segment events: sent, retransmit, acked, dupack, timeout (sender); received, "
        "ack_sent (receiver)",
    )
    frames: bool = _field(
        False,
        "true or false",
        "every frame sent or decoded per node and interface, with header bytes (pcap export)",
    )


Standard = Literal["80211a", "80211b", "80211g"]


class Scenario(_Model):
    """A validated scenario. Build one with :func:`load`, :meth:`from_dict` or ``Scenario(...)``."""

    name: str = _field(
        "scenario", "a string of 1..200 characters", "names the run", min_length=1, max_length=200
    )
    topology: Literal["bss", "chain", "custom"] = _field(
        "bss",
        '"bss", "chain" or "custom"',
        "bss: an AP with stations around it; chain: a line of ad-hoc nodes; custom: [[nodes]]",
    )
    stations: int = _field(
        1,
        f'integer 1..{MAX_NODES - 1} (topology "bss" only)',
        'stations "sta1".."staN" around "ap"',
        ge=1,
        le=MAX_NODES - 1,
    )
    hops: int = _field(
        1,
        f'integer 1..{MAX_NODES - 1} (topology "chain" only)',
        'chain "n0".."n{hops}", hops + 1 nodes',
        ge=1,
        le=MAX_NODES - 1,
    )
    spacing_m: float = _field(
        10.0,
        "number > 0 metres, <= 1e6",
        "bss: distance station-AP; chain: distance between neighbours",
        gt=0.0,
        le=MAX_DISTANCE_M,
    )
    standard: Standard = _field("80211a", '"80211a", "80211b" or "80211g"', "PHY standard")
    erp_mixed: bool = _field(
        False, 'true or false (true only with standard = "80211g")', "802.11g b/g mixed mode"
    )
    preamble: Literal["long", "short"] = _field(
        "long", '"long" or "short"', "DSSS/HR-DSSS preamble (802.11b and the DSSS rates of g)"
    )
    data_rate_mbps: float | None = _field(
        None, "a rate of the standard in Mbit/s, or unset", "data frame rate", gt=0.0
    )
    basic_rate_mbps: float | None = _field(
        None, "a rate of the standard in Mbit/s, or unset", "control frame rate", gt=0.0
    )
    payload_bytes: int = _field(
        1500, _PAYLOAD_ALLOWED, "UDP payload per packet (UDP flows only)", ge=1
    )
    duration_s: float = _field(
        10.0, "number > 0 seconds, <= 1e7", "simulated time", gt=0.0, le=MAX_TIME_S
    )
    warmup_s: float = _field(
        0.0,
        "number >= 0 seconds, < duration_s",
        "nothing is counted before this",
        ge=0.0,
        le=MAX_TIME_S,
    )
    report_interval_s: float | None = _field(
        None,
        "number > 0 seconds, >= duration_s / 10^6, or unset (no per-interval report)",
        "every flow's goodput per interval after the warm-up (paper 000: 5 s)",
        gt=0.0,
        le=MAX_TIME_S,
    )
    traffic: Literal["udp", "tcp"] = _field(
        "udp",
        '"udp" or "tcp"',
        'the default flows (no [[flows]]): "udp" = udp-saturating, "tcp" = tcp-bulk',
    )
    cc: str | None = _field(
        None,
        _CC_ALLOWED + "; or unset (= tcp.cc); needs a TCP flow",
        "shortcut for tcp.cc, overriding it",
    )
    recovery: str | None = _field(
        None,
        _RECOVERY_ALLOWED + "; or unset (= tcp.recovery); needs a TCP flow",
        "shortcut for tcp.recovery, overriding it",
    )
    delayed_ack: bool | None = _field(
        None,
        "true, false, or unset (= tcp.delayed_ack); needs a TCP flow",
        "shortcut for tcp.delayed_ack, overriding it",
    )
    min_rto_ms: float | None = _field(
        None,
        "number >= 0 ms, <= tcp.max_rto_ms, or unset (= tcp.min_rto_ms); needs a TCP flow",
        "shortcut for tcp.min_rto_ms, overriding it",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    retry_limit: int | None = _field(
        None,
        "integer 0..31 retransmissions, or unset (= mac.short_retry_limit, mac.long_retry_limit)",
        "shortcut setting both mac.short_retry_limit and mac.long_retry_limit",
        ge=0,
        le=31,
    )
    mac: MacConfig = Field(
        default_factory=MacConfig, json_schema_extra={"allowed": "a table"}, description="[mac]"
    )
    tcp: TcpConfig = Field(
        default_factory=TcpConfig, json_schema_extra={"allowed": "a table"}, description="[tcp]"
    )
    clap: ClapConfig = Field(
        default_factory=ClapConfig, json_schema_extra={"allowed": "a table"}, description="[clap]"
    )
    channel: ChannelConfig = Field(
        default_factory=ChannelConfig,
        json_schema_extra={"allowed": "a table"},
        description="[channel]",
    )
    nodes: list[NodeConfig] = Field(
        default_factory=list,
        json_schema_extra={"allowed": "an array of tables [[nodes]]"},
        description="extra nodes",
    )
    links: list[LinkConfig] = Field(
        default_factory=list,
        json_schema_extra={"allowed": "an array of tables [[links]]"},
        description="wired links",
    )
    routes: list[RouteConfig] = Field(
        default_factory=list,
        json_schema_extra={"allowed": "an array of tables [[routes]]"},
        description="static routes",
    )
    flows: list[FlowConfig] = Field(
        default_factory=list,
        json_schema_extra={"allowed": "an array of tables [[flows]]"},
        description="traffic",
    )
    traces: TracesConfig = Field(
        default_factory=TracesConfig,
        json_schema_extra={"allowed": "a table"},
        description="[traces]",
    )

    _spec: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ScenarioError(_convert_validation_error(exc)) from None

    @model_validator(mode="after")
    def _expand(self) -> Scenario:
        issues: list[_Issue] = []
        if self.payload_bytes > MAX_PAYLOAD_BYTES:
            issues.append(
                _Issue(
                    ("payload_bytes",),
                    f"must be <= {MAX_PAYLOAD_BYTES}",
                    self.payload_bytes,
                    _PAYLOAD_ALLOWED,
                )
            )
        _check_choice(issues, ("cc",), self.cc, CC_NAMES, "congestion control")
        _check_choice(issues, ("recovery",), self.recovery, RECOVERY_NAMES, "loss recovery")
        spec = _build_world_spec(self, issues)
        if issues:
            raise _Issues(issues)
        self._spec = spec
        return self

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scenario:
        """Validate ``data`` (as parsed from TOML); raise :class:`ScenarioError` if invalid."""
        if not isinstance(data, Mapping):
            raise ScenarioError(_line("scenario", "expected a table", data, "a table of fields"))
        check_plain(data)
        try:
            return cls.model_validate(dict(data))
        except ValidationError as exc:
            raise ScenarioError(_convert_validation_error(exc)) from None

    # -- expansion -----------------------------------------------------------------------------

    def to_world_spec(self) -> dict[str, Any]:
        """The explicit world spec (docs/world-spec.md) as a dict; a fresh copy each call."""
        return copy.deepcopy(self._spec)

    def spec_json(self) -> str:
        """The world spec as canonical JSON (sorted keys, no whitespace)."""
        return json.dumps(self._spec, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Defaults that depend on other fields


def default_data_rate_mbps(standard: str) -> float:
    """The standard's highest rate (54 Mbit/s for a and g, 11 for b)."""
    from airtcp.analytic import rates_mbps

    return max(rates_mbps(standard))


def default_basic_rate_mbps(
    standard: str, erp_mixed: bool = False, preamble: str = "long"
) -> float:
    """6 Mbit/s for 802.11a and pure 802.11g; 1 for 802.11b and b/g mixed mode (2 with the
    short preamble, which has no 1 Mbit/s format)."""
    if standard == "80211a" or (standard == "80211g" and not erp_mixed):
        return 6.0
    return 2.0 if preamble == "short" else 1.0


# ---------------------------------------------------------------------------------------------
# Expansion: scenario -> world spec


def _ns(seconds: float) -> int:
    return round(seconds * _NS_PER_S)


def _check_rate(
    issues: list[_Issue], name: str, rate: float, standard: str, rates: tuple[float, ...]
) -> float:
    for r in rates:
        if abs(rate - r) < 1e-9:
            return r
    issues.append(
        _Issue(
            (name,),
            f"not a rate of {standard}",
            rate,
            ", ".join(_num(r) for r in rates) + " (Mbit/s)",
        )
    )
    return rate


class _Node:
    __slots__ = ("loc", "name", "pos", "role")

    def __init__(
        self, name: str, pos: tuple[float, float, float], role: str, loc: tuple[str | int, ...]
    ) -> None:
        self.name, self.pos, self.role, self.loc = name, pos, role, loc

    @property
    def wifi(self) -> bool:
        return self.role != "host"


def _clean(x: float) -> float:
    return round(x, 9) + 0.0  # no -0.0, no 1e-16 noise from cos/sin


def _generated_nodes(s: Scenario) -> list[_Node]:
    if s.topology == "bss":
        nodes = [_Node("ap", (0.0, 0.0, 0.0), "ap", ("topology",))]
        for k in range(s.stations):
            angle = 2.0 * math.pi * k / s.stations
            pos = (
                _clean(s.spacing_m * math.cos(angle)),
                _clean(s.spacing_m * math.sin(angle)),
                0.0,
            )
            nodes.append(_Node(f"sta{k + 1}", pos, "sta", ("stations",)))
        return nodes
    if s.topology == "chain":
        return [
            _Node(f"n{i}", (_clean(i * s.spacing_m), 0.0, 0.0), "adhoc", ("hops",))
            for i in range(s.hops + 1)
        ]
    return []


def _build_world_spec(s: Scenario, issues: list[_Issue]) -> dict[str, Any]:
    """Check what single fields cannot, and expand ``s``; problems go to ``issues``."""
    from airtcp.analytic import rates_mbps

    # -- PHY ---------------------------------------------------------------------------------
    if s.erp_mixed and s.standard != "80211g":
        issues.append(
            _Issue(
                ("erp_mixed",),
                f'b/g mixed mode exists for 802.11g only, not standard = "{s.standard}"',
                True,
                'false, or standard = "80211g"',
            )
        )
    rates = rates_mbps(s.standard)
    data_rate = s.data_rate_mbps if s.data_rate_mbps is not None else max(rates)
    basic_rate = (
        s.basic_rate_mbps
        if s.basic_rate_mbps is not None
        else default_basic_rate_mbps(s.standard, s.erp_mixed, s.preamble)
    )
    data_rate = _check_rate(issues, "data_rate_mbps", data_rate, s.standard, rates)
    basic_rate = _check_rate(issues, "basic_rate_mbps", basic_rate, s.standard, rates)
    if s.preamble == "short" and s.standard != "80211a":
        for name, rate in (("data_rate_mbps", data_rate), ("basic_rate_mbps", basic_rate)):
            if rate == 1.0:
                issues.append(
                    _Issue(
                        (name,),
                        'the 1 Mbit/s DSSS rate has no short-preamble format (preamble = "short")',
                        rate,
                        ", ".join(_num(r) for r in rates if r != 1.0) + ', or preamble = "long"',
                    )
                )
    # Values the core holds in whole nanoseconds and bits per second must not round to 0.
    tiny = [(("duration_s",), s.duration_s, _ns(s.duration_s), "1e-9 seconds")]
    tiny += [
        (("tcp", name), getattr(s.tcp, name), round(getattr(s.tcp, name) * 1e6), "1e-6 ms")
        for name in ("initial_rto_ms", "max_rto_ms")
    ]
    tiny += [
        (("links", i, "rate_mbps"), link.rate_mbps, round(link.rate_mbps * 1e6), "1e-6 Mbit/s")
        for i, link in enumerate(s.links)
    ]
    for loc, value, whole, least in tiny:
        if whole < 1:
            issues.append(
                _Issue(loc, "rounds to 0 in the core's units", value, f"at least {least}")
            )
    if s.warmup_s >= s.duration_s:
        issues.append(
            _Issue(
                ("warmup_s",),
                f"must be < duration_s = {_num(s.duration_s)}",
                s.warmup_s,
                f"number >= 0 and < {_num(s.duration_s)} seconds",
            )
        )
    if s.topology != "bss" and s.stations != 1:
        issues.append(
            _Issue(
                ("stations",),
                f'only used by topology = "bss", not "{s.topology}"',
                s.stations,
                'leave it unset, or topology = "bss"',
            )
        )
    if s.topology != "chain" and s.hops != 1:
        issues.append(
            _Issue(
                ("hops",),
                f'only used by topology = "chain", not "{s.topology}"',
                s.hops,
                'leave it unset, or topology = "chain"',
            )
        )

    # -- nodes -------------------------------------------------------------------------------
    nodes = _generated_nodes(s)
    generated = {n.name for n in nodes}
    index: dict[str, int] = {n.name: i for i, n in enumerate(nodes)}
    for i, cfg in enumerate(s.nodes):
        loc = ("nodes", i, "name")
        if not safe_name(cfg.name):
            # Node names become file names (pcap export) and glob targets: a safe alphabet.
            issues.append(_Issue(loc, "not a valid node name", cfg.name, NAME_ALLOWED))
            continue
        if cfg.name in index:
            where = (
                f'generated by topology = "{s.topology}"'
                if cfg.name in generated
                else "used by an earlier [[nodes]] entry"
            )
            issues.append(
                _Issue(loc, f"duplicate node name ({where})", cfg.name, "a name not yet used")
            )
            continue
        index[cfg.name] = len(nodes)
        nodes.append(_Node(cfg.name, (cfg.x_m, cfg.y_m, cfg.z_m), cfg.role, ("nodes", i)))
    names = [n.name for n in nodes]
    n = len(nodes)
    if n > MAX_NODES:
        issues.append(
            _Issue(
                ("nodes",),
                f"the scenario has {n} nodes, more than the limit of {MAX_NODES}",
                _Raw(f"{n} nodes"),
                f"at most {MAX_NODES} nodes in all (generated and [[nodes]])",
            )
        )
        return {}
    _check_intervals(issues, ("report_interval_s",), s.report_interval_s, s)
    if "flows" in s.model_fields_set and not s.flows:
        issues.append(
            _Issue(
                ("flows",),
                "an empty list leaves the scenario without traffic",
                [],
                "at least one [[flows]] entry, or no flows key (the topology's default flows)",
            )
        )
    if s.topology == "custom" and not s.nodes:
        issues.append(
            _Issue(("nodes",), "a custom topology needs at least one [[nodes]] entry", [], "")
        )

    ch = s.channel
    rx_range = ch.rx_range_m
    cs_range = ch.cs_range_m if ch.cs_range_m is not None else rx_range
    matrix = ch.matrix
    matrix_ok = False
    if matrix is None and s.topology in ("bss", "chain") and s.spacing_m > rx_range + 1e-9:
        what = "stations to the AP" if s.topology == "bss" else "neighbouring chain nodes"
        issues.append(
            _Issue(
                ("spacing_m",),
                f"{what} are out of range (channel.rx_range_m = {_num(rx_range)})",
                s.spacing_m,
                f"number > 0 and <= {_num(rx_range)} metres",
            )
        )
    if matrix is not None:
        for key in ("rx", "cs"):
            rows = getattr(matrix, key)
            bad = len(rows) != n or any(len(r) != n for r in rows)
            if bad:
                lengths = sorted({len(r) for r in rows})
                got = _Raw(f"{len(rows)} rows of {'/'.join(map(str, lengths)) or 0} entries")
                issues.append(
                    _Issue(
                        ("channel", "matrix", key),
                        f"must be {n} x {n}, one row and column per node in order",
                        got,
                        f"{n} rows of {n} entries 0/1 for nodes {_names(names)}",
                    )
                )
        matrix_ok = not any(i.loc[:2] == ("channel", "matrix") for i in issues)
        if matrix_ok:
            for i in range(n):
                for j in range(n):
                    if i != j and matrix.rx[i][j] and not matrix.cs[i][j]:
                        issues.append(
                            _Issue(
                                ("channel", "matrix", "cs", i, j),
                                f"must be 1 where channel.matrix.rx.{i}.{j} is 1 "
                                f"({names[j]} decodes {names[i]}, so it senses it too)",
                                0,
                                "1",
                            )
                        )

    def known(name: str, loc: tuple[str | int, ...]) -> int | None:
        if name in index:
            return index[name]
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {json.dumps(close[0])}?" if close else ""
        issues.append(_Issue(loc, f"unknown node{hint}", name, f"one of {_names(names)}"))
        return None

    # -- wired links -------------------------------------------------------------------------
    wired: list[set[int]] = [set() for _ in range(n)]
    links_spec = []
    for i, link in enumerate(s.links):
        a = known(link.a, ("links", i, "a"))
        b = known(link.b, ("links", i, "b"))
        if a is None or b is None:
            continue
        if a == b:
            issues.append(
                _Issue(("links", i, "b"), "a link needs two different nodes", link.b, "not a")
            )
            continue
        if b in wired[a]:
            issues.append(
                _Issue(
                    ("links", i),
                    f"duplicate link between {json.dumps(link.a)} and {json.dumps(link.b)}",
                    _Raw(f"{link.a} - {link.b} again"),
                    "one link per node pair",
                )
            )
            continue
        wired[a].add(b)
        wired[b].add(a)
        links_spec.append(
            {
                "a": a,
                "b": b,
                "rate_bps": round(link.rate_mbps * 1e6),
                "delay_ns": round(link.delay_ms * 1e6),
                "queue_limit_packets": link.queue_limit_packets,
                "loss": link.loss,
                "reverse_loss": link.reverse_loss,
            }
        )

    # -- wireless adjacency ------------------------------------------------------------------
    def hears(i: int, j: int) -> bool:
        """Node j decodes node i."""
        if matrix is not None and matrix_ok:
            return bool(matrix.rx[i][j])
        return math.dist(nodes[i].pos, nodes[j].pos) <= rx_range + 1e-9

    def radio_neighbours(i: int, j: int) -> bool:
        return i != j and nodes[i].wifi and nodes[j].wifi and hears(i, j) and hears(j, i)

    chain_len = s.hops + 1 if s.topology == "chain" else 0

    def may_talk(i: int, j: int) -> bool:
        """Roles allow a direct wireless hop between i and j."""
        ri, rj = nodes[i].role, nodes[j].role
        if i < chain_len and j < chain_len:
            return abs(i - j) == 1  # path enforcement along the chain (paper 000)
        pair = {ri, rj}
        if "host" in pair:
            return False
        if "sta" in pair:
            return pair == {"sta", "ap"}
        return pair != {"ap"}  # adhoc-adhoc, adhoc-ap; not ap-ap (APs meet over wires)

    # -- explicit routes ---------------------------------------------------------------------
    explicit: dict[tuple[int, int], int] = {}
    for i, route in enumerate(s.routes):
        u = known(route.node, ("routes", i, "node"))
        d = known(route.dst, ("routes", i, "dst"))
        v = known(route.next_hop, ("routes", i, "next_hop"))
        if u is None or d is None or v is None:
            continue
        if u == d:
            issues.append(
                _Issue(("routes", i, "dst"), "a node needs no route to itself", route.dst, "")
            )
            continue
        if v == u or not (v in wired[u] or radio_neighbours(u, v)):
            neighbours = [names[k] for k in range(n) if k in wired[u] or radio_neighbours(u, k)]
            issues.append(
                _Issue(
                    ("routes", i, "next_hop"),
                    f"not a neighbour of {json.dumps(route.node)}",
                    route.next_hop,
                    f"one of {_names(neighbours)}" if neighbours else "none: the node is isolated",
                )
            )
            continue
        if (u, d) in explicit:
            issues.append(
                _Issue(
                    ("routes", i),
                    f"a second route at {json.dumps(route.node)} for {json.dumps(route.dst)}",
                    _Raw(f"{route.node} -> {route.dst} again"),
                    "one route per (node, dst)",
                )
            )
            continue
        explicit[(u, d)] = v

    # -- flows (names) -----------------------------------------------------------------------
    flow_pairs: list[tuple[FlowConfig | None, tuple[str | int, ...], int, int]] = []
    if s.flows:
        for i, flow in enumerate(s.flows):
            d = known(flow.dst, ("flows", i, "dst"))
            if flow.rate_mbps is not None:
                payload = flow.payload_bytes if flow.payload_bytes is not None else s.payload_bytes
                pps = flow.rate_mbps * 1e6 / (8 * payload)
                if pps > MAX_CBR_PACKETS_PER_S:
                    issues.append(
                        _Issue(
                            ("flows", i, "rate_mbps"),
                            f"{pps:.3g} packets per second of {payload} bytes, more than the "
                            f"limit of {MAX_CBR_PACKETS_PER_S}",
                            flow.rate_mbps,
                            f"number > 0 and <= {_num(MAX_CBR_PACKETS_PER_S * 8 * payload / 1e6)}"
                            f" Mbit/s for {payload}-byte packets",
                        )
                    )
            _check_intervals(issues, ("flows", i, "report_interval_s"), flow.report_interval_s, s)
            if flow.start_s >= s.duration_s:
                issues.append(
                    _Issue(
                        ("flows", i, "start_s"),
                        f"must be < duration_s = {_num(s.duration_s)}",
                        flow.start_s,
                        f"number >= 0 and < {_num(s.duration_s)} seconds",
                    )
                )
            if any(c in flow.src for c in _GLOB_CHARS):
                srcs = [k for k, nm in enumerate(names) if fnmatch.fnmatchcase(nm, flow.src)]
                srcs = [k for k in srcs if k != d]
                if not srcs:
                    issues.append(
                        _Issue(
                            ("flows", i, "src"),
                            "the glob matches no node (other than dst)",
                            flow.src,
                            f"a glob matching some of {_names(names)}",
                        )
                    )
            else:
                k = known(flow.src, ("flows", i, "src"))
                srcs = [] if k is None else [k]
                if k is not None and k == d:
                    issues.append(
                        _Issue(("flows", i, "dst"), "same node as src", flow.dst, "not src")
                    )
                    srcs = []
            if d is not None:
                flow_pairs.extend((flow, ("flows", i), src, d) for src in srcs)
    elif s.topology == "bss":
        flow_pairs = [(None, ("flows",), k, 0) for k in range(1, s.stations + 1)]
    elif s.topology == "chain":
        flow_pairs = [(None, ("flows",), 0, s.hops)]
    else:
        issues.append(
            _Issue(("flows",), "a custom topology needs at least one [[flows]] entry", [], "")
        )

    # -- TCP: the shortcuts over [tcp] ---------------------------------------------------------
    default_kind = "tcp-bulk" if s.traffic == "tcp" else "udp-saturating"
    has_tcp = (
        any(f.is_tcp for f in s.flows) if s.flows else s.traffic == "tcp" and s.topology != "custom"
    )
    for name in ("cc", "recovery", "delayed_ack", "min_rto_ms"):
        value = getattr(s, name)
        if value is not None and not has_tcp:
            issues.append(
                _Issue(
                    (name,),
                    "only used by TCP flows, and the scenario has none",
                    value,
                    'unset, or traffic = "tcp" (default flows), or [[flows]] of kind '
                    '"tcp-bulk" or "tcp-file"',
                )
            )
    t = s.tcp
    min_rto = s.min_rto_ms if s.min_rto_ms is not None else t.min_rto_ms
    if min_rto > t.max_rto_ms:
        if s.min_rto_ms is not None:
            issues.append(
                _Issue(
                    ("min_rto_ms",),
                    f"must be <= tcp.max_rto_ms = {_num(t.max_rto_ms)}",
                    s.min_rto_ms,
                    f"number 0..{_num(t.max_rto_ms)} ms, or unset",
                )
            )
        else:
            issues.append(
                _Issue(
                    ("tcp", "max_rto_ms"),
                    f"must be >= tcp.min_rto_ms = {_num(t.min_rto_ms)}",
                    t.max_rto_ms,
                    f"number >= {_num(t.min_rto_ms)} ms",
                )
            )
    delayed_ack = s.delayed_ack if s.delayed_ack is not None else t.delayed_ack
    tcp_base = {
        "cc": s.cc if s.cc is not None else t.cc,
        "recovery": s.recovery if s.recovery is not None else t.recovery,
        "mss_bytes": t.mss_bytes,
        "min_rto_ms": float(min_rto),
        "max_rto_ms": float(t.max_rto_ms),
        "initial_rto_ms": float(t.initial_rto_ms),
        "clock_granularity_ms": float(t.clock_granularity_ms),
        "timestamps": t.timestamps,
        "limited_transmit": t.limited_transmit,
        "initial_cwnd": t.initial_cwnd,
        "ack_every": t.ack_every if delayed_ack else 1,
        "delack_timeout_ms": float(t.delack_timeout_ms),
        "rcv_buf_bytes": t.rcv_buf_bytes,
        "snd_buf_bytes": t.snd_buf_bytes,
        "hystart": t.hystart,
    }

    if issues:
        return {}

    # -- computed routes: shortest hop count, ties to the lowest node index ------------------
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j in wired[i] or (may_talk(i, j) and radio_neighbours(i, j)):
                adj[i].append(j)
                adj[j].append(i)
    for row in adj:
        row.sort()

    next_hop: dict[tuple[int, int], int] = {}
    for d in range(n):
        dist = [-1] * n
        dist[d] = 0
        queue = deque([d])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        for u in range(n):
            if dist[u] > 0:
                next_hop[(u, d)] = next(v for v in adj[u] if dist[v] == dist[u] - 1)
    next_hop.update(explicit)

    routes_spec = [
        {"node": u, "dst": d, "next_hop": v}
        for (u, d), v in sorted(next_hop.items())
        if v != d or (u, d) in explicit
    ]

    # -- flows (reachability) ----------------------------------------------------------------
    flows_spec = []
    for fcfg, floc, src, dst in flow_pairs:
        problem = _trace_path(src, dst, next_hop, names)
        if problem:
            label = f"{names[src]} -> {names[dst]}"
            if fcfg is None:
                what = f'default flow {label} (topology "{s.topology}"): {problem}'
            else:
                what = f"{names[dst]} is unreachable from {names[src]}: {problem}"
                floc = (*floc, "dst")
            reach = [
                names[k]
                for k in range(n)
                if k != src and _trace_path(src, k, next_hop, names) is None
            ]
            allowed = f"a node reachable from {names[src]}: {_names(reach)}" if reach else ""
            if not reach:
                allowed = _isolation_hint(nodes[src], rx_range)
            issues.append(_Issue(floc, what, names[dst], allowed))
            continue
        kind = fcfg.kind if fcfg else default_kind
        if kind == "clap-file":
            first = next_hop.get((src, dst), dst)
            why = None
            if not nodes[src].wifi:
                why = f"{names[src]} has no WiFi"
            elif first in wired[src]:
                why = f"its first hop {names[src]} -> {names[first]} is a wired link"
            if why is not None:
                # docs/clap.md: the sender's own MAC feeds the rate law; a wired sender (data
                # downlink through the AP) is an open question.
                issues.append(
                    _Issue(
                        (*floc, "src"),
                        f"a CLAP sender must send over its own WiFi MAC (its MAC feeds the "
                        f"rate), but {why}",
                        names[src],
                        "a WiFi node (not a wired host) whose first hop toward dst is radio",
                    )
                )
                continue
        answers = kind in (*_TCP_KINDS, "clap-file")  # ACKs or feedback come back
        back = _trace_path(dst, src, next_hop, names) if answers else None
        if back:
            where = f"{names[src]} -> {names[dst]}"
            acks = "feedback" if kind == "clap-file" else "ACKs"
            issues.append(
                _Issue(
                    (*floc, "dst") if fcfg is not None else floc,
                    f"{'CLAP' if kind == 'clap-file' else 'TCP'} flow {where}: its {acks} "
                    f"cannot get back from {names[dst]} to {names[src]}: {back}",
                    names[dst],
                    "a destination with a route back (check [[routes]] and channel.matrix)",
                )
            )
            continue
        payload = s.payload_bytes
        if fcfg is not None and fcfg.payload_bytes is not None:
            payload = fcfg.payload_bytes
        flow = {
            "kind": kind.replace("-", "_"),
            "src": src,
            "dst": dst,
            "payload_bytes": payload,
            "rate_bps": round(fcfg.rate_mbps * 1e6) if fcfg and fcfg.rate_mbps else None,
            "start_ns": _ns(fcfg.start_s) if fcfg else 0,
            "stop_ns": _ns(fcfg.stop_s) if fcfg and fcfg.stop_s is not None else None,
            "ac": fcfg.ac if fcfg else "be",
        }
        interval = s.report_interval_s
        if fcfg is not None and fcfg.report_interval_s is not None:
            interval = fcfg.report_interval_s
        if interval is not None:
            flow["report_interval_ns"] = _ns(interval)
        if kind in _TCP_KINDS:
            tcp = dict(tcp_base)
            if fcfg is not None and fcfg.cc is not None:
                tcp["cc"] = fcfg.cc
            if fcfg is not None and fcfg.recovery is not None:
                tcp["recovery"] = fcfg.recovery
            flow["payload_bytes"] = tcp["mss_bytes"]
            flow["file_bytes"] = fcfg.file_bytes if fcfg else None
            flow["tcp"] = tcp
        if kind == "clap-file" and fcfg is not None:
            c = s.clap
            segments = -(-(fcfg.file_bytes or 0) // c.mss_bytes)
            if segments > MAX_CLAP_SEGMENTS:
                issues.append(
                    _Issue(
                        (*floc, "file_bytes"),
                        f"{segments} segments of clap.mss_bytes = {c.mss_bytes}, more than "
                        f"CLAP's {MAX_CLAP_SEGMENTS}",
                        fcfg.file_bytes,
                        f"at most {MAX_CLAP_SEGMENTS} x clap.mss_bytes bytes",
                    )
                )
                continue
            flow["payload_bytes"] = c.mss_bytes
            flow["file_bytes"] = fcfg.file_bytes
            flow["clap"] = {
                "mss_bytes": c.mss_bytes,
                "feedback_interval_ms": float(c.feedback_interval_ms),
                "max_nack_ranges": c.max_nack_ranges,
                "queue_target_frames": c.queue_target_frames,
                "send_buffer_segments": c.send_buffer_segments,
            }
        flows_spec.append(flow)
    if issues:
        return {}

    mac = s.mac
    return {
        "duration_ns": _ns(s.duration_s),
        "warmup_ns": _ns(s.warmup_s),
        "wifi": {
            "standard": s.standard,
            "erp_mixed": s.erp_mixed,
            "preamble": s.preamble,
            "data_rate_mbps": float(data_rate),
            "basic_rate_mbps": float(basic_rate),
            "access": mac.access,
            "cw_min": mac.cw_min,
            "cw_max": mac.cw_max,
            "aifsn": mac.aifsn,
            "short_retry_limit": s.retry_limit
            if s.retry_limit is not None
            else mac.short_retry_limit,
            "long_retry_limit": s.retry_limit
            if s.retry_limit is not None
            else mac.long_retry_limit,
            "rts_threshold_bytes": mac.rts_threshold_bytes,
            "queue_limit_packets": mac.queue_limit_packets,
        },
        "channel": {
            "rx_range_m": float(rx_range),
            "cs_range_m": float(cs_range),
            "matrix": None
            if matrix is None
            else {"rx": [list(r) for r in matrix.rx], "cs": [list(r) for r in matrix.cs]},
            "error": ch.error.model_dump(),
            "preamble_detection": ch.preamble_detection,
        },
        "nodes": [
            {
                "name": node.name,
                "position_m": [float(c) for c in node.pos],
                "wifi": node.wifi,
                "role": node.role,
            }
            for node in nodes
        ],
        "wired_links": links_spec,
        "routes": routes_spec,
        "flows": flows_spec,
        "traces": s.traces.model_dump(),
    }


def _check_intervals(
    issues: list[_Issue], loc: tuple[str | int, ...], interval_s: float | None, s: Scenario
) -> None:
    """An issue if a report interval cuts the run into more than MAX_REPORT_INTERVALS."""
    if interval_s is not None and s.duration_s / interval_s > MAX_REPORT_INTERVALS:
        least = s.duration_s / MAX_REPORT_INTERVALS
        issues.append(
            _Issue(
                loc,
                f"cuts duration_s = {_num(s.duration_s)} into more than "
                f"{MAX_REPORT_INTERVALS} intervals",
                interval_s,
                f"number >= {least:.3g} seconds (duration_s / {MAX_REPORT_INTERVALS}), or unset",
            )
        )


def _trace_path(
    src: int, dst: int, next_hop: dict[tuple[int, int], int], names: list[str]
) -> str | None:
    """Follow the route table from src to dst; None if it arrives, else why not."""
    seen = {src}
    u = src
    while u != dst:
        v = next_hop.get((u, dst))
        if v is None:
            return f"no path from {names[u]}" if u == src else f"no route at {names[u]}"
        if v in seen:
            return f"routing loop through {names[v]}"
        seen.add(v)
        u = v
    return None


def _isolation_hint(node: _Node, rx_range: float) -> str:
    if node.role == "sta":
        return f"a station needs an access point within channel.rx_range_m = {_num(rx_range)} m"
    if node.role == "host":
        return "a host needs a [[links]] entry"
    return f"a neighbour within channel.rx_range_m = {_num(rx_range)} m, or a [[links]] entry"


# ---------------------------------------------------------------------------------------------
# pydantic errors -> our messages


def _strip_optional(tp: Any) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        args = tuple(a for a in get_args(tp) if a is not type(None))
        return args[0] if len(args) == 1 else args
    return tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _tag_of(model: type[BaseModel]) -> str | None:
    field = model.model_fields.get("kind")
    if field is not None and get_origin(field.annotation) is Literal:
        return get_args(field.annotation)[0]
    return None


def _walk(loc: tuple[str | int, ...]) -> tuple[str, type[BaseModel] | None, FieldInfo | None]:
    """(dotted path, model the last key was looked up in, field) for a pydantic ``loc``.

    The tag segment pydantic inserts for a discriminated union is dropped from the path.
    """
    path: list[str] = []
    tp: Any = Scenario
    owner: type[BaseModel] | None = None
    field: FieldInfo | None = None
    for key in loc:
        tp = _strip_optional(tp)
        if isinstance(tp, tuple):
            chosen = next((m for m in tp if _is_model(m) and _tag_of(m) == key), None)
            if chosen is not None:
                tp = chosen
                continue
        path.append(_segment(key))
        if isinstance(key, int):
            tp = get_args(tp)[0] if get_origin(tp) is list else None
            continue
        if _is_model(tp):
            owner = tp
            field = tp.model_fields.get(key)
            tp = field.annotation if field is not None else None
        else:
            owner, tp = None, None
    return ".".join(path) or "scenario", owner, field


def _allowed_of(field: FieldInfo | None) -> str:
    extra = field.json_schema_extra if field is not None else None
    return str(extra.get("allowed", "")) if isinstance(extra, dict) else ""


_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}
_BOUNDS = {
    "greater_than": ("gt", ">"),
    "greater_than_equal": ("ge", ">="),
    "less_than": ("lt", "<"),
    "less_than_equal": ("le", "<="),
}


def _convert_validation_error(exc: ValidationError) -> list[str]:
    lines: list[str] = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        kind = err["type"]
        ctx = err.get("ctx") or {}
        got = err.get("input", _NO_VALUE)
        if kind == "value_error" and isinstance(ctx.get("error"), ScenarioError):
            lines.extend(ctx["error"].problems)  # raised by Scenario.__init__ under model_validate
            continue
        if kind == "value_error" and isinstance(ctx.get("error"), _Issues):
            for issue in ctx["error"].issues:
                path, _, field = _walk(loc + issue.loc)
                lines.append(
                    _line(path, issue.what, issue.got, issue.allowed or _allowed_of(field))
                )
            continue
        path, owner, field = _walk(loc)
        allowed = _allowed_of(field)
        if kind == "extra_forbidden":
            keys = list(owner.model_fields) if owner is not None else []
            close = difflib.get_close_matches(str(loc[-1]), keys, n=1)
            hint = f"; did you mean {json.dumps(close[0])}?" if close else ""
            lines.append(f"{_clip(path, 120)}: unknown field{hint} (allowed: {', '.join(keys)})")
            continue
        if kind == "missing":
            lines.append(_line(path, "required field is missing", allowed=allowed))
            continue
        if kind in _TYPE_WORDS:
            what = f"wrong type: expected {_TYPE_WORDS[kind]}"
            if isinstance(got, bool) and kind.startswith(("int", "float")):
                what += " (true/false is not a number)"
        elif kind in _BOUNDS:
            key, op = _BOUNDS[kind]
            what = f"must be {op} {_num(ctx.get(key))}"
        elif kind == "finite_number":
            what = "must be a finite number"
        elif kind in ("literal_error", "enum"):
            what = "not an allowed value"
            allowed = allowed or str(ctx.get("expected", ""))
        elif kind == "union_tag_invalid":
            path += ".kind"
            what, got = "unknown kind", ctx.get("tag", got)
        elif kind == "union_tag_not_found":
            path += ".kind"
            what, got = "required field is missing", _NO_VALUE
        elif kind == "string_too_short":
            what = "must not be empty"
        elif kind == "value_error":
            what = str(ctx.get("error", err["msg"]))
        else:
            what = err["msg"][:1].lower() + err["msg"][1:]
        lines.append(_line(path, what, got, allowed))
    return lines


# ---------------------------------------------------------------------------------------------
# TOML and overrides

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


# Deepest nesting of tables and arrays a scenario may have (the deepest real one has 4).
MAX_DEPTH = 32


def check_plain(data: object, root: str = "scenario") -> None:
    """Raise :class:`ScenarioError` unless ``data`` is nested at most MAX_DEPTH deep and every
    table key is a string (what TOML can express). Iterative: no recursion on deep input."""
    stack: list[tuple[object, str, int]] = [(data, root, 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, Mapping):
            items: Iterable[tuple[object, object]] = value.items()
        elif isinstance(value, list | tuple):
            items = enumerate(value)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise ScenarioError(
                f"{_clip(path)}: nested more than {MAX_DEPTH} tables or arrays deep "
                f"(allowed: at most {MAX_DEPTH})"
            )
        for key, item in items:
            if isinstance(value, Mapping) and not isinstance(key, str):
                raise ScenarioError(
                    _line(
                        _clip(path),
                        "a table key is not a string",
                        _Raw(_clip(repr(key))),
                        "string keys, as in TOML",
                    )
                )
            sub = _segment(key) if path == root else f"{path}.{_segment(key)}"
            stack.append((item, sub, depth + 1))


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ScenarioError(
            f"{source}: invalid TOML: nested too deeply (allowed: at most {MAX_DEPTH} levels)"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        if m:
            where = f"line {m.group(1)} column {m.group(2)}"
            msg = msg[: m.start()]
        else:
            where = "the end of the file"
            msg = msg.replace("(at end of document)", "").strip()
        raise ScenarioError(f"{source}: invalid TOML at {where}: {msg}") from None


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a scenario file into a plain dict (not yet validated).

    Raises FileNotFoundError if it does not exist, ScenarioError if it is not valid TOML.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise ScenarioError(f"{path}: is a directory, not a scenario file") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return _parse_toml(text, str(path))


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario TOML file."""
    return Scenario.from_dict(load_toml(path))


def _split_key(key: str) -> list[str | int]:
    parts: list[str | int] = []
    for part in key.split("."):
        part = part.strip()
        if not part:
            raise ScenarioError(
                f"{_clip(json.dumps(key))}: empty segment in dotted key (allowed: e.g. mac.aifsn)"
            )
        parts.append(int(part) if part.isdigit() else part)
    return parts


def set_dotted(data: dict[str, Any], key: str, value: object) -> None:
    """Set ``data[a][b][0][c] = value`` for key ``"a.b.0.c"``, creating missing tables."""
    parts = _split_key(key)
    cur: Any = data
    for depth, part in enumerate(parts):
        here = ".".join(str(p) for p in parts[: depth + 1])
        last = depth == len(parts) - 1
        nxt = None if last else parts[depth + 1]
        if isinstance(cur, dict):
            if isinstance(part, int):
                part = str(part)
            if last:
                cur[part] = value
            elif part not in cur:
                if isinstance(nxt, int):
                    raise ScenarioError(f"{here}: the scenario has no entries here to index into")
                cur[part] = {}
            cur = None if last else cur[part]
        elif isinstance(cur, list):
            if not isinstance(part, int) or part >= len(cur):
                raise ScenarioError(
                    _line(here, "no such entry", part, f"an index 0..{len(cur) - 1}")
                    if cur
                    else f"{here}: the array is empty"
                )
            if last:
                cur[part] = value
            else:
                cur = cur[part]
        else:
            parent = ".".join(str(p) for p in parts[:depth])
            raise ScenarioError(
                _line(here, f"{parent} is not a table, cannot set a key inside it", cur)
            )


def _expects_string(key: str) -> bool:
    try:
        loc = tuple(_split_key(key))
    except ScenarioError:
        return False
    _, _, field = _walk(loc)
    if field is None:
        return False
    tp = _strip_optional(field.annotation)
    if tp is str:
        return True
    return get_origin(tp) is Literal and all(isinstance(a, str) for a in get_args(tp))


def parse_override_value(key: str, raw: str) -> object:
    """``raw`` as a TOML value; a plain string if it is not one or if ``key`` wants a string."""
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw
    except RecursionError:
        raise ScenarioError(
            f"--set {_clip(key)}: value nested too deeply (allowed: at most {MAX_DEPTH} levels)"
        ) from None
    if not isinstance(value, str) and _expects_string(key):
        return raw
    return value


def apply_overrides(data: Mapping[str, Any], overrides: Iterable[str]) -> dict[str, Any]:
    """Apply ``KEY=VALUE`` strings (``--set``) to a copy of ``data``; validate it afterwards.

    Keys are dotted paths (``mac.short_retry_limit``, ``flows.0.rate_mbps``); values are TOML
    values (``20``, ``true``, ``"80211b"``, ``[1, 2]``), or plain strings if they do not parse
    or if the field wants a string (so ``standard=80211b`` works unquoted).
    """
    check_plain(data)
    out = copy.deepcopy(dict(data))
    problems: list[str] = []
    for item in overrides:
        key, sep, raw = str(item).partition("=")
        key = key.strip()
        if not sep or not key:
            problems.append(
                f"--set {_clip(str(item))}: expected KEY=VALUE (got {_fmt(str(item))}; "
                "allowed: e.g. stations=20 or mac.short_retry_limit=3)"
            )
            continue
        try:
            set_dotted(out, key, parse_override_value(key, raw))
        except ScenarioError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ScenarioError(problems)
    return out


def apply_value_overrides(
    data: Mapping[str, Any], overrides: Mapping[str, object]
) -> dict[str, Any]:
    """Like :func:`apply_overrides` but with Python values: ``{"mac.aifsn": 3}``."""
    check_plain(data)
    check_plain(overrides, "overrides")
    out = copy.deepcopy(dict(data))
    problems: list[str] = []
    for key, value in overrides.items():
        try:
            set_dotted(out, str(key), value)
        except ScenarioError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ScenarioError(problems)
    return out
