"""airtcp plot: aggregated means and Student-t intervals, the lines drawn, the files written,
the CLI's errors, and time series from real runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cli_runner import CliRunner
from matplotlib.collections import LineCollection

import airtcp
from airtcp import plot, sweep
from airtcp.cli import app
from airtcp.config.load import load_toml
from airtcp.result import Result

runner = CliRunner()
T_975_2 = 4.302652729911275  # t_{0.975, 2}: a two-sided 95% interval from 3 values

# goodput [bit/s] of each replication at each (cc, retry_limit) point of the tiny store
GOODPUT = {
    ("newreno", 1): [1.0, 2.0, 3.0],
    ("newreno", 4): [4.0, 4.0, 7.0],
    ("cubic", 1): [10.0, 12.0],
    ("cubic", 4): [6.0, 9.0, 9.0],
    ("vegas", 1): [5.0],
}


def _hash(i: int) -> str:
    return f"{i:032x}"


def _row(i: int, cc: str, retry: int, rep: int, goodput: float) -> dict:
    summary = {
        "sim_seconds": 1.0,
        "measured_seconds": 0.8,
        "totals": {"goodput_bps": goodput},
        "flows": [{"id": 0, "goodput_bps": goodput, "tcp": {"retransmissions": 10 * rep}}],
    }
    return {
        "run_hash": _hash(i),
        "seed": i,
        "replication": rep,
        "params": json.dumps({"cc": cc, "retry_limit": retry}, sort_keys=True),
        "param.cc": cc,
        "param.retry_limit": retry,
        "error": None,
        "summary_json": json.dumps(summary),
        "totals.goodput_bps": goodput,
    }


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A hand-made store: the runs of GOODPUT, plus one failed run."""
    out = tmp_path / "store"
    i = 0
    for (cc, retry), values in GOODPUT.items():
        for rep, v in enumerate(values):
            i += 1
            sweep._write_row(out, _row(i, cc, retry, rep, v))
    failed = {
        "run_hash": _hash(999),
        "seed": 999,
        "replication": 2,
        "params": "{}",
        "param.cc": "cubic",
        "param.retry_limit": 1,
        "error": "RuntimeError: boom",
    }
    sweep._write_row(out, failed)
    return out


def _point(table, cc: str, retry: int):
    rows = table[(table["param.cc"] == cc) & (table["param.retry_limit"] == retry)]
    assert len(rows) == 1
    return rows.iloc[0]


# --- metric: aggregation ------------------------------------------------------------------------


def test_means_and_student_t_intervals_match_hand_computation(store):
    _, table = plot.metric(store, "param.retry_limit", "totals.goodput_bps", ["param.cc"])
    p = _point(table, "newreno", 1)
    half = T_975_2 * 1.0 / math.sqrt(3)  # sample std of [1, 2, 3] is 1
    assert (p["n"], p["mean"]) == (3, 2.0)
    assert half == pytest.approx(2.484, abs=1e-3)
    assert p["ci_low"] == pytest.approx(2.0 - half) and p["ci_high"] == pytest.approx(2.0 + half)
    p = _point(table, "cubic", 4)  # [6, 9, 9]: mean 8, std sqrt(3)
    assert p["mean"] == pytest.approx(8.0)
    assert p["ci_high"] - p["mean"] == pytest.approx(T_975_2 * math.sqrt(3) / math.sqrt(3))
    # The failed cubic run is left out: two values, t_{0.975,1} = 12.706.
    p = _point(table, "cubic", 1)
    assert (p["n"], p["mean"]) == (2, 11.0)
    assert p["ci_high"] - 11.0 == pytest.approx(12.7062047 * math.sqrt(2) / math.sqrt(2))
    assert "1 failed run excluded" in table.attrs["notes"]


def test_one_replication_has_no_interval(store):
    _, table = plot.metric(store, "param.retry_limit", "totals.goodput_bps", ["param.cc"])
    p = _point(table, "vegas", 1)
    assert p["n"] == 1 and p["mean"] == 5.0
    assert math.isnan(p["ci_low"]) and math.isnan(p["ci_high"])
    assert any("n = 1 have no interval" in n for n in table.attrs["notes"])


def test_another_confidence_level(store):
    _, table = plot.metric(store, "param.retry_limit", "totals.goodput_bps", ["param.cc"], ci=0.9)
    p = _point(table, "newreno", 1)
    assert p["ci_high"] - 2.0 == pytest.approx(2.919986 / math.sqrt(3), rel=1e-6)


def test_figure_has_one_line_per_group_with_error_bars(store):
    fig, table = plot.metric(store, "param.retry_limit", "totals.goodput_bps", ["param.cc"])
    (ax,) = fig.axes
    lines = {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}
    assert set(lines) == {"cubic", "newreno", "vegas (n=1: no CI)"}
    # bit/s are drawn in Mbit/s, at the x values, in x order
    assert list(lines["newreno"].get_xdata()) == [1, 4]
    assert list(lines["newreno"].get_ydata()) == pytest.approx([2e-6, 5e-6])
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(bars) == 2, "one set of error bars per group that has replications"
    assert ax.get_ylabel() == "goodput [Mbit/s]" and ax.get_xlabel() == "retry_limit"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(lines)


def test_y_may_be_a_path_into_the_summary(store):
    _, table = plot.metric(store, "param.retry_limit", "flows.0.tcp.retransmissions", ["param.cc"])
    assert _point(table, "newreno", 1)["mean"] == 10.0  # replications 0, 1, 2 -> 0, 10, 20
    _, same = plot.metric(
        store, "param.retry_limit", "summary.flows.0.tcp.retransmissions", ["param.cc"]
    )
    assert same["mean"].tolist() == table["mean"].tolist()


def test_where_selects_runs_and_other_parameters_must_not_vary(store):
    fig, table = plot.metric(
        store, "param.retry_limit", "totals.goodput_bps", where="\"param.cc\" = 'newreno'"
    )
    assert table["mean"].tolist() == [2.0, 5.0]
    assert len([ln for ln in fig.axes[0].get_lines() if ln.get_label()[0] != "_"]) == 1
    with pytest.raises(plot.PlotError, match="param.cc varies within a point"):
        plot.metric(store, "param.retry_limit", "totals.goodput_bps")
    _, pooled = plot.metric(store, "param.retry_limit", "totals.goodput_bps", pool=True)
    assert pooled["n"].tolist() == [3 + 2 + 1, 3 + 3]


@pytest.mark.parametrize(
    ("x", "y", "where", "needle"),
    [
        ("param.retry_limit", "totals.goodput", None, 'did you mean "totals.goodput_bps"?'),
        ("param.retry_limit", "nope", None, "columns: run_hash, seed, replication,"),
        ("param.retry_limit", "flows.0.tcp.rto", None, "keys: retransmissions"),
        ("param.retry_limit", "flows.2.goodput_bps", None, "a list of 1: indices 0..0"),
        ("param.retry_limit", "totals.goodput_bps", "\"param.cc\" = 'x'", "no successful runs"),
        ("param.retry_limit", "totals.goodput_bps", "nope = 1", "--where 'nope = 1':"),
    ],
)
def test_metric_errors_name_the_value(store, x, y, where, needle):
    with pytest.raises(plot.PlotError) as exc:
        plot.metric(store, x, y, ["param.cc"], where=where)
    assert needle in str(exc.value)


# --- files --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suffix", "magic"),
    [(".png", (b"\x89PNG",)), (".svg", (b"<?xml", b"<svg")), (".pdf", (b"%PDF",))],
)
def test_save_writes_the_format_of_the_suffix(store, tmp_path, suffix, magic):
    fig, _ = plot.metric(store, "param.retry_limit", "totals.goodput_bps", ["param.cc"])
    out = plot.save(fig, tmp_path / "figs" / f"fig{suffix.upper()}")
    assert out.read_bytes().startswith(magic)
    assert [p.name for p in out.parent.iterdir()] == [out.name], "no temporary file is left"


def test_svg_and_pdf_are_reproducible(store, tmp_path):
    for suffix in (".svg", ".pdf"):
        a, b = (tmp_path / f"a{suffix}", tmp_path / f"b{suffix}")
        for out in (a, b):
            fig, _ = plot.metric(store, "param.retry_limit", "totals.goodput_bps", ["param.cc"])
            plot.save(fig, out)
        assert a.read_bytes() == b.read_bytes()


# --- CLI ----------------------------------------------------------------------------------------


def invoke(*args: str):
    return runner.invoke(app, ["plot", *args])


def assert_user_error(result, needle: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert needle in lines[0], lines[0]
    assert "Traceback" not in result.output


def test_cli_metric_writes_the_figure(store, tmp_path):
    out = tmp_path / "fig.png"
    args = ["--x", "param.retry_limit", "--y", "totals.goodput_bps", "--group", "param.cc"]
    result = invoke("metric", str(store), *args, "--out", str(out), "--title", "T")
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "3 line(s), 5 points" in result.stdout and "1 failed run excluded" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--out", "{tmp}/fig.jpg"], "--out {tmp}/fig.jpg: unknown figure format '.jpg' (allowed"),
        (["--out", "{tmp}/fig"], "unknown figure format '(none)'"),
        (["--out", "{tmp}/fig.png", "--y", "totals.nope"], "--y 'totals.nope': neither a column"),
        (["--out", "{tmp}/fig.png", "--where", "seed < 0"], "no successful runs"),
        (["--out", "{tmp}/fig.png", "--ci", "1.5"], "--ci: 1.5 (allowed"),
        (["--out", "{tmp}/fig.png", "--group", "param.retry_limit"], "also given as --x"),
    ],
)
def test_cli_metric_errors_exit_2_and_write_nothing(store, tmp_path, args, needle):
    figs = tmp_path / "figs"
    figs.mkdir()
    args = [a.replace("{tmp}", str(figs)) for a in args]
    base = {"--x": "param.retry_limit", "--y": "totals.goodput_bps"}
    for i in range(0, len(args), 2):
        base[args[i]] = args[i + 1]
    result = invoke("metric", str(store), *[s for kv in base.items() for s in kv])
    assert_user_error(result, needle.replace("{tmp}", str(figs)))
    assert list(figs.iterdir()) == []


def test_cli_metric_missing_store(tmp_path):
    result = invoke(
        "metric", str(tmp_path), "--x", "a", "--y", "b", "--out", str(tmp_path / "f.png")
    )
    assert_user_error(result, "no stored runs")


def test_cli_trace_run_prefix_errors(store, tmp_path):
    out = tmp_path / "t.png"
    assert_user_error(invoke("trace", str(store), "--out", str(out)), "13 runs stored")
    assert_user_error(
        invoke("trace", str(store), "--run", "0000", "--out", str(out)), "ambiguous, matches"
    )
    assert_user_error(
        invoke("trace", str(store), "--run", "ff", "--out", str(out)), "no run stored in"
    )
    assert_user_error(
        invoke("trace", str(store), "--run", _hash(999), "--out", str(out)), "failed, nothing"
    )
    assert_user_error(
        invoke("trace", str(store), "--run", _hash(1), "--out", str(out)), "no tcp trace for run"
    )
    assert_user_error(
        invoke("trace", str(store), "--kind", "tcp", "--y", "cwin", "--out", str(out)),
        "--y 'cwin': not drawable from tcp (allowed: cwnd,",
    )
    assert_user_error(invoke("trace", str(tmp_path / "nope"), "--out", str(out)), "no such")
    assert not out.exists()


# --- trace: synthetic runs with known answers ---------------------------------------------------


def _result(traces: dict, flows: list | None = None) -> Result:
    summary = {
        "scenario": "synthetic",
        "seed": 1,
        "sim_seconds": 1.0,
        "measured_seconds": 1.0,
        "flows": flows or [],
        "nodes": [{"name": "ap"}, {"name": "sta1"}],
    }
    return Result(summary, traces)


def _two_frames(second: str) -> dict[str, list]:
    """A mac_tx trace of two data frames of node 1: 0-0.3 s (ok) and 0.6-0.7 s (``second``)."""
    return {
        "start_ns": [0, 600_000_000],
        "end_ns": [300_000_000, 700_000_000],
        "node": [1, 1],
        "dst": [0, 0],
        "kind": ["data", "data"],
        "bytes": [1000, 500],
        "retry": [False, False],
        "outcome": ["ok", second],
    }


def test_mac_airtime_splits_transmissions_over_bins():
    mac = _two_frames("collision")
    fig, data = plot.trace(_result({"mac_tx": mac}), "mac_tx", "airtime", bin_s=0.25)
    assert data["value"].tolist() == pytest.approx([1.0, 0.2, 0.4, 0.0])
    assert data["time_s"].tolist() == pytest.approx([0.125, 0.375, 0.625, 0.875])
    assert [ln.get_label() for ln in fig.axes[0].get_lines()] == ["sta1"]
    _, data = plot.trace(_result({"mac_tx": mac}), "mac_tx", "throughput", bin_s=0.5)
    assert data["value"].tolist() == pytest.approx([1000 * 8 / 0.5 * 1e-6, 0.0])


def test_packet_goodput_and_delay_per_flow():
    flows = [{"src": "a", "dst": "b", "delivered_packets": 4, "delivered_bytes": 4000}]
    packets = {
        "flow": [0, 0, 0, 0],
        "seq": [0, 1, 2, 3],
        "created_ns": [0, 100_000_000, 200_000_000, 850_000_000],
        "delivered_ns": [10_000_000, 120_000_000, 230_000_000, 900_000_000],
    }
    result = _result({"packets": packets}, flows)
    fig, data = plot.trace(result, "packets", "goodput", bin_s=0.5)
    assert data["value"].tolist() == pytest.approx([3 * 8000 / 0.5 * 1e-6, 8000 / 0.5 * 1e-6])
    assert fig.axes[0].get_lines()[0].get_label() == "flow 0: a \u2192 b"
    _, data = plot.trace(result, "packets", "delay")
    assert data["value"].tolist() == pytest.approx([10.0, 20.0, 30.0, 50.0])


def test_tcp_trace_units_and_infinite_ssthresh():
    tcp = {
        "time_ns": [0, 500_000_000],
        "flow": [0, 0],
        "cwnd": [10, 5],
        "ssthresh": [2**31 - 1, 5],
        "srtt_ns": [20_000_000, 30_000_000],
        "rto_ns": [200_000_000, 200_000_000],
        "in_flight_bytes": [14600, 7300],
        "pacing_rate_bps": [19_093_472, 0],
        "ca_state": ["open", "recovery"],
    }
    result = _result({"tcp": tcp})
    assert plot.trace(result, "tcp", "rtt")[1]["value"].tolist() == [20.0, 30.0]
    assert plot.trace(result, "tcp", "in_flight_bytes")[1]["value"].tolist() == [14.6, 7.3]
    fig, data = plot.trace(result, "tcp", "pacing")
    assert data["value"].tolist() == [19.093472, 0.0]
    assert fig.axes[0].get_ylabel() == "pacing rate [Mbit/s]"
    ssthresh = plot.trace(result, "tcp", "ssthresh")[1]["value"].tolist()
    assert math.isnan(ssthresh[0]) and ssthresh[1] == 5.0
    fig, _ = plot.trace(result, "tcp")
    assert fig.axes[0].get_ylabel() == "cwnd [segments]" and fig.axes[0].get_xlabel() == "time [s]"
    with pytest.raises(plot.PlotError, match=r"--flow 3: no tcp rows \(flows in this trace: 0\)"):
        plot.trace(result, "tcp", flow=3)
    with pytest.raises(plot.PlotError, match="no mac_tx trace for synthetic"):
        plot.trace(result, "mac_tx")


# --- trace: real runs ---------------------------------------------------------------------------


@pytest.fixture
def real_core():
    return pytest.importorskip("airtcp._core")


TRACES_ON = [f"traces.{k}=true" for k in ("tcp", "tcp_segments", "mac_tx")]


def test_trace_of_a_real_tcp_run(real_core, examples_dir, tmp_path):
    run_dir = tmp_path / "run"
    sets = ["duration_s=0.5", "warmup_s=0.1", "report_interval_s=0.1", *TRACES_ON]
    args = ["run", str(examples_dir / "bss-tcp-bulk.toml"), "--out", str(run_dir)]
    result = runner.invoke(app, [*args, *(a for s in sets for a in ("--set", s))])
    assert result.exit_code == 0, result.output

    out = tmp_path / "cwnd.svg"
    result = invoke("trace", str(run_dir), "--kind", "tcp", "--y", "cwnd", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith((b"<?xml", b"<svg"))

    run = Result.read(run_dir)
    fig, data = plot.trace(run_dir, "tcp", "cwnd", flow=0)
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    assert labels == ["flow 0: sta1 \u2192 ap", "end of warm-up"]
    assert data["value"].tolist() == run.traces["tcp"].column("cwnd").to_pylist()

    # Goodput from the sender's cumulative ACKs: the bins add up to the bytes acknowledged.
    _, data = plot.trace(run_dir, "tcp_segments", "goodput", bin_s=0.05)
    segs = run.traces["tcp_segments"].to_pandas()
    acked = segs[segs["event"] == "acked"]["ack"]
    total_bits = (data["value"] * 1e6 * 0.05).sum()
    assert total_bits == pytest.approx((acked.max() - acked.min()) * 8)

    # The summary's interval goodput, one point per report interval after the warm-up.
    _, data = plot.trace(run_dir, "interval")
    expected = run.summary["flows"][0]["interval_goodput_bps"]
    assert data["value"].tolist() == pytest.approx([v * 1e-6 for v in expected])
    assert data["time_s"].tolist() == pytest.approx([0.15, 0.25, 0.35, 0.45])


def test_trace_of_a_run_in_a_sweep_store(real_core, examples_dir, tmp_path):
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f"""
base = "{examples_dir / "bss-tcp-bulk.toml"}"
replications = 2
[grid]
duration_s = [0.3]
warmup_s = [0.1]
"traces.tcp" = [true]
"""
    )
    out = tmp_path / "store"
    sweep.run_sweep(sweep.load_sweep(spec), out, workers=1)
    hashes = sorted(sweep.stored_hashes(out))
    fig, data = plot.trace(out, "tcp", "rtt", run=hashes[0][:10])
    rows = sweep.read_runs(out).to_pylist()
    assert len(rows) == 2 and fig.axes[0].get_title().startswith("smoothed RTT [ms]: run ")
    assert len(data) > 10 and data["value"].between(0.01, 1000).all()
    result = invoke(
        "metric",
        str(out),
        "--x",
        "param.duration_s",
        "--y",
        "flows.0.tcp.rtt_mean_s",
        "--out",
        str(tmp_path / "rtt.pdf"),
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "rtt.pdf").read_bytes().startswith(b"%PDF")
    # --where overlays the runs it matches, each named by what differs: its replication.
    fig, data = plot.trace(out, "tcp", "rtt", where="replication >= 0")
    assert data["run"].unique().tolist() == ["replication 0", "replication 1"]
    assert fig.axes[0].get_title() == "smoothed RTT [ms]: 2 runs"


def test_rates_trace_of_arf_steps_up_to_54(real_core, tmp_path):
    # 802.11a, one station, ns-3's ARF on a clean channel: one step per 10 ACKs from 6 to 54
    # Mbit/s, then 54 to the end of the run.
    run_dir = tmp_path / "run"
    toml = tmp_path / "arf.toml"
    toml.write_text(
        'stations = 1\nstandard = "80211a"\nduration_s = 0.5\n'
        '[mac]\nrate_control = "arf-ns3"\n[traces]\nrates = true\n'
    )
    result = runner.invoke(app, ["run", str(toml), "--out", str(run_dir)])
    assert result.exit_code == 0, result.output
    fig, data = plot.trace(run_dir, "rates")
    assert [ln.get_label() for ln in fig.axes[0].get_lines()] == ["sta1 -> ap"]
    assert data["value"].tolist() == [9, 12, 18, 24, 36, 48, 54, 54]
    assert data["time_s"].iloc[-1] == pytest.approx(0.5)
    with pytest.raises(plot.PlotError, match="--flow: rates is drawn per node"):
        plot.trace(run_dir, "rates", flow=0)


# --- trace: several runs, a time window, --show -------------------------------------------------


def _tcp_result(overrides: list[str], cwnd: list[int]) -> Result:
    tcp = {
        "time_ns": [0, 500_000_000],
        "flow": [0, 0],
        "cwnd": cwnd,
        "ssthresh": [2**31 - 1, 5],
        "srtt_ns": [20_000_000, 30_000_000],
        "rto_ns": [200_000_000, 200_000_000],
        "in_flight_bytes": [14600, 7300],
        "ca_state": ["open", "open"],
    }
    summary = {
        "scenario": "synthetic",
        "seed": 1,
        "sim_seconds": 1.0,
        "measured_seconds": 1.0,
        "flows": [{"src": "sta1", "dst": "ap"}],
        "nodes": [{"name": "ap"}, {"name": "sta1"}],
    }
    provenance = {"seed": 1, "scenario": {"name": "synthetic"}, "overrides": overrides}
    return Result(summary, {"tcp": tcp}, provenance=provenance)


def test_overlay_names_each_run_by_what_tells_it_apart():
    a = _tcp_result(["duration_s=1", "cc=reno"], [10, 5])
    b = _tcp_result(["duration_s=1", "cc=cubic"], [20, 8])
    fig, data = plot.trace([a, b], "tcp", "cwnd")
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    assert labels == ["cc=reno", "cc=cubic"], (
        "what both share (scenario, seed, duration) is left out"
    )
    assert list(data.columns) == ["run", "line", "time_s", "value"]
    assert data.groupby("run", sort=False)["value"].apply(list).to_dict() == {
        "cc=reno": [10.0, 5.0],
        "cc=cubic": [20.0, 8.0],
    }
    assert fig.axes[0].get_title() == "cwnd [segments]: 2 runs"
    # Runs nothing tells apart are numbered.
    _, data = plot.trace([a, a], "tcp", "cwnd")
    assert data["run"].unique().tolist() == ["synthetic (seed 1) #1", "synthetic (seed 1) #2"]


def test_overlay_of_run_directories_falls_back_to_their_names(tmp_path):
    for name, cwnd in (("base", [10, 5]), ("other", [20, 8])):
        _tcp_result(["duration_s=1"], cwnd).write(tmp_path / name)
    _, data = plot.trace([tmp_path / "base", tmp_path / "other"], "tcp", "cwnd")
    assert data["run"].unique().tolist() == ["base", "other"]


def test_window_carries_a_held_value_to_its_start():
    result = _tcp_result([], [10, 5])
    fig, data = plot.trace(result, "tcp", "cwnd", t0_s=0.25, t1_s=0.75)
    assert data["time_s"].tolist() == [0.25, 0.5] and data["value"].tolist() == [10.0, 5.0]
    assert fig.axes[0].get_xlim() == (0.25, 0.75)
    # Binned series are binned from the window's start.
    mac = _two_frames("ok")
    _, data = plot.trace(
        _result({"mac_tx": mac}), "mac_tx", "airtime", t0_s=0.25, t1_s=0.75, bin_s=0.25
    )
    assert data["time_s"].tolist() == pytest.approx([0.375, 0.625])
    assert data["value"].tolist() == pytest.approx([0.2, 0.4])


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"t0_s": 0.5, "t1_s": 0.5}, "--to 0.5 is not after --from 0.5"),
        ({"t0_s": -1.0}, "--from: -1.0 (allowed: a finite number of seconds >= 0)"),
        ({"t0_s": 2.0}, "--from 2: after the end of the run (1 s)"),
        ({"t0_s": 0.6, "t1_s": 0.7, "y": "rtt"}, None),  # a held value: drawn
    ],
)
def test_window_errors(kwargs, needle):
    result = _tcp_result([], [10, 5])
    if needle is None:
        _, data = plot.trace(result, "tcp", **kwargs)
        assert data["value"].tolist() == [30.0]
        return
    with pytest.raises(plot.PlotError) as exc:
        plot.trace(result, "tcp", **kwargs)
    assert needle in str(exc.value)


def test_where_picks_runs_of_a_store_only(store, tmp_path, monkeypatch):
    with pytest.raises(plot.PlotError, match="--where and --run: give one"):
        plot.trace(store, "interval", where="seed < 3", run="00")
    _tcp_result([], [1, 2]).write(tmp_path / "run")
    with pytest.raises(plot.PlotError, match="--where: only for a sweep store"):
        plot.trace(tmp_path / "run", "tcp", where="seed < 3")
    monkeypatch.setattr(plot, "MAX_OVERLAY", 5)
    with pytest.raises(plot.PlotError, match=r"matches 12 runs \(allowed: at most 5"):
        plot.trace(store, "interval", where="seed < 999")
    with pytest.raises(plot.PlotError, match="no successful run of .* matches"):
        plot.trace(store, "interval", where="seed = 999")


def test_cli_trace_overlay_window_and_show(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("agg", force=True)  # no window, whatever the machine has
    for name, overrides in (("a", ["cc=reno"]), ("b", ["cc=cubic"])):
        _tcp_result(overrides, [10, 5]).write(tmp_path / name)
    out = tmp_path / "cwnd.png"
    runs = [str(tmp_path / "a"), str(tmp_path / "b")]
    result = invoke("trace", *runs, "--from", "0.25", "--to", "0.75", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "2 line(s) of 2 runs, 4 points" in result.stdout and out.is_file()
    # --show: with Agg no window opens; with --out the figure is still written.
    out.unlink()
    result = invoke("trace", *runs, "--show", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.is_file() and "warning: --show: matplotlib's backend 'agg'" in result.stderr
    assert_user_error(invoke("trace", *runs, "--show"), "--show: matplotlib's backend 'agg'")
    assert_user_error(invoke("trace", *runs), "--out FILE or --show is needed")
    assert_user_error(invoke("trace", runs[0], "--to", "0", "--out", str(out)), "--to 0 is not")


FAKE_BACKEND = """
from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import FigureCanvasBase, FigureManagerBase

SHOWN = []


class FigureManager(FigureManagerBase):
    def show(self):
        SHOWN.append(self.canvas.figure.axes[0].get_title())

    @classmethod
    def pyplot_show(cls, *, block=None):
        for manager in Gcf.get_all_fig_managers():
            manager.show()


class FigureCanvas(FigureCanvasBase):
    manager_class = FigureManager
"""


def test_show_hands_the_figure_to_an_interactive_backend(tmp_path, monkeypatch):
    import importlib

    import matplotlib
    import matplotlib.pyplot as plt

    (tmp_path / "airtcp_fake_backend.py").write_text(FAKE_BACKEND)
    monkeypatch.syspath_prepend(str(tmp_path))
    fake = importlib.import_module("airtcp_fake_backend")
    fig, _ = plot.trace(_tcp_result([], [10, 5]), "tcp", "cwnd", title="shown")
    matplotlib.use("module://airtcp_fake_backend", force=True)
    try:
        plot.show(fig)
    finally:
        plt.close("all")
        matplotlib.use("agg", force=True)
    assert fake.SHOWN == ["shown"]


def test_the_mpdus_trace_draws_the_subframe_error_rate_by_position(tmp_path: Path) -> None:
    # examples/ampdu-aging.toml (MCS 7, ath9k's 4-ms A-MPDUs of 20 subframes, the station
    # walking round its AP at 1 m/s: f_D = 17.3 Hz, the estimate taken at the preamble), 2 s: one point per position 0..19, the first
    # subframe (36 us after the PPDU's start) decoded on a fresh estimate and the last (3.65
    # ms) on a stale one; the rates are the lost share of each position's subframes among
    # PPDUs a BlockAck answered, with Wilson intervals around them.
    cfg = load_toml(Path(__file__).resolve().parents[2] / "examples" / "ampdu-aging.toml")
    cfg["duration_s"] = 2.0
    res = airtcp.run(cfg, seed=1)
    fig, data = plot.trace(res, kind="mpdus")
    assert list(data["position"]) == list(range(20))
    assert (data["lo"] <= data["value"]).all() and (data["value"] <= data["hi"]).all()
    assert data["value"].iloc[0] < 0.05 < 0.5 < data["value"].iloc[-1]
    assert data["offset_ms"].iloc[0] < 0.05 and 3.5 < data["offset_ms"].iloc[-1] < 4.0
    out = tmp_path / "ser.png"
    result = CliRunner().invoke(
        app, ["plot", "trace", str(_run_dir(res, tmp_path)), "--kind", "mpdus", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 0


def _run_dir(res: Result, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    res.write(out)
    return out


def test_a_still_channel_draws_zero_error_rates_with_their_intervals() -> None:
    # Standing still no subframe is lost: every rate 0, each Wilson interval [0, hi] (the
    # rounding of its lower end once put it above 0, and matplotlib refused the bars).
    cfg = load_toml(Path(__file__).resolve().parents[2] / "examples" / "ampdu-aging.toml")
    cfg["duration_s"] = 1.0
    cfg["mobility"] = {**cfg["mobility"], "speed_mps": 0.0}
    _, data = plot.trace(airtcp.run(cfg, seed=1), kind="mpdus")
    assert (data["value"] == 0).all() and (data["lo"] == 0).all() and (data["hi"] > 0).all()
