"""Golden outputs: the frozen results of python/tests/golden.py's scenarios, compared byte for
byte. A refactor of the MAC, the medium or the world must leave every one identical; a change
of results comes in its own commit, with golden.json regenerated and the reason stated."""

from __future__ import annotations

import json

import golden
import pytest

FROZEN = json.loads(golden.FILE.read_text()) if golden.FILE.exists() else {}


def test_every_case_is_frozen():
    assert sorted(FROZEN) == sorted(golden.CASES), "regenerate: python/tests/golden.py --update"


def _results(summary: dict) -> str:
    """A summary without ``events``: the scheduler's work, a cost rather than a result."""
    return json.dumps({k: v for k, v in summary.items() if k != "events"}, sort_keys=True)


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_output(name):
    got = golden.record(name)
    want = FROZEN[name]
    assert got["traces"] == want["traces"], f"{name}: a trace changed"
    assert _results(got["summary"]) == _results(want["summary"]), f"{name}: the summary changed"
    # Contention domains never cost more events than per-station grants.
    assert got["summary"]["events"] <= want["summary"]["events"], name


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_per_station_grants_are_the_frozen_path_event_for_event(name):
    # The frozen events are those of per-station grants: that path pops exactly the same
    # events, stale grants included, so the domains' saving is measured against it.
    got = golden.record(name, per_station_grants=True)
    want = FROZEN[name]
    assert got["traces"] == want["traces"], f"{name}: a trace changed"
    assert json.dumps(got["summary"], sort_keys=True) == json.dumps(
        want["summary"], sort_keys=True
    ), f"{name}: the summary changed"


def test_cases_cover_what_they_claim():
    # Each case exercises what its name says; if a scenario stops doing so, the golden test
    # would guard nothing there.
    def node_sum(name: str, key: str) -> int:
        return sum(n["mac"][key] for n in FROZEN[name]["summary"]["nodes"])

    assert node_sum("rts-cts-nav", "rts_attempts") > 0
    assert node_sum("hidden-terminals-rts", "rts_attempts") > 0
    assert node_sum("hidden-terminals", "collisions") > 0
    assert node_sum("ber-udp", "rx_payload_corrupt") > 0
    assert node_sum("fer-preamble-detection", "rx_corrupt") > 0
    assert node_sum("bss-tcp-sack", "drops_retry_limit") > 0
    flows = FROZEN["bss-tcp-sack"]["summary"]["flows"]
    assert any(f["tcp"]["retransmissions"] > 0 for f in flows)
    assert FROZEN["clap"]["summary"]["flows"][0]["clap"]["segments_sent"] > 0
    for name in golden.CASES:
        assert FROZEN[name]["traces"]["mac_tx"]["rows"] > 0, name
