//! The `channel` section: who hears whom (ranges or an explicit matrix) and the error model.

use serde::Deserialize;

use super::{err, num, SpecError};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelSpec {
    pub rx_range_m: f64,
    pub cs_range_m: f64,
    #[serde(default)]
    pub matrix: Option<MatrixSpec>,
    #[serde(default)]
    pub error: ErrorSpec,
    /// Receivers must detect a preamble before locking on (ns-3's default
    /// ThresholdPreambleDetectionModel): frames of equal power that start within the
    /// detection time of each other are detected by nobody, so the overlap is energy only.
    #[serde(default)]
    pub preamble_detection: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixSpec {
    pub rx: Vec<Vec<u8>>,
    pub cs: Vec<Vec<u8>>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum ErrorSpec {
    #[default]
    None,
    /// Every frame is lost with probability `fer`, independently per receiver.
    Fer { fer: f64 },
    /// Independent bit errors; the MAC header and the rest of the frame fail separately.
    Ber { ber: f64 },
    /// Bursty loss per directed link: a Gilbert-Elliott channel in continuous time
    /// (`channel::bursty`), Good and Bad with mean sojourns `good_ms` and `bad_ms`, a frame
    /// lost with probability `loss_good` or `loss_bad`.
    Gilbert { good_ms: f64, bad_ms: f64, loss_good: f64, loss_bad: f64 },
}

impl ChannelSpec {
    /// Check the `channel` section of a world of `n` nodes (a matrix has a row and a column per node).
    pub(super) fn validate(&self, n: usize) -> Result<(), SpecError> {
        let c = self;
        if !(c.rx_range_m.is_finite() && c.rx_range_m > 0.0) {
            return err(
                "channel.rx_range_m",
                format!("{} is out of range; allowed: a finite distance > 0 m", num(c.rx_range_m)),
            );
        }
        if !(c.cs_range_m.is_finite() && c.cs_range_m >= c.rx_range_m) {
            return err(
                "channel.cs_range_m",
                format!(
                    "{} is out of range; allowed: finite and >= rx_range_m ({})",
                    num(c.cs_range_m),
                    num(c.rx_range_m)
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
