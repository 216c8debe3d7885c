//! Shared builders of world specs for the integration tests.
#![allow(dead_code)]

use airtcp_core::{run, Output, WorldSpec};
use serde_json::{json, Value};

/// N stations on a 5 m circle around an AP, all saturating UDP toward the AP.
pub fn bss(stations: usize, standard: &str, data: f64, basic: f64, payload: u32, secs: f64) -> Value {
    let mut nodes = vec![json!({"name": "ap", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "ap"})];
    let mut flows = vec![];
    for i in 0..stations {
        let a = i as f64 * std::f64::consts::TAU / stations as f64;
        nodes.push(json!({"name": format!("sta{}", i + 1), "position_m": [5.0 * a.cos(), 5.0 * a.sin(), 0.0], "wifi": true, "role": "sta"}));
        flows.push(json!({"kind": "udp_saturating", "src": i + 1, "dst": 0, "payload_bytes": payload}));
    }
    json!({
        "duration_ns": (secs * 1e9) as u64,
        "warmup_ns": 500_000_000u64,
        "wifi": {"standard": standard, "data_rate_mbps": data, "basic_rate_mbps": basic},
        "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
        "nodes": nodes,
        "flows": flows,
    })
}

pub fn run_value(spec: &Value, seed: u64) -> Output {
    let spec: WorldSpec = serde_json::from_value(spec.clone()).expect("spec parses");
    run(&spec, seed).expect("run succeeds")
}

pub fn goodput_bps(out: &Output) -> f64 {
    out.summary.totals.goodput_bps
}

/// Add a wired-only host "server" (node 2 of a one-station BSS) behind the AP (node 0) on a
/// link of `rate_bps`, `delay_ns` and `queue` packets per end, with routes both ways.
pub fn with_wired_server(spec: &mut Value, rate_bps: u64, delay_ns: u64, queue: u32) {
    spec["nodes"]
        .as_array_mut()
        .expect("nodes")
        .push(json!({"name": "server", "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"}));
    spec["wired_links"] =
        json!([{"a": 0, "b": 2, "rate_bps": rate_bps, "delay_ns": delay_ns, "queue_limit_packets": queue}]);
    spec["routes"] = json!([{"node": 1, "dst": 2, "next_hop": 0}, {"node": 2, "dst": 1, "next_hop": 0}]);
}
