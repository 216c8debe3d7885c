//! HWMP on a chain of mesh points, by hand: a harness delivers every frame a point sends to its
//! chain neighbours (group-addressed) or to the one it names, 1 ms per hop, and fires the
//! timers the points ask for, in time order.

use super::*;

const LINK: u32 = 152; // Linux 3.12's metric of a clean 54 Mbit/s link (mesh::metric)

fn ms(v: u64) -> SimTime {
    SimTime::ZERO + Dur::from_ms(v)
}

#[derive(Debug)]
enum Ev {
    Rx { at: NodeId, from: NodeId, frame: Hwmp },
    PathTimer { at: NodeId, dest: NodeId },
    PreqTimer { at: NodeId },
}

struct Chain {
    mps: Vec<MeshPoint>,
    /// (time, seq, event), popped in order.
    q: Vec<(SimTime, u64, Ev)>,
    seq: u64,
    now: SimTime,
    /// Per node: Flush and Drop actions seen, with their time.
    flushed: Vec<Vec<(SimTime, NodeId, NodeId)>>,
    dropped: Vec<Vec<(SimTime, NodeId)>>,
    /// The links that carry nothing (broken).
    cut: Vec<(u32, u32)>,
    /// Path timers: the latest armed per (node, dest); older ones are stale.
    armed: Vec<Vec<Option<SimTime>>>,
}

impl Chain {
    fn new(n: usize) -> Chain {
        Chain {
            mps: (0..n).map(|i| MeshPoint::new(NodeId(i as u32), n, HwmpParams::LINUX)).collect(),
            q: Vec::new(),
            seq: 0,
            now: SimTime::ZERO,
            flushed: vec![Vec::new(); n],
            dropped: vec![Vec::new(); n],
            cut: Vec::new(),
            armed: vec![vec![None; n]; n],
        }
    }

    fn push(&mut self, at: SimTime, ev: Ev) {
        self.seq += 1;
        self.q.push((at, self.seq, ev));
    }

    fn neighbours(&self, i: u32) -> Vec<u32> {
        let n = self.mps.len() as u32;
        [i.wrapping_sub(1), i + 1]
            .into_iter()
            .filter(|&j| j < n && !self.cut.contains(&(i.min(j), i.max(j))))
            .collect()
    }

    fn apply(&mut self, node: NodeId, out: Vec<Action>) {
        for a in out {
            match a {
                Action::Send { frame, to } => {
                    let hop = self.now + Dur::from_ms(1);
                    for j in self.neighbours(node.0) {
                        if to.is_none() || to == Some(NodeId(j)) {
                            self.push(hop, Ev::Rx { at: NodeId(j), from: node, frame });
                        }
                    }
                }
                Action::Flush { dest, next_hop } => self.flushed[node.idx()].push((self.now, dest, next_hop)),
                Action::Drop { dest } => self.dropped[node.idx()].push((self.now, dest)),
                Action::PathTimer { dest, at } => {
                    self.armed[node.idx()][dest.idx()] = Some(at);
                    self.push(at, Ev::PathTimer { at: node, dest });
                }
                Action::PreqTimer { at } => self.push(at, Ev::PreqTimer { at: node }),
            }
        }
    }

    fn data(&mut self, node: u32, dest: u32) -> Option<NodeId> {
        let mut out = Vec::new();
        let now = self.now;
        let hop = self.mps[node as usize].next_hop(NodeId(dest), now, &mut out);
        self.apply(NodeId(node), out);
        hop
    }

    fn run_until(&mut self, until: SimTime) {
        loop {
            self.q.sort_by_key(|e| (e.0, e.1));
            if self.q.first().is_none_or(|e| e.0 > until) {
                break;
            }
            let (t, _, ev) = self.q.remove(0);
            self.now = t;
            let mut out = Vec::new();
            let node = match ev {
                Ev::Rx { at, from, frame } => {
                    self.mps[at.idx()].on_frame(from, LINK, frame, t, &mut out);
                    at
                }
                Ev::PathTimer { at, dest } => {
                    if self.armed[at.idx()][dest.idx()] != Some(t) {
                        continue; // replaced by a later one
                    }
                    self.mps[at.idx()].on_path_timer(dest, t, &mut out);
                    at
                }
                Ev::PreqTimer { at } => {
                    self.mps[at.idx()].on_preq_timer(t, &mut out);
                    at
                }
            };
            self.apply(node, out);
        }
        self.now = until;
    }
}

#[test]
fn a_five_node_chain_finds_its_path_and_accumulates_the_metric() {
    let mut c = Chain::new(5);
    assert_eq!(c.data(0, 4), None); // unresolved: a PREQ goes out
    c.run_until(ms(50));
    // The PREQ takes 4 hops out (4 ms), the PREP 4 back: node 0 learns at 8 ms.
    assert!(c.flushed[0].contains(&(ms(8), NodeId(4), NodeId(1))), "{:?}", c.flushed[0]);
    let p = *c.mps[0].lookup(NodeId(4), ms(8));
    assert!(p.active());
    assert_eq!((p.next_hop, p.metric), (Some(NodeId(1)), 4 * LINK));
    // Every node on the way has both directions, each metric the hops times the link's.
    for i in 1..4u32 {
        let fwd = *c.mps[i as usize].lookup(NodeId(4), ms(8));
        let back = *c.mps[i as usize].lookup(NodeId(0), ms(8));
        assert_eq!((fwd.next_hop, fwd.metric), (Some(NodeId(i + 1)), (4 - i) * LINK), "node {i}");
        assert_eq!((back.next_hop, back.metric), (Some(NodeId(i - 1)), i * LINK), "node {i}");
    }
    assert_eq!(c.mps[4].lookup(NodeId(0), ms(8)).metric, 4 * LINK);
    // One PREQ from 0, one PREP from 4, nothing else originated.
    let sent: Vec<(u64, u64)> = c.mps.iter().map(|m| (m.preqs_sent, m.preps_sent)).collect();
    assert_eq!(sent, [(1, 0), (0, 0), (0, 0), (0, 0), (0, 1)]);
    // The path now resolves at once.
    assert_eq!(c.data(0, 4), Some(NodeId(1)));
}

#[test]
fn a_path_expires_after_its_lifetime_and_its_originator_refreshes_it_before() {
    let mut c = Chain::new(3);
    c.data(0, 2);
    c.run_until(ms(200)); // past the discovery's timer (100 ms), which ends RESOLVING
    let exp = c.mps[0].lookup(NodeId(2), ms(200)).exp_time;
    // 4882 TU (the lifetime the PREP carries) after the PREP reached node 0 at 4 ms.
    assert_eq!(exp, ms(4) + Dur(4882 * 1_024_000));
    // Traffic in the last second of the path's life sends a refresh PREQ (DO set): the path
    // stays usable meanwhile and its life is extended when the PREP returns.
    c.now = SimTime(exp.ns() - 500_000_000);
    assert_eq!(c.data(0, 2), Some(NodeId(1)));
    assert_eq!(c.mps[0].preqs_sent, 2);
    c.run_until(SimTime(exp.ns() - 400_000_000));
    assert!(c.mps[0].lookup(NodeId(2), c.now).exp_time > exp + Dur::from_ms(4000));
    // A relay's path, unused, expires: node 1's path to 2 was last refreshed by the PREP.
    let relay_exp = c.mps[1].lookup(NodeId(2), c.now).exp_time;
    assert!(!c.mps[1].lookup(NodeId(2), relay_exp + Dur(1)).active());
}

#[test]
fn a_broken_link_sends_a_perr_and_traffic_rediscovers_the_path() {
    let mut c = Chain::new(5);
    c.data(0, 4);
    c.run_until(ms(200));
    assert!(c.mps[0].lookup(NodeId(4), ms(200)).active());
    // Node 2 declares its link to 3 broken (17 final failures, mesh::metric): both its paths
    // through 3 (to 3 and to 4) go inactive with their sequence numbers incremented, but only
    // the first PERR leaves (one per 100 TU, mesh_path_error_tx), for 3, which nobody
    // upstream has a path to.
    c.now = ms(300);
    let mut out = Vec::new();
    c.mps[2].link_broken(NodeId(3), ms(300), &mut out);
    let perrs: Vec<_> =
        out.iter().filter(|a| matches!(a, Action::Send { frame: Hwmp::Perr { .. }, .. })).collect();
    assert_eq!(perrs.len(), 1);
    assert!(matches!(perrs[0], Action::Send { frame: Hwmp::Perr { dest: NodeId(3), .. }, to: None }));
    assert!(!c.mps[2].lookup(NodeId(4), ms(300)).active());
    c.apply(NodeId(2), out);
    c.run_until(ms(310));
    assert!(c.mps[0].lookup(NodeId(4), ms(310)).active());
    // The next frame from 0 reaches 2, which has no path: it drops it and tells 1 with a PERR
    // of sequence number 0 (its 100 TU have passed), which 3.12 ignores: 0 and 1 keep
    // sending into the hole.
    c.now = ms(500);
    assert_eq!(c.data(0, 4), Some(NodeId(1)));
    let mut out = Vec::new();
    assert_eq!(c.mps[1].relay(NodeId(4), NodeId(0), ms(501), &mut out), Some(NodeId(2)));
    assert_eq!(c.mps[2].relay(NodeId(4), NodeId(1), ms(502), &mut out), None);
    assert!(matches!(
        out[..],
        [Action::Send { frame: Hwmp::Perr { dest: NodeId(4), dest_sn: 0, .. }, to: Some(NodeId(1)) }]
    ));
    c.now = ms(502);
    c.apply(NodeId(2), out);
    c.run_until(ms(510));
    assert!(c.mps[1].lookup(NodeId(4), ms(510)).active());
    // The hole closes when 0 refreshes its path, in the last second of its life: the refresh
    // PREQ (DO set) reaches 4, whose PREP reactivates the path at every hop.
    let exp = c.mps[0].lookup(NodeId(4), ms(510)).exp_time;
    c.now = SimTime(exp.ns() - 900_000_000);
    assert_eq!(c.data(0, 4), Some(NodeId(1)));
    c.run_until(SimTime(exp.ns() - 800_000_000));
    assert!(c.mps[2].lookup(NodeId(4), c.now).active());
    assert!(c.mps[0].lookup(NodeId(4), c.now).exp_time > exp);
    assert_eq!((c.mps[0].preqs_sent, c.mps[4].preps_sent), (2, 2));
}

#[test]
fn an_unanswered_discovery_retries_four_times_then_drops_its_frames() {
    // Node 0's only link is cut: its PREQs reach nobody. Timeouts 100, 200, 400, 800, 1600 ms
    // (Linux: 2 x 50 ms doubled per retry, four retries): the frames go at 3.1 s.
    let mut c = Chain::new(3);
    c.cut.push((0, 1));
    c.data(0, 2);
    c.run_until(ms(5000));
    assert_eq!(c.mps[0].preqs_sent, 5);
    assert_eq!(c.dropped[0], [(ms(3100), NodeId(2))]);
    assert!(!c.mps[0].paths[2].resolving());
}

#[test]
fn preqs_keep_the_minimum_interval() {
    // Discoveries of 3 and 4 at once: the second PREQ waits 10 ms (dot11MeshHWMPpreqMinInterval).
    let mut c = Chain::new(5);
    c.cut.push((0, 1));
    let mut sent_at = Vec::new();
    c.data(0, 3);
    c.data(0, 4);
    for t in 0..30 {
        let before = c.mps[0].preqs_sent;
        c.run_until(ms(t));
        if c.mps[0].preqs_sent > before || (t == 0 && before > 0) {
            sent_at.push(t);
        }
    }
    assert_eq!(c.mps[0].preqs_sent, 2);
    assert_eq!(sent_at, [0, 10]);
}

#[test]
fn sequence_numbers_compare_modulo_two_to_the_32() {
    assert!(sn_gt(5, 3) && !sn_gt(3, 5) && !sn_gt(4, 4));
    assert!(sn_gt(2, u32::MAX - 1)); // past the wrap
    assert_eq!(Hwmp::Perr { ttl: 1, dest: NodeId(0), dest_sn: 0 }.body_bytes(), 15);
}

#[test]
fn an_intermediate_node_with_a_path_answers_and_forwards_with_do_set() {
    // Node 1 learns a path to 4 (sequence number 7, metric 304 + its link's 152) from a PREP
    // through 2; a PREQ of 0's for 4 with RF (3.12's discoveries) and an older target number
    // gets a PREP from 1 on 4's behalf, and goes on with DO set and 1's number for 4
    // (hwmp_preq_frame_process overwrites target_sn before forwarding).
    let mut mp = MeshPoint::new(NodeId(1), 5, HwmpParams::LINUX);
    let mut out = Vec::new();
    let life = HwmpParams::LINUX.active_path_timeout;
    let prep = Hwmp::Prep {
        hop_count: 1,
        ttl: 30,
        target: NodeId(4),
        target_sn: 7,
        lifetime: life,
        metric: 304,
        orig: NodeId(3),
        orig_sn: 1,
    };
    mp.on_frame(NodeId(2), LINK, prep, ms(1), &mut out);
    assert_eq!(mp.lookup(NodeId(4), ms(1)).metric, 456);
    out.clear();
    let preq = Hwmp::Preq {
        hop_count: 0,
        ttl: 31,
        preq_id: 9,
        orig: NodeId(0),
        orig_sn: 1,
        lifetime: life,
        metric: 0,
        target_flags: RF,
        target: NodeId(4),
        target_sn: 3,
    };
    mp.on_frame(NodeId(0), LINK, preq, ms(2), &mut out);
    let sends: Vec<_> = out
        .iter()
        .filter_map(|a| if let Action::Send { frame, to } = a { Some((*frame, *to)) } else { None })
        .collect();
    assert_eq!(sends.len(), 2);
    assert!(matches!(
        sends[0],
        (Hwmp::Prep { target: NodeId(4), target_sn: 7, metric: 456, orig: NodeId(0), .. }, Some(NodeId(0)))
    ));
    assert!(matches!(
        sends[1],
        (Hwmp::Preq { target_flags: 0x03, target_sn: 7, hop_count: 1, ttl: 30, metric: 152, .. }, None)
    ));
}

#[test]
fn a_cheaper_path_with_the_same_number_wins_and_a_newer_number_wins_whatever_its_metric() {
    // Node 3 hears node 0's PREQ (sequence number 5) through 1 over a poor link (metric 8193:
    // 1 Mbit/s) and then through 2 over a clean one (152): the second copy is cheaper with the
    // same number, so the path to 0 moves to 2 (hwmp_route_info_get). A PREQ with number 6
    // through 1 then takes it back, dearer though it is: freshness before cost.
    let mut mp = MeshPoint::new(NodeId(3), 4, HwmpParams::LINUX);
    let mut out = Vec::new();
    let life = HwmpParams::LINUX.active_path_timeout;
    let preq = |orig_sn: u32, metric: u32| Hwmp::Preq {
        hop_count: 1,
        ttl: 30,
        preq_id: orig_sn,
        orig: NodeId(0),
        orig_sn,
        lifetime: life,
        metric,
        target_flags: RF,
        target: NodeId(3),
        target_sn: 0,
    };
    mp.on_frame(NodeId(1), 8193, preq(5, LINK), ms(1), &mut out);
    let p = *mp.lookup(NodeId(0), ms(1));
    assert_eq!((p.next_hop, p.metric), (Some(NodeId(1)), LINK + 8193));
    mp.on_frame(NodeId(2), LINK, preq(5, LINK), ms(2), &mut out);
    let p = *mp.lookup(NodeId(0), ms(2));
    assert_eq!((p.next_hop, p.metric), (Some(NodeId(2)), 2 * LINK));
    // The target answers both copies that changed its path: two PREPs, to 1 and then to 2.
    let preps: Vec<_> = out
        .iter()
        .filter_map(|a| match a {
            Action::Send { frame: Hwmp::Prep { .. }, to } => *to,
            _ => None,
        })
        .collect();
    assert_eq!(preps, [NodeId(1), NodeId(2)]);
    // An equal or dearer copy with the same number changes nothing and is not answered (only
    // the path to its transmitter, 1, is refreshed).
    out.clear();
    mp.on_frame(NodeId(1), 8193, preq(5, LINK), ms(3), &mut out);
    assert_eq!(mp.lookup(NodeId(0), ms(3)).next_hop, Some(NodeId(2)));
    assert!(!out.iter().any(|a| matches!(a, Action::Send { .. })), "{out:?}");
    mp.on_frame(NodeId(1), 8193, preq(6, LINK), ms(4), &mut out);
    let p = *mp.lookup(NodeId(0), ms(4));
    assert_eq!((p.next_hop, p.metric, p.sn), (Some(NodeId(1)), LINK + 8193, 6));
}
