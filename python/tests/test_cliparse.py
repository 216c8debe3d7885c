"""The command line's declarations (airtcp.cliparse): what a declared parameter takes, the help,
and every usage error as one ``error: <where>: <what>`` line with exit 2."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pytest
from cli_runner import CliRunner
from fuzz_harness import ERROR_LINE

from airtcp import cli
from airtcp.cliparse import App, Arg, Opt

runner = CliRunner()
got: dict[str, Any] = {}

toy = App("A toy command line.")
group = App("Sub-commands.")
toy.add_group(group, "sub")


@toy.command("go")
def go_command(
    source: Annotated[Path, Arg(help="The source.")],
    count: Annotated[int, Opt(help="How many.", min=1)],
    rate_mbps: Annotated[float | None, Opt(help="A rate.")] = None,
    set_: Annotated[
        list[str] | None, Opt("--set", metavar="KEY=VALUE", help="A key (repeatable).")
    ] = None,
    loud: Annotated[bool, Opt("--loud", "-l", help="Louder.")] = False,
    colour: Annotated[bool, Opt(help="Colour or not.")] = True,
    name: Annotated[str, Opt(help="A name, 100 % text.")] = "x",
    t0_s: Annotated[float, Opt("--from", help="Start.", show_default="the start")] = 0.0,
) -> None:
    """Go somewhere.

    A second paragraph."""
    got.clear()
    got.update(locals())


@group.command("many")
def many_command(
    sources: Annotated[list[Path], Arg(help="One or more.")],
    maybe: Annotated[str | None, Arg(help="Optional.")] = None,
) -> None:
    """Take many."""
    got.clear()
    got.update(locals())


def invoke(*args: str) -> Any:
    return runner.invoke(toy, list(args))


def test_values_of_every_kind():
    res = invoke("go", "a.toml", "--count", "3", "--rate-mbps", "5.5", "--set", "k=1")
    assert res.exit_code == 0, res.output
    assert got == {
        "source": Path("a.toml"),
        "count": 3,
        "rate_mbps": 5.5,
        "set_": ["k=1"],
        "loud": False,
        "colour": True,
        "name": "x",
        "t0_s": 0.0,
    }
    res = invoke("go", "--set", "a=1", "-l", "b", "--count=1", "--set", "b=2", "--no-colour")
    assert res.exit_code == 0, res.output
    assert (got["source"], got["set_"], got["loud"], got["colour"]) == (
        Path("b"),
        ["a=1", "b=2"],
        True,
        False,
    )
    assert invoke("go", "x", "--count", "1", "--from", "-2.5").exit_code == 0
    assert got["t0_s"] == -2.5


def test_a_word_with_a_space_is_a_value_even_if_it_starts_with_a_dash():
    # argparse's rule (a SQL text "-- note\nSELECT 1" is an argument, not an option)
    assert invoke("go", "--count", "1", "-- a b").exit_code == 0
    assert got["source"] == Path("-- a b")
    assert invoke("go", "x", "--count", "1", "--name", "-a b").exit_code == 0
    assert got["name"] == "-a b"


def test_a_group_and_a_list_argument():
    assert invoke("sub", "many", "a", "b").exit_code == 0
    assert got == {"sources": [Path("a"), Path("b")], "maybe": None}


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["go", "x"], "error: --count: missing (airtcp go --help shows the usage)"),
        (["go", "--count", "1"], "error: SOURCE: missing (airtcp go --help shows the usage)"),
        (["go", "x", "--count", "abc"], "error: --count: abc (allowed: an integer >= 1)"),
        (["go", "x", "--count", "0"], "error: --count: 0 (allowed: an integer >= 1)"),
        (["go", "x", "--count", "1", "--rate-mbps", "fast"], "error: --rate-mbps: fast (allowed: a number)"),
        (["go", "x", "--count"], "error: --count: a value is missing (airtcp go --help shows the usage)"),
        (["go", "x", "--count", "1", "--bogus"], "error: --bogus: no such option (airtcp go --help shows the usage)"),
        (["go", "x", "y z", "--count", "1"], 'error: "y z": unexpected argument (airtcp go --help shows the usage)'),
        (["go", "x", "--count", "1", "--loud=1"], "error: --loud: takes no value (got 1)"),
        (["go", "x", "--coun", "1"], "error: --coun: no such option (airtcp go --help shows the usage)"),
        (["stop"], "error: stop: no such command (allowed: go, sub)"),
        ([""], 'error: "": no such command (allowed: go, sub)'),
        (["--bogus"], "error: --bogus: no such option (airtcp --help shows the usage)"),
        (["sub", "few"], "error: few: no such command (allowed: many)"),
        (["sub", "many"], "error: SOURCES: missing (airtcp sub many --help shows the usage)"),
        (["go", "x", "--count", "9" * 99 + "x"], "error: --count: " + "9" * 57 + "... (100 characters) (allowed: an integer >= 1)"),
        (["go", "--coun", "1"], "error: --coun: no such option (airtcp go --help shows the usage)"),
    ],
)  # fmt: skip
def test_usage_errors_are_one_error_line(args, line):
    res = invoke(*args)
    assert res.exit_code == 2
    assert res.stdout == ""
    assert res.stderr.splitlines() == [line]
    assert ERROR_LINE.match(line)


def test_help_shows_paragraphs_defaults_and_required():
    res = runner.invoke(toy, ["go", "--help"], env={"COLUMNS": "100"})
    assert res.exit_code == 0 and res.stderr == ""
    text = res.stdout
    assert "Go somewhere.\n\nA second paragraph." in text
    assert "How many. [required]" in text
    assert "A name, 100 % text. [default: x]" in text
    assert "Start. [default: the start]" in text
    assert "--colour, --no-colour" in text
    # a value named by its type, or by the option
    assert "--count N" in text and "--rate-mbps NUM" in text and "--name TEXT" in text
    assert "--set KEY=VALUE" in text and "SOURCE" in text
    assert "[default: None]" not in text and "Louder. [default" not in text


def test_a_group_without_a_command_prints_its_help_and_exits_2():
    for args, head in (([], "usage: airtcp COMMAND"), (["sub"], "usage: airtcp sub COMMAND")):
        res = invoke(*args)
        assert res.exit_code == 2 and res.stdout.startswith(head), res.output
        assert "many" in res.stdout or "go" in res.stdout
    res = invoke("--help")
    assert res.exit_code == 0
    # commands first, then the groups; each with the first paragraph of its help
    assert res.stdout.index("go ") < res.stdout.index("sub ")
    assert "Go somewhere." in res.stdout and "second paragraph" not in res.stdout


def test_a_declaration_the_parser_cannot_take_is_refused():
    bad = App("bad")

    @bad.command("x")
    def x_command(n: Annotated[dict[str, int], Opt(help="no")] = None) -> None:  # type: ignore[assignment]
        """X."""

    with pytest.raises(TypeError, match="x_command"):
        runner.invoke(bad, ["x"], catch_exceptions=False)


def _commands(app: App, prog: str = "airtcp") -> list[tuple[str, Any]]:
    out = []
    for name, cmd in app.commands.items():
        if isinstance(cmd, App):
            out += _commands(cmd, f"{prog} {name}")
        else:
            out.append((f"{prog} {name}", cmd))
    return out


@pytest.mark.parametrize(("prog", "cmd"), _commands(cli.app), ids=lambda v: str(v))
def test_every_airtcp_command_builds_and_documents_each_option(prog, cmd):
    parser, params = cmd.parser(prog)
    text = parser.format_help()
    assert text.startswith(f"usage: {prog}")
    for p in params:
        assert p.label in text, (prog, p.name)
        assert p.decl.help, (prog, p.name)  # every argument and option says what it is
