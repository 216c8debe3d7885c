//! Time-correlated Rayleigh fading with a Doppler spectrum: the complex gain of a link as a
//! pure function of `(seed, link_key, t)`.
//!
//! The generator is Zheng and Xiao's improved sum of sinusoids (Y. R. Zheng, C. Xiao,
//! "Improved models for the generation of multiple uncorrelated Rayleigh fading waveforms",
//! IEEE Commun. Lett. 6(6):256-258, 2002, eq. (8)):
//!
//! X(t) = M^(-1/2) [ sum_n cos(w_d t cos a_n + phi_n) + j sum_n cos(w_d t sin a_n + psi_n) ],
//! a_n = (2 pi n - pi + theta) / (4 M), n = 1..M,
//!
//! with theta, phi_n and psi_n independent and uniform on [-pi, pi), w_d = 2 pi f_D. Its
//! in-phase and quadrature parts each have the autocorrelation J0(w_d tau) / 2 and are
//! uncorrelated, so E[X(t) X*(t + tau)] = J0(2 pi f_D tau) (Clarke's isotropic scattering),
//! and the power gain |X(t)|^2 is exponential with mean 1. The random parameters are drawn
//! from the hash of `(seed, link_key)` ([`Draws`]), so a link's channel is the same whatever
//! else the run does (common random numbers) and nothing is stored between calls.

use crate::rng::{Draws, TAG_DOPPLER};
use crate::time::SimTime;
use std::f64::consts::PI;

crate::names::names! {
    /// When the receiver estimates the channel it equalizes with (`channel.radio.estimation`).
    #[derive(Default)]
    pub enum Estimation {
        /// It knows the channel at every instant (airtcp's behaviour before the switch): a
        /// subframe sees the SINR of the frame's start.
        #[default]
        Ideal = "ideal",
        /// Once, from the PPDU's preamble (802.11n's HT-LTFs; no midamble): a subframe decoded
        /// at time t against the estimate h(0) sees SINR |h(0)|^2 S / (N + I + |h(0) - h(t)|^2
        /// S), its error growing as the channel drifts (Byeon et al.'s MoFA model).
        Preamble = "preamble",
    }
}

/// The aging of the preamble's estimate at a later instant: |h(t) - h(0)|^2 / |h(0)|^2 for the
/// coefficients `h0` at the estimate and `ht` at the subframe (infinite when h(0) is 0).
pub fn aging(h0: (f64, f64), ht: (f64, f64)) -> f64 {
    let p0 = h0.0 * h0.0 + h0.1 * h0.1;
    let (dr, di) = (ht.0 - h0.0, ht.1 - h0.1);
    (dr * dr + di * di) / p0
}

/// The effective SINR of a chunk at SINR `sinr` (linear, at the estimate's instant) decoded
/// with an estimate aged by `aging` ([`aging`]): sig / (noise + I + aging sig) =
/// 1 / (1 / sinr + aging).
pub fn aged_sinr(sinr: f64, aging: f64) -> f64 {
    1.0 / (1.0 / sinr + aging)
}

/// Sinusoids per quadrature component (M). Zheng and Xiao show the statistics close to
/// Clarke's from M = 8; 16 keeps the autocorrelation of a single realization within a few
/// per cent of J0 over the first Doppler periods at about 32 cosines per evaluation.
pub const SINUSOIDS: usize = 16;

/// One link's sum of sinusoids: its arrival angles' cosines and sines and its phases, drawn
/// once from `(seed, link_key)` (the draws of [`coefficient`]), so a receiver that evaluates
/// the channel at many instants (each subframe of an A-MPDU) draws them once.
#[derive(Clone, Copy, Debug)]
pub struct SosLink {
    cos_a: [f64; SINUSOIDS],
    sin_a: [f64; SINUSOIDS],
    phi: [f64; SINUSOIDS],
    psi: [f64; SINUSOIDS],
}

impl SosLink {
    pub fn new(seed: u64, link_key: u64) -> SosLink {
        let mut d = Draws::new(TAG_DOPPLER, seed, link_key, 0);
        // theta, then (phi_n, psi_n) for n = 1..M: uniforms on [-pi, pi).
        let theta = 2.0 * PI * d.open01() - PI;
        let mut s = SosLink {
            cos_a: [0.0; SINUSOIDS],
            sin_a: [0.0; SINUSOIDS],
            phi: [0.0; SINUSOIDS],
            psi: [0.0; SINUSOIDS],
        };
        for k in 0..SINUSOIDS {
            s.phi[k] = 2.0 * PI * d.open01() - PI;
            s.psi[k] = 2.0 * PI * d.open01() - PI;
            let a = (2.0 * PI * (k + 1) as f64 - PI + theta) / (4.0 * SINUSOIDS as f64);
            (s.sin_a[k], s.cos_a[k]) = a.sin_cos();
        }
        s
    }

    /// The complex gain at `t` under Doppler frequency `doppler_hz` (in-phase, quadrature).
    pub fn at(&self, doppler_hz: f64, t: SimTime) -> (f64, f64) {
        self.at_angle(2.0 * PI * doppler_hz * (t.ns() as f64 * 1e-9))
    }

    /// The complex gain where the Doppler phase w_d t of eq. (8) is `wt` [rad]: 2 pi f_D t for
    /// a channel that changes in time, 2 pi s / lambda for an end that has travelled s through
    /// the scattered field (Clarke's model is the field a receiver moving at v sees, f_D = v /
    /// lambda), their sum for both.
    pub fn at_angle(&self, wt: f64) -> (f64, f64) {
        let (mut re, mut im) = (0.0, 0.0);
        for k in 0..SINUSOIDS {
            re += (wt * self.cos_a[k] + self.phi[k]).cos();
            im += (wt * self.sin_a[k] + self.psi[k]).cos();
        }
        let scale = 1.0 / (SINUSOIDS as f64).sqrt();
        (re * scale, im * scale)
    }
}

/// A link's channel followed forward in time: each sinusoid kept as a unit phasor, so moving
/// by a step it took before costs a complex multiplication per sinusoid instead of a cosine
/// (the subframes of an A-MPDU are evenly spaced). Agrees with [`SosLink::at`] to rounding
/// (about 1e-15 per step).
#[derive(Clone, Copy, Debug)]
pub struct SosWalk {
    link: SosLink,
    doppler_hz: f64,
    /// Where a walk of [`SosWalk::from_angle`] began: its time and Doppler phase (`None`: the
    /// phase is 2 pi f_D t, [`SosWalk::new`]).
    origin: Option<(SimTime, f64)>,
    t: SimTime,
    /// (cos, sin) of each sinusoid's angle at `t`: the in-phase ones, then the quadrature ones.
    phase: [(f64, f64); 2 * SINUSOIDS],
    /// The last two steps [ns] and each sinusoid's rotation over them, the latest first: an
    /// A-MPDU's walk takes a first step (the preamble to the first subframe's middle) and then
    /// equal ones, so the next A-MPDU of the link finds both ([`SosWalk::restart`]).
    step_ns: [u64; 2],
    step: [[(f64, f64); 2 * SINUSOIDS]; 2],
}

impl SosWalk {
    pub fn new(link: SosLink, doppler_hz: f64, t: SimTime) -> SosWalk {
        let mut w = SosWalk::from_angle(link, doppler_hz, t, 2.0 * PI * doppler_hz * (t.ns() as f64 * 1e-9));
        w.origin = None;
        w
    }

    /// A walk from the Doppler phase `wt` ([`SosLink::at_angle`]) at `t`, on at `doppler_hz`
    /// (a node's motion: the environment's Doppler plus the ends' speeds over the wavelength).
    pub fn from_angle(link: SosLink, doppler_hz: f64, t: SimTime, wt: f64) -> SosWalk {
        let mut w = SosWalk {
            link,
            doppler_hz,
            origin: Some((t, wt)),
            t,
            phase: [(1.0, 0.0); 2 * SINUSOIDS],
            step_ns: [0; 2],
            step: [[(1.0, 0.0); 2 * SINUSOIDS]; 2],
        };
        w.set_phases(wt);
        w
    }

    fn set_phases(&mut self, wt: f64) {
        let link = &self.link;
        for k in 0..SINUSOIDS {
            let (s, c) = (wt * link.cos_a[k] + link.phi[k]).sin_cos();
            self.phase[k] = (c, s);
            let (s, c) = (wt * link.sin_a[k] + link.psi[k]).sin_cos();
            self.phase[SINUSOIDS + k] = (c, s);
        }
    }

    /// The same link's walk begun afresh at `t` on at `doppler_hz`, from the Doppler phase `wt`
    /// (`None`: 2 pi f_D t, as [`SosWalk::new`]): exactly the walk `new` or `from_angle` would
    /// build, keeping the rotations of the steps already taken when the Doppler is the same.
    pub fn restart(&mut self, doppler_hz: f64, t: SimTime, wt: Option<f64>) {
        if doppler_hz != self.doppler_hz {
            // Other rotations: none kept (a step of 0 is the identity, as in `new`).
            self.step_ns = [0; 2];
            self.step = [[(1.0, 0.0); 2 * SINUSOIDS]; 2];
            self.doppler_hz = doppler_hz;
        }
        let angle = wt.unwrap_or(2.0 * PI * doppler_hz * (t.ns() as f64 * 1e-9));
        self.origin = wt.map(|w| (t, w));
        self.t = t;
        self.set_phases(angle);
    }

    /// The complex gain at the walk's time (in-phase, quadrature).
    pub fn value(&self) -> (f64, f64) {
        let re: f64 = self.phase[..SINUSOIDS].iter().map(|p| p.0).sum();
        let im: f64 = self.phase[SINUSOIDS..].iter().map(|p| p.0).sum();
        let scale = 1.0 / (SINUSOIDS as f64).sqrt();
        (re * scale, im * scale)
    }

    /// Move to `t` (a time before the walk's starts it afresh there) and return the gain.
    pub fn advance_to(&mut self, t: SimTime) -> (f64, f64) {
        if t < self.t {
            match self.origin {
                None => {
                    self.restart(self.doppler_hz, t, None);
                    return self.value();
                }
                Some((t0, wt0)) if t <= t0 => {
                    let wt = wt0 - 2.0 * PI * self.doppler_hz * ((t0.ns() - t.ns()) as f64 * 1e-9);
                    self.restart(self.doppler_hz, t, Some(wt));
                    return self.value();
                }
                Some((t0, wt0)) => self.restart(self.doppler_hz, t0, Some(wt0)),
            }
        }
        let d = t.ns() - self.t.ns();
        if d != self.step_ns[0] {
            if d == self.step_ns[1] {
                self.step.swap(0, 1);
                self.step_ns.swap(0, 1);
            } else {
                self.step[1] = self.step[0];
                self.step_ns[1] = self.step_ns[0];
                let wd = 2.0 * PI * self.doppler_hz * (d as f64 * 1e-9);
                for k in 0..SINUSOIDS {
                    let (s, c) = (wd * self.link.cos_a[k]).sin_cos();
                    self.step[0][k] = (c, s);
                    let (s, c) = (wd * self.link.sin_a[k]).sin_cos();
                    self.step[0][SINUSOIDS + k] = (c, s);
                }
                self.step_ns[0] = d;
            }
        }
        for (p, r) in self.phase.iter_mut().zip(&self.step[0]) {
            *p = (p.0 * r.0 - p.1 * r.1, p.0 * r.1 + p.1 * r.0);
        }
        self.t = t;
        self.value()
    }
}

/// The complex gain of link `link_key` at `t` under Doppler frequency `doppler_hz`, as
/// (in-phase, quadrature); unit mean power. `doppler_hz` = 0 is a channel that never changes.
pub fn coefficient(seed: u64, link_key: u64, doppler_hz: f64, t: SimTime) -> (f64, f64) {
    SosLink::new(seed, link_key).at(doppler_hz, t)
}

/// The power gain |X(t)|^2 of [`coefficient`] (linear, mean 1).
pub fn power_gain(seed: u64, link_key: u64, doppler_hz: f64, t: SimTime) -> f64 {
    let (re, im) = coefficient(seed, link_key, doppler_hz, t);
    re * re + im * im
}

/// The Bessel function J0(x) by Abramowitz and Stegun's polynomial approximations (9.4.1 for
/// |x| <= 3, |error| < 5e-8; 9.4.3 above, |error| < 1.6e-8 in the modulus and 7e-8 in the
/// phase): the autocorrelation of Clarke's model at lag tau is J0(2 pi f_D tau).
pub fn bessel_j0(x: f64) -> f64 {
    let x = x.abs();
    if x <= 3.0 {
        let y = (x / 3.0) * (x / 3.0);
        return 1.0
            + y * (-2.249_999_7
                + y * (1.265_620_8
                    + y * (-0.316_386_6 + y * (0.044_447_9 + y * (-0.003_944_4 + y * 0.000_21)))));
    }
    let y = 3.0 / x;
    let f0 = 0.797_884_56
        + y * (-0.000_000_77
            + y * (-0.005_527_40
                + y * (-0.000_095_12 + y * (0.001_372_37 + y * (-0.000_728_05 + y * 0.000_144_76)))));
    let theta0 = x - std::f64::consts::FRAC_PI_4
        + y * (-0.041_663_97
            + y * (-0.000_039_54
                + y * (0.002_625_73 + y * (-0.000_541_25 + y * (-0.000_293_33 + y * 0.000_135_58)))));
    f0 * theta0.cos() / x.sqrt()
}

/// Clarke's level-crossing rate of the envelope at `rho` = R / R_rms: the expected number of
/// upward crossings per second, sqrt(2 pi) f_D rho exp(-rho^2) (Rappaport, "Wireless
/// Communications", 2nd ed., eq. 5.80).
pub fn level_crossing_rate(doppler_hz: f64, rho: f64) -> f64 {
    (2.0 * PI).sqrt() * doppler_hz * rho * (-rho * rho).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    #[test]
    fn j0_matches_its_integral_form() {
        // J0(x) = (1/pi) int_0^pi cos(x sin t) dt (A&S 9.1.18), Simpson with 2000 intervals.
        for &x in &[0.0, 0.5, 1.0, 2.404_825_557_7, 3.0, 3.5, 5.0, 8.0, 15.0, 40.0] {
            let n = 2000;
            let h = PI / n as f64;
            let f = |t: f64| (x * t.sin()).cos();
            let mut s = f(0.0) + f(PI);
            for k in 1..n {
                s += f(k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
            }
            let integral = s * h / 3.0 / PI;
            assert!((bessel_j0(x) - integral).abs() < 2e-7, "x = {x}: {} vs {integral}", bessel_j0(x));
        }
        // Its first zero, 2.4048255577 (A&S table 9.5).
        assert!(bessel_j0(2.404_825_557_7).abs() < 1e-7);
    }

    #[test]
    fn a_walk_follows_the_direct_sum() {
        // Evenly spaced steps (the subframes of an A-MPDU), an uneven one, one backwards: the
        // walk agrees with the direct evaluation to rounding.
        let link = SosLink::new(9, 77);
        let mut walk = SosWalk::new(link, 86.4, SimTime(1_000_000));
        let mut t = 1_000_000u64;
        for step in [95_015u64, 190_031, 190_030, 190_032, 190_031, 77, 155, 190_031, 190_031] {
            t += step;
            let (a, b) = walk.advance_to(SimTime(t));
            let (c, d) = link.at(86.4, SimTime(t));
            assert!((a - c).abs() < 1e-12 && (b - d).abs() < 1e-12, "{t}: {a} {b} against {c} {d}");
        }
        for _ in 0..60 {
            t += 190_031;
            walk.advance_to(SimTime(t));
        }
        let (a, b) = walk.value();
        let (c, d) = link.at(86.4, SimTime(t));
        assert!((a - c).abs() < 1e-11 && (b - d).abs() < 1e-11);
        assert_eq!(walk.advance_to(SimTime(5_000)), link.at(86.4, SimTime(5_000)));
    }

    #[test]
    fn a_restarted_walk_is_the_walk_new_builds() {
        // Restarted at another Doppler (a node's speed changed), the walk forgets the old
        // rotations: a step of 0 stays put and later steps follow the direct sum.
        let link = SosLink::new(4, 12);
        let mut walk = SosWalk::new(link, 30.0, SimTime(1_000_000));
        walk.advance_to(SimTime(1_131_138));
        walk.advance_to(SimTime(1_321_169));
        walk.restart(50.0, SimTime(2_000_000), None);
        assert_eq!(walk.advance_to(SimTime(2_000_000)), link.at(50.0, SimTime(2_000_000)));
        let (a, b) = walk.advance_to(SimTime(2_131_138));
        let (c, d) = link.at(50.0, SimTime(2_131_138));
        assert!((a - c).abs() < 1e-12 && (b - d).abs() < 1e-12);
        // At the same Doppler the kept rotations serve the next PPDU: still the direct sum.
        walk.restart(50.0, SimTime(3_000_000), None);
        let (a, b) = walk.advance_to(SimTime(3_131_138));
        let (c, d) = link.at(50.0, SimTime(3_131_138));
        assert!((a - c).abs() < 1e-12 && (b - d).abs() < 1e-12);
    }

    #[test]
    fn the_gain_is_a_pure_function_of_seed_link_and_time() {
        let t = SimTime(123_456_789);
        assert_eq!(coefficient(7, 42, 30.0, t), coefficient(7, 42, 30.0, t));
        assert_ne!(coefficient(7, 42, 30.0, t), coefficient(7, 43, 30.0, t));
        assert_ne!(coefficient(7, 42, 30.0, t), coefficient(8, 42, 30.0, t));
        // Standing still (f_D = 0) the channel never changes.
        assert_eq!(coefficient(7, 42, 0.0, t), coefficient(7, 42, 0.0, SimTime(9_000_000_000)));
    }

    #[test]
    fn the_autocorrelation_is_clarkes_j0() {
        // E[X(t) X*(t + tau)] over 20,000 links (each at its own t) against J0(2 pi f_D tau),
        // f_D = 50 Hz, lags to 2.5 Doppler periods: each estimate is a mean of 20,000 products
        // of variance about 1 (standard error 0.007); the bound, 0.02 of the unit power, is
        // Clarke's within 2 % of its peak (issue 35).
        let fd = 50.0;
        let links = 20_000u64;
        for lag_ms in [0.0, 1.0, 2.0, 4.0, 7.65, 10.0, 15.0, 25.0, 50.0] {
            let tau = Dur((lag_ms * 1e6) as u64);
            let mut acc = 0.0;
            for k in 0..links {
                let t0 = SimTime(k * 1_234_567);
                let (a, b) = coefficient(3, k, fd, t0);
                let (c, d) = coefficient(3, k, fd, t0 + tau);
                acc += a * c + b * d; // Re[X(t) X*(t + tau)]
            }
            let r = acc / links as f64;
            let j0 = bessel_j0(2.0 * PI * fd * lag_ms * 1e-3);
            assert!((r - j0).abs() < 0.02, "lag {lag_ms} ms: {r:.4} against J0 = {j0:.4}");
        }
    }

    #[test]
    fn an_estimate_ages_as_the_channel_decorrelates() {
        // By hand: h(0) = 0.6 + 0.8j (|h(0)|^2 = 1), h(t) = 0.6 + 0.5j: |h(t) - h(0)|^2 = 0.09,
        // so aging 0.09; a 30 dB chunk (1000) decoded with it: 1 / (0.001 + 0.09) = 10.99.
        let a = aging((0.6, 0.8), (0.6, 0.5));
        assert!((a - 0.09).abs() < 1e-12);
        assert!((aged_sinr(1000.0, a) - 1.0 / 0.091).abs() < 1e-9);
        assert_eq!(aged_sinr(1000.0, 0.0), 1000.0);
        assert_eq!(aging((0.0, 0.0), (0.1, 0.0)), f64::INFINITY);
        assert_eq!(aged_sinr(1000.0, f64::INFINITY), 0.0);
        // In expectation |h(t) - h(0)|^2 = 2 (1 - J0(2 pi f_D t)) (Clarke, unit power): 20,000
        // links at f_D = 50 Hz, t = 2 and 5 ms: 0.1926 and 0.7556 (J0 0.9037, 0.6222).
        for t_ms in [2u64, 5] {
            let n = 20_000u64;
            let mean = (0..n)
                .map(|k| {
                    let (a, b) = coefficient(13, k, 50.0, SimTime(k * 777_777));
                    let (c, d) = coefficient(13, k, 50.0, SimTime(k * 777_777 + t_ms * 1_000_000));
                    (c - a) * (c - a) + (d - b) * (d - b)
                })
                .sum::<f64>()
                / n as f64;
            let want = 2.0 * (1.0 - bessel_j0(2.0 * PI * 50.0 * t_ms as f64 * 1e-3));
            assert!((mean / want - 1.0).abs() < 0.03, "{t_ms} ms: {mean:.4} against {want:.4}");
        }
    }

    #[test]
    fn the_power_gain_is_exponential_with_mean_one() {
        // Rayleigh: P(|X|^2 < x) = 1 - exp(-x) (closed form), 20,000 links at one time; the
        // bounds are about 4 standard errors of the fractions.
        let n = 20_000u64;
        let gains: Vec<f64> = (0..n).map(|k| power_gain(11, k, 20.0, SimTime(5_000_000))).collect();
        let mean = gains.iter().sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.03, "mean {mean}");
        for x in [0.1, 0.5, 1.0, 2.0, 4.0] {
            let frac = gains.iter().filter(|&&g| g < x).count() as f64 / n as f64;
            let cdf = 1.0 - (-x).exp();
            assert!((frac - cdf).abs() < 0.015, "P(g < {x}) = {frac:.4} against {cdf:.4}");
        }
    }

    #[test]
    fn the_envelope_crosses_levels_at_clarkes_rate() {
        // Upward crossings of rho = R / R_rms in 400 links x 0.5 s at f_D = 100 Hz, sampled every
        // 50 us (200 samples per Doppler period), against sqrt(2 pi) f_D rho exp(-rho^2): about
        // 18,000 crossings at rho = 1, so the 2 % bound is about three standard errors.
        let fd = 100.0;
        let (links, steps, dt_ns) = (400u64, 10_000u64, 50_000u64);
        for rho in [0.3, 1.0] {
            let mut ups = 0u64;
            for k in 0..links {
                let mut below = power_gain(5, k, fd, SimTime::ZERO) < rho * rho;
                for s in 1..=steps {
                    let now_below = power_gain(5, k, fd, SimTime(s * dt_ns)) < rho * rho;
                    ups += u64::from(below && !now_below);
                    below = now_below;
                }
            }
            let secs = links as f64 * (steps * dt_ns) as f64 * 1e-9;
            let rate = ups as f64 / secs;
            let clarke = level_crossing_rate(fd, rho);
            assert!((rate / clarke - 1.0).abs() < 0.02, "rho {rho}: {rate:.2}/s against {clarke:.2}/s");
        }
    }
}
