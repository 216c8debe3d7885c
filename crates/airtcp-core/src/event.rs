//! The events of a run: one small `Copy` enum, so the heap holds no pointer and allocates
//! nothing per event. Each layer schedules its own kinds; `World::run` dispatches them.

use crate::ids::{FlowId, LinkId, NodeId, PacketId, TxId};

/// Everything that can happen. Small and `Copy`: no heap per event.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    FlowStart(FlowId),
    CbrTick(FlowId),
    /// An access category's backoff reached zero.
    Grant {
        node: NodeId,
        ac: u8,
        gen: u32,
    },
    /// The earliest armed grant of a contention domain (`mac::contention`) is due.
    DomainGrant {
        domain: u32,
        gen: u32,
    },
    /// A wireless transmission ends at every node that senses it.
    TxEnd(TxId),
    /// A response frame (ACK, CTS, data after CTS) goes out after SIFS.
    Respond {
        node: NodeId,
        gen: u32,
    },
    /// ACK or CTS timeout.
    Timeout {
        node: NodeId,
        gen: u32,
    },
    WiredTxEnd {
        link: LinkId,
        dir: u8,
    },
    WiredArrive {
        link: LinkId,
        dir: u8,
        packet: PacketId,
    },
    /// A TCP sender's retransmission timer.
    TcpRto {
        flow: FlowId,
        gen: u32,
    },
    /// A TCP receiver's delayed-ACK timer.
    TcpDelack {
        flow: FlowId,
        gen: u32,
    },
    /// A TCP sender throttled by TCP Small Queues may send again (`tcp_tsq_handler`).
    TcpTsq {
        flow: FlowId,
    },
    /// A paced TCP sender's next departure time (`tcp_pace_kick`, BBR).
    TcpPace {
        flow: FlowId,
    },
    /// A CLAP sender's timer (pacing slot or probe).
    ClapSender {
        flow: FlowId,
        gen: u32,
    },
    /// A CLAP receiver's feedback timer.
    ClapReceiver {
        flow: FlowId,
        gen: u32,
    },
    /// A target beacon transmission time of an AP (11.1.3.2).
    Beacon(NodeId),
    /// An AP's pending beacon may go: the medium has been idle for PIFS.
    BeaconGrant {
        node: NodeId,
        gen: u32,
    },
    /// An 802.11s timer of mesh point `node`: a peer link's (toward `other`), a path's
    /// discovery (toward `other`) or the PREQ queue's.
    Mesh {
        node: NodeId,
        other: NodeId,
        timer: MeshTimer,
    },
    /// A timer of the cross-layer scheme `scheme` (its `xlayer::Scheme` bit) at `node`.
    SchemeTimer {
        node: NodeId,
        scheme: u8,
    },
}

/// Which 802.11s timer fired ([`Event::Mesh`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshTimer {
    Plink,
    Path,
    Preq,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_stay_small_and_copy() {
        // The heap moves events by value; keep them at two words.
        assert!(std::mem::size_of::<Event>() <= 16, "{}", std::mem::size_of::<Event>());
    }
}
