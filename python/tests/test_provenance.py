"""A run directory keeps where the run came from (scenario as given, overrides, seed, version,
platform: airtcp.provenance), names its nodes by the index the traces use, and is replaced by
`airtcp run --force` only when airtcp wrote all of it."""

from __future__ import annotations

import json
import platform
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_runner import CliRunner

import airtcp
from airtcp.cli import app
from airtcp.outpath import MARKER, OutputExistsError
from airtcp.result import Result

pytest.importorskip("airtcp._core")

runner = CliRunner()

TINY = """# a comment, kept as written
name = "tiny"
stations = 2
duration_s = 0.3   # short
warmup_s = 0.1
"""


def invoke(*args: str):
    return runner.invoke(app, list(args))


def listing(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for a directory)."""
    return {
        str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


def user_error(result, needle: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


def provenance(out: Path) -> dict:
    return json.loads((out / "provenance.json").read_text())


# --- provenance -------------------------------------------------------------------------------


def test_cli_run_keeps_scenario_overrides_seed_version_platform(tiny, tmp_path):
    out = tmp_path / "out"
    args = ["run", str(tiny), "--seed", "9", "--set", "stations=3", "--set", "mac.aifsn=3"]
    result = invoke(*args, "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert (out / "scenario.toml").read_bytes() == tiny.read_bytes()  # as given, comments too
    p = provenance(out)
    assert p["seed"] == 9 == json.loads((out / "summary.json").read_text())["seed"]
    assert p["overrides"] == ["stations=3", "mac.aifsn=3"]
    assert p["scenario"] == {
        "name": "tiny",
        "given_as": "toml",
        "path": str(tiny),
        "file": "scenario.toml",
    }
    assert p["airtcp_version"] == airtcp.__version__
    assert p["platform"]["python"] == platform.python_version()
    assert p["platform"]["system"] == platform.system()
    assert p["platform"]["machine"] == platform.machine()
    assert p["core"]["version"] and len(p["core"]["sha256"]) == 64
    assert {"provenance.json", "scenario.toml"} <= set(
        json.loads((out / MARKER).read_text())["entries"]
    )


def test_the_kept_inputs_reproduce_the_run(tiny, tmp_path):
    out = tmp_path / "out"
    assert (
        invoke("run", str(tiny), "--seed", "4", "--set", "stations=3", "--out", str(out)).exit_code
        == 0
    )
    p = provenance(out)
    again = tmp_path / "again"
    args = ["run", str(out / "scenario.toml"), "--seed", str(p["seed"])]
    args += [a for s in p["overrides"] for a in ("--set", s)]
    assert invoke(*args, "--out", str(again)).exit_code == 0

    def results(run_dir: Path) -> dict:
        summary = json.loads((run_dir / "summary.json").read_text())
        return {k: v for k, v in summary.items() if k != "wall_seconds"}

    assert results(out) == results(again)


def test_pcap_records_the_frames_trace_it_switched_on(tiny, tmp_path):
    out = tmp_path / "out"
    result = invoke("run", str(tiny), "--out", str(out), "--pcap", str(tmp_path / "pcap"))
    assert result.exit_code == 0, result.output
    assert provenance(out)["overrides"] == ["traces.frames=true"]


def test_python_api_keeps_a_dict_as_given_and_its_overrides(tmp_path):
    scenario = {"name": "d", "stations": 2, "duration_s": 0.3, "mac": {"aifsn": 2}}
    overrides = {"stations": 3}
    result = airtcp.run(scenario, seed=5, overrides=overrides)
    scenario["stations"] = 99  # changed after the run: the directory keeps what ran
    overrides["stations"] = 98
    out = result.write(tmp_path / "out")
    assert json.loads((out / "scenario.json").read_text()) == {
        "name": "d",
        "stations": 2,
        "duration_s": 0.3,
        "mac": {"aifsn": 2},
    }
    p = provenance(out)
    assert p["overrides"] == {"stations": 3} and p["seed"] == 5
    assert p["scenario"]["given_as"] == "dict" and p["scenario"]["path"] is None
    assert not (out / "scenario.toml").exists()


def test_python_api_keeps_a_file_and_a_scenario(tiny, tmp_path):
    out = airtcp.run(tiny, seed=2).write(tmp_path / "file")
    assert (out / "scenario.toml").read_bytes() == tiny.read_bytes()
    assert provenance(out)["scenario"]["path"] == str(tiny)
    assert provenance(out)["overrides"] is None
    out = airtcp.run(airtcp.load(tiny), seed=2).write(tmp_path / "scenario")
    kept = json.loads((out / "scenario.json").read_text())
    assert kept == {"name": "tiny", "stations": 2, "duration_s": 0.3, "warmup_s": 0.1}
    assert provenance(out)["scenario"]["given_as"] == "Scenario"


def test_read_back_and_written_again_keeps_the_provenance(tiny, tmp_path):
    first = airtcp.run(tiny, seed=3, overrides={"stations": 1}).write(tmp_path / "a")
    back = Result.read(first)
    assert back.given is not None and back.given.overrides == {"stations": 1}
    assert back.provenance == provenance(first)
    second = back.write(tmp_path / "b")
    for name in ("provenance.json", "scenario.toml", "summary.json"):
        assert (second / name).read_bytes() == (first / name).read_bytes()


def test_a_hand_made_result_still_records_version_and_platform(tmp_path):
    out = Result({"seed": 1, "flows": [], "nodes": []}).write(tmp_path / "out")
    p = provenance(out)
    assert p["scenario"] is None and p["airtcp_version"] == airtcp.__version__
    assert p["platform"]["python"] == platform.python_version()


def test_the_summary_keys_are_unchanged(tiny):
    # The golden test compares summaries: provenance lives beside them, never in them.
    summary = airtcp.run(tiny, seed=1).summary
    assert not {"provenance", "overrides", "platform", "airtcp_version"} & set(summary)


# --- nodes.parquet names nodes as the traces do ------------------------------------------------


def test_nodes_parquet_has_the_index_the_traces_use(tiny, tmp_path):
    out = tmp_path / "out"
    args = ["run", str(tiny), "--set", "traces.mac_tx=true", "--out", str(out), "-q"]
    assert invoke(*args).exit_code == 0
    nodes = pq.read_table(out / "nodes.parquet")
    assert nodes.column_names[:2] == ["index", "name"]
    assert nodes.column("index").to_pylist() == [0, 1, 2]
    assert nodes.column("name").to_pylist() == ["ap", "sta1", "sta2"]
    tx = pq.read_table(out / "traces" / "mac_tx.parquet")
    assert set(tx.column("node").to_pylist()) <= set(nodes.column("index").to_pylist())
    flows = pq.read_table(out / "flows.parquet")
    assert flows.column("id").to_pylist() == [0, 1]  # flows keep their id


# --- run --out DIR --force ----------------------------------------------------------------------


def test_without_force_an_earlier_run_is_refused_and_force_is_named(tiny, tmp_path):
    out = tmp_path / "out"
    assert invoke("run", str(tiny), "--out", str(out), "-q").exit_code == 0
    before = listing(out)
    line = user_error(invoke("run", str(tiny), "--out", str(out)), "never overwritten")
    assert "--force" in line
    assert listing(out) == before


def test_force_replaces_airtcps_own_earlier_output(tiny, tmp_path):
    out = tmp_path / "out"
    assert (
        invoke("run", str(tiny), "--out", str(out), "--set", "traces.mac_tx=true", "-q").exit_code
        == 0
    )
    assert (out / "traces" / "mac_tx.parquet").exists()
    result = invoke("run", str(tiny), "--out", str(out), "--seed", "7", "--force")
    assert result.exit_code == 0, result.output
    assert json.loads((out / "summary.json").read_text())["seed"] == 7
    assert provenance(out)["seed"] == 7 and provenance(out)["overrides"] is None
    assert not (out / "traces" / "mac_tx.parquet").exists()  # the earlier run's, replaced whole
    marker = json.loads((out / MARKER).read_text())
    assert marker["kind"] == "run"
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, *marker["entries"]])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary


def test_force_replaces_entries_the_new_run_does_not_write(tiny, tmp_path):
    out = airtcp.run({"stations": 1, "duration_s": 0.2}).write(tmp_path / "out")
    assert (out / "scenario.json").exists()
    airtcp.run(tiny).write(out, replace=True)
    assert (out / "scenario.toml").exists() and not (out / "scenario.json").exists()
    with pytest.raises(OutputExistsError, match="never overwritten"):
        airtcp.run(tiny).write(out)


@pytest.mark.parametrize("foreign", ["notes.txt", "traces/mine.csv", "traces/sub/x.parquet"])
def test_force_refuses_an_airtcp_directory_holding_a_file_it_did_not_write(tiny, tmp_path, foreign):
    out = tmp_path / "out"
    assert invoke("run", str(tiny), "--out", str(out), "-q").exit_code == 0
    (out / foreign).parent.mkdir(parents=True, exist_ok=True)
    (out / foreign).write_text("mine")
    before = listing(out)
    line = user_error(invoke("run", str(tiny), "--out", str(out), "--force"), "did not write")
    assert foreign.split("/")[0] in line
    assert listing(out) == before
    with pytest.raises(OutputExistsError):
        airtcp.run(tiny).write(out, replace=True)
    assert listing(out) == before


def test_force_refuses_a_directory_airtcp_did_not_write(tiny, tmp_path):
    out = tmp_path / "thesis"
    out.mkdir()
    (out / "summary.json").write_text("my own summary")
    before = listing(out)
    user_error(invoke("run", str(tiny), "--out", str(out), "--force"), "did not create")
    assert listing(out) == before


def test_force_refuses_airtcp_output_of_another_kind(tiny, tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text(f'base = "{tiny.name}"\n[grid]\nstations = [1]\n')
    store = tmp_path / "store"
    assert invoke("sweep", str(sweep), "--out", str(store), "--workers", "1").exit_code == 0
    before = listing(store)
    user_error(invoke("run", str(tiny), "--out", str(store), "--force"), "not run output")
    assert listing(store) == before


def test_force_replaces_an_earlier_pcap_directory(tiny, tmp_path):
    pcap = tmp_path / "pcap"
    assert invoke("run", str(tiny), "--pcap", str(pcap), "-q").exit_code == 0
    user_error(invoke("run", str(tiny), "--pcap", str(pcap)), "--force")
    (pcap / "mine.pcap").write_bytes(b"")
    user_error(invoke("run", str(tiny), "--pcap", str(pcap), "--force"), "mine.pcap")
    (pcap / "mine.pcap").unlink()
    result = invoke("run", str(tiny), "--pcap", str(pcap), "--force", "--set", "stations=1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in pcap.glob("*.pcap")) == ["ap-wlan0.pcap", "sta1-wlan0.pcap"]
