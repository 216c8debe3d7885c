//! The schema against the spec's checks: every property has a description (its doc comment),
//! and every bound the schema states is the validator's, so the two cannot drift apart.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::tests::{good, radio};

/// The bound keywords of JSON Schema's numbers.
const BOUND_KEYS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/// Bounded properties the bound test cannot probe, each with the reason (`Owner.property`,
/// as [`object_schemas`] names the owners). Empty: every bound is probed.
const UNPROBED: &[(&str, &str)] = &[];

/// Fields of an internally tagged enum (a node's `mobility`) whose only bound is their type's
/// (an unsigned integer): serde reads such an enum whole before its variant, so a value out of
/// the type's range is reported at the enum (`nodes.1.mobility: out of range (got integer
/// `-1`)`), not at the field. Their refusal may name the object around them.
const NAMED_AT_ENUM: &[&str] =
    &["MobilitySpec[0].start_ns", "MobilitySpec[2].pause_ns", "WaypointSpec.time_ns"];

/// Every object schema of the world spec's schema with its name: the root (`WorldSpec`), each
/// `$defs` entry, and each variant of a tagged enum (`FadingSpec[2]`: its third).
fn object_schemas(schema: &Value) -> Vec<(String, &Value)> {
    let mut out = vec![("WorldSpec".to_string(), schema)];
    for (name, def) in schema["$defs"].as_object().expect("the schema has $defs") {
        out.push((name.clone(), def));
        for (i, variant) in def.get("oneOf").and_then(Value::as_array).into_iter().flatten().enumerate() {
            out.push((format!("{name}[{i}]"), variant));
        }
    }
    out
}

/// Every property as `(Owner.property, its schema, its owner's schema)`.
fn properties(schema: &Value) -> Vec<(String, &Value, &Value)> {
    let mut out = Vec::new();
    for (owner, obj) in object_schemas(schema) {
        for (name, prop) in obj.get("properties").and_then(Value::as_object).into_iter().flatten() {
            out.push((format!("{owner}.{name}"), prop, obj));
        }
    }
    out
}

#[test]
fn every_property_has_a_description() {
    // docs/world-spec.md's reference is generated from the schema: a field without a doc
    // comment would be a row without a meaning.
    let schema = super::schema();
    let mut missing = Vec::new();
    let all = properties(&schema);
    for (id, prop, owner) in &all {
        let described = prop.get("description").and_then(Value::as_str).is_some_and(|d| !d.trim().is_empty());
        // A tagged enum's tag (`kind`) names its variant, which the variant's doc describes.
        let tag_of_described_variant = prop.get("const").is_some() && owner.get("description").is_some();
        if !described && !tag_of_described_variant {
            missing.push(id.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} properties have no description (a doc comment on the field, or on the \
         variant for a tag): {}",
        missing.len(),
        all.len(),
        missing.join(", ")
    );
}

/// `node` with its `$ref` followed, and the name of what it describes (`owner` if inline).
fn resolve<'a>(root: &'a Value, node: &'a Value, owner: &str) -> (&'a Value, String) {
    match node.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.trim_start_matches("#/$defs/");
            (&root["$defs"][name], name.to_string())
        }
        None => (node, owner.to_string()),
    }
}

/// Where a bounded property sits in one of the base specs.
struct Site {
    base: usize,
    /// Object keys and array indices from the document's root.
    path: Vec<String>,
}

/// Walk `value` (at `path` in base spec `base`) with its schema `node`, noting under
/// `Owner.property` every bounded property of every object met, given or not.
fn locate(
    root: &Value,
    node: &Value,
    owner: &str,
    value: &Value,
    path: &[String],
    base: usize,
    out: &mut BTreeMap<String, Vec<Site>>,
) {
    let (node, owner) = resolve(root, node, owner);
    // An Option's anyOf, a tagged enum's oneOf: the alternatives that describe `value`.
    for key in ["anyOf", "oneOf"] {
        for (i, alt) in node.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            let alt_owner = if alt.get("$ref").is_some() { owner.clone() } else { format!("{owner}[{i}]") };
            let tag_differs = alt
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .any(|(k, p)| p.get("const").is_some_and(|c| value.get(k) != Some(c)));
            if !tag_differs && alt.get("type") != Some(&json!("null")) {
                locate(root, alt, &alt_owner, value, path, base, out);
            }
        }
    }
    if let (Some(props), Some(given)) = (node.get("properties").and_then(Value::as_object), value.as_object())
    {
        for (name, prop) in props {
            let mut p = path.to_vec();
            p.push(name.clone());
            if BOUND_KEYS.iter().any(|k| prop.get(k).is_some()) {
                out.entry(format!("{owner}.{name}")).or_default().push(Site { base, path: p.clone() });
            }
            if let Some(v) = given.get(name) {
                locate(root, prop, &owner, v, &p, base, out);
            }
        }
    }
    if let (Some(items), Some(values)) = (node.get("items"), value.as_array()) {
        for (i, v) in values.iter().enumerate() {
            let mut p = path.to_vec();
            p.push(i.to_string());
            locate(root, items, &owner, v, &p, base, out);
        }
    }
}

/// `spec` with the value at `path` (its last key an object's) set to `v`.
fn with(spec: &Value, path: &[String], v: Value) -> Value {
    let mut spec = spec.clone();
    let (last, parents) = path.split_last().expect("a path");
    let mut at = &mut spec;
    for k in parents {
        at = match at {
            Value::Array(items) => &mut items[k.parse::<usize>().expect("an index")],
            other => &mut other[k.as_str()],
        };
    }
    at[last.as_str()] = v;
    spec
}

/// What the core says of `spec`: read and validated, or the error.
fn check(spec: &Value) -> Result<(), String> {
    let s = super::WorldSpec::from_json(&spec.to_string()).map_err(|e| e.0)?;
    s.validate().map_err(|e| e.0)
}

/// Whether `error` is about the field at `path`: its path is the field's, or that of an
/// object around it whose message names the field (a random waypoint's speeds), or any object
/// around it if `at_enum` (a field of [`NAMED_AT_ENUM`]).
fn names_field(error: &str, path: &[String], at_enum: bool) -> bool {
    let field = path.join(".");
    let Some((at, message)) = error.split_once(": ") else { return false };
    let around = field.starts_with(&format!("{at}."));
    at == field || (around && (at_enum || path.last().is_some_and(|name| message.contains(name.as_str()))))
}

/// The next float from `x` up or down (`f64::next_up`, newer than the crate's MSRV).
fn next_float(x: f64, up: bool) -> f64 {
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let away_from_zero = (x > 0.0) == up;
    f64::from_bits(if away_from_zero { x.to_bits() + 1 } else { x.to_bits() - 1 })
}

/// The number the core reads for `x` written in a spec (serde_json's parser, without its
/// `float_roundtrip` feature, may land a unit in the last place off the written number).
fn read_back(x: f64) -> f64 {
    serde_json::from_str::<Value>(&json!(x).to_string()).ok().and_then(|v| v.as_f64()).expect("a number")
}

/// The value just beyond `bound`, up or down: the next integer, or the nearest float that the
/// core reads beyond it.
fn beside(bound: &Value, integer: bool, up: bool) -> Value {
    if integer {
        let b = bound.as_i64().expect("an integer bound within i64");
        return json!(if up { b + 1 } else { b - 1 });
    }
    let b = bound.as_f64().expect("a numeric bound");
    let mut x = b;
    loop {
        x = next_float(x, up);
        let read = read_back(x);
        if (up && read > b) || (!up && read < b) {
            return json!(x);
        }
    }
}

/// Base specs, valid, that between them hold every section of the world spec: each bounded
/// property is probed in every one where it has a place (set there if absent).
fn bases() -> Vec<(&'static str, Value)> {
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut v = good();
        f(&mut v);
        v
    };
    let flow = |f: Value| edit(&move |v| v["flows"][0] = f.clone());
    let error = |e: Value| edit(&move |v| v["channel"]["error"] = e.clone());
    let ht = json!({"standard": "80211n", "basic_rate_mbps": 24.0,
        "ht": {"band_ghz": 5.0, "channel_width_mhz": 20, "streams": 2, "mcs": 7, "max_ampdu_time_us": 4000}});
    let txq = json!({"target_ms": 20.0, "interval_ms": 100.0, "quantum_bytes": 300,
        "limit_packets": 8192, "airtime_fairness": true, "aql": true,
        "aql_low_us": 1, "aql_high_us": 1_000_000, "aql_threshold_us": 24_000});
    vec![
        ("80211a", good()),
        (
            // 1 ms measured: a report interval of 1 ns is 10^6 intervals, the most allowed.
            "udp_cbr",
            edit(&|v| {
                v["duration_ns"] = 1_000_000.into();
                v["flows"][0] = json!({"kind": "udp_cbr", "src": 1, "dst": 0, "payload_bytes": 1500,
                    "rate_bps": 1e6});
            }),
        ),
        (
            "udp_onoff",
            flow(json!({"kind": "udp_onoff", "src": 1, "dst": 0, "payload_bytes": 1500,
                "rate_bps": 1e6, "on_off": {"on_mean_ns": 1_000_000, "off_mean_ns": 1_000_000}})),
        ),
        (
            // A 1-byte MSS: the buffers' least, mss_bytes, is 1.
            "tcp_file",
            flow(json!({"kind": "tcp_file", "src": 1, "dst": 0, "payload_bytes": 1,
                "file_bytes": 1_000_000, "tcp": {"mss_bytes": 1}})),
        ),
        (
            "clap_file",
            flow(json!({"kind": "clap_file", "src": 1, "dst": 0, "payload_bytes": 1000,
                "file_bytes": 1_000_000, "clap": {}})),
        ),
        ("fer", error(json!({"kind": "fer", "fer": 0.1}))),
        ("ber", error(json!({"kind": "ber", "ber": 1e-5}))),
        (
            "gilbert",
            error(
                json!({"kind": "gilbert", "good_ms": 90.0, "bad_ms": 10.0, "loss_good": 0.0, "loss_bad": 1.0}),
            ),
        ),
        ("interferer", error(json!({"kind": "interferer", "on_ms": 10.0, "off_ms": 90.0}))),
        (
            // speed_min_mps 0: the fastest leg's least is just above 0.
            "radio log-distance",
            edit(&|v| {
                v["channel"] = radio();
                let r = &mut v["channel"]["radio"];
                r["fading"] = json!({"kind": "nakagami", "m": 1.0});
                r["preamble_detection"] = json!({"snr_db": 4.0, "min_rssi_dbm": -82.0});
                r["capture"] = json!({"margin_db": 5.0, "window_ns": 16_000});
                v["nodes"][1]["mobility"] = json!({"kind": "random-waypoint", "area_min_m": [0.0, 0.0],
                    "area_max_m": [10.0, 10.0], "speed_min_mps": 0.0, "speed_max_mps": 2.0, "pause_ns": 0});
            }),
        ),
        (
            "radio friis",
            edit(&|v| {
                v["channel"] = radio();
                let r = &mut v["channel"]["radio"];
                r["path_loss"] = json!({"kind": "friis", "frequency_hz": 5.15e9, "system_loss_db": 0.0});
                r["fading"] = json!({"kind": "rayleigh"});
                v["nodes"][0]["mobility"] = json!({"kind": "waypoints", "points": [
                    {"time_ns": 0, "position_m": [0.0, 0.0, 0.0]},
                    {"time_ns": 1_000_000, "position_m": [1.0, 0.0, 0.0]}]});
                v["nodes"][1]["mobility"] =
                    json!({"kind": "constant-velocity", "velocity_mps": [1.0, 0.0, 0.0]});
            }),
        ),
        (
            "radio doppler",
            edit(&|v| {
                v["channel"] = radio();
                let r = &mut v["channel"]["radio"];
                r["fading"] = json!({"kind": "doppler", "doppler_hz": 17.3, "carrier_hz": 5.18e9});
                r["estimation"] = json!("preamble");
            }),
        ),
        (
            "radio tgn",
            edit(&|v| {
                v["channel"] = radio();
                let r = &mut v["channel"]["radio"];
                r["fading"] = json!({"kind": "tgn", "model": "D", "doppler_hz": 5.73});
                r["estimation"] = json!("preamble");
            }),
        ),
        ("80211n", edit(&|v| v["wifi"] = ht.clone())),
        (
            "80211ac",
            edit(&|v| {
                v["wifi"] = json!({"standard": "80211ac", "basic_rate_mbps": 24.0, "ht": {"band_ghz": 5.0,
                    "channel_width_mhz": 80, "streams": 2, "mcs": 9, "short_gi": true}})
            }),
        ),
        (
            "80211ax",
            edit(&|v| {
                v["wifi"] = json!({"standard": "80211ax", "basic_rate_mbps": 24.0, "ht": {"band_ghz": 5.0,
                    "channel_width_mhz": 80, "streams": 2, "mcs": 11, "gi_ns": 800,
                    "max_ampdu_bytes": 1_000_000}})
            }),
        ),
        ("qdisc", edit(&|v| v["wifi"]["qdisc"] = json!({"kind": "codel", "limit_packets": 100}))),
        ("txq", edit(&|v| v["wifi"]["txq"] = txq.clone())),
        (
            "mesh",
            edit(&|v| {
                v["wifi"]["access"] = "edca".into();
                v["nodes"] = json!([
                    {"name": "m0", "position_m": [0.0, 0.0, 0.0], "wifi": true, "role": "mesh"},
                    {"name": "m1", "position_m": [5.0, 0.0, 0.0], "wifi": true, "role": "mesh"}]);
                v["mesh"] = json!({});
            }),
        ),
        (
            // Two links, each end 0 once as a and once as b; a route; a flow from node 0.
            "wired",
            edit(&|v| {
                if let Some(nodes) = v["nodes"].as_array_mut() {
                    for name in ["h2", "h3"] {
                        nodes.push(json!({"name": name, "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"}));
                    }
                }
                v["wired_links"] = json!([
                    {"a": 0, "b": 2, "rate_bps": 100_000_000u64, "delay_ns": 2_000_000},
                    {"a": 3, "b": 0, "rate_bps": 100_000_000u64, "delay_ns": 2_000_000}]);
                v["routes"] = json!([{"node": 1, "dst": 2, "next_hop": 0}]);
                v["flows"][0] = json!({"kind": "udp_saturating", "src": 0, "dst": 2, "payload_bytes": 1500});
            }),
        ),
    ]
}

#[test]
fn the_schemas_bounds_are_the_validators() {
    // Each bound the schema states is tight and sound: in some base spec the core accepts the
    // bound (or, for an exclusive one, the next value inside) and refuses the next value
    // beyond it with an error naming the field; and in every base spec where the field has a
    // place, the core refuses the value beyond.
    let schema = super::schema();
    let bases = bases();
    for (name, base) in &bases {
        assert_eq!(check(base), Ok(()), "base spec {name}");
    }
    let mut sites = BTreeMap::new();
    for (i, (_, base)) in bases.iter().enumerate() {
        locate(&schema, &schema, "WorldSpec", base, &[], i, &mut sites);
    }
    for id in NAMED_AT_ENUM {
        assert!(sites.contains_key(*id), "{id} is in NAMED_AT_ENUM but no base spec holds it");
    }
    let mut failures = Vec::new();
    let mut probed = 0;
    for (id, prop, _) in properties(&schema) {
        let bounds: Vec<(&str, &Value)> =
            BOUND_KEYS.iter().filter_map(|k| Some((*k, prop.get(*k)?))).collect();
        if bounds.is_empty() {
            continue;
        }
        if let Some((_, why)) = UNPROBED.iter().find(|(u, _)| *u == id) {
            assert!(!sites.contains_key(&id), "{id} is listed as not probed ({why}) but has a place");
            continue;
        }
        let Some(at) = sites.get(&id) else {
            failures.push(format!("{id}: no base spec holds it (add one, or list it in UNPROBED)"));
            continue;
        };
        let integer = match &prop["type"] {
            Value::String(t) => t == "integer",
            Value::Array(ts) => ts.contains(&json!("integer")),
            _ => false,
        };
        for (key, bound) in bounds {
            let (inside, outside) = match key {
                "minimum" => (bound.clone(), beside(bound, integer, false)),
                "maximum" => (bound.clone(), beside(bound, integer, true)),
                "exclusiveMinimum" => (beside(bound, integer, true), bound.clone()),
                _ => (beside(bound, integer, false), bound.clone()),
            };
            let at_enum = NAMED_AT_ENUM.contains(&id.as_str());
            let mut tight = false;
            let mut seen = Vec::new();
            for site in at {
                let (base_name, base) = &bases[site.base];
                let field = site.path.join(".");
                let refused = check(&with(base, &site.path, outside.clone()));
                match &refused {
                    Ok(()) => failures.push(format!(
                        "{id} ({key} {bound}): {field} = {outside} is accepted in base {base_name}"
                    )),
                    Err(e) if names_field(e, &site.path, at_enum) => {
                        let accepted = check(&with(base, &site.path, inside.clone()));
                        tight |= accepted.is_ok();
                        seen.push(format!("{base_name}: {inside} -> {accepted:?}"));
                    }
                    Err(e) => seen.push(format!("{base_name}: {outside} -> {e}")),
                }
            }
            probed += 1;
            if !tight {
                failures.push(format!(
                    "{id} ({key} {bound}): no base spec accepts {inside} and refuses {outside} naming \
                     the field; {}",
                    seen.join("; ")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert!(probed >= 100, "{probed} bounds probed");
}
