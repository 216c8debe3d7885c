"""Frame error rates under Rayleigh block fading, in closed form, and the distance that gives
a target rate: paper 004's x-axis ("link frame error rate") turned into a station distance.

A frame sees one fade ``h`` (exponential with mean 1: Rayleigh amplitude, constant over the
frame, Table I), so its SNR is ``h`` times the mean SNR. It is received if its power is at
least the lock threshold and every part survives: the PHY header at its own mode and the rest
at the data mode, each part's success the error model's chunk success at that SNR (the same
function the simulator multiplies, ``airtcp._core.chunk_success``). The frame error rate is
the average over ``h``:

    FER(S) = 1 - integral_0^inf  1{h P >= P_lock} * prod_k CS_k(h S) * e^-h dh

computed on a log-spaced grid in ``h`` (Gauss-Legendre per decade), exact to ~1e-6 for the
rates of interest. Used by the paper-004 template to calibrate the distance and checked against
every run's measured FER (docs/paper-004.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from airtcp import _core

__all__ = [
    "FrameBits",
    "Link",
    "aging_subframe_errors",
    "distance_for_snr_db",
    "fer",
    "snr_db_for_fer",
]

# ns-3's constants (channel/budget.rs): k = 1.3803e-23 J/K, T0 = 290 K.
_BOLTZMANN = 1.3803e-23
_T0_K = 290.0


@dataclass(frozen=True)
class FrameBits:
    """A frame's parts as the radio model decides them: (mode name, bits) each."""

    parts: tuple[tuple[str, int], ...]

    @staticmethod
    def dsss(mpdu_bytes: int, data_mode: str = "DsssRate11Mbps") -> FrameBits:
        """An 802.11b long-preamble frame: the 48-bit PLCP header at 1 Mbit/s (15.2.3), then
        the MPDU at the data mode (its split into MAC header, upper headers and payload does
        not change the total: each part's success is (1 - BER)^bits)."""
        return FrameBits((("DsssRate1Mbps", 48), (data_mode, 8 * mpdu_bytes)))


@dataclass(frozen=True)
class Link:
    """The link budget: log-distance path loss, powers and the noise floor."""

    tx_power_dbm: float = 20.0  # Table I: 100 mW
    exponent: float = 4.0  # Table I: beta = 4
    reference_loss_db: float = 40.05  # Friis at 2.412 GHz, 1 m; footnote 3's 150 m at -107 dBm
    reference_distance_m: float = 1.0
    noise_figure_db: float = 7.0
    bandwidth_hz: float = 22e6  # DSSS occupies 22 MHz (ns-3)
    lock_dbm: float = -107.0  # Table I: sensitivity

    @property
    def noise_dbm(self) -> float:
        return 10 * math.log10(_BOLTZMANN * _T0_K * self.bandwidth_hz * 1e3) + self.noise_figure_db

    def mean_rx_dbm(self, distance_m: float) -> float:
        loss = self.reference_loss_db + 10 * self.exponent * math.log10(
            distance_m / self.reference_distance_m
        )
        return self.tx_power_dbm - loss


# Fade grid: h from 1e-7 to 40 (P(h > 40) = 4e-18), 12 decades... Gauss-Legendre per panel.
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(16)
_EDGES = np.concatenate([np.logspace(-7, 0, 36), np.linspace(1.0, 40.0, 40)[1:]])


def _grid() -> tuple[np.ndarray, np.ndarray]:
    a, b = _EDGES[:-1, None], _EDGES[1:, None]
    h = (a + b) / 2 + (b - a) / 2 * _NODES[None, :]
    w = (b - a) / 2 * _WEIGHTS[None, :] * np.exp(-h)
    return h.ravel(), w.ravel()


_H, _W = _grid()


@lru_cache(maxsize=65536)
def fer(
    mean_snr_db: float,
    frame: FrameBits,
    *,
    model: str = "nist",
    lock_margin_db: float = -math.inf,
) -> float:
    """Frame error rate at mean SNR ``mean_snr_db`` under Rayleigh block fading.

    ``lock_margin_db``: how far the lock threshold lies below the mean received power [dB]
    (a fade deeper than that is not received at all); -inf: no threshold.
    """
    ok = np.zeros_like(_H)
    floor = 10 ** (-lock_margin_db / 10) if math.isfinite(lock_margin_db) else 0.0
    for i, h in enumerate(_H):
        if h < floor:
            continue
        snr_db = mean_snr_db + 10 * math.log10(h)
        p = 1.0
        for mode, bits in frame.parts:
            p *= _core.chunk_success(model, mode, snr_db, bits)
            if p == 0.0:
                break
        ok[i] = p
    return float(max(0.0, 1.0 - np.dot(ok, _W)))


@lru_cache(maxsize=4096)
def snr_db_for_fer(target: float, frame: FrameBits, *, model: str = "nist") -> float:
    """The mean SNR [dB] at which ``fer`` is ``target`` (bisection to 1e-4 dB; FER falls with
    SNR). Raises ValueError outside 0 < target < 1."""
    if not 0.0 < target < 1.0:
        raise ValueError(f"fer: {target} is out of range; allowed: 0 < fer < 1")
    lo, hi = -10.0, 80.0
    while hi - lo > 1e-4:
        mid = (lo + hi) / 2
        if fer(mid, frame, model=model) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def distance_for_snr_db(mean_snr_db: float, link: Link) -> float:
    """The distance [m] at which the mean SNR is ``mean_snr_db``."""
    loss = link.tx_power_dbm - (link.noise_dbm + mean_snr_db)
    return link.reference_distance_m * 10 ** (
        (loss - link.reference_loss_db) / (10 * link.exponent)
    )


def aging_subframe_errors(
    doppler_hz: float,
    mids_s: np.ndarray,
    bits: int,
    snr_db: float,
    mode: str = "HtMcs7",
    draws: int = 200_000,
    seed: int = 35,
) -> np.ndarray:
    """The error rate of the subframes of an A-MPDU decoded against the channel estimated at the
    preamble (``channel.estimation = "preamble"``, flat Rayleigh fading with Clarke's Doppler
    spectrum at ``doppler_hz``, one link, no interference), each subframe of ``bits`` bits at
    ``mode`` whose middle is ``mids_s`` after the estimate, among PPDUs with at least one
    subframe through (those a BlockAck answers), computed apart from the simulator.

    The channel at the estimate and at every middle is drawn jointly, a complex Gaussian vector
    with covariance J0(2 pi f_D |t_i - t_j|) (Clarke's, not the simulator's sum of sinusoids);
    a subframe at dt is decoded at SINR snr |h0|^2 / (1 + snr |h(dt) - h0|^2) (MoFA's model, the
    estimation error as noise) with success p_k, the error model's chunk success
    (``airtcp._core.chunk_success``, NIST, tabulated every 0.01 dB); and SER_k = E[(1 - p_k)
    (1 - prod_(j != k) (1 - p_j))] / E[1 - prod_j (1 - p_j)]. The Monte Carlo error is about
    0.002 at 200,000 draws.
    """
    from scipy.special import j0

    grid = np.arange(-20.0, 70.0, 0.01)
    table = np.array([_core.chunk_success("nist", mode, float(s), bits) for s in grid])
    rng = np.random.default_rng(seed)
    snr = 10 ** (snr_db / 10)
    times = np.concatenate([[0.0], np.asarray(mids_s, dtype=float)])
    cov = j0(2 * math.pi * doppler_hz * np.abs(times[:, None] - times[None, :]))
    chol = np.linalg.cholesky(cov + 1e-9 * np.eye(len(times)))
    z = (
        rng.standard_normal((draws, len(times))) + 1j * rng.standard_normal((draws, len(times)))
    ) / math.sqrt(2)
    h = z @ chol.T  # each row: h(0), h(mid_0), ..., h(mid_n-1)
    h0 = h[:, :1]
    sinr = snr * np.abs(h0) ** 2 / (1 + snr * np.abs(h[:, 1:] - h0) ** 2)
    p = np.interp(10 * np.log10(np.maximum(sinr, 1e-30)), grid, table, left=0.0, right=1.0)
    lost = 1.0 - p
    answered = 1.0 - lost.prod(axis=1)
    out = []
    for k in range(len(times) - 1):
        others_lost = np.prod(np.delete(lost, k, axis=1), axis=1)
        out.append((lost[:, k] * (1.0 - others_lost)).mean() / answered.mean())
    return np.array(out)
