//! The shared wireless medium and the MAC handlers that run on it.
//!
//! The medium tells the nodes that sense a transmission when it starts and ends by direct
//! calls over precomputed listener lists; no per-listener events are scheduled. A node locks
//! onto a decodable frame that starts while its medium is idle; any overlap corrupts that
//! reception (no capture). Outcomes are decided once per transmission, at its end.

use crate::ids::{NodeId, PacketId, TxId};
use crate::mac::backoff::{grant_time, next_cw, slots_consumed};
use crate::mac::frame::{data_mpdu_bytes, Frame, FrameKind, ACK_BYTES, CTS_BYTES, RTS_BYTES};
use crate::mac::{Exchange, AC_COUNT};
use crate::spec::{ErrorSpec, WorldSpec};
use crate::time::{Dur, SimTime};
use crate::trace::MacTxExtra;
use crate::world::{Event, Node, World};

/// What became of a frame at one receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Another transmission overlapped it, or the receiver was itself transmitting.
    Collision,
    /// Bit errors hit the MAC header (or the whole frame under a fixed FER).
    HeaderError,
    /// The MAC header survived, the payload did not (FCS fails; paper 004's case).
    PayloadError,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Collision => "collision",
            Outcome::HeaderError => "header_error",
            Outcome::PayloadError => "payload_error",
        }
    }
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
    /// Busy and transmitting time after the warm-up [ns].
    pub busy_ns: u64,
    pub tx_ns: u64,
}

impl Radio {
    fn active(&self) -> bool {
        self.busy > 0 || self.tx.is_some()
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Transmission {
    pub frame: Frame,
    pub start: SimTime,
    pub dst_outcome: Outcome,
}

/// How long a receiver needs to detect a preamble (ns-3 `WifiPhy::GetPreambleDetectionDuration`).
pub const PREAMBLE_DETECTION: Dur = Dur::from_us(4);

pub struct Medium {
    n: usize,
    /// Whether receivers need a clean preamble to lock on (see `ChannelSpec::preamble_detection`).
    preamble_detection: bool,
    /// `rx[src * n + dst]`: dst can decode src.
    rx: Vec<bool>,
    /// `cs[src * n + dst]`: dst senses src.
    cs: Vec<bool>,
    /// Nodes that sense transmissions of each node.
    listeners: Vec<Vec<NodeId>>,
    pub radios: Vec<Radio>,
    txs: Vec<Transmission>,
    free_tx: Vec<u32>,
}

fn accumulate(since: SimTime, now: SimTime, warmup_end: SimTime) -> u64 {
    now.since(since.max(warmup_end)).ns()
}

impl Medium {
    pub fn build(spec: &WorldSpec, nodes: &[Node]) -> Medium {
        let n = nodes.len();
        let mut rx = vec![false; n * n];
        let mut cs = vec![false; n * n];
        let c = &spec.channel;
        for i in 0..n {
            for j in 0..n {
                if i == j || !nodes[i].wifi || !nodes[j].wifi {
                    continue;
                }
                let (r, s) = match &c.matrix {
                    Some(m) => (m.rx[i][j] == 1, m.cs[i][j] == 1 || m.rx[i][j] == 1),
                    None => {
                        let d = distance(nodes[i].position_m, nodes[j].position_m);
                        (d <= c.rx_range_m, d <= c.cs_range_m)
                    }
                };
                rx[i * n + j] = r;
                cs[i * n + j] = s;
            }
        }
        let listeners =
            (0..n).map(|i| (0..n).filter(|&j| cs[i * n + j]).map(|j| NodeId(j as u32)).collect()).collect();
        Medium {
            n,
            preamble_detection: c.preamble_detection,
            rx,
            cs,
            listeners,
            radios: vec![Radio::default(); n],
            txs: Vec::with_capacity(64),
            free_tx: Vec::with_capacity(64),
        }
    }

    pub fn can_decode(&self, src: NodeId, dst: NodeId) -> bool {
        self.rx[src.idx() * self.n + dst.idx()]
    }

    /// Whether `listener` senses transmissions of `src`.
    pub fn senses(&self, src: NodeId, listener: NodeId) -> bool {
        self.cs[src.idx() * self.n + listener.idx()]
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

    /// Add the busy time still open at the end of the run.
    pub fn close_accounting(&mut self, end: SimTime, warmup_end: SimTime) {
        for r in &mut self.radios {
            if r.active() {
                r.busy_ns += accumulate(r.active_since, end, warmup_end);
            }
            if let Some(tx) = r.tx {
                r.tx_ns += accumulate(self.txs[tx.idx()].start, end, warmup_end);
            }
        }
    }
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

impl World {
    /// Queue a packet at the MAC of `node` for the wifi neighbour `next_hop`.
    pub(crate) fn wifi_enqueue(
        &mut self,
        node: NodeId,
        next_hop: NodeId,
        id: PacketId,
        now: SimTime,
    ) -> bool {
        let ac = self.packets.get(id).ac as usize;
        // 10.3.4.2: the medium as carrier sense sees it, physical and virtual (NAV); the
        // node's own pending response does not make it busy.
        let idle = !self.medium.radios[node.idx()].active() && self.macs[node.idx()].nav_end <= now;
        let limit = self.wifi.queue_limit;
        let counting = self.counting(now);
        let mac = &mut self.macs[node.idx()];
        if mac.txops[ac].queue.len() >= limit {
            if counting {
                mac.counters.drops_queue += 1;
            }
            self.drop_packet(id, now);
            return false;
        }
        let seq = mac.next_seq;
        mac.next_seq = (mac.next_seq + 1) % 4096;
        mac.txops[ac].queue.push_back(crate::mac::Queued { packet: id, next_hop, seq });
        if mac.txops[ac].queue.len() == 1 {
            mac.txops[ac].attempt_since = now; // the head of its queue: ready to contend
        }
        if mac.measure && mac.txops[ac].queue.len() == 1 {
            mac.txops[ac].service.head_since = now; // the head of its queue from now on
        }
        // 10.3.4.2: a frame that finds the medium busy (and no backoff running) backs off;
        // one that finds it idle goes after DIFS (or EIFS) with a zero backoff.
        if !mac.txops[ac].backoff_pending && !idle {
            mac.draw_backoff(ac);
        }
        self.contend(node, now);
        true
    }

    /// Arm the grant of every non-empty access category of an idle node.
    fn contend(&mut self, node: NodeId, now: SimTime) {
        let i = node.idx();
        if !self.nodes[i].wifi || self.medium.radios[i].active() || self.macs[i].blocked() {
            return;
        }
        let timing = self.wifi.timing;
        let mac = &mut self.macs[i];
        mac.counting = true;
        for ac in (0..AC_COUNT).rev() {
            if mac.txops[ac].queue.is_empty() {
                continue;
            }
            if !mac.txops[ac].backoff_pending {
                mac.txops[ac].backoff = 0;
                mac.txops[ac].drawn_slots = 0;
            }
            let count_start = mac.idle_start + mac.ifs(ac, &timing);
            let at = grant_time(count_start, mac.txops[ac].backoff, timing.slot).max(now);
            let txop = &mut mac.txops[ac];
            if txop.grant.deadline() == Some(at) {
                continue;
            }
            let gen = txop.grant.arm(at);
            self.sched.at(at, Event::Grant { node, ac: ac as u8, gen });
        }
    }

    /// The medium turns busy for `node`: freeze every running countdown.
    fn freeze(&mut self, node: NodeId, now: SimTime) {
        let timing = self.wifi.timing;
        let mac = &mut self.macs[node.idx()];
        if !mac.counting {
            return;
        }
        mac.counting = false;
        for ac in 0..AC_COUNT {
            if mac.txops[ac].backoff_pending {
                let count_start = mac.idle_start + mac.ifs(ac, &timing);
                let used = slots_consumed(mac.rule, count_start, now, timing.slot);
                let txop = &mut mac.txops[ac];
                txop.backoff -= used.min(u64::from(txop.backoff)) as u32;
                if txop.backoff == 0 && txop.queue.is_empty() {
                    txop.backoff_pending = false; // post-backoff complete
                }
            }
            let txop = &mut mac.txops[ac];
            // A grant due exactly now still fires: both stations transmit in this slot.
            if txop.grant.deadline().is_some_and(|d| d > now) {
                txop.grant.cancel();
            }
        }
    }

    /// The medium turns idle for `node` (physical carrier sense); the NAV may extend it.
    fn medium_idle(&mut self, node: NodeId, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.idle_start = now.max(mac.nav_end);
        self.contend(node, now);
    }

    pub(crate) fn on_grant(&mut self, node: NodeId, ac: usize, gen: u32, now: SimTime) {
        let i = node.idx();
        if !self.macs[i].txops[ac].grant.fire(gen) {
            return;
        }
        if self.macs[i].blocked() || self.medium.radios[i].tx.is_some() {
            return; // internal contention: the counter stays at zero until the next idle period
        }
        let txop = &mut self.macs[i].txops[ac];
        txop.backoff_pending = false;
        txop.backoff = 0;
        if txop.queue.is_empty() {
            return;
        }
        txop.granted = (txop.attempt_since, txop.drawn_slots);
        self.start_exchange(node, ac, now);
    }

    fn data_frame(&self, node: NodeId, ac: usize) -> Option<Frame> {
        let mac = &self.macs[node.idx()];
        let txop = &mac.txops[ac];
        let q = txop.queue.front()?;
        let ip_bytes = self.packets.get(q.packet).ip_bytes;
        Some(Frame {
            kind: FrameKind::Data,
            src: node,
            dst: q.next_hop,
            bytes: data_mpdu_bytes(ip_bytes, mac.qos),
            txv: self.wifi.data_txv,
            nav: self.wifi.timing.sifs + self.wifi.ack_duration,
            packet: Some(q.packet),
            seq: q.seq,
            retry: txop.src + txop.lrc > 0,
            ac: ac as u8,
        })
    }

    fn start_exchange(&mut self, node: NodeId, ac: usize, now: SimTime) {
        let Some(data) = self.data_frame(node, ac) else {
            return;
        };
        let counting = self.counting(now);
        let w = self.wifi;
        let mac = &mut self.macs[node.idx()];
        if counting {
            mac.counters.accesses += 1;
        }
        let frame = if data.bytes > w.rts_threshold_bytes {
            // 10.3.2.5: RTS Duration covers CTS, data, ACK and three SIFS.
            let data_dur = data.txv.duration(data.bytes);
            mac.exchange = Exchange::TxRts { ac: ac as u8 };
            if counting {
                mac.counters.rts_attempts += 1;
            }
            Frame {
                kind: FrameKind::Rts,
                bytes: RTS_BYTES,
                txv: w.control_txv,
                nav: w.timing.sifs.times(3) + w.cts_duration + data_dur + w.ack_duration,
                packet: None,
                ..data
            }
        } else {
            mac.exchange = Exchange::TxData { ac: ac as u8 };
            if counting {
                mac.counters.attempts += 1;
                mac.counters.retries += u64::from(data.retry);
            }
            data
        };
        self.transmit(node, frame, now);
    }

    /// Put a frame on the air.
    fn transmit(&mut self, node: NodeId, frame: Frame, now: SimTime) {
        let i = node.idx();
        self.capture_wlan(now, node, false, &frame); // ns-3 MonitorSnifferTx: at tx start
        let dur = frame.txv.duration(frame.bytes);
        let id = self.medium.alloc(Transmission { frame, start: now, dst_outcome: Outcome::Ok });
        let r = &mut self.medium.radios[i];
        if r.lock.is_some() {
            if r.lock_since == now {
                // Both backoffs ended in the same slot: the node never detected the other
                // frame (no PHY-RXSTART), so no erroneous reception and no EIFS (10.3.2.3.7).
                let other = r.lock.take().expect("locked");
                let t = &mut self.medium.txs[other.idx()];
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
        self.freeze(node, now);
        let mut dst_outcome = Outcome::Ok;
        for k in 0..self.medium.listeners[i].len() {
            let j = self.medium.listeners[i][k];
            let decodable = self.medium.can_decode(node, j);
            let r = &mut self.medium.radios[j.idx()];
            let was_active = r.active();
            r.busy += 1;
            if r.tx.is_none() && r.lock.is_none() && r.busy == 1 && decodable {
                r.lock = Some(id);
                r.lock_bad = false;
                r.lock_since = now;
            } else {
                let detect = self.medium.preamble_detection;
                if r.tx.is_none() {
                    match r.lock {
                        // Both preambles overlap: neither is detected, the receiver sees
                        // energy only (no reception, so no error and no EIFS).
                        Some(other) if detect && now < r.lock_since + PREAMBLE_DETECTION => {
                            r.lock = None;
                            let t = &mut self.medium.txs[other.idx()];
                            if t.frame.dst == j {
                                t.dst_outcome = Outcome::Collision;
                            }
                        }
                        Some(_) => r.lock_bad = true,
                        // Without preamble detection a frame it could hear arrives garbled.
                        None if decodable && !detect => self.macs[j.idx()].eifs = true,
                        None => {}
                    }
                }
                if j == frame.dst {
                    dst_outcome = Outcome::Collision;
                }
            }
            if !was_active {
                self.medium.radios[j.idx()].active_since = now;
                self.freeze(j, now);
            }
        }
        self.medium.txs[id.idx()].dst_outcome = dst_outcome;
        self.sched.at(now + dur, Event::TxEnd(id));
    }

    fn draw_error(&mut self, j: NodeId, frame: &Frame) -> Outcome {
        match self.error {
            ErrorSpec::None => Outcome::Ok,
            ErrorSpec::Fer { fer } => {
                if self.rx_rngs[j.idx()].bernoulli(fer) {
                    Outcome::HeaderError
                } else {
                    Outcome::Ok
                }
            }
            ErrorSpec::Ber { ber } => {
                // Independent bit errors: P(n bits intact) = (1 - BER)^n, header and body apart.
                let header = match frame.kind {
                    FrameKind::Data => frame.bytes.min(if self.wifi.qos { 26 } else { 24 }),
                    _ => frame.bytes,
                };
                let body = frame.bytes - header;
                let rng = &mut self.rx_rngs[j.idx()];
                if rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(header * 8))) {
                    Outcome::HeaderError
                } else if body > 0 && rng.bernoulli(1.0 - (1.0 - ber).powf(f64::from(body * 8))) {
                    Outcome::PayloadError
                } else {
                    Outcome::Ok
                }
            }
        }
    }

    pub(crate) fn on_tx_end(&mut self, id: TxId, now: SimTime) {
        let t = self.medium.txs[id.idx()];
        let frame = t.frame;
        let src = frame.src;
        let warm = self.warmup_end;
        {
            let r = &mut self.medium.radios[src.idx()];
            r.tx = None;
            r.tx_ns += accumulate(t.start, now, warm);
        }
        self.own_tx_end(src, &frame, now);
        let mut dst_outcome = t.dst_outcome;
        // Pass 1: every listener locked on this frame learns its outcome.
        for k in 0..self.medium.listeners[src.idx()].len() {
            let j = self.medium.listeners[src.idx()][k];
            if self.medium.radios[j.idx()].lock != Some(id) {
                continue;
            }
            let bad = self.medium.radios[j.idx()].lock_bad;
            self.medium.radios[j.idx()].lock = None;
            let outcome = if bad { Outcome::Collision } else { self.draw_error(j, &frame) };
            if j == frame.dst {
                dst_outcome = outcome;
            }
            let counting = self.counting(now);
            if outcome == Outcome::Ok {
                if counting {
                    self.macs[j.idx()].counters.rx_ok += 1;
                }
                self.capture_wlan(t.start, j, true, &frame); // ns-3 MonitorSnifferRx, rx start
                self.rx_ok(j, &frame, now);
            } else {
                let c = &mut self.macs[j.idx()].counters;
                if counting {
                    c.rx_corrupt += 1;
                    c.rx_payload_corrupt += u64::from(outcome == Outcome::PayloadError);
                }
                self.macs[j.idx()].eifs = true; // 10.3.2.3.7
            }
            // A response timeout that expired during this reception resolves now.
            if let Exchange::WaitAck { extended: true, .. } | Exchange::WaitCts { extended: true, .. } =
                self.macs[j.idx()].exchange
            {
                self.fail(j, now);
            }
        }
        // A response (ACK, CTS) that the addressee now sends after SIFS is certain: no station
        // can win access within SIFS, so those that will sense the response do not resume
        // their countdowns for that gap (it would be frozen again at the response's start).
        let sifs_later = now + self.wifi.timing.sifs;
        let responder =
            (self.macs[frame.dst.idx()].response_timer.deadline() == Some(sifs_later)).then_some(frame.dst);
        // Pass 2: the medium turns idle where this was the last sensed transmission.
        for k in 0..self.medium.listeners[src.idx()].len() {
            let j = self.medium.listeners[src.idx()][k];
            let r = &mut self.medium.radios[j.idx()];
            r.busy -= 1;
            if r.active() {
                continue;
            }
            r.busy_ns += accumulate(r.active_since, now, warm);
            match responder {
                Some(resp) if resp != j && self.medium.senses(resp, j) => {}
                _ => self.medium_idle(j, now),
            }
        }
        if matches!(frame.kind, FrameKind::Data | FrameKind::Rts) {
            self.macs[src.idx()].last_outcome_collision = dst_outcome == Outcome::Collision;
        }
        let r = &mut self.medium.radios[src.idx()];
        if !r.active() {
            r.busy_ns += accumulate(r.active_since, now, warm);
            self.medium_idle(src, now);
        }
        if self.traces.mac_tx.is_some() {
            let extra = self.mac_tx_extra(&frame, t.start);
            self.traces.mac_tx(t.start, now, &frame, dst_outcome, extra);
        }
        self.medium.free_tx.push(id.0);
    }

    /// What the mac_tx trace records beyond the frame: the TCP segment a data frame carries
    /// and when the frame became ready to contend, with its backoff.
    fn mac_tx_extra(&self, frame: &Frame, start: SimTime) -> MacTxExtra {
        let packet = frame.packet.map(|id| self.packets.get(id));
        let (ready, slots) = match frame.kind {
            FrameKind::Data | FrameKind::Rts => {
                let (ready, slots) = self.macs[frame.src.idx()].txops[usize::from(frame.ac)].granted;
                (ready.min(start), slots)
            }
            FrameKind::Ack | FrameKind::Cts => (start, 0), // a response: SIFS, no backoff
        };
        MacTxExtra {
            flow: packet.map(|p| p.flow.0),
            segment: packet.and_then(|p| p.tcp).map(|s| (s.seq, s.ack, s.len)),
            ready,
            backoff_slots: slots,
        }
    }

    fn own_tx_end(&mut self, node: NodeId, frame: &Frame, now: SimTime) {
        let timeout = self.wifi.response_timeout;
        let mac = &mut self.macs[node.idx()];
        match frame.kind {
            FrameKind::Data => {
                mac.exchange = Exchange::WaitAck { ac: frame.ac, extended: false };
            }
            FrameKind::Rts => {
                mac.exchange = Exchange::WaitCts { ac: frame.ac, extended: false };
            }
            FrameKind::Ack | FrameKind::Cts => {
                mac.response = None;
                return;
            }
        }
        // 10.3.2.11: wait SIFS + slot + PHY-RXSTART delay for the response to begin.
        let gen = mac.timeout.arm(now + timeout);
        self.sched.at(now + timeout, Event::Timeout { node, gen });
    }

    /// A frame was received intact at `j`.
    fn rx_ok(&mut self, j: NodeId, frame: &Frame, now: SimTime) {
        let w = self.wifi;
        let mac = &mut self.macs[j.idx()];
        mac.eifs = false;
        if frame.dst != j {
            // 10.3.2.4: third parties update their NAV from the Duration field.
            mac.nav_end = mac.nav_end.max(now + frame.nav);
            return;
        }
        match frame.kind {
            FrameKind::Data => {
                let src = frame.src.idx();
                let dup = frame.retry && mac.last_seq_from[src] == Some(frame.seq);
                mac.last_seq_from[src] = Some(frame.seq);
                let ack = Frame {
                    kind: FrameKind::Ack,
                    src: j,
                    dst: frame.src,
                    bytes: ACK_BYTES,
                    txv: w.control_txv,
                    nav: Dur::ZERO,
                    packet: None,
                    seq: 0,
                    retry: false,
                    ac: frame.ac,
                };
                self.respond(j, ack, now);
                if dup {
                    if self.counting(now) {
                        self.macs[j.idx()].counters.rx_duplicates += 1;
                    }
                } else if let Some(p) = frame.packet {
                    let copy = *self.packets.get(p);
                    let id = self.packets.alloc(copy);
                    self.send(j, id, now);
                }
            }
            FrameKind::Rts => {
                // 10.3.2.9: answer with CTS only if the NAV shows the medium idle.
                if mac.nav_end <= now {
                    let cts = Frame {
                        kind: FrameKind::Cts,
                        src: j,
                        dst: frame.src,
                        bytes: CTS_BYTES,
                        txv: w.control_txv,
                        nav: frame.nav - w.timing.sifs - w.cts_duration,
                        packet: None,
                        ..*frame
                    };
                    self.respond(j, cts, now);
                }
            }
            FrameKind::Cts => {
                if let Exchange::WaitCts { ac, .. } = mac.exchange {
                    mac.timeout.cancel();
                    mac.exchange = Exchange::CtsReceived { ac };
                    if let Some(data) = self.data_frame(j, ac as usize) {
                        self.respond(j, data, now);
                    }
                }
            }
            FrameKind::Ack => {
                if let Exchange::WaitAck { ac, .. } = mac.exchange {
                    mac.timeout.cancel();
                    self.succeed(j, ac as usize, now);
                }
            }
        }
    }

    /// Send `frame` from `node` after SIFS, regardless of the medium (10.3.2.3.3).
    fn respond(&mut self, node: NodeId, frame: Frame, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.response = Some(frame);
        let at = now + self.wifi.timing.sifs;
        let gen = mac.response_timer.arm(at);
        self.sched.at(at, Event::Respond { node, gen });
    }

    pub(crate) fn on_respond(&mut self, node: NodeId, gen: u32, now: SimTime) {
        let counting = self.counting(now);
        let mac = &mut self.macs[node.idx()];
        if !mac.response_timer.fire(gen) {
            return;
        }
        let Some(frame) = mac.response else {
            return;
        };
        if frame.kind == FrameKind::Data {
            mac.response = None;
            mac.exchange = Exchange::TxData { ac: frame.ac };
            if counting {
                mac.counters.attempts += 1;
                mac.counters.retries += u64::from(frame.retry);
            }
        }
        self.transmit(node, frame, now);
    }

    pub(crate) fn on_timeout(&mut self, node: NodeId, gen: u32, now: SimTime) {
        let i = node.idx();
        if !self.macs[i].timeout.fire(gen) {
            return;
        }
        if self.medium.radios[i].lock.is_some() {
            // PHY-RXSTART came in time: wait for the end of that frame (10.3.2.11).
            match &mut self.macs[i].exchange {
                Exchange::WaitAck { extended, .. } | Exchange::WaitCts { extended, .. } => *extended = true,
                _ => {}
            }
            return;
        }
        self.fail(node, now);
    }

    /// The head frame of the waiting access category failed (10.3.4.4 retry counters).
    fn fail(&mut self, node: NodeId, now: SimTime) {
        let i = node.idx();
        let (ac, was_rts) = match self.macs[i].exchange {
            Exchange::WaitAck { ac, .. } => (ac as usize, false),
            Exchange::WaitCts { ac, .. } => (ac as usize, true),
            _ => return,
        };
        let counting = self.counting(now);
        let w = self.wifi;
        let head_bytes = self.data_frame(node, ac).map_or(0, |f| f.bytes);
        let mac = &mut self.macs[i];
        mac.exchange = Exchange::None;
        mac.timeout.cancel();
        if counting {
            mac.counters.failures += 1;
            mac.counters.collisions += u64::from(mac.last_outcome_collision);
        }
        let txop = &mut mac.txops[ac];
        let exceeded = if !was_rts && head_bytes > w.rts_threshold_bytes {
            txop.lrc += 1;
            txop.lrc > w.long_retry_limit
        } else {
            txop.src += 1;
            txop.src > w.short_retry_limit
        };
        let mut dropped = None;
        if exceeded {
            dropped = txop.queue.pop_front();
            txop.cw = txop.params.cw_min;
            txop.src = 0;
            txop.lrc = 0;
            if counting {
                mac.counters.drops_retry_limit += 1;
            }
        } else {
            txop.cw = next_cw(txop.cw, txop.params.cw_max);
        }
        let gave_up = dropped.is_some();
        if gave_up && mac.measure {
            mac.txops[ac].end_service(now, u64::from(w.data_txv.mode.rate_kbps()) * 1000);
        }
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now; // the retry, or the next frame, contends from now
        mac.idle_start = now.max(mac.nav_end);
        if let Some(q) = dropped {
            // If only the ACKs were lost, the next hop has the packet and carries it on: the
            // MAC drop is not a loss of the flow.
            if self.macs[q.next_hop.idx()].last_seq_from[i] == Some(q.seq) {
                self.packets.free(q.packet);
            } else {
                self.drop_packet(q.packet, now);
            }
            self.refill(node, now);
        }
        if !self.medium.radios[i].active() {
            self.contend(node, now);
        }
        if gave_up && self.macs[i].measure {
            self.clap_link_report(node, ac, now);
        }
    }

    /// The head frame of `ac` was acknowledged.
    fn succeed(&mut self, node: NodeId, ac: usize, now: SimTime) {
        let counting = self.counting(now);
        let mac = &mut self.macs[node.idx()];
        mac.exchange = Exchange::None;
        if counting {
            mac.counters.successes += 1;
        }
        let txop = &mut mac.txops[ac];
        let done = txop.queue.pop_front().map(|q| q.packet);
        txop.cw = txop.params.cw_min;
        txop.src = 0;
        txop.lrc = 0;
        let measure = mac.measure;
        if measure {
            txop.end_service(now, u64::from(self.wifi.data_txv.mode.rate_kbps()) * 1000);
        }
        // 10.3.4.3: a new backoff after every transmission (post-backoff).
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now; // the next frame, if any, contends from now
        if let Some(p) = done {
            self.packets.free(p);
        }
        self.refill(node, now);
        if measure {
            self.clap_link_report(node, ac, now);
        }
    }
}
