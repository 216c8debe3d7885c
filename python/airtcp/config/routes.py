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
from dataclasses import dataclass
from typing import Any

__all__ = ["Connectivity", "RouteTable", "chain_blocked_links", "connectivity"]


@dataclass(frozen=True)
class Connectivity:
    """Neighbours and computed routes of a topology, by node index."""

    #: per node, its neighbours: wired peers and radio neighbours, whatever their roles
    neighbours: tuple[frozenset[int], ...]
    #: next_hop[u][d]: the next hop from u toward d, -1 if none (or u == d)
    next_hop: tuple[tuple[int, ...], ...]

    def routes(self) -> dict[tuple[int, int], int]:
        """Every computed route ``{(node, dst): next_hop}``; a neighbour is its own next hop."""
        return {
            (u, d): v for u, row in enumerate(self.next_hop) for d, v in enumerate(row) if v >= 0
        }


class RouteTable:
    """The next hop from a node toward a destination: an explicit route if one is given, else
    the core's computed one. Looked up in the core's matrix as asked, never copied into a
    dict of every pair (a BSS of N stations has N^2 of them)."""

    __slots__ = ("_explicit", "_next_hop")

    def __init__(
        self, next_hop: tuple[tuple[int, ...], ...], explicit: dict[tuple[int, int], int]
    ) -> None:
        self._next_hop, self._explicit = next_hop, explicit

    def get(self, key: tuple[int, int], default: int | None = None) -> int | None:
        """The next hop of ``key = (node, dst)``, ``default`` if there is none."""
        if key in self._explicit:
            return self._explicit[key]
        u, d = key
        v = self._next_hop[u][d]
        return v if v >= 0 else default


def connectivity(topology: dict[str, Any]) -> Connectivity:
    """Ask the core for the neighbours and routes of ``topology``: the ``nodes``,
    ``channel``, ``wired_links`` and ``blocked_radio_links`` of a world spec.

    Raises ValueError (the core's message) if those sections are invalid.
    """
    from airtcp import _core

    data = json.loads(_core.connectivity(json.dumps(topology)))
    return Connectivity(
        neighbours=tuple(frozenset(row) for row in data["neighbours"]),
        next_hop=tuple(tuple(row) for row in data["next_hop"]),
    )


def chain_blocked_links(chain_len: int) -> list[list[int]]:
    """The radio links a chain of ``chain_len`` nodes blocks: every pair but consecutive
    nodes, so traffic hops along the chain even where farther nodes hear each other (paper
    000's path enforcement)."""
    return [[i, j] for i in range(chain_len) for j in range(i + 2, chain_len)]
