"""The bounds of a TOML text, checked before tomllib parses it (docs/scenarios.md "Limits").

tomllib's cost is not bounded by the length of its input: a dotted key of n parts costs it
n^2 (it keeps every prefix: 50,000 parts in 100 kB took 5 GB), and the nesting and size of
what a file builds can be checked only once it is built. :func:`check_toml_text` walks TOML
1.0's token grammar once, in time linear in the text and with at most MAX_DEPTH frames of
recursion, and refuses

- a table or array nested MAX_DEPTH deep (the bound :func:`~airtcp.config.load.check_plain`
  checks on the parsed data), and
- more than MAX_TOML_ITEMS keys and array elements as written (every part of a dotted key or a
  table header counts: ``a.b = 1`` and ``[a.b]`` count 2 each).

It never refuses what check_plain accepts: its depths are exact, except that a table under an
array of tables (``[[a]]`` then ``[a.b]``) is counted one level shallower than it is. What it
cannot read is not valid TOML; it stops there and leaves the text to tomllib, which stops at
that point or before it with its own error, having parsed no more than was checked. It is
lenient where TOML is strict (a control character in a string, two values on one line): what
it lets through, tomllib refuses.
"""

from __future__ import annotations

import re

from airtcp.config.errors import ScenarioError
from airtcp.config.limits import MAX_DEPTH, MAX_TOML_ITEMS

# Possessive quantifiers (*+, ++): no backtracking, so a match costs the length it looks at.
_SPACE = re.compile(r"[ \t]*+")
_BLANK = re.compile(r"(?:[ \t\r\n]++|#[^\n]*+)*+")  # whitespace, newlines and comments
_BARE = re.compile(r"[A-Za-z0-9_-]++")
_BASIC = re.compile(r'"(?:[^"\\\n]++|\\.)*+"')
_LITERAL = re.compile(r"'[^'\n]*+'")
# Up to two quotes after the closing three belong to the string (TOML 1.0 "String").
_ML_BASIC = re.compile(r'"""(?:[^"\\]++|\\.|"(?!""))*+"""(?:""|")?', re.DOTALL)
_ML_LITERAL = re.compile(r"'''(?:[^']++|'(?!''))*+'''(?:''|')?")
# Integers, floats (inf, nan), booleans and dates, a space between a date and its time.
_SCALAR = re.compile(r"[0-9A-Za-z_+.:-]++(?: [0-9][0-9A-Za-z_+.:-]*+)?")
# Fast paths, one match for many items: lines "key = value" with a one-part key and a value
# that nests nothing (a key each), and array elements of one scalar each followed by a comma
# (an element per comma).
_SIMPLE_LINES = re.compile(
    r"""(?:[ \t]*+[A-Za-z0-9_-]++[ \t]*+=[ \t]*+"""
    r"""(?:[0-9A-Za-z_+.:-]++|"[^"\\\n]*+"|'[^'\n]*+')"""
    r"""[ \t]*+(?:\#[^\n]*+)?+\r?\n)++"""
)
_SIMPLE_ELEMENTS = re.compile(r"(?:[0-9A-Za-z_+.:-]++[ \t\r\n]*+,[ \t\r\n]*+)++")


def _skip(pattern: re.Pattern[str], text: str, i: int) -> int:
    """The end of ``pattern`` (which matches the empty string) at ``i``."""
    m = pattern.match(text, i)
    return m.end() if m else i


class _Stop(Exception):
    """Not TOML: the scan stops and tomllib reports the error."""


class _Scan:
    def __init__(self, text: str, source: str, value: bool) -> None:
        self.text = text
        self.source = source
        self.value_only = value  # the text is "v = <the value of --set>"
        self.items = 0
        # The top-level key or table header being read (for messages): where it starts, and
        # where it ends once it is read (-1 before).
        self.key_start, self.key_end = 0, -1

    # -- refusals --------------------------------------------------------------------------

    def _line(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def item(self, pos: int, count: int = 1, per_line: bool = False) -> None:
        """``count`` keys or array elements, the first at ``pos`` (one a line if
        ``per_line``)."""
        over = self.items + count - MAX_TOML_ITEMS
        self.items += count
        if over <= 0:
            return
        if self.value_only:
            where = f"{self.source}: too many array elements and keys in the value"
        else:
            line = self._line(pos) + (count - over if per_line else 0)
            where = f"{self.source}: line {line}: too many keys and array elements"
        raise ScenarioError(
            f"{where} (got more than {MAX_TOML_ITEMS}; allowed: at most {MAX_TOML_ITEMS} in "
            "all, every part of a dotted key or table header and every array element counted)"
        )

    def nest(self, depth: int, pos: int) -> None:
        """A table or an array at ``depth`` (the top-level table is at 0) starts at ``pos``."""
        if depth < MAX_DEPTH:
            return
        if self.value_only:
            where = f"{self.source}: value"
        else:
            key = self.text[self.key_start : pos if self.key_end < 0 else self.key_end].strip()
            key = key if len(key) <= 60 else key[:57] + "..."
            where = f"{self.source}: line {self._line(pos)}: {key}:"
        raise ScenarioError(
            f"{where} nested too deeply (got more than {MAX_DEPTH} levels of tables and "
            f"arrays; allowed: at most {MAX_DEPTH})"
        )

    # -- the grammar -----------------------------------------------------------------------

    def document(self, depth: int) -> None:
        text, end = self.text, len(self.text)
        table = depth  # the depth of the table that key/value lines go into
        i = 0
        while True:
            i = _skip(_BLANK, text, i)
            if i >= end:
                return
            m = _SIMPLE_LINES.match(text, i)
            if m:
                self.item(i, text.count("\n", i, m.end()), per_line=True)
                i = m.end()
                continue
            if text[i] != "[":
                self.key_start, self.key_end = i, -1
                i = self.key_value(i, table, top=True)
                continue
            array = text.startswith("[[", i)  # [[a.b]]: an array of tables
            self.key_start, self.key_end = i, -1
            i, parts = self.key(i + 1 + array, 0)
            # [a.b]: the table b is at depth 2; [[a.b]]: the array b too, the table it appends at 3
            table = parts + array
            self.nest(table, i)
            i = _skip(_SPACE, text, i)
            close = "]]" if array else "]"
            if not text.startswith(close, i):
                raise _Stop
            i += len(close)

    def key(self, i: int, depth: int) -> tuple[int, int]:
        """A dotted key from ``i`` inside the table at ``depth``: (its end, its parts)."""
        text = self.text
        parts = 0
        while True:
            i = _skip(_SPACE, text, i)
            c = text[i : i + 1]
            m = (_BASIC if c == '"' else _LITERAL if c == "'" else _BARE).match(text, i)
            if m is None:
                raise _Stop
            parts += 1
            self.item(i)
            i = _skip(_SPACE, text, m.end())
            if text[i : i + 1] != ".":
                return i, parts
            self.nest(depth + parts, i)  # a part followed by a dot is a table
            i += 1

    def key_value(self, i: int, depth: int, top: bool = False) -> int:
        """``key = value`` from ``i`` in the table at ``depth`` (``top``: the top-level key of
        a line, not one in an inline table); returns its end."""
        text = self.text
        i, parts = self.key(i, depth)
        if text[i : i + 1] != "=":
            raise _Stop
        if top:
            self.key_end = i
        i = _skip(_SPACE, text, i + 1)
        return self.value(i, depth + parts)

    def value(self, i: int, depth: int) -> int:
        """A value from ``i`` that sits at ``depth``; returns its end."""
        text = self.text
        c = text[i : i + 1]
        if c == "[":
            self.nest(depth, i)
            i += 1
            while True:
                i = _skip(_BLANK, text, i)
                m = _SIMPLE_ELEMENTS.match(text, i)
                if m:
                    self.item(i, text.count(",", i, m.end()))
                    i = _skip(_BLANK, text, m.end())
                if text[i : i + 1] == "]":
                    return i + 1
                self.item(i)
                i = _skip(_BLANK, text, self.value(i, depth + 1))
                c = text[i : i + 1]
                if c == "]":
                    return i + 1
                if c != ",":
                    raise _Stop
                i += 1
        if c == "{":
            self.nest(depth, i)
            i = _skip(_BLANK, text, i + 1)
            if text[i : i + 1] == "}":
                return i + 1
            while True:
                i = _skip(_BLANK, text, self.key_value(i, depth))
                c = text[i : i + 1]
                if c == "}":
                    return i + 1
                if c != ",":
                    raise _Stop
                i = _skip(_BLANK, text, i + 1)
        if c == '"':
            m = (_ML_BASIC if text.startswith('"""', i) else _BASIC).match(text, i)
        elif c == "'":
            m = (_ML_LITERAL if text.startswith("'''", i) else _LITERAL).match(text, i)
        else:
            m = _SCALAR.match(text, i)
        if m is None:
            raise _Stop
        return m.end()


def check_toml_text(text: str, source: str, depth: int = 0, value: bool = False) -> bool:
    """Raise :class:`ScenarioError` naming ``source``, the line and the key if ``text`` nests
    a table or an array MAX_DEPTH deep or holds more than MAX_TOML_ITEMS keys and array
    elements; ``depth``: how deep the text's top-level table sits; ``value``: the text is
    ``v = <a --set value>``, and the messages speak of the value. Returns False if the scan
    stopped early at something that is not TOML (tomllib will say what), else True."""
    try:
        _Scan(text, source, value).document(depth)
    except _Stop:
        return False
    return True
