"""tcp.cwnd_limited: an ACK grows cwnd only when the flight used it, as Linux's
tcp_is_cwnd_limited decides ("linux-3": the flight before the ACK within 3 segments of cwnd;
"linux-4": in slow start up to twice the largest flight of the window, then only after a
window that filled cwnd), or on every ACK ("always", the default: results as before). A field
of the core's TcpSpec alone: the scenario's [tcp] takes it with no Python edit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import CliRunner

from airtcp.cli import app
from airtcp.config import Scenario, ScenarioError, apply_value_overrides, load_toml

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rayleigh-tcp.toml"
RULES = ("always", "linux-3", "linux-4")
# Issue 34's setting: a 128 KiB receive window, 89 segments of 1460 bytes.
WINDOW_BYTES = 131072
WINDOW_SEGMENTS = WINDOW_BYTES // 1460


def _run(*sets: str) -> dict[str, Any]:
    """The server's TCP flow of `airtcp run examples/rayleigh-tcp.toml --set spacing_m=20 ...`."""
    args = ["run", str(EXAMPLE), "--set", "spacing_m=20"]
    args += [a for s in sets for a in ("--set", s)]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    flow: dict[str, Any] = json.loads(result.stdout)["flows"][0]
    return flow


def test_a_cwnd_limited_sender_runs_the_same_under_every_rule() -> None:
    # The example's buffers (6 MiB receive, 4 MiB send) never bind: the flight is cwnd at
    # every ACK, so the Linux rules let every ACK grow it, as "always" does (mean 99.5).
    flows = [_run(f"tcp.cwnd_limited={rule}") for rule in RULES]
    assert flows[0]["tcp"]["mean_cwnd_segments"] == pytest.approx(99.5, abs=0.1)
    assert flows[1] == flows[0] and flows[2] == flows[0]
    assert _run() == flows[0], "always is the default"


def test_a_receive_window_limited_sender_keeps_cwnd_near_its_window() -> None:
    # Behind an 89-segment window and without a loss (slow start throughout): "always" adds
    # a segment per segment acknowledged, to a mean of thousands. linux-3 grows while cwnd -
    # 89 <= 3, the last ACK (delayed: 2 segments) from 92 to 94, and holds 94 before the
    # measured period starts. linux-4's slow start stops at twice the largest flight: 178.
    # What is sent is the window's alone: the same segments, goodput and RTT under every rule.
    rcv = f"tcp.rcv_buf_bytes={WINDOW_BYTES}"
    flows = {rule: _run(rcv, f"tcp.cwnd_limited={rule}") for rule in RULES}
    cwnd = {rule: f["tcp"]["mean_cwnd_segments"] for rule, f in flows.items()}
    assert cwnd["always"] > 1000, cwnd
    assert cwnd["linux-3"] == WINDOW_SEGMENTS + 3 + 2, cwnd
    assert cwnd["linux-4"] == 2 * WINDOW_SEGMENTS, cwnd
    for rule in ("linux-3", "linux-4"):
        for key in ("segments_sent", "retransmissions", "rtt_mean_s"):
            assert flows[rule]["tcp"][key] == flows["always"]["tcp"][key], (rule, key)
        assert flows[rule]["goodput_bps"] == flows["always"]["goodput_bps"]


def _tcp(value: Any) -> dict[str, Any]:
    data = apply_value_overrides(load_toml(EXAMPLE), {"tcp.cwnd_limited": value})
    tcp: dict[str, Any] = Scenario.from_dict(data).to_world_spec()["flows"][0]["tcp"]
    return tcp


def test_the_rule_reaches_the_world_spec_and_its_default_leaves_it_as_before() -> None:
    assert _tcp("linux-3")["cwnd_limited"] == "linux-3"
    assert _tcp("linux-4")["cwnd_limited"] == "linux-4"
    # At the default the canonical form leaves it out: every stored run keeps its seed.
    assert "cwnd_limited" not in _tcp("always")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "linux-5",
            'tcp.cwnd_limited: not an allowed value (got "linux-5"; allowed: "always", "linux-3", '
            '"linux-4")',
        ),
        (
            3,
            'tcp.cwnd_limited: not an allowed value (got 3; allowed: "always", "linux-3", '
            '"linux-4")',
        ),
    ],
)
def test_a_bad_rule_is_refused_naming_the_field_and_the_rules(value: Any, message: str) -> None:
    with pytest.raises(ScenarioError) as exc:
        _tcp(value)
    assert str(exc.value).startswith(message), str(exc.value)
