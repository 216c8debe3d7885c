//! Frequency-selective multipath: the IEEE 802.11 TGn channel models B and D (V. Erceg et al.,
//! "TGn Channel Models", IEEE 802.11-03/940r4, May 2004) between one antenna at each end, and
//! the exponential effective SINR mapping (EESM) that turns the SINRs of a PPDU's data
//! subcarriers into the one SINR an AWGN error curve takes.
//!
//! A link's channel is a tapped delay line: tap l at delay tau_l carries a_l(t) = sqrt(p_l)
//! x_l(t), x_l a unit-power complex process with TGn's bell-shaped Doppler spectrum, plus on tap
//! 0 a fixed line-of-sight ray of power K p_0 where the nodes are closer than the model's
//! breakpoint (Ricean K: 0 dB for B within 5 m, 3 dB for D within 10 m; NLOS beyond). Powers are
//! normalized to a total of 1, so the wideband power gain has mean 1 like the flat models'. The
//! response of subcarrier k (at f_k = k x 312.5 kHz) is H_k(t) = sum_l a_l(t) e^(-j 2 pi f_k
//! tau_l); the subframes of one PPDU share this response and see it drift in time.
//!
//! Each x_l is a sum of [`SINUSOIDS`] complex phasors e^(j (2 pi f_n t + phi_n)) / sqrt(M) whose
//! frequencies are drawn from the bell spectrum S(f) = 1 / (1 + 9 (f / f_d)^2), |f| <= f_d (TGn
//! section 4.7: A = 9 puts S 10 dB down at f_d; f_d = v_0 / lambda, v_0 = 1.2 km/h), and whose
//! phases are uniform (Paetzold's Monte Carlo method): over links, E[x(t) x*(t + tau)] is the
//! spectrum's Fourier transform ([`bell_autocorrelation`]). All draws are hashed from
//! `(seed, link_key, tap)`, so a link's channel is a pure function of the run's seed.

use crate::phy::{ModeId, Modulation};
use crate::rng::{Draws, TAG_TGN};
use crate::time::SimTime;
use std::f64::consts::PI;

crate::names::names! {
    /// A TGn channel model (IEEE 802.11-03/940r4, Table 2 and Appendix C).
    pub enum TgnModel {
        /// Residential: 9 taps 0-80 ns, 15 ns rms delay spread, K = 0 dB within 5 m.
        B = "B",
        /// Typical office: 18 taps 0-390 ns, 50 ns rms delay spread, K = 3 dB within 10 m.
        D = "D",
    }
}

/// The most taps of a model (D).
pub const MAX_TAPS: usize = 18;
/// Phasors per tap.
pub const SINUSOIDS: usize = 16;
/// The most data subcarriers of a PPDU (HT 40 MHz).
pub const MAX_SUBCARRIERS: usize = 108;
/// OFDM subcarrier spacing, 20 MHz / 64 (17.3.2.5, 19.3.2).
pub const SUBCARRIER_SPACING_HZ: f64 = 312_500.0;

const NO: f64 = f64::NEG_INFINITY;

struct Profile {
    delays_ns: &'static [f64],
    /// Each cluster's power per tap [dB] (NO: the cluster has no ray at that tap).
    clusters_db: &'static [&'static [f64]],
    k_factor_db: f64,
    breakpoint_m: f64,
}

// IEEE 802.11-03/940r4 Appendix C, Model B: two clusters.
const MODEL_B: Profile = Profile {
    delays_ns: &[0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0],
    clusters_db: &[
        &[0.0, -5.4, -10.8, -16.2, -21.7, NO, NO, NO, NO],
        &[NO, NO, -3.2, -6.3, -9.4, -12.5, -15.6, -18.7, -21.8],
    ],
    k_factor_db: 0.0,
    breakpoint_m: 5.0,
};

// IEEE 802.11-03/940r4 Appendix C, Model D: three clusters.
const MODEL_D: Profile = Profile {
    delays_ns: &[
        0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 110.0, 140.0, 170.0, 200.0, 240.0, 290.0,
        340.0, 390.0,
    ],
    clusters_db: &[
        &[
            0.0, -0.9, -1.7, -2.6, -3.5, -4.3, -5.2, -6.1, -6.9, -7.8, -9.0, -11.1, -13.7, -16.3, -19.3,
            -23.2, NO, NO,
        ],
        &[NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, -6.6, -9.5, -12.1, -14.7, -17.4, -21.9, -25.5, NO],
        &[NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, -18.8, -23.2, -25.2, -26.7],
    ],
    k_factor_db: 3.0,
    breakpoint_m: 10.0,
};

impl TgnModel {
    fn profile(self) -> &'static Profile {
        match self {
            TgnModel::B => &MODEL_B,
            TgnModel::D => &MODEL_D,
        }
    }

    /// Number of taps.
    pub fn taps(self) -> usize {
        self.profile().delays_ns.len()
    }

    /// Tap delays [ns].
    pub fn delays_ns(self) -> &'static [f64] {
        self.profile().delays_ns
    }

    /// The distance below which the model has its line-of-sight ray [m].
    pub fn breakpoint_m(self) -> f64 {
        self.profile().breakpoint_m
    }

    /// The taps' scattered (NLOS) powers and the LOS ray's power, normalized to a total of 1
    /// (with `los`: tap 0 carries (1 + K) p_0, K p_0 of it the ray; 940r4 section 4.3).
    pub fn powers(self, los: bool) -> ([f64; MAX_TAPS], f64) {
        let prof = self.profile();
        let mut p = [0.0; MAX_TAPS];
        for cluster in prof.clusters_db {
            for (l, db) in cluster.iter().enumerate() {
                if *db > NO {
                    p[l] += 10f64.powf(db / 10.0);
                }
            }
        }
        let k = if los { 10f64.powf(prof.k_factor_db / 10.0) } else { 0.0 };
        let total: f64 = p.iter().sum::<f64>() + k * p[0];
        let los_power = k * p[0] / total;
        for x in &mut p {
            *x /= total;
        }
        (p, los_power)
    }

    /// The rms delay spread of the NLOS profile [ns] (940r4 Table 2: 15 ns for B, 50 ns for D).
    pub fn rms_delay_spread_ns(self) -> f64 {
        let (p, _) = self.powers(false);
        let d = self.delays_ns();
        let mean: f64 = d.iter().zip(&p).map(|(t, w)| t * w).sum();
        let sq: f64 = d.iter().zip(&p).map(|(t, w)| t * t * w).sum();
        (sq - mean * mean).sqrt()
    }
}

/// The data subcarriers of an OFDM mode's PPDU, as indices k (f_k = k x 312.5 kHz): 48 for
/// 802.11a/g (17.3.5.10: +-1..26 less the pilots +-7, +-21), 52 for HT 20 MHz (19.3.11.10:
/// +-1..28 less +-7, +-21), 108 for HT 40 MHz (+-2..58 less the pilots +-11, +-25, +-53); `None`
/// for DSSS/CCK, whose RAKE receiver sees the wideband power.
pub fn data_subcarriers(mode: ModeId) -> Option<&'static [i32]> {
    use std::sync::OnceLock;
    static SETS: OnceLock<[Vec<i32>; 3]> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        let set = |lo: i32, hi: i32, pilots: &[i32]| -> Vec<i32> {
            (-hi..=hi).filter(|k| k.abs() >= lo && !pilots.contains(&k.abs())).collect()
        };
        [set(1, 26, &[7, 21]), set(1, 28, &[7, 21]), set(2, 58, &[11, 25, 53])]
    });
    match mode.modulation() {
        Modulation::Dsss { .. } => None,
        Modulation::Ofdm { .. } => Some(&sets[0]),
        Modulation::Ht { width40: false, .. } => Some(&sets[1]),
        Modulation::Ht { width40: true, .. } => Some(&sets[2]),
        // The TGn channel is refused on 802.11ac and 802.11ax (spec::channel): their 80 and
        // 160 MHz subcarrier sets are not modelled.
        Modulation::Vht(_) | Modulation::He(_) => None,
    }
}

/// EESM's beta for a mode: from the Chernoff bound of the constellation's minimum distance,
/// exp(-SNR d_min^2 / 4 E_s), so 1 for BPSK and 2 (M - 1) / 3 for square M-QAM (QPSK 2,
/// 16-QAM 10, 64-QAM 42) (EESM: Ericsson, 3GPP TSG-RAN WG1 R1-031303, 2003; Bruninghaus et al.,
/// "Link performance models for system level simulations of broadband radio access systems",
/// PIMRC 2005). `None` for DSSS/CCK.
pub fn eesm_beta(mode: ModeId) -> Option<f64> {
    let (m, _) = crate::phy::error::constellation(mode)?;
    Some(if m == 2 { 1.0 } else { 2.0 * (f64::from(m) - 1.0) / 3.0 })
}

/// The effective SINR of subcarrier SINRs `sinr` (linear) under EESM with `beta`:
/// -beta ln( (1/N) sum_k exp(-sinr_k / beta) ), computed from the smallest so that high SINRs
/// never underflow.
pub fn eesm(beta: f64, sinr: &[f64]) -> f64 {
    let least = sinr.iter().copied().fold(f64::INFINITY, f64::min);
    if !least.is_finite() {
        return least.max(0.0);
    }
    let mean = sinr.iter().map(|s| (-(s - least) / beta).exp()).sum::<f64>() / sinr.len() as f64;
    least - beta * mean.ln()
}

/// The bell spectrum's autocorrelation at lag `tau_s`: the Fourier transform of S(f) = 1 / (1 +
/// 9 (f/f_d)^2) on |f| <= f_d, normalized (Simpson's rule, 2000 intervals): what
/// E[x(t) x*(t + tau)] of a tap converges to over links.
pub fn bell_autocorrelation(doppler_hz: f64, tau_s: f64) -> f64 {
    let n = 2000;
    let h = 2.0 * doppler_hz / n as f64;
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..=n {
        let f = -doppler_hz + i as f64 * h;
        let w = if i == 0 || i == n {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let s = 1.0 / (1.0 + 9.0 * (f / doppler_hz).powi(2));
        num += w * s * (2.0 * PI * f * tau_s).cos();
        den += w * s;
    }
    num / den
}

/// Every tap's phasors at one instant, (cos, sin) of each.
pub type Phasors = [[(f64, f64); SINUSOIDS]; MAX_TAPS];

/// One link's draws: per tap, its phasors' Doppler frequencies [Hz] and phases, and the LOS
/// ray's phase.
#[derive(Clone, Debug)]
pub struct TgnLink {
    model: TgnModel,
    /// [`TgnModel::powers`] without and with the LOS ray, computed once.
    powers: [([f64; MAX_TAPS], f64); 2],
    /// The largest |f_n| of the link's phasors [Hz].
    max_hz: f64,
    freq_hz: [[f64; SINUSOIDS]; MAX_TAPS],
    phase: [[f64; SINUSOIDS]; MAX_TAPS],
    los_phase: f64,
}

impl TgnLink {
    pub fn new(model: TgnModel, doppler_hz: f64, seed: u64, link_key: u64) -> TgnLink {
        let mut link = TgnLink {
            model,
            powers: [model.powers(false), model.powers(true)],
            max_hz: 0.0,
            freq_hz: [[0.0; SINUSOIDS]; MAX_TAPS],
            phase: [[0.0; SINUSOIDS]; MAX_TAPS],
            los_phase: 0.0,
        };
        // Inverse CDF of the bell on [-f_d, f_d]: f = (f_d / 3) tan((2u - 1) atan 3).
        let arc = 3f64.atan();
        for l in 0..model.taps() {
            let mut d = Draws::new(TAG_TGN, seed, link_key, l as u64);
            for n in 0..SINUSOIDS {
                link.freq_hz[l][n] = doppler_hz / 3.0 * ((2.0 * d.open01() - 1.0) * arc).tan();
                link.max_hz = link.max_hz.max(link.freq_hz[l][n].abs());
                link.phase[l][n] = 2.0 * PI * d.open01();
            }
        }
        link.los_phase = 2.0 * PI * Draws::new(TAG_TGN, seed, link_key, MAX_TAPS as u64).open01();
        link
    }

    /// Every tap's complex gain a_l(t) at `t`, the LOS ray included (`los`).
    pub fn taps_at(&self, t: SimTime, los: bool) -> [(f64, f64); MAX_TAPS] {
        self.taps_from(&self.phasors_at(t), los)
    }

    /// Each tap's phasors e^(j (2 pi f_n t + phi_n)) at `t`.
    pub fn phasors_at(&self, t: SimTime) -> Phasors {
        let ts = t.ns() as f64 * 1e-9;
        let mut ph = [[(0.0, 0.0); SINUSOIDS]; MAX_TAPS];
        for (l, row) in ph.iter_mut().enumerate().take(self.model.taps()) {
            for (n, x) in row.iter_mut().enumerate() {
                let (s, c) = (2.0 * PI * self.freq_hz[l][n] * ts + self.phase[l][n]).sin_cos();
                *x = (c, s);
            }
        }
        ph
    }

    /// The taps of phasors `ph` ([`TgnLink::phasors_at`]), the LOS ray included (`los`).
    pub fn taps_from(&self, ph: &Phasors, los: bool) -> [(f64, f64); MAX_TAPS] {
        let (p, los_power) = self.powers[usize::from(los)];
        let scale = 1.0 / (SINUSOIDS as f64).sqrt();
        let mut a = [(0.0, 0.0); MAX_TAPS];
        for (l, al) in a.iter_mut().enumerate().take(self.model.taps()) {
            let (mut re, mut im) = (0.0, 0.0);
            for &(c, s) in &ph[l] {
                re += c;
                im += s;
            }
            let g = p[l].sqrt();
            *al = (re * scale * g, im * scale * g);
        }
        if los_power > 0.0 {
            let (s, c) = self.los_phase.sin_cos();
            a[0].0 += los_power.sqrt() * c;
            a[0].1 += los_power.sqrt() * s;
        }
        a
    }
}

/// The wideband power gain of taps `a` (sum of |a_l|^2; mean 1 over links).
pub fn wideband_gain(a: &[(f64, f64); MAX_TAPS]) -> f64 {
    a.iter().map(|(re, im)| re * re + im * im).sum()
}

/// The phase factors e^(-j 2 pi f_k tau_l) of a model and a subcarrier set, subcarrier by
/// subcarrier (row k: one factor per tap), computed once per world.
pub fn weights(model: TgnModel, subcarriers: &[i32]) -> Vec<(f64, f64)> {
    let taps = model.taps();
    let mut w = Vec::with_capacity(subcarriers.len() * taps);
    for &k in subcarriers {
        for &tau in model.delays_ns() {
            let (s, c) = (-2.0 * PI * f64::from(k) * SUBCARRIER_SPACING_HZ * tau * 1e-9).sin_cos();
            w.push((c, s));
        }
    }
    w
}

/// The response H_k of taps `a` on each subcarrier of `w` (from [`weights`]), into `out`.
pub fn response(a: &[(f64, f64); MAX_TAPS], taps: usize, w: &[(f64, f64)], out: &mut [(f64, f64)]) {
    for (h, row) in out.iter_mut().zip(w.chunks_exact(taps)) {
        let (mut re, mut im) = (0.0, 0.0);
        for (x, y) in a.iter().zip(row) {
            re += x.0 * y.0 - x.1 * y.1;
            im += x.0 * y.1 + x.1 * y.0;
        }
        *h = (re, im);
    }
}

/// The taps of a link followed forward in time: each phasor kept as a unit complex number and
/// rotated by the step (the subframes of an A-MPDU are evenly spaced), like
/// [`super::doppler::SosWalk`].
#[derive(Clone, Debug)]
pub struct TgnWalk {
    t: SimTime,
    los: bool,
    powers: [f64; MAX_TAPS],
    los_ray: (f64, f64),
    phasor: [[(f64, f64); SINUSOIDS]; MAX_TAPS],
    /// Two steps [ns] and each phasor's rotation over them, the latest first, and whether each
    /// was taken since the walk last (re)started: an A-MPDU's walk steps from the preamble to
    /// the first subframe's middle, then middle to middle, so the link's next A-MPDU finds both
    /// ([`TgnWalk::restart`]); a step near one taken since the start reuses it (below).
    step_ns: [u64; 2],
    own: [bool; 2],
    step: [[[(f64, f64); SINUSOIDS]; MAX_TAPS]; 2],
}

impl TgnWalk {
    pub fn new(link: &TgnLink, t: SimTime, los: bool) -> TgnWalk {
        let mut w = TgnWalk {
            t,
            los,
            powers: [0.0; MAX_TAPS],
            los_ray: (0.0, 0.0),
            phasor: [[(1.0, 0.0); SINUSOIDS]; MAX_TAPS],
            step_ns: [0; 2],
            own: [false; 2],
            step: [[[(1.0, 0.0); SINUSOIDS]; MAX_TAPS]; 2],
        };
        w.restart(link, t, los);
        w
    }

    /// The same link's walk begun afresh at `t`: exactly what [`TgnWalk::new`] builds, keeping
    /// the rotations of the steps already taken.
    pub fn restart(&mut self, link: &TgnLink, t: SimTime, los: bool) {
        self.restart_from(link, t, los, &link.phasors_at(t));
    }

    /// [`TgnWalk::restart`] from the phasors at `t` computed already ([`TgnLink::phasors_at`]).
    pub fn restart_from(&mut self, link: &TgnLink, t: SimTime, los: bool, ph: &Phasors) {
        let (powers, los_power) = link.powers[usize::from(los)];
        let (s, c) = link.los_phase.sin_cos();
        self.t = t;
        self.los = los;
        self.powers = powers;
        self.los_ray = (los_power.sqrt() * c, los_power.sqrt() * s);
        self.own = [false; 2];
        self.phasor = *ph;
    }

    /// The taps at the walk's time.
    pub fn taps(&self, n_taps: usize) -> [(f64, f64); MAX_TAPS] {
        let scale = 1.0 / (SINUSOIDS as f64).sqrt();
        let mut a = [(0.0, 0.0); MAX_TAPS];
        for (l, al) in a.iter_mut().enumerate().take(n_taps) {
            let (re, im) = self.phasor[l].iter().fold((0.0, 0.0), |acc, p| (acc.0 + p.0, acc.1 + p.1));
            let g = self.powers[l].sqrt() * scale;
            *al = (re * g, im * g);
        }
        a[0].0 += self.los_ray.0;
        a[0].1 += self.los_ray.1;
        a
    }

    /// Move to `t` (a time before the walk's starts it afresh there) and return the taps.
    pub fn advance_to(&mut self, link: &TgnLink, t: SimTime) -> [(f64, f64); MAX_TAPS] {
        let taps = link.model.taps();
        if t < self.t {
            self.restart(link, t, self.los);
            return self.taps(taps);
        }
        let d = t.ns() - self.t.ns();
        // Subframe offsets are whole nanoseconds, so evenly spaced subframes step by d and d
        // +- 1 ns: a step within a few ns of one taken since the start is that rotation times a
        // tiny one, by its Taylor series (angle below 1e-4 rad: the terms left out are below
        // 1e-22); a step near twice it is that rotation squared. Otherwise a step equal to one
        // kept (from an earlier A-MPDU of the link) is its rotation, else the sines are taken.
        let near =
            |base: u64| base > 0 && 2.0 * PI * link.max_hz * (d as f64 - base as f64).abs() * 1e-9 < 1e-4;
        let own = self.own[0] && self.step_ns[0] > 0;
        if own && (d == self.step_ns[0] || near(self.step_ns[0])) {
            // the rotation taken since the start, skewed below if need be
        } else if own && near(2 * self.step_ns[0]) {
            self.step[1] = self.step[0];
            self.step_ns[1] = self.step_ns[0];
            self.own[1] = true;
            for l in 0..taps {
                for r in &mut self.step[0][l] {
                    *r = (r.0 * r.0 - r.1 * r.1, 2.0 * r.0 * r.1);
                }
            }
            self.step_ns[0] *= 2;
        } else if d > 0 && (d == self.step_ns[0] || d == self.step_ns[1]) {
            if d == self.step_ns[1] {
                self.step.swap(0, 1);
                self.step_ns.swap(0, 1);
                self.own.swap(0, 1);
            }
            self.own[0] = true;
        } else {
            self.step[1] = self.step[0];
            self.step_ns[1] = self.step_ns[0];
            self.own[1] = self.own[0];
            let ds = d as f64 * 1e-9;
            for l in 0..taps {
                for n in 0..SINUSOIDS {
                    let (s, c) = (2.0 * PI * link.freq_hz[l][n] * ds).sin_cos();
                    self.step[0][l][n] = (c, s);
                }
            }
            self.step_ns[0] = d;
            self.own[0] = true;
        }
        let skew_ns = d as f64 - self.step_ns[0] as f64;
        let skewed = d != self.step_ns[0];
        for l in 0..taps {
            for (n, (p, r)) in self.phasor[l].iter_mut().zip(&self.step[0][l]).enumerate() {
                let mut q = (p.0 * r.0 - p.1 * r.1, p.0 * r.1 + p.1 * r.0);
                if skewed {
                    let x = 2.0 * PI * link.freq_hz[l][n] * skew_ns * 1e-9;
                    let x2 = x * x;
                    let (c, s) = (1.0 - x2 / 2.0 + x2 * x2 / 24.0, x * (1.0 - x2 / 6.0));
                    q = (q.0 * c - q.1 * s, q.0 * s + q.1 * c);
                }
                *p = q;
            }
        }
        self.t = t;
        self.taps(taps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(name: &str) -> ModeId {
        ModeId::by_name(name).expect("a mode")
    }

    #[test]
    fn the_profiles_have_the_documents_delay_spreads() {
        // 940r4 Table 2: rms delay spread 15 ns (B) and 50 ns (D), of the NLOS profiles as
        // tabulated (to a nanosecond: the table's powers are rounded to 0.1 dB).
        assert!(
            (TgnModel::B.rms_delay_spread_ns() - 15.0).abs() < 1.0,
            "{}",
            TgnModel::B.rms_delay_spread_ns()
        );
        assert!(
            (TgnModel::D.rms_delay_spread_ns() - 50.0).abs() < 1.0,
            "{}",
            TgnModel::D.rms_delay_spread_ns()
        );
        for model in [TgnModel::B, TgnModel::D] {
            for los in [false, true] {
                let (p, ray) = model.powers(los);
                assert!((p.iter().sum::<f64>() + ray - 1.0).abs() < 1e-12);
            }
        }
        // D within 10 m: K = 3 dB on tap 0, ray = K p0 / total.
        let (p, ray) = TgnModel::D.powers(true);
        assert!((ray / p[0] - 10f64.powf(0.3)).abs() < 1e-12);
        let (_, ray) = TgnModel::B.powers(true);
        let (p, _) = TgnModel::B.powers(true);
        assert!((ray / p[0] - 1.0).abs() < 1e-12); // K = 0 dB
    }

    #[test]
    fn subcarrier_sets_follow_the_standard() {
        // 48 data subcarriers for 802.11a (17.3.5.10), 52 and 108 for HT (19.3.11.10).
        assert_eq!(data_subcarriers(mode("OfdmRate54Mbps")).map(<[i32]>::len), Some(48));
        assert_eq!(data_subcarriers(mode("HtMcs7")).map(<[i32]>::len), Some(52));
        assert_eq!(data_subcarriers(mode("HtMcs7Ht40")).map(<[i32]>::len), Some(108));
        assert_eq!(data_subcarriers(mode("DsssRate11Mbps")), None);
        let ht20 = data_subcarriers(mode("HtMcs0")).unwrap();
        assert!(!ht20.contains(&7) && !ht20.contains(&-21) && !ht20.contains(&0) && ht20.contains(&28));
        assert_eq!(eesm_beta(mode("HtMcs0")), Some(1.0));
        assert_eq!(eesm_beta(mode("HtMcs1")), Some(2.0));
        assert_eq!(eesm_beta(mode("HtMcs4")), Some(10.0));
        assert_eq!(eesm_beta(mode("HtMcs15")), Some(42.0));
        assert_eq!(eesm_beta(mode("OfdmRate36Mbps")), Some(10.0));
        assert_eq!(eesm_beta(mode("DsssRate1Mbps")), None);
    }

    #[test]
    fn eesm_of_a_two_tap_channel_by_hand() {
        // Two equal taps 1.6 us apart: H_k = (1 + e^(-j pi k)) / sqrt(2), so |H_k|^2 = 2 on
        // even k and 0 on odd k. HT 20 MHz has 28 even data subcarriers (+-2..28) and 24 odd
        // ones (+-1..27 less the pilots +-7, +-21). At 10 dB (10) and beta = 1 (BPSK):
        // SINR_eff = -ln((28 e^-20 + 24) / 52) = ln(52 / 24) + ... = 0.77319 (-1.117 dB).
        let sub = data_subcarriers(mode("HtMcs0")).unwrap();
        let sinr: Vec<f64> = sub
            .iter()
            .map(|&k| {
                let ph = -2.0 * PI * f64::from(k) * SUBCARRIER_SPACING_HZ * 1.6e-6;
                let (re, im) = ((1.0 + ph.cos()) / 2f64.sqrt(), ph.sin() / 2f64.sqrt());
                10.0 * (re * re + im * im)
            })
            .collect();
        let want = -((28.0 * (-20f64).exp() + 24.0) / 52.0).ln();
        assert!((want - 0.773_189_888).abs() < 1e-8);
        assert!((eesm(1.0, &sinr) - want).abs() < 1e-9, "{} vs {want}", eesm(1.0, &sinr));
        // A flat channel maps to itself; a large beta tends to the mean, a small one to the
        // least; never NaN at high SINRs.
        assert!((eesm(42.0, &[1e4; 52]) - 1e4).abs() < 1e-6);
        assert!((eesm(1e6, &[1.0, 3.0]) - 2.0).abs() < 1e-5);
        assert!((eesm(1e-3, &[1.0, 3.0]) - 1.0).abs() < 1e-2);
        assert!(eesm(1.0, &[1e5, 2e5]).is_finite());
    }

    #[test]
    fn the_mean_response_is_flat_and_its_frequency_correlation_the_profiles() {
        // Over 4000 links, model D NLOS, HT 20 MHz: E|H_k|^2 = 1 on every subcarrier, and
        // E[H_k H*_k'] = sum_l p_l e^(j 2 pi (k' - k) df tau_l), the profile's transform (closed
        // form): for k' - k = 16 (k = -28, -12) 0.352 + 0.400j, |.| 0.53; for 56 (k = -28, 28)
        // 0.140 + 0.146j, |.| 0.20. Standard errors about 0.016.
        let model = TgnModel::D;
        let sub = data_subcarriers(mode("HtMcs7")).unwrap();
        let w = weights(model, sub);
        let (p, _) = model.powers(false);
        let links = 4000u64;
        let pos = |k: i32| sub.iter().position(|&x| x == k).unwrap();
        let pairs = [(pos(-28), pos(-12)), (pos(-28), pos(28))];
        let mut power = vec![0.0; sub.len()];
        let mut corr = [(0.0, 0.0); 2];
        let mut h = vec![(0.0, 0.0); sub.len()];
        for k in 0..links {
            let link = TgnLink::new(model, 6.0, 3, k);
            let a = link.taps_at(SimTime(k * 1_000_003), false);
            response(&a, model.taps(), &w, &mut h);
            for (acc, x) in power.iter_mut().zip(&h) {
                *acc += x.0 * x.0 + x.1 * x.1;
            }
            for (c, &(u, v)) in corr.iter_mut().zip(&pairs) {
                let (x, y) = (h[u], h[v]);
                c.0 += x.0 * y.0 + x.1 * y.1; // Re[x y*]
                c.1 += x.1 * y.0 - x.0 * y.1; // Im[x y*]
            }
        }
        for acc in &power {
            assert!((acc / links as f64 - 1.0).abs() < 0.06, "{}", acc / links as f64);
        }
        for (c, &(u, v)) in corr.iter().zip(&pairs) {
            let dk = f64::from(sub[v] - sub[u]);
            let (mut want_re, mut want_im) = (0.0, 0.0);
            for (l, tau) in model.delays_ns().iter().enumerate() {
                let ph = 2.0 * PI * dk * SUBCARRIER_SPACING_HZ * tau * 1e-9;
                want_re += p[l] * ph.cos();
                want_im += p[l] * ph.sin();
            }
            let (got_re, got_im) = (c.0 / links as f64, c.1 / links as f64);
            assert!(
                (got_re - want_re).abs() < 0.05 && (got_im - want_im).abs() < 0.05,
                "dk {dk}: {got_re:.3}+{got_im:.3}j against {want_re:.3}+{want_im:.3}j"
            );
        }
    }

    /// Tap 0's unit-power scattered process at `t`: its phasors' mean times sqrt(M).
    fn unit_tap0(link: &TgnLink, t: SimTime) -> (f64, f64) {
        let ph = link.phasors_at(t);
        let scale = 1.0 / (SINUSOIDS as f64).sqrt();
        ph[0].iter().fold((0.0, 0.0), |acc, p| (acc.0 + p.0 * scale, acc.1 + p.1 * scale))
    }

    #[test]
    fn a_tap_decorrelates_as_the_bell_spectrum_says() {
        // E[x(t) x*(t + tau)] over 20,000 links against the bell's transform at f_d = 6 Hz
        // (TGn's environment Doppler at 5.2 GHz), lags to 200 ms; standard error about 0.007.
        let fd = 6.0;
        let links = 20_000u64;
        for lag_ms in [0.0, 10.0, 30.0, 60.0, 100.0, 200.0] {
            let tau = crate::time::Dur((lag_ms * 1e6) as u64);
            let mut acc = 0.0;
            for k in 0..links {
                let link = TgnLink::new(TgnModel::B, fd, 5, k);
                let t0 = SimTime(k * 7_654_321);
                let (a, b) = unit_tap0(&link, t0);
                let (c, d) = unit_tap0(&link, t0 + tau);
                acc += a * c + b * d;
            }
            let r = acc / links as f64;
            let want = bell_autocorrelation(fd, lag_ms * 1e-3);
            assert!((r - want).abs() < 0.03, "lag {lag_ms} ms: {r:.4} against {want:.4}");
        }
        // The bell's power sits near 0 Hz, so it decorrelates more slowly than Clarke's
        // spectrum at the same f_d: 0.905 at 30 ms where J0(2 pi f_d tau) is 0.705, and it
        // never swings negative (0.128 at 200 ms where J0 is 0.261 after -0.40 at 100 ms).
        assert!((bell_autocorrelation(fd, 0.03) - 0.9051).abs() < 1e-3);
        assert!((bell_autocorrelation(fd, 0.1) - 0.3448).abs() < 1e-3);
    }

    #[test]
    fn a_walk_follows_the_direct_sum() {
        let link = TgnLink::new(TgnModel::D, 30.0, 9, 77);
        let mut walk = TgnWalk::new(&link, SimTime(1_000_000), true);
        let mut t = 1_000_000u64;
        for step in [95_015u64, 190_031, 190_031, 190_030, 190_032, 190_031, 77, 155, 190_031] {
            t += step;
            let a = walk.advance_to(&link, SimTime(t));
            let b = link.taps_at(SimTime(t), true);
            for l in 0..18 {
                assert!((a[l].0 - b[l].0).abs() < 1e-12 && (a[l].1 - b[l].1).abs() < 1e-12);
            }
        }
        let a = walk.advance_to(&link, SimTime(5_000));
        let b = link.taps_at(SimTime(5_000), true);
        assert!((a[3].0 - b[3].0).abs() < 1e-12);
    }
}
