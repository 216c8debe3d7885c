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

/// A string for a message, quoted, and cut to its first 48 characters if longer.
fn quoted(text: &str) -> String {
    let n = text.chars().count();
    if n <= 48 {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(48).collect();
        format!("{head:?}... ({n} characters)")
    }
}

/// A number for a message: short even when it is huge or tiny (1e300, not 301 digits).
fn num(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-4..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
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

/// Largest interface or link queue [packets]. A saturating source keeps its queue full, so
/// the queue limit is memory: 100 000 packets is far beyond any real interface (Linux
/// txqueuelen 1000, ns-3 100) and keeps a full queue within a few MB.
pub const MAX_QUEUE_PACKETS: u32 = 100_000;

/// Most goodput reporting intervals of one flow over the measured time (one counter each).
pub const MAX_REPORT_INTERVALS: u64 = 1_000_000;

/// Largest file of a tcp_file or clap_file flow [bytes] (1 PB: days of simulated time at any
/// rate modelled; TCP's sequence arithmetic adds to it).
pub const MAX_FILE_BYTES: u64 = 1_000_000_000_000_000;

/// Largest initial congestion window [segments]: the congestion controls compute in 32 bits
/// as Linux does (cwnd times a 10-bit factor), far from any real initial window (10).
pub const MAX_INITIAL_CWND: u32 = 1_000_000;

/// Parse a rate [Mbit/s] into kbit/s if the standard has it.
pub fn rate_kbps(standard: Standard, mbps: f64, path: &str) -> Result<u32, SpecError> {
    let allowed =
        || standard.rates_kbps().map(|k| format!("{}", f64::from(k) / 1000.0)).collect::<Vec<_>>().join(", ");
    if !mbps.is_finite() || mbps <= 0.0 {
        return err(path, format!("{} is not a positive rate; allowed: {}", num(mbps), allowed()));
    }
    let kbps = (mbps * 1000.0).round();
    let found = standard.rates_kbps().find(|k| f64::from(*k) == kbps);
    match found {
        Some(k) if (mbps * 1000.0 - kbps).abs() < 1e-6 => Ok(k),
        _ => err(
            path,
            format!("{} Mbit/s is not a rate of {}; allowed: {}", num(mbps), standard.name(), allowed()),
        ),
    }
}

impl WorldSpec {
    /// Parse a JSON world spec. An error names the field path (`wifi.cw_min`,
    /// `flows.2.tcp.cc`; `spec` for the document as a whole), what was found (a short prefix
    /// of it) and what is allowed.
    pub fn from_json(text: &str) -> Result<WorldSpec, SpecError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| locate::syntax_error(text, &e))?;
        WorldSpec::deserialize(&value).map_err(|_| locate::typed_error(&value))
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
                format!("unknown standard {}; allowed: 80211a, 80211b, 80211g", quoted(&w.standard)),
            );
        };
        if w.erp_mixed && standard != Standard::G {
            return err(
                "wifi.erp_mixed",
                format!("true needs standard 80211g (got {})", quoted(&w.standard)),
            );
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
        if !(1..=MAX_QUEUE_PACKETS).contains(&w.queue_limit_packets) {
            return err(
                "wifi.queue_limit_packets",
                format!(
                    "{} is out of range; allowed: 1..={MAX_QUEUE_PACKETS} packets",
                    w.queue_limit_packets
                ),
            );
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
            return err(
                "channel.rx_range_m",
                format!("{} is out of range; allowed: a finite distance > 0 m", num(c.rx_range_m)),
            );
        }
        if !(c.cs_range_m.is_finite() && c.cs_range_m >= c.rx_range_m) {
            return err(
                "channel.cs_range_m",
                format!(
                    "{} is out of range; allowed: finite and >= rx_range_m ({})",
                    num(c.cs_range_m),
                    num(c.rx_range_m)
                ),
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
                for (i, row) in rows.iter().enumerate() {
                    if let Some(j) = row.iter().position(|v| *v > 1) {
                        return err(
                            &format!("channel.matrix.{name}.{i}.{j}"),
                            format!("{} is out of range; allowed: 0 or 1", row[j]),
                        );
                    }
                }
            }
        }
        match c.error {
            ErrorSpec::None => {}
            ErrorSpec::Fer { fer } if !(0.0..1.0).contains(&fer) => {
                return err("channel.error.fer", format!("{} is out of range; allowed: [0, 1)", num(fer)));
            }
            ErrorSpec::Ber { ber } if !(0.0..1.0).contains(&ber) => {
                return err("channel.error.ber", format!("{} is out of range; allowed: [0, 1)", num(ber)));
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
                return err(
                    &format!("nodes.{i}.name"),
                    format!("{} is empty or not unique", quoted(&node.name)),
                );
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
        for (i, r) in self.routes.iter().enumerate() {
            node_ref(format!("routes.{i}.node"), r.node)?;
            node_ref(format!("routes.{i}.dst"), r.dst)?;
            node_ref(format!("routes.{i}.next_hop"), r.next_hop)?;
        }
        for (i, f) in self.flows.iter().enumerate() {
            node_ref(format!("flows.{i}.src"), f.src)?;
            node_ref(format!("flows.{i}.dst"), f.dst)?;
            if f.src == f.dst {
                return err(
                    &format!("flows.{i}.dst"),
                    format!("{} is also the flow's src; allowed: another node index", f.dst),
                );
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
            if let Some(every) = f.report_interval_ns {
                // One counter per interval of the measured time: bound their number.
                let measured = self.duration_ns.saturating_sub(self.warmup_ns);
                let least = measured.div_ceil(MAX_REPORT_INTERVALS).max(1);
                if every < least {
                    return err(
                        &format!("flows.{i}.report_interval_ns"),
                        format!(
                            "{every} is out of range; allowed: >= {least} ns (at most \
                             {MAX_REPORT_INTERVALS} intervals over the {measured} ns measured)"
                        ),
                    );
                }
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
                        format!(
                            "{} is out of range; allowed: a finite rate > 0 bit/s (udp_cbr needs one)",
                            r.map_or("nothing".into(), num)
                        ),
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
    // Segments are numbered in 32 bits: the file must fit 2^32 - 1 of them.
    let mss = f.clap.as_ref().map_or(ClapSpec::default().mss_bytes, |c| c.mss_bytes).max(1);
    let most = MAX_FILE_BYTES.min(u64::from(u32::MAX) * u64::from(mss));
    match f.file_bytes {
        Some(b) if (1..=most).contains(&b) => {}
        b => {
            return err(
                &path("file_bytes"),
                format!(
                    "{} is out of range; allowed: 1..={most} bytes (clap_file needs one; at most \
                     2^32 - 1 segments of {mss} bytes)",
                    b.map_or("nothing".into(), |b| b.to_string())
                ),
            )
        }
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
                "{} has no WiFi: a CLAP sender must be a WiFi node (its MAC feeds the rate); allowed: a node with wifi = true",
                quoted(&src.name)
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
            format!("{} is out of range; allowed: >= 0.001 ms", num(c.feedback_interval_ms)),
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
        (FlowKind::TcpFile, Some(b)) if (1..=MAX_FILE_BYTES).contains(&b) => {}
        (FlowKind::TcpFile, b) => {
            return err(
                &path("file_bytes"),
                format!(
                    "{} is out of range; allowed: 1..={MAX_FILE_BYTES} bytes (tcp_file needs one)",
                    b.map_or("nothing".into(), |b| b.to_string())
                ),
            )
        }
        (_, Some(_)) => return err(&path("file_bytes"), "only tcp_file flows take file_bytes"),
        _ => {}
    }
    let Some(t) = &f.tcp else { return Ok(()) };
    if crate::tcp::cc::Algorithm::from_name(&t.cc).is_none() {
        let allowed = crate::tcp::cc::NAMES.join(", ");
        return err(
            &path("tcp.cc"),
            format!("unknown congestion control {}; allowed: {allowed}", quoted(&t.cc)),
        );
    }
    if crate::tcp::conn::Recovery::parse(&t.recovery).is_none() {
        return err(
            &path("tcp.recovery"),
            format!("unknown loss recovery {}; allowed: tahoe, reno, newreno, sack", quoted(&t.recovery)),
        );
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
            return err(
                &path(&format!("tcp.{name}")),
                format!("{} is out of range; allowed: a finite number >= 0 ms", num(v)),
            );
        }
    }
    for (name, v) in [("max_rto_ms", t.max_rto_ms), ("initial_rto_ms", t.initial_rto_ms)] {
        // Timers tick in whole ns: an RTO that rounds to 0 ns would fire at once, forever.
        if !(v.is_finite() && (v * 1e6).round() >= 1.0) {
            return err(
                &path(&format!("tcp.{name}")),
                format!("{} is out of range; allowed: >= 0.000001 ms (1 ns)", num(v)),
            );
        }
    }
    if t.max_rto_ms < t.min_rto_ms {
        return err(
            &path("tcp.max_rto_ms"),
            format!("{} is out of range; allowed: >= min_rto_ms ({})", num(t.max_rto_ms), num(t.min_rto_ms)),
        );
    }
    if !(1..=MAX_INITIAL_CWND).contains(&t.initial_cwnd) {
        return err(
            &path("tcp.initial_cwnd"),
            format!("{} is out of range; allowed: 1..={MAX_INITIAL_CWND} segments", t.initial_cwnd),
        );
    }
    if t.ack_every == 0 {
        return err(&path("tcp.ack_every"), "0 is out of range; allowed: >= 1 segments");
    }
    for (name, v) in [("rcv_buf_bytes", t.rcv_buf_bytes), ("snd_buf_bytes", t.snd_buf_bytes)] {
        if v < t.mss_bytes {
            return err(
                &path(&format!("tcp.{name}")),
                format!("{v} is out of range; allowed: >= mss_bytes ({})", t.mss_bytes),
            );
        }
    }
    Ok(())
}

/// Error messages of the JSON layer that name the field: where in the document a syntax
/// error stopped, or which field a type error is about.
mod locate {
    use serde::Deserialize;
    use serde_json::Value;

    use super::{SpecError, WorldSpec};

    /// Longest prefix of a found value or a key that a message echoes [characters].
    const ECHO_CHARS: usize = 48;

    /// `text` cut to `ECHO_CHARS` characters, saying how long it was.
    fn clip(text: &str) -> String {
        let n = text.chars().count();
        if n <= ECHO_CHARS {
            return text.to_string();
        }
        let head: String = text.chars().take(ECHO_CHARS).collect();
        format!("{head}... ({n} characters)")
    }

    /// `parent.key`; a key that is not a plain word is quoted (and cut short).
    fn join_key(parent: &str, key: &str) -> String {
        let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let seg = if plain && key.len() <= ECHO_CHARS {
            key.to_string()
        } else {
            serde_json::to_string(&clip(key)).unwrap_or_else(|_| "\"?\"".into())
        };
        if parent.is_empty() {
            seg
        } else {
            format!("{parent}.{seg}")
        }
    }

    fn join_index(parent: &str, i: usize) -> String {
        if parent.is_empty() {
            // A document that is an array has no field names: its elements hang off "spec".
            format!("spec.{i}")
        } else {
            format!("{parent}.{i}")
        }
    }

    fn or_spec(path: String) -> String {
        if path.is_empty() {
            "spec".into()
        } else {
            path
        }
    }

    /// serde_json's message without its " at line L column C".
    fn bare(e: &serde_json::Error) -> String {
        let mut msg = e.to_string();
        if e.line() > 0 {
            if let Some(cut) = msg.rfind(" at line ") {
                msg.truncate(cut);
            }
        }
        msg
    }

    /// A syntax error: the path of the value the parser was in when it stopped.
    pub(super) fn syntax_error(text: &str, e: &serde_json::Error) -> SpecError {
        let offset = byte_offset(text, e.line(), e.column());
        let path = or_spec(path_at(text.as_bytes(), offset));
        let rest = &text.as_bytes()[offset.saturating_sub(1).min(text.len())..];
        let hint = if [&b"NaN"[..], b"Infinity", b"-Infinity"].iter().any(|w| rest.starts_with(w)) {
            "a finite number (JSON has no NaN or Infinity)"
        } else {
            "a JSON document as in docs/world-spec.md"
        };
        SpecError(format!(
            "{path}: not valid JSON ({} at line {} column {}); allowed: {hint}",
            bare(e),
            e.line(),
            e.column()
        ))
    }

    /// The byte offset of serde_json's (line, column), both counted from 1.
    fn byte_offset(text: &str, line: usize, column: usize) -> usize {
        let mut start = 0;
        for _ in 1..line {
            match text[start..].find('\n') {
                Some(nl) => start += nl + 1,
                None => break,
            }
        }
        (start + column).min(text.len())
    }

    enum Frame {
        Object { key: Option<String>, want_key: bool },
        Array { index: usize },
    }

    /// The path of the value being read at byte `end` of a JSON text that is valid up to there.
    fn path_at(b: &[u8], end: usize) -> String {
        let mut stack: Vec<Frame> = Vec::new();
        let mut i = 0;
        while i < end {
            match b[i] {
                b'{' => stack.push(Frame::Object { key: None, want_key: true }),
                b'[' => stack.push(Frame::Array { index: 0 }),
                b'}' | b']' => {
                    stack.pop();
                }
                b',' => match stack.last_mut() {
                    Some(Frame::Object { key, want_key }) => {
                        *key = None;
                        *want_key = true;
                    }
                    Some(Frame::Array { index }) => *index += 1,
                    None => {}
                },
                b':' => {
                    if let Some(Frame::Object { want_key, .. }) = stack.last_mut() {
                        *want_key = false;
                    }
                }
                b'"' => {
                    let start = i + 1;
                    i += 1;
                    while i < end && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    if i < end {
                        if let Some(Frame::Object { key, want_key: true }) = stack.last_mut() {
                            *key = Some(String::from_utf8_lossy(&b[start..i]).into_owned());
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let mut path = String::new();
        for frame in &stack {
            match frame {
                Frame::Object { key: Some(k), .. } => path = join_key(&path, k),
                Frame::Object { key: None, .. } => break,
                Frame::Array { index } => path = join_index(&path, *index),
            }
        }
        path
    }

    /// A type error (a wrong type, a missing or unknown field): `value` is written again with
    /// one value per line, each line's path known, and parsed once more; the line of the error
    /// names the field.
    pub(super) fn typed_error(value: &Value) -> SpecError {
        let mut lines = Vec::new();
        let mut paths = Vec::new();
        write_lined(value, String::new(), None, &mut lines, &mut paths);
        let e = match serde_json::from_str::<WorldSpec>(&lines.join("\n")) {
            Err(e) => e,
            // The same value parsed; not expected, but never a panic.
            Ok(_) => match WorldSpec::deserialize(value) {
                Err(e) => e,
                Ok(_) => return SpecError("spec: rejected by the JSON layer".into()),
            },
        };
        let path = paths.get(e.line().saturating_sub(1)).cloned().unwrap_or_default();
        let (path, what) = describe(path, &bare(&e));
        SpecError(format!("{}: {what}", or_spec(path)))
    }

    /// One line per scalar, per opening and per closing bracket; a space ends every line so
    /// that an error reported one byte late stays on the line.
    fn write_lined(
        v: &Value,
        path: String,
        key: Option<&str>,
        lines: &mut Vec<String>,
        paths: &mut Vec<String>,
    ) {
        let prefix = match key {
            Some(k) => format!("{}:", serde_json::to_string(k).unwrap_or_else(|_| "\"?\"".into())),
            None => String::new(),
        };
        let close = |lines: &mut Vec<String>, paths: &mut Vec<String>, bracket: &str, path: String| {
            lines.push(format!("{bracket} "));
            paths.push(path);
        };
        match v {
            Value::Object(map) => {
                lines.push(format!("{prefix}{{ "));
                paths.push(path.clone());
                let n = map.len();
                for (i, (k, child)) in map.iter().enumerate() {
                    write_lined(child, join_key(&path, k), Some(k), lines, paths);
                    if i + 1 < n {
                        if let Some(last) = lines.last_mut() {
                            last.push_str(", ");
                        }
                    }
                }
                close(lines, paths, "}", path);
            }
            Value::Array(items) => {
                lines.push(format!("{prefix}[ "));
                paths.push(path.clone());
                let n = items.len();
                for (i, child) in items.iter().enumerate() {
                    write_lined(child, join_index(&path, i), None, lines, paths);
                    if i + 1 < n {
                        if let Some(last) = lines.last_mut() {
                            last.push_str(", ");
                        }
                    }
                }
                close(lines, paths, "]", path);
            }
            scalar => {
                lines.push(format!(
                    "{prefix}{} ",
                    serde_json::to_string(scalar).unwrap_or_else(|_| "null".into())
                ));
                paths.push(path);
            }
        }
    }

    /// serde's message as "<what> (found; allowed: ...)", and the path it is about.
    fn describe(path: String, msg: &str) -> (String, String) {
        if let Some(rest) = msg.strip_prefix("missing field `") {
            let field = rest.trim_end_matches('`');
            return (join_key(&path, field), "required field is missing".into());
        }
        if let Some(rest) = msg.strip_prefix("unknown field `") {
            let allowed = rest.split_once("`, ").map_or("", |(_, tail)| tail);
            return (path, format!("unknown field; allowed: {}", expected(allowed)));
        }
        if let Some(rest) = msg.strip_prefix("unknown variant `") {
            let (found, allowed) = rest.split_once("`, ").unwrap_or((rest, ""));
            return (path, format!("unknown value {:?}; allowed: {}", clip(found), expected(allowed)));
        }
        if let Some(rest) = msg.strip_prefix("duplicate field `") {
            return (join_key(&path, rest.trim_end_matches('`')), "given twice; allowed: once".into());
        }
        for (prefix, what) in [
            ("invalid type: ", "wrong type"),
            ("invalid value: ", "out of range"),
            ("invalid length ", "wrong length"),
        ] {
            if let Some(rest) = msg.strip_prefix(prefix) {
                let (found, allowed) = rest.rsplit_once(", expected ").unwrap_or((rest, ""));
                return (path, format!("{what} (got {}); allowed: {}", clip(found), expected(allowed)));
            }
        }
        if msg == "expected value" {
            // An enum given something other than a name (serde_json's words for it).
            let field = path.rsplit('.').next().unwrap_or("");
            let names = ENUM_NAMES.iter().find(|(f, _)| *f == field).map_or("a name", |(_, n)| n);
            return (path, format!("wrong type (not a name); allowed: {names}"));
        }
        (path, clip(msg))
    }

    /// The names each enum field takes (docs/world-spec.md).
    const ENUM_NAMES: [(&str, &str); 6] = [
        ("role", "ap, sta, adhoc, host"),
        ("access", "dcf, edca"),
        ("preamble", "long, short"),
        ("ac", "bk, be, vi, vo"),
        ("kind", "udp_saturating, udp_cbr, tcp_bulk, tcp_file, clap_file"),
        ("error", "an object with kind none, fer or ber"),
    ];

    /// serde's "expected ..." in words.
    fn expected(exp: &str) -> String {
        let exp = exp.trim();
        let words = match exp {
            "u8" => "an integer 0..=255",
            "u16" => "an integer 0..=65535",
            "u32" => "an integer 0..=4294967295",
            "u64" => "an integer 0..=18446744073709551615",
            "f64" => "a number",
            "a sequence" => "an array",
            "variant identifier" => "a string",
            "there are no fields" => "no fields",
            "" => "see docs/world-spec.md",
            _ if exp.starts_with("expected ") => return expected(&exp["expected ".len()..]),
            _ if exp.starts_with("struct ") || exp.starts_with("internally tagged enum") => "an object",
            _ => return exp.trim_start_matches("one of ").replace('`', ""),
        };
        words.to_string()
    }
}

#[cfg(test)]
mod tests {
    /// A valid spec: one station sending saturating UDP to its AP for 10 ms.
    fn good() -> serde_json::Value {
        serde_json::json!({
            "duration_ns": 10_000_000u64,
            "wifi": {"standard": "80211a", "data_rate_mbps": 54.0, "basic_rate_mbps": 6.0},
            "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
            "nodes": [
                {"name": "ap", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "ap"},
                {"name": "sta1", "position_m": [5.0, 0.0, 0.0], "wifi": true, "role": "sta"}
            ],
            "flows": [{"kind": "udp_saturating", "src": 1, "dst": 0, "payload_bytes": 1500}]
        })
    }

    fn error_of(text: &str) -> String {
        match crate::run_json(text, 1) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.0,
        }
    }

    fn error_with(edit: impl FnOnce(&mut serde_json::Value)) -> String {
        let mut v = good();
        edit(&mut v);
        error_of(&v.to_string())
    }

    #[test]
    fn the_good_spec_runs() {
        assert!(crate::run_json(&good().to_string(), 1).is_ok());
    }

    #[test]
    fn type_errors_name_the_field_the_value_and_what_is_allowed() {
        let e = error_with(|v| v["flows"][0]["payload_bytes"] = (-1).into());
        assert_eq!(
            e,
            "flows.0.payload_bytes: out of range (got integer `-1`); allowed: an integer 0..=4294967295"
        );
        let e = error_with(|v| v["wifi"]["cw_min"] = "x".into());
        assert_eq!(e, "wifi.cw_min: wrong type (got string \"x\"); allowed: an integer 0..=4294967295");
        // u64 overflow: JSON numbers beyond u64 are floats to serde_json.
        let e = error_with(|v| v["duration_ns"] = serde_json::json!(18446744073709551616.0));
        assert!(
            e.starts_with("duration_ns: wrong type (got floating point `1.8446744073709552e+19`)"),
            "{e}"
        );
        // The last field of an object, and a whole table of the wrong type.
        let e = error_with(|v| v["nodes"][1]["role"] = 7.into());
        assert_eq!(e, "nodes.1.role: wrong type (not a name); allowed: ap, sta, adhoc, host");
        let e = error_with(|v| v["channel"] = 1.5.into());
        assert_eq!(e, "channel: wrong type (got floating point `1.5`); allowed: an object");
        let e = error_with(|v| v["nodes"][0]["position_m"] = serde_json::json!([0.0, 0.0]));
        assert!(e.starts_with("nodes.0.position_m: wrong length (got 2)"), "{e}");
    }

    #[test]
    fn missing_unknown_and_misspelt_fields_are_named() {
        let e = error_with(|v| {
            v.as_object_mut().map(|m| m.remove("duration_ns"));
        });
        assert_eq!(e, "duration_ns: required field is missing");
        let e = error_with(|v| {
            v["nodes"][1].as_object_mut().map(|m| m.remove("role"));
        });
        assert_eq!(e, "nodes.1.role: required field is missing");
        let e = error_with(|v| v["wifi"]["bogus"] = 1.into());
        assert!(e.starts_with("wifi.bogus: unknown field; allowed: standard, erp_mixed,"), "{e}");
        let e = error_with(|v| v["wifi"]["access"] = "hcf".into());
        assert_eq!(e, "wifi.access: unknown value \"hcf\"; allowed: dcf or edca");
        let e = error_with(|v| v["channel"]["error"] = serde_json::json!({"kind": "awgn"}));
        assert_eq!(e, "channel.error.kind: unknown value \"awgn\"; allowed: none, fer, ber");
        // A key that is not a word is quoted, and a long one cut short.
        let e = error_with(|v| v["traces"] = serde_json::json!({"bad key": true}));
        assert!(e.starts_with("traces.\"bad key\": unknown field"), "{e}");
        let long = "k".repeat(10_000);
        let e = error_with(|v| v[long.as_str()] = 1.into());
        assert!(e.len() < 600 && e.starts_with("\"kkkk"), "{e}");
    }

    #[test]
    fn long_values_are_echoed_as_a_short_prefix() {
        let long = "x".repeat(100_000);
        let e = error_with(|v| v["wifi"]["cw_max"] = long.as_str().into());
        assert!(e.starts_with("wifi.cw_max: wrong type (got string \"xxx"), "{e}");
        assert!(e.len() < 300, "{} characters", e.len());
    }

    #[test]
    fn syntax_errors_name_where_the_parser_stopped() {
        let text = good().to_string().replace("\"payload_bytes\":1500", "\"payload_bytes\":NaN");
        let e = error_of(&text);
        assert!(
            e.starts_with("flows.0.payload_bytes: not valid JSON (expected value at line 1 column"),
            "{e}"
        );
        assert!(e.ends_with("allowed: a finite number (JSON has no NaN or Infinity)"), "{e}");
        assert!(error_of("").starts_with("spec: not valid JSON (EOF while parsing a value"));
        assert!(error_of("{\"wifi\": {\"standard\": \"80").starts_with("wifi.standard: not valid JSON (EOF"));
        assert!(error_of("[1, 2").starts_with("spec.1: not valid JSON"));
        let deep = format!("{{\"nodes\": {}{}}}", "[".repeat(500), "]".repeat(500));
        let e = error_of(&deep);
        assert!(e.starts_with("nodes.0.0.0.") && e.contains("recursion limit exceeded"), "{e}");
        let e = error_of(&good().to_string().replace("10000000", "1e400"));
        assert!(e.starts_with("duration_ns: not valid JSON (number out of range"), "{e}");
    }

    #[test]
    fn the_whole_document_of_the_wrong_type() {
        assert_eq!(error_of("[]"), "spec: wrong length (got 0); allowed: an object");
        assert!(error_of("[{}]").starts_with("spec.0: wrong type (got map); allowed: an integer"));
        assert!(error_of("3").starts_with("spec: wrong type (got integer `3`)"));
        assert!(
            error_of("{\"nodes\": 3}").starts_with("nodes: wrong type (got integer `3`); allowed: an array")
        );
    }

    #[test]
    fn a_huge_queue_limit_is_refused_not_filled() {
        // A saturating source fills its queue: 2^31 packets ran the process out of memory.
        let e = error_with(|v| v["wifi"]["queue_limit_packets"] = 2_147_483_648u64.into());
        assert_eq!(e, "wifi.queue_limit_packets: 2147483648 is out of range; allowed: 1..=100000 packets");
        let e = error_with(|v| v["wifi"]["queue_limit_packets"] = 0.into());
        assert!(e.starts_with("wifi.queue_limit_packets: 0 is out of range"), "{e}");
        let e = error_with(|v| {
            if let Some(nodes) = v["nodes"].as_array_mut() {
                nodes.push(serde_json::json!({"name": "srv", "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"}));
            }
            v["wired_links"] = serde_json::json!([{"a": 0, "b": 2, "rate_bps": 1000000, "delay_ns": 0, "queue_limit_packets": 4294967295u32}]);
        });
        assert!(e.starts_with("wired_links.0.queue_limit_packets: 4294967295 is out of range"), "{e}");
    }

    #[test]
    fn a_report_interval_of_one_ns_is_refused() {
        // One counter per interval: 1 ns over 2 s was 2e9 counters (16 GB).
        let e = error_with(|v| {
            v["duration_ns"] = 2_000_000_000u64.into();
            v["flows"][0]["report_interval_ns"] = 1.into();
        });
        assert_eq!(
            e,
            "flows.0.report_interval_ns: 1 is out of range; allowed: >= 2000 ns (at most 1000000 \
             intervals over the 2000000000 ns measured)"
        );
        let mut v = good();
        v["flows"][0]["report_interval_ns"] = 10.into(); // 10 ms / 10 ns = 1e6 intervals: fine
        assert!(crate::run_json(&v.to_string(), 1).is_ok());
    }

    #[test]
    fn an_rto_that_rounds_to_zero_ns_is_refused() {
        // RTO 0 ns: the retransmission timer fired at the same instant forever (a hang).
        let tcp = |t: serde_json::Value| {
            move |v: &mut serde_json::Value| {
                v["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0, "payload_bytes": 1460, "tcp": t});
            }
        };
        let e = error_with(tcp(
            serde_json::json!({"min_rto_ms": 0.0, "max_rto_ms": 1e-300, "initial_rto_ms": 1e-300}),
        ));
        assert_eq!(e, "flows.0.tcp.max_rto_ms: 1e-300 is out of range; allowed: >= 0.000001 ms (1 ns)");
        let e = error_with(tcp(serde_json::json!({"initial_rto_ms": 1e-7})));
        assert!(e.starts_with("flows.0.tcp.initial_rto_ms: 1e-7 is out of range"), "{e}");
        let e = error_with(tcp(serde_json::json!({"ack_every": 0})));
        assert_eq!(e, "flows.0.tcp.ack_every: 0 is out of range; allowed: >= 1 segments");
        let e = error_with(tcp(serde_json::json!({"mss_bytes": 1000, "snd_buf_bytes": 999})));
        assert_eq!(e, "flows.0.tcp.snd_buf_bytes: 999 is out of range; allowed: >= mss_bytes (1000)");
    }

    #[test]
    fn a_file_of_u64_max_bytes_is_refused() {
        // tcp_file: the first sequence number after the data, 1 + file_bytes, overflowed
        // (a panic in a debug build, a wrapped number in a release build).
        let e = error_with(|v| {
            v["flows"][0] = serde_json::json!({"kind": "tcp_file", "src": 1, "dst": 0,
                "payload_bytes": 1460, "file_bytes": u64::MAX});
        });
        assert!(
            e.starts_with("flows.0.file_bytes: 18446744073709551615 is out of range; allowed: 1..="),
            "{e}"
        );
        // clap_file: more than 2^32 - 1 segments were silently cut to that many.
        let e = error_with(|v| {
            v["flows"][0] = serde_json::json!({"kind": "clap_file", "src": 1, "dst": 0,
                "payload_bytes": 1, "file_bytes": 5_000_000_000u64, "clap": {"mss_bytes": 1}});
        });
        assert!(
            e.starts_with("flows.0.file_bytes: 5000000000 is out of range; allowed: 1..=4294967295 bytes"),
            "{e}"
        );
    }

    #[test]
    fn an_initial_cwnd_of_u32_max_is_refused() {
        // BIC's ssthresh multiplied cwnd by 819 in 32 bits: overflow (debug panic).
        let e = error_with(|v| {
            v["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0,
                "payload_bytes": 1460, "tcp": {"cc": "bic", "initial_cwnd": u32::MAX}});
        });
        assert_eq!(e, "flows.0.tcp.initial_cwnd: 4294967295 is out of range; allowed: 1..=1000000 segments");
    }

    #[test]
    fn names_are_echoed_as_a_short_prefix() {
        let long = "x".repeat(5000);
        let e = error_with(|v| v["wifi"]["standard"] = long.as_str().into());
        assert!(e.starts_with("wifi.standard: unknown standard \"xxxx") && e.len() < 200, "{e}");
        assert!(e.contains("... (5000 characters); allowed: 80211a, 80211b, 80211g"), "{e}");
        let e = error_with(|v| {
            v["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0,
                "payload_bytes": 1460, "tcp": {"recovery": long}});
        });
        assert!(e.starts_with("flows.0.tcp.recovery: unknown loss recovery \"xxx") && e.len() < 200, "{e}");
        let e = error_with(|v| v["nodes"][1]["name"] = "ap".into());
        assert_eq!(e, "nodes.1.name: \"ap\" is empty or not unique");
    }

    #[test]
    fn graph_errors_show_the_value() {
        let e = error_with(|v| v["flows"][0]["dst"] = 1.into());
        assert_eq!(e, "flows.0.dst: 1 is also the flow's src; allowed: another node index");
        let e = error_with(|v| v["flows"][0]["src"] = 2.into());
        assert_eq!(e, "flows.0.src: node index 2 out of range; allowed: 0..2");
        let e = error_with(|v| {
            v["channel"]["matrix"] = serde_json::json!({"rx": [[0, 1], [1, 0]], "cs": [[0, 1], [2, 0]]})
        });
        assert_eq!(e, "channel.matrix.cs.1.0: 2 is out of range; allowed: 0 or 1");
    }
}
