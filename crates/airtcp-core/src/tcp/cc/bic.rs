//! BIC: binary increase congestion control (Linux net/ipv4/tcp_bic.c).
//!
//! Below the window of the last loss (`last_max_cwnd`) BIC binary-searches towards it: each
//! RTT it closes a quarter (`BICTCP_B`) of the distance, capped at `max_increment` segments,
//! so growth is fast far from the old maximum and slows as it nears it. Past the old maximum
//! it probes slowly, then faster ("max probing"), up to `max_increment` per RTT.

use super::cubic::{jiffies, HZ};
use super::{CaState, CcState, CongestionOps};
use crate::time::Dur;

// tcp_bic.c: BICTCP_BETA_SCALE, BICTCP_B ("go to point (max+min)/N"), ACK_RATIO_SHIFT.
const BETA_SCALE: u32 = 1024;
const BICTCP_B: u32 = 4;
const ACK_RATIO_SHIFT: u32 = 4;

// tcp_bic.c module parameters, Linux defaults.
const FAST_CONVERGENCE: bool = true; // fast_convergence = 1
const MAX_INCREMENT: u32 = 16; // max_increment = 16
const LOW_WINDOW: u32 = 14; // low_window = 14
const BETA: u32 = 819; // beta = 819 (/1024 = 0.8)
const SMOOTH_PART: u32 = 20; // smooth_part = 20
                             // initial_ssthresh = 0: Linux leaves ssthresh alone.

/// BIC's state (Linux `struct bictcp` in tcp_bic.c).
#[derive(Clone, Debug)]
pub struct Bic {
    /// Increase cwnd by one after `cnt` ACKed segments.
    cnt: u32,
    /// cwnd before the last reduction [segments].
    last_max_cwnd: u32,
    last_cwnd: u32,
    /// When `cnt` was last computed [jiffies].
    last_time: u64,
    /// Start of the current epoch [jiffies] (Linux records it but never reads it).
    epoch_start: Option<u64>,
    /// Segments per ACK, scaled by 2^ACK_RATIO_SHIFT.
    delayed_ack: u32,
    /// CA state, for `pkts_acked` (Linux reads `icsk_ca_state`).
    ca_state: CaState,
}

impl Default for Bic {
    fn default() -> Bic {
        Bic {
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time: 0,
            epoch_start: None,
            delayed_ack: 2 << ACK_RATIO_SHIFT,
            ca_state: CaState::Open,
        }
    }
}

impl Bic {
    pub fn new() -> Bic {
        Bic::default()
    }

    /// Linux `bictcp_reset`.
    fn reset(&mut self) {
        *self = Bic { ca_state: self.ca_state, ..Bic::default() };
    }

    /// Linux `bictcp_update`: `cnt` from the distance to `last_max_cwnd`.
    fn update(&mut self, s: &CcState) {
        let cwnd = s.cwnd;
        let now = jiffies(s.now);
        if self.last_cwnd == cwnd && now.saturating_sub(self.last_time) <= HZ / 32 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = now;
        if self.epoch_start.is_none() {
            self.epoch_start = Some(now);
        }
        // Start off like Reno.
        if cwnd <= LOW_WINDOW {
            self.cnt = cwnd;
            return;
        }
        self.cnt = if cwnd < self.last_max_cwnd {
            let dist = (self.last_max_cwnd - cwnd) / BICTCP_B;
            if dist > MAX_INCREMENT {
                cwnd / MAX_INCREMENT // linear increase
            } else if dist <= 1 {
                cwnd * SMOOTH_PART / BICTCP_B // binary search, almost there
            } else {
                cwnd / dist // binary search
            }
        } else if cwnd < self.last_max_cwnd + BICTCP_B {
            cwnd * SMOOTH_PART / BICTCP_B // just past the maximum: slow start of max probing
        } else if cwnd < self.last_max_cwnd + MAX_INCREMENT * (BICTCP_B - 1) {
            cwnd * (BICTCP_B - 1) / (cwnd - self.last_max_cwnd) // max probing speeds up
        } else {
            cwnd / MAX_INCREMENT // linear increase
        };
        // Slow start or very low utilisation: at least 5% per RTT.
        if self.last_max_cwnd == 0 && self.cnt > 20 {
            self.cnt = 20;
        }
        // Delayed ACKs: scale by the measured segments per ACK.
        self.cnt = ((self.cnt << ACK_RATIO_SHIFT) / self.delayed_ack).max(1);
    }
}

impl CongestionOps for Bic {
    /// tcp_bic.c `bictcp_init`.
    fn init(&mut self, _s: &mut CcState) {
        self.reset();
    }

    /// tcp_bic.c `bictcp_recalc_ssthresh`: beta = 819/1024, Reno's half below low_window.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        self.epoch_start = None;
        self.last_max_cwnd = if s.cwnd < self.last_max_cwnd && FAST_CONVERGENCE {
            s.cwnd * (BETA_SCALE + BETA) / (2 * BETA_SCALE)
        } else {
            s.cwnd
        };
        if s.cwnd <= LOW_WINDOW {
            (s.cwnd >> 1).max(2)
        } else {
            (s.cwnd * BETA / BETA_SCALE).max(2)
        }
    }

    /// tcp_bic.c `bictcp_cong_avoid`.
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        // tcp_bic.c `bictcp_cong_avoid` (3.2, 4.9) returns first unless cwnd-limited.
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
        self.update(s);
        s.cong_avoid_ai(self.cnt, acked);
    }

    /// tcp_bic.c `bictcp_acked`: ratio = (15 ratio + sample) / 16, in Open state only.
    fn pkts_acked(&mut self, _s: &mut CcState, acked: u32, _rtt: Option<Dur>) {
        if self.ca_state == CaState::Open {
            self.delayed_ack = (self.delayed_ack + acked) - (self.delayed_ack >> ACK_RATIO_SHIFT);
        }
    }

    /// tcp_bic.c `bictcp_state`: an RTO forgets the search.
    fn set_state(&mut self, _s: &mut CcState, new: CaState) {
        self.ca_state = new;
        if new == CaState::Loss {
            self.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    const MSS: u32 = 1000;

    /// Congestion avoidance right after a loss at cwnd 200.
    fn bic_after_loss_at_200() -> (Bic, CcState) {
        let mut s = CcState::new(MSS, 10, 100_000);
        let mut b = Bic::new();
        b.init(&mut s);
        s.cwnd = 200;
        s.ssthresh = b.ssthresh(&s);
        s.cwnd = s.ssthresh;
        (b, s)
    }

    /// `cnt` computed for `cwnd` (ACK ratio left at Linux's initial 2: cnt halves).
    fn cnt_at(b: &mut Bic, s: &mut CcState, cwnd: u32) -> u32 {
        s.now += Dur::from_ms(100);
        s.cwnd = cwnd;
        s.ssthresh = 2;
        b.cong_avoid(s, 1);
        b.cnt
    }

    #[test]
    fn loss_sets_ssthresh_to_819_per_1024_and_wmax() {
        let (b, s) = bic_after_loss_at_200();
        assert_eq!(s.ssthresh, 159, "200 * 819 / 1024 = 159.96");
        assert_eq!(b.last_max_cwnd, 200);
        let mut s = s;
        let mut b = b;
        s.cwnd = 10;
        assert_eq!(b.ssthresh(&s), 5, "at or below low_window 14: Reno's half");
    }

    #[test]
    fn congestion_avoidance_binary_search_increments_shrink_near_wmax() {
        let (mut b, mut s) = bic_after_loss_at_200();
        // tcp_bic.c bictcp_update by hand, last_max = 200, then * 16 / delayed_ack (32):
        // far below: dist = (200 - 100) / 4 = 25 > 16: cnt = 100 / 16 = 6 -> 3.
        assert_eq!(cnt_at(&mut b, &mut s, 100), 3);
        // dist = (200 - 159) / 4 = 10: cnt = 159 / 10 = 15 -> 7 (+10 per RTT before ACK ratio).
        assert_eq!(cnt_at(&mut b, &mut s, 159), 7);
        // dist = (200 - 180) / 4 = 5: cnt = 180 / 5 = 36 -> 18 (+5 per RTT: halved).
        assert_eq!(cnt_at(&mut b, &mut s, 180), 18);
        // dist = 1: cnt = 196 * 20 / 4 = 980 -> 490 (smooth_part: ~0.2 per RTT).
        assert_eq!(cnt_at(&mut b, &mut s, 196), 490);
        // Just above the maximum (< 200 + 4): still 202 * 20 / 4 = 1010 -> 505.
        assert_eq!(cnt_at(&mut b, &mut s, 202), 505);
        // Max probing: 210 * 3 / (210 - 200) = 63 -> 31, faster as cwnd leaves the max.
        assert_eq!(cnt_at(&mut b, &mut s, 210), 31);
        // 230 * 3 / 30 = 23 -> 11.
        assert_eq!(cnt_at(&mut b, &mut s, 230), 11);
        // Beyond 200 + 16 * 3 = 248: linear, 260 / 16 = 16 -> 8.
        assert_eq!(cnt_at(&mut b, &mut s, 260), 8);
    }

    #[test]
    fn congestion_avoidance_after_loss_grows_fast_then_slows_then_probes() {
        let (mut b, mut s) = bic_after_loss_at_200();
        let rtt = Dur::from_ms(100);
        let mut per_rtt = Vec::new();
        for _ in 0..60 {
            let before = s.cwnd;
            let n = u64::from(s.cwnd);
            for _ in 0..n {
                s.now += Dur(rtt.ns() / n);
                b.pkts_acked(&mut s, 1, Some(rtt));
                b.cong_avoid(&mut s, 1);
            }
            per_rtt.push((before, s.cwnd - before));
        }
        // Binary search while dist = (200 - cwnd) / 4 >= 2 (cwnd <= 192): each RTT closes a
        // fixed share of the distance to W_max, so the increments shrink geometrically.
        let search: Vec<_> = per_rtt.iter().filter(|(w, _)| *w <= 192).collect();
        assert!(search.len() >= 3, "{per_rtt:?}");
        assert!(search[0].1 >= 10, "first RTT after the loss: {:?}", search[0]);
        for pair in search.windows(2) {
            assert!(pair[1].1 < pair[0].1, "increments shrink: {per_rtt:?}");
            let (gap0, gap1) = (200 - pair[0].0, 200 - pair[1].0);
            assert!(3 * gap1 <= 2 * gap0, "distance to W_max shrinks by a third or more");
        }
        // Around W_max (dist <= 1, or less than B above) cnt = 5 cwnd: the plateau, at most
        // one segment per RTT, for many RTTs.
        let plateau: Vec<_> = per_rtt.iter().filter(|(w, _)| (193..203).contains(w)).collect();
        assert!(plateau.len() >= 10, "{per_rtt:?}");
        assert!(plateau.iter().all(|(_, inc)| *inc <= 1), "{per_rtt:?}");
        // Max probing: 3 / (cwnd - W_max) per cwnd speeds up until the linear cap of
        // max_increment (16) per RTT, doubled at most by the ACK-ratio estimate (16 / 31).
        let probe: Vec<_> = per_rtt.iter().filter(|(w, _)| *w >= 204).map(|(_, i)| *i).collect();
        assert!(probe.len() >= 5, "{per_rtt:?}");
        assert!(probe.windows(2).take(3).all(|p| p[1] > p[0]), "accelerates: {probe:?}");
        assert!(probe.iter().all(|i| *i <= 2 * MAX_INCREMENT), "{probe:?}");
        assert!(*probe.last().unwrap() >= MAX_INCREMENT, "{probe:?}");
        assert!(s.cwnd > 200);
    }

    #[test]
    fn rto_loss_state_resets_wmax() {
        let (mut b, mut s) = bic_after_loss_at_200();
        s.now = SimTime(1);
        b.set_state(&mut s, CaState::Loss);
        assert_eq!(b.last_max_cwnd, 0);
    }
}
