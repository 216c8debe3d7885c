"""The run summary's types (airtcp/summary_types.py), generated from the core's summary schema
by ``python -m airtcp.typegen``: the checked-in file is the one the built core makes, and real
runs' summaries have exactly the keys the types allow, of the types they say, recursively."""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import golden
import jsonschema
import pytest

import airtcp
from airtcp import _core, summary_types, typegen
from airtcp.result import RunSummary
from airtcp.summary_types import MacSummary, Summary, Totals

REPO = Path(__file__).resolve().parents[2]


def test_the_checked_in_types_are_those_the_core_schema_makes():
    stale = typegen.TARGET.read_text(encoding="utf-8") != typegen.current()
    assert not stale, f"python/airtcp/summary_types.py is stale: run {typegen.COMMAND}"


def test_the_schema_is_valid_and_keys_left_out_when_empty_are_not_required():
    schema = json.loads(_core.summary_schema())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert MacSummary.__optional_keys__ == {
        "bar_attempts",
        "bar_failures",
        "rx_payload_only",
        "rx_corrupt_up",
        "lnmac_notifications",
        "drops_qdisc",
        "drops_codel",
        "ecn_marks_codel",
        "mean_data_rate_mbps",
    }
    assert Summary.__required_keys__ == set(schema["required"]) == set(schema["properties"])


def test_the_generator_refuses_a_shape_it_does_not_know():
    schema = {"type": "object", "properties": {"x": {"type": "object"}}, "required": ["x"]}
    with pytest.raises(typegen.SchemaError, match="x: no Python type"):
        typegen.render(schema)


def _fits(value: Any, hint: Any, path: str, seen: set[tuple[str, str]] | None = None) -> None:
    """Assert that ``value`` is of the type ``hint``: a TypedDict's required keys present and
    no other keys than its own, recursively. Adds (TypedDict, key) of each key found to
    ``seen``."""
    seen = set() if seen is None else seen
    origin = get_origin(hint)
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        hints = get_type_hints(hint, include_extras=True)
        # NotRequired read from the hints: a TypedDict written under `from __future__ import
        # annotations` reports it wrongly in __optional_keys__ on Python 3.11.
        required = {k for k, h in hints.items() if get_origin(h) is not NotRequired}
        assert not (missing := required - value.keys()), f"{path}: missing {sorted(missing)}"
        assert not (extra := value.keys() - hints.keys()), f"{path}: unknown keys {sorted(extra)}"
        for key, item in value.items():
            seen.add((hint.__name__, key))
            sub = hints[key]
            sub = get_args(sub)[0] if get_origin(sub) is NotRequired else sub
            _fits(item, sub, f"{path}.{key}", seen)
    elif origin is list:
        assert isinstance(value, list), f"{path}: {value!r} is not a list"
        for i, item in enumerate(value):
            _fits(item, get_args(hint)[0], f"{path}.{i}", seen)
    elif origin is dict:
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        for key, item in value.items():
            _fits(item, get_args(hint)[1], f"{path}.{key}", seen)
    elif origin in (Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            try:
                return _fits(value, option, path, seen)
            except AssertionError as exc:
                errors.append(str(exc))
        raise AssertionError(f"{path}: {value!r} fits none of {hint}: {errors}")
    elif origin is Literal:
        assert value in get_args(hint), f"{path}: {value!r} not one of {get_args(hint)}"
    elif hint is Any:  # a JSON value of any type (a profile's overrides)
        assert isinstance(value, str | int | float | bool | list | dict | None), (
            f"{path}: {value!r}"
        )
    elif hint is type(None):
        assert value is None, f"{path}: {value!r} is not null"
    elif hint is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), f"{path}: {value!r}"
    else:
        assert type(value) is hint, f"{path}: {value!r} is not {hint.__name__}"


def test_the_checker_finds_a_missing_an_unknown_and_a_mistyped_key():
    good = {"attempts": 1, "collisions": 0, "collision_probability": 0.0, "goodput_bps": 1.0}
    _fits(good, Totals, "totals")
    for bad, what in [
        ({k: v for k, v in good.items() if k != "attempts"}, "missing"),
        ({**good, "goodput_mbps": 1.0}, "unknown keys"),
        ({**good, "attempts": 1.5}, "is not int"),
    ]:
        with pytest.raises(AssertionError, match=what):
            _fits(bad, Totals, "totals")


# Short runs that between them write every kind of object and every key left out when empty:
# a TCP BSS, an 802.11s mesh (peers, paths, set-ups; the ALM remedy's retry limits), 802.11n
# with A-MPDUs and Block Ack, CLAP, paper 004's CDO/CNO and LN-MAC, CoDel (marking ECN too)
# and pfifo qdiscs, a wired link, a run with warnings.
RUNS = {
    "bss-tcp-bulk": ("examples/bss-tcp-bulk.toml", {"duration_s": 3.0}),
    "mesh-chain": ("examples/mesh-chain.toml", {"duration_s": 8.0}),
    "paper-000-remedy": ("examples/paper-000.toml", {"duration_s": 8.0, "scheme": "alm-adaptive"}),
    "ht-upload": ("examples/ht-upload.toml", {"duration_s": 2.0, "stations": 2}),
    "clap": ("examples/paper-001-clap.toml", {}),
    # A file done inside the warm-up: the run's warnings.
    "clap-in-warmup": ("examples/paper-001-clap.toml", {"warmup_s": 20.0, "duration_s": 21.0}),
    "lnmac": ("examples/paper-004.toml", {"duration_s": 8.0, "scheme": "lnmac"}),
    "cdo": ("examples/paper-004.toml", {"duration_s": 8.0, "scheme": "cdo"}),
    "codel": (
        "examples/bss-udp-saturation.toml",
        {"duration_s": 2.0, "stations": 4, "mac.qdisc": "codel"},
    ),
    # ECN through a marking CoDel (tcp.ecn, ecn_marks_codel).
    "ecn": (
        "examples/bss-tcp-bulk.toml",
        {
            "duration_s": 4.0,
            "stations": 1,
            "tcp.ecn": True,
            "mac.qdisc": "codel",
            "mac.codel_ecn": True,
            "mac.queue_limit_packets": 50,
        },
    ),
    "pfifo": (
        "examples/bss-tcp-bulk.toml",
        {"duration_s": 3.0, "mac.qdisc": "pfifo", "mac.qdisc_limit_packets": 2},
    ),
    "wired": ("examples/wired-server-tcp.toml", {"duration_s": 3.0}),
    # BBR's model (tcp.bbr).
    "bbr": (
        "examples/wired-bottleneck.toml",
        {"duration_s": 3.0, "tcp.cc": "bbr", "tcp.profile": "linux-6"},
    ),
    # The sender's own link as the bottleneck, its refusals kept unsent (local_drops).
    "local-cwr": (
        "examples/wired-bottleneck.toml",
        {
            "duration_s": 3.0,
            "links.0.rate_mbps": 5,
            "links.0.queue_limit_packets": 10,
            "tcp.local_congestion": "cwr",
        },
    ),
    # A kernel profile with a field written against it (tcp.effective).
    "profile": (
        "examples/wired-bottleneck.toml",
        {"duration_s": 2.0, "tcp.profile": "linux-6", "tcp.prr": "off"},
    ),
    # Paper 000's 5-hop chain at limit 31 under linux-3.12 with 200-ms loss episodes (its
    # run `fall`): retry chains that outlast the RTO, found spurious by F-RTO (spurious_rtos).
    "frto": (
        "examples/paper-000.toml",
        {"hops": 5, "retry_limit": 31, "bad_ms": 200.0, "bad_loss": 0.9},
    ),
    # A lossy tail of a file under linux-6: a tail loss probe (tlp_probes).
    "tlp": (
        "examples/wired-bottleneck.toml",
        {
            "duration_s": 2.0,
            "tcp.profile": "linux-6",
            "links.1.loss": 0.1,
            "flows": [
                {"kind": "tcp_file", "src": "sender", "dst": "receiver", "file_bytes": 40000}
            ],
        },
    ),
}


@pytest.fixture(scope="module")
def summaries() -> dict[str, RunSummary]:
    return {
        name: airtcp.run(REPO / path, seed=1, overrides=overrides).summary
        for name, (path, overrides) in RUNS.items()
    }


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_real_run_has_exactly_the_keys_the_types_allow(summaries, name):
    _fits(summaries[name], RunSummary, name)


def test_between_them_the_runs_write_every_key_left_out_when_empty(summaries):
    """So that each NotRequired key is checked present once too; but the Block Ack request
    counters (an MPDU given up under aggregation, which no short run here makes)."""
    seen: set[tuple[str, str]] = set()
    for name, summary in summaries.items():
        _fits(summary, RunSummary, name, seen)
    optional = {
        (cls.__name__, key)
        for cls in [RunSummary, *(getattr(summary_types, n) for n in summary_types.__all__)]
        if typing.is_typeddict(cls)
        for key, hint in get_type_hints(cls, include_extras=True).items()
        if get_origin(hint) is NotRequired
    }
    unseen = optional - seen - {("MacSummary", "bar_attempts"), ("MacSummary", "bar_failures")}
    assert not unseen, sorted(unseen)


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_the_frozen_golden_summaries_fit_the_types(name):
    frozen = json.loads(golden.FILE.read_text())[name]["summary"]
    _fits({**frozen, "wall_seconds": 0.0}, RunSummary, name)
