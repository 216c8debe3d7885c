//! CLAP's link report (docs/clap.md), the first cross-layer scheme: each exchange that ends
//! at a node hosting a CLAP sender feeds the service-time meter of its access category, and
//! the senders on that queue get a link report built from it.

use super::{Action, Controls, Hooks, MacEvent, View};
use crate::mac::AC_COUNT;

/// The MAC service time of one access category: from the moment a frame reaches the head of
/// the queue to the end of its exchange (ACK received, 10.3.2.11, or the frame given up at the
/// retry limit, 10.3.4.4), deferrals, backoffs and retries included. 802.11-2020's Transmit
/// Stream/Category Measurement times an MSDU from its arrival at the MAC to its ACK; this one
/// starts at the head of the queue, so queueing is left out (the queue length is reported
/// apart). docs/clap.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServiceMeter {
    /// EWMA of the service time, weight 1/8 per sample [ns].
    pub ewma_ns: u64,
    /// Samples since the EWMA last restarted.
    pub samples: u32,
    /// Data rate the samples were taken at [bit/s]; a change restarts the EWMA.
    pub rate_bps: u64,
}

impl ServiceMeter {
    /// One exchange took `service_ns`, sent at `rate_bps`.
    pub fn sample(&mut self, service_ns: u64, rate_bps: u64) {
        if rate_bps != self.rate_bps {
            self.rate_bps = rate_bps;
            self.samples = 0;
        }
        // EWMA with weight 1/8, as RFC 6298's SRTT (docs/clap.md).
        self.ewma_ns = if self.samples == 0 { service_ns } else { (7 * self.ewma_ns + service_ns) / 8 };
        self.samples = self.samples.saturating_add(1);
    }
}

/// The link report at a node hosting a CLAP sender: a service meter per access category.
#[derive(Clone, Debug, Default)]
pub struct ClapLink {
    meters: [ServiceMeter; AC_COUNT],
}

impl ClapLink {
    /// The meter of `ac`.
    pub fn meter(&self, ac: usize) -> ServiceMeter {
        self.meters[ac]
    }
}

impl Hooks for ClapLink {
    /// One exchange of `ac` ended: its sample, and the senders on that queue get a link report
    /// built from the meter.
    fn mac_event(&mut self, ev: &MacEvent, _v: &dyn View, c: &mut Controls) {
        let MacEvent::TxDone { ac, mode, service_ns, .. } = *ev else { return };
        let m = &mut self.meters[usize::from(ac)];
        m.sample(service_ns, u64::from(mode.rate_kbps()) * 1000);
        c.push(Action::ClapLinkReport { ac, meter: *m });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_meter_is_an_ewma_of_one_eighth_restarted_by_a_rate_change() {
        let mut m = ServiceMeter::default();
        // 1649 us, then 2449 us (one retry's worth more): 1649 + 800 / 8 = 1749 us.
        m.sample(1_649_000, 11_000_000);
        m.sample(2_449_000, 11_000_000);
        assert_eq!((m.ewma_ns, m.samples), (1_749_000, 2));
        // The data rate drops to 5.5 Mbit/s: the old samples say nothing about it.
        m.sample(2_432_000, 5_500_000);
        assert_eq!((m.ewma_ns, m.samples, m.rate_bps), (2_432_000, 1, 5_500_000));
    }
}
