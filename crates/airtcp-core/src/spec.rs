//! The world spec: the explicit, validated description of one run (docs/world-spec.md).
//!
//! Python expands a user scenario into this form; the core checks it again and never panics
//! on it: every problem becomes a [`SpecError`] naming the field path, the value and what is
//! allowed.

use serde::Deserialize;

use crate::mac::frame::MAX_MSDU_BYTES;
use crate::phy::Standard;

/// A problem in a spec: `"<path>: <message>"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

fn err<T>(path: &str, msg: impl std::fmt::Display) -> Result<T, SpecError> {
    Err(SpecError(format!("{path}: {msg}")))
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    pub duration_ns: u64,
    #[serde(default)]
    pub warmup_ns: u64,
    pub wifi: WifiSpec,
    pub channel: ChannelSpec,
    pub nodes: Vec<NodeSpec>,
    #[serde(default)]
    pub wired_links: Vec<WiredLinkSpec>,
    #[serde(default)]
    pub routes: Vec<RouteSpec>,
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    #[serde(default)]
    pub traces: TraceSpec,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    Dcf,
    Edca,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PreambleSpec {
    Long,
    Short,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WifiSpec {
    pub standard: String,
    #[serde(default)]
    pub erp_mixed: bool,
    #[serde(default = "default_preamble")]
    pub preamble: PreambleSpec,
    pub data_rate_mbps: f64,
    pub basic_rate_mbps: f64,
    #[serde(default = "default_access")]
    pub access: Access,
    #[serde(default)]
    pub cw_min: Option<u32>,
    #[serde(default)]
    pub cw_max: Option<u32>,
    #[serde(default)]
    pub aifsn: Option<u32>,
    #[serde(default = "default_short_retry")]
    pub short_retry_limit: u32,
    #[serde(default = "default_long_retry")]
    pub long_retry_limit: u32,
    #[serde(default = "default_rts_threshold")]
    pub rts_threshold_bytes: u32,
    #[serde(default = "default_queue")]
    pub queue_limit_packets: u32,
}

fn default_preamble() -> PreambleSpec {
    PreambleSpec::Long
}
fn default_access() -> Access {
    Access::Dcf
}
// dot11ShortRetryLimit 7 and dot11LongRetryLimit 4 attempts (Annex C) = 6 and 3 retransmissions.
fn default_short_retry() -> u32 {
    6
}
fn default_long_retry() -> u32 {
    3
}
fn default_rts_threshold() -> u32 {
    65535
}
fn default_queue() -> u32 {
    100
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelSpec {
    pub rx_range_m: f64,
    pub cs_range_m: f64,
    #[serde(default)]
    pub matrix: Option<MatrixSpec>,
    #[serde(default)]
    pub error: ErrorSpec,
    /// Receivers must detect a preamble before locking on (ns-3's default
    /// ThresholdPreambleDetectionModel): frames of equal power that start within the
    /// detection time of each other are detected by nobody, so the overlap is energy only.
    #[serde(default)]
    pub preamble_detection: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixSpec {
    pub rx: Vec<Vec<u8>>,
    pub cs: Vec<Vec<u8>>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ErrorSpec {
    #[default]
    None,
    /// Every frame is lost with probability `fer`, independently per receiver.
    Fer { fer: f64 },
    /// Independent bit errors; the MAC header and the rest of the frame fail separately.
    Ber { ber: f64 },
}

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

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FlowKind {
    UdpSaturating,
    UdpCbr,
    /// iperf-like: a TCP connection that always has data to send until `stop_ns`.
    TcpBulk,
    /// A TCP transfer of `file_bytes` bytes; its completion time is reported.
    TcpFile,
    /// A CLAP transfer of `file_bytes` bytes (docs/clap.md); the sender must be a WiFi node.
    ClapFile,
}

impl FlowKind {
    pub fn name(self) -> &'static str {
        match self {
            FlowKind::UdpSaturating => "udp_saturating",
            FlowKind::UdpCbr => "udp_cbr",
            FlowKind::TcpBulk => "tcp_bulk",
            FlowKind::TcpFile => "tcp_file",
            FlowKind::ClapFile => "clap_file",
        }
    }

    pub fn is_tcp(self) -> bool {
        matches!(self, FlowKind::TcpBulk | FlowKind::TcpFile)
    }
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AcSpec {
    Bk,
    Be,
    Vi,
    Vo,
}

impl AcSpec {
    /// Index in priority order (0 lowest): BK, BE, VI, VO (Table 10-1 mapping to ACs).
    pub fn index(self) -> u8 {
        match self {
            AcSpec::Bk => 0,
            AcSpec::Be => 1,
            AcSpec::Vi => 2,
            AcSpec::Vo => 3,
        }
    }
}

fn default_ac() -> AcSpec {
    AcSpec::Be
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    pub kind: FlowKind,
    pub src: u32,
    pub dst: u32,
    pub payload_bytes: u32,
    #[serde(default)]
    pub rate_bps: Option<f64>,
    #[serde(default)]
    pub start_ns: u64,
    #[serde(default)]
    pub stop_ns: Option<u64>,
    #[serde(default = "default_ac")]
    pub ac: AcSpec,
    /// Bytes to transfer (tcp_file only).
    #[serde(default)]
    pub file_bytes: Option<u64>,
    /// Report goodput per interval of this length after the warm-up (iperf's -i).
    #[serde(default)]
    pub report_interval_ns: Option<u64>,
    /// TCP parameters (tcp_bulk and tcp_file; defaults when absent).
    #[serde(default)]
    pub tcp: Option<TcpSpec>,
    /// CLAP parameters (clap_file; defaults when absent).
    #[serde(default)]
    pub clap: Option<ClapSpec>,
}

/// CLAP parameters of one flow (docs/clap.md gives the reason for each default).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClapSpec {
    /// Payload per data segment [bytes] (paper 001: 1000).
    pub mss_bytes: u32,
    /// The receiver sends one aggregate feedback per interval [ms].
    pub feedback_interval_ms: f64,
    /// NACK ranges per feedback, 1..=16.
    pub max_nack_ranges: u8,
    /// MAC queue the rate law aims at [frames].
    pub queue_target_frames: u32,
    /// New segments only below the cumulative point + this many [segments].
    pub send_buffer_segments: u32,
}

impl Default for ClapSpec {
    fn default() -> Self {
        let p = crate::clap::ClapParams::default();
        ClapSpec {
            mss_bytes: p.mss_bytes,
            feedback_interval_ms: p.feedback_interval.ns() as f64 * 1e-6,
            max_nack_ranges: p.max_nack_ranges,
            queue_target_frames: 2,
            send_buffer_segments: p.send_buffer_segments,
        }
    }
}

/// TCP parameters of one flow. Defaults follow Linux unless said otherwise.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TcpSpec {
    /// Congestion control, by its Linux name ("reno", "newreno", "cubic", ...).
    pub cc: String,
    /// Loss recovery: "tahoe", "reno", "newreno" or "sack" (RFC 2018 option, RFC 6675 recovery).
    pub recovery: String,
    /// Maximum segment size: payload bytes per segment.
    pub mss_bytes: u32,
    pub min_rto_ms: f64,
    pub max_rto_ms: f64,
    pub initial_rto_ms: f64,
    /// Clock granularity G of the RTO (RFC 6298 (2.2)) [ms]; 0 = the nanosecond clock.
    pub clock_granularity_ms: f64,
    /// RFC 7323 timestamps (12 option bytes per segment; RTT samples on every ACK).
    pub timestamps: bool,
    /// RFC 3042 limited transmit.
    pub limited_transmit: bool,
    /// Initial congestion window [segments] (RFC 6928, Linux: 10).
    pub initial_cwnd: u32,
    /// The receiver acknowledges every `ack_every` segments (1 = every segment, 2 = delayed
    /// ACK, k + 1 = ACK skipping k).
    pub ack_every: u32,
    /// Delayed-ACK timer [ms] (Linux TCP_DELACK_MIN 40 ms); 0 = no timer.
    pub delack_timeout_ms: f64,
    /// Receive buffer = largest advertised window [bytes] (Linux tcp_rmem[2] = 6 MiB).
    pub rcv_buf_bytes: u32,
    /// Send buffer: the most unacknowledged data the sender holds [bytes] (Linux tcp_wmem[2]
    /// = 4 MiB).
    pub snd_buf_bytes: u32,
    /// CUBIC's HyStart (Linux module parameter `hystart`, default on); ignored by the others.
    pub hystart: bool,
}

impl Default for TcpSpec {
    fn default() -> Self {
        TcpSpec {
            cc: "newreno".into(),
            recovery: "newreno".into(),
            mss_bytes: 1460,
            min_rto_ms: 200.0,
            max_rto_ms: 120_000.0,
            initial_rto_ms: 1000.0,
            clock_granularity_ms: 0.0,
            timestamps: true,
            limited_transmit: true,
            initial_cwnd: 10,
            ack_every: 2,
            delack_timeout_ms: 40.0,
            rcv_buf_bytes: 6 * 1024 * 1024,
            snd_buf_bytes: 4 * 1024 * 1024,
            hystart: true,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    #[serde(default)]
    pub mac_tx: bool,
    /// TCP sender state (cwnd, ssthresh, srtt, rto, bytes in flight, CA state) per change.
    #[serde(default)]
    pub tcp: bool,
    /// TCP segment events: sent, retransmit, acked, dupack, timeout.
    #[serde(default)]
    pub tcp_segments: bool,
    #[serde(default)]
    pub packets: bool,
    /// Every frame sent or decoded, with its header bytes, for pcap export (docs/pcap.md).
    #[serde(default)]
    pub frames: bool,
}

/// UDP (8) + IPv4 (20) header bytes on top of an application payload.
pub const UDP_IP_HEADER_BYTES: u32 = 28;

/// Largest UDP payload that fits one unfragmented MSDU.
pub const MAX_UDP_PAYLOAD_BYTES: u32 = MAX_MSDU_BYTES - 8 - UDP_IP_HEADER_BYTES;

/// Parse a rate [Mbit/s] into kbit/s if the standard has it.
pub fn rate_kbps(standard: Standard, mbps: f64, path: &str) -> Result<u32, SpecError> {
    let allowed = || {
        standard
            .rates_kbps()
            .iter()
            .map(|k| format!("{}", f64::from(*k) / 1000.0))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !mbps.is_finite() || mbps <= 0.0 {
        return err(path, format!("{mbps} is not a positive rate; allowed: {}", allowed()));
    }
    let kbps = (mbps * 1000.0).round();
    let found = standard.rates_kbps().iter().find(|k| f64::from(**k) == kbps);
    match found {
        Some(k) if (mbps * 1000.0 - kbps).abs() < 1e-6 => Ok(*k),
        _ => err(path, format!("{mbps} Mbit/s is not a rate of {}; allowed: {}", standard.name(), allowed())),
    }
}

impl WorldSpec {
    pub fn from_json(text: &str) -> Result<WorldSpec, SpecError> {
        serde_json::from_str(text).map_err(|e| SpecError(format!("world spec: {e}")))
    }

    /// Check everything the builder relies on.
    pub fn validate(&self) -> Result<(), SpecError> {
        if self.duration_ns == 0 {
            return err("duration_ns", "must be > 0 (got 0)");
        }
        if self.warmup_ns >= self.duration_ns {
            return err(
                "warmup_ns",
                format!("{} must be < duration_ns {}", self.warmup_ns, self.duration_ns),
            );
        }
        let w = &self.wifi;
        let Some(standard) = Standard::parse(&w.standard) else {
            return err(
                "wifi.standard",
                format!("unknown standard {:?}; allowed: 80211a, 80211b, 80211g", w.standard),
            );
        };
        if w.erp_mixed && standard != Standard::G {
            return err("wifi.erp_mixed", format!("true needs standard 80211g (got {})", w.standard));
        }
        rate_kbps(standard, w.data_rate_mbps, "wifi.data_rate_mbps")?;
        rate_kbps(standard, w.basic_rate_mbps, "wifi.basic_rate_mbps")?;
        for (name, v) in
            [("short_retry_limit", w.short_retry_limit), ("long_retry_limit", w.long_retry_limit)]
        {
            if v > 31 {
                return err(&format!("wifi.{name}"), format!("{v} is out of range; allowed: 0..=31"));
            }
        }
        if w.queue_limit_packets == 0 {
            return err("wifi.queue_limit_packets", "must be >= 1 (got 0)");
        }
        if let Some(cw) = w.cw_min {
            if !(1..=32767).contains(&cw) {
                return err("wifi.cw_min", format!("{cw} is out of range; allowed: 1..=32767"));
            }
        }
        if let Some(cw) = w.cw_max {
            if !(1..=32767).contains(&cw) {
                return err("wifi.cw_max", format!("{cw} is out of range; allowed: 1..=32767"));
            }
            if let Some(lo) = w.cw_min {
                if cw < lo {
                    return err("wifi.cw_max", format!("{cw} must be >= cw_min {lo}"));
                }
            }
        }
        if let Some(a) = w.aifsn {
            if !(1..=15).contains(&a) {
                return err("wifi.aifsn", format!("{a} is out of range; allowed: 1..=15"));
            }
        }
        self.validate_channel()?;
        self.validate_graph()
    }

    fn validate_channel(&self) -> Result<(), SpecError> {
        let c = &self.channel;
        if !(c.rx_range_m.is_finite() && c.rx_range_m > 0.0) {
            return err("channel.rx_range_m", format!("{} must be a positive distance", c.rx_range_m));
        }
        if !(c.cs_range_m.is_finite() && c.cs_range_m >= c.rx_range_m) {
            return err(
                "channel.cs_range_m",
                format!("{} must be >= rx_range_m {}", c.cs_range_m, c.rx_range_m),
            );
        }
        if let Some(m) = &c.matrix {
            let n = self.nodes.len();
            for (name, rows) in [("rx", &m.rx), ("cs", &m.cs)] {
                if rows.len() != n || rows.iter().any(|r| r.len() != n) {
                    return err(
                        &format!("channel.matrix.{name}"),
                        format!("must be {n} x {n} (one row and column per node)"),
                    );
                }
                if rows.iter().flatten().any(|v| *v > 1) {
                    return err(&format!("channel.matrix.{name}"), "entries must be 0 or 1");
                }
            }
        }
        match c.error {
            ErrorSpec::None => {}
            ErrorSpec::Fer { fer } if !(0.0..1.0).contains(&fer) => {
                return err("channel.error.fer", format!("{fer} is out of range; allowed: [0, 1)"));
            }
            ErrorSpec::Ber { ber } if !(0.0..1.0).contains(&ber) => {
                return err("channel.error.ber", format!("{ber} is out of range; allowed: [0, 1)"));
            }
            _ => {}
        }
        Ok(())
    }

    fn validate_graph(&self) -> Result<(), SpecError> {
        let n = self.nodes.len() as u32;
        if n == 0 {
            return err("nodes", "at least one node is needed");
        }
        let mut names = std::collections::HashSet::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if node.name.is_empty() || !names.insert(node.name.as_str()) {
                return err(&format!("nodes.{i}.name"), format!("{:?} is empty or not unique", node.name));
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
        }
        let node_ref = |path: String, v: u32| -> Result<(), SpecError> {
            if v >= n {
                return err(&path, format!("node index {v} out of range; allowed: 0..{n}"));
            }
            Ok(())
        };
        for (i, l) in self.wired_links.iter().enumerate() {
            node_ref(format!("wired_links.{i}.a"), l.a)?;
            node_ref(format!("wired_links.{i}.b"), l.b)?;
            if l.a == l.b {
                return err(&format!("wired_links.{i}.b"), "a link needs two distinct nodes");
            }
            if l.rate_bps == 0 {
                return err(&format!("wired_links.{i}.rate_bps"), "must be > 0 (got 0)");
            }
            if l.queue_limit_packets == 0 {
                return err(&format!("wired_links.{i}.queue_limit_packets"), "must be >= 1 (got 0)");
            }
            for (name, v) in [("loss", l.loss), ("reverse_loss", l.reverse_loss)] {
                if !(0.0..1.0).contains(&v) {
                    return err(
                        &format!("wired_links.{i}.{name}"),
                        format!("{v} is out of range; allowed: [0, 1)"),
                    );
                }
            }
        }
        for (i, r) in self.routes.iter().enumerate() {
            node_ref(format!("routes.{i}.node"), r.node)?;
            node_ref(format!("routes.{i}.dst"), r.dst)?;
            node_ref(format!("routes.{i}.next_hop"), r.next_hop)?;
        }
        for (i, f) in self.flows.iter().enumerate() {
            node_ref(format!("flows.{i}.src"), f.src)?;
            node_ref(format!("flows.{i}.dst"), f.dst)?;
            if f.src == f.dst {
                return err(&format!("flows.{i}.dst"), "must differ from src");
            }
            if f.payload_bytes == 0 || f.payload_bytes > MAX_UDP_PAYLOAD_BYTES {
                return err(
                    &format!("flows.{i}.payload_bytes"),
                    format!("{} is out of range; allowed: 1..={MAX_UDP_PAYLOAD_BYTES}", f.payload_bytes),
                );
            }
            if f.kind.is_tcp() {
                validate_tcp(i, f)?;
            } else if f.kind == FlowKind::ClapFile {
                validate_clap(i, f, &self.nodes)?;
            } else if f.file_bytes.is_some() {
                return err(&format!("flows.{i}.file_bytes"), "only tcp_file and clap_file flows take one");
            }
            if f.clap.is_some() && f.kind != FlowKind::ClapFile {
                return err(&format!("flows.{i}.clap"), "only clap_file flows take CLAP parameters");
            }
            if f.report_interval_ns == Some(0) {
                return err(&format!("flows.{i}.report_interval_ns"), "must be > 0 (got 0)");
            }
            match (f.kind, f.rate_bps) {
                (FlowKind::TcpBulk | FlowKind::TcpFile, None) => {}
                (FlowKind::TcpBulk | FlowKind::TcpFile, Some(_)) => {
                    return err(&format!("flows.{i}.rate_bps"), "TCP flows take no rate");
                }
                (FlowKind::ClapFile, None) => {}
                (FlowKind::ClapFile, Some(_)) => {
                    return err(
                        &format!("flows.{i}.rate_bps"),
                        "CLAP flows take no rate (their MAC sets it)",
                    );
                }
                (FlowKind::UdpCbr, Some(r)) if r.is_finite() && r > 0.0 => {}
                (FlowKind::UdpCbr, r) => {
                    return err(
                        &format!("flows.{i}.rate_bps"),
                        format!("{r:?}: udp_cbr needs a positive rate"),
                    );
                }
                (FlowKind::UdpSaturating, Some(_)) => {
                    return err(&format!("flows.{i}.rate_bps"), "udp_saturating takes no rate");
                }
                (FlowKind::UdpSaturating, None) => {}
            }
            if let Some(stop) = f.stop_ns {
                if stop <= f.start_ns {
                    return err(
                        &format!("flows.{i}.stop_ns"),
                        format!("{stop} must be > start_ns {}", f.start_ns),
                    );
                }
            }
        }
        Ok(())
    }
}

fn validate_clap(i: usize, f: &FlowSpec, nodes: &[NodeSpec]) -> Result<(), SpecError> {
    let path = |field: &str| format!("flows.{i}.{field}");
    match f.file_bytes {
        Some(b) if b > 0 => {}
        b => return err(&path("file_bytes"), format!("{b:?}: clap_file needs file_bytes > 0")),
    }
    if f.tcp.is_some() {
        return err(&path("tcp"), "a clap_file flow takes no TCP parameters");
    }
    let src = &nodes[f.src as usize];
    if !src.wifi {
        // The rate law is fed by the sender's own MAC (docs/clap.md, open questions).
        return err(
            &path("src"),
            format!(
                "{:?} has no WiFi: a CLAP sender must be a WiFi node (its MAC feeds the rate); allowed: a node with wifi = true",
                src.name
            ),
        );
    }
    let Some(c) = &f.clap else { return Ok(()) };
    // The segment plus 40 bytes of CLAP/IP headers must fit one MSDU (LLC/SNAP 8).
    let max_mss = MAX_MSDU_BYTES - 8 - 40;
    if c.mss_bytes == 0 || c.mss_bytes > max_mss {
        return err(
            &path("clap.mss_bytes"),
            format!("{} is out of range; allowed: 1..={max_mss}", c.mss_bytes),
        );
    }
    if !(c.feedback_interval_ms.is_finite() && c.feedback_interval_ms >= 0.001) {
        return err(
            &path("clap.feedback_interval_ms"),
            format!("{} is out of range; allowed: >= 0.001 ms", c.feedback_interval_ms),
        );
    }
    let max_ranges = crate::clap::MAX_NACK_RANGES;
    if c.max_nack_ranges == 0 || usize::from(c.max_nack_ranges) > max_ranges {
        return err(
            &path("clap.max_nack_ranges"),
            format!("{} is out of range; allowed: 1..={max_ranges}", c.max_nack_ranges),
        );
    }
    if c.send_buffer_segments == 0 {
        return err(&path("clap.send_buffer_segments"), "0 is out of range; allowed: >= 1");
    }
    Ok(())
}

fn validate_tcp(i: usize, f: &FlowSpec) -> Result<(), SpecError> {
    let path = |field: &str| format!("flows.{i}.{field}");
    match (f.kind, f.file_bytes) {
        (FlowKind::TcpFile, Some(b)) if b > 0 => {}
        (FlowKind::TcpFile, b) => {
            return err(&path("file_bytes"), format!("{b:?}: tcp_file needs file_bytes > 0"))
        }
        (_, Some(_)) => return err(&path("file_bytes"), "only tcp_file flows take file_bytes"),
        _ => {}
    }
    let Some(t) = &f.tcp else { return Ok(()) };
    if crate::tcp::cc::Algorithm::from_name(&t.cc).is_none() {
        let allowed = crate::tcp::cc::NAMES.join(", ");
        return err(&path("tcp.cc"), format!("unknown congestion control {:?}; allowed: {allowed}", t.cc));
    }
    if crate::tcp::conn::Recovery::parse(&t.recovery).is_none() {
        return err(&path("tcp.recovery"), format!("{:?}; allowed: tahoe, reno, newreno, sack", t.recovery));
    }
    // The segment plus 52 bytes of TCP/IP headers and options must fit one MSDU.
    let max_mss = MAX_MSDU_BYTES - 8 - 52;
    if t.mss_bytes == 0 || t.mss_bytes > max_mss {
        return err(
            &path("tcp.mss_bytes"),
            format!("{} is out of range; allowed: 1..={max_mss}", t.mss_bytes),
        );
    }
    for (name, v) in [
        ("min_rto_ms", t.min_rto_ms),
        ("delack_timeout_ms", t.delack_timeout_ms),
        ("clock_granularity_ms", t.clock_granularity_ms),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return err(&path(&format!("tcp.{name}")), format!("{v} must be >= 0"));
        }
    }
    for (name, v) in [("max_rto_ms", t.max_rto_ms), ("initial_rto_ms", t.initial_rto_ms)] {
        if !(v.is_finite() && v > 0.0) {
            return err(&path(&format!("tcp.{name}")), format!("{v} must be > 0"));
        }
    }
    if t.max_rto_ms < t.min_rto_ms {
        return err(
            &path("tcp.max_rto_ms"),
            format!("{} must be >= min_rto_ms {}", t.max_rto_ms, t.min_rto_ms),
        );
    }
    if t.initial_cwnd == 0
        || t.ack_every == 0
        || t.rcv_buf_bytes < t.mss_bytes
        || t.snd_buf_bytes < t.mss_bytes
    {
        return err(
            &path("tcp"),
            "initial_cwnd and ack_every must be >= 1, rcv_buf_bytes and snd_buf_bytes >= mss_bytes",
        );
    }
    Ok(())
}
