//! RACK (RFC 8985): loss detection by time. Every segment between `snd_una` and the highest
//! sent keeps its latest transmission time and two marks (Linux's `TCPCB_LOST` and
//! `TCPCB_SACKED_RETRANS`); a segment is lost once a segment sent after it has been delivered
//! and the RACK RTT plus a reordering window has passed since it was sent (`tcp_rack_mark_lost`,
//! `tcp_rack_detect_loss` in net/ipv4/tcp_recovery.c). The sender then counts what is in flight
//! and what to resend from these marks (`tcp_packets_in_flight`, `tcp_xmit_retransmit_queue`).
//!
//! Segments sit on the sender's grid (data starts at 1, `mss` bytes each; the last one may be
//! shorter). A record per segment, kept in a ring reused for the connection's life: no
//! allocation per segment once the window has been reached.

use std::collections::VecDeque;

use super::sack::Scoreboard;

/// Marks of a segment.
const LOST: u8 = 1;
/// Retransmitted since it was last marked lost: that copy is in flight.
const RETRANS: u8 = 2;
/// Retransmitted at least once (an ACK of it may be the original's: RFC 8985 6.2 step 2).
const EVER_RETRANS: u8 = 4;

#[derive(Clone, Copy, Debug, Default)]
struct Rec {
    xmit_ns: u64,
    /// The transmission's place in the sender's order: which of two segments sent in the
    /// same nanosecond left later (RFC 8985 breaks such ties by end_seq, which misorders a
    /// retransmission sent after new data).
    order: u64,
    marks: u8,
}

/// What the ACK processing learned from RACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detected {
    /// Segments newly marked lost.
    pub lost: u32,
    /// Of them, retransmissions lost again.
    pub lost_retransmits: u32,
    /// When the reordering timer should fire [ns], if a segment may be lost but is not yet.
    pub reo_at_ns: Option<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct Rack {
    mss: u64,
    /// Sequence of the first record's segment.
    base: u64,
    recs: VecDeque<Rec>,
    /// RFC 8985 RACK.xmit_ts (with its transmission order) and RACK.rtt of the most recently
    /// sent segment known delivered (0: none yet).
    xmit_ns: u64,
    order: u64,
    rtt_ns: u64,
    /// Transmissions so far.
    sent: u64,
}

impl Rack {
    pub fn new(mss: u32) -> Rack {
        Rack { mss: u64::from(mss.max(1)), base: 1, ..Rack::default() }
    }

    fn index(&self, seq: u64) -> Option<usize> {
        (seq >= self.base).then(|| ((seq - self.base) / self.mss) as usize)
    }

    fn seq_of(&self, i: usize) -> u64 {
        self.base + i as u64 * self.mss
    }

    /// A segment starting at `seq` left at `now_ns`: a new one, or a retransmission.
    pub fn on_send(&mut self, seq: u64, now_ns: u64, retransmission: bool) {
        let Some(i) = self.index(seq) else { return };
        while self.recs.len() <= i {
            self.recs.push_back(Rec::default());
        }
        self.sent += 1;
        let r = &mut self.recs[i];
        r.xmit_ns = now_ns;
        r.order = self.sent;
        if retransmission {
            r.marks |= RETRANS | EVER_RETRANS;
        }
    }

    /// A segment refused by the sender's own interface never left: its retransmission mark
    /// goes (Linux keeps the skb lost and not retransmitted).
    pub fn unsend(&mut self, seq: u64) {
        if let Some(r) = self.index(seq).and_then(|i| self.recs.get_mut(i)) {
            r.marks &= !RETRANS;
        }
    }

    /// RFC 8985 6.2 for one delivered segment (cumulatively acknowledged or newly SACKed):
    /// RACK.xmit_ts, end_seq and rtt follow the most recently sent delivered segment, unless
    /// a retransmitted one was delivered sooner than the minimum RTT (the original's ACK).
    fn delivered(&mut self, i: usize, now_ns: u64, min_rtt_ns: u64) {
        let r = self.recs[i];
        let rtt = now_ns.saturating_sub(r.xmit_ns);
        if r.marks & EVER_RETRANS != 0 && rtt < min_rtt_ns {
            return;
        }
        if (r.xmit_ns, r.order) > (self.xmit_ns, self.order) {
            (self.xmit_ns, self.order, self.rtt_ns) = (r.xmit_ns, r.order, rtt);
        }
    }

    /// The segments of [start, end) the scoreboard did not hold before are delivered now.
    pub fn on_sacked(&mut self, sb: &Scoreboard, start: u64, end: u64, now_ns: u64, min_rtt_ns: u64) {
        let Some(mut i) = self.index(start.max(self.base)) else { return };
        while i < self.recs.len() {
            let s = self.seq_of(i);
            let e = s + self.mss;
            if s >= end {
                break;
            }
            if s >= start && !sb.is_sacked(s, e.min(end)) {
                self.delivered(i, now_ns, min_rtt_ns);
            }
            i += 1;
        }
    }

    /// The cumulative ACK reached `una`: the segments below it are delivered and forgotten.
    pub fn on_cumulative(&mut self, una: u64, now_ns: u64, min_rtt_ns: u64) {
        // Segments go whole: an ACK into one (the last, shorter one, then the FIN's sequence)
        // acknowledges all of it.
        while !self.recs.is_empty() && self.base < una {
            self.delivered(0, now_ns, min_rtt_ns);
            self.recs.pop_front();
            self.base += self.mss;
        }
    }

    /// RFC 8985 6.2 step 5 / Linux `tcp_rack_detect_loss`: every segment not SACKed, and not
    /// already lost and waiting to be resent, that was sent before RACK.xmit_ts is lost once
    /// RACK.rtt + `reo_wnd_ns` has passed since it was sent; else the timer should fire then.
    pub fn detect(&mut self, sb: &Scoreboard, high_data: u64, now_ns: u64, reo_wnd_ns: u64) -> Detected {
        let mut out = Detected::default();
        if self.xmit_ns == 0 {
            return out;
        }
        for i in 0..self.recs.len() {
            let s = self.seq_of(i);
            if s >= high_data {
                break;
            }
            let e = (s + self.mss).min(high_data);
            let r = self.recs[i];
            if sb.is_sacked(s, e) || (r.marks & LOST != 0 && r.marks & RETRANS == 0) {
                continue;
            }
            if (r.xmit_ns, r.order) >= (self.xmit_ns, self.order) {
                continue;
            }
            let waited = now_ns.saturating_sub(r.xmit_ns);
            let deadline = self.rtt_ns + reo_wnd_ns;
            if waited >= deadline {
                let r = &mut self.recs[i];
                out.lost_retransmits += u32::from(r.marks & RETRANS != 0);
                r.marks = (r.marks | LOST) & !RETRANS;
                out.lost += 1;
            } else {
                let at = r.xmit_ns + deadline;
                out.reo_at_ns = Some(out.reo_at_ns.map_or(at, |t: u64| t.max(at)));
            }
        }
        out
    }

    /// Linux `tcp_enter_loss`: every segment not SACKed is lost, no retransmission in flight.
    /// Returns how many were not marked lost before (what `tp->lost` counts).
    pub fn mark_all_lost(&mut self, sb: &Scoreboard, high_data: u64) -> u32 {
        let mut newly = 0;
        for i in 0..self.recs.len() {
            let s = self.seq_of(i);
            let e = (s + self.mss).min(high_data);
            if s < high_data && !sb.is_sacked(s, e) {
                newly += u32::from(self.recs[i].marks & LOST == 0);
                self.recs[i].marks = (self.recs[i].marks | LOST) & !RETRANS;
            }
        }
        newly
    }

    /// Forget every mark (an RTO under RFC 6675 5.1, which drops the scoreboard too).
    pub fn clear_marks(&mut self) {
        for r in &mut self.recs {
            r.marks &= EVER_RETRANS;
        }
    }

    /// Linux `tcp_packets_in_flight` in segments: each segment not SACKed counts 1, less 1 if
    /// lost, plus 1 while a retransmission of it is in flight.
    pub fn pipe(&self, sb: &Scoreboard, high_data: u64) -> u32 {
        let mut n = 0u32;
        for (i, r) in self.recs.iter().enumerate() {
            let s = self.seq_of(i);
            if s >= high_data {
                break;
            }
            if sb.is_sacked(s, (s + self.mss).min(high_data)) {
                continue;
            }
            n += u32::from(r.marks & LOST == 0) + u32::from(r.marks & RETRANS != 0);
        }
        n
    }

    /// The first segment marked lost and not resent since (`tcp_xmit_retransmit_queue`).
    pub fn next_lost(&self, sb: &Scoreboard, high_data: u64) -> Option<u64> {
        for (i, r) in self.recs.iter().enumerate() {
            let s = self.seq_of(i);
            if s >= high_data {
                break;
            }
            if r.marks & LOST != 0
                && r.marks & RETRANS == 0
                && !sb.is_sacked(s, (s + self.mss).min(high_data))
            {
                return Some(s);
            }
        }
        None
    }

    /// RACK.rtt [ns], 0 before the first delivery.
    pub fn rtt_ns(&self) -> u64 {
        self.rtt_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    fn seg(i: u64) -> u64 {
        1 + i * MSS
    }

    /// Ten segments sent 1 ms apart from t = 0.
    fn sent_ten() -> Rack {
        let mut r = Rack::new(MSS as u32);
        for i in 0..10 {
            r.on_send(seg(i), i * 1_000_000, false);
        }
        r
    }

    #[test]
    fn a_segment_is_lost_once_a_later_one_is_delivered_and_rack_rtt_plus_the_window_passed() {
        // RFC 8985 section 3.4's first example: P1 lost, P2 delivered (SACKed) one RTT (20 ms)
        // after it was sent: P1, sent 1 ms before P2, is lost at once with no reordering
        // window, or after 5 ms with a 5 ms window (timer at P1's send + RACK.rtt + 5 ms).
        let mut r = sent_ten();
        let mut sb = Scoreboard::default();
        let now = 21_000_000; // P2 (sent at 1 ms) SACKed at 21 ms: RACK.rtt = 20 ms
        r.on_sacked(&sb, seg(1), seg(2), now, 0);
        sb.add(seg(1), seg(2), seg(0));
        assert_eq!(r.rtt_ns(), 20_000_000);
        let mut with_window = r.clone();
        assert_eq!(
            r.detect(&sb, seg(10), now, 0),
            Detected { lost: 1, lost_retransmits: 0, reo_at_ns: None }
        );
        assert_eq!(r.next_lost(&sb, seg(10)), Some(seg(0)));
        // pipe: 10 sent, 1 SACKed, 1 lost: 8.
        assert_eq!(r.pipe(&sb, seg(10)), 8);
        assert_eq!(
            with_window.detect(&sb, seg(10), now, 5_000_000),
            Detected { lost: 0, lost_retransmits: 0, reo_at_ns: Some(25_000_000) }
        );
        assert_eq!(with_window.detect(&sb, seg(10), 25_000_000, 5_000_000).lost, 1);
    }

    #[test]
    fn a_lost_retransmission_is_found_by_a_later_delivery() {
        // The retransmission of P1 (at 22 ms) is lost too; P12, sent after it at 23 ms, is
        // SACKed at 43 ms: the retransmission is lost again and due once more, where RFC
        // 6675's HighRxt would have waited for the RTO.
        let mut r = sent_ten();
        let mut sb = Scoreboard::default();
        r.on_sacked(&sb, seg(1), seg(2), 21_000_000, 0);
        sb.add(seg(1), seg(2), seg(0));
        r.detect(&sb, seg(12), 21_000_000, 0);
        r.on_send(seg(0), 22_000_000, true);
        r.on_send(seg(10), 23_000_000, false);
        assert_eq!(r.next_lost(&sb, seg(11)), None, "resent, in flight");
        assert_eq!(r.pipe(&sb, seg(11)), 10, "8 originals + P11 + the retransmission");
        r.on_sacked(&sb, seg(10), seg(11), 43_000_000, 0);
        sb.add(seg(10), seg(11), seg(0));
        let d = r.detect(&sb, seg(11), 43_000_000, 0);
        assert_eq!((d.lost, d.lost_retransmits), (9, 1), "P1 again, and P3..P10");
        assert_eq!(r.next_lost(&sb, seg(11)), Some(seg(0)));
    }

    #[test]
    fn an_ack_of_the_original_does_not_advance_rack_past_the_retransmission() {
        // RFC 8985 6.2 step 2: a retransmitted segment delivered sooner than min RTT after
        // its retransmission was the original's delivery: RACK keeps its older state.
        let mut r = sent_ten();
        r.on_send(seg(0), 30_000_000, true);
        r.on_cumulative(seg(1), 31_000_000, 20_000_000);
        assert_eq!(r.rtt_ns(), 0);
        r.on_cumulative(seg(2), 31_000_000, 20_000_000);
        assert_eq!(r.rtt_ns(), 30_000_000, "P2: sent at 1 ms, acknowledged at 31 ms");
    }

    #[test]
    fn the_ring_follows_the_cumulative_ack_and_an_rto_marks_everything_unsacked_lost() {
        let mut r = sent_ten();
        let mut sb = Scoreboard::default();
        r.on_cumulative(seg(4), 30_000_000, 0);
        assert_eq!(r.pipe(&sb, seg(10)), 6);
        sb.add(seg(6), seg(7), seg(4));
        r.mark_all_lost(&sb, seg(10));
        assert_eq!(r.pipe(&sb, seg(10)), 0);
        assert_eq!(r.next_lost(&sb, seg(10)), Some(seg(4)));
        r.on_send(seg(4), 31_000_000, true);
        assert_eq!(r.next_lost(&sb, seg(10)), Some(seg(5)));
        assert_eq!(r.next_lost(&sb, seg(6)), Some(seg(5)));
        r.on_send(seg(5), 31_000_000, true);
        assert_eq!(r.next_lost(&sb, seg(10)), Some(seg(7)), "6 is SACKed");
        assert_eq!(r.pipe(&sb, seg(10)), 2);
    }
}
