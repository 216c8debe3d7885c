//! Lazy backoff arithmetic: no event per slot.
//!
//! A contending queue knows when its countdown starts (`count_start`: the medium idle time
//! plus AIFS or EIFS). Its transmission time is `count_start + backoff x slot`; when the
//! medium turns busy at `t` the number of slots already consumed is computed once.

use crate::time::{Dur, SimTime};

crate::names::names! {
    /// When a frame backs off and over which range (`wifi.backoff_rule`).
    #[derive(Default)]
    pub enum BackoffRule {
        /// 10.3.4.2-3: a frame that finds the medium idle (and no backoff running) goes
        /// after DIFS with no backoff; a backoff is uniform in [0, CW].
        #[default]
        Standard = "standard",
        /// ns-2's `Mac802_11` (mac-802_11.cc, `send`/`sendDATA`; mac-timers.cc
        /// `BackoffTimer::start`): every frame waits DIFS and a backoff even on an idle
        /// medium, uniform in [0, CW - 1] (`Random::random() % cw_`).
        Ns2 = "ns-2",
    }
}

/// Which standard rule decrements the backoff counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountRule {
    /// DCF (10.3.4.3): the counter drops after each full idle slot that follows DIFS.
    Dcf,
    /// EDCA (10.22.2.4): at every slot boundary from the AIFS boundary on, the counter is
    /// decremented (or the TXOP starts), so a busy medium right after AIFS still costs one.
    Edca,
}

/// Slots consumed by a countdown that started at `count_start` when the medium turns busy at
/// `busy_at`; the caller caps it at the remaining backoff.
pub fn slots_consumed(rule: CountRule, count_start: SimTime, busy_at: SimTime, slot: Dur) -> u64 {
    if busy_at < count_start || slot.ns() == 0 {
        return 0;
    }
    let whole = busy_at.since(count_start).ns() / slot.ns();
    match rule {
        CountRule::Dcf => whole,
        CountRule::Edca => whole + 1,
    }
}

/// When a countdown of `backoff` slots started at `count_start` reaches zero.
pub fn grant_time(count_start: SimTime, backoff: u32, slot: Dur) -> SimTime {
    count_start + slot.times(u64::from(backoff))
}

/// Next contention window after a failed attempt: CW = min(2 (CW + 1) - 1, CWmax) (10.22.2.2).
pub fn next_cw(cw: u32, cw_max: u32) -> u32 {
    (2 * (cw + 1) - 1).min(cw_max)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLOT: Dur = Dur::from_us(9);

    #[test]
    fn dcf_counts_only_full_idle_slots_after_difs() {
        let start = SimTime(34_000);
        assert_eq!(slots_consumed(CountRule::Dcf, start, SimTime(30_000), SLOT), 0);
        assert_eq!(slots_consumed(CountRule::Dcf, start, start, SLOT), 0);
        assert_eq!(slots_consumed(CountRule::Dcf, start, SimTime(42_999), SLOT), 0);
        assert_eq!(slots_consumed(CountRule::Dcf, start, SimTime(43_000), SLOT), 1);
        assert_eq!(slots_consumed(CountRule::Dcf, start, SimTime(61_000), SLOT), 3);
    }

    #[test]
    fn edca_decrements_at_the_aifs_boundary_itself() {
        let start = SimTime(43_000);
        assert_eq!(slots_consumed(CountRule::Edca, start, SimTime(42_999), SLOT), 0);
        assert_eq!(slots_consumed(CountRule::Edca, start, start, SLOT), 1);
        assert_eq!(slots_consumed(CountRule::Edca, start, SimTime(51_999), SLOT), 1);
        assert_eq!(slots_consumed(CountRule::Edca, start, SimTime(52_000), SLOT), 2);
    }

    #[test]
    fn grant_follows_the_remaining_slots() {
        assert_eq!(grant_time(SimTime(34_000), 0, SLOT), SimTime(34_000));
        assert_eq!(grant_time(SimTime(34_000), 5, SLOT), SimTime(79_000));
    }

    #[test]
    fn contention_window_doubles_up_to_cwmax() {
        assert_eq!(next_cw(15, 1023), 31);
        assert_eq!(next_cw(31, 1023), 63);
        assert_eq!(next_cw(511, 1023), 1023);
        assert_eq!(next_cw(1023, 1023), 1023);
    }
}
