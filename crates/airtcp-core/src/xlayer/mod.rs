//! The cross-layer seam: the MAC reports what happened to its frames as [`MacEvent`]s, and
//! the schemes subscribed at a node react by driving TCP's and CLAP's control points and the
//! MAC's policies (rate, retry limits). A MAC makes only the kinds of events some scheme at
//! its node subscribed to (so a node with no scheme pays one mask test per event); the world
//! drains them where the MAC makes them and dispatches each to the schemes at its node.
//! CLAP's link report ([`clap_link`], docs/clap.md) is the first scheme.
//!
//! What a scheme reads is a control meter that counts from the start of the run (the MAC's
//! station table, the medium's busy time, the service meters here), never a report counter
//! that starts at the warm-up. Channel occupancy is such a meter (`Medium::busy_ns_now`),
//! read when a scheme's own event comes, not an event of its own: an occupancy event per
//! busy period would be one indication per listener per frame.

pub mod alm_retry;
pub mod arf_window;
pub mod ba_retry;
pub mod clap_link;
pub mod lnmac;

use crate::ids::NodeId;
use crate::phy::ModeId;

// The MAC's reports live in the MAC (mac/event.rs); the schemes here subscribe to them.
pub use crate::mac::event::{MacEvent, CORRUPT_RX, RATE_CHANGED, TX_DONE};

/// Paper 003's window at one station: its meter, the gate of its own rate's changes, and the
/// rates it last used and received.
#[derive(Clone, Debug)]
pub struct ArfStation {
    pub meter: arf_window::Meter,
    pub gate: arf_window::Gate,
    /// The mode of its own data frames (rate control's choice for the AP).
    pub tx_mode: Option<ModeId>,
    /// The mode of the data frames it last received from the AP.
    pub rx_mode: Option<ModeId>,
}

/// A cross-layer scheme; each runs at the nodes it is installed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Scheme {
    /// CLAP's link report: service time and queue of the sender's MAC (docs/clap.md).
    ClapLink = 1,
    /// LN-MAC (paper 004 II-B): reads the TCP segments of the frames it sends and receives.
    LnMac = 2,
    /// Paper 003's ARF-aware window: meters the channel time of the frames a station sends and
    /// overhears and bounds its connections' windows on each rate change.
    ArfWindow = 4,
    /// Paper 002's remedy: the Block-Ack retry limit of a station's TCP frames from its
    /// averaged data rate (`ba_retry`).
    BaRetry = 8,
    /// Paper 000's remedy: a mesh point's retry limit from the path table's diameter, polled
    /// on a timer (`alm_retry`).
    AlmRetry = 16,
}

impl Scheme {
    /// The event kinds the scheme reacts to.
    pub fn kinds(self) -> u8 {
        match self {
            Scheme::ClapLink => TX_DONE,
            Scheme::LnMac => 0, // it reads frames as they go on the air and arrive
            Scheme::ArfWindow => TX_DONE | RATE_CHANGED, // and reads frames
            Scheme::BaRetry => 0, // it acts as frames are queued
            Scheme::AlmRetry => 0, // it acts on its own timer
        }
    }
}

/// The cross-layer schemes of one run: which schemes run at each node, and which event
/// kinds they want.
#[derive(Debug)]
pub struct CrossLayer {
    /// Per node, the [`Scheme`] bits installed there.
    schemes: Vec<u8>,
    /// Per node, the union of the event kinds its schemes want.
    wants: Vec<u8>,
    /// CLAP's link report: service meters of the nodes that host a CLAP sender.
    pub clap_link: clap_link::ClapLink,
    /// LN-MAC's state per node (empty where it does not run).
    pub lnmac: Vec<(lnmac::LnMacTx, lnmac::LnMacRx)>,
    /// LN-MAC (paper 004 Fig. 3): the SN_T a data frame on the air carries, by the medium's
    /// transmission id. Carried "without adding any bits": not in `Frame::bytes`, and kept
    /// beside the frame so that a run without LN-MAC copies no larger frames.
    pub lnmac_sn_t: Vec<u32>,
    /// Some scheme reads the frames themselves (LN-MAC): the one test the frame path pays.
    pub reads_frames: bool,
    /// Paper 003's window per node (None where it does not run).
    pub arf: Vec<Option<ArfStation>>,
    /// Paper 002's averaged data rate per node.
    pub ba_retry: Vec<ba_retry::BaRetry>,
    /// An agent's rate control under the radio model: the SNR [dB] of the last frame each
    /// node received addressed to it, per transmitter (`(receiver, transmitter)`); None
    /// without agents (nothing is kept).
    pub peer_snr: Option<std::collections::HashMap<(u32, u32), f32>>,
    /// Paper 000's remedy per mesh point (None where it does not run), and how often it polls
    /// the path table.
    pub alm: Vec<Option<alm_retry::AlmRetry>>,
    pub alm_interval: crate::time::Dur,
}

impl CrossLayer {
    pub fn new(nodes: usize) -> CrossLayer {
        CrossLayer {
            schemes: vec![0; nodes],
            wants: vec![0; nodes],
            clap_link: clap_link::ClapLink::new(nodes),
            lnmac: vec![Default::default(); nodes],
            lnmac_sn_t: Vec::new(),
            reads_frames: false,
            arf: vec![None; nodes],
            ba_retry: vec![Default::default(); nodes],
            peer_snr: None,
            alm: vec![None; nodes],
            alm_interval: crate::time::Dur::ZERO,
        }
    }

    /// Run `scheme` at `node`: it gets the events of its kinds from there on. The caller
    /// subscribes the node's MAC to [`CrossLayer::kinds`] so that it makes them.
    pub fn install(&mut self, node: NodeId, scheme: Scheme) {
        self.schemes[node.idx()] |= scheme as u8;
        self.wants[node.idx()] |= scheme.kinds();
        self.reads_frames |= matches!(scheme, Scheme::LnMac | Scheme::ArfWindow);
    }

    /// The event kinds the schemes at `node` want.
    pub fn kinds(&self, node: NodeId) -> u8 {
        self.wants[node.idx()]
    }

    /// Whether `scheme` runs at `node`.
    #[inline]
    pub fn runs(&self, node: NodeId, scheme: Scheme) -> bool {
        self.schemes[node.idx()] & scheme as u8 != 0
    }

    /// Whether some scheme at the event's node wants it.
    #[inline]
    pub fn wants(&self, ev: &MacEvent) -> bool {
        self.wants[ev.node().idx()] & ev.kind_bit() != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_reaches_only_the_kinds_its_node_subscribed_to() {
        let mut x = CrossLayer::new(3);
        x.install(NodeId(1), Scheme::ClapLink);
        assert!(x.runs(NodeId(1), Scheme::ClapLink) && !x.runs(NodeId(0), Scheme::ClapLink));
        let done = |node| MacEvent::TxDone {
            node,
            peer: NodeId(0),
            ac: 1,
            acked: true,
            retries: 0,
            mode: crate::phy::modes::OFDM_6,
            service_ns: 1,
        };
        assert!(x.wants(&done(NodeId(1))));
        assert!(!x.wants(&done(NodeId(2))));
        assert!(!x.wants(&MacEvent::CorruptRx { node: NodeId(1), payload_only: false }));
        assert!(std::mem::size_of::<MacEvent>() <= 24, "{}", std::mem::size_of::<MacEvent>());
    }
}
