//! Paper 003's ARF-aware window (Kashibuchi et al., section III): on every rate change of a
//! station, the bound wnd_max of each of its long-lived TCP connections, from the channel
//! time it observed in the last observation slot (Eq. 1-13). The same formulas are in
//! `airtcp.analytic` (`p003_wnd_max`); the unit tests here use the same hand computations.
//!
//! This module is the arithmetic and the rule of when to act; the meters that fill a
//! [`Slot`] from the frames a station sends and overhears, and the TCP control point it drives
//! (the advertised window at a receiving station, the cwnd cap at a sending one), are wired in
//! `world` (issue 13).

use crate::mac::WifiConfig;
use crate::phy::{ModeId, TxVector};
use crate::time::Dur;

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
pub struct Exchange {
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

impl Exchange {
    /// From the channel's MAC settings, with `overhead_bytes` around each segment.
    pub fn of(cfg: &WifiConfig, overhead_bytes: u32, rts_cts: bool) -> Exchange {
        Exchange {
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

    /// Eq. 10: one exchange carrying a segment of `segment_bytes` at `mode` [ns]: DIFS + mean
    /// backoff [+ RTS + SIFS + CTS + SIFS] + DATA + SIFS + ACK (`ack`: the ACK's airtime).
    pub fn t_data_ns(&self, mode: ModeId, segment_bytes: u32, ack: Dur, n: u32) -> f64 {
        let difs = self.sifs + self.slot.times(2); // 10.3.2.3.5
        let data = TxVector::new(mode, self.preamble).duration(segment_bytes + self.overhead_bytes);
        let rts = if self.rts_cts { self.rts + self.sifs + self.cts + self.sifs } else { Dur::ZERO };
        (difs + rts + data + self.sifs + ack).ns() as f64 + self.mean_backoff_ns(n)
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
pub fn wnd_max(x: &Exchange, slot: &Slot, old: ModeId, new: ModeId, ack: Dur, b: u32) -> Window {
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
    fn exchange(rts_cts: bool) -> Exchange {
        let t = PhyTiming::of(Standard::A, false);
        let ctl = TxVector::new(a(6), Preamble::Long);
        Exchange {
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
