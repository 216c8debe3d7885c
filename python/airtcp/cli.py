"""The ``airtcp`` command line.

    airtcp run SCENARIO.toml [--seed N] [--set key=value ...] [--json] [--out DIR]
    airtcp analytic bianchi --stations N --standard 80211a [...]
    airtcp analytic tmt --standard 80211b [...]
    airtcp validate [--out results/validation] [--duration-s 30] [--seeds 3]
    airtcp sweep SWEEP.toml [--workers N] [--out DIR]
    airtcp query DIR "SQL"
    airtcp plot metric DIR --x param.X --y totals.goodput_bps [--group param.G] --out fig.png
    airtcp plot trace SOURCE --kind tcp --y cwnd [--run HASH] [--flow N] --out fig.svg
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

import typer

# Start-up time (bench/bench_startup.py): rich, pydantic (airtcp.config), pyarrow and the rest
# are imported inside the commands that use them; python/tests/test_startup.py checks it.
if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["app", "main"]

USAGE_ERROR = 2

app = typer.Typer(
    name="airtcp",
    help="Simulate TCP and UDP over IEEE 802.11 WiFi.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
analytic_app = typer.Typer(
    help="Closed-form models: Bianchi saturation throughput, theoretical maximum throughput.",
    no_args_is_help=True,
)
app.add_typer(analytic_app, name="analytic")


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
    typer.echo(
        "error: the native core airtcp._core is not built (run `maturin develop --release`)",
        err=True,
    )
    raise typer.Exit(1) from None


def _fail(message: str) -> NoReturn:
    """Print each line of ``message`` as ``error: ...`` on stderr and exit 2."""
    for line in str(message).splitlines() or ["unknown error"]:
        typer.echo(f"error: {line}", err=True)
    raise typer.Exit(USAGE_ERROR)


def _version(value: bool) -> None:
    if value:
        from airtcp import __version__

        typer.echo(f"airtcp {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """airtcp: a fast, faithful simulator of TCP over IEEE 802.11."""


# ---------------------------------------------------------------------------------------------
# airtcp run


@app.command("run")
def run_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario TOML file.", show_default=False)],
    seed: Annotated[int, typer.Option(help="Random seed; a run is a pure function of it.")] = 1,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Override a field: dotted.key=value, value in TOML syntax (repeatable).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as one JSON line.")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(help="Write summary.json and Parquet tables into this new directory."),
    ] = None,
    pcap: Annotated[
        Path | None,
        typer.Option(
            help="Write one pcap file per node and interface into this new directory "
            "(docs/pcap.md); switches on the frames trace."
        ),
    ] = None,
) -> None:
    """Run one scenario and print its flows and nodes."""
    from airtcp.config import (
        Scenario,
        ScenarioError,
        apply_overrides,
        apply_value_overrides,
        load_toml,
    )
    from airtcp.outpath import OutputExistsError, check_out_dir
    from airtcp.run import run

    try:
        data = load_toml(scenario)
        if set_:
            data = apply_overrides(data, set_)
        if pcap is not None:
            data = apply_value_overrides(data, {"traces.frames": True})
        config = Scenario.from_dict(data)
        if out is not None:
            check_out_dir(out)
        if pcap is not None:
            check_out_dir(pcap, "pcap")
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

    try:
        result = run(config, seed=seed)
    except ScenarioError as exc:
        _fail(str(exc))
    except ModuleNotFoundError as exc:
        _core_missing(exc)

    if out is not None:
        try:
            result.write(out)
        except OSError as exc:
            _fail(str(exc))
    if pcap is not None:
        from airtcp.pcap import write_pcaps

        try:
            write_pcaps(result, pcap)
        except (OSError, ValueError) as exc:
            _fail(str(exc))

    if as_json:
        sys.stdout.write(result.to_json() + "\n")
        sys.stdout.flush()
    else:
        _print_result(result.summary, out, config.to_world_spec())


# Columns of the TCP table: (header, key in the flow summary's "tcp" table, format, scale).
# A column is shown when the core reported its key for some TCP flow.
_TCP_COLUMNS: tuple[tuple[str, str, str, float], ...] = (
    ("retx", "retransmissions", "{:d}", 1),
    ("RTOs", "timeouts", "{:d}", 1),
    ("RTT ms", "rtt_mean_s", "{:.1f}", 1e3),
    ("cwnd", "mean_cwnd_segments", "{:.1f}", 1),
    ("done s", "completion_s", "{:.3f}", 1),
)


def _flow_kind(kind: str) -> str:
    return {"udp_saturating": "sat", "udp_cbr": "cbr"}.get(kind, kind.replace("_", "-"))


def _flow_label(flow: dict[str, Any]) -> str:
    return f"{flow.get('id')}: {flow.get('src')} -> {flow.get('dst')}"


def _tcp_value(flow: dict[str, Any], key: str, scale: float) -> int | float | None:
    """``flow["tcp"][key]`` (or ``flow[key]``) times ``scale``; None if not reported."""
    nested = flow.get("tcp")
    for source in (nested if isinstance(nested, dict) else {}, flow):
        value = source.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value * scale if scale != 1 else value
    return None


def _tcp_cell(value: int | float | None, fmt: str) -> str:
    if value is None:
        return "-"
    try:
        return fmt.format(value)
    except ValueError:  # an integer column got a float
        return f"{value:g}"


def _mesh_table(nodes: list[dict[str, Any]]) -> Table:
    """802.11s: each mesh point's peers and paths at the end of the run, what HWMP sent in the
    measured period, and its first path set-up."""
    from rich.table import Table

    t = Table(title="mesh points (802.11s)")
    for col in ("node", "peers (metric)", "paths: dst via next hop (metric)", "PREQ/PREP/PERR"):
        t.add_column(col, justify="left" if col != "PREQ/PREP/PERR" else "right")
    t.add_column("first set-up ms", justify="right")
    remedy = any(n["mesh"].get("retry_limits") for n in nodes)
    if remedy:
        t.add_column("retry limit (changes)", justify="right")
    for n in nodes:
        m = n["mesh"]
        peers = ", ".join(f"{p['peer']} ({p['metric']})" for p in m.get("peers", []))
        paths = ", ".join(
            f"{p['dst']} via {p['next_hop']} ({p['metric']})"
            for p in m.get("paths", [])
            if p["dst"] != p["next_hop"]
        )
        setups = m.get("path_setups", [])
        row = [
            str(n.get("name", "")),
            peers or "-",
            paths or "-",
            f"{m.get('preqs_sent', 0)}/{m.get('preps_sent', 0)}/{m.get('perrs_sent', 0)}",
            f"{setups[0]['setup_ms']:.2f}" if setups else "-",
        ]
        if remedy:
            limits = m.get("retry_limits", [])
            row.append(f"{limits[-1]['limit']} ({len(limits) - 1})" if limits else "-")
        t.add_row(*row)
    return t


def _tcp_table(tcp_flows: list[dict[str, Any]], spec_flows: list[Any]) -> Table:
    """The TCP flows: their settings from the world spec, and the counters the core reports."""
    from rich.table import Table

    table = Table(title="TCP flows")
    table.add_column("flow", no_wrap=True)
    for col in ("cc", "recovery"):
        table.add_column(col, no_wrap=True)
    table.add_column("ACK every", justify="right")
    columns = [
        (header, [_tcp_value(f, key, scale) for f in tcp_flows], fmt)
        for header, key, fmt, scale in _TCP_COLUMNS
    ]
    columns = [col for col in columns if any(v is not None for v in col[1])]
    for header, _, _ in columns:
        table.add_column(header, justify="right")
    for i, f in enumerate(tcp_flows):
        fid = f.get("id")
        spec = spec_flows[fid] if isinstance(fid, int) and 0 <= fid < len(spec_flows) else {}
        tcp = spec.get("tcp") if isinstance(spec, dict) else None
        tcp = tcp if isinstance(tcp, dict) else {}
        table.add_row(
            _flow_label(f),
            str(tcp.get("cc", "-")),
            str(tcp.get("recovery", "-")),
            str(tcp.get("ack_every", "-")),
            *(_tcp_cell(values[i], fmt) for _, values, fmt in columns),
        )
    return table


def _clap_table(clap_flows: list[dict[str, Any]]) -> Table:
    """The CLAP flows (docs/clap.md): transfer time, file rate, retransmissions, feedback."""
    from rich.table import Table

    table = Table(title="CLAP flows")
    table.add_column("flow", no_wrap=True)
    for col in ("done s", "file Mbit/s", "segments", "retx", "feedback sent/recv", "RTT ms"):
        table.add_column(col, justify="right")
    for f in clap_flows:
        c = f["clap"]
        done = c.get("completion_s")
        rate = f.get("delivered_bytes", 0) * 8 / done / 1e6 if done else None
        table.add_row(
            _flow_label(f),
            "-" if done is None else f"{done:.3f}",
            "-" if rate is None else f"{rate:.3f}",
            str(c.get("segments_sent", 0)),
            str(c.get("retransmissions", 0)),
            f"{c.get('feedbacks_sent', 0)}/{c.get('feedbacks_received', 0)}",
            f"{c.get('rtt_mean_s', 0.0) * 1e3:.1f}",
        )
    return table


def _print_result(
    summary: dict[str, Any], out: Path | None, spec: dict[str, Any] | None = None
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    summary_flows = summary.get("flows", [])
    flows = Table(title=f"flows: {summary.get('scenario', '')} (seed {summary.get('seed')})")
    flows.add_column("flow", no_wrap=True)
    flows.add_column("kind", no_wrap=True)
    # File transfers add their own throughput (file over start -> completion) and completion
    # time; goodput stays delivered bytes over the whole measured time (docs/world-spec.md).
    files = any(str(f.get("kind", "")).endswith("_file") for f in summary_flows)
    columns = ["goodput Mbit/s", "delivered", "mean delay ms", "loss"]
    columns += ["file Mbit/s", "done s"] if files else []
    for col in columns:
        flows.add_column(col, justify="right")
    for f in summary_flows:
        kind = str(f.get("kind", ""))
        # TCP flows measure no one-way delay (the core reports 0): not measured, not zero.
        delay = "-" if kind.startswith("tcp") else f"{f.get('mean_delay_s', 0.0) * 1e3:.3f}"
        cells = [
            _flow_label(f),
            _flow_kind(kind),
            f"{f.get('goodput_bps', 0.0) / 1e6:.3f}",
            str(f.get("delivered_packets", 0)),
            delay,
            f"{f.get('loss_ratio', 0.0):.2%}",
        ]
        if files:
            rate = f.get("transfer_throughput_bps")
            nested = f.get("tcp") if isinstance(f.get("tcp"), dict) else f.get("clap")
            done = nested.get("completion_s") if isinstance(nested, dict) else None
            cells.append("-" if rate is None else f"{rate / 1e6:.3f}")
            cells.append("-" if done is None else f"{done:.3f}")
        flows.add_row(*cells)
    console.print(flows)
    tcp_flows = [f for f in summary_flows if str(f.get("kind", "")).startswith("tcp")]
    if tcp_flows:
        console.print(_tcp_table(tcp_flows, (spec or {}).get("flows", [])))
    clap_flows = [f for f in summary_flows if isinstance(f.get("clap"), dict)]
    if clap_flows:
        console.print(_clap_table(clap_flows))

    nodes = Table(title="nodes (MAC)")
    for col in ("node", "attempts", "retries", "collisions", "drops", "busy %"):
        nodes.add_column(col, justify="left" if col == "node" else "right")
    for n in summary.get("nodes", []):
        mac = n.get("mac", {})
        drops = sum(mac.get(k, 0) for k in ("drops_retry_limit", "drops_queue", "drops_no_route"))
        nodes.add_row(
            str(n.get("name", "")),
            str(mac.get("attempts", 0)),
            str(mac.get("retries", 0)),
            str(mac.get("collisions", 0)),
            str(drops),
            f"{mac.get('busy_air_fraction', 0.0) * 100:.1f}",
        )
    console.print(nodes)
    meshes = [n for n in summary.get("nodes", []) if isinstance(n.get("mesh"), dict)]
    if meshes:
        console.print(_mesh_table(meshes))
    for link in summary.get("links", []):
        drops, lost = link.get("drops_queue", [0, 0]), link.get("lost", [0, 0])
        console.print(
            f"wired {link.get('a')} <-> {link.get('b')}: queue drops {drops[0]}/{drops[1]}, "
            f"lost {lost[0]}/{lost[1]} (a->b/b->a)"
        )

    totals = summary.get("totals", {})
    wall = summary.get("wall_seconds", 0.0)
    events = summary.get("events", 0)
    rate = f", {events / wall / 1e6:.2f} M events/s" if wall else ""
    console.print(
        f"total goodput {totals.get('goodput_bps', 0.0) / 1e6:.3f} Mbit/s, "
        f"collision probability {totals.get('collision_probability', 0.0):.4f}; "
        f"{summary.get('sim_seconds', 0.0):g} s simulated in {wall:.3f} s wall, "
        f"{events} events{rate}"
    )
    if out is not None:
        console.print(f"written to {out}")


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


StandardOpt = Annotated[str, typer.Option(help="80211a, 80211b or 80211g.")]
DataRateOpt = Annotated[
    float | None, typer.Option(help="Data rate, Mbit/s [default: the standard's highest].")
]
BasicRateOpt = Annotated[
    float | None,
    typer.Option(help="Control-frame rate, Mbit/s [default: 6 for a/g, 1 for b and mixed g]."),
]
PayloadOpt = Annotated[int, typer.Option(help="UDP payload, bytes.")]
PreambleOpt = Annotated[str, typer.Option(help="long or short (DSSS rates).")]
ErpMixedOpt = Annotated[bool, typer.Option("--erp-mixed", help="802.11g b/g mixed mode.")]
AccessOpt = Annotated[str, typer.Option(help="dcf or edca.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON line.")]


@analytic_app.command("bianchi")
def bianchi_command(
    stations: Annotated[int, typer.Option(help="Number of saturated stations.")],
    standard: StandardOpt,
    data_rate_mbps: DataRateOpt = None,
    basic_rate_mbps: BasicRateOpt = None,
    payload_bytes: PayloadOpt = 1500,
    retry_limit: Annotated[int, typer.Option(help="Retransmissions before a drop.")] = 6,
    preamble: PreambleOpt = "long",
    erp_mixed: ErpMixedOpt = False,
    access: AccessOpt = "dcf",
    collision: Annotated[
        str, typer.Option(help="eifs or difs: what follows a collision.")
    ] = "eifs",
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
    rts_cts: Annotated[bool, typer.Option("--rts-cts", help="Use RTS/CTS.")] = False,
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
    sweep_file: Annotated[Path, typer.Argument(help="Sweep TOML file.", show_default=False)],
    out: Annotated[
        Path, typer.Option(help="Results directory (reused: stored runs are skipped).")
    ] = Path("results/sweep"),
    workers: Annotated[int, typer.Option(help="Worker processes (default: all cores).", min=0)] = 0,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            help="Run on a Dask scheduler at this address (e.g. tcp://host:8786).",
            show_default=False,
        ),
    ] = None,
    dask_local: Annotated[
        int | None,
        typer.Option(
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
        spec = sweep.load_sweep(sweep_file)
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
    typer.echo(f"{ran} runs done ({failures} failed), {skipped} already stored: {out}")


# Rows `airtcp query` prints as a terminal table; --json streams every row.
QUERY_TABLE_ROWS = 1000

AllowExternalOpt = Annotated[
    bool,
    typer.Option(
        "--allow-external-access",
        help="Let the SQL read and write files (DuckDB's read_csv, COPY ... TO, ATTACH, "
        "INSTALL); off by default: the SQL sees the store's views only.",
    ),
]


@app.command("query")
def query_command(
    out: Annotated[Path, typer.Argument(help="Results directory of a sweep.", show_default=False)],
    sql: Annotated[
        str, typer.Argument(help='SQL over the view runs, e.g. "SELECT count(*) FROM runs".')
    ],
    as_json: Annotated[
        bool,
        typer.Option(
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
        typer.echo(
            f"(the first {QUERY_TABLE_ROWS} rows; add LIMIT/OFFSET to the SQL, or --json for "
            "every row)",
            err=True,
        )


@app.command("reproduce")
def reproduce_command(
    paper: Annotated[str, typer.Argument(help="Paper id, e.g. 001.", show_default=False)],
    out: Annotated[
        Path | None,
        typer.Option(help="Output directory (default results/paper-ID); its store is resumed."),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="Fewer replications (minutes instead of more).")
    ] = False,
    workers: Annotated[int, typer.Option(help="Worker processes (default: all cores).", min=0)] = 0,
) -> None:
    """Reproduce a paper: run its sweeps, draw its figures, write report.md."""
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
    typer.echo(f"report: {report}")


@app.command("validate")
def validate_command(
    out: Annotated[
        Path, typer.Option(help="Directory for validation.json and validation.md (replaced).")
    ] = Path("results/validation"),
    duration_s: Annotated[
        float, typer.Option(help="Measured seconds per run (after a 1 s warm-up).")
    ] = 30.0,
    seeds: Annotated[int, typer.Option(help="Replications per multi-station case.")] = 3,
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
    typer.echo((path / "validation.md").read_text())
    typer.echo(f"written: {path}/validation.md, {path}/validation.json")


# ---------------------------------------------------------------------------------------------
# airtcp plot (figures through matplotlib; `plot sequence` will join metric and trace here)

plot_app = typer.Typer(
    help="Figures (PNG, SVG or PDF by the --out suffix): a metric over a swept parameter "
    "with confidence intervals, time series of one run's traces.",
    no_args_is_help=True,
)
app.add_typer(plot_app, name="plot")

PlotOutOpt = Annotated[
    Path,
    typer.Option("--out", help="The figure file: .png, .svg or .pdf.", show_default=False),
]
PlotTitleOpt = Annotated[
    str | None, typer.Option("--title", help="Figure title (default: y over x).")
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
    store_dir: Annotated[
        Path, typer.Argument(help="Results directory of a sweep.", show_default=False)
    ],
    x: Annotated[str, typer.Option("--x", help="x axis: a column of runs, e.g. param.hops.")],
    y: Annotated[
        str,
        typer.Option(
            "--y",
            help="The metric: a column of runs (totals.goodput_bps) or a summary path "
            "(flows.0.tcp.retransmissions).",
        ),
    ],
    out: PlotOutOpt,
    group: Annotated[
        list[str] | None,
        typer.Option("--group", help="One line per value of this column (repeatable)."),
    ] = None,
    where: Annotated[
        str | None,
        typer.Option(
            "--where", help="SQL condition on runs, e.g. '\"param.hops\" = 3'.", show_default=False
        ),
    ] = None,
    ci: Annotated[float, typer.Option("--ci", help="Confidence level of the intervals.")] = 0.95,
    pool: Annotated[
        bool,
        typer.Option("--pool", help="Average over swept parameters not in --x or --group."),
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
    typer.echo(f"written {out}: {lines} line(s), {len(table)} points ({notes})")


@plot_app.command("trace")
def plot_trace_command(
    source: Annotated[
        Path,
        typer.Argument(
            help="A run directory (airtcp run --out) or a sweep store (with --run).",
            show_default=False,
        ),
    ],
    out: PlotOutOpt,
    kind: Annotated[
        str,
        typer.Option(
            "--kind",
            help="tcp, tcp_segments, packets, mac_tx, rates, receptions, positions, or interval "
            "(summary goodput).",
        ),
    ] = "tcp",
    y: Annotated[
        str | None,
        typer.Option(
            "--y",
            help="What to draw; per kind: tcp cwnd|ssthresh|rtt|rto|in_flight_bytes, "
            "tcp_segments goodput|sent|retransmit|dupack|timeout, packets goodput|delay, "
            "mac_tx airtime|throughput, interval goodput (default: the first).",
            show_default=False,
        ),
    ] = None,
    run: Annotated[
        str | None,
        typer.Option("--run", help="Run hash or unique prefix (sweep store).", show_default=False),
    ] = None,
    flow: Annotated[
        int | None, typer.Option("--flow", help="Only this flow.", show_default=False)
    ] = None,
    bin_s: Annotated[
        float | None,
        typer.Option(
            "--bin-s", help="Time bin of rates, s (default: about 100 bins).", show_default=False
        ),
    ] = None,
    title: PlotTitleOpt = None,
) -> None:
    """A time series of one run: cwnd, RTT, goodput, airtime, one line per flow or node."""
    from airtcp import plot, store

    try:
        plot.check_format(out)
        plot.check_figure_path(out)
        fig, data = plot.trace(source, kind, y, run=run, flow=flow, bin_s=bin_s, title=title)
    except (plot.PlotError, store.StoreError) as exc:
        _fail(str(exc))
    except (OSError, ValueError) as exc:  # an unreadable run directory
        _fail(f"{source}: cannot read ({exc})")
    _save_figure(fig, out)
    typer.echo(f"written {out}: {data['line'].nunique()} line(s), {len(data)} points")


@plot_app.command("sequence")
def plot_sequence_command(
    source: Annotated[
        Path,
        typer.Argument(
            help="A run directory (airtcp run --out) or a sweep store (with --run), with the "
            "tcp_segments and mac_tx traces.",
            show_default=False,
        ),
    ],
    out: PlotOutOpt,
    t0_s: Annotated[float, typer.Option("--from", help="Window start, s.", show_default=False)],
    t1_s: Annotated[float, typer.Option("--to", help="Window end, s.", show_default=False)],
    run: Annotated[
        str | None,
        typer.Option("--run", help="Run hash or unique prefix (sweep store).", show_default=False),
    ] = None,
    flow: Annotated[int, typer.Option("--flow", help="The TCP flow to draw.")] = 0,
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
    typer.echo(
        f"written {out}: {len(data.frames)} frames ({lost} lost), {len(data.tcp)} TCP events"
    )


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
        app(prog_name="airtcp")
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
