"""Where a run came from: what it was given and what ran it, kept beside its results.

:meth:`airtcp.result.Result.write` puts two entries into every run directory:

    scenario.toml     the scenario file as given, byte for byte (``airtcp run FILE``,
                      ``airtcp.run("FILE.toml")``); or
    scenario.json     the scenario as a dict (``airtcp.run({...})``), or a Scenario's
                      fields as set (``airtcp.run(airtcp.load(...))``)
    provenance.json   the airtcp version, the seed, the scenario (name, path, which of the
                      two files), the overrides (``--set`` strings, or the overrides
                      mapping), the platform (Python, OS, machine) and the core (its version
                      and the SHA-256 of its native module)

With the overrides applied to the scenario file and the seed, ``airtcp run`` (or
``airtcp.run``) reproduces the run. Nothing here is computed while a run runs: the version,
platform and core are read when the directory is written.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from airtcp.config import Scenario

__all__ = ["PROVENANCE", "Given", "core_info", "platform_info", "record"]

PROVENANCE = "provenance.json"
TOML_FILE, JSON_FILE = "scenario.toml", "scenario.json"


@dataclass(frozen=True)
class Given:
    """What a run was given: ``scenario`` (a scenario file's text, a dict, or a Scenario),
    the file's ``path`` when it came from one, and the ``overrides`` (``--set`` strings, or a
    mapping of dotted keys to values)."""

    scenario: str | Mapping[str, Any] | Scenario
    path: str | None = None
    overrides: Sequence[str] | Mapping[str, object] | None = None

    @classmethod
    def of(
        cls,
        scenario: str | Mapping[str, Any] | Scenario,
        path: str | Path | None = None,
        overrides: Sequence[str] | Mapping[str, object] | None = None,
    ) -> Given:
        """A snapshot: a dict and the overrides are copied, so that changing them after the
        run changes nothing here."""
        if isinstance(scenario, Mapping):
            scenario = copy.deepcopy(dict(scenario))
        if isinstance(overrides, Mapping):
            overrides = copy.deepcopy(dict(overrides))
        elif overrides is not None:
            overrides = [str(o) for o in overrides]
        return cls(scenario, None if path is None else str(path), overrides or None)

    @property
    def given_as(self) -> str:
        """``toml`` (a file's text), ``dict`` or ``Scenario``."""
        if isinstance(self.scenario, str):
            return "toml"
        return "dict" if isinstance(self.scenario, Mapping) else "Scenario"

    @property
    def file_name(self) -> str:
        """The entry the scenario is written to: scenario.toml or scenario.json."""
        return TOML_FILE if isinstance(self.scenario, str) else JSON_FILE

    def scenario_bytes(self) -> bytes:
        """The scenario file's content: the text as given, or the dict as JSON."""
        if isinstance(self.scenario, str):
            return self.scenario.encode("utf-8")
        if isinstance(self.scenario, Mapping):
            data: Any = self.scenario
        else:  # a Scenario: the fields that were set (validated again, the same scenario)
            data = self.scenario.model_dump(mode="json", exclude_unset=True)
        return (json.dumps(data, indent=2, default=str) + "\n").encode("utf-8")

    def write(self, directory: Path) -> None:
        """Write the scenario file into ``directory``."""
        (directory / self.file_name).write_bytes(self.scenario_bytes())

    @classmethod
    def read(cls, directory: Path, provenance: Mapping[str, Any]) -> Given | None:
        """What :meth:`write` and :func:`record` stored in ``directory``, or None."""
        scenario = provenance.get("scenario")
        if not isinstance(scenario, Mapping):
            return None
        name = scenario.get("file")
        if name == TOML_FILE:
            given: str | dict[str, Any] = (directory / TOML_FILE).read_bytes().decode("utf-8")
        elif name == JSON_FILE:
            given = json.loads((directory / JSON_FILE).read_text(encoding="utf-8"))
        else:
            return None
        path = scenario.get("path")
        overrides = provenance.get("overrides")
        return cls(given, path if isinstance(path, str) else None, overrides)


@cache
def platform_info() -> dict[str, str]:
    """The Python and the machine running airtcp (read once per process)."""
    import platform

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "platform": platform.platform(),
    }


def core_info() -> dict[str, str | None]:
    """The native core: its version, its file's name and SHA-256 (None where unknown)."""
    try:
        from airtcp import _core
    except ImportError:
        return {"version": None, "file": None, "sha256": None}
    path = getattr(_core, "__file__", None)
    digest = None
    if path:
        try:
            st = os.stat(path)
            digest = _sha256(path, st.st_size, st.st_mtime_ns)
        except OSError:
            pass
    return {
        "version": getattr(_core, "__version__", None),
        "file": Path(path).name if path else None,
        "sha256": digest,
    }


@cache
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    """The SHA-256 of the file ``path``, read once per size and time of change."""
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record(given: Given | None, summary: Mapping[str, Any]) -> dict[str, Any]:
    """The content of provenance.json for a run given ``given`` that gave ``summary``."""
    from airtcp import __version__

    scenario = None
    overrides: Any = None
    if given is not None:
        scenario = {
            "name": summary.get("scenario"),
            "given_as": given.given_as,
            "path": given.path,
            "file": given.file_name,
        }
        overrides = given.overrides
        if isinstance(overrides, Mapping):
            overrides = json.loads(json.dumps(dict(overrides), default=str))
        elif overrides is not None:
            overrides = list(overrides)
    return {
        "airtcp_version": __version__,
        "seed": summary.get("seed"),
        "scenario": scenario,
        "overrides": overrides,
        "platform": platform_info(),
        "core": core_info(),
    }
