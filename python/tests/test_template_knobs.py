"""A template never ignores what a file says (issue 33): a knob it does not use with the other
knobs is refused with the knobs that would use it, a field it copies from a knob is the knob's
to set, and the knobs newcomers reached for are honoured (``duration_s`` of paper-003's walks,
``stations`` of ht-upload)."""

from __future__ import annotations

from typing import Any

import pytest

from airtcp.config import Scenario
from airtcp.config.errors import ScenarioError
from airtcp.config.templates import expand_template


def _scenario(data: dict[str, Any]) -> Scenario:
    return Scenario.from_dict(expand_template(data))


def test_a_knob_the_template_does_not_use_is_refused_with_the_knobs_that_would() -> None:
    # ht-upload's cc is TCP's: with saturating UDP it would change nothing.
    with pytest.raises(ScenarioError) as e:
        expand_template({"template": "ht-upload", "cc": "reno"})
    msg = str(e.value)
    assert msg.startswith('cc: template "ht-upload" does not use it'), msg
    assert 'got "reno"; allowed: unset, or with traffic = "tcp"' in msg, msg
    # With TCP it is used, and the run's TCP follows it.
    s = _scenario({"template": "ht-upload", "traffic": "tcp", "cc": "reno"})
    assert s.to_world_spec()["flows"][0]["tcp"]["cc"] == "reno"


def test_a_value_the_template_takes_anyway_is_accepted() -> None:
    # paper-002: with mcs the rate control is constant, so saying so is no conflict; naming
    # another rate control with mcs is (it would be ignored).
    fixed = {"template": "paper-002", "mcs": 3, "duration_s": 1.0}
    spec = _scenario({**fixed, "rate_control": "constant"}).to_world_spec()
    assert spec["wifi"]["rate_control"] == "constant"
    with pytest.raises(ScenarioError, match='rate_control: template "paper-002" does not use it'):
        expand_template({**fixed, "rate_control": "minstrel-ht"})


def test_a_field_copied_from_a_knob_is_set_by_the_knob() -> None:
    with pytest.raises(ScenarioError) as e:
        expand_template({"template": "ht-upload", "ht": {"mcs": 3}})
    assert str(e.value).startswith(
        'ht.mcs: template "ht-upload" sets it from its knob mcs (got 3; '
    ), e
    with pytest.raises(ScenarioError, match='mac.rate_control: template "ht-upload" sets it'):
        expand_template({"template": "ht-upload", "mac": {"rate_control": "minstrel-ht"}})
    # Set through the knob, the run's name follows.
    assert _scenario({"template": "ht-upload", "mcs": 3}).name == "ht-upload-mcs3"
    # A field the template sets but no knob copies stays the file's to change.
    s = _scenario({"template": "ht-upload", "mac": {"queue_limit_packets": 50}})
    assert s.to_world_spec()["wifi"]["queue_limit_packets"] == 50


@pytest.mark.filterwarnings("ignore:mobility. random waypoint with speed_min_mps = 0")
def test_paper_003s_walk_honours_duration_s() -> None:
    # A-1 at 5 m/s crosses 10 -> 360 m in 70 s; a given duration stops it partway.
    full = _scenario({"template": "paper-003"}).to_world_spec()
    short = _scenario({"template": "paper-003", "duration_s": 2.0}).to_world_spec()
    assert (full["duration_ns"], short["duration_ns"]) == (70_000_000_000, 2_000_000_000)
    # The random waypoint's default stays 300 s; saying 300 is no conflict.
    rwp = {"template": "paper-003", "mobility": "random-waypoint"}
    assert _scenario(rwp).to_world_spec()["duration_ns"] == 300_000_000_000
    assert _scenario({**rwp, "duration_s": 300.0}).to_world_spec()["duration_ns"] == 300_000_000_000


def test_ht_upload_honours_stations_each_uploading() -> None:
    s = _scenario({"template": "ht-upload", "stations": 3})
    spec = s.to_world_spec()
    senders = sorted(spec["nodes"][f["src"]]["name"] for f in spec["flows"])
    assert senders == ["sta1", "sta2", "sta3"]
    assert s.name == "ht-upload-mcs7-3sta"
    # One station: the scenario it always was (the examples' hashes do not move).
    one = _scenario({"template": "ht-upload", "stations": 1}).to_world_spec()
    assert one == _scenario({"template": "ht-upload"}).to_world_spec()
