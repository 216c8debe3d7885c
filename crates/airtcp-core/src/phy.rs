//! PHY tables and airtime: 802.11b DSSS/HR-DSSS, 802.11a OFDM, 802.11g ERP, 802.11n HT,
//! 802.11ac VHT and 802.11ax HE (single-user).
//!
//! Airtime is a pure function of the PSDU size and a [`TxVector`]. Clause numbers are those
//! of IEEE Std 802.11-2020 (Clause 15 DSSS, 16 HR/DSSS, 17 OFDM, 18 ERP, 19 HT, 21 VHT) and
//! 802.11ax-2021 (Clause 27 HE). An HT mode carries its MCS, channel width and guard interval
//! (one mode per rate, as ath9k and Minstrel-HT tabulate them); the number of spatial streams
//! follows from the MCS. A VHT or HE mode carries its MCS, width, streams and guard interval.

pub mod error;
pub mod he;
pub mod modes;
pub mod success_table;
pub mod vht;

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
    /// 802.11n, Clause 19 HT, in one band with the configuration its stations share; the
    /// band's non-HT modes (802.11a's in 5 GHz, 802.11g's in 2.4 GHz) carry control frames
    /// and beacons.
    N(HtConfig),
    /// 802.11ac, Clause 21 VHT single-user, in 5 GHz (802.11a's modes carry control frames).
    Ac(VhtConfig),
    /// 802.11ax, Clause 27 HE single-user, in either band.
    Ax(HeConfig),
}

/// What every station of an 802.11ac BSS supports: the channel width (20, 40, 80 or 160 MHz),
/// the short guard interval, and the spatial streams (1-4) data frames use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VhtConfig {
    pub width_mhz: u16,
    pub sgi: bool,
    pub streams: u8,
}

/// What every station of an 802.11ax BSS supports: the band, the channel width (20-160 MHz;
/// 2.4 GHz: 20 or 40), the guard interval of data frames (800, 1600 or 3200 ns) and the
/// spatial streams (1-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeConfig {
    pub band: Band,
    pub width_mhz: u16,
    pub gi_ns: u16,
    pub streams: u8,
}

/// The frequency band of an HT channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Band {
    Ghz2_4,
    Ghz5,
}

/// What every station of an 802.11n BSS supports: the channel width (20 or 40 MHz), the
/// short guard interval, and the spatial streams (1 or 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HtConfig {
    pub band: Band,
    pub width40: bool,
    pub sgi: bool,
    pub streams: u8,
}

impl Default for HtConfig {
    /// ns-3's 802.11n defaults: 5 GHz, 20 MHz, long guard interval, one spatial stream.
    fn default() -> HtConfig {
        HtConfig { band: Band::Ghz5, width40: false, sgi: false, streams: 1 }
    }
}

crate::names::names! {
    /// A standard as configurations name it; 802.11n's PHY details come apart (`wifi.ht`).
    pub enum StandardName {
        A = "80211a",
        B = "80211b",
        G = "80211g",
        N = "80211n",
        Ac = "80211ac",
        Ax = "80211ax",
    }
}

impl StandardName {
    /// The standard, 802.11n with `ht` (its default configuration if None).
    pub fn standard(self, ht: Option<HtConfig>) -> Standard {
        match self {
            StandardName::A => Standard::A,
            StandardName::B => Standard::B,
            StandardName::G => Standard::G,
            StandardName::N => Standard::N(ht.unwrap_or_default()),
            StandardName::Ac => Standard::Ac(VhtConfig { width_mhz: 80, sgi: false, streams: 1 }),
            StandardName::Ax => {
                Standard::Ax(HeConfig { band: Band::Ghz5, width_mhz: 80, gi_ns: 800, streams: 1 })
            }
        }
    }
}

impl Standard {
    /// The standard called `name`; "80211n" with [`HtConfig::default`].
    pub fn parse(name: &str) -> Option<Standard> {
        StandardName::from_name(name).map(|n| n.standard(None))
    }

    pub fn name(self) -> &'static str {
        match self {
            Standard::A => "80211a",
            Standard::B => "80211b",
            Standard::G => "80211g",
            Standard::N(_) => "80211n",
            Standard::Ac(_) => "80211ac",
            Standard::Ax(_) => "80211ax",
        }
    }

    /// The non-HT standard of the band: itself, or for 802.11n and 802.11ax 802.11a (5 GHz)
    /// or 802.11g (2.4 GHz, an all-ERP BSS), for 802.11ac 802.11a.
    pub fn legacy(self) -> Standard {
        match self {
            Standard::N(HtConfig { band: Band::Ghz5, .. }) => Standard::A,
            Standard::N(HtConfig { band: Band::Ghz2_4, .. }) => Standard::G,
            Standard::Ac(_) => Standard::A,
            Standard::Ax(HeConfig { band: Band::Ghz5, .. }) => Standard::A,
            Standard::Ax(HeConfig { band: Band::Ghz2_4, .. }) => Standard::G,
            s => s,
        }
    }

    /// 802.11n, 802.11ac or 802.11ax: QoS data at an MCS, A-MPDU under Block Ack, control
    /// frames at the band's non-HT rates.
    pub fn high_throughput(self) -> bool {
        matches!(self, Standard::N(_) | Standard::Ac(_) | Standard::Ax(_))
    }

    /// Whether PPDUs of this standard's MCS modes end with the 6 us signal extension: HT and
    /// HE in 2.4 GHz (19.3.2, 27.4.3 aSignalExtension).
    pub fn signal_extension(self) -> bool {
        match self {
            Standard::N(c) => c.band == Band::Ghz2_4,
            Standard::Ax(c) => c.band == Band::Ghz2_4,
            _ => false,
        }
    }

    /// The HT configuration, for 802.11n.
    pub fn ht(self) -> Option<HtConfig> {
        match self {
            Standard::N(c) => Some(c),
            _ => None,
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
    /// HT MCS 0-15 (BCC, one encoder: every rate up to 300 Mbit/s) at 40 MHz or 20, with the
    /// 400 ns guard interval (`sgi`) or 800 ns; MCS 8-15 send two spatial streams.
    Ht { mcs: u8, width40: bool, sgi: bool },
    /// VHT single-user (Clause 21): MCS 0-9, 20-160 MHz, 1-4 streams, 400 or 800 ns GI.
    Vht(vht::VhtMode),
    /// HE single-user (Clause 27): MCS 0-11, 20-160 MHz, 1-4 streams, 0.8/1.6/3.2 us GI.
    He(he::HeMode),
}

/// Data bits per OFDM symbol of HT MCS 0-7 in 20 and 40 MHz (Tables 19-27 and 19-28);
/// MCS 8-15 send twice as many on two streams (Tables 19-29 and 19-30).
const HT_NDBPS: [[u32; 8]; 2] =
    [[26, 52, 78, 104, 156, 208, 234, 260], [54, 108, 162, 216, 324, 432, 486, 540]];

impl Modulation {
    /// The data rate [kbit/s]; an HT rate with the short guard interval is N_DBPS / 3.6 us,
    /// rounded down to a whole kbit/s (72 222 for MCS 7 in 20 MHz).
    pub fn rate_kbps(self) -> u32 {
        match self {
            Modulation::Dsss { rate_kbps } | Modulation::Ofdm { rate_kbps, .. } => rate_kbps,
            Modulation::Ht { sgi: false, .. } => self.ht_ndbps() * 250,
            Modulation::Ht { sgi: true, .. } => self.ht_ndbps() * 10_000 / 36,
            Modulation::Vht(_) | Modulation::He(_) => self.mcs_rate_kbps(),
        }
    }

    /// The rate of a VHT or HE mode [kbit/s] (out of line, off the legacy modes' path).
    #[inline(never)]
    fn mcs_rate_kbps(self) -> u32 {
        match self {
            Modulation::Vht(v) => (v.rate_bps() / 1000) as u32,
            Modulation::He(h) => (h.rate_bps() / 1000) as u32,
            _ => 0,
        }
    }

    /// N_DBPS of an HT mode (0 for the others).
    pub fn ht_ndbps(self) -> u32 {
        match self {
            Modulation::Ht { mcs, width40, .. } => {
                HT_NDBPS[usize::from(width40)][usize::from(mcs % 8)] * (1 + u32::from(mcs / 8))
            }
            _ => 0,
        }
    }

    /// Spatial streams: 2 for HT MCS 8-15, a VHT or HE mode's own, else 1.
    pub fn streams(self) -> u8 {
        match self {
            Modulation::Ht { mcs, .. } => 1 + mcs / 8,
            Modulation::Vht(v) => v.nss,
            Modulation::He(h) => h.nss,
            _ => 1,
        }
    }

    /// The width [MHz] an OFDM, HT, VHT or HE PPDU occupies: 40 for HT40, a VHT or HE mode's
    /// own, else 20 (the medium measures noise over 22 MHz for DSSS on an 802.11b channel).
    pub fn width_mhz(self) -> u32 {
        match self {
            Modulation::Ht { width40: true, .. } => 40,
            Modulation::Vht(v) => u32::from(v.width_mhz),
            Modulation::He(h) => u32::from(h.width_mhz),
            _ => 20,
        }
    }

    /// The MCS of an HT, VHT or HE mode.
    pub fn mcs(self) -> Option<u8> {
        match self {
            Modulation::Ht { mcs, .. } => Some(mcs),
            Modulation::Vht(v) => Some(v.mcs),
            Modulation::He(h) => Some(h.mcs),
            _ => None,
        }
    }
}

/// Everything airtime depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxVector {
    pub mode: ModeId,
    pub preamble: Preamble,
    /// An HT PPDU in the 2.4 GHz band: it ends with the 6 us signal extension (19.3.2,
    /// aSignalExtension; ERP-OFDM modes carry their own, 18.3.2.4).
    pub signal_extension: bool,
}

/// HT-mixed preamble and headers before the data: L-STF 8 + L-LTF 8 + L-SIG 4 + HT-SIG 8 +
/// HT-STF 4 us (19.3.9; ns-3 `HtPhy::GetDuration`), then one 4 us HT-LTF per stream (N_LTF =
/// 1, 2 for 1, 2 streams; 19.3.9.4.6).
const HT_MF_FIXED_US: u64 = 8 + 8 + 4 + 8 + 4;

impl TxVector {
    pub fn new(mode: ModeId, preamble: Preamble) -> TxVector {
        TxVector { mode, preamble, signal_extension: false }
    }

    /// Duration of the PHY preamble and header: the time until PHY-RXSTART.indication.
    #[inline]
    pub fn preamble_and_header(&self) -> Dur {
        match (self.mode.modulation(), self.preamble) {
            // 16.2.2.2 long PPDU: 144 us SYNC+SFD, 48 us PHY header, both at 1 Mbit/s.
            (Modulation::Dsss { rate_kbps: 1000 }, _) => Dur::from_us(192),
            (Modulation::Dsss { .. }, Preamble::Long) => Dur::from_us(192),
            // 16.2.2.3 short PPDU: 72 us preamble at 1 Mbit/s, 24 us header at 2 Mbit/s.
            (Modulation::Dsss { .. }, Preamble::Short) => Dur::from_us(96),
            // 17.3.2.4 / Table 17-5: 16 us preamble (TPREAMBLE) + 4 us SIGNAL.
            (Modulation::Ofdm { .. }, _) => Dur::from_us(20),
            // HT-mixed: 36 us with one stream, 40 with two.
            (m @ Modulation::Ht { .. }, _) => Dur::from_us(HT_MF_FIXED_US + 4 * u64::from(m.streams())),
            (m @ (Modulation::Vht(_) | Modulation::He(_)), _) => mcs_preamble(m),
        }
    }

    /// Airtime of a PPDU carrying `bytes` of MPDU.
    #[inline]
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
            m @ Modulation::Ht { sgi, .. } => {
                // 19.3.11.5 / Eq. 19-32 (BCC, one encoder, no STBC): N_SYM = ceil((8 LENGTH +
                // 16 + 6) / N_DBPS). 19.4.3 TXTIME (HT-mixed format): the data symbols
                // last 4 us, or with the short GI 3.6 us rounded up to the 4 us boundary the
                // L-SIG's length counts in (ns-3 and ath9k leave out this rounding: at most
                // 3.6 us shorter). In 2.4 GHz the PPDU ends with the 6 us signal extension.
                let n_sym = (16 + bits + 6).div_ceil(u64::from(m.ht_ndbps()));
                let data_us = if sgi { 4 * (9 * n_sym).div_ceil(10) } else { 4 * n_sym };
                let ext = if self.signal_extension { Dur::from_us(6) } else { Dur::ZERO };
                self.preamble_and_header() + Dur::from_us(data_us) + ext
            }
            m @ (Modulation::Vht(_) | Modulation::He(_)) => self.mcs_duration(m, bytes),
        }
    }

    /// Airtime of a VHT or HE PPDU (out of line, off the legacy modes' path).
    #[inline(never)]
    fn mcs_duration(&self, m: Modulation, bytes: u32) -> Dur {
        match m {
            // 21.4.3 Eq. 21-106 (BCC, no STBC; VHT is 5 GHz only, no signal extension).
            Modulation::Vht(v) => Dur(v.txtime_ns(bytes)),
            // 27.4.3 Eq. 27-135 (LDPC; the receiver's nominal packet padding 0 us, so T_PE 0,
            // as ns-3 3.44 sends), + 6 us in 2.4 GHz.
            Modulation::He(h) => Dur(h.txtime_ns(bytes, 0, self.signal_extension)),
            _ => Dur::ZERO,
        }
    }
}

/// The preamble and headers of a VHT or HE PPDU (out of line, off the legacy modes' path).
#[inline(never)]
fn mcs_preamble(m: Modulation) -> Dur {
    match m {
        // 21.4.3: L-STF, L-LTF, L-SIG, VHT-SIG-A, VHT-STF, the VHT-LTFs and VHT-SIG-B.
        Modulation::Vht(v) => Dur::from_us(v.preamble_us()),
        // 27.4.3: the 20 us legacy preamble, RL-SIG, HE-SIG-A, HE-STF and the HE-LTFs.
        Modulation::He(h) => Dur(20_000 + h.he_preamble_ns()),
        _ => Dur::ZERO,
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
            // 19.4.4 Table 19-25, 21.4.4 Table 21-29, 27.4.4 Table 27-54: the band's OFDM
            // timing (5 GHz: 802.11a's; 2.4 GHz: an all-ERP BSS's, short slot).
            Standard::N(_) | Standard::Ac(_) | Standard::Ax(_) => PhyTiming::of(standard.legacy(), false),
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

    fn ht(mcs: u8, width40: bool, sgi: bool, bytes: u32, ext: bool) -> u64 {
        let mut t = TxVector::new(ModeId::ht(mcs, width40, sgi).unwrap(), Preamble::Long);
        t.signal_extension = ext;
        t.duration(bytes).ns() / 1000
    }

    // Hand computations from 19.3.11.5 (N_SYM = ceil((8 L + 22) / N_DBPS)), Tables 19-27 to
    // 19-30 (N_DBPS) and 19.4.3 (HT-mixed: 36 us + 4 us per extra stream's HT-LTF, symbols of
    // 4 us or 3.6 us rounded up to 4 us, + 6 us in 2.4 GHz).
    #[test]
    fn ht_durations() {
        // 1538-byte MPDU at MCS 7, 20 MHz: ceil(12326 / 260) = 48 symbols: 36 + 192 = 228 us.
        assert_eq!(ht(7, false, false, 1538, false), 228);
        // Short GI: 48 x 3.6 = 172.8 us, rounded up to 176: 212 us (ns-3: 208.8).
        assert_eq!(ht(7, false, true, 1538, false), 212);
        // In 2.4 GHz: + 6 us signal extension.
        assert_eq!(ht(7, false, false, 1538, true), 234);
        // MCS 0, 20 MHz (6.5 Mbit/s): ceil(12326 / 26) = 475 symbols: 36 + 1900 = 1936 us.
        assert_eq!(ht(0, false, false, 1538, false), 1936);
        // MCS 11, 40 MHz (108 Mbit/s, two streams: 40 us preamble): ceil(12326 / 432) = 29.
        assert_eq!(ht(11, true, false, 1538, false), 40 + 116);
        // MCS 15, 40 MHz, short GI (300 Mbit/s), 65535 bytes: ceil(524302 / 1080) = 486
        // symbols, 486 x 3.6 = 1749.6 -> 1752 us: 1792 us.
        assert_eq!(ht(15, true, true, 65535, false), 1792);
        // The research note's worked example (ath9k's ath_pkt_duration agrees): 64 x 1538-byte
        // MPDUs in one A-MPDU, 98,814 bytes at MCS 7, 20 MHz: 3041 symbols, 12,200 us in
        // 5 GHz and 12,206 us in 2.4 GHz.
        assert_eq!(ht(7, false, false, 98_814, false), 12_200);
        assert_eq!(ht(7, false, false, 98_814, true), 12_206);
    }

    #[test]
    fn ht_rates_include_paper_002s_table_i() {
        // Tables 19-27 to 19-30: rate = N_DBPS / symbol time.
        let rate = |mcs, w, g| ModeId::ht(mcs, w, g).unwrap().rate_kbps();
        assert_eq!(rate(7, false, false), 65_000);
        assert_eq!(rate(7, false, true), 72_222);
        // Paper 002 Table I, as ath9k's table for a 2-stream HT40 peer lists them.
        let table_i = [
            (0, false, false),
            (0, true, false),
            (1, true, false),
            (2, true, false),
            (3, true, false),
            (4, true, false),
            (11, true, false),
            (12, true, false),
            (13, true, false),
            (14, true, false),
            (15, true, false),
            (15, true, true),
        ];
        let got: Vec<u32> = table_i.iter().map(|&(m, w, g)| rate(m, w, g)).collect();
        assert_eq!(
            got,
            [
                6_500, 13_500, 27_000, 40_500, 54_000, 81_000, 108_000, 162_000, 216_000, 243_000, 270_000,
                300_000
            ]
        );
        assert_eq!(ModeId::ht(16, false, false), None);
        assert_eq!(ModeId::ht(15, true, true).unwrap().name(), "HtMcs15Ht40Sgi");
    }

    #[test]
    fn ht_standard_modes_and_timing() {
        let n = |band, width40, sgi, streams| Standard::N(HtConfig { band, width40, sgi, streams });
        // 20 MHz, long GI, one stream: MCS 0-7; 40 MHz, short GI, two streams: 16 x 4.
        assert_eq!(n(Band::Ghz5, false, false, 1).ht_modes().len(), 8);
        assert_eq!(n(Band::Ghz5, true, true, 2).ht_modes().len(), 64);
        // Control frames and beacons use the band's non-HT modes and timing.
        let n5 = n(Band::Ghz5, false, false, 1);
        let n24 = n(Band::Ghz2_4, false, false, 1);
        assert_eq!(n5.modes(), Standard::A.modes());
        assert_eq!(n24.modes(), Standard::G.modes());
        assert_eq!(PhyTiming::of(n5, false), PhyTiming::of(Standard::A, false));
        assert_eq!(PhyTiming::of(n24, false), PhyTiming::of(Standard::G, false));
        let has = |m| n5.ht_modes().contains(&m);
        assert!(has(ModeId::ht(7, false, false).unwrap()) && !has(ModeId::ht(7, true, false).unwrap()));
    }

    // VHT and HE modes through the mode table: the index decodes to the format it was made
    // from, the standard's holes are no mode, and TxVector's airtime is vht.rs's and he.rs's.
    #[test]
    fn vht_and_he_modes_round_trip_through_the_table() {
        use crate::phy::he::HeMode;
        use crate::phy::vht::VhtMode;
        let (mut vht, mut he) = (0, 0);
        for i in modes::VHT_BASE..modes::MODE_COUNT as u16 {
            match ModeId(i).modulation() {
                Modulation::Vht(v) => match ModeId::vht(v) {
                    Some(m) => {
                        assert_eq!(m, ModeId(i));
                        vht += 1;
                    }
                    None => assert!(v.check().is_err(), "{v:?}"),
                },
                Modulation::He(h) => {
                    assert_eq!(ModeId::he(h), Some(ModeId(i)));
                    he += 1;
                }
                m => panic!("{i}: {m:?}"),
            }
        }
        // 10 MCS x 4 widths x 4 streams x 2 GIs less the 10 holes of 21.5 (MCS 9 at 20 MHz
        // with 1, 2, 4 streams, MCS 6 at 80 MHz with 3, MCS 9 at 160 MHz with 3, both GIs);
        // 12 x 4 x 4 x 3 HE formats.
        assert_eq!((vht, he), (310, 576));
        assert_eq!(ModeId::vht(VhtMode { mcs: 9, width_mhz: 20, nss: 1, sgi: false }), None);
        let m = ModeId::vht(VhtMode { mcs: 9, width_mhz: 80, nss: 2, sgi: true }).unwrap();
        assert_eq!(m.name(), "VhtMcs9W80Nss2Sgi");
        assert_eq!(ModeId::by_name("VhtMcs9W80Nss2Sgi"), Some(m));
        let h = ModeId::he(HeMode { mcs: 11, width_mhz: 80, nss: 1, gi_ns: 800 }).unwrap();
        assert_eq!(h.name(), "HeMcs11W80Nss1Gi800");
        assert_eq!(ModeId::he(HeMode { mcs: 12, width_mhz: 80, nss: 1, gi_ns: 800 }), None);
        assert_eq!(ModeId::he(HeMode { mcs: 0, width_mhz: 80, nss: 1, gi_ns: 400 }), None);
    }

    // Hand computations from 21.4.3 (VHT) and 27.4.3 (HE) through TxVector::duration.
    #[test]
    fn vht_and_he_airtime_through_the_tx_vector() {
        use crate::phy::he::HeMode;
        use crate::phy::vht::VhtMode;
        let vht = |mcs, width_mhz, nss, sgi| ModeId::vht(VhtMode { mcs, width_mhz, nss, sgi }).unwrap();
        let us =
            |m: ModeId, bytes: u32| TxVector::new(m, Preamble::Long).duration(bytes).ns() as f64 / 1000.0;
        // VHT MCS 9, 80 MHz, 1 stream (390 Mbit/s, Table 21-38): N_DBPS 234 x 8 x 5/6 = 1560,
        // N_ES 1; 1538 bytes: ceil((12304 + 16 + 6) / 1560) = 8 symbols; preamble 8 + 8 + 4 +
        // 8 + 4 + 4 (one VHT-LTF) + 4 (VHT-SIG-B) = 40 us: 72 us.
        assert_eq!(vht(9, 80, 1, false).rate_kbps(), 390_000);
        assert_eq!(us(vht(9, 80, 1, false), 1538), 72.0);
        // The short GI: 8 x 3.6 = 28.8 us, to the 4 us boundary: 32 us, the same 72 us.
        assert_eq!(us(vht(9, 80, 1, true), 1538), 72.0);
        // MCS 0, 20 MHz, 1 stream (6.5 Mbit/s): ceil(12326 / 26) = 475 symbols: 40 + 1900.
        assert_eq!(us(vht(0, 20, 1, false), 1538), 1940.0);
        // 2 streams: two VHT-LTFs (44 us of preamble); MCS 7 at 40 MHz is 2 x 108 x 6 x 5/6 =
        // 1080 bits a symbol: ceil(12326 / 1080) = 12 symbols: 44 + 48 = 92 us.
        assert_eq!(us(vht(7, 40, 2, false), 1538), 92.0);
        // HE MCS 11, 80 MHz, 1 stream, 0.8 us GI (600.5 Mbit/s: the HE-MCS table of a
        // 996-tone RU, 1024-QAM 5/6 over 980 data tones): N_DBPS 8166; 1538 bytes are 12,320
        // bits with SERVICE: 2 symbols of 13.6 us; preamble 20 + RL-SIG 4 + HE-SIG-A 8 +
        // HE-STF 4 + one 2x HE-LTF of 7.2 us = 43.2 us; T_PE 0 (nominal padding 0 us): 70.4 us.
        let he = |mcs, width_mhz, nss, gi_ns| ModeId::he(HeMode { mcs, width_mhz, nss, gi_ns }).unwrap();
        assert_eq!(he(11, 80, 1, 800).rate_kbps(), 600_490);
        assert_eq!(us(he(11, 80, 1, 800), 1538), 70.4);
        // 3.2 us GI: 16 us symbols and a 4x HE-LTF of 16 us: 20 + 16 + 16 + 2 x 16 = 84 us.
        assert_eq!(us(he(11, 80, 1, 3200), 1538), 84.0);
        // In 2.4 GHz the PPDU ends with the 6 us signal extension.
        let mut t = TxVector::new(he(11, 40, 1, 800), Preamble::Long);
        let five = t.duration(1538);
        t.signal_extension = true;
        assert_eq!(t.duration(1538).ns() - five.ns(), 6_000);
        // The duration is vht.rs's and he.rs's TXTIME.
        let v = VhtMode { mcs: 5, width_mhz: 160, nss: 3, sgi: true };
        assert_eq!(
            TxVector::new(ModeId::vht(v).unwrap(), Preamble::Long).duration(65_000).ns(),
            v.txtime_ns(65_000)
        );
        let h = HeMode { mcs: 7, width_mhz: 40, nss: 4, gi_ns: 1600 };
        assert_eq!(
            TxVector::new(ModeId::he(h).unwrap(), Preamble::Long).duration(65_000).ns(),
            h.txtime_ns(65_000, 0, false)
        );
    }

    // 10.6.6.5.2 with Table 10-10's reference rates: a VHT or HE frame is answered at the
    // highest basic rate not above its MCS's non-HT reference rate.
    #[test]
    fn vht_and_he_frames_are_answered_at_their_reference_rate() {
        use crate::phy::he::HeMode;
        use crate::phy::vht::VhtMode;
        let ac = Standard::Ac(VhtConfig { width_mhz: 80, sgi: false, streams: 1 });
        let a = |k: u32| Standard::A.mode(k).unwrap();
        let v9 = ModeId::vht(VhtMode { mcs: 9, width_mhz: 80, nss: 1, sgi: false }).unwrap();
        let v1 = ModeId::vht(VhtMode { mcs: 1, width_mhz: 80, nss: 1, sgi: false }).unwrap();
        assert_eq!(modes::control_answer(ac, v9, a(24_000)), a(24_000)); // 54 >= 24
        assert_eq!(modes::control_answer(ac, v1, a(24_000)), a(12_000)); // QPSK 1/2: 12
        let ax = Standard::Ax(HeConfig { band: Band::Ghz5, width_mhz: 80, gi_ns: 800, streams: 1 });
        let h0 = ModeId::he(HeMode { mcs: 0, width_mhz: 80, nss: 1, gi_ns: 800 }).unwrap();
        assert_eq!(modes::control_answer(ax, h0, a(24_000)), a(6_000));
        assert_eq!(ac.modes(), Standard::A.modes());
        assert_eq!(PhyTiming::of(ax, false), PhyTiming::of(Standard::A, false));
        // The ARF ladder: MCS 0-9 less the holes, ascending by rate.
        let ladder = Standard::Ac(VhtConfig { width_mhz: 20, sgi: false, streams: 1 }).ht_ladder();
        assert_eq!(ladder.len(), 9); // MCS 9 at 20 MHz with one stream does not exist
        assert!(ladder.windows(2).all(|w| w[0].rate_kbps() < w[1].rate_kbps()));
        assert_eq!(ax.ht_ladder().len(), 12);
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
