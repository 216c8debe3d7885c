//! The `wifi` section: the standard, the rates and the MAC parameters every WiFi node shares.

use serde::Deserialize;

use super::{default_queue, err, num, quoted, SpecError, MAX_QUEUE_PACKETS};
pub use crate::mac::backoff::BackoffRule;
pub use crate::mac::rate::minstrel::MinstrelStatus;
use crate::mac::rate::RateName;
use crate::phy::he::HeMode;
use crate::phy::vht::VhtMode;
use crate::phy::{Band, HeConfig, HtConfig, ModeId, Standard, StandardName, VhtConfig};
pub use crate::xlayer::arf_window::ArfWindowRtt;

crate::names::names! {
    /// The queueing discipline above a WiFi interface (`wifi.qdisc.kind`).
    pub enum QdiscKind {
        /// Tail drop (Linux `pfifo_fast` within an access category).
        Pfifo = "pfifo",
        /// CoDel (RFC 8289, `sch_codel`).
        Codel = "codel",
        /// FQ-CoDel (RFC 8290, `sch_fq_codel` at its defaults: 1024 flows, quantum 1514).
        FqCodel = "fq-codel",
    }
}

crate::names::names! {
    /// An A-MPDU's limits (`wifi.ht.aggregation`): ns-3's (65,535 bytes, 5.484 ms) or ath9k's
    /// (also 32 subframes and 4 ms).
    pub enum Aggregation {
        Ns3 = "ns3",
        Ath9k = "ath9k",
    }
}

crate::names::names! {
    /// How the originator sizes its A-MPDUs over time (`wifi.ht.ampdu_adaptation`).
    #[derive(Default)]
    pub enum AmpduAdaptation {
        /// The limits alone (`aggregation`, `max_ampdu_time_us`).
        #[default]
        None = "none",
        /// MoFA (Byeon et al., CoNEXT 2014; `mac::ht::mofa`): per peer, shorter when the
        /// BlockAcks show the later subframes lost, longer when they do not.
        Mofa = "mofa",
    }
}

crate::names::names! {
    /// Channel access: DCF (10.3) or EDCA (10.22.2, QoS data per access category).
    pub enum Access {
        Dcf = "dcf",
        Edca = "edca",
    }
}

crate::names::names! {
    /// The DSSS/CCK preamble (17.2.2): long, or short.
    pub enum PreambleSpec {
        Long = "long",
        Short = "short",
    }
}

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WifiSpec {
    /// The PHY: "80211a" (OFDM, Clause 17), "80211b" (DSSS/HR-DSSS, Clauses 15/16), "80211g"
    /// (ERP, Clause 18), "80211n" (HT, Clause 19), "80211ac" (VHT, Clause 21) or "80211ax"
    /// (HE single-user, Clause 27), the last three with `ht`.
    pub standard: StandardName,
    /// 802.11g b/g mixed mode (20 us slot, no protection); refused on the other standards.
    #[serde(default)]
    pub erp_mixed: bool,
    /// The DSSS/HR-DSSS preamble, "long" or "short" (the DSSS/CCK rates only).
    #[serde(default = "default_preamble")]
    pub preamble: PreambleSpec,
    /// The data rate of 802.11a/b/g [Mbit/s]: every data frame's under `rate_control =
    /// "constant"` (an adaptive rate control starts at `initial_rate_mbps`); 802.11n names its
    /// MCS in `ht.mcs` instead.
    #[serde(default)]
    pub data_rate_mbps: Option<f64>,
    /// The rate every peer's adaptive rate control starts at [Mbit/s], a rate of the standard
    /// (802.11a/b/g; refused with `ht`, and when every node runs `constant`): ARF and AARF at
    /// its rung of their ladder, Minstrel with it as its best throughput (the first stage of
    /// its retry chain until its first statistics update), `agent` at it until the agent sets
    /// another; a node at constant rate keeps `data_rate_mbps`. Unset: the ladder's lowest.
    #[serde(default)]
    pub initial_rate_mbps: Option<f64>,
    /// The rate of control frames (ACK, RTS, CTS) [Mbit/s], a rate of the standard.
    pub basic_rate_mbps: f64,
    /// The PHY of 802.11n, 802.11ac and 802.11ax: required with those standards, refused
    /// otherwise.
    #[serde(default)]
    pub ht: Option<HtSpec>,
    /// Channel access: "dcf" (DIFS, non-QoS Data; 10.3) or "edca" (AIFS[AC], QoS Data;
    /// 10.22.2).
    #[serde(default = "default_access")]
    pub access: Access,
    /// CWmin override [slots]; unset: the PHY's aCWmin (DCF) or each access category's
    /// (EDCA, Table 9-155).
    #[serde(default)]
    #[schemars(range(min = 1, max = 32767))]
    pub cw_min: Option<u32>,
    /// The aCWmin every access category's default derives from [slots] (Table 9-155: AC_BK
    /// and AC_BE aCWmin, AC_VI (aCWmin + 1) / 2 - 1, AC_VO (aCWmin + 1) / 4 - 1; DCF:
    /// aCWmin); unset: the PHY's. Linux gives a 2.4 GHz interface not in G mode (a mesh
    /// point) 31 (`ieee80211_set_wmm_default`). `cw_min` still overrides every category.
    #[serde(default)]
    #[schemars(range(min = 1, max = 32767))]
    pub a_cw_min: Option<u32>,
    /// CWmax override [slots], >= `cw_min`; unset: the PHY's aCWmax (DCF) or each access
    /// category's (EDCA, Table 9-155).
    #[serde(default)]
    #[schemars(range(min = 1, max = 32767))]
    pub cw_max: Option<u32>,
    /// AIFSN override [slots]; unset: 2, DIFS (DCF, 10.3.2.3.5), or each access category's
    /// AIFSN (EDCA, Table 9-155).
    #[serde(default)]
    #[schemars(range(min = 1, max = 15))]
    pub aifsn: Option<u32>,
    /// Retransmissions of frames up to `rts_threshold_bytes`, 0 = never retransmit
    /// (dot11ShortRetryLimit 7 attempts, 10.3.4.4).
    #[serde(default = "default_short_retry")]
    #[schemars(range(max = MAX_RETRY_LIMIT))]
    pub short_retry_limit: u32,
    /// Retransmissions of frames longer than `rts_threshold_bytes` (dot11LongRetryLimit 4
    /// attempts, 10.3.4.4).
    #[serde(default = "default_long_retry")]
    #[schemars(range(max = MAX_RETRY_LIMIT))]
    pub long_retry_limit: u32,
    /// MPDUs longer than this use RTS/CTS (dot11RTSThreshold; 65535: never, 0: always).
    #[serde(default = "default_rts_threshold")]
    pub rts_threshold_bytes: u32,
    /// The MAC's DropTail interface queue per access category [packets].
    #[serde(default = "default_queue")]
    #[schemars(range(min = 1, max = MAX_QUEUE_PACKETS))]
    pub queue_limit_packets: u32,
    /// Rate control of data frames, one of `mac::rate::NAMES` ("constant": every frame at
    /// `data_rate_mbps`).
    #[serde(default = "default_rate_control")]
    pub rate_control: RateName,
    /// How rt2800's tries reach Minstrel under `rate_control = "minstrel-rt2800"` (here or a
    /// node's): as rt2x00 rebuilds them from the hardware's retry count (Linux 3.12), or each
    /// credited to the mode it was sent at.
    #[serde(default)]
    pub minstrel_status: MinstrelStatus,
    /// When a frame backs off: the standard's rule (none for a frame that finds the medium
    /// idle), or ns-2's (every frame, in [0, CW - 1]; paper 001's simulator).
    #[serde(default)]
    pub backoff_rule: BackoffRule,
    /// The data frame's MAC header without the FCS [bytes] (9.3.2.1): 24 or 30 (three or four
    /// addresses) under dcf, 26, 32 or 38 (a mesh data frame's) under edca; unset: 24, 26, or 38
    /// in a mesh. 30 with the FCS gives the 34 bytes of ns-2's 802.11 model and paper 004's Table I.
    #[serde(default)]
    #[schemars(range(min = 24, max = 38))]
    pub data_header_bytes: Option<u32>,
    /// Receive policy of paper 004 (section II): a data frame whose FCS failed but whose MAC
    /// header held goes up the stack marked corrupt instead of being discarded.
    #[serde(default)]
    pub pass_corrupt: bool,
    /// LN-MAC (paper 004 II-B) at every WiFi node: the MACs track TCP sequence numbers per
    /// connection and notify the TCP receiver of a segment that vanished over the air.
    #[serde(default)]
    pub lnmac: bool,
    /// Every AP beacons each this many TUs (1024 us; dot11BeaconPeriod, 11.1.3.2); unset: no
    /// beacons. Refused in a mesh (its mesh points beacon at `mesh.beacon_interval_tu`).
    #[serde(default)]
    #[schemars(range(min = 1, max = 65535))]
    pub beacon_interval_tu: Option<u32>,
    /// Paper 003's ARF-aware window at every station, with this observation slot T [ms];
    /// unset: off.
    #[serde(default)]
    #[schemars(range(max = 1e6), extend("exclusiveMinimum" = 0))]
    pub arf_window_slot_ms: Option<f64>,
    /// Eq. 11's RTT in paper 003's window (needs `arf_window_slot_ms`).
    #[serde(default)]
    pub arf_window_rtt: ArfWindowRtt,
    /// Paper 003's window also recomputed at the end of every observation slot at the
    /// current rate (Eq. 13 with Delta- = 0), not only on a rate change (needs
    /// `arf_window_slot_ms`).
    #[serde(default)]
    pub arf_window_every_slot: bool,
    /// Paper 002's remedy at every station: the Block-Ack retry limit of TCP frames from the
    /// averaged data rate (needs `ht.ampdu`).
    #[serde(default)]
    pub ba_retry_remedy: bool,
    /// Every station schedules its own grant events, as before contention domains
    /// (`mac::contention`): the same results at a cost that grows with the contenders; for
    /// checking and benchmarking.
    #[serde(default)]
    pub per_station_grants: bool,
    /// A queueing discipline above every WiFi interface (Linux's qdisc): packets wait there
    /// while the MAC's queue of their access category is full; unset: none (a full MAC queue
    /// drops).
    #[serde(default)]
    pub qdisc: Option<QdiscSpec>,
    /// mac80211's intermediate queues inside every WiFi interface (Linux today: per station
    /// and access category an FQ-CoDel, airtime fairness, AQL); unset: none.
    #[serde(default)]
    pub txq: Option<TxqSpec>,
}

/// The `wifi.txq` table (`net::txq`).
#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TxqSpec {
    /// CoDel's target in every queue (mac80211 `ieee80211_txq_setup_flows`: 20 ms).
    #[schemars(range(max = 1e6), extend("exclusiveMinimum" = 0))]
    pub target_ms: f64,
    /// CoDel's interval in every queue (mac80211: 100 ms).
    #[schemars(range(max = 1e6), extend("exclusiveMinimum" = 0))]
    pub interval_ms: f64,
    /// FQ's deficit round-robin quantum (mac80211 `fq_init`: 300 bytes).
    #[schemars(range(min = 1, max = 65535))]
    pub quantum_bytes: u32,
    /// Each (station, access category) queue's packet limit (mac80211 `fq_init`: 8192).
    #[schemars(range(min = 1, max = MAX_QUEUE_PACKETS))]
    pub limit_packets: u32,
    /// Stations take turns by deficit round robin charged with their PPDUs' airtime
    /// (`ieee80211_next_txq`); false: frame by frame.
    pub airtime_fairness: bool,
    /// Airtime queue limits (`ieee80211_txq_airtime_check`): a station hands the driver frames
    /// while its airtime there is below `aql_low_us`, or `aql_high_us` while the interface's
    /// total is below `aql_threshold_us`.
    pub aql: bool,
    /// AQL's per-station low limit (`AQL_TXQ_LIMIT_L`: 5000 us).
    #[schemars(range(min = 1, max = 1_000_000))]
    pub aql_low_us: u32,
    /// AQL's per-station high limit, >= `aql_low_us` (`AQL_TXQ_LIMIT_H`: 12000 us).
    #[schemars(range(min = 1, max = 1_000_000))]
    pub aql_high_us: u32,
    /// AQL's interface total below which the high limit applies (`IEEE80211_AQL_THRESHOLD`:
    /// 24000 us).
    #[schemars(range(min = 1, max = 1_000_000))]
    pub aql_threshold_us: u32,
    /// CoDel CE-marks an ECN-capable packet instead of dropping it (mac80211
    /// `ieee80211_txq_setup_flows`: `cparams.ecn = true`); the overflow drop ignores ECN.
    #[serde(default = "yes")]
    pub ecn: bool,
}

fn yes() -> bool {
    true
}

/// The `wifi.qdisc` table.
#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QdiscSpec {
    /// "pfifo" (tail drop), "codel" or "fq-codel".
    pub kind: QdiscKind,
    /// Packets per access category (`txqueuelen`; fq_codel's `limit`, 10,240 in Linux).
    #[schemars(range(min = 1, max = MAX_QUEUE_PACKETS))]
    pub limit_packets: u32,
    /// CoDel's target, the sojourn time it tolerates (RFC 8289; Linux 3.5's `sch_codel`).
    #[serde(default = "codel_target")]
    #[schemars(range(max = 1e6), extend("exclusiveMinimum" = 0))]
    pub codel_target_ms: f64,
    /// CoDel's interval, over which the sojourn time must stay above target before a drop
    /// (RFC 8289).
    #[serde(default = "codel_interval")]
    #[schemars(range(max = 1e6), extend("exclusiveMinimum" = 0))]
    pub codel_interval_ms: f64,
    /// "codel" and "fq-codel": CE-mark an ECN-capable packet (a `tcp.ecn` flow's data)
    /// instead of dropping it; unset: Linux's default, off in `sch_codel`, on in
    /// `sch_fq_codel`.
    #[serde(default)]
    pub ecn: Option<bool>,
}

fn codel_target() -> f64 {
    5.0
}
fn codel_interval() -> f64 {
    100.0
}

/// The `wifi.ht` table: what an 802.11n, 802.11ac or 802.11ax BSS's stations share, and the
/// data MCS.
#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HtSpec {
    /// The frequency band, 2.4 or 5 [GHz].
    #[schemars(range(min = 2.4, max = 5))]
    pub band_ghz: f64,
    /// The channel width [MHz]: 20 or 40 on 802.11n (40 lets data frames use 40 MHz), 20,
    /// 40, 80 or 160 on 802.11ac and 802.11ax (20 or 40 in 2.4 GHz); data frames use it.
    #[schemars(range(min = 20, max = 160))]
    pub channel_width_mhz: u32,
    /// The 400 ns short guard interval for data frames (802.11n and 802.11ac).
    #[serde(default)]
    pub short_gi: bool,
    /// 802.11ax: the data frames' guard interval, 800, 1600 or 3200 [ns] (unset: 800).
    #[serde(default)]
    #[schemars(range(min = 800, max = 3200))]
    pub gi_ns: Option<u16>,
    /// Spatial streams: 1 or 2 on 802.11n (2 allows MCS 8-15); 1-4 on 802.11ac and 802.11ax,
    /// the streams every data frame uses.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 4))]
    pub streams: u8,
    /// The data frames' MCS under `rate_control = "constant"`: HT MCS 0-7 (0-15 with two
    /// streams), VHT MCS 0-9 (the standard's holes refused), HE MCS 0-11; an adaptive rate
    /// control starts from its own table (the ARF family, Minstrel and `agent` at the ladder's
    /// lowest rung, Minstrel-HT and ath9k as Linux's do) whatever this says.
    #[schemars(range(max = 15))]
    pub mcs: u8,
    /// A-MPDU with HT-immediate Block Ack (an agreement per peer and TID, configured from the
    /// start); false: every data frame alone, acknowledged by an ACK.
    #[serde(default)]
    pub ampdu: bool,
    /// The aggregate's limits: "ns3" (65,535 bytes, 5.484 ms) or "ath9k" (also 32
    /// subframes and 4 ms).
    #[serde(default = "ns3")]
    pub aggregation: Aggregation,
    /// The aggregate's longest PPDU [us], in place of the preset's (5484 for "ns3", 4000 for
    /// "ath9k"): at most 5484, aPPDUMaxTime of an HT-mixed PPDU (L-SIG's length field, Table
    /// 19-25), which every PPDU airtcp sends is; unset: the preset's.
    #[serde(default)]
    #[schemars(range(min = 1, max = 5484))]
    pub max_ampdu_time_us: Option<u32>,
    /// The aggregate's largest PSDU [bytes], in place of the preset's 65,535: at most the
    /// standard's aPSDUMaxLength (65,535 HT, 1,048,575 VHT, 6,500,631 HE); the Block Ack
    /// window (64 MPDUs, 256 between HE stations) bounds it too.
    #[serde(default)]
    #[schemars(range(min = 1, max = 6_500_631))]
    pub max_ampdu_bytes: Option<u32>,
    /// "none" (the limits alone) or "mofa" (MoFA's mobility-aware length per peer, within the
    /// limits: shorter when a BlockAck shows the second half's subframes lost 20 points more
    /// often than the first's or more than 10 % lost, longer otherwise).
    #[serde(default)]
    pub ampdu_adaptation: AmpduAdaptation,
    /// Transmissions of one A-MPDU while no BlockAck answers (ath9k's hardware tries: 20).
    #[serde(default = "twenty")]
    #[schemars(range(min = 1))]
    pub ppdu_attempts: u8,
    /// Software retries of one MPDU under Block Ack (ath9k 3.2 `ATH_MAX_SW_RETRIES`: 10).
    #[serde(default = "ten")]
    pub mpdu_retries: u8,
}

fn ns3() -> Aggregation {
    Aggregation::Ns3
}
fn twenty() -> u8 {
    20
}
fn ten() -> u8 {
    10
}

fn one() -> u8 {
    1
}

impl HtSpec {
    /// The HT configuration (the spec was validated).
    pub fn config(&self) -> HtConfig {
        HtConfig {
            band: if self.band_ghz == 5.0 { Band::Ghz5 } else { Band::Ghz2_4 },
            width40: self.channel_width_mhz == 40,
            sgi: self.short_gi,
            streams: self.streams,
        }
    }

    /// The 802.11ac configuration (the spec was validated).
    pub fn vht_config(&self) -> VhtConfig {
        VhtConfig { width_mhz: self.channel_width_mhz as u16, sgi: self.short_gi, streams: self.streams }
    }

    /// The 802.11ax configuration (the spec was validated).
    pub fn he_config(&self) -> HeConfig {
        HeConfig {
            band: if self.band_ghz == 5.0 { Band::Ghz5 } else { Band::Ghz2_4 },
            width_mhz: self.channel_width_mhz as u16,
            gi_ns: self.gi_ns.unwrap_or(800),
            streams: self.streams,
        }
    }

    /// The data mode on `standard`: `mcs` at the channel's width, streams and guard interval.
    pub fn data_mode(&self, standard: Standard) -> ModeId {
        match standard {
            Standard::Ac(c) => {
                ModeId::vht(VhtMode { mcs: self.mcs, width_mhz: c.width_mhz, nss: c.streams, sgi: c.sgi })
            }
            Standard::Ax(c) => {
                ModeId::he(HeMode { mcs: self.mcs, width_mhz: c.width_mhz, nss: c.streams, gi_ns: c.gi_ns })
            }
            _ => {
                let c = self.config();
                ModeId::ht(self.mcs, c.width40, c.sgi)
            }
        }
        .expect("validated MCS")
    }

    /// The largest A-MPDU [bytes] `standard` allows (aPSDUMaxLength: Tables 19-25, 21-29,
    /// 27-54).
    fn max_psdu_bytes(standard: Standard) -> u32 {
        match standard {
            Standard::Ac(_) => crate::phy::vht::MAX_PSDU_BYTES,
            Standard::Ax(_) => crate::phy::he::MAX_PSDU_BYTES,
            _ => crate::mac::ht::ampdu::MAX_AMPDU_BYTES,
        }
    }

    /// Check the table for 802.11ac or 802.11ax (`standard`, from `wifi.standard`).
    fn validate_vht_he(&self, standard: Standard) -> Result<(), SpecError> {
        let name = standard.name();
        let ax = matches!(standard, Standard::Ax(_));
        if self.band_ghz != 5.0 && !(ax && self.band_ghz == 2.4) {
            let allowed = if ax { "2.4, 5" } else { "5 (802.11ac is a 5 GHz PHY)" };
            return err(
                "wifi.ht.band_ghz",
                format!("{} is not a {name} band; allowed: {allowed}", num(self.band_ghz)),
            );
        }
        let widths: &[u32] = if self.band_ghz == 2.4 { &[20, 40] } else { &[20, 40, 80, 160] };
        if !widths.contains(&self.channel_width_mhz) {
            let allowed: Vec<String> = widths.iter().map(u32::to_string).collect();
            return err(
                "wifi.ht.channel_width_mhz",
                format!(
                    "{} is not a {name} channel width in {} GHz; allowed: {}",
                    self.channel_width_mhz,
                    num(self.band_ghz),
                    allowed.join(", ")
                ),
            );
        }
        if !(1..=4).contains(&self.streams) {
            return err("wifi.ht.streams", format!("{} is out of range; allowed: 1..=4", self.streams));
        }
        if ax && self.short_gi {
            return err(
                "wifi.ht.short_gi",
                "true is not an 802.11ax guard interval; set wifi.ht.gi_ns (800, 1600 or 3200) instead"
                    .to_string(),
            );
        }
        if let (false, Some(gi)) = (ax, self.gi_ns) {
            return err("wifi.ht.gi_ns", format!("{gi} is only for 80211ax; {name} takes wifi.ht.short_gi"));
        }
        if let Some(gi) = self.gi_ns.filter(|g| !crate::phy::he::GUARD_INTERVALS_NS.contains(g)) {
            return err(
                "wifi.ht.gi_ns",
                format!("{gi} is not an HE guard interval; allowed: 800, 1600, 3200"),
            );
        }
        let top = if ax { crate::phy::he::MAX_MCS } else { crate::phy::vht::MAX_MCS };
        if self.mcs > top {
            return err("wifi.ht.mcs", format!("{} is not a {name} MCS; allowed: 0..={top}", self.mcs));
        }
        if !ax {
            let c = self.vht_config();
            let m = VhtMode { mcs: self.mcs, width_mhz: c.width_mhz, nss: c.streams, sgi: c.sgi };
            if let Err(why) = m.check() {
                return err("wifi.ht.mcs", format!("{}: {why}", self.mcs));
            }
        }
        Ok(())
    }

    fn validate(&self, standard: Standard) -> Result<(), SpecError> {
        if let Some(b) = self.max_ampdu_bytes {
            let top = Self::max_psdu_bytes(standard);
            if !(1..=top).contains(&b) {
                return err(
                    "wifi.ht.max_ampdu_bytes",
                    format!("{b} is out of range; allowed: 1..={top} ({}'s aPSDUMaxLength)", standard.name()),
                );
            }
        }
        if let Some(t) = self.max_ampdu_time_us {
            if !(1..=5484).contains(&t) {
                return err(
                    "wifi.ht.max_ampdu_time_us",
                    format!("{t} is out of range; allowed: 1..=5484 us (an HT-mixed PPDU's aPPDUMaxTime)"),
                );
            }
        }
        if self.ppdu_attempts == 0 {
            return err("wifi.ht.ppdu_attempts", "0 is out of range; allowed: 1..=255".to_string());
        }
        if matches!(standard, Standard::Ac(_) | Standard::Ax(_)) {
            return self.validate_vht_he(standard);
        }
        if let Some(gi) = self.gi_ns {
            return err("wifi.ht.gi_ns", format!("{gi} is only for 80211ax; 80211n takes wifi.ht.short_gi"));
        }
        if self.band_ghz != 2.4 && self.band_ghz != 5.0 {
            return err("wifi.ht.band_ghz", format!("{} is not a band; allowed: 2.4, 5", num(self.band_ghz)));
        }
        if self.channel_width_mhz != 20 && self.channel_width_mhz != 40 {
            return err(
                "wifi.ht.channel_width_mhz",
                format!("{} is not an HT channel width; allowed: 20, 40", self.channel_width_mhz),
            );
        }
        if !(1..=2).contains(&self.streams) {
            return err("wifi.ht.streams", format!("{} is out of range; allowed: 1, 2", self.streams));
        }
        let top = 8 * self.streams - 1;
        if self.mcs > top {
            return err(
                "wifi.ht.mcs",
                format!(
                    "{} needs more than {} spatial stream(s); allowed: 0..={top}",
                    self.mcs, self.streams
                ),
            );
        }
        Ok(())
    }
}

/// Whether rate control `name` runs on `standard` ([`RateName::runs_on`]): 802.11n all of
/// them; 802.11ac every one but ath9k's (Minstrel-HT with its VHT groups); 802.11a/b/g and
/// 802.11ax every one but Minstrel-HT and ath9k's (Linux's Minstrel-HT has no HE groups, and
/// its CCK and OFDM groups for non-HT peers are not modelled).
pub fn check_rate_control(standard: Standard, name: RateName, path: &str) -> Result<(), SpecError> {
    if name.runs_on(standard) {
        return Ok(());
    }
    let allowed: Vec<&str> = RateName::NAMES
        .iter()
        .copied()
        .filter(|n| RateName::from_name(n).is_some_and(|rc| rc.runs_on(standard)))
        .collect();
    let why = match (name, standard) {
        (RateName::MinstrelHt, Standard::Ax(_)) => {
            " (Linux's rc80211_minstrel_ht.c has HT and VHT groups, no HE groups)"
        }
        (RateName::MinstrelHt, _) => " (its HT and VHT groups only are modelled)",
        _ => " (ath9k's rate tables are HT only)",
    };
    err(
        path,
        format!(
            "{} does not run on {}{why}; allowed there: {}",
            quoted(name.name()),
            standard.name(),
            allowed.join(", ")
        ),
    )
}

/// Largest retry limit [retransmissions] the spec accepts (airtcp's bound: 32 attempts keep a
/// frame on the air for seconds at the lowest rates).
pub const MAX_RETRY_LIMIT: u32 = 31;

fn default_rate_control() -> RateName {
    RateName::Constant
}

fn default_preamble() -> PreambleSpec {
    PreambleSpec::Long
}
fn default_access() -> Access {
    Access::Dcf
}
// dot11ShortRetryLimit 7 and dot11LongRetryLimit 4 attempts (Annex C) = 6 and 3 retransmissions.
fn default_short_retry() -> u32 {
    6
}
fn default_long_retry() -> u32 {
    3
}
fn default_rts_threshold() -> u32 {
    65535
}

/// Parse a rate [Mbit/s] into kbit/s if the standard has it.
pub fn rate_kbps(standard: Standard, mbps: f64, path: &str) -> Result<u32, SpecError> {
    let allowed =
        || standard.rates_kbps().map(|k| format!("{}", f64::from(k) / 1000.0)).collect::<Vec<_>>().join(", ");
    if !mbps.is_finite() || mbps <= 0.0 {
        return err(path, format!("{} is not a positive rate; allowed: {}", num(mbps), allowed()));
    }
    let kbps = (mbps * 1000.0).round();
    let found = standard.rates_kbps().find(|k| f64::from(*k) == kbps);
    match found {
        Some(k) if (mbps * 1000.0 - kbps).abs() < 1e-6 => Ok(k),
        _ => err(
            path,
            format!("{} Mbit/s is not a rate of {}; allowed: {}", num(mbps), standard.name(), allowed()),
        ),
    }
}

impl WifiSpec {
    /// The standard with its HT configuration.
    pub fn standard(&self) -> Standard {
        match (self.standard, &self.ht) {
            (StandardName::Ac, Some(h)) => Standard::Ac(h.vht_config()),
            (StandardName::Ax, Some(h)) => Standard::Ax(h.he_config()),
            (name, ht) => name.standard(ht.as_ref().map(HtSpec::config)),
        }
    }

    /// Check the `wifi` section.
    pub(super) fn validate(&self) -> Result<(), SpecError> {
        let w = self;
        let standard = w.standard.standard(None);
        if w.erp_mixed && standard != Standard::G {
            return err(
                "wifi.erp_mixed",
                format!("true needs standard 80211g (got {})", quoted(w.standard.name())),
            );
        }
        let standard = match (&w.ht, standard) {
            (Some(ht), s) if s.high_throughput() => {
                let name = s.name();
                ht.validate(s)?;
                if let Some(r) = w.data_rate_mbps {
                    return err(
                        "wifi.data_rate_mbps",
                        format!("{} is not used on {name}; name the data rate by wifi.ht.mcs", num(r)),
                    );
                }
                if let Some(r) = w.initial_rate_mbps {
                    return err(
                        "wifi.initial_rate_mbps",
                        format!(
                            "{} is not used on {name}, whose adaptive rate controls start from their own \
                             tables; allowed: unset",
                            num(r)
                        ),
                    );
                }
                w.standard()
            }
            (None, s) if s.high_throughput() => {
                return err("wifi.ht", format!("missing; {} needs its band, channel width and MCS", s.name()))
            }
            (Some(_), s) => {
                return err("wifi.ht", format!("is only for 80211n, 80211ac and 80211ax (got {})", s.name()))
            }
            (None, s) => {
                let Some(r) = w.data_rate_mbps else {
                    return err("wifi.data_rate_mbps", format!("missing; {} needs a data rate", s.name()));
                };
                rate_kbps(s, r, "wifi.data_rate_mbps")?;
                if let Some(r) = w.initial_rate_mbps {
                    rate_kbps(s, r, "wifi.initial_rate_mbps")?;
                }
                s
            }
        };
        rate_kbps(standard, w.basic_rate_mbps, "wifi.basic_rate_mbps")?;
        if let Some(q) = &w.qdisc {
            if q.ecn.is_some() && q.kind == QdiscKind::Pfifo {
                return err(
                    "wifi.qdisc.ecn",
                    format!(
                        "set with kind {}; allowed: only with \"codel\" or \"fq-codel\" (pfifo drops, it never marks)",
                        quoted(q.kind.name())
                    ),
                );
            }
            if !(1..=MAX_QUEUE_PACKETS).contains(&q.limit_packets) {
                return err(
                    "wifi.qdisc.limit_packets",
                    format!("{} is out of range; allowed: 1..={MAX_QUEUE_PACKETS}", q.limit_packets),
                );
            }
            for (name, v) in
                [("codel_target_ms", q.codel_target_ms), ("codel_interval_ms", q.codel_interval_ms)]
            {
                if !(v.is_finite() && v > 0.0 && v <= 1e6) {
                    return err(
                        &format!("wifi.qdisc.{name}"),
                        format!("{} is out of range; allowed: > 0 and <= 1e6 ms", num(v)),
                    );
                }
            }
        }
        if let Some(t) = &w.txq {
            if w.qdisc.is_some() {
                return err(
                    "wifi.txq",
                    "not with wifi.qdisc (Linux today runs noqueue above them)".to_string(),
                );
            }
            for (name, v) in [("target_ms", t.target_ms), ("interval_ms", t.interval_ms)] {
                if !(v.is_finite() && v > 0.0 && v <= 1e6) {
                    return err(
                        &format!("wifi.txq.{name}"),
                        format!("{} is out of range; allowed: > 0 and <= 1e6 ms", num(v)),
                    );
                }
            }
            for (name, v, hi) in [
                ("quantum_bytes", t.quantum_bytes, 65_535),
                ("limit_packets", t.limit_packets, MAX_QUEUE_PACKETS),
                ("aql_low_us", t.aql_low_us, 1_000_000),
                ("aql_high_us", t.aql_high_us, 1_000_000),
                ("aql_threshold_us", t.aql_threshold_us, 1_000_000),
            ] {
                if !(1..=hi).contains(&v) {
                    return err(
                        &format!("wifi.txq.{name}"),
                        format!("{v} is out of range; allowed: 1..={hi}"),
                    );
                }
            }
            if t.aql_high_us < t.aql_low_us {
                return err(
                    "wifi.txq.aql_high_us",
                    format!("{} is below aql_low_us {}; allowed: >= aql_low_us", t.aql_high_us, t.aql_low_us),
                );
            }
        }
        if w.ba_retry_remedy && !w.ht.as_ref().is_some_and(|h| h.ampdu) {
            return err(
                "wifi.ba_retry_remedy",
                "true needs A-MPDUs under Block Ack (standard 80211n, 80211ac or 80211ax with wifi.ht.ampdu)"
                    .to_string(),
            );
        }
        if w.ht.as_ref().is_some_and(|h| h.ampdu) && w.access != Access::Edca {
            return err(
                "wifi.ht.ampdu",
                "true needs QoS data (wifi.access edca): a Block Ack agreement is per TID".to_string(),
            );
        }
        check_rate_control(standard, w.rate_control, "wifi.rate_control")?;
        for (name, v) in
            [("short_retry_limit", w.short_retry_limit), ("long_retry_limit", w.long_retry_limit)]
        {
            if v > MAX_RETRY_LIMIT {
                return err(
                    &format!("wifi.{name}"),
                    format!("{v} is out of range; allowed: 0..={MAX_RETRY_LIMIT}"),
                );
            }
        }
        if !(1..=MAX_QUEUE_PACKETS).contains(&w.queue_limit_packets) {
            return err(
                "wifi.queue_limit_packets",
                format!(
                    "{} is out of range; allowed: 1..={MAX_QUEUE_PACKETS} packets",
                    w.queue_limit_packets
                ),
            );
        }
        if let Some(cw) = w.cw_min {
            if !(1..=32767).contains(&cw) {
                return err("wifi.cw_min", format!("{cw} is out of range; allowed: 1..=32767"));
            }
        }
        if let Some(cw) = w.a_cw_min {
            if !(1..=32767).contains(&cw) {
                return err("wifi.a_cw_min", format!("{cw} is out of range; allowed: 1..=32767"));
            }
        }
        if let Some(cw) = w.cw_max {
            if !(1..=32767).contains(&cw) {
                return err("wifi.cw_max", format!("{cw} is out of range; allowed: 1..=32767"));
            }
            if let Some(lo) = w.cw_min {
                if cw < lo {
                    return err("wifi.cw_max", format!("{cw} must be >= cw_min {lo}"));
                }
            }
        }
        if let Some(h) = w.data_header_bytes {
            // 9.3.2.1: three or four addresses, plus QoS Control under EDCA (and 38: four
            // addresses with the Mesh Control field, a mesh data frame).
            let allowed = if w.access == Access::Edca { [26, 32] } else { [24, 30] };
            if !(allowed.contains(&h) || (w.access == Access::Edca && h == 38)) {
                return err(
                    "wifi.data_header_bytes",
                    format!(
                        "{h} is not a data header of {} access; allowed: {} (three addresses) or {} (four){}",
                        if w.access == Access::Edca { "edca" } else { "dcf" },
                        allowed[0],
                        allowed[1],
                        if w.access == Access::Edca { " or 38 (mesh)" } else { "" }
                    ),
                );
            }
        }
        if w.backoff_rule == BackoffRule::Ns2 && w.access == Access::Edca {
            return err(
                "wifi.backoff_rule",
                "\"ns-2\" needs wifi.access = \"dcf\" (ns-2's Mac802_11 has one queue); allowed under edca: \"standard\"",
            );
        }
        if w.arf_window_slot_ms.is_none() {
            if w.arf_window_rtt != ArfWindowRtt::Smoothed {
                return err(
                    "wifi.arf_window_rtt",
                    format!(
                        "{} needs wifi.arf_window_slot_ms (paper 003's window is off); allowed: \"smoothed\" while it is off",
                        quoted(w.arf_window_rtt.name())
                    ),
                );
            }
            if w.arf_window_every_slot {
                return err(
                    "wifi.arf_window_every_slot",
                    "true needs wifi.arf_window_slot_ms (paper 003's window is off); allowed: false while it is off",
                );
            }
        }
        if let Some(t) = w.arf_window_slot_ms {
            if !(t.is_finite() && t > 0.0 && t <= 1e6) {
                return err(
                    "wifi.arf_window_slot_ms",
                    format!("{} is out of range; allowed: a number of ms > 0 and <= 1e6", num(t)),
                );
            }
        }
        if let Some(tu) = w.beacon_interval_tu {
            if !(1..=65535).contains(&tu) {
                return err(
                    "wifi.beacon_interval_tu",
                    format!("{tu} is out of range; allowed: 1..=65535 TU (100 = 102.4 ms)"),
                );
            }
        }
        if let Some(a) = w.aifsn {
            if !(1..=15).contains(&a) {
                return err("wifi.aifsn", format!("{a} is out of range; allowed: 1..=15"));
            }
        }
        Ok(())
    }

    /// `minstrel_status` other than the default is refused unless some MAC runs
    /// `minstrel-rt2800`: the channel's, or one of the nodes' own (`node_controls`).
    pub(super) fn check_minstrel_status_used(
        &self,
        mut node_controls: impl Iterator<Item = RateName>,
    ) -> Result<(), SpecError> {
        let rt2800 = RateName::MinstrelRt2800;
        if self.minstrel_status == MinstrelStatus::default()
            || self.rate_control == rt2800
            || node_controls.any(|rc| rc == rt2800)
        {
            return Ok(());
        }
        err(
            "wifi.minstrel_status",
            format!(
                "{} is not used: no MAC runs rate_control \"minstrel-rt2800\"; allowed: {} unless \
                 wifi.rate_control or a node's rate_control is \"minstrel-rt2800\"",
                quoted(self.minstrel_status.name()),
                quoted(MinstrelStatus::default().name())
            ),
        )
    }

    /// `initial_rate_mbps` is refused unless some MAC runs an adaptive rate control: the
    /// channel's, or one of the nodes' own (`node_controls`).
    pub(super) fn check_initial_rate_used(
        &self,
        mut node_controls: impl Iterator<Item = RateName>,
    ) -> Result<(), SpecError> {
        let Some(r) = self.initial_rate_mbps else { return Ok(()) };
        if self.rate_control != RateName::Constant || node_controls.any(|rc| rc != RateName::Constant) {
            return Ok(());
        }
        let adaptive: Vec<&str> = RateName::NAMES
            .iter()
            .copied()
            .filter(|n| RateName::from_name(n).is_some_and(|rc| rc != RateName::Constant && !rc.ht_only()))
            .collect();
        err(
            "wifi.initial_rate_mbps",
            format!(
                "{} is not used: every node runs rate_control \"constant\" (at wifi.data_rate_mbps); \
                 allowed: unset, or with an adaptive wifi.rate_control or node rate_control: {}",
                num(r),
                adaptive.join(", ")
            ),
        )
    }
}
