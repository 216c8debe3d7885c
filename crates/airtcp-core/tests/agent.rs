//! The hooks of learning agents (`world::agent`): a stepped run is the whole run, bit for bit,
//! and the agent's actions reach the MAC and TCP.

mod common;
use airtcp_core::ids::{FlowId, NodeId};
use airtcp_core::time::SimTime;
use airtcp_core::world::World;
use airtcp_core::{Summary, WorldSpec};
use common::*;

fn world(spec: &serde_json::Value, seed: u64) -> World {
    World::build(&WorldSpec::from_json(&spec.to_string()).unwrap(), seed).unwrap()
}

#[test]
fn a_stepped_run_is_the_whole_run() {
    let spec = bss(3, "80211b", 11.0, 1.0, 1000, 2.0);
    let whole = serde_json::to_string(&run_value(&spec, 5).summary).unwrap();
    let mut w = world(&spec, 5);
    let mut t = 0;
    // Steps of 37 ms (not dividing the run) and one at an instant with no event.
    while !w.advance(SimTime(t)) {
        t += 37_000_000;
    }
    w.finish();
    assert_eq!(serde_json::to_string(&Summary::of(&w)).unwrap(), whole);
}

#[test]
fn the_agent_sets_each_peers_mode() {
    // One 802.11a station saturating toward the AP, its rate control "agent": frames go at the
    // lowest mode (6 Mbit/s) until the agent sets another, then at that one.
    let mut spec = bss(1, "80211a", 54.0, 6.0, 1500, 1.0);
    spec["wifi"]["rate_control"] = serde_json::json!("agent");
    let mut w = world(&spec, 1);
    let (sta, ap) = (NodeId(1), NodeId(0));
    assert_eq!(w.agent_modes(sta).unwrap().len(), 8);
    assert!(w.agent_modes(ap).is_some());
    w.advance(SimTime(300_000_000));
    assert_eq!(w.link_view(sta, ap).unwrap().last_rate_bps, 6_000_000);
    let before = w.link_view(sta, ap).unwrap().acked;
    w.agent_set_mode(sta, ap, 7).unwrap();
    w.advance(SimTime(600_000_000));
    let v = w.link_view(sta, ap).unwrap();
    assert_eq!(v.last_rate_bps, 54_000_000);
    // 300 ms at 54 rather than 6 Mbit/s: several times the frames.
    assert!(v.acked - before > 3 * before, "{before} then {}", v.acked - before);
    assert!(w.agent_set_mode(sta, ap, 8).unwrap_err().contains("allowed: 0..7"));
    assert!(w.agent_set_mode(sta, sta, 0).is_err());
}

#[test]
fn the_agent_sets_the_congestion_window() {
    // A TCP bulk flow from the station to a server 20 ms behind the AP with cc "agent": the
    // window stays where the agent put it (no growth on ACKs), what is in flight never exceeds
    // it, and a larger window moves more (the path holds about 40 ms x 25 Mbit/s = 86
    // segments).
    let mut spec = bss(1, "80211a", 54.0, 6.0, 1500, 2.0);
    with_wired_server(&mut spec, 100_000_000, 20_000_000, 1000);
    spec["flows"] = serde_json::json!([{"kind": "tcp_bulk", "src": 1, "dst": 2, "payload_bytes": 1460, "tcp": {"cc": "agent"}}]);
    let mut w = world(&spec, 1);
    let f = FlowId(0);
    w.advance(SimTime(200_000_000));
    let v = w.tcp_view(f).unwrap();
    assert_eq!(v.cwnd, 10, "the initial window, never grown");
    w.agent_set_cwnd(f, 2).unwrap();
    let mut t = 200_000_000;
    while t < 600_000_000 {
        t += 1_000_000;
        w.advance(SimTime(t));
        let v = w.tcp_view(f).unwrap();
        assert!(v.in_flight_bytes <= 10 * u64::from(v.mss_bytes), "{v:?}");
    }
    let small = w.tcp_view(f).unwrap().acked_bytes;
    w.agent_set_cwnd(f, 2).unwrap();
    w.advance(SimTime(1_000_000_000));
    let at2 = w.tcp_view(f).unwrap().acked_bytes - small;
    w.agent_set_cwnd(f, 40).unwrap();
    w.advance(SimTime(1_400_000_000));
    let at40 = w.tcp_view(f).unwrap().acked_bytes - small - at2;
    assert_eq!(w.tcp_view(f).unwrap().cwnd, 40);
    // cwnd / RTT: about 2 and 40 segments per 40 ms.
    assert!(at40 > 10 * at2, "cwnd 40 moves far more than cwnd 2 in 400 ms: {at40} vs {at2}");
    assert!(w.agent_set_cwnd(f, 0).is_err());
}
