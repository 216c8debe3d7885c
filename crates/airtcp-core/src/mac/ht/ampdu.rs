//! A-MPDU: MPDUs sent in one PSDU, each behind a 4-byte delimiter and padded to a multiple of
//! 4 bytes except the last (9.7, 10.12), within the peer's maximum A-MPDU length, the PPDU's
//! maximum duration and, on ath9k, its own caps.

use crate::phy::TxVector;
use crate::time::Dur;

/// MPDU delimiter (9.7.1, Figure 9-983): EOF 1 bit, reserved 1, length 14, CRC 8, signature
/// 0x4E 8 bits: 4 bytes (ath9k `ATH_AGGR_DELIM_SZ`, ns-3 `MpduAggregator`).
pub const DELIMITER_BYTES: u32 = 4;
/// The largest A-MPDU an HT peer can take: 2^(13 + 3) - 1 bytes, Maximum A-MPDU Length
/// Exponent 3 (9.4.2.55.3; ath9k advertises `IEEE80211_HT_MAX_AMPDU_64K`; ns-3
/// `BE_MaxAmpduSize` 65,535).
pub const MAX_AMPDU_BYTES: u32 = 65_535;
/// aPPDUMaxTime of an HT-mixed PPDU, from L-SIG's length field (Table 19-25; ns-3
/// `GetPpduMaxTime(WIFI_PREAMBLE_HT_MF)` 5484 us).
pub const HT_MF_PPDU_MAX_TIME: Dur = Dur::from_us(5484);

/// When the A-MPDU subframe at PSDU byte `from_byte` begins after its PPDU's start at `txv`:
/// the preamble and PHY header, the 16 SERVICE bits (19.3.11.2), then the PSDU at the data
/// rate (the medium decides each subframe over this span, the mpdus trace records it).
pub fn subframe_offset(txv: &TxVector, from_byte: u32) -> Dur {
    let rate_kbps = u64::from(txv.mode.rate_kbps()).max(1);
    txv.preamble_and_header() + Dur((16 + u64::from(from_byte) * 8) * 1_000_000 / rate_kbps)
}

/// Padding after a subframe of `len` bytes so the next delimiter starts on a 4-byte boundary
/// (9.7.1; ns-3 `MpduAggregator::CalculatePadding`).
#[inline]
pub fn padding(len: u32) -> u32 {
    (4 - len % 4) % 4
}

/// Length of an A-MPDU of `len` bytes (0: empty) once an MPDU of `mpdu` bytes is added: the
/// previous last subframe is padded, then a delimiter and the MPDU (ns-3
/// `MpduAggregator::GetSizeIfAggregated`; ath9k `ath_tx_form_aggr`'s `al + pad + 4 + len`).
#[inline]
pub fn len_with(len: u32, mpdu: u32) -> u32 {
    len + padding(len) + DELIMITER_BYTES + mpdu
}

/// What bounds one aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggLimits {
    /// PSDU length [bytes]: the peer's maximum A-MPDU length.
    pub max_bytes: u32,
    /// PPDU duration.
    pub max_time: Dur,
    /// Subframes.
    pub max_subframes: u32,
}

impl AggLimits {
    /// ns-3 3.44: 65,535 bytes, 5.484 ms, and no count of its own beyond the 64-MPDU Block
    /// Ack window (`QosFrameExchangeManager::IsWithinSizeAndTimeLimits`, TXOP limit 0 on BE).
    pub const NS3: AggLimits =
        AggLimits { max_bytes: MAX_AMPDU_BYTES, max_time: HT_MF_PPDU_MAX_TIME, max_subframes: 64 };
    /// ath9k: at most `min(baw_size / 2, ATH_AMPDU_SUBFRAME_DEFAULT)` = 32 subframes and about
    /// 4 ms of PPDU (`ath_lookup_rate`: `ath_max_4ms_framelen` in Linux 3.2, a static table of
    /// the bytes that fit in 4 ms; here the same bound from the airtime itself).
    pub const ATH9K: AggLimits =
        AggLimits { max_bytes: MAX_AMPDU_BYTES, max_time: Dur::from_us(4000), max_subframes: 32 };

    /// Whether an A-MPDU of `n` subframes and `len` bytes may take one more MPDU of `mpdu`
    /// bytes when sent at `txv`.
    pub fn fits(&self, n: u32, len: u32, mpdu: u32, txv: &TxVector) -> bool {
        let next = len_with(len, mpdu);
        n < self.max_subframes && next <= self.max_bytes && txv.duration(next) <= self.max_time
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::{ModeId, Preamble};

    /// How many MPDUs of `mpdu` bytes one A-MPDU at `txv` holds (at least one: a frame
    /// that alone exceeds a limit goes out alone, as `Wifi::build_ampdu` sends it).
    trait CountOf {
        fn count_of(&self, mpdu: u32, txv: &TxVector) -> u32;
    }

    impl CountOf for AggLimits {
        fn count_of(&self, mpdu: u32, txv: &TxVector) -> u32 {
            let (mut n, mut len) = (0, 0);
            while self.fits(n, len, mpdu, txv) {
                len = len_with(len, mpdu);
                n += 1;
            }
            n.max(1)
        }
    }

    fn txv(mcs: u8, width40: bool, sgi: bool) -> TxVector {
        TxVector::new(ModeId::ht(mcs, width40, sgi).unwrap(), Preamble::Long)
    }

    #[test]
    fn subframes_are_delimited_and_padded_except_the_last() {
        // 9.7.1: 1538-byte MPDUs: 4 + 1538 = 1542, padded to 1544 when another follows.
        assert_eq!(len_with(0, 1538), 1542);
        assert_eq!(len_with(1542, 1538), 1544 + 1542);
        // 64 of them: 63 x 1544 + 1542 = 98,814 bytes (the research note's worked example).
        let mut len = 0;
        for _ in 0..64 {
            len = len_with(len, 1538);
        }
        assert_eq!(len, 98_814);
        // A 68-byte TCP ACK MPDU needs no pad; a 70-byte one 2.
        assert_eq!((padding(4 + 68), padding(4 + 70)), (0, 2));
    }

    #[test]
    fn limits_at_mcs_0_and_7() {
        // 1538-byte MPDUs at MCS 7, 20 MHz (hand computation from 19.4.3 and the note's table):
        // 65,535 bytes hold 42; 5,484 us allow 28 (43,230 bytes, 5,360 us); 4 ms allows 20
        // (30,878 bytes: ceil((8 x 30,878 + 22) / 260) = 951 symbols, 3,840 us; 21 would take
        // 4,028 us). ns-3 3.44 sends 28 per PPDU at MCS 7 and 2 at MCS 0
        // (bench/ns3/NOTES.md, "802.11n (HT)").
        let byte_only = AggLimits { max_time: Dur::from_ms(100), ..AggLimits::NS3 };
        assert_eq!(byte_only.count_of(1538, &txv(7, false, false)), 42);
        assert_eq!(AggLimits::NS3.count_of(1538, &txv(7, false, false)), 28);
        assert_eq!(AggLimits::ATH9K.count_of(1538, &txv(7, false, false)), 20);
        assert_eq!(AggLimits::NS3.count_of(1538, &txv(0, false, false)), 2);
        // The 32-subframe cap binds at MCS 15, 40 MHz, short GI: 32 x 1544 - 2 = 49,406
        // bytes take 36 + 4 + 4 x ceil(0.9 x 366) = 1,360 us.
        assert_eq!(AggLimits::ATH9K.count_of(1538, &txv(15, true, true)), 32);
        // At 300 Mbit/s the bytes bind for ns-3: 42 subframes.
        assert_eq!(AggLimits::NS3.count_of(1538, &txv(15, true, true)), 42);
        // A frame longer than a limit goes alone.
        let tiny = AggLimits { max_bytes: 1000, ..AggLimits::NS3 };
        assert_eq!(tiny.count_of(1538, &txv(7, false, false)), 1);
    }
}
