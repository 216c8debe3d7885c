"""Who talks to whom: the wireless adjacency of the nodes and the routes computed over it.

Kept apart from the rest of the expansion on purpose: this is the part that a call into the
Rust core will replace. :class:`Radio` answers who decodes whom over the air and which roles
may share a wireless hop; :func:`computed_routes` builds the shortest-hop route table over
the radio and the wired links. Neither checks anything or reports problems.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from airtcp.config.expand import _Node


@dataclass(frozen=True)
class Radio:
    """The wireless adjacency of ``nodes``, by their index.

    ``rx`` is channel.matrix.rx when a well-formed matrix overrides the ranges, else None (the
    distance decides); ``chain_len`` is the number of generated chain nodes (0 unless topology
    "chain"), which talk only to their neighbours along the chain.
    """

    nodes: Sequence[_Node]
    rx: Sequence[Sequence[int]] | None
    rx_range: float
    chain_len: int

    def hears(self, i: int, j: int) -> bool:
        """Node j decodes node i."""
        if self.rx is not None:
            return bool(self.rx[i][j])
        return math.dist(self.nodes[i].pos, self.nodes[j].pos) <= self.rx_range + 1e-9

    def radio_neighbours(self, i: int, j: int) -> bool:
        """Two different WiFi nodes that decode each other."""
        nodes = self.nodes
        return i != j and nodes[i].wifi and nodes[j].wifi and self.hears(i, j) and self.hears(j, i)

    def may_talk(self, i: int, j: int) -> bool:
        """Roles allow a direct wireless hop between i and j."""
        ri, rj = self.nodes[i].role, self.nodes[j].role
        if i < self.chain_len and j < self.chain_len:
            return abs(i - j) == 1  # path enforcement along the chain (paper 000)
        pair = {ri, rj}
        if "host" in pair:
            return False
        if "sta" in pair:
            return pair == {"sta", "ap"}
        return pair != {"ap"}  # adhoc-adhoc, adhoc-ap; not ap-ap (APs meet over wires)


def computed_routes(radio: Radio, wired: Sequence[set[int]]) -> dict[tuple[int, int], int]:
    """The next hop ``{(node, dst): next_hop}`` of every node that can reach dst: shortest hop
    count over the wired links and the wireless hops the roles allow, ties to the lowest node
    index. A neighbour is its own next hop."""
    n = len(radio.nodes)
    may_talk, radio_neighbours = radio.may_talk, radio.radio_neighbours
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
    return next_hop
