//! Rate control: the mode each attempt of a data frame is sent at, and what the algorithm
//! learns from each outcome. The seam follows ns-3's `WifiRemoteStationManager`
//! (`DoGetDataTxVector`; `DoReportRtsFailed`, `DoReportDataFailed`, `DoReportRtsOk`,
//! `DoReportDataOk`, `DoReportFinalRtsFailed`, `DoReportFinalDataFailed`) and Linux's
//! `rate_control_ops` (`get_rate`, `tx_status`), without the inheritance: an algorithm is a
//! [`RateControl`] with its own per-station state, kept in the MAC's station table, and the
//! MAC calls it through the [`RateAlgo`] enum (no dynamic dispatch per frame).

pub mod agent;
pub mod arf;
pub mod ath9k;
pub mod constant;
pub mod minstrel;
pub mod minstrel_ht;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::phy::{HtConfig, ModeId, PhyTiming, Standard};
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
    /// An A-MPDU's PPDU ended (802.11n, once per PPDU as Linux reports it): sent `attempts`
    /// times, answered by a BlockAck (`block_ack`) or given up by the hardware; of its `mpdus`
    /// MPDUs `acked` were acknowledged, `completed` left the queue (acknowledged or given up),
    /// and `first_acked` says whether its first MPDU was acknowledged (ath9k's status rides on
    /// it).
    Ppdu { attempts: u32, block_ack: bool, mpdus: u8, acked: u8, completed: u8, first_acked: bool },
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
pub const NAMES: &[&str] =
    &["constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "minstrel-ht", "ath9k", "agent"];

/// The algorithms that run on 802.11n's HT modes (the ARF family and legacy Minstrel climb the
/// channel's HT ladder).
pub const HT_NAMES: &[&str] =
    &["constant", "arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "minstrel-ht", "ath9k", "agent"];

/// The rate-control algorithm of a channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RateAlgo {
    Constant(constant::Constant),
    Arf(arf::Arf),
    Minstrel(minstrel::Minstrel),
    /// Minstrel-HT (shared by every MAC of a BSS with this HT configuration).
    MinstrelHt(&'static minstrel_ht::MinstrelHt),
    /// ath9k's rate control, its peers' capabilities, and whether frames go in A-MPDUs (its
    /// series' last stage depends on it).
    Ath9k(&'static ath9k::Ath9kRc, HtConfig, bool),
    /// Set by an outside agent per peer (`airtcp.gym`).
    Agent(agent::Agent),
}

/// Per BSS configuration, one Minstrel-HT and one ath9k table: made once, shared by every
/// world (their tables depend only on the configuration), so the algorithm stays a small
/// `Copy` value in each MAC.
fn shared<T: Send + Sync + 'static>(
    cache: &'static OnceLock<Mutex<HashMap<HtConfig, &'static T>>>,
    cfg: HtConfig,
    make: impl FnOnce() -> T,
) -> &'static T {
    let mut map = cache.get_or_init(|| Mutex::new(HashMap::new())).lock().expect("rate table cache");
    map.entry(cfg).or_insert_with(|| Box::leak(Box::new(make())))
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
    /// Index into [`RateArena`]'s Minstrel-HT states; `u32::MAX` before the first frame.
    MinstrelHt(u32),
    /// Index into [`RateArena`]'s ath9k states; `u32::MAX` before the first frame.
    Ath9k(u32),
    /// The mode the agent set.
    Agent(ModeId),
}

/// An HT algorithm's state for one peer, with the retry series of the PPDU each queue has on
/// its way (the series a status is reported against).
#[derive(Clone, Copy, Debug)]
pub struct HtRateState<S, R> {
    pub st: S,
    pub series: [Option<R>; crate::mac::AC_COUNT],
}

/// The per-peer states too large for the station table, and what makes them.
#[derive(Clone, Debug, Default)]
pub struct RateArena {
    minstrel: Vec<minstrel::MinstrelStation>,
    minstrel_ht: Vec<HtRateState<minstrel_ht::MinstrelHtStation, minstrel_ht::RateSeries>>,
    ath9k: Vec<HtRateState<ath9k::Ath9kStation, ath9k::RateSeries>>,
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
        if let Some(cfg) = standard.ht() {
            return Self::parse_ht(name, cfg, timing, data_mode, true);
        }
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
            "agent" => Some(RateAlgo::Agent(agent::Agent { ladder: standard.modes() })),
            _ => None,
        }
    }

    /// The algorithm called `name` on an 802.11n BSS of configuration `cfg`; `ampdu`: frames
    /// go in A-MPDUs. The ARF family climbs the channel's HT ladder (`Standard::ht_ladder`).
    pub fn parse_ht(
        name: &str,
        cfg: HtConfig,
        timing: &PhyTiming,
        data_mode: ModeId,
        ampdu: bool,
    ) -> Option<RateAlgo> {
        static MINSTREL_HT: OnceLock<Mutex<HashMap<HtConfig, &'static minstrel_ht::MinstrelHt>>> =
            OnceLock::new();
        static ATH9K: OnceLock<Mutex<HashMap<HtConfig, &'static ath9k::Ath9kRc>>> = OnceLock::new();
        let ladder = Standard::N(cfg).ht_ladder();
        match name {
            "constant" => Some(RateAlgo::Constant(constant::Constant { mode: data_mode })),
            "arf" => Some(RateAlgo::Arf(arf::Arf { ladder, params: arf::ArfParams::QUALNET })),
            "arf-ns3" => Some(RateAlgo::Arf(arf::Arf { ladder, params: arf::ArfParams::NS3 })),
            "aarf" => Some(RateAlgo::Arf(arf::Arf { ladder, params: arf::ArfParams::AARF_NS3 })),
            "minstrel" => Some(RateAlgo::Minstrel(minstrel::Minstrel::new(
                Standard::N(cfg),
                timing,
                minstrel::MinstrelParams::MRR,
            ))),
            "minstrel-rt2800" => Some(RateAlgo::Minstrel(minstrel::Minstrel::new(
                Standard::N(cfg),
                timing,
                minstrel::MinstrelParams::RT2800,
            ))),
            "minstrel-ht" => Some(RateAlgo::MinstrelHt(shared(&MINSTREL_HT, cfg, || {
                minstrel_ht::MinstrelHt::new(cfg, timing)
            }))),
            "ath9k" => {
                let key = HtConfig { width40: false, sgi: false, streams: 1, ..cfg }; // per band
                Some(RateAlgo::Ath9k(shared(&ATH9K, key, || ath9k::Ath9kRc::new(cfg.band)), cfg, ampdu))
            }
            "agent" => Some(RateAlgo::Agent(agent::Agent { ladder })),
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
            RateAlgo::MinstrelHt(_) => "minstrel-ht",
            RateAlgo::Ath9k(..) => "ath9k",
            RateAlgo::Agent(_) => "agent",
        }
    }

    /// The state of a peer never sent to.
    pub fn station(&self) -> RateStation {
        match self {
            RateAlgo::Constant(a) => RateStation::Constant(a.station()),
            RateAlgo::Arf(a) => RateStation::Arf(a.station()),
            RateAlgo::Minstrel(_) => RateStation::Minstrel(u32::MAX),
            RateAlgo::MinstrelHt(_) => RateStation::MinstrelHt(u32::MAX),
            RateAlgo::Ath9k(..) => RateStation::Ath9k(u32::MAX),
            RateAlgo::Agent(a) => RateStation::Agent(a.station()),
        }
    }

    /// The mode a peer starts at.
    pub fn initial_mode(&self) -> ModeId {
        match self {
            RateAlgo::Constant(a) => a.mode,
            RateAlgo::Arf(a) => a.ladder[0],
            RateAlgo::Agent(a) => a.ladder[0],
            RateAlgo::Minstrel(m) => m.modes[0],
            RateAlgo::MinstrelHt(m) => m.mode(0),
            RateAlgo::Ath9k(a, cfg, _) => {
                a.valid_modes(&a.new_station(*cfg, SimTime::ZERO)).next().expect("a valid rate")
            }
        }
    }

    /// Whether the PPDU the last `select` of attempt 0 started must carry one MPDU alone (a
    /// probe of Minstrel-HT or ath9k, or ath9k's series with a legacy rate: `ath_lookup_rate`).
    pub fn single_mpdu(&self, st: &RateStation, arena: &RateArena, queue: usize) -> bool {
        match (self, st) {
            (RateAlgo::MinstrelHt(_), RateStation::MinstrelHt(i)) => {
                arena.minstrel_ht.get(*i as usize).and_then(|s| s.series[queue]).is_some_and(|r| r.probe)
            }
            (RateAlgo::Ath9k(..), RateStation::Ath9k(i)) => {
                arena.ath9k.get(*i as usize).and_then(|s| s.series[queue]).is_some_and(|r| !r.aggregable())
            }
            _ => false,
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
            (RateAlgo::Agent(a), RateStation::Agent(s)) => a.select(s, queue, attempt, now),
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
            (RateAlgo::MinstrelHt(m), RateStation::MinstrelHt(i)) => {
                if *i == u32::MAX {
                    let e = |k: usize| arena.entities.get(k).copied().unwrap_or(k as u64);
                    let key = mix64(e(node) ^ mix64(e(peer)));
                    let mut rng = Stream::derive(arena.seed, key, Purpose::RateControl);
                    let st = m.new_station(&mut rng, now);
                    arena.minstrel_ht.push(HtRateState { st, series: [None; crate::mac::AC_COUNT] });
                    *i = (arena.minstrel_ht.len() - 1) as u32;
                }
                let s = &mut arena.minstrel_ht[*i as usize];
                if attempt == 0 || s.series[queue].is_none() {
                    s.series[queue] = Some(m.get_rates(&mut s.st, now));
                }
                // The stage attempt `attempt` falls in (tries without RTS/CTS), else the last.
                let series = s.series[queue].expect("set");
                let mut left = attempt;
                for e in series.stages() {
                    if left < u32::from(e.tries) {
                        return e.mode;
                    }
                    left -= u32::from(e.tries);
                }
                series.stages().last().map_or(m.mode(0), |e| e.mode)
            }
            (RateAlgo::Ath9k(a, cfg, ampdu), RateStation::Ath9k(i)) => {
                if *i == u32::MAX {
                    let st = a.new_station(*cfg, now);
                    arena.ath9k.push(HtRateState { st, series: [None; crate::mac::AC_COUNT] });
                    *i = (arena.ath9k.len() - 1) as u32;
                }
                let s = &mut arena.ath9k[*i as usize];
                if attempt == 0 || s.series[queue].is_none() {
                    let in_session = *ampdu && s.st.ba_session;
                    s.series[queue] = Some(a.get_rate(&mut s.st, in_session, now));
                }
                let series = s.series[queue].expect("set");
                let k = series
                    .index_of_attempt(attempt)
                    .unwrap_or_else(|| series.entries.iter().rposition(|e| e.tries > 0).unwrap_or(0));
                series.entries[k].mode
            }
            _ => unreachable!("a station's rate state is made by its channel's algorithm"),
        }
    }

    /// Attempts the frame just started may take, when the algorithm's retry chain decides it
    /// (Minstrel on multi-rate-retry hardware: the sum of its stages' tries); `None`: the
    /// MAC's retry limits.
    #[inline]
    pub fn frame_attempts(&self, st: &RateStation, arena: &RateArena, queue: usize) -> Option<u8> {
        let clamp = |n: u32| Some(n.clamp(1, 255) as u8);
        match (self, st) {
            (RateAlgo::MinstrelHt(_), RateStation::MinstrelHt(i)) => {
                clamp(arena.minstrel_ht.get(*i as usize)?.series[queue]?.total_tries())
            }
            (RateAlgo::Ath9k(..), RateStation::Ath9k(i)) => {
                clamp(arena.ath9k.get(*i as usize)?.series[queue]?.total_tries())
            }
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
            (RateAlgo::Agent(a), RateStation::Agent(s)) => a.report(s, queue, report, now),
            (RateAlgo::Arf(a), RateStation::Arf(s)) => a.report(s, queue, report, now),
            (RateAlgo::Minstrel(m), RateStation::Minstrel(i)) => {
                if let Some(s) = arena.minstrel.get_mut(*i as usize) {
                    m.report(s, queue, report, now);
                }
            }
            (RateAlgo::MinstrelHt(m), RateStation::MinstrelHt(i)) => {
                // Linux hears of a PPDU once, at its end (`minstrel_ht_tx_status`); a single
                // frame's end is its ACK or its last try.
                let Some(s) = arena.minstrel_ht.get_mut(*i as usize) else { return };
                let Some(TxReport::Ppdu { attempts, block_ack, mpdus, acked, .. }) =
                    single_frame_end(report, s.series[queue].map(|r| r.total_tries()))
                else {
                    return;
                };
                let Some(series) = s.series[queue] else { return };
                let ampdu = (mpdus > 1 || !series.probe)
                    .then_some(minstrel_ht::AmpduStatus { len: mpdus, ack_len: acked });
                let status = minstrel_ht::HtTxStatus::from_attempts(
                    &series,
                    attempts,
                    false,
                    block_ack && acked > 0,
                    ampdu,
                );
                m.tx_status(&mut s.st, &status, now);
            }
            (RateAlgo::Ath9k(a, ..), RateStation::Ath9k(i)) => {
                let Some(s) = arena.ath9k.get_mut(*i as usize) else { return };
                let Some(TxReport::Ppdu { attempts, mpdus, acked, completed, first_acked, .. }) =
                    single_frame_end(report, s.series[queue].map(|r| r.total_tries()))
                else {
                    return;
                };
                // ath9k reports an A-MPDU on the first of its MPDUs to complete; one whose
                // MPDUs all went back for another try reports nothing (xmit.c 3.2).
                let Some(series) = s.series[queue] else { return };
                if completed == 0 {
                    return;
                }
                let status =
                    ath9k::Ath9kTxStatus::after_attempts(series, attempts, first_acked, mpdus, mpdus - acked);
                a.tx_status(&mut s.st, &status, now);
            }
            _ => unreachable!("a station's rate state is made by its channel's algorithm"),
        }
    }
}

/// A report as a PPDU's end, for the algorithms that hear of each PPDU once: an A-MPDU's
/// [`TxReport::Ppdu`] as it is; a single frame's ACK after `retries` retransmissions, or its
/// last failed try (`tries` attempts, its series'), as a one-MPDU PPDU; `None` for a failed
/// attempt that will be retried, or an RTS outcome.
fn single_frame_end(report: TxReport, tries: Option<u32>) -> Option<TxReport> {
    let one = |attempts: u32, ok: bool| TxReport::Ppdu {
        attempts,
        block_ack: ok,
        mpdus: 1,
        acked: u8::from(ok),
        completed: 1,
        first_acked: ok,
    };
    match report {
        TxReport::Ppdu { .. } => Some(report),
        TxReport::DataOk { retries } => Some(one(retries + 1, true)),
        TxReport::FinalDataFailed | TxReport::FinalRtsFailed => Some(one(tries.unwrap_or(1), false)),
        TxReport::DataFailed | TxReport::RtsFailed | TxReport::RtsOk => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_to_its_algorithm() {
        let mode = crate::phy::modes::OFDM_6;
        let t = PhyTiming::of(Standard::A, false);
        for name in NAMES.iter().filter(|n| !["minstrel-ht", "ath9k"].contains(n)) {
            assert_eq!(RateAlgo::parse(name, Standard::A, &t, mode).map(|a| a.name()), Some(*name));
        }
        assert!(RateAlgo::parse("minstrel-typo", Standard::A, &t, mode).is_none());
        // 802.11n: the ARF family climbs the HT ladder; legacy Minstrel does not run there.
        let n = Standard::N(HtConfig::default());
        for name in HT_NAMES {
            assert_eq!(RateAlgo::parse(name, n, &t, mode).map(|a| a.name()), Some(*name));
        }
        assert!(RateAlgo::parse("minstrel-ht", Standard::A, &t, mode).is_none());
        let Some(RateAlgo::Arf(a)) = RateAlgo::parse("arf", n, &t, mode) else { panic!("arf") };
        assert_eq!(a.ladder, n.ht_ladder());
    }

    #[test]
    fn the_ht_ladder_climbs_by_rate_once_per_rate() {
        use crate::phy::Band;
        // 20 MHz, two streams, long GI: MCS 0-15 by rate, 13, 26, 39, 52 Mbit/s once each
        // (at MCS 1, 3, 4 and 5, not at the two-stream MCS 8-11).
        let n = Standard::N(HtConfig { band: Band::Ghz5, width40: false, sgi: false, streams: 2 });
        let rates: Vec<u32> = n.ht_ladder().iter().map(|m| m.rate_kbps()).collect();
        assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
        assert_eq!(rates.first(), Some(&6_500));
        assert_eq!(rates.last(), Some(&130_000));
        assert_eq!(n.ht_ladder()[1], ModeId::ht(1, false, false).unwrap());
    }
}
