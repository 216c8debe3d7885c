//! Who decodes and senses whom ([`Reach`], with the listener lists), and the range model of the
//! medium ([`RangeModel`]).
//!
//! [`Reach`] is built once from the channel section and the nodes: by distance against the
//! ranges, from the 0/1 matrix, or under the radio model from the mean link budget
//! ([`super::decodes`]). It is the range model itself, and under the radio model what the routes
//! (`net::routing`) and the contention domains read. [`Listeners`] keeps, per closed
//! neighbourhood, the nodes that sense a node's transmissions.
//!
//! The range model: fixed listener lists; a node locks onto a decodable frame that starts while
//! its medium is idle, any overlap corrupts that reception (no capture); with preamble
//! detection two starts within [`PREAMBLE_DETECTION`] leave both undetected (ns-3
//! `ThresholdPreambleDetectionModel` with frames of equal power); outcomes are decided once per
//! transmission, at its end, by a fixed FER, independent bit errors (BER, header and body apart)
//! or a bursty channel (Gilbert-Elliott, an on/off interferer; `channel::bursty`).

use super::{Air, Outcome, RadioEvent, PREAMBLE_DETECTION};
use crate::channel::bursty::{GilbertElliott, LinkState, OnOff};
use crate::ids::{NodeId, TxId};
use crate::mac::frame::{Frame, FrameKind};
use crate::mac::Cca;
use crate::phy::Standard;
use crate::spec::{ChannelSpec, ErrorSpec, NodeSpec};
use crate::time::{Dur, SimTime};

/// An N x N matrix of bits (`src * n + dst`): an eighth of a `bool` per pair.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// Slack of the range comparison [m]: world-spec positions are given to the nanometre (Python
/// rounds them to 9 decimals, `config._clean`), so a node placed exactly at the range may sit a
/// fraction of a nanometre beyond it; both sides compare with this slack and agree.
pub const RANGE_SLACK_M: f64 = 1e-9;

pub fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// Whether node `j` decodes node `i`'s frames, and whether it senses them (a node that
/// decodes also senses): from the matrix if there is one, by distance under the range model,
/// by the mean link budget under the radio model ([`super::decodes`]; sensing is then decided
/// frame by frame, and this says `decodes` for both). Both WiFi nodes.
fn pair(c: &ChannelSpec, standard: Standard, nodes: &[NodeSpec], i: usize, j: usize) -> (bool, bool) {
    if let Some(radio) = &c.radio {
        let d = super::decodes(radio, standard, nodes, i, j);
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

/// Who decodes and who senses whom, between WiFi nodes (a node neither decodes nor senses
/// itself), as two tables of bits built once: what the range model runs on, and under the
/// radio model the mean link's answer (the routes' radio neighbours, the contention domains).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Bit `src * n + dst`: dst can decode src.
    rx: BitMatrix,
    /// Bit `src * n + dst`: dst senses src.
    cs: BitMatrix,
}

impl Reach {
    /// The reach of the channel section `c` over `nodes` (the radio model's decode test sends
    /// at `standard`'s lowest mode).
    pub fn build(c: &ChannelSpec, standard: Standard, nodes: &[NodeSpec]) -> Reach {
        let n = nodes.len();
        let mut rx = BitMatrix::new(n);
        let mut cs = BitMatrix::new(n);
        for i in 0..n {
            for j in 0..n {
                if i == j || !nodes[i].wifi || !nodes[j].wifi {
                    continue;
                }
                let (r, s) = pair(c, standard, nodes, i, j);
                rx.set(i, j, r);
                cs.set(i, j, s);
            }
        }
        Reach { rx, cs }
    }

    /// Whether node `dst` decodes node `src`'s frames.
    #[inline(always)]
    pub fn decodes(&self, src: usize, dst: usize) -> bool {
        self.rx.get(src, dst)
    }

    /// Whether node `dst` senses node `src`'s transmissions.
    #[inline(always)]
    pub fn senses(&self, src: usize, dst: usize) -> bool {
        self.cs.get(src, dst)
    }

    /// How many nodes the tables hold.
    pub fn len(&self) -> usize {
        self.rx.n
    }

    pub fn is_empty(&self) -> bool {
        self.rx.n == 0
    }
}

/// The nodes that sense a node's transmissions, shared by the nodes that have the same ones:
/// with `(v, own) = place[i]`, `views[v]` is node i's closed neighbourhood (the nodes sensing
/// it and itself, in node order), so a collision domain of N nodes keeps one list, not N; node
/// i's listeners are its view without itself, at `own`. The range model's listener lists (the
/// radio model finds them frame by frame); under the radio model they only group the
/// contention domains.
pub(super) struct Listeners {
    pub(super) views: Vec<Vec<NodeId>>,
    /// Node i's view and its own place in it (one record: one bounds check per frame's look-up).
    pub(super) place: Vec<(u32, u32)>,
}

impl Listeners {
    pub fn of(reach: &Reach) -> Listeners {
        let n = reach.len();
        let (mut views, mut place): (Vec<Vec<NodeId>>, _) = (Vec::new(), Vec::with_capacity(n));
        // Views by a fingerprint of their members (a multiply-xor fold, as rustc's FxHasher),
        // each candidate compared in full: hashing every N-long view with SipHash was most of
        // the build of a 5000-station cell.
        let mut index: std::collections::HashMap<u64, Vec<u32>> = std::collections::HashMap::new();
        let mut view = Vec::new();
        for i in 0..n {
            view.clear();
            let mut print = 0u64;
            for j in (0..n).filter(|&j| j == i || reach.senses(i, j)) {
                view.push(NodeId(j as u32));
                print = (print.rotate_left(5) ^ j as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
            let own = view.iter().position(|&j| j.idx() == i).expect("a node is in its own view") as u32;
            let same = index.entry(print).or_default();
            let v = match same.iter().find(|&&v| views[v as usize] == view) {
                Some(&v) => v,
                None => {
                    views.push(view.clone());
                    same.push((views.len() - 1) as u32);
                    (views.len() - 1) as u32
                }
            };
            place.push((v, own));
        }
        Listeners { views, place }
    }

    /// How many nodes sense node `i`.
    #[inline(always)]
    pub fn count(&self, i: usize) -> usize {
        self.views[self.place[i].0 as usize].len() - 1
    }

    /// The `k`-th node (in node order) that senses node `i`.
    #[inline(always)]
    pub fn get(&self, i: usize, k: usize) -> NodeId {
        let (view, own) = self.view(i);
        view[k + usize::from(k >= own)]
    }

    /// Node `i`'s view (its closed neighbourhood, in node order) and its own place in it: its
    /// `k`-th listener is `view[k + usize::from(k >= own)]`, for `k` below `view.len() - 1`.
    #[inline(always)]
    pub fn view(&self, i: usize) -> (&[NodeId], usize) {
        let (v, own) = self.place[i];
        (&self.views[v as usize], own as usize)
    }

    /// How many distinct views there are.
    pub fn view_count(&self) -> usize {
        self.views.len()
    }

    /// The nodes of view `v`, in node order.
    pub fn members(&self, v: u32) -> &[NodeId] {
        &self.views[v as usize]
    }

    /// The views of at least `min` nodes that are isolated cliques ([`super::clique`]): each
    /// of their nodes has that view, decodes every other, and no node outside senses one.
    pub fn isolated_cliques(&self, reach: &Reach, min: usize) -> Vec<u32> {
        let mut out = Vec::new();
        // One node per view stands for every node with that view (same listeners).
        let mut rep = vec![usize::MAX; self.views.len()];
        for (i, &(v, _)) in self.place.iter().enumerate() {
            if rep[v as usize] == usize::MAX {
                rep[v as usize] = i;
            }
        }
        'views: for (v, view) in self.views.iter().enumerate() {
            if view.len() < min || view.iter().any(|j| self.place[j.idx()].0 as usize != v) {
                continue;
            }
            for &i in view {
                if view.iter().any(|&j| j != i && !reach.decodes(i.idx(), j.idx())) {
                    continue 'views;
                }
            }
            for (w, &x) in rep.iter().enumerate() {
                if w != v && x != usize::MAX && view.iter().any(|j| reach.senses(x, j.idx())) {
                    continue 'views;
                }
            }
            out.push(v as u32);
        }
        out
    }

    /// The nodes that share one view of the medium, in groups of at least `min` in node order.
    pub fn groups(&self, min: usize) -> Vec<Vec<NodeId>> {
        let mut groups = vec![Vec::new(); self.views.len()];
        for (i, &(v, _)) in self.place.iter().enumerate() {
            groups[v as usize].push(NodeId(i as u32));
        }
        groups.retain(|g| g.len() >= min);
        groups
    }
}

/// The range model's own state: preamble detection and the error model, with the bursty
/// channel's state per directed link.
pub(super) struct RangeModel {
    n: usize,
    /// Whether receivers need a clean preamble to lock on (see `ChannelSpec::preamble_detection`).
    preamble_detection: bool,
    /// The error model.
    error: ErrorSpec,
    /// MAC header of a data frame [bytes]: the part the BER model decides apart.
    data_header_bytes: u32,
    /// The bursty-loss channel and each directed link's state (src * n + receiver), only
    /// with the Gilbert-Elliott error model.
    bursty: Option<GilbertElliott>,
    /// The on/off interferer, only with that error model (its links in `bursty_links`).
    interferer: Option<OnOff>,
    bursty_links: Vec<LinkState>,
}

impl RangeModel {
    pub fn new(c: &ChannelSpec, n: usize, data_header_bytes: u32) -> RangeModel {
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
        RangeModel {
            n,
            preamble_detection: c.preamble_detection,
            error: c.error,
            data_header_bytes,
            bursty,
            interferer,
            bursty_links: if bursty.is_some() || interferer.is_some() {
                vec![LinkState::default(); n * n]
            } else {
                Vec::new()
            },
        }
    }

    /// [`super::Medium::begin`] under the range model: transmission `id` (`frame`, already in
    /// `air`) starts at `now`; the listeners of its source turn busy, lock onto it or see it
    /// garbled.
    #[inline(always)]
    pub fn begin(
        &mut self,
        air: &mut Air,
        id: TxId,
        frame: &Frame,
        now: SimTime,
        mut mac: impl FnMut(RadioEvent),
    ) {
        let node = frame.src;
        let i = node.idx();
        let r = &mut air.radios[i];
        if r.lock.is_some() {
            if r.lock_since == now {
                // Both backoffs ended in the same slot: the node never detected the other
                // frame (no PHY-RXSTART), so no erroneous reception and no EIFS (10.3.2.3.7).
                let other = r.lock.take().expect("locked");
                let t = &mut air.txs[other.idx()];
                if t.frame.dst == node {
                    t.dst_outcome = Outcome::Collision;
                }
            } else {
                r.lock_bad = true; // half duplex: a reception in progress is lost
            }
        }
        // The source's radio applies the edges its clique deferred (its lock is settled above
        // either way: taken, or lost to its own transmission) before it starts sending.
        air.sync(node);
        air.start_tx(node, id, now, &mut mac);
        // The addressee's fate until it locks on: a unicast frame no radio of its addressee
        // locks onto was never received (no PHY-RXSTART); a group frame has no addressee.
        let mut dst_outcome = if frame.dst == NodeId::BROADCAST { Outcome::Ok } else { Outcome::Undetected };
        let (v, own) = air.listeners.place[i];
        let lazy = air.lazy_clique(v);
        if let Some(c) = lazy {
            // Its lazy members once, as the phantom (every member decodes every other).
            let ph = air.cliques[c].phantom;
            let p = &air.radios[ph.idx()];
            // A begin in the same instant as the busy period's first (colliding backoffs): every
            // other member is busy, locked onto that first frame or sending its own, so its
            // effect on them (one more sensed, a held lock corrupted, no MAC told) is deferred
            // (`Air::sync_at`); with preamble detection it is applied at once.
            let deferred =
                !self.preamble_detection && p.active_since == now && p.active() && air.cliques[c].defers();
            let (radios, txs) = (&mut air.radios, &mut air.txs);
            self.listen_begin(radios, txs, id, frame, ph, true, now, &mut dst_outcome, &mut mac);
            if deferred {
                let dst = frame.dst;
                if dst != NodeId::BROADCAST && dst != node && air.listeners.place[dst.idx()].0 == v {
                    dst_outcome = Outcome::Collision;
                }
                air.cliques[c].deferred_begins = air.cliques[c].deferred_begins.wrapping_add(1);
                air.set_deferred(c);
                air.mark_seen(c, own as usize);
            } else {
                if air.cliques[c].deferred {
                    air.sync_members(c, node);
                }
                let (radios, txs, reach) = (&mut air.radios, &mut air.txs, &air.reach);
                for &j in air.cliques[c].individuals.iter().filter(|&&j| j != node) {
                    let decodable = reach.decodes(i, j.idx());
                    self.listen_begin(radios, txs, id, frame, j, decodable, now, &mut dst_outcome, &mut mac);
                }
            }
        } else {
            let (radios, txs, reach) = (&mut air.radios, &mut air.txs, &air.reach);
            let view = &air.listeners.views[v as usize];
            for k in 0..view.len() - 1 {
                let j = view[k + usize::from(k >= own as usize)];
                let decodable = reach.decodes(i, j.idx());
                self.listen_begin(radios, txs, id, frame, j, decodable, now, &mut dst_outcome, &mut mac);
            }
        }
        air.txs[id.idx()].dst_outcome = dst_outcome;
    }

    /// Listener `j` (a node, or a clique's phantom) of transmission `id` (`frame`) starting at
    /// `now`: its radio turns busy, locks onto the frame or sees it garbled; `dst_outcome` is
    /// the addressee's fate so far.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn listen_begin(
        &self,
        radios: &mut [super::Radio],
        txs: &mut [super::Transmission],
        id: TxId,
        frame: &Frame,
        j: NodeId,
        decodable: bool,
        now: SimTime,
        dst_outcome: &mut Outcome,
        mac: &mut impl FnMut(RadioEvent),
    ) {
        let r = &mut radios[j.idx()];
        let was_active = r.active();
        r.busy += 1;
        if r.tx.is_none() && r.lock.is_none() && r.busy == 1 && decodable {
            r.lock = Some(id);
            r.lock_bad = false;
            r.lock_since = now;
            if j == frame.dst {
                *dst_outcome = Outcome::Ok;
            }
        } else {
            let detect = self.preamble_detection;
            if r.tx.is_none() {
                match r.lock {
                    // Both preambles overlap: neither is detected, the receiver sees
                    // energy only (no reception, so no error and no EIFS).
                    Some(other) if detect && now < r.lock_since + PREAMBLE_DETECTION => {
                        r.lock = None;
                        let t = &mut txs[other.idx()];
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
                *dst_outcome = Outcome::Collision;
            }
        }
        if !was_active {
            radios[j.idx()].active_since = now;
            mac(RadioEvent::Busy(j));
        }
    }

    /// [`super::Medium::take_reception`] under the range model, `j` locked onto `id`: a
    /// collision if the lock was corrupted, else the error model's draw.
    #[inline(always)]
    pub fn take_reception(&mut self, air: &mut Air, j: NodeId, id: TxId) -> Outcome {
        let r = &mut air.radios[j.idx()];
        r.lock = None;
        if r.lock_bad {
            return Outcome::Collision;
        }
        self.draw_error(air, j, id)
    }

    fn draw_error(&mut self, air: &mut Air, j: NodeId, id: TxId) -> Outcome {
        match self.error {
            ErrorSpec::None => Outcome::Ok,
            // An A-MPDU's subframes are decided one by one (mpdu_survives).
            ErrorSpec::Fer { .. } | ErrorSpec::Ber { .. } if air.txs[id.idx()].frame.subframes > 0 => {
                Outcome::Ok
            }
            ErrorSpec::Fer { fer } => {
                if air.rngs[j.idx()].bernoulli(fer) {
                    Outcome::HeaderError
                } else {
                    Outcome::Ok
                }
            }
            ErrorSpec::Gilbert { .. } | ErrorSpec::Interferer { .. } => {
                let t = &air.txs[id.idx()];
                let (st, rng) =
                    (&mut self.bursty_links[t.frame.src.idx() * self.n + j.idx()], &mut air.rngs[j.idx()]);
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
                let frame = &air.txs[id.idx()].frame;
                let header = match frame.kind {
                    FrameKind::Data => frame.bytes.min(self.data_header_bytes),
                    _ => frame.bytes,
                };
                let body = frame.bytes - header;
                // The upper headers apart when the world sized them (corrupt frames passed up).
                let upper = u32::from(frame.upper_bytes).min(body);
                let body = body - upper;
                let rng = &mut air.rngs[j.idx()];
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

    /// [`super::Medium::mpdu_survives`] under the range model: a fixed FER per MPDU, or
    /// independent bit errors over its `mpdu_bytes`; the bursty models decided the whole PPDU
    /// already.
    #[inline(always)]
    pub fn mpdu_survives(&self, air: &mut Air, j: NodeId, mpdu_bytes: u32) -> bool {
        let rng = &mut air.rngs[j.idx()];
        match self.error {
            ErrorSpec::Fer { fer } => !rng.bernoulli(fer),
            ErrorSpec::Ber { ber } => !rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(mpdu_bytes * 8))),
            _ => true,
        }
    }

    /// [`super::Medium::release`] under the range model, but for the source: every listener's
    /// busy count drops; each whose medium turns idle is handed to `idle`, in listener order,
    /// unless it senses `responder`.
    #[inline(always)]
    pub fn release(
        &self,
        air: &mut Air,
        src: NodeId,
        now: SimTime,
        responder: Option<NodeId>,
        idle: &mut impl FnMut(NodeId, Cca),
    ) {
        let i = src.idx();
        let (view, own) = air.listeners.view(i);
        for k in 0..view.len() - 1 {
            let j = view[k + usize::from(k >= own)];
            let r = &mut air.radios[j.idx()];
            r.busy -= 1;
            if r.active() {
                continue;
            }
            r.busy_ns += now.since(r.active_since).ns();
            match responder {
                Some(resp) if resp != j && air.reach.senses(resp.idx(), j.idx()) => {
                    idle(j, super::response_follows(r))
                }
                _ => idle(j, r.cca()),
            }
        }
    }
}
