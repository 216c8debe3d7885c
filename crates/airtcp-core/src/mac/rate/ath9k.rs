//! The ath9k driver's own rate control as in Linux 3.2 (`drivers/net/wireless/ath/ath9k/rc.c`
//! and `rc.h`, `CONFIG_ATH9K_RATE_CONTROL`, `default y`; `init.c` names it the driver's
//! `rate_control_algorithm`), the algorithm paper 002's ath9k station ran.
//!
//! - A rate table per band (`ar5416_11na_ratetable`, `ar5416_11ng_ratetable`): each entry a PHY
//!   (OFDM, CCK, HT20/HT40 with 1-3 streams, long or short GI), its rate, the "user" rate the
//!   throughput estimate uses, and `RC_*` flags saying for which peers (20 or 40 MHz; one,
//!   two or three streams) it is valid. A peer's valid rates are the entries its capabilities
//!   allow, sorted by rate (`ath_rc_init`): a 2-stream HT40 SGI peer in 5 GHz gets exactly
//!   paper 002's 12 rates of Table I.
//! - A packet error rate (PER, percent) per table entry, `per = 7/8 per + 1/8 cur_per` on each
//!   status, +30 for an entry whose frame failed completely, every PER x 7/8 every 50 ms, kept
//!   monotonic in the table index (`ath_rc_update_per`, `ath_rc_update_ht`).
//! - The rate is the valid one up to `rate_max_phy` with the best `user_ratekbps x (100 -
//!   max(PER, 12))` (`ath_rc_get_highest_rix`). `rate_max_phy` starts at the fourth-highest
//!   valid rate, drops one valid rate when a rate at or below it reaches PER 55, and rises one
//!   when a probe succeeds: a frame sent once at the next valid rate above it, at most every
//!   50 ms (25 ms after a successful probe), and only after a frame was acknowledged at
//!   `rate_max_phy` at its first try.
//! - The multi-rate retry series of a frame (`ath_get_rate`): the rate and the next three
//!   lower valid rates with 4/4/4/8 tries (a probe: 1 try at the probe rate, then 4/4/8 below
//!   it); the last entry is the best legacy rate instead (the 6 Mbit/s OFDM entry in 5 GHz,
//!   never a valid rate of an HT peer) when the frame is not in a Block Ack session or the
//!   chosen rate's PER is above 45. The driver sends a probe, and a series with a legacy rate,
//!   as a single MPDU (`ath_lookup_rate` gives such a frame an aggregate limit of 0, and
//!   `ath_tx_form_aggr` adds no probe after a first frame): [`RateSeries::aggregable`].
//!
//! Reference: compat-wireless v3.2.5-1 (the Linux 3.2.5 wireless stack),
//! `JamesTPan/compat-wireless-3.2.5-1-ranc` @ b6bb5159, files `drivers/net/wireless/ath/ath9k/
//! {rc.c,rc.h,xmit.c,init.c,Kconfig}`. Its `rc.c` adds marked "coding" hooks (a fixed rate
//! for its own frame type; not used here). An upstream `rc.c` of the 3.1 era reads the same,
//! function by function, but for the fix in `ath_rc_init` that starts `rate_max_phy` at the
//! highest rate when a peer has 4 valid rates or fewer (else, as here, the fourth highest;
//! every HT peer has at least 8). The two tables were checked entry by entry against the C.
//!
//! How the driver feeds it (`xmit.c`, the caller's part): mac80211 asks for the series of
//! every MPDU as it hands the frame to the driver (`ieee80211_tx_h_rate_ctrl`, before the
//! driver's software queue), and an A-MPDU is sent with the series of its first MPDU. A
//! status is reported once per PPDU (`ath_tx_rc_status`): for a frame outside a Block Ack
//! session, whether it was acknowledged; for an A-MPDU, on the first of its MPDUs that
//! completes (acknowledged, or given up after `ATH_MAX_SW_RETRIES`), with `acked` that MPDU's
//! fate, the number of MPDUs and the number not acknowledged in the Block Ack; an A-MPDU whose
//! MPDUs are all put back for a software retry reports nothing.
//!
//! Left out: the fragment case (a single series of `ATH_TXMAXTRY` 13 tries); the RTS/CTS rate
//! (`ath_rc_rate_set_rtscts`) and the RTS threshold's flag on every entry (`txrc->rts`, the
//! MAC's decision); LDPC and STBC flags; a change of the peer's width or guard interval after
//! association (`ath_rate_update`); the check that drops a status sent at 40 MHz after a
//! switch to 20 (the width is fixed here); non-HT peers (the 11a and 11g tables); three
//! streams (airtcp has MCS 0-15: a peer of three or more streams is taken as two); the
//! 2.4 GHz rule that repeats the third entry in the fourth (`if (i == 4 && ...)`: `i` is 3
//! there in 3.2, so it never applies); the debugfs statistics.

use crate::phy::modes::ModClass;
use crate::phy::{Band, HtConfig, ModeId, Standard};
use crate::time::SimTime;

/// `RATE_TABLE_SIZE`: entries of the largest table (the per-peer arrays' length).
pub const RATE_TABLE_SIZE: usize = 72;
/// `probe_interval` of the HT tables [ms]: between probes, and between PER decays.
pub const PROBE_INTERVAL_MS: u32 = 50;
/// Tries of the first three series entries and of the last (`ath_get_rate`).
const TRIES_PER_RATE: u8 = 4;
const TRIES_LAST: u8 = 8;

/// `RC_*` validity flags (`rc.h`).
pub const RC_INVALID: u16 = 0x0000;
pub const RC_LEGACY: u16 = 0x0001;
pub const RC_SS: u16 = 0x0002;
pub const RC_DS: u16 = 0x0004;
pub const RC_TS: u16 = 0x0008;
pub const RC_HT_20: u16 = 0x0010;
pub const RC_HT_40: u16 = 0x0020;
const RC_STREAM_MASK: u16 = 0xe;
const RC_ALL: u16 = RC_LEGACY | RC_HT_20 | RC_HT_40 | RC_SS | RC_DS | RC_TS;
const RC_L_SDT: u16 = RC_LEGACY | RC_SS | RC_DS | RC_TS;
const RC_HT_S_20: u16 = RC_HT_20 | RC_SS;
const RC_HT_T_20: u16 = RC_HT_20 | RC_TS;
const RC_HT_S_40: u16 = RC_HT_40 | RC_SS;
const RC_HT_T_40: u16 = RC_HT_40 | RC_TS;
const RC_HT_SD_20: u16 = RC_HT_20 | RC_SS | RC_DS;
const RC_HT_DT_20: u16 = RC_HT_20 | RC_DS | RC_TS;
const RC_HT_SD_40: u16 = RC_HT_40 | RC_SS | RC_DS;
const RC_HT_DT_40: u16 = RC_HT_40 | RC_DS | RC_TS;
const RC_HT_SDT_2040: u16 = RC_HT_20 | RC_HT_40 | RC_SS | RC_DS | RC_TS;
const RC_HT_SDT_20: u16 = RC_HT_20 | RC_SS | RC_DS | RC_TS;
const RC_HT_SDT_40: u16 = RC_HT_40 | RC_SS | RC_DS | RC_TS;

/// A peer's capabilities (`WLAN_RC_*_FLAG`, `ath_rc_build_ht_caps`).
pub const WLAN_RC_DS_FLAG: u8 = 0x01;
pub const WLAN_RC_TS_FLAG: u8 = 0x02;
pub const WLAN_RC_40_FLAG: u8 = 0x04;
pub const WLAN_RC_SGI_FLAG: u8 = 0x08;
pub const WLAN_RC_HT_FLAG: u8 = 0x10;

/// The PHY of a table entry (`WLAN_RC_PHY_*`, in their order: the valid rates are gathered
/// PHY by PHY in this order before the sort). `Hgi`: the short ("half") guard interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phy {
    Ofdm,
    Cck,
    Ht20Ss,
    Ht20Ds,
    Ht20Ts,
    Ht40Ss,
    Ht40Ds,
    Ht40Ts,
    Ht20SsHgi,
    Ht20DsHgi,
    Ht20TsHgi,
    Ht40SsHgi,
    Ht40DsHgi,
    Ht40TsHgi,
}

/// `WLAN_RC_PHY_MAX`.
const PHY_MAX: usize = 14;

impl Phy {
    /// `WLAN_RC_PHY_HT`.
    pub fn is_ht(self) -> bool {
        self as u8 >= Phy::Ht20Ss as u8
    }
    /// `WLAN_RC_PHY_DS`.
    pub fn is_ds(self) -> bool {
        matches!(self, Phy::Ht20Ds | Phy::Ht40Ds | Phy::Ht20DsHgi | Phy::Ht40DsHgi)
    }
    /// `WLAN_RC_PHY_TS`.
    pub fn is_ts(self) -> bool {
        matches!(self, Phy::Ht20Ts | Phy::Ht40Ts | Phy::Ht20TsHgi | Phy::Ht40TsHgi)
    }
    /// `WLAN_RC_PHY_40`.
    pub fn is_40(self) -> bool {
        use Phy::*;
        matches!(self, Ht40Ss | Ht40Ds | Ht40Ts | Ht40SsHgi | Ht40DsHgi | Ht40TsHgi)
    }
    /// `WLAN_RC_PHY_SGI`.
    pub fn is_sgi(self) -> bool {
        self as u8 >= Phy::Ht20SsHgi as u8
    }
}

/// One entry of a rate table (`struct ath_rate_table`'s `info[]`, without the RTS/CTS rate
/// and the 40 MHz / SGI index columns that only map mac80211's rate back to an entry: the
/// series here carry the entry itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateInfo {
    /// `RC_*`: the peers the entry is valid for.
    pub flags: u16,
    pub phy: Phy,
    /// The PHY rate [kbit/s] (27 500 and 81 500 for HT40 MCS 1 and 4: the driver's values).
    pub ratekbps: u32,
    /// The rate the throughput estimate uses [kbit/s].
    pub user_ratekbps: u32,
    /// The MCS (HT) or the hardware rate code.
    pub ratecode: u8,
    /// The MCS (HT), or the rate in 500 kbit/s units (legacy), as a peer advertises it.
    pub dot11rate: u8,
}

const fn ri(
    flags: u16,
    phy: Phy,
    ratekbps: u32,
    user_ratekbps: u32,
    ratecode: u8,
    dot11rate: u8,
) -> RateInfo {
    RateInfo { flags, phy, ratekbps, user_ratekbps, ratecode, dot11rate }
}

/// The HT part shared by the 5 GHz table (entries 8-67) and the 2.4 GHz one (12-71; there
/// the first entry, MCS 0 HT20, is `RC_INVALID`). MCS 16-23 (three streams) are listed for
/// the indices but never valid here.
const HT_ENTRIES: [RateInfo; 60] = {
    use Phy::*;
    [
        ri(RC_HT_SDT_2040, Ht20Ss, 6500, 6400, 0, 0),
        ri(RC_HT_SDT_20, Ht20Ss, 13000, 12700, 1, 1),
        ri(RC_HT_SDT_20, Ht20Ss, 19500, 18800, 2, 2),
        ri(RC_HT_SD_20, Ht20Ss, 26000, 25000, 3, 3),
        ri(RC_HT_SD_20, Ht20Ss, 39000, 36700, 4, 4),
        ri(RC_HT_S_20, Ht20Ss, 52000, 48100, 5, 5),
        ri(RC_HT_S_20, Ht20Ss, 58500, 53500, 6, 6),
        ri(RC_HT_S_20, Ht20Ss, 65000, 59000, 7, 7),
        ri(RC_HT_S_20, Ht20SsHgi, 72200, 65400, 7, 7),
        ri(RC_INVALID, Ht20Ds, 13000, 12700, 8, 8),
        ri(RC_HT_T_20, Ht20Ds, 26000, 24800, 9, 9),
        ri(RC_HT_T_20, Ht20Ds, 39000, 36600, 10, 10),
        ri(RC_HT_DT_20, Ht20Ds, 52000, 48100, 11, 11),
        ri(RC_HT_DT_20, Ht20Ds, 78000, 69500, 12, 12),
        ri(RC_HT_DT_20, Ht20Ds, 104000, 89500, 13, 13),
        ri(RC_HT_DT_20, Ht20Ds, 117000, 98900, 14, 14),
        ri(RC_HT_DT_20, Ht20Ds, 130000, 108300, 15, 15),
        ri(RC_HT_DT_20, Ht20DsHgi, 144400, 120000, 15, 15),
        ri(RC_INVALID, Ht20Ts, 19500, 17400, 16, 16),
        ri(RC_INVALID, Ht20Ts, 39000, 35100, 17, 17),
        ri(RC_INVALID, Ht20Ts, 58500, 52600, 18, 18),
        ri(RC_INVALID, Ht20Ts, 78000, 70400, 19, 19),
        ri(RC_INVALID, Ht20Ts, 117000, 104900, 20, 20),
        ri(RC_INVALID, Ht20TsHgi, 130000, 115800, 20, 20),
        ri(RC_HT_T_20, Ht20Ts, 156000, 137200, 21, 21),
        ri(RC_HT_T_20, Ht20TsHgi, 173300, 151100, 21, 21),
        ri(RC_HT_T_20, Ht20Ts, 175500, 152800, 22, 22),
        ri(RC_HT_T_20, Ht20TsHgi, 195000, 168400, 22, 22),
        ri(RC_HT_T_20, Ht20Ts, 195000, 168400, 23, 23),
        ri(RC_HT_T_20, Ht20TsHgi, 216700, 185000, 23, 23),
        ri(RC_HT_SDT_40, Ht40Ss, 13500, 13200, 0, 0),
        ri(RC_HT_SDT_40, Ht40Ss, 27500, 25900, 1, 1),
        ri(RC_HT_SDT_40, Ht40Ss, 40500, 38600, 2, 2),
        ri(RC_HT_SD_40, Ht40Ss, 54000, 49800, 3, 3),
        ri(RC_HT_SD_40, Ht40Ss, 81500, 72200, 4, 4),
        ri(RC_HT_S_40, Ht40Ss, 108000, 92900, 5, 5),
        ri(RC_HT_S_40, Ht40Ss, 121500, 102700, 6, 6),
        ri(RC_HT_S_40, Ht40Ss, 135000, 112000, 7, 7),
        ri(RC_HT_S_40, Ht40SsHgi, 150000, 122000, 7, 7),
        ri(RC_INVALID, Ht40Ds, 27000, 25800, 8, 8),
        ri(RC_HT_T_40, Ht40Ds, 54000, 49800, 9, 9),
        ri(RC_HT_T_40, Ht40Ds, 81000, 71900, 10, 10),
        ri(RC_HT_DT_40, Ht40Ds, 108000, 92500, 11, 11),
        ri(RC_HT_DT_40, Ht40Ds, 162000, 130300, 12, 12),
        ri(RC_HT_DT_40, Ht40Ds, 216000, 162800, 13, 13),
        ri(RC_HT_DT_40, Ht40Ds, 243000, 178200, 14, 14),
        ri(RC_HT_DT_40, Ht40Ds, 270000, 192100, 15, 15),
        ri(RC_HT_DT_40, Ht40DsHgi, 300000, 207000, 15, 15),
        ri(RC_INVALID, Ht40Ts, 40500, 36100, 16, 16),
        ri(RC_INVALID, Ht40Ts, 81000, 72900, 17, 17),
        ri(RC_INVALID, Ht40Ts, 121500, 108300, 18, 18),
        ri(RC_INVALID, Ht40Ts, 162000, 142000, 19, 19),
        ri(RC_INVALID, Ht40Ts, 243000, 205100, 20, 20),
        ri(RC_INVALID, Ht40TsHgi, 270000, 224700, 20, 20),
        ri(RC_HT_T_40, Ht40Ts, 324000, 263100, 21, 21),
        ri(RC_HT_T_40, Ht40TsHgi, 360000, 288000, 21, 21),
        ri(RC_HT_T_40, Ht40Ts, 364500, 290700, 22, 22),
        ri(RC_HT_T_40, Ht40TsHgi, 405000, 317200, 22, 22),
        ri(RC_HT_T_40, Ht40Ts, 405000, 317200, 23, 23),
        ri(RC_HT_T_40, Ht40TsHgi, 450000, 346400, 23, 23),
    ]
};

/// `legacy` followed by [`HT_ENTRIES`] (the first HT entry made `RC_INVALID` if `mcs0_invalid`).
const fn concat<const L: usize, const N: usize>(legacy: [RateInfo; L], mcs0_invalid: bool) -> [RateInfo; N] {
    let mut out = [ri(RC_INVALID, Phy::Ofdm, 0, 0, 0, 0); N];
    let mut i = 0;
    while i < L {
        out[i] = legacy[i];
        i += 1;
    }
    while i < N {
        out[i] = HT_ENTRIES[i - L];
        i += 1;
    }
    if mcs0_invalid {
        out[L].flags = RC_INVALID;
    }
    out
}

/// `ar5416_11na_ratetable`: OFDM 6-54 Mbit/s (never valid for an HT peer: their flags lack
/// `RC_HT_20`/`RC_HT_40`), then the HT entries.
pub static AR5416_11NA: [RateInfo; 68] = concat(
    [
        ri(RC_L_SDT, Phy::Ofdm, 6000, 5400, 0, 12),
        ri(RC_L_SDT, Phy::Ofdm, 9000, 7800, 1, 18),
        ri(RC_L_SDT, Phy::Ofdm, 12000, 10000, 2, 24),
        ri(RC_L_SDT, Phy::Ofdm, 18000, 13900, 3, 36),
        ri(RC_L_SDT, Phy::Ofdm, 24000, 17300, 4, 48),
        ri(RC_L_SDT, Phy::Ofdm, 36000, 23000, 5, 72),
        ri(RC_L_SDT, Phy::Ofdm, 48000, 27400, 6, 96),
        ri(RC_L_SDT, Phy::Ofdm, 54000, 29300, 7, 108),
    ],
    false,
);

/// `ar5416_11ng_ratetable`: CCK 1-11 Mbit/s (`RC_ALL`: valid for HT peers too), ERP-OFDM
/// 6-54 Mbit/s (6 and 9 invalid, the others never valid for an HT peer), then the HT entries
/// with MCS 0 HT20 invalid.
pub static AR5416_11NG: [RateInfo; 72] = concat(
    [
        ri(RC_ALL, Phy::Cck, 1000, 900, 0, 2),
        ri(RC_ALL, Phy::Cck, 2000, 1900, 1, 4),
        ri(RC_ALL, Phy::Cck, 5500, 4900, 2, 11),
        ri(RC_ALL, Phy::Cck, 11000, 8100, 3, 22),
        ri(RC_INVALID, Phy::Ofdm, 6000, 5400, 4, 12),
        ri(RC_INVALID, Phy::Ofdm, 9000, 7800, 5, 18),
        ri(RC_L_SDT, Phy::Ofdm, 12000, 10100, 6, 24),
        ri(RC_L_SDT, Phy::Ofdm, 18000, 14100, 7, 36),
        ri(RC_L_SDT, Phy::Ofdm, 24000, 17700, 8, 48),
        ri(RC_L_SDT, Phy::Ofdm, 36000, 23700, 9, 72),
        ri(RC_L_SDT, Phy::Ofdm, 48000, 27400, 10, 96),
        ri(RC_L_SDT, Phy::Ofdm, 54000, 30900, 11, 108),
    ],
    true,
);

/// `WLAN_RC_CAP_MODE`: the mode flag a legacy entry must carry for the peer.
fn cap_mode(cap: u8) -> u16 {
    match (cap & WLAN_RC_HT_FLAG != 0, cap & WLAN_RC_40_FLAG != 0) {
        (true, true) => RC_HT_40,
        (true, false) => RC_HT_20,
        (false, _) => RC_LEGACY,
    }
}

/// `WLAN_RC_CAP_STREAM`: the stream flag an entry must carry for the peer.
fn cap_stream(cap: u8) -> u16 {
    if cap & WLAN_RC_TS_FLAG != 0 {
        RC_TS
    } else if cap & WLAN_RC_DS_FLAG != 0 {
        RC_DS
    } else {
        RC_SS
    }
}

/// `WLAN_RC_PHY_HT_VALID`: an HT40 peer uses the entries valid at 40 MHz, an HT20 peer those
/// valid at 20.
fn ht_valid(flags: u16, cap: u8) -> bool {
    (flags & RC_HT_20 != 0 && cap & WLAN_RC_40_FLAG == 0)
        || (flags & RC_HT_40 != 0 && cap & WLAN_RC_40_FLAG != 0)
}

/// `ath_rc_valid_phyrate`.
fn valid_phyrate(phy: Phy, cap: u8, ignore_cw: bool) -> bool {
    !((phy.is_ht() && cap & WLAN_RC_HT_FLAG == 0)
        || (phy.is_ds() && cap & WLAN_RC_DS_FLAG == 0)
        || (phy.is_ts() && cap & WLAN_RC_TS_FLAG == 0)
        || (phy.is_sgi() && cap & WLAN_RC_SGI_FLAG == 0)
        || (!ignore_cw && phy.is_ht() && phy.is_40() && cap & WLAN_RC_40_FLAG == 0))
}

/// `RC_TS_ONLY`, `RC_DS_OR_LATER`, `RC_SS_OR_LEGACY`.
fn ts_only(f: u16) -> bool {
    f & RC_STREAM_MASK == RC_TS
}
fn ds_or_later(f: u16) -> bool {
    f & RC_STREAM_MASK == RC_DS || f & RC_STREAM_MASK == RC_DS | RC_TS
}
fn ss_or_legacy(f: u16) -> bool {
    f & (RC_SS | RC_LEGACY) != 0
}

/// `nretry_to_per_lookup`: the PER [%] of a frame acknowledged after `retries` retries.
const NRETRY_TO_PER: [u32; 10] = [
    0,
    100 / 4,
    100 / 2,
    100 * 3 / 4,
    100 * 4 / 5,
    100 * 5 / 6,
    100 * 6 / 7,
    100 * 7 / 8,
    100 * 8 / 9,
    100 * 9 / 10,
];

/// `jiffies_to_msecs(jiffies)` at boot: jiffies start at `INITIAL_JIFFIES` (-300 s), so the
/// millisecond clock starts at 2^32 - 300 000. The run's start is taken as the boot, so a new
/// peer's zeroed `probe_time` and `per_down_time` (`kzalloc`) lie far in the past, as in a
/// kernel.
const BOOT_MSEC: u32 = 0u32.wrapping_sub(300_000);

/// The driver's millisecond clock at `now` (32 bits, wrapping; Linux's has the granularity
/// of a jiffy, 1-10 ms by `HZ`, taken as 1 ms here).
fn msec(now: SimTime) -> u32 {
    BOOT_MSEC.wrapping_add((now.ns() / 1_000_000) as u32)
}

/// The algorithm over one band's HT table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ath9kRc {
    pub band: Band,
    pub table: &'static [RateInfo],
    /// Each entry's mode (`None`: a three-stream entry, never valid here).
    modes: [Option<ModeId>; RATE_TABLE_SIZE],
}

/// What the algorithm keeps per peer (`struct ath_rate_priv`). Rates are table indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ath9kStation {
    /// `WLAN_RC_*_FLAG` of the peer.
    pub ht_cap: u8,
    /// The highest valid table index + 1: the PER arrays' extent.
    pub rate_table_size: u8,
    /// The rate being probed (0: none).
    pub probe_rate: u8,
    /// Frames acknowledged at their first try at `rate_max_phy` since the last probe or retry.
    pub hw_maxretry_pktcnt: u8,
    /// Valid rates: `valid_rate_index[..max_valid_rate]`, ascending by rate.
    pub max_valid_rate: u8,
    pub valid_rate_index: [u8; RATE_TABLE_SIZE],
    /// The highest rate used without probing.
    pub rate_max_phy: u8,
    /// PER [%] per table index (not only the valid ones: monotonicity runs over all).
    pub per: [u8; RATE_TABLE_SIZE],
    /// The driver's clock [ms] at the last probe and at the last PER decay.
    pub probe_time: u32,
    pub per_down_time: u32,
    /// Whether the Block Ack session is up: `ath_tx_status` asks mac80211 to start it
    /// (`ath_tx_aggr_check`, `ieee80211_start_tx_ba_session`) after the first status of a
    /// QoS data frame; until then frames go singly, their series ending at the best legacy
    /// rate. The ADDBA exchange itself is not simulated: the session is up at that status.
    pub ba_session: bool,
}

/// One entry of a multi-rate retry series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesEntry {
    /// The table index.
    pub rix: u8,
    pub mode: ModeId,
    pub tries: u8,
    /// RTS/CTS requested for this entry's tries (`IEEE80211_TX_RC_USE_RTS_CTS`): every entry
    /// but the first, and but the second of a probe.
    pub rts: bool,
}

/// The four-entry retry series of a frame: the hardware tries each entry's rate `tries`
/// times, in order (`tx_info->control.rates`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateSeries {
    pub entries: [SeriesEntry; 4],
    /// A probe (`IEEE80211_TX_CTL_RATE_CTRL_PROBE`).
    pub probe: bool,
}

impl RateSeries {
    /// All tries of the series (20, a probe 17).
    pub fn total_tries(&self) -> u32 {
        self.entries.iter().map(|e| u32::from(e.tries)).sum()
    }

    /// Whether the driver may aggregate the frame (`ath_lookup_rate`: not a probe, no legacy
    /// rate in the series; else the frame goes alone).
    pub fn aggregable(&self) -> bool {
        !self.probe && self.entries.iter().all(|e| e.tries == 0 || e.mode.class() == ModClass::Ht)
    }

    /// The series index of hardware attempt `attempt` (0 for the first), `None` past the
    /// last try.
    pub fn index_of_attempt(&self, attempt: u32) -> Option<usize> {
        let mut left = attempt;
        for (i, e) in self.entries.iter().enumerate() {
            if left < u32::from(e.tries) {
                return Some(i);
            }
            left -= u32::from(e.tries);
        }
        None
    }
}

/// The status of one PPDU as rate control hears it (`ath_tx_status`'s inputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ath9kTxStatus {
    /// The series the PPDU was sent with (`tx_info->status.rates`, the same memory as
    /// `control.rates`).
    pub series: RateSeries,
    /// The entry of the last try (`ts_rateindex`): the one that got the ACK or Block Ack, or
    /// the last one when every try failed.
    pub final_index: u8,
    /// Failed tries at `final_index` (`ts_longretry`).
    pub long_retries: u8,
    /// `IEEE80211_TX_STAT_ACK` of the frame the status rides on: the frame's ACK; for an
    /// A-MPDU the fate of its first MPDU to complete (see the module's doc).
    pub acked: bool,
    /// MPDUs in the PPDU (`ampdu_len`; 1 for a single frame) and those not acknowledged
    /// (`ampdu_len - ampdu_ack_len`; all when no Block Ack came).
    pub nframes: u8,
    pub nbad: u8,
}

impl Ath9kTxStatus {
    /// The status of a PPDU after `attempts` hardware attempts (at least 1; the last the one
    /// that was answered, if any), from which `ts_rateindex` and `ts_longretry` follow.
    pub fn after_attempts(
        series: RateSeries,
        attempts: u32,
        acked: bool,
        nframes: u8,
        nbad: u8,
    ) -> Ath9kTxStatus {
        let last = attempts.max(1) - 1;
        let (final_index, long_retries) = match series.index_of_attempt(last) {
            Some(i) => {
                let before: u32 = series.entries[..i].iter().map(|e| u32::from(e.tries)).sum();
                (i, last - before)
            }
            None => {
                let i = series.entries.iter().rposition(|e| e.tries > 0).unwrap_or(0);
                (i, u32::from(series.entries[i].tries.max(1) - 1))
            }
        };
        Ath9kTxStatus {
            series,
            final_index: final_index as u8,
            long_retries: long_retries as u8,
            acked,
            nframes,
            nbad,
        }
    }
}

impl Ath9kRc {
    /// The HT table of `band` (`ath_choose_rate_table`).
    pub fn new(band: Band) -> Ath9kRc {
        let (table, legacy): (&'static [RateInfo], Standard) = match band {
            Band::Ghz5 => (&AR5416_11NA, Standard::A),
            Band::Ghz2_4 => (&AR5416_11NG, Standard::G),
        };
        let mut modes = [None; RATE_TABLE_SIZE];
        for (m, e) in modes.iter_mut().zip(table) {
            *m = if e.phy.is_ht() {
                ModeId::ht(e.ratecode, e.phy.is_40(), e.phy.is_sgi())
            } else {
                legacy.mode(e.ratekbps)
            };
        }
        Ath9kRc { band, table, modes }
    }

    /// The mode of table entry `rix`.
    pub fn mode(&self, rix: u8) -> ModeId {
        self.modes[usize::from(rix)].expect("a series holds entries of at most two streams")
    }

    /// The peer's valid modes, ascending.
    pub fn valid_modes<'a>(&'a self, st: &'a Ath9kStation) -> impl Iterator<Item = ModeId> + 'a {
        st.valid_rate_index[..usize::from(st.max_valid_rate)].iter().map(|&r| self.mode(r))
    }

    /// A peer of capabilities `peer` (`ath_rate_init`, `ath_rc_build_ht_caps`, `ath_rc_init`),
    /// which supports every legacy rate of the band and MCS 0 to 8 x streams - 1. Its PERs
    /// start at 0 and its clocks (`probe_time`, `per_down_time`) at 0, long before `_now`.
    pub fn new_station(&self, peer: HtConfig, _now: SimTime) -> Ath9kStation {
        let streams = peer.streams.clamp(1, 2);
        // ath_rc_build_ht_caps: rx_mask[1] set -> two streams.
        let mut cap = WLAN_RC_HT_FLAG;
        if streams >= 2 {
            cap |= WLAN_RC_DS_FLAG;
        }
        if peer.width40 {
            cap |= WLAN_RC_40_FLAG;
        }
        if peer.sgi {
            cap |= WLAN_RC_SGI_FLAG;
        }
        let mut phy_idx = [[0u8; RATE_TABLE_SIZE]; PHY_MAX];
        let mut phy_cnt = [0usize; PHY_MAX];
        let mut hi = 0usize;
        let mut add = |j: usize, phy: Phy| {
            phy_idx[phy as usize][phy_cnt[phy as usize]] = j as u8;
            phy_cnt[phy as usize] += 1;
            hi = hi.max(j);
        };
        // ath_rc_setvalid_rates: the peer's legacy rates (the band's, in the table's order).
        for peer_rate in self.table.iter().filter(|e| !e.phy.is_ht()).map(|e| e.dot11rate) {
            for (j, e) in self.table.iter().enumerate() {
                if peer_rate == e.dot11rate
                    && e.flags & cap_mode(cap) == cap_mode(cap)
                    && e.flags & cap_stream(cap) != 0
                    && !e.phy.is_ht()
                    && valid_phyrate(e.phy, cap, false)
                {
                    add(j, e.phy);
                }
            }
        }
        // ath_rc_setvalid_htrates: the peer's MCS set.
        for mcs in 0..8 * streams {
            for (j, e) in self.table.iter().enumerate() {
                if mcs == e.dot11rate
                    && e.phy.is_ht()
                    && e.flags & cap_stream(cap) != 0
                    && ht_valid(e.flags, cap)
                    && valid_phyrate(e.phy, cap, false)
                {
                    add(j, e.phy);
                }
            }
        }
        // ath_rc_init: the valid rates PHY by PHY, then sorted by rate.
        let mut valid = [0u8; RATE_TABLE_SIZE];
        let mut k = 0;
        for (idx, &cnt) in phy_idx.iter().zip(&phy_cnt) {
            valid[k..k + cnt].copy_from_slice(&idx[..cnt]);
            k += cnt;
        }
        assert!(k > 0, "an HT peer has valid rates");
        self.sort_validrates(&mut valid[..k]);
        Ath9kStation {
            ht_cap: cap,
            rate_table_size: (hi + 1) as u8,
            probe_rate: 0,
            hw_maxretry_pktcnt: 0,
            max_valid_rate: k as u8,
            valid_rate_index: valid,
            rate_max_phy: if k > 4 { valid[k - 4] } else { valid[k - 1] },
            per: [0; RATE_TABLE_SIZE],
            probe_time: 0,
            per_down_time: 0,
            ba_session: false,
        }
    }

    /// `ath_rc_sort_validrates`: a bubble sort by `ratekbps` (equal rates keep their order).
    fn sort_validrates(&self, v: &mut [u8]) {
        for i in (1..v.len()).rev() {
            for j in 0..i {
                if self.table[usize::from(v[j])].ratekbps > self.table[usize::from(v[j + 1])].ratekbps {
                    v.swap(j, j + 1);
                }
            }
        }
    }

    fn valid(st: &Ath9kStation) -> &[u8] {
        &st.valid_rate_index[..usize::from(st.max_valid_rate)]
    }

    /// `ath_rc_get_nextvalid_txrate`: the valid rate above `rix`.
    fn next_valid(st: &Ath9kStation, rix: u8) -> Option<u8> {
        Self::valid(st).windows(2).find(|w| w[0] == rix).map(|w| w[1])
    }

    /// `ath_rc_get_lower_rix`: the valid rate below `rix`, or `rix` itself when it is the
    /// lowest or not valid.
    fn lower_rix(st: &Ath9kStation, rix: u8) -> u8 {
        Self::valid(st).windows(2).find(|w| w[1] == rix).map_or(rix, |w| w[0])
    }

    /// `ath_rc_get_highest_rix`: the valid rate up to `rate_max_phy` with the best
    /// `user_ratekbps x (100 - max(PER, 12))` (ties to the lower), and whether it is a probe
    /// of the next one above `rate_max_phy`; `legacy`: among the legacy rates only (none
    /// valid for an HT peer in 5 GHz: then table entry 0).
    fn highest_rix(&self, st: &mut Ath9kStation, now_ms: u32, legacy: bool) -> (u8, bool) {
        let mut best_thruput = 0u32;
        let mut best_rate = 0u8; // `minindex`, a position used as a table index
        for &rate in Self::valid(st).iter().rev() {
            let e = &self.table[usize::from(rate)];
            if (legacy && e.flags & RC_LEGACY == 0) || rate > st.rate_max_phy {
                continue;
            }
            // "For TCP the average collision rate is around 11%": PERs below 12 count as 12.
            let per_thres = u32::from(st.per[usize::from(rate)].max(12));
            let this_thruput = e.user_ratekbps * (100 - per_thres);
            if best_thruput <= this_thruput {
                best_thruput = this_thruput;
                best_rate = rate;
            }
        }
        let mut rate = best_rate;
        let mut probe = false;
        if rate >= st.rate_max_phy {
            rate = st.rate_max_phy;
            if let Some(next) = Self::next_valid(st, rate) {
                if now_ms.wrapping_sub(st.probe_time) > PROBE_INTERVAL_MS && st.hw_maxretry_pktcnt >= 1 {
                    rate = next;
                    st.probe_rate = next;
                    st.probe_time = now_ms;
                    st.hw_maxretry_pktcnt = 0;
                    probe = true;
                }
            }
        }
        rate = rate.min(st.rate_table_size - 1);
        let f = self.table[usize::from(rate)].flags;
        if (ts_only(f) && st.ht_cap & WLAN_RC_TS_FLAG != 0)
            || (ds_or_later(f) && st.ht_cap & (WLAN_RC_DS_FLAG | WLAN_RC_TS_FLAG) != 0)
            || ss_or_legacy(f)
        {
            return (rate, probe);
        }
        (st.valid_rate_index[0], probe) // "This should not happen"
    }

    fn entry(&self, rix: u8, tries: u8, rts: bool) -> SeriesEntry {
        SeriesEntry { rix, mode: self.mode(rix), tries, rts }
    }

    /// `ath_get_rate`: the retry series of the next frame to the peer; `ampdu`: the frame
    /// belongs to a Block Ack session (`IEEE80211_TX_CTL_AMPDU`).
    pub fn get_rate(&self, st: &mut Ath9kStation, ampdu: bool, now: SimTime) -> RateSeries {
        let now_ms = msec(now);
        let (mut rix, probe) = self.highest_rix(st, now_ms, false);
        let high_rix = rix;
        let mut e = [self.entry(rix, TRIES_PER_RATE, false); 4];
        let mut i = 1;
        if probe {
            // One try at the probe rate, then the next lower rate, neither with RTS.
            e[0] = self.entry(rix, 1, false);
            rix = Self::lower_rix(st, rix);
            e[1] = self.entry(rix, TRIES_PER_RATE, false);
            i = 2;
        }
        while i < 3 {
            rix = Self::lower_rix(st, rix);
            e[i] = self.entry(rix, TRIES_PER_RATE, true);
            i += 1;
        }
        // The last entry: the best legacy rate unless an aggregate at a rate of PER <= 45.
        let third_ht = self.table[usize::from(e[2].rix)].phy.is_ht();
        rix = if third_ht && (!ampdu || st.per[usize::from(high_rix)] > 45) {
            self.highest_rix(st, now_ms, true).0
        } else {
            Self::lower_rix(st, rix)
        };
        e[3] = self.entry(rix, TRIES_LAST, true);
        RateSeries { entries: e, probe }
    }

    /// `ath_tx_status` / `ath_rc_tx_status`: the status of one PPDU. The entries before the
    /// final one failed all their tries: each is updated as a failure of the frame (+30) if
    /// the frame was not acknowledged, else as a failure at that rate (+1/8 of 100); then the
    /// final entry with its retries, MPDUs and bad MPDUs.
    pub fn tx_status(&self, st: &mut Ath9kStation, status: &Ath9kTxStatus, now: SimTime) {
        let now_ms = msec(now);
        let mut xretries = u8::from(!status.acked);
        let fin = usize::from(status.final_index).min(3);
        let (n, nbad) = (status.nframes, status.nbad);
        if fin != 0 {
            for e in &status.series.entries[..fin] {
                if e.tries != 0 {
                    let x = if xretries != 0 { 1 } else { 2 };
                    self.update_ht(st, e.rix, x, e.tries, n, nbad, now_ms);
                }
            }
        } else if status.series.entries[0].tries == 1 && xretries == 1 {
            // "MIMO PS burst": a lone single try that failed is not an excessive retry.
            xretries = 2;
        }
        let last = status.series.entries[fin].rix;
        self.update_ht(st, last, xretries, status.long_retries, n, nbad, now_ms);
        st.ba_session = true; // ath_tx_status: ath_tx_aggr_check -> start the BA session
    }

    /// `ath_rc_update_ht`: the PER of `tx_rate`, then `rate_max_phy` down one rate if it
    /// reached 55, the PERs made monotonic, and every 50 ms all PERs x 7/8.
    #[allow(clippy::too_many_arguments)] // the driver's own arguments
    fn update_ht(
        &self,
        st: &mut Ath9kStation,
        tx_rate: u8,
        xretries: u8,
        retries: u8,
        nframes: u8,
        nbad: u8,
        now_ms: u32,
    ) {
        let r = usize::from(tx_rate);
        if r >= self.table.len() {
            return;
        }
        let last_per = st.per[r];
        self.update_per(st, r, xretries, retries, nframes, nbad, now_ms);
        // A rate that looks bad is not used for a while, and no probe for a while.
        let max_kbps = self.table[usize::from(st.rate_max_phy)].ratekbps;
        if st.per[r] >= 55 && r > 0 && self.table[r].ratekbps <= max_kbps {
            st.rate_max_phy = Self::lower_rix(st, tx_rate);
            st.probe_time = now_ms;
        }
        // Below the rate, a PER that fell is passed down; above it, the PER is passed up.
        if st.per[r] < last_per {
            for rate in (0..r).rev() {
                if st.per[rate] > st.per[rate + 1] {
                    st.per[rate] = st.per[rate + 1];
                }
            }
        }
        let size = usize::from(st.rate_table_size);
        for rate in r..size.saturating_sub(1) {
            if st.per[rate + 1] < st.per[rate] {
                st.per[rate + 1] = st.per[rate];
            }
        }
        if now_ms.wrapping_sub(st.per_down_time) >= PROBE_INTERVAL_MS {
            for p in &mut st.per[..size] {
                *p = (7 * u32::from(*p) / 8) as u8;
            }
            st.per_down_time = now_ms;
        }
    }

    /// `ath_rc_update_per`: `xretries` 1, the frame failed: PER + 30 (at most 100); 2, this
    /// rate failed but a later one succeeded: 7/8 PER + 100/8; 0, success after `retries`
    /// retries: 7/8 PER + 1/8 of the lookup table's PER, or for an A-MPDU with bad MPDUs of
    /// `100 (retries n + nbad) / (n (retries + 1))`. A probe acknowledged at its one try with
    /// at most half its MPDUs bad raises `rate_max_phy` to it.
    #[allow(clippy::too_many_arguments)] // the driver's own arguments
    fn update_per(
        &self,
        st: &mut Ath9kStation,
        r: usize,
        xretries: u8,
        retries: u8,
        nframes: u8,
        nbad: u8,
        now_ms: u32,
    ) {
        let last = st.per[r];
        if xretries != 0 {
            st.per[r] = if xretries == 1 {
                last.saturating_add(30).min(100)
            } else {
                last - (last >> 3) + (100 >> 3)
            };
            if usize::from(st.probe_rate) == r {
                st.probe_rate = 0;
            }
            return;
        }
        let retries = retries.min(NRETRY_TO_PER.len() as u8 - 1);
        if nbad != 0 {
            if nframes > 0 {
                let n_bad_tries = u32::from(retries) * u32::from(nframes) + u32::from(nbad);
                let n_frames = u32::from(nframes) * (u32::from(retries) + 1);
                let cur_per = ((100 * n_bad_tries / n_frames) >> 3) as u8;
                st.per[r] = last - (last >> 3) + cur_per;
            }
        } else {
            st.per[r] = last - (last >> 3) + (NRETRY_TO_PER[usize::from(retries)] >> 3) as u8;
        }
        if st.probe_rate != 0 && usize::from(st.probe_rate) == r {
            if retries > 0 || 2 * u32::from(nbad) > u32::from(nframes) {
                st.probe_rate = 0; // the probe failed
            } else {
                st.rate_max_phy = st.probe_rate;
                if st.per[r] > 30 {
                    st.per[r] = 20;
                }
                st.probe_rate = 0;
                // The next probe may come twice as soon.
                st.probe_time = now_ms.wrapping_sub(PROBE_INTERVAL_MS / 2);
            }
        }
        if retries > 0 {
            st.hw_maxretry_pktcnt = 0;
        } else if r == usize::from(st.rate_max_phy) && st.hw_maxretry_pktcnt < 255 {
            st.hw_maxretry_pktcnt += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    const PAPER: HtConfig = HtConfig { band: Band::Ghz5, width40: true, sgi: true, streams: 2 };

    fn mbps(m: ModeId) -> f64 {
        f64::from(m.rate_kbps()) / 1000.0
    }

    fn paper_station() -> (Ath9kRc, Ath9kStation) {
        let rc = Ath9kRc::new(Band::Ghz5);
        let st = rc.new_station(PAPER, SimTime::ZERO);
        (rc, st)
    }

    fn ht(mcs: u8, w40: bool, sgi: bool) -> ModeId {
        ModeId::ht(mcs, w40, sgi).unwrap()
    }

    #[test]
    fn the_block_ack_session_starts_at_the_first_status() {
        // rc.c ath_tx_status: ath_rc_tx_status, then ath_tx_aggr_check ->
        // ieee80211_start_tx_ba_session. Before it the series ends at OFDM 6 Mbit/s (rix 0)
        // and the frame goes alone; the first frame's status (here: 8 tries failed at 216,
        // acked at the fifth try) starts the session.
        let (rc, mut st) = paper_station();
        assert!(!st.ba_session);
        let now = SimTime::ZERO + Dur::from_ms(1);
        let in_session = st.ba_session;
        let s = rc.get_rate(&mut st, in_session, now);
        assert_eq!((s.entries[3].rix, s.aggregable()), (0, false));
        rc.tx_status(&mut st, &Ath9kTxStatus::after_attempts(s, 5, true, 1, 0), now);
        assert!(st.ba_session);
        let s = rc.get_rate(&mut st, true, now);
        assert!(s.aggregable());
        assert_ne!(s.entries[3].rix, 0);
    }

    #[test]
    fn tables_map_to_modes_of_their_rate() {
        for (band, table) in [(Band::Ghz5, &AR5416_11NA[..]), (Band::Ghz2_4, &AR5416_11NG[..])] {
            let rc = Ath9kRc::new(band);
            for (i, e) in table.iter().enumerate() {
                match rc.modes[i] {
                    // The driver writes 27.5 and 81.5 for 27 and 81, and rounds the SGI rates.
                    Some(m) => assert!(m.rate_kbps().abs_diff(e.ratekbps) <= 500, "{band:?} [{i}]"),
                    None => assert!(e.phy.is_ts(), "{band:?} [{i}]"),
                }
            }
        }
        // Same HT entries in both bands, shifted by the 4 CCK entries; MCS 0 HT20 invalid in
        // 2.4 GHz.
        assert_eq!(AR5416_11NG[59], AR5416_11NA[55]);
        assert_eq!((AR5416_11NG[12].flags, AR5416_11NA[8].flags), (RC_INVALID, RC_HT_SDT_2040));
        assert_eq!(AR5416_11NA[55].phy, Phy::Ht40DsHgi);
    }

    #[test]
    fn a_two_stream_ht40_sgi_peer_gets_table_one_and_a_one_stream_ht20_peer_mcs_0_to_7() {
        let (rc, st) = paper_station();
        let rates: Vec<f64> = rc.valid_modes(&st).map(mbps).collect();
        assert_eq!(rates, [6.5, 13.5, 27.0, 40.5, 54.0, 81.0, 108.0, 162.0, 216.0, 243.0, 270.0, 300.0]);
        let modes: Vec<ModeId> = rc.valid_modes(&st).collect();
        let mut expect = vec![ht(0, false, false)];
        expect.extend((0..5).map(|m| ht(m, true, false)));
        expect.extend((11..16).map(|m| ht(m, true, false)));
        expect.push(ht(15, true, true));
        assert_eq!(modes, expect);
        // The table indices of the research note; rate_max_phy starts 4th from the top.
        assert_eq!(&st.valid_rate_index[..12], &[8, 38, 39, 40, 41, 42, 50, 51, 52, 53, 54, 55]);
        assert_eq!(mbps(rc.mode(st.rate_max_phy)), 216.0);
        assert_eq!(st.rate_table_size, 56);

        let st1 = rc.new_station(
            HtConfig { band: Band::Ghz5, width40: false, sgi: false, streams: 1 },
            SimTime::ZERO,
        );
        let modes: Vec<ModeId> = rc.valid_modes(&st1).collect();
        assert_eq!(modes, (0..8).map(|m| ht(m, false, false)).collect::<Vec<_>>());
        // With SGI the table adds only MCS 7's short-GI entry.
        let sgi = rc
            .new_station(HtConfig { band: Band::Ghz5, width40: false, sgi: true, streams: 1 }, SimTime::ZERO);
        assert_eq!(rc.valid_modes(&sgi).last(), Some(ht(7, false, true)));
        assert_eq!(sgi.max_valid_rate, 9);
        // 2.4 GHz: CCK is valid for an HT peer, MCS 0 HT20 is not.
        let g = Ath9kRc::new(Band::Ghz2_4);
        let sg = g.new_station(HtConfig { band: Band::Ghz2_4, ..PAPER }, SimTime::ZERO);
        let rates: Vec<f64> = g.valid_modes(&sg).map(mbps).collect();
        assert_eq!(
            rates,
            [1.0, 2.0, 5.5, 11.0, 13.5, 27.0, 40.5, 54.0, 81.0, 108.0, 162.0, 216.0, 243.0, 270.0, 300.0]
        );
    }

    fn summary(s: &RateSeries) -> Vec<(f64, u8, bool)> {
        s.entries.iter().map(|e| (mbps(e.mode), e.tries, e.rts)).collect()
    }

    #[test]
    fn the_series_steps_down_the_valid_rates_with_4_4_4_8_tries_and_a_probe_has_one_try() {
        let (rc, mut st) = paper_station();
        let now = SimTime::ZERO + Dur::from_ms(1000);
        // At rate_max_phy (216), no probe yet: three lower valid rates.
        let s = rc.get_rate(&mut st, true, now);
        assert_eq!(summary(&s), [(216.0, 4, false), (162.0, 4, true), (108.0, 4, true), (81.0, 8, true)]);
        assert!(!s.probe && s.aggregable());
        assert_eq!(s.total_tries(), 20);
        // Outside a Block Ack session the last entry is the best legacy rate: for an HT peer
        // in 5 GHz none is valid and the driver falls to table entry 0, OFDM 6 Mbit/s.
        let s = rc.get_rate(&mut st, false, now);
        assert_eq!(s.entries[3].mode, Standard::A.mode(6000).unwrap());
        assert_eq!((s.entries[3].rix, s.entries[3].tries), (0, 8));
        assert!(!s.aggregable());
        // In a session too once the chosen rate's PER is above 45 (all at 50: 216 is still
        // the best estimate).
        st.per = [50; RATE_TABLE_SIZE];
        let s = rc.get_rate(&mut st, true, now);
        assert_eq!(mbps(s.entries[0].mode), 216.0);
        assert_eq!(s.entries[3].rix, 0);
        // At 45 it is not.
        st.per = [45; RATE_TABLE_SIZE];
        let s = rc.get_rate(&mut st, true, now);
        assert_eq!(mbps(s.entries[3].mode), 81.0);
        st.per = [0; RATE_TABLE_SIZE];
        // A frame acknowledged at its first try at rate_max_phy allows a probe of the next.
        st.hw_maxretry_pktcnt = 1;
        let s = rc.get_rate(&mut st, true, now);
        assert!(s.probe && !s.aggregable());
        assert_eq!(summary(&s), [(243.0, 1, false), (216.0, 4, false), (162.0, 4, true), (108.0, 8, true)]);
        assert_eq!(s.total_tries(), 17);
        assert_eq!((st.probe_rate, st.hw_maxretry_pktcnt), (53, 0));
        // The lowest rate repeats at the bottom of the valid set.
        st.rate_max_phy = 38; // 13.5
        let s = rc.get_rate(&mut st, true, now);
        assert_eq!(summary(&s), [(13.5, 4, false), (6.5, 4, true), (6.5, 4, true), (6.5, 8, true)]);
        // Attempts walk the entries by their tries.
        let idx: Vec<Option<usize>> =
            [0, 3, 4, 11, 12, 19, 20].iter().map(|&a| s.index_of_attempt(a)).collect();
        assert_eq!(idx, [Some(0), Some(0), Some(1), Some(2), Some(3), Some(3), None]);
    }

    #[test]
    fn per_arithmetic_follows_the_driver() {
        let (rc, st0) = paper_station();
        let r = 52usize; // 216 Mbit/s
        let t = msec(SimTime::ZERO);
        let per_after = |old: u8, x: u8, retries: u8, n: u8, nbad: u8| {
            let mut st = st0;
            st.per[r] = old;
            rc.update_per(&mut st, r, x, retries, n, nbad, t);
            st.per[r]
        };
        // Success at the first try: 40 - 40/8 + 0.
        assert_eq!(per_after(40, 0, 0, 1, 0), 35);
        // Two retries: 40 - 5 + (100 x 1/2) / 8 = 35 + 6.
        assert_eq!(per_after(40, 0, 2, 1, 0), 41);
        // Retries beyond 9 read the table's last value (90 / 8 = 11).
        assert_eq!(per_after(40, 0, 15, 1, 0), 46);
        // The frame failed: +30, at most 100.
        assert_eq!(per_after(40, 1, 7, 1, 1), 70);
        assert_eq!(per_after(80, 1, 7, 1, 1), 100);
        // This rate failed, a later one got through: 40 - 5 + 100/8 = 35 + 12.
        assert_eq!(per_after(40, 2, 4, 1, 0), 47);
        // A-MPDU of 10, 3 bad after 1 retry: cur = 100 (1 x 10 + 3) / (10 x 2) = 65, /8 = 8.
        assert_eq!(per_after(40, 0, 1, 10, 3), 43);
        // A-MPDU of 16, 4 bad at the first try: 100 x 4 / 16 = 25, /8 = 3.
        assert_eq!(per_after(0, 0, 0, 16, 4), 3);

        // Through tx_status: a frame acknowledged at the third entry (108) after one retry
        // there. 216 and 162 failed all their tries: each 0 + 12; 108: 0 + 25/8 = 3.
        let mut st = st0;
        st.per_down_time = t; // no decay now
        let s = rc.get_rate(&mut st, true, SimTime::ZERO);
        let status = Ath9kTxStatus::after_attempts(s, 10, true, 1, 0);
        assert_eq!((status.final_index, status.long_retries), (2, 1));
        rc.tx_status(&mut st, &status, SimTime::ZERO);
        assert_eq!((st.per[52], st.per[51], st.per[50]), (12, 12, 3));
        // Monotonic upwards: 243..300 at least 216's PER; below 108 unchanged.
        assert_eq!((st.per[53], st.per[55], st.per[42]), (12, 12, 0));
        // The same series all failed: +30 on every entry.
        let mut st = st0;
        st.per_down_time = t;
        let status = Ath9kTxStatus::after_attempts(s, 20, false, 1, 1);
        assert_eq!((status.final_index, status.long_retries), (3, 7));
        rc.tx_status(&mut st, &status, SimTime::ZERO);
        assert_eq!((st.per[52], st.per[51], st.per[50], st.per[42]), (30, 30, 30, 30));
        // 50 ms after the last decay, every PER x 7/8 (rounded down).
        let later = SimTime::ZERO + Dur::from_ms(50);
        let ok = Ath9kTxStatus::after_attempts(s, 1, true, 1, 0);
        rc.tx_status(&mut st, &ok, later);
        // 216: 30 - 3 + 0 = 27; the PER fell, so 27 is passed down to 162 ... 81 (30 each);
        // then the decay: 27 x 7/8 = 23, above 216 30 x 7/8 = 26.
        assert_eq!((st.per[52], st.per[51], st.per[42], st.per[8]), (23, 23, 23, 0));
        assert_eq!(st.per[53], 26);
        // PER 55 at or below rate_max_phy lowers it one valid rate, and delays probing.
        let fail = Ath9kTxStatus::after_attempts(s, 20, false, 1, 1);
        let mut st = st0;
        st.per_down_time = t;
        st.per[52] = 40;
        rc.tx_status(&mut st, &fail, SimTime::ZERO);
        // 162 failed too: 0 + 30 (a rise is passed up only, to 243 ... 300).
        assert_eq!((st.per[52], st.per[51], st.per[53]), (70, 30, 70));
        assert_eq!(mbps(rc.mode(st.rate_max_phy)), 162.0);
        assert_eq!(st.probe_time, t);
        // With 216, 162 and 108 at 40, each reaches 70 and rate_max_phy ends at 81.
        let mut st = st0;
        st.per_down_time = t;
        st.per[50..=52].copy_from_slice(&[40, 40, 40]);
        rc.tx_status(&mut st, &fail, SimTime::ZERO);
        assert_eq!(mbps(rc.mode(st.rate_max_phy)), 81.0);
    }

    #[test]
    fn the_12_percent_per_floor_keeps_the_faster_rate() {
        let (rc, mut st) = paper_station();
        st.rate_max_phy = 54; // 270
                              // 270 at PER 11 against 243 at 0: 192100 x 89 < 178200 x 100 without the floor, but
                              // both count as 12 and 192100 x 88 > 178200 x 88.
        st.per[54] = 11;
        let s = rc.get_rate(&mut st, true, SimTime::ZERO);
        assert_eq!(mbps(s.entries[0].mode), 270.0);
        // Above the floor it counts: 192100 x 80 < 178200 x 88.
        st.per[54] = 20;
        let s = rc.get_rate(&mut st, true, SimTime::ZERO);
        assert_eq!(mbps(s.entries[0].mode), 243.0);
        // Equal estimates go to the lower rate (the search runs downwards with <=).
        st.per = [100; RATE_TABLE_SIZE];
        let s = rc.get_rate(&mut st, true, SimTime::ZERO);
        assert_eq!(mbps(s.entries[0].mode), 6.5);
    }

    /// A channel where every try above `max_kbps` fails and every other succeeds; A-MPDUs of
    /// `n` MPDUs while `ampdu`. Returns each PPDU's time and series.
    fn drive(
        rc: &Ath9kRc,
        st: &mut Ath9kStation,
        now: &mut SimTime,
        max_kbps: u32,
        dur: Dur,
        ampdu: bool,
    ) -> Vec<(SimTime, RateSeries)> {
        let end = *now + dur;
        let mut log = Vec::new();
        while *now < end {
            let s = rc.get_rate(st, ampdu, *now);
            let n = if ampdu && s.aggregable() { 10 } else { 1 };
            let mut attempts = 0;
            let mut acked = false;
            for e in &s.entries {
                if e.tries > 0 && e.mode.rate_kbps() <= max_kbps {
                    attempts += 1;
                    acked = true;
                    break;
                }
                attempts += u32::from(e.tries);
            }
            let status = Ath9kTxStatus::after_attempts(s, attempts, acked, n, if acked { 0 } else { n });
            rc.tx_status(st, &status, *now);
            log.push((*now, s));
            *now += Dur::from_ms(1);
        }
        log
    }

    #[test]
    fn failing_rates_are_left_and_probes_climb_back_to_the_top() {
        for ampdu in [true, false] {
            let (rc, mut st) = paper_station();
            let mut now = SimTime::ZERO;
            // Above 100 Mbit/s every try fails: after a settling second, frames start at 81
            // (MCS 4 HT40), and the only tries above are probes of 108, 50 ms apart at least.
            drive(&rc, &mut st, &mut now, 100_000, Dur::from_ms(1000), ampdu);
            let log = drive(&rc, &mut st, &mut now, 100_000, Dur::from_ms(2000), ampdu);
            let (probes, normal): (Vec<_>, Vec<_>) = log.iter().partition(|(_, s)| s.probe);
            assert!(normal.iter().all(|(_, s)| mbps(s.entries[0].mode) == 81.0), "ampdu {ampdu}");
            assert!(probes.iter().all(|(_, s)| mbps(s.entries[0].mode) == 108.0));
            assert!(probes.len() >= 20, "{}", probes.len());
            assert!(probes.windows(2).all(|w| w[1].0.since(w[0].0) > Dur::from_ms(50)));
            assert_eq!(mbps(rc.mode(st.rate_max_phy)), 81.0);

            // Every rate works again: each successful probe raises rate_max_phy one rate,
            // the next probe may follow 25 ms later; 300 Mbit/s is reached and kept.
            let log = drive(&rc, &mut st, &mut now, u32::MAX, Dur::from_ms(1000), ampdu);
            let probes: Vec<_> = log.iter().filter(|(_, s)| s.probe).collect();
            let steps: Vec<f64> = probes.iter().map(|(_, s)| mbps(s.entries[0].mode)).collect();
            assert_eq!(steps, [108.0, 162.0, 216.0, 243.0, 270.0, 300.0]);
            assert!(probes.windows(2).all(|w| w[1].0.since(w[0].0) > Dur::from_ms(25)));
            assert!(probes.last().unwrap().0.since(log[0].0) < Dur::from_ms(400));
            let top = log.iter().position(|(_, s)| mbps(s.entries[0].mode) == 300.0).unwrap();
            assert!(log[top..].iter().all(|(_, s)| mbps(s.entries[0].mode) == 300.0));
            assert_eq!(mbps(rc.mode(st.rate_max_phy)), 300.0);
        }
    }

    #[test]
    fn a_new_peer_with_a_good_channel_probes_up_from_the_fourth_highest_rate() {
        let (rc, mut st) = paper_station();
        let mut now = SimTime::ZERO + Dur::from_ms(5);
        let log = drive(&rc, &mut st, &mut now, u32::MAX, Dur::from_ms(200), true);
        // The first frame at 216, the second already a probe (the clocks start long ago).
        assert_eq!(mbps(log[0].1.entries[0].mode), 216.0);
        assert!(log[1].1.probe && mbps(log[1].1.entries[0].mode) == 243.0);
        assert_eq!(mbps(log.last().unwrap().1.entries[0].mode), 300.0);
    }

    #[test]
    fn a_probe_with_a_retry_or_half_its_mpdus_bad_fails() {
        let (rc, mut st0) = paper_station();
        let now = SimTime::ZERO;
        st0.hw_maxretry_pktcnt = 1;
        st0.per_down_time = msec(now); // no decay now
                                       // The probe (243) succeeded at its one try but 6 of 10 MPDUs were bad.
        let mut st = st0;
        let s = rc.get_rate(&mut st, true, now);
        assert!(s.probe);
        rc.tx_status(&mut st, &Ath9kTxStatus::after_attempts(s, 1, true, 10, 6), now);
        assert_eq!((st.probe_rate, mbps(rc.mode(st.rate_max_phy))), (0, 216.0));
        // 5 of 10: a success.
        let mut st = st0;
        let s = rc.get_rate(&mut st, true, now);
        rc.tx_status(&mut st, &Ath9kTxStatus::after_attempts(s, 1, true, 10, 5), now);
        assert_eq!((st.probe_rate, mbps(rc.mode(st.rate_max_phy))), (0, 243.0));
        assert_eq!(st.probe_time, msec(now).wrapping_sub(25));
        // The probe try failed, the next entry got through: a failure, PER + 12 on 243.
        let mut st = st0;
        let s = rc.get_rate(&mut st, true, now);
        rc.tx_status(&mut st, &Ath9kTxStatus::after_attempts(s, 2, true, 1, 0), now);
        assert_eq!((st.probe_rate, mbps(rc.mode(st.rate_max_phy))), (0, 216.0));
        assert_eq!(st.per[53], 12);
    }
}
