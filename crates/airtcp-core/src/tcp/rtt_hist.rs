//! Bounded RTT statistics: a fixed log-linear histogram (HDR-histogram style) for percentiles,
//! exact count, sum, minimum and maximum. Its size does not depend on the number of samples,
//! so a run of any length keeps about 18 KiB per TCP flow.
//!
//! Buckets: every value below 128 ns has its own bucket (exact); above, each power of two
//! [2^e, 2^(e+1)) is cut into 64 equal buckets of width 2^(e-6), up to 2^40 ns (1099.5 s).
//! A bucket is at most 1/64 of its lower bound wide, and a percentile is reported as the middle
//! of the bucket holding the nearest-rank sample, clamped to the exact [min, max]: **its
//! relative error is below 1/128 = 0.79 %** for any sample up to 1099.5 s (the layout of
//! G. Tene's HdrHistogram with 2 significant digits, http://hdrhistogram.org/). Samples beyond
//! 2^40 ns share the top bucket; their percentiles are then bounded by the exact maximum only.

/// log2 of the linear buckets per power of two: relative bucket width <= 2^-SUB_BITS.
const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;
/// Values below 2 SUB have a bucket each.
const EXACT: u64 = 2 * SUB;
/// The covered range ends at 2^MAX_EXP ns (1099.5 s > 1000 s).
const MAX_EXP: u32 = 40;
/// EXACT exact buckets, then SUB buckets for each power of two from 2^(SUB_BITS+1) on.
pub const BUCKETS: usize = (EXACT + (MAX_EXP - SUB_BITS - 1) as u64 * SUB) as usize;

/// Streaming RTT statistics [ns]: exact count, mean, min and max; percentiles within 0.79 %.
#[derive(Clone, Debug)]
pub struct RttHistogram {
    counts: Box<[u64; BUCKETS]>,
    n: u64,
    sum_ns: u128,
    min_ns: u64,
    max_ns: u64,
}

impl Default for RttHistogram {
    fn default() -> Self {
        RttHistogram { counts: Box::new([0; BUCKETS]), n: 0, sum_ns: 0, min_ns: u64::MAX, max_ns: 0 }
    }
}

/// Bucket of a value [ns].
fn index(v: u64) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let e = 63 - v.leading_zeros(); // v in [2^e, 2^(e+1)), e > SUB_BITS
    if e >= MAX_EXP {
        return BUCKETS - 1;
    }
    let shift = e - SUB_BITS;
    // HdrHistogram layout: (shift << SUB_BITS) + (v >> shift), the second term in [SUB, 2 SUB).
    ((u64::from(shift) << SUB_BITS) + (v >> shift)) as usize
}

/// Lowest value and width of a bucket [ns].
fn bounds(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < EXACT {
        return (i, 1);
    }
    let shift = (i >> SUB_BITS) - 1;
    ((SUB + (i & (SUB - 1))) << shift, 1 << shift)
}

impl RttHistogram {
    pub fn record(&mut self, ns: u64) {
        self.counts[index(ns)] += 1;
        self.n += 1;
        self.sum_ns += u128::from(ns);
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
    }

    pub fn count(&self) -> u64 {
        self.n
    }

    /// Exact mean [s]; 0 without samples.
    pub fn mean_s(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum_ns as f64 / self.n as f64 / 1e9
        }
    }

    /// Exact minimum and maximum [ns], if any sample.
    pub fn min_max_ns(&self) -> Option<(u64, u64)> {
        (self.n > 0).then_some((self.min_ns, self.max_ns))
    }

    /// Nearest-rank `q` quantile [s] (the ceil(q n)-th smallest sample) within 0.79 % (module
    /// doc); 0 without samples.
    pub fn quantile_s(&self, q: f64) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let rank = ((q * self.n as f64).ceil() as u64).clamp(1, self.n);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (lo, w) = bounds(i);
                // The middle of the integer values lo..lo + w - 1: at most (w - 1) / 2 away.
                let mid = lo as f64 + (w - 1) as f64 / 2.0;
                return mid.clamp(self.min_ns as f64, self.max_ns as f64) / 1e9;
            }
        }
        self.max_ns as f64 / 1e9
    }

    /// Heap bytes held: fixed at construction, whatever the number of samples.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact nearest-rank quantile of sorted values [ns].
    fn exact(sorted: &[u64], q: f64) -> u64 {
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    #[test]
    fn buckets_tile_the_range_without_gaps_and_are_at_most_1_64_of_their_floor_wide() {
        assert_eq!(BUCKETS, 2240); // 128 exact + 33 powers of two (2^7 .. 2^39) x 64
        let mut next = 0;
        for i in 0..BUCKETS {
            let (lo, w) = bounds(i);
            assert_eq!(lo, next, "bucket {i} starts where {} ends", i.saturating_sub(1));
            assert_eq!(index(lo), i);
            assert_eq!(index(lo + w - 1), i);
            assert!(lo < EXACT || w * SUB <= lo, "bucket {i}: width {w} > {lo} / 64");
            next = lo + w;
        }
        assert_eq!(next, 1 << MAX_EXP);
        assert_eq!(index(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn quantiles_are_within_the_bucket_bound_of_exact_ones() {
        // Log-uniform samples from 1 us to 1000 s (a fixed LCG, Knuth MMIX constants), plus a
        // cluster of close values. Bound: half a bucket width over its floor, (w - 1) / 2 / lo
        // < 1 / (2 * 64) = 1/128 (module doc).
        let mut x: u64 = 1;
        let mut v = Vec::new();
        for _ in 0..100_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            v.push((1e3 * 1e9f64.powf(u)) as u64); // 10^3 .. 10^12 ns
        }
        v.extend((0..1000).map(|k| 40_000_000 + k * 37)); // ~40 ms, like a WiFi RTT
        let mut h = RttHistogram::default();
        for &s in &v {
            h.record(s);
        }
        v.sort_unstable();
        for q in [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0] {
            let want = exact(&v, q) as f64 / 1e9;
            let got = h.quantile_s(q);
            assert!((got / want - 1.0).abs() < 1.0 / 128.0, "q {q}: {got} vs exact {want}");
        }
        let mean = v.iter().map(|&s| s as f64).sum::<f64>() / v.len() as f64 / 1e9;
        assert!((h.mean_s() / mean - 1.0).abs() < 1e-12, "the mean is exact");
        assert_eq!(h.min_max_ns(), Some((v[0], v[v.len() - 1])));
        assert_eq!(h.quantile_s(1.0), v[v.len() - 1] as f64 / 1e9, "clamped to the exact max");
    }

    #[test]
    fn small_values_and_a_single_value_are_exact() {
        let mut h = RttHistogram::default();
        for s in [5, 7, 7, 100] {
            h.record(s);
        }
        assert_eq!(h.quantile_s(0.5), 7e-9); // rank 2 of [5, 7, 7, 100]
        let mut one = RttHistogram::default();
        for _ in 0..10 {
            one.record(41_234_567);
        }
        // Bucket width 2^19 ns around 41 ms, but min = max pins it.
        assert_eq!(one.quantile_s(0.99), 41_234_567e-9);
        assert_eq!(RttHistogram::default().quantile_s(0.5), 0.0);
    }

    #[test]
    fn memory_does_not_grow_with_the_samples() {
        let mut h = RttHistogram::default();
        let before = h.heap_bytes();
        for k in 0..1_000_000u64 {
            h.record(k * 997 % 2_000_000_000);
        }
        assert_eq!(h.heap_bytes(), before);
        assert_eq!(before, BUCKETS * 8);
        assert_eq!(h.count(), 1_000_000);
    }
}
