//! 802.11n's MAC building blocks (IEEE 802.11-2020 10.12 A-MPDU, 10.25 Block Ack), each a
//! small value with no allocation per frame, tested on its own before the MAC drives them:
//!
//! - [`seq`]: 12-bit sequence-number arithmetic (9.2.4.4.2, 10.25.6's modulo-4096 windows);
//! - [`ampdu`]: A-MPDU subframes (delimiter and padding, 9.7 / 10.12), the length and PPDU-time
//!   limits and ath9k's subframe and 4 ms caps, and the aggregate builder's test of fit;
//! - [`blockack`]: the originator's transmit window (ath9k's BAW), the two retry budgets of an
//!   MPDU under a Block Ack agreement, the recipient's scoreboard and reordering buffer
//!   (10.25.6 HT-immediate Block Ack), compressed BlockAck and BlockAckReq frame sizes;
//! - [`mofa`]: MoFA's mobility-aware A-MPDU length (Byeon et al., CoNEXT 2014).

pub mod ampdu;
pub mod blockack;
pub mod mofa;
pub mod seq;

/// The TID a QoS data frame of access category `ac` (0 BK, 1 BE, 2 VI, 3 VO) carries: the
/// first of its user priorities (Table 10-1: BK 1, BE 0, VI 5, VO 7 as ns-3 and Linux map
/// them).
pub fn tid_of_ac(ac: u8) -> u8 {
    [1, 0, 5, 7][usize::from(ac & 3)]
}
