//! Success rates from tables, each value with a bound on its distance from the exact model,
//! so that a decision the bound makes certain is the exact model's decision.
//!
//! The exact model ([`ErrorRateModel::unit_success`]) costs an erfc and eleven powers per NIST
//! chunk and, for CCK, a 256-point quadrature (microseconds); under interference or fading
//! the SINR seldom repeats, so the memo cannot help. Here each unit's success p (a bit, or a
//! CCK symbol of 4 or 8 bits) is tabulated over u = ln SNR, every 0.004 (`DU`) from SNR 1e-3
//! (-30 dB) to 1e5 (50 dB) or three points past where p rounds to 1. A chunk of n units succeeds with P = p^n, read two ways:
//!
//! - where p >= 1/2 over a cell's stencil, y = ln(-ln p) by cubic Lagrange interpolation and
//!   P = exp(-n e^y). An error e in y moves ln P by |ln P| e, and the exact model's own
//!   rounding of p = 1 - pe moves ln P by at most n 2^-53 / p; so
//!   |P_table - P_exact| <= P (|ln P| e_k + n 2^-50 / p) + 2^-50, with e_k the largest
//!   interpolation error in y at the middles of the cell and its neighbours, times four, and
//!   1e-9 at least (measured when the table is built: a cubic's error term peaks there);
//! - elsewhere (p near 0, where y runs to infinity, or bent by a cap such as DQPSK's), and
//!   below the table, from p's rise with the SNR alone: P lies between the n-th powers of p
//!   at the cell's ends;
//! - where p rounds to 1 at a cell's two ends, P is 1 (the table stops three points into
//!   that: beyond, every P is 1).
//!
//! An answer comes with its bound, at most [`MAX_ERR`] (1e-6); beyond it, and where the table
//! cannot say whether P is exactly 1 (no draw at all), [`bounded`] answers `None` and the
//! caller uses the exact model. A draw u against P is settled by the table when |u - P_table|
//! exceeds the bound ([`fails`]); otherwise the caller computes P exactly (a few draws in a
//! million). So a run with tables is the exact model's run bit for bit (`channel.radio.exact`
//! turns them off), at a fraction of the cost. The tests check the bound against the exact model
//! at a hundred thousand SINRs and chunk sizes across every table.

use std::sync::OnceLock;

use super::error::{constellation, nist_table_index, ErrorRateModel};
use super::{ModeId, Modulation};

/// ln of the lowest tabulated SNR (1e-3, -30 dB).
const U0: f64 = -6.907_755_278_982_137;
/// The grid step in ln SNR (0.0174 dB).
const DU: f64 = 0.004;
/// Grid points from SNR 1e-3 to 1e5: (ln 1e5 - ln 1e-3) / DU + 1.
const POINTS: usize = 4_606;
/// The largest bound a table answer may have: beyond it the exact model answers.
pub const MAX_ERR: f64 = 1e-6;
/// y = ln(-ln p) at p = 1/2: the stencils interpolated lie below it.
const Y_SMOOTH: f64 = -0.366_512_920_581_664_3;
/// The bound's allowance for rounding (in the exact model's powers and products, and here).
const ROUNDING: f64 = 1.0 / (1u64 << 50) as f64;

/// One unit success function on the grid.
struct Table {
    /// The unit's success p at u = U0 + k DU.
    p: Vec<f64>,
    /// y = ln(-ln p) there: -inf where p rounds to 1, +inf where p is 0.
    y: Vec<f64>,
    /// Per cell k (between points k and k + 1) where it is interpolated: the error in y that
    /// the bound allows (see the module's comment); 0 elsewhere.
    e_y: Vec<f64>,
    /// Bits per unit: 1, or a CCK symbol's 4 or 8.
    bits_per_unit: f64,
}

/// Tables by key: DSSS/HR-DSSS by rate (4), NIST by constellation and code (24, shared by the
/// OFDM, HT, VHT and HE modes that have them), YANS by mode (its Eb/N0 depends on the PHY rate and
/// width).
const DSSS_KEYS: usize = 4;
const NIST_KEYS: usize = 24;
const KEYS: usize = DSSS_KEYS + NIST_KEYS + crate::phy::modes::MODE_COUNT;

fn key(model: ErrorRateModel, mode: ModeId) -> usize {
    match (mode.modulation(), model) {
        (Modulation::Dsss { rate_kbps }, _) => match rate_kbps {
            1000 => 0,
            2000 => 1,
            5500 => 2,
            _ => 3,
        },
        (_, ErrorRateModel::Nist) => {
            let (m, code) = constellation(mode).expect("an OFDM or HT mode");
            DSSS_KEYS + nist_table_index(m, code)
        }
        (_, ErrorRateModel::Yans) => DSSS_KEYS + NIST_KEYS + usize::from(mode.0),
    }
}

fn table(model: ErrorRateModel, mode: ModeId) -> &'static Table {
    static TABLES: [OnceLock<Table>; KEYS] = [const { OnceLock::new() }; KEYS];
    TABLES[key(model, mode)].get_or_init(|| {
        let (mut p, mut y) = (Vec::with_capacity(POINTS), Vec::with_capacity(POINTS));
        let mut bits_per_unit = 1.0;
        let mut ones = 0;
        for k in 0..POINTS {
            let snr = (U0 + k as f64 * DU).exp();
            let unit = model.unit_success(snr, mode);
            bits_per_unit = unit.bits_per_unit;
            p.push(unit.p);
            y.push((-unit.p.ln()).ln());
            // pe only falls with the SNR: past three points where p rounds to 1, all do.
            ones = if unit.p == 1.0 { ones + 1 } else { 0 };
            if ones == 3 {
                break;
            }
        }
        // The interpolation's error at each cell's middle, where a cubic's error term peaks.
        let mut mid = vec![f64::INFINITY; y.len()];
        for k in 1..y.len().saturating_sub(2) {
            let stencil = [y[k - 1], y[k], y[k + 1], y[k + 2]];
            if smooth(stencil) {
                let unit = model.unit_success((U0 + (k as f64 + 0.5) * DU).exp(), mode);
                mid[k] = (cubic(0.5, stencil) - (-unit.p.ln()).ln()).abs();
            }
        }
        // A cell's allowance: four times the largest of its own and its neighbours' (a sign
        // change of the fourth derivative can leave one middle near 0), and 1e-9 at least.
        let e_y = (0..y.len())
            .map(|k| {
                let near = mid[k.saturating_sub(1)..(k + 2).min(y.len())]
                    .iter()
                    .filter(|e| e.is_finite())
                    .fold(0.0f64, |m, e| m.max(*e));
                if mid[k].is_finite() {
                    4.0 * near + 1e-9
                } else {
                    0.0
                }
            })
            .collect();
        Table { p, y, e_y, bits_per_unit }
    })
}

/// A chunk's success from the table and the bound on its distance from the exact model's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounded {
    pub p: f64,
    /// 0 when `p` is exactly the exact model's (1, or no bits).
    pub err: f64,
}

/// The success of `bits` bits at `mode` and linear SNR `snr` under `model`, from the table,
/// with its bound; `None` where only the exact model can say ([`ErrorRateModel::chunk_success`]).
#[inline]
pub fn bounded(model: ErrorRateModel, snr: f64, mode: ModeId, bits: u64) -> Option<Bounded> {
    if bits == 0 {
        return Some(Bounded { p: 1.0, err: 0.0 }); // p^0, whatever p
    }
    if snr.is_nan() || snr <= 0.0 {
        return None;
    }
    let x = (snr.ln() - U0) / DU;
    let t = table(model, mode);
    let n = bits as f64 / t.bits_per_unit;
    if x < 1.0 {
        // Below the table (a collision under many others): p is below its value there.
        return certain(bracketed(0.0, t.p[1], n), t.p[1] < 1.0 && n >= 1.0);
    }
    if x >= (t.y.len() - 2) as f64 {
        // Past a table that stopped three points into p = 1 (all later ones are 1); past
        // 50 dB in one that never got there, the exact model.
        return (t.y.len() < POINTS).then_some(Bounded { p: 1.0, err: 0.0 });
    }
    let k = x as usize;
    let (a, b, c, d) = (t.y[k - 1], t.y[k], t.y[k + 1], t.y[k + 2]);
    if b == f64::NEG_INFINITY && c == f64::NEG_INFINITY {
        // p rounds to 1 at both ends, so between them (pe falls with the SNR).
        return Some(Bounded { p: 1.0, err: 0.0 });
    }
    let stencil = [a, b, c, d];
    // p < 1 at the cell's upper end, so all through it: P = p^n < 1 for n >= 1.
    let below_one = t.p[k + 1] < 1.0 && n >= 1.0;
    let p = if smooth(stencil) {
        interpolated(cubic(x - k as f64, stencil), t.e_y[k], n)
    } else {
        bracketed(t.p[k], t.p[k + 1], n)
    };
    certain(p, below_one)
}

/// `p` if it is within the stated 1e-6 and certainly below 1, as the exact model's P is
/// (`below_one`: known from the unit's p; else P's bound must stay below 1), so that a draw
/// is taken exactly where the exact model takes one; `None` otherwise.
#[inline]
fn certain(p: Bounded, below_one: bool) -> Option<Bounded> {
    const JUST_BELOW_ONE: f64 = 1.0 - f64::EPSILON / 2.0;
    if p.err.is_nan() || p.err > MAX_ERR {
        None
    } else if below_one {
        Some(Bounded { p: p.p.min(JUST_BELOW_ONE), err: p.err })
    } else {
        (p.p + p.err < 1.0).then_some(p)
    }
}

/// Whether a stencil is interpolated: p >= 1/2 at its four points (none rounds to 1).
#[inline]
fn smooth([a, b, c, d]: [f64; 4]) -> bool {
    a.max(b).max(c).max(d) <= Y_SMOOTH && a.min(b).min(c).min(d) > f64::NEG_INFINITY
}

/// The cubic through the points at -1, 0, 1, 2, at `s` (in [0, 1) between the middle two).
#[inline]
fn cubic(s: f64, [a, b, c, d]: [f64; 4]) -> f64 {
    -a * s * (s - 1.0) * (s - 2.0) / 6.0 + b * (s + 1.0) * (s - 1.0) * (s - 2.0) / 2.0
        - c * (s + 1.0) * s * (s - 2.0) / 2.0
        + d * (s + 1.0) * s * (s - 1.0) / 6.0
}

/// `n` units at the interpolated `y`, whose error the cell bounds by `e_y`.
#[inline]
fn interpolated(y: f64, e_y: f64, n: f64) -> Bounded {
    let neg_ln_unit = y.exp(); // -ln p, p >= 1/2
    let neg_ln_p = n * neg_ln_unit;
    let p = (-neg_ln_p).exp();
    let err = p * (neg_ln_p * e_y + n * ROUNDING * neg_ln_unit.exp()) + ROUNDING;
    Bounded { p, err }
}

/// Elsewhere (p below 1/2, where y runs to infinity with p's approach to 0, or a cap such as
/// DQPSK's bends it), from p's rise with the SNR alone: the unit's exact p lies between its
/// values at the cell's ends `lo` and `hi`, within the exact model's rounding, so P between
/// their n-th powers; the middle, with half the width as the bound.
#[inline]
fn bracketed(lo: f64, hi: f64, n: f64) -> Bounded {
    let below = (lo - ROUNDING).max(0.0).powf(n);
    let above = (hi + ROUNDING).min(1.0).powf(n);
    Bounded { p: 0.5 * (below + above), err: 0.5 * (above - below) + ROUNDING }
}

/// Whether a draw `u` fails against a success probability known as `p` within `err`, with
/// `exact` to settle it where the bound does not (the exact model's probability): `u >= P`.
#[inline]
pub fn fails(u: f64, p: f64, err: f64, exact: impl FnOnce() -> f64) -> bool {
    if (u - p).abs() > err {
        u >= p
    } else {
        u >= exact()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::modes::ModeId;
    use crate::rng::{Purpose, Stream};

    /// Every non-HT and HT mode and the VHT and HE modes of one stream at 20 and 160 MHz
    /// (every constellation and code, the narrowest and widest YANS Eb/N0), once per table key.
    fn keyed_modes() -> Vec<(ErrorRateModel, ModeId)> {
        use crate::phy::Modulation;
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        let sampled = |m: &ModeId| match m.modulation() {
            Modulation::Vht(v) => v.nss == 1 && !v.sgi && matches!(v.width_mhz, 20 | 160),
            Modulation::He(h) => h.nss == 1 && h.gi_ns == 800 && matches!(h.width_mhz, 20 | 160),
            _ => true,
        };
        for model in [ErrorRateModel::Nist, ErrorRateModel::Yans] {
            for mode in ModeId::all().filter(sampled) {
                if seen.insert(key(model, mode)) {
                    out.push((model, mode));
                }
            }
        }
        out
    }

    /// The bound holds against the exact model at SINRs drawn log-uniformly over the table
    /// and around its ends, for chunks from 1 bit to an A-MPDU's; and it stays below 1e-6.
    #[test]
    fn the_table_is_within_its_bound_of_the_exact_model() {
        let mut rng = Stream::derive(7, 1, Purpose::RxError);
        let bits = [1u64, 8, 24, 48, 112, 304, 1000, 12_000, 100_000, 1_000_000];
        let mut worst = 0.0f64;
        let mut answered = 0;
        for (model, mode) in keyed_modes() {
            let cck = matches!(mode.modulation(), Modulation::Dsss { rate_kbps: 5500 | 11000 });
            let samples = if cck { 3_000 } else { 20_000 };
            for _ in 0..samples {
                let snr = (U0 + rng.unit() * (POINTS as f64 * DU)).exp();
                let exact_unit = model.unit_success(snr, mode);
                for &b in &bits {
                    let exact = exact_unit.chunk(b);
                    let Some(got) = bounded(model, snr, mode, b) else { continue };
                    answered += 1;
                    let diff = (got.p - exact).abs();
                    assert!(
                        diff <= got.err,
                        "{mode:?} {model:?} snr {snr} bits {b}: table {} exact {exact} bound {}",
                        got.p,
                        got.err
                    );
                    assert_eq!(got.p == 1.0, exact == 1.0, "{mode:?} snr {snr} bits {b}");
                    worst = worst.max(diff).max(got.err);
                }
            }
        }
        assert!(worst <= 1e-6, "largest error or bound {worst}");
        assert!(answered > 100_000, "the table answered only {answered} times");
    }

    /// Across the table's range the table answers nearly always (the exact model only near
    /// P = 1 and where a bound would pass 1e-6).
    #[test]
    fn the_table_answers_almost_everywhere_in_its_range() {
        let mut rng = Stream::derive(8, 1, Purpose::RxError);
        for (model, mode) in keyed_modes() {
            let mut none = 0;
            for _ in 0..2_000 {
                let snr = (U0 + 1.0 + rng.unit() * 8.0).exp(); // -25.7 to 9.1 dB
                if bounded(model, snr, mode, 1000).is_none() {
                    none += 1;
                }
            }
            // At most 2 of 2000 when written (where P is within 1e-12 of 1, or a bound passes
            // 1e-6): 1 % leaves room for a finer chunk mix, not for a table that stops answering.
            assert!(none <= 20, "{mode:?} {model:?}: {none} of 2000 unanswered");
        }
    }

    #[test]
    fn a_draw_the_bound_cannot_settle_goes_to_the_exact_model() {
        assert!(fails(0.5, 0.4, 1e-9, || panic!("settled by the table")));
        assert!(!fails(0.3, 0.4, 1e-9, || panic!("settled by the table")));
        assert!(!fails(0.4, 0.4, 1e-9, || 0.41));
        assert!(fails(0.4, 0.4, 1e-9, || 0.39));
    }
}
