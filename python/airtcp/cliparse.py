"""The command line's declarations and their parsing, on the standard library's argparse.

A command is a function whose parameters say what the command line takes, each once::

    @app.command("run")
    def run_command(
        scenario: Annotated[Path, Arg(help="Scenario TOML file.")],
        seed: Annotated[int | None, Opt(help="Random seed.")] = None,
        set_: Annotated[list[str] | None, Opt("--set", help="... (repeatable).")] = None,
        as_json: Annotated[bool, Opt("--json", help="Print one JSON line.")] = False,
    ) -> None: ...

An :class:`Arg` is a positional argument (a ``list`` one takes one or more words); an
:class:`Opt` an option, named ``--seed`` after its parameter unless it names itself; a ``bool``
option is a flag, a ``list`` option may be repeated; a parameter without a default is required.
Only the invoked command's parser is built, so a command line pays for argparse and for its
own command alone (bench/bench_startup.py).

Every usage error (an unknown option, a value that is not a number, a missing argument) is one
``error: <option or argument>: <what>`` line on stderr and exit status 2, as airtcp's own
input errors are; ``--help`` prints a command's usage and exits 0, and a group given no
command prints its help and exits 2.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import argparse

__all__ = ["USAGE_ERROR", "App", "Arg", "Opt", "UsageError"]

# Exit status of a usage error: the bad input's (as argparse and click have it).
USAGE_ERROR = 2


class Opt:
    """An option: ``names`` (default ``--param-name``), its help, whether its default is
    shown in the help (or the text shown), for a number its least allowed value, and the
    name of its value in the help (default: its type's, ``N``, ``NUM``, ``TEXT``, ``PATH``)."""

    __slots__ = ("names", "help", "show_default", "min", "metavar")

    def __init__(
        self,
        *names: str,
        help: str = "",  # noqa: A002 - the word every CLI library uses
        show_default: bool | str = True,
        min: float | None = None,  # noqa: A002
        metavar: str | None = None,
    ) -> None:
        self.names = names
        self.help = help
        self.show_default = show_default
        self.min = min
        self.metavar = metavar


class Arg:
    """A positional argument: its help, and whether its default is shown in the help."""

    __slots__ = ("help", "show_default")

    def __init__(self, help: str = "", show_default: bool | str = True) -> None:  # noqa: A002
        self.help = help
        self.show_default = show_default


class UsageError(Exception):
    """A command line that does not parse: ``where`` (an option or argument) and ``what``;
    ``usage``: the message points to the command's ``--help`` (a name or word it does not
    know, something missing), where a bad value already says what is allowed."""

    def __init__(self, where: str, what: str, usage: bool = False) -> None:
        super().__init__(where, what)
        self.where = where
        self.what = what
        self.usage = usage

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


# An error echoes at most this many characters of a word of the command line (as a scenario's
# errors do: airtcp.config.errors).
_ECHO_CHARS = 60


def _word(text: str) -> str:
    """A word of the command line as an error names it: quoted if it is blank or holds a
    space, a colon or a quote; cut short, saying how long it was, if it is long."""
    if not text.strip() or any(c in text for c in " :\"'") or not text.isprintable():
        import json

        text = json.dumps(text)
    if len(text) > _ECHO_CHARS:
        text = f"{text[: _ECHO_CHARS - 3]}... ({len(text)} characters)"
    return text


# A word that is a negative number, not an option (argparse's own rule, and infinities).
_NEGATIVE = re.compile(r"-\d+|-\d*\.\d+(?:[eE][-+]?\d+)?|-inf(?:inity)?", re.I)

# An option's value in the usage and help, by its type (unless the option names it).
_METAVAR = {int: "N", float: "NUM", str: "TEXT", Path: "PATH"}

# What a value's type allows, as the errors say it.
_ALLOWED = {int: "an integer", float: "a number", str: "text", Path: "a path"}


@dataclass(frozen=True)
class _Param:
    """One parameter of a command as the parser takes it."""

    name: str
    decl: Opt | Arg
    base: type  # int, float, str, Path or bool
    many: bool  # a list: a repeatable option, or an argument of one or more words
    required: bool
    default: Any

    @property
    def flags(self) -> tuple[str, ...]:
        assert isinstance(self.decl, Opt)
        return self.decl.names or ("--" + self.name.rstrip("_").replace("_", "-"),)

    @property
    def label(self) -> str:
        """How errors and the usage name it: the option's first name, or the argument's
        name in capitals."""
        return self.flags[0] if isinstance(self.decl, Opt) else self.name.upper()


def _unwrap(hint: Any, where: str) -> tuple[type, bool, Opt | Arg]:
    """``Annotated[T, Opt(...)]`` -> (base type, is a list, the declaration)."""
    if typing.get_origin(hint) is not typing.Annotated:
        raise TypeError(f"{where}: declare it as Annotated[type, Opt(...) or Arg(...)]")
    tp, *meta = typing.get_args(hint)
    decls = [m for m in meta if isinstance(m, Opt | Arg)]
    if len(decls) != 1:
        raise TypeError(f"{where}: exactly one Opt or Arg")
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"{where}: one type, optionally with None")
        tp = inner[0]
    many = typing.get_origin(tp) is list
    if many:
        (tp,) = typing.get_args(tp)
    if tp not in (int, float, str, Path, bool) or (many and tp is bool):
        raise TypeError(f"{where}: {tp!r} is not a type the command line takes")
    return tp, many, decls[0]


def _params(fn: Callable[..., Any]) -> list[_Param]:
    hints = typing.get_type_hints(fn, include_extras=True)
    out = []
    for p in inspect.signature(fn).parameters.values():
        base, many, decl = _unwrap(hints[p.name], f"{fn.__name__}({p.name})")
        required = p.default is inspect.Parameter.empty
        default = None if required else p.default
        out.append(_Param(p.name, decl, base, many, required, default))
    return out


def _converter(p: _Param) -> Callable[[str], Any]:
    """The function argparse turns a word into the parameter's value with; its error says
    what is allowed."""
    allowed = _ALLOWED[p.base]
    lo = p.decl.min if isinstance(p.decl, Opt) else None
    if lo is not None:
        allowed += f" >= {lo:g}"

    def convert(text: str) -> Any:
        import argparse

        try:
            value = p.base(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_word(text)} (allowed: {allowed})") from None
        if lo is not None and value < lo:
            raise argparse.ArgumentTypeError(f"{_word(text)} (allowed: {allowed})")
        return value

    return convert


@functools.cache
def _argparse_classes() -> tuple[type[argparse.ArgumentParser], type[argparse.HelpFormatter]]:
    """argparse's parser and formatter as the command line uses them; argparse is imported
    here, for the command that is invoked (``airtcp --help`` and ``--version`` need none)."""
    import argparse

    class Formatter(argparse.HelpFormatter):
        """argparse's help, with each paragraph of a description filled on its own."""

        def __init__(self, prog: str) -> None:
            super().__init__(prog, max_help_position=30, width=min(_columns(), 100))

        def _fill_text(self, text: str, width: int, indent: str) -> str:
            fill = super()._fill_text
            paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
            return "\n\n".join(fill(p, width, indent) for p in paragraphs)

    class Parser(argparse.ArgumentParser):
        """argparse, its errors raised as :class:`UsageError` instead of printed."""

        def error(self, message: str) -> NoReturn:
            raise _usage_error(message)

    return Parser, Formatter


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size().columns


def _usage_error(message: str) -> UsageError:
    """argparse's message as ``<option or argument>: <what>``."""
    if m := re.fullmatch(r"argument ([^:]+?)(?:/\S+)?: (.*)", message, re.S):
        where, what = m[1], m[2]
        if what in ("expected one argument", "expected at least one argument"):
            return UsageError(where, "a value is missing", usage=True)
        if e := re.fullmatch(r"ignored explicit argument (.*)", what, re.S):
            what = f"takes no value (got {_word(e[1].strip(chr(39)))})"
        return UsageError(where, what)
    if m := re.fullmatch(r"the following arguments are required: (.*)", message, re.S):
        names = m[1].split(", ")
        more = f" (and {', '.join(names[1:])})" if len(names) > 1 else ""
        return UsageError(names[0], "missing" + more, usage=True)
    return UsageError("command line", message)


def _help_text(p: _Param) -> str:
    text = p.decl.help
    shown = p.decl.show_default
    if isinstance(shown, str):
        text += f" [default: {shown}]"
    elif shown and p.default is not None and p.base is not bool and not p.required:
        text += f" [default: {p.default}]"
    if p.required and isinstance(p.decl, Opt):
        text += " [required]"
    return text.replace("%", "%%")


@dataclass
class Command:
    """A command: its function, built into a parser when it is invoked."""

    fn: Callable[..., Any]

    @property
    def help(self) -> str:
        return inspect.cleandoc(self.fn.__doc__ or "")

    def parser(self, prog: str) -> tuple[argparse.ArgumentParser, list[_Param]]:
        import argparse

        params = _params(self.fn)
        parser_class, formatter_class = _argparse_classes()
        parser = parser_class(
            prog=prog, description=self.help, formatter_class=formatter_class, allow_abbrev=False
        )
        for p in params:
            kw: dict[str, Any] = {"help": _help_text(p)}
            if isinstance(p.decl, Arg):
                kw.update(type=_converter(p), metavar=p.label)
                if p.many:
                    kw["nargs"] = "+" if p.required else "*"
                elif not p.required:
                    kw["nargs"] = "?"
                parser.add_argument(p.name, default=p.default, **kw)
                continue
            if p.base is bool:
                action: Any = "store_true" if p.decl.names else argparse.BooleanOptionalAction
                parser.add_argument(*p.flags, dest=p.name, action=action, default=p.default, **kw)
                continue
            kw.update(type=_converter(p), metavar=p.decl.metavar or _METAVAR[p.base])
            if p.many:
                kw["action"] = "append"
            parser.add_argument(*p.flags, dest=p.name, required=p.required, default=p.default, **kw)
        return parser, params

    def parse(self, args: Sequence[str], prog: str) -> dict[str, Any]:
        """The function's keyword arguments from ``args``; raises :class:`UsageError` (and
        SystemExit(0) after printing the help for ``--help``)."""
        parser, params = self.parser(prog)
        known = parser._option_string_actions  # every option's names
        for word in args:  # an unknown option is named before anything it leaves missing
            if word == "--":
                break
            # argparse's rule: a word with a space is a value, never an option ("-- x" as SQL)
            if word.startswith("-") and " " not in word and not _NEGATIVE.fullmatch(word):
                if word.partition("=")[0] not in known:
                    raise UsageError(_word(word), "no such option", usage=True)
        ns, extra = parser.parse_known_args(list(args))
        if extra:  # argparse's own message joins the words with spaces: name the first alone
            word = extra[0]
            what = "no such option" if word.startswith("-") else "unexpected argument"
            raise UsageError(_word(word), what, usage=True)
        return {p.name: getattr(ns, p.name) for p in params}

    def __call__(self, args: Sequence[str], prog: str) -> None:
        try:
            kwargs = self.parse(args, prog)
        except UsageError as exc:
            if exc.usage:
                exc.what += f" ({prog} --help shows the usage)"
            raise
        self.fn(**kwargs)


class App:
    """A group of commands (the ``airtcp`` command itself, or ``airtcp plot``)."""

    def __init__(self, help: str, version: Callable[[], str] | None = None) -> None:  # noqa: A002
        self.help = help
        self.version = version
        self.commands: dict[str, Command | App] = {}

    def command(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as the command ``name``."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.commands[name] = Command(fn)
            return fn

        return register

    def add_group(self, group: App, name: str) -> None:
        self.commands[name] = group

    def _listed(self) -> list[tuple[str, Command | App]]:
        """The commands in the order they were declared, then the groups."""
        return sorted(self.commands.items(), key=lambda kv: isinstance(kv[1], App))

    def usage(self, prog: str) -> str:
        """The group's help: its commands with the first paragraph of each one's help."""
        import textwrap

        columns = min(_columns(), 100)
        lines = [f"usage: {prog} COMMAND [ARGS]...", "", textwrap.fill(self.help, columns)]
        lines += ["", "commands:"]
        width = max(len(n) for n in self.commands) + 2
        fill = columns - width - 2

        for name, cmd in self._listed():
            first = " ".join(cmd.help.split("\n\n")[0].split())
            wrapped = textwrap.wrap(first, max(fill, 20)) or [""]
            lines.append(f"  {name:<{width}}{wrapped[0]}")
            lines += [" " * (width + 2) + w for w in wrapped[1:]]
        lines += ["", "options:"]
        if self.version is not None:
            lines.append(f"  {'--version':<{width}}Show the version.")
        lines += [
            f"  {'--help':<{width}}Show this message.",
            "",
            f"{prog} COMMAND --help shows a command's options.",
        ]
        return "\n".join(lines) + "\n"

    def __call__(self, args: Sequence[str] | None = None, prog: str = "airtcp") -> None:
        """Run the command line ``args`` (default: sys.argv[1:]). A usage error prints one
        ``error: <where>: <what>`` line on stderr and raises SystemExit(2); ``--help`` and
        ``--version`` raise SystemExit(0) after printing."""
        try:
            self.dispatch(list(sys.argv[1:] if args is None else args), prog)
        except UsageError as exc:
            sys.stdout.flush()
            sys.stderr.write(f"error: {exc.where}: {exc.what}\n")
            raise SystemExit(USAGE_ERROR) from None

    def dispatch(self, args: list[str], prog: str) -> None:
        """:meth:`__call__` without its handling of usage errors (a group's subcommands)."""
        if not args:
            sys.stdout.write(self.usage(prog))
            raise SystemExit(USAGE_ERROR)
        head, rest = args[0], args[1:]
        if head in ("--help", "-h"):
            sys.stdout.write(self.usage(prog))
            raise SystemExit(0)
        if head == "--version" and self.version is not None:
            sys.stdout.write(self.version() + "\n")
            raise SystemExit(0)
        if head.startswith("-"):
            raise UsageError(_word(head), f"no such option ({prog} --help shows the usage)")
        cmd = self.commands.get(head)
        if cmd is None:
            allowed = ", ".join(name for name, _ in self._listed())
            raise UsageError(_word(head), f"no such command (allowed: {allowed})")
        if isinstance(cmd, App):
            cmd.dispatch(rest, f"{prog} {head}")
        else:
            cmd(rest, f"{prog} {head}")
