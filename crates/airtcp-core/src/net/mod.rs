//! Network layer: packets, static routing, wired point-to-point links, UDP applications.

pub mod codel;
pub mod fq_codel;
pub mod iface;
pub mod qdisc;
pub mod routing;
pub mod txq;

use std::collections::VecDeque;

use crate::ids::{FlowId, LinkId, NodeId, PacketId};
use crate::spec::{FlowKind, FlowSpec};
use crate::time::{Dur, SimTime};

/// A packet: headers are accounted as sizes, no byte buffers.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub flow: FlowId,
    pub seq: u32,
    pub src: NodeId,
    pub dst: NodeId,
    /// IP packet size [bytes] (payload + UDP + IPv4 headers).
    pub ip_bytes: u32,
    pub payload_bytes: u32,
    pub created: SimTime,
    /// Access category index (0 BK, 1 BE, 2 VI, 3 VO).
    pub ac: u8,
    /// The TCP segment this packet carries, if any.
    pub tcp: Option<crate::tcp::conn::Segment>,
    /// The CLAP data segment or feedback this packet carries, if any.
    pub clap: Option<crate::clap::ClapPacket>,
    /// A TCP sender's packet its socket is charged for until its node's device frees it
    /// (TCP Small Queues, `tcp_wfree`); cleared on the copies the next hops receive.
    pub tsq: bool,
}

/// The flow of packets that belong to none: 802.11s management frames, whose `seq` is the
/// slot of the sender's packet, where `MeshWorld::frames` keeps the frame (so that every
/// packet stays small; receivers read it while the sender's packet lives).
pub const NO_FLOW: FlowId = FlowId(u32::MAX);

impl Packet {
    /// A packet of flow `f` from `src` to `dst` created at `now`, carrying no transport
    /// segment yet (set `tcp` or `clap` with struct update syntax).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        flow: FlowId,
        seq: u32,
        src: NodeId,
        dst: NodeId,
        ip_bytes: u32,
        payload_bytes: u32,
        created: SimTime,
        ac: u8,
    ) -> Packet {
        Packet {
            flow,
            seq,
            src,
            dst,
            ip_bytes,
            payload_bytes,
            created,
            ac,
            tcp: None,
            clap: None,
            tsq: false,
        }
    }
}

/// Packets live in a slab and travel by id; freed slots are reused, so the steady state
/// allocates nothing.
pub struct PacketSlab {
    slots: Vec<Packet>,
    free: Vec<u32>,
}

impl PacketSlab {
    pub fn with_capacity(n: usize) -> Self {
        PacketSlab { slots: Vec::with_capacity(n), free: Vec::with_capacity(n) }
    }
    pub fn alloc(&mut self, p: Packet) -> PacketId {
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = p;
            PacketId(i)
        } else {
            self.slots.push(p);
            PacketId(self.slots.len() as u32 - 1)
        }
    }
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id.idx()]
    }
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id.idx()]
    }
    pub fn free(&mut self, id: PacketId) {
        self.free.push(id.0);
    }
    /// Slots in use (for leak checks in tests).
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

/// The IPv4-like address of a node: 10.0.0.0/8, host part = index + 1 (10.0.0.1 is node 0).
pub fn ipv4_address(node: NodeId) -> [u8; 4] {
    let host = node.0 + 1;
    [10, (host >> 16) as u8, (host >> 8) as u8, host as u8]
}

/// One application flow and its statistics (report counters, zeroed when the measured period
/// starts: [`Flow::start_measuring`]).
#[derive(Clone, Debug)]
pub struct Flow {
    pub kind: FlowKind,
    pub src: NodeId,
    pub dst: NodeId,
    pub payload_bytes: u32,
    pub ac: u8,
    pub start: SimTime,
    pub stop: Option<SimTime>,
    pub interval: Dur,
    pub next_seq: u32,
    pub sent: u64,
    pub delivered: u64,
    pub delivered_bytes: u64,
    pub delay_sum_ns: u128,
    pub lost: u64,
    /// A saturating source that shares its node's queue with another one: they take turns
    /// (`World::refill`).
    pub shares_queue: bool,
    /// Goodput bytes per reporting interval after the warm-up (iperf-like), if asked for.
    pub report_every: Option<Dur>,
    pub report_bytes: Vec<u64>,
    /// Poisson and on/off sources: their draws and the on/off state.
    pub pacing: Pacing,
}

/// The random timing of a Poisson or on/off source: counter-based draws keyed by the flow's
/// stream (`rng::Draws`: the same gaps for a seed whatever else the run draws), and where an
/// on/off source is in its cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pacing {
    pub seed: u64,
    pub stream: u64,
    pub draws: u64,
    pub on_off: Option<crate::spec::OnOffSpec>,
    /// On/off: whether the first off period was drawn, whether an on period runs, until
    /// when, and how far the last one got toward its next packet (ns-3's `m_residualBits`,
    /// in time).
    pub started: bool,
    pub on: bool,
    pub on_until: SimTime,
    pub residual: Dur,
}

impl Pacing {
    /// The next uniform in (0, 1) of this flow's stream.
    pub(crate) fn open01(&mut self) -> f64 {
        self.draws += 1;
        crate::rng::Draws::new(crate::rng::TAG_TRAFFIC, self.seed, self.stream, self.draws).open01()
    }

    /// A period of mean `mean_ns` of the on/off source's distribution [ns], at least 1.
    pub(crate) fn period(&mut self, mean_ns: u64) -> Dur {
        let o = self.on_off.expect("an on/off source");
        let (m, u) = (mean_ns as f64, self.open01());
        let x = match o.distribution {
            crate::spec::PeriodDist::Exponential => -m * u.ln(),
            // Inverse transform of Pareto(scale, shape): scale / u^(1/shape).
            crate::spec::PeriodDist::Pareto => {
                m * (o.pareto_shape - 1.0) / o.pareto_shape / u.powf(1.0 / o.pareto_shape)
            }
        };
        Dur(x.round().clamp(1.0, 1e18) as u64)
    }
}

impl Flow {
    pub fn new(f: &FlowSpec, interval: Dur) -> Flow {
        Flow {
            kind: f.kind,
            src: NodeId(f.src),
            dst: NodeId(f.dst),
            payload_bytes: f.payload_bytes,
            ac: f.ac.index(),
            start: SimTime(f.start_ns),
            stop: f.stop_ns.map(SimTime),
            interval,
            next_seq: 0,
            sent: 0,
            delivered: 0,
            delivered_bytes: 0,
            delay_sum_ns: 0,
            lost: 0,
            shares_queue: false,
            report_every: f.report_interval_ns.map(Dur),
            report_bytes: Vec::new(),
            pacing: Pacing { on_off: f.on_off, ..Pacing::default() },
        }
    }

    /// The measured period starts: the statistics start from zero.
    pub fn start_measuring(&mut self) {
        (self.sent, self.delivered, self.delivered_bytes, self.delay_sum_ns, self.lost) = (0, 0, 0, 0, 0);
        self.report_bytes.clear();
    }

    pub(crate) fn active(&self, now: SimTime) -> bool {
        now >= self.start && self.stop.is_none_or(|s| now < s)
    }
}

/// Point-to-point wired link, full duplex: direction 0 is a -> b, 1 is b -> a.
pub struct WiredLink {
    pub ends: [NodeId; 2],
    pub rate_bps: u64,
    pub delay: Dur,
    pub queue_limit: usize,
    pub dirs: [WiredDir; 2],
    /// Per-packet loss probability per direction, and the random stream.
    pub loss: [f64; 2],
    pub rng: crate::rng::Stream,
}

#[derive(Default)]
pub struct WiredDir {
    /// The packet on the wire (at the front while `busy`), then those waiting.
    pub queue: VecDeque<PacketId>,
    pub busy: bool,
    /// Packets dropped at this end's full queue, and lost on the wire (netem loss): the link's
    /// own report counters, not the MAC's.
    pub drops_queue: u64,
    pub lost: u64,
}

impl WiredDir {
    /// Whether the queue has no room for another packet: `limit` packets wait, the one on the
    /// wire not counted (ns-3 `PointToPointNetDevice::Send` dequeues it before
    /// `TransmitStart`; Linux's qdisc hands it to the driver).
    pub fn full(&self, limit: usize) -> bool {
        self.queue.len() - usize::from(self.busy) >= limit
    }
}

/// PPP framing that a point-to-point link adds to each IP packet (RFC 1661; as ns-3's
/// PointToPointNetDevice does).
pub const PPP_HEADER_BYTES: u32 = 2;

impl WiredLink {
    pub fn new(a: NodeId, b: NodeId, rate_bps: u64, delay: Dur, queue_limit: usize) -> Self {
        let rng = crate::rng::Stream::derive(0, 0, crate::rng::Purpose::LinkLoss);
        WiredLink {
            ends: [a, b],
            rate_bps,
            delay,
            queue_limit,
            dirs: Default::default(),
            loss: [0.0; 2],
            rng,
        }
    }

    /// Serialisation time of an IP packet [ns], rounded up.
    pub fn tx_time(&self, ip_bytes: u32) -> Dur {
        let bits = u128::from(ip_bytes + PPP_HEADER_BYTES) * 8;
        Dur((bits * 1_000_000_000).div_ceil(u128::from(self.rate_bps)) as u64)
    }
}

/// The interface a packet leaves on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Hop {
    Wired(LinkId, u8),
    Wifi(NodeId),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_unique_within_10_slash_8() {
        assert_eq!(ipv4_address(NodeId(0)), [10, 0, 0, 1]);
        assert_eq!(ipv4_address(NodeId(255)), [10, 0, 1, 0]);
        assert_eq!(ipv4_address(NodeId(70_000)), [10, 1, 17, 113]);
    }

    #[test]
    fn wired_serialisation_time() {
        // 1528-byte IP packet + 2 PPP = 12240 bits at 10 Mbit/s = 1.224 ms (hand computed).
        let l = WiredLink::new(NodeId(0), NodeId(1), 10_000_000, Dur::from_ms(2), 10);
        assert_eq!(l.tx_time(1528), Dur(1_224_000));
    }
}
