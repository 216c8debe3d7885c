"""Closed-form models of IEEE 802.11 DCF/EDCA, the reference the simulator is validated against.

Everything here is written from the standard (IEEE Std 802.11-2020) and the papers cited next to
each formula, independently of the Rust core. Times are integer nanoseconds where the standard
gives whole microseconds, floats where a mean is taken. Frame sizes follow docs/world-spec.md.

- :func:`tx_duration_ns`: PPDU duration (TXTIME) of one MPDU, Clauses 15-18.
- :func:`phy_timing`: slot, SIFS, DIFS/AIFS, EIFS, ACK timeout, CWmin/CWmax.
- :func:`tmt_bps`: theoretical maximum throughput of one station (Jun et al., NCA 2003).
- :func:`bianchi`: saturation throughput of n stations (Bianchi, JSAC 2000) with a finite retry
  limit (Wu et al., INFOCOM 2002; Chatzimisios et al. 2003).

See docs/analytic.md for the formulas and the conventions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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

# DSSS (Clause 15) and HR/DSSS (Clause 16) rates; 11g carries them as ERP-DSSS/CCK (Clause 18).
_DSSS_RATES: tuple[float, ...] = (1.0, 2.0, 5.5, 11.0)
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
_RATES: dict[str, tuple[float, ...]] = {
    "80211a": tuple(sorted(_OFDM_NDBPS)),
    "80211b": _DSSS_RATES,
    "80211g": tuple(sorted(_DSSS_RATES + tuple(_OFDM_NDBPS))),
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
    allowed = _RATES[standard]
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
    return standard != "80211a" and rate in _DSSS_RATES


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
    return _RATES[_check_standard(standard)]


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
