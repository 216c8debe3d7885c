"""Sweeps: a base scenario, a parameter grid and replications, run once each and stored.

From Python, ``airtcp.sweep(scenario, grid, seeds=5, store="results/x")`` runs a scenario over
a grid and returns one row per run as a pandas DataFrame, resuming the store (:func:`sweep`;
this module is callable: the machinery below keeps its names, ``airtcp.sweep.read_runs``).

A sweep file (TOML)::

    base = "chain-tcp.toml"          # a scenario file, relative to the sweep file
    seed = 1                         # the sweep seed
    replications = 3
    [grid]                           # the cartesian product of these
    hops = [3, 5]
    retry_limit = {start = 1, stop = 9, step = 2}      # a range, stop included
    [[zip]]                          # values that move together (one grid axis)
    cc = ["newreno", "cubic"]
    recovery = ["newreno", "sack"]

The command line's ``--grid KEY=V1,V2,...`` adds an axis to ``[grid]`` or replaces the axis of
that key (``parse_grid_options``); a scenario file stands for a sweep of one replication, seed 1,
whose base it is, so ``airtcp sweep scenario.toml --grid spacing_m=10,20`` needs no sweep file.

Every run is the base with the run's values applied as `--set`-style dotted overrides. Its
seed derives from the sweep seed, the run's canonical world spec and the replication index, so
adding a grid value never changes the seeds of the other runs; its hash (`run_hash`) names its
stored row. Rows are written atomically (temporary file, then rename), one file per run, so a
rerun skips what is stored and a killed sweep loses at most the runs in flight.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import json
import logging
import math
import os
import sys
import tomllib
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from airtcp import __version__
from airtcp.config import Scenario, ScenarioError, apply_value_overrides, check_plain, load_toml
from airtcp.config.load import read_toml_text
from airtcp.config.scan import check_toml_text
from airtcp.outpath import OutputExistsError, atomic_file, check_out_dir, claim_directory
from airtcp.result import flatten

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "RunSpec",
    "SweepError",
    "SweepSpec",
    "expand",
    "load_sweep",
    "parse_grid_options",
    "run_sweep",
    "sweep",
]


class SweepError(ValueError):
    """A bad sweep file: the message names the field, the value and what is allowed."""


@dataclass(frozen=True)
class SweepSpec:
    base: dict[str, Any]
    grid: dict[str, list[Any]]
    zips: list[dict[str, list[Any]]]
    replications: int
    seed: int
    # Swept keys (grid or zip) whose values share seeds (common random numbers): runs that
    # differ only in these get the same seed, so a comparison across them is paired. A zip
    # key pairs its whole zip.
    paired: tuple[str, ...] = ()
    # Explicit run seeds (``airtcp.sweep(..., seeds=[1, 2, 3])``): every grid point runs once
    # with each, replication i with seeds[i], as ``airtcp run --seed`` would; `seed`,
    # `replications` and `paired` then play no part. Empty: seeds derived as above.
    seeds: tuple[int, ...] = ()


@dataclass(frozen=True)
class RunSpec:
    """One run of a sweep: its parameters, its scenario, its seed and its hash."""

    params: dict[str, Any]
    replication: int
    config: dict[str, Any]
    seed: int
    run_hash: str


# Most runs one sweep may expand to (grid x zips x replications): 10^5 runs of a few kB of
# configuration each stay within a few hundred MB while they are validated and scheduled.
MAX_RUNS = 100_000
# Most worker processes (more than the runs to do are never started).
MAX_WORKERS = 1024
_SWEEP_FIELDS = ("base", "seed", "replications", "grid", "zip", "paired")


def _key(key: str, limit: int = 60) -> str:
    """A key for a message, cut to ``limit`` characters."""
    return key if len(key) <= limit else f"{key[: limit - 3]}... ({len(key)} characters)"


def _short(value: Any, limit: int = 60) -> str:
    """A value for a message: its repr, cut to ``limit`` characters."""
    return _key(repr(value), limit)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _values(key: str, v: Any, where: str | None = None) -> list[Any]:
    where = where or f"grid.{_key(key)}"
    if isinstance(v, list):
        if not v:
            raise SweepError(f"{where}: empty list (allowed: a non-empty list or a range)")
        if len(v) > MAX_RUNS:
            raise SweepError(f"{where}: {len(v)} values (allowed: at most {MAX_RUNS})")
        _check_values(where, v)
        return v
    if isinstance(v, dict) and set(v) <= {"start", "stop", "step"} and {"start", "stop"} <= set(v):
        start, stop, step = v["start"], v["stop"], v.get("step", 1)
        if not all(_is_number(x) and math.isfinite(x) for x in (start, stop, step)) or step <= 0:
            raise SweepError(
                f"{where}: {_short(v)} (allowed: finite numbers start, stop and step > 0)"
            )
        count = math.floor((stop - start) / step + 1e-9) + 1 if stop >= start else 0
        if count < 1:
            raise SweepError(f"{where}: {_short(v)} holds no value (allowed: start <= stop)")
        if count > MAX_RUNS:
            raise SweepError(
                f"{where}: {_short(v)} holds {count} values (allowed: at most {MAX_RUNS})"
            )
        out, x = [], start
        while x <= stop + 1e-12:
            out.append(round(x, 12) if isinstance(x, float) else x)
            x += step
        return out
    raise SweepError(
        f"{where}: {_short(v)} (allowed: a list of values or {{start, stop, step}}, stop included)"
    )


def _check_values(where: str, values: list[Any]) -> None:
    """Swept values must be plain TOML data with finite numbers (they become JSON columns)."""
    for value in values:
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            raise SweepError(
                f"{where}: {_short(value)} (allowed: finite numbers, strings, booleans, arrays "
                "and tables; no dates, no nan or inf)"
            ) from None


def _read_toml(p: Path, what: str) -> dict[str, Any]:
    """A TOML file as a dict; SweepError naming ``what`` when it cannot be read. It is bounded
    as a scenario file is: a regular file of at most MAX_TOML_BYTES, its text bounded before
    it is parsed (airtcp.config.scan)."""
    try:
        text = read_toml_text(p, what)
        check_toml_text(text, str(p))
    except FileNotFoundError:
        raise SweepError(f"{p}: no such {what}") from None
    except ScenarioError as exc:
        raise SweepError(str(exc)) from None
    except OSError as exc:
        raise SweepError(f"{p}: cannot read the {what} ({exc.strerror or exc})") from None
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise SweepError(f"{p}: invalid TOML: nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        raise SweepError(f"{p}: invalid TOML: {exc}") from None


_GRID_EXAMPLE = "KEY=V1,V2,..., e.g. retry_limit=1,3,7 or cc=cubic,westwood"


def _split_values(text: str) -> list[str]:
    """``text`` split at the commas outside quotes, brackets and braces (``[1, 2],[3]`` is two
    values); each part stripped."""
    parts, depth, quote, start = [], 0, "", 0
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1  # an escaped character inside a basic string
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    parts.append(text[start:].strip())
    return parts


def parse_grid_options(items: Sequence[str]) -> dict[str, list[Any]]:
    """The axes of ``--grid KEY=V1,V2,...`` options, in order: each value a TOML value read as
    ``--set`` reads one (``3``, ``2.5``, ``true``, ``"text"``, ``[1, 2]``; text that is not
    TOML, or that goes into a text field, as a string), split at commas outside quotes and
    brackets. SweepError naming the option, the value and what is allowed."""
    from airtcp.config import parse_override_value

    axes: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = str(item).partition("=")
        key = key.strip()
        if not sep or not key:
            raise SweepError(
                f"--grid {_short(str(item))}: not KEY=V1,V2,... (allowed: {_GRID_EXAMPLE})"
            )
        where = f"--grid {_key(key)}"
        if key in axes:
            raise SweepError(
                f"{where}: given twice (allowed: each key once, all its values in one --grid)"
            )
        if not text.strip():
            raise SweepError(f"{where}: no values (allowed: {_GRID_EXAMPLE})")
        parts = _split_values(text)
        if len(parts) > MAX_RUNS:
            raise SweepError(f"{where}: {len(parts)} values (allowed: at most {MAX_RUNS})")
        values = []
        for n, part in enumerate(parts):
            if not part:
                raise SweepError(
                    f"{where}: value {n + 1} of {_short(text)} is empty (allowed: {_GRID_EXAMPLE})"
                )
            try:
                values.append(parse_override_value(key, part))
            except ScenarioError as exc:
                raise SweepError(str(exc).replace("--set ", "--grid ", 1)) from None
        axes[key] = _values(key, values, where)
    return axes


def load_sweep(path: str | Path, grid: Sequence[str] = ()) -> SweepSpec:
    """Read and check a sweep file, with the axes of ``--grid`` options (``grid``) added to its
    ``[grid]`` or replacing the axis of the same key. A file with none of a sweep file's fields
    is a scenario: the base of a sweep of one replication, seed 1, over the ``--grid`` axes."""
    p = Path(path)
    extra = parse_grid_options(grid)
    raw = _read_toml(p, "sweep file")
    if not set(raw) & set(_SWEEP_FIELDS):
        raw = {"base": p.name}  # a scenario file: read as the base, from its own directory
    unknown = sorted(set(raw) - set(_SWEEP_FIELDS))
    if unknown:
        raise SweepError(
            f"{_key(unknown[0])}: unknown field (allowed: {', '.join(sorted(_SWEEP_FIELDS))})"
        )
    base_v = raw.get("base")
    if isinstance(base_v, str):
        try:
            base = load_toml(p.parent / base_v)
        except FileNotFoundError:
            raise SweepError(f"base: {p.parent / base_v}: no such scenario file") from None
        except ScenarioError as exc:
            raise SweepError(f"base: {exc}") from None
        except OSError as exc:
            raise SweepError(f"base: {p.parent / base_v}: cannot read ({exc.strerror})") from None
    elif isinstance(base_v, dict):
        base = base_v
    else:
        raise SweepError(
            f"base: {_short(base_v)} (allowed: a scenario file path or an inline table)"
        )
    try:
        check_plain(base, "base")
    except ScenarioError as exc:
        raise SweepError(str(exc)) from None
    reps = raw.get("replications", 1)
    seed = raw.get("seed", 1)
    if isinstance(reps, bool) or not isinstance(reps, int) or not 1 <= reps <= MAX_RUNS:
        raise SweepError(f"replications: {_short(reps)} (allowed: integer 1..{MAX_RUNS})")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise SweepError(f"seed: {_short(seed)} (allowed: integer 0..2^63-1)")
    grid_v = raw.get("grid", {})
    if not isinstance(grid_v, dict):
        raise SweepError(f"grid: {_short(grid_v)} (allowed: a table of parameter = list or range)")
    grid = {k: _values(k, v) for k, v in grid_v.items()}
    grid.update(extra)  # a --grid axis replaces the file's axis of its key, keeping its place
    zips_v = raw.get("zip", [])
    if not isinstance(zips_v, list):
        raise SweepError(f"zip: {_short(zips_v)} (allowed: an array of tables [[zip]])")
    for i, z in enumerate(zips_v):
        zipped = sorted(set(extra) & set(z if isinstance(z, dict) else {}))
        if zipped:
            raise SweepError(
                f"--grid {_key(zipped[0])}: swept in zip.{i} of {p.name}, whose values move "
                "together (allowed: a key of its [grid] or one it does not sweep; change the "
                "zip in the file)"
            )
    zips = []
    seen = {k: "grid" for k in grid}
    for i, z in enumerate(zips_v):
        if not isinstance(z, dict) or not z or not all(isinstance(v, list) for v in z.values()):
            raise SweepError(f"zip.{i}: {_short(z)} (allowed: a table of equally long lists)")
        lengths = {len(v) for v in z.values()}
        if len(lengths) != 1:
            raise SweepError(
                f"zip.{i}: lists of lengths {sorted(lengths)} (allowed: equal lengths)"
            )
        if lengths == {0}:
            raise SweepError(f"zip.{i}: empty lists (allowed: lists of at least one value)")
        for k, v in z.items():
            _check_values(f"zip.{i}.{_key(k)}", v)
        for k in z:
            if k in seen:
                raise SweepError(
                    f"zip.{i}.{_key(k)}: already swept in {seen[k]} (allowed: each parameter "
                    "in one place: the grid or one zip)"
                )
            seen[k] = f"zip.{i}"
        zips.append(dict(z))
    total = reps
    for n in [*(len(v) for v in grid.values()), *(len(next(iter(z.values()))) for z in zips)]:
        total *= n
    if total > MAX_RUNS:
        raise SweepError(
            f"the sweep expands to {total} runs (grid x zips x replications; allowed: at most "
            f"{MAX_RUNS}): split it into several sweeps"
        )
    paired_v = raw.get("paired", [])
    if not isinstance(paired_v, list) or not all(isinstance(k, str) for k in paired_v):
        raise SweepError(f"paired: {_short(paired_v)} (allowed: an array of swept keys)")
    for k in paired_v:
        if k not in seen:
            raise SweepError(
                f"paired: {_short(k)} is not swept (allowed: {', '.join(seen) or 'none'})"
            )
    return SweepSpec(
        base=base, grid=grid, zips=zips, replications=reps, seed=seed, paired=tuple(paired_v)
    )


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def expand(spec: SweepSpec) -> list[RunSpec]:
    """Every run of the sweep, in a stable order; each config validated."""
    axes: list[list[dict[str, Any]]] = [[{k: v} for v in vals] for k, vals in spec.grid.items()]
    for z in spec.zips:
        n = len(next(iter(z.values())))
        axes.append([{k: vals[i] for k, vals in z.items()} for i in range(n)])
    first: dict[str, Any] = {}  # the paired keys' first values (a zip key: its whole zip's)
    for k in spec.paired:
        if k in spec.grid:
            first[k] = spec.grid[k][0]
            continue
        z = next((z for z in spec.zips if k in z), None)
        if z is None:
            raise SweepError(f"paired: {_short(k)} is not swept")
        first.update({zk: vals[0] for zk, vals in z.items()})
    runs = []
    seed_specs: dict[str, str] = {}  # the canonical spec seeds derive from, by its parameters
    for combo in itertools.product(*axes) if axes else [()]:
        params: dict[str, Any] = {}
        for part in combo:
            params.update(part)
        # A paired key takes its first value for the seed: the runs that differ only in
        # paired keys share seeds (common random numbers).
        seeding = {**params, **first}
        try:
            config = apply_value_overrides(spec.base, params)
            canonical = Scenario.from_dict(config).spec_json()
            key = json.dumps(seeding, sort_keys=True)
            if key not in seed_specs:
                seed_specs[key] = (
                    canonical
                    if seeding == params
                    else Scenario.from_dict(apply_value_overrides(spec.base, seeding)).spec_json()
                )
        except ScenarioError as exc:
            label = _short(params, 200)  # a cut one keeps its closing brace: "run {...}: "
            raise SweepError(
                f"run {label if label.endswith('}') else label + '}'}: {exc}"
            ) from None
        for rep in range(len(spec.seeds) or spec.replications):
            # The seed: from the sweep seed, the canonical spec of the run with its paired keys
            # at their first values, and the replication; or the explicit seed as given.
            seed = (
                spec.seeds[rep]
                if spec.seeds
                else int(_digest(str(spec.seed), seed_specs[key], str(rep))[:15], 16)
            )
            run_hash = _digest(canonical, str(seed), __version__)[:32]
            runs.append(RunSpec(params, rep, config, seed, run_hash))
    return runs


def _execute(run: RunSpec) -> tuple[dict[str, Any], dict[str, pa.Table]]:
    """Run one configuration: its row and its traces. Never raises (a failure becomes an
    `error` row with no traces)."""
    from airtcp.run import run as run_one

    row: dict[str, Any] = {
        "run_hash": run.run_hash,
        "seed": run.seed,
        "replication": run.replication,
        "airtcp_version": __version__,
        "params": json.dumps(run.params, sort_keys=True),
        **{f"param.{k}": v for k, v in run.params.items()},
        **{f"config.{k}": v for k, v in flatten(run.config, ".", lists_as_json=True).items()},
    }
    traces: dict[str, pa.Table] = {}
    try:
        result = run_one(run.config, seed=run.seed)
        s = result.summary
        traces = result.traces
        row["error"] = None
        row["summary_json"] = json.dumps(s, sort_keys=True)
        row.update({f"totals.{k}": v for k, v in s["totals"].items()})
        row["wall_seconds"] = s["wall_seconds"]
        row["events"] = s["events"]
        for i, f in enumerate(s["flows"]):
            row[f"flow{i}.goodput_bps"] = f["goodput_bps"]
    except Exception as exc:  # a failed run is a result too
        row["error"] = f"{type(exc).__name__}: {exc}"
        row["traceback"] = traceback.format_exc(limit=5)
        traces = {}
    return row, traces


def _row_path(out: Path, run_hash: str) -> Path:
    # Partitioned by the hash's first two hex digits: at most 256 directories of rows.
    return out / "runs" / run_hash[:2] / f"{run_hash}.parquet"


def _trace_path(out: Path, kind: str, run_hash: str) -> Path:
    return out / "traces" / kind / run_hash[:2] / f"{run_hash}.parquet"


def _write_atomic(path: Path, table: pa.Table) -> None:
    """Write `table` to `path` atomically: a temporary file in the same directory, then rename."""
    with atomic_file(path) as tmp:
        pq.write_table(table, tmp)


def _write_row(
    out: Path, row: dict[str, Any], traces: Mapping[str, pa.Table] | None = None
) -> None:
    """Store one run: its traces first, then its row. The row is the commit mark: a run
    counts as stored only once its row exists, so a kill between the two leaves trace files
    that the store's views ignore and a rerun overwrites."""
    run_hash = row["run_hash"]
    for kind, table in (traces or {}).items():
        if not kind.isidentifier():
            raise ValueError(f"trace kind {kind!r} cannot name a view")
        keyed = table.add_column(0, "run_hash", pa.array([run_hash] * table.num_rows, pa.string()))
        _write_atomic(_trace_path(out, kind, run_hash), keyed)
    _write_atomic(_row_path(out, run_hash), pa.Table.from_pylist([row]))


def _complete(path: Path) -> bool:
    """A Parquet file that ends with its footer magic (a truncated one is run again)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(-4, os.SEEK_END)
            return fh.read(4) == b"PAR1"
    except OSError:
        return False


def stored_hashes(out: str | Path) -> set[str]:
    """Hashes of the runs already stored under `out` (complete files only)."""
    root = Path(out) / "runs"
    if not root.is_dir():
        return set()
    return {p.stem for p in root.glob("*/*.parquet") if not p.name.startswith(".") and _complete(p)}


def _remove_leftovers(out: Path) -> int:
    """Remove the temporary files of a sweep killed mid-write (`.tmp-*` beside rows and
    traces); return how many. Only airtcp's own temporary names are touched."""
    removed = 0
    for pattern in ("runs/*/.tmp-*.parquet", "traces/*/*/.tmp-*.parquet"):
        for p in out.glob(pattern):
            p.unlink(missing_ok=True)
            removed += 1
    return removed


def check_executor(
    out: str | Path, workers: int | None, dask: str | None, dask_local: int | None
) -> None:
    """SweepError unless the executor settings are allowed and ``out`` can hold the store
    (checked before anything runs; the store is created with the first stored run)."""
    if dask is not None and dask_local is not None:
        raise SweepError("executor: give either a Dask scheduler address or --dask-local, not both")
    if dask_local is not None and not 1 <= dask_local <= MAX_WORKERS:
        raise SweepError(f"dask_local: {dask_local!r} (allowed: integer 1..{MAX_WORKERS})")
    if workers is not None and not 0 <= workers <= MAX_WORKERS:
        raise SweepError(f"workers: {workers!r} (allowed: integer 0..{MAX_WORKERS}; 0 = all cores)")
    try:
        check_out_dir(out, "sweep")
    except OutputExistsError as exc:
        raise SweepError(str(exc)) from None


def run_sweep(
    spec: SweepSpec,
    out: str | Path,
    *,
    workers: int | None = None,
    dask: str | None = None,
    dask_local: int | None = None,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[int, int]:
    """Run every run of `spec` not yet stored under `out`; return (ran, skipped).

    Executors: a local process pool of `workers` (default: all cores); or Dask distributed,
    either the scheduler at address `dask` (``tcp://host:8786``) or a LocalCluster of
    `dask_local` worker processes started for the sweep. Runs execute on the workers; rows and
    traces are written here, by this process, so the store needs no shared file system.
    Every executor stores the same rows: a run is a pure function of its config and seed.
    """
    check_executor(out, workers, dask, dask_local)
    return _run_missing(
        expand(spec), out, workers=workers, dask=dask, dask_local=dask_local, on_done=on_done
    )


def _run_missing(
    runs: Sequence[RunSpec],
    out: str | Path,
    *,
    workers: int | None = None,
    dask: str | None = None,
    dask_local: int | None = None,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[int, int]:
    """Run and store each of ``runs`` not yet stored under ``out`` (checked by
    :func:`check_executor`); return (ran, skipped)."""
    out = Path(out)
    if out.is_dir():
        _remove_leftovers(out)
    done = stored_hashes(out)
    # Each run once: two grid points that give the same run (the same spec and seed) share it.
    todo = list({r.run_hash: r for r in runs if r.run_hash not in done}.values())
    claimed = False

    def store(result: tuple[dict[str, Any], dict[str, pa.Table]]) -> None:
        nonlocal claimed
        row, traces = result
        try:
            if not claimed:
                claim_directory(out, "sweep")
                claimed = True
            _write_row(out, row, traces)
        except OutputExistsError as exc:
            raise SweepError(str(exc)) from None
        except OSError as exc:
            raise SweepError(f"--out {out}: cannot store a run ({exc.strerror or exc})") from None
        if on_done:
            on_done(row)

    if dask is not None or dask_local is not None:
        _run_dask(todo, store, address=dask, local_workers=dask_local)
        return len(todo), len(runs) - len(todo)
    workers = min(workers or os.cpu_count() or 1, max(len(todo), 1))
    if workers == 1:
        for r in todo:
            store(_execute(r))
    else:
        with worker_pool(workers) as pool:
            futures = [pool.submit(_execute, r) for r in todo]
            for fut in as_completed(futures):
                store(fut.result())
    return len(todo), len(runs) - len(todo)


def _end_with_parent(parent: int) -> None:
    """A worker's guard: it ends when the process that started it is gone. A forked worker
    holds both ends of its task pipe, so the parent's death (``kill -9`` of ``airtcp sweep``)
    brings it no end of file and it would wait forever."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="airtcp-parent-watch", daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that end with this one (:func:`_end_with_parent`)."""
    return ProcessPoolExecutor(
        max_workers=workers, initializer=_end_with_parent, initargs=(os.getpid(),)
    )


# How long to try reaching a Dask scheduler before giving up [s].
_DASK_CONNECT_TIMEOUT_S = 10
# Most runs in one Dask task.
_DASK_MAX_CHUNK = 8


def _execute_chunk(
    runs: list[RunSpec], version: str
) -> list[tuple[dict[str, Any], dict[str, pa.Table]]]:
    """Run `runs` on a Dask worker, which must have the sweep's airtcp `version` (the run hash
    includes it): a worker with another version stops the sweep, storing nothing."""
    if version != __version__:
        raise SweepError(
            f"dask: a worker runs airtcp {__version__}, the sweep airtcp {version} "
            "(allowed: the same version on every worker)"
        )
    return [_execute(r) for r in runs]


def _run_dask(
    todo: list[RunSpec],
    store: Callable[[tuple[dict[str, Any], dict[str, pa.Table]]], None],
    *,
    address: str | None,
    local_workers: int | None,
) -> None:
    """Run `todo` on Dask: a scheduler at `address`, or a LocalCluster of `local_workers`."""
    import distributed

    # Dask logs every worker start and stop at INFO; the progress bar says what matters.
    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(max(level, logging.WARNING))
    cluster = None
    try:
        if address is None:
            # One single-threaded process per worker: the core holds the GIL while it runs.
            cluster = distributed.LocalCluster(
                n_workers=local_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never clash with a running cluster
                silence_logs=logging.WARNING,
            )
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(address, timeout=_DASK_CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError) as exc:
                raise SweepError(
                    f"dask: cannot reach the scheduler at {address!r} ({exc}; allowed: the "
                    "address a running `dask scheduler` prints, e.g. tcp://host:8786)"
                ) from None
        with client:
            # Runs go out in chunks (a few per worker per round) so Dask's per-task cost, a few
            # ms, is paid once per chunk; a kill loses at most the chunks in flight.
            n_workers = max(1, len(client.scheduler_info().get("workers", {})))
            size = max(1, min(_DASK_MAX_CHUNK, len(todo) // (4 * n_workers)))
            chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
            futures = [
                # The first run hash names the task: a chunk submitted twice is computed once.
                client.submit(
                    _execute_chunk, c, __version__, key=f"airtcp-runs-{c[0].run_hash}", pure=False
                )
                for c in chunks
            ]
            for fut in distributed.as_completed(futures):
                for result in fut.result():
                    store(result)
                fut.release()
    finally:
        if cluster is not None:
            cluster.close()
        log.setLevel(level)


def read_runs(out: str | Path) -> pa.Table:
    """Every stored row as one Arrow table (missing columns null), in run-hash order."""
    files = sorted(Path(out).glob("runs/*/*.parquet"), key=lambda p: p.stem)
    rows: list[dict[str, Any]] = []
    for f in files:
        if not f.name.startswith("."):
            rows.extend(pq.read_table(f).to_pylist())
    # The union of every row's columns, in first-seen order (a failed run has no metrics).
    columns: dict[str, None] = {}
    for r in rows:
        columns.update(dict.fromkeys(r))
    return pa.Table.from_pylist([{c: r.get(c) for c in columns} for r in rows])


# ---------------------------------------------------------------------------------------------
# airtcp.sweep(...): a sweep from Python, returned as a pandas DataFrame

# Largest explicit run seed: the store keeps seeds as signed 64-bit integers.
_MAX_EXPLICIT_SEED = 2**63 - 1
_SEEDS_ALLOWED = (
    f"a number of replications 1..{MAX_RUNS}, each with a seed derived as `airtcp sweep` "
    "derives it, or a non-empty list of distinct run seeds 0..2^63-1"
)
# The columns of sweep()'s DataFrame come in this order, by their first matching prefix; the
# rest (airtcp_version, params, config.*, summary_json, traceback) after them.
_FRAME_ORDER = ("run_hash", "seed", "replication", "param.", "totals.", "flow", "events")
_FRAME_ORDER += ("wall_seconds", "error")
# A flow's figures that come first among its columns (then the others, sorted).
_FLOW_FIRST = ("kind", "src", "dst", "goodput_bps", "active_goodput_bps", "loss_ratio")
_FLOW_FIRST += ("mean_delay_s", "transfer_throughput_bps", "delivered_packets", "lost_packets")
_FLOW_FIRST += ("tcp.retransmissions", "tcp.timeouts", "tcp.rtt_mean_s")


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python number it holds (an axis from numpy.linspace)."""
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return value.item()
    return value


def _as_list(value: Any) -> Any:
    """A tuple, range, NumPy array or pandas Series as a list of plain values; else ``value``."""
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):
        value = value.tolist()
    if isinstance(value, tuple | range):
        value = list(value)
    return [_plain(v) for v in value] if isinstance(value, list) else _plain(value)


def _frame_base(scenario: Any) -> dict[str, Any]:
    """The scenario ``airtcp.sweep`` was given (a path, a dict or a Scenario) as a dict."""
    if isinstance(scenario, Scenario):
        # What the user set, not the defaults: re-validated, it gives the same scenario.
        return scenario.model_dump(mode="python", exclude_unset=True)
    if isinstance(scenario, str | os.PathLike):
        what = str(scenario)
        try:
            data = load_toml(scenario)
        except FileNotFoundError:
            raise ScenarioError(f"scenario: {what}: no such scenario file") from None
        except OSError as exc:
            raise ScenarioError(f"scenario: {what}: cannot read ({exc.strerror or exc})") from None
    elif isinstance(scenario, Mapping):
        check_plain(scenario, "scenario")
        what, data = "the dict", dict(scenario)
    else:
        raise ScenarioError(
            f"scenario: a {type(scenario).__name__} (allowed: a scenario file's path, a dict "
            "or an airtcp.Scenario)"
        )
    fields = [k for k in _SWEEP_FIELDS if k in data]
    if fields:
        raise ScenarioError(
            f"scenario: {what} is a sweep file (it has {', '.join(fields)}; allowed: a "
            "scenario: pass the sweep file's base with grid= and seeds=, or run the file with "
            "`airtcp sweep`)"
        )
    return data


def _frame_axis(key: Any, values: Any) -> list[Any]:
    """One axis of ``grid=``: a list (tuple, range, array) of values, or a range as a dict
    ``{"start", "stop", "step"}`` (stop included), checked as a sweep file's."""
    if not isinstance(key, str) or not key.strip():
        raise ScenarioError(
            f"grid: key {_short(key)} (allowed: a dotted scenario key, e.g. 'stations' or "
            "'mac.short_retry_limit')"
        )
    where = f"grid[{_short(key)}]"
    values = _as_list(values)
    if not isinstance(values, list | dict):
        raise ScenarioError(
            f"{where}: {_short(values)} (allowed: a list of values, e.g. [1, 5, 10], or "
            "{'start': 1, 'stop': 9, 'step': 2})"
        )
    try:
        return _values(key, values, where)
    except SweepError as exc:
        raise ScenarioError(str(exc)) from None


def _frame_seeds(seeds: Any) -> tuple[int, tuple[int, ...]]:
    """(replications, explicit seeds) of ``seeds=``: a count (seeds derived) or a list."""
    seeds = _as_list(seeds)
    if isinstance(seeds, int) and not isinstance(seeds, bool):
        if not 1 <= seeds <= MAX_RUNS:
            raise ScenarioError(f"seeds: {seeds} (allowed: {_SEEDS_ALLOWED})")
        return seeds, ()
    if not isinstance(seeds, list) or not seeds:
        raise ScenarioError(f"seeds: {_short(seeds)} (allowed: {_SEEDS_ALLOWED})")
    seen: set[int] = set()
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= _MAX_EXPLICIT_SEED:
            raise ScenarioError(f"seeds: {_short(s)} in the list (allowed: {_SEEDS_ALLOWED})")
        if s in seen:
            raise ScenarioError(f"seeds: {s} given twice (allowed: {_SEEDS_ALLOWED})")
        seen.add(s)
    if len(seeds) > MAX_RUNS:
        raise ScenarioError(f"seeds: {len(seeds)} seeds (allowed: at most {MAX_RUNS})")
    return len(seeds), tuple(seeds)


def _frame_record(run: RunSpec, row: Mapping[str, Any]) -> dict[str, Any]:
    """One run's row of the DataFrame: the stored row, with this sweep's parameters and
    replication (a run stored by another sweep keeps its row) and each flow's figures."""
    rec: dict[str, Any] = {"run_hash": run.run_hash, "seed": run.seed}
    rec["replication"] = run.replication
    rec.update({f"param.{k}": v for k, v in run.params.items()})
    rec.update((k, v) for k, v in row.items() if k.startswith("totals."))
    summary = json.loads(row["summary_json"]) if row.get("summary_json") else {}
    for i, flow in enumerate(summary.get("flows", [])):
        figures = flatten(flow, ".")
        # The stored summary's keys are sorted: the main figures first, then the others.
        for k in sorted(figures, key=lambda k: _FLOW_FIRST.index(k) if k in _FLOW_FIRST else 99):
            if k != "id" and not isinstance(figures[k], list):
                rec[f"flow{i}.{k}"] = figures[k]  # flow<i>.goodput_bps as stored, and the rest
    rec["params"] = json.dumps(run.params, sort_keys=True)
    for k, v in row.items():
        if not k.startswith("param.") and k not in ("params", "replication"):
            rec.setdefault(k, v)
    return rec


def _frame_rank(column: str) -> int:
    return next((i for i, p in enumerate(_FRAME_ORDER) if column.startswith(p)), len(_FRAME_ORDER))


def sweep(
    scenario: Scenario | Mapping[str, Any] | str | os.PathLike[str],
    grid: Mapping[str, Any] | None = None,
    *,
    seeds: int | Sequence[int] = 1,
    store: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    overrides: Mapping[str, object] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Run ``scenario`` over the cartesian product of ``grid``, each point with ``seeds``, and
    return one row per run as a pandas DataFrame; runs already in ``store`` are read, not run.

    - ``scenario``: a scenario file's path, a dict or a :class:`~airtcp.Scenario`, as
      :func:`airtcp.run` takes; ``overrides`` (dotted keys, Python values) apply to it first.
    - ``grid``: ``{dotted key: values}``; values a list (tuple, range, NumPy array) or a range
      ``{"start": 1, "stop": 9, "step": 2}`` (stop included). A key is in ``grid`` or in
      ``overrides``, not both. None: one point.
    - ``seeds``: an integer N runs each point N times (replications 0..N-1), each with a seed
      derived as ``airtcp sweep`` derives it: from sweep seed 1, the run's canonical world spec
      and the replication, so the same point and replication always get the same seed, points
      get independent seeds, and a larger N keeps the first runs. A list runs each point once
      with each seed as given (``seeds=[1, 2, 3]``), as ``airtcp run --seed`` does. Either
      way the ``seed`` column is the run's seed: ``airtcp.run(scenario, seed=row.seed,
      overrides={**overrides, **params})`` (or ``airtcp run FILE --seed S --set ...``) gives
      the same result, bit for bit.
    - ``store``: a sweep store directory (new, empty, or one airtcp made; ``airtcp sweep
      --out`` stores read the same). A run whose row is stored is read, not run again, so a
      rerun after a crash or with more grid values or seeds runs only the missing runs. None:
      a temporary store, removed before returning (its traces with it).
    - ``workers``: worker processes; None or 0: all cores.
    - ``progress(done, total)``: called after each run that is computed (not read), with the
      runs computed so far and the runs this call computes.

    Columns, in this order: ``run_hash``, ``seed``, ``replication``, ``param.<key>`` per grid
    key, ``totals.*``, ``flow<i>.*`` (each flow's figures from the summary: ``goodput_bps``,
    ``active_goodput_bps``, ``loss_ratio``, ``mean_delay_s``, ``tcp.retransmissions``,
    ``tcp.rtt_mean_s``, ...), ``events``, ``wall_seconds``, ``error`` (None unless the run
    failed), then ``airtcp_version``, ``params`` (JSON), ``config.*`` (the whole scenario) and
    ``summary_json`` (the whole summary): the columns of ``airtcp.store.open`` and
    ``airtcp query``, with the flows' figures added. Rows come in grid order (the first key
    varies slowest), the replications of a point together. ``DataFrame.attrs`` holds ``store``
    (None for a temporary one), ``computed`` and ``stored`` (runs run and runs read).

    Raises :class:`~airtcp.ScenarioError` naming the argument, the value and what is allowed,
    before anything runs: every run's scenario is validated first.
    """
    import contextlib
    import tempfile

    import pandas as pd

    base = _frame_base(scenario)
    if overrides is not None:
        if not isinstance(overrides, Mapping):
            raise ScenarioError(
                f"overrides: {_short(overrides)} (allowed: a dict of dotted keys to values, "
                "e.g. {'duration_s': 5, 'mac.short_retry_limit': 3})"
            )
        base = apply_value_overrides(base, overrides)
    if grid is not None and not isinstance(grid, Mapping):
        raise ScenarioError(
            f"grid: {_short(grid)} (allowed: a dict of dotted keys to lists of values, e.g. "
            "{'stations': [1, 5, 10], 'cc': ['reno', 'cubic']})"
        )
    axes = {key: _frame_axis(key, values) for key, values in (grid or {}).items()}
    both = [k for k in axes if k in (overrides or {})]
    if both:
        raise ScenarioError(
            f"grid[{_short(both[0])}]: also in overrides (allowed: each key in one of them)"
        )
    replications, explicit = _frame_seeds(seeds)
    total = math.prod(len(v) for v in axes.values()) * replications
    if total > MAX_RUNS:
        raise ScenarioError(
            f"grid and seeds: {total} runs (allowed: at most {MAX_RUNS}): split the study "
            "into several calls into the same store"
        )
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)):
        raise ScenarioError(
            f"workers: {_short(workers)} (allowed: None or an integer 0..{MAX_WORKERS}; "
            "None and 0: all cores)"
        )
    if store is not None and not isinstance(store, str | os.PathLike):
        raise ScenarioError(
            f"store: {_short(store)} (allowed: a directory path, or None for a temporary store)"
        )
    if progress is not None and not callable(progress):
        raise ScenarioError(
            f"progress: {_short(progress)} (allowed: None or a function of (done, total))"
        )
    spec = SweepSpec(base, axes, [], replications, seed=1, seeds=explicit)
    computed = itertools.count(1)
    temporary = (
        tempfile.TemporaryDirectory(prefix="airtcp-sweep-")
        if store is None
        else contextlib.nullcontext(None)
    )
    with temporary as tmp:
        out = Path(store) if store is not None else Path(tmp) / "store"
        try:
            check_executor(out, workers, None, None)
            runs = expand(spec)
            todo = len({r.run_hash for r in runs} - stored_hashes(out))

            def tick(_row: dict[str, Any]) -> None:
                if progress is not None:
                    progress(next(computed), todo)

            ran, skipped = _run_missing(runs, out, workers=workers, on_done=tick)
        except SweepError as exc:
            message = str(exc)
            message = "store: " + message[6:] if message.startswith("--out ") else message
            raise ScenarioError(message) from None
        rows = {
            h: pq.read_table(_row_path(out, h)).to_pylist()[0]
            for h in dict.fromkeys(r.run_hash for r in runs)
        }
    records = [_frame_record(r, rows[r.run_hash]) for r in runs]
    columns = list(dict.fromkeys(k for rec in records for k in rec))
    columns.sort(key=_frame_rank)  # stable: first-seen order within each group
    frame = pd.DataFrame.from_records(records, columns=columns)
    frame.attrs.update(store=None if store is None else str(store), computed=ran, stored=skipped)
    return frame


class _CallableModule(types.ModuleType):
    """``airtcp.sweep`` is this module, and calling it calls :func:`sweep`: the sweep
    machinery keeps its name (``from airtcp import sweep``, ``airtcp.sweep.read_runs``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> pd.DataFrame:
        return sweep(*args, **kwargs)


__signature__ = inspect.signature(sweep)  # what help() and IPython's `airtcp.sweep?` show
sys.modules[__name__].__class__ = _CallableModule
