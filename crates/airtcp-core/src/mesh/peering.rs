//! The Mesh Peering Management finite state machine as Linux 3.12 runs it
//! (`net/mac80211/mesh_plink.c`: `mesh_plink_open`, `mesh_plink_block`, `mesh_plink_fsm`,
//! `mesh_plink_timer`), one per (mesh point, neighbour), as a pure state machine: the caller
//! puts the Open, Confirm and Close frames it asks for on the air and arms its timer.
//!
//! - Opening: LISTEN -> OPN_SNT (Open sent), or on a neighbour's Open, OPN_RCVD (Open and
//!   Confirm sent); a Confirm after an Open in both directions makes the link ESTAB.
//! - The retry timer (`dot11MeshRetryTimeout` 100 ms) resends the Open up to
//!   `dot11MeshMaxRetries` (3) times, each timeout growing by a random share of itself
//!   (`timeout + rand % timeout`); then HOLDING with a Close. CNF_RCVD waits
//!   `dot11MeshConfirmTimeout` (100 ms) for the neighbour's Confirm, HOLDING
//!   `dot11MeshHoldingTimeout` (100 ms) before LISTEN again.
//! - `iw ... plink_action block` (`mesh_plink_block`): BLOCKED, the link torn down and every
//!   peering frame from the neighbour ignored; an explicit open re-peers (as from LISTEN).
//!   Paper 000 blocks links on both ends to make a chain of nodes that all hear each other.
//!
//! Left out: the link identifiers' checks (one link per neighbour; `OPN_IGNR`, `CNF_IGNR`,
//! `CLS_IGNR` never arise), mesh configuration mismatches (`OPN_RJCT`, `CNF_RJCT`), the
//! limit of 32 peer links, authentication (open mesh).

use crate::time::{Dur, SimTime};

/// `enum nl80211_plink_state`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlinkState {
    #[default]
    Listen,
    OpnSnt,
    OpnRcvd,
    CnfRcvd,
    Estab,
    Holding,
    Blocked,
}

/// A Mesh Peering frame (self-protected action frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peering {
    Open,
    Confirm,
    Close,
}

/// What the link asks of the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerAction {
    Send(Peering),
    /// Call [`PeerLink::on_timer`] at this time (a later call replaces it).
    Timer(SimTime),
    /// The link is ESTAB now.
    Established,
    /// An ESTAB link is gone: its paths are flushed (`__mesh_plink_deactivate`).
    Deactivated,
}

/// The peering timeouts (`net/wireless/mesh.c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeeringParams {
    pub retry_timeout: Dur,
    pub confirm_timeout: Dur,
    pub holding_timeout: Dur,
    pub max_retries: u8,
}

impl PeeringParams {
    pub const LINUX: PeeringParams = PeeringParams {
        retry_timeout: Dur::from_ms(100),
        confirm_timeout: Dur::from_ms(100),
        holding_timeout: Dur::from_ms(100),
        max_retries: 3,
    };
}

/// One peer link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeerLink {
    pub state: PlinkState,
    retries: u8,
    timeout: Dur,
    /// When the armed timer fires (None: not armed); a stale timer is ignored.
    pub timer_at: Option<SimTime>,
}

impl PeerLink {
    pub fn established(&self) -> bool {
        self.state == PlinkState::Estab
    }

    fn arm(&mut self, at: SimTime, out: &mut Vec<PeerAction>) {
        self.timer_at = Some(at);
        out.push(PeerAction::Timer(at));
    }

    /// `mesh_plink_timer_set`: retries and timeout start over.
    fn timer_set(&mut self, timeout: Dur, now: SimTime, out: &mut Vec<PeerAction>) {
        self.retries = 0;
        self.timeout = timeout;
        self.arm(now + timeout, out);
    }

    fn close(&mut self, p: &PeeringParams, now: SimTime, out: &mut Vec<PeerAction>) {
        self.state = PlinkState::Holding;
        self.arm(now + p.holding_timeout, out);
        out.push(PeerAction::Send(Peering::Close));
    }

    /// `mesh_plink_open`: from LISTEN or BLOCKED, send an Open.
    pub fn open(&mut self, p: &PeeringParams, now: SimTime, out: &mut Vec<PeerAction>) {
        if !matches!(self.state, PlinkState::Listen | PlinkState::Blocked) {
            return;
        }
        self.state = PlinkState::OpnSnt;
        self.timer_set(p.retry_timeout, now, out);
        out.push(PeerAction::Send(Peering::Open));
    }

    /// `mesh_plink_block`.
    pub fn block(&mut self, out: &mut Vec<PeerAction>) {
        if self.state == PlinkState::Estab {
            out.push(PeerAction::Deactivated);
        }
        self.state = PlinkState::Blocked;
        self.timer_at = None;
    }

    /// A peering frame from the neighbour (`mesh_rx_plink_frame`, `mesh_plink_fsm`).
    pub fn on_frame(&mut self, frame: Peering, p: &PeeringParams, now: SimTime, out: &mut Vec<PeerAction>) {
        use Peering::*;
        use PlinkState::*;
        match (self.state, frame) {
            (Blocked, _) => {}
            (Listen, Close) => {}
            (Listen, Open) => {
                self.state = OpnRcvd;
                self.timer_set(p.retry_timeout, now, out);
                out.push(PeerAction::Send(Open));
                out.push(PeerAction::Send(Confirm)); // "also send confirm in open case"
            }
            (OpnSnt | OpnRcvd | CnfRcvd, Close) => self.close(p, now, out),
            (OpnSnt, Open) => {
                self.state = OpnRcvd; // the retry timer is left untouched
                out.push(PeerAction::Send(Confirm));
            }
            (OpnSnt, Confirm) => {
                self.state = CnfRcvd;
                self.arm(now + p.confirm_timeout, out);
            }
            (OpnRcvd, Open) => out.push(PeerAction::Send(Confirm)),
            (OpnRcvd, Confirm) => self.establish(out),
            (CnfRcvd, Open) => {
                self.establish(out);
                out.push(PeerAction::Send(Confirm));
            }
            (Estab, Close) => {
                out.push(PeerAction::Deactivated);
                self.close(p, now, out);
            }
            (Estab, Open) => out.push(PeerAction::Send(Confirm)),
            (Holding, Close) => {
                self.state = Listen; // mesh_plink_fsm_restart
                self.timer_at = None;
            }
            (Holding, Open | Confirm) => out.push(PeerAction::Send(Close)),
            (Listen | CnfRcvd | Estab, Confirm) => {}
        }
    }

    fn establish(&mut self, out: &mut Vec<PeerAction>) {
        self.state = PlinkState::Estab;
        self.timer_at = None;
        out.push(PeerAction::Established);
    }

    /// The link's timer at `now` (`mesh_plink_timer`); `rand` is the driver's random draw
    /// for the next retry timeout. A timer that is no longer armed for `now` does nothing.
    pub fn on_timer(&mut self, rand: u32, p: &PeeringParams, now: SimTime, out: &mut Vec<PeerAction>) {
        if self.timer_at != Some(now) {
            return;
        }
        self.timer_at = None;
        match self.state {
            PlinkState::OpnSnt | PlinkState::OpnRcvd if self.retries < p.max_retries => {
                let t = self.timeout.ns().max(1);
                self.timeout = Dur(t + u64::from(rand) % t);
                self.retries += 1;
                self.arm(now + self.timeout, out);
                out.push(PeerAction::Send(Peering::Open));
            }
            PlinkState::OpnSnt | PlinkState::OpnRcvd | PlinkState::CnfRcvd => self.close(p, now, out),
            PlinkState::Holding => self.state = PlinkState::Listen,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: PeeringParams = PeeringParams::LINUX;

    fn ms(v: u64) -> SimTime {
        SimTime::ZERO + Dur::from_ms(v)
    }

    fn sent(out: &[PeerAction]) -> Vec<Peering> {
        out.iter().filter_map(|a| if let PeerAction::Send(f) = a { Some(*f) } else { None }).collect()
    }

    /// Deliver each frame of `out` (from one end) to the other, returning what that sends.
    fn deliver(to: &mut PeerLink, out: &[PeerAction], now: SimTime) -> Vec<PeerAction> {
        let mut back = Vec::new();
        for f in sent(out) {
            to.on_frame(f, &P, now, &mut back);
        }
        back
    }

    #[test]
    fn an_open_answered_by_a_listening_neighbour_establishes_both_ends() {
        let (mut a, mut b) = (PeerLink::default(), PeerLink::default());
        let mut out = Vec::new();
        a.open(&P, ms(0), &mut out);
        assert_eq!((a.state, sent(&out)), (PlinkState::OpnSnt, vec![Peering::Open]));
        // B (LISTEN) answers the Open with its own Open and a Confirm.
        let b_out = deliver(&mut b, &out, ms(1));
        assert_eq!((b.state, sent(&b_out)), (PlinkState::OpnRcvd, vec![Peering::Open, Peering::Confirm]));
        // A: the Open makes it OPN_RCVD (a Confirm back), the Confirm ESTAB.
        let a_out = deliver(&mut a, &b_out, ms(2));
        assert_eq!(sent(&a_out), vec![Peering::Confirm]);
        assert!(a.established() && a_out.contains(&PeerAction::Established));
        deliver(&mut b, &a_out, ms(3));
        assert!(b.established() && a.timer_at.is_none() && b.timer_at.is_none());
    }

    #[test]
    fn simultaneous_opens_establish_with_four_frames() {
        let (mut a, mut b) = (PeerLink::default(), PeerLink::default());
        let (mut oa, mut ob) = (Vec::new(), Vec::new());
        a.open(&P, ms(0), &mut oa);
        b.open(&P, ms(0), &mut ob);
        let a2 = deliver(&mut a, &ob, ms(1)); // OPN_SNT + Open -> OPN_RCVD, Confirm
        let b2 = deliver(&mut b, &oa, ms(1));
        assert_eq!((a.state, b.state), (PlinkState::OpnRcvd, PlinkState::OpnRcvd));
        deliver(&mut a, &b2, ms(2));
        deliver(&mut b, &a2, ms(2));
        assert!(a.established() && b.established());
        assert_eq!(sent(&oa).len() + sent(&ob).len() + sent(&a2).len() + sent(&b2).len(), 4);
    }

    #[test]
    fn a_blocked_neighbour_ignores_the_opens_which_retry_three_times_then_hold() {
        let (mut a, mut b) = (PeerLink::default(), PeerLink::default());
        let mut out = Vec::new();
        b.block(&mut out);
        assert!(out.is_empty() && b.state == PlinkState::Blocked);
        a.open(&P, ms(0), &mut out);
        assert!(deliver(&mut b, &out, ms(1)).is_empty());
        // Retries with rand = 50 ms each: 100, then 150, 225, 337.5 ms.
        let mut opens = 1;
        let mut t = ms(100);
        let mut waits = Vec::new();
        loop {
            let mut o = Vec::new();
            a.on_timer(50_000_000, &P, t, &mut o);
            opens += sent(&o).iter().filter(|f| **f == Peering::Open).count();
            let next = a.timer_at.expect("armed");
            waits.push((next.ns() - t.ns()) / 100_000);
            if a.state == PlinkState::Holding {
                assert_eq!(sent(&o), vec![Peering::Close]);
                break;
            }
            t = next;
        }
        assert_eq!(opens, 4); // the first and dot11MeshMaxRetries = 3 more
        assert_eq!(waits, [1500, 2000, 2500, 1000]); // x 0.1 ms: +50 ms each, then holding 100 ms
        let mut o = Vec::new();
        a.on_timer(0, &P, a.timer_at.unwrap(), &mut o);
        assert_eq!(a.state, PlinkState::Listen);
        // An explicit open re-peers a blocked link (mesh_plink_open from BLOCKED).
        let mut o = Vec::new();
        b.open(&P, ms(2000), &mut o);
        assert_eq!(b.state, PlinkState::OpnSnt);
    }

    #[test]
    fn a_close_tears_an_established_link_down_through_holding() {
        let (mut a, mut b) = (PeerLink::default(), PeerLink::default());
        let mut out = Vec::new();
        a.open(&P, ms(0), &mut out);
        let b_out = deliver(&mut b, &out, ms(1));
        let a_out = deliver(&mut a, &b_out, ms(2));
        deliver(&mut b, &a_out, ms(3));
        assert!(a.established() && b.established());
        // Blocking B after the fact deactivates it; A learns nothing until frames say so.
        let mut o = Vec::new();
        b.block(&mut o);
        assert_eq!(o, [PeerAction::Deactivated]);
        // A Close to an established A: deactivated, HOLDING, a Close back; a stale timer of an
        // earlier state does nothing; the holding timer returns it to LISTEN.
        let mut o = Vec::new();
        a.on_frame(Peering::Close, &P, ms(10), &mut o);
        assert_eq!(
            o,
            [PeerAction::Deactivated, PeerAction::Timer(ms(110)), PeerAction::Send(Peering::Close)]
        );
        a.on_timer(0, &P, ms(100), &mut o);
        assert_eq!(a.state, PlinkState::Holding);
        a.on_timer(0, &P, ms(110), &mut o);
        assert_eq!(a.state, PlinkState::Listen);
    }
}
