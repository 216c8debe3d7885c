"""The world spec's schema, derived from the core's spec types (``airtcp_core::spec::schema``):
every world spec Python writes is valid under it, what it refuses the core refuses, and
Python's defaults for the sections it passes through are the core's (the drift check)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from airtcp import _core
from airtcp.config import Scenario, load_toml
from airtcp.config import models as m
from airtcp.config.templates import expand_template
from airtcp.tables import world_spec_schema

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*.toml") if not p.name.startswith("sweep-"))


def _world_spec(path: Path) -> dict[str, Any]:
    return Scenario.from_dict(expand_template(load_toml(path))).to_world_spec()


def test_the_schema_is_a_valid_json_schema_with_every_section() -> None:
    schema = world_spec_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert {"wifi", "channel", "nodes", "flows", "traces", "mesh"} <= set(schema["properties"])
    assert schema["$defs"]["RateName"]["enum"] == list(json.loads(_core.tables())["rate_controls"])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_world_spec_is_valid_under_the_schema(path: Path) -> None:
    jsonschema.validate(_world_spec(path), world_spec_schema())


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda s: s["wifi"].__setitem__("rate_control", "samplerate"), "rate_control"),
        (lambda s: s["wifi"].__setitem__("no_such_knob", 1), "no_such_knob"),
        (lambda s: s["nodes"][0].__setitem__("role", 7), "role"),
    ],
)
def test_what_the_schema_refuses_the_core_refuses_too(edit: Any, where: str) -> None:
    spec = _world_spec(REPO / "examples" / "bss-tcp-bulk.toml")
    edit(spec)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spec, world_spec_schema())
    with pytest.raises(ValueError, match=where):
        _core.run(json.dumps(spec), 1)


# Python's scenario defaults that differ from the world spec's on purpose: 802.11n scenarios
# aggregate unless told not to (the world spec's default is the plain 802.11 exchange), and
# Python names "no qdisc" and "no intermediate queues" `none` where the world spec leaves the
# section out.
_INTENDED = {("HtConfig", "ampdu"), ("MacConfig", "qdisc"), ("MacConfig", "txq")}


@pytest.mark.parametrize(
    ("model", "section"),
    [
        ("TcpConfig", "TcpSpec"),
        ("ClapConfig", "ClapSpec"),
        ("TracesConfig", "TraceSpec"),
        ("MeshConfig", "MeshSpec"),
        ("HtConfig", "HtSpec"),
        ("MacConfig", "WifiSpec"),
    ],
)
def test_pythons_defaults_are_the_cores(model: str, section: str) -> None:
    fields = getattr(m, model).model_fields
    props = world_spec_schema()["$defs"][section]["properties"]
    shared = [k for k, v in props.items() if "default" in v and k in fields]
    assert shared, f"{model} and {section} share no defaulted field"
    drift = {
        k: (fields[k].default, props[k]["default"])
        for k in shared
        if (model, k) not in _INTENDED and fields[k].default != props[k]["default"]
    }
    assert drift == {}, f"{model} (Python, core): {drift}"
    for k in (k for mm, k in _INTENDED if mm == model):
        assert fields[k].default != props[k]["default"], f"{model}.{k} agrees now: strike it"
