"""pcap export: one capture file per node and interface, readable by Wireshark and tshark.

The core records the ``frames`` trace (``[traces] frames = true``): every frame a node sent
or decoded, with its header bytes (radiotap, 802.11, LLC/SNAP, IPv4, TCP/UDP; built in
``crates/airtcp-core/src/capture.rs``). This module zero-fills each payload up to the snap
length, appends the FCS of wireless frames captured whole and writes::

    DIR/<node>-wlan0.pcap          LINKTYPE_IEEE802_11_RADIOTAP (127)
    DIR/<node>-link<k>.pcap        LINKTYPE_RAW (101, raw IPv4), wired link k of the world spec

in the nanosecond pcap format (magic 0xa1b23c4d). docs/pcap.md explains what is captured.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from airtcp.outpath import atomic_directory, check_out_dir, child, safe_name

if TYPE_CHECKING:
    from airtcp.result import Result

__all__ = [
    "DEFAULT_SNAP_BYTES",
    "LINKTYPE_IEEE802_11_RADIOTAP",
    "LINKTYPE_RAW",
    "PcapError",
    "file_header",
    "ipv4_checksum",
    "record",
    "write_pcaps",
]

# https://www.tcpdump.org/linktypes.html
LINKTYPE_IEEE802_11_RADIOTAP = 127
LINKTYPE_RAW = 101
# https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html section 4: nanosecond magic
PCAP_NS_MAGIC = 0xA1B23C4D
# The largest pure TCP ACK whole: radiotap 14 + QoS Data header 26 (IEEE 802.11-2016 9.3.2.1)
# + LLC/SNAP 8 + IPv4 20 + TCP header with the most options 60 (RFC 9293 3.1: data offset at
# most 15 words; airtcp's largest, timestamps + 3 SACK blocks, is 20 + 12 + 28 = 60) + FCS 4.
DEFAULT_SNAP_BYTES = 14 + 26 + 8 + 20 + 60 + 4  # 132
FCS_BYTES = 4
_NS = 1_000_000_000
_ZEROS = bytes(65536)


class PcapError(ValueError):
    """The result cannot be exported (no frames trace, bad snap length)."""


def file_header(linktype: int, snaplen: int) -> bytes:
    """The 24-byte pcap file header: nanosecond magic, version 2.4, ``snaplen``, ``linktype``."""
    return struct.pack("<IHHiIII", PCAP_NS_MAGIC, 2, 4, 0, 0, snaplen, linktype)


def ipv4_checksum(header: bytes) -> int:
    """RFC 1071 checksum of an IPv4 header; 0 when the header (with its checksum) is valid."""
    if len(header) % 2:
        header += b"\0"
    total = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def record(time_ns: int, head: bytes, length: int, wireless: bool, snap_bytes: int) -> bytes:
    """One pcap record: ``head`` zero-filled to the captured length, FCS if whole.

    ``length`` is the frame's real length without the radiotap header (the MPDU including its
    FCS for ``wireless``, the IP packet otherwise). Headers are never cut, whatever the snap
    length; a wireless frame captured whole ends with its real CRC-32 FCS.
    """
    rt = head[2] | head[3] << 8 if wireless else 0
    orig = rt + length
    if len(head) > orig:
        raise PcapError(f"header of {len(head)} bytes exceeds the frame length {orig}")
    cap = min(orig, max(snap_bytes, len(head)))
    if wireless and cap == orig:
        body = head[rt:] + _ZEROS[: orig - FCS_BYTES - len(head)]
        data = head + _ZEROS[: orig - FCS_BYTES - len(head)]
        data += struct.pack("<I", zlib.crc32(body))  # IEEE 802.11-2016 9.2.4.8: CRC-32
    else:
        if wireless:
            cap = min(cap, orig - FCS_BYTES)  # never a partial FCS
        data = head + _ZEROS[: cap - len(head)]
    sec, nsec = divmod(time_ns, _NS)
    return struct.pack("<IIII", sec, nsec, len(data), orig) + data


def _iface_name(iface: int) -> str:
    return "wlan0" if iface == 0 else f"link{iface - 1}"


def write_pcaps(
    result: Result,
    out_dir: str | Path,
    snap_bytes: int = DEFAULT_SNAP_BYTES,
    replace: bool = False,
) -> list[Path]:
    """Write one pcap file per node and interface of ``result`` into the new ``out_dir``.

    ``result`` must carry the ``frames`` trace (run with ``[traces] frames = true``).
    ``snap_bytes`` caps the bytes captured per record (headers are always kept whole).
    The directory appears complete or not at all; an existing non-empty one is refused, unless
    ``replace`` and it holds only pcap files airtcp wrote (``airtcp run --pcap DIR --force``).
    Returns the files written, sorted by name.
    """
    if isinstance(snap_bytes, bool) or not isinstance(snap_bytes, int) or snap_bytes < 1:
        raise PcapError(f"snap_bytes: must be a positive integer (got {snap_bytes!r})")
    frames = result.traces.get("frames")
    if frames is None:
        raise PcapError(
            "traces.frames: the result has no frames trace; run with [traces] frames = true "
            "(or airtcp run --pcap DIR)"
        )
    # Before any work: refuse a used directory at once.
    out = check_out_dir(out_dir, "pcap", replace)
    names = [str(n["name"]) for n in result.summary.get("nodes", [])]
    cols = frames.to_pydict()
    times: list[int] = cols["time_ns"]
    nodes: list[int] = cols["node"]
    ifaces: list[int] = cols["iface"]
    lengths: list[int] = cols["bytes"]
    heads: list[bytes] = cols["head"]
    groups: dict[tuple[int, int], list[int]] = {}
    for i, key in enumerate(zip(nodes, ifaces, strict=True)):
        groups.setdefault(key, []).append(i)

    written: list[Path] = []
    with atomic_directory(out, "pcap files", kind="pcap", replace=replace) as tmp:
        for (node, iface), rows in sorted(groups.items()):
            wireless = iface == 0
            rows.sort(key=times.__getitem__)  # stable: same-time records keep trace order
            node_name = names[node] if node < len(names) else ""
            if not safe_name(node_name):  # never a path from user text (outpath.NAME_ALLOWED)
                node_name = f"node{node}"
            name = f"{node_name}-{_iface_name(iface)}"
            linktype = LINKTYPE_IEEE802_11_RADIOTAP if wireless else LINKTYPE_RAW
            recs = [record(times[i], heads[i], lengths[i], wireless, snap_bytes) for i in rows]
            snaplen = max([snap_bytes, *(len(r) - 16 for r in recs)])
            with open(child(tmp, f"{name}.pcap"), "wb") as fh:
                fh.write(file_header(linktype, snaplen))
                fh.writelines(recs)
            written.append(out / f"{name}.pcap")
    return sorted(written)
