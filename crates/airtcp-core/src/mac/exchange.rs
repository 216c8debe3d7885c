//! Frame exchanges a node initiates: DATA/ACK and RTS/CTS/DATA/ACK (10.3.2), the response
//! sent after SIFS, the ACK and CTS timeouts (10.3.2.11), and the end of an exchange:
//! success, or failure with the short/long retry counters and the retry limit (10.3.4.4).

use super::backoff::next_cw;
use super::event::{MacEvent, TX_DONE};
use super::frame::{mpdu_bytes, Carried, Frame, FrameKind};
use super::rate::TxReport;
use super::{Cca, Exchange, MacInd, Wifi};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::NodeId;
use crate::phy::TxVector;
use crate::time::SimTime;

type TxDoneArgs = (NodeId, usize, bool, u32, crate::phy::ModeId, u64);

/// How a failed attempt ended ([`Wifi::fail`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failed {
    pub ac: u8,
    /// The head frame reached its retry limit and was given up.
    pub gave_up: bool,
}

impl Wifi {
    /// The data frame at the head of `node`'s queue `ac`, as its current attempt sends it
    /// (at the mode rate control picked when the attempt won access).
    #[inline(always)]
    pub fn data_frame(&self, node: NodeId, ac: usize) -> Option<Frame> {
        let mac = &self.macs[node.idx()];
        let txop = &mac.txops[ac];
        let q = txop.queue.front()?;
        if q.mgmt {
            return Some(self.mgmt_frame(node, ac, q, txop.data_sent));
        }
        Some(Frame::mpdu(
            FrameKind::Data,
            (node, q.next_hop),
            mpdu_bytes(q.ip_bytes, self.cfg.data_header_bytes),
            TxVector { mode: txop.mode, ..self.cfg.data_txv },
            self.cfg.timing.sifs + self.cfg.ack_duration_for(txop.mode),
            Carried { packet: Some(q.packet), seq: q.seq, retry: txop.data_sent, ac: ac as u8 },
        ))
    }

    /// The Action frame `q` at the head of `node`'s queue `ac`: at the management rate; one
    /// whose sender waits for no ACK (group-addressed, 9.2.5.6) has Duration 0.
    #[cold]
    #[inline(never)]
    fn mgmt_frame(&self, node: NodeId, ac: usize, q: &super::Queued, retry: bool) -> Frame {
        let txv = self.cfg.mgmt_txv;
        let nav = if q.no_ack {
            crate::time::Dur::ZERO
        } else {
            self.cfg.timing.sifs + self.cfg.ack_duration_for(txv.mode)
        };
        let c = Carried { packet: Some(q.packet), seq: q.seq, retry, ac: ac as u8 };
        Frame::mpdu(FrameKind::Action, (node, q.next_hop), q.ip_bytes, txv, nav, c)
    }

    /// `node` won access for `ac` with a management frame at the head: sent as it is, no
    /// rate control, no RTS.
    #[cold]
    #[inline(never)]
    fn start_mgmt(&mut self, node: NodeId, ac: usize) -> Option<Frame> {
        let frame = self.data_frame(node, ac)?;
        let mac = &mut self.macs[node.idx()];
        mac.counters.accesses += 1;
        mac.counters.mgmt_frames += 1;
        mac.exchange = Exchange::TxData { ac: ac as u8 };
        mac.mgmt_tx = true;
        mac.txops[ac].data_sent = true;
        Some(frame)
    }

    /// `node` won access for `ac`: rate control picks the attempt's mode, and the frame that
    /// opens the exchange (RTS or DATA) is for the caller to put on the air.
    pub fn start_exchange(&mut self, node: NodeId, ac: usize, now: SimTime) -> Option<Frame> {
        if self.cfg.ampdu.is_some() {
            // A management frame at the head goes alone, once no A-MPDU is on its way (the
            // aggregates skip management frames).
            if self.macs[node.idx()].txops[ac].queue.front().is_some_and(|q| q.mgmt)
                && self.ht_tx(node, ac).agg.n == 0
            {
                return self.start_mgmt(node, ac);
            }
            return self.start_ampdu(node, ac, now);
        }
        let txop = &self.macs[node.idx()].txops[ac];
        let head = txop.queue.front()?;
        if head.mgmt {
            return self.start_mgmt(node, ac);
        }
        let (peer, attempt) = (head.next_hop, txop.src + txop.lrc);
        self.select_mode(node, ac, peer, attempt, now);
        let data = self.data_frame(node, ac)?;
        let w = &self.cfg;
        let mac = &mut self.macs[node.idx()];
        mac.counters.accesses += 1;
        let frame = if w.wants_rts(data.bytes) {
            // 10.3.2.5: RTS Duration covers CTS, data, ACK and three SIFS.
            let data_dur = data.txv.duration(data.bytes);
            mac.exchange = Exchange::TxRts { ac: ac as u8 };
            mac.counters.rts_attempts += 1;
            let nav = w.timing.sifs.times(3) + w.cts_duration + data_dur + w.ack_duration_for(data.txv.mode);
            Frame::rts_for(&data, w.control_txv, nav)
        } else {
            mac.exchange = Exchange::TxData { ac: ac as u8 };
            mac.txops[ac].data_sent = true;
            let link = &mut mac.peers[data.dst.idx()].link;
            link.attempts += 1;
            link.mpdus_sent += 1;
            if w.airtime_meter {
                link.airtime_ns += data.txv.duration(data.bytes).0;
            }
            mac.counters.count_single_mpdu(data.retry);
            data
        };
        Some(frame)
    }

    /// `node`'s own transmission of `frame` ended: wait for the response, or, after sending
    /// a response, be free again. An Action frame that waits for no ACK (Duration 0) waits for
    /// nothing: the caller ends it once the receivers have it ([`Wifi::unacked_sent`]).
    pub fn own_tx_end(&mut self, node: NodeId, frame: &Frame, sched: &mut Scheduler<Event>, now: SimTime) {
        // 10.3.2.11: the response's PHY-RXSTART delay is that of the mode it comes at.
        let timeout = match frame.kind {
            FrameKind::Data | FrameKind::Action => self.cfg.answer(frame.txv.mode).2,
            _ => self.cfg.response_timeout,
        };
        let mac = &mut self.macs[node.idx()];
        match frame.kind {
            FrameKind::Action if frame.nav == crate::time::Dur::ZERO => return,
            FrameKind::Data | FrameKind::BlockAckReq | FrameKind::Action => {
                mac.exchange = Exchange::WaitAck { ac: frame.ac, extended: false };
            }
            FrameKind::Rts => {
                mac.exchange = Exchange::WaitCts { ac: frame.ac, extended: false };
            }
            FrameKind::Ack | FrameKind::Cts | FrameKind::BlockAck => {
                mac.response = None;
                return;
            }
            FrameKind::Beacon => return, // broadcast: no response awaited
        }
        // 10.3.2.11: wait SIFS + slot + PHY-RXSTART delay for the response to begin.
        mac.timeout.schedule(now + timeout, sched, |gen| Event::Timeout { node, gen });
    }

    /// Send `frame` from `node` after SIFS, regardless of the medium (10.3.2.3.3).
    pub fn respond(&mut self, node: NodeId, frame: Frame, sched: &mut Scheduler<Event>, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.response = Some(frame);
        let at = now + self.cfg.timing.sifs;
        mac.response_timer.schedule(at, sched, |gen| Event::Respond { node, gen });
    }

    /// Whether `node` answers the end of a frame at `now` with a response after SIFS.
    pub fn responds_at(&self, node: NodeId, at: SimTime) -> bool {
        self.macs[node.idx()].response_timer.deadline() == Some(at)
    }

    /// The SIFS before `node`'s response ended: the response to put on the air, if any.
    pub fn response_due(&mut self, node: NodeId, gen: u32) -> Option<Frame> {
        let mac = &mut self.macs[node.idx()];
        if !mac.response_timer.fire(gen) {
            return None;
        }
        let frame = mac.response?;
        if frame.kind == FrameKind::Data {
            mac.response = None;
            mac.exchange = Exchange::TxData { ac: frame.ac };
            mac.txops[usize::from(frame.ac)].data_sent = true;
            let link = &mut mac.peers[frame.dst.idx()].link;
            link.attempts += 1;
            if self.cfg.airtime_meter {
                link.airtime_ns += frame.txv.duration(frame.bytes).0;
            }
            if frame.subframes > 0 {
                self.count_ampdu_sent(node, usize::from(frame.ac));
            } else {
                let mac = &mut self.macs[node.idx()];
                mac.peers[frame.dst.idx()].link.mpdus_sent += 1;
                mac.counters.count_single_mpdu(frame.retry);
            }
        }
        Some(frame)
    }

    /// The response timeout of `node` fired: true if the attempt failed ([`Wifi::fail`]); a
    /// response whose reception started in time is waited for instead (10.3.2.11).
    pub fn timeout(&mut self, node: NodeId, gen: u32, cca: Cca) -> bool {
        let i = node.idx();
        if !self.macs[i].timeout.fire(gen) {
            return false;
        }
        if cca.receiving {
            // PHY-RXSTART came in time: wait for the end of that frame (10.3.2.11).
            match &mut self.macs[i].exchange {
                Exchange::WaitAck { extended, .. } | Exchange::WaitCts { extended, .. } => *extended = true,
                _ => {}
            }
            return false;
        }
        true
    }

    /// Whether `node` waits for a response whose timeout expired during a reception that has
    /// now ended: the attempt has failed.
    pub fn timed_out_during_reception(&self, node: NodeId) -> bool {
        matches!(
            self.macs[node.idx()].exchange,
            Exchange::WaitAck { extended: true, .. } | Exchange::WaitCts { extended: true, .. }
        )
    }

    /// The head frame of the waiting access category failed (10.3.4.4 retry counters, against
    /// the frame's retry limits, [`Wifi::retry_limits`]). Rate control hears of the failure; a
    /// frame given up goes up as [`MacInd::Dropped`], [`MacInd::Room`] and a
    /// [`MacEvent::TxDone`]; the caller then lets the node contend again.
    pub fn fail(&mut self, node: NodeId, now: SimTime) -> Option<Failed> {
        let i = node.idx();
        let (ac, was_rts) = match self.macs[i].exchange {
            Exchange::WaitAck { ac, .. } => (ac as usize, false),
            Exchange::WaitCts { ac, .. } => (ac as usize, true),
            _ => return None,
        };
        if self.macs[i].mgmt_tx {
            return Some(self.fail_mgmt(node, ac, now));
        }
        if self.cfg.ampdu.is_some() {
            return Some(self.fail_ampdu(node, ac, was_rts, now));
        }
        let w = &self.cfg;
        let head = *self.macs[i].txops[ac].queue.front()?;
        let long = !was_rts && mpdu_bytes(head.ip_bytes, w.data_header_bytes) > w.rts_threshold_bytes;
        let limits = self.retry_limits(node, &head);
        let mac = &mut self.macs[i];
        let rate = &mac.rate;
        mac.exchange = Exchange::None;
        mac.timeout.cancel();
        mac.counters.count_failure(was_rts, mac.last_outcome_collision);
        let txop = &mut mac.txops[ac];
        let exceeded = if long {
            txop.lrc += 1;
            limits.exceeded(true, txop.lrc)
        } else {
            txop.src += 1;
            limits.exceeded(false, txop.src)
        };
        let retries = txop.src + txop.lrc - 1; // retransmissions before this last failure
        let (mode, head_since) = (txop.mode, txop.head_since);
        let st = &mut mac.peers[head.next_hop.idx()];
        let report = match (exceeded, was_rts) {
            (false, true) => TxReport::RtsFailed,
            (false, false) => TxReport::DataFailed,
            (true, true) => TxReport::FinalRtsFailed,
            (true, false) => TxReport::FinalDataFailed,
        };
        rate.report(&mut st.rate, &mut self.rate_arena, ac, report, now);
        if exceeded {
            st.link.final_status(false);
            st.link.last_tx_mode = Some(mode);
            mac.txops[ac].pop_head(now);
            mac.counters.drops_retry_limit += 1;
        } else {
            let txop = &mut mac.txops[ac];
            txop.cw = next_cw(txop.cw, txop.params.cw_max);
        }
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now; // the retry, or the next frame, contends from now
        mac.idle_start = mac.nav.idle_from(now);
        if exceeded {
            // If only the ACKs were lost, the next hop has the packet and carries it on: the
            // MAC drop is not a loss of the flow.
            let arrived = self.macs[head.next_hop.idx()].peers[i].has_received(ac, head.seq);
            self.ind.push(MacInd::Dropped { node, packet: head.packet, arrived });
            self.ind.push(MacInd::Room { node });
            let done = (head.next_hop, ac, false, retries, mode, now.since(head_since).ns());
            self.tx_done(node, done);
        }
        Some(Failed { ac: ac as u8, gave_up: exceeded })
    }

    /// `node`'s frame of `ac` that waits for no ACK ended: it is done (a group-addressed frame
    /// is sent once, 10.3.6), the contention window resets and a new backoff is drawn
    /// (10.3.4.3), and [`MacInd::Acked`] and [`MacInd::Room`] go up.
    #[cold]
    #[inline(never)]
    pub fn unacked_sent(&mut self, node: NodeId, ac: usize, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.exchange = Exchange::None;
        let done = mac.txops[ac].pop_head(now);
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now;
        match done {
            Some(q) => self.mgmt_acked(node, q.packet),
            None => self.ind.push(MacInd::Room { node }),
        }
    }

    /// The management frame at the head of `ac` got no ACK: retried against the short retry
    /// limit (10.3.4.4), or given up; no rate control, link statistics or scheme hears of it.
    #[cold]
    #[inline(never)]
    fn fail_mgmt(&mut self, node: NodeId, ac: usize, now: SimTime) -> Failed {
        let i = node.idx();
        let head = self.macs[i].txops[ac].queue[0];
        let limits = self.retry_limits(node, &head);
        let mac = &mut self.macs[i];
        mac.exchange = Exchange::None;
        mac.mgmt_tx = false;
        mac.timeout.cancel();
        let txop = &mut mac.txops[ac];
        txop.src += 1;
        let exceeded = limits.exceeded(false, txop.src);
        if exceeded {
            txop.pop_head(now);
        } else {
            txop.cw = next_cw(txop.cw, txop.params.cw_max);
        }
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now;
        mac.idle_start = mac.nav.idle_from(now);
        if exceeded {
            let arrived = self.macs[head.next_hop.idx()].peers[i].has_received(ac, head.seq);
            self.ind.push(MacInd::Dropped { node, packet: head.packet, arrived });
            self.ind.push(MacInd::Room { node });
        }
        Failed { ac: ac as u8, gave_up: exceeded }
    }

    /// `node`'s management frame carrying `packet` was acknowledged: no rate control, link
    /// statistics or scheme hears of it.
    #[cold]
    #[inline(never)]
    fn mgmt_acked(&mut self, node: NodeId, packet: crate::ids::PacketId) {
        self.macs[node.idx()].mgmt_tx = false;
        self.ind.push(MacInd::Acked { node, packet });
        self.ind.push(MacInd::Room { node });
    }

    /// The head frame of `ac` was acknowledged: rate control hears of it, then
    /// [`MacInd::Acked`], [`MacInd::Room`] and a [`MacEvent::TxDone`] go up.
    #[inline(always)]
    pub fn succeed(&mut self, node: NodeId, ac: usize, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.exchange = Exchange::None;
        let txop = &mut mac.txops[ac];
        let retries = txop.src + txop.lrc;
        let (mode, service_ns) = (txop.mode, now.since(txop.head_since).ns());
        let done = txop.pop_head(now);
        // 10.3.4.3: a new backoff after every transmission (post-backoff).
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now; // the next frame, if any, contends from now
        let Some(q) = done else {
            self.ind.push(MacInd::Room { node });
            return;
        };
        if q.mgmt {
            return self.mgmt_acked(node, q.packet);
        }
        mac.counters.successes += 1;
        mac.counters.mpdus_acked += 1;
        let rate = &mac.rate;
        let st = &mut mac.peers[q.next_hop.idx()];
        rate.report(&mut st.rate, &mut self.rate_arena, ac, TxReport::DataOk { retries }, now);
        st.link.final_status(true);
        st.link.last_tx_mode = Some(mode);
        self.ind.push(MacInd::Acked { node, packet: q.packet });
        self.ind.push(MacInd::Room { node });
        self.tx_done(node, (q.next_hop, ac, true, retries, mode, service_ns));
    }

    /// The head frame of `node` ended (peer, access category, acknowledged, retransmissions,
    /// mode of the last attempt, service time): a [`MacEvent::TxDone`] if a scheme wants it.
    #[inline(always)]
    fn tx_done(&mut self, node: NodeId, (peer, ac, acked, retries, mode, service_ns): TxDoneArgs) {
        if self.macs[node.idx()].events & TX_DONE != 0 {
            let retries = retries.min(255) as u8;
            let ac = ac as u8;
            self.ind.push(MacInd::Event(MacEvent::TxDone {
                node,
                peer,
                ac,
                acked,
                retries,
                mode,
                service_ns,
            }));
        }
    }
}
