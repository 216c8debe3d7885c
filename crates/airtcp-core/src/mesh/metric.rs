//! The 802.11s Airtime Link Metric (802.11-2012 13.9, Eq. 13-3) and how Linux computes it.
//!
//! - The standard: `c_a = [O + B_t / r] / (1 - e_f)`, with `B_t` a test frame of 8192 bits,
//!   `r` the rate [Mbit/s] the station would send it at now, `e_f` its frame error rate, `O` the
//!   PHY's channel-access overhead; in units of 0.01 TU (10.24 us).
//! - Linux 3.12 (`net/mac80211/mesh_hwmp.c`, `airtime_link_metric_get`): the same in 8-bit fixed
//!   point with `O` = 1 and the rate of the last unicast frame (`cfg80211_calculate_bitrate`,
//!   100 kbit/s units), `e_f` the failure average in percent; so `(1 + 8192 / r) / (1 - f/100)`,
//!   with two quirks: `fail_avg >= 100` gives the maximum metric, and the product is taken in
//!   32 bits, so it wraps past 2^32 (fixed in 2021, "mac80211: fix potential overflow when
//!   multiplying to u32 integers"; [`linux`] keeps 3.12's, [`linux_u64`] the fixed one).
//! - The failure average as 3.12 updates it (`ieee80211s_update_metric`, on each final status
//!   of a unicast data frame): `f = (80 f + 5) / 100 + 20 failed`, the link broken
//!   (`mesh_plink_broken`: its paths deactivated, a PERR sent) once `f > 95`.

/// `TEST_FRAME_LEN` [bits] (8192: the standard's B_t).
pub const TEST_FRAME_BITS: u32 = 8192;
/// `MAX_METRIC`.
pub const MAX_METRIC: u32 = u32::MAX;
/// `ARITH_SHIFT`: Linux's fixed-point fraction bits.
const ARITH_SHIFT: u32 = 8;
pub use crate::mac::station::LINK_FAIL_THRESH;

fn parts(rate_100kbps: u32, fail_avg: u32) -> Option<(u32, u32)> {
    if fail_avg >= 100 || rate_100kbps == 0 {
        return None; // MAX_METRIC (a zero rate is a WARN_ON there)
    }
    let device_constant = 1u32 << ARITH_SHIFT;
    let test_frame_len = TEST_FRAME_BITS << ARITH_SHIFT;
    let s_unit = 1u32 << ARITH_SHIFT;
    let err = (fail_avg << ARITH_SHIFT) / 100;
    // 100 kbit/s units: the factor 10 makes the rate Mbit/s.
    let tx_time = device_constant + 10 * test_frame_len / rate_100kbps;
    let estimated_retx = (1u32 << (2 * ARITH_SHIFT)) / (s_unit - err);
    Some((tx_time, estimated_retx))
}

/// Linux 3.12's `airtime_link_metric_get` for a last TX rate of `rate_100kbps` (540 for 54
/// Mbit/s) and a failure average of `fail_avg` percent: the 32-bit product, wrapping.
pub fn linux(rate_100kbps: u32, fail_avg: u32) -> u32 {
    match parts(rate_100kbps, fail_avg) {
        Some((t, e)) => t.wrapping_mul(e) >> (2 * ARITH_SHIFT),
        None => MAX_METRIC,
    }
}

/// The same with the 64-bit product of Linux 5.12 on (and the stable kernels since).
pub fn linux_u64(rate_100kbps: u32, fail_avg: u32) -> u32 {
    match parts(rate_100kbps, fail_avg) {
        Some((t, e)) => ((u64::from(t) * u64::from(e)) >> (2 * ARITH_SHIFT)) as u32,
        None => MAX_METRIC,
    }
}

/// Eq. 13-3: the metric [0.01 TU] of a link with channel-access overhead `overhead_us`, rate
/// `rate_mbps` and frame error rate `frame_error_rate` (for the 8192-bit test frame).
pub fn standard(overhead_us: f64, rate_mbps: f64, frame_error_rate: f64) -> f64 {
    if frame_error_rate >= 1.0 || rate_mbps <= 0.0 {
        return f64::INFINITY;
    }
    (overhead_us + f64::from(TEST_FRAME_BITS) / rate_mbps) / (1.0 - frame_error_rate) / 10.24
}

// The failure average lives in the MAC's station table, as Linux keeps it in sta_info.
pub use crate::mac::station::FailAvg;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linux_metric_at_four_rates_and_five_failure_averages() {
        // Hand computation of the integer code: at 54 Mbit/s, fail 0: tx_time = 256 +
        // 10 x 2097152 / 540 = 39092, retx = 65536 / 256 = 256, 39092 x 256 >> 16 = 152.
        let want = [
            (540, [152, 190, 305, 751, 3553]),
            (110, [745, 929, 1491, 3670, 17352]),
            (60, [1366, 1702, 2732, 6724, 31793]),
        ];
        for (rate, row) in want {
            let got: Vec<u32> = [0, 20, 50, 80, 96].iter().map(|&f| linux(rate, f)).collect();
            assert_eq!(got, row, "rate {rate}");
            let fixed: Vec<u32> = [0, 20, 50, 80, 96].iter().map(|&f| linux_u64(rate, f)).collect();
            assert_eq!(fixed, row, "rate {rate}: no product reaches 2^32");
        }
        // At 1 Mbit/s: 8193, 16386 and, at 80 %, 2097408 x 1260 = 2_642_734_080 < 2^32, so
        // 3.12 agrees; at 96 % the product exceeds 2^32 and 3.12's wraps.
        assert_eq!(linux_u64(10, 0), 8193);
        assert_eq!((linux(10, 80), linux_u64(10, 80)), (40_324, 40_324));
        assert_eq!(linux_u64(10, 50), 16386);
        assert_eq!(linux_u64(10, 96), 190_647);
        // 2097408 x 5957 = 12_494_259_456; minus 2 x 2^32 = 3_904_324_864; >> 16 = 59_575.
        assert_eq!(linux(10, 96), 59_575);
        assert_eq!((linux(540, 100), linux(0, 0)), (MAX_METRIC, MAX_METRIC));
    }

    #[test]
    fn linux_metric_is_the_standard_with_one_unit_of_overhead() {
        // (1 + 8192 / r) / (1 - e) in microseconds, against Eq. 13-3 with O = 1 us read in us
        // (x 10.24), e being Linux's error in 1/256 (truncated: 80 % is 204/256 = 79.7 %):
        // within the fixed point's other truncations (under 0.5 %).
        for (rate, f) in [(540u32, 0u32), (110, 20), (60, 50), (10, 80)] {
            let e = f64::from(f * 256 / 100) / 256.0;
            let eq = standard(1.0, f64::from(rate) / 10.0, e) * 10.24;
            let lx = f64::from(linux_u64(rate, f));
            assert!((lx - eq).abs() / eq < 0.005, "{rate} {f}: {lx} vs {eq}");
        }
        // Eq. 13-3 by hand with 802.11a's draft overhead of 75 us: 54 Mbit/s, 20 % errors:
        // (75 + 151.70) / 0.8 / 10.24 = 27.67 units of 0.01 TU.
        assert!((standard(75.0, 54.0, 0.2) - 27.674).abs() < 1e-3);
        assert_eq!(standard(75.0, 54.0, 1.0), f64::INFINITY);
    }

    #[test]
    fn failure_average_breaks_the_link_at_the_seventeenth_failure() {
        // f = (80 f + 5) / 100 + 20 by hand: 20, 36, 48, 58, 66, 72, 77, 81, 84, 87, 89, 91,
        // 92, 93, 94, 95, 96 (its fixed point: 100 is never reached).
        let mut f = FailAvg::default();
        let mut seen = Vec::new();
        let mut broke_at = None;
        for k in 1..=20 {
            if f.update(false) && broke_at.is_none() {
                broke_at = Some(k);
            }
            seen.push(f.percent);
        }
        assert_eq!(&seen[..17], &[20, 36, 48, 58, 66, 72, 77, 81, 84, 87, 89, 91, 92, 93, 94, 95, 96]);
        assert_eq!((broke_at, f.percent), (Some(17), 96));
        // Successes bring it down: 76, 60, 48, 38, 30.
        let down: Vec<u32> = (0..5).map(|_| (f.update(true), f.percent).1).collect();
        assert_eq!(down, [76, 60, 48, 38, 30]);
    }
}
