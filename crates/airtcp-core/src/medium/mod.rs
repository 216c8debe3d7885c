//! The shared wireless medium: who senses and who decodes whom, the transmissions in the air,
//! each node's radio (busy count, own transmission, the frame it is locked onto), collisions
//! and frame errors.
//!
//! Two models of who hears whom. The range model (ranges or a 0/1 matrix, this file): fixed
//! listener lists, a reception is lost to any overlap, errors by a fixed FER/BER or a bursty
//! channel. The radio model ([`snr`], `channel.radio`): powers from positions, path loss and
//! fading per frame, receptions decided by their SINR. Both share the radios and the
//! transmissions; the methods branch once on the model.
//!
//! The range model tells the nodes that sense a transmission when it starts and ends by direct
//! calls over precomputed listener lists; no per-listener events are scheduled. A node locks
//! onto a decodable frame that starts while its medium is idle; any overlap corrupts that
//! reception (no capture). Outcomes are decided once per transmission, at its end. The medium
//! knows nothing of the MAC's state: what a MAC must learn (its medium turned busy, a garbled
//! reception, the medium turned idle) is handed to the caller's callback, in listener order.

mod snr;

pub use snr::{
    decodes, mean_link, ppdu_success, snr_db_for, MeanLink, DECODE_TEST_BITS, DECODE_TEST_SUCCESS,
};

use crate::channel::bursty::{GilbertElliott, LinkState, OnOff};
use crate::ids::{NodeId, TxId};
use crate::mac::frame::{Frame, FrameKind};
use crate::mac::Cca;
use crate::phy::Standard;
use crate::rng::Stream;
use crate::spec::{ChannelSpec, ErrorSpec, NodeSpec};
use crate::time::{Dur, SimTime};

/// What became of a frame at one receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Another transmission overlapped it, or the receiver was itself transmitting.
    Collision,
    /// Bit errors hit the MAC header (or the whole frame under a fixed FER).
    HeaderError,
    /// The MAC header survived, the payload did not (FCS fails; paper 004's case). Under the
    /// radio model: the IP and transport headers survived too.
    PayloadError,
    /// Radio model: the MAC header survived, the LLC/SNAP, IP or transport header did not.
    UpperHeaderError,
    /// Radio model: the PHY header failed, so there was no reception (no PHY-RXSTART).
    PhyHeaderError,
    /// Radio model: the addressee did not detect the frame (too weak, or nothing to lock on).
    Undetected,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Collision => "collision",
            Outcome::HeaderError => "header_error",
            Outcome::PayloadError => "payload_error",
            Outcome::PhyHeaderError => "phy_header_error",
            Outcome::UpperHeaderError => "upper_header_error",
            Outcome::Undetected => "undetected",
        }
    }
}

/// Radio model: what a finished reception saw (the receptions trace).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RxInfo {
    /// Received power, the fade included, and the noise floor [mW].
    pub rx_mw: f64,
    pub noise_mw: f64,
    /// The lowest SINR over the reception's chunks (linear).
    pub min_sinr: f64,
    pub interfered: bool,
}

/// What a node's MAC learns from its radio when a transmission starts (in listener order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RadioEvent {
    /// The node's medium turned busy (or it started to transmit): freeze its countdowns.
    Busy(NodeId),
    /// A frame the node could have decoded arrived garbled: its next countdown waits EIFS
    /// (10.3.2.3.7).
    Garbled(NodeId),
}

/// The radio front end of one node.
#[derive(Clone, Copy, Debug, Default)]
pub struct Radio {
    /// Transmissions of others currently sensed.
    pub busy: u32,
    /// Own transmission in progress.
    pub tx: Option<TxId>,
    /// The frame being received, and whether it has been corrupted.
    pub lock: Option<TxId>,
    pub lock_bad: bool,
    /// When the locked frame started.
    pub lock_since: SimTime,
    /// Start of the current busy (sensed or transmitting) period.
    pub active_since: SimTime,
    /// Busy and transmitting time of the periods closed so far, from the start of the run
    /// [ns]: control meters ([`Medium::busy_ns_now`]).
    pub busy_ns: u64,
    pub tx_ns: u64,
    /// Both as they were when the measured period started ([`Medium::start_measuring`]).
    pub busy_at_start_ns: u64,
    pub tx_at_start_ns: u64,
}

impl Radio {
    pub fn active(&self) -> bool {
        self.busy > 0 || self.tx.is_some()
    }

    /// What the MAC senses of this radio (PHY-CCA and PHY-RXSTART, 10.3.2.1).
    pub fn cca(&self) -> Cca {
        Cca { busy: self.active(), transmitting: self.tx.is_some(), receiving: self.lock.is_some() }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Transmission {
    pub frame: Frame,
    pub start: SimTime,
    pub dst_outcome: Outcome,
    /// Radio model: another signal overlapped the addressee's reception (a failure is then
    /// counted as a collision).
    pub interfered: bool,
}

/// An N x N matrix of bits (`src * n + dst`): an eighth of a `bool` per pair.
#[derive(Clone, Debug)]
struct BitMatrix {
    n: usize,
    words: Vec<u64>,
}

impl BitMatrix {
    fn new(n: usize) -> BitMatrix {
        BitMatrix { n, words: vec![0; (n * n).div_ceil(64)] }
    }

    #[inline(always)]
    fn get(&self, i: usize, j: usize) -> bool {
        let b = i * self.n + j;
        self.words[b / 64] >> (b % 64) & 1 == 1
    }

    fn set(&mut self, i: usize, j: usize, v: bool) {
        let b = i * self.n + j;
        if v {
            self.words[b / 64] |= 1 << (b % 64);
        } else {
            self.words[b / 64] &= !(1 << (b % 64));
        }
    }
}

/// How long a receiver needs to detect a preamble (ns-3 `WifiPhy::GetPreambleDetectionDuration`).
pub const PREAMBLE_DETECTION: Dur = Dur::from_us(4);

pub struct Medium {
    n: usize,
    /// Whether receivers need a clean preamble to lock on (see `ChannelSpec::preamble_detection`).
    preamble_detection: bool,
    /// Bit `src * n + dst`: dst can decode src.
    rx: BitMatrix,
    /// Bit `src * n + dst`: dst senses src.
    cs: BitMatrix,
    /// The nodes that sense a node's transmissions, shared by the nodes that have the same
    /// ones: `views[view_of[i]]` is node i's closed neighbourhood (the nodes sensing it and
    /// itself, in node order), so a collision domain of N nodes keeps one list, not N; node i's
    /// listeners are its view without itself, at `own[i]`.
    views: Vec<Vec<NodeId>>,
    view_of: Vec<u32>,
    own: Vec<u32>,
    pub radios: Vec<Radio>,
    txs: Vec<Transmission>,
    free_tx: Vec<u32>,
    /// The error model and each receiver's random stream for it.
    error: ErrorSpec,
    rx_rngs: Vec<Stream>,
    /// MAC header of a data frame [bytes]: the part the BER model decides apart.
    data_header_bytes: u32,
    /// The bursty-loss channel and each directed link's state (src * n + receiver), only
    /// with the Gilbert-Elliott error model.
    bursty: Option<GilbertElliott>,
    /// The on/off interferer, only with that error model (its links in `bursty_links`).
    interferer: Option<OnOff>,
    bursty_links: Vec<LinkState>,
    /// The radio model, if the channel has one.
    snr: Option<Box<snr::Snr>>,
    /// Radio model: the last reception [`Medium::take_reception`] decided.
    pub last_rx: RxInfo,
}

/// Slack of the range comparison [m]: world-spec positions are given to the nanometre (Python
/// rounds them to 9 decimals, `config._clean`), so a node placed exactly at the range may sit a
/// fraction of a nanometre beyond it; both sides compare with this slack and agree.
pub const RANGE_SLACK_M: f64 = 1e-9;

/// Whether node `j` decodes node `i`'s frames, and whether it senses them (a node that
/// decodes also senses): from the matrix if there is one, by distance under the range model,
/// by the mean link budget under the radio model ([`decodes`]; sensing is then decided frame
/// by frame, and this says `decodes` for both). Both WiFi nodes.
pub fn reach(c: &ChannelSpec, standard: Standard, nodes: &[NodeSpec], i: usize, j: usize) -> (bool, bool) {
    if let Some(radio) = &c.radio {
        let d = decodes(radio, standard, nodes, i, j);
        return (d, d);
    }
    match &c.matrix {
        Some(m) => (m.rx[i][j] == 1, m.cs[i][j] == 1 || m.rx[i][j] == 1),
        None => {
            let d = distance(nodes[i].position_m, nodes[j].position_m);
            let (rx, cs) = (c.rx_range_m.unwrap_or(0.0), c.cs_range_m.unwrap_or(0.0));
            (d <= rx + RANGE_SLACK_M, d <= cs + RANGE_SLACK_M)
        }
    }
}

pub fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

impl Medium {
    /// The medium of the channel section `c` over `nodes` in the run seeded `seed`;
    /// `rx_rngs[i]` draws node i's frame errors.
    pub fn build(
        c: &ChannelSpec,
        nodes: &[NodeSpec],
        standard: Standard,
        seed: u64,
        rx_rngs: Vec<Stream>,
        data_header_bytes: u32,
    ) -> Medium {
        let n = nodes.len();
        let mut rx = BitMatrix::new(n);
        let mut cs = BitMatrix::new(n);
        for i in 0..n {
            for j in 0..n {
                if i == j || !nodes[i].wifi || !nodes[j].wifi {
                    continue;
                }
                let (r, s) = reach(c, standard, nodes, i, j);
                rx.set(i, j, r);
                cs.set(i, j, s);
            }
        }
        let snr =
            c.radio.as_ref().map(|r| Box::new(snr::Snr::new(r, standard, nodes, seed, data_header_bytes)));
        // The range model's fixed listener lists (the radio model finds them frame by frame),
        // one per distinct closed neighbourhood. Under the radio model (sensing decided frame
        // by frame, from the mean link budget here) they only group the contention domains.
        let (mut views, mut view_of, mut own) = (Vec::new(), vec![0u32; n], vec![0u32; n]);
        let mut index: std::collections::HashMap<Vec<NodeId>, u32> = std::collections::HashMap::new();
        let mut view = Vec::new();
        for i in 0..n {
            view.clear();
            view.extend((0..n).filter(|&j| j == i || cs.get(i, j)).map(|j| NodeId(j as u32)));
            own[i] = view.iter().position(|&j| j.idx() == i).expect("a node is in its own view") as u32;
            view_of[i] = *index.entry(view.clone()).or_insert_with(|| {
                views.push(view.clone());
                (views.len() - 1) as u32
            });
        }
        let ms = |v: f64| Dur((v * 1e6).round().max(1.0) as u64);
        let bursty = match c.error {
            ErrorSpec::Gilbert { good_ms, bad_ms, loss_good, loss_bad } => {
                Some(GilbertElliott { good: ms(good_ms), bad: ms(bad_ms), loss_good, loss_bad })
            }
            _ => None,
        };
        let interferer = match c.error {
            ErrorSpec::Interferer { on_ms, off_ms } => Some(OnOff { on: ms(on_ms), off: ms(off_ms) }),
            _ => None,
        };
        Medium {
            n,
            preamble_detection: c.preamble_detection,
            rx,
            cs,
            views,
            view_of,
            own,
            radios: vec![Radio::default(); n],
            txs: Vec::with_capacity(64),
            free_tx: Vec::with_capacity(64),
            error: c.error,
            rx_rngs,
            data_header_bytes,
            bursty,
            interferer,
            bursty_links: if bursty.is_some() || interferer.is_some() {
                vec![LinkState::default(); n * n]
            } else {
                Vec::new()
            },
            snr,
            last_rx: RxInfo::default(),
        }
    }

    pub fn can_decode(&self, src: NodeId, dst: NodeId) -> bool {
        self.rx.get(src.idx(), dst.idx())
    }

    /// Whether `listener` senses transmissions of `src`.
    pub fn senses(&self, src: NodeId, listener: NodeId) -> bool {
        self.cs.get(src.idx(), listener.idx())
    }

    /// The nodes that share one view of the medium (the same closed carrier-sense
    /// neighbourhood), in groups of at least `min` in node order: the contention domains.
    pub fn view_groups(&self, min: usize) -> Vec<Vec<NodeId>> {
        let mut groups = vec![Vec::new(); self.views.len()];
        for (i, &v) in self.view_of.iter().enumerate() {
            groups[v as usize].push(NodeId(i as u32));
        }
        groups.retain(|g| g.len() >= min);
        groups
    }

    /// How many nodes sense node `i` (range model).
    #[inline(always)]
    fn listener_count(&self, i: usize) -> usize {
        self.views.get(self.view_of[i] as usize).map_or(0, |v| v.len() - 1)
    }

    /// The `k`-th node (in node order) that senses node `i` (range model).
    #[inline(always)]
    fn listener(&self, i: usize, k: usize) -> NodeId {
        let view = &self.views[self.view_of[i] as usize];
        view[if k < self.own[i] as usize { k } else { k + 1 }]
    }

    /// How many nodes may be receiving transmission `id` (from `src`): its listeners under the
    /// range model, every node that sees it under the radio model.
    #[inline]
    pub fn receiver_count(&self, id: TxId, src: NodeId) -> usize {
        match &self.snr {
            None => self.listener_count(src.idx()),
            Some(s) => s.hears[id.idx()].len(),
        }
    }

    /// The `k`-th of [`Self::receiver_count`].
    #[inline]
    pub fn receiver(&self, id: TxId, src: NodeId, k: usize) -> NodeId {
        match &self.snr {
            None => self.listener(src.idx(), k),
            Some(s) => s.hears[id.idx()][k].node,
        }
    }

    /// Whether the channel runs the radio model.
    #[inline]
    pub fn is_radio(&self) -> bool {
        self.snr.is_some()
    }

    /// Whether `node` moves (radio model).
    pub fn moves(&self, node: NodeId) -> bool {
        self.snr.as_ref().is_some_and(|s| s.moves(node))
    }

    /// Where `node` is at `now` under the radio model (None under the range model).
    pub fn position_at(&mut self, node: NodeId, now: SimTime) -> Option<[f64; 3]> {
        self.snr.as_mut().map(|s| s.position_at(node, now))
    }

    /// What `node`'s MAC senses of the medium now (PHY-CCA and PHY-RXSTART, 10.3.2.1).
    pub fn cca(&self, node: NodeId) -> Cca {
        self.radios[node.idx()].cca()
    }

    fn alloc(&mut self, t: Transmission) -> TxId {
        if let Some(i) = self.free_tx.pop() {
            self.txs[i as usize] = t;
            TxId(i)
        } else {
            self.txs.push(t);
            TxId(self.txs.len() as u32 - 1)
        }
    }

    /// `frame` goes on the air from `frame.src` at `now`. Every radio that senses it turns
    /// busy; what their MACs must learn goes to `mac` (the transmitter's own `Busy` first,
    /// then the listeners in order). The caller schedules the end.
    #[inline(always)]
    pub fn begin(&mut self, frame: Frame, now: SimTime, mac: impl FnMut(RadioEvent)) -> TxId {
        if self.snr.is_some() {
            self.begin_radio(frame, now, mac)
        } else {
            self.begin_range(frame, now, mac)
        }
    }

    /// [`Self::begin`] under the range model.
    #[inline(always)]
    fn begin_range(&mut self, frame: Frame, now: SimTime, mut mac: impl FnMut(RadioEvent)) -> TxId {
        let node = frame.src;
        let i = node.idx();
        let id = self.alloc(Transmission { frame, start: now, dst_outcome: Outcome::Ok, interfered: false });
        let r = &mut self.radios[i];
        if r.lock.is_some() {
            if r.lock_since == now {
                // Both backoffs ended in the same slot: the node never detected the other
                // frame (no PHY-RXSTART), so no erroneous reception and no EIFS (10.3.2.3.7).
                let other = r.lock.take().expect("locked");
                let t = &mut self.txs[other.idx()];
                if t.frame.dst == node {
                    t.dst_outcome = Outcome::Collision;
                }
            } else {
                r.lock_bad = true; // half duplex: a reception in progress is lost
            }
        }
        let was_active = r.active();
        r.tx = Some(id);
        if !was_active {
            r.active_since = now;
        }
        mac(RadioEvent::Busy(node));
        // The addressee's fate until it locks on: a unicast frame no radio of its addressee
        // locks onto was never received (no PHY-RXSTART); a group frame has no addressee.
        let mut dst_outcome = if frame.dst == NodeId::BROADCAST { Outcome::Ok } else { Outcome::Undetected };
        let (v, own) = (self.view_of[i] as usize, self.own[i] as usize);
        for k in 0..self.listener_count(i) {
            let j = self.views[v][k + usize::from(k >= own)];
            let decodable = self.can_decode(node, j);
            let r = &mut self.radios[j.idx()];
            let was_active = r.active();
            r.busy += 1;
            if r.tx.is_none() && r.lock.is_none() && r.busy == 1 && decodable {
                r.lock = Some(id);
                r.lock_bad = false;
                r.lock_since = now;
                if j == frame.dst {
                    dst_outcome = Outcome::Ok;
                }
            } else {
                let detect = self.preamble_detection;
                if r.tx.is_none() {
                    match r.lock {
                        // Both preambles overlap: neither is detected, the receiver sees
                        // energy only (no reception, so no error and no EIFS).
                        Some(other) if detect && now < r.lock_since + PREAMBLE_DETECTION => {
                            r.lock = None;
                            let t = &mut self.txs[other.idx()];
                            if t.frame.dst == j {
                                t.dst_outcome = Outcome::Collision;
                            }
                        }
                        Some(_) => r.lock_bad = true,
                        // Without preamble detection a frame it could hear arrives garbled.
                        None if decodable && !detect => mac(RadioEvent::Garbled(j)),
                        None => {}
                    }
                }
                // A frame its addressee could decode but did not lock onto (it was sending,
                // or another frame was on the air) collided; one it can only sense was never
                // detected, whatever else is on the air.
                if j == frame.dst && decodable {
                    dst_outcome = Outcome::Collision;
                }
            }
            if !was_active {
                self.radios[j.idx()].active_since = now;
                mac(RadioEvent::Busy(j));
            }
        }
        self.txs[id.idx()].dst_outcome = dst_outcome;
        id
    }

    /// The transmission `id` as it stands (until [`Medium::release`]).
    pub fn transmission(&self, id: TxId) -> &Transmission {
        &self.txs[id.idx()]
    }

    /// The transmission `id` ends at its transmitter: its radio stops transmitting. Returns
    /// the transmission; its slot stays readable until [`Medium::release`].
    pub fn end_tx(&mut self, id: TxId, now: SimTime) -> Transmission {
        let t = self.txs[id.idx()];
        let r = &mut self.radios[t.frame.src.idx()];
        r.tx = None;
        r.tx_ns += now.since(t.start).ns();
        if !r.active() {
            // Its busy period closes here, so the meter reads it whole before the release
            // (the MAC's handlers, and the schemes they call, run between the two).
            r.busy_ns += now.since(r.active_since).ns();
        }
        t
    }

    /// [`Self::begin`] under the radio model (kept out of line: the range model's path stays
    /// small).
    #[inline(never)]
    fn begin_radio(&mut self, frame: Frame, now: SimTime, mut mac: impl FnMut(RadioEvent)) -> TxId {
        let node = frame.src;
        let i = node.idx();
        let id = self.alloc(Transmission {
            frame,
            start: now,
            dst_outcome: Outcome::Undetected,
            interfered: false,
        });
        let snr = self.snr.as_mut().expect("radio model");
        // Half duplex: a reception in progress is abandoned, silently (no PHY-RXEND error).
        if let Some(lost) = snr.abort(node, now) {
            self.radios[i].lock = None;
            let t = &mut self.txs[lost.idx()];
            if t.frame.dst == node {
                (t.dst_outcome, t.interfered) = (Outcome::Collision, true);
            }
        }
        let r = &mut self.radios[i];
        let was_active = r.active();
        r.tx = Some(id);
        if !was_active {
            r.active_since = now;
        }
        mac(RadioEvent::Busy(node));
        snr.spread(id, &frame, now);
        for k in 0..snr.hears[id.idx()].len() {
            let h = snr.hears[id.idx()][k];
            let j = h.node;
            let transmitting = self.radios[j.idx()].tx.is_some();
            let a = snr.arrive(j, &h, id, &frame, transmitting, now);
            if let Some(lost) = a.lost {
                self.radios[j.idx()].lock = None;
                let t = &mut self.txs[lost.idx()];
                if t.frame.dst == j {
                    (t.dst_outcome, t.interfered) = (Outcome::Collision, true);
                }
            }
            if a.locked {
                let r = &mut self.radios[j.idx()];
                (r.lock, r.lock_since) = (Some(id), now);
            }
            if j == frame.dst {
                let t = &mut self.txs[id.idx()];
                t.dst_outcome = if a.locked {
                    Outcome::Ok
                } else if transmitting || self.radios[j.idx()].lock.is_some() || snr.crowded(j) {
                    t.interfered = true;
                    Outcome::Collision
                } else {
                    Outcome::Undetected
                };
            }
            snr.hears[id.idx()][k].sensed = a.sensed;
            if a.sensed {
                let r = &mut self.radios[j.idx()];
                let was_active = r.active();
                r.busy += 1;
                if !was_active {
                    r.active_since = now;
                    mac(RadioEvent::Busy(j));
                }
            }
        }
        id
    }

    /// If `j` is locked onto transmission `id`, which ends at `now`, unlock it and decide the
    /// frame's fate there: under the range model a collision if the lock was corrupted, else
    /// the error model's draw; under the radio model one draw per part of the frame.
    pub fn take_reception(&mut self, j: NodeId, id: TxId, now: SimTime) -> Option<Outcome> {
        if self.radios[j.idx()].lock != Some(id) {
            return None;
        }
        if self.snr.is_some() {
            return self.take_reception_radio(j, id, now);
        }
        let r = &mut self.radios[j.idx()];
        r.lock = None;
        if r.lock_bad {
            return Some(Outcome::Collision);
        }
        Some(self.draw_error(j, id))
    }

    /// [`Self::take_reception`] under the radio model, `j` locked onto `id`.
    #[inline(never)]
    fn take_reception_radio(&mut self, j: NodeId, id: TxId, now: SimTime) -> Option<Outcome> {
        let snr = self.snr.as_mut().expect("radio model");
        let (success, info) = snr.finish(j, id, now)?;
        self.last_rx = info;
        self.radios[j.idx()].lock = None;
        let rng = &mut self.rx_rngs[j.idx()];
        // An A-MPDU: the PHY header here; its subframes one by one (`mpdu_survives`).
        let success =
            if self.txs[id.idx()].frame.subframes > 0 { [success[0], 1.0, 1.0, 1.0] } else { success };
        let outcome = snr::decide(success, || rng.unit());
        let t = &mut self.txs[id.idx()];
        if t.frame.dst == j {
            t.interfered = info.interfered;
        }
        Some(outcome)
    }

    /// Whether the subframe at PSDU bytes `[from_byte, to_byte)` of the A-MPDU `frame` (sent
    /// at `start`) reaching `j` survives, decided on its own: under the radio model at the
    /// SINR of each chunk of the reception it overlaps; under the range model by the error
    /// model (a fixed FER per MPDU, or independent bit errors over its MPDU's `mpdu_bytes`; the
    /// bursty models decided the whole PPDU already).
    pub fn mpdu_survives(
        &mut self,
        j: NodeId,
        frame: &Frame,
        start: SimTime,
        span: (u32, u32),
        mpdu_bytes: u32,
    ) -> bool {
        if let Some(snr) = self.snr.as_mut() {
            let p = snr.subframe_success(j, frame, start, span.0, span.1);
            return p >= 1.0 || self.rx_rngs[j.idx()].unit() < p;
        }
        let bytes = mpdu_bytes;
        let rng = &mut self.rx_rngs[j.idx()];
        match self.error {
            ErrorSpec::Fer { fer } => !rng.bernoulli(fer),
            ErrorSpec::Ber { ber } => !rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(bytes * 8))),
            _ => true,
        }
    }

    fn draw_error(&mut self, j: NodeId, id: TxId) -> Outcome {
        if matches!(self.error, ErrorSpec::Fer { .. } | ErrorSpec::Ber { .. })
            && self.txs[id.idx()].frame.subframes > 0
        {
            return Outcome::Ok; // an A-MPDU's subframes are decided one by one (mpdu_survives)
        }
        match self.error {
            ErrorSpec::None => Outcome::Ok,
            ErrorSpec::Fer { fer } => {
                if self.rx_rngs[j.idx()].bernoulli(fer) {
                    Outcome::HeaderError
                } else {
                    Outcome::Ok
                }
            }
            ErrorSpec::Gilbert { .. } | ErrorSpec::Interferer { .. } => {
                let t = &self.txs[id.idx()];
                let (st, rng) = (
                    &mut self.bursty_links[t.frame.src.idx() * self.n + j.idx()],
                    &mut self.rx_rngs[j.idx()],
                );
                // The link's state as the frame starts (Gilbert), or over the whole frame (an
                // interferer); a lost frame is lost whole.
                let lost = match (self.bursty, self.interferer) {
                    (Some(ge), _) => ge.lost(st, t.start, rng),
                    (_, Some(oo)) => oo.lost(st, t.start, t.frame.txv.duration(t.frame.bytes), rng),
                    _ => false,
                };
                if lost {
                    Outcome::HeaderError
                } else {
                    Outcome::Ok
                }
            }
            ErrorSpec::Ber { ber } => {
                // Independent bit errors: P(n bits intact) = (1 - BER)^n, header and body apart.
                let frame = &self.txs[id.idx()].frame;
                let header = match frame.kind {
                    FrameKind::Data => frame.bytes.min(self.data_header_bytes),
                    _ => frame.bytes,
                };
                let body = frame.bytes - header;
                // The upper headers apart when the world sized them (corrupt frames passed up).
                let upper = u32::from(frame.upper_bytes).min(body);
                let body = body - upper;
                let rng = &mut self.rx_rngs[j.idx()];
                if rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(header * 8))) {
                    Outcome::HeaderError
                } else if upper > 0 && rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(upper * 8))) {
                    Outcome::UpperHeaderError
                } else if body > 0 && rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(body * 8))) {
                    Outcome::PayloadError
                } else {
                    Outcome::Ok
                }
            }
        }
    }

    /// The transmission `id` leaves the air: every listener's busy count drops, and each node
    /// whose medium turns idle is handed to `idle` with its carrier sense, in listener order,
    /// the transmitter last. A listener that will sense `responder`'s response after SIFS is
    /// left out (its countdown would only be frozen again at the response's start). Frees the
    /// transmission's slot.
    #[inline(always)]
    pub fn release(
        &mut self,
        id: TxId,
        now: SimTime,
        responder: Option<NodeId>,
        idle: impl FnMut(NodeId, Cca),
    ) {
        if self.snr.is_some() {
            self.release_radio(id, now, responder, idle)
        } else {
            self.release_range(id, now, responder, idle)
        }
    }

    /// [`Self::release`] under the range model.
    #[inline(always)]
    fn release_range(
        &mut self,
        id: TxId,
        now: SimTime,
        responder: Option<NodeId>,
        mut idle: impl FnMut(NodeId, Cca),
    ) {
        let src = self.txs[id.idx()].frame.src;
        let (v, own) = (self.view_of[src.idx()] as usize, self.own[src.idx()] as usize);
        for k in 0..self.listener_count(src.idx()) {
            let j = self.views[v][k + usize::from(k >= own)];
            let r = &mut self.radios[j.idx()];
            r.busy -= 1;
            if r.active() {
                continue;
            }
            r.busy_ns += now.since(r.active_since).ns();
            match responder {
                Some(resp) if resp != j && self.senses(resp, j) => {}
                _ => idle(j, self.cca(j)),
            }
        }
        self.release_source(id, src, idle);
    }

    /// [`Self::release`] under the radio model.
    #[inline(never)]
    fn release_radio(
        &mut self,
        id: TxId,
        now: SimTime,
        responder: Option<NodeId>,
        mut idle: impl FnMut(NodeId, Cca),
    ) {
        let src = self.txs[id.idx()].frame.src;
        let snr = self.snr.as_mut().expect("radio model");
        // Every node that saw the frame loses its power; those that sensed it may turn idle,
        // unless they surely sense the response (as above; with fading or motion that is not
        // sure, and they are told).
        for k in 0..snr.hears[id.idx()].len() {
            let h = snr.hears[id.idx()][k];
            snr.depart(&h, now);
            if !h.sensed {
                continue;
            }
            let r = &mut self.radios[h.node.idx()];
            r.busy -= 1;
            if !r.active() {
                r.busy_ns += now.since(r.active_since).ns();
                match responder {
                    Some(resp) if resp != h.node && snr.surely_senses(resp, h.node) => {}
                    _ => idle(h.node, r.cca()),
                }
            }
        }
        self.release_source(id, src, idle);
    }

    /// The end of [`Self::release`], both models: the transmitter's own radio may turn idle
    /// (told last), and the transmission's slot is freed.
    #[inline(always)]
    fn release_source(&mut self, id: TxId, src: NodeId, mut idle: impl FnMut(NodeId, Cca)) {
        let r = &mut self.radios[src.idx()];
        if !r.active() {
            idle(src, r.cca()); // its busy period was closed by end_tx
        }
        self.free_tx.push(id.0);
    }

    /// Time `node`'s medium has been busy (sensed or transmitting) up to `now`, the open
    /// period included [ns]: a control meter, counted from the start of the run.
    pub fn busy_ns_now(&self, node: NodeId, now: SimTime) -> u64 {
        let r = &self.radios[node.idx()];
        r.busy_ns + if r.active() { now.since(r.active_since).ns() } else { 0 }
    }

    /// Time `node` has been transmitting up to `now`, the open transmission included [ns].
    pub fn tx_ns_now(&self, node: NodeId, now: SimTime) -> u64 {
        let r = &self.radios[node.idx()];
        r.tx_ns + r.tx.map_or(0, |tx| now.since(self.txs[tx.idx()].start).ns())
    }

    /// The measured period starts at `at`: remember every meter there (an open period counts
    /// from `at` on).
    pub fn start_measuring(&mut self, at: SimTime) {
        for i in 0..self.radios.len() {
            let node = NodeId(i as u32);
            let (busy, tx) = (self.busy_ns_now(node, at), self.tx_ns_now(node, at));
            let r = &mut self.radios[i];
            (r.busy_at_start_ns, r.tx_at_start_ns) = (busy, tx);
        }
    }

    /// Busy and transmitting time of `node` within the measured period, which ends at `end`.
    pub fn measured_ns(&self, node: NodeId, end: SimTime) -> (u64, u64) {
        let r = &self.radios[node.idx()];
        (self.busy_ns_now(node, end) - r.busy_at_start_ns, self.tx_ns_now(node, end) - r.tx_at_start_ns)
    }
}
#[cfg(test)]
mod medium_tests;
