//! 802.11n A-MPDU exchanges under HT-immediate Block Ack (10.12, 10.25): the originator
//! builds an aggregate from the MPDUs queued for the head frame's peer (within its transmit
//! window and the aggregate's limits), sends it until a BlockAck answers or the hardware's
//! tries run out, then settles each MPDU by the bitmap with its own software retry budget
//! (`ht::blockack::fate`), giving up past it and owing the peer a BlockAckReq; the recipient
//! scores every MPDU received, answers with a compressed BlockAck after SIFS, and passes the
//! MSDUs up in order through its reordering buffer.
//!
//! Follows ath9k in Linux 3.2 (`ath_tx_form_aggr`, `ath_tx_complete_aggr`) where it differs
//! from the standard's freedom: the aggregate is resent whole after a missing BlockAck, and a
//! single queued MPDU at an HT rate still goes as a one-subframe A-MPDU answered by a BlockAck
//! (ath9k sends it unaggregated with a normal ACK: 4 bytes and the BlockAck's 18 bytes more
//! airtime). At a non-HT rate (ath9k's legacy series) an A-MPDU cannot go (10.12: A-MPDUs
//! are HT PPDUs), so a single MPDU goes as a plain QoS data frame with Normal Ack policy,
//! answered by an ACK (Table 9-6), scored by the recipient all the same (10.25.6.3).

use super::backoff::next_cw;
use super::frame::{mpdu_bytes, Carried, Frame, FrameKind};
use super::ht::ampdu::len_with;
use super::ht::blockack::{block_ack_bytes, fate, Bitmap, Fate, Recipient, BLOCK_ACK_REQ_BYTES, WINDOW};
use super::ht::seq::distance;
use super::rate::TxReport;
use super::{BaPeer, Exchange, HtTx, MacInd, Wifi, AC_COUNT};
use crate::engine::Scheduler;
use crate::event::Event;
use crate::ids::{NodeId, PacketId};
use crate::phy::modes::ModClass;
use crate::phy::{ModeId, TxVector};
use crate::time::{Dur, SimTime};

use super::exchange::Failed;

impl Wifi {
    /// `node`'s aggregation state on `ac` (made for every node and AC at the first use).
    #[inline]
    pub(crate) fn ht_tx(&mut self, node: NodeId, ac: usize) -> &mut HtTx {
        if self.ht_tx.is_empty() {
            self.ht_tx = vec![HtTx::default(); self.macs.len() * AC_COUNT];
        }
        &mut self.ht_tx[node.idx() * AC_COUNT + ac]
    }

    /// The Block Ack state `node` keeps about `peer` (made at the pair's first use).
    pub(crate) fn ba_peer(&mut self, node: NodeId, peer: NodeId) -> &mut BaPeer {
        let st = &mut self.macs[node.idx()].peers[peer.idx()];
        if st.ba == u32::MAX {
            st.ba = self.ba_peers.len() as u32;
            self.ba_peers.push(BaPeer::new(self.cfg.ampdu.map_or(WINDOW, |a| a.ba_window)));
        }
        &mut self.ba_peers[st.ba as usize]
    }

    /// The agreements' buffer size: 64 MPDUs, 256 between HE stations.
    #[inline]
    fn ba_window(&self) -> u16 {
        self.cfg.ampdu.map_or(WINDOW, |a| a.ba_window)
    }

    /// `node` won access for `ac` under aggregation: the BlockAckReq it owes, else its A-MPDU
    /// (built now from the queue if none is on its way), behind an RTS if it is longer than
    /// the RTS threshold.
    #[inline(never)]
    pub(crate) fn start_ampdu(&mut self, node: NodeId, ac: usize, now: SimTime) -> Option<Frame> {
        let cfg = self.cfg.ampdu?;
        let i = node.idx();
        if let Some((peer, ssn)) = self.ht_tx(node, ac).bar {
            self.ht_tx(node, ac).bar_sent = true;
            let w = &self.cfg;
            // A BlockAckReq is no data frame: mac80211 sends it at the lowest rate
            // (rate.c `rc_no_data_or_no_ack_use_min` -> `rate_control_send_low`), as a
            // management frame; its BlockAck comes at the control response rate for that.
            let txv = w.mgmt_txv;
            let ba_air = w.ack_txv(txv.mode).duration(block_ack_bytes(cfg.ba_window));
            let mac = &mut self.macs[i];
            mac.counters.accesses += 1;
            mac.counters.bar_attempts += 1;
            mac.exchange = Exchange::TxData { ac: ac as u8 };
            let nav = w.timing.sifs + ba_air;
            let bar =
                block_ack_frame(FrameKind::BlockAckReq, (node, peer), txv, nav, ssn, ac, BLOCK_ACK_REQ_BYTES);
            return Some(bar);
        }
        let agg = self.ht_tx(node, ac).agg;
        if agg.n == 0 {
            let peer = self.next_peer(node, ac)?;
            self.select_mode(node, ac, peer, 0, now);
            // The rate control's series may bound the PPDU's tries and forbid aggregating it
            // (a probe; ath9k's series with a legacy rate).
            let mac = &self.macs[i];
            let st = &mac.peers[peer.idx()].rate;
            let single = mac.rate.single_mpdu(st, &self.rate_arena, ac);
            let own = mac.peers[peer.idx()].ba_retry.unwrap_or(cfg.retry).ppdu_attempts;
            let limit = mac.rate.frame_attempts(st, &self.rate_arena, ac).unwrap_or(own);
            let mut limits = cfg.limits;
            if cfg.mofa {
                // MoFA's bound for this peer, within the configured limits.
                limits.max_time = limits.max_time.min(self.ba_peer(node, peer).mofa[ac].max_time());
            }
            self.build_ampdu(node, ac, peer, limits, if single { 1 } else { u32::from(cfg.ba_window) });
            self.ht_tx(node, ac).agg.limit = limit;
        } else {
            self.select_mode(node, ac, agg.peer, u32::from(agg.attempts), now);
        }
        let data = self.ampdu_frame(node, ac)?;
        let w = &self.cfg;
        let mac = &mut self.macs[i];
        mac.counters.accesses += 1;
        if w.wants_rts(data.bytes) {
            // 10.3.2.5: the RTS covers CTS, the PPDU, its response (the data frame's Duration:
            // SIFS and the BlockAck or ACK) and two more SIFS.
            mac.exchange = Exchange::TxRts { ac: ac as u8 };
            mac.counters.rts_attempts += 1;
            let nav = w.timing.sifs.times(2) + w.cts_duration + data.txv.duration(data.bytes) + data.nav;
            return Some(Frame::rts_for(&data, w.control_txv, nav));
        }
        mac.exchange = Exchange::TxData { ac: ac as u8 };
        mac.txops[ac].data_sent = true;
        let link = &mut mac.peers[data.dst.idx()].link;
        link.attempts += 1;
        if w.airtime_meter {
            link.airtime_ns += data.txv.duration(data.bytes).0;
        }
        self.count_ampdu_sent(node, ac);
        Some(data)
    }

    /// `node`'s A-MPDU on `ac` goes on the air: one PPDU (a retry if it carries an MPDU that
    /// went before), its subframes (retries those that went before, [`Subframe::retry`]).
    pub(crate) fn count_ampdu_sent(&mut self, node: NodeId, ac: usize) {
        let Some(ht) = self.ht_tx.get(node.idx() * AC_COUNT + ac) else { return };
        let (peer, n) = (ht.agg.peer, u64::from(ht.agg.n));
        let mac = &mut self.macs[node.idx()];
        let mut retried = 0;
        for q in mac.txops[ac].queue.iter_mut().filter(|q| q.in_flight && q.next_hop == peer) {
            retried += u64::from(q.tx_count > 0);
            q.tx_count = q.tx_count.saturating_add(1);
        }
        let c = &mut mac.counters;
        c.attempts += 1;
        c.retries += u64::from(retried > 0);
        c.mpdus_sent += n;
        c.mpdu_retries += retried;
        mac.peers[peer.idx()].link.mpdus_sent += n;
    }

    /// The peer `node`'s next A-MPDU on `ac` goes to: the (peer, TID) queues are served in
    /// turn (ath9k 3.2 `ath_txq_schedule` walks its TIDs round robin), the queue holding each
    /// peer's frames in their order; the first peer after the last one served, by node index.
    fn next_peer(&mut self, node: NodeId, ac: usize) -> Option<NodeId> {
        let last = self.ht_tx(node, ac).last_peer.map_or(-1, |p| i64::from(p.0));
        let (mut after, mut first): (Option<NodeId>, Option<NodeId>) = (None, None);
        for q in self.macs[node.idx()].txops[ac].queue.iter().filter(|q| !q.mgmt) {
            let p = q.next_hop;
            if first.is_none_or(|f| p.0 < f.0) {
                first = Some(p);
            }
            if i64::from(p.0) > last && after.is_none_or(|a| p.0 < a.0) {
                after = Some(p);
            }
        }
        let peer = after.or(first)?;
        self.ht_tx(node, ac).last_peer = Some(peer);
        Some(peer)
    }

    /// Put the MPDUs queued for `peer` into `ac`'s aggregate, oldest first, while they lie in
    /// the transmit window and fit the limits at the attempt's mode (ath9k
    /// `ath_tx_form_aggr`); a first MPDU that alone exceeds a limit goes alone.
    fn build_ampdu(
        &mut self,
        node: NodeId,
        ac: usize,
        peer: NodeId,
        limits: super::ht::ampdu::AggLimits,
        most: u32,
    ) {
        let header = self.cfg.data_header_bytes;
        let txv = TxVector { mode: self.macs[node.idx()].txops[ac].mode, ..self.cfg.data_txv };
        let mut win = self.ba_peer(node, peer).tx[ac];
        self.ht_tx(node, ac); // made, so that the aggregate is written in place (no copy)
        let agg = &mut self.ht_tx[node.idx() * AC_COUNT + ac].agg;
        let (mut n, mut len) = (0u32, 0u32);
        for q in self.macs[node.idx()].txops[ac].queue.iter_mut().filter(|q| q.next_hop == peer && !q.mgmt) {
            let m = mpdu_bytes(q.ip_bytes, header);
            if !win.admits(q.seq) || (n > 0 && !limits.fits(n, len, m, &txv)) || n == most {
                break;
            }
            q.in_flight = true;
            win.add(q.seq);
            agg.seqs[n as usize] = q.seq;
            len = len_with(len, m);
            n += 1;
        }
        agg.n = n as u16;
        agg.peer = peer;
        agg.bytes = len;
        agg.attempts = 0;
        self.ba_peer(node, peer).tx[ac] = win;
    }

    /// The PPDU of `node`'s A-MPDU on `ac` as its current attempt sends it.
    #[inline(never)]
    pub fn ampdu_frame(&self, node: NodeId, ac: usize) -> Option<Frame> {
        let agg = &self.ht_tx.get(node.idx() * AC_COUNT + ac)?.agg;
        if agg.n == 0 {
            return None;
        }
        let txop = &self.macs[node.idx()].txops[ac];
        let mut mpdus = in_flight(&txop.queue, agg.peer);
        let first = mpdus.next()?;
        if agg.n == 1 && !matches!(txop.mode.class(), ModClass::Ht | ModClass::Vht | ModClass::He) {
            // Not an HT, VHT or HE PPDU, so no A-MPDU (10.12): the MPDU alone, acknowledged by
            // an ACK.
            let w = &self.cfg;
            // Retry: counted as it goes on the air (`count_ampdu_sent`).
            let c = Carried {
                packet: Some(first.packet),
                seq: first.seq,
                retry: first.tx_count > 0,
                ac: ac as u8,
            };
            return Some(Frame::mpdu(
                FrameKind::Data,
                (node, agg.peer),
                mpdu_bytes(first.ip_bytes, w.data_header_bytes),
                TxVector { mode: txop.mode, ..w.data_txv },
                w.timing.sifs + w.ack_duration_for(txop.mode), // 10.3.2.5
                c,
            ));
        }
        // The PPDU's own flag: some MPDU in it is a retransmission (each subframe's Retry
        // bit is its own, [`Subframe::retry`]).
        let retried = agg.attempts > 0 || first.sw_retries > 0 || mpdus.any(|q| q.sw_retries > 0);
        let ba_air = self.cfg.ack_txv(txop.mode).duration(block_ack_bytes(self.ba_window()));
        let c = Carried { packet: Some(first.packet), seq: first.seq, retry: retried, ac: ac as u8 };
        let txv = TxVector { mode: txop.mode, ..self.cfg.data_txv };
        let nav = self.cfg.timing.sifs + ba_air; // 10.3.2.5 (the BlockAck's airtime)
        Some(Frame::ampdu((node, agg.peer), agg.bytes, txv, nav, c, agg.n))
    }

    /// The subframes of `src`'s A-MPDU on `ac`, in order, into `out` (cleared first). One
    /// walk of the queue: the in-flight MPDUs of the aggregate's peer are its subframes, in
    /// queue order as `build_ampdu` took them.
    pub fn subframes(&self, src: NodeId, ac: usize, out: &mut Vec<Subframe>) {
        out.clear();
        let Some(ht) = self.ht_tx.get(src.idx() * AC_COUNT + ac) else { return };
        let header = self.cfg.data_header_bytes;
        let queue = &self.macs[src.idx()].txops[ac].queue;
        out.extend(in_flight(queue, ht.agg.peer).map(|q| Subframe {
            seq: q.seq,
            packet: q.packet,
            bytes: mpdu_bytes(q.ip_bytes, header),
            retry: q.tx_count > 1, // counted as it went on the air (`count_ampdu_sent`)
        }));
        debug_assert_eq!(out.len(), usize::from(ht.agg.n), "every subframe is queued, in flight");
    }

    /// The BlockAck answering `node`'s A-MPDU or BlockAckReq on `ac` arrived (its bitmap is
    /// its sender's `block_ack_bitmap`).
    #[inline(never)]
    pub(crate) fn block_ack_received(&mut self, node: NodeId, ac: usize, frame: &Frame, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.timeout.cancel();
        mac.exchange = Exchange::None;
        let bitmap = self.block_ack_bitmap(frame.src);
        let ht = self.ht_tx(node, ac);
        if ht.bar_sent {
            *ht = HtTx { agg: ht.agg, ..HtTx::default() };
            let mac = &mut self.macs[node.idx()];
            mac.txops[ac].cw = mac.txops[ac].params.cw_min;
            mac.draw_backoff(ac);
            mac.txops[ac].attempt_since = now;
            return;
        }
        if ht.agg.n > 0 {
            self.macs[node.idx()].counters.successes += 1;
            self.settle(node, ac, Some((frame.seq, bitmap)), now);
        }
    }

    /// The ACK answering `node`'s single MPDU on `ac` (sent unaggregated at a non-HT rate,
    /// [`Wifi::ampdu_frame`]) arrived: it is settled as a BlockAck naming it would.
    #[inline(never)]
    pub(crate) fn single_mpdu_acked(&mut self, node: NodeId, ac: usize, now: SimTime) {
        let mac = &mut self.macs[node.idx()];
        mac.timeout.cancel();
        mac.exchange = Exchange::None;
        let agg = self.ht_tx(node, ac).agg;
        if agg.n > 0 {
            self.macs[node.idx()].counters.successes += 1;
            self.settle(node, ac, Some((agg.seqs[0], Bitmap::from_u64(1))), now);
        }
    }

    /// No BlockAck (or no CTS) came for `node`'s A-MPDU or BlockAckReq on `ac`: the PPDU goes
    /// again until its hardware tries run out; then every MPDU of it is settled without a
    /// bitmap (one software retry each, or given up).
    #[inline(never)]
    pub(crate) fn fail_ampdu(&mut self, node: NodeId, ac: usize, was_rts: bool, now: SimTime) -> Failed {
        let cfg = self.cfg.ampdu.expect("aggregation");
        let bar = self.ht_tx(node, ac).bar_sent;
        let mac = &mut self.macs[node.idx()];
        mac.exchange = Exchange::None;
        mac.timeout.cancel();
        if bar {
            mac.counters.bar_failures += 1;
            mac.counters.collisions += u64::from(mac.last_outcome_collision);
        } else {
            mac.counters.count_failure(was_rts, mac.last_outcome_collision);
        }
        mac.idle_start = mac.nav.idle_from(now);
        let ht = self.ht_tx(node, ac);
        if ht.bar_sent {
            ht.bar_sent = false;
            ht.bar_attempts += 1;
            if ht.bar_attempts >= cfg.retry.ppdu_attempts {
                // Given up: the recipient's window moves on with the next MPDUs anyway.
                ht.bar = None;
                ht.bar_attempts = 0;
            }
        } else {
            ht.agg.attempts = ht.agg.attempts.saturating_add(1);
            if ht.agg.attempts >= ht.agg.limit {
                self.settle(node, ac, None, now);
                return Failed { ac: ac as u8, gave_up: true };
            }
            let peer = ht.agg.peer;
            let mac = &mut self.macs[node.idx()];
            let rate = &mac.rate;
            rate.report(&mut mac.peers[peer.idx()].rate, &mut self.rate_arena, ac, TxReport::DataFailed, now);
        }
        let mac = &mut self.macs[node.idx()];
        let txop = &mut mac.txops[ac];
        txop.cw = next_cw(txop.cw, txop.params.cw_max);
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now;
        Failed { ac: ac as u8, gave_up: false }
    }

    /// Settle every MPDU of `node`'s A-MPDU on `ac` by the BlockAck `ba` (its Starting
    /// Sequence Number and bitmap; `None`: the hardware gave the PPDU up): acknowledged ones
    /// leave the queue, the others are queued again or given up (ath9k 3.2
    /// `ath_tx_complete_aggr`), the window moves, and a BlockAckReq is owed after a drop.
    fn settle(&mut self, node: NodeId, ac: usize, ba: Option<(u16, Bitmap)>, now: SimTime) {
        let i = node.idx();
        let agg = self.ht_tx(node, ac).agg;
        let peer = agg.peer;
        let mut win = self.ba_peer(node, peer).tx[ac];
        let (mut acked, mut completed, mut removed, mut dropped) = (0u32, 0u32, false, false);
        let mut first_acked = false;
        // In subframe order: what the bitmap delivered (MoFA reads it), and for the mpdus
        // trace where each subframe began in its PSDU.
        let mut delivered = [false; super::ht::mofa::POSITIONS];
        let (mut psdu_len, header) = (0u32, self.cfg.data_header_bytes);
        let txv = TxVector { mode: self.macs[i].txops[ac].mode, ..self.cfg.data_txv };
        for (position, &seq) in agg.seqs[..usize::from(agg.n)].iter().enumerate() {
            let in_bitmap = ba.map(|(ssn, bitmap)| bitmap.bit(distance(ssn, seq)));
            if let Some(d) = delivered.get_mut(position) {
                *d = in_bitmap == Some(true);
            }
            let mac = &mut self.macs[i];
            let txop = &mut mac.txops[ac];
            let Some(pos) = txop.queue.iter().position(|q| q.next_hop == peer && q.seq == seq && !q.mgmt)
            else {
                continue;
            };
            let limits = self.ba_limits(node, &self.macs[i].txops[ac].queue[pos]);
            let mac = &mut self.macs[i];
            let txop = &mut mac.txops[ac];
            let q = &mut txop.queue[pos];
            q.in_flight = false;
            let verdict = fate(in_bitmap, &mut q.sw_retries, limits);
            if self.trace_mpdus {
                let from = if position == 0 { 0 } else { psdu_len + super::ht::ampdu::padding(psdu_len) };
                psdu_len = len_with(psdu_len, mpdu_bytes(q.ip_bytes, header));
                let offset = super::ht::ampdu::subframe_offset(&txv, from);
                self.ind.push(MacInd::Mpdu {
                    position: position as u16,
                    offset_ns: u32::try_from(offset.ns()).unwrap_or(u32::MAX),
                    node,
                    peer,
                    packet: q.packet,
                    seq,
                    ac: ac as u8,
                    fate: verdict,
                    sw_retries: q.sw_retries,
                    attempts: agg.attempts + u8::from(ba.is_some()),
                    subframes: agg.n,
                    block_ack: ba.is_some(),
                });
            }
            if verdict == Fate::Retry {
                continue; // counted as it goes again (`count_ampdu_sent`)
            }
            let q = txop.queue.remove(pos).expect("found");
            removed = true;
            completed += 1;
            first_acked |= verdict == Fate::Acked && seq == agg.seqs[0];
            win.complete(seq);
            let mode = txop.mode;
            let st = &mut mac.peers[peer.idx()];
            st.link.last_tx_mode = Some(mode);
            if verdict == Fate::Acked {
                acked += 1;
                mac.counters.mpdus_acked += 1;
                st.link.final_status(true);
                self.ind.push(MacInd::Acked { node, packet: q.packet });
            } else {
                dropped = true;
                mac.counters.drops_retry_limit += 1;
                st.link.final_status(false);
                let arrived = self.recipient_holds(peer, node, ac, seq);
                self.ind.push(MacInd::Dropped { node, packet: q.packet, arrived });
            }
        }
        if ba.is_some() && self.cfg.ampdu.is_some_and(|c| c.mofa) {
            // MoFA on the BlockAck; a subframe's airtime is the A-MPDU's data portion over its
            // subframes.
            let n = usize::from(agg.n).min(delivered.len());
            let data = txv.duration(agg.bytes).ns().saturating_sub(txv.preamble_and_header().ns());
            let subframe_us = data as f64 / 1e3 / n.max(1) as f64;
            self.ba_peer(node, peer).mofa[ac].on_block_ack(&delivered[..n], subframe_us);
        }
        self.ba_peer(node, peer).tx[ac] = win;
        let ht = self.ht_tx(node, ac);
        ht.agg.n = 0;
        ht.agg.attempts = 0;
        if dropped {
            ht.bar = Some((peer, win.start()));
        }
        let mac = &mut self.macs[i];
        let rate = &mac.rate;
        let report = TxReport::Ppdu {
            attempts: u32::from(agg.attempts) + u32::from(ba.is_some()),
            block_ack: ba.is_some(),
            mpdus: agg.n,
            acked: acked as u16,
            completed: completed as u16,
            first_acked,
        };
        rate.report(&mut mac.peers[peer.idx()].rate, &mut self.rate_arena, ac, report, now);
        let txop = &mut mac.txops[ac];
        txop.cw = txop.params.cw_min;
        txop.data_sent = false;
        txop.head_since = now;
        mac.draw_backoff(ac);
        mac.txops[ac].attempt_since = now;
        if removed {
            self.ind.push(MacInd::Room { node });
        }
    }

    /// Whether `j`'s recipient for `src` on `ac` has MPDU `seq` (scored, or passed up):
    /// a given-up MPDU whose BlockAcks were lost has arrived all the same.
    fn recipient_holds(&self, j: NodeId, src: NodeId, ac: usize, seq: u16) -> bool {
        let k = self.macs[j.idx()].peers[src.idx()].ba;
        if k == u32::MAX {
            return false;
        }
        let r = &self.ba_peers[k as usize].rx[ac];
        let (ssn, bitmap) = r.block_ack();
        let d = distance(ssn, seq);
        bitmap.bit(d) || super::ht::seq::before(seq, r.next_expected())
    }

    /// MPDU `seq` of `src`'s A-MPDU on `ac` reached `j` intact, carrying `packet` (the world's
    /// copy, now `j`'s): the recipient scores and buffers it; what is now in order goes up as
    /// [`MacInd::Released`]. False: a duplicate (the caller frees the copy).
    #[inline(never)]
    pub fn recipient_receive(
        &mut self,
        j: NodeId,
        src: NodeId,
        ac: usize,
        seq: u16,
        packet: PacketId,
    ) -> bool {
        let taken = self.release(j, src, ac, |r, up| r.receive(seq, packet, up));
        if !taken {
            self.macs[j.idx()].counters.rx_duplicates += 1;
        }
        taken
    }

    /// Let `j`'s recipient for `src` on `ac` act (`f`), and hand up what it releases as
    /// [`MacInd::Released`], in order (through the reused `released` buffer).
    fn release<R>(
        &mut self,
        j: NodeId,
        src: NodeId,
        ac: usize,
        f: impl FnOnce(&mut Recipient, &mut Vec<PacketId>) -> R,
    ) -> R {
        let mut up = std::mem::take(&mut self.released);
        let out = f(&mut self.ba_peer(j, src).rx[ac], &mut up);
        self.ind.extend(up.drain(..).map(|packet| MacInd::Released { node: j, packet }));
        self.released = up;
        out
    }

    /// `j` answers `src`'s single MPDU under Block Ack (`frame`, sent unaggregated at a non-HT
    /// mode) with an ACK after SIFS (Normal Ack policy, Table 9-6).
    #[inline(never)]
    pub fn respond_ack(&mut self, j: NodeId, frame: &Frame, sched: &mut Scheduler<Event>, now: SimTime) {
        let ack = super::rx::ack_frame(&self.cfg, j, frame);
        self.respond(j, ack, sched, now);
    }

    /// `j` answers `src`'s A-MPDU (sent at `req`) or BlockAckReq on `ac` with a compressed
    /// BlockAck after SIFS (10.25.6.5), at the rate an ACK would take (10.6.6.5.2).
    #[inline(never)]
    pub fn respond_block_ack(
        &mut self,
        j: NodeId,
        src: NodeId,
        ac: usize,
        req: ModeId,
        sched: &mut Scheduler<Event>,
        now: SimTime,
    ) {
        let (ssn, bitmap) = self.ba_peer(j, src).rx[ac].block_ack();
        if self.block_ack_bitmaps.is_empty() {
            self.block_ack_bitmaps = vec![Bitmap::default(); self.macs.len()];
        }
        self.block_ack_bitmaps[j.idx()] = bitmap;
        let bytes = block_ack_bytes(self.ba_window());
        let ba =
            block_ack_frame(FrameKind::BlockAck, (j, src), self.cfg.ack_txv(req), Dur::ZERO, ssn, ac, bytes);
        self.respond(j, ba, sched, now);
    }

    /// A BlockAckReq from `src` on `ac` with Starting Sequence Number `ssn` reached `j`: what
    /// waited behind holes before `ssn` goes up, and a BlockAck answers.
    #[inline(never)]
    pub(crate) fn block_ack_req_received(
        &mut self,
        j: NodeId,
        frame: &Frame,
        sched: &mut Scheduler<Event>,
        now: SimTime,
    ) {
        let (src, ac) = (frame.src, usize::from(frame.ac));
        self.release(j, src, ac, |r, up| r.block_ack_req(frame.seq, up));
        self.respond_block_ack(j, src, ac, frame.txv.mode, sched, now);
    }
}

/// One MPDU of an A-MPDU as it goes on the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subframe {
    /// Its sequence number (per receiver and TID).
    pub seq: u16,
    /// The packet it carries.
    pub packet: PacketId,
    /// The MPDU's length [bytes], header and FCS included (no delimiter or padding).
    pub bytes: u32,
    /// Its own Retry bit (9.2.4.1.4: set in each MPDU that retransmits an earlier one): the
    /// aggregate is resent whole, or this MPDU is a software retry in a new aggregate; a first
    /// transmission has it clear whatever the other subframes carry.
    pub retry: bool,
}

/// The MPDUs of `queue` in flight to `peer`: an aggregate's subframes, in order.
fn in_flight(
    queue: &std::collections::VecDeque<super::Queued>,
    peer: NodeId,
) -> impl Iterator<Item = &super::Queued> {
    queue.iter().filter(move |q| q.in_flight && q.next_hop == peer)
}

/// A compressed BlockAck or BlockAckReq (`kind`) of `bytes` from `src` to `dst` (9.3.1.8,
/// 9.3.1.7): its Starting Sequence Number `ssn` and TID (of `ac`); a BlockAck's bitmap travels
/// in its sender's `Wifi::block_ack_bitmaps`.
fn block_ack_frame(
    kind: FrameKind,
    (src, dst): (NodeId, NodeId),
    txv: TxVector,
    nav: Dur,
    ssn: u16,
    ac: usize,
    bytes: u32,
) -> Frame {
    Frame::mpdu(
        kind,
        (src, dst),
        bytes,
        txv,
        nav,
        Carried { packet: None, seq: ssn, retry: false, ac: ac as u8 },
    )
}
