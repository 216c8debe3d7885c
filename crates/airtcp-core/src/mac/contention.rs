//! Contention domains: one scheduler event per idle period for a group of stations, instead
//! of one grant event per contending station.
//!
//! In one collision domain every busy-to-idle edge arms a grant (the end of the backoff
//! countdown, [`super::backoff::grant_time`]) at every contending station, and the next busy
//! edge cancels all but the earliest. Stations of a domain therefore keep their armed grants
//! here, as keys `(time, sequence)`, and the scheduler holds a single representative event at
//! the smallest key: the earliest backoff end among the contenders.
//!
//! Each armed grant takes its sequence number from the scheduler at the moment it would have
//! been scheduled ([`Scheduler::reserve`]), and the representative is placed at exactly that
//! key ([`Scheduler::at_seq`]). So the grants fire in the order, relative to each other and to
//! every other event, that per-station grant events would have had: results are the same bit
//! for bit whatever the grouping, and the grouping only decides the cost. It is chosen where
//! stations share one view of the medium (the same closed carrier-sense neighbourhood under
//! the range model), where a busy edge cancels every grant of the domain at once.
//!
//! The smallest key is kept incrementally while grants are only armed (the usual idle edge
//! after a busy period that cancelled them all); a scan of the domain finds it only when the
//! smallest was cancelled or fired while others stay armed (stations transmitting in the same
//! slot, or views that differ after all).

use super::AC_COUNT;
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::NodeId;
use crate::time::SimTime;

/// A key no armed grant has.
const NONE: (u64, u64) = (u64::MAX, u64::MAX);

/// One group of stations whose grants share one scheduler event.
#[derive(Clone, Debug, Default)]
struct Domain {
    /// The stations, in node order.
    members: Vec<NodeId>,
    /// `(time ns, sequence)` of the armed grant of member `k`'s access category `ac` at
    /// `k * AC_COUNT + ac`, [`NONE`] when none is armed.
    keys: Vec<(u64, u64)>,
    /// The generation the armed grant carries ([`crate::engine::Timer`]).
    gens: Vec<u32>,
    /// The slots whose grant is armed (in no order), and each slot's place there
    /// (`u32::MAX`: not armed): the smallest is looked for among these when few are.
    armed: Vec<u32>,
    armed_at: Vec<u32>,
    /// The slot of the smallest armed key; stale when `dirty`.
    min: u32,
    dirty: bool,
    /// The key of the representative event in the scheduler, if one is live.
    rep: Option<(u64, u64)>,
    rep_gen: u32,
    /// The lazy set of the domain's clique (`super::lazy`), if it has one.
    lazy: Option<u32>,
}

impl Domain {
    /// The slot of the smallest armed key, if any (a scan only when a smallest one went).
    fn min_slot(&mut self) -> Option<usize> {
        if self.armed.is_empty() {
            return None;
        }
        if self.dirty {
            let mut best = self.armed[0] as usize;
            if self.armed.len() * 4 < self.keys.len() {
                for &k in &self.armed[1..] {
                    if self.keys[k as usize] < self.keys[best] {
                        best = k as usize;
                    }
                }
            } else {
                for (k, key) in self.keys.iter().enumerate() {
                    if *key < self.keys[best] {
                        best = k;
                    }
                }
            }
            self.min = best as u32;
            self.dirty = false;
        }
        Some(self.min as usize)
    }

    /// Slot `s` is armed now (it was not).
    #[inline(always)]
    fn add(&mut self, s: usize) {
        self.armed_at[s] = self.armed.len() as u32;
        self.armed.push(s as u32);
    }

    /// Slot `s` is no longer armed (it was).
    #[inline(always)]
    fn drop_slot(&mut self, s: usize) {
        let at = self.armed_at[s] as usize;
        self.armed.swap_remove(at);
        if let Some(&moved) = self.armed.get(at) {
            self.armed_at[moved as usize] = at as u32;
        }
        self.armed_at[s] = u32::MAX;
    }

    /// Put the representative at `key` (the one before goes stale).
    fn place(&mut self, d: u32, key: (u64, u64), sched: &mut Scheduler<Event>) {
        self.rep_gen = self.rep_gen.wrapping_add(1);
        self.rep = Some(key);
        sched.at_seq(SimTime(key.0), key.1, Event::DomainGrant { domain: d, gen: self.rep_gen });
    }
}

/// Every contention domain of a run, and which one each node belongs to.
#[derive(Clone, Debug, Default)]
pub struct Domains {
    /// Per node: `(domain, member index)`, `u32::MAX` in the first when it has none.
    of_node: Vec<(u32, u32)>,
    domains: Vec<Domain>,
}

impl Domains {
    /// The domains `groups` (each a list of nodes; lists of fewer than two are ignored) over
    /// `n` nodes.
    pub fn new(n: usize, groups: &[Vec<NodeId>]) -> Domains {
        let mut of_node = vec![(u32::MAX, 0); n];
        let mut domains = Vec::new();
        for g in groups.iter().filter(|g| g.len() >= 2) {
            let d = domains.len() as u32;
            for (k, node) in g.iter().enumerate() {
                of_node[node.idx()] = (d, k as u32);
            }
            domains.push(Domain {
                members: g.clone(),
                keys: vec![NONE; g.len() * AC_COUNT],
                gens: vec![0; g.len() * AC_COUNT],
                armed_at: vec![u32::MAX; g.len() * AC_COUNT],
                ..Domain::default()
            });
        }
        Domains { of_node, domains }
    }

    /// The domain and member slot of `node`'s access category `ac`, if it has a domain.
    #[inline(always)]
    fn slot(&self, node: NodeId, ac: usize) -> Option<(usize, usize)> {
        let (d, k) = *self.of_node.get(node.idx())?;
        (d != u32::MAX).then_some((d as usize, k as usize * AC_COUNT + ac))
    }

    /// Arm the grant (generation `gen`) of `node`'s `ac` at `at`: an [`Event::Grant`] in the
    /// scheduler when the node has no domain, a key of its domain otherwise.
    #[inline(always)]
    pub fn arm(&mut self, node: NodeId, ac: usize, at: SimTime, gen: u32, sched: &mut Scheduler<Event>) {
        if self.slot(node, ac).is_none() {
            sched.at(at, Event::Grant { node, ac: ac as u8, gen });
            return;
        }
        let key = (at.0.max(sched.now().0), sched.reserve());
        self.arm_key(node, ac, key, gen, sched);
    }

    /// Arm the grant (generation `gen`) of `node`'s `ac`, a domain member, at `key` (a lazy
    /// member's key as it leaves the shared countdown, `super::lazy`).
    #[inline(always)]
    pub fn arm_key(
        &mut self,
        node: NodeId,
        ac: usize,
        key: (u64, u64),
        gen: u32,
        sched: &mut Scheduler<Event>,
    ) {
        let (d, s) = self.slot(node, ac).expect("a domain member");
        let dom = &mut self.domains[d];
        if dom.keys[s] == NONE {
            dom.add(s);
        }
        dom.keys[s] = key;
        dom.gens[s] = gen;
        if dom.armed.len() == 1 {
            (dom.min, dom.dirty) = (s as u32, false);
        } else if !dom.dirty && key < dom.keys[dom.min as usize] {
            dom.min = s as u32;
        } else if !dom.dirty && s == dom.min as usize {
            dom.dirty = true; // the smallest was re-armed later
        }
        if dom.rep.is_none_or(|r| key < r) {
            dom.place(d as u32, key, sched);
        }
    }

    /// The key of `node`'s armed grant of `ac`, if it has one in a domain.
    #[inline(always)]
    pub fn key(&self, node: NodeId, ac: usize) -> Option<(u64, u64)> {
        let (d, s) = self.slot(node, ac)?;
        Some(self.domains[d].keys[s]).filter(|&k| k != NONE)
    }

    /// `node`'s domain and its place among the members.
    #[inline(always)]
    pub fn member(&self, node: NodeId) -> Option<(u32, u32)> {
        let (d, k) = *self.of_node.get(node.idx())?;
        (d != u32::MAX).then_some((d, k))
    }

    /// The lazy set (`super::lazy`) of domain `d`, if its members may be lazy.
    #[inline(always)]
    pub fn lazy_set(&self, d: u32) -> Option<usize> {
        self.domains[d as usize].lazy.map(|c| c as usize)
    }

    /// Domain `d`'s members may be lazy, in lazy set `c`.
    pub fn set_lazy(&mut self, d: u32, c: usize) {
        self.domains[d as usize].lazy = Some(c as u32);
    }

    /// Domain `d`'s members are lazy no more (`super::lazy`'s judgement gave its set up).
    pub fn unset_lazy(&mut self, d: u32) {
        self.domains[d as usize].lazy = None;
    }

    /// The members of domain `d`, in node order.
    pub fn members(&self, d: u32) -> &[NodeId] {
        &self.domains[d as usize].members
    }

    /// A grant (of a lazy member) now stands at `key` in domain `d`: the representative moves
    /// there if it is the earliest.
    #[inline(always)]
    pub fn offer(&mut self, d: u32, key: (u64, u64), sched: &mut Scheduler<Event>) {
        let dom = &mut self.domains[d as usize];
        if dom.rep.is_none_or(|r| key < r) {
            dom.place(d, key, sched);
        }
    }

    /// Whether `node` belongs to a domain.
    #[inline(always)]
    pub fn has(&self, node: NodeId) -> bool {
        self.of_node.get(node.idx()).is_some_and(|&(d, _)| d != u32::MAX)
    }

    /// The armed grant of `node`'s `ac` is cancelled.
    #[inline(always)]
    pub fn cancel(&mut self, node: NodeId, ac: usize) {
        let Some((d, s)) = self.slot(node, ac) else {
            return;
        };
        let dom = &mut self.domains[d];
        if dom.keys[s] == NONE {
            return;
        }
        dom.keys[s] = NONE;
        dom.drop_slot(s);
        if s == dom.min as usize {
            dom.dirty = true;
        }
    }

    /// The representative of domain `d` (generation `gen`) fired: the grant `(node, ac,
    /// generation)` due now, if the smallest armed key is the representative's. `lazy` is the
    /// smallest key of the domain's lazy members and whose it is (`super::lazy`): if that is
    /// the representative's, [`Fired::Lazy`] names the member, which the caller materializes
    /// (its key joins the table, the representative stays) before it fires again. Otherwise
    /// the representative moves to the smallest key (its grant was cancelled). The caller
    /// handles a grant, then calls [`Domains::rearm`].
    pub fn fire(
        &mut self,
        d: u32,
        gen: u32,
        sched: &mut Scheduler<Event>,
        lazy: Option<((u64, u64), NodeId)>,
    ) -> Fired {
        let dom = &mut self.domains[d as usize];
        let Some(key) = dom.rep.filter(|_| gen == dom.rep_gen) else {
            return Fired::Stale;
        };
        let table = dom.min_slot().map(|s| (dom.keys[s], s));
        match (table, lazy) {
            (Some((k, _)), Some((l, node))) if l < k => {
                if l == key {
                    return Fired::Lazy(node);
                }
                dom.place(d, l, sched);
                Fired::Stale
            }
            (None, Some((l, node))) => {
                if l == key {
                    return Fired::Lazy(node);
                }
                dom.place(d, l, sched);
                Fired::Stale
            }
            (Some((k, s)), _) => {
                if k != key {
                    dom.place(d, k, sched);
                    return Fired::Stale;
                }
                dom.rep = None;
                dom.keys[s] = NONE;
                dom.drop_slot(s);
                dom.dirty = true;
                let node = dom.members[s / AC_COUNT];
                Fired::Grant(node, s % AC_COUNT, dom.gens[s])
            }
            (None, None) => {
                dom.rep = None;
                Fired::Stale
            }
        }
    }

    /// After a fired grant was handled: the representative goes to the smallest armed key (of
    /// the table, or `lazy`'s), unless one already sits at or before it.
    pub fn rearm(&mut self, d: u32, sched: &mut Scheduler<Event>, lazy: Option<(u64, u64)>) {
        let dom = &mut self.domains[d as usize];
        let table = dom.min_slot().map(|s| dom.keys[s]);
        let key = match (table, lazy) {
            (Some(k), Some(l)) => k.min(l),
            (Some(k), None) | (None, Some(k)) => k,
            (None, None) => return,
        };
        if dom.rep.is_none_or(|r| key < r) {
            dom.place(d, key, sched);
        }
    }
}

/// What a domain's representative event stood for when it fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fired {
    /// Nothing (a cancelled grant; the representative moved on).
    Stale,
    /// The grant of `(node, ac)` with this generation.
    Grant(NodeId, usize, u32),
    /// A lazy member's grant: materialize the member, then fire again.
    Lazy(NodeId),
}

/// The smallest group worth a domain: with two or three stations a grant event per station
/// costs fewer instructions than the domain's bookkeeping (802.11b, one station and its AP:
/// 175 M instructions per 100 s with per-station grants against 187 M with a domain;
/// cachegrind, `examples/saturation.rs`).
pub const MIN_GROUP: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: u32) -> NodeId {
        NodeId(i)
    }

    /// Pop every event, resolving domain representatives to the grants they stand for.
    fn drain(doms: &mut Domains, sched: &mut Scheduler<Event>) -> Vec<(u64, u32, usize)> {
        let mut out = Vec::new();
        while let Some(ev) = sched.pop_until(SimTime::MAX) {
            match ev {
                Event::Grant { node, ac, .. } => out.push((sched.now().0, node.0, ac as usize)),
                Event::DomainGrant { domain, gen } => {
                    if let Fired::Grant(node, ac, _) = doms.fire(domain, gen, sched, None) {
                        out.push((sched.now().0, node.0, ac));
                    }
                    doms.rearm(domain, sched, None);
                }
                _ => out.push((sched.now().0, u32::MAX, 0)),
            }
        }
        out
    }

    #[test]
    fn grants_fire_in_the_order_per_station_events_would() {
        // Hand-made: nodes 0-2 in one domain, node 3 alone; a non-grant event (a beacon) at
        // the same time as two grants, scheduled between them, pops between them.
        let mut doms = Domains::new(4, &[vec![n(0), n(1), n(2)]]);
        let mut sched: Scheduler<Event> = Scheduler::new();
        doms.arm(n(2), 1, SimTime(50), 1, &mut sched);
        doms.arm(n(0), 1, SimTime(30), 1, &mut sched);
        sched.at(SimTime(30), Event::Beacon(n(9)));
        doms.arm(n(1), 1, SimTime(30), 1, &mut sched);
        doms.arm(n(3), 1, SimTime(30), 1, &mut sched);
        doms.arm(n(1), 3, SimTime(10), 1, &mut sched);
        doms.cancel(n(1), 3);
        let order = drain(&mut doms, &mut sched);
        assert_eq!(order, vec![(30, 0, 1), (30, u32::MAX, 0), (30, 1, 1), (30, 3, 1), (50, 2, 1)]);
    }

    #[test]
    fn a_cancelled_domain_costs_one_stale_event() {
        let members: Vec<NodeId> = (0..100).map(n).collect();
        let mut doms = Domains::new(100, std::slice::from_ref(&members));
        let mut sched: Scheduler<Event> = Scheduler::new();
        for (k, &m) in members.iter().enumerate() {
            doms.arm(m, 1, SimTime(1000 + 7 * k as u64), 1, &mut sched);
        }
        for &m in &members {
            doms.cancel(m, 1);
        }
        doms.arm(n(42), 1, SimTime(5000), 2, &mut sched);
        assert_eq!(drain(&mut doms, &mut sched), vec![(5000, 42, 1)]);
        assert_eq!(sched.popped(), 2, "the stale representative and the live one");
    }
}
