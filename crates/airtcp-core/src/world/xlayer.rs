//! The glue of the cross-layer seam: a [`MacEvent`] the MAC made goes to the schemes
//! installed at its node, which act on the layers the world holds.

use super::World;
use crate::ids::{NodeId, PacketId, TxId};
use crate::mac::frame::{Frame, FrameKind};
use crate::net::Packet;
use crate::tcp::conn::{Segment, ACK, OPT_CDO};
use crate::time::SimTime;
use crate::xlayer::lnmac::Conn;
use crate::xlayer::{MacEvent, Scheme};

impl World {
    /// Dispatch `ev` to the schemes at its node (the caller checked that one wants it).
    pub(crate) fn on_mac_event(&mut self, ev: MacEvent, now: SimTime) {
        match ev {
            MacEvent::TxDone { node, ac, mode, service_ns, .. } => {
                if self.xlayer.runs(node, Scheme::ClapLink) {
                    let rate_bps = u64::from(mode.rate_kbps()) * 1000;
                    let meter = self.xlayer.clap_link.sample(node, usize::from(ac), service_ns, rate_bps);
                    self.clap_link_report(node, usize::from(ac), meter, now);
                }
            }
            MacEvent::RateChanged { .. } | MacEvent::CorruptRx { .. } => {}
        }
    }

    /// LN-MAC at `node`, a data frame just put on the air as transmission `tx`: if it carries
    /// a TCP segment, the MAC records the segment's sequence number as SN_T of its connection
    /// and the frame carries the previous SN_T (paper 004 II-B, Fig. 3).
    #[inline(never)]
    pub(crate) fn lnmac_stamp(&mut self, node: NodeId, tx: TxId, packet: Option<PacketId>) {
        let x = &mut self.xlayer;
        if packet.is_none() {
            return; // a control frame carries no segment
        }
        if x.lnmac_sn_t.len() <= tx.idx() {
            x.lnmac_sn_t.resize(tx.idx() + 1, 0);
        }
        x.lnmac_sn_t[tx.idx()] = 0;
        if !x.runs(node, Scheme::LnMac) {
            return;
        }
        let Some(id) = packet else { return };
        let p = self.packets.get(id);
        let Some(seg) = p.tcp else { return };
        let conn = Conn { flow: p.flow, from: p.src };
        x.lnmac_sn_t[tx.idx()] = x.lnmac[node.idx()].0.attempt(conn, seg.seq as u32);
    }

    /// LN-MAC at `node`, a data frame addressed to it arrived intact: if the SN_T it carries
    /// is not the last segment received (SN_R), that segment vanished over the air, and the
    /// MAC sends an empty segment with the CDO and sequence number SN_T toward the TCP
    /// receiver, which answers with a CNO (paper 004 II-B). Sent before the frame's own
    /// segment goes up.
    #[inline(never)]
    pub(crate) fn lnmac_receive(&mut self, node: NodeId, tx: TxId, frame: &Frame, now: SimTime) {
        if frame.kind != FrameKind::Data || !self.xlayer.runs(node, Scheme::LnMac) {
            return;
        }
        let Some(id) = frame.packet else { return };
        let p = *self.packets.get(id);
        let Some(seg) = p.tcp else { return };
        let conn = Conn { flow: p.flow, from: p.src };
        let sn_t = self.xlayer.lnmac_sn_t[tx.idx()];
        let Some(lost) = self.xlayer.lnmac[node.idx()].1.receive(conn, seg.seq as u32, sn_t) else {
            return;
        };
        // Back to 64-bit sequence space from the 32-bit SN_T: it lies within 2^31 of the segment
        // that carried it, before it or (when that segment is a TCP retransmission) after it.
        let Some(seq) = seq_near(seg.seq, lost) else { return };
        let note =
            Segment { seq, ack: seg.ack, flags: ACK, wnd: seg.wnd, opts: OPT_CDO, ..Segment::default() };
        let ip_bytes = crate::tcp::conn::TCP_IP_HEADER_BYTES + crate::tcp::conn::CDO_OPTION_BYTES;
        let packet =
            Packet { tcp: Some(note), ..Packet::new(p.flow, 0, p.src, p.dst, ip_bytes, 0, now, p.ac) };
        self.wifi.macs[node.idx()].counters.lnmac_notifications += 1;
        self.send_new(node, packet, now);
    }
}

/// The 64-bit sequence number whose low 32 bits are `low` and which lies within 2^31 of `near`
/// (RFC 9293 3.4's modular comparison); None below 0.
fn seq_near(near: u64, low: u32) -> Option<u64> {
    let d = i64::from(low.wrapping_sub(near as u32) as i32);
    near.checked_add_signed(d)
}

#[cfg(test)]
mod tests {
    use super::seq_near;

    #[test]
    fn a_32_bit_sn_t_goes_back_to_the_segment_it_names_before_or_after_the_carrier() {
        // Behind the carrier (the usual case), ahead of it (the carrier is a TCP retransmission
        // of an older segment, the lost one newer), across a 2^32 wrap, and below 0.
        assert_eq!(seq_near(90_871, 81_085), Some(81_085));
        assert_eq!(seq_near(81_085, 90_871), Some(90_871));
        let top = (1u64 << 32) - 100; // 2^32 - 100, then 1360 past the wrap
        assert_eq!(seq_near(top + 1460, top as u32), Some(top));
        assert_eq!(seq_near(top, (top + 1460) as u32), Some(top + 1460));
        assert_eq!(seq_near((1 << 33) + 5, 1), Some((1 << 33) + 1));
        assert_eq!(seq_near(5, u32::MAX), None);
    }
}
