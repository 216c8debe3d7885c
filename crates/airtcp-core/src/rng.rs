//! Random streams derived from (seed, entity, purpose).
//!
//! Every consumer of randomness owns its own stream, keyed by a stable entity id (a hash of a
//! node's name, not its position in a list) and a purpose. Adding a node or a flow therefore
//! leaves every other stream untouched.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What a stream is used for; part of its derivation key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Purpose {
    Backoff = 1,
    RxError = 2,
    App = 3,
    LinkLoss = 4,
    RateControl = 5,
    /// 802.11s: the peer links' random retry timeouts.
    Mesh = 6,
}

/// The SplitMix64 increment (the golden ratio in 64 bits).
const SPLITMIX_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(SPLITMIX_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Stable 64-bit id of a name (FNV-1a, then mixed); independent of list order.
pub fn entity_id(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix64(h)
}

/// One seeded random stream (xoshiro256++).
#[derive(Clone, Debug)]
pub struct Stream(Xoshiro256PlusPlus);

impl Stream {
    pub fn derive(seed: u64, entity: u64, purpose: Purpose) -> Stream {
        let key = mix64(mix64(seed) ^ mix64(entity.rotate_left(17)) ^ (purpose as u64));
        Stream(Xoshiro256PlusPlus::seed_from_u64(key))
    }

    /// Uniform integer in `0..=max`.
    pub fn uniform_inclusive(&mut self, max: u32) -> u32 {
        self.0.gen_range(0..=max)
    }

    /// Uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0.gen::<f64>()
    }

    /// True with probability `p`.
    pub fn bernoulli(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }
}

// Counter-based draws: a key hashed from a few integers, then the SplitMix64 sequence from that
// key. Stateless from the caller's point of view: the same integers always give the same
// uniforms, whatever else the run has drawn, so a scheme switched on or off elsewhere never
// shifts the channel (fading, random waypoints).
/// Domain tags: fading and mobility draws never share keys even when their integers match.
pub(crate) const TAG_FADING: u64 = 0x4641_4449_4e47_0001; // "FADING"
pub(crate) const TAG_WAYPOINT: u64 = 0x5257_4159_504f_0002; // "RWAYPO"
pub(crate) const TAG_TRAFFIC: u64 = 0x5452_4146_4649_0003; // "TRAFFI": Poisson and on/off gaps
pub(crate) const TAG_JITTER: u64 = 0x4a49_5454_4552_0004; // "JITTER": flows' start jitter
pub(crate) const TAG_SHADOWING: u64 = 0x5348_4144_4f57_0005; // "SHADOW": log-normal per pair
pub(crate) const TAG_DOPPLER: u64 = 0x444f_5050_4c45_0006; // "DOPPLE": sum-of-sinusoids phases
pub(crate) const TAG_TGN: u64 = 0x5447_4e54_4150_0007; // "TGNTAP": TGn taps' Doppler sinusoids
pub(crate) const TAG_BBR: u64 = 0x4242_5243_5943_0008; // "BBRCYC": BBR's gain-cycle phases

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
        self.state = self.state.wrapping_add(SPLITMIX_GAMMA);
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
    fn same_key_same_stream_other_key_other_stream() {
        let draw = |seed, name: &str, p| {
            let mut s = Stream::derive(seed, entity_id(name), p);
            (0..8).map(|_| s.uniform_inclusive(1023)).collect::<Vec<_>>()
        };
        assert_eq!(draw(1, "sta1", Purpose::Backoff), draw(1, "sta1", Purpose::Backoff));
        assert_ne!(draw(1, "sta1", Purpose::Backoff), draw(2, "sta1", Purpose::Backoff));
        assert_ne!(draw(1, "sta1", Purpose::Backoff), draw(1, "sta2", Purpose::Backoff));
        assert_ne!(draw(1, "sta1", Purpose::Backoff), draw(1, "sta1", Purpose::RxError));
    }

    #[test]
    fn uniform_covers_both_ends() {
        let mut s = Stream::derive(7, entity_id("x"), Purpose::Backoff);
        let mut seen = [false; 16];
        for _ in 0..2000 {
            seen[s.uniform_inclusive(15) as usize] = true;
        }
        assert!(seen.iter().all(|&b| b));
    }
}

#[cfg(test)]
mod draws_tests {
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
