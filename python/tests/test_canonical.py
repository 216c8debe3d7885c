"""Seeds and store hashes survive new knobs (airtcp.config.canonical): a world spec with its
defaults written out and the same spec without them have one canonical form, so one seed and
one store hash; and the canonical form of every example and golden scenario is what it was
before the rule (the seeds below were measured before it and must never change by accident)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from golden import CASES, scenario

from airtcp import sweep
from airtcp.config import Scenario, canonical
from airtcp.config.canonical import ALWAYS_WRITTEN, canonical_json

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.toml"))

# Each example's run seed as `airtcp sweep FILE` derives it (sweep seed 1) and the first 16 hex
# digits of the SHA-256 of its canonical world spec (a sweep file: its run count and a digest of
# every run's pair, in order): measured before issue 33 made the canonical form generic, and
# unchanged by it. A change here re-randomises every stored run of the example: only ever in a
# commit of its own that says why.
SEEDS: dict[str, str] = {
    "ac-download.toml": "449964517723168316 ddac5006c292c661",
    "ampdu-aging.toml": "434598981498664807 f0e06e2bf79fef07",
    "ax-bbr-vs-cubic.toml": "716928770130879802 fc9015ee0606df88",
    "bbr-vs-cubic.toml": "63447613484989137 a3d14d69608ec661",
    "bss-tcp-bulk.toml": "1033494536232936178 55f11c7408cb4679",
    "bss-udp-saturation.toml": "974349323846422374 ac3f277a3d559bc0",
    "chain-tcp.toml": "733344078178518125 0acfd3bc5571c3b0",
    "chain-udp.toml": "275232064785963759 a1a0e33dd4feb8e1",
    "distance-udp.toml": "1020431911429308920 34ee72974ea2d446",
    "ecn-codel.toml": "885137065187325829 27794c2d9e23f73c",
    "ht-upload.toml": "351268735586320859 cf7a74a6d6fb1961",
    "mesh-chain.toml": "611212671023946685 53a81b3a93069123",
    "mobile-tcp.toml": "126105233853670390 f6f1bba1319897ed",
    "paper-000-tee.toml": "357129076197644732 976261910f22d02b",
    "paper-000.toml": "1074726128268033485 97a21b8ce7ea97ea",
    "paper-001-clap.toml": "651099406344754159 2e3b9d4a78967b1c",
    "paper-001.toml": "1017102084763831559 a1d9761f18927f7a",
    "paper-002.toml": "1138500345987007515 244f12103ded70fd",
    "paper-003.toml": "876257453850623961 8ed34b3235c331b4",
    "paper-004.toml": "306828957626876037 53e72134464c0208",
    "rayleigh-tcp.toml": "474197412854157815 7b8081b2aa2f4505",
    "sweep-chain-retry.toml": "84 runs 3568f17775d11268",
    "wired-bottleneck.toml": "538130045161932843 9b708ee0ada43b32",
    "wired-server-tcp.toml": "524573484750740543 fd2ef7f08a521c59",
}


def _schema() -> dict[str, Any]:
    return canonical._schema()


def _profile(table: dict[str, Any], obj: dict[str, Any]) -> dict[str, Any]:
    """A TCP table's profile settings (none for "rfc" or any other table): under a profile a
    field left out takes the profile's value, not the schema's default."""
    profiles = obj["properties"].get("profile", {}).get("x-profiles", {})
    found: dict[str, Any] = profiles.get(table.get("profile"), {})
    return found


def _fill(value: Any, node: dict[str, Any]) -> Any:
    """``value`` with every field the schema gives a default written out, at every depth."""
    if isinstance(value, dict):
        obj = canonical._object_schema(node, value)
        if obj is None:
            return value
        out = {k: _fill(v, obj["properties"].get(k, {})) for k, v in value.items()}
        profile = _profile(value, obj)
        for key, sub in obj["properties"].items():
            if key not in out and (key in profile or "default" in sub):
                default = profile[key] if key in profile else sub["default"]
                out[key] = _fill(copy.deepcopy(default), sub)
        return out
    if isinstance(value, list):
        items = canonical._items_schema(node)
        return value if items is None else [_fill(v, items) for v in value]
    return value


def _strip(value: Any, node: dict[str, Any]) -> Any:
    """``value`` with every field equal to its default removed, at every depth."""
    if isinstance(value, dict):
        obj = canonical._object_schema(node, value)
        if obj is None:
            return value
        out = {}
        profile = _profile(value, obj)
        for key, v in value.items():
            sub = obj["properties"].get(key, {})
            v = _strip(v, sub)
            if key in profile:
                if v == _strip(profile[key], sub):
                    continue
            elif "default" in sub and v == _strip(sub["default"], sub):
                continue
            out[key] = v
        return out
    if isinstance(value, list):
        items = canonical._items_schema(node)
        return value if items is None else [_strip(v, items) for v in value]
    return value


def _one(base: dict[str, Any]) -> list[sweep.RunSpec]:
    return sweep.expand(sweep.SweepSpec(base=base, grid={}, zips=[], replications=1, seed=1))


def _specs() -> list[tuple[str, dict[str, Any]]]:
    out = [
        (p.stem, Scenario.from_dict(run.config).to_world_spec())
        for p in EXAMPLES
        for run in sweep.expand(sweep.load_sweep(p))[:1]
    ]
    out += [
        (f"golden-{name}", Scenario.from_dict(scenario(name)).to_world_spec()) for name in CASES
    ]
    return out


SPECS = _specs()


@pytest.mark.parametrize(("name", "spec"), SPECS, ids=[n for n, _ in SPECS])
def test_defaults_written_out_or_left_out_give_one_canonical_form(
    name: str, spec: dict[str, Any]
) -> None:
    form = canonical_json(spec)
    filled = _fill(spec, _schema())
    stripped = _strip(spec, _schema())
    assert filled != stripped  # the test has something to prove
    assert canonical_json(filled) == form
    assert canonical_json(stripped) == form
    # The core runs every form alike: it reads each to the same spec.
    assert json.loads(form) == canonical.canonical(json.loads(form))


def test_a_new_field_at_its_default_changes_no_seed() -> None:
    """What the rule is for: a field the core gains later (one not written before, here
    `tcp.small_queues`, added after the frozen set) at its default leaves the seed alone."""
    base = scenario("bss-tcp-sack")
    plain = _one(base)
    spec = Scenario.from_dict(base).to_world_spec()
    assert "small_queues" not in ALWAYS_WRITTEN["flows[].tcp"]
    for flow in spec["flows"]:
        flow["tcp"]["small_queues"] = False
    assert canonical_json(spec) == Scenario.from_dict(base).spec_json()
    with_default = _one({**base, "tcp": {"small_queues": False}})
    assert [(r.seed, r.run_hash) for r in with_default] == [(r.seed, r.run_hash) for r in plain]
    on = _one({**base, "tcp": {"small_queues": True}})
    assert on[0].seed != plain[0].seed  # and a value that differs is part of the spec


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_keeps_its_seed(path: Path) -> None:
    pairs = []
    for run in sweep.expand(sweep.load_sweep(path)):
        canon = Scenario.from_dict(run.config).spec_json()
        pairs.append(f"{run.seed} {hashlib.sha256(canon.encode()).hexdigest()[:16]}")
    digest = hashlib.sha256("\n".join(pairs).encode()).hexdigest()[:16]
    assert SEEDS[path.name] == (pairs[0] if len(pairs) == 1 else f"{len(pairs)} runs {digest}")


def test_a_profile_gives_the_fields_always_written_their_profile_value() -> None:
    # cc and recovery are written in every TCP table (ALWAYS_WRITTEN); under a profile left
    # out they take the profile's value, as the core would: never the schema's default.
    flow = {"kind": "tcp_bulk", "src": 0, "dst": 1, "tcp": {"profile": "linux-3.2"}}
    tcp = json.loads(canonical_json({"flows": [flow]}))["flows"][0]["tcp"]
    assert (tcp["cc"], tcp["recovery"]) == ("cubic", "sack")
    bare = json.loads(canonical_json({"flows": [{**flow, "tcp": {}}]}))["flows"][0]["tcp"]
    assert (bare["cc"], bare["recovery"]) == ("newreno", "newreno")
