//! The `nodes`, `wired_links` and `routes` sections: the nodes and the wired graph between them.

use serde::Deserialize;

use super::{default_queue, err, num, quoted, SpecError, MAX_QUEUE_PACKETS};

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Ap,
    Sta,
    Adhoc,
    Host,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
    pub position_m: [f64; 3],
    pub wifi: bool,
    pub role: Role,
    /// This node's rate control of data frames (`mac::rate::NAMES`); unset: `wifi.rate_control`.
    #[serde(default)]
    pub rate_control: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WiredLinkSpec {
    pub a: u32,
    pub b: u32,
    pub rate_bps: u64,
    pub delay_ns: u64,
    #[serde(default = "default_queue")]
    pub queue_limit_packets: u32,
    /// Independent per-packet loss probability from a to b (netem `loss` on a's egress).
    #[serde(default)]
    pub loss: f64,
    /// The same from b to a.
    #[serde(default)]
    pub reverse_loss: f64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteSpec {
    pub node: u32,
    pub dst: u32,
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
        if let Some(rc) = &node.rate_control {
            if !crate::mac::rate::NAMES.contains(&rc.as_str()) {
                return err(
                    &format!("nodes.{i}.rate_control"),
                    format!(
                        "unknown rate control {}; allowed: {}",
                        quoted(rc),
                        crate::mac::rate::NAMES.join(", ")
                    ),
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
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologySpec {
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
        let n = validate_nodes(&t.nodes)?;
        validate_wired_links(&t.wired_links, n)?;
        validate_blocked(&t.blocked_radio_links, n)?;
        Ok(t)
    }

    pub fn topology(&self) -> crate::net::routing::Topology<'_> {
        crate::net::routing::Topology::new(
            &self.nodes,
            &self.channel,
            &self.wired_links,
            &self.blocked_radio_links,
        )
    }
}
