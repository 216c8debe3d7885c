//! End-to-end TCP over the simulated MAC and links.

mod common;
use common::*;
use serde_json::json;

fn tcp_bss(recovery: &str, ack_every: u32, secs: f64) -> serde_json::Value {
    let mut spec = bss(1, "80211a", 54.0, 6.0, 1460, secs);
    spec["flows"] = json!([{"kind": "tcp_bulk", "src": 1, "dst": 0, "payload_bytes": 1460,
        "tcp": {"recovery": recovery, "ack_every": ack_every}}]);
    spec
}

#[test]
fn tcp_bulk_over_one_80211a_link_runs_and_is_deterministic() {
    let spec = tcp_bss("newreno", 1, 10.0);
    let a = run_value(&spec, 1);
    let b = run_value(&spec, 1);
    let f = &a.summary.flows[0];
    let t = f.tcp.as_ref().expect("TCP statistics");
    // An upper bound by hand: one station alone, no TCP ACKs at all, 1548-byte MPDUs at
    // 54 Mbit/s: 34 + 67.5 + 252 + 16 + 44 = 413.5 us per 1460 bytes = 28.25 Mbit/s.
    assert!(f.goodput_bps > 10e6 && f.goodput_bps < 28.25e6, "{}", f.goodput_bps);
    assert!(t.rtt_samples > 1000 && t.rtt_p50_s > 0.0 && t.rtt_p99_s >= t.rtt_p50_s);
    // The TCP sender and the AP's TCP ACKs contend: some frames collide (MAC retries hide it).
    assert!(a.summary.nodes[0].mac.collisions > 0);
    assert_eq!(serde_json::to_string(&a.summary).unwrap(), serde_json::to_string(&b.summary).unwrap());
}

#[test]
fn tcp_file_transfer_completes_and_reports_its_time() {
    let mut spec = bss(1, "80211b", 11.0, 1.0, 1460, 30.0);
    spec["warmup_ns"] = json!(0);
    spec["flows"] = json!([{"kind": "tcp_file", "src": 1, "dst": 0, "payload_bytes": 1000,
        "file_bytes": 1_000_000u64, "tcp": {"mss_bytes": 1000, "recovery": "tahoe"}}]);
    let out = run_value(&spec, 1);
    let f = &out.summary.flows[0];
    let t = f.tcp.as_ref().unwrap();
    assert_eq!(f.delivered_bytes, 1_000_000, "every byte exactly once, in order");
    let done = t.completion_s.expect("finished");
    // 1000 segments at 11 Mbit/s with a TCP ACK each: at least 1000 x (1330 us-ish data
    // cycle) > 1 s; far less than the 30 s run.
    assert!(done > 1.0 && done < 10.0, "{done}");
}

#[test]
fn wired_loss_triggers_tcp_recovery() {
    // A wired server behind the AP; the STA's TCP data crosses WiFi then the wire.
    let mut spec = bss(1, "80211a", 54.0, 6.0, 1460, 10.0);
    spec["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "server", "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"}));
    // A 5 Mbit/s, 10-packet bottleneck: slow start overflows it, NewReno recovers.
    spec["wired_links"] = json!([{"a": 0, "b": 2, "rate_bps": 5_000_000u64, "delay_ns": 10_000_000u64, "queue_limit_packets": 10}]);
    spec["routes"] = json!([{"node": 1, "dst": 2, "next_hop": 0}, {"node": 2, "dst": 1, "next_hop": 0}]);
    spec["flows"] = json!([{"kind": "tcp_bulk", "src": 1, "dst": 2, "payload_bytes": 1460}]);
    let out = run_value(&spec, 1);
    let f = &out.summary.flows[0];
    let t = f.tcp.as_ref().unwrap();
    assert!(t.fast_retransmits + t.timeouts > 0, "{t:?}");
    // Goodput below the 5 Mbit/s bottleneck's payload rate: 5 x 1460 / 1514 = 4.82 Mbit/s.
    assert!(f.goodput_bps < 4.83e6 && f.goodput_bps > 2.0e6, "{}", f.goodput_bps);
}
