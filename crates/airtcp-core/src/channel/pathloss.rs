//! Deterministic path loss \[dB\] as a function of distance, with ns-3's conventions at short
//! range. Positive numbers are losses: received power = transmit power − `loss_db`.

/// Speed of light in vacuum \[m/s\] (exact; ns-3 `FriisPropagationLossModel::SetFrequency`).
pub const SPEED_OF_LIGHT_MPS: f64 = 299_792_458.0;

/// Free-space loss (Friis 1946), as ns-3 `FriisPropagationLossModel::DoCalcRxPower` (3.44):
/// `L = −10·log10(λ² / (16π²·d²·SystemLoss))`, floored at ns-3's `MinLoss` (default 0 dB),
/// which is also the loss at distance 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Friis {
    pub frequency_hz: f64,
    /// ns-3's `SystemLoss` attribute is a linear ratio (default 1); this is `10·log10` of it.
    pub system_loss_db: f64,
}

impl Friis {
    /// ns-3 3.44 attribute defaults: Frequency 5.15 GHz, SystemLoss 1 (0 dB).
    pub const NS3_DEFAULT: Friis = Friis { frequency_hz: 5.15e9, system_loss_db: 0.0 };

    /// Loss at `distance_m` \[dB\]: `20·log10(4π·d·f/c) + system_loss_db`, never below 0 dB
    /// (ns-3's `MinLoss` default; the formula goes negative below d = λ/4π, a few mm), and
    /// 0 dB at d ≤ 0. ns-3 only logs a warning inside the near field (d < 3λ); so does nothing
    /// here.
    pub fn loss_db(&self, distance_m: f64) -> f64 {
        if distance_m <= 0.0 {
            return 0.0;
        }
        let ratio = 4.0 * std::f64::consts::PI * distance_m * self.frequency_hz / SPEED_OF_LIGHT_MPS;
        (20.0 * ratio.log10() + self.system_loss_db).max(0.0)
    }

    /// The wavelength \[m\].
    pub fn wavelength_m(&self) -> f64 {
        SPEED_OF_LIGHT_MPS / self.frequency_hz
    }
}

/// Log-distance loss, as ns-3 `LogDistancePropagationLossModel::DoCalcRxPower` (3.44):
/// `L = L0 + 10·n·log10(d/d0)` for d > d0, and exactly `L0` for d ≤ d0 (distance 0 included).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogDistance {
    /// n (ns-3 `Exponent`).
    pub exponent: f64,
    /// d0 (ns-3 `ReferenceDistance`) \[m\].
    pub reference_distance_m: f64,
    /// L0 (ns-3 `ReferenceLoss`) \[dB\].
    pub reference_loss_db: f64,
}

impl LogDistance {
    /// ns-3 3.44 attribute defaults: Exponent 3, ReferenceDistance 1 m, ReferenceLoss
    /// 46.6777 dB. ns-3 calls that loss "Friis at 1 m with 5.15 GHz"; it is Friis with
    /// c = 3e8 m/s (46.6779); with the exact c, [`Friis::loss_db`] gives 46.6839.
    pub const NS3_DEFAULT: LogDistance =
        LogDistance { exponent: 3.0, reference_distance_m: 1.0, reference_loss_db: 46.6777 };

    pub fn loss_db(&self, distance_m: f64) -> f64 {
        if distance_m <= self.reference_distance_m {
            return self.reference_loss_db;
        }
        self.reference_loss_db + 10.0 * self.exponent * (distance_m / self.reference_distance_m).log10()
    }

    /// The distance at which the loss reaches `loss_db` \[m\] (the inverse of [`Self::loss_db`]
    /// above d0; d0 itself when `loss_db` ≤ L0): e.g. a range from a link budget.
    pub fn distance_m(&self, loss_db: f64) -> f64 {
        if loss_db <= self.reference_loss_db {
            return self.reference_distance_m;
        }
        self.reference_distance_m * 10f64.powf((loss_db - self.reference_loss_db) / (10.0 * self.exponent))
    }
}

/// A deterministic path-loss model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathLoss {
    Friis(Friis),
    LogDistance(LogDistance),
}

impl PathLoss {
    /// Loss over `distance_m` \[dB\], never negative for sane parameters.
    pub fn loss_db(&self, distance_m: f64) -> f64 {
        match self {
            PathLoss::Friis(f) => f.loss_db(distance_m),
            PathLoss::LogDistance(l) => l.loss_db(distance_m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn friis_at_one_metre_matches_the_research_note() {
        // Research note §5.1 (closed form 20·log10(4πf/c)): 40.10 dB at 2.412 GHz, 46.77 at 5.2.
        let at = |f| Friis { frequency_hz: f, system_loss_db: 0.0 }.loss_db(1.0);
        assert!(close(at(2.412e9), 40.10, 0.005), "{}", at(2.412e9));
        assert!(close(at(5.2e9), 46.77, 0.005), "{}", at(5.2e9));
        assert!(close(at(2.437e9), 40.18, 0.005));
        assert!(close(at(5.32e9), 46.97, 0.005));
        // ns-3's default frequency (closed form, exact c): 46.6839 dB.
        assert!(close(Friis::NS3_DEFAULT.loss_db(1.0), 46.6839, 1e-4));
    }

    #[test]
    fn friis_is_inverse_square_plus_system_loss() {
        let f = Friis { frequency_hz: 2.412e9, system_loss_db: 0.0 };
        // Doubling the distance costs 20·log10(2) = 6.0206 dB; ten times, 20 dB (closed form).
        assert!(close(f.loss_db(200.0) - f.loss_db(100.0), 6.0206, 1e-4));
        assert!(close(f.loss_db(1000.0) - f.loss_db(100.0), 20.0, 1e-9));
        let lossy = Friis { system_loss_db: 3.0, ..f };
        assert!(close(lossy.loss_db(50.0) - f.loss_db(50.0), 3.0, 1e-12));
        assert!(close(f.wavelength_m(), 0.124292, 1e-6));
    }

    #[test]
    fn friis_short_range_follows_ns3_min_loss() {
        // ns-3: distance <= 0 returns MinLoss (0 dB); below λ/4π (4.9 mm at 2.412 GHz) the
        // formula is negative and max(loss, MinLoss) floors it at 0 dB.
        let f = Friis { frequency_hz: 2.412e9, system_loss_db: 0.0 };
        assert_eq!(f.loss_db(0.0), 0.0);
        assert_eq!(f.loss_db(-1.0), 0.0);
        assert_eq!(f.loss_db(0.001), 0.0);
        assert!(f.loss_db(0.01) > 0.0);
    }

    #[test]
    fn log_distance_ns3_defaults_and_short_range() {
        let l = LogDistance::NS3_DEFAULT;
        // Hand computation: 46.6777 + 30·log10(10) = 76.6777; 46.6777 + 30·log10(100) = 106.6777.
        assert!(close(l.loss_db(10.0), 76.6777, 1e-9));
        assert!(close(l.loss_db(100.0), 106.6777, 1e-9));
        // ns-3: d <= d0 returns the reference loss, distance 0 included.
        assert_eq!(l.loss_db(1.0), 46.6777);
        assert_eq!(l.loss_db(0.5), 46.6777);
        assert_eq!(l.loss_db(0.0), 46.6777);
        // ns-3's reference loss is Friis at 5.15 GHz with c = 3e8, 0.006 dB below the exact c.
        assert!(close(Friis::NS3_DEFAULT.loss_db(1.0) - l.reference_loss_db, 0.0062, 1e-4));
        let enum_form = PathLoss::LogDistance(l);
        assert_eq!(enum_form.loss_db(10.0), l.loss_db(10.0));
    }

    #[test]
    fn log_distance_reproduces_the_research_note_range_fit() {
        // Research note §5.6: n = 2, L0 = 50.7 dB at 1 m; budget at 6 Mb/s = 20 dBm + 85 dB
        // − 2.94 dB = 102.06 dB, so the 6 Mb/s range is 370 m (hand: 50.7 + 20·log10(370) =
        // 102.064 dB) and 48/54 Mb/s (budget 82.06 dB) reach 37 m.
        let l = LogDistance { exponent: 2.0, reference_distance_m: 1.0, reference_loss_db: 50.7 };
        assert!(close(l.loss_db(370.0), 102.064, 1e-3));
        assert!(close(l.distance_m(20.0 + 85.0 - 2.94), 370.0, 0.2));
        assert!(close(l.distance_m(16.0 + 69.0 - 2.94), 37.0, 0.02));
        assert_eq!(l.distance_m(10.0), 1.0);
        // Round trip.
        assert!(close(l.distance_m(l.loss_db(123.4)), 123.4, 1e-9));
    }
}
