//! Retransmission timeout per RFC 6298, or as Linux computes it (`tcp_rtt_estimator`), with
//! Karn's rule left to the caller (it decides which samples are valid) and configurable
//! minimum, maximum and initial values.

use crate::time::{Dur, SimTime};

crate::names::names! {
    /// What the RTT samples are counted in when the timers run on a jiffy clock
    /// (`tcp.rtt_clock`, with [`RtoConfig::clock_hz`]).
    #[derive(Default)]
    pub enum RttClock {
        /// Jiffies, as the timers (Linux up to 3.14: `tcp_time_stamp` = jiffies, `srtt` in
        /// ticks).
        #[default]
        Jiffies = "jiffies",
        /// Microseconds (Linux 3.15+: `srtt_us`, `tcp_rtt_estimator(sk, long mrtt_us)`); the
        /// RTO alone becomes jiffies, rounded up (`__tcp_set_rto`: `usecs_to_jiffies`).
        Us = "us",
    }
}

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
    /// Linux 3.x's jiffy clock [Hz] (`tcp_time_stamp` = jiffies, CONFIG_HZ): RTT samples in
    /// whole ticks ([`RtoConfig::measured`]), the RTO computed and kept in whole ticks, its
    /// timer firing on a tick ([`RtoConfig::timer_at`]). None: the nanosecond clock.
    pub clock_hz: Option<u32>,
    /// With [`clock_hz`](Self::clock_hz): RTT samples and the estimator in jiffies (3.x) or
    /// at the nanosecond clock with only the RTO and the timers in jiffies (3.15+).
    pub rtt_clock: RttClock,
}

/// Ticks of a `hz` clock in `ns`, rounded down (`up`: rounded up).
fn ticks(ns: u64, hz: u32, up: bool) -> u64 {
    let scaled = u128::from(ns) * u128::from(hz);
    let t = if up { scaled.div_ceil(1_000_000_000) } else { scaled / 1_000_000_000 };
    t.min(u128::from(u64::MAX)) as u64
}

/// Nanoseconds of `n` ticks of a `hz` clock (where tick `n` after time 0 begins), rounded up.
fn ticks_ns(n: u64, hz: u32) -> u64 {
    (u128::from(n) * 1_000_000_000).div_ceil(u128::from(hz)).min(u128::from(u64::MAX)) as u64
}

impl RtoConfig {
    /// The RTT sample the estimator takes for a segment acknowledged at `now` after `r`: `r`
    /// on the nanosecond clock; with [`clock_hz`](Self::clock_hz), Linux 3.x's
    /// `tcp_time_stamp - rcv_tsecr` (or `- scb->when` without timestamps): the jiffies at
    /// `now` less the jiffies when the segment was sent, ticks counted from time 0, so an RTT
    /// under one tick reads 0 or 1 tick depending on where the ticks fall.
    pub fn measured(&self, r: Dur, now: SimTime) -> Dur {
        match self.clock_hz {
            None => r,
            Some(_) if self.rtt_clock == RttClock::Us => r,
            Some(hz) => {
                let sent = now.ns().saturating_sub(r.ns());
                Dur(ticks_ns(ticks(now.ns(), hz, false) - ticks(sent, hz, false), hz))
            }
        }
    }

    /// When a retransmission timer armed at `now` to expire at `at` fires: `at` on the
    /// nanosecond clock; with [`clock_hz`](Self::clock_hz), on the tick Linux's timer wheel
    /// runs it (`jiffies + rto` with jiffies counted at `now`: the last tick at or before
    /// `at`), never before the next tick after `now`.
    pub fn timer_at(&self, at: SimTime, now: SimTime) -> SimTime {
        match self.clock_hz {
            None => at,
            Some(hz) => {
                let tick = ticks(at.ns(), hz, false).max(ticks(now.ns(), hz, false) + 1);
                SimTime(ticks_ns(tick, hz))
            }
        }
    }

    /// `d` in the estimator's units: ns, or ticks of the jiffy clock (rounded down; `up`:
    /// rounded up, as `msecs_to_jiffies`).
    fn units(&self, d: Dur, up: bool) -> u64 {
        self.clock_hz.map_or(d.ns(), |hz| ticks(d.ns(), hz, up))
    }

    /// `u` of the estimator's units as a duration.
    fn dur(&self, u: u64) -> Dur {
        Dur(self.clock_hz.map_or(u, |hz| ticks_ns(u, hz)))
    }

    /// True if the estimator counts in jiffies (3.x), false if in ns (no jiffy clock, or 3.15+'s
    /// microsecond RTT).
    fn rtt_in_ticks(&self) -> bool {
        self.clock_hz.is_some() && self.rtt_clock == RttClock::Jiffies
    }

    /// `d` in the RTT estimator's units (see [`units`](Self::units)).
    fn rtt_units(&self, d: Dur, up: bool) -> u64 {
        if self.rtt_in_ticks() {
            self.units(d, up)
        } else {
            d.ns()
        }
    }

    /// `u` of the RTT estimator's units as a duration.
    fn rtt_dur(&self, u: u64) -> Dur {
        if self.rtt_in_ticks() {
            self.dur(u)
        } else {
            Dur(u)
        }
    }

    /// `n` jiffies (Linux's timer constants such as `TCP_TIMEOUT_MIN`, 2 jiffies): ticks of
    /// [`clock_hz`](Self::clock_hz), milliseconds on the nanosecond clock (HZ = 1000).
    pub fn jiffies(&self, n: u64) -> Dur {
        Dur(self.clock_hz.map_or(n * 1_000_000, |hz| ticks_ns(n, hz)))
    }

    /// `d` rounded up to a whole number of ticks, unchanged on the nanosecond clock: Linux's
    /// `msecs_to_jiffies` and `usecs_to_jiffies` (3.15+ turns its microsecond timeouts into
    /// timer jiffies this way).
    pub fn to_jiffies(&self, d: Dur) -> Dur {
        self.dur(self.units(d, true))
    }
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
            clock_hz: None,
            rtt_clock: RttClock::Jiffies,
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
        let base = cfg.to_jiffies(cfg.initial.max(cfg.min).min(cfg.max));
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
        // Linux doubles icsk_rto in jiffies (tcp_retransmit_timer): whole ticks stay whole.
        let cfg = &self.cfg;
        cfg.dur(cfg.units(self.base, false).saturating_mul(factor)).min(cfg.to_jiffies(cfg.max))
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
        // (2.2)/(2.3): RTO = SRTT + max(G, 4 RTTVAR) (G at least 1 ns, or one tick of the jiffy
        // clock); (2.4) and (2.5): clamps; with the jiffy clock rounded up to a whole tick.
        let srtt = self.srtt.unwrap_or(r);
        let g = self.cfg.granularity.max(self.cfg.dur(1));
        let rto = srtt + Dur((4 * self.rttvar.ns()).max(g.ns()).max(1));
        self.base = self.cfg.to_jiffies(rto.max(self.cfg.min).min(self.cfg.max));
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
        // In ns, or in jiffies with the jiffy clock and RttClock::Jiffies, as Linux 3.x keeps
        // srtt and mdev (so its shifts drop the fractions of a tick). tcp_rtt_estimator: "if (m == 0) m = 1;".
        let cfg = self.cfg;
        let rto_min = cfg.rtt_units(cfg.min, true) as i64;
        let mut m = (cfg.rtt_units(r, false) as i64).max(1);
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
        self.srtt = Some(cfg.rtt_dur((self.srtt8 >> 3).max(1) as u64));
        self.rttvar = cfg.rtt_dur((self.lx_rttvar / 4) as u64);
        let srtt = (self.srtt8 >> 3) as u64;
        // __tcp_set_rto: SRTT + rttvar (3.15+: usecs_to_jiffies of it, rounded up to a tick);
        // tcp_bound_rto: at most TCP_RTO_MAX.
        let rto = cfg.rtt_dur(srtt + self.lx_rttvar as u64);
        let rto = if cfg.rtt_in_ticks() { rto } else { cfg.to_jiffies(rto) };
        self.base = rto.min(cfg.to_jiffies(cfg.max));
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

    fn at(ms: f64) -> SimTime {
        SimTime((ms * 1e6).round() as u64)
    }

    #[test]
    fn the_jiffy_clock_reads_an_rtt_in_whole_ticks_counted_from_time_zero() {
        // Linux 3.2/3.12 tcp_ack_saw_tstamp: tcp_time_stamp - rcv_tsecr, both jiffies (and
        // tcp_clean_rtx_queue's now - scb->when without timestamps). HZ 100: a 10 ms tick; a
        // 4 ms RTT reads 0 ticks inside one tick, 1 across a tick boundary.
        let hz100 = RtoConfig { clock_hz: Some(100), ..RtoConfig::default() };
        assert_eq!(hz100.measured(ms(4), at(5.0)), Dur::ZERO, "sent at 1 ms: jiffies 0 -> 0");
        assert_eq!(hz100.measured(ms(4), at(12.0)), ms(10), "sent at 8 ms: 0 -> 1");
        assert_eq!(hz100.measured(ms(25), at(28.0)), ms(20), "3 ms -> 28 ms: 0 -> 2");
        assert_eq!(hz100.measured(ms(22), at(31.0)), ms(30), "9 ms -> 31 ms: 0 -> 3");
        // HZ 250 (Debian's x86 kernels): 4 ms ticks; HZ 300: 3.33 ms, a tick
        // being no whole number of ns, rounded up.
        let hz250 = RtoConfig { clock_hz: Some(250), ..RtoConfig::default() };
        assert_eq!(hz250.measured(ms(5), at(8.0)), ms(8), "3 ms -> 8 ms: 0 -> 2");
        let hz300 = RtoConfig { clock_hz: Some(300), ..RtoConfig::default() };
        assert_eq!(hz300.measured(ms(5), at(7.0)), Dur(6_666_667), "2 ms -> 7 ms: 0 -> 2");
        // The nanosecond clock takes the sample as it is.
        assert_eq!(RtoConfig::default().measured(Dur(4_000_001), at(5.0)), Dur(4_000_001));
    }

    #[test]
    fn linux_estimator_on_the_jiffy_clock_keeps_whole_ticks() {
        // Linux 3.x tcp_rtt_estimator and __tcp_set_rto in jiffies, HZ 100, by hand:
        // TCP_RTO_MIN = HZ / 5 = 20 ticks, TCP_TIMEOUT_INIT = HZ = 100 ticks.
        let cfg = RtoConfig { linux: true, clock_hz: Some(100), ..RtoConfig::default() };
        let mut e = RtoEstimator::new(cfg);
        assert_eq!(e.rto(), ms(1000));
        // 0 ticks counts as 1 ("if (m == 0) m = 1"): srtt 8 (x 8), mdev 2, rttvar max(2, 20)
        // = 20: RTO = 1 + 20 = 21 ticks.
        e.sample_at(Dur::ZERO, 1, 100);
        assert_eq!((e.srtt(), e.rto()), (Some(ms(10)), ms(210)));
        // 2 ticks within the same RTT: m = 2 - 1 = 1, srtt 9 (SRTT 9 >> 3 = 1 tick), mdev 2 + 1
        // - 0 = 3 < 20: RTO 21 ticks. The same samples in ns keep the eighth: 211.25 ms.
        e.sample_at(ms(20), 50, 150);
        assert_eq!((e.srtt(), e.rto()), (Some(ms(10)), ms(210)));
        let mut ns = RtoEstimator::new(RtoConfig { linux: true, ..RtoConfig::default() });
        ns.sample_at(ms(10), 1, 100);
        ns.sample_at(ms(20), 50, 150);
        assert_eq!((ns.srtt(), ns.rto()), (Some(Dur(11_250_000)), Dur(211_250_000)));
        // tcp_retransmit_timer doubles icsk_rto in ticks.
        e.back_off();
        assert_eq!(e.rto(), ms(420));
        // Whatever the samples and backoffs, the RTO is a whole number of ticks.
        for k in 0..200u64 {
            e.sample_at(Dur(k * 1_234_567 % 90_000_000), 200 + k, 300 + k);
            for b in 0..3 {
                assert_eq!(e.rto().ns() % 10_000_000, 0, "sample {k}, {b} backoffs: {:?}", e.rto());
                e.back_off();
            }
        }
    }

    #[test]
    fn microsecond_rtt_keeps_the_samples_and_rounds_only_the_rto_to_ticks() {
        // Linux 3.15+ at HZ 250: tcp_rtt_estimator in microseconds, __tcp_set_rto =
        // usecs_to_jiffies(srtt + rttvar). By hand: a 4.5 ms sample is read as 4.5 ms (3.x's
        // jiffies would read 0 or 1 tick); srtt 4.5 ms, mdev 9 ms, rttvar max(9, 200) = 200 ms:
        // RTO 204.5 ms, rounded up to 52 ticks of 4 ms = 208 ms; backoff doubles the ticks.
        let cfg =
            RtoConfig { linux: true, clock_hz: Some(250), rtt_clock: RttClock::Us, ..RtoConfig::default() };
        let sample = Dur(4_500_000);
        assert_eq!(cfg.measured(sample, SimTime(10_300_000)), sample);
        let mut e = RtoEstimator::new(cfg);
        e.sample_at(sample, 1, 100);
        assert_eq!((e.srtt(), e.rto()), (Some(sample), ms(208)));
        e.back_off();
        assert_eq!(e.rto(), ms(416));
        // The same sample on 3.x's jiffy clock: 1 tick (4 ms) read at the tick boundary, RTO
        // 1 + 50 ticks = 204 ms.
        let jiffies = RtoConfig { rtt_clock: RttClock::Jiffies, ..cfg };
        let r = jiffies.measured(sample, SimTime(10_300_000));
        assert_eq!(r, ms(4), "sent at 5.8 ms (tick 1), acknowledged at 10.3 ms (tick 2)");
        let mut e = RtoEstimator::new(jiffies);
        e.sample_at(r, 1, 100);
        assert_eq!((e.srtt(), e.rto()), (Some(ms(4)), ms(204)));
        // Without clock_hz the setting is ignored: the nanosecond clock throughout.
        let ns = RtoConfig { clock_hz: None, ..cfg };
        let mut e = RtoEstimator::new(ns);
        e.sample_at(sample, 1, 100);
        assert_eq!(e.rto(), Dur(204_500_000));
    }

    #[test]
    fn rfc6298_on_the_jiffy_clock_rounds_the_rto_up_to_a_tick() {
        // (2.2)/(2.3) with G = one tick (HZ 100: 10 ms), minimum 0, by hand: R = 10 ms: SRTT
        // 10, RTTVAR 5, RTO = 10 + max(10, 20) = 30 ms; R = 0 (a sample under a tick): RTTVAR
        // 3.75 + 2.5 = 6.25, SRTT 8.75, RTO = 8.75 + 25 = 33.75 ms, up to 40 ms.
        let cfg = RtoConfig { min: Dur::ZERO, clock_hz: Some(100), ..RtoConfig::default() };
        let mut e = RtoEstimator::new(cfg);
        e.sample(ms(10));
        assert_eq!(e.rto(), ms(30));
        e.sample(Dur::ZERO);
        assert_eq!(e.rto(), ms(40));
        // A first sample of 0 ticks: SRTT 0, RTTVAR 0: the tick bounds the variance term.
        let mut e = RtoEstimator::new(cfg);
        e.sample(Dur::ZERO);
        assert_eq!(e.rto(), ms(10));
    }

    #[test]
    fn the_jiffy_clock_runs_a_timer_on_a_tick() {
        // Linux: expires = jiffies + rto, run by the timer wheel when jiffies gets there. HZ
        // 100, armed at 3 ms (jiffies 0) for 21 ticks: it fires at tick 21, 210 ms, not 213.
        let cfg = RtoConfig { clock_hz: Some(100), ..RtoConfig::default() };
        assert_eq!(cfg.timer_at(at(213.0), at(3.0)), at(210.0));
        assert_eq!(cfg.timer_at(at(219.9), at(9.9)), at(210.0));
        assert_eq!(cfg.timer_at(at(220.0), at(10.0)), at(220.0));
        // Never on the arming tick or before: at least the next one.
        assert_eq!(cfg.timer_at(at(6.0), at(5.0)), at(10.0));
        // The nanosecond clock: as armed.
        assert_eq!(RtoConfig::default().timer_at(at(213.0), at(3.0)), at(213.0));
        // TCP_TIMEOUT_MIN (2 jiffies) and msecs_to_jiffies(2) at HZ 100: 20 and 10 ms; at the
        // nanosecond clock (HZ 1000 for the constants): 2 and 2 ms.
        assert_eq!((cfg.jiffies(2), cfg.to_jiffies(Dur::from_ms(2))), (Dur::from_ms(20), Dur::from_ms(10)));
        let ns = RtoConfig::default();
        assert_eq!((ns.jiffies(2), ns.to_jiffies(Dur::from_ms(2))), (Dur::from_ms(2), Dur::from_ms(2)));
    }
}
