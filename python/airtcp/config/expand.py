"""Expansion: a scenario becomes the explicit world spec (docs/world-spec.md).

:func:`build_world_spec` checks what single fields cannot (rates of the standard, node names,
links, routes, flows, reachability) and expands the scenario: generated nodes with positions,
node indices, static routes, one flow per source, integer nanoseconds and bit/s. It runs the
steps below in order; they share a :class:`_Build` and append their problems to its
``issues`` in the order the error message lists them. Who hears whom and the computed routes
are in :mod:`airtcp.config.routes`.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import math
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from airtcp import tables as _tables
from airtcp.config.budget import nearest_peer
from airtcp.config.errors import _Issue, _names, _num, _Raw
from airtcp.config.limits import (
    _GLOB_CHARS,
    _NS_PER_S,
    _TCP_KINDS,
    MAX_CBR_PACKETS_PER_S,
    MAX_CLAP_SEGMENTS,
    MAX_FLOWS,
    MAX_NODES,
    MAX_REPORT_INTERVALS,
    RATE_CONTROL_NAMES,
)
from airtcp.config.routes import Connectivity, RouteTable, chain_blocked_links, connectivity
from airtcp.outpath import NAME_ALLOWED, safe_name

SPEED_OF_LIGHT_MPS = 299_792_458.0  # exact; crates/airtcp-core/src/channel/pathloss.rs
# TGn's environment speed v_0 (IEEE 802.11-03/940r4 section 4.7): 1.2 km/h.
TGN_V0_MPS = 1.2 / 3.6

if TYPE_CHECKING:
    from airtcp.config.models import FlowConfig, HtConfig, Scenario

# ---------------------------------------------------------------------------------------------
# Defaults that depend on other fields


def default_data_rate_mbps(standard: str) -> float:
    """The standard's highest rate (54 Mbit/s for a and g, 11 for b); ValueError naming the
    standard if it is none."""
    from airtcp.analytic import rates_mbps  # checks the name

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
# Helpers


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


def _check_intervals(
    issues: list[_Issue], loc: tuple[str | int, ...], interval_s: float | None, s: Scenario
) -> None:
    """An issue if a report interval rounds to 0 ns or cuts the run into more than
    MAX_REPORT_INTERVALS (in whole nanoseconds too, as the core counts them)."""
    if interval_s is None:
        return
    every_ns = _ns(interval_s)
    if every_ns < 1:
        issues.append(
            _Issue(
                loc,
                "rounds to 0 in the core's units (whole nanoseconds)",
                interval_s,
                "at least 1e-9 seconds, or unset",
            )
        )
        return
    least_ns = max(1, -(-_ns(s.duration_s) // MAX_REPORT_INTERVALS))
    if s.duration_s / interval_s > MAX_REPORT_INTERVALS or every_ns < least_ns:
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


def _trace_path(src: int, dst: int, next_hop: RouteTable, names: list[str]) -> str | None:
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


class _Node:
    __slots__ = ("loc", "mobility", "name", "pos", "rate_control", "role", "tx_power_dbm")

    def __init__(
        self,
        name: str,
        pos: tuple[float, float, float],
        role: str,
        loc: tuple[str | int, ...],
        rate_control: str | None = None,
    ) -> None:
        self.name, self.pos, self.role, self.loc = name, pos, role, loc
        self.rate_control = rate_control
        self.tx_power_dbm: float | None = None
        # The world spec's mobility table (channel.model = "radio"), or None: static.
        self.mobility: dict[str, Any] | None = None

    @property
    def wifi(self) -> bool:
        return self.role != "host"


def _isolation_hint(node: _Node, rx_range: float | None) -> str:
    if rx_range is None:  # the radio model
        decodes = (
            "whose frames it decodes at the lowest rate (mean SNR, 1500 bytes, 90 %; "
            'channel.model = "radio")'
        )
        if node.role == "sta":
            return f"a station needs an access point {decodes}"
        if node.role == "host":
            return "a host needs a [[links]] entry"
        return f"a neighbour {decodes}, or a [[links]] entry"
    if node.role == "sta":
        return f"a station needs an access point within channel.rx_range_m = {_num(rx_range)} m"
    if node.role == "host":
        return "a host needs a [[links]] entry"
    return f"a neighbour within channel.rx_range_m = {_num(rx_range)} m, or a [[links]] entry"


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
        role = "mesh" if s.mesh is not None else "adhoc"
        return [
            _Node(f"n{i}", (_clean(i * s.spacing_m), 0.0, 0.0), role, ("hops",))
            for i in range(s.hops + 1)
        ]
    return []


# ---------------------------------------------------------------------------------------------
# The steps

# A flow before its checks: its [[flows]] entry (None for a default flow), where to report its
# problems, and its source and destination node.
_FlowPair = tuple["FlowConfig | None", tuple[str | int, ...], int, int]


@dataclass
class _Build:
    """What the steps of :func:`build_world_spec` share. Each later field is set by the step
    named in its comment and read only by the steps after it."""

    s: Scenario
    issues: list[_Issue]
    # _phy
    data_rate: float = field(init=False)
    basic_rate: float = field(init=False)
    ht: HtConfig | None = None  # 802.11n's PHY (standard = "80211n")
    access: str = ""  # mac.access, or 802.11n's default EDCA
    # _nodes: every node, in index order, and the index of each name
    nodes: list[_Node] = field(init=False)
    index: dict[str, int] = field(init=False)
    names: list[str] = field(init=False)
    # _channel: channel.matrix is set and well-formed (it overrides the ranges)
    matrix_ok: bool = field(init=False)
    # _wired_links: wired[i] = the nodes wired to node i
    wired: list[set[int]] = field(init=False)
    links_spec: list[dict[str, Any]] = field(init=False)
    # _wireless_adjacency: neighbours and computed routes, from the core
    blocked: list[list[int]] = field(init=False)
    conn: Connectivity = field(init=False)
    # _explicit_routes: (node, dst) -> next hop
    explicit: dict[tuple[int, int], int] = field(init=False)
    # _flow_names
    flow_pairs: list[_FlowPair] = field(init=False)
    # _tcp_shortcuts: the kind of the default flows
    default_kind: str = field(init=False)
    # _tcp_base: the "tcp" table of every TCP flow before its own cc and recovery
    tcp_base: dict[str, Any] = field(init=False)
    # _computed_routes: (node, dst) -> next hop, explicit ones included
    next_hop: RouteTable = field(init=False)
    routes_spec: list[dict[str, int]] = field(init=False)
    # _flows
    flows_spec: list[dict[str, Any]] = field(init=False)

    @property
    def rx_range(self) -> float | None:
        """The decode range of the range model; None under the radio model."""
        return self.s.channel.rx_range_m if self.s.channel.model == "range" else None

    def known(self, name: str, loc: tuple[str | int, ...]) -> int | None:
        """The index of node ``name``; None and an issue at ``loc`` if there is no such node."""
        if name in self.index:
            return self.index[name]
        close = difflib.get_close_matches(name, self.names, n=1)
        hint = f"; did you mean {json.dumps(close[0])}?" if close else ""
        self.issues.append(_Issue(loc, f"unknown node{hint}", name, f"one of {_names(self.names)}"))
        return None


def build_world_spec(s: Scenario, issues: list[_Issue]) -> dict[str, Any]:
    """Check what single fields cannot, and expand ``s``; problems go to ``issues``.

    Returns the world spec, or ``{}`` when ``issues`` is not empty at the end.
    """
    b = _Build(s, issues)
    _phy(b)
    _core_units(b)
    _topology_knobs(b)
    if not _nodes(b):
        return {}
    _scenario_checks(b)
    _channel(b)
    _radio_rates(b)
    _wired_links(b)
    _wireless_adjacency(b)
    _explicit_routes(b)
    _flow_names(b)
    _tcp_shortcuts(b)
    _tcp_base(b)
    if issues:
        return {}
    _computed_routes(b)
    _flows(b)
    if issues:
        return {}
    return _world(b)


# -- PHY ---------------------------------------------------------------------------------------


def _phy(b: _Build) -> None:
    """The standard's b/g mixed mode and preamble, and the data and basic rates."""
    from airtcp.tables import rates_mbps  # the core's table (airtcp.analytic is heavier)

    s, issues = b.s, b.issues
    if s.erp_mixed and s.standard != "80211g":
        issues.append(
            _Issue(
                ("erp_mixed",),
                f'b/g mixed mode exists for 802.11g only, not standard = "{s.standard}"',
                True,
                'false, or standard = "80211g"',
            )
        )
    if s.ht is not None and s.standard not in HT_STANDARDS:
        issues.append(
            _Issue(
                ("ht",),
                f'[ht] is for 802.11n, 802.11ac and 802.11ax, not standard = "{s.standard}"',
                "a table",
                'no [ht], or standard = "80211n", "80211ac" or "80211ax"',
            )  # fmt: skip
        )
    if s.standard in HT_STANDARDS:
        return _phy_ht(b)
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
    _check_ht_only(issues, ("mac", "rate_control"), s.mac.rate_control, s.standard)
    b.data_rate, b.basic_rate = data_rate, basic_rate
    b.access = s.mac.access


# The rate controls that run on some standards only, and those standards; the core refuses
# them elsewhere (crates/airtcp-core/src/spec/wifi.rs, check_rate_control): Minstrel-HT has
# HT and VHT groups (Linux's rc80211_minstrel_ht.c has no HE groups, and its CCK and OFDM
# groups for non-HT peers are not modelled), ath9k's rate tables are HT only.
_RATE_CONTROL_STANDARDS = {"minstrel-ht": ("80211n", "80211ac"), "ath9k": ("80211n",)}

# The standards of the [ht] table: MCS modes, A-MPDU under Block Ack.
HT_STANDARDS = ("80211n", "80211ac", "80211ax")


def _check_ht_only(
    issues: list[_Issue], loc: tuple[str | int, ...], rate_control: str | None, standard: str
) -> None:
    """An issue at ``loc`` if ``rate_control`` runs on some standards only, not ``standard``."""
    runs_on = _RATE_CONTROL_STANDARDS.get(rate_control or "")
    if runs_on is None or standard in runs_on:
        return
    others = ", ".join(
        n for n in RATE_CONTROL_NAMES if standard in _RATE_CONTROL_STANDARDS.get(n, (standard,))
    )
    if rate_control == "minstrel-ht":
        what = f"runs on 802.11n's HT and 802.11ac's VHT modes only, not on {standard}"
        if standard == "80211ax":
            what += " (Linux's Minstrel-HT has no HE groups)"
        fix = f'standard = "80211n" or "80211ac", or on {standard}: {others}'
    else:
        what = f"runs on 802.11n's HT modes only, not on {standard}"
        fix = f'standard = "80211n", or on {standard}: {others}'
    issues.append(_Issue(loc, what, rate_control, fix))


def _mesh_access(b: _Build) -> None:
    """A mesh sends QoS data (9.2.4.5.1: the Mesh Control Present bit is in QoS Control):
    EDCA unless the scenario asks for DCF, which is refused."""
    s = b.s
    if "access" not in s.mac.model_fields_set:
        b.access = "edca"
    elif s.mac.access != "edca":
        b.issues.append(
            _Issue(
                ("mac", "access"),
                "a mesh sends QoS data frames (the Mesh Control Present bit is in QoS Control)",
                s.mac.access,
                '"edca" (the default with [mesh]), or no [mesh]',
            )
        )


def _non_ht(s: Scenario) -> str:
    """The non-HT standard of the scenario's band: itself, or for 802.11n and 802.11ax
    802.11a (5 GHz) or 802.11g (2.4 GHz), for 802.11ac 802.11a."""
    if s.standard not in HT_STANDARDS:
        return s.standard
    return "80211a" if s.ht is None or s.ht.band_ghz == 5.0 else "80211g"


def _phy_vht_he(b: _Build, ht: HtConfig) -> None:
    """802.11ac and 802.11ax: the band, width, streams, guard interval and MCS of a mode the
    core's table has (the VHT formats the standard leaves out are not there)."""
    from airtcp.tables import mcs_modes

    s, issues = b.s, b.issues
    ax = s.standard == "80211ax"
    name = "802.11ax" if ax else "802.11ac"
    _check_ht_only(issues, ("mac", "rate_control"), s.mac.rate_control, s.standard)
    if not ax and ht.band_ghz != 5.0:
        issues.append(_Issue(("ht", "band_ghz"), "802.11ac is a 5 GHz PHY", ht.band_ghz, "5"))
    if ht.band_ghz == 2.4 and ht.channel_width_mhz > 40:
        issues.append(
            _Issue(
                ("ht", "channel_width_mhz"),
                f"{name} in 2.4 GHz has 20 and 40 MHz channels",
                ht.channel_width_mhz,
                "20 or 40, or ht.band_ghz = 5",
            )
        )
    if ax and ht.short_gi:
        issues.append(
            _Issue(
                ("ht", "short_gi"),
                "802.11ax names its guard interval in ht.gi_ns",
                True,
                "false, and ht.gi_ns = 800, 1600 or 3200",
            )
        )
    if not ax and ht.gi_ns is not None:
        issues.append(
            _Issue(
                ("ht", "gi_ns"),
                f"is for 802.11ax; {name} takes ht.short_gi",
                ht.gi_ns,
                "unset, and ht.short_gi = true or false",
            )
        )
    top = 11 if ax else 9
    if ht.mcs > top:
        issues.append(_Issue(("ht", "mcs"), f"is not an {name} MCS", ht.mcs, f"0..{top}"))
    elif not ax:
        if ("vht", ht.mcs, ht.channel_width_mhz, ht.streams, ht.short_gi) not in mcs_modes():
            issues.append(
                _Issue(
                    ("ht", "mcs"),
                    f"VHT MCS {ht.mcs} at {ht.channel_width_mhz} MHz with {ht.streams} spatial "
                    "stream(s) is not in the standard's MCS tables (802.11-2020 21.5: its bits "
                    "per symbol do not divide among the encoders)",
                    ht.mcs,
                    "another MCS, width or number of streams",
                )
            )
    top_bytes = 1_048_575 if not ax else 6_500_631
    if ht.max_ampdu_bytes is not None and ht.max_ampdu_bytes > top_bytes:
        issues.append(
            _Issue(
                ("ht", "max_ampdu_bytes"),
                f"exceeds {name}'s largest A-MPDU (aPSDUMaxLength)",
                ht.max_ampdu_bytes,
                f"1..{top_bytes}",
            )
        )


def _phy_ht(b: _Build) -> None:
    """802.11n: the MCS within the streams, control frames at a non-HT rate of the band."""
    from airtcp.config.plain import default_section
    from airtcp.tables import rates_mbps  # the core's table (airtcp.analytic is heavier)

    s, issues = b.s, b.issues
    ht = s.ht or default_section("HtConfig")
    if s.standard != "80211n":
        _phy_vht_he(b, ht)
    elif ht.streams > 2:
        issues.append(
            _Issue(("ht", "streams"), "802.11n models 1 or 2 spatial streams", ht.streams, "1 or 2")
        )
    elif ht.channel_width_mhz > 40:
        issues.append(
            _Issue(
                ("ht", "channel_width_mhz"),
                "802.11n has 20 and 40 MHz channels",
                ht.channel_width_mhz,
                '20 or 40, or standard = "80211ac" or "80211ax"',
            )
        )
    elif ht.gi_ns is not None:
        issues.append(
            _Issue(
                ("ht", "gi_ns"),
                "is for 802.11ax; 802.11n takes ht.short_gi",
                ht.gi_ns,
                "unset, and ht.short_gi = true or false",
            )
        )
    elif ht.max_ampdu_bytes is not None and ht.max_ampdu_bytes > 65_535:
        issues.append(
            _Issue(
                ("ht", "max_ampdu_bytes"),
                "exceeds 802.11n's largest A-MPDU (aPSDUMaxLength)",
                ht.max_ampdu_bytes,
                "1..65535",
            )
        )
    elif ht.mcs > 8 * ht.streams - 1:
        issues.append(
            _Issue(
                ("ht", "mcs"),
                f"needs more than {ht.streams} spatial stream(s)",
                ht.mcs,
                f"0..{8 * ht.streams - 1}, or ht.streams = 2",
            )  # fmt: skip
        )
    if s.data_rate_mbps is not None:
        issues.append(
            _Issue(
                ("data_rate_mbps",),
                f"802.11{s.standard[5:]} names its data rate by MCS",
                s.data_rate_mbps,
                "unset, and ht.mcs",
            )  # fmt: skip
        )
    # The band's non-HT rates carry control frames and beacons (802.11a's, 802.11g's).
    rates = rates_mbps(_non_ht(s))
    # 24 with the mandatory rates below it answers as ns-3's HT BSS does with its basic rate
    # set {6, 12, 24}: each frame at the highest of them not above its reference rate.
    basic = s.basic_rate_mbps if s.basic_rate_mbps is not None else 24.0
    b.basic_rate = _check_rate(issues, "basic_rate_mbps", basic, s.standard, rates)
    if ht.ampdu and "access" in s.mac.model_fields_set and s.mac.access != "edca":
        issues.append(
            _Issue(
                ("mac", "access"),
                "A-MPDU under Block Ack needs QoS data (EDCA)",
                s.mac.access,
                '"edca" (the default with [ht]), or ht.ampdu = false',
            )  # fmt: skip
        )
    b.data_rate = 0.0
    b.ht = ht
    # 802.11n, ac and ax send QoS data (EDCA) unless the scenario says otherwise.
    b.access = s.mac.access if "access" in s.mac.model_fields_set else "edca"


def _core_units(b: _Build) -> None:
    """Times and rates the core can hold, and a warm-up shorter than the run."""
    s, issues = b.s, b.issues
    # Values the core holds in whole nanoseconds and bits per second must not round to 0.
    tiny: list[tuple[tuple[str | int, ...], float, int, str]] = [
        (("duration_s",), s.duration_s, _ns(s.duration_s), "1e-9 seconds")
    ]
    tiny += [
        (("tcp", name), getattr(s.tcp, name), round(getattr(s.tcp, name) * 1e6), "1e-6 ms")
        for name in ("initial_rto_ms", "max_rto_ms")
    ]
    tiny += [
        (("links", i, "rate_mbps"), link.rate_mbps, round(link.rate_mbps * 1e6), "1e-6 Mbit/s")
        for i, link in enumerate(s.links)
    ]
    tiny += [
        (("flows", i, "rate_mbps"), f.rate_mbps, round(f.rate_mbps * 1e6), "1e-6 Mbit/s")
        for i, f in enumerate(s.flows)
        if f.rate_mbps is not None
    ]
    ch = s.channel
    if ch.model == "radio" and ch.capture:
        us = ch.capture_window_us
        tiny.append((("channel", "capture_window_us"), us, round(us * 1e3), "0.001 us (1 ns)"))
    for loc, value, whole, least in tiny:
        if whole < 1:
            issues.append(
                _Issue(loc, "rounds to 0 in the core's units", value, f"at least {least}")
            )
    # The core holds times in whole nanoseconds: a pair that differs by less than 1 ns is equal.
    ns_apart = " by at least 1 ns (the core counts whole nanoseconds)"
    if s.warmup_s >= s.duration_s or _ns(s.warmup_s) >= _ns(s.duration_s):
        issues.append(
            _Issue(
                ("warmup_s",),
                f"must be < duration_s = {_num(s.duration_s)}"
                + (ns_apart if s.warmup_s < s.duration_s else ""),
                s.warmup_s,
                f"number >= 0 and < {_num(s.duration_s)} seconds",
            )
        )
    for i, f in enumerate(s.flows):
        # models.FlowConfig checks stop_s > start_s; here the same in whole nanoseconds.
        if f.stop_s is not None and f.start_s < f.stop_s and _ns(f.stop_s) <= _ns(f.start_s):
            issues.append(
                _Issue(
                    ("flows", i, "stop_s"),
                    f"must be > start_s = {_num(f.start_s)}{ns_apart}",
                    f.stop_s,
                    f"number >= {_num(f.start_s)} + 1e-9 seconds, or unset",
                )
            )


def _topology_knobs(b: _Build) -> None:
    """``stations`` and ``hops`` only with the topology that uses them."""
    s, issues = b.s, b.issues
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


# -- nodes -------------------------------------------------------------------------------------


def _nodes(b: _Build) -> bool:
    """The generated nodes and the [[nodes]] entries; False if there are too many to go on."""
    s, issues = b.s, b.issues
    nodes = _generated_nodes(s)
    generated = {n.name for n in nodes}
    index: dict[str, int] = {n.name: i for i, n in enumerate(nodes)}
    for i, cfg in enumerate(s.nodes):
        _check_ht_only(issues, ("nodes", i, "rate_control"), cfg.rate_control, s.standard)
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
        pos = (cfg.x_m, cfg.y_m, cfg.z_m)
        node = _Node(cfg.name, pos, cfg.role, ("nodes", i), cfg.rate_control)
        node.tx_power_dbm = cfg.tx_power_dbm
        if cfg.mobility is not None:
            node.mobility = _mobility_spec(b, cfg.mobility, node, ("nodes", i, "mobility"))
        nodes.append(node)
    if s.mobility is not None:
        if s.topology != "bss":
            issues.append(
                _Issue(
                    ("mobility",),
                    f'moves the stations of topology "bss" (the topology is "{s.topology}")',
                    _Raw("a table"),
                    'unset, or [[nodes]] mobility for topology "chain" or "custom"',
                )
            )
        else:
            for node in nodes:
                if node.role == "sta" and node.loc == ("stations",):
                    node.mobility = _mobility_spec(b, s.mobility, node, ("mobility",))
    radio = s.channel.model == "radio"
    for node in nodes:
        for what, value in (("mobility", node.mobility), ("tx_power_dbm", node.tx_power_dbm)):
            if value is not None and not radio:
                loc = ("mobility",) if node.loc == ("stations",) else (*node.loc, what)
                issues.append(
                    _Issue(
                        loc,
                        'needs channel.model = "radio" (the range model has no positions in '
                        "time and no powers)",
                        _Raw("set"),
                        'unset, or channel.model = "radio"',
                    )
                )
    b.nodes, b.index, b.names = nodes, index, [n.name for n in nodes]
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
        return False
    return True


# A circle's chords: 64 a turn keep the distance to the centre within 1 - cos(pi / 64) = 0.12 %.
CIRCLE_CHORDS = 64
# The most waypoints a circle may become (speed x duration / chord).
MAX_CIRCLE_POINTS = 200_000


def _circle_spec(
    b: _Build, m: Any, node: _Node, loc: tuple[str | int, ...]
) -> dict[str, Any] | None:
    """A circle round the origin at the node's distance, as waypoints along 64 chords a turn,
    from start_s to the end of the run."""
    x, y, z = node.pos
    r = math.hypot(x, y)
    if r == 0.0:
        b.issues.append(
            _Issue(
                (*loc, "kind"),
                f"{node.name} stands at the origin: a circle round it has no radius",
                m.kind,
                'a node away from the origin, or kind = "constant-velocity"',
            )
        )
        return None
    step = 2.0 * math.pi / CIRCLE_CHORDS
    chord_m = 2.0 * r * math.sin(step / 2.0)
    walk_s = max(0.0, b.s.duration_s - m.start_s)
    chords = math.ceil(walk_s * m.speed_mps / chord_m) if m.speed_mps > 0.0 else 0
    if chords + 1 > MAX_CIRCLE_POINTS:
        b.issues.append(
            _Issue(
                (*loc, "speed_mps"),
                f"walks {chords} chords of {chord_m:.3g} m in the run's "
                f"{_num(walk_s)} s, more than {MAX_CIRCLE_POINTS} waypoints",
                m.speed_mps,
                f"at most {MAX_CIRCLE_POINTS * chord_m / max(walk_s, 1e-9):.3g} m/s for this "
                "radius and duration",
            )
        )
        return None
    a0 = math.atan2(y, x)
    points = [{"time_ns": _ns(m.start_s), "position_m": [x, y, z]}]
    for k in range(1, chords + 1):
        a = a0 + k * step
        t_s = m.start_s + k * chord_m / m.speed_mps
        points.append({"time_ns": _ns(t_s), "position_m": [r * math.cos(a), r * math.sin(a), z]})
    return {"kind": "waypoints", "points": points}


def _mobility_spec(
    b: _Build, m: Any, node: _Node, loc: tuple[str | int, ...]
) -> dict[str, Any] | None:
    """The world spec's mobility table of ``node`` from a [nodes.mobility] or [mobility]
    table; a waypoint list moves the node to its first point."""
    if m.kind == "constant-velocity":
        if m.heading_deg is not None:
            h = math.radians(m.heading_deg)
            unit = (math.cos(h), math.sin(h), 0.0)
        else:
            norm = math.sqrt(sum(c * c for c in node.pos))
            if norm == 0.0:
                b.issues.append(
                    _Issue(
                        (*loc, "direction"),
                        f"{node.name} stands at the origin: away from or toward it is no direction",
                        m.direction,
                        "heading_deg",
                    )
                )
                return None
            sign = 1.0 if m.direction == "away" else -1.0
            unit = tuple(sign * c / norm for c in node.pos)  # type: ignore[assignment]
        return {
            "kind": "constant-velocity",
            "velocity_mps": [_clean(m.speed_mps * c) for c in unit],
            "start_ns": _ns(m.start_s),
        }
    if m.kind == "circle":
        return _circle_spec(b, m, node, loc)
    if m.kind == "waypoints":
        node.pos = tuple(float(c) for c in m.points[0][1:])  # type: ignore[assignment]
        return {
            "kind": "waypoints",
            "points": [
                {"time_ns": _ns(p[0]), "position_m": [float(c) for c in p[1:]]} for p in m.points
            ],
        }
    x0, y0, x1, y1 = m.area_m
    if m.speed_min_mps == 0.0:
        # Yoon, Liu, Noble (INFOCOM 2003): legs at speed v last in proportion to 1/v.
        warnings.warn(
            f"{'.'.join(map(str, loc))}: random waypoint with speed_min_mps = 0: the average "
            "speed decays towards zero as the run goes on (legs at speed v last in proportion "
            "to 1/v; Yoon, Liu, Noble, INFOCOM 2003), so results drift with the run length. "
            "Use speed_min_mps > 0, a warm-up, or steady_state = true",
            UserWarning,
            stacklevel=2,
        )
    return {
        "kind": "random-waypoint",
        "area_min_m": [float(x0), float(y0)],
        "area_max_m": [float(x1), float(y1)],
        "speed_min_mps": float(m.speed_min_mps),
        "speed_max_mps": float(m.speed_max_mps),
        "pause_ns": _ns(m.pause_s),
        "steady_state": m.steady_state,
    }


def _mesh_blocked_links(b: _Build) -> None:
    """[mesh] blocked_links: pairs of mesh points whose peer link is blocked at both ends."""
    s = b.s
    if s.mesh is None:
        return
    have = {tuple(p) for p in b.blocked}
    for i, pair in enumerate(s.mesh.blocked_links):
        loc: tuple[str | int, ...] = ("mesh", "blocked_links", i)
        if len(pair) != 2:
            b.issues.append(_Issue(loc, "not a pair", pair, "[node, node]"))
            continue
        x, y = pair
        a, c = b.known(x, loc + (0,)), b.known(y, loc + (1,))
        if a is None or c is None:
            continue
        if a == c:
            b.issues.append(_Issue(loc, "a node has no link to itself", [x, y], "two names"))
            continue
        for k, name in ((a, x), (c, y)):
            if b.nodes[k].role != "mesh":
                b.issues.append(
                    _Issue(loc, f"{name} is not a mesh point", b.nodes[k].role, 'role "mesh"')
                )
        pair = (min(a, c), max(a, c))
        if pair not in have:
            have.add(pair)
            b.blocked.append(list(pair))


def _mesh_spec(m: Any) -> dict[str, Any]:
    """The core's mesh section."""
    d: dict[str, Any] = m.model_dump()
    d.pop("blocked_links", None)  # in the spec's blocked_radio_links
    return {**d, **m.core_fields()}


def _mesh_checks(b: _Build) -> None:
    """[mesh] and the mesh points: each needs the other, no access points beside them, QoS
    data, no A-MPDU yet."""
    s, issues = b.s, b.issues
    points = [n for n in b.nodes if n.role == "mesh"]
    if s.mesh is None:
        for n in points:
            issues.append(
                _Issue(
                    n.loc + ("role",),
                    "a mesh point needs [mesh]",
                    "mesh",
                    "another role, or a [mesh] table",
                )
            )
        return
    if not points:
        issues.append(
            _Issue(
                ("mesh",),
                f'no mesh point: topology "{s.topology}" has none',
                _Raw("a table"),
                'topology = "chain", or [[nodes]] of role "mesh", or no [mesh]',
            )
        )
    for n in b.nodes:
        if n.role == "ap" and n.loc[0] == "nodes":
            issues.append(
                _Issue(
                    n.loc + ("role",),
                    "access points beside a mesh (mesh gates) are not built",
                    "ap",
                    '"mesh", "adhoc" or "host"',
                )
            )
    _mesh_access(b)
    if s.standard in ("80211ac", "80211ax"):
        issues.append(
            _Issue(
                ("standard",),
                "802.11s over VHT and HE (their capability elements) is not modelled yet",
                s.standard,
                '"80211a", "80211b", "80211g" or "80211n", or no [mesh]',
            )
        )
    if s.mac.beacon_interval_tu is not None:
        issues.append(
            _Issue(
                ("mac", "beacon_interval_tu"),
                "is for access points; mesh points beacon at mesh.beacon_interval_tu",
                s.mac.beacon_interval_tu,
                "unset",
            )
        )


def _scenario_checks(b: _Build) -> None:
    """The report interval, and a scenario without traffic or without nodes."""
    s, issues = b.s, b.issues
    _mesh_checks(b)
    if s.channel.fading in ("tgn-b", "tgn-d") and s.standard in ("80211ac", "80211ax"):
        issues.append(
            _Issue(
                ("channel", "fading"),
                f"the TGn channel is not modelled on {s.standard} (its 80 and 160 MHz "
                "subcarriers are not)",
                s.channel.fading,
                '"none", "rayleigh", "nakagami" or "doppler"',
            )
        )
    for name in ("receptions", "positions"):
        if getattr(s.traces, name) and s.channel.model != "radio":
            issues.append(
                _Issue(
                    ("traces", name),
                    'needs channel.model = "radio" (the range model has no powers and no motion)',
                    True,
                    'false, or channel.model = "radio"',
                )
            )
    aggregates = s.standard in HT_STANDARDS and (s.ht is None or s.ht.ampdu)
    if s.mac.ba_retry_remedy and not aggregates:
        issues.append(
            _Issue(
                ("mac", "ba_retry_remedy"),
                "needs A-MPDUs under Block Ack (802.11n, ac or ax with ht.ampdu)",
                True,
                'false, or standard = "80211n", "80211ac" or "80211ax" with ht.ampdu = true',
            )
        )
    node_controls = [n.rate_control for n in s.nodes or [] if n.rate_control]
    if s.mac.minstrel_status != "rt2x00" and "minstrel-rt2800" not in (
        s.mac.rate_control,
        *node_controls,
    ):
        issues.append(
            _Issue(
                ("mac", "minstrel_status"),
                'is not used: no MAC runs rate_control "minstrel-rt2800"',
                s.mac.minstrel_status,
                '"rt2x00", or mac.rate_control or a node\'s rate_control "minstrel-rt2800"',
            )
        )
    for knob, on in (("arf_window_rtt", s.mac.arf_window_rtt != "smoothed"),
                     ("arf_window_every_slot", s.mac.arf_window_every_slot)):  # fmt: skip
        if on and s.mac.arf_window_slot_ms is None:
            issues.append(
                _Issue(
                    ("mac", knob),
                    "needs mac.arf_window_slot_ms (paper 003's window is off)",
                    getattr(s.mac, knob),
                    '"smoothed" or false, or mac.arf_window_slot_ms set',
                )
            )
    if s.traces.windows and s.mac.arf_window_slot_ms is None:
        issues.append(
            _Issue(
                ("traces", "windows"),
                "needs mac.arf_window_slot_ms (paper 003's window makes the decisions it traces)",
                True,
                "false, or mac.arf_window_slot_ms set",
            )
        )
    if s.traces.mpdus and not aggregates:
        issues.append(
            _Issue(
                ("traces", "mpdus"),
                "needs A-MPDUs (802.11n, ac or ax with ht.ampdu)",
                True,
                'false, or standard = "80211n", "80211ac" or "80211ax" with ht.ampdu = true',
            )
        )
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


def _channel(b: _Build) -> None:
    """The generated nodes within range, and the shape of channel.matrix."""
    s, issues, names = b.s, b.issues, b.names
    n = len(names)
    rx_range = b.rx_range
    matrix = s.channel.matrix
    b.matrix_ok = False
    if rx_range is None:
        return  # the radio model: the core's decode test decides (the flows' reachability)
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
    if matrix is None:
        return
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
    b.matrix_ok = not any(i.loc[:2] == ("channel", "matrix") for i in issues)
    if b.matrix_ok:
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


# -- wired links -------------------------------------------------------------------------------


def _wired_links(b: _Build) -> None:
    """The [[links]] entries between known, different nodes, one per pair."""
    s, issues = b.s, b.issues
    wired: list[set[int]] = [set() for _ in range(len(b.nodes))]
    b.wired, b.links_spec = wired, []
    for i, link in enumerate(s.links):
        end_a = b.known(link.a, ("links", i, "a"))
        end_b = b.known(link.b, ("links", i, "b"))
        if end_a is None or end_b is None:
            continue
        if end_a == end_b:
            issues.append(
                _Issue(("links", i, "b"), "a link needs two different nodes", link.b, "not a")
            )
            continue
        if end_b in wired[end_a]:
            issues.append(
                _Issue(
                    ("links", i),
                    f"duplicate link between {json.dumps(link.a)} and {json.dumps(link.b)}",
                    _Raw(f"{link.a} - {link.b} again"),
                    "one link per node pair",
                )
            )
            continue
        wired[end_a].add(end_b)
        wired[end_b].add(end_a)
        b.links_spec.append(
            {
                "a": end_a,
                "b": end_b,
                "rate_bps": round(link.rate_mbps * 1e6),
                "delay_ns": round(link.delay_ms * 1e6),
                "queue_limit_packets": link.queue_limit_packets,
                "loss": link.loss,
                "reverse_loss": link.reverse_loss,
            }
        )


# -- wireless adjacency ------------------------------------------------------------------------


def _wireless_adjacency(b: _Build) -> None:
    """Neighbours and computed routes, from the core (airtcp.config.routes); a chain blocks
    every radio link but those between consecutive chain nodes."""
    s = b.s
    b.blocked = chain_blocked_links(s.hops + 1 if s.topology == "chain" else 0)
    _mesh_blocked_links(b)
    channel = _channel_spec(b)
    if not b.matrix_ok:
        channel["matrix"] = None  # its problems are reported; the ranges decide meanwhile
    topology = {
        "standard": _non_ht(s),  # the band's non-HT modes decide the routes
        "nodes": _nodes_spec(b),
        "channel": channel,
        "wired_links": b.links_spec,
        "blocked_radio_links": b.blocked,
    }
    n = len(b.nodes)
    if n == 0:  # reported by the nodes step
        b.conn = Connectivity()
        return
    try:
        b.conn = connectivity(topology)
    except ValueError as e:
        # Every check the core makes is made here first; a disagreement is ours to report.
        b.issues.append(_Issue(("nodes",), f"the core rejects the topology: {e}"))
        b.conn = Connectivity.isolated(len(b.nodes))


# -- explicit routes ---------------------------------------------------------------------------


def _explicit_routes(b: _Build) -> None:
    """The [[routes]] entries: known nodes, a neighbour as next hop, one per (node, dst)."""
    s, issues, names, neighbours_of = b.s, b.issues, b.names, b.conn.neighbours
    explicit: dict[tuple[int, int], int] = {}
    b.explicit = explicit
    for i, route in enumerate(s.routes):
        u = b.known(route.node, ("routes", i, "node"))
        d = b.known(route.dst, ("routes", i, "dst"))
        v = b.known(route.next_hop, ("routes", i, "next_hop"))
        if u is None or d is None or v is None:
            continue
        if u == d:
            issues.append(
                _Issue(("routes", i, "dst"), "a node needs no route to itself", route.dst, "")
            )
            continue
        if v not in neighbours_of(u):
            neighbours = [names[k] for k in sorted(neighbours_of(u))]
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


# -- flows (names) -----------------------------------------------------------------------------


def _flow_names(b: _Build) -> None:
    """The flows' sources and destinations: the [[flows]] entries, else the default flows."""
    s = b.s
    b.flow_pairs = []
    if s.flows:
        for i, flow in enumerate(s.flows):
            _flow_entry(b, i, flow)
            n = len(b.flow_pairs)
            if n > MAX_FLOWS:  # checked as they grow: a glob can give thousands
                b.issues.append(
                    _Issue(
                        ("flows",),
                        f"more than the limit of {MAX_FLOWS} flows (flows.0..{i} give {n})",
                        _Raw(f"{n} flows"),
                        f"at most {MAX_FLOWS} flows in all; a glob src gives one flow per node "
                        "it matches",
                    )
                )
                b.flow_pairs = []
                return
    elif s.topology == "bss":
        b.flow_pairs = [(None, ("flows",), k, 0) for k in range(1, s.stations + 1)]
    elif s.topology == "chain":
        b.flow_pairs = [(None, ("flows",), 0, s.hops)]
    else:
        b.issues.append(
            _Issue(("flows",), "a custom topology needs at least one [[flows]] entry", [], "")
        )


def _flow_entry(b: _Build, i: int, flow: FlowConfig) -> None:
    """``flows.i``: its rate, report interval, start, and one pair per source it names."""
    s, issues, names = b.s, b.issues, b.names
    d = b.known(flow.dst, ("flows", i, "dst"))
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
    elif flow.start_s + flow.start_jitter_s >= s.duration_s:
        issues.append(
            _Issue(
                ("flows", i, "start_jitter_s"),
                f"start_s + start_jitter_s must be < duration_s = {_num(s.duration_s)}",
                flow.start_jitter_s,
                f"number >= 0 and < {_num(s.duration_s - flow.start_s)} seconds",
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
        k = b.known(flow.src, ("flows", i, "src"))
        srcs = [] if k is None else [k]
        if k is not None and k == d:
            issues.append(_Issue(("flows", i, "dst"), "same node as src", flow.dst, "not src"))
            srcs = []
    if d is not None:
        b.flow_pairs.extend((flow, ("flows", i), src, d) for src in srcs)


# -- TCP: the shortcuts over [tcp] -------------------------------------------------------------


def _tcp_shortcuts(b: _Build) -> None:
    """The top-level TCP shortcuts only with TCP flows, and min_rto <= tcp.max_rto_ms."""
    s, issues = b.s, b.issues
    b.default_kind = "tcp_bulk" if s.traffic == "tcp" else "udp_saturating"
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
                    '"tcp_bulk" or "tcp_file"',
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


def _tcp_base(b: _Build) -> None:
    """The TCP parameters of every TCP flow: [tcp] with the top-level shortcuts over it."""
    s, t = b.s, b.s.tcp
    min_rto = s.min_rto_ms if s.min_rto_ms is not None else t.min_rto_ms
    delayed_ack = s.delayed_ack if s.delayed_ack is not None else t.delayed_ack
    b.tcp_base = {
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
        "corruption": t.corruption,
        "small_queues": t.small_queues,
        "rto_estimator": t.rto_estimator,
        "ack_counting": t.ack_counting,
        **t.core_fields(),  # the [tcp] keys the core takes as written (_PassThrough)
    }
    profile = b.tcp_base.get("profile")
    if profile is not None:
        # A profile's value for each of its fields nobody wrote: [tcp], a top-level shortcut.
        written = set(t.model_fields_set) | set(t.core_fields())
        written |= {k for k in ("cc", "recovery", "min_rto_ms") if getattr(s, k) is not None}
        if s.delayed_ack is not None:
            written |= {"ack_every"}
        for key, value in _tables.tcp_profiles().get(profile, {}).items():
            if key not in written:
                b.tcp_base[key] = value


# -- computed routes: shortest hop count, ties to the lowest node index ------------------------


def _computed_routes(b: _Build) -> None:
    """The core's route table with the explicit routes over it (to trace the flows); the world
    spec carries only the explicit routes, the core computes the others again."""
    b.next_hop = RouteTable(b.conn, b.explicit)
    b.routes_spec = [
        {"node": u, "dst": d, "next_hop": v} for (u, d), v in sorted(b.explicit.items())
    ]


# -- flows (reachability) ----------------------------------------------------------------------


def _flows(b: _Build) -> None:
    """The flows of the world spec, each checked for a path there and, if it needs one, back."""
    b.flows_spec = []
    for fcfg, floc, src, dst in b.flow_pairs:
        flow = _flow_spec(b, fcfg, floc, src, dst)
        if flow is not None:
            b.flows_spec.append(flow)


def _flow_spec(
    b: _Build, fcfg: FlowConfig | None, floc: tuple[str | int, ...], src: int, dst: int
) -> dict[str, Any] | None:
    """One flow of the world spec; None if it has a problem (in ``b.issues``)."""
    s = b.s
    if not _reachable(b, fcfg, floc, src, dst):
        return None
    kind = fcfg.kind if fcfg else b.default_kind
    if kind == "clap_file" and not _clap_sender_ok(b, floc, src, dst):
        return None
    if not _answers_come_back(b, fcfg, floc, kind, src, dst):
        return None
    payload = s.payload_bytes
    if fcfg is not None and fcfg.payload_bytes is not None:
        payload = fcfg.payload_bytes
    flow = {
        "kind": kind,
        "src": src,
        "dst": dst,
        "payload_bytes": payload,
        "rate_bps": round(fcfg.rate_mbps * 1e6) if fcfg and fcfg.rate_mbps else None,
        "start_ns": _ns(fcfg.start_s) if fcfg else 0,
        "stop_ns": _ns(fcfg.stop_s) if fcfg and fcfg.stop_s is not None else None,
        "ac": fcfg.ac if fcfg else "be",
    }
    if fcfg is not None and fcfg.kind == "udp_onoff":
        assert fcfg.on_ms is not None and fcfg.off_ms is not None  # the model requires them
        flow["on_off"] = {
            "on_mean_ns": max(1, round(fcfg.on_ms * 1e6)),
            "off_mean_ns": max(1, round(fcfg.off_ms * 1e6)),
            "distribution": fcfg.periods,
            "pareto_shape": fcfg.pareto_shape,
        }
    if fcfg is not None:
        flow["start_jitter_ns"] = _ns(fcfg.start_jitter_s)
    interval = s.report_interval_s
    if fcfg is not None and fcfg.report_interval_s is not None:
        interval = fcfg.report_interval_s
    if interval is not None:
        flow["report_interval_ns"] = _ns(interval)
    if kind in _TCP_KINDS:
        tcp = dict(b.tcp_base)
        if fcfg is not None and fcfg.cc is not None:
            tcp["cc"] = fcfg.cc
        if fcfg is not None and fcfg.recovery is not None:
            tcp["recovery"] = fcfg.recovery
        flow["payload_bytes"] = tcp["mss_bytes"]
        flow["file_bytes"] = fcfg.file_bytes if fcfg else None
        flow["tcp"] = tcp
    if kind == "clap_file" and fcfg is not None:
        if not _clap_fits(b, fcfg, floc):
            return None
        c = s.clap
        flow["payload_bytes"] = c.mss_bytes
        flow["file_bytes"] = fcfg.file_bytes
        flow["clap"] = {
            "mss_bytes": c.mss_bytes,
            "feedback_interval_ms": float(c.feedback_interval_ms),
            "max_nack_ranges": c.max_nack_ranges,
            "queue_target_frames": c.queue_target_frames,
            "send_buffer_segments": c.send_buffer_segments,
            **c.core_fields(),
        }
    return flow


# Unreachable flows whose message gives the link budget (each costs a call to the core).
_BUDGET_NOTES = 20


def _reachable(
    b: _Build, fcfg: FlowConfig | None, floc: tuple[str | int, ...], src: int, dst: int
) -> bool:
    """The route table leads from src to dst; else an issue naming the nodes src reaches."""
    names, next_hop = b.names, b.next_hop
    problem = _trace_path(src, dst, next_hop, names)
    if not problem:
        return True
    label = f"{names[src]} -> {names[dst]}"
    if fcfg is None:
        what = f'default flow {label} (topology "{b.s.topology}"): {problem}'
    else:
        what = f"{names[dst]} is unreachable from {names[src]}: {problem}"
        floc = (*floc, "dst")
    reach = [
        names[k]
        for k in range(len(names))
        if k != src and _trace_path(src, k, next_hop, names) is None
    ]
    allowed = f"a node reachable from {names[src]}: {_names(reach)}" if reach else ""
    if not reach:
        allowed = _isolation_hint(b.nodes[src], b.rx_range)
    if b.rx_range is None and len(b.issues) < _BUDGET_NOTES:  # the radio model: the numbers
        what += nearest_peer(
            {
                "standard": _non_ht(b.s),
                "nodes": _nodes_spec(b),
                "channel": _channel_spec(b),
                "blocked_radio_links": b.blocked,
            },
            dst if reach else src,
        )
    b.issues.append(_Issue(floc, what, names[dst], allowed))
    return False


def _clap_sender_ok(b: _Build, floc: tuple[str | int, ...], src: int, dst: int) -> bool:
    """A CLAP sender sends its first hop over its own WiFi; else an issue."""
    names = b.names
    first = b.next_hop.get((src, dst), dst)
    why = None
    if not b.nodes[src].wifi:
        why = f"{names[src]} has no WiFi"
    elif first in b.wired[src]:
        why = f"its first hop {names[src]} -> {names[first]} is a wired link"
    if why is None:
        return True
    # docs/clap.md: the sender's own MAC feeds the rate law; a wired sender (data
    # downlink through the AP) is an open question.
    b.issues.append(
        _Issue(
            (*floc, "src"),
            f"a CLAP sender must send over its own WiFi MAC (its MAC feeds the rate), but {why}",
            names[src],
            "a WiFi node (not a wired host) whose first hop toward dst is radio",
        )
    )
    return False


def _answers_come_back(
    b: _Build,
    fcfg: FlowConfig | None,
    floc: tuple[str | int, ...],
    kind: str,
    src: int,
    dst: int,
) -> bool:
    """A TCP or CLAP flow's ACKs or feedback find their way back to src; else an issue."""
    names = b.names
    answers = kind in (*_TCP_KINDS, "clap_file")  # ACKs or feedback come back
    back = _trace_path(dst, src, b.next_hop, names) if answers else None
    if not back:
        return True
    where = f"{names[src]} -> {names[dst]}"
    acks = "feedback" if kind == "clap_file" else "ACKs"
    b.issues.append(
        _Issue(
            (*floc, "dst") if fcfg is not None else floc,
            f"{'CLAP' if kind == 'clap_file' else 'TCP'} flow {where}: its {acks} "
            f"cannot get back from {names[dst]} to {names[src]}: {back}",
            names[dst],
            "a destination with a route back (check [[routes]] and channel.matrix)",
        )
    )
    return False


def _clap_fits(b: _Build, fcfg: FlowConfig, floc: tuple[str | int, ...]) -> bool:
    """A clap_file flow's file fits CLAP's 32-bit segment numbers; else an issue."""
    c = b.s.clap
    segments = -(-(fcfg.file_bytes or 0) // c.mss_bytes)
    if segments <= MAX_CLAP_SEGMENTS:
        return True
    b.issues.append(
        _Issue(
            (*floc, "file_bytes"),
            f"{segments} segments of clap.mss_bytes = {c.mss_bytes}, more than "
            f"CLAP's {MAX_CLAP_SEGMENTS}",
            fcfg.file_bytes,
            f"at most {MAX_CLAP_SEGMENTS} x clap.mss_bytes bytes",
        )
    )
    return False


# -- the world spec ----------------------------------------------------------------------------


def _world(b: _Build) -> dict[str, Any]:
    """The world spec from what the steps built."""
    s = b.s
    return {
        "duration_ns": _ns(s.duration_s),
        "warmup_ns": _ns(s.warmup_s),
        "wifi": _wifi_spec(b),
        "channel": _channel_spec(b),
        "nodes": _nodes_spec(b),
        "wired_links": b.links_spec,
        "routes": b.routes_spec,
        "blocked_radio_links": b.blocked,
        "flows": b.flows_spec,
        **({"mesh": _mesh_spec(s.mesh)} if s.mesh is not None else {}),
        "traces": {**s.traces.model_dump(), **s.traces.core_fields()},
    }


def _nodes_spec(b: _Build) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for node in b.nodes:
        spec: dict[str, Any] = {
            "name": node.name,
            "position_m": [float(c) for c in node.pos],
            "wifi": node.wifi,
            "role": node.role,
        }
        if node.rate_control is not None:
            spec["rate_control"] = node.rate_control
        if node.tx_power_dbm is not None:
            spec["tx_power_dbm"] = float(node.tx_power_dbm)
        if node.mobility is not None:
            spec["mobility"] = node.mobility
        out.append(spec)
    return out


def _starts_at_data_rate(b: _Build) -> bool:
    """Whether a data rate the scenario sets is where adaptive rate controls start: the
    channel's or a node's own rate control is adaptive (the core refuses the starting rate
    otherwise: crates/airtcp-core/src/spec/wifi.rs, check_initial_rate_used)."""
    controls = [b.s.mac.rate_control, *(n.rate_control for n in b.nodes if n.rate_control)]
    return b.s.data_rate_mbps is not None and any(rc != "constant" for rc in controls)


def _wifi_spec(b: _Build) -> dict[str, Any]:
    s, mac = b.s, b.s.mac
    ht = b.ht
    start = ht is None and _starts_at_data_rate(b)
    return {
        "standard": s.standard,
        "erp_mixed": s.erp_mixed,
        "preamble": s.preamble,
        **({"data_rate_mbps": float(b.data_rate)} if ht is None else {}),
        "initial_rate_mbps": float(b.data_rate)
        if start
        else None,  # None: the canonical form drops it
        **(
            {
                "ht": {
                    "band_ghz": float(ht.band_ghz),
                    "channel_width_mhz": ht.channel_width_mhz,
                    "short_gi": ht.short_gi,
                    **({"gi_ns": ht.gi_ns} if ht.gi_ns is not None else {}),
                    "streams": ht.streams,
                    "mcs": ht.mcs,
                    "ampdu": ht.ampdu,
                    "aggregation": ht.aggregation,
                    "max_ampdu_time_us": ht.max_ampdu_time_us,
                    **(
                        {"max_ampdu_bytes": ht.max_ampdu_bytes}
                        if ht.max_ampdu_bytes is not None
                        else {}
                    ),
                    "ampdu_adaptation": ht.ampdu_adaptation,
                    "ppdu_attempts": ht.ppdu_attempts,
                    "mpdu_retries": ht.mpdu_retries,
                    **ht.core_fields(),
                }
            }
            if ht is not None
            else {}
        ),  # fmt: skip
        "basic_rate_mbps": float(b.basic_rate),
        "access": b.access,
        "cw_min": mac.cw_min,
        **({"a_cw_min": mac.a_cw_min} if mac.a_cw_min is not None else {}),
        "cw_max": mac.cw_max,
        "aifsn": mac.aifsn,
        "short_retry_limit": s.retry_limit if s.retry_limit is not None else mac.short_retry_limit,
        "long_retry_limit": s.retry_limit if s.retry_limit is not None else mac.long_retry_limit,
        "rts_threshold_bytes": mac.rts_threshold_bytes,
        "queue_limit_packets": mac.queue_limit_packets,
        "rate_control": mac.rate_control,
        "data_header_bytes": mac.data_header_bytes,
        "pass_corrupt": mac.pass_corrupt,
        "lnmac": mac.lnmac,
        "beacon_interval_tu": mac.beacon_interval_tu,
        "arf_window_slot_ms": None
        if mac.arf_window_slot_ms is None
        else float(mac.arf_window_slot_ms),
        # Written only when set, so that the specs of every other world stay as they were.
        **({"minstrel_status": mac.minstrel_status} if mac.minstrel_status != "rt2x00" else {}),
        **({"backoff_rule": mac.backoff_rule} if mac.backoff_rule != "standard" else {}),
        **({"arf_window_rtt": mac.arf_window_rtt} if mac.arf_window_rtt != "smoothed" else {}),
        **({"arf_window_every_slot": True} if mac.arf_window_every_slot else {}),
        "ba_retry_remedy": mac.ba_retry_remedy,
        "per_station_grants": mac.per_station_grants,
        **(
            {
                "qdisc": {
                    "kind": mac.qdisc,
                    # sch_fq_codel's own limit (10,240 packets) unless one is written.
                    "limit_packets": 10_240
                    if mac.qdisc == "fq-codel" and "qdisc_limit_packets" not in mac.model_fields_set
                    else mac.qdisc_limit_packets,
                    "codel_target_ms": float(mac.codel_target_ms),
                    "codel_interval_ms": float(mac.codel_interval_ms),
                    **({"ecn": mac.codel_ecn} if mac.codel_ecn is not None else {}),
                }
            }
            if mac.qdisc != "none"
            else {}
        ),
        **(
            {
                "txq": {
                    "target_ms": float(mac.txq_target_ms),
                    "interval_ms": float(mac.txq_interval_ms),
                    "quantum_bytes": mac.txq_quantum_bytes,
                    "limit_packets": mac.txq_limit_packets,
                    "airtime_fairness": mac.airtime_fairness,
                    "aql": mac.aql,
                    "aql_low_us": mac.aql_low_us,
                    "aql_high_us": mac.aql_high_us,
                    "aql_threshold_us": mac.aql_threshold_us,
                    **({} if mac.txq_ecn else {"ecn": False}),
                }
            }
            if mac.txq != "none"
            else {}
        ),
        **mac.core_fields(),  # the [mac] keys the core takes as written (_PassThrough)
    }


def _channel_spec(b: _Build) -> dict[str, Any]:
    ch = b.s.channel
    if ch.model == "radio":
        return {"radio": _radio_spec(b)}
    matrix = ch.matrix
    return {
        "rx_range_m": float(ch.rx_range_m),
        "cs_range_m": float(ch.cs_range_m if ch.cs_range_m is not None else ch.rx_range_m),
        "matrix": None
        if matrix is None
        else {"rx": [list(r) for r in matrix.rx], "cs": [list(r) for r in matrix.cs]},
        "error": ch.error.model_dump(),
        "preamble_detection": bool(ch.preamble_detection),
    }


def _radio_rates(b: _Build) -> None:
    """The per-rate tables of the radio model name rates of the standard (for 802.11n its
    band's non-HT rates; HT modes take the fallback power and sensitivity)."""
    from airtcp.tables import rates_mbps  # the core's table (airtcp.analytic is heavier)

    allowed = rates_mbps(_non_ht(b.s))
    for name in ("tx_power_by_rate_dbm", "rx_sensitivity_by_rate_dbm"):
        for k, pair in enumerate(getattr(b.s.channel, name)):
            if not any(abs(pair[0] - r) < 1e-9 for r in allowed):
                b.issues.append(
                    _Issue(
                        ("channel", name, k),
                        f"{_num(pair[0])} Mbit/s is not a rate of {b.s.standard}",
                        _Raw(str(pair)),
                        "[rate_mbps, dbm] with a rate of " + ", ".join(_num(r) for r in allowed),
                    )
                )


def _radio_spec(b: _Build) -> dict[str, Any]:
    """channel.radio of the world spec (crates/airtcp-core/src/spec/channel.rs RadioSpec)."""
    ch = b.s.channel
    if ch.path_loss == "friis":
        path_loss: dict[str, Any] = {
            "kind": "friis",
            "frequency_hz": ch.frequency_ghz * 1e9,
            "system_loss_db": ch.system_loss_db,
        }
    else:
        path_loss = {
            "kind": "log-distance",
            "exponent": ch.path_loss_exponent,
            "reference_distance_m": ch.reference_distance_m,
            "reference_loss_db": ch.reference_loss_db,
        }
    coherence = None if ch.coherence_ms is None else max(1, round(ch.coherence_ms * 1e6))
    fading: dict[str, Any] = {"kind": ch.fading}
    if ch.fading == "doppler":
        fading["doppler_hz"] = ch.doppler_hz
        if b.s.mobility is not None or any(n.mobility is not None for n in b.s.nodes):
            # A moving node adds its speed over the wavelength (fading.carrier_hz); without
            # one the key stays out, so a still scenario's world spec is as before.
            fading["carrier_hz"] = ch.frequency_ghz * 1e9
    elif ch.fading in ("tgn-b", "tgn-d"):
        # TGn (IEEE 802.11-03/940r4 section 4.7): f_d = v_0 / lambda, v_0 = 1.2 km/h.
        tgn_hz = TGN_V0_MPS * ch.frequency_ghz * 1e9 / SPEED_OF_LIGHT_MPS
        fading = {
            "kind": "tgn",
            "model": ch.fading[-1].upper(),
            "doppler_hz": tgn_hz if ch.doppler_hz is None else ch.doppler_hz,
        }
    elif ch.fading != "none":
        fading["coherence_ns"] = coherence
    if ch.fading == "nakagami":
        fading["m"] = ch.nakagami_m
    detect = ch.preamble_detection is None or ch.preamble_detection
    # Written only when set, so a scenario without it keeps its world spec.
    seed = {} if ch.fading_seed is None else {"fading_seed": ch.fading_seed}
    exact = {"exact": True} if ch.exact else {}
    return {
        **seed,
        **exact,
        "shadowing_db": ch.shadowing_db,
        "path_loss": path_loss,
        "fading": fading,
        "estimation": ch.estimation,
        "tx_power_dbm": ch.tx_power_dbm,
        "tx_power_by_rate_dbm": [[float(r), float(p)] for r, p in ch.tx_power_by_rate_dbm],
        "noise_figure_db": ch.noise_figure_db,
        "rx_sensitivity_dbm": ch.rx_sensitivity_dbm,
        "rx_sensitivity_by_rate_dbm": [
            [float(r), float(p)] for r, p in ch.rx_sensitivity_by_rate_dbm
        ],
        "cca_threshold_dbm": ch.cca_threshold_dbm,
        "error_model": ch.error_model,
        "preamble_detection": {
            "snr_db": ch.preamble_detection_snr_db,
            "min_rssi_dbm": ch.preamble_detection_min_rssi_dbm,
        }
        if detect
        else None,
        "capture": {
            "margin_db": ch.capture_margin_db,
            # A window that rounds to 0 ns is reported by _core_units; 1 ns meanwhile.
            "window_ns": max(1, round(ch.capture_window_us * 1e3)),
        }
        if ch.capture
        else None,
    }
