//! MAC frames: kinds and sizes. Frames are small `Copy` values; packets travel by id.

use crate::ids::{NodeId, PacketId};
use crate::phy::TxVector;
use crate::time::Dur;

/// ACK frame: FC 2 + Duration 2 + RA 6 + FCS 4 (9.3.1.3); the PHY's EIFS uses it too.
pub const ACK_BYTES: u32 = crate::phy::ACK_FRAME_BYTES;
/// CTS frame: same layout as ACK (9.3.1.2).
pub const CTS_BYTES: u32 = 14;
/// RTS frame: FC 2 + Duration 2 + RA 6 + TA 6 + FCS 4 (9.3.1.2).
pub const RTS_BYTES: u32 = 20;
/// Data frame header: FC, Duration, 3 addresses, Sequence Control (9.3.2.1).
pub const DATA_HEADER_BYTES: u32 = 24;
/// QoS Data adds the 2-byte QoS Control field (9.2.4.5).
pub const QOS_DATA_HEADER_BYTES: u32 = 26;
pub const FCS_BYTES: u32 = 4;
/// LLC/SNAP encapsulation of an IP packet in an MSDU (IEEE 802.2, RFC 1042).
pub const LLC_SNAP_BYTES: u32 = 8;
/// Largest MSDU without fragmentation (9.2.4.7.1 / Table 9-19 footnote: 2304 octets).
pub const MAX_MSDU_BYTES: u32 = 2304;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    Data,
    Ack,
    Rts,
    Cts,
    /// A management Beacon (9.3.3.2), broadcast by an AP at each TBTT.
    Beacon,
    /// A compressed BlockAck (9.3.1.8): `seq` is its Starting Sequence Number; its bitmap
    /// is the sender's `Mac::block_ack_bitmap` (kept out of every frame's size).
    BlockAck,
    /// A compressed BlockAckReq (9.3.1.7): `seq` is its Starting Sequence Number.
    BlockAckReq,
    /// A management Action frame (9.3.3.14; 802.11s peering and HWMP, 9.6.16 and 9.6.17):
    /// its body is the packet's `mesh` frame; unicast ones are acknowledged and retried like
    /// data, group-addressed ones sent once.
    Action,
}

impl FrameKind {
    pub fn name(self) -> &'static str {
        match self {
            FrameKind::Data => "data",
            FrameKind::Ack => "ack",
            FrameKind::Rts => "rts",
            FrameKind::Cts => "cts",
            FrameKind::Beacon => "beacon",
            FrameKind::BlockAck => "block_ack",
            FrameKind::BlockAckReq => "block_ack_req",
            FrameKind::Action => "action",
        }
    }
}

/// One frame on the air.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub kind: FrameKind,
    pub src: NodeId,
    pub dst: NodeId,
    /// MPDU size [bytes] including header and FCS.
    pub bytes: u32,
    pub txv: TxVector,
    /// Duration/ID field: how long third parties must set their NAV after the frame ends.
    pub nav: Dur,
    /// The packet a data frame carries.
    pub packet: Option<PacketId>,
    /// MAC sequence number of a data frame (duplicate detection, 10.3.2.14).
    pub seq: u16,
    /// Retry bit: this is a retransmission.
    pub retry: bool,
    /// Access category index of the data frame (0 BK, 1 BE, 2 VI, 3 VO).
    pub ac: u8,
    /// A data frame's bytes after the MAC header that are headers too: LLC/SNAP, IPv4 and the
    /// TCP or UDP header (the radio model decides them apart from the payload, paper 004's
    /// "headers intact, payload corrupt"); set by the world as the frame goes on the air
    /// under the radio model, 0 otherwise.
    pub upper_bytes: u16,
    /// Subframes of the A-MPDU this PPDU carries (its MPDUs are the sender's aggregate,
    /// `HtTx::agg`; `bytes` is the PSDU's length); 0: a single MPDU, not aggregated.
    pub subframes: u16,
}

/// What an MPDU carries beyond its addresses and PHY: the packet, its sequence number, the
/// Retry bit and its access category.
#[derive(Clone, Copy, Debug)]
pub struct Carried {
    pub packet: Option<PacketId>,
    pub seq: u16,
    pub retry: bool,
    pub ac: u8,
}

/// The frames the MAC sends, one constructor per shape (issue 32: no frame built by hand).
impl Frame {
    /// An MPDU of `kind` (data, management, Beacon, BlockAck/BlockAckReq) from `src` to `dst`,
    /// `bytes` long at `txv`, Duration `nav`, carrying `c`; not aggregated, no upper headers
    /// sized yet (the world sizes them as it goes on the air).
    pub fn mpdu(
        kind: FrameKind,
        (src, dst): (NodeId, NodeId),
        bytes: u32,
        txv: TxVector,
        nav: Dur,
        c: Carried,
    ) -> Frame {
        let Carried { packet, seq, retry, ac } = c;
        Frame { kind, src, dst, bytes, txv, nav, packet, seq, retry, ac, upper_bytes: 0, subframes: 0 }
    }

    /// The RTS that protects `data` (10.3.2.5), at `txv` with Duration `nav`: `data`'s
    /// addresses, sequence number and access category; a control frame carries no packet and
    /// no Retry bit (9.2.4.1.4).
    pub fn rts_for(data: &Frame, txv: TxVector, nav: Dur) -> Frame {
        Frame {
            kind: FrameKind::Rts,
            bytes: RTS_BYTES,
            txv,
            nav,
            packet: None,
            retry: false,
            subframes: 0,
            ..*data
        }
    }

    /// The control response `kind` (a CTS) that `src` sends to the sender of `req`, `bytes`
    /// long at `txv` with Duration `nav`; `req`'s other fields kept.
    pub fn response_to(
        req: &Frame,
        kind: FrameKind,
        src: NodeId,
        bytes: u32,
        txv: TxVector,
        nav: Dur,
    ) -> Frame {
        Frame { kind, src, dst: req.src, bytes, txv, nav, packet: None, ..*req }
    }

    /// Subframe `bytes` long of the A-MPDU `ppdu`, carrying `c`'s packet, sequence number and
    /// Retry bit (its own: 10.12), as a frame of its own (the capture records each).
    pub fn subframe_of(ppdu: &Frame, bytes: u32, c: Carried) -> Frame {
        Frame { bytes, packet: c.packet, seq: c.seq, retry: c.retry, subframes: 0, ..*ppdu }
    }

    /// The A-MPDU of `n` subframes (a PSDU of `bytes`), its first MPDU's `c`, from `src` to
    /// `dst` at `txv`, Duration `nav`.
    pub fn ampdu(
        (src, dst): (NodeId, NodeId),
        bytes: u32,
        txv: TxVector,
        nav: Dur,
        c: Carried,
        n: u16,
    ) -> Frame {
        Frame { subframes: n, ..Frame::mpdu(FrameKind::Data, (src, dst), bytes, txv, nav, c) }
    }
}

/// The SSID every airtcp AP announces (an SSID element of 6 bytes).
pub const SSID: &[u8; 6] = b"airtcp";

/// The body of a Beacon (9.3.3.2, the elements of 9.4.2 in Table 9-27's order): Timestamp 8,
/// Beacon Interval 2, Capability 2; SSID; Supported Rates (up to 8 rates, the rest in Extended
/// Supported Rates); DS Parameter Set (2.4 GHz PHYs only); TIM (DTIM count, period, bitmap
/// control, one bitmap byte). `rates`: the standard's rates.
pub fn beacon_body_bytes(rates: usize, dsss_channel: bool) -> u32 {
    let n = rates as u32;
    let ext = if n > 8 { 2 + (n - 8) } else { 0 };
    12 + (2 + SSID.len() as u32) + (2 + n.min(8)) + ext + if dsss_channel { 3 } else { 0 } + 6
}

/// MPDU size of a data frame with a MAC header of `header_bytes` carrying `ip_bytes`.
pub fn mpdu_bytes(ip_bytes: u32, header_bytes: u32) -> u32 {
    ip_bytes + LLC_SNAP_BYTES + header_bytes + FCS_BYTES
}

/// MPDU size of a data frame carrying an IP packet of `ip_bytes`.
pub fn data_mpdu_bytes(ip_bytes: u32, qos: bool) -> u32 {
    mpdu_bytes(ip_bytes, if qos { QOS_DATA_HEADER_BYTES } else { DATA_HEADER_BYTES })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_1500_byte_udp_payload_is_a_1564_byte_mpdu() {
        // 1500 + 8 UDP + 20 IP = 1528; + 8 LLC/SNAP + 24 header + 4 FCS = 1564 (hand computed).
        assert_eq!(data_mpdu_bytes(1528, false), 1564);
        assert_eq!(data_mpdu_bytes(1528, true), 1566);
    }
}
