"""A scenario's data_rate_mbps under an adaptive rate control: the rate every peer starts at
(the world spec's wifi.initial_rate_mbps, written only when the scenario sets the rate)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_runner import CliRunner

from airtcp import _core, analytic
from airtcp.cli import app
from airtcp.config import Scenario, ScenarioError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "distance-udp.toml"
ADAPTIVE = ("arf", "arf-ns3", "aarf", "minstrel", "minstrel-rt2800", "agent")


def _first_data_airtime_ns(out: Path) -> tuple[int, int]:
    """The first data frame's airtime [ns] and MPDU bytes in a run's mac_tx trace."""
    rows = pq.read_table(out / "traces" / "mac_tx.parquet").to_pylist()
    first = min((r for r in rows if r["kind"] == "data"), key=lambda r: r["start_ns"])
    return first["end_ns"] - first["start_ns"], first["bytes"]


@pytest.mark.parametrize(("sets", "rate"), [(["data_rate_mbps=24"], 24), ([], 6)])
def test_minstrel_sends_its_first_data_frame_at_the_data_rate_the_file_sets(
    tmp_path: Path, sets: list[str], rate: int
) -> None:
    # Set: 24 Mbit/s; unset: Minstrel's lowest, 6 Mbit/s, as before.
    out = tmp_path / "run"
    args = ["run", str(EXAMPLE), "--set", "mac.rate_control=minstrel"]
    args += [a for s in sets for a in ("--set", s)]
    args += ["--set", "traces.mac_tx=true", "--set", "duration_s=0.1", "--set", "warmup_s=0"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    airtime, size = _first_data_airtime_ns(out)
    assert airtime == analytic.tx_duration_ns("80211a", rate, size)
    wifi = json.loads((out / "spec.json").read_text())["wifi"]
    assert wifi.get("initial_rate_mbps") == (24.0 if sets else None)


@pytest.mark.parametrize("rc", ADAPTIVE)
def test_every_adaptive_rate_control_starts_at_the_data_rate(rc: str) -> None:
    base = {"stations": 1, "standard": "80211g", "mac": {"rate_control": rc}}
    wifi = Scenario.from_dict({**base, "data_rate_mbps": 11}).to_world_spec()["wifi"]
    assert (wifi["rate_control"], wifi["initial_rate_mbps"]) == (rc, 11.0)
    # Unset, the world spec is what it always was: no starting rate, the highest data rate.
    wifi = Scenario.from_dict(base).to_world_spec()["wifi"]
    assert "initial_rate_mbps" not in wifi and wifi["data_rate_mbps"] == 54.0


def test_constant_rate_writes_no_starting_rate_but_a_node_of_its_own_control_starts_there() -> None:
    wifi = Scenario.from_dict({"stations": 1, "data_rate_mbps": 24}).to_world_spec()["wifi"]
    assert "initial_rate_mbps" not in wifi and wifi["data_rate_mbps"] == 24.0
    nodes = [
        {"name": "ap", "role": "ap"},
        {"name": "sta", "role": "sta", "x_m": 5.0, "rate_control": "aarf"},
    ]
    flows = [{"kind": "udp_saturating", "src": "sta", "dst": "ap"}]
    custom = {"topology": "custom", "nodes": nodes, "flows": flows, "data_rate_mbps": 24}
    spec = Scenario.from_dict(custom).to_world_spec()
    # The AP sends at 24 Mbit/s (constant); the station's AARF starts there.
    assert (spec["wifi"]["rate_control"], spec["nodes"][1]["rate_control"]) == ("constant", "aarf")
    assert (spec["wifi"]["data_rate_mbps"], spec["wifi"]["initial_rate_mbps"]) == (24.0, 24.0)


def test_a_starting_rate_not_of_the_standard_is_named_with_the_allowed_rates() -> None:
    with pytest.raises(ScenarioError) as e:
        Scenario.from_dict({"stations": 1, "data_rate_mbps": 11, "mac": {"rate_control": "arf"}})
    assert str(e.value) == (
        "data_rate_mbps: not a rate of 80211a (got 11; allowed: 6, 9, 12, 18, 24, 36, 48, 54 "
        "(Mbit/s))"
    )
    # 802.11n names its MCS instead, whatever the rate control.
    with pytest.raises(ScenarioError, match=r"data_rate_mbps: 802\.11n names its data rate by MCS"):
        Scenario.from_dict(
            {
                "stations": 1,
                "standard": "80211n",
                "data_rate_mbps": 24,
                "mac": {"rate_control": "arf"},
            }
        )


def test_the_core_refuses_a_bad_starting_rate_by_field_value_and_allowed_rates() -> None:
    spec = Scenario.from_dict(
        {"stations": 1, "data_rate_mbps": 24, "mac": {"rate_control": "minstrel"}}
    ).to_world_spec()
    spec["wifi"]["initial_rate_mbps"] = 5.5
    with pytest.raises(ValueError) as e:
        _core.run(json.dumps(spec), 1)
    assert str(e.value) == (
        "wifi.initial_rate_mbps: 5.5 Mbit/s is not a rate of 80211a; "
        "allowed: 6, 9, 12, 18, 24, 36, 48, 54"
    )
    spec["wifi"]["initial_rate_mbps"] = 24.0
    spec["wifi"]["rate_control"] = "constant"
    with pytest.raises(ValueError, match=r"^wifi\.initial_rate_mbps: 24 is not used: every node"):
        _core.run(json.dumps(spec), 1)
