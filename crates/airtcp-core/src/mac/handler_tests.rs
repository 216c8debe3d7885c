//! The MAC's handlers driven alone, without a medium or a world: the access arithmetic
//! (10.3.4) and the exchange state transitions (10.3.2, 10.3.4.4), each test named after the
//! state and the event it covers. Durations are hand computed for 802.11a at 54/6 Mbit/s:
//! SIFS 16 us, slot 9 us, DIFS 34 us, ACK at 6 Mbit/s 16 + 4 + 6 symbols x 4 = 44 us
//! (Clause 17: 14 x 8 + 22 = 134 bits / 24 per symbol -> 6 symbols).

use super::backoff::CountRule;
use super::event::MacEvent;
use super::frame::{Frame, FrameKind, ACK_BYTES};
use super::retry::RetryLimits;
use super::{AcParams, Cca, Exchange, Hit, Mac, MacInd, Wifi, WifiConfig, AC_COUNT};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::{NodeId, PacketId};
use crate::phy::{PhyTiming, Preamble, Standard, TxVector};
use crate::rng::{Purpose, Stream};
use crate::time::{Dur, SimTime};

const BE: usize = 1;
const IDLE: Cca = Cca { busy: false, transmitting: false, receiving: false };
const BUSY: Cca = Cca { busy: true, transmitting: false, receiving: false };

fn us(x: u64) -> SimTime {
    SimTime::ZERO + Dur::from_us(x)
}

/// Two DCF nodes on 802.11a 54/6 Mbit/s, no backoff pending.
fn wifi() -> Wifi {
    let timing = PhyTiming::of(Standard::A, false);
    let data = TxVector::new(Standard::A.mode(54_000).unwrap(), Preamble::Long);
    let control = TxVector::new(Standard::A.mode(6_000).unwrap(), Preamble::Long);
    let cfg = WifiConfig::new(Standard::A, timing, data, control, false);
    let macs = (0..2)
        .map(|i| {
            let rng = Stream::derive(1, i, Purpose::Backoff);
            let mut m = Mac::new([AcParams::dcf(&timing); AC_COUNT], CountRule::Dcf, false, 2, cfg.rate, rng);
            for t in &mut m.txops {
                (t.backoff, t.backoff_pending, t.drawn_slots) = (0, false, 0);
            }
            m
        })
        .collect();
    Wifi::new(cfg, macs)
}

const A: NodeId = NodeId(0);
const B: NodeId = NodeId(1);

/// Node A queues one 1528-byte IP packet for B at `now` on an idle medium and wins access.
fn a_sends_data(w: &mut Wifi, s: &mut Scheduler<Event>, now: SimTime) -> Frame {
    assert!(w.enqueue(A, B, PacketId(7), 1528, BE, IDLE, s, now));
    let Some(Event::Grant { node, ac, gen }) = s.pop_until(us(1_000_000)) else { panic!("no grant") };
    assert_eq!((node, usize::from(ac)), (A, BE));
    assert!(w.grant(A, BE, gen, IDLE));
    w.start_exchange(A, BE, s.now()).expect("a frame")
}

#[test]
fn idle_enqueue_is_granted_after_difs_with_no_backoff() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_data(&mut w, &mut s, us(10));
    // Idle since 0: the countdown starts at DIFS = 34 us, zero slots (10.3.4.2).
    assert_eq!(s.now(), us(34));
    assert_eq!((frame.kind, frame.dst, frame.retry), (FrameKind::Data, B, false));
    assert_eq!(frame.bytes, 1528 + 8 + 24 + 4); // LLC/SNAP, header, FCS
    assert_eq!(frame.nav, Dur::from_us(16 + 44)); // SIFS + ACK (10.3.2.5)
    assert_eq!(w.macs[0].exchange, Exchange::TxData { ac: BE as u8 });
}

#[test]
fn busy_enqueue_draws_a_backoff_and_arms_no_grant() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    assert!(w.enqueue(A, B, PacketId(1), 100, BE, BUSY, &mut s, us(5)));
    let t = &w.macs[0].txops[BE];
    assert!(t.backoff_pending && t.backoff <= 15 && t.drawn_slots == t.backoff);
    assert_eq!(s.pending(), 0);
}

#[test]
fn under_ns2s_rule_an_idle_enqueue_still_backs_off_in_0_to_cw_minus_1() {
    // ns-2's Mac802_11: DIFS and `Random::random() % cw_` slots even on an idle medium.
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.macs[0].use_ns2_backoff();
    assert!(w.enqueue(A, B, PacketId(1), 100, BE, IDLE, &mut s, us(10)));
    let t = &w.macs[0].txops[BE];
    assert!(t.backoff_pending && t.drawn_slots == t.backoff);
    let slots = u64::from(t.backoff);
    let Some(Event::Grant { .. }) = s.pop_until(us(1_000_000)) else { panic!("no grant") };
    assert_eq!(s.now(), us(10 + 34 + 9 * slots)); // from the arrival: DIFS + the drawn slots
                                                  // A post-backoff counted out on the idle medium is no backoff running: B's frame at 1 ms
                                                  // defers DIFS and a fresh backoff from its arrival (standard: at once).
    let b = &mut w.macs[1];
    b.use_ns2_backoff();
    (b.counting, b.txops[BE].backoff_pending, b.txops[BE].backoff) = (true, true, 0);
    assert!(w.enqueue(B, A, PacketId(2), 100, BE, IDLE, &mut s, us(1000)));
    let k = u64::from(w.macs[1].txops[BE].backoff);
    let Some(Event::Grant { node, .. }) = s.pop_until(us(1_000_000)) else { panic!("no grant") };
    assert_eq!((node, s.now()), (B, us(1000 + 34 + 9 * k)));
    // Many draws: every one in [0, CW - 1] = [0, 14], and both ends reached.
    let mut seen = [false; 16];
    for _ in 0..2000 {
        w.macs[1].use_ns2_backoff();
        w.macs[1].draw_backoff(BE);
        seen[w.macs[1].txops[BE].backoff as usize] = true;
    }
    assert!(seen[..15].iter().all(|&x| x) && !seen[15], "{seen:?}");
}

#[test]
fn full_queue_enqueue_is_refused_and_counted() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.queue_limit = 1;
    assert!(w.enqueue(A, B, PacketId(1), 100, BE, BUSY, &mut s, us(5)));
    assert!(!w.enqueue(A, B, PacketId(2), 100, BE, BUSY, &mut s, us(6)));
    assert_eq!(w.macs[0].counters.drops_queue, 1);
    assert!(!w.has_room(A, BE));
}

#[test]
fn counting_down_freeze_keeps_the_slots_not_yet_counted() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    assert!(w.enqueue(A, B, PacketId(1), 100, BE, BUSY, &mut s, us(0)));
    w.macs[0].txops[BE].backoff = 5;
    w.medium_idle(A, IDLE, &mut s, us(100)); // countdown from 100 + 34 = 134 us
    assert_eq!(w.macs[0].txops[BE].grant.deadline(), Some(us(134 + 5 * 9)));
    // Busy at 134 + 2 slots + 4 us: two whole slots counted (DCF, 10.3.4.3), three left.
    w.freeze(A, us(134 + 18 + 4));
    assert_eq!(w.macs[0].txops[BE].backoff, 3);
    assert_eq!(w.macs[0].txops[BE].grant.deadline(), None);
}

#[test]
fn wait_ack_ack_received_succeeds_and_hands_up_acked_room_and_tx_done() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.subscribe(A, super::event::TX_DONE);
    let frame = a_sends_data(&mut w, &mut s, us(0));
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.own_tx_end(A, &frame, &mut s, end);
    assert_eq!(w.macs[0].exchange, Exchange::WaitAck { ac: BE as u8, extended: false });
    let ack = Frame { kind: FrameKind::Ack, src: B, dst: A, bytes: ACK_BYTES, packet: None, ..frame };
    w.rx_ok(A, &ack, &mut s, end + Dur::from_us(16 + 44));
    assert_eq!(w.macs[0].exchange, Exchange::None);
    // Queued at 0, granted at DIFS 34 us, 256 us of data (1564 bytes at 54 Mbit/s:
    // ceil(12534/216) = 59 symbols), SIFS 16 + ACK 44: the service time is 350 us.
    let done = MacEvent::TxDone {
        node: A,
        peer: B,
        ac: BE as u8,
        acked: true,
        retries: 0,
        mode: frame.txv.mode,
        service_ns: 350_000,
    };
    assert_eq!(
        w.ind,
        vec![MacInd::Acked { node: A, packet: PacketId(7) }, MacInd::Room { node: A }, MacInd::Event(done)]
    );
    assert_eq!((w.macs[0].counters.successes, w.macs[0].txops[BE].cw), (1, 15));
    let link = w.macs[0].peers[1].link;
    assert_eq!((link.attempts, link.acked, link.given_up, link.fail_avg.read()), (1, 1, 0, 0));
    assert!(w.macs[0].txops[BE].queue.is_empty() && w.macs[0].txops[BE].backoff_pending);
    // post-backoff
}

#[test]
fn wait_ack_timeout_retries_with_a_doubled_window_and_the_retry_bit() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_data(&mut w, &mut s, us(0));
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.own_tx_end(A, &frame, &mut s, end);
    let Some(Event::Timeout { node, gen }) = s.pop_until(us(1_000_000)) else { panic!("no timeout") };
    // 10.3.2.11: SIFS + slot + the response's PHY header (6 Mbit/s: 20 us) after the end.
    assert_eq!((node, s.now()), (A, end + Dur::from_us(16 + 9 + 20)));
    assert!(w.timeout(A, gen, IDLE));
    let failed = w.fail(A, s.now()).expect("waiting");
    assert_eq!((failed.gave_up, w.macs[0].txops[BE].src, w.macs[0].txops[BE].cw), (false, 1, 31));
    assert!(w.ind.is_empty());
    assert!(w.data_frame(A, BE).unwrap().retry); // 9.2.4.1.4: a retransmission
}

#[test]
fn wait_ack_timeout_during_a_reception_waits_for_its_end() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_data(&mut w, &mut s, us(0));
    let now = s.now();
    w.own_tx_end(A, &frame, &mut s, now);
    let Some(Event::Timeout { gen, .. }) = s.pop_until(us(1_000_000)) else { panic!() };
    let receiving = Cca { busy: true, transmitting: false, receiving: true };
    assert!(!w.timeout(A, gen, receiving));
    assert!(w.timed_out_during_reception(A));
}

#[test]
fn wait_ack_retry_limit_drops_and_says_whether_the_next_hop_had_it() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.retry.short = 0; // one attempt
    w.subscribe(A, super::event::TX_DONE);
    let frame = a_sends_data(&mut w, &mut s, us(0));
    let now = s.now();
    w.own_tx_end(A, &frame, &mut s, now);
    // B received the frame (only its ACK was lost): the drop is no loss of the flow.
    w.macs[1].peers[0].is_duplicate(BE, frame.seq, false);
    let failed = w.fail(A, now + Dur::from_us(100)).expect("waiting");
    assert!(failed.gave_up);
    let done = MacEvent::TxDone {
        node: A,
        peer: B,
        ac: BE as u8,
        acked: false,
        retries: 0,
        mode: frame.txv.mode,
        service_ns: 34_000 + 100_000, // queued at 0, granted at DIFS, failed 100 us after
    };
    assert_eq!(
        w.ind,
        vec![
            MacInd::Dropped { node: A, packet: PacketId(7), arrived: true },
            MacInd::Room { node: A },
            MacInd::Event(done)
        ]
    );
    assert_eq!((w.macs[0].counters.drops_retry_limit, w.macs[0].txops[BE].cw), (1, 15));
    let link = w.macs[0].peers[1].link;
    assert_eq!((link.attempts, link.acked, link.given_up, link.fail_avg.read()), (1, 0, 1, 100));
}

/// The next grant of A's best-effort queue, past the stale timers of earlier exchanges.
fn next_grant(w: &mut Wifi, s: &mut Scheduler<Event>) -> u32 {
    w.macs[0].txops[BE].backoff = 0;
    let now = s.now();
    w.contend(A, IDLE, s, now);
    loop {
        match s.pop_until(us(1_000_000_000)) {
            Some(Event::Grant { gen, .. }) => return gen,
            Some(_) => continue,
            None => panic!("no grant"),
        }
    }
}

/// A's head frame to B fails `n` times in a row; whether the last failure gave it up.
fn fails_in_a_row(w: &mut Wifi, s: &mut Scheduler<Event>, n: usize) -> bool {
    let mut gave_up = false;
    for _ in 0..n {
        let gen = next_grant(w, s);
        assert!(w.grant(A, BE, gen, IDLE));
        let frame = w.start_exchange(A, BE, s.now()).expect("a frame");
        let now = s.now();
        w.own_tx_end(A, &frame, s, now);
        gave_up = w.fail(A, now).expect("waiting").gave_up;
    }
    gave_up
}

#[test]
fn wait_ack_failure_is_judged_against_the_peer_limit_set_at_run_time() {
    // Channel default: 7 attempts (10.3.4.4); after 2 failures the peer's limit drops to one
    // retry: the 2nd failure has already reached it, so the 3rd gives the frame up.
    let (mut w, mut s) = (wifi(), Scheduler::new());
    assert!(w.enqueue(A, B, PacketId(7), 1528, BE, BUSY, &mut s, us(0)));
    assert!(!fails_in_a_row(&mut w, &mut s, 2));
    w.set_peer_retry_limits(A, B, Some(RetryLimits { short: 1, long: 1 }));
    assert!(fails_in_a_row(&mut w, &mut s, 1));
    assert_eq!(w.macs[0].counters.drops_retry_limit, 1);
    assert!(w.macs[0].txops[BE].queue.is_empty());
}

#[test]
fn wait_ack_failure_of_a_frame_with_its_own_limit_ignores_the_channel_limit() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    assert!(w.enqueue(A, B, PacketId(9), 1528, BE, BUSY, &mut s, us(0)));
    assert!(w.set_frame_retry_limit(A, PacketId(9), Some(2)));
    assert!(!w.set_frame_retry_limit(A, PacketId(10), Some(2)), "no such frame");
    // PacketId(9) is the head: three attempts, then given up.
    let second = super::Queued { packet: PacketId(7), ..w.macs[0].txops[BE].queue[0] };
    w.macs[0].txops[BE].queue.push_back(second);
    w.macs[0].txops[BE].queue[1].retry_limit = None;
    let gave: Vec<bool> = (0..3).map(|_| fails_in_a_row(&mut w, &mut s, 1)).collect();
    assert_eq!(gave, [false, false, true]);
    assert_eq!(w.macs[0].txops[BE].queue.front().map(|q| q.packet), Some(PacketId(7)));
}

#[test]
fn idle_data_received_is_acked_after_sifs_and_delivered_once() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_data(&mut w, &mut s, us(0));
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.rx_ok(B, &frame, &mut s, end);
    assert_eq!(w.ind, vec![MacInd::Delivered { node: B, packet: PacketId(7), from: A }]);
    let Some(Event::Respond { node, gen }) = s.pop_until(us(1_000_000)) else { panic!() };
    assert_eq!((node, s.now()), (B, end + Dur::from_us(16)));
    let ack = w.response_due(B, gen).expect("an ACK");
    assert_eq!((ack.kind, ack.dst, ack.bytes), (FrameKind::Ack, A, ACK_BYTES));
    // The same frame again with the Retry bit (its ACK was lost): ACKed, not delivered.
    w.ind.clear();
    w.rx_ok(B, &Frame { retry: true, ..frame }, &mut s, end + Dur::from_us(500));
    assert!(w.ind.is_empty());
    assert_eq!(w.macs[1].counters.rx_duplicates, 1);
}

#[test]
fn third_party_frame_received_sets_the_nav() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = Frame { dst: NodeId(5), ..a_sends_data(&mut w, &mut s, us(0)) };
    w.rx_ok(B, &frame, &mut s, us(400));
    assert_eq!(w.macs[1].nav.end(), us(400) + Dur::from_us(60)); // 10.3.2.4
    assert!(w.ind.is_empty());
}

#[test]
fn third_party_nav_set_by_an_unanswered_rts_resets_and_the_countdown_starts_at_the_deadline() {
    // A's RTS (to a node absent here) goes at DIFS 34 us and lasts 20 + 4 x ceil((16 + 160 +
    // 6) / 24) = 52 us, to 86 us; B, a third party with a frame queued and 2 slots of backoff
    // left, sets its NAV from it. No reception starts within 2 x SIFS 16 + CTS 44 +
    // aRxPHYStartDelay 20 + 2 x slot 9 = 114 us (10.3.2.4, nav::rts_reset_timeout): B's NAV
    // reads as ended at 200 us, and its countdown starts there: 200 + DIFS 34 + 2 x 9 = 252
    // us, not at the end of the RTS's Duration.
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.rts_threshold_bytes = 500;
    let rts = Frame { dst: NodeId(5), ..a_sends_data(&mut w, &mut s, us(0)) };
    assert_eq!((rts.kind, s.now(), rts.txv.duration(rts.bytes)), (FrameKind::Rts, us(34), Dur::from_us(52)));
    assert!(w.enqueue(B, A, PacketId(9), 100, BE, BUSY, &mut s, us(50)));
    w.macs[1].txops[BE].backoff = 2;
    w.rx_ok(B, &rts, &mut s, us(86));
    assert_eq!(w.macs[1].nav.end(), us(86) + rts.nav);
    w.medium_idle(B, IDLE, &mut s, us(86));
    assert_eq!(w.macs[1].txops[BE].grant.deadline(), Some(us(200 + 34 + 2 * 9)));
}

#[test]
fn third_party_nav_set_by_an_rts_runs_to_its_end_when_the_cts_starts_in_the_window() {
    // As above, but the CTS starts at 86 + SIFS 16 = 102 us and its PHY header ends at 122 us
    // < 200 us: the reset is cancelled (rx_ok finds the PHY-RXSTART from the CTS's end, 146
    // us, and airtime). The CTS's Duration (the RTS's - SIFS - CTS 44 us) ends where the
    // RTS's does: B's countdown starts at the NAV's end, 86 us + the RTS's Duration, + 34 + 18.
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.rts_threshold_bytes = 500;
    let rts = Frame { dst: NodeId(5), ..a_sends_data(&mut w, &mut s, us(0)) };
    assert!(w.enqueue(B, A, PacketId(9), 100, BE, BUSY, &mut s, us(50)));
    w.macs[1].txops[BE].backoff = 2;
    w.rx_ok(B, &rts, &mut s, us(86));
    w.medium_idle(B, IDLE, &mut s, us(86));
    w.freeze(B, us(102)); // the CTS turns B's medium busy
    let cts_nav = rts.nav - Dur::from_us(16 + 44);
    let cts = Frame { kind: FrameKind::Cts, src: NodeId(5), dst: A, bytes: 14, nav: cts_nav, ..rts };
    assert_eq!(cts.txv.duration(cts.bytes), Dur::from_us(44));
    w.rx_ok(B, &cts, &mut s, us(146));
    assert_eq!(w.macs[1].nav.end(), us(86) + rts.nav);
    w.medium_idle(B, IDLE, &mut s, us(146));
    assert_eq!(w.macs[1].txops[BE].grant.deadline(), Some(us(86 + 34 + 2 * 9) + rts.nav));
}

#[test]
fn third_party_nav_set_by_an_rts_runs_to_its_end_when_a_garbled_frame_starts_in_the_window() {
    // A frame B receives garbled but whose PHY header held is a PHY-RXSTART too (`rx_start`,
    // told by the world before `rx_corrupt`): one starting at 150 us, its header done at 150 +
    // 20 = 170 us < 86 + 114 = 200 us, cancels the reset of the RTS's NAV (first test above).
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.rts_threshold_bytes = 500;
    let rts = Frame { dst: NodeId(5), ..a_sends_data(&mut w, &mut s, us(0)) };
    w.rx_ok(B, &rts, &mut s, us(86));
    assert!(w.macs[1].nav.reset_pending());
    assert_eq!(w.macs[1].nav.idle_from(us(100)), us(200));
    w.rx_start(B, rts.txv, us(150));
    w.rx_corrupt(B, &rts, None);
    assert!(!w.macs[1].nav.reset_pending());
    assert_eq!(w.macs[1].nav.idle_from(us(300)), us(86) + rts.nav);
}

#[test]
fn rts_threshold_exceeded_opens_with_rts_and_cts_received_sends_data_after_sifs() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.rts_threshold_bytes = 500;
    let rts = a_sends_data(&mut w, &mut s, us(0));
    assert_eq!((rts.kind, w.macs[0].exchange), (FrameKind::Rts, Exchange::TxRts { ac: BE as u8 }));
    // RTS Duration: 3 SIFS + CTS + DATA + ACK (10.3.2.5).
    let data_dur = w.cfg.data_txv.duration(1564);
    assert_eq!(rts.nav, Dur::from_us(3 * 16 + 44 + 44) + data_dur);
    w.own_tx_end(A, &rts, &mut s, us(100)); // CTS timeout armed for 100 + 45 us
    let cts = Frame { kind: FrameKind::Cts, src: B, dst: A, ..rts };
    w.rx_ok(A, &cts, &mut s, us(130));
    assert_eq!(w.macs[0].exchange, Exchange::CtsReceived { ac: BE as u8 });
    assert_eq!(w.macs[0].timeout.deadline(), None); // the timeout is cancelled
    let (node, gen) = loop {
        match s.pop_until(us(1_000_000)) {
            Some(Event::Respond { node, gen }) => break (node, gen),
            Some(_) => continue, // the cancelled timeout's stale event
            None => panic!("no response"),
        }
    };
    assert_eq!((node, s.now()), (A, us(146)));
    let data = w.response_due(A, gen).expect("the data frame");
    assert_eq!((data.kind, w.macs[0].exchange), (FrameKind::Data, Exchange::TxData { ac: BE as u8 }));
}

#[test]
fn wait_cts_timeout_then_cts_received_sends_data_without_the_retry_bit() {
    // 9.2.4.1.4: Retry is set only on a retransmission of the same data frame; a failed RTS
    // is no transmission of the data frame (ns-3 agrees).
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.rts_threshold_bytes = 500;
    let rts = a_sends_data(&mut w, &mut s, us(0));
    w.own_tx_end(A, &rts, &mut s, us(100));
    let Some(Event::Timeout { gen, .. }) = s.pop_until(us(1_000_000)) else { panic!() };
    assert!(w.timeout(A, gen, IDLE));
    let failed = w.fail(A, s.now()).expect("waiting for CTS");
    assert_eq!((failed.gave_up, w.macs[0].txops[BE].src), (false, 1));
    assert!(!w.data_frame(A, BE).unwrap().retry);
    // Second RTS, answered this time: the data frame goes out for the first time.
    w.macs[0].txops[BE].backoff = 0;
    let cca_now = s.now();
    w.medium_idle(A, IDLE, &mut s, cca_now);
    let (node, gen) = loop {
        match s.pop_until(us(1_000_000)) {
            Some(Event::Grant { node, gen, .. }) => break (node, gen),
            Some(_) => continue,
            None => panic!("no grant"),
        }
    };
    assert!(w.grant(node, BE, gen, IDLE));
    let rts2 = w.start_exchange(A, BE, s.now()).unwrap();
    assert!(!rts2.retry, "an RTS is a control frame: no Retry bit");
    let end = s.now() + Dur::from_us(52);
    w.own_tx_end(A, &rts2, &mut s, end);
    w.rx_ok(A, &Frame { kind: FrameKind::Cts, src: B, dst: A, ..rts2 }, &mut s, end + Dur::from_us(60));
    let data = w.macs[0].response.expect("data after CTS");
    assert!(!data.retry);
    assert_eq!(w.macs[0].counters.retries, 0);
}

#[test]
fn tx_done_is_made_only_for_a_subscribed_node() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_data(&mut w, &mut s, us(0));
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.own_tx_end(A, &frame, &mut s, end);
    let ack = Frame { kind: FrameKind::Ack, src: B, dst: A, bytes: ACK_BYTES, packet: None, ..frame };
    w.rx_ok(A, &ack, &mut s, end + Dur::from_us(16 + 44));
    assert_eq!(w.ind, vec![MacInd::Acked { node: A, packet: PacketId(7) }, MacInd::Room { node: A }]);
    w.ind.clear();
    w.rx_corrupt(B, &frame, Some(Hit::Payload));
    assert!(w.ind.is_empty());
    w.subscribe(B, super::event::CORRUPT_RX);
    w.rx_corrupt(B, &frame, Some(Hit::Payload));
    assert_eq!(w.ind, vec![MacInd::Event(MacEvent::CorruptRx { node: B, payload_only: true })]);
}

#[test]
fn a_corrupt_frame_goes_up_only_under_the_policy_and_only_once_received_copies_are_known() {
    // Paper 004 II: with pass_corrupt, a data frame for B with an intact MAC header goes up
    // marked with the part hit; it is not acknowledged (no response scheduled).
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_data(&mut w, &mut s, us(0));
    w.rx_corrupt(B, &frame, Some(Hit::Payload));
    assert!(w.ind.is_empty(), "the policy is off");
    w.macs[1].pass_corrupt = true;
    w.rx_corrupt(B, &frame, None); // the MAC header failed: nothing can be passed
    w.rx_corrupt(B, &frame, Some(Hit::UpperHeader));
    w.rx_corrupt(B, &frame, Some(Hit::Payload));
    assert_eq!(
        w.ind,
        vec![
            MacInd::DeliveredCorrupt { node: B, packet: PacketId(7), hit: Hit::UpperHeader },
            MacInd::DeliveredCorrupt { node: B, packet: PacketId(7), hit: Hit::Payload },
        ]
    );
    assert!(w.macs[1].response.is_none());
    assert_eq!((w.macs[1].counters.rx_corrupt, w.macs[1].counters.rx_corrupt_up), (4, 2));
    w.ind.clear();
    // A frame for someone else is never passed up.
    w.macs[0].pass_corrupt = true;
    w.rx_corrupt(A, &frame, Some(Hit::Payload));
    assert!(w.ind.is_empty());
    // Once B has the frame intact, a corrupt retransmission of it is a duplicate: not passed.
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.rx_ok(B, &frame, &mut s, end);
    w.ind.clear();
    let retry = Frame { retry: true, ..frame };
    w.rx_corrupt(B, &retry, Some(Hit::Payload));
    assert!(w.ind.is_empty());
}

/// Node A with aggregation (ath9k's budgets) and five 1528-byte packets queued for B, after
/// winning access: the A-MPDU it sends.
fn a_sends_ampdu(w: &mut Wifi, s: &mut Scheduler<Event>) -> Frame {
    use super::ht::{ampdu::AggLimits, blockack::BaRetryLimits};
    w.cfg.ampdu = Some(super::AmpduConfig {
        limits: AggLimits::NS3,
        retry: BaRetryLimits::ATH9K_3_2,
        mofa: false,
        ba_window: crate::mac::ht::blockack::WINDOW,
    });
    for p in 0..5 {
        assert!(w.enqueue(A, B, PacketId(p), 1528, BE, IDLE, s, us(0)));
    }
    let Some(Event::Grant { gen, .. }) = s.pop_until(us(1_000_000)) else { panic!("no grant") };
    assert!(w.grant(A, BE, gen, IDLE));
    w.start_exchange(A, BE, s.now()).expect("a frame")
}

#[test]
fn a_single_mpdu_at_a_non_ht_rate_goes_plain_and_its_ack_settles_it() {
    use super::ht::{ampdu::AggLimits, blockack::BaRetryLimits};
    // Under Block Ack, one queued MPDU at 54 Mbit/s (OFDM, not HT): no A-MPDU (10.12), the
    // MPDU alone (1528 + 36 bytes, no delimiter) with Normal Ack, Duration SIFS + ACK (16 + 44).
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.ampdu = Some(super::AmpduConfig {
        limits: AggLimits::NS3,
        retry: BaRetryLimits::ATH9K_3_2,
        mofa: false,
        ba_window: crate::mac::ht::blockack::WINDOW,
    });
    assert!(w.enqueue(A, B, PacketId(3), 1528, BE, IDLE, &mut s, us(0)));
    let Some(Event::Grant { gen, .. }) = s.pop_until(us(1_000_000)) else { panic!("no grant") };
    assert!(w.grant(A, BE, gen, IDLE));
    let f = w.start_exchange(A, BE, s.now()).expect("a frame");
    assert_eq!((f.kind, f.subframes, f.bytes, f.retry), (FrameKind::Data, 0, 1564, false));
    assert_eq!(f.nav, Dur::from_us(16 + 44));
    let now = s.now() + f.txv.duration(f.bytes);
    w.own_tx_end(A, &f, &mut s, now);
    // B's ACK ends the exchange: the MPDU is settled as acknowledged, one PPDU, one MPDU.
    let ack = Frame { kind: FrameKind::Ack, src: B, dst: A, bytes: ACK_BYTES, packet: None, ..f };
    w.rx_ok(A, &ack, &mut s, now + Dur::from_us(60));
    assert!(w.ind.iter().any(|i| matches!(i, MacInd::Acked { packet: PacketId(3), .. })));
    assert!(w.macs[A.idx()].txops[BE].queue.is_empty());
    let c = w.macs[A.idx()].counters;
    assert_eq!((c.attempts, c.successes, c.mpdus_sent, c.mpdus_acked), (1, 1, 1, 1));
}

#[test]
fn an_ampdu_takes_the_queued_mpdus_in_order() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let f = a_sends_ampdu(&mut w, &mut s);
    // Sequence numbers per (receiver, TID) from 0; 4 + 1564 bytes each, padded but the last.
    assert_eq!((f.kind, f.subframes, f.seq, f.dst), (FrameKind::Data, 5, 0, B));
    assert_eq!(f.bytes, 4 * 1568 + 1568);
    let mut subs = Vec::new();
    w.subframes(A, BE, &mut subs);
    assert_eq!(subs.len(), 5);
    assert_eq!((subs[4].seq, subs[4].packet, subs[4].bytes, subs[4].retry), (4, PacketId(4), 1564, false));
    // Each entry carries its enqueue time and its own software retry count.
    let q = w.macs[A.idx()].txops[BE].queue[4];
    assert_eq!((q.enqueued, q.sw_retries, q.in_flight), (us(0), 0, true));
}

#[test]
fn aggregates_serve_the_peers_in_turn() {
    use super::ht::{ampdu::AggLimits, blockack::BaRetryLimits};
    // Three nodes: A queues 30 frames for B, then 30 for C. A FIFO would send B's first n
    // (as many as 5.484 ms at 54 Mbit/s hold), then B's last 30 - n; the (peer, TID) queues
    // are served in turn: B n, C n, B 30 - n, C 30 - n.
    let timing = PhyTiming::of(Standard::A, false);
    let data = TxVector::new(Standard::A.mode(54_000).unwrap(), Preamble::Long);
    let control = TxVector::new(Standard::A.mode(6_000).unwrap(), Preamble::Long);
    let mut cfg = WifiConfig::new(Standard::A, timing, data, control, true);
    cfg.ampdu = Some(super::AmpduConfig {
        limits: AggLimits::NS3,
        retry: BaRetryLimits::ATH9K_3_2,
        mofa: false,
        ba_window: crate::mac::ht::blockack::WINDOW,
    });
    cfg.queue_limit = 100;
    let macs = (0..3)
        .map(|i| {
            Mac::new(
                [AcParams::dcf(&timing); AC_COUNT],
                CountRule::Dcf,
                true,
                3,
                cfg.rate,
                Stream::derive(1, i, Purpose::Backoff),
            )
        })
        .collect();
    let (mut w, mut s) = (Wifi::new(cfg, macs), Scheduler::new());
    let c = NodeId(2);
    for p in 0..60 {
        assert!(w.enqueue(A, if p < 30 { B } else { c }, PacketId(p), 1528, BE, IDLE, &mut s, us(0)));
    }
    let mut served = Vec::new();
    for _ in 0..4 {
        let f = w.start_ampdu(A, BE, us(0)).expect("an A-MPDU");
        served.push((f.dst, f.subframes));
        w.own_tx_end(A, &f, &mut s, us(0));
        set_bitmap(&mut w, f.dst, u64::MAX >> (64 - u32::from(f.subframes)));
        let ba = Frame { kind: FrameKind::BlockAck, src: f.dst, dst: A, bytes: 32, ..f };
        w.rx_ok(A, &ba, &mut s, us(0));
    }
    let n = served[0].1;
    assert!(n < 30);
    assert_eq!(served, [(B, n), (c, n), (B, 30 - n), (c, 30 - n)]);
}

#[test]
fn the_retry_seam_sets_each_budget_per_peer_and_per_frame() {
    use super::ht::blockack::BaRetryLimits;
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let f = a_sends_ampdu(&mut w, &mut s);
    // Packet 2 may not be retried at all (a frame's own limit: its software retries).
    assert!(w.set_frame_retry_limit(A, PacketId(2), Some(0)));
    let t0 = s.now();
    w.own_tx_end(A, &f, &mut s, t0);
    // A BlockAck from B acknowledging 0, 1 and 3 (not 2, not 4).
    set_bitmap(&mut w, B, 0b01011);
    let ba = Frame { kind: FrameKind::BlockAck, src: B, dst: A, bytes: 32, seq: 0, ..f };
    w.rx_ok(A, &ba, &mut s, t0);
    let inds: Vec<MacInd> = w.ind.drain(..).collect();
    let acked = inds.iter().filter(|i| matches!(i, MacInd::Acked { .. })).count();
    assert_eq!(acked, 3);
    assert!(inds.contains(&MacInd::Dropped { node: A, packet: PacketId(2), arrived: false }));
    assert_eq!(w.macs[A.idx()].txops[BE].queue.len(), 1, "packet 4 waits for its retry");
    assert_eq!(w.macs[A.idx()].txops[BE].queue[0].sw_retries, 1);
    // The peer's own budgets: 2 PPDU attempts. A BlockAckReq (for the drop) goes first.
    w.set_peer_ba_limits(A, B, Some(BaRetryLimits { ppdu_attempts: 2, mpdu_retries: 1 }));
    let now = t0 + Dur::from_ms(1);
    // Data responses at a basic rate of 24 Mbit/s; the BlockAckReq still goes at the lowest.
    let m24 = crate::phy::ModeId::by_name("OfdmRate24Mbps").expect("a mode");
    w.cfg.control_txv = crate::phy::TxVector::new(m24, w.cfg.control_txv.preamble);
    let bar = w.start_exchange(A, BE, now).expect("BAR");
    assert_eq!((bar.kind, bar.seq), (FrameKind::BlockAckReq, 4), "0-3 done: the window starts at 4");
    // A non-data frame: at the lowest rate (mac80211 `rate_control_send_low`), whatever the
    // basic rate the data's responses use.
    assert_eq!(bar.txv.mode, w.cfg.mgmt_txv.mode);
    assert_ne!(w.cfg.control_txv.mode, w.cfg.mgmt_txv.mode, "the test must tell them apart");
    w.own_tx_end(A, &bar, &mut s, now);
    w.rx_ok(A, &Frame { kind: FrameKind::BlockAck, seq: 4, ..ba }, &mut s, now);
    // Packet 4 alone now, twice unanswered: settled without a bitmap, its second software
    // retry exceeds the peer's limit of 1: given up.
    for k in 0..2 {
        let f = w.start_exchange(A, BE, now).expect("the MPDU");
        assert_eq!((f.subframes, f.seq), (0, 4), "alone at 54 Mbit/s (not HT): no A-MPDU");
        w.own_tx_end(A, &f, &mut s, now);
        w.macs[A.idx()].timeout.cancel();
        let failed = w.fail(A, now).expect("failed");
        assert_eq!(failed.gave_up, k == 1);
    }
    assert!(w.ind.iter().any(|i| matches!(i, MacInd::Dropped { packet: PacketId(4), .. })));
    assert!(w.macs[A.idx()].txops[BE].queue.is_empty());
}

/// Node A queues a management frame of 69 bytes for `to` and wins access.
fn a_sends_mgmt(w: &mut Wifi, s: &mut Scheduler<Event>, to: NodeId, acked: bool) -> Frame {
    assert!(w.enqueue_mgmt(A, to, PacketId(9), 69, acked, IDLE, s, us(0)));
    let Some(Event::Grant { ac, gen, .. }) = s.pop_until(us(1_000_000)) else { panic!("no grant") };
    assert!(w.grant(A, usize::from(ac), gen, IDLE));
    w.start_exchange(A, usize::from(ac), s.now()).expect("a frame")
}

#[test]
fn a_group_addressed_action_frame_goes_once_at_the_lowest_rate_and_reaches_every_receiver() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_mgmt(&mut w, &mut s, NodeId::BROADCAST, true);
    // DCF: the one queue (AC_BE's); 6 Mbit/s, the lowest 802.11a rate; Duration 0 (9.2.5.6).
    assert_eq!((frame.kind, frame.ac, frame.bytes), (FrameKind::Action, BE as u8, 69));
    assert_eq!((frame.txv.mode.rate_kbps(), frame.nav), (6_000, Dur::ZERO));
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.own_tx_end(A, &frame, &mut s, end);
    assert_eq!(s.pending(), 0, "no ACK timeout for a group-addressed frame");
    w.rx_ok(B, &frame, &mut s, end);
    w.rx_group(B, &frame);
    assert_eq!(w.ind, vec![MacInd::Delivered { node: B, packet: PacketId(9), from: A }]);
    assert!(w.macs[1].response.is_none(), "no ACK to a group-addressed frame");
    w.ind.clear();
    w.unacked_sent(A, BE, end);
    assert_eq!(w.ind, vec![MacInd::Acked { node: A, packet: PacketId(9) }, MacInd::Room { node: A }]);
    // Management frames count apart from data and teach neither rate control nor the link.
    let c = w.macs[0].counters;
    assert_eq!((c.mgmt_frames, c.attempts, c.successes), (1, 0, 0));
}

#[test]
fn a_unicast_action_frame_is_acked_retried_and_given_up_without_touching_the_link_statistics() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    w.cfg.retry = RetryLimits { short: 1, long: 1 };
    let frame = a_sends_mgmt(&mut w, &mut s, B, true);
    assert_eq!(frame.nav, Dur::from_us(16 + 44)); // SIFS + ACK at 6 Mbit/s
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.own_tx_end(A, &frame, &mut s, end);
    assert!(matches!(w.macs[0].exchange, Exchange::WaitAck { .. }));
    // The receiver acknowledges it like data and hands it up.
    w.rx_ok(B, &frame, &mut s, end);
    assert!(w.macs[1].response.is_some_and(|r| r.kind == FrameKind::Ack));
    assert_eq!(w.ind, vec![MacInd::Delivered { node: B, packet: PacketId(9), from: A }]);
    w.ind.clear();
    // The ACK is lost twice: one retry (short limit 1), then given up.
    assert!(w.fail(A, end).is_some_and(|f| !f.gave_up));
    let retry = w.start_exchange(A, BE, end).expect("the retry");
    assert!(retry.retry);
    w.own_tx_end(A, &retry, &mut s, end);
    assert!(w.fail(A, end).is_some_and(|f| f.gave_up));
    assert!(matches!(
        w.ind[..],
        [MacInd::Dropped { node: A, packet: PacketId(9), .. }, MacInd::Room { node: A }]
    ));
    let link = w.macs[0].peers[1].link;
    assert_eq!(
        (link.attempts, link.given_up, link.fail_avg_3_12.percent, link.last_tx_mode),
        (0, 0, 0, None)
    );
}

#[test]
fn a_close_waits_for_no_ack() {
    let (mut w, mut s) = (wifi(), Scheduler::new());
    let frame = a_sends_mgmt(&mut w, &mut s, B, false);
    assert_eq!((frame.dst, frame.nav), (B, Dur::ZERO));
    let end = s.now() + frame.txv.duration(frame.bytes);
    w.own_tx_end(A, &frame, &mut s, end);
    assert_eq!(s.pending(), 0);
    w.unacked_sent(A, BE, end);
    assert_eq!(w.ind[0], MacInd::Acked { node: A, packet: PacketId(9) });
}

/// The bitmap of the BlockAck `node` sends next (as `respond_block_ack` would set it).
fn set_bitmap(w: &mut Wifi, node: NodeId, bits: u64) {
    if w.block_ack_bitmaps.is_empty() {
        w.block_ack_bitmaps = vec![Default::default(); w.macs.len()];
    }
    w.block_ack_bitmaps[node.idx()] = crate::mac::ht::blockack::Bitmap::from_u64(bits);
}
