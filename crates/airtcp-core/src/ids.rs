//! Typed indices into the world's arenas.

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// A node (station, AP, wired host).
    NodeId
);
impl NodeId {
    /// The broadcast address as a frame's destination (a beacon): no node's index.
    pub const BROADCAST: NodeId = NodeId(u32::MAX);

    /// The node's 802 address, as frames, captures and mesh elements carry it: locally
    /// administered unicast 02:00 + (index + 1), like its IPv4 host part; the broadcast
    /// address for [`NodeId::BROADCAST`] (9.2.4.3.3).
    pub fn mac_address(self) -> [u8; 6] {
        if self == NodeId::BROADCAST {
            return [0xff; 6];
        }
        let h = (self.0 + 1).to_be_bytes();
        [0x02, 0x00, h[0], h[1], h[2], h[3]]
    }
}

id!(
    /// A flow (one application source and its sink).
    FlowId
);
id!(
    /// A packet slot in the packet slab.
    PacketId
);
id!(
    /// A wired point-to-point link.
    LinkId
);
id!(
    /// A transmission in flight on the wireless medium.
    TxId
);
