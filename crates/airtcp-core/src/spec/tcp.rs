//! A TCP flow's parameters (`flows.i.tcp`) and the checks of a tcp_bulk or tcp_file flow.

use serde::Deserialize;

use super::flows::{FlowKind, FlowSpec, MAX_FILE_BYTES};
use super::{err, num, quoted, SpecError};
use crate::mac::frame::MAX_MSDU_BYTES;
use crate::tcp::cc::{Cc, CwndLimited};
use crate::tcp::conn::{
    AckCounting, Corruption, CwndCredit, LocalCongestion, LostRetransmit, NewRenoRule, Prr, QuickAck,
    RcvWindow, Recovery, RtoRearm, RtoRecovery, TimerRounding, TlpRule, TsqRule,
};
use crate::tcp::rto::{RtoRule, RttClock};

/// TCP parameters of one flow. Defaults follow Linux unless said otherwise.
#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TcpSpec {
    /// A kernel's rules as one name: "rfc" (no bundle: every field at its default), "linux-3.2",
    /// "linux-3.12" or "linux-6". A profile fills each field of its bundle the table leaves out
    /// (docs/scenarios.md lists them with the kernel source each follows); a field written
    /// here overrides it and shows in the summary's `tcp.effective`.
    #[serde(default)]
    pub profile: super::profiles::TcpProfile,
    /// Congestion control, by its Linux name ("reno", "newreno", "cubic", ...).
    pub cc: Cc,
    /// Loss recovery: "tahoe", "reno", "newreno" or "sack" (RFC 2018 option, RFC 6675 recovery).
    pub recovery: Recovery,
    /// Maximum segment size: payload bytes per segment.
    #[schemars(range(min = 1, max = MAX_MSS_BYTES))]
    pub mss_bytes: u32,
    /// Lower bound of the retransmission timeout (Linux `TCP_RTO_MIN` 200 ms; RFC 6298 says 1 s).
    #[schemars(range(min = 0))]
    pub min_rto_ms: f64,
    /// Upper bound of the retransmission timeout, >= `min_rto_ms` and at least 1 ns once
    /// rounded to whole ns (Linux 120 s).
    pub max_rto_ms: f64,
    /// The retransmission timeout before the first RTT sample, at least 1 ns once rounded to
    /// whole ns (RFC 6298: 1 s).
    pub initial_rto_ms: f64,
    /// Clock granularity G of the RTO (RFC 6298 (2.2)) [ms]; 0 = the nanosecond clock.
    #[schemars(range(min = 0))]
    pub clock_granularity_ms: f64,
    /// RFC 7323 timestamps (12 option bytes per segment; RTT samples on every ACK).
    pub timestamps: bool,
    /// RFC 3042 limited transmit.
    pub limited_transmit: bool,
    /// Initial congestion window [segments] (RFC 6928, Linux: 10).
    #[schemars(range(min = 1, max = MAX_INITIAL_CWND))]
    pub initial_cwnd: u32,
    /// Initial slow-start threshold [segments], as a route's `ssthresh` metric sets it when the
    /// connection opens (Linux `tcp_init_metrics`, `ip route ... ssthresh N`; ns-3's
    /// `TcpSocket::InitialSlowStartThreshold`); unset: infinite (`TCP_INFINITE_SSTHRESH`), so
    /// slow start lasts until the first loss (RFC 5681 (3.1): "arbitrarily high").
    #[serde(default)]
    #[schemars(range(min = 2, max = MAX_INITIAL_CWND))]
    pub initial_ssthresh_segments: Option<u32>,
    /// The receiver acknowledges every `ack_every` segments (1 = every segment, 2 = delayed
    /// ACK, k + 1 = ACK skipping k).
    #[schemars(range(min = 1))]
    pub ack_every: u32,
    /// Delayed-ACK timer [ms] (Linux TCP_DELACK_MIN 40 ms); 0 = no timer.
    #[schemars(range(min = 0))]
    pub delack_timeout_ms: f64,
    /// Receive buffer = largest advertised window [bytes], >= `mss_bytes` (Linux tcp_rmem[2] =
    /// 6 MiB).
    #[schemars(range(min = 1))]
    pub rcv_buf_bytes: u32,
    /// Send buffer: the most unacknowledged data the sender holds [bytes], >= `mss_bytes`
    /// (Linux tcp_wmem[2] = 4 MiB).
    #[schemars(range(min = 1))]
    pub snd_buf_bytes: u32,
    /// CUBIC's HyStart (Linux module parameter `hystart`, default on); ignored by the others.
    pub hystart: bool,
    /// Paper 004's corruption options (CDO in data, CNO from the receiver): "off",
    /// "aggressive" (a CNO leaves cwnd alone) or "conservative" (a CNO cuts it as a loss).
    pub corruption: Corruption,
    /// With `corruption`: a segment's CNO is not repeated within the receiver's RTT estimate
    /// (the corrupt copies MAC retries deliver meanwhile are ignored); false: every corrupt
    /// copy gets its CNO.
    pub cno_once_per_rtt: bool,
    /// Linux's TCP Small Queues (3.6+, `tcp_write_xmit`): new data goes down only while the
    /// sender's node holds at most about two of the connection's packets below TCP.
    pub small_queues: bool,
    /// TCP Small Queues' cap on the bytes of the connection below TCP [bytes]
    /// (`net.ipv4.tcp_limit_output_bytes`; Linux 3.6-4.1: 128 KiB, 4.2: 256 KiB, 5.0: 1 MiB):
    /// the limit is two packets or a millisecond at twice cwnd / SRTT, whichever is more, but
    /// never above this; with `small_queues` only.
    #[schemars(range(min = 0, max = MAX_LIMIT_OUTPUT_BYTES))]
    pub limit_output_bytes: u32,
    /// How TCP Small Queues uses `limit_output_bytes`: "linux-3.19" (a cap on max(2 packets,
    /// 1 ms at twice cwnd / SRTT): 3.19+ `tcp_small_queue_check`), "linux-3.12" (a floor under
    /// 1 ms at the pacing rate: 3.12-3.18 `tcp_write_xmit`, so a slow flow keeps up to 128 KiB
    /// below TCP) or "linux-3.6" (the limit alone: 3.6-3.11); with `small_queues` only.
    #[serde(default)]
    pub tsq_rule: TsqRule,
    /// `sk_pacing_shift` of a sender whose first hop is 802.11: the pacing rate >> this is
    /// "about 1 ms" of data, TSQ's limit under "linux-3.19" and BBR's TSO goal. 10 (1/1024 s)
    /// is TCP's own; mac80211 sets 8 from Linux 4.16 and 7 (~8 ms) from 4.20 on its local TCP
    /// sockets (`tx_sk_pacing_shift`, `sk_pacing_shift_update`) so that aggregates fill. A
    /// wired first hop keeps 10.
    #[schemars(range(min = 1, max = MAX_PACING_SHIFT))]
    pub wifi_pacing_shift: u8,
    /// How the window grows on an ACK: "segments" (by the segments it acknowledges, Linux
    /// 4.1+) or "acks" (one step per ACK, stretch ACKs included: Linux up to 3.17).
    pub ack_counting: AckCounting,
    /// The RTO estimator: "rfc6298" (RTO = max(min, SRTT + 4 RTTVAR)) or "linux" (RTO = SRTT
    /// + max(min, Linux's held variance), `tcp_rtt_estimator`).
    pub rto_estimator: RtoRule,
    /// When an ACK may grow cwnd: "always" (every ACK, whether or not the sender fills cwnd),
    /// "linux-3" (only if the flight before the ACK was within 3 segments of cwnd: Linux 3.2
    /// and 3.12 `tcp_is_cwnd_limited(sk, in_flight)`) or "linux-4" (in slow start while cwnd <
    /// twice the largest flight of the last window, then only if that window's flight reached
    /// cwnd: Linux 3.16-5.x `tcp_is_cwnd_limited(sk)` with `tcp_cwnd_validate`). Every
    /// congestion control asks where its Linux `cong_avoid` does (vegas only in its fallback
    /// to Reno); the agent's is not grown anyway.
    #[serde(default)]
    pub cwnd_limited: CwndLimited,
    /// A segment refused by the sender's own interface (its qdisc full, or the MAC's queue
    /// where there is no qdisc): "loss" (lost there, repaired by SACK or the RTO, as before) or
    /// "cwr" (Linux `tcp_transmit_skb` on NET_XMIT_DROP: the segment stays unsent, the sender
    /// enters CWR, `tcp_enter_cwr`, and sends it again on its next ACK). mac80211's
    /// intermediate queues never refuse (they drop from their longest flow), so under a TXQ
    /// it has no effect.
    #[serde(default)]
    pub local_congestion: LocalCongestion,
    /// What a retransmission timeout does: "rfc" (RFC 5681 (4) and RFC 6675 5.1: ssthresh cut
    /// on every RTO, the SACK scoreboard dropped, go back to the first unacknowledged segment)
    /// or "linux" (`tcp_enter_loss`, `tcp_process_loss`: with SACK the scoreboard is kept and
    /// every unSACKed segment is resent in order on each ACK as cwnd allows, SACKed ones
    /// skipped; ssthresh cut only if not already cut in this window: no second cut for an RTO
    /// during Recovery or CWR, nor for the second of several RTOs in a row; and with SACK a
    /// new fast recovery may start at an ACK equal to the last one's recovery point, where
    /// RFC 6582's guard waits for one past it: Linux holds that guard for Reno alone, "SACK TCP
    /// is safe", `tcp_try_undo_recovery`).
    #[serde(default)]
    pub rto_recovery: RtoRecovery,
    /// What an ACK credits to slow start and congestion avoidance: "acked" (every segment the
    /// cumulative ACK covers, SACKed before or not, so the ACK that ends SACK recovery credits
    /// the whole window) or "delivered" (only the segments this ACK newly delivered,
    /// cumulatively or by SACK, on an ACK that moves the cumulative ACK: Linux 4.9+
    /// `tcp_cong_control` with `tcp_may_raise_cwnd`).
    #[serde(default)]
    pub cwnd_credit: CwndCredit,
    /// Proportional Rate Reduction (RFC 6937): "off" (cwnd = ssthresh at once in SACK
    /// recovery, RFC 6675; rate halving in CWR, Linux 3.2 `tcp_cwnd_down`), "recovery" (in SACK
    /// recovery: Linux 3.2-3.9) or "recovery-and-cwr" (in CWR too: Linux 3.10+
    /// `tcp_cwnd_reduction`). cwnd follows what each ACK delivers, in proportion while the
    /// flight is above ssthresh, then at most back up to it. Reno and NewReno recovery without
    /// SACK keep RFC 6582's window inflation.
    #[serde(default)]
    pub prr: Prr,
    /// RACK loss detection (RFC 8985; Linux 4.4+ `tcp_rack_mark_lost`), with SACK only: a
    /// segment is lost once a segment sent after it is delivered and the RTT of that delivery
    /// plus a reordering window (min RTT / 4 before DupThresh segments are SACKed, none in
    /// recovery) has passed since it was sent; recovery starts on the first such loss (no
    /// duplicate-ACK count), and a lost retransmission is found and resent the same way.
    #[serde(default)]
    pub rack: bool,
    /// Tail Loss Probe (RFC 8985 section 7; Linux 3.10+ `tcp_schedule_loss_probe`), with SACK
    /// only: in Open or CWR with data out, the retransmission timer first fires as a probe
    /// timer 2 SRTT ahead (+ 200 ms for the delayed ACK when one segment is out), sending one
    /// new segment or the last one again, so a tail loss is repaired by SACK recovery, not
    /// the RTO; a retransmitted probe that repaired a loss cuts the window as CWR does.
    #[serde(default)]
    pub tlp: bool,
    /// When `tlp` schedules the probe and how far ahead: "rfc8985" (RFC 8985 7.2, Linux 4.14+:
    /// in Open or CWR, 2 SRTT + 2 jiffies, or + 200 ms with one segment out) or "linux-3.10"
    /// (Linux 3.10-4.13: in Open only, not while cwnd has room and data waits unsent, none
    /// before an RTT sample; max(2 SRTT, 10 ms), or with one segment out at least 1.5 SRTT +
    /// 200 ms).
    #[serde(default)]
    pub tlp_rule: TlpRule,
    /// What restarts the retransmission timer besides its own expiry: "ack" (an ACK of new
    /// data, RFC 6298 (5.3)) or "head-retransmit" (that, and resending the first
    /// unacknowledged segment in recovery: Linux `tcp_xmit_retransmit_queue`, every version).
    #[serde(default)]
    pub rto_rearm: RtoRearm,
    /// NewReno's recovery as "rfc6582" (a partial ACK deflates by what it acknowledges and
    /// adds a segment back; the end sets cwnd = min(ssthresh, FlightSize + 1)) or
    /// "ns-2.1b9a" (paper 001's simulator at its defaults: a partial ACK takes the whole
    /// inflation back, at most two new segments per ACK in recovery, the end sets cwnd =
    /// ssthresh); needs `recovery = "newreno"` unless "rfc6582".
    #[serde(default)]
    pub newreno_rule: NewRenoRule,
    /// Which retransmissions SACK recovery (without RACK) watches for a second loss: "head"
    /// (the head's alone, while it stays the head: a retransmission lost again elsewhere waits
    /// for the RTO) or "every" (each one of the recovery, lost once a segment sent after it is
    /// SACKed while it is not, and sent again: Linux 2.6.25-4.3 `tcp_mark_lost_retrans`).
    #[serde(default)]
    pub lost_retransmit: LostRetransmit,
    /// The receiver's quick-ack mode (Linux `icsk_ack.quick`): "off" (an ACK every `ack_every`
    /// segments or at the delayed-ACK timer), "first-data" (Linux 4.18+: from the first data
    /// segment, `tcp_incr_quickack`, and after data received twice, `tcp_enter_quickack_mode`,
    /// the next min(window / (2 MSS), 16) data segments are each ACKed at once) or
    /// "first-data-and-out-of-order" (Linux up to 4.17, 3.2 and 3.12: out-of-order segments
    /// enter it too, so the segments after a repaired hole are ACKed one by one again).
    #[serde(default)]
    pub quickack: QuickAck,
    /// The window the receiver advertises: "fixed" (the whole `rcv_buf_bytes` from the
    /// SYN-ACK on), or a kernel's receive window: "linux-3.2" and "linux-3.12" (10 or 20
    /// segments at first, grown by 2 MSS per in-order segment with an immediate ACK each time,
    /// `tcp_grow_window`, up to a clamp of 64 KB (3.2) or 180 KB (3.12) that the receiver
    /// raises to twice the bytes read per RTT, `tcp_rcv_space_adjust`) or "linux-6" (64 KiB at
    /// first, the clamp raised to 2 copied + 16 MSS plus twice its growth per RTT); never above
    /// `rcv_buf_bytes`. The clamp follows the receiver's RTT, which it measures from
    /// timestamps: without them it stays at its first value.
    #[serde(default)]
    pub rcv_window: RcvWindow,
    /// The receiver's compressed SACK (Linux 4.19+ `__tcp_ack_snd_check`, with SACK): while
    /// out-of-order data is held, the first three duplicate ACKs at one cumulative ACK go at
    /// once, later ones wait min(1 ms, RTT / 20) (`tcp_comp_sack_delay_ns`, the receiver's
    /// RTT estimate) and go as one, with the latest SACK blocks; after 44 waiting
    /// (`tcp_comp_sack_nr`) one goes at once.
    #[serde(default)]
    pub sack_compress: bool,
    /// Early retransmit (RFC 5827, with Linux 3.6-4.10's delay): with SACK and without RACK,
    /// when fewer than four segments are out, at least one is SACKed and no new segment may go,
    /// recovery starts a quarter SRTT (at least 2 ms) after the duplicate ACK instead of
    /// waiting for a DupThresh that cannot come (`tcp_pause_early_retransmit`).
    #[serde(default)]
    pub early_retransmit: bool,
    /// F-RTO (RFC 5682 3.1, SACK-enhanced; Linux 3.10+ `tcp_process_loss`, `tcp_frto` = 2),
    /// with `rto_recovery = "linux"` and SACK: after an RTO, an ACK of data never resent and
    /// sent before the RTO shows the timeout was spurious and undoes its cut (cwnd and
    /// ssthresh back); the first ACK of the retransmission sends new data, not more
    /// retransmissions.
    #[serde(default)]
    pub frto: bool,
    /// Linux 3.x's jiffy clock for the sender's RTT samples and RTO [Hz] (the kernel's
    /// CONFIG_HZ, a build option: 100, 250, 300 or 1000; paper 000's Raspberry Pis ran 3.12
    /// at 100): each RTT sample is the jiffies when the ACK arrives less the jiffies when the
    /// segment was sent (`tcp_time_stamp` = jiffies), so an RTT under one tick reads 0 or 1
    /// tick and `tcp_rtt_estimator` takes 0 as 1; the RTO is computed in whole ticks (RFC
    /// 6298's rounded up, with G at least one tick) and its timer fires on a tick. Later
    /// kernels (3.15+) measure RTT in microseconds: `rtt_clock = "us"` keeps the samples
    /// exact and puts only the RTO and the timers on the ticks. Unset: the
    /// nanosecond clock. The summary's RTT statistics and the congestion control's delay
    /// samples stay at the nanosecond clock.
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_CLOCK_HZ))]
    pub clock_hz: Option<u32>,
    /// With `clock_hz`: what RTT samples count in, "jiffies" (Linux up to 3.14, as above) or
    /// "us" (3.15+, `srtt_us`: samples and the estimator at the nanosecond clock, the RTO
    /// rounded up to jiffies, `usecs_to_jiffies`, and every timer on a tick); ignored without
    /// `clock_hz`.
    #[serde(default)]
    pub rtt_clock: RttClock,
    /// How the tail loss probe's and RACK's reordering timeouts become jiffies: "linux-4.14"
    /// (the time rounded up to a tick plus TCP_TIMEOUT_MIN, 2 jiffies; the probe's allowance
    /// for a delayed ACK with one segment out 200 ms) or "linux-6.6" (2 ms added, then rounded
    /// up; that allowance the minimum RTO, `tcp_rto_min_us`). They differ only with
    /// `clock_hz` or, for that allowance, a `min_rto_ms` other than 200.
    #[serde(default)]
    pub timer_rounding: TimerRounding,
    /// RFC 3168 ECN: the sender asks for it in its SYN (Linux `net.ipv4.tcp_ecn` = 1) and the
    /// receiver accepts, as Linux does by default (`tcp_ecn` = 2). Then new data segments
    /// are ECN-capable (ECT(0)), a queue with ECN on (`wifi.qdisc.ecn`, `wifi.txq.ecn`) marks
    /// them CE instead of dropping them, the receiver echoes ECE until the sender's CWR, and
    /// the sender cuts its window once per window as for a loss (`tcp_enter_cwr`, the
    /// congestion control's ssthresh), without retransmitting.
    #[serde(default)]
    pub ecn: bool,
}

impl Default for TcpSpec {
    fn default() -> Self {
        TcpSpec {
            profile: super::profiles::TcpProfile::Rfc,
            cc: Cc::NewReno,
            recovery: Recovery::NewReno,
            mss_bytes: 1460,
            min_rto_ms: 200.0,
            max_rto_ms: 120_000.0,
            initial_rto_ms: 1000.0,
            clock_granularity_ms: 0.0,
            timestamps: true,
            limited_transmit: true,
            initial_cwnd: 10,
            initial_ssthresh_segments: None,
            ack_every: 2,
            delack_timeout_ms: 40.0,
            rcv_buf_bytes: 6 * 1024 * 1024,
            snd_buf_bytes: 4 * 1024 * 1024,
            hystart: true,
            corruption: Corruption::Off,
            cno_once_per_rtt: false,
            small_queues: false,
            limit_output_bytes: 131_072,
            tsq_rule: TsqRule::Linux319,
            wifi_pacing_shift: 10,
            ack_counting: AckCounting::Segments,
            rto_estimator: RtoRule::Rfc6298,
            cwnd_limited: CwndLimited::Always,
            local_congestion: LocalCongestion::Loss,
            rto_recovery: RtoRecovery::Rfc,
            cwnd_credit: CwndCredit::Acked,
            prr: Prr::Off,
            rack: false,
            tlp: false,
            tlp_rule: TlpRule::Rfc8985,
            rto_rearm: RtoRearm::Ack,
            newreno_rule: NewRenoRule::Rfc6582,
            lost_retransmit: LostRetransmit::Head,
            quickack: QuickAck::Off,
            rcv_window: RcvWindow::Fixed,
            sack_compress: false,
            early_retransmit: false,
            frto: false,
            clock_hz: None,
            rtt_clock: RttClock::Jiffies,
            timer_rounding: TimerRounding::Linux414,
            ecn: false,
        }
    }
}

/// Largest initial congestion window [segments]: the congestion controls compute in 32 bits
/// as Linux does (cwnd times a 10-bit factor), far from any real initial window (10).
pub const MAX_INITIAL_CWND: u32 = 1_000_000;

/// Largest `wifi_pacing_shift` (a shift of one second in bytes: 2^-16 s at most).
pub const MAX_PACING_SHIFT: u8 = 16;
/// Largest `limit_output_bytes` [bytes]: Linux's sysctl is an int.
pub const MAX_LIMIT_OUTPUT_BYTES: u32 = i32::MAX as u32;

/// Fastest jiffy clock [Hz] (Linux's CONFIG_HZ choices reach 1000; 10 kHz leaves room).
pub const MAX_CLOCK_HZ: u32 = 10_000;

/// Largest TCP segment [bytes]: the segment plus 52 bytes of TCP/IP headers and options (20
/// IPv4, 20 TCP, 12 timestamps) must fit one MSDU with its 8 bytes of LLC/SNAP.
pub const MAX_MSS_BYTES: u32 = MAX_MSDU_BYTES - 8 - 52;

/// Check the TCP side of flow `i`: its file size and its `tcp` parameters.
pub(super) fn validate_tcp(i: usize, f: &FlowSpec) -> Result<(), SpecError> {
    let path = |field: &str| format!("flows.{i}.{field}");
    match (f.kind, f.file_bytes) {
        (FlowKind::TcpFile, Some(b)) if (1..=MAX_FILE_BYTES).contains(&b) => {}
        (FlowKind::TcpFile, b) => {
            return err(
                &path("file_bytes"),
                format!(
                    "{} is out of range; allowed: 1..={MAX_FILE_BYTES} bytes (tcp_file needs one)",
                    b.map_or("nothing".into(), |b| b.to_string())
                ),
            )
        }
        (_, Some(_)) => return err(&path("file_bytes"), "only tcp_file flows take file_bytes"),
        _ => {}
    }
    let Some(t) = &f.tcp else { return Ok(()) };
    // The names (cc, recovery, corruption, ack_counting, rto_estimator) were checked as they
    // were read: each is its model's enum (`crate::names`).
    if t.mss_bytes == 0 || t.mss_bytes > MAX_MSS_BYTES {
        return err(
            &path("tcp.mss_bytes"),
            format!("{} is out of range; allowed: 1..={MAX_MSS_BYTES}", t.mss_bytes),
        );
    }
    for (name, v) in [
        ("min_rto_ms", t.min_rto_ms),
        ("delack_timeout_ms", t.delack_timeout_ms),
        ("clock_granularity_ms", t.clock_granularity_ms),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return err(
                &path(&format!("tcp.{name}")),
                format!("{} is out of range; allowed: a finite number >= 0 ms", num(v)),
            );
        }
    }
    for (name, v) in [("max_rto_ms", t.max_rto_ms), ("initial_rto_ms", t.initial_rto_ms)] {
        // Timers tick in whole ns: an RTO that rounds to 0 ns would fire at once, forever.
        if !(v.is_finite() && (v * 1e6).round() >= 1.0) {
            return err(
                &path(&format!("tcp.{name}")),
                format!("{} is out of range; allowed: >= 0.000001 ms (1 ns)", num(v)),
            );
        }
    }
    if t.newreno_rule != NewRenoRule::Rfc6582 && t.recovery != Recovery::NewReno {
        return err(
            &path("tcp.newreno_rule"),
            format!(
                "{} needs tcp.recovery \"newreno\" (got {}); allowed: \"rfc6582\" with any recovery",
                quoted(t.newreno_rule.name()),
                quoted(t.recovery.name())
            ),
        );
    }
    if t.cc == Cc::Bbr && (t.recovery != Recovery::Sack || !t.rack) {
        // BBR's cwnd takes the segments each ACK marks lost (rs->losses), which Linux 4.18+
        // finds with RACK only, and its sampler reads SACKed segments (tcp_rate.c).
        let (field, got) = if t.recovery != Recovery::Sack {
            ("tcp.recovery", quoted(t.recovery.name()))
        } else {
            ("tcp.rack", "false".to_string())
        };
        return err(
            &path(field),
            format!(
                "{got} does not carry cc \"bbr\": BBR needs recovery \"sack\" with rack = true, as Linux 4.18+ runs it; allowed: set tcp.profile = \"linux-6\" (or recovery = \"sack\" and rack = true)"
            ),
        );
    }
    if t.cno_once_per_rtt && t.corruption == Corruption::Off {
        return err(
            &path("tcp.cno_once_per_rtt"),
            "true needs tcp.corruption (no CNO is sent while it is \"off\"); allowed: false, or corruption \"aggressive\" or \"conservative\"",
        );
    }
    if t.max_rto_ms < t.min_rto_ms {
        return err(
            &path("tcp.max_rto_ms"),
            format!("{} is out of range; allowed: >= min_rto_ms ({})", num(t.max_rto_ms), num(t.min_rto_ms)),
        );
    }
    if !(1..=MAX_INITIAL_CWND).contains(&t.initial_cwnd) {
        return err(
            &path("tcp.initial_cwnd"),
            format!("{} is out of range; allowed: 1..={MAX_INITIAL_CWND} segments", t.initial_cwnd),
        );
    }
    if let Some(n) = t.initial_ssthresh_segments {
        // RFC 5681 (4): ssthresh is never set below 2 segments.
        if !(2..=MAX_INITIAL_CWND).contains(&n) {
            return err(
                &path("tcp.initial_ssthresh_segments"),
                format!("{n} is out of range; allowed: 2..={MAX_INITIAL_CWND} segments, or unset"),
            );
        }
    }
    if let Some(hz) = t.clock_hz {
        if !(1..=MAX_CLOCK_HZ).contains(&hz) {
            return err(
                &path("tcp.clock_hz"),
                format!("{hz} is out of range; allowed: 1..={MAX_CLOCK_HZ} Hz, or unset"),
            );
        }
    }
    if t.limit_output_bytes > MAX_LIMIT_OUTPUT_BYTES {
        return err(
            &path("tcp.limit_output_bytes"),
            format!("{} is out of range; allowed: 0..={MAX_LIMIT_OUTPUT_BYTES} bytes", t.limit_output_bytes),
        );
    }
    if !(1..=MAX_PACING_SHIFT).contains(&t.wifi_pacing_shift) {
        return err(
            &path("tcp.wifi_pacing_shift"),
            format!("{} is out of range; allowed: 1..={MAX_PACING_SHIFT} (10: TCP's own, 7: mac80211 since Linux 4.20)", t.wifi_pacing_shift),
        );
    }
    if t.ack_every == 0 {
        return err(&path("tcp.ack_every"), "0 is out of range; allowed: >= 1 segments");
    }
    for (name, v) in [("rcv_buf_bytes", t.rcv_buf_bytes), ("snd_buf_bytes", t.snd_buf_bytes)] {
        if v < t.mss_bytes {
            return err(
                &path(&format!("tcp.{name}")),
                format!("{v} is out of range; allowed: >= mss_bytes ({})", t.mss_bytes),
            );
        }
    }
    Ok(())
}
