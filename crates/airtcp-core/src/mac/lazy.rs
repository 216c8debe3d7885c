//! Lazy members of a contention domain (issue 37): one shared countdown for the stations of
//! an isolated clique that only listen, so that a busy or idle edge costs O(1) for all of them.
//!
//! The radio side is `crate::medium::clique`. Here, the MAC state a listener loop touches (the
//! NAV, the EIFS flag, the idle start, whether the countdown runs, the receive counters) is kept
//! once, in a phantom [`Mac`] that the loops treat as one more listener. Each lazy member keeps
//! only its backoff as an absolute *target* on its access category's clock: a busy edge adds the
//! slots counted ([`super::backoff::slots_consumed`], the same for every member) to the clock,
//! so a member's remaining backoff is its target minus the clock. At an idle edge every lazy
//! member's grant is armed at once: its time follows from its remaining backoff
//! ([`super::backoff::grant_time`]), and its sequence number from its place among the members:
//! the sequence numbers the listener loop would have reserved one by one in member order are
//! reserved in blocks between the members that are not lazy ([`LazySet::anchors`]). The
//! domain's representative event ([`super::contention`]) stands at the smallest key of the
//! table and of the lazy members (an ordered set per access category).
//!
//! A member joins at an idle edge when its state equals the phantom's (or defines it, when no
//! member is lazy) and it waits on one access category with a backoff drawn; it leaves
//! (`materialize`) before anything treats it apart. Results are the per-member loops' bit for
//! bit (`python/tests/test_contention_domains.py` compares them with `per_station_grants`).

use std::collections::BTreeSet;

use super::backoff::{grant_time, slots_consumed};
use super::contention::Fired;
use super::{Mac, Wifi, AC_COUNT};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::NodeId;
use crate::time::SimTime;

/// The shared countdown of one clique's lazy members.
#[derive(Debug)]
pub struct LazySet {
    /// The phantom MAC (and radio) standing for every lazy member.
    pub phantom: NodeId,
    /// The contention domain of the clique (the same members, in node order).
    domain: u32,
    /// By member position: lazy or not; the access category it waits on, its backoff target
    /// on that category's clock, and its receive counters minus the phantom's when it joined.
    lazy: Vec<bool>,
    ac: Vec<u8>,
    target: Vec<u64>,
    rx_off: Vec<[u64; 4]>,
    count: u32,
    /// Slots counted down so far by the lazy members, per access category.
    clock: [u64; AC_COUNT],
    /// `(target, position)` of the lazy members waiting on each access category.
    queues: [BTreeSet<(u64, u32)>; AC_COUNT],
    /// The sequence numbers of the lazy members' grants at the last idle edge: `(from, seq)`
    /// gives the member at position `p >= from` (up to the next entry) `seq + p - from`.
    anchors: Vec<(u32, u64)>,
    /// The same being built during a release.
    building: Vec<(u32, u64)>,
    /// The last idle edge (a grant is never armed before it).
    edge_now: SimTime,
    /// During a release: the first sequence number it could reserve, whether the phantom
    /// turned idle, and whether a joining member defined the phantom's state.
    edge_seq: u64,
    edge_idle: bool,
    edge_defined: bool,
    /// The releases of the current window and the lazy members summed over them, and that sum
    /// over the window before (`None` in the first) ([`Wifi::lazy_tally`]).
    trial_releases: u32,
    trial_lazy: u64,
    trial_before: Option<u64>,
}

/// The window of a clique's releases over which its lazy members are averaged
/// ([`Wifi::lazy_tally`]): about 0.1-0.2 simulated seconds of a busy cell.
pub const LAZY_TRIAL: u32 = 1024;

impl LazySet {
    /// The sequence number of the lazy member at position `pos`'s grant.
    #[inline]
    fn seq_of(&self, pos: u32) -> u64 {
        let k = self.anchors.partition_point(|a| a.0 <= pos);
        debug_assert!(k > 0, "a lazy member's position is covered by an anchor");
        let (from, seq) = self.anchors[k - 1];
        seq + u64::from(pos - from)
    }
}

/// The receive counters a listener's MAC keeps (`rx_ok`, `rx_corrupt`, ...).
fn rx_counters(m: &Mac) -> [u64; 4] {
    let c = &m.counters;
    [c.rx_ok, c.rx_corrupt, c.rx_payload_corrupt, c.rx_payload_only]
}

fn set_rx_counters(m: &mut Mac, v: [u64; 4]) {
    let c = &mut m.counters;
    (c.rx_ok, c.rx_corrupt, c.rx_payload_corrupt, c.rx_payload_only) = (v[0], v[1], v[2], v[3]);
}

/// Whether two NAVs act alike from `now` on: equal, or both over with no reset pending.
fn nav_alike(a: &super::nav::Nav, b: &super::nav::Nav, now: SimTime) -> bool {
    a == b || (!a.reset_pending() && !b.reset_pending() && a.end() <= now && b.end() <= now)
}

impl Wifi {
    /// Give each clique `(members, phantom)` (`crate::medium::Medium::enable_cliques`) a
    /// shared countdown: its phantom MAC is pushed at index `phantom`, right after the nodes
    /// and the phantoms before it. A clique whose members differ in their access parameters,
    /// or that is not one contention domain, keeps none (its phantom MAC is still made).
    pub fn enable_lazy(&mut self, cliques: &[(Vec<NodeId>, NodeId)]) {
        for (c, (members, phantom)) in cliques.iter().enumerate() {
            assert_eq!(phantom.idx(), self.macs.len(), "phantoms follow the nodes, in order");
            let first = &self.macs[members[0].idx()];
            let params = std::array::from_fn(|ac| first.txops[ac].params);
            let stream = crate::rng::Stream::derive(0, u64::MAX, crate::rng::Purpose::Backoff);
            let mut m = Mac::new(params, first.rule, first.qos, 1, first.rate, stream);
            for t in &mut m.txops {
                (t.backoff, t.drawn_slots, t.backoff_pending) = (0, 0, false);
            }
            m.lazy_set = c as u32;
            let alike = members.iter().all(|j| {
                let o = &self.macs[j.idx()];
                o.wifi && o.rule == m.rule && (0..AC_COUNT).all(|ac| o.txops[ac].params == params[ac])
            });
            let domain = self.domains.member(members[0]).map(|(d, _)| d);
            let usable = alike && domain.is_some_and(|d| self.domains.members(d) == &members[..]);
            self.macs.push(m);
            if usable {
                self.domains.set_lazy(domain.expect("a domain"), c);
            }
            let n = members.len();
            self.lazy.push(LazySet {
                phantom: *phantom,
                domain: if usable { domain.expect("a domain") } else { u32::MAX },
                lazy: vec![false; n],
                ac: vec![0; n],
                target: vec![0; n],
                rx_off: vec![[0; 4]; n],
                count: 0,
                clock: [0; AC_COUNT],
                queues: Default::default(),
                anchors: Vec::new(),
                building: Vec::new(),
                edge_now: SimTime::ZERO,
                edge_seq: 0,
                edge_idle: false,
                edge_defined: false,
                trial_releases: 0,
                trial_lazy: 0,
                trial_before: None,
            });
        }
    }

    /// `node`'s clique (lazy set) and its position, if its clique keeps a shared countdown.
    #[inline(always)]
    fn lazy_slot(&self, node: NodeId) -> Option<(usize, usize)> {
        let (d, k) = self.domains.member(node)?;
        let c = self.domains.lazy_set(d)?;
        Some((c, k as usize))
    }

    /// Whether `node` is a lazy member.
    #[inline(always)]
    pub fn is_lazy(&self, node: NodeId) -> bool {
        self.lazy_slot(node).is_some_and(|(c, k)| self.lazy[c].lazy[k])
    }

    /// The key `(time, sequence)` of the grant of the lazy member at `pos` of set `c`, armed at
    /// the last idle edge (the phantom counts down).
    #[inline]
    fn lazy_key(&self, c: usize, pos: u32) -> (u64, u64) {
        let set = &self.lazy[c];
        let p = &self.macs[set.phantom.idx()];
        let a = usize::from(set.ac[pos as usize]);
        let remaining = set.target[pos as usize] - set.clock[a];
        let timing = &self.cfg.timing;
        let at = grant_time(p.idle_start + p.ifs(a, timing), remaining as u32, timing.slot).max(set.edge_now);
        (at.0, set.seq_of(pos))
    }

    /// The smallest key among set `c`'s lazy members' grants and whose it is, if they count down.
    #[inline]
    fn lazy_min(&self, c: usize) -> Option<((u64, u64), u32)> {
        let set = &self.lazy[c];
        if set.count == 0 || !self.macs[set.phantom.idx()].counting {
            return None;
        }
        (0..AC_COUNT)
            .filter_map(|a| set.queues[a].first().map(|&(_, pos)| (self.lazy_key(c, pos), pos)))
            .min()
    }

    /// The representative of domain `d` fired ([`super::contention::Domains::fire`]), with the
    /// lazy members' smallest key.
    pub fn domain_fire(&mut self, d: u32, gen: u32, sched: &mut Scheduler<Event>) -> Fired {
        let lazy = self.domains.lazy_set(d).and_then(|c| {
            let (key, pos) = self.lazy_min(c)?;
            Some((key, self.domains.members(d)[pos as usize]))
        });
        self.domains.fire(d, gen, sched, lazy)
    }

    /// After a fired grant of domain `d` was handled: the representative at the smallest key.
    pub fn domain_rearm(&mut self, d: u32, sched: &mut Scheduler<Event>) {
        let lazy = self.domains.lazy_set(d).and_then(|c| self.lazy_min(c)).map(|(k, _)| k);
        self.domains.rearm(d, sched, lazy);
    }

    /// The phantom of set `c` turns busy while counting down (from [`Wifi::freeze`]): every lazy
    /// member counts the same idle slots, so each access category's clock advances by them.
    /// A member whose grant is due at `now` must have been materialized before
    /// ([`Wifi::lazy_due`]): its grant still fires.
    pub(super) fn lazy_freeze(&mut self, c: usize, now: SimTime) {
        let set = &mut self.lazy[c];
        let p = &self.macs[set.phantom.idx()];
        let timing = &self.cfg.timing;
        for a in 0..AC_COUNT {
            let Some(&(first, _)) = set.queues[a].first() else { continue };
            let used = slots_consumed(p.rule, p.idle_start + p.ifs(a, timing), now, timing.slot);
            // One test per busy edge: a grant due by now left lazy would make every remaining
            // backoff wrong, so it stops the run rather than giving other results.
            assert!(first >= set.clock[a] + used, "a lazy grant due by now was not materialized");
            set.clock[a] += used;
        }
    }

    /// A lazy member of `src`'s clique whose grant is due at `now` (it fires although the
    /// medium turns busy now: both transmit in this slot), if any: materialize it before the
    /// transmission starts.
    pub fn lazy_due(&self, src: NodeId, now: SimTime) -> Option<NodeId> {
        let (c, _) = self.lazy_slot(src)?;
        let (key, pos) = self.lazy_min(c)?;
        (key.0 <= now.0).then(|| self.domains.members(self.lazy[c].domain)[pos as usize])
    }

    /// The lazy member `node` leaves the shared countdown: its MAC takes the phantom's NAV,
    /// EIFS flag, idle start and counting, its receive counters its own plus the phantom's
    /// since it joined, and its backoff the target minus the clock; while the phantom counts
    /// down, its grant is armed at the key it had as a lazy member.
    pub fn materialize_mac(&mut self, node: NodeId, sched: &mut Scheduler<Event>) {
        let (c, k) = self.lazy_slot(node).expect("a lazy member");
        debug_assert!(self.lazy[c].lazy[k]);
        let counting = self.macs[self.lazy[c].phantom.idx()].counting;
        let key = counting.then(|| self.lazy_key(c, k as u32));
        let set = &mut self.lazy[c];
        let a = usize::from(set.ac[k]);
        set.lazy[k] = false;
        set.count -= 1;
        let removed = set.queues[a].remove(&(set.target[k], k as u32));
        debug_assert!(removed);
        let backoff = (set.target[k] - set.clock[a]) as u32;
        let off = set.rx_off[k];
        let p = &self.macs[set.phantom.idx()];
        let (nav, idle_start, eifs, rx) = (p.nav, p.idle_start, p.eifs, rx_counters(p));
        let m = &mut self.macs[node.idx()];
        (m.nav, m.idle_start, m.counting, m.eifs) = (nav, idle_start, counting, eifs);
        set_rx_counters(m, std::array::from_fn(|i| rx[i].wrapping_add(off[i])));
        let txop = &mut m.txops[a];
        txop.backoff = backoff;
        match key {
            Some(key) => {
                let gen = txop.grant.arm(SimTime(key.0));
                self.domains.arm_key(node, a, key, gen, sched);
            }
            None => txop.grant.cancel(),
        }
    }

    /// Whether `node`'s MAC may be lazy: it waits on exactly one access category (returned),
    /// with a backoff drawn and its grant armed, and nothing else of its own runs (no exchange,
    /// response, timeout or beacon; no scheme listens to it).
    fn waits_alone(&self, node: NodeId) -> Option<usize> {
        let m = &self.macs[node.idx()];
        if !m.counting
            || m.blocked()
            || m.timeout.deadline().is_some()
            || m.response_timer.deadline().is_some()
            || m.beacon_pending
            || m.beacon_grant.deadline().is_some()
            || m.events != 0
            || m.pass_corrupt
            || m.ns2_backoff
        {
            return None;
        }
        let mut waiting = None;
        for (a, t) in m.txops.iter().enumerate() {
            if !t.queue.is_empty() {
                if waiting.is_some() || !t.backoff_pending {
                    return None;
                }
                waiting = Some(a);
            } else if t.backoff_pending || t.grant.deadline().is_some() {
                return None;
            }
        }
        waiting
    }

    /// A release of a transmission sensed by set `c`'s clique begins ([`Wifi::lazy_idle`] and
    /// [`Wifi::lazy_gap`] may follow, then [`Wifi::lazy_candidate`] for each member whose
    /// medium turned idle, then [`Wifi::lazy_join`] and [`Wifi::lazy_release_end`]).
    pub fn lazy_release_start(&mut self, c: usize, sched: &Scheduler<Event>) {
        let set = &mut self.lazy[c];
        set.building.clear();
        (set.edge_seq, set.edge_idle, set.edge_defined) = (sched.next_seq(), false, false);
    }

    /// The clique of `node`, if it keeps a shared countdown.
    #[inline(always)]
    pub fn lazy_set_of(&self, node: NodeId) -> Option<usize> {
        self.lazy_slot(node).map(|(c, _)| c)
    }

    /// Count a release in set `c` with the members lazy as it starts (in a clique that defers
    /// a collision's edges, only the release that ends a busy period: `Medium::tallies_release`).
    /// At the end of each window of [`LAZY_TRIAL`] releases, true if fewer than half its members were lazy on
    /// average and no more than in the window before: the caller then gives the set up for the
    /// rest of the run (materializes every member, then `give_up_lazy`). The shared state pays
    /// when most members share it, as in a saturated cell (5.4 of 8 and 8.3 of 11 in every
    /// window); in TCP cells and chains a member's queue fills and empties with the ACK clock,
    /// few stay lazy (windows down to 0.4 of 9) and the joins and leaves cost more than the
    /// loops they save (docs/validation.md section 27: 3-25 % more instructions, 8 to 201
    /// nodes). A large cell's members join over several windows after the start (5 of 5001 in
    /// the first, then 72, 317, 778, 1629, 2796, 4326), so a window with more lazy members
    /// than the one before is not judged: judged on its first window, a 1000-station cell
    /// gave its members up and ran 14 times slower.
    #[inline]
    pub fn lazy_tally(&mut self, c: usize) -> bool {
        let set = &mut self.lazy[c];
        set.trial_releases += 1;
        set.trial_lazy += u64::from(set.count);
        if set.trial_releases < LAZY_TRIAL {
            return false;
        }
        let few = 2 * set.trial_lazy < u64::from(LAZY_TRIAL) * set.lazy.len() as u64;
        let growing = set.trial_before.is_none_or(|before| set.trial_lazy > before);
        set.trial_before = Some(set.trial_lazy);
        (set.trial_releases, set.trial_lazy) = (0, 0);
        few && !growing
    }

    /// Set `c`, with no member lazy any more, keeps none from now on: its domain's members
    /// count down on their own (`lazy_slot` no longer finds the set).
    pub fn give_up_lazy(&mut self, c: usize) {
        debug_assert_eq!(self.lazy[c].count, 0, "every member materialized first");
        self.domains.unset_lazy(self.lazy[c].domain);
    }

    /// The phantom of set `c` turned idle in this release (its `medium_idle` was called).
    pub fn lazy_idle(&mut self, c: usize) {
        self.lazy[c].edge_idle = true;
    }

    /// The lazy members at positions `[from, to)` take their grants' sequence numbers now, in
    /// member order (one each: a lazy member waits on one access category).
    pub fn lazy_gap(&mut self, c: usize, from: u32, to: u32, sched: &mut Scheduler<Event>) {
        let seq = sched.reserve_n(u64::from(to - from));
        self.lazy[c].building.push((from, seq));
    }

    /// Whether the member `node` of set `c`, whose medium just turned idle in this release
    /// (its `medium_idle` called), may join: it waits on exactly one access category, with a
    /// backoff drawn and its grant armed in this release, and nothing else of its own runs (no
    /// exchange, response, timeout or beacon; no scheme listens to it). Its grant's position and
    /// sequence number join the release's anchors.
    pub fn lazy_candidate(&mut self, c: usize, node: NodeId) -> bool {
        let Some((_, k)) = self.lazy_slot(node) else { return false };
        let Some(a) = self.waits_alone(node) else { return false };
        let set = &self.lazy[c];
        match self.domains.key(node, a) {
            Some(key) if key.1 >= set.edge_seq => {
                self.lazy[c].building.push((k as u32, key.1));
                true
            }
            _ => false,
        }
    }

    /// The candidate `node` joins set `c` if its state equals the phantom's, which turned idle
    /// in this release; with no lazy member, the phantom takes its state. Returns whether it
    /// joined and whether it defined the phantom (the medium's side follows).
    pub fn lazy_join(&mut self, c: usize, node: NodeId, now: SimTime) -> Option<bool> {
        let (_, k) = self.lazy_slot(node)?;
        let set = &self.lazy[c];
        let pi = set.phantom.idx();
        let define = set.count == 0 && !set.edge_defined;
        let m = &self.macs[node.idx()];
        let (nav, idle_start, eifs, own) = (m.nav, m.idle_start, m.eifs, rx_counters(m));
        let a = m.txops.iter().position(|t| !t.queue.is_empty()).expect("a candidate waits");
        let backoff = u64::from(m.txops[a].backoff);
        if define {
            let p = &mut self.macs[pi];
            (p.nav, p.idle_start, p.counting, p.eifs) = (nav, idle_start, true, eifs);
            set_rx_counters(p, own);
            self.lazy[c].edge_defined = true;
        } else {
            let p = &self.macs[pi];
            let live = set.edge_idle || set.edge_defined;
            if !(live
                && p.counting
                && p.idle_start == idle_start
                && p.eifs == eifs
                && nav_alike(&p.nav, &nav, now))
            {
                return None;
            }
        }
        let p = rx_counters(&self.macs[pi]);
        let set = &mut self.lazy[c];
        set.lazy[k] = true;
        set.count += 1;
        set.ac[k] = a as u8;
        set.target[k] = set.clock[a] + backoff;
        set.rx_off[k] = std::array::from_fn(|i| own[i].wrapping_sub(p[i]));
        set.queues[a].insert((set.target[k], k as u32));
        self.domains.cancel(node, a);
        self.macs[node.idx()].txops[a].grant.cancel();
        Some(define)
    }

    /// The release is over: the lazy members' grants of this idle edge take the anchors built,
    /// and the representative moves to the smallest of them if it is the earliest.
    pub fn lazy_release_end(&mut self, c: usize, now: SimTime, sched: &mut Scheduler<Event>) {
        let set = &mut self.lazy[c];
        if set.edge_idle || set.edge_defined {
            std::mem::swap(&mut set.anchors, &mut set.building);
            set.edge_now = now;
        }
        let d = set.domain;
        if let Some((key, _)) = self.lazy_min(c) {
            self.domains.offer(d, key, sched);
        }
    }
}
