//! The `nodes`, `wired_links` and `routes` sections: the nodes and the wired graph between them.

use serde::Deserialize;

use super::{default_queue, err, num, quoted, SpecError, MAX_QUEUE_PACKETS};

crate::names::names! {
    /// What a node is: an access point, a station of its BSS, an ad-hoc station, a wired host,
    /// or an 802.11s mesh point.
    pub enum Role {
        Ap = "ap",
        Sta = "sta",
        Adhoc = "adhoc",
        Host = "host",
        /// An 802.11s mesh point (the `mesh` section): peers with the mesh points it hears,
        /// finds paths to the others by HWMP.
        Mesh = "mesh",
    }
}

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// The node's name, non-empty and unique (it keys the node's random streams).
    pub name: String,
    /// Where the node stands, `[x, y, z]`, finite.
    pub position_m: [f64; 3],
    /// Whether the node has a WiFi interface: false for a host, true for every other role.
    pub wifi: bool,
    /// "ap", "sta" (talks to APs only), "adhoc", "host" (wired only) or "mesh" (needs the
    /// `mesh` section).
    pub role: Role,
    /// This node's rate control of data frames (`mac::rate::NAMES`); unset: `wifi.rate_control`.
    #[serde(default)]
    pub rate_control: Option<crate::mac::rate::RateName>,
    /// How the node moves (radio model only); unset: it stays at `position_m`.
    #[serde(default)]
    pub mobility: Option<MobilitySpec>,
    /// This node's transmit power (radio model only); unset: `channel.radio.tx_power_dbm`.
    #[serde(default)]
    #[schemars(range(min = -50, max = 60))]
    pub tx_power_dbm: Option<f64>,
}

/// How a node moves (`channel::mobility`). Positions are evaluated when a frame starts.
#[derive(Clone, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum MobilitySpec {
    /// From `position_m` at `start_ns` on, at `velocity_mps` (still before).
    ConstantVelocity {
        /// The velocity `[vx, vy, vz]`, each finite and |v| <= 1e4 m/s (ns-3
        /// `ConstantVelocityMobilityModel`).
        velocity_mps: [f64; 3],
        /// When the node starts moving [ns].
        #[serde(default)]
        start_ns: u64,
    },
    /// Straight lines between timed points (times strictly increasing); at the first point
    /// before its time, at the last after it. `position_m` must be the first point.
    Waypoints {
        /// The timed points, at least one, times strictly increasing (ns-3
        /// `WaypointMobilityModel`).
        points: Vec<WaypointSpec>,
    },
    /// Random waypoint in a rectangle at the height of `position_m`: speed uniform in
    /// [`speed_min_mps`, `speed_max_mps`], `pause_ns` before each leg; `steady_state` starts
    /// in the stationary distribution. The start is drawn, `position_m` ignored.
    RandomWaypoint {
        /// The rectangle's lower corner `[x, y]` (ns-3 `RandomWaypointMobilityModel`).
        area_min_m: [f64; 2],
        /// The rectangle's upper corner `[x, y]`, >= `area_min_m` in each coordinate.
        area_max_m: [f64; 2],
        /// The slowest leg, <= `speed_max_mps` (>= 1e-6 with `steady_state`; 0 draws a warning:
        /// the mean speed then decays, Yoon, Liu, Noble, INFOCOM 2003).
        #[schemars(range(min = 0))]
        speed_min_mps: f64,
        /// The fastest leg, >= `speed_min_mps`.
        #[schemars(extend("exclusiveMinimum" = 0))]
        speed_max_mps: f64,
        /// The pause at each waypoint before the next leg [ns].
        pause_ns: u64,
        /// Start in the stationary distribution (ns-3 `SteadyStateRandomWaypointMobilityModel`;
        /// needs `speed_min_mps` >= 1e-6 and an area of positive width and height).
        #[serde(default)]
        steady_state: bool,
    },
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaypointSpec {
    /// When the node is at this point [ns].
    pub time_ns: u64,
    /// The point `[x, y, z]`, finite.
    pub position_m: [f64; 3],
}

impl NodeSpec {
    /// The node's motion in the run seeded `seed` (its random waypoint walk is keyed by its
    /// name).
    pub fn mobility(&self, seed: u64) -> crate::channel::Mobility {
        use crate::channel::{Area, Mobility, RandomWaypointSpec};
        use crate::time::{Dur, SimTime};
        match &self.mobility {
            None => Mobility::Static { position_m: self.position_m },
            Some(MobilitySpec::ConstantVelocity { velocity_mps, start_ns }) => Mobility::ConstantVelocity {
                start_m: self.position_m,
                velocity_mps: *velocity_mps,
                since: SimTime(*start_ns),
            },
            Some(MobilitySpec::Waypoints { points }) => {
                Mobility::waypoints(points.iter().map(|p| (SimTime(p.time_ns), p.position_m)).collect())
            }
            Some(MobilitySpec::RandomWaypoint {
                area_min_m,
                area_max_m,
                speed_min_mps,
                speed_max_mps,
                pause_ns,
                steady_state,
            }) => Mobility::random_waypoint(
                RandomWaypointSpec {
                    area: Area { min_m: *area_min_m, max_m: *area_max_m, z_m: self.position_m[2] },
                    speed_min_mps: *speed_min_mps,
                    speed_max_mps: *speed_max_mps,
                    pause: Dur(*pause_ns),
                    steady_state_start: *steady_state,
                },
                seed,
                crate::rng::entity_id(&self.name),
            ),
        }
    }
}

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WiredLinkSpec {
    /// One end, a node index.
    pub a: u32,
    /// The other end, a node index other than `a`.
    pub b: u32,
    /// The link's rate, each way.
    #[schemars(range(min = 1))]
    pub rate_bps: u64,
    /// The one-way propagation delay.
    pub delay_ns: u64,
    /// The DropTail queue at each end [packets]: that many wait behind the one on the wire
    /// (ns-3 `PointToPointNetDevice` and Linux's qdisc dequeue a packet to send it).
    #[serde(default = "default_queue")]
    #[schemars(range(min = 1, max = MAX_QUEUE_PACKETS))]
    pub queue_limit_packets: u32,
    /// Independent per-packet loss probability from a to b (netem `loss` on a's egress).
    #[serde(default)]
    #[schemars(range(min = 0), extend("exclusiveMaximum" = 1))]
    pub loss: f64,
    /// The same from b to a.
    #[serde(default)]
    #[schemars(range(min = 0), extend("exclusiveMaximum" = 1))]
    pub reverse_loss: f64,
}

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RouteSpec {
    /// The forwarding node, a node index.
    pub node: u32,
    /// The destination, a node index: at `node`, packets for `dst` go to `next_hop`.
    pub dst: u32,
    /// Where they go, a neighbour of `node` (a wired link, or each decodes the other).
    pub next_hop: u32,
}

/// Check the `nodes` section: at least one node, unique names, wifi as the role says. Returns
/// the number of nodes, the bound of every node index.
pub(super) fn validate_nodes(nodes: &[NodeSpec]) -> Result<u32, SpecError> {
    let n = nodes.len() as u32;
    if n == 0 {
        return err("nodes", "at least one node is needed");
    }
    let mut names = std::collections::HashSet::new();
    for (i, node) in nodes.iter().enumerate() {
        if node.name.is_empty() || !names.insert(node.name.as_str()) {
            return err(&format!("nodes.{i}.name"), format!("{} is empty or not unique", quoted(&node.name)));
        }
        if node.wifi == (node.role == Role::Host) {
            return err(
                &format!("nodes.{i}.wifi"),
                format!("{} contradicts role {:?} (hosts have no wifi, others do)", node.wifi, node.role),
            );
        }
        if node.position_m.iter().any(|v| !v.is_finite()) {
            return err(&format!("nodes.{i}.position_m"), "coordinates must be finite");
        }
        if let Some(m) = &node.mobility {
            let path = format!("nodes.{i}.mobility");
            if let MobilitySpec::ConstantVelocity { velocity_mps, .. } = m {
                if velocity_mps.iter().any(|v| !(v.is_finite() && v.abs() <= 1e4)) {
                    return err(
                        &path,
                        format!(
                            "velocity_mps {velocity_mps:?} is out of range; allowed: finite, |v| <= 1e4 m/s"
                        ),
                    );
                }
            }
            if let MobilitySpec::Waypoints { points } = m {
                // The node sits at the first point until its time: that is where it starts.
                if let Some(p) = points.first().filter(|p| p.position_m != node.position_m) {
                    return err(
                        &format!("nodes.{i}.position_m"),
                        format!(
                            "{:?} differs from the first waypoint {:?}; allowed: the same point",
                            node.position_m, p.position_m
                        ),
                    );
                }
            }
            if let Err(e) = node.mobility(0).check() {
                return err(&path, e);
            }
        }
        if let Some(p) = node.tx_power_dbm {
            if !(p.is_finite() && (-50.0..=60.0).contains(&p)) {
                return err(
                    &format!("nodes.{i}.tx_power_dbm"),
                    format!("{} is out of range; allowed: -50..60 dBm", num(p)),
                );
            }
        }
    }
    Ok(n)
}

/// Check that `v`, found at `path`, is the index of one of the `n` nodes.
pub(super) fn node_ref(path: String, v: u32, n: u32) -> Result<(), SpecError> {
    if v >= n {
        return err(&path, format!("node index {v} out of range; allowed: 0..{n}"));
    }
    Ok(())
}

/// Check the `wired_links` section of a world of `n` nodes.
pub(super) fn validate_wired_links(links: &[WiredLinkSpec], n: u32) -> Result<(), SpecError> {
    for (i, l) in links.iter().enumerate() {
        node_ref(format!("wired_links.{i}.a"), l.a, n)?;
        node_ref(format!("wired_links.{i}.b"), l.b, n)?;
        if l.a == l.b {
            return err(
                &format!("wired_links.{i}.b"),
                format!("{} is also end a; allowed: another node index (a link joins two nodes)", l.b),
            );
        }
        if l.rate_bps == 0 {
            return err(&format!("wired_links.{i}.rate_bps"), "must be > 0 (got 0)");
        }
        if !(1..=MAX_QUEUE_PACKETS).contains(&l.queue_limit_packets) {
            return err(
                &format!("wired_links.{i}.queue_limit_packets"),
                format!(
                    "{} is out of range; allowed: 1..={MAX_QUEUE_PACKETS} packets",
                    l.queue_limit_packets
                ),
            );
        }
        for (name, v) in [("loss", l.loss), ("reverse_loss", l.reverse_loss)] {
            if !(0.0..1.0).contains(&v) {
                return err(
                    &format!("wired_links.{i}.{name}"),
                    format!("{} is out of range; allowed: [0, 1)", num(v)),
                );
            }
        }
    }
    Ok(())
}

/// Check the `routes` section of a world of `n` nodes.
pub(super) fn validate_routes(routes: &[RouteSpec], n: u32) -> Result<(), SpecError> {
    for (i, r) in routes.iter().enumerate() {
        node_ref(format!("routes.{i}.node"), r.node, n)?;
        node_ref(format!("routes.{i}.dst"), r.dst, n)?;
        node_ref(format!("routes.{i}.next_hop"), r.next_hop, n)?;
    }
    Ok(())
}

/// Check `blocked_radio_links` of a world of `n` nodes.
pub(super) fn validate_blocked(pairs: &[[u32; 2]], n: u32) -> Result<(), SpecError> {
    for (i, &[a, b]) in pairs.iter().enumerate() {
        node_ref(format!("blocked_radio_links.{i}.0"), a, n)?;
        node_ref(format!("blocked_radio_links.{i}.1"), b, n)?;
        if a == b {
            return err(&format!("blocked_radio_links.{i}"), format!("[{a}, {b}] joins a node to itself"));
        }
    }
    Ok(())
}

/// The parts of a world spec the routes are computed from, alone (what Python sends to
/// `airtcp._core.connectivity` while it expands a scenario).
#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopologySpec {
    /// The PHY standard (`wifi.standard`): the radio model's decode test sends at its
    /// lowest mode. Needed with `channel.radio`.
    #[serde(default)]
    pub standard: Option<crate::phy::StandardName>,
    pub nodes: Vec<NodeSpec>,
    pub channel: super::ChannelSpec,
    #[serde(default)]
    pub wired_links: Vec<WiredLinkSpec>,
    #[serde(default)]
    pub blocked_radio_links: Vec<[u32; 2]>,
}

impl TopologySpec {
    /// Parse and check, as [`super::WorldSpec`] checks these sections.
    pub fn from_json(text: &str) -> Result<TopologySpec, SpecError> {
        let t: TopologySpec = serde_json::from_str(text).map_err(|e| SpecError(format!("topology: {e}")))?;
        t.channel.validate(t.nodes.len())?;
        if t.standard.is_none() && t.channel.radio.is_some() {
            return err(
                "topology.standard",
                format!(
                    "missing; allowed: {} (needed with channel.radio)",
                    crate::phy::StandardName::NAMES.join(", ")
                ),
            );
        }
        let n = validate_nodes(&t.nodes)?;
        validate_wired_links(&t.wired_links, n)?;
        validate_blocked(&t.blocked_radio_links, n)?;
        Ok(t)
    }
}
