//! The cross-layer seam: one shape for every scheme. A scheme is a type that keeps its state
//! at one node and implements [`Hooks`], whose methods all default to doing nothing: a MAC
//! event of the kinds it subscribed to ([`Scheme::kinds`]), a frame sent or heard, a packet
//! handed to the MAC, its own timer. It reads the layers around it through [`View`] and acts
//! only through [`Controls`], which holds exactly TCP's control points and the MAC's policies
//! (retry limits per peer and per frame, window caps, LN-MAC's notification, CLAP's link
//! report, a timer) and which the world applies in the order asked once the node's schemes
//! have run the hook.
//! [`Installed`] names every scheme, one variant each, and dispatches to it as
//! `tcp::cc::Algorithm` dispatches to a congestion control (docs/architecture.md, "Add a
//! cross-layer scheme").
//!
//! A MAC makes only the kinds of events some scheme at its node subscribed to, and the frame
//! and enqueue paths test one mask per node, so a node with no scheme pays one bit test per
//! event. What a scheme reads is a control meter that counts from the start of the run (the
//! MAC's station table, the medium's busy time, its own meters), never a report counter that
//! starts at the warm-up. Channel occupancy is such a meter (`Medium::busy_ns_now`), read when
//! a scheme's own event comes, not an event of its own: an occupancy event per busy period
//! would be one indication per listener per frame.

pub mod alm_retry;
pub mod arf_window;
pub mod ba_retry;
pub mod clap_link;
pub mod lnmac;

use crate::ids::{FlowId, NodeId, PacketId, TxId};
use crate::mac::frame::Frame;
use crate::mac::retry::RetryLimits;
use crate::mac::WifiConfig;
use crate::phy::ModeId;
use crate::tcp::conn::Segment;
use crate::time::{Dur, SimTime};

// The MAC's reports live in the MAC (mac/event.rs); the schemes here subscribe to them.
pub use crate::mac::event::{MacEvent, CORRUPT_RX, RATE_CHANGED, TX_DONE};

/// A cross-layer scheme's name: its bit in a node's set, the MAC events it wants and the
/// paths it hooks. The order of the variants is the order the schemes at one node are called
/// in (LN-MAC's check before paper 003's meter reads the same frame; paper 003's window before
/// CLAP's report at the same exchange).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Scheme {
    /// LN-MAC (paper 004 II-B): reads the TCP segments of the frames it sends and receives.
    LnMac = 1,
    /// Paper 003's ARF-aware window: meters the channel time of the frames a station sends and
    /// overhears and bounds its connections' windows on each rate change.
    ArfWindow = 2,
    /// CLAP's link report: service time and queue of the sender's MAC (docs/clap.md).
    ClapLink = 4,
    /// Paper 002's remedy: the Block-Ack retry limit of a station's TCP frames from its
    /// averaged data rate (`ba_retry`).
    BaRetry = 8,
    /// Paper 000's remedy: a mesh point's retry limit from the path table's diameter, polled
    /// on a timer (`alm_retry`).
    AlmRetry = 16,
}

/// [`Scheme::paths`]: the scheme reads frames as they go on the air and are heard.
pub const FRAMES: u8 = 1;
/// [`Scheme::paths`]: the scheme acts as packets reach the MAC (a driver's transfer request).
pub const ENQUEUE: u8 = 2;

impl Scheme {
    /// The MAC event kinds the scheme reacts to.
    pub fn kinds(self) -> u8 {
        match self {
            Scheme::ClapLink => TX_DONE,
            Scheme::ArfWindow => TX_DONE | RATE_CHANGED,
            Scheme::LnMac | Scheme::BaRetry | Scheme::AlmRetry => 0,
        }
    }

    /// The frame and enqueue paths the scheme hooks ([`FRAMES`], [`ENQUEUE`]); a timer needs
    /// no bit (it is the scheme's own event).
    pub fn paths(self) -> u8 {
        match self {
            Scheme::LnMac | Scheme::ArfWindow => FRAMES,
            Scheme::BaRetry => ENQUEUE,
            Scheme::ClapLink | Scheme::AlmRetry => 0,
        }
    }
}

/// A packet as a scheme sees it: whose it is and the TCP segment it carries.
#[derive(Clone, Copy, Debug)]
pub struct PacketView {
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    pub tcp: Option<Segment>,
}

/// One TCP connection end at a node, as paper 003's window reads it: its smoothed RTT and the
/// parameters Eq. 9-11 need.
#[derive(Clone, Copy, Debug)]
pub struct ConnView {
    pub flow: FlowId,
    /// The sender's SRTT, or the receiver's own RTT estimate.
    pub rtt: Dur,
    /// The least RTT sample of that end (the sender's, or the receiver's from timestamps).
    pub min_rtt: Dur,
    pub mss: u32,
    /// The send buffer at a sender, the receive buffer at a receiver [bytes].
    pub buf_bytes: u32,
    /// Segments per TCP ACK (at least 1).
    pub ack_every: u32,
    pub timestamps: bool,
}

/// What a scheme may read of the layers around it; the world answers.
pub trait View {
    /// The MAC settings every node shares.
    fn wifi(&self) -> &WifiConfig;
    /// Whether `node` is an access point.
    fn is_ap(&self, node: NodeId) -> bool;
    /// The packet `id` (alive while the frame that carries it is).
    fn packet(&self, id: PacketId) -> PacketView;
    /// The mode `node`'s rate control would choose now for a first attempt toward `peer`.
    fn first_mode(&self, node: NodeId, peer: NodeId) -> ModeId;
    /// `node`'s active mesh paths as (next hop, metric) (`iw dev mesh0 mpath dump`).
    fn mesh_paths(&self, node: NodeId, now: SimTime) -> Vec<(NodeId, u32)>;
    /// Each TCP connection receiving (`receiving`) or sending at `node` that has an RTT.
    fn connections(&self, node: NodeId, receiving: bool, each: &mut dyn FnMut(ConnView));
    /// Connection `flow`'s wired hops with empty queues, both ways: each link's delay and the
    /// serialization of a full segment one way and of a bare ACK the other (paper 003's
    /// `arf_window_rtt = "empty"`; walked on demand, only that reading asks).
    fn wired_rtt(&self, flow: FlowId) -> Dur;
}

/// What a scheme asks of the layers around it; the world applies each, in the order asked,
/// once the schemes at the node have run the hook.
#[derive(Clone, Debug)]
pub enum Action {
    /// TCP sender: cwnd never exceeds `segments` (`Sender::set_cwnd_cap`).
    CwndCap { flow: FlowId, segments: u32 },
    /// TCP receiver: the advertised window is at most `bytes` (`Receiver::wnd_override`).
    RcvWindow { flow: FlowId, bytes: u32 },
    /// A segment toward the receiver of the connection `carrier` belongs to, sent from this
    /// node as a packet of `ip_bytes` (LN-MAC's empty CDO notification).
    NotifyReceiver { carrier: PacketId, segment: Segment, ip_bytes: u32 },
    /// A CLAP link report from this node's meter of access category `ac`.
    ClapLinkReport { ac: u8, meter: clap_link::ServiceMeter },
    /// The MAC's retry limits toward every peer (`Wifi::set_peer_retry_limits`).
    PeerRetryLimits(Option<RetryLimits>),
    /// The Block-Ack retry limit of the frame carrying `packet` (`Wifi::set_frame_retry_limit`).
    FrameRetryLimit { packet: PacketId, limit: u8 },
    /// This scheme's own timer fires `after` from now ([`Hooks::timer`]).
    Timer { after: Dur },
    /// The windows trace: a connection's window set on a rate change (paper 003).
    WindowSet { flow: FlowId, rates: (ModeId, ModeId), wnd_max_bytes: f64, applied: u32, receiving: bool },
    /// The mesh point's retry limit changed (the summary's `retry_limits`).
    RetryLimitSet(u8),
}

/// The one handle a scheme acts through: the node it runs at, the time, and the actions it
/// asked for (a buffer reused from hook to hook: no allocation per frame).
#[derive(Debug)]
pub struct Controls {
    pub node: NodeId,
    pub now: SimTime,
    /// The scheme the actions come from (its timer is its own).
    pub scheme: Scheme,
    actions: Vec<(NodeId, Scheme, Action)>,
}

impl Controls {
    fn new() -> Controls {
        Controls { node: NodeId(0), now: SimTime::ZERO, scheme: Scheme::LnMac, actions: Vec::new() }
    }

    /// Ask for `a`.
    pub fn push(&mut self, a: Action) {
        self.actions.push((self.node, self.scheme, a));
    }

    /// The actions asked for since the last [`Controls::take`], with the node and scheme each
    /// came from; the caller hands the buffer back with [`Controls::give_back`].
    pub fn take(&mut self) -> Vec<(NodeId, Scheme, Action)> {
        std::mem::take(&mut self.actions)
    }

    /// Return the (drained) buffer taken by [`Controls::take`], keeping its capacity.
    pub fn give_back(&mut self, mut buf: Vec<(NodeId, Scheme, Action)>) {
        buf.clear();
        self.actions = buf;
    }

    /// Whether some action waits.
    pub fn pending(&self) -> bool {
        !self.actions.is_empty()
    }
}

/// The hooks of a cross-layer scheme at one node, each a no-op unless the scheme says
/// otherwise. `v` reads the layers around; `c` acts on them.
pub trait Hooks {
    /// The run starts (a first timer, a starting value to record).
    fn start(&mut self, _c: &mut Controls) {}
    /// A MAC event of one of the scheme's kinds ([`Scheme::kinds`]) at its node.
    fn mac_event(&mut self, _ev: &MacEvent, _v: &dyn View, _c: &mut Controls) {}
    /// The node puts `frame` on the air as transmission `tx`: what the frame carries beside
    /// its bytes for the schemes at its receivers (0: nothing).
    fn frame_sent(&mut self, _tx: TxId, _frame: &Frame, _v: &dyn View, _c: &mut Controls) -> u32 {
        0
    }
    /// A frame heard intact at the node (addressed to it or overheard), or the node's own frame
    /// at its end, with what its sender's schemes made it carry.
    fn frame_heard(&mut self, _frame: &Frame, _carried: u32, _v: &dyn View, _c: &mut Controls) {}
    /// The packet `packet` entered the node's MAC queue toward `peer` (a driver's data
    /// transfer request).
    fn enqueued(&mut self, _peer: NodeId, _packet: PacketId, _v: &dyn View, _c: &mut Controls) {}
    /// The scheme's own timer ([`Action::Timer`]) fired.
    fn timer(&mut self, _v: &dyn View, _c: &mut Controls) {}
}

/// A scheme installed at a node, with its state: one variant per scheme.
#[derive(Clone, Debug)]
pub enum Installed {
    LnMac(lnmac::LnMac),
    ArfWindow(Box<arf_window::ArfWindow>),
    ClapLink(clap_link::ClapLink),
    BaRetry(ba_retry::BaRetry),
    AlmRetry(alm_retry::AlmRetry),
}

impl Installed {
    pub fn scheme(&self) -> Scheme {
        match self {
            Installed::LnMac(_) => Scheme::LnMac,
            Installed::ArfWindow(_) => Scheme::ArfWindow,
            Installed::ClapLink(_) => Scheme::ClapLink,
            Installed::BaRetry(_) => Scheme::BaRetry,
            Installed::AlmRetry(_) => Scheme::AlmRetry,
        }
    }

    fn hooks(&mut self) -> &mut dyn Hooks {
        match self {
            Installed::LnMac(s) => s,
            Installed::ArfWindow(s) => s.as_mut(),
            Installed::ClapLink(s) => s,
            Installed::BaRetry(s) => s,
            Installed::AlmRetry(s) => s,
        }
    }
}

/// The cross-layer schemes of one run: the schemes at each node, what they subscribed to,
/// and what the frames on the air carry for them.
#[derive(Debug)]
pub struct CrossLayer {
    /// Per node, its schemes in [`Scheme`] order.
    at: Vec<Vec<Installed>>,
    /// Per node, the union of the MAC event kinds its schemes want.
    wants: Vec<u8>,
    /// Per node, the union of the paths its schemes hook ([`FRAMES`], [`ENQUEUE`]).
    paths: Vec<u8>,
    /// Some scheme reads the frames themselves: the one test the frame path pays.
    pub reads_frames: bool,
    /// What each frame on the air carries beside its bytes, by the medium's transmission id
    /// (LN-MAC's SN_T, paper 004 Fig. 3: "without adding any bits", so not in `Frame::bytes`,
    /// and kept beside the frame so that a run without it copies no larger frames).
    carried: Vec<u32>,
    /// An agent's rate control under the radio model: the SNR [dB] of the last frame each
    /// node received addressed to it, per transmitter (`(receiver, transmitter)`); None
    /// without agents (nothing is kept). An observation of the agents, not a scheme.
    pub peer_snr: Option<std::collections::HashMap<(u32, u32), f32>>,
    /// The handle the hooks act through.
    pub ctl: Controls,
}

impl CrossLayer {
    pub fn new(nodes: usize) -> CrossLayer {
        CrossLayer {
            at: vec![Vec::new(); nodes],
            wants: vec![0; nodes],
            paths: vec![0; nodes],
            reads_frames: false,
            carried: Vec::new(),
            peer_snr: None,
            ctl: Controls::new(),
        }
    }

    /// Run `scheme` at `node`: it gets the events of its kinds and the paths it hooks from
    /// there on. The caller subscribes the node's MAC to [`CrossLayer::kinds`] so that it
    /// makes them. A scheme runs at most once per node (a second install replaces it).
    pub fn install(&mut self, node: NodeId, scheme: Installed) {
        let s = scheme.scheme();
        let list = &mut self.at[node.idx()];
        list.retain(|i| i.scheme() != s);
        let at = list.iter().position(|i| i.scheme() as u8 > s as u8).unwrap_or(list.len());
        list.insert(at, scheme);
        self.wants[node.idx()] |= s.kinds();
        self.paths[node.idx()] |= s.paths();
        self.reads_frames |= s.paths() & FRAMES != 0;
    }

    /// The MAC event kinds the schemes at `node` want.
    pub fn kinds(&self, node: NodeId) -> u8 {
        self.wants[node.idx()]
    }

    /// Whether `scheme` runs at `node`.
    pub fn runs(&self, node: NodeId, scheme: Scheme) -> bool {
        self.at[node.idx()].iter().any(|i| i.scheme() == scheme)
    }

    /// The state of the schemes installed at `node`, in call order.
    pub fn at(&self, node: NodeId) -> &[Installed] {
        &self.at[node.idx()]
    }

    /// CLAP's service meter of `ac` at `node` (the default where the link report does not run).
    pub fn clap_meter(&self, node: NodeId, ac: usize) -> clap_link::ServiceMeter {
        self.at[node.idx()]
            .iter()
            .find_map(|i| match i {
                Installed::ClapLink(c) => Some(c.meter(ac)),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Whether some scheme at the event's node wants it.
    #[inline]
    pub fn wants(&self, ev: &MacEvent) -> bool {
        self.wants[ev.node().idx()] & ev.kind_bit() != 0
    }

    /// Whether some scheme at `node` acts as packets reach its MAC.
    #[inline]
    pub fn hooks_enqueue(&self, node: NodeId) -> bool {
        self.paths[node.idx()] & ENQUEUE != 0
    }

    fn each(
        &mut self,
        node: NodeId,
        now: SimTime,
        path: u8,
        mut f: impl FnMut(&mut dyn Hooks, &mut Controls),
    ) {
        if self.paths[node.idx()] & path == 0 && path != 0 {
            return;
        }
        self.ctl.node = node;
        self.ctl.now = now;
        for s in self.at[node.idx()].iter_mut() {
            if path != 0 && s.scheme().paths() & path == 0 {
                continue;
            }
            self.ctl.scheme = s.scheme();
            f(s.hooks(), &mut self.ctl);
        }
    }

    /// Every scheme's [`Hooks::start`], node by node.
    pub fn start(&mut self) {
        for n in 0..self.at.len() {
            self.each(NodeId(n as u32), SimTime::ZERO, 0, |h, c| h.start(c));
        }
    }

    /// `ev` to the schemes at its node that want its kind.
    pub fn mac_event(&mut self, ev: &MacEvent, v: &dyn View, now: SimTime) {
        let bit = ev.kind_bit();
        self.ctl.node = ev.node();
        self.ctl.now = now;
        for s in self.at[ev.node().idx()].iter_mut() {
            if s.scheme().kinds() & bit != 0 {
                self.ctl.scheme = s.scheme();
                s.hooks().mac_event(ev, v, &mut self.ctl);
            }
        }
    }

    /// `frame` goes on the air from its source as transmission `tx` (the caller checked
    /// [`CrossLayer::reads_frames`]): what it carries is recorded for its receivers.
    pub fn frame_sent(&mut self, tx: TxId, frame: &Frame, v: &dyn View, now: SimTime) {
        let mut carried = 0;
        self.each(frame.src, now, FRAMES, |h, c| carried |= h.frame_sent(tx, frame, v, c));
        if self.carried.len() <= tx.idx() {
            self.carried.resize(tx.idx() + 1, 0);
        }
        self.carried[tx.idx()] = carried;
    }

    /// `frame`, transmission `tx`, heard intact at `node` (or ended at its source), to the
    /// schemes there that read frames (the caller checked [`CrossLayer::reads_frames`]).
    pub fn frame_heard(&mut self, node: NodeId, tx: TxId, frame: &Frame, v: &dyn View, now: SimTime) {
        let carried = self.carried.get(tx.idx()).copied().unwrap_or(0);
        self.each(node, now, FRAMES, |h, c| h.frame_heard(frame, carried, v, c));
    }

    /// `packet` entered `node`'s MAC queue toward `peer` (the caller checked
    /// [`CrossLayer::hooks_enqueue`]).
    pub fn enqueued(&mut self, node: NodeId, peer: NodeId, packet: PacketId, v: &dyn View, now: SimTime) {
        self.each(node, now, ENQUEUE, |h, c| h.enqueued(peer, packet, v, c));
    }

    /// The timer of `scheme` at `node` fired.
    pub fn timer(&mut self, node: NodeId, scheme: Scheme, v: &dyn View, now: SimTime) {
        self.ctl.node = node;
        self.ctl.now = now;
        self.ctl.scheme = scheme;
        if let Some(s) = self.at[node.idx()].iter_mut().find(|s| s.scheme() == scheme) {
            s.hooks().timer(v, &mut self.ctl);
        }
    }
}

impl Scheme {
    /// The scheme whose bit is `bit` (an [`crate::event::Event::SchemeTimer`]'s).
    pub fn from_bit(bit: u8) -> Option<Scheme> {
        [Scheme::LnMac, Scheme::ArfWindow, Scheme::ClapLink, Scheme::BaRetry, Scheme::AlmRetry]
            .into_iter()
            .find(|s| *s as u8 == bit)
    }
}

#[cfg(test)]
mod tests;
