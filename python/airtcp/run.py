"""One run: scenario -> world spec -> the Rust core -> :class:`~airtcp.result.Result`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from airtcp.config import ScenarioError, apply_value_overrides, plain
from airtcp.config.load import loads_toml, read_toml_text
from airtcp.provenance import Given
from airtcp.result import Result, load_summary

if TYPE_CHECKING:
    from airtcp.config import Scenario

__all__ = ["run", "to_scenario"]

_MAX_SEED = 2**64 - 1


def to_scenario(
    config: Scenario | Mapping[str, Any] | str | Path,
    overrides: Mapping[str, object] | None = None,
) -> Scenario:
    """Validate ``config`` (a Scenario, a dict, or the path of a TOML file) with ``overrides``
    (dotted keys, Python values: ``{"stations": 20, "mac.short_retry_limit": 3}``)."""
    scenario: Scenario = _load(config, overrides, keep=False, pydantic=True)[0]
    return scenario


def _is_scenario(config: object) -> bool:
    """A validated scenario: pydantic's (which exists only once its module was imported) or
    the plain validator's."""
    models = sys.modules.get("airtcp.config.models")
    if models is not None and isinstance(config, models.Scenario):
        return True
    return isinstance(config, plain.Section) and config.MODEL == "Scenario"


def _load(
    config: Scenario | Mapping[str, Any] | str | Path,
    overrides: Mapping[str, object] | None = None,
    keep: bool = True,
    pydantic: bool = False,
) -> tuple[Any, Given | None]:
    """:func:`to_scenario`, and, with ``keep``, what it was given (a file's text as read, a
    copy of a dict), taken once it is valid. The scenario is pydantic's with ``pydantic``, else
    the plain validator's where it vouches for it (:mod:`airtcp.config.plain`): either has a
    Scenario's attributes."""
    text = None
    if _is_scenario(config):
        valid: Any = config  # pydantic's Scenario, or the plain validator's with its attributes
        if not overrides and not (pydantic and isinstance(valid, plain.Section)):
            return valid, Given.of(valid) if keep else None
        # What the user set, not the defaults: re-validated, it gives the same scenario.
        data: Mapping[str, Any] = valid.model_dump(mode="python", exclude_unset=True)
    elif isinstance(config, str | Path):
        text = read_toml_text(config)
        data = loads_toml(text, str(config))
    elif isinstance(config, Mapping):
        data = config
    else:
        raise ScenarioError(
            f"config: expected a Scenario, a dict or a path (got {type(config).__name__})"
        )
    if overrides:
        data = apply_value_overrides(data, overrides)
    if pydantic:
        from airtcp.config.models import Scenario

        scenario = Scenario.from_dict(data)
    else:
        scenario = plain.validate(data)
    if not keep:
        return scenario, None
    if isinstance(config, str | Path):
        return scenario, Given.of(text or "", str(config), overrides)
    return scenario, Given.of(config, None, overrides)


def run(
    config: Scenario | Mapping[str, Any] | str | Path,
    seed: int = 1,
    overrides: Mapping[str, object] | None = None,
    *,
    given: Given | None = None,
) -> Result:
    """Simulate ``config`` with ``seed`` and return the :class:`Result`.

    ``config`` is a :class:`Scenario`, a dict as parsed from TOML, or the path of a TOML file.
    The Result keeps what it was given (``Result.given``: the file's text or the dict, the
    overrides), which ``Result.write`` stores with the seed, the version and the platform;
    ``given`` replaces it when ``config`` was derived from something else (the command line
    passes the file's text and its ``--set`` strings). Raises :class:`ScenarioError` for any
    invalid input.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED:
        raise ScenarioError(
            f"seed: must be an integer 0..2^64-1 (got {seed!r}; allowed: integer 0..{_MAX_SEED})"
        )
    scenario, as_given = _load(config, overrides, keep=given is None)
    spec_json = scenario.spec_json()

    from airtcp import _core  # the native module; imported here so configs work without it

    start = time.perf_counter()
    try:
        summary_json, traces = _core.run(spec_json, seed)
    except ValueError as exc:  # the core re-validates the spec: "<field path>: <message>"
        raise ScenarioError(f"world spec rejected by the core: {exc}") from exc
    wall = time.perf_counter() - start

    summary = load_summary(summary_json)  # the keys airtcp.run adds follow
    summary["wall_seconds"] = wall
    summary["seed"] = seed
    summary["scenario"] = scenario.name
    # What the run measured that its scenario may not have meant (docs/scenarios.md "Warnings").
    from airtcp.diagnose import diagnose

    spec = json.loads(spec_json)  # the Result's, read by the checks too (no second copy)
    if warnings := diagnose(scenario, summary, given or as_given, spec):
        summary["warnings"] = warnings
    return Result(summary, traces, spec=spec, given=given or as_given)
