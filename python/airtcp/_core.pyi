"""The native simulation core (Rust, PyO3); private: use :func:`airtcp.run`."""

from typing import Any, final

__all__ = [
    "CWND_FACTORS",
    "CWND_MAX",
    "CWND_OBS",
    "Sim",
    "__version__",
    "check_world_spec",
    "chunk_success",
    "chunk_success_tabulated",
    "connectivity",
    "connectivity_bytes",
    "cwnd_steps",
    "link_budgets",
    "run",
    "summary_schema",
    "tables",
    "tx_duration_ns",
    "world_spec_schema",
]

def run(spec_json: str, seed: int) -> tuple[str, dict[str, dict[str, list[Any]]]]:
    """Simulate the world spec ``spec_json`` (docs/world-spec.md) with ``seed``.

    Returns the summary as JSON text and the traces (name -> column -> values).
    Raises ValueError ("<field path>: <message>") if the spec is invalid.
    """

@final
class Sim:
    """A world stepped by a learning agent (airtcp.gym): built from a JSON world spec, advanced
    to each decision time, read and acted on between steps. One thread only."""

    def __new__(cls, spec_json: str, seed: int) -> Sim: ...
    def advance(self, until_ns: int) -> bool:
        """Run every event up to ``until_ns`` (at most the run's end); True once it is reached."""
    def advance_delivered(self, until_ns: int) -> tuple[bool, int]:
        """:meth:`advance`, then the bytes every flow has delivered, summed: an agent's step in
        one call."""
    @property
    def now_ns(self) -> int: ...
    @property
    def end_ns(self) -> int: ...
    def agent_modes(self, node_index: int) -> list[tuple[str, int]]:
        """(name, bit/s) of the modes an agent may set for the node's peers, lowest first."""
    def set_mode(self, node_index: int, peer: int, index: int) -> None:
        """Send the node's data frames to ``peer`` at mode ``index`` from now on."""
    def link(self, node_index: int, peer: int) -> tuple[int, int, int, int]:
        """(attempts, acked, given_up, last_rate_bps) of the node's data MPDUs to ``peer``:
        MPDU transmissions (each subframe of an A-MPDU), MPDUs acknowledged and given up."""
    def peer_snr_db(self, node_index: int, peer: int) -> float | None:
        """SNR dB of the last frame the node received from ``peer`` addressed to it (radio
        model, with some node's rate control "agent")."""
    def tcp(self, flow: int) -> dict[str, int] | None:
        """The TCP sender of ``flow`` (cwnd, ssthresh, RTTs, bytes, counters), or None."""
    def tcp_counts(self, flow: int) -> tuple[int, int, int, int, int]:
        """``(cwnd, srtt_ns, min_rtt_ns, retransmissions, timeouts)`` of ``flow``'s TCP
        sender, without a dict (ValueError if the flow is not TCP)."""
    def set_cwnd(self, flow: int, segments: int) -> None:
        """Set the flow's congestion window (its cc must be "agent")."""
    def delivered_bytes(self, flow: int) -> int:
        """Bytes the flow's destination application received so far."""
    def cwnd_agent(self, flow: int, step_ns: int, delay_weight: float) -> None:
        """Make the congestion environment's agent on ``flow`` (its cc "agent"), stepping
        ``step_ns`` from now; its reward weighs queueing delay [ms] by ``delay_weight``."""
    def cwnd_observe(self, obs: Any, row: int) -> tuple[float, bool, int, float, float]:
        """The agent's first observation written into row ``row`` of ``obs`` (a writable
        float32 array); ``(reward, ended, cwnd, srtt_ms, goodput_mbps)``."""
    def cwnd_step(self, action: int, obs: Any, row: int) -> tuple[float, bool, int, float, float]:
        """One step of the agent with ``action`` (an index into :data:`CWND_FACTORS`): the
        observation written into row ``row`` of ``obs``; ``(reward, ended, cwnd, srtt_ms,
        goodput_mbps)``."""
    def summary_json(self) -> str:
        """Run to the end, close the run and return its summary as JSON."""

CWND_FACTORS: list[float]
CWND_MAX: int
CWND_OBS: int

def cwnd_steps(
    sims: list[Sim],
    actions: Any,
    obs: Any,
    rewards: Any,
    ended: Any,
    cwnd: Any,
    srtt_ms: Any,
    goodput_mbps: Any,
) -> None:
    """One step of K worlds' congestion agents at once: world k takes ``actions[k]`` (int64)
    and writes its observation into row k of ``obs`` (float32, K x 6), its reward, end (uint8),
    cwnd (int64), smoothed RTT and goodput (float64) into element k of the others."""

def connectivity(topology_json: str) -> str:
    """Neighbours and computed routes of a topology (``nodes``, ``channel``, ``wired_links``,
    ``blocked_radio_links`` as JSON text), as JSON text ``{"neighbours": [[v, ...], ...],
    "next_hop": [[v or -1, ...], ...]}``. Raises ValueError if the topology is invalid."""

def connectivity_bytes(topology_json: str) -> tuple[int, bytes, bytes, bytes, bytes]:
    """:func:`connectivity` in binary for large topologies: the node count; the routes as runs
    of destinations per node, little-endian: offsets (uint32, n + 1; node u's runs are
    offsets[u]..offsets[u + 1]), run starts (uint32) and next hops (int32: -2 the destination
    itself, -1 none); the neighbours as a bitmap of ceil(n / 8)-byte rows. Raises ValueError
    if the topology is invalid."""

def tables() -> str:
    """The core's name tables and limits as JSON text (PHY modes, standards' modes, congestion
    controls, loss recoveries, rate controls, bounds)."""

def world_spec_schema() -> str:
    """The JSON Schema (2020-12) of a world spec as JSON text, derived from the core's spec
    types: every field's type, default, allowed names and description."""

def check_world_spec(spec_json: str) -> None:
    """Read and check a world spec as :func:`run` does, without running it. Raises ValueError
    with ``"<field path>: <message>"`` if the core refuses it."""

def summary_schema() -> str:
    """The JSON Schema (2020-12) of a run's summary as JSON text, derived from the core's
    summary types: every key, its type, whether it is always there, and its description
    (``airtcp.summary_types`` is generated from it: ``python -m airtcp.typegen``)."""

def tx_duration_ns(standard: str, rate_mbps: float, size_bytes: int, preamble: str = "long") -> int:
    """Airtime [ns] of an MPDU of ``size_bytes`` at ``rate_mbps`` (IEEE 802.11-2020 Cl. 15-18)."""

def chunk_success(model: str, mode: str, snr_db: float, bits: int) -> float:
    """Probability that ``bits`` bits sent at ``mode`` (a PHY mode name, e.g.
    ``"OfdmRate54Mbps"``) survive an SNR of ``snr_db`` [dB] under the error-rate model ``model``
    (``"nist"`` or ``"yans"``; DSSS modes use ns-3's DSSS model under either). Raises
    ValueError naming the argument (``model``, ``mode``, ``snr_db``, ``bits``) if one is
    invalid."""

def chunk_success_tabulated(
    model: str, mode: str, snr_db: float, bits: int
) -> tuple[float, float] | None:
    """:func:`chunk_success` as the radio model reads it from its tables
    (unless ``channel.radio.exact``): ``(p, bound)`` with ``|p - exact| <= bound
    <= 1e-6``, or None where the exact model answers. Raises ValueError as
    :func:`chunk_success` does."""

def link_budgets(
    topology_json: str,
    links: list[tuple[int, int, str, int]],
    phy_header: bool = True,
    short_preamble: bool = False,
    target: float = 0.9,
) -> list[dict[str, Any]]:
    """The radio model's mean link budget (no fading, nobody else on the air) of each directed
    link ``(i, j, mode, psdu_bytes)`` of a topology (the JSON :func:`connectivity` takes, with
    ``channel.radio``): per link a dict of ``distance_m``, ``rx_dbm`` (RSSI), ``noise_dbm``,
    ``snr_db``, ``least_rx_dbm`` (the least power the receiver locks at: the greatest of
    ``hear_dbm``, the sensitivity at the PPDU's width, ``lock_dbm``, the mode's, and
    ``detect_rssi_dbm``, preamble detection's, or None), ``detect_snr_db`` (preamble
    detection's SNR threshold, or None), ``locks`` (bool), ``success`` (of a PPDU at
    ``mode`` with a PSDU of ``psdu_bytes`` at the link's SNR; its PHY header included unless
    ``phy_header`` is false) and ``needed_snr_db`` (the SNR at which that success reaches
    ``target``; inf if never). Raises ValueError for an invalid topology or link."""

__version__: str
