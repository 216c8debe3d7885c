"""Scenario validation and expansion into the world spec (no native core needed)."""

from __future__ import annotations

import json
import math

import pytest

from airtcp.config import (
    MAX_PAYLOAD_BYTES,
    Scenario,
    ScenarioError,
    apply_overrides,
    load,
    load_toml,
)


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
    nm = names(spec)
    return {(nm[r["node"]], nm[r["dst"]]): nm[r["next_hop"]] for r in spec["routes"]}


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
    assert spec["traces"] == {"mac_tx": False, "packets": False}
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
    assert len(spec["routes"]) == 3 * 2


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
    assert len(spec["routes"]) == 2 * (3 + 2 + 1)
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
            {"kind": "udp-cbr", "src": "sta-*", "dst": "ap1", "rate_mbps": 2.5, "ac": "vi"},
            {"kind": "udp-saturating", "src": "other", "dst": "sta-a", "payload_bytes": 100},
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
    spec = spec_of(stations=3, flows=[{"kind": "udp-saturating", "src": "*", "dst": "sta2"}])
    assert [f["src"] for f in spec["flows"]] == [0, 1, 3]


def test_wired_server_behind_the_ap():
    spec = spec_of(
        stations=2,
        nodes=[{"name": "server", "x_m": 0.0, "role": "host"}],
        links=[{"a": "server", "b": "ap", "rate_mbps": 100, "delay_ms": 2.5}],
        flows=[{"kind": "udp-saturating", "src": "server", "dst": "sta2"}],
    )
    assert spec["nodes"][3] == {
        "name": "server",
        "position_m": [0.0, 0.0, 0.0],
        "wifi": False,
        "role": "host",
    }
    assert spec["wired_links"] == [
        {"a": 3, "b": 0, "rate_bps": 100_000_000, "delay_ns": 2_500_000, "queue_limit_packets": 100}
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
        "flows": [{"kind": "udp-saturating", "src": "a", "dst": "c"}],
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
        "flows": [{"kind": "udp-saturating", "src": "a", "dst": "c"}],
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
                "kind": "udp-cbr",
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
    assert {f.name for f in files} >= {"bss-udp-saturation.toml", "chain-udp.toml"}
    for path in files:
        load(path).to_world_spec()
    bss = load(examples_dir / "bss-udp-saturation.toml")
    assert (bss.stations, bss.standard, bss.warmup_s, bss.data_rate_mbps) == (10, "80211a", 1.0, 54)
    chain = load(examples_dir / "chain-udp.toml").to_world_spec()
    assert len(chain["nodes"]) == 6 and chain["wifi"]["standard"] == "80211g"


def test_docs_mention_every_field(repo_root):
    text = (repo_root / "docs" / "scenarios.md").read_text(encoding="utf-8")
    from airtcp import config

    models = [
        config.Scenario,
        config.MacConfig,
        config.ChannelConfig,
        config.MatrixConfig,
        config.ErrorFer,
        config.ErrorBer,
        config.NodeConfig,
        config.LinkConfig,
        config.RouteConfig,
        config.FlowConfig,
        config.TracesConfig,
    ]
    missing = [
        f"{m.__name__}.{name}" for m in models for name in m.model_fields if f"`{name}`" not in text
    ]
    assert not missing


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
    data = {"flows": [{"kind": "udp-saturating", "src": "sta1", "dst": "ap"}]}
    out = apply_overrides(data, ["flows.0.kind=udp-cbr", "flows.0.rate_mbps=2"])
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
        'allowed: integer >= 1 (topology "bss" only))'
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
    assert msg == "links.0.rate_mbps: must be > 0 (got 0; allowed: number > 0 Mbit/s)"


def test_unknown_standard():
    msg = one_problem({"standard": "80211n"})
    assert msg == (
        'standard: not an allowed value (got "80211n"; allowed: "80211a", "80211b" or "80211g")'
    )


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
    assert msg == 'stations: must be >= 1 (got 0; allowed: integer >= 1 (topology "bss" only))'


def test_payload_too_large_explains_the_limit():
    msg = one_problem({"payload_bytes": 3000})
    assert msg.startswith(f"payload_bytes: must be <= {MAX_PAYLOAD_BYTES} (got 3000;")
    assert "2304-byte maximum MSDU minus 8 LLC/SNAP, 20 IPv4 and 8 UDP" in msg


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
            {"flows": [{"kind": "udp-cbr", "src": "sta1", "dst": "ap"}]},
            "flows.0.rate_mbps",
            "required",
        ),
        (
            {"flows": [{"kind": "udp-saturating", "src": "sta1", "dst": "ap", "rate_mbps": 1.0}]},
            "flows.0.rate_mbps",
            "not allowed",
        ),
        (
            {"flows": [{"kind": "udp-saturating", "src": "sta1", "dst": "sta1"}]},
            "flows.0.dst",
            "same node",
        ),
        (
            {"flows": [{"kind": "udp-saturating", "src": "sta1", "dst": "apx"}]},
            "flows.0.dst",
            'unknown node; did you mean "ap"',
        ),
        (
            {"flows": [{"kind": "udp-saturating", "src": "x*", "dst": "ap"}]},
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
                        "kind": "udp-saturating",
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
        ({"nodes": [{"name": "s*", "role": "sta"}]}, "nodes.0.name", "must not contain"),
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
        {"stations": 2, "flows": [{"kind": "udp-saturating", "src": "sta3", "dst": "ap"}]}
    )
    assert msg.startswith("flows.0.src: unknown node")
    assert 'allowed: one of "ap", "sta1", "sta2"' in msg


def test_unreachable_destination():
    data = {
        "nodes": [{"name": "far", "x_m": 1000.0, "role": "sta"}],
        "flows": [{"kind": "udp-saturating", "src": "far", "dst": "ap"}],
    }
    msg = one_problem(data)
    assert msg.startswith("flows.0.dst: ap is unreachable from far")
    assert "access point within channel.rx_range_m = 250 m" in msg


def test_host_without_link_is_unreachable():
    data = {
        "nodes": [{"name": "server", "role": "host"}],
        "flows": [{"kind": "udp-saturating", "src": "sta1", "dst": "server"}],
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
