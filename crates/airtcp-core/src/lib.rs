//! # airtcp-core: a discrete-event simulator of TCP over IEEE 802.11
//!
//! The modules, bottom up, as `tests/module_layers.rs` ranks them (a module imports only
//! those below it; the test fails on an import that reaches up):
//!
//! - [`time`]: `SimTime`, integer nanoseconds; [`ids`]: typed arena indices (and a node's
//!   802 address); [`rng`]: random streams derived from (seed, entity, purpose); [`engine`]:
//!   one event heap ordered by (time, insertion sequence); [`event`]: the world's events;
//!   [`names`]: the name families a spec writes as strings (one macro: list, parse, serde).
//! - [`phy`]: 802.11a/b/g/n modes, `TxVector`, airtime per the standard's clauses, error
//!   rates; [`channel`]: path loss, fading, bursty loss and mobility.
//! - [`tcp`]: the TCP sender and receiver (RFC 5681/6298/6582, Linux's CUBIC and others).
//! - [`mac`]: every node's MAC, split by clause: DCF/EDCA access with lazy backoff, frame
//!   exchanges, retry limits, A-MPDU and Block Ack, rate control, the station table, the NAV;
//!   its state is private, it reads the medium's carrier sense and hands results up as
//!   indications and [`mac::event`]s, never calling the layers above.
//! - [`xlayer`]: the cross-layer schemes (CLAP's link report, paper 003's window, LN-MAC,
//!   paper 002's Block-Ack retry limit, paper 000's ALM-driven retry limit) and what they
//!   read; [`clap`]: CLAP's sender and receiver.
//! - [`spec`]: the validated world description, checked against the models' own tables
//!   above; each model below is built from its section.
//! - [`medium`]: the shared medium: who senses and decodes whom, collisions, capture and the
//!   error models, under the range model or the radio (SINR) model.
//! - [`mesh`]: 802.11s peering, HWMP and the airtime link metric; [`net`]: packets, routing,
//!   wired links, and the interface tier above each MAC ([`net::iface`]: qdisc, mac80211's
//!   intermediate queues, AQL).
//! - [`capture`]: the header bytes of the pcap export; [`trace`]: the traces a run records;
//!   [`tables`]: the core's constants for Python.
//! - [`world`]: owns the arenas and dispatches the events: builders per layer
//!   (`world/build.rs`), the wiring between the medium, the MACs, the interfaces, TCP and the
//!   schemes; [`summary`]: what a run returns, read from the finished world.
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
pub mod names;
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
