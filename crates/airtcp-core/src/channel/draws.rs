//! Counter-based random draws: a key hashed from a few integers, then the SplitMix64 sequence
//! from that key. Stateless from the caller's point of view: the same integers always give the
//! same uniforms, whatever else the run has drawn, so a scheme switched on or off elsewhere
//! never shifts the channel.

/// The SplitMix64 increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): `state + GAMMA`, then the finaliser; a
/// bijection. The same function as the private `rng::mix64`.
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Domain tags: fading and mobility draws never share keys even when their integers match.
pub(crate) const TAG_FADING: u64 = 0x4641_4449_4e47_0001; // "FADING"
pub(crate) const TAG_WAYPOINT: u64 = 0x5257_4159_504f_0002; // "RWAYPO"

/// The uniforms of one key: a SplitMix64 generator (a `Copy` counter, no allocation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Draws {
    state: u64,
}

impl Draws {
    /// The sequence keyed by `(tag, seed, a, b)`, hashed by chained SplitMix64.
    pub(crate) const fn new(tag: u64, seed: u64, a: u64, b: u64) -> Draws {
        Draws { state: mix64(mix64(mix64(seed ^ tag) ^ a) ^ b) }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let out = mix64(self.state);
        self.state = self.state.wrapping_add(GAMMA);
        out
    }

    /// Uniform in the open interval (0, 1): 53 random bits, centred in their cell, so neither
    /// end is ever returned (`ln(u)` and `1/u` stay finite).
    pub(crate) fn open01(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal variate (Box-Muller, cosine branch; two uniforms per call).
    pub(crate) fn normal(&mut self) -> f64 {
        let r = (-2.0 * self.open01().ln()).sqrt();
        r * (std::f64::consts::TAU * self.open01()).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_key_same_sequence_other_key_other_sequence() {
        let take = |mut d: Draws| [d.next_u64(), d.next_u64(), d.next_u64()];
        assert_eq!(take(Draws::new(TAG_FADING, 1, 2, 3)), take(Draws::new(TAG_FADING, 1, 2, 3)));
        assert_ne!(take(Draws::new(TAG_FADING, 1, 2, 3)), take(Draws::new(TAG_FADING, 1, 2, 4)));
        assert_ne!(take(Draws::new(TAG_FADING, 1, 2, 3)), take(Draws::new(TAG_FADING, 1, 3, 2)));
        assert_ne!(take(Draws::new(TAG_FADING, 1, 2, 3)), take(Draws::new(TAG_WAYPOINT, 1, 2, 3)));
    }

    #[test]
    fn open_uniforms_stay_inside_and_have_mean_one_half() {
        let mut d = Draws::new(TAG_FADING, 9, 0, 0);
        let n = 100_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let u = d.open01();
            assert!(u > 0.0 && u < 1.0);
            sum += u;
        }
        // Closed form: mean 1/2, standard error 1/sqrt(12 n) = 0.0009.
        assert!((sum / n as f64 - 0.5).abs() < 0.005);
    }

    #[test]
    fn normals_have_mean_zero_variance_one() {
        let mut d = Draws::new(TAG_FADING, 5, 1, 1);
        let n = 100_000;
        let (mut s, mut s2) = (0.0, 0.0);
        for _ in 0..n {
            let z = d.normal();
            s += z;
            s2 += z * z;
        }
        let mean = s / n as f64;
        assert!(mean.abs() < 0.015, "{mean}");
        assert!((s2 / n as f64 - mean * mean - 1.0).abs() < 0.02);
    }
}
