//! Rate control: the mode each attempt of a data frame is sent at, and what the algorithm
//! learns from each outcome. The seam follows ns-3's `WifiRemoteStationManager`
//! (`DoGetDataTxVector`; `DoReportRtsFailed`, `DoReportDataFailed`, `DoReportRtsOk`,
//! `DoReportDataOk`, `DoReportFinalRtsFailed`, `DoReportFinalDataFailed`) and Linux's
//! `rate_control_ops` (`get_rate`, `tx_status`), without the inheritance: an algorithm is a
//! [`RateControl`] with its own per-station state, and the MAC calls it through the
//! [`RateAlgo`] enum (no dynamic dispatch per frame). The algorithm owns the dispatch: the
//! station table keeps a kindless [`RateSlot`] per peer, which only the MAC's algorithm reads,
//! and the per-peer states and the HT algorithms' tables are the world's ([`RateArena`], made
//! with its MACs): a run keeps no state outside its world.

pub mod agent;
pub mod arf;
pub mod ath9k;
pub mod constant;
pub mod minstrel;
pub mod minstrel_ht;

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
    Ppdu { attempts: u32, block_ack: bool, mpdus: u16, acked: u16, completed: u16, first_acked: bool },
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

crate::names::names! {
    /// A rate-control algorithm as configurations name it ([`RateAlgo::parse`]).
    pub enum RateName {
        Constant = "constant",
        Arf = "arf",
        ArfNs3 = "arf-ns3",
        Aarf = "aarf",
        Minstrel = "minstrel",
        MinstrelRt2800 = "minstrel-rt2800",
        MinstrelHt = "minstrel-ht",
        Ath9k = "ath9k",
        Agent = "agent",
    }
}

impl RateName {
    /// Whether it runs only on the MCS groups of its Linux source (Minstrel-HT: 802.11n and
    /// 802.11ac; ath9k's: 802.11n).
    pub fn ht_only(self) -> bool {
        matches!(self, RateName::MinstrelHt | RateName::Ath9k)
    }

    /// Whether it runs on `standard`: every algorithm but Minstrel-HT and ath9k's everywhere;
    /// Minstrel-HT on 802.11n and 802.11ac (Linux's `rc80211_minstrel_ht.c` has HT and VHT
    /// groups, no HE group); ath9k's on 802.11n only.
    pub fn runs_on(self, standard: Standard) -> bool {
        match self {
            RateName::MinstrelHt => matches!(standard, Standard::N(_) | Standard::Ac(_)),
            RateName::Ath9k => matches!(standard, Standard::N(_)),
            _ => true,
        }
    }
}

/// Names accepted in configurations; Python reads this table (`airtcp._core.tables()`).
pub const NAMES: &[&str] = RateName::NAMES;

/// The algorithms that run on 802.11n's HT modes: all of them (the ARF family and legacy
/// Minstrel climb the channel's HT ladder).
pub const HT_NAMES: &[&str] = RateName::NAMES;

/// The rate-control algorithm of a channel: a small `Copy` value in each MAC. Per peer it keeps
/// one [`RateSlot`] in the station table; the states the slots name, and the HT algorithms'
/// tables, are the world's ([`RateArena`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RateAlgo {
    Constant(constant::Constant),
    Arf(arf::Arf),
    Minstrel(minstrel::Minstrel),
    /// Minstrel-HT on a BSS of this HT or VHT configuration (every peer alike); its table is
    /// made once per world, in the [`RateArena`].
    MinstrelHt(minstrel_ht::MinstrelPeers),
    /// ath9k's rate control: its peers' capabilities, and whether frames go in A-MPDUs (its
    /// series' last stage depends on it); the band's table is made once per world, in the
    /// [`RateArena`].
    Ath9k(HtConfig, bool),
    /// Set by an outside agent per peer (`airtcp.gym`).
    Agent(agent::Agent),
}

/// A peer's rate-control state as the station table keeps it: the index of its state among
/// the [`RateArena`]'s states of the MAC's algorithm, made by that algorithm at the peer's
/// first frame (mac80211 allocates it with the station, `rate_control_alloc_sta`; here
/// lazily, so that the pairs that never exchange data keep nothing). A slot names no kind:
/// only the MAC's own [`RateAlgo`] reads it, so no state can meet another algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateSlot(u32);

impl RateSlot {
    /// A peer never sent to (constant rate keeps it so: it has no state).
    pub const NEW: RateSlot = RateSlot(u32::MAX);
}

/// An HT algorithm's state for one peer, with the retry series of the PPDU each queue has on
/// its way (the series a status is reported against).
#[derive(Clone, Copy, Debug)]
pub struct HtRateState<S, R> {
    pub st: S,
    pub series: [Option<R>; crate::mac::AC_COUNT],
}

/// The tables of the HT algorithms a world's MACs run, made once when its MACs are
/// ([`RateArena::new`]) and owned by it: nothing is shared between worlds, nothing outlives
/// one. Minstrel-HT's groups and durations for the channel's HT configuration
/// (`minstrel_ht_alloc`, `minstrel_ht_update_caps`); ath9k's rate table of its band
/// (`ath_choose_rate_table`).
#[derive(Clone, Debug, Default)]
pub struct RateTables {
    minstrel_ht: Option<minstrel_ht::MinstrelHt>,
    ath9k: Option<ath9k::Ath9kRc>,
}

impl RateTables {
    /// Minstrel-HT's table, if a MAC of the world runs it.
    pub fn minstrel_ht(&self) -> Option<&minstrel_ht::MinstrelHt> {
        self.minstrel_ht.as_ref()
    }

    /// ath9k's table, if a MAC of the world runs it.
    pub fn ath9k(&self) -> Option<&ath9k::Ath9kRc> {
        self.ath9k.as_ref()
    }
}

/// The world's rate state: the HT algorithms' tables, and the per-peer states of every MAC,
/// one list per algorithm (a [`RateSlot`] indexes its MAC's algorithm's list).
#[derive(Clone, Debug, Default)]
pub struct RateArena {
    tables: RateTables,
    arf: Vec<arf::ArfStation>,
    agent: Vec<ModeId>,
    minstrel: Vec<minstrel::MinstrelStation>,
    minstrel_ht: Vec<HtRateState<minstrel_ht::MinstrelHtStation, minstrel_ht::RateSeries>>,
    ath9k: Vec<HtRateState<ath9k::Ath9kStation, ath9k::RateSeries>>,
    /// The run's seed and each node's entity id: a peer's random state is drawn from its own
    /// stream, keyed by (sender, peer), so adding a node perturbs no other peer.
    pub seed: u64,
    pub entities: Vec<u64>,
}

impl RateArena {
    /// The rate state of a world whose MACs run `algos` on a channel of timing `timing`: the
    /// tables of the HT algorithms among them, and no peer state yet.
    pub fn new<'a>(timing: &PhyTiming, algos: impl IntoIterator<Item = &'a RateAlgo>) -> RateArena {
        let mut tables = RateTables::default();
        for algo in algos {
            match *algo {
                RateAlgo::MinstrelHt(peers) => {
                    let t = tables.minstrel_ht.get_or_insert_with(|| match peers {
                        minstrel_ht::MinstrelPeers::Ht(cfg) => minstrel_ht::MinstrelHt::new(cfg, timing),
                        minstrel_ht::MinstrelPeers::Vht(cfg) => minstrel_ht::MinstrelHt::new_vht(cfg, timing),
                    });
                    assert_eq!(t.peers, peers, "a channel has one HT or VHT configuration");
                }
                RateAlgo::Ath9k(cfg, _) => {
                    let t = tables.ath9k.get_or_insert_with(|| ath9k::Ath9kRc::new(cfg.band));
                    assert_eq!(t.band, cfg.band, "a channel has one band");
                }
                RateAlgo::Constant(_) | RateAlgo::Arf(_) | RateAlgo::Minstrel(_) | RateAlgo::Agent(_) => {}
            }
        }
        RateArena { tables, ..RateArena::default() }
    }

    /// The HT algorithms' tables.
    pub fn tables(&self) -> &RateTables {
        &self.tables
    }

    /// The Minstrel state of a peer, if it has one.
    pub fn minstrel(&self, slot: RateSlot) -> Option<&minstrel::MinstrelStation> {
        self.minstrel.get(slot.0 as usize)
    }

    /// States made so far: ARF's, the agent's, Minstrel's, Minstrel-HT's, ath9k's.
    #[cfg(test)]
    fn made(&self) -> [usize; 5] {
        [self.arf.len(), self.agent.len(), self.minstrel.len(), self.minstrel_ht.len(), self.ath9k.len()]
    }

    /// The random stream of `node`'s state for `peer` (node indices).
    fn peer_rng(seed: u64, entities: &[u64], node: usize, peer: usize) -> Stream {
        let e = |k: usize| entities.get(k).copied().unwrap_or(k as u64);
        Stream::derive(seed, mix64(e(node) ^ mix64(e(peer))), Purpose::RateControl)
    }
}

/// The state `slot` names in `states`, made by `make` if the peer has none yet.
#[inline]
fn made<'a, S>(states: &'a mut Vec<S>, slot: &mut RateSlot, make: impl FnOnce() -> S) -> &'a mut S {
    if *slot == RateSlot::NEW {
        states.push(make());
        *slot = RateSlot((states.len() - 1) as u32);
    }
    &mut states[slot.0 as usize]
}

const NO_TABLE: &str = "RateArena::new makes the table of every algorithm the MACs run";

impl RateAlgo {
    /// The algorithm called `name` on `standard`; `data_mode` is the configured data mode
    /// (the one `constant` uses). The adaptive algorithms climb the standard's modes.
    /// None for an algorithm the standard does not run ([`RateName::runs_on`]).
    pub fn parse(
        name: RateName,
        standard: Standard,
        timing: &PhyTiming,
        data_mode: ModeId,
    ) -> Option<RateAlgo> {
        if let Some(cfg) = standard.ht() {
            return Some(Self::parse_ht(name, cfg, timing, data_mode, true));
        }
        if standard.high_throughput() {
            // 802.11ac and 802.11ax: the ARF family, Minstrel and the agent climb the VHT or
            // HE ladder of the channel's width, streams and guard interval; Minstrel-HT runs
            // its VHT groups on 802.11ac.
            let ladder = standard.ht_ladder();
            let arf = |params| RateAlgo::Arf(arf::Arf { ladder, params, start: 0 });
            let minstrel = |params| RateAlgo::Minstrel(minstrel::Minstrel::new(standard, timing, params));
            return match name {
                RateName::Constant => Some(RateAlgo::Constant(constant::Constant { mode: data_mode })),
                RateName::Arf => Some(arf(arf::ArfParams::QUALNET)),
                RateName::ArfNs3 => Some(arf(arf::ArfParams::NS3)),
                RateName::Aarf => Some(arf(arf::ArfParams::AARF_NS3)),
                RateName::Minstrel => Some(minstrel(minstrel::MinstrelParams::MRR)),
                RateName::MinstrelRt2800 => Some(minstrel(minstrel::MinstrelParams::RT2800)),
                RateName::Agent => Some(RateAlgo::Agent(agent::Agent { ladder, start: 0 })),
                RateName::MinstrelHt => match standard {
                    Standard::Ac(cfg) => Some(RateAlgo::MinstrelHt(minstrel_ht::MinstrelPeers::Vht(cfg))),
                    _ => None,
                },
                RateName::Ath9k => None,
            };
        }
        // QualNet's ARF climbs by rate; ns-3's managers climb their station's mode list.
        let arf = |params| RateAlgo::Arf(arf::Arf { ladder: standard.modes(), params, start: 0 });
        let arf_ns3 =
            |params| RateAlgo::Arf(arf::Arf { ladder: standard.modes_by_class(), params, start: 0 });
        let minstrel = |params| RateAlgo::Minstrel(minstrel::Minstrel::new(standard, timing, params));
        match name {
            RateName::Minstrel => Some(minstrel(minstrel::MinstrelParams::MRR)),
            RateName::MinstrelRt2800 => Some(minstrel(minstrel::MinstrelParams::RT2800)),
            RateName::Constant => Some(RateAlgo::Constant(constant::Constant { mode: data_mode })),
            RateName::Arf => Some(arf(arf::ArfParams::QUALNET)),
            RateName::ArfNs3 => Some(arf_ns3(arf::ArfParams::NS3)),
            RateName::Aarf => Some(arf_ns3(arf::ArfParams::AARF_NS3)),
            RateName::Agent => Some(RateAlgo::Agent(agent::Agent { ladder: standard.modes(), start: 0 })),
            RateName::MinstrelHt | RateName::Ath9k => None,
        }
    }

    /// The algorithm called `name` on an 802.11n BSS of configuration `cfg`; `ampdu`: frames
    /// go in A-MPDUs. The ARF family climbs the channel's HT ladder (`Standard::ht_ladder`).
    pub fn parse_ht(
        name: RateName,
        cfg: HtConfig,
        timing: &PhyTiming,
        data_mode: ModeId,
        ampdu: bool,
    ) -> RateAlgo {
        let ladder = Standard::N(cfg).ht_ladder();
        match name {
            RateName::Constant => RateAlgo::Constant(constant::Constant { mode: data_mode }),
            RateName::Arf => RateAlgo::Arf(arf::Arf { ladder, params: arf::ArfParams::QUALNET, start: 0 }),
            RateName::ArfNs3 => RateAlgo::Arf(arf::Arf { ladder, params: arf::ArfParams::NS3, start: 0 }),
            RateName::Aarf => RateAlgo::Arf(arf::Arf { ladder, params: arf::ArfParams::AARF_NS3, start: 0 }),
            RateName::Minstrel => RateAlgo::Minstrel(minstrel::Minstrel::new(
                Standard::N(cfg),
                timing,
                minstrel::MinstrelParams::MRR,
            )),
            RateName::MinstrelRt2800 => RateAlgo::Minstrel(minstrel::Minstrel::new(
                Standard::N(cfg),
                timing,
                minstrel::MinstrelParams::RT2800,
            )),
            RateName::MinstrelHt => RateAlgo::MinstrelHt(minstrel_ht::MinstrelPeers::Ht(cfg)),
            RateName::Ath9k => RateAlgo::Ath9k(cfg, ampdu),
            RateName::Agent => RateAlgo::Agent(agent::Agent { ladder, start: 0 }),
        }
    }

    /// The same algorithm with rt2800's tries reaching Minstrel as `status` says
    /// (`wifi.minstrel_status`); every other algorithm unchanged.
    pub fn with_minstrel_status(self, status: minstrel::MinstrelStatus) -> RateAlgo {
        match self {
            RateAlgo::Minstrel(mut m) if !m.params.mrr => {
                m.params.rt2x00_status = status == minstrel::MinstrelStatus::Rt2x00;
                RateAlgo::Minstrel(m)
            }
            other => other,
        }
    }

    /// The same algorithm with every peer starting at `mode` (`wifi.initial_rate_mbps`): ARF
    /// and AARF at its rung, Minstrel with it as its best throughput, the agent at it until it
    /// sets another; constant rate keeps its own mode. None if `mode` is not on the
    /// algorithm's ladder, and for Minstrel-HT and ath9k, which start from their own tables.
    pub fn starting_at(self, mode: ModeId) -> Option<RateAlgo> {
        let rung =
            |ladder: &[ModeId]| ladder.iter().position(|&m| m == mode).and_then(|i| u8::try_from(i).ok());
        Some(match self {
            RateAlgo::Constant(_) => self,
            RateAlgo::Arf(a) => RateAlgo::Arf(arf::Arf { start: rung(a.ladder)?, ..a }),
            RateAlgo::Agent(a) => RateAlgo::Agent(agent::Agent { start: rung(a.ladder)?, ..a }),
            RateAlgo::Minstrel(m) => RateAlgo::Minstrel(m.starting_at(mode)?),
            RateAlgo::MinstrelHt(_) | RateAlgo::Ath9k(..) => return None,
        })
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

    /// The slot of a peer never sent to: its state is made at its first frame.
    pub fn station(&self) -> RateSlot {
        RateSlot::NEW
    }

    /// The mode a peer starts at.
    pub fn initial_mode(&self) -> ModeId {
        match self {
            RateAlgo::Constant(a) => a.mode,
            RateAlgo::Arf(a) => a.ladder[usize::from(a.start)],
            RateAlgo::Agent(a) => a.ladder[usize::from(a.start)],
            RateAlgo::Minstrel(m) => m.start_mode(),
            RateAlgo::MinstrelHt(peers) => minstrel_ht::MinstrelHt::mode_of(peers.first_rate()),
            RateAlgo::Ath9k(cfg, _) => {
                // The table is a function of the band: made here for the first valid rate.
                let a = ath9k::Ath9kRc::new(cfg.band);
                let st = a.new_station(*cfg, SimTime::ZERO);
                let first = a.valid_modes(&st).next().expect("a valid rate");
                first
            }
        }
    }

    /// Whether the PPDU the last `select` of attempt 0 started must carry one MPDU alone (a
    /// probe of Minstrel-HT or ath9k, or ath9k's series with a legacy rate: `ath_lookup_rate`).
    pub fn single_mpdu(&self, st: &RateSlot, arena: &RateArena, queue: usize) -> bool {
        let i = st.0 as usize;
        match self {
            RateAlgo::MinstrelHt(_) => {
                arena.minstrel_ht.get(i).and_then(|s| s.series[queue]).is_some_and(|r| r.probe)
            }
            RateAlgo::Ath9k(..) => {
                arena.ath9k.get(i).and_then(|s| s.series[queue]).is_some_and(|r| !r.aggregable())
            }
            RateAlgo::Constant(_) | RateAlgo::Arf(_) | RateAlgo::Minstrel(_) | RateAlgo::Agent(_) => false,
        }
    }

    /// The mode of attempt `attempt` of `node`'s frame to `peer` (node indices, for the keys
    /// of a state made now).
    #[inline]
    pub fn select(
        &self,
        st: &mut RateSlot,
        arena: &mut RateArena,
        (node, peer, queue): (usize, usize, usize),
        attempt: u32,
        now: SimTime,
    ) -> ModeId {
        match self {
            RateAlgo::Constant(a) => a.select(&mut constant::Stateless, queue, attempt, now),
            RateAlgo::Agent(a) => a.select(made(&mut arena.agent, st, || a.station()), queue, attempt, now),
            RateAlgo::Arf(a) => a.select(made(&mut arena.arf, st, || a.station()), queue, attempt, now),
            RateAlgo::Minstrel(m) => {
                let (seed, entities) = (arena.seed, &arena.entities);
                let s = made(&mut arena.minstrel, st, || {
                    m.new_station(&mut RateArena::peer_rng(seed, entities, node, peer), now)
                });
                m.select(s, queue, attempt, now)
            }
            RateAlgo::MinstrelHt(_) => {
                let m = arena.tables.minstrel_ht.as_ref().expect(NO_TABLE);
                let (seed, entities) = (arena.seed, &arena.entities);
                let s = made(&mut arena.minstrel_ht, st, || {
                    let st = m.new_station(&mut RateArena::peer_rng(seed, entities, node, peer), now);
                    HtRateState { st, series: [None; crate::mac::AC_COUNT] }
                });
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
                series.stages().last().map_or(m.mode(m.peers.first_rate()), |e| e.mode)
            }
            RateAlgo::Ath9k(cfg, ampdu) => {
                let a = arena.tables.ath9k.as_ref().expect(NO_TABLE);
                let s = made(&mut arena.ath9k, st, || HtRateState {
                    st: a.new_station(*cfg, now),
                    series: [None; crate::mac::AC_COUNT],
                });
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
        }
    }

    /// Attempts the frame just started may take, when the algorithm's retry chain decides it
    /// (Minstrel on multi-rate-retry hardware: the sum of its stages' tries); `None`: the
    /// MAC's retry limits.
    #[inline]
    pub fn frame_attempts(&self, st: &RateSlot, arena: &RateArena, queue: usize) -> Option<u8> {
        let clamp = |n: u32| Some(n.clamp(1, 255) as u8);
        let i = st.0 as usize;
        match self {
            RateAlgo::MinstrelHt(_) => clamp(arena.minstrel_ht.get(i)?.series[queue]?.total_tries()),
            RateAlgo::Ath9k(..) => clamp(arena.ath9k.get(i)?.series[queue]?.total_tries()),
            RateAlgo::Minstrel(m) if m.params.mrr => {
                let f = &arena.minstrel.get(i)?.frames[queue];
                Some(
                    f.chain[..usize::from(f.chain_len)].iter().map(|&(_, c)| c).fold(0u8, u8::saturating_add),
                )
            }
            RateAlgo::Minstrel(_) | RateAlgo::Constant(_) | RateAlgo::Arf(_) | RateAlgo::Agent(_) => None,
        }
    }

    #[inline]
    pub fn report(
        &self,
        st: &mut RateSlot,
        arena: &mut RateArena,
        queue: usize,
        report: TxReport,
        now: SimTime,
    ) {
        let i = st.0 as usize;
        match self {
            RateAlgo::Constant(a) => a.report(&mut constant::Stateless, queue, report, now),
            RateAlgo::Agent(a) => a.report(made(&mut arena.agent, st, || a.station()), queue, report, now),
            // ns-3's ARF hears every report, of a peer's first frame too.
            RateAlgo::Arf(a) => a.report(made(&mut arena.arf, st, || a.station()), queue, report, now),
            RateAlgo::Minstrel(m) => {
                if let Some(s) = arena.minstrel.get_mut(i) {
                    m.report(s, queue, report, now);
                }
            }
            RateAlgo::MinstrelHt(_) => {
                // Linux hears of a PPDU once, at its end (`minstrel_ht_tx_status`); a single
                // frame's end is its ACK or its last try.
                let Some(s) = arena.minstrel_ht.get_mut(i) else { return };
                let Some(TxReport::Ppdu { attempts, block_ack, mpdus, acked, .. }) =
                    single_frame_end(report, s.series[queue].map(|r| r.total_tries()))
                else {
                    return;
                };
                let Some(series) = s.series[queue] else { return };
                // Minstrel-HT runs on HT and VHT, whose window is 64: Linux's u8 status fields.
                let (mpdus, acked) =
                    (u8::try_from(mpdus).unwrap_or(u8::MAX), u8::try_from(acked).unwrap_or(u8::MAX));
                let ampdu = (mpdus > 1 || !series.probe)
                    .then_some(minstrel_ht::AmpduStatus { len: mpdus, ack_len: acked });
                let status = minstrel_ht::HtTxStatus::from_attempts(
                    &series,
                    attempts,
                    false,
                    block_ack && acked > 0,
                    ampdu,
                );
                let m = arena.tables.minstrel_ht.as_ref().expect(NO_TABLE);
                m.tx_status(&mut s.st, &status, now);
            }
            RateAlgo::Ath9k(..) => {
                let Some(s) = arena.ath9k.get_mut(i) else { return };
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
                // ath9k runs on HT only, whose window is 64: its u8 status fields.
                let (mpdus, acked) =
                    (u8::try_from(mpdus).unwrap_or(u8::MAX), u8::try_from(acked).unwrap_or(u8::MAX));
                let status =
                    ath9k::Ath9kTxStatus::after_attempts(series, attempts, first_acked, mpdus, mpdus - acked);
                let a = arena.tables.ath9k.as_ref().expect(NO_TABLE);
                a.tx_status(&mut s.st, &status, now);
            }
        }
    }

    /// An agent (`airtcp.gym`) sets the mode of every attempt to the peer of `st` from now
    /// on; false, and nothing changes, unless the algorithm is [`RateAlgo::Agent`].
    pub fn set_agent_mode(&self, st: &mut RateSlot, arena: &mut RateArena, mode: ModeId) -> bool {
        match self {
            RateAlgo::Agent(a) => {
                *made(&mut arena.agent, st, || a.station()) = mode;
                true
            }
            RateAlgo::Constant(_)
            | RateAlgo::Arf(_)
            | RateAlgo::Minstrel(_)
            | RateAlgo::MinstrelHt(_)
            | RateAlgo::Ath9k(..) => false,
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
        acked: u16::from(ok),
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

    fn by(name: &str) -> RateName {
        RateName::from_name(name).expect("a rate control")
    }

    #[test]
    fn every_name_parses_to_its_algorithm() {
        let mode = crate::phy::modes::OFDM_6;
        let t = PhyTiming::of(Standard::A, false);
        for name in NAMES.iter().filter(|n| !["minstrel-ht", "ath9k"].contains(n)) {
            assert_eq!(RateAlgo::parse(by(name), Standard::A, &t, mode).map(|a| a.name()), Some(*name));
        }
        assert!(RateName::from_name("minstrel-typo").is_none());
        // 802.11n: the ARF family climbs the HT ladder; legacy Minstrel does not run there.
        let n = Standard::N(HtConfig::default());
        for name in HT_NAMES {
            assert_eq!(RateAlgo::parse(by(name), n, &t, mode).map(|a| a.name()), Some(*name));
        }
        assert!(RateAlgo::parse(by("minstrel-ht"), Standard::A, &t, mode).is_none());
        let Some(RateAlgo::Arf(a)) = RateAlgo::parse(by("arf"), n, &t, mode) else { panic!("arf") };
        assert_eq!(a.ladder, n.ht_ladder());
    }

    #[test]
    fn each_algorithm_makes_its_own_state_once_per_peer_at_its_first_frame() {
        let cfg = HtConfig::default();
        let n = Standard::N(cfg);
        let t = PhyTiming::of(n, false);
        let mode = ModeId::ht(0, false, false).unwrap();
        let now = SimTime::ZERO;
        for name in HT_NAMES {
            let algo = RateAlgo::parse(by(name), n, &t, mode).unwrap();
            let mut arena = RateArena::new(&t, [&algo]);
            // [ARF, agent, Minstrel, Minstrel-HT, ath9k]: the one list this algorithm keeps.
            let kind = match *name {
                "arf" | "arf-ns3" | "aarf" => Some(0),
                "agent" => Some(1),
                "minstrel" | "minstrel-rt2800" => Some(2),
                "minstrel-ht" => Some(3),
                "ath9k" => Some(4),
                _ => None,
            };
            let made = |k: usize| {
                let mut m = [0; 5];
                if let Some(i) = kind {
                    m[i] = k;
                }
                m
            };
            let (mut a, mut b) = (algo.station(), algo.station());
            assert_eq!((a, arena.made()), (RateSlot::NEW, made(0)), "{name}: nothing before a frame");
            algo.select(&mut a, &mut arena, (0, 1, 1), 0, now);
            assert_eq!(arena.made(), made(1), "{name}: one state at the first frame");
            algo.select(&mut a, &mut arena, (0, 1, 1), 1, now);
            algo.report(&mut a, &mut arena, 1, TxReport::DataOk { retries: 1 }, now);
            assert_eq!(arena.made(), made(1), "{name}: the same peer's state is reused");
            algo.select(&mut b, &mut arena, (0, 2, 1), 0, now);
            assert_eq!(arena.made(), made(2), "{name}: another peer, another state");
            assert_eq!(a == RateSlot::NEW, kind.is_none(), "{name}: constant rate keeps nothing");
        }
        // The state made is the algorithm's own peer never sent to (ARF: `RateControl::station`).
        let RateAlgo::Arf(arf) = RateAlgo::parse(by("aarf"), n, &t, mode).unwrap() else { panic!("aarf") };
        let mut arena = RateArena::new(&t, []);
        let mut st = RateSlot::NEW;
        RateAlgo::Arf(arf).select(&mut st, &mut arena, (0, 1, 0), 0, now);
        assert_eq!(arena.arf, vec![arf.station()]);
    }

    #[test]
    fn every_adaptive_algorithm_sends_a_peers_first_frame_at_the_starting_rate() {
        let t = PhyTiming::of(Standard::G, false);
        let m6 = Standard::G.mode(6_000).unwrap();
        let m24 = Standard::G.mode(24_000).unwrap();
        for name in NAMES.iter().filter(|n| !["minstrel-ht", "ath9k"].contains(n)) {
            let plain = RateAlgo::parse(by(name), Standard::G, &t, m6).unwrap();
            let algo = plain.starting_at(m24).expect("24 Mbit/s is on every 802.11g ladder");
            assert_eq!(algo.name(), *name);
            let mut arena = RateArena::new(&t, [&algo]);
            let mut st = algo.station();
            let first = algo.select(&mut st, &mut arena, (0, 1, 1), 0, SimTime::ZERO);
            // Constant rate keeps its own mode (6 here); the others start at 24.
            let want = if *name == "constant" { m6 } else { m24 };
            assert_eq!((first, algo.initial_mode()), (want, want), "{name}");
            // Unset, each starts where it did: the ladder's lowest (constant: its mode).
            let mut st = plain.station();
            let lowest =
                plain.select(&mut st, &mut RateArena::new(&t, [&plain]), (0, 1, 1), 0, SimTime::ZERO);
            assert_eq!(
                (lowest, plain.initial_mode()),
                (if *name == "constant" { m6 } else { Standard::G.modes()[0] }, lowest),
                "{name}"
            );
        }
        // A mode off the ladder, and the HT algorithms, have no starting rate.
        let arf = RateAlgo::parse(by("arf"), Standard::A, &t, crate::phy::modes::OFDM_6).unwrap();
        assert!(arf.starting_at(Standard::B.mode(11_000).unwrap()).is_none());
        let n = Standard::N(HtConfig::default());
        let mcs0 = ModeId::ht(0, false, false).unwrap();
        for name in ["minstrel-ht", "ath9k"] {
            assert!(RateAlgo::parse(by(name), n, &t, mcs0).unwrap().starting_at(mcs0).is_none(), "{name}");
        }
    }

    #[test]
    fn an_agent_sets_its_peers_mode_and_no_other_algorithm_takes_one() {
        let t = PhyTiming::of(Standard::A, false);
        let m6 = crate::phy::modes::OFDM_6;
        let m54 = Standard::A.mode(54_000).unwrap();
        let agent = RateAlgo::parse(by("agent"), Standard::A, &t, m6).unwrap();
        let arf = RateAlgo::parse(by("arf"), Standard::A, &t, m6).unwrap();
        let mut arena = RateArena::new(&t, [&agent, &arf]);
        let (mut a, mut b) = (agent.station(), arf.station());
        assert_eq!(agent.select(&mut a, &mut arena, (0, 1, 1), 0, SimTime::ZERO), m6, "the ladder's lowest");
        assert!(agent.set_agent_mode(&mut a, &mut arena, m54));
        assert_eq!(agent.select(&mut a, &mut arena, (0, 1, 1), 0, SimTime::ZERO), m54);
        assert!(!arf.set_agent_mode(&mut b, &mut arena, m54));
        assert_eq!((b, arena.made()), (RateSlot::NEW, [0, 1, 0, 0, 0]));
    }

    /// A world's MACs, `algos` one each, on an 802.11n channel of configuration `cfg`.
    fn ht_wifi(cfg: HtConfig, algos: &[&str]) -> crate::mac::Wifi {
        use crate::mac::{backoff::CountRule, AcParams, Mac, Wifi, WifiConfig, AC_COUNT};
        use crate::phy::{Preamble, TxVector};
        let n = Standard::N(cfg);
        let t = PhyTiming::of(n, false);
        let data = TxVector::new(ModeId::ht(0, false, false).unwrap(), Preamble::Long);
        let control = TxVector::new(n.modes()[0], Preamble::Long);
        let wifi = WifiConfig::new(n, t, data, control, true);
        let macs = algos
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let rate = RateAlgo::parse_ht(by(name), cfg, &t, data.mode, true);
                let rng = Stream::derive(1, i as u64, Purpose::Backoff);
                Mac::new([AcParams::dcf(&t); AC_COUNT], CountRule::Dcf, true, algos.len(), rate, rng)
            })
            .collect();
        Wifi::new(wifi, macs)
    }

    #[test]
    fn each_world_owns_the_tables_of_the_algorithms_its_macs_run() {
        use crate::phy::{Band, Modulation};
        let narrow = HtConfig::default(); // 5 GHz, 20 MHz, long GI, one stream
        let wide = HtConfig { band: Band::Ghz2_4, width40: true, sgi: true, streams: 2 };
        let both = ["minstrel-ht", "ath9k"];
        let (w1, w2, w3) = (ht_wifi(narrow, &both), ht_wifi(wide, &both), ht_wifi(narrow, &both));
        // One process, two configurations: each world's tables are made for its own.
        let (m1, m2) =
            (w1.rate_arena.tables().minstrel_ht().unwrap(), w2.rate_arena.tables().minstrel_ht().unwrap());
        use super::minstrel_ht::MinstrelPeers;
        assert_eq!((m1.peers, m2.peers), (MinstrelPeers::Ht(narrow), MinstrelPeers::Ht(wide)));
        assert_eq!(
            (m1.rates().count(), m2.rates().count()),
            (8, 64),
            "1 group / 8: 1-2 streams x 20, 40 MHz x long, short GI"
        );
        let (a1, a2) = (w1.rate_arena.tables().ath9k().unwrap(), w2.rate_arena.tables().ath9k().unwrap());
        assert_eq!((a1.band, a2.band, a1.table.len(), a2.table.len()), (Band::Ghz5, Band::Ghz2_4, 68, 72));
        // The same configuration again: an equal table, the third world's own.
        let m3 = w3.rate_arena.tables().minstrel_ht().unwrap();
        assert_eq!(m3, m1);
        assert!(!std::ptr::eq(m3, m1));
        // Only the tables of the algorithms run: none for constant rate or the ARF family.
        let plain = ht_wifi(wide, &["constant", "aarf", "minstrel"]);
        assert!(
            plain.rate_arena.tables().minstrel_ht().is_none() && plain.rate_arena.tables().ath9k().is_none()
        );
        let one = ht_wifi(wide, &["ath9k", "ath9k"]);
        assert!(one.rate_arena.tables().minstrel_ht().is_none() && one.rate_arena.tables().ath9k().is_some());
        // Each world's peers go at its own configuration's modes.
        for (mut w, cfg) in [(w1, narrow), (w2, wide)] {
            let now = SimTime::ZERO;
            for node in 0..2 {
                let algo = w.macs[node].rate;
                let mut st = algo.station();
                for attempt in 0..8 {
                    let mode = algo.select(&mut st, &mut w.rate_arena, (node, 1 - node, 1), attempt, now);
                    match mode.modulation() {
                        Modulation::Ht { mcs, width40, sgi } => assert!(
                            mcs < 8 * cfg.streams && (cfg.width40 || !width40) && (cfg.sgi || !sgi),
                            "{cfg:?}: {mode:?}"
                        ),
                        _ => assert_eq!(algo.name(), "ath9k", "only ath9k's table holds legacy rates"),
                    }
                }
            }
        }
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
