//! Reception at the MAC: the NAV of third parties (10.3.2.4), duplicate detection
//! (10.3.2.14), the response a frame asks for (ACK, CTS, the data after a CTS), and the end
//! of the receiver's own exchange when its ACK arrives.

use super::event::{MacEvent, CORRUPT_RX};
use super::frame::{Carried, Frame, FrameKind, ACK_BYTES, CTS_BYTES};
use super::rate::TxReport;
use super::{Exchange, Hit, MacInd, Wifi};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::NodeId;
use crate::time::{Dur, SimTime};

impl Wifi {
    /// `frame` was received intact at `j`. A data frame that is not a duplicate goes up as
    /// [`MacInd::Delivered`]; an ACK ends `j`'s exchange ([`Wifi::succeed`]).
    pub fn rx_ok(&mut self, j: NodeId, frame: &Frame, sched: &mut Scheduler<Event>, now: SimTime) {
        let w = &self.cfg;
        let mac = &mut self.macs[j.idx()];
        if mac.nav.reset_pending() {
            nav_rx_start(&mut mac.nav, frame, now);
        }
        mac.counters.rx_ok += 1;
        mac.eifs = false;
        if frame.dst != j {
            // (A group-addressed frame's Duration is 0: its receivers' NAV stays; the world
            // hands its Action frames up, `rx_group`.)
            // 10.3.2.4: third parties update their NAV from the Duration field; one set by an
            // RTS resets if no reception follows.
            if frame.kind == FrameKind::Rts {
                let timeout = super::nav::rts_reset_timeout(&w.timing, frame.txv);
                mac.nav.update_from_rts(now, frame.nav, timeout);
            } else {
                mac.nav.update(now, frame.nav);
            }
            return;
        }
        match frame.kind {
            FrameKind::Data | FrameKind::Action => {
                let src = frame.src.idx();
                let dup = mac.peers[src].is_duplicate(usize::from(frame.ac), frame.seq, frame.retry);
                let ack = ack_frame(w, j, frame);
                self.respond(j, ack, sched, now);
                if dup {
                    self.macs[j.idx()].counters.rx_duplicates += 1;
                } else if let Some(packet) = frame.packet {
                    self.ind.push(MacInd::Delivered { node: j, packet, from: frame.src });
                }
            }
            FrameKind::Rts => {
                // 10.3.2.9: answer with CTS only if the NAV shows the medium idle.
                if mac.nav.idle_at(now) {
                    let nav = frame.nav - w.timing.sifs - w.cts_duration;
                    let cts = Frame::response_to(frame, FrameKind::Cts, j, CTS_BYTES, w.control_txv, nav);
                    self.respond(j, cts, sched, now);
                }
            }
            FrameKind::Cts => {
                if let Exchange::WaitCts { ac, .. } = mac.exchange {
                    mac.timeout.cancel();
                    mac.exchange = Exchange::CtsReceived { ac };
                    let rate = &mac.rate;
                    rate.report(
                        &mut mac.peers[frame.src.idx()].rate,
                        &mut self.rate_arena,
                        usize::from(ac),
                        TxReport::RtsOk,
                        now,
                    );
                    let data = if self.cfg.ampdu.is_some() {
                        self.ampdu_frame(j, ac as usize)
                    } else {
                        self.data_frame(j, ac as usize)
                    };
                    if let Some(data) = data {
                        self.respond(j, data, sched, now);
                    }
                }
            }
            FrameKind::Ack => {
                if let Exchange::WaitAck { ac, .. } = mac.exchange {
                    if self.cfg.ampdu.is_some() && !mac.mgmt_tx {
                        // A single MPDU under Block Ack, sent unaggregated (`ampdu_frame`).
                        self.single_mpdu_acked(j, usize::from(ac), now);
                    } else {
                        mac.timeout.cancel();
                        self.succeed(j, ac as usize, now);
                    }
                }
            }
            FrameKind::BlockAck => {
                if let Exchange::WaitAck { ac, .. } = mac.exchange {
                    self.block_ack_received(j, usize::from(ac), frame, now);
                }
            }
            FrameKind::BlockAckReq => self.block_ack_req_received(j, frame, sched, now),
            FrameKind::Beacon => {} // broadcast: handled above as a third party's frame
        }
    }

    /// A reception at `j` of a PPDU sent at `txv` that started at `start` got past its PHY
    /// header: a PHY-RXSTART.indication at `start` + its preamble and PHY header, which
    /// cancels a pending NAV reset after an RTS (10.3.2.4; [`super::nav::Nav::rx_start`]).
    /// Told before `rx_corrupt` and an A-MPDU's subframes; `rx_ok` tells itself.
    #[inline(always)]
    pub fn rx_start(&mut self, j: NodeId, txv: crate::phy::TxVector, start: SimTime) {
        let nav = &mut self.macs[j.idx()].nav;
        if nav.reset_pending() {
            nav.rx_start(start + txv.preamble_and_header());
        }
    }

    /// A group-addressed frame reached `j`: an Action frame goes up (no ACK, no duplicate
    /// filter: it is sent once, 10.3.6); a Beacon's Duration is 0, no NAV to set.
    #[cold]
    #[inline(never)]
    pub fn rx_group(&mut self, j: NodeId, frame: &Frame) {
        if let (FrameKind::Action, Some(packet)) = (frame.kind, frame.packet) {
            self.ind.push(MacInd::Delivered { node: j, packet, from: frame.src });
        }
    }

    /// A reception at `j` ended in error with no frame for the MAC (a garbled PPDU, PHY-RXEND
    /// with an error): the next countdown waits EIFS (10.3.2.3.7).
    #[inline]
    pub fn rx_garbled(&mut self, j: NodeId) {
        self.macs[j.idx()].eifs = true;
    }

    /// An A-MPDU's subframes were decided at `j`: with at least one intact the reception was
    /// correct (counted, EIFS no longer applies), with none it was an error (counted, the next
    /// countdown waits EIFS), 10.3.2.3.7.
    #[inline]
    pub fn rx_ampdu_end(&mut self, j: NodeId, any_intact: bool) {
        let mac = &mut self.macs[j.idx()];
        if any_intact {
            mac.counters.rx_ok += 1;
        } else {
            mac.counters.rx_corrupt += 1;
        }
        mac.eifs = !any_intact;
    }

    /// `frame` reached `j` corrupted (collision or bit errors): counted, the next countdown
    /// waits EIFS (10.3.2.3.7), and [`MacEvent::CorruptRx`] goes up. `hit`: where the errors
    /// were if the MAC header held (None: it did not, or the frame collided). Under the
    /// pass-corrupt policy a data frame addressed to `j` with an intact header that is no
    /// duplicate (its sequence number is readable) goes up as [`MacInd::DeliveredCorrupt`];
    /// it is not acknowledged, and the duplicate filter does not learn it.
    pub fn rx_corrupt(&mut self, j: NodeId, frame: &Frame, hit: Option<Hit>) {
        let mac = &mut self.macs[j.idx()];
        mac.counters.rx_corrupt += 1;
        mac.counters.rx_payload_corrupt += u64::from(hit.is_some());
        // Only where the upper headers were decided apart from the payload.
        mac.counters.rx_payload_only += u64::from(hit == Some(Hit::Payload) && frame.upper_bytes > 0);
        mac.eifs = true;
        if mac.events & CORRUPT_RX != 0 {
            self.ind.push(MacInd::Event(MacEvent::CorruptRx { node: j, payload_only: hit.is_some() }));
        }
        if let (true, Some(hit), FrameKind::Data, Some(packet)) =
            (mac.pass_corrupt, hit, frame.kind, frame.packet)
        {
            let peer = &mac.peers[frame.src.idx()];
            if frame.dst == j && !(frame.retry && peer.has_received(usize::from(frame.ac), frame.seq)) {
                mac.counters.rx_corrupt_up += 1;
                self.ind.push(MacInd::DeliveredCorrupt { node: j, packet, hit });
            }
        }
    }
}

/// The ACK `j` sends for the data or management `frame` addressed to it, at the rate the
/// control-response rule gives for the frame's mode (10.6.6.5.2).
pub(crate) fn ack_frame(cfg: &super::WifiConfig, j: NodeId, frame: &Frame) -> Frame {
    let c = Carried { packet: None, seq: 0, retry: false, ac: frame.ac };
    Frame::mpdu(FrameKind::Ack, (j, frame.src), ACK_BYTES, cfg.ack_txv(frame.txv.mode), Dur::ZERO, c)
}

/// The PHY-RXSTART of `frame`, received intact with its end at `end` (its start plus its
/// preamble and PHY header), for `nav`'s pending reset (10.3.2.4).
#[cold]
#[inline(never)]
fn nav_rx_start(nav: &mut super::nav::Nav, frame: &Frame, end: SimTime) {
    let psdu = frame.txv.duration(frame.bytes) - frame.txv.preamble_and_header();
    nav.rx_start(SimTime(end.ns() - psdu.ns()));
}
