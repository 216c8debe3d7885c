"""The results store of sweeps, queried with DuckDB (embedded: a local folder, no server).

`airtcp query DIR "SQL"` and :func:`query` see the stored runs as the view ``runs``: one row
per run with ``run_hash``, the seed, the airtcp version, the parameters (``param.*``), the
flattened scenario (``config.*``) and the metrics (``totals.*``, ``flow<i>.goodput_bps``,
``events``, ``wall_seconds``, ``error``). Column names contain dots: quote them in SQL
(``"totals.goodput_bps"``). :func:`open` returns the whole view as a pandas DataFrame.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["StoreError", "connect", "open", "query"]


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
    return con


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
