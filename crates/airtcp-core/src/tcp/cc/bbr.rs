//! BBR v1 as Linux's `net/ipv4/tcp_bbr.c` runs it (4.20-6.x: departure-time pacing, ACK
//! aggregation): a model of the path, bottleneck bandwidth = the windowed max of delivery-rate
//! samples over 10 rounds and min RTT = the windowed min over 10 s, sets the pacing rate
//! (pacing_gain x bw) and cwnd (cwnd_gain x BDP + the ACK aggregation allowance + the
//! quantization budget). Modes: Startup (gain 2.885), Drain (1/2.885), ProbeBW (the gain cycle
//! 5/4, 3/4, 1 x 6, from a random phase) and ProbeRTT (cwnd 4 for max(200 ms, one round)
//! once min RTT is 10 s old). Linux's long-term ("policer") bandwidth sampling is here too.
//!
//! It replaces the sender's window rules on every ACK (`cong_control`: no PRR, no
//! `cong_avoid`, no cwnd restore at the end of a reduction) and paces every segment
//! (`tcp_update_skb_after_send`, in the sender). Rates are Linux's fixed point: bandwidth in
//! packets per microsecond << 24, gains << 8; times in microseconds and jiffies at HZ = 1000.

use super::{CaState, CcState, CongestionOps, CwndEvent};
use crate::rng::Draws;
use crate::tcp::rate::RateSample;

const BW_SCALE: u32 = 24;
const BW_UNIT: u64 = 1 << BW_SCALE;
const BBR_SCALE: u32 = 8;
const BBR_UNIT: u32 = 1 << BBR_SCALE;

/// `CYCLE_LEN`: phases of the ProbeBW gain cycle.
const CYCLE_LEN: u8 = 8;
/// `bbr_bw_rtts`: the bandwidth filter's window [rounds].
const BW_RTTS: u32 = CYCLE_LEN as u32 + 2;
/// `bbr_min_rtt_win_sec` [s] and `bbr_probe_rtt_mode_ms`.
const MIN_RTT_WIN_MS: u32 = 10_000;
const PROBE_RTT_MODE_MS: u32 = 200;
/// `bbr_min_tso_rate` [bit/s].
const MIN_TSO_RATE: u64 = 1_200_000;
/// `bbr_pacing_margin_percent`.
const PACING_MARGIN_PERCENT: u64 = 1;
/// `bbr_high_gain` = 2/ln 2, `bbr_drain_gain` its inverse, `bbr_cwnd_gain`.
pub const HIGH_GAIN: u32 = BBR_UNIT * 2885 / 1000 + 1;
pub const DRAIN_GAIN: u32 = BBR_UNIT * 1000 / 2885;
const CWND_GAIN: u32 = BBR_UNIT * 2;
/// `bbr_pacing_gain[]`.
const PACING_GAIN: [u32; CYCLE_LEN as usize] =
    [BBR_UNIT * 5 / 4, BBR_UNIT * 3 / 4, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT];
/// `bbr_cycle_rand`.
const CYCLE_RAND: u32 = 7;
/// `bbr_cwnd_min_target` [segments].
pub const CWND_MIN_TARGET: u32 = 4;
/// `bbr_full_bw_thresh`, `bbr_full_bw_cnt`.
const FULL_BW_THRESH: u64 = (BBR_UNIT * 5 / 4) as u64;
const FULL_BW_CNT: u8 = 3;
/// Long-term sampling: `bbr_lt_intvl_min_rtts`, `bbr_lt_loss_thresh`, `bbr_lt_bw_ratio`,
/// `bbr_lt_bw_diff` [bytes/s], `bbr_lt_bw_max_rtts`.
const LT_INTVL_MIN_RTTS: u32 = 4;
const LT_LOSS_THRESH: u64 = 50;
const LT_BW_RATIO: u64 = (BBR_UNIT / 8) as u64;
const LT_BW_DIFF: u64 = 4000 / 8;
const LT_BW_MAX_RTTS: u32 = 48;
/// ACK aggregation: `bbr_extra_acked_gain`, `bbr_extra_acked_win_rtts`,
/// `bbr_ack_epoch_acked_reset_thresh`, `bbr_extra_acked_max_us`.
const EXTRA_ACKED_GAIN: u64 = BBR_UNIT as u64;
const EXTRA_ACKED_WIN_RTTS: u32 = 5;
const ACK_EPOCH_ACKED_RESET_THRESH: u64 = 1 << 20;
const EXTRA_ACKED_MAX_US: u64 = 100_000;
/// `TCP_INIT_CWND`.
const TCP_INIT_CWND: u32 = 10;
/// `GSO_MAX_SIZE - 1 - MAX_TCP_HEADER` (64 KiB less the largest header, x86-64).
const GSO_BYTES: u64 = 65_536 - 1 - 320;

/// BBR's modes (`enum bbr_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Startup => "startup",
            Mode::Drain => "drain",
            Mode::ProbeBw => "probe_bw",
            Mode::ProbeRtt => "probe_rtt",
        }
    }
}

/// Kathleen Nichols' windowed max of three samples (`lib/win_minmax.c`).
#[derive(Clone, Copy, Debug, Default)]
struct MinMax {
    s: [(u32, u64); 3],
}

impl MinMax {
    fn get(&self) -> u64 {
        self.s[0].1
    }

    fn reset(&mut self, t: u32, v: u64) -> u64 {
        self.s = [(t, v); 3];
        v
    }

    /// `minmax_running_max`.
    fn running_max(&mut self, win: u32, t: u32, v: u64) -> u64 {
        if v >= self.s[0].1 || t.wrapping_sub(self.s[2].0) > win {
            return self.reset(t, v); // a new max, or nothing left in the window
        }
        if v >= self.s[1].1 {
            self.s[1] = (t, v);
            self.s[2] = (t, v);
        } else if v >= self.s[2].1 {
            self.s[2] = (t, v);
        }
        self.subwin_update(win, (t, v))
    }

    /// `minmax_subwin_update`.
    fn subwin_update(&mut self, win: u32, val: (u32, u64)) -> u64 {
        let dt = val.0.wrapping_sub(self.s[0].0);
        if dt > win {
            // The whole window passed without a new max: the 2nd and 3rd choices move up.
            self.s = [self.s[1], self.s[2], val];
            if val.0.wrapping_sub(self.s[0].0) > win {
                self.s = [self.s[1], self.s[2], val];
            }
        } else if self.s[1].0 == self.s[0].0 && dt > win / 4 {
            // A quarter of the window without a new 2nd choice: take one from the 2nd quarter.
            self.s[1] = val;
            self.s[2] = val;
        } else if self.s[2].0 == self.s[1].0 && dt > win / 2 {
            self.s[2] = val;
        }
        self.s[0].1
    }
}

/// `struct bbr`.
#[derive(Clone, Debug)]
pub struct Bbr {
    min_rtt_us: u32,
    min_rtt_stamp: u32,
    probe_rtt_done_stamp: u32,
    bw: MinMax,
    rtt_cnt: u32,
    next_rtt_delivered: u64,
    cycle_mstamp: u64,
    pub mode: Mode,
    prev_ca_state: CaState,
    packet_conservation: bool,
    round_start: bool,
    idle_restart: bool,
    probe_rtt_round_done: bool,
    lt_is_sampling: bool,
    lt_rtt_cnt: u32,
    lt_use_bw: bool,
    lt_bw: u64,
    lt_last_delivered: u64,
    lt_last_stamp: u32,
    lt_last_lost: u64,
    pub pacing_gain: u32,
    pub cwnd_gain: u32,
    full_bw_reached: bool,
    full_bw_cnt: u8,
    cycle_idx: u8,
    has_seen_rtt: bool,
    prior_cwnd: u32,
    full_bw: u64,
    ack_epoch_mstamp: u64,
    extra_acked: [u64; 2],
    ack_epoch_acked: u64,
    extra_acked_win_rtts: u32,
    extra_acked_win_idx: usize,
    /// The random start of each ProbeBW cycle (`prandom_u32_max`): the flow's own seeded draws.
    draws: Draws,
    /// ProbeRTT entries, for the summary.
    pub probe_rtt_entries: u64,
}

impl Bbr {
    /// The flow's own draws for the gain cycle's phases.
    pub(crate) fn reseed(&mut self, draws: Draws) {
        self.draws = draws;
    }
}

fn now_us(s: &CcState) -> u64 {
    s.now.ns() / 1000
}

/// `tcp_jiffies32` at HZ = 1000.
fn jiffies(s: &CcState) -> u32 {
    (s.now.ns() / 1_000_000) as u32
}

/// `after(a, b)` on 32-bit jiffies.
fn after(a: u32, b: u32) -> bool {
    (b.wrapping_sub(a) as i32) < 0
}

impl Bbr {
    pub(crate) fn new(draws: Draws) -> Bbr {
        Bbr {
            min_rtt_us: u32::MAX,
            min_rtt_stamp: 0,
            probe_rtt_done_stamp: 0,
            bw: MinMax::default(),
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            cycle_mstamp: 0,
            mode: Mode::Startup,
            prev_ca_state: CaState::Open,
            packet_conservation: false,
            round_start: false,
            idle_restart: false,
            probe_rtt_round_done: false,
            lt_is_sampling: false,
            lt_rtt_cnt: 0,
            lt_use_bw: false,
            lt_bw: 0,
            lt_last_delivered: 0,
            lt_last_stamp: 0,
            lt_last_lost: 0,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            full_bw_reached: false,
            full_bw_cnt: 0,
            cycle_idx: 0,
            has_seen_rtt: false,
            prior_cwnd: 0,
            full_bw: 0,
            ack_epoch_mstamp: 0,
            extra_acked: [0; 2],
            ack_epoch_acked: 0,
            extra_acked_win_rtts: 0,
            extra_acked_win_idx: 0,
            draws,
            probe_rtt_entries: 0,
        }
    }

    fn max_bw(&self) -> u64 {
        self.bw.get()
    }

    /// `bbr_bw`: the bandwidth estimate [packets/us << 24].
    pub fn bw(&self) -> u64 {
        if self.lt_use_bw {
            self.lt_bw
        } else {
            self.max_bw()
        }
    }

    /// The bandwidth estimate in bit/s of payload (`bbr_get_info`'s `bbr_bw`, x 8).
    pub fn bw_bps(&self, mss: u32) -> u64 {
        (((u128::from(self.bw()) * u128::from(mss) * 1_000_000) >> BW_SCALE) * 8) as u64
    }

    /// The min RTT estimate [us] (`u32::MAX` before any sample).
    pub fn min_rtt_us(&self) -> u32 {
        self.min_rtt_us
    }

    fn extra_acked(&self) -> u64 {
        self.extra_acked[0].max(self.extra_acked[1])
    }

    /// `bbr_rate_bytes_per_sec`.
    fn rate_bytes_per_sec(mss: u32, rate: u64, gain: u32) -> u64 {
        let mut r = u128::from(rate) * u128::from(mss);
        r = (r * u128::from(gain)) >> BBR_SCALE;
        r *= u128::from(1_000_000 / 100 * (100 - PACING_MARGIN_PERCENT));
        (r >> BW_SCALE) as u64
    }

    /// `bbr_init_pacing_rate_from_rtt`: high_gain x cwnd / SRTT (1 ms before any sample).
    fn init_pacing_rate_from_rtt(&mut self, s: &mut CcState) {
        let rtt_us = if s.srtt.ns() > 0 {
            self.has_seen_rtt = true;
            (s.srtt.ns() / 1000).max(1)
        } else {
            1000
        };
        let bw = u64::from(s.cwnd) * BW_UNIT / rtt_us;
        s.pacing_rate = Self::rate_bytes_per_sec(s.mss, bw, HIGH_GAIN);
    }

    /// `bbr_set_pacing_rate`: only up until the pipe is full, then wherever the model says.
    fn set_pacing_rate(&mut self, s: &mut CcState, bw: u64, gain: u32) {
        let rate = Self::rate_bytes_per_sec(s.mss, bw, gain);
        if !self.has_seen_rtt && s.srtt.ns() > 0 {
            self.init_pacing_rate_from_rtt(s);
        }
        if self.full_bw_reached || rate > s.pacing_rate {
            s.pacing_rate = rate;
        }
    }

    /// `bbr_min_tso_segs`.
    fn min_tso_segs(s: &CcState) -> u64 {
        if s.pacing_rate < MIN_TSO_RATE >> 3 {
            1
        } else {
            2
        }
    }

    /// `bbr_tso_segs_goal`: about 1 ms of data at the pacing rate (`sk_pacing_shift`: 8 ms
    /// on mac80211), at least 1-2 segments.
    pub fn tso_segs_goal(s: &CcState) -> u32 {
        let bytes = (s.pacing_rate >> s.pacing_shift).min(GSO_BYTES);
        let segs = (bytes / u64::from(s.mss.max(1))).max(Self::min_tso_segs(s));
        segs.min(0x7f) as u32
    }

    /// `bbr_save_cwnd`.
    fn save_cwnd(&mut self, s: &CcState) {
        if !matches!(self.prev_ca_state, CaState::Recovery | CaState::Loss) && self.mode != Mode::ProbeRtt {
            self.prior_cwnd = s.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(s.cwnd);
        }
    }

    /// `bbr_bdp`: ceil(bw x min_rtt x gain) [segments].
    fn bdp(&self, bw: u64, gain: u32) -> u32 {
        if self.min_rtt_us == u32::MAX {
            return TCP_INIT_CWND;
        }
        let w = u128::from(bw) * u128::from(self.min_rtt_us);
        ((w * u128::from(gain)) >> BBR_SCALE).div_ceil(u128::from(BW_UNIT)) as u32
    }

    /// `bbr_quantization_budget`.
    fn quantization_budget(&self, s: &CcState, cwnd: u32) -> u32 {
        let mut cwnd = cwnd + 3 * Self::tso_segs_goal(s);
        cwnd = (cwnd + 1) & !1;
        if self.mode == Mode::ProbeBw && self.cycle_idx == 0 {
            cwnd += 2;
        }
        cwnd
    }

    /// `bbr_inflight`.
    fn inflight(&self, s: &CcState, bw: u64, gain: u32) -> u32 {
        let bdp = self.bdp(bw, gain);
        self.quantization_budget(s, bdp)
    }

    /// `bbr_packets_in_net_at_edt`: the flight less what the bottleneck delivers before the
    /// next departure time, plus that departure when probing up.
    fn packets_in_net_at_edt(&self, s: &CcState, inflight_now: u32) -> u32 {
        let now_ns = s.now.ns();
        let edt_ns = s.wstamp_ns.max(now_ns);
        let interval_us = (edt_ns - now_ns) / 1000;
        let interval_delivered = ((u128::from(self.bw()) * u128::from(interval_us)) >> BW_SCALE) as u64;
        let mut at_edt = u64::from(inflight_now);
        if self.pacing_gain > BBR_UNIT {
            at_edt += u64::from(Self::tso_segs_goal(s));
        }
        at_edt.saturating_sub(interval_delivered) as u32
    }

    /// `bbr_ack_aggregation_cwnd`.
    fn ack_aggregation_cwnd(&self) -> u32 {
        if EXTRA_ACKED_GAIN == 0 || !self.full_bw_reached {
            return 0;
        }
        let max_aggr = u128::from(self.bw()) * u128::from(EXTRA_ACKED_MAX_US) / u128::from(BW_UNIT);
        let aggr = u128::from((EXTRA_ACKED_GAIN * self.extra_acked()) >> BBR_SCALE);
        aggr.min(max_aggr) as u32
    }

    /// `bbr_set_cwnd_to_recover_or_restore`: packet conservation in the first round of
    /// recovery, the saved cwnd back after it. Returns the cwnd and whether conservation holds.
    fn recover_or_restore(&mut self, s: &CcState, rs: &RateSample, acked: u32) -> (u32, bool) {
        let (prev, state) = (self.prev_ca_state, s.ca);
        let mut cwnd = s.cwnd;
        if rs.losses > 0 {
            cwnd = (i64::from(cwnd) - i64::from(rs.losses)).max(1) as u32;
        }
        let recovery = |c: CaState| matches!(c, CaState::Recovery | CaState::Loss);
        if state == CaState::Recovery && prev != CaState::Recovery {
            self.packet_conservation = true;
            self.next_rtt_delivered = s.delivered; // start a round now
            cwnd = s.in_flight + acked;
        } else if recovery(prev) && !recovery(state) {
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca_state = state;
        if self.packet_conservation {
            return (cwnd.max(s.in_flight + acked), true);
        }
        (cwnd, false)
    }

    /// `bbr_set_cwnd`.
    fn set_cwnd(&mut self, s: &mut CcState, rs: &RateSample, acked: u32, bw: u64, gain: u32) {
        let mut cwnd = s.cwnd;
        if acked > 0 {
            let (c, conserving) = self.recover_or_restore(s, rs, acked);
            cwnd = c;
            if !conserving {
                let mut target = self.bdp(bw, gain);
                target += self.ack_aggregation_cwnd();
                target = self.quantization_budget(s, target);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || s.delivered < u64::from(TCP_INIT_CWND) {
                    cwnd += acked;
                }
                cwnd = cwnd.max(CWND_MIN_TARGET);
            }
        }
        s.cwnd = cwnd.min(s.cwnd_clamp);
        if self.mode == Mode::ProbeRtt {
            s.cwnd = s.cwnd.min(CWND_MIN_TARGET);
        }
    }

    /// `bbr_is_next_cycle_phase`.
    fn is_next_cycle_phase(&self, s: &CcState, rs: &RateSample) -> bool {
        let is_full_length =
            s.delivered_mstamp_us.saturating_sub(self.cycle_mstamp) > u64::from(self.min_rtt_us);
        if self.pacing_gain == BBR_UNIT {
            return is_full_length;
        }
        let inflight = self.packets_in_net_at_edt(s, rs.prior_in_flight);
        let bw = self.max_bw();
        if self.pacing_gain > BBR_UNIT {
            return is_full_length && (rs.losses > 0 || inflight >= self.inflight(s, bw, self.pacing_gain));
        }
        is_full_length || inflight <= self.inflight(s, bw, BBR_UNIT)
    }

    fn advance_cycle_phase(&mut self, s: &CcState) {
        self.cycle_idx = (self.cycle_idx + 1) & (CYCLE_LEN - 1);
        self.cycle_mstamp = s.delivered_mstamp_us;
    }

    fn update_cycle_phase(&mut self, s: &CcState, rs: &RateSample) {
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(s, rs) {
            self.advance_cycle_phase(s);
        }
    }

    /// `bbr_reset_probe_bw_mode`: a random phase other than the 3/4 one, then the next.
    fn reset_probe_bw_mode(&mut self, s: &CcState) {
        self.mode = Mode::ProbeBw;
        let r = (self.draws.next_u64() % u64::from(CYCLE_RAND)) as u8; // prandom_u32_max(7)
        self.cycle_idx = CYCLE_LEN - 1 - r;
        self.advance_cycle_phase(s);
    }

    fn reset_mode(&mut self, s: &CcState) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(s);
        } else {
            self.mode = Mode::Startup;
        }
    }

    fn reset_lt_bw_sampling_interval(&mut self, s: &CcState) {
        self.lt_last_stamp = (s.delivered_mstamp_us / 1000) as u32;
        self.lt_last_delivered = s.delivered;
        self.lt_last_lost = s.lost;
        self.lt_rtt_cnt = 0;
    }

    fn reset_lt_bw_sampling(&mut self, s: &CcState) {
        self.lt_bw = 0;
        self.lt_use_bw = false;
        self.lt_is_sampling = false;
        self.reset_lt_bw_sampling_interval(s);
    }

    /// `bbr_lt_bw_interval_done`: two consistent lossy intervals mean a policer.
    fn lt_bw_interval_done(&mut self, s: &CcState, bw: u64) {
        if self.lt_bw > 0 {
            let diff = bw.abs_diff(self.lt_bw);
            if diff * u64::from(BBR_UNIT) <= LT_BW_RATIO * self.lt_bw
                || Self::rate_bytes_per_sec(s.mss, diff, BBR_UNIT) <= LT_BW_DIFF
            {
                self.lt_bw = (bw + self.lt_bw) >> 1;
                self.lt_use_bw = true;
                self.pacing_gain = BBR_UNIT;
                self.lt_rtt_cnt = 0;
                return;
            }
        }
        self.lt_bw = bw;
        self.reset_lt_bw_sampling_interval(s);
    }

    /// `bbr_lt_bw_sampling`: the long-term (policed) rate.
    fn lt_bw_sampling(&mut self, s: &CcState, losses: u32, is_app_limited: bool) {
        if self.lt_use_bw {
            if self.mode == Mode::ProbeBw && self.round_start {
                self.lt_rtt_cnt += 1;
                if self.lt_rtt_cnt >= LT_BW_MAX_RTTS {
                    self.reset_lt_bw_sampling(s);
                    self.reset_probe_bw_mode(s);
                }
            }
            return;
        }
        if !self.lt_is_sampling {
            if losses == 0 {
                return;
            }
            self.reset_lt_bw_sampling_interval(s);
            self.lt_is_sampling = true;
        }
        if is_app_limited {
            self.reset_lt_bw_sampling(s);
            return;
        }
        if self.round_start {
            self.lt_rtt_cnt += 1;
        }
        if self.lt_rtt_cnt < LT_INTVL_MIN_RTTS {
            return;
        }
        if self.lt_rtt_cnt > 4 * LT_INTVL_MIN_RTTS {
            self.reset_lt_bw_sampling(s);
            return;
        }
        if losses == 0 {
            return;
        }
        let lost = s.lost - self.lt_last_lost;
        let delivered = s.delivered - self.lt_last_delivered;
        if delivered == 0 || (lost << BBR_SCALE) < LT_LOSS_THRESH * delivered {
            return;
        }
        let t = ((s.delivered_mstamp_us / 1000) as u32).wrapping_sub(self.lt_last_stamp) as i32;
        if t < 1 {
            return;
        }
        if t as u32 >= u32::MAX / 1000 {
            self.reset_lt_bw_sampling(s);
            return;
        }
        let bw = delivered * BW_UNIT / (u64::from(t as u32) * 1000);
        self.lt_bw_interval_done(s, bw);
    }

    /// `bbr_update_bw`: rounds, and the max filter of delivery rates.
    fn update_bw(&mut self, s: &CcState, rs: &RateSample) {
        self.round_start = false;
        if rs.delivered < 0 || rs.interval_us <= 0 {
            return;
        }
        if rs.prior_delivered >= self.next_rtt_delivered {
            self.next_rtt_delivered = s.delivered;
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        self.lt_bw_sampling(s, rs.losses, rs.is_app_limited);
        let bw = rs.delivered as u64 * BW_UNIT / rs.interval_us as u64;
        if !rs.is_app_limited || bw >= self.max_bw() {
            self.bw.running_max(BW_RTTS, self.rtt_cnt, bw);
        }
    }

    /// `bbr_update_ack_aggregation`: the largest excess of data ACKed over bw x time in the
    /// last 5-10 rounds.
    fn update_ack_aggregation(&mut self, s: &CcState, rs: &RateSample) {
        if EXTRA_ACKED_GAIN == 0 || rs.acked_sacked == 0 || rs.delivered < 0 || rs.interval_us <= 0 {
            return;
        }
        if self.round_start {
            self.extra_acked_win_rtts = (self.extra_acked_win_rtts + 1).min(0x1f);
            if self.extra_acked_win_rtts >= EXTRA_ACKED_WIN_RTTS {
                self.extra_acked_win_rtts = 0;
                self.extra_acked_win_idx ^= 1;
                self.extra_acked[self.extra_acked_win_idx] = 0;
            }
        }
        let epoch_us = s.delivered_mstamp_us.saturating_sub(self.ack_epoch_mstamp);
        let mut expected = (u128::from(self.bw()) * u128::from(epoch_us) / u128::from(BW_UNIT)) as u64;
        let acked = u64::from(rs.acked_sacked);
        if self.ack_epoch_acked <= expected || self.ack_epoch_acked + acked >= ACK_EPOCH_ACKED_RESET_THRESH {
            self.ack_epoch_acked = 0;
            self.ack_epoch_mstamp = s.delivered_mstamp_us;
            expected = 0;
        }
        self.ack_epoch_acked = (self.ack_epoch_acked + acked).min(0xfffff);
        let extra = (self.ack_epoch_acked - expected).min(u64::from(s.cwnd));
        let slot = &mut self.extra_acked[self.extra_acked_win_idx];
        *slot = (*slot).max(extra).min(0xffff); // a u16 in Linux
    }

    /// `bbr_check_full_bw_reached`: three rounds without 25 % more bandwidth.
    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        let thresh = (self.full_bw * FULL_BW_THRESH) >> BBR_SCALE;
        if self.max_bw() >= thresh {
            self.full_bw = self.max_bw();
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= FULL_BW_CNT;
    }

    /// `bbr_check_drain`.
    fn check_drain(&mut self, s: &mut CcState) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            s.ssthresh = self.inflight(s, self.max_bw(), BBR_UNIT);
        }
        if self.mode == Mode::Drain
            && self.packets_in_net_at_edt(s, s.in_flight) <= self.inflight(s, self.max_bw(), BBR_UNIT)
        {
            self.reset_probe_bw_mode(s);
        }
    }

    /// `bbr_check_probe_rtt_done`.
    fn check_probe_rtt_done(&mut self, s: &mut CcState) {
        if !(self.probe_rtt_done_stamp != 0 && after(jiffies(s), self.probe_rtt_done_stamp)) {
            return;
        }
        self.min_rtt_stamp = jiffies(s);
        s.cwnd = s.cwnd.max(self.prior_cwnd);
        self.reset_mode(s);
    }

    /// `bbr_update_min_rtt`: the 10 s min filter, and ProbeRTT when it expires.
    fn update_min_rtt(&mut self, s: &mut CcState, rs: &RateSample) {
        let now = jiffies(s);
        let expired = after(now, self.min_rtt_stamp.wrapping_add(MIN_RTT_WIN_MS));
        if rs.rtt_us >= 0 && (rs.rtt_us <= i64::from(self.min_rtt_us) || (expired && !rs.is_ack_delayed)) {
            self.min_rtt_us = rs.rtt_us.min(i64::from(u32::MAX)) as u32;
            self.min_rtt_stamp = now;
        }
        if expired && !self.idle_restart && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.probe_rtt_entries += 1;
            self.save_cwnd(s);
            self.probe_rtt_done_stamp = 0;
        }
        if self.mode == Mode::ProbeRtt {
            // Ignore low-rate samples while here.
            s.app_limited = (s.delivered + u64::from(s.in_flight)).max(1);
            if self.probe_rtt_done_stamp == 0 && s.in_flight <= CWND_MIN_TARGET {
                self.probe_rtt_done_stamp = now.wrapping_add(PROBE_RTT_MODE_MS).max(1);
                self.probe_rtt_round_done = false;
                self.next_rtt_delivered = s.delivered;
            } else if self.probe_rtt_done_stamp != 0 {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done {
                    self.check_probe_rtt_done(s);
                }
            }
        }
        if rs.delivered > 0 {
            self.idle_restart = false;
        }
    }

    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (HIGH_GAIN, HIGH_GAIN),
            Mode::Drain => (DRAIN_GAIN, HIGH_GAIN),
            Mode::ProbeBw => {
                (if self.lt_use_bw { BBR_UNIT } else { PACING_GAIN[usize::from(self.cycle_idx)] }, CWND_GAIN)
            }
            Mode::ProbeRtt => (BBR_UNIT, BBR_UNIT),
        };
    }

    /// `bbr_main`, the `cong_control` hook: the model, then pacing rate and cwnd. `s.in_flight`
    /// is `tcp_packets_in_flight` after the ACK.
    pub fn control(&mut self, s: &mut CcState, rs: &RateSample) {
        self.update_bw(s, rs);
        self.update_ack_aggregation(s, rs);
        self.update_cycle_phase(s, rs);
        self.check_full_bw_reached(rs);
        self.check_drain(s);
        self.update_min_rtt(s, rs);
        self.update_gains();
        let bw = self.bw();
        self.set_pacing_rate(s, bw, self.pacing_gain);
        self.set_cwnd(s, rs, rs.acked_sacked, bw, self.cwnd_gain);
    }
}

impl CongestionOps for Bbr {
    /// `bbr_init`, when the connection is established.
    fn init(&mut self, s: &mut CcState) {
        self.prior_cwnd = 0;
        s.ssthresh = u32::MAX / 2; // TCP_INFINITE_SSTHRESH
        self.rtt_cnt = 0;
        self.next_rtt_delivered = 0;
        self.prev_ca_state = CaState::Open;
        self.packet_conservation = false;
        self.probe_rtt_done_stamp = 0;
        self.probe_rtt_round_done = false;
        self.min_rtt_us = if s.min_rtt.ns() > 0 { (s.min_rtt.ns() / 1000) as u32 } else { u32::MAX };
        self.min_rtt_stamp = jiffies(s);
        self.bw.reset(self.rtt_cnt, 0);
        self.has_seen_rtt = false;
        self.init_pacing_rate_from_rtt(s);
        self.round_start = false;
        self.idle_restart = false;
        self.full_bw_reached = false;
        self.full_bw = 0;
        self.full_bw_cnt = 0;
        self.cycle_mstamp = 0;
        self.cycle_idx = 0;
        self.reset_lt_bw_sampling(s);
        self.mode = Mode::Startup;
        self.update_gains();
        self.ack_epoch_mstamp = now_us(s);
        self.ack_epoch_acked = 0;
        self.extra_acked_win_rtts = 0;
        self.extra_acked_win_idx = 0;
        self.extra_acked = [0; 2];
    }

    /// `bbr_ssthresh`: recovery saves cwnd and leaves ssthresh as it is.
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        self.save_cwnd(s);
        s.ssthresh
    }

    /// BBR has no `cong_avoid`: [`Bbr::control`] sets cwnd.
    fn cong_avoid(&mut self, _s: &mut CcState, _acked: u32) {}

    /// `bbr_set_state`: an RTO ends a round and restarts full-pipe detection.
    fn set_state(&mut self, s: &mut CcState, new: CaState) {
        if new == CaState::Loss {
            self.prev_ca_state = CaState::Loss;
            self.full_bw = 0;
            self.round_start = true;
            self.lt_bw_sampling(s, 1, false);
        }
    }

    /// `bbr_cwnd_event`: restarting from idle while app-limited.
    fn cwnd_event(&mut self, s: &mut CcState, ev: CwndEvent) {
        if ev == CwndEvent::TxStart && s.app_limited != 0 {
            self.idle_restart = true;
            self.ack_epoch_mstamp = now_us(s);
            self.ack_epoch_acked = 0;
            if self.mode == Mode::ProbeBw {
                let bw = self.bw();
                self.set_pacing_rate(s, bw, BBR_UNIT);
            } else if self.mode == Mode::ProbeRtt {
                self.check_probe_rtt_done(s);
            }
        }
    }

    /// `bbr_undo_cwnd`: a spurious slow-down restarts full-pipe detection.
    fn undo_cwnd(&mut self, s: &CcState) -> u32 {
        self.full_bw = 0;
        self.full_bw_cnt = 0;
        self.reset_lt_bw_sampling(s);
        s.cwnd
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{Dur, SimTime};

    #[test]
    fn gains_are_linux_fixed_point() {
        // tcp_bbr.c: BBR_UNIT * 2885 / 1000 + 1 = 739, BBR_UNIT * 1000 / 2885 = 88.
        assert_eq!((HIGH_GAIN, DRAIN_GAIN, CWND_GAIN), (739, 88, 512));
        assert_eq!(PACING_GAIN, [320, 192, 256, 256, 256, 256, 256, 256]);
    }

    #[test]
    fn the_windowed_max_forgets_a_peak_after_its_window() {
        // win_minmax.c: a max holds for `win` time units, then the 2nd and 3rd choices move up.
        let mut m = MinMax::default();
        assert_eq!(m.running_max(10, 0, 100), 100);
        assert_eq!(m.running_max(10, 3, 60), 100);
        assert_eq!(m.running_max(10, 6, 50), 100);
        assert_eq!(m.running_max(10, 11, 40), 60, "the peak of t = 0 is out of the window");
        assert_eq!(m.running_max(10, 11, 120), 120);
    }

    fn state(cwnd: u32, srtt_ms: u64) -> CcState {
        let mut s = CcState::new(1448, cwnd, u32::MAX / 2);
        s.srtt = Dur::from_ms(srtt_ms);
        s.min_rtt = Dur::from_ms(srtt_ms);
        s.now = SimTime(1_000_000_000);
        s
    }

    #[test]
    fn the_initial_pacing_rate_is_high_gain_times_the_initial_window_per_srtt() {
        // bbr_init_pacing_rate_from_rtt by hand: 10 x 2^24 / 40,000 us = 4194 (pkt/us << 24,
        // truncated from 4194.3); x 1448 = 6,072,912; x 739 >> 8 = 17,530,788; x 990,000
        // >> 24 = 1,034,467 bytes/s. In real numbers 739/256 x 10 x 1448 B / 40 ms x 0.99 =
        // 1,034,542; the truncation of 4194.3 takes the other 75.
        let mut s = state(10, 40);
        let mut b = Bbr::new(Draws::new(1, 2, 3, 4));
        b.init(&mut s);
        assert_eq!(s.pacing_rate, 1_034_467);
        assert_eq!(b.min_rtt_us(), 40_000);
        assert_eq!(b.mode, Mode::Startup);
    }

    #[test]
    fn the_quantization_budget_adds_three_tso_goals_rounds_to_even_and_two_in_phase_zero() {
        // 1,034,467 B/s >> 10 = 1010 bytes < one 1448-byte segment; pacing rate above
        // 150 kB/s: min_tso_segs = 2, so the goal is 2 and the budget adds 6.
        let mut s = state(10, 40);
        let mut b = Bbr::new(Draws::new(1, 2, 3, 4));
        b.init(&mut s);
        assert_eq!(Bbr::tso_segs_goal(&s), 2);
        assert_eq!(b.quantization_budget(&s, 33), 40, "33 + 6 = 39, even: 40");
        b.mode = Mode::ProbeBw;
        b.cycle_idx = 0;
        assert_eq!(b.quantization_budget(&s, 33), 42);
    }

    #[test]
    fn bdp_is_bw_times_min_rtt_rounded_up() {
        // 1 packet per ms (2^24 / 1000 per us, truncated) x 40 ms x gain 2 = 80 (79.99... up).
        let mut b = Bbr::new(Draws::new(1, 2, 3, 4));
        b.min_rtt_us = 40_000;
        let bw = BW_UNIT / 1000;
        assert_eq!(b.bdp(bw, CWND_GAIN), 80);
        assert_eq!(b.bdp(bw, BBR_UNIT), 40);
        b.min_rtt_us = u32::MAX;
        assert_eq!(b.bdp(bw, BBR_UNIT), TCP_INIT_CWND, "no RTT sample yet");
    }

    /// One ACK of `acked` segments at `t_ms`, `interval_us` after the sample's start, with an
    /// RTT of `rtt_us` and `in_flight` segments out after it; a new round on every call.
    fn ack(
        b: &mut Bbr,
        s: &mut CcState,
        t_ms: u64,
        acked: u32,
        interval_us: i64,
        rtt_us: i64,
        in_flight: u32,
    ) {
        s.now = SimTime(t_ms * 1_000_000);
        let prior_delivered = s.delivered;
        s.delivered += u64::from(acked);
        s.delivered_mstamp_us = t_ms * 1000;
        s.in_flight = in_flight;
        let rs = RateSample {
            prior_mstamp_us: 1,
            prior_delivered,
            delivered: i64::from(acked),
            interval_us,
            rtt_us,
            acked_sacked: acked,
            prior_in_flight: in_flight,
            ..RateSample::default()
        };
        b.control(s, &rs);
    }

    #[test]
    fn startup_ends_after_three_rounds_without_a_quarter_more_bandwidth_then_drains() {
        // bbr_check_full_bw_reached: the first round sets full_bw; three more rounds at the
        // same rate (below 1.25 x) fill the pipe; Drain sets ssthresh to one BDP's inflight
        // and holds while the flight is above it; ProbeBW starts on a random phase, never the
        // 3/4 one (CYCLE_LEN - 1 - rand(7), then the next phase).
        let mut s = state(10, 40);
        let mut b = Bbr::new(Draws::new(1, 2, 3, 4));
        b.init(&mut s);
        for round in 0..3 {
            ack(&mut b, &mut s, 1000 + 40 * round, 40, 40_000, 40_000, 200);
            assert_eq!(b.mode, Mode::Startup, "round {round}");
        }
        ack(&mut b, &mut s, 1120, 40, 40_000, 40_000, 200);
        assert!(b.full_bw_reached);
        assert_eq!(b.mode, Mode::Drain, "200 segments out, above one BDP");
        // 1 segment/ms x 40 ms = 40, + 3 x tso goal (2) = 46, even.
        assert_eq!(s.ssthresh, 46);
        assert_eq!((b.pacing_gain, b.cwnd_gain), (DRAIN_GAIN, HIGH_GAIN));
        ack(&mut b, &mut s, 1160, 40, 40_000, 40_000, 40);
        assert_eq!(b.mode, Mode::ProbeBw);
        assert_ne!(b.pacing_gain, BBR_UNIT * 3 / 4);
        let mut phases = std::collections::BTreeSet::new();
        for seed in 0..64 {
            let mut b = Bbr::new(Draws::new(1, seed, 3, 4));
            b.reset_probe_bw_mode(&s);
            phases.insert(b.cycle_idx);
        }
        assert_eq!(phases.into_iter().collect::<Vec<_>>(), vec![0, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn probe_rtt_holds_four_segments_for_200_ms_and_a_round_once_min_rtt_is_10_s_old() {
        let mut s = state(10, 40);
        let mut b = Bbr::new(Draws::new(1, 2, 3, 4));
        b.init(&mut s); // min RTT 40 ms, stamped at 1 s
        for round in 0..8 {
            ack(&mut b, &mut s, 1000 + 40 * round, 40, 40_000, 45_000, 40);
        }
        assert_eq!(b.mode, Mode::ProbeBw);
        let mut t = 1320;
        while t <= 11_000 {
            ack(&mut b, &mut s, t, 40, 40_000, 45_000, 80);
            assert_ne!(b.mode, Mode::ProbeRtt, "min RTT not expired at {t} ms");
            t += 40;
        }
        let cwnd_before = s.cwnd;
        ack(&mut b, &mut s, 11_040, 40, 40_000, 45_000, 80);
        assert_eq!(b.mode, Mode::ProbeRtt, "10 s after the 40 ms sample");
        assert_eq!(b.min_rtt_us(), 45_000, "the expired filter takes the new sample");
        assert_eq!(s.cwnd, CWND_MIN_TARGET);
        assert_eq!(b.probe_rtt_entries, 1);
        // The flight falls to 4: 200 ms from then, and a round after, ProbeRTT ends.
        ack(&mut b, &mut s, 11_080, 4, 40_000, 40_000, 4);
        ack(&mut b, &mut s, 11_200, 4, 40_000, 40_000, 4);
        assert_eq!(b.mode, Mode::ProbeRtt, "120 ms in");
        ack(&mut b, &mut s, 11_281, 4, 40_000, 40_000, 4);
        assert_eq!(b.mode, Mode::ProbeBw, "201 ms and a round in");
        assert!(s.cwnd >= cwnd_before.min(CWND_MIN_TARGET), "cwnd restored toward {cwnd_before}");
        assert_eq!(b.min_rtt_us(), 40_000);
    }

    #[test]
    fn the_first_round_of_recovery_conserves_packets_then_the_saved_cwnd_returns() {
        // bbr_set_cwnd_to_recover_or_restore: entering Recovery, cwnd = in flight + acked;
        // bbr_ssthresh saved cwnd before; leaving Recovery, cwnd = max(cwnd, prior_cwnd).
        let mut s = state(10, 40);
        let mut b = Bbr::new(Draws::new(1, 2, 3, 4));
        b.init(&mut s);
        for round in 0..8 {
            ack(&mut b, &mut s, 1000 + 40 * round, 40, 40_000, 40_000, 80);
        }
        let saved = s.cwnd;
        assert!(saved > 60, "two BDPs and the budget: {saved}");
        let _ = b.ssthresh(&s); // tcp_init_cwnd_reduction
        s.ca = CaState::Recovery;
        ack(&mut b, &mut s, 1400, 2, 40_000, 40_000, 30);
        assert_eq!(s.cwnd, 32, "30 in flight + 2 acked");
        s.ca = CaState::Open;
        ack(&mut b, &mut s, 1440, 2, 40_000, 40_000, 30);
        assert!(s.cwnd >= saved.min(b.inflight(&s, b.bw(), CWND_GAIN)), "restored: {}", s.cwnd);
    }
}
