"""What ``airtcp run`` prints: a run's tables, fitted to the terminal, and its one-line total.

Three rules, held at 80 columns (the width rich assumes when the output is a pipe or a file) by
python/tests/test_runprint.py:

- A number is never cut. A numeric column is at least as wide as its widest cell; its header
  folds at spaces instead ("goodput" over "Mbit/s").
- When the columns still do not fit, the text columns (node names, flow labels, peer and path
  lists) fold at spaces, and then the table is split into parts that each repeat the row's
  name, the first part holding the first columns.
- A table shows at most ``max_rows`` rows (``airtcp run --all``: every row), then one line
  ``... N more (see --json or --out; --all prints every row)``.

The total (:func:`total_line`) is one line that is never wrapped: ``airtcp run --quiet``
prints it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from airtcp.result import RunSummary
    from airtcp.summary_types import FlowSummary, NodeSummary

__all__ = ["MAX_ROWS", "Column", "fit", "print_tables", "total_line"]

# A table's row: a flow's or a node's summary.
_Row = TypeVar("_Row")

# Rows per table unless --all.
MAX_ROWS = 20
# A table's frame: per column one space each side and one rule, plus the left edge.
_PER_COLUMN, _EDGE = 3, 1
# A text column folds down to its longest word, but not below _TEXT_MIN; a word longer than
# _TEXT_WORD (a long node name) may fold inside itself.
_TEXT_MIN, _TEXT_WORD = 6, 20


@dataclass
class Column:
    """One column of a table: its header and cells. ``numeric``: right-justified, never
    narrower than its widest cell; otherwise text that may fold. ``key``: the row's name,
    repeated in every part of a split table."""

    header: str
    cells: list[str] = field(default_factory=list)
    numeric: bool = True
    key: bool = False


def _len(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _longest_word(text: str) -> int:
    return max((_len(w) for w in text.split()), default=0)


def _bounds(col: Column) -> tuple[int, int]:
    """(least, natural) width of ``col``'s content, padding excluded."""
    widest = max((_len(c) for c in col.cells), default=0)
    natural = max(widest, _len(col.header), 1)
    if col.numeric:
        return max(widest, _longest_word(col.header), 1), natural
    word = max((_longest_word(c) for c in col.cells), default=0)
    least = max(_longest_word(col.header), min(word, _TEXT_WORD), _TEXT_MIN)
    return min(least, natural), natural


def _span(widths: Sequence[int]) -> int:
    """A table's width with columns of ``widths``."""
    return sum(widths) + _PER_COLUMN * len(widths) + _EDGE


def _shrink(cols: Sequence[Column], width: int) -> list[int]:
    """Column widths that fit ``width`` if they can: each column at its natural width, then
    numeric headers folded, then text folded, the widest slack first."""
    bounds = [_bounds(c) for c in cols]
    widths = [natural for _, natural in bounds]
    excess = _span(widths) - width
    for numeric in (True, False):
        while excess > 0:
            slack = [
                (widths[i] - least, i)
                for i, (least, _) in enumerate(bounds)
                if cols[i].numeric == numeric and widths[i] > least
            ]
            if not slack:
                break
            _, i = max(slack)
            widths[i] -= 1
            excess -= 1
    return widths


def _parts(cols: Sequence[Column], width: int) -> list[list[int]]:
    """Indices of the columns of each part: one part if the table fits folded, else parts
    that each hold the key columns and as many of the next columns as fit."""
    least = [_bounds(c)[0] for c in cols]
    keys = [i for i, c in enumerate(cols) if c.key]
    parts: list[list[int]] = []
    current = list(keys)
    for i, col in enumerate(cols):
        if col.key:
            continue
        if len(current) > len(keys) and _span([least[j] for j in [*current, i]]) > width:
            parts.append(current)
            current = [*keys, i]
        else:
            current.append(i)
    parts.append(current)
    return parts


def fit(title: str, cols: Sequence[Column], width: int) -> list[Table]:
    """The table ``title`` of ``cols`` as one or more rich tables at most ``width`` wide (see
    the module's rules). Every column gets an explicit width, so rich never shrinks (or cuts)
    one itself."""
    from rich.table import Table
    from rich.text import Text

    tables = []
    rows = max((len(c.cells) for c in cols), default=0)
    for n, part in enumerate(_parts(cols, width)):
        sub = [cols[i] for i in part]
        name = title if n == 0 else f"{title} (continued)"
        table = Table(title=Text(name))  # a Text: the scenario's name is no markup
        for col, w in zip(sub, _shrink(sub, width), strict=True):
            table.add_column(
                col.header,
                justify="right" if col.numeric else "left",
                width=w,
                overflow="fold",
            )
        for r in range(rows):
            table.add_row(*(c.cells[r] if r < len(c.cells) else "" for c in sub))
        tables.append(table)
    return tables


# ---------------------------------------------------------------------------------------------
# The run's tables


# Columns of the TCP table: (header, key in the flow summary's "tcp" table, format, scale).
# A column is shown when the core reported its key for some TCP flow.
_TCP_COLUMNS: tuple[tuple[str, str, str, float], ...] = (
    ("retx", "retransmissions", "{:d}", 1),
    ("RTOs", "timeouts", "{:d}", 1),
    ("RTT ms", "rtt_mean_s", "{:.1f}", 1e3),
    ("cwnd", "mean_cwnd_segments", "{:.1f}", 1),
    ("done s", "completion_s", "{:.3f}", 1),
)


def _flow_kind(kind: str) -> str:
    return {"udp_saturating": "sat", "udp_cbr": "cbr"}.get(kind, kind)


def _flow_label(flow: Mapping[str, object]) -> str:
    """``id: src -> dst`` of a flow's summary (or of its figures over seeds, airtcp.seeds)."""
    return f"{flow.get('id')}: {flow.get('src')} -> {flow.get('dst')}"


def _tcp_value(flow: FlowSummary, key: str, scale: float) -> int | float | None:
    """``flow["tcp"][key]`` (or ``flow[key]``) times ``scale``; None if not reported."""
    sources: list[Mapping[str, object]] = [flow]
    if (nested := flow.get("tcp")) is not None:
        sources.insert(0, nested)
    for source in sources:
        value = source.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value * scale if scale != 1 else value
    return None


def _tcp_cell(value: int | float | None, fmt: str) -> str:
    if value is None:
        return "-"
    try:
        return fmt.format(value)
    except ValueError:  # an integer column got a float
        return f"{value:g}"


def _columns(headers: Sequence[str], rows: Sequence[Sequence[str]], text: int = 1) -> list[Column]:
    """Columns of ``rows`` under ``headers``: the first is the key, the first ``text`` are
    text, the others numeric."""
    return [
        Column(h, [r[i] for r in rows], numeric=i >= text, key=i == 0)
        for i, h in enumerate(headers)
    ]


def flows_columns(flows: Sequence[FlowSummary], files: bool) -> list[Column]:
    """The flows table: goodput, delivered packets, delay, loss; a file transfer's own rate
    and completion when ``files``."""
    headers = ["flow", "kind", "goodput Mbit/s", "delivered", "mean delay ms", "loss"]
    headers += ["file Mbit/s", "done s"] if files else []
    rows = []
    for f in flows:
        kind = str(f.get("kind", ""))
        # TCP flows measure no one-way delay (the core reports 0): not measured, not zero.
        delay = "-" if kind.startswith("tcp") else f"{f.get('mean_delay_s', 0.0) * 1e3:.3f}"
        cells = [
            _flow_label(f),
            _flow_kind(kind),
            f"{f.get('goodput_bps', 0.0) / 1e6:.3f}",
            str(f.get("delivered_packets", 0)),
            delay,
            f"{f.get('loss_ratio', 0.0):.2%}",
        ]
        if files:
            rate = f.get("transfer_throughput_bps")
            nested = f.get("tcp") if isinstance(f.get("tcp"), dict) else f.get("clap")
            done = nested.get("completion_s") if isinstance(nested, dict) else None
            cells.append("-" if rate is None else f"{rate / 1e6:.3f}")
            cells.append("-" if done is None else f"{done:.3f}")
        rows.append(cells)
    return _columns(headers, rows, text=2)


def tcp_columns(tcp_flows: Sequence[FlowSummary], spec_flows: Sequence[Any]) -> list[Column]:
    """The TCP flows: their settings from the world spec, and the counters the core reports."""
    reported = [
        (header, [_tcp_value(f, key, scale) for f in tcp_flows], fmt)
        for header, key, fmt, scale in _TCP_COLUMNS
    ]
    reported = [col for col in reported if any(v is not None for v in col[1])]
    headers = ["flow", "cc", "recovery", "ACK every", *(h for h, _, _ in reported)]
    rows = []
    for i, f in enumerate(tcp_flows):
        fid = f.get("id")
        spec = spec_flows[fid] if isinstance(fid, int) and 0 <= fid < len(spec_flows) else {}
        tcp = spec.get("tcp") if isinstance(spec, dict) else None
        tcp = tcp if isinstance(tcp, dict) else {}
        rows.append(
            [
                _flow_label(f),
                str(tcp.get("cc", "-")),
                str(tcp.get("recovery", "-")),
                str(tcp.get("ack_every", "-")),
                *(_tcp_cell(values[i], fmt) for _, values, fmt in reported),
            ]
        )
    return _columns(headers, rows, text=3)


def clap_columns(clap_flows: Sequence[FlowSummary]) -> list[Column]:
    """The CLAP flows (docs/clap.md): transfer time, file rate, retransmissions, feedback."""
    headers = ["flow", "done s", "file Mbit/s", "segments", "retx", "feedback sent/recv"]
    rows = []
    for f in clap_flows:
        c = f["clap"]
        done = c.get("completion_s")
        rate = f.get("delivered_bytes", 0) * 8 / done / 1e6 if done else None
        rows.append(
            [
                _flow_label(f),
                "-" if done is None else f"{done:.3f}",
                "-" if rate is None else f"{rate:.3f}",
                str(c.get("segments_sent", 0)),
                str(c.get("retransmissions", 0)),
                f"{c.get('feedbacks_sent', 0)}/{c.get('feedbacks_received', 0)}",
                f"{c.get('rtt_mean_s', 0.0) * 1e3:.1f}",
            ]
        )
    return _columns([*headers, "RTT ms"], rows)


def nodes_columns(nodes: Sequence[NodeSummary]) -> list[Column]:
    """Each node's MAC: attempts, retries, collisions, drops, the medium's busy fraction."""
    headers = ["node", "attempts", "retries", "collisions", "drops", "busy %"]
    rows = []
    for n in nodes:
        mac = n.get("mac", {})
        drops = mac.get("drops_retry_limit", 0) + mac.get("drops_queue", 0)
        drops += mac.get("drops_no_route", 0)
        rows.append(
            [
                str(n.get("name", "")),
                str(mac.get("attempts", 0)),
                str(mac.get("retries", 0)),
                str(mac.get("collisions", 0)),
                str(drops),
                f"{mac.get('busy_air_fraction', 0.0) * 100:.1f}",
            ]
        )
    return _columns(headers, rows)


def mesh_columns(nodes: Sequence[NodeSummary]) -> list[Column]:
    """802.11s: each mesh point's peers and paths at the end of the run, what HWMP sent in the
    measured period, and its first path set-up."""
    headers = ["node", "peers (metric)", "paths: dst via next hop (metric)", "PREQ/PREP/PERR"]
    headers.append("first set-up ms")
    remedy = any(n["mesh"].get("retry_limits") for n in nodes)
    if remedy:
        headers.append("retry limit (changes)")
    rows = []
    for n in nodes:
        m = n["mesh"]
        peers = ", ".join(f"{p['peer']} ({p['metric']})" for p in m.get("peers", []))
        paths = ", ".join(
            f"{p['dst']} via {p['next_hop']} ({p['metric']})"
            for p in m.get("paths", [])
            if p["dst"] != p["next_hop"]
        )
        setups = m.get("path_setups", [])
        row = [
            str(n.get("name", "")),
            peers or "-",
            paths or "-",
            f"{m.get('preqs_sent', 0)}/{m.get('preps_sent', 0)}/{m.get('perrs_sent', 0)}",
            f"{setups[0]['setup_ms']:.2f}" if setups else "-",
        ]
        if remedy:
            limits = m.get("retry_limits", [])
            row.append(f"{limits[-1]['limit']} ({len(limits) - 1})" if limits else "-")
        rows.append(row)
    return _columns(headers, rows, text=3)


def _more(console: Console, left: int) -> None:
    if left > 0:
        console.print(
            f"... {left} more (see --json or --out; --all prints every row)",
            soft_wrap=True,
            highlight=False,
        )


def print_tables(
    summary: RunSummary,
    spec: dict[str, Any] | None = None,
    console: Console | None = None,
    max_rows: int | None = MAX_ROWS,
) -> None:
    """Print the run's tables (flows; TCP and CLAP flows; nodes; mesh points; wired links) on
    ``console`` (default: stdout), fitted to its width, ``max_rows`` rows each (None: all)."""
    from rich.console import Console

    console = console or Console()
    width = console.width

    def show(
        title: str, rows: Sequence[_Row], build: Callable[[Sequence[_Row]], list[Column]]
    ) -> None:
        shown = rows if max_rows is None else rows[:max_rows]
        for table in fit(title, build(shown), width):
            console.print(table)
        _more(console, len(rows) - len(shown))

    flows = summary.get("flows", [])
    # File transfers add their own throughput (file over start -> completion) and completion
    # time; goodput stays delivered bytes over the whole measured time (docs/world-spec.md).
    files = any(str(f.get("kind", "")).endswith("_file") for f in flows)
    title = f"flows: {summary.get('scenario', '')} (seed {summary.get('seed')})"
    show(title, flows, lambda rows: flows_columns(rows, files))
    tcp = [f for f in flows if str(f.get("kind", "")).startswith("tcp")]
    if tcp:
        spec_flows = (spec or {}).get("flows", [])
        show("TCP flows", tcp, lambda rows: tcp_columns(rows, spec_flows))
    clap = [f for f in flows if isinstance(f.get("clap"), dict)]
    if clap:
        show("CLAP flows", clap, clap_columns)
    nodes = summary.get("nodes", [])
    show("nodes (MAC)", nodes, nodes_columns)
    meshes = [n for n in nodes if isinstance(n.get("mesh"), dict)]
    if meshes:
        show("mesh points (802.11s)", meshes, mesh_columns)
    links = summary.get("links", [])
    shown = links if max_rows is None else links[:max_rows]
    for link in shown:
        drops, lost = link.get("drops_queue", [0, 0]), link.get("lost", [0, 0])
        console.print(
            f"wired {link.get('a')} <-> {link.get('b')}: queue drops {drops[0]}/{drops[1]}, "
            f"lost {lost[0]}/{lost[1]} (a->b/b->a)",
            soft_wrap=True,
        )
    _more(console, len(links) - len(shown))


def total_line(summary: RunSummary) -> str:
    """The run in one line: total goodput, collision probability, simulated and wall time,
    events."""
    totals = summary.get("totals", {})
    wall = summary.get("wall_seconds", 0.0)
    events = summary.get("events", 0)
    rate = f", {events / wall / 1e6:.2f} M events/s" if wall else ""
    return (
        f"total goodput {totals.get('goodput_bps', 0.0) / 1e6:.3f} Mbit/s, "
        f"collision probability {totals.get('collision_probability', 0.0):.4f}; "
        f"{summary.get('sim_seconds', 0.0):g} s simulated in {wall:.3f} s wall, "
        f"{events} events{rate}"
    )
