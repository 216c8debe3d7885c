//! Traces: typed records appended to columns, each kind switched on by the spec.
//! A switched-off trace costs one branch per record and allocates nothing.

use crate::mac::frame::Frame;
use crate::medium::Outcome;
use crate::spec::TraceSpec;
use crate::time::SimTime;

/// One column of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    U64(Vec<u64>),
    U32(Vec<u32>),
    /// Nullable columns: None is a missing value.
    OptU64(Vec<Option<u64>>),
    OptU32(Vec<Option<u32>>),
    Str(Vec<&'static str>),
    Bool(Vec<bool>),
    F64(Vec<f64>),
    /// Variable-length byte strings, concatenated; value i is `data[ends[i-1]..ends[i]]`.
    Bytes {
        data: Vec<u8>,
        ends: Vec<u64>,
    },
}

/// Every MAC transmission: when, who, what, and how it fared at its addressee.
#[derive(Default)]
pub struct MacTxTrace {
    pub start_ns: Vec<u64>,
    pub end_ns: Vec<u64>,
    pub node: Vec<u32>,
    pub dst: Vec<u32>,
    pub kind: Vec<&'static str>,
    pub bytes: Vec<u32>,
    pub retry: Vec<bool>,
    pub outcome: Vec<&'static str>,
    /// The flow of the packet a data frame carries (None: control frames).
    pub flow: Vec<Option<u32>>,
    /// The TCP segment a data frame carries: sequence number, ACK number, payload bytes.
    pub tcp_seq: Vec<Option<u64>>,
    pub tcp_ack: Vec<Option<u64>>,
    pub tcp_len: Vec<Option<u32>>,
    /// When the frame became ready to contend (head of queue or previous attempt's end), and
    /// the backoff slots it drew (10.3.4.3); a response (ACK, CTS): its start and 0.
    pub ready_ns: Vec<u64>,
    pub backoff_slots: Vec<u32>,
}

/// The mac_tx trace's fields beyond the frame itself (the world's wifi glue fills them in).
#[derive(Clone, Copy, Debug)]
pub struct MacTxExtra {
    pub flow: Option<u32>,
    pub segment: Option<(u64, u64, u32)>,
    pub ready: SimTime,
    pub backoff_slots: u32,
}

/// Data-mode changes: at `time_ns`, rate control at `node` moved `peer` to `mode`.
#[derive(Default)]
pub struct RateTrace {
    pub time_ns: Vec<u64>,
    pub node: Vec<u32>,
    pub peer: Vec<u32>,
    pub mode: Vec<&'static str>,
    pub rate_kbps: Vec<u32>,
}

/// Paper 003's ARF-aware window: at `time_ns` station `node` acted on a change of its rate from
/// `old_kbps` to `new_kbps` for connection `flow`: Eq. 11's window and the one it applied (the
/// advertised window as a receiver, the cwnd cap as a sender, in bytes).
#[derive(Default)]
pub struct WindowTrace {
    pub time_ns: Vec<u64>,
    pub node: Vec<u32>,
    pub flow: Vec<u32>,
    pub old_kbps: Vec<u32>,
    pub new_kbps: Vec<u32>,
    pub wnd_max_bytes: Vec<f64>,
    pub applied_bytes: Vec<u32>,
    pub role: Vec<&'static str>,
}

/// 802.11n: every MPDU of an A-MPDU at the end of its PPDU (a BlockAck, or the hardware's
/// last try): its fate, the software retries it has had, and its PPDU (the mac_tx trace holds
/// the PPDUs).
#[derive(Default)]
pub struct MpduTrace {
    pub time_ns: Vec<u64>,
    pub node: Vec<u32>,
    pub peer: Vec<u32>,
    pub ac: Vec<u32>,
    pub seq: Vec<u32>,
    pub flow: Vec<u32>,
    /// "acked", "retry" (queued again) or "dropped" (past its software limit).
    pub fate: Vec<&'static str>,
    pub sw_retries: Vec<u32>,
    /// The PPDU's transmissions, its subframes, and whether a BlockAck answered it.
    pub ppdu_attempts: Vec<u32>,
    pub subframes: Vec<u32>,
    pub block_ack: Vec<bool>,
    /// The subframe's place in its PPDU (0: first) and its start after the PPDU's [ns].
    pub position: Vec<u32>,
    pub offset_ns: Vec<u64>,
}

/// Radio model: every reception a node locked onto, at its end.
#[derive(Default)]
pub struct ReceptionTrace {
    pub time_ns: Vec<u64>,
    pub node: Vec<u32>,
    pub src: Vec<u32>,
    pub kind: Vec<&'static str>,
    pub mode: Vec<&'static str>,
    /// Received power, the fade included [dBm]; its ratio to the noise floor [dB]; the lowest
    /// SINR over the reception's chunks [dB] (the SNR when nothing overlapped).
    pub rx_dbm: Vec<f64>,
    pub snr_db: Vec<f64>,
    pub min_sinr_db: Vec<f64>,
    pub interfered: Vec<bool>,
    pub outcome: Vec<&'static str>,
}

/// Radio model: where a moving node is when it starts a frame.
#[derive(Default)]
pub struct PositionTrace {
    pub time_ns: Vec<u64>,
    pub node: Vec<u32>,
    pub x_m: Vec<f64>,
    pub y_m: Vec<f64>,
    pub z_m: Vec<f64>,
}

/// Every delivered packet: the raw material of delay distributions.
#[derive(Default)]
pub struct PacketTrace {
    pub flow: Vec<u32>,
    pub seq: Vec<u32>,
    pub created_ns: Vec<u64>,
    pub delivered_ns: Vec<u64>,
}

/// One TCP sender state sample.
#[derive(Clone, Copy, Debug)]
pub struct TcpStateRow {
    pub time_ns: u64,
    pub flow: u32,
    pub cwnd: u32,
    pub ssthresh: u32,
    pub srtt_ns: u64,
    pub rto_ns: u64,
    pub in_flight_bytes: u64,
    pub ca_state: &'static str,
    /// The pacing rate [bit/s] of a paced sender (BBR), 0 when it is not paced.
    pub pacing_rate_bps: u64,
}

#[derive(Default)]
pub struct TcpStateTrace {
    pub rows: Vec<TcpStateRow>,
}

/// TCP segment events: at the sender "sent", "retransmit", "acked", "dupack", "timeout",
/// "local_drop" (refused by the sender's own interface under `tcp.local_congestion = "cwr"`:
/// not sent, sent again later); at the receiver "received" (a segment arrived) and
/// "ack_sent". The raw material of sequence diagrams (paper 001).
#[derive(Default)]
pub struct TcpSegmentTrace {
    pub time_ns: Vec<u64>,
    pub flow: Vec<u32>,
    pub event: Vec<&'static str>,
    pub seq: Vec<u64>,
    pub ack: Vec<u64>,
    pub len: Vec<u32>,
}

/// Every frame a node sent or decoded on its wireless interface, and every packet it sent or
/// received on a wired link, with the captured header bytes (crate::capture; docs/pcap.md).
#[derive(Default)]
pub struct FrameTrace {
    /// Wireless: start of the frame (tx and rx alike); wired: start of serialisation (tx),
    /// arrival of the last bit (rx).
    pub time_ns: Vec<u64>,
    /// The capturing node.
    pub node: Vec<u32>,
    /// 0 = the wireless interface; k + 1 = wired link k.
    pub iface: Vec<u32>,
    pub rx: Vec<bool>,
    pub kind: Vec<&'static str>,
    pub retry: Vec<bool>,
    /// Real length: the MPDU incl. FCS (wireless) or the IP packet (wired) [bytes].
    pub bytes: Vec<u32>,
    /// Header bytes of all records, concatenated (radiotap + MAC + LLC + IP + TCP/UDP).
    pub head: Vec<u8>,
    pub head_end: Vec<u64>,
    /// A-MPDU reference numbers handed out (radiotap's A-MPDU status).
    pub ampdu_refs: u32,
}

impl FrameTrace {
    /// Close one record whose header bytes were just appended to `head`.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        time: SimTime,
        node: crate::ids::NodeId,
        iface: u32,
        rx: bool,
        kind: &'static str,
        retry: bool,
        bytes: u32,
    ) {
        self.time_ns.push(time.ns());
        self.node.push(node.0);
        self.iface.push(iface);
        self.rx.push(rx);
        self.kind.push(kind);
        self.retry.push(retry);
        self.bytes.push(bytes);
        self.head_end.push(self.head.len() as u64);
    }
}

pub struct Traces {
    pub frames: Option<FrameTrace>,
    pub mac_tx: Option<MacTxTrace>,
    pub packets: Option<PacketTrace>,
    pub rates: Option<RateTrace>,
    pub receptions: Option<ReceptionTrace>,
    pub positions: Option<PositionTrace>,
    pub windows: Option<WindowTrace>,
    pub mpdus: Option<MpduTrace>,
    pub tcp: Option<TcpStateTrace>,
    pub tcp_segments: Option<TcpSegmentTrace>,
}

impl Traces {
    pub fn new(spec: TraceSpec) -> Traces {
        Traces {
            frames: spec.frames.then(FrameTrace::default),
            mac_tx: spec.mac_tx.then(MacTxTrace::default),
            packets: spec.packets.then(PacketTrace::default),
            rates: spec.rates.then(RateTrace::default),
            receptions: spec.receptions.then(ReceptionTrace::default),
            positions: spec.positions.then(PositionTrace::default),
            windows: spec.windows.then(WindowTrace::default),
            mpdus: spec.mpdus.then(MpduTrace::default),
            tcp: spec.tcp.then(TcpStateTrace::default),
            tcp_segments: spec.tcp_segments.then(TcpSegmentTrace::default),
        }
    }

    /// The measured period starts: the packets trace (deliveries, like the flows' counters)
    /// keeps only what follows; the others record the whole run.
    pub fn start_measuring(&mut self) {
        if let Some(t) = &mut self.packets {
            *t = PacketTrace::default();
        }
    }

    pub fn wants_tcp(&self) -> bool {
        self.tcp.is_some()
    }

    pub fn tcp_state(&mut self, row: TcpStateRow) {
        if let Some(t) = &mut self.tcp {
            t.rows.push(row);
        }
    }

    pub fn tcp_segment(
        &mut self,
        now: SimTime,
        flow: u32,
        seg: &crate::tcp::conn::Segment,
        event: &'static str,
    ) {
        if let Some(t) = &mut self.tcp_segments {
            t.time_ns.push(now.ns());
            t.flow.push(flow);
            t.event.push(event);
            t.seq.push(seg.seq);
            t.ack.push(seg.ack);
            t.len.push(seg.len);
        }
    }

    pub fn mac_tx(&mut self, start: SimTime, end: SimTime, frame: &Frame, outcome: Outcome, x: MacTxExtra) {
        if let Some(t) = &mut self.mac_tx {
            t.flow.push(x.flow);
            t.tcp_seq.push(x.segment.map(|s| s.0));
            t.tcp_ack.push(x.segment.map(|s| s.1));
            t.tcp_len.push(x.segment.map(|s| s.2));
            t.ready_ns.push(x.ready.ns());
            t.backoff_slots.push(x.backoff_slots);
            t.start_ns.push(start.ns());
            t.end_ns.push(end.ns());
            t.node.push(frame.src.0);
            t.dst.push(frame.dst.0);
            t.kind.push(frame.kind.name());
            t.bytes.push(frame.bytes);
            t.retry.push(frame.retry);
            t.outcome.push(outcome.name());
        }
    }

    /// Paper 003's window at station `node` for `flow` after its rate went `modes.0` ->
    /// `modes.1`: Eq. 11's value and the window applied (as a receiver or a sender).
    #[allow(clippy::too_many_arguments)]
    pub fn window(
        &mut self,
        now: SimTime,
        node: u32,
        flow: u32,
        modes: (crate::phy::ModeId, crate::phy::ModeId),
        wnd_max_bytes: f64,
        applied_bytes: u32,
        receiving: bool,
    ) {
        if let Some(t) = &mut self.windows {
            t.time_ns.push(now.ns());
            t.node.push(node);
            t.flow.push(flow);
            t.old_kbps.push(modes.0.rate_kbps());
            t.new_kbps.push(modes.1.rate_kbps());
            t.wnd_max_bytes.push(wnd_max_bytes);
            t.applied_bytes.push(applied_bytes);
            t.role.push(if receiving { "receiver" } else { "sender" });
        }
    }

    /// Rate control at `node` moved `peer` to `mode` at `now`.
    pub fn rate_change(&mut self, now: SimTime, node: u32, peer: u32, mode: crate::phy::ModeId) {
        if let Some(t) = &mut self.rates {
            t.time_ns.push(now.ns());
            t.node.push(node);
            t.peer.push(peer);
            t.mode.push(mode.name());
            t.rate_kbps.push(mode.rate_kbps());
        }
    }

    /// A reception at `node` of `frame` ended at `now` with `outcome`.
    pub fn reception(
        &mut self,
        now: SimTime,
        node: u32,
        frame: &Frame,
        rx: crate::medium::RxInfo,
        outcome: Outcome,
    ) {
        if let Some(t) = &mut self.receptions {
            t.time_ns.push(now.ns());
            t.node.push(node);
            t.src.push(frame.src.0);
            t.kind.push(frame.kind.name());
            t.mode.push(frame.txv.mode.name());
            t.rx_dbm.push(crate::channel::mw_to_dbm(rx.rx_mw));
            t.snr_db.push(crate::channel::ratio_to_db(rx.rx_mw / rx.noise_mw));
            t.min_sinr_db.push(crate::channel::ratio_to_db(rx.min_sinr));
            t.interfered.push(rx.interfered);
            t.outcome.push(outcome.name());
        }
    }

    pub fn position(&mut self, now: SimTime, node: u32, p: [f64; 3]) {
        if let Some(t) = &mut self.positions {
            t.time_ns.push(now.ns());
            t.node.push(node);
            t.x_m.push(p[0]);
            t.y_m.push(p[1]);
            t.z_m.push(p[2]);
        }
    }

    pub fn packet(&mut self, flow: u32, seq: u32, created: SimTime, delivered: SimTime) {
        if let Some(t) = &mut self.packets {
            t.flow.push(flow);
            t.seq.push(seq);
            t.created_ns.push(created.ns());
            t.delivered_ns.push(delivered.ns());
        }
    }

    /// The traces that were switched on, as named columns.
    pub fn into_columns(self) -> Vec<(&'static str, Vec<(&'static str, Column)>)> {
        let mut out = Vec::new();
        if let Some(t) = self.mac_tx {
            out.push((
                "mac_tx",
                vec![
                    ("start_ns", Column::U64(t.start_ns)),
                    ("end_ns", Column::U64(t.end_ns)),
                    ("node", Column::U32(t.node)),
                    ("dst", Column::U32(t.dst)),
                    ("kind", Column::Str(t.kind)),
                    ("bytes", Column::U32(t.bytes)),
                    ("retry", Column::Bool(t.retry)),
                    ("outcome", Column::Str(t.outcome)),
                    ("flow", Column::OptU32(t.flow)),
                    ("tcp_seq", Column::OptU64(t.tcp_seq)),
                    ("tcp_ack", Column::OptU64(t.tcp_ack)),
                    ("tcp_len", Column::OptU32(t.tcp_len)),
                    ("ready_ns", Column::U64(t.ready_ns)),
                    ("backoff_slots", Column::U32(t.backoff_slots)),
                ],
            ));
        }
        if let Some(t) = self.tcp {
            let r = &t.rows;
            out.push((
                "tcp",
                vec![
                    ("time_ns", Column::U64(r.iter().map(|x| x.time_ns).collect())),
                    ("flow", Column::U32(r.iter().map(|x| x.flow).collect())),
                    ("cwnd", Column::U32(r.iter().map(|x| x.cwnd).collect())),
                    ("ssthresh", Column::U32(r.iter().map(|x| x.ssthresh).collect())),
                    ("srtt_ns", Column::U64(r.iter().map(|x| x.srtt_ns).collect())),
                    ("rto_ns", Column::U64(r.iter().map(|x| x.rto_ns).collect())),
                    ("in_flight_bytes", Column::U64(r.iter().map(|x| x.in_flight_bytes).collect())),
                    ("pacing_rate_bps", Column::U64(r.iter().map(|x| x.pacing_rate_bps).collect())),
                    ("ca_state", Column::Str(r.iter().map(|x| x.ca_state).collect())),
                ],
            ));
        }
        if let Some(t) = self.tcp_segments {
            out.push((
                "tcp_segments",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("flow", Column::U32(t.flow)),
                    ("event", Column::Str(t.event)),
                    ("seq", Column::U64(t.seq)),
                    ("ack", Column::U64(t.ack)),
                    ("len", Column::U32(t.len)),
                ],
            ));
        }
        if let Some(t) = self.frames {
            out.push((
                "frames",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("node", Column::U32(t.node)),
                    ("iface", Column::U32(t.iface)),
                    ("rx", Column::Bool(t.rx)),
                    ("kind", Column::Str(t.kind)),
                    ("retry", Column::Bool(t.retry)),
                    ("bytes", Column::U32(t.bytes)),
                    ("head", Column::Bytes { data: t.head, ends: t.head_end }),
                ],
            ));
        }
        if let Some(t) = self.mpdus {
            out.push((
                "mpdus",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("node", Column::U32(t.node)),
                    ("peer", Column::U32(t.peer)),
                    ("ac", Column::U32(t.ac)),
                    ("seq", Column::U32(t.seq)),
                    ("flow", Column::U32(t.flow)),
                    ("fate", Column::Str(t.fate)),
                    ("sw_retries", Column::U32(t.sw_retries)),
                    ("ppdu_attempts", Column::U32(t.ppdu_attempts)),
                    ("subframes", Column::U32(t.subframes)),
                    ("block_ack", Column::Bool(t.block_ack)),
                    ("position", Column::U32(t.position)),
                    ("offset_ns", Column::U64(t.offset_ns)),
                ],
            ));
        }
        if let Some(t) = self.windows {
            out.push((
                "windows",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("node", Column::U32(t.node)),
                    ("flow", Column::U32(t.flow)),
                    ("old_kbps", Column::U32(t.old_kbps)),
                    ("new_kbps", Column::U32(t.new_kbps)),
                    ("wnd_max_bytes", Column::F64(t.wnd_max_bytes)),
                    ("applied_bytes", Column::U32(t.applied_bytes)),
                    ("role", Column::Str(t.role)),
                ],
            ));
        }
        if let Some(t) = self.rates {
            out.push((
                "rates",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("node", Column::U32(t.node)),
                    ("peer", Column::U32(t.peer)),
                    ("mode", Column::Str(t.mode)),
                    ("rate_kbps", Column::U32(t.rate_kbps)),
                ],
            ));
        }
        if let Some(t) = self.receptions {
            out.push((
                "receptions",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("node", Column::U32(t.node)),
                    ("src", Column::U32(t.src)),
                    ("kind", Column::Str(t.kind)),
                    ("mode", Column::Str(t.mode)),
                    ("rx_dbm", Column::F64(t.rx_dbm)),
                    ("snr_db", Column::F64(t.snr_db)),
                    ("min_sinr_db", Column::F64(t.min_sinr_db)),
                    ("interfered", Column::Bool(t.interfered)),
                    ("outcome", Column::Str(t.outcome)),
                ],
            ));
        }
        if let Some(t) = self.positions {
            out.push((
                "positions",
                vec![
                    ("time_ns", Column::U64(t.time_ns)),
                    ("node", Column::U32(t.node)),
                    ("x_m", Column::F64(t.x_m)),
                    ("y_m", Column::F64(t.y_m)),
                    ("z_m", Column::F64(t.z_m)),
                ],
            ));
        }
        if let Some(t) = self.packets {
            out.push((
                "packets",
                vec![
                    ("flow", Column::U32(t.flow)),
                    ("seq", Column::U32(t.seq)),
                    ("created_ns", Column::U64(t.created_ns)),
                    ("delivered_ns", Column::U64(t.delivered_ns)),
                ],
            ));
        }
        out
    }
}
