"""airtcp plot topology: positions, ranges (range and radio model), wired links, mesh peers,
flow paths and mobility tracks of real runs, and the command's errors."""

from __future__ import annotations

import math
import shutil

import pytest
from cli_runner import CliRunner

from airtcp import plot, sweep
from airtcp.cli import app
from airtcp.topology import radio_ranges, topology

runner = CliRunner()


@pytest.fixture(autouse=True)
def real_core():
    return pytest.importorskip("airtcp._core")


def run(examples_dir, tmp_path, example: str, *sets: str):
    out = tmp_path / example.removesuffix(".toml")
    args = ["run", str(examples_dir / example), "--out", str(out), "--quiet"]
    result = runner.invoke(app, [*args, *(a for s in sets for a in ("--set", s))])
    assert result.exit_code == 0, result.output
    return out


def test_mesh_chain_peers_and_path(examples_dir, tmp_path):
    out = run(examples_dir, tmp_path, "mesh-chain.toml", "duration_s=3", "warmup_s=1")
    fig, data = topology(out)
    assert data.nodes["name"].tolist() == ["n0", "n1", "n2", "n3"]
    assert data.nodes["decode_m"].tolist() == [100.0] * 4  # rx_range_m
    assert data.nodes["x_m"].tolist() == [0.0, 5.0, 10.0, 15.0]
    links = data.links
    peers = links[links["kind"] == "mesh-peer"][["a", "b"]].values.tolist()
    assert peers == [["n0", "n1"], ["n1", "n2"], ["n2", "n3"]], "the chain blocks the rest"
    hops = links[links["kind"] == "flow"][["a", "b"]].values.tolist()
    assert hops == [["n0", "n1"], ["n1", "n2"], ["n2", "n3"]]
    assert "rx_range_m = 100 m" in data.notes[0]
    # The ranges (100 m) dwarf the chain (15 m): a second view shows them whole.
    assert len(fig.axes) == 3 and fig.axes[1].get_xlim()[1] > 100


def test_radio_ranges_and_a_mobility_track(examples_dir, tmp_path):
    sets = ("duration_s=2", "traces.positions=true")
    out = run(examples_dir, tmp_path, "mobile-tcp.toml", *sets)
    _, data = topology(out)
    ap = data.nodes.set_index("name").loc["ap"]
    # 20 dBm at 6 Mbit/s against its own sensitivity, -85 dBm, over 53.64 + 20 log10(d) dB:
    # paper 003's 370 m edge; -82 dBm of CCA is reached sooner, so sensing ends there too.
    edge = 10 ** ((20 + 85 - 53.64) / 20)
    assert ap["decode_m"] == pytest.approx(edge, rel=1e-9) and ap["sense_m"] == ap["decode_m"]
    assert math.isnan(data.nodes.set_index("name").loc["server", "decode_m"])
    # The station walks away at 5 m/s from 10 m: its track ends near 20 m.
    track = data.tracks[data.tracks["node"] == "sta1"]
    assert len(track) > 100 and track["x_m"].iloc[-1] == pytest.approx(20.0, abs=0.1)
    kinds = data.links["kind"].tolist()
    assert kinds == ["wired", "flow", "flow"]
    assert any("server" in n for n in data.notes), "the server is moved off the AP's spot"


def test_radio_ranges_of_ns3_defaults():
    spec = {
        "wifi": {"standard": "80211a"},
        "nodes": [{"name": "a", "position_m": [0, 0, 0], "wifi": True, "role": "adhoc"}],
        "channel": {
            "radio": {
                "path_loss": {
                    "kind": "log-distance",
                    "exponent": 3.0,
                    "reference_distance_m": 1.0,
                    "reference_loss_db": 46.6777,
                },
                "tx_power_dbm": 16.0206,
                "rx_sensitivity_dbm": -101.0,
                "noise_figure_db": 7.0,
                "cca_threshold_dbm": -82.0,
                "error_model": "nist",
                "preamble_detection": {"snr_db": 4.0, "min_rssi_dbm": -82.0},
            }
        },
    }
    # Preamble detection's -82 dBm is the highest threshold: 16.02 + 82 dB of loss.
    edge = 10 ** ((16.0206 + 82 - 46.6777) / 30)
    decode, sense = radio_ranges(spec, 0)
    assert decode == pytest.approx(edge) and sense == pytest.approx(edge)
    # Without it, the receiver needs the SNR of 90 % of 1500-byte frames at 6 Mbit/s (a few
    # dB over the -94 dBm noise floor), further out; CCA at -82 dBm then senses less far.
    spec["channel"]["radio"]["preamble_detection"] = None
    decode, sense = radio_ranges(spec, 0)
    assert 1.5 * edge < decode < 3 * edge and sense == decode
    # A node's own power moves its circles.
    spec["nodes"][0]["tx_power_dbm"] = 16.0206 + 30
    assert radio_ranges(spec, 0)[0] == pytest.approx(10 * decode)


def test_cli_topology_of_a_run_and_of_a_store_run(examples_dir, tmp_path):
    out = run(examples_dir, tmp_path, "wired-server-tcp.toml", "duration_s=1", "warmup_s=0.2")
    png = tmp_path / "topology.png"
    result = runner.invoke(app, ["plot", "topology", str(out), "--out", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(b"\x89PNG")
    assert "3 nodes, 1 wired links, 2 flow hops" in result.stdout

    # A run of a sweep store: its world spec is rebuilt from the stored scenario.
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f'base = "{examples_dir / "mesh-chain.toml"}"\n[grid]\nduration_s = [2]\n'
        "warmup_s = [0.5]\nhops = [2, 3]\n"
    )
    store = tmp_path / "store"
    sweep.run_sweep(sweep.load_sweep(spec), store, workers=1)
    hashes = sorted(sweep.stored_hashes(store))
    _, data = topology(store, run=hashes[0])
    assert set(data.nodes["role"]) == {"mesh"}
    assert len(data.nodes) in (3, 4)
    result = runner.invoke(app, ["plot", "topology", str(store), "--out", str(png)])
    assert result.exit_code == 2 and "2 runs stored; choose one with --run" in result.stderr


def test_cli_topology_errors(examples_dir, tmp_path):
    out = run(examples_dir, tmp_path, "bss-tcp-bulk.toml", "duration_s=0.5", "warmup_s=0.1")
    png = tmp_path / "t.png"
    bare = tmp_path / "bare"
    shutil.copytree(out, bare)
    (bare / "spec.json").unlink()
    cases = [
        ([str(bare), "--out", str(png)], "no world spec for this run"),
        ([str(out), "--out", str(tmp_path / "t.jpg")], "unknown figure format '.jpg'"),
        ([str(out)], "--out FILE or --show is needed"),
        ([str(tmp_path / "nope"), "--out", str(png)], "no such directory"),
    ]
    for args, needle in cases:
        result = runner.invoke(app, ["plot", "topology", *args])
        assert result.exit_code == 2, result.output
        assert needle in result.stderr
    assert not png.exists()
    with pytest.raises(plot.PlotError, match="--run: only for a sweep store"):
        topology(out, run="00")
