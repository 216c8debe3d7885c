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
        let t = match self.tcps.get(flow.idx()) {
            Some(Some(t)) => t,
            _ => return Err(format!("flow {}: not a TCP flow", flow.0)),
        };
        if !matches!(t.snd.cc, crate::tcp::cc::Algorithm::Agent(_)) {
            return Err(format!("flow {}: its cc is not \"agent\"", flow.0));
        }
        if segments == 0 {
            return Err("cwnd: 0 (allowed: 1 segment or more)".into());
        }
        self.agent_cwnd(flow, segments, now);
        Ok(())
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
