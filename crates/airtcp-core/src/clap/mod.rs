//! CLAP, the Cross-Layer Aware transport Protocol (Gopal, Paul, Raychaudhuri; paper 001
//! section VI, its reference 3): error control decoupled from flow control, a rate-based sender
//! fed with link information by its own MAC, and periodic aggregate NACKs instead of
//! per-segment ACKs. The design choices the paper leaves open are ours; docs/clap.md lists
//! each with its reason.
//!
//! Like [`crate::tcp::conn`], both ends are pure state machines: inputs are method calls that
//! carry `now`, outputs are returned packets and the time the end's single timer should fire
//! next (`poll_at`). The world carries the packets and owns the timers (phase 2).
//!
//! - [`sender::ClapSender`]: paces segments at the controller's rate, retransmissions first;
//!   loss detection from the feedback (NACKed holes, tail segments), duplicate suppression.
//! - [`receiver::ClapReceiver`]: a sliding bitmap of received segments; one [`Feedback`]
//!   every feedback interval and one when the file is complete.
//! - [`rate::RateController`]: the rate law, from the analytic one-station capacity to the
//!   MAC's measured service rate, corrected to keep the MAC queue short.
//!
//! Sequence numbers count *segments* (u32, as on the wire), not bytes: a file of N bytes is
//! split into ceil(N / MSS) segments, segment i carrying bytes [i MSS, min((i + 1) MSS, N)).

pub mod rate;
pub mod receiver;
pub mod sender;

#[cfg(test)]
mod tests;

use crate::time::{Dur, SimTime};

pub use rate::{LinkReport, RateConfig, RateController};
pub use receiver::ClapReceiver;
pub use sender::{ClapSender, SenderStats};

/// IPv4 header [bytes] (RFC 791, no options).
pub const IP_HEADER_BYTES: u32 = 20;
/// CLAP data header [bytes]: type 1, flags 1, reserved 2, segment number 4, total segments 4,
/// send timestamp 4, connection id 4. Together with IP it is 40 bytes, as TCP/IP's, so that a
/// comparison with TCP isolates the ACK traffic (paper 001 Table 1).
pub const DATA_HEADER_BYTES: u32 = 20;
/// CLAP feedback header [bytes] before the NACK ranges: type 1, flags 1, range count 1,
/// reserved 1, feedback serial 4, cumulative point 4, high end 4, NACK-complete point 4,
/// arrival rate 4 [kbit/s], echoed timestamp 4, echo hold time 4.
pub const FEEDBACK_HEADER_BYTES: u32 = 32;
/// One NACK range on the wire: first and one-past-last segment number, 4 bytes each.
pub const NACK_RANGE_BYTES: u32 = 8;
/// Capacity of the NACK list (the largest `ClapParams::max_nack_ranges`).
pub const MAX_NACK_RANGES: usize = 16;

/// One CLAP data segment as both ends see it; payload bytes are accounted, not carried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClapSegment {
    /// Segment number (0-based).
    pub seq: u32,
    /// Segments in the file: every segment carries it, so the receiver knows the end.
    pub total: u32,
    /// Payload [bytes].
    pub len: u32,
    /// When this transmission left the sender (echoed back for RTT and loss detection).
    pub sent_at: SimTime,
    /// A retransmission (statistics and traces).
    pub retransmit: bool,
}

impl ClapSegment {
    /// Bytes of the IP packet carrying this segment.
    pub fn ip_bytes(&self) -> u32 {
        IP_HEADER_BYTES + DATA_HEADER_BYTES + self.len
    }
}

/// What a CLAP packet carries in the world: a data segment by value, or a feedback by its
/// serial number (the flow keeps the recent feedbacks, 180 bytes each, in a small ring, so
/// that `Packet` stays small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClapPacket {
    Data(ClapSegment),
    Feedback { serial: u32 },
}

/// One aggregate feedback packet, receiver to sender. Segment ranges are half open,
/// `[start, end)`: a NACK range (3, 5) says segments 3 and 4 are missing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Feedback {
    /// Serial number of this feedback (the sender ignores one older than the newest it used).
    pub serial: u32,
    /// Cumulative point: every segment below it has arrived.
    pub cum: u32,
    /// One past the highest segment received (0: none yet).
    pub high_end: u32,
    /// Missing ranges, lowest first; `nack_n` of them are valid.
    pub nacks: [(u32, u32); MAX_NACK_RANGES],
    pub nack_n: u8,
    /// The NACK list names every hole below this segment; above it (when the list was
    /// truncated) the receiver said nothing. Equals `high_end` when the list is complete.
    pub nack_complete_to: u32,
    /// Data arriving during the interval that ends with this feedback [IP bits/s].
    pub arrival_rate_bps: u64,
    /// `sent_at` of the most recently sent transmission that has arrived; None before any.
    pub echo_sent_at: Option<SimTime>,
    /// How long the receiver held that echo: from its arrival to this feedback [ns].
    pub echo_hold: Dur,
    /// Every segment has arrived (the final feedback).
    pub complete: bool,
}

impl Feedback {
    /// The valid NACK ranges.
    pub fn nack_ranges(&self) -> &[(u32, u32)] {
        &self.nacks[..usize::from(self.nack_n)]
    }

    /// Bytes of the IP packet carrying this feedback.
    pub fn ip_bytes(&self) -> u32 {
        IP_HEADER_BYTES + FEEDBACK_HEADER_BYTES + NACK_RANGE_BYTES * u32::from(self.nack_n)
    }
}

/// Parameters of one CLAP transfer (both ends).
#[derive(Clone, Copy, Debug)]
pub struct ClapParams {
    /// Payload per segment [bytes].
    pub mss_bytes: u32,
    /// Receiver: one feedback per interval.
    pub feedback_interval: Dur,
    /// Receiver: at most this many NACK ranges per feedback (<= [`MAX_NACK_RANGES`]).
    pub max_nack_ranges: u8,
    /// Sender: new segments are sent only below cum + this many [segments] (the send buffer).
    pub send_buffer_segments: u32,
    /// Sender: RTT assumed before the first sample.
    pub initial_rtt: Dur,
    /// Sender: a transmission counts as lost once a transmission sent more than this later
    /// has arrived (RFC 8985 RACK's reordering window; the simulated paths are FIFO).
    pub reorder_window: Dur,
    /// Sender: the probe timeout when no feedback arrives is srtt + this many intervals.
    pub probe_intervals: u32,
}

impl Default for ClapParams {
    fn default() -> Self {
        ClapParams {
            mss_bytes: 1000,
            feedback_interval: Dur::from_ms(100),
            max_nack_ranges: MAX_NACK_RANGES as u8,
            send_buffer_segments: 4096,
            initial_rtt: Dur::from_ms(100),
            reorder_window: Dur::ZERO,
            probe_intervals: 3,
        }
    }
}

/// Number of segments of a file of `file_bytes` (at least one: an empty file still sends
/// one zero-length segment so that the receiver can confirm it).
pub fn segment_count(file_bytes: u64, mss_bytes: u32) -> u32 {
    let n = file_bytes.div_ceil(u64::from(mss_bytes.max(1))).max(1);
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Payload of segment `seq` of a file [bytes].
pub fn segment_len(seq: u32, file_bytes: u64, mss_bytes: u32) -> u32 {
    let start = u64::from(seq) * u64::from(mss_bytes);
    file_bytes.saturating_sub(start).min(u64::from(mss_bytes)) as u32
}
