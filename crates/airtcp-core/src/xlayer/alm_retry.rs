//! Paper 000's proposed remedy (section IV-C, Eq. 5), which the paper leaves unevaluated: each
//! mesh point keeps the multi-hop travel time of the worst TCP flow it may carry below TCP's
//! RTO_min by adapting its retry limit, reading only its HWMP path table.
//!
//! - The diameter estimate: "a node combines the two highest ALM values towards target nodes
//!   that are not reached via the same next hop node" (their sum: the costliest path through
//!   the node); a node whose paths all leave by one neighbour is an end of every path it
//!   carries, and its highest ALM is the diameter.
//! - The mapping (Eq. 5, T_MultiHop proportional to ALM): the travel time of a frame that
//!   needs R retransmissions on every hop is `us_per_metric[R] x ALM`. The factor is what the
//!   paper leaves as future work; [`TravelMap::table_iii_normal`] derives it from Eq. 1 in Table
//!   III's normal case (a hop at 24 Mbit/s costs 1 + 8192/24 = 342.3 in ALM), and the world can
//!   replace it with a measured one.
//! - The limit: the largest R in the allowed range whose travel time stays below RTO_min; it
//!   moves one step at a time toward that R at each update.

use super::{Action, Controls, Hooks, View};
use crate::ids::NodeId;
use crate::mac::retry::RetryLimits;
use crate::time::Dur;

/// The diameter estimate [ALM units] from a path table's (next hop, metric) entries: the two
/// highest metrics toward targets behind different next hops, summed; the highest alone if all
/// share one next hop; None for an empty table.
pub fn diameter_metric(paths: impl IntoIterator<Item = (NodeId, u32)>) -> Option<u64> {
    // The highest metric per next hop, then the two highest of those.
    let mut best: Vec<(NodeId, u32)> = Vec::new();
    for (nh, m) in paths {
        match best.iter_mut().find(|(h, _)| *h == nh) {
            Some(e) => e.1 = e.1.max(m),
            None => best.push((nh, m)),
        }
    }
    best.sort_by(|a, b| b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
    match best.as_slice() {
        [] => None,
        [(_, m)] => Some(u64::from(*m)),
        [(_, a), (_, b), ..] => Some(u64::from(*a) + u64::from(*b)),
    }
}

/// The travel time of a frame per unit of path metric, for each number of retransmissions
/// needed on every hop (0..=31).
#[derive(Clone, Debug, PartialEq)]
pub struct TravelMap {
    pub us_per_metric: [f64; 32],
}

impl TravelMap {
    /// Eq. 1 per hop in Table III's normal case (24 Mbit/s data, 50 us ACK, AIFS 70 us, slot
    /// 20 us, CW_cur/2 with retransmission i drawing from stage i), divided by one 24 Mbit/s
    /// hop's Airtime Link Metric (1 + 8192/24): the paper's own numbers, as a default.
    pub fn table_iii_normal() -> TravelMap {
        let (slot, sifs, aifs, t_txf, t_txack) = (20.0, 10.0, 70.0, 530.0, 50.0);
        let cw = |i: u32| f64::from((16u32 << i.min(6)).min(1024) - 1) / 2.0;
        let half = |i: u32| cw(i).floor();
        let link = 1.0 + 8192.0 / 24.0;
        let t_ack = sifs + t_txack;
        let mut us_per_metric = [0.0; 32];
        for (r, v) in us_per_metric.iter_mut().enumerate() {
            let t_f = aifs + half(0) * slot + t_txf;
            let t_arq: f64 = (0..r as u32).map(|i| t_ack + aifs + half(i) * slot + t_txf).sum();
            *v = (t_f + t_ack + t_arq) / link;
        }
        TravelMap { us_per_metric }
    }

    /// The travel time [us] over a path of metric `alm` when every hop needs `retries`.
    pub fn travel_us(&self, retries: u8, alm: u64) -> f64 {
        self.us_per_metric[usize::from(retries.min(31))] * alm as f64
    }
}

/// One mesh point's retry-limit controller.
#[derive(Clone, Debug, PartialEq)]
pub struct AlmRetry {
    pub rto_min: Dur,
    pub min_limit: u8,
    pub max_limit: u8,
    pub map: TravelMap,
    /// The retry limit in force (retransmissions).
    pub limit: u8,
    /// How often the path table is read.
    pub interval: Dur,
}

impl AlmRetry {
    /// Linux's RTO_min (200 ms), limits 1..31 as `iw` allows, starting at Linux's default 7.
    pub fn linux(map: TravelMap) -> AlmRetry {
        AlmRetry {
            rto_min: Dur::from_ms(200),
            min_limit: 1,
            max_limit: 31,
            map,
            limit: 7,
            interval: Dur::from_ms(1000),
        }
    }

    /// The largest limit whose travel time over the diameter `alm` stays below RTO_min (the
    /// smallest allowed if none does).
    pub fn target(&self, alm: u64) -> u8 {
        let bound = self.rto_min.ns() as f64 / 1e3;
        (self.min_limit..=self.max_limit)
            .rev()
            .find(|&r| self.map.travel_us(r, alm) < bound)
            .unwrap_or(self.min_limit)
    }

    /// An update with the diameter estimate `alm` (None: no path, the limit stays): one step
    /// toward [`AlmRetry::target`]. Returns the new limit.
    pub fn update(&mut self, alm: Option<u64>) -> u8 {
        if let Some(alm) = alm {
            let t = self.target(alm);
            if t > self.limit {
                self.limit += 1;
            } else if t < self.limit {
                self.limit -= 1;
            }
        }
        self.limit
    }
}

impl Hooks for AlmRetry {
    /// The starting limit is recorded and the first poll comes after one interval.
    fn start(&mut self, c: &mut Controls) {
        c.push(Action::RetryLimitSet(self.limit));
        c.push(Action::Timer { after: self.interval });
    }

    /// Read the path table as a user-space daemon would (`iw dev mesh0 mpath dump`), estimate
    /// the diameter, step the retry limit and set it toward every peer (`iw phy set retry
    /// short R long R`: the node's one limit); poll again after the interval.
    fn timer(&mut self, v: &dyn View, c: &mut Controls) {
        let before = self.limit;
        let limit = self.update(diameter_metric(v.mesh_paths(c.node, c.now)));
        if limit != before {
            c.push(Action::RetryLimitSet(limit));
            c.push(Action::PeerRetryLimits(Some(RetryLimits::both(u32::from(limit)))));
        }
        c.push(Action::Timer { after: self.interval });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: u32) -> NodeId {
        NodeId(i)
    }

    #[test]
    fn the_diameter_joins_the_two_costliest_paths_behind_different_next_hops() {
        // The middle of a 5-node chain n0..n4 seen from n2: n0 at 304 and n1 at 152 behind n1,
        // n3 at 152 and n4 at 304 behind n3: the diameter n0 -> n4 costs 304 + 304.
        let table = [(n(1), 304), (n(1), 152), (n(3), 152), (n(3), 304)];
        assert_eq!(diameter_metric(table), Some(608));
        // An end of the chain (n0): everything behind n1, its costliest path is the diameter.
        assert_eq!(diameter_metric([(n(1), 152), (n(1), 304), (n(1), 456), (n(1), 608)]), Some(608));
        // Three next hops: the two costliest of their maxima (500 + 400), not 500 + 450 behind
        // the same one.
        let star = [(n(1), 500), (n(1), 450), (n(2), 400), (n(3), 100)];
        assert_eq!(diameter_metric(star), Some(900));
        assert_eq!(diameter_metric([]), None);
    }

    #[test]
    fn the_normal_case_mapping_gives_eq_1_per_unit_of_metric() {
        // Table III's normal case by hand (analytic.p000_hop_time_us): one hop, 9 retries:
        // 740 + 60 + 9 x 660 + 20 x 2031 = 47 360 us; a 24 Mbit/s hop's metric 342.33.
        let map = TravelMap::table_iii_normal();
        let link = 1.0 + 8192.0 / 24.0;
        assert!((map.us_per_metric[9] * link - 47_360.0).abs() < 1e-6);
        assert!((map.us_per_metric[0] * link - 800.0).abs() < 1e-9);
        // Five such hops: the paper's 236 ms.
        assert!((map.travel_us(9, (5.0 * link).round() as u64) - 236_800.0).abs() < 1_000.0);
        assert!(map.us_per_metric.windows(2).all(|w| w[0] < w[1]), "more retries, longer");
    }

    #[test]
    fn the_limit_moves_one_step_at_a_time_across_the_rto_min_bound() {
        let mut c = AlmRetry::linux(TravelMap::table_iii_normal());
        let hop = 342; // a 24 Mbit/s hop
                       // 5 hops: 9 retries would take 236 ms > 200 ms, 8 retries 185 ms: the target is 8, so
                       // the limit climbs from 7 to 8 and stays.
        assert_eq!(c.target(5 * hop), 8);
        assert_eq!([c.update(Some(5 * hop)), c.update(Some(5 * hop))], [8, 8]);
        // The diameter doubles (10 hops): down one step per update to the new target.
        let t = c.target(10 * hop);
        assert!(t < 8, "{t}");
        let steps: Vec<u8> = (0..10).map(|_| c.update(Some(10 * hop))).collect();
        assert_eq!(steps[0], 7);
        assert_eq!(*steps.last().unwrap(), t);
        // A short diameter lets it rise again, up to the largest limit under RTO_min; no path
        // leaves it where it is.
        let before = c.limit;
        assert_eq!(c.update(None), before);
        for _ in 0..40 {
            c.update(Some(hop));
        }
        assert_eq!(c.limit, c.target(hop));
        assert!(c.map.travel_us(c.limit, hop) < 200_000.0);
        assert!(c.limit == 31 || c.map.travel_us(c.limit + 1, hop) >= 200_000.0);
        // Nothing fits: the smallest allowed limit.
        assert_eq!(c.target(1_000_000), 1);
    }
}
