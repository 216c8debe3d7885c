//! What the MAC reports up to the cross-layer schemes (`xlayer`): the events and their
//! subscription bits. A MAC makes only the kinds some scheme at its node subscribed to.

use crate::ids::NodeId;
use crate::phy::ModeId;

/// What the MAC reports up to the schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacEvent {
    /// The head frame of `ac` at `node`, sent to `peer`, finished: acknowledged after
    /// `retries` retransmissions, or given up at the retry limit (an MPDU dropped).
    /// `service_ns`: from the moment it reached the head of its queue to now; `mode`: the
    /// mode of its last attempt.
    TxDone { node: NodeId, peer: NodeId, ac: u8, acked: bool, retries: u8, mode: ModeId, service_ns: u64 },
    /// Rate control at `node` picked a different mode for `peer`.
    RateChanged { node: NodeId, peer: NodeId, mode: ModeId },
    /// `node` received a corrupt frame; `payload_only`: its MAC header was intact (paper 004).
    CorruptRx { node: NodeId, payload_only: bool },
}

impl MacEvent {
    pub fn node(&self) -> NodeId {
        match *self {
            MacEvent::TxDone { node, .. }
            | MacEvent::RateChanged { node, .. }
            | MacEvent::CorruptRx { node, .. } => node,
        }
    }

    /// The bit of this event's kind in a subscription mask.
    pub fn kind_bit(&self) -> u8 {
        match self {
            MacEvent::TxDone { .. } => TX_DONE,
            MacEvent::RateChanged { .. } => RATE_CHANGED,
            MacEvent::CorruptRx { .. } => CORRUPT_RX,
        }
    }
}

/// Subscription bits, one per [`MacEvent`] kind.
pub const TX_DONE: u8 = 1;
pub const RATE_CHANGED: u8 = 2;
pub const CORRUPT_RX: u8 = 4;
