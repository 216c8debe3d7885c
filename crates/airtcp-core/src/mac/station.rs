//! The station table: what one MAC keeps about each peer it exchanges frames with: the
//! receive-side duplicate cache, the rate-control state, a retry policy of the peer's own,
//! and link statistics (the 802.11s airtime metric's frame error average). Block Ack
//! agreements join it with 802.11n. These are control meters: they count from the start of
//! the run, not from the warm-up, because a scheme reads them while the run goes on.

use super::rate::RateSlot;
use super::retry::RetryLimits;
use super::AC_COUNT;
use crate::phy::ModeId;

/// One MAC's state about one peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Station {
    /// Sequence number of the last data frame received from this peer, per TID: a QoS station
    /// numbers all its TIDs from one counter and serves them independently, so the cache is
    /// keyed by (transmitter, TID) (802.11-2020 10.3.2.14.3). airtcp carries one TID per access
    /// category; a non-QoS (DCF) node keeps the same four entries, one per queue it serves.
    pub last_seq: [Option<u16>; AC_COUNT],
    /// The rate-control algorithm's state for this peer.
    pub rate: RateSlot,
    /// The mode of the last data attempt to this peer: a different selection is a rate change.
    pub mode: ModeId,
    /// The mode the rate control chose for the first attempt of the last frame to this peer
    /// (the first entry of a multi-rate retry series, not a fallback): the driver's "data
    /// rate" (paper 002's average data rate and its remedy's; AQL's estimate).
    pub first_mode: ModeId,
    /// Retry limits for frames to this peer; `None`: the channel's.
    pub retry: Option<RetryLimits>,
    /// Outcomes of the data frames sent to this peer.
    pub link: LinkStats,
    /// Under Block Ack (802.11n): this pair's `Wifi::ba_peers` entry (`u32::MAX`: none yet).
    pub ba: u32,
    /// Block Ack retry budgets for A-MPDUs to this peer; `None`: the channel's.
    pub ba_retry: Option<super::ht::blockack::BaRetryLimits>,
}

impl Station {
    /// A peer never exchanged with: rate-control state `rate`, starting at `mode`.
    pub fn new(rate: RateSlot, mode: ModeId) -> Station {
        Station {
            last_seq: [None; AC_COUNT],
            rate,
            mode,
            first_mode: mode,
            retry: None,
            link: LinkStats::default(),
            ba: u32::MAX,
            ba_retry: None,
        }
    }

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

/// Outcomes of the data frames sent to one peer, from the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Data PPDUs sent (first transmissions and retransmissions).
    pub attempts: u64,
    /// MPDU transmissions in them (as many as `attempts` without aggregation).
    pub mpdus_sent: u64,
    /// Airtime of those attempts' PPDUs [ns] (the driver's `ath_tx_count_airtime`, which
    /// mac80211's airtime fairness is charged with).
    pub airtime_ns: u64,
    /// MPDUs acknowledged.
    pub acked: u64,
    /// MPDUs given up at the retry limit.
    pub given_up: u64,
    /// Average of the final outcomes, 100 for a frame given up and 0 for one acknowledged:
    /// mac80211's `fail_avg`, fed once per final status by `ieee80211s_update_metric()`.
    pub fail_avg: Ewma,
    /// The same average as Linux 3.12 kept it (paper 000's kernel; `mesh::metric::FailAvg`),
    /// and whether it has crossed the broken-link threshold since the last read.
    pub fail_avg_3_12: FailAvg,
    pub link_broken: bool,
    /// The mode of the last attempt of the last data frame to reach its final status
    /// (mac80211's `sta->last_tx_rate`, set from each data frame's TX status; the Airtime
    /// Link Metric's rate); `None` before any.
    pub last_tx_mode: Option<crate::phy::ModeId>,
}

impl LinkStats {
    /// A data frame's final status: acknowledged, or given up at the retry limit.
    #[inline(always)]
    pub fn final_status(&mut self, acked: bool) {
        if acked {
            self.acked += 1;
        } else {
            self.given_up += 1;
        }
        self.fail_avg.add(if acked { 0 } else { 100 });
        self.link_broken |= self.fail_avg_3_12.update(acked);
    }
}

/// Linux's `DECLARE_EWMA(mesh_fail_avg, 20, 8)` (`include/linux/average.h`, `sta_info.h`):
/// 20 fractional bits, weight 1/8, and an unset average takes its first sample verbatim (the
/// `ULONG_MAX` "uninitialised" sentinel of current kernels).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ewma {
    internal: Option<u64>,
}

impl Ewma {
    const PRECISION: u32 = 20;
    const WEIGHT_RCP_LOG2: u32 = 3;

    /// `ewma_add`: internal <- (internal * 7 + (val << 20)) >> 3.
    pub fn add(&mut self, val: u64) {
        let v = val << Self::PRECISION;
        self.internal = Some(match self.internal {
            Some(i) => ((i << Self::WEIGHT_RCP_LOG2) - i + v) >> Self::WEIGHT_RCP_LOG2,
            None => v,
        });
    }

    /// `ewma_read`: the integer part; 0 before any sample.
    pub fn read(&self) -> u64 {
        self.internal.map_or(0, |i| i >> Self::PRECISION)
    }
}

/// Above this failure average the link is broken (`ieee80211s_update_metric`, 3.12).
pub const LINK_FAIL_THRESH: u32 = 95;

/// A peer's failure average as Linux 3.12 keeps it (`sta->fail_avg`, percent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FailAvg {
    pub percent: u32,
}

impl FailAvg {
    /// A unicast data frame's final status (`ieee80211s_update_metric`): true if the link is
    /// now broken (`mesh_plink_broken`).
    #[inline(always)]
    pub fn update(&mut self, acked: bool) -> bool {
        self.percent = (80 * self.percent + 5) / 100 + if acked { 0 } else { 20 };
        self.percent > LINK_FAIL_THRESH
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mac::rate::RateAlgo;

    fn station() -> Station {
        let mode = crate::phy::modes::OFDM_6;
        let t = crate::phy::PhyTiming::of(crate::phy::Standard::A, false);
        Station::new(
            RateAlgo::parse(crate::mac::rate::RateName::Constant, crate::phy::Standard::A, &t, mode)
                .unwrap()
                .station(),
            mode,
        )
    }

    #[test]
    fn fail_avg_follows_linux_ewma_of_one_eighth() {
        // Hand computed with average.h: first failure taken verbatim (100), then
        // 100*7/8 = 87.5 -> read 87; a success: 87.5*7/8 = 76.5625 -> 76.
        let mut l = LinkStats::default();
        assert_eq!(l.fail_avg.read(), 0);
        l.final_status(false);
        assert_eq!(l.fail_avg.read(), 100);
        l.final_status(true);
        assert_eq!(l.fail_avg.read(), 87);
        l.final_status(true);
        assert_eq!(l.fail_avg.read(), 76);
        assert_eq!((l.acked, l.given_up), (2, 1));
    }

    #[test]
    fn a_retry_on_one_tid_is_a_duplicate_after_a_frame_on_another() {
        let mut s = station();
        assert!(!s.is_duplicate(1, 10, false)); // BE seq 10
        assert!(!s.is_duplicate(3, 11, false)); // VO seq 11 in between
        assert!(s.is_duplicate(1, 10, true)); // BE seq 10 again, Retry set: its ACK was lost
        assert!(!s.is_duplicate(1, 12, true)); // a retry of a frame never received is new
        assert!(s.has_received(3, 11) && !s.has_received(1, 10));
    }
}

/// One MAC's station table over every node of the world, made lazily: a peer's entry is a
/// copy of the template (a peer never exchanged with) from the first time it is written; until
/// then reading it reads the template. A station in a BSS of N thus keeps one entry, not N
/// (mac80211 adds a `sta_info` when a peer is first heard, `sta_info_alloc`). Its index is a
/// short list of (peer, entry) pairs while the MAC has written to few peers (a station of a
/// BSS: its AP), and an array of 4 bytes per node once it has more (an AP), so the tables of
/// N stations take O(N) memory, not O(N^2).
#[derive(Clone, Debug)]
pub struct PeerTable {
    template: Station,
    nodes: u32,
    /// (peer, entry) of each peer written, while there are at most [`SPARSE_MAX`] (inline: no
    /// pointer to follow on the hot path).
    sparse: [(u32, u32); SPARSE_MAX],
    sparse_len: u8,
    /// The entry of each peer (or `NO_ENTRY`), once there are more; empty until then.
    dense: Vec<u32>,
    entries: Vec<Station>,
}

const NO_ENTRY: u32 = u32::MAX;
/// Peers written before the index turns into an array.
const SPARSE_MAX: usize = 8;

impl PeerTable {
    /// A table of `nodes` peers, each as `template` until first written.
    pub fn new(template: Station, nodes: usize) -> PeerTable {
        PeerTable {
            template,
            nodes: nodes as u32,
            sparse: [(u32::MAX, NO_ENTRY); SPARSE_MAX],
            sparse_len: 0,
            dense: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// Entries made so far (peers written to).
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    /// The entry of `peer`, or `NO_ENTRY`.
    #[inline(always)]
    fn slot(&self, peer: usize) -> u32 {
        // The first peer written first: a station's AP, most lookups of most tables.
        if self.sparse[0].0 as usize == peer {
            return self.sparse[0].1;
        }
        if !self.dense.is_empty() {
            return self.dense[peer];
        }
        assert!(peer < self.nodes as usize, "peer {peer} of {}", self.nodes);
        for &(p, e) in &self.sparse[..self.sparse_len as usize] {
            if p as usize == peer {
                return e;
            }
        }
        NO_ENTRY
    }
}

impl std::ops::Index<usize> for PeerTable {
    type Output = Station;
    #[inline(always)]
    fn index(&self, peer: usize) -> &Station {
        match self.slot(peer) {
            NO_ENTRY => &self.template,
            e => &self.entries[e as usize],
        }
    }
}

impl std::ops::IndexMut<usize> for PeerTable {
    #[inline(always)]
    fn index_mut(&mut self, peer: usize) -> &mut Station {
        let mut e = self.slot(peer);
        if e == NO_ENTRY {
            e = self.entries.len() as u32;
            self.entries.push(self.template);
            if !self.dense.is_empty() {
                self.dense[peer] = e;
            } else if (self.sparse_len as usize) < SPARSE_MAX {
                self.sparse[self.sparse_len as usize] = (peer as u32, e);
                self.sparse_len += 1;
            } else {
                self.dense = vec![NO_ENTRY; self.nodes as usize];
                for &(p, s) in &self.sparse {
                    self.dense[p as usize] = s;
                }
                self.sparse_len = 0;
                self.sparse[0] = (u32::MAX, NO_ENTRY);
                self.dense[peer] = e;
            }
        }
        &mut self.entries[e as usize]
    }
}

/// Equal when every peer reads the same, whichever entries have been made.
impl PartialEq for PeerTable {
    fn eq(&self, other: &PeerTable) -> bool {
        self.nodes == other.nodes && (0..self.nodes as usize).all(|i| self[i] == other[i])
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;
    use crate::mac::rate::RateSlot;

    #[test]
    fn a_peer_is_the_template_until_written_and_only_written_peers_take_room() {
        let template = Station::new(RateSlot::NEW, ModeId(0));
        let mut t = PeerTable::new(template, 1000);
        assert_eq!(t[999], template);
        assert_eq!(t.entries(), 0, "reading makes no entry");
        t[7].last_seq[1] = Some(42);
        t[3].ba = 5;
        assert_eq!((t.entries(), t[7].last_seq[1], t[3].ba, t[8]), (2, Some(42), 5, template));
        let mut u = PeerTable::new(template, 1000);
        u[3].ba = 5;
        u[7].last_seq[1] = Some(42);
        u[500].ba = u32::MAX; // written back to the template's value: equal all the same
        assert_eq!(t, u, "equal by what each peer reads, whatever the order of writes");
        // Past eight peers the index turns into an array; every entry stays where it was.
        for p in 10..40 {
            t[p].ba = p as u32;
        }
        assert_eq!(
            (t.entries(), t[7].last_seq[1], t[3].ba, t[25].ba, t[999]),
            (32, Some(42), 5, 25, template)
        );
    }
}
