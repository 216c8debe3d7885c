"""How problems with a scenario are reported.

:class:`ScenarioError` carries one line per problem,
``<dotted.field.path>: <what is wrong> (got <value>; allowed: <what>)``. Our own validators
collect :class:`_Issue` objects and raise them as :class:`_Issues` (a ``ValueError``, so they
travel through pydantic); :func:`airtcp.config.convert.convert_validation_error` turns
pydantic's errors, theirs included, into those lines. The helpers here word the lines
(``_fmt``, ``_num``, ``_line`` ...). This module does not import pydantic: a run validated by
:mod:`airtcp.config.plain` never loads it.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Iterable


class ScenarioError(ValueError):
    """An invalid scenario; ``problems`` holds one line per problem, each naming its field."""

    def __init__(self, problems: str | Iterable[str]) -> None:
        self.problems: list[str] = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


# ---------------------------------------------------------------------------------------------
# Problems found by our own validators. They travel through pydantic as a ValueError and are
# unpacked again by _convert_validation_error, so their paths join pydantic's own.

_NO_VALUE = object()


class _Issue:
    """One problem: ``loc`` relative to the model that found it, what is wrong, the value
    (if any) and what is allowed (empty: the field's own ``allowed`` text)."""

    __slots__ = ("allowed", "got", "loc", "what")

    def __init__(
        self, loc: tuple[str | int, ...], what: str, got: object = _NO_VALUE, allowed: str = ""
    ) -> None:
        self.loc, self.what, self.got, self.allowed = loc, what, got, allowed


class _Issues(ValueError):
    """The problems one validator found, raised together."""

    def __init__(self, issues: list[_Issue]) -> None:
        self.issues = issues
        super().__init__("; ".join(i.what for i in issues))


class _Raw(str):
    """A description shown as is in "got ..." (not quoted like a string value)."""

    __slots__ = ()


# An error message echoes at most this many characters of a bad value or key ...
_ECHO_CHARS = 60
# ... and lists at most this many problems (a file of 10^5 unknown keys gave 10^5 lines, each
# with its "did you mean", in 15 s).
MAX_PROBLEMS = 100


def _segment(key: object) -> str:
    """A key as a segment of a dotted path: quoted if it is blank or holds a dot, a space or
    a quote (``flows.0." "``), so the path stays readable."""
    text = str(key)
    if isinstance(key, str) and (not text.strip() or any(c in text for c in ' ."\t\n')):
        return _clip(json.dumps(text), 40)
    return text


def _clip(text: str, limit: int = _ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(text)} characters)"


def _fmt(value: object) -> str:
    """A value as the user wrote it in TOML (a short prefix of a long one)."""
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _clip(json.dumps(value))
    if isinstance(value, float):
        return _num(value)
    if value is None:
        return "nothing"
    if isinstance(value, dict | list | tuple):
        try:
            text = json.dumps(value, default=str)
        except (ValueError, RecursionError):  # nested too deep to print
            text = f"a {type(value).__name__} nested too deeply to show"
        return _clip(text)
    return _clip(str(value))


def _num(x: object) -> str:
    """A number as written: integral floats without ".0", others in full (54.0000001, not 54)."""
    if isinstance(x, float) and math.isfinite(x) and x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x) if isinstance(x, float) else _clip(str(x))


def _names(names: Iterable[str], limit: int = 20) -> str:
    names = list(names)
    shown = ", ".join(json.dumps(n) for n in names[:limit])
    return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")


def _line(path: str, what: str, got: object = _NO_VALUE, allowed: str = "") -> str:
    parts = []
    if got is not _NO_VALUE:
        parts.append(f"got {_fmt(got)}")
    if allowed:
        parts.append(f"allowed: {allowed}")
    return f"{_clip(path, 120)}: {what}" + (f" ({'; '.join(parts)})" if parts else "")


def _check_choice(
    issues: list[_Issue],
    loc: tuple[str | int, ...],
    value: str | None,
    choices: tuple[str, ...],
    what: str,
) -> None:
    """An issue if ``value`` (unset is fine) is not one of ``choices``."""
    if value is None or value in choices:
        return
    close = difflib.get_close_matches(value.lower(), choices, n=1)
    hint = f"; did you mean {json.dumps(close[0])}?" if close else ""
    issues.append(_Issue(loc, f"unknown {what}{hint}", value, ", ".join(choices)))
