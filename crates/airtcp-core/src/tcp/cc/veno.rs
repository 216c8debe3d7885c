//! TCP Veno (Linux net/ipv4/tcp_veno.c).
//!
//! Veno estimates the backlog `N = cwnd (RTT - baseRTT) / RTT` as Vegas does, on every ACK.
//! A loss with `N < beta` is taken as random (wireless) loss and cuts cwnd to 4/5, otherwise
//! as congestion and halves it; in congestion avoidance with `N >= beta` cwnd grows by one
//! segment every other RTT (paper 000 Table I).

use super::{CaState, CcState, CongestionOps, CwndEvent, Reno};
use crate::time::Dur;

// tcp_veno.c: V_PARAM_SHIFT (Diff is kept in half segments) and beta = 3 << V_PARAM_SHIFT.
const V_PARAM_SHIFT: u32 = 1;
const BETA: u32 = 3 << V_PARAM_SHIFT;

/// No RTT sample yet (Linux's 0x7fffffff) [us].
const NO_RTT: u32 = 0x7fff_ffff;

/// Veno's state (Linux `struct veno`).
#[derive(Clone, Debug)]
pub struct Veno {
    /// Veno runs only in Open state; Reno otherwise.
    doing_veno_now: bool,
    /// RTT samples so far (Linux's u16, never reset but by wrapping).
    cnt_rtt: u16,
    /// Lowest sample since the last ACK and lowest ever, plus one [us].
    min_rtt: u32,
    base_rtt: u32,
    /// Increase on the next window's worth of ACKs (alternates when congested).
    inc: bool,
    /// Backlog estimate N, scaled by 2^V_PARAM_SHIFT [segments].
    diff: u32,
}

impl Default for Veno {
    fn default() -> Veno {
        Veno { doing_veno_now: true, cnt_rtt: 0, min_rtt: NO_RTT, base_rtt: NO_RTT, inc: true, diff: 0 }
    }
}

impl Veno {
    pub fn new() -> Veno {
        Veno::default()
    }

    /// Linux `veno_enable`.
    fn enable(&mut self) {
        self.doing_veno_now = true;
        self.min_rtt = NO_RTT;
    }
}

impl CongestionOps for Veno {
    /// tcp_veno.c `tcp_veno_init`.
    fn init(&mut self, _s: &mut CcState) {
        self.base_rtt = NO_RTT;
        self.inc = true;
        self.enable();
    }

    /// tcp_veno.c `tcp_veno_ssthresh`: 4/5 after a random loss, 1/2 after congestion.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        if self.diff < BETA {
            (s.cwnd * 4 / 5).max(2)
        } else {
            (s.cwnd >> 1).max(2)
        }
    }

    /// tcp_veno.c `tcp_veno_cong_avoid`.
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        if !self.doing_veno_now {
            Reno.cong_avoid(s, acked);
            return;
        }
        // tcp_veno.c `tcp_veno_cong_avoid` (3.2, 4.9): "limited by applications", return before
        // the RTT's minimum is wiped.
        if !s.is_cwnd_limited() {
            return;
        }
        if self.cnt_rtt <= 2 {
            // Too few samples: Reno.
            Reno.cong_avoid(s, acked);
        } else {
            let rtt = u64::from(self.min_rtt);
            let target_cwnd = ((u64::from(s.cwnd) * u64::from(self.base_rtt)) << V_PARAM_SHIFT) / rtt;
            self.diff = ((u64::from(s.cwnd) << V_PARAM_SHIFT).saturating_sub(target_cwnd))
                .min(u64::from(u32::MAX)) as u32;
            let mut acked = acked;
            if s.in_slow_start() {
                acked = s.slow_start(acked);
            }
            if acked > 0 {
                if self.diff < BETA {
                    // Available bandwidth not fully used: Reno's one segment per RTT.
                    s.cong_avoid_ai(s.cwnd, acked);
                } else if s.cwnd_cnt >= s.cwnd {
                    // Near congestion: one segment every other RTT.
                    if self.inc && s.cwnd < s.cwnd_clamp {
                        s.cwnd += 1;
                        self.inc = false;
                    } else {
                        self.inc = true;
                    }
                    s.cwnd_cnt = 0;
                } else {
                    s.cwnd_cnt += acked;
                }
            }
            s.cwnd = s.cwnd.clamp(2, s.cwnd_clamp.max(2));
        }
        // Wipe the slate clean for the next RTT.
        self.min_rtt = NO_RTT;
    }

    /// tcp_veno.c `tcp_veno_pkts_acked`: min-filter the samples (+1 us: never zero).
    fn pkts_acked(&mut self, _s: &mut CcState, _acked: u32, rtt: Option<Dur>) {
        let Some(rtt) = rtt else { return };
        let vrtt = super::cubic::rtt_us(rtt).saturating_add(1);
        self.base_rtt = self.base_rtt.min(vrtt);
        self.min_rtt = self.min_rtt.min(vrtt);
        self.cnt_rtt = self.cnt_rtt.wrapping_add(1);
    }

    /// tcp_veno.c `tcp_veno_state`.
    fn set_state(&mut self, _s: &mut CcState, new: CaState) {
        if new == CaState::Open {
            self.enable();
        } else {
            self.doing_veno_now = false;
        }
    }

    /// tcp_veno.c `tcp_veno_cwnd_event`: restarting from idle starts over.
    fn cwnd_event(&mut self, s: &mut CcState, ev: CwndEvent) {
        if matches!(ev, CwndEvent::CwndRestart | CwndEvent::TxStart) {
            self.init(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    /// Congestion avoidance at `cwnd` with baseRTT 100 ms learnt from three samples.
    fn veno_established(cwnd: u32) -> (Veno, CcState) {
        let mut s = CcState::new(MSS, cwnd, 10_000);
        s.ssthresh = 2;
        let mut v = Veno::new();
        v.init(&mut s);
        for _ in 0..3 {
            v.pkts_acked(&mut s, 1, Some(Dur::from_ms(100)));
            v.cong_avoid(&mut s, 1);
        }
        s.cwnd = cwnd;
        s.cwnd_cnt = 0;
        (v, s)
    }

    /// ssthresh after a loss following one ACK with an RTT of `rtt_us`.
    fn ssthresh_after(cwnd: u32, rtt_us: u64) -> u32 {
        let (mut v, mut s) = veno_established(cwnd);
        v.pkts_acked(&mut s, 1, Some(Dur::from_us(rtt_us)));
        v.cong_avoid(&mut s, 1);
        v.ssthresh(&s)
    }

    #[test]
    fn loss_without_backlog_is_random_and_keeps_four_fifths() {
        // N = 0 < beta (3): ssthresh = 50 * 4 / 5 = 40.
        assert_eq!(ssthresh_after(50, 100_000), 40);
        // RTT 105 ms: N = 50 * 5 / 105 = 2.38 segments; tcp_veno.c: target =
        // 50 * 100001 * 2 / 105001 = 95, Diff = 100 - 95 = 5 < 6: random loss.
        assert_eq!(ssthresh_after(50, 105_000), 40);
    }

    #[test]
    fn loss_with_backlog_is_congestive_and_halves() {
        // RTT 107 ms: N = 50 * 7 / 107 = 3.27 >= 3; target = 10000100 / 107001 = 93,
        // Diff = 100 - 93 = 7 >= 6: congestion, ssthresh = 50 / 2.
        assert_eq!(ssthresh_after(50, 107_000), 25);
        // RTT 125 ms: N = 10 segments; Diff = 100 - 10000100 / 125001 = 100 - 80 = 20.
        assert_eq!(ssthresh_after(50, 125_000), 25);
    }

    #[test]
    fn congestion_avoidance_with_backlog_grows_every_other_rtt() {
        let (mut v, mut s) = veno_established(20);
        // RTT 150 ms: Diff = 40 - 20 * 100001 * 2 / 150001 = 40 - 26 = 14 >= 6 throughout.
        // By hand (tcp_veno.c): the 21st ACK finds cwnd_cnt = 20 and inc set: cwnd 21; the
        // 43rd finds cwnd_cnt = 21 with inc clear: no increase; the 65th: cwnd 22.
        let mut cwnd_after = Vec::new();
        for _ in 0..65 {
            v.pkts_acked(&mut s, 1, Some(Dur::from_ms(150)));
            v.cong_avoid(&mut s, 1);
            cwnd_after.push(s.cwnd);
        }
        assert_eq!(cwnd_after[19], 20);
        assert_eq!(cwnd_after[20], 21);
        assert_eq!(cwnd_after[63], 21, "a whole window of ACKs (43rd) without increase");
        assert_eq!(cwnd_after[64], 22);
    }

    #[test]
    fn congestion_avoidance_without_backlog_grows_every_rtt() {
        let (mut v, mut s) = veno_established(20);
        // N = 0: Reno's tcp_cong_avoid_ai: 21 after 20 ACKs, 22 after 41, 23 after 63.
        for _ in 0..63 {
            v.pkts_acked(&mut s, 1, Some(Dur::from_ms(100)));
            v.cong_avoid(&mut s, 1);
        }
        assert_eq!(s.cwnd, 23);
    }
}
