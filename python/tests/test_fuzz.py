"""Property-based fuzzing of every way into airtcp (issue 9).

The contract: for any scenario or command line, airtcp exits 0 with a result or exits 2 with
``error: <field path>: <what>`` lines naming the field; never a Python traceback, a Rust panic
(pyo3 ``PanicException``), a hang, or a file created outside the output paths it was given.
``airtcp.run(dict)`` returns a Result or raises ScenarioError with ``<field path>: <what>``
lines; ``airtcp._core.run(spec_json, seed)`` returns or raises ValueError starting with a field
path.

Cases start from the example scenarios and world specs and mutate them (wrong types, nan, inf,
huge, negative and tiny numbers, long strings, 500-deep nesting, bytes that are not UTF-8,
unknown keys, empty lists, node names that are paths), plus odd command lines for sweep, query,
plot, analytic, validate and reproduce. Each case runs in a sandbox directory (its working
directory) in a worker process (fuzz_harness.py: a hang or a crash is a reported failure, not
a stuck test run); afterwards nothing may have appeared outside its output paths.

Modes:

- default: a few hundred cases, deterministic (``derandomize``), well under a minute;
- long: ``AIRTCP_FUZZ_LONG=1 .venv/bin/python -m pytest python/tests/test_fuzz.py -m slow``
  runs 10^5 cases (``AIRTCP_FUZZ_LONG=N`` scales the total to N); docs/validation.md
  ("Fuzzing (issue 9)") has its figures;
- survey: ``AIRTCP_FUZZ_SURVEY=FILE.jsonl`` records every violation in FILE and goes on
  instead of stopping at the first one (to list the failure classes);
  ``AIRTCP_FUZZ_STATS=FILE.jsonl`` records every case's outcome (exit status, seconds).
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import fuzz_harness as fh
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SCENARIO_FILES = sorted(p for p in EXAMPLES.glob("*.toml") if not p.name.startswith("sweep-"))

# How long one case may take before it counts as a hang [s].
TIMEOUT_S = float(os.environ.get("AIRTCP_FUZZ_TIMEOUT_S", "30"))
# The simulated time of every generated scenario, unless a case sets it [s].
SHORT_S = 0.05

_LONG = os.environ.get("AIRTCP_FUZZ_LONG", "")
LONG_TOTAL = (100_000 if _LONG.strip() in ("1", "yes", "true") else int(_LONG)) if _LONG else 0
SURVEY = os.environ.get("AIRTCP_FUZZ_SURVEY")
STATS = os.environ.get("AIRTCP_FUZZ_STATS")  # one line per case: test, result, failed, seconds


def _settings(max_examples: int) -> settings:
    return settings(
        max_examples=max_examples,
        derandomize=True,  # the same cases on every run: CI is deterministic
        database=None,
        deadline=None,
        # No shrinking: a hanging case would be retried for minutes; the cases are readable.
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )


def _long(share: int) -> settings:
    """Settings of a long-mode test that runs ``share`` of 10^5 cases (scaled)."""
    return _settings(max(1, share * LONG_TOTAL // 100_000) if LONG_TOTAL else 1)


long_mode = pytest.mark.skipif(
    not LONG_TOTAL,
    reason="long fuzzing (10^5 cases, about an hour): set AIRTCP_FUZZ_LONG=1 (docs/validation.md)",
)


# ---------------------------------------------------------------------------------------------
# The environment: one worker process, a base directory, prepared inputs


class Fuzz:
    """The worker, a base directory for sandboxes and the prepared run and store."""

    def __init__(self, base: Path, worker: fh.Worker | None) -> None:
        self.base = base
        self.worker = worker
        self.count = 0
        self.run_dir: Path | None = None  # an `airtcp run --out` directory with traces
        self.store: Path | None = None  # a sweep store
        self.run_hash = ""

    def sandbox(self) -> Sandbox:
        self.count += 1
        return Sandbox(self.base / f"c{self.count}")

    def execute(self, request: dict[str, Any], timeout_s: float = TIMEOUT_S) -> fh.Outcome:
        return fh.run_request(self.worker, request, timeout_s)


class Sandbox:
    """One case's directory: ``root/work`` is its working directory, ``root/in`` its inputs.
    Paths written as ``{SANDBOX}/...`` in a case become absolute paths in ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.work = root / "work"
        self.inputs = root / "in"
        self.work.mkdir(parents=True)
        self.inputs.mkdir()

    def subst(self, text: str) -> str:
        return text.replace("{SANDBOX}", str(self.root))

    def out_path(self, text: str) -> Path:
        """An output path of a command line, as the command resolves it (from work/)."""
        p = Path(self.subst(text))
        return p if p.is_absolute() else self.work / p

    def snapshot(self) -> dict[str, tuple[str, int, int]]:
        # The sandbox in full, and its parent and grandparent one level deep (a path that
        # escapes with "../.." lands there).
        return fh.snapshot(
            (self.root, True), (self.root.parent, False), (self.root.parent.parent, False)
        )

    def cleanup(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory) -> Iterator[Fuzz]:
    inprocess = os.environ.get("AIRTCP_FUZZ_INPROCESS") == "1"
    worker = None if inprocess else fh.Worker()
    env = Fuzz(tmp_path_factory.mktemp("fuzz"), worker)
    try:
        yield env
    finally:
        if worker is not None:
            worker.close()


@pytest.fixture(scope="module")
def prepared(fuzz: Fuzz) -> Fuzz:
    """A run directory with every trace and a small sweep store, made through the CLI."""
    if fuzz.run_dir is not None:
        return fuzz
    root = fuzz.base / "prepared"
    root.mkdir()
    (root / "tcp.toml").write_text(
        (EXAMPLES / "bss-tcp-bulk.toml").read_text(encoding="utf-8")
        + "\n[traces]\ntcp = true\ntcp_segments = true\nmac_tx = true\npackets = true\n",
        encoding="utf-8",
    )
    o = fuzz.execute(
        {
            "kind": "cli",
            "cwd": str(root),
            "args": [
                "run",
                "tcp.toml",
                "--set",
                "duration_s=0.3",
                "--set",
                "warmup_s=0",
                "--set",
                "report_interval_s=0.05",
                "--out",
                "run",
            ],
        }
    )
    assert o.exit_code == 0, o.describe()
    shutil.copy(EXAMPLES / "chain-udp.toml", root / "chain-udp.toml")
    (root / "sweep.toml").write_text(
        'base = "chain-udp.toml"\nseed = 1\nreplications = 2\n'
        "[grid]\nhops = [1, 2]\nduration_s = [0.05]\n'traces.packets' = [true]\n",
        encoding="utf-8",
    )
    o = fuzz.execute(
        {
            "kind": "cli",
            "cwd": str(root),
            "args": ["sweep", "sweep.toml", "--out", "store", "--workers", "1"],
        }
    )
    assert o.exit_code == 0, o.describe()
    fuzz.run_dir = root / "run"
    fuzz.store = root / "store"
    fuzz.run_hash = sorted(p.stem for p in fuzz.store.glob("runs/*/*.parquet"))[0]
    return fuzz


# ---------------------------------------------------------------------------------------------
# Judging a case


def judge(name: str, case: Any, problems: list[str], outcome: fh.Outcome) -> None:
    """Fail with the case and what happened; in survey mode record it and go on."""
    if STATS:
        if outcome.exit_code is not None:
            result = f"exit {outcome.exit_code}"
        elif outcome.exc_type:
            result = outcome.exc_type.rsplit(".", 1)[-1]
        else:
            result = "returned" if outcome.status == "done" else outcome.status
        with open(STATS, "a", encoding="utf-8") as out:
            first = (outcome.stderr or outcome.exc_message).strip().split("\n", 1)[0][:160]
            row = [name, result, bool(problems), round(outcome.seconds, 4), first]
            out.write(json.dumps(row) + "\n")
    if not problems:
        return
    if SURVEY:
        record = {
            "test": name,
            "problems": problems,
            "case": case,
            "outcome": outcome.describe()[:4000],
            "first_traceback_line": fh._first_traceback_line(outcome) if outcome.traceback else "",
        }
        with open(SURVEY, "a", encoding="utf-8") as fh_out:
            fh_out.write(json.dumps(record, default=repr) + "\n")
        return
    pytest.fail(
        f"{name}: the contract is broken\ncase: {_show(case)}\nproblems:\n  "
        + "\n  ".join(problems)
        + f"\noutcome: {outcome.describe()}",
        pytrace=False,
    )


def _show(case: Any) -> str:
    text = json.dumps(case, default=repr, ensure_ascii=True)
    return text if len(text) < 3000 else text[:1500] + " [...] " + text[-1000:]


def run_cli_case(
    fuzz: Fuzz,
    name: str,
    box: Sandbox,
    args: list[str],
    outputs: list[str],
    case: Any,
    *,
    expect_json: bool = False,
    timeout_s: float = TIMEOUT_S,
) -> fh.Outcome:
    """Run ``airtcp ARGS`` in ``box`` and judge it by the contract and the files it left."""
    args = [box.subst(a) for a in args]
    allowed = [box.out_path(o) for o in outputs]
    before = box.snapshot()
    outcome = fuzz.execute({"kind": "cli", "args": args, "cwd": str(box.work)}, timeout_s)
    after = box.snapshot()
    problems = fh.cli_violations(outcome, expect_json=expect_json)
    if outcome.status == "done":
        problems += fh.file_violations(before, after, allowed, outcome.exit_code)
    judge(name, {"args": args, **({"case": case} if case is not None else {})}, problems, outcome)
    if not problems:
        box.cleanup()
    return outcome


# ---------------------------------------------------------------------------------------------
# TOML text, written by hand (a writer must not refuse what we want to test)


def toml_key(key: Any) -> str:
    return toml_string(str(key))


def toml_string(s: str) -> str:
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:  # a lone surrogate has no TOML spelling
            out.append("\\uFFFD")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        text = repr(v)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v if x is not None) + "]"
    if isinstance(v, dict):
        items = [f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items() if x is not None]
        return "{" + ", ".join(items) + "}"
    if isinstance(v, bytes):
        return toml_string(v.decode("latin-1"))
    return toml_string(repr(v))


def toml_document(data: dict[str, Any]) -> str:
    """One ``key = value`` line per top-level key; tables inline (TOML 1.0)."""
    with fh.DeepRecursion():  # a 500-deep value takes more than 1000 frames to write
        return "".join(
            f"{toml_key(k)} = {toml_value(v)}\n" for k, v in data.items() if v is not None
        )


# ---------------------------------------------------------------------------------------------
# Values


def nested_list(depth: int) -> Any:
    v: Any = 1
    for _ in range(depth):
        v = [v]
    return v


def nested_dict(depth: int) -> Any:
    v: Any = 1
    for _ in range(depth):
        v = {"a": v}
    return v


DEEP = 500
U64 = 2**64
# Numbers no field can take, or that sit on the edge of one (u64 overflow, 0, -0).
ODD_NUMBERS: list[Any] = [
    math.nan,
    math.inf,
    -math.inf,
    1e300,
    -1e300,
    1e-12,
    -1e-12,
    1e-300,
    5e-324,
    U64,
    U64 - 1,
    U64 + 1,
    2**63,
    2**63 - 1,
    -(2**63) - 1,
    2**31,
    2**32,
    10**8,
    10**30,
    1e19,
    1.8446744073709552e10,  # 2^64 ns in seconds
    0,
    0.0,
    -0.0,
    -1,
    -1.5,
    1,
    0.5,
    True,
    False,
]
PATHY = [
    "../evil",
    "../../evil",
    "../../../../evil",
    "{SANDBOX}/abs-evil",
    "/",
    ".",
    "..",
    "a/b",
    "a\\b",
    "evil\0nul",
    "~",
    "-rf",
    "CON",
    "sta*",
    "n[0-3]",
    "?",
]
ODD_STRINGS: list[Any] = [
    "",
    " ",
    "x",
    "é",
    "名前",
    "\u202e",
    "💥",
    "\ufeff",
    "nan",
    "inf",
    "1e300",
    "true",
    "null",
    "x" * 300,
    "x" * 100_000,
    "ap",
    "sta1",
    "server",
    *PATHY,
]
ODD_CONTAINERS: list[Any] = [
    [],
    {},
    [1],
    [[]],
    ["a", 1, 1.5],
    {"kind": "fer"},
    {"a": 1},
    [{}],
]


def fresh(values: list[Any]) -> st.SearchStrategy[Any]:
    """One of ``values``, copied: a case may edit what it drew (a table of a shared pool would
    otherwise change for every later case, or come to contain itself)."""
    return st.sampled_from(values).map(copy.deepcopy)


def odd_value(allow_python: bool = False) -> st.SearchStrategy[Any]:
    """A value of any shape; ``allow_python`` adds values TOML cannot write (None, bytes...)."""
    deep = st.sampled_from(["deep-list", "deep-dict"]).map(
        lambda k: nested_list(DEEP) if k == "deep-list" else nested_dict(DEEP)
    )
    base = [
        st.sampled_from(ODD_NUMBERS),
        st.sampled_from(ODD_NUMBERS),
        st.sampled_from(ODD_STRINGS),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
        # Containers, 500-deep ones among them (1 in 8 of the containers).
        st.one_of(
            *[fresh(ODD_CONTAINERS) for _ in range(4)],
            *[
                st.lists(
                    st.one_of(st.integers(-3, 3), st.floats(), st.text(max_size=3)), max_size=4
                )
                for _ in range(3)
            ],
            deep,
        ),
    ]
    if allow_python:
        base.append(st.sampled_from([None, b"bytes\xff", (1, 2), frozenset({1}), 1j, object]))
    return st.one_of(*base)


# Plausible values per field name: near-valid cases reach deeper than random junk.
PLAUSIBLE: dict[str, list[Any]] = {
    "standard": ["80211a", "80211b", "80211g", "80211n", "80211A"],
    "topology": ["bss", "chain", "custom", "mesh"],
    "preamble": ["long", "short"],
    "traffic": ["udp", "tcp", "clap"],
    "cc": ["reno", "newreno", "cubic", "bic", "vegas", "veno", "westwood", "illinois", "bbr"],
    "recovery": ["tahoe", "reno", "newreno", "sack"],
    "access": ["dcf", "edca"],
    "role": ["ap", "sta", "adhoc", "host"],
    "kind": ["udp_saturating", "udp_cbr", "tcp_bulk", "tcp_file", "clap_file", "none", "fer"],
    "ac": ["be", "bk", "vi", "vo"],
    "src": ["sta1", "sta2", "ap", "n0", "n1", "server", "sta*", "*", "n[0-3]"],
    "dst": ["ap", "sta1", "n1", "n5", "server"],
    "a": ["ap", "sta1", "server", "n0"],
    "b": ["server", "ap", "sta1"],
    "node": ["sta1", "ap", "server", "n0"],
    "next_hop": ["ap", "sta1", "server", "n1"],
    "name": ["extra", "ap", "sta1", "server", "srv-2", *PATHY],
    "data_rate_mbps": [54, 11, 5.5, 6, 1, 2, 54.0000001],
    "basic_rate_mbps": [6, 1, 2, 11],
    "stations": [1, 2, 3, 10],
    "hops": [1, 2, 3],
    "payload_bytes": [1, 1500, 2268, 2269],
    "mss_bytes": [1, 536, 1460, 2244, 2245, 2256],
    "fer": [0.0, 0.5, 0.999, 1.0],
    "ber": [0.0, 1e-6, 0.5],
    "good_ms": [1e-6, 0.5, 90.0, 1e10, 0.0],
    "bad_ms": [1e-6, 10.0, 1e10],
    "loss_good": [0.0, 0.5, 1.0],
    "loss_bad": [0.0, 1.0, 1.5],
    "on_ms": [1e-6, 5.0, 0.0],
    "off_ms": [20.0, 1e10, -1.0],
    # The radio channel model and mobility (issue 11).
    "model": ["range", "radio", "ray"],
    "path_loss": ["log-distance", "friis", "two-ray"],
    "path_loss_exponent": [1.0, 2.0, 4.0, 0.5],
    "reference_loss_db": [0.0, 46.6777, 53.64, -1.0],
    "tx_power_dbm": [-50.0, 16.0206, 20.0, 61.0],
    "fading": ["none", "rayleigh", "nakagami", "rice"],
    "nakagami_m": [0.5, 2.0, 0.4],
    "coherence_ms": [0.001, 10.0, 0.0],
    "capture": [True, False],
    "tx_power_by_rate_dbm": [[[6, 20], [54, 16]], [[5.5, 20]], [[6]]],
    "mobility": [
        {"kind": "constant-velocity", "speed_mps": 5.0, "direction": "away"},
        {"kind": "constant-velocity", "speed_mps": 5.0},
        {"kind": "waypoints", "points": [[0, 1, 0, 0], [1, 30, 0, 0]]},
        {
            "kind": "random-waypoint",
            "area_m": [-20, -20, 20, 20],
            "speed_min_mps": 1,
            "speed_max_mps": 5,
        },
        {"kind": "teleport"},
    ],
    "loss": [0.0, 0.5, 0.99],
    "reverse_loss": [0.0, 0.5],
    "rate_mbps": [1.0, 10, 100, 1e-6],
    "file_bytes": [1, 1000, 100_000],
    "start_s": [0.0, 0.01, 0.04],
    "stop_s": [0.02, 0.04, 0.1],
    "report_interval_s": [0.01, 0.025, 1e-9],
    "duration_s": [0.02, 0.05],
    "warmup_s": [0.0, 0.01, 0.049],
    "retry_limit": [0, 1, 7, 31, 32],
    "short_retry_limit": [0, 3, 31],
    "long_retry_limit": [0, 3, 31],
    "cw_min": [1, 15, 32767],
    "cw_max": [1, 1023, 32767],
    "aifsn": [1, 2, 15],
    "rts_threshold_bytes": [0, 500, 65535],
    "queue_limit_packets": [1, 50, 100],
    "rx_range_m": [1.0, 250.0],
    "cs_range_m": [250.0, 550.0],
    "spacing_m": [1.0, 10.0, 250.0],
    "initial_cwnd": [1, 2, 10],
    "ack_every": [1, 2, 3],
    "min_rto_ms": [0, 200, 1000],
    "max_rto_ms": [1, 120000],
    "feedback_interval_ms": [0.001, 10, 100],
    "max_nack_ranges": [1, 16, 17],
    "queue_target_frames": [0, 2],
    "send_buffer_segments": [1, 4096],
    "matrix": [{"rx": [[0, 1], [1, 0]], "cs": [[0, 1], [1, 0]]}, {"rx": [], "cs": []}],
    "error": [
        {"kind": "fer", "fer": 0.1},
        {"kind": "ber", "ber": 1e-5},
        {"kind": "none"},
        {"kind": "gilbert", "good_ms": 90.0, "bad_ms": 10.0},
        {"kind": "interferer", "on_ms": 5.0, "off_ms": 20.0},
    ],
    "x_m": [0.0, 5.0, -3.0, 300.0],
    "y_m": [0.0, 5.0],
    "z_m": [0.0, 1.0],
    "delay_ms": [0, 1, 50],
    "initial_rto_ms": [1, 1000],
    "clock_granularity_ms": [0, 10],
    "delack_timeout_ms": [0, 40],
    "rcv_buf_bytes": [1460, 20000, 6291456],
    "snd_buf_bytes": [1460, 20000, 4194304],
    **{b: [True, False] for b in ("timestamps", "limited_transmit", "hystart", "delayed_ack")},
    **{b: [True, False] for b in ("erp_mixed", "preamble_detection", "pass_corrupt", "lnmac")},
    "data_header_bytes": [24, 26, 30, 32, 28],
    "beacon_interval_tu": [1, 100, 0, 65536],
    "arf_window_slot_ms": [0.5, 100.0, 0.0, -1.0],
    "corruption": ["off", "aggressive", "conservative", "sometimes"],
}
# Booleans of [traces], by path ("tcp" alone is the [tcp] table).
PLAUSIBLE_PATHS: dict[tuple[str | int, ...], list[Any]] = {
    ("traces", t): [True, False]
    for t in ("mac_tx", "packets", "tcp", "tcp_segments", "frames", "windows")
}


def plausible_values(path: tuple[str | int, ...]) -> list[Any] | None:
    if path in PLAUSIBLE_PATHS:
        return PLAUSIBLE_PATHS[path]
    if len(path) == 1 and path[0] in (*TABLE_FIELDS, *LIST_FIELDS):
        return None
    return PLAUSIBLE.get(str(path[-1])) if path else None


TOP_FIELDS = [
    "name",
    "topology",
    "stations",
    "hops",
    "spacing_m",
    "standard",
    "erp_mixed",
    "preamble",
    "data_rate_mbps",
    "basic_rate_mbps",
    "payload_bytes",
    "duration_s",
    "warmup_s",
    "report_interval_s",
    "traffic",
    "cc",
    "recovery",
    "delayed_ack",
    "min_rto_ms",
    "retry_limit",
]
TABLE_FIELDS = {
    "mac": [
        "access",
        "cw_min",
        "cw_max",
        "aifsn",
        "short_retry_limit",
        "long_retry_limit",
        "rts_threshold_bytes",
        "queue_limit_packets",
        "data_header_bytes",
        "beacon_interval_tu",
        "arf_window_slot_ms",
        "pass_corrupt",
        "lnmac",
    ],
    "tcp": [
        "cc",
        "recovery",
        "mss_bytes",
        "min_rto_ms",
        "max_rto_ms",
        "initial_rto_ms",
        "clock_granularity_ms",
        "timestamps",
        "limited_transmit",
        "initial_cwnd",
        "delayed_ack",
        "ack_every",
        "delack_timeout_ms",
        "rcv_buf_bytes",
        "snd_buf_bytes",
        "hystart",
        "corruption",
    ],
    "clap": [
        "mss_bytes",
        "feedback_interval_ms",
        "max_nack_ranges",
        "queue_target_frames",
        "send_buffer_segments",
    ],
    "channel": ["rx_range_m", "cs_range_m", "matrix", "error", "preamble_detection"],
    "traces": ["mac_tx", "packets", "tcp", "tcp_segments", "frames", "windows"],
}
LIST_FIELDS = {
    "nodes": ["name", "x_m", "y_m", "z_m", "role"],
    "links": ["a", "b", "rate_mbps", "delay_ms", "queue_limit_packets", "loss", "reverse_loss"],
    "routes": ["node", "dst", "next_hop"],
    "flows": [
        "kind",
        "src",
        "dst",
        "payload_bytes",
        "rate_mbps",
        "file_bytes",
        "cc",
        "recovery",
        "start_s",
        "stop_s",
        "ac",
        "report_interval_s",
    ],
}
# A plausible new entry of each list table.
TEMPLATES = {
    "nodes": {"name": "extra", "role": "sta", "x_m": 5.0},
    "links": {"a": "ap", "b": "server", "rate_mbps": 10, "delay_ms": 1},
    "routes": {"node": "sta1", "dst": "ap", "next_hop": "ap"},
    "flows": {"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1.0},
}
KNOWN_PATHS: list[tuple[str | int, ...]] = (
    [(f,) for f in TOP_FIELDS]
    + [(t, f) for t, fs in TABLE_FIELDS.items() for f in fs]
    + [
        ("channel", "error", f)
        for f in ("kind", "fer", "ber", "good_ms", "bad_ms", "loss_good", "loss_bad")
    ]
    + [("channel", "matrix", f) for f in ("rx", "cs")]
    + [(t, 0, f) for t, fs in LIST_FIELDS.items() for f in fs]
    + [(t,) for t in (*TABLE_FIELDS, *LIST_FIELDS)]
)
UNKNOWN_KEYS = ["stationz", "", " ", "é", "a.b", "💥", "x" * 300, "__class__", "0", "Stations"]

# Values a real run legitimately takes long for: a case never asks for those (it would be a
# slow run, not a bug). Values beyond what can run at all (2^64 stations, a duration past
# 2^64 ns) stay: airtcp must refuse them.
_LIMITS_MAX = {"duration_s": 1.8446744073709552e10, "stations": 10**6, "hops": 10**6}
_LIMITS_KEEP = {"duration_s": 1.0, "stations": 64, "hops": 64}


def tame(key: str, value: Any) -> Any:
    """``value`` for field ``key`` unless it asks for a long but possible run: then a small one."""
    name = key.rsplit(".", 1)[-1]
    if name not in _LIMITS_MAX or isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if math.isfinite(value) and _LIMITS_KEEP[name] < value <= _LIMITS_MAX[name]:
        return _LIMITS_KEEP[name] if name != "duration_s" else SHORT_S
    return value


def field_value(path: tuple[str | int, ...], allow_python: bool = False) -> st.SearchStrategy:
    plausible = plausible_values(path)
    strategies = [odd_value(allow_python)]
    if plausible:
        strategies = [fresh(plausible), fresh(plausible), *strategies]
    if path in [(t,) for t in LIST_FIELDS]:
        strategies.append(st.just([]))
        strategies.append(st.just([TEMPLATES[str(path[0])]]))
    return st.one_of(*strategies)


def mostly(good: list[Any], odd: list[Any], weight: int = 2) -> st.SearchStrategy[Any]:
    """One of ``good`` ``weight`` times as often as one of ``odd``: a case with one odd part
    gets past the others and reaches deeper."""
    # Distinct strategy objects: one_of counts one object given twice only once.
    return st.one_of(*[st.sampled_from(good) for _ in range(weight)], st.sampled_from(odd))


class Spoiler:
    """Draws each field of a case from its good values, except a few chosen fields (none, one
    or two) drawn from their odd values: a case with one odd field gets past the others."""

    def __init__(self, draw: Callable[..., Any], fields: list[str]) -> None:
        self.draw = draw
        # One sampled_from over the choices: hypothesis draws those about evenly (a list
        # strategy leans hard towards a few of them).
        pairs = [frozenset(p) for p in itertools.combinations(fields, 2)]
        choices = [frozenset()] * len(fields) + [frozenset({f}) for f in fields] * 2 + pairs
        self.spoilt: frozenset[str] = draw(st.sampled_from(choices))

    def __call__(self, name: str, good: list[Any], odd: list[Any]) -> Any:
        return self.draw(st.sampled_from(odd if name in self.spoilt else good))


# ---------------------------------------------------------------------------------------------
# Scenario mutations


def load_examples() -> dict[str, dict[str, Any]]:
    return {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in SCENARIO_FILES}


EXAMPLE_DATA = load_examples()


def _tables(data: Any, prefix: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Every table (dict) in ``data`` with its path, down to 8 levels (not into a 500-deep
    value a case put there)."""
    if len(prefix) > 8:
        return
    if isinstance(data, dict):
        yield prefix, data
        for k, v in data.items():
            yield from _tables(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _tables(v, (*prefix, i))


def _leaf_paths(data: dict[str, Any]) -> list[tuple]:
    paths = []
    for prefix, table in _tables(data):
        for k in table:
            paths.append((*prefix, k))
    return paths


def set_path(data: dict[str, Any], path: tuple, value: Any) -> None:
    """``data[path] = value``, creating tables, and list entries from TEMPLATES."""
    cur: Any = data
    for i, part in enumerate(path[:-1]):
        nxt = path[i + 1]
        if isinstance(cur, dict):
            if part not in cur or not isinstance(cur[part], dict | list):
                cur[part] = [] if isinstance(nxt, int) else {}
            cur = cur[part]
        elif isinstance(cur, list) and isinstance(part, int):
            while len(cur) <= part:
                cur.append(copy.deepcopy(TEMPLATES.get(str(path[i - 1]), {})))
            if not isinstance(cur[part], dict | list):
                cur[part] = {}
            cur = cur[part]
        else:
            return
    last = path[-1]
    if isinstance(cur, dict):
        cur[last] = value
    elif isinstance(cur, list) and isinstance(last, int):
        while len(cur) <= last:
            cur.append(copy.deepcopy(TEMPLATES.get(str(path[-2]) if len(path) > 1 else "", {})))
        cur[last] = value


def delete_path(data: dict[str, Any], path: tuple) -> None:
    cur: Any = data
    for part in path[:-1]:
        try:
            cur = cur[part]
        except (KeyError, IndexError, TypeError):
            return
    if isinstance(cur, dict):
        cur.pop(path[-1], None)
    elif isinstance(cur, list) and isinstance(path[-1], int) and path[-1] < len(cur):
        del cur[path[-1]]


def _dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)


@st.composite
def mutated_scenario(draw, allow_python: bool = False) -> tuple[dict[str, Any], list[str]]:
    """An example scenario with 1-3 mutations, shortened to SHORT_S; returns (data, notes)."""
    name = draw(st.sampled_from(sorted(EXAMPLE_DATA)))
    data = copy.deepcopy(EXAMPLE_DATA[name])
    notes = [f"example {name}"]
    touched: set[str] = set()
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 2, 3]))):
        op = draw(
            st.sampled_from(
                [
                    *["plausible"] * 4,
                    *["set", "set", "set-known", "set-known"],
                    *["delete", "unknown", "rename", "dup"],
                ]
            )
        )
        if op == "plausible":
            # A valid-looking value for a known field: such cases run, with varied settings.
            paths = [p for p in KNOWN_PATHS if plausible_values(p)]
            path = draw(st.sampled_from(paths))
            value = draw(fresh(plausible_values(path) or [None]))
            set_path(data, path, value)
        elif op == "set":
            path = draw(st.sampled_from(_leaf_paths(data) or [("name",)]))
            value = tame(_dotted(path), draw(field_value(path, allow_python)))
            set_path(data, path, value)
        elif op == "set-known":
            path = draw(st.sampled_from(KNOWN_PATHS))
            value = tame(_dotted(path), draw(field_value(path, allow_python)))
            set_path(data, path, value)
        elif op == "delete":
            path = draw(st.sampled_from(_leaf_paths(data) or [("name",)]))
            value = "<deleted>"
            delete_path(data, path)
        elif op == "unknown":
            tables = [p for p, _ in _tables(data)]
            prefix = draw(st.sampled_from(tables))
            key = draw(st.sampled_from(UNKNOWN_KEYS))
            path = (*prefix, key)
            value = draw(odd_value(allow_python))
            set_path(data, path, value)
        elif op == "rename":
            # A node whose name is a path, referenced by a link and a flow: pcap files and
            # trace names are built from node names.
            new = draw(st.sampled_from(PATHY + ["é", "x" * 300, "名前", "server"]))
            nodes = data.setdefault("nodes", [])
            if not isinstance(nodes, list):
                continue
            nodes.append({"name": new, "role": "host"})
            links = data.setdefault("links", [])
            if isinstance(links, list):
                links.append({"a": "ap", "b": new, "rate_mbps": 10, "delay_ms": 1})
            path, value = ("nodes", len(nodes) - 1, "name"), new
        else:  # dup: a list entry twice
            lists = [k for k in LIST_FIELDS if isinstance(data.get(k), list) and data[k]]
            if not lists:
                continue
            key = draw(st.sampled_from(lists))
            data[key].append(copy.deepcopy(data[key][0]))
            path, value = (key,), "<duplicated entry 0>"
        touched.add(str(path[0]) if path else "")
        notes.append(f"{op} {_dotted(path)} = {_brief(value)}")
    if "duration_s" not in touched:
        data["duration_s"] = SHORT_S
    if "warmup_s" not in touched and isinstance(data.get("warmup_s"), int | float):
        data["warmup_s"] = 0.0
    return data, notes


def _brief(value: Any) -> str:
    try:
        text = repr(value)
    except RecursionError:
        text = "<deep>"
    if len(text) > 80:
        depth = text[:600].count("[") + text[:600].count("{")
        return f"{text[:60]}... ({len(text)} chars{', deep' if depth > 100 else ''})"
    return text


# ---------------------------------------------------------------------------------------------
# Scenario fuzzing through airtcp.run(dict)

SCENARIO_API_EXAMPLES = 150


def check_scenario_api(
    fuzz: Fuzz, case: tuple[dict[str, Any], list[str]], seed: int, overrides
) -> None:
    data, notes = case
    box = fuzz.sandbox()
    data = json.loads(box.subst(json.dumps(data, default=repr))) if _jsonable(data) else data
    before = box.snapshot()
    request = {
        "kind": "api",
        "config": data,
        "seed": seed,
        "overrides": overrides,
        "cwd": str(box.work),
    }
    outcome = fuzz.execute(request)
    problems = fh.scenario_error_violations(outcome)
    if outcome.status == "done":
        problems += fh.file_violations(before, box.snapshot(), [], None)
    judge("scenario api", {"notes": notes, "seed": seed, "overrides": overrides}, problems, outcome)
    if not problems:
        box.cleanup()


def _jsonable(data: Any) -> bool:
    try:
        json.dumps(data, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


api_overrides = st.one_of(
    st.none(),
    st.dictionaries(
        st.sampled_from(
            ["stations", "duration_s", "mac.aifsn", "flows.0.src", "", "a..b", "x" * 50]
        ),
        odd_value(allow_python=True),
        max_size=2,
    ),
)
api_seeds = st.one_of(st.sampled_from([0, 1, U64 - 1, U64, -1, 2**63]), st.integers(0, U64 - 1))


@_settings(SCENARIO_API_EXAMPLES)
@given(case=mutated_scenario(allow_python=True), seed=api_seeds, overrides=api_overrides)
def test_scenario_api(fuzz, case, seed, overrides):
    overrides = _tame_overrides(overrides)
    check_scenario_api(fuzz, case, seed, overrides)


def _tame_overrides(overrides: dict | None) -> dict | None:
    if overrides is None:
        return None
    return {k: tame(k, v) for k, v in overrides.items()}


# ---------------------------------------------------------------------------------------------
# Scenario fuzzing through `airtcp run FILE --json [--set ...] [--out DIR] [--pcap DIR]`

SCENARIO_CLI_EXAMPLES = 150

SET_KEYS = [_dotted(p) for p in KNOWN_PATHS] + [
    "",
    ".",
    "a..b",
    "flows.99.src",
    "flows.-1.src",
    "nodes.0",
    "mac.__dict__",
    "é",
    ".".join(["a"] * DEEP),
    "stations.x",
]


@st.composite
def set_argument(draw) -> str:
    key = draw(st.sampled_from(SET_KEYS))
    kind = draw(st.sampled_from(["value", "value", "raw", "noeq"]))
    if kind == "noeq":
        return key
    if kind == "raw":
        raw = draw(
            st.sampled_from(
                [
                    "",
                    "80211b",
                    "nan",
                    "inf",
                    "-inf",
                    "1e300",
                    "1e-12",
                    "18446744073709551616",
                    "0x10",
                    "[" * DEEP + "]" * DEEP,
                    "{a = " * 50 + "1" + "}" * 50,
                    "{" * DEEP,
                    '"unterminated',
                    "a=b=c",
                    "x" * 10_000,
                    "é",
                    "{kind = 'fer', fer = 2}",
                ]
            )
        )
        return f"{key}={raw}"
    value = tame(key, draw(field_value(tuple(key.split(".")[-1:]))))
    return f"{key}={toml_value(value)}"


def prepare_output(box: Sandbox, choice: str | None, label: str) -> str | None:
    """Make the output path a case asks for; returns it as the command line gives it."""
    if choice is None:
        return None
    if choice == "existing-empty":
        (box.work / f"{label}-empty").mkdir()
        return f"{label}-empty"
    if choice == "existing-full":
        d = box.work / f"{label}-full"
        d.mkdir()
        (d / "keep.txt").write_text("the user's file\n", encoding="utf-8")
        return f"{label}-full"
    if choice == "existing-file":
        (box.work / f"{label}-file").write_text("a file\n", encoding="utf-8")
        return f"{label}-file"
    if choice == "in-scenario-dir":
        return f"../in/{label}"
    return choice if choice != "out" else label


ENCODINGS = ["utf-8", "latin-1", "garbage", "bom", "utf-16", "truncated", "nul"]


def encode_scenario(text: str, how: str, cut: int) -> bytes:
    raw = text.encode("utf-8", "surrogatepass")
    if how == "latin-1":
        return ("# café, naïve: a comment in Latin-1\n" + text).encode("latin-1", "replace")
    if how == "garbage":
        at = cut % (len(raw) + 1)
        return raw[:at] + b"\xff\xfe\xc3\x28" + raw[at:]
    if how == "bom":
        return b"\xef\xbb\xbf" + raw
    if how == "utf-16":
        return text.encode("utf-16", "surrogatepass")
    if how == "truncated":
        return raw[: cut % (len(raw) + 1)]
    if how == "nul":
        at = cut % (len(raw) + 1)
        return raw[:at] + b"\0" + raw[at:]
    return raw


@st.composite
def scenario_cli_case(draw) -> dict[str, Any]:
    data, notes = draw(mutated_scenario())
    pick = Spoiler(draw, ["encoding", "sets", "out", "pcap", "seed"])
    good_outs = [None, "out", "a/b/out", "{SANDBOX}/abs-out", "existing-empty"]
    odd_outs = ["../out-up", "existing-full", "existing-file", "in-scenario-dir"]
    return {
        "data": data,
        "notes": notes,
        "encoding": pick("encoding", ["utf-8"], ENCODINGS[-6:]),
        "cut": draw(st.integers(0, 10_000)),
        "sets": draw(st.lists(set_argument(), min_size=1, max_size=2))
        if "sets" in pick.spoilt
        else [],
        "json": draw(st.sampled_from([True, True, True, False])),
        "out": pick("out", good_outs, odd_outs),
        "pcap": pick("pcap", [None, None, None, "pcap"], odd_outs + good_outs[2:]),
        "seed": pick("seed", [None, "0", "7", str(U64 - 1)], ["-1", str(U64), "1e3"]),
    }


def check_scenario_cli(fuzz: Fuzz, case: dict[str, Any]) -> None:
    box = fuzz.sandbox()
    text = box.subst(toml_document(case["data"]))
    path = box.inputs / "scenario.toml"
    path.write_bytes(encode_scenario(text, case["encoding"], case["cut"]))
    args = ["run", "../in/scenario.toml"]
    if case["json"]:
        args.append("--json")
    for s in case["sets"]:
        args += ["--set", s]
    outputs = []
    for option in ("out", "pcap"):
        given_path = prepare_output(box, case[option], option)
        if given_path is not None:
            args += [f"--{option}", given_path]
            outputs.append(given_path)
    if case["seed"] is not None:
        args += ["--seed", case["seed"]]
    summary = {k: v for k, v in case.items() if k != "data"}
    summary["toml_chars"] = len(text)
    run_cli_case(fuzz, "airtcp run", box, args, outputs, summary, expect_json=case["json"])


@_settings(SCENARIO_CLI_EXAMPLES)
@given(case=scenario_cli_case())
def test_scenario_cli(fuzz, case):
    check_scenario_cli(fuzz, case)


def test_scenario_cli_edges(fuzz):
    """Hand-picked scenario files: deep nesting, huge numbers, path-like node names."""
    cases: list[tuple[str, list[str]]] = [
        ("deep = " + "[" * DEEP + "]" * DEEP + "\n", []),
        ("deep = " + "{a = " * DEEP + "1" + "}" * DEEP + "\n", []),
        ("stations = " + str(U64) + "\n", []),
        ("stations = 100000000\n", []),
        ("duration_s = 1e300\n", []),
        ("duration_s = 1e-12\n", []),
        ("duration_s = 0.05\nreport_interval_s = 1e-12\n", []),
        ("duration_s = 0.05\n[channel]\nrx_range_m = 1e300\n", []),
        ("duration_s = 0.05\n", ["stations=" + "[" * DEEP + "]" * DEEP]),
        ("duration_s = 0.05\n", ["stations=1e300"]),
        ("duration_s = 0.05\n", [".".join(["mac"] * DEEP) + "=1"]),
        (
            'duration_s = 0.05\n[[nodes]]\nname = "../../evil"\nrole = "host"\n'
            '[[links]]\na = "ap"\nb = "../../evil"\nrate_mbps = 10\ndelay_ms = 1\n',
            [],
        ),
    ]
    for text, sets in cases:
        box = fuzz.sandbox()
        (box.inputs / "s.toml").write_text(text, encoding="utf-8")
        args = ["run", "../in/s.toml", "--json", "--out", "out", "--pcap", "pcap"]
        for s in sets:
            args += ["--set", s]
        run_cli_case(
            fuzz,
            "airtcp run (edge)",
            box,
            args,
            ["out", "pcap"],
            {"toml": text[:200]},
            expect_json=True,
        )


# ---------------------------------------------------------------------------------------------
# The core's spec parser: airtcp._core.run(spec_json, seed)

CORE_EXAMPLES = 300


@functools.cache
def example_specs() -> dict[str, dict[str, Any]]:
    """The world specs of the example scenarios, shortened to 50 ms."""
    import airtcp

    specs = {}
    for p in SCENARIO_FILES:
        spec = json.loads(airtcp.load(p).spec_json())
        spec["duration_ns"] = 50_000_000
        spec["warmup_ns"] = 0
        specs[p.stem] = spec
    return specs


_CORE_NUMBERS: list[Any] = [
    U64,
    U64 - 1,
    U64 + 1,
    2**63,
    2**32,
    2**32 - 1,
    2**31,
    -1,
    -(2**63),
    0,
    1,
    1.5,
    -0.0,
    1e300,
    1e-300,
    10**30,
    4294967296.0,
]
# Raw JSON text for a value: what json.dumps cannot write.
_CORE_RAW = [
    "NaN",
    "Infinity",
    "-Infinity",
    '"NaN"',
    "1e400",
    "-1e400",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "-0",
    "0.0000000000000000000001",
    "[" * DEEP + "]" * DEEP,
    '{"a":' * DEEP + "1" + "}" * DEEP,
    '"' + "x" * 100_000 + '"',
    '"\\ud800"',
    "null",
    "true",
    "[]",
    "{}",
]


def _spec_paths(spec: Any, prefix: tuple = ()) -> list[tuple]:
    out = []
    if isinstance(spec, dict):
        for k, v in spec.items():
            out.append((*prefix, k))
            out += _spec_paths(v, (*prefix, k))
    elif isinstance(spec, list):
        for i, v in enumerate(spec):
            out.append((*prefix, i))
            out += _spec_paths(v, (*prefix, i))
    return out


_RAW_MARK = "@@RAW{}@@"
_TYPED_INTS = [0, 1, 2, 3, 255, 256, 65535, 2**31 - 1, 2**31, 2**32 - 1, 2**63, U64 - 1]
_TYPED_FLOATS = [0.0, 1e-300, 1e-9, 1e-6, 0.5, 1.0, 1e9, 1e15, 1e300, 1.7976931348623157e308]


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


@st.composite
def mutated_spec(draw) -> tuple[str, list[str]]:
    name = draw(st.sampled_from(sorted(example_specs())))
    spec = copy.deepcopy(example_specs()[name])
    notes = [f"example {name}"]
    raws: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = _spec_paths(spec)
        op = draw(
            st.sampled_from(
                [
                    "typed",
                    "typed",
                    "typed",
                    "set",
                    "set",
                    "raw",
                    "drop",
                    "unknown",
                    "index",
                    "empty",
                    "dup",
                ]
            )
        )
        if op == "typed":
            # A value of the right JSON type at its edge: the parser takes it, validation and
            # the simulation must cope (u32::MAX segments, 1e-300 ms, u64::MAX ns).
            leaves = [p for p in paths if _is_number(_get(spec, p))]
            if not leaves:
                continue
            path = draw(st.sampled_from(leaves))
            old_value = _get(spec, path)
            if isinstance(old_value, int):
                value = draw(st.one_of(st.sampled_from(_TYPED_INTS), st.integers(0, 64)))
            else:
                value = draw(
                    st.one_of(st.sampled_from(_TYPED_FLOATS), st.floats(0, 1e6, allow_nan=False))
                )
            if path[-1] == "duration_ns" and value > 10**8:
                value = 50_000_000
            set_path(spec, path, value)
            notes.append(f"typed {_dotted(path)} = {value!r}")
        elif op == "drop" and paths:
            path = draw(st.sampled_from(paths))
            delete_path(spec, path)
            notes.append(f"drop {_dotted(path)}")
        elif op == "unknown":
            tables = [p for p, _ in _tables(spec)]
            prefix = draw(st.sampled_from(tables))
            set_path(spec, (*prefix, "bogus"), 1)
            notes.append(f"unknown key {_dotted((*prefix, 'bogus'))}")
        elif op == "index":
            # An out-of-range node, link or flow index where an index goes.
            targets = [
                p
                for p in paths
                if p
                and p[-1] in ("src", "dst", "node", "next_hop", "a", "b")
                and p[0] in ("flows", "routes", "wired_links")
            ] or [("flows", 0, "src")]
            path = draw(st.sampled_from(targets))
            nodes = spec.get("nodes")
            n = len(nodes) if isinstance(nodes, list | dict | str) else 3
            value = draw(st.sampled_from([n, n + 1, 10**6, 2**32 - 1, 2**32, -1]))
            set_path(spec, path, value)
            notes.append(f"index {_dotted(path)} = {value}")
        elif op == "empty":
            key = draw(
                st.sampled_from(
                    ["nodes", "flows", "routes", "wired_links", "traces", "channel", "wifi"]
                )
            )
            spec[key] = [] if key in ("nodes", "flows", "routes", "wired_links") else {}
            notes.append(f"empty {key}")
        elif op == "dup":
            lists = [
                k
                for k in ("nodes", "flows", "routes", "wired_links")
                if isinstance(spec.get(k), list) and spec[k]
            ]
            if lists:
                key = draw(st.sampled_from(lists))
                spec[key].append(copy.deepcopy(spec[key][-1]))
                notes.append(f"dup {key}")
        elif paths:
            path = draw(st.sampled_from(paths))
            if op == "raw":
                raw = draw(st.sampled_from(_CORE_RAW))
                value: Any = _RAW_MARK.format(len(raws))
                raws.append(raw)
                shown = raw if len(raw) < 40 else raw[:30] + f"... ({len(raw)} chars)"
            else:
                value = draw(
                    st.one_of(
                        st.sampled_from(_CORE_NUMBERS),
                        st.integers(-(2**70), 2**70),
                        st.floats(allow_nan=False, allow_infinity=False),
                        st.sampled_from(["", "x", "1", "dcf", "80211b", "x" * 5000]),
                        st.sampled_from([[], {}, [1, 2, 3], None, True, False, [0.0, 0.0]]),
                    )
                )
                if (
                    path[-1] == "duration_ns"
                    and isinstance(value, int)
                    and not isinstance(value, bool)
                ):
                    value = value if not 10**8 < value < U64 else 50_000_000  # a long, valid run
                shown = _brief(value)
            set_path(spec, path, value)
            notes.append(f"{op} {_dotted(path)} = {shown}")
    text = json.dumps(spec, separators=(",", ":"))
    for i, raw in enumerate(raws):
        text = text.replace(json.dumps(_RAW_MARK.format(i)), raw)
    whole = draw(st.sampled_from([None] * 12 + ["truncate", "empty", "array", "garbage"]))
    if whole == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif whole == "empty":
        text = ""
    elif whole == "array":
        text = f"[{text}]"
    elif whole == "garbage":
        text = text + "}}"
    if whole:
        notes.append(f"whole text: {whole}")
    return text, notes


def check_core(fuzz: Fuzz, spec_json: str, notes: list[str], seed: int) -> None:
    box = fuzz.sandbox()
    before = box.snapshot()
    outcome = fuzz.execute(
        {"kind": "core", "spec_json": spec_json, "seed": seed, "cwd": str(box.work)}
    )
    problems = fh.core_violations(outcome)
    if outcome.status == "done":
        problems += fh.file_violations(before, box.snapshot(), [], None)
    judge(
        "core spec", {"notes": notes, "seed": seed, "spec_chars": len(spec_json)}, problems, outcome
    )
    if not problems:
        box.cleanup()


@_settings(CORE_EXAMPLES)
@given(case=mutated_spec(), seed=st.integers(0, U64 - 1))
def test_core_spec(fuzz, case, seed):
    check_core(fuzz, case[0], case[1], seed)


# ---------------------------------------------------------------------------------------------
# airtcp sweep

SWEEP_EXAMPLES = 16

GRID_VALUES: list[Any] = [
    [1, 2],
    [3],
    5,
    "x",
    [],
    {"start": math.nan, "stop": 1},
    {"start": 0, "stop": math.inf},
    {"start": 0, "stop": 1e300, "step": 1},
    {"start": 0, "stop": 10, "step": 1e-12},
    {"start": 0, "stop": 1, "step": 0},
    {"start": 0, "stop": 1, "step": -1},
    {"start": True, "stop": 2},
    {"start": 1, "stop": 2, "extra": 1},
    {"stop": 3},
    {"start": 1, "stop": 3},
    {"start": 0.01, "stop": 0.03, "step": 0.01},
    nested_list(DEEP),
    [math.nan],
    [1e300],
    [U64],
]
GRID_KEYS = [
    "hops",
    "retry_limit",
    "cc",
    "duration_s",
    "mac.short_retry_limit",
    "",
    "a..b",
    "flows.9.src",
    "traces.tcp",
    "stations",
    "x" * 200,
]


@st.composite
def sweep_case(draw) -> dict[str, Any]:
    pick = Spoiler(draw, ["base", "grid", "zip", "replications", "seed", "unknown", "out"])
    grid = {}
    for _ in range(draw(st.integers(0, 2))):
        if "grid" in pick.spoilt:
            grid[draw(st.sampled_from(GRID_KEYS))] = draw(st.sampled_from(GRID_VALUES))
        else:
            key, values = draw(st.sampled_from(GOOD_GRID))
            grid[key] = values
    zips = pick(
        "zip",
        [None, [{"retry_limit": [1, 2], "cc": ["reno", "cubic"]}]],
        [
            [],
            [{"cc": []}],
            [{"cc": ["cubic"], "recovery": ["reno", "sack"]}],
            [{"hops": [1, 2]}],  # hops may be in the grid too
            [5],
            [{}],
        ],
    )
    return {
        "base": pick(
            "base",
            ["good", "inline", "abs"],
            ["missing", "dir", "invalid", "latin-1", "int", "absent", "empty", "deep"],
        ),
        "grid": grid,
        "zip": zips,
        "replications": pick("replications", [None, 1, 2], [0, -1, True, 10**8, 1.5, "3", U64]),
        "seed": pick("seed", [None, 0, 7], [-1, 2**63, U64, 1.5, "x", True]),
        "unknown": pick("unknown", [None], ["bogus"]),
        "workers": draw(st.sampled_from(["1", "1", "1", "1", "2", "0"])),
        "out": pick("out", ["store", "{SANDBOX}/abs-store"], ["existing-full", "existing-file"]),
    }


# Axes a sweep of TINY_BASE takes.
GOOD_GRID: list[tuple[str, Any]] = [
    ("hops", [1, 2]),
    ("retry_limit", [0, 3]),
    ("cc", ["reno", "cubic"]),
    ("duration_s", [0.02]),
    ("mac.short_retry_limit", {"start": 1, "stop": 3}),
    ("traces.tcp", [True]),
]

TINY_BASE = (
    'topology = "chain"\nhops = 1\nduration_s = 0.02\nstandard = "80211g"\ntraffic = "tcp"\n'
    "[channel]\nrx_range_m = 250.0\n"
)


def _tame_grid(grid: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in grid.items():
        if isinstance(v, list):
            v = [tame(k, x) for x in v]
        out[k] = v
    return out


def check_sweep(fuzz: Fuzz, case: dict[str, Any]) -> None:
    box = fuzz.sandbox()
    doc: dict[str, Any] = {}
    base = case["base"]
    (box.inputs / "base.toml").write_text(TINY_BASE, encoding="utf-8")
    if base == "good":
        doc["base"] = "base.toml"
    elif base == "missing":
        doc["base"] = "nope.toml"
    elif base == "dir":
        doc["base"] = "."
    elif base == "invalid":
        (box.inputs / "bad.toml").write_text('stations = "unterminated\n', encoding="utf-8")
        doc["base"] = "bad.toml"
    elif base == "latin-1":
        (box.inputs / "latin.toml").write_bytes('name = "café"\n'.encode("latin-1"))
        doc["base"] = "latin.toml"
    elif base == "inline":
        doc["base"] = tomllib.loads(TINY_BASE)
    elif base == "int":
        doc["base"] = 5
    elif base == "empty":
        doc["base"] = ""
    elif base == "abs":
        doc["base"] = box.subst("{SANDBOX}/in/base.toml")
    elif base == "deep":
        doc["base"] = nested_dict(DEEP)
    for key in ("replications", "seed"):
        if case[key] is not None:
            doc[key] = case[key]
    if case["unknown"]:
        doc[case["unknown"]] = 1
    if case["grid"]:
        doc["grid"] = _tame_grid(case["grid"])
    if case["zip"] is not None:
        doc["zip"] = case["zip"]
    (box.inputs / "sweep.toml").write_text(toml_document(doc), encoding="utf-8")
    out = prepare_output(box, case["out"], "store")
    assert out is not None
    args = ["sweep", "../in/sweep.toml", "--out", out, "--workers", case["workers"]]
    run_cli_case(fuzz, "airtcp sweep", box, args, [out], case, timeout_s=max(TIMEOUT_S, 60))


@_settings(SWEEP_EXAMPLES)
@given(case=sweep_case())
def test_sweep_cli(fuzz, case):
    check_sweep(fuzz, case)


@pytest.mark.parametrize(
    "edit",
    [
        {"replications": 10**8},
        {"replications": True},
        {"grid": {"hops": {"start": 1, "stop": math.inf}}},
        {"grid": {"hops": {"start": 1, "stop": 2, "step": 1e-12}}},
        {"grid": {"hops": [1, 2]}, "zip": [{"hops": [1, 2]}]},
        {"zip": [{"cc": []}]},
        {"grid": {"hops": 5}},
        {"workers": "256"},
    ],
    ids=lambda e: _brief(e)[:40],
)
def test_sweep_cli_edges(fuzz, edit):
    case = {
        "base": "good",
        "grid": {},
        "zip": None,
        "replications": None,
        "seed": None,
        "unknown": None,
        "workers": "1",
        "out": "store",
    }
    case.update(edit)
    check_sweep(fuzz, case)


# ---------------------------------------------------------------------------------------------
# airtcp query

QUERY_EXAMPLES = 30

SQL = [
    "",
    " ",
    ";",
    "SELECT",
    "SELECT count(*) FROM runs",
    'SELECT "param.hops", avg("totals.goodput_bps") FROM runs GROUP BY ALL',
    "SELECT * FROM runs",
    "SELECT * FROM packets LIMIT 3",
    "SELECT 1/0",
    "SELECT 'é', '💥', repeat('x', 100000)",
    "SELECT * FROM nope",
    "SELECT 1; SELECT 2",
    "SELECT " + "(" * DEEP + "1" + ")" * DEEP,
    "COPY (SELECT 1) TO 'evil.csv'",
    "COPY (SELECT 1) TO '../evil.csv'",
    "ATTACH 'evil.db' AS e",
    "EXPORT DATABASE 'evil-export'",
    "CREATE TABLE t AS SELECT 42",
    "PRAGMA version",
    "SELECT cast('nan' AS double), cast('inf' AS double), 18446744073709551615::UBIGINT",
    "SELECT [1, 2], {'a': 1}, 'a'::BLOB",
]


@st.composite
def query_case(draw) -> dict[str, Any]:
    pick = Spoiler(draw, ["store", "sql"])
    return {
        "store": pick(
            "store",
            ["good"],
            ["truncated", "garbage", "empty-dir", "missing", "file", "empty-runs", "run-dir"],
        ),
        "sql": draw(st.text(max_size=30).filter(lambda s: "\0" not in s))
        if "sql" in pick.spoilt and draw(st.booleans())
        else pick("sql", SQL[4:8], SQL[:4] + SQL[8:]),
        "json": draw(st.booleans()),
    }


def _make_store(fuzz: Fuzz, box: Sandbox, kind: str) -> str:
    """A store of the kind a case asks for, inside the sandbox; returns its path from work/."""
    assert fuzz.store is not None and fuzz.run_dir is not None
    target = box.work / "store"
    if kind in ("good", "truncated", "garbage"):
        shutil.copytree(fuzz.store, target)
        files = sorted(target.glob("runs/*/*.parquet"))
        if kind == "truncated":
            data = files[0].read_bytes()
            files[0].write_bytes(data[: len(data) // 2])
        elif kind == "garbage":
            (files[0].parent / "0000.parquet").write_bytes(b"PAR1 not really\xff\x00")
    elif kind == "empty-dir":
        target.mkdir()
    elif kind == "file":
        target.write_text("not a store\n", encoding="utf-8")
    elif kind == "empty-runs":
        (target / "runs").mkdir(parents=True)
    elif kind == "run-dir":
        shutil.copytree(fuzz.run_dir, target)
    return "store"


def check_query(fuzz: Fuzz, case: dict[str, Any]) -> None:
    box = fuzz.sandbox()
    store = _make_store(fuzz, box, case["store"])
    args = ["query", store, case["sql"]] + (["--json"] if case["json"] else [])
    run_cli_case(fuzz, "airtcp query", box, args, [], case)


@_settings(QUERY_EXAMPLES)
@given(case=query_case())
def test_query_cli(prepared, case):
    check_query(prepared, case)


# ---------------------------------------------------------------------------------------------
# airtcp plot trace | metric | sequence

PLOT_EXAMPLES = 20

ODD_FLOATS = ["1e-12", "1e-9", "0", "-1", "nan", "inf", "-inf", "1e300", "0.01", "0.1"]
FIG_OUTS = [
    "fig.png",
    "fig.svg",
    "fig.pdf",
    "fig.txt",
    "noext",
    "sub/dir/fig.png",
    "../fig-up.png",
    "{SANDBOX}/abs-fig.png",
    "existing-full/fig.png",
]


@st.composite
def plot_case(draw) -> dict[str, Any]:
    what = draw(st.sampled_from(["trace", "trace", "trace", "metric", "metric", "sequence"]))
    fields = {
        "trace": ["out", "source", "run", "kind", "y", "flow", "bin_s"],
        "metric": ["out", "source", "run", "x", "y", "group", "where", "ci"],
        "sequence": ["out", "source", "run", "from", "to", "flow"],
    }[what]
    pick = Spoiler(draw, fields)
    case: dict[str, Any] = {
        "what": what,
        "out": pick("out", FIG_OUTS[:3], FIG_OUTS[3:]),
        "source": pick(
            "source",
            ["store"] if what == "metric" else ["run"],
            ["store", "missing", "empty-dir", "truncated", "run"],
        ),
        "run": pick("run", [None], ["good", "", "zz", "%", "'; --"]),
    }
    if what == "trace":
        kind = pick("kind", list(TRACE_YS), ["frames", "", "x" * 200])
        case["kind"] = kind
        case["y"] = pick("y", [None, *TRACE_YS.get(kind, [])], ["nope", "", "cwnd", "delay"])
        case["flow"] = pick(
            "flow", [None] if kind == "mac_tx" else [None, "0"], ["1", "-1", str(U64)]
        )
        case["bin_s"] = pick("bin_s", [None, "0.01", "0.05"], ODD_FLOATS)
    elif what == "metric":
        odd_columns = ["param.nope", "", "'", '"', "summary.flows.0.goodput_bps", "flows.99.x"]
        case["x"] = pick("x", ["param.hops"], ["totals.goodput_bps", "events", *odd_columns])
        case["y"] = pick("y", ["totals.goodput_bps", "flows.0.goodput_bps"], odd_columns)
        case["group"] = pick("group", [None], ["param.hops", "replication", "nope"])
        case["where"] = pick(
            "where",
            [None, '"param.hops" = 1'],
            ["1=1", "nope", "1/0", "'; COPY (SELECT 1) TO 'evil.csv'; --"],
        )
        case["ci"] = pick("ci", [None, "0.95"], ["0", "1", "nan", "inf", "-1", "1e-12"])
        case["pool"] = draw(st.booleans())
    else:
        # A short window: quick to draw.
        case["from"] = pick("from", ["0.1", "0.2"], ODD_FLOATS)
        case["to"] = pick("to", ["0.11", "0.205"], ODD_FLOATS)
        case["flow"] = pick("flow", [None, "0"], ["1", "-1", str(U64)])
    return case


# What `airtcp plot trace --kind K --y Y` draws (docs/plots.md).
TRACE_YS = {
    "tcp": ["cwnd", "ssthresh", "rtt", "rto", "in_flight_bytes"],
    "tcp_segments": ["goodput", "sent", "retransmit", "dupack", "timeout"],
    "packets": ["goodput", "delay"],
    "mac_tx": ["airtime", "throughput"],
    "interval": ["goodput"],
}


def check_plot(fuzz: Fuzz, case: dict[str, Any]) -> None:
    box = fuzz.sandbox()
    assert fuzz.run_dir is not None
    src = case["source"]
    if src == "run":
        shutil.copytree(fuzz.run_dir, box.work / "src")
    elif src == "store":
        shutil.copytree(fuzz.store, box.work / "src")  # type: ignore[arg-type]
    elif src == "truncated":
        _make_store(fuzz, box, "truncated")
        (box.work / "store").rename(box.work / "src")
    elif src == "empty-dir":
        (box.work / "src").mkdir()
    if case["out"].startswith("existing-full"):
        prepare_output(box, "existing-full", "existing")
    args = ["plot", case["what"], "src", "--out", case["out"]]
    if case["run"] is not None:
        args += ["--run", fuzz.run_hash[:8] if case["run"] == "good" else case["run"]]
    if case["what"] == "trace":
        args += ["--kind", case["kind"]]
        for opt in ("y", "flow", "bin_s"):
            if case[opt] is not None:
                args += [f"--{opt.replace('_', '-')}", case[opt]]
    elif case["what"] == "metric":
        args += ["--x", case["x"], "--y", case["y"]]
        for opt in ("group", "where", "ci"):
            if case[opt] is not None:
                args += [f"--{opt}", case[opt]]
        if case["pool"]:
            args.append("--pool")
    else:
        args += ["--from", case["from"], "--to", case["to"]]
        if case["flow"] is not None:
            args += ["--flow", case["flow"]]
    run_cli_case(fuzz, f"airtcp plot {case['what']}", box, args, [case["out"]], case)


@_settings(PLOT_EXAMPLES)
@given(case=plot_case())
def test_plot_cli(prepared, case):
    check_plot(prepared, case)


@pytest.mark.parametrize(
    "args",
    [
        ["trace", "--kind", "tcp_segments", "--bin-s", "1e-12"],
        ["trace", "--kind", "mac_tx", "--bin-s", "1e-9"],
        ["trace", "--kind", "packets", "--bin-s", "inf"],
        ["sequence", "--from", "0", "--to", "inf"],
        ["sequence", "--from", "nan", "--to", "0.1"],
        ["sequence", "--from", "0", "--to", "1e300"],
    ],
    ids=" ".join,
)
def test_plot_cli_edges(prepared, args):
    box = prepared.sandbox()
    shutil.copytree(prepared.run_dir, box.work / "src")  # type: ignore[arg-type]
    full = ["plot", args[0], "src", "--out", "fig.png", *args[1:]]
    run_cli_case(prepared, "airtcp plot (edge)", box, full, ["fig.png"], None)


# ---------------------------------------------------------------------------------------------
# airtcp analytic bianchi | tmt

ANALYTIC_EXAMPLES = 60

_RATES = [
    None,
    "54",
    "11",
    "5.5",
    "6",
    "1",
    "nan",
    "inf",
    "-1",
    "0",
    "1e300",
    "1e-12",
    "54.0000001",
]


@st.composite
def analytic_case(draw) -> list[str]:
    model = draw(st.sampled_from(["bianchi", "tmt"]))
    args = ["analytic", model]
    if model == "bianchi":
        args += [
            "--stations",
            draw(st.sampled_from(["1", "10", "0", "-1", "100000000", str(U64), "50"])),
        ]
        args += ["--retry-limit", draw(st.sampled_from(["6", "0", "-1", "31", "32", "100000000"]))]
        args += ["--collision", draw(st.sampled_from(["eifs", "difs", "x"]))]
    args += [
        "--standard",
        draw(st.sampled_from(["80211a", "80211b", "80211g", "", "80211n", "x" * 1000])),
    ]
    for opt in ("--data-rate-mbps", "--basic-rate-mbps"):
        v = draw(st.sampled_from(_RATES))
        if v is not None:
            args += [opt, v]
    v = draw(
        st.sampled_from([None, "1500", "0", "-1", "1", "2268", "2269", "1000000000", str(U64)])
    )
    if v is not None:
        args += ["--payload-bytes", v]
    args += ["--preamble", draw(st.sampled_from(["long", "short", "x"]))]
    args += ["--access", draw(st.sampled_from(["dcf", "edca", "x"]))]
    if draw(st.booleans()):
        args.append("--erp-mixed")
    if model == "tmt" and draw(st.booleans()):
        args.append("--rts-cts")
    if draw(st.booleans()):
        args.append("--json")
    return args


@_settings(ANALYTIC_EXAMPLES)
@given(args=analytic_case())
def test_analytic_cli(fuzz, args):
    box = fuzz.sandbox()
    run_cli_case(fuzz, "airtcp analytic", box, args, [], None)


# ---------------------------------------------------------------------------------------------
# airtcp validate and reproduce: expensive, a few cases each


@pytest.mark.parametrize(
    ("duration", "seeds", "out"),
    [
        ("nan", "1", "val"),
        ("inf", "1", "val"),
        ("-inf", "1", "val"),
        ("1e-12", "1", "val"),
        ("1e12", "1", "val"),
        ("1e300", "1", "val"),
        ("0", "1", "val"),
        ("0.1", "0", "val"),
        ("0.1", "-1", "val"),
        ("0.1", "1", "existing-full"),
        ("0.1", "1", "existing-file"),
        ("0.1", "1", "{SANDBOX}/abs-val"),
    ],
)
def test_validate_cli(fuzz, duration, seeds, out):
    box = fuzz.sandbox()
    given_out = prepare_output(box, out, "val") or "val"
    args = ["validate", "--duration-s", duration, "--seeds", seeds, "--out", given_out]
    run_cli_case(
        fuzz, "airtcp validate", box, args, [given_out], None, timeout_s=max(TIMEOUT_S, 120)
    )


@pytest.mark.parametrize("paper", ["999", "", "../../x", "paper-", "001 002", "x" * 300, "-1"])
def test_reproduce_cli(fuzz, paper):
    box = fuzz.sandbox()
    args = ["reproduce", paper, "--out", "rep", "--quick"]
    run_cli_case(fuzz, "airtcp reproduce", box, args, ["rep"], None)


# ---------------------------------------------------------------------------------------------
# Any command line: tokens thrown together (usage errors must stay usage errors)

SOUP_EXAMPLES = 40

SOUP_TOKENS = [
    "run",
    "query",
    "plot",
    "trace",
    "metric",
    "sequence",
    "analytic",
    "bianchi",
    "tmt",
    "--help",
    "--version",
    "--json",
    "--out",
    "--set",
    "--seed",
    "--kind",
    "--x",
    "--y",
    "--stations",
    "--standard",
    "s.toml",
    "missing.toml",
    "out",
    "fig.png",
    "1",
    "-1",
    "nan",
    "stations=2",
    "=",
    "",
    "é",
    "--",
    "-",
]


@_settings(SOUP_EXAMPLES)
@given(tokens=st.lists(st.sampled_from(SOUP_TOKENS), min_size=1, max_size=6))
def test_command_soup(fuzz, tokens):
    if tokens[0] not in ("run", "query", "plot", "analytic", "--help", "--version"):
        tokens = ["run", *tokens]
    box = fuzz.sandbox()
    (box.work / "s.toml").write_text("duration_s = 0.02\n", encoding="utf-8")
    # Any path the soup names may be written (--out out, --out fig.png, ...).
    outputs = [t for t in set(tokens) if t and not t.startswith("-") and t not in SOUP_TOKENS[:9]]
    run_cli_case(fuzz, "airtcp (soup)", box, tokens, outputs or ["out"], None)


# ---------------------------------------------------------------------------------------------
# The real entry point: the `airtcp` script in a subprocess


def _airtcp_script() -> list[str]:
    script = Path(sys.executable).parent / "airtcp"
    return (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "from airtcp.cli import main; main()"]
    )


@pytest.mark.parametrize(
    ("args", "files", "outputs"),
    [
        (
            ["run", "s.toml", "--json", "--set", "duration_s=0.02", "--out", "out"],
            {"s.toml": b"stations = 2\n"},
            ["out"],
        ),
        (["run", "s.toml", "--json"], {"s.toml": 'name = "caf\xe9"\n'.encode("latin-1")}, []),
        (
            ["run", "s.toml", "--set", "stations=" + "[" * DEEP + "]" * DEEP],
            {"s.toml": b"duration_s = 0.02\n"},
            [],
        ),
        (["run", "s.toml", "--set", "duration_s=1e300"], {"s.toml": b""}, []),
        (["analytic", "tmt", "--standard", "80211b", "--payload-bytes", "0"], {}, []),
        (["query", "missing", ""], {}, []),
    ],
    ids=["run-out", "run-latin-1", "set-deep", "set-1e300", "tmt-payload-0", "query-empty-sql"],
)
def test_real_entry_point(fuzz, args, files, outputs):
    box = fuzz.sandbox()
    for name, data in files.items():
        (box.work / name).write_bytes(data)
    before = box.snapshot()
    env = dict(os.environ, COLUMNS="160", MPLBACKEND="Agg")
    try:
        proc = subprocess.run(
            [*_airtcp_script(), *args],
            cwd=box.work,
            capture_output=True,
            timeout=max(TIMEOUT_S, 60),
            env=env,
            check=False,
        )
        outcome = fh.Outcome(
            status="done",
            exit_code=proc.returncode,
            stdout=proc.stdout.decode("utf-8", "replace"),
            stderr=proc.stderr.decode("utf-8", "replace"),
        )
    except subprocess.TimeoutExpired:
        outcome = fh.Outcome(status="hang", detail="the airtcp process did not end")
    problems = fh.cli_violations(outcome, expect_json="--json" in args)
    if outcome.status == "done":
        problems += fh.file_violations(
            before, box.snapshot(), [box.work / o for o in outputs], outcome.exit_code
        )
    judge("airtcp (subprocess)", {"args": [a[:200] for a in args]}, problems, outcome)


# ---------------------------------------------------------------------------------------------
# Long mode: 10^5 cases in all (run by hand; docs/validation.md "Fuzzing (issue 9)")

_LONG_SHARES = {
    "core": 40_000,
    "api": 25_000,
    "cli": 20_000,
    "analytic": 8_000,
    "query": 3_000,
    "sweep": 2_000,
    "plot": 2_000,
}
assert sum(_LONG_SHARES.values()) == 100_000


def _long_test(share: str, strategy: st.SearchStrategy, body: Callable[..., None]):
    @pytest.mark.slow
    @long_mode
    @_long(_LONG_SHARES[share])
    @given(case=strategy)
    def test(prepared, case):
        body(prepared, case)

    test.__name__ = f"test_long_{share}"
    return test


test_long_core = _long_test(
    "core",
    st.tuples(mutated_spec(), st.integers(0, U64 - 1)),
    lambda f, c: check_core(f, c[0][0], c[0][1], c[1]),
)
test_long_api = _long_test(
    "api",
    st.tuples(mutated_scenario(allow_python=True), api_seeds, api_overrides),
    lambda f, c: check_scenario_api(f, c[0], c[1], _tame_overrides(c[2])),
)
test_long_cli = _long_test("cli", scenario_cli_case(), check_scenario_cli)
test_long_analytic = _long_test(
    "analytic",
    analytic_case(),
    lambda f, args: run_cli_case(f, "airtcp analytic", f.sandbox(), args, [], None),
)
test_long_query = _long_test("query", query_case(), check_query)
test_long_sweep = _long_test("sweep", sweep_case(), check_sweep)
test_long_plot = _long_test("plot", plot_case(), check_plot)
