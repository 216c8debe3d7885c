//! CoDel (RFC 8289) as Linux 3.5 has it (`include/net/codel.h`, the qdisc paper 002 ran):
//! one place that decides, packet by packet at dequeue, whether the head of a queue is
//! dropped, from its sojourn time. Any queue can use it: it keeps the controller's state and
//! asks the queue, through [`CodelQueue`], for the next packet's enqueue time and size.
//!
//! Linux's arithmetic is kept where it shapes the behaviour: time in units of 1024 ns
//! (`CODEL_SHIFT` 10, u32 and wrapping), 1/sqrt(count) in Q16 updated by one Newton step per
//! change of count (`codel_Newton_step`, `REC_INV_SQRT_BITS` 16), the control law
//! `t + interval x 1/sqrt(count)` by a 32-bit reciprocal multiply (`codel_control_law`), the
//! backlog test against the largest packet seen (`maxpacket`), and 3.5's restart of the drop
//! count, `(count - lastcount) | 1`, when the queue went bad again within 16 intervals of the
//! last drop. With `ecn` (`codel_params.ecn`: off in `sch_codel`, on in `sch_fq_codel` and
//! mac80211) a packet the law would drop is CE-marked instead when it is ECN-capable
//! (`INET_ECN_set_ce`): the same schedule, the packet sent (`codel_dequeue`, 3.5 to 6.x).

use crate::time::{Dur, SimTime};

/// `CODEL_SHIFT`: Linux's CoDel clock counts 1024 ns units.
const SHIFT: u32 = 10;
/// `REC_INV_SQRT_SHIFT` = 32 - `REC_INV_SQRT_BITS` (16).
const REC_INV_SQRT_SHIFT: u32 = 16;

/// `codel_time_t`: u32 of 1024 ns units, wrapping (`codel_get_time`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodelTime(pub u32);

impl CodelTime {
    pub fn of(t: SimTime) -> CodelTime {
        CodelTime((t.ns() >> SHIFT) as u32)
    }

    fn of_dur(d: Dur) -> u32 {
        (d.ns() >> SHIFT) as u32
    }

    /// `codel_time_after(a, b)`: a > b, in wrapping arithmetic.
    fn after(self, b: CodelTime) -> bool {
        (self.0.wrapping_sub(b.0) as i32) > 0
    }

    fn after_eq(self, b: CodelTime) -> bool {
        (self.0.wrapping_sub(b.0) as i32) >= 0
    }

    fn before(self, b: CodelTime) -> bool {
        (self.0.wrapping_sub(b.0) as i32) < 0
    }
}

/// CoDel's parameters (`codel_params`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelParams {
    pub target: Dur,
    pub interval: Dur,
    /// CE-mark ECN-capable packets instead of dropping them (`ecn`; RFC 8289 section 5.2).
    pub ecn: bool,
}

impl CodelParams {
    /// RFC 8289 and Linux's defaults: target 5 ms, interval 100 ms (`codel_params_init`).
    pub const DEFAULT: CodelParams =
        CodelParams { target: Dur::from_ms(5), interval: Dur::from_ms(100), ecn: false };
}

/// What CoDel needs of the queue it controls.
pub trait CodelQueue {
    type Item;
    /// Take the head packet: its enqueue time and its size [bytes]; `None` if empty.
    fn dequeue(&mut self) -> Option<(Self::Item, SimTime, u32)>;
    /// Bytes still queued (after the dequeue).
    fn backlog_bytes(&self) -> u32;
}

/// The controller's state (`codel_vars`) and its counters (`codel_stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Codel {
    pub params_target: u32,
    pub params_interval: u32,
    /// Packets dropped since entering the dropping state, and at its last entry.
    pub count: u32,
    pub lastcount: u32,
    pub dropping: bool,
    /// 1/sqrt(count) in Q16.
    pub rec_inv_sqrt: u16,
    /// When the sojourn time may first count as persistently above target, and the next drop.
    pub first_above_time: CodelTime,
    pub drop_next: CodelTime,
    /// The last sojourn time [1024 ns units].
    pub ldelay: u32,
    /// Largest packet seen [bytes] (`maxpacket`), the packets dropped, and those CE-marked
    /// instead (`ecn_mark`).
    pub maxpacket: u32,
    pub drop_count: u64,
    pub ecn_mark: u64,
    /// Mark ECN-capable packets instead of dropping them (`params->ecn`).
    pub params_ecn: bool,
}

impl Codel {
    pub fn new(p: CodelParams) -> Codel {
        Codel {
            params_target: CodelTime::of_dur(p.target),
            params_interval: CodelTime::of_dur(p.interval),
            params_ecn: p.ecn,
            // 1/sqrt(1): a first entry into the dropping state soon after the start reuses the
            // count as Linux 3.5 does, and must not start from 0 (a clock of time since boot
            // hides this in Linux; a simulation starts at 0).
            rec_inv_sqrt: (!0u32 >> REC_INV_SQRT_SHIFT) as u16,
            ..Codel::default()
        }
    }

    /// `codel_Newton_step`: one Newton iteration of 1/sqrt(count) in Q16.
    fn newton_step(&mut self) {
        let invsqrt = u32::from(self.rec_inv_sqrt) << REC_INV_SQRT_SHIFT;
        let invsqrt2 = ((u64::from(invsqrt) * u64::from(invsqrt)) >> 32) as u32;
        let mut val: u64 = (3u64 << 32).wrapping_sub(u64::from(self.count) * u64::from(invsqrt2));
        val >>= 2; // avoid overflow in the multiply below
        val = val.wrapping_mul(u64::from(invsqrt)) >> (32 - 2 + 1); // C's u64 arithmetic
        self.rec_inv_sqrt = (val >> REC_INV_SQRT_SHIFT) as u16;
    }

    /// `codel_control_law`: `t + interval / sqrt(count)` by `reciprocal_divide`.
    fn control_law(&self, t: CodelTime) -> CodelTime {
        let k = u64::from(self.rec_inv_sqrt) << REC_INV_SQRT_SHIFT;
        CodelTime(t.0.wrapping_add(((u64::from(self.params_interval) * k) >> 32) as u32))
    }

    /// `codel_should_drop`: whether the packet just dequeued (enqueued at `enqueued`, `bytes`
    /// long, `backlog` bytes left behind it) may be dropped: its sojourn time has stayed at or
    /// above target for an interval and more than one packet's worth is queued.
    fn should_drop(&mut self, pkt: Option<(SimTime, u32)>, backlog: u32, now: CodelTime) -> bool {
        let Some((enqueued, bytes)) = pkt else {
            self.first_above_time = CodelTime(0);
            return false;
        };
        self.ldelay = now.0.wrapping_sub(CodelTime::of(enqueued).0);
        self.maxpacket = self.maxpacket.max(bytes);
        if (self.ldelay as i32) < self.params_target as i32 || backlog <= self.maxpacket {
            // went below: stay below for at least an interval
            self.first_above_time = CodelTime(0);
            return false;
        }
        if self.first_above_time.0 == 0 {
            // just went above: if it stays there for an interval, drops may begin (0 means
            // unset, so a time of exactly 0 is taken as 1 unit: 1 us later)
            self.first_above_time = CodelTime(now.0.wrapping_add(self.params_interval).max(1));
            false
        } else {
            now.after(self.first_above_time)
        }
    }

    /// `codel_dequeue`: dequeue from `q`, dropping as the control law says (`drop(item)` is
    /// called for each packet dropped, oldest first); returns the packet to send, if any.
    /// With ECN on, `mark(item)` is asked first: true if the packet was ECN-capable and is now
    /// CE-marked (the caller sets the bits), and then it is sent instead of dropped.
    pub fn dequeue<Q: CodelQueue>(
        &mut self,
        q: &mut Q,
        now: SimTime,
        mut drop: impl FnMut(Q::Item),
        mut mark: impl FnMut(&Q::Item) -> bool,
    ) -> Option<Q::Item> {
        let now_c = CodelTime::of(now);
        let Some((mut item, mut enq, mut bytes)) = q.dequeue() else {
            self.dropping = false;
            return None;
        };
        let should = self.should_drop(Some((enq, bytes)), q.backlog_bytes(), now_c);
        if self.dropping {
            if !should {
                self.dropping = false; // sojourn time below target: leave the dropping state
            } else if now_c.after_eq(self.drop_next) {
                // Time for the next drop (perhaps several, at a high drop rate).
                while self.dropping && now_c.after_eq(self.drop_next) {
                    self.count = self.count.wrapping_add(1);
                    self.newton_step();
                    if self.params_ecn && mark(&item) {
                        self.ecn_mark += 1;
                        self.drop_next = self.control_law(self.drop_next);
                        return Some(item);
                    }
                    drop(item);
                    self.drop_count += 1;
                    match q.dequeue() {
                        Some((i, e, b)) => {
                            (item, enq, bytes) = (i, e, b);
                            if self.should_drop(Some((enq, bytes)), q.backlog_bytes(), now_c) {
                                self.drop_next = self.control_law(self.drop_next);
                            } else {
                                self.dropping = false;
                            }
                        }
                        None => {
                            self.should_drop(None, 0, now_c);
                            self.dropping = false;
                            return None;
                        }
                    }
                }
            }
        } else if should {
            let next = if self.params_ecn && mark(&item) {
                self.ecn_mark += 1;
                Some((item, enq, bytes))
            } else {
                drop(item);
                self.drop_count += 1;
                let next = q.dequeue();
                let backlog = q.backlog_bytes();
                self.should_drop(next.as_ref().map(|&(_, e, b)| (e, b)), backlog, now_c);
                next
            };
            self.dropping = true;
            // Linux 3.5: if the queue went bad again soon after the last drop, the drop rate
            // that controlled it then is a good start now.
            if CodelTime(now_c.0.wrapping_sub(self.drop_next.0)).before(CodelTime(16 * self.params_interval))
            {
                self.count = self.count.wrapping_sub(self.lastcount) | 1;
                self.newton_step();
            } else {
                self.count = 1;
                self.rec_inv_sqrt = (!0u32 >> REC_INV_SQRT_SHIFT) as u16;
            }
            self.lastcount = self.count;
            self.drop_next = self.control_law(now_c);
            let (i, _, _) = next?;
            return Some(i);
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A FIFO of (id, enqueue time, bytes).
    struct Fifo(VecDeque<(u32, SimTime, u32)>);

    impl CodelQueue for Fifo {
        type Item = u32;
        fn dequeue(&mut self) -> Option<(u32, SimTime, u32)> {
            self.0.pop_front()
        }
        fn backlog_bytes(&self) -> u32 {
            self.0.iter().map(|&(_, _, b)| b).sum()
        }
    }

    fn ms(v: u64) -> SimTime {
        SimTime::ZERO + Dur::from_ms(v)
    }

    #[test]
    fn the_inverse_square_root_and_the_control_law_by_hand() {
        let mut c = Codel::new(CodelParams::DEFAULT);
        // 100 ms = 97,656 units of 1024 ns; 5 ms = 4,882.
        assert_eq!((c.params_interval, c.params_target), (97_656, 4_882));
        c.count = 1;
        c.rec_inv_sqrt = (!0u32 >> REC_INV_SQRT_SHIFT) as u16; // 1/sqrt(1) = 0xffff / 65536
                                                               // control_law(0) = interval x 0xffff/65536: 97,654 units.
        assert_eq!(c.control_law(CodelTime(0)).0, 97_654);
        // One Newton step per drop, x <- x (3 - count x^2) / 2, from 1 at count 1: 0.5 at 2,
        // 0.5625 at 3, 0.4877 at 4 (by hand); it tracks 1/sqrt(count) within 6 % by 16.
        let mut got = Vec::new();
        for count in 2..=16u32 {
            c.count = count;
            c.newton_step();
            got.push(f64::from(c.rec_inv_sqrt) / 65536.0);
        }
        for (g, want) in got.iter().zip([0.5, 0.5625, 0.4877]) {
            assert!((g - want).abs() < 0.001, "{got:?}");
        }
        assert!((got[14] / 0.25 - 1.0).abs() < 0.06, "{got:?}");
    }

    #[test]
    fn a_standing_queue_is_dropped_after_an_interval_and_then_faster() {
        // 1500-byte packets that have waited 20 ms (above the 5 ms target), dequeued every
        // millisecond, with a deep backlog behind them.
        let mut c = Codel::new(CodelParams::DEFAULT);
        let mut q = Fifo((0..2000).map(|i| (i, ms(u64::from(i)), 1500)).collect());
        let mut drops = Vec::new();
        let mut sent = 0;
        for k in 0..400u64 {
            let now = ms(20 + k);
            if c.dequeue(&mut q, now, |i| drops.push((k, i)), |_| false).is_some() {
                sent += 1;
            }
        }
        // No drop during the first interval above target (first_above_time = now + 100 ms).
        assert!(drops.iter().all(|&(k, _)| k > 100), "{:?}", &drops[..3]);
        // Then the gaps follow interval x rec_inv_sqrt, Linux's one Newton step per drop: 100,
        // 50, 56.25, 48.8 ms (by hand, to the millisecond of the dequeues).
        let at: Vec<u64> = drops.iter().map(|&(k, _)| k).collect();
        let gaps: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.len() >= 4, "{gaps:?}");
        for (g, want) in gaps.iter().zip([100i64, 50, 56, 49]) {
            assert!((*g as i64 - want).abs() <= 1, "{gaps:?}");
        }
        assert_eq!(c.drop_count as usize, drops.len());
        // Every dequeue hands a packet on; each drop takes one more off the queue.
        assert_eq!((sent, q.0.len()), (400, 2000 - 400 - drops.len()));
    }

    #[test]
    fn below_target_nothing_is_dropped_and_dropping_stops() {
        let mut c = Codel::new(CodelParams::DEFAULT);
        // Packets that waited 2 ms: never dropped.
        let mut q = Fifo((0..500).map(|i| (i, ms(u64::from(i)), 1500)).collect());
        for k in 0..400u64 {
            c.dequeue(&mut q, ms(2 + k), |_| panic!("dropped below target"), |_| false);
        }
        // One packet left, however old: the backlog test (not more than a packet) keeps it.
        let mut c = Codel::new(CodelParams::DEFAULT);
        let mut q = Fifo(VecDeque::from([(1, ms(0), 1500)]));
        c.maxpacket = 1500;
        assert_eq!(c.dequeue(&mut q, ms(500), |_| panic!("the last packet dropped"), |_| false), Some(1));
        assert!(!c.dropping);
    }

    #[test]
    fn with_ecn_the_law_marks_capable_packets_on_the_drop_schedule_and_drops_the_others() {
        // The queue of the test above: with ECN and every packet ECN-capable, the packets the
        // law would drop are CE-marked and sent (codel_dequeue's INET_ECN_set_ce) on the same
        // schedule: the first after an interval, then 50, 56, 49 ms apart (the Newton steps
        // of the count, which grows per mark as per drop), and nothing is dropped.
        let run = |ect: fn(u32) -> bool| {
            let mut c = Codel::new(CodelParams { ecn: true, ..CodelParams::DEFAULT });
            let mut q = Fifo((0..2000).map(|i| (i, ms(u64::from(i)), 1500)).collect());
            let (mut drops, mut marks) = (Vec::new(), Vec::new());
            for k in 0..400u64 {
                let got = c.dequeue(
                    &mut q,
                    ms(20 + k),
                    |i| drops.push((k, i)),
                    |&i| {
                        let capable = ect(i);
                        if capable {
                            marks.push((k, i));
                        }
                        capable
                    },
                );
                assert!(got.is_some());
            }
            assert_eq!((c.ecn_mark as usize, c.drop_count as usize), (marks.len(), drops.len()));
            (drops, marks)
        };
        let (drops, marks) = run(|_| true);
        assert!(drops.is_empty(), "{drops:?}");
        let at: Vec<u64> = marks.iter().map(|&(k, _)| k).collect();
        assert!(at[0] > 100, "{at:?}");
        let gaps: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
        for (g, want) in gaps.iter().zip([100i64, 50, 56, 49]) {
            assert!((*g as i64 - want).abs() <= 1, "{gaps:?}");
        }
        // Packets that are not ECN-capable are dropped as without ECN (odd ids here): both.
        let (drops, marks) = run(|i| i % 2 == 0);
        assert!(!drops.is_empty() && !marks.is_empty());
        assert!(drops.iter().all(|&(_, i)| i % 2 == 1) && marks.iter().all(|&(_, i)| i % 2 == 0));
        // ECN off: the mark is never asked.
        let mut c = Codel::new(CodelParams::DEFAULT);
        let mut q = Fifo((0..2000).map(|i| (i, ms(u64::from(i)), 1500)).collect());
        for k in 0..400u64 {
            c.dequeue(&mut q, ms(20 + k), |_| {}, |_| panic!("asked to mark with ECN off"));
        }
        assert!(c.drop_count > 0 && c.ecn_mark == 0);
    }
}
