//! The world's traffic at the network layer: flows starting and ticking, packets made,
//! routed and sent on their next hop (wired link or wireless MAC), wired links' ends. The
//! packet, route and link types live in `net`; this is their dispatch in the world.

use crate::ids::{FlowId, LinkId, NodeId, PacketId};
use crate::net::{routing, Hop, Packet, NO_FLOW};
use crate::spec::{FlowKind, UDP_IP_HEADER_BYTES};
use crate::time::{Dur, SimTime};
use crate::world::{Event, World};

impl World {
    pub(crate) fn on_flow_start(&mut self, f: FlowId, now: SimTime) {
        match self.flows[f.idx()].kind {
            FlowKind::UdpSaturating => self.refill(self.flows[f.idx()].src, now),
            FlowKind::UdpCbr | FlowKind::UdpPoisson => self.on_cbr_tick(f, now),
            FlowKind::UdpOnoff => self.on_off_tick(f, now),
            FlowKind::TcpBulk | FlowKind::TcpFile => self.tcp_start(f, now),
            FlowKind::ClapFile => self.clap_start(f, now),
        }
    }

    pub(crate) fn on_cbr_tick(&mut self, f: FlowId, now: SimTime) {
        if !self.flows[f.idx()].active(now) {
            return;
        }
        if self.flows[f.idx()].kind == FlowKind::UdpOnoff {
            return self.on_off_tick(f, now);
        }
        self.generate(f, now);
        let flow = &mut self.flows[f.idx()];
        let gap = if flow.kind == FlowKind::UdpPoisson {
            // Exponential gaps of the CBR interval's mean: a Poisson process of the rate.
            let u = flow.pacing.open01();
            Dur((-(flow.interval.ns() as f64) * u.ln()).round().clamp(1.0, 1e18) as u64)
        } else {
            flow.interval
        };
        self.sched.after(gap, Event::CbrTick(f));
    }

    /// ns-3 OnOffApplication: an off period first (`ScheduleStartEvent`), then on periods
    /// sending at the rate, the first packet one interval in less what the last on period
    /// had accumulated toward it (`m_residualBits`, here in time), each packet until the
    /// period ends (`StopSending`), then off again.
    pub(crate) fn on_off_tick(&mut self, f: FlowId, now: SimTime) {
        if !self.flows[f.idx()].active(now) {
            return;
        }
        let flow = &mut self.flows[f.idx()];
        let (interval, o) = (flow.interval, flow.pacing.on_off.expect("an on/off source"));
        let p = &mut flow.pacing;
        if !p.started {
            p.started = true;
            let off = p.period(o.off_mean_ns);
            self.sched.at(now + off, Event::CbrTick(f));
            return;
        }
        let next = if p.on {
            self.generate(f, now);
            now + interval
        } else {
            // An off period ended: an on period begins.
            p.on = true;
            p.on_until = now + p.period(o.on_mean_ns);
            now + (interval - std::mem::take(&mut p.residual))
        };
        let p = &mut self.flows[f.idx()].pacing;
        if next < p.on_until {
            self.sched.at(next, Event::CbrTick(f));
        } else {
            // The period ends before the next packet: keep how far it got toward it.
            p.residual = interval - next.since(p.on_until);
            p.on = false;
            let off = p.period(o.off_mean_ns);
            let at = p.on_until + off;
            self.sched.at(at, Event::CbrTick(f));
        }
    }

    /// Keep the first-hop queue of every saturating source at `node` full.
    pub(crate) fn refill(&mut self, node: NodeId, now: SimTime) {
        let mut shared = false;
        for i in 0..self.nodes[node.idx()].sources.len() {
            let f = self.nodes[node.idx()].sources[i];
            let flow = &self.flows[f.idx()];
            if flow.kind != FlowKind::UdpSaturating || !flow.active(now) {
                continue;
            }
            if flow.shares_queue {
                shared = true;
                continue;
            }
            // Bounded by the queue limit: each pass either fills one slot or stops.
            while self.first_hop_has_room(f) {
                if !self.generate(f, now) {
                    break;
                }
            }
        }
        if shared {
            self.refill_shared(node, now);
        }
    }

    /// Saturating sources of `node` that share a queue (several destinations loaded from one
    /// node) take turns, a packet each from the one after the last served, so that none starves
    /// (an application writing to several sockets in turn).
    fn refill_shared(&mut self, node: NodeId, now: SimTime) {
        let n = self.nodes[node.idx()].sources.len();
        let mut k = self.nodes[node.idx()].next_shared;
        let mut misses = 0;
        while misses < n {
            let f = self.nodes[node.idx()].sources[k % n];
            k += 1;
            let flow = &self.flows[f.idx()];
            let turn = flow.kind == FlowKind::UdpSaturating && flow.shares_queue && flow.active(now);
            if turn && self.first_hop_has_room(f) && self.generate(f, now) {
                misses = 0;
                self.nodes[node.idx()].next_shared = k % n;
            } else {
                misses += 1;
            }
        }
    }

    fn first_hop_has_room(&self, f: FlowId) -> bool {
        let flow = &self.flows[f.idx()];
        if self.mesh.is_some() && self.is_mesh_route(flow.src, flow.dst) {
            return self.mesh_has_room(flow.src, flow.dst, flow.ac as usize);
        }
        match self.next_hop(flow.src, flow.dst) {
            Some(Hop::Wired(link, dir)) => {
                let l = &self.links[link.idx()];
                !l.dirs[dir as usize].full(l.queue_limit)
            }
            Some(Hop::Wifi(peer)) => self.wifi_hop_has_room(flow.src, peer, flow.ac as usize),
            None => false,
        }
    }

    /// Whether `node` may queue another packet for its radio neighbour `peer` on `ac`: in the
    /// queue the packet meets first (the mac80211 TXQ, else the qdisc, else the MAC's).
    pub(crate) fn wifi_hop_has_room(&self, node: NodeId, peer: NodeId, ac: usize) -> bool {
        // Linux today: the source fills its station's intermediate queue (the driver pulls
        // from it as AQL and the airtime round allow), never past the queue's limit.
        self.ifaces.has_room(node, peer, ac, || self.wifi.has_room(node, ac))
    }

    /// Create one packet of flow `f` and send it; false if it could not be queued.
    fn generate(&mut self, f: FlowId, now: SimTime) -> bool {
        let flow = &mut self.flows[f.idx()];
        let ip_bytes = flow.payload_bytes + UDP_IP_HEADER_BYTES;
        let p = Packet::new(f, flow.next_seq, flow.src, flow.dst, ip_bytes, flow.payload_bytes, now, flow.ac);
        flow.next_seq += 1;
        flow.sent += 1;
        let src = flow.src;
        let id = self.packets.alloc(p);
        self.send(src, id, now)
    }

    /// Store a new packet and send it from `node` ([`World::send`]).
    pub(crate) fn send_new(&mut self, node: NodeId, p: Packet, now: SimTime) -> bool {
        let id = self.packets.alloc(p);
        self.send(node, id, now)
    }

    /// Route a packet from `node`: deliver, forward on a wired link or queue it at the MAC.
    /// Returns false if the packet was dropped.
    pub(crate) fn send(&mut self, node: NodeId, id: PacketId, now: SimTime) -> bool {
        let dst = self.packets.get(id).dst;
        if self.mesh.is_some() && dst != node && self.is_mesh_route(node, dst) {
            return self.mesh_route(node, None, id, now);
        }
        if dst == node {
            if self.packets.get(id).tcp.is_some() {
                self.tcp_deliver(id, node, now);
            } else if self.packets.get(id).clap.is_some() {
                self.clap_deliver(id, node, now);
            } else {
                self.deliver(id, now);
            }
            return true;
        }
        match self.next_hop(node, dst) {
            Some(Hop::Wired(link, dir)) => self.wired_enqueue(link, dir, id, now),
            Some(Hop::Wifi(nh)) => self.wifi_enqueue(node, nh, id, now),
            None => {
                self.nodes[node.idx()].drops_no_route += 1;
                self.drop_packet(id);
                false
            }
        }
    }

    #[inline(always)]
    pub(crate) fn next_hop(&self, node: NodeId, dst: NodeId) -> Option<Hop> {
        let n = &self.nodes[node.idx()];
        let nh = match n.routes.get(dst.0) {
            v if v >= routing::DIRECT => dst, // DIRECT, or NO_ROUTE: only a neighbour is reached
            v => NodeId(v),
        };
        if let Some(&(_, link, dir)) = n.wired.iter().find(|(peer, _, _)| *peer == nh) {
            return Some(Hop::Wired(link, dir));
        }
        if n.wifi && self.nodes[nh.idx()].wifi && self.medium.can_decode(node, nh) {
            return Some(Hop::Wifi(nh));
        }
        None
    }

    pub(crate) fn drop_packet(&mut self, id: PacketId) {
        let p = *self.packets.get(id);
        if p.tsq {
            self.tsq_freed(p.flow);
        }
        // A lost TCP or CLAP packet is repaired by its protocol; its flow counts retransmissions.
        // A UDP packet counts where it is dropped, in the measured period (the counters are
        // zeroed as it starts), like its deliveries: created in the warm-up or not.
        if p.tcp.is_none() && p.clap.is_none() && p.flow != NO_FLOW {
            self.flows[p.flow.idx()].lost += 1;
        }
        self.packets.free(id);
    }

    fn deliver(&mut self, id: PacketId, now: SimTime) {
        let p = *self.packets.get(id);
        self.packets.free(id);
        self.count_goodput(p.flow, u64::from(p.payload_bytes), now);
        let flow = &mut self.flows[p.flow.idx()];
        flow.delivered += 1;
        flow.delay_sum_ns += u128::from(now.since(p.created).ns());
        self.traces.packet(p.flow.0, p.seq, p.created, now);
    }

    /// Count `bytes` of goodput for flow `f` at `now`, in its reporting interval (intervals
    /// count from the end of the warm-up; what comes before is zeroed with the counters).
    pub(crate) fn count_goodput(&mut self, f: FlowId, bytes: u64, now: SimTime) {
        let since = now.since(self.period.warmup_end);
        let flow = &mut self.flows[f.idx()];
        flow.delivered_bytes += bytes;
        if let Some(every) = flow.report_every {
            let k = (since.ns() / every.ns().max(1)) as usize;
            if flow.report_bytes.len() <= k {
                flow.report_bytes.resize(k + 1, 0);
            }
            flow.report_bytes[k] += bytes;
        }
    }

    fn wired_enqueue(&mut self, link: LinkId, dir: u8, id: PacketId, now: SimTime) -> bool {
        let l = &mut self.links[link.idx()];
        let d = &mut l.dirs[dir as usize];
        if d.full(l.queue_limit) {
            d.drops_queue += 1;
            self.drop_packet(id);
            return false;
        }
        d.queue.push_back(id);
        if !d.busy {
            self.wired_start(link, dir, now);
        }
        true
    }

    fn wired_start(&mut self, link: LinkId, dir: u8, now: SimTime) {
        let Some(&id) = self.links[link.idx()].dirs[dir as usize].queue.front() else {
            return;
        };
        let t = self.links[link.idx()].tx_time(self.packets.get(id).ip_bytes);
        self.links[link.idx()].dirs[dir as usize].busy = true;
        let from = self.links[link.idx()].ends[dir as usize];
        self.capture_wired(now, from, link.0, false, id);
        self.sched.at(now + t, Event::WiredTxEnd { link, dir });
    }

    pub(crate) fn on_wired_tx_end(&mut self, link: LinkId, dir: u8, now: SimTime) {
        let l = &mut self.links[link.idx()];
        let d = &mut l.dirs[dir as usize];
        d.busy = false;
        let Some(id) = d.queue.pop_front() else {
            return;
        };
        let delay = l.delay;
        let from = l.ends[dir as usize];
        let p = l.loss[dir as usize];
        let lost = p > 0.0 && l.rng.bernoulli(p);
        if lost {
            l.dirs[dir as usize].lost += 1;
            self.drop_packet(id);
        } else {
            self.tsq_done(id); // the device freed it: a wired NIC's TX completion
            self.sched.at(now + delay, Event::WiredArrive { link, dir, packet: id });
        }
        self.wired_start(link, dir, now);
        self.refill(from, now);
    }

    pub(crate) fn on_wired_arrive(&mut self, link: LinkId, dir: u8, id: PacketId, now: SimTime) {
        let to = self.links[link.idx()].ends[1 - dir as usize];
        self.capture_wired(now, to, link.0, true, id);
        self.send(to, id, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wired_queue_of_two_holds_two_waiting_packets_behind_the_one_on_the_wire() {
        // ns-3 PointToPointNetDevice::Send dequeues a packet before TransmitStart, and Linux's
        // qdisc hands it to the driver: the packet on the wire is not in the queue.
        let spec = json!({
            "duration_ns": 1_000_000_000u64,
            "wifi": {"standard": "80211a", "data_rate_mbps": 6.0, "basic_rate_mbps": 6.0},
            "channel": {"rx_range_m": 100.0, "cs_range_m": 100.0},
            "nodes": [
                {"name": "a", "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"},
                {"name": "b", "position_m": [0.0, 0.0, 0.0], "wifi": false, "role": "host"},
            ],
            "wired_links": [{"a": 0, "b": 1, "rate_bps": 1_000_000u64, "delay_ns": 0, "queue_limit_packets": 2}],
            "flows": [{"kind": "udp_cbr", "src": 0, "dst": 1, "payload_bytes": 1000, "rate_bps": 8000.0}],
        });
        let spec: crate::WorldSpec = serde_json::from_value(spec).expect("spec parses");
        let mut w = World::build(&spec, 1).expect("builds");
        let p = Packet::new(FlowId(0), 0, NodeId(0), NodeId(1), 1028, 1000, SimTime::ZERO, 0);
        let sent: Vec<bool> = (0..4).map(|_| w.send_new(NodeId(0), p, SimTime::ZERO)).collect();
        assert_eq!(sent, [true, true, true, false]);
        let d = &w.links[0].dirs[0];
        assert_eq!((d.queue.len(), d.busy, d.drops_queue), (3, true, 1));
    }
}
