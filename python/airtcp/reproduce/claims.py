"""Claims as data, estimates with intervals fit for their quantity, and one verdict rule.

A paper's claim is a :class:`Claim`: where it is in the paper, the quantity, the paper's value or
shape in the paper's words, and a declared :data:`Comparison` (:class:`Within`,
:class:`Direction`, :class:`Ordering`, :class:`FlatPast`, :class:`PeakWithin`). airtcp's
measurement is an :class:`Estimate` (point, interval, n, method) from one of the estimators
below, and ``comparison.verdict(estimate)`` gives a :class:`Verdict` by one rule for every paper:

* **agrees** - the whole interval satisfies the paper's statement;
* **agrees in direction** - the whole interval has the paper's sign but contradicts its
  magnitude (a :class:`Within` with a ``neutral`` value only);
* **differs** - the whole interval contradicts the statement;
* **inconclusive** - the interval spans both; the verdict then says how many replications
  would decide it (:func:`replications_to_decide`).

A point estimate never decides a verdict.

Estimators (all deterministic: resampling uses ``numpy.random.Generator(PCG64(seed))`` seeded
from the data's bytes unless a seed is given):

* :func:`mean_interval` - one sample's mean, ``kind`` ``"t"`` (Student), ``"bootstrap"``
  (percentile) or ``"bca"`` (bias-corrected and accelerated; Efron 1987, "Better bootstrap
  confidence intervals", JASA 82(397):171-185; Efron & Tibshirani 1993, *An Introduction to the
  Bootstrap*, ch. 14). A bootstrap interval is made of quantiles of resampled means, so it stays
  inside the data's range: never below 0 for non-negative data. Its price at n = 2-3 is
  undercoverage (at n = 2 a new run's mean lies between the two runs' half the time): below
  about n = 10 the conservative choice for a non-negative quantity is ``kind="t"`` with
  ``floor=0`` (clipping an interval to the quantity's known range keeps its coverage).
* :func:`paired_difference`, :func:`paired_ratio` - runs paired by seed (common random
  numbers): the bootstrap resamples pairs, so what the seeds share cancels.
* :func:`mean_difference`, :func:`ratio_of_means` - independent samples, each resampled on its
  own.
* :func:`best_of_k` - the best of k baselines, corrected for having picked the best.
* :func:`winner_margin` - the margin of a named variant over its best rival, for
  :class:`Ordering`.
* :func:`wilson_interval` - a proportion's (k of n) score interval (Wilson 1927, JASA 22(158):
  209-212), which keeps its coverage near 0 and 1 where the normal one does not.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from airtcp.reproduce.common import Claim as Row

__all__ = [
    "AGREES",
    "AGREES_IN_DIRECTION",
    "DIFFERS",
    "INCONCLUSIVE",
    "RESAMPLES",
    "Claim",
    "Comparison",
    "Direction",
    "Estimate",
    "FlatPast",
    "Ordering",
    "PeakWithin",
    "Quantity",
    "Verdict",
    "Where",
    "Within",
    "best_of_k",
    "combine",
    "family_level",
    "mean_difference",
    "mean_interval",
    "paired_difference",
    "paired_ratio",
    "ratio_of_means",
    "replications_to_decide",
    "winner_margin",
]

AGREES = "agrees"
AGREES_IN_DIRECTION = "agrees in direction"
DIFFERS = "differs"
INCONCLUSIVE = "inconclusive"

# Bootstrap resamples (Efron & Tibshirani 1993 §14.3 advise at least 1000 for BCa).
RESAMPLES = 4000

_N = NormalDist()

# A sample of runs' values: a list, or a column already an array.
Sample = Sequence[float] | np.ndarray

# One variant's replications.
Samples = Sequence[float] | np.ndarray


# ---------------------------------------------------------------------------------------------
# Estimates


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its confidence interval [low, high] at ``level``, the number of
    replications ``n`` and the ``method`` that made the interval; ``detail`` is a note for the
    report (the variant picked, a probability). No interval (n = 1): low and high are NaN."""

    point: float
    low: float
    high: float
    n: int
    method: str
    level: float = 0.95
    detail: str = ""

    @property
    def has_interval(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))

    def fmt(self, scale: float = 1.0, digits: int = 2, unit: str = "", sign: bool = False) -> str:
        """``point unit [low, high] (n=N)``, each value times ``scale``; ``sign`` writes +/-."""
        f = f"{{:+.{digits}f}}" if sign else f"{{:.{digits}f}}"
        tail = f" {unit}" if unit else ""
        head = f.format(self.point * scale) + tail
        if not self.has_interval:
            return f"{head} (n={self.n})"
        lo, hi = f.format(self.low * scale), f.format(self.high * scale)
        return f"{head} [{lo}, {hi}] (n={self.n})"


def _seed(*arrays: np.ndarray) -> int:
    """A seed from the data's bytes: the same data always gets the same resamples."""
    h = hashlib.blake2b(digest_size=8)
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=float)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return int.from_bytes(h.digest(), "little")


def _rng(seed: int | None, *arrays: np.ndarray) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(_seed(*arrays) if seed is None else seed))


def _alphas(level: float) -> tuple[float, float]:
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return (1 - level) / 2, (1 + level) / 2


def _percentile(boot: np.ndarray, level: float) -> tuple[float, float]:
    boot = boot[np.isfinite(boot)]
    lo, hi = np.quantile(boot, _alphas(level))
    return float(lo), float(hi)


def _bca(
    theta: float, boot: np.ndarray, jack: Sequence[np.ndarray], level: float
) -> tuple[float, float]:
    """The BCa interval (Efron 1987, eqs. 2.3-2.4 and 6.6; Efron & Tibshirani 1993 §14.3) from
    the estimate ``theta``, its bootstrap replicates ``boot`` and the leave-one-out jackknife
    values of each independent sample in ``jack`` (one array for one sample or for pairs).

    Bias correction z0 = Phi^-1(share of replicates below theta, ties counted half); the
    acceleration a = sum(U^3) / (6 sum(U^2)^1.5) with U the jackknife influence of each
    observation, divided by its sample's size when there are several samples (Efron &
    Tibshirani 1993 §14.3, two-sample form). The interval's ends are the replicates' quantiles
    Phi(z0 + (z0 + z_alpha) / (1 - a (z0 + z_alpha))), so it never leaves their range."""
    boot = boot[np.isfinite(boot)]
    if len(boot) == 0 or np.ptp(boot) == 0:
        return theta, theta
    b = len(boot)
    share = (np.count_nonzero(boot < theta) + 0.5 * np.count_nonzero(boot == theta)) / b
    z0 = _N.inv_cdf(min(max(share, 0.5 / b), 1 - 0.5 / b))
    num = den = 0.0
    for j in jack:
        j = j[np.isfinite(j)]
        if len(j) < 2:
            continue
        u = j.mean() - j
        if len(jack) > 1:
            u = u / len(j)
        num += float((u**3).sum())
        den += float((u**2).sum())
    a = num / (6 * den**1.5) if den > 0 else 0.0
    ends = []
    for alpha in _alphas(level):
        z = z0 + _N.inv_cdf(alpha)
        ends.append(_N.cdf(z0 + z / (1 - a * z)))
    lo, hi = np.quantile(boot, ends)
    return float(lo), float(hi)


def _floored(lo: float, hi: float, floor: float | None) -> tuple[float, float]:
    if floor is None:
        return lo, hi
    return max(lo, floor), max(hi, floor)


def mean_interval(
    x: Sample,
    kind: str = "t",
    level: float = 0.95,
    *,
    floor: float | None = None,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """The mean of ``x`` with an interval: ``kind="t"`` Student t, ``"bootstrap"`` percentile
    bootstrap, ``"bca"`` BCa bootstrap (Efron 1987). ``floor`` clips the interval to a known
    lower bound of the quantity (0 for throughputs and counts), which keeps its coverage."""
    a = np.asarray(x, dtype=float)
    n = len(a)
    if n == 0:
        raise ValueError("no values")
    m = float(a.mean())
    if n < 2:
        return Estimate(m, math.nan, math.nan, n, kind, level)
    if kind == "t":
        from scipy import stats

        half = float(stats.t.ppf(_alphas(level)[1], n - 1)) * float(a.std(ddof=1)) / math.sqrt(n)
        lo, hi = _floored(m - half, m + half, floor)
        return Estimate(
            m, lo, hi, n, "Student t" + (f", floor {floor:g}" if floor is not None else ""), level
        )
    if kind not in ("bootstrap", "bca"):
        raise ValueError(f"kind must be 't', 'bootstrap' or 'bca', got {kind!r}")
    boot = a[_rng(seed, a).integers(0, n, size=(resamples, n))].mean(axis=1)
    if kind == "bootstrap":
        lo, hi = _percentile(boot, level)
        method = "percentile bootstrap"
    else:
        jack = (a.sum() - a) / (n - 1)
        lo, hi = _bca(m, boot, [jack], level)
        method = "BCa bootstrap"
    lo, hi = _floored(lo, hi, floor)
    return Estimate(m, lo, hi, n, method, level)


def _pairs(
    a: Mapping[int, float] | Sample, b: Mapping[int, float] | Sample
) -> tuple[np.ndarray, np.ndarray]:
    """Two paired samples as arrays: mappings are paired by key (the replications both have),
    sequences by position (then they must be as long)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        keys = sorted(set(a) & set(b))
        return np.array([a[k] for k in keys], float), np.array([b[k] for k in keys], float)
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        raise TypeError("pair two mappings (by replication) or two sequences (by position)")
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length: {len(x)} and {len(y)}")
    return x, y


def paired_difference(
    a: Mapping[int, float] | Sample,
    b: Mapping[int, float] | Sample,
    kind: str = "bca",
    level: float = 0.95,
    *,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """mean(a - b) over runs paired by seed, the interval resampling pairs (``kind`` as in
    :func:`mean_interval`)."""
    x, y = _pairs(a, b)
    e = mean_interval(x - y, kind, level, resamples=resamples, seed=seed)
    return Estimate(e.point, e.low, e.high, e.n, f"paired {e.method}", level)


def paired_ratio(
    a: Mapping[int, float] | Sample,
    b: Mapping[int, float] | Sample,
    level: float = 0.95,
    *,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """The relative change mean(a) / mean(b) - 1 (0.8 is "+80 %") over runs paired by seed,
    with a BCa interval that resamples pairs (never below -1 for non-negative data)."""
    x, y = _pairs(a, b)
    n = len(x)
    if n == 0:
        raise ValueError("no pairs")
    with np.errstate(divide="ignore", invalid="ignore"):
        point = float(x.mean() / y.mean() - 1)
        if n < 2:
            return Estimate(point, math.nan, math.nan, n, "paired ratio", level)
        idx = _rng(seed, x, y).integers(0, n, size=(resamples, n))
        boot = x[idx].mean(axis=1) / y[idx].mean(axis=1) - 1
        jack = (x.sum() - x) / (y.sum() - y) - 1
    lo, hi = _bca(point, boot, [jack], level)
    return Estimate(point, lo, hi, n, "paired BCa bootstrap, ratio of means", level)


def _two_sample(
    a: Sample,
    b: Sample,
    stat: str,
    level: float,
    resamples: int,
    seed: int | None,
) -> Estimate:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) == 0 or len(y) == 0:
        raise ValueError("no values")

    def f(mx: np.ndarray | float, my: np.ndarray | float) -> np.ndarray | float:
        return mx - my if stat == "difference" else mx / my - 1

    n = min(len(x), len(y))
    with np.errstate(divide="ignore", invalid="ignore"):
        point = float(f(x.mean(), y.mean()))
        if n < 2:
            return Estimate(point, math.nan, math.nan, n, stat, level)
        rng = _rng(seed, x, y)
        bx = x[rng.integers(0, len(x), size=(resamples, len(x)))].mean(axis=1)
        by = y[rng.integers(0, len(y), size=(resamples, len(y)))].mean(axis=1)
        boot = np.asarray(f(bx, by))
        jx = np.asarray(f((x.sum() - x) / (len(x) - 1), y.mean()))
        jy = np.asarray(f(x.mean(), (y.sum() - y) / (len(y) - 1)))
    lo, hi = _bca(point, boot, [jx, jy], level)
    return Estimate(point, lo, hi, n, f"BCa bootstrap, {stat} of independent means", level)


def mean_difference(
    a: Sample,
    b: Sample,
    level: float = 0.95,
    *,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """mean(a) - mean(b) of independent samples, BCa interval (each sample resampled on its
    own); ``n`` is the smaller sample's size."""
    return _two_sample(a, b, "difference", level, resamples, seed)


def ratio_of_means(
    a: Sample,
    b: Sample,
    level: float = 0.95,
    *,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """The relative change mean(a) / mean(b) - 1 of independent samples, BCa interval (each
    sample resampled on its own); never below -1 for non-negative data."""
    return _two_sample(a, b, "ratio", level, resamples, seed)


def _variants(
    samples_by_variant: Mapping[str, Samples], paired: bool
) -> tuple[list[str], list[np.ndarray]]:
    names = list(samples_by_variant)
    if len(names) < 2:
        raise ValueError("need at least two variants")
    arrays = [np.asarray(samples_by_variant[k], dtype=float) for k in names]
    if any(len(a) == 0 for a in arrays):
        raise ValueError("a variant has no values")
    if paired and len({len(a) for a in arrays}) != 1:
        raise ValueError("paired variants must have the same replications")
    return names, arrays


def wilson_interval(
    k: np.ndarray, n: np.ndarray, z: float = 1.959964
) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of proportions ``k / n`` (arrays; ``z`` 1.96 for 95 %),
    clipped to [0, 1] and never past the proportion itself (rounding would put an end a hair
    beyond it at k = 0 or k = n)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.minimum(np.clip(centre - half, 0.0, None), p), np.maximum(
        np.clip(centre + half, None, 1.0), p
    )


def _boot_means(
    arrays: list[np.ndarray], paired: bool, resamples: int, seed: int | None
) -> np.ndarray:
    """Resampled means, shape (resamples, variants): paired variants share the resampled
    replications, independent ones are resampled each on its own."""
    rng = _rng(seed, *arrays)
    if paired:
        n = len(arrays[0])
        idx = rng.integers(0, n, size=(resamples, n))
        return np.stack([a[idx].mean(axis=1) for a in arrays], axis=1)
    return np.stack(
        [a[rng.integers(0, len(a), size=(resamples, len(a)))].mean(axis=1) for a in arrays],
        axis=1,
    )


def best_of_k(
    samples_by_variant: Mapping[str, Samples],
    level: float = 0.95,
    *,
    paired: bool = False,
    floor: float | None = None,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """The mean of the best of k variants (the highest mean), corrected for the selection.

    The naive max of the sample means is biased up (the winner's curse: with k equal means it
    picks whichever drew high). The bootstrap re-selects the best in every resample, so the
    replicates' excess over the naive max estimates that bias, and the corrected estimate is
    2 max - mean(max*), the excess counted as 0 if resampling noise makes it negative (bootstrap bias correction, Efron & Tibshirani 1993 §10.6; the same
    correction applied to a best-of-k selection by Tibshirani & Tibshirani 2009, "A bias
    correction for the minimum error rate in cross-validation", Ann. Appl. Stat. 3(2):822-829).
    The interval is the basic bootstrap interval [2 max - q_hi, 2 max - q_lo] (Davison & Hinkley
    1997 §5.2), centred where the correction puts the estimate; ``floor`` clips it.

    The correction is partial when the best means tie (the bootstrap of a max is not consistent
    there: Hall & Miller 2010, "Bootstrap confidence intervals and hypothesis tests for extrema
    of parameters", Biometrika 97(4):881-892): it shrinks the naive max toward the truth
    without reaching it. ``paired``: the variants were run on the same seeds (resampled
    together). ``detail`` names the variant with the highest sample mean and the naive max."""
    names, arrays = _variants(samples_by_variant, paired)
    means = np.array([a.mean() for a in arrays])
    naive = float(means.max())
    n = min(len(a) for a in arrays)
    detail = f"best: {names[int(means.argmax())]}, naive max {naive:.6g}"
    if n < 2:
        return Estimate(naive, math.nan, math.nan, n, "best of k, uncorrected", level, detail)
    boot = _boot_means(arrays, paired, resamples, seed).max(axis=1)
    # The selection bias is never negative (E max >= max E), so a resampling shortfall is 0.
    corrected = naive - max(0.0, float(boot.mean()) - naive)
    q_lo, q_hi = _percentile(boot, level)
    lo, hi = _floored(2 * naive - q_hi, 2 * naive - q_lo, floor)
    if floor is not None:
        corrected = max(corrected, floor)
    method = f"best of {len(names)}, bootstrap bias-corrected, basic interval"
    return Estimate(corrected, lo, hi, n, method, level, detail)


def winner_margin(
    samples_by_variant: Mapping[str, Samples],
    winner: str,
    level: float = 0.95,
    *,
    paired: bool = False,
    resamples: int = RESAMPLES,
    seed: int | None = None,
) -> Estimate:
    """The margin of ``winner`` over its best rival, mean(winner) - max of the others' means,
    with a percentile interval from a bootstrap over replications that re-selects the best
    rival in each resample (``paired``: the variants share seeds and are resampled together).
    Positive: ``winner`` wins. ``detail`` gives the bootstrap probability that ``winner`` is
    the best and names the variant with the highest sample mean."""
    if winner not in samples_by_variant:
        raise KeyError(f"{winner!r} is not among {sorted(samples_by_variant)}")
    names, arrays = _variants(samples_by_variant, paired)
    w = names.index(winner)
    means = np.array([a.mean() for a in arrays])
    others = np.delete(means, w)
    point = float(means[w] - others.max())
    n = min(len(a) for a in arrays)
    best = names[int(means.argmax())]
    if n < 2:
        return Estimate(point, math.nan, math.nan, n, "winner margin", level, f"best: {best}")
    boot = _boot_means(arrays, paired, resamples, seed)
    margin = boot[:, w] - np.delete(boot, w, axis=1).max(axis=1)
    prob = float(np.mean(margin > 0))
    lo, hi = _percentile(margin, level)
    detail = f"P({winner} best) = {prob:.3f}, best: {best}"
    method = "winner margin, " + ("paired " if paired else "") + "percentile bootstrap"
    return Estimate(point, lo, hi, n, method, level, detail)


# ---------------------------------------------------------------------------------------------
# Verdicts


@dataclass(frozen=True)
class Verdict:
    """The verdict's ``word`` (:data:`AGREES`, :data:`AGREES_IN_DIRECTION`, :data:`DIFFERS`,
    :data:`INCONCLUSIVE`), the estimate that decided it, a one-line ``reason``, for an
    inconclusive one the replications that would decide it (``needed``; None: no number would,
    or there is no interval to scale), and, for a comparison with a sign, the sign's own verdict
    (``direction``: "agrees in direction", "differs in direction" or "direction inconclusive")."""

    word: str
    estimate: Estimate
    reason: str
    needed: int | None = None
    direction: str | None = None


def replications_to_decide(est: Estimate, boundaries: Sequence[float]) -> int | None:
    """The replications after which ``est``'s interval would exclude every boundary in it.

    The approximation: the point stays where it is and each side of the interval shrinks as
    1/sqrt(n), so a boundary at distance d from the point, inside a side of length h, leaves
    the interval once n' > n (h / d)^2; the answer is the largest such n' (rounded up, and at
    least n + 1). It ignores that the t quantile falls as n grows (at n = 2 it is 12.7, at
    n = 30 2.05), so at small n it over-estimates; it is a guide to the order of magnitude.
    None when there is no interval or the point sits on a boundary (no n decides it)."""
    if not est.has_interval or not (math.isfinite(est.low) and math.isfinite(est.high)):
        return None  # an unbounded side shrinks to no finite width
    need = est.n
    for x in boundaries:
        if not est.low <= x <= est.high:
            continue
        d = abs(x - est.point)
        h = (est.high - est.point) if x >= est.point else (est.point - est.low)
        if d == 0:
            return None
        need = max(need, est.n + 1, math.ceil(est.n * (h / d) ** 2))
    return need


# Above this many replications a verdict says "more than" instead of a number: the estimate
# (the point fixed, the interval shrinking as 1/sqrt(n)) means nothing that far out.
MANY_REPLICATIONS = 10_000


def _iv(est: Estimate, digits: int = 4) -> str:
    return f"[{est.low:.{digits}g}, {est.high:.{digits}g}]"


def _no_interval(est: Estimate) -> Verdict:
    return Verdict(INCONCLUSIVE, est, f"no interval at n = {est.n}: run at least 2 replications")


def _undecided(est: Estimate, boundaries: Sequence[float], what: str) -> Verdict:
    need = replications_to_decide(est, boundaries)
    if need is None:
        tail = "; the point sits on the boundary"
    elif need > MANY_REPLICATIONS:
        tail = (
            f"; more than {MANY_REPLICATIONS:,} replications would be needed (the point sits "
            "next to the boundary: no practical run decides it)"
        )
    else:
        tail = f"; about {need} replications would decide it"
    return Verdict(INCONCLUSIVE, est, f"the interval {_iv(est)} spans {what}{tail}", need)


@dataclass(frozen=True)
class Direction:
    """The paper says the quantity is above ``neutral`` (``sign`` +1, e.g. "A beats B" for a
    difference A - B, or a relative change above 0) or below it (``sign`` -1). Agrees when the
    whole interval is on the paper's side, differs when it is all on the other side (a
    boundary point counts as spanning)."""

    sign: int
    neutral: float = 0.0

    def __post_init__(self) -> None:
        if self.sign not in (1, -1):
            raise ValueError(f"sign must be +1 or -1, got {self.sign}")

    def verdict(self, est: Estimate) -> Verdict:
        if not est.has_interval:
            return _no_interval(est)
        side = "above" if self.sign > 0 else "below"
        lo, hi = (est.low, est.high) if self.sign > 0 else (-est.high, -est.low)
        c = self.neutral * self.sign
        if lo > c:
            return Verdict(AGREES, est, f"the interval {_iv(est)} lies {side} {self.neutral:g}")
        if hi < c:
            other = "below" if self.sign > 0 else "above"
            return Verdict(DIFFERS, est, f"the interval {_iv(est)} lies {other} {self.neutral:g}")
        return _undecided(est, [self.neutral], f"{self.neutral:g}")


_DIRECTION_WORD = {
    AGREES: "agrees in direction",
    DIFFERS: "differs in direction",
    INCONCLUSIVE: "direction inconclusive",
}


@dataclass(frozen=True)
class Within:
    """The paper's value ``value`` within ``tolerance`` (absolute, or a fraction of ``value``
    when ``relative``): the band [value - tol, value + tol]. Agrees when the whole interval is
    inside the band, differs when it lies wholly outside it, inconclusive when it crosses an
    edge. With ``neutral`` (0 for a difference or a relative change, 1 for a ratio) the
    paper's value has a sign, judged on its own in ``direction``; an interval wholly outside
    the band but wholly on the paper's side is "agrees in direction"."""

    value: float
    tolerance: float
    relative: bool = False
    neutral: float | None = None

    @property
    def band(self) -> tuple[float, float]:
        tol = self.tolerance * abs(self.value) if self.relative else self.tolerance
        return self.value - tol, self.value + tol

    def verdict(self, est: Estimate) -> Verdict:
        if not est.has_interval:
            return _no_interval(est)
        a, b = self.band
        band = f"the band [{a:.4g}, {b:.4g}]"
        direction = None
        if self.neutral is not None and self.value != self.neutral:
            sign = 1 if self.value > self.neutral else -1
            direction = _DIRECTION_WORD[Direction(sign, self.neutral).verdict(est).word]
        if a <= est.low and est.high <= b:
            v = Verdict(AGREES, est, f"the interval {_iv(est)} lies inside {band}")
        elif est.high < a or est.low > b:
            if direction == "agrees in direction":
                why = f"the interval {_iv(est)} lies outside {band} on the paper's side of {self.neutral:g}"
                v = Verdict(AGREES_IN_DIRECTION, est, why)
            else:
                v = Verdict(DIFFERS, est, f"the interval {_iv(est)} lies outside {band}")
        else:
            v = _undecided(est, [a, b], f"an edge of {band}")
        if direction is None:
            return v
        return Verdict(v.word, v.estimate, f"{v.reason} ({direction})", v.needed, direction)


@dataclass(frozen=True)
class Ordering:
    """The paper says ``winner`` is the best of ``among`` (the highest mean; ``higher=False``:
    the lowest, e.g. delay). Judged on the margin of the winner over its best rival
    (:func:`winner_margin`; for lowest-wins pass the negated samples) by the
    :class:`Direction` rule: agrees when the margin's interval is above 0, i.e. the bootstrap
    probability that ``winner`` is the best is at least (1 + level) / 2 (0.975 at 95 %), differs
    when it is below 0 (another variant wins), inconclusive otherwise."""

    winner: str
    among: tuple[str, ...]
    higher: bool = True

    def margin(
        self,
        samples_by_variant: Mapping[str, Samples],
        level: float = 0.95,
        *,
        paired: bool = False,
        resamples: int = RESAMPLES,
        seed: int | None = None,
    ) -> Estimate:
        """The margin estimate from each variant's replications (only the ``among`` ones)."""
        s = 1.0 if self.higher else -1.0
        samples = {k: s * np.asarray(samples_by_variant[k], float) for k in self.among}
        return winner_margin(
            samples, self.winner, level, paired=paired, resamples=resamples, seed=seed
        )

    def verdict(self, est: Estimate) -> Verdict:
        what = "best" if self.higher else "lowest"
        lead = f"{self.winner} {what} of {', '.join(self.among)}"
        note = f" ({est.detail})" if est.detail else ""
        if not est.has_interval:
            return _no_interval(est)
        if est.low > 0:
            return Verdict(
                AGREES, est, f"{lead}: its margin's interval {_iv(est)} is above 0{note}"
            )
        if est.high < 0:
            return Verdict(
                DIFFERS, est, f"{lead}: its margin's interval {_iv(est)} is below 0{note}"
            )
        v = _undecided(est, [0.0], "a margin of 0")
        return Verdict(INCONCLUSIVE, est, f"{lead}: {v.reason}{note}", v.needed)


def _step(a: Estimate, b: Estimate) -> Estimate:
    """b - a for independent estimates: each side of the interval combines the two estimates'
    facing sides in quadrature (the normal approximation of a difference)."""
    d = b.point - a.point
    if not (a.has_interval and b.has_interval):
        return Estimate(d, math.nan, math.nan, min(a.n, b.n), "difference", a.level)
    down = math.hypot(b.point - b.low, a.high - a.point)
    up = math.hypot(b.high - b.point, a.point - a.low)
    return Estimate(d, d - down, d + up, min(a.n, b.n), "difference, quadrature", a.level)


def _combine(verdicts: list[tuple[str, Verdict]], all_agree: str) -> Verdict:
    """All agree: agrees; any differs: differs (that one is reported); otherwise inconclusive
    with the most replications any undecided part needs."""
    for name, v in verdicts:
        if v.word == DIFFERS:
            return Verdict(DIFFERS, v.estimate, f"{name}: {v.reason}")
    open_ = [(name, v) for name, v in verdicts if v.word != AGREES]
    if not open_:
        return Verdict(AGREES, verdicts[0][1].estimate, all_agree)
    needs = [v.needed for _, v in open_]
    need = None if any(n is None for n in needs) else max(n for n in needs if n is not None)
    name, v = max(open_, key=lambda nv: nv[1].needed or math.inf)
    return Verdict(INCONCLUSIVE, v.estimate, f"{name}: {v.reason}", need)


def family_level(k: int, level: float = 0.95) -> float:
    """The level of each of ``k`` intervals of one claim over k conditions, so that the family
    holds at ``level`` (Bonferroni): 1 - (1 - level) / k."""
    return 1 - (1 - level) / max(1, k)


def combine(parts: Sequence[tuple[str, Verdict]], what: str = "the conditions") -> Verdict:
    """The one declared combination of a claim over several conditions (every CC, every
    speed, every configuration): agrees when every part agrees; differs when any part differs
    (that one is named); agrees in direction when every part agrees at least in direction;
    inconclusive otherwise, with the most replications an undecided part needs. Judge each
    part at :func:`family_level` for the combination to hold at the claim's level."""
    if not parts:
        raise ValueError(f"{what}: no condition to judge")
    words = (AGREES, AGREES_IN_DIRECTION, DIFFERS, INCONCLUSIVE)
    counts = {w: sum(v.word == w for _, v in parts) for w in words}
    tally = ", ".join(f"{counts[w]} {w}" for w in words if counts[w])
    head = f"{what} ({len(parts)} conditions: {tally})"
    for name, v in parts:
        if v.word == DIFFERS:
            return Verdict(DIFFERS, v.estimate, f"{head}; {name}: {v.reason}")
    if counts[AGREES] == len(parts):
        return Verdict(AGREES, parts[0][1].estimate, head)
    if counts[AGREES] + counts[AGREES_IN_DIRECTION] == len(parts):
        v = next(v for _, v in parts if v.word == AGREES_IN_DIRECTION)
        return Verdict(AGREES_IN_DIRECTION, v.estimate, head)
    undecided = [(n, v) for n, v in parts if v.word == INCONCLUSIVE]
    needs = [v.needed for _, v in undecided]
    need = None if any(x is None for x in needs) else max(x for x in needs if x is not None)
    name, v = max(undecided, key=lambda nv: nv[1].needed or math.inf)
    return Verdict(INCONCLUSIVE, v.estimate, f"{head}; least decided, {name}: {v.reason}", need)


@dataclass(frozen=True)
class FlatPast:
    """A curve flat past ``x``: every point at x' > ``x`` is within ``tolerance`` of the point
    at ``x`` (absolute, or a fraction of that point's estimate when ``relative``). Each step
    y(x') - y(x) is a :class:`Within` (0 +/- tolerance) on the difference of the two estimates
    (independent runs: the interval of each difference combines theirs in quadrature). Agrees
    when every step agrees, differs when any step differs, inconclusive otherwise (the
    replications the least decided step needs). ``curve`` maps x to the estimate of y there."""

    x: float
    tolerance: float
    relative: bool = True

    def verdict(self, curve: Mapping[float, Estimate]) -> Verdict:
        if self.x not in curve:
            raise KeyError(f"the curve has no point at x = {self.x}")
        ref = curve[self.x]
        past = sorted(k for k in curve if k > self.x)
        if not past:
            raise ValueError(f"the curve has no point past x = {self.x}")
        tol = self.tolerance * abs(ref.point) if self.relative else self.tolerance
        within = Within(0.0, tol)
        steps = [(f"x = {k:g}", within.verdict(_step(ref, curve[k]))) for k in past]
        return _combine(steps, f"every point past x = {self.x:g} is within {tol:.4g} of it")


@dataclass(frozen=True)
class PeakWithin:
    """A curve whose maximum lies at some x in [``a``, ``b``]. Agrees when the inside point
    with the highest estimate is above every outside point (each difference's interval above
    0); differs when the outside point with the highest estimate is above every inside point;
    inconclusive otherwise, with the replications the side the estimates favour needs. The
    differences combine independent estimates in quadrature, as in :class:`FlatPast`."""

    a: float
    b: float

    def verdict(self, curve: Mapping[float, Estimate]) -> Verdict:
        inside = [k for k in curve if self.a <= k <= self.b]
        outside = [k for k in curve if not self.a <= k <= self.b]
        if not inside or not outside:
            raise ValueError(f"the curve needs points inside and outside [{self.a}, {self.b}]")
        top_in = max(inside, key=lambda k: curve[k].point)
        top_out = max(outside, key=lambda k: curve[k].point)
        up = Direction(1)
        wins = [
            (f"x = {top_in:g} over x = {k:g}", up.verdict(_step(curve[k], curve[top_in])))
            for k in outside
        ]
        loses = [
            (f"x = {top_out:g} over x = {k:g}", up.verdict(_step(curve[k], curve[top_out])))
            for k in inside
        ]
        peak = f"the peak lies in [{self.a:g}, {self.b:g}]"
        if all(v.word == AGREES for _, v in wins):
            return _combine(wins, f"{peak}: x = {top_in:g} is above every point outside")
        if all(v.word == AGREES for _, v in loses):
            return Verdict(
                DIFFERS,
                loses[0][1].estimate,
                f"x = {top_out:g}, outside [{self.a:g}, {self.b:g}], is above every point inside",
            )
        favoured = wins if curve[top_in].point >= curve[top_out].point else loses
        v = _combine(favoured, "")
        return Verdict(INCONCLUSIVE, v.estimate, v.reason, v.needed)


Comparison = Within | Direction | Ordering | FlatPast | PeakWithin


# ---------------------------------------------------------------------------------------------
# Claims


@dataclass(frozen=True)
class Where:
    """Where the claim is in the paper: section, figure or table, and the sentence quoted."""

    section: str
    figure: str = ""
    quote: str = ""


@dataclass(frozen=True)
class Quantity:
    """What is measured, in words, and its unit (``""`` for a ratio or a count)."""

    text: str
    unit: str = ""


@dataclass(frozen=True)
class Claim:
    """One claim of a paper as data: ``id``, ``where`` it is, the ``quantity``, the ``paper``'s
    value or shape in its own words ("+80 %", "flat past 6 retries") and the declared
    ``comparison`` that decides the verdict."""

    id: str
    where: Where
    quantity: Quantity
    paper: str
    comparison: Comparison

    def judge(
        self, measured: Estimate | Mapping[int, Estimate] | Mapping[float, Estimate]
    ) -> Verdict:
        """The verdict on ``measured``: an estimate, or for a shape a curve (x -> estimate)."""
        return self.comparison.verdict(measured)  # type: ignore[arg-type]

    def row(self, verdict: Verdict, airtcp: str, why: str = "", runs: Sequence[str] = ()) -> Row:
        """The report's table row (``reproduce.common.Claim``): ``airtcp`` is the measurement as
        printed; ``why`` defaults to the verdict's reason, with the replications that would
        decide an inconclusive one; ``runs``: the sweeps the measurement uses (by name)."""
        from airtcp.reproduce.common import Claim as Row

        return Row(
            self.where.section,
            self.quantity.text,
            self.paper,
            airtcp,
            verdict.word,
            why or verdict.reason,
            tuple(runs),
        )
