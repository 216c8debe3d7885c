//! UDP sources beyond CBR (issue 30, item 9): Poisson arrivals, ns-3's on/off source with
//! exponential or Pareto periods, and a random start jitter; each a pure function of the seed.

mod common;

use airtcp_core::world::World;
use airtcp_core::WorldSpec;
use common::{bss, run_value};
use serde_json::{json, Value};

/// One station sending `flow` to its AP on an uncongested 802.11a link, reported every 100 ms
/// over `secs` measured seconds (warm-up 0.5 s).
fn one_flow(flow: Value, secs: f64) -> Value {
    let mut spec = bss(1, "80211a", 54.0, 6.0, 1000, secs + 0.5);
    let mut flow = flow;
    flow["src"] = json!(1);
    flow["dst"] = json!(0);
    flow["payload_bytes"] = json!(1000);
    flow["report_interval_ns"] = json!(100_000_000u64);
    spec["flows"] = json!([flow]);
    spec
}

/// Packets delivered per 100 ms interval (1000-byte payloads).
fn counts(spec: &Value, seed: u64) -> Vec<f64> {
    let out = run_value(spec, seed);
    let iv = out.summary.flows[0].interval_goodput_bps.clone().expect("reported");
    iv.iter().map(|bps| bps * 0.1 / 8000.0).collect()
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (m, x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0))
}

#[test]
fn a_poisson_source_has_the_rate_and_the_variance_of_one() {
    // 2 Mbit/s of 1000-byte packets: 25 a 100 ms interval on average. A Poisson count has
    // variance equal to its mean (closed form); CBR's is 0. 300 intervals: the sample mean is
    // within 4 sigma = 4 x sqrt(25 / 300) = 1.2 of 25, the variance ratio within [0.75, 1.3]
    // (its standard error is about sqrt(2 / 299) = 0.08).
    let spec = one_flow(json!({"kind": "udp_poisson", "rate_bps": 2e6}), 30.0);
    let (m, v) = mean_var(&counts(&spec, 1));
    assert!((m - 25.0).abs() < 1.2, "mean {m}");
    assert!((0.75..1.3).contains(&(v / m)), "variance {v}, mean {m}");
    let cbr = one_flow(json!({"kind": "udp_cbr", "rate_bps": 2e6}), 30.0);
    let (mc, vc) = mean_var(&counts(&cbr, 1));
    assert!((mc - 25.0).abs() < 0.1 && vc < 0.1, "cbr {mc} {vc}");
    // A pure function of the seed, and another seed draws other gaps.
    assert_eq!(counts(&spec, 1), counts(&spec, 1));
    assert_ne!(counts(&spec, 1), counts(&spec, 2));
}

#[test]
fn an_on_off_source_sends_its_rate_while_on() {
    // 4 Mbit/s while on, exponential on and off periods of mean 200 and 300 ms (ns-3
    // OnOffApplication): 4 x 200 / 500 = 1.6 Mbit/s on average, 20 a 100 ms interval. Over
    // 60 s about 120 cycles: the mean within 15 % (a cycle's count has a coefficient of
    // variation near 1: 1 / sqrt(120) = 9 %). Intervals with nothing sent and intervals at the
    // full 50 both occur.
    let flow = json!({"kind": "udp_onoff", "rate_bps": 4e6,
                      "on_off": {"on_mean_ns": 200_000_000u64, "off_mean_ns": 300_000_000u64}});
    let c = counts(&one_flow(flow, 60.0), 1);
    let (m, _) = mean_var(&c);
    assert!((m - 20.0).abs() < 3.0, "mean {m}");
    assert!(c.contains(&0.0) && c.iter().any(|&k| k >= 49.0), "{c:?}");
    // Pareto periods of the same means (shape 2.5): the same mean rate, within 20 %.
    let pareto = json!({"kind": "udp_onoff", "rate_bps": 4e6,
                        "on_off": {"on_mean_ns": 200_000_000u64, "off_mean_ns": 300_000_000u64,
                                   "distribution": "pareto", "pareto_shape": 2.5}});
    let (mp, _) = mean_var(&counts(&one_flow(pareto, 60.0), 1));
    assert!((mp - 20.0).abs() < 4.0, "pareto mean {mp}");
}

#[test]
fn a_start_jitter_moves_each_flow_within_its_window_by_the_seed() {
    let mut spec = bss(4, "80211a", 54.0, 6.0, 1000, 2.0);
    for f in spec["flows"].as_array_mut().unwrap() {
        f["start_ns"] = json!(100_000_000u64);
        f["start_jitter_ns"] = json!(500_000_000u64);
    }
    let starts = |seed: u64| {
        let s: WorldSpec = serde_json::from_value(spec.clone()).unwrap();
        let w = World::build(&s, seed).expect("builds");
        w.flows.iter().map(|f| f.start.ns()).collect::<Vec<u64>>()
    };
    let a = starts(1);
    assert!(a.iter().all(|&t| (100_000_000..600_000_000).contains(&t)), "{a:?}");
    assert!(a.windows(2).all(|w| w[0] != w[1]), "each flow draws its own: {a:?}");
    assert_eq!(a, starts(1));
    assert_ne!(a, starts(2));
}

#[test]
fn bad_traffic_specs_name_the_field() {
    let err = |flow: Value| {
        let s: WorldSpec = serde_json::from_value(one_flow(flow, 1.0)).unwrap();
        airtcp_core::run(&s, 1).err().map(|e| e.to_string()).unwrap_or_default()
    };
    let e = err(json!({"kind": "udp_onoff", "rate_bps": 1e6}));
    assert!(e.starts_with("flows.0.on_off: missing"), "{e}");
    let e = err(json!({"kind": "udp_poisson"}));
    assert!(e.starts_with("flows.0.rate_bps") && e.contains("udp_poisson needs one"), "{e}");
    let e = err(json!({"kind": "udp_onoff", "rate_bps": 1e6,
                       "on_off": {"on_mean_ns": 1, "off_mean_ns": 1, "distribution": "pareto", "pareto_shape": 1.0}}));
    assert!(e.starts_with("flows.0.on_off.pareto_shape"), "{e}");
    let e = err(json!({"kind": "udp_cbr", "rate_bps": 1e6, "on_off": {"on_mean_ns": 1, "off_mean_ns": 1}}));
    assert!(e.starts_with("flows.0.on_off: only udp_onoff"), "{e}");
}
