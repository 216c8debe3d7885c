"""The TCP/MAC sequence diagram: its data against the traces, and the command's errors."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

import airtcp
from airtcp.plot import PlotError
from airtcp.reproduce import p001
from airtcp.sequence import sequence, sequence_data

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reno() -> airtcp.Result:
    # Paper 001's scenario, Reno: self-interference loses data and TCP-ACK frames (retries 0).
    return airtcp.run(
        p001.scenario(),
        seed=1,
        overrides={
            "recovery": "reno",
            "duration_s": 3.0,
            "traces.mac_tx": True,
            "traces.tcp_segments": True,
        },
    )


def test_mac_trace_names_the_segment_and_the_wait_of_every_frame(reno) -> None:
    mac = reno.traces["mac_tx"].to_pandas()
    data = mac[mac["kind"] == "data"]
    assert data["flow"].notna().all() and mac[mac["kind"] == "ack"]["flow"].isna().all()
    assert (mac["ready_ns"] <= mac["start_ns"]).all()
    # 802.11b CWmin 31, retries 0: every backoff is drawn from [0, 31] (10.3.4.3).
    assert data["backoff_slots"].between(0, 31).all()
    # A frame that becomes the head of the queue when its node's exchange ends (the MAC ACK
    # for the previous frame arrives) draws its backoff then (10.3.4.3) and waits at least
    # DIFS + that many slots: 50 us + slots x 20 us on 802.11b (Clause 16), more if deferred.
    for node in (0, 1):
        ack_ends = set(mac[(mac["kind"] == "ack") & (mac["dst"] == node)]["end_ns"])
        mine = data[(data["node"] == node) & data["ready_ns"].isin(ack_ends)]
        assert len(mine) > 100
        waited = mine["start_ns"] - mine["ready_ns"]
        assert (waited >= 50_000 + 20_000 * mine["backoff_slots"]).all()
    # The sender's frames carry its data segments: sequence numbers 1 + k * 1000 (MSS 1000).
    sender = data[data["node"] == 1]
    payload = sender[sender["tcp_len"] > 0]
    assert ((payload["tcp_seq"] - 1) % 1000 == 0).all() and (payload["tcp_len"] == 1000).all()


def test_sequence_data_matches_the_traces_in_its_window(reno) -> None:
    mac = reno.traces["mac_tx"].to_pandas()
    lost = mac[(mac["outcome"] != "ok") & (mac["kind"] == "data")]
    assert len(lost) >= 3, "self-interference must lose frames in this run"
    t0 = lost["start_ns"].iloc[0] * 1e-9 - 0.01
    d = sequence_data(reno, t0_s=t0, t1_s=t0 + 0.05)
    assert d.lanes == ("sta1 TCP", "sta1 MAC", "ap MAC", "server TCP")
    lo, hi = int(t0 * 1e9), int((t0 + 0.05) * 1e9)
    inside = mac[(mac["end_ns"] >= lo) & (mac["start_ns"] <= hi)]
    assert len(d.frames) == len(inside)
    assert (d.frames["outcome"] != "ok").sum() == (inside["outcome"] != "ok").sum() >= 1
    # Every data segment TCP sent goes on the air later as that segment's frame (the queue
    # never overflows: 20-segment window, 50-packet queue), and the diagram numbers it so.
    frames = mac[(mac["node"] == 1) & (mac["kind"] == "data") & (mac["tcp_len"] > 0)]
    for r in d.tcp[d.tcp["event"] == "sent"].itertuples():
        seq = 1 + int(r.segment) * 1000
        later = frames[(frames["tcp_seq"] == seq) & (frames["start_ns"] >= r.time_s * 1e9 - 1)]
        assert not later.empty, r
    on_air = d.frames[(d.frames["lane"] == 1) & (d.frames["what"] == "data")]
    assert set(on_air["segment"].dropna()) <= set(frames["tcp_seq"].sub(1).floordiv(1000))
    # The AP's TCP-ACK frames carry ACK numbers the receiver sent.
    segs = reno.traces["tcp_segments"].to_pandas()
    acked = set(((segs[segs["event"] == "ack_sent"]["ack"] - 1) / 1000).apply(math.ceil))
    assert set(d.frames[d.frames["what"] == "tcp_ack"]["segment"]) <= acked


def test_the_figure_marks_each_lost_frame(reno) -> None:
    mac = reno.traces["mac_tx"].to_pandas()
    first = mac[(mac["outcome"] != "ok") & (mac["kind"] == "data")]["start_ns"].iloc[0] * 1e-9
    fig, d = sequence(reno, t0_s=first - 0.005, t1_s=first + 0.03)
    crosses = [
        line
        for line in fig.axes[0].get_lines()
        if line.get_marker() == "x" and line.get_color() in ("red", "purple")
    ]
    lost = d.frames[(d.frames["outcome"] != "ok") & d.frames["what"].isin(["data", "tcp_ack"])]
    assert len(crosses) == len(lost) >= 1


def test_errors_name_what_is_wrong(reno, tmp_path) -> None:
    with pytest.raises(PlotError, match="need finite seconds with 0 <= from < to"):
        sequence_data(reno, t0_s=0.2, t1_s=0.1)
    with pytest.raises(PlotError, match="--flow 3: out of range"):
        sequence_data(reno, flow=3, t0_s=0.1, t1_s=0.2)
    bare = airtcp.run(p001.scenario(), seed=1, overrides={"duration_s": 1.0})
    with pytest.raises(PlotError, match="no tcp_segments and no mac_tx trace"):
        sequence_data(bare, t0_s=0.1, t1_s=0.2)


def test_cli_writes_the_diagram_and_refuses_bad_input(reno, tmp_path) -> None:
    run_dir = reno.write(tmp_path / "run")
    cli = [sys.executable, "-m", "airtcp.cli", "plot", "sequence", str(run_dir)]
    ok = subprocess.run(
        [*cli, "--from", "0.1", "--to", "0.15", "--out", str(tmp_path / "seq.svg")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "seq.svg").read_text().lstrip().startswith("<?xml")
    bad = subprocess.run(
        [*cli, "--from", "0.1", "--to", "0.15", "--out", str(tmp_path / "seq.bmp")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and "allowed: .png, .svg, .pdf" in bad.stderr
    assert not (tmp_path / "seq.bmp").exists()
