"""Warnings, not silence: each surprise a run used to pass over in silence gives a warning in
``summary["warnings"]`` and after ``airtcp run``'s tables (airtcp.diagnose), and the radio
model's "unreachable" error gives the numbers."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Any

import pytest
from cli_runner import CliRunner

import airtcp
from airtcp.cli import app
from airtcp.config import load_toml
from airtcp.config.errors import ScenarioError

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

# ns-3's defaults (channel::budget): 40 mW, log-distance 3.0 from 46.6777 dB at 1 m, noise
# floor of 20 MHz with NF 7 dB.
TX_DBM, L0_DB, NOISE_DBM = 16.0206, 46.6777, -93.966


def rssi_dbm(distance_m: float) -> float:
    return TX_DBM - L0_DB - 30 * math.log10(distance_m)


def warnings_of(summary: dict[str, Any], code: str) -> list[dict[str, str]]:
    return [w for w in summary.get("warnings", []) if w["code"] == code]


def example_command(needle: str) -> list[str]:
    """The ``airtcp run`` command in an example's comment that mentions ``needle``, as
    arguments (continuation lines joined)."""
    for path in sorted((REPO / "examples").glob("*.toml")):
        lines = [ln[1:].strip() for ln in path.read_text().splitlines() if ln.startswith("#")]
        for i, line in enumerate(lines):
            if not line.startswith("airtcp run"):
                continue
            command = line
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i]
            if needle in command:
                return shlex.split(command)[1:]
    raise AssertionError(f"no example command mentions {needle}")


def test_the_examples_tcp_file_command_warns_that_it_ends_inside_the_warmup(monkeypatch):
    # examples/wired-server-tcp.toml's own command: a 1 MB file done in well under the 2 s
    # warm-up, so goodput counts 0 Mbit/s. The warning says so, with the file's own rate.
    args = example_command("tcp_file")
    monkeypatch.chdir(REPO)
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    flow = summary["flows"][0]
    assert flow["goodput_bps"] == 0.0 and flow["tcp"]["completion_s"] < 2.0
    [w] = summary["warnings"]
    assert w["code"] == "flow-inside-warmup" and w["path"] == "flows.0"
    rate = flow["transfer_throughput_bps"] / 1e6
    assert f"delivered at {flow['tcp']['completion_s']:.3f} s" in w["message"]
    assert "inside the 2 s warm-up" in w["message"]
    assert f"its own throughput: {rate:.3f} Mbit/s" in w["message"]
    # The terminal output ends with it.
    printed = runner.invoke(app, args)
    assert printed.exit_code == 0, printed.output
    assert printed.stdout.splitlines()[-1].startswith("warning: flows.0: sta1 -> server: its ")


def mesh_over_radio(spacing_m: float) -> dict[str, Any]:
    """examples/mesh-chain.toml over the radio model at 54 Mbit/s, mesh points spacing_m
    apart."""
    data = load_toml(REPO / "examples/mesh-chain.toml")
    data["channel"] = {"model": "radio"}
    data["mac"] = {"rate_control": "constant"}
    return {**data, "spacing_m": spacing_m, "data_rate_mbps": 54, "duration_s": 6.0}


def test_a_mesh_over_the_radio_model_that_cannot_carry_its_rate_says_why():
    # 35 m apart the mesh points decode each other at 1 Mbit/s (the routes' test) but 54
    # Mbit/s needs about 22.6 dB of SNR and the link has 17: the run delivers nothing.
    summary = airtcp.run(mesh_over_radio(35.0)).summary
    assert summary["totals"]["goodput_bps"] == 0.0
    [link] = warnings_of(summary, "link-below-rate")
    rssi = rssi_dbm(35.0)
    assert link["path"] == "flows"
    assert link["message"].startswith(
        "n0 -> n1, n1 -> n2 and n2 -> n3 (35 m each) cannot carry 54 Mbit/s: "
        f"RSSI {rssi:.1f} dBm, SNR {rssi - NOISE_DBM:.1f} dB: a 1550-byte data frame gets "
        "through 0 % of the time (needs SNR >= "
    )
    need = float(link["message"].rsplit("needs SNR >= ", 1)[1].split(" dB")[0])
    assert rssi - NOISE_DBM < need < 30
    [nothing] = warnings_of(summary, "flow-measured-nothing")
    assert nothing["message"].startswith("n0 -> n3 delivered nothing in the 1 s measured (")
    # 10 m apart the same chain carries 54 Mbit/s: no warning.
    assert "warnings" not in airtcp.run(mesh_over_radio(10.0)).summary


def test_stations_without_traffic_are_named_and_relays_are_not():
    summary = airtcp.run(
        {
            "stations": 3,
            "duration_s": 0.3,
            "flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1}],
        }
    ).summary
    assert summary["warnings"] == [
        {
            "code": "idle-station",
            "path": "stations",
            "message": "sta2 and sta3 have no traffic: no flow starts, ends or passes there",
        }
    ]
    # A chain's relays carry its flow; an ad-hoc bystander off the path is named by its entry.
    chain = airtcp.run(REPO / "examples/chain-udp.toml", overrides={"duration_s": 0.3}).summary
    assert "warnings" not in chain
    custom = {
        "topology": "custom",
        "duration_s": 0.3,
        "channel": {"rx_range_m": 150.0},
        "nodes": [
            {"name": "a", "role": "adhoc", "x_m": 0},
            {"name": "r", "role": "adhoc", "x_m": 100},
            {"name": "b", "role": "adhoc", "x_m": 200},
            {"name": "c", "role": "adhoc", "y_m": 120},
        ],
        "flows": [{"kind": "udp_cbr", "src": "a", "dst": "b", "rate_mbps": 1}],
    }
    [w] = airtcp.run(custom).summary["warnings"]
    assert (w["code"], w["path"]) == ("idle-station", "nodes.3")
    assert w["message"].startswith("c has no traffic")


def test_a_flow_that_stops_inside_the_warmup_is_not_measured_and_says_so():
    flows = [
        {"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1, "stop_s": 0.5},
        {"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1},
    ]
    summary = airtcp.run({"warmup_s": 1.0, "duration_s": 1.5, "flows": flows}).summary
    assert summary["flows"][0]["goodput_bps"] == 0.0
    assert summary["warnings"] == [
        {
            "code": "flow-inside-warmup",
            "path": "flows.0",
            "message": "sta1 -> ap stops at 0.5 s, before the 1 s warm-up (warmup_s) ends: "
            "nothing of it is measured",
        }
    ]


def run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["run", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_knob_given_twice_is_named():
    bss = str(REPO / "examples/bss-udp-saturation.toml")
    short = ["--set", "duration_s=0.2", "--set", "warmup_s=0"]
    summary = run_json(bss, *short, "--set", "stations=2", "--set", "stations=3")
    assert len(summary["nodes"]) == 4
    assert warnings_of(summary, "knob-given-twice") == [
        {
            "code": "knob-given-twice",
            "path": "stations",
            "message": "--set stations is given twice (2, then 3): the last is used",
        }
    ]
    # A --set of a table's field under the file's shortcut has no effect: said. The
    # shortcut over the file's field is the documented precedence: nothing to say.
    tcp = str(REPO / "examples/bss-tcp-bulk.toml")
    [w] = run_json(tcp, *short, "--set", "tcp.cc=reno")["warnings"]
    assert w == {
        "code": "knob-given-twice",
        "path": "tcp.cc",
        "message": 'tcp.cc = "reno" (--set) is replaced by the shortcut cc = "newreno" (the '
        "file): a shortcut wins over its table's field",
    }
    assert "warnings" not in run_json(tcp, *short, "--set", "cc=cubic")
    # A field a template copies from its knob is the knob's to set: the file's is refused.
    with pytest.raises(
        ScenarioError, match='tcp.cc: template "paper-002" sets it from its knob cc'
    ):
        airtcp.run(
            {"template": "paper-002", "cc": "reno", "tcp": {"cc": "cubic"}, "duration_s": 0.5}
        )
    # A field it derives from a knob (paper-002's name from its knobs) is the file's to set.
    ran = airtcp.run({"template": "paper-002", "name": "mine", "duration_s": 0.5})
    assert warnings_of(ran.summary, "knob-given-twice") == []
    # A knob another knob needs (mcs, for rate_control "constant") cannot be left out to probe
    # it: the run goes on (it failed with "mcs: required" when the file renamed the run).
    fixed = {"template": "paper-002", "name": "x", "rate_control": "constant", "mcs": 3}
    ran = airtcp.run({**fixed, "duration_s": 0.5})
    assert warnings_of(ran.summary, "knob-given-twice") == []


def test_the_radio_models_unreachable_error_gives_the_numbers():
    with pytest.raises(airtcp.ScenarioError) as err:
        airtcp.run({"channel": {"model": "radio"}, "spacing_m": 500.0})
    rssi = rssi_dbm(500.0)
    assert (
        f"its best link, sta1 -> ap at 500 m: RSSI {rssi:.1f} dBm, SNR {rssi - NOISE_DBM:.1f} "
        "dB, below the -82.0 dBm a receiver locks onto (preamble detection's minimum, "
        "channel.preamble_detection_min_rssi_dbm)"
    ) in str(err.value)
    # Without preamble detection the frame is locked onto and the SNR decides.
    chain = {
        "topology": "chain",
        "hops": 2,
        "spacing_m": 120.0,
        "channel": {"model": "radio", "preamble_detection": False},
    }
    with pytest.raises(airtcp.ScenarioError) as err:
        airtcp.run(chain)
    rssi = rssi_dbm(120.0)
    assert (
        f"its best link, n0 -> n1 at 120 m: RSSI {rssi:.1f} dBm, SNR {rssi - NOISE_DBM:.1f} dB: "
        "a 1500-byte frame at 6 Mbit/s gets through 0 % of the time (needs SNR >= "
    ) in str(err.value)


def test_a_clean_run_has_no_warnings():
    summary = airtcp.run(REPO / "examples/bss-tcp-bulk.toml", overrides={"duration_s": 3.0}).summary
    assert "warnings" not in summary
