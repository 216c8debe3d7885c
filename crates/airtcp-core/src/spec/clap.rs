//! A CLAP flow's parameters (`flows.i.clap`, docs/clap.md) and the checks of a clap_file flow.

use serde::Deserialize;

use super::flows::{FlowSpec, MAX_FILE_BYTES};
use super::net::NodeSpec;
use super::{err, num, quoted, SpecError};
use crate::mac::frame::MAX_MSDU_BYTES;

/// CLAP parameters of one flow (docs/clap.md gives the reason for each default).
#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ClapSpec {
    /// Payload per data segment [bytes] (paper 001: 1000).
    #[schemars(range(min = 1, max = MAX_CLAP_MSS_BYTES))]
    pub mss_bytes: u32,
    /// The receiver sends one aggregate feedback per interval [ms].
    #[schemars(range(min = 0.001))]
    pub feedback_interval_ms: f64,
    /// NACK ranges per feedback (8 bytes each); beyond it the list names the lowest holes.
    #[schemars(range(min = 1, max = crate::clap::MAX_NACK_RANGES))]
    pub max_nack_ranges: u8,
    /// MAC queue the rate law aims at [frames] (q* in docs/clap.md).
    pub queue_target_frames: u32,
    /// New segments only below the cumulative point + this many [segments].
    #[schemars(range(min = 1))]
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

/// Largest CLAP segment [bytes]: the segment plus 40 bytes of CLAP/IP headers (20 IPv4, 20
/// CLAP) must fit one MSDU with its 8 bytes of LLC/SNAP.
pub const MAX_CLAP_MSS_BYTES: u32 = MAX_MSDU_BYTES - 8 - 40;

/// Check the CLAP side of flow `i`: its file size, its sender among the `nodes` and its
/// `clap` parameters.
pub(super) fn validate_clap(i: usize, f: &FlowSpec, nodes: &[NodeSpec]) -> Result<(), SpecError> {
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
    if c.mss_bytes == 0 || c.mss_bytes > MAX_CLAP_MSS_BYTES {
        return err(
            &path("clap.mss_bytes"),
            format!("{} is out of range; allowed: 1..={MAX_CLAP_MSS_BYTES}", c.mss_bytes),
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
