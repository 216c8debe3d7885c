//! # airtcp-core: a discrete-event simulator of TCP over IEEE 802.11
//!
//! The layers, bottom up:
//!
//! - [`time`]: `SimTime`, integer nanoseconds. [`engine`]: one event heap ordered by
//!   (time, insertion sequence) and cancellable timers. [`rng`]: random streams derived from
//!   (seed, entity, purpose).
//! - [`phy`]: 802.11a/b/g rate tables, `TxVector`, airtime per the standard's clauses.
//! - [`medium`]: the shared medium (who senses and decodes whom, collisions, error models).
//! - [`mac`]: every node's MAC: DCF/EDCA access with lazy backoff, frame exchanges, retry
//!   limits, the interface queues; it reads the medium's carrier sense and hands results up
//!   as indications, never calling the layers above.
//! - [`net`]: packets, static routing, wired point-to-point links, UDP applications.
//! - [`world`]: the arenas, the event loop ([`event`]) and the glue between the layers; [`spec`]: the validated world description a
//!   run is built from; [`summary`] and [`trace`]: what a run returns.
//!
//! A run is a pure function of (spec, seed): [`run`].

pub mod capture;
pub mod channel;
pub mod clap;
pub mod engine;
pub mod event;
pub mod ids;
pub mod mac;
pub mod medium;
pub mod mesh;
pub mod net;
pub mod phy;
pub mod rng;
pub mod spec;
pub mod summary;
pub mod tables;
pub mod tcp;
pub mod time;
pub mod trace;
pub mod world;
pub mod xlayer;

pub use spec::{SpecError, WorldSpec};
pub use summary::Summary;
pub use trace::Column;

/// What one run returns: the summary and the traces that were switched on.
pub struct Output {
    pub summary: Summary,
    pub traces: Vec<(&'static str, Vec<(&'static str, Column)>)>,
}

/// Run the world described by `spec` with `seed`.
pub fn run(spec: &WorldSpec, seed: u64) -> Result<Output, SpecError> {
    let mut world = world::World::build(spec, seed)?;
    world.run();
    let summary = Summary::of(&world);
    Ok(Output { summary, traces: world.traces.into_columns() })
}

/// Parse, validate and run a JSON world spec.
pub fn run_json(spec_json: &str, seed: u64) -> Result<Output, SpecError> {
    let spec = WorldSpec::from_json(spec_json)?;
    run(&spec, seed)
}
