//! Lazy members of an isolated clique (issue 37): the radios of the stations that share every
//! transmission the same way are kept once, in a phantom radio, so that a transmission's start,
//! end and release cost O(1) for them together instead of O(1) each.
//!
//! A clique is a view ([`super::range::Listeners`]) whose nodes all have that view, decode one
//! another, and are sensed by no node outside it: every transmission one of them senses is
//! sensed, decoded and locked onto alike by all of them, whatever their number. A member whose
//! radio (and MAC: `crate::mac::lazy`) is in the clique's shared state is *lazy*: the listener
//! loops skip it and work once on the phantom radio instead. Anything that would treat it apart
//! (it transmits, it is addressed, a packet reaches its queue, a report reads it) first
//! *materializes* it: its radio becomes the phantom's, its meters its own plus what the phantom
//! counted meanwhile. At an idle edge a member whose state equals the phantom's joins again.
//! Results are those of per-member loops bit for bit; only the cost changes.
//!
//! *A collision's edges, deferred.* In a large cell most attempts collide, many frames at once,
//! and the colliders are members that are not lazy: each frame's begin and release would walk
//! all of them. But every such member's radio equals the phantom's but for its own frame and
//! its lock, so two kinds of edge change it only by a count: a begin in the same instant as the
//! busy period's first frame (colliding backoffs; without preamble detection every member is
//! then busy, locked onto that first frame or sending, and the new frame only adds one sensed
//! transmission and corrupts a held lock, 10.3.2.3.7: no PHY-RXSTART), and a release that
//! leaves the phantom busy (one fewer sensed, no MAC told). A clique of at least
//! `DEFER_NODES` members counts them once (`deferred_begins`, `deferred_ends`) and a member
//! applies them when the medium next reads its radio (`Air::sync_at`): both cost O(1).

use super::{Air, Medium, Radio};
use crate::ids::{NodeId, TxId};
use crate::mac::Cca;
use crate::time::SimTime;

/// What a release under a clique tells its caller, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Released {
    /// The node's (or the phantom's) medium turned idle.
    Idle(NodeId, Cca),
    /// The lazy members at positions `[from, to)` take their turn.
    Gap(u32, u32),
}

/// One isolated clique whose members may be lazy.
pub(super) struct Clique {
    /// The phantom radio that stands for every lazy member (an index past the real nodes).
    pub phantom: NodeId,
    /// The view (the member list, in node order) it is.
    pub view: u32,
    /// By member position: lazy or not.
    pub lazy: Vec<bool>,
    pub count: u32,
    /// The members that are not lazy, in node order.
    pub individuals: Vec<NodeId>,
    /// By member position: its busy-time meter minus the phantom's when it joined (wrapping).
    pub busy_off: Vec<u64>,
    /// Deferred edges (the module's last paragraph): the begins of transmissions that start in the same
    /// instant as the busy period's first one, and the releases that leave the phantom busy,
    /// are applied to the members that are not lazy only when one is read (`Air::sync`): each
    /// counts here, and `seen[pos]` is what member `pos`'s radio has applied.
    pub deferred_begins: u32,
    pub deferred_ends: u32,
    pub seen: Vec<(u32, u32)>,
    /// Some edge was deferred in the current busy period (else every member is in sync).
    pub deferred: bool,
}

/// The members from which a clique may defer a collision's edges: in smaller ones collisions
/// are of two or three frames and the members that are not lazy few, so the checks would cost
/// more than they save.
const DEFER_NODES: usize = 100;

/// The members that are not lazy from which a clique defers a collision's edges: below, each
/// edge applied at once costs less than the deferred edges' bookkeeping and syncs.
const DEFER_MIN: usize = 16;

impl Clique {
    /// The clique is large enough to defer edges at all (`DEFER_NODES`); a smaller one runs
    /// as if deferral did not exist.
    #[inline(always)]
    pub(super) fn big(&self) -> bool {
        self.lazy.len() >= DEFER_NODES
    }

    /// Whether the clique defers edges now (its members that are not lazy are many).
    #[inline(always)]
    pub(super) fn defers(&self) -> bool {
        self.big() && self.individuals.len() >= DEFER_MIN
    }
}

impl Air {
    /// The clique of view `v` with lazy members, if any.
    #[inline(always)]
    pub(super) fn lazy_clique(&self, v: u32) -> Option<usize> {
        if self.cliques.is_empty() {
            return None;
        }
        let c = self.clique_of_view[v as usize];
        if c == u32::MAX {
            return None;
        }
        let cl = &self.cliques[c as usize];
        // With no lazy member and the phantom idle, the plain loops cost less: a member joins
        // only at an idle edge, so no busy period mixes the two paths (the phantom is defined
        // again at the join: `Medium::rejoin`).
        (cl.count > 0 || (cl.big() && self.radios[cl.phantom.idx()].busy > 0)).then_some(c as usize)
    }

    /// Member `j` (at `pos`) of clique `c`, not lazy, applies the deferred edges: one more
    /// sensed transmission per deferred begin, one fewer per deferred release (it stays busy
    /// throughout: they happen only while the phantom is busy), and a lock held through a
    /// deferred begin is corrupted (no preamble detection: `RangeModel::listen_begin`).
    #[inline(always)]
    pub(super) fn sync_at(&mut self, c: usize, j: NodeId, pos: usize) {
        let cl = &mut self.cliques[c];
        if !cl.deferred {
            return;
        }
        let (b, e) = cl.seen[pos];
        if b == cl.deferred_begins && e == cl.deferred_ends {
            return;
        }
        let db = cl.deferred_begins.wrapping_sub(b);
        let de = cl.deferred_ends.wrapping_sub(e);
        cl.seen[pos] = (cl.deferred_begins, cl.deferred_ends);
        let r = &mut self.radios[j.idx()];
        r.busy = r.busy + db - de;
        if db > 0 && r.tx.is_none() && r.lock.is_some() {
            r.lock_bad = true;
        }
        debug_assert!(r.active(), "deferred edges leave a member busy");
    }

    /// Clique `c` holds deferred edges (until its busy period's last release).
    #[inline(always)]
    pub(super) fn set_deferred(&mut self, c: usize) {
        if !self.cliques[c].deferred {
            self.cliques[c].deferred = true;
            self.deferring += 1;
        }
    }

    /// [`Air::sync_at`] for `j`, if it is a clique's member.
    #[inline(always)]
    pub(super) fn sync(&mut self, j: NodeId) {
        if self.deferring != 0 {
            self.sync_slow(j);
        }
    }

    /// The rest of [`Air::sync`], out of line: at one station and in small cells no clique
    /// defers, and the check above is all a transmission pays.
    #[cold]
    #[inline(never)]
    fn sync_slow(&mut self, j: NodeId) {
        let Some(&(v, pos)) = self.listeners.place.get(j.idx()) else { return };
        let c = self.clique_of_view[v as usize];
        if c != u32::MAX {
            self.sync_at(c as usize, j, pos as usize);
        }
    }

    /// [`Air::sync_at`] for every member of clique `c` that is not lazy, but `skip` (a
    /// source, synced on its own): before a loop over them reads their radios.
    #[inline(never)]
    pub(super) fn sync_members(&mut self, c: usize, skip: NodeId) {
        for k in 0..self.cliques[c].individuals.len() {
            let j = self.cliques[c].individuals[k];
            if j != skip {
                let pos = self.listeners.place[j.idx()].1 as usize;
                self.sync_at(c, j, pos);
            }
        }
    }

    /// `j` (at `pos` of clique `c`, synced) has applied one more deferred edge on its own (its
    /// own transmission's begin or release, which it does not sense).
    #[inline(always)]
    pub(super) fn mark_seen(&mut self, c: usize, pos: usize) {
        let cl = &mut self.cliques[c];
        cl.seen[pos] = (cl.deferred_begins, cl.deferred_ends);
    }
}

impl Medium {
    /// Give every isolated clique of at least `min` members a phantom radio, and return each
    /// clique's members (in node order) with its phantom. Called once, after building; until
    /// members join (`rejoin`), nothing changes.
    pub fn enable_cliques(&mut self, min: usize) -> Vec<(Vec<NodeId>, NodeId)> {
        let air = &mut self.air;
        let views = air.listeners.isolated_cliques(&air.reach, min);
        air.clique_of_view = vec![u32::MAX; air.listeners.view_count()];
        let mut out = Vec::new();
        for v in views {
            let members = air.listeners.members(v).to_vec();
            let phantom = NodeId(air.radios.len() as u32);
            air.radios.push(Radio::default());
            air.clique_of_view[v as usize] = air.cliques.len() as u32;
            air.cliques.push(Clique {
                phantom,
                view: v,
                lazy: vec![false; members.len()],
                count: 0,
                individuals: members.clone(),
                busy_off: vec![0; members.len()],
                deferred_begins: 0,
                deferred_ends: 0,
                seen: vec![(0, 0); members.len()],
                deferred: false,
            });
            out.push((members, phantom));
        }
        out
    }

    /// `node`'s clique and its position there, if it is in one.
    #[inline(always)]
    fn clique_of(&self, node: NodeId) -> Option<(usize, usize)> {
        let (v, pos) = *self.air.listeners.place.get(node.idx())?;
        let c = *self.air.clique_of_view.get(v as usize)?;
        (c != u32::MAX).then_some((c as usize, pos as usize))
    }

    /// Whether the release of `src`'s transmission ends its clique's busy period: `src`, in
    /// sync since its `end_tx`, senses no other (every member senses all of the clique's).
    /// A clique that cannot defer tallies every release.
    pub fn tallies_release(&self, c: usize, src: NodeId) -> bool {
        !self.air.cliques[c].big() || !self.air.radios[src.idx()].active()
    }

    /// The clique of `src` if its transmissions go through the phantom.
    #[inline(always)]
    pub fn lazy_clique_of(&self, src: NodeId) -> Option<usize> {
        let (v, _) = *self.air.listeners.place.get(src.idx())?;
        self.air.lazy_clique(v)
    }

    /// The edges the cliques have deferred so far (begins and releases, modulo 2^32 each): for
    /// tests that a case exercises the deferral.
    pub fn deferred_edges(&self) -> u64 {
        self.air.cliques.iter().map(|c| u64::from(c.deferred_begins) + u64::from(c.deferred_ends)).sum()
    }

    /// Clique `c`'s phantom radio.
    pub fn phantom(&self, c: usize) -> NodeId {
        self.air.cliques[c].phantom
    }

    /// How many members of `src`'s clique are lazy (0 outside cliques).
    pub fn lazy_count(&self, src: NodeId) -> u32 {
        self.clique_of(src).map_or(0, |(c, _)| self.air.cliques[c].count)
    }

    /// The receivers of a transmission from `src` whose clique `c` has lazy members: the
    /// phantom first, then the other members that are not lazy, in node order.
    pub fn clique_receivers(&mut self, c: usize, id: TxId, src: NodeId, out: &mut Vec<NodeId>) {
        let cl = &self.air.cliques[c];
        out.clear();
        if cl.deferred && self.air.radios[cl.phantom.idx()].lock != Some(id) {
            return; // no member locked onto it: they lock only at the idle edge the phantom shares
        }
        out.push(cl.phantom);
        out.extend(cl.individuals.iter().copied().filter(|&j| j != src));
        if cl.deferred {
            self.air.sync_members(c, src);
        }
    }

    /// The lazy member `node` leaves the shared state: its radio is the phantom's, its busy
    /// meter its own plus what the phantom's counted since it joined.
    pub fn materialize(&mut self, node: NodeId) {
        let (c, pos) = self.clique_of(node).expect("a clique member");
        let cl = &mut self.air.cliques[c];
        debug_assert!(cl.lazy[pos], "materializing a member that is not lazy");
        cl.lazy[pos] = false;
        cl.count -= 1;
        let at = cl.individuals.partition_point(|&j| j < node);
        cl.individuals.insert(at, node);
        if cl.big() {
            cl.seen[pos] = (cl.deferred_begins, cl.deferred_ends);
        }
        let p = self.air.radios[cl.phantom.idx()];
        let own = &mut self.air.radios[node.idx()];
        *own = Radio {
            busy_ns: p.busy_ns.wrapping_add(cl.busy_off[pos]),
            tx_ns: own.tx_ns,
            busy_at_start_ns: own.busy_at_start_ns,
            tx_at_start_ns: own.tx_at_start_ns,
            ..p
        };
    }

    /// The idle member `node` joins its clique's shared state (its MAC's state was found equal
    /// to the phantom's, or there were no lazy members and its state becomes the phantom's:
    /// `define`). It leaves the list of members that are not lazy at [`Medium::rejoined`].
    pub fn rejoin(&mut self, node: NodeId, define: bool) {
        let (c, pos) = self.clique_of(node).expect("a clique member");
        if self.air.deferring > 0 {
            self.air.sync_at(c, node, pos);
        }
        let own = self.air.radios[node.idx()];
        debug_assert!(!own.active() && own.lock.is_none(), "a member joins with an idle radio");
        let cl = &mut self.air.cliques[c];
        if define {
            debug_assert_eq!(cl.count, 0);
            self.air.radios[cl.phantom.idx()] = Radio { busy_ns: own.busy_ns, ..Radio::default() };
        }
        let p = &self.air.radios[cl.phantom.idx()];
        debug_assert!(!p.active() && p.lock.is_none(), "the phantom is idle when a member joins");
        cl.busy_off[pos] = own.busy_ns.wrapping_sub(p.busy_ns);
        cl.lazy[pos] = true;
        cl.count += 1;
    }

    /// The members of clique `c` that joined in this release ([`Medium::rejoin`]) leave its
    /// list of members that are not lazy, in one pass: a release at which thousands join (a
    /// large cell's first idle edges) would otherwise move the list once per member.
    pub fn rejoined(&mut self, c: usize) {
        let (cl, place) = (&mut self.air.cliques[c], &self.air.listeners.place);
        cl.individuals.retain(|&j| !cl.lazy[place[j.idx()].1 as usize]);
    }

    /// Every lazy member of every clique, materialized (before the meters are read or reset).
    pub fn lazy_members(&self, out: &mut Vec<NodeId>) {
        out.clear();
        for cl in &self.air.cliques {
            let members = self.air.listeners.members(cl.view);
            out.extend(members.iter().zip(&cl.lazy).filter(|(_, &l)| l).map(|(&j, _)| j));
        }
    }
}

impl Air {
    /// [`Medium::release`] of a transmission from `src`, whose clique `c` has lazy members,
    /// but for the source: the phantom first (`Idle(phantom)` if its medium turns idle), then
    /// the members that are not lazy as the listener loop would. Before each member's `Idle`,
    /// and after the last, `Gap(from, to)` hands the lazy members' positions in `[from, to)`
    /// their turn (the sequence numbers their grants take, in member order), when the phantom
    /// turned idle.
    fn release_clique(
        &mut self,
        c: usize,
        src: NodeId,
        now: SimTime,
        responder: Option<NodeId>,
        ev: &mut impl FnMut(Released),
    ) {
        let r = &mut self.radios[self.cliques[c].phantom.idx()];
        r.busy -= 1;
        if r.active() && self.cliques[c].defers() {
            // The busy period goes on: every member stays busy, and the release waits for
            // each member's next read (`sync_at`), but for the source's, which senses none.
            let pos = self.listeners.place[src.idx()].1 as usize;
            self.sync_at(c, src, pos);
            self.cliques[c].deferred_ends = self.cliques[c].deferred_ends.wrapping_add(1);
            self.set_deferred(c);
            self.mark_seen(c, pos);
            return;
        }
        if self.cliques[c].deferred {
            self.sync_members(c, src);
            // Every member in sync (the source at its `end_tx`): the period's edges are done.
            self.cliques[c].deferred = false;
            self.deferring -= 1;
        }
        let cl = &self.cliques[c];
        let place = &self.listeners.place;
        let r = &mut self.radios[cl.phantom.idx()];
        let mut phantom_idle = false;
        if !r.active() {
            r.busy_ns += now.since(r.active_since).ns();
            // Every member senses a responder among them, and none one outside.
            if responder.is_none_or(|x| place[x.idx()].0 != cl.view) {
                phantom_idle = true;
                ev(Released::Idle(cl.phantom, r.cca()));
            } else {
                ev(Released::Idle(cl.phantom, super::response_follows(r)));
            }
        }
        let mut next = 0;
        for &j in cl.individuals.iter().filter(|&&j| j != src) {
            let r = &mut self.radios[j.idx()];
            r.busy -= 1;
            if r.active() {
                continue;
            }
            r.busy_ns += now.since(r.active_since).ns();
            match responder {
                Some(resp) if resp != j && self.reach.senses(resp.idx(), j.idx()) => {
                    ev(Released::Idle(j, super::response_follows(r)))
                }
                _ => {
                    let pos = place[j.idx()].1;
                    if phantom_idle && pos > next {
                        ev(Released::Gap(next, pos));
                    }
                    next = pos + 1;
                    ev(Released::Idle(j, r.cca()));
                }
            }
        }
        let len = cl.lazy.len() as u32;
        if phantom_idle && next < len {
            ev(Released::Gap(next, len));
        }
    }
}

impl Medium {
    /// [`Medium::release`] for a transmission `id` from `src` whose clique `c` has lazy members
    /// ([`Medium::lazy_clique_of`]), range model, told to `ev` as [`Air::release_clique`] does.
    pub fn release_clique(
        &mut self,
        c: usize,
        id: TxId,
        now: SimTime,
        responder: Option<NodeId>,
        mut ev: impl FnMut(Released),
    ) {
        let src = self.air.txs[id.idx()].frame.src;
        self.air.release_clique(c, src, now, responder, &mut ev);
        self.air.release_source(id, src, |j, cca| ev(Released::Idle(j, cca)));
    }
}
