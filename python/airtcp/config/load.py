"""Reading scenarios: TOML files into plain dicts, the check that a dict is what TOML can
express (:func:`check_plain`), and ``--set KEY=VALUE`` overrides (:func:`apply_overrides`).
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from airtcp.config.errors import (
    ScenarioError,
    _clip,
    _fmt,
    _line,
    _Raw,
    _segment,
    _strip_optional,
    _walk,
)
from airtcp.config.limits import MAX_DEPTH
from airtcp.config.models import Scenario

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def check_plain(data: object, root: str = "scenario") -> None:
    """Raise :class:`ScenarioError` unless ``data`` is nested at most MAX_DEPTH deep and every
    table key is a string (what TOML can express). Iterative: no recursion on deep input."""
    stack: list[tuple[object, str, int]] = [(data, root, 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, Mapping):
            items: Iterable[tuple[object, object]] = value.items()
        elif isinstance(value, list | tuple):
            items = enumerate(value)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise ScenarioError(
                f"{_clip(path)}: nested more than {MAX_DEPTH} tables or arrays deep "
                f"(allowed: at most {MAX_DEPTH})"
            )
        for key, item in items:
            if isinstance(value, Mapping) and not isinstance(key, str):
                raise ScenarioError(
                    _line(
                        _clip(path),
                        "a table key is not a string",
                        _Raw(_clip(repr(key))),
                        "string keys, as in TOML",
                    )
                )
            sub = _segment(key) if path == root else f"{path}.{_segment(key)}"
            stack.append((item, sub, depth + 1))


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ScenarioError(
            f"{source}: invalid TOML: nested too deeply (allowed: at most {MAX_DEPTH} levels)"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        if m:
            where = f"line {m.group(1)} column {m.group(2)}"
            msg = msg[: m.start()]
        else:
            where = "the end of the file"
            msg = msg.replace("(at end of document)", "").strip()
        raise ScenarioError(f"{source}: invalid TOML at {where}: {msg}") from None


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a scenario file into a plain dict (not yet validated).

    Raises FileNotFoundError if it does not exist, ScenarioError if it is not valid TOML.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise ScenarioError(f"{path}: is a directory, not a scenario file") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return _parse_toml(text, str(path))


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario TOML file."""
    return Scenario.from_dict(load_toml(path))


def _split_key(key: str) -> list[str | int]:
    parts: list[str | int] = []
    for part in key.split("."):
        part = part.strip()
        if not part:
            raise ScenarioError(
                f"{_clip(json.dumps(key))}: empty segment in dotted key (allowed: e.g. mac.aifsn)"
            )
        parts.append(int(part) if part.isdigit() else part)
    return parts


def set_dotted(data: dict[str, Any], key: str, value: object) -> None:
    """Set ``data[a][b][0][c] = value`` for key ``"a.b.0.c"``, creating missing tables."""
    parts = _split_key(key)
    cur: Any = data
    for depth, part in enumerate(parts):
        here = ".".join(str(p) for p in parts[: depth + 1])
        last = depth == len(parts) - 1
        nxt = None if last else parts[depth + 1]
        if isinstance(cur, dict):
            if isinstance(part, int):
                part = str(part)
            if last:
                cur[part] = value
            elif part not in cur:
                if isinstance(nxt, int):
                    raise ScenarioError(f"{here}: the scenario has no entries here to index into")
                cur[part] = {}
            cur = None if last else cur[part]
        elif isinstance(cur, list):
            if not isinstance(part, int) or part >= len(cur):
                raise ScenarioError(
                    _line(here, "no such entry", part, f"an index 0..{len(cur) - 1}")
                    if cur
                    else f"{here}: the array is empty"
                )
            if last:
                cur[part] = value
            else:
                cur = cur[part]
        else:
            parent = ".".join(str(p) for p in parts[:depth])
            raise ScenarioError(
                _line(here, f"{parent} is not a table, cannot set a key inside it", cur)
            )


def _expects_string(key: str) -> bool:
    try:
        loc = tuple(_split_key(key))
    except ScenarioError:
        return False
    _, _, field = _walk(loc, Scenario)
    if field is None:
        return False
    tp = _strip_optional(field.annotation)
    if tp is str:
        return True
    return get_origin(tp) is Literal and all(isinstance(a, str) for a in get_args(tp))


def parse_override_value(key: str, raw: str) -> object:
    """``raw`` as a TOML value; a plain string if it is not one or if ``key`` wants a string."""
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw
    except RecursionError:
        raise ScenarioError(
            f"--set {_clip(key)}: value nested too deeply (allowed: at most {MAX_DEPTH} levels)"
        ) from None
    if not isinstance(value, str) and _expects_string(key):
        return raw
    return value


def apply_overrides(data: Mapping[str, Any], overrides: Iterable[str]) -> dict[str, Any]:
    """Apply ``KEY=VALUE`` strings (``--set``) to a copy of ``data``; validate it afterwards.

    Keys are dotted paths (``mac.short_retry_limit``, ``flows.0.rate_mbps``); values are TOML
    values (``20``, ``true``, ``"80211b"``, ``[1, 2]``), or plain strings if they do not parse
    or if the field wants a string (so ``standard=80211b`` works unquoted).
    """
    check_plain(data)
    out = copy.deepcopy(dict(data))
    problems: list[str] = []
    for item in overrides:
        key, sep, raw = str(item).partition("=")
        key = key.strip()
        if not sep or not key:
            problems.append(
                f"--set {_clip(str(item))}: expected KEY=VALUE (got {_fmt(str(item))}; "
                "allowed: e.g. stations=20 or mac.short_retry_limit=3)"
            )
            continue
        try:
            set_dotted(out, key, parse_override_value(key, raw))
        except ScenarioError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ScenarioError(problems)
    return out


def apply_value_overrides(
    data: Mapping[str, Any], overrides: Mapping[str, object]
) -> dict[str, Any]:
    """Like :func:`apply_overrides` but with Python values: ``{"mac.aifsn": 3}``."""
    check_plain(data)
    check_plain(overrides, "overrides")
    out = copy.deepcopy(dict(data))
    problems: list[str] = []
    for key, value in overrides.items():
        try:
            set_dotted(out, str(key), value)
        except ScenarioError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ScenarioError(problems)
    return out
