//! Traces: typed records appended to columns, each kind switched on by the spec.
//! A switched-off trace costs one branch per record and allocates nothing.

use crate::mac::frame::Frame;
use crate::spec::TraceSpec;
use crate::time::SimTime;
use crate::wireless::Outcome;

/// One column of a trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    U64(Vec<u64>),
    U32(Vec<u32>),
    Str(Vec<&'static str>),
    Bool(Vec<bool>),
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
}

/// Every delivered packet: the raw material of delay distributions.
#[derive(Default)]
pub struct PacketTrace {
    pub flow: Vec<u32>,
    pub seq: Vec<u32>,
    pub created_ns: Vec<u64>,
    pub delivered_ns: Vec<u64>,
}

pub struct Traces {
    pub mac_tx: Option<MacTxTrace>,
    pub packets: Option<PacketTrace>,
}

impl Traces {
    pub fn new(spec: TraceSpec) -> Traces {
        Traces {
            mac_tx: spec.mac_tx.then(MacTxTrace::default),
            packets: spec.packets.then(PacketTrace::default),
        }
    }

    pub fn mac_tx(&mut self, start: SimTime, end: SimTime, frame: &Frame, outcome: Outcome) {
        if let Some(t) = &mut self.mac_tx {
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
