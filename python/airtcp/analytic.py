"""Closed-form models of IEEE 802.11 DCF/EDCA, the reference the simulator is validated against.

Everything here is written from the standard (IEEE Std 802.11-2020) and the papers cited next to
each formula, independently of the Rust core. Times are integer nanoseconds where the standard
gives whole microseconds, floats where a mean is taken. Frame sizes follow docs/world-spec.md.

- :func:`tx_duration_ns`: PPDU duration (TXTIME) of one MPDU, Clauses 15-18.
- :func:`phy_timing`: slot, SIFS, DIFS/AIFS, EIFS, ACK timeout, CWmin/CWmax.
- :func:`tmt_bps`: theoretical maximum throughput of one station (Jun et al., NCA 2003).
- :func:`bianchi`: saturation throughput of n stations (Bianchi, JSAC 2000) with a finite retry
  limit (Wu et al., INFOCOM 2002; Chatzimisios et al. 2003).
- :func:`tcp_tmt_bps`: TCP maximum over one link, data and TCP-ACK frames alternating (Jun et al.'s
  cycle per frame).
- :func:`tcp_wifi_contention`: bulk TCP upload, the STA's data frames and the AP's TCP ACKs
  contending (two-station DCF chain with the AP's ACK backlog).
- :func:`p000_travel_time_us`: paper 000's frame travel time over a multi-hop path (Eq. 1, 4)
  in its best, worst and normal cases (Tables II-III); :func:`p000_airtime_cost` its Eq. 2.

See docs/analytic.md for the formulas and the conventions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import accumulate
from operator import add, mul, sub

from airtcp import tables as _tables

__all__ = [
    "ACCESS_CATEGORIES",
    "ACCESS_MODES",
    "ACK_BYTES",
    "COLLISION_MODELS",
    "CTS_BYTES",
    "PREAMBLES",
    "RTS_BYTES",
    "STANDARDS",
    "BianchiResult",
    "PhyTiming",
    "backoff_tau",
    "bianchi",
    "mpdu_bytes",
    "phy_timing",
    "rates_mbps",
    "saturation_throughput",
    "solve_fixed_point",
    "tmt_bps",
    "tx_duration_ns",
]

STANDARDS = ("80211a", "80211b", "80211g")
PREAMBLES = ("long", "short")
ACCESS_MODES = ("dcf", "edca")
ACCESS_CATEGORIES = ("bk", "be", "vi", "vo")
COLLISION_MODELS = ("eifs", "difs")

# Frame sizes (docs/world-spec.md; IEEE 802.11-2020 9.3.1.2 RTS, 9.3.1.3 CTS, 9.3.1.4 Ack).
ACK_BYTES = 14
RTS_BYTES = 20
CTS_BYTES = 14
UDP_HEADER_BYTES = 8
IPV4_HEADER_BYTES = 20
LLC_SNAP_BYTES = 8
MAC_HEADER_DCF_BYTES = 24  # non-QoS Data header (9.3.2.1)
MAC_HEADER_QOS_BYTES = 26  # QoS Data header: + 2-byte QoS Control (9.3.2.1)
FCS_BYTES = 4
MAX_UDP_PAYLOAD_BYTES = 65535 - IPV4_HEADER_BYTES - UDP_HEADER_BYTES  # IPv4 total length limit
MAX_RETRY_LIMIT = 31  # world-spec: 0..31 retransmissions

_US = 1000  # ns per microsecond

# The rates of each standard come from the core's mode table (airtcp.tables); the timing
# below is this module's own model of Clauses 15-18, an independent check of the core's.
# OFDM data bits per symbol N_DBPS, 20 MHz channel (Clause 17 modulation-dependent parameters);
# ERP-OFDM uses the same table (Clause 18).
_OFDM_NDBPS: dict[float, int] = {
    6.0: 24,
    9.0: 36,
    12.0: 48,
    18.0: 72,
    24.0: 96,
    36.0: 144,
    48.0: 192,
    54.0: 216,
}

# PHY preamble + PLCP header, microseconds.
_DSSS_LONG_PREAMBLE_US = 144 + 48  # Clause 15/16: 144 us SYNC+SFD, 48 us PLCP header at 1 Mbit/s
_DSSS_SHORT_PREAMBLE_US = 72 + 24  # Clause 16 short PPDU: 72 us preamble, 24 us header at 2 Mb/s
_OFDM_PREAMBLE_US = 16  # Clause 17: T_PREAMBLE = 16 us (short + long training symbols)
_OFDM_SIGNAL_US = 4  # Clause 17: T_SIGNAL = 4 us (one BPSK-1/2 symbol)
_OFDM_SYMBOL_US = 4  # Clause 17: T_SYM = 4 us (3.2 us + 0.8 us guard interval)
_OFDM_SERVICE_BITS = 16  # Clause 17: SERVICE field
_OFDM_TAIL_BITS = 6  # Clause 17: tail bits
_ERP_SIGNAL_EXTENSION_US = 6  # Clause 18: 6 us signal extension after every ERP-OFDM PPDU

# AIFSN per access category, Table 9-155 (default EDCA parameter set, non-OCB).
_AIFSN: dict[str, int] = {"bk": 7, "be": 3, "vi": 2, "vo": 2}


@dataclass(frozen=True)
class PhyTiming:
    """MAC timing of one PHY configuration; every time in integer nanoseconds.

    ``difs_ns`` holds DIFS for ``access="dcf"`` and AIFS[AC] for ``access="edca"``; ``eifs_ns``
    is EIFS or EIFS[AC] likewise; ``cw_min``/``cw_max`` are in slots (CWmin/CWmax of the AC).
    """

    slot_ns: int
    sifs_ns: int
    difs_ns: int
    eifs_ns: int
    ack_timeout_ns: int
    cw_min: int
    cw_max: int


@dataclass(frozen=True)
class BianchiResult:
    """Saturation model of :func:`bianchi` for ``stations`` contending stations.

    ``tau``: probability a station transmits in a slot; ``p``: conditional collision
    probability; ``p_tr``: probability a slot holds at least one transmission; ``p_s``:
    probability that such a transmission succeeds; ``throughput_bps``: aggregate UDP goodput;
    ``ts_ns``/``tc_ns``: channel busy time of a success/collision; ``slot_ns``: idle slot.
    """

    stations: int
    tau: float
    p: float
    throughput_bps: float
    ts_ns: int
    tc_ns: int
    slot_ns: int
    p_tr: float
    p_s: float
    collision: str


# ---------------------------------------------------------------------------------------------
# argument checking


def _fmt(x: object) -> str:
    if isinstance(x, float) and math.isfinite(x):
        return f"{x:g}"
    return repr(x) if isinstance(x, str) else str(x)


def _allowed(values: tuple[object, ...]) -> str:
    return ", ".join(_fmt(v) for v in values)


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name}: {_fmt(value)} is not allowed; allowed: {_allowed(allowed)}")
    return value


def _check_standard(standard: object) -> str:
    return _check_choice("standard", standard, STANDARDS)


def _check_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: {_fmt(value)} is not a bool; allowed: True, False")
    return value


def _check_int(name: str, value: object, lo: int, hi: int | None) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < lo
        or (hi is not None and value > hi)
    ):
        rng = f"integers {lo}..{hi}" if hi is not None else f"integers >= {lo}"
        raise ValueError(f"{name}: {_fmt(value)} is not allowed; allowed: {rng}")
    return value


def _check_rate(name: str, standard: str, rate: object) -> float:
    """Return the table rate equal to ``rate`` or raise ValueError."""
    allowed = _tables.rates_mbps(standard)
    if isinstance(rate, int | float) and not isinstance(rate, bool):
        for r in allowed:
            if abs(float(rate) - r) < 1e-9:
                return r
    raise ValueError(
        f"{name}: {_fmt(rate)} is not a rate of {standard}; allowed: {_allowed(allowed)}"
    )


def _check_erp_mixed(standard: str, erp_mixed: object) -> bool:
    mixed = _check_bool("erp_mixed", erp_mixed)
    if mixed and standard != "80211g":
        raise ValueError(
            f"erp_mixed: True is not allowed with standard {standard!r}; "
            "allowed: False (b/g mixed mode exists for 80211g only)"
        )
    return mixed


def _is_dsss(standard: str, rate: float) -> bool:
    """True for DSSS/HR-DSSS rates (11b, and the ERP-DSSS/CCK rates of 11g)."""
    return any(
        m.modulation == "dsss" and m.rate_mbps == rate for m in _tables.standard_modes(standard)
    )


def _preamble_header_us(standard: str, rate: float, preamble: str, rate_name: str) -> int:
    """Duration of the PHY preamble + PLCP header of a PPDU sent at ``rate``."""
    if not _is_dsss(standard, rate):
        return _OFDM_PREAMBLE_US + _OFDM_SIGNAL_US  # Clause 17: 16 us preamble + 4 us SIGNAL
    if preamble == "short":
        if rate == 1.0:
            # Clause 16: the short PPDU format carries 2, 5.5 and 11 Mbit/s only.
            raise ValueError(
                f"preamble: 'short' is not allowed with {rate_name} 1 "
                "(the 1 Mbit/s DSSS rate has only the long PPDU format); allowed: 'long'"
            )
        return _DSSS_SHORT_PREAMBLE_US  # Clause 16: 72 us short preamble + 24 us header
    return _DSSS_LONG_PREAMBLE_US  # Clause 15/16: 144 us long preamble + 48 us header


# ---------------------------------------------------------------------------------------------
# PHY: rates and TXTIME


def rates_mbps(standard: str) -> tuple[float, ...]:
    """Data rates (Mbit/s) of ``standard``, ascending (Clauses 15-18)."""
    return _tables.rates_mbps(_check_standard(standard))


def _tx_duration_us(standard: str, rate: float, size_bytes: int, preamble: str, name: str) -> int:
    head = _preamble_header_us(standard, rate, preamble, name)
    if _is_dsss(standard, rate):
        # Clause 15/16 TXTIME: preamble + header + ceil(8 * LENGTH / rate) us; the rate is taken in
        # units of 0.5 Mbit/s so 5.5 Mbit/s is exact: ceil(8 * LENGTH * 2 / 11).
        half_mbps = round(rate * 2)
        return head + -(-(16 * size_bytes) // half_mbps)
    # Clause 17 TXTIME: 20 us + 4 us * N_SYM, N_SYM = ceil((16 + 8 * LENGTH + 6) / N_DBPS).
    n_sym = -(-(_OFDM_SERVICE_BITS + 8 * size_bytes + _OFDM_TAIL_BITS) // _OFDM_NDBPS[rate])
    ext = _ERP_SIGNAL_EXTENSION_US if standard == "80211g" else 0  # Clause 18 signal extension
    return head + _OFDM_SYMBOL_US * n_sym + ext


def tx_duration_ns(
    standard: str, rate_mbps: float, size_bytes: int, *, preamble: str = "long"
) -> int:
    """PPDU duration (TXTIME) in ns of an MPDU of ``size_bytes`` sent at ``rate_mbps``.

    11b (Clauses 15/16): 192 us long / 96 us short preamble+header + ceil(8*bytes/rate) us.
    11a (Clause 17): 20 us + 4 us * ceil((16 + 8*bytes + 6) / N_DBPS).
    11g (Clause 18): ERP-OFDM as 11a plus a 6 us signal extension; ERP-DSSS/CCK as 11b.
    ``preamble`` only affects DSSS/HR-DSSS rates; "short" at 1 Mbit/s raises ValueError.
    """
    standard = _check_standard(standard)
    rate = _check_rate("rate_mbps", standard, rate_mbps)
    size = _check_int("size_bytes", size_bytes, 1, None)
    preamble = _check_choice("preamble", preamble, PREAMBLES)
    return _tx_duration_us(standard, rate, size, preamble, "rate_mbps") * _US


def mpdu_bytes(payload_bytes: int, *, access: str = "dcf") -> int:
    """MPDU size of a UDP datagram with ``payload_bytes`` of payload (docs/world-spec.md).

    payload + 8 (UDP) + 20 (IPv4) + 8 (LLC/SNAP) + 24 (DCF) or 26 (EDCA, QoS Data) + 4 (FCS).
    """
    payload = _check_int("payload_bytes", payload_bytes, 0, MAX_UDP_PAYLOAD_BYTES)
    access = _check_choice("access", access, ACCESS_MODES)
    header = MAC_HEADER_QOS_BYTES if access == "edca" else MAC_HEADER_DCF_BYTES
    return payload + UDP_HEADER_BYTES + IPV4_HEADER_BYTES + LLC_SNAP_BYTES + header + FCS_BYTES


# ---------------------------------------------------------------------------------------------
# MAC timing


def _phy_characteristics(standard: str, erp_mixed: bool) -> tuple[int, int, int, int]:
    """(aSlotTime us, aSIFSTime us, aCWmin, aCWmax) of the PHY."""
    if standard == "80211b":
        return 20, 10, 31, 1023  # Clause 15/16 PHY characteristics: slot 20, SIFS 10, CW 31..1023
    if standard == "80211a":
        return 9, 16, 15, 1023  # Clause 17 (20 MHz) characteristics: slot 9, SIFS 16, CW 15..1023
    # Clause 18 ERP: SIFS 10, short slot 9 us in a pure ERP BSS, long slot 20 us when non-ERP
    # stations are present (b/g mixed); CWmin 15 in both (paper 000 Table II).
    return (20 if erp_mixed else 9), 10, 15, 1023


def _eifs_ack_tx_time_us(standard: str, erp_mixed: bool) -> int:
    """ACKTxTime for EIFS: 14-byte ACK at the lowest mandatory rate, long preamble (10.3.2.3.7)."""
    if standard == "80211b" or erp_mixed:
        return _tx_duration_us(standard, 1.0, ACK_BYTES, "long", "rate_mbps")  # 192 + 112 = 304
    return _tx_duration_us(standard, 6.0, ACK_BYTES, "long", "rate_mbps")  # 44 (11a), 50 (11g)


def _edca_cw(ac: str, a_cw_min: int, a_cw_max: int) -> tuple[int, int]:
    """CWmin[AC], CWmax[AC] of the default EDCA parameter set (Table 9-155)."""
    if ac == "vo":
        return (a_cw_min + 1) // 4 - 1, (a_cw_min + 1) // 2 - 1
    if ac == "vi":
        return (a_cw_min + 1) // 2 - 1, a_cw_min
    return a_cw_min, a_cw_max  # BE and BK


def phy_timing(
    standard: str,
    basic_rate_mbps: float,
    *,
    erp_mixed: bool = False,
    preamble: str = "long",
    access: str = "dcf",
    ac: str = "be",
) -> PhyTiming:
    """Slot, SIFS, DIFS (AIFS[ac] when ``access="edca"``), EIFS, ACK timeout and CW bounds.

    ``ac`` is ignored with ``access="dcf"``. ``basic_rate_mbps`` and ``preamble`` set the ACK
    timeout (the ACK is sent at the basic rate); EIFS uses the lowest mandatory rate.
    """
    standard = _check_standard(standard)
    basic = _check_rate("basic_rate_mbps", standard, basic_rate_mbps)
    mixed = _check_erp_mixed(standard, erp_mixed)
    preamble = _check_choice("preamble", preamble, PREAMBLES)
    access = _check_choice("access", access, ACCESS_MODES)
    ac = _check_choice("ac", ac, ACCESS_CATEGORIES)

    slot, sifs, cw_min, cw_max = _phy_characteristics(standard, mixed)
    difs = sifs + 2 * slot  # 10.3.2.3.5: DIFS = aSIFSTime + 2 * aSlotTime
    eifs = sifs + difs + _eifs_ack_tx_time_us(standard, mixed)  # 10.3.2.3.7: EIFS
    # ACK timeout (10.3.2.11): aSIFSTime + aSlotTime + aRxPHYStartDelay, the latter taken as the
    # preamble + PLCP header time of the ACK at the basic rate (airtcp convention).
    ack_timeout = sifs + slot + _preamble_header_us(standard, basic, preamble, "basic_rate_mbps")
    ifs = difs
    if access == "edca":
        aifs = sifs + _AIFSN[ac] * slot  # 10.22.2.4: AIFS[AC] = aSIFSTime + AIFSN[AC] * aSlotTime
        eifs = eifs - difs + aifs  # 10.22.2.4: EIFS[AC] = EIFS - DIFS + AIFS[AC]
        ifs = aifs
        cw_min, cw_max = _edca_cw(ac, cw_min, cw_max)  # Table 9-155
    return PhyTiming(
        slot_ns=slot * _US,
        sifs_ns=sifs * _US,
        difs_ns=ifs * _US,
        eifs_ns=eifs * _US,
        ack_timeout_ns=ack_timeout * _US,
        cw_min=cw_min,
        cw_max=cw_max,
    )


# ---------------------------------------------------------------------------------------------
# Theoretical maximum throughput (one station, no collisions)


def tmt_bps(
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    payload_bytes: int,
    *,
    preamble: str = "long",
    erp_mixed: bool = False,
    access: str = "dcf",
    rts_cts: bool = False,
) -> float:
    """Theoretical maximum UDP goodput (bit/s) of one saturated station (Jun et al., NCA 2003).

    T = DIFS + CWmin/2 * slot + T_data + SIFS + T_ack  (+ T_rts + T_cts + 2 SIFS with RTS/CTS);
    TMT = 8 * payload_bytes / T. With ``access="edca"`` DIFS/CWmin are those of AC_BE.
    """
    standard = _check_standard(standard)
    data_rate = _check_rate("data_rate_mbps", standard, data_rate_mbps)
    timing = phy_timing(
        standard, basic_rate_mbps, erp_mixed=erp_mixed, preamble=preamble, access=access
    )
    basic = _check_rate("basic_rate_mbps", standard, basic_rate_mbps)
    rts = _check_bool("rts_cts", rts_cts)
    _check_int("payload_bytes", payload_bytes, 1, MAX_UDP_PAYLOAD_BYTES)  # no payload, no TMT
    mpdu = mpdu_bytes(payload_bytes, access=access)
    t_data = _tx_duration_us(standard, data_rate, mpdu, preamble, "data_rate_mbps") * _US
    t_ack = _tx_duration_us(standard, basic, ACK_BYTES, preamble, "basic_rate_mbps") * _US
    # Jun et al. (NCA 2003) Eq. for the basic cycle; mean backoff of an uncontended station is
    # CWmin/2 slots (10.3.4.3: backoff uniform on [0, CWmin]).
    cycle_ns = timing.difs_ns + timing.cw_min * timing.slot_ns / 2 + t_data + timing.sifs_ns + t_ack
    if rts:
        # Jun et al.: RTS/CTS adds T_rts + SIFS + T_cts + SIFS before the data frame.
        t_rts = _tx_duration_us(standard, basic, RTS_BYTES, preamble, "basic_rate_mbps") * _US
        t_cts = _tx_duration_us(standard, basic, CTS_BYTES, preamble, "basic_rate_mbps") * _US
        cycle_ns += t_rts + t_cts + 2 * timing.sifs_ns
    return 8 * payload_bytes / (cycle_ns * 1e-9)


# ---------------------------------------------------------------------------------------------
# Bianchi saturation model with a finite retry limit


def _check_cw(cw_min: object, cw_max: object) -> tuple[int, int]:
    lo = _check_int("cw_min", cw_min, 1, None)
    hi = _check_int("cw_max", cw_max, lo, None)
    return lo, hi


def _windows(cw_min: int, cw_max: int, stages: int) -> list[int]:
    """W_i = min(2^i (CWmin + 1), CWmax + 1) for i = 0..stages-1 (10.3.4.3 CW doubling)."""
    return [min((cw_min + 1) << i, cw_max + 1) for i in range(stages)]


def backoff_tau(p: float, *, cw_min: int, cw_max: int, retry_limit: int | None) -> float:
    """Transmission probability per slot given the collision probability ``p``.

    Finite retry limit m (Wu et al. 2002; Chatzimisios et al. 2003), stages i = 0..m:
        tau = sum_i p^i / sum_i p^i (W_i + 1) / 2,  W_i = min(2^i (CWmin+1), CWmax+1).
    ``retry_limit=None`` is Bianchi's unlimited-retry chain (JSAC 2000 Sec. III-A, Eq. 7) with
    W = CWmin+1 and m' = log2((CWmax+1)/(CWmin+1)) doubling stages.
    """
    lo, hi = _check_cw(cw_min, cw_max)
    if not isinstance(p, int | float) or isinstance(p, bool) or not 0.0 <= p <= 1.0:
        raise ValueError(f"p: {_fmt(p)} is not allowed; allowed: numbers in [0, 1]")
    if retry_limit is None:
        # Bianchi 2000 Eq. 7 in closed form: stages stop doubling at M (W_M = CWmax+1) and the
        # last stage repeats forever; dividing numerator and denominator by 1/(1-p):
        # tau = 1 / ((1-p) sum_{i<M} p^i (W_i+1)/2 + p^M (W_max+1)/2), W_max = CWmax+1.
        w_max = hi + 1
        stages = 0
        while ((lo + 1) << stages) < w_max:
            stages += 1
        w = _windows(lo, hi, stages)
        head = math.fsum(p**i * (w_i + 1) / 2 for i, w_i in enumerate(w))
        return 1.0 / ((1.0 - p) * head + p**stages * (w_max + 1) / 2)
    m = _check_int("retry_limit", retry_limit, 0, None)
    w = _windows(lo, hi, m + 1)
    num = math.fsum(p**i for i in range(m + 1))
    den = math.fsum(p**i * (w_i + 1) / 2 for i, w_i in enumerate(w))
    return num / den


def solve_fixed_point(
    stations: int, *, cw_min: int, cw_max: int, retry_limit: int | None
) -> tuple[float, float]:
    """Solve tau = backoff_tau(p), p = 1 - (1 - tau)^(n-1) (Bianchi 2000 Sec. III-A).

    Returns (tau, p).

    Bisection on p in [0, 1]: p - (1 - (1 - tau(p))^(n-1)) rises strictly from < 0 at p = 0 to
    > 0 at p = 1, so the root is unique. For n = 1, p = 0.
    """
    n = _check_int("stations", stations, 1, None)
    lo_cw, hi_cw = _check_cw(cw_min, cw_max)

    def tau_of(p: float) -> float:
        return backoff_tau(p, cw_min=lo_cw, cw_max=hi_cw, retry_limit=retry_limit)

    if n == 1:
        return tau_of(0.0), 0.0
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if mid - (1.0 - (1.0 - tau_of(mid)) ** (n - 1)) < 0.0:
            lo = mid
        else:
            hi = mid
    p = 0.5 * (lo + hi)
    return tau_of(p), p


def saturation_throughput(
    stations: int, tau: float, *, slot: float, ts: float, tc: float, payload_bits: float
) -> tuple[float, float, float]:
    """Bianchi 2000 Sec. III-B, Eq. 13: return (S, P_tr, P_s).

    S is in payload bits per time unit of ``slot``/``ts``/``tc``.

    P_tr = 1 - (1-tau)^n; P_s = n tau (1-tau)^(n-1) / P_tr;
    S = P_s P_tr L / ((1 - P_tr) slot + P_tr P_s Ts + P_tr (1 - P_s) Tc).
    """
    n = _check_int("stations", stations, 1, None)
    if not isinstance(tau, int | float) or isinstance(tau, bool) or not 0.0 < tau < 1.0:
        raise ValueError(f"tau: {_fmt(tau)} is not allowed; allowed: numbers in (0, 1)")
    if n == 1:
        p_tr, p_s = float(tau), 1.0  # the formulas below, without rounding
    else:
        p_tr = -math.expm1(n * math.log1p(-tau))  # Bianchi 2000 Sec. III-B: 1 - (1-tau)^n
        p_s = n * tau * (1.0 - tau) ** (n - 1) / p_tr  # Bianchi 2000 Sec. III-B: P_s
    busy = (1.0 - p_tr) * slot + p_tr * p_s * ts + p_tr * (1.0 - p_s) * tc
    return p_s * p_tr * payload_bits / busy, p_tr, p_s  # Bianchi 2000 Eq. 13


def bianchi(
    stations: int,
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    payload_bytes: int,
    *,
    retry_limit: int = 6,
    preamble: str = "long",
    erp_mixed: bool = False,
    access: str = "dcf",
    collision: str = "eifs",
) -> BianchiResult:
    """Saturation throughput of ``stations`` stations, basic access (Bianchi, JSAC 2000).

    Finite retry limit ``retry_limit`` (retransmissions; attempts = retry_limit + 1).
    Ts = T_data + SIFS + T_ack + DIFS; Tc = T_data + EIFS (``collision="eifs"``, what third
    parties wait after a collision under 10.3.2.3.7) or T_data + DIFS (``"difs"``, Bianchi's
    original). No propagation delay. ``access="edca"`` uses AIFS/CW/EIFS of AC_BE.
    """
    n = _check_int("stations", stations, 1, None)
    standard = _check_standard(standard)
    data_rate = _check_rate("data_rate_mbps", standard, data_rate_mbps)
    timing = phy_timing(
        standard, basic_rate_mbps, erp_mixed=erp_mixed, preamble=preamble, access=access
    )
    basic = _check_rate("basic_rate_mbps", standard, basic_rate_mbps)
    m = _check_int("retry_limit", retry_limit, 0, MAX_RETRY_LIMIT)
    collision = _check_choice("collision", collision, COLLISION_MODELS)
    _check_int("payload_bytes", payload_bytes, 1, MAX_UDP_PAYLOAD_BYTES)
    mpdu = mpdu_bytes(payload_bytes, access=access)

    t_data = _tx_duration_us(standard, data_rate, mpdu, preamble, "data_rate_mbps") * _US
    t_ack = _tx_duration_us(standard, basic, ACK_BYTES, preamble, "basic_rate_mbps") * _US
    ts = t_data + timing.sifs_ns + t_ack + timing.difs_ns  # Bianchi 2000 III-B basic Ts, delta=0
    if collision == "eifs":
        tc = t_data + timing.eifs_ns  # 10.3.2.3.7: third parties defer EIFS after a corrupt frame
    else:
        tc = t_data + timing.difs_ns  # Bianchi 2000 Sec. III-B basic access Tc, delta = 0
    tau, p = solve_fixed_point(n, cw_min=timing.cw_min, cw_max=timing.cw_max, retry_limit=m)
    s_per_ns, p_tr, p_s = saturation_throughput(
        n, tau, slot=timing.slot_ns, ts=ts, tc=tc, payload_bits=8 * payload_bytes
    )
    return BianchiResult(
        stations=n,
        tau=tau,
        p=p,
        throughput_bps=s_per_ns * 1e9,
        ts_ns=ts,
        tc_ns=tc,
        slot_ns=timing.slot_ns,
        p_tr=p_tr,
        p_s=p_s,
        collision=collision,
    )


# ---------------------------------------------------------------------------------------------
# TCP over one 802.11 link: frame sizes, the alternating TMT, and the two-station contention model

TCP_IP_HEADER_BYTES = 40  # IPv4 (20) + TCP (20) headers
TCP_TIMESTAMP_OPTION_BYTES = 12  # RFC 7323 timestamps option with two NOPs (appendix A layout)
MAX_TCP_MSS_BYTES = 2244  # 2304-byte maximum MSDU - 8 LLC/SNAP - 40 TCP/IP - 12 timestamps


@dataclass(frozen=True)
class TcpWifiResult:
    """Two-station TCP-over-DCF model of :func:`tcp_wifi_contention`.

    ``goodput_bps``: TCP payload bit/s, 8 MSS per data frame delivered (every delivered segment
    counted as new data); ``collision_probability``: collided attempts / all attempts, both
    colliders counted (as airtcp's summary); ``*_per_s``: data frames (STA -> AP) and TCP-ACK
    frames (AP -> STA) delivered and collisions per second; ``ap_idle_fraction``: share of
    contention rounds in which the AP has no TCP ACK queued (the STA sends alone);
    ``mean_round_ns``: mean time from one busy period's end to the next's; ``levels``/
    ``iterations``: AP-queue levels kept exactly and iterations the solver needed.
    """

    goodput_bps: float
    collision_probability: float
    data_frames_per_s: float
    ack_frames_per_s: float
    collisions_per_s: float
    ap_idle_fraction: float
    mean_round_ns: float
    ack_every: int
    collider_eifs: bool
    levels: int
    iterations: int


def tcp_mpdu_bytes(payload_bytes: int, *, timestamps: bool = True, access: str = "dcf") -> int:
    """MPDU size of a TCP segment carrying ``payload_bytes`` (0 for a pure ACK).

    payload + 40 (IPv4 + TCP) + 12 (timestamps option, if on) + 8 (LLC/SNAP) + 24 (DCF) or 26
    (EDCA, QoS Data) + 4 (FCS): 1460 bytes give 1548, a pure ACK 88 (DCF, timestamps).
    """
    payload = _check_int("payload_bytes", payload_bytes, 0, MAX_TCP_MSS_BYTES)
    ts = _check_bool("timestamps", timestamps)
    access = _check_choice("access", access, ACCESS_MODES)
    header = MAC_HEADER_QOS_BYTES if access == "edca" else MAC_HEADER_DCF_BYTES
    options = TCP_TIMESTAMP_OPTION_BYTES if ts else 0
    return payload + TCP_IP_HEADER_BYTES + options + LLC_SNAP_BYTES + header + FCS_BYTES


def tcp_tmt_bps(
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    mss_bytes: int = 1460,
    *,
    ack_every: int = 1,
    timestamps: bool = True,
    preamble: str = "long",
    erp_mixed: bool = False,
    access: str = "dcf",
) -> float:
    """TCP maximum (bit/s) over one link, data and TCP-ACK frames alternating, no collisions.

    Per ``ack_every`` data segments: ``ack_every`` data-frame cycles (STA -> AP) and one
    TCP-ACK-frame cycle (AP -> STA), each the TMT cycle of Jun et al. (NCA 2003),
    DIFS + CWmin/2 slots + T_frame + SIFS + T_ack. Goodput = ack_every * 8 * MSS / sum of cycles.
    """
    standard = _check_standard(standard)
    data_rate = _check_rate("data_rate_mbps", standard, data_rate_mbps)
    timing = phy_timing(
        standard, basic_rate_mbps, erp_mixed=erp_mixed, preamble=preamble, access=access
    )
    basic = _check_rate("basic_rate_mbps", standard, basic_rate_mbps)
    mss = _check_int("mss_bytes", mss_bytes, 1, MAX_TCP_MSS_BYTES)
    k = _check_int("ack_every", ack_every, 1, None)
    data_mpdu = tcp_mpdu_bytes(mss, timestamps=timestamps, access=access)
    ack_mpdu = tcp_mpdu_bytes(0, timestamps=timestamps, access=access)
    t_data = _tx_duration_us(standard, data_rate, data_mpdu, preamble, "data_rate_mbps") * _US
    t_tcp_ack = _tx_duration_us(standard, data_rate, ack_mpdu, preamble, "data_rate_mbps") * _US
    t_ack = _tx_duration_us(standard, basic, ACK_BYTES, preamble, "basic_rate_mbps") * _US
    # Jun et al. (NCA 2003) TMT cycle applied to each frame; mean backoff CWmin/2 slots (10.3.4.3).
    overhead = timing.difs_ns + timing.cw_min * timing.slot_ns / 2 + timing.sifs_ns + t_ack
    total_ns = k * (overhead + t_data) + overhead + t_tcp_ack
    return k * 8 * mss / (total_ns * 1e-9)


# Which colliding station defers EIFS after a collision (flags of a collision state).
_NO_EIFS, _AP_EIFS, _STA_EIFS, _BOTH_EIFS = 0, 1, 2, 3


def _slide(x: list[float], w0: int) -> list[float]:
    """y[r'] = sum_{b=0}^{w0-1} x[r' + b] / w0 for r' >= 1, y[0] = 0.

    The residual r of the frozen station after the fresh one won with backoff b < r.
    """
    n = len(x)
    p = list(accumulate(x, initial=0.0))
    inv = 1.0 / w0
    y = [(p[i + w0] - p[i]) * inv for i in range(n - w0)] if n > w0 else []
    y += [(p[n] - p[i]) * inv for i in range(len(y), n)]
    y[0] = 0.0
    return y


def _swap(z: list[float], w0: int) -> list[float]:
    """Residual j = b - r of the previous winner when the frozen station (residual r, mass z[r])
    wins against a fresh draw b > r: y[j] = sum_{r=0}^{w0-1-j} z[r] / w0, j = 1..w0-1."""
    p = list(accumulate(z[:w0], initial=0.0))
    inv = 1.0 / w0
    y = [p[w0 - j] * inv for j in range(w0)]
    y[0] = 0.0
    return y


def _add(dst: list[float], src: list[float], scale: float) -> None:
    """dst += scale * src (equal lengths)."""
    dst[:] = [a + scale * b for a, b in zip(dst, src, strict=True)]


class _Block:
    """Probability mass of the contention states at one AP-queue level and ACK phase.

    ``sw[s][r]``: the STA has just delivered a data frame and drawn a fresh backoff; the AP's
    counter is frozen at r in backoff stage s. ``aw[s][r]``: the AP has just delivered a TCP
    ACK (fresh backoff, or post-backoff at level 0 where its queue is empty); the STA is frozen
    at r in stage s. ``c[(s_sta, s_ap, flag)]``: a collision has just ended, both draw fresh
    backoffs from the windows of their stages; ``flag`` says who defers EIFS. Level 0 only:
    ``pb[r]``: the STA has just delivered, the AP is empty with post-backoff r (0 = finished);
    ``c0[(s_sta, flag)]``: a collision after which the AP dropped its last frame.
    """

    __slots__ = ("aw", "c", "c0", "pb", "sw")

    def __init__(self, windows: list[int], w0: int, level0: bool) -> None:
        self.sw = [[0.0] * w for w in windows]
        self.aw = [[0.0] * w for w in windows]
        self.c: dict[tuple[int, int, int], float] = {}
        self.pb = [0.0] * w0 if level0 else []
        self.c0: dict[tuple[int, int], float] = {}

    def mass(self) -> float:
        return (
            sum(map(sum, self.sw))
            + sum(map(sum, self.aw))
            + sum(self.c.values())
            + sum(self.pb)
            + sum(self.c0.values())
        )

    def scale(self, f: float) -> None:
        self.sw = [[v * f for v in row] for row in self.sw]
        self.aw = [[v * f for v in row] for row in self.aw]
        self.c = {key: v * f for key, v in self.c.items()}
        self.pb = [v * f for v in self.pb]
        self.c0 = {key: v * f for key, v in self.c0.items()}

    def distance(self, other: _Block) -> float:
        d = 0.0
        for rows_a, rows_b in ((self.sw, other.sw), (self.aw, other.aw), ([self.pb], [other.pb])):
            for ra, rb in zip(rows_a, rows_b, strict=True):
                d += sum(map(abs, map(sub, ra, rb)))
        for key in self.c.keys() | other.c.keys():
            d += abs(self.c.get(key, 0.0) - other.c.get(key, 0.0))
        for key0 in self.c0.keys() | other.c0.keys():
            d += abs(self.c0.get(key0, 0.0) - other.c0.get(key0, 0.0))
        return d


def _dot(a: list[float], b: list[float]) -> float:
    return sum(map(mul, a, b))


class _TcpChain:
    """Embedded Markov chain of the two-station TCP/DCF model (see docs/analytic.md).

    One step = one contention round: from the end of a busy period (a delivered data or TCP-ACK
    frame, or a collision) to the end of the next. Blocks are indexed level * k + phase, where
    the level is the AP's queue length q (0..levels exactly, ``tail`` = levels + 1 for q >
    levels) and the phase counts the STA's deliveries since the last TCP ACK was generated.
    """

    def __init__(
        self,
        *,
        w0: int,
        w_max: int,
        retry_limit: int,
        slot: int,
        difs: int,
        eifs: int,
        ack_timeout: int,
        t_data: int,
        t_tcp_ack: int,
        busy_s: int,
        busy_a: int,
        ack_every: int,
        levels: int,
        collider_eifs: bool,
    ) -> None:
        self.w0, self.k, self.levels, self.tail = w0, ack_every, levels, levels + 1
        self.m = retry_limit
        saturated = 0  # first stage whose window is CWmax + 1
        while (w0 << saturated) < w_max:
            saturated += 1
        stages = min(retry_limit, saturated) + 1
        self.windows = [min(w0 << s, w_max) for s in range(stages)]  # 10.3.4.3 CW doubling
        self.slot, self.difs, self.eifs, self.ack_timeout = slot, difs, eifs, ack_timeout
        self.busy_s, self.busy_a = busy_s, busy_a
        self.busy_c = max(t_data, t_tcp_ack)
        # 10.3.2.11: the AP's response timeout runs from the end of its own (shorter) frame; the
        # medium stays busy until the data frame ends, so it fails at the later of the two.
        self.ap_fail = max(t_tcp_ack + ack_timeout, self.busy_c) - self.busy_c
        self.collider_eifs = collider_eifs
        self.blocks = (levels + 2) * ack_every
        self._c_cache: dict[tuple[int, int, int], tuple[list[float], list[float], float, float]]
        self._c_cache = {}
        self._c0_cache: dict[tuple[int, int], tuple[list[float], float]] = {}
        # Per-state round statistics of a frozen residual r against a fresh draw b in [0, w0-1].
        self.w_win, self.w_lose, self.w_coll, self.w_idle, self.w_r = [], [], [], [], []
        for w in self.windows:
            self.w_win.append([min(r, w0) / w0 for r in range(w)])
            self.w_lose.append([max(0, w0 - 1 - r) / w0 for r in range(w)])
            self.w_coll.append([(1.0 if r < w0 else 0.0) / w0 for r in range(w)])
            idle = []
            for r in range(w):
                n = min(r, w0)
                # fresh station first: b = 0..n-1; otherwise the frozen one (or both) after r.
                idle.append((n * (n - 1) / 2 + r * (w0 - n)) / w0 * slot)
            self.w_idle.append(idle)
            self.w_r.append([float(r * slot) for r in range(w)])

    # -- structure

    def level(self, b: int) -> int:
        return b // self.k

    def next_stage(self, s: int) -> int | None:
        """Backoff stage after a failed attempt at stage s; None when the frame is dropped."""
        if s + 1 > self.m:
            return None  # 10.3.4.4: retry limit reached, CW back to CWmin
        return min(s + 1, len(self.windows) - 1)  # stages past CWmax share one state

    def up(self, b: int) -> int:
        """Block after the STA delivers a data frame (every k-th generates a TCP ACK)."""
        level, phase = divmod(b, self.k)
        phase += 1
        if phase == self.k:
            return min(level + 1, self.tail) * self.k
        return level * self.k + phase

    def down(self, b: int, h: float) -> list[tuple[int, float]]:
        """Blocks after a frame leaves the AP's queue (delivered or dropped)."""
        level, phase = divmod(b, self.k)
        if level < self.tail:
            return [((level - 1) * self.k + phase, 1.0)]
        return [(self.levels * self.k + phase, h), (b, 1.0 - h)]

    def new_blocks(self) -> list[_Block]:
        return [_Block(self.windows, self.w0, self.level(b) == 0) for b in range(self.blocks)]

    # -- collisions

    def offsets(self, flag: int) -> tuple[int, int]:
        """(AP, STA) start of the backoff countdown after a collision, ns after its busy end."""
        ifs_ap = self.eifs if flag in (_AP_EIFS, _BOTH_EIFS) else self.difs
        ifs_sta = self.eifs if flag in (_STA_EIFS, _BOTH_EIFS) else self.difs
        # The STA (longer frame) waits its ACKTimeout after its frame, then DIFS or EIFS.
        return self.ap_fail + ifs_ap, self.ack_timeout + ifs_sta

    def after_tie(self, flag: int) -> int:
        """Flag of a collision that follows a collision (the AP's countdown was armed first)."""
        if not self.collider_eifs:
            return _NO_EIFS
        return _BOTH_EIFS if flag in (_AP_EIFS, _BOTH_EIFS) else _STA_EIFS

    def c_out(
        self, s_sta: int, s_ap: int, flag: int
    ) -> tuple[list[float], list[float], float, float]:
        """Outcome of the round after a collision: both draw fresh backoffs.

        Returns (STA residual distribution when the AP wins, AP residual distribution when the
        STA wins, probability of another collision, mean idle ns from the busy end).
        """
        key = (s_sta, s_ap, flag)
        cached = self._c_cache.get(key)
        if cached is not None:
            return cached
        ws, wa = self.windows[s_sta], self.windows[s_ap]
        a0, s0 = self.offsets(flag)
        slot = self.slot
        g = (a0 - s0) // slot
        diff_aw = [0] * (ws + 1)
        diff_sw = [0] * (wa + 1)
        idle = 0
        ties = 0
        for ba in range(wa):  # AP transmits at a0 + ba*slot; the STA at s0 + bs*slot
            lo = max(0, ba + g + 1)  # STA draws with a later start: the AP goes first
            if lo < ws:
                used = max(0, (a0 + ba * slot - s0) // slot)  # 10.3.4.3: whole idle slots
                diff_aw[lo - used] += 1
                diff_aw[ws - used] -= 1
                idle += (ws - lo) * (a0 + ba * slot)
            bs = ba + g
            if (a0 - s0) % slot == 0 and 0 <= bs < ws:
                ties += 1  # both counters expire at the same slot boundary
                idle += a0 + ba * slot
        g2 = (s0 - a0) // slot
        for bs in range(ws):
            lo = max(0, bs + g2 + 1)
            if lo < wa:
                used = max(0, (s0 + bs * slot - a0) // slot)
                diff_sw[lo - used] += 1
                diff_sw[wa - used] -= 1
                idle += (wa - lo) * (s0 + bs * slot)
        inv = 1.0 / (ws * wa)
        out = (
            [v * inv for v in accumulate(diff_aw[:ws])],
            [v * inv for v in accumulate(diff_sw[:wa])],
            ties * inv,
            idle * inv,
        )
        self._c_cache[key] = out
        return out

    def c0_out(self, s_sta: int, flag: int) -> tuple[list[float], float]:
        """The AP dropped its last frame in a collision: the STA sends alone; the AP runs a
        post-backoff from CWmin. Returns (AP post-backoff distribution, mean idle ns)."""
        key = (s_sta, flag)
        cached = self._c0_cache.get(key)
        if cached is not None:
            return cached
        ws, w0 = self.windows[s_sta], self.w0
        a0, s0 = self.offsets(flag)
        counts = [0] * w0
        idle = 0
        for bs in range(ws):
            t = s0 + bs * self.slot
            idle += t
            used = max(0, (t - a0) // self.slot)
            for ba in range(w0):
                counts[max(ba - used, 0)] += 1
        out = ([c / (ws * w0) for c in counts], idle / ws)
        self._c0_cache[key] = out
        return out

    def collide(
        self,
        b: int,
        new: list[_Block],
        h: float,
        s_sta: int | None,
        s_ap: int | None,
        flag: int,
        mass: float,
    ) -> None:
        ss = 0 if s_sta is None else s_sta  # a dropped data frame: the next one starts at CWmin
        if s_ap is not None:
            c = new[b].c
            c[(ss, s_ap, flag)] = c.get((ss, s_ap, flag), 0.0) + mass
            return
        for t, pr in self.down(b, h):  # the AP dropped its head frame
            if self.level(t) == 0:
                c0 = new[t].c0
                c0[(ss, flag)] = c0.get((ss, flag), 0.0) + mass * pr
            else:
                c = new[t].c
                c[(ss, 0, flag)] = c.get((ss, 0, flag), 0.0) + mass * pr

    # -- one step of the chain

    def push_idle(self, src: _Block, b: int, new: list[_Block]) -> None:
        """Level 0: the AP has nothing queued, the STA sends alone."""
        w0 = self.w0
        pb = [0.0] * w0  # the AP's post-backoff after the STA's delivery (0 = finished)
        low = [0.0] * w0
        high = 0.0
        for row in src.aw:  # the AP has just emptied its queue: fresh post-backoff
            low = list(map(add, low, row[:w0]))
            high += sum(row[w0:])
        if any(low) or high:
            y = _swap(low, w0)
            y[0] = sum(low[r] * (r + 1) for r in range(w0)) / w0 + high
            _add(pb, y, 1.0)
        if any(src.pb):
            y = _slide(src.pb, w0)
            y[0] = sum(src.pb[r] * (w0 - r) for r in range(w0)) / w0
            _add(pb, y, 1.0)
        for (ss, flag), mass in src.c0.items():
            _add(pb, self.c0_out(ss, flag)[0], mass)
        t = self.up(b)
        if self.level(t) == 0:
            _add(new[t].pb, pb, 1.0)
            return
        # A TCP ACK arrives: a finished post-backoff draws a fresh backoff (10.3.4.2).
        fresh = pb[0] / w0
        pb[0] = 0.0
        _add(new[t].sw[0], [v + fresh for v in pb], 1.0)

    def push_contending(self, src: _Block, b: int, new: list[_Block], h: float, tail: bool) -> None:
        """Both stations have a frame. ``tail``: leave out the frozen station's countdown (the
        continue transitions), which :meth:`drain_tail` solves exactly."""
        w0 = self.w0
        up = self.up(b)
        downs = self.down(b, h)
        ce = self.collider_eifs
        z = [0.0] * w0
        for s, row in enumerate(src.sw):  # STA fresh, AP frozen at r
            if not any(row):
                continue
            if not tail:
                _add(new[up].sw[s], _slide(row, w0), 1.0)
            cm = sum(row[:w0]) / w0
            if cm:
                flag = _AP_EIFS if ce else _NO_EIFS  # the STA's countdown was armed first
                self.collide(b, new, h, self.next_stage(0), self.next_stage(s), flag, cm)
            z = list(map(add, z, row[:w0]))
        if any(z):
            y = _swap(z, w0)
            for t, pr in downs:
                _add(new[t].aw[0], y, pr)
        z = [0.0] * w0
        for s, row in enumerate(src.aw):  # AP fresh, STA frozen at r
            if not any(row):
                continue
            if not tail:
                y = _slide(row, w0)
                for t, pr in downs:
                    _add(new[t].aw[s], y, pr)
            cm = sum(row[:w0]) / w0
            if cm:
                flag = _STA_EIFS if ce else _NO_EIFS
                self.collide(b, new, h, self.next_stage(s), self.next_stage(0), flag, cm)
            z = list(map(add, z, row[:w0]))
        if any(z):
            _add(new[up].sw[0], _swap(z, w0), 1.0)
        for (ss, sa, flag), mass in src.c.items():
            aw, sw, tie, _ = self.c_out(ss, sa, flag)
            for t, pr in downs:
                _add(new[t].aw[ss], aw, mass * pr)
            _add(new[up].sw[sa], sw, mass)
            if tie:
                nflag = self.after_tie(flag)
                self.collide(b, new, h, self.next_stage(ss), self.next_stage(sa), nflag, mass * tie)

    def drain_tail(self, new: list[_Block], h: float) -> None:
        """Solve the frozen station's countdown in the tail blocks exactly (Gauss-Seidel).

        The new mass of the tail rows holds every inflow but the countdown from the tail rows
        themselves; the countdown only lowers r, so it is solved from the largest r down.
        """
        w0, k = self.w0, self.k
        c = 1.0 / w0
        tail = [self.tail * k + phase for phase in range(k)]
        # STA delivering, AP frozen: the phase advances with every delivery (cycle of k), so
        # new_p[r] = a_p + c new_{p-1}[r] with a_p = inflow + c sum_{b>=1} new_{p-1}[r+b].
        coef = [c**j / (1.0 - c**k) for j in range(k)]
        for s, n in enumerate(self.windows):
            rows = [new[t].sw[s] for t in tail]
            window = [0.0] * k  # sum of new[r+1 .. r+w0-1] per phase
            for r in range(n - 1, 0, -1):
                a = [rows[p][r] + c * window[p - 1] for p in range(k)]
                j = r + w0 - 1
                for p in range(k):
                    v = sum(coef[i] * a[p - i] for i in range(k))
                    rows[p][r] = v
                    window[p] += v - (rows[p][j] if j < n else 0.0)
        # AP delivering, STA frozen: the level falls back to ``levels`` with probability h.
        stay = (1.0 - h) * c
        for phase, t in enumerate(tail):
            back = new[self.levels * k + phase]
            for s in range(len(self.windows)):
                row = new[t].aw[s]
                out = back.aw[s]
                n = len(row)
                acc = 0.0  # sum of new[r+1 .. r+w0-1]
                for r in range(n - 1, 0, -1):
                    v = (row[r] + stay * acc) / (1.0 - stay)
                    row[r] = v
                    if h:
                        out[r] += h * c * (acc + v)
                    acc += v - (row[r + w0 - 1] if r + w0 - 1 < n else 0.0)

    # -- stationary distribution and rates

    def rates(self, blk: _Block, b: int) -> tuple[float, float, float, float, float]:
        """Per-round (data deliveries, TCP-ACK deliveries, collisions, AP drops, ns) of ``blk``."""
        n_s = n_a = n_c = drops = idle = 0.0
        if self.level(b) == 0:  # the STA sends alone: every round delivers a data frame
            for s, row in enumerate(blk.aw):  # after its frozen residual r
                m = sum(row)
                n_s += m
                idle += m * self.difs + _dot(row, self.w_r[s])
            m = sum(blk.pb)  # after a fresh backoff, (CWmin / 2) slots on average
            n_s += m
            idle += m * (self.difs + (self.w0 - 1) / 2 * self.slot)
            for (ss, flag), m in blk.c0.items():  # after a collision: offsets of c0_out
                n_s += m
                idle += m * self.c0_out(ss, flag)[1]
            return n_s, 0.0, 0.0, 0.0, idle + n_s * self.busy_s
        ap_drop_fresh = self.next_stage(0) is None
        for s, row in enumerate(blk.sw):
            win, lose = _dot(row, self.w_win[s]), _dot(row, self.w_lose[s])
            coll = _dot(row, self.w_coll[s])
            n_s += win
            n_a += lose
            n_c += coll
            if self.next_stage(s) is None:
                drops += coll
            idle += _dot(row, self.w_idle[s]) + (win + lose + coll) * self.difs
        for s, row in enumerate(blk.aw):
            win, lose = _dot(row, self.w_win[s]), _dot(row, self.w_lose[s])
            coll = _dot(row, self.w_coll[s])
            n_a += win
            n_s += lose
            n_c += coll
            if ap_drop_fresh:
                drops += coll
            idle += _dot(row, self.w_idle[s]) + (win + lose + coll) * self.difs
        for (ss, sa, flag), mass in blk.c.items():
            aw, sw, tie, mean_idle = self.c_out(ss, sa, flag)
            n_a += mass * sum(aw)
            n_s += mass * sum(sw)
            n_c += mass * tie
            if self.next_stage(sa) is None:
                drops += mass * tie
            idle += mass * mean_idle
        busy = n_s * self.busy_s + n_a * self.busy_a + n_c * self.busy_c
        return n_s, n_a, n_c, drops, idle + busy

    def solve(self, tol: float, max_iter: int) -> tuple[list[_Block], int]:
        """Stationary distribution over the blocks (sum 1), and the iterations it took."""
        k, w0 = self.k, self.w0
        blocks = self.new_blocks()
        for b, blk in enumerate(blocks):
            if self.level(b) == 0:
                blk.pb[0] = 1.0
            else:
                blk.sw[0] = [1.0 / w0] * w0
        total = sum(blk.mass() for blk in blocks)
        for blk in blocks:
            blk.scale(1.0 / total)
        h = 0.5
        tail = [self.tail * k + phase for phase in range(k)]
        for it in range(1, max_iter + 1):
            new = self.new_blocks()
            for b, blk in enumerate(blocks):
                if self.level(b) == 0:
                    self.push_idle(blk, b, new)
                else:
                    self.push_contending(blk, b, new, h, self.level(b) == self.tail)
            self.drain_tail(new, h)
            # Aggregation step (iterative aggregation-disaggregation, Takahashi): the block
            # masses follow the chain among blocks whose rows keep their current shape.
            stats = [self.rates(blk, b) for b, blk in enumerate(new)]
            masses = [blk.mass() for blk in new]
            down_t = sum(stats[t][1] + stats[t][3] for t in tail)
            up_t = stats[tail[-1]][0]
            if down_t > 0.0:
                # Flow balance in the tail: an AP delivery there ends the excursion above
                # `levels` with the probability h that keeps ACKs generated = ACKs sent.
                h = min(1.0, max(0.0, 1.0 - up_t / down_t))
            agg = [[0.0] * len(new) for _ in new]
            for b in range(len(new)):
                if masses[b] <= 0.0:
                    agg[b][self.up(b)] = 1.0  # an empty block: let it lead away (transient)
                    continue
                n_s, n_a, n_c, drops, _ = stats[b]
                row = agg[b]
                row[self.up(b)] += n_s / masses[b]
                if self.level(b) > 0:
                    for t, pr in self.down(b, h):
                        row[t] += (n_a + drops) * pr / masses[b]
                    row[b] += (n_c - drops) / masses[b]
            nu = _stationary(agg)
            if nu is None:  # no aggregation step this time: just renormalise
                total = sum(masses)
                nu = [m_b / total for m_b in masses]
            for b, blk in enumerate(new):
                if masses[b] > 0.0:
                    blk.scale(nu[b] / masses[b])
            dist = sum(a.distance(b_) for a, b_ in zip(blocks, new, strict=True))
            blocks = new
            if dist < tol:
                return blocks, it
        raise RuntimeError(f"tcp_wifi_contention: no convergence in {max_iter} iterations")


def tcp_wifi_contention(
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    mss_bytes: int = 1460,
    *,
    ack_every: int = 1,
    retry_limit: int = 6,
    timestamps: bool = True,
    preamble: str = "long",
    erp_mixed: bool = False,
    collider_eifs: bool = False,
    levels: int = 3,
) -> TcpWifiResult:
    """Bulk TCP upload STA -> AP over DCF, the STA's data and the AP's TCP ACKs contending.

    A Markov chain embedded at the end of every busy period (exact for two stations under the
    DCF rules of 10.3.4.3: counters frozen while the medium is busy and decremented only per
    whole idle slot after DIFS, the winner redraws while the loser keeps its residual, CW doubling
    and the retry limit of 10.3.4.4), joined with the AP's queue of TCP ACKs: one ACK per
    ``ack_every`` delivered segments, the AP contends only while it holds one (else it runs a
    post-backoff and the STA sends alone). Collision probability as in Bianchi (JSAC 2000): per
    attempt; the AP's ACK backlog as in Bruno, Conti, Gregori (IEEE TMC 2008). The STA is
    backlogged (large TCP window); no frame errors. ``collider_eifs=True`` lets the station
    whose countdown was armed second defer EIFS after a collision (airtcp's behaviour today).
    ``levels``: AP-queue lengths kept exactly, longer ones form a geometric tail (docs).
    """
    standard = _check_standard(standard)
    data_rate = _check_rate("data_rate_mbps", standard, data_rate_mbps)
    timing = phy_timing(standard, basic_rate_mbps, erp_mixed=erp_mixed, preamble=preamble)
    basic = _check_rate("basic_rate_mbps", standard, basic_rate_mbps)
    mss = _check_int("mss_bytes", mss_bytes, 1, MAX_TCP_MSS_BYTES)
    k = _check_int("ack_every", ack_every, 1, None)
    m = _check_int("retry_limit", retry_limit, 0, MAX_RETRY_LIMIT)
    ce = _check_bool("collider_eifs", collider_eifs)
    lv = _check_int("levels", levels, 1, None)
    data_mpdu = tcp_mpdu_bytes(mss, timestamps=timestamps)
    ack_mpdu = tcp_mpdu_bytes(0, timestamps=timestamps)
    t_data = _tx_duration_us(standard, data_rate, data_mpdu, preamble, "data_rate_mbps") * _US
    t_tcp_ack = _tx_duration_us(standard, data_rate, ack_mpdu, preamble, "data_rate_mbps") * _US
    t_ack = _tx_duration_us(standard, basic, ACK_BYTES, preamble, "basic_rate_mbps") * _US
    # Two-station DCF chain (backoff as a Markov chain, per-attempt p: Bianchi, JSAC 2000) with
    # the AP's TCP-ACK backlog (Bruno, Conti, Gregori, IEEE TMC 2008); rules of 10.3.4.
    chain = _TcpChain(
        w0=timing.cw_min + 1,
        w_max=timing.cw_max + 1,
        retry_limit=m,
        slot=timing.slot_ns,
        difs=timing.difs_ns,
        eifs=timing.eifs_ns,
        ack_timeout=timing.ack_timeout_ns,
        t_data=t_data,
        t_tcp_ack=t_tcp_ack,
        busy_s=t_data + timing.sifs_ns + t_ack,
        busy_a=t_tcp_ack + timing.sifs_ns + t_ack,
        ack_every=k,
        levels=lv,
        collider_eifs=ce,
    )
    blocks, iterations = chain.solve(tol=1e-10, max_iter=5000)
    n_s = n_a = n_c = dur = idle_rounds = 0.0
    for b, blk in enumerate(blocks):
        s_, a_, c_, _, d_ = chain.rates(blk, b)
        n_s += s_
        n_a += a_
        n_c += c_
        dur += d_
        if chain.level(b) == 0:
            idle_rounds += blk.mass()
    per_s = 1e9 / dur
    return TcpWifiResult(
        goodput_bps=8 * mss * n_s * per_s,
        collision_probability=2 * n_c / (n_s + n_a + 2 * n_c),
        data_frames_per_s=n_s * per_s,
        ack_frames_per_s=n_a * per_s,
        collisions_per_s=n_c * per_s,
        ap_idle_fraction=idle_rounds,
        mean_round_ns=dur,
        ack_every=k,
        collider_eifs=ce,
        levels=lv,
        iterations=iterations,
    )


def _stationary(p: list[list[float]]) -> list[float] | None:
    """Stationary vector of a small stochastic matrix (Gaussian elimination, partial pivoting)."""
    n = len(p)
    a = [[p[j][i] - (1.0 if i == j else 0.0) for j in range(n)] for i in range(n)]
    a[-1] = [1.0] * n  # replace one balance equation by sum(nu) = 1
    rhs = [0.0] * (n - 1) + [1.0]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        rhs[col], rhs[piv] = rhs[piv], rhs[col]
        if a[col][col] == 0.0:
            continue
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                rhs[r] -= f * rhs[col]
    nu = [max(rhs[i] / a[i][i], 0.0) if a[i][i] else 0.0 for i in range(n)]
    total = sum(nu)
    if not total > 0.0 or not math.isfinite(total):
        return None  # singular (several closed classes): skip the aggregation step
    return [v / total for v in nu]


__all__ += [
    "MAX_TCP_MSS_BYTES",
    "TCP_IP_HEADER_BYTES",
    "TCP_TIMESTAMP_OPTION_BYTES",
    "TcpWifiResult",
    "tcp_mpdu_bytes",
    "tcp_tmt_bps",
    "tcp_wifi_contention",
]


# ---------------------------------------------------------------------------------------------
# Paper 001 (Brar et al.): the channel time a TCP packet costs, Table 1 and Eq. 1-3


@dataclass(frozen=True)
class OverheadRow:
    """One line of paper 001's Table 1: a per-packet overhead and its duration [us]."""

    name: str
    duration_us: float
    note: str = ""


@dataclass(frozen=True)
class PacketOverheads:
    """Paper 001 Eq. 1: T_PACKET = T_ACK + T_DATA, T_ACK being every overhead of one packet.

    ``rows`` are the overheads that sum to ``t_ack_us`` (the channel time of a TCP-ACK, and the
    overhead of a data segment); ``t_data_us`` is the payload's own airtime.
    """

    rows: tuple[OverheadRow, ...]
    t_ack_us: float
    t_data_us: float
    payload_bytes: int

    @property
    def t_packet_us(self) -> float:
        """Eq. 1: the channel time of one data segment, overheads included."""
        return self.t_ack_us + self.t_data_us

    def lost_bandwidth_bps(self, n_acks: float, interval_s: float) -> float:
        """Eq. 2-3: the data rate the channel time of ``n_acks`` TCP-ACKs in ``interval_s``
        could have carried: k = n * T_ACK / (T_DATA + T_ACK) segments of the payload."""
        if not n_acks >= 0:
            raise ValueError(f"n_acks: {n_acks!r} (allowed: a number >= 0)")
        if not interval_s > 0:
            raise ValueError(f"interval_s: {interval_s!r} (allowed: a number > 0)")
        k = n_acks * self.t_ack_us / (self.t_data_us + self.t_ack_us)  # Eq. 2
        return k * self.payload_bytes * 8 / interval_s  # Eq. 3


def paper001_table1() -> PacketOverheads:
    """Paper 001's Table 1 exactly as printed (its "ms" are microseconds), 1000-byte segments.

    Its rows sum to the printed total, 835.47 us, but the table is not self-consistent
    (docs/paper-001.md lists why): the PHY row is a short preamble's 96 us, written as
    "144 bits/2 Mbps + 48 bits/2 Mbps", while §II and the MAC-ACK row (304 us) use the long
    preamble (192 us); "LLC + IP" counts an 8-byte IP header, and the "40-byte TCP header" row
    counts the IP header again; the 34-byte MAC header is a 4-address header; the text's
    "806.37 us per packet" is the total without the TCP header row. :func:`paper001_overheads`
    is the self-consistent version.
    """
    rows = (
        OverheadRow("DIFS", 50.0),
        OverheadRow("mean random backoff at CWmin", 310.0),
        OverheadRow("PHY preamble + PLCP header", 96.0, "printed as 144/2 + 48/2 bits per Mbps"),
        OverheadRow("MAC header + FCS (34 bytes at 11 Mbit/s)", 24.73),
        OverheadRow("LLC + IP headers (8 + 8 bytes at 11 Mbit/s)", 11.64),
        OverheadRow("SIFS + MAC-ACK", 314.0, "10 + 304"),
        OverheadRow("40-byte TCP header at 11 Mbit/s", 29.1),
    )
    return PacketOverheads(rows, t_ack_us=835.47, t_data_us=727.28, payload_bytes=1000)


def paper001_overheads(
    *,
    data_rate_mbps: float = 11.0,
    basic_rate_mbps: float = 1.0,
    preamble: str = "long",
    payload_bytes: int = 1000,
    timestamps: bool = False,
) -> PacketOverheads:
    """Table 1 recomputed from the standard for 802.11b DCF (what airtcp simulates).

    Every frame pays DIFS, the mean backoff CWmin/2 slots (10.3.4.3), its PPDU (Clause 15/16
    TXTIME, the MPDU = 24-byte header + 4 FCS + 8 LLC/SNAP + 20 IPv4 + 20 TCP [+ 12 timestamps]
    + payload, rounded up to whole us as the standard's TXTIME is), SIFS and the 14-byte MAC ACK
    at the basic rate. T_ACK is the cycle of a segment with no payload (a TCP-ACK); T_DATA is
    what the payload adds to the PPDU.
    """
    timing = phy_timing("80211b", basic_rate_mbps, preamble=preamble)
    rate = _check_rate("data_rate_mbps", "80211b", data_rate_mbps)
    payload = _check_int("payload_bytes", payload_bytes, 1, MAX_TCP_MSS_BYTES)
    ts = _check_bool("timestamps", timestamps)
    head_us = _preamble_header_us("80211b", rate, preamble, "data_rate_mbps")
    ack_mpdu = tcp_mpdu_bytes(0, timestamps=ts)
    t_ack_frame_us = _tx_duration_us("80211b", rate, ack_mpdu, preamble, "data_rate_mbps")
    t_data_frame_us = _tx_duration_us(
        "80211b", rate, tcp_mpdu_bytes(payload, timestamps=ts), preamble, "data_rate_mbps"
    )
    basic = _check_rate("basic_rate_mbps", "80211b", basic_rate_mbps)
    mac_ack_us = _tx_duration_us("80211b", basic, ACK_BYTES, preamble, "basic_rate_mbps")
    tcp_ip = TCP_IP_HEADER_BYTES + (TCP_TIMESTAMP_OPTION_BYTES if ts else 0)
    rows = (
        OverheadRow("DIFS", timing.difs_ns / _US, "SIFS + 2 slots (10.3.2.3.3)"),
        OverheadRow(
            "mean random backoff at CWmin",
            timing.cw_min * timing.slot_ns / 2 / _US,
            f"CWmin/2 = {timing.cw_min / 2:g} slots of {timing.slot_ns / _US:g} us",
        ),
        OverheadRow("PHY preamble + PLCP header", float(head_us), f"{preamble} preamble"),
        OverheadRow(
            f"MAC header + FCS + LLC/SNAP + IPv4 + TCP headers ({ack_mpdu} bytes)",
            float(t_ack_frame_us - head_us),
            f"{MAC_HEADER_DCF_BYTES} + {FCS_BYTES} + {LLC_SNAP_BYTES} + {tcp_ip} bytes at "
            f"{rate:g} Mbit/s, rounded up to whole us",
        ),
        OverheadRow("SIFS + MAC-ACK", timing.sifs_ns / _US + mac_ack_us, "ACK at the basic rate"),
    )
    t_ack = sum(r.duration_us for r in rows)
    return PacketOverheads(
        rows,
        t_ack_us=t_ack,
        t_data_us=float(t_data_frame_us - t_ack_frame_us),
        payload_bytes=payload,
    )


__all__ += ["OverheadRow", "PacketOverheads", "paper001_overheads", "paper001_table1"]


# ---------------------------------------------------------------------------------------------
# Paper 003 (Kashibuchi et al.): the ARF-aware window, Eq. 1-13

# Mandatory rates a control response may use when the basic rate is above the data rate
# (Clause 17.3.2 for OFDM; 802.11-2020 10.6.6.5.2), ascending.
_MANDATORY_MBPS: dict[str, tuple[float, ...]] = {
    "80211a": (6.0, 12.0, 24.0),
    "80211b": (1.0, 2.0),
    "80211g": (6.0, 12.0, 24.0),
}


def p003_mean_backoff_ns(cw_min: int, n_active: int, slot_ns: float) -> float:
    """Eq. 1: the mean backoff of one access with ``n_active`` stations contending,
    CWmin / (N + 1) slots (the least of N + 1 uniform draws, paper 003's approximation)."""
    cw = _check_int("cw_min", cw_min, 1, 32767)
    n = _check_int("n_active", n_active, 1, None)
    return cw / (n + 1) * slot_ns


def _answer_rate(standard: str, rate: float, basic: float) -> float:
    """The rate of the ACK (or CTS) answering a frame at ``rate`` (10.6.6.5.2, as the core's
    `control_answer`): the basic rate if not above it, else the highest mandatory one below."""
    if basic <= rate:
        return basic
    return max(r for r in _MANDATORY_MBPS[standard] if r <= rate)


@dataclass(frozen=True)
class P003Link:
    """The BSS's constants for paper 003's Eq. 1-4, 9, 10: PHY, control rate, RTS/CTS, the
    TCP options on every segment, and the number of active stations N."""

    standard: str = "80211a"
    basic_rate_mbps: float = 6.0
    rts_cts: bool = False
    n_active: int = 1
    timestamps: bool = True
    preamble: str = "long"

    def _timing(self) -> PhyTiming:
        return phy_timing(self.standard, self.basic_rate_mbps, preamble=self.preamble)

    def _tx_us(self, rate: float, size_bytes: int) -> int:
        return _tx_duration_us(self.standard, rate, size_bytes, self.preamble, "rate_mbps")

    def frame_ns(self, rate_mbps: float, segment_bytes: int) -> int:
        """t_DATA(C, lambda): a data frame carrying a TCP segment of ``segment_bytes``."""
        rate = _check_rate("rate_mbps", self.standard, rate_mbps)
        mpdu = tcp_mpdu_bytes(segment_bytes, timestamps=self.timestamps)
        return self._tx_us(rate, mpdu) * _US

    def ack_ns(self, rate_mbps: float) -> int:
        """t_ACK(C): the MAC ACK answering a frame at ``rate_mbps``."""
        rate = _check_rate("rate_mbps", self.standard, rate_mbps)
        return self._tx_us(_answer_rate(self.standard, rate, self.basic_rate_mbps), ACK_BYTES) * _US

    def rts_ns(self) -> int:
        """t_RTS: an RTS at the basic rate (paper 003: RTS at the lowest rate, heard by all)."""
        return self._tx_us(self.basic_rate_mbps, RTS_BYTES) * _US

    def cts_ns(self) -> int:
        """t_CTS: a CTS answering an RTS at the basic rate."""
        return self._tx_us(self.basic_rate_mbps, CTS_BYTES) * _US

    def mean_backoff_ns(self) -> float:
        t = self._timing()
        return p003_mean_backoff_ns(t.cw_min, self.n_active, t.slot_ns)

    def t_data_ns(self, rate_mbps: float, segment_bytes: int) -> float:
        """Eq. 10: one frame exchange carrying a segment of ``segment_bytes`` at ``rate_mbps``:
        DIFS + mean backoff [+ RTS + SIFS + CTS + SIFS] + DATA + SIFS + ACK. Without RTS/CTS
        (the paper's evaluation; its text omits the case) the bracket is left out."""
        t = self._timing()
        rts = self.rts_ns() + t.sifs_ns + self.cts_ns() + t.sifs_ns if self.rts_cts else 0
        return (
            t.difs_ns
            + self.mean_backoff_ns()
            + rts
            + self.frame_ns(rate_mbps, segment_bytes)
            + t.sifs_ns
            + self.ack_ns(rate_mbps)
        )

    def t_tcp_ns(self, rate_mbps: float, segment_bytes: int, b: int) -> float:
        """Eq. 9: b data segments of ``segment_bytes`` and one TCP ACK at ``rate_mbps``."""
        b = _check_int("b", b, 1, None)
        return self.t_data_ns(rate_mbps, segment_bytes) * b + self.t_data_ns(rate_mbps, 0)

    def occupancy_ns(self, rate_mbps: float, segment_bytes: int) -> float:
        """Eq. 2-4: the channel time one exchange takes, as any station estimates it. With
        RTS/CTS, d = DIFS + backoff + t_RTS + delta_RTS (delta_RTS = 3 SIFS + CTS + DATA + ACK,
        the RTS's Duration field), or from a CTS, + SIFS + delta_CTS: the same sum. Without,
        DIFS + backoff + DATA + its Duration (SIFS + ACK)."""
        return self.t_data_ns(rate_mbps, segment_bytes)


@dataclass(frozen=True)
class P003Slot:
    """What a station observed in one observation slot of paper 003 (Section III-B)."""

    slot_s: float  # T
    beacon_s: float  # t_beacon: the AP's beacons in T
    stations_s: tuple[float, ...]  # t_n of every active station n = 1..N (the station too)
    own_s: float  # t_i: the station's own channel time in T
    adapted_bits: float  # S_i: bits of its frames' adaptive-modulation sections in T
    connection_s: float  # tau_ij: the connection's channel time in T
    connections: int  # M_i
    segment_bytes: float  # mean TCP segment length lambda_ij in T
    rtt_s: float  # RTT_ij


@dataclass(frozen=True)
class P003Window:
    """Eq. 5-13 for one rate change: each intermediate and the window."""

    delta_s: float  # Delta+ (Eq. 5) or Delta- (Eq. 12)
    remain_s: float  # t_remain (Eq. 6)
    share_s: float  # Delta t_i (Eq. 7 or 13)
    connection_share_s: float  # Delta tau_ij = Delta t_i / M_i
    t_tcp_s: float  # Eq. 9 at the new rate
    theta_bps: float  # Eq. 8
    wnd_max_bytes: float  # Eq. 11


def p003_wnd_max(link: P003Link, slot: P003Slot, rate_mbps: float, new_rate_mbps: float, *,
                 b: int = 1) -> P003Window:  # fmt: skip
    """Paper 003 Eq. 5-13: the window bound of connection j of station i after its rate goes
    from ``rate_mbps`` (C_i) to ``new_rate_mbps`` (C_i^new), from one observation slot.

    Up (Eq. 5-7): Delta t = S_i/C_i - S_i/C_new + t_remain, shared by the N stations.
    Down (Eq. 12-13): Delta t_i = t_remain / N - (S_i/C_new - S_i/C_i), possibly negative.
    Then Delta tau = Delta t_i / M_i, Theta = (tau + Delta tau) / T_TCP(C_new, lambda, b) x
    8 lambda b / T [bit/s] (Eq. 8-10), wnd_max = RTT x Theta [bytes] (Eq. 11), never below 0.
    """
    if not (slot.slot_s > 0 and slot.connections >= 1 and slot.stations_s):
        raise ValueError("slot: T > 0, connections >= 1 and at least one station are needed")
    c_old = _check_rate("rate_mbps", link.standard, rate_mbps) * 1e6
    c_new = _check_rate("new_rate_mbps", link.standard, new_rate_mbps) * 1e6
    n = len(slot.stations_s)
    remain = slot.slot_s - sum(slot.stations_s) - slot.beacon_s  # Eq. 6
    if c_new > c_old:
        delta = slot.adapted_bits / c_old - slot.adapted_bits / c_new  # Eq. 5
        share = (delta + remain) / n  # Eq. 7
    else:
        delta = slot.adapted_bits / c_new - slot.adapted_bits / c_old  # Eq. 12
        share = remain / n - delta  # Eq. 13
    per_conn = share / slot.connections
    lam = int(round(slot.segment_bytes))
    t_tcp = link.t_tcp_ns(new_rate_mbps, lam, b) * 1e-9  # Eq. 9-10
    theta = max(
        0.0, (slot.connection_s + per_conn) / t_tcp * 8 * slot.segment_bytes * b / slot.slot_s
    )
    return P003Window(delta, remain, share, per_conn, t_tcp, theta, slot.rtt_s * theta / 8)


__all__ += ["P003Link", "P003Slot", "P003Window", "p003_mean_backoff_ns", "p003_wnd_max"]


# -- Paper 000: frame travel time over a multi-hop path (Eq. 1, 4) and the airtime cost (Eq. 2)

__all__ += [
    "P000_CASES",
    "P000Case",
    "p000_airtime_cost",
    "p000_cw_slots",
    "p000_hop_time_us",
    "p000_travel_time_us",
]


@dataclass(frozen=True)
class P000Case:
    """One column of paper 000's Table III: the rates' transmission times and how the backoff is
    drawn (``"zero"``: CW 0, ``"full"``: always CW_cur, ``"half"``: always CW_cur / 2), with
    Table II's EDCA parameters of AC_BE in 802.11b/g mixed mode."""

    name: str
    data_rate_mbps: float
    t_tx_frame_us: float  # T_txF, a 1500-byte data frame (Table III)
    t_tx_ack_us: float = 50.0  # T_txACK at 6 Mbit/s (Table III)
    cw: str = "half"
    slot_us: float = 20.0  # Table II
    sifs_us: float = 10.0
    aifs_us: float = 70.0  # AIFS[AC_BE] = SIFS + 3 slots
    cw_min: int = 15
    cw_max: int = 1023


# Table III's three cases, with the transmission times the paper gives.
P000_CASES = {
    "best": P000Case("best", 54.0, 250.0, cw="zero"),
    "worst": P000Case("worst", 6.0, 2070.0, cw="full"),
    "normal": P000Case("normal", 24.0, 530.0, cw="half"),
}


def p000_cw_slots(case: P000Case, i: int) -> int:
    """The backoff [slots] of the attempt after ``i`` retransmissions (i = 0: the first
    transmission, Eq. 1's CW_init): CW_cur(i) = min(2^i (CWmin + 1) - 1, CWmax), taken whole,
    halved (rounded down) or as 0 by the case. This convention (the i-th retransmission draws
    from the window of stage i, halves rounded down) gives the paper's 236 ms for 5 hops and 9
    retries in the normal case; the stage after it (i + 1) would give 288 ms."""
    if i < 0:
        raise ValueError(f"i: {i} is negative; allowed: integer >= 0")
    cw_cur = min((case.cw_min + 1) * 2**i - 1, case.cw_max)
    if case.cw == "zero":
        return 0
    if case.cw == "full":
        return cw_cur
    if case.cw == "half":
        return cw_cur // 2
    raise ValueError(f'cw: unknown {case.cw!r}; allowed: "zero", "full", "half"')


def p000_hop_time_us(case: P000Case, retries: int) -> float:
    """Eq. 1: T_Sum of one hop whose frame needs ``retries`` retransmissions (all of them for
    lost data frames, none for lost ACKs): T_F + T_ACK + sum over i < R of T_ARQ[i], where
    T_F = AIFS + CW_init ST + T_txF, T_ACK = SIFS + T_txACK, T_ARQ[i] = T_ACK + AIFS + CW[i] ST +
    T_txF, with the backoffs of :func:`p000_cw_slots` (retransmission i, counted from 0, draws
    from stage i)."""
    if not (isinstance(retries, int) and 0 <= retries <= 1000):
        raise ValueError(f"retries: {retries!r} is out of range; allowed: integer 0..1000")
    t_ack = case.sifs_us + case.t_tx_ack_us
    t_f = case.aifs_us + p000_cw_slots(case, 0) * case.slot_us + case.t_tx_frame_us
    t_arq = sum(
        t_ack + case.aifs_us + p000_cw_slots(case, i) * case.slot_us + case.t_tx_frame_us
        for i in range(retries)
    )
    return t_f + t_ack + t_arq


def p000_travel_time_us(case: P000Case, hops: int, retries: int) -> float:
    """Eq. 4: T_MultiHop = Hops x T_Sum, the retries needed equally on every hop."""
    if not (isinstance(hops, int) and 1 <= hops <= 1000):
        raise ValueError(f"hops: {hops!r} is out of range; allowed: integer 1..1000")
    return hops * p000_hop_time_us(case, retries)


def p000_airtime_cost(
    rate_mbps: float,
    frame_error_rate: float,
    *,
    overhead_us: float = 1.0,
    test_frame_bits: int = 8192,
) -> float:
    """Eq. 2 (802.11-2012 Eq. 13-3): c_a = [O + B_t / r] / (1 - e_f) in microseconds, with O the
    channel-access and protocol overhead (open80211s: 1, the paper says) and B_t the test frame
    (8192 bits; the paper's "8182" is a typo for 1 kB). Infinite for e_f >= 1. Linux's integer
    form (`mesh::metric` in the core) is this in microseconds, rounded down: 152 at 54 Mbit/s,
    although the standard states the metric in units of 0.01 TU."""
    if not (rate_mbps > 0 and math.isfinite(rate_mbps)):
        raise ValueError(f"rate_mbps: {rate_mbps!r} is out of range; allowed: number > 0")
    if not (0.0 <= frame_error_rate <= 1.0):
        raise ValueError(
            f"frame_error_rate: {frame_error_rate!r} is out of range; allowed: number in [0, 1]"
        )
    if frame_error_rate >= 1.0:
        return math.inf
    return (overhead_us + test_frame_bits / rate_mbps) / (1.0 - frame_error_rate)
