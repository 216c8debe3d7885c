//! mac80211's intermediate software queues as Linux has them today (4.x to 6.x; `net/mac80211/
//! tx.c`, `include/net/fq_impl.h`): no qdisc above the interface (`noqueue` since 6.2), one
//! queue per (station, TID) inside the MAC, each an FQ-CoDel (`ieee80211_txq_setup_flows`:
//! target 20 ms, interval 100 ms, quantum 300 bytes, 8192 packets), from which the driver pulls
//! frames as its hardware queue drains. Two switches on top:
//!
//! - airtime fairness (`ieee80211_next_txq`, `ieee80211_sta_register_airtime`): the stations
//!   with frames queued take turns by deficit round robin charged with the airtime their frames
//!   took ([`AirtimeRound`]); off, they take turns frame by frame (equal frames: the 802.11
//!   performance anomaly);
//! - AQL, airtime queue limits (`ieee80211_txq_airtime_check`, `cfg80211.h`): a station may hand
//!   the driver another frame while the airtime it has there (estimated at its current rate)
//!   is below 5 ms, or below 12 ms while the interface's total is below 24 ms.
//!
//! Left out: the per-device sharing of the 4096 flows and of the 8192-packet limit (here each
//! queue hashes into its own 64 flows and holds at most the limit; with one busy queue per
//! station the two agree), the slow-station CoDel parameters (`sta_update_codel_params`: 50 ms
//! and 300 ms below 6 Mbit/s per station), the memory limit, ECN marking, TSQ.

use std::collections::VecDeque;

use super::codel::CodelParams;
use super::fq_codel::{FqCodel, FqCodelParams};
use crate::ids::{NodeId, PacketId};
use crate::mac::airtime::AirtimeRound;
use crate::mac::AC_COUNT;
use crate::time::{Dur, SimTime};

/// AQL's limits [us] (`AQL_TXQ_LIMIT_L`, `AQL_TXQ_LIMIT_H`, `IEEE80211_AQL_THRESHOLD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AqlParams {
    pub low_us: i64,
    pub high_us: i64,
    pub threshold_us: i64,
}

impl AqlParams {
    /// Linux's defaults (`cfg80211.h`, `mac80211/ieee80211_i.h`): 5 ms, 12 ms, 24 ms.
    pub const LINUX: AqlParams = AqlParams { low_us: 5000, high_us: 12_000, threshold_us: 24_000 };
}

/// The queues' parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxqParams {
    pub fq: FqCodelParams,
    pub airtime_fairness: bool,
    pub aql: Option<AqlParams>,
}

impl TxqParams {
    /// mac80211's FQ-CoDel (`ieee80211_txq_setup_flows`: `cparams` target 20 ms, interval
    /// 100 ms; `fq_init` quantum 300, limit 8192), 64 flows per queue.
    pub const MAC80211_FQ: FqCodelParams = FqCodelParams {
        codel: CodelParams { target: Dur::from_ms(20), interval: Dur::from_ms(100), ecn: true },
        quantum: 300,
        limit: 8192,
        flows: 64,
    };
}

/// One (station, access category) queue.
#[derive(Clone, Debug)]
struct Txq {
    peer: NodeId,
    fq: FqCodel<PacketId>,
}

/// The intermediate queues of one interface.
#[derive(Clone, Debug)]
pub struct Txqs {
    pub params: TxqParams,
    queues: Vec<Txq>,
    /// Per peer (node index) and access category: the queue's index, `u32::MAX` if none yet.
    index: Vec<[u32; AC_COUNT]>,
    /// Per access category, the stations with frames queued: a deficit round robin charged
    /// with airtime, or (fairness off) a plain round robin.
    rounds: [AirtimeRound; AC_COUNT],
    rr: [VecDeque<NodeId>; AC_COUNT],
    /// AQL: airtime [us] each peer has in the driver, and the interface's total.
    pub pending_us: Vec<i64>,
    pub pending_total_us: i64,
    /// Per peer: the MAC's airtime meter toward it when it was last charged [ns].
    pub charged_ns: Vec<u64>,
    /// Packets dropped at the limit and by CoDel.
    pub overflow_drops: u64,
    pub codel_drops: u64,
}

impl Txqs {
    pub fn new(params: TxqParams, nodes: usize) -> Txqs {
        Txqs {
            params,
            queues: Vec::new(),
            index: vec![[u32::MAX; AC_COUNT]; nodes],
            rounds: std::array::from_fn(|_| AirtimeRound::new(nodes)),
            rr: Default::default(),
            pending_us: vec![0; nodes],
            pending_total_us: 0,
            charged_ns: vec![0; nodes],
            overflow_drops: 0,
            codel_drops: 0,
        }
    }

    fn queue(&mut self, peer: NodeId, ac: usize) -> usize {
        let i = &mut self.index[peer.idx()][ac];
        if *i == u32::MAX {
            *i = self.queues.len() as u32;
            self.queues.push(Txq { peer, fq: FqCodel::new(self.params.fq) });
        }
        *i as usize
    }

    /// Frames queued for `peer` on `ac`.
    pub fn len(&self, peer: NodeId, ac: usize) -> usize {
        match self.index[peer.idx()][ac] {
            u32::MAX => 0,
            i => self.queues[i as usize].fq.len(),
        }
    }

    /// Queue `packet` of `flow` (`bytes` long) for `peer` on `ac` at `now`
    /// (`ieee80211_txq_enqueue`); a packet pushed out at the limit goes to `dropped`.
    #[allow(clippy::too_many_arguments)] // the packet's fields, as the world holds them
    pub fn push(
        &mut self,
        peer: NodeId,
        ac: usize,
        flow: u32,
        packet: PacketId,
        bytes: u32,
        now: SimTime,
        dropped: &mut Vec<PacketId>,
    ) {
        let q = self.queue(peer, ac);
        let before = dropped.len();
        self.queues[q].fq.enqueue(flow, packet, bytes, now, dropped);
        self.overflow_drops += (dropped.len() - before) as u64;
        if self.params.airtime_fairness {
            self.rounds[ac].activate(peer);
        } else if !self.rr[ac].contains(&peer) {
            self.rr[ac].push_back(peer);
        }
    }

    /// Whether `peer` may hand the driver another frame (`ieee80211_txq_airtime_check`).
    pub fn aql_allows(&self, peer: NodeId) -> bool {
        let Some(a) = self.params.aql else { return true };
        let mine = self.pending_us[peer.idx()];
        mine < a.low_us || (mine < a.high_us && self.pending_total_us < a.threshold_us)
    }

    /// The next frame for the driver's queue of `ac` at `now`: from the station whose turn it
    /// is and whose AQL allows (a station with nothing left leaves the round), CoDel's drops
    /// on the way to `dropped`. `None`: nothing queued, or every station with frames is at its
    /// AQL limit (it is asked again when the driver reports a frame done).
    pub fn pop(
        &mut self,
        ac: usize,
        now: SimTime,
        dropped: &mut Vec<PacketId>,
        mark: &mut impl FnMut(&PacketId) -> bool,
    ) -> Option<(PacketId, NodeId)> {
        let n = if self.params.airtime_fairness { self.rounds[ac].len() } else { self.rr[ac].len() };
        // Each station gets at most one look per call (and one more for a deficit refill).
        for _ in 0..2 * n + 1 {
            let peer = if self.params.airtime_fairness {
                self.rounds[ac].next_station()?
            } else {
                *self.rr[ac].front()?
            };
            if !self.aql_allows(peer) {
                // Skipped this round (`ieee80211_next_txq` passes over it); fairness keeps its
                // deficit, the round robin its place behind the others.
                self.rotate(ac, peer);
                continue;
            }
            let q = self.index[peer.idx()][ac] as usize;
            let before = dropped.len();
            let out = self.queues[q].fq.dequeue(now, dropped, mark);
            self.codel_drops += (dropped.len() - before) as u64;
            if self.queues[q].fq.is_empty() {
                self.leave(ac, peer);
            } else if !self.params.airtime_fairness {
                self.rr[ac].rotate_left(1); // the next frame is the next station's
            }
            if let Some(p) = out {
                return Some((p, self.queues[q].peer));
            }
        }
        None
    }

    fn rotate(&mut self, ac: usize, peer: NodeId) {
        if self.params.airtime_fairness {
            self.rounds[ac].skip(peer);
        } else {
            self.rr[ac].rotate_left(1);
        }
    }

    fn leave(&mut self, ac: usize, peer: NodeId) {
        if self.params.airtime_fairness {
            self.rounds[ac].deactivate(peer);
        } else {
            self.rr[ac].retain(|&p| p != peer);
        }
    }

    /// `peer`'s frames took `airtime_us` on the air (`ieee80211_sta_register_airtime`).
    pub fn charge(&mut self, peer: NodeId, ac: usize, airtime_us: i64) {
        if self.params.airtime_fairness {
            self.rounds[ac].charge(peer, airtime_us);
        }
    }

    /// A frame with `est_us` of estimated airtime went to the driver for `peer`
    /// (`ieee80211_sta_update_pending_airtime`), or (negative) it is done.
    pub fn add_pending(&mut self, peer: NodeId, est_us: i64) {
        self.pending_us[peer.idx()] += est_us;
        self.pending_total_us += est_us;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> SimTime {
        SimTime::ZERO + Dur::from_ms(ms)
    }

    const A: NodeId = NodeId(1);
    const B: NodeId = NodeId(2);

    fn txqs(airtime_fairness: bool, aql: Option<AqlParams>) -> Txqs {
        Txqs::new(TxqParams { fq: TxqParams::MAC80211_FQ, airtime_fairness, aql }, 4)
    }

    #[test]
    fn without_fairness_stations_take_turns_frame_by_frame() {
        let mut q = txqs(false, None);
        let mut d = Vec::new();
        for k in 0..4 {
            q.push(A, 0, 1, PacketId(k), 1500, t(0), &mut d);
            q.push(B, 0, 2, PacketId(100 + k), 1500, t(0), &mut d);
        }
        let order: Vec<u32> = (0..8).map(|_| q.pop(0, t(1), &mut d, &mut |_| false).unwrap().1 .0).collect();
        assert_eq!(order, [1, 2, 1, 2, 1, 2, 1, 2]);
        assert!(q.pop(0, t(1), &mut d, &mut |_| false).is_none() && d.is_empty());
    }

    #[test]
    fn aql_holds_a_station_at_its_limit_and_lets_the_other_go() {
        // A has 12 ms pending (at its high limit): it waits; B, with none, goes. Once A's
        // frames are done (pending back to 4 ms, under the low limit) it goes again.
        let mut q = txqs(false, Some(AqlParams::LINUX));
        let mut d = Vec::new();
        q.push(A, 0, 1, PacketId(1), 1500, t(0), &mut d);
        q.push(B, 0, 2, PacketId(2), 1500, t(0), &mut d);
        q.add_pending(A, 12_000);
        assert!(!q.aql_allows(A) && q.aql_allows(B));
        assert_eq!(q.pop(0, t(1), &mut d, &mut |_| false), Some((PacketId(2), B)));
        assert_eq!(q.pop(0, t(1), &mut d, &mut |_| false), None);
        q.add_pending(A, -8000);
        assert_eq!(q.pop(0, t(1), &mut d, &mut |_| false), Some((PacketId(1), A)));
        // Between 5 and 12 ms a station goes only while the interface holds under 24 ms.
        q.add_pending(A, 2000); // 6 ms
        q.add_pending(B, 18_000); // total 24 ms
        assert!(!q.aql_allows(A));
        q.add_pending(B, -1);
        assert!(q.aql_allows(A));
    }

    #[test]
    fn codel_at_20_ms_drops_a_standing_queue() {
        // mac80211's target is 20 ms: a queue whose head has waited 30 ms for over 100 ms
        // (one interval) loses its head at the next dequeue; at 10 ms it never does.
        for (wait_ms, drops) in [(10u64, false), (30, true)] {
            let mut q = txqs(false, None);
            let mut d = Vec::new();
            for k in 0..400u32 {
                q.push(A, 0, 1, PacketId(k), 1500, t(u64::from(k)), &mut d);
            }
            // Dequeue one frame per ms from 0 + wait_ms on: each waited wait_ms.
            for k in 0..300u64 {
                q.pop(0, t(k + wait_ms), &mut d, &mut |_| false);
            }
            assert_eq!(!d.is_empty(), drops, "wait {wait_ms} ms");
            assert_eq!(q.codel_drops > 0, drops);
        }
    }
}
