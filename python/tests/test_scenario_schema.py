"""The JSON Schemas of scenario and sweep files (`airtcp schema`, airtcp.config.schema) and the
template listing (`airtcp templates`): every example is valid, what a user mistypes is refused,
and a template's knobs are those of the model that declares them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from airtcp import docgen
from airtcp.config.schema import scenario_schema, sweep_schema
from airtcp.config.templates import TEMPLATES, shown_default, template_knobs

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.toml"))
SCENARIO = jsonschema.Draft202012Validator(scenario_schema())
SWEEP = jsonschema.Draft202012Validator(sweep_schema())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "airtcp.cli", *args], capture_output=True, text=True, check=False
    )


def _errors(validator: jsonschema.Draft202012Validator, data: dict[str, Any]) -> list[str]:
    return [e.message for e in validator.iter_errors(data)]


def test_the_schemas_are_valid_json_schemas() -> None:
    jsonschema.Draft202012Validator.check_schema(scenario_schema())
    jsonschema.Draft202012Validator.check_schema(sweep_schema())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_is_valid(path: Path) -> None:
    data = tomllib.loads(path.read_text())
    validator = SWEEP if "base" in data else SCENARIO
    assert _errors(validator, data) == []


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"stations": 0}, "less than the minimum of 1"),
        ({"mac": {"cw_mn": 3}}, "'cw_mn' was unexpected"),
        ({"standard": "80211z"}, "is not one of"),
        ({"template": "paper-9"}, "is not one of"),
        ({"template": "paper-000", "hops": 99}, "greater than the maximum of 15"),
        ({"template": "paper-003", "nope": 1}, "'nope' was unexpected"),
        ({"duration_s": "10"}, "is not of type"),
    ],
)
def test_what_a_user_mistypes_is_refused(data: dict[str, Any], expected: str) -> None:
    assert any(expected in e for e in _errors(SCENARIO, data)), _errors(SCENARIO, data)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_is_valid_for_a_draft_7_reader_too(path: Path) -> None:
    """Editors that know draft 7 only (taplo) read the schema: it uses no newer keyword."""
    data = tomllib.loads(path.read_text())
    schema = sweep_schema() if "base" in data else scenario_schema()
    assert [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(data)] == []
    assert "unevaluatedProperties" not in json.dumps(schema)
    assert "prefixItems" not in json.dumps(schema)


def test_a_field_a_section_passes_to_the_core_is_in_the_schema() -> None:
    ok = {"tcp": {"cwnd_limited": "linux-4", "initial_ssthresh_segments": 20}}
    assert _errors(SCENARIO, ok) == []
    assert _errors(SCENARIO, {"tcp": {"cwnd_limited": "bogus"}}) == [
        "'bogus' is not one of ['always', 'linux-3', 'linux-4']"
    ]


def test_a_bad_value_is_reported_alone() -> None:
    """Not as every other key of the file unexpected too."""
    assert len(_errors(SCENARIO, {"stations": 0, "mac": {"cw_min": 15}})) == 1
    assert len(_errors(SCENARIO, {"template": "paper-002", "distance_m": 1000.0})) == 1


def test_a_template_knob_replaces_the_field_of_its_name() -> None:
    """paper-000's `channel` is a knob ("bursty"), not the [channel] table."""
    assert _errors(SCENARIO, {"template": "paper-000", "channel": "bursty"}) == []
    assert _errors(SCENARIO, {"channel": "bursty"})


def test_a_sweep_file_takes_a_base_and_its_grid() -> None:
    ok = {"base": "x.toml", "grid": {"hops": [1, 2], "mac.cw_min": {"start": 1, "stop": 3}}}
    assert _errors(SWEEP, ok) == []
    assert _errors(SWEEP, {"base": "x.toml", "grids": {}})
    assert _errors(SWEEP, {"base": {"stations": 0}})


def test_airtcp_schema_prints_and_writes_the_schema(tmp_path: Path) -> None:
    printed = _cli("schema")
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout) == scenario_schema()
    out = tmp_path / "s" / "sweep.json"
    written = _cli("schema", "--sweep", "--out", str(out))
    assert written.returncode == 0, written.stderr
    assert json.loads(out.read_text()) == sweep_schema()


def test_airtcp_templates_lists_each_templates_knobs() -> None:
    listed = _cli("templates", "--json")
    assert listed.returncode == 0, listed.stderr
    assert [row["template"] for row in json.loads(listed.stdout)] == list(TEMPLATES)
    one = _cli("templates", "paper-003", "--json")
    knobs = json.loads(one.stdout)["knobs"]
    assert [k["knob"] for k in knobs] == list(TEMPLATES["paper-003"][0].model_fields)
    assert knobs == template_knobs("paper-003")
    duration = next(k for k in knobs if k["knob"] == "duration_s")
    assert duration["default"] == "null" and duration["doc"]
    bad = _cli("templates", "paper-9")
    assert bad.returncode == 2
    assert "template 'paper-9': unknown (allowed: ht-upload," in bad.stderr


def test_each_templates_docs_table_lists_its_models_knobs_in_order() -> None:
    """docs/scenarios.md has one generated knob table per template, under the template's
    heading, listing exactly the fields of its knob model in declaration order, with the
    model's defaults (unset for a knob unset by default) and texts."""
    text = (REPO / "docs" / "scenarios.md").read_text()
    blocks = {m.group("name"): m for m in docgen._BLOCK.finditer(text)}
    for name, (model, _) in TEMPLATES.items():
        block = blocks[f"template.{name}"]
        heading = text.rfind("\n### ", 0, block.start())
        assert text[heading:].startswith(f'\n### `template = "{name}"`'), name
        rows = [r for r in block.group("body").splitlines() if r.startswith("| `")]
        assert [re.match(r"\| `([^`]+)` \|", r).group(1) for r in rows] == list(model.model_fields)
        for row, knob in zip(rows, template_knobs(name), strict=True):
            default = row.split(" | ")[1]
            assert default == ("unset" if knob["default"] == "null" else f"`{knob['default']}`")
            assert row.endswith(f" | {docgen._one_line(knob['doc'])} |"), row
    assert sorted(n for n in blocks if n.startswith("template.")) == sorted(
        f"template.{n}" for n in TEMPLATES
    )


def test_a_knob_unset_by_default_reads_unset_and_its_json_default_is_null() -> None:
    duration = next(k for k in template_knobs("paper-003") if k["knob"] == "duration_s")
    assert duration["default"] == "null" and shown_default(duration) == "unset"
    speed = next(k for k in template_knobs("paper-003") if k["knob"] == "speed_mps")
    assert shown_default(speed) == "5.0"
    printed = _cli("templates", "paper-003")
    assert printed.returncode == 0, printed.stderr
    row = next(line for line in printed.stdout.splitlines() if "duration_s" in line)
    assert "unset" in row and "null" not in printed.stdout, printed.stdout
