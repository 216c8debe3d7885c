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
from cli_runner import CliRunner

from airtcp.cli import app
from airtcp.config import Scenario, load_toml

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
        ("prr", '"off", "recovery", "recovery-and-cwr"'),
        ("lost_retransmit", '"head", "every"'),
        ("tlp_rule", '"rfc8985", "linux-3.10"'),
        ("tsq_rule", '"linux-3.19", "linux-3.12", "linux-3.6"'),
        ("timer_rounding", '"linux-4.14", "linux-6.6"'),
        ("rtt_clock", '"jiffies", "us"'),
        ("rcv_window", '"fixed", "linux-3.2", "linux-3.12", "linux-6"'),
        ("rto_rearm", '"ack", "head-retransmit"'),
    ],
)
def test_a_bad_setting_names_the_field_and_the_allowed_values(key: str, allowed: str) -> None:
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", f"tcp.{key}=bogus"])
    assert result.exit_code != 0
    assert f'tcp.{key}: not an allowed value (got "bogus"; allowed: {allowed})' in result.output


@pytest.mark.parametrize("key", ["rack", "tlp", "early_retransmit", "frto", "sack_compress"])
def test_a_bool_switch_names_the_field(key: str) -> None:
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", f"tcp.{key}=often"])
    assert result.exit_code != 0
    assert f'tcp.{key}: wrong type (got "often"; allowed: true or false)' in result.output


@pytest.mark.parametrize("value", ["-1", "2147483648"])
def test_a_tsq_cap_out_of_range_names_the_field(value: str) -> None:
    result = CliRunner().invoke(
        app, ["run", str(EXAMPLE), "--set", f"tcp.limit_output_bytes={value}"]
    )
    assert result.exit_code != 0
    assert f"tcp.limit_output_bytes: out of range (got {value}; allowed:" in result.output


def test_rack_is_a_bool_and_finds_losses_without_timeouts() -> None:
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", "tcp.rack=sometimes"])
    assert result.exit_code != 0
    assert 'tcp.rack: wrong type (got "sometimes"; allowed: true or false)' in result.output
    # linux-6 runs RACK: on the wired example no RTO, and every retransmission is a segment
    # the bottleneck dropped (none spurious: the path keeps order).
    out = CliRunner().invoke(
        app, ["run", str(EXAMPLE), "--set", "tcp.profile=linux-6", "--set", "tcp.cc=reno", "--json"]
    )
    summary = json.loads(out.stdout)
    tcp = summary["flows"][0]["tcp"]
    drops = sum(summary["links"][1]["drops_queue"])
    assert tcp["timeouts"] == 0 and tcp["retransmissions"] <= drops


def test_a_profile_run_writes_its_store_with_and_without_overrides(tmp_path: Path) -> None:
    # The summary's tcp.effective goes to the run's store; an empty overrides map is left
    # out (Parquet has no empty struct).
    for i, sets in enumerate([("tcp.profile=linux-6",), ("tcp.profile=linux-6", "tcp.prr=off")]):
        out = tmp_path / f"run{i}"
        args = ["run", str(EXAMPLE), "--set", "duration_s=1"]
        args += [a for s in sets for a in ("--set", s)]
        result = CliRunner().invoke(app, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        flows = pq.read_table(out / "flows.parquet").to_pylist()
        assert flows and (out / "summary.json").exists()
    effective = json.loads((tmp_path / "run1" / "summary.json").read_text())["flows"][0]["tcp"]
    assert effective["effective"] == {"profile": "linux-6", "overrides": {"prr": "off"}}
    plain = json.loads((tmp_path / "run0" / "summary.json").read_text())["flows"][0]["tcp"]
    assert plain["effective"] == {"profile": "linux-6"}


def test_a_tail_loss_is_probed_under_linux_6() -> None:
    # A 40 kB file over a link losing 10 %: with TLP (linux-6) a probe repairs the lost tail;
    # without it, the RTO does.
    sets = (
        "duration_s=2",
        "links.1.loss=0.1",
        'flows=[{kind = "tcp_file", src = "sender", dst = "receiver", file_bytes = 40000}]',
        "tcp.profile=linux-6",
    )
    probed = _run(*sets)["tcp"]
    assert probed.get("tlp_probes") == 1 and probed["timeouts"] == 0
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", "tcp.tlp=often"])
    assert 'tcp.tlp: wrong type (got "often"; allowed: true or false)' in result.output


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


def test_a_profile_sets_its_bundle_and_a_written_field_overrides_it() -> None:
    from airtcp import tables

    profile = tables.tcp_profiles()["linux-6"]
    flow = _run("tcp.profile=linux-6", "tcp.prr=off", "duration_s=2")
    assert flow["tcp"]["effective"] == {"profile": "linux-6", "overrides": {"prr": "off"}}
    # The profile's bundle reaches the world spec, the override over it.
    spec = Scenario.from_dict(
        {**load_toml(EXAMPLE), "tcp": {"profile": "linux-6", "prr": "off"}}
    ).to_world_spec()
    tcp = spec["flows"][0]["tcp"]
    assert (tcp["profile"], tcp["prr"]) == ("linux-6", "off")
    # Each field of the bundle is the profile's: written where the spec always writes it,
    # else left for the core to fill from the profile (the canonical form drops it).
    for key, value in profile.items():
        if key != "prr":
            assert tcp.get(key, value) == value, key
    # "rfc" is no bundle: no effective key, the run of before.
    assert "effective" not in _run("duration_s=2")["tcp"]
    assert _run("duration_s=2", "tcp.profile=rfc") == _run("duration_s=2")


def test_a_shortcut_overrides_the_profile_and_shows_as_an_override() -> None:
    flow = _run("tcp.profile=linux-3.2", "cc=reno", "duration_s=2")
    assert flow["tcp"]["effective"] == {"profile": "linux-3.2", "overrides": {"cc": "reno"}}


def test_the_canonical_form_keeps_an_override_equal_to_the_schema_default() -> None:
    # prr = "off" is the schema's default but not linux-6's: dropping it would let the core
    # fill the profile's "recovery-and-cwr" back in.
    base = load_toml(EXAMPLE)
    off = Scenario.from_dict({**base, "tcp": {"profile": "linux-6", "prr": "off"}}).spec_json()
    assert '"prr":"off"' in off.replace(" ", "")
    # A field written equal to the profile's value reads as the profile alone (one seed).
    same = Scenario.from_dict(
        {**base, "tcp": {"profile": "linux-6", "prr": "recovery-and-cwr"}}
    ).spec_json()
    assert same == Scenario.from_dict({**base, "tcp": {"profile": "linux-6"}}).spec_json()


def test_on_issue_34s_bottleneck_the_linux_profiles_do_not_time_out() -> None:
    # Issue 34's must-show: 5 Mbit/s, 10 ms, a 2-packet queue, CUBIC, 30 s: the RFC rules time
    # out 7 times; every Linux profile none, with fewer retransmissions and more goodput.
    rfc = _run()
    for profile in ("linux-3.2", "linux-3.12", "linux-6"):
        flow = _run(f"tcp.profile={profile}")
        t = flow["tcp"]
        assert t["timeouts"] == 0 and t["retransmissions"] < rfc["tcp"]["retransmissions"]
        assert flow["goodput_bps"] > rfc["goodput_bps"]


def _acked_segments(tmp_path: Path, *sets: str) -> list[int]:
    """The segments acknowledged so far by each data ACK the receiver sent, in order (from the
    tcp_segments trace of a 1 s run whose bottleneck queue drops nothing)."""
    out = tmp_path / "run"
    _run(
        "duration_s=1",
        "links.1.queue_limit_packets=1000",
        "traces.tcp_segments=true",
        *sets,
        args=("--out", str(out)),
    )
    rows = pq.read_table(next(out.rglob("tcp_segments.parquet"))).to_pylist()
    return [(r["ack"] - 1) // 1460 for r in rows if r["event"] == "ack_sent" and r["ack"] > 1]


def test_quick_ack_mode_acks_the_first_sixteen_segments_one_by_one(tmp_path: Path) -> None:
    # Linux tcp_incr_quickack on the first data segment: min(rcv_wnd / (2 rcv_mss), 16) ACKs
    # at once (the 6 MiB window gives 16), then the delayed ACK's every second segment.
    for mode in ("first-data", "first-data-and-out-of-order"):
        acked = _acked_segments(tmp_path / mode, f"tcp.quickack={mode}")
        assert acked[:20] == [*range(1, 17), 18, 20, 22, 24], mode
    # "off", the default: every second segment from the first, as before.
    assert _acked_segments(tmp_path / "off")[:8] == [2, 4, 6, 8, 10, 12, 14, 16]


def test_the_3x_profiles_ack_each_segment_again_after_a_repaired_hole() -> None:
    # linux-3.2's quick-ack mode restarts on out-of-order data (tcp_data_queue before 4.18):
    # on the wired example's losses that means about 10 % more ACKs of new data, each an RTT
    # sample (5818 against 5259 with quick-ack mode off).
    linux = _run("tcp.profile=linux-3.2")["tcp"]
    off = _run("tcp.profile=linux-3.2", "tcp.quickack=off")["tcp"]
    assert off["effective"]["overrides"] == {"quickack": "off"}
    assert linux["rtt_samples"] > 1.05 * off["rtt_samples"]
    assert linux["timeouts"] <= off["timeouts"]


def test_a_bad_quickack_names_the_field_and_the_allowed_values() -> None:
    # A name per kernel family, not a switch: true is refused with the names.
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", "tcp.quickack=true"])
    assert result.exit_code != 0
    allowed = '"off", "first-data", "first-data-and-out-of-order"'
    assert f"tcp.quickack: not an allowed value (got true; allowed: {allowed})" in result.output


@pytest.mark.parametrize("value", ["0", "10001"])
def test_a_clock_out_of_range_names_the_field(value: str) -> None:
    result = CliRunner().invoke(app, ["run", str(EXAMPLE), "--set", f"tcp.clock_hz={value}"])
    assert result.exit_code != 0
    expected = f"tcp.clock_hz: out of range (got {value}; allowed: an integer 1..=10000, or unset)"
    assert expected in result.output


def _rto_trace(tmp_path: Path, *sets: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The sender's state rows and the times of its timeouts on the wired example (RFC rules,
    which time out 7 times in 30 s)."""
    _run("traces.tcp=true", "traces.tcp_segments=true", *sets, args=("--out", str(tmp_path)))
    state = pq.read_table(next(tmp_path.rglob("tcp.parquet"))).to_pylist()
    segments = pq.read_table(next(tmp_path.rglob("tcp_segments.parquet"))).to_pylist()
    return state, [r["time_ns"] for r in segments if r["event"] == "timeout"]


def test_on_the_jiffy_clock_the_rto_is_whole_ticks_and_timeouts_fire_on_a_tick(
    tmp_path: Path,
) -> None:
    # HZ 100, Linux 3.x's tcp_time_stamp: the RTO in whole 10 ms ticks, each timeout on a tick
    # (jiffies + icsk_rto), and with Linux's estimator SRTT too (RFC 6298's averages ticks).
    tick = 10_000_000
    state, timeouts = _rto_trace(tmp_path / "hz", "tcp.clock_hz=100")
    assert timeouts and all(t % tick == 0 for t in timeouts)
    assert all(r["rto_ns"] % tick == 0 for r in state)
    state, _ = _rto_trace(tmp_path / "linux", "tcp.clock_hz=100", "tcp.rto_estimator=linux")
    assert all(r["srtt_ns"] % tick == 0 and r["rto_ns"] % tick == 0 for r in state)
    # The summary's RTT statistics keep the nanosecond clock.
    assert _run("tcp.clock_hz=100", "duration_s=5")["tcp"]["rtt_p50_s"] % 0.01 > 1e-6
    # Unset: the nanosecond clock (the RTO is mostly the 200 ms minimum, SRTT on no tick).
    state, timeouts = _rto_trace(tmp_path / "ns")
    assert any(t % tick for t in timeouts)
    assert any(r["srtt_ns"] % tick for r in state)
