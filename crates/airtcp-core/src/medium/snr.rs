//! The radio model of the medium: received powers from positions, path loss and fading, and
//! receptions decided by their SINR, chunk by chunk, part by part.
//!
//! When node i starts a frame at `now`, every other WiFi node j gets `P_i − L(d_ij(now)) +
//! fade` (positions evaluated at the frame's start, no motion within a frame: ns-3
//! `YansWifiChannel::Send`). Below the receive sensitivity j sees nothing, not even
//! interference (ns-3 `YansWifiChannel::Receive`). At or above the CCA threshold the frame
//! turns j's medium busy (17.3.10.6; ns-3 `CcaSensitivity`). An idle receiver locks onto the
//! frame if its preamble is detected (power ≥ `min_rssi_dbm` and SINR ≥ `snr_db`, ns-3
//! `ThresholdPreambleDetectionModel`); within the 4 µs detection window the stronger of two
//! frames wins if its SINR passes, else neither is detected; afterwards a newcomer is
//! interference, unless frame capture is on and it is `margin_db` stronger within
//! `window_ns` (ns-3 `SimpleFrameCaptureModel`). A node that starts to transmit abandons its
//! reception (ns-3 `RECEPTION_ABORTED_BY_TX`).
//!
//! A locked reception's SINR is piecewise constant between the starts and ends of other
//! signals at the receiver. Each piece is closed as it ends and multiplied into the success
//! probability of each part it overlaps (ns-3 `InterferenceHelper::CalculateChunkSuccessRate`,
//! bits = rate × duration): the PHY header at its own mode, the MAC header, the upper headers
//! of a data frame (LLC/SNAP, IP, TCP or UDP), the payload. At the frame's end one draw per part, in order, decides which part (if any) failed.
//! No list of interference events is kept: a receiver holds the running sum of the powers it
//! sees and its lock.

use crate::channel::doppler::{self, Estimation};
use crate::channel::tgn::{self, TgnLink, TgnModel, TgnWalk, MAX_SUBCARRIERS, MAX_TAPS};
use crate::channel::{db_to_ratio, dbm_to_mw, link_key, noise_mw, Fading, Mobility, PathLoss};
use crate::ids::{NodeId, TxId};
use crate::mac::frame::{Frame, FrameKind};
use crate::phy::error::{plcp_header, ErrorRateModel, UnitSuccess};
use crate::phy::modes::MODE_COUNT;
use crate::phy::success_table::{self, bounded};
use crate::phy::{ModeId, Modulation, Preamble, Standard};

/// A per-mode table of dBm turned into mW in place; a run of equal values (most of the
/// table: a standard sends few of the 970 modes) costs one conversion.
fn per_mode_mw(mut dbm: Box<[f64; MODE_COUNT]>) -> Box<[f64; MODE_COUNT]> {
    let mut last = (f64::NAN, f64::NAN);
    for x in dbm.iter_mut() {
        if x.to_bits() != last.0.to_bits() {
            last = (*x, dbm_to_mw(*x));
        }
        *x = last.1;
    }
    dbm
}
use crate::spec::{NodeSpec, RadioSpec};
use crate::time::{Dur, SimTime};

use super::{distance, Air, Outcome, RadioEvent, RxInfo, PREAMBLE_DETECTION};
use crate::mac::Cca;

/// Measurement bandwidth of the noise floor: 22 MHz for DSSS/HR-DSSS PPDUs on an 802.11b
/// channel, 20 MHz otherwise, an 802.11g channel's DSSS PPDUs included (ns-3 3.44
/// `DsssPhy::GetRxChannelWidth`: 20 MHz when the PHY's width is not 22; `OfdmPhy`).
fn bandwidth_hz(mode: ModeId, standard: Standard) -> f64 {
    match (mode.modulation(), standard) {
        (Modulation::Dsss { .. }, Standard::B) => 22e6,
        (m, _) => f64::from(m.width_mhz()) * 1e6, // ns-3 InterferenceHelper::CalculateSnr
    }
}

/// The receive sensitivity is given for 20 MHz; a DSSS PPDU occupies 22 MHz and an HT40 one
/// 40, so ns-3 raises the threshold by 10·log10(width / 20): 0.41 and 3.01 dB
/// (`YansWifiChannel::Receive`).
fn sensitivity_scale_db(mode: ModeId) -> f64 {
    match mode.modulation() {
        Modulation::Dsss { .. } => 10.0 * (22.0f64 / 20.0).log10(),
        m => match m.width_mhz() {
            20 => 0.0, // 10 log10(1), without the call
            w => 10.0 * (f64::from(w) / 20.0).log10(),
        },
    }
}

/// One node that sees a transmission: its power there and whether it senses it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hear {
    pub node: NodeId,
    pub rx_mw: f64,
    pub sensed: bool,
}

/// A span of a PPDU decided at one mode.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    from: SimTime,
    to: SimTime,
    mode: Option<ModeId>,
}

/// The reception a node is locked onto.
#[derive(Clone, Copy, Debug)]
struct Lock {
    tx: TxId,
    sig_mw: f64,
    noise_mw: f64,
    start: SimTime,
    /// End of the last closed chunk.
    last: SimTime,
    /// PHY header, MAC header, upper headers (LLC/SNAP, IP, TCP/UDP), the rest of the PSDU.
    parts: [Part; 4],
    success: [f64; 4],
    /// With tables: each part's bound on its distance from the exact model's product
    /// (phy::success_table), 0 where every chunk was exact.
    err: [f64; 4],
    /// Another signal overlapped the reception.
    interfered: bool,
    /// The lowest SINR of a closed chunk (linear).
    min_sinr: f64,
    /// An A-MPDU: its chunks' SINRs are kept (`Snr::history`) to decide each subframe.
    ampdu: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct RxState {
    /// Sum of the powers of the signals this node sees now \[mW\], and their number.
    energy_mw: f64,
    signals: u32,
    lock: Option<Lock>,
}

/// The last unit success rates computed, by (SNR, mode): a static link without fading sees
/// the same SNR frame after frame, and the CCK symbol error integral costs microseconds.
/// Direct-mapped; a hit returns exactly what [`ErrorRateModel::unit_success`] would.
struct UnitCache {
    slots: Vec<(u64, u16, UnitSuccess)>,
}

impl UnitCache {
    const SLOTS: usize = 256;

    fn new() -> UnitCache {
        UnitCache {
            slots: vec![
                (u64::MAX, u16::MAX, UnitSuccess { p: 1.0, bits_per_unit: 1.0, cap: false });
                Self::SLOTS
            ],
        }
    }

    #[inline]
    fn unit(&mut self, model: ErrorRateModel, snr: f64, mode: ModeId) -> UnitSuccess {
        let key = snr.to_bits();
        let slot = (crate::rng::mix64(key ^ u64::from(mode.0)) as usize) % Self::SLOTS;
        let (k, m, u) = self.slots[slot];
        if k == key && m == mode.0 {
            return u;
        }
        let u = model.unit_success(snr, mode);
        self.slots[slot] = (key, mode.0, u);
        u
    }
}

/// A frequency-selective (TGn) channel's state: each directed link's draws (built when the link
/// first carries a frame), the subcarriers' phase factors per subcarrier set, and per node the
/// response of the PPDU it is locked onto, normalized to its wideband gain (|H_k|^2 / G).
struct Selective {
    model: TgnModel,
    doppler_hz: f64,
    links: Vec<Option<Box<TgnLink>>>,
    /// `tgn::weights` for 48 (802.11a/g), 52 (HT20) and 108 (HT40) data subcarriers.
    weights: [Vec<(f64, f64)>; 3],
    /// Per node: subcarriers, |H_k|^2 / G of its lock, and whether that link had the LOS ray.
    profile: Vec<(usize, [f64; MAX_SUBCARRIERS], bool)>,
    /// Per receiving node: the taps of the last frame that reached it, so a lock and its
    /// estimate reuse what the frame's spread computed.
    spread: Vec<Spread>,
    /// The last effective SINR computed: (node, wideband SINR bits, beta bits) -> SINR, as the
    /// subframes of an A-MPDU overlap the same chunks.
    memo: (usize, u64, u64, f64),
    /// Each directed link's last estimate at a preamble under `Estimation::Preamble`
    /// (`i * n + j`).
    estimates: Vec<Option<Box<TgnEstimate>>>,
}

/// A receiver's estimate of a TGn link at a PPDU's preamble.
struct TgnEstimate {
    /// The PPDU's start and its data subcarriers.
    start: SimTime,
    subcarriers: usize,
    /// H_k(0) / sqrt(G) on each data subcarrier, and the wideband gain G.
    h0: [(f64, f64); MAX_SUBCARRIERS],
    g0: f64,
    /// The link's taps walked from the estimate (its step rotations kept between PPDUs).
    walk: TgnWalk,
}

/// A receiver's estimate of a Doppler link at a PPDU's preamble: (PPDU start, h(0), the link
/// walked from it).
type Estimate = (SimTime, (f64, f64), doppler::SosWalk);

/// The taps a frame's spread computed for one receiver, and the phasors they sum, which the
/// receiver's walk starts from.
struct Spread {
    key: u64,
    at: SimTime,
    los: bool,
    taps: [(f64, f64); MAX_TAPS],
    phasors: Box<tgn::Phasors>,
}

impl Spread {
    fn holds(&self, key: u64, at: SimTime, los: bool) -> bool {
        (self.key, self.at, self.los) == (key, at, los)
    }
}

impl Selective {
    fn set(mode: ModeId) -> Option<(usize, usize)> {
        let n = tgn::data_subcarriers(mode)?.len();
        Some((
            match n {
                48 => 0,
                52 => 1,
                _ => 2,
            },
            n,
        ))
    }

    fn link(&mut self, seed: u64, n_nodes: usize, i: usize, j: usize, key: u64) -> &TgnLink {
        let (model, fd) = (self.model, self.doppler_hz);
        self.links[i * n_nodes + j].get_or_insert_with(|| Box::new(TgnLink::new(model, fd, seed, key)))
    }

    /// The effective SINR of a chunk at wideband SINR `snr` on node `j`'s lock, for `mode`
    /// (EESM over the lock's subcarriers; DSSS/CCK and frames without a profile keep `snr`).
    fn effective(&mut self, j: usize, snr: f64, mode: ModeId) -> f64 {
        let Some(beta) = tgn::eesm_beta(mode) else { return snr };
        let (n, g, _) = &self.profile[j];
        if *n == 0 {
            return snr;
        }
        let (mj, ms, mb, eff) = self.memo;
        if (mj, ms, mb) == (j, snr.to_bits(), beta.to_bits()) {
            return eff;
        }
        let mut sinr = [0.0; MAX_SUBCARRIERS];
        for (x, gk) in sinr.iter_mut().zip(&g[..*n]) {
            *x = snr * gk;
        }
        let eff = tgn::eesm(beta, &sinr[..*n]);
        self.memo = (j, snr.to_bits(), beta.to_bits(), eff);
        eff
    }
}

/// The channel's state and parameters.
pub(super) struct Snr {
    /// The channel realization's seed: `RadioSpec::fading_seed`, else the run's.
    seed: u64,
    /// Stable key of each node (its name's entity id) for the fading draws.
    keys: Vec<u64>,
    wifi: Vec<bool>,
    mobility: Vec<Mobility>,
    /// Whether the node moves (else its position is read once).
    moves: Vec<bool>,
    // Powers in mW and ratios linear, so a frame costs no logarithm: per mode (`MODES`
    // index) the channel's transmit power, the power below which a frame is not seen at all
    // (the sensitivity, +0.41 dB for a 22 MHz DSSS PPDU), the per-rate sensitivity a lock
    // needs, and the noise floor.
    /// A node's own transmit power, if it has one.
    tx_mw: Vec<Option<f64>>,
    mode_tx_mw: Box<[f64; MODE_COUNT]>,
    mode_hear_mw: Box<[f64; MODE_COUNT]>,
    mode_lock_mw: Box<[f64; MODE_COUNT]>,
    mode_noise_mw: Box<[f64; MODE_COUNT]>,
    /// `gain[i * n + j]`: the path gain 10^(−L/10) from i to j when both stand still, NaN
    /// where one of them moves (computed per frame then).
    gain: Vec<f64>,
    path_loss: PathLoss,
    /// Log-normal shadowing's σ [dB] (`RadioSpec::shadowing_db`); 0: none.
    shadowing_db: f64,
    fading: Option<Fading>,
    coherence: Option<Dur>,
    /// When receivers estimate the channel (`RadioSpec::estimation`).
    estimation: Estimation,
    /// Under Doppler fading, each directed link's sum of sinusoids (`i * n + j`), drawn when the
    /// link first carries a frame; and the last estimate each link's receiver took, (PPDU
    /// start, h(0), the link walked from it), so the subframes of one A-MPDU compute it once and
    /// the link's next A-MPDU reuses the walk's rotations.
    sos: Vec<Option<Box<doppler::SosLink>>>,
    estimates: Vec<Option<Box<Estimate>>>,
    /// With `Fading::Tgn`: the frequency-selective channel.
    selective: Option<Box<Selective>>,
    /// 1 / lambda [1/m] when a node's motion adds to the Doppler (`RadioSpec::motion_per_m`),
    /// else 0; and each moving node's path travelled at the last frame's start [m].
    motion_per_m: f64,
    travelled_m: Vec<f64>,
    cca_mw: f64,
    /// (linear SINR, minimum power [mW]).
    detect: Option<(f64, f64)>,
    /// (margin as a power ratio, window).
    capture: Option<(f64, Dur)>,
    model: ErrorRateModel,
    /// Success rates from the tables, the exact model where their bound leaves a draw open.
    tables: bool,
    cache: UnitCache,
    standard: Standard,
    rx: Vec<RxState>,
    /// Per node, the chunks (from, to, SINR) of the A-MPDU it is locked onto, or last was:
    /// each subframe's success is the product over the chunks it overlaps.
    history: Vec<Vec<(SimTime, SimTime, f64)>>,
    /// With tables, per node: the chunks (part, mode, bits, SINR) of its reception, in order,
    /// to compute a part's success exactly where a draw falls within its bound.
    chunks: Vec<Vec<Chunk>>,
    /// Per transmission slot: the nodes that see it (reused, so no allocation per frame once
    /// the slots have grown).
    pub hears: Vec<Vec<Hear>>,
    /// Positions of the current frame's evaluation, per node (scratch).
    pos: Vec<[f64; 3]>,
    /// Per source i, the nodes that may see its frames, in node order: a pair with a moving end,
    /// or whose strongest frame with the largest fade the fading can give reaches the weakest
    /// sensitivity; [`Snr::spread`] looks at no other node. Every other WiFi node when the
    /// fading has no such bound here (Nakagami, Doppler, TGn) and with `exact`.
    near: Vec<Vec<u32>>,
    /// `sure[i * n + j]`: j senses every frame of i, whatever its mode (both static, no
    /// fading, the weakest mode's power at or above the CCA threshold and the sensitivity).
    sure: Vec<bool>,
    data_header_bytes: u32,
}

/// What happened at a node when a frame started, for the medium's bookkeeping.
pub(super) struct Arrival {
    pub sensed: bool,
    /// A lock this arrival broke (the frame it was on), which becomes a collision there.
    pub lost: Option<TxId>,
    /// The node is now locked onto the new frame.
    pub locked: bool,
}

impl Snr {
    pub fn new(
        radio: &RadioSpec,
        standard: Standard,
        nodes: &[NodeSpec],
        seed: u64,
        data_header_bytes: u32,
    ) -> Snr {
        let (fading, coherence) = radio.fading();
        let n = nodes.len();
        let mut s = Snr {
            seed: radio.fading_seed.unwrap_or(seed),
            keys: nodes.iter().map(|ns| crate::rng::entity_id(&ns.name)).collect(),
            wifi: nodes.iter().map(|ns| ns.wifi).collect(),
            mobility: nodes.iter().map(|ns| ns.mobility(seed)).collect(),
            moves: nodes.iter().map(|ns| ns.mobility.is_some()).collect(),
            tx_mw: nodes.iter().map(|ns| ns.tx_power_dbm.map(dbm_to_mw)).collect(),
            mode_tx_mw: per_mode_mw(RadioSpec::per_mode(
                &radio.tx_power_by_rate_dbm,
                standard,
                radio.tx_power_dbm,
            )),
            mode_hear_mw: per_mode_mw(Box::new(std::array::from_fn(|m| {
                radio.rx_sensitivity_dbm + sensitivity_scale_db(ModeId(m as u16))
            }))),
            mode_lock_mw: per_mode_mw(RadioSpec::per_mode(
                &radio.rx_sensitivity_by_rate_dbm,
                standard,
                radio.rx_sensitivity_dbm,
            )),
            mode_noise_mw: {
                // One noise power per bandwidth (six of them), not per mode.
                let mut last = (f64::NAN, f64::NAN);
                Box::new(std::array::from_fn(|m| {
                    let hz = bandwidth_hz(ModeId(m as u16), standard);
                    if hz != last.0 {
                        last = (hz, noise_mw(hz, radio.noise_figure_db));
                    }
                    last.1
                }))
            },
            gain: Vec::new(),
            path_loss: radio.path_loss(),
            shadowing_db: radio.shadowing_db,
            fading,
            coherence,
            estimation: radio.estimation,
            sos: match fading {
                Some(Fading::Doppler { .. }) => (0..n * n).map(|_| None).collect(),
                _ => Vec::new(),
            },
            estimates: match fading {
                Some(Fading::Doppler { .. }) => (0..n * n).map(|_| None).collect(),
                _ => Vec::new(),
            },
            selective: match fading {
                Some(Fading::Tgn { model, doppler_hz }) => Some(Box::new(Selective {
                    model,
                    doppler_hz,
                    links: (0..n * n).map(|_| None).collect(),
                    // One mode of each subcarrier set: 802.11a/g, HT 20 MHz, HT 40 MHz.
                    weights: ["OfdmRate6Mbps", "HtMcs0", "HtMcs0Ht40"].map(|name| {
                        let mode = ModeId::by_name(name).expect("a mode of the table");
                        tgn::weights(model, tgn::data_subcarriers(mode).expect("an OFDM mode"))
                    }),
                    profile: vec![(0, [0.0; MAX_SUBCARRIERS], false); n],
                    spread: (0..n)
                        .map(|_| Spread {
                            key: u64::MAX,
                            at: SimTime(u64::MAX),
                            los: false,
                            taps: [(0.0, 0.0); MAX_TAPS],
                            phasors: Box::new([[(0.0, 0.0); tgn::SINUSOIDS]; MAX_TAPS]),
                        })
                        .collect(),
                    memo: (usize::MAX, 0, 0, 0.0),
                    estimates: (0..n * n).map(|_| None).collect(),
                })),
                _ => None,
            },
            motion_per_m: radio.motion_per_m(),
            travelled_m: vec![0.0; n],
            cca_mw: dbm_to_mw(radio.cca_threshold_dbm),
            detect: radio.preamble_detection.map(|p| (db_to_ratio(p.snr_db), dbm_to_mw(p.min_rssi_dbm))),
            capture: radio.capture.map(|c| (db_to_ratio(c.margin_db), Dur(c.window_ns))),
            model: radio.error_model(),
            tables: !radio.exact,
            cache: UnitCache::new(),
            standard,
            rx: vec![RxState::default(); n],
            history: vec![Vec::new(); n],
            chunks: vec![Vec::new(); n],
            hears: Vec::new(),
            pos: nodes.iter().map(|ns| ns.position_m).collect(),
            sure: Vec::new(),
            near: Vec::new(),
            data_header_bytes,
        };
        s.gain = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                if s.moves[i] || s.moves[j] {
                    f64::NAN
                } else {
                    let loss = s.path_loss.loss_db(distance(nodes[i].position_m, nodes[j].position_m));
                    db_to_ratio(-loss - s.shadow_db(i, j))
                }
            })
            .collect();
        s.sure = (0..n * n).map(|k| s.surely_senses_at_build(k / n, k % n)).collect();
        s.near = s.near_lists(radio.exact);
        s
    }

    /// [`Snr::near`]: per source, the nodes a frame of it can reach above the sensitivity at
    /// any mode, at its strongest transmit power and the fading's largest fade (a bound, so the
    /// lists leave out only nodes that would not see the frame anyway: the same run); every
    /// node when `exact` or the fading has no bound here.
    fn near_lists(&self, exact: bool) -> Vec<Vec<u32>> {
        let most_fade = match self.fading {
            _ if exact => None,
            None => Some(1.0),
            Some(Fading::Rayleigh) if self.selective.is_none() => {
                Some(crate::channel::fading::RAYLEIGH_MAX_GAIN)
            }
            _ => None,
        };
        let n = self.wifi.len();
        let strongest_mw = self.mode_tx_mw.iter().fold(0.0, |a: f64, b| a.max(*b));
        let weakest_hear_mw = self.mode_hear_mw.iter().fold(f64::INFINITY, |a: f64, b| a.min(*b));
        (0..n)
            .map(|i| {
                let tx_mw = self.tx_mw[i].unwrap_or(strongest_mw); // as `rx_mw` reads it
                (0..n)
                    .filter(|&j| j != i && self.wifi[j])
                    .filter(|&j| {
                        let gain = self.gain[i * n + j];
                        // A margin of 0.1 % over the bound's own rounding.
                        most_fade.is_none_or(|f| gain.is_nan() || tx_mw * gain * f * 1.001 >= weakest_hear_mw)
                    })
                    .map(|j| j as u32)
                    .collect()
            })
            .collect()
    }

    fn surely_senses_at_build(&self, i: usize, j: usize) -> bool {
        let n = self.wifi.len();
        if i == j || !self.wifi[i] || !self.wifi[j] || self.fading.is_some() || self.gain[i * n + j].is_nan()
        {
            return false;
        }
        let modes = self.standard.modes().iter().map(|m| usize::from(m.0));
        let weakest_mw = modes.clone().map(|m| self.mode_tx_mw[m]).fold(f64::INFINITY, f64::min);
        let hear_mw = modes.map(|m| self.mode_hear_mw[m]).fold(0.0, f64::max);
        let rx_mw = self.tx_mw[i].unwrap_or(weakest_mw) * self.gain[i * n + j];
        rx_mw >= self.cca_mw && rx_mw >= hear_mw
    }

    /// The shadowing loss of the pair {i, j} [dB]: σ times a standard normal drawn from the
    /// pair's own key (reciprocal, fixed for the run, whatever else it draws); 0 without.
    fn shadow_db(&self, i: usize, j: usize) -> f64 {
        if self.shadowing_db == 0.0 {
            return 0.0;
        }
        let key = crate::channel::reciprocal_link_key(self.keys[i], self.keys[j]);
        self.shadowing_db * crate::rng::Draws::new(crate::rng::TAG_SHADOWING, self.seed, key, 0).normal()
    }

    /// Whether `j` senses every frame `i` sends (see `sure`).
    pub fn surely_senses(&self, i: NodeId, j: NodeId) -> bool {
        self.sure[i.idx() * self.wifi.len() + j.idx()]
    }

    /// Received power at `j` of a frame from `i` at `mode` starting at `now` [mW]
    /// (positions in `pos`).
    #[inline]
    fn rx_mw(&mut self, i: usize, j: usize, mode: ModeId, now: SimTime) -> f64 {
        let n = self.wifi.len();
        let mut gain = self.gain[i * n + j];
        if gain.is_nan() {
            gain = db_to_ratio(
                -self.path_loss.loss_db(distance(self.pos[i], self.pos[j])) - self.shadow_db(i, j),
            );
        }
        let mut mw = self.tx_mw[i].unwrap_or(self.mode_tx_mw[usize::from(mode.0)]) * gain;
        if let Some(sel) = self.selective.as_deref_mut() {
            // TGn: the taps' total power, the LOS ray within the model's breakpoint.
            let los = distance(self.pos[i], self.pos[j]) < sel.model.breakpoint_m();
            let key = link_key(self.keys[i], self.keys[j]);
            let link = sel.link(self.seed, self.wifi.len(), i, j, key);
            let ph = link.phasors_at(now);
            let a = link.taps_from(&ph, los);
            let spread = &mut sel.spread[j];
            (spread.key, spread.at, spread.los, spread.taps) = (key, now, los, a);
            *spread.phasors = ph;
            mw *= tgn::wideband_gain(&a);
        } else if let Some(f) = self.fading {
            let key = link_key(self.keys[i], self.keys[j]);
            mw *= match f {
                Fading::Doppler { doppler_hz } => {
                    let (re, im) = if self.motion_per_m > 0.0 && (self.moves[i] || self.moves[j]) {
                        // The channel where both ends have walked through the field by now.
                        let wt =
                            self.doppler_angle(doppler_hz, now, self.travelled_m[i] + self.travelled_m[j]);
                        self.sos_link(i, j, key).at_angle(wt)
                    } else {
                        self.sos_link(i, j, key).at(doppler_hz, now)
                    };
                    re * re + im * im
                }
                // One fade per coherence block, else per frame (keyed by its start time, so the
                // channel of a link does not depend on traffic elsewhere).
                _ => f.gain_at(self.seed, key, now, self.coherence),
            };
        }
        mw
    }

    /// Link i -> j's sum of sinusoids (`doppler::SosLink::new` of its key), drawn once.
    fn sos_link(&mut self, i: usize, j: usize, key: u64) -> &doppler::SosLink {
        let seed = self.seed;
        let n = self.wifi.len();
        self.sos[i * n + j].get_or_insert_with(|| Box::new(doppler::SosLink::new(seed, key)))
    }

    /// The Doppler phase of a link at `now` when its ends have travelled `travelled_m`
    /// together: 2 pi (f_D t + s / lambda) ([`doppler::SosLink::at_angle`]).
    fn doppler_angle(&self, doppler_hz: f64, now: SimTime, travelled_m: f64) -> f64 {
        2.0 * std::f64::consts::PI * (doppler_hz * (now.ns() as f64 * 1e-9) + travelled_m * self.motion_per_m)
    }

    /// Under TGn fading, node `j`'s lock onto `frame` from `i` at `now`: the PPDU's response
    /// on its data subcarriers, normalized to the wideband gain, kept for its decoding.
    fn take_profile(&mut self, i: usize, j: usize, frame: &Frame, now: SimTime) {
        let n_nodes = self.wifi.len();
        let seed = self.seed;
        let key = link_key(self.keys[i], self.keys[j]);
        let los_now = distance(self.pos[i], self.pos[j]);
        let Some(sel) = self.selective.as_deref_mut() else { return };
        sel.memo.0 = usize::MAX; // a new response: the memo's SINR is no longer its
        let Some((set, n)) = Selective::set(frame.txv.mode) else {
            sel.profile[j].0 = 0;
            return;
        };
        let los = los_now < sel.model.breakpoint_m();
        let taps = sel.model.taps();
        let a = match &sel.spread[j] {
            spread if spread.holds(key, now, los) => spread.taps,
            _ => sel.link(seed, n_nodes, i, j, key).taps_at(now, los),
        };
        let g = tgn::wideband_gain(&a);
        let mut h = [(0.0, 0.0); MAX_SUBCARRIERS];
        tgn::response(&a, taps, &sel.weights[set], &mut h[..n]);
        let p = &mut sel.profile[j];
        p.0 = n;
        p.2 = los;
        for (x, hk) in p.1.iter_mut().zip(&h[..n]) {
            *x = if g > 0.0 { (hk.0 * hk.0 + hk.1 * hk.1) / g } else { 0.0 };
        }
    }

    /// Update the positions of the moving nodes to `now`.
    fn move_to(&mut self, now: SimTime) {
        for i in 0..self.mobility.len() {
            if self.moves[i] {
                self.pos[i] = self.mobility[i].position_at(now);
                if self.motion_per_m > 0.0 {
                    self.travelled_m[i] = self.mobility[i].travelled_m(now);
                }
            }
        }
    }

    /// Node `node`'s position at `now` \[m\].
    pub fn position_at(&mut self, node: NodeId, now: SimTime) -> [f64; 3] {
        self.mobility[node.idx()].position_at(now)
    }

    /// Fill `hears[id]` with the nodes that see `frame`, sent at `now`, and their powers.
    pub fn spread(&mut self, id: TxId, frame: &Frame, now: SimTime) {
        while self.hears.len() <= id.idx() {
            self.hears.push(Vec::new());
        }
        self.move_to(now);
        let i = frame.src.idx();
        let mut hears = std::mem::take(&mut self.hears[id.idx()]);
        hears.clear();
        // Only the nodes that may see it ([`Snr::near`]).
        let near = std::mem::take(&mut self.near);
        for &j in &near[i] {
            let j = j as usize;
            let mw = self.rx_mw(i, j, frame.txv.mode, now);
            if mw < self.mode_hear_mw[usize::from(frame.txv.mode.0)] {
                continue;
            }
            hears.push(Hear { node: NodeId(j as u32), rx_mw: mw, sensed: mw >= self.cca_mw });
        }
        self.near = near;
        self.hears[id.idx()] = hears;
    }

    /// Close the current chunk of `j`'s locked reception at `now`: its SINR so far is known.
    fn close(&mut self, j: usize, now: SimTime) {
        let (model, tables, cache) = (self.model, self.tables, &mut self.cache);
        let mut sel = self.selective.as_deref_mut();
        let rx = &mut self.rx[j];
        let Some(lock) = rx.lock.as_mut() else { return };
        if now <= lock.last {
            return;
        }
        let interference_mw = if rx.signals > 1 { (rx.energy_mw - lock.sig_mw).max(0.0) } else { 0.0 };
        lock.interfered |= rx.signals > 1;
        let snr = lock.sig_mw / (lock.noise_mw + interference_mw);
        lock.min_sinr = lock.min_sinr.min(snr);
        if lock.ampdu {
            self.history[j].push((lock.last, now, snr));
        }
        for k in 0..4 {
            let p = lock.parts[k];
            let (Some(mode), from, to) = (p.mode, p.from.max(lock.last), p.to.min(now)) else { continue };
            if to > from {
                // ns-3 InterferenceHelper: bits = rate × duration, truncated.
                let bits = u64::from(mode.rate_kbps()) * to.since(from).ns() / 1_000_000;
                let snr = match sel.as_deref_mut() {
                    Some(sel) => sel.effective(j, snr, mode),
                    None => snr,
                };
                match tables.then(|| bounded(model, snr, mode, bits)).flatten() {
                    Some(b) => {
                        lock.success[k] *= b.p;
                        lock.err[k] += b.err + PRODUCT_ROUNDING;
                    }
                    None => lock.success[k] *= cache.unit(model, snr, mode).chunk(bits),
                }
                if tables {
                    self.chunks[j].push(Chunk { part: k as u8, mode, bits, snr });
                }
            }
        }
        lock.last = now;
    }

    /// The spans of `frame` (starting at `start`) decided apart: PHY header, MAC header, upper
    /// headers (data frames), the rest. Bits map to time at the data rate after the 16 OFDM
    /// SERVICE bits (17.3.5.2); an ERP-OFDM signal extension (18.3.2.4) carries no bits.
    fn parts(&self, frame: &Frame, start: SimTime) -> [Part; 4] {
        parts(frame, start, self.data_header_bytes)
    }

    /// Node `jx` locks onto `frame` (`id`) at `now`: a fresh chunk history and, under TGn, the
    /// PPDU's response.
    fn start_lock(&mut self, jx: usize, id: TxId, frame: &Frame, rx_mw: f64, now: SimTime) {
        self.history[jx].clear();
        self.chunks[jx].clear();
        self.take_profile(frame.src.idx(), jx, frame, now);
        self.rx[jx].lock = Some(self.lock(id, frame, rx_mw, now));
    }

    fn lock(&self, id: TxId, frame: &Frame, rx_mw: f64, now: SimTime) -> Lock {
        Lock {
            tx: id,
            sig_mw: rx_mw,
            noise_mw: self.mode_noise_mw[usize::from(frame.txv.mode.0)],
            start: now,
            last: now,
            parts: self.parts(frame, now),
            success: [1.0; 4],
            err: [0.0; 4],
            interfered: false,
            min_sinr: f64::INFINITY,
            ampdu: frame.subframes > 0,
        }
    }

    /// Whether the A-MPDU `frame` that `j` received (it started at `start`) delivers the
    /// subframe at PSDU bytes `[from_byte, to_byte)`: the chance that its bits, at the SINR of
    /// each chunk they overlap (ns-3 `InterferenceHelper` per MPDU of an A-MPDU), all
    /// survive.
    pub fn subframe_success(
        &mut self,
        j: NodeId,
        frame: &Frame,
        start: SimTime,
        from_byte: u32,
        to_byte: u32,
    ) -> f64 {
        let (from, to) = subframe_span(frame, start, from_byte, to_byte);
        if self.selective.is_some() {
            return self.selective_subframe_success(j, frame, start, from, to);
        }
        let aging = self.aging(frame.src, j, start, from + Dur(to.since(from).ns() / 2));
        self.subframe_product(j, frame.txv.mode, (from, to), aging, false).0
    }

    /// The product of [`Self::subframe_success`] over `j`'s chunks between `from` and `to` at
    /// `aging`, with its bound on the distance from the exact model's when `tables` (0 where
    /// every chunk was exact: without tables, or aged, where the tabulated NIST model is the
    /// model).
    fn subframe_product(
        &mut self,
        j: NodeId,
        mode: ModeId,
        (from, to): (SimTime, SimTime),
        aging: f64,
        tables: bool,
    ) -> (f64, f64) {
        let rate_kbps = u64::from(mode.rate_kbps());
        let (model, cache) = (self.model, &mut self.cache);
        let (mut p, mut err) = (1.0, 0.0);
        for &(a, b, snr) in &self.history[j.idx()] {
            let (lo, hi) = (a.max(from), b.min(to));
            if hi > lo {
                let bits = rate_kbps * hi.since(lo).ns() / 1_000_000;
                if aging > 0.0 {
                    // An aged SINR is seldom seen twice: the tabulated model (within 1e-6).
                    p *= model.chunk_success_tabulated(doppler::aged_sinr(snr, aging), mode, bits);
                } else if let Some(b) = tables.then(|| bounded(model, snr, mode, bits)).flatten() {
                    p *= b.p;
                    err += b.err + PRODUCT_ROUNDING;
                } else {
                    p *= cache.unit(model, snr, mode).chunk(bits);
                }
            }
        }
        (p, err)
    }

    /// [`Self::subframe_success`] under TGn fading: each chunk at the effective SINR of the
    /// PPDU's subcarriers, the response of its start (`Estimation::Ideal`), or with the
    /// estimate of the preamble aged to the subframe's middle per subcarrier, SINR_k = |H_k(0)|^2
    /// S / (N + I + |H_k(t) - H_k(0)|^2 S) (`Estimation::Preamble`, MoFA's model per
    /// subcarrier).
    fn selective_subframe_success(
        &mut self,
        j: NodeId,
        frame: &Frame,
        start: SimTime,
        from: SimTime,
        to: SimTime,
    ) -> f64 {
        let mode = frame.txv.mode;
        let rate_kbps = u64::from(mode.rate_kbps());
        let (model, jx) = (self.model, j.idx());
        let (i, n_nodes, seed) = (frame.src.idx(), self.wifi.len(), self.seed);
        let key = link_key(self.keys[i], self.keys[jx]);
        let sel = self.selective.as_deref_mut().expect("called under TGn");
        let beta = tgn::eesm_beta(mode);
        let (n, los) = (sel.profile[jx].0, sel.profile[jx].2);
        // Under the preamble's estimate: a_k = |H_k(0)|^2 / G and e_k = |H_k(t) - H_k(0)|^2 / G
        // at the subframe's middle, so SINR_k = snr a_k / (1 + snr e_k).
        let mut aged: Option<([f64; MAX_SUBCARRIERS], [f64; MAX_SUBCARRIERS])> = None;
        if self.estimation == Estimation::Preamble && n > 0 && beta.is_some() {
            let set = Selective::set(mode).expect("an OFDM mode").0;
            let taps = sel.model.taps();
            let slot = i * n_nodes + jx;
            if sel.estimates[slot].as_ref().is_none_or(|e| (e.start, e.subcarriers) != (start, n)) {
                sel.link(seed, n_nodes, i, jx, key);
                let link = sel.links[slot].as_deref().expect("built above");
                let e = sel.estimates[slot].get_or_insert_with(|| {
                    Box::new(TgnEstimate {
                        start,
                        subcarriers: n,
                        h0: [(0.0, 0.0); MAX_SUBCARRIERS],
                        g0: 1.0,
                        walk: TgnWalk::new(link, start, los),
                    })
                });
                // The link's walk restarted at this preamble (its step rotations kept), from
                // the phasors the frame's spread computed there.
                match &sel.spread[jx] {
                    spread if spread.holds(key, start, los) => {
                        e.walk.restart_from(link, start, los, &spread.phasors)
                    }
                    _ => e.walk.restart(link, start, los),
                }
                let a0 = e.walk.taps(taps);
                let g = tgn::wideband_gain(&a0).max(f64::MIN_POSITIVE);
                let mut h = [(0.0, 0.0); MAX_SUBCARRIERS];
                tgn::response(&a0, taps, &sel.weights[set], &mut h[..n]);
                for (x, hk) in e.h0.iter_mut().zip(&h[..n]) {
                    *x = (hk.0 / g.sqrt(), hk.1 / g.sqrt());
                }
                (e.start, e.subcarriers, e.g0) = (start, n, g);
            }
            let at = from + Dur(to.since(from).ns() / 2);
            let link = sel.links[slot].as_deref().expect("built above");
            let e = sel.estimates[slot].as_deref_mut().expect("set above");
            let at_t: [(f64, f64); MAX_TAPS] = e.walk.advance_to(link, at);
            let mut h = [(0.0, 0.0); MAX_SUBCARRIERS];
            tgn::response(&at_t, taps, &sel.weights[set], &mut h[..n]);
            let (mut a, mut drift) = ([0.0; MAX_SUBCARRIERS], [0.0; MAX_SUBCARRIERS]);
            let inv = 1.0 / e.g0.sqrt();
            for k in 0..n {
                let (x0, ht) = (e.h0[k], h[k]);
                a[k] = x0.0 * x0.0 + x0.1 * x0.1;
                let (dr, di) = (ht.0 * inv - x0.0, ht.1 * inv - x0.1);
                drift[k] = dr * dr + di * di;
            }
            aged = Some((a, drift));
        }
        let mut p = 1.0;
        let mut sinr = [0.0; MAX_SUBCARRIERS];
        for &(c0, c1, snr) in &self.history[jx] {
            let (lo, hi) = (c0.max(from), c1.min(to));
            if hi <= lo {
                continue;
            }
            let bits = rate_kbps * hi.since(lo).ns() / 1_000_000;
            let eff = match (&aged, beta) {
                (Some((a, e)), Some(beta)) => {
                    for k in 0..n {
                        sinr[k] = snr * a[k] / (1.0 + snr * e[k]);
                    }
                    // An aged SINR is seldom seen twice: the tabulated model (within 1e-6).
                    p *= model.chunk_success_tabulated(tgn::eesm(beta, &sinr[..n]), mode, bits);
                    continue;
                }
                _ => sel.effective(jx, snr, mode),
            };
            p *= self.cache.unit(model, eff, mode).chunk(bits);
        }
        p
    }

    /// How far the channel from `i` to `j` drifted from the receiver's estimate by `at`
    /// ([`doppler::aging`]): with `Estimation::Preamble` under Doppler fading the estimate is
    /// the channel at the PPDU's start `start` (its HT-LTFs, a few microseconds in, taken at
    /// the start like the frame's power) and `at` is the subframe's middle; 0 otherwise.
    fn aging(&mut self, i: NodeId, j: NodeId, start: SimTime, at: SimTime) -> f64 {
        let (Estimation::Preamble, Some(Fading::Doppler { doppler_hz })) = (self.estimation, self.fading)
        else {
            return 0.0;
        };
        let key = link_key(self.keys[i.idx()], self.keys[j.idx()]);
        let (ix, jx) = (i.idx(), j.idx());
        let slot = ix * self.wifi.len() + jx;
        if self.estimates[slot].as_ref().is_none_or(|e| e.0 != start) {
            let (rate, wt) = if self.motion_per_m > 0.0 && (self.moves[ix] || self.moves[jx]) {
                // From the channel at the PPDU's start, on at the environment's Doppler plus
                // both ends' speeds then (no change of leg within a PPDU).
                let travelled = self.mobility[ix].travelled_m(start) + self.mobility[jx].travelled_m(start);
                let speeds = self.mobility[ix].speed_mps(start) + self.mobility[jx].speed_mps(start);
                (
                    doppler_hz + speeds * self.motion_per_m,
                    Some(self.doppler_angle(doppler_hz, start, travelled)),
                )
            } else {
                (doppler_hz, None)
            };
            if self.estimates[slot].is_none() {
                let link = *self.sos_link(ix, jx, key);
                self.estimates[slot] =
                    Some(Box::new((start, (0.0, 0.0), doppler::SosWalk::new(link, rate, start))));
            }
            let e = self.estimates[slot].as_deref_mut().expect("set above");
            e.2.restart(rate, start, wt);
            e.0 = start;
            e.1 = e.2.value();
        }
        let e = self.estimates[slot].as_deref_mut().expect("set above");
        doppler::aging(e.1, e.2.advance_to(at))
    }

    /// Whether a preamble of `frame` at `rx_mw` is detected over the other signals
    /// (`others_mw`) at a receiver.
    pub fn detected(&self, frame: &Frame, rx_mw: f64, others_mw: f64) -> bool {
        let m = usize::from(frame.txv.mode.0);
        rx_mw >= self.mode_lock_mw[m] && self.passes(rx_mw, self.mode_noise_mw[m], others_mw)
    }

    fn passes(&self, rx_mw: f64, noise_mw: f64, others_mw: f64) -> bool {
        match self.detect {
            None => true,
            Some((min_snr, min_rssi_mw)) => {
                rx_mw >= min_rssi_mw && rx_mw / (noise_mw + others_mw.max(0.0)) >= min_snr
            }
        }
    }

    /// Whether `j` sees other signals than one.
    pub fn crowded(&self, j: NodeId) -> bool {
        self.rx[j.idx()].signals > 1
    }

    /// Frame `id` (`frame`) reaches `j` at `now` with power `h.rx_mw`; `transmitting`: j is
    /// sending. Updates j's energy and lock.
    pub fn arrive(
        &mut self,
        j: NodeId,
        h: &Hear,
        id: TxId,
        frame: &Frame,
        transmitting: bool,
        now: SimTime,
    ) -> Arrival {
        let jx = j.idx();
        self.close(jx, now);
        let rx = &mut self.rx[jx];
        rx.energy_mw += h.rx_mw;
        rx.signals += 1;
        let others_mw = rx.energy_mw - h.rx_mw;
        let mut out = Arrival { sensed: h.sensed, lost: None, locked: false };
        if transmitting {
            return out;
        }
        match self.rx[jx].lock {
            None => {
                if self.detected(frame, h.rx_mw, others_mw) {
                    self.start_lock(jx, id, frame, h.rx_mw, now);
                    out.locked = true;
                }
            }
            Some(old) => {
                let in_window = self.detect.is_some() && now < old.start + PREAMBLE_DETECTION;
                // ns-3 SimpleFrameCaptureModel::CaptureNewFrame: strictly more than the margin.
                let capture = self.capture.is_some_and(|(margin, window)| {
                    now <= old.start + window && h.rx_mw > old.sig_mw * margin
                });
                if in_window {
                    // ns-3 picks the strongest preamble of the window and checks its SINR
                    // over everything else.
                    if h.rx_mw > old.sig_mw {
                        out.lost = Some(old.tx);
                        self.rx[jx].lock = None;
                        if self.detected(frame, h.rx_mw, others_mw) {
                            self.start_lock(jx, id, frame, h.rx_mw, now);
                            out.locked = true;
                        }
                    } else {
                        let rest = self.rx[jx].energy_mw - old.sig_mw;
                        if !self.passes(old.sig_mw, old.noise_mw, rest) {
                            out.lost = Some(old.tx);
                            self.rx[jx].lock = None;
                        }
                    }
                } else if capture && self.detected(frame, h.rx_mw, others_mw) {
                    out.lost = Some(old.tx);
                    self.start_lock(jx, id, frame, h.rx_mw, now);
                    out.locked = true;
                }
            }
        }
        out.sensed |= out.locked;
        out
    }

    /// `j` starts to transmit at `now`: it abandons the reception it was locked onto (if any),
    /// which is returned.
    pub fn abort(&mut self, j: NodeId, now: SimTime) -> Option<TxId> {
        self.close(j.idx(), now);
        self.rx[j.idx()].lock.take().map(|l| l.tx)
    }

    /// The signal of `h` leaves `j` at `now`.
    pub fn depart(&mut self, h: &Hear, now: SimTime) {
        let j = h.node.idx();
        self.close(j, now);
        let rx = &mut self.rx[j];
        rx.signals -= 1;
        // Exactly 0 once nothing is on the air, so rounding never accumulates.
        rx.energy_mw = if rx.signals == 0 { 0.0 } else { rx.energy_mw - h.rx_mw };
    }

    /// Whether `node` moves.
    pub fn moves(&self, node: NodeId) -> bool {
        self.moves[node.idx()]
    }

    /// If `j` is locked onto `id`, its reception ends at `now`: the success probability of
    /// each part, in order, and what the reception saw.
    pub fn finish(&mut self, j: NodeId, id: TxId, now: SimTime) -> Option<([f64; 4], [f64; 4], RxInfo)> {
        if self.rx[j.idx()].lock.map(|l| l.tx) != Some(id) {
            return None;
        }
        self.close(j.idx(), now);
        let lock = self.rx[j.idx()].lock.take().expect("locked");
        let info = RxInfo {
            rx_mw: lock.sig_mw,
            noise_mw: lock.noise_mw,
            min_sinr: lock.min_sinr,
            interfered: lock.interfered,
        };
        Some((lock.success, lock.err, info))
    }
}

/// The radio model's side of the medium's interface ([`super::Medium`]'s `begin`,
/// `take_reception`, `mpdu_survives`, `release`), kept out of line: the range model's path
/// stays small.
impl Snr {
    /// [`super::Medium::begin`] under the radio model: transmission `id` (`frame`, already in
    /// `air`) starts at `now`; its source abandons its reception, and every node that sees the
    /// frame gets its power, may lock onto it and may turn busy.
    #[inline(never)]
    pub(super) fn begin(
        &mut self,
        air: &mut Air,
        id: TxId,
        frame: &Frame,
        now: SimTime,
        mut mac: impl FnMut(RadioEvent),
    ) {
        let node = frame.src;
        let i = node.idx();
        // Half duplex: a reception in progress is abandoned, silently (no PHY-RXEND error).
        if let Some(lost) = self.abort(node, now) {
            air.radios[i].lock = None;
            let t = &mut air.txs[lost.idx()];
            if t.frame.dst == node {
                (t.dst_outcome, t.interfered) = (Outcome::Collision, true);
            }
        }
        air.start_tx(node, id, now, &mut mac);
        self.spread(id, frame, now);
        for k in 0..self.hears[id.idx()].len() {
            let h = self.hears[id.idx()][k];
            let j = h.node;
            let transmitting = air.radios[j.idx()].tx.is_some();
            let a = self.arrive(j, &h, id, frame, transmitting, now);
            if let Some(lost) = a.lost {
                air.radios[j.idx()].lock = None;
                let t = &mut air.txs[lost.idx()];
                if t.frame.dst == j {
                    (t.dst_outcome, t.interfered) = (Outcome::Collision, true);
                }
            }
            if a.locked {
                let r = &mut air.radios[j.idx()];
                (r.lock, r.lock_since) = (Some(id), now);
            }
            if j == frame.dst {
                let t = &mut air.txs[id.idx()];
                t.dst_outcome = if a.locked {
                    Outcome::Ok
                } else if transmitting || air.radios[j.idx()].lock.is_some() || self.crowded(j) {
                    t.interfered = true;
                    Outcome::Collision
                } else {
                    Outcome::Undetected
                };
            }
            self.hears[id.idx()][k].sensed = a.sensed;
            if a.sensed {
                let r = &mut air.radios[j.idx()];
                let was_active = r.active();
                r.busy += 1;
                if !was_active {
                    r.active_since = now;
                    mac(RadioEvent::Busy(j));
                }
            }
        }
    }

    /// [`super::Medium::take_reception`] under the radio model, `j` locked onto `id`: one draw
    /// per part of the frame (an A-MPDU: its PHY header only), and what the reception saw.
    #[inline(never)]
    pub(super) fn take_reception(
        &mut self,
        air: &mut Air,
        j: NodeId,
        id: TxId,
        now: SimTime,
    ) -> Option<(Outcome, RxInfo)> {
        let (success, err, info) = self.finish(j, id, now)?;
        air.radios[j.idx()].lock = None;
        let rng = &mut air.rngs[j.idx()];
        // An A-MPDU: the PHY header here; its subframes one by one (`mpdu_survives`).
        let (success, err) = if air.txs[id.idx()].frame.subframes > 0 {
            ([success[0], 1.0, 1.0, 1.0], [err[0], 0.0, 0.0, 0.0])
        } else {
            (success, err)
        };
        let (model, cache, chunks) = (self.model, &mut self.cache, &self.chunks[j.idx()]);
        let outcome = decide(success, err, || rng.unit(), |k| exact_part(model, cache, chunks, k));
        let t = &mut air.txs[id.idx()];
        if t.frame.dst == j {
            t.interfered = info.interfered;
        }
        Some((outcome, info))
    }

    /// [`super::Medium::mpdu_survives`] under the radio model: one draw against the chance
    /// that the subframe at PSDU bytes `span` survives the SINR of the chunks it overlaps
    /// ([`Snr::subframe_success`]).
    pub(super) fn mpdu_survives(
        &mut self,
        air: &mut Air,
        j: NodeId,
        frame: &Frame,
        start: SimTime,
        span: (u32, u32),
    ) -> bool {
        if self.selective.is_some() {
            let p = self.subframe_success(j, frame, start, span.0, span.1);
            return p >= 1.0 || air.rngs[j.idx()].unit() < p;
        }
        let (from, to) = subframe_span(frame, start, span.0, span.1);
        let aging = self.aging(frame.src, j, start, from + Dur(to.since(from).ns() / 2));
        let mode = frame.txv.mode;
        // Without tables the bound is 0 and `fails` is `u >= p`: the exact model's draw.
        let (p, err) = self.subframe_product(j, mode, (from, to), aging, self.tables);
        if p >= 1.0 {
            return true; // every chunk certainly 1, as the exact model's
        }
        let u = air.rngs[j.idx()].unit();
        !success_table::fails(u, p, err, || self.subframe_product(j, mode, (from, to), aging, false).0)
    }

    /// [`super::Medium::release`] under the radio model, but for the source: every node that
    /// saw the frame loses its power; those that sensed it may turn idle, and those that surely
    /// sense `responder`'s response are told so as busy (`super::response_follows`; with
    /// fading or motion that is not sure, and they are told idle).
    #[inline(never)]
    pub(super) fn release(
        &mut self,
        air: &mut Air,
        id: TxId,
        now: SimTime,
        responder: Option<NodeId>,
        idle: &mut impl FnMut(NodeId, Cca),
    ) {
        for k in 0..self.hears[id.idx()].len() {
            let h = self.hears[id.idx()][k];
            self.depart(&h, now);
            if !h.sensed {
                continue;
            }
            let r = &mut air.radios[h.node.idx()];
            r.busy -= 1;
            if !r.active() {
                r.busy_ns += now.since(r.active_since).ns();
                match responder {
                    Some(resp) if resp != h.node && self.surely_senses(resp, h.node) => {
                        idle(h.node, super::response_follows(r))
                    }
                    _ => idle(h.node, r.cca()),
                }
            }
        }
    }
}

/// When the subframe at PSDU bytes `[from_byte, to_byte)` of the A-MPDU `frame` (sent at
/// `start`) is on the air.
fn subframe_span(frame: &Frame, start: SimTime, from_byte: u32, to_byte: u32) -> (SimTime, SimTime) {
    let at = |bytes: u32| start + crate::mac::ht::ampdu::subframe_offset(&frame.txv, bytes);
    (at(from_byte), at(to_byte))
}

/// The spans of `frame` (starting at `start`) decided apart: PHY header, MAC header (a data
/// frame's is `data_header_bytes` long; a control frame is all header), upper headers, the
/// rest (see [`Snr::parts`]).
fn parts(frame: &Frame, start: SimTime, data_header_bytes: u32) -> [Part; 4] {
    let txv = frame.txv;
    let short = txv.preamble == Preamble::Short;
    let (hdr_mode, hdr_bits) = plcp_header(txv.mode, short);
    let hdr = Dur(hdr_bits * 1_000_000 / u64::from(hdr_mode.rate_kbps()));
    let pah = txv.preamble_and_header();
    let psdu_start = start + pah;
    let rate_kbps = u64::from(txv.mode.rate_kbps());
    let (service_bits, ext) = match txv.mode.modulation() {
        Modulation::Ofdm { erp, .. } => (16, if erp { Dur::from_us(6) } else { Dur::ZERO }),
        Modulation::Ht { .. } | Modulation::Vht(_) | Modulation::He(_) => {
            (16, if txv.signal_extension { Dur::from_us(6) } else { Dur::ZERO })
        }
        Modulation::Dsss { .. } => (0, Dur::ZERO),
    };
    let (header_bytes, upper_bytes) = match frame.kind {
        FrameKind::Data => {
            let h = frame.bytes.min(data_header_bytes);
            (h, u32::from(frame.upper_bytes).min(frame.bytes - h))
        }
        _ => (frame.bytes, 0),
    };
    let end = start + Dur(txv.duration(frame.bytes).ns() - ext.ns());
    let at = |bytes: u32| {
        (psdu_start + Dur((service_bits + u64::from(bytes) * 8) * 1_000_000 / rate_kbps)).min(end)
    };
    // A control frame is header all through, its tail and pad bits included.
    let mac_end = if frame.kind == FrameKind::Data { at(header_bytes) } else { end };
    let upper_end = at(header_bytes + upper_bytes).max(mac_end);
    let mode = Some(txv.mode);
    [
        Part { from: start + Dur(pah.ns() - hdr.ns()), to: psdu_start, mode: Some(hdr_mode) },
        Part { from: psdu_start, to: mac_end, mode },
        Part { from: mac_end, to: upper_end, mode },
        Part { from: upper_end, to: end, mode },
    ]
}

/// The outcome of a finished reception from its parts' success probabilities and a uniform
/// draw per part (`draw()` gives U(0, 1)), in order: the first part that fails names it. A
/// part known within `err[k]` of the exact model's product (tables) has a draw within that
/// distance settled by `exact(k)` ([`success_table::fails`]).
pub(super) fn decide(
    success: [f64; 4],
    err: [f64; 4],
    mut draw: impl FnMut() -> f64,
    mut exact: impl FnMut(usize) -> f64,
) -> Outcome {
    const FAILS: [Outcome; 4] =
        [Outcome::PhyHeaderError, Outcome::HeaderError, Outcome::UpperHeaderError, Outcome::PayloadError];
    for k in 0..4 {
        if success[k] < 1.0 && success_table::fails(draw(), success[k], err[k], || exact(k)) {
            return FAILS[k];
        }
    }
    Outcome::Ok
}

/// One chunk of a reception, kept with tables to recompute its part exactly.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    part: u8,
    mode: ModeId,
    bits: u64,
    snr: f64,
}

/// A product's rounding, per factor, beside its factors' own bounds.
const PRODUCT_ROUNDING: f64 = 1.0 / (1u64 << 52) as f64;

/// Part `k`'s success under the exact model, its chunks multiplied in the order
/// [`Snr::close`] took them (so the very bits it would have had without tables).
fn exact_part(model: ErrorRateModel, cache: &mut UnitCache, chunks: &[Chunk], k: usize) -> f64 {
    let mut p = 1.0;
    for c in chunks.iter().filter(|c| usize::from(c.part) == k) {
        p *= cache.unit(model, c.snr, c.mode).chunk(c.bits);
    }
    p
}

/// Whether static node `j` decodes node `i` on the mean channel (no fading, nobody else on the
/// air): its preamble is detected and a 1500-byte frame at the standard's lowest mode gets
/// through at least 90 % of the time (the routes' notion of a radio neighbour). A node that
/// moves has a link to every other node as far as the routes go.
pub fn decodes(radio: &RadioSpec, standard: Standard, nodes: &[NodeSpec], i: usize, j: usize) -> bool {
    if nodes[i].mobility.is_some() || nodes[j].mobility.is_some() {
        return true;
    }
    let mode = standard.modes()[0];
    let link = mean_link(radio, standard, nodes, i, j, mode);
    link.locks() && radio.error_model().chunk_success(link.snr, mode, DECODE_TEST_BITS) >= DECODE_TEST_SUCCESS
}

/// The mean link budget of a PPDU at one mode from node `i` to node `j`: what the receiver of
/// the radio model sees with no fading and nobody else on the air, the nodes at their spec's
/// positions (a moving node's start, as far as the spec gives it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanLink {
    /// Distance \[m\].
    pub distance_m: f64,
    /// Received power (RSSI) \[dBm\]: the transmit power at the mode (the node's own, else the
    /// channel's per-rate or default) minus the path loss.
    pub rx_dbm: f64,
    /// Noise floor in the PPDU's bandwidth \[dBm\].
    pub noise_dbm: f64,
    /// SNR (linear): received power over the noise floor.
    pub snr: f64,
    /// The power below which the PPDU is not seen at all \[dBm\]: the sensitivity, scaled to
    /// the PPDU's width (ns-3 `YansWifiChannel::Receive`).
    pub hear_dbm: f64,
    /// The power below which a PPDU at the mode is not received \[dBm\] (the per-rate
    /// sensitivity, else the sensitivity).
    pub lock_dbm: f64,
    /// Preamble detection, if on: its minimum RSSI \[dBm\] and SNR \[dB\] (ns-3
    /// `ThresholdPreambleDetectionModel`).
    pub detect: Option<(f64, f64)>,
}

impl MeanLink {
    /// The SNR \[dB\].
    pub fn snr_db(&self) -> f64 {
        crate::channel::ratio_to_db(self.snr)
    }

    /// The least RSSI at which the receiver locks onto the PPDU \[dBm\].
    pub fn least_rx_dbm(&self) -> f64 {
        let rssi = self.detect.map_or(f64::NEG_INFINITY, |(dbm, _)| dbm);
        self.hear_dbm.max(self.lock_dbm).max(rssi)
    }

    /// Whether the receiver locks onto the PPDU: it is seen, at or above the mode's
    /// sensitivity, and its preamble is detected.
    pub fn locks(&self) -> bool {
        if self.rx_dbm < self.hear_dbm || self.rx_dbm < self.lock_dbm {
            return false;
        }
        match self.detect {
            Some((min_rssi_dbm, snr_db)) => {
                self.rx_dbm >= min_rssi_dbm && self.snr >= crate::channel::db_to_ratio(snr_db)
            }
            None => true,
        }
    }
}

/// The mean link budget from node `i` to node `j` of a PPDU at `mode` ([`MeanLink`]): the same
/// powers, thresholds and noise as a frame of the run (`Snr::new`, `Snr::rx_mw`) without the
/// fade.
pub fn mean_link(
    radio: &RadioSpec,
    standard: Standard,
    nodes: &[NodeSpec],
    i: usize,
    j: usize,
    mode: ModeId,
) -> MeanLink {
    let m = usize::from(mode.0);
    let tx_dbm = RadioSpec::per_mode(&radio.tx_power_by_rate_dbm, standard, radio.tx_power_dbm)[m];
    let lock_dbm =
        RadioSpec::per_mode(&radio.rx_sensitivity_by_rate_dbm, standard, radio.rx_sensitivity_dbm)[m];
    let distance_m = distance(nodes[i].position_m, nodes[j].position_m);
    let rx_dbm = nodes[i].tx_power_dbm.unwrap_or(tx_dbm) - radio.path_loss().loss_db(distance_m);
    let noise = noise_mw(bandwidth_hz(mode, standard), radio.noise_figure_db);
    MeanLink {
        distance_m,
        rx_dbm,
        noise_dbm: crate::channel::mw_to_dbm(noise),
        snr: dbm_to_mw(rx_dbm) / noise,
        hear_dbm: radio.rx_sensitivity_dbm + sensitivity_scale_db(mode),
        lock_dbm,
        detect: radio.preamble_detection.map(|p| (p.min_rssi_dbm, p.snr_db)),
    }
}

/// Probability that a PPDU at `mode` whose PSDU has `psdu_bits` bits survives a constant linear
/// SNR `snr`: its PHY header ([`plcp_header`], at its own mode) and its PSDU, each one chunk, as
/// a reception of the run multiplies them (ns-3 `InterferenceHelper` with one SNR throughout;
/// the SERVICE and tail bits of OFDM symbols left out).
pub fn ppdu_success(
    model: ErrorRateModel,
    snr: f64,
    mode: ModeId,
    short_preamble: bool,
    psdu_bits: u64,
) -> f64 {
    model.header_success(snr, mode, short_preamble) * model.chunk_success(snr, mode, psdu_bits)
}

/// The least SNR \[dB\] at which `success` (growing with the linear SNR, as every error model's
/// chunk success does) reaches `target`, by bisection over −20..100 dB to 0.001 dB; +∞ if it
/// never does there.
pub fn snr_db_for(target: f64, success: impl Fn(f64) -> f64) -> f64 {
    let at = |db: f64| success(crate::channel::db_to_ratio(db));
    let (mut lo, mut hi) = (-20.0f64, 100.0f64);
    if at(hi) < target {
        return f64::INFINITY;
    }
    if at(lo) >= target {
        return lo;
    }
    while hi - lo > 1e-3 {
        let mid = 0.5 * (lo + hi);
        if at(mid) >= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The success rate a radio neighbour's decode test asks for.
pub const DECODE_TEST_SUCCESS: f64 = 0.9;

/// The frame of the decode test: 1500 bytes.
pub const DECODE_TEST_BITS: u64 = 1500 * 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phy::Standard;

    #[test]
    fn the_unit_cache_returns_exactly_what_the_model_computes() {
        // Many SNRs and modes through 256 slots: hits, misses and evictions alike must give
        // the model's own value, bit for bit.
        let mut cache = UnitCache::new();
        for model in [ErrorRateModel::Nist, ErrorRateModel::Yans] {
            for round in 0..3 {
                for k in 0..400 {
                    let snr = 10f64.powf(f64::from(k % 97) / 40.0 - 0.5) + f64::from(round) * 1e-9;
                    for &mode in Standard::G.modes() {
                        let got = cache.unit(model, snr, mode);
                        assert_eq!(got, model.unit_success(snr, mode));
                        assert_eq!(got.chunk(12_000), model.chunk_success(snr, mode, 12_000));
                    }
                }
            }
        }
    }

    #[test]
    fn a_data_frame_splits_into_phy_header_mac_header_upper_headers_and_payload() {
        // 802.11a 54 Mbit/s, 1564-byte MPDU (1500 B of UDP payload), 24-byte MAC header, 36
        // bytes of LLC/SNAP + IPv4 + UDP. Hand computation (17.3.2, 17.3.5.2): L-SIG 16..20 us;
        // the MAC header ends (16 + 192) / 54 = 3.851 us into the PSDU; the upper headers
        // (16 + 480) / 54 = 9.185 us; 59 symbols end the frame at 20 + 236 = 256 us.
        let frame = Frame {
            kind: FrameKind::Data,
            src: NodeId(1),
            dst: NodeId(0),
            bytes: 1564,
            txv: crate::phy::TxVector::new(Standard::A.mode(54_000).unwrap(), Preamble::Long),
            nav: Dur::ZERO,
            packet: None,
            seq: 0,
            retry: false,
            ac: 1,
            upper_bytes: 36,
            subframes: 0,
        };
        let p = parts(&frame, SimTime::ZERO, 24);
        let ns = |t: SimTime| t.ns();
        assert_eq!((ns(p[0].from), ns(p[0].to)), (16_000, 20_000));
        assert_eq!(p[0].mode, Some(crate::phy::modes::OFDM_6));
        assert_eq!((ns(p[1].from), ns(p[1].to)), (20_000, 23_851));
        assert_eq!((ns(p[2].from), ns(p[2].to)), (23_851, 29_185));
        assert_eq!((ns(p[3].from), ns(p[3].to)), (29_185, 256_000));
        // An ACK is header all through, to the end of its last symbol.
        let ack = Frame { kind: FrameKind::Ack, bytes: 14, upper_bytes: 0, ..frame };
        let p = parts(&ack, SimTime::ZERO, 24);
        assert_eq!(ns(p[1].to), 24_000);
        assert_eq!(p[2].from, p[2].to);
        assert_eq!(p[3].from, p[3].to);
    }

    fn radio() -> RadioSpec {
        use crate::channel::budget::*;
        RadioSpec {
            path_loss: crate::spec::PathLossSpec::LogDistance {
                exponent: 3.0,
                reference_distance_m: 1.0,
                reference_loss_db: 46.6777,
            },
            fading: Default::default(),
            estimation: Default::default(),
            shadowing_db: 0.0,
            tx_power_dbm: NS3_TX_POWER_DBM,
            tx_power_by_rate_dbm: Vec::new(),
            noise_figure_db: NS3_RX_NOISE_FIGURE_DB,
            rx_sensitivity_dbm: NS3_RX_SENSITIVITY_DBM,
            rx_sensitivity_by_rate_dbm: Vec::new(),
            cca_threshold_dbm: NS3_CCA_SENSITIVITY_DBM,
            error_model: crate::phy::error::ErrorRateModel::Nist,
            exact: false,
            preamble_detection: Some(crate::spec::PreambleDetectionSpec {
                snr_db: NS3_PREAMBLE_DETECTION_SNR_DB,
                min_rssi_dbm: NS3_PREAMBLE_DETECTION_MIN_RSSI_DBM,
            }),
            capture: None,
            fading_seed: None,
        }
    }

    #[test]
    fn a_fading_seed_holds_the_channel_across_run_seeds() {
        // TGn B standing still with 4 dB of shadowing: without a fading seed each run seed is
        // another realization; with one, every run seed sees the same channel.
        let fading =
            crate::spec::FadingSpec::Tgn { model: crate::channel::tgn::TgnModel::B, doppler_hz: 0.0 };
        let nodes = [at("a", 0.0), at("b", 8.0)];
        let gain = |fading_seed: Option<u64>, seed: u64| {
            let r = RadioSpec { fading, shadowing_db: 4.0, fading_seed, ..radio() };
            let mut snr = Snr::new(&r, Standard::A, &nodes, seed, 24);
            snr.rx_mw(0, 1, crate::phy::modes::OFDM_6, SimTime(1_000_000))
        };
        assert_ne!(gain(None, 1), gain(None, 2));
        assert_eq!(gain(Some(7), 1), gain(Some(7), 2));
        assert_eq!(gain(Some(7), 1), gain(None, 7)); // the fading seed is a run seed's channel
    }

    fn at(name: &str, x: f64) -> NodeSpec {
        NodeSpec {
            name: name.into(),
            position_m: [x, 0.0, 0.0],
            wifi: true,
            role: crate::spec::Role::Adhoc,
            rate_control: None,
            mobility: None,
            tx_power_dbm: None,
        }
    }

    #[test]
    fn the_mean_link_adds_up_the_budget() {
        // ns-3's defaults at 10 m (channel::budget's hand computation): 16.0206 − 76.6777 =
        // −60.6571 dBm over a 20 MHz noise floor of −93.966 dBm: SNR 33.309 dB.
        let nodes = [at("a", 0.0), at("b", 10.0)];
        let l = mean_link(&radio(), Standard::A, &nodes, 0, 1, crate::phy::modes::OFDM_6);
        assert!((l.distance_m - 10.0).abs() < 1e-12);
        assert!((l.rx_dbm + 60.6571).abs() < 1e-4);
        assert!((l.noise_dbm + 93.966).abs() < 1e-3);
        assert!((l.snr_db() - 33.309).abs() < 1e-3);
        assert_eq!(l.least_rx_dbm(), -82.0); // preamble detection's minimum RSSI
        assert!(l.locks());
        // A node's own power counts; below −82 dBm nothing is locked onto.
        let far = [at("a", 0.0), at("b", 60.0)];
        let l = mean_link(&radio(), Standard::A, &far, 0, 1, crate::phy::modes::OFDM_6);
        assert!(l.rx_dbm < -82.0 && !l.locks());
        let loud = [NodeSpec { tx_power_dbm: Some(30.0), ..at("a", 0.0) }, at("b", 60.0)];
        assert!(mean_link(&radio(), Standard::A, &loud, 0, 1, crate::phy::modes::OFDM_6).locks());
    }

    #[test]
    fn the_snr_a_frame_needs_is_where_its_success_reaches_the_target() {
        let model = ErrorRateModel::Nist;
        let mode = Standard::A.mode(54_000).unwrap();
        let success = |snr: f64| ppdu_success(model, snr, mode, false, 1536 * 8);
        let need = snr_db_for(0.9, success);
        assert!(success(db_to_ratio(need)) >= 0.9);
        assert!(success(db_to_ratio(need - 0.002)) < 0.9);
        // 54 Mbit/s needs far more than 6 Mbit/s; a target never reached is +inf.
        let six = snr_db_for(0.9, |snr| ppdu_success(model, snr, crate::phy::modes::OFDM_6, false, 1536 * 8));
        assert!(need > six + 10.0, "{need} vs {six}");
        assert_eq!(snr_db_for(1.5, success), f64::INFINITY);
    }

    #[test]
    fn decodes_is_the_mean_link_at_the_lowest_mode() {
        let r = radio();
        for x in [5.0, 30.0, 50.0, 51.0, 52.0, 80.0] {
            let nodes = [at("a", 0.0), at("b", x)];
            let l = mean_link(&r, Standard::A, &nodes, 0, 1, crate::phy::modes::OFDM_6);
            let ok = l.locks()
                && r.error_model().chunk_success(l.snr, crate::phy::modes::OFDM_6, DECODE_TEST_BITS) >= 0.9;
            assert_eq!(decodes(&r, Standard::A, &nodes, 0, 1), ok, "{x} m");
        }
        assert!(decodes(&r, Standard::A, &[at("a", 0.0), at("b", 50.0)], 0, 1));
        assert!(!decodes(&r, Standard::A, &[at("a", 0.0), at("b", 52.0)], 0, 1));
    }

    #[test]
    fn outcomes_name_the_first_part_that_fails() {
        let ones = || 0.999_999;
        let exact = |_| panic!("every draw is settled");
        let no = [0.0; 4];
        assert_eq!(decide([1.0; 4], no, ones, exact), Outcome::Ok);
        assert_eq!(decide([0.5, 1.0, 1.0, 1.0], no, ones, exact), Outcome::PhyHeaderError);
        assert_eq!(decide([1.0, 0.5, 0.0, 0.0], no, ones, exact), Outcome::HeaderError);
        assert_eq!(decide([1.0, 1.0, 0.5, 0.0], no, ones, exact), Outcome::UpperHeaderError);
        assert_eq!(decide([1.0, 1.0, 1.0, 0.5], no, ones, exact), Outcome::PayloadError);
        // A draw below a part's success lets it through.
        assert_eq!(decide([0.5; 4], no, || 0.25, exact), Outcome::Ok);
        // A draw within a part's bound goes to the exact model: here it fails the payload.
        let err = [0.0, 0.0, 0.0, 1e-6];
        let exact = |k| if k == 3 { 0.25 } else { panic!("part {k} is settled") };
        assert_eq!(decide([0.5, 0.5, 0.5, 0.2500001], err, || 0.25, exact), Outcome::PayloadError);
    }
}
