//! The world spec: the explicit, validated description of one run (docs/world-spec.md).
//!
//! Python expands a user scenario into this form; the core checks it again and never panics
//! on it: every problem becomes a [`SpecError`] naming the field path, the value and what is
//! allowed.
//!
//! One file per section, each section's types beside their checks: `wifi`, `channel`, `net`
//! (`nodes`, `wired_links`, `routes`), `flows` with their `tcp` and `clap` parameters, `traces`;
//! the JSON layer's messages in `locate`. Every type is re-exported here.

mod channel;
mod clap;
mod flows;
mod locate;
mod mesh;
mod net;
pub mod profiles;
#[cfg(test)]
mod schema_tests;
mod tcp;
#[cfg(test)]
mod tests;
mod traces;
mod wifi;

pub use channel::{
    CaptureSpec, ChannelSpec, ErrorSpec, FadingSpec, MatrixSpec, PathLossSpec, PreambleDetectionSpec,
    RadioSpec,
};
pub use clap::{ClapSpec, MAX_CLAP_MSS_BYTES};
pub use flows::{
    AcSpec, FlowKind, FlowSpec, OnOffSpec, PeriodDist, MAX_FILE_BYTES, MAX_PERIOD_NS, MAX_REPORT_INTERVALS,
    MAX_UDP_PAYLOAD_BYTES, UDP_IP_HEADER_BYTES,
};
pub use mesh::{MeshMetric, MeshSpec, METRICS as MESH_METRICS};
pub use net::{MobilitySpec, NodeSpec, Role, RouteSpec, TopologySpec, WaypointSpec, WiredLinkSpec};
pub use tcp::{TcpSpec, MAX_INITIAL_CWND, MAX_MSS_BYTES};
pub use traces::TraceSpec;
pub use wifi::{
    rate_kbps, Access, Aggregation, AmpduAdaptation, ArfWindowRtt, BackoffRule, MinstrelStatus, PreambleSpec,
    QdiscKind, WifiSpec, MAX_RETRY_LIMIT,
};

use serde::Deserialize;

/// The JSON Schema (2020-12) of a world spec, derived from these types: every field with its
/// type, its default where it has one, the names a name family allows, the bounds its check
/// enforces where they are constant, and its doc comment as its description
/// (`airtcp._core.world_spec_schema()`; `schema_tests` holds the bounds to the checks).
pub fn schema() -> serde_json::Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(WorldSpec)).expect("a schema serialises");
    // Each TCP profile's table, for the scenario layer, the canonical form and the docs.
    let profile = &mut schema["$defs"]["TcpSpec"]["properties"]["profile"];
    profile["x-profiles"] = profiles::tables();
    profile["x-profile-sources"] = profiles::sources();
    schema
}

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

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    /// Simulated time [ns], > 0.
    #[schemars(range(min = 1))]
    pub duration_ns: u64,
    /// Start of the measured period [ns], < `duration_ns`: report counters (the summary, the
    /// `packets` trace) count from here on.
    #[serde(default)]
    pub warmup_ns: u64,
    /// The standard, the rates and the MAC parameters every WiFi node shares.
    pub wifi: WifiSpec,
    /// Who hears whom (ranges, an explicit matrix, or the radio model) and the error model.
    pub channel: ChannelSpec,
    /// The nodes, at least one; every node index in the spec is a 0-based position here.
    pub nodes: Vec<NodeSpec>,
    /// Point-to-point wired links between nodes.
    #[serde(default)]
    pub wired_links: Vec<WiredLinkSpec>,
    /// Explicit routes; every other route is computed by the core (`net::routing`).
    #[serde(default)]
    pub routes: Vec<RouteSpec>,
    /// Radio links the routes must not use, as node index pairs (either direction).
    #[serde(default)]
    pub blocked_radio_links: Vec<[u32; 2]>,
    /// The traffic sources.
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    /// Which time series and records the run returns besides its summary.
    #[serde(default)]
    pub traces: TraceSpec,
    /// 802.11s for the nodes of role `mesh` (required with them, refused without).
    #[serde(default)]
    pub mesh: Option<MeshSpec>,
}

fn default_queue() -> u32 {
    100
}

/// Largest interface or link queue [packets]. A saturating source keeps its queue full, so
/// the queue limit is memory: 100 000 packets is far beyond any real interface (Linux
/// txqueuelen 1000, ns-3 100) and keeps a full queue within a few MB.
pub const MAX_QUEUE_PACKETS: u32 = 100_000;

impl WorldSpec {
    /// Parse a JSON world spec. An error names the field path (`wifi.cw_min`,
    /// `flows.2.tcp.cc`; `spec` for the document as a whole), what was found (a short prefix
    /// of it) and what is allowed.
    pub fn from_json(text: &str) -> Result<WorldSpec, SpecError> {
        let mut value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| locate::syntax_error(text, &e))?;
        profiles::apply(&mut value);
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
        // Section by section, in this order: the first problem found is the one reported.
        self.wifi.validate()?;
        self.channel.validate(self.nodes.len())?;
        for (name, on) in [("receptions", self.traces.receptions), ("positions", self.traces.positions)] {
            if on && self.channel.radio.is_none() {
                return err(
                    &format!("traces.{name}"),
                    "true needs channel.radio (the range model has no powers and no motion); allowed: false",
                );
            }
        }
        let standard = self.wifi.standard();
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(rc) = node.rate_control {
                wifi::check_rate_control(standard, rc, &format!("nodes.{i}.rate_control"))?;
            }
        }
        self.wifi.check_initial_rate_used(self.nodes.iter().filter_map(|n| n.rate_control))?;
        self.wifi.check_minstrel_status_used(self.nodes.iter().filter_map(|n| n.rate_control))?;
        if let Some(radio) = &self.channel.radio {
            radio.validate_rates(standard)?;
            let tgn = matches!(radio.fading, channel::FadingSpec::Tgn { .. });
            if tgn && matches!(standard, crate::phy::Standard::Ac(_) | crate::phy::Standard::Ax(_)) {
                return err(
                    "channel.radio.fading.kind",
                    format!(
                        "\"tgn\" is not modelled on {} (its 80 and 160 MHz subcarriers are not); allowed \
                         there: \"rayleigh\", \"nakagami\", \"doppler\" or none",
                        standard.name()
                    ),
                );
            }
        }
        if self.mesh.is_some()
            && matches!(standard, crate::phy::Standard::Ac(_) | crate::phy::Standard::Ax(_))
        {
            return err(
                "mesh",
                format!(
                    "set with standard {}: 802.11s over VHT and HE (their capability elements) is not \
                     modelled yet; allowed: 80211a, 80211b, 80211g, 80211n",
                    standard.name()
                ),
            );
        }
        let n = net::validate_nodes(&self.nodes)?;
        net::validate_wired_links(&self.wired_links, n)?;
        net::validate_routes(&self.routes, n)?;
        net::validate_blocked(&self.blocked_radio_links, n)?;
        mesh::validate_mesh(self)?;
        flows::validate_flows(&self.flows, &self.nodes, self.duration_ns.saturating_sub(self.warmup_ns))
    }
}
