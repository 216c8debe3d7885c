//! Minstrel-HT's VHT groups through a world: an 802.11ac station with `rate_control =
//! "minstrel-ht"` finds VHT MCS 9 at the channel's width and streams, and 802.11ax stays
//! refused (Linux's Minstrel-HT has no HE groups).

mod common;

use airtcp_core::WorldSpec;
use common::{bss, goodput_bps, run_value};
use serde_json::{json, Value};

/// One station saturating UDP toward its AP over 802.11ac (80 MHz, two streams, short GI).
fn ac_uplink(rate_control: &str) -> Value {
    let mut spec = bss(1, "80211ac", 0.0, 6.0, 1472, 3.0);
    spec["wifi"] = json!({
        "standard": "80211ac", "basic_rate_mbps": 6.0, "access": "edca", "rate_control": rate_control,
        "ht": {"band_ghz": 5.0, "channel_width_mhz": 80, "streams": 2, "short_gi": true, "mcs": 9, "ampdu": true},
    });
    spec
}

#[test]
fn an_ac_station_with_minstrel_ht_reaches_most_of_mcs_9s_throughput() {
    let fixed = goodput_bps(&run_value(&ac_uplink("constant"), 1));
    let out = run_value(&ac_uplink("minstrel-ht"), 1);
    let adaptive = goodput_bps(&out);
    // Constant MCS 9 (866.7 Mbit/s PHY rate) is the ceiling; Minstrel-HT pays for its probes
    // (one PPDU of a single MPDU at most every 20 ms, MINSTREL_SAMPLE_INTERVAL) and its first
    // climb, in the warm-up. Measured 586.8 against 587.0 Mbit/s (seed 1): 3 % is room for
    // the probes, not for a table stuck below MCS 9 (MCS 8 is 10 % slower).
    assert!(fixed > 400e6, "{fixed}");
    assert!(adaptive > 0.97 * fixed && adaptive <= 1.01 * fixed, "{adaptive} vs {fixed}");
}

#[test]
fn minstrel_ht_is_refused_on_ax_and_ath9k_on_ac() {
    let refused = |standard: &str, rc: &str| {
        let mut spec = ac_uplink(rc);
        spec["wifi"]["standard"] = json!(standard);
        spec["wifi"]["ht"]["short_gi"] = json!(false);
        let spec: WorldSpec = serde_json::from_value(spec).expect("spec parses");
        airtcp_core::run(&spec, 1).err().map(|e| e.to_string()).unwrap_or_default()
    };
    let ax = refused("80211ax", "minstrel-ht");
    assert!(ax.contains("does not run on 80211ax") && ax.contains("no HE groups"), "{ax}");
    let allowed = ax.split("allowed there:").nth(1).unwrap_or_default();
    assert!(allowed.contains("minstrel") && !allowed.contains("minstrel-ht"), "{ax}");
    let ath9k = refused("80211ac", "ath9k");
    assert!(ath9k.contains("does not run on 80211ac") && ath9k.contains("minstrel-ht"), "{ath9k}");
}
