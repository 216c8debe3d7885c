//! `airtcp._core`: the thin PyO3 layer over airtcp-core. No model logic lives here.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use airtcp_core::Column;

/// Run a JSON world spec with `seed`; returns (summary JSON, {trace: {column: list}}).
#[pyfunction]
fn run(py: Python<'_>, spec_json: &str, seed: u64) -> PyResult<(String, Py<PyDict>)> {
    let spec = spec_json.to_owned();
    let out = py
        .allow_threads(move || airtcp_core::run_json(&spec, seed))
        .map_err(|e| PyValueError::new_err(e.0))?;
    let summary =
        serde_json::to_string(&out.summary).map_err(|e| PyValueError::new_err(format!("summary: {e}")))?;
    let traces = PyDict::new(py);
    for (name, columns) in out.traces {
        let table = PyDict::new(py);
        for (col, values) in columns {
            match values {
                Column::U64(v) => table.set_item(col, v)?,
                Column::U32(v) => table.set_item(col, v)?,
                Column::OptU64(v) => table.set_item(col, v)?,
                Column::OptU32(v) => table.set_item(col, v)?,
                Column::Str(v) => table.set_item(col, v)?,
                Column::Bool(v) => table.set_item(col, v)?,
                Column::F64(v) => table.set_item(col, v)?,
                Column::Bytes { data, ends } => {
                    let mut start = 0usize;
                    let mut items = Vec::with_capacity(ends.len());
                    for end in ends {
                        let end = end as usize;
                        items.push(PyBytes::new(py, &data[start..end]));
                        start = end;
                    }
                    table.set_item(col, items)?;
                }
            }
        }
        traces.set_item(name, table)?;
    }
    Ok((summary, traces.unbind()))
}

/// Airtime of an MPDU of `size_bytes` [ns] (exposed for cross-checks against airtcp.analytic).
#[pyfunction]
#[pyo3(signature = (standard, rate_mbps, size_bytes, preamble = "long"))]
fn tx_duration_ns(standard: &str, rate_mbps: f64, size_bytes: u32, preamble: &str) -> PyResult<u64> {
    let std = airtcp_core::phy::Standard::parse(standard)
        .ok_or_else(|| PyValueError::new_err(format!("standard: unknown {standard:?}")))?;
    let kbps =
        airtcp_core::spec::rate_kbps(std, rate_mbps, "rate_mbps").map_err(|e| PyValueError::new_err(e.0))?;
    let mode = std.mode(kbps).ok_or_else(|| PyValueError::new_err("rate_mbps: no mode"))?;
    let pre = match preamble {
        "long" => airtcp_core::phy::Preamble::Long,
        "short" => airtcp_core::phy::Preamble::Short,
        other => return Err(PyValueError::new_err(format!("preamble: unknown {other:?}"))),
    };
    Ok(airtcp_core::phy::TxVector::new(mode, pre).duration(size_bytes).ns())
}

/// The core's name tables and limits as JSON text (PHY modes, congestion controls, loss
/// recoveries, rate controls, bounds): Python's copy of each comes from here.
#[pyfunction]
fn tables() -> String {
    airtcp_core::tables::tables().to_string()
}

/// Neighbours and computed routes of a topology (nodes, channel, wired_links,
/// blocked_radio_links as JSON text): JSON text `{"neighbours": [...], "next_hop": [...]}`.
#[pyfunction]
fn connectivity(topology_json: &str) -> PyResult<String> {
    airtcp_core::net::routing::connectivity_json(topology_json).map_err(|e| PyValueError::new_err(e.0))
}

/// [`connectivity`] in binary for large topologies: (node count, the routes as runs per node:
/// offsets (u32, n + 1), run starts (u32), next hops (i32: -2 the destination itself, -1
/// none), all little-endian; neighbours as a bitmap of ceil(n / 8)-byte rows).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn connectivity_bytes<'py>(
    py: Python<'py>,
    topology_json: &str,
) -> PyResult<(usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (n, r, bits) = airtcp_core::net::routing::connectivity_bytes(topology_json)
        .map_err(|e| PyValueError::new_err(e.0))?;
    Ok((
        n,
        PyBytes::new(py, &r.offsets),
        PyBytes::new(py, &r.starts),
        PyBytes::new(py, &r.hops),
        PyBytes::new(py, &bits),
    ))
}

/// Probability that `bits` bits sent at `mode` (a mode name, e.g. "OfdmRate54Mbps") survive an
/// SNR of `snr_db` under the error-rate model `model` ("nist" or "yans"), as
/// `airtcp_core::phy::error::ErrorRateModel::chunk_success` (exposed for the ns-3 cross-check).
#[pyfunction]
fn chunk_success(model: &str, mode: &str, snr_db: f64, bits: &Bound<'_, PyAny>) -> PyResult<f64> {
    use airtcp_core::phy::error::ErrorRateModel;
    let erm = ErrorRateModel::parse(model).ok_or_else(|| {
        PyValueError::new_err(format!(
            "model: unknown {model:?}; allowed: {}",
            ErrorRateModel::NAMES.join(", ")
        ))
    })?;
    let mode_id = airtcp_core::phy::ModeId::by_name(mode)
        .ok_or_else(|| PyValueError::new_err(format!("mode: unknown {mode:?}")))?;
    if !snr_db.is_finite() {
        return Err(PyValueError::new_err(format!("snr_db: not finite ({snr_db})")));
    }
    let nbits: u64 = bits
        .extract()
        .map_err(|_| PyValueError::new_err(format!("bits: not an integer 0..=2^64-1 ({})", bits)))?;
    Ok(erm.chunk_success(10f64.powf(snr_db / 10.0), mode_id, nbits))
}

/// A world stepped by a learning agent (`airtcp.gym`): built from a JSON world spec, advanced
/// to each decision time, read and acted on between steps. Lives in one thread.
#[pyclass(unsendable, module = "airtcp._core")]
struct Sim {
    world: airtcp_core::world::World,
    finished: bool,
}

fn node(i: u32) -> airtcp_core::ids::NodeId {
    airtcp_core::ids::NodeId(i)
}

#[pymethods]
impl Sim {
    #[new]
    fn new(spec_json: &str, seed: u64) -> PyResult<Sim> {
        let spec = airtcp_core::WorldSpec::from_json(spec_json).map_err(|e| PyValueError::new_err(e.0))?;
        let world = airtcp_core::world::World::build(&spec, seed).map_err(|e| PyValueError::new_err(e.0))?;
        Ok(Sim { world, finished: false })
    }

    /// Run every event up to `until_ns` (at most the run's end); true once the end is reached.
    fn advance(&mut self, until_ns: u64) -> PyResult<bool> {
        if self.finished {
            return Err(PyValueError::new_err("advance: the run has ended (summary_json was read)"));
        }
        Ok(self.world.advance(airtcp_core::time::SimTime(until_ns)))
    }

    #[getter]
    fn now_ns(&self) -> u64 {
        self.world.now().ns()
    }

    #[getter]
    fn end_ns(&self) -> u64 {
        self.world.duration_end.ns()
    }

    /// `(name, rate in bit/s)` of the modes an agent may set for `node`'s peers, lowest first
    /// (empty unless the node's rate control is "agent").
    fn agent_modes(&self, node_index: u32) -> Vec<(&'static str, u64)> {
        self.world
            .agent_modes(node(node_index))
            .unwrap_or(&[])
            .iter()
            .map(|m| (m.name(), u64::from(m.rate_kbps()) * 1000))
            .collect()
    }

    /// Send `node`'s data frames to `peer` at mode `index` of `agent_modes(node)` from now on.
    fn set_mode(&mut self, node_index: u32, peer: u32, index: usize) -> PyResult<()> {
        self.world.agent_set_mode(node(node_index), node(peer), index).map_err(PyValueError::new_err)
    }

    /// `(attempts, acked, given_up, last_rate_bps)` of `node`'s data MPDUs toward `peer`:
    /// MPDU transmissions (every subframe of an A-MPDU), MPDUs acknowledged and given up.
    fn link(&self, node_index: u32, peer: u32) -> PyResult<(u64, u64, u64, u64)> {
        let v = self.world.link_view(node(node_index), node(peer)).ok_or_else(|| {
            PyValueError::new_err(format!("node/peer: {node_index}/{peer} (not WiFi nodes)"))
        })?;
        Ok((v.mpdus_sent, v.acked, v.given_up, v.last_rate_bps))
    }

    /// SNR [dB] of the last frame `node` received from `peer` addressed to it (radio model,
    /// with some node's rate control "agent"), else None.
    fn peer_snr_db(&self, node_index: u32, peer: u32) -> Option<f64> {
        self.world.peer_snr_db(node(node_index), node(peer))
    }

    /// The TCP sender of `flow` as a dict, or None for a flow that is not TCP.
    fn tcp<'py>(&self, py: Python<'py>, flow: u32) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(v) = self.world.tcp_view(airtcp_core::ids::FlowId(flow)) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("cwnd", v.cwnd)?;
        d.set_item("ssthresh", v.ssthresh)?;
        d.set_item("mss_bytes", v.mss_bytes)?;
        d.set_item("srtt_ns", v.srtt_ns)?;
        d.set_item("min_rtt_ns", v.min_rtt_ns)?;
        d.set_item("last_rtt_ns", v.last_rtt_ns)?;
        d.set_item("in_flight_bytes", v.in_flight_bytes)?;
        d.set_item("acked_bytes", v.acked_bytes)?;
        d.set_item("retransmissions", v.retransmissions)?;
        d.set_item("timeouts", v.timeouts)?;
        d.set_item("fast_retransmits", v.fast_retransmits)?;
        Ok(Some(d))
    }

    /// Set `flow`'s congestion window [segments] (its cc must be "agent").
    fn set_cwnd(&mut self, flow: u32, segments: u32) -> PyResult<()> {
        self.world.agent_set_cwnd(airtcp_core::ids::FlowId(flow), segments).map_err(PyValueError::new_err)
    }

    /// Bytes `flow`'s destination application received so far (since the warm-up's end).
    fn delivered_bytes(&self, flow: u32) -> PyResult<u64> {
        self.world
            .flow_delivered_bytes(airtcp_core::ids::FlowId(flow))
            .ok_or_else(|| PyValueError::new_err(format!("flow: {flow} (no such flow)")))
    }

    /// Run to the end and close the run; its summary as JSON. The world cannot advance after.
    fn summary_json(&mut self) -> PyResult<String> {
        if !self.finished {
            self.world.advance(self.world.duration_end);
            self.world.finish();
            self.finished = true;
        }
        let summary = airtcp_core::Summary::of(&self.world);
        serde_json::to_string(&summary).map_err(|e| PyValueError::new_err(format!("summary: {e}")))
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Sim>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(connectivity_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tables, m)?)?;
    m.add_function(wrap_pyfunction!(connectivity, m)?)?;
    m.add_function(wrap_pyfunction!(tx_duration_ns, m)?)?;
    m.add_function(wrap_pyfunction!(chunk_success, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
