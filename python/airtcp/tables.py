"""The core's name tables and limits, read from the Rust core (``crates/airtcp-core/src/tables.rs``),
and the world spec's schema (``airtcp_core::spec::schema``).

Every table that both languages need (the PHY modes and each standard's modes, the congestion
controls, loss recoveries and rate controls, the flow kinds, the core's bounds) is defined once,
in the core; this module is Python's only view of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "PhyMode",
    "congestion_controls",
    "flow_kinds",
    "limits",
    "phy_modes",
    "rate_controls",
    "rates_mbps",
    "recoveries",
    "standard_modes",
    "world_spec_schema",
]


@dataclass(frozen=True)
class PhyMode:
    """One PHY mode: its index in the core's mode table, its name (ns-3's, and for VHT and HE
    the width, streams and guard interval too), its modulation (``dsss``, ``ofdm``,
    ``erp-ofdm``, ``ht``, ``vht`` or ``he``) and its data rate (an HT, VHT or HE mode: at its
    own width, streams and guard interval)."""

    index: int
    name: str
    modulation: str
    rate_mbps: float


@cache
def _tables() -> dict[str, Any]:
    from airtcp import _core

    data: dict[str, Any] = json.loads(_core.tables())
    return data


@cache
def phy_modes() -> tuple[PhyMode, ...]:
    """Every mode of the core's table, in index order."""
    return tuple(
        PhyMode(m["index"], m["name"], m["modulation"], m["rate_kbps"] / 1000)
        for m in _tables()["phy_modes"]
    )


@cache
def standard_modes(standard: str) -> tuple[PhyMode, ...]:
    """The modes of ``standard`` (``80211a``, ``80211b``, ``80211g``), ascending by rate.

    Raises KeyError for another name.
    """
    by_index = {m.index: m for m in phy_modes()}
    return tuple(by_index[i] for i in _tables()["standard_modes"][standard])


@cache
def mcs_modes() -> dict[tuple[str, int, int, int, bool | int], PhyMode]:
    """The VHT and HE modes by (modulation, MCS, width MHz, streams, short GI (VHT) or guard
    interval ns (HE)); the VHT formats the standard leaves out are not there."""
    out: dict[tuple[str, int, int, int, bool | int], PhyMode] = {}
    for m, raw in zip(phy_modes(), _tables()["phy_modes"], strict=True):
        if m.modulation in ("vht", "he"):
            gi = raw["short_gi"] if m.modulation == "vht" else raw["gi_ns"]
            out[(m.modulation, raw["mcs"], raw["channel_width_mhz"], raw["streams"], gi)] = m
    return out


def standards() -> tuple[str, ...]:
    """The standards the core knows."""
    return tuple(_tables()["standard_modes"])


def rates_mbps(standard: str) -> tuple[float, ...]:
    """The data rates of ``standard`` [Mbit/s], ascending."""
    return tuple(m.rate_mbps for m in standard_modes(standard))


def congestion_controls() -> tuple[str, ...]:
    """Congestion-control names the core accepts."""
    return tuple(_tables()["congestion_controls"])


def recoveries() -> tuple[str, ...]:
    """Loss-recovery names the core accepts."""
    return tuple(_tables()["recoveries"])


def rate_controls() -> tuple[str, ...]:
    """Rate-control names the core accepts."""
    return tuple(_tables()["rate_controls"])


def limits() -> dict[str, int]:
    """The core's bounds (``max_queue_packets``, ``max_initial_cwnd``, ...)."""
    return dict(_tables()["limits"])


# The core's world-spec schema, kept beside the package (`airtcp._core.world_spec_schema()`
# makes it in about 9 ms, which every start-up would pay; reading this file takes 1):
# python -m airtcp.docgen rewrites it, and python/tests/test_pass_through.py fails while it
# differs from the core's.
SCHEMA_FILE = Path(__file__).resolve().with_name("world_spec.schema.json")


@cache
def _schema() -> str:
    return SCHEMA_FILE.read_text(encoding="utf-8")


@cache
def schema_dict() -> dict[str, Any]:
    """The world spec's schema, parsed once per process (shared: never change it)."""
    data: dict[str, Any] = json.loads(_schema())
    return data


def tcp_profiles() -> dict[str, dict[str, Any]]:
    """Each TCP profile's settings by name ("rfc": none), as the core's schema holds them
    (``x-profiles`` on TcpSpec's ``profile``)."""
    prop = schema_dict()["$defs"]["TcpSpec"]["properties"]["profile"]
    profiles: dict[str, dict[str, Any]] = prop["x-profiles"]
    return profiles


def tcp_profile_sources() -> dict[str, str]:
    """The kernel source each profile setting follows, by field."""
    prop = schema_dict()["$defs"]["TcpSpec"]["properties"]["profile"]
    sources: dict[str, str] = prop["x-profile-sources"]
    return sources


def family_names(node: dict[str, Any]) -> list[str]:
    """The names a name family's schema allows (a string enum, or a const per documented
    name); empty for any other schema."""
    if "enum" in node:
        return [str(v) for v in node["enum"]]
    names: list[str] = []
    for alt in node.get("oneOf", []):
        if "const" in alt:
            names.append(str(alt["const"]))
        elif "enum" in alt:
            names.extend(str(v) for v in alt["enum"])
        else:
            return []
    return names


@cache
def flow_kinds() -> tuple[str, ...]:
    """The flow kinds the core accepts (``udp_saturating``, ``tcp_bulk``, ...), in the order
    of its ``FlowKind``."""
    return tuple(family_names(schema_dict()["$defs"]["FlowKind"]))


def world_spec_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of a world spec, derived from the core's spec types: every
    field's type, default, allowed names and description (a fresh copy each call)."""
    data: dict[str, Any] = json.loads(_schema())
    return data
