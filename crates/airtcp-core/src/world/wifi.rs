//! The glue between the medium, the MACs and the layers above: the world dispatches the wifi
//! events, reads each MAC's carrier sense from the medium, puts the MACs' frames on the air,
//! and drains the MACs' indications at exactly the points where they arise. The order of
//! these steps is semantics (a packet delivered during a transmission's end finds the medium
//! still busy), so each handler keeps it step by step.

use super::World;
use crate::event::Event;
use crate::ids::{NodeId, PacketId, TxId};
use crate::mac::contention::Fired;
use crate::mac::frame::{Frame, FrameKind};
use crate::mac::{Hit, MacInd};
use crate::medium::{Outcome, RadioEvent, Released};
use crate::net::iface::Enqueued;
use crate::net::Packet;
use crate::time::SimTime;
use crate::trace::MacTxExtra;

impl World {
    /// Queue a packet at `node` for the wifi neighbour `next_hop`: through its interface tier
    /// (`net::iface`) to the MAC; false if it was dropped on the way (a full qdisc or MAC
    /// queue, or pushed out of the intermediate queues).
    #[inline(always)]
    pub(crate) fn wifi_enqueue(
        &mut self,
        node: NodeId,
        next_hop: NodeId,
        id: PacketId,
        now: SimTime,
    ) -> bool {
        let p = self.packets.get(id);
        let (flow, ip_bytes, ac) = (p.flow.0, p.ip_bytes, p.ac as usize);
        let mut dropped = std::mem::take(&mut self.ifaces.scratch);
        let wifi = &self.wifi;
        let what = self.ifaces.enqueue(
            node,
            next_hop,
            id,
            (flow, ip_bytes, ac),
            now,
            || wifi.has_room(node, ac),
            &mut dropped,
        );
        let lost_self = dropped.contains(&id); // pushed out of an fq_codel's fattest flow
        if !dropped.is_empty() || what == Enqueued::QdiscFull {
            self.wifi.count_iface_drops(
                node,
                dropped.len() as u64 + u64::from(what == Enqueued::QdiscFull),
                0,
            );
            for d in dropped.drain(..) {
                self.drop_packet(d);
            }
        }
        self.ifaces.scratch = dropped;
        match what {
            Enqueued::ToMac if self.mac_enqueue(node, next_hop, id, now) => true,
            Enqueued::ToMac | Enqueued::QdiscFull => {
                self.drop_packet(id);
                false
            }
            Enqueued::InQdisc => !lost_self, // an fq_codel child over its limit
            Enqueued::InTxq => {
                self.drain_iface(node, now);
                !lost_self
            }
        }
    }

    /// Hand `id` to `node`'s MAC for `next_hop` (a driver's data transfer request: paper
    /// 002's remedy sets a TCP frame's Block-Ack retry limit here); false if its queue is full.
    #[inline(always)]
    pub(crate) fn mac_enqueue(&mut self, node: NodeId, next_hop: NodeId, id: PacketId, now: SimTime) -> bool {
        let p = self.packets.get(id);
        let (ip_bytes, ac) = (p.ip_bytes, p.ac as usize);
        self.touch(node);
        let cca = self.medium.cca(node);
        if !self.wifi.enqueue(node, next_hop, id, ip_bytes, ac, cca, &mut self.sched, now) {
            return false;
        }
        if self.xlayer.hooks_enqueue(node) {
            self.xlayer_enqueued(node, next_hop, id, now);
        }
        true
    }

    /// The MAC of `node` has room: packets waiting in its interface tier move down while it
    /// has (CoDel drops on the way); a packet the MAC refuses is done and dropped.
    #[inline(never)]
    fn drain_iface(&mut self, node: NodeId, now: SimTime) {
        let mut dropped = std::mem::take(&mut self.ifaces.scratch);
        let mut marked = std::mem::take(&mut self.ifaces.marked);
        for ac in 0..crate::mac::AC_COUNT {
            while self.wifi.has_room(node, ac) {
                let (packets, wifi) = (&self.packets, &self.wifi);
                // INET_ECN_set_ce: an ECN-capable packet (ECT or CE already) takes the mark.
                let mark = |id: PacketId| {
                    let ect = packets.get(id).tcp.is_some_and(|s| s.ecn != crate::tcp::conn::NOT_ECT);
                    if ect {
                        marked.push(id);
                    }
                    ect
                };
                let Some((id, peer)) = self.ifaces.dequeue(
                    node,
                    ac,
                    now,
                    &mut dropped,
                    mark,
                    |id| packets.get(id).ip_bytes,
                    |peer| wifi.first_mode(node, peer).rate_kbps(),
                ) else {
                    break;
                };
                if !self.mac_enqueue(node, peer, id, now) {
                    self.iface_done(node, id);
                    self.drop_packet(id);
                }
            }
        }
        self.wifi.count_iface_drops(node, 0, dropped.len() as u64);
        for id in dropped.drain(..) {
            self.drop_packet(id);
        }
        self.ifaces.scratch = dropped;
        if !marked.is_empty() {
            self.mark_ce(node, &marked);
            marked.clear();
        }
        self.ifaces.marked = marked;
    }

    /// CoDel at `node` CE-marked `packets` instead of dropping them (RFC 3168 section 5).
    #[cold]
    fn mark_ce(&mut self, node: NodeId, packets: &[PacketId]) {
        for &id in packets {
            if let Some(seg) = self.packets.get_mut(id).tcp.as_mut() {
                seg.ecn = crate::tcp::conn::CE;
            }
        }
        self.wifi.count_ecn_marks(node, packets.len() as u64);
    }

    /// `node`'s driver is done with `packet` (acknowledged or given up): AQL and the airtime
    /// round hear of it ([`crate::net::iface::Interfaces::done`]).
    #[inline]
    fn iface_done(&mut self, node: NodeId, packet: PacketId) {
        let ac = self.packets.get(packet).ac as usize;
        let wifi = &self.wifi;
        self.ifaces.done(node, packet, ac, |peer| wifi.link(node, peer).airtime_ns);
    }

    /// Let `node` contend if its medium is idle.
    fn contend(&mut self, node: NodeId, now: SimTime) {
        self.touch(node);
        let cca = self.medium.cca(node);
        self.wifi.contend(node, cca, &mut self.sched, now);
    }

    pub(crate) fn on_grant(&mut self, node: NodeId, ac: usize, gen: u32, now: SimTime) {
        let cca = self.medium.cca(node);
        if !self.wifi.grant(node, ac, gen, cca) {
            return;
        }
        if let Some(frame) = self.wifi.start_exchange(node, ac, now) {
            self.transmit(node, frame, now);
        }
        self.drain_mac(now); // a rate change
    }

    /// The earliest grant of contention domain `d` is due ([`crate::mac::contention`]); a lazy
    /// member's is materialized first.
    pub(crate) fn on_domain_grant(&mut self, d: u32, gen: u32, now: SimTime) {
        loop {
            match self.wifi.domain_fire(d, gen, &mut self.sched) {
                Fired::Stale => return,
                Fired::Lazy(node) => self.materialize(node),
                Fired::Grant(node, ac, grant_gen) => {
                    self.on_grant(node, ac, grant_gen, now);
                    self.wifi.domain_rearm(d, &mut self.sched);
                    return;
                }
            }
        }
    }

    /// If `node` is a lazy member of a clique, it leaves the shared state: something is about
    /// to treat it apart (`medium::clique`, `mac::lazy`).
    #[inline(always)]
    pub(crate) fn touch(&mut self, node: NodeId) {
        if self.lazy_on && self.wifi.is_lazy(node) {
            self.materialize(node);
        }
    }

    #[inline(never)]
    fn materialize(&mut self, node: NodeId) {
        self.medium.materialize(node);
        self.wifi.materialize_mac(node, &mut self.sched);
    }

    /// Every lazy member materialized (before per-node meters are read or reset).
    pub(crate) fn materialize_all(&mut self) {
        if !self.lazy_on {
            return;
        }
        let mut all = Vec::new();
        self.medium.lazy_members(&mut all);
        for j in all {
            self.materialize(j);
        }
    }

    /// Before `frame` goes on the air in a clique with lazy members: its addressee, and any
    /// lazy member whose grant is due now (it transmits in this slot too), leave the shared
    /// state.
    #[inline(never)]
    fn lazy_before_tx(&mut self, frame: &Frame, now: SimTime) {
        if frame.dst != NodeId::BROADCAST {
            self.touch(frame.dst);
        }
        while let Some(j) = self.wifi.lazy_due(frame.src, now) {
            self.materialize(j);
        }
    }

    /// Put a frame on the air.
    #[inline]
    fn transmit(&mut self, node: NodeId, mut frame: Frame, now: SimTime) {
        if self.lazy_on && self.medium.lazy_count(node) > 0 {
            self.lazy_before_tx(&frame, now);
        }
        if self.medium.is_radio() || self.wifi.upper_aware {
            self.radio_frame(node, &mut frame, now);
        }
        let dur = frame.txv.duration(frame.bytes);
        let wifi = &mut self.wifi;
        let id = self.medium.begin(frame, now, |ev| match ev {
            RadioEvent::Busy(j) => wifi.freeze(j, now),
            RadioEvent::Garbled(j) => wifi.rx_garbled(j),
        });
        self.sched.at(now + dur, Event::TxEnd(id));
        self.tap_tx_start(id, &frame, now);
    }

    /// Tap, a transmission started: the capture (ns-3 MonitorSnifferTx, at tx start) and the
    /// schemes that read frames (LN-MAC's stamp).
    #[inline]
    fn tap_tx_start(&mut self, id: TxId, frame: &Frame, now: SimTime) {
        self.capture_wlan(now, frame.src, false, frame);
        if self.xlayer.reads_frames {
            self.xlayer_frame_sent(id, frame, now);
        }
    }

    /// Under the radio model (or when some MAC passes corrupt frames up), before `frame` goes
    /// on the air: its upper headers' size (LLC/SNAP + IPv4 + TCP/UDP, decided apart from the
    /// payload), and the positions trace.
    #[inline(never)]
    fn radio_frame(&mut self, node: NodeId, frame: &mut Frame, now: SimTime) {
        if let (FrameKind::Data, Some(id)) = (frame.kind, frame.packet) {
            let p = self.packets.get(id);
            frame.upper_bytes = (crate::mac::frame::LLC_SNAP_BYTES + p.ip_bytes - p.payload_bytes) as u16;
        }
        if self.traces.positions.is_some() && self.medium.is_radio() && self.medium.moves(node) {
            let p = self.medium.position_at(node, now).expect("radio model");
            self.traces.position(now, node.0, p);
        }
    }

    /// A transmission ends: the medium's outcome at each receiver, the MAC's reception there,
    /// then the medium turns idle. Everything that only reads frames attaches at the taps
    /// ([`World::tap_reception`], [`World::tap_tx_end`]).
    pub(crate) fn on_tx_end(&mut self, id: TxId, now: SimTime) {
        let t = self.medium.end_tx(id, now);
        let src = t.frame.src;
        self.wifi.own_tx_end(src, &t.frame, &mut self.sched, now);
        let mut dst_outcome = t.dst_outcome;
        let rx = RxKind::of(&t.frame, self.wifi.cfg.ampdu.is_some(), self.mesh.is_some());
        let taps =
            self.traces.receptions.is_some() || self.xlayer.reads_frames || self.xlayer.peer_snr.is_some();
        // In a clique with lazy members: the phantom stands for them, then the others in node
        // order (a list taken before the loop: a member may be materialized during it).
        let lazy = self.lazy_on && self.lazy_receivers(src, id);
        let count = if lazy { self.rx_scratch.len() } else { self.medium.receiver_count(id, src) };
        for k in 0..count {
            let j = if lazy { self.rx_scratch[k] } else { self.medium.receiver(id, src, k) };
            let Some(outcome) = self.medium.take_reception(j, id, now) else {
                continue;
            };
            if j == t.frame.dst {
                dst_outcome = outcome;
            }
            self.tap_reception(taps, j, id, &t.frame, outcome, t.start, now);
            self.mac_reception(rx, j, &t.frame, outcome, t.start, now);
        }
        self.tx_end_release(id, &t.frame, dst_outcome, now);
        self.tap_tx_end(&t.frame, t.start, dst_outcome, now);
    }

    /// Whether `src`'s clique has lazy members; if so its receivers are in `rx_scratch`.
    #[inline(never)]
    fn lazy_receivers(&mut self, src: NodeId, id: TxId) -> bool {
        let Some(c) = self.medium.lazy_clique_of(src) else {
            return false;
        };
        self.medium.clique_receivers(c, id, src, &mut self.rx_scratch);
        true
    }

    /// Tap, a reception decided: what reads the frame at receiver `j` before its MAC does
    /// (an agent's SNR, LN-MAC's check, the receptions trace, paper 003's meter, the capture).
    /// `any`: some observer other than the capture is on (the one test a plain run pays).
    #[allow(clippy::too_many_arguments)] // the reception, as the loop holds it
    #[inline(always)]
    fn tap_reception(
        &mut self,
        any: bool,
        j: NodeId,
        id: TxId,
        frame: &Frame,
        outcome: Outcome,
        start: SimTime,
        now: SimTime,
    ) {
        if any {
            self.tap_observers(j, id, frame, outcome, now);
        }
        if outcome == Outcome::Ok {
            self.capture_wlan(start, j, true, frame); // ns-3 MonitorSnifferRx, rx start
        }
    }

    /// The observers of [`World::tap_reception`] other than the capture, in their order: an
    /// agent's SNR, the receptions trace, then the schemes that read frames (LN-MAC's check,
    /// before the frame's own segment goes up; paper 003's meter, which counts what a station
    /// overhears).
    #[inline(never)]
    fn tap_observers(&mut self, j: NodeId, id: TxId, frame: &Frame, outcome: Outcome, now: SimTime) {
        if j == frame.dst {
            if let Some(m) = self.xlayer.peer_snr.as_mut() {
                let rx = self.medium.last_rx; // radio model: the reception just decided
                m.insert((j.0, frame.src.0), (10.0 * (rx.rx_mw / rx.noise_mw).log10()) as f32);
            }
        }
        if self.traces.receptions.is_some() {
            self.traces.reception(now, j.0, frame, self.medium.last_rx, outcome);
        }
        if outcome == Outcome::Ok && self.xlayer.reads_frames {
            self.xlayer_frame_heard(j, id, frame, now);
        }
    }

    /// The MAC of `j` receives `frame` with `outcome` (`rx`: how, decided once per
    /// transmission), and its indications are drained.
    #[inline(always)]
    fn mac_reception(
        &mut self,
        rx: RxKind,
        j: NodeId,
        frame: &Frame,
        outcome: Outcome,
        start: SimTime,
        now: SimTime,
    ) {
        match outcome {
            Outcome::Ok => {
                if j == rx.ampdu_dst {
                    self.rx_ampdu(j, frame, start, now);
                } else {
                    self.wifi.rx_ok(j, frame, &mut self.sched, now);
                    if rx.group_action {
                        self.wifi.rx_group(j, frame);
                    }
                }
                self.drain_mac(now);
                if rx.mesh_beacon {
                    self.mesh_beacon(j, frame.src, now); // the mesh's management plane
                }
            }
            // No PHY-RXSTART, so no erroneous reception for the MAC (no EIFS).
            Outcome::PhyHeaderError | Outcome::Undetected => {}
            _ => {
                // The MAC header held: the frame is known, its content is not (paper 004).
                let hit = match outcome {
                    Outcome::PayloadError => Some(Hit::Payload),
                    Outcome::UpperHeaderError => Some(Hit::UpperHeader),
                    _ => None,
                };
                self.wifi.rx_start(j, frame.txv, start); // its PHY-RXSTART (10.3.2.4's NAV reset)
                self.wifi.rx_corrupt(j, frame, hit);
                self.drain_mac(now);
            }
        }
        // A response timeout that expired during this reception resolves now.
        if self.wifi.timed_out_during_reception(j) {
            self.mac_fail(j, now);
        }
    }

    /// After every receiver: paper 003's meter at the sender (its own frame takes the
    /// channel, received or not), an unacknowledged Action frame done, the sender's collision
    /// flag, and the medium turning idle where this was the last sensed transmission.
    fn tx_end_release(&mut self, id: TxId, frame: &Frame, dst_outcome: Outcome, now: SimTime) {
        let src = frame.src;
        if self.xlayer.reads_frames {
            self.xlayer_frame_heard(src, id, frame, now); // its own frame takes the channel too
        }
        if frame.kind == FrameKind::Action && frame.nav == crate::time::Dur::ZERO {
            // Waits for no ACK: done now that every receiver has its copy.
            self.wifi.unacked_sent(src, usize::from(frame.ac), now);
            self.drain_mac(now);
        }
        // A response (ACK, CTS) that the addressee now sends after SIFS is certain: no station
        // can win access within SIFS, so those that will sense the response do not resume
        // their countdowns for that gap (it would be frozen again at the response's start).
        let sifs_later = now + self.wifi.cfg.timing.sifs;
        let responder = (frame.dst != NodeId::BROADCAST && self.wifi.responds_at(frame.dst, sifs_later))
            .then_some(frame.dst);
        if matches!(frame.kind, FrameKind::Data | FrameKind::Rts | FrameKind::Action) {
            // A loss the addressee saw overlapped by another signal counts as a collision.
            let interfered = self.medium.transmission(id).interfered;
            let collided = dst_outcome == Outcome::Collision || (dst_outcome != Outcome::Ok && interfered);
            self.wifi.set_collided(src, collided);
        }
        match if self.lazy_on { self.wifi.lazy_set_of(src) } else { None } {
            Some(c) => self.release_lazy(c, id, src, responder, now),
            None => {
                let (wifi, sched) = (&mut self.wifi, &mut self.sched);
                self.medium.release(id, now, responder, |j, cca| wifi.medium_idle(j, cca, sched, now));
            }
        }
    }

    /// [`World::tx_end_release`]'s release in a clique whose members may be lazy: the phantom
    /// turns idle once for the lazy members (their grants take their turns in member order),
    /// and members whose medium turned idle with a state equal to the phantom's join it.
    #[inline(never)]
    fn release_lazy(&mut self, c: usize, id: TxId, src: NodeId, responder: Option<NodeId>, now: SimTime) {
        // A clique that defers tallies once per busy period (a collision of k frames, deferred,
        // is one edge, not k); a smaller one every release, as before deferral.
        let give_up = self.medium.tallies_release(c, src) && self.wifi.lazy_tally(c);
        self.wifi.lazy_release_start(c, &self.sched);
        let mut joins = std::mem::take(&mut self.join_scratch);
        joins.clear();
        let phantom = self.medium.phantom(c);
        let (wifi, sched) = (&mut self.wifi, &mut self.sched);
        let mut on = |ev: Released| match ev {
            Released::Idle(j, cca) => {
                wifi.medium_idle(j, cca, sched, now);
                if cca.busy {
                    // A response follows in SIFS: the idle start noted, no countdown.
                } else if j == phantom {
                    wifi.lazy_idle(c);
                } else if j != src && wifi.lazy_candidate(c, j) {
                    joins.push(j);
                }
            }
            Released::Gap(from, to) => wifi.lazy_gap(c, from, to, sched),
        };
        if self.medium.lazy_clique_of(src).is_some() {
            self.medium.release_clique(c, id, now, responder, &mut on);
        } else {
            self.medium.release(id, now, responder, |j, cca| on(Released::Idle(j, cca)));
        }
        let mut joined = false;
        for &j in &joins {
            if let Some(define) = self.wifi.lazy_join(c, j, now) {
                self.medium.rejoin(j, define);
                joined = true;
            }
        }
        if joined {
            self.medium.rejoined(c);
        }
        self.join_scratch = joins;
        self.wifi.lazy_release_end(c, now, &mut self.sched);
        if give_up {
            self.give_up_lazy(c);
        }
    }

    /// Clique `c` keeps no lazy members for the rest of the run (`Wifi::lazy_tally` judged
    /// them worth less than they cost): each is materialized, as before a report.
    #[inline(never)]
    fn give_up_lazy(&mut self, c: usize) {
        let mut all = Vec::new();
        self.medium.lazy_members(&mut all);
        for j in all {
            if self.wifi.lazy_set_of(j) == Some(c) {
                self.materialize(j);
            }
        }
        self.wifi.give_up_lazy(c);
    }

    /// Tap, a transmission ended: the mac_tx trace.
    #[inline]
    fn tap_tx_end(&mut self, frame: &Frame, start: SimTime, dst_outcome: Outcome, now: SimTime) {
        if self.traces.mac_tx.is_some() {
            let extra = self.mac_tx_extra(frame, start);
            self.traces.mac_tx(start, now, frame, dst_outcome, extra);
        }
    }

    /// An A-MPDU reached its addressee `j` with its PHY header intact: each subframe is
    /// decided on its own (a copy of each MPDU received goes to `j`'s recipient, which passes
    /// them up in order), and a BlockAck answers if any got through (an A-MPDU with no MPDU
    /// left is an erroneous reception: EIFS, 10.3.2.3.7).
    #[inline(never)]
    fn rx_ampdu(&mut self, j: NodeId, frame: &Frame, start: SimTime, now: SimTime) {
        use crate::mac::ht::ampdu::{len_with, padding};
        let (src, ac) = (frame.src, usize::from(frame.ac));
        self.wifi.rx_start(j, frame.txv, start); // its PHY-RXSTART (10.3.2.4's NAV reset)
        let mut any = false;
        let mut len = 0;
        let reference = self.next_ampdu_reference();
        let mut subs = std::mem::take(&mut self.wifi.subframe_scratch);
        self.wifi.subframes(src, ac, &mut subs);
        let n = subs.len();
        let plain = frame.subframes == 0; // one MPDU, no delimiter (recorded as a whole frame)
        for (k, &sub) in subs.iter().enumerate() {
            let (seq, packet, bytes) = (sub.seq, sub.packet, sub.bytes);
            let from = if k == 0 { 0 } else { len + padding(len) };
            len = len_with(len, bytes);
            // A plain MPDU was decided whole with the frame (it arrived intact to get here).
            if !plain && !self.medium.mpdu_survives(j, frame, start, (from, len), bytes) {
                continue;
            }
            if self.traces.frames.is_some() && !plain {
                let status = (reference, k + 1 == n);
                self.capture_subframe(start, j, true, frame, sub, status);
                // ns-3: at rx start
            }
            any = true;
            let copy = *self.packets.get(packet);
            let id = self.packets.alloc(copy);
            if !self.wifi.recipient_receive(j, src, ac, seq, id) {
                self.packets.free(id);
            }
        }
        self.wifi.subframe_scratch = subs;
        self.wifi.rx_ampdu_end(j, any);
        if any && plain {
            self.wifi.respond_ack(j, frame, &mut self.sched, now);
        } else if any {
            self.wifi.respond_block_ack(j, src, ac, frame.txv.mode, &mut self.sched, now);
        }
    }

    /// What the mac_tx trace records beyond the frame: the TCP segment a data frame carries
    /// and when the frame became ready to contend, with its backoff.
    fn mac_tx_extra(&self, frame: &Frame, start: SimTime) -> MacTxExtra {
        let packet = frame.packet.map(|id| self.packets.get(id)).filter(|p| p.flow != crate::net::NO_FLOW);
        let (ready, slots) = match frame.kind {
            FrameKind::Data | FrameKind::Rts | FrameKind::Action => {
                let (ready, slots) = self.wifi.granted(frame.src, usize::from(frame.ac));
                (ready.min(start), slots)
            }
            // A response: SIFS, no backoff (a BlockAckReq contends, but carries no frame's
            // backoff of its own here).
            FrameKind::Ack | FrameKind::Cts | FrameKind::BlockAck | FrameKind::BlockAckReq => (start, 0),
            FrameKind::Beacon => (start, 0), // PIFS, no backoff
        };
        MacTxExtra {
            flow: packet.map(|p| p.flow.0),
            segment: packet.and_then(|p| p.tcp).map(|s| (s.seq, s.ack, s.len)),
            ready,
            backoff_slots: slots,
        }
    }

    /// A TBTT of the AP `node`: the next one is scheduled and the beacon waits for the medium.
    pub(crate) fn on_beacon(&mut self, node: NodeId, now: SimTime) {
        let Some(b) = self.wifi.cfg.beacon else { return };
        self.sched.at(now + b.interval, Event::Beacon(node));
        self.touch(node);
        let cca = self.medium.cca(node);
        self.wifi.beacon_due(node, cca, &mut self.sched, now);
    }

    pub(crate) fn on_beacon_grant(&mut self, node: NodeId, gen: u32, now: SimTime) {
        self.touch(node);
        let cca = self.medium.cca(node);
        if let Some(frame) = self.wifi.beacon_grant(node, gen, cca) {
            self.transmit(node, frame, now);
        }
    }

    pub(crate) fn on_respond(&mut self, node: NodeId, gen: u32, now: SimTime) {
        self.touch(node);
        if let Some(frame) = self.wifi.response_due(node, gen) {
            self.transmit(node, frame, now);
        }
    }

    pub(crate) fn on_timeout(&mut self, node: NodeId, gen: u32, now: SimTime) {
        self.touch(node);
        let cca = self.medium.cca(node);
        if self.wifi.timeout(node, gen, cca) {
            self.mac_fail(node, now);
        }
    }

    /// `node`'s attempt failed: retry counters, maybe a frame given up (and a refill, and the
    /// schemes told), then the node contends again.
    fn mac_fail(&mut self, node: NodeId, now: SimTime) {
        if self.wifi.fail(node, now).is_none() {
            return;
        }
        self.drain_mac(now);
        self.contend(node, now);
    }

    /// Hand the MACs' indications up, in the order they were made. Handling one never makes
    /// another (the MAC makes them only in `start_exchange`, `rx_ok`, `rx_corrupt`, `fail` and
    /// `succeed`, which only the world's wifi handlers call), so the buffer is walked once and
    /// cleared.
    #[inline(always)]
    fn drain_mac(&mut self, now: SimTime) {
        let n = self.wifi.ind.len();
        for k in 0..n {
            match self.wifi.ind[k] {
                MacInd::Delivered { node, packet, from } => {
                    let copy = Packet { tsq: false, ..*self.packets.get(packet) };
                    let id = self.packets.alloc(copy);
                    if self.mesh.is_some() {
                        self.mesh_delivered(node, from, id, now);
                    } else {
                        self.send(node, id, now);
                    }
                }
                MacInd::DeliveredCorrupt { node, packet, hit } => {
                    let copy = *self.packets.get(packet);
                    self.deliver_corrupt(node, copy, hit, now);
                }
                MacInd::Acked { node, packet } => {
                    if self.ifaces.has_txq() {
                        self.iface_done(node, packet);
                    }
                    self.tsq_done(packet);
                    self.packets.free(packet)
                }
                MacInd::Dropped { node, packet, arrived } => {
                    if self.ifaces.has_txq() {
                        self.iface_done(node, packet);
                    }
                    if arrived {
                        self.tsq_done(packet);
                        self.packets.free(packet)
                    } else {
                        self.drop_packet(packet)
                    }
                    if self.mesh.is_some() {
                        self.mesh_check_links(node, now);
                    }
                }
                MacInd::Room { node } => {
                    if self.ifaces.any() {
                        self.drain_iface(node, now);
                    }
                    self.refill(node, now)
                }
                MacInd::Mpdu {
                    node,
                    peer,
                    packet,
                    seq,
                    ac,
                    fate,
                    sw_retries,
                    attempts,
                    subframes,
                    block_ack,
                    position,
                    offset_ns,
                } => {
                    if let Some(t) = self.traces.mpdus.as_mut() {
                        use crate::mac::ht::blockack::Fate;
                        t.time_ns.push(now.ns());
                        t.node.push(node.0);
                        t.peer.push(peer.0);
                        t.ac.push(u32::from(ac));
                        t.seq.push(u32::from(seq));
                        t.flow.push(self.packets.get(packet).flow.0);
                        t.fate.push(match fate {
                            Fate::Acked => "acked",
                            Fate::Retry => "retry",
                            Fate::Drop => "dropped",
                        });
                        t.sw_retries.push(u32::from(sw_retries));
                        t.ppdu_attempts.push(u32::from(attempts));
                        t.subframes.push(u32::from(subframes));
                        t.block_ack.push(block_ack);
                        t.position.push(u32::from(position));
                        t.offset_ns.push(u64::from(offset_ns));
                    }
                }
                MacInd::Released { node, packet } => {
                    self.send(node, packet, now);
                }
                MacInd::Event(ev) => {
                    if let crate::xlayer::MacEvent::RateChanged { node, peer, mode } = ev {
                        self.traces.rate_change(now, node.0, peer.0, mode);
                    }
                    if self.xlayer.wants(&ev) {
                        self.on_mac_event(ev, now);
                    }
                }
            }
        }
        debug_assert_eq!(self.wifi.ind.len(), n, "an indication made while draining");
        self.wifi.ind.clear();
    }
}

/// How the receivers' MACs take a frame, decided once per transmission.
#[derive(Clone, Copy)]
struct RxKind {
    /// The addressee decides the frame's MPDUs one by one (an A-MPDU, or under Block Ack a
    /// single MPDU sent unaggregated); [`NodeId::BROADCAST`] (no receiver) otherwise.
    ampdu_dst: NodeId,
    /// A group-addressed Action frame: each receiver hands it up.
    group_action: bool,
    /// A Beacon in a mesh: the mesh's management plane hears it too.
    mesh_beacon: bool,
}

impl RxKind {
    #[inline(always)]
    fn of(frame: &Frame, ampdu: bool, mesh: bool) -> RxKind {
        let under_ba = frame.subframes > 0 || (frame.kind == FrameKind::Data && ampdu);
        RxKind {
            ampdu_dst: if under_ba { frame.dst } else { NodeId::BROADCAST },
            group_action: frame.kind == FrameKind::Action && frame.dst == NodeId::BROADCAST,
            mesh_beacon: frame.kind == FrameKind::Beacon && mesh,
        }
    }
}
