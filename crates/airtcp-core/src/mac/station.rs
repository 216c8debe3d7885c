//! The station table: what one MAC keeps about each peer it exchanges frames with. Today the
//! receive-side duplicate cache; rate control, retry state, Block Ack agreements and link
//! statistics (the 802.11s airtime metric's frame error average) join it as they are built.

use super::AC_COUNT;

/// One MAC's state about one peer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Station {
    /// Sequence number of the last data frame received from this peer, per TID: a QoS station
    /// numbers all its TIDs from one counter and serves them independently, so the cache is
    /// keyed by (transmitter, TID) (802.11-2020 10.3.2.14.3). airtcp carries one TID per access
    /// category; a non-QoS (DCF) node keeps the same four entries, one per queue it serves.
    pub last_seq: [Option<u16>; AC_COUNT],
}

impl Station {
    /// A data frame from this peer with `seq` on `tid` arrived intact: whether it repeats the
    /// last one (a retransmission whose ACK was lost, Retry bit set), and remember it.
    pub fn is_duplicate(&mut self, tid: usize, seq: u16, retry: bool) -> bool {
        let dup = retry && self.last_seq[tid] == Some(seq);
        self.last_seq[tid] = Some(seq);
        dup
    }

    /// Whether this peer's last frame on `tid` was `seq` (it got the frame even if its ACK
    /// was lost).
    pub fn has_received(&self, tid: usize, seq: u16) -> bool {
        self.last_seq[tid] == Some(seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_on_one_tid_is_a_duplicate_after_a_frame_on_another() {
        let mut s = Station::default();
        assert!(!s.is_duplicate(1, 10, false)); // BE seq 10
        assert!(!s.is_duplicate(3, 11, false)); // VO seq 11 in between
        assert!(s.is_duplicate(1, 10, true)); // BE seq 10 again, Retry set: its ACK was lost
        assert!(!s.is_duplicate(1, 12, true)); // a retry of a frame never received is new
        assert!(s.has_received(3, 11) && !s.has_received(1, 10));
    }
}
