//! The world's capture: each frame and packet recorded in the frames trace (pcap export,
//! docs/pcap.md) where it is sent or decoded. The header bytes are written by `capture`.

use crate::capture::TcpWire;
use crate::capture::IBSS_BSSID;
use crate::capture::MESH_DATA_HEADER_BYTES;
use crate::capture::WLAN_IFACE;
use crate::capture::{
    beacon_body, ds_bits, ht_channel, ip_headers, llc_snap, mac_header_mesh, mesh_beacon_body, radiotap,
    rates_500kbps, timestamp_offset,
};
use crate::ids::NodeId;
use crate::mac::frame::{Frame, FrameKind};
use crate::time::SimTime;
use crate::world::World;

impl World {
    /// Record a wireless frame at `node` (sent or decoded) in the frames trace, if it is on.
    #[inline(always)]
    pub(crate) fn capture_wlan(&mut self, time: SimTime, node: NodeId, rx: bool, frame: &Frame) {
        if self.traces.frames.is_some() {
            if frame.subframes == 0 {
                self.capture_wlan_on(time, node, rx, frame, None);
            } else if !rx {
                // A sent A-MPDU: one record per subframe; received ones are recorded where
                // each subframe is decided (`rx_ampdu`).
                let reference = self.next_ampdu_reference();
                let mut subs = std::mem::take(&mut self.wifi.subframe_scratch);
                self.wifi.subframes(frame.src, usize::from(frame.ac), &mut subs);
                let n = subs.len();
                for (k, &sub) in subs.iter().enumerate() {
                    self.capture_subframe(time, node, false, frame, sub, (reference, k + 1 == n));
                }
                self.wifi.subframe_scratch = subs;
            }
        }
    }

    /// A fresh A-MPDU reference number for the frames trace.
    pub(crate) fn next_ampdu_reference(&mut self) -> u32 {
        self.traces.frames.as_mut().map_or(0, |t| {
            t.ampdu_refs += 1;
            t.ampdu_refs
        })
    }

    /// Record the subframe `sub` of the A-MPDU `frame` at `node` with its own Retry bit, its
    /// radiotap header carrying the A-MPDU status (`status`: reference number, last or not).
    pub(crate) fn capture_subframe(
        &mut self,
        time: SimTime,
        node: NodeId,
        rx: bool,
        frame: &Frame,
        sub: crate::mac::aggregate::Subframe,
        status: (u32, bool),
    ) {
        let c = crate::mac::frame::Carried {
            packet: Some(sub.packet),
            seq: sub.seq,
            retry: sub.retry,
            ac: frame.ac,
        };
        let sub = Frame::subframe_of(frame, sub.bytes, c);
        self.capture_wlan_on(time, node, rx, &sub, Some(status));
    }

    /// [`World::capture_wlan`] with the frames trace on; kept out of line so that a run
    /// without it pays one test per frame.
    #[inline(never)]
    fn capture_wlan_on(
        &mut self,
        time: SimTime,
        node: NodeId,
        rx: bool,
        frame: &Frame,
        ampdu: Option<(u32, bool)>,
    ) {
        let Some(t) = self.traces.frames.as_mut() else { return };
        let buf = &mut t.head;
        radiotap(buf, self.wifi.cfg.standard, &frame.txv, ampdu);
        let role = |n: NodeId| self.nodes[n.idx()].role;
        let ds = if frame.kind == FrameKind::Data {
            ds_bits((frame.src, role(frame.src)), (frame.dst, role(frame.dst)), self.wifi.bss_ap)
        } else {
            (false, false, IBSS_BSSID) // control and management frames carry no DS bits here
        };
        let header = self.wifi.cfg.data_header_bytes;
        let (four, mesh) = (header >= 30, header == MESH_DATA_HEADER_BYTES);
        let bitmap = self.wifi.block_ack_bitmap(frame.src);
        mac_header_mesh(buf, frame, self.wifi.cfg.qos, ds, four, mesh, bitmap);
        if frame.kind == FrameKind::Beacon {
            let cfg = &self.wifi.cfg;
            let interval_tu = cfg.beacon.map_or(100, |b| b.interval.ns() / 1_024_000) as u16;
            let (basic, tsf) =
                (cfg.control_txv.mode.rate_kbps(), (time + timestamp_offset(&frame.txv)).ns() / 1000);
            if self.mesh.is_some() {
                mesh_beacon_body(buf, cfg.standard, basic, tsf, interval_tu);
            } else {
                beacon_body(buf, cfg.standard, basic, tsf, interval_tu);
            }
        }
        if let (FrameKind::Action, Some(id)) = (frame.kind, frame.packet) {
            if let Some(m) = self.mesh.as_ref().map(|m| m.frame(self.packets.get(id))) {
                let cfg = &self.wifi.cfg;
                let rates = rates_500kbps(cfg.standard, cfg.control_txv.mode.rate_kbps());
                let ht = ht_channel(cfg.standard);
                crate::mesh::frame::action_body(buf, &m, (frame.src, frame.dst), &rates, ht);
            }
        }
        if let (FrameKind::Data, Some(id)) = (frame.kind, frame.packet) {
            llc_snap(buf);
            let p = self.packets.get(id);
            let flow = &self.flows[p.flow.idx()];
            let wire = self.tcps[p.flow.idx()].as_ref().map(|c| TcpWire::of(&c.snd.p));
            ip_headers(buf, p, wire, p.src == flow.src);
        }
        t.push(time, node, WLAN_IFACE, rx, frame.kind.name(), frame.retry, frame.bytes);
    }

    /// Record a packet on wired link `link` at `node` in the frames trace, if it is on.
    pub(crate) fn capture_wired(
        &mut self,
        time: SimTime,
        node: NodeId,
        link: u32,
        rx: bool,
        id: crate::ids::PacketId,
    ) {
        let Some(t) = self.traces.frames.as_mut() else { return };
        let p = self.packets.get(id);
        let flow = &self.flows[p.flow.idx()];
        let wire = self.tcps[p.flow.idx()].as_ref().map(|c| TcpWire::of(&c.snd.p));
        ip_headers(&mut t.head, p, wire, p.src == flow.src);
        t.push(time, node, link + 1, rx, "ip", false, p.ip_bytes);
    }
}
