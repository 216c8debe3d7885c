//! Connectivity and static routes, computed once from the channel (and only here: Python asks
//! the core through `airtcp._core.connectivity`). Two WiFi nodes are radio neighbours when each
//! decodes the other, as the built medium says ([`Reach`]: `Medium::reach` in a world, the
//! same tables built from the channel section for a topology alone); a wired link joins its two
//! ends. A direct radio hop is
//! used by the routes only where the roles allow it (a station talks to access points only,
//! access points meet over wires, a host has no radio) and the link is not blocked (the chain
//! topology blocks every pair but consecutive nodes, as paper 000's path enforcement does).
//! Routes: fewest hops, ties to the lowest node index (breadth-first search from each
//! destination); explicit routes of the spec override them.

use crate::ids::NodeId;
use crate::medium::Reach;
use crate::phy::Standard;
use crate::spec::{NodeSpec, Role, RouteSpec, TopologySpec, WiredLinkSpec, WorldSpec};

/// What the routes are computed from: the parts of a world spec that shape the graph, and who
/// decodes whom over the radio.
#[derive(Clone, Copy, Debug)]
pub struct Topology<'a> {
    pub nodes: &'a [NodeSpec],
    /// Who decodes whom: the built medium's tables ([`crate::medium::Medium::reach`]).
    pub reach: &'a Reach,
    pub wired_links: &'a [WiredLinkSpec],
    pub blocked_radio_links: &'a [[u32; 2]],
}

impl<'a> Topology<'a> {
    /// What a world's routes are computed from, with its medium's `reach`.
    pub fn of_world(spec: &'a WorldSpec, reach: &'a Reach) -> Topology<'a> {
        Topology {
            nodes: &spec.nodes,
            reach,
            wired_links: &spec.wired_links,
            blocked_radio_links: &spec.blocked_radio_links,
        }
    }

    /// What a [`TopologySpec`]'s routes are computed from (the connectivity queries), with its
    /// [`section_reach`].
    pub fn of_section(t: &'a TopologySpec, reach: &'a Reach) -> Topology<'a> {
        Topology {
            nodes: &t.nodes,
            reach,
            wired_links: &t.wired_links,
            blocked_radio_links: &t.blocked_radio_links,
        }
    }
}

/// Who decodes whom in a [`TopologySpec`] without a world: the tables a medium of its channel
/// section and nodes is built with ([`Reach::build`]; its standard, 802.11a unless given, sets
/// the radio model's decode test).
pub fn section_reach(t: &TopologySpec) -> Reach {
    let standard = t.standard.map_or(Standard::A, |s| s.standard(None));
    Reach::build(&t.channel, standard, &t.nodes)
}

/// A node pair with no route.
pub const NO_ROUTE: u32 = u32::MAX;
/// In a [`RouteRow`]: the destination is a neighbour, sent to directly.
pub const DIRECT: u32 = u32::MAX - 1;

/// One node's next hops toward every destination, as runs of consecutive destinations with the
/// same next hop ([`DIRECT`] for "the destination itself", so that a node's neighbours make
/// runs too): a station of a BSS keeps about four runs (its AP direct, the stations below it
/// through the AP, itself none, the ones above through the AP), an AP three, whatever N. Looked
/// up by binary search over the runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RouteRow {
    /// The first destination of each run, ascending from 0.
    starts: Vec<u32>,
    hops: Vec<u32>,
    /// Worlds of up to [`DENSE_MAX`] nodes also keep every next hop by destination (at most
    /// 2 KB a node), read without a search.
    dense: Vec<u32>,
}

/// The largest world whose route rows are also kept dense.
pub const DENSE_MAX: usize = 512;

impl RouteRow {
    /// Keep the next hops of the `n` destinations dense too, if `n` <= [`DENSE_MAX`].
    fn densify(&mut self, n: usize) {
        if n <= DENSE_MAX {
            self.dense = (0..n as u32).map(|d| self.search(d)).collect();
        }
    }

    /// Append destination `d` (the next after the last one pushed) with next hop `hop`.
    fn push(&mut self, d: u32, hop: u32) {
        if self.hops.last() != Some(&hop) {
            self.starts.push(d);
            self.hops.push(hop);
        }
    }

    /// The next hop toward `d`: a node, [`DIRECT`] or [`NO_ROUTE`].
    #[inline]
    pub fn get(&self, d: u32) -> u32 {
        match self.dense.get(d as usize) {
            Some(&hop) => hop,
            None => self.search(d),
        }
    }

    fn search(&self, d: u32) -> u32 {
        match self.starts.partition_point(|&s| s <= d) {
            0 => NO_ROUTE,
            k => self.hops[k - 1],
        }
    }

    /// Make `hop` the next hop toward `d` (an explicit route): its run splits around it.
    fn set(&mut self, d: u32, hop: u32) {
        if let Some(h) = self.dense.get_mut(d as usize) {
            *h = hop;
        }
        let k = self.starts.partition_point(|&s| s <= d);
        if k == 0 {
            self.starts.insert(0, d);
            self.hops.insert(0, hop);
            if self.starts.get(1) != Some(&(d + 1)) {
                self.starts.insert(1, d + 1);
                self.hops.insert(1, NO_ROUTE);
            }
            return;
        }
        let i = k - 1;
        let old = self.hops[i];
        if old == hop {
            return;
        }
        let end = self.starts.get(k).copied().unwrap_or(u32::MAX);
        let mut at = i;
        if self.starts[i] < d {
            at = i + 1;
            self.starts.insert(at, d);
            self.hops.insert(at, hop);
        } else {
            self.hops[i] = hop;
        }
        if d + 1 < end {
            self.starts.insert(at + 1, d + 1);
            self.hops.insert(at + 1, old);
        }
    }

    /// How many runs the row keeps.
    pub fn runs(&self) -> usize {
        self.starts.len()
    }
}

/// The graph and the routes of a world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connectivity {
    n: usize,
    /// Per node, its neighbours in node order: wired peers and radio neighbours (each decodes
    /// the other), whatever their roles; an explicit route may name any of them. Made only by
    /// [`Connectivity::compute`] (for Python and the tests); a world's build asks
    /// [`are_neighbours`] instead, so that a cell of N stations keeps no N x N lists.
    pub neighbours: Vec<Vec<u32>>,
    /// Each node's next hops ([`RouteRow`]).
    pub rows: Vec<RouteRow>,
}

/// Whether `u` and `v` are neighbours: joined by a wire, or each decodes the other's radio.
pub fn are_neighbours(t: &Topology, u: usize, v: usize) -> bool {
    let wired = t
        .wired_links
        .iter()
        .any(|l| (l.a as usize, l.b as usize) == (u, v) || (l.a as usize, l.b as usize) == (v, u));
    wired || radio_neighbours(t, u, v)
}

/// Each decodes the other (WiFi nodes only: the reach holds no other pair).
fn radio_neighbours(t: &Topology, i: usize, j: usize) -> bool {
    t.reach.decodes(i, j) && t.reach.decodes(j, i)
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
        Self::build(t, true)
    }

    /// The fewest-hop routes of `t` without the neighbour lists (a world's build).
    pub fn routes(t: &Topology) -> Connectivity {
        Self::build(t, false)
    }

    fn build(t: &Topology, with_neighbours: bool) -> Connectivity {
        let n = t.nodes.len();
        // Wires and blocked pairs as sorted lists per node (few), not N x N tables.
        let mut wired: Vec<Vec<u32>> = vec![Vec::new(); n];
        for l in t.wired_links {
            wired[l.a as usize].push(l.b);
            wired[l.b as usize].push(l.a);
        }
        let mut blocked: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &[a, b] in t.blocked_radio_links {
            blocked[a as usize].push(b);
            blocked[b as usize].push(a);
        }
        for l in wired.iter_mut().chain(blocked.iter_mut()) {
            l.sort_unstable();
        }
        let mut neighbours = vec![Vec::new(); if with_neighbours { n } else { 0 }];
        // The nodes of each role, in node order: without the neighbour lists, node i's radio
        // test is asked only of the roles it may talk to (a station of a 5000-station cell asks
        // the access point, not the 4999 other stations).
        let mut by_role: Vec<(Role, Vec<u32>)> = Vec::new();
        for (j, node) in t.nodes.iter().enumerate() {
            match by_role.iter_mut().find(|(r, _)| *r == node.role) {
                Some((_, members)) => members.push(j as u32),
                None => by_role.push((node.role, vec![j as u32])),
            }
        }
        let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
        let all: Vec<u32> = if with_neighbours { (0..n as u32).collect() } else { Vec::new() };
        let mut candidates: Vec<u32> = Vec::new();
        for i in 0..n {
            if !with_neighbours {
                candidates.clear();
                let role = t.nodes[i].role;
                for (r, members) in &by_role {
                    if roles_talk(role, *r) {
                        candidates.extend_from_slice(members);
                    }
                }
                candidates.extend_from_slice(&wired[i]);
                candidates.sort_unstable();
                candidates.dedup();
            }
            for &j in if with_neighbours { &all } else { &candidates } {
                let j = j as usize;
                if i == j {
                    continue;
                }
                let w = wired[i].binary_search(&(j as u32)).is_ok();
                let talk = roles_talk(t.nodes[i].role, t.nodes[j].role);
                // The radio test only where it can matter.
                if !(with_neighbours || talk || w) {
                    continue;
                }
                let r = radio_neighbours(t, i, j);
                if with_neighbours && (w || r) {
                    neighbours[i].push(j as u32);
                }
                let usable = r && talk && blocked[i].binary_search(&(j as u32)).is_err();
                if w || usable {
                    adj[i].push(j as u32);
                }
            }
        }
        // Breadth-first search from each destination; each node's next hop is its lowest-index
        // neighbour one hop closer. The adjacency is symmetric, so that neighbour is the least
        // node of the previous ring that reaches it, kept as the search goes (`parent`): no
        // scan of a hub's long list per node.
        let mut rows = vec![RouteRow::default(); n];
        let mut dist = vec![u32::MAX; n];
        let mut parent = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::with_capacity(n);
        for d in 0..n {
            dist.fill(u32::MAX);
            dist[d] = 0;
            queue.push_back(d);
            while let Some(u) = queue.pop_front() {
                let next = dist[u] + 1;
                for &v in &adj[u] {
                    let v = v as usize;
                    if dist[v] == u32::MAX {
                        (dist[v], parent[v]) = (next, u as u32);
                        queue.push_back(v);
                    } else if dist[v] == next && (u as u32) < parent[v] {
                        parent[v] = u as u32;
                    }
                }
            }
            for (u, row) in rows.iter_mut().enumerate() {
                let hop = if dist[u] != u32::MAX && dist[u] > 0 {
                    let v = parent[u];
                    debug_assert_eq!(
                        Some(&v),
                        adj[u].iter().find(|&&v| dist[v as usize] == dist[u] - 1),
                        "the lowest-index neighbour one hop closer"
                    );
                    if v as usize == d {
                        DIRECT
                    } else {
                        v
                    }
                } else {
                    NO_ROUTE
                };
                row.push(d as u32, hop);
            }
        }
        for row in &mut rows {
            row.densify(n);
        }
        Connectivity { n, neighbours, rows }
    }

    /// The next hop from `u` toward `d`, if any.
    pub fn next_hop(&self, u: usize, d: usize) -> Option<u32> {
        match self.rows[u].get(d as u32) {
            NO_ROUTE => None,
            DIRECT => Some(d as u32),
            v => Some(v),
        }
    }

    /// Let explicit routes override the computed ones.
    pub fn apply(&mut self, routes: &[RouteSpec]) {
        for r in routes {
            let hop = if r.next_hop == r.dst { DIRECT } else { r.next_hop };
            self.rows[r.node as usize].set(r.dst, hop);
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
        (0..self.n).map(|u| (0..self.n).map(|d| self.next_hop(u, d).unwrap_or(NO_ROUTE)).collect()).collect()
    }
}

/// The neighbours and computed routes of the topology in `text` (a [`TopologySpec`] as
/// JSON), as JSON: `{"neighbours": [[v, ...], ...], "next_hop": [[v or -1, ...], ...]}`.
pub fn connectivity_json(text: &str) -> Result<String, crate::spec::SpecError> {
    let t = TopologySpec::from_json(text)?;
    let reach = section_reach(&t);
    let c = Connectivity::compute(&Topology::of_section(&t, &reach));
    let next: Vec<Vec<i64>> = c
        .table()
        .iter()
        .map(|row| row.iter().map(|&v| if v == NO_ROUTE { -1 } else { i64::from(v) }).collect())
        .collect();
    Ok(serde_json::json!({"neighbours": c.neighbours, "next_hop": next}).to_string())
}

/// The routes of [`connectivity_bytes`]: each node's [`RouteRow`] runs, as little-endian
/// arrays: `offsets` (`n + 1` u32: node u's runs are `offsets[u]..offsets[u + 1]`), `starts`
/// (u32: each run's first destination) and `hops` (i32: the next hop, -2 for the destination
/// itself, -1 for none).
pub struct RouteBytes {
    pub offsets: Vec<u8>,
    pub starts: Vec<u8>,
    pub hops: Vec<u8>,
}

/// The same as [`connectivity_json`] in binary, for large topologies (a JSON document of N^2
/// numbers takes longer to make and read than the routes take to compute): the node count, the
/// routes as runs ([`RouteBytes`]: a few per node in a BSS, not N), and the neighbours as a
/// bitmap of `n` rows of `ceil(n / 8)` bytes (bit `v % 8` of byte `v / 8` of row `u`).
pub fn connectivity_bytes(text: &str) -> Result<(usize, RouteBytes, Vec<u8>), crate::spec::SpecError> {
    let t = TopologySpec::from_json(text)?;
    let reach = section_reach(&t);
    let topology = Topology::of_section(&t, &reach);
    // The routes without neighbour lists (N x N entries in a cell), the neighbours as bits.
    let c = Connectivity::routes(&topology);
    let n = c.n;
    let mut r = RouteBytes { offsets: Vec::with_capacity(4 * (n + 1)), starts: Vec::new(), hops: Vec::new() };
    let mut runs = 0u32;
    r.offsets.extend_from_slice(&runs.to_le_bytes());
    for row in &c.rows {
        for (&s, &h) in row.starts.iter().zip(&row.hops) {
            let h = match h {
                NO_ROUTE => -1i32,
                DIRECT => -2,
                v => v as i32,
            };
            r.starts.extend_from_slice(&s.to_le_bytes());
            r.hops.extend_from_slice(&h.to_le_bytes());
        }
        runs += row.runs() as u32;
        r.offsets.extend_from_slice(&runs.to_le_bytes());
    }
    // The neighbours of [`are_neighbours`] as bits: radio pairs from the reach, then the wires
    // (one pass over them, not one per pair).
    let row = n.div_ceil(8);
    let mut bits = vec![0u8; row * n];
    for u in 0..n {
        for v in (0..n).filter(|&v| v != u && radio_neighbours(&topology, u, v)) {
            bits[u * row + v / 8] |= 1 << (v % 8);
        }
    }
    for l in topology.wired_links {
        let (a, b) = (l.a as usize, l.b as usize);
        bits[a * row + b / 8] |= 1 << (b % 8);
        bits[b * row + a / 8] |= 1 << (a % 8);
    }
    Ok((n, r, bits))
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

    /// The topology of `nodes` with reach `reach`: no wires, nothing blocked.
    fn open<'a>(nodes: &'a [NodeSpec], reach: &'a Reach) -> Topology<'a> {
        Topology { nodes, reach, wired_links: &[], blocked_radio_links: &[] }
    }

    /// Who decodes whom among `nodes` on an 802.11a channel whose decode and sense ranges are
    /// `range_m`.
    fn reach(nodes: &[NodeSpec], range_m: f64) -> Reach {
        let ch: ChannelSpec =
            serde_json::from_value(serde_json::json!({"rx_range_m": range_m, "cs_range_m": range_m}))
                .unwrap();
        Reach::build(&ch, Standard::A, nodes)
    }

    #[test]
    fn a_chain_routes_hop_by_hop_when_far_pairs_are_blocked() {
        // Four ad hoc nodes 10 m apart, range 25 m: n0 hears n1 and n2. Blocking the pairs
        // two apart leaves a 3-hop path from n0 to n3 (paper 000's path enforcement).
        let nodes: Vec<_> = (0..4).map(|i| node(&format!("n{i}"), 10.0 * i as f64, Role::Adhoc)).collect();
        let ch = reach(&nodes, 25.0);
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
        let ch = reach(&nodes, 10.0);
        let t = open(&nodes, &ch);
        let c = Connectivity::compute(&t);
        assert_eq!(c.next_hop(1, 2), Some(0));
        assert_eq!(c.trace(1, 2), Ok(()));
    }

    #[test]
    fn a_node_out_of_range_has_no_route_and_a_route_loop_is_found() {
        let nodes = [node("a", 0.0, Role::Adhoc), node("b", 5.0, Role::Adhoc), node("c", 50.0, Role::Adhoc)];
        let ch = reach(&nodes, 10.0);
        let t = open(&nodes, &ch);
        let mut c = Connectivity::compute(&t);
        assert_eq!(c.trace(0, 2), Err(PathBreak::NoRoute { at: NodeId(0) }));
        c.apply(&[RouteSpec { node: 0, dst: 2, next_hop: 1 }, RouteSpec { node: 1, dst: 2, next_hop: 0 }]);
        assert!(matches!(c.trace(0, 2), Err(PathBreak::Loop { .. })));
    }

    /// The routing rule written plainly: a breadth-first search over every pair, each node's
    /// next hop its lowest-index usable neighbour one hop closer, found by scanning.
    fn plain_next_hops(t: &Topology) -> Vec<Vec<u32>> {
        let n = t.nodes.len();
        let usable = |i: usize, j: usize| {
            let wired = t
                .wired_links
                .iter()
                .any(|l| (l.a as usize, l.b as usize) == (i, j) || (l.a as usize, l.b as usize) == (j, i));
            let blocked = t
                .blocked_radio_links
                .iter()
                .any(|&[a, b]| (a as usize, b as usize) == (i, j) || (a as usize, b as usize) == (j, i));
            i != j
                && (wired
                    || (radio_neighbours(t, i, j)
                        && roles_talk(t.nodes[i].role, t.nodes[j].role)
                        && !blocked))
        };
        let adj: Vec<Vec<usize>> = (0..n).map(|i| (0..n).filter(|&j| usable(i, j)).collect()).collect();
        let mut hops = vec![vec![NO_ROUTE; n]; n];
        for d in 0..n {
            let mut dist = vec![u32::MAX; n];
            dist[d] = 0;
            let mut queue = std::collections::VecDeque::from([d]);
            while let Some(u) = queue.pop_front() {
                for &v in &adj[u] {
                    if dist[v] == u32::MAX {
                        dist[v] = dist[u] + 1;
                        queue.push_back(v);
                    }
                }
            }
            for u in 0..n {
                if dist[u] != u32::MAX && dist[u] > 0 {
                    let v = *adj[u].iter().find(|&&v| dist[v] == dist[u] - 1).unwrap();
                    hops[u][d] = v as u32;
                }
            }
        }
        hops
    }

    #[test]
    fn the_routes_are_the_plain_rules_on_random_topologies() {
        // Random positions, roles, wires and blocked pairs (the build's candidate lists and
        // its parent-keeping search against the scan of every pair): equal next hops.
        let roles = [Role::Ap, Role::Sta, Role::Adhoc, Role::Host, Role::Mesh];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for case in 0..60 {
            let n = 3 + rnd(40) as usize;
            let nodes: Vec<NodeSpec> = (0..n)
                .map(|i| {
                    let mut s = node(
                        &format!("n{i}"),
                        rnd(200) as f64,
                        roles[rnd(if case % 2 == 0 { 3 } else { 5 }) as usize],
                    );
                    s.position_m[1] = rnd(60) as f64;
                    s
                })
                .collect();
            let ch = reach(&nodes, 25.0 + rnd(40) as f64);
            let wired: Vec<WiredLinkSpec> = (0..rnd(4))
                .map(|_| {
                    serde_json::from_value(serde_json::json!({"a": rnd(n as u64), "b": rnd(n as u64), "rate_bps": 100_000_000u64, "delay_ns": 1_000_000u64}))
                        .unwrap()
                })
                .filter(|l: &WiredLinkSpec| l.a != l.b)
                .collect();
            let blocked: Vec<[u32; 2]> =
                (0..rnd(6)).map(|_| [rnd(n as u64) as u32, rnd(n as u64) as u32]).collect();
            let t =
                Topology { nodes: &nodes, reach: &ch, wired_links: &wired, blocked_radio_links: &blocked };
            let plain = plain_next_hops(&t);
            for c in [Connectivity::routes(&t), Connectivity::compute(&t)] {
                for (u, row) in plain.iter().enumerate() {
                    for (d, &hop) in row.iter().enumerate() {
                        let want = (hop != NO_ROUTE).then_some(hop);
                        assert_eq!(c.next_hop(u, d), want, "case {case}: {u} -> {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_route_row_keeps_runs_and_splits_one_for_an_explicit_route() {
        let mut r = RouteRow::default();
        for (d, hop) in [(0, DIRECT), (1, 0), (2, 0), (3, NO_ROUTE), (4, 0), (5, 0), (6, 0)] {
            r.push(d, hop);
        }
        assert_eq!(r.runs(), 4);
        assert_eq!([0, 1, 2, 3, 4, 6, 99].map(|d| r.get(d)), [DIRECT, 0, 0, NO_ROUTE, 0, 0, 0]);
        r.set(5, 9); // inside a run
        r.set(1, DIRECT); // at a run's start
        r.set(6, 7); // the start of the last run: 7 and on keep theirs
        r.set(3, 0); // a run of one
        assert_eq!((0..8).map(|d| r.get(d)).collect::<Vec<_>>(), [DIRECT, DIRECT, 0, 0, 0, 9, 7, 0]);
    }

    #[test]
    fn a_bss_keeps_a_few_runs_per_node_whatever_its_size() {
        // An AP and 300 stations 5 m around it: every station reaches the others through the
        // AP; each row is at most four runs, not 301 entries.
        let mut nodes = vec![node("ap", 0.0, Role::Ap)];
        for i in 0..300 {
            let a = i as f64 * std::f64::consts::TAU / 300.0;
            nodes.push(NodeSpec {
                position_m: [5.0 * a.cos(), 5.0 * a.sin(), 0.0],
                ..node(&format!("s{i}"), 0.0, Role::Sta)
            });
        }
        let ch = reach(&nodes, 20.0);
        let t = open(&nodes, &ch);
        let c = Connectivity::routes(&t);
        assert!(c.rows.iter().all(|r| r.runs() <= 4), "{:?}", c.rows.iter().map(RouteRow::runs).max());
        assert_eq!(
            (c.next_hop(7, 200), c.next_hop(7, 0), c.next_hop(0, 7), c.next_hop(7, 7)),
            (Some(0), Some(0), Some(7), None)
        );
        assert_eq!(c.table(), Connectivity::compute(&t).table());
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
        let ch = reach(&nodes, 10.0);
        let t = open(&nodes, &ch);
        assert_eq!(Connectivity::compute(&t).next_hop(1, 0), Some(0));
    }
}
