//! MoFA, mobility-aware frame aggregation (S. Byeon, K. Yoon, O. Lee, S. Choi, W. Cho, S. Oh,
//! "MoFA: Mobility-aware Frame Aggregation in Wi-Fi", ACM CoNEXT 2014): the originator bounds
//! an A-MPDU's airtime per peer from the BlockAcks' bitmaps. Followed as its first author's
//! ns-3 implementation runs it (the public repository `hurjaewon/mesh`, commit 18084ae,
//! `src/wifi/model/wifi-remote-station-manager.cc`: `MobilityDetection`, `SferUpdate`,
//! `IncreaseLength`, `DecreaseLength`):
//!
//! - on each BlockAck, the subframe error rates of the A-MPDU's first half and second half
//!   [%]; their difference M = SFER_last - SFER_first, and SFER_total;
//! - each position's error rate smoothed, sfer_i = 0.6666 sfer_i + 0.3334 (1 - success_i), for
//!   all 64 positions (those past the A-MPDU count as lost), below 1e-4 taken as 0;
//! - M > 20 or SFER_total > 10: *decrease* to the length that maximizes the expected delivered
//!   subframes per airtime, sum_(j <= i)(1 - sfer_j) / ((i + 1) t + 157.5 us), among lengths
//!   below the current bound (positions past it set to 1), at least 2 subframes, plus 44 us;
//!   and the next increase starts over;
//! - otherwise *increase* by 2^k subframe airtimes at the k-th increase in a row, up to
//!   5484 us.
//!
//! One deviation: the reference prices a subframe as a 1036-byte MPDU (decrease) and a
//! 1536-byte one (increase) at the data rate with 1024 x 1024 microseconds per second; here a
//! subframe's airtime is the A-MPDU's own, its data portion over its subframes.

use crate::time::Dur;

/// Positions MoFA tracks: the Block Ack window.
pub const POSITIONS: usize = 64;
/// The longest A-MPDU airtime MoFA allows [us]: aPPDUMaxTime of an HT-mixed PPDU.
pub const MAX_AGGR_US: f64 = 5484.0;
/// `MobilityDetection`'s thresholds: the second half's error rate above the first's by more
/// than 20 points, or the whole A-MPDU's above 10 %.
pub const M_THRESHOLD: f64 = 20.0;
pub const SFER_THRESHOLD: f64 = 10.0;
/// `SferUpdate`'s smoothing weight of the past.
pub const BETA: f64 = 0.6666;
/// `DecreaseLength`'s overhead per A-MPDU [us] (34 + 67.5 + 8 + 8 + 4 + 4 + 4 + 16 + 12: the
/// preamble, a BlockAck at 24 Mbit/s and the IFS around it) and the allowance added to the
/// chosen length [us].
pub const OVERHEAD_US: f64 = 157.5;
pub const MARGIN_US: f64 = 44.0;

/// MoFA's state toward one peer on one access category.
#[derive(Clone, Copy, Debug)]
pub struct Mofa {
    /// The A-MPDU airtime bound [us] (`aggrTime`), 5484 at first.
    pub aggr_us: f64,
    /// Increases in a row (`inc_idx`).
    pub increases: u32,
    /// Each position's smoothed subframe error rate (`sfer`).
    pub sfer: [f64; POSITIONS],
}

impl Default for Mofa {
    fn default() -> Mofa {
        Mofa { aggr_us: MAX_AGGR_US, increases: 0, sfer: [0.0; POSITIONS] }
    }
}

impl Mofa {
    /// The A-MPDU's longest airtime now.
    pub fn max_time(&self) -> Dur {
        Dur((self.aggr_us * 1e3).round() as u64)
    }

    /// A BlockAck answered an A-MPDU whose subframes, in order, got through or not
    /// (`delivered`); `subframe_us` is one subframe's airtime.
    pub fn on_block_ack(&mut self, delivered: &[bool], subframe_us: f64) {
        let n = delivered.len().min(POSITIONS);
        if n == 0 {
            return;
        }
        let half = n / 2;
        let ok_first = delivered[..half].iter().filter(|&&d| d).count() as f64;
        let ok_last = delivered[half..n].iter().filter(|&&d| d).count() as f64;
        // With one subframe the first half is empty: the reference's 0/0 makes M NaN, so
        // only the total decides.
        let sfer_first = 100.0 - ok_first / half as f64 * 100.0;
        let sfer_last = 100.0 - ok_last / (n - half) as f64 * 100.0;
        let m = sfer_last - sfer_first;
        let sfer_total = (n as f64 - ok_first - ok_last) / n as f64 * 100.0;
        for (i, s) in self.sfer.iter_mut().enumerate() {
            let ok = i < n && delivered[i];
            *s = *s * BETA + f64::from(u8::from(!ok)) * (1.0 - BETA);
            if *s < 1e-4 {
                *s = 0.0;
            }
        }
        if m > M_THRESHOLD || sfer_total > SFER_THRESHOLD {
            self.decrease(subframe_us);
        } else {
            self.increase(subframe_us);
        }
    }

    /// `IncreaseLength`: 2^k subframes more at the k-th increase in a row, up to 5484 us.
    fn increase(&mut self, subframe_us: f64) {
        self.increases += 1;
        self.aggr_us = (self.aggr_us + 2f64.powi(self.increases as i32) * subframe_us).min(MAX_AGGR_US);
    }

    /// `DecreaseLength`: the length below the current bound with the most expected subframes
    /// through per airtime (ties: the shortest), at least 2 subframes, plus 44 us.
    fn decrease(&mut self, subframe_us: f64) {
        self.increases = 0;
        let (mut best_n, mut best) = (1usize, 0.0f64);
        let mut expected = 0.0;
        for i in 0..POSITIONS {
            let tx_us = (i + 1) as f64 * subframe_us;
            if tx_us >= self.aggr_us {
                for s in &mut self.sfer[i..] {
                    *s = 1.0;
                }
                break;
            }
            expected += 1.0 - self.sfer[i];
            let thpt = expected / (tx_us + OVERHEAD_US);
            if i == 0 {
                best = thpt;
            } else if best < thpt {
                best_n = i + 1;
                best = thpt;
            }
        }
        self.aggr_us = best_n.max(2) as f64 * subframe_us + MARGIN_US;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_aggregate_grows_the_bound_by_doubling_steps() {
        // Every subframe through: M = 0, SFER 0, so IncreaseLength: from a bound of 1000 us,
        // +2, +4, +8 subframes of 200 us: 1400, 2200, 3800, then 5484 (the cap; hand count).
        let mut m = Mofa { aggr_us: 1000.0, ..Mofa::default() };
        let mut bounds = Vec::new();
        for _ in 0..4 {
            m.on_block_ack(&[true; 5], 200.0);
            bounds.push(m.aggr_us);
        }
        assert_eq!(bounds, [1400.0, 2200.0, 3800.0, 5484.0]);
        assert_eq!(m.max_time(), Dur::from_us(5484));
    }

    #[test]
    fn late_losses_shrink_the_bound_to_the_best_expected_length() {
        // 10 subframes of 200 us under a bound of 5484 us, the last 4 lost: SFER first half 0,
        // second 80 %, M = 80 > 20, so DecreaseLength. One BlockAck from zero: sfer is 0.3334
        // at positions 6-9 and 10-63 (past the A-MPDU), 0 before. Expected subframes per us at
        // length i + 1: (i + 1) / (200 (i + 1) + 157.5) for i <= 5, rising; at 7 subframes
        // (6 + 0.6666) / 1557.5 = 0.004280 < 6 / 1357.5 = 0.004420: the best is 6 subframes,
        // 6 x 200 + 44 = 1244 us (hand count). Positions from 27 (27 x 200 >= 5484) are set to 1.
        let mut m = Mofa::default();
        let mut delivered = [true; 10];
        delivered[6..].fill(false);
        m.on_block_ack(&delivered, 200.0);
        assert!((m.aggr_us - 1244.0).abs() < 1e-9, "{}", m.aggr_us);
        assert_eq!(m.increases, 0);
        assert_eq!(m.sfer[27], 1.0);
        assert!((m.sfer[26] - 0.3334).abs() < 1e-9);
        // Never below 2 subframes: only the first of 10 delivered, twice. After the first
        // BlockAck every later position is at 0.3334 and a longer aggregate still pays (each
        // subframe adds 0.6666 / 200 us against 1 / 357.5 for the first): the longest below the
        // bound, 27 x 200 + 44 = 5444 us. After the second they are at 0.5556 (0.4444 / 200 us
        // a subframe, less than one subframe's 1 / 357.5): one subframe is best, raised to 2:
        // 2 x 200 + 44 = 444 us (hand count).
        let mut first_only = Mofa::default();
        let mut delivered = [false; 10];
        delivered[0] = true;
        first_only.on_block_ack(&delivered, 200.0);
        assert!((first_only.aggr_us - 5444.0).abs() < 1e-9, "{}", first_only.aggr_us);
        first_only.on_block_ack(&delivered, 200.0);
        assert!((first_only.aggr_us - 444.0).abs() < 1e-9, "{}", first_only.aggr_us);
    }

    #[test]
    fn a_lone_subframe_is_judged_by_the_total_alone() {
        // n = 1: the reference's first half is empty (M is NaN, never > 20); a lost lone
        // subframe is SFER 100 % > 10: decrease; a delivered one increases.
        let mut m = Mofa { aggr_us: 3000.0, ..Mofa::default() };
        m.on_block_ack(&[true], 200.0);
        assert_eq!(m.aggr_us, 3400.0);
        // The lost one: position 0 at 0.3334, the later ones (past the A-MPDU twice) at 0.5556;
        // each added subframe still adds 0.4444 / 200 us, above the average, so the longest
        // length under the 3400-us bound wins: 16 subframes, 16 x 200 + 44 = 3244 us (hand count).
        m.on_block_ack(&[false], 200.0);
        assert!((m.aggr_us - 3244.0).abs() < 1e-9, "{}", m.aggr_us);
    }
}
