"""One run as a self-contained HTML page: its tables, its time series and its topology.

:func:`report` reads a run (an ``airtcp run --out`` directory, a Result, or a run of a sweep
store; :func:`airtcp.plot.load_run`) and returns one HTML document that needs nothing else:

- what ran: the scenario, seed, overrides, airtcp version, simulated and wall time;
- the totals and the run's warnings;
- the flows and the nodes (MAC counters, mesh points), the wired links: every number of the
  summary in full, as the summary holds it (bit/s, seconds, counts);
- the standard time series of the traces the run recorded (:data:`SERIES`: goodput per report
  interval and per time bin, cwnd and RTT, UDP goodput and delay, MAC airtime and throughput,
  data rates, SINR, distance), one line per flow or node, drawn by :func:`airtcp.plot.trace`;
- the topology (:func:`airtcp.topology.topology`).

Figures are inline SVG (matplotlib's, text as text); a few lines of inline JavaScript pan
(drag) and zoom (mouse wheel) each by its viewBox, a double click resets it. No file, font,
script or style is fetched from anywhere: the page opens offline, from a file:// URL.
:func:`write_report` writes it atomically, replacing only a page airtcp wrote.
"""

from __future__ import annotations

import html
import io
import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from airtcp.result import Result

__all__ = ["GENERATOR", "SERIES", "ReportError", "report", "write_report"]

# Marks a page airtcp wrote (an existing --out is replaced only if it carries it).
GENERATOR = "airtcp report"
# The standard time series, in page order: (trace kind, y); each is drawn when the run has it.
SERIES: tuple[tuple[str, str], ...] = (
    ("interval", "goodput"),
    ("tcp_segments", "goodput"),
    ("tcp", "cwnd"),
    ("tcp", "srtt_ns"),
    ("packets", "goodput"),
    ("packets", "delay"),
    ("mac_tx", "airtime"),
    ("mac_tx", "throughput"),
    ("rates", "rate"),
    ("receptions", "sinr"),
    ("positions", "distance"),
)
# A line of more points than this is drawn as an image inside its SVG (a page stays a few MB).
MAX_VECTOR_POINTS = 20_000


class ReportError(ValueError):
    """The report cannot be written: the message names the value and what is allowed."""


# ---------------------------------------------------------------------------------------------
# Figures as inline SVG


def _svg(fig: Figure, key: str) -> str:
    """``fig`` as an inline ``<svg>`` element: no XML prolog or metadata, sized by CSS, its
    ids prefixed with ``key`` (several SVGs share one document's id space)."""
    import matplotlib
    import numpy as np

    for ax in fig.axes:
        for line in ax.get_lines():
            if np.size(line.get_xdata()) > MAX_VECTOR_POINTS:
                line.set_rasterized(True)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "airtcp", "svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)

    def prefix(m: re.Match[str]) -> str:
        return f"{m.group(1)}{key}-{m.group(2)}{m.group(3)}"

    text = re.sub(r'(\bid=")([^"]+)(")', prefix, text)
    text = re.sub(r'(href="#)([^"]+)(")', prefix, text)
    text = re.sub(r"(url\(#)([^)]+)(\))", prefix, text)
    # The root element: sized by the page (its viewBox keeps the proportions), zoomable.
    head_end = text.index(">")
    head = re.sub(r'\s(width|height)="[^"]*"', "", text[:head_end])
    return f'{head} class="zoomable" role="img">' + text[head_end + 1 :]


def _figure_block(fig: Figure, key: str, caption: str) -> str:
    return (
        f'<figure class="plot" id="{key}">{_svg(fig, key)}'
        f"<figcaption>{html.escape(caption)} "
        '<button type="button" class="reset" title="undo pan and zoom">reset view</button>'
        "</figcaption></figure>"
    )


# ---------------------------------------------------------------------------------------------
# Tables


def _cell(value: Any) -> str:
    """A summary value in full: integers and floats as Python writes them (every digit the
    summary holds), lists and tables as JSON, null as an en dash."""
    if value is None:
        return '<td class="null">\u2013</td>'
    if isinstance(value, bool):
        return f"<td>{'true' if value else 'false'}</td>"
    if isinstance(value, int):
        return f'<td class="num">{value}</td>'
    if isinstance(value, float):
        text = repr(value) if math.isfinite(value) else str(value)
        return f'<td class="num">{text}</td>'
    if isinstance(value, list | dict):
        text = json.dumps(value, separators=(", ", ": "))
        return f'<td class="list">{html.escape(text)}</td>'
    return f"<td>{html.escape(str(value))}</td>"


def _flat(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, Mapping):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


# Up to this many entries a table has a column per entry (a row per field); more, a row each.
MAX_COLUMNS = 6


def _table(rows: Sequence[Mapping[str, Any]], table_id: str, skip: Sequence[str] = ()) -> str:
    """The entries' fields (nested keys joined by dots): a column per entry and a row per
    field for a few entries (headed by their names), else a row per entry."""
    flat = [_flat(r) for r in rows]
    columns = [c for c in dict.fromkeys(k for r in flat for k in r) if c not in skip]
    if 0 < len(flat) <= MAX_COLUMNS:
        names = [_entry_name(r, i) for i, r in enumerate(flat)]
        columns = [c for c in columns if c != "name"]  # the header row names them
        head = "<th></th>" + "".join(f"<th>{html.escape(n)}</th>" for n in names)
        body = "".join(
            f"<tr><th>{html.escape(c)}</th>" + "".join(_cell(r.get(c)) for r in flat) + "</tr>"
            for c in columns
        )
        return (
            f'<div class="scroll"><table id="{table_id}" class="fields"><thead><tr>{head}</tr>'
            f"</thead><tbody>{body}</tbody></table></div>"
        )
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(_cell(r.get(c)) for c in columns) + "</tr>" for r in flat)
    return (
        f'<div class="scroll"><table id="{table_id}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _entry_name(row: Mapping[str, Any], i: int) -> str:
    if "name" in row:
        return str(row["name"])
    if "src" in row and "dst" in row:
        return f"flow {row.get('id', i)}: {row['src']} \u2192 {row['dst']}"
    if "a" in row and "b" in row:
        return f"{row['a']} \u2014 {row['b']}"
    return str(i)


def _pairs(items: Sequence[tuple[str, Any]]) -> str:
    rows = "".join(f"<tr><th>{html.escape(k)}</th>{_cell(v)}</tr>" for k, v in items)
    return f'<table class="pairs">{rows}</table>'


# ---------------------------------------------------------------------------------------------
# The page


_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
       max-width: 1200px; padding: 0 16px 48px; color: #1b1b1b; background: #fff; }
h1 { font-size: 22px; margin: 20px 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px;
     border-bottom: 1px solid #ddd; padding-bottom: 3px; }
nav a { margin-right: 14px; } .meta { color: #555; margin: 0 0 8px; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { border: 1px solid #d6d6d6; padding: 2px 6px; text-align: left; vertical-align: top; }
thead th { background: #f2f2f2; position: sticky; top: 0; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.null { color: #999; text-align: center; } td.list { font-size: 11px; max-width: 420px;
     word-break: break-all; }
table.pairs th, table.fields tbody th { background: #f7f7f7; font-weight: 600;
     white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; }
.warnings li { color: #8a5a00; }
figure.plot { margin: 18px 0; border: 1px solid #e2e2e2; padding: 6px; }
svg.zoomable { display: block; width: 100%; height: auto; cursor: grab; touch-action: none;
     user-select: none; } svg.zoomable:active { cursor: grabbing; }
figcaption { font-size: 12px; color: #555; margin-top: 4px; }
button.reset { font-size: 11px; margin-left: 8px; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 0 16px; }
"""

# Pan (drag) and zoom (wheel) of every svg.zoomable by its viewBox; double click or the
# figure's button resets it. No library: the page must open offline.
_SCRIPT = """
(function () {
  "use strict";
  for (const svg of document.querySelectorAll("svg.zoomable")) {
    const home = svg.getAttribute("viewBox").trim().split(/[ ,]+/).map(Number);
    let vb = home.slice();
    const apply = () => svg.setAttribute("viewBox", vb.join(" "));
    const at = (e) => {
      const r = svg.getBoundingClientRect();
      return [vb[0] + (e.clientX - r.left) / r.width * vb[2],
              vb[1] + (e.clientY - r.top) / r.height * vb[3]];
    };
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = at(e);
      // Zoom about the pointer, between the whole figure and 1/50 of it.
      const k = Math.min(Math.max(Math.exp(e.deltaY * 0.0015), home[2] / 50 / vb[2]),
                         home[2] / vb[2]);
      vb = [x - (x - vb[0]) * k, y - (y - vb[1]) * k, vb[2] * k, vb[3] * k];
      apply();
    }, { passive: false });
    let drag = null;
    svg.addEventListener("pointerdown", (e) => {
      drag = [e.clientX, e.clientY, vb[0], vb[1]];
      svg.setPointerCapture(e.pointerId);
    });
    svg.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const r = svg.getBoundingClientRect();
      vb[0] = drag[2] - (e.clientX - drag[0]) / r.width * vb[2];
      vb[1] = drag[3] - (e.clientY - drag[1]) / r.height * vb[3];
      apply();
    });
    const stop = () => { drag = null; };
    svg.addEventListener("pointerup", stop);
    svg.addEventListener("pointercancel", stop);
    const reset = () => { vb = home.slice(); apply(); };
    svg.addEventListener("dblclick", reset);
    const button = svg.parentElement.querySelector("button.reset");
    if (button) button.addEventListener("click", reset);
  }
})();
"""


def _what_ran(result: Result) -> list[tuple[str, Any]]:
    s = result.summary
    prov = result.provenance
    scenario = prov.get("scenario")
    if not isinstance(scenario, Mapping):
        scenario = {}
    overrides = prov.get("overrides")
    if isinstance(overrides, Mapping):
        overrides = [f"{k}={json.dumps(v)}" for k, v in overrides.items()]
    items: list[tuple[str, Any]] = [
        ("scenario", s.get("scenario")),
        ("seed", s.get("seed")),
        ("scenario file", scenario.get("path")),
        ("overrides", " ".join(overrides) if overrides else None),
        ("airtcp version", prov.get("airtcp_version")),
        ("sim_seconds", s.get("sim_seconds")),
        ("measured_seconds", s.get("measured_seconds")),
        ("events", s.get("events")),
        ("wall_seconds", s.get("wall_seconds")),
    ]
    if scenario.get("store"):
        items.insert(2, ("sweep store", f"{scenario['store']} (run {scenario.get('run')})"))
    return items


def _series(result: Result) -> tuple[list[str], list[str]]:
    """The figures of the standard time series the run has, and what it lacks."""
    from airtcp.plot import TRACE_KINDS, PlotError, trace

    blocks, missing = [], []
    for n, (kind, y) in enumerate(SERIES):
        if kind != "interval" and kind not in result.traces:
            if kind not in missing:
                missing.append(kind)
            continue
        try:
            fig, data = trace(result, kind, y)
        except PlotError:
            continue  # the run has no such series (no interval goodput, no UDP flow, ...)
        label, what = TRACE_KINDS[kind][y]
        caption = f"{label}: {what}; {data['line'].nunique()} line(s)"
        blocks.append(_figure_block(fig, f"series{n}", caption))
    return blocks, missing


def report(source: str | Path | Result, *, run: str | None = None, title: str | None = None) -> str:
    """The HTML page of one run (see the module's doc); PlotError if there is no such run."""
    from airtcp.plot import PlotError, load_run
    from airtcp.topology import topology

    result = load_run(source, run)
    s = result.summary
    name = f"{s.get('scenario', 'run')} (seed {s.get('seed')})"
    heading = title if title is not None else f"airtcp run: {name}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta name="generator" content="{GENERATOR}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        '<nav><a href="#run">run</a><a href="#flows">flows</a><a href="#nodes">nodes</a>'
        '<a href="#series">time series</a><a href="#topology">topology</a></nav>',
        '<section id="run"><h2>Run</h2>',
        _pairs(_what_ran(result)),
        "<h3>Totals</h3>",
        _pairs(list(_flat(s.get("totals", {})).items())),
    ]
    if warnings := s.get("warnings"):
        items = "".join(
            f"<li>{html.escape(str(w.get('path')))}: {html.escape(str(w.get('message')))} "
            f"({html.escape(str(w.get('code')))})</li>"
            for w in warnings
        )
        parts.append(f'<h3>Warnings</h3><ul class="warnings">{items}</ul>')
    parts.append("</section>")

    parts.append('<section id="flows"><h2>Flows</h2>')
    parts.append(_table(s.get("flows", []), "flows-table") if s.get("flows") else "<p>none</p>")
    parts.append('</section><section id="nodes"><h2>Nodes</h2>')
    nodes = s.get("nodes", [])
    parts.append(_table(nodes, "nodes-table", skip=_mesh_columns(nodes)))
    if any(n.get("mesh") for n in nodes):
        parts.append("<h3>Mesh points</h3>")
        parts.append(_table(_mesh_rows(nodes), "mesh-table"))
    if s.get("links"):
        parts.append("<h3>Wired links</h3>")
        parts.append(_table(s["links"], "links-table"))
    parts.append("</section>")

    parts.append('<section id="series"><h2>Time series</h2>')
    blocks, missing = _series(result)
    hint = (
        "Drag to pan, the mouse wheel zooms, a double click resets. Lines of a run's traces; "
        "a dotted line marks the end of the warm-up."
    )
    parts.append(f'<p class="meta">{html.escape(hint)}</p>')
    if missing:
        sets = ", ".join(f"--set traces.{k}=true" for k in missing)
        parts.append(
            f'<p class="meta">Not recorded in this run: {html.escape(", ".join(missing))} '
            f"(rerun with {html.escape(sets)}).</p>"
        )
    parts.append('<div class="grid">' + "".join(blocks) + "</div>" if blocks else "<p>none</p>")
    parts.append('</section><section id="topology"><h2>Topology</h2>')
    try:
        fig, data = topology(result)
        caption = "nodes, ranges, links, flow paths and tracks (the note under it says more)"
        parts.append(_figure_block(fig, "topology-figure", caption))
    except PlotError as exc:
        parts.append(f"<p>{html.escape(str(exc))}</p>")
    parts.append(f"</section><script>{_SCRIPT}</script></body></html>\n")
    return "\n".join(parts)


def _mesh_columns(nodes: Sequence[Mapping[str, Any]]) -> list[str]:
    return sorted({f"mesh.{k}" for n in nodes for k in (n.get("mesh") or {})})


def _mesh_rows(nodes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for n in nodes:
        mesh = n.get("mesh")
        if not mesh:
            continue
        peers = [f"{p['peer']} (metric {p.get('metric')})" for p in mesh.get("peers", [])]
        paths = [
            f"{p['dst']} via {p['next_hop']} (metric {p.get('metric')})"
            for p in mesh.get("paths", [])
        ]
        others = {k: v for k, v in mesh.items() if k not in ("peers", "paths")}
        rows.append(
            {"name": n.get("name"), "peers": ", ".join(peers), "paths": ", ".join(paths), **others}
        )
    return rows


def write_report(
    source: str | Path | Result,
    out: str | Path,
    *,
    run: str | None = None,
    title: str | None = None,
) -> Path:
    """Write :func:`report` to ``out`` atomically (a temporary file beside it, then a rename);
    an existing ``out`` is replaced only if it is a page airtcp wrote."""
    from airtcp.result import atomic_file

    path = check_report_path(out)
    text = report(source, run=run, title=title)
    with atomic_file(path, prefix=f".{path.name}.", clean=True) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def check_report_path(out: str | Path) -> Path:
    """``out`` as a Path; ReportError unless it ends in .html and is absent or a page airtcp
    wrote (its generator meta tag)."""
    from airtcp.outpath import own_file_problem

    if Path(out).suffix.lower() not in (".html", ".htm"):
        raise ReportError(f"--out {out}: not an .html file name")
    problem = own_file_problem(out, f'content="{GENERATOR}"'.encode(), "reports")
    if problem:
        raise ReportError(problem)
    return Path(out)
