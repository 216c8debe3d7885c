//! LN-MAC's per-connection state (paper 004, section II-B): the two ends of a wireless link
//! track TCP sequence numbers so the receiving MAC can tell its TCP receiver that a segment
//! vanished over the air.
//!
//! The transmitting MAC keeps, per TCP connection, SN_T: the sequence number of the last
//! segment it attempted (successful or not, footnote 1), and carries it in every frame next
//! to the segment's own sequence number (paper Fig. 3). The receiving MAC keeps SN_R, the
//! sequence number of the last segment it received. When a frame arrives whose carried SN_T
//! differs from SN_R, the segment SN_T was attempted and never arrived: the MAC injects an
//! empty segment with sequence number SN_T and the CDO option toward the TCP receiver, which
//! answers with CNO. Sequence numbers are compared for equality only, so they wrap around
//! 2^32 with no special case. A connection is its flow and direction (`Conn`); a MAC holds a
//! handful of them, kept in a small vector (no allocation per frame once they are known).
//!
//! [`LnMac`] is the scheme at one node ([`super::Hooks`]): it stamps SN_T on the data frames
//! it puts on the air and feeds SN_R from the data frames addressed to it that arrive intact.

use super::{Action, Controls, Hooks, View};
use crate::ids::{FlowId, NodeId, TxId};
use crate::mac::frame::{Frame, FrameKind};
use crate::tcp::conn::{Segment, ACK, CDO_OPTION_BYTES, OPT_CDO, TCP_IP_HEADER_BYTES};

/// LN-MAC at one node: both ends of its links.
#[derive(Clone, Debug, Default)]
pub struct LnMac {
    pub tx: LnMacTx,
    pub rx: LnMacRx,
}

impl Hooks for LnMac {
    /// A data frame just put on the air: if it carries a TCP segment, the MAC records the
    /// segment's sequence number as SN_T of its connection and the frame carries the previous
    /// SN_T (paper 004 II-B, Fig. 3). A control frame carries no segment.
    fn frame_sent(&mut self, _tx: TxId, frame: &Frame, v: &dyn View, _c: &mut Controls) -> u32 {
        let Some(id) = frame.packet else { return 0 };
        let p = v.packet(id);
        let Some(seg) = p.tcp else { return 0 };
        self.tx.attempt(Conn { flow: p.flow, from: p.src }, seg.seq as u32)
    }

    /// A data frame addressed to this node arrived intact: if the SN_T it carries is not the
    /// last segment received (SN_R), that segment vanished over the air, and the MAC sends an
    /// empty segment with the CDO and sequence number SN_T toward the TCP receiver, which
    /// answers with a CNO (paper 004 II-B); sent before the frame's own segment goes up.
    fn frame_heard(&mut self, frame: &Frame, sn_t: u32, v: &dyn View, c: &mut Controls) {
        if frame.kind != FrameKind::Data || frame.dst != c.node {
            return;
        }
        let Some(id) = frame.packet else { return };
        let p = v.packet(id);
        let Some(seg) = p.tcp else { return };
        let Some(lost) = self.rx.receive(Conn { flow: p.flow, from: p.src }, seg.seq as u32, sn_t) else {
            return;
        };
        // Back to 64-bit sequence space from the 32-bit SN_T: it lies within 2^31 of the
        // segment that carried it, before it or (when that segment is a TCP retransmission)
        // after it.
        let Some(seq) = seq_near(seg.seq, lost) else { return };
        let segment =
            Segment { seq, ack: seg.ack, flags: ACK, wnd: seg.wnd, opts: OPT_CDO, ..Segment::default() };
        c.push(Action::NotifyReceiver {
            carrier: id,
            segment,
            ip_bytes: TCP_IP_HEADER_BYTES + CDO_OPTION_BYTES,
        });
    }
}

/// The 64-bit sequence number whose low 32 bits are `low` and which lies within 2^31 of `near`
/// (RFC 9293 3.4's modular comparison); None below 0.
fn seq_near(near: u64, low: u32) -> Option<u64> {
    let d = i64::from(low.wrapping_sub(near as u32) as i32);
    near.checked_add_signed(d)
}

/// A TCP connection in one direction: its flow and the node its segments come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conn {
    pub flow: FlowId,
    pub from: NodeId,
}

/// The transmitting end: SN_T per connection.
#[derive(Clone, Debug, Default)]
pub struct LnMacTx {
    last: Vec<(Conn, u32)>,
}

impl LnMacTx {
    /// A frame carrying segment `seq` of `conn` is about to be attempted: the SN_T to carry
    /// in it (the last segment attempted before this one; `seq` itself for the connection's
    /// first, so a first frame announces no loss), after which SN_T is `seq`.
    pub fn attempt(&mut self, conn: Conn, seq: u32) -> u32 {
        match self.last.iter_mut().find(|(c, _)| *c == conn) {
            Some((_, sn_t)) => std::mem::replace(sn_t, seq),
            None => {
                self.last.push((conn, seq));
                seq
            }
        }
    }
}

/// The receiving end: SN_R per connection.
#[derive(Clone, Debug, Default)]
pub struct LnMacRx {
    last: Vec<(Conn, u32)>,
}

impl LnMacRx {
    /// A frame of `conn` carrying segment `seq` and the sender's SN_T `sn_t` was received:
    /// the sequence number of a segment that vanished (to notify with an empty CDO segment),
    /// if SN_T is not the last segment received; SN_R becomes `seq`. A connection's first
    /// frame sets SN_R and notifies nothing. One choice the paper leaves open: a MAC retry of
    /// a lost frame carries SN_T = its own sequence number, and when that copy gets through
    /// the segment is not notified (it has just arrived; the paper's literal "if they do not
    /// match" would ask TCP to resend it).
    pub fn receive(&mut self, conn: Conn, seq: u32, sn_t: u32) -> Option<u32> {
        match self.last.iter_mut().find(|(c, _)| *c == conn) {
            Some((_, sn_r)) => {
                let lost = (*sn_r != sn_t && sn_t != seq).then_some(sn_t);
                *sn_r = seq;
                lost
            }
            None => {
                self.last.push((conn, seq));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn conn(flow: u32) -> Conn {
        Conn { flow: FlowId(flow), from: NodeId(0) }
    }

    /// Segments `seqs` attempted in order by the sender, each delivered or not: the
    /// notifications the receiver makes.
    fn run(attempts: &[(u32, bool)]) -> Vec<u32> {
        let (mut tx, mut rx) = (LnMacTx::default(), LnMacRx::default());
        let mut notes = Vec::new();
        for &(seq, delivered) in attempts {
            let sn_t = tx.attempt(conn(1), seq);
            if delivered {
                notes.extend(rx.receive(conn(1), seq, sn_t));
            }
        }
        notes
    }

    #[test]
    fn matching_sequence_numbers_notify_nothing() {
        // Every segment arrives: SN_T carried = the previous segment = SN_R (paper II-B).
        assert_eq!(run(&[(1, true), (1461, true), (2921, true)]), Vec::<u32>::new());
    }

    #[test]
    fn a_segment_lost_over_the_air_is_notified_at_the_next_frame() {
        // 1461 is attempted and lost (retry limit), 2921 arrives carrying SN_T = 1461 while
        // SN_R = 1: the receiver notifies 1461.
        assert_eq!(run(&[(1, true), (1461, false), (2921, true)]), vec![1461]);
        // A retransmission that gets through is not a loss: the same segment attempted
        // twice, the second copy carrying SN_T = itself.
        assert_eq!(run(&[(1, true), (1461, false), (1461, true), (2921, true)]), Vec::<u32>::new());
    }

    #[test]
    fn only_the_last_attempted_segment_is_named() {
        // Two segments in a row lost: the frame after them carries only the last one (the
        // paper's MAC keeps one SN_T), so one notification, for 2921.
        assert_eq!(run(&[(1, true), (1461, false), (2921, false), (4381, true)]), vec![2921]);
    }

    #[test]
    fn sequence_numbers_wrap_around() {
        // 2^32 - 100 then 1360 (wrapped): equality needs no modular arithmetic.
        let top = u32::MAX - 99;
        let next = top.wrapping_add(1460);
        assert_eq!(next, 1360);
        assert_eq!(run(&[(top, true), (next, true)]), Vec::<u32>::new());
        assert_eq!(run(&[(top - 1460, true), (top, false), (next, true)]), vec![top]);
    }

    #[test]
    fn connections_are_tracked_apart() {
        // Two flows interleaved: flow 2's loss is notified for flow 2 only, and flow 1's
        // SN_R is untouched by flow 2's frames.
        let (mut tx, mut rx) = (LnMacTx::default(), LnMacRx::default());
        let (a, b) = (conn(1), conn(2));
        let mut notes = Vec::new();
        for (c, seq, delivered) in
            [(a, 1, true), (b, 7, true), (b, 8, false), (a, 2, true), (b, 9, true), (a, 3, true)]
        {
            let sn_t = tx.attempt(c, seq);
            if delivered {
                notes.extend(rx.receive(c, seq, sn_t).map(|s| (c.flow.0, s)));
            }
        }
        assert_eq!(notes, vec![(2, 8)]);
        // The same flow in the other direction is another connection.
        let back = Conn { flow: FlowId(1), from: NodeId(5) };
        assert_eq!(tx.attempt(back, 100), 100);
        assert_eq!(rx.receive(back, 100, 100), None);
    }
}
