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

import json
import sys
from array import array
from typing import Any

__all__ = ["Connectivity", "RouteTable", "chain_blocked_links", "connectivity"]


class Connectivity:
    """Neighbours and computed routes of a topology, by node index, as the core computed them
    (kept in the core's binary form: N^2 next hops and an N^2-bit neighbour map, read as
    asked)."""

    __slots__ = ("_bits", "_next", "_row", "n")

    def __init__(self, n: int = 0, next_hop: bytes = b"", neighbour_bits: bytes = b"") -> None:
        self.n = n
        self._next = array("i")
        self._next.frombytes(next_hop)
        if sys.byteorder != "little":
            self._next.byteswap()
        self._bits = neighbour_bits
        self._row = (n + 7) // 8

    @classmethod
    def isolated(cls, n: int) -> Connectivity:
        """``n`` nodes without neighbours or routes."""
        return cls(n, array("i", [-1]).tobytes() * (n * n), bytes(((n + 7) // 8) * n))

    def next_hop(self, u: int, d: int) -> int:
        """The next hop from ``u`` toward ``d``, -1 if none (or ``u == d``)."""
        return self._next[u * self.n + d]

    def neighbours(self, u: int) -> frozenset[int]:
        """Node ``u``'s neighbours: wired peers and radio neighbours, whatever their roles."""
        row = self._bits[u * self._row : (u + 1) * self._row]
        return frozenset(
            8 * i + b for i, byte in enumerate(row) if byte for b in range(8) if byte >> b & 1
        )

    def routes(self) -> dict[tuple[int, int], int]:
        """Every computed route ``{(node, dst): next_hop}``; a neighbour is its own next hop."""
        n = self.n
        return {(k // n, k % n): v for k, v in enumerate(self._next) if v >= 0}


class RouteTable:
    """The next hop from a node toward a destination: an explicit route if one is given, else
    the core's computed one. Looked up in the core's matrix as asked, never copied into a
    dict of every pair (a BSS of N stations has N^2 of them)."""

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

    n, next_hop, bits = _core.connectivity_bytes(json.dumps(topology))
    return Connectivity(n, next_hop, bits)


def chain_blocked_links(chain_len: int) -> list[list[int]]:
    """The radio links a chain of ``chain_len`` nodes blocks: every pair but consecutive
    nodes, so traffic hops along the chain even where farther nodes hear each other (paper
    000's path enforcement)."""
    return [[i, j] for i in range(chain_len) for j in range(i + 2, chain_len)]
