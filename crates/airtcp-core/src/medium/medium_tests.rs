//! The medium driven alone, without a MAC or a world: `Medium::build` from a small JSON world,
//! then `begin`, `end_tx`, `take_reception`, `mpdu_survives`, `release`, `cca` and the meters,
//! in the order `world/wifi.rs` calls them. Each test is named after the situation and the
//! event it covers; every expected number is hand computed in a comment.
//!
//! Frames are 802.11a at 6 Mbit/s, long preamble (Clause 17): N_DBPS = 24, 4 us symbols after
//! a 20 us preamble + SIGNAL (17.3.2.4). A 1000-byte MPDU: ceil((16 + 8000 + 6) / 24) = 335
//! symbols, 20 + 1340 = 1360 us; an ACK (14 bytes): ceil(134 / 24) = 6 symbols, 44 us. SIFS is
//! 16 us (Table 17-21, aSIFSTime).
//!
//! The range model's worlds sit on the x axis with rx_range_m 40 and cs_range_m 50 unless a
//! test says otherwise. The radio model's worlds put the receiver B at the origin and the
//! others 10 m away (log-distance, exponent 3, d0 = 1 m, L0 = 40 dB: L(10 m) = 40 + 30 = 70 dB,
//! L(20 m) = 40 + 30 log10(20) = 79.03 dB), each node's transmit power chosen so that its
//! power at B is a round number; noise figure 7 dB, so a 20 MHz noise floor of -93.966 dBm
//! (channel::budget); sensitivity -101 dBm, CCA -82 dBm, preamble detection 4 dB and -82 dBm
//! (ns-3 3.44's defaults, `ThresholdPreambleDetectionModel`).

use super::{Medium, Outcome, RadioEvent, PREAMBLE_DETECTION, RANGE_SLACK_M};
use crate::channel::{dbm_to_mw, noise_mw};
use crate::ids::{NodeId, TxId};
use crate::mac::frame::{Carried, Frame, FrameKind, ACK_BYTES};
use crate::mac::Cca;
use crate::phy::{Preamble, Standard, TxVector};
use crate::rng::{Purpose, Stream};
use crate::spec::WorldSpec;
use crate::time::{Dur, SimTime};
use serde_json::{json, Value};

const SEED: u64 = 7;
/// 1000-byte MPDU at 6 Mbit/s (see the module's comment).
const DATA_BYTES: u32 = 1000;
const DATA_US: u64 = 1360;
const ACK_US: u64 = 44;
const SIFS_US: u64 = 16;
/// A 100-byte beacon: ceil((16 + 800 + 6) / 24) = 35 symbols, 20 + 140 = 160 us.
const BEACON_US: u64 = 160;

const IDLE: Cca = Cca { busy: false, transmitting: false, receiving: false };
/// What a listener that will sense the response after SIFS is told (`medium::response_follows`).
const RESPONSE_FOLLOWS: Cca = Cca { busy: true, transmitting: false, receiving: false };
const SENSING: Cca = Cca { busy: true, transmitting: false, receiving: false };
const RECEIVING: Cca = Cca { busy: true, transmitting: false, receiving: true };
const SENDING: Cca = Cca { busy: true, transmitting: true, receiving: false };

fn us(x: u64) -> SimTime {
    SimTime::ZERO + Dur::from_us(x)
}

fn ns(x: u64) -> SimTime {
    SimTime::ZERO + Dur::from_ns(x)
}

fn n(i: u32) -> NodeId {
    NodeId(i)
}

/// A valid world of `nodes` (name, position) on `channel`.
fn spec(channel: Value, nodes: &[(&str, [f64; 3], Option<f64>)]) -> WorldSpec {
    let nodes: Vec<Value> = nodes
        .iter()
        .map(|(name, p, tx)| {
            let mut v = json!({"name": name, "position_m": p, "wifi": true, "role": "adhoc"});
            if let Some(dbm) = tx {
                v["tx_power_dbm"] = json!(dbm);
            }
            v
        })
        .collect();
    let v = json!({
        "duration_ns": 1_000_000_000u64,
        "wifi": {"standard": "80211a", "data_rate_mbps": 6.0, "basic_rate_mbps": 6.0},
        "channel": channel,
        "nodes": nodes,
    });
    let s = WorldSpec::from_json(&v.to_string()).expect("parses");
    s.validate().expect("valid");
    s
}

fn build(s: &WorldSpec) -> Medium {
    let rngs = (0..s.nodes.len()).map(|i| Stream::derive(SEED, i as u64, Purpose::RxError)).collect();
    Medium::build(&s.channel, &s.nodes, Standard::A, SEED, rngs, 24)
}

/// Range model: nodes on the x axis, rx 40 m, cs 50 m, `error` and preamble detection as given.
fn range(xs: &[f64], error: Value, detect: bool) -> Medium {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let nodes: Vec<_> = xs.iter().enumerate().map(|(i, &x)| (names[i], [x, 0.0, 0.0], None)).collect();
    build(&spec(
        json!({"rx_range_m": 40.0, "cs_range_m": 50.0, "error": error, "preamble_detection": detect}),
        &nodes,
    ))
}

fn no_error() -> Value {
    json!({"kind": "none"})
}

/// Hidden terminals: A (-30) and C (+30) are 60 m apart, beyond 50 m; both decode B (0).
const A: NodeId = NodeId(0);
const B: NodeId = NodeId(1);
const C: NodeId = NodeId(2);
fn hidden() -> Medium {
    range(&[-30.0, 0.0, 30.0], no_error(), false)
}

fn frame(kind: FrameKind, src: NodeId, dst: NodeId, bytes: u32) -> Frame {
    let txv = TxVector::new(Standard::A.mode(6_000).unwrap(), Preamble::Long);
    Frame::mpdu(
        kind,
        (src, dst),
        bytes,
        txv,
        Dur::ZERO,
        Carried { packet: None, seq: 0, retry: false, ac: 1 },
    )
}

fn data(src: NodeId, dst: NodeId) -> Frame {
    frame(FrameKind::Data, src, dst, DATA_BYTES)
}

/// `begin`, with the radio events it hands the MACs.
fn begin(m: &mut Medium, f: Frame, now: SimTime) -> (TxId, Vec<RadioEvent>) {
    let mut ev = Vec::new();
    let id = m.begin(f, now, |e| ev.push(e));
    (id, ev)
}

/// The receptions decided (receiver, outcome) and the nodes told idle (node, carrier sense).
type Ended = (Vec<(NodeId, Outcome)>, Vec<(NodeId, Cca)>);

/// The end of a transmission as `World::on_tx_end` runs it: `end_tx`, every receiver's
/// `take_reception` in order, then `release`. Returns the receptions decided and the nodes told
/// their medium turned idle.
fn end(m: &mut Medium, id: TxId, now: SimTime, responder: Option<NodeId>) -> Ended {
    let t = m.end_tx(id, now);
    let mut rx = Vec::new();
    for k in 0..m.receiver_count(id, t.frame.src) {
        let j = m.receiver(id, t.frame.src, k);
        if let Some(o) = m.take_reception(j, id, now) {
            rx.push((j, o));
        }
    }
    let mut idle = Vec::new();
    m.release(id, now, responder, |j, cca| idle.push((j, cca)));
    (rx, idle)
}

fn busy(j: NodeId) -> RadioEvent {
    RadioEvent::Busy(j)
}

// ---------------------------------------------------------------------------------------------
// Range model: two transmissions overlapping at a receiver. "Any overlap corrupts that
// reception (no capture)" (module comment); the second frame finds the receiver busy, so it
// is never locked onto.

#[test]
fn overlap_second_frame_starts_mid_reception_both_collide_at_the_receiver() {
    let mut m = hidden();
    let (a, ev) = begin(&mut m, data(A, B), us(0));
    assert_eq!(ev, vec![busy(A), busy(B)]);
    assert_eq!(m.cca(B), RECEIVING);
    // C starts 500 us into A's frame: A's end is overlapped, C's start.
    let (c, ev) = begin(&mut m, data(C, B), us(500));
    // B was busy already (no Busy) and locked (its lock is corrupted, no Garbled).
    assert_eq!(ev, vec![busy(C)]);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Ok); // decided at the end
    let (rx, _) = end(&mut m, a, us(DATA_US), None);
    assert_eq!(rx, vec![(B, Outcome::Collision)]);
    let (rx, _) = end(&mut m, c, us(500 + DATA_US), None);
    assert_eq!(rx, vec![]); // never locked onto
}

#[test]
fn overlap_in_the_other_order_is_symmetric() {
    let mut m = hidden();
    let (c, _) = begin(&mut m, data(C, B), us(0));
    let (a, ev) = begin(&mut m, data(A, B), us(500));
    assert_eq!(ev, vec![busy(A)]);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    assert_eq!(end(&mut m, c, us(DATA_US), None).0, vec![(B, Outcome::Collision)]);
    assert_eq!(end(&mut m, a, us(500 + DATA_US), None).0, vec![]);
}

#[test]
fn overlap_of_one_nanosecond_at_the_end_still_collides() {
    // C starts 1 ns before A's last bit: 1 ns of overlap at A's end and at C's start.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), ns(DATA_US * 1000 - 1));
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![(B, Outcome::Collision)]);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    assert_eq!(end(&mut m, c, ns(2 * DATA_US * 1000 - 1), None).0, vec![]);
}

#[test]
fn overlap_a_short_frame_inside_a_long_one_corrupts_the_long_one() {
    // An ACK from C (44 us) wholly inside A's data frame, from 500 to 544 us.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, frame(FrameKind::Ack, C, B, ACK_BYTES), us(500));
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    assert_eq!(end(&mut m, c, us(500 + ACK_US), None), (vec![], vec![(C, IDLE)]));
    // B still senses A: not told idle; its lock on A stays, corrupted.
    assert_eq!(m.cca(B), RECEIVING);
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![(B, Outcome::Collision)]);
}

#[test]
fn overlap_none_back_to_back_frames_are_both_received() {
    // C starts at the very ns A's frame is released: no overlap.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (rx, idle) = end(&mut m, a, us(DATA_US), None);
    assert_eq!(rx, vec![(B, Outcome::Ok)]);
    assert_eq!(idle, vec![(B, IDLE), (A, IDLE)]);
    let (c, ev) = begin(&mut m, data(C, B), us(DATA_US));
    assert_eq!(ev, vec![busy(C), busy(B)]);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Ok);
    assert_eq!(end(&mut m, c, us(2 * DATA_US), None).0, vec![(B, Outcome::Ok)]);
}

// ---------------------------------------------------------------------------------------------
// Range model: lock-on. "A node locks onto a decodable frame that starts while its medium is
// idle" (module comment).

#[test]
fn lock_on_idle_receiver_locks_onto_the_first_decodable_frame() {
    let mut m = hidden();
    assert_eq!(m.cca(B), IDLE);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    assert_eq!(m.radio(B).lock, Some(a));
    assert_eq!(m.radio(B).lock_since, us(0));
    assert_eq!(m.cca(B), RECEIVING);
    assert_eq!(m.cca(A), SENDING);
    // Taken once: a second take finds no lock.
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::Ok));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), None);
    assert_eq!(m.cca(B), SENSING); // not released yet
}

#[test]
fn lock_on_busy_with_a_sensed_only_frame_the_receiver_does_not_lock_and_sees_it_garbled() {
    // E at 45 m senses B (45 <= 50) but is beyond B's decode range (45 > 40); A at -30 is
    // hidden from E (75 m). E sends first; A's frame then finds B busy: no lock, and without
    // preamble detection "a frame it could hear arrives garbled" (EIFS, 10.3.2.3.7).
    let mut m = range(&[-30.0, 0.0, 45.0], no_error(), false);
    let e = n(2);
    let (te, ev) = begin(&mut m, data(e, n(3_000)), us(0));
    assert_eq!(ev, vec![busy(e), busy(B)]);
    assert_eq!(m.cca(B), SENSING);
    let (a, ev) = begin(&mut m, data(A, B), us(100));
    assert_eq!(ev, vec![busy(A), RadioEvent::Garbled(B)]);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    // E's frame leaves first; B still senses A and stays unlocked (no lock mid-frame).
    let (_, idle) = end(&mut m, te, us(DATA_US), None);
    assert_eq!(idle, vec![(e, IDLE)]);
    assert_eq!(m.cca(B), SENSING);
    assert_eq!(end(&mut m, a, us(100 + DATA_US), None), (vec![], vec![(B, IDLE), (A, IDLE)]));
}

#[test]
fn lock_on_busy_with_preamble_detection_a_late_frame_is_energy_only_no_garbled() {
    // As above with channel.preamble_detection: no reception, so no error and no EIFS.
    let mut m = range(&[-30.0, 0.0, 45.0], no_error(), true);
    begin(&mut m, data(n(2), n(3_000)), us(0));
    let (a, ev) = begin(&mut m, data(A, B), us(100));
    assert_eq!(ev, vec![busy(A)]);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
}

#[test]
fn lock_on_sense_only_listener_turns_busy_but_receives_nothing() {
    // B at 45 m from A: sensed (<= 50 m), not decoded (> 40 m). Busy without a reception.
    let mut m = range(&[0.0, 45.0], no_error(), false);
    assert!(m.senses(A, B) && !m.can_decode(A, B));
    let (a, ev) = begin(&mut m, data(A, B), us(0));
    assert_eq!(ev, vec![busy(A), busy(B)]);
    assert_eq!(m.cca(B), SENSING);
    assert_eq!(m.busy_ns_now(B, us(1000)), 1_000_000);
    let (rx, idle) = end(&mut m, a, us(DATA_US), None);
    assert_eq!(rx, vec![]);
    assert_eq!(idle, vec![(B, IDLE), (A, IDLE)]);
    assert_eq!(m.busy_ns_now(B, us(5000)), DATA_US * 1000);
}

#[test]
fn lock_on_sense_only_addressee_alone_on_the_air_is_no_collision() {
    let mut m = range(&[0.0, 45.0], no_error(), false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    assert_ne!(m.transmission(a).dst_outcome, Outcome::Collision);
}

#[test]
fn lock_on_addressee_out_of_range_is_not_ok() {
    let mut m = range(&[0.0, 100.0], no_error(), false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![]);
    assert_ne!(m.transmission(a).dst_outcome, Outcome::Ok);
}

// ---------------------------------------------------------------------------------------------
// Range model: preamble detection (channel.preamble_detection). "Frames of equal power that
// start within the detection time of each other are detected by nobody, so the overlap is
// energy only" (ChannelSpec); the detection time is 4 us (PREAMBLE_DETECTION, ns-3
// WifiPhy::GetPreambleDetectionDuration).

#[test]
fn preamble_detection_two_starts_within_4us_neither_is_received_nor_garbled() {
    let mut m = range(&[-30.0, 0.0, 30.0], no_error(), true);
    assert_eq!(PREAMBLE_DETECTION, Dur::from_us(4));
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, ev) = begin(&mut m, data(C, B), ns(3_999));
    assert_eq!(ev, vec![busy(C)]); // no Garbled(B): no PHY-RXSTART, no EIFS
    assert_eq!(m.cca(B), SENSING); // the lock is dropped
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![]);
    assert_eq!(end(&mut m, c, ns(3_999 + DATA_US * 1000), None).0, vec![]);
}

#[test]
fn preamble_detection_a_start_4us_after_the_lock_only_corrupts_it() {
    // now < lock_since + 4 us is false at exactly 4 us: the lock holds, corrupted.
    let mut m = range(&[-30.0, 0.0, 30.0], no_error(), true);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(4));
    assert_eq!(m.cca(B), RECEIVING);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![(B, Outcome::Collision)]);
}

// ---------------------------------------------------------------------------------------------
// Range model: half duplex.

#[test]
fn half_duplex_a_frame_arriving_while_sending_is_not_received() {
    // B sends to C; A's frame to B arrives mid-transmission: no lock, no Garbled.
    let mut m = hidden();
    let (b, _) = begin(&mut m, data(B, C), us(0));
    let (a, ev) = begin(&mut m, data(A, B), us(100));
    assert_eq!(ev, vec![busy(A)]);
    assert_eq!(m.cca(B), SENDING);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    // A had locked onto B's frame and lost it by sending (half duplex); C (hidden from A)
    // receives it.
    assert_eq!(end(&mut m, b, us(DATA_US), None).0, vec![(A, Outcome::Collision), (C, Outcome::Ok)]);
    assert_eq!(m.cca(B), SENSING); // still senses A
    assert_eq!(end(&mut m, a, us(100 + DATA_US), None).0, vec![]);
}

#[test]
fn half_duplex_starting_to_send_mid_reception_loses_it_as_a_collision() {
    // "half duplex: a reception in progress is lost" (begin_range); Outcome::Collision covers
    // "the receiver was itself transmitting".
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (b, ev) = begin(&mut m, frame(FrameKind::Ack, B, C, ACK_BYTES), us(100));
    assert_eq!(ev, vec![busy(B), busy(C)]);
    assert_eq!(m.cca(B), Cca { busy: true, transmitting: true, receiving: true });
    assert_eq!(end(&mut m, b, us(100 + ACK_US), None), (vec![(C, Outcome::Ok)], vec![(C, IDLE)]));
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![(B, Outcome::Collision)]);
}

#[test]
fn half_duplex_both_start_in_the_same_slot_neither_detects_the_other() {
    // "Both backoffs ended in the same slot: the node never detected the other frame (no
    // PHY-RXSTART), so no erroneous reception and no EIFS (10.3.2.3.7)".
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (b, ev) = begin(&mut m, data(B, A), us(0));
    assert_eq!(ev, vec![busy(B), busy(C)]); // A was active: no Busy, no Garbled
    assert_eq!(m.cca(B), SENDING);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    assert_eq!(m.transmission(b).dst_outcome, Outcome::Collision);
    assert_eq!(end(&mut m, a, us(DATA_US), None).0, vec![]);
    // C decodes B only (A is hidden from it): C receives B's frame.
    assert_eq!(end(&mut m, b, us(DATA_US), None).0, vec![(C, Outcome::Ok)]);
}

// ---------------------------------------------------------------------------------------------
// Range model: hidden terminals.

#[test]
fn hidden_terminals_a_and_c_see_the_medium_idle_while_b_collides() {
    let mut m = hidden();
    assert!(!m.senses(A, C) && !m.senses(C, A));
    assert!(m.can_decode(A, B) && m.can_decode(C, B));
    let (a, _) = begin(&mut m, data(A, B), us(0));
    assert_eq!(m.cca(C), IDLE); // C cannot sense A
    let (c, ev) = begin(&mut m, data(C, B), us(500));
    assert_eq!(ev, vec![busy(C)]); // no Busy(A): A cannot sense C
    assert_eq!(m.radio(A).busy, 0);
    // A's frame ends: B still senses C, so only A is told idle, though C is on the air.
    let (rx, idle) = end(&mut m, a, us(DATA_US), None);
    assert_eq!(rx, vec![(B, Outcome::Collision)]);
    assert_eq!(idle, vec![(A, IDLE)]);
    let (rx, idle) = end(&mut m, c, us(500 + DATA_US), None);
    assert_eq!(rx, vec![]);
    assert_eq!(idle, vec![(B, IDLE), (C, IDLE)]);
    // Each transmitter was busy only for its own frame; B for the union [0, 1860) us.
    let t = us(5_000);
    assert_eq!(m.busy_ns_now(A, t), DATA_US * 1000);
    assert_eq!(m.busy_ns_now(C, t), DATA_US * 1000);
    assert_eq!(m.busy_ns_now(B, t), (500 + DATA_US) * 1000);
}

#[test]
fn hidden_terminals_have_no_contention_domain_in_common_a_clique_has_one() {
    // Closed neighbourhoods: A {A, B}, B {A, B, C}, C {B, C}: three views of one node each.
    let m = hidden();
    assert_eq!(m.view_groups(1), vec![vec![A], vec![B], vec![C]]);
    assert!(m.view_groups(2).is_empty());
    // Three nodes within 20 m of each other share one view.
    let m = range(&[0.0, 10.0, 20.0], no_error(), false);
    assert_eq!(m.view_groups(2), vec![vec![A, B, C]]);
}

// ---------------------------------------------------------------------------------------------
// Range model: busy/idle edges with a responder. "A listener that will sense responder's
// response after SIFS is handed over as busy (its countdown would only be frozen again at the
// response's start)"; idle is told "in listener order, the transmitter last" (Medium::release).

#[test]
fn busy_idle_edges_with_a_responder_data_then_ack_after_sifs() {
    // A (0) sends to B (10); C (5) senses both; E (-45) senses A (45 m) but not B (55 m).
    let mut m = range(&[0.0, 10.0, 5.0, -45.0], no_error(), false);
    let e = n(3);
    let (a, ev) = begin(&mut m, data(A, B), us(0));
    assert_eq!(ev, vec![busy(A), busy(B), busy(C), busy(e)]); // transmitter first, node order
                                                              // The data frame ends at 1360 us; B answers SIFS later. C will sense B's ACK: told busy.
    let (rx, idle) = end(&mut m, a, us(DATA_US), Some(B));
    assert_eq!(rx, vec![(B, Outcome::Ok), (C, Outcome::Ok)]); // C overhears it
    assert_eq!(idle, vec![(B, IDLE), (C, RESPONSE_FOLLOWS), (e, IDLE), (A, IDLE)]);
    // Told as busy (its NAV covers the gap), C's radio is idle all the same (the SIFS gap).
    assert_eq!(m.cca(C), IDLE);
    let (ack, ev) = begin(&mut m, frame(FrameKind::Ack, B, A, ACK_BYTES), us(DATA_US + SIFS_US));
    assert_eq!(ev, vec![busy(B), busy(A), busy(C)]);
    let (rx, idle) = end(&mut m, ack, us(DATA_US + SIFS_US + ACK_US), None);
    assert_eq!(rx, vec![(A, Outcome::Ok), (C, Outcome::Ok)]);
    assert_eq!(idle, vec![(A, IDLE), (C, IDLE), (B, IDLE)]);
    // Busy: 1360 us of data + 44 us of ACK at A, B, C (the SIFS gap not counted); E 1360 us.
    let t = us(10_000);
    for j in [A, B, C] {
        assert_eq!(m.busy_ns_now(j, t), (DATA_US + ACK_US) * 1000, "{j:?}");
    }
    assert_eq!(m.busy_ns_now(e, t), DATA_US * 1000);
    assert_eq!((m.tx_ns_now(A, t), m.tx_ns_now(B, t), m.tx_ns_now(C, t)), (DATA_US * 1000, ACK_US * 1000, 0));
}

#[test]
fn busy_from_the_first_sensed_start_to_the_last_sensed_end_told_idle_once() {
    // B senses A on [0, 1360) and C on [500, 1860) us: one busy period [0, 1860).
    let mut m = hidden();
    let (a, ev) = begin(&mut m, data(A, n(3_000)), us(0));
    assert!(ev.contains(&busy(B)));
    let (c, ev) = begin(&mut m, data(C, n(3_000)), us(500));
    assert!(!ev.contains(&busy(B))); // already busy: no second edge
    assert_eq!(m.radio(B).busy, 2);
    assert_eq!(m.busy_ns_now(B, us(1000)), 1_000_000); // the open period, by hand
    let (_, idle) = end(&mut m, a, us(DATA_US), None);
    assert!(!idle.iter().any(|&(j, _)| j == B));
    assert_eq!(m.cca(B), SENSING);
    let (_, idle) = end(&mut m, c, us(500 + DATA_US), None);
    assert_eq!(idle, vec![(B, IDLE), (C, IDLE)]);
    assert_eq!(m.busy_ns_now(B, us(2000)), 1_860_000);
}

// ---------------------------------------------------------------------------------------------
// Range model: group-addressed frames.

#[test]
fn group_frame_is_received_by_every_decoder_in_range_and_by_no_one_beyond() {
    // A (0) broadcasts; B (10) and C (35) decode it, D (45) senses it only, E (80) is out.
    let mut m = range(&[0.0, 10.0, 35.0, 45.0, 80.0], no_error(), false);
    let beacon = frame(FrameKind::Beacon, A, NodeId::BROADCAST, 100);
    let (a, ev) = begin(&mut m, beacon, us(0));
    assert_eq!(ev, vec![busy(A), busy(B), busy(C), busy(n(3))]);
    assert_eq!(m.receiver_count(a, A), 3);
    let (rx, idle) = end(&mut m, a, us(BEACON_US), None);
    assert_eq!(rx, vec![(B, Outcome::Ok), (C, Outcome::Ok)]);
    assert_eq!(idle, vec![(B, IDLE), (C, IDLE), (n(3), IDLE), (A, IDLE)]);
    assert_eq!(m.busy_ns_now(n(4), us(BEACON_US)), 0);
}

#[test]
fn group_frame_outcomes_are_per_receiver() {
    // A (-30) broadcasts; C (30), hidden from A, sends to B (0) mid-frame; F (-60) hears only
    // A. B's copy collides, F's is fine; a group frame's dst_outcome names no receiver.
    let mut m = range(&[-30.0, 0.0, 30.0, -60.0], no_error(), false);
    let (a, _) = begin(&mut m, frame(FrameKind::Beacon, A, NodeId::BROADCAST, DATA_BYTES), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(500));
    let (rx, _) = end(&mut m, a, us(DATA_US), None);
    assert_eq!(rx, vec![(B, Outcome::Collision), (n(3), Outcome::Ok)]);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Ok);
    end(&mut m, c, us(500 + DATA_US), None);
}

// ---------------------------------------------------------------------------------------------
// Range model: meters (busy_ns_now, tx_ns_now, start_measuring, measured_ns).

#[test]
fn meters_count_the_open_periods_and_the_measured_period_by_hand() {
    // A sends [100, 1460) us to B. At 600 us: A has sent 500 us, B sensed 500 us.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(100));
    assert_eq!((m.tx_ns_now(A, us(600)), m.busy_ns_now(A, us(600))), (500_000, 500_000));
    assert_eq!((m.tx_ns_now(B, us(600)), m.busy_ns_now(B, us(600))), (0, 500_000));
    m.start_measuring(us(600));
    end(&mut m, a, us(100 + DATA_US), None);
    // Closed at 1460 us: 1360 us each from the run's start; 860 within [600, end).
    assert_eq!(m.tx_ns_now(A, us(3000)), DATA_US * 1000);
    assert_eq!(m.busy_ns_now(B, us(3000)), DATA_US * 1000);
    assert_eq!(m.measured_ns(A, us(3000)), (860_000, 860_000));
    assert_eq!(m.measured_ns(B, us(3000)), (860_000, 0));
    assert_eq!(m.measured_ns(C, us(3000)), (0, 0));
}

#[test]
fn meters_a_transmitter_already_sensing_keeps_one_busy_period() {
    // B senses A's frame from 0; B itself sends [200, 244) us; A's frame ends at 1360. B's
    // busy period is one, [0, 1360); it sent 44 us.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, C), us(0));
    let (b, _) = begin(&mut m, frame(FrameKind::Ack, B, C, ACK_BYTES), us(200));
    assert_eq!(m.radio(B).active_since, us(0));
    let (_, idle) = end(&mut m, b, us(200 + ACK_US), None);
    assert_eq!(idle, vec![(C, IDLE)]); // B still senses A: not told
    assert_eq!(m.tx_ns_now(B, us(1000)), ACK_US * 1000);
    end(&mut m, a, us(DATA_US), None);
    assert_eq!(m.busy_ns_now(B, us(3000)), DATA_US * 1000);
}

#[test]
fn meters_between_end_tx_and_release_the_transmitters_busy_period_is_counted() {
    // A alone sends [0, 1360) us: at 1360 us, after end_tx, its medium was busy 1360 us.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.tx_ns_now(A, us(DATA_US)), DATA_US * 1000);
    assert_eq!(m.busy_ns_now(A, us(DATA_US)), DATA_US * 1000);
}

// ---------------------------------------------------------------------------------------------
// Range model: release semantics.

#[test]
fn release_the_transmission_stays_readable_until_release_then_its_slot_is_reused() {
    let mut m = hidden();
    let f = data(A, B);
    let (a, _) = begin(&mut m, f, us(0));
    let (c, _) = begin(&mut m, data(C, B), us(10));
    assert_ne!(a, c);
    let t = m.end_tx(a, us(DATA_US));
    assert_eq!((t.frame.src, t.frame.dst, t.start), (A, B, us(0)));
    assert_eq!(m.cca(A), IDLE); // end_tx: no longer transmitting, not yet released
    assert_eq!(m.transmission(a).frame.bytes, DATA_BYTES);
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::Collision));
    let mut idle = Vec::new();
    m.release(a, us(DATA_US), None, |j, cca| idle.push((j, cca)));
    assert_eq!(idle, vec![(A, IDLE)]);
    // The freed slot is the next one taken.
    let (again, _) = begin(&mut m, data(A, B), us(2000));
    assert_eq!(again, a);
    assert_eq!(m.transmission(again).start, us(2000));
}

#[test]
fn release_with_the_responder_tells_the_responder_and_the_transmitter() {
    // Hidden layout: A sends to B, B will answer; the only listener is B (the responder
    // itself), told, then A. C senses nothing of A.
    let mut m = hidden();
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (_, idle) = end(&mut m, a, us(DATA_US), Some(B));
    assert_eq!(idle, vec![(B, IDLE), (A, IDLE)]);
}

// ---------------------------------------------------------------------------------------------
// Range model: the error models.

/// Binomial bound: |k - N p| <= 4 sqrt(N p (1 - p)) (the normal approximation gives a two-sided
/// probability of 6.3e-5 of a true-p stream falling outside).
fn within_4_sigma(k: u64, trials: u64, p: f64) -> bool {
    let (mean, sd) = (trials as f64 * p, (trials as f64 * p * (1.0 - p)).sqrt());
    (k as f64 - mean).abs() <= 4.0 * sd
}

#[test]
fn fixed_fer_loses_frames_at_the_configured_rate_as_header_errors() {
    // FER 0.1 over N = 10 000 frames: mean 1000, sigma = sqrt(10 000 x 0.1 x 0.9) = 30, so
    // within 1000 +- 120. "The whole frame under a fixed FER" fails as a header error.
    let mut m = range(&[0.0, 10.0], json!({"kind": "fer", "fer": 0.1}), false);
    let (mut lost, trials) = (0, 10_000u64);
    for k in 0..trials {
        let t0 = k * 2000;
        let (id, _) = begin(&mut m, data(A, B), us(t0));
        let (rx, _) = end(&mut m, id, us(t0 + DATA_US), None);
        match rx[..] {
            [(B, Outcome::Ok)] => {}
            [(B, Outcome::HeaderError)] => lost += 1,
            _ => panic!("{rx:?}"),
        }
    }
    assert!(within_4_sigma(lost, trials, 0.1), "{lost}");
}

#[test]
fn fixed_fer_draws_each_receiver_on_its_own() {
    // A broadcast to B and C with FER 0.2: each loses 2000 of 10 000 +- 4 x 40; both lose the
    // same frame 0.04 of the time if independent, 400 +- 4 x 19.6.
    let mut m = range(&[0.0, 10.0, 20.0], json!({"kind": "fer", "fer": 0.2}), false);
    let (mut lost_b, mut lost_c, mut both, trials) = (0, 0, 0, 10_000u64);
    for k in 0..trials {
        let t0 = k * 2000;
        let (id, _) = begin(&mut m, frame(FrameKind::Beacon, A, NodeId::BROADCAST, 100), us(t0));
        let (rx, _) = end(&mut m, id, us(t0 + BEACON_US), None);
        let (b, c) = (rx[0].1 != Outcome::Ok, rx[1].1 != Outcome::Ok);
        lost_b += u64::from(b);
        lost_c += u64::from(c);
        both += u64::from(b && c);
    }
    assert!(within_4_sigma(lost_b, trials, 0.2), "{lost_b}");
    assert!(within_4_sigma(lost_c, trials, 0.2), "{lost_c}");
    assert!(within_4_sigma(both, trials, 0.04), "{both}");
}

#[test]
fn fixed_fer_decides_an_ampdus_subframes_one_by_one() {
    // An A-MPDU's PPDU is not lost whole under a fixed FER ("decided one by one
    // (mpdu_survives)"); each subframe is lost with the FER, 0.1: 1000 +- 120 of 10 000.
    let mut m = range(&[0.0, 10.0], json!({"kind": "fer", "fer": 0.1}), false);
    let (mut lost, trials) = (0, 10_000u64);
    for k in 0..trials / 2 {
        let t0 = k * 3000;
        let f = Frame { subframes: 2, ..frame(FrameKind::Data, A, B, 2 * DATA_BYTES) };
        let (id, _) = begin(&mut m, f, us(t0));
        m.end_tx(id, us(t0 + 2692));
        assert_eq!(m.take_reception(B, id, us(t0 + 2692)), Some(Outcome::Ok));
        for span in [(0, DATA_BYTES), (DATA_BYTES, 2 * DATA_BYTES)] {
            lost += u64::from(!m.mpdu_survives(B, &f, us(t0), span, DATA_BYTES));
        }
        m.release(id, us(t0 + 2692), None, |_, _| {});
    }
    assert!(within_4_sigma(lost, trials, 0.1), "{lost}");
}

#[test]
fn ber_fails_a_data_frames_header_and_payload_apart() {
    // BER 1e-4, a 1000-byte data frame with a 24-byte header (upper_bytes 0): P(header) =
    // 1 - (1 - 1e-4)^192 = 0.01902, and of the rest P(payload) = 1 - (1 - 1e-4)^7808 = 0.5420.
    // Over 10 000 frames: 190 +- 4 x 13.7 header errors; of the ~9810 others 5317 +- 4 x 49.
    let mut m = range(&[0.0, 10.0], json!({"kind": "ber", "ber": 1e-4}), false);
    let (mut header, mut payload, trials) = (0u64, 0u64, 10_000u64);
    for k in 0..trials {
        let t0 = k * 2000;
        let (id, _) = begin(&mut m, data(A, B), us(t0));
        let rx = end(&mut m, id, us(t0 + DATA_US), None).0;
        match rx[..] {
            [(B, Outcome::HeaderError)] => header += 1,
            [(B, Outcome::PayloadError)] => payload += 1,
            [(B, Outcome::Ok)] => {}
            _ => panic!("{rx:?}"),
        }
    }
    let p_header = 1.0 - (1.0 - 1e-4f64).powi(192);
    let p_payload = 1.0 - (1.0 - 1e-4f64).powi(7808);
    assert!(within_4_sigma(header, trials, p_header), "{header}");
    assert!(within_4_sigma(payload, trials - header, p_payload), "{payload}");
}

#[test]
fn bursty_loss_decides_a_whole_ppdu_and_leaves_its_subframes_alone() {
    // Gilbert-Elliott with a loss probability of 1 in both states: every frame is lost, and
    // "a lost frame is lost whole" (draw_error), an A-MPDU included, whose subframes
    // mpdu_survives then leaves alone ("the bursty models decided the whole PPDU already").
    let lossy = json!({"kind": "gilbert", "good_ms": 1.0, "bad_ms": 1.0, "loss_good": 1.0, "loss_bad": 1.0});
    let mut m = range(&[0.0, 10.0], lossy, false);
    let (id, _) = begin(&mut m, data(A, B), us(0));
    assert_eq!(end(&mut m, id, us(DATA_US), None).0, vec![(B, Outcome::HeaderError)]);
    let f = Frame { subframes: 2, ..frame(FrameKind::Data, A, B, 2 * DATA_BYTES) };
    let (id, _) = begin(&mut m, f, us(2000));
    m.end_tx(id, us(2000 + 2692));
    assert_eq!(m.take_reception(B, id, us(2000 + 2692)), Some(Outcome::HeaderError));
    assert!(m.mpdu_survives(B, &f, us(2000), (0, DATA_BYTES), DATA_BYTES));
}

// ---------------------------------------------------------------------------------------------
// Range model: who decodes and senses whom (`reach`).

#[test]
fn reach_the_range_comparison_has_a_nanometre_of_slack() {
    // "A node placed exactly at the range may sit a fraction of a nanometre beyond it"
    // (RANGE_SLACK_M = 1e-9 m): 40 m + 0.5 nm decodes, 40 m + 1 um does not.
    assert_eq!(RANGE_SLACK_M, 1e-9);
    let m = range(&[0.0, 40.0 + 0.5e-9, 40.000_001], no_error(), false);
    assert!(m.can_decode(A, B));
    assert!(!m.can_decode(A, C) && m.senses(A, C));
}

#[test]
fn reach_a_matrix_link_that_decodes_also_senses() {
    // Matrix rx[0][1] = 1 with cs[0][1] = 0: "a node that decodes also senses"; nothing else.
    let channel = json!({
        "rx_range_m": 1.0, "cs_range_m": 1.0,
        "matrix": {"rx": [[0, 1, 0], [0, 0, 0], [0, 0, 0]], "cs": [[0, 0, 0], [0, 0, 1], [0, 0, 0]]}
    });
    let m = build(&spec(channel, &[("a", [0.0; 3], None), ("b", [0.0; 3], None), ("c", [0.0; 3], None)]));
    assert!(m.can_decode(A, B) && m.senses(A, B));
    assert!(!m.can_decode(B, A) && !m.senses(B, A)); // directed
    assert!(!m.can_decode(B, C) && m.senses(B, C));
    assert!(!m.senses(A, C));
}

// ---------------------------------------------------------------------------------------------
// Radio model (medium/snr.rs). B at the origin; A at (10, 0, 0), C at (-10, 0, 0), D at
// (0, 10, 0): each 70 dB from B, so a node's transmit power P dBm arrives at B as P - 70.

const D: NodeId = NodeId(3);

/// The radio world with the given transmit powers of A, C and D (B sends at 0 dBm), capture
/// as (margin dB, window ns), Rayleigh fading or none.
fn radio(tx: [f64; 3], capture: Option<(f64, u64)>, fading: bool) -> Medium {
    let mut r = json!({
        "path_loss": {"kind": "log-distance", "exponent": 3.0, "reference_distance_m": 1.0,
                      "reference_loss_db": 40.0},
        "tx_power_dbm": 0.0,
        "noise_figure_db": 7.0,
        "rx_sensitivity_dbm": -101.0,
        "cca_threshold_dbm": -82.0,
        "error_model": "nist",
        "preamble_detection": {"snr_db": 4.0, "min_rssi_dbm": -82.0},
    });
    if let Some((margin_db, window_ns)) = capture {
        r["capture"] = json!({"margin_db": margin_db, "window_ns": window_ns});
    }
    if fading {
        r["fading"] = json!({"kind": "rayleigh"});
    }
    build(&spec(
        json!({"radio": r}),
        &[
            ("a", [10.0, 0.0, 0.0], Some(tx[0])),
            ("b", [0.0; 3], None),
            ("c", [-10.0, 0.0, 0.0], Some(tx[1])),
            ("d", [0.0, 10.0, 0.0], Some(tx[2])),
        ],
    ))
}

/// The 20 MHz noise floor with a 7 dB noise figure [mW] (-93.966 dBm).
fn noise() -> f64 {
    noise_mw(20e6, 7.0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs()
}

#[test]
fn radio_clean_reception_reports_the_link_budget() {
    // A at 0 dBm: -70 dBm at B, SNR -70 + 93.966 = 23.97 dB, nothing else on the air.
    let mut m = radio([0.0, 0.0, 0.0], None, false);
    assert!(m.is_radio());
    let (a, ev) = begin(&mut m, data(A, B), us(0));
    // Sensed (>= -82 dBm) by B, C (20 m: -79.03) and D (14.1 m: 40 + 30 log10 14.14 = 74.5 dB).
    assert_eq!(ev, vec![busy(A), busy(B), busy(C), busy(D)]);
    assert_eq!(m.cca(B), RECEIVING);
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::Ok));
    let info = m.last_rx;
    assert!(close(info.rx_mw, dbm_to_mw(-70.0)), "{info:?}");
    assert!(close(info.noise_mw, noise()));
    assert!(close(info.min_sinr, dbm_to_mw(-70.0) / noise()));
    assert!(!info.interfered);
    for j in [C, D] {
        m.take_reception(j, a, us(DATA_US)).expect("locked");
    }
    let mut idle = Vec::new();
    m.release(a, us(DATA_US), None, |j, cca| idle.push((j, cca)));
    assert_eq!(idle, vec![(B, IDLE), (C, IDLE), (D, IDLE), (A, IDLE)]);
}

#[test]
fn radio_capture_strong_first_weak_later_the_lock_holds_and_the_weak_frame_is_lost() {
    // A at -60 dBm locks B; C at -80 dBm starts 100 us later (past the 4 us window, no
    // capture): interference only. A's SINR = -60 - (-80 (+) -93.966) = -60 + 79.83 = 19.8 dB.
    let mut m = radio([10.0, -10.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(100));
    assert_eq!(m.radio(B).lock, Some(a));
    let t = *m.transmission(c);
    assert_eq!((t.dst_outcome, t.interfered), (Outcome::Collision, true));
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::Ok));
    let info = m.last_rx;
    assert!(info.interfered);
    assert!(close(info.min_sinr, dbm_to_mw(-60.0) / (noise() + dbm_to_mw(-80.0))), "{info:?}");
    m.end_tx(c, us(100 + DATA_US));
    assert_eq!(m.take_reception(B, c, us(100 + DATA_US)), None);
}

#[test]
fn radio_capture_off_weak_first_strong_later_fails_the_weak_frames_payload() {
    // A at -80 dBm (SNR 13.97 dB) locks B; C at -60 dBm starts at 100 us. A's PHY header
    // [16, 20) us and MAC header [20, 54.7) us (24 bytes + 16 SERVICE bits at 6 Mbit/s) are
    // clean; its payload from 100 us on is at SINR -20 dB: a payload error (paper 004's case).
    let mut m = radio([-10.0, 10.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(100));
    assert_eq!(m.radio(B).lock, Some(a));
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::PayloadError));
    assert!(m.transmission(a).interfered);
}

#[test]
fn radio_capture_on_a_newcomer_past_the_margin_within_the_window_takes_the_lock() {
    // Capture margin 10 dB, window 1 ms: C 20 dB stronger than A at 100 us is captured
    // (ns-3 SimpleFrameCaptureModel: strictly more than the margin). A's reception is lost
    // there (a collision, interfered); C's, at 19.8 dB SINR, is received.
    let mut m = radio([-10.0, 10.0, -50.0], Some((10.0, 1_000_000)), false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(100));
    assert_eq!(m.radio(B).lock, Some(c));
    let t = *m.transmission(a);
    assert_eq!((t.dst_outcome, t.interfered), (Outcome::Collision, true));
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), None);
    m.end_tx(c, us(100 + DATA_US));
    assert_eq!(m.take_reception(B, c, us(100 + DATA_US)), Some(Outcome::Ok));
}

#[test]
fn radio_capture_on_a_newcomer_short_of_the_margin_or_past_the_window_is_interference() {
    // 20 dB stronger but the margin is 25 dB; then margin 10 dB but a 50 us window (C at 100).
    for capture in [(25.0, 1_000_000), (10.0, 50_000)] {
        let mut m = radio([-10.0, 10.0, -50.0], Some(capture), false);
        let (a, _) = begin(&mut m, data(A, B), us(0));
        begin(&mut m, data(C, B), us(100));
        assert_eq!(m.radio(B).lock, Some(a), "{capture:?}");
    }
}

#[test]
fn radio_preamble_detection_equal_preambles_within_4us_neither_is_detected() {
    // A and C both at -70 dBm, C 2 us after A: the stronger of the window is neither; A's
    // SINR is then 1 / (1 + N/S) < 0 dB, short of 4 dB: neither is detected.
    let mut m = radio([0.0, 0.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(2));
    assert_eq!(m.cca(B), SENSING); // both sensed, nothing locked
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), None);
    m.end_tx(c, us(2 + DATA_US));
    assert_eq!(m.take_reception(B, c, us(2 + DATA_US)), None);
}

#[test]
fn radio_preamble_detection_a_stronger_preamble_within_4us_wins_if_its_sinr_passes() {
    // A at -80, C at -60 dBm 2 us later: C's SINR 19.8 dB >= 4 dB, so C is locked onto.
    let mut m = radio([-10.0, 10.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(2));
    assert_eq!(m.radio(B).lock, Some(c));
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Ok);
    m.end_tx(c, us(2 + DATA_US));
    assert_eq!(m.take_reception(B, c, us(2 + DATA_US)), Some(Outcome::Ok));
}

#[test]
fn radio_preamble_detection_a_stronger_preamble_short_of_4db_leaves_neither() {
    // A at -70, C at -68 dBm 2 us later: C's SINR = -68 - (-70 (+) -93.966) = 1.98 dB < 4 dB.
    let mut m = radio([0.0, 2.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(2));
    assert_eq!(m.radio(B).lock, None);
    assert_eq!(m.transmission(a).dst_outcome, Outcome::Collision);
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
}

#[test]
fn radio_preamble_detection_a_weaker_preamble_within_4us_leaves_a_lock_that_still_passes() {
    // A at -60, C at -80 dBm 2 us later: A's SINR 19.8 dB still passes 4 dB; A is kept.
    let mut m = radio([10.0, -10.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (c, _) = begin(&mut m, data(C, B), us(2));
    assert_eq!(m.radio(B).lock, Some(a));
    assert_eq!(m.transmission(c).dst_outcome, Outcome::Collision);
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::Ok));
}

#[test]
fn radio_undetected_below_cca_and_minimum_rssi_neither_sensed_nor_received() {
    // D at -20 dBm: -90 dBm at B, above the sensitivity (-101: seen, counted as interference),
    // below the CCA threshold and the minimum RSSI (-82): not sensed, not locked, Undetected.
    let mut m = radio([0.0, 0.0, -20.0], None, false);
    let (d, ev) = begin(&mut m, data(D, B), us(0));
    assert!(!ev.contains(&busy(B)), "{ev:?}");
    assert_eq!(m.cca(B), IDLE);
    assert!((0..m.receiver_count(d, D)).any(|k| m.receiver(d, D, k) == B)); // it is seen
    assert_eq!(m.transmission(d).dst_outcome, Outcome::Undetected);
    // A's frame (-70 dBm) at 100 us locks B all the same; D's -90 dBm interferes with it
    // until D's frame ends at 1360 us: its lowest SINR = 1e-7 / (N + 1e-9).
    let (a, ev) = begin(&mut m, data(A, B), us(100));
    assert!(ev.contains(&busy(B)));
    // D senses A's frame (-74.5 dBm at 14.1 m): its medium stays busy, so no one is told.
    assert_eq!(end(&mut m, d, us(DATA_US), None), (vec![], vec![]));
    m.end_tx(a, us(100 + DATA_US));
    assert_eq!(m.take_reception(B, a, us(100 + DATA_US)), Some(Outcome::Ok));
    assert!(m.last_rx.interfered);
    assert!(close(m.last_rx.min_sinr, dbm_to_mw(-70.0) / (noise() + dbm_to_mw(-90.0))));
}

#[test]
fn radio_interference_names_the_first_part_it_hits() {
    // A at -80 dBm (13.97 dB SNR) locked by B; C at -60 dBm arrives past the 4 us window, no
    // capture. From 10 us it covers A's PHY header [16, 20) us at -20 dB SINR: a PHY header
    // error; from 30 us it spares the PHY header and hits the MAC header [20, 54.7) us: a
    // header error ("one draw per part, in order, decides which part (if any) failed").
    for (at, want) in [(10, Outcome::PhyHeaderError), (30, Outcome::HeaderError)] {
        let mut m = radio([-10.0, 10.0, -50.0], None, false);
        let (a, _) = begin(&mut m, data(A, B), us(0));
        begin(&mut m, data(C, n(3_000)), us(at));
        m.end_tx(a, us(DATA_US));
        assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(want), "C from {at} us");
    }
}

#[test]
fn radio_below_the_sensitivity_a_signal_is_not_even_interference() {
    // D at -50 dBm: -120 dBm at B, below -101 dBm: B does not see it (ns-3
    // YansWifiChannel::Receive); A's reception at B meanwhile is clean.
    let mut m = radio([0.0, 0.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (d, _) = begin(&mut m, data(D, B), us(100));
    assert!(!(0..m.receiver_count(d, D)).any(|k| m.receiver(d, D, k) == B));
    assert_eq!(m.transmission(d).dst_outcome, Outcome::Undetected);
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), Some(Outcome::Ok));
    assert!(!m.last_rx.interfered);
    assert!(close(m.last_rx.min_sinr, dbm_to_mw(-70.0) / noise()));
}

#[test]
fn radio_half_duplex_starting_to_send_abandons_the_reception_silently() {
    // B locked onto A; B starts to send at 100 us: "a node that starts to transmit abandons
    // its reception" (ns-3 RECEPTION_ABORTED_BY_TX), with no PHY-RXEND error.
    let mut m = radio([0.0, 0.0, -50.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (b, _) = begin(&mut m, frame(FrameKind::Ack, B, C, ACK_BYTES), us(100));
    assert_eq!(m.cca(B), SENDING);
    let t = *m.transmission(a);
    assert_eq!((t.dst_outcome, t.interfered), (Outcome::Collision, true));
    m.end_tx(b, us(100 + ACK_US));
    m.end_tx(a, us(DATA_US));
    assert_eq!(m.take_reception(B, a, us(DATA_US)), None);
}

#[test]
fn radio_half_duplex_a_frame_arriving_while_sending_is_not_received() {
    let mut m = radio([0.0, 0.0, -50.0], None, false);
    let (b, _) = begin(&mut m, frame(FrameKind::Ack, B, C, ACK_BYTES), us(0));
    let (a, _) = begin(&mut m, data(A, B), us(10));
    assert_eq!(m.cca(B), SENDING);
    let t = *m.transmission(a);
    assert_eq!((t.dst_outcome, t.interfered), (Outcome::Collision, true));
    m.end_tx(b, us(ACK_US));
    m.end_tx(a, us(10 + DATA_US));
    assert_eq!(m.take_reception(B, a, us(10 + DATA_US)), None);
}

#[test]
fn radio_release_tells_the_listeners_that_surely_sense_the_responder_busy() {
    // No fading, all static: C and D hear B at -70 dBm >= -82 at every mode, so they surely
    // sense its ACK and are told busy; B (the responder) and A (last) are told idle.
    let mut m = radio([0.0, 0.0, 0.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    let (_, idle) = end(&mut m, a, us(DATA_US), Some(B));
    assert_eq!(idle, vec![(B, IDLE), (C, RESPONSE_FOLLOWS), (D, RESPONSE_FOLLOWS), (A, IDLE)]);
    assert_eq!((m.cca(C), m.cca(D)), (IDLE, IDLE));
}

#[test]
fn radio_release_with_fading_tells_every_listener_that_sensed_the_frame() {
    // Rayleigh fading: sensing the response is "not sure, and they are told": the nodes told
    // are those that turned busy, in order, the transmitter last. 30 dBm from A.
    let mut m = radio([30.0, 0.0, 0.0], None, true);
    let (a, ev) = begin(&mut m, data(A, B), us(0));
    let (_, idle) = end(&mut m, a, us(DATA_US), Some(B));
    let mut turned: Vec<NodeId> =
        ev.iter().filter_map(|e| if let RadioEvent::Busy(j) = e { Some(*j) } else { None }).collect();
    turned.rotate_left(1); // the transmitter's own Busy came first; it is told last
    assert_eq!(idle.iter().map(|&(j, _)| j).collect::<Vec<_>>(), turned);
    assert!(idle.len() >= 2);
}

#[test]
fn radio_ampdu_subframes_survive_by_the_sinr_of_the_chunks_they_overlap() {
    // A 2000-byte A-MPDU of two 1000-byte subframes from A (-70 dBm, SNR 24 dB): PSDU from
    // 20 us; subframe 2 starts (16 + 8000) / 6 = 1336 us into it, at 1356 us. C at -60 dBm
    // from 1400 us: subframe 1 [20, 1356) is clean and survives, subframe 2 at SINR -10 dB
    // fails. The PPDU's outcome is its PHY header's only (clean): Ok. Duration:
    // ceil((16 + 16 000 + 6) / 24) = 668 symbols, 20 + 2672 = 2692 us.
    let mut m = radio([0.0, 10.0, -50.0], None, false);
    let f = Frame { subframes: 2, ..frame(FrameKind::Data, A, B, 2 * DATA_BYTES) };
    assert_eq!(f.txv.duration(f.bytes), Dur::from_us(2692));
    let (a, _) = begin(&mut m, f, us(0));
    let (c, _) = begin(&mut m, data(C, n(3_000)), us(1400));
    m.end_tx(a, us(2692));
    assert_eq!(m.take_reception(B, a, us(2692)), Some(Outcome::Ok));
    assert!(m.mpdu_survives(B, &f, us(0), (0, DATA_BYTES), DATA_BYTES));
    assert!(!m.mpdu_survives(B, &f, us(0), (DATA_BYTES, 2 * DATA_BYTES), DATA_BYTES));
    m.release(a, us(2692), None, |_, _| {});
    end(&mut m, c, us(1400 + DATA_US), None);
}

#[test]
fn radio_meters_and_release_count_the_sensed_span() {
    // A sends [0, 1360) us at -70 dBm at B: B busy 1360 us; A transmitting 1360 us.
    let mut m = radio([0.0, 0.0, 0.0], None, false);
    let (a, _) = begin(&mut m, data(A, B), us(0));
    assert_eq!(m.busy_ns_now(B, us(500)), 500_000);
    end(&mut m, a, us(DATA_US), None);
    assert_eq!(m.busy_ns_now(B, us(9000)), DATA_US * 1000);
    assert_eq!(m.tx_ns_now(A, us(9000)), DATA_US * 1000);
    // The slot is reused, as under the range model.
    let (again, _) = begin(&mut m, data(A, B), us(2000));
    assert_eq!(again, a);
}

// ---------------------------------------------------------------------------------------------
// The interface: each model through the same calls, in the order `world/wifi.rs` makes them
// (`begin`, `receiver_count`/`receiver` with `take_reception`, `mpdu_survives`, `release`).
// Both worlds put A at 0 and B at 10 m (C at 20 m when there is one) on the x axis: the range
// model with rx 40 m and cs 50 m, no errors; the radio model with every node at 0 dBm and the
// radio section above: L(10 m) = 70 dB, so A arrives at B at -70 dBm, SNR 23.97 dB; C at 20 m
// gets A at 0 - 79.03 dBm, sensed (>= -82 dBm) and detected (SNR 14.9 dB >= 4 dB). At 6 Mbit/s
// both SNRs give a success of exactly 1.0 in double precision for these frames (NIST, the PHY
// header and 1000 bytes at 24 dB, 100 bytes at 14.9 dB), so no draw decides them.

/// The two channel sections of the section's comment: the range model's, the radio model's.
fn channels() -> [Value; 2] {
    let radio = json!({
        "path_loss": {"kind": "log-distance", "exponent": 3.0, "reference_distance_m": 1.0,
                      "reference_loss_db": 40.0},
        "tx_power_dbm": 0.0, "noise_figure_db": 7.0, "rx_sensitivity_dbm": -101.0,
        "cca_threshold_dbm": -82.0, "error_model": "nist",
        "preamble_detection": {"snr_db": 4.0, "min_rssi_dbm": -82.0},
    });
    [json!({"rx_range_m": 40.0, "cs_range_m": 50.0, "error": no_error()}), json!({"radio": radio})]
}

/// The specs of the range and the radio world of the section's comment, nodes at `xs` on the
/// x axis.
fn both_specs(xs: &[f64]) -> [WorldSpec; 2] {
    let names = ["a", "b", "c"];
    let nodes: Vec<_> = xs.iter().enumerate().map(|(i, &x)| (names[i], [x, 0.0, 0.0], Some(0.0))).collect();
    channels().map(|c| spec(c, &nodes))
}

/// The range and the radio world of the section's comment, nodes at `xs` on the x axis.
fn both(xs: &[f64]) -> [Medium; 2] {
    both_specs(xs).map(|s| build(&s))
}

/// The addressee's outcome as `World::on_tx_end` reads it: its `take_reception` if it was
/// locked onto the frame, else the transmission's `dst_outcome`.
fn dst_outcome(m: &Medium, id: TxId, dst: NodeId, received: &[(NodeId, Outcome)]) -> Outcome {
    received.iter().find(|&&(j, _)| j == dst).map_or(m.transmission(id).dst_outcome, |&(_, o)| o)
}

#[test]
fn interface_a_lone_frame_busies_locks_is_received_and_idles_alike_under_either_model() {
    for mut m in both(&[0.0, 10.0]) {
        let radio = m.is_radio();
        let (a, ev) = begin(&mut m, data(A, B), us(0));
        assert_eq!(ev, vec![busy(A), busy(B)], "radio {radio}");
        assert_eq!((m.cca(A), m.cca(B)), (SENDING, RECEIVING));
        assert_eq!(m.transmission(a).dst_outcome, Outcome::Ok);
        assert_eq!((m.receiver_count(a, A), m.receiver(a, A, 0)), (1, B));
        // A node not locked onto the frame (here its own transmitter) has no reception.
        assert_eq!(m.take_reception(A, a, us(DATA_US)), None);
        let (rx, idle) = end(&mut m, a, us(DATA_US), None);
        assert_eq!((rx, idle), (vec![(B, Outcome::Ok)], vec![(B, IDLE), (A, IDLE)]), "radio {radio}");
        assert_eq!(m.busy_ns_now(B, us(5_000)), DATA_US * 1000);
        // The slot is freed by release and reused by the next frame.
        let (again, _) = begin(&mut m, data(B, A), us(2_000));
        assert_eq!(again, a);
    }
}

#[test]
fn interface_an_ampdu_is_received_whole_then_decided_subframe_by_subframe_under_either_model() {
    // Two 1000-byte subframes, 2692 us (radio_ampdu_subframes_... above): take_reception
    // decides the PPDU (its PHY header under the radio model), mpdu_survives each subframe;
    // with no errors (range) or at 24 dB (radio) every one survives.
    for mut m in both(&[0.0, 10.0]) {
        let f = Frame { subframes: 2, ..frame(FrameKind::Data, A, B, 2 * DATA_BYTES) };
        let (a, _) = begin(&mut m, f, us(0));
        m.end_tx(a, us(2692));
        assert_eq!(m.take_reception(B, a, us(2692)), Some(Outcome::Ok), "radio {}", m.is_radio());
        for span in [(0, DATA_BYTES), (DATA_BYTES, 2 * DATA_BYTES)] {
            assert!(m.mpdu_survives(B, &f, us(0), span, DATA_BYTES));
        }
        let mut idle = Vec::new();
        m.release(a, us(2692), None, |j, cca| idle.push((j, cca)));
        assert_eq!(idle, vec![(B, IDLE), (A, IDLE)]);
    }
}

#[test]
fn interface_a_receiver_that_starts_to_send_loses_the_frame_as_a_collision_under_either_model() {
    // B starts its own frame 500 us into A's: the range model keeps B's lock, corrupted, and
    // take_reception says Collision; the radio model abandons it at once (ns-3
    // RECEPTION_ABORTED_BY_TX), so B takes no reception and the transmission says Collision.
    // Either way the addressee's outcome, as the world reads it, is a collision.
    for mut m in both(&[0.0, 10.0]) {
        let radio = m.is_radio();
        let (a, _) = begin(&mut m, data(A, B), us(0));
        let (b, ev) = begin(&mut m, frame(FrameKind::Ack, B, C, ACK_BYTES), us(500));
        assert_eq!(ev, vec![busy(B)], "radio {radio}"); // A sends: busy already
        let (rx, _) = end(&mut m, a, us(DATA_US), None);
        assert_eq!(dst_outcome(&m, a, B, &rx), Outcome::Collision, "radio {radio}");
        // A was sending when B's frame began: it took no reception of it either.
        let (rx, _) = end(&mut m, b, us(500 + ACK_US), None);
        assert_eq!(rx, vec![], "radio {radio}");
    }
}

#[test]
fn interface_a_third_node_in_range_receives_a_group_frame_under_either_model() {
    // A broadcast beacon from A reaches B (10 m) and C (20 m): within 40 m (range), and at
    // -70 and -79.03 dBm (radio), each received with success 1.0 (the section's comment).
    for mut m in both(&[0.0, 10.0, 20.0]) {
        let radio = m.is_radio();
        let (a, ev) = begin(&mut m, frame(FrameKind::Beacon, A, NodeId::BROADCAST, 100), us(0));
        assert_eq!(ev, vec![busy(A), busy(B), busy(C)], "radio {radio}");
        let (rx, idle) = end(&mut m, a, us(BEACON_US), None);
        assert_eq!(rx, vec![(B, Outcome::Ok), (C, Outcome::Ok)], "radio {radio}");
        assert_eq!(idle, vec![(B, IDLE), (C, IDLE), (A, IDLE)]);
    }
}

#[test]
fn interface_the_routes_read_the_reach_the_medium_was_built_with() {
    // What `net::routing` asks (Medium::reach) is what the medium decodes and senses by
    // (can_decode, senses), and the same tables Python's connectivity builds from the channel
    // section alone (Reach::build, `net::routing::section_reach`). Under the radio model the
    // decode test is the mean link's (`decodes`). At 45 m: beyond rx 40 m but within cs 50 m
    // (range); L = 40 + 30 log10 45 = 89.6 dB, -89.6 dBm, below preamble detection's -82 dBm
    // (radio). At 60 m: 93.3 dB, neither.
    for xs in [[0.0, 10.0, 60.0], [0.0, 45.0, 60.0]] {
        for s in both_specs(&xs) {
            let m = build(&s);
            let radio = m.is_radio();
            assert_eq!(m.reach(), &super::Reach::build(&s.channel, Standard::A, &s.nodes));
            for i in [A, B, C] {
                for j in [A, B, C] {
                    assert_eq!(m.reach().decodes(i.idx(), j.idx()), m.can_decode(i, j));
                    assert_eq!(m.reach().senses(i.idx(), j.idx()), m.senses(i, j));
                    if let (Some(r), true) = (&s.channel.radio, i != j) {
                        let mean = super::decodes(r, Standard::A, &s.nodes, i.idx(), j.idx());
                        assert_eq!(m.can_decode(i, j), mean);
                    }
                }
            }
            assert!(!m.can_decode(A, A), "a node does not decode itself");
            assert!(!m.can_decode(A, C) && !m.senses(A, C), "60 m");
            assert_eq!(m.can_decode(A, B), xs[1] == 10.0, "radio {radio}");
            assert_eq!(m.senses(A, B), xs[1] == 10.0 || !radio, "radio {radio}");
        }
    }
}
