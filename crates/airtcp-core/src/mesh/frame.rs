//! 802.11s management frames as Linux 3.12 builds them: what a mesh packet carries
//! ([`MeshFrame`]), each frame's size on the air, and its body bytes for pcaps.
//!
//! - HWMP: a Mesh Action frame (category 13, action 1, 802.11-2012 8.5.18.1) holding one PREQ,
//!   PREP or PERR element (8.4.2.115-117), `mesh_path_sel_frame_tx` and
//!   `mesh_path_error_tx`: a 24-byte management header whose BSSID is the sender.
//! - Peering: a Self-protected Action frame (category 15, 8.5.16) built by
//!   `mesh_plink_frame_tx`: Open (capability, rates, Mesh ID, Mesh Configuration, Mesh
//!   Peering Management with the local link ID), Confirm (the AID and the peer's link ID too),
//!   Close (Mesh ID, link IDs and a reason code; sent without waiting for the ACK).
//! - The mesh Beacon (`ieee80211_mesh_build_beacon`): an empty SSID, rates, DS Parameter Set,
//!   TIM, Mesh ID and Mesh Configuration.
//! - On an HT channel the Beacon, Open and Confirm carry HT Capabilities and HT Operation
//!   (`mesh_add_ht_cap_ie`, `mesh_add_ht_oper_ie`).

use super::hwmp::Hwmp;
use super::peering::Peering;
use crate::ids::NodeId;

/// The mesh ID every airtcp mesh point joins (a Mesh ID element of 6 bytes).
pub const MESH_ID: &[u8; 6] = b"airtcp";
/// 24-byte management header + FCS.
const MGMT_OVERHEAD_BYTES: u32 = 24 + 4;
/// Mesh Configuration element body (8.4.2.100): path selection protocol, metric, congestion
/// control, synchronisation, authentication, formation info, capability.
const MESH_CONF_BYTES: u32 = 7;
/// HT Capabilities (8.4.2.58, 2 + 26) and HT Operation (8.4.2.59, 2 + 22) elements.
const HT_ELEMENTS_BYTES: u32 = 28 + 24;

/// What a mesh management packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshFrame {
    Hwmp(Hwmp),
    Peering(Peering),
}

/// Supported Rates and Extended Supported Rates elements for `rates` rates [bytes].
pub fn rates_elements_bytes(rates: usize) -> u32 {
    let n = rates as u32;
    2 + n.min(8) + if n > 8 { 2 + n - 8 } else { 0 }
}

impl MeshFrame {
    /// The whole MPDU [bytes], FCS included, on a channel of `rates` non-HT rates (`ht`: an
    /// HT channel).
    pub fn mpdu_bytes(&self, rates: usize, ht: bool) -> u32 {
        let ids = 2 + MESH_ID.len() as u32;
        let ht_ies = if ht && !matches!(self, MeshFrame::Hwmp(_) | MeshFrame::Peering(Peering::Close)) {
            HT_ELEMENTS_BYTES
        } else {
            0
        };
        ht_ies
            + MGMT_OVERHEAD_BYTES
            + match self {
                // category, action, element header, element body
                MeshFrame::Hwmp(h) => 2 + 2 + h.body_bytes(),
                MeshFrame::Peering(Peering::Open) => {
                    2 + 2 + rates_elements_bytes(rates) + ids + 2 + MESH_CONF_BYTES + 2 + 4
                }
                MeshFrame::Peering(Peering::Confirm) => {
                    2 + 2 + 2 + rates_elements_bytes(rates) + ids + 2 + MESH_CONF_BYTES + 2 + 6
                }
                MeshFrame::Peering(Peering::Close) => 2 + ids + 2 + 8,
            }
    }

    /// Whether the sender waits for the ACK: not for a Close (`IEEE80211_TX_CTL_NO_ACK` in
    /// `mesh_plink_frame_tx`); group-addressed frames never.
    pub fn acked(&self) -> bool {
        !matches!(self, MeshFrame::Peering(Peering::Close))
    }
}

/// The body of a mesh Beacon [bytes] on a channel of `rates` non-HT rates (`dsss_channel`: a
/// 2.4 GHz PHY, with the DS Parameter Set; `ht`: an HT channel): Timestamp 8, Beacon Interval 2,
/// Capability 2, an empty SSID, rates, DS Parameter Set 3, TIM 6, HT elements, Mesh ID, Mesh
/// Configuration.
pub fn beacon_body_bytes(rates: usize, dsss_channel: bool, ht: bool) -> u32 {
    12 + 2
        + rates_elements_bytes(rates)
        + if dsss_channel { 3 } else { 0 }
        + 6
        + if ht { HT_ELEMENTS_BYTES } else { 0 }
        + 2
        + MESH_ID.len() as u32
        + 2
        + MESH_CONF_BYTES
}

/// Append HT Capabilities (nothing announced) and HT Operation (primary channel `channel`).
pub fn ht_elements(buf: &mut Vec<u8>, channel: u8) {
    buf.extend_from_slice(&[45, 26]);
    buf.extend_from_slice(&[0; 26]);
    buf.extend_from_slice(&[61, 22, channel]);
    buf.extend_from_slice(&[0; 21]);
}

/// Six-byte address of a node as the capture writes it.
fn addr(node: NodeId) -> [u8; 6] {
    node.mac_address()
}

/// Append the Mesh ID and Mesh Configuration elements (8.4.2.99, 8.4.2.100: HWMP, airtime
/// metric, no congestion control, neighbour offset synchronisation, no authentication; 3.12
/// announces its peerings count in the formation info and accepts more peerings).
pub fn mesh_id_and_config(buf: &mut Vec<u8>, peerings: u8) {
    buf.extend_from_slice(&[114, MESH_ID.len() as u8]);
    buf.extend_from_slice(MESH_ID);
    buf.extend_from_slice(&[113, MESH_CONF_BYTES as u8, 1, 1, 0, 1, 0, (peerings.min(63)) << 1, 0x01]);
}

/// Append the Supported Rates (and Extended Supported Rates) elements, `rates_500kbps` each in
/// 500 kbit/s units with the basic flag set where asked.
pub fn rates_elements(buf: &mut Vec<u8>, rates_500kbps: &[u8]) {
    let (first, rest) = rates_500kbps.split_at(rates_500kbps.len().min(8));
    buf.extend_from_slice(&[1, first.len() as u8]);
    buf.extend_from_slice(first);
    if !rest.is_empty() {
        buf.extend_from_slice(&[50, rest.len() as u8]);
        buf.extend_from_slice(rest);
    }
}

/// Append the body (after the 24-byte header) of the Action frame `frame` from `src` to
/// `dst`, exactly `mpdu_bytes - 28` long. `rates_500kbps` as in [`rates_elements`];
/// `ht_channel`: the HT channel's primary channel on an HT channel.
pub fn action_body(
    buf: &mut Vec<u8>,
    frame: &MeshFrame,
    (src, dst): (NodeId, NodeId),
    rates_500kbps: &[u8],
    ht_channel: Option<u8>,
) {
    // Link IDs: the sender's and the peer's node index (Linux draws them at random).
    let llid = (src.0 as u16).wrapping_add(1).to_le_bytes();
    let plid = (dst.0 as u16).wrapping_add(1).to_le_bytes();
    match frame {
        MeshFrame::Hwmp(h) => {
            buf.extend_from_slice(&[13, 1]); // Mesh Action, HWMP Mesh Path Selection
            let tu = |d: crate::time::Dur| ((d.ns() / 1_024_000) as u32).to_le_bytes();
            match *h {
                Hwmp::Preq {
                    hop_count,
                    ttl,
                    preq_id,
                    orig,
                    orig_sn,
                    lifetime,
                    metric,
                    target_flags,
                    target,
                    target_sn,
                } => {
                    buf.extend_from_slice(&[130, 37, 0, hop_count, ttl]);
                    buf.extend_from_slice(&preq_id.to_le_bytes());
                    buf.extend_from_slice(&addr(orig));
                    buf.extend_from_slice(&orig_sn.to_le_bytes());
                    buf.extend_from_slice(&tu(lifetime));
                    buf.extend_from_slice(&metric.to_le_bytes());
                    buf.extend_from_slice(&[1, target_flags]);
                    buf.extend_from_slice(&addr(target));
                    buf.extend_from_slice(&target_sn.to_le_bytes());
                }
                Hwmp::Prep { hop_count, ttl, target, target_sn, lifetime, metric, orig, orig_sn } => {
                    buf.extend_from_slice(&[131, 31, 0, hop_count, ttl]);
                    buf.extend_from_slice(&addr(target));
                    buf.extend_from_slice(&target_sn.to_le_bytes());
                    buf.extend_from_slice(&tu(lifetime));
                    buf.extend_from_slice(&metric.to_le_bytes());
                    buf.extend_from_slice(&addr(orig));
                    buf.extend_from_slice(&orig_sn.to_le_bytes());
                }
                Hwmp::Perr { ttl, dest, dest_sn } => {
                    buf.extend_from_slice(&[132, 15, ttl, 1, 0]);
                    buf.extend_from_slice(&addr(dest));
                    buf.extend_from_slice(&dest_sn.to_le_bytes());
                    // Reason (Table 8-36): a relay's "no forwarding information" (62, sequence
                    // number 0), else "destination unreachable" (63, mesh_plink_broken).
                    buf.extend_from_slice(&(if dest_sn == 0 { 62u16 } else { 63 }).to_le_bytes());
                }
            }
        }
        MeshFrame::Peering(p) => {
            let action = match p {
                Peering::Open => 1,
                Peering::Confirm => 2,
                Peering::Close => 3,
            };
            buf.extend_from_slice(&[15, action]); // Self-protected
            if *p != Peering::Close {
                buf.extend_from_slice(&[0, 0]); // capability
                if *p == Peering::Confirm {
                    buf.extend_from_slice(&(dst.0 as u16).wrapping_add(1).to_le_bytes());
                    // AID
                }
                rates_elements(buf, rates_500kbps);
                mesh_id_and_config(buf, 0);
            } else {
                buf.extend_from_slice(&[114, MESH_ID.len() as u8]);
                buf.extend_from_slice(MESH_ID);
            }
            // Mesh Peering Management (8.4.2.104): protocol 0 (MPM), link IDs, reason.
            match p {
                Peering::Open => buf.extend_from_slice(&[117, 4, 0, 0, llid[0], llid[1]]),
                Peering::Confirm => {
                    buf.extend_from_slice(&[117, 6, 0, 0, llid[0], llid[1], plid[0], plid[1]])
                }
                Peering::Close => {
                    buf.extend_from_slice(&[117, 8, 0, 0, llid[0], llid[1], plid[0], plid[1]]);
                    // Reason (Table 8-36) 56, MESH-MAX-RETRIES: the links close after their retries.
                    buf.extend_from_slice(&56u16.to_le_bytes());
                }
            }
            if let (Some(ch), false) = (ht_channel, *p == Peering::Close) {
                ht_elements(buf, ch);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Dur;

    #[test]
    fn frame_sizes_on_an_802_11g_channel() {
        // 12 rates: Supported Rates 2 + 8, Extended 2 + 4. Hand counted from
        // mesh_plink_frame_tx: Open 24 + 2 + 2 + 16 + 8 + 9 + 6 + 4 FCS = 71; Confirm + AID 2
        // + peer link ID 2 = 75; Close 24 + 2 + 8 + 10 + 4 = 48. HWMP: 24 + 4 + element + 4.
        assert_eq!(MeshFrame::Peering(Peering::Open).mpdu_bytes(12, false), 71);
        assert_eq!(MeshFrame::Peering(Peering::Confirm).mpdu_bytes(12, false), 75);
        assert_eq!(MeshFrame::Peering(Peering::Close).mpdu_bytes(12, false), 48);
        // On HT: HT Capabilities 28 and HT Operation 24 more in Open and Confirm only.
        assert_eq!(MeshFrame::Peering(Peering::Open).mpdu_bytes(12, true), 71 + 52);
        assert_eq!(MeshFrame::Peering(Peering::Close).mpdu_bytes(12, true), 48);
        let perr = Hwmp::Perr { ttl: 31, dest: NodeId(2), dest_sn: 4 };
        assert_eq!(MeshFrame::Hwmp(perr).mpdu_bytes(12, true), 32 + 15);
        // The mesh beacon: 12 + 2 + 16 + 3 + 6 + 8 + 9 = 56 bytes of body.
        assert_eq!(beacon_body_bytes(12, true, false), 56);
        assert_eq!(beacon_body_bytes(12, true, true), 56 + 52);
    }

    #[test]
    fn bodies_are_exactly_as_long_as_the_sizes_say() {
        let rates: Vec<u8> = (1..=12).collect();
        let preq = Hwmp::Preq {
            hop_count: 1,
            ttl: 30,
            preq_id: 7,
            orig: NodeId(0),
            orig_sn: 3,
            lifetime: Dur(4882 * 1_024_000),
            metric: 8193,
            target_flags: super::super::hwmp::RF,
            target: NodeId(3),
            target_sn: 0,
        };
        let prep = Hwmp::Prep {
            hop_count: 0,
            ttl: 31,
            target: NodeId(3),
            target_sn: 1,
            lifetime: Dur(4882 * 1_024_000),
            metric: 0,
            orig: NodeId(0),
            orig_sn: 3,
        };
        let perr = Hwmp::Perr { ttl: 31, dest: NodeId(3), dest_sn: 2 };
        let frames = [
            MeshFrame::Hwmp(preq),
            MeshFrame::Hwmp(prep),
            MeshFrame::Hwmp(perr),
            MeshFrame::Peering(Peering::Open),
            MeshFrame::Peering(Peering::Confirm),
            MeshFrame::Peering(Peering::Close),
        ];
        for f in frames {
            for ht in [None, Some(36)] {
                let mut buf = Vec::new();
                action_body(&mut buf, &f, (NodeId(0), NodeId(1)), &rates, ht);
                assert_eq!(buf.len() as u32 + 28, f.mpdu_bytes(12, ht.is_some()), "{f:?}");
            }
        }
    }
}
