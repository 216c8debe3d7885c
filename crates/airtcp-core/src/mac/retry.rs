//! Retry policy: how many times a frame is retransmitted before it is given up (10.3.4.4:
//! dot11ShortRetryLimit for frames up to the RTS threshold and RTS frames,
//! dot11LongRetryLimit for longer data frames). The channel's limits are the default; a
//! station (per peer) or a single queued frame may carry its own, set at run time (the mesh
//! scheme adapts them per link, an 802.11n scheme picks one per frame).

/// Retransmissions allowed after the first attempt: `short` for the short retry counter,
/// `long` for the long one. 802.11's defaults dot11ShortRetryLimit 7 and dot11LongRetryLimit 4
/// count attempts, so they are `short` 6 and `long` 3 here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryLimits {
    pub short: u32,
    pub long: u32,
}

impl RetryLimits {
    /// 802.11's default limits (7 and 4 attempts).
    pub const DEFAULT: RetryLimits = RetryLimits { short: 6, long: 3 };

    /// One limit for both counters (a per-frame choice).
    pub fn both(retries: u32) -> RetryLimits {
        RetryLimits { short: retries, long: retries }
    }

    /// Whether a frame whose short (or, if `long`, long) retry counter just reached `count`
    /// is to be given up.
    #[inline]
    pub fn exceeded(&self, long: bool, count: u32) -> bool {
        count > if long { self.long } else { self.short }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_limits_allow_seven_short_and_four_long_attempts() {
        // 10.3.4.4 with dot11ShortRetryLimit 7, dot11LongRetryLimit 4: the counter reaches
        // the limit at the 7th (4th) failure, and that frame is given up.
        let d = RetryLimits::DEFAULT;
        assert!(!d.exceeded(false, 6) && d.exceeded(false, 7));
        assert!(!d.exceeded(true, 3) && d.exceeded(true, 4));
        assert!(RetryLimits::both(0).exceeded(false, 1));
    }
}
