"""The outcome of one run: the core's summary plus traces, as dicts and Arrow tables.

``Result.write(out_dir)`` stores it as::

    out_dir/summary.json        the summary (plus wall_seconds, seed, scenario)
    out_dir/spec.json           the world spec that was run (when known)
    out_dir/flows.parquet       one row per flow
    out_dir/nodes.parquet       one row per node, MAC counters flattened into columns
    out_dir/traces/<name>.parquet

The directory appears complete or not at all: everything is written into a hidden sibling
directory first and renamed into place.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = [
    "OutputExistsError",
    "Result",
    "atomic_directory",
    "atomic_file",
    "check_out_dir",
    "flatten",
]


class OutputExistsError(FileExistsError):
    """The output directory exists and is not empty; airtcp never overwrites results."""


def check_out_dir(out_dir: str | Path) -> Path:
    """Raise :class:`OutputExistsError` unless ``out_dir`` is absent or an empty directory."""
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        what = "directory is not empty" if out.is_dir() else "path exists and is not a directory"
        raise OutputExistsError(f"{out}: output {what}; choose a new --out or remove it")
    return out


@contextmanager
def atomic_directory(out_dir: str | Path, what: str = "result") -> Iterator[Path]:
    """Fill a new directory atomically: yields a hidden sibling to write into, renamed to
    ``out_dir`` when the block ends without error and removed when it fails. ``out_dir``
    must be absent or empty (:class:`OutputExistsError` otherwise)."""
    out = check_out_dir(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        yield tmp
        tmp.chmod(0o755)  # mkdtemp makes it 0o700
        try:
            os.replace(tmp, out)  # atomic; fails if out became a non-empty directory
        except OSError as exc:
            raise OutputExistsError(f"{out}: cannot move the {what} into place ({exc})") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


@contextmanager
def atomic_file(path: str | Path, prefix: str = ".tmp-") -> Iterator[Path]:
    """Write one file atomically: yields a temporary path beside ``path`` (same directory, so
    the rename is atomic), renamed to ``path`` when the block ends without error; the
    temporary file never outlives the block. Readers skip names starting with ``prefix``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=target.suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        tmp.chmod(0o644)  # mkstemp makes it 0o600
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def flatten(
    row: Mapping[str, Any], sep: str = "_", prefix: str = "", lists_as_json: bool = False
) -> dict[str, Any]:
    """Nested mappings as one level, keys joined by ``sep`` (``{"mac": {"attempts": 3}}`` ->
    ``{"mac_attempts": 3}``); with ``lists_as_json`` a list becomes its JSON text (one cell)."""
    flat: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, sep, f"{name}{sep}", lists_as_json))
        elif lists_as_json and isinstance(value, list):
            flat[name] = json.dumps(value)
        else:
            flat[name] = value
    return flat


def _table(columns: pa.Table | Mapping[str, Any]) -> pa.Table:
    return columns if isinstance(columns, pa.Table) else pa.table(dict(columns))


class Result:
    """One run's summary (``summary``: dict) and traces (``traces``: name -> pyarrow.Table)."""

    def __init__(
        self,
        summary: Mapping[str, Any],
        traces: Mapping[str, pa.Table | Mapping[str, Any]] | None = None,
        spec: Mapping[str, Any] | None = None,
    ) -> None:
        self.summary: dict[str, Any] = dict(summary)
        self.traces: dict[str, pa.Table] = {k: _table(v) for k, v in (traces or {}).items()}
        self.spec: dict[str, Any] | None = dict(spec) if spec is not None else None

    def __repr__(self) -> str:
        name = self.summary.get("scenario", "?")
        totals = self.summary.get("totals", {})
        goodput = totals.get("goodput_bps")
        tail = f", goodput={goodput / 1e6:.3f} Mbit/s" if isinstance(goodput, int | float) else ""
        return f"Result(scenario={name!r}, seed={self.summary.get('seed')!r}{tail})"

    @property
    def flows(self) -> pa.Table:
        """One row per flow, columns as in the summary's ``flows``."""
        return pa.Table.from_pylist([dict(f) for f in self.summary.get("flows", [])])

    @property
    def nodes(self) -> pa.Table:
        """One row per node; nested counters become columns (``mac.attempts`` -> ``mac_attempts``)."""
        return pa.Table.from_pylist([flatten(n) for n in self.summary.get("nodes", [])])

    def to_json(self, indent: int | None = None) -> str:
        """The summary as JSON (one line unless ``indent`` is given)."""
        seps = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.summary, indent=indent, separators=seps)

    def write(self, out_dir: str | Path) -> Path:
        """Write the result to ``out_dir`` atomically; refuse to overwrite a non-empty one."""
        for name in self.traces:
            if not name or name.startswith(".") or "/" in name or os.sep in name:
                raise ValueError(f"trace name {name!r} cannot be a file name")
        with atomic_directory(out_dir, "result") as tmp:
            (tmp / "summary.json").write_text(self.to_json(indent=2) + "\n", encoding="utf-8")
            if self.spec is not None:
                (tmp / "spec.json").write_text(
                    json.dumps(self.spec, indent=2, sort_keys=True) + "\n", encoding="utf-8"
                )
            pq.write_table(self.flows, tmp / "flows.parquet")
            pq.write_table(self.nodes, tmp / "nodes.parquet")
            (tmp / "traces").mkdir()
            for name, table in self.traces.items():
                pq.write_table(table, tmp / "traces" / f"{name}.parquet")
        return Path(out_dir)

    @classmethod
    def read(cls, out_dir: str | Path) -> Result:
        """Load a result written by :meth:`write`."""
        out = Path(out_dir)
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        spec_path = out / "spec.json"
        spec = json.loads(spec_path.read_text(encoding="utf-8")) if spec_path.exists() else None
        traces = {p.stem: pq.read_table(p) for p in sorted((out / "traces").glob("*.parquet"))}
        return cls(summary, traces, spec)
