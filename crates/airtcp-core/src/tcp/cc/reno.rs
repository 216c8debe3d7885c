//! Reno congestion avoidance (RFC 5681; Linux `tcp_reno_cong_avoid`, `tcp_reno_ssthresh`).

use super::{CcState, CongestionOps};

#[derive(Clone, Copy, Debug, Default)]
pub struct Reno;

impl CongestionOps for Reno {
    /// RFC 5681 (4): ssthresh = max(FlightSize / 2, 2 SMSS); Linux halves cwnd.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        (s.cwnd / 2).max(2)
    }

    /// Slow start below ssthresh, then one segment per window (RFC 5681 3.1).
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        // tcp_cong.c `tcp_reno_cong_avoid` (3.2, 4.9): nothing unless cwnd-limited.
        if !s.is_cwnd_limited() {
            return;
        }
        let mut acked = acked;
        if s.in_slow_start() {
            acked = s.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        s.cong_avoid_ai(s.cwnd, acked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_then_one_segment_per_window() {
        let mut s = CcState::new(1460, 2, 10_000);
        s.ssthresh = 8;
        let mut r = Reno;
        for _ in 0..6 {
            r.cong_avoid(&mut s, 1);
        }
        assert_eq!(s.cwnd, 8, "slow start stops at ssthresh");
        for _ in 0..8 {
            r.cong_avoid(&mut s, 1);
        }
        assert_eq!(s.cwnd, 9, "one segment per cwnd of ACKs");
        assert_eq!(r.ssthresh(&s), 4);
    }
}
