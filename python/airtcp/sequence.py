"""The TCP/MAC sequence diagram (paper 001's key view): TCP and the 802.11 MAC of both peers
in one picture.

Four lanes, time running down: the sender's TCP, the sender's MAC, the MAC of the peer it
transmits to (the AP in a BSS) and the receiver's TCP. Drawn from two traces of one run,
``tcp_segments`` (TCP events at both ends) and ``mac_tx`` (every transmission with the TCP
segment it carried, when the frame became ready to contend and the backoff it drew):

- a data segment is an arrow from the sender's TCP (when TCP sent it) to the sender's MAC (when
  the frame went on the air), across the air to the peer MAC (when the frame ended) and on to
  the receiver's TCP (when it arrived there); a TCP ACK travels the other way;
- on a MAC lane, a frame on the air is a solid bar (data: blue; TCP ACK: orange; MAC ACK:
  grey); the wait before it (deferral and backoff, from the moment the frame was ready) is a
  hatched bar labelled with the backoff slots drawn; a frame lost at its receiver ends in a red
  cross (collision) or a purple one (channel error) instead of reaching the other lane;
- the outer labels are the segment numbers (data, at the sender) and the ACK numbers (at the
  receiver), in segments of the MSS.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from airtcp.plot import PlotError, _source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from airtcp.result import Result

__all__ = ["SequenceData", "sequence", "sequence_data"]

_NS = 1e-9
# The longest run a scenario may have [s] (config.MAX_TIME_S).
MAX_TIME_S = 1e7
# Most frames one diagram draws (each is a bar, an arrow and a label).
MAX_FRAMES = 5000
_COLORS = {"data": "tab:blue", "tcp_ack": "tab:orange", "ack": "0.55", "rts": "0.35", "cts": "0.35"}
_LOST = {"collision": "red", "error": "purple"}


@dataclass(frozen=True)
class SequenceData:
    """What the diagram shows, as tables (times in seconds), for checks and redrawing."""

    lanes: tuple[str, str, str, str]
    # MAC transmissions in the window: lane, start_s, end_s, ready_s, backoff_slots, what,
    # outcome, segment (data: segment number; TCP ACK: ACK number; else NaN).
    frames: pd.DataFrame
    # TCP events in the window: lane, time_s, event, segment.
    tcp: pd.DataFrame
    mss_bytes: int


def _mss(spec: dict[str, Any] | None, config: dict[str, Any], flow: int) -> int:
    """The MSS of ``flow``: its world spec's, else the scenario's ``tcp.mss_bytes``, else
    the default (a stored run keeps its scenario's keys, not its world spec)."""
    if spec is not None:
        tcp = spec["flows"][flow].get("tcp") or {}
        if tcp.get("mss_bytes"):
            return int(tcp["mss_bytes"])
    for key in ("tcp.mss_bytes", "mss_bytes"):
        if config.get(key):
            return int(config[key])
    from airtcp.config.models import TcpConfig

    return int(TcpConfig.model_fields["mss_bytes"].default)


def sequence_data(
    source: str | Path | Result,
    *,
    run: str | None = None,
    flow: int = 0,
    t0_s: float,
    t1_s: float,
) -> SequenceData:
    """The frames and TCP events of flow ``flow`` between ``t0_s`` and ``t1_s``."""
    if not (math.isfinite(t0_s) and math.isfinite(t1_s) and MAX_TIME_S >= t1_s > t0_s >= 0):
        raise PlotError(
            f"--from {t0_s!r} --to {t1_s!r}: need finite seconds with 0 <= from < to <= "
            f"{MAX_TIME_S:g}"
        )
    segs_run = _source(source, "tcp_segments", run)
    mac_run = _source(source, "mac_tx", run)
    segs, mac = segs_run.tables["tcp_segments"], mac_run.tables["mac_tx"]
    missing = [k for k, t in (("tcp_segments", segs), ("mac_tx", mac)) if t is None]
    if missing:
        raise PlotError(
            f"the run has no {' and no '.join(missing)} trace (set traces.tcp_segments = true "
            "and traces.mac_tx = true, then run it again)"
        )
    assert segs is not None and mac is not None
    summary = segs_run.summary
    flows = summary["flows"]
    if not 0 <= flow < len(flows):
        raise PlotError(f"--flow {flow}: out of range (allowed: 0..{len(flows) - 1})")
    f = flows[flow]
    if "tcp" not in f:
        raise PlotError(f"--flow {flow}: not a TCP flow ({f.get('kind')})")
    names = [n["name"] for n in summary["nodes"]]
    src, dst = names.index(f["src"]), names.index(f["dst"])
    mss = _mss(segs_run.spec, segs_run.config, flow)
    mine = mac[(mac["flow"] == flow) & (mac["node"] == src) & (mac["kind"] == "data")]
    if mine.empty:
        raise PlotError(f"flow {flow}: its sender {names[src]} sent no data frame")
    peer = int(mine["dst"].mode().iloc[0])
    lanes = (f"{names[src]} TCP", f"{names[src]} MAC", f"{names[peer]} MAC", f"{names[dst]} TCP")
    lo, hi = int(t0_s / _NS), int(t1_s / _NS)

    # MAC lanes: frames sent by the sender or by its peer.
    m = mac[(mac["node"].isin([src, peer])) & (mac["end_ns"] >= lo) & (mac["start_ns"] <= hi)]
    if len(m) > MAX_FRAMES:
        raise PlotError(
            f"--from {t0_s!r} --to {t1_s!r}: the window holds {len(m)} frames, more than a "
            f"sequence diagram can show (allowed: a window of at most {MAX_FRAMES} frames)"
        )
    tcp_ack = (m["kind"] == "data") & (m["flow"] == flow) & (m["node"] == peer)
    what = np.where(tcp_ack, "tcp_ack", m["kind"].to_numpy())
    seg_no = np.where(
        m["node"] == src,
        (m["tcp_seq"].fillna(1) - 1) // mss,
        np.ceil((m["tcp_ack"].fillna(1) - 1) / mss),
    )
    seg_no = np.where(m["kind"] == "data", seg_no, np.nan)
    frames = pd.DataFrame(
        {
            "lane": np.where(m["node"] == src, 1, 2),
            "start_s": m["start_ns"].to_numpy() * _NS,
            "end_s": m["end_ns"].to_numpy() * _NS,
            "ready_s": m["ready_ns"].to_numpy() * _NS,
            "backoff_slots": m["backoff_slots"].to_numpy(),
            "what": what,
            "outcome": m["outcome"].to_numpy(),
            "segment": seg_no,
        }
    )
    s = segs[(segs["flow"] == flow) & (segs["time_ns"] >= lo) & (segs["time_ns"] <= hi)]
    at_receiver = s["event"].isin(["received", "ack_sent"])
    number = np.where(
        s["event"].isin(["sent", "retransmit", "received"]),
        (s["seq"] - 1) // mss,
        np.ceil((s["ack"] - 1) / mss),
    )
    tcp = pd.DataFrame(
        {
            "lane": np.where(at_receiver, 3, 0),
            "time_s": s["time_ns"].to_numpy() * _NS,
            "event": s["event"].to_numpy(),
            "segment": number,
        }
    )
    return SequenceData(lanes, frames.reset_index(drop=True), tcp.reset_index(drop=True), mss)


def sequence(
    source: str | Path | Result,
    *,
    run: str | None = None,
    flow: int = 0,
    t0_s: float,
    t1_s: float,
    title: str | None = None,
) -> tuple[Figure, SequenceData]:
    """Draw the TCP/MAC sequence diagram of flow ``flow`` between ``t0_s`` and ``t1_s``."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    d = sequence_data(source, run=run, flow=flow, t0_s=t0_s, t1_s=t1_s)
    span_ms = (t1_s - t0_s) * 1e3
    fig = Figure(figsize=(8.5, max(6.0, min(16.0, 0.12 * len(d.frames) + 4))), layout="constrained")
    ax = fig.add_subplot()
    ms = lambda t: (t - t0_s) * 1e3  # noqa: E731 - time axis in ms from the window start
    x = {0: 0.0, 1: 1.0, 2: 2.0, 3: 3.0}
    for lane, name in enumerate(d.lanes):
        ax.plot([x[lane]] * 2, [0, span_ms], color="0.2", lw=0.8)
        ax.text(x[lane], -0.02 * span_ms, name, ha="center", va="bottom", fontsize=9, weight="bold")
    w = 0.08  # half width of a MAC bar
    f = d.frames.sort_values("start_s")
    for r in f.itertuples():
        cx = x[r.lane]
        if r.ready_s < r.start_s:
            ax.add_patch(
                Rectangle(
                    (cx - w / 2, ms(r.ready_s)),
                    w,
                    ms(r.start_s) - ms(r.ready_s),
                    facecolor="none",
                    edgecolor="0.6",
                    hatch="////",
                    lw=0.4,
                )
            )
            if r.backoff_slots > 0 and ms(r.start_s) - ms(r.ready_s) > 0.02 * span_ms:
                ax.text(
                    cx - w,
                    ms(r.start_s),
                    f"{r.backoff_slots}",
                    fontsize=5,
                    ha="right",
                    va="bottom",
                    color="0.4",
                )
        ax.add_patch(
            Rectangle(
                (cx - w, ms(r.start_s)),
                2 * w,
                ms(r.end_s) - ms(r.start_s),
                color=_COLORS.get(r.what, "0.5"),
            )
        )
        if r.what in ("data", "tcp_ack"):
            # Across the air to the other MAC lane, or a cross where the frame was lost.
            other = x[2] if r.lane == 1 else x[1]
            sign = 1 if other > cx else -1
            if r.outcome == "ok":
                ax.annotate(
                    "",
                    xy=(other - sign * w, ms(r.end_s)),
                    xytext=(cx + sign * w, ms(r.start_s)),
                    arrowprops={"arrowstyle": "->", "color": _COLORS[r.what], "lw": 0.8},
                )
            else:
                mid = cx + sign * 0.45
                ax.plot(
                    [cx + sign * w, mid],
                    [ms(r.start_s), ms(r.end_s)],
                    color=_COLORS[r.what],
                    lw=0.8,
                )
                ax.plot(
                    mid, ms(r.end_s), marker="x", color=_LOST.get(r.outcome, "red"), ms=7, mew=2
                )
            label_x = -0.12 if r.lane == 1 else 3.12
            if r.lane == 1 and r.what == "data":
                ax.text(
                    label_x,
                    ms(r.start_s),
                    f"{int(r.segment)}",
                    fontsize=6,
                    ha="right",
                    va="center",
                    color=_COLORS["data"],
                )
    # TCP to MAC (down the stack) and MAC to TCP (up the stack).
    t = d.tcp
    sender_tx = f[(f["lane"] == 1) & (f["what"] == "data")]
    peer_tx = f[(f["lane"] == 2) & (f["what"] == "tcp_ack")]
    arrived = sender_tx[sender_tx["outcome"] == "ok"]
    for r in t.itertuples():
        if r.event in ("sent", "retransmit"):
            cand = sender_tx[
                (sender_tx["segment"] == r.segment) & (sender_tx["start_s"] >= r.time_s)
            ]
            if not cand.empty:
                ax.annotate(
                    "",
                    xy=(x[1] - w, ms(cand["start_s"].iloc[0])),
                    xytext=(x[0], ms(r.time_s)),
                    arrowprops={
                        "arrowstyle": "->",
                        "color": "tab:blue",
                        "lw": 0.6,
                        "ls": "--" if r.event == "retransmit" else "-",
                    },
                )
            marker = "s" if r.event == "retransmit" else "o"
            ax.plot(x[0], ms(r.time_s), marker=marker, color="tab:blue", ms=3)
        elif r.event == "ack_sent":
            cand = peer_tx[(peer_tx["segment"] == r.segment) & (peer_tx["start_s"] >= r.time_s)]
            if not cand.empty:
                ax.annotate(
                    "",
                    xy=(x[2] + w, ms(cand["start_s"].iloc[0])),
                    xytext=(x[3], ms(r.time_s)),
                    arrowprops={"arrowstyle": "->", "color": "tab:orange", "lw": 0.6},
                )
            ax.text(
                3.12,
                ms(r.time_s),
                f"{int(r.segment)}",
                fontsize=6,
                ha="left",
                va="center",
                color="tab:orange",
            )
        elif r.event == "received":
            # From the end of the frame that brought it to the peer MAC (then the wire).
            got = arrived[(arrived["segment"] == r.segment) & (arrived["end_s"] <= r.time_s)]
            if not got.empty:
                ax.annotate(
                    "",
                    xy=(x[3], ms(r.time_s)),
                    xytext=(x[2] + w, ms(got["end_s"].iloc[-1])),
                    arrowprops={"arrowstyle": "->", "color": "tab:blue", "lw": 0.6},
                )
            ax.plot(x[3], ms(r.time_s), marker="o", color="tab:blue", ms=3)
        elif r.event in ("acked", "dupack"):
            ax.plot(
                x[0],
                ms(r.time_s),
                marker="<" if r.event == "acked" else "x",
                color="tab:orange",
                ms=4,
            )
        elif r.event == "timeout":
            ax.plot(x[0], ms(r.time_s), marker="*", color="red", ms=9)
            ax.text(-0.12, ms(r.time_s), "RTO", fontsize=7, ha="right", color="red")
    ax.set_xlim(-0.5, 3.5)
    ax.set_ylim(span_ms, -0.06 * span_ms)
    ax.set_xticks([])
    ax.set_ylabel(f"time [ms] after {t0_s:.3f} s")
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [
        Patch(color=_COLORS["data"], label="data frame"),
        Patch(color=_COLORS["tcp_ack"], label="TCP-ACK frame"),
        Patch(color=_COLORS["ack"], label="MAC ACK"),
        Patch(facecolor="none", edgecolor="0.6", hatch="////", label="waiting: deferral + backoff"),
        Line2D([], [], marker="x", color="red", ls="", label="lost: collision"),
        Line2D([], [], marker="x", color="purple", ls="", label="lost: channel error"),
        Line2D([], [], marker="s", color="tab:blue", ls="", label="TCP retransmission"),
        Line2D([], [], marker="x", color="tab:orange", ls="", label="duplicate ACK"),
        Line2D([], [], marker="*", color="red", ls="", label="retransmission timeout"),
    ]
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.01),
        ncols=3,
        fontsize=7,
        frameon=False,
    )
    ax.set_title(title or f"TCP/MAC sequence, {t0_s:.3f}-{t1_s:.3f} s (segment numbers in MSS)")
    return fig, d
