//! 802.11ac VHT single-user PPDUs (IEEE 802.11-2020 Clause 21): the MCS parameters, which
//! (MCS, width, streams) combinations exist, data rates, and TXTIME (21.4.3).
//!
//! A first slice of issue 38's VHT PHY: the arithmetic every later piece (the mode table, the
//! MAC's aggregates, rate control, the error model) reads. It is checked by hand against the
//! standard's formulas and against ns-3 3.44's `VhtPhy` (`bench/ns3/txtime_reference.csv`).

/// Channel widths a VHT PPDU may occupy [MHz].
pub const WIDTHS_MHZ: [u16; 4] = [20, 40, 80, 160];
/// Highest VHT MCS and the most spatial streams airtcp models (the standard allows 8).
pub const MAX_MCS: u8 = 9;
pub const MAX_STREAMS: u8 = 4;
/// The longest VHT PSDU (A-MPDU) [bytes] and PPDU [ns]: aPSDUMaxLength (Table 21-29) and
/// aPPDUMaxTime (5.484 ms, the L-SIG LENGTH's limit).
pub const MAX_PSDU_BYTES: u32 = 1_048_575;
pub const MAX_PPDU_NS: u64 = 5_484_000;

/// One VHT single-user transmission format: MCS 0-9, 20/40/80/160 MHz, 1-4 spatial streams,
/// the 400 ns guard interval (`sgi`) or 800 ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VhtMode {
    pub mcs: u8,
    pub width_mhz: u16,
    pub nss: u8,
    pub sgi: bool,
}

/// Bits per subcarrier per stream (N_BPSCS) and the coding rate as (numerator, denominator)
/// of MCS 0-9 (Table 21-30 and the following MCS tables) and HE's MCS 10-11, 1024-QAM (Tables
/// 27-64 onward); HE's MCS 0-9 are VHT's.
pub(crate) const MCS_TABLE: [(u32, u32, u32); 12] = [
    (1, 1, 2),  // BPSK 1/2
    (2, 1, 2),  // QPSK 1/2
    (2, 3, 4),  // QPSK 3/4
    (4, 1, 2),  // 16-QAM 1/2
    (4, 3, 4),  // 16-QAM 3/4
    (6, 2, 3),  // 64-QAM 2/3
    (6, 3, 4),  // 64-QAM 3/4
    (6, 5, 6),  // 64-QAM 5/6
    (8, 3, 4),  // 256-QAM 3/4
    (8, 5, 6),  // 256-QAM 5/6
    (10, 3, 4), // 1024-QAM 3/4 (HE)
    (10, 5, 6), // 1024-QAM 5/6 (HE)
];

/// Data subcarriers (N_SD) per width (Table 21-5: 52, 108, 234, 468).
fn n_sd(width_mhz: u16) -> u32 {
    match width_mhz {
        20 => 52,
        40 => 108,
        80 => 234,
        _ => 468,
    }
}

/// Training symbols for 1-4 space-time streams: VHT-LTFs (Table 21-13) and HE-LTFs (Table
/// 27-16) alike, 1, 2, 4, 4.
pub(crate) fn n_ltf(nss: u8) -> u64 {
    match nss {
        1 => 1,
        2 => 2,
        _ => 4,
    }
}

impl VhtMode {
    /// Whether the format exists, and why not (21.5: the combinations whose N_CBPS / N_ES or
    /// N_DBPS / N_ES is not an integer are excluded from the MCS tables).
    pub fn check(&self) -> Result<(), String> {
        if self.mcs > MAX_MCS {
            return Err(format!("VHT MCS {} does not exist; allowed: 0..={MAX_MCS}", self.mcs));
        }
        if !WIDTHS_MHZ.contains(&self.width_mhz) {
            return Err(format!("{} MHz is not a VHT width; allowed: 20, 40, 80, 160", self.width_mhz));
        }
        if !(1..=MAX_STREAMS).contains(&self.nss) {
            return Err(format!("{} spatial streams; allowed: 1..={MAX_STREAMS}", self.nss));
        }
        // The standard's holes for 1-4 streams (Tables 21-30 to 21-61).
        let hole = match (self.mcs, self.width_mhz, self.nss) {
            (9, 20, n) => n != 3,
            (6, 80, 3) => true,
            (9, 160, 3) => true,
            _ => false,
        };
        if hole {
            return Err(format!(
                "VHT MCS {} at {} MHz with {} spatial stream{} is not in the standard's MCS tables \
                 (802.11-2020 21.5: its bits per symbol do not divide among the encoders)",
                self.mcs,
                self.width_mhz,
                self.nss,
                if self.nss == 1 { "" } else { "s" }
            ));
        }
        Ok(())
    }

    /// Data bits per OFDM symbol: N_SD x N_BPSCS x R x N_SS.
    pub fn n_dbps(&self) -> u32 {
        let (bpscs, num, den) = MCS_TABLE[usize::from(self.mcs)];
        n_sd(self.width_mhz) * bpscs * u32::from(self.nss) * num / den
    }

    /// Data rate [bit/s]: N_DBPS per 4 us symbol, or per 3.6 us with the short GI (rounded
    /// down to a whole bit/s, as the tables round 86.7 Mbit/s).
    pub fn rate_bps(&self) -> u64 {
        let n = u64::from(self.n_dbps());
        if self.sgi {
            n * 10_000_000 / 36
        } else {
            n * 250_000
        }
    }

    /// BCC encoders (N_ES, the MCS tables' column): one per 600 Mbit/s at the short GI's rate
    /// (540 at the long GI's: N_DBPS / 2160 either way), except MCS 7 at 160 MHz with 4
    /// streams, which the standard gives 6 rather than 5 (Table 21-61; ns-3
    /// `VhtPhy::GetNumberBccEncoders` and its exception table).
    pub fn n_es(&self) -> u64 {
        if (self.mcs, self.width_mhz, self.nss) == (7, 160, 4) {
            return 6;
        }
        u64::from(self.n_dbps()).div_ceil(2160).max(1)
    }

    /// The preamble and headers before the data (21.4.3): L-STF 8 + L-LTF 8 + L-SIG 4 +
    /// VHT-SIG-A 8 + VHT-STF 4 + 4 per VHT-LTF + VHT-SIG-B 4 us. ns-3 3.44 leaves VHT-SIG-B
    /// out of SU PPDUs (`VhtPhy::GetSigBDuration`: "only for MU"), 4 us shorter.
    pub fn preamble_us(&self) -> u64 {
        8 + 8 + 4 + 8 + 4 + 4 * n_ltf(self.nss) + 4
    }

    /// Data OFDM symbols for a PSDU of `bytes` (21.4.3, BCC, no STBC): N_SYM = ceil((8
    /// APEP_LENGTH + 16 + 6 N_ES) / N_DBPS).
    pub fn n_sym(&self, bytes: u32) -> u64 {
        (8 * u64::from(bytes) + 16 + 6 * self.n_es()).div_ceil(u64::from(self.n_dbps()))
    }

    /// TXTIME [ns] of a VHT SU PPDU carrying `bytes` (21.4.3, Eq. 21-106): the preamble, then
    /// N_SYM symbols of 4 us, or with the short GI T_SYML x ceil(T_SYMS x N_SYM / T_SYML): 3.6
    /// us symbols rounded up to the 4 us the L-SIG counts in.
    pub fn txtime_ns(&self, bytes: u32) -> u64 {
        let n_sym = self.n_sym(bytes);
        let data_us = if self.sgi { 4 * (9 * n_sym).div_ceil(10) } else { 4 * n_sym };
        (self.preamble_us() + data_us) * 1000
    }

    /// The non-HT reference rate [bit/s] of the MCS (Table 10-10 for VHT, 10.6.6.5.2): the
    /// OFDM rate of the same modulation and coding, which picks a control response's rate.
    pub fn nonht_reference_bps(&self) -> u64 {
        nonht_reference_bps(self.mcs)
    }
}

/// The non-HT reference rate [bit/s] of a VHT or HE MCS: 6-48 Mbit/s for BPSK 1/2 to 64-QAM
/// 2/3, 54 from 64-QAM 3/4 up, 256- and 1024-QAM included.
pub(crate) fn nonht_reference_bps(mcs: u8) -> u64 {
    const REF_MBPS: [u64; 12] = [6, 12, 18, 24, 36, 48, 54, 54, 54, 54, 54, 54];
    REF_MBPS[usize::from(mcs)] * 1_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(mcs: u8, width_mhz: u16, nss: u8, sgi: bool) -> VhtMode {
        VhtMode { mcs, width_mhz, nss, sgi }
    }

    #[test]
    fn rates_are_the_standards_tables() {
        // Tables 21-30 (20 MHz, 1 stream), 21-38 (80 MHz, 1), 21-46 (80, 2), 21-61 (160, 4):
        // MCS 0 at 20 MHz 6.5 / 7.2 Mbit/s; MCS 8 at 20 MHz 78 / 86.7; MCS 9 at 80 MHz 390 /
        // 433.3; MCS 9 at 80 MHz x 2 866.7; MCS 9 at 160 MHz x 4 3120 / 3466.7.
        assert_eq!(m(0, 20, 1, false).rate_bps(), 6_500_000);
        assert_eq!(m(0, 20, 1, true).rate_bps(), 7_222_222);
        assert_eq!(m(8, 20, 1, false).rate_bps(), 78_000_000);
        assert_eq!(m(8, 20, 1, true).rate_bps(), 86_666_666);
        assert_eq!(m(9, 80, 1, false).rate_bps(), 390_000_000);
        assert_eq!(m(9, 80, 1, true).rate_bps(), 433_333_333);
        assert_eq!(m(9, 80, 2, true).rate_bps(), 866_666_666);
        assert_eq!(m(9, 160, 4, false).rate_bps(), 3_120_000_000);
        assert_eq!(m(9, 160, 4, true).rate_bps(), 3_466_666_666);
        // N_ES: 1 up to 600 Mbit/s, 2 for 866.7, 6 for 3466.7 (the tables' N_ES column).
        assert_eq!(
            (m(9, 80, 1, true).n_es(), m(9, 80, 2, true).n_es(), m(9, 160, 4, false).n_es()),
            (1, 2, 6)
        );
    }

    #[test]
    fn the_standards_holes_are_refused_with_the_reason() {
        for (mcs, w, n) in [(9, 20, 1), (9, 20, 2), (9, 20, 4), (6, 80, 3), (9, 160, 3)] {
            let e = m(mcs, w, n, false).check().unwrap_err();
            assert!(e.contains("not in the standard's MCS tables"), "{e}");
        }
        assert!(m(9, 20, 3, false).check().is_ok(), "MCS 9 at 20 MHz exists with 3 streams");
        assert!(m(10, 80, 1, false).check().unwrap_err().contains("allowed: 0..=9"));
        assert!(m(0, 60, 1, false).check().unwrap_err().contains("allowed: 20, 40, 80, 160"));
        assert!(m(0, 20, 5, false).check().unwrap_err().contains("allowed: 1..=4"));
        let ok = WIDTHS_MHZ
            .iter()
            .flat_map(|&w| (0..=9).flat_map(move |mcs| (1..=4).map(move |n| m(mcs, w, n, false))))
            .filter(|v| v.check().is_ok())
            .count();
        assert_eq!(ok, 4 * 10 * 4 - 5);
    }

    // TXTIME by hand from 21.4.3: preamble 40 us (1 stream), 44 (2), 52 (3-4); N_SYM =
    // ceil((8 L + 16 + 6 N_ES) / N_DBPS); data 4 N_SYM us, or 4 ceil(0.9 N_SYM) us with the
    // short GI.
    #[test]
    fn txtime_by_hand() {
        // MCS 0, 20 MHz, 1 stream, 1500 bytes: ceil(12022 / 26) = 463 symbols: 40 + 1852 us.
        assert_eq!(m(0, 20, 1, false).txtime_ns(1500), 1_892_000);
        // Short GI: 463 x 3.6 = 1666.8 -> 1668 us: 1708 us.
        assert_eq!(m(0, 20, 1, true).txtime_ns(1500), 1_708_000);
        // MCS 9, 80 MHz, 2 streams, short GI, 1500 bytes: N_DBPS 234 x 8 x 2 x 5/6 = 3120,
        // N_ES 2: ceil(12028 / 3120) = 4 symbols, 14.4 -> 16 us: 44 + 16 = 60 us.
        assert_eq!(m(9, 80, 2, true).txtime_ns(1500), 60_000);
        // MCS 7, 40 MHz, 1 stream, short GI, 65535 bytes: N_DBPS 540:
        // ceil(524302 / 540) = 971 symbols, 3495.6 -> 3496 us: 3536 us.
        assert_eq!(m(7, 40, 1, true).txtime_ns(65_535), 3_536_000);
        // MCS 9, 160 MHz, 4 streams, short GI, 1500 bytes: N_DBPS 12480, N_ES 6:
        // ceil(12052 / 12480) = 1 symbol, 3.6 -> 4 us: 52 + 4 = 56 us.
        assert_eq!(m(9, 160, 4, true).txtime_ns(1500), 56_000);
        // MCS 4, 20 MHz, 3 streams, long GI, 100 bytes: N_DBPS 156 x 3 = 468:
        // ceil(822 / 468) = 2 symbols: 52 + 8 = 60 us.
        assert_eq!(m(4, 20, 3, false).txtime_ns(100), 60_000);
        // The largest A-MPDU at MCS 9, 160 MHz, 4 streams, short GI fits aPPDUMaxTime:
        // ceil((8388600 + 16 + 36) / 12480) = 673 symbols, 2422.8 -> 2424 us: 2476 us.
        let t = m(9, 160, 4, true).txtime_ns(MAX_PSDU_BYTES);
        assert_eq!(t, 2_476_000);
        assert!(t <= MAX_PPDU_NS);
    }

    #[test]
    fn control_responses_use_the_non_ht_reference_rate() {
        // Table 10-10: BPSK 1/2 -> 6, QPSK 1/2 -> 12, ..., 64-QAM 3/4 and above -> 54 Mbit/s.
        assert_eq!(m(0, 80, 2, true).nonht_reference_bps(), 6_000_000);
        assert_eq!(m(4, 20, 1, false).nonht_reference_bps(), 36_000_000);
        assert_eq!(m(9, 160, 1, false).nonht_reference_bps(), 54_000_000);
    }

    /// ns-3 3.44's `VhtPhy` over every MCS, width, 1-4 streams, both guard intervals and four
    /// PSDU sizes (`bench/ns3/phy_txtime.cc`, `bench/ns3/txtime_reference.csv`): the same
    /// combinations refused, N_DBPS, N_ES and rates equal (to 1 ppm: ns-3 rounds its
    /// double-precision rates up, airtcp down), and TXTIME 4 us longer (VHT-SIG-B) plus, with the short GI, the
    /// 21.4.3 rounding of the data symbols to 4 us that ns-3 leaves out.
    #[test]
    fn agrees_with_ns3_apart_from_sig_b_and_the_short_gi_rounding() {
        let csv = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/ns3/txtime_reference.csv"));
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (mut checked, mut refused) = (0, 0);
        for line in lines {
            let f: Vec<&str> = line.split(',').collect();
            if f[col("standard")] != "vht" {
                continue;
            }
            let num = |name: &str| f[col(name)].parse::<u64>().unwrap();
            let v = VhtMode {
                mcs: num("mcs") as u8,
                width_mhz: num("width_mhz") as u16,
                nss: num("nss") as u8,
                sgi: num("gi_ns") == 400,
            };
            let ns3_ok = f[col("allowed")] == "1" && f[col("txvector_valid")] == "1";
            assert_eq!(v.check().is_ok(), ns3_ok, "{v:?}");
            if !ns3_ok {
                refused += 1;
                continue;
            }
            let len = num("length_bytes") as u32;
            let ns3_rate = num("data_rate_bps");
            // ns-3 computes in double precision and rounds up: a few bit/s above, at most.
            assert!(
                ns3_rate.abs_diff(v.rate_bps()) <= ns3_rate / 1_000_000,
                "{v:?}: {ns3_rate} vs {}",
                v.rate_bps()
            );
            let ns3_ndbps: f64 = f[col("n_dbps")].parse().unwrap();
            assert_eq!(ns3_ndbps.floor() as u32, v.n_dbps(), "{v:?}");
            assert_eq!(num("n_es"), v.n_es(), "{v:?}");
            let (pre, dur) = (num("preamble_ns"), num("duration_ns"));
            assert_eq!(v.preamble_us() * 1000, pre + 4000, "{v:?}");
            let n_sym = v.n_sym(len);
            let symbol_ns = if v.sgi { 3600 } else { 4000 };
            assert_eq!(dur - pre, n_sym * symbol_ns, "{v:?} {len} B: ns-3's N_SYM");
            let rounded = if v.sgi { 4000 * (9 * n_sym).div_ceil(10) } else { 4000 * n_sym };
            assert_eq!(v.txtime_ns(len), pre + 4000 + rounded, "{v:?} {len} B");
            checked += 1;
        }
        // 4 widths x 10 MCS x 4 streams - 5 holes = 155 formats, x 2 GIs x 4 sizes.
        assert_eq!((checked, refused), (155 * 2 * 4, 5 * 2 * 4));
    }
}
