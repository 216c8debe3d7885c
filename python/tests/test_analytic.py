"""Tests of airtcp.analytic against numbers computed by hand from IEEE Std 802.11-2020 and papers.

Every expected duration below was computed by hand (pencil and paper, not by the module) from
the clause named next to it; the arithmetic is written out in the comment so it can be checked.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from airtcp import analytic as a

US = 1000  # ns per microsecond


# --------------------------------------------------------------------------------------------
# rates


def test_rates() -> None:
    assert a.STANDARDS == ("80211a", "80211b", "80211g")
    assert a.rates_mbps("80211a") == (6, 9, 12, 18, 24, 36, 48, 54)
    assert a.rates_mbps("80211b") == (1, 2, 5.5, 11)
    assert a.rates_mbps("80211g") == (1, 2, 5.5, 6, 9, 11, 12, 18, 24, 36, 48, 54)
    for std in a.STANDARDS:
        rates = a.rates_mbps(std)
        assert list(rates) == sorted(rates)
        assert all(isinstance(r, float) for r in rates)


def test_frame_sizes() -> None:
    assert (a.ACK_BYTES, a.RTS_BYTES, a.CTS_BYTES) == (14, 20, 14)
    # world-spec: 1500 + 8 UDP + 20 IP + 8 LLC/SNAP + 24 MAC + 4 FCS = 1564
    assert a.mpdu_bytes(1500) == 1564
    # EDCA: QoS Data header is 26 bytes -> 1566
    assert a.mpdu_bytes(1500, access="edca") == 1566
    assert a.mpdu_bytes(0) == 64


# --------------------------------------------------------------------------------------------
# TXTIME, computed by hand


@pytest.mark.parametrize(
    ("rate", "size", "expected_us"),
    [
        # Clause 17: 16 + 4 + 4 * ceil((16 + 8*1564 + 6) / N_DBPS)
        (54, 1564, 256),  # ceil(12534/216) = 59 -> 20 + 236
        (6, 1564, 2112),  # ceil(12534/24) = 523 -> 20 + 2092
        (24, 1564, 544),  # ceil(12534/96) = 131 -> 20 + 524
        (6, 14, 44),  # ACK: ceil(134/24) = 6 -> 20 + 24
        (6, 20, 52),  # RTS: ceil(182/24) = 8 -> 20 + 32
        (54, 14, 24),  # ACK: ceil(134/216) = 1 -> 20 + 4
        (12, 14, 32),  # ACK: ceil(134/48) = 3 -> 20 + 12
    ],
)
def test_tx_duration_80211a(rate: float, size: int, expected_us: int) -> None:
    assert a.tx_duration_ns("80211a", rate, size) == expected_us * US
    # OFDM has a single preamble: "short" changes nothing
    assert a.tx_duration_ns("80211a", rate, size, preamble="short") == expected_us * US


@pytest.mark.parametrize(
    ("rate", "size", "preamble", "expected_us"),
    [
        # Clauses 15/16: 192 (long) or 96 (short) + ceil(8*bytes/rate)
        (11, 1564, "long", 1330),  # 192 + ceil(12512/11) = 192 + 1138
        (11, 1564, "short", 1234),  # 96 + 1138
        (5.5, 1564, "long", 2467),  # 192 + ceil(12512*2/11) = 192 + ceil(2274.9) = 192 + 2275
        (2, 1564, "long", 6448),  # 192 + 6256
        (1, 1564, "long", 12704),  # 192 + 12512
        (1, 14, "long", 304),  # ACK: 192 + 112
        (2, 14, "short", 152),  # ACK: 96 + 56
        (1, 20, "long", 352),  # RTS: 192 + 160
        (11, 14, "long", 203),  # ACK: 192 + ceil(112/11) = 192 + 11
        (5.5, 14, "short", 117),  # ACK: 96 + ceil(224/11) = 96 + 21
    ],
)
def test_tx_duration_80211b(rate: float, size: int, preamble: str, expected_us: int) -> None:
    assert a.tx_duration_ns("80211b", rate, size, preamble=preamble) == expected_us * US
    # Clause 18: ERP-DSSS/CCK rates of 11g are timed as 11b
    assert a.tx_duration_ns("80211g", rate, size, preamble=preamble) == expected_us * US


def test_tx_duration_80211g_ofdm() -> None:
    # Clause 18: ERP-OFDM = Clause 17 TXTIME + 6 us signal extension
    assert a.tx_duration_ns("80211g", 54, 1564) == (256 + 6) * US
    assert a.tx_duration_ns("80211g", 6, 14) == (44 + 6) * US
    # Paper 000 Table III: T_tx_ACK = 50 us (ACK at 6 Mbit/s); T_tx_F = 250 us at 54 Mbit/s and
    # 530 us at 24 Mbit/s for a 1500-byte frame: 20 + 4*ceil(12022/216 = 55.66 -> 56) + 6 = 250;
    # 20 + 4*ceil(12022/96 = 125.2 -> 126) + 6 = 530.
    assert a.tx_duration_ns("80211g", 6, 14) == 50 * US
    assert a.tx_duration_ns("80211g", 54, 1500) == 250 * US
    assert a.tx_duration_ns("80211g", 24, 1500) == 530 * US


# --------------------------------------------------------------------------------------------
# MAC timing, computed by hand


def test_phy_timing_80211a() -> None:
    t = a.phy_timing("80211a", 6)
    # Clause 17: slot 9, SIFS 16, CW 15..1023; DIFS = 16 + 2*9 = 34 (10.3.2.3.5);
    # EIFS = 16 + 34 + 44 (ACK at 6 Mbit/s) = 94 (10.3.2.3.7); ACK timeout = 16 + 9 + 20 = 45
    assert t == a.PhyTiming(9 * US, 16 * US, 34 * US, 94 * US, 45 * US, 15, 1023)


def test_phy_timing_80211b() -> None:
    # Clauses 15/16: slot 20, SIFS 10, CW 31..1023; DIFS = 10 + 40 = 50;
    # EIFS = 10 + 50 + 304 (ACK at 1 Mbit/s long) = 364; ACK timeout = 10 + 20 + 192 = 222
    t = a.phy_timing("80211b", 1)
    assert t == a.PhyTiming(20 * US, 10 * US, 50 * US, 364 * US, 222 * US, 31, 1023)
    # short preamble: ACK timeout = 10 + 20 + 96 = 126; EIFS still uses the long preamble
    t = a.phy_timing("80211b", 2, preamble="short")
    assert t.ack_timeout_ns == 126 * US and t.eifs_ns == 364 * US


def test_phy_timing_80211g() -> None:
    # pure ERP: slot 9, SIFS 10, DIFS 28; EIFS = 10 + 28 + 50 (ACK at 6 Mbit/s + 6 us ext) = 88
    t = a.phy_timing("80211g", 6)
    assert t == a.PhyTiming(9 * US, 10 * US, 28 * US, 88 * US, 39 * US, 15, 1023)
    # b/g mixed: slot 20, DIFS 50; EIFS = 10 + 50 + 304 (ACK at 1 Mbit/s) = 364;
    # ACK timeout with basic 6: 10 + 20 + 20 = 50; with basic 1: 10 + 20 + 192 = 222
    t = a.phy_timing("80211g", 6, erp_mixed=True)
    assert t == a.PhyTiming(20 * US, 10 * US, 50 * US, 364 * US, 50 * US, 15, 1023)
    assert a.phy_timing("80211g", 1, erp_mixed=True).ack_timeout_ns == 222 * US


def test_phy_timing_edca_paper000_table2() -> None:
    # Paper 000 Table II (802.11b/g mixed, AC_BE): ST 20, SIFS 10, AIFS 70, CWmin 15, CWmax 1023
    t = a.phy_timing("80211g", 6, erp_mixed=True, access="edca", ac="be")
    assert (t.slot_ns, t.sifs_ns, t.difs_ns, t.cw_min, t.cw_max) == (
        20 * US,
        10 * US,
        70 * US,
        15,
        1023,
    )
    # 10.22.2.4: EIFS[BE] = EIFS - DIFS + AIFS = 364 - 50 + 70 = 384
    assert t.eifs_ns == 384 * US


@pytest.mark.parametrize(
    ("ac", "aifs_us", "eifs_us", "cw_min", "cw_max"),
    [
        # 11a, Table 9-155: AIFS = 16 + AIFSN*9; EIFS[AC] = 94 - 34 + AIFS
        ("bk", 79, 139, 15, 1023),
        ("be", 43, 103, 15, 1023),
        ("vi", 34, 94, 7, 15),  # (15+1)/2-1 = 7, aCWmin = 15
        ("vo", 34, 94, 3, 7),  # (15+1)/4-1 = 3, (15+1)/2-1 = 7
    ],
)
def test_phy_timing_edca_80211a(ac: str, aifs_us: int, eifs_us: int, cw_min: int, cw_max: int):
    t = a.phy_timing("80211a", 6, access="edca", ac=ac)
    assert (t.difs_ns, t.eifs_ns, t.cw_min, t.cw_max) == (
        aifs_us * US,
        eifs_us * US,
        cw_min,
        cw_max,
    )
    assert (t.slot_ns, t.sifs_ns, t.ack_timeout_ns) == (9 * US, 16 * US, 45 * US)


def test_phy_timing_edca_80211b_cw() -> None:
    # Table 9-155 with aCWmin 31, aCWmax 1023: VI 15..31, VO 7..15
    vi = a.phy_timing("80211b", 1, access="edca", ac="vi")
    vo = a.phy_timing("80211b", 1, access="edca", ac="vo")
    assert (vi.cw_min, vi.cw_max, vo.cw_min, vo.cw_max) == (15, 31, 7, 15)
    assert vi.difs_ns == vo.difs_ns == (10 + 2 * 20) * US
    # ac is ignored with DCF
    assert a.phy_timing("80211b", 1, ac="vo") == a.phy_timing("80211b", 1)


# --------------------------------------------------------------------------------------------
# TMT (Jun et al. 2003), computed by hand


def test_tmt_80211a_54() -> None:
    # DIFS 34 + CWmin/2*slot 7.5*9 = 67.5 + data 256 + SIFS 16 + ACK 44 = 417.5 us
    assert a.tmt_bps("80211a", 54, 6, 1500) == pytest.approx(12000 / 417.5e-6, rel=1e-12)
    # with RTS/CTS: + RTS 52 + CTS 44 + 2*SIFS 32 = 545.5 us
    assert a.tmt_bps("80211a", 54, 6, 1500, rts_cts=True) == pytest.approx(
        12000 / 545.5e-6, rel=1e-12
    )
    # EDCA BE: MPDU 1566 -> ceil(12550/216) = 59 -> 256 us; AIFS 43: 43+67.5+256+16+44 = 426.5
    assert a.tmt_bps("80211a", 54, 6, 1500, access="edca") == pytest.approx(
        12000 / 426.5e-6, rel=1e-12
    )


def test_tmt_80211b_11() -> None:
    # DIFS 50 + 15.5*20 = 310 + data 1330 + SIFS 10 + ACK 304 = 2004 us
    assert a.tmt_bps("80211b", 11, 1, 1500) == pytest.approx(12000 / 2004e-6, rel=1e-12)
    # short preamble, basic 2: 50 + 310 + 1234 + 10 + 152 = 1756 us
    assert a.tmt_bps("80211b", 11, 2, 1500, preamble="short") == pytest.approx(
        12000 / 1756e-6, rel=1e-12
    )
    # RTS/CTS at 1 Mbit/s: + 352 + 304 + 20 = 2680 us
    assert a.tmt_bps("80211b", 11, 1, 1500, rts_cts=True) == pytest.approx(
        12000 / 2680e-6, rel=1e-12
    )


def test_tmt_80211g_54() -> None:
    # pure: 28 + 7.5*9 + 262 + 10 + 50 = 417.5 us
    assert a.tmt_bps("80211g", 54, 6, 1500) == pytest.approx(12000 / 417.5e-6, rel=1e-12)
    # mixed: 50 + 7.5*20 + 262 + 10 + 50 = 522 us
    assert a.tmt_bps("80211g", 54, 6, 1500, erp_mixed=True) == pytest.approx(
        12000 / 522e-6, rel=1e-12
    )


def test_tmt_increases_with_rate_and_payload() -> None:
    for std, basic in (("80211a", 6), ("80211b", 1), ("80211g", 6)):
        values = [a.tmt_bps(std, r, basic, 1500) for r in a.rates_mbps(std) if r >= basic]
        assert values == sorted(values)
        assert all(
            v < r * 1e6 for v, r in zip(values, a.rates_mbps(std)[-len(values) :], strict=True)
        )
    sizes = [a.tmt_bps("80211a", 54, 6, p) for p in (100, 500, 1000, 1500, 2000)]
    assert sizes == sorted(sizes)
    with pytest.raises(ValueError, match="payload_bytes: 0 is not allowed"):
        a.tmt_bps("80211a", 54, 6, 0)  # issue 9: a throughput of no payload is nonsense


# --------------------------------------------------------------------------------------------
# Bianchi with a finite retry limit


def test_bianchi_single_station_equals_tmt() -> None:
    # n = 1: tau = 2/(CWmin+2), p = 0, S = 8L / (CWmin/2 slot + Ts) = TMT
    for std, rate, basic, kw in (
        ("80211a", 54, 6, {}),
        ("80211b", 11, 1, {}),
        ("80211b", 11, 2, {"preamble": "short"}),
        ("80211g", 54, 6, {"erp_mixed": True}),
        ("80211a", 24, 6, {"access": "edca"}),
    ):
        for collision in a.COLLISION_MODELS:
            r = a.bianchi(1, std, rate, basic, 1500, collision=collision, **kw)
            assert r.p == 0.0 and r.p_s == 1.0
            cw_min = a.phy_timing(std, basic, **kw).cw_min
            assert r.tau == pytest.approx(2 / (cw_min + 2), rel=1e-14)
            tmt = a.tmt_bps(std, rate, basic, 1500, **kw)
            assert r.throughput_bps == pytest.approx(tmt, rel=1e-12)


def test_bianchi_two_stations_no_retry_by_hand() -> None:
    # retry_limit 0: tau = 2/(W0+1) = 2/17 independent of p; n = 2 -> p = tau = 2/17.
    # P_tr = 1 - (15/17)^2 = 64/289; P_s = 2 (2/17)(15/17) / P_tr = 15/16.
    # Ts = 256 + 16 + 44 + 34 = 350 us; Tc(eifs) = 256 + 94 = 350 us; Tc(difs) = 256 + 34 = 290.
    # S = (60/289) 12000 / ((225/289) 9 + (60 * 350 + 4 * Tc) / 289) bit/us
    r = a.bianchi(2, "80211a", 54, 6, 1500, retry_limit=0)
    assert r.tau == pytest.approx(2 / 17, rel=1e-14)
    assert r.p == pytest.approx(2 / 17, rel=1e-12)
    assert r.p_tr == pytest.approx(64 / 289, rel=1e-13)
    assert r.p_s == pytest.approx(15 / 16, rel=1e-13)
    assert (r.ts_ns, r.tc_ns, r.slot_ns) == (350 * US, 350 * US, 9 * US)
    expected = Fraction(60 * 12000, 2025 + 60 * 350 + 4 * 350) * 10**6
    assert r.throughput_bps == pytest.approx(float(expected), rel=1e-12)
    r = a.bianchi(2, "80211a", 54, 6, 1500, retry_limit=0, collision="difs")
    assert r.tc_ns == 290 * US
    expected = Fraction(60 * 12000, 2025 + 60 * 350 + 4 * 290) * 10**6
    assert r.throughput_bps == pytest.approx(float(expected), rel=1e-12)


def test_bianchi_times_80211b() -> None:
    # Ts = 1330 + 10 + 304 + 50 = 1694 us; Tc = 1330 + 364 = 1694 (eifs), 1330 + 50 = 1380 (difs)
    r = a.bianchi(5, "80211b", 11, 1, 1500)
    assert (r.ts_ns, r.tc_ns, r.slot_ns, r.collision) == (1694 * US, 1694 * US, 20 * US, "eifs")
    r = a.bianchi(5, "80211b", 11, 1, 1500, collision="difs")
    assert (r.ts_ns, r.tc_ns, r.collision) == (1694 * US, 1380 * US, "difs")


@pytest.mark.parametrize(("std", "rate", "basic"), [("80211a", 54, 6), ("80211b", 11, 1)])
def test_bianchi_consistency(std: str, rate: float, basic: float) -> None:
    ns = [1, 2, 3, 5, 10, 20, 50, 100, 1000]
    results = {
        c: [a.bianchi(n, std, rate, basic, 1500, collision=c) for n in ns] for c in ("eifs", "difs")
    }
    for rs in results.values():
        for r in rs:
            assert 0.0 < r.tau < 1.0 and 0.0 <= r.p < 1.0
            assert 0.0 < r.p_tr <= 1.0 and 0.0 < r.p_s <= 1.0
            # the fixed point holds
            assert r.p == pytest.approx(1 - (1 - r.tau) ** (r.stations - 1), abs=1e-12)
        ps = [r.p for r in rs]
        taus = [r.tau for r in rs]
        thr = [r.throughput_bps for r in rs]
        assert ps == sorted(ps) and len(set(ps)) == len(ps)  # p rises with n
        assert taus == sorted(taus, reverse=True)  # tau falls with n
        # throughput peaks at a few stations (fewer idle slots), then falls (more collisions)
        assert thr[3:] == sorted(thr[3:], reverse=True)  # falls from n = 5 on
        assert max(thr) > thr[0]
        assert rs[-1].p > 0.85  # n = 1000: nearly every attempt collides
        assert thr[-1] < 0.5 * thr[0]
        # throughput never exceeds the collision-free single-slot bound 8L / Ts
        assert all(t < 12000 / (r.ts_ns * 1e-9) for t, r in zip(thr, rs, strict=True))
    # tau and p do not depend on Tc; DIFS-only collisions cost less airtime than EIFS ones
    for e, d in zip(results["eifs"], results["difs"], strict=True):
        assert e.tau == d.tau and e.p == d.p
        if e.stations == 1:
            assert e.throughput_bps == pytest.approx(d.throughput_bps, rel=1e-12)
        else:
            assert d.throughput_bps > e.throughput_bps


def test_bianchi_retry_limit() -> None:
    # more retries -> more stages with larger windows -> smaller tau, fewer collisions
    rs = [a.bianchi(20, "80211a", 54, 6, 1500, retry_limit=m) for m in range(0, 32, 3)]
    assert [r.p for r in rs] == sorted((r.p for r in rs), reverse=True)
    # a finite limit of 31 is indistinguishable from Bianchi's unlimited chain
    tau_inf, p_inf = a.solve_fixed_point(20, cw_min=15, cw_max=1023, retry_limit=None)
    r31 = a.bianchi(20, "80211a", 54, 6, 1500, retry_limit=31)
    assert r31.tau == pytest.approx(tau_inf, rel=1e-6)
    assert r31.p == pytest.approx(p_inf, rel=1e-6)


def test_backoff_tau_finite_closed_form() -> None:
    # Wu et al. 2002 closed form while CW has not reached CWmax (m = 3, W = 16, W_3 = 128):
    # tau = 2 (1-2p)(1-p^(m+1)) / (W (1-p)(1-(2p)^(m+1)) + (1-2p)(1-p^(m+1)))
    w, m = 16, 3
    for p in (0.0, 0.05, 0.2, 0.3, 0.45, 0.7, 0.95):
        q = p ** (m + 1)
        expected = (
            2
            * (1 - 2 * p)
            * (1 - q)
            / (w * (1 - p) * (1 - (2 * p) ** (m + 1)) + (1 - 2 * p) * (1 - q))
        )
        got = a.backoff_tau(p, cw_min=15, cw_max=1023, retry_limit=m)
        assert got == pytest.approx(expected, rel=1e-12)
    # at p = 1 every stage is visited once: tau = 4 / (17 + 33 + 65 + 129) * 2
    assert a.backoff_tau(1.0, cw_min=15, cw_max=1023, retry_limit=3) == pytest.approx(8 / 244)


# --------------------------------------------------------------------------------------------
# Bianchi 2000 (JSAC 18(3)), the paper's own model: unlimited retries, FHSS parameters (Table II)


def _bianchi_eq7(p: float, w: int, m: int) -> float:
    """Bianchi 2000 Eq. 7, typed in from the paper."""
    return 2 * (1 - 2 * p) / ((1 - 2 * p) * (w + 1) + p * w * (1 - (2 * p) ** m))


def test_backoff_tau_matches_bianchi_eq7() -> None:
    for w, m in ((32, 3), (32, 5), (128, 3), (16, 6)):
        for p in (0.0, 0.01, 0.1, 0.3, 0.49, 0.51, 0.7, 0.9, 0.99):
            got = a.backoff_tau(p, cw_min=w - 1, cw_max=w * 2**m - 1, retry_limit=None)
            assert got == pytest.approx(_bianchi_eq7(p, w, m), rel=1e-12)


# Table II of Bianchi 2000 (FHSS): payload 8184 bits, MAC header 272, PHY header 128, ACK 112 +
# PHY header, 1 Mbit/s, propagation delay 1 us, slot 50 us, SIFS 28 us, DIFS 128 us.
# Basic access: Ts = H + E[P] + SIFS + d + ACK + DIFS + d = 400 + 8184 + 28 + 1 + 240 + 128 + 1
#               = 8982 us; Tc = H + E[P*] + DIFS + d = 400 + 8184 + 128 + 1 = 8713 us.
FHSS = {"slot": 50.0, "ts": 8982.0, "tc": 8713.0, "payload_bits": 8184.0}


def _fhss_throughput(n: int, w: int, m: int) -> float:
    tau, _ = a.solve_fixed_point(n, cw_min=w - 1, cw_max=w * 2**m - 1, retry_limit=None)
    return a.saturation_throughput(n, tau, **FHSS)[0]


def test_bianchi_2000_fig6_shape() -> None:
    # Fig. 6 of the paper (basic access, analysis): the curves lie between 0.5 and 0.9; with
    # W = 32 the throughput falls as n grows, and a larger W or more backoff stages pay off for
    # large n. (The published curves are read off a figure; we check their shape.)
    ns = [5, 10, 15, 20, 30, 40, 50]
    curves = {
        (w, m): [_fhss_throughput(n, w, m) for n in ns] for w, m in ((32, 3), (32, 5), (128, 3))
    }
    for s in curves.values():
        assert all(0.5 < x < 0.9 for x in s)
    assert curves[32, 3] == sorted(curves[32, 3], reverse=True)
    assert curves[32, 5][-1] > curves[32, 3][-1]
    assert curves[128, 3][-1] > curves[32, 5][-1]
    # the solution satisfies Eq. 7 and p = 1 - (1 - tau)^(n-1) simultaneously
    for n in ns:
        tau, p = a.solve_fixed_point(n, cw_min=31, cw_max=255, retry_limit=None)
        assert tau == pytest.approx(_bianchi_eq7(p, 32, 3), rel=1e-12)
        assert p == pytest.approx(1 - (1 - tau) ** (n - 1), abs=1e-12)


def test_bianchi_2000_optimal_tau() -> None:
    # Sec. V: S is maximal at tau ~= 1 / (n sqrt(Tc*/2)), Tc* = Tc / slot (for Tc* >> 1).
    tc_star = FHSS["tc"] / FHSS["slot"]
    for n in (10, 20, 50):
        approx = 1 / (n * math.sqrt(tc_star / 2))
        taus = [approx * (0.5 + k / 1000) for k in range(1001)]
        best = max(taus, key=lambda t: a.saturation_throughput(n, t, **FHSS)[0])
        assert best == pytest.approx(approx, rel=0.05)


# --------------------------------------------------------------------------------------------
# argument checking


def test_error_message_names_parameter_value_and_allowed() -> None:
    with pytest.raises(ValueError) as e:
        a.tmt_bps("80211a", 7, 6, 1500)
    assert str(e.value) == (
        "data_rate_mbps: 7 is not a rate of 80211a; allowed: 6, 9, 12, 18, 24, 36, 48, 54"
    )
    with pytest.raises(
        ValueError, match=r"^basic_rate_mbps: 6 is not a rate of 80211b; allowed: 1, 2, 5.5, 11$"
    ):
        a.phy_timing("80211b", 6)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: a.rates_mbps("80211n"), "standard: '80211n'"),
        (lambda: a.tx_duration_ns("80211ac", 6, 100), "standard: '80211ac'"),
        (lambda: a.tx_duration_ns("80211a", 5.5, 100), "rate_mbps: 5.5 is not a rate of 80211a"),
        (lambda: a.tx_duration_ns("80211b", True, 100), "rate_mbps: True"),
        (lambda: a.tx_duration_ns("80211b", "11", 100), "rate_mbps: '11'"),
        (lambda: a.tx_duration_ns("80211b", 11, 0), "size_bytes: 0"),
        (lambda: a.tx_duration_ns("80211b", 11, 10.0), "size_bytes: 10"),
        (lambda: a.tx_duration_ns("80211b", 1, 100, preamble="short"), "preamble: 'short'"),
        (lambda: a.tx_duration_ns("80211b", 11, 100, preamble="medium"), "preamble: 'medium'"),
        (lambda: a.mpdu_bytes(-1), "payload_bytes: -1"),
        (lambda: a.mpdu_bytes(70000), "payload_bytes: 70000"),
        (lambda: a.mpdu_bytes(100, access="hcca"), "access: 'hcca'"),
        (lambda: a.phy_timing("80211a", 6, erp_mixed=True), "erp_mixed: True"),
        (lambda: a.phy_timing("80211g", 6, erp_mixed=1), "erp_mixed: 1"),
        (lambda: a.phy_timing("80211g", 6, ac="video"), "ac: 'video'"),
        (lambda: a.phy_timing("80211b", 1, preamble="short"), "basic_rate_mbps 1"),
        (lambda: a.tmt_bps("80211b", 11, 1, 1500, rts_cts="yes"), "rts_cts: 'yes'"),
        (lambda: a.tmt_bps("80211b", 1, 2, 1500, preamble="short"), "data_rate_mbps 1"),
        (lambda: a.bianchi(0, "80211a", 54, 6, 1500), "stations: 0"),
        (lambda: a.bianchi(2, "80211a", 54, 6, 1500, retry_limit=32), "retry_limit: 32"),
        (lambda: a.bianchi(2, "80211a", 54, 6, 1500, retry_limit=-1), "retry_limit: -1"),
        (lambda: a.bianchi(2, "80211a", 54, 6, 1500, collision="ack"), "collision: 'ack'"),
        (lambda: a.bianchi(2, "80211a", 54, 7, 1500), "basic_rate_mbps: 7"),
        (lambda: a.backoff_tau(1.5, cw_min=15, cw_max=1023, retry_limit=6), "p: 1.5"),
        (lambda: a.backoff_tau(0.1, cw_min=15, cw_max=7, retry_limit=6), "cw_max: 7"),
        (lambda: a.solve_fixed_point(2, cw_min=0, cw_max=7, retry_limit=6), "cw_min: 0"),
        (lambda: a.saturation_throughput(2, 0.0, slot=1, ts=1, tc=1, payload_bits=1), "tau: 0"),
    ],
)
def test_bad_arguments(call, fragment: str) -> None:
    with pytest.raises(ValueError) as e:
        call()
    msg = str(e.value)
    assert fragment in msg
    assert "allowed" in msg


# --------------------------------------------------------------------------------------------
# TCP over one link: frame sizes, the alternating TMT, the two-station contention model


def test_tcp_mpdu_bytes() -> None:
    # conn.rs: 40 bytes TCP/IP + 12 timestamps; + 8 LLC/SNAP + 24 MAC + 4 FCS = 88 per segment
    assert a.tcp_mpdu_bytes(1460) == 1548  # 1460 + 52 + 36
    assert a.tcp_mpdu_bytes(0) == 88  # a pure ACK
    assert a.tcp_mpdu_bytes(1460, timestamps=False) == 1536
    assert a.tcp_mpdu_bytes(0, timestamps=False) == 76
    assert a.tcp_mpdu_bytes(1460, access="edca") == 1550  # QoS Data header 26 bytes
    # the largest MSS fills the 2304-byte MSDU: 2244 + 52 + 8 = 2304
    assert a.tcp_mpdu_bytes(a.MAX_TCP_MSS_BYTES) == 2304 + 28


def test_tcp_tmt_80211a_54_by_hand() -> None:
    # data 1548 B: ceil((16 + 12384 + 6) / 216) = 58 symbols -> 20 + 232 = 252 us
    # TCP ACK 88 B: ceil((16 + 704 + 6) / 216) = 4 symbols -> 20 + 16 = 36 us
    assert a.tx_duration_ns("80211a", 54, 1548) == 252 * US
    assert a.tx_duration_ns("80211a", 54, 88) == 36 * US
    # cycles: 34 + 67.5 + 252 + 16 + 44 = 413.5 us and 34 + 67.5 + 36 + 16 + 44 = 197.5 us
    assert a.tcp_tmt_bps("80211a", 54, 6) == pytest.approx(11680 / 611e-6, rel=1e-12)  # 19.12
    # ack_every 2: 2 * 11680 / (2 * 413.5 + 197.5) us = 22.80 Mbit/s
    assert a.tcp_tmt_bps("80211a", 54, 6, ack_every=2) == pytest.approx(23360 / 1024.5e-6)


def test_tcp_tmt_80211b_11_by_hand() -> None:
    # data: 192 + ceil(12384 / 11) = 1318 us; TCP ACK: 192 + 64 = 256 us; ACK at 1: 304 us
    # cycles: 50 + 310 + 1318 + 10 + 304 = 1992 and 50 + 310 + 256 + 10 + 304 = 930 us
    assert a.tcp_tmt_bps("80211b", 11, 1) == pytest.approx(11680 / 2922e-6, rel=1e-12)  # 4.00


def test_tcp_tmt_edca_by_hand() -> None:
    # AIFS[BE] = 16 + 3 * 9 = 43 us; data 1550 B and TCP ACK 90 B still 252 and 36 us
    # cycles: 43 + 67.5 + 252 + 16 + 44 = 422.5 and 43 + 67.5 + 36 + 16 + 44 = 206.5 us
    assert a.tcp_tmt_bps("80211a", 54, 6, access="edca") == pytest.approx(11680 / 629e-6)


def test_tcp_tmt_tends_to_udp_tmt_with_rare_acks() -> None:
    # A 1548-byte MPDU carries 1484 bytes of UDP payload; with (almost) no ACKs the TCP
    # maximum is the TMT of that frame scaled by the payload share 1460 / 1484.
    tcp = a.tcp_tmt_bps("80211a", 54, 6, ack_every=10**6)
    assert tcp == pytest.approx(a.tmt_bps("80211a", 54, 6, 1484) * 1460 / 1484, rel=1e-5)


def test_tcp_wifi_collision_round_by_hand() -> None:
    # After a collision (802.11a, standard rule) both stations draw from stage 1 (CW 31). The
    # AP (short frame) counts from DIFS after the data frame ends; the STA only after its
    # ACKTimeout (45 us = 5 slots): the AP goes first iff b_ap < b_sta + 5. Pairs of 32 x 32:
    # sum_{b_sta=0}^{26} (b_sta + 5) + 5 * 32 = 486 + 160 = 646 AP first; ties b_ap = b_sta + 5:
    # 27; the STA first: 1024 - 646 - 27 = 351.
    chain = a._TcpChain(
        w0=16, w_max=1024, retry_limit=6, slot=9 * US, difs=34 * US, eifs=94 * US,
        ack_timeout=45 * US, t_data=252 * US, t_tcp_ack=36 * US, busy_s=1, busy_a=1,
        ack_every=1, levels=1, collider_eifs=False,
    )  # fmt: skip
    assert chain.offsets(0) == (34 * US, 79 * US)
    aw, sw, tie, _ = chain.c_out(1, 1, 0)
    assert (sum(aw) * 1024, sum(sw) * 1024, tie * 1024) == pytest.approx((646, 351, 27))
    # airtcp's rule (collider_eifs): the AP deferring EIFS starts at 94 us, the STA at 79 us
    # (15 us = 1.67 slots ahead): no slot boundary is shared, so no second collision.
    assert chain.offsets(1) == (94 * US, 79 * US)
    assert chain.c_out(1, 1, 1)[2] == 0.0


def _round_simulation(
    standard: str,
    data_rate: float,
    basic_rate: float,
    ack_every: int,
    *,
    collider_eifs: bool,
    rounds: int,
    seed: int,
    retry_limit: int = 6,
) -> tuple[float, float, float]:
    """Monte Carlo, round by round, of the assumptions of tcp_wifi_contention (not airtcp).

    Written apart from the chain solver: explicit counters, integer ns. Returns (goodput bit/s,
    collision probability, share of rounds with the AP's queue empty).
    """
    t = a.phy_timing(standard, basic_rate)
    slot, difs, eifs, timeout = t.slot_ns, t.difs_ns, t.eifs_ns, t.ack_timeout_ns
    w0, w_max = t.cw_min + 1, t.cw_max + 1
    t_data = a.tx_duration_ns(standard, data_rate, a.tcp_mpdu_bytes(1460))
    t_tack = a.tx_duration_ns(standard, data_rate, a.tcp_mpdu_bytes(0))
    t_mack = a.tx_duration_ns(standard, basic_rate, a.ACK_BYTES)
    rng = random.Random(seed)

    def draw(stage: int) -> int:
        return rng.randrange(min(w0 << stage, w_max))

    st_sta = st_ap = 0
    r_sta, r_ap = draw(0), draw(0)
    c_sta = c_ap = difs  # when each countdown starts, ns after the last busy period
    q = phase = 0  # TCP ACKs queued at the AP; deliveries since the last ACK
    ap_counting = True  # the AP's backoff (or post-backoff) is running
    eifs_ap = eifs_sta = False
    last = "S"
    clock = n_s = n_a = n_c = empty = 0
    for _ in range(rounds):
        at_sta, at_ap = c_sta + r_sta * slot, c_ap + r_ap * slot
        empty += q == 0
        if q > 0 and at_ap == at_sta:
            event, t0 = "C", at_ap
        elif q > 0 and at_ap < at_sta:
            event, t0 = "A", at_ap
        else:
            event, t0 = "S", at_sta
        clock += t0
        if event == "S":
            n_s += 1
            clock += t_data + t.sifs_ns + t_mack
            if ap_counting:
                r_ap -= min(r_ap, max(0, (t0 - c_ap) // slot))
                ap_counting = q > 0 or r_ap > 0
            st_sta, r_sta = 0, draw(0)
            phase += 1
            if phase == ack_every:
                phase = 0
                if not ap_counting:
                    st_ap, r_ap = 0, draw(0)
                q += 1
                ap_counting = True
        elif event == "A":
            n_a += 1
            clock += t_tack + t.sifs_ns + t_mack
            r_sta -= min(r_sta, max(0, (t0 - c_sta) // slot))
            q -= 1
            st_ap, r_ap = 0, draw(0)
        else:
            n_c += 1
            clock += max(t_data, t_tack)
            if collider_eifs:
                if last == "S":
                    eifs_ap = True
                else:
                    eifs_sta = True
            st_sta = st_sta + 1 if st_sta < retry_limit else 0
            if st_ap < retry_limit:
                st_ap += 1
            else:
                st_ap, q = 0, q - 1
            r_sta, r_ap = draw(st_sta), draw(st_ap)
        if event == "C":
            c_ap = max(t_tack + timeout, t_data) - t_data + (eifs if eifs_ap else difs)
            c_sta = timeout + (eifs if eifs_sta else difs)
        else:
            c_sta = c_ap = difs
            eifs_ap = eifs_sta = False
        last = event
    return 8 * 1460 * n_s / (clock * 1e-9), 2 * n_c / (n_s + n_a + 2 * n_c), empty / rounds


@pytest.mark.parametrize(
    ("standard", "data", "basic", "ack_every", "collider_eifs", "retry_limit"),
    [
        ("80211a", 54, 6, 1, False, 6),  # second collisions possible (5-slot offset)
        ("80211a", 54, 6, 2, True, 6),
        ("80211b", 11, 1, 1, True, 1),  # retry-limit drops of data and of TCP ACKs
    ],
)
def test_tcp_wifi_contention_matches_round_simulation(
    standard: str, data: float, basic: float, ack_every: int, collider_eifs: bool, retry_limit: int
) -> None:
    # The chain solved to 1e-10 against 150 000 simulated rounds: goodput within 0.4 %
    # (simulation noise ~0.1 %), collision probability within 0.003, AP-idle share within 0.01.
    model = a.tcp_wifi_contention(
        standard, data, basic, ack_every=ack_every, collider_eifs=collider_eifs,
        retry_limit=retry_limit,
    )  # fmt: skip
    goodput, p, empty = _round_simulation(
        standard, data, basic, ack_every, collider_eifs=collider_eifs, rounds=150_000, seed=7,
        retry_limit=retry_limit,
    )  # fmt: skip
    assert goodput == pytest.approx(model.goodput_bps, rel=0.004)
    assert p == pytest.approx(model.collision_probability, abs=0.003)
    assert empty == pytest.approx(model.ap_idle_fraction, abs=0.01)


def test_tcp_wifi_contention_flow_balance_and_levels() -> None:
    # Every k-th delivered segment generates one TCP ACK and every ACK is sent (drops are
    # ~p^7): data frames = k x ACK frames. The geometric tail above `levels` is exact enough
    # that 2 or 5 levels give the same numbers within 1e-4.
    for k in (1, 2):
        r = a.tcp_wifi_contention("80211b", 11, 1, ack_every=k, levels=2)
        assert r.data_frames_per_s == pytest.approx(k * r.ack_frames_per_s, rel=1e-6)
        assert 0.0 < r.ap_idle_fraction < 1.0
        r5 = a.tcp_wifi_contention("80211b", 11, 1, ack_every=k, levels=5)
        assert r5.goodput_bps == pytest.approx(r.goodput_bps, rel=1e-4)
        assert r5.collision_probability == pytest.approx(r.collision_probability, abs=1e-4)


def test_tcp_wifi_contention_beats_the_alternating_tmt_at_54() -> None:
    # Two backlogged stations count down in parallel: the idle time before a frame is the
    # smaller of two counters, not CWmin/2 slots each; that more than pays for the collisions
    # at 54 Mbit/s, so the alternating TMT is no upper bound (docs/analytic.md).
    r = a.tcp_wifi_contention("80211a", 54, 6)
    assert r.goodput_bps > a.tcp_tmt_bps("80211a", 54, 6) * 1.01
    assert r.collision_probability == pytest.approx(0.1054, abs=0.001)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: a.tcp_mpdu_bytes(2245), "payload_bytes: 2245"),
        (lambda: a.tcp_mpdu_bytes(100, timestamps=1), "timestamps: 1"),
        (lambda: a.tcp_tmt_bps("80211a", 54, 6, 0), "mss_bytes: 0"),
        (lambda: a.tcp_tmt_bps("80211a", 54, 6, ack_every=0), "ack_every: 0"),
        (lambda: a.tcp_tmt_bps("80211a", 54, 6, access="pcf"), "access: 'pcf'"),
        (lambda: a.tcp_wifi_contention("80211a", 54, 5), "basic_rate_mbps: 5"),
        (lambda: a.tcp_wifi_contention("80211a", 54, 6, retry_limit=32), "retry_limit: 32"),
        (lambda: a.tcp_wifi_contention("80211a", 54, 6, ack_every=1.0), "ack_every: 1"),
        (lambda: a.tcp_wifi_contention("80211a", 54, 6, levels=0), "levels: 0"),
        (lambda: a.tcp_wifi_contention("80211a", 54, 6, collider_eifs=1), "collider_eifs: 1"),
    ],
)
def test_tcp_bad_arguments(call, fragment: str) -> None:
    with pytest.raises(ValueError) as e:
        call()
    assert fragment in str(e.value)
    assert "allowed" in str(e.value)


# ---------------------------------------------------------------------------------------------
# Paper 001: Table 1 and Eq. 1-3


def test_paper001_table1_as_printed_sums_to_its_total() -> None:
    t = a.paper001_table1()
    # Paper 001 Table 1: the seven overhead rows and the printed total T_ACK = 835.47 us.
    assert sum(r.duration_us for r in t.rows) == pytest.approx(835.47, abs=1e-9)
    assert t.t_data_us == 727.28  # "1000*8 bits/11 Mbps", printed 727.28
    # The text's "806.37 per packet" is the total without the 29.1 us TCP-header row.
    assert t.t_ack_us - 29.1 == pytest.approx(806.37, abs=1e-9)


def test_paper001_eq2_3_with_the_printed_table_gives_1_71_not_1_47_mbps() -> None:
    # Hand computation with the paper's own numbers, n = 40 ACKs per 0.1 s (its Fig.):
    # k = 40 * 835.47 / (727.28 + 835.47) = 21.3846; 21.3846 * 1000 * 8 / 0.1 = 1.7108 Mbit/s.
    # The paper prints 1.47 Mbit/s, which no reading of Table 1 gives (docs/paper-001.md).
    lost = a.paper001_table1().lost_bandwidth_bps(40, 0.1)
    assert lost == pytest.approx(1.7108e6, rel=1e-4)
    with pytest.raises(ValueError, match="interval_s: 0"):
        a.paper001_table1().lost_bandwidth_bps(40, 0)


def test_paper001_self_consistent_overheads_from_the_standard() -> None:
    o = a.paper001_overheads()
    # Hand computation, 802.11b 11 Mbit/s data, 1 Mbit/s basic, long preamble, DCF:
    # DIFS 50 + backoff 15.5 * 20 = 310 + PLCP 192 + ceil(76 * 8 / 11) = 56 (24 MAC + 4 FCS
    # + 8 LLC/SNAP + 20 IPv4 + 20 TCP) + SIFS 10 + ACK (192 + 14 * 8) = 304  ->  922 us.
    assert [r.duration_us for r in o.rows] == [50, 310, 192, 56, 314]
    assert o.t_ack_us == 922
    # T_DATA: ceil(1076 * 8 / 11) - ceil(76 * 8 / 11) = 783 - 56 = 727 us.
    assert o.t_data_us == 727 and o.t_packet_us == 1649
    # Eq. 2-3 with n = 40: 40 * 922 / 1649 * 8000 / 0.1 = 1.7892 Mbit/s.
    assert o.lost_bandwidth_bps(40, 0.1) == pytest.approx(1.7892e6, rel=1e-4)


def test_paper001_overheads_agree_with_the_core_airtime() -> None:
    from airtcp import _core

    o = a.paper001_overheads()
    # The two frames' airtime in the Rust core: 76-byte TCP-ACK MPDU and 1076-byte data MPDU.
    ack_frame_us = _core.tx_duration_ns("80211b", 11.0, 76) / 1000
    data_frame_us = _core.tx_duration_ns("80211b", 11.0, 1076) / 1000
    assert ack_frame_us == o.rows[2].duration_us + o.rows[3].duration_us
    assert data_frame_us - ack_frame_us == o.t_data_us
    assert _core.tx_duration_ns("80211b", 1.0, 14) / 1000 == o.rows[4].duration_us - 10


# ---------------------------------------------------------------------------------------------
# Paper 003 Eq. 1-13 (hand computation, 802.11a: slot 9 us, SIFS 16, DIFS 34, CWmin 15)


def test_p003_frame_times_and_eq_1_9_10_by_hand() -> None:
    link = a.P003Link()  # 802.11a, basic 6 Mbit/s, no RTS/CTS, N = 1, timestamps
    # Eq. 1: CWmin / (N + 1) slots: 15 / 2 x 9 us = 67.5 us; with N = 3: 15 / 4 x 9 = 33.75 us.
    assert link.mean_backoff_ns() == 67_500
    assert a.p003_mean_backoff_ns(15, 3, 9000) == 33_750
    # 1460 + 40 + 12 + 8 + 24 + 4 = 1548 bytes at 54: ceil((16 + 12384 + 6) / 216) = 58
    # symbols, 20 + 232 = 252 us; a TCP ACK (88 bytes): 4 symbols, 36 us; the MAC ACK at 6:
    # ceil(134 / 24) = 6 symbols, 44 us.
    assert (link.frame_ns(54, 1460), link.frame_ns(54, 0), link.ack_ns(54)) == (
        252_000,
        36_000,
        44_000,
    )
    # Eq. 10 without RTS/CTS: 34 + 67.5 + 252 + 16 + 44 = 413.5 us; a TCP ACK: 197.5 us.
    assert link.t_data_ns(54, 1460) == 413_500 and link.t_data_ns(54, 0) == 197_500
    # Eq. 9, b = 1: 611 us; b = 2: 2 x 413.5 + 197.5 = 1024.5 us.
    assert link.t_tcp_ns(54, 1460, 1) == 611_000 and link.t_tcp_ns(54, 1460, 2) == 1_024_500
    # With RTS/CTS: + RTS (20 bytes at 6: 8 symbols, 52 us) + SIFS + CTS (44 us) + SIFS:
    # 541.5 us; Eq. 2-4 give the same channel time, the Duration fields covering the rest.
    rts = a.P003Link(rts_cts=True)
    assert (rts.rts_ns(), rts.cts_ns()) == (52_000, 44_000)
    assert rts.t_data_ns(54, 1460) == 541_500 == rts.occupancy_ns(54, 1460)
    # 10.6.6.5.2: with basic rate 24, an 18 Mbit/s frame is answered at 12 (the highest
    # mandatory rate below): 14 bytes, ceil(134 / 48) = 3 symbols, 32 us.
    assert a.P003Link(basic_rate_mbps=24).ack_ns(18) == 32_000


def test_p003_wnd_max_eq_5_to_13_by_hand() -> None:
    link = a.P003Link()
    slot = a.P003Slot(
        slot_s=1.0, beacon_s=0.002, stations_s=(0.5,), own_s=0.5, adapted_bits=8e6,
        connection_s=0.5, connections=1, segment_bytes=1460, rtt_s=0.02,
    )  # fmt: skip
    up = a.p003_wnd_max(link, slot, 36, 48)
    # Eq. 5: 8e6/36e6 - 8e6/48e6 = 0.05556 s; Eq. 6: 1 - 0.5 - 0.002 = 0.498 s; Eq. 7 (N = 1):
    # 0.55356 s. At 48 Mbit/s: DATA 65 symbols = 280 us, T_TCP = (34 + 67.5 + 280 + 16 + 44)
    # + 197.5 = 639 us. Eq. 8: (0.5 + 0.55356) / 639e-6 x 11680 bit / 1 s = 19.2575 Mbit/s;
    # Eq. 11: 0.02 s x 19.2575e6 / 8 = 48143.7 bytes.
    assert up.delta_s == pytest.approx(1 / 18)
    assert up.remain_s == pytest.approx(0.498)
    assert up.share_s == pytest.approx(0.498 + 1 / 18)
    assert up.t_tcp_s == pytest.approx(639e-6)
    assert up.theta_bps == pytest.approx((0.5 + 0.498 + 1 / 18) / 639e-6 * 11680)
    assert up.wnd_max_bytes == pytest.approx(48143.7, abs=0.1)
    down = a.p003_wnd_max(link, slot, 48, 36)
    # Eq. 12: 8e6/36e6 - 8e6/48e6 again; Eq. 13: 0.498 / 1 - 0.05556 = 0.44244 s. At 36:
    # DATA ceil(12406 / 144) = 87 symbols = 368 us, TCP ACK 6 symbols = 44 us: T_TCP =
    # 529.5 + 205.5 = 735 us; Theta = 0.94244 / 735e-6 x 11680 = 14.977 Mbit/s.
    assert down.share_s == pytest.approx(0.498 - 1 / 18)
    assert down.t_tcp_s == pytest.approx(735e-6)
    assert down.wnd_max_bytes == pytest.approx(0.02 * (0.5 + 0.498 - 1 / 18) / 735e-6 * 11680 / 8)
    # Two stations share the newly free time; two connections share the station's.
    two = a.p003_wnd_max(
        link, a.P003Slot(**{**slot.__dict__, "stations_s": (0.5, 0.3), "connections": 2}),
        36, 48,
    )  # fmt: skip
    assert two.remain_s == pytest.approx(0.198)
    assert two.connection_share_s == pytest.approx((0.198 + 1 / 18) / 2 / 2)
    # A crowded slot gives a negative share; the window never goes below zero.
    full = a.P003Slot(**{**slot.__dict__, "stations_s": (0.999,), "connection_s": 0.01})
    assert a.p003_wnd_max(link, full, 48, 6).wnd_max_bytes == 0.0


# -- paper 000: Eq. 1, 2 and 4 ----------------------------------------------------------------


def test_p000_travel_times_give_the_papers_236_and_60_ms() -> None:
    from airtcp.analytic import P000_CASES, p000_travel_time_us

    # Section III: 5 hops, 9 retries, normal case (24 Mbit/s, CW_cur/2): 236 ms; 5 hops, 31
    # retries, best case (54 Mbit/s, CW 0): 60 ms. By hand for the best case: T_F = 70 + 250,
    # T_ACK = 10 + 50, T_ARQ[i] = 60 + 70 + 250; (320 + 60 + 31 x 380) x 5 = 60 800 us.
    assert p000_travel_time_us(P000_CASES["best"], 5, 31) == 60_800.0
    # Normal: CW_cur 15, 31, ... 1023 halved down to 7, 15, 31, 63, 127, 255, 511, 511, 511;
    # T_F = 70 + 140 + 530 = 740, T_ACK = 60, T_ARQ = 9 x 660 + 20 x 2031 = 46 560:
    # (740 + 60 + 46 560) x 5 = 236 800 us, the paper's "236 ms".
    assert p000_travel_time_us(P000_CASES["normal"], 5, 9) == 236_800.0


def test_p000_rto_min_is_crossed_where_the_paper_says() -> None:
    from airtcp.analytic import P000_CASES, p000_travel_time_us

    def first_over_rto_min(case: str, hops: int) -> int | None:
        c = P000_CASES[case]
        return next((r for r in range(32) if p000_travel_time_us(c, hops, r) > 200_000), None)

    # "in the worst case RTO_min is exceeded already for 7 retries per hop after 4 and 5 hops"
    assert [first_over_rto_min("worst", h) for h in (3, 4, 5)] == [8, 7, 7]
    # "RTO_min is exceeded in cases (b) and (c) for all multi-hop paths within" 5..15 retries
    assert all(first_over_rto_min(c, h) <= 15 for c in ("worst", "normal") for h in (2, 3, 4, 5))
    # "only 2 to 3 additional retransmissions per hop" separate the normal from the worst case
    # on 3 hops and more; the best case never reaches RTO_min (60.8 ms at 5 hops, 31 retries).
    gaps = [first_over_rto_min("normal", h) - first_over_rto_min("worst", h) for h in (3, 4, 5)]
    assert gaps == [3, 3, 2]
    assert first_over_rto_min("best", 5) is None


def test_p000_cw_convention_and_bad_values() -> None:
    from airtcp.analytic import P000_CASES, p000_airtime_cost, p000_cw_slots, p000_hop_time_us

    normal, worst = P000_CASES["normal"], P000_CASES["worst"]
    assert [p000_cw_slots(worst, i) for i in range(8)] == [15, 31, 63, 127, 255, 511, 1023, 1023]
    assert [p000_cw_slots(normal, i) for i in range(3)] == [7, 15, 31]
    # Eq. 2 at 54 Mbit/s without errors: 1 + 8192/54 = 152.7 us (Linux's integer form: 152);
    # doubled by a 50 % frame error rate; infinite when every frame fails.
    assert p000_airtime_cost(54.0, 0.0) == pytest.approx(152.7037, abs=1e-4)
    assert p000_airtime_cost(54.0, 0.5) == pytest.approx(2 * 152.7037, abs=1e-3)
    assert p000_airtime_cost(6.0, 1.0) == math.inf
    for bad in (lambda: p000_hop_time_us(normal, -1), lambda: p000_airtime_cost(0.0, 0.1)):
        with pytest.raises(ValueError, match="out of range"):
            bad()
