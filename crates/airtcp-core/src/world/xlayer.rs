//! The glue of the cross-layer seam: a [`MacEvent`] the MAC made goes to the schemes
//! installed at its node, which act on the layers the world holds.

use super::World;
use crate::event::Event;
use crate::ids::FlowId;
use crate::ids::{NodeId, PacketId, TxId};
use crate::mac::frame::{Frame, FrameKind};
use crate::net::Packet;
use crate::spec::Role;
use crate::tcp::conn::{Segment, ACK, OPT_CDO};
use crate::time::SimTime;
use crate::xlayer::arf_window::{wnd_max, Act, ExchangeTime, Heard};
use crate::xlayer::lnmac::Conn;
use crate::xlayer::{MacEvent, Scheme};

impl World {
    /// A scheme's own timer at `node` fired ([`Event::SchemeTimer`]).
    pub(crate) fn on_scheme_timer(&mut self, node: NodeId, scheme: u8, now: SimTime) {
        if scheme == Scheme::AlmRetry as u8 {
            self.alm_retry_poll(node, now);
        }
    }

    /// Paper 000's remedy at `node` (`xlayer::alm_retry`): read the path table as a user-space
    /// daemon would (`iw dev mesh0 mpath dump`), estimate the diameter, step the retry limit and
    /// set it toward every peer (`iw phy set retry short R long R`: the node's one limit); poll
    /// again after the interval.
    fn alm_retry_poll(&mut self, node: NodeId, now: SimTime) {
        let paths = self.mesh_paths(node, now);
        let interval = self.xlayer.alm_interval;
        let Some(c) = self.xlayer.alm[node.idx()].as_mut() else { return };
        let before = c.limit;
        let dia =
            crate::xlayer::alm_retry::diameter_metric(paths.iter().map(|&(_, nh, metric, _)| (nh, metric)));
        let limit = c.update(dia);
        if limit != before {
            let m = self.mesh.as_mut().expect("a mesh");
            m.counters[node.idx()].retry_limits.push((now, limit));
            let limits = Some(crate::mac::retry::RetryLimits::both(u32::from(limit)));
            for peer in 0..self.nodes.len() {
                self.wifi.set_peer_retry_limits(node, NodeId(peer as u32), limits);
            }
        }
        self.sched.at(now + interval, Event::SchemeTimer { node, scheme: Scheme::AlmRetry as u8 });
    }

    /// Dispatch `ev` to the schemes at its node (the caller checked that one wants it).
    pub(crate) fn on_mac_event(&mut self, ev: MacEvent, now: SimTime) {
        match ev {
            MacEvent::TxDone { node, ac, mode, service_ns, acked, .. } => {
                if self.xlayer.runs(node, Scheme::ArfWindow) {
                    self.arf_tx_done(node, acked, mode, now);
                }
                if self.xlayer.runs(node, Scheme::ClapLink) {
                    let rate_bps = u64::from(mode.rate_kbps()) * 1000;
                    let meter = self.xlayer.clap_link.sample(node, usize::from(ac), service_ns, rate_bps);
                    self.clap_link_report(node, usize::from(ac), meter, now);
                }
            }
            MacEvent::RateChanged { node, mode, .. } => {
                if self.xlayer.runs(node, Scheme::ArfWindow) {
                    let st = self.xlayer.arf[node.idx()].as_mut().expect("paper 003's window runs here");
                    let old = st.tx_mode.replace(mode);
                    if let Some(old) = old.filter(|&o| o != mode) {
                        if let Act::Recompute(o, n) = st.gate.rate_changed(old, mode) {
                            self.arf_apply(node, o, n, now, false);
                        }
                    }
                }
            }
            MacEvent::CorruptRx { .. } => {}
        }
    }

    /// LN-MAC at `node`, a data frame just put on the air as transmission `tx`: if it carries
    /// a TCP segment, the MAC records the segment's sequence number as SN_T of its connection
    /// and the frame carries the previous SN_T (paper 004 II-B, Fig. 3).
    #[inline(never)]
    pub(crate) fn lnmac_stamp(&mut self, node: NodeId, tx: TxId, packet: Option<PacketId>) {
        let Some(id) = packet else { return }; // a control frame carries no segment
        let x = &mut self.xlayer;
        if x.lnmac_sn_t.len() <= tx.idx() {
            x.lnmac_sn_t.resize(tx.idx() + 1, 0);
        }
        x.lnmac_sn_t[tx.idx()] = 0;
        if !x.runs(node, Scheme::LnMac) {
            return;
        }
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
        self.wifi.count_lnmac_notification(node);
        self.send_new(node, packet, now);
    }

    /// Paper 002 at `node`: a data transfer request for the TCP frame carrying `packet` to
    /// `peer`: the averaged rate moves with the rate the frame would go at now (the rate control's
    /// choice for a first attempt, `Station::first_mode`), and the frame's Block-Ack retry limit follows (III-B, III-C).
    #[inline(never)]
    pub(crate) fn ba_retry_request(&mut self, node: NodeId, peer: NodeId, packet: crate::ids::PacketId) {
        let actual_mbps = f64::from(self.wifi.first_mode(node, peer).rate_kbps()) / 1000.0;
        let limit = self.xlayer.ba_retry[node.idx()].request(actual_mbps);
        self.wifi.set_frame_retry_limit(node, packet, Some(limit));
    }

    /// Paper 003 at `node`: its own data frame at `mode` finished; the first success at a new,
    /// higher rate releases the pending increase (III-B-1).
    fn arf_tx_done(&mut self, node: NodeId, acked: bool, mode: crate::phy::ModeId, now: SimTime) {
        let st = self.xlayer.arf[node.idx()].as_mut().expect("paper 003's window runs here");
        if st.tx_mode.is_none() {
            st.tx_mode = Some(mode);
        }
        if acked {
            if let Act::Recompute(o, n) = st.gate.succeeded(mode) {
                self.arf_apply(node, o, n, now, false);
            }
        }
    }

    /// Paper 003 at station `j`: a frame it sent, received or overheard at `now` (III-A): its
    /// exchange's channel time goes to the meter (Eq. 2-4: DIFS + mean backoff [+ RTS + SIFS +
    /// CTS + SIFS] + the frame + its Duration, which covers SIFS + ACK; a beacon's airtime as
    /// t_beacon; RTS, CTS and ACK frames are inside their data frame's exchange). A data frame
    /// from the AP received here at another rate than the last is a change of the receiving
    /// rate, acted on at once: it is itself the first frame received at the new rate.
    #[inline(never)]
    pub(crate) fn arf_heard(&mut self, j: NodeId, frame: &Frame, now: SimTime) {
        if !self.xlayer.runs(j, Scheme::ArfWindow) {
            return;
        }
        let is_ap = |n: NodeId| n != NodeId::BROADCAST && self.nodes[n.idx()].role == Role::Ap;
        let (end, segment) = match frame.kind {
            FrameKind::Beacon => (None, None),
            FrameKind::Data => {
                let end = if is_ap(frame.src) { frame.dst } else { frame.src };
                let seg = frame.packet.and_then(|id| {
                    let p = self.packets.get(id);
                    p.tcp.map(|s| (p.flow, s.len))
                });
                (Some(end), seg)
            }
            _ => return,
        };
        let from_ap = is_ap(frame.src);
        let cfg = &self.wifi.cfg;
        let st = self.xlayer.arf[j.idx()].as_mut().expect("paper 003's window runs here");
        let air = frame.txv.duration(frame.bytes);
        let occupancy_ns = if frame.kind == FrameKind::Beacon {
            air.ns() as f64
        } else {
            let n = st.meter.last().map_or(1, |o| o.ends.len().max(1) as u32);
            ExchangeTime::of(cfg, 0, frame.bytes > cfg.rts_threshold_bytes).exchange_ns(air, frame.nav, n)
        };
        let psdu_bits = f64::from(frame.bytes) * 8.0;
        st.meter.observe(Heard { end, occupancy_ns, psdu_bits, segment }, now);
        if frame.kind == FrameKind::Data && frame.dst == j && from_ap {
            let mode = frame.txv.mode;
            if let Some(old) = st.rx_mode.replace(mode).filter(|&o| o != mode) {
                self.arf_apply(j, old, mode, now, true);
            }
        }
    }

    /// Paper 003 at `node`: its receiving (`receiving`) or sending rate went from `old` to
    /// `new`: each of its TCP connections in that direction gets Eq. 11's window from the last
    /// complete observation slot, as the advertised window (receiver, III-C-2) or the cwnd cap
    /// (sender, III-C-1), within [one segment, the buffer]: a zero window would stall the
    /// connection, which has no persist timer here. Nothing before the first slot has ended,
    /// before the connection has an RTT, or for a connection that sent no segment in the last
    /// slot (not one of the M_i active connections).
    fn arf_apply(
        &mut self,
        node: NodeId,
        old: crate::phy::ModeId,
        new: crate::phy::ModeId,
        now: SimTime,
        receiving: bool,
    ) {
        let Some(obs) = self.xlayer.arf[node.idx()].as_ref().and_then(|s| s.meter.last()).cloned() else {
            return;
        };
        let cfg = self.wifi.cfg;
        for f in 0..self.flows.len() {
            let flow = &self.flows[f];
            if (receiving && flow.dst != node) || (!receiving && flow.src != node) {
                continue;
            }
            let Some(t) = self.tcps[f].as_mut() else { continue };
            let p = if receiving { &t.rcv.p } else { &t.snd.p };
            let rtt = if receiving { t.rcv.rcv_rtt } else { t.snd.rto.srtt() };
            let Some(rtt) = rtt else { continue };
            let (mss, buf, b) = (p.mss, if receiving { p.rcv_buf } else { p.snd_buf }, p.ack_every.max(1));
            let overhead = crate::tcp::conn::TCP_IP_HEADER_BYTES
                + if p.timestamps { crate::tcp::conn::TIMESTAMP_OPTION_BYTES } else { 0 }
                + crate::mac::frame::LLC_SNAP_BYTES
                + cfg.data_header_bytes
                + crate::mac::frame::FCS_BYTES;
            let x = ExchangeTime::of(&cfg, overhead, cfg.rts_threshold_bytes < overhead + mss);
            let slot = obs.slot_for(node, FlowId(f as u32), rtt.ns() as f64 * 1e-9);
            if slot.segment_bytes <= 0.0 {
                // Not among the M_i connections active in T (a stalled slot): no lambda, no
                // channel time; Eq. 8 would give 0. Its window stays as it is.
                continue;
            }
            let w = wnd_max(&x, &slot, old, new, cfg.ack_duration_for(new), b);
            let applied =
                (w.wnd_max_bytes.max(0.0) as u64).clamp(u64::from(mss), u64::from(buf.max(mss))) as u32;
            if receiving {
                t.rcv.wnd_override = Some(applied);
            } else {
                t.snd.set_cwnd_cap(Some(applied.div_ceil(mss)));
            }
            self.traces.window(now, node.0, f as u32, (old, new), w.wnd_max_bytes, applied, receiving);
        }
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
