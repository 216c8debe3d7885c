"""The plain validator (airtcp.config.plain, issue 37) against pydantic's models: where it
vouches for a scenario, the scenario it builds has every attribute the pydantic Scenario has
(fields, fields set, passed-through keys, world spec); where pydantic refuses one, it never
vouches. Checked over every example, the scenarios of the docs' commands and thousands of
mutations of them; and table.json is what the models make."""

from __future__ import annotations

import copy
import math
import pickle
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from airtcp.config import ScenarioError, plain, tablegen
from airtcp.config.convert import _strip_optional, _walk
from airtcp.config.load import _expects_string, load_toml
from airtcp.config.models import Scenario, _PassThrough

EXAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("examples").rglob("*.toml"))
TABLE = plain._TABLE


def _plain_examples() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in EXAMPLES:
        data = load_toml(path)
        if "template" in data or "base" in data:  # a template's knobs; a sweep's file
            continue
        out.append((path.name, data))
    return out


CASES = _plain_examples()


def assert_same(p: Any, s: Any, where: str = "scenario") -> None:
    """``p`` (the plain validator's) holds what ``s`` (pydantic's) holds, all the way down."""
    if isinstance(s, list):
        assert isinstance(p, list) and len(p) == len(s), where
        for k, (a, b) in enumerate(zip(p, s, strict=True)):
            assert_same(a, b, f"{where}.{k}")
        return
    if hasattr(type(s), "model_fields"):
        assert isinstance(p, plain.Section) and p.MODEL == type(s).__name__, where
        assert p.model_fields_set == s.model_fields_set, where
        for name in type(s).model_fields:
            assert_same(getattr(p, name), getattr(s, name), f"{where}.{name}")
        if isinstance(s, _PassThrough):
            assert p.core_fields() == s.core_fields(), where
        assert p.model_dump() == s.model_dump(), where
        assert p.model_dump(exclude_unset=True) == s.model_dump(exclude_unset=True), where
        if hasattr(s, "is_tcp"):
            assert p.is_tcp == s.is_tcp, where
        return
    assert type(p) is type(s) and p == s, f"{where}: {p!r} != {s!r}"


def test_table_json_is_what_the_models_make():
    stale = tablegen.TARGET.read_text(encoding="utf-8") != tablegen.current()
    assert not stale, f"python/airtcp/config/table.json is stale: run {tablegen.COMMAND}"


def test_a_validator_the_table_does_not_know_is_refused(monkeypatch):
    from airtcp.config import checks

    monkeypatch.delitem(checks.AFTER, "NodeConfig")
    with pytest.raises(tablegen.TableError, match="NodeConfig: its _check is not checks.AFTER"):
        tablegen.table()


def test_a_type_the_table_cannot_say_is_refused():
    with pytest.raises(tablegen.TableError, match="x: no plain type for"):
        tablegen._type(dict[str, int], "x")
    with pytest.raises(tablegen.TableError, match="a union without a discriminator"):
        tablegen._type(int | str, "x")


@pytest.mark.parametrize(("name", "data"), CASES, ids=[c[0] for c in CASES])
def test_every_example_is_vouched_for_and_the_same(name, data):
    p = plain.scenario(data)
    assert p is not None, f"{name}: left to pydantic"
    s = Scenario.from_dict(data)
    assert_same(p, s)
    assert p.spec_json() == s.spec_json()
    assert p.to_world_spec() == s.to_world_spec()


def test_a_template_is_left_to_pydantic():
    data = load_toml(next(p for p in EXAMPLES if p.name == "paper-002.toml"))
    assert "template" in data
    assert plain.scenario(data) is None
    assert plain.validate(data).spec_json() == Scenario.from_dict(data).spec_json()


def test_the_plain_scenario_pickles_and_runs_as_pydantics():
    import airtcp

    pytest.importorskip("airtcp._core")
    data = {"stations": 3, "traffic": "tcp", "duration_s": 0.5, "mac": {"rate_control": "arf"}}
    p = plain.scenario(data)
    assert p is not None
    q = pickle.loads(pickle.dumps(p))  # --seeds sends it to worker processes
    assert q.spec_json() == p.spec_json() and q.mac.model_fields_set == {"rate_control"}
    a = airtcp.run(q, seed=3).summary
    b = airtcp.run(Scenario.from_dict(data), seed=3).summary
    for r in (a, b):
        r.pop("wall_seconds")
    assert a == b


def test_to_scenario_still_gives_the_pydantic_model():
    from airtcp.run import to_scenario

    assert isinstance(to_scenario({"stations": 2}), Scenario)
    p = plain.scenario({"stations": 2, "mac": {"aifsn": 3}})
    s = to_scenario(p)
    assert isinstance(s, Scenario) and s.mac.aifsn == 3 and s.mac.model_fields_set == {"aifsn"}


def test_a_warning_of_the_expansion_is_given_once():
    data = {
        "channel": {"model": "radio"},
        "mobility": {
            "kind": "random-waypoint",
            "area_m": [-10.0, -10.0, 10.0, 10.0],
            "speed_min_mps": 0.0,
            "speed_max_mps": 1.0,
        },
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert plain.scenario(data) is not None
    assert [str(w.message)[:60] for w in caught] == [
        "mobility: random waypoint with speed_min_mps = 0: the averag"
    ]


# -- mutations -------------------------------------------------------------------------------


def _paths(tp: list[Any], prefix: tuple[str | int, ...], depth: int = 0) -> list[Any]:
    """Every field path of the table below a type (lists: entry 0; unions: each member)."""
    while tp[0] == "opt":
        tp = tp[1]
    if depth > 4:
        return []
    if tp[0] == "model":
        out = []
        for f in TABLE[tp[1]]["fields"]:
            out.append(((*prefix, f[0]), f))
            out += _paths(f[1], (*prefix, f[0]), depth + 1)
        return out
    if tp[0] == "list":
        return _paths(tp[1], (*prefix, 0), depth + 1)
    if tp[0] == "tagged":
        return [x for m in dict.fromkeys(tp[2].values()) for x in _paths(["model", m], prefix)]
    return []


ALL_PATHS = _paths(["model", "Scenario"], ())

ODD = [
    None, True, False, 0, 1, -1, 2, 3, 7, 31, 32, 100, 2**63, 2**64, 10**400, 0.0, -0.0, 0.5,
    1.0, 2.4, 5.0, 5, 20, 40, 1e6, 1e7, 1.5e308, math.inf, -math.inf, math.nan, "", "x",
    "tcp_bulk", "tcp-bulk", "udp_cbr", "radio", "range", "80211b", "edca", "cubic", "arf", "ap",
    "sta1", "host", "mesh", "doppler", [], [0], [1.0, 2.0], [[0, 1], [1, 0]], {}, {"kind": "x"},
]  # fmt: skip


def _value_for(f: list[Any], rng: random.Random) -> Any:
    """A value for the field entry ``f``: often one of its own kind near its bounds."""
    tp, bounds = f[1], f[2]
    while tp[0] == "opt":
        tp = tp[1]
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(ODD)
    if tp[0] == "lit":
        return rng.choice(tp[1])
    if tp[0] in ("int", "float") and bounds:
        b = rng.choice(list(bounds.values()))
        if isinstance(b, int) and not isinstance(b, bool) and tp[0] == "int":
            return b + rng.choice([-1, 0, 1])
        return float(b) * rng.choice([1.0, 0.5, 2.0, 1 + 1e-12])
    if tp[0] == "float":
        return rng.choice([0.001, 1.0, 3, 12.5, 250.0])
    if tp[0] == "int":
        return rng.choice([0, 1, 2, 4, 10, 1500])
    if tp[0] == "bool":
        return rng.choice([True, False])
    return rng.choice(ODD)


def _set(data: dict[str, Any], path: tuple[str | int, ...], value: Any) -> bool:
    cur: Any = data
    for key in path[:-1]:
        if isinstance(key, int):
            if not isinstance(cur, list) or not cur:
                return False
            cur = cur[0]
        else:
            if not isinstance(cur, dict):
                return False
            cur = cur.setdefault(key, {})
    if not isinstance(cur, dict):
        return False
    cur[path[-1]] = value
    return True


def _mutants(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    bases = [d for _, d in CASES]
    out = []
    for _ in range(n):
        data = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            path, f = rng.choice(ALL_PATHS)
            if rng.random() < 0.05:
                path = (*path[:-1], path[-1] + "_typo")
            _set(data, path, _value_for(f, rng))
        for key in ("stations", "hops"):  # valid up to 4999 nodes, but slow to expand twice
            if type(data.get(key)) is int and data[key] > 64:
                data[key] = 64
        out.append(data)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_mutated_scenarios_agree_with_pydantic(seed):
    vouched = refused = 0
    for data in _mutants(400, seed):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = plain.scenario(data)
            try:
                s = Scenario.from_dict(data)
            except ScenarioError:
                s = None
        if s is None:
            assert p is None, f"vouched for a scenario pydantic refuses: {data}"
            refused += 1
            continue
        if p is not None:
            vouched += 1
            assert_same(p, s)
            assert p.spec_json() == s.spec_json()
    assert vouched > 30 and refused > 100  # both sides were exercised


EDGES = [
    {"spacing_m": 5, "duration_s": 1, "warmup_s": 0},  # integers for numbers: floats
    {"standard": "80211n", "ht": {"band_ghz": 5, "channel_width_mhz": 40, "streams": 2, "mcs": 15}},
    {"standard": "80211n", "ht": {"band_ghz": 2.4}},
    {"stations": 1, "channel": {"model": "radio", "tx_power_by_rate_dbm": [[6, 20]]}},
    {"stations": 2, "nodes": [{"name": "x", "role": "sta", "x_m": 1}], "topology": "bss"},
    {"channel": {"error": {"kind": "fer", "fer": 0}}},
    {"channel": {"matrix": {"rx": [[0, 1], [1, 0]], "cs": [[0, 1], [1, 0]]}}},
    {"topology": "chain", "hops": 2, "mesh": {"alm_travel_us_per_metric": [1] * 32}},
    {"mac": {"cw_min": 15, "cw_max": 15}, "retry_limit": 0, "name": "x" * 200},
    {"flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1}]},
]


@pytest.mark.parametrize("data", EDGES)
def test_edges_pydantic_takes_are_vouched_for_alike(data):
    s = Scenario.from_dict(data)
    p = plain.scenario(data)
    assert p is not None
    assert_same(p, s)
    assert p.spec_json() == s.spec_json()


LEFT = [
    {"ht": {"channel_width_mhz": 20.0}, "standard": "80211n"},  # pydantic takes 20.0
    {"stations": "3"},  # a problem to word
    {"mac": {"no_such_field": 1}},
    {"spacing_m": math.nan},
    {"spacing_m": 10**400},
    {"flows": ({"kind": "tcp_bulk", "src": "sta1", "dst": "ap"},)},  # a tuple, not a list
    {1: 2},
]


@pytest.mark.parametrize("data", LEFT, ids=range(len(LEFT)))
def test_what_the_plain_validator_is_unsure_of_goes_to_pydantic(data):
    assert plain.scenario(data) is None


# -- dotted keys -----------------------------------------------------------------------------


def test_the_table_walks_a_dotted_key_as_the_models_do():
    keys: list[tuple[str | int, ...]] = [p for p, _ in ALL_PATHS]
    keys += [
        ("name", "x"),
        ("stations", 0),
        ("nodes", 0, "mobility", "kind"),
        ("nodes", 0, "mobility", "waypoints", "points"),
        ("channel", "error", "gilbert", "p_bad"),
        ("mac", "no_such"),
        ("no_such", "deeper"),
        ("flows", 3, "cc"),
        (),
    ]
    for loc in keys:
        _, owner, field = _walk(loc, Scenario)
        p_owner, p_field = plain.walk(loc)
        assert p_owner == (owner.__name__ if owner is not None else None), loc
        assert (p_field is None) == (field is None), loc
        if field is not None and p_field is not None:
            assert p_field[1] == tablegen._type(field.annotation, "", field.discriminator), loc
            assert p_field[2] == tablegen._bounds(field, ""), loc


def test_expects_string_as_the_models_say():
    for loc, _ in ALL_PATHS:
        want = _pydantic_expects_string(loc)
        assert _expects_string(".".join(map(str, loc))) == want, loc


def _pydantic_expects_string(loc: tuple[str | int, ...]) -> bool:
    from typing import Literal, get_args, get_origin

    _, _, field = _walk(loc, Scenario)
    if field is None:
        return False
    tp = _strip_optional(field.annotation)
    if tp is str:
        return True
    return get_origin(tp) is Literal and all(isinstance(a, str) for a in get_args(tp))
