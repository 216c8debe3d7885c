//! Run one world spec (JSON, as `Scenario.to_world_spec()` writes it) with a seed and print
//! its event count and simulated seconds: a whole run with no Python, for instruction counts.
//! cargo run --release -p airtcp-core --example run_spec -- spec.json [seed]
//! valgrind --tool=cachegrind --cache-sim=no ./target/release/examples/run_spec spec.json
//! With `--summary` as the third argument it prints the whole summary as JSON (to compare two
//! builds' results byte for byte).

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: run_spec SPEC.json");
        std::process::exit(2)
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let seed: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    match airtcp_core::run_json(&text, seed) {
        Ok(out) if std::env::args().nth(3).as_deref() == Some("--summary") => {
            println!("{}", serde_json::to_string(&out.summary).expect("summary serialises"));
        }
        Ok(out) => println!("events {} sim_seconds {}", out.summary.events, out.summary.sim_seconds),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1)
        }
    }
}
