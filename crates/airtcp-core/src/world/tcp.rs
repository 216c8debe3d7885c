//! TCP in the world: a connection per flow, its segments carried as packets, its timers as
//! events, its statistics and traces.

use super::World;
use crate::engine::Timer;
use crate::event::Event;
use crate::ids::{FlowId, NodeId, PacketId};
use crate::net::{Hop, Packet};
use crate::spec::{FlowKind, FlowSpec, TcpSpec};
use crate::tcp::cc::Algorithm;
use crate::tcp::conn::{
    AckCounting, LocalCongestion, Receiver, Recovery, Rules, Segment, Sender, TcpParams, TimerCmd,
};
use crate::tcp::rto::{RtoConfig, RtoRule};
use crate::tcp::rtt_hist::RttHistogram;
use crate::time::{Dur, SimTime};

fn ms(v: f64) -> Dur {
    Dur((v * 1e6).round() as u64)
}

/// One TCP connection with its timers and measurements.
pub struct TcpFlow {
    pub snd: Sender,
    pub rcv: Receiver,
    pub rto: Timer,
    pub delack: Timer,
    /// RTT samples of the measured period: a fixed-size histogram (rtt_hist.rs), not a list,
    /// so that memory stays flat however long the run.
    pub rtt: RttHistogram,
    /// Integral of cwnd over measured time [segments x ns], and where it stopped.
    pub cwnd_area: f64,
    pub cwnd_since: SimTime,
    /// When the receiver had every byte (tcp_file).
    pub completed: Option<SimTime>,
    /// The sender's counters when the measured period started: the summary reports what
    /// they counted after.
    pub stats_at_warmup: crate::tcp::conn::SenderStats,
    pub rcv_at_warmup: crate::tcp::conn::ReceiverStats,
    /// BBR's ProbeRTT entries when the measured period started.
    pub bbr_probe_rtt_at_warmup: u64,
    /// `tcp.wifi_pacing_shift`, the sender's `sk_pacing_shift` if its first hop is 802.11.
    wifi_pacing_shift: u8,
    /// The flow's TCP profile and the fields written against it ("rfc": None).
    pub effective: Option<crate::spec::profiles::TcpEffective>,
    out: Vec<Segment>,
}

impl TcpFlow {
    /// Build from a validated flow spec; `draws` are the flow's own random draws (BBR's
    /// gain-cycle phases).
    pub(crate) fn new(f: &FlowSpec, draws: crate::rng::Draws) -> TcpFlow {
        let t = f.tcp.clone().unwrap_or_default();
        let p = params(&t);
        let mut cc = Algorithm::new(t.cc);
        match &mut cc {
            Algorithm::Cubic(c) => c.hystart = t.hystart,
            Algorithm::Bbr(b) => b.reseed(draws),
            _ => {}
        }
        let app = match f.kind {
            FlowKind::TcpFile => f.file_bytes,
            _ => None,
        };
        let mut snd = Sender::new(p.clone(), cc, app);
        if let Some(n) = t.initial_ssthresh_segments {
            // A route's ssthresh metric, clamped as Linux's tcp_init_metrics clamps it.
            snd.s.ssthresh = n.min(snd.s.cwnd_clamp);
        }
        TcpFlow {
            snd,
            rcv: Receiver::new(p),
            rto: Timer::default(),
            delack: Timer::default(),
            rtt: RttHistogram::default(),
            cwnd_area: 0.0,
            cwnd_since: SimTime::ZERO,
            completed: None,
            stats_at_warmup: Default::default(),
            rcv_at_warmup: Default::default(),
            bbr_probe_rtt_at_warmup: 0,
            wifi_pacing_shift: t.wifi_pacing_shift,
            effective: (t.profile != crate::spec::profiles::TcpProfile::Rfc).then(|| {
                crate::spec::profiles::TcpEffective {
                    profile: t.profile.to_string(),
                    overrides: crate::spec::profiles::overrides(&t),
                }
            }),
            out: Vec::with_capacity(64),
        }
    }
}

fn params(t: &TcpSpec) -> TcpParams {
    TcpParams {
        mss: t.mss_bytes,
        recovery: t.recovery,
        rto: RtoConfig {
            min: ms(t.min_rto_ms),
            max: ms(t.max_rto_ms),
            initial: ms(t.initial_rto_ms),
            granularity: ms(t.clock_granularity_ms),
            linux: t.rto_estimator == RtoRule::Linux,
            clock_hz: t.clock_hz,
            rtt_clock: t.rtt_clock,
        },
        timestamps: t.timestamps,
        limited_transmit: t.limited_transmit,
        initial_cwnd: t.initial_cwnd,
        ack_every: t.ack_every,
        delack_timeout: ms(t.delack_timeout_ms),
        rcv_buf: t.rcv_buf_bytes,
        snd_buf: t.snd_buf_bytes,
        corruption: t.corruption,
        cno_once_per_rtt: t.cno_once_per_rtt,
        small_queues: t.small_queues,
        tsq_limit_bytes: u64::from(t.limit_output_bytes),
        tsq_rule: t.tsq_rule,
        pacing_shift: 10, // the first hop's: set at the start (World::tcp_start)
        per_ack_growth: t.ack_counting == AckCounting::Acks,
        rules: Rules {
            cwnd_limited: t.cwnd_limited,
            local_congestion: t.local_congestion,
            rto_recovery: t.rto_recovery,
            cwnd_credit: t.cwnd_credit,
            prr: t.prr,
            rack: t.rack,
            tlp: t.tlp,
            tlp_rule: t.tlp_rule,
            timer_rounding: t.timer_rounding,
            rto_rearm: t.rto_rearm,
            newreno_rule: t.newreno_rule,
            lost_retransmit: t.lost_retransmit,
            quickack: t.quickack,
            rcv_window: t.rcv_window,
            sack_compress: t.sack_compress,
            early_retransmit: t.early_retransmit,
            frto: t.frto,
        },
        ecn: t.ecn,
    }
}

impl World {
    fn tcp(&mut self, f: FlowId) -> &mut TcpFlow {
        self.tcps[f.idx()].as_mut().expect("a TCP flow")
    }

    /// Account cwnd over time up to `now`. Called before every sender input.
    fn tcp_account(&mut self, f: FlowId, now: SimTime) {
        let t = self.tcp(f);
        if now > t.cwnd_since {
            t.cwnd_area += f64::from(t.snd.s.cwnd) * now.since(t.cwnd_since).ns() as f64;
        }
        t.cwnd_since = now;
    }

    /// The measured period starts at `at`: every connection's cwnd integral restarts there,
    /// its RTT histogram empties, and its sender's counters are remembered.
    pub(crate) fn tcp_start_measuring(&mut self, at: SimTime) {
        for i in 0..self.tcps.len() {
            if self.tcps[i].is_none() {
                continue;
            }
            let f = FlowId(i as u32);
            self.tcp_account(f, at);
            let t = self.tcp(f);
            t.cwnd_area = 0.0;
            t.rtt = RttHistogram::default();
            t.stats_at_warmup = t.snd.stats;
            t.rcv_at_warmup = t.rcv.stats;
            t.bbr_probe_rtt_at_warmup = t.snd.bbr().map_or(0, |b| b.probe_rtt_entries);
        }
    }

    pub(crate) fn tcp_start(&mut self, f: FlowId, now: SimTime) {
        // mac80211 sets sk_pacing_shift on the sockets whose packets it takes
        // (ieee80211_subif_start_xmit); a wired first hop keeps TCP's own.
        let (src, dst) = (self.flows[f.idx()].src, self.flows[f.idx()].dst);
        let wifi = match self.next_hop(src, dst) {
            Some(Hop::Wifi(_)) => true,
            Some(Hop::Wired(..)) => false,
            None => self.mesh.is_some() && self.is_mesh_route(src, dst),
        };
        let shift = if wifi { self.tcp(f).wifi_pacing_shift } else { 10 };
        let snd = &mut self.tcp(f).snd;
        snd.p.pacing_shift = shift;
        snd.s.pacing_shift = shift;
        let t = self.tcp(f);
        let mut out = std::mem::take(&mut t.out);
        let cmd = t.snd.start(now, &mut out);
        self.tcp(f).out = out;
        self.tcp_rto_cmd(f, cmd);
        self.tcp_emit(f, true, now);
    }

    fn tcp_rto_cmd(&mut self, f: FlowId, cmd: TimerCmd) {
        let t = self.tcps[f.idx()].as_mut().expect("a TCP flow");
        match cmd {
            TimerCmd::Keep => {}
            TimerCmd::Stop => t.rto.cancel(),
            TimerCmd::Arm(at) => {
                // With the jiffy clock (tcp.clock_hz), on the tick Linux's timer wheel runs it.
                let at = t.snd.p.rto.timer_at(at, self.sched.now());
                t.rto.schedule(at, &mut self.sched, |gen| Event::TcpRto { flow: f, gen })
            }
        }
    }

    fn tcp_delack_cmd(&mut self, f: FlowId, cmd: TimerCmd) {
        let t = self.tcps[f.idx()].as_mut().expect("a TCP flow");
        match cmd {
            TimerCmd::Keep => {}
            TimerCmd::Stop => t.delack.cancel(),
            TimerCmd::Arm(at) => {
                t.delack.schedule(at, &mut self.sched, |gen| Event::TcpDelack { flow: f, gen })
            }
        }
    }

    /// Turn the connection's pending segments into packets: from the sender's node when
    /// `from_sender`, else from the receiver's.
    fn tcp_emit(&mut self, f: FlowId, from_sender: bool, now: SimTime) {
        let flow = &self.flows[f.idx()];
        let (src, dst, ac) =
            if from_sender { (flow.src, flow.dst, flow.ac) } else { (flow.dst, flow.src, flow.ac) };
        let p = &self.tcp(f).snd.p;
        let (ts, sack, tsq) = (p.timestamps, p.recovery == Recovery::Sack, p.small_queues && from_sender);
        let keep_refused = from_sender && p.rules.local_congestion == LocalCongestion::Cwr;
        let mut out = std::mem::take(&mut self.tcp(f).out);
        let mut refused_at = None;
        for (i, seg) in out.iter().enumerate() {
            let refused = keep_refused && self.local_refuses(src, dst, usize::from(ac));
            let ev = match (from_sender, seg.retransmit) {
                _ if refused => "local_drop",
                (true, true) => "retransmit",
                (true, false) => "sent",
                (false, _) => "ack_sent",
            };
            self.traces.tcp_segment(now, f.0, seg, ev);
            let p = Packet::new(f, 0, src, dst, seg.ip_bytes(ts, sack), seg.len, now, ac);
            // As Sender::emit counted it; a refused segment is taken back whole below.
            let tsq = tsq && !refused && seg.holds_send_memory();
            // A refused segment still meets its queue, which drops and counts it as before.
            self.send_new(src, Packet { tcp: Some(*seg), tsq, ..p }, now);
            if refused {
                refused_at = Some(i);
                break;
            }
        }
        if let Some(i) = refused_at {
            let cmd = self.tcp(f).snd.on_local_drop(&out[i..], now);
            self.tcp_rto_cmd(f, cmd);
        }
        out.clear();
        self.tcp(f).out = out;
        if from_sender {
            if let Some(at) = self.tcp(f).snd.take_pacing_timer() {
                self.sched.at(at, Event::TcpPace { flow: f }); // tcp_pacing_check's hrtimer
            }
        }
    }

    /// Whether `node`'s own interface would refuse a packet to `dst` on `ac` now: the queue it
    /// meets first is a full qdisc, a full MAC queue without one, or a full wired queue
    /// (`dev_queue_xmit`'s NET_XMIT_DROP). mac80211's intermediate queues never refuse (they
    /// drop from their longest flow, and `ieee80211_tx` tells the socket nothing), nor do
    /// frames that wait for a mesh path.
    fn local_refuses(&self, node: NodeId, dst: NodeId, ac: usize) -> bool {
        if let Some(m) = self.mesh.as_ref().filter(|_| self.is_mesh_route(node, dst)) {
            let path = &m.points[node.idx()].as_ref().expect("a mesh point").paths[dst.idx()];
            return match (path.active_at(self.sched.now()), path.next_hop) {
                (true, Some(_)) => self.wifi_refuses(node, ac),
                _ => false,
            };
        }
        match self.next_hop(node, dst) {
            Some(Hop::Wired(link, dir)) => {
                let l = &self.links[link.idx()];
                l.dirs[dir as usize].full(l.queue_limit)
            }
            Some(Hop::Wifi(_)) => self.wifi_refuses(node, ac),
            None => false,
        }
    }

    fn wifi_refuses(&self, node: NodeId, ac: usize) -> bool {
        self.ifaces.refuses(node, ac, || !self.wifi.has_room(node, ac))
    }

    /// The packet `id` left its TCP sender's node (acknowledged or given up by the MAC, or
    /// sent by a wired NIC): its socket is no longer charged for it (`tcp_wfree`).
    #[inline(always)]
    pub(crate) fn tsq_done(&mut self, id: PacketId) {
        let p = self.packets.get_mut(id);
        if p.tsq {
            p.tsq = false;
            let flow = p.flow;
            self.tsq_freed(flow);
        }
    }

    /// One of `f`'s sender packets was freed below TCP; a throttled sender is woken by an
    /// event at the same instant (Linux's TSQ tasklet), never from inside the MAC's handlers.
    #[cold]
    pub(crate) fn tsq_freed(&mut self, f: FlowId) {
        let now = self.sched.now();
        if self.tcp(f).snd.tsq_release() {
            self.sched.at(now, Event::TcpTsq { flow: f });
        }
    }

    /// An agent set `f`'s cwnd to `segments` (`cc = "agent"`): the sender sends what the
    /// window allows now, as after TSQ's wake-up.
    pub(crate) fn agent_cwnd(&mut self, f: FlowId, segments: u32, now: SimTime) {
        self.tcp_account(f, now);
        let s = &mut self.tcp(f).snd.s;
        s.cwnd = segments.min(s.cwnd_clamp);
        s.cwnd_cnt = 0;
        self.on_tcp_tsq(f, now);
    }

    pub(crate) fn on_tcp_tsq(&mut self, f: FlowId, now: SimTime) {
        self.tcp_account(f, now);
        let t = self.tcp(f);
        let mut out = std::mem::take(&mut t.out);
        let cmd = t.snd.on_tsq_wake(now, &mut out);
        self.tcp(f).out = out;
        self.tcp_rto_cmd(f, cmd);
        self.tcp_emit(f, true, now);
        self.tcp_trace_state(f, now);
    }

    /// A paced sender's departure time came (`tcp_pace_kick`, which runs the TSQ handler).
    pub(crate) fn on_tcp_pace(&mut self, f: FlowId, now: SimTime) {
        self.tcp(f).snd.pacing_timer_fired();
        self.on_tcp_tsq(f, now);
    }

    /// A TCP segment reached `node`, one end of its connection.
    pub(crate) fn tcp_deliver(&mut self, id: PacketId, node: NodeId, now: SimTime) {
        let p = *self.packets.get(id);
        self.packets.free(id);
        let Some(seg) = p.tcp else { return };
        let f = p.flow;
        if node == self.flows[f.idx()].dst {
            self.traces.tcp_segment(now, f.0, &seg, "received");
            let t = self.tcp(f);
            let mut out = std::mem::take(&mut t.out);
            let (cmd, bytes) = t.rcv.on_segment(&seg, now, &mut out);
            let done = t.rcv.fin_received() && t.completed.is_none();
            if done {
                t.completed = Some(now);
            }
            t.out = out;
            if bytes > 0 {
                self.count_goodput(f, bytes, now);
                self.flows[f.idx()].delivered += 1;
            }
            self.tcp_delack_cmd(f, cmd);
            self.tcp_emit(f, false, now);
        } else {
            self.tcp_account(f, now);
            let stop = self.flows[f.idx()].stop;
            let t = self.tcp(f);
            t.snd.app_closed = stop.is_some_and(|s| now >= s);
            let (samples, una) = (t.snd.stats.rtt_samples, t.snd.snd_una);
            let mut out = std::mem::take(&mut t.out);
            let cmd = t.snd.on_ack(&seg, now, &mut out);
            t.out = out;
            if t.snd.stats.rtt_samples > samples {
                if let Some(r) = t.snd.last_rtt {
                    t.rtt.record(r.ns());
                }
            }
            let ev = if t.snd.snd_una > una { "acked" } else { "dupack" };
            self.traces.tcp_segment(now, f.0, &seg, ev);
            self.tcp_rto_cmd(f, cmd);
            self.tcp_trace_state(f, now);
            self.tcp_emit(f, true, now);
        }
    }

    /// A corrupt data frame handed up at `node` (the pass-corrupt receive policy, paper 004
    /// II): TCP takes it only if it is a segment for this node's receiver that carries the CDO
    /// and whose headers held (the CRC32c checks: `hit` is the payload); the receiver then
    /// answers with a CNO. Everything else is dropped, as a stack without the option would
    /// (IP or TCP checksum).
    pub(crate) fn deliver_corrupt(&mut self, node: NodeId, p: Packet, hit: crate::mac::Hit, now: SimTime) {
        let Some(seg) = p.tcp else { return };
        let f = p.flow;
        let cdo_checks = hit == crate::mac::Hit::Payload && seg.opts & crate::tcp::conn::OPT_CDO != 0;
        if p.dst != node || node != self.flows[f.idx()].dst || !cdo_checks {
            return;
        }
        self.traces.tcp_segment(now, f.0, &seg, "corrupt_received");
        let t = self.tcp(f);
        let mut out = std::mem::take(&mut t.out);
        let cno = t.rcv.on_corrupt(&seg, now, &mut out);
        t.out = out;
        if cno {
            self.tcp_delack_cmd(f, TimerCmd::Stop); // the CNO acknowledged what was pending
        }
        self.tcp_emit(f, false, now);
    }

    pub(crate) fn on_tcp_rto(&mut self, f: FlowId, gen: u32, now: SimTime) {
        if !self.tcp(f).rto.fire(gen) {
            return;
        }
        self.tcp_account(f, now);
        let t = self.tcp(f);
        let mut out = std::mem::take(&mut t.out);
        let cmd = t.snd.on_rto(now, &mut out);
        t.out = out;
        self.traces.tcp_segment(now, f.0, &Segment::default(), "timeout");
        self.tcp_rto_cmd(f, cmd);
        self.tcp_trace_state(f, now);
        self.tcp_emit(f, true, now);
    }

    pub(crate) fn on_tcp_delack(&mut self, f: FlowId, gen: u32, now: SimTime) {
        if !self.tcp(f).delack.fire(gen) {
            return;
        }
        let t = self.tcp(f);
        let mut out = std::mem::take(&mut t.out);
        t.rcv.on_delack(now, &mut out);
        t.out = out;
        self.tcp_emit(f, false, now);
    }

    fn tcp_trace_state(&mut self, f: FlowId, now: SimTime) {
        if !self.traces.wants_tcp() {
            return;
        }
        let t = self.tcps[f.idx()].as_ref().expect("a TCP flow");
        let s = &t.snd;
        let row = crate::trace::TcpStateRow {
            time_ns: now.ns(),
            flow: f.0,
            cwnd: s.s.cwnd,
            ssthresh: s.s.ssthresh.min(u32::MAX / 2),
            srtt_ns: s.rto.srtt().map_or(0, |d| d.ns()),
            rto_ns: s.rto.rto().ns(),
            in_flight_bytes: s.snd_nxt.saturating_sub(s.snd_una),
            ca_state: s.ca.name(),
            pacing_rate_bps: s.s.pacing_rate.saturating_mul(8),
        };
        self.traces.tcp_state(row);
    }

    /// Close the cwnd integral at the end of the run.
    pub(crate) fn tcp_finish(&mut self, end: SimTime) {
        for i in 0..self.tcps.len() {
            if self.tcps[i].is_some() {
                self.tcp_account(FlowId(i as u32), end);
            }
        }
    }
}
