//! PHY tables and airtime: 802.11b DSSS/HR-DSSS, 802.11a OFDM, 802.11g ERP.
//!
//! Airtime is a pure function of the frame size and a [`TxVector`]. Clause numbers are those
//! of IEEE Std 802.11-2020 (Clause 15 DSSS, 16 HR/DSSS, 17 OFDM, 18 ERP). The tx vector
//! carries channel width, guard interval and spatial streams so HT (Clause 19) slots in as
//! one more [`Modulation`] variant.

pub mod error;
pub mod modes;

pub use modes::{ModeId, ModeInfo, MODES};

use crate::time::Dur;

/// The PHY standard a channel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standard {
    /// 802.11a, Clause 17 OFDM, 20 MHz.
    A,
    /// 802.11b, Clauses 15/16 DSSS and HR/DSSS.
    B,
    /// 802.11g, Clause 18 ERP (ERP-OFDM and ERP-DSSS/CCK).
    G,
}

impl Standard {
    pub fn parse(name: &str) -> Option<Standard> {
        match name {
            "80211a" => Some(Standard::A),
            "80211b" => Some(Standard::B),
            "80211g" => Some(Standard::G),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Standard::A => "80211a",
            Standard::B => "80211b",
            Standard::G => "80211g",
        }
    }
}

/// DSSS/HR-DSSS PLCP preamble format (16.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preamble {
    Long,
    Short,
}

/// How the bits are put on the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modulation {
    /// DSSS (1, 2 Mbit/s) and HR/DSSS CCK (5.5, 11 Mbit/s), also ERP-DSSS/CCK in 802.11g.
    Dsss { rate_kbps: u32 },
    /// OFDM (802.11a) or ERP-OFDM (802.11g, `erp`: adds the 6 us signal extension).
    Ofdm { rate_kbps: u32, erp: bool },
}

impl Modulation {
    pub fn rate_kbps(self) -> u32 {
        match self {
            Modulation::Dsss { rate_kbps } | Modulation::Ofdm { rate_kbps, .. } => rate_kbps,
        }
    }
}

/// Everything airtime depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxVector {
    pub mode: ModeId,
    pub preamble: Preamble,
    /// [MHz]; 20 for every non-HT mode.
    pub channel_width_mhz: u16,
    /// [ns]; 800 for every non-HT mode.
    pub guard_interval_ns: u16,
    pub spatial_streams: u8,
}

impl TxVector {
    pub fn new(mode: ModeId, preamble: Preamble) -> TxVector {
        TxVector { mode, preamble, channel_width_mhz: 20, guard_interval_ns: 800, spatial_streams: 1 }
    }

    /// Duration of the PHY preamble and header: the time until PHY-RXSTART.indication.
    pub fn preamble_and_header(&self) -> Dur {
        match (self.mode.modulation(), self.preamble) {
            // 16.2.2.2 long PPDU: 144 us SYNC+SFD, 48 us PHY header, both at 1 Mbit/s.
            (Modulation::Dsss { rate_kbps: 1000 }, _) => Dur::from_us(192),
            (Modulation::Dsss { .. }, Preamble::Long) => Dur::from_us(192),
            // 16.2.2.3 short PPDU: 72 us preamble at 1 Mbit/s, 24 us header at 2 Mbit/s.
            (Modulation::Dsss { .. }, Preamble::Short) => Dur::from_us(96),
            // 17.3.2.4 / Table 17-5: 16 us preamble (TPREAMBLE) + 4 us SIGNAL.
            (Modulation::Ofdm { .. }, _) => Dur::from_us(20),
        }
    }

    /// Airtime of a PPDU carrying `bytes` of MPDU.
    pub fn duration(&self, bytes: u32) -> Dur {
        let bits = u64::from(bytes) * 8;
        match self.mode.modulation() {
            Modulation::Dsss { rate_kbps } => {
                // 16.3.4 LENGTH: ceil(8 x octets / rate) microseconds of PSDU.
                let psdu_us = (bits * 1000).div_ceil(u64::from(rate_kbps));
                self.preamble_and_header() + Dur::from_us(psdu_us)
            }
            Modulation::Ofdm { rate_kbps, erp } => {
                // 17.3.2.5 Eq. 17-29: N_SYM = ceil((16 + 8 LENGTH + 6) / N_DBPS), 4 us symbols.
                let n_dbps = u64::from(rate_kbps) * 4 / 1000;
                let n_sym = (16 + bits + 6).div_ceil(n_dbps);
                // 18.3.2.4: ERP-OFDM PPDUs end with a 6 us signal extension.
                let ext = if erp { Dur::from_us(6) } else { Dur::ZERO };
                self.preamble_and_header() + Dur::from_us(4 * n_sym) + ext
            }
        }
    }
}

/// MAC timing of a PHY: slot, SIFS, contention window bounds and the EIFS reference ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhyTiming {
    pub slot: Dur,
    pub sifs: Dur,
    pub cw_min: u32,
    pub cw_max: u32,
    /// An ACK at the lowest mandatory rate, long preamble: the `AckTxTime` of EIFS (10.3.2.3.7).
    pub eifs_ack: Dur,
}

/// Length of the ACK frame whose airtime EIFS includes (10.3.2.3.7): FC 2 + Duration 2 + RA 6
/// + FCS 4 (9.3.1.3). The MAC's `frame::ACK_BYTES` is this constant.
pub const ACK_FRAME_BYTES: u32 = 14;

impl PhyTiming {
    pub fn of(standard: Standard, erp_mixed: bool) -> PhyTiming {
        let ack = |mode| TxVector::new(mode, Preamble::Long).duration(ACK_FRAME_BYTES);
        match standard {
            // Table 17-21: aSlotTime 9 us, aSIFSTime 16 us, aCWmin 15, aCWmax 1023.
            Standard::A => PhyTiming {
                slot: Dur::from_us(9),
                sifs: Dur::from_us(16),
                cw_min: 15,
                cw_max: 1023,
                eifs_ack: ack(modes::OFDM_6),
            },
            // Table 16-4: aSlotTime 20 us, aSIFSTime 10 us, aCWmin 31, aCWmax 1023.
            Standard::B => PhyTiming {
                slot: Dur::from_us(20),
                sifs: Dur::from_us(10),
                cw_min: 31,
                cw_max: 1023,
                eifs_ack: ack(modes::DSSS_1),
            },
            // Table 18-5: short slot 9 us only in an all-ERP BSS, 20 us in b/g mixed mode;
            // aSIFSTime 10 us; aCWmin 15 (000 Table II gives 15 in mixed mode too).
            Standard::G => PhyTiming {
                slot: Dur::from_us(if erp_mixed { 20 } else { 9 }),
                sifs: Dur::from_us(10),
                cw_min: 15,
                cw_max: 1023,
                eifs_ack: if erp_mixed { ack(modes::DSSS_1) } else { ack(modes::ERP_OFDM_6) },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dur(standard: Standard, rate_kbps: u32, preamble: Preamble, bytes: u32) -> u64 {
        let mode = standard.mode(rate_kbps).expect("rate of the standard");
        TxVector::new(mode, preamble).duration(bytes).ns() / 1000
    }

    // Hand computations from 16.3.4 (DSSS LENGTH) and 16.2.2 (preamble + header).
    #[test]
    fn dsss_long_preamble_durations() {
        // ACK (14 bytes) at 1 Mbit/s: 192 + 112 = 304 us.
        assert_eq!(dsss(1000, Preamble::Long, 14), 304);
        // ACK at 2 Mbit/s: 192 + 56 = 248 us.
        assert_eq!(dsss(2000, Preamble::Long, 14), 248);
        // 1564-byte MPDU at 11 Mbit/s: 192 + ceil(12512/11) = 192 + 1138 = 1330 us.
        assert_eq!(dsss(11000, Preamble::Long, 1564), 1330);
        // 1564 bytes at 5.5 Mbit/s: 192 + ceil(12512/5.5) = 192 + 2275 (2274.9) = 2467 us.
        assert_eq!(dsss(5500, Preamble::Long, 1564), 2467);
    }

    #[test]
    fn dsss_short_preamble_durations() {
        // Short PPDU: 96 us + ceil(8*14/2) = 96 + 56 = 152 us at 2 Mbit/s.
        assert_eq!(dsss(2000, Preamble::Short, 14), 152);
        // 1 Mbit/s is always sent with the long preamble (16.2.2.3 short PPDU header at 2 Mbit/s).
        assert_eq!(dsss(1000, Preamble::Short, 14), 304);
        assert_eq!(dsss(11000, Preamble::Short, 1564), 96 + 1138);
    }

    fn dsss(rate: u32, p: Preamble, bytes: u32) -> u64 {
        dur(Standard::B, rate, p, bytes)
    }

    // Hand computations from 17.3.2.5 Eq. 17-29: 20 us + 4 us * ceil((22 + 8 L) / N_DBPS).
    #[test]
    fn ofdm_durations() {
        // ACK 14 bytes at 6 Mbit/s: ceil(134/24) = 6 symbols -> 44 us.
        assert_eq!(dur(Standard::A, 6000, Preamble::Long, 14), 44);
        // ACK at 24 Mbit/s: ceil(134/96) = 2 -> 28 us.
        assert_eq!(dur(Standard::A, 24000, Preamble::Long, 14), 28);
        // 1564 bytes at 54 Mbit/s: ceil(12534/216) = 59 -> 256 us.
        assert_eq!(dur(Standard::A, 54000, Preamble::Long, 1564), 256);
        // 1564 bytes at 6 Mbit/s: ceil(12534/24) = 523 -> 2112 us.
        assert_eq!(dur(Standard::A, 6000, Preamble::Long, 1564), 2112);
        // 17.3.2.5 worked example (Annex I.1): a 100-octet PSDU at 36 Mbit/s: ceil(822/144) = 6
        // symbols -> 44 us.
        assert_eq!(dur(Standard::A, 36000, Preamble::Long, 100), 44);
    }

    #[test]
    fn erp_adds_signal_extension_and_keeps_cck() {
        // 18.3.2.4: ERP-OFDM = OFDM + 6 us; 000 Table III: T_txACK at 6 Mbit/s = 50 us.
        assert_eq!(dur(Standard::G, 6000, Preamble::Long, 14), 50);
        assert_eq!(dur(Standard::G, 54000, Preamble::Long, 1564), 262);
        // ERP-DSSS/CCK is timed as HR/DSSS.
        assert_eq!(dur(Standard::G, 11000, Preamble::Long, 1564), 1330);
    }

    #[test]
    fn rates_belong_to_their_standard() {
        assert!(Standard::A.mode(11000).is_none());
        assert!(Standard::B.mode(54000).is_none());
        assert!(Standard::A.mode(7000).is_none());
        assert_eq!(Standard::G.rates_kbps().count(), 12);
    }

    #[test]
    fn timing_tables() {
        let a = PhyTiming::of(Standard::A, false);
        assert_eq!((a.slot.ns(), a.sifs.ns(), a.cw_min, a.cw_max), (9_000, 16_000, 15, 1023));
        assert_eq!(a.eifs_ack, Dur::from_us(44));
        let b = PhyTiming::of(Standard::B, false);
        assert_eq!((b.slot.ns(), b.sifs.ns(), b.cw_min), (20_000, 10_000, 31));
        assert_eq!(b.eifs_ack, Dur::from_us(304));
        // 000 Table II (b/g mixed): slot 20 us, SIFS 10 us, CWmin 15, CWmax 1023.
        let g = PhyTiming::of(Standard::G, true);
        assert_eq!((g.slot.ns(), g.sifs.ns(), g.cw_min, g.cw_max), (20_000, 10_000, 15, 1023));
        assert_eq!(PhyTiming::of(Standard::G, false).slot, Dur::from_us(9));
    }
}
