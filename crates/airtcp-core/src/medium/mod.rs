//! The shared wireless medium: who senses and who decodes whom, the transmissions in the air,
//! each node's radio (busy count, own transmission, the frame it is locked onto), collisions
//! and frame errors.
//!
//! Two models of who hears whom behind one interface ([`Model`]): the range model (ranges or
//! a 0/1 matrix, [`range`]): fixed listener lists, a reception is lost to any overlap, errors by
//! a fixed FER/BER or a bursty channel; the radio model ([`snr`], `channel.radio`): powers from
//! positions, path loss and fading per frame, receptions decided by their SINR. Both are built
//! from the channel section and the nodes, and share the radios, the transmissions, each
//! receiver's error stream and who decodes and senses whom ([`Reach`], which the routes read:
//! `net::routing`); each operation on a transmission (`begin`, `take_reception`,
//! `mpdu_survives`, `release`) calls the model once.
//!
//! The range model tells the nodes that sense a transmission when it starts and ends by direct
//! calls over precomputed listener lists; no per-listener events are scheduled. A node locks
//! onto a decodable frame that starts while its medium is idle; any overlap corrupts that
//! reception (no capture). Outcomes are decided once per transmission, at its end. The medium
//! knows nothing of the MAC's state: what a MAC must learn (its medium turned busy, a garbled
//! reception, the medium turned idle) is handed to the caller's callback, in listener order.

mod clique;
mod range;
mod snr;

pub use snr::{
    decodes, mean_link, ppdu_success, snr_db_for, MeanLink, DECODE_TEST_BITS, DECODE_TEST_SUCCESS,
};

pub use clique::Released;
pub use range::{distance, Reach, RANGE_SLACK_M};

use crate::ids::{NodeId, TxId};
use crate::mac::frame::Frame;
use crate::mac::Cca;
use crate::phy::Standard;
use crate::rng::Stream;
use crate::spec::{ChannelSpec, NodeSpec};
use crate::time::{Dur, SimTime};
use range::{Listeners, RangeModel};

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

/// What the MAC of a listener whose medium just turned idle senses when it will sense a
/// response after SIFS (`Medium::release` leaves it out of the countdown: it would be frozen
/// again at the response's start): busy, as its NAV says (10.3.2.1), so its MAC only notes
/// where the idle period starts (`Wifi::medium_idle`) and does not contend.
#[inline(always)]
fn response_follows(r: &Radio) -> Cca {
    Cca { busy: true, ..r.cca() }
}

/// How long a receiver needs to detect a preamble (ns-3 `WifiPhy::GetPreambleDetectionDuration`).
pub const PREAMBLE_DETECTION: Dur = Dur::from_us(4);

/// What both models share and work on: each node's radio, the transmissions in the air (an
/// arena of slots), each receiver's error stream, and who decodes and senses whom.
pub(super) struct Air {
    radios: Vec<Radio>,
    txs: Vec<Transmission>,
    free_tx: Vec<u32>,
    /// Node i's random stream for its frame errors.
    rngs: Vec<Stream>,
    reach: Reach,
    listeners: Listeners,
    /// The isolated cliques whose members may be lazy ([`clique`]), and each view's clique
    /// (`u32::MAX`: none); empty unless [`Medium::enable_cliques`] was called.
    cliques: Vec<clique::Clique>,
    /// How many cliques hold deferred edges now (`Clique::deferred`): none, and every
    /// member's radio is in sync (`Air::sync` costs one test).
    deferring: u32,
    clique_of_view: Vec<u32>,
    /// How many real nodes there are (the phantom radios come after them).
    n: usize,
}

impl Air {
    fn alloc(&mut self, t: Transmission) -> TxId {
        if let Some(i) = self.free_tx.pop() {
            self.txs[i as usize] = t;
            TxId(i)
        } else {
            self.txs.push(t);
            TxId(self.txs.len() as u32 - 1)
        }
    }

    /// `node` starts to transmit `id` at `now`: its radio is busy (its MAC told first).
    #[inline(always)]
    fn start_tx(&mut self, node: NodeId, id: TxId, now: SimTime, mac: &mut impl FnMut(RadioEvent)) {
        let r = &mut self.radios[node.idx()];
        let was_active = r.active();
        r.tx = Some(id);
        if !was_active {
            r.active_since = now;
        }
        mac(RadioEvent::Busy(node));
    }

    /// The end of [`Medium::release`], both models: the transmitter's own radio may turn idle
    /// (told last), and the transmission's slot is freed.
    #[inline(always)]
    fn release_source(&mut self, id: TxId, src: NodeId, mut idle: impl FnMut(NodeId, Cca)) {
        let r = &mut self.radios[src.idx()];
        if !r.active() {
            idle(src, r.cca()); // its busy period was closed by end_tx
        }
        self.free_tx.push(id.0);
    }
}

/// The two propagation models behind one interface: [`Medium`] matches once per operation on
/// a transmission (no `dyn` on the per-frame path); the radio model, large, is boxed.
enum Model {
    Range(RangeModel),
    Radio(Box<snr::Snr>),
}

pub struct Medium {
    air: Air,
    model: Model,
    /// Radio model: the last reception [`Medium::take_reception`] decided.
    pub last_rx: RxInfo,
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
        let reach = Reach::build(c, standard, nodes);
        // The range model's fixed listener lists, one per distinct closed neighbourhood (the
        // radio model finds them frame by frame; there, from the mean link budget, they only
        // group the contention domains).
        let listeners = Listeners::of(&reach);
        let model = match &c.radio {
            Some(r) => Model::Radio(Box::new(snr::Snr::new(r, standard, nodes, seed, data_header_bytes))),
            None => Model::Range(RangeModel::new(c, n, data_header_bytes)),
        };
        Medium {
            air: Air {
                radios: vec![Radio::default(); n],
                txs: Vec::with_capacity(64),
                free_tx: Vec::with_capacity(64),
                rngs: rx_rngs,
                reach,
                listeners,
                cliques: Vec::new(),
                deferring: 0,
                clique_of_view: Vec::new(),
                n,
            },
            model,
            last_rx: RxInfo::default(),
        }
    }

    /// Who decodes and senses whom, built once with the medium (the routes' radio neighbours).
    pub fn reach(&self) -> &Reach {
        &self.air.reach
    }

    pub fn can_decode(&self, src: NodeId, dst: NodeId) -> bool {
        self.air.reach.decodes(src.idx(), dst.idx())
    }

    /// Whether `listener` senses transmissions of `src`.
    pub fn senses(&self, src: NodeId, listener: NodeId) -> bool {
        self.air.reach.senses(src.idx(), listener.idx())
    }

    /// The nodes that share one view of the medium (the same closed carrier-sense
    /// neighbourhood), in groups of at least `min` in node order: the contention domains.
    pub fn view_groups(&self, min: usize) -> Vec<Vec<NodeId>> {
        self.air.listeners.groups(min)
    }

    /// How many nodes may be receiving transmission `id` (from `src`): its listeners under the
    /// range model, every node that sees it under the radio model.
    #[inline]
    pub fn receiver_count(&self, id: TxId, src: NodeId) -> usize {
        match &self.model {
            Model::Range(_) => self.air.listeners.count(src.idx()),
            Model::Radio(s) => s.hears[id.idx()].len(),
        }
    }

    /// The `k`-th of [`Self::receiver_count`].
    #[inline]
    pub fn receiver(&self, id: TxId, src: NodeId, k: usize) -> NodeId {
        match &self.model {
            Model::Range(_) => self.air.listeners.get(src.idx(), k),
            Model::Radio(s) => s.hears[id.idx()][k].node,
        }
    }

    /// Whether the channel runs the radio model.
    #[inline]
    pub fn is_radio(&self) -> bool {
        matches!(self.model, Model::Radio(_))
    }

    /// Whether `node` moves (radio model).
    pub fn moves(&self, node: NodeId) -> bool {
        match &self.model {
            Model::Radio(s) => s.moves(node),
            Model::Range(_) => false,
        }
    }

    /// Where `node` is at `now` under the radio model (None under the range model).
    pub fn position_at(&mut self, node: NodeId, now: SimTime) -> Option<[f64; 3]> {
        match &mut self.model {
            Model::Radio(s) => Some(s.position_at(node, now)),
            Model::Range(_) => None,
        }
    }

    /// Node `node`'s radio.
    pub fn radio(&self, node: NodeId) -> &Radio {
        &self.air.radios[node.idx()]
    }

    /// What `node`'s MAC senses of the medium now (PHY-CCA and PHY-RXSTART, 10.3.2.1).
    pub fn cca(&self, node: NodeId) -> Cca {
        self.air.radios[node.idx()].cca()
    }

    /// `frame` goes on the air from `frame.src` at `now`. Every radio that senses it turns
    /// busy; what their MACs must learn goes to `mac` (the transmitter's own `Busy` first,
    /// then the listeners in order). The caller schedules the end.
    #[inline(always)]
    pub fn begin(&mut self, frame: Frame, now: SimTime, mac: impl FnMut(RadioEvent)) -> TxId {
        let t = Transmission { frame, start: now, dst_outcome: Outcome::Undetected, interfered: false };
        let id = self.air.alloc(t);
        match &mut self.model {
            Model::Range(m) => m.begin(&mut self.air, id, &frame, now, mac),
            Model::Radio(s) => s.begin(&mut self.air, id, &frame, now, mac),
        }
        id
    }

    /// The transmission `id` as it stands (until [`Medium::release`]).
    pub fn transmission(&self, id: TxId) -> &Transmission {
        &self.air.txs[id.idx()]
    }

    /// The transmission `id` ends at its transmitter: its radio stops transmitting. Returns
    /// the transmission; its slot stays readable until [`Medium::release`].
    pub fn end_tx(&mut self, id: TxId, now: SimTime) -> Transmission {
        let t = self.air.txs[id.idx()];
        self.air.sync(t.frame.src);
        let r = &mut self.air.radios[t.frame.src.idx()];
        r.tx = None;
        r.tx_ns += now.since(t.start).ns();
        if !r.active() {
            // Its busy period closes here, so the meter reads it whole before the release
            // (the MAC's handlers, and the schemes they call, run between the two).
            r.busy_ns += now.since(r.active_since).ns();
        }
        t
    }

    /// If `j` is locked onto transmission `id`, which ends at `now`, unlock it and decide the
    /// frame's fate there: under the range model a collision if the lock was corrupted, else
    /// the error model's draw; under the radio model one draw per part of the frame (an
    /// A-MPDU's PHY header only: its subframes are decided by [`Self::mpdu_survives`]).
    #[inline(always)]
    pub fn take_reception(&mut self, j: NodeId, id: TxId, now: SimTime) -> Option<Outcome> {
        if self.air.radios[j.idx()].lock != Some(id) {
            return None;
        }
        match &mut self.model {
            Model::Range(m) => Some(m.take_reception(&mut self.air, j, id)),
            Model::Radio(s) => {
                let (outcome, info) = s.take_reception(&mut self.air, j, id, now)?;
                self.last_rx = info;
                Some(outcome)
            }
        }
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
        match &mut self.model {
            Model::Range(m) => m.mpdu_survives(&mut self.air, j, mpdu_bytes),
            Model::Radio(s) => s.mpdu_survives(&mut self.air, j, frame, start, span),
        }
    }

    /// The transmission `id` leaves the air: every listener's busy count drops, and each node
    /// whose medium turns idle is handed to `idle` with its carrier sense, in listener order,
    /// the transmitter last. A listener that will sense `responder`'s response after SIFS is
    /// handed over as busy ([`response_follows`]): its countdown would only be frozen again
    /// at the response's start, so it only notes the idle start. Frees the transmission's
    /// slot.
    #[inline(always)]
    pub fn release(
        &mut self,
        id: TxId,
        now: SimTime,
        responder: Option<NodeId>,
        mut idle: impl FnMut(NodeId, Cca),
    ) {
        let src = self.air.txs[id.idx()].frame.src;
        match &mut self.model {
            Model::Range(m) => m.release(&mut self.air, src, now, responder, &mut idle),
            Model::Radio(s) => s.release(&mut self.air, id, now, responder, &mut idle),
        }
        self.air.release_source(id, src, idle);
    }

    /// Time `node`'s medium has been busy (sensed or transmitting) up to `now`, the open
    /// period included [ns]: a control meter, counted from the start of the run.
    pub fn busy_ns_now(&self, node: NodeId, now: SimTime) -> u64 {
        let r = &self.air.radios[node.idx()];
        r.busy_ns + if r.active() { now.since(r.active_since).ns() } else { 0 }
    }

    /// Time `node` has been transmitting up to `now`, the open transmission included [ns].
    pub fn tx_ns_now(&self, node: NodeId, now: SimTime) -> u64 {
        let r = &self.air.radios[node.idx()];
        r.tx_ns + r.tx.map_or(0, |tx| now.since(self.air.txs[tx.idx()].start).ns())
    }

    /// The measured period starts at `at`: remember every meter there (an open period counts
    /// from `at` on).
    pub fn start_measuring(&mut self, at: SimTime) {
        for i in 0..self.air.n {
            let node = NodeId(i as u32);
            let (busy, tx) = (self.busy_ns_now(node, at), self.tx_ns_now(node, at));
            let r = &mut self.air.radios[i];
            (r.busy_at_start_ns, r.tx_at_start_ns) = (busy, tx);
        }
    }

    /// Busy and transmitting time of `node` within the measured period, which ends at `end`.
    pub fn measured_ns(&self, node: NodeId, end: SimTime) -> (u64, u64) {
        let r = &self.air.radios[node.idx()];
        (self.busy_ns_now(node, end) - r.busy_at_start_ns, self.tx_ns_now(node, end) - r.tx_at_start_ns)
    }
}
#[cfg(test)]
mod medium_tests;
