//! A congestion window set by an outside agent (`airtcp.gym`; ns3-gym's `TcpRlEnv` likewise
//! sets cwnd each step): the algorithm never grows the window, and a loss keeps it (the new
//! ssthresh is cwnd). Loss recovery and the retransmission timer still run as the connection's
//! `recovery` says; after a timeout cwnd is 1 (Linux `tcp_enter_loss`) until the agent sets it.

use super::{CcState, CongestionOps};

#[derive(Clone, Copy, Debug, Default)]
pub struct Agent;

impl CongestionOps for Agent {
    fn ssthresh(&mut self, s: &CcState) -> u32 {
        s.cwnd.max(2)
    }

    fn cong_avoid(&mut self, _s: &mut CcState, _acked: u32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_and_losses_leave_the_window_to_the_agent() {
        let mut s = CcState::new(1460, 10, 10_000);
        let mut a = Agent;
        for _ in 0..50 {
            a.cong_avoid(&mut s, 1);
        }
        assert_eq!(s.cwnd, 10);
        assert_eq!(a.ssthresh(&s), 10);
    }
}
