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
