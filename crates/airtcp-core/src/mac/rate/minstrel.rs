//! Minstrel as in Linux 3.x (`net/mac80211/rc80211_minstrel.c`, the legacy non-HT algorithm
//! that `minstrel_ht` hands non-HT peers to): per-mode success probabilities from the attempts
//! of each 100 ms window, smoothed by an EWMA of 75 % (`minstrel_update_stats`); throughput
//! estimates from the airtime of a 1200-byte frame; a multi-rate retry chain (max throughput,
//! second throughput or the sample, max probability, the lowest mode) with per-mode try counts
//! that fit a 6 ms segment (`minstrel_rate_init`); and about 10 % look-around frames at a mode
//! drawn from a table of random permutations (`minstrel_get_rate`, `init_sample_table`).
//!
//! The reference is Linux 3.10-3.13 (`IEEE80211_TX_MAX_RATES` 4, so an ACK at the fourth stage
//! earns no success credit). Known differences: the chain is built as if the frame had no RTS
//! (Linux turns multi-rate retry off for RTS-protected frames); the 1 Mbit/s frame times use the long preamble (Linux computes all with the short one: about
//! 1 % on the lowest mode's throughput estimate, the tries unchanged).
//!
//! Two hardware flavours: `mrr` (ath9k-like, four chain stages, 10 % sampling) and the rt2800
//! flavour (`max_rates = 1`, `max_rate_tries = 1`: one mode per frame from Minstrel, 5 %
//! sampling, and the hardware falls back one mode per retry within the modulation class,
//! `LG_FBK_CFG0`), paper 000's chipset. On rt2800 Minstrel learns a frame's tries only as
//! rt2x00 rebuilds them from the hardware's retry count (`MinstrelStatus::Rt2x00`, the
//! default): `rt2800_txdone_entry` counts a success's retries as the step-downs between the
//! requested and the last mode (so none once the lowest mode of the class is reached) and a
//! failure's as the long retry limit; `rt2x00lib_fill_tx_status` then reports one try per
//! step down the band's rate table (across from OFDM into CCK, which the hardware never
//! sends), at most four entries, and leaves the fourth unterminated when three are used, so
//! `minstrel_tx_status` credits no success after two or more retries.
//!
//! The MAC asks for each attempt's mode with `select(attempt)`: the chain is built at the
//! frame's first attempt and walked by the stages' counts. On MRR hardware the chain's tries
//! are the frame's attempts (`RateAlgo::frame_attempts`, set as the frame's own retry limit:
//! Linux never clamps them to the dot11 limits, ns-3's `DoNeedRetransmission` ignores them
//! too); on rt2800 the dot11 limits are programmed into the hardware and rule.

use crate::phy::{ModeId, PhyTiming, Preamble, Standard, TxVector};
use crate::rng::Stream;
use crate::time::{Dur, SimTime};

/// Most modes of one non-HT standard (802.11g: 12).
pub const MAX_MODES: usize = 12;
/// `SAMPLE_COLUMNS`.
const SAMPLE_COLUMNS: usize = 10;
/// `MINSTREL_FRAC(val, div)`: fixed point with 16 fractional bits.
const fn frac(val: u32, div: u32) -> u32 {
    (val << 16) / div
}
/// `EWMA_LEVEL`: the weight of the old probability, percent.
const EWMA_LEVEL: u32 = 75;

/// Parameters (`minstrel_alloc` and the hardware's capabilities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinstrelParams {
    /// Four chain stages (`has_mrr`); false: one mode per frame, hardware fallback per retry.
    pub mrr: bool,
    /// Look-around share, percent (`lookaround_rate_mrr` 10, `lookaround_rate` 5).
    pub lookaround_percent: u32,
    /// `max_retry`: `hw->max_rate_tries`, else 7 (rt2800: 1).
    pub max_retry: u32,
    /// `segment_size`: the airtime a mode's tries should fit in.
    pub segment: Dur,
    /// `update_interval`.
    pub update_interval: Dur,
    /// The frame's tries reach Minstrel as rt2x00 rebuilds them from rt2800's TX status
    /// (`rt2x00lib_fill_tx_status`); false: each try credited to the mode it was sent at.
    pub rt2x00_status: bool,
}

crate::names::names! {
    /// How rt2800's tries reach Minstrel (`wifi.minstrel_status`, rate control
    /// `minstrel-rt2800` only).
    #[derive(Default)]
    pub enum MinstrelStatus {
        /// As rt2x00 rebuilds them from the hardware's retry count (Linux 3.12
        /// `rt2800_txdone_entry`, `rt2x00lib_fill_tx_status`).
        #[default]
        Rt2x00 = "rt2x00",
        /// Each try credited to the mode it was sent at (a driver that reports every try).
        PerAttempt = "per-attempt",
    }
}

impl MinstrelParams {
    /// An MRR driver with mac80211's defaults (max_rate_tries unset: 7).
    pub const MRR: MinstrelParams = MinstrelParams {
        mrr: true,
        lookaround_percent: 10,
        max_retry: 7,
        segment: Dur::from_us(6000),
        update_interval: Dur::from_ms(100),
        rt2x00_status: false,
    };
    /// rt2800 (rt2800lib.c: max_rates 1, max_rate_tries 1).
    pub const RT2800: MinstrelParams =
        MinstrelParams { mrr: false, lookaround_percent: 5, max_retry: 1, rt2x00_status: true, ..Self::MRR };
}

/// The algorithm over a standard's modes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Minstrel {
    pub modes: &'static [ModeId],
    pub params: MinstrelParams,
    /// Airtime of a 1200-byte frame per mode (`perfect_tx_time`) and of its ACK [us].
    perfect_us: [u32; MAX_MODES],
    ack_us: [u32; MAX_MODES],
    /// Tries per mode within the segment (`retry_count`).
    retry_count: [u8; MAX_MODES],
    /// The mode index a peer starts with as its best throughput (`max_tp`; 0: the lowest).
    start: u8,
}

/// Per-mode statistics (`struct minstrel_rate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModeStats {
    /// This window's attempts and successes.
    pub attempts: u32,
    pub success: u32,
    /// EWMA of the success probability, 16 fractional bits (`probability`).
    pub probability: u32,
    /// Throughput estimate: probability x (1e6 / perfect_tx_time) (`cur_tp`).
    pub cur_tp: u32,
    pub adjusted_retry_count: u8,
    /// -1: no limit; else samples left before the next update (`sample_limit`).
    pub sample_limit: i8,
    pub sample_skipped: u8,
}

/// What Minstrel keeps per peer (`struct minstrel_sta_info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinstrelStation {
    pub r: [ModeStats; MAX_MODES],
    pub max_tp: u8,
    pub max_tp2: u8,
    pub max_prob: u8,
    pub packet_count: u32,
    pub sample_count: u32,
    pub sample_deferred: u32,
    pub prev_sample: bool,
    sample_table: [[u8; SAMPLE_COLUMNS]; MAX_MODES],
    sample_row: u8,
    sample_column: u8,
    pub stats_update: SimTime,
    /// The frame in flight at the head of each access category's queue toward this peer.
    pub frames: [FrameChain; crate::mac::AC_COUNT],
}

/// One frame's retry chain (what Linux keeps in the frame's `ieee80211_tx_info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameChain {
    /// (mode index, tries) per stage.
    pub chain: [(u8, u8); 4],
    pub chain_len: u8,
    /// The frame samples at a slower mode in its second stage
    /// (`IEEE80211_TX_CTL_RATE_CTRL_PROBE`).
    pub probe: bool,
    /// The mode index and the chain stage of the attempt in flight.
    pub cur: u8,
    pub stage: u8,
    /// The frame's attempts so far.
    pub attempts: u8,
}

impl Default for FrameChain {
    fn default() -> FrameChain {
        FrameChain { chain: [(0, 1); 4], chain_len: 1, probe: false, cur: 0, stage: 0, attempts: 0 }
    }
}

impl Minstrel {
    /// Minstrel over `standard`'s modes, with its MAC timing (`minstrel_rate_init`).
    pub fn new(standard: Standard, timing: &PhyTiming, params: MinstrelParams) -> Minstrel {
        // The band's rate table order; on 802.11n the channel's HT ladder (at most 12 rates).
        let modes = if standard.high_throughput() { standard.ht_ladder() } else { standard.modes_by_class() };
        let n = modes.len().min(MAX_MODES);
        let us = |d: Dur| (d.ns() / 1000) as u32;
        // ieee80211_frame_duration(band, len, rate, erp, short_preamble = 1): SIFS + the PPDU of
        // `len` bytes and the FCS.
        let frame_us = |m: ModeId, len: u32| {
            let pre = if m.rate_kbps() > 1000 { Preamble::Short } else { Preamble::Long };
            us(timing.sifs + TxVector::new(m, pre).duration(len + 4))
        };
        let mut perfect_us = [0; MAX_MODES];
        let mut ack_us = [0; MAX_MODES];
        for i in 0..n {
            perfect_us[i] = frame_us(modes[i], 1200);
            ack_us[i] = frame_us(modes[i], 10);
        }
        let sp_ack = ack_us[0]; // the ACK at the lowest mode (`sp_ack_dur`)
                                // minstrel_rate_init: t_slot is taken as 9 us ("FIXME: get real slot time").
        let (t_slot, segment) = (9u32, us(params.segment));
        let mut retry_count = [0u8; MAX_MODES];
        for i in 0..n {
            let (mut rc, mut cw) = (1u32, 15u32);
            let mut tx = perfect_us[i] + sp_ack;
            loop {
                tx += ack_us[i] + perfect_us[i] + ((t_slot * cw) >> 1);
                cw = ((cw << 1) | 1).min(1023);
                if tx >= segment {
                    break;
                }
                rc += 1;
                if rc >= params.max_retry {
                    break;
                }
            }
            retry_count[i] = rc as u8;
        }
        Minstrel { modes, params, perfect_us, ack_us, retry_count, start: 0 }
    }

    /// The same algorithm with every peer starting at `mode` as its best throughput; None if
    /// `mode` is not one of its modes.
    pub fn starting_at(self, mode: ModeId) -> Option<Minstrel> {
        let i = self.modes[..self.n()].iter().position(|&m| m == mode)?;
        Some(Minstrel { start: u8::try_from(i).ok()?, ..self })
    }

    /// The mode a peer starts at: its first frame's first attempt.
    pub fn start_mode(&self) -> ModeId {
        self.modes[usize::from(self.start)]
    }

    fn n(&self) -> usize {
        self.modes.len().min(MAX_MODES)
    }

    /// The tries of mode `i` within the segment (`retry_count`).
    pub fn retry_count(&self, i: usize) -> u8 {
        self.retry_count[i]
    }

    /// A new peer: statistics empty, the sample table drawn from `rng` (`init_sample_table`:
    /// each column a random arrangement of the modes above the lowest, which is never sampled),
    /// the best throughput the starting mode, the second best and the most likely the lowest.
    pub fn new_station(&self, rng: &mut Stream, now: SimTime) -> MinstrelStation {
        let n = self.n();
        let mut r = [ModeStats::default(); MAX_MODES];
        for (i, s) in r.iter_mut().enumerate().take(n) {
            s.adjusted_retry_count = self.retry_count[i];
            s.sample_limit = -1;
        }
        let mut table = [[0u8; SAMPLE_COLUMNS]; MAX_MODES];
        let n_srates = n - 1;
        #[allow(clippy::needless_range_loop)] // rows and columns as init_sample_table walks them
        for col in 0..SAMPLE_COLUMNS {
            for i in 0..n_srates {
                let rnd = rng.uniform_inclusive(255) as usize; // one of get_random_bytes' bytes
                let mut idx = (i + rnd) % n_srates;
                while table[idx][col] != 0 {
                    idx = (idx + 1) % n_srates;
                }
                table[idx][col] = (i + 1) as u8;
            }
        }
        MinstrelStation {
            r,
            // minstrel_rate_init: max_tp_rate[0] (chain stage 1) = 0, the lowest; or the start.
            max_tp: self.start,
            max_tp2: 0,
            max_prob: 0,
            packet_count: 0,
            sample_count: 0,
            sample_deferred: 0,
            prev_sample: false,
            sample_table: table,
            sample_row: 0,
            sample_column: 0,
            stats_update: now, // minstrel_rate_init
            frames: [FrameChain::default(); crate::mac::AC_COUNT],
        }
    }

    /// `minstrel_update_stats`: this window's outcomes into the EWMA, then the best modes.
    pub fn update_stats(&self, st: &mut MinstrelStation, now: SimTime) {
        let n = self.n();
        for i in 0..n {
            let mr = &mut st.r[i];
            if mr.attempts > 0 {
                mr.sample_skipped = 0;
                let cur = frac(mr.success, mr.attempts);
                // minstrel_ewma(old, new, 75) = (new * 25 + old * 75) / 100
                mr.probability = ((u64::from(cur) * u64::from(100 - EWMA_LEVEL)
                    + u64::from(mr.probability) * u64::from(EWMA_LEVEL))
                    / 100) as u32;
                mr.cur_tp = mr.probability * (1_000_000 / self.perfect_us[i].max(1));
            } else {
                mr.sample_skipped = mr.sample_skipped.saturating_add(1);
            }
            mr.success = 0;
            mr.attempts = 0;
            // Sample less often below 10 % and above 95 % success.
            if mr.probability > frac(95, 100) || mr.probability < frac(10, 100) {
                mr.adjusted_retry_count = (self.retry_count[i] >> 1).min(2);
                mr.sample_limit = 4;
            } else {
                mr.sample_limit = -1;
                mr.adjusted_retry_count = self.retry_count[i];
            }
            if mr.adjusted_retry_count == 0 {
                mr.adjusted_retry_count = 2;
            }
        }
        let (mut max_tp, mut max_prob) = (0u32, 0u32);
        let (mut i_tp, mut i_tp2, mut i_prob) = (0usize, 0usize, 0usize);
        for i in 0..n {
            if max_tp < st.r[i].cur_tp {
                (i_tp, max_tp) = (i, st.r[i].cur_tp);
            }
            if max_prob < st.r[i].probability {
                (i_prob, max_prob) = (i, st.r[i].probability);
            }
        }
        max_tp = 0;
        for i in 0..n {
            if i != i_tp && max_tp < st.r[i].cur_tp {
                (i_tp2, max_tp) = (i, st.r[i].cur_tp);
            }
        }
        (st.max_tp, st.max_tp2, st.max_prob) = (i_tp as u8, i_tp2 as u8, i_prob as u8);
        st.stats_update = now;
    }

    /// `minstrel_get_next_sample`.
    fn next_sample(&self, st: &mut MinstrelStation) -> usize {
        let idx = st.sample_table[usize::from(st.sample_row)][usize::from(st.sample_column)];
        st.sample_row += 1;
        if usize::from(st.sample_row) > self.n() - 2 {
            st.sample_row = 0;
            st.sample_column = (st.sample_column + 1) % SAMPLE_COLUMNS as u8;
        }
        usize::from(idx)
    }

    /// `minstrel_get_rate`: the chain of a new frame at the head of `queue` (built as if the
    /// frame had no RTS protection, which in Linux turns multi-rate retry off).
    pub fn build_chain(&self, st: &mut MinstrelStation, queue: usize) {
        let mrr = self.params.mrr;
        let lookaround = self.params.lookaround_percent;
        let mut ndx = usize::from(st.max_tp);
        st.packet_count += 1;
        let delta =
            (st.packet_count * lookaround / 100) as i64 - i64::from(st.sample_count + st.sample_deferred / 2);
        let (mut sampling, mut indirect, mut sample_ndx) = (false, false, 0usize);
        if delta > 0 && (mrr || !st.prev_sample) {
            if st.packet_count >= 10_000 {
                (st.sample_deferred, st.sample_count, st.packet_count) = (0, 0, 0);
            } else if delta > 2 * self.n() as i64 {
                // Do not burst out a sampling backlog.
                st.sample_count += (delta - 2 * self.n() as i64) as u32;
            }
            sample_ndx = self.next_sample(st);
            sampling = true;
            let msr = st.r[sample_ndx];
            // A sample slower than max_tp goes to the second stage (indirect sampling).
            if mrr && self.perfect_us[sample_ndx] > self.perfect_us[ndx] && msr.sample_skipped < 20 {
                indirect = true;
            }
            if !indirect {
                if msr.sample_limit != 0 {
                    ndx = sample_ndx;
                    st.sample_count += 1;
                    if msr.sample_limit > 0 {
                        st.r[sample_ndx].sample_limit -= 1;
                    }
                } else {
                    sampling = false;
                }
            } else {
                st.sample_deferred += 1;
            }
        }
        st.prev_sample = sampling;
        // Without MRR, sampling a mode already above 95 % only wastes airtime.
        if !mrr && sampling && st.r[ndx].probability > frac(95, 100) {
            ndx = usize::from(st.max_tp);
        }
        let tries = |i: usize| st.r[i].adjusted_retry_count.max(1);
        let f = if !mrr {
            let first = if sampling { tries(ndx) } else { self.params.max_retry as u8 };
            let chain = [(ndx as u8, first), (0, self.params.max_retry as u8), (0, 0), (0, 0)];
            FrameChain { chain, chain_len: 2, ..FrameChain::default() }
        } else {
            let second = if sampling {
                if indirect {
                    sample_ndx
                } else {
                    usize::from(st.max_tp)
                }
            } else {
                usize::from(st.max_tp2)
            };
            let prob = usize::from(st.max_prob);
            let chain = [
                (ndx as u8, tries(ndx)),
                (second as u8, tries(second)),
                (prob as u8, tries(prob)),
                (0, tries(0)),
            ];
            FrameChain { chain, chain_len: 4, ..FrameChain::default() }
        };
        st.frames[queue] = FrameChain { probe: sampling && indirect, ..f };
    }

    /// The mode index and chain stage of attempt `attempt` of the frame in flight at `queue`.
    pub fn chain_index(&self, st: &MinstrelStation, queue: usize, attempt: u32) -> (usize, u8) {
        let f = &st.frames[queue];
        if !self.params.mrr {
            // rt2800: the hardware steps one mode down per retry, within the modulation class
            // (LG_FBK_CFG0: OFDM never falls back to CCK).
            let first = usize::from(f.chain[0].0);
            let ofdm = !is_dsss(self.modes[first]);
            let mut i = first;
            for _ in 0..attempt {
                match (0..i).rev().find(|&j| is_dsss(self.modes[j]) != ofdm) {
                    Some(j) => i = j,
                    None => break,
                }
            }
            return (i, 0);
        }
        let mut left = attempt;
        for (stage, &(i, count)) in f.chain[..usize::from(f.chain_len)].iter().enumerate() {
            if left < u32::from(count) {
                return (usize::from(i), stage as u8);
            }
            left -= u32::from(count);
        }
        (usize::from(f.chain[usize::from(f.chain_len) - 1].0), f.chain_len - 1)
    }

    /// The attempt in flight ended (`acked` or not); `frame_done`: it was the frame's last
    /// (`minstrel_tx_status`, which Linux calls once per frame with each stage's count: the
    /// same sums). At the frame's end the statistics are refreshed once `update_interval` has
    /// passed.
    pub fn attempt_done(
        &self,
        st: &mut MinstrelStation,
        queue: usize,
        acked: bool,
        frame_done: bool,
        now: SimTime,
    ) {
        st.frames[queue].attempts = st.frames[queue].attempts.saturating_add(1);
        let f = st.frames[queue];
        if !self.params.rt2x00_status {
            let i = usize::from(f.cur);
            st.r[i].attempts += 1;
            // minstrel_tx_status credits the ACK to the last stage used, except the fourth
            // (`i != IEEE80211_TX_MAX_RATES - 1`, with IEEE80211_TX_MAX_RATES = 4 from Linux 3.10).
            st.r[i].success += u32::from(acked && f.stage < 3);
        } else if frame_done {
            self.rt2x00_status(st, &f, acked);
        }
        if frame_done {
            if f.probe {
                st.sample_count += 1;
            }
            if st.sample_deferred > 0 {
                st.sample_deferred -= 1;
            }
            if now.since(st.stats_update) > self.params.update_interval {
                self.update_stats(st, now);
            }
        }
    }
}

impl Minstrel {
    /// The rates rt2x00 reports for a frame that ended after `f.attempts` tries (`acked` or
    /// not), as (band index, count) with -1 ending the list: Linux 3.12
    /// `rt2x00lib_fill_tx_status` on the retry count of `rt2800_txdone_entry`.
    pub fn rt2x00_rates(&self, f: &FrameChain, acked: bool) -> [(i8, u32); 4] {
        let first = usize::from(f.chain[0].0);
        // rt2800_txdone_entry: a success's retries are `mcs - real_mcs` (the hardware's steps
        // down within the class); a failure reports `long_retry`, the tries made minus one
        // when the short and long limits are equal (`retry_limit`, `iw ... retry short R long R`).
        let retry = if acked { first - usize::from(f.cur) } else { usize::from(f.attempts.max(1)) - 1 };
        let retry_rates = if retry > 0 { retry + 1 } else { 1 };
        // The status is zeroed first (`memset`): an unwritten entry is index 0, count 0.
        let mut rates = [(0i8, 0u32); 4];
        let mut i = 0;
        while i < retry_rates && i < 4 {
            let idx = first - i;
            if idx == 0 {
                // "The lowest rate (index 0) was used until the number of max retries".
                rates[i] = (0, (retry_rates - i) as u32);
                i += 1;
                break;
            }
            rates[i] = (idx as i8, 1);
            i += 1;
        }
        if i < 3 {
            rates[i].0 = -1;
        }
        rates
    }

    /// `minstrel_tx_status` on the rates rt2x00 reports: each entry's count as attempts, the
    /// ACK credited to the last entry unless it is the fourth (or the list is unterminated).
    fn rt2x00_status(&self, st: &mut MinstrelStation, f: &FrameChain, acked: bool) {
        let rates = self.rt2x00_rates(f, acked);
        for (k, &(idx, count)) in rates.iter().enumerate() {
            if idx < 0 {
                break;
            }
            let ndx = idx as usize;
            if ndx >= self.modes.len().min(MAX_MODES) {
                continue; // rix_to_ndx < 0
            }
            st.r[ndx].attempts += count;
            if k != 3 && rates[k + 1].0 < 0 {
                st.r[ndx].success += u32::from(acked);
            }
        }
    }
}

fn is_dsss(m: ModeId) -> bool {
    matches!(m.modulation(), crate::phy::Modulation::Dsss { .. })
}

impl super::RateControl for Minstrel {
    type Station = MinstrelStation;

    /// Not used: a Minstrel station needs a random sample table ([`Minstrel::station`]).
    fn station(&self) -> MinstrelStation {
        self.new_station(&mut Stream::derive(0, 0, crate::rng::Purpose::RateControl), SimTime::ZERO)
    }

    fn select(&self, st: &mut MinstrelStation, queue: usize, attempt: u32, _now: SimTime) -> ModeId {
        if attempt == 0 {
            self.build_chain(st, queue);
        }
        let (i, stage) = self.chain_index(st, queue, attempt);
        (st.frames[queue].cur, st.frames[queue].stage) = (i as u8, stage);
        self.modes[i]
    }

    fn report(&self, st: &mut MinstrelStation, queue: usize, report: super::TxReport, now: SimTime) {
        use super::TxReport::*;
        match report {
            DataOk { .. } => self.attempt_done(st, queue, true, true, now),
            // The hardware counts an RTS that got no CTS as a try at the frame's rate.
            DataFailed | RtsFailed => self.attempt_done(st, queue, false, false, now),
            FinalDataFailed | FinalRtsFailed => self.attempt_done(st, queue, false, true, now),
            Ppdu { block_ack, .. } => self.attempt_done(st, queue, block_ack, true, now),
            RtsOk => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{RateControl, TxReport};
    use super::*;
    use crate::rng::Purpose;

    fn a() -> Minstrel {
        Minstrel::new(Standard::A, &PhyTiming::of(Standard::A, false), MinstrelParams::MRR)
    }

    fn rng() -> Stream {
        Stream::derive(1, 2, Purpose::RateControl)
    }

    #[test]
    fn tries_per_mode_fit_the_six_ms_segment() {
        // minstrel_rate_init with max_retry 7 at 5 GHz (research note section 3.1, computed
        // from the same loop): 6 Mbit/s 3, 9 Mbit/s 4, 12 Mbit/s 5, 18-54 Mbit/s 6.
        let m = a();
        let counts: Vec<u8> = (0..8).map(|i| m.retry_count(i)).collect();
        assert_eq!(counts, [3, 4, 5, 6, 6, 6, 6, 6]);
        // rt2800, max_retry 1: the loop's `++retry_count < max_retry` still counts one more
        // before it stops, so every mode gets 2 (the hardware ignores the count anyway).
        let r = Minstrel::new(Standard::A, &PhyTiming::of(Standard::A, false), MinstrelParams::RT2800);
        assert!((0..8).all(|i| r.retry_count(i) == 2));
    }

    #[test]
    fn the_sample_table_holds_each_mode_but_the_lowest_once_per_column() {
        let m = a();
        let st = m.new_station(&mut rng(), SimTime::ZERO);
        for col in 0..SAMPLE_COLUMNS {
            let mut seen: Vec<u8> = (0..7).map(|row| st.sample_table[row][col]).collect();
            seen.sort();
            assert_eq!(seen, [1, 2, 3, 4, 5, 6, 7], "column {col}");
        }
    }

    #[test]
    fn statistics_are_an_ewma_of_75_percent_and_pick_the_best_modes() {
        let m = a();
        let mut st = m.new_station(&mut rng(), SimTime::ZERO);
        // One window: 54 Mbit/s (index 7) 10 attempts 5 acked; 36 (5) 10/10; 12 (2) 10/10.
        for (i, att, ok) in [(7usize, 10u32, 5u32), (5, 10, 10), (2, 10, 10)] {
            (st.r[i].attempts, st.r[i].success) = (att, ok);
        }
        m.update_stats(&mut st, SimTime::ZERO + Dur::from_ms(100));
        // (new x 25 + old x 75) / 100 from 0: 0.5 -> 0.125, 1.0 -> 0.25 (16 fractional bits).
        assert_eq!(st.r[7].probability, 8192);
        assert_eq!(st.r[5].probability, 16384);
        assert_eq!(st.r[7].cur_tp, 8192 * (1_000_000 / m.perfect_us[7]));
        // Throughput: 36 Mbit/s at 0.25 beats 54 at 0.125; then 54; the most likely is the
        // first of the equal 0.25s found (36).
        assert_eq!((st.max_tp, st.max_tp2, st.max_prob), (5, 7, 2));
        // Below 10 % (the untried modes): tries halved and capped at 2, four samples per window.
        assert_eq!((st.r[0].adjusted_retry_count, st.r[0].sample_limit), (1, 4));
        assert_eq!((st.r[5].adjusted_retry_count, st.r[5].sample_limit), (6, -1));
    }

    #[test]
    fn the_chain_is_max_throughput_second_throughput_max_probability_lowest() {
        let m = a();
        let mut st = m.new_station(&mut rng(), SimTime::ZERO);
        (st.max_tp, st.max_tp2, st.max_prob) = (7, 5, 2);
        for i in 0..8 {
            st.r[i].adjusted_retry_count = m.retry_count(i);
        }
        st.packet_count = 1000;
        st.sample_count = 1000; // no sampling due
        m.build_chain(&mut st, 1);
        assert_eq!(st.frames[1].chain, [(7, 6), (5, 6), (2, 5), (0, 3)]);
        // The attempts walk the stages by their counts, then stay at the last.
        let idx: Vec<(usize, u8)> =
            [0, 5, 6, 11, 12, 16, 17, 30].iter().map(|&k| m.chain_index(&st, 1, k)).collect();
        assert_eq!(idx, [(7, 0), (7, 0), (5, 1), (5, 1), (2, 2), (2, 2), (0, 3), (0, 3)]);
        // Another queue's frame to the same peer has its own chain: building it leaves this one.
        st.sample_count = 0;
        m.build_chain(&mut st, 3);
        assert_eq!(st.frames[1].chain, [(7, 6), (5, 6), (2, 5), (0, 3)]);
    }

    #[test]
    fn about_one_frame_in_ten_looks_around() {
        // Every frame acknowledged at once: the share of frames whose chain samples another
        // mode tends to lookaround_rate_mrr = 10 % (delta = packets x 10 % - samples).
        let m = a();
        let mut st = m.new_station(&mut rng(), SimTime::ZERO);
        let (mut now, mut sampled) = (SimTime::ZERO, 0);
        for _ in 0..20_000 {
            now += Dur::from_us(500);
            m.select(&mut st, 1, 0, now);
            sampled += u32::from(st.prev_sample);
            m.report(&mut st, 1, TxReport::DataOk { retries: 0 }, now);
        }
        let share = f64::from(sampled) / 20_000.0;
        assert!((0.08..0.12).contains(&share), "{share}");
        // With every frame acknowledged at every mode, Minstrel settles on 54 Mbit/s.
        assert_eq!(m.modes[usize::from(st.max_tp)].rate_kbps(), 54_000);
    }

    /// Two seconds of a frame per millisecond over 802.11a's scripted channel: 6-24 Mbit/s
    /// (indices 0-4) always get through, 36 (index 5) fails every fifth attempt, 48 and 54
    /// always fail. `first(k, i)`: the first attempt of the frame of millisecond `k` went at
    /// index `i`.
    fn scripted_36(m: &Minstrel, st: &mut MinstrelStation, mut first: impl FnMut(u64, usize)) {
        let mut tries_36 = 0u32;
        for k in 0..2000u64 {
            let now = SimTime::ZERO + Dur::from_ms(k);
            for attempt in 0..30 {
                let mode = m.select(st, 1, attempt, now);
                let i = m.modes.iter().position(|&x| x == mode).unwrap();
                if attempt == 0 {
                    first(k, i);
                }
                let ok = match i {
                    0..=4 => true,
                    5 => {
                        tries_36 += 1;
                        !tries_36.is_multiple_of(5)
                    }
                    _ => false,
                };
                if ok {
                    m.report(st, 1, TxReport::DataOk { retries: attempt }, now);
                    break;
                }
                m.report(st, 1, TxReport::DataFailed, now);
            }
        }
    }

    #[test]
    fn under_a_scripted_loss_pattern_minstrel_settles_on_the_best_throughput() {
        // 802.11a: 6-24 Mbit/s always get through, 36 Mbit/s fails every fifth attempt, 48
        // and 54 always fail. Expected throughputs (mode rate x success): 36 x 0.8 = 28.8
        // beats 24 x 1.0, and 48/54 are worth nothing, so after two seconds of a frame per
        // millisecond max_tp is 36 Mbit/s (index 5) and max_tp2 24 (index 4), and most first
        // attempts go at 36 (hand computation of Minstrel's choice).
        let m = a();
        let mut st = m.new_station(&mut rng(), SimTime::ZERO);
        let mut first = [0u32; 8];
        scripted_36(&m, &mut st, |k, i| {
            if k >= 1000 {
                first[i] += 1;
            }
        });
        assert_eq!((st.max_tp, st.max_tp2), (5, 4));
        let total: u32 = first.iter().sum();
        assert!(first[5] * 10 > total * 8, "{first:?}"); // over 80 % at 36 (10 % look-around)
                                                         // The look-around still tries the failing modes now and then (sample_limit 4).
        assert!(first[6] + first[7] > 0, "{first:?}");
    }

    #[test]
    fn a_starting_rate_is_the_first_stage_and_the_rest_of_the_chain_is_linuxs() {
        // 802.11a at 24 Mbit/s (index 4): its 6 tries, then the lowest (max_tp2 and max_prob
        // are the lowest until the first statistics update, as minstrel_rate_init leaves them).
        let m = a().starting_at(Standard::A.mode(24_000).unwrap()).unwrap();
        let mut st = m.new_station(&mut rng(), SimTime::ZERO);
        assert_eq!((st.max_tp, st.max_tp2, st.max_prob), (4, 0, 0));
        let rates: Vec<u32> =
            (0..8).map(|k| m.select(&mut st, 1, k, SimTime::ZERO).rate_kbps() / 1000).collect();
        assert_eq!(rates, [24, 24, 24, 24, 24, 24, 6, 6]);
        assert_eq!(st.frames[1].chain, [(4, 6), (0, 3), (0, 3), (0, 3)]);
        // The sample table is drawn as before: the same draws, the same table.
        assert_eq!(st.sample_table, a().new_station(&mut rng(), SimTime::ZERO).sample_table);
        // rt2800: one mode per frame, the hardware one lower per retry.
        let r = Minstrel::new(Standard::A, &PhyTiming::of(Standard::A, false), MinstrelParams::RT2800)
            .starting_at(Standard::A.mode(24_000).unwrap())
            .unwrap();
        let mut st = r.new_station(&mut rng(), SimTime::ZERO);
        let rates: Vec<u32> =
            (0..6).map(|k| r.select(&mut st, 1, k, SimTime::ZERO).rate_kbps() / 1000).collect();
        assert_eq!(rates, [24, 18, 12, 9, 6, 6]);
        // A mode of another standard is not a starting rate.
        assert!(a().starting_at(Standard::B.mode(11_000).unwrap()).is_none());
    }

    #[test]
    fn a_starting_rate_that_fails_is_left_at_the_first_statistics_update() {
        // 802.11a from 54 Mbit/s, where every attempt fails (the rest get through): the first
        // window's update (after 100 ms) finds 54 at probability 0 and picks another.
        let m = a().starting_at(Standard::A.mode(54_000).unwrap()).unwrap();
        let mut st = m.new_station(&mut rng(), SimTime::ZERO);
        let mut firsts = Vec::new();
        for k in 0..150u64 {
            let now = SimTime::ZERO + Dur::from_ms(k);
            for attempt in 0..30 {
                let mode = m.select(&mut st, 1, attempt, now);
                if attempt == 0 {
                    firsts.push(mode.rate_kbps() / 1000);
                }
                if mode.rate_kbps() != 54_000 {
                    m.report(&mut st, 1, TxReport::DataOk { retries: attempt }, now);
                    break;
                }
                m.report(&mut st, 1, TxReport::DataFailed, now);
            }
        }
        // Every frame starts at 54 until the frame that ends past 100 ms (at 101 ms) updates
        // the statistics (a sample slower than 54 goes in the second stage).
        assert!(firsts[..=101].iter().all(|&r| r == 54), "{firsts:?}");
        assert_ne!(st.max_tp, 7, "54 Mbit/s is no longer the best");
        assert_eq!(st.r[7].probability, 0);
        // After it, 54 is tried only as a look-around, at most 4 times a window (below 10 %
        // success: sample_limit 4).
        assert!(firsts[102..].iter().filter(|&&r| r == 54).count() <= 4, "{firsts:?}");
    }

    #[test]
    fn from_any_starting_rate_minstrel_settles_where_it_does_from_the_lowest() {
        // scripted_36's channel (6-24 get through, 36 fails every fifth, 48 and
        // 54 always): from 6, 24 or 54 Mbit/s, two seconds later max_tp is 36 and max_tp2 24.
        for start in [6_000, 24_000, 54_000] {
            let m = a().starting_at(Standard::A.mode(start).unwrap()).unwrap();
            let mut st = m.new_station(&mut rng(), SimTime::ZERO);
            scripted_36(&m, &mut st, |_, _| {});
            assert_eq!((st.max_tp, st.max_tp2), (5, 4), "from {start} kbit/s");
        }
    }

    #[test]
    fn rt2800_falls_back_one_mode_per_retry_and_never_from_ofdm_to_cck() {
        let g = Minstrel::new(Standard::G, &PhyTiming::of(Standard::G, false), MinstrelParams::RT2800);
        let mut st = g.new_station(&mut rng(), SimTime::ZERO);
        st.max_tp = 11; // 54 Mbit/s ERP-OFDM
        st.packet_count = 1000;
        st.sample_count = 1000;
        g.build_chain(&mut st, 1);
        let rates: Vec<u32> =
            (0..10).map(|k| g.modes[g.chain_index(&st, 1, k).0].rate_kbps() / 1000).collect();
        assert_eq!(rates, [54, 48, 36, 24, 18, 12, 9, 6, 6, 6]);
        st.frames[1].chain[0].0 = 3; // 11 Mbit/s CCK (the band table: 1, 2, 5.5, 11, 6, ...)
        let cck: Vec<u32> = (0..5).map(|k| g.modes[g.chain_index(&st, 1, k).0].rate_kbps()).collect();
        assert_eq!(cck, [11_000, 5_500, 2_000, 1_000, 1_000]);
    }

    /// 802.11g (band table 1, 2, 5.5, 11, 6, 9, 12, 18, 24, 36, 48, 54: indices 0-11), a
    /// frame whose first attempt went at `first` and whose last at `last`, after `attempts`.
    fn g_frame(first: u8, last: u8, attempts: u8) -> FrameChain {
        FrameChain {
            chain: [(first, 1), (0, 1), (0, 0), (0, 0)],
            chain_len: 2,
            cur: last,
            attempts,
            ..FrameChain::default()
        }
    }

    #[test]
    fn rt2x00_rebuilds_the_tries_from_the_retry_count_as_linux_3_12_does() {
        // By hand from rt2800_txdone_entry and rt2x00lib_fill_tx_status (Linux 3.12).
        let g = Minstrel::new(Standard::G, &PhyTiming::of(Standard::G, false), MinstrelParams::RT2800);
        // At once at 54: one entry, terminated, credited with the ACK.
        assert_eq!(g.rt2x00_rates(&g_frame(11, 11, 1), true), [(11, 1), (-1, 0), (0, 0), (0, 0)]);
        // Acked at 48 after one retry: 54 and 48, the ACK to 48.
        assert_eq!(g.rt2x00_rates(&g_frame(11, 10, 2), true), [(11, 1), (10, 1), (-1, 0), (0, 0)]);
        // Acked at 36 after two retries: three entries, the fourth left zeroed (index 0,
        // count 0), so no entry is followed by -1 and no success is credited.
        assert_eq!(g.rt2x00_rates(&g_frame(11, 9, 3), true), [(11, 1), (10, 1), (9, 1), (0, 0)]);
        // Acked at 6 after 12 tries from 54: seven step-downs reported, four entries kept.
        assert_eq!(g.rt2x00_rates(&g_frame(11, 4, 12), true), [(11, 1), (10, 1), (9, 1), (8, 1)]);
        // From 6 Mbit/s the hardware never steps down: acked on the 5th try reads as none.
        assert_eq!(g.rt2x00_rates(&g_frame(4, 4, 5), true), [(4, 1), (-1, 0), (0, 0), (0, 0)]);
        // Failed after 8 tries from 9 Mbit/s (long limit 7): 9, 6, then 11 and 5.5 Mbit/s CCK,
        // which the hardware never sent.
        assert_eq!(g.rt2x00_rates(&g_frame(5, 4, 8), false), [(5, 1), (4, 1), (3, 1), (2, 1)]);
        // Failed after 4 tries from 2 Mbit/s: 2, then 1 Mbit/s with the other three tries.
        assert_eq!(g.rt2x00_rates(&g_frame(1, 0, 4), false), [(1, 1), (0, 3), (-1, 0), (0, 0)]);

        // minstrel_tx_status on them: attempts per entry, the ACK to a terminated last entry.
        let mut st = g.new_station(&mut rng(), SimTime::ZERO);
        let tries = |st: &mut MinstrelStation, first: u8, outcomes: &[bool]| {
            st.max_tp = first;
            g.build_chain(st, 1);
            for (k, &ok) in outcomes.iter().enumerate() {
                g.select(st, 1, k as u32, SimTime::ZERO);
                let last = k + 1 == outcomes.len();
                let report = match (ok, last) {
                    (true, _) => TxReport::DataOk { retries: k as u32 },
                    (false, false) => TxReport::DataFailed,
                    (false, true) => TxReport::FinalDataFailed,
                };
                g.report(st, 1, report, SimTime::ZERO);
            }
        };
        st.packet_count = 1000;
        st.sample_count = 1000; // no look-around in these frames
        tries(&mut st, 11, &[false, true]);
        assert_eq!((st.r[11].attempts, st.r[11].success, st.r[10].attempts, st.r[10].success), (1, 0, 1, 1));
        tries(&mut st, 11, &[false, false, true]);
        assert_eq!((st.r[9].attempts, st.r[9].success, st.r[10].success), (1, 0, 1));
        // Per attempt (a driver reporting every try): 36 gets its ACK.
        let p = Minstrel::new(
            Standard::G,
            &PhyTiming::of(Standard::G, false),
            MinstrelParams { rt2x00_status: false, ..MinstrelParams::RT2800 },
        );
        let mut q = p.new_station(&mut rng(), SimTime::ZERO);
        (q.packet_count, q.sample_count, q.max_tp) = (1000, 1000, 11);
        p.build_chain(&mut q, 1);
        for (k, ok) in [false, false, true].into_iter().enumerate() {
            p.select(&mut q, 1, k as u32, SimTime::ZERO);
            let report = if ok { TxReport::DataOk { retries: k as u32 } } else { TxReport::DataFailed };
            p.report(&mut q, 1, report, SimTime::ZERO);
        }
        assert_eq!((q.r[9].attempts, q.r[9].success), (1, 1));
    }
}
