//! The CLAP rate law: where the sender's pacing rate comes from.
//!
//! Rates are IP-packet rates [bit/s of IP packets]: the pacing gap of a packet of b bytes at
//! rate R is 8 b / R. The law, per link report from the sender's own MAC:
//!
//! 1. On a PHY data or basic rate change, re-seed at once: R = C(new rate), the analytic
//!    one-station capacity (below), and wait for fresh measurements.
//! 2. Base rate B = the measured service rate S = 8 x segment IP bytes / service time, once the
//!    MAC has `min_service_samples` at the current rate; before that B = C.
//! 3. Queue correction: q frames queued at the MAC, target q*:
//!    q >= queue limit: R = B / 2; q > q*: R = B (1 - slowdown (q - q*)), at most halved;
//!    q = 0 and the sender not app-limited: R = B (1 + speedup); otherwise R = B.
//! 4. Bounds: C / `floor_divisor` <= R <= C x `ceiling_pct` / 100.
//!
//! The law is memoryless over reports (R depends on the latest report only, apart from the
//! re-seed), so the MAC may report per frame or less often without changing the gain.

use crate::mac::frame::{data_mpdu_bytes, ACK_BYTES};
use crate::phy::{PhyTiming, Preamble, Standard, TxVector};
use crate::time::Dur;

/// Static parameters: the PHY the sender's MAC runs and the gains of the law.
#[derive(Clone, Copy, Debug)]
pub struct RateConfig {
    pub standard: Standard,
    pub preamble: Preamble,
    pub timing: PhyTiming,
    /// QoS data frames (EDCA): 2 more header bytes.
    pub qos: bool,
    /// IP packet of a full-size segment [bytes].
    pub segment_ip_bytes: u32,
    /// MAC queue the law aims at [frames].
    pub queue_target_frames: u32,
    /// Speed-up when the MAC queue is empty and the sender had data [percent].
    pub speedup_pct: u64,
    /// Slow-down per frame above the target [percent].
    pub slowdown_pct_per_frame: u64,
    /// Largest slow-down of one report [percent] (also the cut when the queue is full).
    pub max_slowdown_pct: u64,
    /// Service-time samples at the current PHY rate before the measurement replaces C.
    pub min_service_samples: u32,
    /// Lower bound: C / floor_divisor.
    pub floor_divisor: u64,
    /// Upper bound: C x ceiling_pct / 100.
    pub ceiling_pct: u64,
}

impl RateConfig {
    /// The defaults of docs/clap.md for a MAC on `standard`.
    pub fn new(standard: Standard, preamble: Preamble, erp_mixed: bool, segment_ip_bytes: u32) -> RateConfig {
        RateConfig {
            standard,
            preamble,
            timing: PhyTiming::of(standard, erp_mixed),
            qos: false,
            segment_ip_bytes,
            queue_target_frames: 2,
            speedup_pct: 10,
            slowdown_pct_per_frame: 10,
            max_slowdown_pct: 50,
            min_service_samples: 4,
            floor_divisor: 64,
            ceiling_pct: 125,
        }
    }

    /// Mean time one station alone needs per frame at these rates: DIFS + mean backoff + data
    /// PPDU + SIFS + ACK PPDU. None if a rate does not belong to the standard.
    pub fn analytic_service_time(&self, data_rate_bps: u64, basic_rate_bps: u64) -> Option<Dur> {
        let mode = |bps: u64| {
            let kbps = u32::try_from(bps / 1000).ok().filter(|k| u64::from(*k) * 1000 == bps)?;
            self.standard.mode(kbps)
        };
        let (data, basic) = (mode(data_rate_bps)?, mode(basic_rate_bps)?);
        let t = &self.timing;
        // 10.3.2.3.5: DIFS = aSIFSTime + 2 x aSlotTime.
        let difs = t.sifs + t.slot.times(2);
        // 10.3.3: backoff = Random() x aSlotTime, Random() uniform on [0, CW]: mean CWmin / 2.
        let backoff = Dur(t.slot.ns() * u64::from(t.cw_min) / 2);
        // Clause 16.3.4 / 17.3.2.5 (crate::phy): the data PPDU carrying the MPDU.
        let mpdu = data_mpdu_bytes(self.segment_ip_bytes, self.qos);
        let data_air = TxVector::new(data, self.preamble).duration(mpdu);
        // 10.3.2.11: the ACK follows after SIFS, sent at a basic rate (10.6.6).
        let ack = TxVector::new(basic, self.preamble).duration(ACK_BYTES);
        Some(difs + backoff + data_air + t.sifs + ack)
    }

    /// The analytic one-station capacity [IP bit/s], C in the law.
    pub fn analytic_capacity_bps(&self, data_rate_bps: u64, basic_rate_bps: u64) -> Option<u64> {
        let t = self.analytic_service_time(data_rate_bps, basic_rate_bps)?;
        Some(self.rate_of(t.ns()))
    }

    /// A full-size segment per `service_ns` [IP bit/s].
    fn rate_of(&self, service_ns: u64) -> u64 {
        u64::from(self.segment_ip_bytes) * 8 * 1_000_000_000 / service_ns.max(1)
    }
}

/// What the sender's MAC tells CLAP (phase 2: after every frame exchange it finishes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkReport {
    /// PHY rate of data frames [bit/s].
    pub data_rate_bps: u64,
    /// Basic rate (ACKs, control responses) [bit/s].
    pub basic_rate_bps: u64,
    /// EWMA of the per-frame service time, from reaching the head of the queue to the end of
    /// the exchange (retries included) [ns]; valid when `service_samples` > 0.
    pub service_time_ns: u64,
    /// Samples in that EWMA since the data rate last changed (the MAC restarts it then).
    pub service_samples: u32,
    /// Frames in the MAC queue (the one CLAP feeds), and its limit [frames].
    pub queue_frames: u32,
    pub queue_limit_frames: u32,
}

/// The rate controller of one sender.
#[derive(Clone, Debug)]
pub struct RateController {
    pub cfg: RateConfig,
    data_rate_bps: u64,
    basic_rate_bps: u64,
    capacity_bps: u64,
    rate_bps: u64,
    measured_bps: Option<u64>,
    /// Times the rate was re-seeded by a PHY rate change.
    pub reseeds: u32,
}

impl RateController {
    /// Seeded at the analytic capacity; None if a rate does not belong to the standard.
    pub fn new(cfg: RateConfig, data_rate_bps: u64, basic_rate_bps: u64) -> Option<RateController> {
        let capacity_bps = cfg.analytic_capacity_bps(data_rate_bps, basic_rate_bps)?;
        Some(RateController {
            cfg,
            data_rate_bps,
            basic_rate_bps,
            capacity_bps,
            rate_bps: capacity_bps,
            measured_bps: None,
            reseeds: 0,
        })
    }

    /// The pacing rate [IP bit/s].
    pub fn rate_bps(&self) -> u64 {
        self.rate_bps
    }

    /// The analytic one-station capacity at the current PHY rates [IP bit/s].
    pub fn capacity_bps(&self) -> u64 {
        self.capacity_bps
    }

    /// The MAC's measured service rate, once it counts [IP bit/s].
    pub fn measured_bps(&self) -> Option<u64> {
        self.measured_bps
    }

    /// (lowest, highest) rate the law allows at the current PHY rates [IP bit/s].
    pub fn bounds_bps(&self) -> (u64, u64) {
        let c = self.capacity_bps;
        ((c / self.cfg.floor_divisor.max(1)).max(1), c * self.cfg.ceiling_pct / 100)
    }

    /// A link report; `app_limited`: the sender had nothing to send at some pacing slot since
    /// the previous report (an empty queue then says nothing about spare capacity).
    pub fn on_report(&mut self, r: &LinkReport, app_limited: bool) -> u64 {
        if r.data_rate_bps != self.data_rate_bps || r.basic_rate_bps != self.basic_rate_bps {
            let Some(c) = self.cfg.analytic_capacity_bps(r.data_rate_bps, r.basic_rate_bps) else {
                return self.rate_bps; // not a rate of this PHY: ignore the report
            };
            // The rate switch TCP never hears of: start over at the new rate's capacity.
            self.data_rate_bps = r.data_rate_bps;
            self.basic_rate_bps = r.basic_rate_bps;
            self.capacity_bps = c;
            self.rate_bps = c;
            self.measured_bps = None;
            self.reseeds += 1;
            return self.rate_bps;
        }
        self.measured_bps = (r.service_samples >= self.cfg.min_service_samples.max(1)
            && r.service_time_ns > 0)
            .then(|| self.cfg.rate_of(r.service_time_ns));
        let base = self.measured_bps.unwrap_or(self.capacity_bps);
        let q = r.queue_frames;
        let target = self.cfg.queue_target_frames;
        let pct = if r.queue_limit_frames > 0 && q >= r.queue_limit_frames {
            100 - self.cfg.max_slowdown_pct
        } else if q > target {
            let cut = self.cfg.slowdown_pct_per_frame * u64::from(q - target);
            100 - cut.min(self.cfg.max_slowdown_pct)
        } else if q == 0 && !app_limited {
            100 + self.cfg.speedup_pct
        } else {
            100
        };
        let (lo, hi) = self.bounds_bps();
        self.rate_bps = (base * pct / 100).clamp(lo, hi);
        self.rate_bps
    }
}
