//! TCP Vegas (Linux net/ipv4/tcp_vegas.c).
//!
//! Once per RTT (when the ACK passes `beg_snd_nxt`, the `snd_nxt` of the previous decision)
//! Vegas compares the expected rate `cwnd / baseRTT` with the actual `cwnd / RTT`:
//! `Diff = (expected - actual) baseRTT = cwnd (RTT - baseRTT) / RTT` segments queued in the
//! network (paper 000 Table I). Below `alpha` it adds a segment, above `beta` it removes one;
//! in slow start a Diff above `gamma` ends slow start at the actual rate. RTT is the lowest
//! sample of the last RTT, baseRTT the lowest ever (Linux's min filters).

use super::{CaState, CcState, CongestionOps, CwndEvent, Reno};
use crate::time::Dur;

// tcp_vegas.c module parameters, Linux defaults [segments].
const ALPHA: u32 = 2; // alpha = 2
const BETA: u32 = 4; // beta = 4
const GAMMA: u32 = 1; // gamma = 1

/// No RTT sample yet (Linux's 0x7fffffff) [us].
const NO_RTT: u32 = 0x7fff_ffff;

/// Vegas state (Linux `struct vegas`, include/net/tcp_vegas.h).
#[derive(Clone, Debug)]
pub struct Vegas {
    /// Divide Diff by baseRTT instead of RTT, as Linux has since 2008 (commit 8d3a564da34e,
    /// "tcp: tcp_vegas cong avoid fix"; so the paper's kernel 3.12). Off by default: the
    /// Vegas paper, Linux's original 1999 code, paper 000 Table I and the fix proposed on
    /// netdev in May 2025 ("tcp: tcp_vegas fix diff computation") divide by RTT.
    pub diff_over_base_rtt: bool,
    /// Right edge of the window whose ACK ends the current RTT [bytes].
    beg_snd_nxt: u64,
    /// Vegas runs only in Open state; Reno otherwise.
    doing_vegas_now: bool,
    /// RTT samples during the last RTT.
    cnt_rtt: u16,
    /// Lowest sample during the last RTT and lowest ever, plus one [us].
    min_rtt: u32,
    base_rtt: u32,
}

impl Default for Vegas {
    fn default() -> Vegas {
        Vegas {
            diff_over_base_rtt: false,
            beg_snd_nxt: 0,
            doing_vegas_now: true,
            cnt_rtt: 0,
            min_rtt: NO_RTT,
            base_rtt: NO_RTT,
        }
    }
}

impl Vegas {
    pub fn new() -> Vegas {
        Vegas::default()
    }

    /// Linux `vegas_enable`: sample afresh from the next window.
    fn enable(&mut self, s: &CcState) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = s.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = NO_RTT;
    }

    /// Vegas's Diff [segments] for the RTT just ended.
    fn diff(&self, cwnd: u32, rtt: u32) -> u32 {
        let queued = u64::from(cwnd) * u64::from(rtt.saturating_sub(self.base_rtt));
        let over = if self.diff_over_base_rtt { self.base_rtt } else { rtt };
        (queued / u64::from(over.max(1))).min(u64::from(u32::MAX)) as u32
    }
}

impl CongestionOps for Vegas {
    /// tcp_vegas.c `tcp_vegas_init`.
    fn init(&mut self, s: &mut CcState) {
        self.base_rtt = NO_RTT;
        self.enable(s);
    }

    /// tcp_vegas.c uses `tcp_reno_ssthresh`.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        (s.cwnd / 2).max(2)
    }

    /// tcp_vegas.c `tcp_vegas_cong_avoid`. Like Linux's (3.2, 4.9), it asks whether cwnd is
    /// limited only where it falls back to Reno: its own once-per-RTT step and slow start grow
    /// an application-limited window too.
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        if !self.doing_vegas_now {
            Reno.cong_avoid(s, acked);
            return;
        }
        if s.snd_una > self.beg_snd_nxt {
            // Once per RTT.
            self.beg_snd_nxt = s.snd_nxt;
            if self.cnt_rtt <= 2 {
                // Too few samples to be sure one is not from a delayed ACK: behave like Reno.
                Reno.cong_avoid(s, acked);
            } else {
                let rtt = self.min_rtt;
                let target_cwnd = u64::from(s.cwnd) * u64::from(self.base_rtt) / u64::from(rtt);
                let diff = self.diff(s.cwnd, rtt);
                if diff > GAMMA && s.in_slow_start() {
                    // Going too fast: leave slow start at the actual rate (+1 for truncation).
                    s.cwnd = s.cwnd.min(target_cwnd as u32 + 1);
                    s.ssthresh = s.ssthresh.min(s.cwnd); // tcp_vegas_ssthresh
                } else if s.in_slow_start() {
                    s.slow_start(acked);
                } else if diff > BETA {
                    s.cwnd -= 1;
                    s.ssthresh = s.ssthresh.min(s.cwnd);
                } else if diff < ALPHA {
                    s.cwnd += 1;
                }
                s.cwnd = s.cwnd.clamp(2, s.cwnd_clamp.max(2));
                // tcp_current_ssthresh outside CWR/Recovery: max(ssthresh, 3/4 cwnd).
                s.ssthresh = s.ssthresh.max((s.cwnd >> 1) + (s.cwnd >> 2));
            }
            self.cnt_rtt = 0;
            self.min_rtt = NO_RTT;
        } else if s.in_slow_start() {
            s.slow_start(acked);
        }
    }

    /// tcp_vegas.c `tcp_vegas_pkts_acked`: min-filter the samples (+1 us: never zero).
    fn pkts_acked(&mut self, _s: &mut CcState, _acked: u32, rtt: Option<Dur>) {
        let Some(rtt) = rtt else { return };
        let vrtt = super::cubic::rtt_us(rtt).saturating_add(1);
        self.base_rtt = self.base_rtt.min(vrtt);
        self.min_rtt = self.min_rtt.min(vrtt);
        self.cnt_rtt = self.cnt_rtt.saturating_add(1);
    }

    /// tcp_vegas.c `tcp_vegas_state`.
    fn set_state(&mut self, s: &mut CcState, new: CaState) {
        if new == CaState::Open {
            self.enable(s);
        } else {
            self.doing_vegas_now = false;
        }
    }

    /// tcp_vegas.c `tcp_vegas_cwnd_event`: restarting from idle starts over.
    fn cwnd_event(&mut self, s: &mut CcState, ev: CwndEvent) {
        if matches!(ev, CwndEvent::CwndRestart | CwndEvent::TxStart) {
            self.init(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::cubic::rtt_us;
    use crate::time::SimTime;

    const MSS: u32 = 1000;
    const BASE: Dur = Dur::from_ms(100);
    /// Bottleneck bandwidth-delay product [segments].
    const BDP: u32 = 20;

    /// RTT of a window of `cwnd` segments over a bottleneck of BDP segments per base RTT:
    /// what exceeds the BDP waits in the queue, RTT = baseRTT * cwnd / BDP.
    fn rtt_for(cwnd: u32) -> Dur {
        Dur(BASE.ns() * u64::from(cwnd.max(BDP)) / u64::from(BDP))
    }

    /// One RTT: cwnd ACKs, one segment each, the sender keeping its window full.
    fn one_rtt(v: &mut Vegas, s: &mut CcState) {
        let n = u64::from(s.cwnd);
        let rtt = rtt_for(s.cwnd);
        for _ in 0..n {
            s.now += Dur(rtt.ns() / n);
            s.snd_una += u64::from(MSS);
            s.snd_nxt = s.snd_una + u64::from(s.cwnd) * u64::from(MSS);
            v.in_ack_event(s, MSS);
            v.pkts_acked(s, 1, Some(rtt));
            v.cong_avoid(s, 1);
        }
    }

    fn vegas_established(cwnd: u32, ssthresh: u32) -> (Vegas, CcState) {
        let mut s = CcState::new(MSS, cwnd, 10_000);
        s.ssthresh = ssthresh;
        s.now = SimTime(1);
        s.snd_nxt = u64::from(cwnd * MSS);
        let mut v = Vegas::new();
        v.init(&mut s);
        (v, s)
    }

    /// Diff by Table I (real numbers): cwnd (RTT - baseRTT) / RTT = cwnd - BDP here.
    fn table_diff(cwnd: u32) -> f64 {
        let rtt = rtt_for(cwnd).as_secs_f64();
        f64::from(cwnd) * (rtt - BASE.as_secs_f64()) / rtt
    }

    #[test]
    fn congestion_avoidance_settles_with_diff_between_alpha_and_beta() {
        let (mut v, mut s) = vegas_established(2, u32::MAX / 2);
        for _ in 0..60 {
            one_rtt(&mut v, &mut s);
        }
        assert!(!s.in_slow_start(), "Diff > gamma ended slow start");
        let settled = s.cwnd;
        for _ in 0..20 {
            one_rtt(&mut v, &mut s);
            assert_eq!(s.cwnd, settled, "settled");
        }
        // Linux's integer Diff (samples + 1 us, truncated) is within [alpha, beta]...
        let vrtt = rtt_us(rtt_for(s.cwnd)) + 1;
        let diff = v.diff(s.cwnd, vrtt);
        assert!((ALPHA..=BETA).contains(&diff), "cwnd {} Diff {diff}", s.cwnd);
        // ...so Table I's real Diff is within [alpha, beta + 1): truncation holds at
        // cwnd 25, Diff = 25 * 25000 / 125001 = 4.99996 -> 4 (by hand).
        let d = table_diff(s.cwnd);
        assert!((2.0..5.0).contains(&d), "cwnd {} Diff {d}", s.cwnd);
        assert_eq!(s.cwnd, 25);
    }

    #[test]
    fn congestion_avoidance_above_beta_sheds_one_segment_per_rtt() {
        let (mut v, mut s) = vegas_established(30, 10);
        v.base_rtt = 100_001; // the empty-queue RTT, seen earlier on the connection
                              // Diff = 30 - 20 = 10 > beta: one segment less per RTT while Linux's Diff > 4:
                              // cwnd 26 gives 26 * 26000 / 126001 = 5, cwnd 25 gives 4 (by hand): hold at 25.
        let mut cwnds = vec![s.cwnd];
        for _ in 0..10 {
            one_rtt(&mut v, &mut s);
            cwnds.push(s.cwnd);
        }
        // The first RTT ends at the first ACK of the second (beg_snd_nxt = 30 segments).
        assert_eq!(cwnds, [30, 30, 29, 28, 27, 26, 25, 25, 25, 25, 25]);
    }

    #[test]
    fn slow_start_exits_at_actual_rate_when_diff_exceeds_gamma() {
        let (mut v, mut s) = vegas_established(40, u32::MAX / 2);
        let ack = |v: &mut Vegas, s: &mut CcState, una: u32, rtt_ms: u64| {
            s.now += Dur::from_ms(5);
            s.snd_una = u64::from(una * MSS);
            s.snd_nxt = s.snd_una + u64::from(s.cwnd * MSS);
            v.pkts_acked(s, 1, Some(Dur::from_ms(rtt_ms)));
            v.cong_avoid(s, 1);
        };
        // First RTT ends (snd_una > 40 segments) with one sample: Reno's slow start.
        ack(&mut v, &mut s, 41, 100);
        assert_eq!(s.cwnd, 41);
        // Next RTT: 4 samples of 200 ms against baseRTT 100 ms (both + 1 us).
        for una in 42..45 {
            ack(&mut v, &mut s, una, 200);
        }
        assert_eq!(s.cwnd, 44, "slow start inside the RTT");
        ack(&mut v, &mut s, 83, 200);
        // Diff = 44 * 100000 / 200001 = 21 > gamma: cwnd = min(44, 44 * 100001 / 200001 + 1)
        // = 22 + 1, ssthresh = min(ssthresh, cwnd) = 23 (tcp_vegas.c).
        assert_eq!(s.cwnd, 23);
        assert_eq!(s.ssthresh, 23);
        assert!(!s.in_slow_start());
    }

    #[test]
    fn congestion_avoidance_with_two_samples_per_rtt_is_reno() {
        let (mut v, mut s) = vegas_established(30, 10);
        // One stretch ACK of 30 segments every 150 ms: each RTT boundary sees cntRTT = 2, so
        // tcp_reno_cong_avoid(acked = 30) runs once per two ACKs: cwnd_cnt 30 >= 30: 31;
        // 30 < 31; 60 >= 31: 32 (cnt 29); 59 >= 32: 33 (by hand, tcp_cong_avoid_ai).
        let mut cwnds = Vec::new();
        for _ in 0..8 {
            s.now += Dur::from_ms(150);
            s.snd_una += u64::from(30 * MSS);
            s.snd_nxt = s.snd_una + u64::from(s.cwnd * MSS);
            v.pkts_acked(&mut s, 30, Some(Dur::from_ms(150)));
            v.cong_avoid(&mut s, 30);
            cwnds.push(s.cwnd);
        }
        assert_eq!(cwnds, [30, 31, 31, 31, 31, 32, 32, 33]);
    }

    #[test]
    fn congestion_avoidance_diff_over_base_rtt_is_linux_2008_formula() {
        let mut v = Vegas { base_rtt: 100_001, ..Vegas::new() };
        // cwnd 25 at RTT 125 ms: Table I's Diff 25 * 25000 / 125001 = 4 (holds) ...
        assert_eq!(v.diff(25, 125_001), 4);
        // ... Linux 2.6.25 - 6.x's 25 * 25000 / 100001 = 6 (> beta: shrinks).
        v.diff_over_base_rtt = true;
        assert_eq!(v.diff(25, 125_001), 6);
    }

    #[test]
    fn loss_uses_reno_ssthresh_and_disables_vegas_until_open() {
        let (mut v, mut s) = vegas_established(30, 10);
        assert_eq!(v.ssthresh(&s), 15);
        v.set_state(&mut s, CaState::Recovery);
        assert!(!v.doing_vegas_now);
        v.set_state(&mut s, CaState::Open);
        assert!(v.doing_vegas_now);
    }
}
