"""The radio model's mean link budget, as the core computes it, and its words for messages.

``airtcp._core.link_budgets`` (``crates/airtcp-core/src/medium/snr.rs``, ``mean_link``) gives,
per directed link of a topology and a PHY mode: the distance, the received power (RSSI) with no
fading and nobody else on the air, the SNR over the noise floor, whether the receiver locks on
(the sensitivity, the per-rate sensitivity, preamble detection), the success rate of a frame
at that SNR and the SNR at which it reaches 90 %. The expansion uses it to say why a node has
no radio neighbour (the decode test of the routes: 1500 bytes at the lowest rate, 90 %), and
:mod:`airtcp.diagnose` to say that a link cannot carry its data rate.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "DECODE_TEST_BYTES",
    "LinkBudget",
    "band_standard",
    "decode_test_mode",
    "describe",
    "link_budgets",
    "mode_name",
    "nearest_peer",
    "percent",
    "roles_talk",
    "topology_of",
]

# The routes' decode test (medium::snr::decodes): a 1500-byte frame at the standard's lowest
# rate gets through at least 90 % of the time on the mean channel.
DECODE_TEST_BYTES = 1500
DECODE_TEST_SUCCESS = 0.9

# A link budget: distance_m, rx_dbm, noise_dbm, snr_db, least_rx_dbm (hear_dbm, lock_dbm,
# detect_rssi_dbm), detect_snr_db, locks, success, needed_snr_db (airtcp._core.link_budgets).
LinkBudget = dict[str, Any]


def topology_of(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The topology of a world spec, as ``airtcp._core.connectivity`` and ``link_budgets``
    take it."""
    return {
        "standard": band_standard(spec["wifi"]),
        "nodes": spec["nodes"],
        "channel": spec["channel"],
        "wired_links": spec.get("wired_links", []),
        "blocked_radio_links": spec.get("blocked_radio_links", []),
    }


def link_budgets(
    topology: Mapping[str, Any],
    links: Sequence[tuple[int, int, str, int]],
    *,
    phy_header: bool = True,
    short_preamble: bool = False,
) -> list[LinkBudget]:
    """The mean link budget of each ``(i, j, mode name, PSDU bytes)`` of ``topology`` (which
    needs ``channel.radio``); ``phy_header = False`` leaves the PHY header out of the frame's
    success (the routes' decode test does)."""
    if not links:
        return []
    from airtcp import _core

    return _core.link_budgets(
        json.dumps(topology), list(links), phy_header=phy_header, short_preamble=short_preamble
    )


def mode_name(standard: str, rate_mbps: float) -> str | None:
    """The name of ``standard``'s non-HT mode at ``rate_mbps`` (None if it has none)."""
    from airtcp.tables import standard_modes

    return next((m.name for m in standard_modes(standard) if m.rate_mbps == rate_mbps), None)


def percent(p: float) -> str:
    """A success rate in words: ``0 %``, ``0.42 %``, ``97.3 %``."""
    return "0 %" if p <= 0.0 else f"{100 * p:.3g} %"


def describe(b: LinkBudget, frame: str) -> str:
    """What a receiver makes of ``frame`` (``"a 1500-byte frame at 6 Mbit/s"``) on the link
    ``b``: its RSSI and SNR, then the threshold that stops it (with its knob) or how often it
    gets through, and the SNR it needs for 90 %."""
    head = f"RSSI {b['rx_dbm']:.1f} dBm, SNR {b['snr_db']:.1f} dB"
    if not b["locks"]:
        rx, least = b["rx_dbm"], b["least_rx_dbm"]
        if rx >= least:
            return (
                f"{head}, below the {b['detect_snr_db']:.1f} dB preamble detection needs "
                "(channel.preamble_detection_snr_db)"
            )
        if least == b["detect_rssi_dbm"]:
            knob = "preamble detection's minimum, channel.preamble_detection_min_rssi_dbm"
        elif least == b["hear_dbm"]:
            knob = "the receive sensitivity, channel.rx_sensitivity_dbm"
        else:
            knob = "the rate's sensitivity, channel.rx_sensitivity_by_rate_dbm"
        return f"{head}, below the {least:.1f} dBm a receiver locks onto ({knob})"
    need = b["needed_snr_db"]
    needs = (
        f"needs SNR >= {need:.1f} dB for {percent(DECODE_TEST_SUCCESS)}"
        if math.isfinite(need)
        else f"never {percent(DECODE_TEST_SUCCESS)}"
    )
    return f"{head}: {frame} gets through {percent(b['success'])} of the time ({needs})"


def roles_talk(a: str, b: str) -> bool:
    """Whether nodes of roles ``a`` and ``b`` may exchange frames over the radio (the core's
    rule, ``net::routing::roles_talk``)."""
    if "host" in (a, b):
        return False
    if "sta" in (a, b):
        return {a, b} == {"sta", "ap"}
    if "mesh" in (a, b):
        return a == b
    return not a == b == "ap"  # access points meet over wires


def band_standard(wifi: Mapping[str, Any]) -> str:
    """The non-HT standard whose modes carry a world spec's control frames and decide its
    routes: the standard itself, or for 802.11n, 802.11ac and 802.11ax that of the band in
    ``wifi.ht.band_ghz``, 802.11a (5 GHz) or 802.11g (2.4 GHz), as the core's
    ``Standard::legacy`` gives it."""
    standard = str(wifi["standard"])
    if standard not in ("80211n", "80211ac", "80211ax"):
        return standard
    return "80211g" if float((wifi.get("ht") or {}).get("band_ghz", 5.0)) == 2.4 else "80211a"


def decode_test_mode(standard: str) -> str:
    """The mode of the routes' decode test: the lowest of ``standard``, a non-HT one (every
    caller passes [`band_standard`]'s)."""
    from airtcp.tables import standard_modes

    return standard_modes(standard)[0].name


def nearest_peer(topology: Mapping[str, Any], k: int) -> str:
    """Why node ``k`` of ``topology`` (the radio model) has no radio neighbour, in numbers:
    of the nodes its role may talk to over a link not blocked, the one whose weaker direction
    is best, with that direction's budget in the decode test. Empty if there is none."""
    nodes = topology["nodes"]
    me = nodes[k]
    blocked = {frozenset(p) for p in topology.get("blocked_radio_links", [])}
    peers = [
        j
        for j, n in enumerate(nodes)
        if j != k
        and me["wifi"]
        and n["wifi"]
        and roles_talk(me["role"], n["role"])
        and frozenset((k, j)) not in blocked
    ]
    if not peers:
        return ""
    mode = decode_test_mode(topology["standard"])
    links = [(a, b, mode, DECODE_TEST_BYTES) for j in peers for a, b in ((k, j), (j, k))]
    budgets = link_budgets(topology, links, phy_header=False)

    def rank(b: LinkBudget) -> tuple[bool, float, float]:
        return (b["locks"], b["success"], b["snr_db"])

    # Each peer's weaker direction (both must decode), then the best of those.
    weaker = [min(budgets[2 * i], budgets[2 * i + 1], key=rank) for i in range(len(peers))]
    best = max(range(len(peers)), key=lambda i: rank(weaker[i]))
    b = weaker[best]
    if b["locks"] and b["success"] >= DECODE_TEST_SUCCESS:
        return ""  # the budget is not what stops it (roles, blocked links, routes)
    i, j = links[2 * best + (0 if b is budgets[2 * best] else 1)][:2]
    from airtcp.tables import phy_modes

    rate = next(m.rate_mbps for m in phy_modes() if m.name == mode)
    frame = f"a {DECODE_TEST_BYTES}-byte frame at {rate:g} Mbit/s"
    return (
        f"; its best link, {nodes[i]['name']} -> {nodes[j]['name']} at "
        f"{b['distance_m']:.4g} m: {describe(b, frame)}"
    )
