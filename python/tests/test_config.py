"""Scenario validation and expansion into the world spec (no native core needed)."""

from __future__ import annotations

import json
import math
from typing import get_args

import pytest

from airtcp.config import (
    CC_NAMES,
    MAX_MSS_BYTES,
    MAX_PAYLOAD_BYTES,
    FlowKind,
    Scenario,
    ScenarioError,
    apply_overrides,
    load,
    load_toml,
)
from airtcp.config.checks import _PACED_KINDS
from airtcp.config.limits import _FILE_KINDS, _TCP_KINDS
from airtcp.config.routes import connectivity
from airtcp.tables import flow_kinds


def spec_of(**data):
    return Scenario.from_dict(data).to_world_spec()


def problems(data) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        Scenario.from_dict(data)
    return info.value.problems


def one_problem(data) -> str:
    found = problems(data)
    assert len(found) == 1, found
    return found[0]


def names(spec) -> list[str]:
    return [n["name"] for n in spec["nodes"]]


def routes_by_name(spec) -> dict[tuple[str, str], str]:
    """The routes the core runs with: computed from the topology, the explicit ones over them;
    a neighbour that is its own next hop needs none."""
    nm = names(spec)
    keys = ("nodes", "channel", "wired_links", "blocked_radio_links")
    table = connectivity({k: spec[k] for k in keys}).routes()
    table.update({(r["node"], r["dst"]): r["next_hop"] for r in spec["routes"]})
    return {(nm[u], nm[d]): nm[v] for (u, d), v in table.items() if v != d}


# --- defaults ---------------------------------------------------------------------------------


def test_defaults():
    s = Scenario()
    assert (s.name, s.topology, s.stations, s.standard, s.payload_bytes) == (
        "scenario",
        "bss",
        1,
        "80211a",
        1500,
    )
    assert (s.mac.short_retry_limit, s.mac.long_retry_limit, s.mac.rts_threshold_bytes) == (
        6,
        3,
        65535,
    )
    spec = s.to_world_spec()
    assert spec["duration_ns"] == 10_000_000_000 and spec["warmup_ns"] == 0
    wifi = spec["wifi"]
    assert wifi["data_rate_mbps"] == 54.0 and wifi["basic_rate_mbps"] == 6.0
    assert wifi["cw_min"] is None and wifi["access"] == "dcf" and wifi["queue_limit_packets"] == 100
    assert spec["channel"] == {
        "rx_range_m": 250.0,
        "cs_range_m": 250.0,
        "matrix": None,
        "error": {"kind": "none"},
        "preamble_detection": False,
    }
    assert spec["traces"] == {
        "mac_tx": False,
        "packets": False,
        "tcp": False,
        "tcp_segments": False,
        "frames": False,
        "rates": False,
        "receptions": False,
        "positions": False,
    }
    assert spec["wired_links"] == [] and spec["routes"] == []


@pytest.mark.parametrize(
    ("standard", "erp_mixed", "data", "basic"),
    [
        ("80211a", False, 54.0, 6.0),
        ("80211b", False, 11.0, 1.0),
        ("80211g", False, 54.0, 6.0),
        ("80211g", True, 54.0, 1.0),
    ],
)
def test_default_rates(standard, erp_mixed, data, basic):
    wifi = spec_of(standard=standard, erp_mixed=erp_mixed)["wifi"]
    assert (wifi["data_rate_mbps"], wifi["basic_rate_mbps"]) == (data, basic)
    assert wifi["erp_mixed"] is erp_mixed


def test_short_preamble_default_basic_rate_is_2_on_80211b():
    assert spec_of(standard="80211b", preamble="short")["wifi"]["basic_rate_mbps"] == 2.0


def test_spec_json_is_canonical_and_round_trips():
    s = Scenario.from_dict({"stations": 3})
    text = s.spec_json()
    assert json.loads(text) == s.to_world_spec()
    assert text == Scenario.from_dict({"stations": 3}).spec_json()
    assert " " not in text


def test_to_world_spec_returns_a_copy():
    s = Scenario()
    s.to_world_spec()["nodes"].clear()
    assert len(s.to_world_spec()["nodes"]) == 2


# --- expansion ----------------------------------------------------------------------------------


def test_bss_expansion():
    spec = spec_of(stations=4, spacing_m=10.0)
    assert names(spec) == ["ap", "sta1", "sta2", "sta3", "sta4"]
    assert [n["role"] for n in spec["nodes"]] == ["ap"] + ["sta"] * 4
    assert all(n["wifi"] for n in spec["nodes"])
    assert spec["nodes"][0]["position_m"] == [0.0, 0.0, 0.0]
    assert spec["nodes"][1]["position_m"] == [10.0, 0.0, 0.0]
    assert spec["nodes"][2]["position_m"] == [0.0, 10.0, 0.0]
    for node in spec["nodes"][1:]:
        assert math.dist(node["position_m"], [0, 0, 0]) == pytest.approx(10.0)
    # default flows: every station saturates towards the AP
    assert [(f["src"], f["dst"], f["kind"]) for f in spec["flows"]] == [
        (k, 0, "udp_saturating") for k in range(1, 5)
    ]
    assert all(f["payload_bytes"] == 1500 and f["rate_bps"] is None for f in spec["flows"])


def test_bss_station_to_station_goes_through_the_ap():
    # stations are in range of each other, yet infrastructure mode relays through the AP
    spec = spec_of(stations=3)
    routes = routes_by_name(spec)
    assert routes[("sta1", "sta2")] == "ap"
    assert routes[("sta3", "sta1")] == "ap"
    assert ("sta1", "ap") not in routes and ("ap", "sta1") not in routes  # neighbours
    assert len(routes) == 3 * 2
    assert spec["routes"] == []  # the world spec carries only explicit routes


def test_chain_expansion_routes_hop_by_hop():
    spec = spec_of(topology="chain", hops=4, spacing_m=20.0)
    assert names(spec) == ["n0", "n1", "n2", "n3", "n4"]
    assert [n["position_m"][0] for n in spec["nodes"]] == [0.0, 20.0, 40.0, 60.0, 80.0]
    assert {n["role"] for n in spec["nodes"]} == {"adhoc"}
    routes = routes_by_name(spec)
    # every node is within the 250 m rx range, yet traffic must hop along the chain
    assert routes[("n0", "n4")] == "n1"
    assert routes[("n1", "n4")] == "n2"
    assert ("n3", "n4") not in routes  # the next hop is the destination: no route
    assert routes[("n4", "n0")] == "n3"
    assert routes[("n2", "n0")] == "n1"
    # a route for every pair at least two hops apart, in both directions
    assert len(routes) == 2 * (3 + 2 + 1)
    # path enforcement: the chain blocks every radio link but consecutive nodes
    assert spec["blocked_radio_links"] == [[0, 2], [0, 3], [0, 4], [1, 3], [1, 4], [2, 4]]
    assert [(f["src"], f["dst"]) for f in spec["flows"]] == [(0, 4)]


def test_custom_topology_and_glob_flows():
    data = {
        "topology": "custom",
        "nodes": [
            {"name": "ap1", "role": "ap"},
            {"name": "sta-a", "x_m": 5.0, "role": "sta"},
            {"name": "sta-b", "y_m": -5.0, "z_m": 1.5, "role": "sta"},
            {"name": "other", "x_m": 8.0, "role": "sta"},
        ],
        "flows": [
            {"kind": "udp_cbr", "src": "sta-*", "dst": "ap1", "rate_mbps": 2.5, "ac": "vi"},
            {"kind": "udp_saturating", "src": "other", "dst": "sta-a", "payload_bytes": 100},
        ],
    }
    spec = spec_of(**data)
    assert names(spec) == ["ap1", "sta-a", "sta-b", "other"]
    assert spec["nodes"][2]["position_m"] == [0.0, -5.0, 1.5]
    flows = [(f["kind"], f["src"], f["dst"], f["rate_bps"], f["ac"]) for f in spec["flows"]]
    assert flows == [
        ("udp_cbr", 1, 0, 2_500_000, "vi"),
        ("udp_cbr", 2, 0, 2_500_000, "vi"),
        ("udp_saturating", 3, 1, None, "be"),
    ]
    assert spec["flows"][2]["payload_bytes"] == 100
    assert routes_by_name(spec)[("other", "sta-a")] == "ap1"


def test_glob_skips_the_destination():
    spec = spec_of(stations=3, flows=[{"kind": "udp_saturating", "src": "*", "dst": "sta2"}])
    assert [f["src"] for f in spec["flows"]] == [0, 1, 3]


def test_wired_server_behind_the_ap():
    spec = spec_of(
        stations=2,
        nodes=[{"name": "server", "x_m": 0.0, "role": "host"}],
        links=[{"a": "server", "b": "ap", "rate_mbps": 100, "delay_ms": 2.5}],
        flows=[{"kind": "udp_saturating", "src": "server", "dst": "sta2"}],
    )
    assert spec["nodes"][3] == {
        "name": "server",
        "position_m": [0.0, 0.0, 0.0],
        "wifi": False,
        "role": "host",
    }
    assert spec["wired_links"] == [
        {
            "a": 3,
            "b": 0,
            "rate_bps": 100_000_000,
            "delay_ns": 2_500_000,
            "queue_limit_packets": 100,
            "loss": 0.0,
            "reverse_loss": 0.0,
        }
    ]
    routes = routes_by_name(spec)
    assert routes[("server", "sta2")] == "ap"
    assert routes[("sta1", "server")] == "ap"
    assert ("ap", "server") not in routes and ("server", "ap") not in routes


def test_explicit_routes_win():
    data = {
        "topology": "custom",
        "nodes": [
            {"name": "a", "role": "adhoc"},
            {"name": "b", "x_m": 10, "role": "adhoc"},
            {"name": "c", "x_m": 20, "role": "adhoc"},
        ],
        "routes": [{"node": "a", "dst": "c", "next_hop": "b"}],
        "flows": [{"kind": "udp_saturating", "src": "a", "dst": "c"}],
    }
    spec = spec_of(**data)
    # without the explicit route a reaches c directly (in range, no route needed)
    assert spec["routes"] == [{"node": 0, "dst": 2, "next_hop": 1}]


def test_matrix_overrides_ranges():
    # a line of three ad-hoc nodes, all in range, but the matrix cuts a <-> c
    rx = [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    data = {
        "topology": "custom",
        "nodes": [{"name": n, "role": "adhoc"} for n in "abc"],
        "channel": {"matrix": {"rx": rx, "cs": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}},
        "flows": [{"kind": "udp_saturating", "src": "a", "dst": "c"}],
    }
    spec = spec_of(**data)
    assert spec["channel"]["matrix"]["rx"] == rx
    assert routes_by_name(spec) == {("a", "c"): "b", ("c", "a"): "b"}


def test_time_and_rate_conversions():
    spec = spec_of(
        duration_s=2.5,
        warmup_s=0.1,
        nodes=[{"name": "h", "role": "host"}],
        links=[{"a": "ap", "b": "h", "rate_mbps": 0.5, "delay_ms": 0.001}],
        flows=[
            {
                "kind": "udp_cbr",
                "src": "sta1",
                "dst": "h",
                "rate_mbps": 1.25,
                "start_s": 0.3,
                "stop_s": 1.0000000004,
            }
        ],
    )
    assert (spec["duration_ns"], spec["warmup_ns"]) == (2_500_000_000, 100_000_000)
    link = spec["wired_links"][0]
    assert (link["rate_bps"], link["delay_ns"]) == (500_000, 1_000)
    flow = spec["flows"][0]
    assert (flow["rate_bps"], flow["start_ns"], flow["stop_ns"]) == (
        1_250_000,
        300_000_000,
        1_000_000_000,
    )
    for value in (spec["duration_ns"], link["rate_bps"], flow["start_ns"]):
        assert type(value) is int


def test_error_models():
    assert spec_of(channel={"error": {"kind": "fer", "fer": 0.1}})["channel"]["error"] == {
        "kind": "fer",
        "fer": 0.1,
    }
    assert spec_of(channel={"error": {"kind": "ber", "ber": 1e-5}})["channel"]["error"] == {
        "kind": "ber",
        "ber": 1e-5,
    }


def test_examples_load(examples_dir):
    files = sorted(examples_dir.glob("*.toml"))
    assert {f.name for f in files} >= {
        "bss-udp-saturation.toml",
        "chain-udp.toml",
        "bss-tcp-bulk.toml",
        "wired-server-tcp.toml",
        "chain-tcp.toml",
    }
    for path in files:
        if path.name.startswith("sweep-"):
            continue  # sweep files, not scenarios (test_sweep.py loads them)
        load(path).to_world_spec()
    bss = load(examples_dir / "bss-udp-saturation.toml")
    assert (bss.stations, bss.standard, bss.warmup_s, bss.data_rate_mbps) == (10, "80211a", 1.0, 54)
    chain = load(examples_dir / "chain-udp.toml").to_world_spec()
    assert len(chain["nodes"]) == 6 and chain["wifi"]["standard"] == "80211g"


def test_tcp_examples(examples_dir):
    bss = load(examples_dir / "bss-tcp-bulk.toml")
    assert (bss.traffic, bss.stations, bss.cc, bss.delayed_ack, bss.min_rto_ms) == (
        "tcp",
        1,
        "newreno",
        True,
        200,
    )
    spec = bss.to_world_spec()
    assert [(f["kind"], f["src"], f["dst"]) for f in spec["flows"]] == [("tcp_bulk", 1, 0)]
    assert (spec["duration_ns"], spec["warmup_ns"]) == (20_000_000_000, 2_000_000_000)
    # --set stations=3 still works: one bulk flow per station
    more = Scenario.from_dict(
        apply_overrides(load_toml(examples_dir / "bss-tcp-bulk.toml"), ["stations=3", "cc=cubic"])
    ).to_world_spec()
    assert [(f["src"], f["tcp"]["cc"]) for f in more["flows"]] == [(k, "cubic") for k in (1, 2, 3)]

    wired = load(examples_dir / "wired-server-tcp.toml").to_world_spec()
    assert names(wired) == ["ap", "sta1", "server"]
    assert wired["nodes"][2]["role"] == "host" and not wired["nodes"][2]["wifi"]
    assert wired["wired_links"] == [
        {
            "a": 0,
            "b": 2,
            "rate_bps": 100_000_000,
            "delay_ns": 2_000_000,
            "queue_limit_packets": 100,
            "loss": 0.0,
            "reverse_loss": 0.0,
        }
    ]
    assert [(f["kind"], f["src"], f["dst"]) for f in wired["flows"]] == [("tcp_bulk", 1, 2)]
    assert routes_by_name(wired) == {("sta1", "server"): "ap", ("server", "sta1"): "ap"}

    chain = load(examples_dir / "chain-tcp.toml").to_world_spec()
    assert len(chain["nodes"]) == 6 and chain["wifi"]["standard"] == "80211g"
    assert (chain["wifi"]["short_retry_limit"], chain["wifi"]["long_retry_limit"]) == (7, 7)
    assert [(f["kind"], f["src"], f["dst"]) for f in chain["flows"]] == [("tcp_bulk", 0, 5)]
    assert chain["channel"]["rx_range_m"] == 250.0
    assert chain["nodes"][5]["position_m"] == [100.0, 0.0, 0.0]


# Where each generated field table of docs/scenarios.md sits: the heading above it.
_FIELD_TABLE_HEADINGS = {
    "fields.top": "## Top level",
    "fields.mesh": "## `[mesh]`",
    "fields.ht": "## `[ht]`",
    "fields.mac": "## `[mac]`",
    "fields.tcp": "### `[tcp]`",
    "fields.clap": "### `[clap]`",
    "fields.channel": "## `[channel]`",
    "fields.nodes": "## `[[nodes]]`",
    "fields.nodes.mobility": "### Mobility",
    "fields.links": "## `[[links]]`",
    "fields.routes": "## `[[routes]]`",
    "fields.flows": "## `[[flows]]`",
    "fields.traces": "## `[traces]`",
}


def _scenario_models(model, seen=None) -> list:
    """``model`` and every model its fields hold (tables, arrays of tables, tagged variants)."""
    from typing import get_args

    from pydantic import BaseModel

    seen = [] if seen is None else seen
    seen.append(model)
    todo = [f.annotation for f in model.model_fields.values()]
    while todo:
        tp = todo.pop(0)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp not in seen:
                _scenario_models(tp, seen)
        else:
            todo.extend(get_args(tp))
    return seen


def test_each_sections_docs_table_lists_its_models_fields_in_order(repo_root):
    """docs/scenarios.md's field tables are generated from the scenario's models: each lists
    its model's fields in declaration order ([channel]'s radio fields in a table of their own,
    each variant of a tagged table in its own) under its section's heading, with the model's
    default (unset for None, required), allowed text and doc; every model the scenario holds
    has its fields there, so a field or a model added without its docs fails."""
    import re

    from airtcp import docgen

    text = (repo_root / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = {m.group("name"): m for m in docgen._BLOCK.finditer(text)}
    tables = docgen.field_tables()
    shown: dict[type, list[str]] = {}
    for name, (model, names) in tables.items():
        block = blocks[name]
        rows = [r for r in block.group("body").splitlines() if r.startswith("| `")]
        assert [re.match(r"\| `([^`]+)` \|", r).group(1) for r in rows] == names, name
        for row, key in zip(rows, names, strict=True):
            field = model.model_fields[key]
            default = row.split(" | ")[1]
            assert default == docgen.shown_field_default(field), row
            assert row.endswith(f" | {docgen._one_line(field.description or '')} |"), row
        headings = re.findall(r"^#{2,3} .*$", text[: block.start()], re.M)
        place = max(p for p in _FIELD_TABLE_HEADINGS if name == p or name.startswith(p + "."))
        assert headings[-1] == _FIELD_TABLE_HEADINGS[place], (name, headings[-1])
        shown.setdefault(model, []).extend(names)
    assert sorted(n for n in blocks if n.startswith("fields.")) == sorted(tables)
    for model in _scenario_models(Scenario):
        assert shown.get(model) == list(model.model_fields), model.__name__


def test_a_field_table_shows_unset_required_and_a_variants_kind():
    from airtcp import docgen
    from airtcp.config import models

    assert docgen.shown_field_default(models.Scenario.model_fields["data_rate_mbps"]) == "unset"
    assert docgen.shown_field_default(models.LinkConfig.model_fields["a"]) == "required"
    channel = models.ChannelConfig.model_fields
    assert docgen.shown_field_default(channel["error"]) == '`{"kind": "none"}`'
    assert docgen.shown_field_default(channel["rx_range_m"]) == "`250.0`"
    assert docgen.shown_field_default(models.Scenario.model_fields["mac"]) == "its fields' defaults"
    row = docgen.field_table("fields.mac").splitlines()[2]
    assert row.startswith('| `access` | `"dcf"` | `"dcf"` or `"edca"` | DCF'), row


# --- TCP ------------------------------------------------------------------------------------------

TCP_DEFAULTS = {
    "cc": "newreno",
    "recovery": "newreno",
    "mss_bytes": 1460,
    "min_rto_ms": 200.0,
    "max_rto_ms": 120000.0,
    "initial_rto_ms": 1000.0,
    "clock_granularity_ms": 0.0,
    "timestamps": True,
    "limited_transmit": True,
    "initial_cwnd": 10,
    "ack_every": 2,
    "delack_timeout_ms": 40.0,
    "rcv_buf_bytes": 6291456,
    "snd_buf_bytes": 4194304,
    "hystart": True,
}


def tcp_flow(**kw):
    return {"kind": "tcp_bulk", "src": "sta1", "dst": "ap", **kw}


def test_tcp_flow_expansion_with_defaults():
    spec = spec_of(
        stations=2,
        flows=[
            tcp_flow(start_s=1.0, stop_s=5.0, ac="vi"),
            {"kind": "tcp_file", "src": "sta2", "dst": "ap", "file_bytes": 1_000_000},
        ],
    )
    bulk, file = spec["flows"]
    assert bulk == {
        "kind": "tcp_bulk",
        "src": 1,
        "dst": 0,
        "payload_bytes": 1460,
        "rate_bps": None,
        "start_ns": 1_000_000_000,
        "stop_ns": 5_000_000_000,
        "ac": "vi",
        "file_bytes": None,
        "tcp": TCP_DEFAULTS,
    }
    assert (file["kind"], file["file_bytes"], file["stop_ns"]) == ("tcp_file", 1_000_000, None)
    assert file["tcp"] == TCP_DEFAULTS
    # every field is explicit and of the core's type
    for key in (
        "min_rto_ms",
        "max_rto_ms",
        "initial_rto_ms",
        "clock_granularity_ms",
        "delack_timeout_ms",
    ):
        assert type(bulk["tcp"][key]) is float
    for key in ("mss_bytes", "initial_cwnd", "ack_every", "rcv_buf_bytes"):
        assert type(bulk["tcp"][key]) is int


def test_udp_flows_carry_no_tcp_fields():
    spec = spec_of(stations=2)
    assert all("tcp" not in f and "file_bytes" not in f for f in spec["flows"])
    assert Scenario.from_dict({}).tcp.cc == "newreno"  # [tcp] defaults exist, unused


def test_tcp_table_reaches_every_tcp_flow():
    tcp = {
        "cc": "cubic",
        "recovery": "reno",
        "mss_bytes": 536,
        "min_rto_ms": 1000,
        "max_rto_ms": 60000,
        "initial_rto_ms": 3000,
        "clock_granularity_ms": 10,
        "timestamps": False,
        "limited_transmit": False,
        "initial_cwnd": 2,
        "ack_every": 3,
        "delack_timeout_ms": 200,
        "rcv_buf_bytes": 65535,
        "snd_buf_bytes": 65535,
        "hystart": False,
    }
    spec = spec_of(traffic="tcp", stations=2, payload_bytes=1000, tcp=tcp)
    expected = {k: float(v) if k.endswith("_ms") else v for k, v in tcp.items()}
    assert [f["tcp"] for f in spec["flows"]] == [expected, expected]
    # the segment size is the MSS; the top-level payload_bytes is for UDP flows only
    assert [f["payload_bytes"] for f in spec["flows"]] == [536, 536]


def test_delayed_ack_false_acks_every_segment():
    spec = spec_of(traffic="tcp", tcp={"delayed_ack": False, "ack_every": 3})
    assert spec["flows"][0]["tcp"]["ack_every"] == 1
    assert spec_of(traffic="tcp", delayed_ack=False)["flows"][0]["tcp"]["ack_every"] == 1
    # the shortcut overrides the table both ways
    spec = spec_of(traffic="tcp", delayed_ack=True, tcp={"delayed_ack": False, "ack_every": 3})
    assert spec["flows"][0]["tcp"]["ack_every"] == 3


def test_shortcuts_override_the_tcp_table():
    spec = spec_of(
        traffic="tcp",
        cc="vegas",
        recovery="tahoe",
        min_rto_ms=1000,
        tcp={"cc": "cubic", "recovery": "reno", "min_rto_ms": 5},
    )
    tcp = spec["flows"][0]["tcp"]
    assert (tcp["cc"], tcp["recovery"], tcp["min_rto_ms"]) == ("vegas", "tahoe", 1000.0)


def test_per_flow_cc_and_recovery_override_the_scenario():
    spec = spec_of(
        stations=3,
        cc="cubic",
        tcp={"recovery": "reno"},
        flows=[
            tcp_flow(cc="westwood"),
            tcp_flow(src="sta2", recovery="tahoe"),
            tcp_flow(src="sta3"),
        ],
    )
    assert [(f["tcp"]["cc"], f["tcp"]["recovery"]) for f in spec["flows"]] == [
        ("westwood", "reno"),
        ("cubic", "tahoe"),
        ("cubic", "reno"),
    ]


@pytest.mark.parametrize("cc", CC_NAMES)
def test_every_congestion_control_is_accepted(cc):
    assert spec_of(traffic="tcp", cc=cc)["flows"][0]["tcp"]["cc"] == cc


def test_retry_limit_sets_both_mac_limits():
    wifi = spec_of(retry_limit=7, mac={"short_retry_limit": 2, "long_retry_limit": 1})["wifi"]
    assert (wifi["short_retry_limit"], wifi["long_retry_limit"]) == (7, 7)
    wifi = spec_of(mac={"short_retry_limit": 2, "long_retry_limit": 1})["wifi"]
    assert (wifi["short_retry_limit"], wifi["long_retry_limit"]) == (2, 1)


def test_traffic_tcp_default_flows():
    bss = spec_of(traffic="tcp", stations=3)
    assert [(f["kind"], f["src"], f["dst"]) for f in bss["flows"]] == [
        ("tcp_bulk", k, 0) for k in (1, 2, 3)
    ]
    chain = spec_of(traffic="tcp", topology="chain", hops=4)
    assert [(f["kind"], f["src"], f["dst"]) for f in chain["flows"]] == [("tcp_bulk", 0, 4)]
    assert spec_of(traffic="udp")["flows"][0]["kind"] == "udp_saturating"
    # explicit [[flows]] win over traffic
    spec = spec_of(traffic="tcp", flows=[{"kind": "udp_saturating", "src": "sta1", "dst": "ap"}])
    assert spec["flows"][0]["kind"] == "udp_saturating"


def test_tcp_overrides_from_the_command_line():
    out = apply_overrides(
        {"traffic": "tcp"},
        ["cc=cubic", "recovery=reno", "delayed_ack=false", "min_rto_ms=300", "retry_limit=4"],
    )
    assert out["cc"] == "cubic" and out["delayed_ack"] is False
    spec = Scenario.from_dict(out).to_world_spec()
    tcp = spec["flows"][0]["tcp"]
    assert (tcp["cc"], tcp["recovery"], tcp["ack_every"], tcp["min_rto_ms"]) == (
        "cubic",
        "reno",
        1,
        300.0,
    )
    assert spec["wifi"]["long_retry_limit"] == 4
    out = apply_overrides({"flows": [tcp_flow()]}, ["flows.0.cc=bic", "tcp.mss_bytes=1000"])
    flow = Scenario.from_dict(out).to_world_spec()["flows"][0]
    assert (flow["tcp"]["cc"], flow["payload_bytes"]) == ("bic", 1000)


# --- overrides ----------------------------------------------------------------------------------


def test_overrides_parse_toml_values(examples_dir):
    data = load_toml(examples_dir / "bss-udp-saturation.toml")
    out = apply_overrides(
        data,
        [
            "stations=20",
            "mac.short_retry_limit=3",
            "duration_s=2.5",
            "traces.mac_tx=true",
            'name="my run"',
            "channel.error={kind = 'fer', fer = 0.01}",
        ],
    )
    assert data["stations"] == 10  # the input is not modified
    s = Scenario.from_dict(out)
    assert (s.stations, s.mac.short_retry_limit, s.duration_s, s.traces.mac_tx, s.name) == (
        20,
        3,
        2.5,
        True,
        "my run",
    )
    assert s.channel.error.kind == "fer"


@pytest.mark.parametrize("raw", ["80211b", '"80211b"', "'80211b'"])
def test_override_standard_bare_or_quoted(raw):
    out = apply_overrides({}, [f"standard={raw}", "data_rate_mbps=11"])
    assert Scenario.from_dict(out).standard == "80211b"


def test_override_string_field_keeps_numeric_text():
    out = apply_overrides({}, ["name=2024"])
    assert out == {"name": "2024"}


def test_override_into_list_entries():
    data = {"flows": [{"kind": "udp_saturating", "src": "sta1", "dst": "ap"}]}
    out = apply_overrides(data, ["flows.0.kind=udp_cbr", "flows.0.rate_mbps=2"])
    assert Scenario.from_dict(out).to_world_spec()["flows"][0]["rate_bps"] == 2_000_000


@pytest.mark.parametrize(
    ("item", "needle"),
    [
        ("stations", "expected KEY=VALUE"),
        ("=3", "expected KEY=VALUE"),
        ("mac..aifsn=3", "empty segment"),
        ("flows.0.src=sta1", "no entries"),
        ("stations.x=1", "not a table"),
    ],
)
def test_bad_override_syntax(item, needle):
    with pytest.raises(ScenarioError, match=needle):
        apply_overrides({"stations": 2}, [item])


def test_override_unknown_key_is_reported_by_validation():
    msg = one_problem(apply_overrides({}, ["mac.retry_limit=3"]))
    assert msg.startswith("mac.retry_limit: unknown field")
    assert "short_retry_limit" in msg


# --- bad input: one test per class --------------------------------------------------------------


def test_unknown_key():
    msg = one_problem({"stationz": 20})
    assert msg.startswith("stationz: unknown field")
    assert 'did you mean "stations"' in msg
    assert "allowed: name, topology, stations" in msg


def test_unknown_key_in_a_table():
    msg = one_problem({"mac": {"cwmin": 15}})
    assert msg.startswith("mac.cwmin: unknown field")
    assert "cw_min" in msg and "short_retry_limit" in msg


def test_wrong_type():
    msg = one_problem({"stations": "ten"})
    assert msg == (
        'stations: wrong type: expected an integer (got "ten"; '
        'allowed: integer 1..5000 (topology "bss" only))'
    )


def test_wrong_type_bool_for_number():
    msg = one_problem({"duration_s": True})
    assert msg.startswith("duration_s: wrong type: expected a number")
    assert "got true" in msg


@pytest.mark.parametrize("rate", [0, -54])
def test_non_positive_rate(rate):
    msg = one_problem({"data_rate_mbps": rate})
    assert msg.startswith("data_rate_mbps: must be > 0")
    assert f"got {rate}" in msg and "allowed:" in msg


def test_zero_link_rate():
    data = {
        "nodes": [{"name": "h", "role": "host"}],
        "links": [{"a": "ap", "b": "h", "rate_mbps": 0, "delay_ms": 1}],
    }
    msg = one_problem(data)
    assert msg == "links.0.rate_mbps: must be > 0 (got 0; allowed: number > 0 Mbit/s, <= 1e5)"


def test_unknown_standard():
    msg = one_problem({"standard": "80211be"})
    assert msg == (
        'standard: not an allowed value (got "80211be"; allowed: "80211a", "80211b", "80211g", '
        '"80211n", "80211ac" or "80211ax")'
    )


@pytest.mark.parametrize("kind", flow_kinds())
def test_a_flow_kind_is_spelled_as_the_world_spec_spells_it(kind):
    # One spelling end to end: the scenario's name is the world spec's (and the summary's).
    extra = {
        "udp_cbr": {"rate_mbps": 1.0},
        "udp_poisson": {"rate_mbps": 1.0},
        "udp_onoff": {"rate_mbps": 1.0, "on_ms": 10.0, "off_ms": 10.0},
        "tcp_file": {"file_bytes": 1000},
        "clap_file": {"file_bytes": 1000},
    }.get(kind, {})
    [flow] = spec_of(flows=[{"kind": kind, "src": "sta1", "dst": "ap", **extra}])["flows"]
    assert flow["kind"] == kind
    # The hyphenated spelling of earlier versions: refused, with the name to write.
    old = kind.replace("_", "-")
    assert one_problem({"flows": [{"kind": old, "src": "sta1", "dst": "ap", **extra}]}) == (
        "flows.0.kind: not an allowed value: flow kinds are spelled with underscores, as in the "
        f'world spec and the summary; did you mean "{kind}"? (got "{old}"; allowed: '
        '"udp_saturating", "udp_cbr", "udp_poisson", "udp_onoff", "tcp_bulk", "tcp_file" or '
        '"clap_file")'
    )


def test_the_flow_kinds_are_the_cores():
    # Read from the world spec's schema ($defs.FlowKind), in the core's order; the model's
    # groups of kinds name only those.
    from airtcp import summary_types

    assert get_args(FlowKind) == flow_kinds()
    assert {*_TCP_KINDS, *_FILE_KINDS, *_PACED_KINDS} <= set(flow_kinds())
    # One spelling end to end: the summary's kinds (generated from its schema) are the same.
    assert get_args(summary_types.FlowKind) == flow_kinds()


def test_rate_the_standard_does_not_have():
    msg = one_problem({"standard": "80211b", "data_rate_mbps": 54})
    assert msg == "data_rate_mbps: not a rate of 80211b (got 54; allowed: 1, 2, 5.5, 11 (Mbit/s))"
    msg = one_problem({"basic_rate_mbps": 5.5})
    assert msg.startswith("basic_rate_mbps: not a rate of 80211a (got 5.5; allowed: 6, 9, 12")


def test_short_preamble_with_1_mbps():
    msg = one_problem({"standard": "80211b", "preamble": "short", "basic_rate_mbps": 1})
    assert msg.startswith("basic_rate_mbps: the 1 Mbit/s DSSS rate has no short-preamble format")
    assert "got 1" in msg and "2, 5.5, 11" in msg


def test_erp_mixed_needs_80211g():
    msg = one_problem({"standard": "80211a", "erp_mixed": True})
    assert msg.startswith("erp_mixed: b/g mixed mode exists for 802.11g only")


def test_retry_limit_40():
    msg = one_problem({"mac": {"short_retry_limit": 40}})
    assert msg == (
        "mac.short_retry_limit: must be <= 31 "
        "(got 40; allowed: integer 0..31 retransmissions; 0 = never retransmit)"
    )


def test_malformed_toml(write_toml):
    path = write_toml('stations = 3\nstandard = "80211a\n')
    with pytest.raises(ScenarioError) as info:
        load(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: invalid TOML at line 2 column ")
    assert "\n" not in msg


def test_stations_zero():
    msg = one_problem({"stations": 0})
    assert msg == 'stations: must be >= 1 (got 0; allowed: integer 1..5000 (topology "bss" only))'


def test_payload_too_large_explains_the_limit():
    msg = one_problem({"payload_bytes": 3000})
    assert msg.startswith(f"payload_bytes: must be <= {MAX_PAYLOAD_BYTES} (got 3000;")
    assert "2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4 and 8 UDP" in msg


def test_unknown_congestion_control():
    allowed = "reno, newreno, cubic, bic, vegas, veno, westwood, illinois, agent, bbr"
    msg = one_problem({"traffic": "tcp", "tcp": {"cc": "foo"}})
    assert msg == f'tcp.cc: unknown congestion control (got "foo"; allowed: {allowed})'
    msg = one_problem({"traffic": "tcp", "cc": "cubc"})
    assert msg == (
        f'cc: unknown congestion control; did you mean "cubic"? (got "cubc"; allowed: {allowed})'
    )
    msg = one_problem({"flows": [tcp_flow(cc="bbr2")]})
    assert msg.startswith("flows.0.cc: unknown congestion control")
    assert f'(got "bbr2"; allowed: {allowed})' in msg


def test_unknown_recovery():
    msg = one_problem({"traffic": "tcp", "tcp": {"recovery": "fack"}})
    assert msg.startswith("tcp.recovery: unknown loss recovery")
    assert '(got "fack"; allowed: tahoe, reno, newreno, sack)' in msg
    msg = one_problem({"traffic": "tcp", "recovery": "vegas"})
    assert msg.startswith('recovery: unknown loss recovery (got "vegas"; allowed: tahoe, reno')


def test_tcp_file_without_file_bytes():
    msg = one_problem({"flows": [tcp_flow(kind="tcp_file")]})
    assert msg == (
        'flows.0.file_bytes: required for kind = "tcp_file" (allowed: integer >= 1 bytes)'
    )
    msg = one_problem({"flows": [tcp_flow(kind="tcp_file", file_bytes=0)]})
    assert msg.startswith("flows.0.file_bytes: must be >= 1 (got 0; allowed: integer 1..10^12")


def test_file_bytes_on_a_udp_flow():
    msg = one_problem(
        {"flows": [{"kind": "udp_saturating", "src": "sta1", "dst": "ap", "file_bytes": 1000}]}
    )
    assert msg.startswith('flows.0.file_bytes: not allowed for kind = "udp_saturating"')
    assert 'got 1000; allowed: unset, or kind = "tcp_file"' in msg


def test_rate_on_a_tcp_flow():
    msg = one_problem({"flows": [tcp_flow(rate_mbps=2.0)]})
    assert msg.startswith('flows.0.rate_mbps: not allowed for kind = "tcp_bulk"')
    assert 'got 2; allowed: unset, or kind = "udp_cbr"' in msg


def test_negative_min_rto():
    msg = one_problem({"traffic": "tcp", "tcp": {"min_rto_ms": -1}})
    assert msg == "tcp.min_rto_ms: must be >= 0 (got -1; allowed: number 0..1e10 ms)"
    msg = one_problem({"traffic": "tcp", "min_rto_ms": -5})
    assert msg.startswith("min_rto_ms: must be >= 0 (got -5; allowed: number >= 0 ms")


def test_mss_too_large():
    msg = one_problem({"traffic": "tcp", "tcp": {"mss_bytes": 3000}})
    assert msg.startswith(f"tcp.mss_bytes: must be <= {MAX_MSS_BYTES} (got 3000; allowed: ")
    assert "2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4, 20 TCP and 12 timestamp" in msg
    assert MAX_MSS_BYTES == 2244


@pytest.mark.parametrize(
    ("data", "path", "needle"),
    [
        (
            {"traffic": "tcp", "tcp": {"rcv_buf_bytes": 1000}},
            "tcp.rcv_buf_bytes",
            "must be >= tcp.mss_bytes = 1460 (got 1000",
        ),
        (
            {"traffic": "tcp", "tcp": {"max_rto_ms": 100}},
            "tcp.max_rto_ms",
            "must be >= tcp.min_rto_ms = 200 (got 100",
        ),
        (
            {"traffic": "tcp", "min_rto_ms": 200000},
            "min_rto_ms",
            "must be <= tcp.max_rto_ms = 120000 (got 200000",
        ),
        ({"traffic": "tcp", "tcp": {"initial_cwnd": 0}}, "tcp.initial_cwnd", "must be >= 1"),
        ({"traffic": "tcp", "tcp": {"ack_every": 0}}, "tcp.ack_every", "must be >= 1"),
        ({"traffic": "tcp", "tcp": {"initial_rto_ms": 0}}, "tcp.initial_rto_ms", "must be > 0"),
        ({"traffic": "tcp", "tcp": {"delack_timeout_ms": -1}}, "tcp.delack_timeout_ms", ">= 0"),
        ({"traffic": "tcp", "tcp": {"timestamps": 1}}, "tcp.timestamps", "expected true or false"),
        ({"tcp": {"congestion": "reno"}}, "tcp.congestion", "unknown field"),
        ({"traffic": "quic"}, "traffic", 'not an allowed value (got "quic"'),
        ({"retry_limit": 32}, "retry_limit", "must be <= 31"),
        ({"cc": "cubic"}, "cc", "only used by TCP flows, and the scenario has none"),
        ({"delayed_ack": False}, "delayed_ack", "only used by TCP flows"),
        ({"min_rto_ms": 300}, "min_rto_ms", "only used by TCP flows"),
        ({"flows": [tcp_flow(payload_bytes=1000)]}, "flows.0.payload_bytes", "tcp.mss_bytes"),
        (
            {
                "flows": [
                    {"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1, "cc": "reno"}
                ]
            },
            "flows.0.cc",
            'only used by TCP flows, not kind = "udp_cbr"',
        ),
        (
            {"flows": [tcp_flow(kind="tcp_file", file_bytes=10, stop_s=2.0)]},
            "flows.0.stop_s",
            "ends when the file is delivered",
        ),
    ],
)
def test_tcp_cross_field_problems(data, path, needle):
    msg = one_problem(data)
    assert msg.startswith(f"{path}: "), msg
    assert needle in msg, msg
    assert "allowed: " in msg, msg


def test_tcp_needs_a_way_back_for_its_acks():
    # a -> b -> c works, but the explicit route at b sends c's ACKs for a back to c: a loop
    data = {
        "topology": "custom",
        "nodes": [{"name": n, "x_m": 10.0 * i, "role": "adhoc"} for i, n in enumerate("abc")],
        "channel": {
            "matrix": {
                "rx": [[0, 1, 0], [1, 0, 1], [0, 1, 0]],
                "cs": [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
            }
        },
        "routes": [{"node": "b", "dst": "a", "next_hop": "c"}],
        "flows": [{"kind": "udp_saturating", "src": "a", "dst": "c"}],
    }
    spec_of(**data)  # UDP needs no way back
    data["flows"][0]["kind"] = "tcp_bulk"
    msg = one_problem(data)
    assert msg.startswith("flows.0.dst: TCP flow a -> c: its ACKs cannot get back from c to a")


def test_several_problems_are_all_reported():
    found = problems({"stations": 0, "mac": {"aifsn": 16}, "duration_s": -1})
    assert sorted(p.split(":")[0] for p in found) == ["duration_s", "mac.aifsn", "stations"]


def test_scenario_constructor_raises_scenario_error():
    with pytest.raises(ScenarioError, match=r"^stations: must be >= 1"):
        Scenario(stations=0)


@pytest.mark.parametrize(
    ("data", "path", "needle"),
    [
        ({"warmup_s": 10.0}, "warmup_s", "must be < duration_s = 10"),
        ({"mac": {"cw_min": 31, "cw_max": 15}}, "mac.cw_max", "must be >= mac.cw_min = 31"),
        ({"channel": {"cs_range_m": 100.0}}, "channel.cs_range_m", ">= channel.rx_range_m"),
        ({"channel": {"error": {"kind": "fer", "fer": 1.0}}}, "channel.error.fer", "must be < 1"),
        ({"channel": {"error": {"kind": "xyz"}}}, "channel.error.kind", "unknown kind"),
        ({"channel": {"error": {"kind": "ber"}}}, "channel.error.ber", "required field"),
        ({"topology": "chain", "stations": 4}, "stations", 'only used by topology = "bss"'),
        ({"topology": "bss", "hops": 4}, "hops", 'only used by topology = "chain"'),
        ({"spacing_m": 300.0}, "spacing_m", "out of range"),
        (
            {"flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap"}]},
            "flows.0.rate_mbps",
            "required",
        ),
        (
            {"flows": [{"kind": "udp_saturating", "src": "sta1", "dst": "ap", "rate_mbps": 1.0}]},
            "flows.0.rate_mbps",
            "not allowed",
        ),
        (
            {"flows": [{"kind": "udp_saturating", "src": "sta1", "dst": "sta1"}]},
            "flows.0.dst",
            "same node",
        ),
        (
            {"flows": [{"kind": "udp_saturating", "src": "sta1", "dst": "apx"}]},
            "flows.0.dst",
            'unknown node; did you mean "ap"',
        ),
        (
            {"flows": [{"kind": "udp_saturating", "src": "x*", "dst": "ap"}]},
            "flows.0.src",
            "matches no node",
        ),
        (
            {"flows": [{"kind": "tcp", "src": "sta1", "dst": "ap"}]},
            "flows.0.kind",
            "not an allowed value",
        ),
        ({"flows": [{"src": "sta1", "dst": "ap"}]}, "flows.0.kind", "required field is missing"),
        (
            {
                "flows": [
                    {
                        "kind": "udp_saturating",
                        "src": "sta1",
                        "dst": "ap",
                        "start_s": 2.0,
                        "stop_s": 1.0,
                    }
                ]
            },
            "flows.0.stop_s",
            "must be > start_s",
        ),
        ({"nodes": [{"name": "ap", "role": "ap"}]}, "nodes.0.name", "duplicate node name"),
        ({"nodes": [{"name": "s*", "role": "sta"}]}, "nodes.0.name", "not a valid node name"),
        ({"nodes": [{"name": "x", "role": "router"}]}, "nodes.0.role", "not an allowed value"),
        (
            {"links": [{"a": "ap", "b": "nowhere", "rate_mbps": 1, "delay_ms": 0}]},
            "links.0.b",
            "unknown node",
        ),
        (
            {"routes": [{"node": "sta1", "dst": "ap", "next_hop": "sta9"}]},
            "routes.0.next_hop",
            "unknown node",
        ),
        (
            {"channel": {"matrix": {"rx": [[0]], "cs": [[0, 1], [1, 0]]}}},
            "channel.matrix.rx",
            "must be 2 x 2, one row and column per node in order (got 1 rows of 1 entries",
        ),
        (
            {"channel": {"matrix": {"rx": [[0, 2], [1, 0]], "cs": [[0, 1], [1, 0]]}}},
            "channel.matrix.rx.0.1",
            "not an allowed value",
        ),
    ],
)
def test_cross_field_problems(data, path, needle):
    msg = one_problem(data)
    assert msg.startswith(f"{path}: "), msg
    assert needle in msg, msg


def test_custom_topology_needs_nodes_and_flows():
    assert problems({"topology": "custom"}) == [
        "nodes: a custom topology needs at least one [[nodes]] entry "
        "(got []; allowed: an array of tables [[nodes]])",
        "flows: a custom topology needs at least one [[flows]] entry "
        "(got []; allowed: an array of tables [[flows]])",
    ]


def test_unknown_node_lists_known_names():
    msg = one_problem(
        {"stations": 2, "flows": [{"kind": "udp_saturating", "src": "sta3", "dst": "ap"}]}
    )
    assert msg.startswith("flows.0.src: unknown node")
    assert 'allowed: one of "ap", "sta1", "sta2"' in msg


def test_unreachable_destination():
    data = {
        "nodes": [{"name": "far", "x_m": 1000.0, "role": "sta"}],
        "flows": [{"kind": "udp_saturating", "src": "far", "dst": "ap"}],
    }
    msg = one_problem(data)
    assert msg.startswith("flows.0.dst: ap is unreachable from far")
    assert "access point within channel.rx_range_m = 250 m" in msg


def test_host_without_link_is_unreachable():
    data = {
        "nodes": [{"name": "server", "role": "host"}],
        "flows": [{"kind": "udp_saturating", "src": "sta1", "dst": "server"}],
    }
    msg = one_problem(data)
    assert msg.startswith("flows.0.dst: server is unreachable from sta1")


def test_route_next_hop_must_be_a_neighbour():
    data = {
        "nodes": [{"name": "h", "role": "host"}],
        "links": [{"a": "ap", "b": "h", "rate_mbps": 10, "delay_ms": 1}],
        "routes": [{"node": "sta1", "dst": "h", "next_hop": "h"}],
    }
    msg = one_problem(data)
    assert msg.startswith(
        'routes.0.next_hop: not a neighbour of "sta1" (got "h"; allowed: one of "ap")'
    )


def test_not_a_table():
    msg = one_problem({"mac": 3})
    assert msg == "mac: wrong type: expected a table (got 3; allowed: a table)"
    with pytest.raises(ScenarioError, match="^scenario: expected a table"):
        Scenario.from_dict([1, 2])  # type: ignore[arg-type]


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nope.toml")


# --- the run() front door, without the core -------------------------------------------------------


def test_to_scenario_accepts_scenario_dict_and_path(examples_dir):
    from airtcp.run import to_scenario

    base = Scenario.from_dict({"stations": 2})
    assert to_scenario(base) is base
    changed = to_scenario(base, {"stations": 4, "mac.aifsn": 2})
    assert (changed.stations, changed.mac.aifsn, base.stations) == (4, 2, 2)
    assert to_scenario({"stations": 3}).stations == 3
    path = examples_dir / "bss-udp-saturation.toml"
    assert to_scenario(path, {"stations": 20}).stations == 20
    assert to_scenario(str(path)).stations == 10
    with pytest.raises(ScenarioError, match="^stations: must be >= 1"):
        to_scenario(base, {"stations": 0})
    with pytest.raises(ScenarioError, match="^config: expected a Scenario"):
        to_scenario(42)  # type: ignore[arg-type]


def test_run_rejects_a_bad_seed_before_the_core():
    import airtcp

    with pytest.raises(ScenarioError, match="^seed: must be an integer"):
        airtcp.run({}, seed=-1)


def test_report_interval_reaches_every_flow_and_can_be_overridden():
    s = Scenario.from_dict(
        {
            "stations": 2,
            "report_interval_s": 5,
            "flows": [
                {"kind": "udp_saturating", "src": "sta1", "dst": "ap"},
                {"kind": "udp_saturating", "src": "sta2", "dst": "ap", "report_interval_s": 0.5},
            ],
        }
    )
    flows = s.to_world_spec()["flows"]
    assert [f["report_interval_ns"] for f in flows] == [5_000_000_000, 500_000_000]
    assert "report_interval_ns" not in Scenario.from_dict({}).to_world_spec()["flows"][0]


# --- CLAP (docs/clap.md) ----------------------------------------------------------------------


def clap_scenario(**kw):
    """A station uploads to a wired server behind the AP (paper 001's shape)."""
    return {
        "nodes": [{"name": "server", "role": "host"}],
        "links": [{"a": "ap", "b": "server", "rate_mbps": 10, "delay_ms": 2}],
        **kw,
    }


def clap_flow(**kw):
    return {"kind": "clap_file", "src": "sta1", "dst": "server", "file_bytes": 1_000_000, **kw}


def test_clap_flow_expansion_with_defaults_and_the_clap_table():
    (flow,) = spec_of(**clap_scenario(flows=[clap_flow()]))["flows"]
    assert (flow["kind"], flow["file_bytes"], flow["payload_bytes"]) == ("clap_file", 10**6, 1000)
    assert "tcp" not in flow
    # docs/clap.md defaults: 100 ms feedback interval, 16 NACK ranges, queue target 2 frames.
    assert flow["clap"] == {
        "mss_bytes": 1000,
        "feedback_interval_ms": 100.0,
        "max_nack_ranges": 16,
        "queue_target_frames": 2,
        "send_buffer_segments": 4096,
    }
    clap = {"feedback_interval_ms": 50, "max_nack_ranges": 4, "queue_target_frames": 1}
    (flow,) = spec_of(**clap_scenario(flows=[clap_flow()], clap=clap))["flows"]
    assert flow["clap"]["feedback_interval_ms"] == 50.0
    assert (flow["clap"]["max_nack_ranges"], flow["clap"]["queue_target_frames"]) == (4, 1)


def test_clap_file_without_file_bytes():
    msg = one_problem(clap_scenario(flows=[clap_flow(file_bytes=None)]))
    assert msg == (
        'flows.0.file_bytes: required for kind = "clap_file" (allowed: integer >= 1 bytes)'
    )


def test_clap_sender_on_a_wired_host_is_rejected():
    msg = one_problem(clap_scenario(flows=[clap_flow(src="server", dst="sta1")]))
    assert msg.startswith(
        "flows.0.src: a CLAP sender must send over its own WiFi MAC (its MAC feeds the rate), "
        'but server has no WiFi (got "server"; allowed: a WiFi node'
    ), msg
    # The AP has WiFi, but its first hop toward the server is the wire.
    msg = one_problem(clap_scenario(flows=[clap_flow(src="ap")]))
    assert "its first hop ap -> server is a wired link" in msg, msg


@pytest.mark.parametrize(
    ("clap", "field", "allowed"),
    [
        ({"max_nack_ranges": 17}, "clap.max_nack_ranges", "integer 1..16 ranges"),
        ({"feedback_interval_ms": 0}, "clap.feedback_interval_ms", "number 0.001..1e10 ms"),
        ({"queue_target_frames": -1}, "clap.queue_target_frames", "integer >= 0 frames"),
    ],
)
def test_clap_table_errors_name_field_value_and_range(clap, field, allowed):
    msg = one_problem(clap_scenario(flows=[clap_flow()], clap=clap))
    assert msg.startswith(f"{field}: ") and f"allowed: {allowed}" in msg, msg


def test_clap_flows_take_no_payload_or_rate():
    found = problems(clap_scenario(flows=[clap_flow(payload_bytes=500, rate_mbps=1.0)]))
    assert any(
        p.startswith('flows.0.payload_bytes: not allowed for kind = "clap_file"') for p in found
    )
    assert any("CLAP's rate comes from its sender's MAC" in p for p in found), found


def test_the_binary_connectivity_reads_as_the_json_one():
    # The core's two forms of the same computation: every next hop and neighbour agrees (a
    # BSS, a chain and a custom topology with a wired host).
    import json

    from airtcp import _core

    for data in (
        {"stations": 9},
        {"topology": "chain", "hops": 6, "spacing_m": 100.0},
        {"stations": 3, "nodes": [{"name": "h", "role": "host"}],
         "links": [{"a": "ap", "b": "h", "rate_mbps": 100, "delay_ms": 1}]},
    ):  # fmt: skip
        spec = Scenario.from_dict(data).to_world_spec()
        topo = {k: spec[k] for k in ("nodes", "channel", "wired_links", "blocked_radio_links")}
        ref = json.loads(_core.connectivity(json.dumps(topo)))
        conn = connectivity(topo)
        n = len(spec["nodes"])
        assert conn.n == n
        assert [[conn.next_hop(u, d) for d in range(n)] for u in range(n)] == ref["next_hop"]
        assert [sorted(conn.neighbours(u)) for u in range(n)] == ref["neighbours"]


# --- the core's refusals, in the scenario's words -------------------------------------------------
# Each value passed the scenario's checks and was refused by the core in the world spec's words
# ("nodes.3.rate_control", "flows.0.rate_bps", "nodes: the core rejects the topology: ..."); it
# is refused here, with the scenario's field, the value and what is allowed.

_BSS = {"stations": 2, "duration_s": 1.0}
_RADIO = {"channel": {"model": "radio"}}
_UDP = {"kind": "udp_saturating", "src": "sta1", "dst": "ap"}


def _node(**kw):
    return {"name": "x", "role": "sta", "x_m": 5.0, **kw}


def _steady(area):
    return {"kind": "random-waypoint", "area_m": area, "speed_min_mps": 1, "speed_max_mps": 2,
            "steady_state": True}  # fmt: skip


_CORE_REFUSALS = [
    # (the scenario, its field, the message, the value next to it, which the core accepts)
    ({**_BSS, "nodes": [_node(rate_control="ath9k")]},
     "nodes.0.rate_control", "runs on 802.11n's HT modes only, not on 80211a",
     {**_BSS, "nodes": [_node(rate_control="minstrel")]}),
    ({**_BSS, "standard": "80211g", "nodes": [_node(rate_control="minstrel-ht")]},
     "nodes.0.rate_control", "runs on 802.11n's HT and 802.11ac's VHT modes only, not on 80211g",
     {**_BSS, "standard": "80211n", "nodes": [_node(rate_control="minstrel-ht")]}),
    ({**_BSS, "flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1e-12}]},
     "flows.0.rate_mbps", "rounds to 0 in the core's units",
     {**_BSS, "flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1e-6}]}),
    ({**_BSS, "flows": [{**_UDP, "start_s": 0.5, "stop_s": 0.5000000001}]},
     "flows.0.stop_s", "must be > start_s = 0.5 by at least 1 ns",
     {**_BSS, "flows": [{**_UDP, "start_s": 0.5, "stop_s": 0.500000001}]}),
    ({**_BSS, "warmup_s": 0.9999999999},
     "warmup_s", "must be < duration_s = 1 by at least 1 ns",
     {**_BSS, "warmup_s": 0.999999999}),
    ({**_BSS, **_RADIO, "nodes": [_node(mobility={
        "kind": "waypoints", "points": [[0, 1, 0, 0], [1e-10, 2, 0, 0]]})]},
     "nodes.0.mobility.points.1", "time less than 1 ns after the previous point's",
     {**_BSS, **_RADIO, "nodes": [_node(mobility={
         "kind": "waypoints", "points": [[0, 1, 0, 0], [1e-9, 2, 0, 0]]})]}),
    ({**_BSS, **_RADIO, "nodes": [_node(mobility=_steady([0, 0, 0, 10]))]},
     "nodes.0.mobility.area_m", "a steady-state start needs an area of positive width",
     {**_BSS, **_RADIO, "nodes": [_node(mobility=_steady([0, 0, 1e-3, 10]))]}),
    ({**_BSS, **_RADIO, "mobility": _steady([0, 0, 10, 0])},
     "mobility.area_m", "a steady-state start needs an area of positive width",
     {**_BSS, **_RADIO, "mobility": _steady([0, 0, 10, 1e-3])}),
    ({**_BSS, "duration_s": 1e-9, "report_interval_s": 1e-15},
     "report_interval_s", "rounds to 0 in the core's units",
     {**_BSS, "duration_s": 1e-9, "report_interval_s": 1e-9}),
    ({**_BSS, "duration_s": 1e-9, "flows": [{**_UDP, "report_interval_s": 1e-15}]},
     "flows.0.report_interval_s", "rounds to 0 in the core's units",
     {**_BSS, "duration_s": 1e-9, "flows": [{**_UDP, "report_interval_s": 1e-9}]}),
    ({**_BSS, "channel": {"model": "radio", "capture": True, "capture_window_us": 1e-6}},
     "channel.capture_window_us", "rounds to 0 in the core's units",
     {**_BSS, "channel": {"model": "radio", "capture": True, "capture_window_us": 1e-3}}),
]  # fmt: skip


@pytest.mark.parametrize(("data", "path", "what", "neighbour"), _CORE_REFUSALS)
def test_values_the_core_refuses_are_refused_with_the_scenarios_field(data, path, what, neighbour):
    from airtcp import _core

    line = one_problem(data)
    assert line.startswith(f"{path}: {what}"), line
    assert "(got " in line and "allowed: " in line, line
    assert "world spec" not in line and "the core rejects" not in line, line
    # The value next to it passes here and in the core: the bound is the core's.
    _core.Sim(Scenario.from_dict(neighbour).spec_json(), 1)


def test_an_ht_only_rate_control_names_the_rate_controls_of_the_standard():
    from airtcp import tables

    line = one_problem({**_BSS, "standard": "80211b", "nodes": [_node(rate_control="ath9k")]})
    others = [n for n in tables.rate_controls() if n not in ("minstrel-ht", "ath9k")]
    assert line.endswith(f'allowed: standard = "80211n", or on 80211b: {", ".join(others)})')
    assert one_problem({**_BSS, "mac": {"rate_control": "ath9k"}}).startswith(
        "mac.rate_control: runs on 802.11n's HT modes only, not on 80211a"
    )


# --- templates: the file's own keys -----------------------------------------------------------


def test_a_template_refuses_the_files_topology_and_names_its_knobs():
    # [[nodes]] replaced paper-002's nodes; the errors then named its links and flows, which
    # the file never wrote ("links.0.b: unknown node ...").
    line = one_problem({"template": "paper-002", "nodes": [{"name": "x", "role": "sta"}]})
    assert line.startswith(
        'nodes: template "paper-002" builds its own [[nodes]] ("server"); a file cannot replace'
    ), line
    assert "(got 1 entry; allowed: no nodes with this template ([[flows]] may replace its " in line
    assert (
        "its knobs: distance_m, mcs, cc, delay_ms, queue, scheme, rate_control, duration_s, "
        "fading_model;" in line
    )
    found = problems({"template": "paper-004", "links": [], "routes": []})
    assert [p.split(":")[0] for p in found] == ["links", "routes"]
    assert "builds its own [[links]] (A - B)" in found[0] and "(got 0 entries;" in found[0]
    assert found[1].startswith(
        'routes: template "paper-004" builds the topology; a file cannot add'
    )
    assert one_problem({"template": "paper-000", "nodes": []}).startswith(
        'nodes: template "paper-000" builds the topology; a file cannot add [[nodes]]'
    )


def test_a_templates_traffic_is_replaced_by_the_files_flows():
    udp = [{"kind": "udp_saturating", "src": "n0", "dst": "n3"}]
    spec = Scenario.from_dict({"template": "paper-000", "flows": udp}).to_world_spec()
    assert [(f["kind"], f["src"], f["dst"]) for f in spec["flows"]] == [("udp_saturating", 0, 3)]
    # The template's cc shortcut was for its TCP flow: it goes with it, unless the file sets it
    # or a flow of the file's is TCP.
    line = one_problem({"template": "paper-000", "cc": "reno", "flows": udp})
    assert line.startswith("cc: only used by TCP flows") and "[set by template" not in line
    tcp = [{"kind": "tcp_bulk", "src": "n0", "dst": "n3"}]
    spec = Scenario.from_dict({"template": "paper-000", "cc": "veno", "flows": tcp}).to_world_spec()
    assert spec["flows"][0]["tcp"]["cc"] == "veno"


def test_problems_with_fields_the_template_set_say_so():
    mark = ' [set by template "paper-003", not by the file]'
    found = problems({"template": "paper-003", "standard": "80211b"})
    assert found[0].startswith("basic_rate_mbps: not a rate of 80211b") and found[0].endswith(mark)
    tables = [p for p in found if p.startswith("channel.tx_power_by_rate_dbm.")]
    assert len(tables) == 8 and all(p.endswith(mark) for p in tables)
    # A field the file sets is the file's: no mark.
    own = {
        "template": "paper-003",
        "standard": "80211b",
        "channel": {"tx_power_by_rate_dbm": [[6, 1]]},
    }
    found = problems(own)
    assert [p.endswith(mark) for p in found if "tx_power_by_rate" in p] == [False]
    assert all(p.endswith(mark) for p in found if "rx_sensitivity_by_rate" in p)
    line = one_problem({"template": "paper-003", "stationz": 2})
    assert line.startswith("stationz: unknown field") and not line.endswith(mark)


def test_set_null_removes_a_key_and_refuses_an_unknown_one(examples_dir):
    from airtcp.config import load_toml

    data = load_toml(examples_dir / "distance-udp.toml")
    assert data["basic_rate_mbps"] == 6 and data["mac"]["rate_control"] == "constant"
    out = apply_overrides(data, ["basic_rate_mbps=null", "mac.rate_control=null"])
    assert "basic_rate_mbps" not in out and "rate_control" not in out["mac"]
    assert data["basic_rate_mbps"] == 6, "the file's data is left as it was"
    # The fields take their defaults again.
    spec = Scenario.from_dict(out).to_world_spec()
    default = Scenario.from_dict({"name": "d", "stations": 1}).to_world_spec()
    assert spec["wifi"]["basic_rate_mbps"] == default["wifi"]["basic_rate_mbps"]
    # A known field the file does not set: nothing to do; an unknown one: named.
    assert apply_overrides(data, ["mac.cw_min=null"]) == data
    with pytest.raises(ScenarioError, match="data_rat_mbps: not a field of the scenario"):
        apply_overrides(data, ["data_rat_mbps=null"])
    # The text "null" is a quoted value.
    assert apply_overrides(data, ['name="null"'])["name"] == "null"


def test_minstrel_status_is_written_only_when_set_and_needs_minstrel_rt2800() -> None:
    """mac.minstrel_status: the default leaves the world spec as it was; per-attempt reaches
    the core under minstrel-rt2800 and is refused, by name, where no MAC runs it."""
    base = {"topology": "bss", "stations": 1, "traffic": "udp"}
    assert "minstrel_status" not in spec_of(**base, mac={"rate_control": "minstrel-rt2800"})["wifi"]
    spec = spec_of(
        **base, mac={"rate_control": "minstrel-rt2800", "minstrel_status": "per-attempt"}
    )
    assert spec["wifi"]["minstrel_status"] == "per-attempt"
    msg = one_problem(
        {**base, "mac": {"rate_control": "minstrel", "minstrel_status": "per-attempt"}}
    )
    assert msg.startswith("mac.minstrel_status: ") and "minstrel-rt2800" in msg, msg
