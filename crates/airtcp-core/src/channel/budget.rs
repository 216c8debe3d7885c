//! The link budget: unit conversions, thermal noise, received power and SNR, and ns-3's
//! `WifiPhy` defaults. Powers in dBm or mW (linear sums are taken in mW), ratios in dB or
//! linear.

/// Boltzmann's constant as ns-3 writes it \[J/K\] (`InterferenceHelper::CalculateSnr`, 3.44;
/// CODATA 2018 is 1.380649e-23, 0.0005 dB apart).
pub const BOLTZMANN_J_PER_K: f64 = 1.3803e-23;
/// The standard noise temperature T0 \[K\] (ns-3 `InterferenceHelper::CalculateSnr`).
pub const NOISE_TEMPERATURE_K: f64 = 290.0;

// ns-3 3.44 `WifiPhy::GetTypeId` attribute defaults (src/wifi/model/wifi-phy.cc), and the
// preamble detection model the `WifiPhyHelper` installs by default
// (src/wifi/model/threshold-preamble-detection-model.cc).

/// `TxPowerStart` = `TxPowerEnd` = 16.0206 dBm (40 mW).
pub const NS3_TX_POWER_DBM: f64 = 16.0206;
/// `RxNoiseFigure` \[dB\].
pub const NS3_RX_NOISE_FIGURE_DB: f64 = 7.0;
/// `RxSensitivity` \[dBm\], for a 20 MHz signal (ns-3 scales it with the signal's width).
pub const NS3_RX_SENSITIVITY_DBM: f64 = -101.0;
/// `CcaEdThreshold` \[dBm\]: energy detection of any signal.
pub const NS3_CCA_ED_THRESHOLD_DBM: f64 = -62.0;
/// `CcaSensitivity` \[dBm\]: CCA busy on a received Wi-Fi signal.
pub const NS3_CCA_SENSITIVITY_DBM: f64 = -82.0;
/// `TxGain`, `RxGain` \[dB\].
pub const NS3_ANTENNA_GAIN_DB: f64 = 0.0;
/// `ThresholdPreambleDetectionModel`: `Threshold` (minimum SNR) \[dB\] and `MinimumRssi` \[dBm\].
pub const NS3_PREAMBLE_DETECTION_SNR_DB: f64 = 4.0;
pub const NS3_PREAMBLE_DETECTION_MIN_RSSI_DBM: f64 = -82.0;

/// dBm to mW: `10^(dBm/10)`.
pub fn dbm_to_mw(dbm: f64) -> f64 {
    10f64.powf(dbm / 10.0)
}

/// mW to dBm: `10·log10(mW)` (−∞ for 0 mW).
pub fn mw_to_dbm(mw: f64) -> f64 {
    10.0 * mw.log10()
}

/// dB to a linear power ratio.
pub fn db_to_ratio(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

/// A linear power ratio to dB.
pub fn ratio_to_db(ratio: f64) -> f64 {
    10.0 * ratio.log10()
}

/// Receiver noise floor \[dBm\]: `k·T0·B·NF` (ns-3 `InterferenceHelper::CalculateSnr`, with
/// ns-3's k = 1.3803e-23 J/K and T0 = 290 K; NF linear there, in dB here). 20 MHz, NF 7 dB:
/// −93.97 dBm.
pub fn noise_dbm(bandwidth_hz: f64, noise_figure_db: f64) -> f64 {
    mw_to_dbm(BOLTZMANN_J_PER_K * NOISE_TEMPERATURE_K * bandwidth_hz * 1e3) + noise_figure_db
}

/// [`noise_dbm`] in mW, the unit in which interference adds up.
pub fn noise_mw(bandwidth_hz: f64, noise_figure_db: f64) -> f64 {
    dbm_to_mw(noise_dbm(bandwidth_hz, noise_figure_db))
}

/// Received power \[dBm\] of a transmission at `tx_power_dbm` through `loss_db` of path loss
/// and a fading power gain `fading_gain` (linear, mean 1; 1 without fading). Antenna gains
/// are ns-3's (0 dB) unless folded into the loss.
pub fn rx_power_dbm(tx_power_dbm: f64, loss_db: f64, fading_gain: f64) -> f64 {
    tx_power_dbm - loss_db + ratio_to_db(fading_gain)
}

/// Linear SNR (SINR) of a signal over noise plus interference, all in mW, as ns-3
/// `InterferenceHelper::CalculateSnr` (before its multi-antenna AWGN diversity gain):
/// `signal / (noise + interference)`.
pub fn snr(signal_mw: f64, noise_mw: f64, interference_mw: f64) -> f64 {
    signal_mw / (noise_mw + interference_mw)
}

/// [`snr`] in dB.
pub fn snr_db(signal_mw: f64, noise_mw: f64, interference_mw: f64) -> f64 {
    ratio_to_db(snr(signal_mw, noise_mw, interference_mw))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn conversions_round_trip() {
        assert_eq!(dbm_to_mw(0.0), 1.0);
        assert!(close(dbm_to_mw(20.0), 100.0, 1e-12));
        assert!(close(mw_to_dbm(dbm_to_mw(-93.5)), -93.5, 1e-12));
        assert!(close(db_to_ratio(3.0), 1.9953, 1e-4));
        assert!(close(ratio_to_db(2.0), 3.0103, 1e-4));
        // ns-3's default Tx power is 40 mW (hand: 10·log10(40) = 16.0206).
        assert!(close(dbm_to_mw(NS3_TX_POWER_DBM), 40.0, 1e-4));
    }

    #[test]
    fn thermal_noise_matches_the_closed_form() {
        // Hand computation: k·T0 = 1.3803e-23 · 290 = 4.0029e-21 W/Hz = −173.976 dBm/Hz.
        assert!(close(noise_dbm(1.0, 0.0), -173.976, 1e-3));
        // Research note §5.3: 20 MHz → −101.0 dBm (+ NF 7 → −94.0); 22 MHz → −100.6 (−93.6).
        assert!(close(noise_dbm(20e6, 0.0), -100.966, 1e-3));
        assert!(close(noise_dbm(20e6, NS3_RX_NOISE_FIGURE_DB), -93.966, 1e-3));
        assert!(close(noise_dbm(22e6, NS3_RX_NOISE_FIGURE_DB), -93.552, 1e-3));
        assert!(close(mw_to_dbm(noise_mw(20e6, 7.0)), noise_dbm(20e6, 7.0), 1e-12));
        // ns-3's sensitivity −101 dBm is the 20 MHz thermal floor without the noise figure.
        assert!(close(noise_dbm(20e6, 0.0), NS3_RX_SENSITIVITY_DBM, 0.05));
    }

    #[test]
    fn snr_over_noise_and_interference() {
        let noise = dbm_to_mw(-94.0);
        let signal = dbm_to_mw(-80.0);
        assert!(close(snr_db(signal, noise, 0.0), 14.0, 1e-9));
        // Interference as strong as the noise doubles the denominator: −3.0103 dB.
        assert!(close(snr_db(signal, noise, noise), 14.0 - 3.0103, 1e-4));
        assert!(close(snr(4.0, 1.0, 1.0), 2.0, 1e-15));
    }

    #[test]
    fn received_power_adds_up_the_budget() {
        // ns-3 defaults: 16.0206 dBm through LogDistance at 10 m (76.6777 dB) = −60.6571 dBm;
        // a fade of 0.5 costs 3.0103 dB.
        assert!(close(rx_power_dbm(NS3_TX_POWER_DBM, 76.6777, 1.0), -60.6571, 1e-9));
        assert!(close(rx_power_dbm(NS3_TX_POWER_DBM, 76.6777, 0.5), -63.6674, 1e-4));
    }
}
