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

/// [`connectivity`] in binary for large topologies: (node count, next hops as little-endian
/// i32 row by row with -1 for none, neighbours as a bitmap of ceil(n / 8)-byte rows).
#[pyfunction]
fn connectivity_bytes<'py>(
    py: Python<'py>,
    topology_json: &str,
) -> PyResult<(usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (n, next, bits) = airtcp_core::net::routing::connectivity_bytes(topology_json)
        .map_err(|e| PyValueError::new_err(e.0))?;
    Ok((n, PyBytes::new(py, &next), PyBytes::new(py, &bits)))
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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(connectivity_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tables, m)?)?;
    m.add_function(wrap_pyfunction!(connectivity, m)?)?;
    m.add_function(wrap_pyfunction!(tx_duration_ns, m)?)?;
    m.add_function(wrap_pyfunction!(chunk_success, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
