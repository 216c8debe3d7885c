//! The seam's dispatch and each scheme's hooks, through a fake [`View`]: what reaches which
//! scheme, in which order, and the actions each asks for.

use super::*;
use crate::mac::frame::Carried;
use crate::mac::frame::{Frame, FrameKind};
use crate::phy::modes::OFDM_6;
use crate::phy::{PhyTiming, Preamble, Standard, TxVector};
use crate::tcp::conn::OPT_CDO;

/// A world of three nodes (node 0 the AP) with one TCP flow 0 from node 1 to node 0 whose
/// packets are `PacketId(seq)`, carrying segment `seq`.
struct Fake {
    cfg: WifiConfig,
    paths: Vec<(NodeId, u32)>,
}

impl View for Fake {
    fn wifi(&self) -> &WifiConfig {
        &self.cfg
    }
    fn is_ap(&self, node: NodeId) -> bool {
        node == NodeId(0)
    }
    fn packet(&self, id: PacketId) -> PacketView {
        // Odd slots carry UDP, even ones TCP segment 1000 x slot.
        let tcp = id.0.is_multiple_of(2).then(|| Segment {
            seq: u64::from(id.0) * 1000,
            len: 1000,
            ..Segment::default()
        });
        PacketView { flow: FlowId(0), src: NodeId(1), dst: NodeId(0), tcp }
    }
    fn first_mode(&self, _node: NodeId, _peer: NodeId) -> ModeId {
        OFDM_6 // 6 Mbit/s
    }
    fn mesh_paths(&self, _node: NodeId, _now: SimTime) -> Vec<(NodeId, u32)> {
        self.paths.clone()
    }
    fn wired_rtt(&self, _flow: FlowId) -> Dur {
        Dur::from_ms(2)
    }
    fn connections(&self, _node: NodeId, receiving: bool, each: &mut dyn FnMut(ConnView)) {
        // Flow 0 sends from node 1, 50 ms RTT (least sample 10 ms, 2 ms of it wired),
        // 1000-byte segments, a 64 KiB buffer.
        if !receiving {
            let rtt = Dur::from_ms(50);
            each(ConnView {
                flow: FlowId(0),
                rtt,
                min_rtt: Dur::from_ms(10),
                mss: 1000,
                buf_bytes: 65_536,
                ack_every: 2,
                timestamps: false,
            });
        }
    }
}

/// 802.11a at 24 Mbit/s, control at 6 Mbit/s.
fn fake() -> Fake {
    let timing = PhyTiming::of(Standard::A, false);
    let (data, control) = (TxVector::new(m24(), Preamble::Long), TxVector::new(OFDM_6, Preamble::Long));
    Fake { cfg: WifiConfig::new(Standard::A, timing, data, control, false), paths: Vec::new() }
}

fn m24() -> ModeId {
    Standard::A.mode(24_000).unwrap()
}

fn done(node: u32, mode: ModeId) -> MacEvent {
    MacEvent::TxDone {
        node: NodeId(node),
        peer: NodeId(0),
        ac: 1,
        acked: true,
        retries: 0,
        mode,
        service_ns: 1_649_000,
    }
}

fn actions(x: &mut CrossLayer) -> Vec<(NodeId, Scheme, Action)> {
    let a = x.ctl.take();
    x.ctl.give_back(Vec::new());
    a
}

fn data(src: u32, dst: u32, packet: u32) -> Frame {
    let txv = TxVector::new(m24(), Preamble::Long);
    let c = Carried { packet: Some(PacketId(packet)), seq: 1, retry: false, ac: 1 };
    Frame::mpdu(FrameKind::Data, (NodeId(src), NodeId(dst)), 1500, txv, Dur::from_us(44), c)
}

#[test]
fn an_event_reaches_only_the_kinds_its_node_subscribed_to() {
    let mut x = CrossLayer::new(3);
    x.install(NodeId(1), Installed::ClapLink(Default::default()));
    assert!(x.runs(NodeId(1), Scheme::ClapLink) && !x.runs(NodeId(0), Scheme::ClapLink));
    assert!(x.wants(&done(1, OFDM_6)));
    assert!(!x.wants(&done(2, OFDM_6)));
    assert!(!x.wants(&MacEvent::CorruptRx { node: NodeId(1), payload_only: false }));
    assert_eq!(x.kinds(NodeId(1)), TX_DONE);
    assert!(!x.reads_frames && !x.hooks_enqueue(NodeId(1)), "the link report reads no frame");
    assert!(std::mem::size_of::<MacEvent>() <= 24, "{}", std::mem::size_of::<MacEvent>());
}

#[test]
fn the_link_report_samples_each_exchange_and_reports_the_meter() {
    // CLAP's service meter (clap_link.rs): 1649 us at 6 Mbit/s, then the report of ac 1.
    let (mut x, v) = (CrossLayer::new(2), fake());
    x.install(NodeId(1), Installed::ClapLink(Default::default()));
    x.mac_event(&done(1, OFDM_6), &v, SimTime::ZERO);
    let a = actions(&mut x);
    assert_eq!(a.len(), 1);
    let (node, scheme, Action::ClapLinkReport { ac, meter }) = a[0].clone() else { panic!("{a:?}") };
    assert_eq!((node, scheme, ac), (NodeId(1), Scheme::ClapLink, 1));
    assert_eq!((meter.ewma_ns, meter.samples, meter.rate_bps), (1_649_000, 1, 6_000_000));
    assert_eq!(x.clap_meter(NodeId(1), 1), meter);
    assert_eq!(x.clap_meter(NodeId(0), 1), Default::default(), "not installed there");
}

#[test]
fn schemes_at_a_node_run_in_scheme_order_whatever_the_install_order() {
    let mut x = CrossLayer::new(2);
    x.install(NodeId(1), Installed::ClapLink(Default::default()));
    x.install(NodeId(1), Installed::BaRetry(Default::default()));
    x.install(NodeId(1), Installed::LnMac(Default::default()));
    let order: Vec<Scheme> = x.at(NodeId(1)).iter().map(Installed::scheme).collect();
    assert_eq!(order, [Scheme::LnMac, Scheme::ClapLink, Scheme::BaRetry]);
    // Installing again replaces: one per node.
    x.install(NodeId(1), Installed::LnMac(Default::default()));
    assert_eq!(x.at(NodeId(1)).len(), 3);
    assert!(x.reads_frames && x.hooks_enqueue(NodeId(1)) && !x.hooks_enqueue(NodeId(0)));
    for s in [Scheme::LnMac, Scheme::ArfWindow, Scheme::ClapLink, Scheme::BaRetry, Scheme::AlmRetry] {
        assert_eq!(Scheme::from_bit(s as u8), Some(s));
    }
    assert_eq!(Scheme::from_bit(3), None);
}

#[test]
fn the_block_ack_limit_is_set_on_tcp_frames_only() {
    // Paper 002 III: only frames whose IP protocol says TCP; at 6 Mbit/s the limit is 2 (III-B).
    let (mut x, v) = (CrossLayer::new(2), fake());
    x.install(NodeId(1), Installed::BaRetry(Default::default()));
    x.enqueued(NodeId(1), NodeId(0), PacketId(3), &v, SimTime::ZERO); // UDP
    assert!(actions(&mut x).is_empty());
    x.enqueued(NodeId(1), NodeId(0), PacketId(4), &v, SimTime::ZERO);
    let a = actions(&mut x);
    assert!(
        matches!(a[..], [(_, Scheme::BaRetry, Action::FrameRetryLimit { packet: PacketId(4), limit: 2 })]),
        "{a:?}"
    );
}

#[test]
fn ln_mac_stamps_the_last_attempt_and_notifies_the_lost_segment() {
    // Paper 004 II-B at both ends: segment 2000 lost over the air, 4000 arrives carrying SN_T
    // = 2000 while SN_R = 0 (the first frame's): a CDO notification for 2000.
    let (mut x, v) = (CrossLayer::new(2), fake());
    x.install(NodeId(0), Installed::LnMac(Default::default()));
    x.install(NodeId(1), Installed::LnMac(Default::default()));
    let t = SimTime::ZERO;
    for (tx, packet, arrives) in [(0, 0, true), (1, 2, false), (2, 4, true)] {
        let f = data(1, 0, packet);
        x.frame_sent(TxId(tx), &f, &v, t);
        if arrives {
            x.frame_heard(NodeId(0), TxId(tx), &f, &v, t);
        }
    }
    let a = actions(&mut x);
    assert_eq!(a.len(), 1, "{a:?}");
    let (node, _, Action::NotifyReceiver { carrier, segment, ip_bytes }) = a[0].clone() else {
        panic!("{a:?}")
    };
    assert_eq!(
        (node, carrier, segment.seq, segment.opts, ip_bytes),
        (NodeId(0), PacketId(4), 2000, OPT_CDO, 48)
    );
    // The sender overhears nothing of its own frame; a UDP frame carries no SN_T.
    x.frame_heard(NodeId(1), TxId(2), &data(1, 0, 4), &v, t);
    x.frame_sent(TxId(3), &data(1, 0, 5), &v, t);
    x.frame_heard(NodeId(0), TxId(3), &data(1, 0, 5), &v, t);
    assert!(actions(&mut x).is_empty());
}

#[test]
fn the_alm_retry_limit_starts_polls_and_steps_toward_the_target() {
    // Paper 000 IV-C: a 5-hop diameter of 24 Mbit/s hops (342 each) allows 8 retries under
    // 200 ms (alm_retry.rs): from 7 the first poll steps to 8 and sets it toward every peer.
    let mut x = CrossLayer::new(2);
    let alm = alm_retry::AlmRetry::linux(alm_retry::TravelMap::table_iii_normal());
    x.install(NodeId(1), Installed::AlmRetry(alm));
    x.start();
    let a = actions(&mut x);
    assert!(
        matches!(a[..], [(_, _, Action::RetryLimitSet(7)), (_, _, Action::Timer { after })] if after == Dur::from_ms(1000)),
        "{a:?}"
    );
    let v = Fake { paths: vec![(NodeId(0), 5 * 342)], ..fake() };
    x.timer(NodeId(1), Scheme::AlmRetry, &v, SimTime::ZERO + Dur::from_ms(1000));
    let a = actions(&mut x);
    assert!(
        matches!(
            a[..],
            [
                (_, _, Action::RetryLimitSet(8)),
                (_, _, Action::PeerRetryLimits(Some(_))),
                (_, Scheme::AlmRetry, Action::Timer { .. })
            ]
        ),
        "{a:?}"
    );
    // At the target: nothing to set, the next poll only.
    x.timer(NodeId(1), Scheme::AlmRetry, &v, SimTime::ZERO + Dur::from_ms(2000));
    assert!(matches!(actions(&mut x)[..], [(_, _, Action::Timer { .. })]));
}

#[test]
fn the_arf_window_meters_frames_and_bounds_the_cwnd_on_a_rate_decrease() {
    // Paper 003 III: frames a station sends and overhears go to its meter; a rate change
    // before the first observation slot has ended sets no window; after it, a decrease of the
    // station's own rate caps its sending connection's cwnd (III-C-1) within [1 segment, the
    // buffer] and the windows trace hears of it. Eq. 5-13 themselves: arf_window.rs's tests.
    let (mut x, v) = (CrossLayer::new(3), fake());
    let me = NodeId(1);
    x.install(me, Installed::ArfWindow(Box::new(arf_window::ArfWindow::new(me, Dur::from_ms(100)))));
    assert!(x.reads_frames && x.kinds(me) == TX_DONE | RATE_CHANGED);
    let ms = |t: u64| SimTime::ZERO + Dur::from_ms(t);
    x.mac_event(&done(1, m24()), &v, ms(0)); // its own rate so far: 24 Mbit/s
    for t in 0..10 {
        x.frame_heard(me, TxId(0), &data(1, 0, 2), &v, ms(10 * t)); // its own TCP frames
        x.frame_heard(me, TxId(1), &data(2, 0, 3), &v, ms(10 * t + 5)); // overheard
    }
    let down = MacEvent::RateChanged { node: me, peer: NodeId(0), mode: OFDM_6 };
    x.mac_event(&down, &v, ms(99));
    assert!(actions(&mut x).is_empty(), "no slot has ended: nothing to act on");
    x.frame_heard(me, TxId(0), &data(1, 0, 2), &v, ms(150)); // the first slot ends
    let up = MacEvent::RateChanged { node: me, peer: NodeId(0), mode: m24() };
    x.mac_event(&up, &v, ms(151)); // an increase waits for its first success
    assert!(actions(&mut x).is_empty());
    x.mac_event(&done(1, m24()), &v, ms(152)); // ... which comes: the window follows 6 -> 24
    let a = actions(&mut x);
    let [(_, _, Action::CwndCap { flow, segments }), (_, _, Action::WindowSet { rates, applied, receiving, .. })] =
        a[..]
    else {
        panic!("{a:?}")
    };
    assert_eq!((flow, rates, receiving), (FlowId(0), (OFDM_6, m24()), false));
    assert!((1000..=65_536).contains(&applied) && segments == applied.div_ceil(1000), "{applied} {segments}");
}

/// One ARF-aware window at node 1 fed the same frames as above (its own TCP frames at 24
/// Mbit/s and a neighbour's, for 150 ms), then its rate down to 6 Mbit/s: the actions.
fn arf_window_run(rtt: arf_window::ArfWindowRtt, every_slot: bool) -> Vec<(NodeId, Scheme, Action)> {
    let (mut x, v) = (CrossLayer::new(3), fake());
    let me = NodeId(1);
    let mut w = arf_window::ArfWindow::new(me, Dur::from_ms(100));
    (w.rtt, w.every_slot) = (rtt, every_slot);
    x.install(me, Installed::ArfWindow(Box::new(w)));
    let ms = |t: u64| SimTime::ZERO + Dur::from_ms(t);
    x.mac_event(&done(1, m24()), &v, ms(0));
    for t in 0..10 {
        x.frame_heard(me, TxId(0), &data(1, 0, 2), &v, ms(10 * t));
        x.frame_heard(me, TxId(1), &data(2, 0, 3), &v, ms(10 * t + 5));
    }
    x.frame_heard(me, TxId(0), &data(1, 0, 2), &v, ms(150)); // the first slot ends
    x.mac_event(&MacEvent::RateChanged { node: me, peer: NodeId(0), mode: OFDM_6 }, &v, ms(151));
    actions(&mut x)
}

fn windows_set(a: &[(NodeId, Scheme, Action)]) -> Vec<((ModeId, ModeId), f64)> {
    a.iter()
        .filter_map(|(_, _, act)| match *act {
            Action::WindowSet { rates, wnd_max_bytes, .. } => Some((rates, wnd_max_bytes)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_arf_windows_rtt_is_the_smoothed_the_least_or_the_empty_queues() {
    // Eq. 11 is linear in the RTT: with the least sample (10 ms) the window is 10/50 of the
    // smoothed RTT's (50 ms); with the empty queues' RTT it is (2 ms wired + Eq. 9's T_TCP
    // at 6 Mbit/s) / 50 ms of it.
    use arf_window::ArfWindowRtt as R;
    let one = |r| match windows_set(&arf_window_run(r, false))[..] {
        [((old, new), w)] if old == m24() && new == OFDM_6 => w,
        ref other => panic!("{other:?}"),
    };
    let (smoothed, least, empty) = (one(R::Smoothed), one(R::Min), one(R::Empty));
    assert!(smoothed > 0.0);
    assert!((least / smoothed - 0.2).abs() < 1e-12, "{least} {smoothed}");
    // Eq. 9 at 6 Mbit/s for two 1000-byte segments and their ACK, N = 2 (node 1 and node 2
    // were heard), each frame with TCP/IP 40 + LLC 8 + MAC header + FCS around it.
    let cfg = fake().cfg;
    let overhead = 40 + 8 + cfg.data_header_bytes + 4;
    let x = arf_window::ExchangeTime::of(&cfg, overhead, false);
    let t_tcp_s = x.t_tcp_ns(OFDM_6, 1000, 2, cfg.ack_duration_for(OFDM_6), 2) * 1e-9;
    assert!(t_tcp_s > 2.0 * 1048e-6 * 8.0 / 6.0, "two 1048-byte frames at 6 Mbit/s: {t_tcp_s}");
    assert!((empty / smoothed - (0.002 + t_tcp_s) / 0.05).abs() < 1e-12, "{empty} {smoothed}");
}

#[test]
fn the_arf_window_every_slot_recomputes_at_the_current_rate_when_a_slot_ends() {
    // Off (the paper): the slot's end sets nothing, the decrease sets one window. On: the
    // slot's end sets one at the current rate (24 -> 24), then the decrease its own.
    use arf_window::ArfWindowRtt as R;
    let off = windows_set(&arf_window_run(R::Smoothed, false));
    assert_eq!(off.iter().map(|w| w.0).collect::<Vec<_>>(), vec![(m24(), OFDM_6)]);
    let on = windows_set(&arf_window_run(R::Smoothed, true));
    assert_eq!(on.iter().map(|w| w.0).collect::<Vec<_>>(), vec![(m24(), m24()), (m24(), OFDM_6)]);
    // The decrease's window is the same either way; at the same rate nothing is taken back
    // (Delta- = 0), so that window is the larger.
    assert_eq!(on[1].1, off[0].1);
    assert!(on[0].1 > on[1].1, "{on:?}");
}
