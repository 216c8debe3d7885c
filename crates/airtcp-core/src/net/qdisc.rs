//! The queueing discipline above a WiFi interface (Linux's `mq` root with one child per
//! hardware queue, i.e. per access category): packets wait here while the driver's queue for
//! their access category is full (ath9k stops mac80211's queue at `ATH_MAX_QDEPTH` = 123
//! frames per AC and wakes it below, Linux 3.2 `ath_tx_start`), and move down as it drains.
//! Three children: `pfifo` (pfifo_fast with one band in use: a tail-drop FIFO of `txqueuelen`
//! 1000 packets), `codel` (Linux 3.5's CoDel qdisc, `net/codel.rs`, with the same limit) and
//! `fq_codel` (`sch_fq_codel`, `net/fq_codel.rs`: flows by airtcp's flow id, 1024 buckets,
//! quantum 1514, 10,240 packets, ECN on; what systemd makes Linux's default qdisc). An
//! fq_codel child never refuses a packet: over its limit it drops from its fattest flow
//! (`fq_codel_drop`), so a sender's own qdisc never pushes back on TCP.

use std::collections::VecDeque;

use super::codel::{Codel, CodelParams, CodelQueue};
use super::fq_codel::{FqCodel, FqCodelParams};
use crate::ids::{NodeId, PacketId};
use crate::mac::AC_COUNT;
use crate::time::SimTime;

/// Which discipline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QdiscKind {
    Pfifo,
    Codel(CodelParams),
    FqCodel(FqCodelParams),
}

/// A packet waiting: its id, next hop, enqueue time and size [bytes].
#[derive(Clone, Copy, Debug)]
struct Waiting {
    packet: PacketId,
    next_hop: NodeId,
    enqueued: SimTime,
    bytes: u32,
}

#[derive(Clone, Debug, Default)]
struct Band {
    q: VecDeque<Waiting>,
    bytes: u32,
}

impl CodelQueue for Band {
    type Item = (PacketId, NodeId);

    fn dequeue(&mut self) -> Option<((PacketId, NodeId), SimTime, u32)> {
        let w = self.q.pop_front()?;
        self.bytes -= w.bytes;
        Some(((w.packet, w.next_hop), w.enqueued, w.bytes))
    }

    fn backlog_bytes(&self) -> u32 {
        self.bytes
    }
}

/// The fq_codel children of one interface, one per access category.
type FqChildren = [FqCodel<(PacketId, NodeId)>; AC_COUNT];

/// One interface's qdisc: a child per access category.
#[derive(Clone, Debug)]
pub struct Qdisc {
    pub kind: QdiscKind,
    /// Packets each child holds at most (`txqueuelen`, the `limit` of codel).
    pub limit: usize,
    bands: [Band; AC_COUNT],
    codel: [Codel; AC_COUNT],
    /// The fq_codel children, if that is the kind.
    fq: Option<Box<FqChildren>>,
    /// What an fq_codel child dropped, with next hops (reused: no allocation per drop).
    fq_dropped: Vec<(PacketId, NodeId)>,
    /// Packets dropped at a full child (tail drop) and by CoDel.
    pub tail_drops: u64,
    pub codel_drops: u64,
}

impl Qdisc {
    pub fn new(kind: QdiscKind, limit: usize) -> Qdisc {
        let params = match kind {
            QdiscKind::Codel(p) => p,
            QdiscKind::FqCodel(p) => p.codel,
            QdiscKind::Pfifo => CodelParams::DEFAULT,
        };
        let fq = match kind {
            QdiscKind::FqCodel(p) => {
                Some(Box::new(std::array::from_fn(|_| FqCodel::new(FqCodelParams { limit, ..p }))))
            }
            _ => None,
        };
        Qdisc {
            kind,
            limit,
            bands: Default::default(),
            codel: [Codel::new(params); AC_COUNT],
            fq,
            fq_dropped: Vec::new(),
            tail_drops: 0,
            codel_drops: 0,
        }
    }

    pub fn is_empty(&self, ac: usize) -> bool {
        match &self.fq {
            Some(fq) => fq[ac].is_empty(),
            None => self.bands[ac].q.is_empty(),
        }
    }

    /// Whether the child of `ac` takes another packet (fq_codel's always does).
    pub fn has_room(&self, ac: usize) -> bool {
        self.fq.is_some() || self.bands[ac].q.len() < self.limit
    }

    pub fn len(&self, ac: usize) -> usize {
        match &self.fq {
            Some(fq) => fq[ac].len(),
            None => self.bands[ac].q.len(),
        }
    }

    /// Queue `packet` of `flow` (for `next_hop`, `bytes` long) at `now`; false: the child is
    /// full and the packet is dropped (tail drop; counted). An fq_codel child takes it and,
    /// over its limit, drops the head of its fattest flow into `dropped`.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        ac: usize,
        flow: u32,
        packet: PacketId,
        next_hop: NodeId,
        bytes: u32,
        now: SimTime,
        dropped: &mut Vec<PacketId>,
    ) -> bool {
        if let Some(fq) = &mut self.fq {
            fq[ac].enqueue(flow, (packet, next_hop), bytes, now, &mut self.fq_dropped);
            self.tail_drops += self.fq_dropped.len() as u64;
            dropped.extend(self.fq_dropped.drain(..).map(|(p, _)| p));
            return true;
        }
        if !self.has_room(ac) {
            self.tail_drops += 1;
            return false;
        }
        let b = &mut self.bands[ac];
        b.q.push_back(Waiting { packet, next_hop, enqueued: now, bytes });
        b.bytes += bytes;
        true
    }

    /// The next packet of `ac` for the driver at `now`; CoDel's drops on the way go to
    /// `dropped` (oldest first).
    pub fn pop(
        &mut self,
        ac: usize,
        now: SimTime,
        dropped: &mut Vec<PacketId>,
        mark: &mut impl FnMut(PacketId) -> bool,
    ) -> Option<(PacketId, NodeId)> {
        match self.kind {
            QdiscKind::Pfifo => self.bands[ac].dequeue().map(|(item, _, _)| item),
            QdiscKind::FqCodel(_) => {
                let fq = &mut self.fq.as_mut().expect("fq_codel children")[ac];
                let got = fq.dequeue(now, &mut self.fq_dropped, &mut |&(p, _)| mark(p));
                self.codel_drops += self.fq_dropped.len() as u64;
                dropped.extend(self.fq_dropped.drain(..).map(|(p, _)| p));
                got
            }
            QdiscKind::Codel(_) => {
                let before = dropped.len();
                let out = self.codel[ac].dequeue(
                    &mut self.bands[ac],
                    now,
                    |(p, _)| dropped.push(p),
                    |&(p, _)| mark(p),
                );
                self.codel_drops += (dropped.len() - before) as u64;
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    fn ms(v: u64) -> SimTime {
        SimTime::ZERO + Dur::from_ms(v)
    }

    #[test]
    fn pfifo_is_a_tail_drop_fifo_per_access_category() {
        let mut q = Qdisc::new(QdiscKind::Pfifo, 3);
        for p in 0..4 {
            let ok = q.push(1, 0, PacketId(p), NodeId(0), 1500, ms(0), &mut Vec::new());
            assert_eq!(ok, p < 3);
        }
        assert!(
            q.push(3, 0, PacketId(9), NodeId(0), 100, ms(0), &mut Vec::new()),
            "another AC has its own child"
        );
        assert_eq!(q.tail_drops, 1);
        let mut d = Vec::new();
        let order: Vec<u32> =
            (0..3).filter_map(|_| q.pop(1, ms(500), &mut d, &mut |_| false)).map(|(p, _)| p.0).collect();
        assert_eq!(order, [0, 1, 2]);
        assert!(d.is_empty() && q.is_empty(1) && !q.is_empty(3));
    }

    #[test]
    fn codel_drops_what_waited_too_long() {
        // A packet every ms, sent every 2 ms (open loop: nothing slows the source): the queue
        // and the sojourn times grow; after an interval above target CoDel drops, at a rising
        // rate, and what goes down has waited less than under pfifo (a TCP source would slow).
        let run = |kind| {
            let mut q = Qdisc::new(kind, 1000);
            let (mut d, mut worst) = (Vec::new(), Dur::ZERO);
            for t in 0..2000u64 {
                assert!(q.push(1, 0, PacketId(t as u32), NodeId(0), 1500, ms(t), &mut Vec::new()));
                if t % 2 == 0 {
                    if let Some((p, _)) = q.pop(1, ms(t), &mut d, &mut |_| false) {
                        worst = worst.max(ms(t).since(ms(u64::from(p.0))));
                    }
                }
            }
            (q.codel_drops, worst)
        };
        let (fifo_drops, fifo_worst) = run(QdiscKind::Pfifo);
        let (codel_drops, codel_worst) = run(QdiscKind::Codel(CodelParams::DEFAULT));
        assert_eq!(fifo_drops, 0);
        assert!(codel_drops > 50 && codel_worst < fifo_worst, "{codel_drops} {codel_worst:?} {fifo_worst:?}");
    }

    #[test]
    fn fq_codel_serves_a_sparse_flow_first_and_drops_from_the_fattest() {
        // RFC 8290 1.2 and sch_fq_codel: flow 1 has 20 packets waiting when flow 2's one
        // packet arrives; flow 2 is new, so it goes next (after the packet flow 1 is being
        // served: its quantum of 1514 bytes covers one). Over the limit (here 21) the head of
        // the fattest flow is dropped, never refused: the qdisc always has room.
        let kind = QdiscKind::FqCodel(FqCodelParams { flows: 64, ..FqCodelParams::LINUX_QDISC });
        let mut q = Qdisc::new(kind, 21);
        let mut dropped = Vec::new();
        for p in 0..20 {
            assert!(q.push(1, 1, PacketId(p), NodeId(0), 1500, ms(0), &mut dropped));
        }
        let mut d = Vec::new();
        assert_eq!(q.pop(1, ms(1), &mut d, &mut |_| false), Some((PacketId(0), NodeId(0))));
        assert!(q.push(1, 2, PacketId(100), NodeId(0), 1500, ms(1), &mut dropped));
        assert_eq!(q.pop(1, ms(1), &mut d, &mut |_| false), Some((PacketId(1), NodeId(0))));
        assert_eq!(q.pop(1, ms(1), &mut d, &mut |_| false), Some((PacketId(100), NodeId(0))));
        for p in 200..203 {
            assert!(q.has_room(1) && q.push(1, 2, PacketId(p), NodeId(0), 1500, ms(2), &mut dropped));
        }
        // 18 of flow 1 and 3 of flow 2: at the limit; one more drops flow 1's head (packet 2).
        assert!(dropped.is_empty() && q.len(1) == 21);
        assert!(q.push(1, 2, PacketId(203), NodeId(0), 1500, ms(2), &mut dropped));
        assert_eq!((dropped, q.len(1), q.tail_drops), (vec![PacketId(2)], 21, 1));
    }
}
