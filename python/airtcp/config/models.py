"""The scenario's pydantic models: :class:`Scenario` and its tables (``[mac]``, ``[tcp]``,
``[channel]``, ``[[nodes]]`` ...).

Each field carries its ``allowed`` text (shown in error messages) and its doc, the one place
both are written: docs/scenarios.md's field tables are generated from them (``python -m
airtcp.docgen``; a test fails while one is stale), and so is ``table.json``, from which a
run validates without pydantic (:mod:`airtcp.config.plain`). A model's own validator checks
what its fields cannot check alone (in :mod:`airtcp.config.checks`, which the plain validator
runs too); :class:`Scenario` then checks the rest while expanding itself into the world spec
(:mod:`airtcp.config.expand`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from airtcp.config import checks
from airtcp.config.checks import (
    FlowShape,
    PassThroughShape,
    ScenarioShape,
)
from airtcp.config.convert import _convert_validation_error
from airtcp.config.errors import (
    ScenarioError,
    _line,
)
from airtcp.config.limits import (
    _CC_ALLOWED,
    _MSS_ALLOWED,
    _PAYLOAD_ALLOWED,
    _RATE_CONTROL_ALLOWED,
    _RECOVERY_ALLOWED,
    _U32_MAX,
    FLOW_KINDS,
    MAX_CBR_RATE_MBPS,
    MAX_CHAIN_HOPS,
    MAX_CLAP_MSS_BYTES,
    MAX_DISTANCE_M,
    MAX_FILE_BYTES,
    MAX_FLOWS,
    MAX_INITIAL_CWND,
    MAX_LINK_RATE_MBPS,
    MAX_MSS_BYTES,
    MAX_NODES,
    MAX_QUEUE_PACKETS,
    MAX_TIME_MS,
    MAX_TIME_S,
)
from airtcp.outpath import NAME_ALLOWED


def _field(default: Any, allowed: str, doc: str, **kw: Any) -> Any:
    """A model field whose ``allowed`` text is shown in error messages and in the docs."""
    return Field(default, description=doc, json_schema_extra={"allowed": allowed}, **kw)


def _after(check: Callable[[Any], None]) -> Any:
    """A model validator (mode "after") that runs ``check``, one of :mod:`airtcp.config.checks`
    (which the plain validator runs too)."""

    def _check(self: Any) -> Any:
        check(self)
        return self

    _check.__wrapped__ = check  # type: ignore[attr-defined]  # read by tablegen
    return model_validator(mode="after")(_check)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class _PassThrough(PassThroughShape, _Model):
    """A section that feeds one table of the core's world spec (``CORE``, a ``$defs`` name of
    its schema). A key of the section that is not a field here but is one of that table's goes
    to the world spec as written and is checked by the core (Scenario.from_dict maps its errors
    back to the section's key): so a field added to the core's spec is a scenario field with
    no edit here (issue 33). ``BUILT``: the table's fields the expander writes from other keys
    of the scenario, not settable in the section."""

    CORE: ClassVar[str] = ""
    BUILT: ClassVar[frozenset[str]] = frozenset()
    _core: dict[str, Any] = PrivateAttr(default_factory=dict)

    @classmethod
    def core_only(cls) -> list[str]:
        """The keys the section passes through to the core: its table's fields that are not
        fields of this model and that the expander does not build (from the models' table,
        which tablegen writes from this model's fields, CORE and BUILT)."""
        from airtcp.config.plain import core_only

        return core_only(cls.__name__)

    @model_validator(mode="wrap")
    @classmethod
    def _pass_through(cls, data: Any, handler: Any) -> Any:
        if isinstance(data, cls):  # a section already built keeps what it passes through
            return handler(data)
        core: dict[str, Any] = {}
        if isinstance(data, Mapping) and any(k not in cls.model_fields for k in data):
            names = set(cls.core_only())
            core = {str(k): v for k, v in data.items() if k in names}
            data = {k: v for k, v in data.items() if k not in core}
        out = handler(data)
        out._core = core
        return out

    @model_serializer(mode="wrap")
    def _dump_with_core(self, handler: Any) -> dict[str, Any]:
        """A dump holds the passed-through keys too, so it reads back to the same section (a
        run's stored scenario, ``airtcp.run(scenario, overrides)``)."""
        out: dict[str, Any] = handler(self)
        out.update(copy.deepcopy(self._core))
        return out


class MacConfig(_PassThrough):
    """``[mac]``: channel access and the MAC's retry and queue limits."""

    CORE: ClassVar[str] = "WifiSpec"
    BUILT: ClassVar[frozenset[str]] = frozenset(
        {
            "standard",
            "erp_mixed",
            "preamble",
            "data_rate_mbps",
            "initial_rate_mbps",
            "basic_rate_mbps",
            "ht",
        }
    )

    access: Literal["dcf", "edca"] = _field(
        "dcf", '"dcf" or "edca"', "DCF (DIFS, non-QoS data) or EDCA (AIFS[AC], QoS data)"
    )
    cw_min: int | None = _field(
        None,
        "integer 1..32767 slots, or unset",
        "CWmin override; unset = the standard's (per AC with EDCA)",
        ge=1,
        le=32767,
    )
    a_cw_min: int | None = _field(
        None,
        "integer 1..32767 slots, or unset",
        "the aCWmin every access category's default derives from (AC_BK and AC_BE: aCWmin, "
        "AC_VI (aCWmin + 1) / 2 - 1, AC_VO (aCWmin + 1) / 4 - 1; DCF: aCWmin); unset = the "
        "PHY's. Linux gives a 2.4 GHz interface not in G mode, a mesh point, 31 "
        "(ieee80211_set_wmm_default); cw_min still overrides every category",
        ge=1,
        le=32767,
    )
    cw_max: int | None = _field(
        None,
        "integer 1..32767 slots, >= mac.cw_min, or unset",
        "CWmax override; unset = the standard's",
        ge=1,
        le=32767,
    )
    aifsn: int | None = _field(
        None,
        "integer 1..15 slots, or unset",
        "AIFSN override; unset = DIFS (DCF) or the AC's AIFSN (EDCA)",
        ge=1,
        le=15,
    )
    short_retry_limit: int = _field(
        6,
        "integer 0..31 retransmissions; 0 = never retransmit",
        "retransmissions of frames up to rts_threshold_bytes",
        ge=0,
        le=31,
    )
    long_retry_limit: int = _field(
        3,
        "integer 0..31 retransmissions; 0 = never retransmit",
        "retransmissions of frames longer than rts_threshold_bytes",
        ge=0,
        le=31,
    )
    rts_threshold_bytes: int = _field(
        65535,
        "integer 0..65535 bytes",
        "MPDUs longer than this use RTS/CTS; 65535 = never, 0 = always",
        ge=0,
        le=65535,
    )
    queue_limit_packets: int = _field(
        100,
        f"integer 1..{MAX_QUEUE_PACKETS} packets",
        "DropTail interface queue per access category",
        ge=1,
        le=MAX_QUEUE_PACKETS,
    )

    rate_control: str = _field(
        "constant",
        _RATE_CONTROL_ALLOWED,
        "rate control of data frames (the core's table, airtcp.tables.rate_controls(); "
        "minstrel-ht on 802.11n and 802.11ac, ath9k on 802.11n only, see [ht]): constant "
        "sends every data frame at data_rate_mbps; arf is Kamerman and Monteban's ARF with QualNet's constants (up after "
        "10 ACKs in a row or 60 ms, down after 2 failures in a row, straight back after a "
        "failed probe, after which two more failures step down again); arf-ns3 is ns-3's "
        "ArfWifiManager (its timer counts 15 attempts; after a failed probe it stays in "
        "recovery until an ACK, so a fallback mode that also fails is kept); aarf is ns-3's "
        "AarfWifiManager (a failed probe doubles the thresholds, 10 up to 60); both climb "
        "ns-3's list of a station's modes, which on 802.11g goes by modulation class (1, 2, "
        "5.5, 11, then 6 ... 54 Mbit/s), so their step up from 11 Mbit/s is to 6 Mbit/s, as in "
        "ns-3. minstrel is Linux 3.10-3.13's legacy Minstrel (rc80211_minstrel.c, four rate "
        "slots: an ACK at the fourth stage earns no success) on a multi-rate-retry driver: "
        "success probabilities per 100 ms window smoothed by an EWMA of 75 %, a four-stage "
        "retry chain (best throughput, second best or a look-around mode, most reliable, "
        "lowest) with per-mode tries fitting 6 ms, 10 % look-around frames; minstrel-rt2800 is "
        "the same on an rt2800 (paper 000's chipset): one mode per frame, 5 % look-around, and "
        "the hardware steps one mode down per retry, never from OFDM to CCK. On minstrel the "
        "chain's tries set how many attempts a frame gets (as Linux on multi-rate-retry "
        "hardware and ns-3's Minstrel do), whatever short_retry_limit; on minstrel-rt2800 and "
        "every other algorithm the MAC's retry limits do. agent: every frame to a peer goes at "
        "the mode a learning agent last set for it (airtcp.gym, docs/gym.md), the lowest until "
        "then. The adaptive ones (and agent) climb the standard's rates from the lowest, or "
        "from data_rate_mbps when the scenario sets it (802.11a/b/g; the world spec's "
        "wifi.initial_rate_mbps, docs/world-spec.md), every peer alike: ARF and AARF start at its rung of their "
        "ladder with their counters at zero, as ns-3's do from the lowest (DoCreateStation); "
        "Minstrel takes it as its best-throughput rate, the first stage of its retry chain "
        "until its first statistics update 100 ms on (Linux's minstrel_rate_init starts the "
        "best-throughput, second-best and most-reliable rates at the lowest; the other two "
        "stay there); agent sends at it until the agent sets a mode. A node whose own "
        "rate_control is adaptive starts there too, and a node at constant sends at it. "
        "802.11n's adaptive rate controls start from their own tables whatever ht.mcs says",
    )
    data_header_bytes: Literal[24, 26, 30, 32, 38] | None = _field(
        None,
        "24 or 30 (dcf), 26, 32 or 38 (edca), or unset",
        "data frames' MAC header without the FCS: three addresses (24, QoS 26) or four (30, "
        "QoS 32; 802.11-2020 9.3.2.1, ToDS and FromDS set); 38 is a mesh data frame's, four "
        "addresses and QoS Control with Mesh Control Present followed by the 6-byte Mesh "
        "Control (9.2.4.7.3: a 1500-byte IP packet becomes a 1550-byte MPDU, as in Linux's "
        "mesh); unset = 24 (dcf) or 26 (edca). 30 + the 4-byte FCS is the 34-byte header of "
        "ns-2's 802.11 model and of paper 004's Table I. The pcap export writes the matching "
        "format",
    )
    pass_corrupt: bool = _field(
        False,
        "true or false",
        "paper 004's receive policy: a data frame addressed here whose FCS failed but whose MAC "
        "header held goes up the stack marked with the part that was hit (upper headers or "
        "payload) instead of being discarded. A TCP receiver with tcp.corruption answers one "
        "whose headers held with a CNO; everything else drops it, as a stack without the "
        "option would. The frame is not acknowledged; a corrupt copy of a frame already "
        "received (duplicate filter) is not passed. Summary: rx_corrupt_up per node",
    )
    beacon_interval_tu: int | None = _field(
        None,
        "integer 1..65535 TU (1 TU = 1024 us), or unset (no beacons)",
        "every AP sends a Beacon (9.3.3.2: 24-byte header, timestamp, interval, capability, "
        'SSID "airtcp", supported rates, DS parameter set on 2.4 GHz, TIM, FCS: 64 bytes on '
        "802.11a, 63 on b, 73 on g) every this many TUs (100, the usual value, = 102.4 ms) "
        "from the start (several APs spread over the interval), broadcast at the standard's "
        "lowest rate with the long preamble, through an access function of AIFSN 1 and CW 0: "
        "PIFS after the medium turns idle, no backoff, no ACK, no retry (ns-3's ApWifiMac, "
        "ath9k's beacon queue). Every node receives it as a third party's frame (its rx_ok "
        "counts it)",
        ge=1,
        le=65535,
    )
    arf_window_slot_ms: float | None = _field(
        None,
        "number > 0 ms, <= 1e6, or unset (off)",
        "paper 003's ARF-aware window at every station (not the APs), with this observation "
        "slot T: each station meters the channel time of every data exchange it sends, "
        "receives or overhears (Eq. 2-4: DIFS + mean backoff CWmin/(N+1) [+ RTS + SIFS + CTS + "
        "SIFS] + the frame + its Duration), per station end and per TCP connection, and the "
        "beacons' airtime, slot by slot. When the rate of the data frames it receives from the "
        "AP changes (a frame at a new rate is its own first success), each connection it "
        "receives gets Eq. 11's window from the last complete slot as its advertised window; "
        "when its own sending rate changes (an increase only after its first success at the "
        "new rate, a reverted probe not at all), each connection it sends gets it as a cwnd "
        "cap. The window stays within [MSS, buffer]; the RTT is the connection's (the "
        "receiver's own estimate from timestamps)",
        gt=0.0,
        le=1e6,
    )
    backoff_rule: Literal["standard", "ns-2"] = _field(
        "standard",
        '"standard" or "ns-2"',
        "when a frame backs off: the standard's rule (10.3.4.2-3: a frame that finds the medium "
        "idle, with no backoff running, goes after DIFS or AIFS; a backoff is uniform in [0, "
        "CW]), or ns-2's Mac802_11 (mac-802_11.cc: every frame waits DIFS and a backoff, even "
        "on an idle medium, uniform in [0, CW - 1]; paper 001's simulator)",
    )
    minstrel_status: Literal["rt2x00", "per-attempt"] = _field(
        "rt2x00",
        '"rt2x00" or "per-attempt" (per-attempt needs rate_control "minstrel-rt2800" here or '
        "at a node)",
        "how rt2800's tries reach Minstrel under minstrel-rt2800: rt2x00 rebuilds them from the "
        "hardware's retry count as Linux 3.12 does (rt2800_txdone_entry, "
        "rt2x00lib_fill_tx_status: a success's retries are the step-downs to its last mode, a "
        "failure's the long retry limit; one try per step down the band's rate table, into "
        "CCK rates the hardware never sent, at most four entries, no success credited after "
        "two or more retries); per-attempt credits each try to the mode it was sent at",
    )
    arf_window_rtt: Literal["smoothed", "min", "empty"] = _field(
        "smoothed",
        '"smoothed", "min" or "empty" (needs arf_window_slot_ms)',
        "Eq. 11's RTT in paper 003's window: the connection's smoothed RTT (the paper's; the "
        "receiver's own estimate from timestamps, a sender's SRTT), the least RTT sample its "
        "end has measured (Linux tcp_min_rtt), or the RTT every queue empty would give at the "
        "new rate (the wired hops' delays and serialization both ways plus Eq. 9's T_TCP), so "
        "that the window is the bandwidth-delay product and not the queue's RTT times the rate",
    )
    arf_window_every_slot: bool = _field(
        False,
        "true or false (true needs arf_window_slot_ms)",
        "paper 003's window also recomputed at the end of every observation slot at the "
        "current rate (Eq. 13 with Delta- = 0: the slot's unoccupied time shared out), not "
        "only on a rate change (the paper's)",
    )
    qdisc: Literal["none", "pfifo", "codel", "fq-codel"] = _field(
        "none",
        '"none", "pfifo", "codel" or "fq-codel"',
        "a queueing discipline above every WiFi interface (net::qdisc; Linux's mq root with one "
        "child per access category): a packet goes straight to the MAC if nothing waits and "
        "the MAC's queue of its access category (queue_limit_packets) has room, else it waits "
        "here and moves down as that queue drains (ath9k stops mac80211's queue at 123 frames "
        "per AC in Linux 3.2: set queue_limit_packets = 123); pfifo drops at a full child "
        "(pfifo_fast, txqueuelen), codel is Linux 3.5's CoDel (net::codel), fq-codel is "
        "sch_fq_codel at its defaults (net::fq_codel: flows by flow, 1024 buckets, quantum "
        "1514, ECN on; never refuses a packet, drops the fattest flow's head over its limit). "
        "Summary counters drops_qdisc and drops_codel",
    )
    qdisc_limit_packets: int = _field(
        1000,
        "integer 1..10^6 packets",
        "each child's limit (txqueuelen 1000; unset with fq-codel: its own limit, 10240)",
        ge=1,
        le=1_000_000,
    )
    codel_target_ms: float = _field(
        5.0, "number > 0 ms", "CoDel's target (RFC 8289, Linux)", gt=0.0, le=1e6
    )
    codel_interval_ms: float = _field(
        100.0, "number > 0 ms", "CoDel's interval (RFC 8289, Linux)", gt=0.0, le=1e6
    )
    codel_ecn: bool | None = _field(
        None,
        'true or false (with qdisc = "codel" or "fq-codel"), or unset',
        "CoDel CE-marks an ECN-capable packet (the data of a tcp.ecn flow) instead of dropping "
        "it (RFC 3168, RFC 8289 5.2); unset: Linux's default, off in sch_codel, on in "
        "sch_fq_codel. Summary counter ecn_marks_codel",
    )
    txq: Literal["none", "fq-codel"] = _field(
        "none",
        '"none" or "fq-codel" (with qdisc = "none")',
        "Linux today's queues inside every WiFi interface (net::txq, mac80211's intermediate "
        "queues): per station and access category an FQ-CoDel; the MAC's queue "
        "(queue_limit_packets, the driver's) pulls from them as it drains, station by station "
        "as airtime_fairness says and AQL allows; no qdisc above (noqueue). Drops: drops_qdisc "
        "(over the limit), drops_codel",
    )
    txq_target_ms: float = _field(
        20.0,
        "number > 0 ms",
        "mac80211's CoDel target (ieee80211_txq_setup_flows)",
        gt=0.0,
        le=1e6,
    )
    txq_interval_ms: float = _field(
        100.0,
        "number > 0 ms",
        "mac80211's CoDel interval (ieee80211_txq_setup_flows)",
        gt=0.0,
        le=1e6,
    )
    txq_quantum_bytes: int = _field(
        300, "integer 1..65535 bytes", "FQ's deficit round robin quantum", ge=1, le=65535
    )
    txq_limit_packets: int = _field(
        8192, "integer 1..10^5 packets", "packets one station's queue holds", ge=1, le=100_000
    )
    txq_ecn: bool = _field(
        True,
        "true or false",
        "txq: CoDel CE-marks an ECN-capable packet (the data of a tcp.ecn flow) instead of "
        "dropping it (mac80211's cparams.ecn = true); the overflow drop ignores ECN. Summary "
        "counter ecn_marks_codel",
    )
    airtime_fairness: bool = _field(
        True,
        "true or false",
        "txq: stations take turns by deficit round robin charged with their PPDUs' airtime "
        "(mac80211's airtime fairness, weight 256 us); false: frame by frame",
    )
    aql: bool = _field(
        False,
        "true or false",
        "txq: airtime queue limits: a station hands the driver frames while its estimated "
        "airtime there (its frames' bits at its current rate) is below aql_low_us, or "
        "aql_high_us while the interface's is below aql_threshold_us",
    )
    aql_low_us: int = _field(
        5000,
        "integer 1..10^6 us",
        "AQL's per-station low limit (AQL_TXQ_LIMIT_L, cfg80211.h)",
        ge=1,
        le=1_000_000,
    )
    aql_high_us: int = _field(
        12_000,
        "integer 1..10^6 us, >= mac.aql_low_us",
        "AQL's per-station high limit (AQL_TXQ_LIMIT_H, cfg80211.h)",
        ge=1,
        le=1_000_000,
    )
    aql_threshold_us: int = _field(
        24_000,
        "integer 1..10^6 us",
        "the interface's airtime below which a station may hold aql_high_us "
        "(IEEE80211_AQL_THRESHOLD, cfg80211.h)",
        ge=1,
        le=1_000_000,
    )
    ba_retry_remedy: bool = _field(
        False,
        'true or false (standard = "80211n", "80211ac" or "80211ax" with ht.ampdu)',
        "paper 002's remedy at every station (xlayer::ba_retry): at each frame queued, its "
        "averaged data rate moves to 0.75 x itself + 0.25 x the rate the frame would go at "
        "now, and a TCP frame's Block-Ack retry limit (its software retries) is 10, 8, 5 or 2 "
        "for >= 100, 50-100, 25-50, < 25 Mbit/s; frames not carrying TCP keep "
        "ht.mpdu_retries",
    )
    per_station_grants: bool = _field(
        False,
        "true or false",
        "a cost switch, not a model: every station schedules its own grant event at each idle "
        "edge and is told of every transmission on its own, as airtcp did before contention "
        "domains (mac::contention: stations sharing one view of the medium keep their backoff "
        "ends in one table with a single scheduler event at the earliest) and lazy members "
        "(medium::clique, mac::lazy: the listeners of a clique share one state while they only "
        "listen). Results are the same bit for bit (a test runs every golden case both ways); "
        "only events in the summary and the run time differ (for checking and benchmarking)",
    )
    lnmac: bool = _field(
        False,
        "true or false",
        "paper 004's LN-MAC at every WiFi node: the sending MAC records, per TCP connection, "
        "the sequence number of the last segment it attempted (SN_T) and carries it in each "
        "frame (no extra bytes, Fig. 3); the receiving MAC keeps the last one received (SN_R) "
        "and, when a frame's SN_T differs from SN_R, sends an empty segment with the CDO and "
        "sequence number SN_T toward the TCP receiver (a segment that vanished over the air), "
        "which answers with a CNO (needs tcp.corruption). A MAC retry that gets through is "
        "not notified. Summary: lnmac_notifications per node",
    )

    _check = _after(checks.mac)


class TcpConfig(_PassThrough):
    """``[tcp]``: parameters of every TCP flow; defaults follow Linux."""

    CORE: ClassVar[str] = "TcpSpec"

    cc: str = _field(
        "newreno",
        _CC_ALLOWED,
        "congestion control, by its Linux name (per flow: flows.N.cc); agent: the window never "
        "grows by itself and a loss keeps it, a learning agent sets it (airtcp.gym, "
        "docs/gym.md)",
    )
    recovery: str = _field(
        "newreno",
        _RECOVERY_ALLOWED,
        "loss recovery: tahoe (slow start after every loss), reno (fast retransmit and fast "
        "recovery), newreno (fast recovery that stays in recovery across partial ACKs, RFC "
        "6582), sack (the RFC 2018 option with conservative SACK-based recovery, RFC 6675)",
    )
    mss_bytes: int = _field(
        1460,
        _MSS_ALLOWED,
        "maximum segment size: payload bytes per segment (and the payload of the flow)",
        ge=1,
        le=MAX_MSS_BYTES,
    )
    min_rto_ms: float = _field(
        200.0,
        "number 0..1e10 ms",
        "lower bound of the retransmission timeout (Linux 200 ms; RFC 6298 says 1 s)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    max_rto_ms: float = _field(
        120_000.0,
        "number > 0 ms, >= min_rto_ms, <= 1e10",
        "upper bound of the retransmission timeout (Linux 120 s)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    initial_rto_ms: float = _field(
        1000.0,
        "number > 0 ms, <= 1e10",
        "RTO before the first RTT sample (RFC 6298: 1 s)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    clock_granularity_ms: float = _field(
        0.0,
        "number 0..1e10 ms; 0 = the nanosecond clock",
        "clock granularity G: RTO = SRTT + max(G, 4 RTTVAR) (RFC 6298 (2.2); NS-2 tcpTick_ 10 ms)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    timestamps: bool = _field(
        True,
        "true or false",
        "RFC 7323 timestamps: 12 option bytes per segment, an RTT sample on every ACK",
    )
    limited_transmit: bool = _field(
        True,
        "true or false",
        "RFC 3042 limited transmit: a new segment on each of the first two duplicate ACKs",
    )
    initial_cwnd: int = _field(
        10,
        f"integer 1..{MAX_INITIAL_CWND} segments",
        "initial congestion window (RFC 6928, Linux: 10)",
        ge=1,
        le=MAX_INITIAL_CWND,
    )
    delayed_ack: bool = _field(
        True,
        "true or false",
        "the receiver delays ACKs (ack_every, delack_timeout_ms); false = ACK every segment",
    )
    ack_every: int = _field(
        2,
        "integer >= 1 segments (ignored, = 1, when delayed_ack is false)",
        "with delayed_ack, the receiver ACKs every this many full segments (2 = the delayed ACK "
        "of RFC 1122/5681; k + 1 = skip k ACKs)",
        ge=1,
        le=_U32_MAX,
    )
    delack_timeout_ms: float = _field(
        40.0,
        "number 0..1e10 ms; 0 = no timer",
        "with delayed_ack, a held ACK goes out after this (Linux TCP_DELACK_MIN 40 ms)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    rcv_buf_bytes: int = _field(
        6 * 1024 * 1024,
        "integer >= tcp.mss_bytes bytes",
        "receive buffer = the largest advertised window (Linux tcp_rmem[2] = 6 MiB)",
        ge=1,
        le=_U32_MAX,
    )
    snd_buf_bytes: int = _field(
        4 * 1024 * 1024,
        "integer >= tcp.mss_bytes bytes",
        "send buffer = the most unacknowledged data (Linux tcp_wmem[2] = 4 MiB)",
        ge=1,
        le=_U32_MAX,
    )
    hystart: bool = _field(
        True,
        "true or false",
        "CUBIC's HyStart slow-start exit (Linux default on); other algorithms ignore it",
    )
    small_queues: bool = _field(
        False,
        "true or false",
        "Linux's TCP Small Queues (3.6+, tcp_write_xmit): a sender hands new data down only "
        "while at most max(2 truesizes of 2304 bytes, 1 ms at twice cwnd / SRTT) of the "
        "connection's packets wait in its node's qdisc and driver (at most `limit_output_bytes`, "
        "128 KiB by default; before 3.19 that limit is a floor or the whole rule: `tsq_rule`); the rest "
        "waits in the socket, woken at the same instant the driver frees one (tcp_wfree). "
        "Retransmissions are not held (docs/paper-000.md)",
    )
    rto_estimator: Literal["rfc6298", "linux"] = _field(
        "rfc6298",
        '"rfc6298" or "linux"',
        "RTO = max(min_rto_ms, SRTT + 4 RTTVAR) (RFC 6298), or Linux's tcp_rtt_estimator: "
        "SRTT + a variance term held at its peak for an RTT and never below min_rto_ms, so at "
        "least min_rto_ms above SRTT",
    )
    ack_counting: Literal["segments", "acks"] = _field(
        "segments",
        '"segments" or "acks"',
        "window growth per ACK: by the segments it acknowledges (Linux 4.1+), or one step per "
        "ACK however many it covers (Linux up to 3.17's tcp_slow_start(tp), "
        "tcp_cong_avoid_ai(tp, w): a stretch ACK counts once)",
    )
    corruption: Literal["off", "aggressive", "conservative"] = _field(
        "off",
        '"off", "aggressive" or "conservative"',
        "paper 004's TCP options (draft-welzl-tcp-corruption-00, in RFC 6994's experimental "
        "form): every data segment carries the 8-byte CDO (kind 253, ExID 0xCD01, a CRC32c "
        "over addresses, ports, sequence and acknowledgment numbers, control bits and ECN); a "
        "receiver given a corrupt segment whose headers held (mac.pass_corrupt), or LN-MAC's "
        "notification, sends at once an ACK with the 4-byte CNO (kind 253, ExID 0xC701) "
        "naming it, unless it holds that segment already; the sender takes an RTT sample from "
        "it and retransmits the segment, with cwnd unchanged (aggressive, the paper's choice) "
        "or cut as for a loss (conservative). A CNO ACK is never counted as a duplicate ACK. "
        "Summary: tcp.corruption per flow",
    )

    _check = _after(checks.tcp)


class MatrixConfig(_Model):
    """``[channel.matrix]``: explicit 0/1 connectivity, overriding the ranges."""

    rx: list[list[Literal[0, 1]]] = _field(
        ...,
        "n x n array of 0/1, one row and one column per node in node order",
        "rx[i][j] = 1: node j decodes node i's frames (every node, hosts included; the "
        "diagonal is ignored)",
    )
    cs: list[list[Literal[0, 1]]] = _field(
        ...,
        "n x n array of 0/1, one row and one column per node in node order, 1 wherever rx is 1",
        "cs[i][j] = 1: node j senses (and is interfered with by) node i's frames",
    )


_ERROR_KINDS = '"none", "fer", "ber", "gilbert" or "interferer"'


class ErrorNone(_Model):
    """No frame errors besides collisions."""

    kind: Literal["none"] = _field("none", _ERROR_KINDS, "none: only collisions lose frames")


class ErrorFer(_Model):
    """Every data frame is corrupted with a fixed probability."""

    kind: Literal["fer"] = _field(
        ...,
        _ERROR_KINDS,
        "fer: every frame (data, ACK, RTS and CTS alike) is corrupted with probability fer, "
        "drawn independently at each node that would otherwise decode it (the addressee and "
        "every overhearing neighbour, which then defers EIFS)",
    )
    fer: float = _field(..., "number in [0, 1)", "frame error rate", ge=0.0, lt=1.0)


class ErrorBer(_Model):
    """Every bit is corrupted independently with a fixed probability."""

    kind: Literal["ber"] = _field(
        ..., _ERROR_KINDS, "ber: every bit is corrupted with probability ber"
    )
    ber: float = _field(..., "number in [0, 1)", "bit error rate", ge=0.0, lt=1.0)


class ErrorGilbert(_Model):
    """Bursty loss per directed link: a Gilbert-Elliott channel in continuous time (Good and
    Bad states with exponential sojourns; a frame is lost with the state's probability)."""

    kind: Literal["gilbert"] = _field(
        ...,
        _ERROR_KINDS,
        "gilbert: bursty loss: every directed link is a Gilbert-Elliott channel in continuous "
        "time, Good and Bad with exponential sojourns of means good_ms and bad_ms; a frame "
        "(data, ACK, RTS or CTS) is lost whole with the probability of the state it starts in. "
        "Long-run loss (good_ms x loss_good + bad_ms x loss_bad) / (good_ms + bad_ms); losses "
        "come in runs that retries spaced closer than bad_ms cannot repair (paper 000's "
        "concave throughput over the retry limit needs this). docs/validation.md section 11 "
        "gives the closed forms",
    )
    good_ms: float = _field(
        ..., "number 1e-6..1e10 ms", "mean time in the Good state", ge=1e-6, le=1e10
    )
    bad_ms: float = _field(
        ..., "number 1e-6..1e10 ms", "mean time in the Bad state", ge=1e-6, le=1e10
    )
    loss_good: float = _field(
        0.0, "number in [0, 1]", "probability that a frame is lost in Good", ge=0.0, le=1.0
    )
    loss_bad: float = _field(
        1.0, "number in [0, 1]", "probability that a frame is lost in Bad", ge=0.0, le=1.0
    )


class ErrorInterferer(_Model):
    """An external on/off interferer per directed link: on and off for exponential periods; a
    frame it overlaps at any instant is lost."""

    kind: Literal["interferer"] = _field(
        ...,
        _ERROR_KINDS,
        "interferer: an external on/off interferer per directed link (a microwave oven, a "
        "neighbouring network): on and off for exponential periods of means on_ms and off_ms; "
        "a frame it overlaps at any instant is lost whole. Unlike gilbert, long frames suffer "
        "more: a frame of duration d starting at a random time is lost with probability "
        "pi_on + pi_off (1 - exp(-d / off_ms)), pi_on = on_ms / (on_ms + off_ms) "
        "(docs/validation.md section 11)",
    )
    on_ms: float = _field(..., "number 1e-6..1e10 ms", "mean on (burst) time", ge=1e-6, le=1e10)
    off_ms: float = _field(..., "number 1e-6..1e10 ms", "mean off time", ge=1e-6, le=1e10)


_ErrorModel = Annotated[  # noqa: UP007
    Union[ErrorNone, ErrorFer, ErrorBer, ErrorGilbert, ErrorInterferer],  # noqa: UP007
    Field(discriminator="kind"),
]


_RATE_TABLE = "[[rate_mbps, dbm], ...]: rates of the standard, dbm {}"


class ChannelConfig(_Model):
    """``[channel]``: who hears whom, and the error model. ``model = "range"`` (ranges or a
    matrix, fixed error models) or ``"radio"`` (powers, path loss, fading and SINR; defaults
    are ns-3 3.44's YansWifiPhy and YansWifiChannelHelper::Default)."""

    model: Literal["range", "radio"] = _field(
        "range",
        '"range" or "radio"',
        "range: rx/cs ranges or a matrix; radio: received power and SINR per frame",
    )

    rx_range_m: float = _field(
        250.0,
        "number > 0 metres, <= 1e6",
        "decode range: within it a frame is received",
        gt=0.0,
        le=MAX_DISTANCE_M,
    )
    cs_range_m: float | None = _field(
        None,
        "number >= channel.rx_range_m metres, <= 1e6, or unset (= rx_range_m)",
        "carrier-sense and interference range",
        gt=0.0,
        le=MAX_DISTANCE_M,
    )
    matrix: MatrixConfig | None = _field(
        None, "a table with rx and cs, or unset", "explicit connectivity, overrides the ranges"
    )
    error: _ErrorModel = Field(  # type: ignore[assignment]
        default_factory=ErrorNone,
        description="frame error model",
        json_schema_extra={
            "allowed": 'kind = "none", "fer" (with fer), "ber" (with ber), "gilbert" '
            '(with good_ms, bad_ms, loss_good, loss_bad) or "interferer" (with on_ms, off_ms)'
        },
    )
    preamble_detection: bool | None = _field(
        None,
        'true, false, or unset (= false with model "range", true with "radio", as ns-3)',
        "receivers must detect a preamble first. Range model: frames that start within 4 us of "
        "each other (a same-slot collision) are detected by nobody, so bystanders see energy "
        "only and defer DIFS/AIFS, not EIFS (ns-3's default ThresholdPreambleDetectionModel "
        "with equal-power frames); false follows the standard's EIFS rule for every garbled "
        "frame. Radio model: a frame is locked onto only at or above "
        "preamble_detection_min_rssi_dbm and preamble_detection_snr_db of SINR; within the "
        "first 4 us the stronger of two frames wins if it passes, else neither",
    )
    # -- model = "radio" -----------------------------------------------------------------------
    path_loss: Literal["log-distance", "friis"] = _field(
        "log-distance",
        '"log-distance" or "friis"',
        "radio: the path-loss model (ns-3 LogDistancePropagationLossModel, "
        "FriisPropagationLossModel)",
    )
    path_loss_exponent: float = _field(
        3.0,
        "number 1..10",
        "radio, log-distance: exponent n, loss L0 + 10 n log10(d / d0) (ns-3: 3)",
        ge=1.0,
        le=10.0,
    )
    reference_distance_m: float = _field(
        1.0,
        "number 0.001..1e4 metres",
        "radio, log-distance: d0 (loss L0 below it)",
        ge=1e-3,
        le=1e4,
    )
    reference_loss_db: float = _field(
        46.6777,
        "number 0..200 dB",
        "radio, log-distance: L0, the loss at d0 (ns-3: 46.6777, Friis at 5.15 GHz, 1 m)",
        ge=0.0,
        le=200.0,
    )
    frequency_ghz: float = _field(
        5.15,
        "number 0.001..1000 GHz",
        'radio: carrier frequency: Friis\'s wavelength, and the Doppler of fading = "doppler" '
        "(a moving node adds speed x frequency / c) and of TGn's environment (ns-3: 5.15)",
        ge=1e-3,
        le=1e3,
    )
    system_loss_db: float = _field(
        0.0,
        "number 0..100 dB",
        "radio, friis: extra loss (ns-3 SystemLoss 1 = 0 dB)",
        ge=0.0,
        le=100.0,
    )
    tx_power_dbm: float = _field(
        16.0206,
        "number -50..60 dBm",
        "radio: transmit power of every node (ns-3: 40 mW)",
        ge=-50.0,
        le=60.0,
    )
    tx_power_by_rate_dbm: list[list[float]] = _field(
        [],
        _RATE_TABLE.format("-50..60"),
        "radio: transmit power per data rate (QualNet style), e.g. QualNet's 802.11a defaults "
        "[[6, 20], [9, 20], [12, 19], [18, 19], [24, 18], [36, 18], [48, 16], [54, 16]]; a "
        "node's own tx_power_dbm overrides it",
    )
    noise_figure_db: float = _field(
        7.0,
        "number 0..50 dB",
        "radio: receiver noise figure NF (ns-3: 7): noise = -174 dBm/Hz + 10 log10(B) + NF, "
        "B = 20 MHz (22 MHz for DSSS on 802.11b)",
        ge=0.0,
        le=50.0,
    )
    shadowing_db: float = _field(
        0.0,
        "number 0..30 dB",
        "radio: log-normal shadowing: every node pair's path loss gains a zero-mean normal "
        "term of this deviation (Rappaport Eq. 4.69, PL(d) = PL(d0) + 10 n log(d/d0) + "
        "X_sigma), drawn once per pair from the seed and the two names, the same both ways and "
        "for the whole run (a moving node keeps its draws); routes, the reachability check and "
        "the warnings read the median budget without it, as they ignore fading; 0: none",
        ge=0.0,
        le=30.0,
    )
    fading_seed: int | None = _field(
        None,
        "unset, or integer 0..2^64-1",
        "radio: the seed of the channel's realization (the shadowing and fading draws) in "
        "place of the run's: every replication then sees the same channel, as runs at one "
        "place do, while the run's seed draws the rest (backoffs, errors, traffic, mobility); "
        "unset: the run's seed",
        ge=0,
        le=2**64 - 1,
    )
    rx_sensitivity_dbm: float = _field(
        -101.0,
        "number -200..0 dBm",
        "radio: weaker signals are not seen at all, not even as interference (+0.41 dB for "
        "22 MHz DSSS, as ns-3)",
        ge=-200.0,
        le=0.0,
    )
    rx_sensitivity_by_rate_dbm: list[list[float]] = _field(
        [],
        _RATE_TABLE.format("-200..0"),
        "radio: a frame at that rate is received only at or above this power (QualNet's "
        "802.11a: [[6, -85], [9, -85], [12, -83], [18, -83], [24, -78], [36, -78], [48, -69], "
        "[54, -69]])",
    )
    cca_threshold_dbm: float = _field(
        -82.0,
        "number -200..0 dBm",
        "radio: a frame at least this strong turns the medium busy (17.3.10.6; ns-3 "
        "CcaSensitivity); a frame a node locks onto always does",
        ge=-200.0,
        le=0.0,
    )
    error_model: Literal["nist", "yans"] = _field(
        "nist",
        '"nist" or "yans"',
        "radio: SNR to chunk success for OFDM (ns-3's NistErrorRateModel, "
        "YansErrorRateModel); DSSS/CCK use ns-3's DSSS model under both",
    )
    exact: bool = _field(
        False,
        "true or false",
        "radio: true computes every chunk's success with the exact model and every node's "
        "received power, for validation; false (the default) takes two shortcuts that change no "
        "result: success rates from tables over the SINR, each with a bound on its distance "
        "from the exact model (at most 1e-6), the exact value computed only where a draw falls "
        "within that bound (CCK's integral above all); and, without fading or with Rayleigh's, "
        "only the nodes a frame can reach above the sensitivity with the largest fade the "
        "fading draws can give",
    )
    fading: Literal["none", "rayleigh", "nakagami", "doppler", "tgn-b", "tgn-d"] = _field(
        "none",
        '"none", "rayleigh", "nakagami", "doppler", "tgn-b" or "tgn-d"',
        "radio: fading of every directed link: rayleigh and nakagami draw a fresh fade per frame "
        "(or per coherence_ms); doppler is Rayleigh fading that changes continuously with "
        "Clarke's Doppler spectrum at doppler_hz (Zheng and Xiao's sum of sinusoids); tgn-b and "
        "tgn-d are the IEEE 802.11 TGn channel models B (residential) and D (office): "
        "frequency-selective tapped delay lines whose taps fade with TGn's bell Doppler "
        "spectrum, OFDM PPDUs decoded at the effective SINR of their subcarriers (EESM), with "
        "the model's line-of-sight ray within 5 m (B) or 10 m (D)",
    )
    nakagami_m: float = _field(
        1.0, "number 0.5..100", "radio, nakagami: shape m (1 = Rayleigh)", ge=0.5, le=100.0
    )
    coherence_ms: float | None = _field(
        None,
        "number > 0 ms, <= 1e7, or unset (one fade per frame)",
        "radio: frames starting in one coherence block of this length share their fade "
        "(retries within it too)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    doppler_hz: float | None = _field(
        None,
        'number 0..1e5 Hz; required with fading = "doppler"; with "tgn-b" or "tgn-d" unset is '
        "TGn's 1.2 km/h at frequency_ghz (5.726 Hz at 5.15 GHz)",
        "radio, doppler and tgn: the maximum Doppler shift f_D = v f / c (17.3 Hz for 1 m/s at "
        "5.2 GHz; 0: a channel that never changes)",
        ge=0.0,
        le=1e5,
    )
    estimation: Literal["ideal", "preamble"] = _field(
        "ideal",
        '"ideal" or "preamble"',
        "radio: when a receiver estimates the channel: at every instant, or once at the PPDU's "
        "preamble (802.11n's HT-LTFs), so each subframe of an A-MPDU decodes against a stale "
        "estimate, SINR |h(0)|^2 S / (N + I + |h(0) - h(t)|^2 S) (MoFA; per subcarrier under "
        'TGn); matters with fading = "doppler", "tgn-b" or "tgn-d" only',
    )
    preamble_detection_snr_db: float = _field(
        4.0,
        "number -50..100 dB",
        "radio: minimum SINR of a detected preamble (ns-3 ThresholdPreambleDetectionModel: 4)",
        ge=-50.0,
        le=100.0,
    )
    preamble_detection_min_rssi_dbm: float = _field(
        -82.0,
        "number -200..0 dBm",
        "radio: minimum power to detect a preamble (ns-3: -82)",
        ge=-200.0,
        le=0.0,
    )
    capture: bool = _field(
        False,
        "true or false",
        "radio: frame capture: a newcomer more than capture_margin_db stronger, within "
        "capture_window_us of the start of the frame being received, takes the receiver over "
        "(ns-3 SimpleFrameCaptureModel; off in ns-3 by default)",
    )
    capture_margin_db: float = _field(
        5.0, "number 0..100 dB", "radio, capture: how much stronger (ns-3: 5)", ge=0.0, le=100.0
    )
    capture_window_us: float = _field(
        16.0,
        "number > 0 us, <= 1e6",
        "radio, capture: how soon after the first frame's start (ns-3: 16)",
        gt=0.0,
        le=1e6,
    )

    _check = _after(checks.channel)


_MOBILITY_KINDS = '"constant-velocity", "circle", "waypoints" or "random-waypoint"'
_MOBILITY_ALLOWED = (
    'a table: kind = "constant-velocity" (speed_mps, direction or heading_deg, start_s), '
    '"circle" (speed_mps, start_s), "waypoints" (points) or "random-waypoint" (area_m, '
    "speed_min_mps, speed_max_mps, pause_s, steady_state)"
)


class MobilityConstantVelocity(_Model):
    """Straight on at a constant speed from the start position (ns-3 ConstantVelocity)."""

    kind: Literal["constant-velocity"] = _field(
        ...,
        _MOBILITY_KINDS,
        "constant-velocity: straight on from the start position (ns-3 "
        'ConstantVelocityMobilityModel); a node moving "toward" passes the origin and goes on',
    )
    speed_mps: float = _field(..., "number 0..1e4 m/s", "speed", ge=0.0, le=1e4)
    direction: Literal["away", "toward"] | None = _field(
        None,
        '"away", "toward" (from / to the origin, where a bss AP stands), or unset',
        "which way, relative to the origin (exactly one of direction and heading_deg)",
    )
    heading_deg: float | None = _field(
        None,
        "number -360..360 degrees, or unset",
        "which way: 0 = +x, 90 = +y (exactly one of direction and heading_deg)",
        ge=-360.0,
        le=360.0,
    )
    start_s: float = _field(
        0.0, "number >= 0 s", "the node stands still until then", ge=0.0, le=MAX_TIME_S
    )

    _check = _after(checks.mobility_constant_velocity)


class MobilityCircle(_Model):
    """Round the origin at the node's distance, so only the Doppler of its links changes."""

    kind: Literal["circle"] = _field(
        ...,
        _MOBILITY_KINDS,
        "circle: round the origin (where a bss AP stands) at the node's distance, "
        "counter-clockwise, as 64 straight chords a turn (waypoints): the distance stays "
        "within 0.12 % while the node's speed moves its links' Doppler (fading = \"doppler\")",
    )
    speed_mps: float = _field(..., "number 0..100 m/s", "speed", ge=0.0, le=100.0)
    start_s: float = _field(
        0.0, "number >= 0 s", "the node stands still until then", ge=0.0, le=MAX_TIME_S
    )


class MobilityWaypoints(_Model):
    """Straight lines between timed points; the node starts at the first point."""

    kind: Literal["waypoints"] = _field(
        ...,
        _MOBILITY_KINDS,
        "waypoints: straight lines at constant speed between the points (ns-3 "
        "WaypointMobilityModel); the node starts at the first point (its x_m, y_m, z_m are "
        "replaced) and stays at the last",
    )
    points: list[list[float]] = _field(
        ...,
        "[[t_s, x_m, y_m, z_m], ...]: at least one point, times strictly increasing, >= 0",
        "where the node is when (times at least 1 ns apart: the core counts whole nanoseconds)",
        min_length=1,
    )

    _check = _after(checks.mobility_waypoints)


class MobilityRandomWaypoint(_Model):
    """Random waypoint in a rectangle (ns-3 RandomWaypointMobilityModel, or its steady-state
    variant)."""

    kind: Literal["random-waypoint"] = _field(
        ...,
        _MOBILITY_KINDS,
        "random-waypoint: random waypoint in the rectangle at the node's height (ns-3 "
        "RandomWaypointMobilityModel); the start position is drawn",
    )
    area_m: list[float] = _field(
        ...,
        "[x_min, y_min, x_max, y_max] metres, min <= max",
        "the rectangle",
        min_length=4,
        max_length=4,
    )
    speed_min_mps: float = _field(
        ...,
        "number 0..1e4 m/s, <= speed_max_mps",
        "slowest leg; with 0 a warning says why the mean speed decays over the run (Yoon, "
        "Liu, Noble 2003)",
        ge=0.0,
        le=1e4,
    )
    speed_max_mps: float = _field(..., "number > 0 m/s, <= 1e4", "fastest leg", gt=0.0, le=1e4)
    pause_s: float = _field(0.0, "number >= 0 s", "pause before each leg", ge=0.0, le=MAX_TIME_S)
    steady_state: bool = _field(
        False,
        "true or false",
        "start in the stationary distribution (ns-3 SteadyStateRandomWaypointMobilityModel; "
        "needs speed_min_mps > 0 and an area of positive width and height)",
    )

    _check = _after(checks.mobility_random_waypoint)


_Mobility = Annotated[  # noqa: UP007
    Union[  # noqa: UP007
        MobilityConstantVelocity, MobilityCircle, MobilityWaypoints, MobilityRandomWaypoint
    ],
    Field(discriminator="kind"),
]


class NodeConfig(_Model):
    """``[[nodes]]``: a node besides the generated ones (all nodes for topology "custom")."""

    name: str = _field(
        ...,
        "a unique name: " + NAME_ALLOWED,
        "the node's name, used by links, routes and flows, and in pcap file names",
    )
    x_m: float = _field(
        0.0, "number -1e6..1e6 metres", "position x", ge=-MAX_DISTANCE_M, le=MAX_DISTANCE_M
    )
    y_m: float = _field(
        0.0, "number -1e6..1e6 metres", "position y", ge=-MAX_DISTANCE_M, le=MAX_DISTANCE_M
    )
    z_m: float = _field(
        0.0, "number -1e6..1e6 metres", "position z", ge=-MAX_DISTANCE_M, le=MAX_DISTANCE_M
    )
    role: Literal["ap", "sta", "adhoc", "mesh", "host"] = _field(
        ...,
        '"ap", "sta", "adhoc", "mesh" or "host"',
        'access point, station, ad-hoc node, 802.11s mesh point (needs [mesh]), or "host" (no '
        "WiFi, wired links only)",
    )
    rate_control: str | None = _field(
        None,
        _RATE_CONTROL_ALLOWED + ", or unset (= mac.rate_control)",
        "this node's own rate control of data frames (minstrel-ht on 802.11n and 802.11ac, "
        "ath9k on 802.11n only; not for a host)",
    )
    tx_power_dbm: float | None = _field(
        None,
        'number -50..60 dBm, or unset (= channel.tx_power_dbm); channel.model = "radio"',
        "this node's transmit power, at every rate (not for a host)",
        ge=-50.0,
        le=60.0,
    )
    mobility: _Mobility | None = Field(  # type: ignore[assignment]
        default=None,
        description='how the node moves (channel.model = "radio"; not for a host); unset: it '
        "stands still",
        json_schema_extra={"allowed": _MOBILITY_ALLOWED},
    )

    _check = _after(checks.node)


class LinkConfig(_Model):
    """``[[links]]``: a wired point-to-point link."""

    a: str = _field(..., "a node name", "one end")
    b: str = _field(
        ..., "a node name", "the other end, another node than a (one link per pair of nodes)"
    )
    rate_mbps: float = _field(
        ...,
        "number > 0 Mbit/s, <= 1e5",
        "link rate (converted to integer bit/s)",
        gt=0.0,
        le=MAX_LINK_RATE_MBPS,
    )
    delay_ms: float = _field(
        ...,
        "number 0..1e10 ms",
        "one-way propagation delay (converted to integer ns)",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    queue_limit_packets: int = _field(
        100,
        f"integer 1..{MAX_QUEUE_PACKETS} packets",
        "DropTail queue per end: packets waiting behind the one on the wire (as ns-3's "
        "PointToPointNetDevice and Linux's qdisc, which dequeue a packet to send it)",
        ge=1,
        le=MAX_QUEUE_PACKETS,
    )
    loss: float = _field(
        0.0,
        "number in [0, 1)",
        "random loss of packets from a to b (netem loss on a's egress)",
        ge=0.0,
        lt=1.0,
    )
    reverse_loss: float = _field(
        0.0, "number in [0, 1)", "random loss of packets from b to a", ge=0.0, lt=1.0
    )


class RouteConfig(_Model):
    """``[[routes]]``: a static route; explicit routes win over computed ones."""

    node: str = _field(..., "a node name", "the node that forwards")
    dst: str = _field(..., "a node name", "the destination, not node")
    next_hop: str = _field(
        ...,
        "a node name, a neighbour of node",
        "where node sends packets for dst: a neighbour over a wired link, or over WiFi in "
        "range both ways",
    )


# The flow kinds are the core's (FLOW_KINDS, the world spec's FlowKind), spelled as the world
# spec and the summary spell them.
if TYPE_CHECKING:  # a type checker cannot read the core's list
    FlowKind = str
else:
    FlowKind = Literal[FLOW_KINDS]
_FLOW_KIND_ALLOWED = ", ".join(f'"{k}"' for k in FLOW_KINDS[:-1]) + f' or "{FLOW_KINDS[-1]}"'
# UDP sources paced by rate_mbps: constant gaps, exponential gaps, or on/off periods.


class FlowConfig(FlowShape, _Model):
    """``[[flows]]``: a traffic source; a glob ``src`` gives one flow per matching node."""

    kind: FlowKind = _field(
        ...,
        _FLOW_KIND_ALLOWED,
        "the traffic source. UDP: udp_saturating, a source that always has a packet queued; "
        "udp_cbr, constant bit rate; udp_poisson, Poisson arrivals (exponential gaps of mean "
        "payload_bytes x 8 / rate_mbps); udp_onoff, ns-3's OnOffApplication (rate_mbps while "
        "on, nothing while off; an off period first, each on period's first packet one "
        "interval in, less what the last on period had sent of one). Saturating sources at "
        "one node that share a queue are refilled in [[flows]] order, so the first takes "
        "every free slot and the others starve; to load several destinations from one node, "
        "give them different access categories or use udp_cbr above the link's capacity. "
        "TCP: tcp_bulk, a bulk transfer that always has data to send (iperf-like) from start_s "
        "until stop_s or the end; tcp_file, a transfer of file_bytes bytes (its completion "
        "time and its own throughput, transfer_throughput_bps, are reported). CLAP: "
        "clap_file, a transfer of file_bytes bytes by CLAP (docs/clap.md). The names are the "
        "world spec's and the summary's; the hyphenated spelling of earlier versions "
        "(tcp-bulk) is refused with the name to write",
    )
    src: str = _field(
        ...,
        'a node name, or a glob like "sta*" (one flow per matching node except dst)',
        "sender; a glob (sta*, n[0-3]) gives one flow per matching node, in node order, "
        "skipping dst",
    )
    dst: str = _field(..., "a node name", "receiver, reachable from every src")
    payload_bytes: int | None = _field(
        None,
        _PAYLOAD_ALLOWED + ", or unset (= top-level payload_bytes); unset for TCP and CLAP flows",
        "UDP payload per packet (TCP flows send tcp.mss_bytes, CLAP flows clap.mss_bytes)",
        ge=1,
    )
    rate_mbps: float | None = _field(
        None,
        'number > 0 Mbit/s, <= 1e4 and <= 10^6 packets/s, for "udp_cbr", "udp_poisson" and '
        '"udp_onoff"; unset for the other kinds',
        "offered load, converted to integer bit/s (so at least 1e-6, 1 bit/s): CBR's, a "
        "Poisson source's mean, an on/off source's while on",
        gt=0.0,
        le=MAX_CBR_RATE_MBPS,
    )
    on_ms: float | None = _field(
        None,
        'number > 0 ms, <= 1e10, for "udp_onoff" (required); unset for the other kinds',
        "mean on period (ns-3 OnOffApplication OnTime); the mean offered load is rate_mbps x "
        "on_ms / (on_ms + off_ms)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    off_ms: float | None = _field(
        None,
        'number > 0 ms, <= 1e10, for "udp_onoff" (required); unset for the other kinds',
        "mean off period (ns-3 OnOffApplication OffTime)",
        gt=0.0,
        le=MAX_TIME_MS,
    )
    periods: Literal["exponential", "pareto"] = _field(
        "exponential",
        '"exponential" or "pareto" ("udp_onoff" only)',
        "distribution of the on and off periods around each one's mean: exponential, or "
        "Pareto of shape pareto_shape (heavy-tailed bursts)",
    )
    pareto_shape: float = _field(
        1.5,
        'number > 1 and <= 100 (periods = "pareto" only)',
        "Pareto shape of the periods (scale = mean (shape - 1) / shape; ns-3 "
        "ParetoRandomVariable); a finite mean needs > 1, a finite variance > 2",
        gt=1.0,
        le=100.0,
    )
    start_jitter_s: float = _field(
        0.0,
        "number >= 0 s; start_s + start_jitter_s < stop_s and duration_s",
        "the flow starts at start_s plus a uniform draw in [0, start_jitter_s), the same for a "
        "seed (the flow's own stream, from its ends' names and its rank among their flows: "
        "adding another flow moves no start)",
        ge=0.0,
        le=MAX_TIME_S,
    )
    file_bytes: int | None = _field(
        None,
        'integer 1..10^12 bytes for "tcp_file" and "clap_file"; unset for the other kinds',
        "bytes a tcp_file or clap_file flow transfers",
        ge=1,
        le=MAX_FILE_BYTES,
    )
    cc: str | None = _field(
        None,
        _CC_ALLOWED + ", or unset (= top-level cc, else tcp.cc); TCP flows only",
        "congestion control of this flow",
    )
    recovery: str | None = _field(
        None,
        _RECOVERY_ALLOWED + ", or unset (= top-level recovery, else tcp.recovery); TCP flows only",
        "loss recovery of this flow",
    )
    start_s: float = _field(
        0.0,
        "number >= 0 s, < duration_s",
        "when the source starts (a TCP flow opens its connection)",
        ge=0.0,
        le=MAX_TIME_S,
    )
    stop_s: float | None = _field(
        None,
        "number > start_s seconds, <= 1e7, or unset (= until the end); unset for "
        '"tcp_file" and "clap_file"',
        "when the source stops (a file flow ends when its file is delivered)",
        gt=0.0,
        le=MAX_TIME_S,
    )
    ac: Literal["be", "bk", "vi", "vo"] = _field(
        "be", '"be", "bk", "vi" or "vo"', "EDCA access category (DCF ignores it)"
    )
    report_interval_s: float | None = _field(
        None,
        "number > 0 seconds, >= duration_s / 10^6, or unset (= top-level report_interval_s)",
        "goodput reported per interval, like iperf -i",
        gt=0.0,
        le=MAX_TIME_S,
    )

    @field_validator("kind", mode="before")
    @classmethod
    def _underscores(cls, value: object) -> object:
        return checks.flow_kind(value)

    _check = _after(checks.flow)


class ClapConfig(_PassThrough):
    """``[clap]``: parameters of every clap_file flow (docs/clap.md gives each reason)."""

    CORE: ClassVar[str] = "ClapSpec"

    mss_bytes: int = _field(
        1000,
        f"integer 1..{MAX_CLAP_MSS_BYTES} bytes: the 2304-byte maximum MSDU minus 8 LLC/SNAP, "
        "20 IPv4 and 20 CLAP header bytes",
        "payload per data segment (paper 001: 1000)",
        ge=1,
        le=MAX_CLAP_MSS_BYTES,
    )
    feedback_interval_ms: float = _field(
        100.0,
        "number 0.001..1e10 ms",
        "the receiver sends one aggregate NACK feedback per interval (and one at once when the "
        "file is complete)",
        ge=0.001,
        le=MAX_TIME_MS,
    )
    max_nack_ranges: int = _field(
        16,
        "integer 1..16 ranges",
        "NACK ranges per feedback (8 bytes each); beyond it the list names the lowest holes",
        ge=1,
        le=16,
    )
    queue_target_frames: int = _field(
        2,
        "integer >= 0 frames",
        "MAC queue length the rate law aims at (q* in docs/clap.md)",
        ge=0,
        le=_U32_MAX,
    )
    send_buffer_segments: int = _field(
        4096,
        "integer >= 1 segments",
        "new segments are sent only below the cumulative point + this many",
        ge=1,
        le=_U32_MAX,
    )


class TracesConfig(_PassThrough):
    """``[traces]``: which per-event traces the core records."""

    CORE: ClassVar[str] = "TraceSpec"

    mac_tx: bool = _field(False, "true or false", "one row per MAC transmission attempt")
    packets: bool = _field(
        False,
        "true or false",
        "one row per delivered UDP packet (flow, seq, created_ns, delivered_ns)",
    )
    tcp: bool = _field(
        False,
        "true or false",
        "TCP sender state after every ACK and timeout: time_ns, flow, cwnd, ssthresh, srtt_ns, "
        "rto_ns, in_flight_bytes, pacing_rate_bps (BBR's; 0 when not paced), ca_state",
    )
    tcp_segments: bool = _field(
        False,
        "true or false",
        "TCP segment events with seq, ack, len: at the sender sent, retransmit, acked, dupack, "
        "timeout, local_drop (refused by its own interface under tcp.local_congestion = "
        '"cwr": not sent, sent again later); at the receiver received and ack_sent (the raw '
        "material of paper 001's sequence diagrams)",
    )
    frames: bool = _field(
        False,
        "true or false",
        "every frame a node sent or decoded per interface (time_ns, node, iface: 0 wireless, "
        "k + 1 wired link k, rx, kind, retry, bytes, head: header bytes): the input of pcap "
        "export (docs/pcap.md); airtcp run --pcap DIR switches it on",
    )
    rates: bool = _field(
        False,
        "true or false",
        "every change of a sender's data mode toward a peer by rate control (time_ns, node, "
        "peer, mode: the mode's name, rate_kbps): each attempt's mode, so a retry chain's "
        "fallbacks and Minstrel's look-around frames show; airtcp plot trace --kind rates "
        "draws it",
    )
    receptions: bool = _field(
        False,
        'true or false (channel.model = "radio")',
        "every reception a node locked onto, at its end (time_ns, node: the receiver, src, "
        "kind, mode, rx_dbm: power with the fade, snr_db: over the noise floor, min_sinr_db: "
        "the lowest SINR over its chunks, interfered, outcome: ok, phy_header_error, "
        "header_error (MAC header), upper_header_error (LLC/SNAP, IP or TCP/UDP header, the "
        "MAC header intact), payload_error (every header intact)); airtcp plot trace --kind "
        "receptions draws it",
    )
    positions: bool = _field(
        False,
        'true or false (channel.model = "radio")',
        "where each moving node is at every frame it starts (time_ns, node, x_m, y_m, z_m); "
        "airtcp plot trace --kind positions draws the distance from the origin (or --y x, "
        "--y y)",
    )
    windows: bool = _field(
        False,
        "true or false (mac.arf_window_slot_ms set)",
        "paper 003's window decisions: each change of rate a station acted on (time_ns, node, "
        "flow, old_kbps, new_kbps), Eq. 11's wnd_max_bytes and the applied_bytes (advertised "
        "window or cwnd cap), role (receiver or sender)",
    )
    mpdus: bool = _field(
        False,
        'true or false (standard = "80211n", "80211ac" or "80211ax" with ht.ampdu)',
        "every MPDU of an A-MPDU as its PPDU ends (time_ns, node, peer, ac, seq, flow): fate "
        "(acked, retry, dropped), its sw_retries, its position in the PPDU (0: first) and "
        "offset_ns (its start after the PPDU's), and its PPDU's ppdu_attempts, subframes and "
        "block_ack; the mac_tx trace holds the PPDUs (an A-MPDU's bytes is its PSDU). Pcaps "
        "record each subframe of an A-MPDU with radiotap's A-MPDU status (reference number, "
        "last subframe)",
    )


Standard = Literal["80211a", "80211b", "80211g", "80211n", "80211ac", "80211ax"]


class MeshConfig(_PassThrough):
    """``[mesh]``: IEEE 802.11s as Linux runs it (open80211s): the mesh points (the nodes of a
    chain, or [[nodes]] of role "mesh") peer with the mesh points they hear, except over the
    chain's blocked links, and find paths by HWMP over the Airtime Link Metric."""

    CORE: ClassVar[str] = "MeshSpec"

    beacon_interval_tu: int = _field(
        1000,
        "integer 10..65535 TU",
        "mesh Beacon interval (Linux MESH_DEFAULT_BEACON_INTERVAL: 1000 TU)",
        ge=10,
        le=65535,
    )
    metric: Literal["linux-3.12", "linux"] = _field(
        "linux-3.12",
        '"linux-3.12" or "linux"',
        "the Airtime Link Metric's arithmetic: Linux 3.12's 32-bit product (paper 000's "
        "kernel), or today's 64-bit one",
    )
    active_path_timeout_tu: int = _field(
        4882,
        "integer 1..655350 TU",
        "dot11MeshHWMPactivePathTimeout: a path lives this long after its last PREQ or PREP "
        "(Linux: 5000 ms = 4882 TU)",
        ge=1,
        le=655350,
    )
    max_preq_retries: int = _field(
        4,
        "integer 0..30",
        "dot11MeshHWMPmaxPREQretries: discovery retries before the queued frames are dropped "
        "(Linux: 4)",
        ge=0,
        le=30,
    )
    alm_retry: bool = _field(
        False,
        "true or false",
        "paper 000's proposed remedy at every mesh point (xlayer::alm_retry): the diameter "
        "estimate from its path table (the two costliest paths behind different next hops), "
        "the travel time it implies for each retry limit (alm_travel_us_per_metric; unset: "
        "Table III's normal case per unit of metric), the node's retry limit stepped once per "
        "poll toward the largest that keeps it under TCP's RTO_min (200 ms); starts from "
        "retry_limit",
    )
    alm_retry_interval_ms: float = _field(
        1000.0,
        "number 1..1e7 ms",
        "how often the remedy reads the path table (a user-space daemon's poll)",
        ge=1.0,
        le=1e7,
    )
    blocked_links: list[list[str]] = _field(
        [],
        "a list of [node, node] pairs of mesh points",
        "peer links blocked at both ends (`iw ... plink_action block`), beside a chain's own: "
        "the two mesh points never peer, so HWMP routes around the link (paper 000's path "
        "enforcement on any topology)",
    )
    alm_travel_us_per_metric: list[float] | None = _field(
        None,
        "32 numbers >= 0 us (retry limits 0..31), or unset (= Table III's normal case)",
        "the remedy's map: multi-hop travel time per unit of path metric at each retry limit "
        "0..31 (a measured one: airtcp reproduce 000 measures it with UDP probes, "
        "docs/paper-000.md)",
    )

    @field_validator("alm_travel_us_per_metric")
    @classmethod
    def _map(cls, v: list[float] | None) -> list[float] | None:
        return checks.alm_map(v)


class HtConfig(_PassThrough):
    """``[ht]``: the PHY of 802.11n (HT), 802.11ac (VHT) and 802.11ax (HE single-user), for
    ``standard = "80211n"``, ``"80211ac"`` or ``"80211ax"``; defaults as ns-3's."""

    CORE: ClassVar[str] = "HtSpec"

    band_ghz: Literal[2.4, 5.0] = _field(5.0, "2.4 or 5 (802.11ac: 5)", "the frequency band [GHz]")
    channel_width_mhz: Literal[20, 40, 80, 160] = _field(
        20,
        "20 or 40 (802.11n, and 802.11ax in 2.4 GHz); 20, 40, 80 or 160 (802.11ac, 802.11ax)",
        "the channel width [MHz]; data frames use it (20 on every standard: ns-3 3.44 starts "
        "802.11ac and 802.11ax at 80 MHz in 5 GHz)",
    )
    short_gi: bool = _field(
        False,
        "true or false (802.11n, 802.11ac)",
        "the 400 ns guard interval for data frames (else 800 ns)",
    )
    gi_ns: Literal[800, 1600, 3200] | None = _field(
        None,
        "800, 1600 or 3200 (802.11ax only), or unset (800)",
        "802.11ax: the data frames' guard interval [ns], with the HE-LTF it pairs with (2x, "
        "2x, 4x); ns-3 3.44's HeConfiguration starts at 3200",
    )
    streams: Literal[1, 2, 3, 4] = _field(
        1,
        "1 or 2 (802.11n); 1..4 (802.11ac, 802.11ax)",
        "spatial streams: on 802.11n those every station supports (2 allows MCS 8-15); on "
        "802.11ac and 802.11ax those every data frame uses",
    )
    mcs: int = _field(
        7,
        "integer 0..7 (802.11n, one stream) or 0..15 (two); 0..9 (802.11ac, less the "
        "standard's holes); 0..11 (802.11ax)",
        "the data frames' MCS at the channel's width, streams and guard interval "
        '(mac.rate_control = "constant"); an adaptive rate control does not read it (the ARF '
        "family and legacy Minstrel start at the ladder's lowest rung, Minstrel-HT and ath9k "
        "from their tables)",
        ge=0,
        le=15,
    )
    ampdu: bool = _field(
        True,
        "true or false",
        'A-MPDU under HT-immediate Block Ack (needs mac.access = "edca", the default on '
        "802.11n); false: every data frame alone, acknowledged by an ACK",
    )
    aggregation: Literal["ns3", "ath9k"] = _field(
        "ns3",
        '"ns3" or "ath9k"',
        "the aggregate's limits: 65,535 bytes and 5.484 ms (ns-3 3.44), or also at most 32 "
        "subframes and 4 ms (ath9k)",
    )
    max_ampdu_time_us: int | None = _field(
        None,
        "integer 1..5484 us, or unset (the aggregation's: 5484 or 4000)",
        "the aggregate's longest PPDU in place of the aggregation preset's; at most 5484 us, "
        "aPPDUMaxTime of an HT-mixed PPDU (MoFA's mobility-aware lengths are shorter ones)",
        ge=1,
        le=5484,
    )
    max_ampdu_bytes: int | None = _field(
        None,
        "integer 1..65535 (802.11n), 1..1048575 (802.11ac), 1..6500631 (802.11ax), or unset "
        "(65535)",
        "the aggregate's largest PSDU in place of the preset's 65,535 bytes (ns-3 3.44's "
        "default on every standard), up to the standard's aPSDUMaxLength; the Block Ack window "
        "(64 MPDUs, 256 between 802.11ax stations) bounds the aggregate too",
        ge=1,
        le=6_500_631,
    )
    ampdu_adaptation: Literal["none", "mofa"] = _field(
        "none",
        '"none" or "mofa"',
        "how the aggregate's length follows the channel: the limits alone, or MoFA (Byeon et "
        "al., CoNEXT 2014) per peer within them: shorter when a BlockAck shows the second "
        "half's subframes lost 20 points more often than the first's or over 10 % lost, "
        "longer otherwise",
    )
    ppdu_attempts: int = _field(
        20,
        "integer 1..255",
        "transmissions of one A-MPDU while no BlockAck answers (ath9k's hardware tries: 4 + 4 "
        "+ 4 + 8 = 20)",
        ge=1,
        le=255,
    )
    mpdu_retries: int = _field(
        10,
        "integer 0..255",
        "software retries of one MPDU under Block Ack, then it is given up (ath9k 3.2's "
        "ATH_MAX_SW_RETRIES: 10)",
        ge=0,
        le=255,
    )


class Scenario(ScenarioShape, _Model):
    """A validated scenario. Build one with :func:`load`, :meth:`from_dict` or ``Scenario(...)``."""

    name: str = _field(
        "scenario",
        "a string of 1..200 characters",
        "names the run (copied into the summary as scenario)",
        min_length=1,
        max_length=200,
    )
    topology: Literal["bss", "chain", "custom"] = _field(
        "bss",
        '"bss", "chain" or "custom"',
        "which nodes are generated: bss, an AP with stations around it; chain, a line of "
        "ad-hoc nodes; custom, none ([[nodes]] lists them all)",
    )
    stations: int = _field(
        1,
        f'integer 1..{MAX_NODES - 1} (topology "bss" only)',
        'stations "sta1".."staN" around "ap"',
        ge=1,
        le=MAX_NODES - 1,
    )
    hops: int = _field(
        1,
        f'integer 1..{MAX_CHAIN_HOPS} (topology "chain" only)',
        'chain "n0".."n{hops}", hops + 1 nodes',
        ge=1,
        le=MAX_CHAIN_HOPS,
    )
    spacing_m: float = _field(
        10.0,
        "number > 0 metres, <= 1e6",
        "bss: distance station-AP; chain: distance between neighbours",
        gt=0.0,
        le=MAX_DISTANCE_M,
    )
    standard: Standard = _field(
        "80211a",
        '"80211a", "80211b", "80211g", "80211n", "80211ac" or "80211ax"',
        "PHY standard (802.11n HT, 802.11ac VHT and 802.11ax HE single-user with [ht])",
    )
    ht: HtConfig | None = Field(
        default=None,
        json_schema_extra={"allowed": 'a table (standard = "80211n", "80211ac" or "80211ax")'},
        description="[ht]: the band, width, guard interval, streams and MCS of 802.11n, "
        "802.11ac or 802.11ax, and their A-MPDU",
    )
    erp_mixed: bool = _field(
        False,
        'true or false (true only with standard = "80211g")',
        "802.11g b/g mixed mode (20 us slot, long preamble timing)",
    )
    preamble: Literal["long", "short"] = _field(
        "long",
        '"long" or "short"',
        "DSSS/HR-DSSS preamble (802.11b and the DSSS rates of 802.11g)",
    )
    data_rate_mbps: float | None = _field(
        None,
        "a rate of the standard in Mbit/s, or unset; unset on 802.11n (ht.mcs)",
        "rate of data frames (unset: the standard's highest); with an adaptive "
        "mac.rate_control (or a node's own rate_control), the rate it starts at (unset: the "
        "lowest)",
        gt=0.0,
    )
    basic_rate_mbps: float | None = _field(
        None,
        "a rate of the standard in Mbit/s, or unset",
        "rate of ACK, RTS and CTS frames; unset: 6 Mbit/s on 802.11a and 802.11g, 1 on 802.11b "
        'and on 802.11g with erp_mixed (2 with preamble = "short"), 24 on 802.11n. An ACK '
        "answers at basic_rate_mbps when that is not above the data frame's rate and of an "
        "allowed modulation class, else at the highest mandatory rate not above it "
        "(802.11-2020 10.6.6.5.2, as ns-3's GetControlAnswerMode)",
        gt=0.0,
    )
    payload_bytes: int = _field(
        1500,
        _PAYLOAD_ALLOWED,
        "UDP payload per packet, the default of every UDP flow (TCP flows send tcp.mss_bytes "
        "per segment)",
        ge=1,
    )
    duration_s: float = _field(
        10.0, "number > 0 seconds, <= 1e7", "simulated time", gt=0.0, le=MAX_TIME_S
    )
    warmup_s: float = _field(
        0.0,
        "number >= 0 seconds, < duration_s",
        "deliveries and counters before this are not counted",
        ge=0.0,
        le=MAX_TIME_S,
    )
    report_interval_s: float | None = _field(
        None,
        "number > 0 seconds, >= duration_s / 10^6, or unset (no per-interval report)",
        "every flow's goodput per interval after the warm-up (summary interval_goodput_bps; "
        "paper 000 samples iperf every 5 s)",
        gt=0.0,
        le=MAX_TIME_S,
    )
    traffic: Literal["udp", "tcp"] = _field(
        "udp",
        '"udp" or "tcp"',
        'the default flows (no [[flows]]): "udp" = udp_saturating, "tcp" = tcp_bulk',
    )
    cc: str | None = _field(
        None,
        _CC_ALLOWED + "; or unset (= tcp.cc); needs a TCP flow",
        "shortcut for tcp.cc, overriding it (agent: the window moves only when a learning "
        "agent sets it, docs/gym.md)",
    )
    recovery: str | None = _field(
        None,
        _RECOVERY_ALLOWED + "; or unset (= tcp.recovery); needs a TCP flow",
        "shortcut for tcp.recovery, overriding it",
    )
    delayed_ack: bool | None = _field(
        None,
        "true, false, or unset (= tcp.delayed_ack); needs a TCP flow",
        "shortcut for tcp.delayed_ack, overriding it",
    )
    min_rto_ms: float | None = _field(
        None,
        "number >= 0 ms, <= tcp.max_rto_ms, or unset (= tcp.min_rto_ms); needs a TCP flow",
        "shortcut for tcp.min_rto_ms, overriding it",
        ge=0.0,
        le=MAX_TIME_MS,
    )
    retry_limit: int | None = _field(
        None,
        "integer 0..31 retransmissions, or unset (= mac.short_retry_limit, mac.long_retry_limit)",
        "shortcut setting both mac.short_retry_limit and mac.long_retry_limit",
        ge=0,
        le=31,
    )
    mobility: _Mobility | None = Field(  # type: ignore[assignment]
        default=None,
        description='how every generated station of topology "bss" moves (channel.model = '
        '"radio"; [[nodes]] have their own mobility)',
        json_schema_extra={"allowed": _MOBILITY_ALLOWED + ', or unset; topology "bss" only'},
    )
    mac: MacConfig = Field(
        default_factory=MacConfig,
        json_schema_extra={"allowed": "a table"},
        description="[mac]: channel access, retry limits, rate control and queues",
    )
    tcp: TcpConfig = Field(
        default_factory=TcpConfig,
        json_schema_extra={"allowed": "a table"},
        description="[tcp]: the parameters of every TCP flow",
    )
    clap: ClapConfig = Field(
        default_factory=ClapConfig,
        json_schema_extra={"allowed": "a table"},
        description="[clap]: the parameters of every clap_file flow",
    )
    channel: ChannelConfig = Field(
        default_factory=ChannelConfig,
        json_schema_extra={"allowed": "a table"},
        description="[channel]: who hears whom, and the error model",
    )
    nodes: list[NodeConfig] = Field(
        default_factory=list,
        max_length=MAX_NODES,  # refused before the entries are validated
        json_schema_extra={"allowed": "an array of tables [[nodes]]"},
        description="[[nodes]]: nodes besides the generated ones",
    )
    links: list[LinkConfig] = Field(
        default_factory=list,
        json_schema_extra={"allowed": "an array of tables [[links]]"},
        description="[[links]]: wired point-to-point links",
    )
    routes: list[RouteConfig] = Field(
        default_factory=list,
        json_schema_extra={"allowed": "an array of tables [[routes]]"},
        description="[[routes]]: static routes, over the computed ones",
    )
    flows: list[FlowConfig] = Field(
        default_factory=list,
        max_length=MAX_FLOWS,  # each entry gives a flow or more (the total: expand._flow_names)
        json_schema_extra={"allowed": "an array of tables [[flows]]"},
        description="[[flows]]: the traffic; none: the topology's default flows (traffic); "
        "flows = [] is refused (it would leave no traffic)",
    )
    traces: TracesConfig = Field(
        default_factory=TracesConfig,
        json_schema_extra={"allowed": "a table"},
        description="[traces]: which per-event traces the core records",
    )
    mesh: MeshConfig | None = Field(
        default=None,
        json_schema_extra={"allowed": 'a table (topology "chain", or mesh [[nodes]])'},
        description="[mesh]: 802.11s mesh points and HWMP routing",
    )

    _spec: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ScenarioError(_convert_validation_error(exc, Scenario)) from None

    _check = _after(checks.scenario)

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scenario:
        """Validate ``data`` (as parsed from TOML); raise :class:`ScenarioError` if invalid."""
        if not isinstance(data, Mapping):
            raise ScenarioError(_line("scenario", "expected a table", data, "a table of fields"))
        from airtcp.config.load import check_plain

        check_plain(data)
        return cls._from_checked(data)

    @classmethod
    def _from_checked(cls, data: Mapping[str, Any]) -> Scenario:
        """:meth:`from_dict` of a mapping ``check_plain`` has passed."""
        if "template" not in data:  # the templates' module is imported only for a template
            return cls(**{str(k): v for k, v in data.items()})
        from airtcp.config.templates import (  # templates import this package
            expand_template,
            mark_template_problems,
        )

        expanded = expand_template(data)
        # Through __init__ (which turns a ValidationError into a ScenarioError): pydantic's
        # model_validate on a model with its own __init__ would run the expansion twice.
        try:
            return cls(**{str(k): v for k, v in expanded.items()})
        except ScenarioError as exc:
            raise ScenarioError(mark_template_problems(exc.problems, data)) from None
