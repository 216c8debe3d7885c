//! The CLAP sender: a paced source of segments whose error control reads the receiver's
//! aggregate feedback and whose flow control is the [`RateController`]'s rate, nothing else.
//!
//! Per segment between the cumulative point and the next new segment the sender keeps one
//! slot (last transmission time, transmissions, received, queued for retransmission) in a
//! `VecDeque` that is popped as the cumulative point advances; retransmissions wait in a
//! second `VecDeque`. Both are bounded by the send buffer and reuse their storage.
//!
//! Loss rule, applied to every NACKed hole and every segment at or above the receiver's high
//! end (the tail) when a feedback arrives: the segment's last transmission is lost if
//! - a transmission sent later (by more than the reordering window) has arrived: the feedback
//!   echoes the send time of the newest transmission the receiver holds (RFC 8985 RACK, on
//!   FIFO paths), or
//! - it is older than srtt + feedback interval: any feedback that could report it has come.
//!
//! A NACKed hole that passes neither test was retransmitted too recently for the feedback to
//! know (duplicate suppression). With no feedback for srtt + `probe_intervals` intervals the
//! sender probes: it re-sends the lowest unconfirmed segment and doubles that timeout.

use std::collections::VecDeque;

use super::rate::{LinkReport, RateController};
use super::{segment_count, segment_len, ClapParams, ClapSegment, Feedback};
use crate::tcp::rto::{RtoConfig, RtoEstimator};
use crate::time::{Dur, SimTime};

/// Sender counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    pub retransmissions: u64,
    /// Payload bytes sent, retransmissions included, and those of retransmissions alone.
    pub bytes_sent: u64,
    pub retransmitted_bytes: u64,
    pub feedbacks: u64,
    /// Feedbacks older than one already used (ignored).
    pub stale_feedbacks: u64,
    pub rtt_samples: u64,
    /// NACKed holes not re-sent because their last transmission was too recent.
    pub suppressed: u64,
    /// Segments above the receiver's high end judged lost.
    pub tail_losses: u64,
    /// Feedback timeouts (probes).
    pub probes: u64,
}

/// What the sender knows of one segment in flight.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    last_sent: SimTime,
    sends: u16,
    /// Reported received (not in a NACK range below the NACK-complete point).
    received: bool,
    /// Waiting in the retransmission queue.
    queued: bool,
}

/// Largest doubling of the probe timeout.
const MAX_PROBE_BACKOFF: u32 = 6;

pub struct ClapSender {
    pub p: ClapParams,
    pub rate: RateController,
    file_bytes: u64,
    total: u32,
    /// Every segment below it is confirmed (and forgotten).
    cum: u32,
    /// The next segment never sent.
    next_new: u32,
    /// Slots of segments [cum, next_new).
    slots: VecDeque<Slot>,
    /// Segments to retransmit, in order; each also has `queued` set in its slot.
    rtx: VecDeque<u32>,
    next_send_at: SimTime,
    started: bool,
    /// Some pacing slot since the last link report found nothing to send.
    app_limited: bool,
    /// The RTT estimator of RFC 6298 (2.2)-(2.3), shared with TCP; only its SRTT is used.
    rtt: RtoEstimator,
    last_serial: u32,
    probe_at: Option<SimTime>,
    probe_backoff: u32,
    /// The receiver's arrival rate in the newest feedback [IP bit/s].
    pub last_arrival_rate_bps: u64,
    /// When the final feedback arrived.
    pub completed_at: Option<SimTime>,
    pub stats: SenderStats,
}

impl ClapSender {
    pub fn new(p: ClapParams, rate: RateController, file_bytes: u64) -> ClapSender {
        ClapSender {
            p,
            rate,
            file_bytes,
            total: segment_count(file_bytes, p.mss_bytes),
            cum: 0,
            next_new: 0,
            slots: VecDeque::with_capacity(256),
            rtx: VecDeque::with_capacity(64),
            next_send_at: SimTime::ZERO,
            started: false,
            app_limited: false,
            rtt: RtoEstimator::new(RtoConfig::default()),
            last_serial: 0,
            probe_at: None,
            probe_backoff: 0,
            last_arrival_rate_bps: 0,
            completed_at: None,
            stats: SenderStats::default(),
        }
    }

    /// Segments in the file.
    pub fn total_segments(&self) -> u32 {
        self.total
    }

    /// Every segment below this one is confirmed.
    pub fn cum(&self) -> u32 {
        self.cum
    }

    /// The next segment never sent.
    pub fn next_new(&self) -> u32 {
        self.next_new
    }

    pub fn is_complete(&self) -> bool {
        self.completed_at.is_some()
    }

    /// The pacing rate [IP bit/s].
    pub fn rate_bps(&self) -> u64 {
        self.rate.rate_bps()
    }

    /// Smoothed RTT (RFC 6298 2.2-2.3), None before the first sample.
    pub fn srtt(&self) -> Option<Dur> {
        self.rtt.srtt()
    }

    /// Segments queued for retransmission.
    pub fn rtx_queue(&self) -> impl Iterator<Item = u32> + '_ {
        self.rtx.iter().copied()
    }

    /// Begin the transfer: send the first segment now.
    pub fn start(&mut self, now: SimTime, out: &mut Vec<ClapSegment>) {
        if self.started {
            return;
        }
        self.started = true;
        self.next_send_at = now;
        self.probe_at = Some(now + self.probe_timeout());
        self.on_timer(now, out);
    }

    /// When the sender's one timer should fire next: the next pacing slot if something is
    /// ready to send, or the probe deadline, whichever is first.
    pub fn poll_at(&self) -> Option<SimTime> {
        if !self.started || self.is_complete() {
            return None;
        }
        let pace = self.has_sendable().then_some(self.next_send_at);
        match (pace, self.probe_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The timer fired: probe if no feedback came in time, then send one segment if the
    /// pacing slot has come.
    pub fn on_timer(&mut self, now: SimTime, out: &mut Vec<ClapSegment>) {
        if !self.started || self.is_complete() {
            return;
        }
        if self.probe_at.is_some_and(|t| now >= t) {
            self.probe(now);
        }
        if now >= self.next_send_at {
            self.send_one(now, out);
        }
    }

    /// A link report from the sender's MAC: the rate law runs.
    pub fn on_link_report(&mut self, r: &LinkReport) -> u64 {
        let limited = self.app_limited || !self.has_sendable();
        self.app_limited = false;
        self.rate.on_report(r, limited)
    }

    /// A feedback from the receiver. May send one segment if the pacing slot has come.
    pub fn on_feedback(&mut self, fb: &Feedback, now: SimTime, out: &mut Vec<ClapSegment>) {
        if !self.started || self.is_complete() {
            return;
        }
        if fb.serial <= self.last_serial {
            self.stats.stale_feedbacks += 1;
            return;
        }
        self.last_serial = fb.serial;
        self.stats.feedbacks += 1;
        self.last_arrival_rate_bps = fb.arrival_rate_bps;
        self.probe_backoff = 0;
        if let Some(e) = fb.echo_sent_at {
            // RTCP-style (RFC 3550 6.4.1): round trip = now - echoed send time - hold time.
            let held = now.since(e);
            if held >= fb.echo_hold {
                self.rtt_sample(held - fb.echo_hold);
            }
        }
        self.probe_at = Some(now + self.probe_timeout());
        if fb.complete || fb.cum >= self.total {
            self.completed_at = Some(now);
            self.cum = self.total;
            self.slots.clear();
            self.rtx.clear();
            self.probe_at = None;
            return;
        }
        // Forget what is confirmed.
        let cum = fb.cum.min(self.next_new);
        while self.cum < cum {
            self.slots.pop_front();
            self.cum += 1;
        }
        // Mark received what the NACK list leaves out below its complete point.
        let known_to = fb.nack_complete_to.min(self.next_new);
        let mut pos = self.cum;
        for &(a, b) in fb.nack_ranges() {
            for s in pos..a.min(known_to) {
                self.slot_mut(s).received = true;
            }
            pos = pos.max(b);
        }
        for s in pos..known_to {
            self.slot_mut(s).received = true;
        }
        // Judge NACKed holes, then the tail.
        let guard = self.srtt_or_initial() + self.p.feedback_interval;
        for &(a, b) in fb.nack_ranges() {
            for s in a.max(self.cum)..b.min(self.next_new) {
                if !self.judge(s, fb.echo_sent_at, guard, now) {
                    self.stats.suppressed += 1;
                }
            }
        }
        for s in fb.high_end.max(self.cum)..self.next_new {
            if self.judge(s, fb.echo_sent_at, guard, now) {
                self.stats.tail_losses += 1;
            }
        }
        let (cum, slots) = (self.cum, &mut self.slots);
        self.rtx.retain(|&s| s >= cum && !slots[(s - cum) as usize].received);
        if now >= self.next_send_at {
            self.send_one(now, out);
        }
    }

    fn slot_mut(&mut self, seq: u32) -> &mut Slot {
        &mut self.slots[(seq - self.cum) as usize]
    }

    /// Queue segment `seq` for retransmission if its last transmission is lost (the rule in the
    /// module doc). Returns whether it is lost (or already queued or received: nothing to do).
    fn judge(&mut self, seq: u32, echo: Option<SimTime>, guard: Dur, now: SimTime) -> bool {
        let window = self.p.reorder_window;
        let slot = self.slot_mut(seq);
        if slot.received || slot.queued {
            return true;
        }
        let overtaken = echo.is_some_and(|e| slot.last_sent + window < e);
        let lost = overtaken || now >= slot.last_sent + guard;
        if lost {
            slot.queued = true;
            self.rtx.push_back(seq);
        }
        lost
    }

    fn srtt_or_initial(&self) -> Dur {
        self.rtt.srtt().unwrap_or(self.p.initial_rtt)
    }

    /// No feedback for srtt + `probe_intervals` intervals, doubled per consecutive timeout.
    fn probe_timeout(&self) -> Dur {
        let base = self.srtt_or_initial() + self.p.feedback_interval.times(u64::from(self.p.probe_intervals));
        base.times(1 << self.probe_backoff)
    }

    /// Feedback timeout: re-send the lowest unconfirmed segment not known to have arrived
    /// (at the head of the retransmission queue), unless it was sent within the guard time.
    fn probe(&mut self, now: SimTime) {
        self.stats.probes += 1;
        self.probe_backoff = (self.probe_backoff + 1).min(MAX_PROBE_BACKOFF);
        self.probe_at = Some(now + self.probe_timeout());
        let guard = self.srtt_or_initial() + self.p.feedback_interval;
        if let Some(i) = self.slots.iter().position(|s| !s.received) {
            let slot = &mut self.slots[i];
            if !slot.queued && now >= slot.last_sent + guard {
                slot.queued = true;
                self.rtx.push_front(self.cum + i as u32);
            }
        }
    }

    /// RFC 6298 (2.2)-(2.3) with alpha 1/8, beta 1/4.
    fn rtt_sample(&mut self, r: Dur) {
        self.stats.rtt_samples += 1;
        self.rtt.sample(r);
    }

    fn new_allowed(&self) -> bool {
        self.next_new < self.total
            && u64::from(self.next_new) < u64::from(self.cum) + u64::from(self.p.send_buffer_segments.max(1))
    }

    fn has_sendable(&self) -> bool {
        !self.rtx.is_empty() || self.new_allowed()
    }

    /// Send the next segment: a retransmission if one is queued, else a new one.
    fn send_one(&mut self, now: SimTime, out: &mut Vec<ClapSegment>) {
        let (seq, retransmit) = if let Some(s) = self.rtx.pop_front() {
            (s, true)
        } else if self.new_allowed() {
            self.slots.push_back(Slot::default());
            self.next_new += 1;
            (self.next_new - 1, false)
        } else {
            self.app_limited = true;
            return;
        };
        let slot = self.slot_mut(seq);
        slot.queued = false;
        slot.last_sent = now;
        slot.sends = slot.sends.saturating_add(1);
        let seg = ClapSegment {
            seq,
            total: self.total,
            len: segment_len(seq, self.file_bytes, self.p.mss_bytes),
            sent_at: now,
            retransmit,
        };
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += u64::from(seg.len);
        if retransmit {
            self.stats.retransmissions += 1;
            self.stats.retransmitted_bytes += u64::from(seg.len);
        }
        // The pacing gap of this packet at the current rate, rounded up [ns].
        let bits = u64::from(seg.ip_bytes()) * 8;
        let gap_ns = (bits * 1_000_000_000).div_ceil(self.rate.rate_bps().max(1));
        self.next_send_at = now + Dur(gap_ns);
        if !self.has_sendable() {
            self.app_limited = true;
        }
        out.push(seg);
    }
}
