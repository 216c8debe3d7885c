"""The command line: user errors exit 2 with one message and write nothing; outputs parse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_runner import CliRunner

import airtcp
from airtcp.cli import app
from airtcp.result import OutputExistsError, Result

runner = CliRunner()

GOOD = """
name = "tiny"
stations = 2
duration_s = 0.5
"""


def invoke(*args: str):
    return runner.invoke(app, list(args))


def assert_user_error(result, needle: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    assert needle in lines[0], lines[0]
    assert "Traceback" not in result.output
    return lines[0]


# --- user errors --------------------------------------------------------------------------------


def test_missing_file(tmp_path):
    out = tmp_path / "out"
    result = invoke("run", str(tmp_path / "nope.toml"), "--out", str(out))
    assert_user_error(result, "nope.toml: no such scenario file")
    assert not out.exists()


def test_malformed_toml(write_toml, tmp_path):
    path = write_toml('stations = 3\nstandard = "80211a\n')
    out = tmp_path / "out"
    result = invoke("run", str(path), "--out", str(out))
    assert_user_error(result, f"{path}: invalid TOML at line 2 column ")
    assert not out.exists()


@pytest.mark.parametrize(
    ("toml", "sets", "needle"),
    [
        ("stationz = 3\n", [], 'stationz: unknown field; did you mean "stations"?'),
        ("stations = 0\n", [], "stations: must be >= 1 (got 0;"),
        ('stations = "ten"\n', [], "stations: wrong type: expected an integer"),
        ('standard = "80211be"\n', [], 'standard: not an allowed value (got "80211be"'),
        ("data_rate_mbps = 11\n", [], "data_rate_mbps: not a rate of 80211a (got 11;"),
        ("data_rate_mbps = -1\n", [], "data_rate_mbps: must be > 0 (got -1;"),
        ("[mac]\nshort_retry_limit = 40\n", [], "mac.short_retry_limit: must be <= 31 (got 40;"),
        (GOOD, ["stations=0"], "stations: must be >= 1 (got 0;"),
        (GOOD, ["stations"], "--set stations: expected KEY=VALUE"),
        (GOOD, ["mac..aifsn=2"], "empty segment"),
        (GOOD, ["standard=80211q"], 'standard: not an allowed value (got "80211q"'),
        (GOOD, ["mac.short_retry_limit=40"], "mac.short_retry_limit: must be <= 31"),
        (
            GOOD,
            ["traffic=tcp", "cc=foo"],
            'cc: unknown congestion control (got "foo"; allowed: reno',
        ),
        (GOOD, ["cc=cubic"], 'cc: only used by TCP flows, and the scenario has none (got "cubic"'),
        (GOOD, ["traffic=tcp", "tcp.mss_bytes=9000"], "tcp.mss_bytes: must be <= 2244 (got 9000;"),
        (
            '[[flows]]\nkind = "tcp_file"\nsrc = "sta1"\ndst = "ap"\n',
            [],
            'flows.0.file_bytes: required for kind = "tcp_file"',
        ),
        # A file (or a --set) that spells a flow kind as scenarios did before they took the
        # world spec's names is told the name to write.
        (
            '[[flows]]\nkind = "tcp-bulk"\nsrc = "sta1"\ndst = "ap"\n',
            [],
            "flows.0.kind: not an allowed value: flow kinds are spelled with underscores, as in "
            'the world spec and the summary; did you mean "tcp_bulk"? (got "tcp-bulk"; allowed: '
            '"udp_saturating", "udp_cbr", "udp_poisson", "udp_onoff", "tcp_bulk", "tcp_file" or '
            '"clap_file")',
        ),
        (
            GOOD,
            ['flows=[{kind = "udp-cbr", src = "sta1", dst = "ap", rate_mbps = 1.0}]'],
            "flows.0.kind: not an allowed value: flow kinds are spelled with underscores, as in "
            'the world spec and the summary; did you mean "udp_cbr"? (got "udp-cbr";',
        ),
    ],
)
def test_bad_scenarios_exit_2(write_toml, tmp_path, toml, sets, needle):
    path = write_toml(toml)
    out = tmp_path / "out"
    args = ["run", str(path), "--out", str(out)]
    for item in sets:
        args += ["--set", item]
    assert_user_error(invoke(*args), needle)
    assert not out.exists()


def test_several_problems_one_line_each(write_toml):
    path = write_toml("stations = 0\n[mac]\naifsn = 99\n")
    result = invoke("run", str(path))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)


def test_non_empty_out_dir_is_refused_before_running(write_toml, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert_user_error(invoke("run", str(write_toml(GOOD)), "--out", str(out)), "not empty")
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_negative_seed(write_toml):
    assert_user_error(invoke("run", str(write_toml(GOOD)), "--seed", "-1"), "--seed")


def test_subprocess_error_has_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(Path(airtcp.__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-m", "airtcp.cli", "run", str(tmp_path / "missing.toml")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'missing.toml'}: no such scenario file"
    ]


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"airtcp {airtcp.__version__}"


def test_version_matches_pyproject(repo_root):
    import tomllib

    project = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]
    assert airtcp.__version__ == project["version"]


# --- analytic -------------------------------------------------------------------------------------


def test_analytic_tmt_json():
    result = invoke("analytic", "tmt", "--standard", "80211a", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["model"] == "tmt"
    assert (data["data_rate_mbps"], data["basic_rate_mbps"]) == (54.0, 6.0)
    assert 0 < data["tmt_bps"] < 54e6


def test_analytic_tmt_b_defaults_and_options():
    result = invoke(
        "analytic", "tmt", "--standard", "80211b", "--payload-bytes", "1000", "--rts-cts", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["data_rate_mbps"], data["basic_rate_mbps"], data["rts_cts"]) == (11.0, 1.0, True)


def test_analytic_bianchi_json():
    args = ["analytic", "bianchi", "--stations", "10", "--standard", "80211a", "--json"]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["model"] == "bianchi" and data["stations"] == 10
    assert 0 < data["tau"] < 1 and 0 < data["p"] < 1
    assert 0 < data["throughput_bps"] < 54e6


def test_analytic_tables_print():
    result = invoke("analytic", "bianchi", "--stations", "5", "--standard", "80211g")
    assert result.exit_code == 0, result.output
    assert "throughput Mbit/s" in result.stdout
    result = invoke("analytic", "tmt", "--standard", "80211g", "--erp-mixed")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["bianchi", "--stations", "5", "--standard", "80211q"], "standard"),
        (["bianchi", "--stations", "0", "--standard", "80211a"], "stations"),
        (["tmt", "--standard", "80211a", "--data-rate-mbps", "11"], "11"),
        (["tmt", "--standard", "80211b", "--preamble", "short", "--basic-rate-mbps", "1"], "short"),
    ],
)
def test_analytic_bad_input_exit_2(args, needle):
    assert_user_error(invoke("analytic", *args), needle)


# --- run, with a stand-in core ----------------------------------------------------------------------


def fake_core(raise_error: str | None = None) -> types.ModuleType:
    """A stand-in for airtcp._core that returns a well-formed summary for any spec."""

    def run(spec_json: str, seed: int):
        if raise_error:
            raise ValueError(raise_error)
        spec = json.loads(spec_json)
        names = [n["name"] for n in spec["nodes"]]
        flows = [
            {
                "id": i,
                "kind": f["kind"],
                "src": names[f["src"]],
                "dst": names[f["dst"]],
                "sent_packets": 10,
                "delivered_packets": 9,
                "delivered_bytes": 9 * f["payload_bytes"],
                "goodput_bps": 1e6 + seed,
                "mean_delay_s": 0.002,
                "lost_packets": 1,
                "loss_ratio": 0.1,
            }
            for i, f in enumerate(spec["flows"])
        ]
        for flow, f in zip(flows, spec["flows"], strict=True):
            if f["kind"].startswith("tcp"):
                flow["tcp"] = {
                    "segments_sent": 10,
                    "retransmissions": 7,
                    "timeouts": 2,
                    "rtt_mean_s": 0.0123,
                    "mean_cwnd_segments": 12.5,
                    "completion_s": 0.4321 if f["kind"] == "tcp_file" else None,
                }
        mac = {"attempts": 12, "retries": 2, "collisions": 1, "busy_air_fraction": 0.5}
        summary = {
            "sim_seconds": spec["duration_ns"] / 1e9,
            "measured_seconds": (spec["duration_ns"] - spec["warmup_ns"]) / 1e9,
            "events": 1000,
            "flows": flows,
            "nodes": [{"name": n, "mac": dict(mac)} for n in names],
            "totals": {
                "attempts": 12,
                "collisions": 1,
                "collision_probability": 0.08,
                "goodput_bps": 2e6,
            },
        }
        traces = (
            {"mac_tx": {"t_ns": [1, 2, 3], "node": [0, 1, 0]}} if spec["traces"]["mac_tx"] else {}
        )
        return json.dumps(summary), traces

    from airtcp import _core as real

    module = types.ModuleType("airtcp._core")
    module.run = run  # type: ignore[attr-defined]
    # The tables and the routes are the core's, not the run's: the stand-in keeps them.
    module.tables = real.tables  # type: ignore[attr-defined]
    module.connectivity = real.connectivity  # type: ignore[attr-defined]
    module.connectivity_bytes = real.connectivity_bytes  # type: ignore[attr-defined]
    return module


@pytest.fixture
def with_fake_core(monkeypatch):
    def install(raise_error: str | None = None) -> None:
        module = fake_core(raise_error)
        monkeypatch.setitem(sys.modules, "airtcp._core", module)
        monkeypatch.setattr(airtcp, "_core", module, raising=False)

    return install


def test_run_json_with_stand_in_core(write_toml, with_fake_core):
    with_fake_core()
    result = invoke("run", str(write_toml(GOOD)), "--seed", "5", "--json", "--set", "stations=3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert (summary["seed"], summary["scenario"]) == (5, "tiny")
    assert summary["wall_seconds"] >= 0
    assert [f["src"] for f in summary["flows"]] == ["sta1", "sta2", "sta3"]


def test_run_table_and_out_with_stand_in_core(write_toml, tmp_path, with_fake_core):
    with_fake_core()
    out = tmp_path / "res" / "one"
    result = invoke("run", str(write_toml(GOOD)), "--out", str(out), "--set", "traces.mac_tx=true")
    assert result.exit_code == 0, result.output
    assert "goodput" in result.stdout and "sta2 -> ap" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == [
        ".airtcp-output",
        "flows.parquet",
        "nodes.parquet",
        "provenance.json",
        "scenario.toml",
        "spec.json",
        "summary.json",
        "traces",
    ]
    assert json.loads((out / "summary.json").read_text())["scenario"] == "tiny"
    assert pq.read_table(out / "nodes.parquet").column("mac_attempts").to_pylist() == [12] * 3
    assert pq.read_table(out / "traces" / "mac_tx.parquet").num_rows == 3
    assert json.loads((out / "spec.json").read_text())["nodes"][0]["name"] == "ap"
    assert [p.name for p in out.parent.iterdir()] == ["one"]  # no temporary left behind


TCP = """
name = "tcp"
stations = 2
duration_s = 0.5
cc = "cubic"

[tcp]
delayed_ack = false

[[flows]]
kind = "tcp_bulk"
src = "sta1"
dst = "ap"
recovery = "tahoe"

[[flows]]
kind = "tcp_file"
src = "sta2"
dst = "ap"
file_bytes = 100000
cc = "vegas"

[[flows]]
kind = "udp_cbr"
src = "sta2"
dst = "ap"
rate_mbps = 1.0
"""


def test_run_tcp_table_with_stand_in_core(write_toml, tmp_path, with_fake_core):
    with_fake_core()
    out = tmp_path / "out"
    result = invoke("run", str(write_toml(TCP)), "--out", str(out))
    assert result.exit_code == 0, result.output
    flows_table, tcp_table = result.stdout.split("TCP flows")
    assert "tcp_bulk" in flows_table and "tcp_file" in flows_table and "cbr" in flows_table
    rows = [line for line in tcp_table.splitlines() if "->" in line]
    assert len(rows) == 2  # the UDP flow is not in the TCP table
    cells = [[c.strip() for c in row.strip("│ ").split("│")] for row in rows]
    # flow, cc, recovery, ACK every, retx, RTOs, RTT ms, cwnd, done s
    assert cells[0] == ["0: sta1 -> ap", "cubic", "tahoe", "1", "7", "2", "12.3", "12.5", "-"]
    assert cells[1] == ["1: sta2 -> ap", "vegas", "newreno", "1", "7", "2", "12.3", "12.5", "0.432"]
    spec = json.loads((out / "spec.json").read_text())
    assert [f["kind"] for f in spec["flows"]] == ["tcp_bulk", "tcp_file", "udp_cbr"]
    assert spec["flows"][1]["file_bytes"] == 100000


def test_tcp_table_without_core_counters(write_toml, with_fake_core, monkeypatch):
    with_fake_core()
    core = sys.modules["airtcp._core"]
    run = core.run

    def bare(spec_json, seed):  # a core that reports no TCP counters yet
        summary, traces = run(spec_json, seed)
        data = json.loads(summary)
        for f in data["flows"]:
            f.pop("tcp", None)
        return json.dumps(data), traces

    monkeypatch.setattr(core, "run", bare)
    result = invoke("run", str(write_toml(TCP)))
    assert result.exit_code == 0, result.output
    tcp_table = result.stdout.split("TCP flows")[1]
    assert "cubic" in tcp_table and "retx" not in tcp_table and "RTOs" not in tcp_table


def test_udp_run_has_no_tcp_table(write_toml, with_fake_core):
    with_fake_core()
    result = invoke("run", str(write_toml(GOOD)))
    assert result.exit_code == 0, result.output
    assert "TCP flows" not in result.stdout and "sat" in result.stdout


def test_core_value_error_is_a_user_error(write_toml, tmp_path, with_fake_core):
    with_fake_core("flows.0.dst: bad node")
    out = tmp_path / "out"
    result = invoke("run", str(write_toml(GOOD)), "--out", str(out))
    assert_user_error(result, "flows.0.dst: bad node")
    assert not out.exists()


def test_missing_core_is_reported(write_toml, monkeypatch):
    monkeypatch.setitem(sys.modules, "airtcp._core", None)
    monkeypatch.delattr(airtcp, "_core", raising=False)
    result = invoke("run", str(write_toml(GOOD)))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the native core airtcp._core is not built")
    assert "Traceback" not in result.output


# --- Result.write -------------------------------------------------------------------------------------


def small_result() -> Result:
    summary = {
        "flows": [{"id": 0, "src": "sta1", "dst": "ap", "goodput_bps": 1.0}],
        "nodes": [{"name": "ap", "mac": {"attempts": 1, "retries": 0}}],
        "seed": 1,
    }
    return Result(summary, {"packets": {"t_ns": [1, 2], "event": ["tx", "rx"]}})


def test_result_tables_and_json():
    res = small_result()
    assert res.nodes.column_names == ["index", "name", "mac_attempts", "mac_retries"]
    assert res.flows.num_rows == 1
    assert json.loads(res.to_json()) == res.summary
    assert "\n" not in res.to_json()


def test_result_write_refuses_non_empty_dir(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "x").write_text("x")
    with pytest.raises(OutputExistsError, match="not empty"):
        small_result().write(out)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_result_write_into_empty_dir_and_read_back(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    small_result().write(out)
    back = Result.read(out)
    assert back.summary == small_result().summary
    assert back.traces["packets"].to_pydict() == {"t_ns": [1, 2], "event": ["tx", "rx"]}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_result_write_failure_leaves_nothing(tmp_path, monkeypatch):
    import pyarrow.parquet as pq  # Result.write imports it when it writes

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(pq, "write_table", boom)
    with pytest.raises(OSError, match="disk full"):
        small_result().write(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


# --- run with the real core ----------------------------------------------------------------------


@pytest.fixture
def real_core():
    return pytest.importorskip("airtcp._core")


def test_real_run_json(real_core, examples_dir):
    args = ["run", str(examples_dir / "bss-udp-saturation.toml"), "--json"]
    result = invoke(
        *args, "--set", "stations=2", "--set", "duration_s=0.5", "--set", "warmup_s=0.1"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip())
    assert summary["scenario"] == "bss-udp-saturation" and summary["seed"] == 1
    assert len(summary["flows"]) == 2
    assert summary["totals"]["goodput_bps"] > 0


def test_real_run_out(real_core, examples_dir, tmp_path):
    out = tmp_path / "out"
    args = ["run", str(examples_dir / "chain-udp.toml"), "--out", str(out)]
    result = invoke(*args, "--set", "hops=2", "--set", "duration_s=0.5")
    assert result.exit_code == 0, result.output
    assert {"summary.json", "flows.parquet", "nodes.parquet", "traces"} <= {
        p.name for p in out.iterdir()
    }
    assert pq.read_table(out / "nodes.parquet").num_rows == 3


@pytest.mark.parametrize("example", ["bss-tcp-bulk", "wired-server-tcp", "chain-tcp"])
def test_real_tcp_run(real_core, examples_dir, example):
    args = ["run", str(examples_dir / f"{example}.toml"), "--json"]
    result = invoke(*args, "--set", "duration_s=1.0", "--set", "warmup_s=0.2")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip())
    assert [f["kind"] for f in summary["flows"]] == ["tcp_bulk"]
    assert summary["flows"][0]["goodput_bps"] > 0


def test_real_run_is_deterministic(real_core):
    a = airtcp.run({"stations": 3, "duration_s": 0.3}, seed=3)
    b = airtcp.run({"stations": 3, "duration_s": 0.3}, seed=3)
    strip = lambda s: {k: v for k, v in s.items() if k != "wall_seconds"}  # noqa: E731
    assert strip(a.summary) == strip(b.summary)


def test_flow_table_shows_file_throughput_and_no_delay_for_tcp(
    write_toml, with_fake_core, monkeypatch
):
    with_fake_core()
    core = sys.modules["airtcp._core"]
    run = core.run

    def with_file(spec_json, seed):  # the core reports the file transfer's own throughput
        summary, traces = run(spec_json, seed)
        data = json.loads(summary)
        # 100000 file bytes x 8 over the fake completion_s 0.4321 (start 0): 1.851 Mbit/s
        data["flows"][1]["transfer_throughput_bps"] = 100000 * 8 / 0.4321
        return json.dumps(data), traces

    monkeypatch.setattr(core, "run", with_file)
    monkeypatch.setenv("COLUMNS", "200")  # every header whole
    result = invoke("run", str(write_toml(TCP)))
    assert result.exit_code == 0, result.output
    flows_table = result.stdout.split("TCP flows")[0]
    assert "file Mbit/s" in flows_table and "done s" in flows_table
    rows = [line for line in flows_table.splitlines() if "->" in line]
    cells = [[c.strip() for c in row.strip("│ ").split("│")] for row in rows]
    # flow, kind, goodput Mbit/s, delivered, mean delay ms, loss, file Mbit/s, done s: TCP flows
    # measure no delay ("-", not the core's 0); only the file transfer has the last two.
    assert cells[0] == ["0: sta1 -> ap", "tcp_bulk", "1.000", "9", "-", "10.00%", "-", "-"]
    assert cells[1] == ["1: sta2 -> ap", "tcp_file", "1.000", "9", "-", "10.00%", "1.851", "0.432"]
    assert cells[2] == ["2: sta2 -> ap", "cbr", "1.000", "9", "2.000", "10.00%", "-", "-"]
