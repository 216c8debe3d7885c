//! CLAP state-machine tests: the rate law against hand-computed 802.11b timings, the
//! receiver's aggregate NACKs on scripted arrivals, the sender's loss rules on scripted
//! feedbacks, and a closed loop (sender -> lossy pipe -> receiver -> lossy pipe -> sender)
//! like tcp/tests.rs's Pipe. Every number says where it comes from.

use super::rate::{LinkReport, RateConfig, RateController};
use super::{ClapParams, ClapReceiver, ClapSegment, ClapSender, Feedback, MAX_NACK_RANGES};
use crate::engine::{Scheduler, Timer};
use crate::phy::{Preamble, Standard};
use crate::time::{Dur, SimTime};

const MSS: u32 = 1000;
/// A full segment's IP packet: 1000 B payload + 20 IP + 20 CLAP (as paper 001's 1040 B).
const SEG_IP: u32 = 1040;

fn ms(v: u64) -> SimTime {
    SimTime(v * 1_000_000)
}

/// 802.11b, long preamble, 1040-byte packets: paper 001's setting.
fn cfg_11b() -> RateConfig {
    RateConfig::new(Standard::B, Preamble::Long, false, SEG_IP)
}

fn controller(data_bps: u64) -> RateController {
    RateController::new(cfg_11b(), data_bps, 1_000_000).expect("802.11b rates")
}

fn report(data_bps: u64, service_ns: u64, samples: u32, queue: u32) -> LinkReport {
    LinkReport {
        data_rate_bps: data_bps,
        basic_rate_bps: 1_000_000,
        service_time_ns: service_ns,
        service_samples: samples,
        queue_frames: queue,
        queue_limit_frames: 50,
    }
}

// ---- Rate controller ----

/// One station alone at 11 Mbit/s, hand computed (802.11-2020 Table 16-4 timings):
/// DIFS 50 us (SIFS 10 + 2 x 20 us slots), mean backoff 31 / 2 x 20 = 310 us, data PPDU
/// 192 us PLCP + ceil(1076 B x 8 / 11) = 783 us (MPDU = 1040 + 8 LLC/SNAP + 24 header + 4 FCS),
/// SIFS 10 us, ACK 192 + 112 = 304 us at 1 Mbit/s: 1649 us per 8320-bit IP packet,
/// 8320 / 1649 us = 5 045 482 bit/s (paper 001 Table 1 has the same terms, short preamble).
const CAP_11: u64 = 5_045_482;
/// 5.5 Mbit/s: data PPDU 192 + ceil(8608 / 5.5) = 192 + 1566 us; 2432 us per packet.
const CAP_5_5: u64 = 3_421_052;
/// 2 Mbit/s: data PPDU 192 + 4304 us; 5170 us per packet.
const CAP_2: u64 = 1_609_284;

#[test]
fn rate_starts_at_the_analytic_one_station_capacity() {
    let c = controller(11_000_000);
    assert_eq!(cfg_11b().analytic_service_time(11_000_000, 1_000_000), Some(Dur::from_us(1649)));
    assert_eq!(c.capacity_bps(), CAP_11);
    assert_eq!(c.rate_bps(), CAP_11, "no measurement yet: the analytic rate");
    assert!(RateController::new(cfg_11b(), 54_000_000, 1_000_000).is_none(), "not an 802.11b rate");
}

#[test]
fn rate_switches_reseed_at_the_new_analytic_capacity_at_once() {
    let mut c = controller(11_000_000);
    // A measurement first (2 ms per frame -> 8320 bits / 2 ms = 4 160 000 bit/s).
    c.on_report(&report(11_000_000, 2_000_000, 10, 1), false);
    assert_eq!(c.rate_bps(), 4_160_000);
    // 11 -> 5.5 -> 2 Mbit/s: the MAC's EWMA restarts (0 samples); the rate jumps at once.
    for (bps, cap, reseeds) in [(5_500_000, CAP_5_5, 1), (2_000_000, CAP_2, 2)] {
        assert_eq!(c.on_report(&report(bps, 2_000_000, 0, 1), false), cap);
        assert_eq!((c.capacity_bps(), c.reseeds), (cap, reseeds));
    }
    // Fewer than 4 samples at the new rate: the analytic rate still rules.
    assert_eq!(c.on_report(&report(2_000_000, 9_000_000, 3, 1), false), CAP_2);
    // Back up to 11 Mbit/s: up at once too.
    assert_eq!(c.on_report(&report(11_000_000, 0, 0, 1), false), CAP_11);
}

#[test]
fn rate_follows_the_measured_service_rate() {
    let mut c = controller(11_000_000);
    // Queue at or under the 2-frame target: R = S = 8320 bits / service time.
    assert_eq!(c.on_report(&report(11_000_000, 2_000_000, 4, 2), false), 4_160_000);
    assert_eq!(c.measured_bps(), Some(4_160_000));
    // 4 ms per frame (contention with others): 2 080 000 bit/s.
    assert_eq!(c.on_report(&report(11_000_000, 4_000_000, 20, 1), false), 2_080_000);
    // Empty queue and data waiting: 10 % faster than S (4 160 000 x 1.1).
    assert_eq!(c.on_report(&report(11_000_000, 2_000_000, 20, 0), false), 4_576_000);
    // Empty queue because the sender had nothing: no speed-up.
    assert_eq!(c.on_report(&report(11_000_000, 2_000_000, 20, 0), true), 4_160_000);
}

#[test]
fn a_growing_mac_queue_slows_the_rate() {
    let mut c = controller(11_000_000);
    // S = 4 160 000; 10 % less per frame above the 2-frame target, at most 50 %.
    let mut last = u64::MAX;
    for (q, want) in [(3, 3_744_000), (5, 2_912_000), (7, 2_080_000), (12, 2_080_000)] {
        let r = c.on_report(&report(11_000_000, 2_000_000, 20, q), false);
        assert_eq!(r, want, "queue {q}");
        assert!(r <= last);
        last = r;
    }
    // A full queue (50 of 50): halve.
    assert_eq!(c.on_report(&report(11_000_000, 2_000_000, 20, 50), false), 2_080_000);
}

#[test]
fn rate_stays_within_its_bounds() {
    let mut c = controller(11_000_000);
    let (lo, hi) = c.bounds_bps();
    // C / 64 and 1.25 C.
    assert_eq!((lo, hi), (CAP_11 / 64, 6_306_852));
    // 1 s per frame would be 8320 bit/s: held at the floor.
    assert_eq!(c.on_report(&report(11_000_000, 1_000_000_000, 20, 1), false), 78_835);
    // 100 us per frame (impossible at 11 Mbit/s) would be 83.2 Mbit/s: held at the ceiling.
    assert_eq!(c.on_report(&report(11_000_000, 100_000, 20, 0), false), hi);
    for q in 0..60 {
        for service_us in [10, 500, 1649, 5000, 100_000] {
            let r = c.on_report(&report(11_000_000, service_us * 1000, 20, q), q % 2 == 0);
            assert!((lo..=hi).contains(&r), "q {q} service {service_us} us: {r}");
        }
    }
}

// ---- Receiver ----

fn params() -> ClapParams {
    ClapParams { mss_bytes: MSS, ..ClapParams::default() }
}

fn seg(seq: u32, total: u32, sent_at: SimTime) -> ClapSegment {
    ClapSegment { seq, total, len: MSS, sent_at, retransmit: false }
}

#[test]
fn one_feedback_aggregates_every_hole() {
    let mut r = ClapReceiver::new(params());
    // Segments 0..10 sent 1 ms apart, 3, 4 and 7 lost; each arrives 5 ms after it was sent.
    for i in [0, 1, 2, 5, 6, 8, 9] {
        let (fresh, fb) = r.on_data(&seg(i, 20, ms(u64::from(i))), ms(u64::from(i) + 5));
        assert_eq!((fresh, fb), (u64::from(MSS), None));
    }
    // The interval starts at the first arrival (5 ms): the feedback is due at 105 ms.
    assert_eq!(r.poll_at(), Some(ms(105)));
    assert_eq!(r.on_timer(ms(104)), None, "not yet due");
    let fb = r.on_timer(ms(105)).expect("due");
    assert_eq!((fb.cum, fb.high_end, fb.nack_complete_to), (3, 10, 10));
    assert_eq!(fb.nack_ranges(), &[(3, 5), (7, 8)], "[3,4] and [7] as half-open ranges");
    // Echo: segment 9 (sent at 9 ms, the newest) arrived at 14 ms, held 91 ms.
    assert_eq!((fb.echo_sent_at, fb.echo_hold), (Some(ms(9)), Dur::from_ms(91)));
    // 7 packets x 1040 B x 8 in 100 ms = 582 400 bit/s.
    assert_eq!(fb.arrival_rate_bps, 582_400);
    assert_eq!(fb.ip_bytes(), 20 + 32 + 2 * 8);
    assert!(!fb.complete);
    assert_eq!(r.poll_at(), Some(ms(205)));
}

#[test]
fn holes_stay_listed_until_filled() {
    let mut r = ClapReceiver::new(params());
    for i in [0, 1, 2, 5, 6, 8, 9] {
        r.on_data(&seg(i, 20, ms(0)), ms(1));
    }
    let first = r.on_timer(ms(101)).unwrap();
    assert_eq!(first.nack_ranges(), &[(3, 5), (7, 8)]);
    // That feedback is lost; nothing arrives: the next one says the same.
    let second = r.on_timer(ms(201)).unwrap();
    assert_eq!(second.nack_ranges(), first.nack_ranges());
    assert_eq!(second.serial, first.serial + 1);
    assert_eq!(second.arrival_rate_bps, 0);
    // 3 and 7 arrive: 3 extends the cumulative point, 7's hole disappears, 4 stays.
    r.on_data(&seg(3, 20, ms(150)), ms(210));
    r.on_data(&seg(7, 20, ms(151)), ms(211));
    let third = r.on_timer(ms(301)).unwrap();
    assert_eq!((third.cum, third.high_end), (4, 10));
    assert_eq!(third.nack_ranges(), &[(4, 5)]);
    // A duplicate changes nothing.
    assert_eq!(r.on_data(&seg(3, 20, ms(152)), ms(212)).0, 0);
    assert_eq!(r.stats.duplicates, 1);
}

#[test]
fn more_holes_than_the_limit_lists_the_lowest_and_says_where_it_stops() {
    // Even segments 0..=38 arrive: 19 one-segment holes 1, 3, ..., 37 below high end 39.
    let mut r = ClapReceiver::new(params());
    for i in (0..=38).step_by(2) {
        r.on_data(&seg(i, 100, ms(0)), ms(1));
    }
    let fb = r.on_timer(ms(101)).unwrap();
    assert_eq!(usize::from(fb.nack_n), MAX_NACK_RANGES);
    let want: Vec<(u32, u32)> = (0..16).map(|k| (2 * k + 1, 2 * k + 2)).collect();
    assert_eq!(fb.nack_ranges(), &want[..], "the 16 lowest holes");
    // Holes 33, 35, 37 are not listed: the list is complete only below 33.
    assert_eq!((fb.nack_complete_to, fb.high_end), (33, 39));
    assert_eq!(fb.ip_bytes(), 20 + 32 + 16 * 8);
    assert_eq!(r.stats.truncated_feedbacks, 1);
    // A smaller configured limit: 4 ranges, complete below 9.
    let mut r = ClapReceiver::new(ClapParams { max_nack_ranges: 4, ..params() });
    for i in (0..=38).step_by(2) {
        r.on_data(&seg(i, 100, ms(0)), ms(1));
    }
    let fb = r.on_timer(ms(101)).unwrap();
    assert_eq!(fb.nack_ranges(), &[(1, 2), (3, 4), (5, 6), (7, 8)]);
    assert_eq!(fb.nack_complete_to, 9);
}

#[test]
fn the_last_segment_brings_one_final_feedback() {
    let mut r = ClapReceiver::new(params());
    for i in [0, 1, 3] {
        assert_eq!(r.on_data(&seg(i, 4, ms(0)), ms(1)).1, None);
    }
    let (fresh, fb) = r.on_data(&seg(2, 4, ms(2)), ms(3));
    let fb = fb.expect("final feedback at once");
    assert_eq!(fresh, u64::from(MSS));
    assert!(fb.complete && fb.nack_n == 0);
    assert_eq!((fb.cum, fb.high_end), (4, 4));
    assert_eq!((r.poll_at(), r.completed_at), (None, Some(ms(3))), "no periodic feedback after");
    // A duplicate after completion means the sender missed the final feedback: repeat it,
    // but at most once per interval (100 ms).
    assert_eq!(r.on_data(&seg(0, 4, ms(50)), ms(51)).1, None, "48 ms after the last one");
    let again = r.on_data(&seg(0, 4, ms(102)), ms(103)).1.expect("100 ms later");
    assert!(again.complete && again.serial == fb.serial + 1);
    assert_eq!(r.stats.fresh_bytes, 4 * u64::from(MSS));
}

#[test]
fn the_bitmap_slides_over_long_transfers() {
    // 1000 segments in order but 700, which arrives last: the cumulative point crosses many
    // 64-segment words, the hole stays exact.
    let mut r = ClapReceiver::new(params());
    for i in (0..1000).filter(|&i| i != 700) {
        r.on_data(&seg(i, 1000, ms(0)), ms(1));
    }
    let fb = r.on_timer(ms(101)).unwrap();
    assert_eq!((fb.cum, fb.high_end), (700, 1000));
    assert_eq!(fb.nack_ranges(), &[(700, 701)]);
    assert!(r.on_data(&seg(700, 1000, ms(2)), ms(3)).1.unwrap().complete);
}

// ---- Sender on scripted feedback ----

/// A sender pacing 1040-byte packets every 2 ms: a measured service time of 2 ms
/// (8320 bits / 2 ms = 4 160 000 bit/s) with the queue at its target.
fn sender(file_segments: u32) -> ClapSender {
    let mut rate = controller(11_000_000);
    rate.on_report(&report(11_000_000, 2_000_000, 20, 2), false);
    assert_eq!(rate.rate_bps(), 4_160_000);
    ClapSender::new(params(), rate, u64::from(file_segments) * u64::from(MSS))
}

/// Run the sender's timer whenever it is due, up to `until`; returns (time, seq, rtx) sent.
fn drive(s: &mut ClapSender, until: SimTime) -> Vec<(SimTime, u32, bool)> {
    let mut out = Vec::new();
    let mut sent = Vec::new();
    while let Some(t) = s.poll_at().filter(|t| *t <= until) {
        s.on_timer(t, &mut out);
        sent.extend(out.drain(..).map(|g| (t, g.seq, g.retransmit)));
    }
    sent
}

fn feedback(
    serial: u32,
    cum: u32,
    high_end: u32,
    nacks: &[(u32, u32)],
    echo: SimTime,
    hold: Dur,
) -> Feedback {
    let mut fb = Feedback {
        serial,
        cum,
        high_end,
        nack_complete_to: high_end,
        echo_sent_at: Some(echo),
        echo_hold: hold,
        ..Feedback::default()
    };
    for (i, r) in nacks.iter().enumerate() {
        fb.nacks[i] = *r;
    }
    fb.nack_n = nacks.len() as u8;
    fb
}

#[test]
fn nacked_segments_go_before_new_data() {
    let mut s = sender(40);
    let mut out = Vec::new();
    s.start(ms(0), &mut out);
    // Segment k leaves at 2k ms: 0..=19 by 38 ms.
    let first = drive(&mut s, ms(38));
    assert_eq!(first.len() + out.len(), 20);
    assert_eq!(first.last().unwrap(), &(ms(38), 19, false));
    out.clear();
    // At 40 ms a feedback NACKs 3, 4 and 7; it echoes segment 19 (sent at 38 ms) held 1 ms:
    // RTT 40 - 38 - 1 = 1 ms. 3, 4, 7 were sent before 38 ms: overtaken, lost.
    s.on_feedback(&feedback(1, 3, 20, &[(3, 5), (7, 8)], ms(38), Dur::from_ms(1)), ms(40), &mut out);
    assert_eq!(s.srtt(), Some(Dur::from_ms(1)));
    assert_eq!(out, vec![ClapSegment { seq: 3, total: 40, len: MSS, sent_at: ms(40), retransmit: true }]);
    let next = drive(&mut s, ms(46));
    assert_eq!(next, vec![(ms(42), 4, true), (ms(44), 7, true), (ms(46), 20, false)]);
    assert_eq!(s.cum(), 3, "0..3 confirmed and freed");
}

#[test]
fn a_hole_nacked_again_too_soon_is_not_resent() {
    let mut s = sender(10);
    let mut out = Vec::new();
    s.start(ms(0), &mut out);
    drive(&mut s, ms(18)); // segments 0..=9 at 0, 2, ..., 18 ms
    out.clear();
    // 40 ms: 3 is missing; echo segment 9 (18 ms) held 2 ms: RTT 20 ms; 3 is re-sent at once.
    s.on_feedback(&feedback(1, 3, 10, &[(3, 4)], ms(18), Dur::from_ms(2)), ms(40), &mut out);
    assert_eq!(out.drain(..).map(|g| g.seq).collect::<Vec<_>>(), vec![3]);
    // 100 ms: 3 still missing, nothing newer than 18 ms arrived (echo held 62 ms: RTT 20 ms).
    // The retransmission left at 40 ms: younger than srtt + interval = 120 ms and not
    // overtaken by anything that arrived: suppressed.
    s.on_feedback(&feedback(2, 3, 10, &[(3, 4)], ms(18), Dur::from_ms(62)), ms(100), &mut out);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(s.stats.suppressed, 1);
    assert!(drive(&mut s, ms(150)).is_empty());
    // From 40 + 120 = 160 ms on the retransmission counts as lost: the 200 ms NACK re-sends it.
    assert_eq!(s.srtt(), Some(Dur::from_ms(20)));
    s.on_feedback(&feedback(3, 3, 10, &[(3, 4)], ms(18), Dur::from_ms(162)), ms(200), &mut out);
    assert_eq!(out.len(), 1);
    assert!(out[0].seq == 3 && out[0].retransmit && out[0].sent_at == ms(200));
    assert_eq!(s.stats.retransmissions, 2, "once after each of the first and third NACKs");
}

#[test]
fn an_overtaken_retransmission_is_resent_at_the_next_feedback() {
    let mut s = sender(30);
    let mut out = Vec::new();
    s.start(ms(0), &mut out);
    drive(&mut s, ms(38)); // 0..=19
    out.clear();
    s.on_feedback(&feedback(1, 3, 20, &[(3, 4)], ms(38), Dur::ZERO), ms(40), &mut out);
    assert_eq!(out.drain(..).map(|g| g.seq).collect::<Vec<_>>(), vec![3]); // 3 again at 40 ms
    drive(&mut s, ms(44)); // new 20 at 42 ms, 21 at 44 ms
                           // 60 ms: 3 still missing but segment 21, sent at 44 ms after the retransmission (40 ms),
                           // has arrived: on a FIFO path the retransmission is lost (RFC 8985 RACK), well before
                           // srtt + interval.
    s.on_feedback(&feedback(2, 3, 22, &[(3, 4)], ms(44), Dur::ZERO), ms(60), &mut out);
    assert_eq!(out.len(), 1);
    assert!(out[0].seq == 3 && out[0].retransmit);
    assert_eq!(s.stats.suppressed, 0);
}

#[test]
fn tail_losses_are_recovered_and_completion_reported() {
    let mut s = sender(10);
    let mut out = Vec::new();
    s.start(ms(0), &mut out);
    drive(&mut s, ms(18));
    out.clear();
    // 8 and 9 (sent at 16 and 18 ms) are lost: the receiver's high end stays 8, no NACK.
    // 40 ms: echo segment 7 (14 ms) held 2 ms: RTT 24 ms, guard 124 ms; 8 and 9 are younger.
    s.on_feedback(&feedback(1, 8, 8, &[], ms(14), Dur::from_ms(2)), ms(40), &mut out);
    assert!(out.is_empty());
    // 140 ms (heartbeat): RTT 140 - 14 - 102 = 24 ms. 8 was sent 124 ms ago: lost. 9 (122 ms
    // ago) is not yet.
    s.on_feedback(&feedback(2, 8, 8, &[], ms(14), Dur::from_ms(102)), ms(140), &mut out);
    assert_eq!(out.drain(..).map(|g| (g.seq, g.retransmit)).collect::<Vec<_>>(), vec![(8, true)]);
    assert!(drive(&mut s, ms(239)).is_empty());
    // 240 ms: 8's retransmission (140 ms) is in flight, 9 is lost.
    s.on_feedback(&feedback(3, 8, 8, &[], ms(14), Dur::from_ms(202)), ms(240), &mut out);
    assert_eq!(out.drain(..).map(|g| g.seq).collect::<Vec<_>>(), vec![9]);
    assert_eq!(s.stats.tail_losses, 2);
    assert!(!s.is_complete());
    // The final feedback confirms everything.
    let fin = Feedback { serial: 4, cum: 10, high_end: 10, complete: true, ..Feedback::default() };
    s.on_feedback(&fin, ms(270), &mut out);
    assert_eq!((s.is_complete(), s.completed_at, s.poll_at()), (true, Some(ms(270)), None));
    // Bytes sent = the file + what was retransmitted: 10 000 + 2 x 1000.
    assert_eq!(s.stats.bytes_sent, 12_000);
    assert_eq!(s.stats.bytes_sent, 10 * u64::from(MSS) + s.stats.retransmitted_bytes);
}

#[test]
fn without_feedback_the_sender_probes_with_backoff() {
    let mut s = sender(10);
    let mut out = Vec::new();
    s.start(ms(0), &mut out);
    drive(&mut s, ms(18));
    out.clear();
    // No feedback ever: initial RTT 100 ms + 3 intervals = 400 ms after the start the lowest
    // unconfirmed segment is re-sent, then after 800 ms, then 1600 ms (doubling).
    assert_eq!(s.poll_at(), Some(ms(400)));
    let probes = drive(&mut s, ms(3000));
    assert_eq!(probes, vec![(ms(400), 0, true), (ms(1200), 0, true), (ms(2800), 0, true)]);
    assert_eq!(s.stats.probes, 3);
}

#[test]
fn a_lost_final_feedback_is_repeated_on_the_probe() {
    let p = params();
    let mut s = sender(3);
    let mut r = ClapReceiver::new(p);
    let mut out = Vec::new();
    s.start(ms(0), &mut out);
    out.extend(drive(&mut s, ms(4)).iter().map(|t| seg(t.1, 3, t.0)));
    let mut last = None;
    for g in out.drain(..) {
        last = r.on_data(&g, g.sent_at + Dur::from_ms(5)).1;
    }
    assert!(last.unwrap().complete, "the final feedback (lost on its way)");
    // The sender probes at 400 ms with segment 0; the receiver answers with the final again.
    let probe = drive(&mut s, ms(400));
    assert_eq!(probe, vec![(ms(400), 0, true)]);
    let again = r.on_data(&seg(0, 3, ms(400)), ms(405)).1.expect("final feedback repeated");
    s.on_feedback(&again, ms(410), &mut out);
    assert!(s.is_complete() && out.is_empty());
}

// ---- Closed loop ----

#[derive(Clone, Copy, Debug)]
enum Ev {
    ToReceiver(ClapSegment),
    ToSender(Feedback),
    SenderTimer(u32),
    ReceiverTimer(u32),
}

/// Sender and receiver joined by a FIFO pipe with a fixed one-way delay, except for the data
/// transmissions and feedbacks a test drops.
struct Pipe {
    snd: ClapSender,
    rcv: ClapReceiver,
    delay: Dur,
    sched: Scheduler<Ev>,
    st: Timer,
    rt: Timer,
    /// (segment, transmission number from 1) pairs that are lost.
    drop_data: Vec<(u32, u32)>,
    /// Serial numbers of feedbacks that are lost.
    drop_feedback: Vec<u32>,
    sends: Vec<u32>,
    /// (time, segment, retransmission) of every data transmission.
    sent: Vec<(SimTime, u32, bool)>,
    feedbacks: Vec<Feedback>,
    delivered: u64,
    out: Vec<ClapSegment>,
}

impl Pipe {
    fn new(file_bytes: u64, one_way_ms: u64, drop_data: &[(u32, u32)], drop_feedback: &[u32]) -> Pipe {
        let p = params();
        let snd = ClapSender::new(p, controller(11_000_000), file_bytes);
        let n = snd.total_segments() as usize;
        Pipe {
            snd,
            rcv: ClapReceiver::new(p),
            delay: Dur::from_ms(one_way_ms),
            sched: Scheduler::new(),
            st: Timer::default(),
            rt: Timer::default(),
            drop_data: drop_data.to_vec(),
            drop_feedback: drop_feedback.to_vec(),
            sends: vec![0; n],
            sent: Vec::new(),
            feedbacks: Vec::new(),
            delivered: 0,
            out: Vec::new(),
        }
    }

    /// Re-arm a timer at the component's `poll_at`, if it changed.
    fn rearm(sched: &mut Scheduler<Ev>, t: &mut Timer, at: Option<SimTime>, ev: fn(u32) -> Ev) {
        if t.deadline() == at {
            return;
        }
        match at {
            None => t.cancel(),
            Some(at) => {
                let g = t.arm(at);
                sched.at(at, ev(g));
            }
        }
    }

    fn flush(&mut self, now: SimTime) {
        for g in self.out.drain(..) {
            let n = &mut self.sends[g.seq as usize];
            *n += 1;
            self.sent.push((now, g.seq, g.retransmit));
            if !self.drop_data.contains(&(g.seq, *n)) {
                self.sched.after(self.delay, Ev::ToReceiver(g));
            }
        }
    }

    fn feedback(&mut self, fb: Feedback) {
        self.feedbacks.push(fb);
        if !self.drop_feedback.contains(&fb.serial) {
            self.sched.after(self.delay, Ev::ToSender(fb));
        }
    }

    fn run(&mut self, until: SimTime) {
        self.snd.start(SimTime::ZERO, &mut self.out);
        self.flush(SimTime::ZERO);
        Self::rearm(&mut self.sched, &mut self.st, self.snd.poll_at(), Ev::SenderTimer);
        while let Some(ev) = self.sched.pop_until(until) {
            let now = self.sched.now();
            match ev {
                Ev::ToReceiver(g) => {
                    let (fresh, fb) = self.rcv.on_data(&g, now);
                    self.delivered += fresh;
                    if let Some(fb) = fb {
                        self.feedback(fb);
                    }
                }
                Ev::ToSender(fb) => self.snd.on_feedback(&fb, now, &mut self.out),
                Ev::SenderTimer(gen) => {
                    if self.st.fire(gen) {
                        self.snd.on_timer(now, &mut self.out);
                    }
                }
                Ev::ReceiverTimer(gen) => {
                    if self.rt.fire(gen) {
                        if let Some(fb) = self.rcv.on_timer(now) {
                            self.feedback(fb);
                        }
                    }
                }
            }
            self.flush(now);
            Self::rearm(&mut self.sched, &mut self.st, self.snd.poll_at(), Ev::SenderTimer);
            Self::rearm(&mut self.sched, &mut self.rt, self.rcv.poll_at(), Ev::ReceiverTimer);
        }
    }
}

#[test]
fn closed_loop_transfers_a_one_megabyte_file() {
    // 1 MiB = 1 048 576 bytes: 1049 segments, the last one 576 bytes. Lost: the first
    // transmissions of 3, 4, 7 (one feedback's two ranges), 30 alternate segments 200..259
    // (more holes than one feedback lists), 500 and the last segment 1048 (tail); the
    // retransmission of 500 too. Feedbacks 2, 3 and 5 are lost.
    let mut drops: Vec<(u32, u32)> = vec![(3, 1), (4, 1), (7, 1), (500, 1), (500, 2), (1048, 1)];
    drops.extend((200..260).step_by(2).map(|i| (i, 1)));
    let file = 1 << 20;
    let mut p = Pipe::new(file, 5, &drops, &[2, 3, 5]);
    p.run(SimTime(20_000_000_000));
    assert_eq!(p.snd.total_segments(), 1049);
    assert!(p.rcv.is_complete() && p.snd.is_complete());
    assert_eq!(p.delivered, file, "every byte once");
    // Exactly one retransmission per lost transmission: no spurious ones on a FIFO pipe.
    assert_eq!(
        p.snd.stats.retransmissions,
        drops.len() as u64,
        "{:?}",
        p.sent.iter().filter(|t| t.2).collect::<Vec<_>>()
    );
    assert_eq!(p.snd.stats.bytes_sent, file + p.snd.stats.retransmitted_bytes);
    // The analytic rate (5 045 482 bit/s, one 1040 B packet per 1649 us) paces 1049 packets in
    // about 1.73 s; recovery adds little. Feedback: one per 100 ms, about 20 in all.
    let done = p.snd.completed_at.unwrap();
    assert!(done > ms(1700) && done < ms(2500), "{done}");
    let fbs = p.feedbacks.len() as u64;
    assert!(
        fbs * 40 < p.snd.stats.segments_sent,
        "{fbs} feedbacks for {} segments",
        p.snd.stats.segments_sent
    );
    assert!(p.feedbacks.iter().any(|f| f.nack_complete_to < f.high_end), "a truncated NACK list");
    // Echo minus hold time measures the pipe exactly: 2 x 5 ms.
    assert_eq!(p.snd.srtt(), Some(Dur::from_ms(10)));
}
