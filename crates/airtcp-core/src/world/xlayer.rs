//! The glue of the cross-layer seam: the world calls the schemes' hooks
//! ([`crate::xlayer::CrossLayer`]) with a read-only view of its layers ([`Layers`]) and applies
//! what they asked for ([`Action`]s), in the order asked, once the schemes at the node have
//! run the hook.

use super::mesh::MeshWorld;
use super::tcp::TcpFlow;
use super::{Node, World};
use crate::event::Event;
use crate::ids::{NodeId, PacketId, TxId};
use crate::mac::frame::Frame;
use crate::mac::{Wifi, WifiConfig};
use crate::net::routing::DIRECT;
use crate::net::{Flow, Packet, PacketSlab, WiredLink};
use crate::phy::ModeId;
use crate::spec::Role;
use crate::time::SimTime;
use crate::xlayer::{Action, ConnView, MacEvent, PacketView, Scheme, View};

/// What the schemes read of the world: its layers, borrowed apart from the schemes' own state.
struct Layers<'a> {
    wifi: &'a Wifi,
    nodes: &'a [Node],
    packets: &'a PacketSlab,
    flows: &'a [Flow],
    tcps: &'a [Option<TcpFlow>],
    mesh: Option<&'a MeshWorld>,
    links: &'a [WiredLink],
}

/// The world's layers as a [`View`], borrowed field by field so that `self.xlayer` stays free.
macro_rules! layers {
    ($w:expr) => {
        Layers {
            wifi: &$w.wifi,
            nodes: &$w.nodes,
            packets: &$w.packets,
            flows: &$w.flows,
            tcps: &$w.tcps,
            mesh: $w.mesh.as_ref(),
            links: &$w.links,
        }
    };
}

impl Layers<'_> {
    /// A packet of `ip_bytes` from `src` to `dst` over the wired hops of its route with empty
    /// queues: each wired link's serialization and delay (WiFi hops add nothing here).
    fn wired_path(&self, src: NodeId, dst: NodeId, ip_bytes: u32) -> crate::time::Dur {
        let mut total = crate::time::Dur::ZERO;
        let mut at = src;
        for _ in 0..self.nodes.len() {
            if at == dst {
                break;
            }
            let n = &self.nodes[at.idx()];
            let nh = match n.routes.get(dst.0) {
                v if v >= DIRECT => dst,
                v => NodeId(v),
            };
            if let Some(&(_, link, _)) = n.wired.iter().find(|(peer, _, _)| *peer == nh) {
                let l = &self.links[link.idx()];
                total += l.tx_time(ip_bytes) + l.delay;
            }
            at = nh;
        }
        total
    }
}

impl View for Layers<'_> {
    fn wifi(&self) -> &WifiConfig {
        &self.wifi.cfg
    }

    fn is_ap(&self, node: NodeId) -> bool {
        self.nodes[node.idx()].role == Role::Ap
    }

    fn packet(&self, id: PacketId) -> PacketView {
        let p = self.packets.get(id);
        PacketView { flow: p.flow, src: p.src, dst: p.dst, tcp: p.tcp }
    }

    fn first_mode(&self, node: NodeId, peer: NodeId) -> ModeId {
        self.wifi.first_mode(node, peer)
    }

    fn mesh_paths(&self, node: NodeId, now: SimTime) -> Vec<(NodeId, u32)> {
        self.mesh
            .map_or_else(Vec::new, |m| m.paths(node, now).map(|(_, nh, metric, _)| (nh, metric)).collect())
    }

    fn connections(&self, node: NodeId, receiving: bool, each: &mut dyn FnMut(ConnView)) {
        for (f, flow) in self.flows.iter().enumerate() {
            if (receiving && flow.dst != node) || (!receiving && flow.src != node) {
                continue;
            }
            let Some(t) = self.tcps[f].as_ref() else { continue };
            let (p, rtt, min_rtt) = if receiving {
                (&t.rcv.p, t.rcv.rcv_rtt, t.rcv.rcv_rtt_min)
            } else {
                (&t.snd.p, t.snd.rto.srtt(), Some(t.snd.s.min_rtt))
            };
            let Some(rtt) = rtt else { continue };
            each(ConnView {
                flow: crate::ids::FlowId(f as u32),
                rtt,
                min_rtt: min_rtt.unwrap_or(rtt),
                mss: p.mss,
                buf_bytes: if receiving { p.rcv_buf } else { p.snd_buf },
                ack_every: p.ack_every,
                timestamps: p.timestamps,
            });
        }
    }

    fn wired_rtt(&self, flow: crate::ids::FlowId) -> crate::time::Dur {
        let (f, Some(t)) = (&self.flows[flow.idx()], self.tcps[flow.idx()].as_ref()) else {
            return crate::time::Dur::ZERO;
        };
        let header = crate::tcp::conn::TCP_IP_HEADER_BYTES
            + if t.snd.p.timestamps { crate::tcp::conn::TIMESTAMP_OPTION_BYTES } else { 0 };
        self.wired_path(f.src, f.dst, header + t.snd.p.mss) + self.wired_path(f.dst, f.src, header)
    }
}

impl World {
    /// The schemes' start: a first timer, a starting value recorded.
    pub(super) fn start_schemes(&mut self) {
        self.xlayer.start();
        self.apply_controls();
    }

    /// A scheme's own timer at `node` fired ([`Event::SchemeTimer`]).
    pub(crate) fn on_scheme_timer(&mut self, node: NodeId, scheme: u8, now: SimTime) {
        let Some(scheme) = Scheme::from_bit(scheme) else { return };
        self.xlayer.timer(node, scheme, &layers!(self), now);
        self.apply_controls();
    }

    /// `ev` to the schemes at its node (the caller checked that one wants it).
    pub(crate) fn on_mac_event(&mut self, ev: MacEvent, now: SimTime) {
        self.xlayer.mac_event(&ev, &layers!(self), now);
        self.apply_controls();
    }

    /// Tap: `frame` goes on the air as transmission `tx` (some scheme reads frames).
    #[inline(never)]
    pub(crate) fn xlayer_frame_sent(&mut self, tx: TxId, frame: &Frame, now: SimTime) {
        self.xlayer.frame_sent(tx, frame, &layers!(self), now);
        self.apply_controls();
    }

    /// Tap: `frame`, transmission `tx`, heard intact at `node` or ended at its source (some
    /// scheme reads frames).
    #[inline(never)]
    pub(crate) fn xlayer_frame_heard(&mut self, node: NodeId, tx: TxId, frame: &Frame, now: SimTime) {
        self.xlayer.frame_heard(node, tx, frame, &layers!(self), now);
        self.apply_controls();
    }

    /// `packet` entered `node`'s MAC queue toward `peer` (some scheme there hooks it).
    #[inline(never)]
    pub(crate) fn xlayer_enqueued(&mut self, node: NodeId, peer: NodeId, packet: PacketId, now: SimTime) {
        self.xlayer.enqueued(node, peer, packet, &layers!(self), now);
        self.apply_controls();
    }

    /// Apply what the hooks asked for, in order.
    fn apply_controls(&mut self) {
        if !self.xlayer.ctl.pending() {
            return;
        }
        let mut actions = self.xlayer.ctl.take();
        let now = self.xlayer.ctl.now;
        for (node, scheme, a) in actions.drain(..) {
            self.apply(node, scheme, a, now);
        }
        self.xlayer.ctl.give_back(actions);
    }

    fn apply(&mut self, node: NodeId, scheme: Scheme, a: Action, now: SimTime) {
        match a {
            Action::CwndCap { flow, segments } => {
                if let Some(t) = self.tcps[flow.idx()].as_mut() {
                    t.snd.set_cwnd_cap(Some(segments));
                }
            }
            Action::RcvWindow { flow, bytes } => {
                if let Some(t) = self.tcps[flow.idx()].as_mut() {
                    t.rcv.wnd_override = Some(bytes);
                }
            }
            Action::NotifyReceiver { carrier, segment, ip_bytes } => {
                let p = *self.packets.get(carrier);
                let packet = Packet {
                    tcp: Some(segment),
                    ..Packet::new(p.flow, 0, p.src, p.dst, ip_bytes, 0, now, p.ac)
                };
                self.wifi.count_lnmac_notification(node);
                self.send_new(node, packet, now);
            }
            Action::ClapLinkReport { ac, meter } => self.clap_link_report(node, usize::from(ac), meter, now),
            Action::PeerRetryLimits(limits) => {
                for peer in 0..self.nodes.len() {
                    self.wifi.set_peer_retry_limits(node, NodeId(peer as u32), limits);
                }
            }
            Action::FrameRetryLimit { packet, limit } => {
                self.wifi.set_frame_retry_limit(node, packet, Some(limit));
            }
            Action::Timer { after } => {
                self.sched.at(now + after, Event::SchemeTimer { node, scheme: scheme as u8 });
            }
            Action::WindowSet { flow, rates, wnd_max_bytes, applied, receiving } => {
                self.traces.window(now, node.0, flow.0, rates, wnd_max_bytes, applied, receiving);
            }
            Action::RetryLimitSet(limit) => {
                if let Some(m) = self.mesh.as_mut() {
                    m.counters[node.idx()].retry_limits.push((now, limit));
                }
            }
        }
    }
}
