"""The core's fields reach scenario files with no edit in Python (issue 33): a key of [mac],
[tcp], [ht], [clap], [traces] or [mesh] that the section's model does not have but the core's
table it feeds does goes to the world spec as written, the core checks it, and its error comes
back in the scenario's words. The docs made from the schema are current (airtcp.docgen)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from airtcp import _core, docgen
from airtcp.config import Scenario, ScenarioError, apply_value_overrides, canonical, load_toml
from airtcp.config import models as m

REPO = Path(__file__).resolve().parents[2]
SECTIONS = {
    "mac": m.MacConfig,
    "tcp": m.TcpConfig,
    "ht": m.HtConfig,
    "clap": m.ClapConfig,
    "traces": m.TracesConfig,
    "mesh": m.MeshConfig,
}


@pytest.fixture
def x_knob(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core's TcpSpec as if it had gained `x_knob` (an integer, default 0)."""
    real = canonical.core_table

    def core_table(name: str) -> dict[str, Any]:
        table = copy.deepcopy(real(name))
        if name == "TcpSpec":
            table["properties"]["x_knob"] = {"type": "integer", "default": 0}
        return table

    monkeypatch.setattr(canonical, "core_table", core_table)


def _bulk(**over: Any) -> dict[str, Any]:
    return apply_value_overrides(load_toml(REPO / "examples" / "bss-tcp-bulk.toml"), over)


def test_a_field_the_core_gains_goes_to_the_world_spec_as_written(
    x_knob: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_core, "check_world_spec", lambda spec_json: None)
    spec = Scenario.from_dict(_bulk(**{"tcp.x_knob": 3})).to_world_spec()
    assert [f["tcp"]["x_knob"] for f in spec["flows"]] == [3]
    plain = Scenario.from_dict(_bulk()).to_world_spec()
    assert all("x_knob" not in f["tcp"] for f in plain["flows"])


def test_the_cores_error_comes_back_in_the_scenarios_words(x_knob: None) -> None:
    # The real core has no x_knob: it refuses the spec, naming wifi's... here the flow's field.
    with pytest.raises(ScenarioError, match=r"^tcp\.x_knob: unknown field"):
        Scenario.from_dict(_bulk(**{"tcp.x_knob": 3}))


def test_an_unknown_key_lists_the_fields_the_core_takes_too(x_knob: None) -> None:
    with pytest.raises(ScenarioError, match=r'tcp\.y_knob: unknown field; did you mean "x_knob"'):
        Scenario.from_dict(_bulk(**{"tcp.y_knob": 3}))


@pytest.mark.parametrize("section", SECTIONS)
def test_each_section_passes_exactly_the_cores_fields_it_does_not_build(section: str) -> None:
    model = SECTIONS[section]
    core = canonical.core_table(model.CORE)["properties"]
    assert model.BUILT <= set(core), "BUILT names a field the core no longer has"
    assert model.core_only() == [
        k for k in core if k not in model.model_fields and k not in model.BUILT
    ]
    assert not set(model.core_only()) & set(model.model_fields)


def test_a_built_field_is_not_settable_in_its_section() -> None:
    with pytest.raises(ScenarioError, match=r"mac\.standard: unknown field"):
        Scenario.from_dict(_bulk(**{"mac.standard": "80211b"}))


def test_the_generated_docs_and_schema_are_current() -> None:
    assert docgen.stale() == [], "stale: run .venv/bin/python -m airtcp.docgen"
    assert docgen.block_problems() == []
    assert json.loads(canonical.SCHEMA_FILE.read_text()) == json.loads(_core.world_spec_schema())
    text = (REPO / "docs" / "world-spec.md").read_text()
    for name in ("WifiSpec", "TcpSpec", "RadioSpec", "MeshSpec"):
        for key in canonical.core_table(name)["properties"]:
            assert f"| `{key}` |" in text, f"docs/world-spec.md lacks {name}.{key}"


def test_a_field_the_core_gains_can_be_unset(x_knob: None) -> None:
    from airtcp.config.load import unset_dotted

    data = _bulk(**{"tcp.x_knob": 3})
    unset_dotted(data, "tcp.x_knob")
    assert "x_knob" not in data["tcp"]
    unset_dotted(data, "tcp.x_knob")  # not in the file: a known field, nothing to do
    with pytest.raises(ScenarioError, match="not a field of the scenario"):
        unset_dotted(data, "tcp.y_knob")


# -- the field that shows it: tcp.initial_ssthresh_segments, added to the core alone ----------


def _cwnd(**over: Any) -> tuple[list[int], list[int]]:
    import airtcp

    over = {"traces.tcp": True, "duration_s": 1.0, "warmup_s": 0.1, **over}
    trace = airtcp.run(REPO / "examples" / "bss-tcp-bulk.toml", overrides=over).traces["tcp"]
    columns = trace.to_pydict()
    return columns["cwnd"], columns["ssthresh"]


def test_the_initial_ssthresh_reaches_the_connection_from_the_tcp_table() -> None:
    """Hand computation, one station's bulk upload with delayed ACKs (2 segments per ACK) and
    initial_cwnd 10: unset, slow start adds 2 per ACK (RFC 5681 (2)); at 4, the connection is
    in congestion avoidance from the start and adds one segment per cwnd acknowledged (RFC 5681
    (3)), i.e. per 5 ACKs at 10."""
    cwnd, ssthresh = _cwnd()
    assert ssthresh[0] == 2**31 - 1 and cwnd[:3] == [10, 12, 14]
    cwnd, ssthresh = _cwnd(**{"tcp.initial_ssthresh_segments": 4})
    assert ssthresh[0] == 4 and cwnd[:7] == [10, 10, 10, 10, 10, 11, 11]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1, "out of range (got 1; "),
        ("x", 'wrong type (got "x"; '),
        (2.5, "wrong type (got 2.5; "),
        (True, "wrong type (got true; "),
        # In a scenario whose [tcp] reaches no flow too (the check is the schema's, not the
        # flows'): see test_a_passed_value_is_checked_without_its_table.
    ],
)
def test_a_bad_value_is_refused_naming_the_field_the_value_and_what_is_allowed(
    value: Any, message: str
) -> None:
    """The drift case of the error fuzz: a field Python has never heard of is refused in the
    scenario's words, with the value and what is allowed (from the core's schema: its type and
    bounds), as every other field is."""
    with pytest.raises(ScenarioError) as exc:
        Scenario.from_dict(_bulk(**{"tcp.initial_ssthresh_segments": value}))
    allowed = "allowed: an integer 2..=1000000, or unset)"
    assert str(exc.value) == f"tcp.initial_ssthresh_segments: {message}{allowed}"


def test_a_passed_value_is_checked_without_its_table() -> None:
    """A UDP scenario writes no flows[].tcp, so the core never reads [tcp]: the value is
    checked against the core's schema all the same."""
    udp = load_toml(REPO / "examples" / "bss-udp-saturation.toml")
    with pytest.raises(ScenarioError, match=r"^tcp\.initial_ssthresh_segments: out of range"):
        Scenario.from_dict(apply_value_overrides(udp, {"tcp.initial_ssthresh_segments": 1}))


def test_a_section_keeps_what_it_passes_through_when_dumped_or_reused() -> None:
    """The passed-through keys are in a section's dump (a run's stored scenario, a run with
    overrides re-reads it), and a section built once keeps them when a scenario reuses it."""
    from airtcp.run import _load

    s = Scenario.from_dict(_bulk(**{"tcp.initial_ssthresh_segments": 20}))
    assert s.model_dump(exclude_unset=True)["tcp"]["initial_ssthresh_segments"] == 20
    again = _load(s, {"duration_s": 5.0})[0].to_world_spec()
    assert [f["tcp"]["initial_ssthresh_segments"] for f in again["flows"]] == [20]
    section = m.TcpConfig.model_validate({"initial_ssthresh_segments": 20})
    reused = Scenario(**{**_bulk(), "tcp": section})
    assert section.core_fields() == {"initial_ssthresh_segments": 20}
    assert reused.to_world_spec()["flows"][0]["tcp"]["initial_ssthresh_segments"] == 20


def test_it_can_be_unset_and_is_documented() -> None:
    from airtcp.config.load import unset_dotted

    data = _bulk(**{"tcp.initial_ssthresh_segments": 4})
    unset_dotted(data, "tcp.initial_ssthresh_segments")
    assert "initial_ssthresh_segments" not in data["tcp"]
    unset_dotted(data, "tcp.initial_ssthresh_segments")  # not there: a known field, fine
    for page in ("world-spec.md", "scenarios.md"):
        assert "`initial_ssthresh_segments`" in (REPO / "docs" / page).read_text()
