//! The world's glue for 802.11s (issue 16): the mesh points' peer links and HWMP state
//! machines (`mesh::peering`, `mesh::hwmp`) driven by the frames and timers of the run.
//!
//! - Peering starts when a mesh point hears a neighbour's mesh Beacon while their link is in
//!   LISTEN (`mesh_neighbour_update` with `auto_open_plinks`); links in
//!   `blocked_radio_links` start BLOCKED (`iw ... plink_action block` on both ends, paper
//!   000's chain enforcement). Peering frames are unicast Action frames.
//! - HWMP frames from a neighbour whose link is not ESTAB are dropped
//!   (`mesh_rx_path_sel_frame`), and so are data frames (`ieee80211_rx_h_check`: a mesh
//!   point takes data only from its peers).
//! - A data frame a mesh point originates goes to the next hop of its active path
//!   (`mesh_nexthop_resolve`), else waits (10 frames per destination, the oldest dropped:
//!   `MESH_FRAME_QUEUE_LEN`) while HWMP discovers one; a frame it relays goes to the next hop
//!   or is dropped with a PERR to the transmitter (`ieee80211_rx_h_mesh_fwding`).
//! - The link metric an HWMP frame accumulates is the Airtime Link Metric toward its
//!   transmitter from the station table: the rate of the last data frame's last attempt
//!   (1 Mbit/s, the band's first rate, before any: `last_tx_rate` is zeroed) and 3.12's
//!   failure average; a final failure that takes the average past 95 breaks the link
//!   (`mesh_plink_broken`).

use std::collections::VecDeque;

use super::World;
use crate::event::{Event, MeshTimer};
use crate::ids::{NodeId, PacketId};
use crate::mesh::frame::MeshFrame;
use crate::mesh::hwmp::{Action, HwmpParams, MeshPoint};
use crate::mesh::peering::{PeerAction, PeerLink, PeeringParams};
use crate::net::{Packet, NO_FLOW};
use crate::rng::Stream;
use crate::time::SimTime;

/// `MESH_FRAME_QUEUE_LEN`: frames a path in discovery holds.
pub const FRAME_QUEUE_LEN: usize = 10;

/// One mesh point's counters: the control plane's (management frames sent, links broken)
/// from the start of the run, since peering and the first discoveries happen in the warm-up;
/// its data drops over the measured period; its path set-up times from the start of the run.
#[derive(Clone, Debug, Default)]
pub struct MeshCounters {
    pub preqs_sent: u64,
    pub preps_sent: u64,
    pub perrs_sent: u64,
    pub peering_frames_sent: u64,
    /// Data frames dropped: queued for a path whose discovery failed or overflowed its
    /// queue, relayed without a path, or received from a neighbour that is not a peer.
    pub drops_no_path: u64,
    pub drops_not_peer: u64,
    pub links_broken: u64,
    /// Paper 000's remedy: each retry limit it set, with its time (from the start of the run).
    pub retry_limits: Vec<(SimTime, u8)>,
    /// (destination, discovery start, set-up time [ns]) of each discovery this node
    /// originated for its own data that found a path.
    pub path_setups: Vec<(NodeId, SimTime, u64)>,
}

/// The 802.11s state of a world.
pub struct MeshWorld {
    pub peering: PeeringParams,
    pub metric_u64: bool,
    /// Per node: its HWMP state (None: not a mesh point).
    pub points: Vec<Option<MeshPoint>>,
    /// Peer links, `links[node][neighbour]`.
    pub links: Vec<Vec<PeerLink>>,
    /// Data frames waiting for a path, `pending[node][destination]`.
    pending: Vec<Vec<VecDeque<PacketId>>>,
    /// When a discovery for the node's own data started, per destination.
    discovery_start: Vec<Vec<Option<SimTime>>>,
    path_timer_at: Vec<Vec<Option<SimTime>>>,
    preq_timer_at: Vec<Option<SimTime>>,
    /// When each peer link was first established, `established_at[node][neighbour]`.
    pub established_at: Vec<Vec<Option<SimTime>>>,
    rng: Vec<Stream>,
    pub counters: Vec<MeshCounters>,
    /// The frame of each management packet, by the slot of the sender's packet
    /// ([`crate::net::NO_FLOW`]).
    frames: Vec<Option<MeshFrame>>,
    actions: Vec<Action>,
    peer_actions: Vec<PeerAction>,
}

impl MeshWorld {
    /// The mesh of a world of `n` nodes where `is_mesh[i]` says which are mesh points and
    /// `blocked` lists the blocked links (paper 000's remedy is a cross-layer scheme,
    /// `xlayer::alm_retry`).
    pub fn new(
        spec: &crate::spec::MeshSpec,
        is_mesh: &[bool],
        blocked: &[[u32; 2]],
        rngs: Vec<Stream>,
    ) -> MeshWorld {
        let n = is_mesh.len();
        let params = HwmpParams {
            active_path_timeout: crate::time::Dur(u64::from(spec.active_path_timeout_tu) * 1_024_000),
            max_preq_retries: spec.max_preq_retries,
            ..HwmpParams::LINUX
        };
        let points =
            (0..n).map(|i| is_mesh[i].then(|| MeshPoint::new(NodeId(i as u32), n, params))).collect();
        let mut links = vec![vec![PeerLink::default(); n]; n];
        for &[a, b] in blocked {
            let mut out = Vec::new();
            links[a as usize][b as usize].block(&mut out);
            links[b as usize][a as usize].block(&mut out);
        }
        let counters = vec![MeshCounters::default(); n];
        MeshWorld {
            peering: PeeringParams::LINUX,
            metric_u64: spec.metric == crate::spec::MeshMetric::Linux,
            points,
            links,
            pending: vec![vec![VecDeque::new(); n]; n],
            discovery_start: vec![vec![None; n]; n],
            path_timer_at: vec![vec![None; n]; n],
            preq_timer_at: vec![None; n],
            established_at: vec![vec![None; n]; n],
            rng: rngs,
            counters,
            frames: Vec::new(),
            actions: Vec::new(),
            peer_actions: Vec::new(),
        }
    }

    /// The frame the management packet `p` carries.
    pub fn frame(&self, p: &Packet) -> MeshFrame {
        self.frames[p.seq as usize].expect("a management packet's frame")
    }

    pub fn is_point(&self, node: NodeId) -> bool {
        self.points[node.idx()].is_some()
    }

    /// The path table of mesh point `node` at `now`: (destination, next hop, metric, sequence
    /// number) of each active path; nothing where `node` is no mesh point.
    pub fn paths(&self, node: NodeId, now: SimTime) -> impl Iterator<Item = (NodeId, NodeId, u32, u32)> + '_ {
        self.points[node.idx()]
            .iter()
            .flat_map(move |mp| mp.active_paths(now))
            .map(|(d, p)| (d, p.next_hop.expect("active"), p.metric, p.sn))
    }

    /// The measured period starts: the data drops start from zero; the control plane's
    /// counters run on from the start of the run.
    pub fn start_measuring(&mut self) {
        for c in &mut self.counters {
            (c.drops_no_path, c.drops_not_peer) = (0, 0);
        }
    }
}

impl World {
    /// Whether a packet at `node` for `dst` goes by HWMP: both are mesh points.
    #[inline]
    pub(crate) fn is_mesh_route(&self, node: NodeId, dst: NodeId) -> bool {
        let m = self.mesh.as_ref().expect("checked");
        m.is_point(node) && dst != NodeId::BROADCAST && m.is_point(dst)
    }

    /// Whether a saturating source at mesh point `node` may send another packet to `dst`: the
    /// MAC's queue has room on an active path, the path's frame queue while it is discovered.
    #[cold]
    #[inline(never)]
    pub(crate) fn mesh_has_room(&self, node: NodeId, dst: NodeId, ac: usize) -> bool {
        let m = self.mesh.as_ref().expect("a mesh");
        let mp = m.points[node.idx()].as_ref().expect("a mesh point");
        let path = &mp.paths[dst.idx()];
        if let (true, Some(next_hop)) = (path.active_at(self.sched.now()), path.next_hop) {
            // The queue the next hop's frames meet first: with a TXQ or a qdisc the MAC's own
            // queue stays short, and asking it let a source refill for ever at one instant.
            self.wifi_hop_has_room(node, next_hop, ac)
        } else {
            m.pending[node.idx()][dst.idx()].len() < FRAME_QUEUE_LEN
        }
    }

    /// The Airtime Link Metric of `node`'s link to `peer` (`airtime_link_metric_get`).
    pub fn mesh_link_metric(&self, node: NodeId, peer: NodeId) -> u32 {
        let link = self.wifi.link(node, peer);
        let mode = link.last_tx_mode.unwrap_or(self.wifi.cfg.standard.modes()[0]);
        // cfg80211_calculate_bitrate: 100 kbit/s units.
        let rate = mode.rate_kbps() / 100;
        let fail = link.fail_avg_3_12.percent;
        let m = self.mesh.as_ref().expect("a mesh");
        if m.metric_u64 {
            crate::mesh::metric::linux_u64(rate, fail)
        } else {
            crate::mesh::metric::linux(rate, fail)
        }
    }

    /// The path table of mesh point `node` at `now`: (destination, next hop, metric, sequence
    /// number) of each active path (what `iw dev mesh0 mpath dump` shows; a scheme's view).
    pub fn mesh_paths(&self, node: NodeId, now: SimTime) -> Vec<(NodeId, NodeId, u32, u32)> {
        self.mesh.as_ref().map_or_else(Vec::new, |m| m.paths(node, now).collect())
    }

    /// The peers of mesh point `node` (links ESTAB) with their link metric (`iw dev mesh0
    /// station dump`).
    pub fn mesh_peers(&self, node: NodeId) -> Vec<(NodeId, u32)> {
        let Some(m) = self.mesh.as_ref() else { return Vec::new() };
        m.links[node.idx()]
            .iter()
            .enumerate()
            .filter(|(_, l)| l.established())
            .map(|(j, _)| (NodeId(j as u32), self.mesh_link_metric(node, NodeId(j as u32))))
            .collect()
    }

    /// Queue the management frame `frame` at `node` for `to` (None: group-addressed).
    fn mesh_send_mgmt(&mut self, node: NodeId, to: Option<NodeId>, frame: MeshFrame, now: SimTime) {
        let to = to.unwrap_or(NodeId::BROADCAST);
        let standard = self.wifi.cfg.standard;
        let bytes = frame.mpdu_bytes(standard.modes().len(), standard.ht().is_some());
        let c = &mut self.mesh.as_mut().expect("a mesh").counters[node.idx()];
        match frame {
            MeshFrame::Hwmp(crate::mesh::hwmp::Hwmp::Preq { .. }) => c.preqs_sent += 1,
            MeshFrame::Hwmp(crate::mesh::hwmp::Hwmp::Prep { .. }) => c.preps_sent += 1,
            MeshFrame::Hwmp(crate::mesh::hwmp::Hwmp::Perr { .. }) => c.perrs_sent += 1,
            MeshFrame::Peering(_) => c.peering_frames_sent += 1,
        }
        let id = self.packets.alloc(Packet::new(NO_FLOW, 0, node, to, bytes, 0, now, 3));
        self.packets.get_mut(id).seq = id.0;
        let frames = &mut self.mesh.as_mut().expect("a mesh").frames;
        if frames.len() <= id.idx() {
            frames.resize(id.idx() + 1, None);
        }
        frames[id.idx()] = Some(frame);
        let cca = self.medium.cca(node);
        if !self.wifi.enqueue_mgmt(node, to, id, bytes, frame.acked(), cca, &mut self.sched, now) {
            self.packets.free(id);
        }
    }

    /// Carry out what `node`'s HWMP asked for (its `actions` buffer).
    fn mesh_hwmp_actions(&mut self, node: NodeId, now: SimTime) {
        let mut actions = std::mem::take(&mut self.mesh.as_mut().expect("a mesh").actions);
        for a in actions.drain(..) {
            let m = self.mesh.as_mut().expect("a mesh");
            match a {
                Action::Send { frame, to } => self.mesh_send_mgmt(node, to, MeshFrame::Hwmp(frame), now),
                Action::Flush { dest, next_hop } => {
                    if let Some(start) = m.discovery_start[node.idx()][dest.idx()].take() {
                        m.counters[node.idx()].path_setups.push((dest, start, now.since(start).ns()));
                    }
                    let q = std::mem::take(&mut m.pending[node.idx()][dest.idx()]);
                    for id in q {
                        self.wifi_enqueue(node, next_hop, id, now);
                    }
                }
                Action::Drop { dest } => {
                    m.discovery_start[node.idx()][dest.idx()] = None;
                    let q = std::mem::take(&mut m.pending[node.idx()][dest.idx()]);
                    m.counters[node.idx()].drops_no_path += q.len() as u64;
                    for id in q {
                        self.drop_packet(id);
                    }
                }
                Action::PathTimer { dest, at } => {
                    m.path_timer_at[node.idx()][dest.idx()] = Some(at);
                    self.sched.at(at, Event::Mesh { node, other: dest, timer: MeshTimer::Path });
                }
                Action::PreqTimer { at } => {
                    m.preq_timer_at[node.idx()] = Some(at);
                    self.sched.at(at, Event::Mesh { node, other: node, timer: MeshTimer::Preq });
                }
            }
        }
        self.mesh.as_mut().expect("a mesh").actions = actions;
    }

    /// Carry out what the peer link of `node` toward `peer` asked for.
    fn mesh_peer_actions(&mut self, node: NodeId, peer: NodeId, now: SimTime) {
        let mut actions = std::mem::take(&mut self.mesh.as_mut().expect("a mesh").peer_actions);
        for a in actions.drain(..) {
            let m = self.mesh.as_mut().expect("a mesh");
            match a {
                PeerAction::Send(f) => self.mesh_send_mgmt(node, Some(peer), MeshFrame::Peering(f), now),
                PeerAction::Timer(at) => {
                    self.sched.at(at, Event::Mesh { node, other: peer, timer: MeshTimer::Plink });
                }
                PeerAction::Established => {
                    m.established_at[node.idx()][peer.idx()].get_or_insert(now);
                }
                PeerAction::Deactivated => {
                    // __mesh_plink_deactivate: mesh_path_flush_by_nexthop.
                    let mp = m.points[node.idx()].as_mut().expect("a mesh point");
                    let mut lost = Vec::new();
                    for d in mp.flush_by_next_hop(peer) {
                        lost.extend(std::mem::take(&mut m.pending[node.idx()][d.idx()]));
                    }
                    m.counters[node.idx()].drops_no_path += lost.len() as u64;
                    for id in lost {
                        self.drop_packet(id);
                    }
                }
            }
        }
        self.mesh.as_mut().expect("a mesh").peer_actions = actions;
    }

    /// Mesh point `j` heard `src`'s Beacon: a link in LISTEN opens (`mesh_neighbour_update`).
    #[cold]
    #[inline(never)]
    pub(crate) fn mesh_beacon(&mut self, j: NodeId, src: NodeId, now: SimTime) {
        let m = self.mesh.as_mut().expect("a mesh");
        if !(m.is_point(j) && m.is_point(src)) {
            return;
        }
        let params = m.peering;
        let link = &mut m.links[j.idx()][src.idx()];
        if link.state != crate::mesh::peering::PlinkState::Listen {
            return;
        }
        link.open(&params, now, &mut m.peer_actions);
        self.mesh_peer_actions(j, src, now);
    }

    /// A mesh timer fired.
    #[cold]
    #[inline(never)]
    pub(crate) fn on_mesh_timer(&mut self, node: NodeId, other: NodeId, timer: MeshTimer, now: SimTime) {
        let m = self.mesh.as_mut().expect("a mesh");
        match timer {
            MeshTimer::Plink => {
                let rand = m.rng[node.idx()].uniform_inclusive(u32::MAX);
                let params = m.peering;
                m.links[node.idx()][other.idx()].on_timer(rand, &params, now, &mut m.peer_actions);
                self.mesh_peer_actions(node, other, now);
            }
            MeshTimer::Path => {
                if m.path_timer_at[node.idx()][other.idx()] != Some(now) {
                    return; // replaced by a later one
                }
                m.path_timer_at[node.idx()][other.idx()] = None;
                let mp = m.points[node.idx()].as_mut().expect("a mesh point");
                mp.on_path_timer(other, now, &mut m.actions);
                self.mesh_hwmp_actions(node, now);
            }
            MeshTimer::Preq => {
                if m.preq_timer_at[node.idx()] != Some(now) {
                    return;
                }
                m.preq_timer_at[node.idx()] = None;
                let mp = m.points[node.idx()].as_mut().expect("a mesh point");
                mp.on_preq_timer(now, &mut m.actions);
                self.mesh_hwmp_actions(node, now);
            }
        }
    }

    /// Route the data packet `id` at mesh point `node` toward its destination by HWMP:
    /// originated here (`from` None) or relayed for the neighbour `from`. False if dropped.
    #[cold]
    #[inline(never)]
    pub(crate) fn mesh_route(
        &mut self,
        node: NodeId,
        from: Option<NodeId>,
        id: PacketId,
        now: SimTime,
    ) -> bool {
        let dst = self.packets.get(id).dst;
        let m = self.mesh.as_mut().expect("a mesh");
        let mp = m.points[node.idx()].as_mut().expect("a mesh point");
        let next_hop = match from {
            None => mp.next_hop(dst, now, &mut m.actions),
            Some(f) => mp.relay(dst, f, now, &mut m.actions),
        };
        let queued = match (next_hop, from) {
            (Some(nh), None) => {
                self.mesh_hwmp_actions(node, now);
                return self.wifi_enqueue(node, nh, id, now);
            }
            (Some(nh), Some(_)) => {
                // Linux 3.12 ieee80211_rx_h_mesh_fwding: a forwarded frame skips the qdisc
                // (ieee80211_add_pending_skb) and is dropped if the driver's queue is stopped.
                self.mesh_hwmp_actions(node, now);
                if self.mac_enqueue(node, nh, id, now) {
                    return true;
                }
                self.drop_packet(id);
                return false;
            }
            (None, None) => {
                let start = &mut m.discovery_start[node.idx()][dst.idx()];
                start.get_or_insert(now);
                let q = &mut m.pending[node.idx()][dst.idx()];
                q.push_back(id);
                if q.len() > FRAME_QUEUE_LEN {
                    let old = q.pop_front().expect("full");
                    m.counters[node.idx()].drops_no_path += 1;
                    self.drop_packet(old);
                }
                true
            }
            (None, Some(_)) => {
                m.counters[node.idx()].drops_no_path += 1;
                self.drop_packet(id);
                false
            }
        };
        self.mesh_hwmp_actions(node, now);
        queued
    }

    /// A data or Action frame's packet `id` reached mesh world node `node` from `from`:
    /// management frames go to the peering or HWMP machines, data from a non-peer is dropped,
    /// data for another mesh point is relayed, the rest goes up as before.
    #[cold]
    #[inline(never)]
    pub(crate) fn mesh_delivered(&mut self, node: NodeId, from: NodeId, id: PacketId, now: SimTime) {
        let p = *self.packets.get(id);
        let m = self.mesh.as_mut().expect("a mesh");
        if !m.is_point(node) {
            if p.flow == NO_FLOW {
                // A non-mesh station beside the mesh ignores its Beacons, peering and HWMP
                // frames (Linux ieee80211_accept_frame: another BSS's frames are not its own).
                self.packets.free(id);
            } else {
                self.send(node, id, now);
            }
            return;
        }
        if !m.is_point(from) {
            // Linux ieee80211_rx_h_check: a mesh interface drops data without both DS bits
            // (an IBSS station's three-address frames).
            m.counters[node.idx()].drops_not_peer += 1;
            self.drop_packet(id);
            return;
        }
        if p.flow == NO_FLOW {
            let frame = m.frame(&p);
            self.packets.free(id);
            self.mesh_rx(node, from, frame, now);
            return;
        }
        if !m.links[node.idx()][from.idx()].established() {
            m.counters[node.idx()].drops_not_peer += 1;
            self.drop_packet(id);
            return;
        }
        if p.dst != node && self.is_mesh_route(node, p.dst) {
            self.mesh_route(node, Some(from), id, now);
        } else {
            self.send(node, id, now);
        }
    }

    /// Mesh point `node` received the management frame `frame` from `from`.
    fn mesh_rx(&mut self, node: NodeId, from: NodeId, frame: MeshFrame, now: SimTime) {
        let metric = self.mesh_link_metric(node, from);
        let m = self.mesh.as_mut().expect("a mesh");
        if !m.is_point(from) {
            return;
        }
        match frame {
            MeshFrame::Peering(f) => {
                let params = m.peering;
                m.links[node.idx()][from.idx()].on_frame(f, &params, now, &mut m.peer_actions);
                self.mesh_peer_actions(node, from, now);
            }
            MeshFrame::Hwmp(h) => {
                if !m.links[node.idx()][from.idx()].established() {
                    return; // mesh_rx_path_sel_frame: only from peers
                }
                let mp = m.points[node.idx()].as_mut().expect("a mesh point");
                mp.on_frame(from, metric, h, now, &mut m.actions);
                self.mesh_hwmp_actions(node, now);
            }
        }
    }

    /// A data frame of mesh point `node` reached its final status without an ACK: if the
    /// failure average broke a link (`mesh_plink_broken`), HWMP deactivates its paths.
    #[cold]
    #[inline(never)]
    pub(crate) fn mesh_check_links(&mut self, node: NodeId, now: SimTime) {
        if !self.mesh.as_ref().expect("a mesh").is_point(node) {
            return;
        }
        for peer in 0..self.nodes.len() {
            let link = self.wifi.link_mut(node, NodeId(peer as u32));
            if !std::mem::take(&mut link.link_broken) {
                continue;
            }
            let m = self.mesh.as_mut().expect("a mesh");
            m.counters[node.idx()].links_broken += 1;
            let mp = m.points[node.idx()].as_mut().expect("a mesh point");
            mp.link_broken(NodeId(peer as u32), now, &mut m.actions);
            self.mesh_hwmp_actions(node, now);
        }
    }
}
