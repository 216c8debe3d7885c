//! Lazy members of isolated cliques (`medium::clique`, `mac::lazy`): the listeners of a clique
//! share one state while they only listen, and results stay those of per-member loops.

mod common;
use airtcp_core::ids::NodeId;
use airtcp_core::time::SimTime;
use airtcp_core::world::World;
use airtcp_core::WorldSpec;
use common::*;

/// A run's summary without `events` (the cost, which laziness changes; the rest must not).
fn strip(o: &airtcp_core::Output) -> serde_json::Value {
    let mut v = serde_json::to_value(&o.summary).expect("serializes");
    v.as_object_mut().expect("an object").remove("events");
    v
}

fn world(spec: &serde_json::Value) -> World {
    let spec: WorldSpec = serde_json::from_value(spec.clone()).expect("spec parses");
    World::build(&spec, 1).expect("builds")
}

#[test]
fn most_listeners_of_a_saturated_clique_are_lazy_between_transmissions() {
    let mut w = world(&bss(30, "80211a", 54.0, 6.0, 1500, 1.0));
    let mut lazy_seen = 0;
    for k in 1..=50 {
        w.advance(SimTime(k * 2_000_000)); // every 2 ms
        lazy_seen = lazy_seen.max(w.medium.lazy_count(NodeId(1)));
    }
    // Between transmissions all but the last ones to transmit (and the AP, which waits on
    // nothing) are lazy: in 30 stations at least 20 at some instant.
    assert!(lazy_seen >= 20, "at most {lazy_seen} lazy members");
    w.finish();
    assert_eq!(w.medium.lazy_count(NodeId(1)), 0, "the report reads every member materialized");
}

#[test]
fn a_clique_gives_the_results_of_per_station_grants() {
    let spec = bss(12, "80211b", 11.0, 1.0, 1500, 1.5);
    let mut per_station = spec.clone();
    per_station["wifi"]["per_station_grants"] = true.into();
    for seed in 1..=3 {
        let (a, b) = (run_value(&spec, seed), run_value(&per_station, seed));
        assert_eq!(strip(&a), strip(&b), "seed {seed}");
        assert!(a.summary.events < b.summary.events);
    }
}

#[test]
fn large_saturated_cliques_give_the_results_of_per_station_grants() {
    // Collisions of several stations at once, retry-limit drops, colliders joining after their
    // ACK timeouts (debug assertions check the shared countdown on the way).
    for (n, standard, data, basic) in [(60, "80211a", 54.0, 6.0), (120, "80211b", 11.0, 1.0)] {
        let spec = bss(n, standard, data, basic, 1500, 0.8);
        let mut per_station = spec.clone();
        per_station["wifi"]["per_station_grants"] = true.into();
        assert_eq!(strip(&run_value(&spec, 7)), strip(&run_value(&per_station, 7)), "{n} on {standard}");
    }
}

/// A cell of `stations` TCP uploads to the AP (`bss` with its flows replaced).
fn tcp_cell(stations: usize, secs: f64) -> serde_json::Value {
    let mut spec = bss(stations, "80211a", 54.0, 6.0, 1460, secs);
    let flows: Vec<serde_json::Value> = (1..=stations)
        .map(|i| serde_json::json!({"kind": "tcp_bulk", "src": i, "dst": 0, "payload_bytes": 1460}))
        .collect();
    spec["flows"] = flows.into();
    spec
}

#[test]
fn a_tcp_cell_gives_up_its_lazy_members_and_a_saturated_one_keeps_them() {
    // Averaged over windows of 1024 releases (mac::lazy::LAZY_TRIAL) with a throwaway counter
    // (docs/validation.md section 27): saturated cells keep more than two thirds of their
    // members lazy in every window; 8 TCP uploads keep 0.4-5.4 of 9, below half in most.
    let mut sat = world(&bss(30, "80211a", 54.0, 6.0, 1500, 1.0));
    let mut tcp = world(&tcp_cell(8, 1.0));
    assert_eq!(tcp.wifi.lazy_set_of(NodeId(1)), Some(0), "8 stations and the AP: a lazy clique");
    sat.advance(SimTime(1_000_000_000));
    tcp.advance(SimTime(1_000_000_000));
    assert_eq!(sat.wifi.lazy_set_of(NodeId(1)), Some(0));
    assert_eq!(tcp.wifi.lazy_set_of(NodeId(1)), None, "given up");
    assert_eq!(tcp.medium.lazy_count(NodeId(1)), 0);
}

#[test]
fn a_large_saturated_cell_keeps_its_lazy_members_while_they_join() {
    // At 1000 stations the members join over the first windows (120 of 1001 lazy on average in
    // the first window of 1024 releases, 859 in the second, 951 in the third: a throwaway
    // counter, docs/validation.md section 27). Judged on the first, the cell gave them up and
    // its 10 s ran 14 times slower (4.7 s against 0.27 s).
    let mut w = world(&bss(1000, "80211a", 54.0, 6.0, 1500, 1.5));
    w.advance(SimTime(1_500_000_000));
    assert_eq!(w.wifi.lazy_set_of(NodeId(1)), Some(0), "kept");
    assert!(w.medium.lazy_count(NodeId(1)) > 500, "{} lazy", w.medium.lazy_count(NodeId(1)));
}

#[test]
fn a_tcp_cell_that_gives_up_its_lazy_members_gives_the_results_of_per_station_grants() {
    for stations in [8, 20] {
        let spec = tcp_cell(stations, 1.5);
        let mut per_station = spec.clone();
        per_station["wifi"]["per_station_grants"] = true.into();
        for seed in [1, 2] {
            let (a, b) = (run_value(&spec, seed), run_value(&per_station, seed));
            assert_eq!(strip(&a), strip(&b), "{stations} stations, seed {seed}");
        }
    }
}

#[test]
fn a_collisions_deferred_edges_give_the_results_of_per_station_grants() {
    // Cells of hundreds of stations collide many frames at once (at 300 stations 4-5 on
    // average, docs/validation.md section 27): a clique of at least DEFER_NODES members defers
    // the begins in the instant of the busy period's first and the releases that leave it busy
    // (`medium::clique`), applied to a member that is not lazy when it is read. Unequal frame
    // lengths release mid-period; preamble detection applies the begins at once.
    let mut mixed = bss(300, "80211b", 11.0, 1.0, 1500, 0.6);
    for (k, f) in mixed["flows"].as_array_mut().expect("flows").iter_mut().enumerate() {
        f["payload_bytes"] = [1500, 200, 900][k % 3].into();
    }
    let mut preamble = bss(300, "80211a", 54.0, 6.0, 1500, 0.6);
    preamble["channel"]["preamble_detection"] = true.into();
    let cases = [
        ("802.11a", bss(400, "80211a", 54.0, 6.0, 1500, 0.6)),
        ("mixed lengths", mixed),
        ("preamble", preamble),
    ];
    for (name, mut spec) in cases {
        spec["warmup_ns"] = 100_000_000u64.into();
        let mut w = world(&spec);
        w.run();
        assert!(w.medium.deferred_edges() > 300, "{name}: {} edges deferred", w.medium.deferred_edges());
        let mut per_station = spec.clone();
        per_station["wifi"]["per_station_grants"] = true.into();
        assert_eq!(strip(&run_value(&spec, 1)), strip(&run_value(&per_station, 1)), "{name}");
    }
}
