"""Scenarios validated without pydantic: the run path's validator.

pydantic's import and its models' construction are most of a short run's start-up (``import
pydantic`` and the 24 models: about 0.8 G instructions of ``airtcp run --json``'s 0.9 G,
docs/validation.md section 27). :func:`scenario` validates a scenario from the models' own
table (``table.json``, written from :mod:`airtcp.config.models` by ``python -m
airtcp.config.tablegen``) and their own checks (:mod:`airtcp.config.checks`), and gives back a
:class:`Section` tree with the attributes the pydantic models have (their fields,
``model_fields_set``, ``model_dump``, ``core_fields``, ``is_tcp``, ``spec_json``) for the
expander (:mod:`airtcp.config.expand`) and the run's checks (:mod:`airtcp.diagnose`).

It vouches only for what it is sure pydantic would accept, and as pydantic would build it
(strict types, bounds, defaults, the passed-through keys of the core's tables, the checks);
anything else (a problem to word, a template, a value whose type it is unsure of) returns
``None``, and the caller validates with pydantic, which words the error. So a valid scenario
costs no pydantic, and an invalid one gets the very same message as before.
``python/tests/test_plain.py`` holds the two validators to the same attributes and world spec
over every example (but the templates, which pydantic validates), edge cases and 1,600
mutations of the examples, and checks that nothing pydantic refuses is vouched for.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from airtcp.config import checks
from airtcp.config.checks import FlowShape, PassThroughShape, ScenarioShape

_TABLE: dict[str, dict[str, Any]] = json.loads(
    Path(__file__).with_name("table.json").read_text(encoding="utf-8")
)


class _Refused(Exception):
    """What the plain validator does not vouch for: pydantic decides."""


class Section:
    """A table of the scenario validated without pydantic: its model's fields as attributes,
    with the few answers of a pydantic model that the expander and the run's checks read."""

    MODEL = ""

    if TYPE_CHECKING:  # its fields, as its model's

        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, values: dict[str, Any], fields_set: set[str]) -> None:
        self.__dict__.update(values)
        self.model_fields_set = fields_set

    def model_dump(self, mode: str = "python", exclude_unset: bool = False) -> dict[str, Any]:
        """The fields as a dict of plain values (JSON's in either ``mode``), as pydantic's
        ``model_dump``; with ``exclude_unset``, only the fields the scenario set."""
        names = [f[0] for f in _TABLE[self.MODEL]["fields"]]
        if exclude_unset:
            names = [n for n in names if n in self.model_fields_set]
        return {n: _dump(getattr(self, n), exclude_unset) for n in names}

    def __repr__(self) -> str:
        shown = ", ".join(f"{f[0]}={getattr(self, f[0])!r}" for f in _TABLE[self.MODEL]["fields"])
        return f"{self.MODEL}({shown})"


class _PassingSection(PassThroughShape, Section):
    """A section that passes the core's keys through (``models._PassThrough``)."""

    def __init__(self, values: dict[str, Any], fields_set: set[str], core: dict[str, Any]):
        super().__init__(values, fields_set)
        self._core = core

    def model_dump(self, mode: str = "python", exclude_unset: bool = False) -> dict[str, Any]:
        out = super().model_dump(mode, exclude_unset)
        out.update(copy.deepcopy(self._core))  # as models._PassThrough._dump_with_core
        return out


def _dump(value: Any, exclude_unset: bool) -> Any:
    if isinstance(value, Section):
        return value.model_dump(exclude_unset=exclude_unset)
    if isinstance(value, list):
        return [_dump(v, exclude_unset) for v in value]
    return value


def _make_classes() -> dict[str, type[Section]]:
    """A class per model, a name of this module (so a section pickles, for worker processes)."""
    out: dict[str, type[Section]] = {}
    for name, entry in _TABLE.items():
        bases: tuple[type, ...] = (_PassingSection,) if entry["core"] else (Section,)
        if name == "FlowConfig":
            bases = (FlowShape, *bases)
        elif name == "Scenario":
            bases = (ScenarioShape, *bases)
        attrs = {"MODEL": name, "CORE": entry["core"] or "", "__module__": __name__}
        cls = type(f"Plain{name}", bases, attrs)
        cls.__qualname__ = cls.__name__
        globals()[cls.__name__] = out[name] = cls
    return out


_CLASSES = _make_classes()
PlainScenario = _CLASSES["Scenario"]


def core_only(model: str) -> list[str]:
    """The keys a passing-through section takes for the core, in the core's schema's order:
    its table's fields that are not fields of the model and that the expander does not build
    (``models._PassThrough.core_only`` reads it here). Read from the core's schema each time:
    asked only of a key that is not a field, and a test may stand in another schema."""
    from airtcp.config.canonical import core_table

    entry = _TABLE[model]
    if not entry["core"]:
        return []
    fields = {f[0] for f in entry["fields"]}
    built = set(entry["built"])
    return [k for k in core_table(entry["core"])["properties"] if k not in fields | built]


# -- validation ------------------------------------------------------------------------------


def _value(tp: list[Any], v: Any) -> Any:
    kind = tp[0]
    if kind == "float":
        if type(v) is float:
            if not math.isfinite(v):
                raise _Refused
            return v
        if type(v) is int:
            f = float(v)  # OverflowError past 1e308: refused by the caller
            if not math.isfinite(f):
                raise _Refused
            return f
        raise _Refused
    if kind == "int" or kind == "bool" or kind == "str":
        if type(v).__name__ != kind:
            raise _Refused
        return v
    if kind == "opt":
        return None if v is None else _value(tp[1], v)
    if kind == "lit":
        for x in tp[1]:
            if x == v and (type(x) is type(v) or (type(x) is float and type(v) is int)):
                return x
        raise _Refused
    if kind == "list":
        if type(v) is not list:
            raise _Refused
        return [_value(tp[1], x) for x in v]
    if kind == "model":
        if type(v) is not dict:
            raise _Refused
        return _section(tp[1], v)
    if kind == "tagged":
        if type(v) is not dict:
            raise _Refused
        tag = v.get(tp[1])
        if type(tag) is not str or tag not in tp[2]:
            raise _Refused
        return _section(tp[2][tag], v)
    raise _Refused  # a type tablegen would have refused


def _in_bounds(v: Any, bounds: dict[str, Any]) -> bool:
    if v is None or not bounds:
        return True
    for name, b in bounds.items():
        if name == "ge":
            ok = v >= b
        elif name == "gt":
            ok = v > b
        elif name == "le":
            ok = v <= b
        elif name == "lt":
            ok = v < b
        elif name == "min_length":
            ok = len(v) >= b
        else:  # max_length
            ok = len(v) <= b
        if not ok:
            return False
    return True


def _section(model: str, data: dict[str, Any]) -> Section:
    entry = _TABLE[model]
    names = {f[0] for f in entry["fields"]}
    core: dict[str, Any] = {}
    passed: list[str] | None = None
    for key in data:
        if type(key) is not str:
            raise _Refused
        if key not in names:
            passed = core_only(model) if passed is None else passed
            if key not in passed:  # unknown: pydantic words it
                raise _Refused
            core[key] = data[key]
    values: dict[str, Any] = {}
    for name, tp, bounds, how, default in entry["fields"]:
        if name in data:
            v = data[name]
            if type(v) is list and len(v) > bounds.get("max_length", len(v)):
                raise _Refused  # as pydantic, before the entries are validated
            if name in entry["before"]:
                v = checks.FIELD_BEFORE[model, name](v)
            v = _value(tp, v)
            if not _in_bounds(v, bounds):
                raise _Refused
            if name in entry["after"]:
                v = checks.FIELD_AFTER[model, name](v)
        elif how == "value":
            v = copy.deepcopy(default) if isinstance(default, list) else default
        elif how == "factory":
            v = [] if default == "list" else _section(default, {})
        else:  # required
            raise _Refused
        values[name] = v
    fields_set = {k for k in data if k in names}
    cls = _CLASSES[model]
    out = cls(values, fields_set, core) if entry["core"] else cls(values, fields_set)  # type: ignore[call-arg]
    if entry["check"]:
        checks.AFTER[model](out)
    return out


def scenario(data: Mapping[str, Any], checked: bool = False) -> Section | None:
    """``data`` (a scenario as parsed from TOML) validated without pydantic, as
    ``Scenario.from_dict`` would validate it; ``None`` where pydantic must decide (a problem
    to word, a template, a type the plain validator does not know). ``checked``: ``data`` has
    passed ``load.check_plain`` already."""
    if not isinstance(data, Mapping) or "template" in data:
        return None
    from airtcp.config.load import check_plain

    # The expansion's warnings (a random waypoint at speed 0) go out as it finds them: not
    # recorded and replayed, which would change the process's warning filters under other
    # threads. A scenario left to pydantic after one warned is invalid, and pydantic's
    # expansion warns alike (the default filter shows it once per place).
    try:
        if not checked:
            check_plain(data)
        if not all(isinstance(k, str) for k in data):
            return None
        return _section("Scenario", dict(data))
    except Exception:  # noqa: BLE001  # any doubt: pydantic validates, and words it
        return None


# -- the fields of a dotted key ---------------------------------------------------------------


def walk(loc: tuple[str | int, ...]) -> tuple[str | None, list[Any] | None]:
    """(model, field entry) for the dotted key ``loc`` from the scenario's top, as
    ``convert._walk`` finds them in the pydantic models: the model the last key was looked up
    in (``None`` past a list or a value) and that key's field (``None`` if not one; a key past
    a field's value keeps that field, as ``_walk`` does)."""
    tp: list[Any] | None = ["model", "Scenario"]
    owner: str | None = None
    field: list[Any] | None = None
    for key in loc:
        while tp is not None and tp[0] == "opt":
            tp = tp[1]
        if tp is not None and tp[0] == "tagged":
            if key in tp[2]:  # pydantic's tag segment
                tp = ["model", tp[2][key]]
                continue
        if isinstance(key, int):
            tp = tp[1] if tp is not None and tp[0] == "list" else None
            continue
        if tp is not None and tp[0] == "model":
            owner = tp[1]
            field = next((f for f in _TABLE[owner]["fields"] if f[0] == key), None)
            tp = field[1] if field is not None else None
        else:
            owner, tp = None, None
    return owner, field


def expects_string(loc: tuple[str | int, ...]) -> bool:
    """Whether the field at ``loc`` takes a string (``str``, or a Literal of strings)."""
    _, field = walk(loc)
    if field is None:
        return False
    tp = field[1]
    while tp[0] == "opt":
        tp = tp[1]
    if tp[0] == "str":
        return True
    return tp[0] == "lit" and all(isinstance(a, str) for a in tp[1])


def default_section(model: str) -> Section:
    """A section at its defaults (``HtConfig()``)."""
    return _section(model, {})


def validate(data: Mapping[str, Any]) -> Any:
    """``data`` validated: by :func:`scenario` when it vouches for it, else by pydantic's
    ``Scenario.from_dict``, which raises :class:`~airtcp.config.errors.ScenarioError` for a
    problem. Either has the attributes of a :class:`~airtcp.config.models.Scenario`."""
    from airtcp.config.load import check_plain

    if not isinstance(data, Mapping):
        from airtcp.config.models import Scenario

        return Scenario.from_dict(data)  # which words what it is
    check_plain(data)  # once for both: its ScenarioError is what from_dict raises first
    out = scenario(data, checked=True)
    if out is not None:
        return out
    from airtcp.config.models import Scenario

    return Scenario._from_checked(data)
