"""Packaging (issue 30, item 8): the Gymnasium environments made from a string id in a fresh
interpreter that has not imported airtcp, their registration repeatable, the core an abi3
module. The wheel itself is built, installed without a Rust toolchain and smoke-tested by
scripts/wheel-smoke.sh (a step of scripts/test.sh).

Gymnasium 1.x reads no plugin entry points (its ``gymnasium.envs`` group went with 1.0), so an
id names the module that registers it: ``gymnasium.make("airtcp.gym:airtcp/RateControl-v0")``
imports airtcp.gym, which registers both environments, and makes the one named.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import airtcp

PYTHON_DIR = Path(airtcp.__file__).resolve().parents[1]


def python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter, warnings as errors (as pytest has them)."""
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize("name", ["RateControl", "CongestionControl"])
def test_gymnasium_makes_an_environment_from_its_module_qualified_id(name: str) -> None:
    pytest.importorskip("airtcp._core")
    proc = python(
        "import sys, gymnasium\n"
        "assert 'airtcp' not in sys.modules, 'gymnasium imported airtcp'\n"
        f"env = gymnasium.make('airtcp.gym:airtcp/{name}-v0', episode_s=1.0)\n"
        f"assert env.spec.id == 'airtcp/{name}-v0', env.spec.id\n"
        "obs, info = env.reset(seed=1)\n"
        "obs, reward, terminated, truncated, info = env.step(env.action_space.sample())\n"
        "assert env.observation_space.contains(obs), obs\n"
        # The module's import registered both: the plain id works from here on.
        "gymnasium.make('airtcp/RateControl-v0').close()\n"
        "gymnasium.make('airtcp/CongestionControl-v0').close()\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_registering_again_neither_warns_nor_replaces_the_specs() -> None:
    proc = python(
        "import importlib, gymnasium, airtcp.gym\n"
        "before = {k: v for k, v in gymnasium.registry.items() if k.startswith('airtcp/')}\n"
        "assert sorted(before) == ['airtcp/CongestionControl-v0', 'airtcp/RateControl-v0']\n"
        "importlib.reload(airtcp.gym)\n"  # would warn "Overriding environment" if re-registered
        "gymnasium.make('airtcp.gym:airtcp/RateControl-v0').close()\n"
        "after = {k: v for k, v in gymnasium.registry.items() if k.startswith('airtcp/')}\n"
        "assert all(after[k] is before[k] for k in before), after\n"
    )
    assert proc.returncode == 0, proc.stderr


def test_the_core_is_an_abi3_module() -> None:
    # One wheel for every CPython >= 3.11 (pyo3's abi3-py311 feature, crates/airtcp-py).
    core = pytest.importorskip("airtcp._core")
    assert Path(core.__file__).name.split(".")[-2] == "abi3", core.__file__
