"""One scenario over several seeds: ``airtcp run FILE --seeds 1-5``.

Each seed is one run, exactly ``airtcp run FILE --seed S``; the runs are summarised per flow
and in total as a mean with a 95 % Student-t interval (``mean -/+ t(0.975, n-1) * s / sqrt(n)``,
:func:`airtcp.reproduce.common.mean_ci`, as the paper reports use) and the number of runs n
that reported the figure. One run gives no interval.

``--seeds`` takes ``1-5`` (1 to 5), ``1,3,7``, ``1-3,10`` or a bare ``N``, which means seeds
1 to N, as ``airtcp validate --seeds N`` does (one seed alone: ``--seed``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from airtcp.config import Scenario
    from airtcp.provenance import Given
    from airtcp.result import Result, RunSummary
    from airtcp.runprint import Column

__all__ = [
    "CONFIDENCE",
    "MAX_SEEDS",
    "SeedsError",
    "aggregate",
    "aggregate_line",
    "parse_seeds",
    "print_aggregate",
    "run_seeds",
    "seeds_text",
    "write_seeds",
]

# Most seeds one `airtcp run --seeds` runs (each a whole run, its summary kept in memory).
MAX_SEEDS = 10_000
# The confidence level of the intervals.
CONFIDENCE = 0.95
_MAX_SEED = 2**64 - 1
_ALLOWED = "e.g. 1-5 for seeds 1 to 5, 1,3,7, 1-3,10, or N for seeds 1 to N"
# A seed as written: ASCII digits, at most 20 (2^64 has 20).
_SEED = re.compile(r"\s*([0-9]{1,20})\s*")


class SeedsError(ValueError):
    """A bad ``--seeds`` or ``--workers``: the message names the option, the value and what is
    allowed."""


def parse_seeds(text: str) -> list[int]:
    """The seeds of ``--seeds``, in the order given: ranges ``A-B`` (both included) and single
    seeds separated by commas; a bare ``N`` alone is seeds 1..N. Seeds 0..2^64-1, each once,
    at most MAX_SEEDS."""
    where = f"--seeds {text[:40]!r}"
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) == 1 and (count := _SEED.fullmatch(parts[0])):  # as `validate --seeds N`
        n = int(count.group(1))
        if not 1 <= n <= MAX_SEEDS:
            raise SeedsError(f"{where}: {n} seeds (allowed: N = 1..{MAX_SEEDS}; {_ALLOWED})")
        return list(range(1, n + 1))
    seeds: list[int] = []
    for part in parts:
        low, dash, high = part.partition("-")
        first, last = _SEED.fullmatch(low), _SEED.fullmatch(high if dash else low)
        if first is None or last is None:
            raise SeedsError(
                f"{where}: {part[:40]!r} is not a seed or a range (allowed: {_ALLOWED})"
            )
        a, b = int(first.group(1)), int(last.group(1))
        if b > _MAX_SEED:
            raise SeedsError(f"{where}: seed {b} (allowed: seeds 0..2^64-1)")
        if b < a:
            raise SeedsError(f"{where}: range {part!r} runs backwards (allowed: A-B with A <= B)")
        if len(seeds) + b - a + 1 > MAX_SEEDS:
            raise SeedsError(f"{where}: more than {MAX_SEEDS} seeds (allowed: at most {MAX_SEEDS})")
        seeds.extend(range(a, b + 1))
    seen: set[int] = set()
    for s in seeds:
        if s in seen:
            raise SeedsError(f"{where}: seed {s} given twice (allowed: each seed once)")
        seen.add(s)
    return seeds


def seeds_text(seeds: Sequence[int]) -> str:
    """``seeds`` written short: runs of consecutive seeds as ``A-B`` (``1-5,9``)."""
    parts: list[str] = []
    i = 0
    while i < len(seeds):
        j = i
        while j + 1 < len(seeds) and seeds[j + 1] == seeds[j] + 1:
            j += 1
        parts.append(str(seeds[i]) if j == i else f"{seeds[i]}-{seeds[j]}")
        i = j + 1
    return ",".join(parts)


def _run_one(config: Scenario, seed: int, given: Given | None) -> Result:
    from airtcp.run import run

    return run(config, seed=seed, given=given)


def run_seeds(
    config: Scenario,
    seeds: Sequence[int],
    *,
    workers: int = 1,
    given: Given | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[Result]:
    """Run ``config`` once per seed, in ``seeds``' order; ``workers`` processes (0: all cores;
    1: here, one after the other). Each result is what ``run(config, seed=s)`` returns (its
    ``wall_seconds`` aside). ``on_done(seed)`` after each run."""
    import os

    from airtcp.sweep import MAX_WORKERS

    if isinstance(workers, bool) or not 0 <= workers <= MAX_WORKERS:
        raise SeedsError(f"--workers: {workers!r} (allowed: 0..{MAX_WORKERS}; 0 = all cores)")
    workers = min(workers or os.cpu_count() or 1, len(seeds))
    if workers <= 1:
        results = []
        for s in seeds:
            results.append(_run_one(config, s, given))
            if on_done:
                on_done(s)
        return results
    from airtcp.sweep import worker_pool

    with worker_pool(workers) as pool:
        futures = [pool.submit(_run_one, config, s, given) for s in seeds]
        results = []
        for s, fut in zip(seeds, futures, strict=True):
            results.append(fut.result())
            if on_done:
                on_done(s)
        return results


# ---------------------------------------------------------------------------------------------
# The aggregate


@dataclass(frozen=True)
class _Metric:
    """A figure of the summary: where it is, its name in the table, the table's unit."""

    path: tuple[str, ...]  # keys into a flow (or the totals)
    label: str
    scale: float
    digits: int


# Per flow, in this order: each shown when some run reports it (a TCP flow's one-way delay is
# not measured: the core reports 0; a mean RTT needs RTT samples).
_FLOW_METRICS = (
    _Metric(("goodput_bps",), "goodput Mbit/s", 1e-6, 3),
    _Metric(("active_goodput_bps",), "active goodput Mbit/s", 1e-6, 3),
    _Metric(("transfer_throughput_bps",), "file Mbit/s", 1e-6, 3),
    _Metric(("loss_ratio",), "loss %", 100, 2),
    _Metric(("mean_delay_s",), "mean delay ms", 1e3, 3),
    _Metric(("tcp", "retransmissions"), "retransmissions", 1, 1),
    _Metric(("tcp", "timeouts"), "timeouts (RTO)", 1, 2),
    _Metric(("tcp", "rtt_mean_s"), "mean RTT ms", 1e3, 2),
)
_TOTAL_METRICS = (
    _Metric(("goodput_bps",), "goodput Mbit/s", 1e-6, 3),
    _Metric(("collision_probability",), "collision probability", 1, 4),
)


def _value(source: Mapping[str, Any], m: _Metric) -> float | None:
    """The figure ``m`` of a flow (or the totals), None where it is not reported."""
    if m.path == ("mean_delay_s",) and str(source.get("kind", "")).startswith("tcp"):
        return None  # TCP flows measure no one-way delay (the core reports 0)
    if m.path == ("tcp", "rtt_mean_s") and not (source.get("tcp") or {}).get("rtt_samples"):
        return None  # no RTT sample: no mean
    value: Any = source
    for key in m.path:
        value = value.get(key) if isinstance(value, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _estimate(values: Sequence[float]) -> dict[str, Any]:
    from airtcp.reproduce.common import mean_ci

    e = mean_ci(values)
    if e.n < 2:  # one run: no interval
        return {"mean": e.value, "low": None, "high": None, "n": e.n}
    return {"mean": e.value, "low": e.low, "high": e.high, "n": e.n}


def _estimates(sources: Sequence[Mapping[str, Any]], metrics: Sequence[_Metric]) -> dict[str, Any]:
    """Each metric some source reports: its estimate over the sources that report it, where
    the summary has the metric (``{"goodput_bps": ..., "tcp": {"retransmissions": ...}}``)."""
    out: dict[str, Any] = {}
    for m in metrics:
        values = [v for v in (_value(s, m) for s in sources) if v is not None]
        if values:
            *parents, last = m.path
            place = out
            for key in parents:
                place = place.setdefault(key, {})
            place[last] = _estimate(values)
    return out


def _find(estimates: dict[str, Any], m: _Metric) -> dict[str, Any] | None:
    """The estimate of ``m`` in what :func:`_estimates` built, or None."""
    value: Any = estimates
    for key in m.path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def aggregate(summaries: Sequence[RunSummary], seeds: Sequence[int]) -> dict[str, Any]:
    """The runs of ``seeds`` summarised: per flow (matched by position) and in total, each
    figure's mean, 95 % Student-t interval (``low``, ``high``; None for n = 1) and n, in the
    summary's units (bit/s, seconds, ratios)."""
    first = summaries[0]
    flows = []
    for i, f in enumerate(first.get("flows", [])):
        same = [s["flows"][i] for s in summaries if i < len(s.get("flows", []))]
        flows.append(
            {
                **{k: f.get(k) for k in ("id", "kind", "src", "dst")},
                **_estimates(same, _FLOW_METRICS),
            }
        )
    return {
        "scenario": first.get("scenario"),
        "seeds": list(seeds),
        "confidence": CONFIDENCE,
        "interval": "Student t",
        "totals": _estimates([s.get("totals", {}) for s in summaries], _TOTAL_METRICS),
        "flows": flows,
    }


def _cells(e: dict[str, Any], m: _Metric) -> tuple[str, str, str]:
    """(mean, interval, n) of an estimate as the table shows them."""
    mean = f"{e['mean'] * m.scale:.{m.digits}f}"
    if e["low"] is None:
        return mean, "-", str(e["n"])
    low, high = sorted((e["low"] * m.scale, e["high"] * m.scale))
    return mean, f"[{low:.{m.digits}f}, {high:.{m.digits}f}]", str(e["n"])


def _columns(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[Column]:
    """Columns of ``rows``: text up to "metric" (the row's name, repeated in each part of a
    table split to fit), then numbers (never cut: airtcp.runprint)."""
    from airtcp.runprint import Column

    text = list(headers).index("metric") + 1
    return [
        Column(h, [r[i] for r in rows], numeric=i >= text, key=i < text)
        for i, h in enumerate(headers)
    ]


_ESTIMATE_HEADERS = ("mean", f"{CONFIDENCE * 100:g} % interval", "n")


def flow_rows(flows: Sequence[dict[str, Any]]) -> list[tuple[str, str, str, str, str]]:
    """The flows table's rows: one per flow and figure, the flow named on its first row."""
    from airtcp.runprint import _flow_kind, _flow_label

    rows = []
    for f in flows:
        name = f"{_flow_label(f)} ({_flow_kind(str(f.get('kind', '')))})"
        for m in _FLOW_METRICS:
            e = _find(f, m)
            if e is not None:
                rows.append((name, m.label, *_cells(e, m)))
                name = ""
    return rows


def total_rows(totals: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The totals table's rows: one per figure."""
    return [(m.label, *_cells(e, m)) for m in _TOTAL_METRICS if (e := _find(totals, m)) is not None]


def aggregate_line(agg: dict[str, Any]) -> str:
    """The aggregate in one line (``airtcp run --seeds ... --quiet``): total goodput and
    collision probability with their intervals, and the seeds."""
    parts = []
    for m in _TOTAL_METRICS:
        e = _find(agg["totals"], m)
        if e is None:
            continue
        mean, interval, _n = _cells(e, m)
        name = m.label.removesuffix(" Mbit/s")  # the unit goes after the interval
        unit = " Mbit/s" if name != m.label else ""
        parts.append(f"{name} {mean}" + (f" {interval}" if interval != "-" else "") + unit)
    seeds = agg["seeds"]
    if len(seeds) == 1:
        return f"total {', '.join(parts)}; one seed ({seeds[0]}): no interval"
    return (
        f"total {', '.join(parts)}; mean and {CONFIDENCE * 100:g} % interval (Student t) over "
        f"n = {len(seeds)} seeds ({seeds_text(seeds)})"
    )


def print_aggregate(
    agg: dict[str, Any], console: Console | None = None, max_rows: int | None = None
) -> None:
    """The aggregate's tables (each flow's figures, the totals), fitted to the console
    (airtcp.runprint: numbers are never cut), ``max_rows`` flows (None: all), then the
    aggregate line."""
    from rich.console import Console

    from airtcp.runprint import fit

    console = console or Console()
    flows = agg["flows"]
    shown = flows if max_rows is None else flows[:max_rows]
    title = f"flows: {agg.get('scenario') or ''} (seeds {seeds_text(agg['seeds'])})"
    headers = ("flow", "metric", *_ESTIMATE_HEADERS)
    for table in fit(title, _columns(headers, flow_rows(shown)), console.width):
        console.print(table)
    if len(flows) > len(shown):
        console.print(
            f"... {len(flows) - len(shown)} more flows (see --json or --out; --all prints "
            "every row)",
            soft_wrap=True,
            highlight=False,
        )
    totals = _columns(("metric", *_ESTIMATE_HEADERS), total_rows(agg["totals"]))
    for table in fit("totals", totals, console.width):
        console.print(table)
    console.print(aggregate_line(agg), soft_wrap=True, highlight=False)


def write_seeds(
    out: str | Path, results: Sequence[Result], agg: dict[str, Any], replace: bool = False
) -> Path:
    """Write each seed's run directory (``seed-<S>/``, as ``airtcp run --out`` writes one) and
    ``aggregate.json`` into ``out``, atomically (airtcp.outpath: a new or empty directory, or
    with ``replace`` an earlier one airtcp wrote whole)."""
    import json

    from airtcp.outpath import atomic_directory

    with atomic_directory(out, "runs", replace=replace) as tmp:
        for result, seed in zip(results, agg["seeds"], strict=True):
            result.write(tmp / f"seed-{seed}")
        text = json.dumps(agg, indent=2, allow_nan=False) + "\n"
        (tmp / "aggregate.json").write_text(text, encoding="utf-8")
    return Path(out)
