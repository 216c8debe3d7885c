"""The outcome of one run: the core's summary plus traces, as dicts and Arrow tables.

``Result.write(out_dir)`` stores it as::

    out_dir/summary.json        the summary (plus wall_seconds, seed, scenario)
    out_dir/spec.json           the world spec that was run (when known)
    out_dir/scenario.toml       the scenario as given: the file's text, or scenario.json for a
                                dict (when known; airtcp.provenance)
    out_dir/provenance.json     seed, overrides, airtcp version, platform, core
    out_dir/flows.parquet       one row per flow (its ``id`` first)
    out_dir/nodes.parquet       one row per node (its ``index``, as the traces name it, then
                                its name), MAC counters flattened into columns
    out_dir/traces/<name>.parquet

The directory appears complete or not at all: everything is written into a hidden temporary
directory first and renamed into place (:func:`airtcp.outpath.atomic_directory`); a directory
that exists must be empty, or, with ``replace=True`` (``airtcp run --force``), an earlier
result airtcp wrote whole, which is then replaced.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, cast

from airtcp.outpath import OutputExistsError, atomic_directory, atomic_file, check_out_dir
from airtcp.summary_types import Summary

if TYPE_CHECKING:  # pyarrow is imported when a table is asked for (airtcp run --json needs none)
    import pyarrow as pa

    from airtcp.provenance import Given

__all__ = [
    "OutputExistsError",
    "Result",
    "RunSummary",
    "atomic_directory",
    "atomic_file",
    "check_out_dir",
    "flatten",
    "load_summary",
]


class RunSummary(Summary):
    """A run's summary: the core's (:class:`airtcp.summary_types.Summary`, generated from the
    core's schema) and what :func:`airtcp.run` adds to it."""

    # The run's wall-clock time [s].
    wall_seconds: float
    seed: int
    # The scenario's name.
    scenario: str
    # What the run measured that its scenario may not have meant (airtcp.diagnose): each a
    # dict of code, path and message; absent when there are none.
    warnings: NotRequired[list[dict[str, str]]]


def load_summary(text: str | bytes) -> RunSummary:
    """A run's summary from its JSON text (``summary.json``, a sweep's ``summary_json``), typed
    as the core's types say it is (python/tests/test_summary_types.py checks that they do)."""
    return cast(RunSummary, json.loads(text))


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
    import pyarrow as pa

    return columns if isinstance(columns, pa.Table) else pa.table(dict(columns))


class Result:
    """One run's summary (``summary``: dict) and traces (``traces``: name -> pyarrow.Table).

    ``given`` is what the run was given (the scenario as given, its path, the overrides:
    :class:`airtcp.provenance.Given`), ``provenance`` what :meth:`write` stores about it.
    """

    def __init__(
        self,
        summary: Mapping[str, Any],
        traces: Mapping[str, pa.Table | Mapping[str, Any]] | None = None,
        spec: Mapping[str, Any] | None = None,
        given: Given | None = None,
        provenance: Mapping[str, Any] | None = None,
    ) -> None:
        # JSON read back or handed over: typed here, where it enters (python/tests/
        # test_summary_types.py checks real runs' keys against the types).
        self.summary = cast(RunSummary, dict(summary))
        # The core hands traces over as {column: list}; they become Arrow tables on first use.
        self._columns: dict[str, pa.Table | Mapping[str, Any]] = dict(traces or {})
        self._traces: dict[str, pa.Table] | None = None
        self.spec: dict[str, Any] | None = dict(spec) if spec is not None else None
        self.given = given
        # Read back from a run directory: kept as it was (the machine that ran it).
        self._provenance = dict(provenance) if provenance is not None else None

    @property
    def provenance(self) -> dict[str, Any]:
        """What ran and how: airtcp version, seed, scenario, overrides, platform, core
        (provenance.json; see :mod:`airtcp.provenance`)."""
        if self._provenance is not None:
            return dict(self._provenance)
        from airtcp.provenance import record

        return record(self.given, self.summary)

    def __repr__(self) -> str:
        name = self.summary.get("scenario", "?")
        totals = self.summary.get("totals", {})
        goodput = totals.get("goodput_bps")
        tail = f", goodput={goodput / 1e6:.3f} Mbit/s" if isinstance(goodput, int | float) else ""
        return f"Result(scenario={name!r}, seed={self.summary.get('seed')!r}{tail})"

    @property
    def traces(self) -> dict[str, pa.Table]:
        """The traces, name -> pyarrow.Table (converted from the core's columns on first use)."""
        if self._traces is None:
            self._traces = {k: _table(v) for k, v in self._columns.items()}
            self._columns = {}
        return self._traces

    @traces.setter
    def traces(self, traces: Mapping[str, pa.Table | Mapping[str, Any]]) -> None:
        self._columns, self._traces = dict(traces), None

    @property
    def flows(self) -> pa.Table:
        """One row per flow, columns as in the summary's ``flows``."""
        import pyarrow as pa

        return pa.Table.from_pylist([dict(f) for f in self.summary.get("flows", [])])

    @property
    def nodes(self) -> pa.Table:
        """One row per node: its ``index`` (the node number the traces use), then its columns;
        nested counters become columns (``mac.attempts`` -> ``mac_attempts``)."""
        import pyarrow as pa

        return pa.Table.from_pylist(
            [{"index": i, **flatten(n)} for i, n in enumerate(self.summary.get("nodes", []))]
        )

    def to_json(self, indent: int | None = None) -> str:
        """The summary as JSON (one line unless ``indent`` is given)."""
        seps = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.summary, indent=indent, separators=seps)

    def write(self, out_dir: str | Path, replace: bool = False) -> Path:
        """Write the result to ``out_dir`` atomically; refuse to overwrite a non-empty one,
        unless ``replace`` and it is an earlier result airtcp wrote whole (then it is
        replaced; a directory holding anything airtcp did not write is refused)."""
        import pyarrow.parquet as pq

        from airtcp.provenance import PROVENANCE

        for name in self.traces:
            if not name or name.startswith(".") or "/" in name or os.sep in name:
                raise ValueError(f"trace name {name!r} cannot be a file name")
        provenance = self.provenance
        with atomic_directory(out_dir, "result", replace=replace) as tmp:
            (tmp / "summary.json").write_text(self.to_json(indent=2) + "\n", encoding="utf-8")
            if self.spec is not None:
                (tmp / "spec.json").write_text(
                    json.dumps(self.spec, indent=2, sort_keys=True) + "\n", encoding="utf-8"
                )
            if self.given is not None:
                self.given.write(tmp)
            (tmp / PROVENANCE).write_text(
                json.dumps(provenance, indent=2, default=str) + "\n", encoding="utf-8"
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
        import pyarrow.parquet as pq

        from airtcp.provenance import PROVENANCE, Given

        out = Path(out_dir)
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        spec_path = out / "spec.json"
        spec = json.loads(spec_path.read_text(encoding="utf-8")) if spec_path.exists() else None
        traces = {p.stem: pq.read_table(p) for p in sorted((out / "traces").glob("*.parquet"))}
        prov_path = out / PROVENANCE  # absent in a directory written before airtcp kept it
        provenance = (
            json.loads(prov_path.read_text(encoding="utf-8")) if prov_path.exists() else None
        )
        given = Given.read(out, provenance) if isinstance(provenance, dict) else None
        return cls(summary, traces, spec, given, provenance)
