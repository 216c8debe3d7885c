//! The interface tier above each WiFi MAC, as Linux stacks it: nothing (packets go straight
//! to the driver's queue), a qdisc (pfifo or CoDel, `net::qdisc`), or mac80211's intermediate
//! queues with AQL's pending airtime (`net::txq`; Linux today, which runs noqueue above them).
//! The world asks the tier what became of a packet ([`Interfaces::enqueue`]), whether there is
//! room for one more ([`Interfaces::has_room`]), for the next packet when the MAC has room
//! ([`Interfaces::dequeue`]) and tells it when the driver is done with one
//! ([`Interfaces::done`]); the tier knows nothing of the MAC but what the world passes in.

use crate::ids::{NodeId, PacketId};
use crate::net::codel::CodelParams;
use crate::net::fq_codel::FqCodelParams;
use crate::net::qdisc::{Qdisc, QdiscKind};
use crate::net::txq::{AqlParams, TxqParams, Txqs};
use crate::spec::WorldSpec;
use crate::time::{Dur, SimTime};

/// What the tier did with a packet handed to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// Nothing waits above the MAC: the world hands the packet to the MAC now.
    ToMac,
    /// The packet waits in the qdisc.
    InQdisc,
    /// The qdisc's band is full: the packet is dropped here (`drops_qdisc`).
    QdiscFull,
    /// The packet entered the intermediate queues (`ieee80211_txq_enqueue`); the packets pushed
    /// out at their limit, maybe this one, are in the caller's `dropped`. The driver pulls
    /// next ([`Interfaces::dequeue`]).
    InTxq,
}

/// One node's tier (boxed: a node without one costs 16 bytes, not the queues' size).
#[derive(Debug)]
enum Tier {
    Mac,
    Qdisc(Box<Qdisc>),
    Txq(Box<Txqs>),
}

/// The interface tier of every node, and per packet (by slab index) the peer and the airtime
/// [us] AQL counts as pending while it is in the driver.
#[derive(Debug)]
pub struct Interfaces {
    tiers: Vec<Tier>,
    has_qdisc: bool,
    has_txq: bool,
    pending: Vec<(u32, u32)>,
    /// Scratch for the packets the tier drops (reused: no allocation per packet).
    pub scratch: Vec<PacketId>,
    /// Scratch for the packets CoDel CE-marks instead (ECN).
    pub marked: Vec<PacketId>,
}

impl Interfaces {
    /// No tier anywhere: every packet goes straight to its MAC.
    pub fn none(nodes: usize) -> Interfaces {
        Interfaces::of((0..nodes).map(|_| Tier::Mac).collect())
    }

    fn of(tiers: Vec<Tier>) -> Interfaces {
        let has_qdisc = tiers.iter().any(|t| matches!(t, Tier::Qdisc(_)));
        let has_txq = tiers.iter().any(|t| matches!(t, Tier::Txq(_)));
        Interfaces { tiers, has_qdisc, has_txq, pending: Vec::new(), scratch: Vec::new(), marked: Vec::new() }
    }

    /// The tiers `spec.wifi` sets (`qdisc` or `txq`, never both) on every WiFi node.
    pub fn build(spec: &WorldSpec) -> Interfaces {
        let w = &spec.wifi;
        let ms = |v: f64| Dur((v * 1e6).round() as u64);
        let tier = |wifi: bool| -> Tier {
            if !wifi {
                return Tier::Mac;
            }
            if let Some(q) = &w.qdisc {
                let codel = CodelParams {
                    target: ms(q.codel_target_ms),
                    interval: ms(q.codel_interval_ms),
                    ecn: q.ecn.unwrap_or(q.kind == crate::spec::QdiscKind::FqCodel),
                };
                let kind = match q.kind {
                    crate::spec::QdiscKind::Codel => QdiscKind::Codel(codel),
                    crate::spec::QdiscKind::FqCodel => {
                        QdiscKind::FqCodel(FqCodelParams { codel, ..FqCodelParams::LINUX_QDISC })
                    }
                    crate::spec::QdiscKind::Pfifo => QdiscKind::Pfifo,
                };
                return Tier::Qdisc(Box::new(Qdisc::new(kind, q.limit_packets as usize)));
            }
            if let Some(t) = &w.txq {
                let mut fq = TxqParams::MAC80211_FQ;
                fq.codel.target = ms(t.target_ms);
                fq.codel.interval = ms(t.interval_ms);
                fq.codel.ecn = t.ecn;
                fq.quantum = t.quantum_bytes;
                fq.limit = t.limit_packets as usize;
                let aql = t.aql.then_some(AqlParams {
                    low_us: i64::from(t.aql_low_us),
                    high_us: i64::from(t.aql_high_us),
                    threshold_us: i64::from(t.aql_threshold_us),
                });
                let params = TxqParams { fq, airtime_fairness: t.airtime_fairness, aql };
                return Tier::Txq(Box::new(Txqs::new(params, spec.nodes.len())));
            }
            Tier::Mac
        };
        Interfaces::of(spec.nodes.iter().map(|n| tier(n.wifi)).collect())
    }

    /// Some node has a qdisc or intermediate queues (the one test a run without pays).
    #[inline(always)]
    pub fn any(&self) -> bool {
        self.has_qdisc || self.has_txq
    }

    /// Some node has intermediate queues.
    #[inline(always)]
    pub fn has_txq(&self) -> bool {
        self.has_txq
    }

    /// A packet `id` of `flow` (`ip_bytes`, access category `ac`) for `next_hop` meets
    /// `node`'s tier at `now`. A qdisc lets it go straight down when nothing of its band waits
    /// and `mac_room()` says the driver's queue is awake; the intermediate queues take it in
    /// and push out at their limit into `dropped`.
    #[allow(clippy::too_many_arguments)] // the packet's fields, as the world holds them
    #[inline(always)]
    pub fn enqueue(
        &mut self,
        node: NodeId,
        next_hop: NodeId,
        id: PacketId,
        (flow, ip_bytes, ac): (u32, u32, usize),
        now: SimTime,
        mac_room: impl FnOnce() -> bool,
        dropped: &mut Vec<PacketId>,
    ) -> Enqueued {
        if !self.any() {
            return Enqueued::ToMac;
        }
        match &mut self.tiers[node.idx()] {
            Tier::Mac => Enqueued::ToMac,
            Tier::Qdisc(q) => {
                if q.is_empty(ac) && mac_room() {
                    Enqueued::ToMac
                } else if q.push(ac, flow, id, next_hop, ip_bytes, now, dropped) {
                    Enqueued::InQdisc
                } else {
                    Enqueued::QdiscFull
                }
            }
            Tier::Txq(q) => {
                q.push(next_hop, ac, flow, id, ip_bytes, now, dropped);
                Enqueued::InTxq
            }
        }
    }

    /// Whether `node` may queue another packet for `peer` on `ac` in the queue it meets first:
    /// the intermediate queue (never past its limit), else the qdisc, else the MAC's
    /// (`mac_room()`).
    #[inline(always)]
    pub fn has_room(&self, node: NodeId, peer: NodeId, ac: usize, mac_room: impl FnOnce() -> bool) -> bool {
        if self.any() {
            match &self.tiers[node.idx()] {
                Tier::Txq(q) => return q.len(peer, ac) < q.params.fq.limit,
                Tier::Qdisc(q) => return q.has_room(ac),
                Tier::Mac => {}
            }
        }
        mac_room()
    }

    /// Whether [`Interfaces::enqueue`] would refuse a packet of `node` on `ac` now (a full
    /// qdisc, or a full MAC queue without a tier: `mac_full()`); the intermediate queues never
    /// refuse, they drop from their longest flow.
    #[inline]
    pub fn refuses(&self, node: NodeId, ac: usize, mac_full: impl FnOnce() -> bool) -> bool {
        match &self.tiers[node.idx()] {
            Tier::Txq(_) => false,
            Tier::Qdisc(q) => !q.has_room(ac),
            Tier::Mac => mac_full(),
        }
    }

    /// The next packet of `ac` waiting at `node` for the driver at `now`, and its next hop
    /// (CoDel's drops on the way to `dropped`); None when nothing waits, or when every station
    /// with frames is at its AQL limit. A packet from the intermediate queues counts its
    /// estimated airtime at the peer's rate (`kbps(peer)`, `ieee80211_calc_expected_tx_airtime`)
    /// as pending until [`Interfaces::done`].
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn dequeue(
        &mut self,
        node: NodeId,
        ac: usize,
        now: SimTime,
        dropped: &mut Vec<PacketId>,
        mut mark: impl FnMut(PacketId) -> bool,
        bytes_of: impl FnOnce(PacketId) -> u32,
        kbps: impl FnOnce(NodeId) -> u32,
    ) -> Option<(PacketId, NodeId)> {
        match &mut self.tiers[node.idx()] {
            Tier::Mac => None,
            Tier::Qdisc(q) => q.pop(ac, now, dropped, &mut mark),
            Tier::Txq(q) => {
                let (id, peer) = q.pop(ac, now, dropped, &mut |&id| mark(id))?;
                let est_us =
                    (u64::from(bytes_of(id)) * 8 * 1000).div_ceil(u64::from(kbps(peer).max(1))) as u32;
                let i = id.0 as usize;
                if self.pending.len() <= i {
                    self.pending.resize(i + 1, (0, 0));
                }
                self.pending[i] = (peer.0, est_us);
                q.add_pending(peer, i64::from(est_us));
                Some((id, peer))
            }
        }
    }

    /// `node`'s driver is done with `packet` of access category `ac` (acknowledged, given up,
    /// or refused by the MAC): its pending airtime leaves AQL's count, and its station is
    /// charged the airtime it used since the last charge (`ieee80211_sta_register_airtime`;
    /// `used_ns(peer)`: the MAC's airtime meter of the peer).
    #[inline]
    pub fn done(&mut self, node: NodeId, packet: PacketId, ac: usize, used_ns: impl FnOnce(NodeId) -> u64) {
        let Tier::Txq(q) = &mut self.tiers[node.idx()] else { return };
        let Some(&(peer, est_us)) = self.pending.get(packet.0 as usize) else { return };
        if est_us == 0 {
            return;
        }
        self.pending[packet.0 as usize] = (0, 0);
        let peer = NodeId(peer);
        q.add_pending(peer, -i64::from(est_us));
        let used = used_ns(peer);
        let delta = used - q.charged_ns[peer.idx()];
        q.charged_ns[peer.idx()] = used - delta % 1000; // the part below 1 us waits
        q.charge(peer, ac, (delta / 1000) as i64);
    }
}

#[cfg(test)]
mod tests {
    //! Each queueing mode of the tier driven alone, with hand-made MAC answers.
    use super::*;

    const A: NodeId = NodeId(0);
    const P: NodeId = NodeId(1);
    const BE: usize = 1;
    const NOW: SimTime = SimTime::ZERO;

    fn pkt(i: u32) -> PacketId {
        PacketId(i)
    }

    fn never() -> bool {
        panic!("the MAC's room must not be asked")
    }

    fn qdisc(limit: usize) -> Interfaces {
        Interfaces::of(vec![Tier::Qdisc(Box::new(Qdisc::new(QdiscKind::Pfifo, limit))), Tier::Mac])
    }

    fn txq(limit: usize, aql: Option<AqlParams>) -> Interfaces {
        let mut fq = TxqParams::MAC80211_FQ;
        fq.limit = limit;
        Interfaces::of(vec![
            Tier::Txq(Box::new(Txqs::new(TxqParams { fq, airtime_fairness: true, aql }, 2))),
            Tier::Mac,
        ])
    }

    fn put(i: &mut Interfaces, id: u32, mac_room: bool, dropped: &mut Vec<PacketId>) -> Enqueued {
        i.enqueue(A, P, pkt(id), (0, 1500, BE), NOW, || mac_room, dropped)
    }

    fn take(i: &mut Interfaces, dropped: &mut Vec<PacketId>) -> Option<(PacketId, NodeId)> {
        // 1500 bytes at 6.5 Mbit/s: ceil(1500 x 8 x 1000 / 6500) = 1847 us (hand computed).
        i.dequeue(A, BE, NOW, dropped, |_| false, |_| 1500, |_| 6500)
    }

    #[test]
    fn no_tier_sends_every_packet_to_the_mac_without_asking_its_room() {
        let mut i = Interfaces::none(2);
        assert!(!i.any());
        assert_eq!(i.enqueue(A, P, pkt(0), (0, 1500, BE), NOW, never, &mut vec![]), Enqueued::ToMac);
        assert!(i.has_room(A, P, BE, || true) && !i.has_room(A, P, BE, || false));
        assert_eq!(take(&mut i, &mut vec![]), None);
    }

    #[test]
    fn qdisc_empty_with_mac_room_passes_the_packet_down() {
        let mut i = qdisc(2);
        assert_eq!(put(&mut i, 0, true, &mut vec![]), Enqueued::ToMac);
        assert_eq!(take(&mut i, &mut vec![]), None);
    }

    #[test]
    fn qdisc_holds_the_packet_when_the_mac_is_full() {
        let mut i = qdisc(2);
        assert_eq!(put(&mut i, 0, false, &mut vec![]), Enqueued::InQdisc);
        assert_eq!(take(&mut i, &mut vec![]), Some((pkt(0), P)));
    }

    #[test]
    fn qdisc_with_a_waiting_packet_queues_the_next_behind_it_even_with_mac_room() {
        let mut i = qdisc(4);
        assert_eq!(put(&mut i, 0, false, &mut vec![]), Enqueued::InQdisc);
        assert_eq!(i.enqueue(A, P, pkt(1), (0, 1500, BE), NOW, never, &mut vec![]), Enqueued::InQdisc);
        assert_eq!(take(&mut i, &mut vec![]), Some((pkt(0), P)));
        assert_eq!(take(&mut i, &mut vec![]), Some((pkt(1), P)));
        assert_eq!(take(&mut i, &mut vec![]), None);
    }

    #[test]
    fn qdisc_full_drops_the_packet_at_its_limit_and_has_no_room() {
        let mut i = qdisc(2);
        put(&mut i, 0, false, &mut vec![]);
        assert!(i.has_room(A, P, BE, never));
        put(&mut i, 1, false, &mut vec![]);
        assert!(!i.has_room(A, P, BE, || true), "the qdisc's room, not the MAC's");
        assert_eq!(put(&mut i, 2, false, &mut vec![]), Enqueued::QdiscFull);
    }

    #[test]
    fn a_node_without_a_tier_beside_one_with_a_qdisc_goes_straight_to_its_mac() {
        let mut i = qdisc(2);
        let got = i.enqueue(P, A, pkt(0), (0, 1500, BE), NOW, never, &mut vec![]);
        assert_eq!(got, Enqueued::ToMac);
        assert!(!i.has_room(P, A, BE, || false));
    }

    #[test]
    fn txq_takes_the_packet_and_the_driver_pulls_it_with_its_pending_airtime() {
        let mut i = txq(8, None);
        let mut dropped = vec![];
        assert_eq!(put(&mut i, 7, true, &mut dropped), Enqueued::InTxq);
        assert!(dropped.is_empty());
        assert_eq!(take(&mut i, &mut dropped), Some((pkt(7), P)));
        assert_eq!(i.pending[7], (P.0, 1847));
        let Tier::Txq(q) = &i.tiers[0] else { unreachable!() };
        assert_eq!((q.pending_us[P.idx()], q.pending_total_us), (1847, 1847));
    }

    #[test]
    fn txq_done_releases_the_pending_airtime_once() {
        let mut i = txq(8, None);
        put(&mut i, 3, true, &mut vec![]);
        take(&mut i, &mut vec![]);
        i.done(A, pkt(3), BE, |_| 0);
        i.done(A, pkt(3), BE, |_| panic!("done twice must not charge again"));
        let Tier::Txq(q) = &i.tiers[0] else { unreachable!() };
        assert_eq!((q.pending_us[P.idx()], q.pending_total_us), (0, 0));
        assert_eq!(i.pending[3], (0, 0));
    }

    #[test]
    fn txq_done_charges_whole_microseconds_and_keeps_the_rest() {
        let mut i = txq(8, None);
        put(&mut i, 0, true, &mut vec![]);
        take(&mut i, &mut vec![]);
        // 2,500,400 ns used: 2500 us charged, the 400 ns below 1 us wait for the next charge.
        i.done(A, pkt(0), BE, |_| 2_500_400);
        let Tier::Txq(q) = &i.tiers[0] else { unreachable!() };
        assert_eq!(q.charged_ns[P.idx()], 2_500_000);
    }

    #[test]
    fn txq_at_its_limit_pushes_out_the_oldest_packet() {
        let mut i = txq(2, None);
        let mut dropped = vec![];
        put(&mut i, 0, true, &mut dropped);
        put(&mut i, 1, true, &mut dropped);
        assert!(!i.has_room(A, P, BE, || true), "two of two");
        assert_eq!(put(&mut i, 2, true, &mut dropped), Enqueued::InTxq);
        assert_eq!(dropped, [pkt(0)], "fq_codel drops from the head of the fattest flow");
    }

    #[test]
    fn txq_station_at_its_aql_limit_is_skipped_until_a_frame_is_done() {
        // AQL low 1000 us, high 2000, threshold 1 us: after one 1847 us frame the station is
        // above its low limit and the interface above the threshold (ieee80211_txq_airtime_check).
        let aql = Some(AqlParams { low_us: 1000, high_us: 2000, threshold_us: 1 });
        let mut i = txq(8, aql);
        put(&mut i, 0, true, &mut vec![]);
        put(&mut i, 1, true, &mut vec![]);
        assert_eq!(take(&mut i, &mut vec![]), Some((pkt(0), P)));
        assert_eq!(take(&mut i, &mut vec![]), None);
        i.done(A, pkt(0), BE, |_| 0);
        assert_eq!(take(&mut i, &mut vec![]), Some((pkt(1), P)));
    }

    #[test]
    fn done_without_intermediate_queues_does_nothing() {
        let mut i = qdisc(2);
        i.done(A, pkt(0), BE, |_| panic!("no queue to charge"));
        let mut none = Interfaces::none(2);
        none.done(A, pkt(0), BE, |_| panic!("no queue to charge"));
        assert!(!none.has_txq());
    }
}
