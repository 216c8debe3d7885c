"""reproduce.claims: the one verdict rule on hand-built estimates for every comparison, the
issue's two examples, bootstrap intervals of non-negative data never below 0, coverage of the
t interval, pairing, and the best-of-k selection correction."""

from __future__ import annotations

import math

import numpy as np
import pytest

from airtcp.reproduce.claims import (
    AGREES,
    AGREES_IN_DIRECTION,
    DIFFERS,
    INCONCLUSIVE,
    Claim,
    Direction,
    Estimate,
    FlatPast,
    Ordering,
    PeakWithin,
    Quantity,
    Where,
    Within,
    best_of_k,
    mean_difference,
    mean_interval,
    paired_difference,
    paired_ratio,
    ratio_of_means,
    replications_to_decide,
    wilson_interval,
)


def est(point: float, low: float, high: float, n: int = 5) -> Estimate:
    return Estimate(point, low, high, n, "hand-built")


# ---------------------------------------------------------------------------------------------
# The two examples


def test_rtt_interval_spanning_the_band_is_inconclusive_with_a_replication_count():
    # A 95 % interval of [-758, 1963] ms at n = 2 against the paper's ~1000 ms (+/- 30 %).
    v = Within(1000, 0.3, relative=True).verdict(est(602.5, -758, 1963, n=2))
    assert v.word == INCONCLUSIVE
    # The nearest edge (700 ms) is 97.5 ms from the point, inside a 1360.5 ms side.
    assert v.needed == math.ceil(2 * (1360.5 / 97.5) ** 2)
    assert "replications" in v.reason
    assert v.direction is None


def test_plus_64_percent_against_plus_80_is_inconclusive_but_agrees_in_direction():
    # +64 % [+22, +123] against the paper's +80 % within +/- 20 points.
    v = Within(0.80, 0.20, neutral=0.0).verdict(est(0.64, 0.22, 1.23))
    assert v.word == INCONCLUSIVE
    assert v.direction == "agrees in direction"
    assert v.needed is not None and v.needed > 5


# ---------------------------------------------------------------------------------------------
# Within


@pytest.mark.parametrize(
    ("interval", "word"),
    [
        ((0.75, 0.65, 0.95), AGREES),
        ((0.30, 0.20, 0.40), AGREES_IN_DIRECTION),
        ((-0.30, -0.40, -0.20), DIFFERS),
        ((1.50, 1.20, 1.80), AGREES_IN_DIRECTION),
        ((0.55, 0.50, 0.70), INCONCLUSIVE),
    ],
)
def test_within_with_a_sign(interval, word):
    v = Within(0.80, 0.20, neutral=0.0).verdict(est(*interval))
    assert v.word == word, v.reason
    assert (v.needed is not None) == (word == INCONCLUSIVE)


def test_within_without_a_sign_differs_outside_the_band():
    w = Within(1000, 100)
    assert w.verdict(est(950, 920, 980)).word == AGREES
    assert w.verdict(est(500, 400, 600)).word == DIFFERS
    assert w.verdict(est(500, 400, 600)).direction is None


def test_within_relative_band_and_a_point_estimate_never_decides():
    w = Within(2.0, 0.1, relative=True)
    assert w.band == pytest.approx((1.8, 2.2))
    # The point sits on the paper's value, but the interval is wide: inconclusive.
    assert w.verdict(est(2.0, 0.5, 3.5)).word == INCONCLUSIVE
    # No interval at n = 1: inconclusive, whatever the point.
    v = w.verdict(Estimate(2.0, math.nan, math.nan, 1, "one run"))
    assert v.word == INCONCLUSIVE and v.needed is None


# ---------------------------------------------------------------------------------------------
# Direction


def test_direction():
    up = Direction(1)
    assert up.verdict(est(3, 1, 5)).word == AGREES
    assert up.verdict(est(-3, -5, -1)).word == DIFFERS
    v = up.verdict(est(1, -1, 5, n=4))
    assert v.word == INCONCLUSIVE
    assert v.needed == math.ceil(4 * (2 / 1) ** 2)
    down = Direction(-1, neutral=1.0)  # a ratio below 1
    assert down.verdict(est(0.5, 0.4, 0.6)).word == AGREES
    assert down.verdict(est(1.5, 1.4, 1.6)).word == DIFFERS
    # An interval touching the neutral value does not decide.
    assert up.verdict(est(2, 0, 4)).word == INCONCLUSIVE
    with pytest.raises(ValueError):
        Direction(0)


def test_replications_to_decide():
    # Point on the boundary: no number of replications decides it.
    assert replications_to_decide(est(0, -1, 1), [0.0]) is None
    # Boundaries outside the interval: decided already.
    assert replications_to_decide(est(5, 4, 6, n=3), [0.0, 10.0]) == 3
    # The side facing the boundary counts (asymmetric interval).
    assert replications_to_decide(est(1, 0.5, 5, n=10), [3.0]) == math.ceil(10 * (4 / 2) ** 2)


# ---------------------------------------------------------------------------------------------
# Ordering


def test_ordering_names_the_winner():
    runs = {
        "tahoe": [10, 11, 12, 10.5, 11.5],
        "reno": [6, 7, 6.5, 7.5, 6],
        "newreno": [8, 9, 8.5, 9.5, 8],
    }
    among = ("tahoe", "reno", "newreno")
    o = Ordering("tahoe", among)
    v = o.verdict(o.margin(runs))
    assert v.word == AGREES, v.reason
    assert "P(tahoe best) = 1.000" in v.reason
    o = Ordering("reno", among)
    v = o.verdict(o.margin(runs))
    assert v.word == DIFFERS
    assert "best: tahoe" in v.reason
    # Lowest wins (a delay): reno has the lowest mean.
    assert (
        Ordering("reno", among, higher=False)
        .verdict(Ordering("reno", among, higher=False).margin(runs))
        .word
        == AGREES
    )
    # Overlapping variants: inconclusive, with a count.
    close = {"a": [10, 12, 9, 11], "b": [10.5, 11, 9.5, 10]}
    o = Ordering("a", ("a", "b"))
    v = o.verdict(o.margin(close))
    assert v.word == INCONCLUSIVE
    assert v.needed is None or v.needed > 4


def test_ordering_margin_uses_the_pairing():
    rng = np.random.default_rng(3)
    seed_effect = rng.normal(0, 5, 8)
    runs = {"a": 20 + seed_effect + 0.5, "b": 20 + seed_effect + rng.normal(0, 0.1, 8)}
    o = Ordering("a", ("a", "b"))
    assert o.verdict(o.margin(runs)).word == INCONCLUSIVE
    assert o.verdict(o.margin(runs, paired=True)).word == AGREES


# ---------------------------------------------------------------------------------------------
# Shapes


def test_flat_past():
    flat = {
        1.0: est(5, 4, 6),
        2.0: est(9, 8.8, 9.2),
        4.0: est(9.1, 8.9, 9.3),
        8.0: est(9, 8.8, 9.2),
    }
    assert FlatPast(2.0, 0.10).verdict(flat).word == AGREES
    rising = {**flat, 8.0: est(14, 13.8, 14.2)}
    v = FlatPast(2.0, 0.10).verdict(rising)
    assert v.word == DIFFERS and "x = 8" in v.reason
    noisy = {**flat, 8.0: est(9, 6, 12)}
    v = FlatPast(2.0, 0.10).verdict(noisy)
    assert v.word == INCONCLUSIVE and v.needed is not None
    with pytest.raises(KeyError):
        FlatPast(3.0, 0.1).verdict(flat)


def test_peak_within():
    curve = {
        1.0: est(5, 4.5, 5.5),
        2.0: est(8, 7.5, 8.5),
        3.0: est(10, 9.5, 10.5),
        4.0: est(7, 6.5, 7.5),
    }
    assert PeakWithin(2.5, 3.5).verdict(curve).word == AGREES
    v = PeakWithin(0.5, 1.5).verdict(curve)
    assert v.word == DIFFERS and "x = 3" in v.reason
    close = {**curve, 4.0: est(9.8, 9.0, 10.6)}
    v = PeakWithin(2.5, 3.5).verdict(close)
    assert v.word == INCONCLUSIVE and v.needed is not None


# ---------------------------------------------------------------------------------------------
# Estimators


@pytest.mark.parametrize("kind", ["bootstrap", "bca"])
@pytest.mark.parametrize(
    "data",
    [
        [0, 5],
        [0, 0],
        [0, 0, 5],
        [0, 5, 0.1],
        [0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 40],
        list(np.round(np.random.default_rng(7).exponential(3, 10), 3)),
    ],
)
def test_bootstrap_intervals_of_non_negative_data_stay_non_negative(kind, data):
    e = mean_interval(data, kind)
    assert 0 <= e.low <= e.point <= e.high
    t = mean_interval(data, "t")
    if np.ptp(data) > 0 and len(data) <= 3:
        assert t.low < 0  # the Student interval the issue complains about
    assert mean_interval(data, "t", floor=0).low >= 0


def test_ratios_of_non_negative_data_stay_above_minus_one():
    a, b = [0, 5, 1], [2, 0.5, 3]
    for e in (paired_ratio(a, b), ratio_of_means(a, b)):
        assert -1 <= e.low <= e.point <= e.high


def test_resampling_is_deterministic():
    x = [1.0, 4.0, 2.5, 8.0, 3.3, 0.7, 5.1, 2.2]
    assert mean_interval(x, "bca") == mean_interval(x, "bca")
    assert mean_interval(x, "bca", seed=1) != mean_interval(x, "bca", seed=2)


def test_t_interval_covers_the_mean_about_95_percent_of_the_time():
    rng = np.random.default_rng(2024)
    trials = 400
    hits = sum(
        (lambda e: e.low <= 10 <= e.high)(mean_interval(rng.normal(10, 2, 5), "t"))
        for _ in range(trials)
    )
    sd = math.sqrt(0.95 * 0.05 / trials)
    assert abs(hits / trials - 0.95) <= 3 * sd


def test_bca_coverage_on_skewed_data_at_n_20():
    rng = np.random.default_rng(11)
    trials = 200
    hits = sum(
        (lambda e: e.low <= 1 <= e.high)(
            mean_interval(rng.exponential(1, 20), "bca", resamples=1000)
        )
        for _ in range(trials)
    )
    # Known to undercover somewhat on skewed data at n = 20 (about 0.92).
    assert 0.85 <= hits / trials <= 0.99


def test_pairing_narrows_the_interval():
    rng = np.random.default_rng(5)
    seed_effect = rng.normal(100, 30, 10)  # what the seeds share (e.g. their channel)
    a = seed_effect + 5 + rng.normal(0, 1, 10)
    b = seed_effect + rng.normal(0, 1, 10)
    paired = paired_difference(a, b)
    unpaired = mean_difference(a, b)
    assert paired.low > 0  # the pairing sees the 5
    assert unpaired.low < 0 < unpaired.high
    assert (paired.high - paired.low) * 10 < unpaired.high - unpaired.low
    r = paired_ratio(a, b)
    r_unpaired = ratio_of_means(a, b)
    assert r.low > 0
    assert (r.high - r.low) * 5 < r_unpaired.high - r_unpaired.low
    # Mappings pair by replication.
    by_rep = paired_difference(dict(enumerate(a)), dict(enumerate(b)))
    assert by_rep == paired_difference(a, b)
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1, 2, 3])


def test_best_of_k_shrinks_the_naive_max_toward_the_truth():
    naive, corrected = [], []
    for s in range(40):
        rng = np.random.default_rng(s)
        runs = {f"v{i}": rng.normal(10, 2, 5) for i in range(5)}  # k = 5 equal means
        e = best_of_k(runs, resamples=1000)
        naive.append(max(float(np.mean(v)) for v in runs.values()))
        corrected.append(e.point)
        assert e.point <= naive[-1]
    bias_naive, bias_corrected = np.mean(naive) - 10, np.mean(corrected) - 10
    assert bias_naive > 0.8  # the winner's curse: E[max of 5] is 1.16 sd of a mean above
    assert abs(bias_corrected) < 0.8 * bias_naive


def test_best_of_k_clear_winner_is_its_mean():
    runs = {"a": [20, 21, 19, 20.5], "b": [5, 6, 5.5, 6.5], "c": [1, 2, 1.5, 1]}
    e = best_of_k(runs, floor=0)
    assert e.point == pytest.approx(20.125, abs=0.05)
    assert e.low >= 0 and "best: a" in e.detail


# ---------------------------------------------------------------------------------------------
# Claims


def test_claim_as_data_and_its_report_row():
    c = Claim(
        "001-IV-gain",
        Where("IV", "Fig. 5", "Tahoe ... outperforms TCP-Reno with an 80% gain in throughput"),
        Quantity("Tahoe's throughput gain over Reno, minRTO 1 s", "%"),
        "+80 %",
        Within(0.80, 0.20, neutral=0.0),
    )
    v = c.judge(est(0.64, 0.22, 1.23))
    row = c.row(v, "+64 % [+22, +123]")
    assert row.section == "IV" and row.verdict == INCONCLUSIVE
    assert "replications" in row.why


def test_figure_intervals_of_non_negative_quantities_stop_at_zero() -> None:
    # Issue 31: Student-t intervals at n = 2-3 went below zero in the figures of throughputs
    # and timeout counts (paper 004 Figs. 6, 10, 12; paper 000's ideal channel).
    from airtcp.reproduce.common import fit_title, mean_ci

    plain = mean_ci([0.0, 5.0])
    assert plain.low < 0  # t at n = 2: 2.5 -/+ 12.706 x 3.536 / sqrt(2)
    clipped = mean_ci([0.0, 5.0], floor=0.0)
    assert (clipped.value, clipped.low, clipped.high) == (plain.value, 0.0, plain.high)
    # A title is wrapped to its figure's width (no clipped titles), each line measured as
    # matplotlib draws it: every line of the wrapped title fits 4.6 in at 10 pt.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    title = "Fig. 12: four nodes (Fig. 11), FER 40 %, 1 MAC attempt, D = 20 ms, and more words"
    wrapped = fit_title(title, 4.6)
    assert "\n" in wrapped and wrapped.split() == title.split()
    fig = Figure(figsize=(4.6, 1), dpi=100)
    renderer = FigureCanvasAgg(fig).get_renderer()
    for line in wrapped.splitlines():
        width_px = fig.text(0, 0, line, fontsize=10).get_window_extent(renderer).width
        assert width_px <= 4.6 * 100, (line, width_px)
    assert fit_title("short", 4.6) == "short"


def test_an_undecidable_interval_says_so_instead_of_an_absurd_count() -> None:
    # Point 0.001 beside the boundary 0 with an interval [-1, 1] at n = 6: the 1/sqrt(n) guide
    # gives 6 x (1 / 0.001)^2 = 6,000,000 replications; the verdict names no such number.
    from airtcp.reproduce.claims import MANY_REPLICATIONS, Direction, Estimate

    v = Direction(+1).verdict(Estimate(0.001, -1.0, 1.0, 6, "t"))
    assert v.word == "inconclusive" and v.needed is not None and v.needed > MANY_REPLICATIONS
    assert f"more than {MANY_REPLICATIONS:,} replications" in v.reason
    near = Direction(+1).verdict(Estimate(0.5, -0.5, 1.5, 6, "t"))
    # Boundary 0 at 0.5 from the point, inside the lower side of length 1: 6 x (1 / 0.5)^2 = 24.
    assert "about 24 replications would decide it" in near.reason


def test_every_paper_follows_the_paper_protocol() -> None:
    """Issue 31: one driver for five papers; no module keeps a reproduce() shell of its own."""
    import importlib

    from airtcp.reproduce import PAPERS

    for key, (name, _title) in PAPERS.items():
        module = importlib.import_module(name)
        assert module.ID == key and module.TITLE and module.TEMPLATE, name
        assert callable(module.sweeps) and callable(module.analyse), name
        assert not hasattr(module, "reproduce") and not hasattr(module, "write_report"), name
        inventory = getattr(module, "NOT_EVALUABLE", None)
        assert isinstance(inventory, list), f"{name}: the claims not evaluable, listed"
    assert replications_to_decide(Estimate(1.0, -math.inf, 5.0, 3, "t"), [0.0]) is None


def test_wilson_interval_by_hand() -> None:
    # Wilson (1927) at 95 %: 5 of 10 -> [0.2366, 0.7634] (the textbook value); 0 of 10 ->
    # [0, z^2 / (n + z^2)] = [0, 0.2775]; 10 of 10 ends at 1 exactly (rounding put it a hair
    # below the proportion itself).
    lo, hi = wilson_interval(np.array([5, 0, 10]), np.array([10, 10, 10]))
    assert lo == pytest.approx([0.236593, 0.0, 0.722467], abs=1e-6)
    assert hi == pytest.approx([0.763407, 0.277533, 1.0], abs=1e-6)
    assert hi[2] == 1.0 and lo[1] == 0.0
