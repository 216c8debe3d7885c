//! Virtual carrier sense: the NAV (10.3.2.4). A station that receives a frame not addressed
//! to it sets its NAV from the frame's Duration field, never shortening it; the medium is busy
//! for its MAC while the NAV runs, whatever the physical carrier sense says (10.3.2.1).
//!
//! Not modelled yet: the reset of a NAV last set by an RTS when no PHY-RXSTART follows within
//! 2 x aSIFSTime + CTS_Time + aRxPHYStartDelay + 2 x aSlotTime (10.3.2.4; issue 32).

use crate::time::{Dur, SimTime};

/// One station's NAV: the time it runs until.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nav {
    end: SimTime,
}

impl Nav {
    /// A frame with Duration `duration` ended at `now` (10.3.2.4): the NAV runs at least until
    /// `now + duration`.
    #[inline]
    pub fn update(&mut self, now: SimTime, duration: Dur) {
        self.end = self.end.max(now + duration);
    }

    /// Whether the NAV shows the medium idle at `now`.
    #[inline]
    pub fn idle_at(&self, now: SimTime) -> bool {
        self.end <= now
    }

    /// When the medium, physically idle from `now`, is idle for the MAC too: `now`, or the
    /// NAV's end if later.
    #[inline]
    pub fn idle_from(&self, now: SimTime) -> SimTime {
        now.max(self.end)
    }

    /// The time the NAV runs until.
    #[inline]
    pub fn end(&self) -> SimTime {
        self.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
