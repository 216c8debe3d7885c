//! HT-immediate Block Ack (10.25): the originator's transmit window and the two retry budgets
//! of an MPDU under the agreement, the recipient's scoreboard (what a BlockAck reports) and
//! its reordering buffer (what goes up the stack, in order), and the frames' sizes.
//!
//! Windows are 64 sequence numbers on HT and VHT (an agreement's buffer size; ath9k
//! `baw_size` 64 for Maximum A-MPDU Length Exponent 3, ns-3's negotiated size) and 256 between
//! HE stations (802.11ax-2021 10.25.2: a buffer size up to 256; ns-3 3.44
//! `WifiMac::GetMaxBaBufferSize`, Linux `IEEE80211_MAX_AMPDU_BUF_HE`), held as a 256-bit
//! [`Bitmap`] whose bit `i` is the number `start + i` (modulo 4096): no allocation, no
//! per-MPDU event.

use super::seq::{add, before, distance};
use crate::ids::PacketId;

/// Sequence numbers in an HT or VHT Block Ack window (and bits in its compressed bitmap,
/// 9.3.1.8.3).
pub const WINDOW: u16 = 64;
/// The largest window, an HE agreement's (and bits in its compressed bitmap).
pub const MAX_WINDOW: u16 = 256;
/// Compressed BlockAck (9.3.1.8): Frame Control 2, Duration 2, RA 6, TA 6, BA Control 2,
/// Starting Sequence Control 2, bitmap 8, FCS 4.
pub const BLOCK_ACK_BYTES: u32 = 32;

/// The compressed BlockAck of an agreement with a `window`-MPDU buffer: a 64-bit bitmap, or
/// 256 bits (32 octets, 802.11ax-2021 9.3.1.8.2: 56 bytes) past 64.
pub fn block_ack_bytes(window: u16) -> u32 {
    if window > WINDOW {
        BLOCK_ACK_BYTES + 24
    } else {
        BLOCK_ACK_BYTES
    }
}

/// 256 bits, bit `i` in word `i / 64`: a window's numbers from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bitmap(pub [u64; 4]);

impl Bitmap {
    /// The bitmap of a 64-bit one (an HT BlockAck's).
    pub const fn from_u64(bits: u64) -> Bitmap {
        Bitmap([bits, 0, 0, 0])
    }

    /// Bit `i` (false past 255).
    #[inline]
    pub fn bit(&self, i: u16) -> bool {
        i < MAX_WINDOW && self.0[usize::from(i / 64)] >> (i % 64) & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, i: u16) {
        self.0[usize::from(i / 64)] |= 1 << (i % 64);
    }

    #[inline]
    pub fn clear(&mut self, i: u16) {
        self.0[usize::from(i / 64)] &= !(1 << (i % 64));
    }

    /// Shifted toward bit 0 by `n` (empty from 256 on).
    #[inline]
    pub fn shr(&mut self, n: u16) {
        if self.0[1] | self.0[2] | self.0[3] == 0 {
            // An HT window's bitmap, or an HE one holding 64 numbers or fewer: one word.
            self.0[0] = self.0[0].checked_shr(u32::from(n)).unwrap_or(0);
            return;
        }
        if n == 0 {
            return;
        }
        if n >= MAX_WINDOW {
            *self = Bitmap::default();
            return;
        }
        let (words, bits) = (usize::from(n / 64), u32::from(n % 64));
        let w = self.0;
        for k in 0..4 {
            let lo = w.get(k + words).copied().unwrap_or(0);
            let hi = w.get(k + words + 1).copied().unwrap_or(0);
            self.0[k] = if bits == 0 { lo } else { lo >> bits | hi << (64 - bits) };
        }
    }

    /// Set bits from bit 0 on before the first clear one.
    #[inline]
    pub fn trailing_ones(&self) -> u16 {
        let first = self.0[0].trailing_ones();
        if first < 64 {
            return first as u16;
        }
        let mut n = 0;
        for w in self.0 {
            let k = w.trailing_ones();
            n += k as u16;
            if k < 64 {
                break;
            }
        }
        n
    }

    /// Clear bits from bit 0 on before the first set one (256 when empty).
    #[inline]
    pub fn trailing_zeros(&self) -> u16 {
        if self.0[0] != 0 {
            return self.0[0].trailing_zeros() as u16;
        }
        let mut n = 0;
        for w in self.0 {
            let k = w.trailing_zeros();
            n += k as u16;
            if k < 64 {
                break;
            }
        }
        n
    }

    pub fn count_ones(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The first `n_bits` (64 or 256) as the BlockAck carries them: little-endian octets.
    pub fn octets(&self, n_bits: u16) -> impl Iterator<Item = u8> + '_ {
        self.0.iter().flat_map(|w| w.to_le_bytes()).take(usize::from(n_bits / 8))
    }
}
/// Compressed BlockAckReq (9.3.1.7): Frame Control 2, Duration 2, RA 6, TA 6, BAR Control 2,
/// Starting Sequence Control 2, FCS 4.
pub const BLOCK_ACK_REQ_BYTES: u32 = 24;

/// The originator's transmit window (10.25.2; ath9k's BAW: `seq_start`, `tx_buf`,
/// `baw_head`/`baw_tail`): which of the `size` (64 or 256) numbers from `start` are on their
/// way (sent, not yet acknowledged or given up). An MPDU outside the window waits; the window moves when
/// its oldest MPDU is done, so one MPDU that keeps failing holds it (and the aggregates
/// shrink) until it is acknowledged or dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxWindow {
    start: u16,
    /// Numbers after `start` handed out so far: the window's tail (ath9k `baw_tail`).
    tail: u16,
    /// Bit i: `start + i` sent and not done.
    pending: Bitmap,
    /// The agreement's buffer size: 64, or 256 between HE stations.
    size: u16,
}

impl TxWindow {
    /// A window of `size` numbers at the agreement's starting sequence number.
    pub fn new(ssn: u16, size: u16) -> TxWindow {
        debug_assert!(size <= MAX_WINDOW);
        TxWindow { start: ssn, tail: 0, pending: Bitmap::default(), size }
    }

    /// The window start (WinStartO): the Starting Sequence Number of a BlockAckReq.
    pub fn start(&self) -> u16 {
        self.start
    }

    /// Whether `seq` may be sent (it lies in the window; ath9k `BAW_WITHIN`).
    pub fn admits(&self, seq: u16) -> bool {
        distance(self.start, seq) < self.size
    }

    /// MPDUs on their way.
    pub fn outstanding(&self) -> u32 {
        self.pending.count_ones()
    }

    /// `seq` goes on the air for the first time (ath9k `ath_tx_addto_baw`).
    pub fn add(&mut self, seq: u16) {
        let i = distance(self.start, seq);
        debug_assert!(i < self.size, "sequence number {seq} outside the window from {}", self.start);
        self.pending.set(i);
        self.tail = self.tail.max(i + 1);
    }

    /// `seq` is done (acknowledged, or given up): the window slides over the done numbers at
    /// its start (ath9k `ath_tx_update_baw`). Returns how far it moved.
    pub fn complete(&mut self, seq: u16) -> u16 {
        let i = distance(self.start, seq);
        if i >= self.size {
            return 0;
        }
        self.pending.clear(i);
        // Over the done numbers at the start, never past what was handed out.
        let moved = self.pending.trailing_zeros().min(self.tail);
        self.pending.shr(moved);
        self.tail -= moved;
        self.start = add(self.start, moved);
        moved
    }
}

/// The retry budgets of an MPDU under a Block Ack agreement, counted apart as ath9k does
/// (Linux 3.2 `ath_tx_complete_aggr`): the hardware retransmits a PPDU whose BlockAck does not
/// come (the timeout-based budget, the rate series' tries: 4 + 4 + 4 + 8 = 20 attempts, 19
/// retries), and when it gives up, or when a BlockAck's bitmap lacks an MPDU, the driver
/// counts one software retry for that MPDU (the Block-Ack-based budget, `ATH_MAX_SW_RETRIES`
/// 10) and queues it again at the head; past that limit the MPDU is dropped, the window moves
/// on and a BlockAckReq tells the recipient (mac80211 `ieee80211_send_bar`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaRetryLimits {
    /// Transmissions of one PPDU while no BlockAck answers it (hardware tries).
    pub ppdu_attempts: u8,
    /// Software retries of one MPDU (`ATH_MAX_SW_RETRIES`).
    pub mpdu_retries: u8,
}

impl BaRetryLimits {
    /// ath9k in Linux 3.2: rate series of 4/4/4/8 tries (`ath_get_rate` in rc.c), 10 software
    /// retries (xmit.c `ATH_MAX_SW_RETRIES`).
    pub const ATH9K_3_2: BaRetryLimits = BaRetryLimits { ppdu_attempts: 20, mpdu_retries: 10 };
}

/// What becomes of one MPDU of a PPDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Acknowledged.
    Acked,
    /// Not acknowledged: queued again at the head (its software retry count raised).
    Retry,
    /// Not acknowledged and past its software limit: given up.
    Drop,
}

/// The fate of an MPDU after its PPDU ended: `in_bitmap` is what the BlockAck said of it, or
/// `None` when the hardware gave the PPDU up without a BlockAck (ath9k `ATH9K_TX_XRETRY`: it
/// costs each MPDU one software retry, however many hardware attempts it took). `retries` is
/// the MPDU's software retry count, raised here on a failure.
pub fn fate(in_bitmap: Option<bool>, retries: &mut u8, limits: BaRetryLimits) -> Fate {
    if in_bitmap == Some(true) {
        return Fate::Acked;
    }
    if *retries < limits.mpdu_retries {
        *retries += 1;
        Fate::Retry
    } else {
        Fate::Drop
    }
}

/// The recipient's side of an agreement (10.25.6): the scoreboard whose bitmap a BlockAck
/// carries (10.25.6.3, full state: WinStartR, WinSizeR) and the reordering buffer that passes
/// MSDUs up in order (10.25.6.6: WinStartB, WinSizeB), both of the agreement's buffer size
/// (64, or 256 between HE stations). Both start at the agreement's starting sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipient {
    start_r: u16,
    /// Bit i: `start_r + i` received.
    score: Bitmap,
    start_b: u16,
    /// Bit i: `start_b + i` held in the buffer.
    held: Bitmap,
    size: u16,
    /// The buffered packets, by sequence number modulo 256 (at most `size` consecutive
    /// numbers are held, so none share a slot).
    slots: [Option<PacketId>; MAX_WINDOW as usize],
}

impl Recipient {
    pub fn new(ssn: u16, size: u16) -> Recipient {
        debug_assert!(size <= MAX_WINDOW);
        Recipient {
            start_r: ssn,
            score: Bitmap::default(),
            start_b: ssn,
            held: Bitmap::default(),
            size,
            slots: [None; MAX_WINDOW as usize],
        }
    }

    /// The BlockAck's Starting Sequence Number and bitmap (10.25.6.5: SSN = WinStartR).
    pub fn block_ack(&self) -> (u16, Bitmap) {
        (self.start_r, self.score)
    }

    /// The reordering buffer's window start: the next number to pass up.
    pub fn next_expected(&self) -> u16 {
        self.start_b
    }

    /// An MPDU `seq` carrying `packet` arrived intact: the scoreboard records it and the buffer
    /// takes it unless it is old or held already (a duplicate: false). Packets that are now
    /// in order are pushed to `up`, oldest first.
    pub fn receive(&mut self, seq: u16, packet: PacketId, up: &mut Vec<PacketId>) -> bool {
        self.score_mpdu(seq);
        // 10.25.6.6.2 a): an old number is discarded.
        if before(seq, self.start_b) {
            return false;
        }
        let i = distance(self.start_b, seq);
        if i >= self.size {
            // 10.25.6.6.2 c): beyond the window: it becomes the last number of the window,
            // and what falls out of it goes up, holes skipped.
            self.flush_to(add(seq, 1 + 4096 - self.size), up);
        }
        let i = distance(self.start_b, seq);
        if self.held.bit(i) {
            return false;
        }
        self.held.set(i);
        self.slots[usize::from(seq % MAX_WINDOW)] = Some(packet);
        // 10.25.6.6.2 b): the number at the window start goes up with the ones after it.
        self.release_in_order(up);
        true
    }

    /// A BlockAckReq with Starting Sequence Number `ssn` arrived (10.25.6.4, 10.25.6.6.2 d):
    /// everything before `ssn` goes up (holes given up), then what is in order from there.
    pub fn block_ack_req(&mut self, ssn: u16, up: &mut Vec<PacketId>) {
        if !before(ssn, self.start_b) {
            self.flush_to(ssn, up);
            self.release_in_order(up);
        }
        // 10.25.6.3 c): the scoreboard moves to ssn, keeping what it knows after it.
        if !before(ssn, self.start_r) {
            let d = distance(self.start_r, ssn);
            self.score.shr(d.min(MAX_WINDOW));
            self.start_r = ssn;
        }
    }

    /// Scoreboard, 10.25.6.3 b) 1-3: within the window set the bit; beyond it, slide the window
    /// so `seq` is its last number; an old number changes nothing.
    fn score_mpdu(&mut self, seq: u16) {
        if before(seq, self.start_r) {
            return;
        }
        let d = distance(self.start_r, seq);
        if d >= self.size {
            let shift = d - self.size + 1;
            self.score.shr(shift.min(MAX_WINDOW));
            self.start_r = add(self.start_r, shift);
        }
        self.score.set(distance(self.start_r, seq));
    }

    /// Pass up every held packet before `new_start`, in order, and move the buffer's start there.
    fn flush_to(&mut self, new_start: u16, up: &mut Vec<PacketId>) {
        let n = distance(self.start_b, new_start);
        for k in 0..n.min(self.size) {
            if self.held.bit(k) {
                let s = add(self.start_b, k);
                up.extend(self.slots[usize::from(s % MAX_WINDOW)].take());
            }
        }
        self.held.shr(n.min(MAX_WINDOW));
        self.start_b = new_start;
    }

    /// Pass up the run of held packets at the buffer's start.
    #[inline]
    fn release_in_order(&mut self, up: &mut Vec<PacketId>) {
        let run = self.held.trailing_ones();
        for _ in 0..run {
            up.extend(self.slots[usize::from(self.start_b % MAX_WINDOW)].take());
            self.start_b = add(self.start_b, 1);
        }
        self.held.shr(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(i: u32) -> PacketId {
        PacketId(i)
    }

    #[test]
    fn the_transmit_window_waits_for_its_oldest_mpdu() {
        let mut w = TxWindow::new(4090, WINDOW);
        for s in 0..10 {
            w.add(add(4090, s));
        }
        assert_eq!(w.outstanding(), 10);
        // Acked out of order: nothing moves while 4090 is pending.
        assert_eq!(w.complete(4091), 0);
        assert_eq!(w.complete(4092), 0);
        assert!(w.admits(add(4090, 63)) && !w.admits(add(4090, 64)));
        // 4090 is done (acked or dropped): the window slides over 4090-4092, across 4095 -> 0.
        assert_eq!(w.complete(4090), 3);
        assert_eq!(w.start(), 4093);
        assert!(w.admits(add(4093, 63)) && !w.admits(4092));
        // It never slides past what was handed out.
        for s in 3..10 {
            w.complete(add(4090, s));
        }
        assert_eq!((w.start(), w.outstanding()), (add(4090, 10), 0));
        assert_eq!(w.complete(add(4090, 10)), 0);
    }

    #[test]
    fn the_bitmap_shifts_and_counts_across_its_words() {
        let mut b = Bitmap::default();
        for i in [0, 63, 64, 130, 255] {
            b.set(i);
        }
        assert!(b.bit(63) && b.bit(64) && b.bit(255) && !b.bit(256) && !b.bit(1));
        assert_eq!(b.count_ones(), 5);
        // Shifts within a word, across words, by whole words, and past the end.
        let mut c = b;
        c.shr(1);
        assert_eq!((c.bit(62), c.bit(63), c.bit(129), c.bit(254), c.bit(0)), (true, true, true, true, false));
        let mut c = b;
        c.shr(64);
        assert_eq!(c, Bitmap([1, 1 << 2, 1 << 63, 0])); // 64 -> 0, 130 -> 66, 255 -> 191
        let mut c = b;
        c.shr(200);
        assert_eq!(c, Bitmap::from_u64(1 << 55));
        c.shr(256);
        assert_eq!(c, Bitmap::default());
        assert_eq!(Bitmap([u64::MAX, 0b111, 0, 0]).trailing_ones(), 67);
        assert_eq!(Bitmap([0, 0, 1 << 5, 0]).trailing_zeros(), 133);
        assert_eq!(Bitmap::default().trailing_zeros(), 256);
        assert_eq!(block_ack_bytes(WINDOW), 32);
        assert_eq!(block_ack_bytes(MAX_WINDOW), 56); // 32 + 24 more bitmap octets
    }

    #[test]
    fn an_he_window_holds_256_numbers_on_both_sides() {
        // Originator: 256 numbers admitted from 4000 (across 4095 -> 0), the 257th not.
        let mut w = TxWindow::new(4000, MAX_WINDOW);
        assert!(w.admits(add(4000, 255)) && !w.admits(add(4000, 256)));
        for k in 0..256 {
            w.add(add(4000, k));
        }
        assert_eq!(w.outstanding(), 256);
        // All but the first done: nothing moves; the first done: it slides over all 256.
        for k in 1..256 {
            assert_eq!(w.complete(add(4000, k)), 0);
        }
        assert_eq!(w.complete(4000), 256);
        assert_eq!((w.start(), w.outstanding()), (add(4000, 256), 0));
        // Recipient: a hole at 0 holds 255 MPDUs back, then all 256 go up in order.
        let mut r = Recipient::new(0, MAX_WINDOW);
        let mut up = Vec::new();
        for s in 1..256 {
            assert!(r.receive(s, p(u32::from(s)), &mut up));
        }
        assert!(up.is_empty());
        let (ssn, bitmap) = r.block_ack();
        assert_eq!((ssn, bitmap.count_ones(), bitmap.bit(0), bitmap.bit(255)), (0, 255, false, true));
        assert!(r.receive(0, p(0), &mut up));
        assert_eq!(up, (0..256).map(p).collect::<Vec<_>>());
        // 256 beyond the start moves the scoreboard on by one: it ends at 256.
        r.receive(256, p(256), &mut up);
        assert_eq!(r.block_ack().0, 1);
        assert!(r.block_ack().1.bit(255));
    }

    #[test]
    fn each_budget_counts_on_its_own() {
        let lim = BaRetryLimits::ATH9K_3_2;
        // A BlockAck lacking the MPDU, or the hardware giving the PPDU up after its 20
        // attempts: one software retry each; the 11th failure drops it.
        let mut r = 0;
        for k in 1..=10 {
            let f = fate(if k % 2 == 0 { None } else { Some(false) }, &mut r, lim);
            assert_eq!((f, r), (Fate::Retry, k));
        }
        assert_eq!(fate(Some(false), &mut r, lim), Fate::Drop);
        assert_eq!(fate(Some(true), &mut 10, lim), Fate::Acked);
        // Worst case per MPDU (the research note): 11 software rounds of up to 20 attempts.
        assert_eq!((u32::from(lim.mpdu_retries) + 1) * u32::from(lim.ppdu_attempts), 220);
    }

    #[test]
    fn the_scoreboard_reports_the_window_and_moves_past_its_end() {
        let mut r = Recipient::new(100, WINDOW);
        let mut up = Vec::new();
        for s in [100, 101, 103] {
            assert!(r.receive(s, p(u32::from(s)), &mut up));
        }
        // Bits 0, 1 and 3 from 100: the hole at 102 shows.
        assert_eq!(r.block_ack(), (100, Bitmap::from_u64(0b1011)));
        // 200 lies beyond 100 + 63: the window ends at 200 now (starts at 137).
        r.receive(200, p(200), &mut up);
        assert_eq!(r.block_ack(), (137, Bitmap::from_u64(1 << 63)));
        // An old number is not scored again.
        r.receive(101, p(101), &mut up);
        assert_eq!(r.block_ack(), (137, Bitmap::from_u64(1 << 63)));
    }

    #[test]
    fn the_buffer_releases_in_order_after_a_hole_is_filled() {
        let mut r = Recipient::new(0, WINDOW);
        let mut up = Vec::new();
        assert!(r.receive(0, p(0), &mut up));
        assert_eq!(up, [p(0)]);
        up.clear();
        // 1 is missing: 2 and 3 wait.
        r.receive(2, p(2), &mut up);
        r.receive(3, p(3), &mut up);
        assert!(up.is_empty());
        assert_eq!(r.next_expected(), 1);
        // A duplicate of a held MPDU is not taken twice.
        assert!(!r.receive(3, p(3), &mut up));
        // The retransmission of 1 fills the hole: 1, 2, 3 go up in order.
        assert!(r.receive(1, p(1), &mut up));
        assert_eq!(up, [p(1), p(2), p(3)]);
        assert_eq!(r.next_expected(), 4);
        // An MPDU already passed up is old: discarded.
        up.clear();
        assert!(!r.receive(2, p(2), &mut up));
        assert!(up.is_empty());
    }

    #[test]
    fn a_hole_given_up_is_skipped_by_a_block_ack_req_or_a_far_mpdu() {
        let mut r = Recipient::new(4094, WINDOW);
        let mut up = Vec::new();
        // 4094 lost for good; 4095, 0, 1 wait behind it.
        for s in [4095, 0, 1] {
            r.receive(s, p(u32::from(s)), &mut up);
        }
        assert!(up.is_empty());
        // The originator dropped 4094 and sends a BlockAckReq from 4095 (10.25.6.6.2 d).
        r.block_ack_req(4095, &mut up);
        assert_eq!(up, [p(4095), p(0), p(1)]);
        assert_eq!(r.next_expected(), 2);
        assert_eq!(r.block_ack().0, 4095);
        // Without a BlockAckReq, an MPDU 64 or more beyond the start pushes the window on:
        // 2 is lost, 3 waits; 66 arrives, the window becomes 3..66 and 3 goes up.
        up.clear();
        r.receive(3, p(3), &mut up);
        r.receive(66, p(66), &mut up);
        assert_eq!(up, [p(3)]);
        assert_eq!(r.next_expected(), 4);
        // A BlockAckReq for numbers already passed up changes nothing.
        up.clear();
        r.block_ack_req(1, &mut up);
        assert!(up.is_empty() && r.next_expected() == 4);
    }
}
