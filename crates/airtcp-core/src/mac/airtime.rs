//! mac80211's airtime fairness scheduler (`net/mac80211/tx.c`: `ieee80211_next_txq`,
//! `ieee80211_return_txq`, `ieee80211_sta_register_airtime`; the deficit round robin of
//! Linux 5.x-6.x, after the virtual-time scheduler was reverted): per access category, the
//! stations with frames queued take turns; each has a deficit that starts at its weight
//! (`IEEE80211_DEFAULT_AIRTIME_WEIGHT` 256 us), is charged the airtime its transmissions (and
//! receptions) took, and when it is negative the station gets its weight back and goes to
//! the tail of the round. Stations sending at a low rate then get the same airtime as fast
//! ones, not the same number of frames: the cure for 802.11's performance anomaly.

use std::collections::VecDeque;

use crate::ids::NodeId;

/// `IEEE80211_DEFAULT_AIRTIME_WEIGHT` [us].
pub const DEFAULT_WEIGHT_US: i64 = 256;

/// One access category's round of stations.
#[derive(Clone, Debug, Default)]
pub struct AirtimeRound {
    /// Stations with frames queued, in turn order.
    active: VecDeque<NodeId>,
    /// Per station (by node index): deficit [us] and whether it is in the round.
    deficit: Vec<i64>,
    listed: Vec<bool>,
    pub weight_us: i64,
}

impl AirtimeRound {
    pub fn new(nodes: usize) -> AirtimeRound {
        AirtimeRound {
            active: VecDeque::new(),
            deficit: vec![DEFAULT_WEIGHT_US; nodes],
            listed: vec![false; nodes],
            weight_us: DEFAULT_WEIGHT_US,
        }
    }

    /// `sta` has frames queued: it joins the round's tail if it is not in it.
    pub fn activate(&mut self, sta: NodeId) {
        if !self.listed[sta.idx()] {
            self.listed[sta.idx()] = true;
            self.active.push_back(sta);
        }
    }

    /// `sta` has nothing queued any more: it leaves the round (its deficit stays).
    pub fn deactivate(&mut self, sta: NodeId) {
        if self.listed[sta.idx()] {
            self.listed[sta.idx()] = false;
            self.active.retain(|&s| s != sta);
        }
    }

    /// The station to serve next (`ieee80211_next_txq`): the head of the round while its
    /// deficit is not negative; one in deficit gets its weight back and goes to the tail.
    pub fn next_station(&mut self) -> Option<NodeId> {
        // Ends: every turn in deficit adds a positive weight.
        loop {
            let &sta = self.active.front()?;
            if self.deficit[sta.idx()] < 0 {
                self.deficit[sta.idx()] += self.weight_us;
                self.active.rotate_left(1);
                continue;
            }
            return Some(sta);
        }
    }

    /// Stations in the round.
    pub fn len(&self) -> usize {
        self.active.len()
    }

    pub fn is_empty(&self) -> bool {
        self.active.is_empty()
    }

    /// `sta`, at the head, may not send now (AQL): it goes to the tail with its deficit.
    pub fn skip(&mut self, sta: NodeId) {
        if self.active.front() == Some(&sta) {
            self.active.rotate_left(1);
        }
    }

    /// `sta`'s transmission (or reception) took `airtime_us` (`ieee80211_sta_register_airtime`).
    pub fn charge(&mut self, sta: NodeId, airtime_us: i64) {
        self.deficit[sta.idx()] -= airtime_us;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_stations_at_different_rates_get_equal_airtime() {
        // Stations whose frames take 100, 400 and 1600 us (a 16-fold rate spread), all
        // backlogged: the scheduler serves the next station, which sends one frame and is
        // charged its airtime. Over 10 s each gets a third of the air within 5 %; a plain
        // round robin of frames would give the slowest 1600/2100 of it.
        let frame_us = [100i64, 400, 1600];
        let mut r = AirtimeRound::new(3);
        for s in 0..3 {
            r.activate(NodeId(s));
        }
        let mut air = [0i64; 3];
        let mut t = 0;
        while t < 10_000_000 {
            let s = r.next_station().expect("backlogged");
            let d = frame_us[s.idx()];
            r.charge(s, d);
            air[s.idx()] += d;
            t += d;
        }
        let total: i64 = air.iter().sum();
        for a in air {
            let share = a as f64 / total as f64;
            assert!((share - 1.0 / 3.0).abs() < 0.05 / 3.0, "{air:?}");
        }
    }

    #[test]
    fn an_idle_station_leaves_the_round_and_rejoins_at_its_tail() {
        let mut r = AirtimeRound::new(3);
        r.activate(NodeId(0));
        r.activate(NodeId(1));
        assert_eq!(r.next_station(), Some(NodeId(0)));
        r.deactivate(NodeId(0));
        assert_eq!(r.next_station(), Some(NodeId(1)));
        r.activate(NodeId(2));
        r.activate(NodeId(0));
        r.charge(NodeId(1), 300); // out of deficit: weight back, to the tail
        assert_eq!(r.next_station(), Some(NodeId(2)));
        r.charge(NodeId(2), 300);
        assert_eq!(r.next_station(), Some(NodeId(0)));
        r.deactivate(NodeId(0));
        assert_eq!(r.next_station(), Some(NodeId(1)));
    }
}
