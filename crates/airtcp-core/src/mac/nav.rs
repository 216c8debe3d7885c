//! Virtual carrier sense: the NAV (10.3.2.4). A station that receives a frame not addressed
//! to it sets its NAV from the frame's Duration field, never shortening it; the medium is busy
//! for its MAC while the NAV runs, whatever the physical carrier sense says (10.3.2.1).
//!
//! The reset after an unanswered RTS (10.3.2.4): a station whose NAV was last set by an RTS
//! treats it as ended if no PHY-RXSTART.indication comes within 2 x aSIFSTime + CTS_Time +
//! aRxPHYStartDelay + 2 x aSlotTime of the RTS's end, CTS_Time being the CTS's airtime at the
//! RTS's rate ([`rts_reset_timeout`]; ns-3 3.44 `FrameExchangeManager::UpdateNav`, which takes
//! aRxPHYStartDelay as the CTS's preamble and PHY header, `CalculatePhyPreambleAndHeaderDuration`,
//! as the response timeouts here do). The deadline is kept, not scheduled: the NAV reads as
//! ended there until a PHY-RXSTART before it cancels it ([`Nav::rx_start`]; ns-3
//! `RxStartIndication` cancelling `m_navResetEvent`). A PHY-RXSTART is a reception whose PHY
//! header held, at its start plus its preamble and PHY header; the MAC learns of it when the
//! reception ends (`Wifi::rx_ok` finds it, the world tells `Wifi::rx_start` before a garbled
//! frame or an A-MPDU's subframes): the station's medium is busy all along, so nothing reads
//! the NAV in between.

use super::frame::CTS_BYTES;
use crate::phy::{PhyTiming, TxVector};
use crate::time::{Dur, SimTime};

/// One station's NAV: the time it runs until, and when it resets if its last update came from
/// an RTS that no PHY-RXSTART has followed yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nav {
    /// The time it runs until by the Duration fields.
    end: SimTime,
    /// The reset's deadline; [`SimTime::MAX`]: none pending.
    reset: SimTime,
    /// When it ends as it stands: `end`, or `reset` if earlier (what the MAC reads, kept so
    /// that a read is one comparison).
    ends: SimTime,
}

impl Default for Nav {
    fn default() -> Nav {
        Nav { end: SimTime::ZERO, reset: SimTime::MAX, ends: SimTime::ZERO }
    }
}

/// How long after an RTS sent at `rts` ends a station that set its NAV from it waits for a
/// PHY-RXSTART before resetting it (10.3.2.4): 2 x aSIFSTime + CTS_Time + aRxPHYStartDelay +
/// 2 x aSlotTime, CTS_Time the 14-byte CTS at the RTS's TX vector, aRxPHYStartDelay its
/// preamble and PHY header (ns-3 3.44 `FrameExchangeManager::UpdateNav`).
pub fn rts_reset_timeout(timing: &PhyTiming, rts: TxVector) -> Dur {
    timing.sifs.times(2) + rts.duration(CTS_BYTES) + rts.preamble_and_header() + timing.slot.times(2)
}

impl Nav {
    /// A frame with Duration `duration` ended at `now` (10.3.2.4): the NAV runs at least until
    /// `now + duration`. If this extends it, the frame is its most recent basis: no reset.
    /// The frame's own PHY-RXSTART ([`Nav::rx_start`]) comes first.
    #[inline]
    pub fn update(&mut self, now: SimTime, duration: Dur) {
        if now + duration > self.end {
            (self.end, self.reset, self.ends) = (now + duration, SimTime::MAX, now + duration);
        }
    }

    /// An RTS with Duration `duration` ended at `now`: as [`Nav::update`], and if it extends
    /// the NAV, the NAV resets `timeout` later ([`rts_reset_timeout`]) unless a PHY-RXSTART
    /// comes first.
    #[inline]
    pub fn update_from_rts(&mut self, now: SimTime, duration: Dur, timeout: Dur) {
        if now + duration > self.end {
            (self.end, self.reset) = (now + duration, now + timeout);
            self.ends = self.end.min(self.reset);
        }
    }

    /// Whether a reset waits for its deadline (a PHY-RXSTART matters).
    #[inline]
    pub fn reset_pending(&self) -> bool {
        self.reset != SimTime::MAX
    }

    /// A PHY-RXSTART.indication at `at` (a reception's PHY header received): a pending reset
    /// is cancelled if `at` comes before its deadline, else it has happened (the NAV ended at
    /// the deadline).
    #[inline]
    pub fn rx_start(&mut self, at: SimTime) {
        if at >= self.reset {
            self.end = self.ends; // reset at the deadline
        }
        (self.reset, self.ends) = (SimTime::MAX, self.end);
    }

    /// Whether the NAV shows the medium idle at `now`.
    #[inline]
    pub fn idle_at(&self, now: SimTime) -> bool {
        self.ends <= now
    }

    /// When the medium, physically idle from `now`, is idle for the MAC too: `now`, or the
    /// NAV's end (its reset's deadline if one is pending) if later.
    #[inline]
    pub fn idle_from(&self, now: SimTime) -> SimTime {
        now.max(self.ends)
    }

    /// The time the NAV runs until by the Duration fields, a pending reset aside.
    #[inline]
    pub fn end(&self) -> SimTime {
        self.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{Preamble, Standard};

    fn us(x: u64) -> SimTime {
        SimTime::ZERO + Dur::from_us(x)
    }

    #[test]
    fn a_later_duration_extends_the_nav_and_an_earlier_never_shortens_it() {
        let mut nav = Nav::default();
        assert!(nav.idle_at(SimTime::ZERO));
        nav.update(us(100), Dur::from_us(60)); // an ACK's Duration after a data frame
        assert_eq!(nav.end(), us(160));
        nav.update(us(120), Dur::from_us(10)); // ends at 130 < 160: kept at 160
        assert_eq!(nav.end(), us(160));
        nav.update(us(150), Dur::from_us(44)); // ends at 194: extended
        assert_eq!(nav.end(), us(194));
    }

    #[test]
    fn the_medium_is_idle_for_the_mac_once_the_nav_ends() {
        let mut nav = Nav::default();
        nav.update(us(0), Dur::from_us(300));
        assert!(!nav.idle_at(us(299)) && nav.idle_at(us(300)));
        assert_eq!(nav.idle_from(us(100)), us(300)); // physically idle earlier: the NAV decides
        assert_eq!(nav.idle_from(us(400)), us(400)); // the NAV long over: now
    }

    #[test]
    fn the_reset_timeout_by_hand_for_802_11b_and_802_11a() {
        // 802.11b, RTS at 1 Mbit/s long preamble: SIFS 10, slot 20 (Table 16-4 of
        // 802.11-2020, HR/DSSS); the CTS (14 bytes = 112 bits at 1 Mbit/s) takes 192 + 112 =
        // 304 us; aRxPHYStartDelay = the long PLCP preamble and header, 192 us. 2 x 10 + 304 +
        // 192 + 2 x 20 = 556 us. With the short preamble at 2 Mbit/s: 96 + 56 = 152 us of
        // CTS, 96 us of start delay: 20 + 152 + 96 + 40 = 308 us.
        let b = PhyTiming::of(Standard::B, false);
        let long1 = TxVector::new(Standard::B.mode(1_000).unwrap(), Preamble::Long);
        assert_eq!(rts_reset_timeout(&b, long1), Dur::from_us(556));
        let short2 = TxVector::new(Standard::B.mode(2_000).unwrap(), Preamble::Short);
        assert_eq!(rts_reset_timeout(&b, short2), Dur::from_us(308));
        // 802.11a, RTS at 6 Mbit/s: SIFS 16, slot 9 (Table 17-21); the CTS takes 20 us of
        // preamble and SIGNAL + ceil((16 + 112 + 6) / 24) = 6 symbols of 4 us = 44 us; the
        // start delay is the 20 us preamble and SIGNAL (ns-3's aRxPHYStartDelay).
        // 2 x 16 + 44 + 20 + 2 x 9 = 114 us.
        let a = PhyTiming::of(Standard::A, false);
        let six = TxVector::new(Standard::A.mode(6_000).unwrap(), Preamble::Long);
        assert_eq!(rts_reset_timeout(&a, six), Dur::from_us(114));
    }

    #[test]
    fn an_rts_nav_with_no_reception_starting_resets_at_the_deadline() {
        // An RTS ends at 100 us with Duration 1000 us; 802.11a's timeout 114 us: the NAV
        // reads as ended at 214 us, not 1100.
        let mut nav = Nav::default();
        nav.update_from_rts(us(100), Dur::from_us(1000), Dur::from_us(114));
        assert_eq!(nav.end(), us(1100));
        assert!(nav.reset_pending());
        assert!(!nav.idle_at(us(213)) && nav.idle_at(us(214)));
        assert_eq!(nav.idle_from(us(150)), us(214));
        // A reception starting after the deadline finds the NAV reset: it stays ended there.
        nav.rx_start(us(300));
        assert!(!nav.reset_pending());
        assert_eq!((nav.end(), nav.idle_from(us(250))), (us(214), us(250)));
    }

    #[test]
    fn an_rts_nav_with_a_reception_starting_in_the_window_runs_to_its_end() {
        // The CTS's PHY header ends at 100 + SIFS 16 + 20 = 136 us < 214: the reset is
        // cancelled, the NAV runs to 1100 us.
        let mut nav = Nav::default();
        nav.update_from_rts(us(100), Dur::from_us(1000), Dur::from_us(114));
        nav.rx_start(us(136));
        assert!(!nav.reset_pending());
        assert!(!nav.idle_at(us(1099)) && nav.idle_at(us(1100)));
        assert_eq!(nav.idle_from(us(300)), us(1100));
        // Exactly at the deadline is too late (the period is 114 us from the RTS's end).
        let mut nav = Nav::default();
        nav.update_from_rts(us(100), Dur::from_us(1000), Dur::from_us(114));
        nav.rx_start(us(214));
        assert_eq!(nav.idle_from(us(200)), us(214));
    }

    #[test]
    fn a_nav_last_set_by_another_frame_is_never_reset() {
        // A data frame's Duration sets the NAV: no reset, a reception or not.
        let mut nav = Nav::default();
        nav.update(us(100), Dur::from_us(1000));
        assert!(!nav.reset_pending());
        assert_eq!(nav.idle_from(us(300)), us(1100));
        // An RTS that does not extend the NAV is not its basis: nothing to reset.
        nav.update_from_rts(us(200), Dur::from_us(500), Dur::from_us(114));
        assert!(!nav.reset_pending());
        assert_eq!(nav.idle_from(us(400)), us(1100));
        // An RTS sets it, then a frame that extends it becomes the basis: the reset is gone.
        let mut nav = Nav::default();
        nav.update_from_rts(us(100), Dur::from_us(1000), Dur::from_us(114));
        nav.update(us(150), Dur::from_us(1000));
        assert!(!nav.reset_pending());
        assert_eq!(nav.idle_from(us(300)), us(1150));
    }
}
