//! The delivery-rate sampler of Linux `net/ipv4/tcp_rate.c` (draft-cheng-iccrg-delivery-rate-
//! estimation): every transmission records how much had been delivered and when; every ACK
//! that delivers data turns the record of the most recently sent segment it delivered into one
//! rate sample, delivered / max(send phase, ACK phase). BBR (`cc/bbr.rs`) reads the samples.
//!
//! Times are Linux's `tcp_mstamp`: microseconds. Records sit on the sender's segment grid (data
//! starts at 1, `mss` bytes each), in a ring reused for the connection's life like RACK's.

use std::collections::VecDeque;

use super::cc::CcState;
use super::sack::Scoreboard;

/// What one transmission recorded (`TCP_SKB_CB(skb)->tx`, plus the skb's own send time).
#[derive(Clone, Copy, Debug, Default)]
struct TxRec {
    /// `skb->skb_mstamp_ns` in us: when this copy left.
    sent_us: u64,
    /// `tx.first_tx_mstamp`, `tx.delivered_mstamp`, `tx.delivered`, `tx.is_app_limited`.
    first_tx_us: u64,
    delivered_mstamp_us: u64,
    delivered: u64,
    app_limited: bool,
    /// `TCPCB_RETRANS`: sent more than once.
    retrans: bool,
    /// SACKed already: counted delivered, its sample taken (`tx.delivered_mstamp = 0`).
    sacked: bool,
    /// Whether the segment has been sent at all.
    live: bool,
}

/// One ACK's rate sample (`struct rate_sample`). `delivered` and `interval_us` are -1 when the
/// sample is invalid; `rtt_us` is -1 when the ACK gave no RTT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateSample {
    pub prior_mstamp_us: u64,
    pub prior_delivered: u64,
    pub delivered: i64,
    pub interval_us: i64,
    pub snd_interval_us: i64,
    pub rcv_interval_us: i64,
    pub rtt_us: i64,
    /// Segments newly marked lost by this ACK (`tp->lost` before and after).
    pub losses: u32,
    /// Segments this ACK newly acknowledged or SACKed.
    pub acked_sacked: u32,
    /// `tcp_packets_in_flight` before the ACK was processed.
    pub prior_in_flight: u32,
    pub is_app_limited: bool,
    pub is_retrans: bool,
    /// Linux `FLAG_ACK_MAYBE_DELAYED`: a lone runt segment's ACK, likely delayed.
    pub is_ack_delayed: bool,
    /// End of the segment whose record the sample took (`rs->last_end_seq`).
    pub(crate) last_end_seq: u64,
}

impl Default for RateSample {
    fn default() -> RateSample {
        RateSample {
            prior_mstamp_us: 0,
            prior_delivered: 0,
            delivered: -1,
            interval_us: -1,
            snd_interval_us: -1,
            rcv_interval_us: -1,
            rtt_us: -1,
            losses: 0,
            acked_sacked: 0,
            prior_in_flight: 0,
            is_app_limited: false,
            is_retrans: false,
            is_ack_delayed: false,
            last_end_seq: 0,
        }
    }
}

/// The connection's sampler: per-segment records and `tp->first_tx_mstamp`; the counters the
/// congestion control reads (`tp->delivered`, `delivered_mstamp`, `app_limited`, `lost`)
/// live in [`CcState`].
#[derive(Clone, Debug, Default)]
pub struct RateSampler {
    mss: u64,
    base: u64,
    recs: VecDeque<TxRec>,
    /// `tp->first_tx_mstamp`: send time of the most recently delivered segment's record.
    first_tx_us: u64,
    /// The ACK being processed: its sample, and the send times of the last segment it
    /// cumulatively acknowledged and the last it SACKed, never retransmitted (`last_ackt`,
    /// `sack->last_sackt`), and whether it acknowledged a retransmission
    /// (`FLAG_RETRANS_DATA_ACKED`).
    rs: RateSample,
    last_ackt_us: u64,
    last_sackt_us: u64,
    retrans_acked: bool,
    delivered_now: u32,
}

impl RateSampler {
    pub fn new(mss: u32) -> RateSampler {
        RateSampler { mss: u64::from(mss.max(1)), base: 1, ..RateSampler::default() }
    }

    fn index(&self, seq: u64) -> Option<usize> {
        (seq >= self.base).then(|| ((seq - self.base) / self.mss) as usize)
    }

    /// `tcp_rate_skb_sent`: the segment at `seq` leaves at `now_us`, `packets_out` segments
    /// being out before it (a send into an empty pipe restarts both clocks).
    pub fn on_send(
        &mut self,
        s: &mut CcState,
        seq: u64,
        now_us: u64,
        packets_out: u64,
        retransmission: bool,
    ) {
        let Some(i) = self.index(seq) else { return };
        if packets_out == 0 {
            self.first_tx_us = now_us;
            s.delivered_mstamp_us = now_us;
        }
        while self.recs.len() <= i {
            self.recs.push_back(TxRec::default());
        }
        let r = &mut self.recs[i];
        *r = TxRec {
            sent_us: now_us,
            first_tx_us: self.first_tx_us,
            delivered_mstamp_us: s.delivered_mstamp_us,
            delivered: s.delivered,
            app_limited: s.app_limited != 0,
            retrans: retransmission || r.retrans,
            sacked: false,
            live: true,
        };
    }

    /// Start an ACK: an empty sample with the flight before it.
    pub fn begin_ack(&mut self, prior_in_flight: u32) {
        self.rs = RateSample { prior_in_flight, ..RateSample::default() };
        self.last_ackt_us = 0;
        self.last_sackt_us = 0;
        self.retrans_acked = false;
        self.delivered_now = 0;
    }

    /// `tcp_rate_skb_delivered` for record `i`, delivered by this ACK.
    fn skb_delivered(&mut self, i: usize, sacked: bool) {
        let r = self.recs[i];
        // tcp_clean_rtx_queue: a retransmitted segment acknowledged now voids the ACK's RTT
        // (FLAG_RETRANS_DATA_ACKED), SACKed before or not.
        self.retrans_acked |= r.live && r.retrans && !sacked;
        if !r.live || r.sacked {
            return;
        }
        let end_seq = self.base + (i as u64 + 1) * self.mss;
        // tcp_skb_sent_after: later send time, or the same time and a higher end sequence.
        let after =
            r.sent_us > self.first_tx_us || (r.sent_us == self.first_tx_us && end_seq > self.rs.last_end_seq);
        if self.rs.prior_delivered == 0 || after {
            self.rs.prior_delivered = r.delivered;
            self.rs.prior_mstamp_us = r.delivered_mstamp_us;
            self.rs.is_app_limited = r.app_limited;
            self.rs.is_retrans = r.retrans;
            self.rs.last_end_seq = end_seq;
            self.first_tx_us = r.sent_us;
            self.rs.interval_us = r.sent_us.saturating_sub(r.first_tx_us) as i64;
            // send phase
        }
        self.delivered_now += 1;
        if !r.retrans && sacked {
            self.last_sackt_us = r.sent_us; // tcp_sacktag_one, in sequence order
        } else if !r.retrans {
            self.last_ackt_us = r.sent_us; // tcp_clean_rtx_queue
        }
        if sacked {
            self.recs[i].sacked = true;
        }
    }

    /// The segments of [start, end) the scoreboard did not hold before are SACKed now.
    pub fn on_sacked(&mut self, sb: &Scoreboard, start: u64, end: u64) {
        let Some(mut i) = self.index(start.max(self.base)) else { return };
        while i < self.recs.len() {
            let s = self.base + i as u64 * self.mss;
            if s >= end {
                break;
            }
            if s >= start && !sb.is_sacked(s, (s + self.mss).min(end)) {
                self.skb_delivered(i, true);
            }
            i += 1;
        }
    }

    /// The cumulative ACK reached `una`: the segments below it are delivered and forgotten.
    pub fn on_cumulative(&mut self, una: u64) {
        while !self.recs.is_empty() && self.base < una {
            self.skb_delivered(0, false);
            self.recs.pop_front();
            self.base += self.mss;
        }
    }

    /// Forget every SACK mark after an RTO that cleared the scoreboard (RFC 6675 5.1).
    pub fn clear_sacks(&mut self) {
        for r in &mut self.recs {
            r.sacked = false;
        }
    }

    /// The RTT this ACK gave (`tcp_clean_rtx_queue`'s `ca_rtt_us`, `rs->rtt_us`): from the
    /// last segment SACKed, else the last acknowledged (none if a retransmission was
    /// acknowledged), never retransmitted; else from the echoed timestamp in whole
    /// milliseconds (`tcp_ack_update_rtt`, TCP_TS_HZ 1000) if the ACK advanced `snd_una`.
    pub fn ack_rtt_us(&self, now_us: u64, ts_ecr_ns: Option<u64>, now_ns: u64) -> i64 {
        if self.last_sackt_us != 0 {
            return now_us.saturating_sub(self.last_sackt_us) as i64;
        }
        if self.last_ackt_us != 0 && !self.retrans_acked {
            return now_us.saturating_sub(self.last_ackt_us) as i64;
        }
        match ts_ecr_ns {
            Some(sent_ns) => (now_ns.saturating_sub(sent_ns) / 1_000_000).max(1) as i64 * 1000,
            None => -1,
        }
    }

    /// `tcp_rate_gen`: this ACK's sample, once its deliveries are counted into `s.delivered`.
    /// `min_rtt_us` is `tcp_min_rtt` (samples shorter than it are discarded).
    pub fn gen(&mut self, s: &mut CcState, now_us: u64, min_rtt_us: u64) -> RateSample {
        let delivered = u64::from(self.delivered_now);
        s.delivered += delivered;
        // Clear app-limited once the bubble is acknowledged and gone.
        if s.app_limited != 0 && s.delivered > s.app_limited {
            s.app_limited = 0;
        }
        if delivered > 0 {
            s.delivered_mstamp_us = now_us;
        }
        let mut rs = self.rs;
        rs.acked_sacked = self.delivered_now;
        if rs.prior_mstamp_us == 0 {
            rs.delivered = -1;
            rs.interval_us = -1;
            return rs;
        }
        rs.delivered = (s.delivered - rs.prior_delivered) as i64;
        // Send and ACK phases of the window; the longer one is safe against ACK compression.
        let snd_us = rs.interval_us;
        let ack_us = now_us.saturating_sub(rs.prior_mstamp_us) as i64;
        rs.interval_us = snd_us.max(ack_us);
        rs.snd_interval_us = snd_us;
        rs.rcv_interval_us = ack_us;
        if rs.interval_us < min_rtt_us.min(i64::MAX as u64) as i64 {
            rs.interval_us = -1;
            return rs;
        }
        rs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;
    /// The first send, 1 ms into the run (0 means "no stamp", as in Linux).
    const T0: u64 = 1000;

    fn seg(i: u64) -> u64 {
        1 + i * MSS
    }

    #[test]
    fn a_window_sent_into_an_empty_pipe_gives_delivered_over_the_ack_phase() {
        // Ten segments 1 ms apart, the first into an empty pipe, acknowledged together 50 ms
        // after the first left: send phase 9 ms, ACK phase 50 ms (from the empty pipe's
        // delivered_mstamp), so the sample is 10 segments in 50 ms (by hand).
        let mut s = CcState::new(MSS as u32, 10, 1000);
        let mut r = RateSampler::new(MSS as u32);
        for i in 0..10 {
            r.on_send(&mut s, seg(i), T0 + i * 1000, i, false);
        }
        r.begin_ack(10);
        r.on_cumulative(seg(10));
        let rs = r.gen(&mut s, T0 + 50_000, 0);
        assert_eq!(s.delivered, 10);
        assert_eq!(
            (rs.delivered, rs.snd_interval_us, rs.rcv_interval_us, rs.interval_us),
            (10, 9000, 50_000, 50_000)
        );
        assert_eq!(r.ack_rtt_us(T0 + 50_000, None, 0), 41_000, "the last acknowledged segment's RTT");
        assert_eq!(s.delivered_mstamp_us, T0 + 50_000);
    }

    #[test]
    fn the_sample_follows_the_most_recently_sent_delivered_segment() {
        // Segments 0-3 leave at 0-3 ms (after T0); 0 and 1 are acknowledged at 40 ms, which
        // makes segment 1's send time (1 ms) the new first_tx. Segments 4 and 5 leave at 40
        // and 41 ms carrying delivered = 2, delivered_mstamp = 40 ms, first_tx = 1 ms. A SACK
        // of both at 90 ms takes segment 5's record: 2 segments delivered since, send phase
        // 41 - 1 = 40 ms, ACK phase 90 - 40 = 50 ms (by hand).
        let mut s = CcState::new(MSS as u32, 10, 1000);
        let mut r = RateSampler::new(MSS as u32);
        for i in 0..4 {
            r.on_send(&mut s, seg(i), T0 + i * 1000, i, false);
        }
        r.begin_ack(4);
        r.on_cumulative(seg(2));
        let rs = r.gen(&mut s, T0 + 40_000, 0);
        assert_eq!((rs.delivered, rs.interval_us), (2, 40_000));
        r.on_send(&mut s, seg(4), T0 + 40_000, 2, false);
        r.on_send(&mut s, seg(5), T0 + 41_000, 3, false);
        let sb = Scoreboard::default();
        r.begin_ack(4);
        r.on_sacked(&sb, seg(4), seg(6));
        let rs = r.gen(&mut s, T0 + 90_000, 0);
        assert_eq!(s.delivered, 4);
        assert_eq!((rs.prior_delivered, rs.delivered), (2, 2));
        assert_eq!((rs.snd_interval_us, rs.rcv_interval_us, rs.interval_us), (40_000, 50_000, 50_000));
        assert_eq!(r.ack_rtt_us(T0 + 90_000, None, 0), 49_000, "segment 5's RTT");
        // A SACKed segment is not counted again by the cumulative ACK that covers it.
        r.begin_ack(2);
        r.on_cumulative(seg(6));
        let rs = r.gen(&mut s, T0 + 95_000, 0);
        assert_eq!(s.delivered, 6, "segments 2 and 3 only");
        assert_eq!(rs.acked_sacked, 2);
    }

    #[test]
    fn a_sample_shorter_than_the_min_rtt_is_discarded_and_app_limited_clears() {
        let mut s = CcState::new(MSS as u32, 10, 1000);
        let mut r = RateSampler::new(MSS as u32);
        s.app_limited = 3; // the bubble ends once more than 3 segments are delivered
        for i in 0..4 {
            r.on_send(&mut s, seg(i), T0 + i * 10, i, false);
        }
        r.begin_ack(4);
        r.on_cumulative(seg(4));
        let rs = r.gen(&mut s, T0 + 5_000, 20_000);
        assert_eq!(rs.interval_us, -1, "5 ms < the 20 ms min RTT");
        assert!(rs.is_app_limited, "sent while app-limited");
        assert_eq!(s.app_limited, 0, "delivered 4 > 3");
    }

    #[test]
    fn a_retransmission_gives_no_rtt_from_its_cumulative_ack() {
        // Karn's rule as tcp_clean_rtx_queue applies it (FLAG_RETRANS_DATA_ACKED), then the
        // timestamp fallback of tcp_ack_update_rtt in whole milliseconds.
        let mut s = CcState::new(MSS as u32, 10, 1000);
        let mut r = RateSampler::new(MSS as u32);
        r.on_send(&mut s, seg(0), T0, 0, false);
        r.on_send(&mut s, seg(0), T0 + 300_000, 1, true);
        r.begin_ack(1);
        r.on_cumulative(seg(1));
        let _ = r.gen(&mut s, T0 + 340_000, 0);
        let now_ns = (T0 + 340_000) * 1000;
        assert_eq!(r.ack_rtt_us(T0 + 340_000, None, now_ns), -1);
        assert_eq!(r.ack_rtt_us(T0 + 340_000, Some((T0 + 300_000) * 1000), now_ns), 40_000);
    }
}
