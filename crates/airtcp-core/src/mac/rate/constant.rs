//! Constant rate: every data frame at the configured mode (ns-3's `ConstantRateWifiManager`).

use super::{RateControl, TxReport};
use crate::phy::ModeId;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constant {
    pub mode: ModeId,
}

/// Constant rate keeps nothing per peer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stateless;

impl RateControl for Constant {
    type Station = Stateless;

    fn station(&self) -> Stateless {
        Stateless
    }

    #[inline]
    fn select(&self, _st: &mut Stateless, _queue: usize, _attempt: u32, _now: SimTime) -> ModeId {
        self.mode
    }

    #[inline]
    fn report(&self, _st: &mut Stateless, _queue: usize, _report: TxReport, _now: SimTime) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::Standard;

    #[test]
    fn every_attempt_uses_the_configured_mode() {
        let mode = Standard::B.mode(5_500).unwrap();
        let c = Constant { mode };
        let mut st = c.station();
        for attempt in 0..7 {
            assert_eq!(c.select(&mut st, 1, attempt, SimTime::ZERO), mode);
            c.report(&mut st, 1, TxReport::DataFailed, SimTime::ZERO);
        }
    }
}
