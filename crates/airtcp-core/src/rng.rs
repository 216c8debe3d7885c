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
}

/// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
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
