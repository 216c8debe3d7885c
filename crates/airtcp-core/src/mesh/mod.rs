//! IEEE 802.11s mesh as Linux's open80211s runs it (issue 16, paper 000): built so far, the
//! Airtime Link Metric and the failure average behind it (`metric`) and HWMP's on-demand path
//! selection as a pure state machine per mesh point (`hwmp`), and the peering state machine
//! per neighbour with link blocking (`peering`). Mesh frames and the world's glue (peering and
//! HWMP frames on the air, routing by HWMP) are to come.

pub mod frame;
pub mod hwmp;
pub mod metric;
pub mod peering;
