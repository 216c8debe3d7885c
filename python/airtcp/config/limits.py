"""Limits and name lists of scenarios: upper bounds (docs/scenarios.md "Limits"), the MSDU
arithmetic behind the payload sizes, and the names the core knows (congestion controls,
loss-recovery variants, rate controls, flow kinds).

Constants only: every other module of the package imports this one. The name tables and the
bounds the core holds come from the core (airtcp.tables); the bounds below that are
stricter than the core's are the scenario's own.
"""

from __future__ import annotations

from airtcp import tables as _tables

_CORE_LIMITS = _tables.limits()

# 2304-byte maximum MSDU (IEEE 802.11-2020 9.2.4.7.1 Table 9-19 footnote, non-A-MSDU) minus the
# 8-byte LLC/SNAP header, the 20-byte IPv4 header and the 8-byte UDP header.
MAX_PAYLOAD_BYTES = _CORE_LIMITS["max_udp_payload_bytes"]
_PAYLOAD_ALLOWED = (
    f"integer 1..{MAX_PAYLOAD_BYTES} bytes: the 2304-byte maximum MSDU minus 8 LLC/SNAP, "
    "20 IPv4 and 8 UDP header bytes"
)
# 2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4, 20 TCP and 12 timestamp-option bytes.
MAX_MSS_BYTES = 2304 - 8 - 20 - 20 - 12
_MSS_ALLOWED = (
    f"integer 1..{MAX_MSS_BYTES} bytes: the 2304-byte maximum MSDU minus 8 LLC/SNAP, "
    "20 IPv4, 20 TCP and 12 timestamp-option bytes"
)
# Congestion controls by their Linux names, loss-recovery variants and rate controls (the
# core's tables).
CC_NAMES = _tables.congestion_controls()
RECOVERY_NAMES = _tables.recoveries()
RATE_CONTROL_NAMES = _tables.rate_controls()
_CC_ALLOWED = ", ".join(CC_NAMES)
_RECOVERY_ALLOWED = ", ".join(RECOVERY_NAMES)
_RATE_CONTROL_ALLOWED = ", ".join(RATE_CONTROL_NAMES)
# Flow kinds: the world spec's names (airtcp_core::spec::FlowKind), which scenarios and the
# summary spell the same way.
FLOW_KINDS = _tables.flow_kinds()
_TCP_KINDS = ("tcp_bulk", "tcp_file")
_FILE_KINDS = ("tcp_file", "clap_file")
# 2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4 and 20 CLAP data-header bytes (docs/clap.md).
MAX_CLAP_MSS_BYTES = 2304 - 8 - 20 - 20
_U32_MAX = 2**32 - 1
# Upper bounds (docs/scenarios.md "Limits"). They keep every value inside what the core holds
# (u64 nanoseconds reach 1.8e10 s, u32 counters 4.3e9) and every run's cost bounded.
MAX_TIME_S = 1e7  # simulated times: 116 days
MAX_TIME_MS = MAX_TIME_S * 1e3
MAX_DISTANCE_M = 1e6  # positions and ranges: 1000 km
MAX_LINK_RATE_MBPS = 1e5  # wired links: 100 Gbit/s
MAX_CBR_RATE_MBPS = 1e4  # a CBR source: 10 Gbit/s ...
MAX_CBR_PACKETS_PER_S = 1_000_000  # ... and at most 10^6 packets per simulated second
MAX_QUEUE_PACKETS = _CORE_LIMITS["max_queue_packets"]  # a saturating source fills its queue
MAX_INITIAL_CWND = _CORE_LIMITS["max_initial_cwnd"]  # segments
MAX_CLAP_SEGMENTS = 2**32 - 1  # segments of one CLAP transfer (32-bit sequence numbers)
MAX_FILE_BYTES = 10**12  # 1 TB (the core allows 10^15)
# Nodes of a scenario: the core keeps routes as runs of destinations (a few per node in a BSS)
# and one listener list per collision domain, so memory grows with N; what grows with N^2 is
# time (the link budgets of every pair, at set-up): 2000 stations and their AP set up in about
# 0.4 s and 100 MB, 4000 in 0.85 s and 166 MB (docs/validation.md section 19).
MAX_NODES = 5001
# A chain blocks every radio link but consecutive nodes': hops^2 / 2 pairs in the spec.
MAX_CHAIN_HOPS = 2000
MAX_REPORT_INTERVALS = _CORE_LIMITS["max_report_intervals"]  # duration_s / report_interval_s
# Flows of a scenario, after each [[flows]] glob has given one flow per source it matches: two
# per station at the node cap (an upload and a download). A flow costs about 8 KB and its set-up
# is linear: 10^4 flows at 5000 stations set up and run 0.05 s in 1.8 s and 160 MB, 10^5 in 3.1 s
# and 760 MB (and `airtcp run` prints a row per flow).
MAX_FLOWS = 10_000
# Deepest nesting of tables and arrays a scenario may have (the deepest real one has 4).
MAX_DEPTH = 32
# A scenario or sweep file (TOML), bounded before tomllib parses it (config/scan.py): tomllib's
# cost is not bounded by the text's length (a dotted key of n parts costs n^2: 50,000 parts in
# 100 kB took 5 GB), and what it builds is checked only once it is built. The largest example
# has 3 kB; 5001 [[nodes]] with positions take 320 kB and 25,000 items (below).
MAX_TOML_BYTES = 4 * 2**20  # 4 MiB
# Keys and array elements of a TOML text as written: every part of a dotted key or a table
# header counts ("a.b = 1" and "[a.b]" count 2), and every array element. tomllib parses
# 2 x 10^5 short key/value lines in about 0.6 s.
MAX_TOML_ITEMS = 200_000
_GLOB_CHARS = "*?["
_NS_PER_S = 1_000_000_000
