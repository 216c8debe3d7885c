//! CLAP in the world (phase 2, docs/clap.md): one transfer per `clap_file` flow, its data
//! segments and feedbacks carried as packets, its two timers as events, its rate fed by the
//! link reports of the sender's own MAC, and its statistics.
//!
//! A feedback travels by its serial number; its body waits in a ring of the
//! [`FEEDBACK_RING`] newest feedbacks of the flow. A feedback still in flight when
//! [`FEEDBACK_RING`] newer ones have been sent (at 100 ms per feedback: 1.6 s) is counted as
//! expired on arrival and ignored, like a lost one.

use super::World;
use crate::clap::rate::{LinkReport, RateConfig, RateController};
use crate::clap::{ClapPacket, ClapParams, ClapReceiver, ClapSegment, ClapSender, Feedback};
use crate::engine::Timer;
use crate::event::Event;
use crate::ids::{FlowId, NodeId, PacketId};
use crate::mac::WifiConfig;
use crate::net::Packet;
use crate::spec::{FlowSpec, SpecError};
use crate::time::{Dur, SimTime};
use crate::xlayer::clap_link::ServiceMeter;

/// Feedbacks kept per flow for the packets that carry them (a power of two).
pub const FEEDBACK_RING: usize = 16;

/// Counters of one transfer: report counters, zeroed when the measured period starts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClapCounters {
    /// Data segments sent (retransmissions included) and the retransmissions among them.
    pub segments_sent: u64,
    pub retransmissions: u64,
    /// IP bytes of the data segments sent.
    pub sent_ip_bytes: u64,
    /// Feedback packets the receiver sent, and those that reached the sender.
    pub feedbacks_sent: u64,
    pub feedbacks_received: u64,
    /// Feedbacks that arrived after their ring slot was reused (ignored, as if lost).
    pub feedbacks_expired: u64,
    /// Probe timeouts at the sender (no feedback for srtt + 3 intervals).
    pub probes: u64,
    /// Link reports from the sender's MAC.
    pub link_reports: u64,
    /// RTT samples (one per feedback with an echo) and their sum [ns].
    pub rtt_samples: u64,
    pub rtt_sum_ns: u128,
}

/// One CLAP transfer: both ends, their timers, the feedback ring and the measurements.
pub struct ClapFlow {
    pub snd: ClapSender,
    pub rcv: ClapReceiver,
    pub snd_timer: Timer,
    pub rcv_timer: Timer,
    ring: [Feedback; FEEDBACK_RING],
    pub counters: ClapCounters,
    /// Integral of the pacing rate over the measured sending time [bit/s x ns], that time
    /// [ns], and where the integral stopped.
    pub rate_area: f64,
    pub rate_time_ns: u64,
    rate_since: SimTime,
    out: Vec<ClapSegment>,
}

fn ms(v: f64) -> Dur {
    Dur((v * 1e6).round() as u64)
}

impl ClapFlow {
    /// Build from a validated flow spec and the world's WiFi settings (the sender's MAC runs
    /// them: they seed the rate law).
    pub fn new(f: &FlowSpec, wifi: &WifiConfig, erp_mixed: bool) -> Result<ClapFlow, SpecError> {
        let c = f.clap.clone().unwrap_or_default();
        let p = ClapParams {
            mss_bytes: c.mss_bytes,
            feedback_interval: ms(c.feedback_interval_ms),
            max_nack_ranges: c.max_nack_ranges,
            send_buffer_segments: c.send_buffer_segments,
            ..ClapParams::default()
        };
        let segment_ip_bytes = crate::clap::IP_HEADER_BYTES + crate::clap::DATA_HEADER_BYTES + c.mss_bytes;
        let mut cfg = RateConfig::new(wifi.standard, wifi.data_txv.preamble, erp_mixed, segment_ip_bytes);
        cfg.timing = wifi.timing;
        cfg.qos = wifi.qos;
        cfg.queue_target_frames = c.queue_target_frames;
        let bps = |t: crate::phy::TxVector| u64::from(t.mode.rate_kbps()) * 1000;
        let rate = RateController::new(cfg, bps(wifi.data_txv), bps(wifi.control_txv))
            .ok_or_else(|| SpecError("wifi.data_rate_mbps: no CLAP rate law for this rate".into()))?;
        let file = f.file_bytes.unwrap_or(0);
        Ok(ClapFlow {
            snd: ClapSender::new(p, rate, file),
            rcv: ClapReceiver::new(p),
            snd_timer: Timer::default(),
            rcv_timer: Timer::default(),
            ring: [Feedback::default(); FEEDBACK_RING],
            counters: ClapCounters::default(),
            rate_area: 0.0,
            rate_time_ns: 0,
            rate_since: SimTime::ZERO,
            out: Vec::with_capacity(8),
        })
    }

    /// Account the pacing rate up to `now` (while the sender runs).
    fn account(&mut self, now: SimTime) {
        let from = self.rate_since;
        if now > from && !self.snd.is_complete() {
            let dt = now.since(from).ns();
            self.rate_area += self.snd.rate_bps() as f64 * dt as f64;
            self.rate_time_ns += dt;
        }
        self.rate_since = now;
    }
}

impl World {
    fn clap(&mut self, f: FlowId) -> &mut ClapFlow {
        self.claps[f.idx()].as_mut().expect("a CLAP flow")
    }

    pub(crate) fn clap_start(&mut self, f: FlowId, now: SimTime) {
        let c = self.clap(f);
        c.rate_since = now;
        let mut out = std::mem::take(&mut c.out);
        c.snd.start(now, &mut out);
        c.out = out;
        self.clap_emit_data(f, now);
        self.clap_arm_sender(f, now);
    }

    /// Arm the sender's timer at its `poll_at()` (or stop it).
    fn clap_arm_sender(&mut self, f: FlowId, now: SimTime) {
        let c = self.claps[f.idx()].as_mut().expect("a CLAP flow");
        let at = c.snd.poll_at().map(|at| at.max(now));
        c.snd_timer.set(at, &mut self.sched, |gen| Event::ClapSender { flow: f, gen });
    }

    fn clap_arm_receiver(&mut self, f: FlowId, now: SimTime) {
        let c = self.claps[f.idx()].as_mut().expect("a CLAP flow");
        let at = c.rcv.poll_at().map(|at| at.max(now));
        c.rcv_timer.set(at, &mut self.sched, |gen| Event::ClapReceiver { flow: f, gen });
    }

    /// The sender's pending segments become packets from the flow's source.
    fn clap_emit_data(&mut self, f: FlowId, now: SimTime) {
        let (src, dst, ac) = {
            let flow = &self.flows[f.idx()];
            (flow.src, flow.dst, flow.ac)
        };
        let mut out = std::mem::take(&mut self.clap(f).out);
        for seg in out.drain(..) {
            let k = &mut self.clap(f).counters;
            k.segments_sent += 1;
            k.retransmissions += u64::from(seg.retransmit);
            k.sent_ip_bytes += u64::from(seg.ip_bytes());
            self.flows[f.idx()].sent += 1;
            let p = Packet::new(f, seg.seq, src, dst, seg.ip_bytes(), seg.len, now, ac);
            self.send_new(src, Packet { clap: Some(ClapPacket::Data(seg)), ..p }, now);
        }
        self.clap(f).out = out;
    }

    /// A feedback leaves the receiver (the flow's destination) for the sender.
    fn clap_emit_feedback(&mut self, f: FlowId, fb: Feedback, now: SimTime) {
        let (src, dst, ac) = {
            let flow = &self.flows[f.idx()];
            (flow.dst, flow.src, flow.ac)
        };
        let c = self.clap(f);
        c.ring[fb.serial as usize % FEEDBACK_RING] = fb;
        c.counters.feedbacks_sent += 1;
        let p = Packet::new(f, fb.serial, src, dst, fb.ip_bytes(), 0, now, ac);
        self.send_new(src, Packet { clap: Some(ClapPacket::Feedback { serial: fb.serial }), ..p }, now);
    }

    /// A CLAP packet reached `node`, one end of its transfer.
    pub(crate) fn clap_deliver(&mut self, id: PacketId, node: NodeId, now: SimTime) {
        let p = *self.packets.get(id);
        self.packets.free(id);
        let f = p.flow;
        match p.clap {
            Some(ClapPacket::Data(seg)) if node == self.flows[f.idx()].dst => {
                let (fresh, fb) = self.clap(f).rcv.on_data(&seg, now);
                if fresh > 0 {
                    self.count_goodput(f, fresh, now);
                    let flow = &mut self.flows[f.idx()];
                    flow.delivered += 1;
                    flow.delay_sum_ns += u128::from(now.since(seg.sent_at).ns());
                }
                if let Some(fb) = fb {
                    self.clap_emit_feedback(f, fb, now);
                }
                self.clap_arm_receiver(f, now);
            }
            Some(ClapPacket::Feedback { serial }) if node == self.flows[f.idx()].src => {
                let c = self.clap(f);
                let fb = c.ring[serial as usize % FEEDBACK_RING];
                if fb.serial != serial {
                    c.counters.feedbacks_expired += 1;
                    return;
                }
                c.account(now);
                let samples = c.snd.stats.rtt_samples;
                let mut out = std::mem::take(&mut c.out);
                c.snd.on_feedback(&fb, now, &mut out);
                c.out = out;
                c.counters.feedbacks_received += 1;
                if c.snd.stats.rtt_samples > samples {
                    // The sample the sender took (RFC 3550 6.4.1 style): now - echo - hold.
                    let e = fb.echo_sent_at.unwrap_or(now);
                    c.counters.rtt_samples += 1;
                    c.counters.rtt_sum_ns += u128::from((now.since(e) - fb.echo_hold).ns());
                }
                self.clap_emit_data(f, now);
                self.clap_arm_sender(f, now);
            }
            _ => {}
        }
    }

    pub(crate) fn on_clap_sender_timer(&mut self, f: FlowId, gen: u32, now: SimTime) {
        let c = self.clap(f);
        if !c.snd_timer.fire(gen) {
            return;
        }
        let probes = c.snd.stats.probes;
        let mut out = std::mem::take(&mut c.out);
        c.snd.on_timer(now, &mut out);
        c.out = out;
        c.counters.probes += c.snd.stats.probes - probes;
        self.clap_emit_data(f, now);
        self.clap_arm_sender(f, now);
    }

    pub(crate) fn on_clap_receiver_timer(&mut self, f: FlowId, gen: u32, now: SimTime) {
        let c = self.clap(f);
        if !c.rcv_timer.fire(gen) {
            return;
        }
        if let Some(fb) = c.rcv.on_timer(now) {
            self.clap_emit_feedback(f, fb, now);
        }
        self.clap_arm_receiver(f, now);
    }

    /// An exchange of access category `ac` at `node` ended (ACK received or frame given up):
    /// every CLAP sender on this node whose packets enter that queue gets a link report built
    /// from the queue's service meter (the `ClapLink` cross-layer scheme).
    pub(crate) fn clap_link_report(&mut self, node: NodeId, ac: usize, meter: ServiceMeter, now: SimTime) {
        let w = &self.wifi.cfg;
        let report = LinkReport {
            data_rate_bps: meter.rate_bps,
            basic_rate_bps: u64::from(w.control_txv.mode.rate_kbps()) * 1000,
            service_time_ns: meter.ewma_ns,
            service_samples: meter.samples,
            queue_frames: self.wifi.queue_len(node, ac) as u32,
            queue_limit_frames: w.queue_limit as u32,
        };
        for k in 0..self.nodes[node.idx()].sources.len() {
            let f = self.nodes[node.idx()].sources[k];
            if usize::from(self.flows[f.idx()].ac) != ac {
                continue;
            }
            let Some(c) = self.claps[f.idx()].as_mut() else { continue };
            if c.snd.is_complete() {
                continue;
            }
            c.account(now);
            c.snd.on_link_report(&report);
            c.counters.link_reports += 1;
            // A rate change takes effect from the next gap: the timer stands.
        }
    }

    /// The measured period starts at `at`: every transfer's rate integral restarts there and
    /// its counters start from zero.
    pub(crate) fn clap_start_measuring(&mut self, at: SimTime) {
        for c in self.claps.iter_mut().flatten() {
            c.account(at);
            (c.rate_area, c.rate_time_ns) = (0.0, 0);
            c.counters = ClapCounters::default();
        }
    }

    /// Close the rate integrals at the end of the run.
    pub(crate) fn clap_finish(&mut self, end: SimTime) {
        for c in self.claps.iter_mut().flatten() {
            c.account(end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_packets_stay_small() {
        // A feedback travels by its serial; a data segment by value (24 bytes).
        assert!(
            std::mem::size_of::<Option<ClapPacket>>() <= 32,
            "{}",
            std::mem::size_of::<Option<ClapPacket>>()
        );
        assert!(FEEDBACK_RING.is_power_of_two());
    }
}
