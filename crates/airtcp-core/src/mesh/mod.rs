//! IEEE 802.11s mesh as Linux's open80211s runs it (issue 16, paper 000): built so far, the
//! Airtime Link Metric and the failure average behind it (`metric`). Peering, HWMP and mesh
//! frames are to come.

pub mod metric;
