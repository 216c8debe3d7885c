//! Paper 003's ARF-aware window (Kashibuchi et al., section III): on every rate change of a
//! station, the bound wnd_max of each of its long-lived TCP connections, from the channel
//! time it observed in the last observation slot (Eq. 1-13). The same formulas are in
//! `airtcp.analytic` (`p003_wnd_max`); the unit tests here use the same hand computations.
//!
//! This module is the arithmetic, the rule of when to act, the meter that fills a [`Slot`]
//! from the frames a station sends and overhears, and the scheme ([`ArfWindow`]) that drives
//! TCP's control point on each rate change (the advertised window at a receiving station, the
//! cwnd cap at a sending one).

use super::{Action, ConnView, Controls, Hooks, MacEvent, View};
use crate::mac::frame::{Frame, FrameKind};
use crate::mac::WifiConfig;
use crate::phy::{ModeId, TxVector};
use crate::time::Dur;

crate::names::names! {
    /// Eq. 11's RTT in paper 003's window (`wifi.arf_window_rtt`).
    #[derive(Default)]
    pub enum ArfWindowRtt {
        /// The connection's smoothed RTT: the sender's SRTT (RFC 6298), the receiver's own
        /// estimate from timestamps (Linux `tcp_rcv_rtt_update`); the paper's RTT_ij.
        #[default]
        Smoothed = "smoothed",
        /// The least RTT sample the connection's end has measured (Linux `tcp_min_rtt`).
        Min = "min",
        /// The RTT every queue empty would give at the new rate: the wired hops' delays and
        /// serialization both ways plus Eq. 9's T_TCP at the new rate.
        Empty = "empty",
    }
}

/// What one station observed in one observation slot (paper 003 section III-B).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slot {
    /// T [s].
    pub slot_s: f64,
    /// t_beacon: the AP's beacons in T [s].
    pub beacon_s: f64,
    /// Sum of t_n over the N active stations, this one included [s].
    pub stations_s: f64,
    /// N: the active stations (at least this one).
    pub active: u32,
    /// S_i: bits of the station's frames' adaptive-modulation sections (the PSDUs at the data
    /// rate) in T.
    pub adapted_bits: f64,
    /// tau_ij: the connection's channel time in T [s].
    pub connection_s: f64,
    /// M_i: the station's long-lived connections.
    pub connections: u32,
    /// lambda_ij: the connection's mean TCP segment length [bytes].
    pub segment_bytes: f64,
    /// RTT_ij [s].
    pub rtt_s: f64,
}

/// The constants of Eq. 1, 9 and 10: the MAC's timing, the TCP/IP and MAC bytes around a
/// segment, and whether exchanges use RTS/CTS.
#[derive(Clone, Copy, Debug)]
pub struct ExchangeTime {
    pub sifs: Dur,
    pub slot: Dur,
    pub cw_min: u32,
    /// Bytes a data frame adds to a TCP segment's payload: TCP/IP headers and options,
    /// LLC/SNAP, MAC header, FCS.
    pub overhead_bytes: u32,
    pub rts_cts: bool,
    /// The RTS and CTS airtimes (at the control rate).
    pub rts: Dur,
    pub cts: Dur,
    pub preamble: crate::phy::Preamble,
}

impl ExchangeTime {
    /// From the channel's MAC settings, with `overhead_bytes` around each segment.
    pub fn of(cfg: &WifiConfig, overhead_bytes: u32, rts_cts: bool) -> ExchangeTime {
        ExchangeTime {
            sifs: cfg.timing.sifs,
            slot: cfg.timing.slot,
            cw_min: cfg.timing.cw_min,
            overhead_bytes,
            rts_cts,
            rts: cfg.control_txv.duration(crate::mac::frame::RTS_BYTES),
            cts: cfg.cts_duration,
            preamble: cfg.data_txv.preamble,
        }
    }

    /// Eq. 1: the mean backoff with `n` active stations, CWmin / (N + 1) slots [ns].
    pub fn mean_backoff_ns(&self, n: u32) -> f64 {
        f64::from(self.cw_min) / f64::from(n.max(1) + 1) * self.slot.ns() as f64
    }

    /// Eq. 2-4 and 10: the channel time of one exchange whose data frame takes `data` and is
    /// followed by `after` (SIFS + ACK: the data frame's Duration) [ns]: DIFS + mean backoff
    /// [+ RTS + SIFS + CTS + SIFS] + DATA + `after`.
    pub fn exchange_ns(&self, data: Dur, after: Dur, n: u32) -> f64 {
        let difs = self.sifs + self.slot.times(2); // 10.3.2.3.5
        let rts = if self.rts_cts { self.rts + self.sifs + self.cts + self.sifs } else { Dur::ZERO };
        (difs + rts + data + after).ns() as f64 + self.mean_backoff_ns(n)
    }

    /// Eq. 10: one exchange carrying a segment of `segment_bytes` at `mode` [ns]: DIFS + mean
    /// backoff [+ RTS + SIFS + CTS + SIFS] + DATA + SIFS + ACK (`ack`: the ACK's airtime).
    pub fn t_data_ns(&self, mode: ModeId, segment_bytes: u32, ack: Dur, n: u32) -> f64 {
        let data = TxVector::new(mode, self.preamble).duration(segment_bytes + self.overhead_bytes);
        self.exchange_ns(data, self.sifs + ack, n)
    }

    /// Eq. 9: b segments and one TCP ACK at `mode` [ns].
    pub fn t_tcp_ns(&self, mode: ModeId, segment_bytes: u32, b: u32, ack: Dur, n: u32) -> f64 {
        self.t_data_ns(mode, segment_bytes, ack, n) * f64::from(b) + self.t_data_ns(mode, 0, ack, n)
    }
}

/// Eq. 5-13 for one rate change of a station, and the window of Eq. 11.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Delta+ (Eq. 5) or Delta- (Eq. 12) [s].
    pub delta_s: f64,
    /// t_remain (Eq. 6) [s].
    pub remain_s: f64,
    /// Delta t_i (Eq. 7 or 13) [s].
    pub share_s: f64,
    /// T_TCP at the new rate (Eq. 9) [s].
    pub t_tcp_s: f64,
    /// Theta (Eq. 8) [bit/s], never below 0.
    pub theta_bps: f64,
    /// wnd_max (Eq. 11) [bytes].
    pub wnd_max_bytes: f64,
}

/// Paper 003 Eq. 5-13: the window of a connection after its station's rate goes from `old`
/// to `new`. `ack` is the MAC ACK's airtime after a frame at `new`; `b` the segments per TCP
/// ACK.
pub fn wnd_max(x: &ExchangeTime, slot: &Slot, old: ModeId, new: ModeId, ack: Dur, b: u32) -> Window {
    let (c_old, c_new) = (f64::from(old.rate_kbps()) * 1e3, f64::from(new.rate_kbps()) * 1e3);
    let n = slot.active.max(1);
    let remain = slot.slot_s - slot.stations_s - slot.beacon_s; // Eq. 6
    let (delta, share) = if c_new > c_old {
        let delta = slot.adapted_bits / c_old - slot.adapted_bits / c_new; // Eq. 5
        (delta, (delta + remain) / f64::from(n)) // Eq. 7
    } else {
        let delta = slot.adapted_bits / c_new - slot.adapted_bits / c_old; // Eq. 12
        (delta, remain / f64::from(n) - delta) // Eq. 13
    };
    let per_conn = share / f64::from(slot.connections.max(1));
    let lambda = slot.segment_bytes.round().max(0.0) as u32;
    let t_tcp = x.t_tcp_ns(new, lambda, b, ack, n) * 1e-9;
    let theta = if slot.slot_s > 0.0 {
        ((slot.connection_s + per_conn) / t_tcp * 8.0 * slot.segment_bytes * f64::from(b) / slot.slot_s)
            .max(0.0) // Eq. 8
    } else {
        0.0
    };
    Window {
        delta_s: delta,
        remain_s: remain,
        share_s: share,
        t_tcp_s: t_tcp,
        theta_bps: theta,
        wnd_max_bytes: slot.rtt_s * theta / 8.0, // Eq. 11
    }
}

/// When a rate change is acted on (paper 003 III-B-1 and -2): a decrease at once; an increase
/// only once the first DATA or ACK frame at the new rate succeeds; an increase that fails and
/// is reverted (ARF's fallback after a failed probe) not at all, the revert included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gate {
    /// An increase waiting for its first success: (the rate before, the new rate).
    pending: Option<(ModeId, ModeId)>,
}

/// What to do after an event, as the gate decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Nothing (yet).
    Wait,
    /// Recompute the window for a change from the first rate to the second.
    Recompute(ModeId, ModeId),
}

impl Gate {
    /// The station's rate for a peer went from `old` to `new`.
    pub fn rate_changed(&mut self, old: ModeId, new: ModeId) -> Act {
        if new.rate_kbps() > old.rate_kbps() {
            self.pending = Some((old, new));
            return Act::Wait;
        }
        match self.pending.take() {
            // The probe failed and ARF went straight back: merely reverted, nothing to do.
            Some((before, up)) if up == old && new == before => Act::Wait,
            _ => Act::Recompute(old, new),
        }
    }

    /// A frame exchange at `mode` succeeded (a DATA acknowledged, or an ACK received).
    pub fn succeeded(&mut self, mode: ModeId) -> Act {
        match self.pending {
            Some((old, new)) if new == mode => {
                self.pending = None;
                Act::Recompute(old, new)
            }
            _ => Act::Wait,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{PhyTiming, Preamble, Standard};

    fn a(mbps: u32) -> ModeId {
        Standard::A.mode(mbps * 1000).unwrap()
    }

    /// 802.11a: slot 9 us, SIFS 16, CWmin 15; segments with TCP/IP 40 + timestamps 12 + LLC 8 +
    /// MAC 24 + FCS 4 = 88 bytes around them; the MAC ACK at 6 Mbit/s is 44 us.
    fn exchange(rts_cts: bool) -> ExchangeTime {
        let t = PhyTiming::of(Standard::A, false);
        let ctl = TxVector::new(a(6), Preamble::Long);
        ExchangeTime {
            sifs: t.sifs,
            slot: t.slot,
            cw_min: t.cw_min,
            overhead_bytes: 88,
            rts_cts,
            rts: ctl.duration(20),
            cts: ctl.duration(14),
            preamble: Preamble::Long,
        }
    }

    const ACK_6: Dur = Dur(44_000);

    #[test]
    fn exchange_times_by_hand() {
        // The same hand computation as python/tests/test_analytic.py (-k p003): Eq. 1 67.5 us;
        // Eq. 10 at 54 Mbit/s: 34 + 67.5 + 252 + 16 + 44 = 413.5 us, a TCP ACK 197.5 us; Eq. 9
        // 611 us; with RTS/CTS + 52 + 16 + 44 + 16 = 541.5 us.
        let x = exchange(false);
        assert_eq!(x.mean_backoff_ns(1), 67_500.0);
        assert_eq!(x.mean_backoff_ns(3), 33_750.0);
        assert_eq!(x.t_data_ns(a(54), 1460, ACK_6, 1), 413_500.0);
        assert_eq!(x.t_data_ns(a(54), 0, ACK_6, 1), 197_500.0);
        assert_eq!(x.t_tcp_ns(a(54), 1460, 1, ACK_6, 1), 611_000.0);
        assert_eq!(exchange(true).t_data_ns(a(54), 1460, ACK_6, 1), 541_500.0);
    }

    #[test]
    fn wnd_max_eq_5_to_13_by_hand() {
        let x = exchange(false);
        let slot = Slot {
            slot_s: 1.0,
            beacon_s: 0.002,
            stations_s: 0.5,
            active: 1,
            adapted_bits: 8e6,
            connection_s: 0.5,
            connections: 1,
            segment_bytes: 1460.0,
            rtt_s: 0.02,
        };
        // Up 36 -> 48: Delta+ = 1/18 s, t_remain 0.498 s, T_TCP 639 us, wnd 48143.7 bytes.
        let up = wnd_max(&x, &slot, a(36), a(48), ACK_6, 1);
        assert!((up.delta_s - 1.0 / 18.0).abs() < 1e-12);
        assert!((up.remain_s - 0.498).abs() < 1e-12);
        assert!((up.t_tcp_s - 639e-6).abs() < 1e-12);
        assert!((up.wnd_max_bytes - 48143.7).abs() < 0.1, "{up:?}");
        // Down 48 -> 36: share 0.498 - 1/18, T_TCP 735 us.
        let down = wnd_max(&x, &slot, a(48), a(36), ACK_6, 1);
        assert!((down.share_s - (0.498 - 1.0 / 18.0)).abs() < 1e-12);
        assert!((down.t_tcp_s - 735e-6).abs() < 1e-12);
        let want = 0.02 * (0.5 + 0.498 - 1.0 / 18.0) / 735e-6 * 11680.0 / 8.0;
        assert!((down.wnd_max_bytes - want).abs() < 1e-6);
        // A crowded slot: the share goes negative and the window stops at 0.
        let full = Slot { stations_s: 0.999, connection_s: 0.01, ..slot };
        assert_eq!(wnd_max(&x, &full, a(48), a(6), ACK_6, 1).wnd_max_bytes, 0.0);
    }

    #[test]
    fn an_increase_is_acted_on_only_after_its_first_success() {
        let mut g = Gate::default();
        // Down: at once.
        assert_eq!(g.rate_changed(a(54), a(48)), Act::Recompute(a(54), a(48)));
        // Up: wait; a success at the old rate (a frame in flight) changes nothing; the first
        // success at the new rate acts, once.
        assert_eq!(g.rate_changed(a(48), a(54)), Act::Wait);
        assert_eq!(g.succeeded(a(48)), Act::Wait);
        assert_eq!(g.succeeded(a(54)), Act::Recompute(a(48), a(54)));
        assert_eq!(g.succeeded(a(54)), Act::Wait);
        // Up, the probe fails, ARF reverts: neither the increase nor the revert is acted on.
        assert_eq!(g.rate_changed(a(48), a(54)), Act::Wait);
        assert_eq!(g.rate_changed(a(54), a(48)), Act::Wait);
        assert_eq!(g.succeeded(a(54)), Act::Wait);
        // Up, then down twice before any success: the second step down is a real decrease
        // (from the rate before the probe), the first a revert.
        assert_eq!(g.rate_changed(a(48), a(54)), Act::Wait);
        assert_eq!(g.rate_changed(a(54), a(48)), Act::Wait);
        assert_eq!(g.rate_changed(a(48), a(36)), Act::Recompute(a(48), a(36)));
    }
}

/// The meter of one station (paper 003 III-A): the channel time of every exchange it sends,
/// receives or overhears, attributed to the exchange's station end (a frame from the AP to
/// its receiver, any other to its sender), summed per observation slot of length T. At each
/// slot boundary the current slot becomes the last complete one, which is what a rate change
/// is computed from ([`Meter::last`]).
#[derive(Clone, Debug)]
pub struct Meter {
    /// This station.
    pub me: crate::ids::NodeId,
    /// T.
    pub slot: Dur,
    /// Start of the slot being filled.
    start: crate::time::SimTime,
    /// The slot being filled: per station end, its channel time [ns]; this station's own
    /// bits at the adaptive rate; per connection (flow) its channel time [ns], segment bytes
    /// and count; the beacons' time [ns].
    ends: Vec<(crate::ids::NodeId, f64)>,
    adapted_bits: f64,
    flows: Vec<(crate::ids::FlowId, f64, f64, u32)>,
    beacon_ns: f64,
    /// The last complete slot, if any.
    last: Option<Observed>,
}

/// A complete observation slot of a [`Meter`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observed {
    pub slot_s: f64,
    pub beacon_s: f64,
    /// Per station end, its channel time [s].
    pub ends: Vec<(crate::ids::NodeId, f64)>,
    pub adapted_bits: f64,
    /// Per connection: channel time [s], mean segment length [bytes].
    pub flows: Vec<(crate::ids::FlowId, f64, f64)>,
}

impl Observed {
    /// The [`Slot`] of connection `flow` of station `me` with round trip `rtt_s`.
    pub fn slot_for(&self, me: crate::ids::NodeId, flow: crate::ids::FlowId, rtt_s: f64) -> Slot {
        let (connection_s, segment_bytes) =
            self.flows.iter().find(|f| f.0 == flow).map_or((0.0, 0.0), |f| (f.1, f.2));
        Slot {
            slot_s: self.slot_s,
            beacon_s: self.beacon_s,
            stations_s: self.ends.iter().map(|e| e.1).sum(),
            active: (self.ends.len() as u32 + u32::from(!self.ends.iter().any(|e| e.0 == me))).max(1),
            adapted_bits: self.adapted_bits,
            connection_s,
            connections: (self.flows.len() as u32).max(1),
            segment_bytes,
            rtt_s,
        }
    }
}

/// One exchange a station observed.
#[derive(Clone, Copy, Debug)]
pub struct Heard {
    /// The exchange's station end (not the AP), or None for a beacon.
    pub end: Option<crate::ids::NodeId>,
    /// Its channel time (Eq. 2-4) [ns].
    pub occupancy_ns: f64,
    /// Bits sent at the adaptive rate (the PSDU).
    pub psdu_bits: f64,
    /// The TCP connection and segment payload it carries, if any.
    pub segment: Option<(crate::ids::FlowId, u32)>,
}

impl Meter {
    pub fn new(me: crate::ids::NodeId, slot: Dur) -> Meter {
        Meter {
            me,
            slot,
            start: crate::time::SimTime::ZERO,
            ends: Vec::new(),
            adapted_bits: 0.0,
            flows: Vec::new(),
            beacon_ns: 0.0,
            last: None,
        }
    }

    /// Close every slot that ended by `now` (an empty slot in between is observed as empty);
    /// true if one did.
    pub fn roll(&mut self, now: crate::time::SimTime) -> bool {
        if self.slot == Dur::ZERO || now < self.start + self.slot {
            return false;
        }
        let elapsed = (now.ns() - self.start.ns()) / self.slot.ns();
        let t = self.slot.ns() as f64;
        let s = |ns: f64| ns * 1e-9;
        self.last = Some(if elapsed == 1 {
            Observed {
                slot_s: s(t),
                beacon_s: s(self.beacon_ns),
                ends: self.ends.iter().map(|&(n, v)| (n, s(v))).collect(),
                adapted_bits: self.adapted_bits,
                flows: self
                    .flows
                    .iter()
                    .map(|&(f, ns, bytes, n)| (f, s(ns), if n > 0 { bytes / f64::from(n) } else { 0.0 }))
                    .collect(),
            }
        } else {
            Observed { slot_s: s(t), ..Observed::default() }
        });
        self.start = crate::time::SimTime(self.start.ns() + elapsed * self.slot.ns());
        self.ends.clear();
        self.flows.clear();
        (self.adapted_bits, self.beacon_ns) = (0.0, 0.0);
        true
    }

    /// An exchange observed at `now` (at the end of its frame); true if it closed a slot.
    pub fn observe(&mut self, h: Heard, now: crate::time::SimTime) -> bool {
        let rolled = self.roll(now);
        let Some(end) = h.end else {
            self.beacon_ns += h.occupancy_ns;
            return rolled;
        };
        match self.ends.iter_mut().find(|e| e.0 == end) {
            Some(e) => e.1 += h.occupancy_ns,
            None => self.ends.push((end, h.occupancy_ns)),
        }
        if end != self.me {
            return rolled;
        }
        self.adapted_bits += h.psdu_bits;
        if let Some((flow, len)) = h.segment {
            match self.flows.iter_mut().find(|f| f.0 == flow) {
                Some(f) => {
                    f.1 += h.occupancy_ns;
                    if len > 0 {
                        (f.2, f.3) = (f.2 + f64::from(len), f.3 + 1);
                    }
                }
                None => self.flows.push((flow, h.occupancy_ns, f64::from(len), u32::from(len > 0))),
            }
        }
        rolled
    }

    /// The last complete slot, if one has ended.
    pub fn last(&self) -> Option<&Observed> {
        self.last.as_ref()
    }
}

/// Paper 003's window at one station, the scheme ([`super::Hooks`]): its meter, the gate of
/// its own rate's changes, and the rates it last used and received.
#[derive(Clone, Debug)]
pub struct ArfWindow {
    pub meter: Meter,
    pub gate: Gate,
    /// The mode of its own data frames (rate control's choice for the AP).
    pub tx_mode: Option<ModeId>,
    /// The mode of the data frames it last received from the AP.
    pub rx_mode: Option<ModeId>,
    /// Eq. 11's RTT.
    pub rtt: ArfWindowRtt,
    /// Also recompute at the end of every slot, at the current rate.
    pub every_slot: bool,
}

impl ArfWindow {
    /// The window at station `me`, with observation slots of `slot`, Eq. 11 on the smoothed
    /// RTT, recomputed on rate changes only (the paper's).
    pub fn new(me: crate::ids::NodeId, slot: Dur) -> ArfWindow {
        ArfWindow {
            meter: Meter::new(me, slot),
            gate: Gate::default(),
            tx_mode: None,
            rx_mode: None,
            rtt: ArfWindowRtt::Smoothed,
            every_slot: false,
        }
    }

    /// Eq. 11's RTT for `conn` [s], from `slot` (its lambda and N) at the new rate `new`.
    fn rtt_s(
        &self,
        x: &ExchangeTime,
        slot: &Slot,
        conn: &ConnView,
        new: ModeId,
        ack: Dur,
        v: &dyn View,
    ) -> f64 {
        let s = |d: Dur| d.ns() as f64 * 1e-9;
        match self.rtt {
            ArfWindowRtt::Smoothed => s(conn.rtt),
            ArfWindowRtt::Min => s(conn.min_rtt),
            // The wired hops both ways plus Eq. 9's exchange of b segments and their ACK.
            ArfWindowRtt::Empty => {
                let lambda = slot.segment_bytes.round().max(0.0) as u32;
                let b = conn.ack_every.max(1);
                s(v.wired_rtt(conn.flow)) + x.t_tcp_ns(new, lambda, b, ack, slot.active.max(1)) * 1e-9
            }
        }
    }

    /// Its receiving (`receiving`) or sending rate went from `old` to `new`: each of its TCP
    /// connections in that direction gets Eq. 11's window from the last complete observation
    /// slot, as the advertised window (receiver, III-C-2) or the cwnd cap (sender, III-C-1),
    /// within [one segment, the buffer]: a zero window would stall the connection, which has
    /// no persist timer here. Nothing before the first slot has ended, before the connection
    /// has an RTT, or for a connection that sent no segment in the last slot (not one of the
    /// M_i active connections).
    fn apply(&self, old: ModeId, new: ModeId, receiving: bool, v: &dyn View, c: &mut Controls) {
        let Some(obs) = self.meter.last() else { return };
        let cfg = v.wifi();
        let node = c.node;
        v.connections(node, receiving, &mut |conn| {
            let overhead = crate::tcp::conn::TCP_IP_HEADER_BYTES
                + if conn.timestamps { crate::tcp::conn::TIMESTAMP_OPTION_BYTES } else { 0 }
                + crate::mac::frame::LLC_SNAP_BYTES
                + cfg.data_header_bytes
                + crate::mac::frame::FCS_BYTES;
            let x = ExchangeTime::of(cfg, overhead, cfg.wants_rts(overhead + conn.mss));
            let mut slot = obs.slot_for(node, conn.flow, 0.0);
            if slot.segment_bytes <= 0.0 {
                // Not among the M_i connections active in T (a stalled slot): no lambda, no
                // channel time; Eq. 8 would give 0. Its window stays as it is.
                return;
            }
            let ack = cfg.ack_duration_for(new);
            slot.rtt_s = self.rtt_s(&x, &slot, &conn, new, ack, v);
            let w = wnd_max(&x, &slot, old, new, ack, conn.ack_every.max(1));
            let (mss, buf) = (conn.mss, conn.buf_bytes);
            let applied =
                (w.wnd_max_bytes.max(0.0) as u64).clamp(u64::from(mss), u64::from(buf.max(mss))) as u32;
            let flow = conn.flow;
            c.push(if receiving {
                Action::RcvWindow { flow, bytes: applied }
            } else {
                Action::CwndCap { flow, segments: applied.div_ceil(mss) }
            });
            c.push(Action::WindowSet {
                flow,
                rates: (old, new),
                wnd_max_bytes: w.wnd_max_bytes,
                applied,
                receiving,
            });
        });
    }
}

impl Hooks for ArfWindow {
    /// Its own data frame at `mode` finished: the first success at a new, higher rate releases
    /// the pending increase (III-B-1). A rate change of its own: acted on unless the gate
    /// holds it (an increase waits for its first success; a reverted probe is nothing).
    fn mac_event(&mut self, ev: &MacEvent, v: &dyn View, c: &mut Controls) {
        match *ev {
            MacEvent::TxDone { acked, mode, .. } => {
                if self.tx_mode.is_none() {
                    self.tx_mode = Some(mode);
                }
                if acked {
                    if let Act::Recompute(o, n) = self.gate.succeeded(mode) {
                        self.apply(o, n, false, v, c);
                    }
                }
            }
            MacEvent::RateChanged { mode, .. } => {
                let old = self.tx_mode.replace(mode);
                if let Some(old) = old.filter(|&o| o != mode) {
                    if let Act::Recompute(o, n) = self.gate.rate_changed(old, mode) {
                        self.apply(o, n, false, v, c);
                    }
                }
            }
            MacEvent::CorruptRx { .. } => {}
        }
    }

    /// A frame it sent, received or overheard (III-A): its exchange's channel time goes to
    /// the meter (Eq. 2-4: DIFS + mean backoff [+ RTS + SIFS + CTS + SIFS] + the frame + its
    /// Duration, which covers SIFS + ACK; a beacon's airtime as t_beacon; RTS, CTS and ACK
    /// frames are inside their data frame's exchange). A data frame from the AP received here
    /// at another rate than the last is a change of the receiving rate, acted on at once: it
    /// is itself the first frame received at the new rate.
    fn frame_heard(&mut self, frame: &Frame, _carried: u32, v: &dyn View, c: &mut Controls) {
        let is_ap = |n: crate::ids::NodeId| n != crate::ids::NodeId::BROADCAST && v.is_ap(n);
        let (end, segment) = match frame.kind {
            FrameKind::Beacon => (None, None),
            FrameKind::Data => {
                let end = if is_ap(frame.src) { frame.dst } else { frame.src };
                let seg = frame.packet.and_then(|id| {
                    let p = v.packet(id);
                    p.tcp.map(|s| (p.flow, s.len))
                });
                (Some(end), seg)
            }
            _ => return,
        };
        let from_ap = is_ap(frame.src);
        let cfg = v.wifi();
        let air = frame.txv.duration(frame.bytes);
        let occupancy_ns = if frame.kind == FrameKind::Beacon {
            air.ns() as f64
        } else {
            let n = self.meter.last().map_or(1, |o| o.ends.len().max(1) as u32);
            ExchangeTime::of(cfg, 0, cfg.wants_rts(frame.bytes)).exchange_ns(air, frame.nav, n)
        };
        let psdu_bits = f64::from(frame.bytes) * 8.0;
        let rolled = self.meter.observe(Heard { end, occupancy_ns, psdu_bits, segment }, c.now);
        if rolled && self.every_slot {
            // A slot closed: every connection's window again at its current rate (Eq. 13
            // with Delta- = 0: the slot's unoccupied time shared out, nothing taken back).
            if let Some(m) = self.rx_mode {
                self.apply(m, m, true, v, c);
            }
            if let Some(m) = self.tx_mode {
                self.apply(m, m, false, v, c);
            }
        }
        if frame.kind == FrameKind::Data && frame.dst == c.node && from_ap {
            let mode = frame.txv.mode;
            if let Some(old) = self.rx_mode.replace(mode).filter(|&o| o != mode) {
                self.apply(old, mode, true, v, c);
            }
        }
    }
}

#[cfg(test)]
mod meter_tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::time::SimTime;

    fn heard(end: Option<u32>, us: f64, seg: Option<(u32, u32)>) -> Heard {
        Heard {
            end: end.map(NodeId),
            occupancy_ns: us * 1e3,
            psdu_bits: 8000.0,
            segment: seg.map(|(f, len)| (FlowId(f), len)),
        }
    }

    #[test]
    fn a_slot_sums_channel_time_per_station_and_connection() {
        // Station 1 (me) with flow 0, station 2 beside it, beacons; T = 100 ms.
        let mut m = Meter::new(NodeId(1), Dur::from_ms(100));
        let at = |ms: u64| SimTime(ms * 1_000_000);
        m.observe(heard(Some(1), 400.0, Some((0, 1460))), at(1));
        m.observe(heard(Some(1), 200.0, Some((0, 0))), at(2)); // its TCP ACK: no segment bytes
        m.observe(heard(Some(2), 300.0, None), at(3));
        m.observe(heard(None, 112.0, None), at(4));
        m.observe(heard(Some(1), 400.0, Some((0, 1000))), at(50));
        assert!(m.last().is_none(), "no slot has ended yet");
        m.observe(heard(Some(2), 300.0, None), at(120)); // rolls: the first slot is complete
        let o = m.last().unwrap().clone();
        assert_eq!(o.slot_s, 0.1);
        assert!((o.beacon_s - 112e-6).abs() < 1e-12);
        assert_eq!(o.ends.iter().map(|e| e.0).collect::<Vec<_>>(), vec![NodeId(1), NodeId(2)]);
        assert!((o.ends[0].1 - 1000e-6).abs() < 1e-12 && (o.ends[1].1 - 300e-6).abs() < 1e-12);
        assert_eq!(o.adapted_bits, 3.0 * 8000.0); // only its own frames
        assert_eq!(o.flows.len(), 1);
        assert!((o.flows[0].1 - 1000e-6).abs() < 1e-12 && o.flows[0].2 == 1230.0);
        let s = o.slot_for(NodeId(1), FlowId(0), 0.03);
        assert_eq!((s.active, s.connections), (2, 1));
        assert!((s.stations_s - 1300e-6).abs() < 1e-12 && (s.connection_s - 1000e-6).abs() < 1e-12);
        // Two slots later with nothing heard in between: the last complete slot is empty.
        m.roll(at(320));
        let empty = m.last().unwrap();
        assert!(empty.ends.is_empty() && empty.adapted_bits == 0.0 && empty.slot_s == 0.1);
        // A station that heard only others counts itself among the active ones.
        let others = Observed { slot_s: 0.1, ends: vec![(NodeId(2), 0.01)], ..Observed::default() };
        assert_eq!(others.slot_for(NodeId(1), FlowId(0), 0.03).active, 2);
    }
}
