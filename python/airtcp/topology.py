"""The topology of one run as a figure: where the nodes are and who can reach whom.

:func:`topology` draws, seen from above (x, y; z is left out):

- every node at its position, marked by its role and named; a node without a radio (a wired
  ``host``) that shares its position with another node is drawn beside it;
- around each WiFi node its *decode range* (solid circle) and its *carrier-sense range*
  (dashed): the range model's ``channel.rx_range_m`` and ``cs_range_m``; under the radio
  model the distances at which the mean received power (no fading, nobody else on the air)
  of a frame at the standard's lowest rate falls to what a receiver needs, see
  :func:`radio_ranges`;
- the wired links (grey, with their rate and delay), the mesh peer links (green) and the path
  of every flow from its source to its destination (an arrow per hop: the HWMP paths the mesh
  points held at the end of the run, elsewhere the spec's routes and the core's computed ones);
- the track of every moving node, from the ``positions`` trace (``traces.positions``).

Returns the Figure and a :class:`TopologyData` with the same as tables. The run is read by
:func:`airtcp.plot.load_run` (a run directory, a Result, or a run of a sweep store).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from airtcp.config.expand import SPEED_OF_LIGHT_MPS
from airtcp.plot import PlotError, load_run

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from airtcp.result import Result

__all__ = ["TopologyData", "radio_ranges", "topology"]

# The decode test of the radio model's routes (docs/scenarios.md, `[channel]`): a 1500-byte
# frame at the standard's lowest rate gets through 90 % of the time.
DECODE_BYTES = 1500
DECODE_SUCCESS = 0.9
# Ranges are drawn around every WiFi node up to this many, else around the access points only.
MAX_RANGE_NODES = 12
_ROLE_MARKERS = {"ap": "^", "sta": "o", "mesh": "s", "adhoc": "D", "host": "P"}
_ROLE_COLORS = {"ap": "tab:red", "sta": "tab:blue", "mesh": "tab:green", "adhoc": "tab:purple"}
_HOST_COLOR = "0.35"


@dataclass(frozen=True)
class TopologyData:
    """What the topology figure shows, as tables (metres)."""

    # One row per node: index, name, role, wifi, x_m, y_m (as drawn), decode_m, sense_m
    # (NaN where no circle applies).
    nodes: pd.DataFrame
    # One row per drawn link: kind ("wired", "mesh-peer", "flow"), a, b (node names), label.
    links: pd.DataFrame
    # The positions trace's samples, one row per (node, time): node name, time_s, x_m, y_m.
    tracks: pd.DataFrame
    # What the circles mean and what was left out.
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Ranges


def _inverse_loss(path_loss: Mapping[str, Any], loss_db: float) -> float:
    """The distance [m] at which the path loss reaches ``loss_db`` (0 if it is higher even
    at the shortest distance the model knows)."""
    if path_loss.get("kind") == "friis":
        # L = 20 log10(4 pi d f / c) + system loss (crates/airtcp-core/src/channel/pathloss.rs)
        f = float(path_loss["frequency_hz"])
        extra = float(path_loss.get("system_loss_db", 0.0))
        return SPEED_OF_LIGHT_MPS / (4 * math.pi * f) * 10 ** ((loss_db - extra) / 20)
    # Log-distance: L = L0 + 10 n log10(d / d0) beyond d0, L0 within it.
    d0 = float(path_loss.get("reference_distance_m", 1.0))
    l0 = float(path_loss.get("reference_loss_db", 46.6777))
    n = float(path_loss.get("exponent", 3.0))
    if loss_db < l0:
        return 0.0
    return d0 * 10 ** ((loss_db - l0) / (10 * n))


def _snr_for(model: str, mode: str, bits: int, target: float) -> float:
    """The least SNR [dB] at which ``bits`` at ``mode`` get through with probability
    ``target`` (the core's error model, by bisection)."""
    from airtcp import _core

    lo, hi = -10.0, 60.0
    if _core.chunk_success(model, mode, hi, bits) < target:
        return math.inf
    for _ in range(50):
        mid = (lo + hi) / 2
        if _core.chunk_success(model, mode, mid, bits) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _by_rate(pairs: Any, rate: float) -> float | None:
    for r, v in pairs or ():
        if float(r) == rate:
            return float(v)
    return None


def radio_ranges(spec: Mapping[str, Any], node: int) -> tuple[float, float]:
    """Node ``node``'s decode and carrier-sense ranges [m] under the radio model of ``spec``.

    Both are distances at which the mean received power of a frame the node sends at the
    standard's lowest rate (its transmit power minus the path loss; no fading, nobody else on
    the air) falls to a threshold:

    - decode: the greatest of the receive sensitivity (``rx_sensitivity_dbm``), that rate's
      own sensitivity (``rx_sensitivity_by_rate_dbm``), preamble detection's minimum power
      and SNR (when it is on), and the noise floor plus the SNR at which a 1500-byte frame
      gets through 90 % of the time (the routes' decode test);
    - carrier sense: ``cca_threshold_dbm`` (a frame at least that strong turns the medium
      busy), and never less than the decode range (a frame a node locks onto always does).
    """
    from airtcp.config.budget import band_standard
    from airtcp.tables import standard_modes

    radio = spec["channel"]["radio"]
    standard = band_standard(spec["wifi"])  # 802.11n, ac, ax: their band's non-HT standard
    mode = standard_modes(standard)[0]
    n = spec["nodes"][node]
    tx = n.get("tx_power_dbm")
    if tx is None:
        tx = _by_rate(radio.get("tx_power_by_rate_dbm"), mode.rate_mbps)
    if tx is None:
        tx = float(radio.get("tx_power_dbm", 16.0206))
    dsss = standard == "80211b"  # 22 MHz channels (docs/scenarios.md, noise_figure_db)
    bandwidth_hz = 22e6 if dsss else 20e6
    noise_dbm = -174 + 10 * math.log10(bandwidth_hz) + float(radio.get("noise_figure_db", 7.0))
    need = float(radio.get("rx_sensitivity_dbm", -101.0)) + (0.41 if dsss else 0.0)
    per_rate = _by_rate(radio.get("rx_sensitivity_by_rate_dbm"), mode.rate_mbps)
    if per_rate is not None:
        need = max(need, per_rate)
    detect = radio.get("preamble_detection")
    if isinstance(detect, Mapping):
        need = max(need, float(detect["min_rssi_dbm"]), noise_dbm + float(detect["snr_db"]))
    model = str(radio.get("error_model", "nist"))
    need = max(need, noise_dbm + _snr_for(model, mode.name, 8 * DECODE_BYTES, DECODE_SUCCESS))
    path_loss = radio["path_loss"]
    decode = _inverse_loss(path_loss, tx - need) if math.isfinite(need) else 0.0
    sense = _inverse_loss(path_loss, tx - float(radio.get("cca_threshold_dbm", -82.0)))
    return decode, max(decode, sense)


def _ranges(spec: Mapping[str, Any]) -> tuple[list[tuple[float, float]] | None, str]:
    """Each node's (decode, sense) range and the note that says what they are; None if the
    channel has no ranges (a connectivity matrix)."""
    channel = spec["channel"]
    nodes = spec["nodes"]
    if channel.get("radio"):
        ranges = [
            radio_ranges(spec, i) if n["wifi"] else (math.nan, math.nan)
            for i, n in enumerate(nodes)
        ]
        return ranges, (
            "radio model: solid circle = decode range (mean power of a lowest-rate frame at the "
            "receiver's threshold, 1500 bytes 90 % through), dashed = carrier-sense range "
            "(cca_threshold_dbm); no fading"
        )
    if channel.get("matrix"):
        return None, "connectivity given by channel.matrix: no ranges to draw"
    rx = float(channel.get("rx_range_m", 250.0))
    cs = float(channel.get("cs_range_m", rx))
    ranges = [(rx, cs) if n["wifi"] else (math.nan, math.nan) for n in nodes]
    return ranges, (
        f"range model: solid circle = decode range (rx_range_m = {rx:g} m), dashed = "
        f"carrier-sense range (cs_range_m = {cs:g} m)"
    )


# ---------------------------------------------------------------------------------------------
# Paths


def _route_table(spec: Mapping[str, Any]) -> Any:
    """The core's computed routes of ``spec`` (None if it cannot say)."""
    from airtcp.config.budget import topology_of
    from airtcp.config.routes import connectivity

    try:
        return connectivity(topology_of(spec))
    except (ValueError, KeyError):
        return None


def _flow_path(
    spec: Mapping[str, Any], summary: Mapping[str, Any], src: int, dst: int, conn: Any
) -> list[int]:
    """The nodes a flow's packets cross from ``src`` to ``dst``: a mesh point's HWMP path
    (the summary's, at the end of the run), else an explicit route, else the core's."""
    names = [n["name"] for n in spec["nodes"]]
    index = {name: i for i, name in enumerate(names)}
    explicit = {(r["node"], r["dst"]): r["next_hop"] for r in spec.get("routes", [])}
    mesh_paths: dict[tuple[int, int], int] = {}
    for i, node in enumerate(summary.get("nodes", [])):
        for p in (node.get("mesh") or {}).get("paths", []):
            if p.get("dst") in index and p.get("next_hop") in index:
                mesh_paths[(i, index[p["dst"]])] = index[p["next_hop"]]
    path = [src]
    while path[-1] != dst and len(path) <= len(names):
        u = path[-1]
        v = mesh_paths.get((u, dst), explicit.get((u, dst)))
        if v is None and conn is not None:
            v = conn.next_hop(u, dst)
        if v is None or v < 0 or v in path:
            return path if len(path) > 1 else []
        path.append(v)
    return path


# ---------------------------------------------------------------------------------------------
# Drawing


def _positions(spec: Mapping[str, Any], others: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Each node's (x, y) as drawn: a node without a radio on another node's spot is moved
    beside it (by a tenth of the spread of the nodes and the ``others`` points), so that both
    and their wired link show."""
    nodes = spec["nodes"]
    xy = np.array([[float(n["position_m"][0]), float(n["position_m"][1])] for n in nodes])
    notes = []
    extent = float(np.ptp(np.vstack([xy, others]), axis=0).max()) or 10.0
    step = 0.1 * extent
    moved = []
    for i, n in enumerate(nodes):
        if n["wifi"]:
            continue
        k = 1
        while any(np.allclose(xy[i], xy[j]) for j in range(len(nodes)) if j != i):
            xy[i] = xy[i] + np.array([0.0, -step * k])
            k += 1
        if k > 1:
            moved.append(n["name"])
    if moved:
        notes.append(
            f"wired-only nodes drawn beside the node they share a spot with: {', '.join(moved)}"
        )
    if any(len(n["position_m"]) > 2 and float(n["position_m"][2]) != 0 for n in nodes):
        notes.append("seen from above: heights (z) are left out")
    return xy, notes


def _square(ax: Axes, lo: np.ndarray, hi: np.ndarray) -> None:
    """A square view of the box [lo, hi] with a margin (equal metres on both axes)."""
    center = (lo + hi) / 2
    half = max(float((hi - lo).max()) / 2 * 1.12, 1.0)
    ax.set_xlim(center[0] - half, center[0] + half)
    ax.set_ylim(center[1] - half, center[1] + half)
    ax.set_aspect("equal", adjustable="box")


def _fits(points: np.ndarray, circles: list[tuple[float, float, float]]) -> bool:
    """Whether the circles are small enough to share the view of the nodes and tracks (at
    most twice their extent): else they get a view of their own."""
    extent = float(np.ptp(points, axis=0).max()) if len(points) else 0.0
    radius = max((r for _, _, r in circles if math.isfinite(r)), default=0.0)
    return radius <= 2 * max(extent, 1.0)


def _circle_box(
    points: np.ndarray, circles: list[tuple[float, float, float]]
) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = points.min(axis=0), points.max(axis=0)
    for x, y, r in circles:
        if math.isfinite(r):
            lo = np.minimum(lo, [x - r, y - r])
            hi = np.maximum(hi, [x + r, y + r])
    return lo, hi


def _draw_circles(
    ax: Axes, circles: list[tuple[int, float, float, float, float]], colors: list[str]
) -> None:
    """The decode (solid, faintly filled) and carrier-sense (dashed) circle of each node."""
    from matplotlib.patches import Circle

    for i, x, y, decode, sense in circles:
        color = colors[i]
        if decode > 0:
            ax.add_patch(Circle((x, y), decode, fill=True, alpha=0.04, color=color, lw=0))
            ax.add_patch(Circle((x, y), decode, fill=False, color=color, lw=1, alpha=0.6))
        if sense > decode * (1 + 1e-9):
            ax.add_patch(Circle((x, y), sense, fill=False, color=color, lw=1, ls="--", alpha=0.5))


def topology(
    source: str | Path | Result, *, run: str | None = None, title: str | None = None
) -> tuple[Figure, TopologyData]:
    """The topology of one run: nodes, ranges, wired links, mesh peers, flow paths, tracks.

    ``source``: an ``airtcp run --out`` directory, a :class:`~airtcp.result.Result`, or a
    sweep store (``run`` picks the run). Needs the run's world spec (spec.json). When the
    ranges are much larger than the nodes' spread, a second, smaller view shows them whole.
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    result = load_run(source, run)
    spec = result.spec
    if spec is None:
        raise PlotError(
            "no world spec for this run (spec.json); rerun it with `airtcp run ... --out DIR`"
        )
    summary = result.summary
    nodes = spec["nodes"]
    names = [n["name"] for n in nodes]
    colors = [_ROLE_COLORS.get(n["role"], _HOST_COLOR) if n["wifi"] else _HOST_COLOR for n in nodes]
    tracks = _tracks(result, nodes)
    track_points = [np.column_stack([t[1], t[2]]) for t in tracks.values()]
    xy, notes = _positions(spec, np.vstack([np.zeros((0, 2)), *track_points]))
    ranges, range_note = _ranges(spec)
    wifi = [i for i, n in enumerate(nodes) if n["wifi"]]
    circled = wifi
    if ranges is not None and len(wifi) > MAX_RANGE_NODES:
        circled = [i for i in wifi if nodes[i]["role"] in ("ap", "mesh")][:MAX_RANGE_NODES]
        range_note += f"; drawn around {'the access points' if circled else 'no node'} only"
    circles = [(i, xy[i][0], xy[i][1], *ranges[i]) for i in circled] if ranges else []
    points = np.vstack([xy, *track_points])
    radii = [(x, y, r) for _, x, y, d, c in circles for r in (d, c)]
    together = _fits(points, radii)

    fig = Figure(figsize=(9.6, 6.0), layout="constrained")
    grid = fig.add_gridspec(2, 2, width_ratios=[2.1, 1.0])
    ax = fig.add_subplot(grid[:, 0])
    overview = None if together or not circles else fig.add_subplot(grid[0, 1])
    key = fig.add_subplot(grid[1, 1] if overview is not None else grid[:, 1])
    key.axis("off")

    handles: list[Any] = []
    links: list[tuple[str, str, str, str]] = []
    if together:
        _draw_circles(ax, circles, colors)
    if circles:
        handles += [
            Line2D([], [], color="0.3", lw=1, label="decode range"),
            Line2D([], [], color="0.3", lw=1, ls="--", label="carrier-sense range"),
        ]
    for w in spec.get("wired_links", []):
        a, b = int(w["a"]), int(w["b"])
        label = f"{w['rate_bps'] / 1e6:g} Mbit/s, {w['delay_ns'] / 1e6:g} ms"
        for axes in (ax, overview):
            if axes is not None:
                axes.plot(*zip(xy[a], xy[b], strict=True), color="0.45", lw=3, zorder=2)
        ax.annotate(
            label,
            (xy[a] + xy[b]) / 2,
            fontsize=7,
            color="0.3",
            va="center",
            xytext=(5, 0),
            textcoords="offset points",
        )
        links.append(("wired", names[a], names[b], label))
    if spec.get("wired_links"):
        handles.append(Line2D([], [], color="0.45", lw=3, label="wired link"))

    peers = _mesh_peers(summary, names)
    for a, b in peers:
        ax.plot(*zip(xy[a], xy[b], strict=True), color="tab:green", lw=1.2, alpha=0.8, zorder=2)
        links.append(("mesh-peer", names[a], names[b], "peer link"))
    if peers:
        handles.append(Line2D([], [], color="tab:green", lw=1.2, label="mesh peer link"))

    flow_handles, flow_links, flow_notes = _draw_flows(ax, spec, summary, xy)
    handles += flow_handles
    links += flow_links
    notes += flow_notes

    track_rows: list[tuple[str, float, float, float]] = []
    for i, (times, x, y) in tracks.items():
        x = np.concatenate([[xy[i][0]], x])
        y = np.concatenate([[xy[i][1]], y])
        ax.plot(x, y, color=colors[i], lw=1, ls=":", zorder=2)
        marker = _ROLE_MARKERS.get(nodes[i]["role"], "o")
        ax.plot(x[-1], y[-1], marker=marker, ms=8, mfc="white", mec=colors[i], zorder=4)
        ax.annotate(
            f"{names[i]} (end)",
            (x[-1], y[-1]),
            fontsize=7,
            color=colors[i],
            xytext=(5, -10),
            textcoords="offset points",
        )
        track_rows += [(names[i], t, a, b) for t, a, b in zip(times, x[1:], y[1:], strict=True)]
    if tracks:
        handles.append(Line2D([], [], color="0.3", lw=1, ls=":", label="mobility track"))
    elif any(n.get("mobility") for n in nodes):
        moving = ", ".join(n["name"] for n in nodes if n.get("mobility"))
        notes.append(
            f"{moving} move: drawn where they start (record traces.positions for the tracks)"
        )

    for i, n in enumerate(nodes):
        marker = _ROLE_MARKERS.get(n["role"], "o")
        ax.plot(*xy[i], marker=marker, ms=9, color=colors[i], mec="black", mew=0.6, zorder=5)
        ax.annotate(n["name"], xy[i], fontsize=8, xytext=(6, 5), textcoords="offset points")
    for role in reversed(list(dict.fromkeys(n["role"] for n in nodes))):
        color = _ROLE_COLORS.get(role, _HOST_COLOR)
        marker = _ROLE_MARKERS.get(role, "o")
        handles.insert(
            0,
            Line2D([], [], marker=marker, color=color, mec="black", mew=0.6, ls="none", label=role),
        )

    if together:
        _square(ax, *_circle_box(points, radii))
    else:
        _square(ax, points.min(axis=0), points.max(axis=0))
        radius = max(r for _, _, r in radii)
        notes.append(f"the ranges (up to {radius:.4g} m) are drawn whole in the view beside")
    if overview is not None:
        _draw_circles(overview, circles, colors)
        for i in range(len(nodes)):
            overview.plot(
                *xy[i], marker=_ROLE_MARKERS.get(nodes[i]["role"], "o"), ms=4, color=colors[i]
            )
        lo, hi = ax.get_xlim(), ax.get_ylim()
        overview.add_patch(
            Rectangle((lo[0], hi[0]), lo[1] - lo[0], hi[1] - hi[0], fill=False, color="0.2", lw=0.8)
        )
        _square(overview, *_circle_box(points, radii))
        overview.set_title("ranges (the box: the view at left)", fontsize=8)
        overview.tick_params(labelsize=7)
        overview.grid(True, alpha=0.25)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.grid(True, alpha=0.25)
    key.legend(handles=handles, fontsize=7, loc="upper left", frameon=False)
    name = summary.get("scenario", "run")
    ax.set_title(title if title is not None else f"topology: {name} (seed {summary.get('seed')})")
    notes = [range_note, *notes]
    import textwrap

    from airtcp.plot import _note

    # Wrapped: constrained layout makes room for the note under the axes.
    _note(ax, [line for n in notes for line in textwrap.wrap(n, 100)])

    node_rows = [
        {
            "index": i,
            "name": n["name"],
            "role": n["role"],
            "wifi": bool(n["wifi"]),
            "x_m": float(xy[i][0]),
            "y_m": float(xy[i][1]),
            "decode_m": ranges[i][0] if ranges is not None else math.nan,
            "sense_m": ranges[i][1] if ranges is not None else math.nan,
        }
        for i, n in enumerate(nodes)
    ]
    data = TopologyData(
        nodes=pd.DataFrame(node_rows),
        links=pd.DataFrame(links, columns=["kind", "a", "b", "label"]),
        tracks=pd.DataFrame(track_rows, columns=["node", "time_s", "x_m", "y_m"]),
        notes=notes,
    )
    return fig, data


def _tracks(
    result: Result, nodes: list[dict[str, Any]]
) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each moving node's samples from the positions trace: node -> (time_s, x_m, y_m)."""
    positions = result.traces.get("positions")
    if positions is None or not positions.num_rows:
        return {}
    frame = positions.to_pandas().sort_values(["node", "time_ns"], kind="stable")
    out = {}
    for node, sub in frame.groupby("node", sort=True):
        if 0 <= int(node) < len(nodes):
            out[int(node)] = (
                sub["time_ns"].to_numpy(float) * 1e-9,
                sub["x_m"].to_numpy(float),
                sub["y_m"].to_numpy(float),
            )
    return out


def _mesh_peers(summary: Mapping[str, Any], names: list[str]) -> list[tuple[int, int]]:
    """The mesh peer links of the summary (each pair once, in node order)."""
    index = {name: i for i, name in enumerate(names)}
    pairs: set[tuple[int, int]] = set()
    for i, node in enumerate(summary.get("nodes", [])):
        for p in (node.get("mesh") or {}).get("peers", []):
            j = index.get(p.get("peer"))
            if j is not None and j != i:
                pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


# Flow paths drawn at most (each is a row of the legend).
MAX_FLOW_PATHS = 12


def _draw_flows(
    ax: Axes, spec: Mapping[str, Any], summary: Mapping[str, Any], xy: np.ndarray
) -> tuple[list[Any], list[tuple[str, str, str, str]], list[str]]:
    """An arrow per hop of each flow's path, a colour per flow."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch

    names = [n["name"] for n in spec["nodes"]]
    flows = spec.get("flows", [])
    conn = _route_table(spec)
    cycle = ["tab:orange", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan"]
    handles: list[Any] = []
    links: list[tuple[str, str, str, str]] = []
    for k, f in enumerate(flows[:MAX_FLOW_PATHS]):
        path = _flow_path(spec, summary, int(f["src"]), int(f["dst"]), conn)
        if len(path) < 2:
            continue
        color = cycle[k % len(cycle)]
        bend = 0.08 + 0.06 * (k % 4)  # flows over the same hop bend apart
        for u, v in zip(path, path[1:], strict=False):
            links.append(("flow", names[u], names[v], f"flow {k}"))
            if np.allclose(xy[u], xy[v]):
                continue
            arrow = FancyArrowPatch(
                tuple(xy[u]),
                tuple(xy[v]),
                arrowstyle="-|>",
                mutation_scale=12,
                color=color,
                lw=1.5,
                connectionstyle=f"arc3,rad={bend}",
                shrinkA=7,
                shrinkB=7,
                zorder=3,
            )
            ax.add_patch(arrow)
        hops = len(path) - 1
        route = " \u2192 ".join(names[i] for i in path)
        if hops > 4:
            route = f"{names[path[0]]} \u2192 {names[path[-1]]} ({hops} hops)"
        handles.append(Line2D([], [], color=color, lw=1.5, label=f"flow {k}: {route}"))
    notes = []
    if len(flows) > MAX_FLOW_PATHS:
        notes.append(f"the paths of the first {MAX_FLOW_PATHS} of {len(flows)} flows are drawn")
    return handles, links, notes
