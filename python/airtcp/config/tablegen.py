"""Writes ``python/airtcp/config/table.json``: the scenario models' fields as plain data, which
the plain validator (:mod:`airtcp.config.plain`) reads to validate a scenario without importing
pydantic.

Run ``python -m airtcp.config.tablegen`` (or ``python -m airtcp.docgen``, which writes it with
the docs) after changing :mod:`airtcp.config.models`; ``--check`` exits 1 while the file is
stale, and ``python/tests/test_plain.py`` fails. A model
that uses a type, a constraint, a default or a validator the table cannot say is refused here
with its name, so the plain validator never validates a field differently from pydantic: it
knows the types ``int``, ``float``, ``bool``, ``str``, ``Literal``, optional, ``list``, a
model, and a union of models told apart by a ``kind`` tag; the bounds ``ge``, ``gt``, ``le``,
``lt``, ``min_length`` and ``max_length``; and the validators registered in
:mod:`airtcp.config.checks`.

The table, per model (class name): ``fields``, each ``[name, type, bounds, how, default]``
(``how``: ``value``, ``required``, or ``factory`` with the factory's name: ``list`` or a
model's); ``core`` (a passing-through section's table of the core's schema, else null) and
``built``; ``check`` (the model has an ``after`` check, ``checks.AFTER``); ``before`` and
``after`` (the fields with field validators). A type is a list: ``["int"]``, ``["float"]``,
``["bool"]``, ``["str"]``, ``["lit", values]``, ``["opt", type]``, ``["list", type]``,
``["model", name]``, ``["tagged", key, {tag: model}]``.
"""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types as at
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from airtcp.config import checks, models

TARGET = Path(__file__).with_name("table.json")
COMMAND = "python -m airtcp.config.tablegen"

_BOUNDS = {
    at.Ge: "ge",
    at.Gt: "gt",
    at.Le: "le",
    at.Lt: "lt",
    at.MinLen: "min_length",
    at.MaxLen: "max_length",
}
_CONFIG = {"extra": "forbid", "strict": True, "allow_inf_nan": False}


class TableError(ValueError):
    """A model the table cannot describe (``<Model>.<field>: <what>``)."""


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _tagged(members: tuple[Any, ...], key: str, where: str) -> list[Any]:
    tags: dict[str, str] = {}
    for member in members:
        field = member.model_fields.get(key) if _is_model(member) else None
        if field is None or get_origin(field.annotation) is not Literal:
            raise TableError(f"{where}: union member {member!r} has no Literal {key!r}")
        for tag in get_args(field.annotation):
            tags[tag] = member.__name__
    return ["tagged", key, tags]


def _type(tp: Any, where: str, discriminator: str | None = None) -> list[Any]:
    """The table's type of the annotation ``tp``."""
    origin = get_origin(tp)
    if tp is bool or tp is int or tp is float or tp is str:
        return [tp.__name__]
    if origin is Literal:
        values = list(get_args(tp))
        if not all(type(v) in (bool, int, float, str) for v in values):
            raise TableError(f"{where}: a Literal of other than bool, int, float, str: {tp!r}")
        return ["lit", values]
    if origin is Annotated:
        inner, *meta = get_args(tp)
        keys = [m.discriminator for m in meta if isinstance(m, FieldInfo) and m.discriminator]
        if len(keys) != 1 or len(meta) != 1:
            raise TableError(f"{where}: Annotated with other than a discriminator: {tp!r}")
        return _type(inner, where, str(keys[0]))
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) < len(args):  # optional
            inner = rest[0] if len(rest) == 1 else Union[rest]  # noqa: UP007
            return ["opt", _type(inner, where, discriminator)]
        if discriminator is None:
            raise TableError(f"{where}: a union without a discriminator: {tp!r}")
        return _tagged(rest, discriminator, where)
    if origin is list:
        (item,) = get_args(tp)
        return ["list", _type(item, f"{where}[]")]
    if _is_model(tp):
        return ["model", tp.__name__]
    raise TableError(f"{where}: no plain type for {tp!r}")


def _bounds(info: FieldInfo, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for meta in info.metadata:
        name = _BOUNDS.get(type(meta))
        if name is None:
            raise TableError(f"{where}: a constraint the table cannot say: {meta!r}")
        value = getattr(meta, name)
        out[name] = value
    return out


def _default(info: FieldInfo, where: str) -> tuple[str, Any]:
    if info.default_factory is not None:
        factory = info.default_factory
        if factory is list:
            return "factory", "list"
        if _is_model(factory):
            return "factory", factory.__name__
        raise TableError(f"{where}: a default factory the table cannot say: {factory!r}")
    if info.default is PydanticUndefined:
        return "required", None
    value = info.default
    if json.loads(json.dumps(value)) != value or type(json.loads(json.dumps(value))) is not type(
        value
    ):
        raise TableError(f"{where}: a default JSON does not keep: {value!r}")
    return "value", value


def _validators(cls: type[BaseModel]) -> tuple[bool, list[str], list[str]]:
    """(has an after check, fields with before validators, fields with after ones), each
    checked against checks' registries."""
    name = cls.__name__
    dec = cls.__pydantic_decorators__
    known = {"_check"} | ({"_pass_through"} if issubclass(cls, models._PassThrough) else set())
    for vname in dec.model_validators:
        if vname not in known:
            raise TableError(f"{name}: model validator {vname} unknown to the plain validator")
    check = "_check" in dec.model_validators
    if check:
        func = dec.model_validators["_check"].func
        if getattr(func, "__wrapped__", None) is not checks.AFTER.get(name):
            raise TableError(f"{name}: its _check is not checks.AFTER[{name!r}]")
    elif name in checks.AFTER:
        raise TableError(f"{name}: checks.AFTER has a check the model does not run")
    before: list[str] = []
    after: list[str] = []
    for vname, d in dec.field_validators.items():
        for field in d.info.fields:
            table = checks.FIELD_BEFORE if d.info.mode == "before" else checks.FIELD_AFTER
            if d.info.mode not in ("before", "after") or (name, field) not in table:
                raise TableError(
                    f"{name}.{field}: field validator {vname} ({d.info.mode}) is not in "
                    "checks.FIELD_BEFORE or checks.FIELD_AFTER"
                )
            (before if d.info.mode == "before" else after).append(field)
    for registry in (checks.FIELD_BEFORE, checks.FIELD_AFTER):
        for model, field in registry:
            if model == name and field not in before + after:
                raise TableError(f"{name}.{field}: a registered check the model does not run")
    extra = set(dec.validators) | set(dec.root_validators) | set(dec.field_serializers)
    serializers = set(dec.model_serializers) - {"_dump_with_core"}
    if extra or serializers:
        raise TableError(f"{name}: validators unknown to the plain validator: {extra}")
    return check, before, after


def _model(cls: type[BaseModel]) -> dict[str, Any]:
    name = cls.__name__
    config = {k: cls.model_config.get(k) for k in _CONFIG}
    if config != _CONFIG:
        raise TableError(f"{name}: model_config {config}, the plain validator knows {_CONFIG}")
    fields = []
    for fname, info in cls.model_fields.items():
        where = f"{name}.{fname}"
        if info.alias is not None or info.validation_alias is not None:
            raise TableError(f"{where}: an alias the table cannot say")
        if info.validate_default:
            raise TableError(f"{where}: validate_default the table cannot say")
        how, default = _default(info, where)
        key = info.discriminator
        if key is not None and not isinstance(key, str):
            raise TableError(f"{where}: a callable discriminator the table cannot say")
        fields.append(
            [fname, _type(info.annotation, where, key), _bounds(info, where), how, default]
        )
    check, before, after = _validators(cls)
    passing = issubclass(cls, models._PassThrough)
    return {
        "fields": fields,
        "core": cls.CORE if passing else None,  # type: ignore[attr-defined]
        "built": sorted(cls.BUILT) if passing else [],  # type: ignore[attr-defined]
        "check": check,
        "before": before,
        "after": after,
    }


def table() -> dict[str, Any]:
    """Every model reachable from :class:`~airtcp.config.models.Scenario`, by class name."""
    out: dict[str, Any] = {}

    def visit(cls: type[BaseModel]) -> None:
        if cls.__name__ in out:
            return
        entry = out[cls.__name__] = _model(cls)
        for _, tp, *_ in entry["fields"]:
            for used in _models_of(tp):
                visit(getattr(models, used))

    visit(models.Scenario)
    return dict(sorted(out.items()))


def _models_of(tp: list[Any]) -> list[str]:
    kind = tp[0]
    if kind == "model":
        return [tp[1]]
    if kind == "tagged":
        return list(dict.fromkeys(tp[2].values()))
    if kind in ("opt", "list"):
        return _models_of(tp[1])
    return []


def render(models_table: dict[str, Any]) -> str:
    """The table as JSON, a line per field."""
    blocks = []
    for name, entry in models_table.items():
        head = {k: v for k, v in entry.items() if k != "fields"}
        fields = ",\n".join(f"      {json.dumps(f)}" for f in entry["fields"])
        blocks.append(
            f"  {json.dumps(name)}: {{\n"
            + "".join(f"    {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
            + f'    "fields": [\n{fields}\n    ]\n  }}'
        )
    return "{\n" + ",\n".join(blocks) + "\n}\n"


def current() -> str:
    """table.json as the models make it."""
    return render(table())


def main(argv: list[str] | None = None) -> int:
    from airtcp import genfile

    return genfile.main(argv, TARGET, current, COMMAND)


if __name__ == "__main__":
    raise SystemExit(main())
