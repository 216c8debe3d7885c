//! Paper 002's remedy (Nomoto, Wu, Ohzahata, Kato, section III): a station lowers the Block-Ack
//! retry limit of its TCP frames when its data rate is low, so that MAC losses reach TCP and
//! its window stops filling the queues. At each data transfer request the driver updates
//! `rate <- 0.75 rate + 0.25 actual data rate` (III-C) and the frame's Block-Ack-based
//! retransmission limit is 10, 8, 5 or 2 for rate >= 100, [50, 100), [25, 50) and < 25
//! Mbit/s (III-B, Fig. 2's solid line); only frames whose IP protocol field says TCP (III).

use super::{Action, Controls, Hooks, View};
use crate::ids::{NodeId, PacketId};

/// The limit of III-B for an averaged data rate [Mbit/s].
pub fn limit_for(rate_mbps: f64) -> u8 {
    if rate_mbps >= 100.0 {
        10
    } else if rate_mbps >= 50.0 {
        8
    } else if rate_mbps >= 25.0 {
        5
    } else {
        2
    }
}

/// One station's averaged data rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BaRetry {
    /// The moving average [Mbit/s]; `None` before the first request (it starts at the first
    /// rate: the paper gives no initial value).
    pub rate_mbps: Option<f64>,
}

impl BaRetry {
    /// A data transfer request whose frame goes at `actual_mbps`: the average moves, and the
    /// limit for the frame (if it carries TCP) follows from it.
    pub fn request(&mut self, actual_mbps: f64) -> u8 {
        let r = match self.rate_mbps {
            None => actual_mbps,
            Some(r) => 0.75 * r + 0.25 * actual_mbps, // III-C
        };
        self.rate_mbps = Some(r);
        limit_for(r)
    }
}

impl Hooks for BaRetry {
    /// A data transfer request for the frame carrying `packet` to `peer`: the averaged rate
    /// moves with the rate the frame would go at now (the rate control's choice for a first
    /// attempt, `Station::first_mode`), and a TCP frame's Block-Ack retry limit follows
    /// (III-B, III-C). Only frames whose IP protocol field says TCP (III).
    fn enqueued(&mut self, peer: NodeId, packet: PacketId, v: &dyn View, c: &mut Controls) {
        if v.packet(packet).tcp.is_none() {
            return;
        }
        let actual_mbps = f64::from(v.first_mode(c.node, peer).rate_kbps()) / 1000.0;
        let limit = self.request(actual_mbps);
        c.push(Action::FrameRetryLimit { packet, limit });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_table_of_iii_b() {
        assert_eq!([limit_for(300.0), limit_for(100.0), limit_for(99.9), limit_for(50.0)], [10, 10, 8, 8]);
        assert_eq!([limit_for(49.9), limit_for(25.0), limit_for(24.9), limit_for(6.5)], [5, 5, 2, 2]);
    }

    #[test]
    fn the_moving_average_of_iii_c_by_hand() {
        let mut s = BaRetry::default();
        assert_eq!(s.request(216.0), 10); // starts at the first rate
                                          // 0.75 x 216 + 0.25 x 6.5 = 163.625 -> 10; then 124.34, 94.88 -> 8.
        assert_eq!(s.request(6.5), 10);
        assert!((s.rate_mbps.unwrap() - 163.625).abs() < 1e-12);
        assert_eq!(s.request(6.5), 10);
        assert_eq!(s.request(6.5), 8);
        assert!((s.rate_mbps.unwrap() - 94.8828125).abs() < 1e-9);
        // Five more at 6.5 Mbit/s (72.8, 56.2, 43.8, 34.5, 27.5) before it falls below 25.
        let n = (0..20).take_while(|_| s.request(6.5) != 2).count();
        assert_eq!(n, 5);
    }
}
