//! The builders `World::build` wires: one per layer, each from its section of the spec. The
//! order of their random streams and of the events they schedule is part of the results
//! (flows start, then beacons, then the mesh's timers), so `World::build` keeps it.

use super::{mesh, Node};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::{FlowId, LinkId, NodeId};
use crate::mac::backoff::CountRule;
use crate::mac::rate::{RateAlgo, RateName};
use crate::mac::retry::RetryLimits;
use crate::mac::{AcParams, BeaconConfig, Mac, Wifi, WifiConfig, AC_COUNT};
use crate::medium::Medium;
use crate::net::{Flow, WiredLink};
use crate::phy::{ModeId, PhyTiming, Preamble, Standard, TxVector};
use crate::rng::{entity_id, Purpose, Stream};
use crate::spec::{rate_kbps, Access, FlowKind, PreambleSpec, Role, SpecError, WorldSpec};
use crate::time::{Dur, SimTime};
use crate::xlayer::CrossLayer;

/// The PHY every node shares: the standard, its timing, and the data and control vectors.
pub(super) struct Phy {
    pub standard: Standard,
    pub timing: PhyTiming,
    pub data_txv: TxVector,
    pub control_txv: TxVector,
    pub qos: bool,
    ampdu: bool,
    /// The mode every adaptive rate control starts at (`wifi.initial_rate_mbps`); None: the
    /// ladder's lowest.
    start: Option<ModeId>,
    /// How rt2800's tries reach Minstrel (`wifi.minstrel_status`).
    minstrel_status: crate::spec::MinstrelStatus,
}

impl Phy {
    pub fn of(spec: &WorldSpec) -> Result<Phy, SpecError> {
        let w = &spec.wifi;
        let standard = w.standard();
        let mut timing = PhyTiming::of(standard, w.erp_mixed);
        // aCWmin as the spec sets it (a Linux mesh point's 31 on 2.4 GHz): the access
        // categories' defaults (Table 9-155) and every estimate of the mean backoff follow it.
        timing.cw_min = w.a_cw_min.unwrap_or(timing.cw_min);
        let preamble = match w.preamble {
            PreambleSpec::Long => Preamble::Long,
            PreambleSpec::Short => Preamble::Short,
        };
        let mode = |kbps: u32, path: &str| -> Result<ModeId, SpecError> {
            standard.mode(kbps).ok_or_else(|| SpecError(format!("{path}: no mode for {kbps} kbit/s")))
        };
        let data_mode = match (&w.ht, w.data_rate_mbps) {
            (Some(ht), _) => ht.data_mode(standard),
            (None, Some(r)) => mode(rate_kbps(standard, r, "wifi.data_rate_mbps")?, "wifi.data_rate_mbps")?,
            (None, None) => return Err(SpecError("wifi.data_rate_mbps: missing".into())),
        };
        let mut data_txv = TxVector::new(data_mode, preamble);
        // An HT or HE PPDU in 2.4 GHz ends with the signal extension (19.3.2, 27.4.3).
        data_txv.signal_extension = standard.signal_extension();
        let control_txv = TxVector::new(
            mode(rate_kbps(standard, w.basic_rate_mbps, "wifi.basic_rate_mbps")?, "wifi.basic_rate_mbps")?,
            preamble,
        );
        let qos = w.access == Access::Edca;
        let ampdu = w.ht.as_ref().is_some_and(|h| h.ampdu);
        let start = w
            .initial_rate_mbps
            .map(|r| mode(rate_kbps(standard, r, "wifi.initial_rate_mbps")?, "wifi.initial_rate_mbps"))
            .transpose()?;
        let minstrel_status = w.minstrel_status;
        Ok(Phy { standard, timing, data_txv, control_txv, qos, ampdu, start, minstrel_status })
    }

    /// The Block Ack agreements' buffer size: 256 MPDUs between HE stations (802.11ax-2021
    /// 10.25.2; ns-3 3.44 `WifiMac::GetMaxBaBufferSize`, Linux `IEEE80211_MAX_AMPDU_BUF_HE`),
    /// 64 on HT and VHT.
    fn ba_window(&self) -> u16 {
        match self.standard {
            Standard::Ax(_) => crate::mac::ht::blockack::MAX_WINDOW,
            _ => crate::mac::ht::blockack::WINDOW,
        }
    }

    /// The rate-control algorithm called `name` on this PHY, starting at the starting mode if
    /// one is set, rt2800's tries reported as `wifi.minstrel_status` says.
    fn rate(&self, name: RateName) -> Option<RateAlgo> {
        let algo = match self.standard.ht() {
            Some(cfg) => Some(RateAlgo::parse_ht(name, cfg, &self.timing, self.data_txv.mode, self.ampdu)),
            None => RateAlgo::parse(name, self.standard, &self.timing, self.data_txv.mode),
        }?
        .with_minstrel_status(self.minstrel_status);
        match self.start {
            Some(mode) => algo.starting_at(mode),
            None => Some(algo),
        }
    }
}

/// What every MAC shares (`wifi`): aggregation, retry limits, the channel's rate control,
/// RTS threshold, queue, the data header (a mesh's carries four addresses).
pub(super) fn wifi_config(spec: &WorldSpec, phy: &Phy) -> Result<WifiConfig, SpecError> {
    let w = &spec.wifi;
    let mut wifi = WifiConfig::new(phy.standard, phy.timing, phy.data_txv, phy.control_txv, phy.qos);
    if let Some(ht) = w.ht.as_ref().filter(|h| h.ampdu) {
        use crate::mac::ht::{ampdu::AggLimits, blockack::BaRetryLimits};
        wifi.ampdu = Some(crate::mac::AmpduConfig {
            limits: {
                let preset = match ht.aggregation {
                    crate::spec::Aggregation::Ath9k => AggLimits::ATH9K,
                    // ns-3 counts no subframes of its own beyond the Block Ack window.
                    crate::spec::Aggregation::Ns3 => {
                        AggLimits { max_subframes: u32::from(phy.ba_window()), ..AggLimits::NS3 }
                    }
                };
                let preset = match ht.max_ampdu_bytes {
                    Some(max_bytes) => AggLimits { max_bytes, ..preset },
                    None => preset,
                };
                match ht.max_ampdu_time_us {
                    Some(us) => AggLimits { max_time: crate::time::Dur::from_us(u64::from(us)), ..preset },
                    None => preset,
                }
            },
            retry: BaRetryLimits { ppdu_attempts: ht.ppdu_attempts, mpdu_retries: ht.mpdu_retries },
            mofa: ht.ampdu_adaptation == crate::spec::AmpduAdaptation::Mofa,
            ba_window: phy.ba_window(),
        });
    }
    wifi.retry = RetryLimits { short: w.short_retry_limit, long: w.long_retry_limit };
    wifi.rate = phy.rate(w.rate_control).ok_or_else(|| {
        SpecError(format!("wifi.rate_control: {} does not run on {}", w.rate_control, phy.standard.name()))
    })?;
    wifi.rts_threshold_bytes = w.rts_threshold_bytes;
    wifi.queue_limit = w.queue_limit_packets as usize;
    wifi.airtime_meter = w.txq.as_ref().is_some_and(|t| t.airtime_fairness);
    if let Some(h) = w.data_header_bytes {
        wifi.data_header_bytes = h;
    } else if spec.mesh.is_some() {
        // Mesh data: four addresses and the Mesh Control (9.2.4.7.3).
        wifi.data_header_bytes = crate::capture::MESH_DATA_HEADER_BYTES;
    }
    Ok(wifi)
}

/// The nodes, their MACs and their frame-error streams, by node index.
type NodesAndMacs = (Vec<Node>, Vec<Mac>, Vec<Stream>);

/// Every node and its MAC (its own rate control, else the channel's), and each node's
/// frame-error stream; the streams are keyed by the node's name (rng.rs).
pub(super) fn nodes_and_macs(
    spec: &WorldSpec,
    seed: u64,
    phy: &Phy,
    wifi: &WifiConfig,
) -> Result<NodesAndMacs, SpecError> {
    let w = &spec.wifi;
    let n = spec.nodes.len();
    let params: [AcParams; AC_COUNT] = std::array::from_fn(|ac| {
        let base = if phy.qos { AcParams::edca_default(ac, &phy.timing) } else { AcParams::dcf(&phy.timing) };
        AcParams {
            aifsn: w.aifsn.unwrap_or(base.aifsn),
            cw_min: w.cw_min.unwrap_or(base.cw_min),
            cw_max: w.cw_max.unwrap_or(base.cw_max).max(w.cw_min.unwrap_or(base.cw_min)),
        }
    });
    let rule = if phy.qos { CountRule::Edca } else { CountRule::Dcf };
    let (mut nodes, mut macs, mut rx_rngs) =
        (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
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
        let rate = match ns.rate_control {
            Some(name) => phy.rate(name).ok_or_else(|| {
                SpecError(format!("{}: rate control {name} does not run on {}", ns.name, phy.standard.name()))
            })?,
            None => wifi.rate,
        };
        let mut mac = Mac::new(params, rule, phy.qos, n, rate, Stream::derive(seed, ent, Purpose::Backoff));
        mac.wifi = ns.wifi;
        mac.pass_corrupt = w.pass_corrupt && ns.wifi;
        if w.backoff_rule == crate::spec::BackoffRule::Ns2 {
            mac.use_ns2_backoff();
        }
        macs.push(mac);
        rx_rngs.push(Stream::derive(seed, ent, Purpose::RxError));
    }
    Ok((nodes, macs, rx_rngs))
}

/// The wired links, each end's entry in its node's list; a link's loss stream is keyed by its
/// ends' names, so adding nodes or links perturbs no other stream.
pub(super) fn wired_links(spec: &WorldSpec, seed: u64, nodes: &mut [Node]) -> Vec<WiredLink> {
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
        let key = format!("link:{}-{}", spec.nodes[l.a as usize].name, spec.nodes[l.b as usize].name);
        link.rng = Stream::derive(seed, entity_id(&key), Purpose::LinkLoss);
        links.push(link);
    }
    links
}

type Flows = (Vec<Flow>, Vec<Option<super::tcp::TcpFlow>>, Vec<Option<super::clap::ClapFlow>>);

/// Every flow with its TCP connection or CLAP transfer, its start scheduled; CLAP's source
/// gets its link report (`clap_link`). Saturating sources of one node that share a queue take
/// turns instead of the first taking every free slot.
pub(super) fn flows(
    spec: &WorldSpec,
    seed: u64,
    nodes: &mut [Node],
    xlayer: &mut CrossLayer,
    wifi: &WifiConfig,
    sched: &mut Scheduler<Event>,
) -> Result<Flows, SpecError> {
    let count = spec.flows.len();
    let (mut flows, mut tcps, mut claps) =
        (Vec::with_capacity(count), Vec::with_capacity(count), Vec::with_capacity(count));
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
        let draws = crate::rng::Draws::new(crate::rng::TAG_BBR, seed, stream, 0);
        tcps.push(f.kind.is_tcp().then(|| super::tcp::TcpFlow::new(f, draws)));
        claps.push(if f.kind == FlowKind::ClapFile {
            xlayer.install(NodeId(f.src), crate::xlayer::Installed::ClapLink(Default::default())); // its MAC feeds the rate law
            Some(super::clap::ClapFlow::new(f, wifi, spec.wifi.erp_mixed)?)
        } else {
            None
        });
        sched.at(start, Event::FlowStart(id));
    }
    // Saturating sources that share a queue (their access category's under EDCA, the one
    // queue otherwise) take turns.
    for node in nodes.iter() {
        let queue = |f: &Flow| if wifi.qos && node.wifi { f.ac } else { 0 };
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
    Ok((flows, tcps, claps))
}

/// The cross-layer schemes the spec turns on, at the nodes each runs at: LN-MAC at every
/// WiFi node, paper 002's Block-Ack retry limit at the stations (the paper modified the
/// terminal's driver; its AP is a commercial one), paper 003's window at the non-AP nodes,
/// paper 000's ALM-driven retry limit at every mesh point (`[mesh] alm_retry`), starting from
/// the channel's retry limit, with Table III's map or a measured one.
pub(super) fn install_schemes(spec: &WorldSpec, xlayer: &mut CrossLayer) {
    use crate::xlayer::{alm_retry, arf_window::ArfWindow, Installed};
    let w = &spec.wifi;
    if let Some(m) = spec.mesh.as_ref().filter(|m| m.alm_retry) {
        let map = match &m.alm_travel_us_per_metric {
            Some(v) => alm_retry::TravelMap { us_per_metric: std::array::from_fn(|r| v[r]) },
            None => alm_retry::TravelMap::table_iii_normal(),
        };
        let limit = w.short_retry_limit.clamp(1, 31) as u8;
        let interval = Dur((m.alm_retry_interval_ms * 1e6).round() as u64);
        for (i, ns) in spec.nodes.iter().enumerate() {
            if ns.role == Role::Mesh {
                let alm = alm_retry::AlmRetry { limit, interval, ..alm_retry::AlmRetry::linux(map.clone()) };
                xlayer.install(NodeId(i as u32), Installed::AlmRetry(alm));
            }
        }
    }
    for (i, ns) in spec.nodes.iter().enumerate() {
        let node = NodeId(i as u32);
        if w.lnmac && ns.wifi {
            xlayer.install(node, Installed::LnMac(Default::default()));
        }
        if w.ba_retry_remedy && ns.wifi && ns.role == Role::Sta {
            xlayer.install(node, Installed::BaRetry(Default::default()));
        }
    }
    if let Some(t_ms) = w.arf_window_slot_ms {
        let slot = Dur((t_ms * 1e6).round() as u64);
        for (i, ns) in spec.nodes.iter().enumerate() {
            if ns.wifi && ns.role != Role::Ap {
                let node = NodeId(i as u32);
                let mut scheme = ArfWindow::new(node, slot);
                (scheme.rtt, scheme.every_slot) = (w.arf_window_rtt, w.arf_window_every_slot);
                xlayer.install(node, Installed::ArfWindow(Box::new(scheme)));
            }
        }
    }
}

/// The beacon every beaconing node sends, its first TBTTs scheduled: the mesh points' Mesh
/// Beacons (`ieee80211_mesh_build_beacon`), then the APs' (`wifi.beacon_interval_tu`), each at
/// the standard's lowest rate, long preamble, spread over the interval (their TSFs are
/// independent: none would beacon in step with another).
pub(super) fn beacons(
    spec: &WorldSpec,
    standard: Standard,
    sched: &mut Scheduler<Event>,
) -> Option<BeaconConfig> {
    let n = spec.nodes.len();
    let lowest = standard.modes()[0];
    let frame = |interval_tu: u64, body: u32| BeaconConfig {
        interval: Dur::from_us(interval_tu * 1024),
        txv: TxVector::new(lowest, Preamble::Long),
        bytes: crate::mac::frame::DATA_HEADER_BYTES + body + crate::mac::frame::FCS_BYTES,
    };
    let mut schedule = |nodes: Vec<usize>, tu: u64| {
        for (k, &i) in nodes.iter().enumerate() {
            let offset = Dur::from_us(tu * 1024 * k as u64 / nodes.len() as u64);
            sched.at(SimTime::ZERO + offset, Event::Beacon(NodeId(i as u32)));
        }
    };
    let mut beacon = None;
    if let Some(m) = &spec.mesh {
        let body = crate::mesh::frame::beacon_body_bytes(
            standard.modes().len(),
            standard.legacy() != Standard::A,
            standard.ht().is_some(),
        );
        let tu = u64::from(m.beacon_interval_tu);
        beacon = Some(frame(tu, body));
        schedule((0..n).filter(|&i| spec.nodes[i].role == Role::Mesh).collect(), tu);
    }
    if let Some(tu) = spec.wifi.beacon_interval_tu {
        let body =
            crate::mac::frame::beacon_body_bytes(standard.modes().len(), standard.legacy() != Standard::A);
        beacon = Some(frame(u64::from(tu), body));
        let aps = (0..n).filter(|&i| spec.nodes[i].role == Role::Ap && spec.nodes[i].wifi).collect();
        schedule(aps, u64::from(tu));
    }
    beacon
}

/// The MACs with what they share: contention domains (stations sharing one view of the medium
/// share one grant event, issue 18: the range model's carrier sense, or the radio model's mean
/// link budget, a cost guess there, never a result), the MAC events each node's schemes (and
/// the rates trace) subscribe to.
pub(super) fn wifi(
    spec: &WorldSpec,
    seed: u64,
    cfg: WifiConfig,
    macs: Vec<Mac>,
    medium: &Medium,
    xlayer: &CrossLayer,
) -> Wifi {
    let n = spec.nodes.len();
    let mut wifi = Wifi::new(cfg, macs);
    wifi.upper_aware = spec.wifi.pass_corrupt;
    wifi.trace_mpdus = spec.traces.mpdus;
    wifi.rate_arena.seed = seed;
    let groups = if spec.wifi.per_station_grants {
        Vec::new()
    } else {
        medium.view_groups(crate::mac::contention::MIN_GROUP)
    };
    wifi.domains = crate::mac::contention::Domains::new(n, &groups);
    wifi.rate_arena.entities = spec.nodes.iter().map(|ns| entity_id(&ns.name)).collect();
    wifi.bss_ap = spec.nodes.iter().position(|n| n.role == Role::Ap).map(|i| NodeId(i as u32));
    for i in 0..n {
        let trace = if spec.traces.rates { crate::xlayer::RATE_CHANGED } else { 0 };
        wifi.subscribe(NodeId(i as u32), xlayer.kinds(NodeId(i as u32)) | trace);
    }
    wifi
}

/// The smallest isolated clique whose listeners share one state (`medium::clique`,
/// `mac::lazy`): below it the per-member loops cost less than the bookkeeping. Measured in
/// instructions (docs/validation.md section 27): saturated UDP cells gain from 7 nodes (-4 %;
/// 8 nodes -12 %, 11 nodes -29 %) and lose at 5-6 (+18 %, +7 %); TCP, whose members' queues
/// fill and empty with the ACK clock, loses below about 13 nodes (a 6-node chain +33 %, a
/// 7-node cell +19 %). At 8 the 6- and 7-node chains and cells run without it, for 4 % on a
/// saturated 7-node cell; larger cells where few members stay lazy give them up as they run
/// (`Wifi::lazy_tally`).
pub(crate) const LAZY_MIN: usize = 8;

/// Let the members of isolated cliques be lazy where nothing looks at a listener apart from
/// its MAC and radio: the range model with no frame errors (each receiver would draw its
/// own), contention domains on, no mesh, no scheme, no per-receiver trace (receptions,
/// frames), the standard backoff rule, no corrupt frames passed up. True if some clique may
/// have lazy members. The mesh's paths (`enqueue_mgmt` from `world::mesh`, `Wifi::rx_group`)
/// do not materialize a member first: lifting the mesh condition needs them to.
pub(super) fn lazy_cliques(
    spec: &WorldSpec,
    medium: &mut Medium,
    wifi: &mut Wifi,
    xlayer: &CrossLayer,
) -> bool {
    let n = spec.nodes.len();
    let on = !spec.wifi.per_station_grants
        && !medium.is_radio()
        && matches!(spec.channel.error, crate::spec::ErrorSpec::None)
        && spec.mesh.is_none()
        && !spec.traces.receptions
        && !spec.traces.frames
        && !spec.traces.rates
        && !spec.wifi.pass_corrupt
        && spec.wifi.backoff_rule == crate::spec::BackoffRule::Standard
        && !xlayer.reads_frames
        && xlayer.peer_snr.is_none()
        && (0..n).all(|i| xlayer.at(NodeId(i as u32)).is_empty() && xlayer.kinds(NodeId(i as u32)) == 0);
    if !on {
        return false;
    }
    let cliques = medium.enable_cliques(LAZY_MIN);
    wifi.enable_lazy(&cliques);
    !cliques.is_empty()
}

/// 802.11s: the mesh points' peer links and HWMP (none without mesh points).
pub(super) fn mesh(spec: &WorldSpec, seed: u64) -> Option<mesh::MeshWorld> {
    spec.mesh.as_ref().map(|m| {
        let is_mesh: Vec<bool> = spec.nodes.iter().map(|ns| ns.role == Role::Mesh).collect();
        let rngs =
            spec.nodes.iter().map(|ns| Stream::derive(seed, entity_id(&ns.name), Purpose::Mesh)).collect();
        mesh::MeshWorld::new(m, &is_mesh, &spec.blocked_radio_links, rngs)
    })
}

#[cfg(test)]
mod tests {
    use crate::world::World;

    /// Two EDCA stations on 802.11g in b/g mixed mode (aCWmin 15), `extra` in the wifi section.
    fn world(extra: serde_json::Value) -> World {
        let mut wifi = serde_json::json!({"standard": "80211g", "erp_mixed": true, "data_rate_mbps": 54.0,
            "basic_rate_mbps": 6.0, "access": "edca"});
        wifi.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let spec = serde_json::json!({
            "duration_ns": 1_000_000u64,
            "wifi": wifi,
            "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
            "nodes": [
                {"name": "a", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "adhoc"},
                {"name": "b", "position_m": [1.0, 0.0, 0.0], "wifi": true, "role": "adhoc"},
            ],
        });
        World::build(&serde_json::from_value(spec).expect("spec parses"), 1).expect("builds")
    }

    /// A BSS of `stations` saturated uploads (one isolated clique of stations + 1 nodes).
    fn bss(stations: usize) -> World {
        let mut nodes = vec![
            serde_json::json!({"name": "ap", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "ap"}),
        ];
        let mut flows = Vec::new();
        for i in 0..stations {
            let name = format!("s{i}");
            nodes.push(serde_json::json!({"name": name, "position_m": [1.0 + i as f64, 0.0, 0.0], "wifi": true, "role": "sta"}));
            flows.push(
                serde_json::json!({"kind": "udp_saturating", "src": i + 1, "dst": 0, "payload_bytes": 1500}),
            );
        }
        let spec = serde_json::json!({
            "duration_ns": 1_000_000u64,
            "wifi": {"standard": "80211a", "data_rate_mbps": 54.0, "basic_rate_mbps": 6.0},
            "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
            "nodes": nodes,
            "flows": flows,
        });
        World::build(&serde_json::from_value(spec).expect("spec parses"), 1).expect("builds")
    }

    #[test]
    fn cliques_of_lazy_min_nodes_and_more_have_lazy_members_and_smaller_ones_none() {
        assert_eq!(super::LAZY_MIN, 8);
        assert!(!bss(super::LAZY_MIN - 2).lazy_on); // a 7-node cell: every station on its own
        assert!(bss(super::LAZY_MIN - 1).lazy_on); // 8 nodes
        assert!(bss(40).lazy_on);
    }

    #[test]
    fn a_cw_min_sets_every_access_categorys_default_as_table_9_155_derives_it() {
        let cw = |w: &World| w.wifi.ac_params(crate::ids::NodeId(0)).map(|p| (p.cw_min, p.cw_max));
        // aCWmin 15 (Table 18-5): BK, BE 15-1023; VI 7-15; VO 3-7.
        assert_eq!(cw(&world(serde_json::json!({}))), [(15, 1023), (15, 1023), (7, 15), (3, 7)]);
        // Linux's mesh point on 2.4 GHz (ieee80211_set_wmm_default, aCWmin 31): VI 15-31, VO 7-15.
        let linux = world(serde_json::json!({"a_cw_min": 31}));
        assert_eq!(cw(&linux), [(31, 1023), (31, 1023), (15, 31), (7, 15)]);
        // cw_min overrides every category.
        assert_eq!(cw(&world(serde_json::json!({"a_cw_min": 31, "cw_min": 63})))[3].0, 63);
    }
}
