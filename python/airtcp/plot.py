"""Figures: a metric over a swept parameter with confidence intervals, and trace time series.

Two functions draw, each returning a matplotlib ``Figure`` and the data it shows as a pandas
``DataFrame`` (so a figure can be checked, restyled or redrawn elsewhere):

- :func:`metric` reads a sweep store (``airtcp sweep --out DIR``) and draws the mean of ``y``
  over the swept parameter ``x``, one line per ``group``, with Student-t confidence intervals
  over the replications: the shape of every paper figure.
- :func:`trace` reads one run (an ``airtcp run --out`` directory, a ``Result``, or a run of a
  store), or several overlaid, and draws a time series: cwnd, RTT, RTO, bytes in flight,
  goodput per time bin, MAC airtime per node, in the whole run or a time window.

:func:`save` writes a figure atomically as PNG, SVG or PDF (chosen by the file suffix);
:func:`show` opens it in a window. Nothing else touches pyplot: figures are plain
``matplotlib.figure.Figure`` objects, rendered by the non-interactive Agg/SVG/PDF canvases,
so no display is needed but for :func:`show`. :func:`load_run` reads one run from wherever it
is kept (airtcp.topology and airtcp.report draw from it).

``y`` (and ``x``, ``group``) of :func:`metric` name a column of the view ``runs``
(``totals.goodput_bps``, ``param.retry_limit``, ``flow0.goodput_bps``) or, when no column has
that name, a path into each run's summary JSON: dot-separated keys, integers index lists
(``flows.0.tcp.retransmissions``, ``nodes.1.mac.collisions``); a leading ``summary.`` forces
the summary reading. docs/plots.md has the details.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from airtcp.result import load_summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from airtcp.result import Result, RunSummary

__all__ = [
    "FORMATS",
    "TRACE_KINDS",
    "PlotError",
    "aggregate",
    "check_format",
    "load_run",
    "metric",
    "save",
    "show",
    "trace",
    "trace_y",
]

FORMATS: dict[str, str] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

# What `trace` can draw: kind -> {y: (label with unit, what it is)}. The first y is the default.
TRACE_KINDS: dict[str, dict[str, tuple[str, str]]] = {
    "tcp": {
        "cwnd": ("cwnd [segments]", "congestion window"),
        "ssthresh": ("ssthresh [segments]", "slow-start threshold (not drawn while infinite)"),
        "srtt_ns": ("smoothed RTT [ms]", "smoothed round-trip time (alias rtt, srtt)"),
        "rto_ns": ("RTO [ms]", "retransmission timeout (alias rto)"),
        "in_flight_bytes": ("in flight [kB]", "bytes sent and not yet acknowledged"),
        "pacing_rate_bps": (
            "pacing rate [Mbit/s]",
            "BBR's pacing rate (0: not paced; alias pacing)",
        ),
    },
    "tcp_segments": {
        "goodput": ("goodput [Mbit/s]", "bytes newly acknowledged per time bin"),
        "sent": ("segments sent [1/s]", "events per second in each time bin"),
        "retransmit": ("retransmissions [1/s]", "events per second in each time bin"),
        "dupack": ("duplicate ACKs [1/s]", "events per second in each time bin"),
        "timeout": ("timeouts [1/s]", "events per second in each time bin"),
    },
    "packets": {
        "goodput": ("goodput [Mbit/s]", "payload bytes delivered per time bin (UDP flows)"),
        "delay": ("delay [ms]", "end-to-end delay of each delivered packet (UDP flows)"),
    },
    "mac_tx": {
        "airtime": ("airtime [fraction of time]", "share of each time bin a node transmits"),
        "throughput": ("MAC throughput [Mbit/s]", "bytes of data frames received, per bin"),
    },
    "interval": {
        "goodput": ("goodput [Mbit/s]", "the summary's interval_goodput_bps (report_interval_s)"),
    },
    "rates": {
        "rate": (
            "data rate [Mbit/s]",
            "each sender's data rate toward each peer, as rate control sets it",
        ),
    },
    "receptions": {
        "sinr": ("lowest SINR [dB]", "each locked reception's lowest SINR, per link (radio)"),
        "snr": ("SNR [dB]", "each locked reception's power over the noise floor (radio)"),
        "rx_power": ("received power [dBm]", "each locked reception's power, fade included"),
    },
    "mpdus": {
        "subframe_error": (
            "subframe error rate",
            "against the subframe's position in its A-MPDU: the share of the subframes at that "
            "position that the BlockAck did not acknowledge, among PPDUs a BlockAck answered",
        ),
    },
    "positions": {
        "distance": ("distance from the origin [m]", "each moving node at its frames (radio)"),
        "x": ("x [m]", "each moving node's x at its frames"),
        "y": ("y [m]", "each moving node's y at its frames"),
    },
}
_ALIASES = {
    "rtt": "srtt_ns",
    "srtt": "srtt_ns",
    "rto": "rto_ns",
    "in_flight": "in_flight_bytes",
    "pacing": "pacing_rate_bps",
}
_TIME_COLUMN = {
    "tcp": "time_ns",
    "tcp_segments": "time_ns",
    "packets": "delivered_ns",
    "mac_tx": "start_ns",
    "rates": "time_ns",
    "receptions": "time_ns",
    "positions": "time_ns",
}
_SSTHRESH_INFINITE = 2**31 - 1  # the core's "no threshold yet" (Linux TCP_INFINITE_SSTHRESH)


class PlotError(ValueError):
    """A figure cannot be drawn: the message names the value and what is allowed."""


# ---------------------------------------------------------------------------------------------
# Output


def check_format(out: str | Path) -> str:
    """The matplotlib format for ``out`` from its suffix; :class:`PlotError` unless allowed."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        allowed = ", ".join(FORMATS)
        raise PlotError(
            f"--out {out}: unknown figure format {suffix or '(none)'!r} (allowed: {allowed})"
        )
    return FORMATS[suffix]


_CREATOR = "airtcp (matplotlib)"
_CREATOR_BYTES = _CREATOR.encode()


def check_figure_path(out: str | Path) -> Path:
    """Raise :class:`PlotError` unless ``out`` is absent or a figure airtcp drew (its creator
    field names airtcp): a plot never overwrites a file of the user's."""
    from airtcp.outpath import own_file_problem

    problem = own_file_problem(out, _CREATOR_BYTES, "figures")
    if problem:
        raise PlotError(problem)
    return Path(out)


def save(fig: Figure, out: str | Path, dpi: int = 150) -> Path:
    """Write ``fig`` to ``out`` atomically (a temporary file beside it, then a rename; a
    kill leaves no temporary file behind for long: see :mod:`airtcp.outpath`).

    The format comes from the suffix (``.png``, ``.svg``, ``.pdf``); the parent directory is
    created if needed; an existing file is replaced only if it is a figure airtcp drew
    (:func:`check_figure_path`). SVG and PDF carry no creation date, so the same figure gives the same
    bytes. ``dpi``: the resolution of a PNG.
    """
    import matplotlib

    from airtcp.result import atomic_file

    fmt = check_format(out)
    path = Path(out)
    check_figure_path(path)
    # No creation date (SVG "Date", PDF "CreationDate"): equal figures give equal files. The
    # creator names airtcp: an existing figure is overwritten only if airtcp drew it.
    metadata = {
        "png": {"Software": _CREATOR},
        "svg": {"Date": None, "Creator": _CREATOR},
        "pdf": {"CreationDate": None, "Creator": _CREATOR},
    }.get(fmt)
    # A fixed salt: SVG element ids stop being random, so equal figures give equal files.
    with (
        atomic_file(path, prefix=f".{path.name}.", clean=True) as tmp,
        matplotlib.rc_context({"svg.hashsalt": "airtcp"}),
    ):
        fig.savefig(tmp, format=fmt, dpi=dpi, metadata=metadata)
    return path


def show(fig: Figure) -> None:
    """Open ``fig`` in a window of matplotlib's interactive backend and wait until it is
    closed (pan and zoom with the toolbar). PlotError if the backend cannot open a window
    (no display: matplotlib falls back to Agg; ``MPLBACKEND`` chooses)."""
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib._pylab_helpers import Gcf
    from matplotlib.backends import BackendFilter, backend_registry

    backend = matplotlib.get_backend()  # resolves the default: a GUI backend if one works
    if backend.lower() in backend_registry.list_builtin(BackendFilter.NON_INTERACTIVE):
        raise PlotError(
            f"--show: matplotlib's backend {backend!r} cannot open a window (no display?); "
            "write the figure with --out, or set MPLBACKEND to an interactive backend"
        )
    canvas = backend_registry.load_backend_module(backend).FigureCanvas
    manager = canvas.new_manager(fig, 1)
    Gcf._set_new_active_manager(manager)  # what pyplot.figure does for its own figures
    plt.show()


def _new_figure() -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    return fig, fig.add_subplot()


def _note(ax: Axes, lines: Sequence[str]) -> None:
    """Small print under the axes: how the figure was made (CIs, exclusions)."""
    if lines:
        ax.annotate(
            "\n".join(lines),
            xy=(0, 0),
            xycoords=("axes fraction", ax.xaxis.label),  # under the x label, flush left
            xytext=(0, -4),
            textcoords="offset points",
            va="top",
            ha="left",
            fontsize=7,
            color="0.35",
        )


# ---------------------------------------------------------------------------------------------
# Names, units and summary paths


_UNITS: tuple[tuple[str, float, str], ...] = (
    ("_bps", 1e-6, "Mbit/s"),
    ("_ns", 1e-6, "ms"),
    ("_s", 1.0, "s"),
    ("_bytes", 1.0, "bytes"),
    ("_segments", 1.0, "segments"),
    ("_m", 1.0, "m"),
    ("_mbps", 1.0, "Mbit/s"),
    ("_ms", 1.0, "ms"),
)


def _short(name: str) -> str:
    for prefix in ("summary.", "param.", "totals.", "config."):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _unit(name: str) -> tuple[float, str]:
    """(scale, axis label) of a metric: bit/s are drawn in Mbit/s, ns in ms."""
    short = _short(name)
    for suffix, scale, unit in _UNITS:
        if short.endswith(suffix):
            return scale, f"{short[: -len(suffix)]} [{unit}]"
    return 1.0, short


def _walk(summary: Any, path: list[str]) -> Any:
    """The value at ``path`` in a summary; KeyError names the first missing step."""
    node = summary
    for i, key in enumerate(path):
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise KeyError(".".join(path[: i + 1]), node)
    return node


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    return math.nan


def _available(node: Any) -> str:
    if isinstance(node, Mapping):
        return "keys: " + ", ".join(sorted(map(str, node)))
    if isinstance(node, list):
        return f"a list of {len(node)}: indices 0..{len(node) - 1}" if node else "an empty list"
    return f"a value ({node!r}), not a table"


def _column_list(columns: Sequence[str]) -> str:
    shown = [c for c in columns if not c.startswith("config.") and c != "summary_json"]
    hidden = len(columns) - len(shown) - ("summary_json" in columns)
    more = f", and {hidden} config.* columns" if hidden else ""
    return ", ".join(shown) + more


def _resolve(frame: pd.DataFrame, name: str, what: str) -> pd.Series:
    """Column ``name`` of ``frame``, or the summary path ``name`` read from ``summary_json``."""
    if not name:
        raise PlotError(f"{what}: empty name (a column of runs or a summary path)")
    if name in frame.columns and not name.startswith("summary."):
        return frame[name]
    path = name.removeprefix("summary.").split(".")
    if "summary_json" not in frame.columns or frame["summary_json"].isna().all():
        return _unknown(frame, name, what, "")
    summaries = [json.loads(s) if isinstance(s, str) else None for s in frame["summary_json"]]
    top = next((s for s in summaries if isinstance(s, Mapping)), {})
    if path[0] not in top:
        return _unknown(frame, name, what, f"summary paths start with: {', '.join(sorted(top))}")
    values, first_error = [], None
    for s in summaries:
        try:
            values.append(_number(_walk(s, path)))
        except KeyError as exc:
            first_error = first_error or exc
            values.append(math.nan)
    if first_error is not None and all(math.isnan(v) for v in values):
        step, node = first_error.args
        hint = f"summary path {step!r} not found (at {step.rpartition('.')[0] or 'top'}: "
        return _unknown(frame, name, what, hint + _available(node) + ")")
    return pd.Series(values, index=frame.index, name=name, dtype=float)


def _unknown(frame: pd.DataFrame, name: str, what: str, detail: str) -> Any:
    columns = [str(c) for c in frame.columns]
    close = difflib.get_close_matches(name, columns, n=1)
    parts = [f'did you mean "{close[0]}"?'] if close else []
    parts += [detail] if detail else []
    parts.append(f"columns: {_column_list(columns)}")
    raise PlotError(
        f"{what} {name!r}: neither a column of runs nor a path into the run summary "
        f"({'; '.join(parts)})"
    )


# ---------------------------------------------------------------------------------------------
# Metric over a swept parameter


def aggregate(
    frame: pd.DataFrame, x: str, y: str, group: Sequence[str] = (), ci: float = 0.95
) -> pd.DataFrame:
    """Mean and Student-t confidence interval of ``y`` per (group, x) point.

    One row per point with the group columns, ``x``, ``n`` (values of y that are not null),
    ``mean``, ``std`` (sample standard deviation) and ``ci_low``/``ci_high`` = mean -/+
    t_{(1+ci)/2, n-1} * std / sqrt(n). A point with n = 1 has no interval: NaN, never a guess.
    Rows are sorted by group, then x.
    """
    from scipy import stats

    if not 0 < ci < 1:
        raise PlotError(f"ci: {ci!r} (allowed: a confidence level between 0 and 1, e.g. 0.95)")
    keys = [*group, x]
    rows = []
    for key, sub in frame.groupby(keys, sort=True, dropna=False):
        values = pd.to_numeric(sub[y], errors="coerce").dropna().astype(float).to_numpy()
        n = len(values)
        mean = float(values.mean()) if n else math.nan
        std = float(values.std(ddof=1)) if n >= 2 else math.nan
        half = float(stats.t.ppf((1 + ci) / 2, n - 1)) * std / math.sqrt(n) if n >= 2 else math.nan
        row = dict(zip(keys, key, strict=True))
        row.update(n=n, mean=mean, std=std, ci_low=mean - half, ci_high=mean + half)
        rows.append(row)
    return pd.DataFrame(rows, columns=[*keys, "n", "mean", "std", "ci_low", "ci_high"])


def _load_runs(
    store: str | Path, where: str | None, allow_external_access: bool = False
) -> tuple[pd.DataFrame, int]:
    """The stored runs matching ``where`` that did not fail, and how many failed."""
    import duckdb

    from airtcp import store as store_module

    con = store_module.connect(store, allow_external_access=allow_external_access)
    sql = "SELECT * FROM runs" + (f" WHERE ({where})" if where else "") + " ORDER BY run_hash"
    try:
        frame = con.execute(sql).df()
    except duckdb.Error as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PlotError(f"--where {where!r}: {first}") from None
    if "error" in frame.columns:
        failed = frame["error"].notna()
        return frame[~failed].reset_index(drop=True), int(failed.sum())
    return frame, 0


def _group_label(group: Sequence[str], key: tuple[Any, ...]) -> str:
    if len(group) == 1:
        return str(key[0])
    return ", ".join(f"{_short(g)}={v}" for g, v in zip(group, key, strict=True))


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def metric(
    store: str | Path,
    x: str,
    y: str,
    group: Sequence[str] = (),
    *,
    where: str | None = None,
    ci: float = 0.95,
    pool: bool = False,
    title: str | None = None,
    allow_external_access: bool = False,
) -> tuple[Figure, pd.DataFrame]:
    """Mean of ``y`` over ``x``, one line per ``group``, with confidence intervals.

    ``store`` is a sweep's results directory; ``where`` an SQL condition on the view ``runs``
    (``"param.hops" = 3``). Failed runs are left out (the figure's note says how many). The
    values at one point are the replications: if another swept parameter (``param.*``)
    varies within a point, that is an error unless ``pool`` is true (add it to ``group`` or
    fix it with ``where``). Returns the figure and :func:`aggregate`'s table, in y's own
    units (the figure draws bit/s as Mbit/s); ``table.attrs["notes"]`` holds the figure's note.
    ``where`` runs without file access unless ``allow_external_access`` (see airtcp.store).
    """
    if not 0 < ci < 1:
        raise PlotError(f"--ci: {ci!r} (allowed: a confidence level between 0 and 1, e.g. 0.95)")
    group = list(group)
    frame, failed = _load_runs(store, where, allow_external_access)
    if frame.empty:
        cond = f" matching --where {where!r}" if where else ""
        extra = f" ({failed} failed runs excluded)" if failed else ""
        raise PlotError(f"{store}: no successful runs{cond}{extra}")
    names = [x, y, *group]
    for g in group:
        if names.count(g) > 1:
            raise PlotError(f"--group {g!r}: also given as --x, --y or another --group")
    data = pd.DataFrame(index=frame.index)
    for what, name in [("--x", x), ("--y", y), *(("--group", g) for g in group)]:
        data[name] = _resolve(frame, name, what)
    if not pool:
        _check_points(frame, [x, *group])
    table = aggregate(data, x, y, group, ci)
    table = table[table["n"] > 0].reset_index(drop=True)
    if table.empty:
        raise PlotError(f"--y {y!r}: null in every selected run; nothing to draw")

    scale, ylabel = _unit(y)
    fig, ax = _new_figure()
    numeric_x = _is_numeric(data[x])
    categories = list(dict.fromkeys(table[x])) if not numeric_x else []
    position = {c: i for i, c in enumerate(categories)}
    groups = table.groupby(group, sort=False, dropna=False) if group else [((), table)]
    for key, sub in groups:
        key = key if isinstance(key, tuple) else (key,)
        xs = sub[x].to_numpy(dtype=float) if numeric_x else [position[v] for v in sub[x]]
        label = _group_label(group, key) if group else _short(y)
        if (sub["n"] == 1).all():
            label += " (n=1: no CI)"
        (line,) = ax.plot(xs, sub["mean"] * scale, marker="o", label=label)
        has_ci = sub["n"].to_numpy() >= 2
        if has_ci.any():
            mean = sub["mean"].to_numpy()[has_ci] * scale
            lo = mean - sub["ci_low"].to_numpy()[has_ci] * scale
            hi = sub["ci_high"].to_numpy()[has_ci] * scale - mean
            ax.errorbar(
                np.asarray(xs)[has_ci],
                mean,
                yerr=[lo, hi],
                fmt="none",
                ecolor=line.get_color(),
                capsize=3,
                label=f"_ci {label}",
            )
    if categories:
        ax.set_xticks(range(len(categories)), [str(c) for c in categories])
        ax.set_xlim(-0.5, len(categories) - 0.5)
    ax.set_xlabel(_unit(x)[1])
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if group:
        ax.legend(title=", ".join(_short(g) for g in group) if len(group) == 1 else None)
    ax.set_title(title if title is not None else f"{_unit(y)[1]} over {_unit(x)[1]}")
    notes = _metric_notes(table, ci, failed)
    _note(ax, notes)
    table.attrs["notes"] = notes
    return fig, table


def _check_points(frame: pd.DataFrame, keys: list[str]) -> None:
    """Every other swept parameter must be constant within a point (or the CI mixes them)."""
    others = [c for c in frame.columns if str(c).startswith("param.") and c not in keys]
    if not others:
        return
    for col in others:
        distinct = frame.groupby(keys, dropna=False)[col].nunique(dropna=False)
        if (distinct > 1).any():
            values = sorted(map(str, frame[col].dropna().unique()))
            raise PlotError(
                f"{col} varies within a point (values {', '.join(values)}): the replications "
                f"would mix them; add it with --group {col}, fix it with --where "
                f"'\"{col}\" = ...', or pass --pool to average over it"
            )


def _metric_notes(table: pd.DataFrame, ci: float, failed: int) -> list[str]:
    n_min, n_max = int(table["n"].min()), int(table["n"].max())
    n = f"n = {n_min}" if n_min == n_max else f"n = {n_min}..{n_max}"
    level = f"{ci * 100:g}%"
    if n_max == 1:
        notes = ["mean of n = 1 run per point: no confidence interval (one replication)"]
    else:
        notes = [f"mean and {level} confidence interval (Student t) over replications, {n}"]
        if n_min == 1:
            notes.append("points with n = 1 have no interval")
    if failed:
        notes.append(f"{failed} failed run{'s' if failed != 1 else ''} excluded")
    return notes


# ---------------------------------------------------------------------------------------------
# Time series of one run or several


@dataclass
class _Run:
    """One run to draw: its summary, how to read a trace, and what to call it."""

    summary: RunSummary
    label: str
    tables: dict[str, pd.DataFrame | None] = field(default_factory=dict)
    spec: dict[str, Any] | None = None
    config: dict[str, Any] = field(default_factory=dict)
    present: list[str] = field(default_factory=list)
    hint: str = ""
    # What tells the run from others in an overlay: its scenario, seed and overrides (a
    # store's run: its parameters and replication); the parts all overlaid runs share are
    # left out of their legend entries.
    parts: list[str] = field(default_factory=list)
    # Its name in an overlay when no part tells it from the others (a directory's name).
    short: str = ""


def _override_parts(overrides: Any) -> list[str]:
    """The overrides a run was given, as ``key=value`` strings (``--set`` strings as given)."""
    if isinstance(overrides, Mapping):
        return [
            f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in overrides.items()
        ]
    if isinstance(overrides, Sequence) and not isinstance(overrides, str):
        return [str(o) for o in overrides]
    return []


def _provenance_parts(summary: RunSummary, provenance: Mapping[str, Any] | None) -> list[str]:
    prov: Mapping[str, Any] = provenance or {}
    scenario = prov.get("scenario")
    if not isinstance(scenario, Mapping):
        scenario = {}
    name = scenario.get("name") or summary.get("scenario") or "run"
    seed = prov.get("seed", summary.get("seed"))
    return [str(name), f"seed {seed}", *_override_parts(prov.get("overrides"))]


def _from_result(result: Result, kind: str) -> _Run:
    table = result.traces.get(kind)
    frame = table.to_pandas() if table is not None else None
    name = result.summary.get("scenario", "run")
    # What it was given (provenance.json read back, or the overrides of a run in memory);
    # not result.provenance, which hashes the native module.
    provenance = result._provenance
    if provenance is None and result.given is not None:
        provenance = {"overrides": result.given.overrides}
    return _Run(
        summary=result.summary,
        label=f"{name} (seed {result.summary.get('seed')})",
        tables={kind: frame},
        spec=result.spec,
        present=sorted(result.traces),
        parts=_provenance_parts(result.summary, provenance),
    )


def _from_dir(path: Path, kind: str) -> _Run:
    import pyarrow.parquet as pq

    summary = load_summary((path / "summary.json").read_text(encoding="utf-8"))
    spec_path = path / "spec.json"
    spec = json.loads(spec_path.read_text(encoding="utf-8")) if spec_path.exists() else None
    file = path / "traces" / f"{kind}.parquet"
    frame = pq.read_table(file).to_pandas() if file.exists() else None
    present = sorted(p.stem for p in (path / "traces").glob("*.parquet"))
    name = summary.get("scenario", path.name)
    prov_path = path / "provenance.json"
    provenance = json.loads(prov_path.read_text(encoding="utf-8")) if prov_path.exists() else None
    parts = _provenance_parts(summary, provenance if isinstance(provenance, Mapping) else None)
    label = f"{name} (seed {summary.get('seed')})"
    return _Run(summary, label, {kind: frame}, spec, {}, present, parts=parts, short=path.name)


def _store_hashes(con: Any, root: Path, run: str | None) -> str:
    """The hash of the stored run ``run`` names (a hash or a unique prefix; may be left out
    when the store holds one run)."""
    rows = con.execute("SELECT run_hash, error FROM runs ORDER BY run_hash").fetchall()
    if run is None:
        if len(rows) != 1:
            raise PlotError(
                f"{root}: {len(rows)} runs stored; choose one with --run HASH (or a unique "
                'prefix; `airtcp query DIR "SELECT run_hash, params FROM runs"` lists them)'
            )
        chosen = rows[0]
    else:
        if not run:
            raise PlotError("--run '': empty (allowed: a run hash or a unique prefix of one)")
        matches = [r for r in rows if r[0].startswith(run.lower())]
        if not matches:
            raise PlotError(f"--run {run!r}: no run stored in {root} has a hash starting so")
        if len(matches) > 1:
            listed = ", ".join(r[0][: max(len(run) + 4, 8)] for r in matches[:5])
            more = f", ... ({len(matches)} in all)" if len(matches) > 5 else ""
            raise PlotError(f"--run {run!r}: ambiguous, matches {listed}{more}")
        chosen = matches[0]
    run_hash, error = chosen
    if error is not None:
        raise PlotError(f"run {run_hash}: failed, nothing to draw ({error})")
    return str(run_hash)


def _store_run(con: Any, run_hash: str, kind: str | None) -> _Run:
    """Stored run ``run_hash`` with its ``kind`` trace (None: no trace read)."""
    cur = con.execute("SELECT * FROM runs WHERE run_hash = ?", [run_hash])
    names = [d[0] for d in cur.description or []]
    row = dict(zip(names, cur.fetchone() or (), strict=True))
    summary = load_summary(row["summary_json"])
    views = {
        v
        for (v,) in con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal"
        ).fetchall()
    }
    kinds = sorted(views - {"runs"})
    frame = None
    if kind is not None and kind in views and kind != "runs":
        frame = con.execute(f'SELECT * FROM "{kind}" WHERE run_hash = ?', [run_hash]).df()
        frame = frame.drop(columns=["run_hash"])
    # Name the run by the parameters that vary across the store (the others say nothing).
    params = [c for c in names if c.startswith("param.")]
    counts = (
        con.execute(
            "SELECT " + ", ".join(f'count(DISTINCT "{c}")' for c in params) + " FROM runs"
        ).fetchone()
        if params
        else ()
    )
    varying = [c for c, k in zip(params, counts or (), strict=True) if k > 1]
    shown = [f"{c[len('param.') :]}={row[c]}" for c in varying]
    shown.append(f"replication {row.get('replication')}")
    label = f"run {run_hash[:8]} ({', '.join(shown)})"
    config = {k[len("config.") :]: v for k, v in row.items() if str(k).startswith("config.")}
    hint = (
        f"trace kinds stored: {', '.join(kinds) or 'none'}; set traces.{kind} = true in the sweep"
    )
    parts = [f"{c[len('param.') :]}={row[c]}" for c in params]
    parts.append(f"replication {row.get('replication')}")
    tables = {kind: frame} if kind is not None else {}
    return _Run(summary, label, tables, None, config, kinds, hint, parts)


def _from_store(root: Path, kind: str, run: str | None) -> _Run:
    from airtcp import store as store_module

    con = store_module.connect(root)
    return _store_run(con, _store_hashes(con, root, run), kind)


# Most runs one trace figure overlays (a legend of more says nothing).
MAX_OVERLAY = 20


def _from_store_where(
    root: Path, kind: str, where: str, allow_external_access: bool = False
) -> tuple[list[_Run], int]:
    """The stored runs matching ``where`` that did not fail, and how many failed."""
    import duckdb

    from airtcp import store as store_module

    con = store_module.connect(root, allow_external_access=allow_external_access)
    sql = f"SELECT run_hash, error FROM runs WHERE ({where}) ORDER BY run_hash"
    try:
        rows = con.execute(sql).fetchall()
    except duckdb.Error as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PlotError(f"--where {where!r}: {first}") from None
    ok = [h for h, error in rows if error is None]
    if not ok:
        failed = f" ({len(rows)} failed)" if rows else ""
        raise PlotError(f"--where {where!r}: no successful run of {root} matches{failed}")
    if len(ok) > MAX_OVERLAY:
        raise PlotError(
            f"--where {where!r}: matches {len(ok)} runs (allowed: at most {MAX_OVERLAY} in one "
            "figure; narrow the condition, e.g. AND replication = 0)"
        )
    return [_store_run(con, h, kind) for h in ok], len(rows) - len(ok)


def _source(source: str | Path | Result, kind: str, run: str | None) -> _Run:
    from airtcp.result import Result

    if isinstance(source, Result):
        if run is not None:
            raise PlotError("--run: only for a sweep store (the source is a single run)")
        return _from_result(source, kind)
    path = Path(source)
    if (path / "summary.json").is_file():
        if run is not None:
            raise PlotError(f"--run: only for a sweep store ({path} is a single run's directory)")
        return _from_dir(path, kind)
    if (path / "runs").is_dir():
        return _from_store(path, kind, run)
    if not path.exists():
        raise PlotError(f"{path}: no such directory")
    raise PlotError(
        f"{path}: neither a run directory (summary.json, from `airtcp run --out`) nor a sweep "
        "store (runs/, from `airtcp sweep --out`)"
    )


def load_run(source: str | Path | Result, run: str | None = None) -> Result:
    """One run as a :class:`~airtcp.result.Result`, whatever holds it: an ``airtcp run --out``
    directory (:meth:`Result.read`), a Result (itself), or a sweep store (``run``: its hash
    or a unique prefix; the world spec is rebuilt from the stored scenario, the traces come
    from the store's views). PlotError if there is no such run."""
    from airtcp.result import Result

    if isinstance(source, Result):
        if run is not None:
            raise PlotError("--run: only for a sweep store (the source is a single run)")
        return source
    path = Path(source)
    if (path / "summary.json").is_file():
        if run is not None:
            raise PlotError(f"--run: only for a sweep store ({path} is a single run's directory)")
        return Result.read(path)
    if not (path / "runs").is_dir():
        _source(path, "tcp", run)  # raises the message for what is there
    import pyarrow as pa

    from airtcp import store as store_module

    con = store_module.connect(path)
    run_hash = _store_hashes(con, path, run)
    r = _store_run(con, run_hash, None)
    traces = {}
    for kind in r.present:
        query = f'SELECT * EXCLUDE (run_hash) FROM "{kind}" WHERE run_hash = ?'
        frame = con.execute(query, [run_hash]).df()
        traces[kind] = pa.Table.from_pandas(frame, preserve_index=False)
    row = con.execute(
        "SELECT seed, params FROM runs WHERE run_hash = ?", [run_hash]
    ).fetchone() or (None, "{}")
    params = json.loads(row[1]) if isinstance(row[1], str) else {}
    overrides = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in params.items()]
    provenance = {
        "seed": row[0],
        "scenario": {"name": r.summary.get("scenario"), "store": str(path), "run": run_hash},
        "overrides": overrides,
    }
    mesh = any(n.get("mesh") for n in r.summary.get("nodes", []))
    return Result(r.summary, traces, _store_spec(r.config, mesh), None, provenance)


def _store_spec(config: Mapping[str, Any], mesh: bool = False) -> dict[str, Any] | None:
    """The world spec of a stored run, rebuilt from its flattened scenario (``config.*``:
    tables joined by dots, lists as JSON text); None if it does not validate. A table left
    empty has no column: ``mesh`` says that the run had a ``[mesh]`` table (its summary has
    mesh points), the one empty table that changes the world."""
    from airtcp.config import Scenario, ScenarioError

    nested: dict[str, Any] = {}
    for key, value in config.items():
        if value is None:
            continue  # a key other runs of the store have
        if isinstance(value, str) and value.startswith("["):
            try:
                value = json.loads(value)
            except ValueError:
                pass
        node = nested
        *heads, last = key.split(".")
        for head in heads:
            node = node.setdefault(head, {})
        node[last] = value
    if mesh:
        nested.setdefault("mesh", {})
    try:
        return Scenario.from_dict(nested).to_world_spec()
    except (ScenarioError, ValueError, TypeError, AttributeError):
        return None


def trace_y(kind: str, y: str | None) -> str:
    """The canonical ``y`` for a trace kind (its default when None); PlotError if unknown."""
    if kind not in TRACE_KINDS:
        raise PlotError(f"--kind {kind!r}: unknown (allowed: {', '.join(TRACE_KINDS)})")
    allowed = TRACE_KINDS[kind]
    if y is None:
        return next(iter(allowed))
    y = _ALIASES.get(y, y) if kind == "tcp" else y
    if y not in allowed:
        raise PlotError(f"--y {y!r}: not drawable from {kind} (allowed: {', '.join(allowed)})")
    return y


def _nice_bin(seconds: float) -> float:
    """About 100 bins over ``seconds``, rounded down to 1, 2 or 5 times a power of ten."""
    raw = max(seconds, 1e-9) / 100
    power = 10 ** math.floor(math.log10(raw))
    return max(m * power for m in (1, 2, 5) if m * power <= raw * (1 + 1e-9))


# Most time bins of one trace figure (a figure is a few thousand pixels wide).
MAX_BINS = 100_000


def _edges(end_s: float, bin_s: float, start_s: float = 0.0) -> np.ndarray:
    """Bin edges from ``start_s`` to ``end_s``, ``bin_s`` apart (the last bin may be shorter)."""
    edges = start_s + np.arange(0.0, end_s - start_s, bin_s)
    if edges.size > 1 and end_s - edges[-1] <= bin_s * 1e-9:
        edges = edges[:-1]  # rounding left a last bin of (almost) no width
    return np.append(edges, end_s) if edges.size else np.array([start_s, end_s])


def _rate(times_s: np.ndarray, weights: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Sum of ``weights`` per bin divided by the bin's own length."""
    sums, _ = np.histogram(times_s, bins=edges, weights=weights)
    return sums / np.diff(edges)


def _flow_label(summary: Mapping[str, Any], flow: int) -> str:
    flows = summary.get("flows", [])
    if 0 <= flow < len(flows):
        f = flows[flow]
        return f"flow {flow}: {f.get('src')} \u2192 {f.get('dst')}"
    return f"flow {flow}"


def _node_label(summary: Mapping[str, Any], node: int) -> str:
    nodes = summary.get("nodes", [])
    return str(nodes[node].get("name", node)) if 0 <= node < len(nodes) else f"node {node}"


def _report_interval_s(run: _Run, flow: int, n: int) -> float:
    """The flow's report interval: from the world spec, the store's config, or measured/n."""
    if run.spec is not None:
        flows = run.spec.get("flows", [])
        if 0 <= flow < len(flows) and flows[flow].get("report_interval_ns"):
            return float(flows[flow]["report_interval_ns"]) * 1e-9
    per_flow = run.config.get("flows")
    if isinstance(per_flow, str):
        try:
            entries = json.loads(per_flow)
            value = entries[flow].get("report_interval_s") if flow < len(entries) else None
            if isinstance(value, int | float):
                return float(value)
        except (ValueError, AttributeError, TypeError):
            pass
    if isinstance(run.config.get("report_interval_s"), int | float):
        return float(run.config["report_interval_s"])
    return float(run.summary.get("measured_seconds", 0.0)) / n


def _window(t0_s: float | None, t1_s: float | None) -> tuple[float, float | None]:
    """The time window ``--from``/``--to`` as (start, end or None); PlotError if empty."""
    for name, value in (("--from", t0_s), ("--to", t1_s)):
        if value is not None and not (math.isfinite(value) and value >= 0):
            raise PlotError(f"{name}: {value!r} (allowed: a finite number of seconds >= 0)")
    lo = float(t0_s) if t0_s is not None else 0.0
    if t1_s is not None and t1_s <= lo:
        raise PlotError(f"--to {t1_s:g} is not after --from {lo:g} (allowed: --to > --from)")
    return lo, float(t1_s) if t1_s is not None else None


def _runs_of(
    sources: Sequence[str | Path | Result], kind: str, run: str | None, where: str | None
) -> tuple[list[_Run], int]:
    """Every run to draw, and how many runs ``where`` matched that failed."""
    from airtcp.result import Result

    if where is not None and run is not None:
        raise PlotError("--where and --run: give one (--run picks one run, --where several)")
    runs: list[_Run] = []
    failed = 0
    for source in sources:
        if where is not None:
            if isinstance(source, Result) or not (Path(source) / "runs").is_dir():
                raise PlotError(f"--where: only for a sweep store ({source} is not one)")
            some, bad = _from_store_where(Path(source), kind, where)
            runs += some
            failed += bad
        else:
            runs.append(_source(source, kind, run))
    if len(runs) > MAX_OVERLAY:
        raise PlotError(f"{len(runs)} runs: at most {MAX_OVERLAY} are drawn in one figure")
    return runs, failed


def _overlay_labels(runs: Sequence[_Run]) -> list[str]:
    """A legend entry per run: what tells it from the others (its scenario, seed, overrides
    or parameters that differ), else its own label; repeats get a number."""
    shared = set(runs[0].parts).intersection(*(r.parts for r in runs[1:])) if runs else set()
    labels = []
    for r in runs:
        # Traces switched on change what is recorded, not the run: they name nothing.
        kept = [p for p in r.parts if p not in shared and not p.startswith("traces.")]
        labels.append(", ".join(kept) if kept else r.short or r.label)
    repeated = {label for label in labels if labels.count(label) > 1}
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        if label in repeated:
            seen[label] = seen.get(label, 0) + 1
            labels[i] = f"{label} #{seen[label]}"
    return labels


def _run_end_s(r: _Run, kind: str) -> float:
    end_s = float(r.summary.get("sim_seconds") or 0.0)
    frame = r.tables.get(kind)
    if kind != "interval" and frame is not None and not frame.empty:
        end_s = max(end_s, float(frame[_TIME_COLUMN[kind]].max()) * 1e-9)
    return end_s


def _run_frame(r: _Run, kind: str, flow: int | None) -> pd.DataFrame:
    """The ``kind`` trace of one run (of one flow); PlotError if missing or empty."""
    frame = r.tables.get(kind)
    if frame is None:
        present = ", ".join(r.present) or "none"
        hint = r.hint or f"traces present: {present}; rerun with --set traces.{kind}=true"
        raise PlotError(f"--kind {kind}: no {kind} trace for {r.label} ({hint})")
    if flow is not None and "flow" in frame.columns:
        flows = sorted(frame["flow"].dropna().unique().tolist())
        frame = frame[frame["flow"] == flow]
        if frame.empty:
            raise PlotError(
                f"--flow {flow}: no {kind} rows (flows in this trace: "
                f"{', '.join(map(str, flows)) or 'none'})"
            )
    if frame.empty:
        raise PlotError(
            f"--kind {kind}: no rows in the {kind} trace of {r.label}" + _empty_hint(kind)
        )
    return frame


# Kinds drawn as a step line that holds its value until the next sample: the sample before a
# window's start is carried to the start.
_HELD = ("tcp", "rates")


def _clip(data: pd.DataFrame, kind: str, lo: float, hi: float | None) -> pd.DataFrame:
    """The rows of ``data`` in the window [lo, hi] (a held value carried to ``lo``)."""
    if lo <= 0 and hi is None:
        return data
    t = data["time_s"]
    inside = data[(t >= lo) & ((t <= hi) if hi is not None else True)]
    if kind not in _HELD or lo <= 0:
        return inside.reset_index(drop=True)
    before = data[t < lo].groupby("line", sort=False).tail(1).assign(time_s=lo)
    order = {line: i for i, line in enumerate(dict.fromkeys(data["line"]))}
    both = pd.concat([before, inside])
    key = both["line"].map(order)
    both = both.assign(_k=key).sort_values(["_k", "time_s"], kind="stable")
    return both.drop(columns="_k").reset_index(drop=True)


def trace(
    source: str | Path | Result | Sequence[str | Path | Result],
    kind: str = "tcp",
    y: str | None = None,
    *,
    run: str | None = None,
    where: str | None = None,
    flow: int | None = None,
    bin_s: float | None = None,
    title: str | None = None,
    t0_s: float | None = None,
    t1_s: float | None = None,
) -> tuple[Figure, pd.DataFrame]:
    """A time series of one run or several overlaid: one line per flow (per node for
    ``mac_tx``) of each run.

    ``source``: an ``airtcp run --out`` directory, a :class:`~airtcp.result.Result`, or a
    sweep store (then ``run`` picks the run by its hash or a unique prefix, or ``where``, an
    SQL condition on the view ``runs``, picks several); or a list of these, overlaid. ``kind``
    and ``y`` (default: the kind's first) as in :data:`TRACE_KINDS`. Binned series (goodput,
    event rates, airtime) use bins of ``bin_s`` seconds (default: about 100 over the run, or
    over the window). ``t0_s``/``t1_s`` keep the window between them (seconds of simulated
    time). Returns the figure and its data: columns ``line``, ``time_s`` and ``value`` in the
    plotted units (with several runs, ``run`` first: each run's legend name).
    """
    y = trace_y(kind, y)
    if kind == "mpdus":
        return _subframe_errors(source, run, where, flow, title)
    if bin_s is not None and not (bin_s > 0 and math.isfinite(bin_s)):
        raise PlotError(f"--bin-s: {bin_s!r} (allowed: a finite number of seconds > 0)")
    if flow is not None and kind in ("mac_tx", "rates", "receptions", "positions"):
        raise PlotError(f"--flow: {kind} is drawn per node, not per flow (leave --flow out)")
    lo, hi = _window(t0_s, t1_s)
    # One source, or several (a list or a tuple; a str is one path).
    sources = (
        list(source) if isinstance(source, list | tuple) else [cast("str | Path | Result", source)]
    )
    if not sources:
        raise PlotError("no run to draw (give a run directory or a sweep store)")
    runs, failed = _runs_of(sources, kind, run, where)
    overlay = len(runs) > 1
    frames = [None if kind == "interval" else _run_frame(r, kind, flow) for r in runs]
    ends = [_run_end_s(r, kind) for r in runs]
    end_s = max(ends)
    if hi is None and lo >= end_s and end_s > 0:
        raise PlotError(f"--from {lo:g}: after the end of the run ({end_s:g} s)")
    span = (hi if hi is not None else end_s) - lo
    width = bin_s if bin_s is not None else _nice_bin(span)
    if span / width > MAX_BINS:
        raise PlotError(
            f"--bin-s: {width!r} cuts the {span:.6g} s drawn into more than {MAX_BINS} "
            f"bins (allowed: a number >= {span / MAX_BINS:.3g} seconds)"
        )
    labels = _overlay_labels(runs) if overlay else [r.label for r in runs]
    parts: list[pd.DataFrame] = []
    empty: list[str] = []
    for r, frame, run_end, label in zip(runs, frames, ends, labels, strict=True):
        stop = min(hi, run_end) if hi is not None else run_end
        if kind == "interval":
            series = _interval_series(r, flow)
        elif stop <= lo:
            series = []
        else:
            assert frame is not None
            series = _trace_series(kind, y, frame, r.summary, _edges(stop, width, lo))
        data = _clip(pd.DataFrame(series, columns=["line", "time_s", "value"]), kind, lo, hi)
        if data.empty:
            empty.append(label)
            continue
        if overlay:
            one = data["line"].nunique() == 1
            lines = data["line"].map(lambda line, lb=label, one=one: lb if one else f"{lb}: {line}")
            data = data.assign(line=lines)
            data.insert(0, "run", label)
        parts.append(data)
    if not parts:
        what = f"between {lo:g} and {hi:g} s" if hi is not None else f"after {lo:g} s"
        raise PlotError(f"--from/--to: no {kind} data {what} (the run lasts {end_s:g} s)")
    data = pd.concat(parts, ignore_index=True)

    fig, ax = _new_figure()
    binned = kind not in ("tcp", "rates", "receptions", "positions") and y != "delay"
    for line, sub in data.groupby("line", sort=False):
        if y == "delay" or kind == "receptions":
            ax.plot(sub["time_s"], sub["value"], ".", markersize=2, label=str(line))
        else:
            style = "steps-mid" if binned else "steps-post"
            if kind == "positions":
                style = "default"  # straight legs between the sampled positions
            ax.plot(sub["time_s"], sub["value"], drawstyle=style, label=str(line))
    warmups = sorted(
        {
            float(r.summary["sim_seconds"]) - float(r.summary["measured_seconds"])
            for r in runs
            if isinstance(r.summary.get("measured_seconds"), int | float)
            and r.summary.get("sim_seconds")
        }
    )
    shown_warmup = False
    for warmup in warmups:
        if warmup > 0 and warmup >= lo and (hi is None or warmup <= hi):
            label = "_end of warm-up" if shown_warmup else "end of warm-up"
            ax.axvline(warmup, color="0.5", linestyle=":", linewidth=1, label=label)
            shown_warmup = True
    ax.set_xlabel("time [s]")
    ax.set_ylabel(TRACE_KINDS[kind][y][0])
    right = hi if hi is not None else end_s
    ax.set_xlim(lo, right if right > lo else None)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8 if data["line"].nunique() <= 8 else 6)
    what = runs[0].label if not overlay else f"{len(runs)} runs"
    ax.set_title(title if title is not None else f"{TRACE_KINDS[kind][y][0]}: {what}")
    notes = _trace_notes(kind, y, data, width, span)
    if overlay and empty:
        notes.append(f"nothing to draw in the window for: {', '.join(empty)}")
    if failed:
        notes.append(f"{failed} failed run{'s' if failed != 1 else ''} excluded")
    _note(ax, notes)
    data.attrs["notes"] = notes
    return fig, data


def _subframe_errors(
    source: str | Path | Result | Sequence[str | Path | Result],
    run: str | None,
    where: str | None,
    flow: int | None,
    title: str | None,
) -> tuple[Figure, pd.DataFrame]:
    """``trace --kind mpdus``: each run's subframe error rate against the subframe's position
    in its A-MPDU (0: the first), over the PPDUs a BlockAck answered, with a 95 % Wilson
    interval per position. Columns ``run`` (several runs), ``line``, ``position``, ``n``,
    ``errors``, ``value`` (the rate), ``lo``, ``hi``, ``offset_ms`` (the mean start of the
    subframes at that position after their PPDU's)."""
    sources = (
        list(source) if isinstance(source, list | tuple) else [cast("str | Path | Result", source)]
    )
    if not sources:
        raise PlotError("no run to draw (give a run directory or a sweep store)")
    from airtcp.reproduce.claims import wilson_interval

    runs, failed = _runs_of(sources, "mpdus", run, where)
    overlay = len(runs) > 1
    labels = _overlay_labels(runs) if overlay else [r.label for r in runs]
    parts: list[pd.DataFrame] = []
    for r, label in zip(runs, labels, strict=True):
        frame = _run_frame(r, "mpdus", flow)
        if "position" not in frame.columns:
            raise PlotError(f"the mpdus trace of {r.label} has no position column (rerun it)")
        answered = frame[frame["block_ack"]]
        if answered.empty:
            raise PlotError(f"--kind mpdus: no PPDU of {r.label} was answered by a BlockAck")
        lost = answered["fate"] != "acked"
        g = answered.assign(lost=lost).groupby("position", sort=True)
        n = g["lost"].size()
        errors = g["lost"].sum()
        p = errors / n
        lo, hi = wilson_interval(errors.to_numpy(), n.to_numpy())
        data = pd.DataFrame(
            {
                "line": label,
                "position": n.index.astype(int),
                "n": n.to_numpy(),
                "errors": errors.to_numpy().astype(int),
                "value": p.to_numpy(),
                "lo": lo,
                "hi": hi,
                "offset_ms": g["offset_ns"].mean().to_numpy() / 1e6,
            }
        )
        if overlay:
            data.insert(0, "run", label)
        parts.append(data)
    data = pd.concat(parts, ignore_index=True)
    fig, ax = _new_figure()
    for line, sub in data.groupby("line", sort=False):
        ax.errorbar(
            sub["position"],
            sub["value"],
            yerr=[sub["value"] - sub["lo"], sub["hi"] - sub["value"]],
            marker="o",
            markersize=3,
            capsize=2,
            label=str(line),
        )
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("subframe's position in its A-MPDU (0: first)")
    ax.set_ylabel(TRACE_KINDS["mpdus"]["subframe_error"][0])
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    what = runs[0].label if not overlay else f"{len(runs)} runs"
    ax.set_title(title if title is not None else f"subframe error rate by position: {what}")
    notes = ["PPDUs answered by a BlockAck only; bars: 95 % Wilson intervals"]
    if failed:
        notes.append(f"{failed} failed run{'s' if failed != 1 else ''} excluded")
    _note(ax, notes)
    data.attrs["notes"] = notes
    return fig, data


def _empty_hint(kind: str) -> str:
    if kind == "packets":
        return " (the packets trace holds UDP packets; for TCP use --kind tcp_segments)"
    return ""


def _trace_notes(
    kind: str, y: str, data: pd.DataFrame, bin_s: float | None, end_s: float
) -> list[str]:
    if kind == "tcp" or y == "delay":
        return []
    if kind == "rates":
        return ["a line per sender and peer, from the first change of rate on"]
    if kind == "receptions":
        return ["a point per locked reception, per link (sender -> receiver)"]
    if kind == "positions":
        return ["a moving node's position at each frame it starts"]
    if kind == "interval":
        return ["goodput per report interval, from the run summary (measured time only)"]
    width = bin_s if bin_s is not None else _nice_bin(end_s)
    what = {
        "goodput": "payload bytes newly delivered" if kind == "packets" else "bytes newly acked",
        "airtime": "share of time transmitting",
        "throughput": "data frame bytes received",
    }.get(y, f"{y} events")
    return [f"{what} per {width:g} s bin"]


def _trace_series(
    kind: str, y: str, frame: pd.DataFrame, summary: Mapping[str, Any], edges: np.ndarray
) -> list[tuple[str, float, float]]:
    time_s = frame[_TIME_COLUMN[kind]].to_numpy(dtype=float) * 1e-9
    centers = (edges[:-1] + edges[1:]) / 2
    out: list[tuple[str, float, float]] = []

    def add(label: str, xs: np.ndarray, values: np.ndarray) -> None:
        out.extend((label, float(a), float(b)) for a, b in zip(xs, values, strict=True))

    if kind == "rates":
        frame = frame.assign(_t=time_s).sort_values("_t", kind="stable")
        for (node, peer), sub in frame.groupby(["node", "peer"], sort=True):
            label = f"{_node_label(summary, int(node))} -> {_node_label(summary, int(peer))}"
            t = np.append(sub["_t"].to_numpy(), edges[-1])  # the last rate holds to the end
            values = sub["rate_kbps"].to_numpy(dtype=float) * 1e-3
            add(label, t, np.append(values, values[-1]))
        return out

    if kind == "receptions":
        column = {"sinr": "min_sinr_db", "snr": "snr_db", "rx_power": "rx_dbm"}[y]
        frame = frame.assign(_t=time_s)
        for (src, node), sub in frame.groupby(["src", "node"], sort=True):
            label = f"{_node_label(summary, int(src))} -> {_node_label(summary, int(node))}"
            add(label, sub["_t"].to_numpy(), sub[column].to_numpy(dtype=float))
        return out

    if kind == "positions":
        frame = frame.assign(_t=time_s)
        for node, sub in frame.groupby("node", sort=True):
            if y == "distance":
                xyz = sub[["x_m", "y_m", "z_m"]].to_numpy(dtype=float)
                values = np.sqrt((xyz**2).sum(axis=1))
            else:
                values = sub[f"{y}_m"].to_numpy(dtype=float)
            add(_node_label(summary, int(node)), sub["_t"].to_numpy(), values)
        return out

    if kind == "mac_tx":
        frame = frame.assign(_t=time_s)
        for node, sub in frame.groupby("node", sort=True):
            label = _node_label(summary, int(node))
            if y == "airtime":
                # Split each transmission's airtime over the bins it overlaps.
                start = sub["start_ns"].to_numpy(dtype=float) * 1e-9
                end = sub["end_ns"].to_numpy(dtype=float) * 1e-9
                lo, hi = edges[:-1], edges[1:]
                busy = np.zeros(len(lo))
                for s, e in zip(start, end, strict=True):
                    busy += np.clip(np.minimum(hi, e) - np.maximum(lo, s), 0, None)
                add(label, centers, busy / np.diff(edges))
            else:
                ok = sub[(sub["kind"] == "data") & (sub["outcome"] == "ok")]
                bits = ok["bytes"].to_numpy(dtype=float) * 8
                add(label, centers, _rate(ok["_t"].to_numpy(), bits, edges) * 1e-6)
        return out

    frame = frame.assign(_t=time_s)
    for fl, sub in frame.groupby("flow", sort=True):
        label = _flow_label(summary, int(fl))
        sub = sub.sort_values("_t", kind="stable")
        t = sub["_t"].to_numpy()
        if kind == "tcp":
            values = sub[y].to_numpy(dtype=float)
            if y == "ssthresh":
                values = np.where(values >= _SSTHRESH_INFINITE, np.nan, values)
            elif y in ("srtt_ns", "rto_ns"):
                values = values * 1e-6
            elif y == "in_flight_bytes":
                values = values * 1e-3
            elif y == "pacing_rate_bps":
                values = values * 1e-6
            add(label, t, values)
        elif kind == "tcp_segments" and y == "goodput":
            acked = sub[sub["event"] == "acked"]
            cum = acked["ack"].to_numpy(dtype=float)
            newly = np.diff(np.maximum.accumulate(cum), prepend=cum[:1]) if cum.size else cum
            add(label, centers, _rate(acked["_t"].to_numpy(), newly * 8, edges) * 1e-6)
        elif kind == "tcp_segments":
            hits = sub[sub["event"] == y]
            add(label, centers, _rate(hits["_t"].to_numpy(), np.ones(len(hits)), edges))
        elif y == "delay":
            delay = (sub["delivered_ns"] - sub["created_ns"]).to_numpy(dtype=float) * 1e-6
            add(label, t, delay)
        else:  # packets goodput: every packet of a UDP flow carries the same payload
            add(
                label,
                centers,
                _rate(t, np.full(len(t), 8.0 * _payload(summary, int(fl))), edges) * 1e-6,
            )
    return out


def _payload(summary: Mapping[str, Any], flow: int) -> float:
    """Payload bytes per packet of a flow: delivered bytes / delivered packets (summary)."""
    flows = summary.get("flows", [])
    f = flows[flow] if 0 <= flow < len(flows) else {}
    packets, size = f.get("delivered_packets"), f.get("delivered_bytes")
    if not packets or not isinstance(size, int | float):
        raise PlotError(
            f"flow {flow}: the summary has no delivered packets to size its payload from"
        )
    return float(size) / float(packets)


def _interval_series(r: _Run, flow: int | None) -> list[tuple[str, float, float]]:
    flows = r.summary.get("flows", [])
    chosen = range(len(flows)) if flow is None else [flow]
    if flow is not None and not 0 <= flow < len(flows):
        raise PlotError(f"--flow {flow}: the run has flows 0..{len(flows) - 1}")
    sim = float(r.summary.get("sim_seconds") or 0.0)
    warmup = sim - float(r.summary.get("measured_seconds") or sim)
    out: list[tuple[str, float, float]] = []
    for i in chosen:
        rates = flows[i].get("interval_goodput_bps")
        if not rates:
            continue
        every = _report_interval_s(r, i, len(rates))
        for k, v in enumerate(rates):
            lo = warmup + k * every
            hi = min(lo + every, sim) if sim else lo + every
            out.append((_flow_label(r.summary, i), (lo + hi) / 2, float(v) * 1e-6))
    if not out:
        raise PlotError(
            f"no interval goodput in the summary of {r.label} (set report_interval_s, "
            "e.g. --set report_interval_s=0.1)"
        )
    return out
