//! Congestion control: one trait shaped like Linux's `struct tcp_congestion_ops`
//! (include/net/tcp.h) and one enum naming the algorithms.
//!
//! Units follow Linux: `cwnd` and `ssthresh` count segments (MSS-sized packets), with
//! `cwnd_cnt` carrying the fractional increase of congestion avoidance. `ssthresh()` returns the
//! new slow-start threshold; the connection applies it (Linux `icsk_ca_ops->ssthresh`).

mod agent;
mod bic;
mod cubic;
mod illinois;
mod reno;
mod vegas;
mod veno;
mod westwood;

pub use agent::Agent;
pub use bic::Bic;
pub use cubic::Cubic;
pub use illinois::Illinois;
pub use reno::Reno;
pub use vegas::Vegas;
pub use veno::Veno;
pub use westwood::Westwood;

use crate::time::{Dur, SimTime};

/// The congestion state the connection shares with its algorithm (Linux `struct tcp_sock`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcState {
    /// Congestion window [segments].
    pub cwnd: u32,
    /// Fractional congestion-avoidance increase (Linux `snd_cwnd_cnt`).
    pub cwnd_cnt: u32,
    /// Slow-start threshold [segments].
    pub ssthresh: u32,
    /// Cap on cwnd [segments] (Linux `snd_cwnd_clamp`; also the cross-layer cwnd cap).
    pub cwnd_clamp: u32,
    /// Maximum segment size [bytes].
    pub mss: u32,
    /// Segments in flight when the event happened (Linux `tcp_packets_in_flight`).
    pub in_flight: u32,
    /// Smoothed RTT (zero before the first sample).
    pub srtt: Dur,
    /// Lowest RTT seen on the connection (zero before the first sample).
    pub min_rtt: Dur,
    /// Oldest unacknowledged and next sequence number [bytes] (Linux `snd_una`, `snd_nxt`).
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// Current time.
    pub now: SimTime,
}

impl CcState {
    pub fn new(mss: u32, initial_cwnd: u32, cwnd_clamp: u32) -> CcState {
        CcState {
            cwnd: initial_cwnd,
            cwnd_cnt: 0,
            ssthresh: u32::MAX / 2, // Linux TCP_INFINITE_SSTHRESH
            cwnd_clamp,
            mss,
            in_flight: 0,
            srtt: Dur::ZERO,
            min_rtt: Dur::ZERO,
            snd_una: 0,
            snd_nxt: 0,
            now: SimTime::ZERO,
        }
    }

    /// Linux `tcp_in_slow_start`.
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Linux `tcp_slow_start`: grow cwnd by `acked` up to ssthresh; return what is left over.
    pub fn slow_start(&mut self, acked: u32) -> u32 {
        let cwnd = (self.cwnd + acked).min(self.ssthresh);
        let left = acked - (cwnd - self.cwnd).min(acked);
        self.cwnd = cwnd.min(self.cwnd_clamp);
        left
    }

    /// Linux `tcp_cong_avoid_ai`: one segment more per `w` segments acknowledged.
    pub fn cong_avoid_ai(&mut self, w: u32, acked: u32) {
        let w = w.max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            self.cwnd += 1;
        }
        self.cwnd_cnt += acked;
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            self.cwnd += delta;
        }
        self.cwnd = self.cwnd.min(self.cwnd_clamp);
    }
}

/// Congestion-avoidance states (Linux `enum tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    Open,
    Disorder,
    Cwr,
    Recovery,
    Loss,
}

impl CaState {
    pub fn name(self) -> &'static str {
        match self {
            CaState::Open => "open",
            CaState::Disorder => "disorder",
            CaState::Cwr => "cwr",
            CaState::Recovery => "recovery",
            CaState::Loss => "loss",
        }
    }
}

/// Events reported to `cwnd_event` (Linux `enum tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndEvent {
    /// First transmission when no packet is in flight.
    TxStart,
    /// Congestion window restart after idle.
    CwndRestart,
    /// End of congestion recovery.
    CompleteCwr,
    /// Retransmission timeout.
    Loss,
}

/// The hooks of `tcp_congestion_ops`. Every hook but `ssthresh` and `cong_avoid` defaults to
/// nothing, as in Linux.
pub trait CongestionOps {
    /// Called once when the connection is established (Linux `init`).
    fn init(&mut self, _s: &mut CcState) {}
    /// The new slow-start threshold after a loss (Linux `ssthresh`), in segments.
    fn ssthresh(&mut self, s: &CcState) -> u32;
    /// Grow cwnd on an ACK that acknowledges `acked` new segments (Linux `cong_avoid`).
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32);
    /// Every ACK of new data, with the RTT sample it produced (Linux `pkts_acked`).
    fn pkts_acked(&mut self, _s: &mut CcState, _acked: u32, _rtt: Option<Dur>) {}
    /// Every incoming ACK (Linux `in_ack_event`): `acked_bytes` newly acknowledged (0 for a
    /// duplicate ACK).
    fn in_ack_event(&mut self, _s: &mut CcState, _acked_bytes: u32) {}
    /// The connection changes CA state (Linux `set_state`).
    fn set_state(&mut self, _s: &mut CcState, _new: CaState) {}
    /// A cwnd event (Linux `cwnd_event`).
    fn cwnd_event(&mut self, _s: &mut CcState, _ev: CwndEvent) {}
    /// cwnd to restore when a reduction proves spurious (Linux `undo_cwnd`); default: keep.
    fn undo_cwnd(&mut self, s: &CcState) -> u32 {
        s.cwnd
    }
}

/// The algorithms airtcp implements, by their Linux names.
#[derive(Clone, Debug)]
pub enum Algorithm {
    Reno(Reno),
    Cubic(Cubic),
    Bic(Bic),
    Vegas(Vegas),
    Veno(Veno),
    Westwood(Westwood),
    Illinois(Illinois),
    /// cwnd set from outside (`airtcp.gym`).
    Agent(Agent),
}

crate::names::names! {
    /// A congestion control as configurations name it, by its Linux name ("newreno" is Linux's
    /// "reno": loss recovery is chosen separately, see `Recovery`).
    pub enum Cc {
        Reno = "reno",
        NewReno = "newreno",
        Cubic = "cubic",
        Bic = "bic",
        Vegas = "vegas",
        Veno = "veno",
        Westwood = "westwood",
        Illinois = "illinois",
        Agent = "agent",
    }
}

/// Names accepted in configurations; Python reads this table (`airtcp._core.tables()`).
pub const NAMES: &[&str] = Cc::NAMES;

impl Algorithm {
    /// The algorithm `cc`, in its initial state.
    pub fn new(cc: Cc) -> Algorithm {
        match cc {
            Cc::Reno | Cc::NewReno => Algorithm::Reno(Reno),
            Cc::Cubic => Algorithm::Cubic(Cubic::new()),
            Cc::Bic => Algorithm::Bic(Bic::new()),
            Cc::Vegas => Algorithm::Vegas(Vegas::new()),
            Cc::Veno => Algorithm::Veno(Veno::new()),
            Cc::Westwood => Algorithm::Westwood(Westwood::new()),
            Cc::Illinois => Algorithm::Illinois(Illinois::new()),
            Cc::Agent => Algorithm::Agent(Agent),
        }
    }

    /// Look an algorithm up by its Linux name.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Cc::from_name(name).map(Algorithm::new)
    }

    fn ops(&mut self) -> &mut dyn CongestionOps {
        match self {
            Algorithm::Reno(a) => a,
            Algorithm::Cubic(a) => a,
            Algorithm::Bic(a) => a,
            Algorithm::Vegas(a) => a,
            Algorithm::Veno(a) => a,
            Algorithm::Westwood(a) => a,
            Algorithm::Illinois(a) => a,
            Algorithm::Agent(a) => a,
        }
    }
}

impl CongestionOps for Algorithm {
    fn init(&mut self, s: &mut CcState) {
        self.ops().init(s)
    }
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        self.ops().ssthresh(s)
    }
    fn cong_avoid(&mut self, s: &mut CcState, acked: u32) {
        self.ops().cong_avoid(s, acked)
    }
    fn pkts_acked(&mut self, s: &mut CcState, acked: u32, rtt: Option<Dur>) {
        self.ops().pkts_acked(s, acked, rtt)
    }
    fn in_ack_event(&mut self, s: &mut CcState, acked_bytes: u32) {
        self.ops().in_ack_event(s, acked_bytes)
    }
    fn set_state(&mut self, s: &mut CcState, new: CaState) {
        self.ops().set_state(s, new)
    }
    fn cwnd_event(&mut self, s: &mut CcState, ev: CwndEvent) {
        self.ops().cwnd_event(s, ev)
    }
    fn undo_cwnd(&mut self, s: &CcState) -> u32 {
        self.ops().undo_cwnd(s)
    }
}
