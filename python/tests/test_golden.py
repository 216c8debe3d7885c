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


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_output(name):
    got = golden.record(name)
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
