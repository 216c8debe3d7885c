//! End-to-end saturation runs against closed forms computed by hand.

mod common;
use common::*;

/// Jun et al. (NCA 2003) theoretical maximum throughput, with durations hand-computed from
/// IEEE 802.11-2020 Clause 17: DIFS 34 + 7.5 slots x 9 + DATA(1564 B @54) 256 + SIFS 16 +
/// ACK(@6) 44 = 417.5 us per 12000 payload bits -> 28.743 Mbit/s.
#[test]
fn one_station_80211a_54_meets_the_theoretical_maximum() {
    let out = run_value(&bss(1, "80211a", 54.0, 6.0, 1500, 20.0), 1);
    let tmt = 12000.0 / 417.5e-6;
    let g = goodput_bps(&out);
    assert!((g / tmt - 1.0).abs() < 0.01, "goodput {g} vs TMT {tmt}");
    let n = &out.summary.nodes[1].mac;
    assert_eq!(n.failures, 0, "a lone station never collides");
}
