"""The bounds of a TOML text checked before tomllib parses it (airtcp.config.scan, issue 29).

The scan must never stop early on text that tomllib parses (what follows would go unchecked),
must count keys and array elements as docs/scenarios.md "Limits" says, and must refuse a
nesting exactly when check_plain would refuse the parsed data (never more often).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from airtcp.config import Scenario, ScenarioError, apply_overrides, check_plain, load_toml
from airtcp.config.errors import MAX_PROBLEMS
from airtcp.config.limits import MAX_DEPTH, MAX_FLOWS, MAX_TOML_BYTES, MAX_TOML_ITEMS
from airtcp.config.load import parse_override_value, read_toml_text
from airtcp.config.scan import _Scan, _Stop, check_toml_text

REPO = Path(__file__).resolve().parents[2]

SETTINGS = settings(
    max_examples=400,
    derandomize=True,
    database=None,
    deadline=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=list(HealthCheck),
)


def scan(text: str) -> tuple[bool, int]:
    """(whether the scan read to the end, the keys and array elements it counted)."""
    s = _Scan(text, "t.toml", False)
    try:
        s.document(0)
    except _Stop:
        return False, s.items
    return True, s.items


def plain_refuses(text: str) -> bool:
    try:
        check_plain(tomllib.loads(text))
    except ScenarioError:
        return True
    return False


def scan_refuses(text: str) -> bool:
    try:
        check_toml_text(text, "t.toml")
    except ScenarioError:
        return True
    return False


# --- valid TOML of every shape, with the count it must give ----------------------------------

_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x7f"),
    max_size=6,
)
_LITERAL_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="'"),
    max_size=6,
)
_PLAIN = st.text(st.sampled_from("ab .,=[]{}#:-+\t"), max_size=5)  # no quote, no backslash
_SCALARS = st.sampled_from(
    [
        "0", "+17", "-5", "1_000", "0xDEAD_beef", "0o17", "0b1010", "1.5", "-0.01", "5e+22",
        "1e06", "6.626e-34", "inf", "-inf", "+nan", "224_617.445_991", "true", "false",
        "1979-05-27T07:32:00Z", "1979-05-27 07:32:00-07:00", "1979-05-27t00:32:00.999999",
        "1979-05-27", "07:32:00", "00:32:00.999",
    ]
)  # fmt: skip
_SPACE = st.sampled_from(["", " ", "\t", "  "])
_GAP = st.sampled_from(["", " ", "\n", " # a, comment [ with ] {\n", "\n\n  ", "\t\n"])


@st.composite
def _key(draw, tag: str) -> tuple[str, int]:
    """A dotted key whose first part holds ``tag`` (unique within its table)."""
    parts = []
    for k in range(draw(st.integers(1, 3))):
        prefix = tag if k == 0 else ""
        kind = draw(st.sampled_from(["bare", "basic", "literal"]))
        if kind == "bare":
            parts.append(prefix + draw(st.from_regex(r"[A-Za-z0-9_-]{0,4}", fullmatch=True)))
            parts[-1] = parts[-1] or "k"
        elif kind == "basic":
            parts.append(json.dumps(prefix + draw(_TEXT), ensure_ascii=False))
        else:
            parts.append("'" + prefix + draw(_LITERAL_TEXT) + "'")
    seps = [draw(st.sampled_from([".", " . ", "\t.", ". "])) for _ in parts[1:]]
    text = parts[0] + "".join(sep + p for sep, p in zip(seps, parts[1:], strict=True))
    return text, len(parts)


@st.composite
def _ml_basic(draw) -> str:
    pieces = draw(
        st.lists(
            st.one_of(
                _PLAIN.filter(bool),
                st.sampled_from(["\\n", '\\"', "\\\\", "\\u00e9", "\\\n   ", "\n", "\\  \n "]),
                _PLAIN.filter(bool).map(lambda p: '"' + p),
                _PLAIN.filter(bool).map(lambda p: '""' + p),
            ),
            max_size=4,
        )
    )
    return '"""' + "".join(pieces) + draw(st.sampled_from(["", '"', '""'])) + '"""'


@st.composite
def _ml_literal(draw) -> str:
    plain = st.text(st.sampled_from('ab .,=[]{}#"\\\n'), min_size=1, max_size=5)
    pieces = draw(
        st.lists(st.one_of(plain, plain.map(lambda p: "'" + p), plain.map(lambda p: "''" + p)))
    )
    return "'''" + "".join(pieces) + draw(st.sampled_from(["", "'", "''"])) + "'''"


@st.composite
def _value(draw, budget: int, inline: bool) -> tuple[str, int]:
    """A value and the keys and array elements in it; ``inline``: inside an inline table (no
    newline between its own tokens)."""
    kinds = ["scalar", "basic", "literal", "ml-basic", "ml-literal"]
    kind = draw(st.sampled_from(kinds + (["array", "table"] if budget > 0 else [])))
    if kind == "scalar":
        return draw(_SCALARS), 0
    if kind == "basic":
        return json.dumps(draw(_TEXT), ensure_ascii=False), 0
    if kind == "literal":
        return "'" + draw(_LITERAL_TEXT) + "'", 0
    if kind == "ml-basic":
        return draw(_ml_basic()), 0
    if kind == "ml-literal":
        return draw(_ml_literal()), 0
    if kind == "array":
        gap = _SPACE if inline else _GAP
        elements = draw(st.lists(_value(budget - 1, inline), max_size=4))
        text = "[" + draw(gap)
        for text_k, _ in elements:
            text += text_k + draw(gap) + "," + draw(gap)
        if elements and draw(st.booleans()):  # no trailing comma
            text = text[: text.rindex(",")] + draw(gap)
        return text + "]", len(elements) + sum(n for _, n in elements)
    pairs = draw(st.lists(_pair(budget - 1, inline=True), max_size=3))
    inner = ", ".join(p for p, _ in pairs)
    return "{" + draw(_SPACE) + inner + draw(_SPACE) + "}", sum(n for _, n in pairs)


@st.composite
def _pair(draw, budget: int, inline: bool) -> tuple[str, int]:
    tag = f"u{draw(st.integers(0, 10**9))}"
    key, parts = draw(_key(tag))
    value, items = draw(_value(budget, inline))
    return f"{key}{draw(_SPACE)}={draw(_SPACE)}{value}", parts + items


@st.composite
def documents(draw) -> tuple[str, int]:
    """A TOML document (often valid: the tests keep what tomllib parses) and its count."""
    lines, items = [], 0

    def pairs() -> None:
        nonlocal items
        for pair, n in draw(st.lists(_pair(3, inline=False), max_size=4)):
            comment = draw(st.sampled_from(["", " # c", "\t#"]))
            lines.append(draw(_SPACE) + pair + comment)
            items += n

    pairs()
    for t in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["table", "array", "sub"]))
        key, parts = draw(_key(f"t{t}x"))
        if kind == "table":
            lines.append(f"[{draw(_SPACE)}{key}{draw(_SPACE)}]")
            items += parts
            pairs()
        else:
            for _ in range(draw(st.integers(1, 2))):
                lines.append(f"[[{draw(_SPACE)}{key}{draw(_SPACE)}]]")
                items += parts
                pairs()
            if kind == "sub":  # a table under the array's last table
                lines.append(f"[{key}.sub]")
                items += parts + 1
                pairs()
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "# a comment", "  "])))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + draw(st.sampled_from(["", newline])), items


@SETTINGS
@given(documents())
def test_valid_toml_is_read_to_the_end_and_counted(doc):
    text, items = doc
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # the generator's duplicates and the like: not what is tested here
    assert scan(text) == (True, items), text


_EDITS = st.sampled_from(list("\"'[]{}.,=#\\\n \t") + ['"""', "'''", "[[", "]]", "a"])


@SETTINGS
@given(documents(), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 2), _EDITS)))
def test_what_tomllib_parses_is_never_left_unchecked(doc, edits):
    """Edited documents: if tomllib parses one, the scan read it to the end."""
    text = doc[0]
    for where, how, piece in edits:
        k = where % (len(text) + 1)
        text = text[:k] + piece + text[k + (how > 0) :] if how < 2 else text[:k] + text[k + 1 :]
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        check_toml_text(text, "t.toml")  # never anything but a ScenarioError or False
        return
    assert scan(text)[0], text


def test_examples_are_read_to_the_end():
    files = sorted((REPO / "examples").rglob("*.toml"))
    assert len(files) > 10
    for path in files:
        assert scan(path.read_text())[0], path
        load_toml(path)


# --- the nesting: refused exactly when check_plain refuses -----------------------------------


def _constructs(d: int) -> dict[str, str]:
    """Texts whose deepest table or array is at depth ``d`` (the top-level table is at 0)."""
    a = ["a"] * d
    return {
        "dotted-key": ".".join([*a, "a"]) + " = 1\n",
        "quoted-dotted-key": ".".join(['"a.b"'] * d + ["'c'"]) + " = 1\n",
        "table-header": "[" + ".".join(a) + "]\nx = 1\n",
        "array-of-tables": "[[" + ".".join(a[:-1]) + "]]\nx = 1\n",
        "arrays": "x = " + "[" * d + "]" * d + "\n",
        "inline-tables": "x = " + "{a = " * (d - 1) + "{}" + "}" * (d - 1) + "\n",
        "inline-dotted": "x = {" + ".".join([*a[:-1], "a"]) + " = 1}\n",
        "mixed": "[" + ".".join(a[: d // 3]) + "]\n"
        + ".".join(a[: d // 3]) + " = " + "[" * (d - 2 * (d // 3) - 1) + "{a = []}"
        + "]" * (d - 2 * (d // 3) - 1) + "\n",
        "array-of-inline": "x = " + "[" * (d // 2) + "{a = " * (d - d // 2 - 1) + "[]"
        + "}" * (d - d // 2 - 1) + "]" * (d // 2) + "\n",
    }  # fmt: skip


@pytest.mark.parametrize("d", [6, 7, MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_nesting_refused_exactly_when_check_plain_refuses(d):
    for name, text in _constructs(d).items():
        assert scan_refuses(text) == plain_refuses(text) == (d >= MAX_DEPTH), (name, text)


def test_nesting_under_an_array_of_tables_is_left_to_check_plain():
    # [[a]] then [a.b...]: the scan counts [a.b] a level shallower than it is (it does not keep
    # which keys are arrays of tables); check_plain, after the parse, refuses it
    text = "[[a]]\n[" + ".".join(["a"] * (MAX_DEPTH - 1)) + "]\n"
    assert not scan_refuses(text) and plain_refuses(text)


def test_nesting_message_names_file_line_and_key():
    text = "x = 1\n\n" + "a" + ".a" * 49_999 + " = 1\n"
    with pytest.raises(ScenarioError) as exc:
        check_toml_text(text, "bomb.toml")
    assert str(exc.value) == (
        "bomb.toml: line 3: a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a...: nested "
        f"too deeply (got more than {MAX_DEPTH} levels of tables and arrays; allowed: at most "
        f"{MAX_DEPTH})"
    )
    with pytest.raises(ScenarioError, match=r"^t: line 1: deep: nested too deeply"):
        check_toml_text("deep = " + "[" * 100, "t")  # refused before the text is found cut


# --- the count -----------------------------------------------------------------------------


def _texts(n: int) -> dict[str, str]:
    """Texts of exactly ``n`` keys and array elements, by each path of the scan."""
    return {
        "key-lines": "".join(f"k{i} = 1\n" for i in range(n)),  # a key a line, in bulk
        "array-of-numbers": "x = [" + "1," * (n - 2) + "1]\n",  # elements, in bulk
        "array-of-strings": "x = [" + '"s",' * (n - 1) + "]\n",
        "dotted-keys": "".join(f"k{i}.b = 1\n" for i in range(n // 2)) + "z = 1\n" * (n % 2),
        "headers": "[[f]]\n" * n,
        "inline": "x = {" + ", ".join(f"k{i} = 1" for i in range(n - 1)) + "}\n",
        "quoted-keys": "".join(f'"k{i}" = 1\n' for i in range(n)),
    }


@pytest.mark.parametrize("name", list(_texts(10)))
def test_items_refused_exactly_over_the_limit(name):
    at, over = _texts(MAX_TOML_ITEMS)[name], _texts(MAX_TOML_ITEMS + 1)[name]
    assert scan(at) == (True, MAX_TOML_ITEMS)
    assert scan_refuses(over)


def test_items_message_names_the_line():
    text = "# many keys\n" + "".join(f"k{i} = 1\n" for i in range(MAX_TOML_ITEMS + 5))
    with pytest.raises(ScenarioError) as exc:
        check_toml_text(text, "keys.toml")
    assert str(exc.value) == (
        f"keys.toml: line {MAX_TOML_ITEMS + 2}: too many keys and array elements (got more than "
        f"{MAX_TOML_ITEMS}; allowed: at most {MAX_TOML_ITEMS} in all, every part of a dotted "
        "key or table header and every array element counted)"
    )


def test_strings_and_comments_count_nothing():
    text = (
        'a = "x.y.z = [1, 2, {"  # b.c = [1, 2]\n'
        "b = 'p.q = [3]'\n"
        'c = """\n[d.e]\nf = [1, 2]\n"""\n'
        "d = '''\n[[g]]\n'''\n"
        '"h.i" = 1\n'
    )
    assert scan(text) == (True, 5)


# --- the file --------------------------------------------------------------------------------


def test_file_size_bound(tmp_path):
    path = tmp_path / "s.toml"
    head = 'name = "big"\n'
    path.write_text(head + "#" * (MAX_TOML_BYTES - len(head) - 1) + "\n")
    assert load_toml(path) == {"name": "big"}
    path.write_text(head + "#" * (MAX_TOML_BYTES - len(head)) + "\n")
    with pytest.raises(ScenarioError) as exc:
        load_toml(path)
    assert str(exc.value) == (
        f"{path}: too large for a scenario file (got {MAX_TOML_BYTES + 1} bytes; allowed: at "
        f"most {MAX_TOML_BYTES} bytes (4 MiB))"
    )


def test_read_is_bounded_when_the_file_grows(tmp_path, monkeypatch):
    # a file that grows after its size was taken: read no further than the bound
    import os

    path = tmp_path / "s.toml"
    path.write_text("x = 1\n" * (MAX_TOML_BYTES // 6 + 1))
    real = os.fstat

    def small(fd):
        st = real(fd)
        return os.stat_result((*st[:6], 10, *st[7:]))  # st_size = 10

    monkeypatch.setattr(os, "fstat", small)
    with pytest.raises(ScenarioError, match=f"got more than {MAX_TOML_BYTES} bytes"):
        read_toml_text(path)


def test_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_toml(tmp_path / "nope.toml")


# --- --set ---------------------------------------------------------------------------------


def test_override_values_and_keys_bounded():
    with pytest.raises(ScenarioError, match=r"^--set x: value nested too deeply"):
        parse_override_value("x", "[" * 40 + "]" * 40)
    deep = ".".join(["a"] * MAX_DEPTH)
    with pytest.raises(
        ScenarioError, match=r"^--set a\.a.*\(63 characters\): value nested too deeply"
    ):
        parse_override_value(deep, "[1]")  # the array would be at depth 32
    assert parse_override_value(deep, "1") == 1
    with pytest.raises(ScenarioError, match="too many array elements and keys in the value"):
        parse_override_value("x", "[" + "1," * MAX_TOML_ITEMS + "]")
    assert parse_override_value("x", "[") == "["  # not TOML: a plain string, as before
    ok = apply_overrides({}, [".".join(["a"] * MAX_DEPTH) + "=1"])
    assert ok["a"]["a"]
    with pytest.raises(ScenarioError, match=f"nested too deeply .got {MAX_DEPTH + 1} parts"):
        apply_overrides({}, [".".join(["a"] * (MAX_DEPTH + 1)) + "=1"])


# --- what validation makes of what passes ----------------------------------------------------


def test_problems_listed_are_capped():
    with pytest.raises(ScenarioError) as exc:
        Scenario.from_dict({f"k{i}": 1 for i in range(1000)})
    problems = exc.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[0].startswith("k0: unknown field")
    assert problems[-1] == (
        f"... and {1000 - MAX_PROBLEMS} more problems (a message lists the first {MAX_PROBLEMS})"
    )
    with pytest.raises(ScenarioError) as exc:  # the problems of one validator, cut too
        Scenario.from_dict(
            {
                "stations": 2,
                "flows": [{"kind": "udp_saturating", "src": "x", "dst": "ap"}] * 300,
            }
        )
    assert len(exc.value.problems) == MAX_PROBLEMS + 1
    assert exc.value.problems[-1].startswith(f"... and {300 - MAX_PROBLEMS} more problems")


def test_flows_capped_after_globs():
    flow = {"kind": "udp_cbr", "src": "sta*", "dst": "ap", "rate_mbps": 0.01}
    s = Scenario.from_dict({"stations": 100, "flows": [flow] * (MAX_FLOWS // 100)})
    assert len(s.to_world_spec()["flows"]) == MAX_FLOWS
    with pytest.raises(ScenarioError) as exc:
        Scenario.from_dict({"stations": 100, "flows": [flow] * (MAX_FLOWS // 100 + 1)})
    assert exc.value.problems == [
        f"flows: more than the limit of {MAX_FLOWS} flows (flows.0..{MAX_FLOWS // 100} give "
        f"{MAX_FLOWS + 100}) (got {MAX_FLOWS + 100} flows; allowed: at most {MAX_FLOWS} flows "
        "in all; a glob src gives one flow per node it matches)"
    ]
    entries = [{"kind": "udp_saturating", "src": "sta1", "dst": "ap"}] * (MAX_FLOWS + 1)
    with pytest.raises(ScenarioError) as exc:
        Scenario.from_dict({"stations": 1, "flows": entries})
    assert exc.value.problems == [
        f"flows: more than the limit of {MAX_FLOWS} entries (got {MAX_FLOWS + 1} entries; "
        f"allowed: at most {MAX_FLOWS} entries)"
    ]
