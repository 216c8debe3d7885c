//! The `channel` section: who hears whom (ranges, an explicit matrix, or a radio model of
//! powers and SNR) and the error model.

use serde::Deserialize;

use super::{err, num, SpecError};

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChannelSpec {
    /// The range model's decode range: within it a frame is received; required unless `radio`
    /// is set, refused with it.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub rx_range_m: Option<f64>,
    /// The range model's carrier-sense and interference range, >= `rx_range_m`; required
    /// unless `radio` is set, refused with it.
    #[serde(default)]
    pub cs_range_m: Option<f64>,
    /// Explicit connectivity of the range model, overriding both ranges; refused with `radio`.
    #[serde(default)]
    pub matrix: Option<MatrixSpec>,
    /// The range model's frame errors besides collisions; must be "none" with `radio` (the
    /// SINR decides every reception).
    #[serde(default)]
    pub error: ErrorSpec,
    /// Receivers must detect a preamble before locking on (ns-3's default
    /// ThresholdPreambleDetectionModel): frames of equal power that start within the
    /// detection time of each other are detected by nobody, so the overlap is energy only.
    /// Range model only (the radio model has its own, `radio.preamble_detection`).
    #[serde(default)]
    pub preamble_detection: bool,
    /// The radio model: received powers from positions, path loss and fading, receptions
    /// decided by their SINR (`medium::snr`). Replaces the ranges and the matrix.
    #[serde(default)]
    pub radio: Option<RadioSpec>,
}

/// The radio model of a channel: every number in the units of its name. Defaults are ns-3
/// 3.44's `YansWifiPhy` and `YansWifiChannelHelper::Default` (channel::budget).
#[derive(Clone, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RadioSpec {
    /// The median path loss between two positions.
    pub path_loss: PathLossSpec,
    /// Block fading of every directed link on top of the path loss.
    #[serde(default)]
    pub fading: FadingSpec,
    /// When a receiver estimates the channel it decodes with: "ideal" (at every instant) or
    /// "preamble" (once, at the PPDU's start, as 802.11n's HT-LTFs: each subframe of an A-MPDU
    /// is then decided at SINR |h(0)|^2 S / (N + I + |h(0) - h(t)|^2 S) at its own time t,
    /// MoFA's model; only a channel that changes within a frame, `fading.kind = "doppler"`,
    /// makes a difference).
    #[serde(default)]
    pub estimation: crate::channel::doppler::Estimation,
    /// Every node's transmit power unless its own `tx_power_dbm` is set.
    #[schemars(range(min = -50, max = 60))]
    pub tx_power_dbm: f64,
    /// Transmit power per data rate, `[rate_mbps, dbm]` pairs of a rate of the standard and
    /// -50..60 dBm (QualNet's `PHY802.11a-TX-POWER` per rate: 20 dBm at 6 Mbit/s down to 16 at
    /// 54); a rate not listed uses `tx_power_dbm`. A node's own `tx_power_dbm` overrides both.
    #[serde(default)]
    pub tx_power_by_rate_dbm: Vec<[f64; 2]>,
    /// The receiver's noise figure NF: noise = k T0 B NF (ns-3 `RxNoiseFigure`: 7 dB).
    #[schemars(range(min = 0, max = 50))]
    pub noise_figure_db: f64,
    /// Signals weaker than this are not seen at all, not even as interference (ns-3
    /// `YansWifiChannel::Receive`).
    #[schemars(range(min = -200, max = 0))]
    pub rx_sensitivity_dbm: f64,
    /// Per data rate, `[rate_mbps, dbm]` (a rate of the standard, -200..0 dBm): a frame sent at
    /// that rate is received only at or above this power (QualNet's `PHY802.11a-RX-SENSITIVITY`
    /// per rate, −85 dBm at 6 Mbit/s to −69 at 54; IEEE 802.11-2020 Table 17-18 gives the
    /// minimum sensitivities −82..−65).
    #[serde(default)]
    pub rx_sensitivity_by_rate_dbm: Vec<[f64; 2]>,
    /// A signal at least this strong turns the medium busy (PHY-CCA, 17.3.10.6: −82 dBm for
    /// a valid 20 MHz OFDM signal; ns-3 `CcaSensitivity`).
    #[schemars(range(min = -200, max = 0))]
    pub cca_threshold_dbm: f64,
    /// `"nist"` or `"yans"` (phy::error::ErrorRateModel).
    pub error_model: crate::phy::error::ErrorRateModel,
    /// Compute every chunk's success with the exact model and every node's received power
    /// (no success tables, `phy::success_table`; no near lists, `medium::snr`): the same run,
    /// slower, for validation; false: both shortcuts, which change no result.
    #[serde(default)]
    pub exact: bool,
    /// Preamble detection (ns-3 `ThresholdPreambleDetectionModel`): a receiver locks onto a
    /// frame only if its power is at least `min_rssi_dbm` and its SINR at least `snr_db`;
    /// unset: every frame above the sensitivity is locked onto.
    #[serde(default)]
    pub preamble_detection: Option<PreambleDetectionSpec>,
    /// Frame capture (ns-3 `SimpleFrameCaptureModel`); unset: none, ns-3's default.
    #[serde(default)]
    pub capture: Option<CaptureSpec>,
    /// Log-normal shadowing: the standard deviation σ [dB] of a zero-mean normal loss drawn
    /// once per node pair for the run, the same both ways (Rappaport, Wireless Communications,
    /// Eq. 4.69: PL(d) = PL(d0) + 10 n log(d/d0) + X_σ); 0: none.
    #[serde(default)]
    #[schemars(range(min = 0, max = 30))]
    pub shadowing_db: f64,
    /// The seed of the channel's realization (shadowing and fading draws) in place of the
    /// run's: every replication then sees the same channel, as runs at one place do, while the
    /// run's seed draws the rest (backoffs, errors, traffic, mobility); unset: the run's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fading_seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PathLossSpec {
    /// Friis free space at `frequency_hz` (ns-3 `FriisPropagationLossModel`).
    Friis {
        /// The carrier frequency (ns-3 `Frequency`: 5.15 GHz).
        #[schemars(range(min = 1e6, max = 1e12))]
        frequency_hz: f64,
        /// Extra loss on top of free space: 10 log10 of ns-3's `SystemLoss` ratio (1 = 0 dB).
        #[schemars(range(min = 0, max = 100))]
        system_loss_db: f64,
    },
    /// Log-distance (ns-3 `LogDistancePropagationLossModel`): L0 + 10 n log10(d / d0).
    LogDistance {
        /// The path-loss exponent n (ns-3: 3).
        #[schemars(range(min = 1, max = 10))]
        exponent: f64,
        /// The reference distance d0 (ns-3: 1 m); closer, the loss is L0.
        #[schemars(range(min = 1e-3, max = 1e4))]
        reference_distance_m: f64,
        /// L0, the loss at d0 (ns-3: 46.6777 dB, Friis at 5.15 GHz and 1 m).
        #[schemars(range(min = 0, max = 200))]
        reference_loss_db: f64,
    },
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum FadingSpec {
    /// No fading: every frame sees the median power.
    #[default]
    None,
    /// Rayleigh block fading: one fade per frame, or per `coherence_ns` if set.
    Rayleigh {
        /// Frames starting in one block of this length share their fade (retries too);
        /// unset: one fade per frame.
        #[serde(default)]
        #[schemars(range(min = 1))]
        coherence_ns: Option<u64>,
    },
    /// Nakagami-m block fading (ns-3 `NakagamiPropagationLossModel`).
    Nakagami {
        /// The shape m (1 is Rayleigh).
        #[schemars(range(min = 0.5, max = 100))]
        m: f64,
        /// Frames starting in one block of this length share their fade (retries too);
        /// unset: one fade per frame.
        #[serde(default)]
        #[schemars(range(min = 1))]
        coherence_ns: Option<u64>,
    },
    /// Rayleigh fading that changes continuously, with Clarke's Doppler spectrum (Zheng and
    /// Xiao's sum of sinusoids, 2002): a frame's fade is the channel's at its start, so
    /// retries and following frames see a correlated gain (autocorrelation J0(2 pi f_D tau)).
    Doppler {
        /// The maximum Doppler shift f_D [Hz]: v f / c for a relative speed v at carrier f
        /// (1 m/s at 5.2 GHz: 17.3 Hz; TGn's environment Doppler: about 6 Hz at 5 GHz for
        /// scatterers at 1.2 km/h); 0 is a channel that never changes.
        #[schemars(range(min = 0, max = 100000))]
        doppler_hz: f64,
        /// The carrier [Hz]: with it, a node's own motion adds its speed over the wavelength to
        /// its links' Doppler (the channel follows the path each end has travelled through the
        /// scattered field); unset, only `doppler_hz` moves the channel.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(range(min = 1000000, max = 1000000000000.0))]
        carrier_hz: Option<f64>,
    },
    /// An IEEE 802.11 TGn channel model (802.11-03/940r4): a tapped delay line whose taps fade
    /// with TGn's bell Doppler spectrum, so OFDM PPDUs are decoded at the effective SINR of
    /// their subcarriers (EESM), with the model's line-of-sight ray within its breakpoint.
    Tgn {
        /// "B" (residential, 15 ns rms delay spread) or "D" (office, 50 ns).
        model: crate::channel::tgn::TgnModel,
        /// The bell spectrum's f_d = v_0 / lambda [Hz] (TGn: v_0 = 1.2 km/h, about 6 Hz at 5
        /// GHz); 0 is a channel that never changes.
        #[schemars(range(min = 0, max = 100000))]
        doppler_hz: f64,
    },
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PreambleDetectionSpec {
    /// The least SINR of a detected preamble (ns-3 `Threshold`: 4 dB).
    #[schemars(range(min = -50, max = 100))]
    pub snr_db: f64,
    /// The least power of a detected preamble (ns-3 `MinimumRssi`: -82 dBm).
    #[schemars(range(min = -200, max = 0))]
    pub min_rssi_dbm: f64,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaptureSpec {
    /// The newcomer must be more than this much stronger than the frame being received.
    #[schemars(range(min = 0, max = 100))]
    pub margin_db: f64,
    /// ... and start within this time of that frame's start.
    #[schemars(range(min = 1, max = 1_000_000_000))]
    pub window_ns: u64,
}

impl RadioSpec {
    /// A per-rate table as one value per mode of `standard` (`fallback` where not listed);
    /// checked against the standard's rates by `WorldSpec::validate`.
    pub fn per_mode(
        table: &[[f64; 2]],
        standard: crate::phy::Standard,
        fallback: f64,
    ) -> Box<[f64; crate::phy::modes::MODE_COUNT]> {
        let mut out = Box::new([fallback; crate::phy::modes::MODE_COUNT]);
        for [mbps, dbm] in table {
            if let Some(mode) = standard.mode((mbps * 1000.0).round() as u32) {
                out[usize::from(mode.0)] = *dbm;
            }
        }
        out
    }

    /// Check the per-rate tables' rates against `standard`'s.
    pub fn validate_rates(&self, standard: crate::phy::Standard) -> Result<(), SpecError> {
        for (name, table) in [
            ("tx_power_by_rate_dbm", &self.tx_power_by_rate_dbm),
            ("rx_sensitivity_by_rate_dbm", &self.rx_sensitivity_by_rate_dbm),
        ] {
            for (k, [mbps, _]) in table.iter().enumerate() {
                super::wifi::rate_kbps(standard, *mbps, &format!("channel.radio.{name}.{k}.0"))?;
            }
        }
        Ok(())
    }

    /// The path-loss model.
    pub fn path_loss(&self) -> crate::channel::PathLoss {
        use crate::channel::{Friis, LogDistance, PathLoss};
        match self.path_loss {
            PathLossSpec::Friis { frequency_hz, system_loss_db } => {
                PathLoss::Friis(Friis { frequency_hz, system_loss_db })
            }
            PathLossSpec::LogDistance { exponent, reference_distance_m, reference_loss_db } => {
                PathLoss::LogDistance(LogDistance { exponent, reference_distance_m, reference_loss_db })
            }
        }
    }

    /// The wavenumber 1 / lambda [1/m] a node's motion turns into Doppler (`FadingSpec::Doppler`'s
    /// `carrier_hz` over the speed of light); 0 without.
    pub fn motion_per_m(&self) -> f64 {
        match self.fading {
            FadingSpec::Doppler { carrier_hz: Some(f), .. } => {
                f / crate::channel::pathloss::SPEED_OF_LIGHT_MPS
            }
            _ => 0.0,
        }
    }

    /// The fading distribution and its coherence time (unset: one fade per frame).
    pub fn fading(&self) -> (Option<crate::channel::Fading>, Option<crate::time::Dur>) {
        use crate::channel::Fading;
        let dur = |c: Option<u64>| c.map(crate::time::Dur);
        match self.fading {
            FadingSpec::None => (None, None),
            FadingSpec::Rayleigh { coherence_ns } => (Some(Fading::Rayleigh), dur(coherence_ns)),
            FadingSpec::Nakagami { m, coherence_ns } => (Some(Fading::Nakagami { m }), dur(coherence_ns)),
            FadingSpec::Doppler { doppler_hz, .. } => (Some(Fading::Doppler { doppler_hz }), None),
            FadingSpec::Tgn { model, doppler_hz } => (Some(Fading::Tgn { model, doppler_hz }), None),
        }
    }

    /// The error-rate model (checked by `validate`).
    pub fn error_model(&self) -> crate::phy::error::ErrorRateModel {
        self.error_model
    }

    fn validate(&self) -> Result<(), SpecError> {
        let in_range = |path: &str, v: f64, lo: f64, hi: f64, unit: &str| {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                err(
                    &format!("channel.radio.{path}"),
                    format!("{} is out of range; allowed: {lo}..{hi}{unit}", num(v)),
                )
            }
        };
        match self.path_loss {
            PathLossSpec::Friis { frequency_hz, system_loss_db } => {
                in_range("path_loss.frequency_hz", frequency_hz, 1e6, 1e12, " Hz")?;
                in_range("path_loss.system_loss_db", system_loss_db, 0.0, 100.0, " dB")?;
            }
            PathLossSpec::LogDistance { exponent, reference_distance_m, reference_loss_db } => {
                in_range("path_loss.exponent", exponent, 1.0, 10.0, "")?;
                in_range("path_loss.reference_distance_m", reference_distance_m, 1e-3, 1e4, " m")?;
                in_range("path_loss.reference_loss_db", reference_loss_db, 0.0, 200.0, " dB")?;
            }
        }
        if let FadingSpec::Nakagami { m, .. } = self.fading {
            in_range("fading.m", m, 0.5, 100.0, "")?;
        }
        if let FadingSpec::Doppler { doppler_hz, .. } | FadingSpec::Tgn { doppler_hz, .. } = self.fading {
            in_range("fading.doppler_hz", doppler_hz, 0.0, 100_000.0, " Hz")?;
        }
        if let FadingSpec::Doppler { carrier_hz: Some(f), .. } = self.fading {
            in_range("fading.carrier_hz", f, 1e6, 1e12, " Hz")?;
        }
        if let FadingSpec::Rayleigh { coherence_ns: Some(0) }
        | FadingSpec::Nakagami { coherence_ns: Some(0), .. } = self.fading
        {
            return err(
                "channel.radio.fading.coherence_ns",
                "0 is out of range; allowed: > 0 ns, or unset (one fade per frame)",
            );
        }
        in_range("tx_power_dbm", self.tx_power_dbm, -50.0, 60.0, " dBm")?;
        in_range("noise_figure_db", self.noise_figure_db, 0.0, 50.0, " dB")?;
        in_range("shadowing_db", self.shadowing_db, 0.0, 30.0, " dB")?;
        in_range("rx_sensitivity_dbm", self.rx_sensitivity_dbm, -200.0, 0.0, " dBm")?;
        for (name, table, lo, hi) in [
            ("tx_power_by_rate_dbm", &self.tx_power_by_rate_dbm, -50.0, 60.0),
            ("rx_sensitivity_by_rate_dbm", &self.rx_sensitivity_by_rate_dbm, -200.0, 0.0),
        ] {
            for (k, [_, dbm]) in table.iter().enumerate() {
                in_range(&format!("{name}.{k}.1"), *dbm, lo, hi, " dBm")?;
            }
        }
        in_range("cca_threshold_dbm", self.cca_threshold_dbm, -200.0, 0.0, " dBm")?;
        if let Some(p) = self.preamble_detection {
            in_range("preamble_detection.snr_db", p.snr_db, -50.0, 100.0, " dB")?;
            in_range("preamble_detection.min_rssi_dbm", p.min_rssi_dbm, -200.0, 0.0, " dBm")?;
        }
        if let Some(c) = self.capture {
            in_range("capture.margin_db", c.margin_db, 0.0, 100.0, " dB")?;
            if c.window_ns == 0 || c.window_ns > 1_000_000_000 {
                return err(
                    "channel.radio.capture.window_ns",
                    format!("{} is out of range; allowed: 1..1e9 ns", c.window_ns),
                );
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatrixSpec {
    /// n x n of 0/1, one row and column per node: `rx[i][j]` = 1: node j decodes node i.
    pub rx: Vec<Vec<u8>>,
    /// n x n of 0/1: `cs[i][j]` = 1: node j senses node i and is interfered with by it.
    pub cs: Vec<Vec<u8>>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ErrorSpec {
    /// Only collisions lose frames.
    #[default]
    None,
    /// Every frame is lost with probability `fer`, independently per receiver.
    Fer {
        /// The frame error rate: every frame (data, ACK, RTS, CTS) is corrupted with this
        /// probability at each node that would decode it.
        #[schemars(range(min = 0), extend("exclusiveMaximum" = 1))]
        fer: f64,
    },
    /// Independent bit errors; the MAC header and the rest of the frame fail separately.
    Ber {
        /// The bit error rate: every bit is corrupted with this probability.
        #[schemars(range(min = 0), extend("exclusiveMaximum" = 1))]
        ber: f64,
    },
    /// Bursty loss per directed link: a Gilbert-Elliott channel in continuous time
    /// (`channel::bursty`), Good and Bad with mean sojourns `good_ms` and `bad_ms`, a frame
    /// lost with probability `loss_good` or `loss_bad`.
    Gilbert {
        /// The mean sojourn in Good (exponential).
        #[schemars(range(min = 1e-6, max = 1e10))]
        good_ms: f64,
        /// The mean sojourn in Bad (exponential).
        #[schemars(range(min = 1e-6, max = 1e10))]
        bad_ms: f64,
        /// A frame starting in Good is lost whole with this probability.
        #[schemars(range(min = 0, max = 1))]
        loss_good: f64,
        /// A frame starting in Bad is lost whole with this probability.
        #[schemars(range(min = 0, max = 1))]
        loss_bad: f64,
    },
    /// An external on/off interferer per directed link (`channel::bursty::OnOff`): on and off
    /// for exponential periods of means `on_ms` and `off_ms`; a frame it overlaps is lost.
    Interferer {
        /// The mean on period (exponential).
        #[schemars(range(min = 1e-6, max = 1e10))]
        on_ms: f64,
        /// The mean off period (exponential).
        #[schemars(range(min = 1e-6, max = 1e10))]
        off_ms: f64,
    },
}

impl ChannelSpec {
    /// Check the `channel` section of a world of `n` nodes (a matrix has a row and a column per node).
    pub(super) fn validate(&self, n: usize) -> Result<(), SpecError> {
        let c = self;
        if let Some(radio) = &c.radio {
            radio.validate()?;
            for (name, set) in [
                ("rx_range_m", c.rx_range_m.is_some()),
                ("cs_range_m", c.cs_range_m.is_some()),
                ("matrix", c.matrix.is_some()),
                ("preamble_detection", c.preamble_detection),
            ] {
                if set {
                    return err(
                        &format!("channel.{name}"),
                        "is set together with channel.radio; allowed: one model (the radio model has \
                         its own preamble_detection)",
                    );
                }
            }
            if c.error != ErrorSpec::None {
                return err(
                    "channel.error",
                    "must be none with channel.radio (the SINR decides every reception)",
                );
            }
            return Ok(());
        }
        let Some(rx_range_m) = c.rx_range_m else {
            return err(
                "channel.rx_range_m",
                "is missing; allowed: a finite distance > 0 m (or set channel.radio)",
            );
        };
        if !(rx_range_m.is_finite() && rx_range_m > 0.0) {
            return err(
                "channel.rx_range_m",
                format!("{} is out of range; allowed: a finite distance > 0 m", num(rx_range_m)),
            );
        }
        let cs_range_m = c.cs_range_m.unwrap_or(f64::NAN);
        if !(cs_range_m.is_finite() && cs_range_m >= rx_range_m) {
            return err(
                "channel.cs_range_m",
                format!(
                    "{} is out of range; allowed: finite and >= rx_range_m ({})",
                    if c.cs_range_m.is_some() { num(cs_range_m) } else { "missing".into() },
                    num(rx_range_m)
                ),
            );
        }
        if let Some(m) = &c.matrix {
            for (name, rows) in [("rx", &m.rx), ("cs", &m.cs)] {
                if rows.len() != n || rows.iter().any(|r| r.len() != n) {
                    return err(
                        &format!("channel.matrix.{name}"),
                        format!("must be {n} x {n} (one row and column per node)"),
                    );
                }
                for (i, row) in rows.iter().enumerate() {
                    if let Some(j) = row.iter().position(|v| *v > 1) {
                        return err(
                            &format!("channel.matrix.{name}.{i}.{j}"),
                            format!("{} is out of range; allowed: 0 or 1", row[j]),
                        );
                    }
                }
            }
        }
        match c.error {
            ErrorSpec::None => {}
            ErrorSpec::Fer { fer } if !(0.0..1.0).contains(&fer) => {
                return err("channel.error.fer", format!("{} is out of range; allowed: [0, 1)", num(fer)));
            }
            ErrorSpec::Ber { ber } if !(0.0..1.0).contains(&ber) => {
                return err("channel.error.ber", format!("{} is out of range; allowed: [0, 1)", num(ber)));
            }
            ErrorSpec::Interferer { on_ms, off_ms } => {
                for (name, v) in [("on_ms", on_ms), ("off_ms", off_ms)] {
                    if !(v.is_finite() && (1e-6..=1e10).contains(&v)) {
                        return err(
                            &format!("channel.error.{name}"),
                            format!("{} is out of range; allowed: 1e-6..1e10 ms", num(v)),
                        );
                    }
                }
            }
            ErrorSpec::Gilbert { good_ms, bad_ms, loss_good, loss_bad } => {
                for (name, v) in [("good_ms", good_ms), ("bad_ms", bad_ms)] {
                    if !(v.is_finite() && (1e-6..=1e10).contains(&v)) {
                        return err(
                            &format!("channel.error.{name}"),
                            format!("{} is out of range; allowed: 1e-6..1e10 ms", num(v)),
                        );
                    }
                }
                for (name, v) in [("loss_good", loss_good), ("loss_bad", loss_bad)] {
                    if !(0.0..=1.0).contains(&v) {
                        return err(
                            &format!("channel.error.{name}"),
                            format!("{} is out of range; allowed: [0, 1]", num(v)),
                        );
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}
