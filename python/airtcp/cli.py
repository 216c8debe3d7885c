"""The ``airtcp`` command line.

    airtcp run SCENARIO.toml [--seed N | --seeds 1-5 [--workers N]] [--set key=value ...]
                             [--json] [--quiet] [--all] [--out DIR] [--pcap DIR] [--force]
    airtcp analytic bianchi --stations N --standard 80211a [...]
    airtcp analytic tmt --standard 80211b [...]
    airtcp validate [--out results/validation] [--duration-s 30] [--seeds 3]
    airtcp sweep SWEEP.toml [--grid KEY=V1,V2,...] [--workers N] [--out DIR]
    airtcp query DIR "SQL"
    airtcp plot metric DIR --x param.X --y totals.goodput_bps [--group param.G] --out fig.png
    airtcp plot trace SOURCE... --kind tcp --y cwnd [--run HASH | --where SQL] [--flow N]
                      [--from S] [--to S] [--out fig.svg] [--show]
    airtcp plot topology RUN --out topology.png
    airtcp report RUN --out report.html
    airtcp templates [NAME] [--json]
    airtcp schema [--sweep] [--out FILE]
    airtcp --version

User errors (a bad scenario, a missing file, a bad --set) print ``error: ...`` on stderr and
exit with status 2, without a traceback and without writing anything.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

# Start-up time (bench/bench_startup.py): rich, pydantic (airtcp.config), pyarrow and the rest
# are imported inside the commands that use them; python/tests/test_startup.py checks it. The
# commands are declared with airtcp.cliparse (argparse), which builds the invoked one alone.
from airtcp.cliparse import USAGE_ERROR, App, Arg, Opt
from airtcp.runprint import MAX_ROWS  # light: rich is imported when a table is printed

if TYPE_CHECKING:
    from airtcp.result import RunSummary

__all__ = ["USAGE_ERROR", "app", "main"]


def _version() -> str:
    from airtcp import __version__

    return f"airtcp {__version__}"


app = App("airtcp: simulate TCP and UDP over IEEE 802.11 WiFi.", version=_version)
analytic_app = App(
    "Closed-form models: Bianchi saturation throughput, theoretical maximum throughput."
)
app.add_group(analytic_app, "analytic")


def _echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Write ``text`` (and a newline) to stdout, or to stderr with ``err``."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n" if nl else text)
    stream.flush()


def _json_safe(value: Any) -> Any:
    """``value`` with every NaN and infinity (in lists and tables too) as None: JSON has no
    NaN or Infinity, and ``--json`` output must parse anywhere."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def _json_line(value: Any) -> str:
    """One line of ``--json`` output: strict JSON (NaN and infinities as null), values JSON
    has no type for (dates, decimals) as strings."""
    return json.dumps(_json_safe(value), default=str, allow_nan=False) + "\n"


def _core_missing(exc: ModuleNotFoundError) -> NoReturn:
    """The native core is not built: say so in one line (exit 1); another missing module is
    a bug and goes on up."""
    if exc.name != "airtcp._core":
        raise exc
    _echo(
        "error: the native core airtcp._core is not built (run `maturin develop --release`)",
        err=True,
    )
    raise SystemExit(1) from None


def _fail(message: str) -> NoReturn:
    """Print each line of ``message`` as ``error: ...`` on stderr and exit 2."""
    for line in str(message).splitlines() or ["unknown error"]:
        _echo(f"error: {line}", err=True)
    raise SystemExit(USAGE_ERROR)


# ---------------------------------------------------------------------------------------------
# airtcp run


@app.command("run")
def run_command(
    scenario: Annotated[Path, Arg(help="Scenario TOML file.", show_default=False)],
    seed: Annotated[
        int | None,
        Opt(help="Random seed; a run is a pure function of it.", show_default="1"),
    ] = None,
    seeds: Annotated[
        str | None,
        Opt(
            "--seeds",
            metavar="SEEDS",
            help="Run each of these seeds and print each flow's mean and 95 % Student-t "
            "interval: 1-5, 1,3,7, 1-3,10, or N for 1 to N (not with --seed).",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        int,
        Opt(help="With --seeds: worker processes (0: all cores).", min=0),
    ] = 1,
    set_: Annotated[
        list[str] | None,
        Opt(
            "--set",
            metavar="KEY=VALUE",
            help="Override a field: dotted.key=value, value in TOML syntax; dotted.key=null removes it (repeatable).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool,
        Opt(
            "--json",
            help="Print the summary as one JSON line (with --seeds: every seed's summary and "
            "the aggregate).",
        ),
    ] = False,
    out: Annotated[
        Path | None,
        Opt(
            help="Write summary.json, Parquet tables, the scenario as given and "
            "provenance.json into this new directory (with --seeds: seed-S/ per seed and "
            "aggregate.json)."
        ),
    ] = None,
    pcap: Annotated[
        Path | None,
        Opt(
            help="Write one pcap file per node and interface into this new directory "
            "(docs/pcap.md); switches on the frames trace."
        ),
    ] = None,
    force: Annotated[
        bool,
        Opt(
            "--force",
            help="Replace the --out (and --pcap) directory of an earlier airtcp run; never a "
            "directory holding anything airtcp did not write.",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        Opt("--quiet", "-q", help="Print only the one-line total (not the tables)."),
    ] = False,
    show_all: Annotated[
        bool,
        Opt("--all", help=f"Print every row of the tables (default: the first {MAX_ROWS})."),
    ] = False,
) -> None:
    """Run one scenario and print its flows and nodes; with --seeds, each flow's mean and
    interval over the seeds."""
    from airtcp.config import ScenarioError, apply_overrides, apply_value_overrides
    from airtcp.config.load import loads_toml, read_toml_text
    from airtcp.config.plain import validate
    from airtcp.outpath import OutputExistsError, check_out_dir
    from airtcp.provenance import Given
    from airtcp.run import run
    from airtcp.seeds import SeedsError, parse_seeds

    seed_list = None
    try:
        if seeds is not None:
            if seed is not None:
                raise SeedsError(
                    "--seeds: not with --seed (allowed: one of them; --seeds 1-5 runs seeds 1 "
                    "to 5, --seed 5 seed 5 alone)"
                )
            if pcap is not None:
                raise SeedsError("--pcap: one run at a time (allowed: --seed, not --seeds)")
            seed_list = parse_seeds(seeds)
        elif workers != 1:
            raise SeedsError("--workers: only with --seeds (one run is one process)")
    except SeedsError as exc:
        _fail(str(exc))
    seed = 1 if seed is None else seed
    try:
        text = read_toml_text(scenario)
        data = loads_toml(text, str(scenario))
        overrides = list(set_ or [])
        if set_:
            data = apply_overrides(data, set_)
        if pcap is not None:
            data = apply_value_overrides(data, {"traces.frames": True})
            overrides.append("traces.frames=true")  # as --set would say it
        config = validate(data)  # without pydantic unless it words a problem
        if out is not None:
            check_out_dir(out, replace=force)
        if pcap is not None:
            check_out_dir(pcap, "pcap", replace=force)
            if out is not None and pcap.resolve() == out.resolve():
                raise ScenarioError(f"--pcap: {pcap} is also --out; choose another directory")
        if not 0 <= seed < 2**64:
            raise ScenarioError(f"--seed: must be 0..2^64-1 (got {seed})")
    except FileNotFoundError:
        _fail(f"{scenario}: no such scenario file")
    except (ScenarioError, OutputExistsError) as exc:
        _fail(str(exc))
    except ModuleNotFoundError as exc:
        _core_missing(exc)  # the scenario's tables come from the core
    except OSError as exc:
        _fail(f"{scenario}: cannot read ({exc.strerror or exc})")

    if seed_list is not None:
        given = Given.of(text, scenario, overrides)
        _run_seeds(config, seed_list, given, out, force, workers, as_json, quiet, show_all)
        return
    try:
        result = run(config, seed=seed, given=Given.of(text, scenario, overrides))
    except ScenarioError as exc:
        _fail(str(exc))
    except ModuleNotFoundError as exc:
        _core_missing(exc)

    if out is not None:
        try:
            result.write(out, replace=force)
        except OSError as exc:
            _fail(str(exc))
    if pcap is not None:
        from airtcp.pcap import write_pcaps

        try:
            write_pcaps(result, pcap, replace=force)
        except (OSError, ValueError) as exc:
            _fail(str(exc))

    if as_json:
        sys.stdout.write(result.to_json() + "\n")
        sys.stdout.flush()
    else:
        _print_result(result.summary, out, result.spec, quiet=quiet, show_all=show_all)
        # What the run may not have meant (airtcp.diagnose; docs/scenarios.md "Warnings").
        if warnings := result.summary.get("warnings"):
            from rich.console import Console

            console = Console()
            for w in warnings:
                line = f"warning: {w['path']}: {w['message']} ({w['code']})"
                console.print(line, style="yellow", markup=False, highlight=False, soft_wrap=True)


def _run_seeds(
    config: Any,
    seeds: list[int],
    given: Any,
    out: Path | None,
    force: bool,
    workers: int,
    as_json: bool,
    quiet: bool,
    show_all: bool,
) -> None:
    """``airtcp run --seeds``: each seed's run, then each flow's figures and the totals as a
    mean with a 95 % Student-t interval (airtcp.seeds)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from airtcp import seeds as sd
    from airtcp.config import ScenarioError

    err = Console(stderr=True)
    # A bar on a terminal only: piped or captured output stays the tables alone.
    columns = (TextColumn("[bold]seeds"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("seeds", total=len(seeds))
        try:
            results = sd.run_seeds(
                config,
                seeds,
                workers=workers,
                given=given,
                on_done=lambda _seed: bar.advance(task),
            )
        except (ScenarioError, sd.SeedsError) as exc:
            bar.stop()
            _fail(str(exc))
        except ModuleNotFoundError as exc:
            _core_missing(exc)
    agg = sd.aggregate([r.summary for r in results], seeds)
    if out is not None:
        try:
            sd.write_seeds(out, results, agg, replace=force)
        except OSError as exc:
            _fail(str(exc))
    if as_json:
        summaries = [r.summary for r in results]
        sys.stdout.write(_json_line({"seeds": seeds, "summaries": summaries, "aggregate": agg}))
        sys.stdout.flush()
        return
    if quiet:
        _echo(sd.aggregate_line(agg))
        return
    console = Console()
    sd.print_aggregate(agg, console, max_rows=None if show_all else MAX_ROWS)
    if out is not None:
        console.print(f"written to {out}", soft_wrap=True, highlight=False)
    # Each warning once, with the seeds whose runs gave it.
    warned: dict[str, list[int]] = {}
    for s, r in zip(seeds, results, strict=True):
        for w in r.summary.get("warnings") or []:
            warned.setdefault(f"warning: {w['path']}: {w['message']} ({w['code']})", []).append(s)
    for line, where in warned.items():
        line += "" if len(where) == len(seeds) else f" (seeds {sd.seeds_text(where)})"
        console.print(line, style="yellow", markup=False, highlight=False, soft_wrap=True)


def _print_result(
    summary: RunSummary,
    out: Path | None,
    spec: dict[str, Any] | None = None,
    quiet: bool = False,
    show_all: bool = False,
) -> None:
    """The run's tables, fitted to the terminal (airtcp.runprint), and its one-line total;
    with ``quiet`` the total alone."""
    from airtcp.runprint import print_tables, total_line

    if quiet:
        _echo(total_line(summary))
        return
    from rich.console import Console

    console = Console()
    print_tables(summary, spec, console, max_rows=None if show_all else MAX_ROWS)
    console.print(total_line(summary), soft_wrap=True)
    if out is not None:
        console.print(f"written to {out}", soft_wrap=True, highlight=False)


# ---------------------------------------------------------------------------------------------
# airtcp analytic


def _rates(
    standard: str, data_rate: float | None, basic_rate: float | None, erp_mixed: bool, preamble: str
) -> tuple[float, float]:
    from airtcp.config import default_basic_rate_mbps, default_data_rate_mbps

    data = data_rate if data_rate is not None else default_data_rate_mbps(standard)
    basic = (
        basic_rate
        if basic_rate is not None
        else default_basic_rate_mbps(standard, erp_mixed, preamble)
    )
    return data, basic


def _print_model(title: str, rows: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("quantity")
    table.add_column("value", justify="right")
    for key, value in rows.items():
        table.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    Console().print(table)


StandardOpt = Annotated[str, Opt(help="80211a, 80211b or 80211g.")]
DataRateOpt = Annotated[
    float | None, Opt(help="Data rate, Mbit/s [default: the standard's highest].")
]
BasicRateOpt = Annotated[
    float | None,
    Opt(help="Control-frame rate, Mbit/s [default: 6 for a/g, 1 for b and mixed g]."),
]
PayloadOpt = Annotated[int, Opt(help="UDP payload, bytes.")]
PreambleOpt = Annotated[str, Opt(help="long or short (DSSS rates).")]
ErpMixedOpt = Annotated[bool, Opt("--erp-mixed", help="802.11g b/g mixed mode.")]
AccessOpt = Annotated[str, Opt(help="dcf or edca.")]
JsonOpt = Annotated[bool, Opt("--json", help="Print one JSON line.")]


@analytic_app.command("bianchi")
def bianchi_command(
    stations: Annotated[int, Opt(help="Number of saturated stations.")],
    standard: StandardOpt,
    data_rate_mbps: DataRateOpt = None,
    basic_rate_mbps: BasicRateOpt = None,
    payload_bytes: PayloadOpt = 1500,
    retry_limit: Annotated[int, Opt(help="Retransmissions before a drop.")] = 6,
    preamble: PreambleOpt = "long",
    erp_mixed: ErpMixedOpt = False,
    access: AccessOpt = "dcf",
    collision: Annotated[str, Opt(help="eifs or difs: what follows a collision.")] = "eifs",
    as_json: JsonOpt = False,
) -> None:
    """Saturation throughput of N stations (Bianchi 2000, finite retry limit)."""
    from airtcp import analytic

    try:
        data, basic = _rates(standard, data_rate_mbps, basic_rate_mbps, erp_mixed, preamble)
        res = analytic.bianchi(
            stations,
            standard,
            data,
            basic,
            payload_bytes,
            retry_limit=retry_limit,
            preamble=preamble,
            erp_mixed=erp_mixed,
            access=access,
            collision=collision,
        )
    except ValueError as exc:
        _fail(str(exc))
    inputs = {
        "standard": standard,
        "data_rate_mbps": data,
        "basic_rate_mbps": basic,
        "payload_bytes": payload_bytes,
        "retry_limit": retry_limit,
        "preamble": preamble,
        "erp_mixed": erp_mixed,
        "access": access,
    }
    values = dataclasses.asdict(res)
    if as_json:
        sys.stdout.write(_json_line({"model": "bianchi", **inputs, **values}))
        return
    rows = {
        "stations": res.stations,
        "tau (attempt probability per slot)": res.tau,
        "p (conditional collision probability)": res.p,
        "throughput Mbit/s": res.throughput_bps / 1e6,
        "Ts us": res.ts_ns / 1e3,
        "Tc us": res.tc_ns / 1e3,
        "slot us": res.slot_ns / 1e3,
    }
    _print_model(f"Bianchi: {standard} {data:g}/{basic:g} Mbit/s, {payload_bytes} B", rows)


@analytic_app.command("tmt")
def tmt_command(
    standard: StandardOpt,
    data_rate_mbps: DataRateOpt = None,
    basic_rate_mbps: BasicRateOpt = None,
    payload_bytes: PayloadOpt = 1500,
    preamble: PreambleOpt = "long",
    erp_mixed: ErpMixedOpt = False,
    access: AccessOpt = "dcf",
    rts_cts: Annotated[bool, Opt("--rts-cts", help="Use RTS/CTS.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Theoretical maximum throughput of one station (Jun et al. 2003)."""
    from airtcp import analytic

    try:
        data, basic = _rates(standard, data_rate_mbps, basic_rate_mbps, erp_mixed, preamble)
        tmt = analytic.tmt_bps(
            standard,
            data,
            basic,
            payload_bytes,
            preamble=preamble,
            erp_mixed=erp_mixed,
            access=access,
            rts_cts=rts_cts,
        )
    except ValueError as exc:
        _fail(str(exc))
    values = {
        "standard": standard,
        "data_rate_mbps": data,
        "basic_rate_mbps": basic,
        "payload_bytes": payload_bytes,
        "preamble": preamble,
        "erp_mixed": erp_mixed,
        "access": access,
        "rts_cts": rts_cts,
        "tmt_bps": tmt,
    }
    if as_json:
        sys.stdout.write(_json_line({"model": "tmt", **values}))
        return
    _print_model(
        f"TMT: {standard} {data:g}/{basic:g} Mbit/s, {payload_bytes} B",
        {"throughput Mbit/s": tmt / 1e6, "rts_cts": rts_cts, "access": access},
    )


@app.command("sweep")
def sweep_command(
    sweep_file: Annotated[
        Path,
        Arg(
            help="Sweep TOML file, or a scenario file (one replication, seed 1) swept by --grid.",
            show_default=False,
        ),
    ],
    out: Annotated[Path, Opt(help="Results directory (reused: stored runs are skipped).")] = Path(
        "results/sweep"
    ),
    grid: Annotated[
        list[str] | None,
        Opt(
            "--grid",
            metavar="KEY=V1,V2,...",
            help="Sweep a key over values: KEY=V1,V2,... (each in TOML syntax, as --set; "
            "repeatable). Adds an axis to the file's grid or replaces the axis of that key.",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[int, Opt(help="Worker processes (default: all cores).", min=0)] = 0,
    dask: Annotated[
        str | None,
        Opt(
            "--dask",
            metavar="ADDRESS",
            help="Run on a Dask scheduler at this address (e.g. tcp://host:8786).",
            show_default=False,
        ),
    ] = None,
    dask_local: Annotated[
        int | None,
        Opt(
            "--dask-local",
            help="Run on a Dask LocalCluster of N worker processes started for the sweep.",
            min=1,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run every run of a sweep not yet stored in OUT, with a progress bar."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from airtcp import sweep

    try:
        spec = sweep.load_sweep(sweep_file, grid or ())
        runs = sweep.expand(spec)
        sweep.check_executor(out, workers or None, dask, dask_local)
    except sweep.SweepError as exc:
        _fail(str(exc))
    stored = sweep.stored_hashes(out)
    todo = sum(1 for r in runs if r.run_hash not in stored)
    failures = 0
    columns = (
        TextColumn("[bold]sweep"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} runs/s, failures {task.fields[failures]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task("runs", total=todo, rate="-", failures=0)

        def on_done(row: dict[str, Any]) -> None:
            nonlocal failures
            failures += row.get("error") is not None
            t = progress.tasks[0]
            rate = f"{t.completed / t.elapsed:.1f}" if t.elapsed else "-"
            progress.update(task, advance=1, rate=rate, failures=failures)

        try:
            ran, skipped = sweep.run_sweep(
                spec,
                out,
                workers=workers or None,
                dask=dask,
                dask_local=dask_local,
                on_done=on_done,
            )
        except sweep.SweepError as exc:
            progress.stop()
            _fail(str(exc))
    _echo(f"{ran} runs done ({failures} failed), {skipped} already stored: {out}")


# Rows `airtcp query` prints as a terminal table; --json streams every row.
QUERY_TABLE_ROWS = 1000

AllowExternalOpt = Annotated[
    bool,
    Opt(
        "--allow-external-access",
        help="Let the SQL read and write files (DuckDB's read_csv, COPY ... TO, ATTACH, "
        "INSTALL); off by default: the SQL sees the store's views only.",
    ),
]


@app.command("query")
def query_command(
    out: Annotated[Path, Arg(help="Results directory of a sweep.", show_default=False)],
    sql: Annotated[str, Arg(help='SQL over the view runs, e.g. "SELECT count(*) FROM runs".')],
    as_json: Annotated[
        bool,
        Opt(
            "--json",
            help="One JSON object per row (every row, streamed; NaN and infinities as null).",
        ),
    ] = False,
    allow_external_access: AllowExternalOpt = False,
) -> None:
    """Query a sweep's stored runs with DuckDB (view `runs`; quote dotted column names).

    The table shows at most 1000 rows (a note says how many were left out); --json prints them
    all.
    """
    from airtcp import store

    try:
        if as_json:
            names, rows = store.iter_query(out, sql, allow_external_access=allow_external_access)
            for r in rows:
                sys.stdout.write(_json_line(dict(zip(names, r, strict=True))))
            return
        names, table_rows, more = store.query(
            out, sql, limit=QUERY_TABLE_ROWS, allow_external_access=allow_external_access
        )
    except store.StoreError as exc:
        _fail(str(exc))
    from rich.console import Console
    from rich.table import Table

    table = Table(*names)
    for r in table_rows:
        table.add_row(*(f"{v:.6g}" if isinstance(v, float) else str(v) for v in r))
    Console().print(table)
    if more:
        _echo(
            f"(the first {QUERY_TABLE_ROWS} rows; add LIMIT/OFFSET to the SQL, or --json for "
            "every row)",
            err=True,
        )


@app.command("reproduce")
def reproduce_command(
    paper: Annotated[str, Arg(help="Paper id, e.g. 001.", show_default=False)],
    out: Annotated[
        Path | None,
        Opt(help="Output directory (default results/paper-ID); its store is resumed."),
    ] = None,
    quick: Annotated[
        bool, Opt("--quick", help="Fewer replications (minutes instead of more).")
    ] = False,
    workers: Annotated[int, Opt(help="Worker processes (default: all cores).", min=0)] = 0,
) -> None:
    """Reproduce a paper: run its sweeps, draw its figures, write report.md and report.html."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from airtcp import reproduce as rep

    key = paper.removeprefix("paper-").zfill(3)
    target = out if out is not None else Path("results") / f"paper-{key}"
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        tasks: dict[str, Any] = {}

        def on_progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done)

        try:
            report = rep.reproduce(
                paper, target, quick=quick, workers=workers or None, progress=on_progress
            )
        except rep.ReproduceError as exc:
            progress.stop()
            _fail(str(exc))
    _echo(f"report: {report}")


@app.command("validate")
def validate_command(
    out: Annotated[
        Path, Opt(help="Directory for validation.json and validation.md (replaced).")
    ] = Path("results/validation"),
    duration_s: Annotated[
        float, Opt(help="Measured seconds per run (after a 1 s warm-up).")
    ] = 30.0,
    seeds: Annotated[int, Opt(help="Replications per multi-station case.")] = 3,
) -> None:
    """Run airtcp against TMT and Bianchi's model and write the comparison table."""
    from rich.console import Console
    from rich.progress import track

    from airtcp import validation as v
    from airtcp.outpath import OutputExistsError, check_out_dir

    if not (math.isfinite(duration_s) and v.MIN_DURATION_S <= duration_s <= v.MAX_DURATION_S):
        _fail(
            f"--duration-s: {duration_s!r} (allowed: a number {v.MIN_DURATION_S:g}.."
            f"{v.MAX_DURATION_S:g} seconds)"
        )
    if not 1 <= seeds <= v.MAX_SEEDS:
        _fail(f"--seeds: {seeds!r} (allowed: integer 1..{v.MAX_SEEDS})")
    try:
        check_out_dir(out, "validate")  # before the runs: refuse a path in use at once
    except OutputExistsError as exc:
        _fail(str(exc))
    seed_list = list(range(1, seeds + 1))
    err = Console(stderr=True)
    tmt = [
        v.run_tmt(c, duration_s) for c in track(v.tmt_cases(), description="TMT cases", console=err)
    ]
    bianchi = [
        v.run_bianchi(c, duration_s, seed_list)
        for c in track(v.bianchi_cases(), description="Bianchi cases", console=err)
    ]
    try:
        path = v.write_report(out, tmt, bianchi)
    except OutputExistsError as exc:
        _fail(str(exc))
    _echo((path / "validation.md").read_text())
    _echo(f"written: {path}/validation.md, {path}/validation.json")


# ---------------------------------------------------------------------------------------------
# airtcp plot (figures through matplotlib)

plot_app = App(
    "Figures (PNG, SVG or PDF by the --out suffix): a metric over a swept parameter "
    "with confidence intervals, time series of runs' traces, a run's topology."
)
app.add_group(plot_app, "plot")

PlotOutOpt = Annotated[
    Path,
    Opt("--out", help="The figure file: .png, .svg or .pdf.", show_default=False),
]
PlotTitleOpt = Annotated[str | None, Opt("--title", help="Figure title (default: y over x).")]
FigureOutOpt = Annotated[
    Path | None,
    Opt(
        "--out",
        help="The figure file: .png, .svg or .pdf (may be left out with --show).",
        show_default=False,
    ),
]
ShowOpt = Annotated[
    bool, Opt("--show", help="Open the figure in a window (pan, zoom) after any --out.")
]
RunHashOpt = Annotated[
    str | None,
    Opt(
        "--run", metavar="HASH", help="Run hash or unique prefix (sweep store).", show_default=False
    ),
]


def _save_figure(fig: Any, out: Path) -> None:
    from airtcp import plot

    try:
        plot.save(fig, out)
    except plot.PlotError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"--out {out}: cannot write ({exc.strerror or exc})")


@plot_app.command("metric")
def plot_metric_command(
    store_dir: Annotated[Path, Arg(help="Results directory of a sweep.", show_default=False)],
    x: Annotated[str, Opt("--x", help="x axis: a column of runs, e.g. param.hops.")],
    y: Annotated[
        str,
        Opt(
            "--y",
            help="The metric: a column of runs (totals.goodput_bps) or a summary path "
            "(flows.0.tcp.retransmissions).",
        ),
    ],
    out: PlotOutOpt,
    group: Annotated[
        list[str] | None,
        Opt("--group", help="One line per value of this column (repeatable)."),
    ] = None,
    where: Annotated[
        str | None,
        Opt(
            "--where",
            metavar="SQL",
            help="SQL condition on runs, e.g. '\"param.hops\" = 3'.",
            show_default=False,
        ),
    ] = None,
    ci: Annotated[float, Opt("--ci", help="Confidence level of the intervals.")] = 0.95,
    pool: Annotated[
        bool,
        Opt("--pool", help="Average over swept parameters not in --x or --group."),
    ] = False,
    title: PlotTitleOpt = None,
    allow_external_access: AllowExternalOpt = False,
) -> None:
    """Mean of a metric over a swept parameter, one line per group, with Student-t CIs."""
    from airtcp import plot, store

    try:
        plot.check_format(out)
        plot.check_figure_path(out)
        fig, table = plot.metric(
            store_dir,
            x,
            y,
            group or [],
            where=where,
            ci=ci,
            pool=pool,
            title=title,
            allow_external_access=allow_external_access,
        )
    except (plot.PlotError, store.StoreError) as exc:
        _fail(str(exc))
    _save_figure(fig, out)
    lines = table.groupby(group, dropna=False).ngroups if group else 1
    notes = "; ".join(table.attrs.get("notes", []))
    _echo(f"written {out}: {lines} line(s), {len(table)} points ({notes})")


def _check_destination(out: Path | None, show: bool) -> None:
    """A figure needs --out or --show; --out must be a figure format airtcp may write."""
    from airtcp import plot

    if out is None and not show:
        _fail("--out FILE or --show is needed (where should the figure go?)")
    if out is not None:
        try:
            plot.check_format(out)
            plot.check_figure_path(out)
        except plot.PlotError as exc:
            _fail(str(exc))


def _show_figure(fig: Any, out: Path | None) -> None:
    """Open ``fig`` in a window; without a display that is an error only when nothing was
    written (--out)."""
    from airtcp import plot

    try:
        plot.show(fig)
    except plot.PlotError as exc:
        if out is None:
            _fail(str(exc))
        _echo(f"warning: {exc}", err=True)


@plot_app.command("trace")
def plot_trace_command(
    sources: Annotated[
        list[Path],
        Arg(
            help="Run directories (airtcp run --out) or sweep stores (with --run or --where); "
            "several are overlaid, one legend entry per run.",
            show_default=False,
        ),
    ],
    out: FigureOutOpt = None,
    kind: Annotated[
        str,
        Opt(
            "--kind",
            help="tcp, tcp_segments, packets, mac_tx, rates, receptions, positions, or interval "
            "(summary goodput).",
        ),
    ] = "tcp",
    y: Annotated[
        str | None,
        Opt(
            "--y",
            help="What to draw; per kind: tcp cwnd|ssthresh|rtt|rto|in_flight_bytes|pacing, "
            "tcp_segments goodput|sent|retransmit|dupack|timeout, packets goodput|delay, "
            "mac_tx airtime|throughput, interval goodput (default: the first).",
            show_default=False,
        ),
    ] = None,
    run: RunHashOpt = None,
    where: Annotated[
        str | None,
        Opt(
            "--where",
            metavar="SQL",
            help="Overlay the runs of a sweep store that match this SQL condition on the "
            "view runs, e.g. 'replication = 0'.",
            show_default=False,
        ),
    ] = None,
    flow: Annotated[int | None, Opt("--flow", help="Only this flow.", show_default=False)] = None,
    t0_s: Annotated[
        float | None,
        Opt("--from", help="Window start, s (default: 0).", show_default=False),
    ] = None,
    t1_s: Annotated[
        float | None,
        Opt("--to", help="Window end, s (default: the end).", show_default=False),
    ] = None,
    bin_s: Annotated[
        float | None,
        Opt(
            "--bin-s",
            help="Time bin of rates, s (default: about 100 bins over the run or window).",
            show_default=False,
        ),
    ] = None,
    show: ShowOpt = False,
    title: PlotTitleOpt = None,
) -> None:
    """A time series of runs: cwnd, RTT, goodput, airtime, one line per flow or node."""
    from airtcp import plot, store

    _check_destination(out, show)
    try:
        fig, data = plot.trace(
            sources,
            kind,
            y,
            run=run,
            where=where,
            flow=flow,
            bin_s=bin_s,
            title=title,
            t0_s=t0_s,
            t1_s=t1_s,
        )
    except (plot.PlotError, store.StoreError) as exc:
        _fail(str(exc))
    except (OSError, ValueError) as exc:  # an unreadable run directory
        _fail(f"{', '.join(map(str, sources))}: cannot read ({exc})")
    runs = f" of {data['run'].nunique()} runs" if "run" in data.columns else ""
    what = f"{data['line'].nunique()} line(s){runs}, {len(data)} points"
    if out is not None:
        _save_figure(fig, out)
        _echo(f"written {out}: {what}")
    if show:
        _show_figure(fig, out)


@plot_app.command("sequence")
def plot_sequence_command(
    source: Annotated[
        Path,
        Arg(
            help="A run directory (airtcp run --out) or a sweep store (with --run), with the "
            "tcp_segments and mac_tx traces.",
            show_default=False,
        ),
    ],
    out: PlotOutOpt,
    t0_s: Annotated[float, Opt("--from", help="Window start, s.", show_default=False)],
    t1_s: Annotated[float, Opt("--to", help="Window end, s.", show_default=False)],
    run: RunHashOpt = None,
    flow: Annotated[int, Opt("--flow", help="The TCP flow to draw.")] = 0,
    title: PlotTitleOpt = None,
) -> None:
    """The TCP/MAC sequence diagram (paper 001): both TCPs and both MACs in one picture."""
    from airtcp import plot, store
    from airtcp.sequence import sequence

    try:
        plot.check_format(out)
        plot.check_figure_path(out)
        fig, data = sequence(source, run=run, flow=flow, t0_s=t0_s, t1_s=t1_s, title=title)
    except (plot.PlotError, store.StoreError) as exc:
        _fail(str(exc))
    except (OSError, ValueError) as exc:  # an unreadable run directory
        _fail(f"{source}: cannot read ({exc})")
    _save_figure(fig, out)
    lost = int((data.frames["outcome"] != "ok").sum())
    _echo(f"written {out}: {len(data.frames)} frames ({lost} lost), {len(data.tcp)} TCP events")


@plot_app.command("topology")
def plot_topology_command(
    source: Annotated[
        Path,
        Arg(
            help="A run directory (airtcp run --out) or a sweep store (with --run).",
            show_default=False,
        ),
    ],
    out: FigureOutOpt = None,
    run: RunHashOpt = None,
    show: ShowOpt = False,
    title: PlotTitleOpt = None,
) -> None:
    """Where the nodes are: positions, decode and carrier-sense ranges, wired links, mesh peers,
    flow paths, mobility tracks."""
    from airtcp import plot, store
    from airtcp.topology import topology

    _check_destination(out, show)
    try:
        fig, data = topology(source, run=run, title=title)
    except (plot.PlotError, store.StoreError) as exc:
        _fail(str(exc))
    except (OSError, ValueError) as exc:  # an unreadable run directory
        _fail(f"{source}: cannot read ({exc})")
    if out is not None:
        _save_figure(fig, out)
        words = {"wired": "wired links", "mesh-peer": "mesh peer links", "flow": "flow hops"}
        kinds = data.links["kind"].value_counts(sort=False).to_dict()
        links = ", ".join(f"{n} {words[k]}" for k, n in kinds.items()) or "no links"
        _echo(f"written {out}: {len(data.nodes)} nodes, {links}")
    if show:
        _show_figure(fig, out)


# ---------------------------------------------------------------------------------------------
# airtcp report


@app.command("templates")
def templates_command(
    name: Annotated[
        str | None,
        Arg(help="A template: list its knobs (default: list the templates)."),
    ] = None,
    as_json: Annotated[bool, Opt("--json", help="Print JSON.")] = False,
) -> None:
    """The templates a scenario file can name (template = "NAME"), or one template's knobs:
    each with its default, allowed values and what it does."""
    from airtcp.config.templates import (
        TEMPLATES,
        shown_default,
        template_knobs,
        template_summary,
    )

    if name is None:
        rows = [{"template": t, "builds": template_summary(t)} for t in TEMPLATES]
        if as_json:
            _echo(json.dumps(rows, indent=1))
            return
        from rich.console import Console
        from rich.table import Table

        table = Table("template", "what it builds", title="templates (airtcp templates NAME)")
        for row in rows:
            table.add_row(row["template"], row["builds"])
        Console().print(table)
        return
    if name not in TEMPLATES:
        _fail(
            f"template {name!r}: unknown (allowed: {', '.join(TEMPLATES)}; airtcp templates "
            "lists them)"
        )
    knobs = template_knobs(name)
    if as_json:
        _echo(json.dumps({"template": name, "knobs": knobs}, indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        "knob", "default", "allowed", "what it does", title=f"template = {json.dumps(name)}"
    )
    for k in knobs:
        table.add_row(k["knob"], shown_default(k), k["allowed"], k["doc"])
    Console().print(table)
    _echo(
        "Set a knob as a field of the file or with --set KNOB=VALUE; a knob given a value the "
        "template does not use, or a field it sets from a knob, is refused by name; the file's "
        "other fields are merged over what it builds (docs/scenarios.md, Templates)."
    )


@app.command("schema")
def schema_command(
    sweep: Annotated[bool, Opt("--sweep", help="The schema of sweep files instead.")] = False,
    out: Annotated[
        Path | None,
        Opt("--out", help="Write it to this file (default: print it).", show_default=False),
    ] = None,
) -> None:
    """The JSON Schema of scenario files (or sweep files), for an editor's completion and
    checking (docs/scenarios.md, Editor support)."""
    from airtcp.config.schema import scenario_schema, sweep_schema

    text = json.dumps(sweep_schema() if sweep else scenario_schema(), indent=1) + "\n"
    if out is None:
        _echo(text, nl=False)
        return
    from airtcp.outpath import atomic_file

    try:
        with atomic_file(out) as tmp:
            tmp.write_text(text)
    except OSError as exc:
        _fail(f"{out}: cannot write ({exc.strerror or exc})")
    _echo(f"written {out}")


@app.command("report")
def report_command(
    source: Annotated[
        Path,
        Arg(
            help="A run directory (airtcp run --out) or a sweep store (with --run).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path,
        Opt("--out", help="The page to write: an .html file.", show_default=False),
    ],
    run: RunHashOpt = None,
    title: Annotated[
        str | None, Opt("--title", help="Page title (default: the run's name).")
    ] = None,
) -> None:
    """One run as a self-contained HTML page: tables, time series, topology (opens offline)."""
    from airtcp import plot, store
    from airtcp.report import ReportError, check_report_path, write_report

    try:
        check_report_path(out)
        path = write_report(source, out, run=run, title=title)
    except (ReportError, plot.PlotError, store.StoreError) as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{out}: cannot write ({exc.strerror or exc})")
    size = path.stat().st_size
    _echo(f"written {path}: {size / 1e3:.0f} kB, open it in a browser")


# Exit status of a failure that is airtcp's fault, not the input's (sysexits.h EX_SOFTWARE).
INTERNAL_ERROR = 70


def main() -> None:
    """Entry point of the ``airtcp`` script.

    A user error exits with status 2 and one ``error:`` line per problem (``_fail``). Anything
    else that escapes a command is a bug: it prints one ``error: internal error`` line and
    exits 70, never a traceback (set AIRTCP_DEBUG=1 to see it).
    """
    import os

    try:
        app(prog="airtcp")
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:  # e.g. `airtcp query ... --json | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except Exception as exc:
        if os.environ.get("AIRTCP_DEBUG"):
            raise
        text = " ".join(str(exc).split())[:200]
        sys.stderr.write(
            f"error: internal error ({type(exc).__name__}: {text}); please report it with the "
            "command line (AIRTCP_DEBUG=1 shows the traceback)\n"
        )
        sys.exit(INTERNAL_ERROR)


if __name__ == "__main__":
    main()
