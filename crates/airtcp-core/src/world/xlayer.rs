//! The glue of the cross-layer seam: a [`MacEvent`] the MAC made goes to the schemes
//! installed at its node, which act on the layers the world holds.

use super::World;
use crate::time::SimTime;
use crate::xlayer::{MacEvent, Scheme};

impl World {
    /// Dispatch `ev` to the schemes at its node (the caller checked that one wants it).
    pub(crate) fn on_mac_event(&mut self, ev: MacEvent, now: SimTime) {
        match ev {
            MacEvent::TxDone { node, ac, mode, service_ns, .. } => {
                if self.xlayer.runs(node, Scheme::ClapLink) {
                    let rate_bps = u64::from(mode.rate_kbps()) * 1000;
                    let meter = self.xlayer.clap_link.sample(node, usize::from(ac), service_ns, rate_bps);
                    self.clap_link_report(node, usize::from(ac), meter, now);
                }
            }
            MacEvent::RateChanged { .. } | MacEvent::CorruptRx { .. } => {}
        }
    }
}
