"""Who talks to whom, as the Rust core computes it (``crates/airtcp-core/src/net/routing.rs``).

The core owns the rule: two WiFi nodes are radio neighbours when each decodes the other
(the channel matrix, or the distance within ``channel.rx_range_m``), a wired link joins its
two ends, the roles decide which radio hops the routes may use, blocked radio links are never
used, and routes take the fewest hops with ties to the lowest node index. The expansion asks
the core (:func:`connectivity`) for the neighbours and the computed routes, to check explicit
routes and to explain a flow that cannot arrive; the world spec carries only the explicit
routes and the blocked links, and the core computes the same routes again when it runs.
"""

from __future__ import annotations

import bisect
import json
import sys
from array import array
from typing import Any

__all__ = ["Connectivity", "RouteTable", "chain_blocked_links", "connectivity"]


class Connectivity:
    """Neighbours and computed routes of a topology, by node index, as the core computed them
    (kept in the core's binary form: each node's routes as runs of destinations with the same
    next hop, a few per node in a BSS, and an N^2-bit neighbour map, read as asked)."""

    __slots__ = ("_bits", "_hops", "_offsets", "_row", "_starts", "n")

    def __init__(
        self,
        n: int = 0,
        offsets: bytes = b"\0\0\0\0",
        starts: bytes = b"",
        hops: bytes = b"",
        neighbour_bits: bytes = b"",
    ) -> None:
        self.n = n
        self._offsets, self._starts, self._hops = array("I"), array("I"), array("i")
        self._offsets.frombytes(offsets)
        self._starts.frombytes(starts)
        self._hops.frombytes(hops)
        if sys.byteorder != "little":
            for a in (self._offsets, self._starts, self._hops):
                a.byteswap()
        self._bits = neighbour_bits
        self._row = (n + 7) // 8

    @classmethod
    def isolated(cls, n: int) -> Connectivity:
        """``n`` nodes without neighbours or routes."""
        offsets = array("I", range(n + 1)).tobytes()
        return cls(
            n, offsets, bytes(4 * n), array("i", [-1]).tobytes() * n, bytes(((n + 7) // 8) * n)
        )

    def next_hop(self, u: int, d: int) -> int:
        """The next hop from ``u`` toward ``d``, -1 if none (or ``u == d``)."""
        lo, hi = self._offsets[u], self._offsets[u + 1]
        k = bisect.bisect_right(self._starts, d, lo, hi) - 1
        if k < lo:
            return -1
        v = self._hops[k]
        return d if v == -2 else v

    def neighbours(self, u: int) -> frozenset[int]:
        """Node ``u``'s neighbours: wired peers and radio neighbours, whatever their roles."""
        row = self._bits[u * self._row : (u + 1) * self._row]
        return frozenset(
            8 * i + b for i, byte in enumerate(row) if byte for b in range(8) if byte >> b & 1
        )

    def routes(self) -> dict[tuple[int, int], int]:
        """Every computed route ``{(node, dst): next_hop}``; a neighbour is its own next hop."""
        n = self.n
        out = {}
        for u in range(n):
            for d in range(n):
                v = self.next_hop(u, d)
                if v >= 0:
                    out[(u, d)] = v
        return out


class RouteTable:
    """The next hop from a node toward a destination: an explicit route if one is given, else
    the core's computed one. Looked up in the core's runs as asked, never copied into a dict
    of every pair (a BSS of N stations has N^2 of them)."""

    __slots__ = ("_conn", "_explicit")

    def __init__(self, conn: Connectivity, explicit: dict[tuple[int, int], int]) -> None:
        self._conn, self._explicit = conn, explicit

    def get(self, key: tuple[int, int], default: int | None = None) -> int | None:
        """The next hop of ``key = (node, dst)``, ``default`` if there is none."""
        if key in self._explicit:
            return self._explicit[key]
        v = self._conn.next_hop(*key)
        return v if v >= 0 else default


def connectivity(topology: dict[str, Any]) -> Connectivity:
    """Ask the core for the neighbours and routes of ``topology``: the ``nodes``,
    ``channel``, ``wired_links`` and ``blocked_radio_links`` of a world spec.

    Raises ValueError (the core's message) if those sections are invalid.
    """
    from airtcp import _core

    n, offsets, starts, hops, bits = _core.connectivity_bytes(json.dumps(topology))
    return Connectivity(n, offsets, starts, hops, bits)


def chain_blocked_links(chain_len: int) -> list[list[int]]:
    """The radio links a chain of ``chain_len`` nodes blocks: every pair but consecutive
    nodes, so traffic hops along the chain even where farther nodes hear each other (paper
    000's path enforcement)."""
    return [[i, j] for i in range(chain_len) for j in range(i + 2, chain_len)]
