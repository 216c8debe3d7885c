//! 802.11n's MAC building blocks (IEEE 802.11-2020 10.12 A-MPDU, 10.25 Block Ack), each a
//! small value with no allocation per frame, tested on its own before the MAC drives them:
//!
//! - [`seq`]: 12-bit sequence-number arithmetic (9.2.4.4.2, 10.25.6's modulo-4096 windows);
//! - [`ampdu`]: A-MPDU subframes (delimiter and padding, 9.7 / 10.12), the length and PPDU-time
//!   limits and ath9k's subframe and 4 ms caps, and the aggregate builder's test of fit;
//! - [`blockack`]: the originator's transmit window (ath9k's BAW), the two retry budgets of an
//!   MPDU under a Block Ack agreement, the recipient's scoreboard and reordering buffer
//!   (10.25.6 HT-immediate Block Ack), compressed BlockAck and BlockAckReq frame sizes.

pub mod ampdu;
pub mod blockack;
pub mod seq;
