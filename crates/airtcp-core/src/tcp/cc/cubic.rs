//! CUBIC with HyStart (Linux net/ipv4/tcp_cubic.c, "CUBIC v2.3"; RFC 9438).
//!
//! After a loss at `W_max` the window follows `W(t) = C (t - K)^3 + W_max`, with
//! `K = cbrt(W_max (1 - beta) / C)`, `C = 0.4` and `beta = 717/1024` (paper 000 Table I),
//! bounded below by an estimate of what Reno would have reached (TCP friendliness).
//! Everything is Linux's integer arithmetic: time in jiffies and in 2^-10 s, delays in
//! microseconds, Linux's table-plus-Newton cube root.
//!
//! This file also holds the jiffy clock shared by the ports that use it (`bic`, `westwood`).

use super::{CaState, CcState, CongestionOps, CwndEvent};
use crate::time::{Dur, SimTime};

/// Linux `HZ`, the jiffy rate [1/s]: CONFIG_HZ_1000 (kernel/Kconfig.hz offers 100, 250, 300,
/// 1000). Only CUBIC's epoch clock, BIC's update throttle and Westwood's RTT window use it.
pub(super) const HZ: u64 = 1000;

/// Linux `tcp_jiffies32`: the simulated clock in jiffies (64 bits, so never wraps).
pub(super) fn jiffies(now: SimTime) -> u64 {
    now.ns() / (1_000_000_000 / HZ)
}

/// Linux `usecs_to_jiffies` (include/linux/jiffies.h), which rounds up.
pub(super) fn usecs_to_jiffies(us: u64) -> u64 {
    us.div_ceil(1_000_000 / HZ)
}

/// An RTT sample in microseconds, as Linux's `ack_sample.rtt_us` (s32) carries it.
pub(super) fn rtt_us(rtt: Dur) -> u32 {
    (rtt.ns() / 1_000).min(i32::MAX as u64) as u32
}

// tcp_cubic.c: BICTCP_BETA_SCALE, BICTCP_HZ (time unit of K and t: 2^-10 s).
const BETA_SCALE: u32 = 1024;
const BICTCP_HZ: u32 = 10;

// tcp_cubic.c module parameters, Linux defaults.
const FAST_CONVERGENCE: bool = true; // fast_convergence = 1
const BETA: u32 = 717; // beta = 717 (/1024 = 0.7)
const BIC_SCALE: u64 = 41; // bic_scale = 41: C = 41 * 10 / 1024 = 0.4
const TCP_FRIENDLINESS: bool = true; // tcp_friendliness = 1
const HYSTART_ACK_TRAIN: bool = true; // hystart_detect = HYSTART_ACK_TRAIN | HYSTART_DELAY
const HYSTART_DELAY: bool = true;
const HYSTART_LOW_WINDOW: u32 = 16; // hystart_low_window = 16
const HYSTART_ACK_DELTA_US: u64 = 2000; // hystart_ack_delta_us = 2000
                                        // initial_ssthresh = 0: Linux leaves ssthresh alone, and so does `init`.

// tcp_cubic.c: HYSTART_MIN_SAMPLES, HYSTART_DELAY_MIN, HYSTART_DELAY_MAX [us].
const HYSTART_MIN_SAMPLES: u8 = 8;
const HYSTART_DELAY_MIN: u32 = 4000;
const HYSTART_DELAY_MAX: u32 = 16000;

// cubictcp_register(): the precomputed scale factors.
/// `beta_scale = 8 (1024 + beta) / 3 / (1024 - beta)` = 15: Reno's growth per ACK scaled by 8.
const FRIENDLY_SCALE: u32 = 8 * (BETA_SCALE + BETA) / 3 / (BETA_SCALE - BETA);
/// `cube_rtt_scale = bic_scale * 10` = 410 (= 1024 C).
const CUBE_RTT_SCALE: u64 = BIC_SCALE * 10;
/// `cube_factor = 2^(10 + 3 BICTCP_HZ) / (bic_scale * 10)`: K = cbrt(cube_factor * dW).
const CUBE_FACTOR: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / (BIC_SCALE * 10);

/// Linux `cubic_root` (tcp_cubic.c): table lookup then one Newton-Raphson step, ~0.2% error.
fn cubic_root(a: u64) -> u32 {
    // cbrt(x) MSB values for x in [0..63]: v = cbrt(x << 18) - 1 (tcp_cubic.c, W. Tarreau).
    const V: [u8; 64] = [
        0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164, 168, 170,
        173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209, 211, 213, 215, 217,
        219, 221, 222, 224, 225, 227, 229, 231, 232, 234, 236, 237, 239, 240, 242, 244, 245, 246, 248, 250,
        251, 252, 254,
    ];
    let b = 64 - a.leading_zeros(); // fls64
    if b < 7 {
        return (u32::from(V[a as usize]) + 35) >> 6;
    }
    let b = ((b * 84) >> 8) - 1;
    let shift = (a >> (b * 3)) as usize;
    let x = u64::from(((u32::from(V[shift]) + 10) << b) >> 6);
    let x = 2 * x + a / (x * (x - 1)).max(1);
    ((x * 341) >> 10) as u32
}

/// CUBIC's state (Linux `struct bictcp` in tcp_cubic.c).
#[derive(Clone, Debug)]
pub struct Cubic {
    /// HyStart on (Linux module parameter `hystart`, default 1).
    pub hystart: bool,
    /// Increase cwnd by one after `cnt` ACKed segments.
    cnt: u32,
    /// W_max: cwnd before the last reduction, lowered by fast convergence [segments].
    last_max_cwnd: u32,
    last_cwnd: u32,
    /// When `cnt` was last computed [jiffies].
    last_time: u64,
    /// Origin of the cubic function [segments] and time to reach it [2^-10 s].
    bic_origin_point: u32,
    bic_k: u32,
    /// Lowest RTT sample [us], zero before the first.
    delay_min: u32,
    /// Start of the current epoch [jiffies]; Linux uses 0 for "none".
    epoch_start: Option<u64>,
    /// Segments ACKed, for the Reno estimate.
    ack_cnt: u32,
    /// Reno-equivalent window [segments].
    tcp_cwnd: u32,
    // HyStart.
    sample_cnt: u8,
    found: bool,
    /// Start of the current round [us], end of the round (`snd_nxt` when it began).
    round_start: u64,
    end_seq: u64,
    /// Last ACK of the current ACK train [us].
    last_ack: u64,
    /// Lowest RTT sample of the current round [us].
    curr_rtt: u32,
    /// Time of the latest ACK, standing in for Linux's `lsndtime` at `TxStart`.
    last_ack_time: SimTime,
}

impl Default for Cubic {
    fn default() -> Cubic {
        Cubic {
            hystart: true, // tcp_cubic.c: hystart = 1
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time: 0,
            bic_origin_point: 0,
            bic_k: 0,
            delay_min: 0,
            epoch_start: None,
            ack_cnt: 0,
            tcp_cwnd: 0,
            sample_cnt: 0,
            found: false,
            round_start: 0,
            end_seq: 0,
            last_ack: 0,
            curr_rtt: u32::MAX,
            last_ack_time: SimTime::ZERO,
        }
    }
}

fn clock_us(now: SimTime) -> u64 {
    now.ns() / 1_000 // bictcp_clock_us: tcp_mstamp [us]
}

impl Cubic {
    pub fn new() -> Cubic {
        Cubic::default()
    }

    /// Linux `bictcp_reset`: clear everything up to HyStart's round state.
    fn reset(&mut self) {
        *self = Cubic {
            hystart: self.hystart,
            sample_cnt: self.sample_cnt,
            round_start: self.round_start,
            end_seq: self.end_seq,
            last_ack: self.last_ack,
            curr_rtt: self.curr_rtt,
            last_ack_time: self.last_ack_time,
            ..Cubic::default()
        };
    }

    /// Linux `bictcp_hystart_reset`: start a new HyStart round.
    fn hystart_reset(&mut self, s: &CcState) {
        self.round_start = clock_us(s.now);
        self.last_ack = self.round_start;
        self.end_seq = s.snd_nxt;
        self.curr_rtt = u32::MAX;
        self.sample_cnt = 0;
    }

    /// Linux `bictcp_update`: recompute `cnt` from the cubic function and the Reno estimate.
    fn update(&mut self, s: &CcState, acked: u32) {
        let cwnd = s.cwnd;
        let now = jiffies(s.now);
        self.ack_cnt = self.ack_cnt.wrapping_add(acked);
        if self.last_cwnd == cwnd && now.saturating_sub(self.last_time) <= HZ / 32 {
            return;
        }
        // At most one cubic update per jiffy; a reduction clears epoch_start and forces one.
        if !(self.epoch_start.is_some() && now == self.last_time) {
            self.last_cwnd = cwnd;
            self.last_time = now;
            let epoch_start = match self.epoch_start {
                Some(e) => e,
                None => {
                    self.ack_cnt = acked;
                    self.tcp_cwnd = cwnd;
                    if self.last_max_cwnd <= cwnd {
                        self.bic_k = 0;
                        self.bic_origin_point = cwnd;
                    } else {
                        let dw = u64::from(self.last_max_cwnd - cwnd);
                        self.bic_k = cubic_root(CUBE_FACTOR * dw);
                        self.bic_origin_point = self.last_max_cwnd;
                    }
                    self.epoch_start = Some(now);
                    now
                }
            };
            // t = time since the epoch began plus one minimum RTT, in 2^-10 s.
            let elapsed = now.saturating_sub(epoch_start);
            let t = ((elapsed + usecs_to_jiffies(u64::from(self.delay_min))) << BICTCP_HZ) / HZ;
            let k = u64::from(self.bic_k);
            let offs = t.abs_diff(k);
            // delta = C (t - K)^3 [segments]; Linux wraps past ~1e6 segments, we saturate.
            let cube = CUBE_RTT_SCALE.saturating_mul(offs.saturating_mul(offs).saturating_mul(offs));
            let delta = (cube >> (10 + 3 * BICTCP_HZ)).min(u64::from(u32::MAX)) as u32;
            let bic_target = if t < k {
                self.bic_origin_point.saturating_sub(delta)
            } else {
                self.bic_origin_point.saturating_add(delta)
            };
            self.cnt = if bic_target > cwnd { cwnd / (bic_target - cwnd) } else { 100 * cwnd };
            // Bandwidth still unknown: at least 5% per RTT.
            if self.last_max_cwnd == 0 && self.cnt > 20 {
                self.cnt = 20;
            }
        }
        if TCP_FRIENDLINESS {
            let delta = ((cwnd * FRIENDLY_SCALE) >> 3).max(1);
            while self.ack_cnt > delta {
                self.ack_cnt -= delta;
                self.tcp_cwnd += 1;
            }
            if self.tcp_cwnd > cwnd {
                let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
                self.cnt = self.cnt.min(max_cnt);
            }
        }
        // At most one segment per two ACKed: 1.5x per RTT.
        self.cnt = self.cnt.max(2);
    }

    /// Linux `hystart_update`: leave slow start on an ACK train or a delay increase.
    fn hystart_update(&mut self, s: &mut CcState, delay: u32) {
        if s.snd_una > self.end_seq {
            self.hystart_reset(s);
        }
        if HYSTART_ACK_TRAIN {
            let now = clock_us(s.now);
            if now.saturating_sub(self.last_ack) <= HYSTART_ACK_DELTA_US {
                self.last_ack = now;
                // hystart_ack_delay() is a TSO/GRO cushion (0 without pacing rate); no
                // offloads here, so 0. Without pacing (SK_PACING_NONE) the threshold halves.
                let threshold = u64::from(self.delay_min) >> 1;
                if now.saturating_sub(self.round_start) > threshold {
                    self.found = true;
                    s.ssthresh = s.cwnd;
                }
            }
        }
        if HYSTART_DELAY {
            self.curr_rtt = self.curr_rtt.min(delay);
            if self.sample_cnt < HYSTART_MIN_SAMPLES {
                self.sample_cnt += 1;
            } else {
                let thresh = (self.delay_min >> 3).clamp(HYSTART_DELAY_MIN, HYSTART_DELAY_MAX);
                if self.curr_rtt > self.delay_min + thresh {
                    self.found = true;
                    s.ssthresh = s.cwnd;
                }
            }
        }
    }
}

impl CongestionOps for Cubic {
    /// tcp_cubic.c `cubictcp_init`.
    fn init(&mut self, s: &mut CcState) {
        self.reset();
        if self.hystart {
            self.hystart_reset(s);
        }
    }

    /// tcp_cubic.c `cubictcp_recalc_ssthresh`: W_max with fast convergence, beta = 717/1024.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        self.epoch_start = None;
        self.last_max_cwnd = if s.cwnd < self.last_max_cwnd && FAST_CONVERGENCE {
            // Release bandwidth for newcomers: W_max = cwnd (1 + beta) / 2.
            s.cwnd * (BETA_SCALE + BETA) / (2 * BETA_SCALE)
        } else {
            s.cwnd
        };
        (s.cwnd * BETA / BETA_SCALE).max(2)
    }

    /// tcp_cubic.c `cubictcp_cong_avoid`.
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        // tcp_cubic.c `bictcp_cong_avoid` (3.2, 4.9) returns first unless cwnd-limited.
        if !s.is_cwnd_limited() {
            return;
        }
        let mut acked = acked;
        if s.in_slow_start() {
            acked = s.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        self.update(s, acked);
        s.cong_avoid_ai(self.cnt, acked);
    }

    /// tcp_cubic.c `cubictcp_acked`: minimum delay and HyStart.
    fn pkts_acked(&mut self, s: &mut CcState, _acked: u32, rtt: Option<Dur>) {
        self.last_ack_time = s.now;
        let Some(rtt) = rtt else { return };
        // Discard delay samples right after fast recovery.
        if let Some(e) = self.epoch_start {
            if jiffies(s.now).saturating_sub(e) < HZ {
                return;
            }
        }
        let delay = rtt_us(rtt).max(1);
        if self.delay_min == 0 || self.delay_min > delay {
            self.delay_min = delay;
        }
        if !self.found && s.in_slow_start() && self.hystart && s.cwnd >= HYSTART_LOW_WINDOW {
            self.hystart_update(s, delay);
        }
    }

    /// tcp_cubic.c `cubictcp_state`: an RTO forgets everything.
    fn set_state(&mut self, s: &mut CcState, new: CaState) {
        if new == CaState::Loss {
            self.reset();
            self.hystart_reset(s);
        }
    }

    /// tcp_cubic.c `cubictcp_cwnd_event`: after an idle period, shift the epoch so the curve
    /// resumes where it stopped. Linux measures idle from `lsndtime` (last transmission),
    /// which `CcState` lacks; the last ACK's time stands in (short by about one RTT).
    fn cwnd_event(&mut self, s: &mut CcState, ev: CwndEvent) {
        if ev != CwndEvent::TxStart {
            return;
        }
        let now = jiffies(s.now);
        let delta = now.saturating_sub(jiffies(self.last_ack_time));
        if let Some(e) = self.epoch_start {
            if delta > 0 {
                self.epoch_start = Some((e + delta).min(now));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;
    const RTT: Dur = Dur::from_ms(100);

    /// An established connection in congestion avoidance with a 100 ms minimum RTT.
    fn cubic_established() -> (Cubic, CcState) {
        let mut s = CcState::new(MSS, 10, 1_000_000);
        let mut c = Cubic::new();
        c.init(&mut s);
        s.now = SimTime(1_000_000_000);
        c.pkts_acked(&mut s, 1, Some(RTT));
        (c, s)
    }

    /// A loss at `w_max` followed by the connection's reduction to ssthresh.
    fn lose_at(c: &mut Cubic, s: &mut CcState, w_max: u32) {
        s.cwnd = w_max;
        s.ssthresh = c.ssthresh(s);
        s.cwnd = s.ssthresh;
        s.cwnd_cnt = 0;
    }

    /// One RTT of ACKs, one per segment, evenly spread.
    fn one_rtt(c: &mut Cubic, s: &mut CcState) {
        let n = u64::from(s.cwnd);
        let gap = Dur(RTT.ns() / n);
        for _ in 0..n {
            s.now += gap;
            s.snd_una += u64::from(MSS);
            c.pkts_acked(s, 1, Some(RTT));
            c.cong_avoid(s, 1);
        }
    }

    #[test]
    fn cubic_root_matches_linux_precision() {
        // Linux tcp_cubic.c: "Avg err ~= 0.195%"; exact cubes checked by hand.
        for (a, r) in [(1_000u64, 10u32), (1 << 30, 1024), (1_000_000_000, 1000), (27, 3)] {
            let x = cubic_root(a);
            assert!(x.abs_diff(r) * 100 <= r.max(100), "cbrt({a}) = {x}, want {r}");
        }
    }

    #[test]
    fn loss_in_congestion_avoidance_sets_ssthresh_to_717_per_1024() {
        let (mut c, s0) = cubic_established();
        let mut s = s0;
        s.cwnd = 100;
        assert_eq!(c.ssthresh(&s), 70, "100 * 717 / 1024 = 70.02");
        s.cwnd = 1000;
        assert_eq!(c.ssthresh(&s), 700, "1000 * 717 / 1024 = 700.2");
        s.cwnd = 2;
        assert_eq!(c.ssthresh(&s), 2, "floor of two segments");
    }

    #[test]
    fn loss_below_previous_wmax_lowers_wmax_by_fast_convergence() {
        let (mut c, mut s) = cubic_established();
        lose_at(&mut c, &mut s, 100);
        assert_eq!(c.last_max_cwnd, 100, "first loss: W_max = cwnd");
        lose_at(&mut c, &mut s, 90);
        // 90 < 100: W_max = 90 * (1024 + 717) / 2048 = 76.5 -> 76 (tcp_cubic.c).
        assert_eq!(c.last_max_cwnd, 76);
        assert_eq!(s.cwnd, 63, "90 * 717 / 1024 = 63.02");
        s.now += RTT;
        c.cong_avoid(&mut s, 1);
        assert_eq!(c.bic_origin_point, 76, "the curve now plateaus at the lowered W_max");
        // A loss above W_max takes cwnd as it is.
        lose_at(&mut c, &mut s, 120);
        assert_eq!(c.last_max_cwnd, 120);
    }

    #[test]
    fn congestion_avoidance_after_loss_follows_cubic_curve() {
        let (mut c, mut s) = cubic_established();
        let w_max = 100u32;
        lose_at(&mut c, &mut s, w_max);
        // Paper 000 Table I: K = cbrt(W_max (1 - beta) / C) = cbrt(100 * 0.3 / 0.4) = 4.217 s.
        let k = (f64::from(w_max) * 0.3 / 0.4).cbrt();
        let w = |t: f64| 0.4 * (t - k).powi(3) + f64::from(w_max);
        let start = s.now;
        let mut checked = 0;
        for _ in 0..80 {
            one_rtt(&mut c, &mut s);
            let t = s.now.since(start).as_secs_f64();
            // bictcp_update aims one minimum RTT ahead (t + delay_min) and gets there within
            // that RTT, so cwnd lies between W(t) and W(t + RTT), within a segment (integer
            // target and cwnd).
            let (lo, hi) = (w(t) - 1.0, w(t + RTT.as_secs_f64()) + 1.0);
            let cwnd = f64::from(s.cwnd);
            assert!(
                lo <= cwnd && cwnd <= hi,
                "t = {t:.2} s: cwnd {cwnd} vs W(t) {:.2}, W(t + RTT) {:.2}",
                lo + 1.0,
                hi - 1.0
            );
            // The Reno estimate never dominates here: CUBIC alone sets cnt.
            assert!(c.tcp_cwnd <= s.cwnd);
            checked += 1;
            if t > 7.0 {
                break;
            }
        }
        assert!(checked > 40, "covers concave (t < K) and convex (t > K) regions");
        assert_eq!(c.bic_k, cubic_root(CUBE_FACTOR * 30), "K from W_max - cwnd = 30 segments");
        // K = 4318 / 1024 s = 4.217 s: Linux's K matches the formula's.
        assert!((f64::from(c.bic_k) / 1024.0 - k).abs() < 0.01);
    }

    #[test]
    fn slow_start_delay_increase_exits_with_hystart() {
        let (mut c, mut s) = cubic_established();
        s.cwnd = 32;
        s.snd_nxt = 1_000_000;
        c.hystart_reset(&s);
        // delay_min = 100 ms; threshold = clamp(100 ms / 8, 4 ms, 16 ms) = 12.5 ms
        // (tcp_cubic.c HYSTART_DELAY_THRESH). Samples 3 ms apart: no ACK train.
        for i in 0..9 {
            s.now += Dur::from_ms(3);
            c.pkts_acked(&mut s, 1, Some(Dur::from_ms(113)));
            if i < 8 {
                assert!(s.in_slow_start(), "the first 8 samples only fill the round");
            }
        }
        assert_eq!(s.ssthresh, 32, "9th sample: 113 ms > 112.5 ms, ssthresh = cwnd");
        assert!(c.found);
    }

    #[test]
    fn slow_start_delay_increase_ignored_without_hystart() {
        let (mut c, mut s) = cubic_established();
        c.hystart = false;
        s.cwnd = 32;
        for _ in 0..20 {
            s.now += Dur::from_ms(3);
            c.pkts_acked(&mut s, 1, Some(Dur::from_ms(150)));
        }
        assert!(s.in_slow_start());
    }

    #[test]
    fn slow_start_ack_train_exits_with_hystart() {
        let mut s = CcState::new(MSS, 20, 1_000_000);
        s.snd_nxt = 1_000_000;
        let mut c = Cubic::new();
        c.init(&mut s); // round starts at t = 0
                        // ACKs 1 ms apart (<= 2 ms: one train), delay_min = 20 ms, threshold = 10 ms: the
                        // train exceeds it at t = 11 ms (tcp_cubic.c hystart_update).
        for ms in 1..=10 {
            s.now = SimTime(ms * 1_000_000);
            c.pkts_acked(&mut s, 1, Some(Dur::from_ms(20)));
            assert!(s.in_slow_start(), "t = {ms} ms");
        }
        s.now = SimTime(11_000_000);
        c.pkts_acked(&mut s, 1, Some(Dur::from_ms(20)));
        assert_eq!(s.ssthresh, 20);
    }

    #[test]
    fn rto_loss_state_resets_wmax() {
        let (mut c, mut s) = cubic_established();
        lose_at(&mut c, &mut s, 100);
        c.set_state(&mut s, CaState::Loss);
        assert_eq!(c.last_max_cwnd, 0);
        assert_eq!(c.epoch_start, None);
    }

    #[test]
    fn tx_start_after_idle_shifts_epoch() {
        let (mut c, mut s) = cubic_established();
        lose_at(&mut c, &mut s, 100);
        one_rtt(&mut c, &mut s);
        let e = c.epoch_start.unwrap();
        s.now += Dur::from_ms(500);
        c.cwnd_event(&mut s, CwndEvent::TxStart);
        assert_eq!(c.epoch_start, Some(e + 500), "shifted by the 500 ms idle time");
    }
}
