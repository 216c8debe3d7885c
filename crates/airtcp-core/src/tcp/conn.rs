//! One TCP connection as two pure state machines: a [`Sender`] (active opener, data source)
//! and a [`Receiver`] (passive opener, data sink). They consume segments and timer expiries
//! and emit segments plus timer commands; the world carries the segments as packets.
//!
//! Sequence space: the SYN takes sequence 0, data starts at 1, a FIN takes the sequence after
//! the last data byte. Loss recovery: Tahoe (4.3BSD: slow start after fast retransmit),
//! Reno (RFC 5681) and NewReno (RFC 6582), each with limited transmit (RFC 3042).

use super::cc::{Algorithm, CaState, CcState, CongestionOps, CwndEvent, CwndLimited};
use super::rack::Rack;
use super::rate::RateSampler;
use super::rto::{RtoConfig, RtoEstimator};
use super::sack::{self, Grid, Scoreboard};
use crate::time::{Dur, SimTime};

/// IPv4 (20) + TCP (20) header bytes.
pub const TCP_IP_HEADER_BYTES: u32 = 40;
/// The timestamps option with its two NOPs (RFC 7323 appendix A layout).
pub const TIMESTAMP_OPTION_BYTES: u32 = 12;

/// SYN and SYN-ACK option bytes as Linux lays them out for the options in use (tcp_output.c
/// `tcp_options_write`, options from `tcp_syn_options`/`tcp_synack_options`): MSS (4); with
/// timestamps SACK-permitted + TS, or NOP NOP + TS, in 12; without them NOP NOP SACK-permitted
/// (4) if SACK is on; NOP + window scale (4). 20 with timestamps, else 12 with SACK, else 8.
pub fn syn_option_bytes(timestamps: bool, sack_permitted: bool) -> u32 {
    let ts_sack = match (timestamps, sack_permitted) {
        (true, _) => 12,
        (false, true) => 4,
        (false, false) => 0,
    };
    4 + ts_sack + 4
}

/// The Corruption Detection Option in a data segment (draft-welzl-tcp-corruption-00 as paper
/// 004 Fig. 1 draws it: a CRC32c over the fields needed to deliver a corrupt segment), in the
/// RFC 6994 experimental form: kind 253, length 8, a 16-bit ExID, the CRC32c. Eight bytes: the
/// draft's six padded to a 32-bit boundary would take as many.
pub const CDO_OPTION_BYTES: u32 = 8;
/// The Corruption Notification Option in an ACK (paper 004 Fig. 2), RFC 6994 form: kind 253,
/// length 4, the ExID (the draft's two bytes, padded, would take as many).
pub const CNO_OPTION_BYTES: u32 = 4;
/// Option bits of a [`Segment`].
pub const OPT_CDO: u8 = 1;
pub const OPT_CNO: u8 = 2;

/// Segment flags.
pub const SYN: u8 = 1;
pub const ACK: u8 = 2;
pub const FIN: u8 = 4;
/// RFC 3168 section 6.1: ECN-Echo (the receiver saw CE, until a CWR), and Congestion Window
/// Reduced (the sender cut its window). Internal bits; the pcap writes the header's.
pub const ECE: u8 = 8;
pub const CWR: u8 = 16;

/// The ECN field of the IP header carrying a segment (RFC 3168 section 5).
pub const NOT_ECT: u8 = 0;
pub const ECT0: u8 = 2;
pub const CE: u8 = 3;

/// A TCP segment as the two ends see it; sizes are accounted, payload bytes are not carried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Segment {
    pub seq: u64,
    pub ack: u64,
    /// Payload bytes.
    pub len: u32,
    pub flags: u8,
    /// Advertised receive window [bytes] (already scaled: window scaling only changes how
    /// the header would encode it).
    pub wnd: u32,
    /// RFC 7323 TSval and TSecr: send time + 1 [ns] at either end (each end's clock is the
    /// simulated time; pcap shows it in microseconds); 0 when timestamps are off.
    pub ts_val: u64,
    pub ts_ecr: u64,
    /// Sent again (for statistics and traces).
    pub retransmit: bool,
    /// RFC 2018 SACK blocks [start, end) carried by an ACK; `sack_n` of them are valid.
    pub sack: [(u64, u64); sack::MAX_BLOCKS],
    pub sack_n: u8,
    /// Paper 004's options: [`OPT_CDO`] (a data segment, or LN-MAC's empty notification),
    /// [`OPT_CNO`] (an ACK naming the corrupt segment `cno_seq`).
    pub opts: u8,
    /// The segment a CNO names (its first sequence number). The draft's two-byte option names
    /// nothing: the ACK carrying it does, by echoing the corrupt segment's TSval; the model
    /// carries the name itself, so that it needs no timestamps.
    pub cno_seq: u64,
    /// The ECN field of the IP packet carrying it ([`NOT_ECT`], [`ECT0`], [`CE`]): ECT(0) on
    /// new data of a connection that negotiated ECN, CE once a queue marked it instead of
    /// dropping it (RFC 3168 section 5).
    pub ecn: u8,
}

impl Segment {
    /// True for what the sender's socket keeps charged until the device frees it: data, SYN
    /// and FIN (the handshake's pure ACK is not counted; TSQ gates only new data).
    pub fn holds_send_memory(&self) -> bool {
        self.len > 0 || self.flags & (SYN | FIN) != 0
    }

    /// Bytes of the IP packet carrying this segment on a connection with these options.
    pub fn ip_bytes(&self, timestamps: bool, sack_permitted: bool) -> u32 {
        let opts = if self.flags & SYN != 0 {
            syn_option_bytes(timestamps, sack_permitted)
        } else if timestamps {
            TIMESTAMP_OPTION_BYTES
        } else {
            0
        };
        // RFC 2018: NOP, NOP, kind, length, then 8 bytes per block.
        let sack = if self.sack_n > 0 { 4 + 8 * u32::from(self.sack_n) } else { 0 };
        let corruption = if self.opts & OPT_CDO != 0 { CDO_OPTION_BYTES } else { 0 }
            + if self.opts & OPT_CNO != 0 { CNO_OPTION_BYTES } else { 0 };
        TCP_IP_HEADER_BYTES + opts + sack + corruption + self.len
    }
}

/// What a timer should do after an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerCmd {
    /// Leave it as it is.
    Keep,
    /// (Re)arm it to fire at this time.
    Arm(SimTime),
    Stop,
}

crate::names::names! {
    /// Loss recovery flavour.
    pub enum Recovery {
        Tahoe = "tahoe",
        Reno = "reno",
        NewReno = "newreno",
        /// SACK option (RFC 2018) with conservative SACK-based recovery (RFC 6675).
        Sack = "sack",
    }
}

/// Names of the loss recoveries, as configurations spell them; Python reads this table.
pub const RECOVERY_NAMES: &[&str] = Recovery::NAMES;

crate::names::names! {
    /// How the window grows on an ACK: by the segments it acknowledges (Linux 4.1+), or one
    /// step per ACK, stretch ACKs included (Linux up to 3.17: `TcpParams::per_ack_growth`).
    pub enum AckCounting {
        Segments = "segments",
        Acks = "acks",
    }
}

crate::names::names! {
    /// What the sender does when its own interface refuses a segment (the qdisc, or the MAC's
    /// queue where there is none, is full).
    #[derive(Default)]
    pub enum LocalCongestion {
        /// The segment is lost there as on any other hop; SACK or the RTO repair it (airtcp's
        /// behaviour before the switch).
        #[default]
        Loss = "loss",
        /// Linux `tcp_transmit_skb`: `dev_queue_xmit`'s NET_XMIT_DROP keeps the segment in the
        /// write queue unsent and calls `tcp_enter_cwr`; the sender tries again on its next
        /// ACK (or, with nothing in flight, after `TCP_RESOURCE_PROBE_INTERVAL`).
        Cwr = "cwr",
    }
}

crate::names::names! {
    /// What a retransmission timeout does to loss recovery.
    #[derive(Default)]
    pub enum RtoRecovery {
        /// RFC 6298 (5.4-5.6) and RFC 5681 (4) with RFC 6675 section 5.1: every RTO cuts
        /// ssthresh, the SACK scoreboard is dropped and the sender goes back to `snd_una`
        /// (airtcp's behaviour before the switch).
        #[default]
        Rfc = "rfc",
        /// Linux `tcp_enter_loss` and `tcp_process_loss` (3.2 to 6.x): the scoreboard is kept,
        /// every unSACKed segment sent is marked lost and resent in order, SACKed ones
        /// skipped, on each ACK as cwnd allows (`tcp_xmit_retransmit_queue`), new data after
        /// them; ssthresh is cut only if it was not already in this window (from Open or
        /// Disorder, once the window's recovery point is acknowledged, or on the first of
        /// several RTOs in a row).
        Linux = "linux",
    }
}

crate::names::names! {
    /// What an ACK credits to congestion avoidance and slow start.
    #[derive(Default)]
    pub enum CwndCredit {
        /// Every segment the cumulative ACK covers, SACKed before or not (airtcp's behaviour
        /// before the switch): the ACK that ends SACK recovery credits the whole window.
        #[default]
        Acked = "acked",
        /// Only the segments this ACK newly delivered: cumulatively acknowledged and not
        /// SACKed before, plus newly SACKed (Linux 4.9+ `tcp_cong_control(sk, ack,
        /// delivered - prior_delivered, ...)`), on an ACK that moves the cumulative ACK
        /// (`tcp_may_raise_cwnd`: FLAG_DATA_ACKED).
        Delivered = "delivered",
    }
}

crate::names::names! {
    /// Where Proportional Rate Reduction (RFC 6937) paces a window reduction.
    #[derive(Default)]
    pub enum Prr {
        /// Nowhere: cwnd = ssthresh at once in SACK recovery (RFC 6675), Linux 3.2's rate
        /// halving (`tcp_cwnd_down`) in CWR (airtcp's behaviour before the switch).
        #[default]
        Off = "off",
        /// In SACK recovery only (Linux 3.2-3.9 `tcp_update_cwnd_in_recovery`); CWR halves by
        /// rate.
        Recovery = "recovery",
        /// In SACK recovery and in CWR (Linux 3.10+ `tcp_cwnd_reduction`, "tcp: use PRR to
        /// reduce cwin in CWR state").
        RecoveryAndCwr = "recovery-and-cwr",
    }
}

crate::names::names! {
    /// NewReno's recovery as which implementation runs it (`tcp.newreno_rule`).
    #[derive(Default)]
    pub enum NewRenoRule {
        /// RFC 6582 section 3.2: a partial ACK deflates the window by the data it acknowledges
        /// and adds one segment back; recovery ends with cwnd = min(ssthresh, FlightSize + 1)
        /// (step 3, option 1).
        #[default]
        Rfc6582 = "rfc6582",
        /// ns-2.1b9a's `Agent/TCP/Newreno` at its defaults (`tcp-newreno.cc`: partial window
        /// deflation, newreno_changes1_ and exit_recovery_fix_ all 0): a partial ACK sets
        /// `dupwnd_ = 0`, the whole inflation gone (the window back to ssthresh) before the
        /// next hole is resent; while duplicate ACKs count, each ACK sends at most two new
        /// segments (`send_much(0, 0, 2)`); recovery ends with cwnd = ssthresh.
        Ns2 = "ns-2.1b9a",
    }
}

crate::names::names! {
    /// What restarts the retransmission timer besides the timer itself (`tcp.rto_rearm`).
    #[derive(Default)]
    pub enum RtoRearm {
        /// An ACK of new data (RFC 6298 (5.3)); a retransmission leaves it running.
        #[default]
        Ack = "ack",
        /// That, and the retransmission of the first unacknowledged segment in recovery
        /// (Linux `tcp_xmit_retransmit_queue`: `skb == tcp_write_queue_head` resets
        /// ICSK_TIME_RETRANS to the RTO from now; 6.x unless RACK's reordering timer runs).
        HeadRetransmit = "head-retransmit",
    }
}

crate::names::names! {
    /// How TCP Small Queues bounds the bytes of a connection below TCP (`tcp.tsq_rule`), each
    /// as `tcp_write_xmit` (3.6-3.18) or `tcp_small_queue_check` (3.19+) throttles once
    /// `sk_wmem_alloc` exceeds the limit.
    #[derive(Default)]
    pub enum TsqRule {
        /// Linux 3.19+ ("tcp: refine TSO autosizing"): max(2 truesize, pacing rate >> 10),
        /// capped at `tcp_limit_output_bytes`.
        #[default]
        Linux319 = "linux-3.19",
        /// Linux 3.12-3.18 ("tcp: TSQ can use a dynamic limit"): max(`tcp_limit_output_bytes`,
        /// pacing rate >> 10), so the sysctl is a floor, not a cap.
        Linux312 = "linux-3.12",
        /// Linux 3.6-3.11: `tcp_limit_output_bytes` alone.
        Linux36 = "linux-3.6",
    }
}

crate::names::names! {
    /// How the tail loss probe's and RACK's reordering timeouts become timer jiffies
    /// (`tcp.timer_rounding`); the two differ only with `tcp.clock_hz` set or, for the
    /// probe with one segment out, a `tcp.min_rto_ms` other than 200.
    #[derive(Default)]
    pub enum TimerRounding {
        /// Linux 4.14-6.5 (`tcp_schedule_loss_probe`, `tcp_rack_mark_lost`):
        /// `usecs_to_jiffies(t) + TCP_TIMEOUT_MIN`, the time rounded up to a tick plus 2
        /// jiffies; the probe's delayed-ACK allowance is TCP_RTO_MIN (200 ms).
        #[default]
        Linux414 = "linux-4.14",
        /// Linux 6.6+ ("tcp: fix excessive TLP and RACK timeouts from HZ rounding"):
        /// `usecs_to_jiffies(t + TCP_TIMEOUT_MIN_US)`, 2 ms added before rounding up; the
        /// probe's allowance is the connection's minimum RTO (`tcp_rto_min_us`).
        Linux66 = "linux-6.6",
    }
}

crate::names::names! {
    /// When the tail loss probe is scheduled and how far ahead (`tcp.tlp_rule`).
    #[derive(Default)]
    pub enum TlpRule {
        /// RFC 8985 section 7.2 and Linux 4.14+ `tcp_schedule_loss_probe`: in Open or CWR,
        /// 2 SRTT plus TCP_TIMEOUT_MIN (2 jiffies), or plus TCP_RTO_MIN (200 ms) with one
        /// segment out; 1 s before an RTT sample.
        #[default]
        Rfc8985 = "rfc8985",
        /// Linux 3.10-4.13 `tcp_schedule_loss_probe`: in Open only, not while cwnd has room
        /// and data waits unsent, not before an RTT sample; max(2 SRTT, 10 ms), or max(2 SRTT,
        /// 1.5 SRTT + TCP_DELACK_MAX (200 ms), 10 ms) with one segment out.
        Linux310 = "linux-3.10",
    }
}

crate::names::names! {
    /// Which retransmissions SACK recovery watches for a second loss (without RACK).
    #[derive(Default)]
    pub enum LostRetransmit {
        /// The head's alone: once its segment stops being the head, or if it was resent before
        /// it became the head, a second loss waits for the RTO (airtcp's behaviour before the
        /// switch).
        #[default]
        Head = "head",
        /// Every retransmission of the recovery: lost once a segment sent after it is SACKed
        /// while it is not (Linux 2.6.25-4.3 `tcp_mark_lost_retrans`, with FACK, 3.x's
        /// default), and sent again.
        Every = "every",
    }
}

/// Linux `TCP_TIMEOUT_MIN` in jiffies (`RtoConfig::jiffies`: 2 ms at the nanosecond clock,
/// 20 ms at `clock_hz = 100`), added to RACK's reordering timer (`tcp_rack_mark_lost`) and to
/// the tail loss probe's timeout.
pub const TCP_TIMEOUT_MIN_JIFFIES: u64 = 2;
/// Linux 6.6+ `TCP_TIMEOUT_MIN_US`: 2 ms added to the probe's and the reordering timer's
/// timeouts before they are rounded up to jiffies.
pub const TCP_TIMEOUT_MIN_US: Dur = Dur::from_ms(2);
/// Linux `TCP_RTO_MIN` (HZ / 5) as the tail loss probe's allowance for a delayed ACK with one
/// segment out (4.14+), and `TCP_DELACK_MAX` (HZ / 5) as 3.10's; both 200 ms.
pub const TCP_RTO_MIN: Dur = Dur::from_ms(200);
pub const TCP_DELACK_MAX: Dur = Dur::from_ms(200);

crate::names::names! {
    /// The receiver's quick-ack mode (Linux `icsk_ack.quick`, net/ipv4/tcp_input.c): a count of
    /// ACKs to send at once, one per data segment, whatever `ack_every` says.
    #[derive(Default)]
    pub enum QuickAck {
        /// None: every `ack_every` segments or the delayed-ACK timer (airtcp's behaviour before
        /// the switch).
        #[default]
        Off = "off",
        /// Linux 4.18 and later (6.x): `tcp_incr_quickack` at the first data segment
        /// (`tcp_event_data_recv`) and `tcp_enter_quickack_mode` on data already received
        /// (`tcp_data_queue`'s retransmit branch); out-of-order data does not enter it.
        FirstData = "first-data",
        /// Linux up to 4.17 (3.2, 3.12): as `FirstData`, and `tcp_data_queue` enters the mode
        /// on every out-of-order segment too, so the ACKs after a repaired hole go one per
        /// segment again.
        FirstDataAndOutOfOrder = "first-data-and-out-of-order",
    }
}

crate::names::names! {
    /// The window the receiver advertises (`tcp.rcv_window`).
    #[derive(Default)]
    pub enum RcvWindow {
        /// The whole receive buffer from the SYN-ACK on (airtcp's behaviour before the switch).
        #[default]
        Fixed = "fixed",
        /// Linux 3.2: 10 segments at first (`tcp_select_initial_window`,
        /// TCP_DEFAULT_INIT_RCVWND), `rcv_ssthresh` grown by 2 MSS per in-order segment with an
        /// immediate ACK (`tcp_grow_window`: `icsk_ack.quick |= 1`) up to a clamp of a 87380-byte
        /// buffer's window (3/4, tcp_adv_win_scale 2) less one segment (`tcp_init_buffer_space`),
        /// the clamp raised each receiver RTT to twice the bytes read in it once that needs more
        /// memory than the buffer has (`tcp_rcv_space_adjust`, 2024 bytes per segment).
        Linux32 = "linux-3.2",
        /// Linux 3.12: the same from 20 segments (`tcp_default_init_rwnd`, twice TCP_INIT_CWND)
        /// with tcp_adv_win_scale 1 and `tcp_fixup_rcvbuf`'s buffer of 2 truesizes x 20
        /// segments x 4 (368640 bytes, a window of half of it less one segment) and 2944 bytes
        /// per segment.
        Linux312 = "linux-3.12",
        /// Linux 6.x: 64 KiB at first (tcp_rmem[1] = 128 KiB at a ratio of 1/2) and the clamp at
        /// that less one segment, so `rcv_ssthresh` starts there; each receiver RTT in which more
        /// was read than in the last the clamp rises to 2 copied + 16 MSS plus twice its growth
        /// (`tcp_rcv_space_adjust`), and `rcv_ssthresh` grows toward it as above.
        Linux6 = "linux-6",
    }
}

/// Linux `TCP_MAX_QUICKACKS` (include/net/tcp.h, 3.2 to 6.x): the most ACKs one entry into
/// quick-ack mode sends at once.
pub const MAX_QUICKACKS: u32 = 16;

/// Linux `tcp_comp_sack_delay_ns` (1 ms) and `tcp_comp_sack_nr` (44): the longest a compressed
/// SACK waits and how many wait before one goes at once; `TCP_FASTRETRANS_THRESH` (3)
/// duplicate ACKs at one cumulative ACK go first, uncompressed.
pub const COMP_SACK_DELAY: Dur = Dur::from_ms(1);
pub const COMP_SACK_NR: u32 = 44;
pub const COMP_SACK_DUPACKS: u32 = 3;

/// Linux `TCP_RESOURCE_PROBE_INTERVAL` (HZ / 2): the retry after a send that local congestion
/// refused while nothing was in flight (`tcp_retransmit_timer`, `tcp_check_probe_timer`).
pub const RESOURCE_PROBE_INTERVAL: Dur = Dur::from_ms(500);

/// Parameters of one connection.
#[derive(Clone, Debug)]
pub struct TcpParams {
    pub mss: u32,
    pub recovery: Recovery,
    pub rto: RtoConfig,
    pub timestamps: bool,
    pub limited_transmit: bool,
    /// Initial congestion window [segments] (RFC 6928 / Linux: 10).
    pub initial_cwnd: u32,
    /// Receiver: acknowledge every `ack_every` full segments (1: every segment; 2: delayed
    /// ACK, RFC 1122 4.2.3.2; k + 1: ACK skipping k, paper 001 section VI).
    pub ack_every: u32,
    /// Receiver: delayed-ACK timer; zero means none.
    pub delack_timeout: Dur,
    /// Receiver buffer [bytes], the largest advertised window.
    pub rcv_buf: u32,
    /// Sender buffer [bytes]: unacknowledged data never exceeds it.
    pub snd_buf: u32,
    /// Paper 004's corruption options: off, or CDO in data segments and CNO from the receiver
    /// with the sender's reaction to a CNO.
    pub corruption: Corruption,
    /// Receiver: a segment's CNO is not repeated within the receiver's RTT estimate (airtcp's
    /// third reading of paper 004's LN-MAC: the corrupt copies MAC retries deliver meanwhile
    /// are ignored); false: every corrupt copy gets its CNO (the paper's observation, III-A).
    pub cno_once_per_rtt: bool,
    /// TCP Small Queues (Linux 3.6+): see [`Sender::tsq_allows`].
    pub small_queues: bool,
    /// TSQ's cap on the bytes below TCP (`sysctl_tcp_limit_output_bytes`).
    pub tsq_limit_bytes: u64,
    /// How TSQ combines that cap with the pacing rate: see [`TsqRule`].
    pub tsq_rule: TsqRule,
    /// `sk_pacing_shift`: "about 1 ms" of data is the pacing rate >> this (10; mac80211 sets
    /// 7 on its local TCP sockets, `tcp.wifi_pacing_shift`).
    pub pacing_shift: u8,
    /// Window growth counts ACKs, not the segments they acknowledge: Linux before 3.18 (slow
    /// start) and 4.1 (congestion avoidance), whose `tcp_slow_start(tp)` and
    /// `tcp_cong_avoid_ai(tp, w)` take one step per ACK, a stretch ACK included.
    pub per_ack_growth: bool,
    /// Linux's sender and receiver rules, each switch at its default the behaviour before it.
    pub rules: Rules,
    /// RFC 3168 ECN: the sender asks for it in its SYN (Linux `tcp_ecn` = 1); the receiver
    /// accepts as Linux does by default (`tcp_ecn` = 2: when asked).
    pub ecn: bool,
}

/// Linux's sender and receiver rules (issue 34): each a switch whose default is the behaviour
/// before it existed; `tcp.profile` sets them as a kernel does (spec/profiles.rs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rules {
    /// When an ACK may grow cwnd: see [`CwndLimited`] and [`CcState::is_cwnd_limited`].
    pub cwnd_limited: CwndLimited,
    /// A segment refused by the sender's own interface: see [`LocalCongestion`].
    pub local_congestion: LocalCongestion,
    /// What an RTO does to recovery: see [`RtoRecovery`].
    pub rto_recovery: RtoRecovery,
    /// What an ACK credits to window growth: see [`CwndCredit`].
    pub cwnd_credit: CwndCredit,
    /// Where Proportional Rate Reduction paces a window reduction: see [`Prr`].
    pub prr: Prr,
    /// RACK loss detection (RFC 8985; Linux 4.4+ `tcp_rack_mark_lost`) with SACK: a segment
    /// is lost once a later-sent one is delivered and an RTT plus a reordering window has
    /// passed; recovery starts on the first such loss, lost retransmissions are found too.
    pub rack: bool,
    /// Tail Loss Probe (RFC 8985 section 7; Linux 3.10+ `tcp_schedule_loss_probe`,
    /// `tcp_send_loss_probe`), with SACK.
    pub tlp: bool,
    /// The probe's schedule and timeout: see [`TlpRule`].
    pub tlp_rule: TlpRule,
    /// How the probe's and the reordering timer's timeouts round to jiffies: see
    /// [`TimerRounding`].
    pub timer_rounding: TimerRounding,
    /// What restarts the RTO: see [`RtoRearm`].
    pub rto_rearm: RtoRearm,
    /// Which retransmissions SACK recovery watches for a second loss: see [`LostRetransmit`].
    pub lost_retransmit: LostRetransmit,
    /// Receiver: Linux's quick-ack mode: see [`QuickAck`].
    pub quickack: QuickAck,
    /// The receiver's advertised window: see [`RcvWindow`].
    pub rcv_window: RcvWindow,
    /// Receiver: Linux 4.19+'s compressed SACK ([`Receiver::on_segment`]).
    pub sack_compress: bool,
    /// Early retransmit (RFC 5827 with Linux 3.6-4.10's delay, `tcp_pause_early_retransmit`)
    /// for SACK without RACK: with fewer than four segments out, at least one SACKed and no
    /// new data to send, recovery starts a quarter SRTT (at least 2 ms) after the duplicate
    /// ACK, where DupThresh would never come.
    pub early_retransmit: bool,
    /// F-RTO (RFC 5682 section 3.1, SACK-enhanced, as Linux 3.10+ `tcp_process_loss` runs it
    /// with `tcp_frto` = 2) under [`RtoRecovery::Linux`] with SACK: after an RTO, an ACK of
    /// data never retransmitted and sent before the RTO shows the timeout was spurious and
    /// undoes its window cut; the first ACK of the retransmission sends new data instead of
    /// more retransmissions.
    pub frto: bool,
    /// NewReno's recovery: see [`NewRenoRule`].
    pub newreno_rule: NewRenoRule,
}

/// Bytes Linux charges a full-sized data skb (`skb->truesize`: a 2 KiB head plus `struct
/// sk_buff` and `skb_shared_info`); TSQ's floor is two of them (an approximation: the exact
/// figure depends on the architecture and the allocation path).
pub const TSQ_TRUESIZE_BYTES: u64 = 2304;
/// `sysctl_tcp_limit_output_bytes` (Linux 3.6-4.1 default: 128 KiB), `tcp.limit_output_bytes`'s
/// default.
pub const TSQ_LIMIT_OUTPUT_BYTES: u64 = 131_072;

crate::names::names! {
    /// What a connection does with corruption (paper 004 section II-A,
    /// draft-welzl-tcp-corruption).
    #[derive(Default)]
    pub enum Corruption {
        /// No options: a corrupt segment is dropped below TCP, as plain TCP.
        #[default]
        Off = "off",
        /// CDO/CNO; a CNO retransmits the segment at once and leaves cwnd unchanged (the
        /// paper's choice, as TCP HACK [15]).
        Aggressive = "aggressive",
        /// CDO/CNO; a CNO retransmits the segment and the window is cut as for a loss found by
        /// fast retransmit (the draft's conservative reading).
        Conservative = "conservative",
    }
}

/// Names of the corruption settings, as configurations spell them.
pub const CORRUPTION_NAMES: &[&str] = Corruption::NAMES;

/// Sender-side counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    pub rtt_samples: u64,
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// Retransmissions found lost by SACK and sent again (Linux `tcp_mark_lost_retrans`).
    pub lost_retransmits: u64,
    /// ACKs carrying a CNO, and the retransmissions they caused.
    pub cno_received: u64,
    pub cno_retransmits: u64,
    /// Segments the sender's own interface refused ([`LocalCongestion::Cwr`]: kept unsent).
    pub local_drops: u64,
    /// Entries into CWR (`tcp_enter_cwr`) after a local drop.
    pub cwr_events: u64,
    /// Tail loss probes sent (Linux `LINUX_MIB_TCPLOSSPROBES`).
    pub tlp_probes: u64,
    /// RTOs F-RTO found spurious and undid (Linux `LINUX_MIB_TCPSPURIOUSRTOS`).
    pub spurious_rtos: u64,
    /// ECN: ACKs carrying ECE, the window reductions they caused (`tcp_enter_cwr` from
    /// `tcp_try_to_open`, at most one per window), and data segments sent with CWR.
    pub ece_received: u64,
    pub ecn_reductions: u64,
    pub cwr_sent: u64,
}

/// Sender connection state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendState {
    Closed,
    SynSent,
    Established,
    /// Every byte and the FIN acknowledged.
    Done,
}

pub struct Sender {
    pub p: TcpParams,
    pub state: SendState,
    pub cc: Algorithm,
    pub s: CcState,
    pub ca: CaState,
    /// Bytes the application has to send: `None` for a bulk (unbounded) source.
    pub app_bytes: Option<u64>,
    /// The application stops offering new data (bulk sources with a stop time).
    pub app_closed: bool,
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// Highest sequence sent + 1.
    pub snd_max: u64,
    pub peer_wnd: u32,
    pub dupacks: u32,
    /// RFC 6582 `recover` as HighData + 1 (one past the highest byte sent when recovery
    /// began); also the sequence that ends a Loss episode.
    pub recover: u64,
    pub rto: RtoEstimator,
    /// Karn's rule without timestamps: (sequence being timed, time sent).
    timed: Option<(u64, SimTime)>,
    pub stats: SenderStats,
    /// The last RTT sample (for statistics).
    pub last_rtt: Option<Dur>,
    /// SACK recovery: the scoreboard and RFC 6675 HighRxt (one past the highest byte
    /// retransmitted in this recovery).
    pub sb: Scoreboard,
    pub high_rxt: u64,
    /// SACK recovery: HighData when the segment at `snd_una` was last retransmitted (0: not
    /// in this recovery), for Linux's lost-retransmission check.
    una_rxt_mark: u64,
    /// RFC 7323 TS.Recent: the receiver's latest TSval, echoed as TSecr.
    ts_recent: u64,
    /// TCP Small Queues: the sender's packets below TCP (handed down, not yet freed by the
    /// device), and whether new data waits for one of them to be freed (`TSQ_THROTTLED`).
    pub tsq_below: u32,
    pub tsq_throttled: bool,
    /// CWR (Linux `high_seq` as `tcp_enter_cwr` sets it): the state ends once `snd_una`
    /// passes this sequence.
    cwr_high: u64,
    /// Reno/NewReno recovery: the retransmission of `snd_una` was refused by the sender's own
    /// interface and is sent before anything else (Linux keeps the skb marked lost).
    una_rxt_pending: bool,
    /// [`RtoRecovery::Linux`] in the Loss state with SACK: every unSACKed segment below this
    /// was marked lost by the RTO (`tcp_enter_loss`); 0 otherwise.
    loss_mark: u64,
    /// RTOs since `snd_una` last advanced (Linux `icsk_retransmits`).
    rto_streak: u32,
    /// Segments the ACK being processed newly delivered (Linux `tp->delivered -
    /// prior_delivered`): cumulatively acknowledged and not SACKed before, plus newly SACKed.
    delivered_now: u32,
    /// RFC 6937: cwnd when the reduction began (RecoverFS), data delivered and sent since.
    prior_cwnd: u32,
    prr_delivered: u32,
    prr_out: u32,
    /// RACK's per-segment record ([`TcpParams::rack`] with SACK), and the reordering timer's
    /// deadline while the retransmission timer runs as that timer.
    rack: Option<Box<Rack>>,
    reo_at: Option<SimTime>,
    /// The first unacknowledged segment went again during the current ACK ([`RtoRearm`]).
    head_resent: bool,
    /// What the retransmission timer runs as now (Linux `icsk_pending`).
    timer: TimerRole,
    /// TLP: `snd_nxt` when the probe went (0: none outstanding) and whether it was a
    /// retransmission (`tlp_high_seq`, `tlp_retrans`).
    tlp_high_seq: u64,
    tlp_retrans: bool,
    /// [`LostRetransmit::Every`]: each retransmission of the recovery, with HighData when it
    /// went (Linux's `ack_seq` of `tcp_mark_lost_retrans`).
    rxt_marks: Vec<(u64, u64)>,
    /// Early retransmit's delay is running on the reordering timer.
    er_pending: bool,
    /// F-RTO is watching this Loss episode (`tp->frto`); the window before the RTO's cut
    /// (`prior_cwnd`, `prior_ssthresh`); whether the ACK being processed (S)ACKed data never
    /// retransmitted and sent before the RTO (FLAG_ORIG_SACK_ACKED).
    frto_on: bool,
    undo_cwnd: u32,
    undo_ssthresh: u32,
    orig_acked: bool,
    /// RFC 3168: ECN was negotiated (`TCP_ECN_OK`), and a CWR waits for the next new data
    /// segment (`TCP_ECN_QUEUE_CWR`).
    pub ecn_ok: bool,
    ecn_queue_cwr: bool,
    /// The ACK being processed carries ECE (`FLAG_ECE`).
    ece_now: bool,
    /// The delivery-rate sampler (`tcp_rate.c`), for a congestion control that reads it
    /// (BBR, which also paces: [`CcState::pacing_rate`]).
    rate: Option<Box<RateSampler>>,
    /// Data segments sent (`tp->data_segs_out`): pacing starts after the first 10.
    data_segs_out: u64,
    /// The pacing timer is armed (`hrtimer_is_queued(&tp->pacing_timer)`), and when the world
    /// should fire it next (taken by [`Sender::take_pacing_timer`]).
    pace_armed: bool,
    pace_request: Option<SimTime>,
    /// The ACK being processed: BBR's `cong_control` ran; `tp->lost` before it; what
    /// `FLAG_ACK_MAYBE_DELAYED` and the timestamp fallback of its RTT read.
    bbr_done: bool,
    lost_at_ack: u64,
    ack_ts_ecr_ns: Option<u64>,
    ack_maybe_delayed: bool,
}

/// What the sender's one retransmission timer runs as (Linux's `icsk_pending` on
/// `icsk_retransmit_timer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimerRole {
    Rto,
    /// RACK's reordering timer, or early retransmit's delay.
    Reo,
    /// The tail loss probe.
    Tlp,
}

impl Sender {
    pub fn new(p: TcpParams, cc: Algorithm, app_bytes: Option<u64>) -> Sender {
        let mut s = CcState::new(p.mss, p.initial_cwnd.max(1), u32::MAX / 2);
        s.usage.rule = p.rules.cwnd_limited;
        s.pacing_shift = p.pacing_shift;
        let rto = RtoEstimator::new(p.rto);
        let (p_rack, mss) = (p.rules.rack && p.recovery == Recovery::Sack, p.mss);
        let rate = matches!(cc, Algorithm::Bbr(_)).then(|| Box::new(RateSampler::new(mss)));
        Sender {
            p,
            state: SendState::Closed,
            cc,
            s,
            ca: CaState::Open,
            app_bytes,
            app_closed: false,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            peer_wnd: 65535,
            dupacks: 0,
            recover: 0,
            rto,
            timed: None,
            stats: SenderStats::default(),
            last_rtt: None,
            sb: Scoreboard::default(),
            high_rxt: 0,
            una_rxt_mark: 0,
            ts_recent: 0,
            tsq_below: 0,
            tsq_throttled: false,
            cwr_high: 0,
            una_rxt_pending: false,
            loss_mark: 0,
            rto_streak: 0,
            delivered_now: 0,
            prior_cwnd: 0,
            prr_delivered: 0,
            prr_out: 0,
            rack: (p_rack).then(|| Box::new(Rack::new(mss))),
            reo_at: None,
            head_resent: false,
            timer: TimerRole::Rto,
            tlp_high_seq: 0,
            tlp_retrans: false,
            rxt_marks: Vec::new(),
            er_pending: false,
            frto_on: false,
            undo_cwnd: 0,
            undo_ssthresh: 0,
            orig_acked: false,
            ecn_ok: false,
            ecn_queue_cwr: false,
            ece_now: false,
            rate,
            data_segs_out: 0,
            pace_armed: false,
            pace_request: None,
            bbr_done: false,
            lost_at_ack: 0,
            ack_ts_ecr_ns: None,
            ack_maybe_delayed: false,
        }
    }

    /// First sequence number after the data (where the FIN goes), if the data is bounded.
    fn data_end(&self) -> Option<u64> {
        self.app_bytes.map(|b| 1 + b)
    }

    /// Where new data stops: the data's end, `snd_max` once the application has closed, else
    /// unbounded (a bulk sender always has more).
    fn send_end(&self) -> u64 {
        self.data_end().unwrap_or(if self.app_closed { self.snd_max } else { u64::MAX })
    }

    fn seg(&self, seq: u64, len: u32, flags: u8, now: SimTime) -> Segment {
        Segment {
            seq,
            ack: 0,
            len,
            flags,
            wnd: 0,
            // TSval = time + 1 ns, so that 0 can mean "no timestamp".
            ts_val: if self.p.timestamps { now.ns() + 1 } else { 0 },
            ts_ecr: self.ts_recent,
            retransmit: false,
            sack: [(0, 0); sack::MAX_BLOCKS],
            sack_n: 0,
            opts: 0,
            cno_seq: 0,
            ecn: NOT_ECT,
        }
    }

    fn emit(&mut self, mut seg: Segment, now: SimTime, out: &mut Vec<Segment>) {
        // Paper 004 II-A: every data segment (and the FIN) carries the CDO.
        if self.p.corruption != Corruption::Off && (seg.len > 0 || seg.flags & FIN != 0) {
            seg.opts |= OPT_CDO;
        }
        let end = seg.seq + u64::from(seg.len) + u64::from(seg.flags & (SYN | FIN) != 0);
        seg.retransmit = seg.seq < self.snd_max;
        self.stats.segments_sent += 1;
        if seg.retransmit {
            self.stats.retransmissions += 1;
            self.head_resent |= seg.seq == self.snd_una;
            // Karn: a retransmission covering the timed segment voids its sample.
            if matches!(self.timed, Some((t, _)) if t >= seg.seq && t < end) {
                self.timed = None;
            }
        } else if self.timed.is_none() && !self.p.timestamps {
            self.timed = Some((seg.seq, now));
        }
        if self.ecn_ok && seg.len > 0 && !seg.retransmit {
            // tcp_ecn_send: a data segment not sent before is ECN-capable and carries a queued
            // CWR; ACKs and retransmissions are not (RFC 3168 6.1.5).
            seg.ecn = ECT0;
            if std::mem::take(&mut self.ecn_queue_cwr) {
                seg.flags |= CWR;
                self.stats.cwr_sent += 1;
            }
        }
        if self.p.small_queues && seg.holds_send_memory() {
            self.tsq_below += 1;
        }
        if self.in_prr() {
            self.prr_out += 1; // tcp_event_new_data_sent, tcp_retransmit_skb
        }
        if let Some(r) = self.rack.as_deref_mut() {
            if seg.len > 0 {
                r.on_send(seg.seq, now.ns(), seg.retransmit);
            }
        }
        if seg.len > 0 && self.rate.is_some() {
            self.paced_send(&seg, now);
        }
        self.snd_max = self.snd_max.max(end);
        out.push(seg);
    }

    /// A data segment leaves a paced connection: its delivery-rate record
    /// (`tcp_rate_skb_sent`, with the segments out before it) and the next departure time
    /// (`__tcp_transmit_skb` then `tcp_update_skb_after_send`: from the first 10 data segments
    /// on, len / rate later, less up to half of it as credit for time spent idle).
    #[cold]
    fn paced_send(&mut self, seg: &Segment, now: SimTime) {
        let mss = u64::from(self.p.mss);
        let packets_out = self.snd_max.saturating_sub(self.snd_una).div_ceil(mss);
        let now_us = (now.ns() / 1000).max(1);
        if let Some(r) = self.rate.as_deref_mut() {
            r.on_send(&mut self.s, seg.seq, now_us, packets_out, seg.retransmit);
        }
        let prior_ns = self.s.wstamp_ns;
        self.s.wstamp_ns = self.s.wstamp_ns.max(now.ns());
        self.data_segs_out += 1;
        let rate = self.s.pacing_rate;
        if rate > 0 && self.data_segs_out >= 10 {
            let len_ns = (u128::from(seg.len) * 1_000_000_000 / u128::from(rate)) as u64;
            let credit = self.s.wstamp_ns - prior_ns;
            self.s.wstamp_ns += len_ns - (len_ns / 2).min(credit);
        }
    }

    /// `tcp_pacing_check`: a paced connection may not send before its departure time; the
    /// first refusal arms the pacing timer for it.
    fn pacing_blocked(&mut self) -> bool {
        if self.s.pacing_rate == 0 || self.s.wstamp_ns <= self.s.now.ns() {
            return false;
        }
        if !self.pace_armed {
            self.pace_armed = true;
            self.pace_request = Some(SimTime(self.s.wstamp_ns));
        }
        true
    }

    /// When the pacing timer should fire, if it was just armed (the world schedules it).
    pub fn take_pacing_timer(&mut self) -> Option<SimTime> {
        self.pace_request.take()
    }

    /// The pacing timer fired (`tcp_pace_kick`); [`Sender::on_tsq_wake`] then sends what may go.
    pub fn pacing_timer_fired(&mut self) {
        self.pace_armed = false;
    }

    /// The BBR state, if the connection runs BBR.
    pub fn bbr(&self) -> Option<&super::cc::Bbr> {
        match &self.cc {
            Algorithm::Bbr(b) => Some(b),
            _ => None,
        }
    }

    /// The congestion control sets cwnd itself on every ACK (Linux's `cong_control`, BBR): the
    /// window rules (PRR, `cong_avoid`, cwnd = ssthresh at a reduction's end) stand aside.
    fn cc_sets_cwnd(&self) -> bool {
        self.rate.is_some()
    }

    /// Linux `tcp_cong_control` with a `cong_control` algorithm (BBR), once per ACK where the
    /// sender would otherwise grow or reduce cwnd: the rate sample of the ACK (`tcp_rate_gen`,
    /// with the segments newly marked lost), then the algorithm's model, pacing rate and cwnd.
    /// False for every other algorithm, whose window rules run instead.
    fn cong_control(&mut self) -> bool {
        if !self.cc_sets_cwnd() {
            return false;
        }
        if std::mem::replace(&mut self.bbr_done, true) {
            return true;
        }
        let now_ns = self.s.now.ns();
        let now_us = (now_ns / 1000).max(1);
        let min_rtt_us = if self.s.min_rtt.ns() > 0 { self.s.min_rtt.ns() / 1000 } else { u64::MAX };
        let r = self.rate.as_deref_mut().expect("a rate sampler");
        let mut rs = r.gen(&mut self.s, now_us, min_rtt_us);
        rs.rtt_us = r.ack_rtt_us(now_us, self.ack_ts_ecr_ns, now_ns);
        rs.losses = (self.s.lost - self.lost_at_ack) as u32;
        rs.is_ack_delayed = self.ack_maybe_delayed;
        self.s.in_flight = self.pipe_now();
        if let Algorithm::Bbr(b) = &mut self.cc {
            b.control(&mut self.s, &rs);
        }
        true
    }

    /// TCP Small Queues' test (`tcp_small_queue_check`, 3.19+): new data may go down while the
    /// bytes below TCP (`sk_wmem_alloc`) are at most max(2 truesize, pacing rate / 1024),
    /// capped at `tcp_limit_output_bytes`; the pacing rate is 2 cwnd MSS / SRTT
    /// (`tcp_update_pacing_rate`). Below about 19 Mbit/s the floor of two packets rules.
    /// Older kernels' limits are [`TsqRule`]'s.
    pub fn tsq_allows(&self) -> bool {
        if !self.p.small_queues {
            return true;
        }
        let pacing_bytes_per_s = match self.rto.srtt() {
            // A pacing algorithm's own rate (BBR's `sk_pacing_rate`).
            _ if self.s.pacing_rate > 0 => self.s.pacing_rate,
            Some(srtt) if srtt.ns() > 0 => {
                // In 128 bits: an agent's cwnd of 2^32 - 1 segments overflows 64.
                let bps = 2 * u128::from(self.p.mss) * u128::from(self.s.cwnd) * 1_000_000_000
                    / u128::from(srtt.ns());
                u64::try_from(bps).unwrap_or(u64::MAX)
            }
            _ => 0,
        };
        let limit = match self.p.tsq_rule {
            // tcp_small_queue_check: max(2 truesizes, ~1 ms at the pacing rate), capped by the sysctl.
            TsqRule::Linux319 => (2 * TSQ_TRUESIZE_BYTES)
                .max(pacing_bytes_per_s >> self.p.pacing_shift)
                .min(self.p.tsq_limit_bytes),
            // tcp_write_xmit 3.12-3.18: limit = max_t(sysctl_tcp_limit_output_bytes, sk_pacing_rate >> 10).
            TsqRule::Linux312 => self.p.tsq_limit_bytes.max(pacing_bytes_per_s >> 10),
            // tcp_write_xmit 3.6-3.11: sk_wmem_alloc >= sysctl_tcp_limit_output_bytes throttles.
            TsqRule::Linux36 => {
                return u64::from(self.tsq_below) * TSQ_TRUESIZE_BYTES < self.p.tsq_limit_bytes
            }
        };
        u64::from(self.tsq_below) * TSQ_TRUESIZE_BYTES <= limit
    }

    /// One of the sender's packets was freed below TCP (`tcp_wfree`); true if the sender was
    /// throttled and should now try to send (Linux wakes it from a tasklet).
    pub fn tsq_release(&mut self) -> bool {
        self.tsq_below = self.tsq_below.saturating_sub(1);
        std::mem::take(&mut self.tsq_throttled)
    }

    /// The TSQ tasklet (`tcp_tsq_handler`): send what the windows allow now that the queue
    /// below has room; arm the retransmission timer if nothing was in flight.
    pub fn on_tsq_wake(&mut self, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        if self.state != SendState::Established {
            return TimerCmd::Keep;
        }
        self.sync_cc(now);
        let idle = self.snd_una >= self.snd_max;
        self.sack_send_or_push(now, out);
        if idle && self.snd_una < self.snd_max {
            TimerCmd::Arm(now + self.rto.rto())
        } else {
            TimerCmd::Keep
        }
    }

    /// Active open: send the SYN.
    pub fn start(&mut self, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        self.state = SendState::SynSent;
        self.s.now = now;
        // tcp_ecn_send_syn: an ECN-setup SYN carries ECE and CWR (RFC 3168 6.1.1).
        let syn = self.seg(0, 0, if self.p.ecn { SYN | ECE | CWR } else { SYN }, now);
        self.emit(syn, now, out);
        self.snd_nxt = 1;
        TimerCmd::Arm(now + self.rto.rto())
    }

    /// The peer's advertised window, bounded by our send buffer [bytes].
    fn flow_window(&self) -> u64 {
        u64::from(self.peer_wnd.max(1)).min(u64::from(self.p.snd_buf.max(self.p.mss)))
    }

    fn in_flight_bytes(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    /// The scoreboard's segment grid now: in Linux's Loss state, what the RTO marked lost.
    fn grid(&self) -> Grid {
        let lost_below = if self.ca == CaState::Loss { self.loss_mark } else { 0 };
        Grid { mss: u64::from(self.p.mss), high_data: self.snd_max, lost_below }
    }

    /// Whether retransmissions follow the scoreboard now: RFC 6675 recovery, or Linux's
    /// Loss state with SACK ([`RtoRecovery::Linux`]).
    fn sack_driven(&self) -> bool {
        self.p.recovery == Recovery::Sack
            && (self.ca == CaState::Recovery || (self.ca == CaState::Loss && self.loss_mark != 0))
    }

    /// Linux `high_seq`: where the current CWR, Recovery or Loss episode ends.
    fn high_seq(&self) -> u64 {
        if self.ca == CaState::Cwr {
            self.cwr_high
        } else {
            self.recover
        }
    }

    fn sync_cc(&mut self, now: SimTime) {
        self.s.now = now;
        self.s.snd_una = self.snd_una;
        self.s.snd_nxt = self.snd_nxt;
        self.s.in_flight = self.in_flight_bytes().div_ceil(u64::from(self.p.mss)) as u32;
        if let Some(srtt) = self.rto.srtt() {
            self.s.srtt = srtt;
        }
    }

    fn set_ca(&mut self, new: CaState) {
        if self.ca != new {
            self.ca = new;
            self.s.ca = new;
            self.cc.set_state(&mut self.s, new);
        }
    }

    /// Send what the windows and the application allow, from `snd_nxt` on.
    fn push(&mut self, now: SimTime, out: &mut Vec<Segment>) {
        if self.state != SendState::Established {
            return;
        }
        if std::mem::take(&mut self.una_rxt_pending) && self.ca == CaState::Recovery {
            self.retransmit_una(now, out); // refused before by the sender's own interface
        }
        let mss = u64::from(self.p.mss);
        let wnd = (u64::from(self.s.cwnd) * mss).min(self.flow_window());
        let sent_before = self.snd_max;
        // ns-2.1b9a NewReno `recv`: `send_much(0, 0, 2)` while duplicate ACKs count.
        let burst = if self.ns2_newreno() && self.ca == CaState::Recovery { 2 } else { usize::MAX };
        let mut sent = 0;
        while sent < burst {
            let limit = self.snd_una + wnd;
            if self.snd_nxt >= limit {
                break;
            }
            if !self.send_one_at_nxt(now, out, limit) {
                break;
            }
            sent += 1;
        }
        self.cwnd_validate(sent_before);
    }

    /// The end of a pass that may have sent new data (Linux 4.9 `tcp_write_xmit`, whose
    /// `tcp_cwnd_validate` runs when it sent some): under "linux-4", record the flight and
    /// whether it filled cwnd, as the sender counts it (`is_cwnd_limited |=
    /// tcp_packets_in_flight(tp) >= tp->snd_cwnd`): RFC 6675's pipe in SACK recovery, the
    /// segments between `snd_una` and `snd_nxt` otherwise.
    fn cwnd_validate(&mut self, sent_before: u64) {
        if self.s.usage.rule != CwndLimited::Linux4 || self.snd_max <= sent_before {
            return;
        }
        let mss = u64::from(self.p.mss);
        let in_flight =
            if self.sack_driven() { self.pipe_now() } else { self.in_flight_bytes().div_ceil(mss) as u32 };
        // packets_out: every segment between snd_una and the highest sent (Linux's snd_nxt).
        let packets_out = (self.snd_max - self.snd_una).div_ceil(mss) as u32;
        self.s.usage.validate(self.snd_una, self.snd_max, packets_out, in_flight >= self.s.cwnd);
    }

    /// Send the segment starting at `snd_nxt` if it fits below `limit`; false if nothing to send.
    fn send_one_at_nxt(&mut self, now: SimTime, out: &mut Vec<Segment>, limit: u64) -> bool {
        let mss = u64::from(self.p.mss);
        let end = match self.data_end() {
            Some(e) => e,
            None if self.app_closed => self.snd_max.max(1),
            None => u64::MAX,
        };
        if self.snd_nxt < end {
            if self.pacing_blocked() {
                return false; // tcp_write_xmit: tcp_pacing_check first
            }
            let len = mss.min(end - self.snd_nxt);
            if self.snd_nxt + len > limit && self.snd_nxt + len > self.snd_una + mss {
                return false; // only whole segments, but always one if nothing is in flight
            }
            if !self.tsq_allows() {
                self.tsq_throttled = true; // after the window tests, as tcp_write_xmit
                return false;
            }
            if self.snd_una == self.snd_nxt {
                self.cc.cwnd_event(&mut self.s, CwndEvent::TxStart);
            }
            let seg = self.seg(self.snd_nxt, len as u32, ACK, now);
            self.emit(seg, now, out);
            self.snd_nxt += len;
            return true;
        }
        if Some(self.snd_nxt) == self.data_end() {
            if !self.tsq_allows() {
                self.tsq_throttled = true;
                return false;
            }
            let fin = self.seg(self.snd_nxt, 0, FIN | ACK, now);
            self.emit(fin, now, out);
            self.snd_nxt += 1;
            return true;
        }
        false
    }

    /// The sender's own interface refused `unsent[0]` ([`LocalCongestion::Cwr`]): it and the
    /// segments after it in the same batch (`unsent[1..]`, never handed down: Linux's
    /// `tcp_write_xmit` and `tcp_xmit_retransmit_queue` stop at the first failure) are taken
    /// back as if never sent, and the sender enters CWR (Linux 3.2 `tcp_transmit_skb`: err > 0
    /// -> `tcp_enter_cwr(sk, 1)`). New data waits at `snd_nxt`, a refused hole retransmission
    /// stays a hole (`high_rxt` goes back), a refused go-back-N resend goes back to
    /// `snd_nxt`. With nothing left in flight, the timer retries after
    /// [`RESOURCE_PROBE_INTERVAL`] (or the RTO, if shorter); otherwise the next ACK does.
    pub fn on_local_drop(&mut self, unsent: &[Segment], now: SimTime) -> TimerCmd {
        let Some(first) = unsent.first() else { return TimerCmd::Keep };
        self.stats.local_drops += 1;
        let sack_recovery = self.sack_driven();
        let prr = self.in_prr();
        for seg in unsent {
            self.stats.segments_sent -= 1;
            if prr {
                self.prr_out = self.prr_out.saturating_sub(1);
            }
            if self.p.small_queues && seg.holds_send_memory() {
                self.tsq_below = self.tsq_below.saturating_sub(1);
            }
            if matches!(self.timed, Some((t, _)) if t >= seg.seq) {
                self.timed = None; // the timed segment never left
            }
            if seg.flags & SYN != 0 {
                continue; // the SYN's own timer resends it
            }
            if !seg.retransmit {
                // New data (or the FIN): it waits at snd_nxt, as an skb at sk_send_head.
                self.snd_max = self.snd_max.min(seg.seq);
                self.snd_nxt = self.snd_nxt.min(seg.seq);
                continue;
            }
            self.stats.retransmissions -= 1;
            if let Some(r) = self.rack.as_deref_mut() {
                r.unsend(seg.seq);
            }
            if sack_recovery {
                // tcp_xmit_retransmit_queue: the skb stays lost and not retransmitted.
                self.high_rxt = self.high_rxt.min(seg.seq);
                if seg.seq == self.snd_una {
                    self.una_rxt_mark = 0;
                }
                self.rxt_marks.retain(|m| m.0 != seg.seq);
            } else if self.ca == CaState::Recovery && seg.seq == self.snd_una {
                self.una_rxt_pending = true;
            } else if self.ca == CaState::Loss {
                self.snd_nxt = self.snd_nxt.min(seg.seq); // go-back-N resumes here
            }
        }
        debug_assert!(self.snd_nxt <= self.snd_max || first.flags & SYN != 0);
        self.enter_cwr(now);
        if self.snd_una >= self.snd_max && self.state == SendState::Established {
            // tcp_check_probe_timer / tcp_retransmit_timer's local-congestion branch.
            TimerCmd::Arm(now + self.rto.rto().min(RESOURCE_PROBE_INTERVAL))
        } else {
            TimerCmd::Keep
        }
    }

    /// Linux 3.2 `tcp_enter_cwr(sk, 1)`: from Open or Disorder, ssthresh from the congestion
    /// control, cwnd at most the flight + 1, and CWR until `snd_una` passes what was sent.
    fn enter_cwr(&mut self, now: SimTime) {
        if !matches!(self.ca, CaState::Open | CaState::Disorder) {
            return;
        }
        self.sync_cc(now);
        self.stats.cwr_events += 1;
        self.s.ssthresh = self.cc.ssthresh(&self.s).max(2);
        if self.p.rules.prr == Prr::RecoveryAndCwr {
            self.prr_start(); // tcp_init_cwnd_reduction; cwnd follows the ACKs
        } else if !self.cc_sets_cwnd() {
            self.s.cwnd = self.s.cwnd.min(self.s.in_flight + 1);
        }
        self.s.cwnd_cnt = 0;
        self.cwr_high = self.snd_max;
        self.set_ca(CaState::Cwr);
        self.queue_cwr();
    }

    /// `tcp_ecn_queue_cwr` (from `tcp_init_cwnd_reduction` and `tcp_enter_loss`): the next new
    /// data segment tells the receiver the window was cut.
    fn queue_cwr(&mut self) {
        if self.ecn_ok {
            self.ecn_queue_cwr = true;
        }
    }

    /// An ACK with ECE (`FLAG_ECE`) that started no recovery: from Open or Disorder the window
    /// is cut once (`tcp_try_to_open` -> `tcp_enter_cwr`), and this ACK already reduces it
    /// (`tcp_cong_control` in CWR: `tcp_cwnd_reduction`, or 3.2's `tcp_cwnd_down`); in CWR,
    /// Recovery or Loss it does nothing more (RFC 3168 6.1.2: once per window).
    fn ecn_echo(&mut self, now: SimTime) {
        if matches!(self.ca, CaState::Open | CaState::Disorder) {
            self.stats.ecn_reductions += 1;
            self.enter_cwr(now);
            self.cwr_ack();
        }
    }

    /// Whether the sender is in a reduction PRR paces.
    fn in_prr(&self) -> bool {
        match self.p.rules.prr {
            Prr::Off => false,
            Prr::Recovery => self.ca == CaState::Recovery && self.p.recovery == Recovery::Sack,
            Prr::RecoveryAndCwr => {
                self.ca == CaState::Cwr || (self.ca == CaState::Recovery && self.p.recovery == Recovery::Sack)
            }
        }
    }

    /// RFC 6937 at the start of a reduction (Linux `tcp_init_cwnd_reduction`): RecoverFS is
    /// cwnd (`prior_cwnd`), nothing delivered or sent yet.
    fn prr_start(&mut self) {
        self.prior_cwnd = self.s.cwnd.max(1);
        self.prr_delivered = 0;
        self.prr_out = 0;
    }

    /// RFC 6937 section 3 on an ACK that delivered `self.delivered_now` segments with `pipe`
    /// in flight: proportional while pipe > ssthresh (sndcnt = CEIL(prr_delivered x ssthresh /
    /// RecoverFS) - prr_out), then the slow-start reduction bound (PRR-SSRB: at most
    /// ssthresh - pipe, at least what was delivered and not yet sent again, + 1); at least one
    /// segment before anything was sent (the fast retransmit); cwnd = pipe + sndcnt (Linux 3.2
    /// `tcp_update_cwnd_in_recovery`, later `tcp_cwnd_reduction`). An ACK that delivered
    /// nothing changes nothing once a segment went out.
    fn prr_ack(&mut self, pipe: u32) {
        let delivered = self.delivered_now;
        if delivered == 0 && self.prr_out > 0 {
            return;
        }
        self.prr_delivered += delivered;
        let (ssthresh, pipe_i) = (i64::from(self.s.ssthresh), i64::from(pipe));
        let mut sndcnt = if pipe_i > ssthresh {
            let dividend =
                u64::from(self.s.ssthresh) * u64::from(self.prr_delivered) + u64::from(self.prior_cwnd) - 1;
            (dividend / u64::from(self.prior_cwnd)) as i64 - i64::from(self.prr_out)
        } else {
            let owed = i64::from(self.prr_delivered) - i64::from(self.prr_out);
            (ssthresh - pipe_i).min(owed.max(i64::from(delivered)) + 1)
        };
        if self.prr_out == 0 {
            sndcnt = sndcnt.max(1);
        }
        self.s.cwnd = (pipe_i + sndcnt.max(0)).clamp(1, i64::from(self.s.cwnd_clamp)) as u32;
    }

    /// An ACK in CWR that does not end it: Linux 3.2 `tcp_cwnd_down` (rate halving: cwnd one
    /// segment down every second ACK while above ssthresh, never above the flight + 1), or
    /// PRR on the flight where it is on.
    fn cwr_ack(&mut self) {
        if self.cong_control() {
            return;
        }
        if self.p.rules.prr == Prr::RecoveryAndCwr {
            self.prr_ack(self.s.in_flight);
            return;
        }
        let decr = self.s.cwnd_cnt + 1;
        self.s.cwnd_cnt = decr & 1;
        if decr >> 1 > 0 && self.s.cwnd > self.s.ssthresh {
            self.s.cwnd -= decr >> 1;
        }
        self.s.cwnd = self.s.cwnd.min(self.s.in_flight + 1).max(1);
    }

    // ---- Cross-layer control points (docs/architecture.md, "Cross-layer hooks") ----

    /// Cap the congestion window at `cap` segments (None: no cap), like Linux's
    /// `snd_cwnd_clamp`; paper 003 applies its wnd_max this way at the sender.
    pub fn set_cwnd_cap(&mut self, cap: Option<u32>) {
        self.s.cwnd_clamp = cap.unwrap_or(u32::MAX / 2).max(1);
        self.s.cwnd = self.s.cwnd.min(self.s.cwnd_clamp);
    }

    /// An external loss notification (e.g. paper 004's LN-MAC): the segment starting at `seq`
    /// is lost. Retransmit it now and react as to a congestion loss detected by fast
    /// retransmit, unless a recovery is already under way.
    pub fn notify_loss(&mut self, seq: u64, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        if self.state != SendState::Established || seq < self.snd_una || seq >= self.snd_max {
            return TimerCmd::Keep;
        }
        self.sync_cc(now);
        if !matches!(self.ca, CaState::Recovery | CaState::Loss) {
            self.stats.fast_retransmits += 1; // a window cut as fast retransmit's
            self.s.ssthresh = self.cc.ssthresh(&self.s).max(2);
            if !self.cc_sets_cwnd() {
                self.s.cwnd = self.s.ssthresh; // BBR's next ACK sets cwnd (packet conservation)
            }
            self.recover = self.snd_max;
            self.set_ca(CaState::Recovery);
        }
        self.retransmit_at(seq, now, out);
        TimerCmd::Keep
    }

    /// A corruption notification (paper 004's CNO): the segment at `seq` was corrupted on a
    /// wireless hop, not lost to congestion. Retransmit it now without touching the window.
    pub fn notify_corruption(&mut self, seq: u64, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        if self.state != SendState::Established || seq < self.snd_una || seq >= self.snd_max {
            return TimerCmd::Keep;
        }
        self.retransmit_at(seq, now, out);
        TimerCmd::Keep
    }

    /// An ACK carrying a CNO (paper 004 II-A): the segment `cno_seq` arrived corrupt (or
    /// vanished, by LN-MAC). The sender updates RTT and RTO from it (the echoed TSval; without
    /// timestamps, the timed segment if it is the one named), takes any new data the ACK
    /// acknowledges, and retransmits the named segment: cwnd unchanged (aggressive) or cut as
    /// for a loss (conservative). The CNO ACK is no duplicate ACK: a notification, not a sign
    /// of a segment arriving out of order.
    fn on_cno(&mut self, seg: &Segment, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        self.stats.cno_received += 1;
        let named = seg.cno_seq;
        // What any ACK tells: the window, SACK blocks.
        self.peer_wnd = seg.wnd;
        if self.rate.is_some() {
            self.rate_begin_ack(seg);
        }
        if self.p.recovery == Recovery::Sack {
            for &(a, b) in &seg.sack[..usize::from(seg.sack_n)] {
                if let Some(r) = self.rate.as_deref_mut() {
                    r.on_sacked(&self.sb, a.max(seg.ack), b.min(self.snd_max));
                }
                self.sb.add(a, b.min(self.snd_max), seg.ack);
            }
        }
        if let Some(r) = self.rate.as_deref_mut() {
            r.on_cumulative(seg.ack);
        }
        let mut timer = TimerCmd::Keep;
        let before = out.len();
        if seg.ack > self.snd_una {
            timer = self.on_new_ack(seg, now, out); // takes the RTT sample of the echo too
        } else {
            let sample = if self.p.timestamps && seg.ts_ecr > 0 {
                Some(now.since(SimTime(seg.ts_ecr - 1)))
            } else {
                match self.timed {
                    Some((t, sent)) if t == named => {
                        self.timed = None;
                        Some(now.since(sent))
                    }
                    _ => None,
                }
            };
            if let Some(r) = sample {
                self.record_rtt(r, now);
            }
        }
        if self.state != SendState::Established || named < self.snd_una || named >= self.snd_max {
            return timer;
        }
        // A partial ACK in recovery may have resent the named segment already.
        if out[before..].iter().any(|s| s.retransmit && s.seq == named) {
            return timer;
        }
        let sent = self.stats.retransmissions;
        let cmd = match self.p.corruption {
            Corruption::Conservative => self.notify_loss(named, now, out),
            _ => self.notify_corruption(named, now, out),
        };
        self.stats.cno_retransmits += self.stats.retransmissions - sent;
        match cmd {
            TimerCmd::Keep => timer,
            other => other,
        }
    }

    /// Retransmit the segment that starts at `seq` (clamped to the data and the FIN).
    fn retransmit_at(&mut self, seq: u64, now: SimTime, out: &mut Vec<Segment>) {
        let (una, head_resent) = (self.snd_una, self.head_resent);
        self.snd_una = seq;
        self.retransmit_una(now, out);
        self.snd_una = una;
        // emit saw `seq` as snd_una: only the true head counts ([`RtoRearm`]).
        self.head_resent = head_resent || seq == una;
    }

    /// Retransmit the segment at `snd_una` without moving `snd_nxt`.
    fn retransmit_una(&mut self, now: SimTime, out: &mut Vec<Segment>) {
        let mss = u64::from(self.p.mss);
        if Some(self.snd_una) == self.data_end() {
            let fin = self.seg(self.snd_una, 0, FIN | ACK, now);
            self.emit(fin, now, out);
            return;
        }
        let end = self.data_end().unwrap_or(u64::MAX).min(self.snd_max);
        let len = mss.min(end.saturating_sub(self.snd_una));
        if len > 0 {
            let seg = self.seg(self.snd_una, len as u32, ACK, now);
            self.emit(seg, now, out);
        }
    }

    fn timer_after_ack(&self, now: SimTime) -> TimerCmd {
        if self.snd_una >= self.snd_max {
            TimerCmd::Stop // (5.2)
        } else {
            TimerCmd::Arm(now + self.rto.rto()) // (5.3)
        }
    }

    /// An ACK (or SYN-ACK) from the receiver.
    pub fn on_ack(&mut self, seg: &Segment, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        self.sync_cc(now);
        // RFC 7323 4.3: the peer's segments all sit at our Last.ACK.sent (their seq 1, no data),
        // so TS.Recent takes every TSval that does not go back (PAWS, RFC 7323 5.3).
        if seg.ts_val >= self.ts_recent {
            self.ts_recent = seg.ts_val;
        }
        match self.state {
            SendState::Closed | SendState::Done => return TimerCmd::Keep,
            SendState::SynSent => {
                if seg.flags & SYN == 0 || seg.ack != 1 {
                    return TimerCmd::Keep;
                }
                self.state = SendState::Established;
                self.snd_una = 1;
                self.peer_wnd = seg.wnd;
                // tcp_ecn_rcv_synack: an ECN-setup SYN-ACK has ECE without CWR.
                self.ecn_ok = self.p.ecn && seg.flags & ECE != 0 && seg.flags & CWR == 0;
                self.take_rtt_sample(seg, 1, now);
                self.cc.init(&mut self.s);
                // Complete the handshake with a pure ACK, then send data.
                let mut ack = self.seg(1, 0, ACK, now);
                ack.ack = 1;
                self.stats.segments_sent += 1;
                out.push(ack);
                self.sync_cc(now);
                self.push(now, out);
                // tcp_write_xmit schedules the loss probe after the first flight too.
                let cmd = self.timer_after_ack(now);
                return self.with_reo_timer(cmd, now);
            }
            SendState::Established => {}
        }
        if seg.ack < self.snd_una || seg.ack > self.snd_max {
            return TimerCmd::Keep; // old or bogus
        }
        if seg.opts & OPT_CNO != 0 {
            return self.on_cno(seg, now, out);
        }
        self.peer_wnd = seg.wnd;
        // tcp_ecn_rcv_ecn_echo: ECE counts on a connection that negotiated ECN.
        self.ece_now = self.ecn_ok && seg.flags & ECE != 0;
        self.stats.ece_received += u64::from(self.ece_now);
        let sacked_before = self.sb.total();
        self.orig_acked = self.frto_on && self.orig_data_acked(seg);
        if self.rate.is_some() {
            self.rate_begin_ack(seg);
        }
        if self.p.recovery == Recovery::Sack {
            let min_rtt_ns = self.s.min_rtt.ns();
            for &(a, b) in &seg.sack[..usize::from(seg.sack_n)] {
                if let Some(r) = self.rack.as_deref_mut() {
                    r.on_sacked(&self.sb, a.max(seg.ack), b.min(self.snd_max), now.ns(), min_rtt_ns);
                }
                if let Some(r) = self.rate.as_deref_mut() {
                    r.on_sacked(&self.sb, a.max(seg.ack), b.min(self.snd_max));
                }
                self.sb.add(a, b.min(self.snd_max), seg.ack);
            }
            if let Some(r) = self.rack.as_deref_mut() {
                r.on_cumulative(seg.ack, now.ns(), min_rtt_ns);
            }
        }
        if let Some(r) = self.rate.as_deref_mut() {
            r.on_cumulative(seg.ack);
        }
        // Linux tcp_ack's delivered count: newly SACKed bytes (all above seg.ack) plus the
        // cumulatively acknowledged ones that were not SACKed before.
        let newly = (self.sb.total() - sacked_before) + (seg.ack - self.snd_una)
            - self.sb.sacked_between(self.snd_una, seg.ack);
        self.delivered_now = newly.div_ceil(u64::from(self.p.mss)) as u32;
        let prior_una = self.snd_una;
        self.head_resent = false;
        let mut cmd = if seg.ack == self.snd_una {
            let outstanding = self.snd_max > self.snd_una;
            let cmd = self.on_dupack(seg, now, out);
            // An ECE on an ACK that acknowledges nothing new, with data out (tcp_ack's
            // `no_queue` path skips it otherwise): after the duplicate ACK's own handling,
            // which did not start a recovery if the state is still Open or Disorder.
            if self.ece_now && outstanding {
                self.ecn_echo(now);
            }
            cmd
        } else {
            self.on_new_ack(seg, now, out)
        };
        if std::mem::take(&mut self.head_resent)
            && self.p.rules.rto_rearm == RtoRearm::HeadRetransmit
            && cmd == TimerCmd::Keep
            && self.snd_una < self.snd_max
        {
            // tcp_xmit_retransmit_queue: the head resent, the RTO runs from now.
            cmd = TimerCmd::Arm(now + self.rto.rto());
        }
        self.process_tlp_ack(seg.ack, prior_una);
        if self.rate.is_some() && !self.bbr_done && prior_una < self.snd_max {
            self.cong_control(); // an ACK no window rule above looked at
            if self.state == SendState::Established {
                self.sack_send_or_push(now, out);
            }
        }
        self.with_reo_timer(cmd, now)
    }

    /// What the windows allow after an ACK: the scoreboard's order in recovery, else new data.
    fn sack_send_or_push(&mut self, now: SimTime, out: &mut Vec<Segment>) {
        if self.sack_driven() {
            self.sack_send(now, out);
        } else {
            self.push(now, out);
        }
    }

    /// The start of an ACK on a connection with a rate sampler: the flight before it
    /// (`prior_in_flight`), `tp->lost` before it, the timestamp echo for its RTT fallback,
    /// and Linux's guess that it is a delayed ACK of a lone runt segment
    /// (`FLAG_ACK_MAYBE_DELAYED` in `tcp_clean_rtx_queue`).
    #[cold]
    fn rate_begin_ack(&mut self, seg: &Segment) {
        let prior_in_flight = self.pipe_now();
        self.bbr_done = false;
        self.lost_at_ack = self.s.lost;
        let advanced = seg.ack > self.snd_una;
        self.ack_ts_ecr_ns = (self.p.timestamps && seg.ts_ecr > 0 && advanced).then(|| seg.ts_ecr - 1);
        let acked = seg.ack.saturating_sub(self.snd_una);
        self.ack_maybe_delayed = advanced
            && acked < u64::from(self.p.mss)
            && seg.ack >= self.snd_max
            && self.sb.total() == 0
            && seg.sack_n == 0;
        if let Some(r) = self.rate.as_deref_mut() {
            r.begin_ack(prior_in_flight);
        }
    }

    /// The retransmission timer runs as RACK's reordering timer while a segment may be lost
    /// but is not yet (Linux `ICSK_TIME_REO_TIMEOUT` on `icsk_retransmit_timer`), as the RTO
    /// again once none is pending.
    fn with_reo_timer(&mut self, cmd: TimerCmd, now: SimTime) -> TimerCmd {
        if cmd == TimerCmd::Stop {
            self.timer = TimerRole::Rto;
            self.reo_at = None;
            return cmd;
        }
        if let Some(at) = self.reo_at {
            self.timer = TimerRole::Reo;
            return TimerCmd::Arm(at);
        }
        if cmd == TimerCmd::Keep && self.timer != TimerRole::Rto {
            // A pending probe or reordering timer runs on: an ACK that acknowledges nothing new
            // sets no timer (tcp_ack calls tcp_set_xmit_timer only with FLAG_SET_XMIT_TIMER,
            // which tcp_clean_rtx_queue sets for newly acknowledged data).
            return cmd;
        }
        let cmd = match std::mem::replace(&mut self.timer, TimerRole::Rto) {
            TimerRole::Reo | TimerRole::Tlp => TimerCmd::Arm(now + self.rto.rto()), // tcp_rearm_rto
            TimerRole::Rto => cmd,
        };
        // tcp_schedule_loss_probe: where the RTO is (re)armed, the probe timer runs instead,
        // due at the PTO or the RTO, whichever is sooner (RFC 8985 7.2: PTO = min(PTO, RTO)).
        if let (TimerCmd::Arm(rto_at), Some(pto)) = (cmd, self.tlp_timeout()) {
            self.timer = TimerRole::Tlp;
            return TimerCmd::Arm((now + pto).min(rto_at));
        }
        cmd
    }

    /// RFC 8985 7.2 / Linux 6.x `tcp_schedule_loss_probe`: the probe timeout, for a SACK
    /// sender in Open or CWR with data out and no probe outstanding: 2 SRTT, plus the worst
    /// delayed ACK (200 ms, TCP_RTO_MIN) when one segment is out, else plus TCP_TIMEOUT_MIN;
    /// 1 s before an RTT sample.
    fn tlp_timeout(&self) -> Option<Dur> {
        let linux310 = self.p.rules.tlp_rule == TlpRule::Linux310;
        let eligible = self.p.rules.tlp
            && self.p.recovery == Recovery::Sack
            // Linux's Open is airtcp's Disorder too while nothing is SACKed (a duplicate ACK
            // without SACK blocks, as an out-of-order FIN draws, leaves Linux in Open).
            && ((self.ca == CaState::Cwr && !linux310)
                || self.ca == CaState::Open
                || (self.ca == CaState::Disorder && self.sb.is_empty()))
            && self.snd_una < self.snd_max
            && self.tlp_high_seq == 0;
        if !eligible {
            return None;
        }
        if linux310 {
            return self.tlp_timeout_310();
        }
        Some(match self.rto.srtt() {
            Some(srtt) => {
                let one_out = self.packets_out() == 1;
                let two_srtt = Dur(2 * srtt.ns());
                let rto = &self.p.rto;
                match self.p.rules.timer_rounding {
                    // 4.14-6.5: usecs_to_jiffies(2 SRTT) + TCP_RTO_MIN or TCP_TIMEOUT_MIN.
                    TimerRounding::Linux414 => {
                        rto.to_jiffies(two_srtt)
                            + if one_out { TCP_RTO_MIN } else { rto.jiffies(TCP_TIMEOUT_MIN_JIFFIES) }
                    }
                    // 6.6+: usecs_to_jiffies(2 SRTT + tcp_rto_min_us or TCP_TIMEOUT_MIN_US).
                    TimerRounding::Linux66 => {
                        rto.to_jiffies(two_srtt + if one_out { rto.min } else { TCP_TIMEOUT_MIN_US })
                    }
                }
            }
            None => Dur::from_ms(1000),
        })
    }

    /// Linux 3.10-4.13 `tcp_schedule_loss_probe`, past the common checks: no probe before an
    /// RTT sample (`!rtt`) or while cwnd has room and data waits unsent (`snd_cwnd >
    /// tcp_packets_in_flight && tcp_send_head`: TSQ or the peer's window holds it back, and
    /// new data will go first); else max(2 SRTT, 10 ms), with one segment out at least 1.5
    /// SRTT + TCP_DELACK_MAX.
    fn tlp_timeout_310(&self) -> Option<Dur> {
        let srtt = self.rto.srtt()?;
        let packets_out = self.packets_out();
        let end = self.send_end();
        if u64::from(self.s.cwnd) > packets_out && self.snd_nxt < end {
            return None;
        }
        let mut timeout = Dur(2 * srtt.ns());
        if packets_out == 1 {
            timeout = timeout.max(Dur(srtt.ns() + srtt.ns() / 2) + TCP_DELACK_MAX);
        }
        Some(timeout.max(self.p.rto.to_jiffies(Dur::from_ms(10))))
    }

    /// Linux's `tp->packets_out` with data out: the segments from the first unacknowledged one,
    /// the FIN riding on the last data segment as Linux sends it (so it adds none).
    fn packets_out(&self) -> u64 {
        let data_hi = self.data_end().map_or(self.snd_max, |e| self.snd_max.min(e));
        data_hi.saturating_sub(self.snd_una).div_ceil(u64::from(self.p.mss)).max(1)
    }

    /// The probe timer fired (Linux `tcp_send_loss_probe`): one new segment if the receive
    /// window allows, whatever cwnd says, else the last segment sent again; then the RTO.
    fn on_tlp(&mut self, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        self.sync_cc(now);
        if self.tlp_high_seq == 0 && self.snd_una < self.snd_max {
            let before = out.len();
            let sent_new = self.send_one_at_nxt(now, out, self.snd_una + self.flow_window());
            if !sent_new {
                // The last skb sent again: Linux carries a FIN on the last data segment, so
                // where airtcp sent the FIN apart, the last data segment and the FIN go.
                let mss = u64::from(self.p.mss);
                let fin = self.data_end().filter(|&end| self.snd_max > end);
                let data_top = fin.unwrap_or(self.snd_max);
                if data_top > self.snd_una {
                    let last = Grid { mss, high_data: data_top, lost_below: 0 }.align(data_top - 1);
                    self.retransmit_at(last.max(self.snd_una), now, out);
                }
                if let Some(end) = fin {
                    self.retransmit_at(end, now, out);
                }
            }
            if out.len() > before {
                self.stats.tlp_probes += 1;
                self.tlp_high_seq = self.snd_max;
                self.tlp_retrans = !sent_new;
            }
        }
        TimerCmd::Arm(now + self.rto.rto())
    }

    /// Linux `tcp_process_tlp_ack`: once the ACK reaches the probe's `snd_nxt`, a probe of new
    /// data is done; a retransmitted probe whose ACK goes past it repaired a loss, and the
    /// window is cut as in CWR (`tcp_init_cwnd_reduction`, `tcp_end_cwnd_reduction`); a pure
    /// duplicate ACK says both copies arrived.
    fn process_tlp_ack(&mut self, ack: u64, prior_una: u64) {
        if self.tlp_high_seq == 0 || ack < self.tlp_high_seq {
            return;
        }
        if !self.tlp_retrans {
            self.tlp_high_seq = 0;
        } else if ack > self.tlp_high_seq {
            self.tlp_high_seq = 0;
            self.s.ssthresh = self.cc.ssthresh(&self.s).max(2);
            if !self.cc_sets_cwnd() {
                // tcp_end_cwnd_reduction leaves a `cong_control` algorithm's cwnd alone.
                self.s.cwnd = self.s.ssthresh;
            }
            self.s.cwnd_cnt = 0;
            self.cc.cwnd_event(&mut self.s, CwndEvent::CompleteCwr);
        } else if ack == prior_una && self.delivered_now == 0 {
            self.tlp_high_seq = 0;
        }
    }

    /// Linux `tcp_rack_reo_wnd` without reordering seen (airtcp's paths keep order): none in
    /// recovery or once DupThresh segments are SACKed, else min RTT / 4, at most SRTT.
    fn rack_reo_wnd_ns(&self) -> u64 {
        if matches!(self.ca, CaState::Recovery | CaState::Loss)
            || self.sb.total() >= sack::DUP_THRESH * u64::from(self.p.mss)
        {
            return 0;
        }
        (self.s.min_rtt.ns() / 4).min(self.rto.srtt().map_or(u64::MAX, |d| d.ns()))
    }

    /// RACK's loss detection now (RFC 8985 6.2 step 5); true if a segment is newly marked lost
    /// or marked and not resent yet (a marked segment whose retransmission is in flight does
    /// not start another recovery).
    fn rack_detect(&mut self, now: SimTime) -> bool {
        let reo_wnd_ns = self.rack_reo_wnd_ns();
        let Some(r) = self.rack.as_deref_mut() else { return false };
        let d = r.detect(&self.sb, self.snd_max, now.ns(), reo_wnd_ns);
        self.stats.lost_retransmits += u64::from(d.lost_retransmits);
        // tp->lost (tcp_mark_skb_lost), which BBR reads.
        self.s.lost += u64::from(d.lost);
        // tcp_rack_mark_lost arms the timer for the time left to the deadline, rounded up to
        // jiffies, plus TCP_TIMEOUT_MIN (2 jiffies; 6.6+: 2 ms added before rounding).
        let rto = &self.p.rto;
        let rounding = self.p.rules.timer_rounding;
        self.reo_at = d.reo_at_ns.map(|at| {
            let remaining = Dur(at.saturating_sub(now.ns()));
            now + match rounding {
                TimerRounding::Linux414 => rto.to_jiffies(remaining) + rto.jiffies(TCP_TIMEOUT_MIN_JIFFIES),
                TimerRounding::Linux66 => rto.to_jiffies(remaining + TCP_TIMEOUT_MIN_US),
            }
        });
        d.lost > 0 || r.next_lost(&self.sb, self.snd_max).is_some()
    }

    /// The reordering timer fired (Linux `tcp_rack_reo_timeout`): detect again; a loss starts
    /// recovery, or is resent in it.
    fn on_reo_timeout(&mut self, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        self.sync_cc(now);
        if std::mem::take(&mut self.er_pending) {
            // tcp_resume_early_retransmit: still nothing else to send, recovery starts now.
            if self.early_retransmit_due() && matches!(self.ca, CaState::Open | CaState::Disorder) {
                self.sack_enter(now, out);
            }
        } else if self.rack_detect(now) {
            if matches!(self.ca, CaState::Open | CaState::Disorder | CaState::Cwr) {
                self.sack_enter(now, out);
            } else if self.sack_driven() {
                self.sack_send(now, out);
            }
        }
        let cmd =
            if self.snd_una < self.snd_max { TimerCmd::Arm(now + self.rto.rto()) } else { TimerCmd::Stop };
        self.with_reo_timer(cmd, now)
    }

    /// FLAG_ORIG_SACK_ACKED in Linux's Loss state: the ACK cumulatively acknowledges or newly
    /// SACKs data at or above HighRxt (never resent in this episode), below `high_seq`, that
    /// was not SACKed before.
    fn orig_data_acked(&self, seg: &Segment) -> bool {
        let (lo, hi) = (self.high_rxt.max(self.snd_una), self.recover);
        let fresh = |a: u64, b: u64| {
            let (a, b) = (a.max(lo), b.min(hi));
            a < b && self.sb.sacked_between(a, b) < b - a
        };
        fresh(self.snd_una, seg.ack) || seg.sack[..usize::from(seg.sack_n)].iter().any(|&(a, b)| fresh(a, b))
    }

    /// F-RTO found the RTO spurious (RFC 5682 3.1 step 3.b; Linux `tcp_try_undo_loss` with
    /// `frto_undo`): the window cut is undone (`tcp_undo_cwnd_reduction`: cwnd back to at
    /// least what it was, ssthresh to the one before), the lost marks cleared, Open again.
    fn undo_spurious_rto(&mut self) {
        self.stats.spurious_rtos += 1;
        self.frto_on = false;
        if self.cc_sets_cwnd() {
            self.s.cwnd = self.cc.undo_cwnd(&self.s); // bbr_undo_cwnd: cwnd as it is
        } else {
            self.s.cwnd = self.s.cwnd.max(self.undo_cwnd);
            self.s.ssthresh = self.s.ssthresh.max(self.undo_ssthresh);
        }
        self.s.cwnd_cnt = 0;
        self.loss_mark = 0;
        self.high_rxt = self.snd_una;
        if let Some(r) = self.rack.as_deref_mut() {
            r.clear_marks();
        }
        self.set_ca(CaState::Open);
    }

    /// RFC 5827 section 3.2 as Linux 3.6-4.10's `tcp_time_to_recover` tests it: SACK without
    /// RACK, nothing retransmitted, at least one segment SACKed, fewer than four out and more
    /// than are SACKed, and no new segment the windows let go (`!tcp_may_send_now`).
    fn early_retransmit_due(&self) -> bool {
        if !self.p.rules.early_retransmit || self.rack.is_some() || self.p.recovery != Recovery::Sack {
            return false;
        }
        let mss = u64::from(self.p.mss);
        let packets_out = (self.snd_max - self.snd_una).div_ceil(mss);
        let sacked = self.sb.total().div_ceil(mss);
        let end = self.send_end();
        let wnd_end = self.snd_una + (u64::from(self.s.cwnd) * mss).min(self.flow_window());
        let may_send = self.snd_nxt < end && self.snd_nxt + mss.min(end - self.snd_nxt) <= wnd_end;
        sacked >= 1 && packets_out < 4 && packets_out > sacked && !may_send
    }

    /// What is in flight now, in segments: RACK's marks, or RFC 6675's SetPipe.
    fn pipe_now(&self) -> u32 {
        match self.rack.as_deref() {
            Some(r) => r.pipe(&self.sb, self.snd_max),
            None => sack::pipe(&self.sb, self.grid(), self.snd_una, self.high_rxt),
        }
    }

    /// RFC 6675 (4.4) and the recovery loop: while cwnd - pipe >= 1 segment, send NextSeg.
    fn sack_send(&mut self, now: SimTime, out: &mut Vec<Segment>) {
        let mss = u64::from(self.p.mss);
        if self.ca == CaState::Recovery
            && self.rack.is_none()
            && self.p.rules.lost_retransmit == LostRetransmit::Every
        {
            // Linux tcp_mark_lost_retrans: any retransmission whose segment is not SACKed while
            // something sent after it is, was lost too: send it again.
            let high_sacked = self.sb.high_sacked();
            for k in 0..self.rxt_marks.len() {
                let (seq, mark) = self.rxt_marks[k];
                let e = (seq + mss).min(self.snd_max);
                if seq >= self.snd_una && high_sacked > mark && !self.sb.is_sacked(seq, e) {
                    self.retransmit_at(seq, now, out);
                    self.rxt_marks[k].1 = self.snd_max;
                    self.stats.lost_retransmits += 1;
                }
            }
        } else if self.ca == CaState::Recovery && self.una_rxt_mark != 0 && self.rack.is_none() {
            // Linux tcp_mark_lost_retrans (2.6.25-4.3): a segment sent after the head's
            // retransmission is SACKed while the head is not: the retransmission was lost too;
            // send it again rather than wait for the RTO.
            let e = (self.snd_una + mss).min(self.snd_max);
            if !self.sb.is_sacked(self.snd_una, e) && self.sb.high_sacked() > self.una_rxt_mark {
                self.retransmit_una(now, out);
                self.una_rxt_mark = self.snd_max;
                self.stats.lost_retransmits += 1;
            }
        }
        let sent_before = self.snd_max;
        // Bounded: each pass sends one segment or stops.
        for _ in 0..(self.s.cwnd as usize + 2) {
            let grid = self.grid();
            if self.pipe_now() >= self.s.cwnd || self.pacing_blocked() {
                break; // tcp_xmit_retransmit_queue's tests, pacing first
            }
            let end = self.send_end();
            let wnd_end = self.snd_una + self.flow_window();
            let new_data = self.snd_nxt < end && self.snd_nxt + mss.min(end - self.snd_nxt) <= wnd_end;
            // Linux's Loss state resends only what the RTO marked lost (tcp_xmit_retransmit_queue
            // has no forward retransmission there): RFC 6675's rule (3) is off.
            let no_rule3 = new_data || self.ca == CaState::Loss;
            let next = match self.rack.as_deref() {
                // tcp_xmit_retransmit_queue: what RACK marked lost, nothing else; after an RTO
                // the FIN too (RACK keeps data segments only; Linux's FIN rides on the last).
                Some(r) => r.next_lost(&self.sb, self.snd_max).or_else(|| {
                    let fin = self.data_end().filter(|&end| self.snd_max > end)?;
                    (self.ca == CaState::Loss && self.high_rxt <= fin).then_some(fin)
                }),
                None => sack::next_retransmission(&self.sb, grid, self.snd_una, self.high_rxt, no_rule3),
            };
            if let Some(s) = next {
                self.retransmit_at(s, now, out);
                self.high_rxt = grid.seg_end(s);
                if s == self.snd_una {
                    self.una_rxt_mark = self.snd_max;
                }
                self.mark_retransmission(s);
                continue;
            }
            if !new_data || !self.send_one_at_nxt(now, out, wnd_end) {
                break;
            }
        }
        self.cwnd_validate(sent_before);
    }

    /// Duplicate ACKs below the threshold: Disorder, unless in CWR, which they leave alone
    /// (Linux `tcp_try_to_open`).
    fn enter_disorder(&mut self) {
        if self.ca != CaState::Cwr {
            self.set_ca(CaState::Disorder);
        }
    }

    /// The ssthresh cut as recovery begins; from CWR it was cut already (Linux
    /// `tcp_enter_recovery`: only while `icsk_ca_state < TCP_CA_CWR`).
    fn cut_ssthresh_for_recovery(&mut self) {
        if self.ca != CaState::Cwr {
            self.s.ssthresh = self.cc.ssthresh(&self.s).max(2);
            self.queue_cwr(); // tcp_init_cwnd_reduction
        }
    }

    /// PRR's step on an ACK in SACK recovery, where it is on.
    fn prr_in_recovery(&mut self) {
        if self.cong_control() {
            return;
        }
        if self.p.rules.prr != Prr::Off {
            let pipe = self.pipe_now();
            self.prr_ack(pipe);
        }
    }

    /// A retransmission in SACK recovery, watched under [`LostRetransmit::Every`].
    fn mark_retransmission(&mut self, seq: u64) {
        if self.p.rules.lost_retransmit == LostRetransmit::Every
            && self.ca == CaState::Recovery
            && self.rack.is_none()
        {
            self.rxt_marks.retain(|m| m.0 != seq);
            self.rxt_marks.push((seq, self.snd_max));
        }
    }

    /// Enter SACK recovery (RFC 6675 step 4).
    fn sack_enter(&mut self, now: SimTime, out: &mut Vec<Segment>) {
        self.stats.fast_retransmits += 1;
        let from_cwr = self.ca == CaState::Cwr;
        self.cut_ssthresh_for_recovery();
        if self.p.rules.prr != Prr::Off {
            if !from_cwr || self.p.rules.prr == Prr::Recovery {
                self.prr_start(); // a reduction under way in CWR goes on (tcp_enter_recovery)
            }
        } else if !self.cc_sets_cwnd() {
            self.s.cwnd = self.s.ssthresh;
        }
        self.s.cwnd_cnt = 0;
        self.recover = self.snd_max; // RecoveryPoint = HighData
        self.rxt_marks.clear();
        self.set_ca(CaState::Recovery);
        if !self.cong_control() && self.p.rules.prr != Prr::Off {
            let pipe = self.pipe_now();
            self.prr_ack(pipe);
        }
        if let Some(r) = self.rack.as_deref() {
            // The fast retransmit: the first segment RACK marked lost, if not resent already.
            if let Some(first) = r.next_lost(&self.sb, self.snd_max) {
                if !self.pacing_blocked() {
                    self.retransmit_at(first, now, out);
                }
            }
            self.sack_send(now, out);
            return;
        }
        // (4.3): retransmit the first segment presumed dropped, HighACK + 1.
        self.retransmit_una(now, out);
        self.una_rxt_mark = self.snd_max;
        self.mark_retransmission(self.snd_una);
        self.high_rxt = (self.snd_una + u64::from(self.p.mss)).min(self.snd_max);
        self.sack_send(now, out);
    }

    fn take_rtt_sample(&mut self, seg: &Segment, ack: u64, now: SimTime) -> Option<Dur> {
        let sample = if self.p.timestamps && seg.ts_ecr > 0 {
            Some(now.since(SimTime(seg.ts_ecr - 1))) // RFC 7323 section 4.1
        } else {
            match self.timed {
                Some((t, sent)) if ack > t => {
                    self.timed = None;
                    Some(now.since(sent)) // Karn: only never-retransmitted segments are timed
                }
                _ => None,
            }
        };
        if let Some(r) = sample {
            self.record_rtt(r, now);
        }
        sample
    }

    /// An RTT sample `r` taken at `now`: the estimator (in whole ticks of the jiffy clock if
    /// there is one, `RtoConfig::measured`), the statistics and the congestion control's view
    /// (at the nanosecond clock, as Linux 3.x's ktime stamps for TCP_CONG_RTT_STAMP).
    fn record_rtt(&mut self, r: Dur, now: SimTime) {
        self.stats.rtt_samples += 1;
        self.rto.sample_at(self.p.rto.measured(r, now), self.snd_una, self.snd_nxt);
        self.last_rtt = Some(r);
        self.s.min_rtt = if self.s.min_rtt == Dur::ZERO { r } else { self.s.min_rtt.min(r) };
        self.s.srtt = self.rto.srtt().unwrap_or(r);
    }

    /// Slow start or congestion avoidance for an ACK that acknowledged `acked` segments
    /// cumulatively, as [`CwndCredit`] and [`TcpParams::per_ack_growth`] count them.
    fn grow(&mut self, acked: u32) {
        if self.cong_control() {
            return;
        }
        let credit = match self.p.rules.cwnd_credit {
            CwndCredit::Acked => acked,
            CwndCredit::Delivered => self.delivered_now,
        };
        if credit > 0 {
            self.cc.cong_avoid(&mut self.s, if self.p.per_ack_growth { 1 } else { credit });
        }
    }

    fn on_dupack(&mut self, seg: &Segment, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        // RFC 5681 2: a duplicate only if data is outstanding and the segment carries none.
        if self.snd_max <= self.snd_una || seg.len > 0 {
            return TimerCmd::Keep;
        }

        self.cc.in_ack_event(&mut self.s, 0);
        self.dupacks += 1;
        if self.p.recovery == Recovery::Sack {
            match self.ca {
                CaState::Recovery => {
                    self.rack_detect(now);
                    self.prr_in_recovery();
                    self.sack_send(now, out)
                }
                // tcp_process_loss: each ACK resends what the RTO marked lost, as cwnd allows.
                CaState::Loss if self.sack_driven() => {
                    if self.orig_acked {
                        self.undo_spurious_rto();
                        self.cong_control();
                        self.push(now, out);
                        return TimerCmd::Keep;
                    }
                    if self.frto_on && self.snd_max > self.recover {
                        self.frto_on = false; // step 3.a: a duplicate ACK after new data, real loss
                    }
                    self.rack_detect(now);
                    self.cong_control();
                    self.sack_send(now, out)
                }
                CaState::Loss => {}
                _ => {
                    let mss = u64::from(self.p.mss);
                    // RFC 6675 (4): DupThresh duplicate ACKs, or IsLost(HighACK + 1); the
                    // `recover` guard as RFC 6582 step 2.
                    // With RACK, recovery starts on the first segment it marks lost (Linux
                    // tcp_time_to_recover: lost_out), with no RFC 6582 guard.
                    let lost = match self.rack.is_some() {
                        true => self.rack_detect(now),
                        false => {
                            // The RFC 6582 guard: no new recovery until the ACK passes the last
                            // one's point; Linux holds it for Reno without SACK only ("SACK TCP
                            // is safe", tcp_try_undo_recovery): at the point is enough there.
                            let past = match self.p.rules.rto_recovery {
                                RtoRecovery::Rfc => seg.ack > self.recover,
                                RtoRecovery::Linux => seg.ack >= self.recover,
                            };
                            (self.dupacks >= 3 || self.sb.is_lost(self.snd_una, mss))
                                && (past || self.recover == 0)
                        }
                    };
                    if !lost {
                        self.cong_control(); // before tcp_data_snd_check's new data
                    }
                    if lost {
                        self.sack_enter(now, out);
                    } else if !self.er_pending && self.early_retransmit_due() {
                        // tcp_pause_early_retransmit: max(SRTT / 4, msecs_to_jiffies(2)), on the timer.
                        let srtt = self.rto.srtt().unwrap_or(Dur::ZERO);
                        let floor = self.p.rto.to_jiffies(Dur::from_ms(2));
                        self.er_pending = true;
                        self.reo_at = Some(now + Dur(srtt.ns() / 4).max(floor));
                    } else if self.p.limited_transmit && self.dupacks < 3 {
                        self.enter_disorder();
                        let limit = self.snd_una + (u64::from(self.s.cwnd) + u64::from(self.dupacks)) * mss;
                        let limit = limit.min(self.snd_una + self.flow_window());
                        if self.snd_nxt + mss <= limit {
                            let sent_before = self.snd_max;
                            self.send_one_at_nxt(now, out, limit);
                            self.cwnd_validate(sent_before);
                        }
                    }
                }
            }
            return TimerCmd::Keep;
        }
        match self.ca {
            CaState::Recovery => {
                // RFC 5681 3.2 step 4 / RFC 6582 step 4: inflate by one segment per dupack.
                self.s.cwnd += 1;
                self.push(now, out);
                return TimerCmd::Keep;
            }
            CaState::Loss => return TimerCmd::Keep,
            _ => {}
        }
        if self.dupacks < 3 {
            self.enter_disorder();
            if self.p.limited_transmit {
                // RFC 3042: one new segment per dupack if flight <= cwnd + 2 segments.
                let mss = u64::from(self.p.mss);
                let limit = self.snd_una + (u64::from(self.s.cwnd) + u64::from(self.dupacks)) * mss;
                let limit = limit.min(self.snd_una + self.flow_window());
                if self.snd_nxt + mss <= limit {
                    let sent_before = self.snd_max;
                    self.send_one_at_nxt(now, out, limit);
                    self.cwnd_validate(sent_before);
                }
            }
            return TimerCmd::Keep;
        }
        if self.dupacks > 3 {
            return TimerCmd::Keep;
        }
        // Third duplicate ACK. NewReno and Tahoe enter only if the ACK covers more than
        // `recover` (RFC 6582 step 2; ns-2's bugFix_ for Tahoe), avoiding several fast
        // retransmits per window; Reno (RFC 5681) always does, and so may halve repeatedly.
        if self.p.recovery != Recovery::Reno && seg.ack <= self.recover && self.recover > 0 {
            return TimerCmd::Keep;
        }
        self.stats.fast_retransmits += 1;
        self.cut_ssthresh_for_recovery();
        self.recover = self.snd_max;
        match self.p.recovery {
            Recovery::Tahoe => {
                // Tahoe: forget what is outstanding and slow-start from one segment.
                self.s.cwnd = 1;
                self.s.cwnd_cnt = 0;
                self.snd_nxt = self.snd_una;
                self.set_ca(CaState::Loss);
                self.push(now, out);
            }
            Recovery::Reno | Recovery::NewReno | Recovery::Sack => {
                // RFC 5681 3.2 steps 2-3: retransmit, cwnd = ssthresh + 3 segments.
                self.set_ca(CaState::Recovery);
                self.retransmit_una(now, out);
                self.s.cwnd = self.s.ssthresh + 3;
                self.push(now, out);
            }
        }
        TimerCmd::Keep
    }

    /// NewReno as ns-2.1b9a runs it ([`NewRenoRule::Ns2`]).
    fn ns2_newreno(&self) -> bool {
        self.p.recovery == Recovery::NewReno && self.p.rules.newreno_rule == NewRenoRule::Ns2
    }

    fn on_new_ack(&mut self, seg: &Segment, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        // F-RTO step 2.b: this ACK sends new data instead of retransmissions (REXMIT_NEW).
        let mut send_new = false;
        if self.s.usage.rule == CwndLimited::Linux3 {
            // Linux 3.2/3.12 `tcp_ack`: prior_in_flight = tcp_packets_in_flight(tp) before the ACK
            // is processed, here the segments the sender counts against cwnd (SACKed ones too:
            // outside SACK recovery airtcp's sender counts them, RFC 5681's FlightSize).
            self.s.usage.prior_in_flight = self.in_flight_bytes().div_ceil(u64::from(self.p.mss)) as u32;
        }
        let acked_bytes = seg.ack - self.snd_una;
        let acked = acked_bytes.div_ceil(u64::from(self.p.mss)).max(1) as u32;
        self.snd_una = seg.ack;
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una; // the receiver held data we were about to resend
        }
        self.dupacks = 0;
        self.rto_streak = 0; // tcp_ack: snd_una advanced, icsk_retransmits = 0
        if std::mem::take(&mut self.er_pending) {
            self.reo_at = None; // the delay ends with the loss it waited for
        }
        let rtt = self.take_rtt_sample(seg, seg.ack, now);
        self.sync_cc(now);
        self.cc.in_ack_event(&mut self.s, acked_bytes.min(u64::from(u32::MAX)) as u32);
        self.cc.pkts_acked(&mut self.s, acked, rtt);
        // RFC 6298 (5.3) on every new ACK, partial ones included: RFC 6582 section 4's
        // "Slow-but-Steady" variant, ns-2's default (paper 001's simulator).
        let mut timer = self.timer_after_ack(now);
        self.sb.advance(self.snd_una);
        self.una_rxt_mark = 0; // a new head: its retransmission, if any, is not tracked
        let una = self.snd_una;
        self.rxt_marks.retain(|m| m.0 >= una);
        if self.rack_detect(now) && matches!(self.ca, CaState::Open | CaState::Disorder | CaState::Cwr) {
            self.sack_enter(now, out); // a cumulative ACK can show a loss too (tcp_fastretrans_alert)
            return timer;
        }
        if self.p.recovery == Recovery::Sack && self.ca == CaState::Recovery {
            self.high_rxt = self.high_rxt.max(self.snd_una);
            if self.snd_una >= self.recover {
                // Recovery ends when the cumulative ACK covers RecoveryPoint (RFC 6675 section 5);
                // tcp_end_cwnd_reduction leaves a `cong_control` algorithm's cwnd alone.
                if !self.cc_sets_cwnd() {
                    self.s.cwnd = self.s.ssthresh;
                }
                self.s.cwnd_cnt = 0;
                self.set_ca(CaState::Open);
                self.cc.cwnd_event(&mut self.s, CwndEvent::CompleteCwr);
            } else {
                self.prr_in_recovery();
                self.sack_send(now, out);
                return timer;
            }
        }
        match self.ca {
            CaState::Recovery => {
                // `recover` holds HighData + 1 (RFC 6582 stores HighData itself): an ACK that
                // reaches it acknowledges everything outstanding when recovery began.
                let full = self.p.recovery == Recovery::Reno || seg.ack >= self.recover;
                if full {
                    // RFC 5681 3.2 step 6 (Reno) / RFC 6582 step 3 option 1 (NewReno).
                    self.s.cwnd = match self.p.recovery {
                        // ns-2.1b9a: `dupwnd_ = 0`, cwnd_ left at its halved value.
                        Recovery::NewReno if self.ns2_newreno() => self.s.ssthresh,
                        Recovery::NewReno => {
                            let flight = self.s.in_flight.max(1);
                            self.s.ssthresh.min(flight + 1)
                        }
                        _ => self.s.ssthresh,
                    };
                    self.s.cwnd_cnt = 0;
                    self.set_ca(CaState::Open);
                    self.cc.cwnd_event(&mut self.s, CwndEvent::CompleteCwr);
                } else {
                    // RFC 6582 step 5: partial ACK: retransmit the next hole, deflate by the
                    // amount acknowledged, add back one segment.
                    self.retransmit_una(now, out);
                    self.s.cwnd = if self.ns2_newreno() {
                        // ns-2.1b9a `partialnewack`: `dupwnd_ = 0`, no partial deflation.
                        self.s.ssthresh.max(1)
                    } else {
                        (self.s.cwnd.saturating_sub(acked) + 1).max(1)
                    };
                }
            }
            CaState::Loss if self.orig_acked => {
                self.undo_spurious_rto();
                self.cong_control();
            }
            CaState::Loss if self.cc_sets_cwnd() && self.snd_una >= self.recover => {
                // tcp_process_loss -> tcp_try_undo_recovery: Open before cong_control, so the
                // ACK that ends the episode restores BBR's saved cwnd.
                self.set_ca(CaState::Open);
                self.loss_mark = 0;
                self.frto_on = false;
                self.high_rxt = self.high_rxt.max(self.snd_una);
                self.grow(acked);
            }
            CaState::Loss => {
                self.grow(acked);
                self.high_rxt = self.high_rxt.max(self.snd_una);
                if self.snd_una >= self.recover {
                    self.set_ca(CaState::Open);
                    self.loss_mark = 0;
                    self.frto_on = false;
                } else if self.frto_on && self.snd_max <= self.recover {
                    // Step 2.b: the retransmission is acknowledged: send new data, if any may
                    // go, instead of more retransmissions; the episode now ends past it.
                    self.recover = self.snd_max;
                    let end = self.send_end();
                    let wnd_end = self.snd_una + self.flow_window();
                    send_new = self.snd_nxt < end && self.snd_nxt < wnd_end;
                    self.frto_on = send_new;
                }
            }
            CaState::Cwr if self.snd_una > self.cwr_high => {
                // Linux 3.2 tcp_fastretrans_alert (E): CWR holds until something above
                // high_seq is acknowledged; tcp_complete_cwr: cwnd = min(cwnd, ssthresh). No
                // growth on this ACK (tcp_may_raise_cwnd is false in CWR); not for BBR
                // (tcp_end_cwnd_reduction), whose cong_control runs on this ACK.
                if !self.cong_control() {
                    self.s.cwnd = self.s.cwnd.min(self.s.ssthresh);
                }
                self.s.cwnd_cnt = 0;
                self.set_ca(CaState::Open);
                self.cc.cwnd_event(&mut self.s, CwndEvent::CompleteCwr);
                if self.ece_now {
                    self.ecn_echo(now); // tcp_try_to_open after the state's exit
                }
            }
            CaState::Cwr => self.cwr_ack(),
            CaState::Open | CaState::Disorder if self.ece_now => self.ecn_echo(now),
            CaState::Open | CaState::Disorder => {
                self.set_ca(CaState::Open);
                self.grow(acked);
            }
        }
        if self.data_end().is_some_and(|e| self.snd_una > e) {
            self.state = SendState::Done; // the FIN is acknowledged
            return TimerCmd::Stop;
        }
        self.sync_cc(now);
        if send_new {
            self.push(now, out); // F-RTO step 2.b (REXMIT_NEW)
        } else {
            // Linux's Loss state: what the RTO marked lost first.
            self.sack_send_or_push(now, out);
        }
        if let TimerCmd::Stop = timer {
            if self.snd_max > self.snd_una {
                timer = TimerCmd::Arm(now + self.rto.rto());
            }
        }
        timer
    }

    /// The retransmission timer expired (RFC 6298 5.4-5.6, RFC 5681 (4) and 3.1).
    pub fn on_rto(&mut self, now: SimTime, out: &mut Vec<Segment>) -> TimerCmd {
        match std::mem::replace(&mut self.timer, TimerRole::Rto) {
            TimerRole::Reo => {
                self.reo_at = None;
                return self.on_reo_timeout(now, out);
            }
            TimerRole::Tlp => return self.on_tlp(now, out),
            TimerRole::Rto => {}
        }
        self.sync_cc(now);
        match self.state {
            SendState::SynSent => {
                self.stats.timeouts += 1;
                self.rto.back_off();
                // tcp_ecn_clear_syn (`tcp_ecn_fallback`, RFC 3168 6.1.1.1): a SYN sent again
                // asks for no ECN, in case a middlebox dropped the first for its bits.
                let syn = self.seg(0, 0, SYN, now);
                self.emit(syn, now, out);
                return TimerCmd::Arm(now + self.rto.rto());
            }
            SendState::Established => {}
            _ => return TimerCmd::Stop,
        }
        if self.snd_una >= self.snd_max {
            if self.p.rules.local_congestion == LocalCongestion::Cwr {
                // The probe after a refused send with nothing in flight (tcp_probe_timer's
                // resend of what waits at sk_send_head); refused again, it is re-armed.
                self.push(now, out);
                return self.timer_after_ack(now);
            }
            return TimerCmd::Stop;
        }
        self.stats.timeouts += 1;
        let linux = self.p.rules.rto_recovery == RtoRecovery::Linux;
        // Linux tcp_enter_loss: "Reduce ssthresh if it has not yet been made inside this
        // window": from Open or Disorder, once high_seq is acknowledged, or on the first RTO
        // of a Loss episode. RFC 5681 (4) cuts on every timeout.
        let cut = !linux
            || matches!(self.ca, CaState::Open | CaState::Disorder)
            || self.snd_una >= self.high_seq()
            || (self.ca == CaState::Loss && self.rto_streak == 0);
        // Linux tcp_enter_loss: F-RTO for a new episode or a repeated RTO, not for an RTO in
        // fast recovery (new_recovery || icsk_retransmits).
        let new_recovery = !matches!(self.ca, CaState::Recovery | CaState::Loss);
        self.frto_on = linux
            && self.p.rules.frto
            && self.p.recovery == Recovery::Sack
            && (new_recovery || self.rto_streak > 0);
        if cut {
            // prior_cwnd and prior_ssthresh (tcp_current_ssthresh: at least 3/4 cwnd).
            self.undo_cwnd = self.s.cwnd;
            self.undo_ssthresh = self.s.ssthresh.max(self.s.cwnd / 4 * 3);
            self.s.ssthresh = self.cc.ssthresh(&self.s).max(2);
        }
        self.s.cwnd = 1;
        self.s.cwnd_cnt = 0;
        if cut {
            self.cc.cwnd_event(&mut self.s, CwndEvent::Loss);
        }
        self.queue_cwr(); // tcp_enter_loss
        if linux && self.p.recovery == Recovery::Sack {
            // tcp_timeout_mark_lost before tcp_set_ca_state: the algorithm sees tp->lost.
            if let Some(r) = self.rack.as_deref_mut() {
                self.s.lost += u64::from(r.mark_all_lost(&self.sb, self.snd_max));
            }
        }
        if self.ca == CaState::Loss && self.cc_sets_cwnd() {
            // tcp_set_ca_state calls set_state on every RTO, a repeated one too (BBR's RTO
            // round; the other algorithms keep airtcp's once-per-episode call for now).
            self.cc.set_state(&mut self.s, CaState::Loss);
        }
        self.set_ca(CaState::Loss);
        self.rto_streak += 1;
        self.recover = self.snd_max;
        self.dupacks = 0;
        self.timed = None;
        self.high_rxt = self.snd_una;
        self.una_rxt_pending = false;
        self.rto.back_off();
        self.reo_at = None;
        if linux && self.p.recovery == Recovery::Sack {
            // The scoreboard stays; every unSACKed segment sent so far is lost and goes again
            // in order from snd_una, SACKed ones skipped, new data after them.
            self.loss_mark = self.snd_max; // RACK's marks were set above
            self.sync_cc(now);
            self.sack_send(now, out);
        } else {
            self.loss_mark = 0;
            if let Some(r) = self.rack.as_deref_mut() {
                r.clear_marks();
            }
            self.snd_nxt = self.snd_una; // go back N
                                         // RFC 6675 section 5.1 / RFC 2018 section 8: after a timeout, SACK information is
                                         // not relied on (the receiver may have reneged).
            self.sb.clear();
            if let Some(r) = self.rate.as_deref_mut() {
                r.clear_sacks();
            }
            self.sync_cc(now);
            self.push(now, out);
        }
        TimerCmd::Arm(now + self.rto.rto())
    }
}

/// Receiver-side counters.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReceiverStats {
    pub acks_sent: u64,
    /// ACKs carrying a CNO (one per corrupt copy or LN-MAC notification of a missing segment).
    pub cno_sent: u64,
    /// Corrupt copies and notifications of segments already received: nothing sent.
    pub corrupt_ignored: u64,
    pub dupacks_sent: u64,
    pub out_of_order: u64,
    /// ECN: data segments that arrived CE-marked.
    pub ce_received: u64,
}

pub struct Receiver {
    pub p: TcpParams,
    pub syn_seen: bool,
    pub rcv_nxt: u64,
    /// Out-of-order data held: sorted, disjoint [start, end) ranges.
    pub ooo: Vec<(u64, u64)>,
    /// Full segments received since the last ACK.
    pending: u32,
    /// Start of the out-of-order block that received the latest segment (first SACK block).
    last_block: u64,
    /// Cross-layer control: advertise at most this window [bytes] (paper 003's receiver-side
    /// wnd_max); None: the free buffer.
    pub wnd_override: Option<u32>,
    ts_recent: u64,
    last_ack_sent: u64,
    /// The receiver's own RTT estimate from timestamps (Linux `rcv_rtt_est`; paper 003's RTT
    /// at a receiving station), and the TSecr it last sampled.
    pub rcv_rtt: Option<Dur>,
    /// The least of those samples (paper 003's `arf_window_rtt = "min"` at a receiver).
    pub rcv_rtt_min: Option<Dur>,
    rcv_rtt_last_tsecr: u64,
    /// The last CNO sent: the segment it named and when (`cno_once_per_rtt`).
    last_cno: Option<(u64, SimTime)>,
    /// Sequence number of the FIN, once seen.
    pub fin_seq: Option<u64>,
    pub stats: ReceiverStats,
    /// [`QuickAck`]: ACKs still to send at once (Linux `icsk_ack.quick`), and whether in-order
    /// data has arrived yet (Linux: `icsk_ack.ato` is still 0 before the first).
    quick: u32,
    data_seen: bool,
    /// Compressed SACK ([`Rules::sack_compress`]): duplicate ACKs waiting (Linux
    /// `compressed_ack`), the cumulative ACK the uncompressed ones counted at
    /// (`compressed_ack_rcv_nxt`) and how many went at it (`dup_ack_counter`).
    comp_waiting: u32,
    comp_rcv_nxt: u64,
    comp_dupacks: u32,
    /// The advertised window under Linux's rules ([`RcvWindow`]).
    rwin: RcvWin,
    /// RFC 3168: ECN was negotiated (`TCP_ECN_OK`); a CE was seen and ECE goes on every ACK
    /// until a CWR arrives (`TCP_ECN_DEMAND_CWR`); an ECN-capable segment has arrived
    /// (`TCP_ECN_SEEN`).
    pub ecn_ok: bool,
    demand_cwr: bool,
    ecn_seen: bool,
}

/// Linux's receive window ([`RcvWindow`]): `tcp_select_initial_window`, `tcp_grow_window`,
/// `tcp_rcv_space_adjust`. Window sizes in bytes of payload; `rcvbuf` in bytes of memory (3.x).
#[derive(Clone, Copy, Debug)]
struct RcvWin {
    /// The window the SYN-ACK offers (`rcv_wnd` from `tcp_select_initial_window`).
    initial: u32,
    /// `tp->rcv_ssthresh`: the window grows toward the clamp by 2 MSS per in-order segment.
    ssthresh: u32,
    /// `tp->window_clamp`.
    clamp: u32,
    /// `sk->sk_rcvbuf` [bytes of memory] (3.x) and the memory one segment takes (`rcvmem`).
    rcvbuf: u64,
    rcvmem: u64,
    /// `tp->rcvq_space`: the bytes read in the last measured receiver RTT (`space`), and
    /// where and when this measurement began.
    space: u64,
    space_seq: u64,
    space_time: Option<SimTime>,
    /// The right edge the last ACK offered (`rcv_wup + rcv_wnd`), which never moves left.
    right_edge: u64,
}

/// Linux 3.2 `TCP_DEFAULT_INIT_RCVWND`: the first window in segments of up to 1460 bytes (3.12's
/// `tcp_default_init_rwnd` is twice it; 6.x's `rcvq_space` starts at it, TCP_INIT_CWND).
const TCP_DEFAULT_INIT_RCVWND: u32 = 10;

impl RcvWin {
    /// At the SYN: the initial window, the clamp and the buffer of each kernel, within the
    /// receive buffer `cap` (airtcp's largest window).
    fn new(rule: RcvWindow, mss: u32, cap: u32) -> RcvWin {
        let mss = mss.max(1);
        // tcp_select_initial_window: 10 segments (3.2, TCP_DEFAULT_INIT_RCVWND) or 20 (3.12,
        // tcp_default_init_rwnd), or as many bytes' worth of 1460-byte ones (at least 2) for a
        // larger MSS.
        let segs = |n: u32| if mss > 1460 { (1460 * n / mss).max(2) } else { n };
        // (initial window, tcp_full_space at the start, rcvbuf, rcvmem)
        let (initial, maxwin, rcvbuf, rcvmem) = match rule {
            RcvWindow::Fixed => (cap, cap, 0, 0),
            // 3.2: tcp_rmem[1] = 87380 at tcp_adv_win_scale 2 (a window of 3/4); rcvmem =
            // advmss + MAX_TCP_HEADER + 16 + sizeof(struct sk_buff), about MSS + 576, raised by
            // 128 until 3/4 of it holds a segment.
            RcvWindow::Linux32 => {
                let mut rcvmem = u64::from(mss) + 576;
                while rcvmem * 3 / 4 < u64::from(mss) {
                    rcvmem += 128;
                }
                (segs(TCP_DEFAULT_INIT_RCVWND) * mss, 87380 * 3 / 4, 87380, rcvmem)
            }
            // 3.12: tcp_fixup_rcvbuf's 2 truesizes x 10 segments x 4 (tcp_moderate_rcvbuf) at
            // tcp_adv_win_scale 1 (a window of 1/2); rcvmem = SKB_TRUESIZE(advmss +
            // MAX_TCP_HEADER), raised by 128 until half of it holds a segment.
            RcvWindow::Linux312 => {
                let truesize = TSQ_TRUESIZE_BYTES;
                let init_segs = segs(2 * TCP_DEFAULT_INIT_RCVWND);
                let rcvbuf = (2 * truesize * u64::from(init_segs) * 4).max(87380);
                let mut rcvmem = truesize;
                while rcvmem / 2 < u64::from(mss) {
                    rcvmem += 128;
                }
                (init_segs * mss, (rcvbuf / 2) as u32, rcvbuf, rcvmem)
            }
            // 6.x: tcp_rmem[1] = 128 KiB at the default ratio of 1/2: 64 KiB, the SYN-ACK's
            // at most U16_MAX.
            RcvWindow::Linux6 => (65535, 65536, 131072, 0),
        };
        // tcp_init_buffer_space: "Force reservation of one segment".
        let clamp = if rule == RcvWindow::Fixed { cap } else { maxwin.saturating_sub(mss).max(2 * mss) };
        let clamp = clamp.min(cap);
        let ssthresh = initial.min(clamp);
        // rcvq_space.space: rcv_wnd in 3.x, min(rcv_ssthresh, rcv_wnd, 10 advmss) in 6.x.
        let space = match rule {
            RcvWindow::Linux6 => u64::from(ssthresh.min(TCP_DEFAULT_INIT_RCVWND * mss)),
            _ => u64::from(initial),
        };
        RcvWin {
            initial: initial.min(cap),
            ssthresh,
            clamp,
            rcvbuf,
            rcvmem,
            space,
            space_seq: 1,
            space_time: None,
            right_edge: 0,
        }
    }
}

impl Receiver {
    pub fn new(p: TcpParams) -> Receiver {
        Receiver {
            syn_seen: false,
            rcv_nxt: 0,
            ooo: Vec::new(),
            pending: 0,
            last_block: 0,
            wnd_override: None,
            ts_recent: 0,
            last_ack_sent: 0,
            rcv_rtt: None,
            rcv_rtt_min: None,
            rcv_rtt_last_tsecr: 0,
            last_cno: None,
            fin_seq: None,
            stats: ReceiverStats::default(),
            quick: 0,
            data_seen: false,
            comp_waiting: 0,
            comp_rcv_nxt: 0,
            comp_dupacks: 0,
            rwin: RcvWin::new(p.rules.rcv_window, p.mss, p.rcv_buf),
            p,
            ecn_ok: false,
            demand_cwr: false,
            ecn_seen: false,
        }
    }

    /// `__tcp_ecn_check_ce` on a data segment (in order or not): a CE asks for ECE until the
    /// sender's CWR and makes the next two ACKs go at once; a segment that is not
    /// ECN-capable after ECN-capable ones is probably a retransmission: quick ACKs too.
    fn ecn_check_ce(&mut self, seg: &Segment) {
        if !self.ecn_ok {
            return;
        }
        match seg.ecn {
            CE => {
                self.stats.ce_received += 1;
                if !self.demand_cwr {
                    self.incr_quickack_max(2);
                    self.demand_cwr = true;
                }
                self.ecn_seen = true;
            }
            NOT_ECT => {
                if self.ecn_seen {
                    self.incr_quickack_max(2);
                }
            }
            _ => self.ecn_seen = true,
        }
    }

    /// Linux `tcp_incr_quickack` (3.2 to 6.x): quick-ack mode for rcv_wnd / (2 rcv_mss) ACKs,
    /// 2 if that is 0, at most [`MAX_QUICKACKS`], unless more are left; rcv_wnd is the window
    /// the receiver advertises and rcv_mss the MSS. `tcp_enter_quickack_mode` does the same
    /// for a bulk receiver (it also leaves pingpong mode, which a receiver that sends no data
    /// never enters). Nothing without [`QuickAck`].
    fn incr_quickack(&mut self) {
        self.incr_quickack_max(MAX_QUICKACKS);
    }

    /// `tcp_incr_quickack(sk, max)` (4.18+): the same, at most `max` ACKs
    /// (`__tcp_ecn_check_ce` asks for 2).
    fn incr_quickack_max(&mut self, max: u32) {
        if self.p.rules.quickack == QuickAck::Off {
            return;
        }
        let n = match self.window() / (2 * self.p.mss.max(1)) {
            0 => 2,
            n => n,
        };
        self.quick = self.quick.max(n.min(max));
    }

    /// ACKs the receiver will still send at once, one per data segment (quick-ack mode).
    pub fn quickacks_left(&self) -> u32 {
        self.quick
    }

    /// The advertised window: the whole buffer, as the application reads in-order data at once,
    /// or under Linux's rules ([`RcvWindow`]) `rcv_ssthresh` within the clamp
    /// (`__tcp_select_window`; both only grow, so the right edge never moves left).
    /// Out-of-order data lies inside the window already offered and does not shrink it (RFC 9293
    /// 3.8.6.2.2: the right edge never moves left; Linux tcp_select_window), so duplicate ACKs
    /// carry an unchanged window (RFC 5681 section 2's duplicate ACK).
    fn window(&self) -> u32 {
        let free = match self.p.rules.rcv_window {
            RcvWindow::Fixed => self.p.rcv_buf,
            _ => self.rwin.ssthresh.min(self.rwin.clamp),
        };
        self.wnd_override.map_or(free, |w| w.min(free))
    }

    /// The window the receiver advertises now [bytes].
    pub fn advertised_window(&self) -> u32 {
        self.window()
    }

    /// Linux `tcp_grow_window` for an in-order data segment of `len` bytes (at least 128,
    /// `tcp_event_data_recv`): below the clamp, `rcv_ssthresh` grows by max(2 MSS, 2 len) (a
    /// full segment's truesize fits, `tcp_win_from_space(truesize) <= len` or
    /// `__tcp_grow_window`'s halving) and the next ACK goes at once (`icsk_ack.quick |= 1`).
    fn grow_window(&mut self, len: u32) {
        let w = &mut self.rwin;
        if self.p.rules.rcv_window == RcvWindow::Fixed || len < 128 || w.ssthresh >= w.clamp {
            return;
        }
        let incr = (2 * self.p.mss).max(2 * len);
        w.ssthresh = w.ssthresh.saturating_add(incr).min(w.clamp);
        self.quick |= 1;
    }

    /// Linux `tcp_rcv_space_adjust` as the application reads in-order data at `now`: once a
    /// receiver RTT has passed since the measurement began, the bytes read in it (`copied`)
    /// raise the clamp (3.x: to 2 copied, when that needs more memory than the buffer has;
    /// 6.x: when more was read than last time, to 2 copied + 16 MSS plus twice its growth).
    fn rcv_space_adjust(&mut self, now: SimTime) {
        let rule = self.p.rules.rcv_window;
        if rule == RcvWindow::Fixed {
            return;
        }
        let (Some(t0), Some(rtt)) = (self.rwin.space_time, self.rcv_rtt) else { return };
        if now.since(t0) < rtt || rtt == Dur::ZERO {
            return;
        }
        let mss = u64::from(self.p.mss.max(1));
        let cap = u64::from(self.p.rcv_buf);
        let w = &mut self.rwin;
        let copied = self.rcv_nxt.saturating_sub(w.space_seq);
        match rule {
            RcvWindow::Fixed => {}
            RcvWindow::Linux32 | RcvWindow::Linux312 => {
                let space = w.space.max(2 * copied);
                if space != w.space {
                    w.space = space;
                    // sysctl_tcp_rmem[2]: 4 MiB in 3.2, 6 MiB from 3.4.
                    let rmem2 = if rule == RcvWindow::Linux32 { 4 << 20 } else { 6 << 20 };
                    let rcvbuf = ((space / mss).max(1) * w.rcvmem).min(rmem2);
                    if rcvbuf > w.rcvbuf {
                        w.rcvbuf = rcvbuf;
                        // "Make the window clamp follow along" (it may fall: the offered
                        // right edge does not, tcp_select_window).
                        w.clamp = space.min(cap) as u32;
                    }
                }
            }
            RcvWindow::Linux6 => {
                if copied > w.space {
                    let mut rcvwin = 2 * copied + 16 * mss;
                    let grow = rcvwin * (copied - w.space) / w.space.max(1);
                    rcvwin += 2 * grow;
                    // tcp_rmem[2] = 6 MiB at a ratio of 1/2; airtcp's buffer caps the window.
                    let rcvwin = rcvwin.min(3 << 20).min(cap) as u32;
                    w.clamp = w.clamp.max(rcvwin);
                    w.space = copied;
                }
            }
        }
        w.space_seq = self.rcv_nxt;
        w.space_time = Some(now);
    }

    fn ack(&mut self, flags: u8, dup: bool, now: SimTime, out: &mut Vec<Segment>) {
        let mut wnd = self.window();
        if self.p.rules.rcv_window != RcvWindow::Fixed && self.wnd_override.is_none() {
            // tcp_select_window: a window below what the last ACK offered keeps that edge.
            let offered = self.rwin.right_edge.saturating_sub(self.rcv_nxt);
            wnd = wnd.max(u32::try_from(offered).unwrap_or(u32::MAX));
            self.rwin.right_edge = self.rcv_nxt + u64::from(wnd);
        }
        // tcp_ecn_send: ECE on every segment while a CE waits for its CWR; the SYN-ACK of an
        // ECN-setup SYN carries ECE alone (tcp_ecn_make_synack, RFC 3168 6.1.1).
        let ece = if self.ecn_ok && (self.demand_cwr || flags & SYN != 0) { ECE } else { 0 };
        let mut seg = Segment {
            seq: 1,
            ack: self.rcv_nxt,
            len: 0,
            flags: flags | ACK | ece,
            wnd,
            // RFC 7323 3.2: the receiver's own clock, the simulated time like the sender's.
            ts_val: if self.p.timestamps { now.ns() + 1 } else { 0 },
            ts_ecr: self.ts_recent,
            retransmit: false,
            sack: [(0, 0); sack::MAX_BLOCKS],
            sack_n: 0,
            opts: 0,
            cno_seq: 0,
            ecn: NOT_ECT,
        };
        if self.p.recovery == Recovery::Sack && !self.ooo.is_empty() {
            // RFC 2018 section 4: the block holding the latest segment first, then the others
            // (here the highest first), as many as fit.
            let first = self.ooo.iter().copied().find(|r| r.0 <= self.last_block && self.last_block < r.1);
            let (mut n, fit) = (0, sack::blocks_that_fit(self.p.timestamps));
            for r in first.into_iter().chain(self.ooo.iter().rev().copied().filter(|r| Some(*r) != first)) {
                if n == fit {
                    break;
                }
                seg.sack[n] = r;
                n += 1;
            }
            seg.sack_n = n as u8;
        }
        out.push(seg);
        self.pending = 0;
        // tcp_event_ack_sent: the compressed ACKs go with this one, and
        // tcp_dec_quickack_mode(sk, 1): every ACK counts.
        self.comp_waiting = 0;
        self.quick = self.quick.saturating_sub(1);
        self.last_ack_sent = self.rcv_nxt;
        self.stats.acks_sent += 1;
        self.stats.dupacks_sent += u64::from(dup);
    }

    /// A segment from the sender. Returns the delayed-ACK timer command and the number of
    /// payload bytes it brought that had not arrived before (in order or not): the goodput
    /// counter, immune to when a hole happens to be filled.
    pub fn on_segment(&mut self, seg: &Segment, now: SimTime, out: &mut Vec<Segment>) -> (TimerCmd, u64) {
        if seg.flags & SYN != 0 {
            // Passive open (also answers a retransmitted SYN): SYN-ACK. An ECN-setup SYN (ECE
            // and CWR) is accepted, as Linux's default `tcp_ecn` = 2 does
            // (tcp_ecn_create_request); a SYN sent again without them withdraws it.
            self.syn_seen = true;
            self.ecn_ok = seg.flags & (ECE | CWR) == ECE | CWR;
            self.rcv_nxt = self.rcv_nxt.max(1);
            self.ts_recent = seg.ts_val;
            self.ack(SYN, false, now, out);
            if self.p.rules.rcv_window != RcvWindow::Fixed {
                // tcp_select_initial_window's rcv_wnd, before tcp_init_buffer_space's clamp.
                let syn_ack = out.last_mut().expect("ack() pushed the SYN-ACK");
                syn_ack.wnd = self.wnd_override.map_or(self.rwin.initial, |w| w.min(self.rwin.initial));
                self.rwin.right_edge = self.rcv_nxt + u64::from(syn_ack.wnd);
            }
            return (TimerCmd::Stop, 0);
        }
        if !self.syn_seen {
            return (TimerCmd::Keep, 0);
        }
        // RFC 7323 4.3: remember TSval of segments at or before the last ACK point.
        if seg.ts_val >= self.ts_recent && seg.seq <= self.last_ack_sent {
            self.ts_recent = seg.ts_val;
        }
        self.measure_rcv_rtt(seg, now);
        // tcp_ecn_accept_cwr (from tcp_ack in 6.x, before the data): the sender cut its
        // window, ECE stops; a CWR on data is acknowledged at once (ICSK_ACK_NOW).
        let cwr_now = self.ecn_ok && seg.flags & CWR != 0;
        if cwr_now {
            self.demand_cwr = false;
        }
        let end = seg.seq + u64::from(seg.len) + u64::from(seg.flags & FIN != 0);
        if seg.len == 0 && seg.flags & FIN == 0 {
            if seg.opts & OPT_CDO != 0 && self.on_corrupt(seg, now, out) {
                return (TimerCmd::Stop, 0); // LN-MAC's notification, answered with a CNO
            }
            // tcp_init_buffer_space at the handshake's end starts the first measurement.
            self.rwin.space_time.get_or_insert(now);
            return (TimerCmd::Keep, 0); // a pure ACK (the handshake's third segment)
        }
        if end <= self.rcv_nxt {
            // Entirely old: acknowledge at once (RFC 5681 4.2); Linux's tcp_data_queue enters
            // quick-ack mode first ("A retransmit ... Force an immediate ack").
            self.incr_quickack();
            self.ack(0, true, now, out);
            return (TimerCmd::Stop, 0);
        }
        if seg.flags & FIN != 0 {
            self.fin_seq = Some(seg.seq + u64::from(seg.len));
        }
        let fresh = self.fresh_bytes(seg.seq, seg.seq + u64::from(seg.len));
        if seg.seq > self.rcv_nxt {
            // Out of order: hold it, send a duplicate ACK at once (RFC 5681 4.2).
            self.insert_ooo(seg.seq, end);
            self.last_block = seg.seq;
            self.stats.out_of_order += 1;
            self.ecn_check_ce(seg); // tcp_data_queue_ofo
            if self.p.rules.quickack == QuickAck::FirstDataAndOutOfOrder {
                self.incr_quickack(); // Linux 3.x tcp_data_queue: tcp_enter_quickack_mode
            }
            if let Some(cmd) = self.compress_sack(now) {
                return (cmd, fresh);
            }
            self.ack(0, true, now, out);
            return (TimerCmd::Stop, fresh);
        }
        let filled_hole = !self.ooo.is_empty();
        self.rcv_nxt = end;
        while let Some(&(a, b)) = self.ooo.first() {
            if a > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(b);
            self.ooo.remove(0);
        }
        let fin_in_order = self.fin_received();
        self.pending += 1;
        if seg.len > 0 {
            self.ecn_check_ce(seg); // tcp_event_data_recv
        }
        if seg.len > 0 && !self.data_seen {
            // tcp_event_data_recv: "The _first_ data packet received, initialize delayed ACK
            // engine" with tcp_incr_quickack.
            self.data_seen = true;
            self.incr_quickack();
        }
        if seg.len > 0 {
            // tcp_event_data_recv's tcp_grow_window; the application reads at once
            // (tcp_recvmsg's tcp_rcv_space_adjust).
            self.rwin.space_time.get_or_insert(now);
            self.grow_window(seg.len);
            self.rcv_space_adjust(now);
        }
        // RFC 5681 4.2: ACK at once when a hole is filled, at the FIN, or every ack_every
        // segments; otherwise wait for the delayed-ACK timer. In quick-ack mode, at once
        // (__tcp_ack_snd_check: tcp_in_quickack_mode).
        let ack_now = cwr_now && seg.len > 0;
        if filled_hole || fin_in_order || self.pending >= self.p.ack_every.max(1) || self.quick > 0 || ack_now
        {
            self.ack(0, false, now, out);
            return (TimerCmd::Stop, fresh);
        }
        if self.p.delack_timeout == Dur::ZERO || self.pending > 1 {
            return (TimerCmd::Keep, fresh); // the timer runs from the first unacked segment
        }
        (TimerCmd::Arm(now + self.p.delack_timeout), fresh)
    }

    /// Linux `tcp_rcv_rtt_measure_ts`: a full-sized data segment whose TSecr is new echoes the
    /// TSval of one of our ACKs, so now - TSecr is a round trip; `tcp_rcv_rtt_update` smooths
    /// it with gain 1/8 (timestamps: not window-dependent).
    fn measure_rcv_rtt(&mut self, seg: &Segment, now: SimTime) {
        if seg.ts_ecr == 0 || seg.ts_ecr == self.rcv_rtt_last_tsecr {
            return;
        }
        self.rcv_rtt_last_tsecr = seg.ts_ecr;
        if seg.len < self.p.mss || now.ns() + 1 < seg.ts_ecr {
            return;
        }
        let sample = now.since(SimTime(seg.ts_ecr - 1));
        self.rcv_rtt_min = Some(self.rcv_rtt_min.map_or(sample, |m| m.min(sample)));
        self.rcv_rtt = Some(match self.rcv_rtt {
            None => sample,
            Some(old) => Dur(((old.ns() * 7) + sample.ns()) / 8),
        });
    }

    /// A segment whose payload arrived corrupt while its CDO checked (paper 004 II-A), or
    /// LN-MAC's empty notification with the CDO naming a segment that vanished (II-B): unless
    /// the segment at `seg.seq` has arrived already, an ACK with a CNO naming it goes out at
    /// once, echoing its TSval (the draft's RTT sample). Every corrupt copy gets its own CNO
    /// (the paper's observation with MAC retries). Returns whether a CNO went out; without
    /// the options (or before the handshake) nothing happens: the segment is dropped.
    pub fn on_corrupt(&mut self, seg: &Segment, now: SimTime, out: &mut Vec<Segment>) -> bool {
        if self.p.corruption == Corruption::Off || !self.syn_seen || seg.flags & SYN != 0 {
            return false;
        }
        let held = seg.seq < self.rcv_nxt || self.ooo.iter().any(|&(a, b)| a <= seg.seq && seg.seq < b);
        // One CNO per segment per RTT: a copy of the segment just named, within the RTT the
        // receiver estimates (without an estimate, every copy), is ignored.
        let repeated = self.p.cno_once_per_rtt
            && matches!((self.last_cno, self.rcv_rtt), (Some((q, at)), Some(rtt)) if q == seg.seq && now < at + rtt);
        if held || repeated {
            self.stats.corrupt_ignored += 1;
            return false;
        }
        self.last_cno = Some((seg.seq, now));
        self.ack(0, false, now, out);
        let cno = out.last_mut().expect("ack() pushed the ACK");
        cno.opts |= OPT_CNO;
        cno.cno_seq = seg.seq;
        if self.p.timestamps {
            cno.ts_ecr = seg.ts_val;
        }
        self.stats.cno_sent += 1;
        true
    }

    /// Payload bytes of [seq, end) that are neither below `rcv_nxt` nor held out of order.
    fn fresh_bytes(&self, seq: u64, end: u64) -> u64 {
        let start = seq.max(self.rcv_nxt);
        if end <= start {
            return 0;
        }
        let held: u64 = self.ooo.iter().map(|&(a, b)| end.min(b).saturating_sub(start.max(a))).sum();
        end - start - held
    }

    /// The FIN and every byte before it have arrived.
    pub fn fin_received(&self) -> bool {
        self.fin_seq.is_some_and(|f| self.rcv_nxt > f)
    }

    /// Linux 4.19+ `__tcp_ack_snd_check` for out-of-order data with SACK: None sends the
    /// duplicate ACK at once (no compression, the first `COMP_SACK_DUPACKS` at one cumulative
    /// ACK, or `COMP_SACK_NR` waiting already); else it waits, on the timer armed by the first
    /// to wait (min(`COMP_SACK_DELAY`, RTT / 20) with the receiver's RTT estimate, 0 without
    /// one), which then sends one ACK for all (`tcp_compressed_ack_kick`).
    fn compress_sack(&mut self, now: SimTime) -> Option<TimerCmd> {
        // In quick-ack mode __tcp_ack_snd_check sends at once, before any compression.
        if !self.p.rules.sack_compress
            || self.p.recovery != Recovery::Sack
            || self.quick > 0
            || self.comp_waiting >= COMP_SACK_NR
        {
            return None;
        }
        if self.comp_rcv_nxt != self.rcv_nxt {
            self.comp_rcv_nxt = self.rcv_nxt;
            self.comp_dupacks = 0;
        }
        if self.comp_dupacks < COMP_SACK_DUPACKS {
            self.comp_dupacks += 1;
            return None;
        }
        self.comp_waiting += 1;
        if self.comp_waiting > 1 {
            return Some(TimerCmd::Keep); // hrtimer_is_queued: the first one's timer runs
        }
        let rtt = self.rcv_rtt.unwrap_or(Dur::ZERO);
        Some(TimerCmd::Arm(now + COMP_SACK_DELAY.min(Dur(rtt.ns() / 20))))
    }

    /// The delayed-ACK timer (or the compressed-SACK timer, which shares it) expired at `now`.
    pub fn on_delack(&mut self, now: SimTime, out: &mut Vec<Segment>) {
        if self.pending > 0 || self.comp_waiting > 0 {
            let dup = self.pending == 0;
            self.ack(0, dup, now, out);
        }
    }

    fn insert_ooo(&mut self, a: u64, b: u64) {
        let i = self.ooo.partition_point(|r| r.0 < a);
        self.ooo.insert(i, (a, b));
        // Merge ranges that now touch or overlap, in place.
        let mut w = 0;
        for r in 0..self.ooo.len() {
            let (s, e) = self.ooo[r];
            if w > 0 && s <= self.ooo[w - 1].1 {
                self.ooo[w - 1].1 = self.ooo[w - 1].1.max(e);
            } else {
                self.ooo[w] = (s, e);
                w += 1;
            }
        }
        self.ooo.truncate(w);
    }
}

#[cfg(test)]
mod clock_tests {
    use super::*;
    use crate::tcp::rto::RtoConfig;

    fn params(timestamps: bool) -> TcpParams {
        TcpParams {
            mss: 1000,
            recovery: Recovery::Sack,
            rto: RtoConfig::default(),
            timestamps,
            limited_transmit: true,
            initial_cwnd: 10,
            ack_every: 2,
            delack_timeout: Dur::from_ms(40),
            rcv_buf: 1 << 20,
            snd_buf: 1 << 20,
            small_queues: false,
            tsq_limit_bytes: TSQ_LIMIT_OUTPUT_BYTES,
            tsq_rule: TsqRule::Linux319,
            pacing_shift: 10,
            per_ack_growth: false,
            corruption: Corruption::Off,
            cno_once_per_rtt: false,
            rules: Rules::default(),
            ecn: false,
        }
    }

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn the_receiver_stamps_its_own_clock_and_the_sender_echoes_it() {
        // RFC 7323 3.2: each end's TSval is its clock (here simulated ns + 1), and TSecr
        // echoes the peer's latest TSval (4.3).
        let (mut snd, mut rcv) = (
            Sender::new(params(true), Algorithm::from_name("reno").unwrap(), None),
            Receiver::new(params(true)),
        );
        let mut out = Vec::new();
        snd.start(at_ms(1), &mut out);
        let syn = out.pop().unwrap();
        assert_eq!((syn.ts_val, syn.ts_ecr), (1_000_001, 0));
        rcv.on_segment(&syn, at_ms(3), &mut out);
        let syn_ack = out.pop().unwrap();
        assert_eq!((syn_ack.ts_val, syn_ack.ts_ecr), (3_000_001, 1_000_001));
        snd.on_ack(&syn_ack, at_ms(5), &mut out);
        // The handshake's ACK and the initial window, all echoing the SYN-ACK's TSval.
        assert_eq!(out.len(), 11);
        assert!(out.iter().all(|s| s.ts_val == 5_000_001 && s.ts_ecr == 3_000_001));
        let first = out[1];
        out.clear();
        // One segment (ack_every 2): the delayed-ACK timer sends the ACK at 47 ms.
        assert_eq!(rcv.on_segment(&first, at_ms(7), &mut out).0, TimerCmd::Arm(at_ms(47)));
        rcv.on_delack(at_ms(47), &mut out);
        let ack = out.pop().unwrap();
        assert_eq!((ack.ts_val, ack.ts_ecr), (47_000_001, 5_000_001));
        snd.on_ack(&ack, at_ms(49), &mut out);
        assert!(!out.is_empty() && out.iter().all(|s| s.ts_ecr == 47_000_001));
        // Without timestamps neither end stamps anything.
        let mut plain = Receiver::new(params(false));
        plain.on_segment(&Segment { flags: SYN, ..Default::default() }, at_ms(3), &mut out);
        assert_eq!(out.pop().map(|s| (s.ts_val, s.ts_ecr)), Some((0, 0)));
    }

    #[test]
    fn syn_options_are_as_long_as_linux_makes_them() {
        // tcp_options_write: MSS 4 + (SACK_PERM|TS or NOP NOP TS) 12 + NOP WS 4 = 20;
        // without TS: MSS 4 + NOP NOP SACK_PERM 4 + NOP WS 4 = 12, or 8 without SACK.
        let syn = Segment { flags: SYN, ..Default::default() };
        assert_eq!(syn.ip_bytes(true, true), 40 + 20);
        assert_eq!(syn.ip_bytes(true, false), 40 + 20);
        assert_eq!(syn.ip_bytes(false, true), 40 + 12);
        assert_eq!(syn.ip_bytes(false, false), 40 + 8);
        let syn_ack = Segment { flags: SYN | ACK, ..syn };
        assert_eq!(syn_ack.ip_bytes(false, true), 40 + 12);
        // Other segments are unchanged: 12 bytes of timestamps, or none.
        let data = Segment { flags: ACK, len: 1000, ..Default::default() };
        assert_eq!((data.ip_bytes(true, true), data.ip_bytes(false, true)), (1052, 1040));
    }
}
