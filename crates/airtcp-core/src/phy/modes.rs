//! The PHY mode table: every mode airtcp can send, addressed by index. A rate in Mbit/s cannot
//! name a mode (802.11g sends 6 Mbit/s only as ERP-OFDM, and HT MCS 1 and MCS 8 both send
//! 13 Mbit/s), so rate control and the spec pick modes by [`ModeId`]; Python reads this table
//! (`airtcp._core.phy_modes`) instead of keeping a copy. Names follow ns-3's `WifiMode` names.

use super::{Modulation, Standard};

/// Index of a mode in [`MODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModeId(pub u8);

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

/// Every mode: DSSS 1 and 2 Mbit/s (Clause 15) and HR/DSSS CCK 5.5 and 11 Mbit/s (Clause 16),
/// also sent as ERP-DSSS/CCK in 802.11g; OFDM 6-54 Mbit/s (Clause 17, Table 17-4); ERP-OFDM
/// 6-54 Mbit/s (Clause 18, 18.3.2.4: OFDM plus a 6 us signal extension).
pub static MODES: [ModeInfo; 20] = [
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
];

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
        }
    }
}

/// The rate at which a station answers (ACK, CTS) a frame sent at `req` when the BSS basic
/// rate set is `{basic}` (10.6.6.5.2; ns-3 `WifiRemoteStationManager::GetControlAnswerMode`):
/// the highest basic rate not above `req` in an allowed class, else the highest mandatory
/// rate of the standard not above `req` in an allowed class, else `req` itself.
pub fn control_answer(standard: Standard, req: ModeId, basic: ModeId) -> ModeId {
    let allowed = |m: ModeId| req.class().answer_allowed(m.class()) && m.rate_kbps() <= req.rate_kbps();
    if allowed(basic) {
        return basic;
    }
    standard.modes().iter().rev().copied().find(|&m| m.mandatory() && allowed(m)).unwrap_or(req)
}

impl ModeId {
    pub fn info(self) -> &'static ModeInfo {
        &MODES[usize::from(self.0)]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn modulation(self) -> Modulation {
        self.info().modulation
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
        }
    }

    /// A mandatory rate of its PHY: DSSS 1, 2 (15.1), HR/DSSS 5.5, 11 (16.1), OFDM and
    /// ERP-OFDM 6, 12, 24 Mbit/s (17.3.2.2, 18.1).
    pub fn mandatory(self) -> bool {
        match self.class() {
            ModClass::Dsss | ModClass::HrDsss => true,
            ModClass::Ofdm | ModClass::ErpOfdm => matches!(self.rate_kbps(), 6000 | 12000 | 24000),
        }
    }

    /// The mode called `name` (ns-3's name, e.g. `OfdmRate54Mbps`).
    pub fn by_name(name: &str) -> Option<ModeId> {
        MODES.iter().position(|m| m.name == name).map(|i| ModeId(i as u8))
    }

    /// Every mode of the table, in index order.
    pub fn all() -> impl Iterator<Item = ModeId> {
        (0..MODES.len()).map(|i| ModeId(i as u8))
    }
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
            s => s.modes(),
        }
    }

    /// The modes of the standard, ascending by rate.
    pub fn modes(self) -> &'static [ModeId] {
        match self {
            Standard::A => &MODES_A,
            Standard::B => &MODES_B,
            Standard::G => &MODES_G,
        }
    }

    /// Rates of the standard [kbit/s], ascending.
    pub fn rates_kbps(self) -> impl Iterator<Item = u32> {
        self.modes().iter().map(|m| m.rate_kbps())
    }

    /// The mode of this standard sending at `rate_kbps`, if it has that rate (each rate has
    /// one mode per non-HT standard).
    pub fn mode(self, rate_kbps: u32) -> Option<ModeId> {
        self.modes().iter().copied().find(|m| m.rate_kbps() == rate_kbps)
    }
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
    fn names_are_unique_and_round_trip() {
        for m in ModeId::all() {
            assert_eq!(ModeId::by_name(m.name()), Some(m));
        }
        assert_eq!(ModeId::by_name("OfdmRate7Mbps"), None);
        // 6 Mbit/s is two modes: the rate alone does not name one.
        assert_ne!(Standard::A.mode(6000), Standard::G.mode(6000));
    }
}
