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

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["StoreError", "connect", "iter_query", "open", "query", "trace_kinds"]


class StoreError(ValueError):
    """No results store at the given path, or a bad query."""


# `airtcp query` and `plot --where` run the user's SQL. DuckDB's SQL can read and write any
# file (read_csv, COPY ... TO, ATTACH, INSTALL): by default the store is handed to DuckDB as
# Arrow datasets and DuckDB's file access is switched off and locked, so the SQL sees the views
# and nothing else. `allow_external_access=True` (the CLI's --allow-external-access) lifts it.


def _row_files(root: Path, sub: str) -> list[Path]:
    return sorted(p for p in root.glob(f"{sub}/*/*.parquet") if not p.name.startswith("."))


def _dataset(files: list[Path], root: Path) -> Any:
    """A pyarrow dataset over ``files`` with the union of their schemas (a failed run's row
    lacks the metric columns: they read as NULL); a StoreError names an unreadable file."""
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    schemas = []
    for f in files:
        try:
            schemas.append(pq.read_schema(f))
        except (OSError, pa.ArrowException) as exc:
            raise StoreError(
                f"{root / f.relative_to(root)}: not a readable Parquet file (truncated or "
                f"damaged: {type(exc).__name__}); rerun the sweep into {root}: it recomputes "
                "that run"
            ) from None
    try:
        schema = pa.unify_schemas(schemas, promote_options="permissive")
    except pa.ArrowException as exc:
        raise StoreError(f"{root}: stored rows disagree on column types ({exc})") from None
    return ds.dataset([str(f) for f in files], schema=schema, format="parquet")


def connect(out: str | Path, *, allow_external_access: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the view ``runs`` (and one view per trace kind)
    over the store at ``out``. Unless ``allow_external_access``, the connection cannot touch
    any file: SQL run on it sees the views only."""
    import duckdb

    root = Path(out)
    files = _row_files(root, "runs")
    if not files:
        raise StoreError(f"{root}: no stored runs (run `airtcp sweep ... --out {root}` first)")
    con = duckdb.connect(":memory:")
    kinds = trace_kinds(root)
    if allow_external_access:
        pattern = str(root / "runs" / "*" / "[!.]*.parquet").replace("'", "''")
        # union_by_name: a failed run's row lacks the metric columns; they read as NULL.
        con.execute(
            f"CREATE VIEW runs AS SELECT * FROM read_parquet('{pattern}', union_by_name = true)"
        )
        sources = {}
        for kind in kinds:
            glob = str(root / "traces" / kind / "*" / "[!.]*.parquet").replace("'", "''")
            sources[kind] = f"read_parquet('{glob}', union_by_name = true)"
    else:
        con.register("_runs_rows", _dataset(files, root))
        con.execute("CREATE VIEW runs AS SELECT * FROM _runs_rows")
        sources = {}
        for kind in kinds:
            con.register(f"_trace_{kind}", _dataset(_row_files(root, f"traces/{kind}"), root))
            sources[kind] = f"_trace_{kind}"
    for kind, source in sources.items():
        # Only traces of stored runs: a run's row is written after its traces, so a sweep
        # killed in between leaves trace files without a row; they stay invisible.
        con.execute(
            f'CREATE VIEW "{kind}" AS SELECT * FROM {source} '
            "WHERE run_hash IN (SELECT run_hash FROM runs)"
        )
    # A library's queries draw no progress bar over the caller's output (DuckDB draws one on
    # the terminal for queries over 2 s, such as paper 000's travel times over 1400 runs).
    con.execute("SET enable_progress_bar = false")
    if not allow_external_access:
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
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


def query(
    out: str | Path,
    sql: str,
    *,
    limit: int | None = None,
    allow_external_access: bool = False,
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Run ``sql`` against the store; return (column names, rows, truncated): at most
    ``limit`` rows when given (``truncated`` says whether more were left)."""
    import duckdb

    if not sql.strip():
        raise StoreError('query: the SQL is empty (allowed: e.g. "SELECT count(*) FROM runs")')
    con = connect(out, allow_external_access=allow_external_access)
    try:
        cur = con.execute(sql)
        if cur is None:
            raise StoreError(f"query: {sql[:60]!r} holds no statement (allowed: e.g. SELECT ...)")
        names = [d[0] for d in cur.description or []]
        if limit is None:
            return names, cur.fetchall(), False
        rows = cur.fetchmany(limit + 1)
    except duckdb.Error as exc:
        raise StoreError(f"query: {_first_line(exc)}") from None
    return names, rows[:limit], len(rows) > limit


def iter_query(
    out: str | Path, sql: str, *, allow_external_access: bool = False, batch: int = 10_000
) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    """Like :func:`query` but streams the rows (memory stays flat for any result size)."""
    import duckdb

    if not sql.strip():
        raise StoreError('query: the SQL is empty (allowed: e.g. "SELECT count(*) FROM runs")')
    con = connect(out, allow_external_access=allow_external_access)
    try:
        cur = con.execute(sql)
    except duckdb.Error as exc:
        raise StoreError(f"query: {_first_line(exc)}") from None
    if cur is None:
        raise StoreError(f"query: {sql[:60]!r} holds no statement (allowed: e.g. SELECT ...)")
    names = [d[0] for d in cur.description or []]

    def rows() -> Iterator[tuple[Any, ...]]:
        while True:
            try:
                chunk = cur.fetchmany(batch)
            except duckdb.Error as exc:
                raise StoreError(f"query: {_first_line(exc)}") from None
            if not chunk:
                return
            yield from chunk

    return names, rows()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def open(out: str | Path) -> pd.DataFrame:  # noqa: A001 - the name the docs promise
    """Every stored run as a pandas DataFrame (one row per run, sorted by run hash)."""
    return connect(out).execute("SELECT * FROM runs ORDER BY run_hash").df()
