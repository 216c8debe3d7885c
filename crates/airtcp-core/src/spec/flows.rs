//! The `flows` section: the traffic sources, their kind, ends, timing and reporting.

use serde::Deserialize;

use super::clap::{validate_clap, ClapSpec};
use super::net::{node_ref, NodeSpec};
use super::tcp::{validate_tcp, TcpSpec};
use super::{err, num, SpecError};
use crate::mac::frame::MAX_MSDU_BYTES;

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FlowKind {
    /// A UDP source that always has a packet queued (no `rate_bps`).
    UdpSaturating,
    /// UDP packets at a constant bit rate, `rate_bps`.
    UdpCbr,
    /// Packets at exponential gaps of mean payload x 8 / `rate_bps` (a Poisson process).
    UdpPoisson,
    /// ns-3's OnOffApplication: `rate_bps` while on, nothing while off (`on_off`).
    UdpOnoff,
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
            FlowKind::UdpPoisson => "udp_poisson",
            FlowKind::UdpOnoff => "udp_onoff",
            FlowKind::TcpBulk => "tcp_bulk",
            FlowKind::TcpFile => "tcp_file",
            FlowKind::ClapFile => "clap_file",
        }
    }

    pub fn is_tcp(self) -> bool {
        matches!(self, FlowKind::TcpBulk | FlowKind::TcpFile)
    }

    /// A UDP source paced by a rate (`rate_bps`): CBR, Poisson or on/off.
    pub fn is_paced(self) -> bool {
        matches!(self, FlowKind::UdpCbr | FlowKind::UdpPoisson | FlowKind::UdpOnoff)
    }
}

/// How long an on or an off period lasts.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PeriodDist {
    /// Exponential with the given mean (ns-3 `ExponentialRandomVariable`).
    Exponential,
    /// Pareto with the given mean and `pareto_shape` > 1 (ns-3 `ParetoRandomVariable`:
    /// scale = mean (shape - 1) / shape): heavy-tailed bursts.
    Pareto,
}

fn exponential() -> PeriodDist {
    PeriodDist::Exponential
}

fn default_shape() -> f64 {
    1.5
}

/// The on and off periods of a `udp_onoff` flow (ns-3 OnOffApplication `OnTime`, `OffTime`).
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OnOffSpec {
    /// The mean on period (ns-3 `OnTime`).
    #[schemars(range(min = 1, max = MAX_PERIOD_NS))]
    pub on_mean_ns: u64,
    /// The mean off period (ns-3 `OffTime`).
    #[schemars(range(min = 1, max = MAX_PERIOD_NS))]
    pub off_mean_ns: u64,
    /// Each period around its mean: "exponential" or "pareto" (heavy-tailed bursts).
    #[serde(default = "exponential")]
    pub distribution: PeriodDist,
    /// The Pareto periods' shape (> 1: a finite mean; > 2: a finite variance); checked
    /// whatever the distribution.
    #[serde(default = "default_shape")]
    #[schemars(range(max = 100), extend("exclusiveMinimum" = 1))]
    pub pareto_shape: f64,
}

crate::names::names! {
    /// An 802.11e access category (Table 10-1).
    pub enum AcSpec {
        Bk = "bk",
        Be = "be",
        Vi = "vi",
        Vo = "vo",
    }
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

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// What the source is: UDP saturating, CBR, Poisson or on/off; a TCP bulk or file
    /// transfer; a CLAP file transfer.
    pub kind: FlowKind,
    /// The sender, a node index.
    pub src: u32,
    /// The receiver, a node index other than `src`, reachable from it (and back, for TCP and
    /// CLAP).
    pub dst: u32,
    /// UDP payload per packet (TCP flows send `tcp.mss_bytes`, CLAP flows `clap.mss_bytes`);
    /// at most the 2304-byte MSDU less LLC/SNAP, UDP and IPv4 headers.
    #[schemars(range(min = 1, max = MAX_UDP_PAYLOAD_BYTES))]
    pub payload_bytes: u32,
    /// The offered load: CBR's, a Poisson source's mean, an on/off source's while on; required
    /// by udp_cbr, udp_poisson and udp_onoff, refused for the other kinds.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub rate_bps: Option<f64>,
    /// When the source starts (a TCP flow opens its connection).
    #[serde(default)]
    pub start_ns: u64,
    /// When the source stops, > `start_ns`; unset: at the end of the run.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub stop_ns: Option<u64>,
    /// The EDCA access category, "bk", "be", "vi" or "vo" (Table 10-1; DCF ignores it).
    #[serde(default = "default_ac")]
    pub ac: AcSpec,
    /// Bytes to transfer: required by tcp_file and clap_file (at most 2^32 - 1 segments of
    /// `clap.mss_bytes`), refused for the other kinds.
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_FILE_BYTES))]
    pub file_bytes: Option<u64>,
    /// Report goodput per interval of this length after the warm-up (iperf's -i); at most
    /// 10^6 intervals over the measured time (`duration_ns - warmup_ns`).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub report_interval_ns: Option<u64>,
    /// TCP parameters (tcp_bulk and tcp_file; defaults when absent).
    #[serde(default)]
    pub tcp: Option<TcpSpec>,
    /// CLAP parameters (clap_file; defaults when absent).
    #[serde(default)]
    pub clap: Option<ClapSpec>,
    /// The on and off periods (udp_onoff only, required there).
    #[serde(default)]
    pub on_off: Option<OnOffSpec>,
    /// The flow starts at `start_ns` plus a uniform draw in [0, this) [ns], the same for a
    /// seed (the flow's own stream: its ends' names and its rank among their flows); the sum
    /// must stay below `stop_ns`.
    #[serde(default)]
    pub start_jitter_ns: u64,
}

impl OnOffSpec {
    fn validate(&self, i: usize) -> Result<(), SpecError> {
        for (name, v) in [("on_mean_ns", self.on_mean_ns), ("off_mean_ns", self.off_mean_ns)] {
            if !(1..=MAX_PERIOD_NS).contains(&v) {
                return err(
                    &format!("flows.{i}.on_off.{name}"),
                    format!("{v} is out of range; allowed: 1..={MAX_PERIOD_NS} ns"),
                );
            }
        }
        let a = self.pareto_shape;
        if !(a.is_finite() && a > 1.0 && a <= 100.0) {
            return err(
                &format!("flows.{i}.on_off.pareto_shape"),
                format!("{} is out of range; allowed: > 1 (a finite mean) and <= 100", num(a)),
            );
        }
        Ok(())
    }
}

/// The longest mean on or off period [ns] (10^7 s, the longest run).
pub const MAX_PERIOD_NS: u64 = 10_000_000 * 1_000_000_000;

/// UDP (8) + IPv4 (20) header bytes on top of an application payload.
pub const UDP_IP_HEADER_BYTES: u32 = 28;

/// Largest UDP payload that fits one unfragmented MSDU.
pub const MAX_UDP_PAYLOAD_BYTES: u32 = MAX_MSDU_BYTES - 8 - UDP_IP_HEADER_BYTES;

/// Most goodput reporting intervals of one flow over the measured time (one counter each).
pub const MAX_REPORT_INTERVALS: u64 = 1_000_000;

/// Largest file of a tcp_file or clap_file flow [bytes] (1 PB: days of simulated time at any
/// rate modelled; TCP's sequence arithmetic adds to it).
pub const MAX_FILE_BYTES: u64 = 1_000_000_000_000_000;

/// Check the `flows` section, flow by flow, against the `nodes` and the time `measured` after
/// the warm-up [ns].
pub(super) fn validate_flows(flows: &[FlowSpec], nodes: &[NodeSpec], measured: u64) -> Result<(), SpecError> {
    for (i, f) in flows.iter().enumerate() {
        f.validate(i, nodes, measured)?;
    }
    Ok(())
}

impl FlowSpec {
    /// Check flow `i` (its path is `flows.i`); its TCP or CLAP parameters too.
    fn validate(&self, i: usize, nodes: &[NodeSpec], measured: u64) -> Result<(), SpecError> {
        let f = self;
        let n = nodes.len() as u32;
        node_ref(format!("flows.{i}.src"), f.src, n)?;
        node_ref(format!("flows.{i}.dst"), f.dst, n)?;
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
            validate_clap(i, f, nodes)?;
        } else if f.file_bytes.is_some() {
            return err(&format!("flows.{i}.file_bytes"), "only tcp_file and clap_file flows take one");
        }
        if f.clap.is_some() && f.kind != FlowKind::ClapFile {
            return err(&format!("flows.{i}.clap"), "only clap_file flows take CLAP parameters");
        }
        if let Some(every) = f.report_interval_ns {
            // One counter per interval of the measured time: bound their number.
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
                return err(&format!("flows.{i}.rate_bps"), "CLAP flows take no rate (their MAC sets it)");
            }
            (k, Some(r)) if k.is_paced() && r.is_finite() && r > 0.0 => {}
            (k @ (FlowKind::UdpCbr | FlowKind::UdpPoisson | FlowKind::UdpOnoff), r) => {
                return err(
                    &format!("flows.{i}.rate_bps"),
                    format!(
                        "{} is out of range; allowed: a finite rate > 0 bit/s ({} needs one)",
                        r.map_or("nothing".into(), num),
                        k.name()
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
        match (f.kind, &f.on_off) {
            (FlowKind::UdpOnoff, Some(o)) => o.validate(i)?,
            (FlowKind::UdpOnoff, None) => {
                return err(
                    &format!("flows.{i}.on_off"),
                    "missing; allowed: {on_mean_ns, off_mean_ns} (udp_onoff needs one)",
                );
            }
            (_, Some(_)) => {
                return err(&format!("flows.{i}.on_off"), "only udp_onoff flows take on/off periods")
            }
            (_, None) => {}
        }
        if f.start_ns.checked_add(f.start_jitter_ns).is_none_or(|t| f.stop_ns.is_some_and(|s| t >= s)) {
            return err(
                &format!("flows.{i}.start_jitter_ns"),
                format!("{} is out of range; allowed: start_ns + jitter below stop_ns", f.start_jitter_ns),
            );
        }
        Ok(())
    }
}
