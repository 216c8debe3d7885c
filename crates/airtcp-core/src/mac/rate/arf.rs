//! ARF and AARF: up one mode after a run of successes (or when a timer runs out), down one
//! after two failures in a row, and straight back down when the first frame at a new mode
//! fails. Three variants:
//! - `arf`: Kamerman and Monteban's ARF (WaveLAN-II, Bell Labs Technical Journal 1997) with its
//!   timer in simulated time, as QualNet (`mac_dot11.h`: DOT11_NUM_ACKS_FOR_RATE_INCREASE 10,
//!   DOT11_NUM_ACKS_FOR_RATE_DECREASE 2, DOT11_DATA_RATE_ADJUSTMENT_TIME 60 ms) and paper 003;
//! - `arf-ns3`: ns-3's `ArfWifiManager`, whose timer counts attempts (TimerThreshold 15,
//!   SuccessThreshold 10);
//! - `aarf`: ns-3's `AarfWifiManager` (Lacage, Manshaei, Turletti, MSWiM 2004): a failed probe
//!   doubles the success threshold (10 up to 60) and the timer, two failures reset them.
//!
//! The state machine follows ns-3's `DoReportDataOk` / `DoReportDataFailed` line by line
//! (failures are per attempt, so the retries of one frame count); the mode ladder is the
//! standard's modes in ascending rate, starting at the lowest, as ns-3's stations do
//! (`DoCreateStation`: `m_rate = 0`), or at the rung `wifi.initial_rate_mbps` names, in the
//! same state otherwise (no recovery, counters and timer at zero).

use super::{RateControl, TxReport};
use crate::phy::ModeId;
use crate::time::{Dur, SimTime};

/// When the timer that forces a probe up runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArfTimer {
    /// After this many attempts (successes and failures) at one mode (ns-3).
    Attempts(u32),
    /// After this much time since the last change (QualNet, Kamerman and Monteban).
    Time(Dur),
}

/// Parameters of ARF and AARF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArfParams {
    /// Successes in a row that move up a mode (AARF: the initial and smallest threshold).
    pub success_threshold: u32,
    pub timer: ArfTimer,
    /// AARF: a failed probe multiplies the success threshold and the timer by `k` (up to
    /// `max_success_threshold`); `None` for ARF.
    pub adaptive: Option<AarfParams>,
    /// The fallback after a failed probe ends the recovery: from then on two failures in a
    /// row step down again (Kamerman and Monteban, paper 003's description). ns-3 keeps the
    /// recovery until a frame is acknowledged, so a fallback mode that fails too is kept.
    pub recovery_ends_at_fallback: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AarfParams {
    pub k: u32,
    pub max_success_threshold: u32,
}

impl ArfParams {
    /// QualNet's ARF: 10 successes, 2 failures, 60 ms.
    pub const QUALNET: ArfParams = ArfParams {
        success_threshold: 10,
        timer: ArfTimer::Time(Dur::from_ms(60)),
        adaptive: None,
        recovery_ends_at_fallback: true,
    };
    /// ns-3's ArfWifiManager defaults.
    pub const NS3: ArfParams = ArfParams {
        success_threshold: 10,
        timer: ArfTimer::Attempts(15),
        adaptive: None,
        recovery_ends_at_fallback: false,
    };
    /// ns-3's AarfWifiManager defaults (SuccessK 2, TimerK 2, MinSuccessThreshold 10,
    /// MaxSuccessThreshold 60, MinTimerThreshold 15).
    pub const AARF_NS3: ArfParams = ArfParams {
        success_threshold: 10,
        timer: ArfTimer::Attempts(15),
        adaptive: Some(AarfParams { k: 2, max_success_threshold: 60 }),
        recovery_ends_at_fallback: false,
    };
}

/// ARF or AARF over a ladder of modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arf {
    pub ladder: &'static [ModeId],
    pub params: ArfParams,
    /// The rung a peer starts at (0: the lowest).
    pub start: u8,
}

/// What ARF keeps per peer (ns-3's `ArfWifiRemoteStation` / `AarfWifiRemoteStation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArfStation {
    /// Index in the ladder.
    pub rate: u8,
    pub success: u32,
    pub failed: u32,
    /// Attempts since the timer was last reset (counted timer).
    pub timer: u32,
    /// When the timer was last reset (timer in time).
    pub timer_since: SimTime,
    /// The last mode change was up and no frame has been acknowledged since: the next failure
    /// goes straight back down.
    pub recovery: bool,
    pub success_threshold: u32,
    /// The counted timer's threshold (AARF scales it), or the timer in ns for a timer in time.
    pub timer_threshold: u64,
}

impl Arf {
    fn timer_reset(st: &mut ArfStation, now: SimTime) {
        st.timer = 0;
        st.timer_since = now;
    }

    fn timer_expired(&self, st: &ArfStation, now: SimTime) -> bool {
        match self.params.timer {
            // ns-3 compares with ==: a count that passes the threshold on a failed attempt
            // (and is not reset) fires no more until the next reset.
            ArfTimer::Attempts(_) => u64::from(st.timer) == st.timer_threshold,
            ArfTimer::Time(_) => now.since(st.timer_since).ns() >= st.timer_threshold,
        }
    }

    fn initial_timer(&self) -> u64 {
        match self.params.timer {
            ArfTimer::Attempts(n) => u64::from(n),
            ArfTimer::Time(d) => d.ns(),
        }
    }

    /// `DoReportDataFailed`: one data attempt got no ACK.
    fn data_failed(&self, st: &mut ArfStation, now: SimTime) {
        st.timer += 1;
        st.failed += 1;
        st.success = 0;
        if st.recovery {
            if st.failed == 1 {
                // The probe at the new mode failed: back down at once (AARF: and be slower
                // to try again).
                if let Some(a) = self.params.adaptive {
                    st.success_threshold = (st.success_threshold * a.k).min(a.max_success_threshold);
                    // ns-3 takes max(timer * K, MinSuccessThreshold) here (not MinTimerThreshold).
                    st.timer_threshold =
                        (st.timer_threshold * u64::from(a.k)).max(u64::from(self.params.success_threshold));
                }
                st.rate = st.rate.saturating_sub(1);
                if self.params.recovery_ends_at_fallback {
                    // Back at the former mode, normal again: two more failures step down.
                    st.recovery = false;
                    st.failed = 0;
                }
            }
            Self::timer_reset(st, now);
        } else {
            if (st.failed - 1) % 2 == 1 {
                // Two failures in a row (and every second one after): down one mode.
                if self.params.adaptive.is_some() {
                    st.success_threshold = self.params.success_threshold;
                    st.timer_threshold = self.initial_timer();
                }
                st.rate = st.rate.saturating_sub(1);
            }
            if st.failed >= 2 {
                Self::timer_reset(st, now);
            }
        }
    }

    /// `DoReportDataOk`: a data frame was acknowledged.
    fn data_ok(&self, st: &mut ArfStation, now: SimTime) {
        st.timer += 1;
        st.success += 1;
        st.failed = 0;
        st.recovery = false;
        let top = (self.ladder.len() - 1) as u8;
        if (st.success == st.success_threshold || self.timer_expired(st, now)) && st.rate < top {
            st.rate += 1;
            st.success = 0;
            st.recovery = true;
            Self::timer_reset(st, now);
        }
    }
}

impl RateControl for Arf {
    type Station = ArfStation;

    fn station(&self) -> ArfStation {
        ArfStation {
            rate: self.start,
            success: 0,
            failed: 0,
            timer: 0,
            timer_since: SimTime::ZERO,
            recovery: false,
            success_threshold: self.params.success_threshold,
            timer_threshold: self.initial_timer(),
        }
    }

    #[inline]
    fn select(&self, st: &mut ArfStation, _queue: usize, _attempt: u32, _now: SimTime) -> ModeId {
        self.ladder[usize::from(st.rate)]
    }

    fn report(&self, st: &mut ArfStation, _queue: usize, report: TxReport, now: SimTime) {
        match report {
            TxReport::DataOk { .. } => self.data_ok(st, now),
            // ns-3 reports a final failure as a failed attempt, then as final (ignored).
            TxReport::DataFailed | TxReport::FinalDataFailed => self.data_failed(st, now),
            // An A-MPDU's end: answered, or its last attempt failed.
            TxReport::Ppdu { block_ack: true, .. } => self.data_ok(st, now),
            TxReport::Ppdu { block_ack: false, .. } => self.data_failed(st, now),
            TxReport::RtsFailed | TxReport::RtsOk | TxReport::FinalRtsFailed => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::Standard;

    const T0: SimTime = SimTime::ZERO;

    fn ms(v: u64) -> SimTime {
        SimTime::ZERO + Dur::from_ms(v)
    }

    fn ok(a: &Arf, st: &mut ArfStation, n: u32, now: SimTime) {
        for _ in 0..n {
            a.report(st, 1, TxReport::DataOk { retries: 0 }, now);
        }
    }

    fn fail(a: &Arf, st: &mut ArfStation, n: u32, now: SimTime) {
        for _ in 0..n {
            a.report(st, 1, TxReport::DataFailed, now);
        }
    }

    fn rate(a: &Arf, st: &mut ArfStation) -> u32 {
        a.select(st, 1, 0, T0).rate_kbps() / 1000
    }

    fn ns3(params: ArfParams) -> (Arf, ArfStation) {
        let a = Arf { ladder: Standard::A.modes(), params, start: 0 };
        let st = a.station();
        (a, st)
    }

    #[test]
    fn starts_at_the_lowest_mode_and_ten_successes_move_up_one() {
        let (a, mut st) = ns3(ArfParams::NS3);
        assert_eq!(rate(&a, &mut st), 6);
        ok(&a, &mut st, 9, T0);
        assert_eq!(rate(&a, &mut st), 6);
        ok(&a, &mut st, 1, T0);
        assert_eq!((rate(&a, &mut st), st.recovery, st.success), (9, true, 0));
    }

    #[test]
    fn a_peer_started_at_a_rung_sends_there_and_steps_down_after_two_failures() {
        // 802.11a, 24 Mbit/s is rung 4 of 6, 9, 12, 18, 24, 36, 48, 54.
        let a = Arf { ladder: Standard::A.modes(), params: ArfParams::NS3, start: 4 };
        let mut st = a.station();
        assert_eq!((rate(&a, &mut st), st.recovery, st.success, st.failed), (24, false, 0, 0));
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 24, "one failure is not enough");
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 18, "two in a row step down one rung");
        ok(&a, &mut st, 10, T0);
        assert_eq!((rate(&a, &mut st), st.recovery), (24, true), "ten ACKs climb back");
        // Ten ACKs at the start climb one rung as from the lowest: 24 -> 36.
        let mut st = a.station();
        ok(&a, &mut st, 10, T0);
        assert_eq!((rate(&a, &mut st), st.recovery), (36, true));
    }

    #[test]
    fn every_variant_starts_at_its_rung_of_its_own_ladder() {
        // QualNet's ARF: the timer runs from time zero as from the lowest rung; 60 ms of
        // ACKs at 24 climb to 36.
        let q = Arf { ladder: Standard::A.modes(), params: ArfParams::QUALNET, start: 4 };
        let mut st = q.station();
        ok(&q, &mut st, 1, ms(59));
        assert_eq!(rate(&q, &mut st), 24);
        ok(&q, &mut st, 1, ms(60));
        assert_eq!(rate(&q, &mut st), 36);
        // AARF: a failed probe from the start doubles the thresholds and falls back to it.
        let aarf = Arf { ladder: Standard::A.modes(), params: ArfParams::AARF_NS3, start: 4 };
        let mut st = aarf.station();
        ok(&aarf, &mut st, 10, T0);
        fail(&aarf, &mut st, 1, T0);
        assert_eq!((rate(&aarf, &mut st), st.success_threshold, st.timer_threshold), (24, 20, 30));
        // ns-3's 802.11g list goes by class (1, 2, 5.5, 11, 6, 9, ...): started at 11 Mbit/s
        // (rung 3), ten ACKs go to 6 Mbit/s as ns-3's do.
        let g = Arf { ladder: Standard::G.modes_by_class(), params: ArfParams::NS3, start: 3 };
        let mut st = g.station();
        assert_eq!(g.select(&mut st, 1, 0, T0).rate_kbps(), 11_000);
        ok(&g, &mut st, 10, T0);
        assert_eq!(g.select(&mut st, 1, 0, T0).rate_kbps(), 6_000);
    }

    #[test]
    fn a_failed_probe_goes_straight_back_down() {
        let (a, mut st) = ns3(ArfParams::NS3);
        ok(&a, &mut st, 10, T0); // up to 9, recovery
        fail(&a, &mut st, 1, T0);
        assert_eq!((rate(&a, &mut st), st.timer), (6, 0));
        // Recovery lasts until an ACK: a second failure does not step down again.
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 6);
    }

    #[test]
    fn qualnet_arf_is_normal_again_after_the_fallback_and_never_sticks() {
        // Kamerman and Monteban (paper 003 II): after a failed probe the rate goes back and
        // the timer restarts; two more failures in a row step down again. (ns-3 keeps the
        // recovery until an ACK, above: a station walking out of the fallback mode's range
        // would keep sending at it.)
        let a = Arf { ladder: Standard::A.modes(), params: ArfParams::QUALNET, start: 0 };
        let mut st = a.station();
        ok(&a, &mut st, 10, T0); // 6 -> 9, recovery
        fail(&a, &mut st, 1, T0);
        assert_eq!((rate(&a, &mut st), st.recovery, st.failed), (6, false, 0));
        ok(&a, &mut st, 10, ms(1)); // 6 -> 9 again
        ok(&a, &mut st, 1, ms(1)); // recovery over (1 success at 9)
        ok(&a, &mut st, 9, ms(2)); // the 10th success: 9 -> 12, recovery
        assert_eq!((rate(&a, &mut st), st.recovery), (12, true));
        fail(&a, &mut st, 1, ms(2)); // back to 9
        assert_eq!((rate(&a, &mut st), st.recovery), (9, false));
        fail(&a, &mut st, 1, ms(3));
        assert_eq!(rate(&a, &mut st), 9, "one failure after the fallback is not enough");
        fail(&a, &mut st, 1, ms(3));
        assert_eq!(rate(&a, &mut st), 6, "two in a row step down");
    }

    #[test]
    fn two_failures_in_a_row_step_down_and_every_second_one_after() {
        let (a, mut st) = ns3(ArfParams::NS3);
        ok(&a, &mut st, 30, T0); // 6 -> 9 -> 12 -> 18
        ok(&a, &mut st, 1, T0); // recovery ends
        assert_eq!(rate(&a, &mut st), 18);
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 18, "one failure is not enough");
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 12);
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 12, "the 3rd: odd, no step");
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 9, "the 4th steps down again");
        // A success in between breaks the run.
        ok(&a, &mut st, 1, T0);
        fail(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 9);
    }

    #[test]
    fn the_counted_timer_moves_up_after_fifteen_attempts_without_ten_successes_in_a_row() {
        let (a, mut st) = ns3(ArfParams::NS3);
        ok(&a, &mut st, 10, T0); // up to 9 Mbit/s, timer 0
        ok(&a, &mut st, 1, T0);
        // Alternate a failure and a success: never 10 successes in a row, never 2 failures.
        for _ in 0..7 {
            fail(&a, &mut st, 1, T0);
            ok(&a, &mut st, 1, T0);
        }
        // 1 + 14 attempts = 15 on the timer at the last success: up.
        assert_eq!(rate(&a, &mut st), 12);
    }

    #[test]
    fn the_timer_in_time_moves_up_at_the_first_success_after_sixty_ms() {
        let a = Arf { ladder: Standard::A.modes(), params: ArfParams::QUALNET, start: 0 };
        let mut st = a.station();
        ok(&a, &mut st, 5, ms(10));
        assert_eq!(rate(&a, &mut st), 6);
        ok(&a, &mut st, 1, ms(59));
        assert_eq!(rate(&a, &mut st), 6);
        ok(&a, &mut st, 1, ms(60));
        assert_eq!(rate(&a, &mut st), 9);
        // The timer restarted at the change: 59 ms later, still 9 (2 successes only).
        ok(&a, &mut st, 1, ms(119));
        assert_eq!(rate(&a, &mut st), 9);
        ok(&a, &mut st, 1, ms(120));
        assert_eq!(rate(&a, &mut st), 12);
    }

    #[test]
    fn aarf_doubles_the_threshold_after_a_failed_probe_and_resets_it_after_two_failures() {
        let (a, mut st) = ns3(ArfParams::AARF_NS3);
        ok(&a, &mut st, 10, T0); // up to 9
        fail(&a, &mut st, 1, T0); // failed probe: back to 6, threshold 20, timer 30
        assert_eq!((rate(&a, &mut st), st.success_threshold, st.timer_threshold), (6, 20, 30));
        ok(&a, &mut st, 19, T0);
        assert_eq!(rate(&a, &mut st), 6, "19 < 20");
        ok(&a, &mut st, 1, T0);
        assert_eq!(rate(&a, &mut st), 9);
        fail(&a, &mut st, 1, T0); // fails again: 40, 60
        fail(&a, &mut st, 1, T0);
        assert_eq!((rate(&a, &mut st), st.success_threshold, st.timer_threshold), (6, 40, 60));
        for _ in 0..3 {
            let n = st.success_threshold;
            ok(&a, &mut st, n, T0);
            fail(&a, &mut st, 1, T0);
        }
        assert_eq!(st.success_threshold, 60, "capped at MaxSuccessThreshold");
        // Two failures in a row (not a probe) reset the thresholds.
        ok(&a, &mut st, 1, T0);
        fail(&a, &mut st, 2, T0);
        assert_eq!((st.success_threshold, st.timer_threshold), (10, 15));
    }

    #[test]
    fn the_top_mode_is_kept_and_rts_outcomes_are_ignored() {
        let (a, mut st) = ns3(ArfParams::NS3);
        ok(&a, &mut st, 200, T0);
        assert_eq!(rate(&a, &mut st), 54);
        a.report(&mut st, 1, TxReport::RtsFailed, T0);
        a.report(&mut st, 1, TxReport::FinalRtsFailed, T0);
        assert_eq!((rate(&a, &mut st), st.failed), (54, 0));
        // A final data failure counts as a failed attempt (ns-3 reports both).
        a.report(&mut st, 1, TxReport::DataFailed, T0);
        a.report(&mut st, 1, TxReport::FinalDataFailed, T0);
        assert_eq!(rate(&a, &mut st), 48);
    }

    #[test]
    fn the_counted_timer_compares_for_equality_as_ns3_does() {
        // The timer reaches 15 on a failure that is not the second in a row: no step, no
        // reset, and ns-3's `m_timer == m_timerThreshold` never holds again until a reset, so
        // the next success does not step up either (it would with >=).
        let (a, mut st) = ns3(ArfParams::NS3);
        ok(&a, &mut st, 2, T0); // timer 2
        for _ in 0..6 {
            fail(&a, &mut st, 1, T0);
            ok(&a, &mut st, 1, T0);
        }
        assert_eq!((st.timer, rate(&a, &mut st)), (14, 6));
        fail(&a, &mut st, 1, T0); // the 15th attempt fails
        ok(&a, &mut st, 1, T0); // 16: past the threshold
        assert_eq!((rate(&a, &mut st), st.timer), (6, 16));
    }
}
