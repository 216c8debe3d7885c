//! The radio model of the medium (`channel.radio`): received powers from positions, path loss
//! and fading, receptions decided by their SINR. Expected numbers come from the closed forms
//! named beside them, from ns-3's error models (the same functions, `phy::error`) or from the
//! range model run on the same scenario.

mod common;
use airtcp_core::channel::{dbm_to_mw, noise_mw};
use airtcp_core::phy::error::ErrorRateModel;
use airtcp_core::phy::{ModeId, Standard};
use common::*;
use serde_json::{json, Value};

/// ns-3 3.44 defaults: log-distance n = 3, L0 = 46.6777 dB at 1 m, 16.0206 dBm, NF 7 dB,
/// sensitivity −101 dBm, CCA −82 dBm; NIST errors; no preamble detection, no capture.
fn ns3_radio() -> Value {
    json!({
        "path_loss": {"kind": "log-distance", "exponent": 3.0, "reference_distance_m": 1.0, "reference_loss_db": 46.6777},
        "tx_power_dbm": 16.0206,
        "noise_figure_db": 7.0,
        "rx_sensitivity_dbm": -101.0,
        "cca_threshold_dbm": -82.0,
        "error_model": "nist",
    })
}

fn with_radio(mut spec: Value, radio: Value) -> Value {
    spec["channel"] = json!({"radio": radio});
    spec
}

fn mac(out: &airtcp_core::Output, node: usize) -> (u64, u64, u64) {
    let m = &out.summary.nodes[node].mac;
    (m.attempts, m.successes, m.drops_retry_limit)
}

#[test]
fn at_short_range_the_radio_model_is_the_range_model_bit_for_bit() {
    // Stations 5 m from the AP: SNR ~ 40 dB, every chunk succeeds with probability exactly 1,
    // so no draw is taken. One station: no overlaps at all (802.11a and b). Two stations
    // opposite each other: their frames reach the AP at equal power, and with preamble
    // detection on both sides a same-slot collision is detected by nobody (SINR 0 dB < 4 dB),
    // exactly the range model's `preamble_detection`. Same events, same counters. (With more
    // stations, a third node hears the two colliders at different powers and locks onto the
    // stronger, as ns-3 does: the models then differ on purpose.) The range model runs with
    // per-station grants here, as the radio model always does, so the events compare too.
    let detect = with_detection(ns3_radio(), true);
    for (stations, standard, data, basic, radio) in [
        (1, "80211a", 54.0, 6.0, ns3_radio()),
        (1, "80211b", 11.0, 1.0, ns3_radio()),
        (2, "80211a", 54.0, 6.0, detect),
    ] {
        let mut range = bss(stations, standard, data, basic, 1500, 3.0);
        range["wifi"]["per_station_grants"] = json!(true);
        range["channel"]["preamble_detection"] = json!(radio.get("preamble_detection").is_some());
        let radio = with_radio(range.clone(), radio);
        let (a, b) = (run_value(&range, 4), run_value(&radio, 4));
        assert_eq!(a.summary.events, b.summary.events, "{stations} stations {standard}");
        assert_eq!(
            serde_json::to_string(&a.summary.nodes).unwrap(),
            serde_json::to_string(&b.summary.nodes).unwrap(),
            "{stations} stations {standard}"
        );
    }
}

/// One station at `x_m` on the x axis saturating UDP toward the AP at the origin, at a
/// constant `rate` on 802.11a, no retries; returns (attempts, successes).
fn first_try_success(radio: &Value, rate: f64, x_m: f64, secs: f64) -> (u64, u64) {
    let mut spec = bss(1, "80211a", rate, 6.0, 1500, secs);
    spec["nodes"][1]["position_m"] = json!([x_m, 0.0, 0.0]);
    spec["wifi"]["short_retry_limit"] = json!(0);
    spec["wifi"]["long_retry_limit"] = json!(0);
    let out = run_value(&with_radio(spec, radio.clone()), 1);
    let (attempts, successes, _) = mac(&out, 1);
    (attempts, successes)
}

#[test]
fn paper_003_cell_radius_370_m_at_6_and_37_m_at_54_mbps() {
    // QualNet 4.0.1's 802.11a defaults (paper 003's simulator): 20 dBm at 6 Mbit/s and 16 at
    // 54, receive sensitivity −85 and −69 dBm, so budgets of 105 and 85 dB: 20 dB apart, a
    // range ratio of 10 with a free-space exponent of 2. The reference loss puts the 6 Mbit/s
    // edge at 370 m: L0 = 105 − 20·log10(370) = 53.64 dB (Friis at 5.2 GHz is 46.77 dB at 1 m,
    // so 6.9 dB of system loss); then 54 Mbit/s reaches 10^((85 − 53.64)/20) = 37.0 m (hand
    // computation). Noise figure 7 dB (ns-3's): at −69 dBm the SNR is 25 dB, above NIST's
    // 22.7 dB for 90 % at 54 Mbit/s, so the sensitivities set both edges.
    let radio = json!({
        "path_loss": {"kind": "log-distance", "exponent": 2.0, "reference_distance_m": 1.0, "reference_loss_db": 53.64},
        "tx_power_dbm": 20.0,
        "tx_power_by_rate_dbm": [[6.0, 20.0], [9.0, 20.0], [12.0, 19.0], [18.0, 19.0], [24.0, 18.0], [36.0, 18.0], [48.0, 16.0], [54.0, 16.0]],
        "noise_figure_db": 7.0,
        "rx_sensitivity_dbm": -101.0,
        "rx_sensitivity_by_rate_dbm": [[6.0, -85.0], [9.0, -85.0], [12.0, -83.0], [18.0, -83.0], [24.0, -78.0], [36.0, -78.0], [48.0, -69.0], [54.0, -69.0]],
        "cca_threshold_dbm": -82.0,
        "error_model": "nist",
    });
    for (rate, edge_m) in [(6.0, 370.0), (54.0, 37.0)] {
        // 5 % inside the edge every frame gets through; 5 % beyond it none does.
        let (a, s) = first_try_success(&radio, rate, 0.95 * edge_m, 1.0);
        assert!(a > 100 && s as f64 >= 0.9 * a as f64, "{rate} Mbit/s at {} m: {s}/{a}", 0.95 * edge_m);
        if rate == 6.0 {
            continue; // beyond the 6 Mbit/s edge there is no link at all (below)
        }
        let (a, s) = first_try_success(&radio, rate, 1.05 * edge_m, 1.0);
        assert!(a > 100 && s == 0, "{rate} Mbit/s at {} m: {s}/{a}", 1.05 * edge_m);
    }
    // Beyond 370 m even the lowest rate fails, so the station is no radio neighbour of the AP
    // and the flow is refused with its reason rather than run idle.
    let mut spec = bss(1, "80211a", 6.0, 6.0, 1500, 1.0);
    spec["nodes"][1]["position_m"] = json!([1.05 * 370.0, 0.0, 0.0]);
    let spec: airtcp_core::WorldSpec = serde_json::from_value(with_radio(spec, radio)).unwrap();
    let e = airtcp_core::run(&spec, 1).err().expect("refused").0;
    assert!(e.contains("unreachable"), "{e}");
}

#[test]
fn at_the_ns3_defaults_the_delivery_ratio_follows_the_nist_curve() {
    // 802.11a 54 Mbit/s, ns-3 defaults, no fading: a DATA frame of 1564 bytes and its ACK (14
    // bytes at 24 Mbit/s) each survive with the product of their parts' chunk success rates at
    // the link's SNR (ns-3 InterferenceHelper, one chunk per part); the first-try success ratio
    // is their product. Pick the distance where it is about one half.
    let model = ErrorRateModel::Nist;
    let noise = noise_mw(20e6, 7.0);
    let snr_at = |d: f64| dbm_to_mw(16.0206 - (46.6777 + 30.0 * d.log10())) / noise;
    let m54 = Standard::A.mode(54_000).unwrap();
    let m6 = Standard::A.mode(6_000).unwrap();
    // Bits = rate × duration (ns-3): the L-SIG 24 bits at 6; the PSDU from the SERVICE field to
    // the last symbol: DATA ceil((16 + 12512 + 6)/216) = 59 symbols = 236 us = 12744 bits at 54;
    // the ACK answers at the basic rate, 6 Mbit/s (10.6.6.5.2, basic rate set {6}):
    // ceil((16 + 112 + 6)/24) = 6 symbols = 24 us = 144 bits.
    let frame = |snr: f64, mode: ModeId, us: u64| {
        model.chunk_success(snr, m6, 24)
            * model.chunk_success(snr, mode, u64::from(mode.rate_kbps()) * us / 1000)
    };
    let expect = |d: f64| {
        let s = snr_at(d);
        frame(s, m54, 236) * frame(s, m6, 24)
    };
    let mut d = 20.0;
    while expect(d) > 0.5 {
        d += 0.05;
    }
    let p = expect(d);
    let (a, s) = first_try_success(&with_detection(ns3_radio(), false), 54.0, d, 10.0);
    let measured = s as f64 / a as f64;
    // Binomial 95 % interval on `a` frames: ±1.96·sqrt(p(1 − p)/a) (~0.6 % here) plus slack
    // for the MAC/PSDU boundary (the chunks are split into parts, the product is the same).
    let half = 1.96 * (p * (1.0 - p) / a as f64).sqrt() + 0.002;
    assert!((measured - p).abs() < half, "at {d:.2} m: measured {measured:.4} over {a} frames, NIST {p:.4}");
}

fn with_detection(mut radio: Value, on: bool) -> Value {
    if on {
        radio["preamble_detection"] = json!({"snr_db": 4.0, "min_rssi_dbm": -82.0});
    }
    radio
}

#[test]
fn rayleigh_block_fading_averages_the_success_rate_over_the_exponential_fade() {
    // One fade per frame and direction: E[success] = ∫ S(γ̄·g) e^(−g) dg for DATA and for
    // its ACK (independent fades), the product of the two means (Rayleigh, research note §5.2).
    // At 15 m the mean SNR is 28.0 dB; deep fades cost about a quarter of the frames.
    let mut radio = ns3_radio();
    radio["fading"] = json!({"kind": "rayleigh"});
    let model = ErrorRateModel::Nist;
    let noise = noise_mw(20e6, 7.0);
    let d: f64 = 15.0;
    let mean_snr = dbm_to_mw(16.0206 - (46.6777 + 30.0 * d.log10())) / noise;
    let (m6, m54) = (ModeId::by_name("OfdmRate6Mbps").unwrap(), ModeId::by_name("OfdmRate54Mbps").unwrap());
    let mean = |mode: ModeId, us: u64| {
        // Midpoint rule on g = −ln(u), u uniform: E[f(g)] = ∫0^1 f(−ln u) du.
        let n = 20_000;
        (0..n)
            .map(|k| {
                let g = -((k as f64 + 0.5) / n as f64).ln();
                let s = mean_snr * g;
                model.chunk_success(s, m6, 24)
                    * model.chunk_success(s, mode, u64::from(mode.rate_kbps()) * us / 1000)
            })
            .sum::<f64>()
            / n as f64
    };
    let p = mean(m54, 236) * mean(m6, 24); // DATA at 54, its ACK at 6 (see above)
    let (a, s) = first_try_success(&radio, 54.0, d, 10.0);
    let measured = s as f64 / a as f64;
    let half = 1.96 * (p * (1.0 - p) / a as f64).sqrt() + 0.002;
    assert!((measured - p).abs() < half, "measured {measured:.4} over {a} frames, closed form {p:.4}");
}

#[test]
fn a_station_walking_out_of_range_stops_getting_through() {
    // 802.11a 6 Mbit/s at the ns-3 defaults: a 1500-byte frame needs an SNR of a few dB
    // (NIST), reached near 16.02 − 46.68 − 30·log10(d) = −94 + 3, d ≈ 100 m. A station starting
    // at 30 m and walking away at 20 m/s is out of reach well before 5.5 s (140 m, SNR −1.4 dB):
    // a run of 8 s delivers no more than one of 5.5 s; it keeps trying and dropping meanwhile.
    let mut spec = bss(1, "80211a", 6.0, 6.0, 1500, 5.5);
    spec["nodes"][1]["position_m"] = json!([30.0, 0.0, 0.0]);
    spec["nodes"][1]["mobility"] = json!({"kind": "constant-velocity", "velocity_mps": [20.0, 0.0, 0.0]});
    let spec = with_radio(spec, ns3_radio());
    let short = run_value(&spec, 1);
    let mut long_spec = spec.clone();
    long_spec["duration_ns"] = json!(8_000_000_000u64);
    let long = run_value(&long_spec, 1);
    let (got_short, got_long) =
        (short.summary.flows[0].delivered_packets, long.summary.flows[0].delivered_packets);
    assert!(got_short > 1000, "{got_short}");
    assert_eq!(got_long, got_short);
    let (attempts_short, _, drops_short) = mac(&short, 1);
    let (attempts_long, _, drops_long) = mac(&long, 1);
    assert!(drops_long > drops_short + 50, "drops {drops_short} then {drops_long}");
    assert!(attempts_long > attempts_short + 200, "attempts {attempts_short} then {attempts_long}");
}

#[test]
fn frame_capture_lets_a_near_station_win_over_a_far_hidden_one() {
    // ns-3 defaults with preamble detection (−82 dBm, 4 dB): AP at 0, `near` at 5 m (−51.6 dBm
    // at the AP), `far` at −50 m (−81.6 dBm, detected); the stations are 55 m apart (−82.9
    // dBm, not detected, below the CCA threshold), so neither senses the other. Without capture the AP stays locked on whichever frame came first; with capture
    // (5 dB, 16 us, ns-3 SimpleFrameCaptureModel) `near` takes over a `far` preamble it
    // overlaps early, so `near` delivers more.
    let mut spec = bss(2, "80211a", 6.0, 6.0, 1500, 4.0);
    spec["nodes"][1]["position_m"] = json!([5.0, 0.0, 0.0]);
    spec["nodes"][2]["position_m"] = json!([-50.0, 0.0, 0.0]);
    let plain = run_value(&with_radio(spec.clone(), with_detection(ns3_radio(), true)), 2);
    let mut radio = with_detection(ns3_radio(), true);
    radio["capture"] = json!({"margin_db": 5.0, "window_ns": 2_000_000});
    let captured = run_value(&with_radio(spec, radio), 2);
    let got = |o: &airtcp_core::Output, f: usize| o.summary.flows[f].delivered_packets;
    assert!(got(&captured, 0) > got(&plain, 0) + 20, "near {} vs {}", got(&captured, 0), got(&plain, 0));
}

#[test]
fn random_radio_scenarios_run_without_a_panic_and_twice_alike() {
    // Stations scattered at random (some moving, some hidden from each other), with fading,
    // capture and preamble detection switched at random: debug builds check every busy count
    // and index on the way (an unbalanced count underflows and panics), and each run is
    // repeated to check it is a pure function of (spec, seed).
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut ran = 0;
    for case in 0..12 {
        let stations = 2 + (next() * 5.0) as usize;
        let standard = ["80211a", "80211b", "80211g"][(next() * 3.0) as usize];
        let (data, basic) = match standard {
            "80211b" => (11.0, 1.0),
            _ => (24.0, 6.0),
        };
        let mut spec = bss(stations, standard, data, basic, 1000, 0.8);
        spec["warmup_ns"] = json!(100_000_000u64);
        for i in 1..=stations {
            let (r, a) = (5.0 + 40.0 * next(), next() * std::f64::consts::TAU);
            spec["nodes"][i]["position_m"] = json!([r * a.cos(), r * a.sin(), 0.0]);
            if next() < 0.3 {
                let v = 20.0 * next();
                spec["nodes"][i]["mobility"] =
                    json!({"kind": "constant-velocity", "velocity_mps": [v, -v, 0.0]});
            }
        }
        let mut radio = ns3_radio();
        if next() < 0.5 {
            radio["fading"] = json!({"kind": if next() < 0.5 { "rayleigh" } else { "nakagami" }, "m": 2.0});
            if radio["fading"]["kind"] == "rayleigh" {
                radio["fading"] = json!({"kind": "rayleigh", "coherence_ns": if next() < 0.5 { Some(2_000_000u64) } else { None }});
            }
        }
        if next() < 0.5 {
            radio["capture"] = json!({"margin_db": 5.0, "window_ns": 16_000});
        }
        radio = with_detection(radio, next() < 0.6);
        if next() < 0.3 {
            spec["traces"] = json!({"receptions": true, "positions": true});
        }
        let spec = with_radio(spec, radio);
        let parsed: airtcp_core::WorldSpec = serde_json::from_value(spec.clone()).unwrap();
        // A far station may have no link at all: refused with its reason, never run idle.
        let Ok(a) = airtcp_core::run(&parsed, case) else { continue };
        ran += 1;
        let b = run_value(&spec, case);
        assert_eq!(a.summary.events, b.summary.events, "case {case}");
        assert_eq!(
            serde_json::to_string(&a.summary.nodes).unwrap(),
            serde_json::to_string(&b.summary.nodes).unwrap(),
            "case {case}"
        );
    }
    assert!(ran >= 6, "only {ran} of 12 random scenarios had every station linked");
}

#[test]
fn log_normal_shadowing_draws_one_reciprocal_loss_per_pair() {
    // 30 stations 5 m from the AP, each sending 100 kbit/s: without shadowing every frame
    // reaches the AP at 16.0206 - 46.6777 - 30 log10(5) = -51.626 dBm (closed form). With
    // sigma = 6 dB each station's frames arrive at their own power for the whole run: 30
    // draws of N(-51.626, 6^2), whose mean lies within 4 x 6 / sqrt(30) = 4.4 dB and whose
    // sample deviation within [3.5, 8.5] dB (its standard error is 6 / sqrt(60) = 0.77). The
    // AP's ACKs meet each station at the power of its frames at the AP: reciprocal.
    let spec = |sigma: f64| {
        let mut radio = ns3_radio();
        radio["shadowing_db"] = json!(sigma);
        let mut spec = with_radio(bss(30, "80211a", 6.0, 6.0, 100, 1.0), radio);
        for f in spec["flows"].as_array_mut().unwrap() {
            f["kind"] = json!("udp_cbr");
            f["rate_bps"] = json!(1e5);
        }
        spec["traces"] = json!({"receptions": true});
        spec
    };
    // (receiver, sender) -> the powers of its receptions [dBm]
    let powers = |spec: &Value| {
        let out = run_value(spec, 1);
        let (_, cols) = out.traces.iter().find(|(n, _)| *n == "receptions").expect("trace");
        let col = |name: &str| &cols.iter().find(|(c, _)| *c == name).expect("column").1;
        let (airtcp_core::Column::U32(node), airtcp_core::Column::U32(src), airtcp_core::Column::F64(dbm)) =
            (col("node"), col("src"), col("rx_dbm"))
        else {
            panic!("column types")
        };
        let mut by: std::collections::BTreeMap<(u32, u32), Vec<f64>> = Default::default();
        for k in 0..dbm.len() {
            by.entry((node[k], src[k])).or_default().push(dbm[k]);
        }
        by
    };
    let flat = powers(&spec(0.0));
    for k in 1..=30u32 {
        let p = &flat[&(0, k)];
        assert!(p.iter().all(|&x| (x - -51.626).abs() < 0.001), "{:?}", &p[..1]);
    }
    let shadowed = powers(&spec(6.0));
    let at_ap: Vec<f64> = (1..=30u32)
        .map(|k| {
            let p = &shadowed[&(0, k)];
            assert!(p.iter().all(|&x| x == p[0]), "one loss for the run: {:?}", &p[..2]);
            // Reciprocal: the AP's frames (ACKs, same power) arrive at station k alike.
            assert!((shadowed[&(k, 0)][0] - p[0]).abs() < 1e-9);
            p[0]
        })
        .collect();
    let mean = at_ap.iter().sum::<f64>() / 30.0;
    let sd = (at_ap.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 29.0).sqrt();
    assert!((mean - -51.626).abs() < 4.4 && (3.5..8.5).contains(&sd), "mean {mean}, sd {sd}");
}
