"""Reading scenarios: TOML files into plain dicts (a regular file of bounded size, its text
bounded before it is parsed: :func:`read_toml_text`, config/scan.py), the check that a dict is
what TOML can express (:func:`check_plain`), and ``--set KEY=VALUE`` overrides
(:func:`apply_overrides`).
"""

from __future__ import annotations

import copy
import json
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from airtcp.config.errors import (
    ScenarioError,
    _clip,
    _fmt,
    _line,
    _Raw,
    _segment,
)
from airtcp.config.limits import MAX_DEPTH, MAX_TOML_BYTES
from airtcp.config.scan import check_toml_text

if TYPE_CHECKING:
    from airtcp.config.models import Scenario

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def check_plain(data: object, root: str = "scenario") -> None:
    """Raise :class:`ScenarioError` unless ``data`` is nested at most MAX_DEPTH deep and every
    table key is a string (what TOML can express). Iterative: no recursion on deep input; a
    scalar costs a type check (the paths are built for the tables and arrays only)."""
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
        keyed = isinstance(value, Mapping)
        for key, item in items:
            if keyed and not isinstance(key, str):
                raise ScenarioError(
                    _line(
                        _clip(path),
                        "a table key is not a string",
                        _Raw(_clip(repr(key))),
                        "string keys, as in TOML",
                    )
                )
            if isinstance(item, Mapping | list | tuple):
                sub = _segment(key) if path == root else f"{path}.{_segment(key)}"
                stack.append((item, sub, depth + 1))


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    check_toml_text(text, source)
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


_FILE_TYPES = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)
_MIB = f"{MAX_TOML_BYTES} bytes ({MAX_TOML_BYTES / 2**20:g} MiB)"


def _check_file_type(path: Path, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise ScenarioError(
            f"{path}: is a directory, not a {what} (allowed: a regular file of at most {_MIB})"
        )
    kind = next((name for test, name in _FILE_TYPES if test(mode)), "not a regular file")
    raise ScenarioError(
        f"{path}: not a regular file (got {kind}; allowed: a regular {what} of at most {_MIB})"
    )


def read_toml_text(path: str | Path, what: str = "scenario file") -> str:
    """The text of the TOML file ``path``: a regular file of at most MAX_TOML_BYTES of UTF-8.

    A device, a named pipe or a socket is refused before it is opened for reading (/dev/zero
    never ends, a pipe blocks), and no more than MAX_TOML_BYTES + 1 bytes are read. Raises
    FileNotFoundError if ``path`` does not exist, another OSError if it cannot be read, and
    ScenarioError naming ``path`` otherwise.
    """
    path = Path(path)
    _check_file_type(path, os.stat(path).st_mode, what)
    # Non-blocking, no controlling terminal: the file may have been swapped for a pipe or a
    # terminal since the stat; the fstat below sees what was opened.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except IsADirectoryError:  # Windows opens no directory
        _check_file_type(path, stat.S_IFDIR, what)
        raise
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        _check_file_type(path, st.st_mode, what)
        if st.st_size > MAX_TOML_BYTES:
            raise ScenarioError(
                f"{path}: too large for a {what} (got {st.st_size} bytes; allowed: at most {_MIB})"
            )
        raw = f.read(MAX_TOML_BYTES + 1)  # a file that grew since the fstat
    if len(raw) > MAX_TOML_BYTES:
        raise ScenarioError(
            f"{path}: too large for a {what} (got more than {MAX_TOML_BYTES} bytes; allowed: "
            f"at most {_MIB})"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a scenario file into a plain dict (not yet validated).

    Raises FileNotFoundError if it does not exist, ScenarioError if it is not a regular file of
    at most MAX_TOML_BYTES, if its text passes a bound of docs/scenarios.md "Limits" or if it is
    not valid TOML.
    """
    return _parse_toml(read_toml_text(path), str(path))


def loads_toml(text: str, source: str = "scenario") -> dict[str, Any]:
    """Parse scenario text as :func:`load_toml` parses a file's (bounded first, then TOML);
    ``source`` names it in messages. With :func:`read_toml_text`, for a caller that keeps the
    text as given (airtcp.provenance)."""
    return _parse_toml(text, source)


def load(path: str | Path) -> Scenario:
    """Read and validate a scenario TOML file."""
    from airtcp.config.models import Scenario  # pydantic's, imported when asked for

    return Scenario.from_dict(load_toml(path))


def _split_key(key: str) -> list[str | int]:
    if key.count(".") >= MAX_DEPTH:  # a value that deep would sit in a table MAX_DEPTH deep
        raise ScenarioError(
            f"{_clip(key)}: nested too deeply (got {key.count('.') + 1} parts; "
            f"allowed: at most {MAX_DEPTH})"
        )
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


# The value of ``--set KEY=null``: the key goes (TOML has no null); the string "null" is
# ``--set 'KEY="null"'``.
UNSET = "null"


def unset_dotted(data: dict[str, Any], key: str) -> None:
    """Remove the key ``"a.b.0.c"`` from ``data`` (``--set a.b.0.c=null``): the field goes back
    to its default, or to what a template sets. A key the scenario does not have is fine if the
    scenario format knows it (nothing to remove), an error naming it if not."""
    parts = _split_key(key)
    cur: Any = data
    for part in parts[:-1]:
        if isinstance(cur, dict) and str(part) in cur:
            cur = cur[str(part)]
        elif isinstance(cur, list) and isinstance(part, int) and part < len(cur):
            cur = cur[part]
        else:
            cur = None
            break
    last = parts[-1]
    if isinstance(cur, dict) and str(last) in cur:
        del cur[str(last)]
        return
    if isinstance(cur, list) and isinstance(last, int) and last < len(cur):
        raise ScenarioError(
            _line(key, "an array entry cannot be unset", UNSET, "unset the whole array")
        )
    from airtcp.config.plain import core_only, walk

    owner, field = walk(tuple(parts))
    # A field of the core's that the section passes through (models._PassThrough) is known too.
    known = field is not None or (owner is not None and str(last) in core_only(owner))
    if not known and "template" not in data:
        raise ScenarioError(
            _line(
                key,
                "not a field of the scenario, so nothing to unset",
                UNSET,
                "a field of docs/scenarios.md",
            )
        )


def _expects_string(key: str) -> bool:
    try:
        loc = tuple(_split_key(key))
    except ScenarioError:
        return False
    from airtcp.config.plain import expects_string

    return expects_string(loc)


def parse_override_value(key: str, raw: str) -> object:
    """``raw`` as a TOML value; a plain string if it is not one or if ``key`` wants a string."""
    raw = raw.strip()
    # "v" sits where the key's last part does (a key too deep is refused by set_dotted).
    check_toml_text(f"v = {raw}", f"--set {_clip(key)}", min(key.count("."), MAX_DEPTH), True)
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
    or if the field wants a string (so ``standard=80211b`` works unquoted); ``null`` removes
    the key (:func:`unset_dotted`).
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
            if raw.strip() == UNSET:
                unset_dotted(out, key)
            else:
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
