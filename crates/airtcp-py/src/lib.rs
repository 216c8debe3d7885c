//! `airtcp._core`: the thin PyO3 layer over airtcp-core. No model logic lives here.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use pyo3::buffer::PyBuffer;

use airtcp_core::world::agent::{CwndAgent, CWND_FACTORS, CWND_OBS};
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

/// The JSON Schema of a world spec as JSON text, derived from the core's spec types: every
/// field's type, default, allowed names and description.
#[pyfunction]
fn world_spec_schema() -> String {
    airtcp_core::spec::schema().to_string()
}

/// Read and check a world spec as `run` does, without running it: `ValueError` with
/// `"<field path>: <message>"` if the core refuses it.
#[pyfunction]
fn check_world_spec(spec_json: &str) -> PyResult<()> {
    let spec = airtcp_core::WorldSpec::from_json(spec_json).map_err(|e| PyValueError::new_err(e.0))?;
    spec.validate().map_err(|e| PyValueError::new_err(e.0))
}

/// The JSON Schema of a run's summary as JSON text, derived from the core's summary types:
/// every key, its type, whether it is always there, and its description.
#[pyfunction]
fn summary_schema() -> String {
    airtcp_core::summary::schema().to_string()
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
    let (erm, mode_id, snr, nbits) = chunk_args(model, mode, snr_db, bits)?;
    Ok(erm.chunk_success(snr, mode_id, nbits))
}

/// The tabulated success of `bits` bits at `mode` and `snr_db` under `model`, with its bound on
/// the distance from [`chunk_success`], as the radio model reads it
/// (`airtcp_core::phy::success_table::bounded`): `(p, bound)`, or None where the exact model
/// answers (bench/bench_saturation.py prints the tables' largest error with it).
#[pyfunction]
fn chunk_success_tabulated(
    model: &str,
    mode: &str,
    snr_db: f64,
    bits: &Bound<'_, PyAny>,
) -> PyResult<Option<(f64, f64)>> {
    let (erm, mode_id, snr, nbits) = chunk_args(model, mode, snr_db, bits)?;
    let b = airtcp_core::phy::success_table::bounded(erm, snr, mode_id, nbits);
    Ok(b.map(|b| (b.p, b.err)))
}

/// The arguments of [`chunk_success`] checked: the model, the mode, the linear SNR, the bits.
fn chunk_args(
    model: &str,
    mode: &str,
    snr_db: f64,
    bits: &Bound<'_, PyAny>,
) -> PyResult<(airtcp_core::phy::error::ErrorRateModel, airtcp_core::phy::ModeId, f64, u64)> {
    use airtcp_core::phy::error::ErrorRateModel;
    let erm = ErrorRateModel::from_name(model).ok_or_else(|| {
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
    Ok((erm, mode_id, 10f64.powf(snr_db / 10.0), nbits))
}

/// The radio model's mean link budget (`airtcp_core::medium::mean_link`) of each directed link
/// `(i, j, mode, psdu_bytes)` of a topology (the JSON of `connectivity`, with `channel.radio`):
/// a dict per link of `distance_m`, `rx_dbm`, `noise_dbm`, `snr_db`, `least_rx_dbm` (the
/// least power the receiver locks at: the greatest of `hear_dbm`, the sensitivity at the
/// PPDU's width, `lock_dbm`, the mode's, and `detect_rssi_dbm`, preamble detection's, or
/// None), `detect_snr_db` (preamble detection's SNR, or None),
/// `locks`, `success` (of a PPDU at `mode` with a PSDU of `psdu_bytes` at the link's SNR: the
/// PHY header with it unless `phy_header` is false) and `needed_snr_db` (where that success
/// reaches `target`; inf if never).
#[pyfunction]
#[pyo3(signature = (topology_json, links, phy_header = true, short_preamble = false, target = 0.9))]
fn link_budgets<'py>(
    py: Python<'py>,
    topology_json: &str,
    links: Vec<(usize, usize, String, u32)>,
    phy_header: bool,
    short_preamble: bool,
    target: f64,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    use airtcp_core::medium::{mean_link, ppdu_success, snr_db_for};
    use airtcp_core::phy::{ModeId, Standard};
    let t =
        airtcp_core::spec::TopologySpec::from_json(topology_json).map_err(|e| PyValueError::new_err(e.0))?;
    let radio =
        t.channel.radio.as_ref().ok_or_else(|| {
            PyValueError::new_err("topology.channel.radio: missing (the radio model's budget)")
        })?;
    let standard = t.standard.map_or(Standard::A, |s| s.standard(None));
    if !(target > 0.0 && target <= 1.0) {
        return Err(PyValueError::new_err(format!(
            "target: {target} is out of range; allowed: 0 < target <= 1"
        )));
    }
    let model = radio.error_model();
    let n = t.nodes.len();
    let mut out = Vec::with_capacity(links.len());
    for (k, (i, j, mode, psdu_bytes)) in links.iter().enumerate() {
        if *i >= n || *j >= n || i == j {
            return Err(PyValueError::new_err(format!("links.{k}: ({i}, {j}) is not a link of {n} nodes")));
        }
        let mode = ModeId::by_name(mode)
            .ok_or_else(|| PyValueError::new_err(format!("links.{k}.mode: unknown {mode:?}")))?;
        let bits = u64::from(*psdu_bytes) * 8;
        let success = |snr: f64| {
            if phy_header {
                ppdu_success(model, snr, mode, short_preamble, bits)
            } else {
                model.chunk_success(snr, mode, bits)
            }
        };
        let l = mean_link(radio, standard, &t.nodes, *i, *j, mode);
        let d = PyDict::new(py);
        d.set_item("distance_m", l.distance_m)?;
        d.set_item("rx_dbm", l.rx_dbm)?;
        d.set_item("noise_dbm", l.noise_dbm)?;
        d.set_item("snr_db", l.snr_db())?;
        d.set_item("least_rx_dbm", l.least_rx_dbm())?;
        d.set_item("hear_dbm", l.hear_dbm)?;
        d.set_item("lock_dbm", l.lock_dbm)?;
        d.set_item("detect_rssi_dbm", l.detect.map(|(dbm, _)| dbm))?;
        d.set_item("detect_snr_db", l.detect.map(|(_, db)| db))?;
        d.set_item("locks", l.locks())?;
        d.set_item("success", success(l.snr))?;
        d.set_item("needed_snr_db", snr_db_for(target, success))?;
        out.push(d);
    }
    Ok(out)
}

/// A world stepped by a learning agent (`airtcp.gym`): built from a JSON world spec, advanced
/// to each decision time, read and acted on between steps. Lives in one thread.
#[pyclass(unsendable, module = "airtcp._core")]
struct Sim {
    world: airtcp_core::world::World,
    finished: bool,
    /// The congestion environment's agent, once `cwnd_agent` made it.
    cwnd_agent: Option<CwndAgent>,
}

/// A step's results beside its observation: (reward, ended, cwnd, srtt_ms, goodput_mbps).
type CwndResult = (f64, bool, u32, f64, f64);

/// Row `row` of `obs` (a writable, C-contiguous float32 buffer of rows of `CWND_OBS`), checked
/// before the step that fills it.
fn obs_row<'a>(py: Python<'a>, obs: &'a PyBuffer<f32>, row: usize) -> PyResult<&'a [std::cell::Cell<f32>]> {
    let cells = obs
        .as_mut_slice(py)
        .ok_or_else(|| PyValueError::new_err("obs: not a writable C-contiguous float32 array"))?;
    let start = row * CWND_OBS;
    cells.get(start..start + CWND_OBS).ok_or_else(|| {
        PyValueError::new_err(format!(
            "obs: {} values, too few for row {row} of {CWND_OBS} (allowed: an array of at least {} float32)",
            cells.len(),
            start + CWND_OBS
        ))
    })
}

/// `b` as `k` writable cells (a writable C-contiguous array of `k`), or an error naming it.
fn column<'a, T: pyo3::buffer::Element>(
    py: Python<'a>,
    b: &'a PyBuffer<T>,
    name: &str,
    k: usize,
) -> PyResult<&'a [std::cell::Cell<T>]> {
    b.as_mut_slice(py).filter(|c| c.len() == k).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{name}: not a writable C-contiguous array of {k} ({} values)",
            b.item_count()
        ))
    })
}

fn write_row(dst: &[std::cell::Cell<f32>], values: &[f32; CWND_OBS]) {
    for (d, &v) in dst.iter().zip(values) {
        d.set(v);
    }
}

impl Sim {
    /// The agent and the world it drives, if `cwnd_agent` made one and the run is open
    /// (`what`: the call asking, for the message).
    fn agent(&mut self, what: &str) -> PyResult<(&mut CwndAgent, &mut airtcp_core::world::World)> {
        if self.finished {
            return Err(PyValueError::new_err(format!("{what}: the run has ended (summary_json was read)")));
        }
        let agent = self
            .cwnd_agent
            .as_mut()
            .ok_or_else(|| PyValueError::new_err(format!("{what}: no agent (call cwnd_agent first)")))?;
        Ok((agent, &mut self.world))
    }

    fn cwnd_step_into(
        &mut self,
        py: Python<'_>,
        action: usize,
        obs: &PyBuffer<f32>,
        row: usize,
    ) -> PyResult<CwndResult> {
        let dst = obs_row(py, obs, row)?;
        let (agent, world) = self.agent("cwnd_step")?;
        let r = agent.step(world, action).map_err(PyValueError::new_err)?;
        write_row(dst, &r.obs);
        Ok((r.reward, r.ended, r.cwnd, r.srtt_ms, r.goodput_mbps))
    }
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
        Ok(Sim { world, finished: false, cwnd_agent: None })
    }

    /// Run every event up to `until_ns` (at most the run's end); true once the end is reached.
    fn advance(&mut self, until_ns: u64) -> PyResult<bool> {
        if self.finished {
            return Err(PyValueError::new_err("advance: the run has ended (summary_json was read)"));
        }
        Ok(self.world.advance(airtcp_core::time::SimTime(until_ns)))
    }

    /// [`Sim::advance`] and then the bytes every flow has delivered, summed, in one call (an
    /// agent's step): `(ended, delivered_bytes)`.
    fn advance_delivered(&mut self, until_ns: u64) -> PyResult<(bool, u64)> {
        let done = self.advance(until_ns)?;
        Ok((done, self.world.delivered_bytes_all()))
    }

    #[getter]
    fn now_ns(&self) -> u64 {
        self.world.now().ns()
    }

    #[getter]
    fn end_ns(&self) -> u64 {
        self.world.period.end.ns()
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

    /// What the congestion environment observes of `flow`'s TCP sender, without a dict:
    /// `(cwnd, srtt_ns, min_rtt_ns, retransmissions, timeouts)` (the agent's step reads it
    /// each time).
    fn tcp_counts(&self, flow: u32) -> PyResult<(u32, u64, u64, u64, u64)> {
        let v = self
            .world
            .tcp_view(airtcp_core::ids::FlowId(flow))
            .ok_or_else(|| PyValueError::new_err(format!("flow: {flow} (not a TCP flow)")))?;
        Ok((v.cwnd, v.srtt_ns, v.min_rtt_ns, v.retransmissions, v.timeouts))
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

    /// The congestion environment's agent on `flow` (its cc "agent"), stepping `step_ns` from
    /// now, its reward weighing queueing delay by `delay_weight` (docs/gym.md).
    fn cwnd_agent(&mut self, flow: u32, step_ns: u64, delay_weight: f64) -> PyResult<()> {
        let agent = CwndAgent::new(&self.world, airtcp_core::ids::FlowId(flow), step_ns, delay_weight)
            .map_err(PyValueError::new_err)?;
        self.cwnd_agent = Some(agent);
        Ok(())
    }

    /// The agent's first observation, written into row `row` of `obs`.
    fn cwnd_observe(&mut self, py: Python<'_>, obs: PyBuffer<f32>, row: usize) -> PyResult<CwndResult> {
        let dst = obs_row(py, &obs, row)?;
        let (agent, world) = self.agent("cwnd_observe")?;
        let r = agent.observe(world);
        write_row(dst, &r.obs);
        Ok((r.reward, r.ended, r.cwnd, r.srtt_ms, r.goodput_mbps))
    }

    /// One step of the agent with action `action`; the observation written into row `row` of
    /// `obs`.
    fn cwnd_step(
        &mut self,
        py: Python<'_>,
        action: usize,
        obs: PyBuffer<f32>,
        row: usize,
    ) -> PyResult<CwndResult> {
        self.cwnd_step_into(py, action, &obs, row)
    }

    /// Run to the end and close the run; its summary as JSON. The world cannot advance after.
    fn summary_json(&mut self) -> PyResult<String> {
        if !self.finished {
            self.world.advance(self.world.period.end);
            self.world.finish();
            self.finished = true;
        }
        let summary = airtcp_core::Summary::of(&self.world);
        serde_json::to_string(&summary).map_err(|e| PyValueError::new_err(format!("summary: {e}")))
    }
}

/// One step of K worlds' congestion agents at once: world k takes `actions[k]` and writes its
/// observation into row k of `obs`, its reward, end, cwnd, smoothed RTT and goodput into
/// element k of the others (each a writable C-contiguous array of K, `obs` of K x 6).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the batch's arrays, one per result
fn cwnd_steps(
    py: Python<'_>,
    sims: Vec<PyRefMut<'_, Sim>>,
    actions: PyBuffer<i64>,
    obs: PyBuffer<f32>,
    rewards: PyBuffer<f64>,
    ended: PyBuffer<u8>,
    cwnd: PyBuffer<i64>,
    srtt_ms: PyBuffer<f64>,
    goodput_mbps: PyBuffer<f64>,
) -> PyResult<()> {
    let k = sims.len();
    if k == 0 {
        return Err(PyValueError::new_err("sims: no world (allowed: one or more)"));
    }
    // Every input checked before any world steps; no copy of the arrays.
    let acts = actions
        .as_slice(py)
        .filter(|a| a.len() == k)
        .ok_or_else(|| PyValueError::new_err(format!("actions: not a C-contiguous int64 array of {k}")))?;
    let last = CWND_FACTORS.len() - 1;
    if let Some((i, a)) =
        acts.iter().map(|a| a.get()).enumerate().find(|&(_, a)| !(0..=last as i64).contains(&a))
    {
        return Err(PyValueError::new_err(format!("actions[{i}]: {a} (allowed: 0 to {last})")));
    }
    if obs.item_count() != k * CWND_OBS {
        return Err(PyValueError::new_err(format!(
            "obs: {} values for {k} worlds (allowed: {k} x {CWND_OBS})",
            obs.item_count()
        )));
    }
    obs_row(py, &obs, k - 1)?;
    let (rw, en, cw) =
        (column(py, &rewards, "rewards", k)?, column(py, &ended, "ended", k)?, column(py, &cwnd, "cwnd", k)?);
    let (sr, gp) = (column(py, &srtt_ms, "srtt_ms", k)?, column(py, &goodput_mbps, "goodput_mbps", k)?);
    let mut sims = sims;
    for (i, sim) in sims.iter_mut().enumerate() {
        let ready = match (sim.finished, sim.cwnd_agent.as_ref()) {
            (true, _) => Err("the run has ended (summary_json was read)".to_owned()),
            (false, None) => Err("no agent (call cwnd_agent first)".to_owned()),
            (false, Some(agent)) => agent.can_step(&sim.world),
        };
        ready.map_err(|e| PyValueError::new_err(format!("sims[{i}]: {e}")))?;
    }
    for (i, (mut sim, action)) in sims.into_iter().zip(acts).enumerate() {
        let (r, e, c, s, g) = sim.cwnd_step_into(py, action.get() as usize, &obs, i)?;
        rw[i].set(r);
        en[i].set(u8::from(e));
        cw[i].set(i64::from(c));
        sr[i].set(s);
        gp[i].set(g);
    }
    Ok(())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Sim>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(cwnd_steps, m)?)?;
    m.add("CWND_FACTORS", CWND_FACTORS.to_vec())?;
    m.add("CWND_MAX", airtcp_core::world::agent::CWND_MAX)?;
    m.add("CWND_OBS", CWND_OBS)?;
    m.add_function(wrap_pyfunction!(connectivity_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tables, m)?)?;
    m.add_function(wrap_pyfunction!(world_spec_schema, m)?)?;
    m.add_function(wrap_pyfunction!(check_world_spec, m)?)?;
    m.add_function(wrap_pyfunction!(summary_schema, m)?)?;
    m.add_function(wrap_pyfunction!(connectivity, m)?)?;
    m.add_function(wrap_pyfunction!(tx_duration_ns, m)?)?;
    m.add_function(wrap_pyfunction!(chunk_success, m)?)?;
    m.add_function(wrap_pyfunction!(chunk_success_tabulated, m)?)?;
    m.add_function(wrap_pyfunction!(link_budgets, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
