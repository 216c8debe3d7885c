//! TCP Westwood+ (Linux net/ipv4/tcp_westwood.c).
//!
//! Westwood+ counts the bytes acknowledged in windows of one RTT (at least 50 ms), filters
//! the per-window rate twice with a 7/8 low-pass filter into a bandwidth estimate BWE, and
//! after a loss sets `ssthresh = BWE * RTTmin / MSS` (at least 2) instead of halving
//! (paper 000 Table I). Probing is Reno's.
//!
//! Linux keeps `tcp_reno_ssthresh` as its `ssthresh` hook and applies BWE * RTTmin from
//! `cwnd_event`: `CompleteCwr` (end of recovery: cwnd = ssthresh = BWE * RTTmin) and `Loss`
//! (RTO: ssthresh = BWE * RTTmin). Here `ssthresh` returns BWE * RTTmin directly, as Table I
//! and the Westwood+ papers state it, so fast recovery inflates from it rather than from
//! cwnd / 2; both events are kept as in Linux, so the values after recovery and after an RTO
//! are Linux's whatever the order of calls.

use super::cubic::{jiffies, rtt_us, usecs_to_jiffies, HZ};
use super::{CcState, CongestionOps, CwndEvent, Reno};
use crate::time::Dur;

/// tcp_westwood.c TCP_WESTWOOD_RTT_MIN: shortest bandwidth sampling window, HZ / 20 = 50 ms.
const RTT_MIN: u64 = HZ / 20;
/// tcp_westwood.c TCP_WESTWOOD_INIT_RTT: RTT before the first sample, 20 s [jiffies].
const INIT_RTT: u64 = 20 * HZ;

/// Westwood+'s state (Linux `struct westwood`). Linux's u32 counters are u64 here.
#[derive(Clone, Debug)]
pub struct Westwood {
    /// First (less smoothed) and final bandwidth estimates [bytes/jiffy].
    bw_ns_est: u64,
    bw_est: u64,
    /// Start of the current sampling window [jiffies].
    rtt_win_sx: u64,
    /// Bytes acknowledged in the current window.
    bk: u64,
    /// `snd_una` at the previous ACK [bytes].
    snd_una: u64,
    cumul_ack: u64,
    /// Bytes credited for duplicate ACKs, not yet covered by a cumulative ACK.
    accounted: u64,
    /// Latest RTT sample and the lowest [jiffies].
    rtt: u64,
    rtt_min: u64,
    first_ack: bool,
    /// Take the next RTT as RTTmin (after an RTO).
    reset_rtt_min: bool,
}

impl Default for Westwood {
    fn default() -> Westwood {
        Westwood {
            bw_ns_est: 0,
            bw_est: 0,
            rtt_win_sx: 0,
            bk: 0,
            snd_una: 0,
            cumul_ack: 0,
            accounted: 0,
            rtt: INIT_RTT,
            rtt_min: INIT_RTT,
            first_ack: true,
            reset_rtt_min: true,
        }
    }
}

/// tcp_westwood.c `westwood_do_filter`: (7 a + b) / 8.
fn do_filter(a: u64, b: u64) -> u64 {
    (7 * a + b) >> 3
}

impl Westwood {
    pub fn new() -> Westwood {
        Westwood::default()
    }

    /// tcp_westwood.c `westwood_filter`: one rate sample of `bk / delta` into both filters.
    fn filter(&mut self, delta: u64) {
        let sample = self.bk / delta;
        if self.bw_ns_est == 0 && self.bw_est == 0 {
            // An empty filter takes the first sample as it is.
            self.bw_ns_est = sample;
            self.bw_est = sample;
        } else {
            self.bw_ns_est = do_filter(self.bw_ns_est, sample);
            self.bw_est = do_filter(self.bw_est, self.bw_ns_est);
        }
    }

    /// tcp_westwood.c `westwood_update_window`: close the window once an RTT (>= 50 ms) has
    /// passed.
    fn update_window(&mut self, s: &CcState) {
        let now = jiffies(s.now);
        let delta = now.saturating_sub(self.rtt_win_sx);
        // Align with snd_una on the first ACK so the first sample counts only new bytes.
        if self.first_ack {
            self.snd_una = s.snd_una;
            self.first_ack = false;
        }
        if self.rtt != 0 && delta > self.rtt.max(RTT_MIN) {
            self.filter(delta);
            self.bk = 0;
            self.rtt_win_sx = now;
        }
    }

    /// tcp_westwood.c `update_rtt_min`.
    fn update_rtt_min(&mut self) {
        if self.reset_rtt_min {
            self.rtt_min = self.rtt;
            self.reset_rtt_min = false;
        } else {
            self.rtt_min = self.rtt_min.min(self.rtt);
        }
    }

    /// tcp_westwood.c `westwood_acked_count`: bytes this ACK delivered, a duplicate ACK
    /// counting one MSS that the next cumulative ACK pays back.
    fn acked_count(&mut self, s: &CcState) -> u64 {
        let mss = u64::from(s.mss);
        self.cumul_ack = s.snd_una.saturating_sub(self.snd_una);
        if self.cumul_ack == 0 {
            self.accounted += mss;
            self.cumul_ack = mss;
        }
        if self.cumul_ack > mss {
            // Partial or delayed ACK.
            if self.accounted >= self.cumul_ack {
                self.accounted -= self.cumul_ack;
                self.cumul_ack = mss;
            } else {
                self.cumul_ack -= self.accounted;
                self.accounted = 0;
            }
        }
        self.snd_una = s.snd_una;
        self.cumul_ack
    }

    /// tcp_westwood.c `tcp_westwood_bw_rttmin`: BWE * RTTmin / MSS, at least 2 [segments].
    fn bw_rttmin(&self, s: &CcState) -> u32 {
        let w = self.bw_est * self.rtt_min / u64::from(s.mss.max(1));
        w.clamp(2, u64::from(u32::MAX)) as u32
    }
}

impl CongestionOps for Westwood {
    /// tcp_westwood.c `tcp_westwood_init`.
    fn init(&mut self, s: &mut CcState) {
        *self = Westwood { rtt_win_sx: jiffies(s.now), snd_una: s.snd_una, ..Westwood::default() };
    }

    /// Paper 000 Table I: ssthresh = BWE * RTTmin / MSS (Linux: `tcp_westwood_bw_rttmin`).
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        self.bw_rttmin(s)
    }

    /// tcp_westwood.c uses `tcp_reno_cong_avoid` (with its cwnd-limited test).
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        Reno.cong_avoid(s, acked);
    }

    /// tcp_westwood.c `tcp_westwood_pkts_acked`: keep the latest RTT sample.
    fn pkts_acked(&mut self, _s: &mut CcState, _acked: u32, rtt: Option<Dur>) {
        if let Some(rtt) = rtt {
            let us = rtt_us(rtt);
            if us > 0 {
                self.rtt = usecs_to_jiffies(u64::from(us));
            }
        }
    }

    /// tcp_westwood.c `tcp_westwood_ack`, slow path (CA_ACK_SLOWPATH) for every ACK: it
    /// equals the fast path (`westwood_fast_bw`) on pure advances and also counts duplicates.
    fn in_ack_event(&mut self, s: &mut CcState, _acked_bytes: u32) {
        self.update_window(s);
        self.bk += self.acked_count(s);
        self.update_rtt_min();
    }

    /// tcp_westwood.c `tcp_westwood_event`.
    fn cwnd_event(&mut self, s: &mut CcState, ev: CwndEvent) {
        match ev {
            CwndEvent::CompleteCwr => {
                s.ssthresh = self.bw_rttmin(s);
                s.cwnd = s.ssthresh;
            }
            CwndEvent::Loss => {
                s.ssthresh = self.bw_rttmin(s);
                // Update RTTmin when the next ACK arrives.
                self.reset_rtt_min = true;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    const MSS: u32 = 1000;

    /// Deliver `segs_per_ms` segments every millisecond for `ms` ms, with RTT `rtt`.
    fn deliver(w: &mut Westwood, s: &mut CcState, segs_per_ms: u32, ms: u64, rtt: Dur) {
        for _ in 0..ms {
            s.now += Dur::from_ms(1);
            s.snd_una += u64::from(segs_per_ms * MSS);
            w.in_ack_event(s, segs_per_ms * MSS);
            w.pkts_acked(s, segs_per_ms, Some(rtt));
            w.cong_avoid(s, segs_per_ms);
        }
    }

    fn westwood_established() -> (Westwood, CcState) {
        let mut s = CcState::new(MSS, 10, 100_000);
        s.now = SimTime(5_000_000);
        let mut w = Westwood::new();
        w.init(&mut s);
        (w, s)
    }

    #[test]
    fn loss_after_steady_delivery_sets_ssthresh_to_bwe_times_rttmin() {
        let (mut w, mut s) = westwood_established();
        // B = 10 segments/ms = 10^7 bytes/s, RTTmin R = 20 ms:
        // B * R / MSS = 10^7 * 0.02 / 1000 = 200 segments.
        deliver(&mut w, &mut s, 10, 3000, Dur::from_ms(20));
        let expected = 10_000_000.0 * 0.020 / f64::from(MSS);
        let got = w.ssthresh(&s);
        // Linux's filters truncate ((7a + b) >> 3 settles up to 7 bytes/jiffy low in each
        // stage), which may cost a segment.
        assert!((f64::from(got) - expected).abs() <= 1.0, "ssthresh {got}, B*R/MSS {expected}");
        assert_eq!(w.rtt_min, 20, "RTTmin in jiffies (HZ = 1000)");
    }

    #[test]
    fn loss_at_low_rate_keeps_two_segments() {
        let (mut w, mut s) = westwood_established();
        // One segment per 100 ms, RTT 10 ms: B * R / MSS = 10 * 10 / 1000 = 0.1 -> 2.
        for _ in 0..20 {
            s.now += Dur::from_ms(100);
            s.snd_una += u64::from(MSS);
            w.in_ack_event(&mut s, MSS);
            w.pkts_acked(&mut s, 1, Some(Dur::from_ms(10)));
        }
        assert_eq!(w.ssthresh(&s), 2);
    }

    #[test]
    fn recovery_complete_sets_cwnd_and_ssthresh_to_estimate() {
        let (mut w, mut s) = westwood_established();
        deliver(&mut w, &mut s, 10, 3000, Dur::from_ms(20));
        let bwe = w.bw_rttmin(&s);
        s.cwnd = 500;
        w.cwnd_event(&mut s, CwndEvent::CompleteCwr);
        assert_eq!((s.cwnd, s.ssthresh), (bwe, bwe));
        s.ssthresh = 7;
        w.cwnd_event(&mut s, CwndEvent::Loss);
        assert_eq!(s.ssthresh, bwe);
        assert!(w.reset_rtt_min);
    }

    #[test]
    fn duplicate_acks_count_one_mss_repaid_by_cumulative_ack() {
        let (mut w, mut s) = westwood_established();
        // The first ACK aligns snd_una and, advancing nothing then, is credited one MSS as a
        // duplicate (Linux does the same); a 2-MSS ACK pays it back.
        deliver(&mut w, &mut s, 1, 1, Dur::from_ms(20));
        deliver(&mut w, &mut s, 2, 1, Dur::from_ms(20));
        assert_eq!(w.accounted, 0);
        let bk0 = w.bk;
        for _ in 0..3 {
            w.in_ack_event(&mut s, 0);
        }
        assert_eq!(w.bk - bk0, 3 * u64::from(MSS), "each duplicate: one MSS delivered");
        s.snd_una += u64::from(5 * MSS);
        w.in_ack_event(&mut s, 5 * MSS);
        // tcp_westwood.c westwood_acked_count: 5 MSS - 3 MSS already accounted.
        assert_eq!(w.bk - bk0, 5 * u64::from(MSS));
        assert_eq!(w.accounted, 0);
    }
}
