"""What `airtcp run` prints (airtcp.runprint): tables that never cut a number at 80 columns
(the width rich assumes for a pipe or a file), --quiet, the row cap and --all."""

from __future__ import annotations

import functools
import io
import json
import re
from typing import Any

import pytest
from cli_runner import CliRunner
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from airtcp import runprint
from airtcp.cli import app

runner = CliRunner()
WIDTHS = (80, 100, 120)
MORE = re.compile(r"^\.\.\. (\d+) more \(see --json or --out; --all prints every row\)$")


def invoke(*args: str, columns: int | None = 80):
    """The command line with stdout not a terminal, rich's width from COLUMNS (None: unset,
    so 80 unless a standard stream is a terminal)."""
    env = {"COLUMNS": None if columns is None else str(columns), "LINES": None}
    return runner.invoke(app, list(args), env=env)


def table_rows(text: str) -> list[list[str]]:
    """The cells of every body line of every table in ``text``, padding included."""
    return [line.strip()[1:-1].split("│") for line in text.splitlines() if line.startswith("│")]


@functools.cache
def first_line(key: str, width: int) -> str:
    """The first line of ``key`` folded into a column ``width`` wide, as rich folds it."""
    return Text(key).wrap(Console(width=width), width, overflow="fold")[0].plain.rstrip()


def cells_of_row(text: str, key: str) -> list[str]:
    """The cells right of the key on the first line of the row named ``key``, in every part of
    a split table (a folded name's first line holds the row's numbers)."""
    found: list[str] = []
    for cells in table_rows(text):
        if cells[0].strip() == first_line(key, len(cells[0]) - 2):
            found.extend(c.strip() for c in cells[1:])
    return found


def assert_nothing_cut(text: str, width: int | None = 80) -> None:
    assert "…" not in text, text
    for line in text.splitlines():
        if "..." in line:
            assert MORE.match(line), line
        if width is not None and line[:1] in "┏┃┡│└":
            assert cell_len(line) <= width, line


def assert_rows_in_full(text: str, columns: list[runprint.Column], rows: int) -> None:
    """Every numeric cell of each of the first ``rows`` rows appears whole in its row."""
    key = next(c for c in columns if c.key)
    for r in range(min(rows, len(key.cells))):
        got = cells_of_row(text, key.cells[r])
        for col in columns:
            if col.numeric and not col.key and col.cells[r] != "-":
                assert col.cells[r] in got, (key.cells[r], col.header, col.cells[r], got)


def assert_summary_in_full(text: str, summary: dict[str, Any], spec: dict[str, Any]) -> None:
    flows = summary["flows"]
    files = any(f["kind"].endswith("_file") for f in flows)
    assert_rows_in_full(text, runprint.flows_columns(flows, files), runprint.MAX_ROWS)
    tcp = [f for f in flows if f["kind"].startswith("tcp")]
    if tcp:
        assert_rows_in_full(text, runprint.tcp_columns(tcp, spec["flows"]), runprint.MAX_ROWS)
    assert_rows_in_full(text, runprint.nodes_columns(summary["nodes"]), runprint.MAX_ROWS)
    meshes = [n for n in summary["nodes"] if isinstance(n.get("mesh"), dict)]
    if meshes:
        assert_rows_in_full(text, runprint.mesh_columns(meshes), runprint.MAX_ROWS)
        for n in meshes:  # the metrics inside the folded peer lists, each whole
            for p in n["mesh"]["peers"]:
                assert re.search(rf"(?<![\d.]){p['metric']}(?![\d.])", text), p
    # Independently of the column builders: goodput and MAC attempts as the summary has them.
    for f in flows[: runprint.MAX_ROWS]:
        label = f"{f['id']}: {f['src']} -> {f['dst']}"
        assert f"{f['goodput_bps'] / 1e6:.3f}" in cells_of_row(text, label)
    for n in summary["nodes"][: runprint.MAX_ROWS]:
        assert str(n["mac"]["attempts"]) in cells_of_row(text, n["name"])


# --- the layout, with rich's Console --------------------------------------------------------


def big_summary(n_flows: int = 25, name_len: int = 64) -> tuple[dict[str, Any], dict[str, Any]]:
    """A summary with long names and wide numbers in every column."""
    names = ["ap", *(f"s{i}-" + "x" * (name_len - 3 - len(str(i))) for i in range(n_flows))]
    nodes = [
        {
            "name": name,
            "mac": {
                "attempts": 123456789012 + i,
                "retries": 98765432109,
                "collisions": 5555555555,
                "drops_retry_limit": 7777777,
                "busy_air_fraction": 0.987654,
            },
            "mesh": {
                "peers": [{"peer": names[0], "metric": 1234567}, {"peer": "n2", "metric": 89}],
                "paths": [{"dst": "far-away-node", "next_hop": names[0], "metric": 987654}],
                "preqs_sent": 123456,
                "preps_sent": 654321,
                "perrs_sent": 42,
                "path_setups": [{"setup_ms": 123456.789}],
                "retry_limits": [{"limit": 7}, {"limit": 16}],
            },
        }
        for i, name in enumerate(names)
    ]
    flows = []
    for i in range(n_flows):
        kind = ("tcp_file", "clap_file", "udp_cbr")[i % 3]
        flow: dict[str, Any] = {
            "id": i,
            "src": names[i + 1],
            "dst": "ap",
            "kind": kind,
            "goodput_bps": 1234567891234.5 + i,
            "delivered_packets": 98765432101 + i,
            "delivered_bytes": 10**12,
            "mean_delay_s": 12345.678,
            "loss_ratio": 0.123456,
            "transfer_throughput_bps": 987654321987.0,
        }
        if kind == "tcp_file":
            flow["tcp"] = {
                "retransmissions": 123456789,
                "timeouts": 98765,
                "rtt_mean_s": 1234.5678,
                "mean_cwnd_segments": 123456.7,
                "completion_s": 12345.678,
            }
        if kind == "clap_file":
            flow["clap"] = {
                "completion_s": 12345.678,
                "segments_sent": 123456789,
                "retransmissions": 1234567,
                "feedbacks_sent": 123456,
                "feedbacks_received": 123455,
                "rtt_mean_s": 1.2345,
            }
        flows.append(flow)
    summary = {
        "scenario": "a-long-scenario-name-" + "y" * 40,
        "seed": 2**64 - 1,
        "flows": flows,
        "nodes": nodes,
        "links": [{"a": "ap", "b": names[1], "drops_queue": [1, 2], "lost": [3, 4]}],
        "totals": {"goodput_bps": 1.5e9, "collision_probability": 0.25},
        "sim_seconds": 10.0,
        "wall_seconds": 1.25,
        "events": 123456789,
    }
    tcp = {"cc": "cubic", "recovery": "newreno", "ack_every": 2}
    spec = {"flows": [{"tcp": tcp} if f["kind"] == "tcp_file" else {} for f in flows]}
    return summary, spec


def printed(summary: dict[str, Any], spec: dict[str, Any], width: int, **kw: Any) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, legacy_windows=False)
    runprint.print_tables(summary, spec, console, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("width", WIDTHS)
def test_no_number_is_cut_at_any_width(width):
    summary, spec = big_summary()
    text = printed(summary, spec, width)
    assert_nothing_cut(text, width)
    assert_summary_in_full(text, summary, spec)
    clap = [f for f in summary["flows"] if "clap" in f]
    assert_rows_in_full(text, runprint.clap_columns(clap), runprint.MAX_ROWS)
    # Too wide for one table below 120: split in parts that repeat the row's name.
    assert ("(continued)" in text) == (width < 120)
    assert "wired ap <-> s0-" in text


def test_a_table_that_fits_is_printed_at_its_natural_widths():
    flow = {"id": 0, "src": "sta1", "dst": "ap", "kind": "udp_cbr", "goodput_bps": 1e6}
    flow.update(delivered_packets=5, mean_delay_s=0.001, loss_ratio=0.0)
    summary = {"flows": [flow], "nodes": [{"name": "ap", "mac": {"attempts": 12}}]}
    text = printed(summary, {}, 200)
    assert "│ 0: sta1 -> ap │ cbr  │          1.000 │         5 │         1.000 │ 0.00% │" in text
    assert "│ ap   │       12 │       0 │          0 │     0 │    0.0 │" in text


def test_fit_folds_headers_before_names_and_splits_last():
    cols = [
        runprint.Column("flow", ["0: station-one -> ap"], numeric=False, key=True),
        *(runprint.Column(f"wide header {i}", ["1.5"]) for i in range(6)),
    ]
    # At 80 the headers fold ("wide" / "header" / "3") and everything fits in one table.
    (table,) = runprint.fit("t", cols, 80)
    widths = [c.width for c in table.columns]
    assert widths[0] == len("0: station-one -> ap") and min(widths[1:]) == len("header")
    assert sum(widths) + 3 * len(widths) + 1 <= 80
    # Much narrower, the name folds too; narrower still, the table splits.
    (table,) = runprint.fit("t", cols, 70)
    assert table.columns[0].width == 70 - 1 - 3 * 7 - 6 * 6 == 12  # "station-one" stays whole
    parts = runprint.fit("t", cols, 40)
    assert len(parts) > 1
    assert all(p.columns[0].header == "flow" for p in parts)
    shown = [c.header for p in parts for c in p.columns[1:]]
    assert shown == [c.header for c in cols[1:]]  # every column once, in order


def test_row_cap_and_all():
    summary, spec = big_summary(n_flows=25)
    text = printed(summary, spec, 80)
    more = [int(m.group(1)) for line in text.splitlines() if (m := MORE.match(line))]
    # flows, TCP flows (9 of 25), CLAP flows (8), nodes (26), mesh points (26)
    assert more == [5, 6, 6]
    assert "│ 23:" not in text  # a CBR flow: in the flows table only
    everything = printed(summary, spec, 80, max_rows=None)
    assert not any(MORE.match(line) for line in everything.splitlines())
    assert "│ 23:" in everything


def test_scenario_name_is_not_markup():
    summary, spec = big_summary(n_flows=1)
    summary["scenario"] = "[/bold] [red]x"
    assert "[/bold] [red]x" in printed(summary, spec, 120)


# --- the command line (stdout not a terminal) -------------------------------------------------


CASES = {
    "bss-udp": ("bss-udp-saturation.toml", ["stations=3", "duration_s=0.5", "warmup_s=0.1"]),
    "tcp": ("bss-tcp-bulk.toml", ["duration_s=0.6", "warmup_s=0.1"]),
    "mesh-chain": ("mesh-chain.toml", ["duration_s=6.0"]),
    "ht-upload": ("ht-upload.toml", ["duration_s=0.5", "warmup_s=0.1"]),
    "ht-upload-tcp-wired": (
        "ht-upload.toml",
        ["duration_s=0.5", "warmup_s=0.1", "traffic=tcp", "server=wired"],
    ),
    "clap": ("paper-001-clap.toml", ["duration_s=2.0", "warmup_s=0.1"]),
}


@pytest.mark.parametrize("columns", [80, None, 120])
@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_tables_never_cut_a_number(case, columns, examples_dir, tmp_path):
    pytest.importorskip("airtcp._core")
    example, sets = CASES[case]
    out = tmp_path / "out"
    args = ["run", str(examples_dir / example), "--out", str(out)]
    result = invoke(*args, *(a for s in sets for a in ("--set", s)), columns=columns)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert_nothing_cut(text, columns)  # unset: the width of a terminal on stdin, if any
    summary = json.loads((out / "summary.json").read_text())
    spec = json.loads((out / "spec.json").read_text())
    assert_summary_in_full(text, summary, spec)
    if case == "mesh-chain":
        assert "mesh points (802.11s)" in text
    if case in ("tcp", "mesh-chain", "ht-upload-tcp-wired"):
        assert "TCP flows" in text
    total = [line for line in text.splitlines() if line.startswith("total goodput ")]
    assert total == [runprint.total_line(summary)]  # one line, never wrapped


def test_quiet_prints_the_total_alone(examples_dir, tmp_path):
    pytest.importorskip("airtcp._core")
    args = ["run", str(examples_dir / "bss-udp-saturation.toml"), "--set", "stations=3"]
    args += ["--set", "duration_s=0.5", "--set", "warmup_s=0.1"]
    for flag in ("--quiet", "-q"):
        result = invoke(*args, flag, "--out", str(tmp_path / flag))
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        assert lines[0].startswith("total goodput "), result.stdout
        assert all(line.startswith("warning: ") for line in lines[1:]), result.stdout
        assert (tmp_path / flag / "summary.json").exists()
    both = invoke(*args, "--quiet", "--json")  # --json is unaffected
    assert both.exit_code == 0, both.output
    assert json.loads(both.stdout)["scenario"] == "bss-udp-saturation"


def test_a_thousand_stations_print_a_screenful(examples_dir):
    pytest.importorskip("airtcp._core")
    args = ["run", str(examples_dir / "bss-udp-saturation.toml"), "--set", "stations=1000"]
    result = invoke(*args, "--set", "duration_s=0.15", "--set", "warmup_s=0.05")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if not line.startswith("warning: ")]
    assert len(lines) < 70, len(lines)
    more = [int(m.group(1)) for line in lines if (m := MORE.match(line))]
    assert more == [1000 - 20, 1001 - 20]  # flows, nodes
    assert_nothing_cut(result.stdout)
    assert "19: sta20 -> ap" in result.stdout and "20: sta21 -> ap" not in result.stdout


def test_all_prints_every_row(examples_dir):
    pytest.importorskip("airtcp._core")
    args = ["run", str(examples_dir / "bss-udp-saturation.toml"), "--set", "stations=25"]
    result = invoke(*args, "--set", "duration_s=0.3", "--set", "warmup_s=0.1", "--all")
    assert result.exit_code == 0, result.output
    assert "24: sta25 -> ap" in result.stdout and "│ sta25 " in result.stdout
    assert not any(MORE.match(line) for line in result.stdout.splitlines())
    capped = invoke(*args, "--set", "duration_s=0.3", "--set", "warmup_s=0.1")
    assert capped.exit_code == 0, capped.output
    assert any(MORE.match(line) for line in capped.stdout.splitlines())
