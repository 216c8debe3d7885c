//! Capture headers for pcap export (docs/pcap.md): the bytes a sniffer would record for each
//! frame, headers only. Python (`airtcp.pcap`) zero-fills the payload up to the snap length,
//! appends the FCS of frames captured whole and writes the files.
//!
//! A wireless record is radiotap + 802.11 MAC header + LLC/SNAP + IPv4 + TCP/UDP; a wired one
//! is IPv4 + TCP/UDP (LINKTYPE_RAW). Header lengths equal what the core accounts for, so the
//! frame lengths in the capture are airtcp's MPDU and IP packet sizes.

use crate::ids::{FlowId, NodeId};
use crate::mac::frame::{Frame, FrameKind};
use crate::net::Packet;
use crate::phy::{Modulation, Preamble, Standard, TxVector};
use crate::spec::Role;
use crate::tcp::conn::{
    Recovery, Segment, TcpParams, ACK, CDO_OPTION_BYTES, CNO_OPTION_BYTES, FIN, OPT_CDO, OPT_CNO, SYN,
};

/// Bytes of the radiotap header written here: 8-byte header + Flags + Rate + Channel.
pub const RADIOTAP_BYTES: u16 = 14;
/// BSSID of an independent (ad hoc) BSS: locally administered, individual (9.2.4.3.4).
pub const IBSS_BSSID: [u8; 6] = [0x02, 0, 0, 0, 0, 0];
/// Port of every TCP flow's receiver (iperf's; Wireshark 4.0 has no dissector on TCP 5001).
pub const TCP_RECEIVER_PORT: u16 = 5001;
/// Port of every UDP (and CLAP) flow's receiver: RFC 863 discard, a data sink. UDP 5001 is
/// Wireshark's CPFI, which calls 1- and 2-byte payloads malformed; UDP 9 is plain data to
/// Wireshark 4.0 (checked with tshark 4.0.17) and "Discard" to later ones (packet-discard.c).
pub const UDP_RECEIVER_PORT: u16 = 9;
/// Senders use 49152 + flow index (RFC 6335 dynamic range).
pub const SENDER_PORT_BASE: u16 = 49152;
/// Interface index of the wireless interface in the frames trace; wired link k is k + 1.
pub const WLAN_IFACE: u32 = 0;

/// Locally administered unicast MAC of a node ([`NodeId::mac_address`]).
pub fn mac_address(node: NodeId) -> [u8; 6] {
    node.mac_address()
}

/// Radiotap header with Flags, Rate and Channel (little endian, fields aligned to their size);
/// an HT PPDU has MCS in place of Rate (17 bytes), and a subframe of an A-MPDU (`ampdu`: its
/// reference number and whether it is the last) the A-MPDU status too (28 bytes).
pub fn radiotap(buf: &mut Vec<u8>, standard: Standard, txv: &TxVector, ampdu: Option<(u32, bool)>) {
    match txv.mode.modulation() {
        Modulation::Ht { mcs, width40, sgi } => {
            return radiotap_ht(buf, standard, (mcs, width40, sgi), ampdu)
        }
        m @ (Modulation::Vht(_) | Modulation::He(_)) => return radiotap_vht_he(buf, standard, m, ampdu),
        _ => {}
    }
    // radiotap: https://www.radiotap.org/ : it_version 0, it_pad, it_len, it_present
    buf.extend_from_slice(&[0, 0]);
    buf.extend_from_slice(&RADIOTAP_BYTES.to_le_bytes());
    // radiotap: present bits 1 Flags, 2 Rate, 3 Channel
    buf.extend_from_slice(&0x0000_000e_u32.to_le_bytes());
    let dsss = matches!(txv.mode.modulation(), Modulation::Dsss { .. });
    let rate = txv.mode.rate_kbps();
    // radiotap: https://www.radiotap.org/fields/Flags 0x10 FCS at end, 0x02 short preamble
    let short = dsss && rate > 1000 && txv.preamble == Preamble::Short;
    buf.push(0x10 | if short { 0x02 } else { 0 });
    // radiotap: https://www.radiotap.org/fields/Rate in 500 kbit/s units
    buf.push((rate / 500) as u8);
    // radiotap: https://www.radiotap.org/fields/Channel 0x0080 2 GHz, 0x0100 5 GHz,
    // 0x0020 CCK, 0x0040 OFDM, 0x0400 dynamic CCK-OFDM; channel 1 = 2412 MHz, 36 = 5180 MHz
    let (freq, flags) = channel(standard);
    buf.extend_from_slice(&freq.to_le_bytes());
    buf.extend_from_slice(&flags.to_le_bytes());
}

/// Radiotap Channel field: frequency [MHz] and flags (0x0080 2 GHz, 0x0100 5 GHz, 0x0020 CCK,
/// 0x0040 OFDM, 0x0400 dynamic CCK-OFDM); channel 1 = 2412 MHz, 36 = 5180 MHz.
fn channel(standard: Standard) -> (u16, u16) {
    match standard {
        Standard::A => (5180, 0x0100 | 0x0040),
        Standard::B => (2412, 0x0080 | 0x0020),
        Standard::G => (2412, 0x0080 | 0x0400),
        Standard::N(c) if c.band == crate::phy::Band::Ghz5 => (5180, 0x0100 | 0x0040),
        Standard::N(_) => (2412, 0x0080 | 0x0040),
        Standard::Ac(_) => (5180, 0x0100 | 0x0040),
        Standard::Ax(c) if c.band == crate::phy::Band::Ghz5 => (5180, 0x0100 | 0x0040),
        Standard::Ax(_) => (2412, 0x0080 | 0x0040),
    }
}

/// Radiotap length of a VHT or HE PPDU's header: 8 + Flags 1 + pad 1 + Channel 4 + VHT or HE
/// 12; with the A-MPDU status: + pad 2 (to its 4-byte alignment) + 8.
pub const RADIOTAP_VHT_HE_BYTES: u16 = 26;
pub const RADIOTAP_VHT_HE_AMPDU_BYTES: u16 = 36;

/// Radiotap header of a VHT or HE single-user PPDU: Flags, Channel, the A-MPDU status of a
/// subframe, and the VHT field (https://www.radiotap.org/fields/VHT: known = STBC 0x0001
/// (none), guard interval 0x0004 and bandwidth 0x0040; flags bit 2 short GI; bandwidth 0, 1,
/// 4, 11 for 20-160 MHz; per user MCS << 4 | NSS; coding 0 = BCC) or the HE field
/// (https://www.radiotap.org/fields/HE: data1 = HE_SU format with data MCS, coding and
/// bandwidth known; data2 = GI known; data3 = MCS << 8 and LDPC 0x2000; data5 = bandwidth
/// 0-3 and GI 0-2 << 4; data6 = NSTS).
fn radiotap_vht_he(buf: &mut Vec<u8>, standard: Standard, m: Modulation, ampdu: Option<(u32, bool)>) {
    buf.extend_from_slice(&[0, 0]);
    let len = if ampdu.is_some() { RADIOTAP_VHT_HE_AMPDU_BYTES } else { RADIOTAP_VHT_HE_BYTES };
    buf.extend_from_slice(&len.to_le_bytes());
    // present bits 1 Flags, 3 Channel (20 A-MPDU status), 21 VHT or 23 HE
    let field = if matches!(m, Modulation::Vht(_)) { 0x0020_0000_u32 } else { 0x0080_0000 };
    let present = 0x0000_000a_u32 | field | if ampdu.is_some() { 0x0010_0000 } else { 0 };
    buf.extend_from_slice(&present.to_le_bytes());
    buf.extend_from_slice(&[0x10, 0]); // Flags: FCS at end; pad to Channel's 2-byte alignment
    let (freq, flags) = channel(standard);
    buf.extend_from_slice(&freq.to_le_bytes());
    buf.extend_from_slice(&flags.to_le_bytes());
    if let Some((reference, last)) = ampdu {
        buf.extend_from_slice(&[0, 0]); // to the A-MPDU status's 4-byte alignment
        buf.extend_from_slice(&reference.to_le_bytes());
        buf.extend_from_slice(&(0x0004_u16 | if last { 0x0008 } else { 0 }).to_le_bytes());
        buf.extend_from_slice(&[0, 0]);
    }
    let width_code = |w: u16| match w {
        20 => 0u16,
        40 => 1,
        80 => 2,
        _ => 3,
    };
    match m {
        Modulation::Vht(v) => {
            buf.extend_from_slice(&0x0045_u16.to_le_bytes()); // STBC (none), GI, bandwidth known
            buf.push(if v.sgi { 0x04 } else { 0 });
            buf.push(match v.width_mhz {
                20 => 0,
                40 => 1,
                80 => 4,
                _ => 11,
            });
            buf.extend_from_slice(&[v.mcs << 4 | v.nss, 0, 0, 0]);
            buf.extend_from_slice(&[0, 0, 0, 0]); // coding (BCC), group id, partial AID
        }
        Modulation::He(h) => {
            let gi = match h.gi_ns {
                800 => 0u16,
                1600 => 1,
                _ => 2,
            };
            let data = [
                0x0020_u16 | 0x0080 | 0x4000,   // format HE_SU (0); data MCS, coding, BW known
                0x0002,                         // GI known
                u16::from(h.mcs) << 8 | 0x2000, // MCS; LDPC
                0,
                width_code(h.width_mhz) | gi << 4,
                u16::from(h.nss),
            ];
            for d in data {
                buf.extend_from_slice(&d.to_le_bytes());
            }
        }
        _ => unreachable!("VHT or HE"),
    }
}

/// Radiotap length of an HT PPDU's header: 8 + Flags 1 + pad 1 + Channel 4 + MCS 3; with the
/// A-MPDU status: + pad 3 (to its 4-byte alignment) + 8.
pub const RADIOTAP_HT_BYTES: u16 = 17;
pub const RADIOTAP_HT_AMPDU_BYTES: u16 = 28;

/// Radiotap header of an HT PPDU: Flags, Channel and MCS (https://www.radiotap.org/fields/MCS:
/// known = bandwidth, MCS index, guard interval, HT format, FEC type, STBC and Ness (0x7f);
/// flags bits 0-1 the bandwidth (1 = 40 MHz), bit 2 short GI, bit 3 greenfield (0: HT-mixed),
/// bit 4 LDPC (0: BCC), bits 5-6 STBC streams (0) and bit 7 Ness (0); the MCS index).
fn radiotap_ht(
    buf: &mut Vec<u8>,
    standard: Standard,
    (mcs, width40, sgi): (u8, bool, bool),
    ampdu: Option<(u32, bool)>,
) {
    buf.extend_from_slice(&[0, 0]);
    let len = if ampdu.is_some() { RADIOTAP_HT_AMPDU_BYTES } else { RADIOTAP_HT_BYTES };
    buf.extend_from_slice(&len.to_le_bytes());
    // present bits 1 Flags, 3 Channel, 19 MCS (and 20 A-MPDU status)
    let present = 0x0008_000a_u32 | if ampdu.is_some() { 0x0010_0000 } else { 0 };
    buf.extend_from_slice(&present.to_le_bytes());
    buf.extend_from_slice(&[0x10, 0]); // Flags: FCS at end; pad to Channel's 2-byte alignment
    let (freq, flags) = channel(standard);
    buf.extend_from_slice(&freq.to_le_bytes());
    buf.extend_from_slice(&flags.to_le_bytes());
    buf.extend_from_slice(&[0x7f, u8::from(width40) | u8::from(sgi) << 2, mcs]);
    if let Some((reference, last)) = ampdu {
        // https://www.radiotap.org/fields/A-MPDU%20status: reference number, flags (0x0004
        // last subframe known, 0x0008 this is the last), delimiter CRC, reserved.
        buf.extend_from_slice(&[0, 0, 0]);
        buf.extend_from_slice(&reference.to_le_bytes());
        buf.extend_from_slice(&(0x0004_u16 | if last { 0x0008 } else { 0 }).to_le_bytes());
        buf.extend_from_slice(&[0, 0]);
    }
}

/// ToDS, FromDS and BSSID of a data frame from `src` to `dst` (IEEE 802.11-2016 Table 9-26).
pub fn ds_bits(src: (NodeId, Role), dst: (NodeId, Role), bss_ap: Option<NodeId>) -> (bool, bool, [u8; 6]) {
    match (src.1, dst.1) {
        (Role::Sta, Role::Ap) => (true, false, mac_address(dst.0)),
        (Role::Ap, Role::Sta) => (false, true, mac_address(src.0)),
        _ => (false, false, bss_ap.map_or(IBSS_BSSID, mac_address)),
    }
}

/// The 802.11 MAC header of `frame` (no FCS). `ds` is (ToDS, FromDS, BSSID) for data frames;
/// `four_address`: data frames use the four-address format (ToDS and FromDS set, Address 4).
/// `ba_bitmap`: a BlockAck's bitmap (its sender's `Wifi::block_ack_bitmap`). A QoS data
/// header of [`MESH_DATA_HEADER_BYTES`] is a mesh data frame's: four addresses, QoS Control
/// with Mesh Control Present, and the Mesh Control field.
pub fn mac_header(
    buf: &mut Vec<u8>,
    frame: &Frame,
    qos: bool,
    ds: (bool, bool, [u8; 6]),
    four_address: bool,
    ba_bitmap: crate::mac::ht::blockack::Bitmap,
) {
    mac_header_mesh(buf, frame, qos, ds, four_address, false, ba_bitmap)
}

/// QoS data header with four addresses and the 6-byte Mesh Control (9.2.4.7.3) [bytes]: 32 +
/// 6; with LLC/SNAP and the FCS a 1500-byte IP packet is a 1550-byte MPDU (Linux mesh).
pub const MESH_DATA_HEADER_BYTES: u32 = 38;

/// [`mac_header`], with the mesh data frame's fields when `mesh`.
pub fn mac_header_mesh(
    buf: &mut Vec<u8>,
    frame: &Frame,
    qos: bool,
    ds: (bool, bool, [u8; 6]),
    four_address: bool,
    mesh: bool,
    ba_bitmap: crate::mac::ht::blockack::Bitmap,
) {
    let four = (four_address || mesh) && frame.kind == FrameKind::Data;
    let mesh = mesh && qos && frame.kind == FrameKind::Data;
    let ds = if four { (true, true, ds.2) } else { ds };
    // IEEE 802.11-2016 9.2.4.1.3 Table 9-1: type/subtype in FC octet 0 (version 0)
    let fc0: u8 = match frame.kind {
        FrameKind::Data if qos => 0x88, // type 2 subtype 8: QoS Data
        FrameKind::Data => 0x08,        // type 2 subtype 0: Data
        FrameKind::Rts => 0xb4,         // type 1 subtype 11
        FrameKind::Cts => 0xc4,         // type 1 subtype 12
        FrameKind::Ack => 0xd4,         // type 1 subtype 13
        FrameKind::Beacon => 0x80,      // type 0 subtype 8
        FrameKind::BlockAckReq => 0x84, // type 1 subtype 8
        FrameKind::BlockAck => 0x94,    // type 1 subtype 9
        FrameKind::Action => 0xd0,      // type 0 subtype 13
    };
    // IEEE 802.11-2016 9.2.4.1.1: FC octet 1 bit 0 To DS, bit 1 From DS, bit 3 Retry
    let fc1 = match frame.kind {
        FrameKind::Data => u8::from(ds.0) | u8::from(ds.1) << 1 | u8::from(frame.retry) << 3,
        FrameKind::Action => u8::from(frame.retry) << 3,
        _ => 0,
    };
    buf.extend_from_slice(&[fc0, fc1]);
    // IEEE 802.11-2016 9.2.4.2: Duration in microseconds (rounded up), at most 32767
    let dur = frame.nav.ns().div_ceil(1000).min(32767) as u16;
    buf.extend_from_slice(&dur.to_le_bytes());
    let (ta, ra) = (mac_address(frame.src), mac_address(frame.dst));
    match frame.kind {
        // IEEE 802.11-2016 9.3.1.3 ACK, 9.3.1.3 CTS: Address 1 = RA only
        FrameKind::Ack | FrameKind::Cts => buf.extend_from_slice(&ra),
        // IEEE 802.11-2016 9.3.1.2 RTS: RA, TA
        FrameKind::Rts => {
            buf.extend_from_slice(&ra);
            buf.extend_from_slice(&ta);
        }
        // IEEE 802.11-2016 9.3.1.8 / 9.3.1.9 compressed BlockAckReq and BlockAck: RA, TA,
        // BAR/BA Control (bit 2 Compressed Bitmap, bits 12-15 TID), Starting Sequence Control,
        // and the BlockAck's 8-byte bitmap, or 32 bytes for a 256-MPDU window (802.11ax-2021
        // 9.3.1.8.2: the Fragment Number subfield's B2 set).
        FrameKind::BlockAckReq | FrameKind::BlockAck => {
            buf.extend_from_slice(&ra);
            buf.extend_from_slice(&ta);
            let control = 0x0004_u16 | u16::from(crate::mac::ht::tid_of_ac(frame.ac)) << 12;
            buf.extend_from_slice(&control.to_le_bytes());
            let wide =
                frame.kind == FrameKind::BlockAck && frame.bytes > crate::mac::ht::blockack::BLOCK_ACK_BYTES;
            let fragment = if wide { 0b0100 } else { 0 };
            buf.extend_from_slice(&((frame.seq & 0x0fff) << 4 | fragment).to_le_bytes());
            if frame.kind == FrameKind::BlockAck {
                buf.extend(ba_bitmap.octets(if wide { 256 } else { 64 }));
            }
        }
        // IEEE 802.11-2016 9.3.3.2 management frame: DA (broadcast), SA, BSSID (the AP itself;
        // a mesh point's own address in its Beacons and Action frames, mesh_path_sel_frame_tx)
        FrameKind::Beacon | FrameKind::Action => {
            buf.extend_from_slice(&ra);
            buf.extend_from_slice(&ta);
            buf.extend_from_slice(&ta);
            buf.extend_from_slice(&((frame.seq & 0x0fff) << 4).to_le_bytes());
        }
        FrameKind::Data => {
            // IEEE 802.11-2016 Table 9-26: each hop's L2 source/destination are TA/RA
            let (to, from, bssid) = ds;
            let a3 = match (to, from) {
                (true, false) => ra, // DA: the AP routes the packet on
                (false, true) => ta, // SA: the AP itself
                (true, true) => ra,  // Table 9-26, both set: A3 = DA (this hop's)
                _ => bssid,
            };
            let a1 = if to && !from { bssid } else { ra };
            let a2 = if from && !to { bssid } else { ta };
            buf.extend_from_slice(&a1);
            buf.extend_from_slice(&a2);
            buf.extend_from_slice(&a3);
            // IEEE 802.11-2016 9.2.4.4: Sequence Control = sequence number << 4 | fragment 0
            buf.extend_from_slice(&((frame.seq & 0x0fff) << 4).to_le_bytes());
            if four {
                buf.extend_from_slice(&ta); // Address 4: SA (this hop's)
            }
            if qos {
                // IEEE 802.11-2016 9.2.4.5.2: TID = user priority; 10.2.4.2 Table 10-1 AC -> UP
                const UP: [u8; 4] = [1, 0, 5, 6]; // BK, BE, VI, VO
                                                  // 9.2.4.5.1: bit 8, Mesh Control Present, in a mesh BSS.
                buf.extend_from_slice(&[UP[usize::from(frame.ac & 3)], u8::from(mesh)]);
            }
            if mesh {
                // 9.2.4.7.3 Mesh Control: flags (no address extension), Mesh TTL
                // (dot11MeshTTL 31), Mesh Sequence Number (here the frame's sequence number).
                buf.extend_from_slice(&[0, 31]);
                buf.extend_from_slice(&u32::from(frame.seq).to_le_bytes());
            }
        }
    }
}

/// A Beacon's body (9.3.3.2), exactly `frame::beacon_body_bytes` long: Timestamp (the TSF,
/// here the simulated time in us), Beacon Interval [TU], Capability (ESS), SSID, Supported
/// Rates in 500 kbit/s units with the basic rate flagged (9.4.2.3), Extended Supported Rates
/// beyond 8, DS Parameter Set on 2.4 GHz (channel 1, as the radiotap header), TIM (DTIM count
/// 0, period 1, no buffered traffic).
pub fn beacon_body(buf: &mut Vec<u8>, standard: Standard, basic_kbps: u32, tsf_us: u64, interval_tu: u16) {
    buf.extend_from_slice(&tsf_us.to_le_bytes());
    buf.extend_from_slice(&interval_tu.to_le_bytes());
    buf.extend_from_slice(&0x0001_u16.to_le_bytes()); // 9.4.1.4: ESS
    buf.extend_from_slice(&[0, crate::mac::frame::SSID.len() as u8]);
    buf.extend_from_slice(crate::mac::frame::SSID);
    // 9.4.2.3 Supported Rates, 9.4.2.13 Extended Supported Rates
    crate::mesh::frame::rates_elements(buf, &rates_500kbps(standard, basic_kbps));
    if standard.legacy() != Standard::A {
        buf.extend_from_slice(&[3, 1, 1]); // 9.4.2.4 DS Parameter Set: channel 1
    }
    buf.extend_from_slice(&[5, 4, 0, 1, 0, 0]); // 9.4.2.6 TIM
}

/// The standard's rates in 500 kbit/s units, `basic_kbps` flagged basic (9.4.2.3).
pub fn rates_500kbps(standard: Standard, basic_kbps: u32) -> Vec<u8> {
    standard.rates_kbps().map(|k| (k / 500) as u8 | if k == basic_kbps { 0x80 } else { 0 }).collect()
}

/// A mesh Beacon's body, exactly `mesh::frame::beacon_body_bytes` long, in the order
/// `ieee80211_mesh_build_beacon` and `ieee80211_beacon_get` give it: Timestamp, Beacon
/// Interval, Capability (neither ESS nor IBSS), the wildcard SSID, Supported Rates, DS
/// Parameter Set (2.4 GHz), TIM, Extended Supported Rates, HT Capabilities and HT Operation
/// (802.11n), Mesh ID, Mesh Configuration.
pub fn mesh_beacon_body(
    buf: &mut Vec<u8>,
    standard: Standard,
    basic_kbps: u32,
    tsf_us: u64,
    interval_tu: u16,
) {
    buf.extend_from_slice(&tsf_us.to_le_bytes());
    buf.extend_from_slice(&interval_tu.to_le_bytes());
    buf.extend_from_slice(&[0, 0, 0, 0]); // capability; SSID element of length 0
    let rates = rates_500kbps(standard, basic_kbps);
    let (first, rest) = rates.split_at(rates.len().min(8));
    buf.extend_from_slice(&[1, first.len() as u8]);
    buf.extend_from_slice(first);
    if standard.legacy() != Standard::A {
        buf.extend_from_slice(&[3, 1, 1]);
    }
    buf.extend_from_slice(&[5, 4, 0, 1, 0, 0]);
    if !rest.is_empty() {
        buf.extend_from_slice(&[50, rest.len() as u8]);
        buf.extend_from_slice(rest);
    }
    if let Some(ch) = ht_channel(standard) {
        crate::mesh::frame::ht_elements(buf, ch);
    }
    crate::mesh::frame::mesh_id_and_config(buf, 0);
}

/// The primary channel an HT channel announces (the radiotap header's: 1 or 36); None off HT.
pub(crate) fn ht_channel(standard: Standard) -> Option<u8> {
    standard.ht().map(|c| if c.band == crate::phy::Band::Ghz5 { 36 } else { 1 })
}

/// RFC 1042 LLC/SNAP header of an IPv4 packet.
pub fn llc_snap(buf: &mut Vec<u8>) {
    // RFC 1042: DSAP AA, SSAP AA, UI 03, OUI 00-00-00, EtherType 0x0800
    buf.extend_from_slice(&[0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00]);
}

/// One's complement sum of 16-bit big-endian words (RFC 1071), not yet complemented.
fn sum16(bytes: &[u8], mut acc: u32) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        acc += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [last] = chunks.remainder() {
        acc += u32::from(*last) << 8;
    }
    acc
}

fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// RFC 791 / RFC 1071 header checksum of an IPv4 header whose checksum field is zero.
pub fn ipv4_checksum(header: &[u8]) -> u16 {
    fold(sum16(header, 0))
}

/// How a TCP flow's headers look on the wire.
#[derive(Clone, Copy, Debug)]
pub struct TcpWire {
    pub timestamps: bool,
    pub sack_permitted: bool,
    pub mss: u16,
    /// RFC 7323 window scale shift, announced on the SYN and used by both ends.
    pub wscale: u8,
    /// Window the data sender advertises (the core does not model it: it never receives data).
    pub sender_window: u32,
}

impl TcpWire {
    pub fn of(p: &TcpParams) -> TcpWire {
        let buf = p.rcv_buf.max(1);
        // RFC 7323 2.3: the smallest shift that fits the buffer in 16 bits, at most 14
        let wscale = (0..14u8).find(|s| buf >> s <= 0xffff).unwrap_or(14);
        TcpWire {
            timestamps: p.timestamps,
            sack_permitted: p.recovery == Recovery::Sack,
            mss: p.mss.min(0xffff) as u16,
            wscale,
            sender_window: p.rcv_buf,
        }
    }
}

/// Ports of a flow's packet: the sender's end is 49152 + flow, the receiver's 5001 (TCP) or
/// 9 (UDP).
pub fn ports(flow: FlowId, tcp: bool, from_sender: bool) -> (u16, u16) {
    let s = SENDER_PORT_BASE.wrapping_add((flow.0 % 16384) as u16);
    let r = if tcp { TCP_RECEIVER_PORT } else { UDP_RECEIVER_PORT };
    if from_sender {
        (s, r)
    } else {
        (r, s)
    }
}

/// RFC 6994 experimental TCP option kind (RFC 4727 assigns 253 and 254 to experiments).
pub const EXPERIMENTAL_OPTION_KIND: u8 = 253;
/// The 16-bit experiment identifiers airtcp gives paper 004's options (RFC 6994 section 3;
/// draft-welzl-tcp-corruption-00 predates ExIDs and registered none).
pub const CDO_EXID: u16 = 0xCD01;
pub const CNO_EXID: u16 = 0xC701;

/// The CDO's CRC32c (RFC 3309's Castagnoli polynomial, as SCTP) over the fields a corrupt
/// segment needs intact (paper 004 II-A): source and destination address, ports, sequence and
/// acknowledgment numbers, the CWR, ECE, ACK, RST, SYN and FIN bits (URG and PSH masked) and
/// the IP ECN field, in that order as they appear on the wire.
pub fn cdo_crc32c(
    src: [u8; 4],
    dst: [u8; 4],
    ports: (u16, u16),
    seq: u32,
    ack: u32,
    flags: u8,
    ecn: u8,
) -> u32 {
    let mut covered = [0u8; 22];
    covered[0..4].copy_from_slice(&src);
    covered[4..8].copy_from_slice(&dst);
    covered[8..10].copy_from_slice(&ports.0.to_be_bytes());
    covered[10..12].copy_from_slice(&ports.1.to_be_bytes());
    covered[12..16].copy_from_slice(&seq.to_be_bytes());
    covered[16..20].copy_from_slice(&ack.to_be_bytes());
    covered[20] = flags & 0xd7; // CWR ECE . ACK . RST SYN FIN
    covered[21] = ecn & 0x03;
    crc32c::crc32c(&covered)
}

/// TCP options exactly as long as `Segment::ip_bytes` accounts for them; `cdo_crc` is the
/// CDO's CRC32c when the segment carries one.
fn tcp_options(buf: &mut Vec<u8>, seg: &Segment, w: &TcpWire, cdo_crc: u32) {
    const NOP: u8 = 1;
    // RFC 7323 3.2: kind 8, length 10, TSval, TSecr (here in microseconds)
    let ts = |buf: &mut Vec<u8>| {
        buf.extend_from_slice(&[8, 10]);
        buf.extend_from_slice(&((seg.ts_val / 1000) as u32).to_be_bytes());
        buf.extend_from_slice(&((seg.ts_ecr / 1000) as u32).to_be_bytes());
    };
    if seg.flags & SYN != 0 {
        // Linux tcp_output.c tcp_options_write, as long as conn.rs syn_option_bytes:
        // RFC 9293 3.2: MSS kind 2 length 4
        buf.extend_from_slice(&[2, 4]);
        buf.extend_from_slice(&w.mss.to_be_bytes());
        // RFC 2018 2: SACK-permitted kind 4 length 2; Linux puts it before TS, else NOP NOP
        const SACK_PERM: [u8; 2] = [4, 2];
        match (w.timestamps, w.sack_permitted) {
            (true, sack) => {
                buf.extend_from_slice(if sack { &SACK_PERM } else { &[NOP, NOP] });
                ts(buf);
            }
            (false, true) => buf.extend_from_slice(&[NOP, NOP, SACK_PERM[0], SACK_PERM[1]]),
            (false, false) => {}
        }
        // RFC 7323 2.2: window scale kind 3 length 3, after a NOP
        buf.extend_from_slice(&[NOP, 3, 3, w.wscale]);
        return;
    }
    if w.timestamps {
        // RFC 7323 appendix A: NOP, NOP, timestamps
        buf.extend_from_slice(&[NOP, NOP]);
        ts(buf);
    }
    if seg.opts & OPT_CDO != 0 {
        // Paper 004 Fig. 1 in RFC 6994's experimental form: kind 253, length 8, ExID, CRC32c
        buf.extend_from_slice(&[EXPERIMENTAL_OPTION_KIND, CDO_OPTION_BYTES as u8]);
        buf.extend_from_slice(&CDO_EXID.to_be_bytes());
        buf.extend_from_slice(&cdo_crc.to_be_bytes());
    }
    if seg.opts & OPT_CNO != 0 {
        // Paper 004 Fig. 2, RFC 6994 form: kind 253, length 4, ExID
        buf.extend_from_slice(&[EXPERIMENTAL_OPTION_KIND, CNO_OPTION_BYTES as u8]);
        buf.extend_from_slice(&CNO_EXID.to_be_bytes());
    }
    if seg.sack_n > 0 {
        // RFC 2018 3: NOP, NOP, kind 5, length 2 + 8n, blocks [left, right)
        let n = usize::from(seg.sack_n).min(seg.sack.len());
        buf.extend_from_slice(&[NOP, NOP, 5, 2 + 8 * n as u8]);
        for &(l, r) in &seg.sack[..n] {
            buf.extend_from_slice(&(l as u32).to_be_bytes());
            buf.extend_from_slice(&(r as u32).to_be_bytes());
        }
    }
}

/// IPv4 header plus the TCP or UDP header of `p` (the payload is not written).
pub fn ip_headers(buf: &mut Vec<u8>, p: &Packet, tcp: Option<TcpWire>, from_sender: bool) {
    let start = buf.len();
    let ip_len = p.ip_bytes.min(0xffff) as u16;
    let proto: u8 = if p.tcp.is_some() { 6 } else { 17 };
    let (src, dst) = (crate::net::ipv4_address(p.src), crate::net::ipv4_address(p.dst));
    // RFC 791 3.1: version 4, IHL 5, TOS (DSCP 0 and RFC 3168 5's ECN field in its two low
    // bits), total length, ID 0, DF (RFC 6864), TTL 64
    buf.extend_from_slice(&[0x45, p.tcp.map_or(0, |s| s.ecn & 3)]);
    buf.extend_from_slice(&ip_len.to_be_bytes());
    buf.extend_from_slice(&[0, 0, 0x40, 0, 64, proto, 0, 0]);
    buf.extend_from_slice(&src);
    buf.extend_from_slice(&dst);
    let c = ipv4_checksum(&buf[start..start + 20]);
    buf[start + 10..start + 12].copy_from_slice(&c.to_be_bytes());
    let l4 = buf.len();
    let (sport, dport) = ports(p.flow, p.tcp.is_some(), from_sender);
    let l4_len = u32::from(ip_len) - 20;
    match (p.tcp, tcp) {
        (Some(seg), Some(w)) => {
            // RFC 9293 3.1: ports, seq, ack, data offset, flags, window, checksum, urgent
            buf.extend_from_slice(&sport.to_be_bytes());
            buf.extend_from_slice(&dport.to_be_bytes());
            // The core leaves the receiver's sequence space out (its segments carry seq 1):
            // here its SYN-ACK takes ISN 0 and the sender acknowledges it (ack 1) throughout.
            let syn = seg.flags & SYN != 0;
            let acking = seg.flags & ACK != 0;
            let (seq, ack) = match (from_sender, syn) {
                (true, _) => (seg.seq, 1),
                (false, true) => (0, seg.ack),
                (false, false) => (seg.seq, seg.ack),
            };
            buf.extend_from_slice(&(seq as u32).to_be_bytes());
            buf.extend_from_slice(&(if acking { ack as u32 } else { 0 }).to_be_bytes());
            let off_at = buf.len();
            // RFC 9293 3.1 and RFC 3168 6.1: FIN 0x01, SYN 0x02, ACK 0x10, ECE 0x40, CWR 0x80
            let flags = u8::from(seg.flags & FIN != 0)
                | u8::from(seg.flags & SYN != 0) << 1
                | u8::from(acking) << 4
                | u8::from(seg.flags & crate::tcp::conn::ECE != 0) << 6
                | u8::from(seg.flags & crate::tcp::conn::CWR != 0) << 7;
            buf.extend_from_slice(&[0, flags]);
            let wnd = if from_sender { w.sender_window } else { seg.wnd };
            // RFC 7323 2.2: the window of a SYN is never scaled
            let field = if seg.flags & SYN != 0 { wnd.min(0xffff) } else { (wnd >> w.wscale).min(0xffff) };
            buf.extend_from_slice(&(field as u16).to_be_bytes());
            buf.extend_from_slice(&[0, 0, 0, 0]);
            let crc = if seg.opts & OPT_CDO != 0 {
                let ack_field = if acking { ack as u32 } else { 0 };
                cdo_crc32c(src, dst, (sport, dport), seq as u32, ack_field, flags, 0)
            } else {
                0
            };
            tcp_options(buf, &seg, &w, crc);
            let hdr = buf.len() - l4;
            buf[off_at] = ((hdr / 4) as u8) << 4;
            let csum = l4_checksum(&buf[l4..], src, dst, proto, l4_len);
            buf[l4 + 16..l4 + 18].copy_from_slice(&csum.to_be_bytes());
        }
        _ => {
            // RFC 768: ports, length, checksum
            buf.extend_from_slice(&sport.to_be_bytes());
            buf.extend_from_slice(&dport.to_be_bytes());
            buf.extend_from_slice(&(l4_len as u16).to_be_bytes());
            buf.extend_from_slice(&[0, 0]);
            let csum = match l4_checksum(&buf[l4..], src, dst, proto, l4_len) {
                0 => 0xffff, // RFC 768: a computed zero is sent as all ones
                c => c,
            };
            buf[l4 + 6..l4 + 8].copy_from_slice(&csum.to_be_bytes());
        }
    }
}

/// When a Beacon's Timestamp field goes out after its PPDU starts (11.1.3.1: the TSF as the
/// data symbol holding its first bit is handed to the PHY): after the PHY preamble and header
/// and the 24-byte MAC header, behind the OFDM SERVICE field's 16 bits in 4 us symbols.
pub fn timestamp_offset(txv: &crate::phy::TxVector) -> crate::time::Dur {
    use crate::phy::Modulation;
    let header_bits = 24 * 8_u64;
    let after = match txv.mode.modulation() {
        Modulation::Dsss { rate_kbps } => (header_bits * 1_000_000).div_ceil(u64::from(rate_kbps)),
        Modulation::Ofdm { rate_kbps, .. } => (16 + header_bits) / (u64::from(rate_kbps) * 4 / 1000) * 4000,
        m @ Modulation::Ht { .. } => (16 + header_bits) / u64::from(m.ht_ndbps()) * 4000,
        Modulation::Vht(v) => (16 + header_bits) / u64::from(v.n_dbps()) * 4000,
        Modulation::He(h) => (16 + header_bits) / u64::from(h.n_dbps()) * h.symbol_ns(),
    };
    txv.preamble_and_header() + crate::time::Dur(after)
}

/// TCP/UDP checksum over the pseudo-header and the header; the zero payload adds nothing
/// (RFC 9293 3.1, RFC 768).
fn l4_checksum(header: &[u8], src: [u8; 4], dst: [u8; 4], proto: u8, l4_len: u32) -> u16 {
    let mut acc = sum16(&src, 0);
    acc = sum16(&dst, acc);
    acc += u32::from(proto) + l4_len;
    fold(sum16(header, acc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mac::frame::ACK_BYTES;
    use crate::time::{Dur, SimTime};

    #[test]
    fn a_beacons_timestamp_is_the_tsf_as_its_field_goes_out() {
        use crate::phy::{ModeId, Preamble, TxVector};
        let at =
            |name: &str| timestamp_offset(&TxVector::new(ModeId::by_name(name).unwrap(), Preamble::Long));
        // Hand computation: 802.11b at 1 Mbit/s, 192 us of preamble and header, then the
        // 24-byte MAC header at 1 us a bit.
        assert_eq!(at("DsssRate1Mbps"), Dur::from_us(192 + 192));
        // 802.11a at 6 Mbit/s (24 data bits a symbol): 20 us, then SERVICE + 192 header bits
        // fill 8 whole symbols; the Timestamp starts in the ninth, 20 + 8 x 4 us in.
        assert_eq!(at("OfdmRate6Mbps"), Dur::from_us(20 + 32));
    }

    fn ack() -> Frame {
        let txv = TxVector::new(crate::phy::modes::OFDM_6, Preamble::Long);
        let c = crate::mac::frame::Carried { packet: None, seq: 0, retry: false, ac: 1 };
        Frame::mpdu(FrameKind::Ack, (NodeId(1), NodeId(0)), ACK_BYTES, txv, Dur::ZERO, c)
    }

    #[test]
    fn an_ack_header_is_10_bytes_plus_the_fcs() {
        // 9.3.1.3: FC d4 00, Duration 0, RA = node 0's MAC 02:00:00:00:00:01 (hand written).
        let mut buf = Vec::new();
        mac_header(&mut buf, &ack(), false, (false, false, IBSS_BSSID), false, Default::default());
        assert_eq!(buf, [0xd4, 0, 0, 0, 2, 0, 0, 0, 0, 1]);
        assert_eq!(buf.len() as u32 + 4, ACK_BYTES);
    }

    #[test]
    fn a_retried_qos_data_frame_to_the_ap_sets_to_ds_and_retry() {
        let f = Frame {
            kind: FrameKind::Data,
            bytes: 100,
            nav: Dur(44_000),
            seq: 0x123,
            retry: true,
            src: NodeId(1),
            dst: NodeId(0),
            ..ack()
        };
        let mut buf = Vec::new();
        let ds = ds_bits((f.src, Role::Sta), (f.dst, Role::Ap), Some(NodeId(0)));
        mac_header(&mut buf, &f, true, ds, false, Default::default());
        let ap = [2, 0, 0, 0, 0, 1];
        let sta = [2, 0, 0, 0, 0, 2];
        let mut want = vec![0x88, 0x09, 44, 0];
        want.extend(ap); // A1 BSSID
        want.extend(sta); // A2 SA
        want.extend(ap); // A3 DA
        want.extend([0x30, 0x12]); // seq 0x123 << 4, little endian
        want.extend([0, 0]); // QoS Control: TID 0 (BE)
        assert_eq!(buf, want);
        assert_eq!(buf.len(), 26);
    }

    #[test]
    fn a_mesh_data_header_is_38_bytes_with_mesh_control() {
        // 9.2.4.7.3: FC 2, Duration 2, four addresses 24, Sequence Control 2, QoS Control 2
        // (bit 8: Mesh Control Present), Mesh Control 6 (flags 0, TTL 31, sequence number).
        let f = Frame { kind: FrameKind::Data, seq: 7, ..ack() };
        let mut buf = Vec::new();
        mac_header_mesh(&mut buf, &f, true, (false, false, IBSS_BSSID), false, true, Default::default());
        assert_eq!(buf.len() as u32, MESH_DATA_HEADER_BYTES);
        assert_eq!(buf[1] & 0x03, 0x03); // ToDS and FromDS
        assert_eq!(&buf[30..32], &[0, 1]); // TID 0 (BE), Mesh Control Present
        assert_eq!(&buf[32..38], &[0, 31, 7, 0, 0, 0]);
    }

    #[test]
    fn ipv4_checksum_of_a_known_header() {
        // The worked example of https://en.wikipedia.org/wiki/IPv4_header_checksum: 0xb861.
        let h = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0, 0, 0xc0, 0xa8, 0x00, 0x01, 0xc0,
            0xa8, 0x00, 0xc7,
        ];
        assert_eq!(ipv4_checksum(&h), 0xb861);
    }

    #[test]
    fn radiotap_of_an_80211b_short_preamble_11_mbps_frame() {
        let mut buf = Vec::new();
        let txv = TxVector::new(crate::phy::Standard::B.mode(11_000).unwrap(), Preamble::Short);
        radiotap(&mut buf, Standard::B, &txv, None);
        // len 14, present 0x0e, flags FCS|short, rate 22 x 500k, 2412 MHz, 2 GHz|CCK.
        assert_eq!(buf, [0, 0, 14, 0, 0x0e, 0, 0, 0, 0x12, 22, 0x6c, 0x09, 0xa0, 0x00]);
    }

    #[test]
    fn tcp_header_lengths_match_the_accounted_sizes() {
        let params = TcpParams {
            mss: 1460,
            recovery: Recovery::Sack,
            rto: crate::tcp::rto::RtoConfig {
                min: Dur::from_ms(200),
                max: Dur::from_ms(1000),
                initial: Dur::from_ms(1000),
                granularity: Dur::ZERO,
                linux: false,
                clock_hz: None,
                rtt_clock: crate::tcp::rto::RttClock::Jiffies,
            },
            timestamps: true,
            limited_transmit: true,
            initial_cwnd: 10,
            ack_every: 2,
            delack_timeout: Dur::from_ms(40),
            rcv_buf: 6 << 20,
            snd_buf: 4 << 20,
            small_queues: false,
            tsq_limit_bytes: crate::tcp::conn::TSQ_LIMIT_OUTPUT_BYTES,
            tsq_rule: crate::tcp::conn::TsqRule::Linux319,
            pacing_shift: 10,
            per_ack_growth: false,
            corruption: crate::tcp::conn::Corruption::Off,
            cno_once_per_rtt: false,
            rules: crate::tcp::conn::Rules::default(),
            ecn: false,
        };
        for (ts, recovery) in
            [(true, Recovery::Sack), (false, Recovery::Sack), (true, Recovery::Reno), (false, Recovery::Reno)]
        {
            let w = TcpWire::of(&TcpParams { timestamps: ts, recovery, ..params.clone() });
            let sack = w.sack_permitted;
            assert_eq!(w.wscale, 7);
            let mut segs = vec![
                Segment { flags: SYN, ..Default::default() },
                Segment { flags: SYN | ACK, ..Default::default() },
                Segment { flags: ACK, len: 1460, seq: 1, ..Default::default() },
                Segment { flags: FIN | ACK, ..Default::default() },
            ];
            // As many blocks as fit: 3 beside the timestamps, 4 alone (RFC 2018 section 3).
            for n in 1..=crate::tcp::sack::blocks_that_fit(ts) as u8 {
                segs.push(Segment {
                    flags: ACK,
                    sack_n: n,
                    sack: [(5, 9); crate::tcp::sack::MAX_BLOCKS],
                    ..Default::default()
                });
            }
            for seg in segs {
                let p = Packet {
                    flow: FlowId(0),
                    seq: 0,
                    src: NodeId(0),
                    dst: NodeId(1),
                    ip_bytes: seg.ip_bytes(ts, sack),
                    payload_bytes: seg.len,
                    created: SimTime::ZERO,
                    ac: 1,
                    tcp: Some(seg),
                    clap: None,
                    tsq: false,
                };
                let mut buf = Vec::new();
                ip_headers(&mut buf, &p, Some(w), true);
                assert_eq!(buf.len() as u32, p.ip_bytes - seg.len, "{seg:?} ts={ts} sack={sack}");
                assert_eq!(u32::from(buf[32] >> 4) * 4 + 20, buf.len() as u32);
                assert_eq!(ipv4_checksum(&buf[..20]), 0, "a valid header sums to zero");
            }
        }
    }

    #[test]
    fn syn_options_are_linux_layouts_for_each_option_mix() {
        // Linux tcp_options_write, bytes by hand: MSS 1460 = 05 b4, window scale 7,
        // TSval 1 us = 00 00 00 01 (core ts_val 1001 ns), TSecr 0.
        let w = |timestamps, sack_permitted| TcpWire {
            timestamps,
            sack_permitted,
            mss: 1460,
            wscale: 7,
            sender_window: 0,
        };
        let syn = Segment { flags: SYN, ts_val: 1001, ..Default::default() };
        let opts = |w: TcpWire| {
            let mut buf = Vec::new();
            tcp_options(&mut buf, &syn, &w, 0);
            buf
        };
        let ts = [8, 10, 0, 0, 0, 1, 0, 0, 0, 0];
        let mut want = vec![2, 4, 5, 0xb4, 4, 2];
        want.extend(ts);
        want.extend([1, 3, 3, 7]);
        assert_eq!(opts(w(true, true)), want);
        let mut want = vec![2, 4, 5, 0xb4, 1, 1];
        want.extend(ts);
        want.extend([1, 3, 3, 7]);
        assert_eq!(opts(w(true, false)), want);
        assert_eq!(opts(w(false, true)), [2, 4, 5, 0xb4, 1, 1, 4, 2, 1, 3, 3, 7]);
        assert_eq!(opts(w(false, false)), [2, 4, 5, 0xb4, 1, 3, 3, 7]);
    }

    #[test]
    fn udp_goes_to_the_discard_port_and_tcp_to_5001() {
        // UDP 9 (RFC 863 discard): Wireshark's CPFI owns UDP 5001 and flags tiny payloads.
        let udp = Packet {
            flow: FlowId(3),
            seq: 0,
            src: NodeId(1),
            dst: NodeId(0),
            ip_bytes: 20 + 8 + 1,
            payload_bytes: 1,
            created: SimTime::ZERO,
            ac: 1,
            tcp: None,
            clap: None,
            tsq: false,
        };
        let mut buf = Vec::new();
        ip_headers(&mut buf, &udp, None, true);
        assert_eq!(buf[20..24], [0xc0, 0x03, 0, 9]); // 49152 + 3 -> 9
        assert_eq!(buf[24..26], [0, 9]); // UDP length: 8 + 1
        assert_eq!(ports(FlowId(3), false, false), (9, 49155));
        assert_eq!(ports(FlowId(3), true, true), (49155, 5001));
    }
}
