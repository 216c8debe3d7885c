"""The results store of sweeps, queried with DuckDB (embedded: a local folder, no server).

`airtcp query DIR "SQL"` and :func:`query` see the stored runs as the view ``runs``: one row
per run with ``run_hash``, the seed, the airtcp version, the parameters (``param.*``), the
flattened scenario (``config.*``) and the metrics (``totals.*``, ``flow<i>.goodput_bps``,
``events``, ``wall_seconds``, ``error``). Column names contain dots: quote them in SQL
(``"totals.goodput_bps"``). :func:`open` returns the whole view as a pandas DataFrame.

Each trace kind the runs recorded (``tcp``, ``tcp_segments``, ``mac_tx``, ``packets``) is a
view of the same name, its rows keyed by ``run_hash``: ``SELECT * FROM tcp JOIN runs
USING (run_hash) WHERE "param.cc" = 'cubic'``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["StoreError", "connect", "open", "query", "trace_kinds"]


class StoreError(ValueError):
    """No results store at the given path, or a bad query."""


def connect(out: str | Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the view ``runs`` over the store at ``out``."""
    import duckdb

    root = Path(out)
    files = [p for p in root.glob("runs/*/*.parquet") if not p.name.startswith(".")]
    if not files:
        raise StoreError(f"{root}: no stored runs (run `airtcp sweep ... --out {root}` first)")
    con = duckdb.connect(":memory:")
    pattern = str(root / "runs" / "*" / "[!.]*.parquet").replace("'", "''")
    # union_by_name: a failed run's row lacks the metric columns; they read as NULL.
    con.execute(
        f"CREATE VIEW runs AS SELECT * FROM read_parquet('{pattern}', union_by_name = true)"
    )
    for kind in trace_kinds(root):
        glob = str(root / "traces" / kind / "*" / "[!.]*.parquet").replace("'", "''")
        # Only traces of stored runs: a run's row is written after its traces, so a sweep
        # killed in between leaves trace files without a row; they stay invisible.
        con.execute(
            f"CREATE VIEW \"{kind}\" AS SELECT * FROM read_parquet('{glob}', union_by_name = true) "
            "WHERE run_hash IN (SELECT run_hash FROM runs)"
        )
    return con


def trace_kinds(out: str | Path) -> list[str]:
    """The trace kinds stored under `out` (each is a view of :func:`connect`), sorted."""
    root = Path(out) / "traces"
    if not root.is_dir():
        return []
    return sorted(
        d.name
        for d in root.iterdir()
        if d.is_dir()
        and d.name.isidentifier()
        and d.name != "runs"
        and any(not p.name.startswith(".") for p in d.glob("*/*.parquet"))
    )


def query(out: str | Path, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run `sql` against the store; return (column names, rows)."""
    import duckdb

    con = connect(out)
    try:
        cur = con.execute(sql)
    except duckdb.Error as exc:
        raise StoreError(f"query: {exc}") from None
    names = [d[0] for d in cur.description or []]
    return names, cur.fetchall()


def open(out: str | Path) -> pd.DataFrame:  # noqa: A001 - the name the docs promise
    """Every stored run as a pandas DataFrame (one row per run, sorted by run hash)."""
    return connect(out).execute("SELECT * FROM runs ORDER BY run_hash").df()
