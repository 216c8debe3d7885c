//! TCP Illinois (Linux net/ipv4/tcp_illinois.c).
//!
//! Once per RTT Illinois measures the average queueing delay `da` (mean RTT minus the lowest)
//! against the largest seen `dm`, and sets the additive increase `alpha` (segments per RTT)
//! and the multiplicative decrease `beta` from it: alpha = 10 with no queueing, falling
//! towards 0.3 as `da` nears `dm`; beta = 1/8 below 10% of `dm`, rising linearly to 1/2 at
//! 80% (paper 000 Table I: alpha and beta follow the RTT). Small windows behave like Reno.

use super::cubic::rtt_us;
use super::{CaState, CcState, CongestionOps};
use crate::time::Dur;

// tcp_illinois.c fixed point: alpha in 1/128, beta in 1/64.
const ALPHA_SHIFT: u32 = 7;
const ALPHA_SCALE: u32 = 1 << ALPHA_SHIFT;
const ALPHA_MIN: u32 = 3 * ALPHA_SCALE / 10; // ~0.3 (38/128)
const ALPHA_MAX: u32 = 10 * ALPHA_SCALE; // 10.0
const ALPHA_BASE: u32 = ALPHA_SCALE; // 1.0
/// tcp_illinois.c RTT_MAX = U32_MAX / ALPHA_MAX (3.3 s) [us]: keeps the alpha math in u32.
const RTT_MAX: u32 = u32::MAX / ALPHA_MAX;
const BETA_SHIFT: u32 = 6;
const BETA_SCALE: u32 = 1 << BETA_SHIFT;
const BETA_MIN: u32 = BETA_SCALE / 8; // 0.125
const BETA_MAX: u32 = BETA_SCALE / 2; // 0.5
const BETA_BASE: u32 = BETA_MAX;

// tcp_illinois.c module parameters, Linux defaults.
const WIN_THRESH: u32 = 15; // win_thresh = 15: Reno below this window
const THETA: u8 = 5; // theta = 5: RTTs of low delay before alpha returns to max

/// Illinois's state (Linux `struct illinois`).
#[derive(Clone, Debug)]
pub struct Illinois {
    /// Sum and count of the RTT samples of the current RTT [us].
    sum_rtt: u64,
    cnt_rtt: u32,
    /// Lowest and highest RTT sample ever [us].
    base_rtt: u32,
    max_rtt: u32,
    /// Right edge of the current RTT [bytes].
    end_seq: u64,
    /// Additive increase [1/128 segment per RTT] and multiplicative decrease [1/64].
    alpha: u32,
    beta: u32,
    /// Segments acknowledged by the current ACK.
    acked: u32,
    /// The average delay has been above the low threshold.
    rtt_above: bool,
    /// Consecutive RTTs below the low threshold since then.
    rtt_low: u8,
}

impl Default for Illinois {
    fn default() -> Illinois {
        Illinois {
            sum_rtt: 0,
            cnt_rtt: 0,
            base_rtt: 0x7fff_ffff,
            max_rtt: 0,
            end_seq: 0,
            alpha: ALPHA_MAX,
            beta: BETA_BASE,
            acked: 0,
            rtt_above: false,
            rtt_low: 0,
        }
    }
}

impl Illinois {
    pub fn new() -> Illinois {
        Illinois::default()
    }

    /// Linux `rtt_reset`: start a new RTT at `snd_nxt`.
    fn rtt_reset(&mut self, s: &CcState) {
        self.end_seq = s.snd_nxt;
        self.cnt_rtt = 0;
        self.sum_rtt = 0;
    }

    /// Linux `max_delay`: largest queueing delay [us].
    fn max_delay(&self) -> u32 {
        self.max_rtt - self.base_rtt
    }

    /// Linux `avg_delay`: this RTT's average queueing delay [us].
    fn avg_delay(&self) -> u32 {
        (self.sum_rtt / u64::from(self.cnt_rtt)) as u32 - self.base_rtt
    }

    /// Linux `alpha`: 10 while uncongested, down to 0.3 at the largest delay (convex curve
    /// alpha = k1 / (k2 + da)).
    fn alpha_for(&mut self, da: u32, dm: u32) -> u32 {
        let d1 = dm / 100; // low threshold
        if da <= d1 {
            // Never left the low-delay zone: maximum.
            if !self.rtt_above {
                return ALPHA_MAX;
            }
            // theta good RTTs before going back to the maximum.
            self.rtt_low += 1;
            if self.rtt_low < THETA {
                return self.alpha;
            }
            self.rtt_low = 0;
            self.rtt_above = false;
            return ALPHA_MAX;
        }
        self.rtt_above = true;
        let dm = u64::from(dm - d1);
        let da = u64::from(da - d1);
        let a =
            dm * u64::from(ALPHA_MAX) / (dm + da * u64::from(ALPHA_MAX - ALPHA_MIN) / u64::from(ALPHA_MIN));
        a as u32
    }

    /// Linux `beta`: 1/8 below 10% of the largest delay, 1/2 from 80%, linear in between.
    fn beta_for(da: u32, dm: u32) -> u32 {
        let d2 = dm / 10;
        if da <= d2 {
            return BETA_MIN;
        }
        let d3 = 8 * dm / 10;
        if da >= d3 || d3 <= d2 {
            return BETA_MAX;
        }
        (BETA_MIN * d3 - BETA_MAX * d2 + (BETA_MAX - BETA_MIN) * da) / (d3 - d2)
    }

    /// Linux `update_params`, once per RTT.
    fn update_params(&mut self, s: &CcState) {
        if s.cwnd < WIN_THRESH {
            self.alpha = ALPHA_BASE;
            self.beta = BETA_BASE;
        } else if self.cnt_rtt > 0 {
            let dm = self.max_delay();
            let da = self.avg_delay();
            self.alpha = self.alpha_for(da, dm);
            self.beta = Illinois::beta_for(da, dm);
        }
        self.rtt_reset(s);
    }
}

impl CongestionOps for Illinois {
    /// tcp_illinois.c `tcp_illinois_init`.
    fn init(&mut self, s: &mut CcState) {
        *self = Illinois::default();
        self.rtt_reset(s);
    }

    /// tcp_illinois.c `tcp_illinois_ssthresh`: cwnd - beta cwnd, at least 2.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        let decr = (s.cwnd * self.beta) >> BETA_SHIFT;
        (s.cwnd - decr).max(2)
    }

    /// tcp_illinois.c `tcp_illinois_cong_avoid`: cwnd += alpha / cwnd per ACKed segment.
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        if s.snd_una > self.end_seq {
            self.update_params(s);
        }
        // tcp_illinois.c `tcp_illinois_cong_avoid` (3.2, 4.9): "RFC2861 only increase cwnd if
        // fully utilized", after the once-per-RTT parameter update.
        if !s.is_cwnd_limited() {
            return;
        }
        if s.in_slow_start() {
            s.slow_start(acked);
        } else {
            // cwnd_cnt counts segments since the last increase.
            s.cwnd_cnt += self.acked;
            self.acked = 1;
            let delta = (s.cwnd_cnt * self.alpha) >> ALPHA_SHIFT;
            if delta >= s.cwnd {
                s.cwnd = (s.cwnd + delta / s.cwnd).min(s.cwnd_clamp);
                s.cwnd_cnt = 0;
            }
        }
    }

    /// tcp_illinois.c `tcp_illinois_acked`: RTT statistics of the current RTT.
    fn pkts_acked(&mut self, _s: &mut CcState, acked: u32, rtt: Option<Dur>) {
        self.acked = acked;
        let Some(rtt) = rtt else { return };
        let rtt = rtt_us(rtt).min(RTT_MAX);
        self.base_rtt = self.base_rtt.min(rtt);
        self.max_rtt = self.max_rtt.max(rtt);
        self.cnt_rtt += 1;
        self.sum_rtt += u64::from(rtt);
    }

    /// tcp_illinois.c `tcp_illinois_state`: an RTO returns to Reno's parameters.
    fn set_state(&mut self, s: &mut CcState, new: CaState) {
        if new == CaState::Loss {
            self.alpha = ALPHA_BASE;
            self.beta = BETA_BASE;
            self.rtt_low = 0;
            self.rtt_above = false;
            self.rtt_reset(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    /// Congestion avoidance with cwnd held at 100 (clamp) so each RTT is 101 ACKs.
    fn illinois_established() -> (Illinois, CcState) {
        let mut s = CcState::new(MSS, 100, 100);
        s.ssthresh = 50;
        s.snd_nxt = u64::from(100 * MSS);
        let mut ill = Illinois::new();
        ill.init(&mut s);
        (ill, s)
    }

    /// ACK segment by segment with RTT `rtt_ms` until `rounds` RTTs have ended.
    fn rtts(ill: &mut Illinois, s: &mut CcState, rtt_ms: u64, rounds: u32) {
        let mut ended = 0;
        while ended < rounds {
            s.now += Dur::from_ms(1);
            s.snd_una += u64::from(MSS);
            s.snd_nxt = s.snd_una + u64::from(s.cwnd * MSS);
            let end = ill.end_seq;
            ill.pkts_acked(s, 1, Some(Dur::from_ms(rtt_ms)));
            ill.cong_avoid(s, 1);
            if ill.end_seq != end {
                ended += 1;
            }
        }
    }

    #[test]
    fn no_queueing_delay_gives_alpha_max_and_beta_min() {
        let (mut ill, mut s) = illinois_established();
        rtts(&mut ill, &mut s, 100, 2);
        assert_eq!(ill.alpha, 1280, "10.0 in 1/128");
        assert_eq!(ill.beta, 8, "1/8 in 1/64");
        // ssthresh = 100 - (100 * 8 >> 6) = 100 - 12 = 88.
        assert_eq!(ill.ssthresh(&s), 88);
    }

    #[test]
    fn growing_queueing_delay_lowers_alpha_and_raises_beta() {
        let (mut ill, mut s) = illinois_established();
        rtts(&mut ill, &mut s, 100, 2); // base 100 ms
        rtts(&mut ill, &mut s, 200, 1); // max 200 ms: dm = 100 ms
                                        // da = 50 ms (tcp_illinois.c by hand, us): d1 = 1000, alpha = 99000 * 1280 /
                                        // (99000 + 49000 * 1242 / 38) = 126720000 / 1700526 = 74 (0.58); d2 = 10000,
                                        // d3 = 80000, beta = (8 * 80000 - 32 * 10000 + 24 * 50000) / 70000 = 21 (0.33).
        rtts(&mut ill, &mut s, 150, 2);
        assert_eq!((ill.alpha, ill.beta), (74, 21));
        assert_eq!(ill.ssthresh(&s), 100 - (2100 >> 6), "68");
        // da = dm: alpha = 126720000 / (99000 + 3235736) = 38 = ALPHA_MIN (0.3), beta = 1/2.
        rtts(&mut ill, &mut s, 200, 2);
        assert_eq!((ill.alpha, ill.beta), (ALPHA_MIN, BETA_MAX));
        assert_eq!(ill.ssthresh(&s), 50);
    }

    #[test]
    fn delay_back_to_base_restores_alpha_max_after_theta_rtts() {
        let (mut ill, mut s) = illinois_established();
        rtts(&mut ill, &mut s, 100, 2);
        rtts(&mut ill, &mut s, 200, 2);
        assert_eq!(ill.alpha, ALPHA_MIN);
        // Back to no queueing: beta drops at once, alpha waits theta = 5 RTTs.
        for n in 1..THETA {
            rtts(&mut ill, &mut s, 100, 1);
            assert_eq!((ill.alpha, ill.beta), (ALPHA_MIN, BETA_MIN), "low RTT {n}");
        }
        rtts(&mut ill, &mut s, 100, 1);
        assert_eq!(ill.alpha, ALPHA_MAX);
    }

    #[test]
    fn small_window_behaves_like_reno() {
        let (mut ill, mut s) = illinois_established();
        s.cwnd = 10;
        s.cwnd_clamp = 10;
        rtts(&mut ill, &mut s, 100, 2);
        assert_eq!((ill.alpha, ill.beta), (ALPHA_BASE, BETA_BASE), "below win_thresh 15");
        assert_eq!(ill.ssthresh(&s), 5);
    }

    #[test]
    fn congestion_avoidance_at_alpha_max_adds_ten_segments_per_rtt() {
        let (mut ill, mut s) = illinois_established();
        s.cwnd_clamp = 10_000;
        for _ in 0..100 {
            s.snd_una += u64::from(MSS);
            ill.pkts_acked(&mut s, 1, Some(Dur::from_ms(100)));
            ill.cong_avoid(&mut s, 1);
        }
        // By hand: +1 whenever cwnd_cnt * 10 >= cwnd: after 10 ACKs (100), then every 11
        // (101..109): 10, 21, 32, ..., 98 -> 109 after 100 ACKs, about alpha = 10 per RTT.
        assert_eq!(s.cwnd, 109);
    }

    #[test]
    fn rto_returns_to_reno_parameters() {
        let (mut ill, mut s) = illinois_established();
        rtts(&mut ill, &mut s, 100, 2);
        ill.set_state(&mut s, CaState::Loss);
        assert_eq!((ill.alpha, ill.beta), (ALPHA_BASE, BETA_BASE));
    }
}
