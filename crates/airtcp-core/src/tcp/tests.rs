//! Scripted state-machine tests: a sender and a receiver joined by a lossless pipe with a
//! fixed one-way delay, except for the segments a test drops. Every test says which segments
//! are lost and checks the exact transmissions and windows that follow.

use super::cc::{Algorithm, CaState, CwndLimited};
use super::conn::{
    Corruption, CwndCredit, LocalCongestion, LostRetransmit, Prr, QuickAck, Receiver, Recovery, RtoRearm,
    RtoRecovery, Rules, Segment, Sender, TcpParams, TimerCmd, ACK, CE, CWR, ECE, ECT0, FIN, NOT_ECT, SYN,
};
use super::rto::RtoConfig;
use crate::engine::{Scheduler, Timer};
use crate::time::{Dur, SimTime};

const MSS: u32 = 1000;

#[derive(Clone, Copy, Debug)]
enum Ev {
    ToReceiver(Segment),
    ToSender(Segment),
    Rto(u32),
    Delack(u32),
    /// The sender's own interface finished sending its head segment.
    LocalTxEnd,
}

/// The sender's own interface: a FIFO of `cap` segments sent one per `tx`.
struct LocalQueue {
    cap: usize,
    tx: Dur,
    queue: std::collections::VecDeque<Segment>,
    busy: bool,
    /// Segments refused because the FIFO was full (each a loss under "loss").
    refused: u64,
}

/// One transmission by the sender: (time, segment index, retransmission?).
type Tx = (SimTime, u64, bool);

struct Pipe {
    snd: Sender,
    rcv: Receiver,
    delay: Dur,
    sched: Scheduler<Ev>,
    rto: Timer,
    delack: Timer,
    /// Data segment indices whose first transmission is lost.
    drop_first: Vec<u64>,
    /// Data segment indices whose first retransmission is lost too.
    drop_first_rtx: Vec<u64>,
    /// The FIN's first transmission is lost (with the last data segment, a lost tail: Linux
    /// sends the FIN on that segment).
    drop_fin: bool,
    sent: Vec<Tx>,
    /// (time, cwnd, ssthresh, state) after every ACK the sender processed.
    windows: Vec<(SimTime, u32, u32, CaState)>,
    delivered: u64,
    /// Every RTT sample the sender took.
    rtts: Vec<Dur>,
    /// The advertised window of every ACK the sender received.
    ack_windows: Vec<u32>,
    out: Vec<Segment>,
    /// The sender's own interface, if the test gives it one (else segments leave at once).
    local: Option<LocalQueue>,
    /// The acknowledgment number of every ACK the sender received, in order.
    acks: Vec<u64>,
    /// Data segment indices whose first transmission a queue CE-marks on the way (if it is
    /// ECN-capable), and every segment the sender sent and every ACK it received, whole.
    ce_first: Vec<u64>,
    segs: Vec<Segment>,
    ack_segs: Vec<Segment>,
}

/// Paper 001's setting: NS-2's default minimum RTO of 1 s.
fn params(recovery: Recovery) -> TcpParams {
    TcpParams {
        mss: MSS,
        recovery,
        rto: RtoConfig { min: Dur::from_ms(1000), ..RtoConfig::default() },
        timestamps: true,
        limited_transmit: true,
        initial_cwnd: 10,
        ack_every: 1,
        delack_timeout: Dur::ZERO,
        rcv_buf: 1 << 30,
        snd_buf: 1 << 30,
        small_queues: false,
        tsq_limit_bytes: super::conn::TSQ_LIMIT_OUTPUT_BYTES,
        tsq_rule: super::conn::TsqRule::Linux319,
        pacing_shift: 10,
        per_ack_growth: false,
        corruption: Corruption::Off,
        cno_once_per_rtt: false,
        rules: Rules::default(),
        ecn: false,
    }
}

/// Segment index of a data sequence number (data starts at 1).
fn index(seq: u64) -> u64 {
    (seq - 1) / u64::from(MSS)
}

impl Pipe {
    fn new(p: TcpParams, bytes: u64, rtt_ms: u64, drop_first: &[u64]) -> Pipe {
        Pipe::with_cc(p, "reno", bytes, rtt_ms, drop_first)
    }

    fn with_cc(p: TcpParams, cc: &str, bytes: u64, rtt_ms: u64, drop_first: &[u64]) -> Pipe {
        Pipe {
            snd: Sender::new(p.clone(), Algorithm::from_name(cc).unwrap(), Some(bytes)),
            rcv: Receiver::new(p),
            delay: Dur::from_ms(rtt_ms / 2),
            sched: Scheduler::new(),
            rto: Timer::default(),
            delack: Timer::default(),
            drop_first: drop_first.to_vec(),
            drop_first_rtx: Vec::new(),
            drop_fin: false,
            sent: Vec::new(),
            windows: Vec::new(),
            delivered: 0,
            rtts: Vec::new(),
            ack_windows: Vec::new(),
            out: Vec::new(),
            local: None,
            acks: Vec::new(),
            ce_first: Vec::new(),
            segs: Vec::new(),
            ack_segs: Vec::new(),
        }
    }

    fn timer(sched: &mut Scheduler<Ev>, t: &mut Timer, cmd: TimerCmd, ev: fn(u32) -> Ev) {
        match cmd {
            TimerCmd::Keep => {}
            TimerCmd::Stop => t.cancel(),
            TimerCmd::Arm(at) => {
                let g = t.arm(at);
                sched.at(at, ev(g));
            }
        }
    }

    /// The sender's timer, on the tick the jiffy clock's timer wheel runs it (as the world
    /// arms it, `RtoConfig::timer_at`).
    fn snd_timer(&mut self, cmd: TimerCmd) {
        let cmd = match cmd {
            TimerCmd::Arm(at) => TimerCmd::Arm(self.snd.p.rto.timer_at(at, self.sched.now())),
            other => other,
        };
        Self::timer(&mut self.sched, &mut self.rto, cmd, Ev::Rto);
    }

    fn flush_sender(&mut self, now: SimTime) {
        let segs = std::mem::take(&mut self.out);
        for (k, &seg) in segs.iter().enumerate() {
            self.segs.push(seg);
            let mut seg = seg;
            if seg.len > 0 && !seg.retransmit && seg.ecn == ECT0 && self.ce_first.contains(&index(seg.seq)) {
                seg.ecn = CE;
            }
            if let Some(l) = &mut self.local {
                if l.queue.len() >= l.cap {
                    // Refused by the sender's own interface: lost, or taken back whole.
                    l.refused += 1;
                    if self.snd.p.rules.local_congestion == LocalCongestion::Cwr {
                        let cmd = self.snd.on_local_drop(&segs[k..], now);
                        self.snd_timer(cmd);
                        break;
                    }
                    continue;
                }
            }
            if seg.flags & FIN != 0 && !seg.retransmit && std::mem::take(&mut self.drop_fin) {
                continue;
            }
            if seg.len > 0 {
                let i = index(seg.seq);
                self.sent.push((now, i, seg.retransmit));
                if !seg.retransmit && self.drop_first.contains(&i) {
                    continue;
                }
                if seg.retransmit && self.drop_first_rtx.contains(&i) {
                    self.drop_first_rtx.retain(|&k| k != i);
                    continue;
                }
            }
            match &mut self.local {
                Some(l) => {
                    l.queue.push_back(seg);
                    if !l.busy {
                        l.busy = true;
                        self.sched.after(l.tx, Ev::LocalTxEnd);
                    }
                }
                None => self.sched.after(self.delay, Ev::ToReceiver(seg)),
            }
        }
    }

    fn run(&mut self, until_s: u64) {
        let mut out = std::mem::take(&mut self.out);
        let cmd = self.snd.start(SimTime::ZERO, &mut out);
        self.out = out;
        self.snd_timer(cmd);
        self.flush_sender(SimTime::ZERO);
        while let Some(ev) = self.sched.pop_until(SimTime(until_s * 1_000_000_000)) {
            let now = self.sched.now();
            let mut out = std::mem::take(&mut self.out);
            match ev {
                Ev::ToReceiver(seg) => {
                    let (cmd, bytes) = self.rcv.on_segment(&seg, now, &mut out);
                    self.delivered += bytes;
                    Self::timer(&mut self.sched, &mut self.delack, cmd, Ev::Delack);
                    for a in out.drain(..) {
                        self.sched.after(self.delay, Ev::ToSender(a));
                    }
                }
                Ev::ToSender(seg) => {
                    self.ack_windows.push(seg.wnd);
                    self.acks.push(seg.ack);
                    self.ack_segs.push(seg);
                    let samples = self.snd.stats.rtt_samples;
                    let cmd = self.snd.on_ack(&seg, now, &mut out);
                    if self.snd.stats.rtt_samples > samples {
                        self.rtts.push(self.snd.last_rtt.unwrap());
                    }
                    self.snd_timer(cmd);
                    let s = &self.snd.s;
                    self.windows.push((now, s.cwnd, s.ssthresh, self.snd.ca));
                }
                Ev::Rto(g) => {
                    if self.rto.fire(g) {
                        let cmd = self.snd.on_rto(now, &mut out);
                        self.snd_timer(cmd);
                    }
                }
                Ev::LocalTxEnd => {
                    let l = self.local.as_mut().expect("a local queue");
                    let seg = l.queue.pop_front().expect("a segment being sent");
                    l.busy = !l.queue.is_empty();
                    if l.busy {
                        self.sched.after(l.tx, Ev::LocalTxEnd);
                    }
                    self.sched.after(self.delay, Ev::ToReceiver(seg));
                }
                Ev::Delack(g) => {
                    if self.delack.fire(g) {
                        self.rcv.on_delack(now, &mut out);
                        for a in out.drain(..) {
                            self.sched.after(self.delay, Ev::ToSender(a));
                        }
                    }
                }
            }
            self.out = out;
            if matches!(ev, Ev::ToSender(_) | Ev::Rto(_)) {
                self.flush_sender(now);
            }
        }
    }

    fn retransmitted(&self) -> Vec<u64> {
        self.sent.iter().filter(|t| t.2).map(|t| t.1).collect()
    }
}

#[test]
fn established_flow_slow_starts_from_ten_segments() {
    // No loss, 100 ms RTT, every segment ACKed: cwnd doubles per RTT from IW 10 (RFC 6928):
    // rounds of 10, 20, 40 segments; 100 segments need 4 rounds after the handshake.
    let mut p = Pipe::new(params(Recovery::NewReno), 100 * u64::from(MSS), 100, &[]);
    p.run(10);
    assert_eq!(p.delivered, 100 * u64::from(MSS));
    assert!(p.retransmitted().is_empty());
    let first_round: Vec<_> = p.sent.iter().filter(|t| t.0 == SimTime(100_000_000)).collect();
    assert_eq!(first_round.len(), 10, "IW 10 after the 1-RTT handshake");
    assert_eq!(p.snd.s.cwnd, 10 + 100 + 1, "slow start: +1 per ACK of new data, the FIN's too");
}

#[test]
fn cwnd_cap_limits_what_is_in_flight() {
    // Control point: a 5-segment cap (paper 003's sender-side wnd_max). Slow start would
    // send 10, 20, 40 ... per RTT; capped, every 100 ms round carries at most 5 segments.
    let mut p = Pipe::new(params(Recovery::NewReno), 60 * u64::from(MSS), 100, &[]);
    p.snd.set_cwnd_cap(Some(5));
    p.run(10);
    assert_eq!(p.delivered, 60 * u64::from(MSS));
    let mut per_round = std::collections::BTreeMap::new();
    for t in &p.sent {
        *per_round.entry(t.0.ns() / 100_000_000).or_insert(0) += 1;
    }
    assert!(per_round.values().all(|&n| n <= 5), "{per_round:?}");
    assert_eq!(p.sent.len(), 60, "no losses, no retransmissions");
}

#[test]
fn advertised_window_override_limits_the_sender() {
    // Control point: the receiver advertises at most 3 segments (paper 003's receiver side).
    let mut p = Pipe::new(params(Recovery::NewReno), 30 * u64::from(MSS), 100, &[]);
    p.rcv.wnd_override = Some(3 * MSS);
    p.run(10);
    assert_eq!(p.delivered, 30 * u64::from(MSS));
    let mut per_round = std::collections::BTreeMap::new();
    for t in &p.sent {
        *per_round.entry(t.0.ns() / 100_000_000).or_insert(0) += 1;
    }
    // The first round goes out on the SYN-ACK's window (already 3 segments), then 3 a round.
    assert!(per_round.values().all(|&n| n <= 3), "{per_round:?}");
}

#[test]
fn corruption_notification_retransmits_without_cutting_the_window() {
    let mut p = Pipe::new(params(Recovery::NewReno), 40 * u64::from(MSS), 100, &[]);
    p.run(0); // only the SYN
    let mut out = Vec::new();
    // Establish and send the first flight by hand.
    let syn_ack = Segment {
        seq: 0,
        ack: 1,
        flags: super::conn::SYN | super::conn::ACK,
        wnd: 1 << 30,
        ..Default::default()
    };
    p.snd.on_ack(&syn_ack, SimTime(100_000_000), &mut out);
    let sent_first = out.iter().filter(|s| s.len > 0).count();
    assert_eq!(sent_first, 10);
    let (cwnd, ssthresh) = (p.snd.s.cwnd, p.snd.s.ssthresh);
    out.clear();
    p.snd.notify_corruption(1 + 3 * u64::from(MSS), SimTime(120_000_000), &mut out);
    assert_eq!(out.len(), 1);
    assert!(out[0].retransmit && out[0].seq == 1 + 3 * u64::from(MSS));
    assert_eq!((p.snd.s.cwnd, p.snd.s.ssthresh), (cwnd, ssthresh), "CNO: no window cut");
    out.clear();
    p.snd.notify_loss(1 + 4 * u64::from(MSS), SimTime(130_000_000), &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(p.snd.s.ssthresh, 5, "a loss notification halves like fast retransmit");
    assert_eq!(p.snd.ca, CaState::Recovery);
}

/// Paper 001 Figs. 4-6: three segments lost in one window (indices 40, 42, 44 of the third
/// round of 40 segments).
const THREE_LOSSES: [u64; 3] = [40, 42, 44];

#[test]
fn newreno_repairs_three_losses_with_partial_acks() {
    let mut p = Pipe::new(params(Recovery::NewReno), 120 * u64::from(MSS), 100, &THREE_LOSSES);
    p.run(20);
    assert_eq!(p.delivered, 120 * u64::from(MSS));
    // RFC 6582: fast retransmit of 40, then one retransmission per partial ACK: 42, 44.
    assert_eq!(p.retransmitted(), vec![40, 42, 44]);
    assert_eq!((p.snd.stats.fast_retransmits, p.snd.stats.timeouts), (1, 0));
}

/// The (cwnd, ssthresh, state) values the sender went through after time `from`, deduplicated.
fn window_path(p: &Pipe, from: SimTime) -> Vec<(u32, u32, CaState)> {
    let mut path: Vec<(u32, u32, CaState)> = Vec::new();
    for w in p.windows.iter().filter(|w| w.0 >= from) {
        if path.last() != Some(&(w.1, w.2, w.3)) {
            path.push((w.1, w.2, w.3));
        }
    }
    path
}

#[test]
fn reno_halves_repeatedly_then_deadlocks_until_the_rto() {
    let mut p = Pipe::new(params(Recovery::Reno), 120 * u64::from(MSS), 100, &THREE_LOSSES);
    p.run(20);
    assert_eq!(p.delivered, 120 * u64::from(MSS));
    // Paper 001 Fig. 4: Reno leaves fast recovery at the first new ACK, re-enters it for the
    // next hole and halves again (cwnd 50 -> ssthresh 25 -> 12); the third hole gets no third
    // duplicate ACK: nothing more can be sent, and only the RTO (1 s minimum) releases it.
    assert_eq!(p.retransmitted(), vec![40, 42, 44]);
    assert_eq!((p.snd.stats.fast_retransmits, p.snd.stats.timeouts), (2, 1));
    let exits: Vec<_> = window_path(&p, SimTime(400_000_000))
        .into_iter()
        .filter(|w| w.2 == CaState::Open && w.0 == w.1)
        .map(|w| w.1)
        .collect();
    assert_eq!(exits, vec![25, 12], "cwnd = ssthresh on each exit from recovery");
    let rto_tx = p.sent.iter().find(|t| t.1 == 44 && t.2).unwrap().0;
    // The last ACK (exit of the second recovery) came at 0.7 s; the RTO fires 1 s later.
    assert_eq!(rto_tx, SimTime(1_700_000_000));
    assert_eq!(p.snd.s.ssthresh, 6, "RFC 5681 (4) after the timeout: 12 / 2");
}

#[test]
fn tahoe_restarts_slow_start_and_resends_what_arrived() {
    let mut p = Pipe::new(params(Recovery::Tahoe), 120 * u64::from(MSS), 100, &THREE_LOSSES);
    p.run(20);
    assert_eq!(p.delivered, 120 * u64::from(MSS));
    // Paper 001 Fig. 6: cwnd to one segment after the fast retransmit, then slow start from
    // the first hole: 40 | 42 43 | 44 45 46 47 48, where 43 and 45-48 had already arrived.
    assert_eq!(p.retransmitted(), vec![40, 42, 43, 44, 45, 46, 47, 48]);
    let duplicates = p.retransmitted().iter().filter(|i| !THREE_LOSSES.contains(i) && **i != 40).count();
    assert_eq!(duplicates, 5);
    assert_eq!((p.snd.stats.fast_retransmits, p.snd.stats.timeouts), (1, 0), "no deadlock");
    assert!(window_path(&p, SimTime(400_000_000)).contains(&(1, 25, CaState::Loss)));
}

#[test]
fn tahoe_and_newreno_finish_before_reno() {
    let finish = |r| {
        let mut p = Pipe::new(params(r), 120 * u64::from(MSS), 100, &THREE_LOSSES);
        p.run(20);
        p.sent.iter().map(|t| t.0).max().unwrap()
    };
    let (tahoe, reno, newreno) = (finish(Recovery::Tahoe), finish(Recovery::Reno), finish(Recovery::NewReno));
    assert!(tahoe < reno && newreno < reno, "{tahoe} {newreno} {reno}");
}

#[test]
fn sack_repairs_all_three_holes_in_one_round_trip() {
    let mut p = Pipe::new(params(Recovery::Sack), 120 * u64::from(MSS), 100, &THREE_LOSSES);
    p.run(20);
    assert_eq!(p.delivered, 120 * u64::from(MSS));
    // RFC 6675: 40 on entry (IsLost once 41, 43, 45 are SACKed), then 42 and 44 as soon as
    // more than two segments are SACKed above each: all in the round that detected the loss.
    let rtx: Vec<_> = p.sent.iter().filter(|t| t.2).copied().collect();
    assert_eq!(rtx.iter().map(|t| t.1).collect::<Vec<_>>(), vec![40, 42, 44]);
    assert!(rtx.iter().all(|t| t.0 == SimTime(400_000_000)), "{rtx:?}");
    assert_eq!((p.snd.stats.fast_retransmits, p.snd.stats.timeouts), (1, 0));
    // NewReno needs one round trip per hole: SACK's last repair goes out two RTTs earlier.
    let mut nr = Pipe::new(params(Recovery::NewReno), 120 * u64::from(MSS), 100, &THREE_LOSSES);
    nr.run(20);
    let last_nr = nr.sent.iter().filter(|t| t.2).map(|t| t.0).max().unwrap();
    assert_eq!(last_nr, SimTime(600_000_000));
}

#[test]
fn sack_resends_a_lost_retransmission_without_waiting_for_the_rto() {
    // Segment 40 is lost, and so is its fast retransmission at 400 ms. New data sent after
    // that retransmission is SACKed one RTT later while 40 is still missing: Linux's
    // tcp_mark_lost_retrans sends 40 again then (500 ms), not at the RTO (1 s min here).
    let mut p = Pipe::new(params(Recovery::Sack), 120 * u64::from(MSS), 100, &[40]);
    p.drop_first_rtx = vec![40];
    p.run(20);
    assert_eq!(p.delivered, 120 * u64::from(MSS));
    let rtx: Vec<_> = p.sent.iter().filter(|t| t.2 && t.1 == 40).map(|t| t.0).collect();
    assert_eq!(rtx, [SimTime(400_000_000), SimTime(500_000_000)]);
    assert_eq!((p.snd.stats.lost_retransmits, p.snd.stats.timeouts), (1, 0));
}

#[test]
fn sack_blocks_describe_what_the_receiver_holds() {
    let mut r = Receiver::new(params(Recovery::Sack));
    let mut out = Vec::new();
    let seg = |i: u64| Segment {
        seq: 1 + i * u64::from(MSS),
        len: MSS,
        flags: super::conn::ACK,
        ..Default::default()
    };
    r.on_segment(&Segment { flags: super::conn::SYN, ..Default::default() }, SimTime::ZERO, &mut out);
    for i in [0, 2, 4, 5, 7] {
        r.on_segment(&seg(i), SimTime::ZERO, &mut out);
    }
    let last = out.last().unwrap();
    let m = u64::from(MSS);
    // ACK 1 (segment 1 missing); the latest block (7) first, then the others, highest first.
    assert_eq!(last.ack, 1 + m);
    assert_eq!(
        &last.sack[..usize::from(last.sack_n)],
        &[(1 + 7 * m, 1 + 8 * m), (1 + 4 * m, 1 + 6 * m), (1 + 2 * m, 1 + 3 * m)]
    );
    assert_eq!(last.ip_bytes(true, true), 40 + 12 + 4 + 24, "TCP/IP + timestamps + 3 SACK blocks");
}

#[test]
fn compressed_sack_sends_three_duplicate_acks_then_one_per_timer() {
    // Linux 6.x __tcp_ack_snd_check with a hole at segment 1 and segments 2-9 arriving at
    // once: the first three duplicate ACKs go (dup_ack_counter), the next five wait for one
    // timer min(1 ms, RTT / 20) = 1 ms at a 100 ms receiver RTT, which sends one ACK whose
    // SACK block holds 2-9 (hand count); without it, 8 duplicate ACKs.
    let m = u64::from(MSS);
    for compress in [true, false] {
        let mut p = params(Recovery::Sack);
        p.rules.sack_compress = compress;
        let mut r = Receiver::new(p);
        let mut out = Vec::new();
        r.on_segment(&Segment { flags: super::conn::SYN, ..Default::default() }, SimTime::ZERO, &mut out);
        r.rcv_rtt = Some(Dur::from_ms(100));
        out.clear();
        let t = SimTime(Dur::from_ms(50).ns());
        let seg =
            |i: u64| Segment { seq: 1 + i * m, len: MSS, flags: super::conn::ACK, ..Default::default() };
        r.on_segment(&seg(0), t, &mut out);
        out.clear(); // the ACK of segment 0, if the parameters send one at once
        let cmds: Vec<TimerCmd> = (2..10).map(|i| r.on_segment(&seg(i), t, &mut out).0).collect();
        let dups = out.iter().filter(|a| a.ack == 1 + m && a.sack_n > 0).count();
        if compress {
            assert_eq!(dups, 3);
            assert_eq!(cmds[3], TimerCmd::Arm(t + Dur::from_ms(1)));
            assert!(cmds[4..].iter().all(|c| *c == TimerCmd::Keep));
            r.on_delack(t + Dur::from_ms(1), &mut out);
            let last = out.last().unwrap();
            assert_eq!((out.len(), last.ack), (4, 1 + m));
            assert_eq!(&last.sack[..usize::from(last.sack_n)], &[(1 + 2 * m, 1 + 10 * m)]);
        } else {
            assert_eq!(dups, 8);
        }
    }
}

#[test]
fn four_sack_blocks_fit_without_timestamps_three_beside_them() {
    // RFC 2018 section 3 and Linux tcp_established_options: (40 - 4) / 8 = 4 blocks alone,
    // (40 - 12 - 4) / 8 = 3 next to the timestamps option. Four holes (segments 1, 3, 6, 8).
    let m = u64::from(MSS);
    for timestamps in [true, false] {
        let mut p = params(Recovery::Sack);
        p.timestamps = timestamps;
        let mut r = Receiver::new(p);
        let mut out = Vec::new();
        r.on_segment(&Segment { flags: super::conn::SYN, ..Default::default() }, SimTime::ZERO, &mut out);
        for i in [0, 2, 4, 5, 7, 9] {
            let seg = Segment { seq: 1 + i * m, len: MSS, flags: super::conn::ACK, ..Default::default() };
            r.on_segment(&seg, SimTime::ZERO, &mut out);
        }
        let last = out.last().unwrap();
        let (latest_first, n) = (
            [(1 + 9 * m, 1 + 10 * m), (1 + 7 * m, 1 + 8 * m), (1 + 4 * m, 1 + 6 * m), (1 + 2 * m, 1 + 3 * m)],
            usize::from(last.sack_n),
        );
        if timestamps {
            assert_eq!(&last.sack[..n], &latest_first[..3]);
            assert_eq!(last.ip_bytes(true, true), 40 + 12 + 4 + 24);
        } else {
            assert_eq!(&last.sack[..n], &latest_first[..]);
            assert_eq!(last.ip_bytes(false, true), 40 + 4 + 32, "the 40 option bytes full");
        }
    }
}

#[test]
fn karns_rule_and_timestamps_give_only_true_rtt_samples() {
    // The first data segment is lost and repaired by fast retransmit. Without timestamps,
    // Karn's rule discards the ambiguous sample of the retransmitted segment (timed from its
    // first transmission it would read 200 ms); with RFC 7323 timestamps the ACK echoes the
    // retransmission's own TSval. Either way every sample equals the pipe's 100 ms RTT.
    for timestamps in [false, true] {
        let mut params = params(Recovery::NewReno);
        params.timestamps = timestamps;
        let mut p = Pipe::new(params, 30 * u64::from(MSS), 100, &[0]);
        p.run(10);
        assert_eq!(p.retransmitted(), vec![0]);
        assert!(p.rtts.len() >= 2, "{timestamps}: {:?}", p.rtts);
        assert!(p.rtts.iter().all(|r| *r == Dur::from_ms(100)), "{timestamps}: {:?}", p.rtts);
        if timestamps {
            assert!(p.rtts.len() > 20, "a sample on every ACK of new data");
        }
    }
}

#[test]
fn send_buffer_bounds_unacknowledged_data() {
    // A 4-segment send buffer: whatever cwnd and the peer allow, at most 4 segments a round.
    let mut p = params(Recovery::NewReno);
    p.snd_buf = 4 * MSS;
    let mut pipe = Pipe::new(p, 40 * u64::from(MSS), 100, &[]);
    pipe.run(10);
    assert_eq!(pipe.delivered, 40 * u64::from(MSS));
    let mut per_round = std::collections::BTreeMap::new();
    for t in &pipe.sent {
        *per_round.entry(t.0.ns() / 100_000_000).or_insert(0) += 1;
    }
    assert!(per_round.values().all(|&n| n <= 4), "{per_round:?}");
    assert_eq!(per_round.len(), 10, "40 segments at 4 per 100 ms round");
}

#[test]
fn out_of_order_data_never_shrinks_the_advertised_window() {
    // A 20-segment receive buffer (paper 001: ns-2 window_ 20) and three losses: every ACK,
    // the duplicate ACKs included, offers the whole buffer (RFC 9293 3.8.6.2.2; RFC 5681 2:
    // a duplicate ACK carries an unchanged window). A shrinking window would also cap the
    // sender at fewer than 20 segments in flight during recovery.
    let p = TcpParams { rcv_buf: 20 * MSS, initial_cwnd: 2, ..params(Recovery::NewReno) };
    let mut pipe = Pipe::new(p, 200 * u64::from(MSS), 20, &[30, 32, 34]);
    pipe.run(20);
    assert_eq!(pipe.delivered, 200 * u64::from(MSS));
    assert!(pipe.ack_windows.len() > 200, "one ACK per segment, duplicates included");
    assert!(pipe.ack_windows.iter().all(|&w| w == 20 * MSS), "{:?}", pipe.ack_windows);
}

/// Paper 004's CDO/CNO (section II-A): a sender and a receiver past the handshake, driven by
/// hand.
mod corruption {
    use super::*;
    use crate::tcp::conn::{OPT_CDO, OPT_CNO};

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    /// Handshake done at 2 ms; returns the pair and the initial window the sender sent.
    fn connected(corruption: Corruption) -> (Sender, Receiver, Vec<Segment>) {
        let p = TcpParams { corruption, ..params(Recovery::NewReno) };
        let (mut snd, mut rcv) =
            (Sender::new(p.clone(), Algorithm::from_name("reno").unwrap(), None), Receiver::new(p));
        let mut out = Vec::new();
        snd.start(at_ms(0), &mut out);
        let syn = out.pop().unwrap();
        rcv.on_segment(&syn, at_ms(1), &mut out);
        let syn_ack = out.pop().unwrap();
        snd.on_ack(&syn_ack, at_ms(2), &mut out);
        let window: Vec<Segment> = out.drain(..).filter(|s| s.len > 0).collect();
        (snd, rcv, window)
    }

    #[test]
    fn data_segments_carry_the_cdo_and_it_is_sized() {
        let (_, _, window) = connected(Corruption::Aggressive);
        assert_eq!(window.len(), 10);
        assert!(window.iter().all(|s| s.opts == OPT_CDO));
        // 40 header bytes + 12 timestamps + 8 CDO (kind 253, length 8, ExID, CRC32c) + MSS.
        assert_eq!(window[0].ip_bytes(true, false), 40 + 12 + 8 + MSS);
        let (_, _, plain) = connected(Corruption::Off);
        assert!(plain.iter().all(|s| s.opts == 0));
        assert_eq!(plain[0].ip_bytes(true, false), 40 + 12 + MSS);
    }

    #[test]
    fn every_corrupt_copy_of_a_missing_segment_gets_one_cno() {
        let (_, mut rcv, window) = connected(Corruption::Aggressive);
        let mut out = Vec::new();
        rcv.on_segment(&window[0], at_ms(3), &mut out);
        out.clear();
        // Segment 1 arrives corrupt twice (two MAC attempts), headers intact: two CNOs, each
        // naming it, acknowledging what arrived (segment 0), echoing its TSval.
        for copy in 0..2 {
            assert!(rcv.on_corrupt(&window[1], at_ms(4 + copy), &mut out));
        }
        assert_eq!(out.len(), 2);
        for cno in &out {
            assert_eq!(
                (cno.opts, cno.cno_seq, cno.ack),
                (OPT_CNO, window[1].seq, window[0].seq + u64::from(MSS))
            );
            assert_eq!(cno.ts_ecr, window[1].ts_val);
            assert_eq!(cno.ip_bytes(true, false), 40 + 12 + 4); // CNO: kind 253, length 4, ExID
        }
        assert_eq!(rcv.stats.cno_sent, 2);
        out.clear();
        // Once it has arrived intact, a further corrupt copy asks for nothing.
        rcv.on_segment(&window[1], at_ms(7), &mut out);
        out.clear();
        assert!(!rcv.on_corrupt(&window[1], at_ms(8), &mut out));
        assert!(out.is_empty());
        assert_eq!(rcv.stats.corrupt_ignored, 1);
        // Nor does a segment held out of order.
        rcv.on_segment(&window[3], at_ms(9), &mut out);
        out.clear();
        assert!(!rcv.on_corrupt(&window[3], at_ms(9), &mut out));
        // Without the options the corrupt segment is dropped: no answer.
        let (_, mut plain, w) = connected(Corruption::Off);
        assert!(!plain.on_corrupt(&w[0], at_ms(3), &mut out));
        assert!(out.is_empty());
    }

    #[test]
    fn once_per_rtt_a_segments_corrupt_copies_get_one_cno_per_rtt() {
        // airtcp's third reading of paper 004: copies of the segment just named, within the
        // receiver's RTT estimate, are ignored; after it, or for another segment, a CNO goes.
        let (_, mut rcv, window) = connected(Corruption::Aggressive);
        rcv.p.cno_once_per_rtt = true;
        let mut out = Vec::new();
        rcv.on_segment(&window[0], at_ms(3), &mut out);
        rcv.rcv_rtt = Some(Dur::from_ms(10)); // the estimate, set by hand
        out.clear();
        assert!(rcv.on_corrupt(&window[1], at_ms(4), &mut out));
        assert!(!rcv.on_corrupt(&window[1], at_ms(5), &mut out), "a copy within the RTT");
        assert!(!rcv.on_corrupt(&window[1], at_ms(13), &mut out), "9 ms later: still within");
        assert!(rcv.on_corrupt(&window[2], at_ms(13), &mut out), "another segment");
        assert!(rcv.on_corrupt(&window[1], at_ms(14), &mut out), "no longer the last named");
        assert!(rcv.on_corrupt(&window[1], at_ms(24), &mut out), "10 ms after its CNO");
        assert_eq!((rcv.stats.cno_sent, rcv.stats.corrupt_ignored), (4, 2));
        assert!(out.iter().all(|c| c.opts == OPT_CNO));
        // Without an estimate every copy is answered.
        let (_, mut fresh, w) = connected(Corruption::Aggressive);
        fresh.p.cno_once_per_rtt = true;
        fresh.rcv_rtt = None;
        assert!(fresh.on_corrupt(&w[1], at_ms(4), &mut out) && fresh.on_corrupt(&w[1], at_ms(5), &mut out));
    }

    #[test]
    fn an_lnmac_notification_is_answered_with_a_cno() {
        // LN-MAC's empty segment with the CDO and sequence number SN_T (paper 004 II-B).
        let (_, mut rcv, window) = connected(Corruption::Aggressive);
        let mut out = Vec::new();
        let note =
            Segment { seq: window[2].seq, flags: crate::tcp::conn::ACK, opts: OPT_CDO, ..Segment::default() };
        let (cmd, bytes) = rcv.on_segment(&note, at_ms(3), &mut out);
        assert_eq!((cmd, bytes, out.len()), (TimerCmd::Stop, 0, 1));
        assert_eq!((out[0].opts, out[0].cno_seq), (OPT_CNO, window[2].seq));
        // A pure ACK without the CDO (the handshake's third segment) is still ignored.
        out.clear();
        let pure = Segment { opts: 0, ..note };
        assert_eq!(rcv.on_segment(&pure, at_ms(4), &mut out), (TimerCmd::Keep, 0));
        assert!(out.is_empty());
    }

    fn cno_for(snd: &Sender, seq: u64) -> Segment {
        Segment {
            seq: 1,
            ack: snd.snd_una,
            flags: crate::tcp::conn::ACK,
            wnd: 1 << 20,
            opts: OPT_CNO,
            cno_seq: seq,
            ..Segment::default()
        }
    }

    #[test]
    fn a_cno_retransmits_at_once_and_leaves_the_window_alone() {
        let (mut snd, _, window) = connected(Corruption::Aggressive);
        let before = (snd.s.cwnd, snd.s.ssthresh, snd.ca, snd.dupacks);
        let mut out = Vec::new();
        for k in 0..2 {
            snd.on_ack(&cno_for(&snd, window[4].seq), at_ms(5 + k), &mut out);
        }
        // Each CNO: exactly one retransmission of the named segment, no new data.
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|s| s.seq == window[4].seq && s.len == MSS && s.retransmit));
        assert_eq!((snd.s.cwnd, snd.s.ssthresh, snd.ca, snd.dupacks), before);
        assert_eq!((snd.stats.cno_received, snd.stats.cno_retransmits), (2, 2));
        assert_eq!(snd.stats.fast_retransmits, 0);
        // A CNO naming what is already acknowledged does nothing.
        out.clear();
        snd.on_ack(&cno_for(&snd, 0), at_ms(8), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn a_cno_acking_new_data_in_recovery_resends_its_segment_once_and_takes_the_window() {
        // Segments 1 and 5 lost: three duplicate ACKs start NewReno recovery (resending 1);
        // then a CNO ACK covers up to 5 (a partial ACK, which resends 5) and names 5: one
        // retransmission of 5, not two; its advertised window is taken.
        let (mut snd, _, w) = connected(Corruption::Aggressive);
        let mut out = Vec::new();
        let ack = |a: u64| Segment {
            seq: 1,
            ack: a,
            flags: crate::tcp::conn::ACK,
            wnd: 1 << 20,
            ..Segment::default()
        };
        snd.on_ack(&ack(w[1].seq), at_ms(20), &mut out);
        for k in 0..3 {
            snd.on_ack(&ack(w[1].seq), at_ms(21 + k), &mut out);
        }
        assert_eq!(snd.ca, CaState::Recovery);
        out.clear();
        let cno = Segment { opts: OPT_CNO, cno_seq: w[5].seq, wnd: 3000, ..ack(w[5].seq) };
        snd.on_ack(&cno, at_ms(30), &mut out);
        let resent = out.iter().filter(|s| s.seq == w[5].seq && s.retransmit).count();
        assert_eq!(resent, 1, "{out:?}");
        assert_eq!(snd.peer_wnd, 3000);
        assert_eq!(snd.stats.cno_retransmits, 0); // the partial ACK resent it
    }

    #[test]
    fn the_conservative_choice_cuts_the_window_as_for_a_loss() {
        let (mut snd, _, window) = connected(Corruption::Conservative);
        let cwnd = snd.s.cwnd;
        let mut out = Vec::new();
        snd.on_ack(&cno_for(&snd, window[4].seq), at_ms(5), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].seq, window[4].seq);
        // Reno's ssthresh: half the flight (10 segments), cwnd = ssthresh, in recovery.
        assert_eq!((snd.s.ssthresh, snd.s.cwnd, snd.ca), (cwnd / 2, cwnd / 2, CaState::Recovery));
        assert_eq!(snd.stats.fast_retransmits, 1); // counted as the window cut it is
    }

    #[test]
    fn a_cno_updates_the_rtt_from_the_echoed_timestamp() {
        let (mut snd, _, window) = connected(Corruption::Aggressive);
        let samples = snd.stats.rtt_samples;
        let mut out = Vec::new();
        // Sent at 2 ms (TSval 2 ms + 1 ns), notified at 30 ms: a 28 ms sample.
        let cno = Segment { ts_ecr: window[4].ts_val, ..cno_for(&snd, window[4].seq) };
        snd.on_ack(&cno, at_ms(30), &mut out);
        assert_eq!(snd.stats.rtt_samples, samples + 1);
        assert_eq!(snd.last_rtt, Some(Dur::from_ms(28)));
    }
}

#[test]
fn the_receiver_estimates_its_rtt_from_the_echoed_timestamps() {
    // Linux tcp_rcv_rtt_measure_ts: a full-sized segment echoing our ACK's TSval gives a round
    // trip; the first sets the estimate, later ones move it by 1/8; a repeated TSecr, a short
    // segment or no timestamp gives nothing.
    let mut rcv = Receiver::new(params(Recovery::NewReno));
    let mut out = Vec::new();
    let at = |ms: u64| SimTime(ms * 1_000_000);
    rcv.on_segment(&Segment { flags: super::conn::SYN, ts_val: 1, ..Segment::default() }, at(0), &mut out);
    let data = |seq: u64, len: u32, ecr_ms: u64| Segment {
        seq,
        len,
        flags: super::conn::ACK,
        ts_val: 5,
        ts_ecr: ecr_ms * 1_000_000 + 1,
        ..Segment::default()
    };
    assert_eq!(rcv.rcv_rtt, None);
    rcv.on_segment(&data(1, MSS, 10), at(50), &mut out); // echoes an ACK sent at 10 ms: 40 ms
    assert_eq!(rcv.rcv_rtt, Some(Dur::from_ms(40)));
    rcv.on_segment(&data(1 + u64::from(MSS), MSS, 10), at(70), &mut out); // same TSecr: no sample
    assert_eq!(rcv.rcv_rtt, Some(Dur::from_ms(40)));
    rcv.on_segment(&data(1 + 2 * u64::from(MSS), MSS, 60), at(140), &mut out); // 80 ms sample
    assert_eq!(rcv.rcv_rtt, Some(Dur::from_ms(45))); // 40 + (80 - 40) / 8
    rcv.on_segment(&data(1 + 3 * u64::from(MSS), 10, 100), at(400), &mut out); // short: none
    assert_eq!(rcv.rcv_rtt, Some(Dur::from_ms(45)));
    let no_ts = Segment { ts_ecr: 0, ..data(1 + 4 * u64::from(MSS), MSS, 0) };
    rcv.on_segment(&no_ts, at(500), &mut out);
    assert_eq!(rcv.rcv_rtt, Some(Dur::from_ms(45)));
}

/// The SYN-ACK a receiver answers the sender's SYN with `rtt_ms` after time zero.
fn syn_ack(snd: &mut Sender, rtt_ms: u64, out: &mut Vec<Segment>) -> TimerCmd {
    let seg = Segment { flags: SYN | ACK, ack: 1, wnd: 1 << 30, ts_val: 1, ts_ecr: 1, ..Default::default() };
    snd.on_ack(&seg, SimTime(rtt_ms * 1_000_000), out)
}

/// A Reno sender with `p`, connected (SYN out, the SYN-ACK at 10 ms); `out` holds what the
/// handshake's ACK released: that ACK and the first window.
fn connected_reno(p: TcpParams, app_bytes: Option<u64>) -> (Sender, Vec<Segment>) {
    let mut snd = Sender::new(p, Algorithm::from_name("reno").unwrap(), app_bytes);
    let mut out = Vec::new();
    snd.start(SimTime::ZERO, &mut out);
    out.clear();
    syn_ack(&mut snd, 10, &mut out);
    (snd, out)
}

/// A duplicate ACK of segment 0 SACKing segments 1 .. k (data starts at 1).
fn sack_dupack(k: u64) -> Segment {
    let mut a = Segment { ack: 1, flags: ACK, wnd: 1 << 30, ..Default::default() };
    a.sack[0] = (1 + u64::from(MSS), 1 + k * u64::from(MSS));
    a.sack_n = 1;
    a
}

#[test]
fn small_queues_hold_new_data_at_two_packets_below_tcp_until_one_is_freed() {
    // Linux 3.12 tcp_write_xmit: send while sk_wmem_alloc <= max(2 truesize, pacing / 1024);
    // at 10 segments per 10 ms (2.9 MB/s pacing, 2.8 KB per ms) the floor of two truesizes
    // rules, so a third packet goes down on top of two and a fourth waits (hand count).
    let p = TcpParams { small_queues: true, ..params(Recovery::Sack) };
    let mut snd = Sender::new(p, Algorithm::from_name("cubic").unwrap(), None);
    let mut out = Vec::new();
    snd.start(SimTime::ZERO, &mut out);
    assert_eq!(snd.tsq_below, 1, "the SYN is charged");
    assert!(!snd.tsq_release(), "nothing was throttled");
    out.clear();
    syn_ack(&mut snd, 10, &mut out);
    let data = out.iter().filter(|s| s.len > 0).count();
    assert_eq!(data, 3, "cwnd allows 10, TSQ 3");
    assert!(snd.tsq_throttled);
    assert!(snd.tsq_release(), "freeing one wakes the throttled sender");
    out.clear();
    let cmd = snd.on_tsq_wake(SimTime(11_000_000), &mut out);
    assert_eq!(out.len(), 1, "one freed, one more sent");
    assert_eq!(out[0].seq, 1 + 3 * u64::from(MSS));
    assert_eq!(cmd, TimerCmd::Keep, "data was in flight: the timer runs on");
    // Without TSQ the window alone limits: all 10.
    let mut plain = Sender::new(params(Recovery::Sack), Algorithm::from_name("cubic").unwrap(), None);
    let mut out = Vec::new();
    plain.start(SimTime::ZERO, &mut out);
    out.clear();
    syn_ack(&mut plain, 10, &mut out);
    assert_eq!(out.iter().filter(|s| s.len > 0).count(), 10);
    assert_eq!(plain.tsq_below, 0);
}

#[test]
fn small_queues_follow_the_pacing_rate_when_it_exceeds_two_packets_per_ms() {
    // SRTT 1 ms, cwnd 10: pacing 2 x 10 x 1000 B / 1 ms = 20 MB/s, 19531 B per 1024th of a
    // second, i.e. 8 truesizes (2304 B): below <= 8 passes, so 9 go down (hand count).
    let (_, out) = tsq_sender_established(1);
    assert_eq!(MSS, 1000);
    assert_eq!(out.iter().filter(|s| s.len > 0).count(), 9);
}

/// A SACK CUBIC sender with TCP Small Queues, its SYN freed below TCP, after a SYN-ACK
/// `rtt_ms` later; and what it sent then.
fn tsq_sender_established(rtt_ms: u64) -> (Sender, Vec<Segment>) {
    let p = TcpParams { small_queues: true, ..params(Recovery::Sack) };
    let mut snd = Sender::new(p, Algorithm::from_name("cubic").unwrap(), None);
    let mut out = Vec::new();
    snd.start(SimTime::ZERO, &mut out);
    snd.tsq_release();
    out.clear();
    syn_ack(&mut snd, rtt_ms, &mut out);
    (snd, out)
}

#[test]
fn small_queues_take_any_cwnd_an_agent_sets() {
    // Found by the core fuzz test (issue 29): an agent's cwnd of 2^32 - 1 segments overflowed
    // the pacing rate's 64 bits. The pacing rate is then far past tcp_limit_output_bytes
    // (131072 B): 56 truesizes of 2304 B below TCP still pass (129024 B), 57 do not
    // (131328 B; hand count).
    let (mut snd, _) = tsq_sender_established(1);
    snd.s.cwnd = u32::MAX;
    snd.tsq_below = 56;
    assert!(snd.tsq_allows());
    snd.tsq_below = 57;
    assert!(!snd.tsq_allows());
    // tcp.limit_output_bytes = 1 MiB (Linux 5.0+): 455 truesizes pass (1048320 B), 456 do not
    // (1050624 B; hand count); = 0: only with nothing below TCP.
    for (limit, last_passing) in [(1u64 << 20, 455), (0, 0)] {
        snd.p.tsq_limit_bytes = limit;
        snd.tsq_below = last_passing;
        assert!(snd.tsq_allows(), "{limit}");
        snd.tsq_below = last_passing + 1;
        assert!(!snd.tsq_allows(), "{limit}");
    }
}

#[test]
fn small_queues_before_3_19_keep_the_sysctl_as_a_floor_or_alone() {
    // Linux 3.12-3.18 tcp_write_xmit: limit = max(tcp_limit_output_bytes, pacing >> 10), and
    // sk_wmem_alloc > limit throttles; 3.6-3.11: sk_wmem_alloc >= tcp_limit_output_bytes.
    // At SRTT 10 ms and cwnd 10 (pacing 2 MB/s, 1953 B per 1024th of a second) the 3.19 rule
    // lets 2 truesizes of 2304 B pass and throttles at 3; with the 128 KiB floor 56 pass
    // (129024 B) and 57 throttle (131328 B); under 3.6 the same; with a 4608-byte sysctl
    // (two truesizes exactly) 3.12 passes 2 and 3.6 only 1 (hand count).
    let (mut snd, _) = tsq_sender_established(10);
    let passes = |snd: &mut Sender, below: u32| {
        snd.tsq_below = below;
        snd.tsq_allows()
    };
    assert!(passes(&mut snd, 2) && !passes(&mut snd, 3), "3.19: two truesizes");
    snd.p.tsq_rule = super::conn::TsqRule::Linux312;
    assert!(passes(&mut snd, 56) && !passes(&mut snd, 57), "3.12: the 128 KiB floor");
    snd.p.tsq_rule = super::conn::TsqRule::Linux36;
    assert!(passes(&mut snd, 56) && !passes(&mut snd, 57), "3.6: the sysctl alone");
    snd.p.tsq_limit_bytes = 2 * super::conn::TSQ_TRUESIZE_BYTES;
    assert!(passes(&mut snd, 1) && !passes(&mut snd, 2), "3.6: >= throttles");
    snd.p.tsq_rule = super::conn::TsqRule::Linux312;
    assert!(passes(&mut snd, 2) && !passes(&mut snd, 3), "3.12: > throttles");
    // 3.12 follows the pacing rate above the floor: cwnd 1000 at SRTT 10 ms paces 200 MB/s,
    // 195312 B per 1024th of a second: 84 truesizes pass (193536 B), 85 do not (195840 B).
    snd.p.tsq_limit_bytes = super::conn::TSQ_LIMIT_OUTPUT_BYTES;
    snd.s.cwnd = 1000;
    assert!(passes(&mut snd, 84) && !passes(&mut snd, 85), "3.12: 1 ms at the pacing rate");
}

#[test]
fn a_stretch_ack_grows_the_window_once_when_acks_are_counted() {
    // Linux 3.12 tcp_slow_start(tp): one step per ACK; Linux 3.18+ grows by the segments an
    // ACK covers. A 6-segment stretch ACK in slow start from cwnd 10: 11 against 16.
    for (per_ack, want) in [(true, 11), (false, 16)] {
        let p = TcpParams { per_ack_growth: per_ack, ..params(Recovery::Sack) };
        let mut snd = Sender::new(p, Algorithm::from_name("reno").unwrap(), None);
        let mut out = Vec::new();
        snd.start(SimTime::ZERO, &mut out);
        syn_ack(&mut snd, 10, &mut out);
        assert_eq!(snd.s.cwnd, 10);
        let ack = Segment {
            flags: ACK,
            ack: 1 + 6 * u64::from(MSS),
            wnd: 1 << 30,
            ts_val: 2,
            ts_ecr: 1,
            ..Default::default()
        };
        snd.on_ack(&ack, SimTime(20_000_000), &mut out);
        assert_eq!(snd.s.cwnd, want, "per_ack_growth {per_ack}");
    }
}

// ---- Growth only when cwnd-limited (tcp.cwnd_limited; Linux tcp_is_cwnd_limited) ----

const RULES: [CwndLimited; 3] = [CwndLimited::Always, CwndLimited::Linux3, CwndLimited::Linux4];

/// Every segment ACKed at once, 100 ms RTT, lossless; `rcv_segs` the receive window.
fn limited_params(rule: CwndLimited, rcv_segs: u32) -> TcpParams {
    TcpParams {
        rcv_buf: rcv_segs * MSS,
        rules: Rules { cwnd_limited: rule, ..Rules::default() },
        ..params(Recovery::Sack)
    }
}

/// Data segments the receiver has, from its byte count.
fn segments(p: &Pipe) -> u32 {
    (p.delivered / u64::from(MSS)) as u32
}

#[test]
fn a_receive_window_limited_sender_keeps_its_cwnd_under_the_linux_rules() {
    // A 20-segment receive window, a bulk source, slow start (ssthresh infinite), 5 s. The
    // flight is 20 at every ACK once cwnd passes 20.
    // always: +1 per ACK of new data, every segment ACKed: cwnd = 10 + segments delivered.
    // linux-3: prior_in_flight 20; cwnd grows while cwnd - 20 <= 3: 23 -> 24, then stops.
    // linux-4: slow start grows while cwnd < 2 x max_packets_out = 40: stops at 40.
    for (rule, want) in [(CwndLimited::Linux3, 24), (CwndLimited::Linux4, 40)] {
        let mut p = Pipe::new(limited_params(rule, 20), 1 << 40, 100, &[]);
        p.run(5);
        assert_eq!(p.snd.s.cwnd, want, "{rule}");
        assert!(p.windows.iter().all(|w| w.1 <= want), "{rule}: never above {want}");
    }
    let mut p = Pipe::new(limited_params(CwndLimited::Always, 20), 1 << 40, 100, &[]);
    p.run(5);
    assert_eq!(p.snd.s.cwnd, 10 + segments(&p));
    assert!(p.snd.s.cwnd > 900, "{}", p.snd.s.cwnd);
}

#[test]
fn a_receive_window_limited_sender_in_congestion_avoidance_stops_near_the_window() {
    // The same, but ssthresh 10: congestion avoidance from the start, +1 per cwnd of ACKs.
    // linux-3 again stops at 20 + 4 (prior_in_flight 20 at every ACK).
    // linux-4: the ACK that takes cwnd from 19 to 20 lets the flight reach 20 = cwnd, and that
    // send opens a window record (max_packets_out 20 > 19: is_cwnd_limited, right edge S).
    // 20 ACKs later cwnd_cnt reaches 20 (cwnd 21) on the very ACK that reaches S; the send
    // after it (flight 20 < 21) opens the next record, not cwnd-limited: cwnd stays 21.
    for (rule, want) in [(CwndLimited::Linux3, 24), (CwndLimited::Linux4, 21)] {
        let mut p = Pipe::new(limited_params(rule, 20), 1 << 40, 100, &[]);
        p.snd.s.ssthresh = 10;
        p.run(20);
        assert_eq!(p.snd.s.cwnd, want, "{rule}");
        assert!(p.windows.iter().all(|w| w.1 <= want), "{rule}: never above {want}");
    }
    let mut p = Pipe::new(limited_params(CwndLimited::Always, 20), 1 << 40, 100, &[]);
    p.snd.s.ssthresh = 10;
    p.run(20);
    assert!(p.snd.s.cwnd > 50, "one segment per cwnd of ACKs, 20 ACKs per RTT: {}", p.snd.s.cwnd);
}

#[test]
fn an_application_limited_sender_keeps_its_cwnd_under_the_linux_rules() {
    // A 5-segment file and its FIN, sent at once from IW 10; every segment ACKed.
    // always: 10 + 5 + 1 (the FIN's ACK too).
    // linux-3: the flight before the first ACK is 6 (5 and the FIN): 10 - 6 = 4 > 3: none.
    // linux-4: max_packets_out = 6, slow start while cwnd < 12: 10 -> 11 -> 12.
    for (rule, want) in [(CwndLimited::Always, 16), (CwndLimited::Linux3, 10), (CwndLimited::Linux4, 12)] {
        let mut p = Pipe::new(limited_params(rule, 1 << 20), 5 * u64::from(MSS), 100, &[]);
        p.run(5);
        assert_eq!(p.delivered, 5 * u64::from(MSS));
        assert_eq!(p.snd.s.cwnd, want, "{rule}");
    }
}

#[test]
fn a_cwnd_limited_sender_grows_the_same_under_every_rule() {
    // A bulk sender with an open receive window fills cwnd at every ACK (flight = cwnd):
    // slow start to ssthresh 16, then congestion avoidance up to a 64-segment cap; every ACK
    // leaves the same window under all three rules.
    let traces: Vec<_> = RULES
        .iter()
        .map(|&rule| {
            let mut p = Pipe::new(limited_params(rule, 1 << 20), 1 << 40, 100, &[]);
            p.snd.s.ssthresh = 16;
            p.snd.set_cwnd_cap(Some(64));
            p.run(10);
            p.windows
        })
        .collect();
    assert!(traces[0].iter().any(|w| w.1 == 64), "reaches the cap");
    assert!(traces[0].iter().any(|w| w.1 == 17), "passes through congestion avoidance");
    assert_eq!(traces[0], traces[1], "linux-3");
    assert_eq!(traces[0], traces[2], "linux-4");
}

#[test]
fn every_congestion_control_asks_where_its_linux_cong_avoid_does() {
    // The receive-window-limited sender of the first test, under each algorithm. Reno,
    // NewReno, CUBIC, BIC, Veno, Westwood and Illinois test tcp_is_cwnd_limited in (or through)
    // their cong_avoid, so their cwnd stays within linux-3's 20 + 4 and linux-4's 2 x 20.
    // Vegas asks only in its fallback to Reno (tcp_vegas.c): on this pipe its own slow start
    // grows the window under every rule, as Linux's does. The agent never grows it.
    for cc in ["reno", "newreno", "cubic", "bic", "veno", "westwood", "illinois", "vegas", "agent"] {
        let end = |rule| {
            let mut p = Pipe::with_cc(limited_params(rule, 20), cc, 1 << 40, 100, &[]);
            p.run(5);
            p.snd.s.cwnd
        };
        let (always, linux3, linux4) =
            (end(CwndLimited::Always), end(CwndLimited::Linux3), end(CwndLimited::Linux4));
        match cc {
            "agent" => assert_eq!((always, linux3, linux4), (10, 10, 10)),
            "vegas" => {
                assert!(always > 100, "{always}");
                assert_eq!((linux3, linux4), (always, always));
            }
            _ => {
                assert!(always > 100, "{cc}: always {always}");
                assert_eq!((linux3, linux4), (24, 40), "{cc}");
            }
        }
    }
}

/// A sender behind its own 5-segment interface queue sending a segment per ms (8 Mbit/s at
/// 1000-byte segments), 20 ms from its receiver: slow start overflows the queue. `loss`.
fn behind_own_queue(recovery: Recovery, cc: &str, local: LocalCongestion, bytes: u64) -> Pipe {
    let mut p = params(recovery);
    p.rules.local_congestion = local;
    p.rto.min = Dur::from_ms(200);
    let mut pipe = Pipe::with_cc(p, cc, bytes, 20, &[]);
    pipe.local =
        Some(LocalQueue { cap: 5, tx: Dur::from_ms(1), queue: Default::default(), busy: false, refused: 0 });
    pipe
}

#[test]
fn a_sender_whose_only_loss_is_its_own_full_queue_retransmits_nothing_under_cwr() {
    // Linux tcp_transmit_skb: NET_XMIT_DROP -> tcp_enter_cwr, the segment stays unsent.
    for (recovery, cc) in [(Recovery::Sack, "cubic"), (Recovery::Sack, "reno"), (Recovery::NewReno, "reno")] {
        let mut pipe = behind_own_queue(recovery, cc, LocalCongestion::Cwr, 2_000_000);
        pipe.run(20);
        let st = pipe.snd.stats;
        let refused = pipe.local.as_ref().unwrap().refused;
        assert!(refused > 0 && st.local_drops == refused, "{recovery:?} {cc}: {refused} {st:?}");
        assert_eq!((st.retransmissions, st.timeouts, st.fast_retransmits), (0, 0, 0), "{recovery:?} {cc}");
        assert!(st.cwr_events > 0 && st.cwr_events <= st.local_drops, "{st:?}");
        // Every byte arrived once, and no segment was counted as sent that did not leave.
        assert_eq!(pipe.delivered, 2_000_000, "{recovery:?} {cc}");
        assert_eq!(st.segments_sent, pipe.sent.len() as u64 + 3, "data segments + SYN, ACK, FIN");
        assert_eq!(pipe.snd.state, super::conn::SendState::Done);
        // cwnd never stays above ssthresh once CWR ends (tcp_complete_cwr).
        for w in pipe.windows.windows(2) {
            if w[0].3 == CaState::Cwr && w[1].3 == CaState::Open {
                assert!(
                    w[1].1 <= w[1].2,
                    "{recovery:?} {cc}: left CWR at cwnd {} > ssthresh {}",
                    w[1].1,
                    w[1].2
                );
            }
        }
    }
}

#[test]
fn the_same_full_queue_is_a_loss_repaired_by_retransmission_under_loss() {
    for (recovery, cc) in [(Recovery::Sack, "cubic"), (Recovery::NewReno, "reno")] {
        let mut pipe = behind_own_queue(recovery, cc, LocalCongestion::Loss, 2_000_000);
        pipe.run(20);
        let st = pipe.snd.stats;
        assert!(pipe.local.as_ref().unwrap().refused > 0);
        assert_eq!((st.local_drops, st.cwr_events), (0, 0));
        assert!(st.retransmissions > 0, "{recovery:?} {cc}: {st:?}");
        assert_eq!(pipe.delivered, 2_000_000);
    }
}

#[test]
fn cwr_cuts_ssthresh_once_and_holds_until_what_was_sent_is_acknowledged() {
    let mut p = params(Recovery::Sack);
    p.rules.local_congestion = LocalCongestion::Cwr;
    let (mut snd, mut out) = connected_reno(p, None);
    // Ten segments handed down (after the handshake's ACK); the interface takes six and
    // refuses the seventh.
    let batch: Vec<Segment> = std::mem::take(&mut out).into_iter().filter(|s| s.len > 0).collect();
    assert_eq!(batch.len(), 10);
    let now = SimTime(Dur::from_ms(10).ns());
    assert_eq!(snd.on_local_drop(&batch[6..], now), TimerCmd::Keep);
    assert_eq!((snd.snd_nxt, snd.snd_max), (batch[6].seq, batch[6].seq));
    assert_eq!(snd.ca, CaState::Cwr);
    // Reno's ssthresh: half the window (10 -> 5); cwnd: at most the flight + 1 (6 + 1).
    assert_eq!((snd.s.ssthresh, snd.s.cwnd), (5, 7));
    // SYN, the handshake's ACK and six data segments left.
    assert_eq!((snd.stats.segments_sent, snd.stats.local_drops, snd.stats.cwr_events), (8, 1, 1));
    // A second refusal in CWR cuts nothing more.
    snd.on_local_drop(&batch[6..7], now);
    assert_eq!((snd.s.ssthresh, snd.stats.cwr_events, snd.stats.local_drops), (5, 1, 2));
    // The ACK of the first two segments: no growth in CWR, rate halving (one down per two
    // ACKs), and the refused data goes out again.
    let ack = |n: u64, snd: &Sender| Segment {
        ack: 1 + n * u64::from(MSS),
        flags: ACK,
        wnd: 1 << 20,
        ts_ecr: snd.snd_una,
        ..Default::default()
    };
    let t = SimTime(Dur::from_ms(20).ns());
    snd.on_ack(&ack(1, &snd), t, &mut out);
    snd.on_ack(&ack(2, &snd), t, &mut out);
    assert_eq!(snd.ca, CaState::Cwr);
    // 7 -> 6 on the first (at most the flight of 5 + 1), -> 5 on the second (the halving step).
    assert_eq!(snd.s.cwnd, 5);
    assert!(out.iter().any(|s| s.seq == batch[6].seq && !s.retransmit), "the refused segment, sent as new");
    // CWR ends when snd_una passes what had been sent when it began (six segments).
    snd.on_ack(&ack(6, &snd), t, &mut out);
    assert_eq!(snd.ca, CaState::Cwr, "snd_una == high_seq holds CWR (tcp_fastretrans_alert)");
    snd.on_ack(&ack(7, &snd), t, &mut out);
    assert_eq!(snd.ca, CaState::Open);
    assert!(snd.s.cwnd <= snd.s.ssthresh);
}

#[test]
fn a_refused_send_with_nothing_in_flight_is_retried_by_the_probe_timer() {
    let mut p = params(Recovery::Sack);
    p.rules.local_congestion = LocalCongestion::Cwr;
    let (mut snd, mut out) = connected_reno(p, Some(3000));
    let batch = std::mem::take(&mut out); // the handshake's ACK, three segments and the FIN
    assert_eq!(batch.len(), 5);
    let now = SimTime(Dur::from_ms(10).ns());
    // Everything refused: TCP_RESOURCE_PROBE_INTERVAL (500 ms) or the RTO, if shorter (1 s here).
    let cmd = snd.on_local_drop(&batch, now);
    assert_eq!(cmd, TimerCmd::Arm(now + Dur::from_ms(500)));
    assert_eq!(snd.stats.retransmissions, 0);
    let later = now + Dur::from_ms(500);
    let cmd = snd.on_rto(later, &mut out);
    assert_eq!(snd.stats.timeouts, 0, "a probe, not a timeout");
    // tcp_enter_cwr left cwnd at the flight + 1: one segment, the first refused, as new data.
    assert_eq!(out, vec![Segment { ts_val: later.ns() + 1, ..batch[1] }]);
    assert!(out.iter().all(|s| !s.retransmit));
    assert!(matches!(cmd, TimerCmd::Arm(_)));
}

/// A 10-segment file whose every segment but 3 and 7 is lost once: two duplicate ACKs with
/// SACK blocks, no fast retransmit (RFC 6675 IsLost needs three SACKed above), so the RTO
/// repairs it.
fn rto_with_sacks(rule: RtoRecovery) -> Pipe {
    let p = TcpParams { rules: Rules { rto_recovery: rule, ..Rules::default() }, ..params(Recovery::Sack) };
    let mut pipe = Pipe::new(p, 10 * u64::from(MSS), 100, &[0, 1, 2, 4, 5, 6, 8, 9]);
    pipe.run(30);
    pipe
}

#[test]
fn after_an_rto_linux_resends_only_what_the_receiver_lacks() {
    // tcp_enter_loss keeps the scoreboard: 3 and 7 are SACKed and never sent again; the
    // others go in order, one RTO, no second.
    let linux = rto_with_sacks(RtoRecovery::Linux);
    assert_eq!(linux.retransmitted(), [0, 1, 2, 4, 5, 6, 8, 9]);
    assert_eq!(linux.snd.stats.timeouts, 1);
    assert_eq!(linux.delivered, 10 * u64::from(MSS));
    // RFC 6675 5.1 drops the scoreboard and goes back N: 3 and 7 again.
    let rfc = rto_with_sacks(RtoRecovery::Rfc);
    assert!(
        rfc.retransmitted().contains(&3) && rfc.retransmitted().contains(&7),
        "{:?}",
        rfc.retransmitted()
    );
    assert_eq!(rfc.delivered, 10 * u64::from(MSS));
}

#[test]
fn a_retransmission_lost_after_an_rto_is_resent_on_the_next_acks_once_marked_lost() {
    // Linux tcp_enter_loss marks every unSACKed segment lost: segment 1's first
    // retransmission is lost, and the ACKs for 2 and after (SACKing above it) leave it a hole
    // the RTO's Loss state already counts as lost; it goes again at the next RTO under both
    // rules, but under "linux" nothing SACKed is resent.
    let p = TcpParams {
        rules: Rules { rto_recovery: RtoRecovery::Linux, ..Rules::default() },
        ..params(Recovery::Sack)
    };
    let mut pipe = Pipe::new(p, 10 * u64::from(MSS), 100, &[0, 1, 2, 4, 5, 6, 8, 9]);
    pipe.drop_first_rtx = vec![1];
    pipe.run(30);
    let r = pipe.retransmitted();
    assert_eq!(r.iter().filter(|&&i| i == 1).count(), 2, "{r:?}");
    assert!(!r.contains(&3) && !r.contains(&7), "{r:?}");
    assert_eq!(pipe.delivered, 10 * u64::from(MSS));
}

fn recovering_sender(rule: RtoRecovery) -> Sender {
    // Reno with SACK in slow start: 20 segments out, then three duplicate ACKs SACKing 1..4
    // put it in recovery at ssthresh 10.
    let p = TcpParams {
        initial_cwnd: 20,
        rules: Rules { rto_recovery: rule, ..Rules::default() },
        ..params(Recovery::Sack)
    };
    let (mut snd, mut out) = connected_reno(p, None);
    let t = SimTime(Dur::from_ms(20).ns());
    for k in 2..5u64 {
        snd.on_ack(&sack_dupack(k), t, &mut out);
    }
    assert_eq!((snd.ca, snd.s.ssthresh), (CaState::Recovery, 10));
    snd
}

#[test]
fn an_rto_during_recovery_cuts_ssthresh_again_only_under_the_rfc_rule() {
    let t = SimTime(Dur::from_ms(2000).ns());
    let mut out = Vec::new();
    // Linux tcp_enter_loss: in Recovery, with snd_una below high_seq, ssthresh was cut in this
    // window already; a second RTO in a row (icsk_retransmits > 0) does not cut either.
    let mut linux = recovering_sender(RtoRecovery::Linux);
    linux.on_rto(t, &mut out);
    assert_eq!((linux.ca, linux.s.ssthresh, linux.s.cwnd), (CaState::Loss, 10, 1));
    linux.on_rto(t + Dur::from_ms(1000), &mut out);
    assert_eq!(linux.s.ssthresh, 10);
    // RFC 5681 (4): every timeout sets ssthresh from the flight (Reno: half of cwnd 10, then
    // of cwnd 1, floored at 2).
    let mut rfc = recovering_sender(RtoRecovery::Rfc);
    rfc.on_rto(t, &mut out);
    assert_eq!(rfc.s.ssthresh, 5);
    rfc.on_rto(t + Dur::from_ms(1000), &mut out);
    assert_eq!(rfc.s.ssthresh, 2);
}

/// cwnd - ssthresh [segments] on the ACK that ends SACK recovery after one loss in a window
/// of about 80 segments (Reno, an ACK per segment).
fn cwnd_above_ssthresh_at_recovery_exit(credit: CwndCredit) -> (i64, u32) {
    let p = TcpParams { rules: Rules { cwnd_credit: credit, ..Rules::default() }, ..params(Recovery::Sack) };
    let mut pipe = Pipe::new(p, 400 * u64::from(MSS), 100, &[150]);
    pipe.run(30);
    let w = &pipe.windows;
    let i = (1..w.len()).find(|&i| w[i - 1].3 == CaState::Recovery && w[i].3 == CaState::Open).unwrap();
    (i64::from(w[i].1) - i64::from(w[i].2), w[i].2)
}

#[test]
fn the_ack_that_ends_recovery_credits_only_what_it_newly_delivered() {
    // Linux 4.9+ tcp_cong_control(sk, ack, delivered - prior_delivered): the hole's one
    // segment, a 1/cwnd step in congestion avoidance: cwnd leaves at ssthresh.
    let (above, ssthresh) = cwnd_above_ssthresh_at_recovery_exit(CwndCredit::Delivered);
    assert_eq!(above, 0, "ssthresh {ssthresh}");
    // "acked" credits every segment the cumulative ACK covers (about 2 x ssthresh, all SACKed
    // before): Reno's tcp_cong_avoid_ai adds cnt / w = 2 segments at once.
    let (above, ssthresh) = cwnd_above_ssthresh_at_recovery_exit(CwndCredit::Acked);
    assert!(above >= 1, "{above} above ssthresh {ssthresh}");
}

/// Segments a Reno sender with SACK sends on each duplicate ACK after a window of 20 whose
/// first segment is lost (RFC 6937 section 5's example: ssthresh 10, an ACK per segment).
fn sends_per_dupack(prr: Prr) -> Vec<usize> {
    let p = TcpParams {
        initial_cwnd: 20,
        limited_transmit: false,
        rules: Rules { prr, ..Rules::default() },
        ..params(Recovery::Sack)
    };
    let (mut snd, mut out) = connected_reno(p, None);
    let t = SimTime(Dur::from_ms(20).ns());
    let mut per_ack = Vec::new();
    for k in 1..20u64 {
        out.clear();
        snd.on_ack(&sack_dupack(k + 1), t, &mut out);
        per_ack.push(out.len());
    }
    per_ack
}

#[test]
fn prr_sends_one_segment_for_every_two_acks_down_to_ssthresh() {
    // RFC 6937 section 5: PRR spreads the reduction over the recovery round: the fast
    // retransmit on the third duplicate ACK, then CEIL(prr_delivered x 10 / 20) - prr_out,
    // one segment on every second ACK while pipe > ssthresh. Here the new segments are never
    // SACKed, so pipe reaches ssthresh (10) on the 15th ACK, and from there PRR-SSRB sends
    // min(ssthresh - pipe, max(prr_delivered - prr_out, 1) + 1): one per ACK. 10 in all, by
    // hand with section 3's pseudocode.
    let prr = sends_per_dupack(Prr::Recovery);
    assert_eq!(prr, sends_per_dupack(Prr::RecoveryAndCwr));
    assert_eq!(prr, [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1]);
    assert_eq!(prr.iter().sum::<usize>(), 10);
    // RFC 6675 sets cwnd = ssthresh at once: the retransmission (pipe 17), then silence until
    // pipe falls below 10 (seven ACKs), then one per ACK: the same 10 segments, bunched.
    let rfc = sends_per_dupack(Prr::Off);
    assert_eq!(rfc, [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
}

fn rack_pipe(rack: bool, bytes: u64, drop: &[u64], drop_rtx: &[u64]) -> Pipe {
    let p = TcpParams {
        rules: Rules { rack, prr: Prr::RecoveryAndCwr, ..Rules::default() },
        ..params(Recovery::Sack)
    };
    let mut pipe = Pipe::new(p, bytes, 100, drop);
    pipe.drop_first_rtx = drop_rtx.to_vec();
    pipe.run(30);
    pipe
}

#[test]
fn rack_finds_a_loss_with_one_duplicate_ack_after_a_quarter_of_the_min_rtt() {
    // A 10-segment file whose 9th segment is lost: one duplicate ACK (from the 10th), never
    // DupThresh. RFC 8985: the 10th, sent after the 9th, is delivered; the 9th is lost after
    // RACK.rtt + min RTT / 4 from its own send: the reordering timer fires (2 ms later, Linux's
    // TCP_TIMEOUT_MIN) and recovery resends it, 27 ms after the duplicate ACK (100 ms RTT).
    // RFC 6675 waits for the RTO.
    let rack = rack_pipe(true, 10 * u64::from(MSS), &[8], &[]);
    assert_eq!((rack.retransmitted(), rack.snd.stats.timeouts), (vec![8], 0));
    let sent_at = |p: &Pipe| p.sent.iter().find(|t| t.2).unwrap().0;
    // Sent with the 10th at 100 ms (the ACK of the first flight); its ACK at 200 ms; lost at
    // 225 ms, found when the timer fires at 227 ms.
    assert_eq!(sent_at(&rack), SimTime(Dur::from_ms(227).ns()));
    let rfc = rack_pipe(false, 10 * u64::from(MSS), &[8], &[]);
    assert_eq!((rfc.retransmitted(), rfc.snd.stats.timeouts), (vec![8], 1));
    assert_eq!(rack.delivered, rfc.delivered);
}

#[test]
fn rack_resends_a_lost_retransmission_that_is_not_at_the_head() {
    // Segments 5 and 6 lost, and 6's first retransmission too, sent right after 5's while 5
    // is the head. RFC 6675 resends each hole once (HighRxt passes them), and the check
    // after Linux's tcp_mark_lost_retrans watches only the head's retransmission: 6's second
    // loss waits for the RTO. RACK sees segments sent after that retransmission delivered and
    // resends it in the same recovery.
    let rack = rack_pipe(true, 60 * u64::from(MSS), &[5, 6], &[6]);
    assert_eq!(rack.snd.stats.timeouts, 0, "{:?}", rack.retransmitted());
    assert_eq!(rack.retransmitted(), [5, 6, 6]);
    assert!(rack.snd.stats.lost_retransmits >= 1);
    let rfc = rack_pipe(false, 60 * u64::from(MSS), &[5, 6], &[6]);
    assert_eq!(rfc.snd.stats.timeouts, 1, "{:?}", rfc.retransmitted());
    assert_eq!(rack.delivered, 60 * u64::from(MSS));
}

#[test]
fn a_tail_loss_is_probed_two_rtts_later_instead_of_waiting_for_the_rto() {
    // A 10-segment file whose tail is lost (the last segment and the FIN): no duplicate ACK
    // at all. RFC 8985 7: the probe timer fires 2 SRTT + a delayed ACK after the last ACK
    // and sends the last segment and the FIN again (Linux's last skb), which repairs the loss;
    // the ACK past the probe cuts the window as CWR does. Without TLP the RTO (at least 1 s
    // here) repairs it.
    let run = |tlp: bool| {
        let p = TcpParams { rules: Rules { tlp, rack: true, ..Rules::default() }, ..params(Recovery::Sack) };
        let mut pipe = Pipe::new(p, 10 * u64::from(MSS), 100, &[9]);
        pipe.drop_fin = true;
        pipe.run(30);
        pipe
    };
    let probed = run(true);
    let st = probed.snd.stats;
    assert_eq!((probed.retransmitted(), st.timeouts, st.tlp_probes), (vec![9], 0, 1));
    // The ACK of segment 8 at 200 ms, SRTT 100 ms, one packet out (segment 9 with the FIN on
    // it, as Linux sends it: tp->packets_out == 1): the probe waits for a delayed ACK too,
    // at 200 + 200 + 200 = 600 ms.
    let probe = probed.sent.iter().find(|t| t.2).unwrap().0;
    assert_eq!(probe, SimTime(Dur::from_ms(600).ns()));
    let plain = run(false);
    assert_eq!(
        (plain.retransmitted(), plain.snd.stats.timeouts, plain.snd.stats.tlp_probes),
        (vec![9], 1, 0)
    );
    assert_eq!(probed.delivered, plain.delivered);
    assert_eq!(probed.snd.state, super::conn::SendState::Done);
}

#[test]
fn the_probe_and_the_reordering_timer_round_to_jiffies_as_each_kernel_does() {
    // HZ 250 (4-ms ticks), RTT in microseconds (3.15+), a 100 ms path. By hand:
    // - a tail of two lost (segment 8, and 9 with the FIN), the ACK of segment 7 at 200 ms and
    //   SRTT 100 ms: 4.14-6.5 probe after usecs_to_jiffies(200 ms) + TCP_TIMEOUT_MIN = 52 ticks, at
    //   408 ms; 6.6+ after usecs_to_jiffies(200 ms + 2 ms) = 51 ticks, at 404 ms; 402 ms on
    //   the nanosecond clock under either;
    // - the 9th of 10 segments lost, its RACK deadline at 225 ms seen at the duplicate ACK at
    //   200 ms: 4.14-6.5 arm usecs_to_jiffies(25 ms) + 2 = 9 ticks, at 236 ms; 6.6+
    //   usecs_to_jiffies(27 ms) = 7 ticks, at 228 ms; 227 ms on the nanosecond clock.
    use super::conn::TimerRounding::{Linux414, Linux66};
    use super::rto::RttClock;
    let first_rtx = |p: &Pipe| p.sent.iter().find(|t| t.2).unwrap().0;
    for (hz, rounding, probe_ms, reo_ms) in [
        (Some(250), Linux414, 408, 236),
        (Some(250), Linux66, 404, 228),
        (None, Linux414, 402, 227),
        (None, Linux66, 402, 227),
    ] {
        let rto = RtoConfig { clock_hz: hz, rtt_clock: RttClock::Us, ..params(Recovery::Sack).rto };
        let rules = Rules { tlp: true, rack: true, timer_rounding: rounding, ..Rules::default() };
        let p = TcpParams { rto, rules, ..params(Recovery::Sack) };
        let mut tail = Pipe::new(p.clone(), 10 * u64::from(MSS), 100, &[8, 9]);
        tail.drop_fin = true;
        tail.run(30);
        assert_eq!((tail.snd.stats.tlp_probes, tail.snd.stats.timeouts), (1, 0), "{hz:?} {rounding:?}");
        assert_eq!(first_rtx(&tail), SimTime(Dur::from_ms(probe_ms).ns()), "{hz:?} {rounding:?}");
        let rules = Rules { prr: Prr::RecoveryAndCwr, ..rules };
        let mut ninth = Pipe::new(TcpParams { rules, ..p }, 10 * u64::from(MSS), 100, &[8]);
        ninth.run(30);
        assert_eq!((ninth.retransmitted(), ninth.snd.stats.timeouts), (vec![8], 0), "{hz:?} {rounding:?}");
        assert_eq!(first_rtx(&ninth), SimTime(Dur::from_ms(reo_ms).ns()), "{hz:?} {rounding:?}");
    }
    // 6.6+'s probe allows the connection's minimum RTO for a delayed ACK with one segment
    // out (tcp_rto_min_us), 4.14-6.5 TCP_RTO_MIN: with min_rto_ms = 20, a one-segment file
    // (the FIN on it, one packet) lost with its FIN is probed 200 + 20 ms after the SYN-ACK at
    // 100 ms (320 ms) under 6.6+; under 4.14 200 + 200 ms, later than the RTO (100 + SRTT +
    // 4 RTTVAR = 400 ms), so at 400 ms (hand count).
    for (rounding, probe_ms) in [(Linux66, 320), (Linux414, 400)] {
        let rto = RtoConfig { min: Dur::from_ms(20), ..params(Recovery::Sack).rto };
        let rules = Rules { tlp: true, rack: true, timer_rounding: rounding, ..Rules::default() };
        let mut one =
            Pipe::new(TcpParams { rto, rules, ..params(Recovery::Sack) }, u64::from(MSS), 100, &[0]);
        one.drop_fin = true;
        one.run(30);
        assert_eq!(one.snd.stats.tlp_probes, 1, "{rounding:?}");
        assert_eq!(first_rtx(&one), SimTime(Dur::from_ms(probe_ms).ns()), "{rounding:?}");
    }
}

/// A receiver under `rule` (delayed ACKs every 2 segments, 40 ms timer, timestamps) after its
/// SYN-ACK and the handshake's last ACK at time 0; and the SYN-ACK's window.
fn rcv_window_receiver(rule: super::conn::RcvWindow) -> (Receiver, u32) {
    let rules = Rules { rcv_window: rule, quickack: QuickAck::FirstData, ..Rules::default() };
    let p = TcpParams { rules, ack_every: 2, delack_timeout: Dur::from_ms(40), ..params(Recovery::Sack) };
    let mut rcv = Receiver::new(p);
    let mut out = Vec::new();
    let syn = Segment { seq: 0, flags: SYN, ..Default::default() };
    rcv.on_segment(&syn, SimTime::ZERO, &mut out);
    let syn_ack_wnd = out[0].wnd;
    rcv.on_segment(&Segment { seq: 1, ack: 1, flags: ACK, ..Default::default() }, SimTime::ZERO, &mut out);
    (rcv, syn_ack_wnd)
}

/// Segments `from..to` (0-based, MSS bytes each) arriving in order at `at`; the windows of the
/// ACKs they draw, one entry per segment (None: no ACK at once).
fn deliver(rcv: &mut Receiver, from: u64, to: u64, at: SimTime) -> Vec<Option<u32>> {
    (from..to)
        .map(|i| {
            let mut out = Vec::new();
            let seg = Segment {
                seq: 1 + i * u64::from(MSS),
                len: MSS,
                flags: ACK,
                ts_val: 1,
                ..Default::default()
            };
            rcv.on_segment(&seg, at, &mut out);
            out.last().map(|a| a.wnd)
        })
        .collect()
}

#[test]
fn linux_3_12s_receive_window_grows_two_segments_per_segment_with_an_ack_each() {
    // By hand, MSS 1000: tcp_select_initial_window offers 20 segments (tcp_default_init_rwnd,
    // 20000 bytes); tcp_fixup_rcvbuf's buffer is 2 x 2304 x 20 x 4 = 368640 bytes, a window of
    // half of it (184320) less one segment: the clamp 183320. tcp_grow_window adds 2 MSS per
    // in-order segment, each ACKed at once (icsk_ack.quick |= 1): windows 22000, 24000, ...
    // 182000 for segments 1-81, 183320 from the 82nd; quick-ack mode from the first segment
    // (20000 / 2000 = 10 ACKs, kept at 10 while the window grows) runs out ten segments later,
    // and from the 93rd every second segment is ACKed.
    use super::conn::RcvWindow;
    let (mut rcv, syn_ack) = rcv_window_receiver(RcvWindow::Linux312);
    assert_eq!(syn_ack, 20_000);
    let acks = deliver(&mut rcv, 0, 100, SimTime(Dur::from_ms(10).ns()));
    let expected: Vec<Option<u32>> = (1..=100u32)
        .map(|k| match k {
            1..=81 => Some(20_000 + 2_000 * k),
            82..=92 => Some(183_320),
            _ if k % 2 == 0 => Some(183_320),
            _ => None,
        })
        .collect();
    assert_eq!(acks, expected);
    // The fixed window (the default): the whole buffer, 16 quick ACKs, then every second.
    let (mut fixed, syn_ack) = rcv_window_receiver(RcvWindow::Fixed);
    assert_eq!(syn_ack, 1 << 30);
    let acks = deliver(&mut fixed, 0, 20, SimTime(Dur::from_ms(10).ns()));
    assert_eq!(acks.iter().filter(|a| a.is_some()).count(), 16 + 2);
}

#[test]
fn the_receive_window_clamp_follows_what_the_application_read_in_a_receiver_rtt() {
    // tcp_rcv_space_adjust with a receiver RTT of 100 ms, the first adjustment at 100 ms. By
    // hand, MSS 1000:
    // - 3.2: 10 segments at first, the clamp 3/4 x 87380 - 1000 = 64535, reached at the 28th
    //   segment; 30 segments read by 100 ms: space = max(10000, 2 x 30000) = 60000, needing
    //   60 x 1576 = 94560 bytes of memory, more than the 87380 there, so the clamp follows,
    //   down to 60000. The right edge of the 29th's ACK (29001 + 64535) does not move left:
    //   the next ACKs offer 63535, 62535, 61535 (quick-ack mode's last four ACKs end with the
    //   32nd), then at the 34th the clamp, 60000;
    // - 3.12: 100 segments read by 100 ms: space 200000, 200 x 2944 = 588800 bytes against
    //   368640: the clamp rises from 183320 to 200000, and the window grows toward it again
    //   (185320 at the 101st, ACKed at once);
    // - 6.x: 64 KiB at first (the SYN-ACK's 65535, then the clamp 65536 - 1000 = 64536, where
    //   rcv_ssthresh starts: no growth); at 100 ms copied = 41000 > 10000: rcvwin = 2 x 41000 +
    //   16 x 1000 = 98000, plus twice 98000 x 31000 / 10000 = 303800: the clamp 705600, toward
    //   which the window grows by 2 MSS per segment again.
    use super::conn::RcvWindow;
    let at = |ms: u64| SimTime(Dur::from_ms(ms).ns());
    let (mut rcv, _) = rcv_window_receiver(RcvWindow::Linux32);
    rcv.rcv_rtt = Some(Dur::from_ms(100));
    let early = deliver(&mut rcv, 0, 29, at(10));
    assert_eq!(early[27..], [Some(64_535), Some(64_535)]);
    let later = deliver(&mut rcv, 29, 35, at(100));
    assert_eq!(later, [Some(63_535), Some(62_535), Some(61_535), None, Some(60_000), None]);
    assert_eq!(rcv.advertised_window(), 60_000);

    let (mut rcv, _) = rcv_window_receiver(RcvWindow::Linux312);
    rcv.rcv_rtt = Some(Dur::from_ms(100));
    deliver(&mut rcv, 0, 99, at(10));
    assert_eq!(rcv.advertised_window(), 183_320);
    deliver(&mut rcv, 99, 100, at(100));
    assert_eq!(deliver(&mut rcv, 100, 101, at(110)), [Some(185_320)]);

    let (mut rcv, syn_ack) = rcv_window_receiver(RcvWindow::Linux6);
    assert_eq!(syn_ack, 65_535);
    rcv.rcv_rtt = Some(Dur::from_ms(100));
    let early = deliver(&mut rcv, 0, 40, at(10));
    assert!(early.iter().flatten().all(|&w| w == 64_536), "{early:?}");
    // The 41st grows nothing (tcp_grow_window runs before the read that raises the clamp) and
    // waits for a second segment; from the 42nd each grows the window and is ACKed at once.
    assert_eq!(deliver(&mut rcv, 40, 41, at(100)), [None]);
    assert_eq!(rcv.advertised_window(), 64_536);
    assert_eq!(deliver(&mut rcv, 41, 43, at(110)), [Some(66_536), Some(68_536)]);
}

#[test]
fn a_duplicate_ack_leaves_a_pending_probe_alone() {
    // Segment 8 of 10 lost: the ACK of 7 at 200 ms schedules the probe (two packets out,
    // 2 SRTT + 2 ms: 402 ms); segment 9 and the FIN draw two duplicate ACKs at 200 ms, short
    // of DupThresh. Linux's tcp_ack sets no timer for an ACK of nothing new, so the probe
    // fires at 402 ms, its duplicate ACK is the third and fast retransmit repairs 8 (hand
    // count); restarting the RTO on those duplicate ACKs would wait for it (1 s here).
    let rules = Rules { tlp: true, ..Rules::default() };
    let mut pipe = Pipe::new(TcpParams { rules, ..params(Recovery::Sack) }, 10 * u64::from(MSS), 100, &[8]);
    pipe.run(30);
    let st = pipe.snd.stats;
    assert_eq!((st.tlp_probes, st.timeouts), (1, 0), "{:?}", pipe.sent);
    let rtx: Vec<_> = pipe.sent.iter().filter(|t| t.2).map(|t| (t.0, t.1)).collect();
    assert_eq!(rtx, [(SimTime(Dur::from_ms(402).ns()), 9), (SimTime(Dur::from_ms(502).ns()), 8)]);
    assert_eq!(pipe.snd.state, super::conn::SendState::Done);
}

#[test]
fn linux_3_10s_probe_waits_for_a_delayed_ack_with_one_packet_out() {
    // The same tail loss under Linux 3.10-4.13's tcp_schedule_loss_probe: one packet out
    // (segment 9, the FIN on it as Linux sends it), so max(2 SRTT, 1.5 SRTT + TCP_DELACK_MAX)
    // = 350 ms: the ACK of segment 8 at 200 ms, SRTT 100 ms, the probe at 550 ms (hand count),
    // the same repair.
    let rules = Rules { tlp: true, tlp_rule: super::conn::TlpRule::Linux310, ..Rules::default() };
    let p = TcpParams { rules, ..params(Recovery::Sack) };
    let mut pipe = Pipe::new(p, 10 * u64::from(MSS), 100, &[9]);
    pipe.drop_fin = true;
    pipe.run(30);
    let st = pipe.snd.stats;
    assert_eq!((pipe.retransmitted(), st.timeouts, st.tlp_probes), (vec![9], 0, 1));
    assert_eq!(pipe.sent.iter().find(|t| t.2).unwrap().0, SimTime(Dur::from_ms(550).ns()));
    assert_eq!(pipe.snd.state, super::conn::SendState::Done);
}

#[test]
fn after_an_rto_rack_resends_a_lost_fin_and_never_acknowledged_data() {
    // The last segment is short (500 bytes) and the FIN is lost: the RTO must resend the FIN
    // alone, not the short segment the cumulative ACK already covers.
    let p = TcpParams {
        rules: Rules { rack: true, rto_recovery: RtoRecovery::Linux, ..Rules::default() },
        ..params(Recovery::Sack)
    };
    let mut pipe = Pipe::new(p, 9 * u64::from(MSS) + 500, 100, &[]);
    pipe.drop_fin = true;
    pipe.run(30);
    assert_eq!((pipe.retransmitted(), pipe.snd.stats.timeouts), (vec![], 1));
    assert_eq!(pipe.snd.stats.retransmissions, 1, "the FIN once");
    assert_eq!(pipe.snd.state, super::conn::SendState::Done);
}

#[test]
fn every_retransmission_is_watched_for_a_second_loss_as_linux_3_does() {
    // Segments 5 and 6 lost, and 6's first retransmission too, sent while 5 is the head:
    // tcp_mark_lost_retrans (FACK) sees segments sent after it SACKed and resends it; watching
    // the head alone, the RTO does.
    let run = |lost_retransmit: LostRetransmit| {
        let p = TcpParams { rules: Rules { lost_retransmit, ..Rules::default() }, ..params(Recovery::Sack) };
        let mut pipe = Pipe::new(p, 60 * u64::from(MSS), 100, &[5, 6]);
        pipe.drop_first_rtx = vec![6];
        pipe.run(30);
        pipe
    };
    let every = run(LostRetransmit::Every);
    assert_eq!((every.retransmitted(), every.snd.stats.timeouts), (vec![5, 6, 6], 0));
    assert_eq!(every.snd.stats.lost_retransmits, 1);
    let head = run(LostRetransmit::Head);
    assert_eq!(head.snd.stats.timeouts, 1, "{:?}", head.retransmitted());
    assert_eq!(every.delivered, head.delivered);
}

/// A Reno sender with SACK moving 200 segments over a 100 ms pipe (the `drop` ones lost once) to
/// a receiver that delays its ACKs (every second segment, 40 ms timer) in quick-ack mode
/// `quickack`: how many segments each ACK acknowledged, in order, up to the one that covers all
/// the data (0: a duplicate ACK).
fn segments_per_ack(quickack: QuickAck, drop: &[u64]) -> Vec<u64> {
    let p = TcpParams {
        ack_every: 2,
        delack_timeout: Dur::from_ms(40),
        rules: Rules { quickack, ..Rules::default() },
        ..params(Recovery::Sack)
    };
    let end = 1 + 200 * u64::from(MSS);
    let mut pipe = Pipe::new(p, 200 * u64::from(MSS), 100, drop);
    pipe.run(30);
    assert_eq!(pipe.delivered, 200 * u64::from(MSS));
    let acks: Vec<u64> = pipe.acks.iter().map(|&a| a.min(end)).collect();
    let last = acks.iter().position(|&a| a == end).expect("all data acknowledged");
    acks[..=last].windows(2).map(|w| (w[1] - w[0]) / u64::from(MSS)).collect()
}

#[test]
fn quick_ack_mode_acks_the_first_sixteen_segments_one_by_one_then_every_second() {
    // Linux tcp_event_data_recv -> tcp_incr_quickack on the first data segment: quick =
    // min(rcv_wnd / (2 rcv_mss), TCP_MAX_QUICKACKS) = min(2^30 / 2000, 16) = 16; while quick
    // > 0 __tcp_ack_snd_check sends every ACK at once and tcp_dec_quickack_mode takes one off.
    for mode in [QuickAck::FirstData, QuickAck::FirstDataAndOutOfOrder] {
        let per_ack = segments_per_ack(mode, &[]);
        assert_eq!(per_ack[..16], [1; 16], "{mode}");
        assert!(per_ack[16..].iter().all(|&n| n == 2), "{mode}: {per_ack:?}");
        assert_eq!(per_ack.len(), 16 + 92);
    }
    // Off: every second segment from the first, as before the switch (100 ACKs).
    let off = segments_per_ack(QuickAck::Off, &[]);
    assert_eq!(off, [2; 100]);
}

/// The segments each ACK acknowledged after the one that repaired the hole at segment 40 (in
/// the third round, with 50 segments after it in flight).
fn after_the_repair(quickack: QuickAck) -> Vec<u64> {
    let per_ack = segments_per_ack(quickack, &[40]);
    let repair = per_ack.iter().position(|&n| n > 2).expect("a cumulative ACK over the hole");
    per_ack[repair + 1..].to_vec()
}

#[test]
fn out_of_order_data_restarts_quick_ack_mode_before_linux_4_18() {
    // Linux 3.2/3.12 tcp_data_queue: every out-of-order segment calls tcp_enter_quickack_mode
    // (quick back to 16); its duplicate ACK takes one, the ACK repairing the hole another,
    // so the 14 in-order segments after the repair are ACKed one by one, then every second.
    let old = after_the_repair(QuickAck::FirstDataAndOutOfOrder);
    assert_eq!(old[..15], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], "{old:?}");
    // Linux 6.x queues out-of-order data without it (tcp_data_queue_ofo): every second segment
    // after the repair, as without quick-ack mode.
    for mode in [QuickAck::FirstData, QuickAck::Off] {
        let new = after_the_repair(mode);
        assert_eq!(new[..14], [2; 14], "{mode}: {new:?}");
    }
}

#[test]
fn the_quick_ack_count_is_half_the_window_in_segments_at_most_sixteen() {
    // tcp_incr_quickack: rcv_wnd / (2 rcv_mss), 2 if that is 0 (a window under two segments),
    // at most TCP_MAX_QUICKACKS.
    for (window_segments, quick) in [(1, 2u64), (3, 1), (5, 2), (9, 4), (20, 10), (32, 16), (1000, 16)] {
        let p = TcpParams {
            rules: Rules { quickack: QuickAck::FirstData, ..Rules::default() },
            ack_every: 2,
            delack_timeout: Dur::from_ms(40),
            rcv_buf: window_segments * MSS,
            ..params(Recovery::Sack)
        };
        let mut rcv = Receiver::new(p);
        let mut out = Vec::new();
        rcv.on_segment(&Segment { flags: SYN, ..Default::default() }, SimTime::ZERO, &mut out);
        assert_eq!(rcv.quickacks_left(), 0, "not before the first data segment");
        out.clear();
        let mut acks = Vec::new();
        for k in 0..40u64 {
            let seg = Segment { seq: 1 + k * u64::from(MSS), len: MSS, flags: ACK, ..Default::default() };
            rcv.on_segment(&seg, SimTime(k + 1), &mut out);
            acks.extend(out.drain(..).map(|a| (a.ack - 1) / u64::from(MSS)));
        }
        // `quick` ACKs of one segment each, then one every second segment.
        let q = quick;
        let expected: Vec<u64> = (1..=q).chain((q + 2..=40).step_by(2)).collect();
        assert_eq!(acks, expected, "window {window_segments} segments");
    }
}

#[test]
fn data_received_twice_enters_quick_ack_mode_in_either_kernel() {
    // Linux tcp_data_queue, "A retransmit, 2nd most common case. Force an immediate ack.":
    // tcp_enter_quickack_mode (3.2 to 6.x); its own ACK takes one of the 16.
    for mode in [QuickAck::FirstData, QuickAck::FirstDataAndOutOfOrder] {
        let p = TcpParams {
            ack_every: 2,
            rules: Rules { quickack: mode, ..Rules::default() },
            ..params(Recovery::Sack)
        };
        let mut rcv = Receiver::new(p);
        let mut out = Vec::new();
        rcv.on_segment(&Segment { flags: SYN, ..Default::default() }, SimTime::ZERO, &mut out);
        let first = Segment { seq: 1, len: MSS, flags: ACK, ..Default::default() };
        rcv.on_segment(&first, SimTime(1), &mut out);
        for k in 1..20u64 {
            let seg = Segment { seq: 1 + k * u64::from(MSS), len: MSS, flags: ACK, ..Default::default() };
            rcv.on_segment(&seg, SimTime(1 + k), &mut out);
        }
        assert_eq!(rcv.quickacks_left(), 0, "{mode}");
        rcv.on_segment(&first, SimTime(100), &mut out);
        assert_eq!(rcv.quickacks_left(), 15, "{mode}");
        // Off: the duplicate is ACKed at once as before, and no quick-ack mode follows.
        let mut off = Receiver::new(params(Recovery::Sack));
        off.on_segment(&Segment { flags: SYN, ..Default::default() }, SimTime::ZERO, &mut out);
        off.on_segment(&first, SimTime(1), &mut out);
        off.on_segment(&first, SimTime(2), &mut out);
        assert_eq!(off.quickacks_left(), 0);
    }
}

#[test]
fn on_the_jiffy_clock_the_sender_measures_whole_ticks() {
    // Linux 3.12 at HZ 100 (paper 000's Raspberry Pis): on a 4 ms path every RTT sample is 0
    // or 1 tick (tcp_time_stamp - rcv_tsecr, or now - scb->when without timestamps) and
    // tcp_rtt_estimator takes 0 as 1: SRTT one tick (10 ms), RTO 1 + TCP_RTO_MIN (20) = 21
    // ticks, where the nanosecond clock has SRTT 4 ms and RTO 204 ms.
    for timestamps in [true, false] {
        let rto = RtoConfig { linux: true, ..RtoConfig::default() };
        let ns = TcpParams { timestamps, rto, ..params(Recovery::Sack) };
        let jiffies = TcpParams { rto: RtoConfig { clock_hz: Some(100), ..rto }, ..ns.clone() };
        let mut pipe = Pipe::new(jiffies, 100 * u64::from(MSS), 4, &[]);
        pipe.run(10);
        assert_eq!(pipe.delivered, 100 * u64::from(MSS));
        assert_eq!(pipe.snd.rto.srtt(), Some(Dur::from_ms(10)), "timestamps {timestamps}");
        assert_eq!(pipe.snd.rto.rto(), Dur::from_ms(210), "timestamps {timestamps}");
        // The statistics (and the congestion control) keep the path's 4 ms.
        assert!(!pipe.rtts.is_empty() && pipe.rtts.iter().all(|&r| r == Dur::from_ms(4)));
        let mut pipe = Pipe::new(ns, 100 * u64::from(MSS), 4, &[]);
        pipe.run(10);
        assert_eq!((pipe.snd.rto.srtt(), pipe.snd.rto.rto()), (Some(Dur::from_ms(4)), Dur::from_ms(204)));
    }
}

#[test]
fn early_retransmit_repairs_a_short_flight_a_quarter_rtt_after_the_duplicate_ack() {
    // RFC 5827: a 2-segment file whose first segment is lost: the second draws one duplicate
    // ACK with a SACK block, never DupThresh. With fewer than four segments out and nothing
    // new to send, Linux 3.6-4.10 starts recovery SRTT / 4 later (tcp_pause_early_retransmit);
    // without it, the RTO repairs the loss.
    let run = |early_retransmit: bool| {
        let p = TcpParams { rules: Rules { early_retransmit, ..Rules::default() }, ..params(Recovery::Sack) };
        let mut pipe = Pipe::new(p, 2 * u64::from(MSS), 100, &[0]);
        pipe.run(30);
        pipe
    };
    let er = run(true);
    assert_eq!((er.retransmitted(), er.snd.stats.timeouts), (vec![0], 0));
    // The duplicate ACK at 200 ms, SRTT 100 ms: the retransmission at 225 ms.
    assert_eq!(er.sent.iter().find(|t| t.2).unwrap().0, SimTime(Dur::from_ms(225).ns()));
    let plain = run(false);
    assert_eq!((plain.retransmitted(), plain.snd.stats.timeouts), (vec![0], 1));
    assert_eq!(er.delivered, plain.delivered);
}

#[test]
fn frto_undoes_a_spurious_rto_when_never_resent_data_is_acknowledged() {
    // RFC 5682 3.1 step 3.b (Linux tcp_process_loss, FLAG_ORIG_SACK_ACKED): ten segments out,
    // the RTO fires before their ACKs (a delay spike) and resends the first; the ACK that then
    // arrives covers five segments sent once, before the RTO: the timeout was spurious, the
    // window comes back (cwnd 10, ssthresh as before) and the sender is Open again.
    let run = |frto: bool| {
        let rules = Rules { frto, rto_recovery: RtoRecovery::Linux, ..Rules::default() };
        let (mut snd, _) = connected_reno(TcpParams { rules, ..params(Recovery::Sack) }, None);
        let mut out = Vec::new();
        snd.on_rto(SimTime(Dur::from_ms(1100).ns()), &mut out);
        assert_eq!((snd.ca, snd.s.cwnd, out.len()), (CaState::Loss, 1, 1), "the head resent");
        let ack = Segment { ack: 1 + 5 * u64::from(MSS), flags: ACK, wnd: 1 << 30, ..Default::default() };
        snd.on_ack(&ack, SimTime(Dur::from_ms(1110).ns()), &mut out);
        snd
    };
    let undone = run(true);
    assert_eq!((undone.ca, undone.s.cwnd, undone.stats.spurious_rtos), (CaState::Open, 10, 1));
    assert_eq!(undone.s.ssthresh, u32::MAX / 2);
    let kept = run(false);
    assert_eq!((kept.ca, kept.stats.spurious_rtos), (CaState::Loss, 0));
    assert!(kept.s.cwnd < 10 && kept.s.ssthresh == 5, "{} {}", kept.s.cwnd, kept.s.ssthresh);
}

#[test]
fn resending_the_head_restarts_the_rto_as_linux_does() {
    // Ten segments out, segment 0 lost: the third duplicate ACK (SACKing 1..3) starts SACK
    // recovery and resends segment 0 at 30 ms. RFC 6298 (5.3) leaves the timer running from
    // the handshake's ACK; Linux's tcp_xmit_retransmit_queue restarts it from the head's
    // retransmission: 30 ms + the RTO.
    for (rearm, want_arm) in [(RtoRearm::Ack, false), (RtoRearm::HeadRetransmit, true)] {
        let rules = Rules { rto_rearm: rearm, ..Rules::default() };
        let (mut snd, _) = connected_reno(TcpParams { rules, ..params(Recovery::Sack) }, None);
        let mut out = Vec::new();
        let mut cmd = TimerCmd::Keep;
        for (k, ms) in [(2u64, 20u64), (3, 25), (4, 30)] {
            cmd = snd.on_ack(&sack_dupack(k), SimTime(Dur::from_ms(ms).ns()), &mut out);
        }
        assert!(out.iter().any(|s| s.retransmit && s.seq == 1), "{rearm}: the head went again");
        let at = SimTime(Dur::from_ms(30).ns()) + snd.rto.rto();
        assert_eq!(cmd == TimerCmd::Arm(at), want_arm, "{rearm}: {cmd:?}");
        if !want_arm {
            assert_eq!(cmd, TimerCmd::Keep);
        }
        // A later hole (segment 5, three SACKed above it) resent in the same recovery is not
        // the head: the timer runs on (Linux re-arms only for skb == tcp_write_queue_head).
        let mut b = sack_dupack(5);
        b.sack[1] = (1 + 6 * u64::from(MSS), 1 + 9 * u64::from(MSS));
        b.sack_n = 2;
        out.clear();
        let cmd = snd.on_ack(&b, SimTime(Dur::from_ms(35).ns()), &mut out);
        assert!(out.iter().any(|s| s.retransmit && s.seq == 1 + 5 * u64::from(MSS)), "{rearm}: {out:?}");
        assert!(out.iter().all(|s| s.seq != 1), "{rearm}: the head is not resent again");
        assert_eq!(cmd, TimerCmd::Keep, "{rearm}: a later hole leaves the RTO alone");
    }
}

#[test]
fn ns2_newreno_takes_the_whole_inflation_back_on_a_partial_ack() {
    // Paper 001's three losses (40, 42, 44) in a window of 50 (ssthresh 25 after the fast
    // retransmit). RFC 6582: the first partial ACK (two segments) deflates 74 -> 73, recovery
    // ends at min(ssthresh, FlightSize + 1) = 2. ns-2.1b9a (`partialnewack`: dupwnd_ = 0): the
    // window falls to ssthresh at each partial ACK, so the second one resends 44 alone, and
    // recovery ends at ssthresh.
    use super::conn::NewRenoRule;
    let run = |rule: NewRenoRule| {
        let mut par = params(Recovery::NewReno);
        par.rules.newreno_rule = rule;
        let mut p = Pipe::new(par, 120 * u64::from(MSS), 100, &THREE_LOSSES);
        p.run(20);
        assert_eq!(p.delivered, 120 * u64::from(MSS));
        assert_eq!(p.retransmitted(), vec![40, 42, 44]);
        assert_eq!((p.snd.stats.fast_retransmits, p.snd.stats.timeouts), (1, 0));
        p
    };
    let (rfc, ns2) = (run(NewRenoRule::Rfc6582), run(NewRenoRule::Ns2));
    let from = SimTime(400_000_000);
    let (r, n) = (window_path(&rfc, from), window_path(&ns2, from));
    let after_peak = |path: &[(u32, u32, CaState)]| {
        let peak = path.iter().position(|w| w.0 == 74).expect("inflated to 74");
        path[peak + 1]
    };
    assert_eq!(after_peak(&r), (73, 25, CaState::Recovery));
    assert_eq!(after_peak(&n), (25, 25, CaState::Recovery));
    assert_eq!(*r.last().unwrap(), (2, 25, CaState::Open));
    assert_eq!(*n.last().unwrap(), (25, 25, CaState::Open));
    // The second partial ACK's moment: RFC 6582 sends new data beside 44, ns-2 only 44.
    let at = |p: &Pipe| {
        let t = p.sent.iter().find(|t| t.1 == 44 && t.2).unwrap().0;
        p.sent.iter().filter(|x| x.0 == t).map(|x| x.1).collect::<Vec<_>>()
    };
    assert_eq!(at(&ns2), vec![44]);
    assert!(at(&rfc).len() > 1, "{:?}", at(&rfc));
}

#[test]
fn ns2_newreno_sends_at_most_two_new_segments_an_ack_in_recovery() {
    // A 20-segment window, segments 20 and 34 lost: the partial ACK for 20's resend
    // acknowledges 14 segments at once. RFC 6582 fills the window at once beside 34's resend
    // (40-53); ns-2.1b9a's `send_much(0, 0, 2)` lets two through (40, 41).
    use super::conn::NewRenoRule;
    let burst = |rule: NewRenoRule| {
        let mut par = params(Recovery::NewReno);
        (par.rules.newreno_rule, par.rcv_buf) = (rule, 20 * MSS);
        let mut p = Pipe::new(par, 80 * u64::from(MSS), 100, &[20, 34]);
        p.run(20);
        assert_eq!(p.delivered, 80 * u64::from(MSS));
        let t = p.sent.iter().find(|t| t.1 == 34 && t.2).unwrap().0;
        p.sent.iter().filter(|x| x.0 == t && !x.2).map(|x| x.1).collect::<Vec<_>>()
    };
    assert_eq!(burst(NewRenoRule::Rfc6582), (40..54).collect::<Vec<_>>());
    assert_eq!(burst(NewRenoRule::Ns2), vec![40, 41]);
}

/// `params` with ECN asked for (RFC 3168) and Linux's quick-ack mode.
fn ecn_params(recovery: Recovery) -> TcpParams {
    let mut p = params(recovery);
    p.ecn = true;
    p.rules.quickack = QuickAck::FirstData;
    p
}

#[test]
fn ecn_is_negotiated_in_the_handshake_and_only_new_data_is_ecn_capable() {
    // RFC 3168 6.1.1: an ECN-setup SYN (ECE and CWR), an ECN-setup SYN-ACK (ECE alone);
    // 6.1.5 and Linux tcp_ecn_send: ECT(0) on new data, never on a retransmission or an ACK.
    let mut p = Pipe::new(ecn_params(Recovery::Sack), 40 * u64::from(MSS), 100, &[5]);
    p.run(10);
    assert_eq!(p.segs[0].flags, SYN | ECE | CWR);
    assert_eq!(p.ack_segs[0].flags & (SYN | ECE | CWR), SYN | ECE);
    assert!(p.snd.ecn_ok && p.rcv.ecn_ok);
    let data: Vec<&Segment> = p.segs.iter().filter(|s| s.len > 0).collect();
    assert!(data.iter().filter(|s| !s.retransmit).all(|s| s.ecn == ECT0));
    assert!(data.iter().filter(|s| s.retransmit).all(|s| s.ecn == NOT_ECT));
    assert!(data.iter().any(|s| s.retransmit), "segment 5 was lost and sent again");
    assert!(p.ack_segs.iter().all(|a| a.ecn == NOT_ECT));
    // The loss's recovery queues a CWR (tcp_init_cwnd_reduction): the first new data after it.
    let first_new_after_loss = data.iter().position(|s| s.retransmit).unwrap();
    let cwr = data.iter().position(|s| s.flags & CWR != 0).expect("a CWR");
    assert!(cwr > first_new_after_loss && !data[cwr].retransmit);
    assert_eq!(p.snd.stats.cwr_sent, 1);
    // Without ECN asked: a plain SYN, no ECT, no ECE anywhere.
    let mut q = Pipe::new(params(Recovery::Sack), 40 * u64::from(MSS), 100, &[5]);
    q.run(10);
    assert_eq!(q.segs[0].flags, SYN);
    assert!(q.segs.iter().all(|s| s.ecn == NOT_ECT && s.flags & (ECE | CWR) == 0));
    assert!(q.ack_segs.iter().all(|a| a.flags & ECE == 0));
}

#[test]
fn a_ce_mark_is_echoed_until_the_cwr_and_cuts_the_window_once_per_window() {
    // Two CE marks in one window (segments 12 and 15) and one two windows later (60): the
    // receiver sets ECE on every ACK from the first CE until the CWR arrives (RFC 3168 6.1.3),
    // the sender cuts once per window (6.1.2: tcp_enter_cwr only below CWR), retransmits
    // nothing, and its ssthresh is Reno's half of the window (the congestion control's).
    let mut p = Pipe::new(ecn_params(Recovery::Sack), 120 * u64::from(MSS), 100, &[]);
    p.ce_first = vec![12, 15, 60];
    p.run(20);
    assert_eq!(p.delivered, 120 * u64::from(MSS));
    assert!(p.retransmitted().is_empty(), "no retransmission for a mark");
    assert_eq!(p.rcv.stats.ce_received, 3);
    assert_eq!(p.snd.stats.ecn_reductions, 2, "{:?}", p.snd.stats);
    assert_eq!(p.snd.stats.cwr_sent, 2);
    assert!(p.snd.stats.ece_received >= 2);
    // The first ECE: ssthresh = cwnd / 2 (Reno) and CWR; cwnd never grows while in CWR.
    let echo = |a: &Segment| a.flags & (ECE | SYN) == ECE; // the SYN-ACK's ECE is the setup
    let k = p.ack_segs.iter().position(echo).unwrap();
    let before = if k > 0 { p.windows[k - 1].1 } else { 10 };
    assert_eq!(p.windows[k].3, CaState::Cwr);
    assert_eq!(p.windows[k].2, (before / 2).max(2));
    // ECE stops once the CWR reached the receiver: after the last ECE, none until the next CE.
    let eces: Vec<usize> = (0..p.ack_segs.len()).filter(|&i| echo(&p.ack_segs[i])).collect();
    let runs = eces.windows(2).filter(|w| w[1] != w[0] + 1).count() + 1;
    assert_eq!(runs, 2, "two runs of ECE ACKs, one per reduction: {eces:?}");
}

#[test]
fn a_ce_mark_makes_the_next_acks_go_at_once() {
    // __tcp_ecn_check_ce: a CE enters quick-ack mode for two ACKs (delayed ACKs otherwise,
    // ack_every = 2): the marked segment is acknowledged alone.
    let mut p = Pipe::new(ecn_params(Recovery::Sack), 200 * u64::from(MSS), 100, &[]);
    p.ce_first = vec![101];
    p.run(20);
    let acked_alone = p.acks.windows(2).any(|w| w[1] - w[0] == u64::from(MSS) && index(w[1] - 1) == 101);
    assert!(acked_alone, "the CE segment's ACK went at once");
}

#[test]
fn ecn_reduces_the_window_with_every_congestion_control() {
    // A mark cuts as each control's ssthresh says, once, and never makes a retransmission.
    for cc in ["reno", "cubic", "bic", "westwood", "illinois", "vegas", "veno", "newreno"] {
        let mut p = Pipe::with_cc(ecn_params(Recovery::Sack), cc, 80 * u64::from(MSS), 100, &[]);
        p.ce_first = vec![30];
        p.run(20);
        assert_eq!(p.delivered, 80 * u64::from(MSS), "{cc}");
        assert!(p.retransmitted().is_empty(), "{cc}");
        assert_eq!(p.snd.stats.ecn_reductions, 1, "{cc}");
        let k = p.windows.iter().position(|w| w.3 == CaState::Cwr).expect("CWR");
        assert!(p.windows[k].2 < p.windows[k - 1].1, "{cc}: ssthresh below the window before");
    }
}
