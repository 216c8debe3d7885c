//! Structural fuzzing of the core: random world specs into `run_json` and the stepping API.
//!
//! The contract (docs/world-spec.md): for any JSON text the core either runs it or returns a
//! [`SpecError`](airtcp_core::SpecError) that starts with a field path; it never panics and
//! never hangs. A deterministic generator (one `Xoshiro256PlusPlus` stream per case index)
//! builds mostly plausible worlds over the whole spec surface: every standard with its HT
//! options and A-MPDU/Block Ack, both accesses, every rate control of `mac::rate::NAMES` (also
//! per node), BSSs with wired servers, ad hoc lines and chains, meshes (with and without the
//! `mesh` section, with an ad hoc station beside them), random role mixes, explicit routes and
//! blocked links, the range, matrix and radio channel models (path loss, fading, capture,
//! preamble detection, per-rate tables, mobility), every error model, qdisc and txq, the
//! cross-layer switches, every flow kind with random TCP and CLAP options, and every trace. A
//! share of cases is then mutated with hostile values (0, 2^32, 2^64 - 1, 1e300, empty lists,
//! indices out of range, duplicate names, wrong types) so the validation paths run too. Some
//! cases that run are also stepped through `World::advance` with the agent hooks (what
//! `airtcp._core.Sim` calls); a stepped run without actions must equal the whole run.
//!
//! - **Default** (part of `cargo test -p airtcp-core`, a debug build): [`DEFAULT_CASES`] cases,
//!   a few seconds.
//! - **Long** (by hand): `AIRTCP_CORE_FUZZ_CASES=20000 cargo test -p airtcp-core --release
//!   --test fuzz -- --ignored --nocapture` (20,000 cases unless the variable says otherwise;
//!   `AIRTCP_CORE_FUZZ_FIRST` moves the first case index). A release build wraps integer
//!   overflow silently: `CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
//!   CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true` in front keeps the debug build's checks.
//!
//! A failure lists the case indices, panic messages and locations, and prints the first
//! failing case's spec and seed. To replay one case with its spec printed:
//! `AIRTCP_CORE_FUZZ_FIRST=<case> AIRTCP_CORE_FUZZ_CASES=1 RUST_BACKTRACE=1 cargo test -p
//! airtcp-core --test fuzz -- --ignored --nocapture`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use airtcp_core::ids::{FlowId, NodeId};
use airtcp_core::time::SimTime;
use airtcp_core::world::World;
use airtcp_core::{Column, Summary, WorldSpec};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Map, Value};

/// Cases of the default mode (about 6 s in a debug build on 2 cores).
const DEFAULT_CASES: u64 = 4000;

/// A case that has not finished after this long is reported as a hang.
const HANG: Duration = Duration::from_secs(120);

#[test]
fn random_world_specs_run_or_are_refused_with_a_field_path() {
    let report = campaign(0, DEFAULT_CASES);
    // The generator must keep reaching the simulation, not only the checks.
    assert!(
        report.ran * 4 >= report.cases,
        "only {} of {} cases ran: the generator no longer builds valid worlds",
        report.ran,
        report.cases
    );
}

#[test]
#[ignore = "long: AIRTCP_CORE_FUZZ_CASES cases (default 20000), run with --release"]
fn long_random_world_specs_run_or_are_refused_with_a_field_path() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .map_or(default, |v| v.parse().unwrap_or_else(|_| panic!("{name}={v}: not a count")))
    };
    campaign(env("AIRTCP_CORE_FUZZ_FIRST", 0), env("AIRTCP_CORE_FUZZ_CASES", 20_000));
}

// ---------------------------------------------------------------------------------------------
// The campaign: cases in a worker thread, a watchdog for hangs, panics caught and tallied.

/// What went wrong in one case.
struct Failure {
    case: u64,
    what: &'static str,
    message: String,
}

#[derive(Default)]
struct Report {
    cases: u64,
    ran: u64,
    refused: u64,
    stepped: u64,
    mutated: u64,
    failures: Vec<Failure>,
    /// Refusals by the field path they name (its first component).
    refusals: BTreeMap<String, u64>,
    /// The slowest cases, slowest first.
    slowest: Vec<(Duration, u64)>,
}

enum Msg {
    Start(u64),
    Done(Outcome, Duration),
}

enum Outcome {
    Ran { case: u64, stepped: bool, mutated: bool, problem: Option<(&'static str, String)> },
    Refused { case: u64, mutated: bool, error: String },
    Panicked { case: u64, mutated: bool, message: String },
}

thread_local! {
    /// Set while a case runs: its panic is recorded here instead of printed.
    static CAUGHT: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let inside = CAUGHT.with(|c| c.borrow().is_some());
            if !inside {
                return default(info);
            }
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(a panic without a message)".into());
            let at = info.location().map_or("?".into(), |l| format!("{}:{}", l.file(), l.line()));
            let trace = std::backtrace::Backtrace::capture();
            let mut text = format!("{payload} at {at}");
            if trace.status() == std::backtrace::BacktraceStatus::Captured {
                // The core's frames only, each with its "at file:line": where it came from.
                let (mut frames, mut keep) = (Vec::new(), false);
                for line in trace.to_string().lines().map(str::trim) {
                    if line.starts_with("at ") {
                        if keep {
                            frames.push(format!("    {line}"));
                        }
                    } else {
                        keep = line.contains("airtcp_core::");
                        if keep {
                            frames.push(line.to_string());
                        }
                    }
                }
                frames.truncate(40);
                text.push_str(&format!("\n    {}", frames.join("\n    ")));
            }
            CAUGHT.with(|c| *c.borrow_mut() = Some(Some(text)));
        }));
    });
}

/// Run `f`, catching a panic as its message and location.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    CAUGHT.with(|c| *c.borrow_mut() = Some(None));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    let caught = CAUGHT.with(|c| c.borrow_mut().take()).flatten();
    r.map_err(|_| caught.unwrap_or_else(|| "(panic)".into()))
}

fn campaign(first: u64, cases: u64) -> Report {
    install_panic_hook();
    if cases == 1 {
        let (spec, seed, _) = generate(first);
        println!("fuzz: case {first}, seed {seed}:\n{}", serde_json::to_string_pretty(&spec).unwrap());
    }
    let started = Instant::now();
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .name("fuzz-cases".into())
        .stack_size(8 << 20) // a main thread's (Python calls the core from one)
        .spawn(move || {
            for case in first..first + cases {
                if tx.send(Msg::Start(case)).is_err() {
                    return;
                }
                let t = Instant::now();
                let outcome = one_case(case);
                if tx.send(Msg::Done(outcome, t.elapsed())).is_err() {
                    return;
                }
            }
        })
        .expect("a worker thread");
    let mut report = Report::default();
    let mut current = first;
    loop {
        match rx.recv_timeout(HANG) {
            Ok(Msg::Start(case)) => current = case,
            Ok(Msg::Done(outcome, took)) => {
                report.cases += 1;
                report.slowest.push((took, current));
                report.slowest.sort_by(|a, b| b.cmp(a));
                report.slowest.truncate(3);
                tally(&mut report, outcome);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let (spec, seed, _) = generate(current);
                panic!(
                    "case {current} did not finish within {HANG:?} (a hang?); seed {seed}, spec:\n{}",
                    serde_json::to_string(&spec).unwrap()
                );
            }
        }
    }
    if worker.join().is_err() {
        panic!("the generator or the harness failed at case {current} (the core's panics are caught)");
    }
    let secs = started.elapsed().as_secs_f64();
    let share = |k: u64| 100.0 * k as f64 / report.cases.max(1) as f64;
    println!(
        "fuzz: cases {first}..{}: {} ran ({:.1} %), {} refused ({:.1} %), {} stepped, {} mutated, \
         {} failures; {secs:.1} s; slowest cases {}",
        first + cases,
        report.ran,
        share(report.ran),
        report.refused,
        share(report.refused),
        report.stepped,
        report.mutated,
        report.failures.len(),
        report
            .slowest
            .iter()
            .map(|(t, c)| format!("{c} ({:.2} s)", t.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("fuzz: refusals by section: {:?}", report.refusals);
    if let Some(f) = report.failures.first() {
        let mut by_kind: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for f in &report.failures {
            by_kind.entry(format!("{}: {}", f.what, kind_of(&f.message))).or_default().push(f.case);
        }
        let mut text = String::new();
        for (key, cases) in &by_kind {
            let shown: Vec<String> = cases.iter().take(12).map(|c| c.to_string()).collect();
            text.push_str(&format!("\n- {key}\n  cases ({}): {}", cases.len(), shown.join(", ")));
        }
        let (spec, seed, _) = generate(f.case);
        panic!(
            "{} of {} cases failed:{text}\n\nfirst failing case {} ({}):\n{}\nseed {seed}, spec:\n{}",
            report.failures.len(),
            report.cases,
            f.case,
            f.what,
            f.message,
            serde_json::to_string(&spec).unwrap()
        );
    }
    report
}

fn tally(report: &mut Report, outcome: Outcome) {
    match outcome {
        Outcome::Ran { case, stepped, mutated, problem } => {
            report.ran += 1;
            report.stepped += u64::from(stepped);
            report.mutated += u64::from(mutated);
            if let Some((what, message)) = problem {
                report.failures.push(Failure { case, what, message });
            }
        }
        Outcome::Refused { case, mutated, error } => {
            report.refused += 1;
            report.mutated += u64::from(mutated);
            let path = error.split(": ").next().unwrap_or("");
            let section = path.split(['.', '[']).next().unwrap_or("").to_string();
            *report.refusals.entry(section).or_default() += 1;
            if !names_a_field(&error) {
                report.failures.push(Failure { case, what: "error without a field path", message: error });
            }
        }
        Outcome::Panicked { case, mutated, message } => {
            report.mutated += u64::from(mutated);
            report.failures.push(Failure { case, what: "panic", message });
        }
    }
}

/// A failure's first line with its numbers as `#` (the same fault with other lengths or
/// indices), its location (after the last " at ") kept.
fn kind_of(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    let (text, at) = line.rsplit_once(" at ").unwrap_or((line, ""));
    let mut out = String::new();
    for c in text.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    if at.is_empty() {
        out
    } else {
        format!("{out} at {at}")
    }
}

/// `"<path>: <message>"` with a path of lowercase names, indices, dots and brackets.
fn names_a_field(error: &str) -> bool {
    match error.split_once(": ") {
        Some((path, rest)) => {
            !path.is_empty()
                && !rest.is_empty()
                && path.starts_with(|c: char| c.is_ascii_lowercase())
                && path.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._[]".contains(c))
        }
        None => false,
    }
}

// ---------------------------------------------------------------------------------------------
// One case.

fn one_case(case: u64) -> Outcome {
    let (spec, seed, mutated) = generate(case);
    let text = serde_json::to_string(&spec).expect("a JSON value serializes");
    // The summary is serialized as Python receives it, inside the guard too.
    let run = || airtcp_core::run_json(&text, seed).map(|out| (serde_json::to_string(&out.summary), out));
    let (whole, out) = match guarded(run) {
        Err(message) => return Outcome::Panicked { case, mutated, message },
        Ok(Err(e)) => return Outcome::Refused { case, mutated, error: e.0 },
        Ok(Ok(done)) => done,
    };
    let Ok(whole) = whole else {
        let problem = Some(("a summary that does not serialize", format!("{whole:?}")));
        return Outcome::Ran { case, stepped: false, mutated, problem };
    };
    let mut problem = check_output(&out);
    let mut r = Xoshiro256PlusPlus::seed_from_u64(case ^ 0x5eed_57e9);
    let stepped = r.gen_bool(0.15);
    if stepped && problem.is_none() {
        let act = r.gen_bool(0.5);
        problem = match guarded(|| step(&text, seed, &mut r, act)) {
            Err(message) => Some(("panic while stepping", message)),
            Ok(Err(e)) => Some(("stepping failed where run_json ran", e)),
            Ok(Ok(summary)) if !act && summary != whole => Some((
                "a stepped run without actions differs from the whole run",
                format!("{summary}\n{whole}"),
            )),
            Ok(Ok(_)) => None,
        };
    }
    Outcome::Ran { case, stepped, mutated, problem }
}

/// Every trace has columns of one length.
fn check_output(out: &airtcp_core::Output) -> Option<(&'static str, String)> {
    for (name, columns) in &out.traces {
        let lens: Vec<(&str, usize)> = columns
            .iter()
            .map(|(c, col)| {
                let n = match col {
                    Column::U64(v) => v.len(),
                    Column::U32(v) => v.len(),
                    Column::OptU64(v) => v.len(),
                    Column::OptU32(v) => v.len(),
                    Column::Str(v) => v.len(),
                    Column::Bool(v) => v.len(),
                    Column::F64(v) => v.len(),
                    Column::Bytes { ends, .. } => ends.len(),
                };
                (*c, n)
            })
            .collect();
        if lens.windows(2).any(|w| w[0].1 != w[1].1) {
            return Some(("a trace with columns of different lengths", format!("{name}: {lens:?}")));
        }
    }
    None
}

/// Build the world and step it to its end as `airtcp._core.Sim` does, with random agent
/// actions and queries if `act`; its summary as JSON.
fn step(text: &str, seed: u64, r: &mut Xoshiro256PlusPlus, act: bool) -> Result<String, String> {
    let spec = WorldSpec::from_json(text).map_err(|e| e.0)?;
    let mut w = World::build(&spec, seed).map_err(|e| e.0)?;
    let end = w.period.end.ns();
    let nodes = spec.nodes.len() as u32;
    let flows = spec.flows.len() as u32;
    let node = |r: &mut Xoshiro256PlusPlus| match r.gen_range(0..10) {
        0 => NodeId(nodes),
        1 => NodeId::BROADCAST,
        _ => NodeId(r.gen_range(0..nodes.max(1))),
    };
    let flow = |r: &mut Xoshiro256PlusPlus| {
        FlowId(if r.gen_range(0..8) == 0 { flows } else { r.gen_range(0..flows.max(1)) })
    };
    for _ in 0..r.gen_range(1..40) {
        let now = w.now().ns();
        let until = match r.gen_range(0..12) {
            0 => 0,
            1 => now,
            2 => end,
            3 => u64::MAX,
            4 => r.gen_range(0..=end),
            _ => now.saturating_add(r.gen_range(0..=end / 8 + 1)),
        };
        let done = w.advance(SimTime(until));
        if act {
            for _ in 0..r.gen_range(0..4) {
                let (a, b) = (node(r), node(r));
                match r.gen_range(0..8) {
                    0 => {
                        let _ = w.agent_modes(a);
                    }
                    1 => {
                        let modes = w.agent_modes(a).map_or(0, |m| m.len());
                        let index = match r.gen_range(0..4) {
                            0 => usize::MAX,
                            1 => modes,
                            _ => r.gen_range(0..modes.max(1)),
                        };
                        let _ = w.agent_set_mode(a, b, index);
                    }
                    2 => {
                        let _ = w.link_view(a, b);
                    }
                    3 => {
                        let _ = w.peer_snr_db(a, b);
                    }
                    4 => {
                        let _ = w.tcp_view(flow(r));
                    }
                    5 => {
                        let cwnd = *[0, 1, 2, 10, 1000, 1_000_000, u32::MAX].choose(r).unwrap();
                        let _ = w.agent_set_cwnd(flow(r), cwnd);
                    }
                    6 => {
                        let _ = w.flow_delivered_bytes(flow(r));
                    }
                    _ => {
                        let _ = w.now();
                    }
                }
            }
        }
        if done {
            break;
        }
    }
    w.advance(w.period.end);
    w.finish();
    serde_json::to_string(&Summary::of(&w)).map_err(|e| format!("the summary does not serialize: {e}"))
}

// ---------------------------------------------------------------------------------------------
// The generator.

struct Gen {
    r: Xoshiro256PlusPlus,
}

/// How the nodes of a case are laid out.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Layout {
    /// An AP, stations around it, perhaps wired servers behind it and a second AP.
    Bss,
    /// Ad hoc stations on a line, perhaps a chain (every other pair blocked).
    Adhoc,
    /// Mesh points on a line, perhaps an ad hoc station beside them or a wired host.
    Mesh,
    /// Any roles anywhere.
    Mixed,
}

impl Gen {
    fn p(&mut self, prob: f64) -> bool {
        self.r.gen_bool(prob)
    }
    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs.choose(&mut self.r).expect("a choice").clone()
    }
    fn int(&mut self, lo: u64, hi: u64) -> u64 {
        self.r.gen_range(lo..=hi)
    }
    fn f(&mut self, lo: f64, hi: f64) -> f64 {
        // Rounded to 6 digits: specs stay readable when printed.
        let v: f64 = self.r.gen_range(lo..=hi);
        (v * 1e6).round() / 1e6
    }
}

/// The spec, its run seed and whether hostile mutations were applied.
fn generate(case: u64) -> (Value, u64, bool) {
    let mut g = Gen { r: Xoshiro256PlusPlus::seed_from_u64(case) };
    let mut spec = world(&mut g);
    let seed = match g.int(0, 19) {
        0 => 0,
        1 => u64::MAX,
        _ => g.int(1, 1000),
    };
    let mutated = g.p(0.3);
    if mutated {
        for _ in 0..g.int(1, 3) {
            mutate(&mut g, &mut spec);
        }
    }
    (spec, seed, mutated)
}

const STANDARDS: [&str; 4] = ["80211a", "80211b", "80211g", "80211n"];
const RATES_A: [f64; 8] = [6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0];
const RATES_B: [f64; 4] = [1.0, 2.0, 5.5, 11.0];
const RATES_G: [f64; 12] = [1.0, 2.0, 5.5, 11.0, 6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0];

fn world(g: &mut Gen) -> Value {
    let layout = g.pick(&[
        Layout::Bss,
        Layout::Bss,
        Layout::Bss,
        Layout::Adhoc,
        Layout::Adhoc,
        Layout::Mesh,
        Layout::Mixed,
    ]);
    // Mesh points need beacons and peering before they carry data: longer runs.
    let long = if layout == Layout::Mesh { 8 } else { 13 };
    let duration = match g.int(0, 19) {
        k if k <= long => g.int(5_000_000, 60_000_000),
        0..=18 => g.int(60_000_000, 200_000_000),
        _ => g.int(200_000_000, 500_000_000),
    };
    let warmup = if g.p(0.3) { 0 } else { g.int(0, duration / 2) };
    let (wifi, rates) = wifi(g, layout);
    let radio = g.p(0.3);
    // The distance two nodes hear each other at, well within the radio model's range too.
    let reach = if radio { g.f(10.0, 40.0) } else { g.f(5.0, 300.0) };
    let (nodes, wired, pairs, lines) = nodes(g, layout, reach, radio, duration);
    let n = nodes.len();
    let channel = channel(g, &nodes, reach, radio, &rates);
    let mut spec = json!({
        "duration_ns": duration,
        "wifi": wifi,
        "channel": channel,
        "nodes": nodes,
    });
    if warmup > 0 || g.p(0.5) {
        spec["warmup_ns"] = json!(warmup);
    }
    if !wired.is_empty() || g.p(0.1) {
        spec["wired_links"] = json!(wired);
    }
    let routes = routes(g, layout, n, &lines);
    if !routes.is_empty() {
        spec["routes"] = json!(routes);
    }
    let blocked = blocked(g, layout, n);
    if !blocked.is_empty() {
        spec["blocked_radio_links"] = json!(blocked);
    }
    let flows = flows(g, &pairs, n, duration);
    if !flows.is_empty() || g.p(0.5) {
        spec["flows"] = json!(flows);
    }
    let traces = traces(g, radio);
    if !traces.is_empty() {
        spec["traces"] = Value::Object(traces);
    }
    let meshes =
        layout == Layout::Mesh || spec["nodes"].as_array().unwrap().iter().any(|v| v["role"] == "mesh");
    if (meshes && g.p(0.95)) || g.p(0.02) {
        spec["mesh"] = mesh(g);
        if meshes {
            spec["wifi"]["access"] = json!("edca");
            if let Some(w) = spec["wifi"].as_object_mut() {
                w.remove("beacon_interval_tu");
                if w.get("data_header_bytes").is_some_and(|h| h.as_u64().is_some_and(|h| h < 26)) {
                    w.remove("data_header_bytes");
                }
            }
        }
    }
    spec
}

/// The `wifi` section and the standard's non-HT rates.
fn wifi(g: &mut Gen, layout: Layout) -> (Value, Vec<f64>) {
    let standard = g.pick(&STANDARDS);
    let mut w = Map::new();
    w.insert("standard".into(), json!(standard));
    let mut edca = layout == Layout::Mesh || g.p(0.4);
    let mut ampdu = false;
    let rates: Vec<f64> = match standard {
        "80211a" => RATES_A.to_vec(),
        "80211b" => RATES_B.to_vec(),
        "80211g" => RATES_G.to_vec(),
        _ => {
            let band = g.pick(&[2.4, 5.0]);
            let streams = g.int(1, 2);
            let mut ht = Map::new();
            ht.insert("band_ghz".into(), json!(band));
            ht.insert("channel_width_mhz".into(), json!(g.pick(&[20, 40])));
            ht.insert("mcs".into(), json!(g.int(0, 8 * streams - 1)));
            if streams == 2 || g.p(0.5) {
                ht.insert("streams".into(), json!(streams));
            }
            if g.p(0.5) {
                ht.insert("short_gi".into(), json!(g.p(0.5)));
            }
            if g.p(0.5) {
                ampdu = g.p(0.8);
                ht.insert("ampdu".into(), json!(ampdu));
                edca |= ampdu;
            }
            if g.p(0.4) {
                ht.insert("aggregation".into(), json!(g.pick(&["ns3", "ath9k"])));
            }
            if g.p(0.3) {
                ht.insert("ppdu_attempts".into(), json!(g.pick(&[1, 2, 7, 20, 255])));
            }
            if g.p(0.3) {
                ht.insert("mpdu_retries".into(), json!(g.pick(&[0, 1, 3, 10, 255])));
            }
            w.insert("ht".into(), Value::Object(ht));
            if band == 5.0 {
                RATES_A.to_vec()
            } else {
                RATES_G.to_vec()
            }
        }
    };
    if standard != "80211n" {
        w.insert("data_rate_mbps".into(), json!(g.pick(&rates)));
    }
    w.insert("basic_rate_mbps".into(), json!(g.pick(&rates)));
    if standard == "80211g" && g.p(0.4) {
        w.insert("erp_mixed".into(), json!(g.p(0.8)));
    }
    if g.p(0.3) {
        w.insert("preamble".into(), json!(g.pick(&["long", "short"])));
    }
    if edca || g.p(0.3) {
        w.insert("access".into(), json!(if edca { "edca" } else { "dcf" }));
    }
    let names = airtcp_core::mac::rate::NAMES;
    if g.p(0.6) {
        let legacy: Vec<&str> =
            names.iter().copied().filter(|n| !["minstrel-ht", "ath9k"].contains(n)).collect();
        let name = if standard == "80211n" || g.p(0.1) { g.pick(names) } else { g.pick(&legacy) };
        w.insert("rate_control".into(), json!(name));
    }
    if g.p(0.2) {
        let lo = g.pick(&[1, 3, 7, 15, 31, 63, 1023]);
        w.insert("cw_min".into(), json!(lo));
        if g.p(0.7) {
            w.insert("cw_max".into(), json!(g.pick(&[lo, 255, 1023, 32767])));
        }
    }
    if g.p(0.15) {
        w.insert("aifsn".into(), json!(g.int(1, 15)));
    }
    if g.p(0.2) {
        w.insert("short_retry_limit".into(), json!(g.pick(&[0, 1, 3, 6, 31])));
    }
    if g.p(0.2) {
        w.insert("long_retry_limit".into(), json!(g.pick(&[0, 1, 3, 31])));
    }
    if g.p(0.2) {
        w.insert("rts_threshold_bytes".into(), json!(g.pick(&[0, 100, 500, 1000, 2346, 65535, u32::MAX])));
    }
    if g.p(0.2) {
        w.insert("queue_limit_packets".into(), json!(g.pick(&[1, 2, 10, 50, 1000])));
    }
    if g.p(0.15) {
        let h = if edca { g.pick(&[26, 32, 38]) } else { g.pick(&[24, 30]) };
        w.insert("data_header_bytes".into(), json!(h));
    }
    for name in ["pass_corrupt", "lnmac", "per_station_grants"] {
        if g.p(0.15) {
            w.insert(name.into(), json!(g.p(0.8)));
        }
    }
    if layout != Layout::Mesh && g.p(0.2) {
        w.insert("beacon_interval_tu".into(), json!(g.pick(&[1, 10, 100, 65535])));
    }
    if g.p(0.15) {
        w.insert("arf_window_slot_ms".into(), json!(g.pick(&[0.001, 0.5, 10.0, 100.0])));
    }
    if ampdu && g.p(0.4) {
        w.insert("ba_retry_remedy".into(), json!(true));
    }
    if g.p(0.15) {
        let mut q = Map::new();
        q.insert("kind".into(), json!(g.pick(&["pfifo", "codel"])));
        q.insert("limit_packets".into(), json!(g.pick(&[1, 10, 100, 1000])));
        if g.p(0.4) {
            q.insert("codel_target_ms".into(), json!(g.f(0.1, 20.0)));
            q.insert("codel_interval_ms".into(), json!(g.f(1.0, 200.0)));
        }
        w.insert("qdisc".into(), Value::Object(q));
    } else if g.p(0.15) {
        let low = g.pick(&[1, 5000, 100_000]);
        w.insert(
            "txq".into(),
            json!({
                "target_ms": g.f(0.1, 20.0), "interval_ms": g.f(1.0, 200.0),
                "quantum_bytes": g.pick(&[1, 300, 1514, 65535]), "limit_packets": g.pick(&[1, 64, 8192]),
                "airtime_fairness": g.p(0.5), "aql": g.p(0.5),
                "aql_low_us": low, "aql_high_us": low + g.pick(&[0, 7000, 900_000]),
                "aql_threshold_us": g.pick(&[1, 24_000, 1_000_000]),
            }),
        );
    }
    (Value::Object(w), rates)
}

/// A node of `role` at `pos`.
fn node(g: &mut Gen, name: String, role: &str, pos: [f64; 3], radio: bool, duration: u64) -> Value {
    let mut v = json!({"name": name, "position_m": pos, "wifi": role != "host", "role": role});
    if role == "host" {
        return v;
    }
    if g.p(0.15) {
        v["rate_control"] = json!(g.pick(airtcp_core::mac::rate::NAMES));
    }
    if g.p(if radio { 0.3 } else { 0.03 }) {
        v["mobility"] = match g.int(0, 2) {
            0 => {
                let mut m = json!({"kind": "constant-velocity", "velocity_mps": [g.f(-30.0, 30.0), g.f(-30.0, 30.0), 0.0]});
                if g.p(0.5) {
                    m["start_ns"] = json!(g.int(0, duration));
                }
                m
            }
            1 => {
                let first = if g.p(0.5) { 0 } else { g.int(0, duration) };
                let mut points = vec![json!({"time_ns": first, "position_m": pos})];
                let mut t = points[0]["time_ns"].as_u64().unwrap();
                for _ in 0..g.int(0, 3) {
                    t += g.int(1, duration);
                    points.push(json!({"time_ns": t, "position_m": [pos[0] + g.f(-20.0, 20.0), pos[1] + g.f(-20.0, 20.0), pos[2]]}));
                }
                json!({"kind": "waypoints", "points": points})
            }
            _ => {
                let lo = g.f(0.0, 5.0);
                json!({
                    "kind": "random-waypoint",
                    "area_min_m": [pos[0] - 10.0, pos[1] - 10.0],
                    "area_max_m": [pos[0] + g.f(0.0, 20.0), pos[1] + g.f(0.0, 20.0)],
                    "speed_min_mps": lo, "speed_max_mps": lo + g.f(0.1, 30.0),
                    "pause_ns": g.pick(&[0, 1_000_000, duration]), "steady_state": g.p(0.5),
                })
            }
        };
    }
    if radio && g.p(0.1) {
        v["tx_power_dbm"] = json!(g.f(-10.0, 30.0));
    }
    v
}

fn wired_link(g: &mut Gen, a: usize, b: usize) -> Value {
    let mut l = json!({"a": a, "b": b, "rate_bps": g.pick(&[1_000_000u64, 10_000_000, 100_000_000, 1_000_000_000]), "delay_ns": g.pick(&[0, 10_000, 1_000_000, 20_000_000])});
    if g.p(0.3) {
        l["queue_limit_packets"] = json!(g.pick(&[1, 10, 100, 1000]));
    }
    if g.p(0.2) {
        l["loss"] = json!(g.f(0.0, 0.3));
    }
    if g.p(0.2) {
        l["reverse_loss"] = json!(g.f(0.0, 0.3));
    }
    l
}

/// The nodes, the wired links, the node pairs a flow may join and the lines (ordered node
/// lists along which each node's neighbours are the next and previous ones).
#[allow(clippy::type_complexity)]
fn nodes(
    g: &mut Gen,
    layout: Layout,
    reach: f64,
    radio: bool,
    duration: u64,
) -> (Vec<Value>, Vec<Value>, Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let mut nodes = vec![];
    let mut wired = vec![];
    let mut lines = vec![];
    let mut add = |role: &str, pos: [f64; 3], g: &mut Gen| {
        let i = nodes.len();
        let name = format!("{role}{i}");
        nodes.push(node(g, name, role, pos, radio, duration));
        i
    };
    match layout {
        Layout::Bss => {
            let ap = add("ap", [0.0, 0.0, 0.0], g);
            for k in 0..g.pick(&[1, 1, 2, 3, 4, 6, 12]) {
                let (a, d) = (k as f64 + g.f(0.0, 1.0), reach * g.f(0.1, 0.8));
                let sta = add("sta", [d * a.cos(), d * a.sin(), 0.0], g);
                lines.push(vec![sta, ap]);
            }
            for _ in 0..g.int(0, 2) {
                let host = add("host", [0.0, 0.0, 0.0], g);
                wired.push(wired_link(g, ap, host));
                lines.push(vec![host, ap]);
            }
            if g.p(0.15) {
                let ap2 = add("ap", [reach * g.f(0.1, 1.5), 0.0, 0.0], g);
                wired.push(wired_link(g, ap, ap2));
            }
        }
        Layout::Adhoc | Layout::Mesh => {
            let role = if layout == Layout::Adhoc { "adhoc" } else { "mesh" };
            let step = reach * g.f(0.3, 0.95);
            let line: Vec<usize> =
                (0..g.int(2, 6)).map(|k| add(role, [step * k as f64, 0.0, 0.0], g)).collect();
            if g.p(0.2) {
                let host = add("host", [0.0, 0.0, 0.0], g);
                wired.push(wired_link(g, line[0], host));
                lines.push(vec![host, line[0]]);
            }
            if layout == Layout::Mesh && g.p(0.2) {
                // A non-mesh station beside the mesh.
                add("adhoc", [step * g.f(0.0, 2.0), reach * 0.3, 0.0], g);
            }
            lines.push(line);
        }
        Layout::Mixed => {
            let roles = ["ap", "sta", "adhoc", "mesh", "host"];
            for _ in 0..g.int(1, 7) {
                let role = g.pick(&roles);
                add(role, [reach * g.f(0.0, 2.0), reach * g.f(0.0, 2.0), g.f(0.0, 3.0)], g);
            }
            let n = nodes.len();
            for _ in 0..g.int(0, 2) {
                let (a, b) = (g.int(0, n as u64 - 1) as usize, g.int(0, n as u64 - 1) as usize);
                wired.push(wired_link(g, a, b));
            }
        }
    }
    let n = nodes.len();
    let pairs = (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b))).collect();
    (nodes, wired, pairs, lines)
}

/// Positions of the nodes (their `position_m`).
fn positions(nodes: &[Value]) -> Vec<[f64; 3]> {
    nodes
        .iter()
        .map(|v| {
            let p = v["position_m"].as_array().unwrap();
            [p[0].as_f64().unwrap(), p[1].as_f64().unwrap(), p[2].as_f64().unwrap()]
        })
        .collect()
}

fn channel(g: &mut Gen, nodes: &[Value], reach: f64, radio: bool, rates: &[f64]) -> Value {
    if radio {
        let path_loss = if g.p(0.7) {
            json!({"kind": "log-distance", "exponent": g.f(2.0, 3.5), "reference_distance_m": 1.0, "reference_loss_db": 46.6777})
        } else {
            json!({"kind": "friis", "frequency_hz": g.pick(&[2.412e9, 5.18e9]), "system_loss_db": g.f(0.0, 3.0)})
        };
        let coherence =
            |g: &mut Gen| g.pick(&[json!(null), json!(1u64), json!(100_000u64), json!(10_000_000u64)]);
        let fading = match g.int(0, 3) {
            0 => json!({"kind": "none"}),
            1 => json!({"kind": "rayleigh", "coherence_ns": coherence(g)}),
            2 => json!({"kind": "nakagami", "m": g.f(0.5, 5.0), "coherence_ns": coherence(g)}),
            _ => Value::Null,
        };
        let mut r = json!({
            "path_loss": path_loss,
            "tx_power_dbm": g.f(10.0, 20.0),
            "noise_figure_db": g.f(5.0, 9.0),
            "rx_sensitivity_dbm": g.pick(&[-101.0, -95.0, -85.0]),
            "cca_threshold_dbm": g.pick(&[-82.0, -62.0]),
            "error_model": g.pick(airtcp_core::phy::error::ErrorRateModel::NAMES),
        });
        if !fading.is_null() {
            r["fading"] = fading;
        }
        for (name, lo, hi) in
            [("tx_power_by_rate_dbm", 10.0, 25.0), ("rx_sensitivity_by_rate_dbm", -95.0, -60.0)]
        {
            if g.p(0.2) {
                let table: Vec<Value> =
                    (0..g.int(0, 4)).map(|_| json!([g.pick(rates), g.f(lo, hi)])).collect();
                r[name] = json!(table);
            }
        }
        if g.p(0.3) {
            r["preamble_detection"] =
                json!({"snr_db": g.f(-5.0, 10.0), "min_rssi_dbm": g.pick(&[-82.0, -100.0])});
        }
        if g.p(0.3) {
            r["capture"] =
                json!({"margin_db": g.f(0.0, 10.0), "window_ns": g.pick(&[1u64, 16_000, 1_000_000_000])});
        }
        return json!({"radio": r});
    }
    let mut c = json!({"rx_range_m": reach, "cs_range_m": reach * g.f(1.0, 2.5)});
    if g.p(0.2) {
        // The matrix from the distances, with a few entries flipped.
        let pos = positions(nodes);
        let n = pos.len();
        let mut rx = vec![vec![0u8; n]; n];
        let mut cs = vec![vec![0u8; n]; n];
        for a in 0..n {
            for b in 0..n {
                let d = (0..3).map(|k| (pos[a][k] - pos[b][k]).powi(2)).sum::<f64>().sqrt();
                rx[a][b] = u8::from(d <= reach);
                cs[a][b] = u8::from(d <= 2.0 * reach);
                if g.p(0.05) {
                    rx[a][b] ^= 1;
                }
                if g.p(0.05) {
                    cs[a][b] ^= 1;
                }
            }
        }
        c["matrix"] = json!({"rx": rx, "cs": cs});
    }
    c["error"] = match g.int(0, 8) {
        0..=3 => json!({"kind": "none"}),
        4 => json!({"kind": "fer", "fer": g.pick(&[0.0, 0.01, 0.3, 0.999])}),
        5 => json!({"kind": "ber", "ber": g.pick(&[0.0, 1e-6, 1e-4, 0.5])}),
        6 => {
            json!({"kind": "gilbert", "good_ms": g.f(0.001, 100.0), "bad_ms": g.f(0.001, 50.0), "loss_good": g.f(0.0, 0.1), "loss_bad": g.f(0.5, 1.0)})
        }
        7 => json!({"kind": "interferer", "on_ms": g.f(0.001, 10.0), "off_ms": g.f(0.001, 100.0)}),
        _ => Value::Null,
    };
    if c["error"].is_null() {
        c.as_object_mut().unwrap().remove("error");
    }
    if g.p(0.2) {
        c["preamble_detection"] = json!(g.p(0.8));
    }
    c
}

/// Explicit routes: along a line (a valid next hop) or anywhere.
fn routes(g: &mut Gen, layout: Layout, n: usize, lines: &[Vec<usize>]) -> Vec<Value> {
    let mut routes = vec![];
    if !g.p(0.2) {
        return routes;
    }
    for _ in 0..g.int(1, 3) {
        let line =
            (!lines.is_empty()).then(|| g.pick(lines)).filter(|l| l.len() >= 2 && layout != Layout::Mixed);
        let route = match line {
            Some(l) if g.p(0.8) => {
                let (i, j) = (g.int(0, l.len() as u64 - 1) as usize, g.int(0, l.len() as u64 - 1) as usize);
                if i == j {
                    continue;
                }
                let next = if j > i { l[i + 1] } else { l[i - 1] };
                json!({"node": l[i], "dst": l[j], "next_hop": next})
            }
            _ => {
                let mut r = || g.int(0, n as u64 - 1);
                json!({"node": r(), "dst": r(), "next_hop": r()})
            }
        };
        routes.push(route);
    }
    routes
}

fn blocked(g: &mut Gen, layout: Layout, n: usize) -> Vec<Value> {
    let mut pairs = vec![];
    if layout == Layout::Adhoc || layout == Layout::Mesh {
        if g.p(0.4) {
            // The chain: only consecutive nodes (by index) hop by radio.
            for a in 0..n {
                for b in a + 2..n {
                    pairs.push(json!([a, b]));
                }
            }
        }
    } else if g.p(0.1) && n >= 2 {
        for _ in 0..g.int(1, 3) {
            let a = g.int(0, n as u64 - 1);
            let b = (a + g.int(1, n as u64 - 1)) % n as u64;
            pairs.push(json!([a, b]));
        }
    }
    pairs
}

fn flows(g: &mut Gen, pairs: &[(usize, usize)], n: usize, duration: u64) -> Vec<Value> {
    let mut flows = vec![];
    for _ in 0..g.pick(&[0, 1, 1, 1, 2, 2, 3, 4]) {
        let (src, dst) = if !pairs.is_empty() && g.p(0.97) {
            g.pick(pairs)
        } else {
            (g.int(0, n as u64) as usize, g.int(0, n as u64) as usize)
        };
        let kind = g.pick(&["udp_saturating", "udp_cbr", "tcp_bulk", "tcp_bulk", "tcp_file", "clap_file"]);
        let payload = if g.p(0.6) {
            if kind.starts_with("udp") {
                1472
            } else {
                1460
            }
        } else {
            g.pick(&[1, 28, 100, 536, 1000, 1500, 2268])
        };
        let mut f = json!({"kind": kind, "src": src, "dst": dst, "payload_bytes": payload});
        if kind == "udp_cbr" {
            // Up to 100 Mbit/s: an event per packet, 1 Gbit/s of 1-byte packets is 4 per us.
            f["rate_bps"] = json!(g.pick(&[1.0, 1e4, 1e6, 1e7, 5e7, 1e8]));
        }
        if g.p(0.5) {
            f["start_ns"] = json!(g.int(0, duration + duration / 4));
        }
        if g.p(0.25) {
            f["stop_ns"] = json!(f["start_ns"].as_u64().unwrap_or(0) + g.int(1, duration));
        }
        if g.p(0.3) {
            f["ac"] = json!(g.pick(&["bk", "be", "vi", "vo"]));
        }
        if kind.ends_with("_file") {
            f["file_bytes"] = json!(g.pick(&[1, 1000, 20_000, 100_000, 10_000_000]));
        }
        if g.p(0.15) {
            f["report_interval_ns"] = json!(g.pick(&[1_000_000, 5_000_000, duration / 3 + 1, duration * 2]));
        }
        if kind.starts_with("tcp") && g.p(0.7) {
            f["tcp"] = tcp(g);
        }
        if kind == "clap_file" && g.p(0.6) {
            let mut c = Map::new();
            for (k, v) in [
                ("mss_bytes", json!(g.pick(&[1, 536, 1000, 1460, 2256]))),
                ("feedback_interval_ms", json!(g.pick(&[0.001, 0.5, 5.0, 50.0]))),
                ("max_nack_ranges", json!(g.int(1, 16))),
                ("queue_target_frames", json!(g.pick(&[0, 1, 2, 10]))),
                ("send_buffer_segments", json!(g.pick(&[1, 10, 1000, 100_000]))),
            ] {
                if g.p(0.5) {
                    c.insert(k.into(), v);
                }
            }
            f["clap"] = Value::Object(c);
        }
        flows.push(f);
    }
    flows
}

fn tcp(g: &mut Gen) -> Value {
    let mss = g.pick(&[1u64, 100, 536, 1000, 1448, 1460, 2244]);
    let min_rto = g.pick(&[0.0, 1.0, 200.0, 1000.0]);
    let options = [
        ("cc", json!(g.pick(airtcp_core::tcp::cc::NAMES))),
        ("recovery", json!(g.pick(airtcp_core::tcp::conn::RECOVERY_NAMES))),
        ("mss_bytes", json!(mss)),
        ("min_rto_ms", json!(min_rto)),
        // Not a max_rto_ms of 1 ns: valid, but its timer fires every ns (10^9 events a second).
        ("max_rto_ms", json!(min_rto + g.pick(&[1.0, 60_000.0, 120_000.0]))),
        ("initial_rto_ms", json!(g.pick(&[0.000001, 1.0, 1000.0, 3000.0]))),
        ("clock_granularity_ms", json!(g.pick(&[0.0, 1.0, 4.0, 10.0]))),
        ("timestamps", json!(g.p(0.5))),
        ("limited_transmit", json!(g.p(0.5))),
        ("initial_cwnd", json!(g.pick(&[1, 2, 4, 10, 100, 1_000_000]))),
        ("ack_every", json!(g.pick(&[1, 2, 3, 1000, u32::MAX]))),
        ("delack_timeout_ms", json!(g.pick(&[0.0, 1.0, 40.0, 200.0]))),
        ("rcv_buf_bytes", json!(mss * g.pick(&[1, 2, 10, 1000]))),
        ("snd_buf_bytes", json!(mss * g.pick(&[1, 2, 10, 1000]))),
        ("hystart", json!(g.p(0.5))),
        ("corruption", json!(g.pick(airtcp_core::tcp::conn::CORRUPTION_NAMES))),
        ("small_queues", json!(g.p(0.5))),
        ("limit_output_bytes", json!(g.pick(&[0u32, 2304, 131_072, 1 << 20]))),
        ("ack_counting", json!(g.pick(&["segments", "acks"]))),
        ("rto_estimator", json!(g.pick(&["rfc6298", "linux"]))),
        ("cwnd_limited", json!(g.pick(airtcp_core::tcp::cc::CwndLimited::NAMES))),
        ("local_congestion", json!(g.pick(airtcp_core::tcp::conn::LocalCongestion::NAMES))),
        ("rto_recovery", json!(g.pick(airtcp_core::tcp::conn::RtoRecovery::NAMES))),
        ("cwnd_credit", json!(g.pick(airtcp_core::tcp::conn::CwndCredit::NAMES))),
        ("prr", json!(g.pick(airtcp_core::tcp::conn::Prr::NAMES))),
        ("rack", json!(g.p(0.5))),
        ("tlp", json!(g.p(0.5))),
        ("lost_retransmit", json!(g.pick(airtcp_core::tcp::conn::LostRetransmit::NAMES))),
        ("tlp_rule", json!(g.pick(airtcp_core::tcp::conn::TlpRule::NAMES))),
        ("tsq_rule", json!(g.pick(airtcp_core::tcp::conn::TsqRule::NAMES))),
        ("rcv_window", json!(g.pick(airtcp_core::tcp::conn::RcvWindow::NAMES))),
        ("timer_rounding", json!(g.pick(airtcp_core::tcp::conn::TimerRounding::NAMES))),
        ("rtt_clock", json!(g.pick(airtcp_core::tcp::rto::RttClock::NAMES))),
        ("sack_compress", json!(g.p(0.5))),
        ("rto_rearm", json!(g.pick(airtcp_core::tcp::conn::RtoRearm::NAMES))),
        ("profile", json!(g.pick(airtcp_core::spec::profiles::TcpProfile::NAMES))),
        ("quickack", json!(g.pick(airtcp_core::tcp::conn::QuickAck::NAMES))),
        ("early_retransmit", json!(g.p(0.5))),
        ("frto", json!(g.p(0.5))),
        ("clock_hz", json!(g.pick(&[1, 100, 250, 300, 1000, 10_000]))),
    ];
    let mut t = Map::new();
    let share = g.f(0.0, 1.0);
    for (k, v) in options {
        if g.p(share) {
            t.insert(k.into(), v);
        }
    }
    // The window options go together: a buffer below the MSS is refused.
    if t.contains_key("mss_bytes") && g.p(0.7) {
        t.insert("rcv_buf_bytes".into(), json!(mss * 1000));
        t.insert("snd_buf_bytes".into(), json!(mss * 1000));
    }
    Value::Object(t)
}

fn traces(g: &mut Gen, radio: bool) -> Map<String, Value> {
    let mut t = Map::new();
    let names = [
        "mac_tx",
        "tcp",
        "tcp_segments",
        "packets",
        "frames",
        "rates",
        "receptions",
        "positions",
        "windows",
        "mpdus",
    ];
    let on = g.pick(&[0.0, 0.0, 0.1, 0.3, 1.0]);
    for name in names {
        let p = if !radio && (name == "receptions" || name == "positions") { on * 0.1 } else { on };
        if g.p(p) {
            t.insert(name.into(), json!(true));
        } else if g.p(0.05) {
            t.insert(name.into(), json!(false));
        }
    }
    t
}

fn mesh(g: &mut Gen) -> Value {
    let mut m = Map::new();
    let options = [
        ("beacon_interval_tu", json!(g.pick(&[10, 20, 100, 1000]))),
        ("metric", json!(g.pick(airtcp_core::spec::MESH_METRICS))),
        ("active_path_timeout_tu", json!(g.pick(&[1, 10, 4882, 655_350]))),
        ("max_preq_retries", json!(g.int(0, 30))),
        ("alm_retry", json!(g.p(0.5))),
        ("alm_retry_interval_ms", json!(g.pick(&[1.0, 10.0, 1000.0]))),
    ];
    for (k, v) in options {
        if g.p(0.5) {
            m.insert(k.into(), v);
        }
    }
    // Short runs need beacons soon to peer at all.
    if g.p(0.7) {
        m.insert("beacon_interval_tu".into(), json!(g.pick(&[10, 20])));
    }
    if g.p(0.2) {
        let map: Vec<f64> = (0..32).map(|_| g.f(0.0, 100.0)).collect();
        m.insert("alm_travel_us_per_metric".into(), json!(map));
    }
    Value::Object(m)
}

// ---------------------------------------------------------------------------------------------
// Hostile mutations.

/// Every path into `v` (object keys and array indices), the root excluded.
fn paths(v: &Value, at: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(json!(k));
                out.push(at.clone());
                paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                at.push(json!(i));
                out.push(at.clone());
                paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn at_path<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::String(s) => &mut v[s.as_str()],
        k => &mut v[k.as_u64().unwrap() as usize],
    })
}

/// A hostile value of the same JSON kind as `v` (mostly), or of another kind.
fn hostile(g: &mut Gen, v: &Value) -> Value {
    if g.p(0.08) {
        return g.pick(&[json!(null), json!(true), json!("x"), json!(-1), json!(1.5), json!([]), json!({})]);
    }
    match v {
        Value::Number(x) if x.is_u64() => {
            let k = x.as_u64().unwrap();
            let choices = [
                0,
                1,
                2,
                k.saturating_add(1),
                k.saturating_sub(1),
                k.saturating_mul(1000),
                255,
                256,
                65_535,
                65_536,
                u64::from(u32::MAX),
                u64::from(u32::MAX) + 1,
                1 << 53,
                i64::MAX as u64,
                u64::MAX,
            ];
            json!(g.pick(&choices))
        }
        Value::Number(x) => {
            let k = x.as_f64().unwrap();
            let choices = [
                0.0,
                -0.0,
                5e-324,
                1e-300,
                1e-9,
                0.5,
                1.0,
                -1.0,
                k * 1e6,
                k * 1e-6,
                -k,
                1e15,
                1e300,
                -1e300,
                f64::MAX,
            ];
            json!(g.pick(&choices))
        }
        Value::String(_) => {
            let choices = [
                String::new(),
                "x".repeat(1000),
                "\u{1F4A9}".into(),
                "AP".into(),
                "80211ac".into(),
                "minstrel-ht".into(),
                "agent".into(),
                "ath9k".into(),
                "cubic".into(),
                "sack".into(),
                "linux".into(),
                "mesh".into(),
            ];
            json!(g.pick(&choices))
        }
        Value::Bool(b) => json!(!b),
        Value::Array(a) => {
            let mut a = a.clone();
            match g.int(0, 3) {
                0 => a.clear(),
                1 => {
                    a.pop();
                }
                2 if !a.is_empty() => {
                    let i = g.int(0, a.len() as u64 - 1) as usize;
                    a.push(a[i].clone());
                }
                _ => a.reverse(),
            }
            json!(a)
        }
        Value::Object(m) => {
            let mut m = m.clone();
            if !m.is_empty() && g.p(0.7) {
                let k = g.pick(&m.keys().cloned().collect::<Vec<_>>());
                m.remove(&k);
            } else {
                m.clear();
            }
            Value::Object(m)
        }
        Value::Null => g.pick(&[json!(0), json!(1.0), json!("x"), json!(true)]),
    }
}

fn mutate(g: &mut Gen, spec: &mut Value) {
    let n = spec["nodes"].as_array().map_or(0, |a| a.len()) as u64;
    match g.int(0, 9) {
        // A node index out of range.
        0 => {
            let mut all = vec![];
            paths(spec, &mut vec![], &mut all);
            let index_keys = ["src", "dst", "a", "b", "node", "next_hop"];
            let refs: Vec<Vec<Value>> = all
                .into_iter()
                .filter(|p| {
                    p.last().and_then(|k| k.as_str()).is_some_and(|k| index_keys.contains(&k))
                        || p.first().and_then(|k| k.as_str()) == Some("blocked_radio_links") && p.len() == 3
                })
                .collect();
            if !refs.is_empty() {
                let p = g.pick(&refs);
                *at_path(spec, &p) = json!(g.pick(&[n, n + 1, u64::from(u32::MAX), u64::from(u32::MAX) + 1]));
            }
        }
        // A duplicate or empty node name.
        1 if n >= 1 && spec["nodes"].as_array().is_some_and(|a| a.iter().all(Value::is_object)) => {
            let i = g.int(0, n - 1) as usize;
            let name = if n >= 2 && g.p(0.8) {
                spec["nodes"][(i + 1) % n as usize]["name"].clone()
            } else {
                json!("")
            };
            spec["nodes"][i]["name"] = name;
        }
        // A required key removed or an unknown one added.
        2 => {
            let key = g.pick(&["duration_ns", "wifi", "channel", "nodes", "flows", "mesh", "extra"]);
            if key == "extra" {
                spec["extra"] = json!(1);
            } else if let Some(m) = spec.as_object_mut() {
                m.remove(key);
            }
        }
        // Any value anywhere.
        _ => {
            let mut all = vec![];
            paths(spec, &mut vec![], &mut all);
            let p = g.pick(&all);
            let v = at_path(spec, &p);
            // Where a value only asks for a long run (no finding, and slow), only values
            // that make a short one or none: the duration, a CBR or wired rate (an event per
            // packet: a saturating source on a wire of 2^64 - 1 bit/s sends one per ns), the
            // largest RTO (a timer that fires every ns at 1e-6 ms).
            let last = p.last().and_then(|k| k.as_str());
            if p == [json!("duration_ns")] {
                *v = json!(g.pick(&[0, 1, 1000]));
            } else if last == Some("rate_bps") && p[0] == "flows" {
                *v = json!(g.pick(&[0.0, -1.0, 1e-300, 1.0, 1e10]));
            } else if last == Some("rate_bps") {
                *v = json!(g.pick(&[0, 1, 10_000_000_000u64]));
            } else if last == Some("max_rto_ms") {
                *v = json!(g.pick(&[0.0, -1.0, 1e-7, 0.001, 1e300]));
            } else {
                *v = hostile(g, v);
            }
        }
    }
}
