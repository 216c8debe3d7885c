"""Golden outputs: scenarios whose results are frozen so that a refactor can prove it changed
nothing (python/tests/test_golden.py). Each case's summary (minus wall-clock time) and its
``mac_tx``, ``tcp``, ``tcp_segments`` and ``packets`` traces are reduced to a compact record
in ``golden.json``: the summary itself (so a change shows what moved) and a SHA-256 per trace
over its columns' values.

The frozen ``events`` (scheduler events popped, a cost rather than a result) are those of
per-station grants (``mac.per_station_grants``), the path the cases were first frozen on;
contention domains give the same results with fewer events.

Regenerate only when results are meant to change, in a commit of its own that says why:

    .venv/bin/python python/tests/golden.py --update
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILE = HERE / "golden.json"
REPO = HERE.parents[1]
SEED = 7
TRACES = ("mac_tx", "tcp", "tcp_segments", "packets")
_ALL_TRACES = {name: True for name in TRACES}


def _matrix(n: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    m = [[0] * n for _ in range(n)]
    for a, b in pairs:
        m[a][b] = m[b][a] = 1
    return m


# Two stations that both reach the AP and do not hear each other (802.11b).
HIDDEN: dict[str, Any] = {
    "name": "hidden",
    "topology": "custom",
    "duration_s": 1.0,
    "standard": "80211b",
    "nodes": [
        {"name": "ap", "role": "ap"},
        {"name": "sta1", "role": "sta", "x_m": -100},
        {"name": "sta2", "role": "sta", "x_m": 100},
    ],
    "channel": {"matrix": {"rx": _matrix(3, [(0, 1), (0, 2)]), "cs": _matrix(3, [(0, 1), (0, 2)])}},
    "flows": [{"kind": "udp_saturating", "src": "sta*", "dst": "ap"}],
}

# name -> (scenario dict or example path, overrides). Short runs that still exercise what the
# name says: retries, drops, recovery, NAV, EIFS.
CASES: dict[str, tuple[str | dict[str, Any], dict[str, Any]]] = {
    "dcf-udp-5sta": (
        "examples/bss-udp-saturation.toml",
        {"stations": 5, "duration_s": 1.0, "warmup_s": 0.2},
    ),
    "edca-udp-4ac": (
        {
            "name": "edca-4ac",
            "stations": 2,
            "duration_s": 1.0,
            "mac": {"access": "edca"},
            "flows": [
                {"kind": "udp_saturating", "src": "sta1", "dst": "ap", "ac": "be"},
                {"kind": "udp_saturating", "src": "sta1", "dst": "ap", "ac": "vo"},
                {"kind": "udp_saturating", "src": "sta2", "dst": "ap", "ac": "bk"},
                {"kind": "udp_cbr", "src": "sta2", "dst": "ap", "ac": "vi", "rate_mbps": 2},
            ],
        },
        {},
    ),
    "rts-cts-nav": (
        "examples/bss-udp-saturation.toml",
        {"stations": 4, "duration_s": 1.0, "warmup_s": 0.2, "mac.rts_threshold_bytes": 500},
    ),
    "hidden-terminals": (HIDDEN, {}),
    "hidden-terminals-rts": (HIDDEN, {"name": "hidden-rts", "mac.rts_threshold_bytes": 0}),
    "ber-udp": (
        "examples/bss-udp-saturation.toml",
        {
            "stations": 2,
            "duration_s": 1.0,
            "warmup_s": 0.2,
            "channel.error": {"kind": "ber", "ber": 2e-5},
        },
    ),
    "fer-preamble-detection": (
        "examples/bss-udp-saturation.toml",
        {
            "stations": 3,
            "duration_s": 1.0,
            "warmup_s": 0.2,
            "channel.error": {"kind": "fer", "fer": 0.1},
            "channel.preamble_detection": True,
        },
    ),
    "udp-chain": ("examples/chain-udp.toml", {"duration_s": 1.0}),
    "tcp-chain": ("examples/chain-tcp.toml", {"duration_s": 2.0, "warmup_s": 0.5}),
    "bss-tcp-sack": (
        "examples/bss-tcp-bulk.toml",
        {
            "stations": 2,
            "duration_s": 2.0,
            "warmup_s": 0.5,
            "recovery": "sack",
            "cc": "cubic",
            "channel.error": {"kind": "fer", "fer": 0.05},
            "retry_limit": 1,
        },
    ),
    "wired-server-loss": (
        "examples/wired-server-tcp.toml",
        {"duration_s": 2.0, "warmup_s": 0.5, "links.0.loss": 0.01, "links.0.reverse_loss": 0.01},
    ),
    "clap": ("examples/paper-001-clap.toml", {"duration_s": 3.0, "flows.0.file_bytes": 300_000}),
    "paper-001": ("examples/paper-001.toml", {"duration_s": 3.0}),
}


def _table_digest(table: Any) -> tuple[int, str]:
    """(rows, SHA-256 of the columns' values) of an Arrow table, independent of Parquet."""
    h = hashlib.sha256()
    for name in table.column_names:
        h.update(name.encode())
        h.update(json.dumps(table.column(name).to_pylist(), sort_keys=True, default=str).encode())
    return table.num_rows, h.hexdigest()


def scenario(name: str, per_station_grants: bool = False) -> dict[str, Any]:
    """The scenario dict of case ``name``, every golden trace switched on (and, if asked, every
    station scheduling its own grant events: ``mac.per_station_grants``)."""
    from airtcp.config import apply_value_overrides, load_toml

    source, overrides = CASES[name]
    data = load_toml(REPO / source) if isinstance(source, str) else source
    extra: dict[str, Any] = {"mac.per_station_grants": True} if per_station_grants else {}
    return apply_value_overrides(data, {**overrides, **extra, "traces": _ALL_TRACES})


def record(name: str, per_station_grants: bool = False) -> dict[str, Any]:
    """The frozen record of case ``name``: its summary and one digest per trace."""
    import airtcp

    result = airtcp.run(scenario(name, per_station_grants), seed=SEED)
    summary = {k: v for k, v in result.summary.items() if k != "wall_seconds"}
    traces = {k: _table_digest(result.traces[k]) for k in TRACES if k in result.traces}
    return {
        "summary": summary,
        "traces": {k: {"rows": r, "sha256": d} for k, (r, d) in traces.items()},
    }


def records() -> dict[str, dict[str, Any]]:
    return {name: record(name, per_station_grants=True) for name in CASES}


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "python"))
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: golden.py --update   (rewrites python/tests/golden.json)")
    FILE.write_text(json.dumps(records(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {FILE.relative_to(REPO)}")
