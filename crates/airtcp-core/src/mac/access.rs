//! Channel access: queueing a frame, contending, freezing and resuming the backoff countdown,
//! and the grant when it reaches zero (DCF 10.3.4, EDCA 10.22.2). The countdown is lazy: no
//! event per slot; a grant event is armed at the time the backoff would end, cancelled when
//! the medium turns busy first.

use super::backoff::{grant_time, slots_consumed};
use super::frame::{Carried, Frame, FrameKind};
use super::{Cca, Queued, Wifi, AC_COUNT};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::{NodeId, PacketId};
use crate::time::SimTime;

impl Wifi {
    /// Queue `packet` (of `ip_bytes`, access category `ac`) at `node` for the neighbour
    /// `next_hop`. False if the queue is full: the caller drops the packet.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn enqueue(
        &mut self,
        node: NodeId,
        next_hop: NodeId,
        packet: PacketId,
        ip_bytes: u32,
        ac: usize,
        cca: Cca,
        sched: &mut Scheduler<Event>,
        now: SimTime,
    ) -> bool {
        if self.queue_full(node, ac) {
            return false;
        }
        let seq = if self.cfg.ampdu.is_some() {
            // 10.3.2.14.2: under Block Ack, numbers count per receiver and TID.
            let s = &mut self.ba_peer(node, next_hop).seq[ac];
            let seq = *s;
            *s = (*s + 1) % 4096;
            seq
        } else {
            let mac = &mut self.macs[node.idx()];
            let seq = mac.next_seq;
            mac.next_seq = (mac.next_seq + 1) % 4096;
            seq
        };
        let mac = &mut self.macs[node.idx()];
        let mode = mac.peers[next_hop.idx()].first_mode;
        mac.counters.count_data_rate(mode);
        self.push(node, ac, Queued::new(packet, next_hop, seq, ip_bytes, now), cca, sched, now);
        true
    }

    /// Queue the management (Action) frame `packet` of `mpdu_bytes` at `node` for `to`
    /// (`NodeId::BROADCAST`: group-addressed; `acked`: the sender waits for the ACK of a
    /// unicast one), in AC_VO under EDCA (mac80211 sends management
    /// frames on the VO queue, `ieee80211_tx_skb`) and in the one DCF queue otherwise (AC_BE's).
    /// False if the queue is full.
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue_mgmt(
        &mut self,
        node: NodeId,
        to: NodeId,
        packet: PacketId,
        mpdu_bytes: u32,
        acked: bool,
        cca: Cca,
        sched: &mut Scheduler<Event>,
        now: SimTime,
    ) -> bool {
        let ac = if self.cfg.qos { 3 } else { 1 };
        if self.queue_full(node, ac) {
            return false;
        }
        let mac = &mut self.macs[node.idx()];
        let seq = mac.next_seq;
        mac.next_seq = (mac.next_seq + 1) % 4096;
        let no_ack = !acked || to == NodeId::BROADCAST;
        let q = Queued { mgmt: true, no_ack, ..Queued::new(packet, to, seq, mpdu_bytes, now) };
        self.push(node, ac, q, cca, sched, now);
        true
    }

    /// Whether `node`'s queue `ac` is full (a drop counted).
    #[inline(always)]
    fn queue_full(&mut self, node: NodeId, ac: usize) -> bool {
        let mac = &mut self.macs[node.idx()];
        if mac.txops[ac].queue.len() < self.cfg.queue_limit {
            return false;
        }
        mac.counters.drops_queue += 1;
        true
    }

    /// `q` joins the tail of `node`'s queue `ac`, which contends if it can.
    #[inline(always)]
    fn push(
        &mut self,
        node: NodeId,
        ac: usize,
        q: Queued,
        cca: Cca,
        sched: &mut Scheduler<Event>,
        now: SimTime,
    ) {
        // 10.3.4.2: the medium as carrier sense sees it, physical and virtual (NAV); the
        // node's own pending response does not make it busy.
        let idle = !cca.busy && self.macs[node.idx()].nav.idle_at(now);
        let mac = &mut self.macs[node.idx()];
        mac.txops[ac].queue.push_back(q);
        if mac.txops[ac].queue.len() == 1 {
            // The head of its queue: ready to contend, and its service time runs.
            mac.txops[ac].attempt_since = now;
            mac.txops[ac].head_since = now;
        }
        if mac.ns2_backoff {
            // ns-2 `Mac802_11::send`: with no backoff running (none drawn, or the last one
            // counted out on the idle medium) a frame on an idle medium defers DIFS and a fresh
            // backoff from now (`mhDefer_.start(DIFS + rTime)`), on a busy one backs off.
            let timing = self.cfg.timing;
            let txop = &mac.txops[ac];
            let ends = grant_time(mac.idle_start + mac.ifs(ac, &timing), txop.backoff, timing.slot);
            if !txop.backoff_pending || (idle && mac.counting && ends <= now) {
                if idle {
                    mac.idle_start = now;
                }
                mac.draw_backoff(ac);
            }
        } else if !mac.txops[ac].backoff_pending && !idle {
            // 10.3.4.2: a frame that finds the medium busy (and no backoff running) backs off;
            // one that finds it idle goes after DIFS (or EIFS) with a zero backoff.
            mac.draw_backoff(ac);
        }
        self.contend(node, cca, sched, now);
    }

    /// Arm the grant of every non-empty access category of an idle node.
    pub fn contend(&mut self, node: NodeId, cca: Cca, sched: &mut Scheduler<Event>, now: SimTime) {
        let i = node.idx();
        if !self.macs[i].wifi || cca.busy || self.macs[i].blocked() {
            return;
        }
        let timing = self.cfg.timing;
        let mac = &mut self.macs[i];
        mac.counting = true;
        for ac in (0..AC_COUNT).rev() {
            if mac.txops[ac].queue.is_empty() {
                continue;
            }
            if !mac.txops[ac].backoff_pending {
                mac.txops[ac].backoff = 0;
                mac.txops[ac].drawn_slots = 0;
            }
            let count_start = mac.idle_start + mac.ifs(ac, &timing);
            let at = grant_time(count_start, mac.txops[ac].backoff, timing.slot).max(now);
            let txop = &mut mac.txops[ac];
            if txop.grant.deadline() == Some(at) {
                continue;
            }
            let gen = txop.grant.arm(at);
            self.domains.arm(node, ac, at, gen, sched);
        }
        if mac.beacon_pending {
            // AIFSN 1, CW 0: PIFS (SIFS + a slot, 10.3.2.3.4) after the idle start, EIFS after
            // an erroneous reception as any access function.
            let mut ifs = timing.sifs + timing.slot;
            if mac.eifs {
                ifs = ifs + timing.sifs + timing.eifs_ack;
            }
            let at = (mac.idle_start + ifs).max(now);
            if mac.beacon_grant.deadline() != Some(at) {
                mac.beacon_grant.schedule(at, sched, |gen| Event::BeaconGrant { node, gen });
            }
        }
    }

    /// A TBTT of the AP `node`: its beacon waits for PIFS of idle medium.
    pub fn beacon_due(&mut self, node: NodeId, cca: Cca, sched: &mut Scheduler<Event>, now: SimTime) {
        self.macs[node.idx()].beacon_pending = true;
        self.contend(node, cca, sched, now);
    }

    /// The beacon grant of `node` fired: the Beacon to put on the air, if the node is free
    /// (it broadcasts: no response, no retry; 11.1.3.2).
    pub fn beacon_grant(&mut self, node: NodeId, gen: u32, cca: Cca) -> Option<Frame> {
        let beacon = self.cfg.beacon?;
        let mac = &mut self.macs[node.idx()];
        if !mac.beacon_grant.fire(gen) || !mac.beacon_pending || mac.blocked() || cca.transmitting {
            return None;
        }
        mac.beacon_pending = false;
        let seq = mac.next_seq;
        mac.next_seq = (mac.next_seq + 1) % 4096;
        let c = Carried { packet: None, seq, retry: false, ac: 3 };
        // 9.2.4.2: group-addressed, Duration 0.
        Some(Frame::mpdu(
            FrameKind::Beacon,
            (node, NodeId::BROADCAST),
            beacon.bytes,
            beacon.txv,
            crate::time::Dur::ZERO,
            c,
        ))
    }

    /// The medium turns busy for `node`: freeze every running countdown.
    pub fn freeze(&mut self, node: NodeId, now: SimTime) {
        let timing = self.cfg.timing;
        let mac = &mut self.macs[node.idx()];
        if !mac.counting {
            return;
        }
        if mac.lazy_set != u32::MAX {
            // A clique's phantom: its lazy members' countdowns stop together.
            let c = mac.lazy_set as usize;
            self.lazy_freeze(c, now);
        }
        let mac = &mut self.macs[node.idx()];
        mac.counting = false;
        let mut cancelled = 0u8; // a bit per access category
        for ac in 0..AC_COUNT {
            if mac.txops[ac].backoff_pending {
                let count_start = mac.idle_start + mac.ifs(ac, &timing);
                let used = slots_consumed(mac.rule, count_start, now, timing.slot);
                let txop = &mut mac.txops[ac];
                txop.backoff -= used.min(u64::from(txop.backoff)) as u32;
                if txop.backoff == 0 && txop.queue.is_empty() {
                    txop.backoff_pending = false; // post-backoff complete
                }
            }
            let txop = &mut mac.txops[ac];
            // A grant due exactly now still fires: both stations transmit in this slot.
            if txop.grant.deadline().is_some_and(|d| d > now) {
                txop.grant.cancel();
                cancelled |= 1 << ac;
            }
        }
        if mac.beacon_pending && mac.beacon_grant.deadline().is_some_and(|d| d > now) {
            mac.beacon_grant.cancel();
        }
        if cancelled != 0 && self.domains.has(node) {
            for ac in (0..AC_COUNT).filter(|ac| cancelled >> ac & 1 == 1) {
                self.domains.cancel(node, ac);
            }
        }
    }

    /// The medium turns idle for `node` (physical carrier sense); the NAV may extend it.
    pub fn medium_idle(&mut self, node: NodeId, cca: Cca, sched: &mut Scheduler<Event>, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.idle_start = mac.nav.idle_from(now);
        self.contend(node, cca, sched, now);
    }

    /// The grant of `ac` at `node` fired: true if the node now starts an exchange of `ac`
    /// ([`Wifi::start_exchange`]).
    pub fn grant(&mut self, node: NodeId, ac: usize, gen: u32, cca: Cca) -> bool {
        let i = node.idx();
        if !self.macs[i].txops[ac].grant.fire(gen) {
            return false;
        }
        if self.macs[i].blocked() || cca.transmitting {
            return false; // internal contention: the counter stays at zero until the next idle period
        }
        let txop = &mut self.macs[i].txops[ac];
        txop.backoff_pending = false;
        txop.backoff = 0;
        if txop.queue.is_empty() {
            return false;
        }
        txop.granted = (txop.attempt_since, txop.drawn_slots);
        true
    }
}
