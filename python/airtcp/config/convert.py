"""pydantic's validation errors in the scenario's words: one line per problem,
``<dotted.field.path>: <what is wrong> (got <value>; allowed: <what>)``, the field's ``allowed``
text taken from its model (:mod:`airtcp.config.models`). Only an invalid scenario, or one the
plain validator (:mod:`airtcp.config.plain`) leaves to pydantic, loads this module.
"""

from __future__ import annotations

import difflib
import json
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from airtcp.config.errors import (
    _NO_VALUE,
    MAX_PROBLEMS,
    ScenarioError,
    _clip,
    _Issues,
    _line,
    _num,
    _Raw,
    _segment,
)


def _strip_optional(tp: Any) -> Any:
    if get_origin(tp) is Annotated:  # a discriminated union: Annotated[Union[...], Field]
        return _strip_optional(get_args(tp)[0])
    if get_origin(tp) in (Union, types.UnionType):
        args = tuple(a for a in get_args(tp) if a is not type(None))
        return _strip_optional(args[0]) if len(args) == 1 else args
    return tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _tag_of(model: type[BaseModel]) -> str | None:
    field = model.model_fields.get("kind")
    if field is not None and get_origin(field.annotation) is Literal:
        return get_args(field.annotation)[0]
    return None


def _walk(
    loc: tuple[str | int, ...], root: type[BaseModel]
) -> tuple[str, type[BaseModel] | None, FieldInfo | None]:
    """(dotted path, model the last key was looked up in, field) for a pydantic ``loc`` that
    starts at the model ``root`` (the :class:`~airtcp.config.models.Scenario`).

    The tag segment pydantic inserts for a discriminated union is dropped from the path.
    """
    path: list[str] = []
    tp: Any = root
    owner: type[BaseModel] | None = None
    field: FieldInfo | None = None
    for key in loc:
        tp = _strip_optional(tp)
        if isinstance(tp, tuple):
            chosen = next((m for m in tp if _is_model(m) and _tag_of(m) == key), None)
            if chosen is not None:
                tp = chosen
                continue
        path.append(_segment(key))
        if isinstance(key, int):
            tp = get_args(tp)[0] if get_origin(tp) is list else None
            continue
        if _is_model(tp):
            owner = tp
            field = tp.model_fields.get(key)
            tp = field.annotation if field is not None else None
        else:
            owner, tp = None, None
    return ".".join(path) or "scenario", owner, field


def _allowed_of(field: FieldInfo | None) -> str:
    extra = field.json_schema_extra if field is not None else None
    return str(extra.get("allowed", "")) if isinstance(extra, dict) else ""


_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}
_BOUNDS = {
    "greater_than": ("gt", ">"),
    "greater_than_equal": ("ge", ">="),
    "less_than": ("lt", "<"),
    "less_than_equal": ("le", "<="),
}


def _convert_validation_error(exc: ValidationError, root: type[BaseModel]) -> list[str]:
    """One line per problem in ``exc``, raised while validating the model ``root``; the first
    MAX_PROBLEMS, then a line that counts the others."""
    lines: list[str] = []
    errors = exc.errors()
    for n, err in enumerate(errors):
        if len(lines) >= MAX_PROBLEMS:
            return _cut(lines, errors[n:])
        loc = tuple(err["loc"])
        kind = err["type"]
        ctx = err.get("ctx") or {}
        got = err.get("input", _NO_VALUE)
        if kind == "value_error" and isinstance(ctx.get("error"), ScenarioError):
            lines.extend(ctx["error"].problems)  # raised by Scenario.__init__ under model_validate
            continue
        if kind == "value_error" and isinstance(ctx.get("error"), _Issues):
            issues = ctx["error"].issues
            for k, issue in enumerate(issues):
                if len(lines) >= MAX_PROBLEMS:  # the rest are counted, not worded
                    return _cut(lines, [_Issues(issues[k:]), *errors[n + 1 :]])
                path, _, field = _walk(loc + issue.loc, root)
                lines.append(
                    _line(path, issue.what, issue.got, issue.allowed or _allowed_of(field))
                )
            continue
        path, owner, field = _walk(loc, root)
        allowed = _allowed_of(field)
        if kind == "extra_forbidden":
            keys = list(owner.model_fields) if owner is not None else []
            # A section that passes the core's fields through takes those too (_PassThrough).
            keys += getattr(owner, "core_only", list)()
            close = difflib.get_close_matches(str(loc[-1]), keys, n=1)
            hint = f"; did you mean {json.dumps(close[0])}?" if close else ""
            lines.append(f"{_clip(path, 120)}: unknown field{hint} (allowed: {', '.join(keys)})")
            continue
        if kind == "missing":
            lines.append(_line(path, "required field is missing", allowed=allowed))
            continue
        if kind in _TYPE_WORDS:
            what = f"wrong type: expected {_TYPE_WORDS[kind]}"
            if isinstance(got, bool) and kind.startswith(("int", "float")):
                what += " (true/false is not a number)"
        elif kind in _BOUNDS:
            key, op = _BOUNDS[kind]
            what = f"must be {op} {_num(ctx.get(key))}"
        elif kind == "finite_number":
            what = "must be a finite number"
        elif kind in ("literal_error", "enum"):
            what = "not an allowed value"
            allowed = allowed or str(ctx.get("expected", ""))
        elif kind == "union_tag_invalid":
            path += ".kind"
            what, got = "unknown kind", ctx.get("tag", got)
        elif kind == "union_tag_not_found":
            path += ".kind"
            what, got = "required field is missing", _NO_VALUE
        elif kind == "string_too_short":
            what = "must not be empty"
        elif kind == "too_long":  # an array (checked before its entries)
            what = f"more than the limit of {ctx.get('max_length')} entries"
            got = _Raw(f"{ctx.get('actual_length')} entries")
            allowed = f"at most {ctx.get('max_length')} entries"
        elif kind == "value_error":
            what = str(ctx.get("error", err["msg"]))
        else:
            what = err["msg"][:1].lower() + err["msg"][1:]
        lines.append(_line(path, what, got, allowed))
    return _cut(lines, [])


def _cut(lines: list[str], rest: list[Any]) -> list[str]:
    """The first MAX_PROBLEMS of ``lines``, then a line that counts the others: those and the
    problems in ``rest`` (pydantic errors and _Issues not yet worded)."""
    more = len(lines) - MAX_PROBLEMS
    for err in rest:
        error = err if isinstance(err, _Issues) else (err.get("ctx") or {}).get("error")
        if isinstance(error, ScenarioError):
            more += len(error.problems)
        else:
            more += len(error.issues) if isinstance(error, _Issues) else 1
    if more <= 0:
        return lines
    return [
        *lines[:MAX_PROBLEMS],
        f"... and {more} more problems (a message lists the first {MAX_PROBLEMS})",
    ]
