//! The PHY mode table: every mode airtcp can send, addressed by index. A rate in Mbit/s cannot
//! name a mode (802.11g sends 6 Mbit/s only as ERP-OFDM, and HT MCS 1 and MCS 8 both send
//! 13 Mbit/s), so rate control and the spec pick modes by [`ModeId`]; Python reads this table
//! (`airtcp._core.phy_modes`) instead of keeping a copy. Names follow ns-3's `WifiMode` names.
//!
//! The non-HT and HT modes are the static [`MODES`]; the VHT and HE modes follow them in the
//! index space, computed from the index (MCS, width, streams, guard interval), so that a
//! [`ModeId`] stays two bytes and the legacy modes cost no more to look up than before.

use std::sync::{Mutex, OnceLock};

use super::he::HeMode;
use super::vht::VhtMode;
use super::{Band, HtConfig, Modulation, Standard};

/// Index of a mode: in [`MODES`] below [`VHT_BASE`], then the VHT and HE modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModeId(pub u16);

/// The first VHT mode's index: VHT MCS `m` at width index `w` (20, 40, 80, 160 MHz), `nss`
/// streams and the short GI or not is `VHT_BASE + ((4 m + w) 4 + nss - 1) 2 + sgi` (the
/// standard's holes keep their index and are never a mode).
pub const VHT_BASE: u16 = MODES.len() as u16;
const VHT_COUNT: u16 = 10 * 4 * 4 * 2;
/// The first HE mode's index: HE MCS `m`, width index `w`, `nss`, guard interval index `g`
/// (0.8, 1.6, 3.2 us) at `HE_BASE + ((4 m + w) 4 + nss - 1) 3 + g`.
pub const HE_BASE: u16 = VHT_BASE + VHT_COUNT;
const HE_COUNT: u16 = 12 * 4 * 4 * 3;
/// Size of the index space: per-mode tables are this long.
pub const MODE_COUNT: usize = (HE_BASE + HE_COUNT) as usize;

/// Every mode's format by index, made at compile time: [`MODES`]'s, then each VHT and HE
/// index decoded (the standard's VHT holes included; [`ModeId::vht`] never names them).
static MODULATIONS: [Modulation; MODE_COUNT] = modulations();

const fn modulations() -> [Modulation; MODE_COUNT] {
    let mut out = [Modulation::Dsss { rate_kbps: 0 }; MODE_COUNT];
    let mut i = 0;
    while i < MODE_COUNT {
        out[i] = if i < MODES.len() { MODES[i].modulation } else { decode(i as u16) };
        i += 1;
    }
    out
}

/// The VHT or HE format at index `i` (at least [`VHT_BASE`]).
const fn decode(i: u16) -> Modulation {
    let widths = super::vht::WIDTHS_MHZ;
    if i < HE_BASE {
        let i = i - VHT_BASE;
        let (sgi, nss, w, mcs) = (i % 2 == 1, (i / 2) % 4 + 1, (i / 8) % 4, i / 32);
        return Modulation::Vht(VhtMode {
            mcs: mcs as u8,
            width_mhz: widths[w as usize],
            nss: nss as u8,
            sgi,
        });
    }
    let i = i - HE_BASE;
    let (g, nss, w, mcs) = (i % 3, (i / 3) % 4 + 1, (i / 12) % 4, i / 48);
    Modulation::He(HeMode {
        mcs: mcs as u8,
        width_mhz: widths[w as usize],
        nss: nss as u8,
        gi_ns: super::he::GUARD_INTERVALS_NS[g as usize],
    })
}

fn width_index(width_mhz: u16) -> Option<u16> {
    super::vht::WIDTHS_MHZ.iter().position(|&w| w == width_mhz).map(|i| i as u16)
}

/// One mode of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeInfo {
    pub name: &'static str,
    pub modulation: Modulation,
}

const fn dsss(name: &'static str, rate_kbps: u32) -> ModeInfo {
    ModeInfo { name, modulation: Modulation::Dsss { rate_kbps } }
}

const fn ofdm(name: &'static str, rate_kbps: u32, erp: bool) -> ModeInfo {
    ModeInfo { name, modulation: Modulation::Ofdm { rate_kbps, erp } }
}

const fn ht(name: &'static str, mcs: u8, width40: bool, sgi: bool) -> ModeInfo {
    ModeInfo { name, modulation: Modulation::Ht { mcs, width40, sgi } }
}

/// Every mode: DSSS 1 and 2 Mbit/s (Clause 15) and HR/DSSS CCK 5.5 and 11 Mbit/s (Clause 16),
/// also sent as ERP-DSSS/CCK in 802.11g; OFDM 6-54 Mbit/s (Clause 17, Table 17-4); ERP-OFDM
/// 6-54 Mbit/s (Clause 18, 18.3.2.4: OFDM plus a 6 us signal extension); HT MCS 0-15 (Clause
/// 19, Tables 19-27 to 19-30) at 20 and 40 MHz with the long (800 ns) and short (400 ns) guard
/// interval, named as ns-3 names the MCS (`HtMcs7`) with `Ht40` and `Sgi` for the other widths
/// and intervals: one mode per rate a station can send, as ath9k's and Minstrel-HT's tables
/// list them (paper 002's Table I is 12 of these).
pub static MODES: [ModeInfo; 84] = [
    dsss("DsssRate1Mbps", 1000),
    dsss("DsssRate2Mbps", 2000),
    dsss("DsssRate5_5Mbps", 5500),
    dsss("DsssRate11Mbps", 11000),
    ofdm("OfdmRate6Mbps", 6000, false),
    ofdm("OfdmRate9Mbps", 9000, false),
    ofdm("OfdmRate12Mbps", 12000, false),
    ofdm("OfdmRate18Mbps", 18000, false),
    ofdm("OfdmRate24Mbps", 24000, false),
    ofdm("OfdmRate36Mbps", 36000, false),
    ofdm("OfdmRate48Mbps", 48000, false),
    ofdm("OfdmRate54Mbps", 54000, false),
    ofdm("ErpOfdmRate6Mbps", 6000, true),
    ofdm("ErpOfdmRate9Mbps", 9000, true),
    ofdm("ErpOfdmRate12Mbps", 12000, true),
    ofdm("ErpOfdmRate18Mbps", 18000, true),
    ofdm("ErpOfdmRate24Mbps", 24000, true),
    ofdm("ErpOfdmRate36Mbps", 36000, true),
    ofdm("ErpOfdmRate48Mbps", 48000, true),
    ofdm("ErpOfdmRate54Mbps", 54000, true),
    ht("HtMcs0", 0, false, false),
    ht("HtMcs0Sgi", 0, false, true),
    ht("HtMcs0Ht40", 0, true, false),
    ht("HtMcs0Ht40Sgi", 0, true, true),
    ht("HtMcs1", 1, false, false),
    ht("HtMcs1Sgi", 1, false, true),
    ht("HtMcs1Ht40", 1, true, false),
    ht("HtMcs1Ht40Sgi", 1, true, true),
    ht("HtMcs2", 2, false, false),
    ht("HtMcs2Sgi", 2, false, true),
    ht("HtMcs2Ht40", 2, true, false),
    ht("HtMcs2Ht40Sgi", 2, true, true),
    ht("HtMcs3", 3, false, false),
    ht("HtMcs3Sgi", 3, false, true),
    ht("HtMcs3Ht40", 3, true, false),
    ht("HtMcs3Ht40Sgi", 3, true, true),
    ht("HtMcs4", 4, false, false),
    ht("HtMcs4Sgi", 4, false, true),
    ht("HtMcs4Ht40", 4, true, false),
    ht("HtMcs4Ht40Sgi", 4, true, true),
    ht("HtMcs5", 5, false, false),
    ht("HtMcs5Sgi", 5, false, true),
    ht("HtMcs5Ht40", 5, true, false),
    ht("HtMcs5Ht40Sgi", 5, true, true),
    ht("HtMcs6", 6, false, false),
    ht("HtMcs6Sgi", 6, false, true),
    ht("HtMcs6Ht40", 6, true, false),
    ht("HtMcs6Ht40Sgi", 6, true, true),
    ht("HtMcs7", 7, false, false),
    ht("HtMcs7Sgi", 7, false, true),
    ht("HtMcs7Ht40", 7, true, false),
    ht("HtMcs7Ht40Sgi", 7, true, true),
    ht("HtMcs8", 8, false, false),
    ht("HtMcs8Sgi", 8, false, true),
    ht("HtMcs8Ht40", 8, true, false),
    ht("HtMcs8Ht40Sgi", 8, true, true),
    ht("HtMcs9", 9, false, false),
    ht("HtMcs9Sgi", 9, false, true),
    ht("HtMcs9Ht40", 9, true, false),
    ht("HtMcs9Ht40Sgi", 9, true, true),
    ht("HtMcs10", 10, false, false),
    ht("HtMcs10Sgi", 10, false, true),
    ht("HtMcs10Ht40", 10, true, false),
    ht("HtMcs10Ht40Sgi", 10, true, true),
    ht("HtMcs11", 11, false, false),
    ht("HtMcs11Sgi", 11, false, true),
    ht("HtMcs11Ht40", 11, true, false),
    ht("HtMcs11Ht40Sgi", 11, true, true),
    ht("HtMcs12", 12, false, false),
    ht("HtMcs12Sgi", 12, false, true),
    ht("HtMcs12Ht40", 12, true, false),
    ht("HtMcs12Ht40Sgi", 12, true, true),
    ht("HtMcs13", 13, false, false),
    ht("HtMcs13Sgi", 13, false, true),
    ht("HtMcs13Ht40", 13, true, false),
    ht("HtMcs13Ht40Sgi", 13, true, true),
    ht("HtMcs14", 14, false, false),
    ht("HtMcs14Sgi", 14, false, true),
    ht("HtMcs14Ht40", 14, true, false),
    ht("HtMcs14Ht40Sgi", 14, true, true),
    ht("HtMcs15", 15, false, false),
    ht("HtMcs15Sgi", 15, false, true),
    ht("HtMcs15Ht40", 15, true, false),
    ht("HtMcs15Ht40Sgi", 15, true, true),
];

/// Index of the first HT mode in [`MODES`]; HT MCS `m` at width `w40` and interval `sgi` is
/// at `HT_BASE + 4 m + 2 w40 + sgi`.
const HT_BASE: u8 = 20;

/// DSSS 1 Mbit/s, the lowest mandatory rate of 802.11b and of b/g mixed mode.
pub const DSSS_1: ModeId = ModeId(0);
/// OFDM 6 Mbit/s, the lowest mandatory rate of 802.11a.
pub const OFDM_6: ModeId = ModeId(4);
/// ERP-OFDM 6 Mbit/s, the lowest mandatory OFDM rate of 802.11g.
pub const ERP_OFDM_6: ModeId = ModeId(12);

/// The modes of each standard, ascending by rate: 802.11b (Clauses 15/16), 802.11a (Clause 17),
/// 802.11g (Clause 18: ERP-DSSS/CCK and ERP-OFDM).
const MODES_B: [ModeId; 4] = [ModeId(0), ModeId(1), ModeId(2), ModeId(3)];
const MODES_A: [ModeId; 8] =
    [ModeId(4), ModeId(5), ModeId(6), ModeId(7), ModeId(8), ModeId(9), ModeId(10), ModeId(11)];
const MODES_G: [ModeId; 12] = [
    ModeId(0),
    ModeId(1),
    ModeId(2),
    ModeId(12),
    ModeId(13),
    ModeId(3),
    ModeId(14),
    ModeId(15),
    ModeId(16),
    ModeId(17),
    ModeId(18),
    ModeId(19),
];

/// Modulation classes (802.11-2020 Table 10-11 / ns-3's `WifiModulationClass`): what a
/// control response may be sent in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModClass {
    /// DSSS, 1 and 2 Mbit/s (Clause 15).
    Dsss,
    /// HR/DSSS CCK, 5.5 and 11 Mbit/s (Clause 16).
    HrDsss,
    /// OFDM (Clause 17).
    Ofdm,
    /// ERP-OFDM (Clause 18).
    ErpOfdm,
    /// HT (Clause 19).
    Ht,
    /// VHT (Clause 21).
    Vht,
    /// HE (Clause 27).
    He,
}

impl ModClass {
    /// Whether a control response to a frame of this class may be sent in `answer`
    /// (ns-3 `IsAllowedControlAnswerModulationClass`, after 10.6.6.5.2: an ERP station may
    /// answer an ERP-OFDM frame at a DSSS or HR/DSSS rate).
    pub fn answer_allowed(self, answer: ModClass) -> bool {
        use ModClass::*;
        match self {
            Dsss => answer == Dsss,
            HrDsss => matches!(answer, Dsss | HrDsss),
            ErpOfdm => matches!(answer, Dsss | HrDsss | ErpOfdm),
            Ofdm => answer == Ofdm,
            // ns-3 3.44 wifi-phy-common.cc: any class answers an HT frame; the band's own
            // modes are the only candidates (`control_answer`).
            Ht | Vht | He => true,
        }
    }
}

/// The rate at which a station answers (ACK, CTS, Block Ack) a frame sent at `req` when the
/// BSS basic rate set is `{basic}` (10.6.6.5.2; ns-3 `WifiRemoteStationManager::
/// GetControlAnswerMode`): the highest basic rate not above `req`'s (for an HT frame its
/// non-HT reference rate, 10.6.6.5.2 and Table 10-10: the non-HT rate of the same modulation
/// and coding) in an allowed class, else the highest mandatory rate of the standard not above
/// it in an allowed class, else `req` itself.
pub fn control_answer(standard: Standard, req: ModeId, basic: ModeId) -> ModeId {
    let allowed =
        |m: ModeId| req.class().answer_allowed(m.class()) && m.rate_kbps() <= req.reference_rate_kbps();
    if allowed(basic) {
        return basic;
    }
    standard.modes().iter().rev().copied().find(|&m| m.mandatory() && allowed(m)).unwrap_or(req)
}

impl ModeId {
    /// The mode's name: ns-3's for the non-HT and HT modes; for VHT and HE, ns-3's MCS name
    /// with the width, streams and guard interval ns-3 keeps in its TXVECTOR
    /// (`VhtMcs9W80Nss2Sgi`, `HeMcs11W80Nss1Gi800`).
    pub fn name(self) -> &'static str {
        if self.0 < VHT_BASE {
            return MODES[usize::from(self.0)].name;
        }
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        let names = NAMES.get_or_init(|| {
            (VHT_BASE..MODE_COUNT as u16)
                .map(|i| {
                    let name = match ModeId(i).modulation() {
                        Modulation::Vht(v) => format!(
                            "VhtMcs{}W{}Nss{}{}",
                            v.mcs,
                            v.width_mhz,
                            v.nss,
                            if v.sgi { "Sgi" } else { "" }
                        ),
                        Modulation::He(h) => {
                            format!("HeMcs{}W{}Nss{}Gi{}", h.mcs, h.width_mhz, h.nss, h.gi_ns)
                        }
                        _ => unreachable!("indices past the table are VHT and HE"),
                    };
                    &*Box::leak(name.into_boxed_str()) // once per process, 896 names
                })
                .collect()
        });
        names[usize::from(self.0 - VHT_BASE)]
    }

    /// The mode's format: one load from [`MODULATIONS`], whatever the mode.
    #[inline(always)]
    pub fn modulation(self) -> Modulation {
        MODULATIONS[usize::from(self.0)]
    }

    /// VHT MCS `mcs` at `width_mhz` with `nss` streams and the short GI or not; None for a
    /// format the standard leaves out (21.5) or out of range.
    pub fn vht(m: VhtMode) -> Option<ModeId> {
        m.check().ok()?;
        let w = width_index(m.width_mhz)?;
        Some(ModeId(
            VHT_BASE + ((4 * u16::from(m.mcs) + w) * 4 + u16::from(m.nss) - 1) * 2 + u16::from(m.sgi),
        ))
    }

    /// HE MCS `mcs` at `width_mhz`, `nss` streams and a guard interval of `gi_ns`; None out of
    /// range.
    pub fn he(m: HeMode) -> Option<ModeId> {
        m.check().ok()?;
        let w = width_index(m.width_mhz)?;
        let g = super::he::GUARD_INTERVALS_NS.iter().position(|&g| g == m.gi_ns)? as u16;
        Some(ModeId(HE_BASE + ((4 * u16::from(m.mcs) + w) * 4 + u16::from(m.nss) - 1) * 3 + g))
    }

    pub fn rate_kbps(self) -> u32 {
        self.modulation().rate_kbps()
    }

    pub fn class(self) -> ModClass {
        match self.modulation() {
            Modulation::Dsss { rate_kbps } if rate_kbps <= 2000 => ModClass::Dsss,
            Modulation::Dsss { .. } => ModClass::HrDsss,
            Modulation::Ofdm { erp: false, .. } => ModClass::Ofdm,
            Modulation::Ofdm { erp: true, .. } => ModClass::ErpOfdm,
            Modulation::Ht { .. } => ModClass::Ht,
            Modulation::Vht(_) => ModClass::Vht,
            Modulation::He(_) => ModClass::He,
        }
    }

    /// The rate a control response is chosen against (10.6.6.5.2): the mode's own rate, or
    /// for an HT mode the non-HT reference rate of its modulation and coding (Table 10-10;
    /// ns-3 `HtPhy::CalculateNonHtReferenceRate`): BPSK 1/2 6, QPSK 1/2 12, QPSK 3/4 18,
    /// 16-QAM 1/2 24, 16-QAM 3/4 36, 64-QAM 2/3 48, 64-QAM 3/4 and 5/6 54 Mbit/s.
    pub fn reference_rate_kbps(self) -> u32 {
        match self.modulation() {
            Modulation::Ht { mcs, .. } => {
                [6000, 12000, 18000, 24000, 36000, 48000, 54000, 54000][usize::from(mcs % 8)]
            }
            Modulation::Vht(v) => (v.nonht_reference_bps() / 1000) as u32,
            Modulation::He(h) => (h.nonht_reference_bps() / 1000) as u32,
            m => m.rate_kbps(),
        }
    }

    /// HT MCS `mcs` (0-15) at 40 MHz (`width40`) or 20, with the short guard interval or not.
    pub fn ht(mcs: u8, width40: bool, sgi: bool) -> Option<ModeId> {
        (mcs < 16).then(|| ModeId(u16::from(HT_BASE + 4 * mcs + 2 * u8::from(width40) + u8::from(sgi))))
    }

    /// A mandatory rate of its PHY: DSSS 1, 2 (15.1), HR/DSSS 5.5, 11 (16.1), OFDM and
    /// ERP-OFDM 6, 12, 24 Mbit/s (17.3.2.2, 18.1).
    pub fn mandatory(self) -> bool {
        match self.class() {
            ModClass::Dsss | ModClass::HrDsss => true,
            ModClass::Ofdm | ModClass::ErpOfdm => matches!(self.rate_kbps(), 6000 | 12000 | 24000),
            // HT MCS 0-7 are mandatory (19.1.1) but never a control response's rate here,
            // nor is a VHT or HE MCS.
            ModClass::Ht | ModClass::Vht | ModClass::He => false,
        }
    }

    /// The mode called `name` (ns-3's name, e.g. `OfdmRate54Mbps`).
    pub fn by_name(name: &str) -> Option<ModeId> {
        // The static table first: a legacy or HT name never builds the VHT and HE names.
        match MODES.iter().position(|m| m.name == name) {
            Some(i) => Some(ModeId(i as u16)),
            None => ModeId::all().skip(MODES.len()).find(|m| m.name() == name),
        }
    }

    /// Every mode, in index order (the VHT formats the standard leaves out skipped).
    pub fn all() -> impl Iterator<Item = ModeId> {
        (0..MODE_COUNT as u16).map(ModeId).filter(|m| match m.modulation() {
            Modulation::Vht(v) => v.check().is_ok(),
            _ => true,
        })
    }
}

/// The mode list `make` gives each HT configuration, made once for all 16 (two bands, two
/// widths, both guard intervals, one or two streams) and kept for the run's life; empty for a
/// non-HT standard.
fn per_ht_config(
    sets: &'static OnceLock<Vec<(HtConfig, Vec<ModeId>)>>,
    standard: Standard,
    make: fn(HtConfig) -> Vec<ModeId>,
) -> &'static [ModeId] {
    let Standard::N(cfg) = standard else { return &[] };
    let all = sets.get_or_init(|| {
        let mut out = Vec::new();
        for band in [Band::Ghz2_4, Band::Ghz5] {
            for width40 in [false, true] {
                for sgi in [false, true] {
                    for streams in [1u8, 2] {
                        let c = HtConfig { band, width40, sgi, streams };
                        out.push((c, make(c)));
                    }
                }
            }
        }
        out
    });
    all.iter().find(|(c, _)| *c == cfg).map_or(&[], |(_, m)| m.as_slice())
}

/// 802.11g's modes by modulation class (DSSS, HR/DSSS, then ERP-OFDM), as ns-3's
/// `WifiPhy::GetModeList` and Linux's 2.4 GHz band tables list them.
const MODES_G_BY_CLASS: [ModeId; 12] = [
    ModeId(0),
    ModeId(1),
    ModeId(2),
    ModeId(3),
    ModeId(12),
    ModeId(13),
    ModeId(14),
    ModeId(15),
    ModeId(16),
    ModeId(17),
    ModeId(18),
    ModeId(19),
];

impl Standard {
    /// The modes in the order ns-3 and Linux list a station's rates: by modulation class, then
    /// by rate (on 802.11g 11 Mbit/s CCK comes before 6 Mbit/s ERP-OFDM). ns-3's ARF and AARF
    /// step through this list, and Minstrel's tables follow it.
    pub fn modes_by_class(self) -> &'static [ModeId] {
        match self {
            Standard::G => &MODES_G_BY_CLASS,
            Standard::N(_) | Standard::Ac(_) | Standard::Ax(_) => self.legacy().modes_by_class(),
            s => s.modes(),
        }
    }

    /// The non-HT modes of the standard (of its band, for 802.11n), ascending by rate: every
    /// rate of 802.11a/b/g, and 802.11n's control-frame and beacon rates.
    pub fn modes(self) -> &'static [ModeId] {
        match self {
            Standard::A => &MODES_A,
            Standard::B => &MODES_B,
            Standard::G => &MODES_G,
            Standard::N(_) | Standard::Ac(_) | Standard::Ax(_) => self.legacy().modes(),
        }
    }

    /// The HT modes an 802.11n BSS's stations can send (empty for the others): MCS 0 to 8 x
    /// streams - 1 at 20 MHz and, on a 40 MHz channel, at 40; with the long guard interval
    /// and, where supported, the short one. In MCS order, 20 MHz before 40, long GI first.
    pub fn ht_modes(self) -> &'static [ModeId] {
        static SETS: OnceLock<Vec<(HtConfig, Vec<ModeId>)>> = OnceLock::new();
        per_ht_config(&SETS, self, |c| {
            (0..8 * c.streams)
                .flat_map(|mcs| {
                    [(false, false), (false, true), (true, false), (true, true)]
                        .into_iter()
                        .filter(move |&(w, g)| (!w || c.width40) && (!g || c.sgi))
                        .filter_map(move |(w, g)| ModeId::ht(mcs, w, g))
                })
                .collect()
        })
    }

    /// Rates of the standard [kbit/s], ascending.
    pub fn rates_kbps(self) -> impl Iterator<Item = u32> {
        self.modes().iter().map(|m| m.rate_kbps())
    }

    /// The non-HT mode of this standard sending at `rate_kbps`, if it has that rate (each
    /// rate has one non-HT mode per standard; HT modes are named, [`ModeId::by_name`]).
    pub fn mode(self, rate_kbps: u32) -> Option<ModeId> {
        self.modes().iter().copied().find(|m| m.rate_kbps() == rate_kbps)
    }

    /// The HT modes the ARF family climbs on an 802.11n BSS (empty for the others): MCS 0 to
    /// 8 x streams - 1 at the channel's width with its guard interval (short if supported),
    /// ascending by rate, a rate two MCS share taken once at its single-stream MCS (13 Mbit/s
    /// is MCS 1, not MCS 8).
    pub fn ht_ladder(self) -> &'static [ModeId] {
        if matches!(self, Standard::Ac(_) | Standard::Ax(_)) {
            return mcs_ladder(self);
        }
        static SETS: OnceLock<Vec<(HtConfig, Vec<ModeId>)>> = OnceLock::new();
        per_ht_config(&SETS, self, |c| {
            let mut modes: Vec<ModeId> =
                (0..8 * c.streams).filter_map(|m| ModeId::ht(m, c.width40, c.sgi)).collect();
            modes.sort_by_key(|m| m.rate_kbps()); // stable: MCS order on ties
            modes.dedup_by_key(|m| m.rate_kbps());
            modes
        })
    }
}

/// The VHT or HE modes the ARF family climbs on an 802.11ac or 802.11ax channel (empty for
/// the others): MCS 0-9 or 0-11 at its width, streams and guard interval, ascending by rate,
/// the VHT holes of 21.5 left out. Made once per configuration (at most 32 VHT and 96 HE
/// exist) and kept for the process's life.
fn mcs_ladder(standard: Standard) -> &'static [ModeId] {
    static CACHE: Mutex<Vec<(Standard, &'static [ModeId])>> = Mutex::new(Vec::new());
    let mut all = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, m)) = all.iter().find(|(s, _)| *s == standard) {
        return m;
    }
    let modes: Vec<ModeId> = match standard {
        Standard::Ac(c) => (0..=super::vht::MAX_MCS)
            .filter_map(|mcs| {
                ModeId::vht(VhtMode { mcs, width_mhz: c.width_mhz, nss: c.streams, sgi: c.sgi })
            })
            .collect(),
        Standard::Ax(c) => (0..=super::he::MAX_MCS)
            .filter_map(|mcs| {
                ModeId::he(HeMode { mcs, width_mhz: c.width_mhz, nss: c.streams, gi_ns: c.gi_ns })
            })
            .collect(),
        _ => Vec::new(),
    };
    let modes: &'static [ModeId] = Box::leak(modes.into_boxed_slice());
    all.push((standard, modes));
    modes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_standard_lists_its_modes_ascending_and_of_its_own_kind() {
        for s in [Standard::A, Standard::B, Standard::G] {
            let rates: Vec<u32> = s.rates_kbps().collect();
            assert!(rates.windows(2).all(|w| w[0] < w[1]), "{s:?} {rates:?}");
            for m in s.modes() {
                let ok = match (s, m.modulation()) {
                    (Standard::B, Modulation::Dsss { .. }) => true,
                    (Standard::A, Modulation::Ofdm { erp, .. }) => !erp,
                    (Standard::G, Modulation::Dsss { .. }) => true,
                    (Standard::G, Modulation::Ofdm { erp, .. }) => erp,
                    _ => false,
                };
                assert!(ok, "{s:?} {}", m.name());
            }
        }
        // Table 17-4: eight OFDM rates; 802.11g adds the four DSSS/CCK rates (Clause 18.1).
        assert_eq!(
            (Standard::A.modes().len(), Standard::B.modes().len(), Standard::G.modes().len()),
            (8, 4, 12)
        );
    }

    #[test]
    fn control_answers_follow_the_basic_rate_rule() {
        let m = |s: Standard, k: u32| s.mode(k).unwrap();
        let (a, b, g) = (Standard::A, Standard::B, Standard::G);
        // The basic rate when it is not above the data rate and of an allowed class.
        assert_eq!(control_answer(a, m(a, 54_000), m(a, 6_000)), m(a, 6_000));
        assert_eq!(control_answer(b, m(b, 11_000), m(b, 1_000)), m(b, 1_000)); // HR/DSSS -> DSSS
        assert_eq!(control_answer(g, m(g, 54_000), m(g, 1_000)), m(g, 1_000)); // ERP -> DSSS
                                                                               // Above the data rate: the highest mandatory rate not above it.
        assert_eq!(control_answer(a, m(a, 9_000), m(a, 24_000)), m(a, 6_000));
        assert_eq!(control_answer(a, m(a, 18_000), m(a, 24_000)), m(a, 12_000));
        assert_eq!(control_answer(b, m(b, 2_000), m(b, 11_000)), m(b, 2_000));
        // A DSSS frame is never answered in ERP-OFDM, nor in HR/DSSS.
        assert_eq!(control_answer(g, m(g, 2_000), m(g, 6_000)), m(g, 2_000));
        assert_eq!(control_answer(g, m(g, 5_500), m(g, 6_000)), m(g, 5_500));
    }

    #[test]
    fn ht_frames_are_answered_at_their_non_ht_reference_rate() {
        use crate::phy::{HtConfig, Modulation};
        let n = Standard::N(HtConfig::default());
        let a = |k: u32| Standard::A.mode(k).unwrap();
        let mcs = |m| ModeId::ht(m, false, false).unwrap();
        // Table 10-10's reference rates: MCS 7 (64-QAM 5/6) -> 54, MCS 1 (QPSK 1/2) -> 12,
        // MCS 9 (two streams of QPSK 1/2) -> 12 Mbit/s.
        assert_eq!(mcs(7).reference_rate_kbps(), 54_000);
        assert_eq!(mcs(9).reference_rate_kbps(), 12_000);
        // The basic rate when it is not above the reference rate, else the highest mandatory
        // rate not above it (10.6.6.5.2).
        assert_eq!(control_answer(n, mcs(7), a(6_000)), a(6_000));
        assert_eq!(control_answer(n, mcs(7), a(24_000)), a(24_000));
        assert_eq!(control_answer(n, mcs(1), a(24_000)), a(12_000));
        assert_eq!(control_answer(n, mcs(0), a(24_000)), a(6_000));
        assert!(matches!(mcs(7).modulation(), Modulation::Ht { mcs: 7, .. }));
    }

    #[test]
    fn names_are_unique_and_round_trip() {
        for m in ModeId::all() {
            assert_eq!(ModeId::by_name(m.name()), Some(m));
        }
        assert_eq!(ModeId::by_name("OfdmRate7Mbps"), None);
        // 6 Mbit/s is two modes: the rate alone does not name one.
        assert_ne!(Standard::A.mode(6000), Standard::G.mode(6000));
    }
}
