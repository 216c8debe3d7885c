//! Rate chosen by an outside agent (`airtcp.gym`): every attempt of a frame to a peer goes at
//! the mode the agent last set for that peer, an index into the standard's ladder (the rate
//! environments of ns3-gym and ns3-ai likewise set the MCS each step). The agent reads the
//! outcomes from the peer's link statistics; the algorithm itself learns nothing.

use super::{RateControl, TxReport};
use crate::phy::ModeId;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agent {
    /// The modes an agent picks from, lowest first ([`crate::phy::Standard::modes`] or the HT
    /// ladder).
    pub ladder: &'static [ModeId],
    /// The rung a peer starts at until the agent sets its mode (0: the lowest).
    pub start: u8,
}

impl RateControl for Agent {
    /// The mode the agent set for the peer.
    type Station = ModeId;

    fn station(&self) -> ModeId {
        self.ladder[usize::from(self.start)]
    }

    #[inline]
    fn select(&self, st: &mut ModeId, _queue: usize, _attempt: u32, _now: SimTime) -> ModeId {
        *st
    }

    #[inline]
    fn report(&self, _st: &mut ModeId, _queue: usize, _report: TxReport, _now: SimTime) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::Standard;

    #[test]
    fn every_attempt_goes_at_the_mode_set_last() {
        let a = Agent { ladder: Standard::A.modes(), start: 0 };
        let mut st = a.station();
        assert_eq!(a.select(&mut st, 1, 0, SimTime::ZERO), Standard::A.modes()[0]);
        st = Standard::A.modes()[5];
        for attempt in 0..4 {
            a.report(&mut st, 1, TxReport::DataFailed, SimTime::ZERO);
            assert_eq!(a.select(&mut st, 1, attempt, SimTime::ZERO), Standard::A.modes()[5]);
        }
    }

    #[test]
    fn a_peer_starts_at_the_starting_rung_until_the_agent_sets_another() {
        let a = Agent { ladder: Standard::A.modes(), start: 4 };
        let mut st = a.station();
        for attempt in 0..3 {
            a.report(&mut st, 1, TxReport::DataFailed, SimTime::ZERO);
            assert_eq!(a.select(&mut st, 1, attempt, SimTime::ZERO).rate_kbps(), 24_000);
        }
        st = Standard::A.modes()[0];
        assert_eq!(a.select(&mut st, 1, 0, SimTime::ZERO).rate_kbps(), 6_000);
    }
}
