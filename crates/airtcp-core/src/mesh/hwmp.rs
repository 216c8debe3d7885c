//! HWMP's on-demand mode as Linux 3.12 runs it (`net/mac80211/mesh_hwmp.c`, `mesh_pathtbl.c`):
//! one mesh point's path table and its handling of PREQ, PREP and PERR, as a pure state
//! machine. The caller (the world) puts the frames it asks for on the air, arms the timers it
//! names, and sends or drops the data frames queued for a destination when told.
//!
//! - A data frame for a destination without an active path starts a discovery
//!   (`mesh_nexthop_resolve`): a PREQ now if 10 ms have passed since the last one
//!   (`dot11MeshHWMPpreqMinInterval`), else when they have; the path waits RESOLVING with a
//!   timeout of 100 ms (2 x `dot11MeshHWMPnetDiameterTraversalTime`) doubled at each of up to
//!   four retries (`dot11MeshHWMPmaxPREQretries`), then its frames are dropped.
//! - PREQ and PREP update the paths to their originator and to the transmitter
//!   (`hwmp_route_info_get`): taken if the sequence number is newer, or equal with a smaller
//!   metric (the metric accumulated plus the link's to the transmitter), for the lifetime the
//!   frame carries. The target answers a PREQ with a PREP (metric 0, its own sequence number,
//!   incremented if 50 ms have passed since the last increment) unicast back; an intermediate
//!   node with an active path answers a PREQ without the DO flag and forwards it with DO set
//!   (RF, as 3.12's discoveries send it); others forward it (TTL - 1, hop count + 1) while the
//!   TTL lasts.
//! - A path expires 5 s (4882 TU) after it was last confirmed; the originator of the traffic
//!   refreshes it (a PREQ with DO set) when it sends in the last second of its life.
//! - A broken link (`mesh_plink_broken`) deactivates the paths through it, increments their
//!   sequence numbers and sends a PERR for each, but at most one PERR leaves per 100 TU
//!   (`dot11MeshHWMPperrMinInterval`): the rest are lost. A PERR from the next hop with a newer
//!   sequence number deactivates the path and is passed on. A relay without a path drops the
//!   frame and answers with a PERR of sequence number 0, which 3.12 ignores: upstream keeps
//!   its path until it expires or its originator refreshes it.
//!
//! Left out: RANN and proactive (root) modes, gates, group-addressed PREQ targets, the USN
//! flag, multiple targets per PREQ, address extension, the 10 % hysteresis of later kernels.

use crate::ids::NodeId;
use crate::time::{Dur, SimTime};

/// Linux's mesh defaults (`net/wireless/mesh.c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwmpParams {
    /// `dot11MeshHWMPactivePathTimeout` (5000 ms as 4882 TU).
    pub active_path_timeout: Dur,
    pub preq_min_interval: Dur,
    pub net_diameter_traversal: Dur,
    pub max_preq_retries: u8,
    /// `path_refresh_time`: the originator refreshes a path this long before it expires.
    pub path_refresh_time: Dur,
    pub perr_min_interval: Dur,
    /// `element_ttl`.
    pub ttl: u8,
}

impl HwmpParams {
    pub const LINUX: HwmpParams = HwmpParams {
        active_path_timeout: Dur(4882 * 1_024_000),
        preq_min_interval: Dur::from_ms(10),
        net_diameter_traversal: Dur::from_ms(50),
        max_preq_retries: 4,
        path_refresh_time: Dur::from_ms(1000),
        perr_min_interval: Dur(100 * 1_024_000),
        ttl: 31,
    };

    /// `disc_timeout_jiff`: the first discovery timeout, twice the traversal time.
    pub fn discovery_timeout(&self) -> Dur {
        self.net_diameter_traversal.times(2)
    }
}

/// `SN_GT(x, y)`: x is newer than y, modulo 2^32.
pub fn sn_gt(x: u32, y: u32) -> bool {
    (y.wrapping_sub(x) as i32) < 0
}

/// PREQ target flags.
pub const DO: u8 = 0x01;
pub const RF: u8 = 0x02;

/// An HWMP element (one target, no address extension). Sizes: PREQ 37, PREP 31, PERR 15 bytes
/// of element body (`mesh_hwmp.c`'s layouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hwmp {
    Preq {
        hop_count: u8,
        ttl: u8,
        preq_id: u32,
        orig: NodeId,
        orig_sn: u32,
        lifetime: Dur,
        metric: u32,
        target_flags: u8,
        target: NodeId,
        target_sn: u32,
    },
    /// A reply: `target` is the node that answered (the PREQ's target), `orig` the PREQ's
    /// originator it travels back to.
    Prep {
        hop_count: u8,
        ttl: u8,
        target: NodeId,
        target_sn: u32,
        lifetime: Dur,
        metric: u32,
        orig: NodeId,
        orig_sn: u32,
    },
    Perr {
        ttl: u8,
        dest: NodeId,
        dest_sn: u32,
    },
}

impl Hwmp {
    /// The element body [bytes].
    pub fn body_bytes(&self) -> u32 {
        match self {
            Hwmp::Preq { .. } => 37,
            Hwmp::Prep { .. } => 31,
            Hwmp::Perr { .. } => 15,
        }
    }
}

/// What the mesh point asks of the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send this element in a Mesh Action frame, to `to` (None: group-addressed).
    Send { frame: Hwmp, to: Option<NodeId> },
    /// The path to `dest` is active through `next_hop`: send the frames queued for it.
    Flush { dest: NodeId, next_hop: NodeId },
    /// Discovery of `dest` failed: drop the frames queued for it.
    Drop { dest: NodeId },
    /// Call [`MeshPoint::on_path_timer`] for `dest` at this time (a later call replaces it).
    PathTimer { dest: NodeId, at: SimTime },
    /// Call [`MeshPoint::on_preq_timer`] at this time.
    PreqTimer { at: SimTime },
}

const ACTIVE: u8 = 0x01;
const RESOLVING: u8 = 0x02;
const SN_VALID: u8 = 0x04;
const RESOLVED: u8 = 0x10;

/// One entry of the path table (`struct mesh_path`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Path {
    pub next_hop: Option<NodeId>,
    pub sn: u32,
    pub metric: u32,
    pub exp_time: SimTime,
    flags: u8,
    discovery_retries: u8,
    discovery_timeout: Dur,
    /// A PREQ for it waits in the queue (`MESH_PATH_REQ_QUEUED`).
    queued: bool,
}

impl Path {
    pub fn active(&self) -> bool {
        self.flags & ACTIVE != 0
    }
    pub fn resolving(&self) -> bool {
        self.flags & RESOLVING != 0
    }
    /// Active and not expired at `now` (`mesh_path_lookup` would use it).
    pub fn active_at(&self, now: SimTime) -> bool {
        self.active() && now <= self.exp_time
    }
}

/// One mesh point's HWMP state.
#[derive(Clone, Debug)]
pub struct MeshPoint {
    pub me: NodeId,
    pub params: HwmpParams,
    /// Paths by destination (node index).
    pub paths: Vec<Path>,
    pub sn: u32,
    last_sn_update: Option<SimTime>,
    preq_id: u32,
    last_preq: Option<SimTime>,
    /// PREQs waiting for the minimum interval, oldest first: (destination, start, refresh).
    preq_queue: Vec<(NodeId, bool, bool)>,
    last_perr: Option<SimTime>,
    /// Counters.
    pub preqs_sent: u64,
    pub preps_sent: u64,
    pub perrs_sent: u64,
}

impl MeshPoint {
    pub fn new(me: NodeId, nodes: usize, params: HwmpParams) -> MeshPoint {
        MeshPoint {
            me,
            params,
            paths: vec![Path::default(); nodes],
            sn: 0,
            last_sn_update: None,
            preq_id: 0,
            last_preq: None,
            preq_queue: Vec::new(),
            last_perr: None,
            preqs_sent: 0,
            preps_sent: 0,
            perrs_sent: 0,
        }
    }

    /// The path to `dest` as `mesh_path_lookup` sees it at `now` (expired: no longer active).
    pub fn lookup(&mut self, dest: NodeId, now: SimTime) -> &Path {
        let p = &mut self.paths[dest.idx()];
        if p.active() && !p.active_at(now) {
            p.flags &= !ACTIVE; // MPATH_EXPIRED
        }
        p
    }

    /// The active paths at `now` as (destination, path): what `mesh_path_lookup` would find.
    pub fn active_paths(&self, now: SimTime) -> impl Iterator<Item = (NodeId, &Path)> + '_ {
        self.paths
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.active_at(now))
            .map(|(d, p)| (NodeId(d as u32), p))
    }

    /// A data frame this node originates for `dest` (`mesh_nexthop_resolve`): its next hop, or
    /// None (the caller queues it; at most 10 per destination in Linux) while a discovery runs.
    /// In the last second of an active path's life it is refreshed.
    pub fn next_hop(&mut self, dest: NodeId, now: SimTime, out: &mut Vec<Action>) -> Option<NodeId> {
        let refresh_at = self.params.path_refresh_time;
        let p = *self.lookup(dest, now);
        if p.active() {
            if now + refresh_at > p.exp_time && !p.resolving() {
                self.queue_preq(dest, true, true, now, out);
            }
            return p.next_hop;
        }
        if !p.resolving() {
            self.queue_preq(dest, true, false, now, out);
        }
        None
    }

    /// A data frame from neighbour `from` to pass on to `dest` (`ieee80211_rx_h_mesh_fwding`):
    /// the next hop of an active path, else the frame is dropped and `from` told by a PERR
    /// naming `dest` with sequence number 0 (no forwarding information; relays do not
    /// discover).
    pub fn relay(
        &mut self,
        dest: NodeId,
        from: NodeId,
        now: SimTime,
        out: &mut Vec<Action>,
    ) -> Option<NodeId> {
        let p = *self.lookup(dest, now);
        if p.active() {
            return p.next_hop;
        }
        if self.last_perr.is_none_or(|t| now >= t + self.params.perr_min_interval) {
            self.last_perr = Some(now);
            self.perrs_sent += 1;
            out.push(Action::Send {
                frame: Hwmp::Perr { ttl: self.params.ttl, dest, dest_sn: 0 },
                to: Some(from),
            });
        }
        None
    }

    /// `mesh_queue_preq`: at most one PREQ queued per path; sent now if the minimum interval
    /// has passed, else when it has. `start`: a new discovery (`PREQ_Q_F_START`), `refresh`: of
    /// an active path (`PREQ_Q_F_REFRESH`).
    fn queue_preq(&mut self, dest: NodeId, start: bool, refresh: bool, now: SimTime, out: &mut Vec<Action>) {
        let p = &mut self.paths[dest.idx()];
        if p.queued {
            return;
        }
        p.queued = true;
        self.preq_queue.push((dest, start, refresh));
        self.on_preq_timer(now, out);
    }

    /// The PREQ queue's turn (`mesh_path_start_discovery`): once the minimum interval has
    /// passed since the last PREQ, the oldest queued one starts (or retries) its discovery.
    pub fn on_preq_timer(&mut self, now: SimTime, out: &mut Vec<Action>) {
        let Some(&(dest, start, refresh)) = self.preq_queue.first() else { return };
        if let Some(last) = self.last_preq {
            if now < last + self.params.preq_min_interval {
                out.push(Action::PreqTimer { at: last + self.params.preq_min_interval });
                return;
            }
        }
        self.preq_queue.remove(0);
        let initial = self.params.discovery_timeout();
        let p = &mut self.paths[dest.idx()];
        p.queued = false;
        let go = if start {
            if p.resolving() {
                false
            } else {
                p.flags = (p.flags & !RESOLVED) | RESOLVING;
                p.discovery_retries = 0;
                p.discovery_timeout = initial;
                true
            }
        } else if !p.resolving() || p.flags & RESOLVED != 0 {
            p.flags &= !RESOLVING;
            false
        } else {
            true
        };
        if go {
            let (target_sn, timeout) = (p.sn, p.discovery_timeout);
            self.last_preq = Some(now);
            self.bump_sn(now);
            let frame = Hwmp::Preq {
                hop_count: 0,
                ttl: self.params.ttl,
                preq_id: self.preq_id,
                orig: self.me,
                orig_sn: self.sn,
                lifetime: self.params.active_path_timeout,
                metric: 0,
                target_flags: if refresh { DO } else { RF },
                target: dest,
                target_sn,
            };
            self.preq_id = self.preq_id.wrapping_add(1);
            self.preqs_sent += 1;
            out.push(Action::Send { frame, to: None });
            out.push(Action::PathTimer { dest, at: now + timeout });
        }
        if !self.preq_queue.is_empty() {
            let at = self.last_preq.map_or(now, |t| t + self.params.preq_min_interval).max(now);
            out.push(Action::PreqTimer { at });
        }
    }

    /// Own sequence number: incremented when a traversal time has passed since the last time.
    fn bump_sn(&mut self, now: SimTime) {
        let due = self.last_sn_update.is_none_or(|t| now > t + self.params.net_diameter_traversal);
        if due {
            self.sn = self.sn.wrapping_add(1);
            self.last_sn_update = Some(now);
        }
    }

    /// A path's discovery timer (`mesh_path_timer`): resolved paths stop; otherwise retry with
    /// a doubled timeout, or give up after the last retry.
    pub fn on_path_timer(&mut self, dest: NodeId, now: SimTime, out: &mut Vec<Action>) {
        let max = self.params.max_preq_retries;
        let p = &mut self.paths[dest.idx()];
        if p.flags & RESOLVED != 0 || !p.resolving() {
            p.flags &= !(RESOLVED | RESOLVING);
        } else if p.discovery_retries < max {
            p.discovery_retries += 1;
            p.discovery_timeout = p.discovery_timeout.times(2);
            p.queued = false;
            self.queue_preq(dest, false, false, now, out);
        } else {
            p.flags = 0;
            p.exp_time = now;
            out.push(Action::Drop { dest });
        }
    }

    /// `hwmp_route_info_get`: the paths to the frame's originator and to its transmitter `ta`
    /// (link metric `link_metric`). Returns the path metric through `ta` if the frame is to be
    /// processed further (0 otherwise).
    #[allow(clippy::too_many_arguments)] // hwmp_route_info_get reads these from the element
    fn route_info(
        &mut self,
        ta: NodeId,
        link_metric: u32,
        orig: NodeId,
        orig_sn: u32,
        orig_metric: u32,
        lifetime: Dur,
        now: SimTime,
        out: &mut Vec<Action>,
    ) -> u32 {
        let new_metric = orig_metric.saturating_add(link_metric);
        let exp = now + lifetime;
        let (mut process, mut fresh) = (true, true);
        if orig == self.me {
            // Our own frame back again: only the transmitter's path is of interest.
            (process, fresh) = (false, false);
        } else {
            let p = *self.lookup(orig, now);
            if p.active()
                && p.flags & SN_VALID != 0
                && (sn_gt(p.sn, orig_sn) || (p.sn == orig_sn && new_metric >= p.metric))
            {
                (process, fresh) = (false, false);
            }
        }
        if fresh {
            self.activate(orig, ta, new_metric, Some(orig_sn), exp, out);
        }
        if ta != orig {
            let t = *self.lookup(ta, now);
            if !(t.active() && link_metric > t.metric) {
                self.activate(ta, ta, link_metric, None, exp, out);
            }
        }
        if process {
            new_metric
        } else {
            0
        }
    }

    fn activate(
        &mut self,
        dest: NodeId,
        via: NodeId,
        metric: u32,
        sn: Option<u32>,
        exp: SimTime,
        out: &mut Vec<Action>,
    ) {
        let p = &mut self.paths[dest.idx()];
        p.next_hop = Some(via);
        p.metric = metric;
        if let Some(sn) = sn {
            p.sn = sn;
            p.flags |= SN_VALID;
        }
        p.exp_time = p.exp_time.max(exp);
        p.flags |= ACTIVE | RESOLVED; // mesh_path_activate; the path timer clears RESOLVING
        out.push(Action::Flush { dest, next_hop: via });
    }

    /// An HWMP element received from neighbour `ta`, whose link metric is `link_metric`
    /// (`mesh_rx_path_sel_frame`; the caller drops elements from non-peers).
    pub fn on_frame(
        &mut self,
        ta: NodeId,
        link_metric: u32,
        frame: Hwmp,
        now: SimTime,
        out: &mut Vec<Action>,
    ) {
        match frame {
            Hwmp::Preq {
                hop_count,
                ttl,
                preq_id,
                orig,
                orig_sn,
                lifetime,
                metric,
                target_flags,
                target,
                target_sn,
            } => {
                let path_metric = self.route_info(ta, link_metric, orig, orig_sn, metric, lifetime, now, out);
                if path_metric == 0 {
                    return;
                }
                let (mut reply, mut forward) = (false, true);
                let (mut flags, mut reply_sn, mut reply_metric) = (target_flags, 0, 0);
                let mut fwd_sn = target_sn;
                if target == self.me {
                    reply = true;
                    forward = false;
                    self.bump_sn(now);
                    reply_sn = self.sn;
                } else {
                    let p = *self.lookup(target, now);
                    if p.flags & SN_VALID == 0 || sn_gt(target_sn, p.sn) {
                        let q = &mut self.paths[target.idx()];
                        q.sn = target_sn;
                        q.flags |= SN_VALID;
                    } else if target_flags & DO == 0 && p.active() {
                        reply = true;
                        reply_metric = p.metric;
                        reply_sn = p.sn;
                        fwd_sn = p.sn; // Linux overwrites target_sn, which the forward carries
                        if target_flags & RF != 0 {
                            flags |= DO;
                        } else {
                            forward = false;
                        }
                    }
                }
                if reply {
                    self.preps_sent += 1;
                    let prep = Hwmp::Prep {
                        hop_count: 0,
                        ttl: self.params.ttl,
                        target,
                        target_sn: reply_sn,
                        lifetime,
                        metric: reply_metric,
                        orig,
                        orig_sn,
                    };
                    out.push(Action::Send { frame: prep, to: Some(ta) });
                }
                if forward && ttl > 1 {
                    let fwd = Hwmp::Preq {
                        hop_count: hop_count + 1,
                        ttl: ttl - 1,
                        preq_id,
                        orig,
                        orig_sn,
                        lifetime,
                        metric: path_metric,
                        target_flags: flags,
                        target,
                        target_sn: fwd_sn,
                    };
                    out.push(Action::Send { frame: fwd, to: None });
                }
            }
            Hwmp::Prep { hop_count, ttl, target, target_sn, lifetime, metric, orig, orig_sn } => {
                // The PREP's route information is about the node that answered.
                let path_metric =
                    self.route_info(ta, link_metric, target, target_sn, metric, lifetime, now, out);
                if path_metric == 0 || orig == self.me {
                    return;
                }
                // hwmp_prep_frame_process: on toward the PREQ's originator.
                let back = *self.lookup(orig, now);
                if ttl <= 1 || !back.active() {
                    return;
                }
                let fwd = Hwmp::Prep {
                    hop_count: hop_count + 1,
                    ttl: ttl - 1,
                    target,
                    target_sn,
                    lifetime,
                    metric: path_metric,
                    orig,
                    orig_sn,
                };
                out.push(Action::Send { frame: fwd, to: back.next_hop });
            }
            Hwmp::Perr { ttl, dest, dest_sn } => {
                // hwmp_perr_frame_process (3.x): a newer sequence number from the next hop
                // (so a relay's "no forwarding information", number 0, changes nothing here;
                // later kernels take 0 too).
                if ttl <= 1 {
                    return;
                }
                let p = *self.lookup(dest, now);
                if p.active() && p.next_hop == Some(ta) && (p.flags & SN_VALID == 0 || sn_gt(dest_sn, p.sn)) {
                    let q = &mut self.paths[dest.idx()];
                    q.flags &= !ACTIVE;
                    q.sn = dest_sn;
                    self.send_perr(dest, dest_sn, ttl - 1, now, out);
                }
            }
        }
    }

    fn send_perr(&mut self, dest: NodeId, sn: u32, ttl: u8, now: SimTime, out: &mut Vec<Action>) {
        if self.last_perr.is_some_and(|t| now < t + self.params.perr_min_interval) {
            return; // mesh_path_error_tx: -EAGAIN
        }
        self.last_perr = Some(now);
        self.perrs_sent += 1;
        out.push(Action::Send { frame: Hwmp::Perr { ttl, dest, dest_sn: sn }, to: None });
    }

    /// The peer link to `peer` is gone (`mesh_path_flush_by_nexthop`): every path through it is
    /// deleted; returns their destinations (their queued frames go too).
    pub fn flush_by_next_hop(&mut self, peer: NodeId) -> Vec<NodeId> {
        let mut gone = Vec::new();
        for (d, p) in self.paths.iter_mut().enumerate() {
            if p.next_hop == Some(peer) {
                *p = Path::default();
                gone.push(NodeId(d as u32));
            }
        }
        gone
    }

    /// The link to `peer` is broken (`mesh_plink_broken`): every active path through it is
    /// deactivated, its sequence number incremented, and a PERR sent for it.
    pub fn link_broken(&mut self, peer: NodeId, now: SimTime, out: &mut Vec<Action>) {
        for d in 0..self.paths.len() {
            let p = &mut self.paths[d];
            if p.active() && p.next_hop == Some(peer) {
                p.flags &= !ACTIVE;
                p.sn = p.sn.wrapping_add(1);
                let sn = p.sn;
                self.send_perr(NodeId(d as u32), sn, self.params.ttl, now, out);
            }
        }
    }
}

#[cfg(test)]
mod tests;
