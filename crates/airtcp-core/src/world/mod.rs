//! The world: every entity of one run in arenas addressed by typed ids, the builder that
//! turns a [`WorldSpec`] into a world, the run loop, and (in `wifi`) the glue that drains the
//! MACs' indications.

pub mod agent;
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
use crate::mac::backoff::CountRule;
use crate::mac::rate::RateAlgo;
use crate::mac::retry::RetryLimits;
use crate::mac::{AcParams, Mac, Wifi, WifiConfig, AC_COUNT};
use crate::medium::Medium;
use crate::net::routing::{Connectivity, PathBreak};
use crate::net::{Flow, Packet, PacketSlab, WiredLink};
use crate::phy::{ModeId, PhyTiming, Preamble, Standard, TxVector};
use crate::rng::{entity_id, Purpose, Stream};
use crate::spec::{rate_kbps, Access, FlowKind, PreambleSpec, Role, SpecError, WorldSpec};
use crate::time::{Dur, SimTime};
use crate::trace::Traces;
use crate::xlayer::{CrossLayer, Scheme};

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

pub struct World {
    pub sched: Scheduler<Event>,
    pub duration_end: SimTime,
    /// The measured period starts here: report counters count from it.
    pub warmup_end: SimTime,
    /// The report counters have been zeroed for the measured period ([`World::start_measuring`]).
    measuring: bool,
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
    /// The first access point, whose MAC is the BSSID of frames between non-AP nodes.
    pub bss_ap: Option<NodeId>,
    /// The cross-layer schemes and the nodes they run at.
    pub xlayer: CrossLayer,
    /// The interface tier above each WiFi MAC: qdisc, or mac80211's intermediate queues with
    /// AQL (`net::iface`).
    pub ifaces: crate::net::iface::Interfaces,
    /// Scratch for an A-MPDU's subframes (reused: no allocation per PPDU).
    pub subframes: Vec<crate::mac::aggregate::Subframe>,
    /// Radio model with an agent's rate control: the SNR [dB] of the last frame each node
    /// received addressed to it, per transmitter (`(receiver, transmitter)`), for agents.
    pub(crate) peer_snr: Option<std::collections::HashMap<(u32, u32), f32>>,
    /// 802.11s: the mesh points' peer links and HWMP (none without mesh points).
    pub mesh: Option<mesh::MeshWorld>,
}

/// Compute the routes (`net::routing`), check the explicit ones and that every flow arrives
/// (and its ACKs or feedback come back), and give each node its next hops.
fn install_routes(spec: &WorldSpec, nodes: &mut [Node]) -> Result<(), SpecError> {
    let topology = crate::net::routing::Topology::of_world(spec);
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
        let w = &spec.wifi;
        let standard = w.standard().ok_or_else(|| SpecError("wifi.standard".into()))?;
        let timing = PhyTiming::of(standard, w.erp_mixed);
        let preamble = match w.preamble {
            PreambleSpec::Long => Preamble::Long,
            PreambleSpec::Short => Preamble::Short,
        };
        let mode = |kbps: u32, path: &str| -> Result<ModeId, SpecError> {
            standard.mode(kbps).ok_or_else(|| SpecError(format!("{path}: no mode for {kbps} kbit/s")))
        };
        let data_mode = match (&w.ht, w.data_rate_mbps) {
            (Some(ht), _) => ht.data_mode(),
            (None, Some(r)) => mode(rate_kbps(standard, r, "wifi.data_rate_mbps")?, "wifi.data_rate_mbps")?,
            (None, None) => return Err(SpecError("wifi.data_rate_mbps: missing".into())),
        };
        let mut data_txv = TxVector::new(data_mode, preamble);
        // An HT PPDU in 2.4 GHz ends with the signal extension (19.3.2).
        data_txv.signal_extension = standard.ht().is_some_and(|c| c.band == crate::phy::Band::Ghz2_4);
        let control_txv = TxVector::new(
            mode(rate_kbps(standard, w.basic_rate_mbps, "wifi.basic_rate_mbps")?, "wifi.basic_rate_mbps")?,
            preamble,
        );
        let qos = w.access == Access::Edca;
        let mut wifi = WifiConfig::new(standard, timing, data_txv, control_txv, qos);
        if let Some(ht) = w.ht.as_ref().filter(|h| h.ampdu) {
            use crate::mac::ht::{ampdu::AggLimits, blockack::BaRetryLimits};
            wifi.ampdu = Some(crate::mac::AmpduConfig {
                limits: if ht.aggregation == "ath9k" { AggLimits::ATH9K } else { AggLimits::NS3 },
                retry: BaRetryLimits { ppdu_attempts: ht.ppdu_attempts, mpdu_retries: ht.mpdu_retries },
            });
        }
        wifi.retry = RetryLimits { short: w.short_retry_limit, long: w.long_retry_limit };
        let ampdu = w.ht.as_ref().is_some_and(|h| h.ampdu);
        let parse = |name: &str| match standard.ht() {
            Some(cfg) => RateAlgo::parse_ht(name, cfg, &timing, data_txv.mode, ampdu),
            None => RateAlgo::parse(name, standard, &timing, data_txv.mode),
        };
        wifi.rate = parse(&w.rate_control)
            .ok_or_else(|| SpecError(format!("wifi.rate_control: unknown {:?}", w.rate_control)))?;
        wifi.rts_threshold_bytes = w.rts_threshold_bytes;
        wifi.queue_limit = w.queue_limit_packets as usize;
        wifi.airtime_meter = w.txq.as_ref().is_some_and(|t| t.airtime_fairness);
        let n = spec.nodes.len();
        let params: [AcParams; AC_COUNT] = std::array::from_fn(|ac| {
            let base = if qos { AcParams::edca_default(ac, &timing) } else { AcParams::dcf(&timing) };
            AcParams {
                aifsn: w.aifsn.unwrap_or(base.aifsn),
                cw_min: w.cw_min.unwrap_or(base.cw_min),
                cw_max: w.cw_max.unwrap_or(base.cw_max).max(w.cw_min.unwrap_or(base.cw_min)),
            }
        });
        let rule = if qos { CountRule::Edca } else { CountRule::Dcf };
        let mut xlayer = CrossLayer::new(n);
        let mut nodes = Vec::with_capacity(n);
        let mut macs = Vec::with_capacity(n);
        let mut rx_rngs = Vec::with_capacity(n);
        for ns in &spec.nodes {
            let ent = entity_id(&ns.name);
            nodes.push(Node {
                name: ns.name.clone(),
                role: ns.role,
                wifi: ns.wifi,
                position_m: ns.position_m,
                routes: Default::default(),
                wired: Vec::new(),
                sources: Vec::new(),
                next_shared: 0,
                drops_no_route: 0,
            });
            // The node's own rate control, else the channel's (each standard has its modes).
            let rate = match &ns.rate_control {
                Some(name) => parse(name)
                    .ok_or_else(|| SpecError(format!("{}: unknown rate control {name:?}", ns.name)))?,
                None => wifi.rate,
            };
            let mut mac = Mac::new(params, rule, qos, n, rate, Stream::derive(seed, ent, Purpose::Backoff));
            mac.wifi = ns.wifi;
            mac.pass_corrupt = w.pass_corrupt && ns.wifi;
            macs.push(mac);
            rx_rngs.push(Stream::derive(seed, ent, Purpose::RxError));
        }
        install_routes(spec, &mut nodes)?;
        let mut links = Vec::with_capacity(spec.wired_links.len());
        for (i, l) in spec.wired_links.iter().enumerate() {
            let id = LinkId(i as u32);
            nodes[l.a as usize].wired.push((NodeId(l.b), id, 0));
            nodes[l.b as usize].wired.push((NodeId(l.a), id, 1));
            let mut link = WiredLink::new(
                NodeId(l.a),
                NodeId(l.b),
                l.rate_bps,
                Dur(l.delay_ns),
                l.queue_limit_packets as usize,
            );
            link.loss = [l.loss, l.reverse_loss];
            // Keyed by the link's end names, so adding nodes or links perturbs no other stream.
            let key = format!("link:{}-{}", spec.nodes[l.a as usize].name, spec.nodes[l.b as usize].name);
            link.rng = Stream::derive(seed, entity_id(&key), Purpose::LinkLoss);
            links.push(link);
        }
        if let Some(h) = w.data_header_bytes {
            wifi.data_header_bytes = h;
        } else if spec.mesh.is_some() {
            // Mesh data: four addresses and the Mesh Control (9.2.4.7.3).
            wifi.data_header_bytes = crate::capture::MESH_DATA_HEADER_BYTES;
        }
        let data_header_bytes = wifi.data_header_bytes;
        let medium = Medium::build(spec, standard, seed, rx_rngs, data_header_bytes);
        let mut flows = Vec::with_capacity(spec.flows.len());
        let mut tcps = Vec::with_capacity(spec.flows.len());
        let mut claps = Vec::with_capacity(spec.flows.len());
        let mut sched = Scheduler::new();
        for (i, f) in spec.flows.iter().enumerate() {
            let id = FlowId(i as u32);
            nodes[f.src as usize].sources.push(id);
            let interval = match (f.kind, f.rate_bps) {
                (k, Some(rate)) if k.is_paced() => {
                    let ns = (f64::from(f.payload_bytes) * 8.0 * 1e9 / rate).round().max(1.0);
                    Dur(ns as u64)
                }
                _ => Dur::ZERO,
            };
            let mut flow = Flow::new(f, interval);
            // The flow's own random stream: its ends' names and its rank among their flows, so
            // adding another flow leaves it alone (rng.rs).
            let rank = spec.flows[..i].iter().filter(|g| (g.src, g.dst) == (f.src, f.dst)).count() as u64;
            let name = |k: u32| entity_id(&spec.nodes[k as usize].name);
            let stream = name(f.src) ^ name(f.dst).rotate_left(29) ^ crate::rng::mix64(rank);
            flow.pacing.seed = seed;
            flow.pacing.stream = stream;
            if f.start_jitter_ns > 0 {
                let u = crate::rng::Draws::new(crate::rng::TAG_JITTER, seed, stream, 0).open01();
                flow.start += Dur((u * f.start_jitter_ns as f64) as u64);
            }
            let start = flow.start;
            flows.push(flow);
            tcps.push(f.kind.is_tcp().then(|| crate::world::tcp::TcpFlow::new(f)));
            claps.push(if f.kind == FlowKind::ClapFile {
                xlayer.install(NodeId(f.src), Scheme::ClapLink); // its MAC feeds the rate law
                Some(crate::world::clap::ClapFlow::new(f, &wifi, w.erp_mixed)?)
            } else {
                None
            });
            sched.at(start, Event::FlowStart(id));
        }
        // Saturating sources of one node that share a queue (its access category's under EDCA,
        // its one queue otherwise) take turns instead of the first taking every free slot.
        for node in &nodes {
            let queue = |f: &Flow| if qos && node.wifi { f.ac } else { 0 };
            let saturating: Vec<usize> = node
                .sources
                .iter()
                .map(|f| f.idx())
                .filter(|&f| flows[f].kind == FlowKind::UdpSaturating)
                .collect();
            for &f in &saturating {
                let q = queue(&flows[f]);
                flows[f].shares_queue = saturating.iter().any(|&g| g != f && queue(&flows[g]) == q);
            }
        }
        if w.lnmac {
            for (i, ns) in spec.nodes.iter().enumerate() {
                if ns.wifi {
                    xlayer.install(NodeId(i as u32), Scheme::LnMac);
                }
            }
        }
        if let Some(m) = &spec.mesh {
            // Mesh Beacons (ieee80211_mesh_build_beacon) at the lowest rate, every mesh point's
            // TBTTs spread over the interval like the APs' below.
            let lowest = standard.modes()[0];
            let body = crate::mesh::frame::beacon_body_bytes(
                standard.modes().len(),
                standard.legacy() != Standard::A,
                standard.ht().is_some(),
            );
            wifi.beacon = Some(crate::mac::BeaconConfig {
                interval: Dur::from_us(u64::from(m.beacon_interval_tu) * 1024),
                txv: TxVector::new(lowest, Preamble::Long),
                bytes: crate::mac::frame::DATA_HEADER_BYTES + body + crate::mac::frame::FCS_BYTES,
            });
            let points: Vec<usize> = (0..n).filter(|&i| spec.nodes[i].role == Role::Mesh).collect();
            for (k, &i) in points.iter().enumerate() {
                let tu = u64::from(m.beacon_interval_tu);
                let offset = Dur::from_us(tu * 1024 * k as u64 / points.len() as u64);
                sched.at(SimTime::ZERO + offset, Event::Beacon(NodeId(i as u32)));
            }
        }
        if let Some(tu) = w.beacon_interval_tu {
            // The standard's lowest rate, long preamble; a 24-byte management header + FCS.
            let lowest = standard.modes()[0];
            let rates = standard.modes().len();
            let body = crate::mac::frame::beacon_body_bytes(rates, standard.legacy() != Standard::A);
            wifi.beacon = Some(crate::mac::BeaconConfig {
                interval: Dur::from_us(u64::from(tu) * 1024),
                txv: TxVector::new(lowest, Preamble::Long),
                bytes: crate::mac::frame::DATA_HEADER_BYTES + body + crate::mac::frame::FCS_BYTES,
            });
            // TBTTs from the start; several APs are spread over the interval (their TSFs are
            // independent: none would beacon in step with another).
            let aps: Vec<usize> =
                (0..n).filter(|&i| spec.nodes[i].role == Role::Ap && spec.nodes[i].wifi).collect();
            for (k, &i) in aps.iter().enumerate() {
                let offset = Dur::from_us(u64::from(tu) * 1024 * k as u64 / aps.len() as u64);
                sched.at(SimTime::ZERO + offset, Event::Beacon(NodeId(i as u32)));
            }
        }
        if w.ba_retry_remedy {
            // The paper modified the terminal's driver (its AP is a commercial one).
            for (i, ns) in spec.nodes.iter().enumerate() {
                if ns.wifi && ns.role == Role::Sta {
                    xlayer.install(NodeId(i as u32), Scheme::BaRetry);
                }
            }
        }
        if let Some(t_ms) = w.arf_window_slot_ms {
            let slot = Dur((t_ms * 1e6).round() as u64);
            for (i, ns) in spec.nodes.iter().enumerate() {
                if ns.wifi && ns.role != Role::Ap {
                    let node = NodeId(i as u32);
                    xlayer.install(node, Scheme::ArfWindow);
                    xlayer.arf[i] = Some(crate::xlayer::ArfStation {
                        meter: crate::xlayer::arf_window::Meter::new(node, slot),
                        gate: Default::default(),
                        tx_mode: None,
                        rx_mode: None,
                    });
                }
            }
        }
        let mut wifi = Wifi::new(wifi, macs);
        wifi.upper_aware = w.pass_corrupt;
        wifi.trace_mpdus = spec.traces.mpdus;
        wifi.rate_arena.seed = seed;
        // Stations sharing one view of the medium share one grant event (issue 18).
        // The medium's views: the range model's carrier sense, or the radio model's mean link
        // budget (it senses frame by frame: the grouping is a cost guess there, never a result).
        let groups = if w.per_station_grants {
            Vec::new()
        } else {
            medium.view_groups(crate::mac::contention::MIN_GROUP)
        };
        wifi.domains = crate::mac::contention::Domains::new(n, &groups);
        wifi.rate_arena.entities = spec.nodes.iter().map(|ns| entity_id(&ns.name)).collect();
        for i in 0..n {
            // The rates trace hears every rate change, like a scheme would.
            let trace = if spec.traces.rates { crate::xlayer::RATE_CHANGED } else { 0 };
            wifi.subscribe(NodeId(i as u32), xlayer.kinds(NodeId(i as u32)) | trace);
        }
        let mesh = spec.mesh.as_ref().map(|m| {
            let is_mesh: Vec<bool> = spec.nodes.iter().map(|ns| ns.role == Role::Mesh).collect();
            let rngs = spec
                .nodes
                .iter()
                .map(|ns| Stream::derive(seed, entity_id(&ns.name), Purpose::Mesh))
                .collect();
            let mw = mesh::MeshWorld::new(m, &is_mesh, &spec.blocked_radio_links, rngs, w.short_retry_limit);
            for (i, _) in mw.alm.iter().enumerate().filter(|(_, a)| a.is_some()) {
                let (node, timer) = (NodeId(i as u32), crate::event::MeshTimer::AlmRetry);
                sched.at(SimTime::ZERO + mw.alm_interval, Event::Mesh { node, other: node, timer });
            }
            mw
        });
        // Agents read per-peer SNR (radio model only; nothing is kept otherwise).
        let agent_rate = wifi.macs.iter().any(|m| matches!(m.rate, crate::mac::rate::RateAlgo::Agent(_)));
        let peer_snr = (medium.is_radio() && agent_rate).then(std::collections::HashMap::new);
        Ok(World {
            sched,
            duration_end: SimTime(spec.duration_ns),
            warmup_end: SimTime(spec.warmup_ns),
            measuring: false,
            wifi,
            nodes,
            medium,
            links,
            flows,
            tcps,
            claps,
            packets: PacketSlab::with_capacity(1024),
            traces: Traces::new(spec.traces),
            bss_ap: spec.nodes.iter().position(|n| n.role == Role::Ap).map(|i| NodeId(i as u32)),
            xlayer,
            ifaces: crate::net::iface::Interfaces::build(spec),
            subframes: Vec::with_capacity(crate::mac::ht::blockack::WINDOW as usize),
            peer_snr,
            mesh,
        })
    }

    /// The measured period starts (the one warm-up mechanism): every report counter (MAC,
    /// medium, flows, links, TCP, CLAP, the packets trace) starts from zero, and every
    /// integral over time restarts, at the end of the warm-up. Called before the first event
    /// at or after it, so nothing has changed since; control meters (the station table, the
    /// cross-layer meters, the medium's busy time) keep counting from the start of the run.
    fn start_measuring(&mut self) {
        let at = self.warmup_end;
        self.measuring = true;
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
        self.run_events(self.duration_end);
        self.finish();
    }

    /// Close the run at its end: the measured period and the connections' integrals.
    pub fn finish(&mut self) {
        if !self.measuring {
            self.start_measuring();
        }
        self.tcp_finish(self.duration_end);
        self.clap_finish(self.duration_end);
    }

    /// Handle every event up to `horizon`.
    fn run_events(&mut self, horizon: SimTime) {
        while let Some(ev) = self.sched.pop_until(horizon) {
            let now = self.sched.now();
            if !self.measuring && now >= self.warmup_end {
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
                Event::ClapSender { flow, gen } => self.on_clap_sender_timer(flow, gen, now),
                Event::ClapReceiver { flow, gen } => self.on_clap_receiver_timer(flow, gen, now),
                Event::Beacon(node) => self.on_beacon(node, now),
                Event::BeaconGrant { node, gen } => self.on_beacon_grant(node, gen, now),
                Event::Mesh { node, other, timer } => self.on_mesh_timer(node, other, timer, now),
            }
        }
    }

    pub fn packet(&self, id: PacketId) -> &Packet {
        self.packets.get(id)
    }
}
