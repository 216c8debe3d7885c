"""What the docs say about the world spec, the scenario's fields and the templates' knobs,
generated from where they are declared (issue 33).

    .venv/bin/python -m airtcp.docgen            # rewrite what is stale
    .venv/bin/python -m airtcp.docgen --check    # exit 1 naming what is stale

It writes python/airtcp/world_spec.schema.json (the core's JSON Schema, which the canonical
form reads), python/airtcp/config/table.json (the models' fields as data, which the plain
validator reads: ``airtcp.config.tablegen``), the field reference of docs/world-spec.md, and in docs/scenarios.md the field table
of each section of the scenario (from its model in ``config.models``, ``field_table``), the fields
each section passes to the core as written (``_PassThrough``) and each template's knob table
(from its knob model, ``templates.template_knobs``). Each generated part of a page sits between
``<!-- BEGIN GENERATED name -->`` and ``<!-- END GENERATED name -->``; the rest of the page is
prose. python/tests/test_pass_through.py fails while any of it is stale or has no place in a
page, so a field added to the core's spec types or to a scenario model, or a knob to a
template, reaches the docs by running this, with no hand edit.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from airtcp.config.canonical import bounds_text
from airtcp.config.checks import RADIO_FIELDS
from airtcp.tables import family_names

__all__ = [
    "block_problems",
    "field_table",
    "field_tables",
    "generated",
    "main",
    "scenario_fields",
    "shown_field_default",
    "stale",
    "template_table",
    "world_spec_reference",
]

REPO = Path(__file__).resolve().parents[2]
WORLD_SPEC_MD = REPO / "docs" / "world-spec.md"
SCENARIOS_MD = REPO / "docs" / "scenarios.md"
_BLOCK = re.compile(
    r"(<!-- BEGIN GENERATED (?P<name>[\w.\[\]-]+) -->\n)(?P<body>.*?)(<!-- END GENERATED (?P=name) -->)",
    re.S,
)


def _schema() -> dict[str, Any]:
    from airtcp.config.canonical import schema_text

    schema: dict[str, Any] = json.loads(schema_text())
    return schema


def _ref(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _type(node: dict[str, Any], defs: dict[str, Any]) -> tuple[str, bool]:
    """(The type as a reader wants it, whether null is allowed)."""
    optional = False
    alts = node.get("anyOf") or node.get("oneOf")
    if alts and any(a.get("type") == "null" for a in alts):
        optional = True
        node = next(a for a in alts if a.get("type") != "null")
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        target = defs[name]
        names = family_names(target)
        if names:
            return "one of " + ", ".join(f"`{v}`" for v in names), optional
        return f"table ({name})", optional
    kinds = node.get("type", "")
    if isinstance(kinds, list):
        optional = optional or "null" in kinds
        kinds = next((k for k in kinds if k != "null"), "")
    if kinds == "array":
        items = node.get("items", {})
        inner, _ = _type(items, defs) if isinstance(items, dict) else ("value", False)
        size = ""
        if node.get("minItems") is not None and node.get("minItems") == node.get("maxItems"):
            size = f"{node['minItems']} "
        return f"array of {size}{inner}", optional
    if "const" in node:
        return f"`{json.dumps(node['const'])}`", optional
    text = {"integer": "integer", "number": "number", "boolean": "bool", "string": "string"}.get(
        kinds, kinds or "value"
    )
    text += bounds_text(node)
    return text, optional


def _default(prop: dict[str, Any]) -> str:
    if "default" not in prop:
        return "required"
    return f"`{json.dumps(prop['default'], separators=(', ', ': '))}`"


def _table(
    obj: dict[str, Any], defs: dict[str, Any], skip: tuple[str, ...] = (), toml: bool = False
) -> list[str]:
    """A table's fields; ``toml``: as a scenario file writes them (no null: left out)."""
    lines = ["| field | type | default | what it is |", "|---|---|---|---|"]
    required = set(obj.get("required", []))
    for key, prop in obj.get("properties", {}).items():
        if key in skip:
            continue
        kind, optional = _type(prop, defs)
        if optional:
            kind += ", or unset" if toml else ", or null"
        default = _default(prop) if key not in required else "required"
        if toml and default == "`null`":
            default = "unset"
        doc = _one_line(prop.get("description", "") or _ref(prop, defs).get("description", ""))
        lines.append(f"| `{key}` | {kind} | {default} | {doc} |")
    return lines


def _children(obj: dict[str, Any], defs: dict[str, Any], path: str) -> list[tuple[str, Any]]:
    """The tables inside ``obj``: (their path, their schema), in field order."""
    out = []
    for key, prop in obj.get("properties", {}).items():
        node = prop
        suffix = ""
        alts = node.get("anyOf")
        if alts:
            node = next((a for a in alts if a.get("type") != "null"), node)
        if node.get("type") == "array" and isinstance(node.get("items"), dict):
            node, suffix = node["items"], "[]"
        if "$ref" not in node:
            continue
        target = _ref(node, defs)
        if "properties" in target or "oneOf" in target:
            out.append((f"{path}.{key}{suffix}" if path else f"{key}{suffix}", target))
    return out


def world_spec_reference() -> str:
    """Every table of the world spec: its fields with type, default and doc, from the root down
    (a tagged table once per variant)."""
    schema = _schema()
    defs = schema["$defs"]
    out: list[str] = []
    todo: list[tuple[str, Any]] = [("", schema)]
    seen: set[str] = set()
    while todo:
        path, obj = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        variants = obj.get("oneOf") or [obj]
        for variant in variants:
            tag = variant.get("properties", {}).get("kind", {}).get("const")
            title = f"`{path or 'the world spec'}`" + (f' with `kind = "{tag}"`' if tag else "")
            out.append(f"#### {title}")
            out.append("")
            if doc := variant.get("description") or (obj.get("description") if not tag else ""):
                out.append(_one_line(doc).replace("\\|", "|"))
                out.append("")
            out.extend(_table(variant, defs))
            out.append("")
            todo.extend(_children(variant, defs, path))
    return "\n".join(out)


def scenario_fields(section: str) -> str:
    """The fields scenario section ``section`` passes to the core as written: the core's
    fields that the section's own fields (the table above) do not cover."""
    from airtcp.config import models

    model = {
        "mac": models.MacConfig,
        "tcp": models.TcpConfig,
        "ht": models.HtConfig,
        "clap": models.ClapConfig,
        "traces": models.TracesConfig,
        "mesh": models.MeshConfig,
    }[section]
    schema = _schema()
    defs = schema["$defs"]
    table = defs[model.CORE]
    keys = [k for k in table["properties"] if k not in model.model_fields and k not in model.BUILT]
    head = (
        f"Also taken by `[{section}]`, as the core reads them (its `{model.CORE}`; a field the core "
        "gains appears here with no edit in Python):"
    )
    if not keys:
        return (
            f"Every field of the core's `{model.CORE}` that `[{section}]` can set is in the table "
            "above; a field the core gains is listed here, and taken as written, with no edit in "
            "Python.\n"
        )
    lines = _table(
        {"properties": {k: table["properties"][k] for k in keys}, "required": []}, defs, toml=True
    )
    return head + "\n\n" + "\n".join(lines) + "\n"


def _code_quotes(text: str) -> str:
    """``text`` on one line, its quoted names as code (``"dcf"`` -> `` `"dcf"` ``)."""
    return re.sub(r'"[^"`]*"', lambda m: f"`{m.group()}`", _one_line(text))


def field_tables() -> dict[str, tuple[Any, list[str]]]:
    """Every field table of docs/scenarios.md by block name: the model and the fields it lists
    (all of the model's, in declaration order, but for ``[channel]``, whose radio model's
    fields have their own table). A variant of the error model or of mobility (a tagged
    union) has a table of its own, named by its ``kind``: a variant added to the union has a
    block to place."""
    from typing import get_args

    from airtcp.config import models as m

    def variants(union: Any, prefix: str) -> dict[str, tuple[Any, list[str]]]:
        members = get_args(get_args(union)[0])
        return {
            f"{prefix}.{get_args(v.model_fields['kind'].annotation)[0]}": whole(v) for v in members
        }

    def whole(model: Any) -> tuple[Any, list[str]]:
        return model, list(model.model_fields)

    channel = list(m.ChannelConfig.model_fields)
    tables: dict[str, tuple[Any, list[str]]] = {
        "fields.top": whole(m.Scenario),
        "fields.mesh": whole(m.MeshConfig),
        "fields.ht": whole(m.HtConfig),
        "fields.mac": whole(m.MacConfig),
        "fields.tcp": whole(m.TcpConfig),
        "fields.clap": whole(m.ClapConfig),
        "fields.channel": (m.ChannelConfig, [f for f in channel if f not in RADIO_FIELDS]),
        "fields.channel.radio": (m.ChannelConfig, [f for f in channel if f in RADIO_FIELDS]),
        "fields.channel.matrix": whole(m.MatrixConfig),
        **variants(m._ErrorModel, "fields.channel.error"),
        "fields.nodes": whole(m.NodeConfig),
        **variants(m._Mobility, "fields.nodes.mobility"),
        "fields.links": whole(m.LinkConfig),
        "fields.routes": whole(m.RouteConfig),
        "fields.flows": whole(m.FlowConfig),
        "fields.traces": whole(m.TracesConfig),
    }
    return tables


def shown_field_default(field: Any) -> str:
    """A scenario field's default as its table shows it: ``required``, ``unset`` (None), the
    variant of a tagged table (``{"kind": "none"}``), ``its fields' defaults`` for a section,
    else the JSON as code."""
    from pydantic import BaseModel

    if field.is_required():
        return "required"
    default = field.get_default(call_default_factory=True)
    if default is None:
        return "unset"
    if isinstance(default, BaseModel):
        if "kind" in type(default).model_fields:
            return f"`{json.dumps({'kind': default.kind})}`"  # type: ignore[attr-defined]
        return "its fields' defaults"
    return f"`{json.dumps(default)}`"


def _model_table(model: Any, names: list[str], head: str) -> str:
    """A model's fields ``names`` as a table (``head``, default, allowed, meaning), one row per
    field in that order, from its ``_field`` texts (the allowed values' quoted names as code)."""
    lines = [f"| {head} | default | allowed | meaning |", "|---|---|---|---|"]
    for key in names:
        field = model.model_fields[key]
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        allowed = _code_quotes(str(extra.get("allowed", "")))
        doc = _one_line(field.description or "")
        lines.append(f"| `{key}` | {shown_field_default(field)} | {allowed} | {doc} |")
    return "\n".join(lines) + "\n"


def field_table(name: str) -> str:
    """The field table ``name`` of ``field_tables()``."""
    model, names = field_tables()[name]
    return _model_table(model, names, "field")


def template_table(name: str) -> str:
    """Template ``name``'s knobs as a table, in declaration order, from its knob model (the one
    ``airtcp templates NAME`` lists)."""
    from airtcp.config.templates import TEMPLATES

    model = TEMPLATES[name][0]
    return _model_table(model, list(model.model_fields), "knob")


def tcp_profiles_table() -> str:
    """Every Linux TCP profile's settings beside the kernel source each follows, from the
    core's schema (``x-profiles``, ``x-profile-sources``)."""
    from airtcp import tables

    schema = tables.schema_dict()
    names = tables.family_names(
        _ref(schema["$defs"]["TcpSpec"]["properties"]["profile"], schema["$defs"])
    )
    table = tables.tcp_profiles()
    profiles = {name: table[name] for name in names if table[name]}  # in declaration order
    sources = tables.tcp_profile_sources()
    head = ["field", *profiles, "kernel source"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for field, source in sources.items():
        cells = [f"`{field}`", *(f"`{json.dumps(p[field])}`" for p in profiles.values())]
        lines.append("| " + " | ".join([*cells, _code_quotes(source)]) + " |")
    return "\n".join(lines) + "\n"


def _blocks() -> dict[str, str]:
    """Every generated block by name, as it should read."""
    from airtcp.config.templates import TEMPLATES

    blocks = {"world-spec": world_spec_reference() + "\n"}
    blocks.update({name: field_table(name) for name in field_tables()})
    blocks.update({f"scenario.{s}": scenario_fields(s) for s in _SECTIONS})
    blocks.update({f"template.{t}": template_table(t) for t in TEMPLATES})
    blocks["tcp.profiles"] = tcp_profiles_table()
    return blocks


_PAGES = (WORLD_SPEC_MD, SCENARIOS_MD)


def generated() -> dict[Path, str]:
    """Every generated file as it should read."""
    from airtcp.config import tablegen
    from airtcp.config.canonical import SCHEMA_FILE, schema_text

    out = {SCHEMA_FILE: schema_text(), tablegen.TARGET: tablegen.current()}
    blocks = _blocks()
    for page in _PAGES:
        text = page.read_text(encoding="utf-8")

        out[page] = _BLOCK.sub(
            lambda m: m.group(1) + blocks.get(m.group("name"), m.group("body")) + m.group(4), text
        )
    return out


def block_problems() -> list[str]:
    """What is wrong with the pages' markers: a generated block no page has a place for (a
    template, or a variant of a tagged table, added without its section in docs/scenarios.md:
    its markers, under its heading, are written once by hand), or markers that name no
    generated block (a template renamed or removed)."""
    blocks = _blocks()
    out = []
    placed: set[str] = set()
    for page in _PAGES:
        for m in _BLOCK.finditer(page.read_text("utf-8")):
            name = m.group("name")
            placed.add(name)
            if name not in blocks:
                out.append(
                    f"{page.relative_to(REPO)}: nothing generates {name} (renamed or removed? "
                    "remove its markers)"
                )
    out += [
        f"no place for {name}: write <!-- BEGIN GENERATED {name} --> and "
        f"<!-- END GENERATED {name} --> where it belongs"
        for name in blocks
        if name not in placed
    ]
    return out


_SECTIONS = ("mac", "ht", "tcp", "clap", "traces", "mesh")


def stale() -> list[Path]:
    """The generated files that differ from what they should read."""
    return [p for p, text in generated().items() if not p.exists() or p.read_text("utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        print("usage: python -m airtcp.docgen [--check]", file=sys.stderr)
        return 2
    missing = block_problems()
    for problem in missing:
        print(problem)
    if args == ["--check"]:
        late = stale()
        for p in late:
            print(f"stale: {p.relative_to(REPO)} (run: .venv/bin/python -m airtcp.docgen)")
        return 1 if late or missing else 0
    for p, text in generated().items():
        if not p.exists() or p.read_text("utf-8") != text:
            p.write_text(text, encoding="utf-8")
            print(f"written {p.relative_to(REPO)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
