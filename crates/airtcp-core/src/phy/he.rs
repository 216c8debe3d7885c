//! 802.11ax HE single-user PPDUs (IEEE 802.11ax-2021 Clause 27): MCS parameters, data
//! rates, and TXTIME of an HE SU PPDU (27.4.3) with LDPC's pre-FEC padding factor and the
//! packet extension (27.3.12).
//!
//! A first slice of issue 38's HE PHY, beside `vht.rs`. Multi-user OFDMA (RUs smaller than the
//! channel, HE MU and trigger-based PPDUs) is a later step: [`HeMode`] describes a full-band
//! single-user transmission, and an RU's size is the seam (`n_sd` and `n_sd_short` take the
//! width as the RU of the whole channel: 242, 484, 996 and 2x996 tones).

/// Channel widths of an HE SU PPDU [MHz], the highest MCS, streams modelled, and the guard
/// intervals [ns].
pub const WIDTHS_MHZ: [u16; 4] = [20, 40, 80, 160];
pub const MAX_MCS: u8 = 11;
pub const MAX_STREAMS: u8 = 4;
pub const GUARD_INTERVALS_NS: [u16; 3] = [800, 1600, 3200];
/// The longest HE PSDU [bytes] (Table 27-54's aPSDUMaxLength) and PPDU [ns] (aPPDUMaxTime).
pub const MAX_PSDU_BYTES: u32 = 6_500_631;
pub const MAX_PPDU_NS: u64 = 5_484_000;

/// One HE SU transmission format: MCS 0-11, 20-160 MHz, 1-4 streams, a guard interval of
/// 0.8, 1.6 or 3.2 us (with the HE-LTF the "GI+LTF size" field pairs it with: 2x, 2x, 4x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeMode {
    pub mcs: u8,
    pub width_mhz: u16,
    pub nss: u8,
    pub gi_ns: u16,
}

use super::vht::{n_ltf, nonht_reference_bps, MCS_TABLE};

/// Data subcarriers of the full-band RU (Table 27-13: 242, 484, 996 and 2x996 tones) and of
/// the short symbol the pre-FEC padding counts in (N_SD,short, Table 27-33, as MathWorks' WLAN
/// Toolbox `heNSDShort` implements it).
fn n_sd(width_mhz: u16) -> u32 {
    match width_mhz {
        20 => 234,
        40 => 468,
        80 => 980,
        _ => 1960,
    }
}

fn n_sd_short(width_mhz: u16) -> u32 {
    match width_mhz {
        20 => 60,
        40 => 120,
        80 => 240,
        _ => 492,
    }
}

/// Where a PPDU's last data symbol ends and what follows it: N_SYM, the pre-FEC padding
/// factor a (1-4: how many quarters of the last symbol carry data) and T_PE [us].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataField {
    pub n_sym: u64,
    pub a: u8,
    pub pe_us: u64,
}

impl HeMode {
    /// Whether the format is one airtcp models, and why not (every MCS, width and stream count
    /// of 1-4 exists in HE; the guard interval must be one of the three).
    pub fn check(&self) -> Result<(), String> {
        if self.mcs > MAX_MCS {
            return Err(format!("HE MCS {} does not exist; allowed: 0..={MAX_MCS}", self.mcs));
        }
        if !WIDTHS_MHZ.contains(&self.width_mhz) {
            return Err(format!("{} MHz is not an HE width; allowed: 20, 40, 80, 160", self.width_mhz));
        }
        if !(1..=MAX_STREAMS).contains(&self.nss) {
            return Err(format!("{} spatial streams; allowed: 1..={MAX_STREAMS}", self.nss));
        }
        if !GUARD_INTERVALS_NS.contains(&self.gi_ns) {
            return Err(format!("a {} ns guard interval; allowed: 800, 1600, 3200 ns", self.gi_ns));
        }
        Ok(())
    }

    fn bits(&self, subcarriers: u32) -> (u32, u32) {
        let (bpscs, num, den) = MCS_TABLE[usize::from(self.mcs)];
        let n_cbps = subcarriers * bpscs * u32::from(self.nss);
        (n_cbps, n_cbps * num / den)
    }

    /// Coded and data bits per symbol (N_CBPS, N_DBPS = floor(N_CBPS x R)).
    pub fn n_cbps(&self) -> u32 {
        self.bits(n_sd(self.width_mhz)).0
    }
    pub fn n_dbps(&self) -> u32 {
        self.bits(n_sd(self.width_mhz)).1
    }

    /// The data symbol [ns]: 12.8 us plus the guard interval (13.6, 14.4 or 16 us).
    pub fn symbol_ns(&self) -> u64 {
        12_800 + u64::from(self.gi_ns)
    }

    /// Data rate [bit/s]: N_CBPS x R per symbol before N_DBPS's flooring, as the rate tables
    /// give it (600.5 Mbit/s for MCS 11 at 80 MHz, where N_DBPS is 8166), rounded down.
    pub fn rate_bps(&self) -> u64 {
        let (num, den) = self.rate();
        u64::from(self.n_cbps()) * num * 1_000_000_000 / (den * self.symbol_ns())
    }

    /// One HE-LTF symbol [ns]: 2x HE-LTF (6.4 us) with the 0.8 or 1.6 us GI, 4x (12.8 us) with
    /// 3.2 us (the "GI+LTF size" of HE-SIG-A, 27.3.11.7).
    pub fn ltf_symbol_ns(&self) -> u64 {
        match self.gi_ns {
            3200 => 16_000,
            gi => 6_400 + u64::from(gi),
        }
    }

    /// The HE SU preamble after the legacy 20 us (27.4.3): RL-SIG 4 + HE-SIG-A 8 + HE-STF 4
    /// us + one HE-LTF symbol per N_HE-LTF [ns].
    pub fn he_preamble_ns(&self) -> u64 {
        (4 + 8 + 4) * 1000 + n_ltf(self.nss) * self.ltf_symbol_ns()
    }

    /// The data field of a PSDU of `bytes` under LDPC (27.3.12.5.2): N_SYM,init and the
    /// pre-FEC padding factor from the excess bits in quarter symbols (N_DBPS,short), then
    /// the LDPC extra symbol segment where 19.3.11.7.5's puncturing test asks for it (a + 1,
    /// or one more symbol when a was 4), and T_PE for the receiver's nominal packet padding
    /// (Table 27-46: 0, 8 or 16 us: 4 us per quarter symbol at 16, the last two at 8).
    pub fn data_field(&self, bytes: u32, nominal_padding_us: u8) -> DataField {
        let (n_cbps, n_dbps) = (u64::from(self.n_cbps()), u64::from(self.n_dbps()));
        let (n_cbps_short, n_dbps_short) = {
            let (c, d) = self.bits(n_sd_short(self.width_mhz));
            (u64::from(c), u64::from(d))
        };
        let payload = 8 * u64::from(bytes) + 16; // SERVICE, no tail bits with LDPC
        let mut n_sym = payload.div_ceil(n_dbps).max(1);
        let excess = payload % n_dbps;
        let mut a = if excess == 0 { 4 } else { excess.div_ceil(n_dbps_short).min(4) };
        let last = |a: u64, full: u64, short: u64| if a == 4 { full } else { a * short };
        let n_pld = (n_sym - 1) * n_dbps + last(a, n_dbps, n_dbps_short);
        let n_avbits = (n_sym - 1) * n_cbps + last(a, n_cbps, n_cbps_short);
        if ldpc_needs_extra_segment(n_pld, n_avbits, self.rate()) {
            if a == 4 {
                n_sym += 1;
                a = 1;
            } else {
                a += 1;
            }
        }
        let pe_us = match nominal_padding_us {
            16 => 4 * a,
            8 => 4 * a.saturating_sub(2),
            _ => 0,
        };
        DataField { n_sym, a: a as u8, pe_us }
    }

    fn rate(&self) -> (u64, u64) {
        let (_, num, den) = MCS_TABLE[usize::from(self.mcs)];
        (u64::from(num), u64::from(den))
    }

    /// TXTIME [ns] of an HE SU PPDU carrying `bytes` (27.4.3, Eq. 27-135, no midambles): 20 us
    /// of legacy preamble, the HE preamble, N_SYM data symbols, T_PE, and in 2.4 GHz the 6 us
    /// signal extension.
    pub fn txtime_ns(&self, bytes: u32, nominal_padding_us: u8, band_2g4: bool) -> u64 {
        let d = self.data_field(bytes, nominal_padding_us);
        let ext = if band_2g4 { 6_000 } else { 0 };
        20_000 + self.he_preamble_ns() + d.n_sym * self.symbol_ns() + d.pe_us * 1000 + ext
    }

    /// The non-HT reference rate [bit/s] (10.6.6.5.2): as VHT's, 54 Mbit/s for 256- and
    /// 1024-QAM.
    pub fn nonht_reference_bps(&self) -> u64 {
        nonht_reference_bps(self.mcs)
    }
}

/// 19.3.11.7.5 (LDPC PPDU encoding), steps b-d: the codewords (Table 19-16) for N_pld payload
/// bits in N_avbits coded bits at rate `num/den`, the shortening and puncturing they need, and
/// whether puncturing is heavy enough to take an extra symbol segment.
fn ldpc_needs_extra_segment(n_pld: u64, n_avbits: u64, (num, den): (u64, u64)) -> bool {
    // Work in units of 1/den to keep (1 - R) exact.
    let parity = den - num; // (1 - R) x den
    let (n_cw, l_ldpc) = if n_avbits <= 648 {
        (1, if n_avbits * den >= n_pld * den + 912 * parity { 1296 } else { 648 })
    } else if n_avbits <= 1296 {
        (1, if n_avbits * den >= n_pld * den + 1464 * parity { 1944 } else { 1296 })
    } else if n_avbits <= 1944 {
        (1, 1944)
    } else if n_avbits <= 2592 {
        (2, if n_avbits * den >= n_pld * den + 2916 * parity { 1944 } else { 1296 })
    } else {
        ((n_pld * den).div_ceil(1944 * num), 1944)
    };
    let info = n_cw * l_ldpc * num / den; // N_CW x L_LDPC x R
    let n_shrt = info.saturating_sub(n_pld);
    let n_punc = (n_cw * l_ldpc).saturating_sub(n_avbits + n_shrt);
    // N_punc > 0.1 N_CW L_LDPC (1 - R) and N_shrt < 1.2 N_punc R / (1 - R), or
    // N_punc > 0.3 N_CW L_LDPC (1 - R); scaled by 10 den (and by (1 - R) in the second).
    let cw_parity = n_cw * l_ldpc * parity; // N_CW L_LDPC (1 - R) x den
    (10 * den * n_punc > cw_parity && 10 * n_shrt * parity < 12 * n_punc * num)
        || 10 * den * n_punc > 3 * cw_parity
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(mcs: u8, width_mhz: u16, nss: u8, gi_ns: u16) -> HeMode {
        HeMode { mcs, width_mhz, nss, gi_ns }
    }

    #[test]
    fn rates_are_the_standards_tables() {
        // Table 27-64 onward (1 stream): MCS 0 at 20 MHz 8.6 Mbit/s (0.8 us GI), MCS 11 at 20
        // MHz 143.4, at 80 MHz 600.5, at 160 MHz 1201; MCS 7 at 20 MHz with 3.2 us 73.1.
        assert_eq!(m(0, 20, 1, 800).rate_bps(), 8_602_941);
        assert_eq!(m(11, 20, 1, 800).rate_bps(), 143_382_352);
        assert_eq!(m(11, 80, 1, 800).rate_bps(), 600_490_196);
        assert_eq!(m(11, 160, 1, 800).rate_bps(), 1_200_980_392);
        assert_eq!(m(7, 20, 1, 3200).rate_bps(), 73_125_000);
        // 4 streams at 160 MHz, MCS 11: 4803.9 Mbit/s, the 802.11ax headline.
        assert_eq!(m(11, 160, 4, 800).rate_bps(), 4_803_921_568);
        assert!(m(12, 20, 1, 800).check().unwrap_err().contains("allowed: 0..=11"));
        assert!(m(0, 20, 1, 400).check().unwrap_err().contains("allowed: 800, 1600, 3200 ns"));
    }

    // By hand from 27.3.12.5.2 and 19.3.11.7.5: N_SYM,init = ceil((8 L + 16) / N_DBPS),
    // N_excess = (8 L + 16) mod N_DBPS, a = min(ceil(N_excess / N_DBPS,short), 4) (4 if no
    // excess); N_pld, N_avbits with the last symbol's a quarters; Table 19-16's codewords,
    // shortening and puncturing; TXTIME = 20 + 16 + N_LTF T_LTF + N_SYM T_SYM + T_PE us.
    #[test]
    fn txtime_by_hand() {
        // MCS 0, 20 MHz, 1 stream, 0.8 us, 1500 bytes: N_DBPS 117, N_DBPS,short 30; 12016 bits:
        // 103 symbols, excess 82, a = 3; N_pld = 102 x 117 + 90 = 12024, N_avbits = 102 x 234
        // + 180 = 24048; 13 codewords of 1944, N_shrt = 612, N_punc = 612 < 1263.6: no extra.
        // 20 + 16 + 7.2 + 103 x 13.6 = 1444 us; T_PE 12 us at 16 us nominal padding.
        let v = m(0, 20, 1, 800);
        assert_eq!(v.data_field(1500, 16), DataField { n_sym: 103, a: 3, pe_us: 12 });
        assert_eq!(v.txtime_ns(1500, 0, false), 1_444_000);
        assert_eq!(v.txtime_ns(1500, 16, false), 1_456_000);
        assert_eq!(v.txtime_ns(1500, 8, false), 1_448_000);
        // MCS 11, 80 MHz, 2 streams, 0.8 us, 1500 bytes: N_CBPS 19600, N_DBPS 16333,
        // N_DBPS,short 4000; 12016 bits < 16333: 1 symbol, a = ceil(12016 / 4000) = 4;
        // N_pld 16333, N_avbits 19600: 11 codewords (ceil(16333 / 1620)), N_shrt = 17820 -
        // 16333 = 1487, N_punc = 21384 - 19600 - 1487 = 297 < 0.1 x 11 x 1944 / 6 = 356.4:
        // no extra. Preamble 20 + 16 + 2 x 7.2 = 50.4 us, + 13.6 = 64 us.
        let v = m(11, 80, 2, 800);
        assert_eq!(v.data_field(1500, 0), DataField { n_sym: 1, a: 4, pe_us: 0 });
        assert_eq!(v.txtime_ns(1500, 0, false), 64_000);
        // MCS 7, 20 MHz, 1 stream, 3.2 us GI (4x HE-LTF, 16 us), 1500 bytes: N_CBPS 1404,
        // N_DBPS 1170, N_DBPS,short 300; 12016 = 10 x 1170 + 316: 11 symbols, a = ceil(316 /
        // 300) = 2; N_pld = 10 x 1170 + 600 = 12300, N_avbits = 10 x 1404 + 720 = 14760; 8
        // codewords (ceil(12300 / 1620)), N_shrt = 12960 - 12300 = 660, N_punc = 15552 -
        // 14760 - 660 = 132 < 259.2: no extra. 20 + 16 + 16 + 11 x 16 = 228 us.
        let v = m(7, 20, 1, 3200);
        assert_eq!(v.data_field(1500, 0), DataField { n_sym: 11, a: 2, pe_us: 0 });
        assert_eq!(v.txtime_ns(1500, 0, false), 228_000);
        // MCS 5, 40 MHz, 2 streams, 1.6 us, 1 byte: N_CBPS 5616, N_DBPS 3744, N_DBPS,short 960;
        // 24 bits: 1 symbol, a = 1; N_pld 960, N_avbits 1440: one codeword of 1944 (N_avbits
        // in (1296, 1944]), N_shrt = 1296 - 960 = 336, N_punc = 1944 - 1440 - 336 = 168 >
        // 0.1 x 648 = 64.8 and N_shrt 336 < 1.2 x 168 x 2 = 403.2: extra segment, a = 2.
        // 20 + 16 + 2 x 8 + 14.4 = 66.4 us, + T_PE 8 us at 16.
        let v = m(5, 40, 2, 1600);
        assert_eq!(v.data_field(1, 16), DataField { n_sym: 1, a: 2, pe_us: 8 });
        assert_eq!(v.txtime_ns(1, 0, false), 66_400);
        // In 2.4 GHz the PPDU ends with the 6 us signal extension.
        assert_eq!(v.txtime_ns(1, 0, true), 72_400);
        // MCS 11, 160 MHz, 4 streams, 0.8 us, 65535 bytes: N_DBPS 65333, 524296 bits =
        // 8 x 65333 + 1632: 9 symbols, a = ceil(1632 / 16400) = 1 (N_DBPS,short 492 x 10 x 4
        // x 5/6 = 16400); N_pld 539064, N_avbits 8 x 78400 + 19680 = 646880; 333 codewords
        // (ceil(539064 / 1620)), N_shrt = 539460 - 539064 = 396, N_punc = 647352 - 646880 -
        // 396 = 76, far under 0.1 x 333 x 324 = 10789: no extra. Preamble
        // 20 + 16 + 4 x 7.2 = 64.8 us, + 9 x 13.6 = 187.2 us.
        let v = m(11, 160, 4, 800);
        assert_eq!(v.data_field(65_535, 0), DataField { n_sym: 9, a: 1, pe_us: 0 });
        assert_eq!(v.txtime_ns(65_535, 0, false), 187_200);
    }

    /// ns-3 3.44's `HePhy` (`bench/ns3/txtime_reference.csv`): rates and N_DBPS equal (ns-3
    /// keeps N_DBPS's fraction, 6533.3 for MCS 9 at 80 MHz, where the standard floors it).
    /// Its TXTIME is a different model (BCC's N_SYM with N_ES = 1, no pre-FEC padding factor,
    /// no T_PE, an 8 us HE-LTF at every GI): bench/ns3/NOTES.md "VHT and HE TXTIME reference".
    #[test]
    fn rates_agree_with_ns3() {
        let csv = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/ns3/txtime_reference.csv"));
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let mut checked = 0;
        for line in lines {
            let f: Vec<&str> = line.split(',').collect();
            if f[col("standard")] != "he" {
                continue;
            }
            let num = |name: &str| f[col(name)].parse::<u64>().unwrap();
            let v = HeMode {
                mcs: num("mcs") as u8,
                width_mhz: num("width_mhz") as u16,
                nss: num("nss") as u8,
                gi_ns: num("gi_ns") as u16,
            };
            assert!(v.check().is_ok() && f[col("allowed")] == "1", "{v:?}");
            let ns3_ndbps: f64 = f[col("n_dbps")].parse().unwrap();
            assert_eq!(ns3_ndbps.floor() as u32, v.n_dbps(), "{v:?}");
            // ns-3's rate is N_DBPS (unfloored) / T_SYM rounded up, as airtcp's rounded down: 1 ppm.
            let ns3_rate = num("data_rate_bps") as f64;
            assert!((ns3_rate / v.rate_bps() as f64 - 1.0).abs() < 1e-6, "{v:?}");
            assert_eq!(num("nonht_ref_bps"), v.nonht_reference_bps(), "{v:?}");
            checked += 1;
        }
        // 12 MCS x 4 widths x 4 streams x 3 GIs x 3 sizes.
        assert_eq!(checked, 12 * 4 * 4 * 3 * 3);
    }
}
