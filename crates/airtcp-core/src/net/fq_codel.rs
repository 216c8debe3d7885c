//! FQ-CoDel (RFC 8290; Linux `net/sched/sch_fq_codel.c`, and mac80211's per-TXQ use of it in
//! `include/net/fq_impl.h`): packets hashed into flows, each flow a FIFO under its own CoDel,
//! flows served by deficit round robin with new flows first. Overflow drops from the flow
//! with the largest backlog. Flows here are airtcp's flows (a flow id stands for the 5-tuple
//! hash; `flows` buckets, as Linux hashes into `flows_cnt`), so two flows share a bucket only
//! when the bucket count is smaller than the flow ids.

use std::collections::VecDeque;

use super::codel::{Codel, CodelParams, CodelQueue};
use crate::time::SimTime;

/// FQ-CoDel's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FqCodelParams {
    pub codel: CodelParams,
    /// Bytes a flow may send per round (`quantum`: the MTU in sch_fq_codel, 300 in mac80211).
    pub quantum: u32,
    /// Packets held in all flows together (`limit`: 10,240 in sch_fq_codel, 8,192 in mac80211).
    pub limit: usize,
    /// Hash buckets (`flows`: 1,024 in sch_fq_codel, 4,096 in mac80211).
    pub flows: usize,
}

impl FqCodelParams {
    /// sch_fq_codel's defaults (`fq_codel_init`): target 5 ms, interval 100 ms, quantum 1514,
    /// limit 10,240 packets, 1,024 flows.
    pub const LINUX_QDISC: FqCodelParams =
        FqCodelParams { codel: CodelParams::DEFAULT, quantum: 1514, limit: 10_240, flows: 1024 };
}

#[derive(Clone, Debug)]
struct Flow<T> {
    q: VecDeque<(T, SimTime, u32)>,
    bytes: u32,
    deficit: i64,
    /// Size of the packet last taken off (what the deficit is charged).
    last: u32,
}

impl<T> CodelQueue for Flow<T> {
    type Item = T;
    fn dequeue(&mut self) -> Option<(T, SimTime, u32)> {
        let (item, t, b) = self.q.pop_front()?;
        self.bytes -= b;
        self.last = b;
        Some((item, t, b))
    }
    fn backlog_bytes(&self) -> u32 {
        self.bytes
    }
}

/// One FQ-CoDel instance over items of type `T`.
#[derive(Clone, Debug)]
pub struct FqCodel<T> {
    pub params: FqCodelParams,
    flows: Vec<Flow<T>>,
    /// Each flow's CoDel (beside the flows: CoDel dequeues from its flow).
    codels: Vec<Codel>,
    /// Flow indices on the new and old lists (RFC 8290 1.2), and whether each is on one.
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    listed: Vec<bool>,
    len: usize,
    pub overflow_drops: u64,
    pub codel_drops: u64,
    /// Packets CoDel CE-marked instead of dropping (with `codel.ecn`).
    pub ecn_marks: u64,
}

impl<T> FqCodel<T> {
    pub fn new(params: FqCodelParams) -> FqCodel<T> {
        FqCodel {
            params,
            flows: (0..params.flows)
                .map(|_| Flow { q: VecDeque::new(), bytes: 0, deficit: 0, last: 0 })
                .collect(),
            codels: vec![Codel::new(params.codel); params.flows],
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            listed: vec![false; params.flows],
            len: 0,
            overflow_drops: 0,
            codel_drops: 0,
            ecn_marks: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Queue `item` of flow `flow` (`bytes` long) at `now` (`fq_codel_enqueue`): a flow not on a
    /// list joins the new list with a full quantum; over the limit, the fattest flow loses its
    /// head packet, which goes to `dropped`.
    pub fn enqueue(&mut self, flow: u32, item: T, bytes: u32, now: SimTime, dropped: &mut Vec<T>) {
        let k = flow as usize % self.params.flows;
        let f = &mut self.flows[k];
        f.q.push_back((item, now, bytes));
        f.bytes += bytes;
        self.len += 1;
        if !self.listed[k] {
            self.listed[k] = true;
            self.flows[k].deficit = i64::from(self.params.quantum);
            self.new_flows.push_back(k);
        }
        if self.len > self.params.limit {
            // fq_codel_drop: the flow with the largest backlog in bytes.
            let fat = (0..self.flows.len()).max_by_key(|&i| (self.flows[i].bytes, std::cmp::Reverse(i)));
            if let Some((item, _, _)) = fat.and_then(|i| {
                let f = &mut self.flows[i];
                let head = f.q.pop_front()?;
                f.bytes -= head.2;
                Some(head)
            }) {
                self.len -= 1;
                self.overflow_drops += 1;
                dropped.push(item);
            }
        }
    }

    /// The next packet to send at `now` (`fq_codel_dequeue`): the head flow of the new list,
    /// else of the old list; a flow out of deficit gets a quantum more and goes to the old
    /// list's tail; each flow's CoDel may drop on the way (to `dropped`); an emptied new flow
    /// moves to the old list once (so it cannot starve the old ones), an emptied old flow
    /// leaves the lists. With ECN on, `mark` CE-marks what CoDel would drop if it can
    /// ([`Codel::dequeue`]); the overflow drop above ignores ECN (`fq_codel_drop`).
    pub fn dequeue(
        &mut self,
        now: SimTime,
        dropped: &mut Vec<T>,
        mark: &mut impl FnMut(&T) -> bool,
    ) -> Option<T> {
        loop {
            let (k, from_new) = match self.new_flows.front() {
                Some(&k) => (k, true),
                None => (*self.old_flows.front()?, false),
            };
            if self.flows[k].deficit <= 0 {
                self.flows[k].deficit += i64::from(self.params.quantum);
                if from_new {
                    self.new_flows.pop_front();
                } else {
                    self.old_flows.pop_front();
                }
                self.old_flows.push_back(k);
                continue;
            }
            let before = dropped.len();
            let marks_before = self.codels[k].ecn_mark;
            let out = self.codels[k].dequeue(&mut self.flows[k], now, |item| dropped.push(item), &mut *mark);
            self.ecn_marks += self.codels[k].ecn_mark - marks_before;
            let n_dropped = dropped.len() - before;
            self.codel_drops += n_dropped as u64;
            self.len -= n_dropped;
            match out {
                Some(item) => {
                    self.len -= 1;
                    // The bytes are gone from the flow's backlog; charge them to its deficit.
                    let sent = self.last_bytes(k);
                    self.flows[k].deficit -= i64::from(sent);
                    return Some(item);
                }
                None => {
                    if from_new {
                        self.new_flows.pop_front();
                        self.old_flows.push_back(k);
                    } else {
                        self.old_flows.pop_front();
                        self.listed[k] = false;
                    }
                }
            }
        }
    }

    /// The size of the packet flow `k` just handed on: kept by `Flow::dequeue` as the
    /// difference it made to the backlog (read through CoDel, which owns the dequeue).
    fn last_bytes(&mut self, k: usize) -> u32 {
        let f = &mut self.flows[k];
        std::mem::take(&mut f.last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    fn ms(v: u64) -> SimTime {
        SimTime::ZERO + Dur::from_ms(v)
    }

    fn params(quantum: u32, limit: usize) -> FqCodelParams {
        FqCodelParams { quantum, limit, flows: 64, ..FqCodelParams::LINUX_QDISC }
    }

    #[test]
    fn a_thin_flow_is_not_stuck_behind_a_fat_one() {
        // Flow 1 has 500 packets queued; flow 2 sends one. FIFO order would hand it on after
        // the 500; FQ-CoDel serves it as soon as flow 1 has used its quantum (one more
        // 1500-byte packet here: 14 bytes of deficit were left), ahead of flow 1's backlog
        // (RFC 8290 1.2, flow isolation).
        let mut fq = FqCodel::new(params(1514, 10_000));
        let mut d = Vec::new();
        for i in 0..500u32 {
            fq.enqueue(1, i, 1500, ms(0), &mut d);
        }
        assert_eq!(fq.dequeue(ms(1), &mut d, &mut |_| false), Some(0));
        fq.enqueue(2, 9999, 100, ms(1), &mut d);
        let order: Vec<u32> = (0..3).filter_map(|_| fq.dequeue(ms(1), &mut d, &mut |_| false)).collect();
        assert_eq!(order, [1, 9999, 2]);
        assert!(d.is_empty());
    }

    #[test]
    fn deficit_round_robin_shares_bytes_not_packets() {
        // Two backlogged flows, 1500-byte and 300-byte packets, quantum 1500: per round each
        // sends about 1500 bytes, so the small-packet flow sends five packets per big one.
        let mut fq = FqCodel::new(params(1500, 10_000));
        let mut d = Vec::new();
        for i in 0..200u32 {
            fq.enqueue(1, i, 1500, ms(0), &mut d);
            fq.enqueue(2, 1000 + i, 300, ms(0), &mut d);
        }
        let (mut big, mut small) = (0u32, 0u32);
        for _ in 0..120 {
            match fq.dequeue(ms(0), &mut d, &mut |_| false) {
                Some(i) if i < 1000 => big += 1500,
                Some(_) => small += 300,
                None => break,
            }
        }
        assert!((f64::from(big) / f64::from(small) - 1.0).abs() < 0.1, "{big} {small}");
    }

    #[test]
    fn each_flow_has_its_own_codel() {
        // Flow 1 keeps a standing queue (2 packets in per ms, 1 out... shared with flow 2);
        // flow 2 sends one packet every 10 ms. CoDel drops from flow 1 only.
        let mut fq = FqCodel::new(params(1514, 10_000));
        let mut d = Vec::new();
        for t in 0..1500u64 {
            fq.enqueue(1, t as u32, 1500, ms(t), &mut d);
            fq.enqueue(1, t as u32, 1500, ms(t), &mut d);
            if t % 10 == 0 {
                fq.enqueue(2, 100_000 + t as u32, 200, ms(t), &mut d);
            }
            fq.dequeue(ms(t), &mut d, &mut |_| false);
        }
        assert!(fq.codel_drops > 20, "{}", fq.codel_drops);
        assert!(d.iter().all(|&i| i < 100_000), "the sparse flow lost nothing");
    }

    #[test]
    fn overflow_drops_from_the_fattest_flow() {
        let mut fq = FqCodel::new(params(1514, 10));
        let mut d = Vec::new();
        for i in 0..8u32 {
            fq.enqueue(1, i, 1500, ms(0), &mut d);
        }
        for i in 0..3u32 {
            fq.enqueue(2, 100 + i, 100, ms(0), &mut d);
        }
        // 11 > 10: the head of flow 1 (12,000 bytes against 300) goes.
        assert_eq!(d, [0]);
        assert_eq!((fq.len(), fq.overflow_drops), (10, 1));
    }
}
