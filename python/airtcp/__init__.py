"""airtcp: a fast, faithful simulator of TCP over IEEE 802.11.

>>> import airtcp
>>> result = airtcp.run("examples/bss-udp-saturation.toml", seed=1, overrides={"stations": 5})
>>> result.flows  # a pyarrow.Table

Scenarios are TOML files or dicts (docs/scenarios.md); :func:`load` validates one into a
:class:`Scenario`, :func:`run` simulates it and returns a :class:`Result`.
"""

from __future__ import annotations

from importlib import metadata as _metadata

from airtcp.config import Scenario, ScenarioError, load
from airtcp.result import Result
from airtcp.run import run

try:
    __version__: str = _metadata.version("airtcp")
except _metadata.PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.1.0"

__all__ = ["Result", "Scenario", "ScenarioError", "__version__", "load", "run"]
