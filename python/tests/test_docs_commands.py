"""Docs that run (issue 30): every ``airtcp`` command written in README.md, docs/*.md and the
comments of examples/*.toml is run, and a non-zero exit fails the test, naming the file and the
line where the command is written.

Where commands are found
    Markdown: the lines of fenced code blocks that start with ``airtcp`` or
    ``.venv/bin/airtcp`` (a ``$`` prompt allowed), and inline code spans outside code blocks
    that hold one of them as a program (``/usr/bin/time -v .venv/bin/airtcp ...`` too; a span
    may wrap lines). examples/*.toml: the ``#`` comments, from ``airtcp SUBCOMMAND`` to the end
    of the line, or the backtick span that holds it. A line ending in a backslash, or with a
    quote still open, goes on on the next line (as in a shell); a ``#`` after a command starts
    a shell comment.

What is not run
    A synopsis: an inline span with a placeholder (an upper-case word such as DIR, FILE, HASH,
    N or SWEEP.toml, ``...``, ``|``, ``[--option]``). A mention: an inline span that names a
    command or an option without its required arguments (``airtcp run --json``, ``airtcp plot
    trace --kind rates``); it must still name a command that exists and parse otherwise. Both
    are counted. In a code block or an example's comments every command must be runnable: a
    placeholder there fails the test, except ``--run HASH``, which a reader copies from the
    ``airtcp query`` line before it; the test puts in the hash of the first stored run (in hash
    order) of that store.

How commands run
    Each source file gets a fresh temporary directory with a copy of examples/, and its
    commands run there in the order they are written, so a command reads what an earlier one on
    the same page wrote (``plot trace results/bulk`` after ``run ... --out results/bulk``).
    Each command is a new process running ``airtcp.cli.main()`` (what the ``airtcp`` script
    runs) with its arguments: its exit status, stdout and stderr are its own, warnings are
    shown as a user sees them. The process is forked from a warm interpreter that has airtcp
    and its libraries imported, so the commands do not pay the imports (about 0.5 s) each; two
    such interpreters take every other page. A command gets COMMAND_TIMEOUT_S seconds. The
    ``python`` blocks of README.md and docs/getting-started.md run the same way, in order with
    the commands around them. Each command is run
    - fully: ``analytic``, ``query``, ``plot``, ``--version`` (on what the page made);
    - shortened: ``run`` with ``--set duration_s=0.5 --set warmup_s=0.1`` appended (paper 003's
      template: ``duration_s=1``; its walks A-1 and A-2 last as long as the walk whatever
      ``duration_s`` says, 35-70 simulated seconds, 0.3-0.7 s of wall time);
      ``sweep`` with ``--grid duration_s=0.5 --grid warmup_s=0.1`` in place of any ``--grid``
      of those keys (it replaces the sweep file's axis of the key), so every run of the
      file's grid and replications runs, each short; ``validate`` with
      ``--duration-s 0.2 --seeds 1``;
    - parsed only: ``reproduce`` (a paper takes half a minute with ``--quick``, up to hours
      without): the command line is parsed and the paper id checked;
      ``test_documented_reproductions_run_quick`` (slow) runs each documented paper once with
      ``--quick``; no test runs the full replications. ``sweep --dask ADDRESS`` needs a
      scheduler at that address: the command line is parsed and the sweep file read and
      expanded.
    ``.venv/bin/python ...`` lines (the gym example) are not ``airtcp`` commands and are not run
    here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from airtcp import cli, sweep
from airtcp.cliparse import App, UsageError
from airtcp.reproduce import PAPERS

REPO = Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "python"
EXAMPLES = REPO / "examples"

SUBCOMMANDS = ("run", "sweep", "query", "reproduce", "validate", "analytic", "plot")
# A program token: `airtcp`, `.venv/bin/airtcp` or any path ending in /bin/airtcp.
_PROGRAM = re.compile(r"(?:.*/bin/)?airtcp")
# airtcp SUBCOMMAND in an example's comment, not inside a path (python/airtcp/...).
_IN_COMMENT = re.compile(r"(?<![\w/.-])(?:\S*/bin/)?airtcp\s+(?:" + "|".join(SUBCOMMANDS) + r")\b")
# An upper-case placeholder: DIR, HASH, N, T0, SWEEP.toml.
_PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*(?:\.[a-z]+)?")
# Inline code spans; a span may wrap lines but not cross a blank line.
_SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]*[^`\s][^`\n]*)*)`")

# Pages whose ```python blocks run too (after the commands before them), and the marker of
# such a block in DocCommand.args.
PYTHON_PAGES = ("README.md", "docs/getting-started.md")
PYTHON = "<python>"
# Shortening, keyed by the scenario or sweep file's name: `--set` items for `run`, `--grid`
# items for `sweep` (replacing any of the same key the command gives).
SHORTEN_DEFAULT = ("duration_s=0.5", "warmup_s=0.1")
SHORTEN = {"paper-003.toml": ("duration_s=1",)}
VALIDATE_SHORT = ("--duration-s", "0.2", "--seeds", "1")
# Seconds one command may take before it is killed (SIGALRM) and counts as failed.
COMMAND_TIMEOUT_S = 120


@dataclass
class DocCommand:
    """One command as written: where, its text, its arguments (after the program)."""

    source: str  # path relative to the repository
    line: int  # 1-based line where the command starts
    text: str
    args: list[str]
    where: str  # "block" (code block), "comment" (example's comment) or "inline"
    mode: str = ""  # run, short, parse, synopsis, mention (set by classify)
    note: str = ""

    @property
    def at(self) -> str:
        return f"{self.source}:{self.line}"


@dataclass
class Outcome:
    command: DocCommand
    argv: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


# ---------------------------------------------------------------------------------------------
# Extraction


def _split(text: str) -> list[str] | None:
    """Shell words of ``text`` (comments dropped); None while a quote is open."""
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return None


def _program_args(words: list[str]) -> list[str] | None:
    """The words after the airtcp program, or None if no word is the program. Only a wrapper
    (``/usr/bin/time -v``: paths and options) may come before it."""
    for i, w in enumerate(words):
        if _PROGRAM.fullmatch(w):
            return words[i + 1 :]
        if not w.startswith(("/", "-")):
            return None
    return None


def _join(lines: list[str], start: int) -> tuple[str, int]:
    """The command starting at ``lines[start]`` with its continuation lines: a trailing
    backslash joins the next line, an open quote goes on with a newline. Returns the text and
    the number of lines used."""
    text, n = lines[start], 1
    while start + n < len(lines):
        body = text.rstrip()
        if body.endswith("\\") and _split(body[:-1]) is not None:
            text = body[:-1] + " " + lines[start + n].strip()
        elif _split(text) is None:  # a quote is open (a backslash in it stays, as in '...')
            text = text + "\n" + lines[start + n]
        else:
            break
        n += 1
    return text, n


def _line_command(text: str) -> bool:
    """A line that starts with the airtcp program (after an optional ``$`` prompt)."""
    first = text.strip().removeprefix("$ ").split(maxsplit=1)
    return bool(first) and _PROGRAM.fullmatch(first[0]) is not None


def extract_markdown(text: str, source: str) -> list[DocCommand]:
    """Commands of a Markdown file: code-block lines, then inline spans, in line order."""
    lines = text.splitlines()
    found: list[DocCommand] = []
    prose = list(lines)  # the lines outside code blocks (code blocks blanked)
    fence: str | None = None
    language = ""
    block_lines: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence, language, block_lines = stripped[:3], stripped[3:].strip(), []
            prose[i] = ""
            continue
        if fence is not None:
            prose[i] = ""
            if stripped.startswith(fence):
                fence = None
                if language == "python" and source in PYTHON_PAGES and block_lines:
                    code = "\n".join(text for _, text in block_lines)
                    found.append(DocCommand(source, block_lines[0][0] + 1, code, [PYTHON], "block"))
                else:
                    found.extend(_block_commands(block_lines, source))
            else:
                block_lines.append((i, line))
    joined = "\n".join(prose)
    for m in _SPAN.finditer(joined):
        span = " ".join(part.strip() for part in m.group(1).split("\n"))
        words = _split(span)
        args = _program_args(words) if words else None
        if args is None:
            continue
        line = joined.count("\n", 0, m.start()) + 1
        found.append(DocCommand(source, line, span, args, "inline"))
    return sorted(found, key=lambda c: c.line)


def _block_commands(block: list[tuple[int, str]], source: str) -> list[DocCommand]:
    texts = [line for _, line in block]
    out, k = [], 0
    while k < len(block):
        if _line_command(texts[k]):
            text, n = _join(texts, k)
            words = _split(text.strip().removeprefix("$ ")) or []
            args = _program_args(words)
            if args is not None:
                out.append(DocCommand(source, block[k][0] + 1, text.strip(), args, "block"))
            k += n
        else:
            k += 1
    return out


def extract_toml_comments(text: str, source: str) -> list[DocCommand]:
    """Commands in the ``#`` comments of a TOML file."""
    lines = text.splitlines()
    comments = [line.strip()[1:] if line.strip().startswith("#") else None for line in lines]
    found: list[DocCommand] = []
    k = 0
    while k < len(lines):
        c = comments[k]
        m = _IN_COMMENT.search(c) if c is not None else None
        if c is None or m is None:
            k += 1
            continue
        spans = [s for s in re.finditer(r"`([^`]+)`", c) if s.start() < m.start() < s.end()]
        if spans:
            text, n = spans[0].group(1), 1
        else:
            # The comment lines that follow, as far as the command goes on.
            rest: list[str] = []
            for j in range(k, len(lines)):
                if comments[j] is None:
                    break
                rest.append(comments[j] if j > k else c[m.start() :])
            text, n = _join(rest, 0)
        words = _split(text) or []
        args = _program_args(words)
        if args is not None:
            found.append(DocCommand(source, k + 1, " ".join(text.split()), args, "comment"))
        k += n
    return found


def collect(repo: Path = REPO) -> list[DocCommand]:
    """Every command of README.md, docs/*.md and examples/*.toml, classified."""
    commands: list[DocCommand] = []
    for path in [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]:
        rel = str(path.relative_to(repo))
        commands += extract_markdown(path.read_text(encoding="utf-8"), rel)
    for path in sorted((repo / "examples").glob("*.toml")):
        rel = str(path.relative_to(repo))
        commands += extract_toml_comments(path.read_text(encoding="utf-8"), rel)
    for c in commands:
        classify(c)
    return commands


# ---------------------------------------------------------------------------------------------
# Classification


def _placeholders(args: list[str]) -> list[str]:
    # Alternatives in the command's name: `analytic bianchi/tmt`, `plot trace/metric`.
    names = args[:2] if args and args[0] in ("analytic", "plot") else args[:1]
    found = [a for a in names if re.fullmatch(r"[a-z]+(?:/[a-z]+)+", a)]
    for tok in args:
        value = tok.partition("=")[2] if "=" in tok and not tok.startswith("-") else tok
        if tok in ("...", "|") or tok.startswith("[-") or tok.endswith(",..."):
            found.append(tok)
        elif _PLACEHOLDER.fullmatch(value.strip("[]")):
            found.append(tok)
    return found


def parse(args: list[str]) -> tuple[str, str]:
    """Parse ``args`` as the command line does, without running anything: ("ok", ""),
    ("missing", why) when a required argument or a subcommand is missing, or ("error", why)."""
    rest = list(args)
    if rest and rest[0] in ("--version", "--help"):
        return "ok", ""
    node: Any = cli.app
    prog = "airtcp"
    while isinstance(node, App):  # a group: the next word names its subcommand
        if not rest or rest[0].startswith("-"):
            return "missing", "no command"
        sub = node.commands.get(rest[0])
        if sub is None:
            return "error", f"no such command {rest[0]!r}"
        node, prog, rest = sub, f"{prog} {rest[0]}", rest[1:]
    try:
        node.parse(rest, prog)
    except UsageError as exc:
        # A missing argument, or an option named without its value (`airtcp run --out`).
        missing = exc.what.startswith("missing") or (
            exc.what.startswith("a value is missing") and rest[-1].startswith("-")
        )
        return ("missing" if missing else "error"), str(exc)
    except SystemExit:  # --help printed the usage
        return "ok", ""
    return "ok", ""


def classify(c: DocCommand) -> None:
    """Set ``c.mode``: run (as written), short (shortened), parse (parsed only), synopsis or
    mention (not run); ``c.note`` says why when it is not plain."""
    if c.args == [PYTHON]:
        c.mode = "python"
        return
    placeholders = [p for p in _placeholders(c.args) if c.where == "inline" or p != "HASH"]
    if placeholders:
        c.mode, c.note = "synopsis", f"placeholder {placeholders[0]}"
        return
    status, why = parse([("0" * 8 if a == "HASH" else a) for a in c.args])
    if status == "missing" and c.where == "inline":
        c.mode, c.note = "mention", why
        return
    if status != "ok":
        c.mode, c.note = "invalid", why
        return
    sub = c.args[0]
    if sub == "reproduce":
        c.mode, c.note = "parse", "a whole paper (the slow test runs it with --quick)"
    elif sub == "sweep" and "--dask" in c.args:
        c.mode, c.note = "parse", "needs a Dask scheduler at that address"
    elif sub in ("run", "sweep", "validate"):
        c.mode = "short"
    else:
        c.mode = "run"


# ---------------------------------------------------------------------------------------------
# Running


def _replace_option_keys(args: list[str], option: str, items: tuple[str, ...]) -> list[str]:
    """``args`` without any ``option KEY=...`` whose KEY one of ``items`` sets, then ``items``
    each after ``option``."""
    keys = {item.partition("=")[0] for item in items}
    out, i = [], 0
    while i < len(args):
        if args[i] == option and i + 1 < len(args) and args[i + 1].partition("=")[0] in keys:
            i += 2
            continue
        out.append(args[i])
        i += 1
    for item in items:
        out += [option, item]
    return out


def _drop_option(args: list[str], option: str) -> list[str]:
    out, i = [], 0
    while i < len(args):
        if args[i] == option:
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def shortened(args: list[str]) -> list[str]:
    """The arguments of a `short` command with its shortening applied."""
    sub = args[0]
    if sub == "validate":
        args = _drop_option(_drop_option(args, "--duration-s"), "--seeds")
        return [*args, *VALIDATE_SHORT]
    items = SHORTEN.get(Path(args[1]).name, SHORTEN_DEFAULT)
    return _replace_option_keys(args, "--set" if sub == "run" else "--grid", items)


def _fill_hash(args: list[str], cwd: Path) -> list[str]:
    """``--run HASH``: the first stored run's hash of the store the command reads."""
    if "HASH" not in args:
        return args
    store = cwd / args[2]  # plot trace|sequence SOURCE
    hashes = sorted(sweep.stored_hashes(store))
    if not hashes:
        raise RuntimeError(f"--run HASH: {args[2]} holds no stored run")
    return [hashes[0] if a == "HASH" else a for a in args]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "AIRTCP_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PYTHON_DIR), env.get("PYTHONPATH")]))
    env["MPLBACKEND"] = "Agg"
    env["COLUMNS"] = "120"
    return env


def _paper(args: list[str]) -> str:
    """The paper id of ``reproduce`` arguments (its first positional one)."""
    words = [
        a
        for i, a in enumerate(args[1:])
        if not a.startswith("-") and (i == 0 or args[i] not in ("--out", "--workers"))
    ]
    bare = words[0].removeprefix("paper-")
    return bare.zfill(3) if bare.isdigit() else bare


def _check_parse_only(c: DocCommand, cwd: Path) -> str | None:
    """The error of a parse-only command, or None."""
    if c.args[0] == "reproduce":
        paper = _paper(c.args)
        return None if paper in PAPERS else f"paper {paper!r} is not one of {', '.join(PAPERS)}"
    # sweep --dask: read and expand the sweep file (and its --grid options) as the sweep would.
    grid = [c.args[i + 1] for i, a in enumerate(c.args[:-1]) if a == "--grid"]
    try:
        sweep.expand(sweep.load_sweep(cwd / c.args[1], grid))
    except sweep.SweepError as exc:
        return str(exc)
    return None


# A warm interpreter that forks one child per command: the child is a fresh process (its own
# exit status, state, stdout and stderr, warnings as a user sees them) that finds airtcp and its
# libraries already imported, so the ~200 commands do not pay ~0.5 s of imports each. It reads
# one JSON request per line ({"cwd", "argv"} or {"cwd", "python"}) and answers one JSON line
# {"rc", "out", "err"} per request.
_WARM = r"""
import importlib, json, os, signal, sys, traceback
for name in ("airtcp.cli", "airtcp.config", "airtcp.run", "airtcp.result", "airtcp.sweep",
             "airtcp.store", "airtcp.plot", "airtcp.sequence", "airtcp.pcap", "airtcp.analytic",
             "airtcp.validation", "airtcp.reproduce", "rich.console", "rich.table",
             "rich.progress", "pyarrow.parquet", "pandas", "duckdb", "matplotlib.figure",
             "matplotlib.backends.backend_agg", "scipy.stats"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass  # the child imports it (or fails) as the command would
from airtcp import cli
protocol = os.fdopen(os.dup(1), "w")
for line in sys.stdin:
    req = json.loads(line)
    out, err = req["cwd"] + "/.stdout", req["cwd"] + "/.stderr"
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.alarm(req["timeout"])
            os.chdir(req["cwd"])
            for fd, path in ((1, out), (2, err)):
                os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            sys.stdin = open(os.devnull)
            if "python" in req:
                sys.argv = ["-c"]
                exec(compile(req["python"], "<doc>", "exec"), {"__name__": "__main__"})
                code = 0
            else:
                sys.argv = ["airtcp", *req["argv"]]
                cli.main()
                code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (exc.code is not None)
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush(); sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    tails = [open(p, errors="replace").read()[-4000:] for p in (out, err)]
    for p in (out, err):
        os.unlink(p)
    protocol.write(json.dumps({"rc": rc, "out": tails[0], "err": tails[1]}) + "\n")
    protocol.flush()
"""


class WarmRunner:
    """One warm interpreter (``_WARM``) and the commands it forks, one at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WARM],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_env(),
            text=True,
        )

    def run(self, cwd: Path, *, argv: list[str] | None = None, python: str | None = None):
        """(exit status, stdout, stderr) of one command run in ``cwd``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        req = {"cwd": str(cwd), "timeout": COMMAND_TIMEOUT_S}
        req.update({"python": python} if python else {"argv": argv})
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the warm interpreter died (exit {self.proc.wait()})")
        answer = json.loads(line)
        return answer["rc"], answer["out"], answer["err"]

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        self.proc.wait(timeout=60)


def run_pages(pages: list[list[DocCommand]], root: Path) -> list[Outcome]:
    """Run each page's commands in order in a directory of its own under ``root`` (a copy of
    examples/ inside), through one warm interpreter."""
    runner = WarmRunner()
    try:
        return [o for page in pages for o in run_page(page, root, runner)]
    finally:
        runner.close()


def run_page(commands: list[DocCommand], root: Path, runner: WarmRunner) -> list[Outcome]:
    """Run one source file's commands in order in a fresh directory under ``root``."""
    cwd = root / re.sub(r"\W", "_", commands[0].source)
    cwd.mkdir()
    shutil.copytree(EXAMPLES, cwd / "examples")
    outcomes = []
    for c in commands:
        o = Outcome(c)
        outcomes.append(o)
        if c.mode in ("synopsis", "mention"):
            continue
        if c.mode == "invalid":
            o.error = f"does not parse: {c.note}"
            continue
        if c.mode == "parse":
            o.error = _check_parse_only(c, cwd)
            continue
        try:
            args = _fill_hash(c.args, cwd)
        except RuntimeError as exc:
            o.error = str(exc)
            continue
        if c.mode == "short":
            args = shortened(args)
        o.argv = ["airtcp", *args]
        t0 = time.perf_counter()
        if c.mode == "python":
            rc, out, err = runner.run(cwd, python=c.text)
        else:
            rc, out, err = runner.run(cwd, argv=args)
        o.seconds = time.perf_counter() - t0
        if rc == -14:  # SIGALRM
            o.error = f"killed after {COMMAND_TIMEOUT_S} s"
        elif rc != 0:
            tail = (err.strip() or out.strip()).splitlines()[-3:]
            o.error = f"exit {rc}: " + " | ".join(tail)
    return outcomes


def _count(commands: list[DocCommand]) -> Counter[str]:
    return Counter(c.mode for c in commands)


COMMANDS = collect()


def test_every_documented_command_runs(tmp_path: Path) -> None:
    pages: dict[str, list[DocCommand]] = {}
    for c in COMMANDS:
        pages.setdefault(c.source, []).append(c)
    # Two warm interpreters (the machine has two cores), each taking every other page, the
    # busiest first.
    order = sorted(pages, key=lambda s: -sum(c.mode in ("run", "short") for c in pages[s]))
    halves = [[pages[s] for s in order[k::2]] for k in range(2)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = [o for part in pool.map(lambda h: run_pages(h, tmp_path), halves) for o in part]
    counts = _count(COMMANDS)
    summary = (
        f"{len(COMMANDS)} commands found: {counts['run']} run as written, {counts['short']} "
        f"run shortened, {counts['parse']} parsed only, {counts['synopsis']} synopses and "
        f"{counts['mention']} mentions not run; and {counts['python']} Python blocks run"
    )
    print(summary)
    for o in sorted(outcomes, key=lambda o: -o.seconds)[:5]:  # where the time goes
        print(f"  {o.seconds:5.2f} s  {o.command.at}: {o.command.text[:80]}")
    failures = [
        f"{o.command.at}: {o.command.text}\n    {o.error}"
        + (f"\n    ran: {shlex.join(o.argv)}" if o.argv and o.command.mode != "python" else "")
        for o in sorted(outcomes, key=lambda o: (o.command.source, o.command.line))
        if o.error
    ]
    assert not failures, f"{len(failures)} failing ({summary}):\n" + "\n".join(failures)
    # The extraction still finds what the docs hold (a broken extractor would run nothing).
    assert counts["run"] + counts["short"] >= 100, summary


def test_code_blocks_and_example_comments_hold_no_placeholders() -> None:
    # A reader copies these; a placeholder other than --run HASH belongs in the prose.
    bad = [
        f"{c.at}: {c.text} ({c.note})"
        for c in COMMANDS
        if c.where != "inline" and c.mode == "synopsis"
    ]
    assert not bad, "\n".join(bad)


def test_every_example_and_page_with_commands_is_seen() -> None:
    sources = {c.source for c in COMMANDS}
    for path in sorted(EXAMPLES.glob("*.toml")):
        assert f"examples/{path.name}" in sources, f"no command found in {path.name}"
    assert {"README.md", "docs/getting-started.md", "docs/plots.md", "docs/sweeps.md"} <= sources


def test_readme_links_getting_started_first_and_indexes_every_doc() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[\w.-]+\.md)", readme)
    assert links[0] == "docs/getting-started.md", links[:3]
    index = readme[readme.index("## Layout and documents") :]
    indexed = set(re.findall(r"\]\((docs/[\w.-]+\.md)", index))
    docs = {f"docs/{p.name}" for p in (REPO / "docs").glob("*.md")}
    assert docs - indexed == set(), "README's document index misses these"
    first = re.search(r"\]\((docs/[\w.-]+\.md)", index)
    assert first is not None and first.group(1) == "docs/getting-started.md"


# ---------------------------------------------------------------------------------------------
# The extractor itself


def test_markdown_blocks_continuations_comments_and_inline_spans() -> None:
    text = "\n".join(
        [
            "Run `airtcp analytic bianchi --stations 5",  # 1: a span that wraps
            "  --standard 80211a` or `airtcp run --json`.",  # 2
            "```sh",  # 3
            "airtcp run examples/a.toml --set x=1 \\",  # 4
            "    --set y=2   # a comment",  # 5
            "python other.py",  # 6
            "$ .venv/bin/airtcp query results/s 'SELECT 1'",  # 7
            "```",  # 8
            'Not code: airtcp run examples/a.toml; `airtcp query DIR "SQL"`.',  # 9
        ]
    )
    found = extract_markdown(text, "x.md")
    for c in found:
        classify(c)
    got = [(c.line, c.where, c.args, c.mode) for c in found]
    assert got == [
        (1, "inline", ["analytic", "bianchi", "--stations", "5", "--standard", "80211a"], "run"),
        (2, "inline", ["run", "--json"], "mention"),
        (4, "block", ["run", "examples/a.toml", "--set", "x=1", "--set", "y=2"], "short"),
        (7, "block", ["query", "results/s", "SELECT 1"], "run"),
        (9, "inline", ["query", "DIR", "SQL"], "synopsis"),
    ]


def test_toml_comments_with_an_open_quote_go_on_with_a_newline() -> None:
    text = "\n".join(
        [
            "# Compare with `airtcp analytic tmt --standard 80211b`.",
            "#   airtcp run examples/m.toml \\",
            '#       --set \'mobility={kind = "x",',
            "#              speed = 1}'",
            "# see python/airtcp/config/templates.py; Run:  airtcp sweep s.toml --out r",
            'name = "m"',
        ]
    )
    found = extract_toml_comments(text, "m.toml")
    assert [(c.line, c.args) for c in found] == [
        (1, ["analytic", "tmt", "--standard", "80211b"]),
        (2, ["run", "examples/m.toml", "--set", 'mobility={kind = "x",\n              speed = 1}']),
        (5, ["sweep", "s.toml", "--out", "r"]),
    ]


def test_shortening_replaces_the_commands_own_keys() -> None:
    assert shortened(["run", "examples/a.toml", "--set", "duration_s=300", "--json"]) == [
        "run",
        "examples/a.toml",
        "--json",
        "--set",
        "duration_s=0.5",
        "--set",
        "warmup_s=0.1",
    ]
    assert shortened(["sweep", "examples/paper-003.toml", "--grid", "speed_mps=1,5"]) == [
        "sweep",
        "examples/paper-003.toml",
        "--grid",
        "speed_mps=1,5",
        "--grid",
        "duration_s=1",
    ]
    assert shortened(["validate", "--duration-s", "30"]) == ["validate", *VALIDATE_SHORT]


def test_parse_tells_missing_arguments_from_errors() -> None:
    assert parse(["run", "x.toml", "--seed", "3"]) == ("ok", "")
    assert parse(["plot", "trace", "--kind", "rates"])[0] == "missing"
    assert parse(["plot"])[0] == "missing"
    assert parse(["run", "x.toml", "--colour", "red"])[0] == "error"
    assert parse(["swep", "x.toml"])[0] == "error"


# ---------------------------------------------------------------------------------------------
# The documented reproductions, each paper once with --quick (minutes)


REPRODUCED = sorted(
    {_paper(c.args) for c in COMMANDS if c.mode == "parse" and c.args[0] == "reproduce"}
)


@pytest.mark.slow
@pytest.mark.parametrize("paper", REPRODUCED)
def test_documented_reproductions_run_quick(paper: str, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "airtcp.cli", "reproduce", paper, "--quick", "--out", "out"]
    proc = subprocess.run(
        argv, cwd=tmp_path, env=_env(), capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "out" / "report.md").is_file()
