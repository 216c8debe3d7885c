//! The CLAP receiver: which segments have arrived, and one aggregate feedback per interval.
//!
//! Arrivals are kept in a sliding bitmap of 64-bit words starting at the word that holds the
//! cumulative point; words below it are dropped as it advances and their storage is reused,
//! so the steady state allocates nothing. Holes stay in every feedback until they are filled:
//! a lost feedback costs one interval, never a hole.

use std::collections::VecDeque;

use super::{ClapParams, ClapSegment, Feedback, MAX_NACK_RANGES};
use crate::time::{Dur, SimTime};

/// Receiver counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReceiverStats {
    /// Data segments that arrived (duplicates included).
    pub segments: u64,
    pub duplicates: u64,
    /// Payload bytes that had not arrived before.
    pub fresh_bytes: u64,
    pub feedbacks_sent: u64,
    /// Feedbacks whose NACK list was cut at the range limit.
    pub truncated_feedbacks: u64,
}

pub struct ClapReceiver {
    pub p: ClapParams,
    /// Segments in the file, known from the first segment that arrives.
    total: Option<u32>,
    cum: u32,
    high_end: u32,
    /// Bit i of word k: segment `base` + 64 k + i has arrived. `base` is a multiple of 64.
    bits: VecDeque<u64>,
    base: u32,
    next_feedback_at: Option<SimTime>,
    serial: u32,
    /// Start of the current rate-measurement interval and the IP bits that arrived in it.
    interval_start: SimTime,
    interval_bits: u64,
    /// (sent_at, arrival) of the most recently sent transmission that arrived.
    echo: Option<(SimTime, SimTime)>,
    /// When the last segment arrived, and when the final feedback was last sent.
    pub completed_at: Option<SimTime>,
    last_final_at: Option<SimTime>,
    pub stats: ReceiverStats,
}

impl ClapReceiver {
    pub fn new(p: ClapParams) -> ClapReceiver {
        ClapReceiver {
            p,
            total: None,
            cum: 0,
            high_end: 0,
            bits: VecDeque::with_capacity(64),
            base: 0,
            next_feedback_at: None,
            serial: 0,
            interval_start: SimTime::ZERO,
            interval_bits: 0,
            echo: None,
            completed_at: None,
            last_final_at: None,
            stats: ReceiverStats::default(),
        }
    }

    /// Cumulative point: every segment below it has arrived.
    pub fn cum(&self) -> u32 {
        self.cum
    }

    /// One past the highest segment that has arrived.
    pub fn high_end(&self) -> u32 {
        self.high_end
    }

    pub fn is_complete(&self) -> bool {
        self.completed_at.is_some()
    }

    /// When the feedback timer should fire next (None: no feedback due, before the first
    /// arrival and after completion).
    pub fn poll_at(&self) -> Option<SimTime> {
        self.next_feedback_at
    }

    /// Whether segment `seq` has arrived.
    pub fn has(&self, seq: u32) -> bool {
        if seq < self.cum {
            return true;
        }
        let i = (seq - self.base) as usize;
        self.bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// A data segment arrived. Returns the payload bytes it brought that had not arrived before
    /// and the feedback to send now, if any: the final one when this segment completes the
    /// file, or a repeat of it when a duplicate arrives after completion (the final feedback
    /// was lost; at most one repeat per interval).
    pub fn on_data(&mut self, seg: &ClapSegment, now: SimTime) -> (u64, Option<Feedback>) {
        if seg.total == 0 || seg.seq >= seg.total || self.total.is_some_and(|t| t != seg.total) {
            return (0, None); // not of this file
        }
        self.total = Some(seg.total);
        self.stats.segments += 1;
        self.interval_bits += u64::from(seg.ip_bytes()) * 8;
        if self.echo.is_none_or(|(sent, _)| seg.sent_at >= sent) {
            self.echo = Some((seg.sent_at, now));
        }
        if self.is_complete() {
            self.stats.duplicates += 1;
            let due = self.last_final_at.is_none_or(|t| now >= t + self.p.feedback_interval);
            return (0, due.then(|| self.final_feedback(now)));
        }
        if self.next_feedback_at.is_none() {
            self.next_feedback_at = Some(now + self.p.feedback_interval);
            self.interval_start = now;
        }
        if self.has(seg.seq) {
            self.stats.duplicates += 1;
            return (0, None);
        }
        self.set(seg.seq);
        self.high_end = self.high_end.max(seg.seq + 1);
        self.stats.fresh_bytes += u64::from(seg.len);
        while self.cum < self.high_end && self.has(self.cum) {
            self.cum += 1;
        }
        while self.cum >= self.base + 64 {
            self.bits.pop_front();
            self.base += 64;
        }
        if self.cum >= seg.total {
            self.completed_at = Some(now);
            self.next_feedback_at = None;
            return (u64::from(seg.len), Some(self.final_feedback(now)));
        }
        (u64::from(seg.len), None)
    }

    /// The feedback timer fired: the periodic feedback, if one is due.
    pub fn on_timer(&mut self, now: SimTime) -> Option<Feedback> {
        let at = self.next_feedback_at?;
        if now < at {
            return None;
        }
        // Keep the cadence; skip the ticks a late call missed.
        let iv = self.p.feedback_interval.ns().max(1);
        let missed = (now.ns() - at.ns()) / iv;
        self.next_feedback_at = Some(at + Dur(iv * (missed + 1)));
        Some(self.feedback(now))
    }

    fn set(&mut self, seq: u32) {
        let i = (seq - self.base) as usize;
        while self.bits.len() <= i / 64 {
            self.bits.push_back(0);
        }
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// First segment in [from, limit) whose arrival bit equals `want`, or `limit`.
    fn find(&self, from: u32, limit: u32, want: bool) -> u32 {
        let mut pos = from;
        while pos < limit {
            let i = (pos - self.base) as usize;
            let (w, b) = (i / 64, i % 64);
            let word = self.bits.get(w).copied().unwrap_or(0);
            let word = if want { word } else { !word } >> b;
            if word != 0 {
                return (pos + word.trailing_zeros()).min(limit);
            }
            pos += (64 - b) as u32;
        }
        limit
    }

    fn header(&mut self, now: SimTime) -> Feedback {
        let span = now.since(self.interval_start).ns();
        let arrival_rate_bps = (self.interval_bits * 1_000_000_000).checked_div(span).unwrap_or(0);
        self.interval_bits = 0;
        self.interval_start = now;
        self.serial += 1;
        self.stats.feedbacks_sent += 1;
        Feedback {
            serial: self.serial,
            cum: self.cum,
            high_end: self.high_end,
            nack_complete_to: self.high_end,
            arrival_rate_bps,
            echo_sent_at: self.echo.map(|e| e.0),
            echo_hold: self.echo.map_or(Dur::ZERO, |e| now.since(e.1)),
            ..Feedback::default()
        }
    }

    /// The periodic feedback: the NACK list names the holes in [cum, high_end), lowest first,
    /// at most `max_nack_ranges`; beyond that `nack_complete_to` marks where it stops.
    fn feedback(&mut self, now: SimTime) -> Feedback {
        let mut fb = self.header(now);
        let max = usize::from(self.p.max_nack_ranges).clamp(1, MAX_NACK_RANGES);
        let mut pos = self.cum;
        loop {
            let start = self.find(pos, self.high_end, false);
            if start >= self.high_end {
                break;
            }
            if usize::from(fb.nack_n) == max {
                fb.nack_complete_to = start;
                self.stats.truncated_feedbacks += 1;
                break;
            }
            let end = self.find(start, self.high_end, true);
            fb.nacks[usize::from(fb.nack_n)] = (start, end);
            fb.nack_n += 1;
            pos = end;
        }
        fb
    }

    fn final_feedback(&mut self, now: SimTime) -> Feedback {
        self.last_final_at = Some(now);
        let mut fb = self.header(now);
        fb.complete = true;
        fb
    }
}
