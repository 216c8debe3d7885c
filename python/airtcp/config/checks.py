"""The scenario models' own checks, in a module that does not import pydantic.

Each function checks one model's values once its fields are valid alone (an ``after``
validator): the pydantic models (:mod:`airtcp.config.models`) call them, and so does the plain
validator (:mod:`airtcp.config.plain`), which validates a scenario without pydantic and leaves
to pydantic only a scenario it cannot vouch for. A function reads its model's fields as
attributes and raises :class:`~airtcp.config.errors._Issues` (or :class:`ScenarioError`) with
what is wrong. The registries (``AFTER``, ``FIELD_BEFORE``, ``FIELD_AFTER``) name each
function's model; ``python -m airtcp.config.tablegen`` refuses a model whose validator is not
in them, so the two validators cannot drift apart.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from airtcp.config.errors import (
    ScenarioError,
    _check_choice,
    _Issue,
    _Issues,
    _num,
    _Raw,
)
from airtcp.config.expand import build_world_spec
from airtcp.config.limits import (
    _FILE_KINDS,
    _PAYLOAD_ALLOWED,
    _TCP_KINDS,
    _U32_MAX,
    CC_NAMES,
    FLOW_KINDS,
    MAX_DISTANCE_M,
    MAX_PAYLOAD_BYTES,
    MAX_TIME_S,
    RATE_CONTROL_NAMES,
    RECOVERY_NAMES,
)

# The model (class name) of each check: ``after`` model validators, and ``before`` and
# ``after`` field validators keyed by (model, field).
AFTER: dict[str, Callable[[Any], None]] = {}
FIELD_BEFORE: dict[tuple[str, str], Callable[[Any], Any]] = {}
FIELD_AFTER: dict[tuple[str, str], Callable[[Any], Any]] = {}


def _after(model: str) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    def register(check: Callable[[Any], None]) -> Callable[[Any], None]:
        AFTER[model] = check
        return check

    return register


def _field(
    table: dict[tuple[str, str], Callable[[Any], Any]], model: str, field: str
) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    def register(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
        table[model, field] = check
        return check

    return register


# The radio model's fields of [channel]: set only with model = "radio".
RADIO_FIELDS = (
    "path_loss",
    "path_loss_exponent",
    "reference_distance_m",
    "reference_loss_db",
    "frequency_ghz",
    "system_loss_db",
    "tx_power_dbm",
    "tx_power_by_rate_dbm",
    "noise_figure_db",
    "rx_sensitivity_dbm",
    "rx_sensitivity_by_rate_dbm",
    "cca_threshold_dbm",
    "error_model",
    "exact",
    "fading",
    "nakagami_m",
    "coherence_ms",
    "doppler_hz",
    "estimation",
    "preamble_detection_snr_db",
    "preamble_detection_min_rssi_dbm",
    "capture",
    "capture_margin_db",
    "capture_window_us",
    "shadowing_db",
    "fading_seed",
)
# The range model's fields: set only with model = "range".
RANGE_FIELDS = ("rx_range_m", "cs_range_m", "matrix", "error")
_PACED_KINDS = ("udp_cbr", "udp_poisson", "udp_onoff")


@_after("MacConfig")
def mac(m: Any) -> None:
    """[mac]: the rate control's name, the data header of its access, txq beside a qdisc, the
    AQL and CW bounds in order."""
    issues: list[_Issue] = []
    _check_choice(issues, ("rate_control",), m.rate_control, RATE_CONTROL_NAMES, "rate control")
    if m.data_header_bytes is not None:
        pair = (26, 32, 38) if m.access == "edca" else (24, 30)
        if m.data_header_bytes not in pair:
            mesh = " or 38 (mesh)" if m.access == "edca" else ""
            issues.append(
                _Issue(
                    ("data_header_bytes",),
                    f"not a data header of {m.access} access",
                    m.data_header_bytes,
                    f"{pair[0]} (three addresses) or {pair[1]} (four){mesh}, or unset",
                )
            )
    if m.txq != "none" and m.qdisc != "none":
        issues.append(
            _Issue(
                ("txq",),
                f'not with qdisc = "{m.qdisc}" (Linux today runs noqueue above them)',
                m.txq,
                '"none", or qdisc = "none"',
            )
        )
    if m.codel_ecn is not None and m.qdisc not in ("codel", "fq-codel"):
        issues.append(
            _Issue(
                ("codel_ecn",),
                f'set with qdisc = "{m.qdisc}" (only CoDel marks)',
                m.codel_ecn,
                'unset, or qdisc = "codel" or "fq-codel"',
            )
        )
    if m.aql_high_us < m.aql_low_us:
        issues.append(
            _Issue(
                ("aql_high_us",),
                f"must be >= mac.aql_low_us = {m.aql_low_us}",
                m.aql_high_us,
                f"integer {m.aql_low_us}..10^6 us",
            )
        )
    if m.cw_min is not None and m.cw_max is not None and m.cw_max < m.cw_min:
        issues.append(
            _Issue(
                ("cw_max",),
                f"must be >= mac.cw_min = {m.cw_min}",
                m.cw_max,
                f"integer {m.cw_min}..32767 slots",
            )
        )
    if issues:
        raise _Issues(issues)


@_after("TcpConfig")
def tcp(m: Any) -> None:
    """[tcp]: the congestion control's and loss recovery's names, buffers of at least a
    segment."""
    issues: list[_Issue] = []
    _check_choice(issues, ("cc",), m.cc, CC_NAMES, "congestion control")
    _check_choice(issues, ("recovery",), m.recovery, RECOVERY_NAMES, "loss recovery")
    for name in ("rcv_buf_bytes", "snd_buf_bytes"):
        value = getattr(m, name)
        if value < m.mss_bytes:
            issues.append(
                _Issue(
                    (name,),
                    f"must be >= tcp.mss_bytes = {m.mss_bytes}",
                    value,
                    f"integer {m.mss_bytes}..{_U32_MAX} bytes",
                )
            )
    if issues:
        raise _Issues(issues)


@_after("ChannelConfig")
def channel(m: Any) -> None:
    """[channel]: per-rate tables in range, only the chosen model's fields, the fading's
    Doppler and coherence, cs_range_m >= rx_range_m."""
    other = RANGE_FIELDS if m.model == "radio" else RADIO_FIELDS
    for name, lo, hi in (
        ("tx_power_by_rate_dbm", -50.0, 60.0),
        ("rx_sensitivity_by_rate_dbm", -200.0, 0.0),
    ):
        for k, pair in enumerate(getattr(m, name)):
            if len(pair) != 2 or not lo <= pair[1] <= hi:
                raise _Issues(
                    [
                        _Issue(
                            (name, k),
                            "not a [rate_mbps, dbm] pair in range",
                            _Raw(str(pair)),
                            f"[rate_mbps, dbm] with dbm {_num(lo)}..{_num(hi)}",
                        )
                    ]
                )
    stray = [f for f in other if f in m.model_fields_set]
    if stray:
        want = "range" if m.model == "radio" else "radio"
        raise _Issues(
            [
                _Issue(
                    (f,),
                    f'only with channel.model = "{want}" (the model is "{m.model}")',
                    getattr(m, f) if f != "matrix" and f != "error" else _Raw("a table"),
                    f'unset, or channel.model = "{want}"',
                )
                for f in stray
            ]
        )
    if m.fading == "doppler" and m.doppler_hz is None:
        raise _Issues(
            [
                _Issue(
                    ("doppler_hz",),
                    'required with fading = "doppler"',
                    _Raw("unset"),
                    "number 0..1e5 Hz",
                )
            ]
        )
    if m.fading not in ("doppler", "tgn-b", "tgn-d") and m.doppler_hz is not None:
        raise _Issues(
            [
                _Issue(
                    ("doppler_hz",),
                    'only with channel.fading = "doppler", "tgn-b" or "tgn-d" (the fading is '
                    f'"{m.fading}")',
                    m.doppler_hz,
                    'unset, or channel.fading = "doppler", "tgn-b" or "tgn-d"',
                )
            ]
        )
    if m.fading in ("doppler", "tgn-b", "tgn-d") and m.coherence_ms is not None:
        raise _Issues(
            [
                _Issue(
                    ("coherence_ms",),
                    f'not with channel.fading = "{m.fading}" (its channel changes continuously)',
                    m.coherence_ms,
                    'unset, or channel.fading = "rayleigh" or "nakagami"',
                )
            ]
        )
    if m.cs_range_m is not None and m.cs_range_m < m.rx_range_m:
        raise _Issues(
            [
                _Issue(
                    ("cs_range_m",),
                    f"must be >= channel.rx_range_m = {_num(m.rx_range_m)}",
                    m.cs_range_m,
                    f"number >= {_num(m.rx_range_m)} metres, or unset",
                )
            ]
        )


@_after("MobilityConstantVelocity")
def mobility_constant_velocity(m: Any) -> None:
    """A constant-velocity mobility: exactly one of direction and heading_deg."""
    if (m.direction is None) == (m.heading_deg is None):
        raise _Issues(
            [
                _Issue(
                    ("direction",),
                    "give exactly one of direction and heading_deg",
                    _Raw(f"direction = {m.direction!r}, heading_deg = {m.heading_deg!r}"),
                    '"away" or "toward", or heading_deg alone',
                )
            ]
        )


@_after("MobilityWaypoints")
def mobility_waypoints(m: Any) -> None:
    """A waypoints mobility: points [t, x, y, z] at increasing whole-nanosecond times, within
    1e6 m."""
    for k, p in enumerate(m.points):
        if len(p) != 4:
            raise _Issues(
                [_Issue(("points", k), "not a point", _Raw(str(p)), "[t_s, x_m, y_m, z_m]")]
            )
        bad = not (0.0 <= p[0] <= MAX_TIME_S) or (k > 0 and p[0] <= m.points[k - 1][0])
        # The core holds the times in whole nanoseconds: they must differ there too.
        same_ns = k > 0 and not bad and round(p[0] * 1e9) <= round(m.points[k - 1][0] * 1e9)
        far = any(abs(c) > MAX_DISTANCE_M for c in p[1:])
        if bad or same_ns or far:
            raise _Issues(
                [
                    _Issue(
                        ("points", k),
                        "time not after the previous point's"
                        if bad
                        else "time less than 1 ns after the previous point's (the core "
                        "counts whole nanoseconds)"
                        if same_ns
                        else "coordinate beyond 1e6 m",
                        _Raw(str(list(p))),
                        "t_s >= 0 and increasing by at least 1e-9, |x|, |y|, |z| <= 1e6 m",
                    )
                ]
            )


@_after("MobilityRandomWaypoint")
def mobility_random_waypoint(m: Any) -> None:
    """A random-waypoint mobility: a rectangle, speeds in order, a steady-state start it can
    draw."""
    x0, y0, x1, y1 = m.area_m
    issues: list[_Issue] = []
    if not (x0 <= x1 and y0 <= y1) or max(map(abs, m.area_m)) > MAX_DISTANCE_M:
        issues.append(
            _Issue(("area_m",), "not a rectangle", _Raw(str(list(m.area_m))), "min <= max")
        )
    if m.speed_min_mps > m.speed_max_mps:
        issues.append(
            _Issue(
                ("speed_min_mps",),
                f"must be <= speed_max_mps = {_num(m.speed_max_mps)}",
                m.speed_min_mps,
                f"0..{_num(m.speed_max_mps)} m/s",
            )
        )
    if m.steady_state and m.speed_min_mps < 1e-6:
        issues.append(
            _Issue(
                ("speed_min_mps",),
                "a steady-state start needs a positive minimum speed",
                m.speed_min_mps,
                ">= 1e-6 m/s",
            )
        )
    if m.steady_state and not issues and (x1 <= x0 or y1 <= y0):
        # ns-3's steady-state model draws from the area's distance distribution.
        issues.append(
            _Issue(
                ("area_m",),
                "a steady-state start needs an area of positive width and height",
                _Raw(str(list(m.area_m))),
                "x_min < x_max and y_min < y_max, or steady_state = false",
            )
        )
    if issues:
        raise _Issues(issues)


@_after("NodeConfig")
def node(m: Any) -> None:
    """[[nodes]]: the rate control's name; a host has no WiFi settings."""
    issues: list[_Issue] = []
    _check_choice(issues, ("rate_control",), m.rate_control, RATE_CONTROL_NAMES, "rate control")
    if m.rate_control is not None and m.role == "host":
        issues.append(_Issue(("rate_control",), "a host has no WiFi", m.rate_control, "unset"))
    for f in ("tx_power_dbm", "mobility"):
        if getattr(m, f) is not None and m.role == "host":
            issues.append(_Issue((f,), "a host has no WiFi", _Raw("set"), "unset"))
    if issues:
        raise _Issues(issues)


@_after("FlowConfig")
def flow(m: Any) -> None:
    """[[flows]]: the fields each kind takes, needs and refuses; start, jitter and stop in
    order."""
    issues: list[_Issue] = []
    kind = f'kind = "{m.kind}"'
    if m.payload_bytes is not None and m.is_tcp:
        issues.append(
            _Issue(
                ("payload_bytes",),
                f"not allowed for {kind} (TCP segments carry tcp.mss_bytes of payload)",
                m.payload_bytes,
                "unset; set tcp.mss_bytes instead",
            )
        )
    elif m.payload_bytes is not None and m.kind == "clap_file":
        issues.append(
            _Issue(
                ("payload_bytes",),
                f"not allowed for {kind} (CLAP segments carry clap.mss_bytes of payload)",
                m.payload_bytes,
                "unset; set clap.mss_bytes instead",
            )
        )
    elif m.payload_bytes is not None and m.payload_bytes > MAX_PAYLOAD_BYTES:
        issues.append(
            _Issue(
                ("payload_bytes",),
                f"must be <= {MAX_PAYLOAD_BYTES}",
                m.payload_bytes,
                _PAYLOAD_ALLOWED,
            )
        )
    if m.kind in _PACED_KINDS and m.rate_mbps is None:
        issues.append(_Issue(("rate_mbps",), f"required for {kind}", allowed="number > 0 Mbit/s"))
    if m.kind == "udp_onoff":
        for name in ("on_ms", "off_ms"):
            if getattr(m, name) is None:
                issues.append(_Issue((name,), f"required for {kind}", allowed="number > 0 ms"))
    else:
        for name in ("on_ms", "off_ms", "periods", "pareto_shape"):
            if name in m.model_fields_set and getattr(m, name) is not None:
                issues.append(
                    _Issue(
                        (name,),
                        f"not allowed for {kind} (only on/off sources have periods)",
                        getattr(m, name),
                        'unset, or kind = "udp_onoff"',
                    )
                )
    if m.kind not in _PACED_KINDS and m.rate_mbps is not None:
        why = (
            "TCP sends as fast as its window allows"
            if m.is_tcp
            else "CLAP's rate comes from its sender's MAC"
            if m.kind == "clap_file"
            else "it sends as fast as it can"
        )
        issues.append(
            _Issue(
                ("rate_mbps",),
                f"not allowed for {kind} ({why})",
                m.rate_mbps,
                'unset, or kind = "udp_cbr", "udp_poisson" or "udp_onoff"',
            )
        )
    if m.kind in _FILE_KINDS and m.file_bytes is None:
        issues.append(
            _Issue(
                ("file_bytes",),
                f"required for {kind}",
                allowed="integer >= 1 bytes",
            )
        )
    if m.kind not in _FILE_KINDS and m.file_bytes is not None:
        issues.append(
            _Issue(
                ("file_bytes",),
                f"not allowed for {kind} (only tcp_file and clap_file flows have a file)",
                m.file_bytes,
                'unset, or kind = "tcp_file" or "clap_file"',
            )
        )
    if m.kind in _FILE_KINDS and m.stop_s is not None:
        issues.append(
            _Issue(
                ("stop_s",),
                f"not allowed for {kind} (it ends when the file is delivered)",
                m.stop_s,
                'unset, or kind = "tcp_bulk"',
            )
        )
    if m.is_tcp:
        _check_choice(issues, ("cc",), m.cc, CC_NAMES, "congestion control")
        _check_choice(issues, ("recovery",), m.recovery, RECOVERY_NAMES, "loss recovery")
    else:
        for name in ("cc", "recovery"):
            value = getattr(m, name)
            if value is not None:
                issues.append(
                    _Issue(
                        (name,),
                        f"only used by TCP flows, not {kind}",
                        value,
                        'unset, or kind = "tcp_bulk" or "tcp_file"',
                    )
                )
    if m.stop_s is not None and m.start_jitter_s > 0 and (m.start_s + m.start_jitter_s >= m.stop_s):
        issues.append(
            _Issue(
                ("start_jitter_s",),
                f"start_s + start_jitter_s must be < stop_s = {_num(m.stop_s)}",
                m.start_jitter_s,
                f"number >= 0 and < {_num(m.stop_s - m.start_s)} seconds",
            )
        )
    if m.stop_s is not None and m.stop_s <= m.start_s:
        issues.append(
            _Issue(
                ("stop_s",),
                f"must be > start_s = {_num(m.start_s)}",
                m.stop_s,
                f"number > {_num(m.start_s)} seconds, or unset",
            )
        )
    if issues:
        raise _Issues(issues)


@_after("Scenario")
def scenario(m: Any) -> None:
    """The scenario as a whole: expanded into its world spec (:mod:`airtcp.config.expand`
    checks what spans sections), its canonical form kept as ``_spec``, then the keys the
    sections passed through checked by the core."""
    issues: list[_Issue] = []
    if m.payload_bytes > MAX_PAYLOAD_BYTES:
        issues.append(
            _Issue(
                ("payload_bytes",),
                f"must be <= {MAX_PAYLOAD_BYTES}",
                m.payload_bytes,
                _PAYLOAD_ALLOWED,
            )
        )
    _check_choice(issues, ("cc",), m.cc, CC_NAMES, "congestion control")
    _check_choice(issues, ("recovery",), m.recovery, RECOVERY_NAMES, "loss recovery")
    spec = build_world_spec(m, issues)
    if issues:
        raise _Issues(issues)
    from airtcp.config.canonical import canonical

    m._spec = canonical(spec)  # its fields at their defaults dropped (canonical.py)
    _check_core_fields(m)


# Where each section's passed-through keys land in the world spec (models._PassThrough).
CORE_PLACES: dict[str, str] = {
    "mac": r"wifi",
    "ht": r"wifi\.ht",
    "tcp": r"flows\.\d+\.tcp",
    "clap": r"flows\.\d+\.clap",
    "traces": r"traces",
    "mesh": r"mesh",
}


def _check_core_fields(s: Any) -> None:
    """The keys the sections passed through unread: each value checked against the core's
    schema (type, names, bounds), then the spec read by the core as a run would, its error
    given back in the scenario's words (``mac.x`` for ``wifi.x``, ``tcp.x`` for
    ``flows.0.tcp.x``). Skipped when no section has one (Python checked everything else)."""
    given = {
        name: section
        for name in CORE_PLACES
        if (section := getattr(s, name)) is not None and section._core
    }
    if not given:
        return
    issues = [i for name, section in given.items() for i in core_problems(section, name)]
    if issues:
        raise _Issues(issues)
    from airtcp import _core

    try:
        _core.check_world_spec(s.spec_json())
    except ValueError as exc:
        text = str(exc)
        for name, place in CORE_PLACES.items():
            m = re.match(rf"{place}\.(\w+)\b(.*)", text, re.S)
            if m:
                raise ScenarioError(f"{name}.{m.group(1)}{m.group(2)}") from None
        raise ScenarioError(f"world spec rejected by the core: {text}") from None


def core_problems(section: Any, name: str) -> list[_Issue]:
    """What the core's schema says is wrong with each value ``section`` (``[name]``) passed
    through (its type, its names, its bounds), in the scenario's words: checked whether or not
    the section's table reaches the world spec (``[tcp]`` without a TCP flow)."""
    from airtcp.config.canonical import check_value, core_table

    props = core_table(section.CORE)["properties"]
    issues = []
    for key, value in section._core.items():
        problem = check_value(value, props[key])
        if problem is not None:
            issues.append(_Issue((name, key), problem[0], value, problem[1]))
    return issues


# ---------------------------------------------------------------------------------------------
# Field validators


@_field(FIELD_BEFORE, "FlowConfig", "kind")
def flow_kind(value: object) -> object:
    """A kind spelled with hyphens (``tcp-bulk``: scenarios spelled them so before they took
    the world spec's names) is refused with the name to write."""
    if isinstance(value, str) and value not in FLOW_KINDS:
        name = value.replace("-", "_")
        if name in FLOW_KINDS:
            raise _Issues(
                [
                    _Issue(
                        (),
                        "not an allowed value: flow kinds are spelled with underscores, as in "
                        f'the world spec and the summary; did you mean "{name}"?',
                        value,
                    )
                ]
            )
    return value


@_field(FIELD_AFTER, "MeshConfig", "alm_travel_us_per_metric")
def alm_map(v: list[float] | None) -> list[float] | None:
    """The remedy's map: 32 finite travel times >= 0, one per retry limit."""
    if v is None:
        return v
    if len(v) != 32:
        raise ValueError(f"{len(v)} values; allowed: 32 (retry limits 0..31)")
    bad = [x for x in v if not (math.isfinite(x) and x >= 0.0)]
    if bad:
        raise ValueError(f"{bad[0]!r} is out of range; allowed: finite numbers >= 0 us")
    return v


# ---------------------------------------------------------------------------------------------
# What a model's instances answer besides their fields, shared by the pydantic models and the
# plain validator's sections.


class FlowShape:
    """A ``[[flows]]`` entry's derived answers."""

    if TYPE_CHECKING:
        kind: str

    @property
    def is_tcp(self) -> bool:
        return self.kind in _TCP_KINDS


class PassThroughShape:
    """A section that passes the core's keys through (models._PassThrough): ``_core`` holds
    them as written."""

    CORE: ClassVar[str] = ""
    if TYPE_CHECKING:
        _core: dict[str, Any]

    def core_fields(self) -> dict[str, Any]:
        """The section's keys that go to the core as written (a copy)."""
        return copy.deepcopy(self._core)


class ScenarioShape:
    """A validated scenario's world spec, as :func:`scenario` left it in ``_spec``."""

    if TYPE_CHECKING:
        _spec: dict[str, Any]

    def to_world_spec(self) -> dict[str, Any]:
        """The world spec (docs/world-spec.md) as a dict, in its canonical form: a field the
        core defaults is left out unless the expander always wrote it (canonical.py); a fresh
        copy each call."""
        return copy.deepcopy(self._spec)

    def spec_json(self) -> str:
        """The world spec in its canonical form (:mod:`airtcp.config.canonical`: a field at its
        default dropped unless the expander always wrote it) as JSON with sorted keys and no
        whitespace: what the core runs, what a run stores, and what seeds and hashes derive
        from."""
        return json.dumps(self._spec, sort_keys=True, separators=(",", ":"))
