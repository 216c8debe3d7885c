//! The queueing discipline above a WiFi interface (Linux's `mq` root with one child per
//! hardware queue, i.e. per access category): packets wait here while the driver's queue for
//! their access category is full (ath9k stops mac80211's queue at `ATH_MAX_QDEPTH` = 123
//! frames per AC and wakes it below, Linux 3.2 `ath_tx_start`), and move down as it drains.
//! Two children: `pfifo` (pfifo_fast with one band in use: a tail-drop FIFO of `txqueuelen`
//! 1000 packets) and `codel` (Linux 3.5's CoDel qdisc, `net/codel.rs`, with the same limit).

use std::collections::VecDeque;

use super::codel::{Codel, CodelParams, CodelQueue};
use crate::ids::{NodeId, PacketId};
use crate::mac::AC_COUNT;
use crate::time::SimTime;

/// Which discipline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QdiscKind {
    Pfifo,
    Codel(CodelParams),
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

/// One interface's qdisc: a child per access category.
#[derive(Clone, Debug)]
pub struct Qdisc {
    pub kind: QdiscKind,
    /// Packets each child holds at most (`txqueuelen`, the `limit` of codel).
    pub limit: usize,
    bands: [Band; AC_COUNT],
    codel: [Codel; AC_COUNT],
    /// Packets dropped at a full child (tail drop) and by CoDel.
    pub tail_drops: u64,
    pub codel_drops: u64,
}

impl Qdisc {
    pub fn new(kind: QdiscKind, limit: usize) -> Qdisc {
        let params = match kind {
            QdiscKind::Codel(p) => p,
            QdiscKind::Pfifo => CodelParams::DEFAULT,
        };
        Qdisc {
            kind,
            limit,
            bands: Default::default(),
            codel: [Codel::new(params); AC_COUNT],
            tail_drops: 0,
            codel_drops: 0,
        }
    }

    pub fn is_empty(&self, ac: usize) -> bool {
        self.bands[ac].q.is_empty()
    }

    pub fn has_room(&self, ac: usize) -> bool {
        self.bands[ac].q.len() < self.limit
    }

    pub fn len(&self, ac: usize) -> usize {
        self.bands[ac].q.len()
    }

    /// Queue `packet` (for `next_hop`, `bytes` long) at `now`; false: the child is full and
    /// the packet is dropped (tail drop; counted).
    pub fn push(&mut self, ac: usize, packet: PacketId, next_hop: NodeId, bytes: u32, now: SimTime) -> bool {
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
            let ok = q.push(1, PacketId(p), NodeId(0), 1500, ms(0));
            assert_eq!(ok, p < 3);
        }
        assert!(q.push(3, PacketId(9), NodeId(0), 100, ms(0)), "another AC has its own child");
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
                assert!(q.push(1, PacketId(t as u32), NodeId(0), 1500, ms(t)));
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
}
