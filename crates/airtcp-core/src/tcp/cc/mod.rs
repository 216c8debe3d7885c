//! Congestion control: one trait shaped like Linux's `struct tcp_congestion_ops`
//! (include/net/tcp.h) and one enum naming the algorithms.
//!
//! Units follow Linux: `cwnd` and `ssthresh` count segments (MSS-sized packets), with
//! `cwnd_cnt` carrying the fractional increase of congestion avoidance. `ssthresh()` returns the
//! new slow-start threshold; the connection applies it (Linux `icsk_ca_ops->ssthresh`).

mod agent;
mod bbr;
mod bic;
mod cubic;
mod illinois;
mod reno;
mod vegas;
mod veno;
mod westwood;

pub use agent::Agent;
pub use bbr::{Bbr, Mode as BbrMode};
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
    /// Whether the flight uses the window, by the connection's rule (`tcp.cwnd_limited`).
    pub usage: CwndUse,
    /// The connection's congestion state (Linux `icsk_ca_state`).
    pub ca: CaState,
    /// Pacing rate [bytes/s] an algorithm that paces set (Linux `sk_pacing_rate` under
    /// `SK_PACING_NEEDED`, only BBR here); 0: the connection is not paced.
    pub pacing_rate: u64,
    /// `sk_pacing_shift`: about 1 ms of data is `pacing_rate >> pacing_shift` (10; 7 on a
    /// mac80211 interface).
    pub pacing_shift: u8,
    /// When the next segment may leave under pacing [ns] (Linux `tcp_wstamp_ns`).
    pub wstamp_ns: u64,
    /// The delivery-rate sampler's counters (`tcp_rate.c`, read by BBR): segments delivered
    /// (`tp->delivered`), when the last were [us] (`delivered_mstamp`), segments marked lost
    /// (`tp->lost`), and the app-limited bubble's end (`tp->app_limited`, 0: none).
    pub delivered: u64,
    pub delivered_mstamp_us: u64,
    pub lost: u64,
    pub app_limited: u64,
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
            usage: CwndUse::default(),
            ca: CaState::Open,
            pacing_rate: 0,
            pacing_shift: 10,
            wstamp_ns: 0,
            delivered: 0,
            delivered_mstamp_us: 0,
            lost: 0,
            app_limited: 0,
        }
    }

    /// Linux `tcp_is_cwnd_limited`: may an ACK grow cwnd? Each algorithm asks where its Linux
    /// `cong_avoid` does (directly, or through `tcp_reno_cong_avoid`).
    pub fn is_cwnd_limited(&self) -> bool {
        let u = &self.usage;
        match u.rule {
            CwndLimited::Always => true,
            // Linux 3.2 and 3.12 tcp_cong.c `tcp_is_cwnd_limited(sk, in_flight)`, with the flight
            // before the ACK (`prior_in_flight` in `tcp_ack`). Its GSO clause is left out: airtcp
            // has no GSO/TSO, so `sk_can_gso` is false.
            CwndLimited::Linux3 => {
                u.prior_in_flight >= self.cwnd || self.cwnd - u.prior_in_flight <= MAX_BURST_SEGMENTS
            }
            // Linux 3.16-5.x include/net/tcp.h `tcp_is_cwnd_limited(sk)` (commit ca8a22634381, as
            // in 4.9): in slow start, grow to twice the largest flight of the window; after, only
            // if that window was cwnd-limited (`CwndUse::validate`).
            CwndLimited::Linux4 => {
                if self.in_slow_start() {
                    u64::from(self.cwnd) < 2 * u64::from(u.max_packets_out)
                } else {
                    u.is_cwnd_limited
                }
            }
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

crate::names::names! {
    /// When an ACK may grow cwnd (Linux `tcp_is_cwnd_limited`, RFC 2861's spirit: a window the
    /// sender does not fill is not validated).
    #[derive(Default)]
    pub enum CwndLimited {
        /// On every ACK, whether or not the flight fills cwnd (RFC 5681 as written).
        #[default]
        Always = "always",
        /// Linux 3.x: only if the flight before the ACK fills cwnd to within 3 segments
        /// (`tcp_max_burst`, the default reordering degree, in 3.2; `tcp_max_tso_deferred_mss` in
        /// 3.12).
        Linux3 = "linux-3",
        /// Linux 3.16+ (4.x, 5.x): in slow start while cwnd < 2 x the largest flight of the last
        /// window; after, only if that window's flight reached cwnd (`tcp_cwnd_validate`).
        Linux4 = "linux-4",
    }
}

/// Linux 3.2 `tcp_max_burst` = `tp->reordering`, at its default `sysctl_tcp_reordering` =
/// `TCP_FASTRETRANS_THRESH` (airtcp does not estimate reordering); 3.12's
/// `tcp_max_tso_deferred_mss` is the constant 3 [segments].
pub const MAX_BURST_SEGMENTS: u32 = 3;

/// What `tcp_is_cwnd_limited` reads (Linux `struct tcp_sock`'s fields of the same names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CwndUse {
    /// The connection's rule (`TcpParams::cwnd_limited`).
    pub rule: CwndLimited,
    /// Linux 3.x: segments in flight before the ACK being processed (`prior_in_flight`).
    pub prior_in_flight: u32,
    /// Linux 4.x: the largest flight [segments] of the current window (`max_packets_out`), the
    /// window's right edge (`max_packets_seq`), and whether the flight reached cwnd then
    /// (`is_cwnd_limited`).
    pub max_packets_out: u32,
    pub max_packets_seq: u64,
    pub is_cwnd_limited: bool,
}

impl CwndUse {
    /// Linux 4.9 tcp_output.c `tcp_cwnd_validate`'s bookkeeping, after a send of new data
    /// (`tcp_write_xmit`): `packets_out` segments between `snd_una` and `snd_nxt` (the highest
    /// sent), and whether the send filled cwnd. A new window starts once `snd_una` reaches the
    /// last one's right edge; inside one, a larger flight replaces the record.
    pub fn validate(&mut self, snd_una: u64, snd_nxt: u64, packets_out: u32, is_cwnd_limited: bool) {
        if snd_una >= self.max_packets_seq || packets_out > self.max_packets_out {
            self.max_packets_out = packets_out;
            self.max_packets_seq = snd_nxt;
            self.is_cwnd_limited = is_cwnd_limited;
        }
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
    /// BBR v1: sets cwnd and a pacing rate itself on every ACK (Linux `cong_control`).
    Bbr(Box<Bbr>),
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
        Bbr = "bbr",
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
            // The cycle's random phases come from the flow's own draws (`TcpFlow::new`).
            Cc::Bbr => {
                Algorithm::Bbr(Box::new(Bbr::new(crate::rng::Draws::new(crate::rng::TAG_BBR, 0, 0, 0))))
            }
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
            Algorithm::Bbr(a) => a.as_mut(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn state(rule: CwndLimited, cwnd: u32, ssthresh: u32) -> CcState {
        let mut s = CcState::new(1000, cwnd, 100_000);
        s.ssthresh = ssthresh;
        s.usage.rule = rule;
        s
    }

    #[test]
    fn always_grows_whatever_the_flight() {
        let mut s = state(CwndLimited::Always, 10, 5);
        s.usage.prior_in_flight = 0;
        assert!(s.is_cwnd_limited());
    }

    #[test]
    fn linux_3_allows_a_slack_of_three_segments_below_cwnd() {
        // tcp_is_cwnd_limited(sk, in_flight): in_flight >= cwnd, or cwnd - in_flight <= 3.
        let mut s = state(CwndLimited::Linux3, 10, 5);
        for (in_flight, limited) in [(12, true), (10, true), (8, true), (7, true), (6, false), (0, false)] {
            s.usage.prior_in_flight = in_flight;
            assert_eq!(s.is_cwnd_limited(), limited, "flight {in_flight} under cwnd 10");
        }
        // The same in slow start: 3.x has one rule for both.
        let mut s = state(CwndLimited::Linux3, 10, 1000);
        s.usage.prior_in_flight = 7;
        assert!(s.is_cwnd_limited());
        s.usage.prior_in_flight = 6;
        assert!(!s.is_cwnd_limited());
    }

    #[test]
    fn linux_4_slow_start_grows_to_twice_the_largest_flight() {
        // In slow start: cwnd < 2 * max_packets_out, whatever is_cwnd_limited says.
        let mut s = state(CwndLimited::Linux4, 11, 1000);
        s.usage.validate(1, 6001, 6, false);
        assert!(s.is_cwnd_limited(), "11 < 2 x 6");
        s.cwnd = 12;
        assert!(!s.is_cwnd_limited(), "12 = 2 x 6");
    }

    #[test]
    fn linux_4_congestion_avoidance_reads_the_window_record() {
        // After slow start, only tp->is_cwnd_limited as tcp_cwnd_validate left it.
        let mut s = state(CwndLimited::Linux4, 20, 10);
        s.usage.validate(1, 20_001, 20, true);
        assert!(s.is_cwnd_limited());
        // Inside the window (snd_una below 20001), a smaller flight that does not fill cwnd
        // leaves the record alone; a larger one replaces it.
        s.usage.validate(5_001, 21_001, 16, false);
        assert!(s.is_cwnd_limited());
        assert_eq!((s.usage.max_packets_out, s.usage.max_packets_seq), (20, 20_001));
        s.usage.validate(5_001, 26_001, 21, false);
        assert!(!s.is_cwnd_limited());
        assert_eq!((s.usage.max_packets_out, s.usage.max_packets_seq), (21, 26_001));
        // Once snd_una reaches the right edge, a new window starts from whatever is sent.
        s.usage.validate(26_001, 30_001, 4, true);
        assert!(s.is_cwnd_limited());
        assert_eq!((s.usage.max_packets_out, s.usage.max_packets_seq), (4, 30_001));
    }
}
