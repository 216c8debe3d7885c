//! Rate control: the mode each attempt of a data frame is sent at, and what the algorithm
//! learns from each outcome. The seam follows ns-3's `WifiRemoteStationManager`
//! (`DoGetDataTxVector`; `DoReportRtsFailed`, `DoReportDataFailed`, `DoReportRtsOk`,
//! `DoReportDataOk`, `DoReportFinalRtsFailed`, `DoReportFinalDataFailed`) and Linux's
//! `rate_control_ops` (`get_rate`, `tx_status`), without the inheritance: an algorithm is a
//! [`RateControl`] with its own per-station state, kept in the MAC's station table, and the
//! MAC calls it through the [`RateAlgo`] enum (no dynamic dispatch per frame).

pub mod arf;
pub mod ath9k;
pub mod constant;
pub mod minstrel;
pub mod minstrel_ht;

use crate::phy::{ModeId, PhyTiming, Standard};
use crate::rng::{mix64, Purpose, Stream};
use crate::time::SimTime;

/// What happened to one attempt (ns-3's Report* calls), as rate control hears of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxReport {
    /// An RTS got no CTS; the frame will be tried again.
    RtsFailed,
    /// A CTS answered the RTS.
    RtsOk,
    /// A data frame got no ACK; it will be tried again.
    DataFailed,
    /// A data frame was acknowledged after `retries` retransmissions.
    DataOk { retries: u32 },
    /// The frame was given up at the retry limit after an RTS failure.
    FinalRtsFailed,
    /// The frame was given up at the retry limit after a data failure.
    FinalDataFailed,
}

/// A rate-control algorithm: `select` picks the mode of each attempt (so a multi-rate retry
/// chain can change rate between retries), `report` hears each outcome. `Station` is the
/// state the algorithm keeps per peer (in the MAC's station table).
pub trait RateControl {
    type Station: Clone + Copy + std::fmt::Debug + PartialEq;
    /// The state of a peer never sent to.
    fn station(&self) -> Self::Station;
    /// The mode of attempt `attempt` (0 for the first transmission) of the data frame at the
    /// head of queue `queue` (a retry chain belongs to its frame, and a peer may have one frame
    /// in each access category's queue).
    fn select(&self, st: &mut Self::Station, queue: usize, attempt: u32, now: SimTime) -> ModeId;
    /// The outcome of the last attempt of the frame at the head of `queue`.
    fn report(&self, st: &mut Self::Station, queue: usize, report: TxReport, now: SimTime);
}

/// Names accepted in configurations, in the order of [`RateAlgo::parse`]; Python reads this
/// table (`airtcp._core.tables()`).
pub const NAMES: &[&str] = &["constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800"];

/// The rate-control algorithm of a channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RateAlgo {
    Constant(constant::Constant),
    Arf(arf::Arf),
    Minstrel(minstrel::Minstrel),
}

/// Per-peer state of the algorithm, one variant per [`RateAlgo`] variant. Large states live
/// in the [`RateArena`] and are made at a peer's first frame, so that the station table stays
/// small for the pairs that never exchange data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateStation {
    Constant(<constant::Constant as RateControl>::Station),
    Arf(arf::ArfStation),
    /// Index into [`RateArena`]'s Minstrel states; `u32::MAX` before the first frame.
    Minstrel(u32),
}

/// The per-peer states too large for the station table, and what makes them.
#[derive(Clone, Debug, Default)]
pub struct RateArena {
    minstrel: Vec<minstrel::MinstrelStation>,
    /// The run's seed and each node's entity id: a peer's random state is drawn from its own
    /// stream, keyed by (sender, peer), so adding a node perturbs no other peer.
    pub seed: u64,
    pub entities: Vec<u64>,
}

impl RateArena {
    /// The Minstrel state of index `i`.
    pub fn minstrel(&self, i: u32) -> &minstrel::MinstrelStation {
        &self.minstrel[i as usize]
    }
}

impl RateAlgo {
    /// The algorithm called `name` on `standard`; `data_mode` is the configured data mode
    /// (the one `constant` uses). The adaptive algorithms climb the standard's modes.
    pub fn parse(name: &str, standard: Standard, timing: &PhyTiming, data_mode: ModeId) -> Option<RateAlgo> {
        // QualNet's ARF climbs by rate; ns-3's managers climb their station's mode list.
        let arf = |params| RateAlgo::Arf(arf::Arf { ladder: standard.modes(), params });
        let arf_ns3 = |params| RateAlgo::Arf(arf::Arf { ladder: standard.modes_by_class(), params });
        let minstrel = |params| RateAlgo::Minstrel(minstrel::Minstrel::new(standard, timing, params));
        match name {
            "minstrel" => Some(minstrel(minstrel::MinstrelParams::MRR)),
            "minstrel-rt2800" => Some(minstrel(minstrel::MinstrelParams::RT2800)),
            "constant" => Some(RateAlgo::Constant(constant::Constant { mode: data_mode })),
            "arf" => Some(arf(arf::ArfParams::QUALNET)),
            "arf-ns3" => Some(arf_ns3(arf::ArfParams::NS3)),
            "aarf" => Some(arf_ns3(arf::ArfParams::AARF_NS3)),
            _ => None,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            RateAlgo::Constant(_) => "constant",
            RateAlgo::Arf(a) => match (a.params.adaptive, a.params.timer) {
                (Some(_), _) => "aarf",
                (None, arf::ArfTimer::Time(_)) => "arf",
                (None, arf::ArfTimer::Attempts(_)) => "arf-ns3",
            },
            RateAlgo::Minstrel(m) if m.params.mrr => "minstrel",
            RateAlgo::Minstrel(_) => "minstrel-rt2800",
        }
    }

    /// The state of a peer never sent to.
    pub fn station(&self) -> RateStation {
        match self {
            RateAlgo::Constant(a) => RateStation::Constant(a.station()),
            RateAlgo::Arf(a) => RateStation::Arf(a.station()),
            RateAlgo::Minstrel(_) => RateStation::Minstrel(u32::MAX),
        }
    }

    /// The mode a peer starts at.
    pub fn initial_mode(&self) -> ModeId {
        match self {
            RateAlgo::Constant(a) => a.mode,
            RateAlgo::Arf(a) => a.ladder[0],
            RateAlgo::Minstrel(m) => m.modes[0],
        }
    }

    /// The mode of attempt `attempt` of `node`'s frame to `peer` (node indices, for the keys
    /// of a state made now).
    #[inline]
    pub fn select(
        &self,
        st: &mut RateStation,
        arena: &mut RateArena,
        (node, peer, queue): (usize, usize, usize),
        attempt: u32,
        now: SimTime,
    ) -> ModeId {
        match (self, st) {
            (RateAlgo::Constant(a), RateStation::Constant(s)) => a.select(s, queue, attempt, now),
            (RateAlgo::Arf(a), RateStation::Arf(s)) => a.select(s, queue, attempt, now),
            (RateAlgo::Minstrel(m), RateStation::Minstrel(i)) => {
                if *i == u32::MAX {
                    let e = |k: usize| arena.entities.get(k).copied().unwrap_or(k as u64);
                    let key = mix64(e(node) ^ mix64(e(peer)));
                    let mut rng = Stream::derive(arena.seed, key, Purpose::RateControl);
                    arena.minstrel.push(m.new_station(&mut rng, now));
                    *i = (arena.minstrel.len() - 1) as u32;
                }
                m.select(&mut arena.minstrel[*i as usize], queue, attempt, now)
            }
            _ => unreachable!("a station's rate state is made by its channel's algorithm"),
        }
    }

    /// Attempts the frame just started may take, when the algorithm's retry chain decides it
    /// (Minstrel on multi-rate-retry hardware: the sum of its stages' tries); `None`: the
    /// MAC's retry limits.
    #[inline]
    pub fn frame_attempts(&self, st: &RateStation, arena: &RateArena, queue: usize) -> Option<u8> {
        match (self, st) {
            (RateAlgo::Minstrel(m), RateStation::Minstrel(i)) if m.params.mrr => {
                let f = &arena.minstrel.get(*i as usize)?.frames[queue];
                Some(
                    f.chain[..usize::from(f.chain_len)].iter().map(|&(_, c)| c).fold(0u8, u8::saturating_add),
                )
            }
            _ => None,
        }
    }

    #[inline]
    pub fn report(
        &self,
        st: &mut RateStation,
        arena: &mut RateArena,
        queue: usize,
        report: TxReport,
        now: SimTime,
    ) {
        match (self, st) {
            (RateAlgo::Constant(a), RateStation::Constant(s)) => a.report(s, queue, report, now),
            (RateAlgo::Arf(a), RateStation::Arf(s)) => a.report(s, queue, report, now),
            (RateAlgo::Minstrel(m), RateStation::Minstrel(i)) => {
                if let Some(s) = arena.minstrel.get_mut(*i as usize) {
                    m.report(s, queue, report, now);
                }
            }
            _ => unreachable!("a station's rate state is made by its channel's algorithm"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_to_its_algorithm() {
        let mode = crate::phy::modes::OFDM_6;
        let t = PhyTiming::of(Standard::A, false);
        for name in NAMES {
            assert_eq!(RateAlgo::parse(name, Standard::A, &t, mode).map(|a| a.name()), Some(*name));
        }
        assert!(RateAlgo::parse("minstrel-typo", Standard::A, &t, mode).is_none());
    }
}
