"""Warnings after a run: what a run measured, or how it was set, that its author may not have
meant, said at the end instead of passing in silence.

:func:`diagnose` reads the scenario, its world spec, the run's summary and what the run was
given (the scenario as written and its ``--set`` strings), and asks the core only what the core
alone knows (the radio model's mean link budget, ``airtcp.config.budget``). Each warning is a
dict of a short ``code``, the scenario ``path`` it concerns and a one-line ``message`` with the
numbers::

    {"code": "flow-inside-warmup", "path": "flows.0", "message": "sta1 -> server: ..."}

``airtcp.run`` puts them into ``summary["warnings"]`` (absent when there are none) and
``airtcp run`` prints them after its tables. The codes (docs/scenarios.md, "Warnings"):

- ``flow-inside-warmup``: a file transfer done, or a flow stopped, before the warm-up ended,
  so that none of it is measured;
- ``flow-measured-nothing``: a flow that delivered nothing in the measured period;
- ``idle-station``: a station, ad-hoc node or mesh point that no flow starts at, ends at or
  passes through;
- ``link-below-rate``: a radio hop of a flow whose mean SNR cannot carry the data rate: fewer
  than :data:`CARRY_SUCCESS` of its full-size data frames get through on the mean channel;
- ``knob-given-twice``: a value given twice where one silently wins: a ``--set`` key given
  again, a top-level shortcut and its table's field, a template's knob and the file's key
  that replaces what the knob set.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from airtcp.config import Scenario
    from airtcp.config.routes import Connectivity, RouteTable
    from airtcp.summary_types import Summary

__all__ = ["CARRY_SUCCESS", "CODES", "diagnose"]

CODES = (
    "flow-inside-warmup",
    "flow-measured-nothing",
    "idle-station",
    "link-below-rate",
    "knob-given-twice",
)

# A link "cannot carry its data rate" when a full-size data frame at that rate gets through
# less often than this at the link's mean SNR (no fading, nobody else on the air). Retries do
# not save it: at 10 %, 7 retries deliver half the frames, each after eight frames of airtime.
CARRY_SUCCESS = 0.1

# The roles that a flow is meant to use; an access point serves whoever associates.
_STATION_ROLES = ("sta", "adhoc", "mesh")
# At most this many names in one message.
_NAMES_SHOWN = 6


def _warning(code: str, path: str, message: str) -> dict[str, str]:
    return {"code": code, "path": path, "message": message}


def diagnose(
    scenario: Scenario,
    summary: Summary,
    given: Any = None,
    spec: Mapping[str, Any] | None = None,
) -> list[dict[str, str]]:
    """The warnings of a run of ``scenario`` whose summary is ``summary``; ``given`` is what
    the run was given (``airtcp.provenance.Given``: the scenario as written and its
    overrides), ``spec`` its world spec (default: the scenario's)."""
    run = _Run(scenario, spec if spec is not None else scenario.to_world_spec(), summary)
    overrides = getattr(given, "overrides", None)
    sets = [str(o) for o in overrides] if isinstance(overrides, list | tuple) else []

    @cache
    def data() -> Mapping[str, Any] | None:
        """The scenario as given, read again only if a check needs it (a file's text)."""
        return _as_given(given, sets)

    as_given = getattr(given, "scenario", None)
    template = isinstance(as_given, str | Mapping) and "template" in as_given
    # A template's own flows that end with its warm-up train the stack before measuring
    # (paper-002's trickle): meant, not a surprise.
    meant = template and (given_data := data()) is not None and "flows" not in given_data
    return [
        *_flow_warnings(run, warmup_flows_meant=meant),
        *_idle_stations(run),
        *_links_below_rate(run),
        *_knobs_given_twice(scenario, given, sets, data),
    ]


def _as_given(given: Any, sets: Sequence[str]) -> Mapping[str, Any] | None:
    """The scenario as the run was given it, overrides applied, before any template was
    expanded: a dict, or None if it came as a Scenario (or cannot be read again)."""
    from airtcp.config import ScenarioError
    from airtcp.config.load import apply_overrides, apply_value_overrides, loads_toml

    scenario = getattr(given, "scenario", None)
    try:
        if isinstance(scenario, str):
            data: Mapping[str, Any] = loads_toml(scenario)
        elif isinstance(scenario, Mapping):
            data = scenario
        else:
            return None
        overrides = getattr(given, "overrides", None)
        if sets:
            return apply_overrides(data, sets)
        if isinstance(overrides, Mapping):
            return apply_value_overrides(data, overrides)
        return data
    except (ScenarioError, ValueError):  # not what ran: nothing to say
        return None


class _Run:
    """What the checks share: the scenario, its world spec and summary, the scenario path of
    each node and flow, and the routes (computed when a check needs them)."""

    def __init__(self, scenario: Scenario, spec: Mapping[str, Any], summary: Summary) -> None:
        self.s, self.spec, self.summary = scenario, spec, summary
        self.nodes: list[dict[str, Any]] = list(spec.get("nodes", []))
        self.flows: list[dict[str, Any]] = list(spec.get("flows", []))
        self.names = [str(n["name"]) for n in self.nodes]
        self.generated = len(self.nodes) - len(scenario.nodes)
        self._flow_paths = _flow_paths(scenario, self.names, len(self.flows))
        self._conn: Connectivity | None = None
        self._routes: RouteTable | None = None
        # (src, dst) pairs known to be one radio hop apart, found without all the routes.
        self.direct: set[tuple[int, int]] = set()

    def node_path(self, k: int) -> str:
        """The scenario path of node ``k``: its [[nodes]] entry, or the knob that made it."""
        if k >= self.generated:
            return f"nodes.{k - self.generated}"
        return {"bss": "stations", "chain": "hops"}.get(self.s.topology, "topology")

    def flow_path(self, k: int) -> str:
        return self._flow_paths[k]

    @property
    def conn(self) -> Connectivity:
        if self._conn is None:
            from airtcp.config.budget import topology_of
            from airtcp.config.routes import connectivity

            self._conn = connectivity(topology_of(self.spec))
        return self._conn

    @property
    def routes(self) -> RouteTable:
        """The routes the run used: the core's computed ones with the explicit ones over them
        (a mesh's HWMP may choose others among equals)."""
        if self._routes is None:
            from airtcp.config.routes import RouteTable

            explicit = {(r["node"], r["dst"]): r["next_hop"] for r in self.spec.get("routes", [])}
            self._routes = RouteTable(self.conn, explicit)
        return self._routes

    def find_direct(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Of ``pairs``, those a radio hop joins, into :attr:`direct`: under the radio model
        the routes' decode test of both directions (a neighbour is the fewest hops there is),
        so that a BSS's flows need not compute every pair's routes again (2000 stations: 1.4
        s). Pairs with an explicit route, a wire, a mover or roles that do not talk are left
        to the routes."""
        from airtcp.config.budget import (
            DECODE_TEST_BYTES,
            DECODE_TEST_SUCCESS,
            band_standard,
            decode_test_mode,
            link_budgets,
            roles_talk,
            topology_of,
        )

        spec, nodes = self.spec, self.nodes
        if not spec.get("channel", {}).get("radio"):
            return
        routed = {(r["node"], r["dst"]) for r in spec.get("routes", [])}
        apart = {frozenset(p) for p in spec.get("blocked_radio_links", [])}
        apart |= {frozenset((w["a"], w["b"])) for w in spec.get("wired_links", [])}
        todo = sorted(
            (u, v)
            for u, v in set(pairs)
            if (u, v) not in routed
            and frozenset((u, v)) not in apart
            and nodes[u].get("wifi")
            and nodes[v].get("wifi")
            and not nodes[u].get("mobility")
            and not nodes[v].get("mobility")
            and roles_talk(nodes[u]["role"], nodes[v]["role"])
        )
        mode = decode_test_mode(band_standard(spec["wifi"]))
        links = [(a, b, mode, DECODE_TEST_BYTES) for u, v in todo for a, b in ((u, v), (v, u))]
        budgets = link_budgets(topology_of(spec), links, phy_header=False)
        for i, pair in enumerate(todo):
            both = budgets[2 * i : 2 * i + 2]
            if all(b["locks"] and b["success"] >= DECODE_TEST_SUCCESS for b in both):
                self.direct.add(pair)

    def path(self, src: int, dst: int) -> list[int]:
        """The nodes from ``src`` toward ``dst`` along the routes, as far as they go."""
        if (src, dst) in self.direct:
            return [src, dst]
        out, u = [src], src
        while u != dst:
            v = self.routes.get((u, dst))
            if v is None or v in out:
                break
            out.append(v)
            u = v
        return out


def _flow_paths(s: Scenario, names: list[str], n: int) -> list[str]:
    """The scenario path of each flow of the world spec: its [[flows]] entry (a glob ``src``
    gives one flow per node it matches but ``dst``), or ``flows`` for the default flows."""
    from airtcp.config.limits import _GLOB_CHARS

    if not s.flows:
        return ["flows"] * n
    out: list[str] = []
    for i, f in enumerate(s.flows):
        count = 1
        if any(c in f.src for c in _GLOB_CHARS):
            count = sum(1 for nm in names if nm != f.dst and fnmatch.fnmatchcase(nm, f.src))
        out += [f"flows.{i}"] * count
    return out if len(out) == n else ["flows"] * n


def _list(names: Sequence[str]) -> str:
    """``a, b and c``; past :data:`_NAMES_SHOWN`, ``a, b, ... and 7 more``."""
    if len(names) > _NAMES_SHOWN:
        return f"{', '.join(names[: _NAMES_SHOWN - 1])} and {len(names) - _NAMES_SHOWN + 1} more"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def _s(x: float) -> str:
    """Seconds as written in a scenario: 2, 0.5, 1.25."""
    return f"{x:g}"


# -- flows ------------------------------------------------------------------------------------


def _flow_warnings(run: _Run, warmup_flows_meant: bool) -> Iterable[dict[str, str]]:
    """Flows whose measured figures say nothing: done or stopped inside the warm-up, or that
    delivered nothing. The flows of one scenario path alike (a glob's) share one warning."""
    spec, summary = run.spec, run.summary
    warmup_ns = int(spec.get("warmup_ns", 0))
    warmup, measured = _s(warmup_ns / 1e9), _s(float(summary.get("measured_seconds", 0.0)))
    snodes = summary.get("nodes", [])
    # (code, case, path) -> [(flow label, the message about it alone)]
    found: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for k, (f, sf) in enumerate(zip(run.flows, summary.get("flows", []), strict=False)):
        label = f"{sf.get('src', run.names[f['src']])} -> {sf.get('dst', run.names[f['dst']])}"
        nested = sf.get("tcp") if isinstance(sf.get("tcp"), Mapping) else sf.get("clap")
        done = nested.get("completion_s") if isinstance(nested, Mapping) else None
        stop_ns = f.get("stop_ns")
        if f.get("file_bytes") is not None and done is not None and done * 1e9 <= warmup_ns:
            rate = sf.get("transfer_throughput_bps")
            own = "" if rate is None else f"; its own throughput: {rate / 1e6:.3f} Mbit/s"
            case, text = (
                "file",
                f"{label}: its {f['file_bytes']}-byte file was delivered at {done:.3f} s, inside "
                f"the {warmup} s warm-up (warmup_s), so its goodput counts nothing{own} "
                "(transfer_throughput_bps)",
            )
        elif stop_ns is not None and stop_ns <= warmup_ns:
            if warmup_flows_meant:
                continue
            case, text = (
                "stop",
                f"{label} stops at {_s(stop_ns / 1e9)} s, before the {warmup} s warm-up "
                "(warmup_s) ends: nothing of it is measured",
            )
        elif not sf.get("delivered_bytes") and not sf.get("delivered_packets"):
            sent = f"{sf.get('sent_packets', 0)} packets sent"
            tcp = sf.get("tcp")
            if isinstance(tcp, Mapping):
                sent = (
                    f"{tcp.get('segments_sent', 0)} segments sent, "
                    f"{tcp.get('timeouts', 0)} retransmission timeouts"
                )
            src = f["src"]
            if run.nodes[src].get("wifi") and src < len(snodes):
                mac = snodes[src].get("mac", {})
                sent += (
                    f"; {run.names[src]}'s MAC: {mac.get('mpdus_sent', 0)} data frames sent, "
                    f"{mac.get('mpdus_acked', 0)} acknowledged"
                )
            case, text = (
                "nothing",
                f"{label} delivered nothing in the {measured} s measured ({sent})",
            )
        else:
            continue
        code = "flow-measured-nothing" if case == "nothing" else "flow-inside-warmup"
        found.setdefault((code, case, run.flow_path(k)), []).append((label, text))
    several = {
        "file": f"their files were delivered inside the {warmup} s warm-up (warmup_s), so their "
        "goodput counts nothing (see transfer_throughput_bps)",
        "stop": f"they stop before the {warmup} s warm-up (warmup_s) ends: nothing of them is "
        "measured",
        "nothing": f"they delivered nothing in the {measured} s measured",
    }
    for (code, case, path), flows in found.items():
        if len(flows) == 1:
            yield _warning(code, path, flows[0][1])
        else:
            labels = [label for label, _ in flows]
            yield _warning(code, path, f"{len(flows)} flows, {_list(labels)}: {several[case]}")


# -- stations ---------------------------------------------------------------------------------


def _relays(run: _Run) -> set[int]:
    """The nodes a flow passes through: its data's path and, for TCP and CLAP, its answers'."""
    out: set[int] = set()
    for f in run.flows:
        out.update(run.path(f["src"], f["dst"])[1:-1])
        if not f["kind"].startswith("udp"):
            out.update(run.path(f["dst"], f["src"])[1:-1])
    return out


def _idle_stations(run: _Run) -> Iterable[dict[str, str]]:
    """Stations, ad-hoc nodes and mesh points that no flow starts at, ends at or passes
    through (by the routes, or by the data frames their MAC sent), grouped by scenario path."""
    ends = {f["src"] for f in run.flows} | {f["dst"] for f in run.flows}
    snodes = run.summary.get("nodes", [])
    relays: set[int] | None = None
    idle: dict[str, list[str]] = {}
    for k, n in enumerate(run.nodes):
        if n.get("role") not in _STATION_ROLES or k in ends:
            continue
        mac = snodes[k]["mac"] if k < len(snodes) else None
        if mac is not None and (mac["mpdus_sent"] or mac["attempts"]):
            continue  # it sent data frames: it relayed
        if n["role"] != "sta":  # a station talks to its access point only: never a relay
            if relays is None:
                relays = _relays(run)
            if k in relays:
                continue
        idle.setdefault(run.node_path(k), []).append(run.names[k])
    for path, names in idle.items():
        verb = "has" if len(names) == 1 else "have"
        yield _warning(
            "idle-station",
            path,
            f"{_list(names)} {verb} no traffic: no flow starts, ends or passes there",
        )


# -- links ------------------------------------------------------------------------------------


def _data_mode(wifi: Mapping[str, Any]) -> tuple[str, str] | None:
    """The data mode's name and its words (``54 Mbit/s``, ``MCS 7 (65 Mbit/s)``), or None."""
    from airtcp.config.budget import mode_name
    from airtcp.tables import mcs_modes, phy_modes

    ht = wifi.get("ht")
    if ht and wifi.get("standard") in ("80211ac", "80211ax"):
        # The VHT or HE mode of the MCS at the channel's width, streams and guard interval.
        vht = wifi["standard"] == "80211ac"
        gi: bool | int = bool(ht.get("short_gi")) if vht else int(ht.get("gi_ns") or 800)
        key = ("vht" if vht else "he", ht["mcs"], ht["channel_width_mhz"], ht.get("streams", 1), gi)
        mode = mcs_modes().get(key)
        return None if mode is None else (mode.name, f"MCS {ht['mcs']} ({mode.rate_mbps:g} Mbit/s)")
    if ht:
        name = f"HtMcs{ht['mcs']}" + ("Ht40" if ht.get("channel_width_mhz") == 40 else "")
        name += "Sgi" if ht.get("short_gi") else ""
        rate = next((m.rate_mbps for m in phy_modes() if m.name == name), None)
        return None if rate is None else (name, f"MCS {ht['mcs']} ({rate:g} Mbit/s)")
    data_rate = wifi.get("data_rate_mbps")
    plain = None if data_rate is None else mode_name(wifi["standard"], data_rate)
    return None if plain is None else (plain, f"{data_rate:g} Mbit/s")


def _psdu_bytes(flow: Mapping[str, Any], wifi: Mapping[str, Any]) -> int:
    """The MPDU of the flow's full-size data frame: the IP packet (payload, transport and IPv4
    headers), LLC/SNAP, the MAC header and the FCS (crates/airtcp-core/src/mac/frame.rs,
    ``mpdu_bytes``)."""
    kind, payload = flow["kind"], int(flow["payload_bytes"])
    if kind.startswith("tcp"):
        tcp = flow.get("tcp", {})
        ip = payload + 40 + (12 if tcp.get("timestamps", True) else 0)
        ip += 8 if tcp.get("corruption") else 0  # paper 004's CDO option
    elif kind == "clap_file":
        ip = payload + 40  # IPv4 and CLAP's 20-byte header
    else:
        ip = payload + 28  # IPv4 and UDP
    header = wifi.get("data_header_bytes") or (26 if wifi.get("access") == "edca" else 24)
    return ip + 8 + header + 4


def _carries(b: Mapping[str, Any]) -> bool:
    return bool(b["locks"]) and b["success"] >= CARRY_SUCCESS


def _links_below_rate(run: _Run) -> Iterable[dict[str, str]]:
    """The radio hops of the flows' paths whose mean budget cannot carry the data rate: the
    radio model without fading, senders at a constant rate, nodes that stand still."""
    from airtcp.config.budget import describe, link_budgets, topology_of

    spec = run.spec
    radio = spec.get("channel", {}).get("radio")
    if not radio or radio.get("fading", {}).get("kind", "none") != "none":
        return
    wifi = spec["wifi"]
    mode = _data_mode(wifi)
    if mode is None:
        return
    nodes = run.nodes
    wired = {frozenset((w["a"], w["b"])) for w in spec.get("wired_links", [])}

    def checked(u: int, v: int) -> bool:
        rc = nodes[u].get("rate_control") or wifi.get("rate_control", "constant")
        still = not nodes[u].get("mobility") and not nodes[v].get("mobility")
        return rc == "constant" and still and frozenset((u, v)) not in wired

    # Each directed hop once: the largest data frame that crosses it, the first flow that does.
    run.find_direct((f["src"], f["dst"]) for f in run.flows)
    hops: dict[tuple[int, int], tuple[int, int]] = {}
    for k, f in enumerate(run.flows):
        psdu = _psdu_bytes(f, wifi)
        path = run.path(f["src"], f["dst"])
        for u, v in zip(path, path[1:], strict=False):
            if checked(u, v):
                size, first = hops.get((u, v), (0, k))
                hops[(u, v)] = (max(size, psdu), first)
    if not hops:
        return
    topology = topology_of(spec)
    short = wifi.get("preamble") == "short"
    links = [(u, v, mode[0], size) for (u, v), (size, _) in hops.items()]
    budgets = link_budgets(topology, links, short_preamble=short)
    bad = [(link, b) for link, b in zip(links, budgets, strict=True) if not _carries(b)]
    mesh = [link for link, _ in bad if nodes[link[0]].get("role") == "mesh"]
    around = _mesh_detours(run, topology, mode[0], short, mesh) if mesh else set()
    # Hops alike (a chain's) in one warning: the same flow, distance and budget in words.
    alike: dict[tuple[str, str, str], list[str]] = {}
    for (u, v, _, size), b in bad:
        first = hops[(u, v)][1]
        if (u, v, first) in around:
            continue
        key = (
            run.flow_path(first),
            f"{b['distance_m']:.4g} m",
            describe(b, f"a {size}-byte data frame"),
        )
        alike.setdefault(key, []).append(f"{run.names[u]} -> {run.names[v]}")
    for (where, metres, budget), links_named in alike.items():
        each = " each" if len(links_named) > 1 else ""
        yield _warning(
            "link-below-rate",
            where,
            f"{_list(links_named)} ({metres}{each}) cannot carry {mode[1]}: {budget}",
        )


def _mesh_detours(
    run: _Run,
    topology: Mapping[str, Any],
    mode: str,
    short: bool,
    links: list[tuple[int, int, str, int]],
) -> set[tuple[int, int, int]]:
    """Of the mesh hops ``links`` that cannot carry the rate, those (with the first flow that
    crosses each) whose flow has another path of mesh links that can: HWMP's airtime metric
    routes around a link that fails."""
    from airtcp.config.budget import link_budgets

    blocked = {frozenset(p) for p in run.spec.get("blocked_radio_links", [])}
    carry: dict[tuple[int, int], bool] = {}

    def onward(u: int, size: int) -> list[int]:
        nbrs = [
            v
            for v in sorted(run.conn.neighbours(u))
            if run.nodes[v].get("role") == "mesh" and frozenset((u, v)) not in blocked
        ]
        todo = [(u, v, mode, size) for v in nbrs if (u, v) not in carry]
        budgets = link_budgets(topology, todo, short_preamble=short)
        for (a, b, _, _), budget in zip(todo, budgets, strict=True):
            carry[(a, b)] = _carries(budget)
        return [v for v in nbrs if carry[(u, v)]]

    out: set[tuple[int, int, int]] = set()
    for u, v, _, size in links:
        for k, f in enumerate(run.flows):
            path = run.path(f["src"], f["dst"])
            if (u, v) not in zip(path, path[1:], strict=False):
                continue
            seen, todo = {f["src"]}, [f["src"]]
            while todo and f["dst"] not in seen:
                w = todo.pop()
                for x in onward(w, size):
                    if x not in seen:
                        seen.add(x)
                        todo.append(x)
            if f["dst"] in seen:
                out.add((u, v, k))
            break  # the first flow that crosses the hop is the one reported
    return out


# -- knobs ------------------------------------------------------------------------------------

# The top-level shortcuts and the fields they replace (docs/scenarios.md, "Precedence").
_SHORTCUTS = (
    ("cc", "tcp", "cc"),
    ("recovery", "tcp", "recovery"),
    ("delayed_ack", "tcp", "delayed_ack"),
    ("min_rto_ms", "tcp", "min_rto_ms"),
    ("retry_limit", "mac", "short_retry_limit"),
    ("retry_limit", "mac", "long_retry_limit"),
)


def _knobs_given_twice(
    s: Scenario,
    given: Any,
    sets: Sequence[str],
    data: Callable[[], Mapping[str, Any] | None],
) -> Iterable[dict[str, str]]:
    yield from _sets_twice(sets)
    conflicts = [
        (short, table, name)
        for short, table, name in _SHORTCUTS
        if getattr(s, short) is not None
        and name in getattr(s, table).model_fields_set
        and getattr(getattr(s, table), name) != getattr(s, short)
    ]
    as_given = getattr(given, "scenario", None)
    template = isinstance(as_given, str | Mapping) and "template" in as_given
    if not conflicts and not template:
        return
    scenario = data()
    if scenario is None:
        return  # given as a Scenario: who set what is not known
    over = _override_paths(given, sets)
    yield from _shortcut_wins(s, conflicts, over, scenario, bool(sets))
    if "template" in scenario:
        yield from _template_knobs_replaced(scenario)


def _override_paths(given: Any, sets: Sequence[str]) -> set[tuple[str, ...]]:
    """The dotted keys the run's overrides set (``--set`` strings, or a mapping's keys)."""
    overrides = getattr(given, "overrides", None)
    keys = [o.partition("=")[0] for o in sets] if sets else []
    if isinstance(overrides, Mapping):
        keys = [str(k) for k in overrides]
    return {tuple(p.strip() for p in k.strip().split(".")) for k in keys}


def _shortcut_wins(
    s: Scenario,
    conflicts: Sequence[tuple[str, str, str]],
    over: set[tuple[str, ...]],
    data: Mapping[str, Any],
    sets_given: bool,
) -> Iterable[dict[str, str]]:
    """A table's field (``tcp.cc``) given later than its top-level shortcut (``cc``), which
    wins whatever the order: an override under a shortcut the file sets, or a file's field
    under a shortcut its template sets. (A file that sets both, or a ``--set cc=...`` over a
    file's ``[tcp] cc``, is the documented precedence.)"""
    from airtcp.config.errors import _fmt

    def layer(path: tuple[str, ...]) -> int:
        """2: an override set it; 1: the file (the scenario as given); 0: its template."""
        if any(path[: len(p)] == p for p in over):
            return 2
        return 1 if _at(data, path) is not _MISSING else 0

    for short, table, name in conflicts:
        value, sub = getattr(s, short), getattr(s, table)
        if layer((table, name)) <= layer((short,)):
            continue
        by = {2: "--set" if sets_given else "an override", 1: "the file", 0: "the template"}
        yield _warning(
            "knob-given-twice",
            f"{table}.{name}",
            f"{table}.{name} = {_fmt(getattr(sub, name))} ({by[layer((table, name))]}) is "
            f"replaced by the shortcut {short} = {_fmt(value)} ({by[layer((short,))]}): a "
            "shortcut wins over its table's field",
        )


def _sets_twice(sets: Sequence[str]) -> Iterable[dict[str, str]]:
    """A ``--set`` key given again with another value, or inside a table a later ``--set``
    replaces whole: the last one wins."""
    from airtcp.config.errors import _clip

    parsed = []
    for item in sets:
        key, sep, raw = item.partition("=")
        if sep:
            parts = tuple(p.strip() for p in key.strip().split("."))
            parsed.append((parts, ".".join(parts), raw.strip()))
    reported: set[tuple[str, ...]] = set()
    for i, (parts, key, raw) in enumerate(parsed):
        if parts in reported:
            continue
        later = parsed[i + 1 :]
        again = [r for p, _, r in later if p == parts]
        if again and any(r != raw for r in again):
            reported.add(parts)
            values = ", ".join(_clip(r, 40) for r in [raw, *again[:-1]])
            yield _warning(
                "knob-given-twice",
                key,
                f"--set {key} is given {_times(len(again) + 1)} ({values}, then "
                f"{_clip(again[-1], 40)}): the last is used",
            )
            continue
        over = [(k, r) for p, k, r in later if len(p) < len(parts) and parts[: len(p)] == p]
        if over:
            reported.add(parts)
            k, r = over[-1]
            yield _warning(
                "knob-given-twice",
                key,
                f"--set {key}={_clip(raw, 40)} is replaced by the later --set {k}={_clip(r, 40)}",
            )


_MISSING = object()


def _leaves(
    data: Mapping[str, Any], prefix: tuple[str, ...] = ()
) -> Iterable[tuple[tuple[str, ...], Any]]:
    for key, value in data.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, (*prefix, str(key)))
        else:
            yield (*prefix, str(key)), value


def _at(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, Mapping) or part not in data:
            return _MISSING
        data = data[part]
    return data


def _template_knobs_replaced(data: Mapping[str, Any]) -> Iterable[dict[str, str]]:
    """A template's knob given in the file (or by ``--set``) whose value the file's own key
    replaces: the template turned the knob into that key, and the file's wins."""
    from airtcp.config.errors import _fmt
    from airtcp.config.templates import TEMPLATES

    name = data.get("template")
    if name not in TEMPLATES:
        return
    model, build = TEMPLATES[name]
    knobs = {k: v for k, v in data.items() if k in model.model_fields}
    rest = {k: v for k, v in data.items() if k not in model.model_fields and k != "template"}
    built = build(model.model_validate(knobs), rest)
    replaced = [
        (path, value)
        for path, value in _leaves(rest)
        if _at(built, path) is not _MISSING and _at(built, path) != value
    ]
    if not replaced:
        return
    from airtcp.config.errors import ScenarioError

    for knob, knob_value in knobs.items():
        try:
            without = build(
                model.model_validate({k: v for k, v in knobs.items() if k != knob}), rest
            )
        except ScenarioError:
            continue  # another knob needs this one (mcs for rate_control constant): no probe
        for path, value in replaced:
            if _at(without, path) == _at(built, path):
                continue  # not this knob's doing
            key = ".".join(path)
            yield _warning(
                "knob-given-twice",
                knob,
                f"the knob {knob} = {_fmt(knob_value)} of template {_fmt(name)} sets {key} = "
                f"{_fmt(_at(built, path))}, but the file's {key} = {_fmt(value)} replaces it",
            )
