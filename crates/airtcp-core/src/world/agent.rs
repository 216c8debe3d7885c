//! What a learning agent (`airtcp.gym`) does to a world: advance it to the next decision time,
//! read what it observes, apply its action. The world runs exactly the events a whole run
//! would (`World::run` is `advance` to the end, then `finish`), so a stepped episode with no
//! action is the run, bit for bit.

use super::World;
use crate::ids::{FlowId, NodeId};
use crate::mac::rate::RateAlgo;
use crate::phy::ModeId;
use crate::time::SimTime;

/// A TCP sender as an agent sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TcpView {
    /// Congestion window and slow-start threshold [segments].
    pub cwnd: u32,
    pub ssthresh: u32,
    pub mss_bytes: u32,
    /// Smoothed, lowest and last RTT [ns] (0 before the first sample).
    pub srtt_ns: u64,
    pub min_rtt_ns: u64,
    pub last_rtt_ns: u64,
    /// Bytes sent and not yet acknowledged, and bytes acknowledged so far.
    pub in_flight_bytes: u64,
    pub acked_bytes: u64,
    /// Counters since the start of the run.
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
}

/// One directed link's data-frame counters since the start of the run (`mac::station::LinkStats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkView {
    /// Data PPDUs sent, and the MPDU transmissions in them (retransmissions included).
    pub attempts: u64,
    pub mpdus_sent: u64,
    /// MPDUs acknowledged, and given up at the retry limit.
    pub acked: u64,
    pub given_up: u64,
    /// The mode of the last attempt of the last frame to reach its final status [bit/s].
    pub last_rate_bps: u64,
}

impl World {
    /// Run every event up to `until` (at most the end of the run). True once the run's end is
    /// reached; then [`World::finish`] closes it.
    pub fn advance(&mut self, until: SimTime) -> bool {
        let horizon = until.min(self.period.end);
        self.run_events(horizon);
        self.sched.advance_to(horizon); // the agent acts at `until`
        horizon >= self.period.end
    }

    /// The modes an agent may set for `node`'s peers (`rate_control = "agent"`), lowest first;
    /// `None` if the node's rate control is another one.
    pub fn agent_modes(&self, node: NodeId) -> Option<&'static [ModeId]> {
        match self.wifi.rate_algo(node)? {
            RateAlgo::Agent(a) => Some(a.ladder),
            _ => None,
        }
    }

    /// Send `node`'s data frames to `peer` at mode `index` of [`World::agent_modes`] from now on.
    pub fn agent_set_mode(&mut self, node: NodeId, peer: NodeId, index: usize) -> Result<(), String> {
        let n = self.nodes.len();
        if node.idx() >= n || peer.idx() >= n || node == peer {
            return Err(format!("node/peer: {}/{} (allowed: two different nodes 0..{n})", node.0, peer.0));
        }
        let ladder = self
            .agent_modes(node)
            .ok_or_else(|| format!("node {}: its rate control is not \"agent\"", node.0))?;
        let mode = *ladder
            .get(index)
            .ok_or_else(|| format!("mode index: {index} (allowed: 0..{})", ladder.len() - 1))?;
        self.wifi.set_agent_mode(node, peer, mode);
        Ok(())
    }

    /// `node`'s data-frame counters toward `peer`.
    pub fn link_view(&self, node: NodeId, peer: NodeId) -> Option<LinkView> {
        if node.idx() >= self.wifi.len() || peer.idx() >= self.nodes.len() {
            return None;
        }
        let l = self.wifi.link(node, peer);
        Some(LinkView {
            attempts: l.attempts,
            mpdus_sent: l.mpdus_sent,
            acked: l.acked,
            given_up: l.given_up,
            last_rate_bps: l.last_tx_mode.map_or(0, |m| u64::from(m.rate_kbps()) * 1000),
        })
    }

    /// Radio model, with some node's rate control "agent": the SNR [dB] of the last frame
    /// `node` received from `peer` addressed to it (the fade included); `None` before any.
    pub fn peer_snr_db(&self, node: NodeId, peer: NodeId) -> Option<f64> {
        self.xlayer.peer_snr.as_ref()?.get(&(node.0, peer.0)).map(|&db| f64::from(db))
    }

    /// The TCP sender of `flow`, if it is a TCP flow.
    pub fn tcp_view(&self, flow: FlowId) -> Option<TcpView> {
        let t = self.tcps.get(flow.idx())?.as_ref()?;
        let s = &t.snd;
        let stats = s.stats;
        Some(TcpView {
            cwnd: s.s.cwnd,
            ssthresh: s.s.ssthresh.min(u32::MAX / 2),
            mss_bytes: s.s.mss,
            srtt_ns: s.rto.srtt().map_or(0, |d| d.ns()),
            min_rtt_ns: s.s.min_rtt.ns(),
            last_rtt_ns: s.last_rtt.map_or(0, |d| d.ns()),
            in_flight_bytes: s.snd_nxt.saturating_sub(s.snd_una),
            acked_bytes: s.snd_una,
            retransmissions: stats.retransmissions,
            timeouts: stats.timeouts,
            fast_retransmits: stats.fast_retransmits,
        })
    }

    /// Set `flow`'s congestion window to `segments` (`cc = "agent"`) and send what it allows.
    pub fn agent_set_cwnd(&mut self, flow: FlowId, segments: u32) -> Result<(), String> {
        let now = self.sched.now();
        self.agent_flow(flow)?;
        if segments == 0 {
            return Err("cwnd: 0 (allowed: 1 segment or more)".into());
        }
        self.agent_cwnd(flow, segments, now);
        Ok(())
    }

    /// `flow` is a TCP flow whose cc is "agent" (one an agent may drive), else why not.
    pub fn agent_flow(&self, flow: FlowId) -> Result<(), String> {
        match self.tcps.get(flow.idx()) {
            Some(Some(t)) if matches!(t.snd.cc, crate::tcp::cc::Algorithm::Agent(_)) => Ok(()),
            Some(Some(_)) => Err(format!("flow {}: its cc is not \"agent\"", flow.0)),
            _ => Err(format!("flow {}: not a TCP flow", flow.0)),
        }
    }

    /// Bytes every flow's destination application received, summed (an agent's goodput).
    pub fn delivered_bytes_all(&self) -> u64 {
        self.flows.iter().map(|f| f.delivered_bytes).sum()
    }

    /// Bytes the application at `flow`'s destination received (since the warm-up's end).
    pub fn flow_delivered_bytes(&self, flow: FlowId) -> Option<u64> {
        self.flows.get(flow.idx()).map(|f| f.delivered_bytes)
    }

    /// The current time of the world.
    pub fn now(&self) -> SimTime {
        self.sched.now()
    }
}

/// The congestion environment's agent (`airtcp.gym.CongestionControlEnv`, docs/gym.md): each
/// step scales flow `flow`'s window by one of [`CWND_FACTORS`], advances the world by
/// `step_ns` and reads the observation, all in the core, so an agent's step is one call.
#[derive(Clone, Debug)]
pub struct CwndAgent {
    flow: FlowId,
    step_ns: u64,
    delay_weight: f64,
    /// The end of the last step, and what the last observation read.
    t_ns: u64,
    delivered_bytes: u64,
    retransmissions: u64,
    timeouts: u64,
    cwnd: u32,
}

/// The congestion environment's actions: cwnd is multiplied by one of these [segments].
pub const CWND_FACTORS: [f64; 5] = [0.5, 0.8, 1.0, 1.25, 2.0];
/// The largest window the congestion environment sets or observes [segments].
pub const CWND_MAX: u32 = 2000;
/// Values in the congestion environment's observation.
pub const CWND_OBS: usize = 6;

/// What one step (or the reset) of a [`CwndAgent`] observed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CwndStep {
    /// `[cwnd / 100, smoothed RTT ms / 100, lowest RTT ms / 100, goodput / 50 Mbit/s,
    /// retransmissions in the step, timeouts in the step]`, each capped (docs/gym.md).
    pub obs: [f32; CWND_OBS],
    /// Goodput [Mbit/s] - delay_weight x queueing delay (smoothed - lowest RTT) [ms].
    pub reward: f64,
    /// The episode's end was reached.
    pub ended: bool,
    pub cwnd: u32,
    pub srtt_ms: f64,
    /// Every flow's delivered bytes in the step, as Mbit/s.
    pub goodput_mbps: f64,
}

impl CwndAgent {
    /// An agent driving `flow` (a TCP flow whose cc is "agent") every `step_ns`; the world is at
    /// its start.
    pub fn new(world: &World, flow: FlowId, step_ns: u64, delay_weight: f64) -> Result<Self, String> {
        world.agent_flow(flow)?;
        if step_ns == 0 {
            return Err("step_ns: 0 (allowed: 1 ns or more)".into());
        }
        if !(delay_weight.is_finite() && delay_weight >= 0.0) {
            return Err(format!("delay_weight: {delay_weight} (allowed: a finite number >= 0)"));
        }
        let t_ns = world.now().ns();
        Ok(CwndAgent {
            flow,
            step_ns,
            delay_weight,
            t_ns,
            delivered_bytes: 0,
            retransmissions: 0,
            timeouts: 0,
            cwnd: 0,
        })
    }

    /// The reset's observation (goodput 0; the counters since the run's start).
    pub fn observe(&mut self, world: &World) -> CwndStep {
        self.read(world, 0.0, false)
    }

    /// Whether another step may run: the episode has not reached its end.
    pub fn can_step(&self, world: &World) -> Result<(), String> {
        if self.t_ns >= world.period.end.ns() {
            return Err("step: the episode ended (allowed: a step before its end)".into());
        }
        Ok(())
    }

    /// Apply action `action` (an index into [`CWND_FACTORS`]) to the window the last
    /// observation read, advance one step and observe.
    pub fn step(&mut self, world: &mut World, action: usize) -> Result<CwndStep, String> {
        let Some(&factor) = CWND_FACTORS.get(action) else {
            return Err(format!("action: {action} (allowed: 0 to {})", CWND_FACTORS.len() - 1));
        };
        self.can_step(world)?;
        // Python's round() (half to even), as the environment first did it in Python.
        let scaled = (f64::from(self.cwnd) * factor).round_ties_even();
        let mut new = (scaled.max(1.0) as u32).min(CWND_MAX);
        if new == self.cwnd && factor != 1.0 {
            // A factor that rounds back to the same window moves it by one segment.
            let moved = if factor > 1.0 { self.cwnd + 1 } else { self.cwnd.saturating_sub(1) };
            new = moved.clamp(1, CWND_MAX);
        }
        world.agent_set_cwnd(self.flow, new)?;
        self.t_ns += self.step_ns;
        let ended = world.advance(SimTime(self.t_ns));
        let delivered = world.delivered_bytes_all();
        // Signed: a counter reset at the warm-up's end gives a negative step, as it did in Python.
        let bytes = delivered as i64 - self.delivered_bytes as i64;
        self.delivered_bytes = delivered;
        let mbps = (bytes * 8) as f64 / (self.step_ns as f64 / 1e9) / 1e6;
        Ok(self.read(world, mbps, ended))
    }

    fn read(&mut self, world: &World, mbps: f64, ended: bool) -> CwndStep {
        let v = world.tcp_view(self.flow).expect("checked at construction");
        self.cwnd = v.cwnd;
        let srtt_ms = v.srtt_ns as f64 / 1e6;
        let min_ms = v.min_rtt_ns as f64 / 1e6;
        let d_rtx = v.retransmissions as i64 - self.retransmissions as i64;
        let d_to = v.timeouts as i64 - self.timeouts as i64;
        (self.retransmissions, self.timeouts) = (v.retransmissions, v.timeouts);
        let obs = [
            f64::from(v.cwnd.min(CWND_MAX)) / 100.0,
            (srtt_ms / 100.0).min(100.0),
            (min_ms / 100.0).min(100.0),
            (mbps / 50.0).min(100.0),
            (d_rtx as f64).min(1e4),
            (d_to as f64).min(1e3),
        ]
        .map(|x| x as f32);
        let queueing_ms = (srtt_ms - min_ms).max(0.0);
        CwndStep {
            obs,
            reward: mbps - self.delay_weight * queueing_ms,
            ended,
            cwnd: v.cwnd,
            srtt_ms,
            goodput_mbps: mbps,
        }
    }
}
