"""Limits and name lists of scenarios: upper bounds (docs/scenarios.md "Limits"), the MSDU
arithmetic behind the payload sizes, and the names the core knows (congestion controls,
loss-recovery variants, flow kinds).

Plain constants only: every other module of the package imports this one.
"""

from __future__ import annotations

# 2304-byte maximum MSDU (IEEE 802.11-2020 9.2.4.7.1 Table 9-19 footnote, non-A-MSDU) minus the
# 8-byte LLC/SNAP header, the 20-byte IPv4 header and the 8-byte UDP header.
MAX_PAYLOAD_BYTES = 2304 - 8 - 20 - 8
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
# Congestion controls by their Linux names, and loss-recovery variants (the core's lists).
CC_NAMES = ("reno", "newreno", "cubic", "bic", "vegas", "veno", "westwood", "illinois")
RECOVERY_NAMES = ("tahoe", "reno", "newreno", "sack")
_CC_ALLOWED = ", ".join(CC_NAMES)
_RECOVERY_ALLOWED = ", ".join(RECOVERY_NAMES)
_TCP_KINDS = ("tcp-bulk", "tcp-file")
_FILE_KINDS = ("tcp-file", "clap-file")
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
MAX_QUEUE_PACKETS = 100_000  # the core's bound: a saturating source fills what it is given
MAX_INITIAL_CWND = 1_000_000  # segments (the core's bound)
MAX_CLAP_SEGMENTS = 2**32 - 1  # segments of one CLAP transfer (32-bit sequence numbers)
MAX_FILE_BYTES = 10**12  # 1 TB
# Nodes of a scenario: Python expands routes between every pair (a table of N^2 entries), so
# 500 nodes take about 4 s and 250 MB before the first frame.
MAX_NODES = 500
MAX_REPORT_INTERVALS = 1_000_000  # duration_s / report_interval_s
# Deepest nesting of tables and arrays a scenario may have (the deepest real one has 4).
MAX_DEPTH = 32
_GLOB_CHARS = "*?["
_NS_PER_S = 1_000_000_000
