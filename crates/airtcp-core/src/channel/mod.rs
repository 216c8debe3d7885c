//! # The radio channel: pure building blocks for a physical medium
//!
//! Nothing here holds events or touches the medium's state; every function is a pure function
//! of its arguments (random draws included: they are hashed from stable keys, see below), takes
//! time as integer nanoseconds ([`SimTime`](crate::time::SimTime), [`Dur`](crate::time::Dur))
//! and allocates nothing per call. Units are in the names (`_dbm`, `_db`, `_mw`, `_m`, `_mps`,
//! `_hz`).
//!
//! - [`pathloss`]: deterministic loss over a distance, Friis and log-distance with ns-3's
//!   conventions below the reference distance ([`PathLoss`]).
//! - [`budget`]: dBm/mW conversions, thermal noise `k·T0·B·NF`, received power, SNR over noise
//!   plus interference, ns-3's `WifiPhy` defaults as constants.
//! - [`fading`]: Rayleigh and Nakagami-m block fading as a stateless draw
//!   `rayleigh_gain(seed, link_key, block)`, blocks per frame or per coherence time ([`block_of`],
//!   [`coherence_time`]).
//! - [`doppler`]: time-correlated Rayleigh fading with Clarke's Doppler spectrum, the complex
//!   gain `coefficient(seed, link_key, f_D, t)` of Zheng and Xiao's sum of sinusoids.
//! - [`mobility`]: positions as functions of time: static, constant velocity, waypoints, random
//!   waypoint (plain or steady-state start) generated leg by leg with no events.
//!
//! ## How the medium will use it
//!
//! When node i starts a transmission at `now`, for each other node j:
//!
//! 1. positions: `p_i = mobility[i].position_at(now)`, `p_j = mobility[j].position_at(now)`
//!    (once per frame, at its start: there is no motion within a frame, as in ns-3's
//!    `YansWifiChannel::Send`);
//! 2. mean received power: `tx_power_dbm − path_loss.loss_db(distance(p_i, p_j))`;
//! 3. fading: `fading.gain_at(seed, link_key(id_i, id_j), now, coherence)` (a block's fade, or
//!    the Doppler process at `now`),
//!    a power gain of mean 1, so `rx_dbm = rx_power_dbm(tx_power_dbm, loss_db, gain)`;
//! 4. decisions: sensing against the CCA thresholds on `rx_dbm`, decoding on the SNR over
//!    noise ([`noise_mw`]) plus the other transmissions' powers in mW ([`snr`]).
//!
//! Random draws (fading, random waypoint legs) come from SplitMix64 hashes of stable integer
//! keys (run seed, entity ids from `rng::entity_id`, block or leg index), never from a shared
//! stream, so switching a scheme on or off elsewhere leaves the channel unchanged.

pub mod budget;
pub mod bursty;
pub mod doppler;
pub mod fading;
pub mod mobility;
pub mod pathloss;
pub mod tgn;

pub use budget::{
    db_to_ratio, dbm_to_mw, mw_to_dbm, noise_dbm, noise_mw, ratio_to_db, rx_power_dbm, snr, snr_db,
};
pub use fading::{block_of, coherence_time, link_key, reciprocal_link_key, Fading};
pub use mobility::{Area, Mobility, RandomWaypoint, RandomWaypointSpec};
pub use pathloss::{Friis, LogDistance, PathLoss};
