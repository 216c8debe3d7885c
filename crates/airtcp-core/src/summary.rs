//! The run summary: per-flow and per-node figures, serialised to JSON for Python.

use schemars::JsonSchema;
use serde::Serialize;

use crate::mac::MacCounters;
use crate::world::World;

/// The JSON Schema (2020-12) of the summary as it is serialised, derived from these types
/// (`airtcp._core.summary_schema()`): every key, its type and its doc comment as its
/// description; a key left out when empty (`skip_serializing_if`) is not required, and null
/// only where the key is always there (`Option` without it).
pub fn schema() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    serde_json::to_value(generator.into_root_schema_for::<Summary>()).expect("a schema serialises")
}

/// One run's figures: the measured period, every flow, node and wired link, and the totals.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Summary {
    /// The simulated time at the end of the run [s].
    pub sim_seconds: f64,
    /// The measured period: from the end of the warm-up to the end of the run [s].
    pub measured_seconds: f64,
    /// Events the scheduler ran.
    pub events: u64,
    /// The flows, in spec order (`id` is the index).
    pub flows: Vec<FlowSummary>,
    /// The nodes, in spec order (the traces' node numbers).
    pub nodes: Vec<NodeSummary>,
    /// Wired links, in spec order.
    pub links: Vec<LinkSummary>,
    pub totals: Totals,
}

/// One wired link's counters after the warm-up, per direction (`a -> b`, then `b -> a`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct LinkSummary {
    pub a: String,
    pub b: String,
    /// Packets dropped at the sending end's full queue.
    pub drops_queue: [u64; 2],
    /// Packets lost on the wire (netem-like random loss).
    pub lost: [u64; 2],
}

/// One flow's figures in the measured period.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlowSummary {
    /// The flow's index in the spec.
    pub id: u32,
    /// The flow's kind, as the world spec names it.
    #[schemars(with = "crate::spec::FlowKind")]
    pub kind: &'static str,
    /// The source's and the destination's node names.
    pub src: String,
    pub dst: String,
    /// Packets the source sent after the warm-up (TCP: segments, retransmissions, SYN, FIN and
    /// ACKs included), and the packets and payload bytes delivered at the destination.
    pub sent_packets: u64,
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    /// Payload bytes first delivered after the warm-up x 8 over the whole measured time
    /// (`measured_seconds`), however early a file transfer ended [bit/s].
    pub goodput_bps: f64,
    /// The same bytes x 8 over the flow's own active time in the measured period: from its
    /// start (or the warm-up's end, if later) to its stop, its transfer's completion or the
    /// run's end, whichever comes first [bit/s]; 0 if it was active for no time after the
    /// warm-up. A flow that starts late or a file that finishes early is rated over the time it
    /// ran, not over the whole run.
    pub active_goodput_bps: f64,
    /// Mean one-way delay of delivered packets [s]: UDP and CLAP flows; 0 for TCP flows
    /// (not measured).
    pub mean_delay_s: f64,
    /// UDP: packets of the flow dropped anywhere in the measured period (a full queue or
    /// qdisc, the MAC's retry limit, no route or path, a wired link's loss); TCP and CLAP
    /// repair theirs (0 here; see their retransmissions).
    pub lost_packets: u64,
    pub loss_ratio: f64,
    /// File transfers (tcp_file, clap_file): file bytes x 8 over the transfer's own time, from
    /// the flow's start to its completion (`completion_s`) [bit/s]. Null for a transfer that did
    /// not finish and for the other kinds (present in every flow, so that tables built from
    /// the first flow's keys keep the column).
    pub transfer_throughput_bps: Option<f64>,
    /// TCP flows only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "TcpSummary")]
    pub tcp: Option<TcpSummary>,
    /// CLAP flows only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "ClapSummary")]
    pub clap: Option<ClapSummary>,
    /// Goodput per reporting interval [bit/s] (flows with a report interval only); the last
    /// interval is rated over its own, possibly shorter, length.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<f64>")]
    pub interval_goodput_bps: Option<Vec<f64>>,
}

/// The flow's own active time in the measured period [s]: from its start (or the warm-up's
/// end) to its stop, its transfer's completion or the run's end, whichever is first.
fn active_seconds(world: &World, i: usize) -> f64 {
    let f = &world.flows[i];
    let from = f.start.max(world.period.warmup_end);
    let done = world.tcps[i]
        .as_ref()
        .and_then(|t| t.completed)
        .or_else(|| world.claps[i].as_ref()?.rcv.completed_at);
    let to = [f.stop, done].into_iter().flatten().fold(world.period.end, crate::time::SimTime::min);
    if to > from {
        to.since(from).as_secs_f64()
    } else {
        0.0
    }
}

/// File bytes x 8 / (completion - start) of a finished file transfer; `None` otherwise.
fn transfer_throughput(world: &World, i: usize) -> Option<f64> {
    let (bytes, done) = if let Some(t) = &world.tcps[i] {
        (t.snd.app_bytes?, t.completed)
    } else if let Some(c) = &world.claps[i] {
        // Complete: every segment arrived once, so the fresh bytes are the file.
        (c.rcv.stats.fresh_bytes, c.rcv.completed_at)
    } else {
        return None;
    };
    let start = world.flows[i].start;
    done.map(|d| ratio(bytes as f64 * 8.0, d.since(start).as_secs_f64()))
}

fn interval_goodput(f: &crate::net::Flow, measured_ns: u64) -> Option<Vec<f64>> {
    let every = f.report_every?.ns();
    let n = measured_ns.div_ceil(every) as usize;
    Some(
        (0..n)
            .map(|k| {
                let len = every.min(measured_ns - k as u64 * every) as f64 * 1e-9;
                f.report_bytes.get(k).copied().unwrap_or(0) as f64 * 8.0 / len
            })
            .collect(),
    )
}

/// A TCP flow's sender, from the end of the warm-up on.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TcpSummary {
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// SACK recovery: retransmissions found lost and sent again (Linux
    /// `tcp_mark_lost_retrans`); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub lost_retransmits: u64,
    /// `tcp.local_congestion = "cwr"`: segments the sender's own interface refused (kept
    /// unsent and sent again later, no loss); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub local_drops: u64,
    /// Entries into CWR (Linux `tcp_enter_cwr`) after a local drop or an ECE (`ecn.reductions`
    /// of them); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub cwr_events: u64,
    /// `tcp.tlp`: tail loss probes sent (new data or the last segment again); absent when
    /// none.
    #[serde(skip_serializing_if = "is_zero")]
    pub tlp_probes: u64,
    /// `tcp.frto`: RTOs found spurious and undone (RFC 5682, Linux `tcp_try_undo_loss`):
    /// cwnd and ssthresh back, no go-back-N; absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub spurious_rtos: u64,
    /// RTT samples after the warm-up, their exact mean [s] and nearest-rank percentiles [s]
    /// from a fixed log-linear histogram: each within 0.79 % (1/128) of the exact percentile
    /// for RTTs up to 1099 s (tcp/rtt_hist.rs), so memory stays flat however long the run.
    pub rtt_samples: u64,
    pub rtt_mean_s: f64,
    pub rtt_p50_s: f64,
    pub rtt_p95_s: f64,
    pub rtt_p99_s: f64,
    /// Time-weighted mean congestion window over the measured time [segments].
    pub mean_cwnd_segments: f64,
    /// tcp_file: when the receiver had every byte [s since the start]; null otherwise or if
    /// the transfer did not finish.
    pub completion_s: Option<f64>,
    /// Paper 004's CDO/CNO counters; absent when the options are off.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CorruptionSummary")]
    pub corruption: Option<CorruptionSummary>,
    /// ECN's counters (`tcp.ecn`); absent when it is off.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "EcnSummary")]
    pub ecn: Option<EcnSummary>,
    /// BBR's model at the end of the run (`tcp.cc = "bbr"`); absent for other algorithms.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "BbrSummary")]
    pub bbr: Option<BbrSummary>,
    /// The flow's TCP profile and the fields written against it; absent under "rfc".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "TcpEffective")]
    pub effective: Option<TcpEffective>,
}

/// BBR's path model at the end of the run and its ProbeRTT visits (Linux `bbr_get_info`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BbrSummary {
    /// The mode at the end: "startup", "drain", "probe_bw" or "probe_rtt".
    pub mode: &'static str,
    /// Bottleneck bandwidth estimate [bit/s of payload] (`bbr_bw`).
    pub bw_bps: u64,
    /// Min RTT estimate [s] (`min_rtt_us`); null before any sample.
    pub min_rtt_s: Option<f64>,
    /// The pacing rate [bit/s of payload] at the end (`sk_pacing_rate`).
    pub pacing_rate_bps: u64,
    /// Entries into ProbeRTT after the warm-up.
    pub probe_rtt_entries: u64,
}

pub use crate::spec::profiles::TcpEffective;

fn tcp_summary(t: &crate::world::tcp::TcpFlow, measured_ns: f64) -> TcpSummary {
    let rtt = &t.rtt;
    // Counters of the measured period.
    let base = t.stats_at_warmup;
    let st = crate::tcp::conn::SenderStats {
        rtt_samples: t.snd.stats.rtt_samples - base.rtt_samples,
        segments_sent: t.snd.stats.segments_sent - base.segments_sent,
        retransmissions: t.snd.stats.retransmissions - base.retransmissions,
        timeouts: t.snd.stats.timeouts - base.timeouts,
        fast_retransmits: t.snd.stats.fast_retransmits - base.fast_retransmits,
        lost_retransmits: t.snd.stats.lost_retransmits - base.lost_retransmits,
        cno_received: t.snd.stats.cno_received - base.cno_received,
        cno_retransmits: t.snd.stats.cno_retransmits - base.cno_retransmits,
        local_drops: t.snd.stats.local_drops - base.local_drops,
        cwr_events: t.snd.stats.cwr_events - base.cwr_events,
        tlp_probes: t.snd.stats.tlp_probes - base.tlp_probes,
        spurious_rtos: t.snd.stats.spurious_rtos - base.spurious_rtos,
        ece_received: t.snd.stats.ece_received - base.ece_received,
        ecn_reductions: t.snd.stats.ecn_reductions - base.ecn_reductions,
        cwr_sent: t.snd.stats.cwr_sent - base.cwr_sent,
    };
    let rb = t.rcv_at_warmup;
    let corruption = (t.snd.p.corruption != crate::tcp::conn::Corruption::Off).then(|| CorruptionSummary {
        cno_sent: t.rcv.stats.cno_sent - rb.cno_sent,
        corrupt_ignored: t.rcv.stats.corrupt_ignored - rb.corrupt_ignored,
        cno_received: st.cno_received,
        cno_retransmits: st.cno_retransmits,
    });
    let ecn = t.snd.p.ecn.then(|| EcnSummary {
        negotiated: t.snd.ecn_ok,
        ce_received: t.rcv.stats.ce_received - rb.ce_received,
        ece_received: st.ece_received,
        reductions: st.ecn_reductions,
        cwr_sent: st.cwr_sent,
    });
    let bbr = t.snd.bbr().map(|b| BbrSummary {
        mode: b.mode.name(),
        bw_bps: b.bw_bps(t.snd.p.mss),
        min_rtt_s: (b.min_rtt_us() != u32::MAX).then(|| f64::from(b.min_rtt_us()) * 1e-6),
        pacing_rate_bps: t.snd.s.pacing_rate.saturating_mul(8),
        probe_rtt_entries: b.probe_rtt_entries - t.bbr_probe_rtt_at_warmup,
    });
    TcpSummary {
        segments_sent: st.segments_sent,
        retransmissions: st.retransmissions,
        timeouts: st.timeouts,
        fast_retransmits: st.fast_retransmits,
        lost_retransmits: st.lost_retransmits,
        local_drops: st.local_drops,
        cwr_events: st.cwr_events,
        tlp_probes: st.tlp_probes,
        spurious_rtos: st.spurious_rtos,
        rtt_samples: rtt.count(),
        rtt_mean_s: rtt.mean_s(),
        rtt_p50_s: rtt.quantile_s(0.50),
        rtt_p95_s: rtt.quantile_s(0.95),
        rtt_p99_s: rtt.quantile_s(0.99),
        mean_cwnd_segments: ratio(t.cwnd_area, measured_ns),
        completion_s: t.completed.map(|c| c.as_secs_f64()),
        corruption,
        ecn,
        bbr,
        effective: t.effective.clone(),
    }
}

/// A TCP flow's ECN (RFC 3168) from the end of the warm-up on (`tcp.ecn`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct EcnSummary {
    /// The handshake agreed on ECN (the receiver's SYN-ACK carried ECE).
    pub negotiated: bool,
    /// Data segments that reached the receiver CE-marked.
    pub ce_received: u64,
    /// ACKs that reached the sender with ECE.
    pub ece_received: u64,
    /// Window reductions the ECEs caused (at most one per window: `tcp_enter_cwr`).
    pub reductions: u64,
    /// Data segments sent with CWR.
    pub cwr_sent: u64,
}

/// Paper 004's corruption options at work on one connection (present when they are on).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CorruptionSummary {
    /// ACKs with a CNO the receiver sent: one per corrupt copy whose CDO checked and per
    /// LN-MAC notification, of a segment it did not hold.
    pub cno_sent: u64,
    /// Corrupt copies and notifications of segments the receiver already held (no CNO).
    pub corrupt_ignored: u64,
    /// CNOs that reached the sender, and the retransmissions they made.
    pub cno_received: u64,
    pub cno_retransmits: u64,
}

/// One CLAP transfer (docs/clap.md); counters from the end of the warm-up on.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ClapSummary {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    pub retransmissions: u64,
    /// Feedback packets the receiver sent, and those the sender received (the rest were lost
    /// or still in flight at the end).
    pub feedbacks_sent: u64,
    pub feedbacks_received: u64,
    /// Probe timeouts of the sender (no feedback for srtt + 3 feedback intervals).
    pub probes: u64,
    /// Link reports from the sender's MAC (one per exchange it finished).
    pub link_reports: u64,
    /// Time-weighted mean of the pacing rate while the sender ran [IP bit/s], and the rate at
    /// the end.
    pub mean_rate_bps: f64,
    pub final_rate_bps: u64,
    /// RTT samples (one per feedback) and their mean [s].
    pub rtt_samples: u64,
    pub rtt_mean_s: f64,
    /// When the receiver had every segment [s since the start]; null if it did not finish.
    pub completion_s: Option<f64>,
    /// When the sender learned it (the final feedback arrived) [s since the start].
    pub sender_completion_s: Option<f64>,
}

fn clap_summary(c: &crate::world::clap::ClapFlow) -> ClapSummary {
    let k = &c.counters;
    ClapSummary {
        segments_sent: k.segments_sent,
        retransmissions: k.retransmissions,
        feedbacks_sent: k.feedbacks_sent,
        feedbacks_received: k.feedbacks_received,
        probes: k.probes,
        link_reports: k.link_reports,
        mean_rate_bps: ratio(c.rate_area, c.rate_time_ns as f64),
        final_rate_bps: c.snd.rate_bps(),
        rtt_samples: k.rtt_samples,
        rtt_mean_s: ratio(k.rtt_sum_ns as f64 * 1e-9, k.rtt_samples as f64),
        completion_s: c.rcv.completed_at.map(|t| t.as_secs_f64()),
        sender_completion_s: c.snd.completed_at.map(|t| t.as_secs_f64()),
    }
}

/// One node: its name, its address and its MAC's figures.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NodeSummary {
    pub name: String,
    /// IPv4-like address, e.g. "10.0.0.1".
    pub address: String,
    pub mac: MacSummary,
    /// A mesh point's 802.11s state at the end and its counters (absent for other nodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "MeshSummary")]
    pub mesh: Option<MeshSummary>,
}

/// One mesh point at the end of the run (`iw dev mesh0 station dump` and `mpath dump`) and
/// what it did: its control plane over the whole run, its data drops in the measured period.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MeshSummary {
    /// Neighbours whose peer link is ESTAB, with the Airtime Link Metric toward each.
    pub peers: Vec<MeshPeerSummary>,
    /// Active paths: destination, next hop, metric and sequence number.
    pub paths: Vec<MeshPathSummary>,
    /// The control plane from the start of the run (peering and the first discoveries happen
    /// in the warm-up): HWMP and peering frames sent, links broken.
    pub preqs_sent: u64,
    pub preps_sent: u64,
    pub perrs_sent: u64,
    pub peering_frames_sent: u64,
    /// Data frames dropped in the measured period: no path, or from a neighbour not a peer.
    pub drops_no_path: u64,
    pub drops_not_peer: u64,
    pub links_broken: u64,
    /// Discoveries this node started for its own data and completed, from the start of the
    /// run: destination, start [s] and set-up time [ms].
    pub path_setups: Vec<MeshPathSetup>,
    /// Paper 000's remedy (`mesh.alm_retry`): the retry limits it set, from the start of the
    /// run (absent without it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retry_limits: Vec<MeshRetryLimit>,
}

/// A retry limit paper 000's remedy set, and when [s].
#[derive(Debug, Serialize, JsonSchema)]
pub struct MeshRetryLimit {
    pub time_s: f64,
    pub limit: u8,
}

/// A peer whose link is ESTAB at the end, and the Airtime Link Metric toward it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MeshPeerSummary {
    pub peer: String,
    pub metric: u32,
    /// When the link first became ESTAB [s].
    pub established_s: f64,
}

/// An active path at the end: destination, next hop, metric and sequence number.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MeshPathSummary {
    pub dst: String,
    pub next_hop: String,
    pub metric: u32,
    pub sn: u32,
}

/// A path discovery the node completed: destination, start [s] and set-up time [ms].
#[derive(Debug, Serialize, JsonSchema)]
pub struct MeshPathSetup {
    pub dst: String,
    pub start_s: f64,
    pub setup_ms: f64,
}

fn mesh_summary(world: &World, node: crate::ids::NodeId) -> Option<MeshSummary> {
    let m = world.mesh.as_ref().filter(|m| m.is_point(node))?;
    let name = |n: crate::ids::NodeId| world.nodes[n.idx()].name.clone();
    let c = &m.counters[node.idx()];
    let end = world.period.end;
    Some(MeshSummary {
        peers: world
            .mesh_peers(node)
            .into_iter()
            .map(|(p, metric)| MeshPeerSummary {
                peer: name(p),
                metric,
                established_s: m.established_at[node.idx()][p.idx()].map_or(0.0, |t| t.as_secs_f64()),
            })
            .collect(),
        paths: world
            .mesh_paths(node, end)
            .into_iter()
            .map(|(d, nh, metric, sn)| MeshPathSummary { dst: name(d), next_hop: name(nh), metric, sn })
            .collect(),
        preqs_sent: c.preqs_sent,
        preps_sent: c.preps_sent,
        perrs_sent: c.perrs_sent,
        peering_frames_sent: c.peering_frames_sent,
        drops_no_path: c.drops_no_path,
        drops_not_peer: c.drops_not_peer,
        links_broken: c.links_broken,
        path_setups: c
            .path_setups
            .iter()
            .map(|&(d, start, ns)| MeshPathSetup {
                dst: name(d),
                start_s: start.as_secs_f64(),
                setup_ms: ns as f64 / 1e6,
            })
            .collect(),
        retry_limits: c
            .retry_limits
            .iter()
            .map(|&(t, limit)| MeshRetryLimit { time_s: t.as_secs_f64(), limit })
            .collect(),
    })
}

/// A node's MAC counters after the warm-up and its share of the air.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MacSummary {
    /// Data PPDUs: sent, carrying a retransmission, answered, unanswered (`mac::MacCounters`;
    /// each counter is defined once in docs/scenarios.md, "MAC counters").
    pub attempts: u64,
    pub retries: u64,
    pub successes: u64,
    pub failures: u64,
    pub collisions: u64,
    pub drops_retry_limit: u64,
    pub drops_queue: u64,
    pub drops_no_route: u64,
    pub rts_attempts: u64,
    pub rts_failures: u64,
    /// MPDUs: transmissions, retransmissions among them, acknowledged.
    pub mpdus_sent: u64,
    pub mpdu_retries: u64,
    pub mpdus_acked: u64,
    /// BlockAckReqs sent and unanswered (802.11n; absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub bar_attempts: u64,
    /// BlockAckReqs not answered (absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub bar_failures: u64,
    pub rx_ok: u64,
    pub rx_corrupt: u64,
    pub rx_payload_corrupt: u64,
    pub rx_duplicates: u64,
    /// Paper 004: PPDUs received corrupt with every header intact (absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub rx_payload_only: u64,
    /// Paper 004: corrupt data frames handed up (pass_corrupt; absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub rx_corrupt_up: u64,
    /// Paper 004: LN-MAC notifications injected (absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub lnmac_notifications: u64,
    /// Packets refused by a full qdisc or intermediate queue (absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub drops_qdisc: u64,
    /// Packets dropped by CoDel (absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub drops_codel: u64,
    /// Packets CoDel CE-marked instead of dropping (`wifi.qdisc.ecn`, `wifi.txq.ecn`, with
    /// `tcp.ecn`; absent when zero).
    #[serde(skip_serializing_if = "is_zero")]
    pub ecn_marks_codel: u64,
    /// The mean data rate its data frames found toward their receiver as they were queued [Mbit/s]
    /// (paper 002's "average data rate"; absent if it sent none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "f64")]
    pub mean_data_rate_mbps: Option<f64>,
    /// Shares of the measured time the node's medium was busy (sensed or transmitting) and
    /// the node was transmitting.
    pub busy_air_fraction: f64,
    pub tx_air_fraction: f64,
}

/// Figures over the whole run: every node's MAC, every flow's goodput.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Totals {
    /// Every node's MAC attempts and collisions added up.
    pub attempts: u64,
    pub collisions: u64,
    /// Collisions per channel access (data frames sent after a backoff, or RTS frames).
    pub collision_probability: f64,
    /// Every flow's goodput added up [bit/s].
    pub goodput_bps: f64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

impl Summary {
    pub fn of(world: &World) -> Summary {
        let measured = world.period.end.since(world.period.warmup_end).as_secs_f64();
        let name = |n: crate::ids::NodeId| world.nodes[n.idx()].name.clone();
        let flows: Vec<FlowSummary> = world
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| FlowSummary {
                id: i as u32,
                kind: f.kind.name(),
                src: name(f.src),
                dst: name(f.dst),
                // TCP: segments sent after the warm-up (data, retransmissions, SYN, FIN, ACK).
                sent_packets: world.tcps[i]
                    .as_ref()
                    .map_or(f.sent, |t| t.snd.stats.segments_sent - t.stats_at_warmup.segments_sent),
                delivered_packets: f.delivered,
                delivered_bytes: f.delivered_bytes,
                goodput_bps: ratio(f.delivered_bytes as f64 * 8.0, measured),
                active_goodput_bps: ratio(f.delivered_bytes as f64 * 8.0, active_seconds(world, i)),
                mean_delay_s: ratio(f.delay_sum_ns as f64 * 1e-9, f.delivered as f64),
                lost_packets: f.lost,
                loss_ratio: ratio(f.lost as f64, f.sent as f64),
                transfer_throughput_bps: transfer_throughput(world, i),
                tcp: world.tcps[i].as_ref().map(|t| tcp_summary(t, measured * 1e9)),
                clap: world.claps[i].as_ref().map(clap_summary),
                interval_goodput_bps: interval_goodput(
                    f,
                    world.period.end.since(world.period.warmup_end).ns(),
                ),
            })
            .collect();
        let measured_ns = measured * 1e9;
        let nodes: Vec<NodeSummary> = world
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let c: MacCounters = *world.wifi.counters(crate::ids::NodeId(i as u32));
                let (busy_ns, tx_ns) =
                    world.medium.measured_ns(crate::ids::NodeId(i as u32), world.period.end);
                let a = crate::net::ipv4_address(crate::ids::NodeId(i as u32));
                NodeSummary {
                    name: n.name.clone(),
                    address: format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3]),
                    mac: MacSummary {
                        attempts: c.attempts,
                        retries: c.retries,
                        successes: c.successes,
                        failures: c.failures,
                        collisions: c.collisions,
                        drops_retry_limit: c.drops_retry_limit,
                        drops_queue: c.drops_queue,
                        drops_no_route: n.drops_no_route,
                        rts_attempts: c.rts_attempts,
                        rts_failures: c.rts_failures,
                        mpdus_sent: c.mpdus_sent,
                        mpdu_retries: c.mpdu_retries,
                        mpdus_acked: c.mpdus_acked,
                        bar_attempts: c.bar_attempts,
                        bar_failures: c.bar_failures,
                        rx_ok: c.rx_ok,
                        rx_corrupt: c.rx_corrupt,
                        rx_payload_corrupt: c.rx_payload_corrupt,
                        rx_duplicates: c.rx_duplicates,
                        rx_payload_only: c.rx_payload_only,
                        rx_corrupt_up: c.rx_corrupt_up,
                        lnmac_notifications: c.lnmac_notifications,
                        drops_qdisc: c.drops_qdisc,
                        drops_codel: c.drops_codel,
                        ecn_marks_codel: c.ecn_marks_codel,
                        mean_data_rate_mbps: (c.data_requests > 0)
                            .then(|| c.data_rate_kbps_sum as f64 / c.data_requests as f64 / 1e3),
                        busy_air_fraction: ratio(busy_ns as f64, measured_ns),
                        tx_air_fraction: ratio(tx_ns as f64, measured_ns),
                    },
                    mesh: mesh_summary(world, crate::ids::NodeId(i as u32)),
                }
            })
            .collect();
        let sum = |f: fn(&MacCounters) -> u64| {
            (0..world.wifi.len()).map(|i| f(world.wifi.counters(crate::ids::NodeId(i as u32)))).sum::<u64>()
        };
        let attempts = sum(|c| c.attempts);
        let collisions = sum(|c| c.collisions);
        let accesses = sum(|c| c.accesses);
        Summary {
            sim_seconds: world.period.end.as_secs_f64(),
            measured_seconds: measured,
            events: world.sched.popped(),
            totals: Totals {
                attempts,
                collisions,
                collision_probability: ratio(collisions as f64, accesses as f64),
                goodput_bps: flows.iter().map(|f| f.goodput_bps).sum(),
            },
            flows,
            nodes,
            links: world
                .links
                .iter()
                .map(|l| LinkSummary {
                    a: name(l.ends[0]),
                    b: name(l.ends[1]),
                    drops_queue: [l.dirs[0].drops_queue, l.dirs[1].drops_queue],
                    lost: [l.dirs[0].lost, l.dirs[1].lost],
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::rtt_hist::BUCKETS;
    use serde_json::json;

    /// An 802.11b BSS: sta1 sends a 1 MB file over TCP to the AP from 1 s on (paper 001's
    /// file and rates; MAC retries on) beside a tiny UDP CBR flow, in a 30 s run.
    fn file_world() -> World {
        let spec = json!({
            "duration_ns": 30_000_000_000u64,
            "warmup_ns": 0,
            "wifi": {"standard": "80211b", "data_rate_mbps": 11.0, "basic_rate_mbps": 1.0},
            "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
            "nodes": [
                {"name": "ap", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "ap"},
                {"name": "sta1", "position_m": [5.0, 0.0, 0.0], "wifi": true, "role": "sta"},
            ],
            "flows": [
                {"kind": "tcp_file", "src": 1, "dst": 0, "payload_bytes": 1000,
                 "start_ns": 1_000_000_000u64, "file_bytes": 1_000_000u64,
                 "tcp": {"mss_bytes": 1000}},
                {"kind": "udp_cbr", "src": 0, "dst": 1, "payload_bytes": 100, "rate_bps": 8000.0},
            ],
        });
        let spec: crate::WorldSpec = serde_json::from_value(spec).expect("spec parses");
        let mut world = World::build(&spec, 1).expect("builds");
        world.run();
        world
    }

    #[test]
    fn a_file_transfer_reports_its_own_throughput_beside_the_run_wide_goodput() {
        let world = file_world();
        let s = Summary::of(&world);
        let f = &s.flows[0];
        let done = f.tcp.as_ref().unwrap().completion_s.expect("the transfer finishes");
        assert!(done > 2.0 && done < 10.0, "{done}");
        // Throughput: the file over its own time (start 1 s -> completion); goodput: over 30 s.
        let own = f.transfer_throughput_bps.expect("a finished file transfer");
        assert!((own / (8e6 / (done - 1.0)) - 1.0).abs() < 1e-12, "{own}");
        assert!((f.goodput_bps / (8e6 / 30.0) - 1.0).abs() < 1e-12, "{}", f.goodput_bps);
        // Other kinds have it null (the key is in every flow).
        assert_eq!(s.flows[1].transfer_throughput_bps, None);
        let v = serde_json::to_value(&s).unwrap();
        assert!(v["flows"][0]["transfer_throughput_bps"].is_f64());
        assert!(v["flows"][1]["transfer_throughput_bps"].is_null());
    }

    /// The keys of `value` are those `schema` allows, all it requires among them, recursively.
    fn keys_fit(value: &serde_json::Value, schema: &serde_json::Value, defs: &serde_json::Value, path: &str) {
        let schema = match schema["$ref"].as_str() {
            Some(r) => &defs[r.trim_start_matches("#/$defs/")],
            None => schema,
        };
        match value {
            serde_json::Value::Object(map) => {
                let props =
                    schema["properties"].as_object().unwrap_or_else(|| panic!("{path}: no properties"));
                for key in schema["required"].as_array().unwrap() {
                    assert!(map.contains_key(key.as_str().unwrap()), "{path}: {key} missing");
                }
                for (key, v) in map {
                    let sub = props.get(key).unwrap_or_else(|| panic!("{path}.{key}: not in the schema"));
                    keys_fit(v, sub, defs, &format!("{path}.{key}"));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    keys_fit(v, &schema["items"], defs, &format!("{path}.{i}"));
                }
            }
            _ => {}
        }
    }

    #[test]
    fn the_schema_has_every_key_and_requires_those_always_written() {
        let schema = schema();
        let defs = &schema["$defs"];
        let required = |def: &str| -> Vec<String> {
            let d = if def.is_empty() { &schema } else { &defs[def] };
            d["required"].as_array().unwrap().iter().map(|k| k.as_str().unwrap().to_owned()).collect()
        };
        // Left out when empty (skip_serializing_if): not required, and not null when there.
        for (def, key) in [
            ("FlowSummary", "tcp"),
            ("FlowSummary", "clap"),
            ("FlowSummary", "interval_goodput_bps"),
            ("TcpSummary", "lost_retransmits"),
            ("TcpSummary", "local_drops"),
            ("TcpSummary", "cwr_events"),
            ("TcpSummary", "tlp_probes"),
            ("TcpSummary", "spurious_rtos"),
            ("TcpSummary", "corruption"),
            ("TcpSummary", "ecn"),
            ("TcpSummary", "bbr"),
            ("TcpSummary", "effective"),
            ("TcpEffective", "overrides"),
            ("NodeSummary", "mesh"),
            ("MeshSummary", "retry_limits"),
            ("MacSummary", "bar_attempts"),
            ("MacSummary", "drops_codel"),
            ("MacSummary", "ecn_marks_codel"),
            ("MacSummary", "mean_data_rate_mbps"),
        ] {
            assert!(!required(def).iter().any(|k| k == key), "{def}.{key}");
            let text = defs[def]["properties"][key].to_string();
            assert!(!text.contains("null"), "{def}.{key}: {text}");
        }
        // Always written, null when unknown.
        assert!(required("FlowSummary").iter().any(|k| k == "transfer_throughput_bps"));
        assert_eq!(
            defs["FlowSummary"]["properties"]["transfer_throughput_bps"]["type"],
            json!(["number", "null"])
        );
        assert_eq!(required("").len(), 7);
        let world = file_world();
        let value = serde_json::to_value(Summary::of(&world)).unwrap();
        keys_fit(&value, &schema, defs, "summary");
    }

    #[test]
    fn rtt_statistics_keep_a_fixed_size_however_many_samples() {
        let world = file_world();
        let t = world.tcps[0].as_ref().unwrap();
        // Timestamps: a sample per new ACK (199 in this run: slow start overflows sta1's queue
        // and NewReno repairs the losses one per RTT, under duplicate ACKs that give none).
        assert!(t.rtt.count() > 100, "{}", t.rtt.count());
        assert_eq!(t.rtt.heap_bytes(), BUCKETS * 8);
        let s = Summary::of(&world);
        let tcp = s.flows[0].tcp.as_ref().unwrap();
        assert_eq!(tcp.rtt_samples, t.rtt.count());
        assert!(tcp.rtt_p50_s <= tcp.rtt_p95_s && tcp.rtt_p95_s <= tcp.rtt_p99_s);
    }
}
