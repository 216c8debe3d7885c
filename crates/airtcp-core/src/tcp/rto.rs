//! Retransmission timeout per RFC 6298, or as Linux computes it (`tcp_rtt_estimator`), with
//! Karn's rule left to the caller (it decides which samples are valid) and configurable
//! minimum, maximum and initial values.

use crate::time::Dur;

crate::names::names! {
    /// Which RTO rule a connection follows: RFC 6298's (RTO = max(min, SRTT + 4 RTTVAR)) or
    /// Linux's (RTO = SRTT + max(min, the held variance), `tcp_rtt_estimator`;
    /// [`RtoConfig::linux`]).
    pub enum RtoRule {
        Rfc6298 = "rfc6298",
        Linux = "linux",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtoConfig {
    pub min: Dur,
    pub max: Dur,
    pub initial: Dur,
    /// Clock granularity G of RFC 6298 (2.2)/(2.3): RTO = SRTT + max(G, 4 RTTVAR). Zero: the
    /// simulator's nanosecond clock (G = 1 ns); NS-2's tcpTick_ is 10 ms.
    pub granularity: Dur,
    /// Linux's estimator (`tcp_rtt_estimator`, `__tcp_set_rto`, 2.6-4.x): RTO = SRTT +
    /// RTTVAR' where RTTVAR' (4 x the mean deviation, held for an RTT at its peak, decaying
    /// after) never drops below `min`: the minimum bounds the variance term, not the RTO.
    pub linux: bool,
}

impl Default for RtoConfig {
    /// Linux: TCP_RTO_MIN 200 ms, TCP_RTO_MAX 120 s, TCP_TIMEOUT_INIT 1 s (RFC 6298 (2.1)).
    fn default() -> Self {
        RtoConfig {
            min: Dur::from_ms(200),
            max: Dur::from_ms(120_000),
            initial: Dur::from_ms(1000),
            granularity: Dur::ZERO,
            linux: false,
        }
    }
}

/// SRTT, RTTVAR and RTO, all in integer nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct RtoEstimator {
    cfg: RtoConfig,
    srtt: Option<Dur>,
    rttvar: Dur,
    /// RTO before backoff.
    base: Dur,
    /// Number of consecutive doublings (5.5).
    backoffs: u32,
    /// Linux: `mdev` (4 x the mean deviation), `mdev_max` (its peak this RTT, at least the
    /// minimum), `rttvar` (the term the RTO adds) [ns], and `rtt_seq` (the sequence whose
    /// acknowledgement ends the RTT).
    srtt8: i64,
    mdev: i64,
    mdev_max: i64,
    lx_rttvar: i64,
    rtt_seq: u64,
}

impl RtoEstimator {
    pub fn new(cfg: RtoConfig) -> Self {
        // (2.1): until a sample is made, RTO = initial (clamped like any other RTO).
        let base = cfg.initial.max(cfg.min).min(cfg.max);
        RtoEstimator {
            cfg,
            srtt: None,
            rttvar: Dur::ZERO,
            base,
            backoffs: 0,
            srtt8: 0,
            mdev: 0,
            mdev_max: 0,
            lx_rttvar: 0,
            rtt_seq: 0,
        }
    }

    pub fn srtt(&self) -> Option<Dur> {
        self.srtt
    }
    pub fn rttvar(&self) -> Dur {
        self.rttvar
    }
    pub fn backoffs(&self) -> u32 {
        self.backoffs
    }

    /// The current timeout, including backoff, within [min, max].
    pub fn rto(&self) -> Dur {
        let factor = 1u64 << self.backoffs.min(40);
        Dur(self.base.ns().saturating_mul(factor)).min(self.cfg.max)
    }

    /// Take a valid RTT sample `r`.
    pub fn sample(&mut self, r: Dur) {
        match self.srtt {
            None => {
                // (2.2): SRTT = R, RTTVAR = R/2.
                self.srtt = Some(r);
                self.rttvar = Dur(r.ns() / 2);
            }
            Some(srtt) => {
                // (2.3): RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|, then SRTT = 7/8 SRTT + 1/8 R'.
                let err = srtt.ns().abs_diff(r.ns());
                self.rttvar = Dur((3 * self.rttvar.ns() + err) / 4);
                self.srtt = Some(Dur((7 * srtt.ns() + r.ns()) / 8));
            }
        }
        // (2.2)/(2.3): RTO = SRTT + max(G, 4 RTTVAR) (G at least 1 ns); (2.4) and (2.5): clamps.
        let srtt = self.srtt.unwrap_or(r);
        let rto = srtt + Dur((4 * self.rttvar.ns()).max(self.cfg.granularity.ns()).max(1));
        self.base = rto.max(self.cfg.min).min(self.cfg.max);
        // (5.7): a new sample after backoff lets the RTO be recomputed from scratch.
        self.backoffs = 0;
    }

    /// A valid RTT sample `r` taken when the sender had `snd_una` acknowledged and `snd_nxt`
    /// sent: RFC 6298's [`sample`](Self::sample), or Linux 3.12's `tcp_rtt_estimator` (the
    /// variance term decays once per RTT, when `snd_una` passes the mark set at the last decay).
    pub fn sample_at(&mut self, r: Dur, snd_una: u64, snd_nxt: u64) {
        if !self.cfg.linux {
            self.sample(r);
            return;
        }
        let rto_min = self.cfg.min.ns() as i64;
        let mut m = (r.ns() as i64).max(1);
        match self.srtt {
            Some(_) => {
                m -= self.srtt8 >> 3; // m is now the error in the estimate
                self.srtt8 += m; // SRTT = 7/8 SRTT + 1/8 R (kept times 8, as Linux)
                if m < 0 {
                    // A falling RTT moves mdev by an eighth as much (Eifel, Linux's comment).
                    m = -m - (self.mdev >> 2);
                    if m > 0 {
                        m >>= 3;
                    }
                } else {
                    m -= self.mdev >> 2;
                }
                self.mdev += m;
                if self.mdev > self.mdev_max {
                    self.mdev_max = self.mdev;
                    self.lx_rttvar = self.lx_rttvar.max(self.mdev_max);
                }
                if snd_una > self.rtt_seq {
                    if self.mdev_max < self.lx_rttvar {
                        self.lx_rttvar -= (self.lx_rttvar - self.mdev_max) >> 2;
                    }
                    self.rtt_seq = snd_nxt;
                    self.mdev_max = rto_min;
                }
            }
            None => {
                self.srtt8 = m << 3;
                self.mdev = m << 1; // "make sure rto = 3*rtt"
                self.mdev_max = self.mdev.max(rto_min);
                self.lx_rttvar = self.mdev_max;
                self.rtt_seq = snd_nxt;
            }
        }
        self.srtt = Some(Dur((self.srtt8 >> 3).max(1) as u64));
        self.rttvar = Dur((self.lx_rttvar / 4) as u64);
        let srtt = (self.srtt8 >> 3) as u64;
        // __tcp_set_rto: SRTT + rttvar; tcp_bound_rto: at most TCP_RTO_MAX.
        self.base = Dur(srtt + self.lx_rttvar as u64).min(self.cfg.max);
        self.backoffs = 0;
    }

    /// (5.5): double the RTO after a timeout (kept within max by `rto()`).
    pub fn back_off(&mut self) {
        if self.rto() < self.cfg.max {
            self.backoffs += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Dur {
        Dur::from_ms(v)
    }

    #[test]
    fn initial_rto_before_any_sample() {
        assert_eq!(RtoEstimator::new(RtoConfig::default()).rto(), ms(1000));
    }

    #[test]
    fn first_and_second_samples_follow_rfc6298() {
        let mut e = RtoEstimator::new(RtoConfig { min: Dur::ZERO, ..RtoConfig::default() });
        // (2.2) R = 100 ms: SRTT 100, RTTVAR 50, RTO = 100 + 200 = 300 ms.
        e.sample(ms(100));
        assert_eq!(e.rto(), ms(300));
        // (2.3) R' = 200 ms: RTTVAR = 3/4*50 + 1/4*100 = 62.5; SRTT = 7/8*100 + 1/8*200 = 112.5;
        // RTO = 112.5 + 250 = 362.5 ms.
        e.sample(ms(200));
        assert_eq!(e.srtt(), Some(Dur(112_500_000)));
        assert_eq!(e.rttvar(), Dur(62_500_000));
        assert_eq!(e.rto(), Dur(362_500_000));
    }

    #[test]
    fn minimum_clamps_small_rtts() {
        // (2.4): 10 ms RTT gives 30 ms, raised to the 200 ms minimum; NS-2's 1 s minimum and 0.
        let mut e = RtoEstimator::new(RtoConfig::default());
        e.sample(ms(10));
        assert_eq!(e.rto(), ms(200));
        let mut ns2 = RtoEstimator::new(RtoConfig { min: ms(1000), ..RtoConfig::default() });
        ns2.sample(ms(10));
        assert_eq!(ns2.rto(), ms(1000));
        let mut zero = RtoEstimator::new(RtoConfig { min: Dur::ZERO, ..RtoConfig::default() });
        zero.sample(ms(10));
        assert_eq!(zero.rto(), ms(30));
    }

    #[test]
    fn timeouts_double_up_to_the_maximum_and_a_sample_resets() {
        let mut e = RtoEstimator::new(RtoConfig::default());
        e.sample(ms(100)); // RTO 300 ms
        e.back_off();
        assert_eq!(e.rto(), ms(600));
        e.back_off();
        assert_eq!(e.rto(), ms(1200));
        for _ in 0..20 {
            e.back_off();
        }
        assert_eq!(e.rto(), ms(120_000), "(2.5) maximum");
        e.sample(ms(100));
        assert_eq!(e.backoffs(), 0, "(5.7) recomputed after a new sample");
        assert!(e.rto() < ms(1000));
    }

    #[test]
    fn clock_granularity_bounds_the_variance_term() {
        // RFC 6298 (2.2) with G = 10 ms (NS-2 tcpTick_ 0.01 s), minimum 0: R = 4 ms gives
        // SRTT 4, RTTVAR 2, RTO = 4 + max(10, 8) = 14 ms (hand computation).
        let cfg = RtoConfig { min: Dur::ZERO, granularity: ms(10), ..RtoConfig::default() };
        let mut e = RtoEstimator::new(cfg);
        e.sample(ms(4));
        assert_eq!(e.rto(), ms(14));
        // A large variance wins over G: R = 40 ms gives 40 + max(10, 80) = 120 ms.
        let mut e = RtoEstimator::new(cfg);
        e.sample(ms(40));
        assert_eq!(e.rto(), ms(120));
    }

    #[test]
    fn linux_holds_the_variance_at_the_minimum_above_srtt() {
        // tcp_rtt_estimator, hand computed: first sample 40 ms: SRTT 40, mdev 80, rttvar
        // max(80, 200) = 200: RTO 240 ms (RFC 6298: max(200, 40 + 80) = 200).
        let cfg = RtoConfig { linux: true, ..RtoConfig::default() };
        let mut e = RtoEstimator::new(cfg);
        e.sample_at(ms(40), 1, 100);
        assert_eq!(e.rto(), ms(240));
        // 48 ms within the same RTT (snd_una 50 <= rtt_seq 100): m = 48 - 40 = 8; SRTT 41;
        // mdev = 80 + 8 - 80/4 = 68 < mdev_max 200: rttvar stays 200: RTO 241 ms.
        e.sample_at(ms(48), 50, 150);
        assert_eq!(e.srtt(), Some(ms(41)));
        assert_eq!(e.rto(), ms(241));
        // A steady 41 ms for many RTTs: the variance term never falls below the minimum.
        for k in 0..50u64 {
            e.sample_at(ms(41), 200 + 100 * k, 300 + 100 * k);
        }
        assert!(e.rto() >= e.srtt().unwrap() + ms(200));
        assert!(e.rto() < ms(242));
        // A jump to 300 ms: m = 259, SRTT = 41 + 259/8 = 73.4; mdev (about 0 by now) + 259 =
        // 259 > 200 becomes rttvar: RTO = 73.4 + 259 = 332.4 ms (RFC: 73.4 + 4 x 64.8 = 332).
        e.sample_at(ms(300), 10_000, 10_100);
        assert!(e.rto() > ms(332) && e.rto() < ms(333), "{:?}", e.rto());
    }
}
