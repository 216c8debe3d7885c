//! The `mesh` section: how the mesh points (nodes of role `mesh`) run 802.11s, with Linux's
//! defaults (`net/wireless/mesh.c`).

use serde::Deserialize;

use super::{err, Role, SpecError, WorldSpec};

crate::names::names! {
    /// The Airtime Link Metric's arithmetic (`mesh::metric`): Linux 3.12's integer metric with
    /// its 32-bit product (paper 000's kernel), or the same with the 64-bit product of current
    /// kernels.
    pub enum MeshMetric {
        Linux312 = "linux-3.12",
        Linux = "linux",
    }
}

/// The metrics' names.
pub const METRICS: &[&str] = MeshMetric::NAMES;

#[derive(Clone, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeshSpec {
    /// Mesh beacon interval [TU] (`MESH_DEFAULT_BEACON_INTERVAL`: 1000).
    #[serde(default = "default_beacon_interval")]
    #[schemars(range(min = 10, max = 65535))]
    pub beacon_interval_tu: u32,
    /// `linux-3.12`: Linux 3.12's integer metric with its 32-bit product (paper 000's kernel);
    /// `linux`: the same with the 64-bit product of current kernels.
    #[serde(default = "default_metric")]
    pub metric: MeshMetric,
    /// `dot11MeshHWMPactivePathTimeout` [TU] (5000 ms: 4882): a path lives this long after its
    /// last PREQ or PREP.
    #[serde(default = "default_path_timeout")]
    #[schemars(range(min = 1, max = 655_350))]
    pub active_path_timeout_tu: u32,
    /// `dot11MeshHWMPmaxPREQretries` (4): path discovery retries before the queued frames are
    /// dropped.
    #[serde(default = "default_preq_retries")]
    #[schemars(range(max = 30))]
    pub max_preq_retries: u8,
    /// Paper 000's proposed remedy at every mesh point (`xlayer::alm_retry`): the retry limit
    /// follows the diameter estimate of its path table, polled every `alm_retry_interval_ms`.
    #[serde(default)]
    pub alm_retry: bool,
    /// How often the remedy reads the path table (a user-space daemon's poll).
    #[serde(default = "default_alm_interval")]
    #[schemars(range(min = 1, max = 1e7))]
    pub alm_retry_interval_ms: f64,
    /// The remedy's map from path metric to travel time: microseconds per unit of metric for
    /// each retry limit 0..=31 (32 numbers >= 0; a measured map, paper 000's future work);
    /// unset: Table III's normal case (`TravelMap::table_iii_normal`).
    #[serde(default)]
    pub alm_travel_us_per_metric: Option<Vec<f64>>,
}

fn default_alm_interval() -> f64 {
    1000.0
}

fn default_beacon_interval() -> u32 {
    1000
}
fn default_metric() -> MeshMetric {
    MeshMetric::Linux312
}
fn default_path_timeout() -> u32 {
    4882
}
fn default_preq_retries() -> u8 {
    4
}

impl Default for MeshSpec {
    fn default() -> Self {
        MeshSpec {
            beacon_interval_tu: default_beacon_interval(),
            metric: default_metric(),
            active_path_timeout_tu: default_path_timeout(),
            max_preq_retries: default_preq_retries(),
            alm_retry: false,
            alm_retry_interval_ms: default_alm_interval(),
            alm_travel_us_per_metric: None,
        }
    }
}

/// Check the `mesh` section and the mesh points against the rest of the world.
pub(super) fn validate_mesh(spec: &WorldSpec) -> Result<(), SpecError> {
    let meshes = spec.nodes.iter().filter(|n| n.role == Role::Mesh).count();
    let Some(m) = &spec.mesh else {
        if meshes > 0 {
            return err(
                "mesh",
                "missing: nodes of role \"mesh\" need the mesh section (an empty one takes Linux's defaults)",
            );
        }
        return Ok(());
    };
    if meshes == 0 {
        return err("mesh", "is set but no node has role \"mesh\"");
    }
    if !(10..=65535).contains(&m.beacon_interval_tu) {
        return err(
            "mesh.beacon_interval_tu",
            format!("{} is out of range; allowed: 10..=65535 TU", m.beacon_interval_tu),
        );
    }
    if !(1..=655_350).contains(&m.active_path_timeout_tu) {
        return err(
            "mesh.active_path_timeout_tu",
            format!("{} is out of range; allowed: 1..=655350 TU", m.active_path_timeout_tu),
        );
    }
    if !(m.alm_retry_interval_ms.is_finite() && (1.0..=1e7).contains(&m.alm_retry_interval_ms)) {
        return err(
            "mesh.alm_retry_interval_ms",
            format!("{} is out of range; allowed: 1..=1e7 ms", super::num(m.alm_retry_interval_ms)),
        );
    }
    if let Some(map) = &m.alm_travel_us_per_metric {
        if map.len() != 32 {
            return err(
                "mesh.alm_travel_us_per_metric",
                format!("{} values; allowed: 32 (retry limits 0..=31)", map.len()),
            );
        }
        if let Some((i, v)) = map.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
            return err(
                &format!("mesh.alm_travel_us_per_metric[{i}]"),
                format!("{} is out of range; allowed: a finite number >= 0 us", super::num(*v)),
            );
        }
    }
    if m.max_preq_retries > 30 {
        return err(
            "mesh.max_preq_retries",
            format!("{} is out of range; allowed: 0..=30", m.max_preq_retries),
        );
    }
    if spec.wifi.access != super::Access::Edca {
        return err(
            "wifi.access",
            "\"dcf\" cannot carry a mesh: 802.11s data frames are QoS data (the Mesh Control Present bit is in QoS Control, 9.2.4.5.1); allowed: \"edca\"",
        );
    }
    if spec.wifi.beacon_interval_tu.is_some() {
        return err(
            "wifi.beacon_interval_tu",
            "is for access points; mesh points beacon at mesh.beacon_interval_tu",
        );
    }
    if let Some(i) = spec.nodes.iter().position(|n| n.role == Role::Ap) {
        return err(&format!("nodes.{i}.role"), "\"ap\" in a mesh: mesh gates and access points beside a mesh are not built; allowed: mesh, adhoc, host");
    }
    Ok(())
}
