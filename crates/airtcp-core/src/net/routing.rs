//! Connectivity and static routes, computed once from the channel (and only here: Python asks
//! the core through `airtcp._core.connectivity`). Two WiFi nodes are radio neighbours when each
//! decodes the other (`medium::reach`); a wired link joins its two ends. A direct radio hop is
//! used by the routes only where the roles allow it (a station talks to access points only,
//! access points meet over wires, a host has no radio) and the link is not blocked (the chain
//! topology blocks every pair but consecutive nodes, as paper 000's path enforcement does).
//! Routes: fewest hops, ties to the lowest node index (breadth-first search from each
//! destination); explicit routes of the spec override them.

use crate::ids::NodeId;
use crate::medium::reach;
use crate::phy::Standard;
use crate::spec::{ChannelSpec, NodeSpec, Role, RouteSpec, TopologySpec, WiredLinkSpec};

/// What the routes are computed from: the parts of a world spec that shape the graph.
#[derive(Clone, Copy, Debug)]
pub struct Topology<'a> {
    pub standard: Standard,
    pub nodes: &'a [NodeSpec],
    pub channel: &'a ChannelSpec,
    pub wired_links: &'a [WiredLinkSpec],
    pub blocked_radio_links: &'a [[u32; 2]],
}

impl<'a> Topology<'a> {
    pub fn new(
        standard: Standard,
        nodes: &'a [NodeSpec],
        channel: &'a ChannelSpec,
        wired_links: &'a [WiredLinkSpec],
        blocked_radio_links: &'a [[u32; 2]],
    ) -> Topology<'a> {
        Topology { standard, nodes, channel, wired_links, blocked_radio_links }
    }
}

/// A node pair with no route.
pub const NO_ROUTE: u32 = u32::MAX;

/// The graph and the routes of a world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connectivity {
    n: usize,
    /// Per node, its neighbours in node order: wired peers and radio neighbours (each decodes
    /// the other), whatever their roles; an explicit route may name any of them.
    pub neighbours: Vec<Vec<u32>>,
    /// Next hop from u toward d at `u * n + d`, [`NO_ROUTE`] if d is unreachable (or u == d).
    next_hop: Vec<u32>,
}

/// Whether roles `a` and `b` may exchange frames directly over the radio.
pub fn roles_talk(a: Role, b: Role) -> bool {
    use Role::*;
    match (a, b) {
        (Host, _) | (_, Host) => false,
        (Sta, Ap) | (Ap, Sta) => true,
        (Sta, _) | (_, Sta) => false,
        (Ap, Ap) => false, // access points meet over wires
        (Mesh, Mesh) => true,
        (Mesh, _) | (_, Mesh) => false, // a mesh BSS talks to nothing else (no gates here)
        _ => true,                      // ad hoc with ad hoc or with an access point
    }
}

impl Connectivity {
    /// The neighbours and the fewest-hop routes of `t` (explicit routes not applied).
    pub fn compute(t: &Topology) -> Connectivity {
        let n = t.nodes.len();
        let mut wired = vec![false; n * n];
        for l in t.wired_links {
            let (a, b) = (l.a as usize, l.b as usize);
            wired[a * n + b] = true;
            wired[b * n + a] = true;
        }
        let mut blocked = vec![false; n * n];
        for &[a, b] in t.blocked_radio_links {
            let (a, b) = (a as usize, b as usize);
            blocked[a * n + b] = true;
            blocked[b * n + a] = true;
        }
        let radio = |i: usize, j: usize| {
            i != j
                && t.nodes[i].wifi
                && t.nodes[j].wifi
                && reach(t.channel, t.standard, t.nodes, i, j).0
                && reach(t.channel, t.standard, t.nodes, j, i).0
        };
        let mut neighbours = vec![Vec::new(); n];
        let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let w = wired[i * n + j];
                let r = radio(i, j);
                if w || r {
                    neighbours[i].push(j as u32);
                }
                let usable = r && !blocked[i * n + j] && roles_talk(t.nodes[i].role, t.nodes[j].role);
                if w || usable {
                    adj[i].push(j as u32);
                }
            }
        }
        // Breadth-first search from each destination; each node's next hop is its lowest-index
        // neighbour one hop closer (adjacency lists are in node order).
        let mut next_hop = vec![NO_ROUTE; n * n];
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::with_capacity(n);
        for d in 0..n {
            dist.fill(u32::MAX);
            dist[d] = 0;
            queue.push_back(d);
            while let Some(u) = queue.pop_front() {
                for &v in &adj[u] {
                    if dist[v as usize] == u32::MAX {
                        dist[v as usize] = dist[u] + 1;
                        queue.push_back(v as usize);
                    }
                }
            }
            for u in 0..n {
                if dist[u] != u32::MAX && dist[u] > 0 {
                    let v = adj[u].iter().find(|&&v| dist[v as usize] == dist[u] - 1);
                    next_hop[u * n + d] = *v.expect("a node at distance k has a neighbour at k - 1");
                }
            }
        }
        Connectivity { n, neighbours, next_hop }
    }

    /// The next hop from `u` toward `d`, if any.
    pub fn next_hop(&self, u: usize, d: usize) -> Option<u32> {
        let v = self.next_hop[u * self.n + d];
        (v != NO_ROUTE).then_some(v)
    }

    /// Let explicit routes override the computed ones.
    pub fn apply(&mut self, routes: &[RouteSpec]) {
        for r in routes {
            self.next_hop[r.node as usize * self.n + r.dst as usize] = r.next_hop;
        }
    }

    /// Whether `v` is a neighbour of `u` (wired, or each decodes the other).
    pub fn is_neighbour(&self, u: usize, v: usize) -> bool {
        self.neighbours[u].binary_search(&(v as u32)).is_ok()
    }

    /// Follow the routes from `src` to `dst`: `Ok` if they arrive, else where they stop.
    pub fn trace(&self, src: usize, dst: usize) -> Result<(), PathBreak> {
        let mut u = src;
        let mut hops = 0;
        while u != dst {
            let Some(v) = self.next_hop(u, dst) else {
                return Err(PathBreak::NoRoute { at: NodeId(u as u32) });
            };
            hops += 1;
            if hops > self.n {
                return Err(PathBreak::Loop { through: NodeId(v) });
            }
            u = v as usize;
        }
        Ok(())
    }

    /// Every next hop as one row per node (`NO_ROUTE` for none), for Python.
    pub fn table(&self) -> Vec<Vec<u32>> {
        self.next_hop.chunks(self.n.max(1)).map(|c| c.to_vec()).collect()
    }
}

/// The neighbours and computed routes of the topology in `text` (a [`TopologySpec`] as
/// JSON), as JSON: `{"neighbours": [[v, ...], ...], "next_hop": [[v or -1, ...], ...]}`.
pub fn connectivity_json(text: &str) -> Result<String, crate::spec::SpecError> {
    let t = TopologySpec::from_json(text)?;
    let c = Connectivity::compute(&t.topology());
    let next: Vec<Vec<i64>> = c
        .table()
        .iter()
        .map(|row| row.iter().map(|&v| if v == NO_ROUTE { -1 } else { i64::from(v) }).collect())
        .collect();
    Ok(serde_json::json!({"neighbours": c.neighbours, "next_hop": next}).to_string())
}

/// The same as [`connectivity_json`] in binary, for large topologies (a JSON document of N^2
/// numbers takes longer to make and read than the routes take to compute): the node count, the
/// next hops as little-endian `i32` at `u * n + d` (-1: none), and the neighbours as a bitmap
/// of `n` rows of `ceil(n / 8)` bytes (bit `v % 8` of byte `v / 8` of row `u`).
pub fn connectivity_bytes(text: &str) -> Result<(usize, Vec<u8>, Vec<u8>), crate::spec::SpecError> {
    let t = TopologySpec::from_json(text)?;
    let c = Connectivity::compute(&t.topology());
    let n = c.n;
    let mut next = Vec::with_capacity(4 * c.next_hop.len());
    for &v in &c.next_hop {
        let v = if v == NO_ROUTE { -1i32 } else { v as i32 };
        next.extend_from_slice(&v.to_le_bytes());
    }
    let row = n.div_ceil(8);
    let mut bits = vec![0u8; row * n];
    for (u, vs) in c.neighbours.iter().enumerate() {
        for &v in vs {
            bits[u * row + v as usize / 8] |= 1 << (v % 8);
        }
    }
    Ok((n, next, bits))
}

/// Why a path stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathBreak {
    /// No route at this node (the source itself when it has no path at all).
    NoRoute { at: NodeId },
    /// The routes loop; `through` is a node on the loop.
    Loop { through: NodeId },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::ChannelSpec;

    fn node(name: &str, x: f64, role: Role) -> NodeSpec {
        NodeSpec {
            name: name.into(),
            position_m: [x, 0.0, 0.0],
            wifi: role != Role::Host,
            role,
            rate_control: None,
            mobility: None,
            tx_power_dbm: None,
        }
    }

    /// The topology of `nodes` on channel `ch`: 802.11a, no wires, nothing blocked.
    fn open<'a>(nodes: &'a [NodeSpec], ch: &'a ChannelSpec) -> Topology<'a> {
        Topology { standard: Standard::A, nodes, channel: ch, wired_links: &[], blocked_radio_links: &[] }
    }

    fn channel(range_m: f64) -> ChannelSpec {
        serde_json::from_value(serde_json::json!({"rx_range_m": range_m, "cs_range_m": range_m})).unwrap()
    }

    #[test]
    fn a_chain_routes_hop_by_hop_when_far_pairs_are_blocked() {
        // Four ad hoc nodes 10 m apart, range 25 m: n0 hears n1 and n2. Blocking the pairs
        // two apart leaves a 3-hop path from n0 to n3 (paper 000's path enforcement).
        let nodes: Vec<_> = (0..4).map(|i| node(&format!("n{i}"), 10.0 * i as f64, Role::Adhoc)).collect();
        let ch = channel(25.0);
        let open = open(&nodes, &ch);
        let c = Connectivity::compute(&open);
        assert_eq!((c.next_hop(0, 3), c.next_hop(0, 2)), (Some(1), Some(2)));
        let blocked = [[0, 2], [1, 3], [0, 3]];
        let chain = Topology { blocked_radio_links: &blocked, ..open };
        let c = Connectivity::compute(&chain);
        assert_eq!((c.next_hop(0, 3), c.next_hop(1, 3), c.next_hop(2, 3)), (Some(1), Some(2), Some(3)));
        assert_eq!(c.next_hop(3, 0), Some(2));
        assert!(c.is_neighbour(0, 2), "blocked, still a neighbour an explicit route may name");
    }

    #[test]
    fn stations_reach_each_other_only_through_the_access_point() {
        let nodes = [node("ap", 0.0, Role::Ap), node("sta1", 5.0, Role::Sta), node("sta2", 8.0, Role::Sta)];
        let ch = channel(10.0);
        let t = open(&nodes, &ch);
        let c = Connectivity::compute(&t);
        assert_eq!(c.next_hop(1, 2), Some(0));
        assert_eq!(c.trace(1, 2), Ok(()));
    }

    #[test]
    fn a_node_out_of_range_has_no_route_and_a_route_loop_is_found() {
        let nodes = [node("a", 0.0, Role::Adhoc), node("b", 5.0, Role::Adhoc), node("c", 50.0, Role::Adhoc)];
        let ch = channel(10.0);
        let t = open(&nodes, &ch);
        let mut c = Connectivity::compute(&t);
        assert_eq!(c.trace(0, 2), Err(PathBreak::NoRoute { at: NodeId(0) }));
        c.apply(&[RouteSpec { node: 0, dst: 2, next_hop: 1 }, RouteSpec { node: 1, dst: 2, next_hop: 0 }]);
        assert!(matches!(c.trace(0, 2), Err(PathBreak::Loop { .. })));
    }

    #[test]
    fn a_node_exactly_at_the_range_is_a_neighbour() {
        // The issue-10 case: three stations on a 10 m circle with a 10 m range; positions
        // rounded to 9 decimals put some a fraction of a nanometre beyond it (RANGE_SLACK_M).
        let nodes = [
            node("ap", 0.0, Role::Ap),
            NodeSpec { position_m: [-5.0, 8.660254038, 0.0], ..node("sta2", 0.0, Role::Sta) },
        ];
        let d = crate::medium::distance(nodes[0].position_m, nodes[1].position_m);
        assert!(d > 10.0 && d < 10.0 + crate::medium::RANGE_SLACK_M, "{d}");
        let ch = channel(10.0);
        let t = open(&nodes, &ch);
        assert_eq!(Connectivity::compute(&t).next_hop(1, 0), Some(0));
    }
}
