//! The 802.11 MAC: channel access (DCF/EDCA, 10.3 and 10.22), frame exchanges, retries.
//!
//! [`Wifi`] holds every node's [`Mac`] and the settings they share; its handlers are split
//! along the standard's clauses: `access` (contention, freeze, grant: 10.3.4, 10.22.2),
//! `exchange` (DATA/ACK and RTS/CTS, timeouts, retry counters: 10.3.2, 10.3.4.4) and `rx`
//! (NAV, duplicate detection, responses: 10.3.2.4, 10.3.2.14). The MAC knows nothing of the
//! world around it: it reads its medium through [`Cca`], schedules its own timers, and hands
//! results up as [`MacInd`]s that the world drains right after each call. Each node has four
//! access-category queues (one EDCAF each); DCF is the special case of one queue with AIFSN 2.

pub mod access;
pub mod aggregate;
pub mod airtime;
pub mod backoff;
pub mod contention;
pub mod event;
pub mod exchange;
pub mod frame;
pub mod ht;
pub mod lazy;
pub mod nav;
pub mod rate;
pub mod retry;
pub mod rx;
pub mod station;

#[cfg(test)]
mod handler_tests;

use std::collections::VecDeque;

use crate::engine::Timer;
use crate::ids::{NodeId, PacketId};
use crate::phy::{ModeId, PhyTiming, Standard, TxVector};
use crate::rng::Stream;
use crate::time::{Dur, SimTime};
use event::MacEvent;

use backoff::CountRule;
use rate::RateAlgo;
use retry::RetryLimits;

/// Number of access categories (BK, BE, VI, VO).
pub const AC_COUNT: usize = 4;
/// The most packets a reordering buffer releases at once (its window).
const WINDOW_CAPACITY: usize = ht::blockack::WINDOW as usize;

/// Contention parameters of one access category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AcParams {
    pub aifsn: u32,
    pub cw_min: u32,
    pub cw_max: u32,
}

impl AcParams {
    /// Default EDCA parameter set (Table 9-155) for AC index 0 BK, 1 BE, 2 VI, 3 VO.
    pub fn edca_default(ac: usize, timing: &PhyTiming) -> AcParams {
        let (a_min, a_max) = (timing.cw_min, timing.cw_max);
        // (aCWmin + 1)/2 - 1 and (aCWmin + 1)/4 - 1, as Table 9-155 writes them.
        let half = a_min.div_ceil(2) - 1;
        let quarter = (a_min + 1) / 4 - 1;
        match ac {
            0 => AcParams { aifsn: 7, cw_min: a_min, cw_max: a_max },
            1 => AcParams { aifsn: 3, cw_min: a_min, cw_max: a_max },
            2 => AcParams { aifsn: 2, cw_min: half, cw_max: a_min },
            _ => AcParams { aifsn: 2, cw_min: quarter, cw_max: half },
        }
    }

    /// DCF: DIFS = SIFS + 2 slots (10.3.2.3.5), aCWmin/aCWmax of the PHY.
    pub fn dcf(timing: &PhyTiming) -> AcParams {
        AcParams { aifsn: 2, cw_min: timing.cw_min, cw_max: timing.cw_max }
    }
}

/// One queued MSDU.
#[derive(Clone, Copy, Debug)]
pub struct Queued {
    pub packet: PacketId,
    pub next_hop: NodeId,
    pub seq: u16,
    /// Size of the IP packet it carries [bytes].
    pub ip_bytes: u32,
    /// Retransmissions allowed for this frame alone (both counters); `None`: the peer's or
    /// the channel's limits ([`Wifi::retry_limits`]).
    pub retry_limit: Option<u8>,
    /// Under Block Ack: software retries so far (the Block-Ack-based budget,
    /// `ht::blockack::fate`).
    pub sw_retries: u8,
    /// Under Block Ack: the MPDU is in the A-MPDU on its way (`HtTx::agg`).
    pub in_flight: bool,
    /// Under Block Ack: how often the MPDU went on the air (saturating), so that a
    /// retransmission carries the Retry bit (9.2.4.1.4) and is counted as one.
    pub tx_count: u8,
    /// When the frame entered the queue (its sojourn time runs from here: CoDel, AQL).
    pub enqueued: SimTime,
    /// A management frame (an Action frame of `ip_bytes` as a whole MPDU): sent at
    /// [`WifiConfig::mgmt_txv`], never aggregated or protected by RTS, and unknown to rate
    /// control and the link statistics (Linux: `rate_control_send_low` for non-data frames;
    /// `ieee80211s_update_metric` and `last_tx_rate` read data frames only).
    pub mgmt: bool,
    /// A management frame whose sender waits for no ACK (group-addressed, or a Close).
    pub no_ack: bool,
}

impl Queued {
    /// A frame queued at `now`.
    pub fn new(packet: PacketId, next_hop: NodeId, seq: u16, ip_bytes: u32, now: SimTime) -> Queued {
        Queued {
            packet,
            next_hop,
            seq,
            ip_bytes,
            retry_limit: None,
            sw_retries: 0,
            in_flight: false,
            tx_count: 0,
            enqueued: now,
            mgmt: false,
            no_ack: false,
        }
    }
}

/// 802.11n aggregation of a channel: every data frame goes in an A-MPDU under an
/// HT-immediate Block Ack agreement (configured for every peer and TID from the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmpduConfig {
    pub limits: ht::ampdu::AggLimits,
    pub retry: ht::blockack::BaRetryLimits,
    /// MoFA bounds each peer's A-MPDU airtime ([`ht::mofa`]).
    pub mofa: bool,
    /// The agreements' buffer size: 64 MPDUs (HT, VHT), 256 between HE stations
    /// ([`ht::blockack::MAX_WINDOW`]).
    pub ba_window: u16,
}

/// The A-MPDU an access category has on its way (sent, or about to be, and not yet
/// answered): its MPDUs are the queued frames to `peer` with these sequence numbers, in
/// order; the PPDU is sent again unchanged until a BlockAck answers or its hardware tries run
/// out.
#[derive(Clone, Copy, Debug)]
pub struct Agg {
    /// Subframes (0: none on its way).
    pub n: u16,
    pub peer: NodeId,
    /// PSDU length [bytes].
    pub bytes: u32,
    /// Transmissions of this PPDU that got no BlockAck, and how many it may have (the rate
    /// control's series, else the channel's `ppdu_attempts`).
    pub attempts: u8,
    pub limit: u8,
    pub seqs: [u16; ht::blockack::MAX_WINDOW as usize],
}

impl Default for Agg {
    fn default() -> Agg {
        Agg {
            n: 0,
            peer: NodeId(0),
            bytes: 0,
            attempts: 0,
            limit: 1,
            seqs: [0; ht::blockack::MAX_WINDOW as usize],
        }
    }
}

/// The RTS threshold that means "never" (`wifi.rts_threshold_bytes`' largest value,
/// dot11RTSThreshold's range 0..65535).
pub const RTS_NEVER: u32 = 65_535;

/// Wifi settings shared by every node of the channel.
#[derive(Clone, Copy, Debug)]
pub struct WifiConfig {
    pub standard: Standard,
    pub timing: PhyTiming,
    /// The configured data mode and preamble; rate control picks each attempt's mode.
    pub data_txv: TxVector,
    pub control_txv: TxVector,
    /// Management frames (802.11s Action frames) go at the standard's lowest rate, long
    /// preamble (Linux `rate_control_send_low`: `rate_lowest_index`).
    pub mgmt_txv: TxVector,
    /// The channel's default rate control of data frames (`constant`: every frame at
    /// `data_txv`); each MAC runs its own ([`Mac::rate`]).
    pub rate: RateAlgo,
    /// The channel's retry limits (10.3.4.4); a peer or a frame may carry its own.
    pub retry: RetryLimits,
    pub rts_threshold_bytes: u32,
    /// A data frame's MAC header without the FCS [bytes] (24, 26 for QoS Data).
    pub data_header_bytes: u32,
    pub queue_limit: usize,
    /// Meter each peer's PPDU airtime (`LinkStats::airtime_ns`): only mac80211's airtime
    /// fairness reads it, so it costs a TXTIME per attempt only where that runs.
    pub airtime_meter: bool,
    pub qos: bool,
    /// ACK/CTS timeout after a frame sent at `control_txv`: SIFS + slot + PHY-RXSTART delay
    /// of the response (10.3.2.11).
    pub response_timeout: Dur,
    pub ack_duration: Dur,
    pub cts_duration: Dur,
    /// Per non-HT and HT data mode (by index): the mode of the ACK that answers it
    /// (10.6.6.5.2), that ACK's airtime and the ACK timeout after it ([`Self::answer`]).
    answer_modes: [(crate::phy::ModeId, Dur, Dur); crate::phy::modes::VHT_BASE as usize],
    /// The same per VHT and HE MCS 0-11: their answer follows from the MCS's non-HT reference
    /// rate alone (Table 10-10, 10.6.6.5.2).
    answer_mcs: [(crate::phy::ModeId, Dur, Dur); 12],
    /// Beacons of every AP (11.1.3.2): none when unset.
    pub beacon: Option<BeaconConfig>,
    /// 802.11n A-MPDU under Block Ack: none when unset.
    pub ampdu: Option<AmpduConfig>,
}

/// How APs beacon: every `interval` (dot11BeaconPeriod TUs), a Beacon of `bytes` at `txv`
/// (the standard's lowest rate), through an access function of AIFSN 1 and CW 0, i.e. PIFS
/// after the medium turns idle with no backoff (ns-3 `ApWifiMac`'s beacon Txop, ath9k's
/// beacon queue `ath9k_beaconq_setup`: AIFS 1, CWmin = CWmax = 0).
#[derive(Clone, Copy, Debug)]
pub struct BeaconConfig {
    pub interval: Dur,
    pub txv: TxVector,
    pub bytes: u32,
}

impl WifiConfig {
    /// The settings of a channel with these PHY timings and rates; constant rate, retry
    /// limits 6 and 3 (the 802.11 defaults dot11ShortRetryLimit 7 attempts and
    /// dot11LongRetryLimit 4), no RTS, queues of 100 frames.
    pub fn new(
        standard: Standard,
        timing: PhyTiming,
        data_txv: TxVector,
        control_txv: TxVector,
        qos: bool,
    ) -> WifiConfig {
        let answer = |req| answer_of(standard, timing, control_txv, req);
        return WifiConfig {
            standard,
            timing,
            data_txv,
            control_txv,
            mgmt_txv: TxVector::new(standard.modes()[0], crate::phy::Preamble::Long),
            rate: RateAlgo::Constant(rate::constant::Constant { mode: data_txv.mode }),
            retry: RetryLimits::DEFAULT,
            rts_threshold_bytes: 65535,
            data_header_bytes: if qos { frame::QOS_DATA_HEADER_BYTES } else { frame::DATA_HEADER_BYTES },
            queue_limit: 100,
            airtime_meter: false,
            qos,
            response_timeout: timing.sifs + timing.slot + control_txv.preamble_and_header(),
            ack_duration: control_txv.duration(frame::ACK_BYTES),
            cts_duration: control_txv.duration(frame::CTS_BYTES),
            beacon: None,
            ampdu: None,
            answer_modes: std::array::from_fn(|i| answer(crate::phy::ModeId(i as u16))),
            answer_mcs: std::array::from_fn(|mcs| {
                let he = crate::phy::he::HeMode { mcs: mcs as u8, width_mhz: 20, nss: 1, gi_ns: 800 };
                answer(crate::phy::ModeId::he(he).expect("HE MCS 0-11 at 20 MHz"))
            }),
        };
        fn answer_of(
            standard: Standard,
            timing: PhyTiming,
            control_txv: TxVector,
            req: crate::phy::ModeId,
        ) -> (crate::phy::ModeId, Dur, Dur) {
            let mode = crate::phy::modes::control_answer(standard, req, control_txv.mode);
            let txv = TxVector { mode, ..control_txv };
            (mode, txv.duration(frame::ACK_BYTES), timing.sifs + timing.slot + txv.preamble_and_header())
        }
    }

    /// The ACK that answers a data frame sent at `data`: its mode, airtime and the ACK
    /// timeout after it (10.6.6.5.2).
    #[inline]
    pub fn answer(&self, data: crate::phy::ModeId) -> &(crate::phy::ModeId, Dur, Dur) {
        match self.answer_modes.get(usize::from(data.0)) {
            Some(a) => a,
            None => &self.answer_mcs[usize::from(data.modulation().mcs().unwrap_or(0))],
        }
    }

    /// Whether a PSDU of `bytes` goes after an RTS/CTS exchange (10.3.2.5): longer than the
    /// threshold, which at [`RTS_NEVER`] means never, as ns-3's (4,692,480) and Linux's (off)
    /// defaults do for the A-MPDUs of VHT and HE, longer than 65,535 bytes.
    #[inline]
    pub fn wants_rts(&self, bytes: u32) -> bool {
        self.rts_threshold_bytes < RTS_NEVER && bytes > self.rts_threshold_bytes
    }

    /// The TX vector of the ACK that answers a data frame sent at `data` (10.6.6.5.2).
    #[inline]
    pub fn ack_txv(&self, data: crate::phy::ModeId) -> TxVector {
        TxVector { mode: self.answer(data).0, ..self.control_txv }
    }

    /// Airtime of the ACK that answers a data frame sent at `data`.
    #[inline]
    pub fn ack_duration_for(&self, data: crate::phy::ModeId) -> Dur {
        self.answer(data).1
    }
}

/// What a MAC senses of its medium (PHY-CCA.indication and PHY-RXSTART, 10.3.2.1), read from
/// the medium by the caller of each handler that needs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cca {
    /// Physical carrier sense: the node senses a transmission or sends one.
    pub busy: bool,
    /// The node's own transmission is on the air.
    pub transmitting: bool,
    /// The node is receiving a frame (PHY-RXSTART seen, end not yet).
    pub receiving: bool,
}

/// A result a MAC hands up; the world drains them right after the call that made them, in
/// order, where the MAC used to call up directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacInd {
    /// `node` received the data or Action frame carrying `packet` from `from` (not a
    /// duplicate): pass it up.
    Delivered { node: NodeId, packet: PacketId, from: NodeId },
    /// The head frame of `node` carrying `packet` was acknowledged.
    Acked { node: NodeId, packet: PacketId },
    /// `node` gave `packet` up at the retry limit; `arrived`: the next hop had received it
    /// (only the ACKs were lost), so the flow lost nothing.
    Dropped { node: NodeId, packet: PacketId, arrived: bool },
    /// `node` received the data frame carrying `packet` with a failed FCS and passes it up
    /// ([`Mac::pass_corrupt`]): `hit` says which part the errors were in.
    DeliveredCorrupt { node: NodeId, packet: PacketId, hit: Hit },
    /// A frame left `node`'s queue: there is room for a source to refill.
    Room { node: NodeId },
    /// `node`'s Block Ack reordering buffer passes `packet` (already `node`'s own copy) up,
    /// in order.
    Released { node: NodeId, packet: PacketId },
    /// An MPDU of `node`'s A-MPDU to `peer` was settled (for the mpdus trace, made only when
    /// it is on; before the `Acked` or `Dropped` that frees its packet).
    Mpdu {
        node: NodeId,
        peer: NodeId,
        packet: PacketId,
        seq: u16,
        ac: u8,
        fate: ht::blockack::Fate,
        sw_retries: u8,
        attempts: u8,
        subframes: u16,
        block_ack: bool,
        /// Its place in the PPDU (0: the first subframe) and when it began, from the PPDU's
        /// start [ns].
        position: u16,
        offset_ns: u32,
    },
    /// An event for the cross-layer schemes (`xlayer`).
    Event(MacEvent),
}

/// Where the bit errors of a corrupt frame whose MAC header held were (paper 004 II-A: only
/// a corrupt payload leaves the headers CDO checks intact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// LLC/SNAP, IP or transport header (radio model); the stack cannot trust the segment.
    UpperHeader,
    /// The payload alone (under the range model: the MSDU, its headers not told apart).
    Payload,
}

/// One access category's queue and backoff entity (an EDCAF, 10.22.2).
#[derive(Debug)]
pub struct Txop {
    pub params: AcParams,
    pub queue: VecDeque<Queued>,
    pub cw: u32,
    /// Remaining backoff slots as of the last freeze.
    pub backoff: u32,
    /// A backoff is drawn and not yet counted down to zero (also post-backoff, 10.3.4.3).
    pub backoff_pending: bool,
    pub grant: Timer,
    /// Short and long retry counts of the head frame (10.3.4.4).
    pub src: u32,
    pub lrc: u32,
    /// The head data frame has been on the air: the next transmission of it is a
    /// retransmission and carries the Retry bit (9.2.4.1.4). A failed RTS does not set it.
    pub data_sent: bool,
    /// The mode rate control picked for the head frame's current attempt.
    pub mode: crate::phy::ModeId,
    /// When the head frame reached the head of the queue (its service time runs from here).
    pub head_since: SimTime,
    /// When the head frame's current attempt became ready to contend (it reached the head of
    /// the queue, or its previous attempt ended); for the mac_tx trace.
    pub attempt_since: SimTime,
    /// Slots of the backoff the head frame counts down (10.3.4.3); 0 for immediate access.
    pub drawn_slots: u32,
    /// (`attempt_since`, `drawn_slots`) as they were when the current attempt won access: a
    /// frame queued during the exchange may draw again before the exchange ends.
    pub granted: (SimTime, u32),
}

impl Txop {
    /// The head frame is done (acknowledged, given up, or sent once): it leaves the queue,
    /// and the next one, if any, starts afresh from CWmin with no retries (10.3.4.3, 10.3.4.4)
    /// and is the head from `now`. The caller draws the new backoff.
    #[inline]
    pub(crate) fn pop_head(&mut self, now: SimTime) -> Option<Queued> {
        let done = self.queue.pop_front();
        self.cw = self.params.cw_min;
        (self.src, self.lrc, self.data_sent) = (0, 0, false);
        self.head_since = now;
        done
    }
}

/// An access category's state under aggregation (802.11n; `Wifi::ht_tx`, kept out of
/// [`Txop`] so channels without it pay nothing).
#[derive(Clone, Copy, Debug, Default)]
pub struct HtTx {
    /// The A-MPDU on its way.
    pub agg: Agg,
    /// A BlockAckReq owed to a peer after an MPDU was given up (its Starting Sequence Number),
    /// sent before the next A-MPDU; and whether it is the frame on the air now.
    pub bar: Option<(NodeId, u16)>,
    pub bar_sent: bool,
    /// Transmissions of the owed BlockAckReq that got no BlockAck.
    pub bar_attempts: u8,
    /// The peer the last A-MPDU went to: the next goes to the next peer with frames queued
    /// (round robin over the (peer, TID) queues, ath9k `ath_txq_schedule`).
    pub last_peer: Option<NodeId>,
}

/// What a MAC keeps about one peer under Block Ack (`Station::ba` indexes `Wifi::ba_peers`):
/// the next sequence number per TID to the peer (10.3.2.14.2: QoS data under an agreement
/// count per receiver and TID), the originator's window per TID, and this MAC's recipients
/// for the peer's A-MPDUs (10.25.6).
#[derive(Clone, Copy, Debug)]
pub struct BaPeer {
    pub seq: [u16; AC_COUNT],
    pub tx: [ht::blockack::TxWindow; AC_COUNT],
    pub rx: [ht::blockack::Recipient; AC_COUNT],
    /// MoFA's state toward the peer per access category (with `AmpduConfig::mofa`).
    pub mofa: [ht::mofa::Mofa; AC_COUNT],
}

impl BaPeer {
    /// Agreements on every access category with a buffer of `window` MPDUs.
    pub fn new(window: u16) -> BaPeer {
        BaPeer {
            seq: [0; AC_COUNT],
            tx: [ht::blockack::TxWindow::new(0, window); AC_COUNT],
            rx: [ht::blockack::Recipient::new(0, window); AC_COUNT],
            mofa: [ht::mofa::Mofa::default(); AC_COUNT],
        }
    }
}

/// Where the node stands in a frame exchange it initiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    None,
    TxRts {
        ac: u8,
    },
    WaitCts {
        ac: u8,
        extended: bool,
    },
    /// CTS received; the data frame goes out after SIFS.
    CtsReceived {
        ac: u8,
    },
    TxData {
        ac: u8,
    },
    WaitAck {
        ac: u8,
        extended: bool,
    },
}

/// Per-node MAC counters: report counters, zeroed when the measured period starts
/// ([`Wifi::start_measuring`]); a scheme reads the station table instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct MacCounters {
    /// Channel accesses won: data or RTS frames sent after a backoff.
    pub accesses: u64,
    /// Data PPDUs sent (a single MPDU or an A-MPDU), retransmissions included.
    pub attempts: u64,
    /// Data PPDUs that carry a retransmission (an MPDU that went on the air before).
    pub retries: u64,
    /// Data PPDUs answered (an ACK, or a BlockAck to an A-MPDU).
    pub successes: u64,
    /// Data PPDUs that got no answer.
    pub failures: u64,
    /// Failed channel accesses (a data PPDU, RTS or BlockAckReq without answer) that overlapped
    /// another transmission.
    pub collisions: u64,
    /// MPDUs given up at their retry limit (hardware or, under Block Ack, software).
    pub drops_retry_limit: u64,
    pub drops_queue: u64,
    /// RTS frames sent, and those that got no CTS.
    pub rts_attempts: u64,
    pub rts_failures: u64,
    /// BlockAckReq frames sent after an MPDU was given up, and those that got no BlockAck.
    pub bar_attempts: u64,
    pub bar_failures: u64,
    /// MPDU transmissions (every subframe of every A-MPDU sent), retransmissions included.
    pub mpdus_sent: u64,
    /// MPDU transmissions that retransmit the MPDU (its Retry bit set, 9.2.4.1.4).
    pub mpdu_retries: u64,
    /// MPDUs acknowledged (by an ACK or a BlockAck bitmap), each once.
    pub mpdus_acked: u64,
    pub rx_ok: u64,
    pub rx_corrupt: u64,
    /// Corrupt receptions whose MAC header was intact (paper 004: header ok, payload hit; under
    /// the radio model the IP/TCP headers may have been hit, see the receptions trace).
    pub rx_payload_corrupt: u64,
    pub rx_duplicates: u64,
    /// Corrupt receptions whose errors were in the payload alone: MAC, LLC/SNAP, IP and
    /// transport headers intact (under the radio model, or when the world sizes the upper
    /// headers for [`Mac::pass_corrupt`]); CDO can name these (paper 004 II-A).
    pub rx_payload_only: u64,
    /// Corrupt data frames handed up the stack ([`Mac::pass_corrupt`]).
    pub rx_corrupt_up: u64,
    /// LN-MAC: empty CDO segments this MAC injected toward a TCP receiver (a segment of the
    /// connection vanished over the air).
    pub lnmac_notifications: u64,
    /// The qdisc above this interface dropped: at a full child (tail drop), and by CoDel.
    pub drops_qdisc: u64,
    pub drops_codel: u64,
    /// Packets CoDel CE-marked instead of dropping (ECN on).
    pub ecn_marks_codel: u64,
    /// Data transfer requests (frames queued) and the sum of the data rate each found toward
    /// its receiver (`Station::first_mode`, the rate control's choice for a first attempt): the driver's average data rate, paper 002's
    /// x-axis (IV-A), the rate its remedy averages (III-C).
    pub data_requests: u64,
    pub data_rate_kbps_sum: u64,
    /// Management (Action) frames sent, attempts included; they count in no data counter.
    pub mgmt_frames: u64,
}

impl MacCounters {
    /// A data PPDU of one MPDU went on the air (`retry`: its Retry bit).
    #[inline(always)]
    pub fn count_single_mpdu(&mut self, retry: bool) {
        self.attempts += 1;
        self.retries += u64::from(retry);
        self.mpdus_sent += 1;
        self.mpdu_retries += u64::from(retry);
    }

    /// An exchange got no answer: a data PPDU, or its RTS (`rts`); `collision`: it overlapped
    /// another transmission.
    #[inline(always)]
    pub fn count_failure(&mut self, rts: bool, collision: bool) {
        if rts {
            self.rts_failures += 1;
        } else {
            self.failures += 1;
        }
        self.collisions += u64::from(collision);
    }

    /// A data transfer request found its receiver's data rate at `mode`.
    #[inline]
    pub(crate) fn count_data_rate(&mut self, mode: ModeId) {
        self.data_requests += 1;
        self.data_rate_kbps_sum += u64::from(mode.rate_kbps());
    }
}

/// The MAC of one node.
#[derive(Debug)]
pub struct Mac {
    pub txops: [Txop; AC_COUNT],
    pub rule: CountRule,
    pub qos: bool,
    pub exchange: Exchange,
    /// The exchange under way is a management frame's (the head of its queue).
    pub mgmt_tx: bool,
    /// The response (ACK, CTS or data after CTS) waiting out its SIFS.
    pub response: Option<frame::Frame>,
    pub response_timer: Timer,
    /// An AP's beacon waits for the medium (the TBTT passed, PIFS of idle medium not yet).
    pub beacon_pending: bool,
    pub beacon_grant: Timer,
    /// ACK or CTS timeout.
    pub timeout: Timer,
    /// Virtual carrier sense: the NAV runs until this time (10.3.2.4).
    pub nav: nav::Nav,
    /// The medium (physical, own transmission and NAV) has been idle since this time.
    pub idle_start: SimTime,
    /// The backoff countdowns run (medium idle, no exchange, nothing to send in SIFS).
    pub counting: bool,
    /// The last reception failed: the next countdown waits EIFS instead of AIFS (10.3.2.3.7).
    pub eifs: bool,
    /// Outcome of the last data/RTS frame at its receiver, to classify a failed attempt.
    pub last_outcome_collision: bool,
    pub next_seq: u16,
    /// The station table: per peer (indexed by node), its duplicate cache (10.3.2.14), rate
    /// control state, retry policy and link statistics.
    pub peers: station::PeerTable,
    pub rng: Stream,
    pub counters: MacCounters,
    /// The node has a radio (a wired-only host never contends).
    pub wifi: bool,
    /// This node's rate control of data frames.
    pub rate: RateAlgo,
    /// The kinds of [`MacEvent`] a cross-layer scheme wants from this node (`xlayer::TX_DONE`,
    /// ...); the others are never made, so a node without schemes pays one test per event.
    pub events: u8,
    /// Receive policy (paper 004 section II): hand a data frame addressed here whose FCS
    /// failed but whose MAC header held up the stack, marked with the part that was hit,
    /// instead of discarding it.
    pub pass_corrupt: bool,
    /// ns-2's backoff rule ([`backoff::BackoffRule::Ns2`]): every frame backs off, in
    /// [0, CW - 1].
    pub ns2_backoff: bool,
    /// A clique's phantom ([`lazy`]): the index of its lazy set; `u32::MAX` for a node.
    pub lazy_set: u32,
}

impl Mac {
    /// A MAC with these access categories and rate control, and `nodes` peers never sent to.
    pub fn new(
        params: [AcParams; AC_COUNT],
        rule: CountRule,
        qos: bool,
        nodes: usize,
        rate: RateAlgo,
        mut rng: Stream,
    ) -> Mac {
        let peer = station::Station::new(rate.station(), rate.initial_mode());
        let txops = params.map(|p| {
            // Like ns-3 and real devices, every EDCAF starts with a random backoff.
            let backoff = rng.uniform_inclusive(p.cw_min);
            Txop {
                params: p,
                queue: VecDeque::new(),
                cw: p.cw_min,
                backoff,
                backoff_pending: true,
                grant: Timer::default(),
                src: 0,
                lrc: 0,
                data_sent: false,
                mode: peer.mode,
                head_since: SimTime::ZERO,
                attempt_since: SimTime::ZERO,
                drawn_slots: backoff,
                granted: (SimTime::ZERO, 0),
            }
        });
        Mac {
            txops,
            rule,
            qos,
            exchange: Exchange::None,
            mgmt_tx: false,
            response: None,
            response_timer: Timer::default(),
            beacon_pending: false,
            beacon_grant: Timer::default(),
            timeout: Timer::default(),
            nav: nav::Nav::default(),
            idle_start: SimTime::ZERO,
            counting: false,
            eifs: false,
            last_outcome_collision: false,
            next_seq: 0,
            peers: station::PeerTable::new(peer, nodes),
            rng,
            counters: MacCounters::default(),
            wifi: true,
            rate,
            events: 0,
            pass_corrupt: false,
            ns2_backoff: false,
            lazy_set: u32::MAX,
        }
    }

    /// Follow ns-2's backoff rule: no backoff pending at the start (ns-2's MAC draws one
    /// when the first frame arrives), every later one in [0, CW - 1].
    pub fn use_ns2_backoff(&mut self) {
        self.ns2_backoff = true;
        for txop in &mut self.txops {
            (txop.backoff, txop.drawn_slots, txop.backoff_pending) = (0, 0, false);
        }
    }

    /// The node may not start a backoff-governed transmission now.
    pub fn blocked(&self) -> bool {
        self.exchange != Exchange::None || self.response.is_some()
    }

    /// Draw a fresh backoff in [0, CW] for `ac` (10.3.4.3).
    pub fn draw_backoff(&mut self, ac: usize) {
        // ns-2: `Random::random() % cw_`, in [0, CW - 1].
        let cw = if self.ns2_backoff { self.txops[ac].cw.saturating_sub(1) } else { self.txops[ac].cw };
        self.txops[ac].backoff = self.rng.uniform_inclusive(cw);
        self.txops[ac].drawn_slots = self.txops[ac].backoff;
        self.txops[ac].backoff_pending = true;
    }

    /// AIFS of `ac`, or EIFS - DIFS + AIFS after an erroneous reception (10.22.2.4).
    pub fn ifs(&self, ac: usize, timing: &PhyTiming) -> Dur {
        let aifs = timing.sifs + timing.slot.times(u64::from(self.txops[ac].params.aifsn));
        if self.eifs {
            aifs + timing.sifs + timing.eifs_ack
        } else {
            aifs
        }
    }
}

/// Every node's MAC and the settings they share; the handlers are in `access`, `exchange` and
/// `rx`.
pub struct Wifi {
    pub cfg: WifiConfig,
    pub(in crate::mac) macs: Vec<Mac>,
    /// Rate-control states too large for the station table.
    pub rate_arena: rate::RateArena,
    /// Results for the world, drained (and cleared) right after each handler call; the
    /// buffer is reused, so handing results up allocates nothing.
    pub ind: Vec<MacInd>,
    /// Some MAC passes corrupt frames up ([`Mac::pass_corrupt`]): data frames carry the size
    /// of their upper headers, so that a channel decides them apart from the payload.
    pub upper_aware: bool,
    /// Under aggregation, each (node, access category)'s [`HtTx`], at `node * 4 + ac`; empty
    /// otherwise.
    pub ht_tx: Vec<HtTx>,
    /// Block Ack state per (node, peer) pair that exchanged A-MPDUs (`Station::ba`).
    pub ba_peers: Vec<BaPeer>,
    /// The bitmap of the last BlockAck each node sent (a frame carries only its Starting
    /// Sequence Number, so that frames stay small); made at the first BlockAck.
    pub block_ack_bitmaps: Vec<ht::blockack::Bitmap>,
    /// Scratch for the packets a recipient releases (reused: no allocation per frame).
    pub released: Vec<PacketId>,
    /// Scratch for an A-MPDU's subframes (reused: no allocation per PPDU).
    pub subframe_scratch: Vec<aggregate::Subframe>,
    /// The first access point, whose MAC is the BSSID of frames between non-AP nodes.
    pub bss_ap: Option<NodeId>,
    /// The mpdus trace is on: settling an A-MPDU reports each MPDU ([`MacInd::Mpdu`]).
    pub trace_mpdus: bool,
    /// Groups of stations whose grants share one scheduler event ([`contention::Domains`]).
    pub domains: contention::Domains,
    /// The shared countdowns of the cliques' lazy members ([`lazy`]), one per clique.
    pub lazy: Vec<lazy::LazySet>,
    /// How many nodes there are (the cliques' phantom MACs follow them in `macs`).
    n: usize,
}

/// What the layers above may read from the MACs and tell them, the one door to their state
/// (issue 32: no MAC field is reached from outside `mac/`).
impl Wifi {
    /// How many MACs (one per node).
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no MACs.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `node`'s access categories' parameters (BK, BE, VI, VO).
    pub fn ac_params(&self, node: NodeId) -> [AcParams; AC_COUNT] {
        std::array::from_fn(|ac| self.macs[node.idx()].txops[ac].params)
    }

    /// `node`'s report counters.
    pub fn counters(&self, node: NodeId) -> &MacCounters {
        &self.macs[node.idx()].counters
    }

    /// Packets dropped in `node`'s interface tier: at a full qdisc or pushed out of the
    /// intermediate queues (`qdisc`), and by CoDel (`codel`); counted with the MAC's.
    pub fn count_iface_drops(&mut self, node: NodeId, qdisc: u64, codel: u64) {
        let c = &mut self.macs[node.idx()].counters;
        c.drops_qdisc += qdisc;
        c.drops_codel += codel;
    }

    /// CoDel above `node`'s interface CE-marked `n` packets instead of dropping them.
    pub fn count_ecn_marks(&mut self, node: NodeId, n: u64) {
        self.macs[node.idx()].counters.ecn_marks_codel += n;
    }

    /// `node` sent an LN-MAC notification (paper 004).
    pub fn count_lnmac_notification(&mut self, node: NodeId) {
        self.macs[node.idx()].counters.lnmac_notifications += 1;
    }

    /// `node`'s station table (every peer, read).
    pub fn peers(&self, node: NodeId) -> &station::PeerTable {
        &self.macs[node.idx()].peers
    }

    /// `node`'s link statistics toward `peer`.
    pub fn link(&self, node: NodeId, peer: NodeId) -> &station::LinkStats {
        &self.macs[node.idx()].peers[peer.idx()].link
    }

    /// `node`'s link statistics toward `peer`, to change (the mesh's link state, `link_broken`).
    pub fn link_mut(&mut self, node: NodeId, peer: NodeId) -> &mut station::LinkStats {
        &mut self.macs[node.idx()].peers[peer.idx()].link
    }

    /// The mode of `node`'s first attempts toward `peer` as rate control last chose it.
    pub fn first_mode(&self, node: NodeId, peer: NodeId) -> crate::phy::ModeId {
        self.macs[node.idx()].peers[peer.idx()].first_mode
    }

    /// `src`'s last frame was lost to a collision at its addressee (`collided`), or not: the
    /// failure counters tell the two apart.
    pub fn set_collided(&mut self, src: NodeId, collided: bool) {
        self.macs[src.idx()].last_outcome_collision = collided;
    }

    /// When `node`'s queue `ac` last became ready to contend, and the backoff slots it drew.
    pub fn granted(&self, node: NodeId, ac: usize) -> (SimTime, u32) {
        self.macs[node.idx()].txops[ac].granted
    }

    /// The bitmap of the BlockAck `node` last sent (empty if it sent none).
    pub fn block_ack_bitmap(&self, node: NodeId) -> ht::blockack::Bitmap {
        self.block_ack_bitmaps.get(node.idx()).copied().unwrap_or_default()
    }

    /// `node`'s rate-control algorithm.
    pub fn rate_algo(&self, node: NodeId) -> Option<&rate::RateAlgo> {
        self.macs.get(node.idx()).map(|m| &m.rate)
    }

    /// An agent sets the mode of `node`'s data frames to `peer` (`rate_control = "agent"`).
    pub fn set_agent_mode(&mut self, node: NodeId, peer: NodeId, mode: crate::phy::ModeId) {
        let mac = &mut self.macs[node.idx()];
        mac.rate.set_agent_mode(&mut mac.peers[peer.idx()].rate, &mut self.rate_arena, mode);
    }
}

impl Wifi {
    pub fn new(cfg: WifiConfig, macs: Vec<Mac>) -> Wifi {
        let macs_len = macs.len();
        Wifi {
            rate_arena: rate::RateArena::new(&cfg.timing, macs.iter().map(|m| &m.rate)),
            cfg,
            macs,
            ind: Vec::with_capacity(8),
            upper_aware: false,
            ht_tx: Vec::new(),
            ba_peers: Vec::new(),
            block_ack_bitmaps: Vec::new(),
            released: Vec::with_capacity(WINDOW_CAPACITY),
            subframe_scratch: Vec::with_capacity(ht::blockack::MAX_WINDOW as usize),
            bss_ap: None,
            trace_mpdus: false,
            domains: contention::Domains::default(),
            lazy: Vec::new(),
            n: macs_len,
        }
    }

    /// The measured period starts: the report counters start from zero.
    pub fn start_measuring(&mut self) {
        for m in &mut self.macs {
            m.counters = MacCounters::default();
        }
    }

    /// Whether `node`'s queue of `ac` can take another frame.
    pub fn has_room(&self, node: NodeId, ac: usize) -> bool {
        self.macs[node.idx()].txops[ac].queue.len() < self.cfg.queue_limit
    }

    /// Make the [`MacEvent`]s of kinds `mask` at `node` (for the cross-layer schemes there).
    pub fn subscribe(&mut self, node: NodeId, mask: u8) {
        self.macs[node.idx()].events |= mask;
    }

    /// Frames in `node`'s queue of `ac`.
    pub fn queue_len(&self, node: NodeId, ac: usize) -> usize {
        self.macs[node.idx()].txops[ac].queue.len()
    }

    /// The retry limits of queued frame `q` of `node`: its own, else its peer's, else the
    /// channel's (10.3.4.4).
    #[inline]
    pub fn retry_limits(&self, node: NodeId, q: &Queued) -> RetryLimits {
        match q.retry_limit {
            Some(l) => RetryLimits::both(u32::from(l)),
            None => self.macs[node.idx()].peers[q.next_hop.idx()].retry.unwrap_or(self.cfg.retry),
        }
    }

    /// From now on, frames of `node` to `peer` use `limits` (`None`: the channel's). A frame
    /// in the middle of its retries is judged against the new limits at its next failure.
    pub fn set_peer_retry_limits(&mut self, node: NodeId, peer: NodeId, limits: Option<RetryLimits>) {
        self.macs[node.idx()].peers[peer.idx()].retry = limits;
    }

    /// From now on, A-MPDUs of `node` to `peer` use the Block Ack retry budgets `limits`
    /// (`None`: the channel's `ht.ppdu_attempts` and `ht.mpdu_retries`).
    pub fn set_peer_ba_limits(
        &mut self,
        node: NodeId,
        peer: NodeId,
        limits: Option<ht::blockack::BaRetryLimits>,
    ) {
        self.macs[node.idx()].peers[peer.idx()].ba_retry = limits;
    }

    /// The Block Ack retry budgets of queued MPDU `q` of `node`: the peer's or the channel's,
    /// its software retries being the frame's own limit if it carries one
    /// ([`Wifi::set_frame_retry_limit`]; paper 002 sets one per TCP frame).
    pub fn ba_limits(&self, node: NodeId, q: &Queued) -> ht::blockack::BaRetryLimits {
        let channel = self.cfg.ampdu.map_or(ht::blockack::BaRetryLimits::ATH9K_3_2, |a| a.retry);
        let peer = self.macs[node.idx()].peers[q.next_hop.idx()].ba_retry.unwrap_or(channel);
        ht::blockack::BaRetryLimits { mpdu_retries: q.retry_limit.unwrap_or(peer.mpdu_retries), ..peer }
    }

    /// Give the queued frame of `node` carrying `packet` its own retry limit (under Block Ack:
    /// its software retries); false if no such frame is queued.
    pub fn set_frame_retry_limit(&mut self, node: NodeId, packet: PacketId, retries: Option<u8>) -> bool {
        for txop in &mut self.macs[node.idx()].txops {
            if let Some(q) = txop.queue.iter_mut().find(|q| q.packet == packet) {
                q.retry_limit = retries;
                return true;
            }
        }
        false
    }

    /// Rate control picks the mode of the next attempt of `node`'s head frame of `ac` to
    /// `peer` (`attempt` failures so far); a change of mode goes up as
    /// [`MacEvent::RateChanged`].
    #[inline]
    pub(crate) fn select_mode(&mut self, node: NodeId, ac: usize, peer: NodeId, attempt: u32, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        if let rate::RateAlgo::Constant(c) = mac.rate {
            // Every peer starts at this mode and stays there: nothing to select or report.
            mac.txops[ac].mode = c.mode;
            return;
        }
        let rate = &mac.rate;
        let st = &mut mac.peers[peer.idx()];
        let mode =
            rate.select(&mut st.rate, &mut self.rate_arena, (node.idx(), peer.idx(), ac), attempt, now);
        if attempt == 0 {
            st.first_mode = mode;
        }
        if mode != st.mode {
            st.mode = mode;
            if mac.events & event::RATE_CHANGED != 0 {
                self.ind.push(MacInd::Event(MacEvent::RateChanged { node, peer, mode }));
            }
        }
        mac.txops[ac].mode = mode;
        if attempt == 0 && self.cfg.ampdu.is_none() {
            // A multi-rate retry chain sets how many attempts the frame gets (Linux on MRR
            // hardware, ns-3's MinstrelWifiManager::DoNeedRetransmission), unless the frame
            // carries a limit of its own.
            if let Some(n) = rate.frame_attempts(&st.rate, &self.rate_arena, ac) {
                if let Some(q) = mac.txops[ac].queue.front_mut() {
                    q.retry_limit = q.retry_limit.or(Some(n.saturating_sub(1)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::Standard;

    #[test]
    fn ac_be_in_bg_mixed_mode_matches_paper_000_table_ii() {
        // 000 Table II: slot 20 us, SIFS 10 us, AIFS[AC_BE] 70 us, CWmin 15, CWmax 1023.
        let timing = PhyTiming::of(Standard::G, true);
        let be = AcParams::edca_default(1, &timing);
        let aifs = timing.sifs + timing.slot.times(u64::from(be.aifsn));
        assert_eq!(aifs, Dur::from_us(70));
        assert_eq!((be.cw_min, be.cw_max), (15, 1023));
    }

    #[test]
    fn difs_and_eifs_per_phy() {
        // DIFS = SIFS + 2 slots (10.3.2.3.5); EIFS = SIFS + DIFS + ACK at the lowest mandatory
        // rate (10.3.2.3.7). Hand computed: 11a 16+18 = 34, 16+44+34 = 94; 11b 10+40 = 50,
        // 10+304+50 = 364; 11g 10+18 = 28, 10+50+28 = 88; 11g b/g mixed 10+40 = 50, 10+304+50 = 364.
        let cases = [
            (Standard::A, false, 34, 94),
            (Standard::B, false, 50, 364),
            (Standard::G, false, 28, 88),
            (Standard::G, true, 50, 364),
        ];
        for (standard, mixed, difs_us, eifs_us) in cases {
            let t = PhyTiming::of(standard, mixed);
            let rng = crate::rng::Stream::derive(1, 1, crate::rng::Purpose::Backoff);
            let rate = RateAlgo::Constant(rate::constant::Constant { mode: crate::phy::modes::OFDM_6 });
            let mut mac = Mac::new([AcParams::dcf(&t); AC_COUNT], CountRule::Dcf, false, 1, rate, rng);
            assert_eq!(mac.ifs(1, &t), Dur::from_us(difs_us), "{standard:?} DIFS");
            mac.eifs = true;
            assert_eq!(mac.ifs(1, &t), Dur::from_us(eifs_us), "{standard:?} EIFS");
        }
    }

    #[test]
    fn an_ack_answers_at_the_basic_rate_or_below_the_data_rate() {
        // 802.11a with a 24 Mbit/s basic rate: data at 54 is answered at 24 (28 us: 14 bytes,
        // ceil(134/96) = 2 symbols); data at 9 at the mandatory 6 (44 us), and the ACK
        // timeout is SIFS 16 + slot 9 + the OFDM preamble and SIGNAL 20 = 45 us either way.
        let t = PhyTiming::of(Standard::A, false);
        let m = |k| TxVector::new(Standard::A.mode(k).unwrap(), crate::phy::Preamble::Long);
        let cfg = WifiConfig::new(Standard::A, t, m(54_000), m(24_000), false);
        assert_eq!(cfg.ack_duration_for(m(54_000).mode), Dur::from_us(28));
        assert_eq!(cfg.ack_txv(m(9_000).mode), m(6_000));
        assert_eq!(cfg.ack_duration_for(m(9_000).mode), Dur::from_us(44));
        assert_eq!(cfg.answer(m(9_000).mode).2, Dur::from_us(45));
        // 802.11g b/g with a 1 Mbit/s basic rate: an ERP-OFDM frame is answered at 1 Mbit/s
        // DSSS, whose long PLCP preamble and header take 192 us: the timeout is 10 + 20 + 192.
        let t = PhyTiming::of(Standard::G, true);
        let g = |k| TxVector::new(Standard::G.mode(k).unwrap(), crate::phy::Preamble::Long);
        let cfg = WifiConfig::new(Standard::G, t, g(54_000), g(1_000), false);
        assert_eq!(cfg.answer(g(54_000).mode).2, Dur::from_us(222));
    }

    #[test]
    fn default_edca_parameter_set_follows_table_9_155() {
        // 802.11a: aCWmin 15, aCWmax 1023 -> VI (7, 15, AIFSN 2), VO (3, 7, AIFSN 2), BK AIFSN 7.
        let t = PhyTiming::of(Standard::A, false);
        let p: Vec<_> = (0..4).map(|ac| AcParams::edca_default(ac, &t)).collect();
        assert_eq!(p[0], AcParams { aifsn: 7, cw_min: 15, cw_max: 1023 });
        assert_eq!(p[2], AcParams { aifsn: 2, cw_min: 7, cw_max: 15 });
        assert_eq!(p[3], AcParams { aifsn: 2, cw_min: 3, cw_max: 7 });
    }
}
