//! The SACK scoreboard of RFC 6675 ("conservative SACK-based loss recovery"): which bytes
//! above the cumulative ACK the receiver holds (RFC 2018 blocks), and the three functions the
//! recovery runs on: `IsLost`, `SetPipe` and `NextSeg`.

/// SACK blocks a segment can carry (RFC 2018 section 3: 4 blocks of 8 bytes and 2 of kind and
/// length, aligned to 4, fill the 40 option bytes; Linux `TCP_NUM_SACKS`).
pub const MAX_BLOCKS: usize = 4;

/// SACK blocks that fit beside the options a connection carries on every segment: 3 next to
/// the 12 bytes of timestamps, else 4 (RFC 2018 section 3; Linux `tcp_established_options`:
/// (40 - 12 - 4) / 8).
pub fn blocks_that_fit(timestamps: bool) -> usize {
    if timestamps {
        3
    } else {
        MAX_BLOCKS
    }
}

/// RFC 6675 DupThresh.
pub const DUP_THRESH: u64 = 3;

/// SACKed ranges above the cumulative ACK: sorted, disjoint, half-open [start, end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scoreboard {
    ranges: Vec<(u64, u64)>,
}

impl Scoreboard {
    pub fn clear(&mut self) {
        self.ranges.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }

    /// Record a SACK block (ignoring what lies below `una`).
    pub fn add(&mut self, start: u64, end: u64, una: u64) {
        let start = start.max(una);
        if end <= start {
            return;
        }
        let i = self.ranges.partition_point(|r| r.0 < start);
        self.ranges.insert(i, (start, end));
        let mut w = 0;
        for r in 0..self.ranges.len() {
            let (s, e) = self.ranges[r];
            if w > 0 && s <= self.ranges[w - 1].1 {
                self.ranges[w - 1].1 = self.ranges[w - 1].1.max(e);
            } else {
                self.ranges[w] = (s, e);
                w += 1;
            }
        }
        self.ranges.truncate(w);
    }

    /// Forget everything below the new cumulative ACK.
    pub fn advance(&mut self, una: u64) {
        self.ranges.retain(|r| r.1 > una);
        if let Some(first) = self.ranges.first_mut() {
            first.0 = first.0.max(una);
        }
    }

    /// Whether every byte of [start, end) is SACKed.
    pub fn is_sacked(&self, start: u64, end: u64) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= start && end <= b)
    }

    /// SACKed bytes above `seq`.
    pub fn sacked_above(&self, seq: u64) -> u64 {
        self.ranges.iter().map(|&(a, b)| b.saturating_sub(a.max(seq + 1).min(b))).sum()
    }

    /// RFC 6675 IsLost(SeqNum): more than (DupThresh - 1) x SMSS bytes SACKed above it.
    pub fn is_lost(&self, seq: u64, mss: u64) -> bool {
        self.sacked_above(seq) > (DUP_THRESH - 1) * mss
    }

    /// SACKed bytes in [start, end).
    pub fn sacked_between(&self, start: u64, end: u64) -> u64 {
        self.ranges.iter().map(|&(a, b)| b.min(end).saturating_sub(a.max(start))).sum()
    }

    /// Every SACKed byte held.
    pub fn total(&self) -> u64 {
        self.ranges.iter().map(|&(a, b)| b - a).sum()
    }

    /// Highest SACKed sequence + 1 (0 if none).
    pub fn high_sacked(&self) -> u64 {
        self.ranges.last().map_or(0, |r| r.1)
    }
}

/// The segment grid: data starts at 1 and is cut into `mss`-byte segments; `end` bounds it.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub mss: u64,
    /// One past the last byte sent (HighData + 1).
    pub high_data: u64,
    /// Every unSACKed segment that starts below this is lost, SACKed above or not: Linux's
    /// `tcp_enter_loss` marks them so after an RTO (0: none; RFC 6675's IsLost alone).
    pub lost_below: u64,
}

impl Grid {
    /// The segment starting at `seq`: [seq, min(seq + mss, high_data)).
    pub fn seg_end(&self, seq: u64) -> u64 {
        (seq + self.mss).min(self.high_data)
    }

    /// Whether the unSACKed segment at `seq` is deemed lost.
    pub fn lost(&self, sb: &Scoreboard, seq: u64) -> bool {
        seq < self.lost_below || sb.is_lost(seq, self.mss)
    }

    /// Round `seq` down to the start of its segment (segments start at 1 + k * mss).
    pub fn align(&self, seq: u64) -> u64 {
        if seq == 0 {
            0
        } else {
            1 + (seq - 1) / self.mss * self.mss
        }
    }
}

/// RFC 6675 SetPipe: segments in flight between `una` and HighData, in segments.
pub fn pipe(sb: &Scoreboard, grid: Grid, una: u64, high_rxt: u64) -> u32 {
    let mut pipe = 0;
    let mut s = una;
    while s < grid.high_data {
        let e = grid.seg_end(s);
        if !sb.is_sacked(s, e) {
            // (a) an original transmission not yet deemed lost, (b) a retransmission.
            if !grid.lost(sb, s) {
                pipe += 1;
            }
            if s < high_rxt {
                pipe += 1;
            }
        }
        s = e;
    }
    pipe
}

/// RFC 6675 NextSeg rules (1) and (3): the next segment to retransmit, if any. Rule (1): the
/// first unSACKed segment at or above HighRxt that IsLost; rule (3), used only when there is no
/// new data to send (rule 2), any unSACKed segment at or above HighRxt below the highest SACK.
pub fn next_retransmission(
    sb: &Scoreboard,
    grid: Grid,
    una: u64,
    high_rxt: u64,
    new_data: bool,
) -> Option<u64> {
    let mut s = grid.align(una.max(high_rxt)).max(una);
    let top = sb.high_sacked().max(grid.lost_below);
    let mut rule3 = None;
    while s < grid.high_data && s < top {
        let e = grid.seg_end(s);
        if !sb.is_sacked(s, e) {
            if grid.lost(sb, s) {
                return Some(s);
            }
            rule3 = rule3.or(Some(s));
        }
        s = e;
    }
    if new_data {
        None
    } else {
        rule3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    fn seg(i: u64) -> u64 {
        1 + i * MSS
    }

    #[test]
    fn blocks_merge_and_advance() {
        let mut sb = Scoreboard::default();
        sb.add(seg(3), seg(5), seg(0));
        sb.add(seg(5), seg(6), seg(0));
        sb.add(seg(8), seg(9), seg(0));
        assert_eq!(sb.ranges(), &[(seg(3), seg(6)), (seg(8), seg(9))]);
        sb.advance(seg(4));
        assert_eq!(sb.ranges(), &[(seg(4), seg(6)), (seg(8), seg(9))]);
        assert!(sb.is_sacked(seg(4), seg(5)) && !sb.is_sacked(seg(6), seg(7)));
    }

    #[test]
    fn is_lost_needs_more_than_two_segments_sacked_above() {
        // RFC 6675 section 4: DupThresh = 3 -> more than 2 x SMSS bytes SACKed above.
        let mut sb = Scoreboard::default();
        sb.add(seg(1), seg(3), seg(0)); // 2 segments above segment 0
        assert!(!sb.is_lost(seg(0), MSS));
        sb.add(seg(4), seg(5), seg(0)); // 3 segments above segment 0
        assert!(sb.is_lost(seg(0), MSS));
        assert!(!sb.is_lost(seg(3), MSS), "only 1 segment SACKed above segment 3");
    }

    #[test]
    fn pipe_counts_unlost_originals_and_retransmissions() {
        // Sent 0..10; SACKed 1, 2, 4, 5. Segment 0 is lost (4 segments SACKed above it),
        // segment 3 is not yet (only 2 above it).
        let grid = Grid { mss: MSS, high_data: seg(10), lost_below: 0 };
        let mut sb = Scoreboard::default();
        sb.add(seg(1), seg(3), seg(0));
        sb.add(seg(4), seg(6), seg(0));
        // In flight: 3, 6, 7, 8, 9 = 5 (the lost segment 0 is not counted).
        assert_eq!(pipe(&sb, grid, seg(0), seg(0)), 5);
        // Segment 0 retransmitted: the retransmission is in flight, +1.
        assert_eq!(pipe(&sb, grid, seg(0), seg(1)), 6);
    }

    #[test]
    fn next_segment_is_the_first_lost_hole_above_high_rxt() {
        let grid = Grid { mss: MSS, high_data: seg(10), lost_below: 0 };
        let mut sb = Scoreboard::default();
        sb.add(seg(1), seg(3), seg(0));
        sb.add(seg(4), seg(6), seg(0));
        // Rule (1): segment 0 is lost.
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(0), true), Some(seg(0)));
        // After retransmitting 0, segment 3 is not lost (2 SACKed above): new data first
        // (rule 2, so None here); without new data, rule (3) sends it.
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(1), true), None);
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(1), false), Some(seg(3)));
        // One more SACK above 3 makes it lost: rule (1).
        sb.add(seg(7), seg(8), seg(0));
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(1), true), Some(seg(3)));
    }

    #[test]
    fn after_an_rto_every_unsacked_segment_below_the_mark_is_lost() {
        // Linux tcp_enter_loss: sent 0..10, 3 and 7 SACKed, the RTO marks the rest lost.
        let grid = Grid { mss: MSS, high_data: seg(10), lost_below: seg(10) };
        let mut sb = Scoreboard::default();
        sb.add(seg(3), seg(4), seg(0));
        sb.add(seg(7), seg(8), seg(0));
        assert_eq!(pipe(&sb, grid, seg(0), seg(0)), 0, "nothing in flight but what is resent");
        assert_eq!(pipe(&sb, grid, seg(0), seg(3)), 3, "0, 1 and 2 resent");
        // Retransmission in order, SACKed ones skipped, above the highest SACK too.
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(3), true), Some(seg(4)));
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(7), true), Some(seg(8)));
        assert_eq!(next_retransmission(&sb, grid, seg(0), seg(10), true), None);
        // Without the mark, IsLost alone: segment 8 and 9 are not lost (nothing above them).
        let rfc = Grid { lost_below: 0, ..grid };
        assert_eq!(next_retransmission(&sb, rfc, seg(0), seg(8), true), None);
    }
}
