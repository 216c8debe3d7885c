"""802.11s from a scenario file: the mesh chain example, its pcaps as Wireshark reads them,
and the configuration errors."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError
from airtcp.config.load import load_toml
from airtcp.pcap import write_pcaps

TSHARK = shutil.which("tshark")
needs_tshark = pytest.mark.skipif(TSHARK is None, reason="tshark is not installed")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mesh-chain.toml"


def mesh_chain(**over: Any) -> dict[str, Any]:
    cfg = load_toml(EXAMPLE)
    cfg.update(over)
    return cfg


def test_the_example_peers_along_the_chain_and_routes_by_hwmp() -> None:
    res = airtcp.run(mesh_chain(duration_s=12.0, mac={"rate_control": "constant"}), seed=2)
    nodes = {n["name"]: n for n in res.summary["nodes"]}
    peers = {k: sorted(p["peer"] for p in n["mesh"]["peers"]) for k, n in nodes.items()}
    assert peers == {"n0": ["n1"], "n1": ["n0", "n2"], "n2": ["n1", "n3"], "n3": ["n2"]}
    # At a constant 54 Mbit/s without failures every link's metric is Linux's 152 (hand
    # computed in mesh::metric's tests): the 3-hop path costs 456, the ACKs' way back too.
    path = {p["dst"]: p for p in nodes["n0"]["mesh"]["paths"]}["n3"]
    assert (path["next_hop"], path["metric"]) == ("n1", 3 * 152)
    back = {p["dst"]: p for p in nodes["n3"]["mesh"]["paths"]}["n0"]
    assert (back["next_hop"], back["metric"]) == ("n2", 3 * 152)
    assert res.summary["flows"][0]["goodput_bps"] > 2e6
    assert all(n["mesh"]["drops_not_peer"] == 0 for n in nodes.values())


def test_the_flow_waits_for_peering_then_for_its_path() -> None:
    # The flow starts at 0 s while no link is up: the PREQs find no peer and are retried
    # (100, 200, 400 ms: dot11MeshHWMPnetDiameterTraversalTime doubled), so the first set-up
    # takes until the chain has peered through the Beacons (1000 TU apart, spread by node).
    res = airtcp.run(mesh_chain(duration_s=3.0, warmup_s=0.0), seed=1)
    n0 = res.summary["nodes"][0]["mesh"]
    first = n0["path_setups"][0]
    assert first["dst"] == "n3" and first["start_s"] == 0.0
    established = max(p["established_s"] for n in res.summary["nodes"] for p in n["mesh"]["peers"])
    assert established * 1e3 < first["setup_ms"] < 100 + 200 + 400 + 800
    assert n0["preqs_sent"] >= 2


@needs_tshark
def test_tshark_decodes_beacons_peering_preq_and_prep(tmp_path: Path) -> None:
    cfg = mesh_chain(duration_s=1.5, warmup_s=0.0, traffic="udp", cc=None)
    cfg.update(flows=[{"kind": "udp_cbr", "src": "n0", "dst": "n3", "rate_mbps": 1.0}])
    cfg["traces"] = {"frames": True}
    out = tmp_path / "pcap"
    write_pcaps(airtcp.run(cfg), out)
    path = out / "n1-wlan0.pcap"

    def fields(names: list[str], flt: str) -> list[list[str]]:
        cmd = [str(TSHARK), "-r", str(path), "-Y", flt, "-T", "fields"]
        for f in names:
            cmd += ["-e", f]
        text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return [line.split("\t") for line in text.splitlines()]

    mesh_ids = fields(["wlan.mesh.id"], "wlan.fc.type_subtype == 0x0008")
    assert mesh_ids and all(r == ["airtcp"] for r in mesh_ids), mesh_ids
    # Mesh Peering Open (1) and Confirm (2), Self-protected (15), with their link IDs.
    peering = fields(
        ["wlan.fixed.selfprot_action", "wlan.peering.local_id"], "wlan.fixed.category_code == 15"
    )
    assert {r[0] for r in peering} >= {"0x01", "0x02"} and all(r[1] for r in peering)
    # PREQs from n0 for n3 as n1 hears them: sent by n0 (metric 0), forwarded by n1 and n2
    # (one 1 Mbit/s link each, 8193 before any data), then PREPs back the same way.
    hwmp = ["wlan.tag.number", "wlan.hwmp.orig_sta", "wlan.hwmp.targ_sta", "wlan.hwmp.metric"]
    rows = fields(hwmp, "wlan.fixed.category_code == 13")
    n0, n3 = "02:00:00:00:00:01", "02:00:00:00:00:04"
    preq = sorted({int(r[3]) for r in rows if r[0] == "130" and r[1:3] == [n0, n3]})
    prep = sorted({int(r[3]) for r in rows if r[0] == "131" and r[1:3] == [n0, n3]})
    assert preq == [0, 8193, 16386] and prep == [0, 8193, 16386], rows
    data = fields(["wlan.qos.mesh_ctl_present", "wlan.fixed.mesh_ttl"], "wlan.fc.type == 2")
    assert data and all(r == ["1", "0x1f"] for r in data), data[:3]
    bad = fields(["frame.number"], "_ws.malformed || _ws.expert.severity == error")
    assert bad == []


@pytest.mark.parametrize(
    ("over", "where", "allowed"),
    [
        ({"mac": {"access": "dcf"}}, "mac.access", '"edca"'),
        ({"topology": "bss", "hops": 1}, "mesh", "topology"),
        ({"mesh": {"metric": "ns3"}}, "mesh.metric", "linux-3.12"),
        ({"mesh": {"beacon_interval_tu": 5}}, "mesh.beacon_interval_tu", "10..65535"),
    ],
)
def test_bad_mesh_scenarios_name_the_field(over: dict[str, Any], where: str, allowed: str) -> None:
    cfg = {k: v for k, v in mesh_chain(**over).items() if v is not None}
    if "mac" in over:
        cfg["mac"] = {**load_toml(EXAMPLE)["mac"], **over["mac"]}
    with pytest.raises(ScenarioError) as e:
        airtcp.Scenario.from_dict(cfg)
    msg = str(e.value)
    assert where in msg and allowed in msg, msg


def test_a_mesh_node_without_mesh_is_refused() -> None:
    cfg = {
        "topology": "custom",
        "nodes": [{"name": "a", "role": "mesh"}, {"name": "b", "role": "mesh", "x_m": 5.0}],
        "flows": [{"kind": "udp_cbr", "src": "a", "dst": "b", "rate_mbps": 1.0}],
    }
    with pytest.raises(ScenarioError, match=r"nodes\[0\]\.role|nodes\.0\.role"):
        airtcp.Scenario.from_dict(cfg)
    cfg["mesh"] = {}
    res = airtcp.run(cfg, seed=1)
    assert res.summary["nodes"][0]["mesh"]["peers"][0]["peer"] == "b"


def test_paper_000s_remedy_from_a_scenario_file() -> None:
    # A 5-hop chain with the remedy: every mesh point reports the limits it set, one step at a
    # time, and the CLI table shows the last one.
    cfg = mesh_chain(hops=5, duration_s=12.0)
    cfg["mesh"] = {"alm_retry": True, "alm_retry_interval_ms": 500.0}
    res = airtcp.run(cfg, seed=3)
    for n in res.summary["nodes"]:
        limits = [r["limit"] for r in n["mesh"]["retry_limits"]]
        assert limits and limits[0] == 7  # the scenario's retry_limit
        assert all(abs(a - b) == 1 for a, b in zip(limits, limits[1:], strict=False)), limits
    assert sum(len(n["mesh"]["retry_limits"]) for n in res.summary["nodes"]) > 6
    with pytest.raises(ScenarioError, match="alm_retry_interval_ms"):
        airtcp.Scenario.from_dict(
            mesh_chain(mesh={"alm_retry": True, "alm_retry_interval_ms": 0.0})
        )
