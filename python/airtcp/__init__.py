"""airtcp: a fast, faithful simulator of TCP over IEEE 802.11.

>>> import airtcp
>>> result = airtcp.run("examples/bss-udp-saturation.toml", seed=1, overrides={"stations": 5})
>>> result.flows  # a pyarrow.Table
>>> runs = airtcp.sweep("examples/bss-tcp-bulk.toml", {"stations": [1, 5]}, seeds=3)
>>> runs  # a pandas.DataFrame, one row per run

Scenarios are TOML files or dicts (docs/scenarios.md); :func:`load` validates one into a
:class:`Scenario`, :func:`run` simulates it and returns a :class:`Result`; ``sweep`` runs one
over a grid and seeds into a resumable store (docs/sweeps.md, "From Python").
"""

from __future__ import annotations

import os
import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from airtcp.config import Scenario, ScenarioError, load
    from airtcp.result import Result
    from airtcp.run import run

    __version__: str

# The public names are imported on first use, so that `import airtcp` and `airtcp --version`
# load neither pydantic nor pyarrow (python/tests/test_startup.py keeps it so).
_LAZY = {
    "Scenario": "airtcp.config",
    "ScenarioError": "airtcp.config",
    "load": "airtcp.config",
    "Result": "airtcp.result",
    "run": "airtcp.run",
    "sweep": "airtcp.sweep",  # the module itself, callable: airtcp.sweep(...) and .read_runs
}


def _version() -> str:
    """The installed version, as ``importlib.metadata.version("airtcp")`` finds it: the first
    ``airtcp-*.dist-info`` on sys.path. Read directly, since importing importlib.metadata
    costs more than the rest of ``airtcp --version``; anything else goes to importlib."""
    for entry in sys.path:
        try:
            names = sorted(
                n
                for n in os.listdir(entry or ".")
                if n.startswith("airtcp-") and n.endswith((".dist-info", ".egg-info"))
            )
        except OSError:
            continue
        if names:  # the first directory with airtcp's metadata decides, as in importlib
            meta = os.path.join(entry, names[0], "METADATA")
            if names[0].endswith(".dist-info") and os.path.isfile(meta):
                with open(meta, encoding="utf-8") as fh:
                    for line in fh:
                        if line.startswith("Version:"):
                            return line.partition(":")[2].strip()
            break
    from importlib import metadata

    try:
        return metadata.version("airtcp")
    except metadata.PackageNotFoundError:  # running from a source tree without installing
        return "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name == "sweep":
        value = import_module(_LAZY[name])
    elif name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "__version__"})


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        # Importing the submodule airtcp.run binds it as the package's attribute `run`; keep the
        # function there instead, so that airtcp.run(...) works whatever was imported first.
        if name == "run" and isinstance(value, types.ModuleType):
            value = value.run
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = ["Result", "Scenario", "ScenarioError", "__version__", "load", "run", "sweep"]
