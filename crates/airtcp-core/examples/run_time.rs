//! Time one world spec's build and event loop apart, the best of R runs, with no Python: the
//! loop's events per second (its `finish` included), for comparing durations of one scenario
//! (the difference of a 10 s and a 3 s run is the steady state, docs/validation.md section 27).
//! cargo build --release -p airtcp-core --example run_time
//! ./target/release/examples/run_time spec.json [repeats, 3]

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: run_time SPEC.json [REPEATS]");
        std::process::exit(2)
    });
    let reps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(3).max(1);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let spec = airtcp_core::WorldSpec::from_json(&text).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let (mut build_s, mut loop_s, mut events) = (f64::MAX, f64::MAX, 0);
    for _ in 0..reps {
        let t = std::time::Instant::now();
        let mut w = airtcp_core::world::World::build(&spec, 1).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        build_s = build_s.min(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        w.run();
        loop_s = loop_s.min(t.elapsed().as_secs_f64());
        events = airtcp_core::Summary::of(&w).events;
    }
    println!(
        "{path} events {events} build_s {build_s:.4} loop_s {loop_s:.4} Mevents/s {:.3}",
        events as f64 / loop_s / 1e6
    );
}
