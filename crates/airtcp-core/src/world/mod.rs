//! The world: every entity of one run in arenas addressed by typed ids, the builder that
//! turns a [`WorldSpec`] into a world, the run loop, and (in `wifi`) the glue that drains the
//! MACs' indications.

pub mod agent;
mod build;
mod capture;
pub mod clap;
pub mod mesh;
pub mod tcp;
mod traffic;
mod wifi;
mod xlayer;

use crate::engine::Scheduler;
pub use crate::event::Event;
use crate::ids::{FlowId, LinkId, NodeId, PacketId};
use crate::mac::Wifi;
use crate::medium::Medium;
use crate::net::routing::{Connectivity, PathBreak};
use crate::net::{Flow, Packet, PacketSlab, WiredLink};
use crate::spec::{FlowKind, Role, SpecError, WorldSpec};
use crate::time::SimTime;
use crate::trace::Traces;
use crate::xlayer::CrossLayer;

/// A node: its routes, wired attachments and (if it has wifi) its MAC.
pub struct Node {
    pub name: String,
    pub role: Role,
    pub wifi: bool,
    pub position_m: [f64; 3],
    /// Next hop per destination (runs of destinations, `net::routing::RouteRow`): a node,
    /// or `DIRECT` / `NO_ROUTE` = deliver directly if a neighbour.
    pub routes: crate::net::routing::RouteRow,
    /// (neighbour, link, direction) for each wired attachment.
    pub wired: Vec<(NodeId, LinkId, u8)>,
    /// Flows whose source is this node (saturating ones are refilled from here).
    pub sources: Vec<FlowId>,
    /// Where the turns of its queue-sharing saturating sources go on (`World::refill`).
    pub next_shared: usize,
    /// Packets this node had no route for (a report counter).
    pub drops_no_route: u64,
}

/// The run's time frame: where it ends, where the measured period starts, and whether the
/// report counters have been zeroed for it ([`World::start_measuring`]).
#[derive(Clone, Copy, Debug)]
pub struct Period {
    pub end: SimTime,
    /// The measured period starts here: report counters count from it.
    pub warmup_end: SimTime,
    pub measuring: bool,
}

pub struct World {
    pub sched: Scheduler<Event>,
    pub period: Period,
    /// Every node's MAC and the settings they share.
    pub wifi: Wifi,
    pub nodes: Vec<Node>,
    pub medium: Medium,
    pub links: Vec<WiredLink>,
    pub flows: Vec<Flow>,
    /// The TCP connection of each flow (None for UDP flows), indexed like `flows`.
    pub tcps: Vec<Option<crate::world::tcp::TcpFlow>>,
    /// The CLAP transfer of each flow (None for the others), indexed like `flows`.
    pub claps: Vec<Option<crate::world::clap::ClapFlow>>,
    pub packets: PacketSlab,
    pub traces: Traces,
    /// The cross-layer schemes and the nodes they run at.
    pub xlayer: CrossLayer,
    /// The interface tier above each WiFi MAC: qdisc, or mac80211's intermediate queues with
    /// AQL (`net::iface`).
    pub ifaces: crate::net::iface::Interfaces,
    /// 802.11s: the mesh points' peer links and HWMP (none without mesh points).
    pub mesh: Option<mesh::MeshWorld>,
    /// Members of isolated cliques may be lazy (`medium::clique`, `mac::lazy`): nothing in
    /// the run looks at a listener apart from its MAC and radio.
    lazy_on: bool,
    /// Scratch: a transmission's receivers, the members joining their clique's shared state.
    rx_scratch: Vec<NodeId>,
    join_scratch: Vec<NodeId>,
}

/// Compute the routes (`net::routing`, over the radio neighbours of the built `medium`), check
/// the explicit ones and that every flow arrives (and its ACKs or feedback come back), and give
/// each node its next hops.
fn install_routes(spec: &WorldSpec, medium: &Medium, nodes: &mut [Node]) -> Result<(), SpecError> {
    let topology = crate::net::routing::Topology::of_world(spec, medium.reach());
    let mut conn = Connectivity::routes(&topology);
    let name = |i: u32| format!("{} ({:?})", i, spec.nodes[i as usize].name);
    for (i, r) in spec.routes.iter().enumerate() {
        if r.node == r.dst {
            return Err(SpecError(format!("routes.{i}.dst: node {} needs no route to itself", name(r.dst))));
        }
        if !crate::net::routing::are_neighbours(&topology, r.node as usize, r.next_hop as usize) {
            return Err(SpecError(format!(
                "routes.{i}.next_hop: node {} is not a neighbour of node {} (wired, or each decodes the other)",
                name(r.next_hop),
                name(r.node)
            )));
        }
    }
    conn.apply(&spec.routes);
    let why = |b: PathBreak| match b {
        PathBreak::NoRoute { at } => format!("no route at node {}", name(at.0)),
        PathBreak::Loop { through } => format!("the routes loop through node {}", name(through.0)),
    };
    for (i, f) in spec.flows.iter().enumerate() {
        if let Err(b) = conn.trace(f.src as usize, f.dst as usize) {
            return Err(SpecError(format!(
                "flows.{i}.dst: node {} is unreachable from node {}: {}",
                name(f.dst),
                name(f.src),
                why(b)
            )));
        }
        let answers = f.kind.is_tcp() || f.kind == FlowKind::ClapFile; // ACKs or feedback
        let back = if answers { mesh_border_hop(spec, &conn, f.dst as usize, f.src as usize) } else { None };
        if let Some((u, v)) = mesh_border_hop(spec, &conn, f.src as usize, f.dst as usize).or(back) {
            return Err(SpecError(format!(
                "flows.{i}: its path crosses the radio hop {} -> {} between a mesh point and a non-mesh station; mesh gates are not built, so a mesh point exchanges data over the air only with mesh points (Linux drops an IBSS station's three-address data); allowed: flows within the mesh, or among the other nodes, or through a wired link",
                name(u),
                name(v)
            )));
        }
        if answers {
            if let Err(b) = conn.trace(f.dst as usize, f.src as usize) {
                return Err(SpecError(format!(
                    "flows.{i}.dst: the answers of node {} cannot get back to node {}: {}",
                    name(f.dst),
                    name(f.src),
                    why(b)
                )));
            }
        }
    }
    for (node, row) in nodes.iter_mut().zip(conn.rows) {
        node.routes = row; // the explicit routes applied
    }
    Ok(())
}

/// The first radio hop of the flow `src -> dst` that joins a mesh point and a non-mesh station,
/// if any (a flow between two mesh points follows HWMP, not the route table).
fn mesh_border_hop(spec: &WorldSpec, conn: &Connectivity, src: usize, dst: usize) -> Option<(u32, u32)> {
    let is_mesh = |k: usize| spec.nodes[k].role == Role::Mesh;
    if spec.mesh.is_none() || (is_mesh(src) && is_mesh(dst)) {
        return None;
    }
    let wired = |u: usize, v: usize| {
        spec.wired_links
            .iter()
            .any(|l| (l.a as usize, l.b as usize) == (u, v) || (l.a as usize, l.b as usize) == (v, u))
    };
    let mut u = src;
    for _ in 0..spec.nodes.len() {
        if u == dst {
            break;
        }
        let v = conn.next_hop(u, dst)? as usize; // traced already: arrives
        if is_mesh(u) != is_mesh(v) && !wired(u, v) {
            return Some((u as u32, v as u32));
        }
        u = v;
    }
    None
}

impl World {
    /// Build a world from a validated spec.
    pub fn build(spec: &WorldSpec, seed: u64) -> Result<World, SpecError> {
        spec.validate()?;
        let phy = build::Phy::of(spec)?;
        let mut cfg = build::wifi_config(spec, &phy)?;
        let n = spec.nodes.len();
        let mut xlayer = CrossLayer::new(n);
        let (mut nodes, macs, rx_rngs) = build::nodes_and_macs(spec, seed, &phy, &cfg)?;
        let medium =
            Medium::build(&spec.channel, &spec.nodes, phy.standard, seed, rx_rngs, cfg.data_header_bytes);
        install_routes(spec, &medium, &mut nodes)?;
        let links = build::wired_links(spec, seed, &mut nodes);
        let mut sched = Scheduler::new();
        let (flows, tcps, claps) = build::flows(spec, seed, &mut nodes, &mut xlayer, &cfg, &mut sched)?;
        build::install_schemes(spec, &mut xlayer);
        cfg.beacon = build::beacons(spec, phy.standard, &mut sched);
        let mut wifi = build::wifi(spec, seed, cfg, macs, &medium, &xlayer);
        let mut medium = medium;
        let lazy_on = build::lazy_cliques(spec, &mut medium, &mut wifi, &xlayer);
        let mesh = build::mesh(spec, seed);
        // Agents read per-peer SNR (radio model only; nothing is kept otherwise).
        let agent_rate = (0..wifi.len())
            .any(|i| matches!(wifi.rate_algo(NodeId(i as u32)), Some(crate::mac::rate::RateAlgo::Agent(_))));
        xlayer.peer_snr = (medium.is_radio() && agent_rate).then(std::collections::HashMap::new);
        let mut world = World {
            sched,
            period: Period {
                end: SimTime(spec.duration_ns),
                warmup_end: SimTime(spec.warmup_ns),
                measuring: false,
            },
            wifi,
            nodes,
            medium,
            links,
            flows,
            tcps,
            claps,
            packets: PacketSlab::with_capacity(1024),
            traces: Traces::new(spec.traces),
            xlayer,
            ifaces: crate::net::iface::Interfaces::build(spec),
            mesh,
            lazy_on,
            rx_scratch: Vec::new(),
            join_scratch: Vec::new(),
        };
        world.start_schemes(); // paper 000's first poll, its starting limit recorded
        Ok(world)
    }

    /// The measured period starts (the one warm-up mechanism): every report counter (MAC,
    /// medium, flows, links, TCP, CLAP, the packets trace) starts from zero, and every
    /// integral over time restarts, at the end of the warm-up. Called before the first event
    /// at or after it, so nothing has changed since; control meters (the station table, the
    /// cross-layer meters, the medium's busy time) keep counting from the start of the run.
    fn start_measuring(&mut self) {
        self.materialize_all(); // the meters are read and reset per node
        let at = self.period.warmup_end;
        self.period.measuring = true;
        self.wifi.start_measuring();
        self.medium.start_measuring(at);
        for f in &mut self.flows {
            f.start_measuring();
        }
        for l in &mut self.links {
            for d in &mut l.dirs {
                (d.drops_queue, d.lost) = (0, 0);
            }
        }
        for n in &mut self.nodes {
            n.drops_no_route = 0;
        }
        if let Some(m) = self.mesh.as_mut() {
            m.start_measuring();
        }
        self.tcp_start_measuring(at);
        self.clap_start_measuring(at);
        self.traces.start_measuring();
    }

    /// Run until the end of the simulated duration.
    pub fn run(&mut self) {
        self.run_events(self.period.end);
        self.finish();
    }

    /// Close the run at its end: the measured period and the connections' integrals.
    pub fn finish(&mut self) {
        self.materialize_all(); // the report reads every node
        if !self.period.measuring {
            self.start_measuring();
        }
        self.tcp_finish(self.period.end);
        self.clap_finish(self.period.end);
    }

    /// Handle every event up to `horizon`.
    fn run_events(&mut self, horizon: SimTime) {
        while let Some(ev) = self.sched.pop_until(horizon) {
            let now = self.sched.now();
            if !self.period.measuring && now >= self.period.warmup_end {
                self.start_measuring();
            }
            match ev {
                Event::FlowStart(f) => self.on_flow_start(f, now),
                Event::CbrTick(f) => self.on_cbr_tick(f, now),
                Event::Grant { node, ac, gen } => self.on_grant(node, ac as usize, gen, now),
                Event::DomainGrant { domain, gen } => self.on_domain_grant(domain, gen, now),
                Event::TxEnd(tx) => self.on_tx_end(tx, now),
                Event::Respond { node, gen } => self.on_respond(node, gen, now),
                Event::Timeout { node, gen } => self.on_timeout(node, gen, now),
                Event::WiredTxEnd { link, dir } => self.on_wired_tx_end(link, dir, now),
                Event::WiredArrive { link, dir, packet } => self.on_wired_arrive(link, dir, packet, now),
                Event::TcpRto { flow, gen } => self.on_tcp_rto(flow, gen, now),
                Event::TcpDelack { flow, gen } => self.on_tcp_delack(flow, gen, now),
                Event::TcpTsq { flow } => self.on_tcp_tsq(flow, now),
                Event::TcpPace { flow } => self.on_tcp_pace(flow, now),
                Event::ClapSender { flow, gen } => self.on_clap_sender_timer(flow, gen, now),
                Event::ClapReceiver { flow, gen } => self.on_clap_receiver_timer(flow, gen, now),
                Event::Beacon(node) => self.on_beacon(node, now),
                Event::BeaconGrant { node, gen } => self.on_beacon_grant(node, gen, now),
                Event::Mesh { node, other, timer } => self.on_mesh_timer(node, other, timer, now),
                Event::SchemeTimer { node, scheme } => self.on_scheme_timer(node, scheme, now),
            }
        }
    }

    pub fn packet(&self, id: PacketId) -> &Packet {
        self.packets.get(id)
    }
}
