//! Print goodput and collision probability of N saturated stations (quick look, no Python).
//! cargo run --release -p airtcp-core --example saturation -- 80211a 54 6 2,5,10,20,50 20 [dcf|edca] [range|radio|rayleigh]
//!
//! The last argument picks the channel: the range model (default), the radio model at ns-3's
//! defaults (log-distance path loss, NIST errors, preamble detection), or the radio model with
//! Rayleigh fading (a fresh fade per frame and link). Stations stand 1 m from the AP.

use airtcp_core::{run, WorldSpec};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let standard = args.get(1).map_or("80211a", |s| s.as_str());
    let data: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(54.0);
    let basic: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(6.0);
    let ns: Vec<usize> = args
        .get(4)
        .map_or(vec![1, 2, 5, 10, 20, 50], |s| s.split(',').filter_map(|x| x.parse().ok()).collect());
    let secs: f64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(20.0);
    let access = args.get(6).map_or("dcf", |s| s.as_str());
    let channel = match args.get(7).map_or("range", |s| s.as_str()) {
        "range" => json!({"rx_range_m": 1000.0, "cs_range_m": 1000.0}),
        model @ ("radio" | "rayleigh") => json!({"radio": {
            "path_loss": {"kind": "log-distance", "exponent": 3.0, "reference_distance_m": 1.0, "reference_loss_db": 46.6777},
            "fading": {"kind": if model == "rayleigh" { "rayleigh" } else { "none" }},
            "tx_power_dbm": 16.0206, "noise_figure_db": 7.0, "rx_sensitivity_dbm": -101.0,
            "cca_threshold_dbm": -82.0, "error_model": "nist",
            "preamble_detection": {"snr_db": 4.0, "min_rssi_dbm": -82.0},
        }}),
        other => panic!("channel {other:?}: allowed range, radio, rayleigh"),
    };
    for n in ns {
        let mut nodes =
            vec![json!({"name": "ap", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "ap"})];
        let mut flows = vec![];
        for i in 0..n {
            let a = i as f64 * std::f64::consts::TAU / n as f64;
            nodes.push(json!({"name": format!("sta{}", i + 1), "position_m": [a.cos(), a.sin(), 0.0], "wifi": true, "role": "sta"}));
            flows.push(json!({"kind": "udp_saturating", "src": i + 1, "dst": 0, "payload_bytes": 1500}));
        }
        let spec = json!({
            "duration_ns": (secs * 1e9) as u64, "warmup_ns": 1_000_000_000u64,
            "wifi": {"standard": standard, "data_rate_mbps": data, "basic_rate_mbps": basic, "access": access, "aifsn": if access == "edca" { Some(2) } else { None }},
            "channel": channel,
            "nodes": nodes, "flows": flows,
        });
        let spec: WorldSpec = serde_json::from_value(spec).unwrap();
        let t0 = std::time::Instant::now();
        let out = run(&spec, 1).unwrap();
        let wall = t0.elapsed().as_secs_f64();
        let s = &out.summary;
        let frames: u64 = s.flows.iter().map(|f| f.delivered_packets).sum();
        println!(
            "n={n:3} goodput={:.3} Mbit/s p={:.4} events={} events/frame={:.2} wall={:.3}s events/s={:.2e} sim/wall={:.0}",
            s.totals.goodput_bps / 1e6,
            s.totals.collision_probability,
            s.events,
            s.events as f64 / frames.max(1) as f64,
            wall,
            s.events as f64 / wall,
            secs / wall
        );
    }
}
