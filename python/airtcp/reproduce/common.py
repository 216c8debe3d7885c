"""What every paper's reproduction shares: running its sweeps into one resumable store with
progress, the estimates with their 95 % intervals, and a claim with its verdict."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from airtcp import sweep

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Claim",
    "Estimate",
    "cell",
    "claims_table",
    "figures_and_definitions",
    "mean_ci",
    "run_sweeps",
    "stored_runs",
    "write_report_lines",
]


def run_sweeps(
    specs: Mapping[str, sweep.SweepSpec],
    root: Path,
    *,
    workers: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> set[str]:
    """Run each named sweep into the store ``root`` (what is stored already is skipped);
    ``progress(name, done, total)`` is called as runs finish. Returns the run hashes of these
    sweeps: a store may also hold runs of other versions or modes of them (a quick run, a
    sweep since changed), which the analysis must leave out."""
    hashes: set[str] = set()
    for name, spec in specs.items():
        runs = sweep.expand(spec)
        hashes.update(r.run_hash for r in runs)
        stored = sweep.stored_hashes(root)
        already = sum(r.run_hash in stored for r in runs)
        counter = itertools.count(already + 1)
        if progress:
            progress(name, already, len(runs))

        def tick(
            _row: dict[str, Any], name: str = name, total: int = len(runs), c: Any = counter
        ) -> None:
            if progress:
                progress(name, next(c), total)

        sweep.run_sweep(spec, root, workers=workers, on_done=tick)
    return hashes


@dataclass(frozen=True)
class Estimate:
    """A mean (or ratio of means) with its 95 % confidence interval and sample size."""

    value: float
    low: float
    high: float
    n: int

    def fmt(self, scale: float = 1.0, digits: int = 2, unit: str = "") -> str:
        v, lo, hi = self.value * scale, self.low * scale, self.high * scale
        tail = f" {unit}" if unit else ""
        if math.isnan(lo):
            return f"{v:.{digits}f}{tail} (n={self.n})"
        return f"{v:.{digits}f}{tail} [{lo:.{digits}f}, {hi:.{digits}f}] (n={self.n})"


def mean_ci(values: Sequence[float] | np.ndarray, floor: float | None = None) -> Estimate:
    """Mean and Student-t 95 % interval (n = 1: no interval). ``floor``: a bound the true
    mean cannot cross (0 for a throughput or a count), where the interval is clipped: at n =
    2-3 a t interval of such a quantity reaches below it, and clipping at a bound the true
    value satisfies keeps the coverage (reproduce.claims)."""
    from scipy import stats

    x = np.asarray(values, dtype=float)
    n = len(x)
    m = float(x.mean())
    if n < 2:
        return Estimate(m, math.nan, math.nan, n)
    half = float(stats.t.ppf(0.975, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
    low = m - half if floor is None else max(m - half, floor)
    return Estimate(m, low, m + half, n)


def scheme_curves(
    ax: Any,
    t: pd.DataFrame,
    x: str,
    y: str,
    scale: float,
    styles: Mapping[str, tuple[str, str]],
    **where: Any,
) -> None:
    """Per scheme (``styles``: scheme -> (label, colour), in drawing order) the mean of ``y``
    against ``x`` over the rows of ``t`` matching ``where``, with its 95 % interval, which stops
    at 0 (the papers' curves are throughputs, counts, windows and rates)."""
    for scheme, (label, color) in styles.items():
        sub = cell(t, scheme=scheme, **where)
        if sub.empty:
            continue
        xs = sorted(sub[x].unique())
        est = [mean_ci(cell(sub, **{x: v})[y].to_numpy(), floor=0.0) for v in xs]
        means = np.array([e.value for e in est]) * scale
        err = np.nan_to_num(np.array([[e.value - e.low, e.high - e.value] for e in est]).T * scale)
        ax.errorbar(xs, means, yerr=err, marker="o", ms=3, capsize=3, label=label, color=color)
    ax.grid(alpha=0.3)


def fit_title(text: str, width_in: float, fontsize: float = 10.0) -> str:
    """``text`` wrapped at word boundaries to lines no wider than ``width_in`` inches at
    ``fontsize`` points, each line measured in matplotlib's default font (its glyphs'
    advances, not a guess per character), with 5 % to spare, so that no title is clipped at
    its figure's or panel's edge. A word wider than the width alone gets a line of its own."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    prop = FontProperties(size=fontsize)
    measure = TextToPath()
    limit_pt = width_in * 72 * 0.95
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        width_pt = measure.get_text_width_height_descent(trial, prop, ismath=False)[0]
        if line and width_pt > limit_pt:
            lines.append(line)
            line = word
        else:
            line = trial
    lines.append(line)
    return "\n".join(lines)


def cell(t: pd.DataFrame, **where: Any) -> pd.DataFrame:
    """The rows of ``t`` where every column ``k`` equals ``v``."""
    sel = np.ones(len(t), dtype=bool)
    for k, v in where.items():
        sel &= (t[k] == v).to_numpy()
    return t[sel]


@dataclass(frozen=True)
class Claim:
    """One claim of the paper beside airtcp's measurement, with a plain verdict; ``runs``: the
    sweeps its measurement uses (by name; empty: not said). The report marks an inconclusive
    verdict "(quick)" in quick mode unless every one of its sweeps runs the same in both modes
    (then the full run could not decide it either)."""

    section: str
    claim: str
    paper: str
    airtcp: str
    verdict: str
    why: str
    runs: tuple[str, ...] = ()


def _version() -> str:
    from airtcp import __version__

    return __version__


def stored_runs(
    root: Path,
    knobs: Sequence[str],
    only: set[str] | None = None,
    names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The runs stored in ``root`` (of the run hashes ``only``, and of the configuration names
    ``names``, if given): ``run_hash``, ``replication``, ``params`` (the sweep's values, JSON),
    ``summary_json`` and each configuration key of ``knobs`` (and ``name`` with ``names``) as a
    column; a failed run is an error (the analysis never averages over a hole)."""
    from airtcp import store

    con = store.connect(root)
    try:
        keys = [*knobs, *(["name"] if names is not None and "name" not in knobs else [])]
        cols = "".join(f', "config.{k}" AS "{k}"' for k in keys)
        where = ""
        if names is not None:
            listed = ", ".join("'" + n.replace("'", "''") + "'" for n in names)
            where = f' WHERE "config.name" IN ({listed})'
        runs = con.execute(
            f"SELECT run_hash, replication, params, summary_json, error{cols} FROM runs{where}"
        ).df()
    finally:
        con.close()
    if only is not None:
        runs = runs[runs["run_hash"].isin(only)]
    failed = runs[runs["error"].notna()]
    if len(failed):
        raise RuntimeError(f"{len(failed)} runs failed, e.g. {failed['error'].iloc[0]}")
    return runs


def claims_table(claim_list: Sequence[Claim]) -> list[str]:
    """The report's claims as a Markdown table: section, claim, paper, airtcp, verdict, why."""
    return [
        "| § | claim | paper | airtcp | verdict | why |",
        "|---|---|---|---|---|---|",
        *(
            f"| {c.section} | {c.claim} | {c.paper} | {c.airtcp} | **{c.verdict}** | {c.why} |"
            for c in claim_list
        ),
    ]


def figures_and_definitions(
    paths: Sequence[Path],
    doc: str | None,
    marker: str | None,
    captions: Mapping[str, str] | None = None,
) -> list[str]:
    """The report's closing sections: each figure of ``paths`` (in ``figures/``), with its
    caption line if ``captions`` (file name -> text) has one, then the definitions, the part of
    the module's docstring ``doc`` after ``marker`` (None: all of ``doc``)."""
    captions = captions or {}
    figures: list[str] = []
    for p in paths:
        figures.append(f"![{p.stem}](figures/{p.name})")
        if p.name in captions:
            figures += ["", captions[p.name], ""]
    return [
        "## Figures",
        "",
        *figures,
        "",
        "## Definitions",
        "",
        (doc or "").split(marker)[-1].strip() if marker else (doc or "").strip(),
        "",
    ]


def write_report_lines(out: Path, lines: Sequence[str]) -> Path:
    """Write ``out/report.md`` from ``lines`` atomically (a reader never sees half a report),
    and beside it ``out/report.html``, the same report as one page with its figures embedded
    (:mod:`airtcp.reproduce.page`); return the Markdown report's path."""
    from airtcp.reproduce.page import write_html
    from airtcp.result import atomic_file

    path = out / "report.md"
    with atomic_file(path, prefix=".report.", clean=True) as tmp:
        tmp.write_text("\n".join(lines), encoding="utf-8")
    write_html(path)
    return path
