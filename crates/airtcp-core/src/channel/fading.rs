//! Small-scale fading as a stateless block-fading power gain (linear, mean 1).
//!
//! A gain is a pure function of `(seed, link_key, block)`: the triple is hashed with SplitMix64
//! into a sequence of uniforms, so the same link in the same block always sees the same fade,
//! whatever else the run does, and a run with some scheme on and off sees the same channel.
//! `block` is the frame's serial number (one fade per frame: ns-3's
//! `NakagamiPropagationLossModel` draws afresh on every `CalcRxPower`) or `now / T_c` (one fade
//! per coherence time, so that retries within T_c see the same fade): [`block_of`].

use super::pathloss::SPEED_OF_LIGHT_MPS;
use crate::rng::{mix64, Draws, TAG_FADING};
use crate::time::{Dur, SimTime};

/// The fading power-gain distribution (the received power is the mean power times the gain).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fading {
    /// Rayleigh amplitude: exponential power gain with mean 1 (research note §5.2).
    Rayleigh,
    /// Nakagami-m amplitude: Gamma(m, 1/m) power gain, mean 1, variance 1/m (ns-3
    /// `NakagamiPropagationLossModel::DoCalcRxPower`: Gamma(m, P/m) on the power; ns-3's
    /// defaults are m = 1.5 below 80 m and 0.75 beyond). m = 1 is Rayleigh, drawn identically.
    Nakagami { m: f64 },
    /// Rayleigh fading that changes continuously with Clarke's Doppler spectrum at `doppler_hz`
    /// (Zheng and Xiao's sum of sinusoids, [`super::doppler`]): the gain of a frame is the
    /// channel's at the frame's start, so frames close in time see close gains.
    Doppler { doppler_hz: f64 },
    /// A TGn tapped delay line (B or D, [`super::tgn`]) whose taps change with TGn's bell
    /// Doppler spectrum at `doppler_hz`: frequency-selective, so the medium decodes a PPDU at
    /// the effective SINR of its subcarriers and adds the model's line-of-sight ray within its
    /// breakpoint distance; the power gain here is the wideband one without that ray.
    Tgn { model: super::tgn::TgnModel, doppler_hz: f64 },
}

impl Fading {
    /// The power gain (linear, mean 1) of link `link_key` for a frame starting at `now`: the
    /// block models' fade of its block ([`block_of`]: per coherence time, else per frame), the
    /// Doppler process's value at `now`.
    pub fn gain_at(&self, seed: u64, link_key: u64, now: SimTime, coherence: Option<Dur>) -> f64 {
        let block = || block_of(now, coherence, now.ns());
        match *self {
            Fading::Rayleigh => rayleigh_gain(seed, link_key, block()),
            Fading::Nakagami { m } => nakagami_gain(m, seed, link_key, block()),
            Fading::Doppler { doppler_hz } => super::doppler::power_gain(seed, link_key, doppler_hz, now),
            Fading::Tgn { model, doppler_hz } => {
                let link = super::tgn::TgnLink::new(model, doppler_hz, seed, link_key);
                super::tgn::wideband_gain(&link.taps_at(now, false))
            }
        }
    }

    /// Whether the parameters make sense: the Nakagami-m distribution is defined for m ≥ 1/2
    /// (Nakagami 1960).
    pub fn check(&self) -> Result<(), String> {
        match *self {
            Fading::Nakagami { m } if !(m.is_finite() && m >= 0.5) => {
                Err(format!("Nakagami m must be a finite number >= 0.5, got {m}"))
            }
            Fading::Doppler { doppler_hz } | Fading::Tgn { doppler_hz, .. }
                if !(doppler_hz.is_finite() && doppler_hz >= 0.0) =>
            {
                Err(format!("the Doppler frequency must be a finite number >= 0 Hz, got {doppler_hz}"))
            }
            _ => Ok(()),
        }
    }
}

/// The largest power gain [`rayleigh_gain`] can return: U is at least 2^-54 (`open01`), so
/// −ln U is at most 54 ln 2 = 37.43 (15.7 dB); the radio model skips receivers that even this
/// fade would leave below the sensitivity.
pub const RAYLEIGH_MAX_GAIN: f64 = 37.5;

/// Rayleigh block fading: the power gain `−ln(U)`, exponential with mean 1, U uniform in (0, 1)
/// from the hash of `(seed, link_key, block)`.
pub fn rayleigh_gain(seed: u64, link_key: u64, block: u64) -> f64 {
    -Draws::new(TAG_FADING, seed, link_key, block).open01().ln()
}

/// Nakagami-m block fading: the power gain ~ Gamma(shape m, scale 1/m), from the hash of
/// `(seed, link_key, block)`; m = 1 returns exactly [`rayleigh_gain`]. Needs m > 0.
pub fn nakagami_gain(m: f64, seed: u64, link_key: u64, block: u64) -> f64 {
    if m == 1.0 {
        return rayleigh_gain(seed, link_key, block);
    }
    let mut draws = Draws::new(TAG_FADING, seed, link_key, block);
    gamma_unit_scale(m, &mut draws) / m
}

/// Gamma(shape, 1) by Marsaglia and Tsang (ACM TOMS 26(3), 2000, "A simple method for
/// generating gamma variables", the algorithm of §6 with its squeeze), and for shape < 1 their
/// boost Gamma(a) = Gamma(a + 1)·U^(1/a). Expected trials per draw < 1.05 for shape ≥ 1.
fn gamma_unit_scale(shape: f64, draws: &mut Draws) -> f64 {
    if shape < 1.0 {
        let g = gamma_unit_scale(shape + 1.0, draws);
        return g * draws.open01().powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = draws.normal();
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = draws.open01();
        let x2 = x * x;
        if u < 1.0 - 0.0331 * x2 * x2 || u.ln() < 0.5 * x2 + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// The key of the directed link `tx` → `rx` (entity ids, e.g. `rng::entity_id` of node
/// names): the fades of a→b and b→a are independent, as in ns-3, which draws on every
/// `CalcRxPower` (so DATA and its ACK fade independently).
pub fn link_key(tx: u64, rx: u64) -> u64 {
    mix64(mix64(tx) ^ rx.rotate_left(29))
}

/// The key of the undirected link {a, b}: a reciprocal channel, where a frame and its ACK
/// within one block share the fade.
pub fn reciprocal_link_key(a: u64, b: u64) -> u64 {
    link_key(a.min(b), a.max(b))
}

/// The fading block of a frame that starts at `now`: `now / coherence` with a coherence time
/// (one fade per block of T_c, on a grid from time 0, shared by every frame that starts inside
/// it), else the frame's serial number (one fade per frame). The fade is read once, when the
/// frame starts (ns-3 `YansWifiChannel::Send` evaluates the loss chain once per frame).
pub fn block_of(now: SimTime, coherence: Option<Dur>, frame_serial: u64) -> u64 {
    match coherence {
        Some(c) => now.ns() / c.ns().max(1),
        None => frame_serial,
    }
}

/// The maximum Doppler shift f_d = v·f/c \[Hz\].
pub fn doppler_hz(speed_mps: f64, frequency_hz: f64) -> f64 {
    speed_mps * frequency_hz / SPEED_OF_LIGHT_MPS
}

/// Coherence time T_c ≈ 0.423 / f_d (Clarke's isotropic scattering model; the rule of thumb
/// T_c = sqrt(9/(16π))/f_d, Rappaport, "Wireless Communications", 2nd ed., §5.4.3; research
/// note §5.2): 2.4 GHz at 1 m/s gives 52.8 ms, 5.2 GHz at 10 m/s 2.44 ms. `speed_mps` is the relative speed of the
/// two ends (or of the scatterers). No motion means no change: `Dur(u64::MAX)`, one block for
/// the whole run.
pub fn coherence_time(speed_mps: f64, frequency_hz: f64) -> Dur {
    let fd = doppler_hz(speed_mps, frequency_hz);
    if fd.is_nan() || fd <= 0.0 {
        return Dur(u64::MAX);
    }
    // `as` saturates: an absurdly slow speed gives the longest representable block.
    Dur(((0.423 / fd) * 1e9).round().max(1.0) as u64)
}

/// Rayleigh outage: the probability that a link of mean received power `mean_rx_dbm` fades
/// below `threshold_dbm`, `1 − exp(−10^((S − P̄)/10))` (research note §5.2; closed form).
pub fn rayleigh_outage(mean_rx_dbm: f64, threshold_dbm: f64) -> f64 {
    let x = 10f64.powf((threshold_dbm - mean_rx_dbm) / 10.0);
    -(-x).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: u64 = 100_000;

    #[test]
    fn no_rayleigh_fade_exceeds_its_stated_bound() {
        // The least open01 is 2^-54 (the 53-bit draw 0, plus a half step): -ln of it.
        let least = 0.5 / (1u64 << 53) as f64;
        assert!(-least.ln() <= RAYLEIGH_MAX_GAIN);
        assert!(RAYLEIGH_MAX_GAIN - (-least.ln()) < 0.1); // and tight
        let most = (0..N).map(|b| rayleigh_gain(3, 11, b)).fold(0.0, f64::max);
        assert!(most < RAYLEIGH_MAX_GAIN, "{most}");
    }

    fn mean_var(xs: impl Iterator<Item = f64>) -> (f64, f64) {
        let (mut n, mut s, mut s2) = (0.0, 0.0, 0.0);
        for x in xs {
            n += 1.0;
            s += x;
            s2 += x * x;
        }
        let mean = s / n;
        (mean, s2 / n - mean * mean)
    }

    #[test]
    fn rayleigh_power_is_exponential_with_mean_one() {
        // Closed form: P(X < x) = 1 − exp(−x) (binomial standard error ≤ 0.0016 at 1e5).
        let gains: Vec<f64> = (0..N).map(|b| rayleigh_gain(42, 7, b)).collect();
        for x in [0.1, 0.5, 1.0, 2.0] {
            let frac = gains.iter().filter(|&&g| g < x).count() as f64 / N as f64;
            let expected = 1.0 - (-x).exp();
            assert!((frac - expected).abs() < 0.01, "x {x}: {frac} vs {expected}");
        }
        let (mean, var) = mean_var(gains.iter().copied());
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        assert!((var - 1.0).abs() < 0.03, "{var}");
    }

    #[test]
    fn outage_matches_the_closed_form() {
        // Research note §5.2: mean −80 dBm, threshold −85 dBm → 1 − exp(−10^−0.5) = 0.2711.
        let p = rayleigh_outage(-80.0, -85.0);
        assert!((p - 0.271_09).abs() < 1e-4, "{p}");
        let below = (0..N).filter(|&b| -80.0 + 10.0 * rayleigh_gain(3, 11, b).log10() < -85.0).count() as f64
            / N as f64;
        assert!((below - p).abs() < 0.01, "{below} vs {p}");
    }

    #[test]
    fn nakagami_has_mean_one_and_variance_one_over_m() {
        // Closed form for Gamma(m, 1/m): mean 1, variance 1/m. The sample variance's relative
        // standard error is sqrt((2 + 6/m)/n) ≤ 0.7 % at n = 2e5, m ≥ 0.75.
        for m in [0.75, 1.5, 3.0] {
            let (mean, var) = mean_var((0..2 * N).map(|b| nakagami_gain(m, 1, 99, b)));
            assert!((mean - 1.0).abs() < 0.02, "m {m}: mean {mean}");
            assert!((var * m - 1.0).abs() < 0.02, "m {m}: var {var} vs {}", 1.0 / m);
        }
    }

    #[test]
    fn nakagami_one_is_rayleigh_and_draws_are_pure() {
        for b in 0..100 {
            assert_eq!(nakagami_gain(1.0, 5, 6, b), rayleigh_gain(5, 6, b));
            let f = Fading::Nakagami { m: 2.5 };
            // A frame starting at b ns without a coherence time is block b.
            assert_eq!(f.gain_at(5, 6, SimTime(b), None), nakagami_gain(2.5, 5, 6, b));
            assert!(f.gain_at(5, 6, SimTime(b), None) > 0.0);
        }
        assert_ne!(rayleigh_gain(5, 6, 0), rayleigh_gain(6, 6, 0));
        assert!(Fading::Nakagami { m: 0.4 }.check().is_err());
        assert!(Fading::Nakagami { m: f64::NAN }.check().is_err());
        assert!(Fading::Nakagami { m: 0.5 }.check().is_ok());
        assert!(Fading::Rayleigh.check().is_ok());
    }

    #[test]
    fn frames_in_one_coherence_block_share_a_fade() {
        let tc = coherence_time(1.0, 2.4e9);
        // Hand computation: f_d = 1 · 2.4e9 / 299792458 = 8.0055 Hz; 0.423 / f_d = 52.838 ms.
        assert_eq!(tc, Dur(52_838_421));
        let at = |ms: u64, serial| block_of(SimTime(ms * 1_000_000), Some(tc), serial);
        // Three frames (serials 1, 2, 3) inside [0, T_c), one after it.
        assert_eq!(at(0, 1), 0);
        assert_eq!(at(10, 2), 0);
        assert_eq!(at(52, 3), 0);
        assert_eq!(at(53, 4), 1);
        let g = |blk| rayleigh_gain(8, link_key(1, 2), blk);
        assert_eq!(g(at(0, 1)), g(at(52, 3)));
        assert_ne!(g(at(0, 1)), g(at(53, 4)));
        // Without a coherence time, every frame is its own block.
        assert_eq!(block_of(SimTime(5), None, 17), 17);
        assert_eq!(block_of(SimTime(5), Some(Dur::ZERO), 17), 5);
    }

    #[test]
    fn coherence_time_closed_form() {
        // Research note §5.2: 5.2 GHz at 10 m/s: f_d = 173.45 Hz, T_c = 2.4387 ms.
        assert!((doppler_hz(10.0, 5.2e9) - 173.453).abs() < 1e-3);
        assert_eq!(coherence_time(10.0, 5.2e9), Dur(2_438_696));
        assert_eq!(coherence_time(0.0, 5.2e9), Dur(u64::MAX));
        // The constant is sqrt(9/(16π)) = 0.42314, rounded.
        assert!(((9.0 / (16.0 * std::f64::consts::PI)).sqrt() - 0.423).abs() < 2e-4);
        assert_eq!(block_of(SimTime(u64::MAX - 1), Some(coherence_time(0.0, 5.2e9)), 3), 0);
    }

    #[test]
    fn different_links_and_blocks_are_independent() {
        let corr = |f: &dyn Fn(u64) -> (f64, f64)| {
            let (mut sx, mut sy, mut sxy, mut sx2, mut sy2) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for b in 0..N {
                let (x, y) = f(b);
                sx += x;
                sy += y;
                sxy += x * y;
                sx2 += x * x;
                sy2 += y * y;
            }
            let n = N as f64;
            let cov = sxy / n - sx * sy / (n * n);
            cov / ((sx2 / n - (sx / n).powi(2)) * (sy2 / n - (sy / n).powi(2))).sqrt()
        };
        // Sample correlation of independent variables: standard error 1/sqrt(n) = 0.003.
        let (ab, ba) = (link_key(1, 2), link_key(2, 1));
        assert_ne!(ab, ba);
        assert_eq!(reciprocal_link_key(1, 2), reciprocal_link_key(2, 1));
        let r = corr(&|b| (rayleigh_gain(1, ab, b), rayleigh_gain(1, ba, b)));
        assert!(r.abs() < 0.015, "a->b vs b->a: {r}");
        let (x, y) = (link_key(10, 11), link_key(10, 12));
        let r = corr(&|b| (nakagami_gain(1.5, 1, x, b), nakagami_gain(1.5, 1, y, b)));
        assert!(r.abs() < 0.015, "two receivers: {r}");
        let r = corr(&|b| (rayleigh_gain(1, x, b), rayleigh_gain(1, x, b + 1)));
        assert!(r.abs() < 0.015, "consecutive blocks: {r}");
    }
}
