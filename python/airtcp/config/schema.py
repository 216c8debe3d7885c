"""JSON Schemas of what a user writes: scenario files and sweep files (``airtcp schema``).

An editor that reads JSON Schema (Even Better TOML / taplo, docs/scenarios.md "Editor
support") completes and checks a scenario file with them: every field with its type, default,
bounds, allowed values and one line of doc, a template's knobs once ``template`` names it.
They are derived from the scenario's pydantic models (``airtcp.config.models``) and the
templates' knob models (``airtcp.config.templates.TEMPLATES``); the world spec's own schema is
the core's (``airtcp.tables.world_spec_schema``).
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["scenario_schema", "sweep_schema"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of a scenario file: the scenario's fields, and with
    ``template = "NAME"`` that template's knobs too (``airtcp templates NAME``)."""
    from airtcp.config.models import Scenario
    from airtcp.config.templates import TEMPLATES

    base = Scenario.model_json_schema()
    defs: dict[str, Any] = base.pop("$defs", {})
    base.pop("additionalProperties", None)
    props: dict[str, Any] = base["properties"]
    template = {
        "description": "build the scenario from a template; its knobs are fields of the file "
        "(airtcp templates NAME lists them)",
        "enum": list(TEMPLATES),
    }
    _add_passed_through(defs)
    # Without a template, the scenario's fields; with one, its knobs too, a knob in place of
    # the field of the same name (paper-000's `channel`, paper-003's `mobility`). Each branch
    # closes its own table (additionalProperties), so that a bad value inside one field is
    # reported alone, not as every key of the file unexpected.
    branches: list[dict[str, Any]] = [
        {
            "if": {"required": ["template"]},
            "else": {"properties": props, "additionalProperties": False},
        }
    ]
    for name, (model, _build) in TEMPLATES.items():
        knobs = model.model_json_schema()
        defs.update(knobs.pop("$defs", {}))
        branches.append(
            {
                "if": {"properties": {"template": {"const": name}}, "required": ["template"]},
                "then": {
                    "properties": {**props, **knobs["properties"], "template": template},
                    "additionalProperties": False,
                },
            }
        )
    return {
        "$schema": DIALECT,
        "title": "airtcp scenario",
        "description": "An airtcp scenario file (docs/scenarios.md).",
        "type": "object",
        "properties": {"template": template},
        "allOf": branches,
        "$defs": defs,
    }


def _add_passed_through(defs: dict[str, Any]) -> None:
    """The sections that pass the core's fields through (``models._PassThrough``) take them in
    the schema too: each such field's schema from the core's, its name families as
    ``core.NAME`` definitions."""
    from airtcp import tables
    from airtcp.config import models

    core_defs = tables.schema_dict()["$defs"]

    def take(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: take(v) for k, v in node.items()}
            if isinstance(ref := node.get("$ref"), str) and ref.startswith("#/$defs/"):
                name = ref.rsplit("/", 1)[-1]
                out["$ref"] = f"#/$defs/core.{name}"
                if f"core.{name}" not in defs:
                    defs[f"core.{name}"] = {}
                    defs[f"core.{name}"] = take(core_defs[name])
            return out
        if isinstance(node, list):
            return [take(v) for v in node]
        return node

    for model in (
        models.MacConfig,
        models.TcpConfig,
        models.HtConfig,
        models.ClapConfig,
        models.TracesConfig,
        models.MeshConfig,
    ):
        section = defs.get(model.__name__)
        if section is None:
            continue
        props = core_defs[model.CORE]["properties"]
        for key in model.core_only():
            section.setdefault("properties", {})[key] = take(copy.deepcopy(props[key]))


def sweep_schema() -> dict[str, Any]:
    """The JSON Schema of a sweep file (docs/sweeps.md): the sweep's own fields; ``base`` is a
    scenario file's path or a scenario table, and the grid's keys are scenario keys."""
    scenario = copy.deepcopy(scenario_schema())
    defs = scenario.pop("$defs")
    scenario.pop("$schema")
    defs["Scenario"] = scenario
    values = {
        "description": "the values this key takes: a list, or a range (stop included)",
        "anyOf": [
            {"type": "array", "minItems": 1},
            {
                "type": "object",
                "properties": {
                    "start": {"type": "number"},
                    "stop": {"type": "number"},
                    "step": {"type": "number", "exclusiveMinimum": 0},
                },
                "required": ["start", "stop"],
                "additionalProperties": False,
            },
        ],
    }
    return {
        "$schema": DIALECT,
        "title": "airtcp sweep",
        "description": "An airtcp sweep file (docs/sweeps.md).",
        "type": "object",
        "properties": {
            "base": {
                "description": "the scenario every run starts from: a path relative to this "
                "file, or a table",
                "anyOf": [{"type": "string"}, {"$ref": "#/$defs/Scenario"}],
            },
            "seed": {"type": "integer", "minimum": 0, "description": "the sweep seed"},
            "replications": {"type": "integer", "minimum": 1, "description": "runs per point"},
            "grid": {
                "type": "object",
                "description": "scenario keys (dotted) and their values: every combination",
                "additionalProperties": values,
            },
            "zip": {
                "type": "array",
                "description": "tables of keys whose values go together, one run per index",
                "items": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "minItems": 1},
                },
            },
            "paired": {
                "type": "array",
                "items": {"type": "string"},
                "description": "swept keys whose values share seeds (common random numbers)",
            },
        },
        "required": ["base"],
        "additionalProperties": False,
        "$defs": defs,
    }
