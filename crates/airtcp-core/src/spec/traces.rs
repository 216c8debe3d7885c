//! The `traces` section: which time series and records a run returns besides its summary.

use serde::Deserialize;

#[derive(Clone, Copy, Debug, Default, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    /// One row per MAC transmission attempt.
    #[serde(default)]
    pub mac_tx: bool,
    /// TCP sender state (cwnd, ssthresh, srtt, rto, bytes in flight, CA state) per change.
    #[serde(default)]
    pub tcp: bool,
    /// TCP segment events: sent, retransmit, acked, dupack, timeout.
    #[serde(default)]
    pub tcp_segments: bool,
    /// One row per delivered UDP packet (flow, sequence number, creation and delivery time).
    #[serde(default)]
    pub packets: bool,
    /// Every frame sent or decoded, with its header bytes, for pcap export (docs/pcap.md).
    #[serde(default)]
    pub frames: bool,
    /// Every change of a peer's data mode by rate control.
    #[serde(default)]
    pub rates: bool,
    /// Radio model: every locked reception, with its power, SNR and worst SINR.
    #[serde(default)]
    pub receptions: bool,
    /// Radio model: where a moving node is at each frame it starts.
    #[serde(default)]
    pub positions: bool,
    /// Paper 003's window decisions: each rate change a station acted on and the window set.
    #[serde(default)]
    pub windows: bool,
    /// 802.11n: every MPDU of an A-MPDU as its PPDU ends (acknowledged, retried, given up).
    #[serde(default)]
    pub mpdus: bool,
}
