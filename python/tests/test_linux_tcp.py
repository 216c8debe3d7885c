"""Issue 34: TCP as Linux runs it, each rule a switch of [tcp] whose default keeps the results
from before. tcp.local_congestion: a segment the sender's own interface refuses is a loss
("loss", as before) or stays unsent while the sender enters CWR ("cwr", Linux's
tcp_transmit_skb on NET_XMIT_DROP)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from airtcp.cli import app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "wired-bottleneck.toml"
# The sender's own link as the bottleneck: 5 Mbit/s behind a 10-packet queue at the sender.
OWN_QUEUE = ("links.0.rate_mbps=5", "links.0.queue_limit_packets=10", "duration_s=10")


def _run(*sets: str, args: tuple[str, ...] = ()) -> dict[str, Any]:
    """The flow of `airtcp run examples/wired-bottleneck.toml --set ... --json`."""
    cmd = ["run", str(EXAMPLE), *[a for s in sets for a in ("--set", s)], *args, "--json"]
    result = CliRunner().invoke(app, cmd)
    assert result.exit_code == 0, result.output
    flow: dict[str, Any] = json.loads(result.stdout)["flows"][0]
    return flow


def test_a_sender_whose_only_loss_is_its_own_full_queue_retransmits_nothing_under_cwr() -> None:
    loss = _run(*OWN_QUEUE)
    cwr = _run(*OWN_QUEUE, "tcp.local_congestion=cwr")
    # "loss": the refused segments are lost and repaired (the counters of before, no new keys).
    assert loss["tcp"]["retransmissions"] > 0 and "local_drops" not in loss["tcp"]
    # "cwr": refused, kept, sent again; no retransmission, no timeout, one CWR per episode.
    t = cwr["tcp"]
    assert (t["retransmissions"], t["timeouts"], t["fast_retransmits"]) == (0, 0, 0)
    assert 0 < t["cwr_events"] <= t["local_drops"]
    # Nothing to repair: at least the goodput of "loss" (4.56 Mbit/s there, 4.78 here).
    assert cwr["goodput_bps"] >= loss["goodput_bps"] and cwr["goodput_bps"] > 0.9 * 5e6


def test_a_refused_segment_is_traced_as_a_local_drop(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(
        *OWN_QUEUE, "tcp.local_congestion=cwr", "traces.tcp_segments=true", args=("--out", str(out))
    )
    events = pq.read_table(next(out.rglob("tcp_segments.parquet"))).column("event").to_pylist()
    assert events.count("local_drop") > 0
    assert "retransmit" not in events


def test_a_bottleneck_past_the_sender_is_unaffected() -> None:
    # Losses at the router are losses under either setting: nothing is refused at the sender.
    assert _run("duration_s=5") == _run("duration_s=5", "tcp.local_congestion=cwr")


@pytest.mark.parametrize(
    ("key", "allowed"),
    [
        ("local_congestion", '"loss", "cwr"'),
        ("rto_recovery", '"rfc", "linux"'),
        ("cwnd_credit", '"acked", "delivered"'),
        ("prr", "true or false"),
    ],
)
def test_a_bad_setting_names_the_field_and_the_allowed_values(key: str, allowed: str) -> None:
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", f"tcp.{key}=bogus"])
    assert result.exit_code != 0
    kind = "wrong type" if allowed == "true or false" else "not an allowed value"
    assert f'tcp.{key}: {kind} (got "bogus"; allowed: {allowed})' in result.output


def test_linux_recovery_after_a_timeout_with_credit_for_delivered_segments() -> None:
    # The wired test bed (CUBIC, SACK): the RFC rules time out 7 times in 30 s; Linux's
    # tcp_enter_loss with credit only for what each ACK delivers, 2 times, for as much goodput.
    rfc = _run()
    linux = _run("tcp.rto_recovery=linux", "tcp.cwnd_credit=delivered")
    assert linux["tcp"]["timeouts"] < rfc["tcp"]["timeouts"]
    assert linux["tcp"]["retransmissions"] < rfc["tcp"]["retransmissions"]
    assert linux["goodput_bps"] >= rfc["goodput_bps"]
    # RTO recovery alone, crediting every segment a cumulative ACK covers, is the pathology the
    # docs describe: the first ACK after an RTO lifts cwnd far past ssthresh.
    alone = _run("tcp.rto_recovery=linux")["tcp"]
    assert alone["timeouts"] > 5 * rfc["tcp"]["timeouts"]
