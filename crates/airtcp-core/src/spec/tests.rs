//! Tests of the whole spec through `run_json`: the JSON layer's messages and each section's
//! checks, every error naming the field path, the value and what is allowed.

/// A valid spec: one station sending saturating UDP to its AP for 10 ms.
pub(super) fn good() -> serde_json::Value {
    serde_json::json!({
        "duration_ns": 10_000_000u64,
        "wifi": {"standard": "80211a", "data_rate_mbps": 54.0, "basic_rate_mbps": 6.0},
        "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
        "nodes": [
            {"name": "ap", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "ap"},
            {"name": "sta1", "position_m": [5.0, 0.0, 0.0], "wifi": true, "role": "sta"}
        ],
        "flows": [{"kind": "udp_saturating", "src": 1, "dst": 0, "payload_bytes": 1500}]
    })
}

fn error_of(text: &str) -> String {
    match crate::run_json(text, 1) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.0,
    }
}

fn error_with(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v = good();
    edit(&mut v);
    error_of(&v.to_string())
}

#[test]
fn the_good_spec_runs() {
    assert!(crate::run_json(&good().to_string(), 1).is_ok());
}

#[test]
fn type_errors_name_the_field_the_value_and_what_is_allowed() {
    let e = error_with(|v| v["flows"][0]["payload_bytes"] = (-1).into());
    assert_eq!(
        e,
        "flows.0.payload_bytes: out of range (got integer `-1`); allowed: an integer 0..=4294967295"
    );
    let e = error_with(|v| v["wifi"]["cw_min"] = "x".into());
    assert_eq!(e, "wifi.cw_min: wrong type (got string \"x\"); allowed: an integer 0..=4294967295");
    // u64 overflow: JSON numbers beyond u64 are floats to serde_json.
    let e = error_with(|v| v["duration_ns"] = serde_json::json!(18446744073709551616.0));
    assert!(e.starts_with("duration_ns: wrong type (got floating point `1.8446744073709552e+19`)"), "{e}");
    // The last field of an object, and a whole table of the wrong type.
    let e = error_with(|v| v["nodes"][1]["role"] = 7.into());
    assert_eq!(e, "nodes.1.role: wrong type (got integer `7`); allowed: ap, sta, adhoc, host, mesh");
    let e = error_with(|v| v["channel"] = 1.5.into());
    assert_eq!(e, "channel: wrong type (got floating point `1.5`); allowed: an object");
    let e = error_with(|v| v["nodes"][0]["position_m"] = serde_json::json!([0.0, 0.0]));
    assert!(e.starts_with("nodes.0.position_m: wrong length (got 2)"), "{e}");
}

#[test]
fn missing_unknown_and_misspelt_fields_are_named() {
    let e = error_with(|v| {
        v.as_object_mut().map(|m| m.remove("duration_ns"));
    });
    assert_eq!(e, "duration_ns: required field is missing");
    let e = error_with(|v| {
        v["nodes"][1].as_object_mut().map(|m| m.remove("role"));
    });
    assert_eq!(e, "nodes.1.role: required field is missing");
    let e = error_with(|v| v["wifi"]["bogus"] = 1.into());
    assert!(e.starts_with("wifi.bogus: unknown field; allowed: standard, erp_mixed,"), "{e}");
    let e = error_with(|v| v["wifi"]["access"] = "hcf".into());
    assert_eq!(e, "wifi.access: unknown value \"hcf\"; allowed: dcf, edca");
    let e = error_with(|v| v["channel"]["error"] = serde_json::json!({"kind": "awgn"}));
    assert_eq!(e, "channel.error.kind: unknown value \"awgn\"; allowed: none, fer, ber, gilbert, interferer");
    // A key that is not a word is quoted, and a long one cut short.
    let e = error_with(|v| v["traces"] = serde_json::json!({"bad key": true}));
    assert!(e.starts_with("traces.\"bad key\": unknown field"), "{e}");
    let long = "k".repeat(10_000);
    let e = error_with(|v| v[long.as_str()] = 1.into());
    assert!(e.len() < 600 && e.starts_with("\"kkkk"), "{e}");
}

#[test]
fn long_values_are_echoed_as_a_short_prefix() {
    let long = "x".repeat(100_000);
    let e = error_with(|v| v["wifi"]["cw_max"] = long.as_str().into());
    assert!(e.starts_with("wifi.cw_max: wrong type (got string \"xxx"), "{e}");
    assert!(e.len() < 300, "{} characters", e.len());
}

#[test]
fn syntax_errors_name_where_the_parser_stopped() {
    let text = good().to_string().replace("\"payload_bytes\":1500", "\"payload_bytes\":NaN");
    let e = error_of(&text);
    assert!(e.starts_with("flows.0.payload_bytes: not valid JSON (expected value at line 1 column"), "{e}");
    assert!(e.ends_with("allowed: a finite number (JSON has no NaN or Infinity)"), "{e}");
    assert!(error_of("").starts_with("spec: not valid JSON (EOF while parsing a value"));
    assert!(error_of("{\"wifi\": {\"standard\": \"80").starts_with("wifi.standard: not valid JSON (EOF"));
    assert!(error_of("[1, 2").starts_with("spec.1: not valid JSON"));
    let deep = format!("{{\"nodes\": {}{}}}", "[".repeat(500), "]".repeat(500));
    let e = error_of(&deep);
    assert!(e.starts_with("nodes.0.0.0.") && e.contains("recursion limit exceeded"), "{e}");
    let e = error_of(&good().to_string().replace("10000000", "1e400"));
    assert!(e.starts_with("duration_ns: not valid JSON (number out of range"), "{e}");
}

#[test]
fn the_whole_document_of_the_wrong_type() {
    assert_eq!(error_of("[]"), "spec: wrong length (got 0); allowed: an object");
    assert!(error_of("[{}]").starts_with("spec.0: wrong type (got map); allowed: an integer"));
    assert!(error_of("3").starts_with("spec: wrong type (got integer `3`)"));
    assert!(error_of("{\"nodes\": 3}").starts_with("nodes: wrong type (got integer `3`); allowed: an array"));
}

#[test]
fn a_huge_queue_limit_is_refused_not_filled() {
    // A saturating source fills its queue: 2^31 packets ran the process out of memory.
    let e = error_with(|v| v["wifi"]["queue_limit_packets"] = 2_147_483_648u64.into());
    assert_eq!(e, "wifi.queue_limit_packets: 2147483648 is out of range; allowed: 1..=100000 packets");
    let e = error_with(|v| v["wifi"]["queue_limit_packets"] = 0.into());
    assert!(e.starts_with("wifi.queue_limit_packets: 0 is out of range"), "{e}");
    let e = error_with(|v| {
        if let Some(nodes) = v["nodes"].as_array_mut() {
            nodes.push(serde_json::json!({"name": "srv", "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"}));
        }
        v["wired_links"] = serde_json::json!([{"a": 0, "b": 2, "rate_bps": 1000000, "delay_ns": 0, "queue_limit_packets": 4294967295u32}]);
    });
    assert!(e.starts_with("wired_links.0.queue_limit_packets: 4294967295 is out of range"), "{e}");
}

#[test]
fn a_report_interval_of_one_ns_is_refused() {
    // One counter per interval: 1 ns over 2 s was 2e9 counters (16 GB).
    let e = error_with(|v| {
        v["duration_ns"] = 2_000_000_000u64.into();
        v["flows"][0]["report_interval_ns"] = 1.into();
    });
    assert_eq!(
        e,
        "flows.0.report_interval_ns: 1 is out of range; allowed: >= 2000 ns (at most 1000000 \
         intervals over the 2000000000 ns measured)"
    );
    let mut v = good();
    v["flows"][0]["report_interval_ns"] = 10.into(); // 10 ms / 10 ns = 1e6 intervals: fine
    assert!(crate::run_json(&v.to_string(), 1).is_ok());
}

#[test]
fn an_rto_that_rounds_to_zero_ns_is_refused() {
    // RTO 0 ns: the retransmission timer fired at the same instant forever (a hang).
    let tcp = |t: serde_json::Value| {
        move |v: &mut serde_json::Value| {
            v["flows"][0] =
                serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0, "payload_bytes": 1460, "tcp": t});
        }
    };
    let e = error_with(tcp(
        serde_json::json!({"min_rto_ms": 0.0, "max_rto_ms": 1e-300, "initial_rto_ms": 1e-300}),
    ));
    assert_eq!(e, "flows.0.tcp.max_rto_ms: 1e-300 is out of range; allowed: >= 0.000001 ms (1 ns)");
    let e = error_with(tcp(serde_json::json!({"initial_rto_ms": 1e-7})));
    assert!(e.starts_with("flows.0.tcp.initial_rto_ms: 1e-7 is out of range"), "{e}");
    let e = error_with(tcp(serde_json::json!({"ack_every": 0})));
    assert_eq!(e, "flows.0.tcp.ack_every: 0 is out of range; allowed: >= 1 segments");
    let e = error_with(tcp(serde_json::json!({"mss_bytes": 1000, "snd_buf_bytes": 999})));
    assert_eq!(e, "flows.0.tcp.snd_buf_bytes: 999 is out of range; allowed: >= mss_bytes (1000)");
}

#[test]
fn a_file_of_u64_max_bytes_is_refused() {
    // tcp_file: the first sequence number after the data, 1 + file_bytes, overflowed
    // (a panic in a debug build, a wrapped number in a release build).
    let e = error_with(|v| {
        v["flows"][0] = serde_json::json!({"kind": "tcp_file", "src": 1, "dst": 0,
            "payload_bytes": 1460, "file_bytes": u64::MAX});
    });
    assert!(e.starts_with("flows.0.file_bytes: 18446744073709551615 is out of range; allowed: 1..="), "{e}");
    // clap_file: more than 2^32 - 1 segments were silently cut to that many.
    let e = error_with(|v| {
        v["flows"][0] = serde_json::json!({"kind": "clap_file", "src": 1, "dst": 0,
            "payload_bytes": 1, "file_bytes": 5_000_000_000u64, "clap": {"mss_bytes": 1}});
    });
    assert!(
        e.starts_with("flows.0.file_bytes: 5000000000 is out of range; allowed: 1..=4294967295 bytes"),
        "{e}"
    );
}

#[test]
fn an_initial_cwnd_of_u32_max_is_refused() {
    // BIC's ssthresh multiplied cwnd by 819 in 32 bits: overflow (debug panic).
    let e = error_with(|v| {
        v["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0,
            "payload_bytes": 1460, "tcp": {"cc": "bic", "initial_cwnd": u32::MAX}});
    });
    assert_eq!(e, "flows.0.tcp.initial_cwnd: 4294967295 is out of range; allowed: 1..=1000000 segments");
}

#[test]
fn names_are_echoed_as_a_short_prefix() {
    let long = "x".repeat(5000);
    let e = error_with(|v| v["wifi"]["standard"] = long.as_str().into());
    assert!(e.starts_with("wifi.standard: unknown value \"xxxx") && e.len() < 200, "{e}");
    assert!(e.contains("... (5000 characters); allowed: 80211a, 80211b, 80211g"), "{e}");
    let e = error_with(|v| {
        v["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0,
            "payload_bytes": 1460, "tcp": {"recovery": long}});
    });
    assert!(e.starts_with("flows.0.tcp.recovery: unknown value \"xxx") && e.len() < 200, "{e}");
    assert!(e.ends_with("\"... (5000 characters); allowed: tahoe, reno, newreno, sack"), "{e}");
    let e = error_with(|v| v["nodes"][1]["name"] = "ap".into());
    assert_eq!(e, "nodes.1.name: \"ap\" is empty or not unique");
}

#[test]
fn graph_errors_show_the_value() {
    let e = error_with(|v| v["flows"][0]["dst"] = 1.into());
    assert_eq!(e, "flows.0.dst: 1 is also the flow's src; allowed: another node index");
    let e = error_with(|v| v["flows"][0]["src"] = 2.into());
    assert_eq!(e, "flows.0.src: node index 2 out of range; allowed: 0..2");
    let e = error_with(|v| {
        v["channel"]["matrix"] = serde_json::json!({"rx": [[0, 1], [1, 0]], "cs": [[0, 1], [2, 0]]})
    });
    assert_eq!(e, "channel.matrix.cs.1.0: 2 is out of range; allowed: 0 or 1");
}

/// The radio model's channel section at ns-3's defaults.
pub(super) fn radio() -> serde_json::Value {
    serde_json::json!({"radio": {
        "path_loss": {"kind": "log-distance", "exponent": 3.0, "reference_distance_m": 1.0, "reference_loss_db": 46.6777},
        "tx_power_dbm": 16.0206, "noise_figure_db": 7.0, "rx_sensitivity_dbm": -101.0,
        "cca_threshold_dbm": -82.0, "error_model": "nist"
    }})
}

#[test]
fn radio_model_errors_name_the_field_the_value_and_what_is_allowed() {
    assert!(crate::run_json(
        &{
            let mut v = good();
            v["channel"] = radio();
            v
        }
        .to_string(),
        1
    )
    .is_ok());
    let with = |edit: &dyn Fn(&mut serde_json::Value)| {
        error_with(|v| {
            v["channel"] = radio();
            edit(v)
        })
    };
    let e = with(&|v| v["channel"]["radio"]["error_model"] = "table".into());
    assert_eq!(e, "channel.radio.error_model: unknown value \"table\"; allowed: nist, yans");
    let e = with(&|v| v["channel"]["radio"]["path_loss"]["exponent"] = 0.5.into());
    assert_eq!(e, "channel.radio.path_loss.exponent: 0.5 is out of range; allowed: 1..10");
    let e = with(&|v| v["channel"]["rx_range_m"] = 100.0.into());
    assert!(e.starts_with("channel.rx_range_m: is set together with channel.radio"), "{e}");
    let e = with(&|v| v["channel"]["error"] = serde_json::json!({"kind": "fer", "fer": 0.1}));
    assert!(e.starts_with("channel.error: must be none with channel.radio"), "{e}");
    let e = with(&|v| v["channel"]["radio"]["tx_power_by_rate_dbm"] = serde_json::json!([[5.5, 20.0]]));
    assert!(
        e.starts_with("channel.radio.tx_power_by_rate_dbm.0.0: 5.5 Mbit/s is not a rate of 80211a"),
        "{e}"
    );
    let e = with(&|v| v["channel"]["radio"]["fading"] = serde_json::json!({"kind": "nakagami", "m": 0.2}));
    assert_eq!(e, "channel.radio.fading.m: 0.2 is out of range; allowed: 0.5..100");
    let e = with(&|v| v["nodes"][1]["tx_power_dbm"] = 99.0.into());
    assert_eq!(e, "nodes.1.tx_power_dbm: 99 is out of range; allowed: -50..60 dBm");
    let e = with(&|v| {
        v["nodes"][1]["mobility"] = serde_json::json!({"kind": "waypoints", "points": [{"time_ns": 0, "position_m": [1.0, 0.0, 0.0]}]})
    });
    assert!(e.starts_with("nodes.1.position_m: [5.0, 0.0, 0.0] differs from the first waypoint"), "{e}");
    let e = with(&|v| {
        v["nodes"][1]["mobility"] = serde_json::json!({"kind": "random-waypoint", "area_min_m": [0.0, 0.0],
            "area_max_m": [10.0, 10.0], "speed_min_mps": 2.0, "speed_max_mps": 1.0, "pause_ns": 0})
    });
    assert!(e.starts_with("nodes.1.mobility: random waypoint speeds must satisfy"), "{e}");
    // Without the radio model the ranges are required.
    let e = error_with(|v| v["channel"] = serde_json::json!({"cs_range_m": 10.0}));
    assert!(e.starts_with("channel.rx_range_m: is missing"), "{e}");
}

#[test]
fn radio_traces_need_the_radio_model() {
    let e = error_with(|v| v["traces"] = serde_json::json!({"receptions": true}));
    assert!(e.starts_with("traces.receptions: true needs channel.radio"), "{e}");
    let mut v = good();
    v["channel"] = radio();
    v["traces"] = serde_json::json!({"receptions": true, "positions": true});
    let out = crate::run_json(&v.to_string(), 1).expect("runs");
    let names: Vec<_> = out.traces.iter().map(|(n, _)| *n).collect();
    assert!(names.contains(&"receptions") && names.contains(&"positions"), "{names:?}");
}

/// The value at `path` (object keys) in `v`.
fn at<'a>(v: &'a serde_json::Value, path: &[String]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

/// Every (path, default) the schema gives for the fields under `schema` (following `$ref`s
/// into `defs`), where `given` (the document at that place) leaves the field out.
fn defaults_left_out(
    schema: &serde_json::Value,
    defs: &serde_json::Value,
    given: &serde_json::Value,
    path: Vec<String>,
    out: &mut Vec<(Vec<String>, serde_json::Value)>,
) {
    let schema = match schema.get("$ref").and_then(|r| r.as_str()) {
        Some(r) => &defs[r.trim_start_matches("#/$defs/")],
        None => schema,
    };
    let Some(props) = schema.get("properties").and_then(|p| p.as_object()) else { return };
    for (k, sub) in props {
        let mut p = path.clone();
        p.push(k.clone());
        match given.get(k) {
            None => {
                if let Some(d) = sub.get("default") {
                    out.push((p, d.clone()));
                }
            }
            Some(g) if g.is_object() => defaults_left_out(sub, defs, g, p, out),
            Some(_) => {}
        }
    }
}

#[test]
fn the_schema_gives_the_defaults_serde_fills_in_and_every_name_family() {
    // Derived from the spec types (schemars): each default the schema states for a field the
    // good spec leaves out is the value the core reads for it (serialised back).
    let schema = super::schema();
    let defs = &schema["$defs"];
    let mut given = good();
    given["flows"][0]["tcp"] = serde_json::json!({});
    let spec: super::WorldSpec = serde_json::from_value(given.clone()).expect("the good spec");
    let read = serde_json::to_value(&spec).expect("serialises");
    let mut found = Vec::new();
    defaults_left_out(&schema, defs, &given, vec![], &mut found);
    let tcp = &defs["FlowSpec"]["properties"]["tcp"];
    let tcp_schema = tcp
        .get("anyOf")
        .and_then(|a| a[0].get("$ref"))
        .map_or(tcp.clone(), |r| serde_json::json!({"$ref": r}));
    defaults_left_out(
        &tcp_schema,
        defs,
        &given["flows"][0]["tcp"],
        vec!["flows".into(), "0".into(), "tcp".into()],
        &mut found,
    );
    assert!(found.len() >= 40, "{} defaults", found.len());
    let paths: Vec<String> = found.iter().map(|(p, _)| p.join(".")).collect();
    for p in ["flows.0.tcp.cc", "wifi.rts_threshold_bytes", "wifi.rate_control", "traces", "channel.error"] {
        assert!(paths.iter().any(|q| q == p), "{p} not among {paths:?}");
    }
    for (path, default) in &found {
        let value =
            if path[0] == "flows" { at(&read["flows"][0]["tcp"], &path[3..]) } else { at(&read, path) };
        assert_eq!(value, Some(default), "{}", path.join("."));
    }
    // Each name family lists exactly its names.
    assert_eq!(defs["RateName"]["enum"], serde_json::json!(crate::mac::rate::NAMES));
    assert_eq!(defs["Cc"]["enum"], serde_json::json!(crate::tcp::cc::NAMES));
    assert_eq!(defs["Role"]["enum"], serde_json::json!(["ap", "sta", "adhoc", "host", "mesh"]));
    // Descriptions come from the doc comments.
    let mss = &defs["TcpSpec"]["properties"]["mss_bytes"];
    assert_eq!(mss["description"], "Maximum segment size: payload bytes per segment.");
}

#[test]
fn a_starting_rate_is_a_rate_of_the_standard_for_an_adaptive_rate_control() {
    let adaptive = |v: &mut serde_json::Value| v["wifi"]["rate_control"] = "minstrel".into();
    let mut v = good();
    adaptive(&mut v);
    v["wifi"]["initial_rate_mbps"] = 24.0.into();
    assert!(crate::run_json(&v.to_string(), 1).is_ok());
    let e = error_with(|v| {
        adaptive(v);
        v["wifi"]["initial_rate_mbps"] = 11.0.into();
    });
    assert_eq!(
        e,
        "wifi.initial_rate_mbps: 11 Mbit/s is not a rate of 80211a; allowed: 6, 9, 12, 18, 24, 36, 48, 54"
    );
    let e = error_with(|v| {
        adaptive(v);
        v["wifi"]["initial_rate_mbps"] = (-1.0).into();
    });
    assert!(e.starts_with("wifi.initial_rate_mbps: -1 is not a positive rate; allowed: 6, 9,"), "{e}");
    // Every node at constant rate: nobody would start there.
    let e = error_with(|v| v["wifi"]["initial_rate_mbps"] = 24.0.into());
    assert_eq!(
        e,
        "wifi.initial_rate_mbps: 24 is not used: every node runs rate_control \"constant\" (at \
         wifi.data_rate_mbps); allowed: unset, or with an adaptive wifi.rate_control or node \
         rate_control: arf, arf-ns3, aarf, minstrel, minstrel-rt2800, agent"
    );
    // One node's own adaptive rate control is enough.
    let mut v = good();
    v["wifi"]["initial_rate_mbps"] = 24.0.into();
    v["nodes"][1]["rate_control"] = "aarf".into();
    assert!(crate::run_json(&v.to_string(), 1).is_ok());
    // 802.11n: refused, its rate controls start from their own tables.
    let e = error_with(|v| {
        v["wifi"] = serde_json::json!({"standard": "80211n", "basic_rate_mbps": 24.0,
            "rate_control": "minstrel-ht", "initial_rate_mbps": 24.0,
            "ht": {"band_ghz": 5.0, "channel_width_mhz": 20, "mcs": 7}});
    });
    assert!(e.starts_with("wifi.initial_rate_mbps: 24 is not used on 80211n"), "{e}");
}

#[test]
fn the_arf_windows_knobs_without_the_window_are_refused() {
    // Paper 003's RTT and every-slot knobs mean nothing while the window is off: named, not
    // ignored.
    let e = error_with(|s| s["wifi"]["arf_window_rtt"] = serde_json::json!("min"));
    assert_eq!(
        e,
        "wifi.arf_window_rtt: \"min\" needs wifi.arf_window_slot_ms (paper 003's window is off); allowed: \"smoothed\" while it is off"
    );
    let e = error_with(|s| s["wifi"]["arf_window_every_slot"] = serde_json::json!(true));
    assert!(e.starts_with("wifi.arf_window_every_slot: true needs wifi.arf_window_slot_ms"), "{e}");
    let e = error_with(|s| s["wifi"]["arf_window_rtt"] = serde_json::json!("queue"));
    assert_eq!(e, "wifi.arf_window_rtt: unknown value \"queue\"; allowed: smoothed, min, empty");
}

#[test]
fn one_cno_per_rtt_without_the_corruption_options_is_refused() {
    let e = error_with(|s| {
        s["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0, "payload_bytes": 1460,
                                           "tcp": {"cno_once_per_rtt": true}});
    });
    assert!(e.starts_with("flows.0.tcp.cno_once_per_rtt: true needs tcp.corruption"), "{e}");
}

#[test]
fn ns2s_newreno_rule_needs_newreno() {
    let e = error_with(|s| {
        s["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0, "payload_bytes": 1460,
                                           "tcp": {"recovery": "reno", "newreno_rule": "ns-2.1b9a"}});
    });
    assert_eq!(
        e,
        "flows.0.tcp.newreno_rule: \"ns-2.1b9a\" needs tcp.recovery \"newreno\" (got \"reno\"); allowed: \"rfc6582\" with any recovery"
    );
}

#[test]
fn an_unknown_field_names_the_nearest_and_a_long_list_is_cut() {
    // A misspelt TCP field: the nearest allowed name first; the 43 names of `tcp` are cut at
    // a name, the rest pointed to (a message a person reads, at most about 400 characters).
    let e = error_with(|s| {
        s["flows"][0] = serde_json::json!({"kind": "tcp_bulk", "src": 1, "dst": 0, "payload_bytes": 1460,
                                           "tcp": {"newreno_rul": "rfc6582"}});
    });
    assert!(
        e.starts_with(
            "flows.0.tcp.newreno_rul: unknown field; did you mean \"newreno_rule\"? allowed: profile, cc,"
        ),
        "{e}"
    );
    assert!(e.ends_with("more (docs/world-spec.md)") && e.len() < 420, "{} {e}", e.len());
    // Nothing near: no guess.
    let e = error_with(|s| s["wifi"]["zzzzzzzz"] = serde_json::json!(1));
    assert!(e.starts_with("wifi.zzzzzzzz: unknown field; allowed: standard, erp_mixed,"), "{e}");
}

#[test]
fn minstrel_status_needs_minstrel_rt2800_somewhere() {
    let e = error_with(|v| v["wifi"]["minstrel_status"] = "per-attempt".into());
    assert_eq!(
        e,
        "wifi.minstrel_status: \"per-attempt\" is not used: no MAC runs rate_control \"minstrel-rt2800\"; \
         allowed: \"rt2x00\" unless wifi.rate_control or a node's rate_control is \"minstrel-rt2800\""
    );
    let e = error_with(|v| v["wifi"]["minstrel_status"] = "rt2800".into());
    assert!(
        e.starts_with("wifi.minstrel_status: unknown value \"rt2800\"; allowed: rt2x00, per-attempt"),
        "{e}"
    );
    let mut v = good();
    v["wifi"]["rate_control"] = "minstrel-rt2800".into();
    v["wifi"]["minstrel_status"] = "per-attempt".into();
    assert!(crate::run_json(&v.to_string(), 1).is_ok());
}

#[test]
fn ns2s_backoff_rule_needs_dcf() {
    let e = error_with(|v| {
        v["wifi"]["backoff_rule"] = "ns-2".into();
        v["wifi"]["access"] = "edca".into();
    });
    assert!(e.starts_with("wifi.backoff_rule: \"ns-2\" needs wifi.access = \"dcf\""), "{e}");
    let mut v = good();
    v["wifi"]["backoff_rule"] = "ns-2".into();
    assert!(crate::run_json(&v.to_string(), 1).is_ok());
}
