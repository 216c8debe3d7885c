"""The sandbox of the fuzz suite (test_fuzz.py, issue 9): run one case, judge it by the contract.

A case runs in a worker process, not in pytest's: a case that hangs (a simulation that never
ends, an endless range) or kills its process (a Rust abort, the memory limit) must become a
reported failure, not a stuck or dead test run. The worker imports airtcp once and then runs
case after case in-process (``cli_runner.CliRunner`` against ``airtcp.cli.app``,
``airtcp.run``, ``airtcp._core.run``), so a case costs what the call costs; it is killed (with
its process group: a sweep's pool) and restarted only after a hang or a crash.

Set ``AIRTCP_FUZZ_INPROCESS=1`` to run the cases in pytest's own process instead (for a
debugger; no protection against hangs).

The contract (issue 9), checked by :func:`cli_violations`, :func:`scenario_error_violations`,
:func:`core_violations` and :func:`file_violations`: airtcp exits 0 with a result, or exits 2
with ``error: <field path>: <what>`` lines, never a Python traceback, a Rust panic (pyo3's
``PanicException``), a hang, or a file created outside the output paths it was given.
"""

from __future__ import annotations

import os
import pickle
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# ---------------------------------------------------------------------------------------------
# The outcome of one case


@dataclass
class Outcome:
    """What one case did. ``status``: "done" (the call came back), "hang" (killed after
    ``timeout_s``) or "crash" (the worker process died: a signal, an abort)."""

    status: str
    seconds: float = 0.0
    exit_code: int | None = None  # CLI cases
    stdout: str = ""
    stderr: str = ""
    # Whatever reached the process's real stdout/stderr file descriptors during the case:
    # a Rust panic message ("thread ... panicked at"), output of a pool process.
    fd_output: str = ""
    exc_type: str | None = None  # an exception that escaped: its qualified class name
    exc_base_only: bool = False  # a BaseException that is not an Exception (PanicException)
    exc_is_value_error: bool = False
    exc_is_scenario_error: bool = False  # an airtcp.ScenarioError
    exc_message: str = ""
    traceback: str = ""
    warnings: list[str] = field(default_factory=list)
    value: Any = None  # what the call returned, reduced to something picklable
    detail: str = ""  # hang/crash: how long, which signal

    def describe(self) -> str:
        parts = [f"status={self.status}", f"{self.seconds:.2f}s"]
        if self.exit_code is not None:
            parts.append(f"exit={self.exit_code}")
        if self.exc_type:
            parts.append(f"exception={self.exc_type}: {self.exc_message[:300]}")
        if self.detail:
            parts.append(self.detail)
        text = ", ".join(parts)
        for name, body in (
            ("stdout", self.stdout),
            ("stderr", self.stderr),
            ("fd output", self.fd_output),
            ("traceback", self.traceback),
        ):
            if body.strip():
                text += f"\n--- {name}:\n{_clip(body, 3000)}"
        if self.warnings:
            text += "\n--- warnings:\n" + "\n".join(self.warnings[:5])
        return text


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit // 2] + "\n[...]\n" + text[-limit // 2 :]


# ---------------------------------------------------------------------------------------------
# Running a case (in the worker, or in-process)


def _exc_name(exc: BaseException) -> str:
    cls = type(exc)
    return f"{cls.__module__}.{cls.__qualname__}"


def _execute(request: dict[str, Any]) -> Outcome:
    """Run one request in this process: chdir into its working directory, capture fds 1 and 2,
    record warnings, and never let anything escape."""
    kind = request["kind"]
    old_cwd = os.getcwd()
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    os.dup2(capture.fileno(), 2)
    outcome = Outcome(status="done")
    start = time.perf_counter()
    try:
        os.chdir(request["cwd"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if kind == "cli":
                    _run_cli(request, outcome)
                elif kind == "api":
                    _run_api(request, outcome)
                elif kind == "core":
                    _run_core(request, outcome)
                else:
                    raise ValueError(f"unknown request kind {kind!r}")
            except BaseException as exc:  # noqa: BLE001 - everything is a finding
                _record_exception(outcome, exc)
        outcome.warnings = [
            f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught
        ]
    finally:
        outcome.seconds = time.perf_counter() - start
        os.chdir(old_cwd)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001, S110 - a closed stream must not lose the outcome
            pass
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        capture.seek(0)
        outcome.fd_output = capture.read(200_000).decode("utf-8", "replace")
        capture.close()
    return outcome


def _record_exception(outcome: Outcome, exc: BaseException) -> None:
    import airtcp

    outcome.exc_type = _exc_name(exc)
    outcome.exc_base_only = not isinstance(exc, Exception)
    outcome.exc_is_value_error = isinstance(exc, ValueError)
    outcome.exc_is_scenario_error = isinstance(exc, airtcp.ScenarioError)
    try:
        outcome.exc_message = str(exc)
    except Exception as inner:  # noqa: BLE001 - str() itself may fail
        outcome.exc_message = f"<str() failed: {inner!r}>"
    outcome.traceback = "".join(traceback.format_exception(exc))


def _run_cli(request: dict[str, Any], outcome: Outcome) -> None:
    from cli_runner import CliRunner

    from airtcp.cli import app

    runner = CliRunner()
    result = runner.invoke(app, request["args"], catch_exceptions=True, color=False)
    outcome.exit_code = result.exit_code
    outcome.stdout = result.stdout
    outcome.stderr = result.stderr
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        _record_exception(outcome, exc)


def _run_api(request: dict[str, Any], outcome: Outcome) -> None:
    import airtcp

    result = airtcp.run(request["config"], seed=request["seed"], overrides=request["overrides"])
    outcome.value = {"summary_keys": sorted(result.summary), "flows": result.flows.num_rows}


def _run_core(request: dict[str, Any], outcome: Outcome) -> None:
    from airtcp import _core

    summary_json, traces = _core.run(request["spec_json"], request["seed"])
    outcome.value = {"summary_chars": len(summary_json), "traces": sorted(traces)}


# ---------------------------------------------------------------------------------------------
# The worker process and its protocol: length-prefixed pickles on two pipes


class DeepRecursion:
    """A higher recursion limit while (un)pickling a case: a 500-deep value inside a scenario
    needs more than the default 1000 frames. Never while airtcp runs."""

    def __enter__(self) -> None:
        self.saved = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.saved, 20_000))

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.saved)


def _write_msg(fd: int, obj: Any) -> None:
    with DeepRecursion():
        data = pickle.dumps(obj)
    view = memoryview(struct.pack("<Q", len(data)) + data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int) -> bytes:
    chunks = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _read_msg(fd: int) -> Any:
    (n,) = struct.unpack("<Q", _read_exact(fd, 8))
    data = _read_exact(fd, n)
    with DeepRecursion():
        return pickle.loads(data)


def _serve(read_fd: int, write_fd: int) -> None:
    """The worker's loop: a request in, an outcome out, until EOF."""
    import resource

    # A runaway allocation becomes a MemoryError (Python) or an abort (Rust), not the OOM
    # killer's choice of a victim.
    limit = int(os.environ.get("AIRTCP_FUZZ_MEMORY_BYTES", str(6 * 2**30)))
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ.setdefault("COLUMNS", "160")  # rich tables: stable width
    os.environ["MPLBACKEND"] = "Agg"
    import airtcp.cli  # noqa: F401 - import once, before the first case
    import airtcp.run  # noqa: F401

    _write_msg(write_fd, "ready")
    while True:
        try:
            request = _read_msg(read_fd)
        except EOFError:
            return
        _write_msg(write_fd, _execute(request))


class Worker:
    """A worker process; :meth:`run` sends it one case and waits at most ``timeout_s``."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.to_worker = -1
        self.from_worker = -1
        self.starts = 0

    def _start(self) -> None:
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); import fuzz_harness; "
            "fuzz_harness._serve(int(sys.argv[2]), int(sys.argv[3]))"
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, str(Path(__file__).parent), str(req_r), str(res_w)],
            pass_fds=(req_r, res_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=tempfile.gettempdir(),
            start_new_session=True,  # its own process group: a kill takes its pool along
        )
        os.close(req_r)
        os.close(res_w)
        self.to_worker, self.from_worker = req_w, res_r
        self.starts += 1
        ready, _, _ = select.select([self.from_worker], [], [], 120)
        if not ready or _read_msg(self.from_worker) != "ready":
            self.close()
            raise RuntimeError("the fuzz worker did not start")

    def close(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None
        for fd in (self.to_worker, self.from_worker):
            if fd >= 0:
                os.close(fd)
        self.to_worker = self.from_worker = -1

    def run(self, request: dict[str, Any], timeout_s: float) -> Outcome:
        if self.proc is None:
            self._start()
        assert self.proc is not None
        start = time.perf_counter()
        try:
            _write_msg(self.to_worker, request)
            ready, _, _ = select.select([self.from_worker], [], [], timeout_s)
            if ready:
                return _read_msg(self.from_worker)
        except (EOFError, BrokenPipeError):
            code = self.proc.wait()
            self.close()
            how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            return Outcome(
                status="crash",
                seconds=time.perf_counter() - start,
                detail=f"the worker process died ({how})",
            )
        self.close()
        return Outcome(
            status="hang",
            seconds=time.perf_counter() - start,
            detail=f"no result after {timeout_s:g} s; killed",
        )


def run_request(worker: Worker | None, request: dict[str, Any], timeout_s: float) -> Outcome:
    """Run ``request`` in ``worker``, or here when ``worker`` is None (AIRTCP_FUZZ_INPROCESS)."""
    if worker is None:
        return _execute(request)
    return worker.run(request, timeout_s)


# ---------------------------------------------------------------------------------------------
# Files: what a case may create, change or remove


def snapshot(*roots: tuple[Path, bool]) -> dict[str, tuple[str, int, int]]:
    """Every entry under each (root, recursive) as path -> (type, size, mtime_ns); a directory
    counts by its presence only."""
    entries: dict[str, tuple[str, int, int]] = {}
    for root, recursive in roots:
        if not root.exists():
            continue
        if recursive:
            for dirpath, dirnames, filenames in os.walk(root):
                for d in dirnames:
                    entries[os.path.join(dirpath, d)] = ("dir", 0, 0)
                for f in filenames:
                    entries[os.path.join(dirpath, f)] = _stat(os.path.join(dirpath, f))
        else:
            for child in os.scandir(root):
                path = child.path
                if child.is_dir(follow_symlinks=False):
                    entries.setdefault(path, ("dir", 0, 0))
                else:
                    entries.setdefault(path, _stat(path))
    return entries


def _stat(path: str) -> tuple[str, int, int]:
    st = os.lstat(path)
    kind = "link" if os.path.islink(path) else "file"
    return (kind, st.st_size, st.st_mtime_ns)


def _inside(path: str, allowed: list[Path]) -> bool:
    p = Path(os.path.realpath(path))
    for a in allowed:
        a = Path(os.path.realpath(a))
        if p == a or a in p.parents:
            return True
    return False


def _ancestor(path: str, allowed: list[Path]) -> bool:
    p = Path(os.path.realpath(path))
    return any(p in Path(os.path.realpath(a)).parents for a in allowed)


def file_violations(
    before: dict[str, tuple[str, int, int]],
    after: dict[str, tuple[str, int, int]],
    allowed: list[Path],
    exit_code: int | None,
) -> list[str]:
    """Files created outside ``allowed``, anything written by a failed command (exit 2),
    pre-existing files removed or (outside ``allowed``) changed."""
    problems = []
    new = sorted(set(after) - set(before))
    for p in new:
        if after[p][0] == "dir" and _ancestor(p, allowed):
            continue  # the missing parents of an output path (mkdir -p)
        if not _inside(p, allowed):
            problems.append(f"created outside the output paths: {p}")
        elif exit_code == 2:
            problems.append(f"exit 2 but wrote: {p}")
    for p in sorted(set(before) - set(after)):
        problems.append(f"removed a pre-existing path: {p}")
    for p in sorted(set(before) & set(after)):
        if before[p][0] != "dir" and before[p] != after[p]:
            if not _inside(p, allowed) or exit_code == 2:
                problems.append(f"changed a pre-existing file: {p}")
    return problems


# ---------------------------------------------------------------------------------------------
# The contract

# "error: <field path>: <what>". The path is one token (a dotted scenario path such as
# flows.0.src, a file path), or an option with its value (--set KEY=VALUE, --from 0 --to inf,
# --run "'; --"), or a long token cut short ("a.a.a... (1000 characters)"); a sweep's error may
# first name its run ("run {'hops': 3}: stations: ..."). Then ": " and the message.
# A key that is blank or holds a dot or a space is quoted in the path (flows.0." ").
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_TOKEN = rf"(?:{_QUOTED}|[^\s:\"])(?:{_QUOTED}|\S)*?(?:\.\.\. \(\d+ characters\))?"
_PATH = rf"(?:run \{{.*?\}}: )?(?:--[A-Za-z][\w-]*(?: .*?)?|{_TOKEN})"
ERROR_LINE = re.compile(rf"^error: (?P<path>{_PATH}): (?P<what>\S.*)$")
# The longest error line we accept: messages echo a short prefix of a bad value only.
MAX_ERROR_LINE = 1500

_TRACE_MARKERS = ("Traceback (most recent call last)", "PanicException", "panicked at")


def _markers(*texts: str) -> list[str]:
    found = []
    for marker in _TRACE_MARKERS:
        if any(marker in t for t in texts):
            found.append(marker)
    return found


def common_violations(o: Outcome) -> list[str]:
    """Hang, crash, escaped exception, traceback or panic text, warnings."""
    problems = []
    if o.status == "hang":
        return [f"hang ({o.detail})"]
    if o.status == "crash":
        return [f"crash ({o.detail}): {o.fd_output.strip()[:300]}"]
    if o.exc_type:
        kind = "Rust panic" if "PanicException" in o.exc_type else "uncaught exception"
        first = _first_traceback_line(o)
        problems.append(f"{kind}: {o.exc_type}: {o.exc_message[:200]} [{first}]")
    found = _markers(o.stdout, o.stderr, o.fd_output)
    if found and not o.exc_type:
        problems.append(f"output shows {', '.join(found)}: {_marker_line(o)}")
    for w in o.warnings:
        problems.append(f"warning: {w[:300]}")
    return problems


def _first_traceback_line(o: Outcome) -> str:
    """The innermost frame of the traceback inside airtcp (else the innermost one)."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', o.traceback)
    ours = [f for f in frames if "/airtcp/" in f[0] and "/tests/" not in f[0]]
    pick = (ours or frames or [("?", "?", "?")])[-1]
    path = pick[0]
    cut = path.rfind("airtcp/")
    return f"{path[cut:] if cut >= 0 else path}:{pick[1]} in {pick[2]}"


def _marker_line(o: Outcome) -> str:
    for text in (o.fd_output, o.stderr, o.stdout):
        for line in text.splitlines():
            if any(m in line for m in _TRACE_MARKERS) or "Error" in line:
                return line.strip()[:200]
    return ""


def error_lines_violations(text: str, where: str) -> list[str]:
    """Every non-empty line of ``text`` must be an ``error: <path>: <what>`` line."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return [f"exit 2 with nothing on {where}"]
    problems = []
    for ln in lines:
        if not ERROR_LINE.match(ln):
            problems.append(f"{where} line is not 'error: <field path>: <what>': {ln[:200]!r}")
        elif len(ln) > MAX_ERROR_LINE:
            problems.append(f"error line of {len(ln)} characters: {ln[:120]!r}...")
    return problems


def cli_violations(o: Outcome, *, expect_json: bool = False) -> list[str]:
    """The CLI contract: exit 0 (with a JSON result if ``expect_json``) or exit 2 with error
    lines only, usage errors too (an unknown option, a value that is not a number)."""
    problems = common_violations(o)
    if o.status != "done" or o.exc_type:
        return problems
    if o.exit_code not in (0, 2):
        problems.append(f"exit status {o.exit_code} (allowed: 0 or 2)")
    elif o.exit_code == 2:
        problems += error_lines_violations(o.stderr, "stderr")
        if o.stdout.strip():
            problems.append(f"exit 2 with output on stdout: {o.stdout.strip()[:120]!r}")
    elif expect_json:
        import json

        last = o.stdout.strip().splitlines()[-1:] or [""]
        try:
            summary = json.loads(last[0])
        except ValueError:
            problems.append(f"exit 0 but stdout is not a JSON line: {o.stdout[:120]!r}")
        else:
            if not isinstance(summary, dict) or "flows" not in summary:
                problems.append(f"exit 0 but the JSON has no flows: {last[0][:120]!r}")
    return problems


def _expected(problems: list[str]) -> list[str]:
    """``problems`` without the "uncaught exception" entry of an exception that is allowed."""
    return [p for p in problems if not p.startswith("uncaught exception")]


def scenario_error_violations(o: Outcome) -> list[str]:
    """``airtcp.run(...)``: a Result, or ScenarioError (a ValueError) whose every line is
    ``<field path>: <what>``."""
    problems = common_violations(o)
    if o.status != "done" or not o.exc_is_scenario_error:
        return problems
    problems = _expected(problems)
    for ln in o.exc_message.splitlines() or [""]:
        if not ERROR_LINE.match(f"error: {ln}"):
            problems.append(f"ScenarioError line is not '<field path>: <what>': {ln[:200]!r}")
        elif len(ln) > MAX_ERROR_LINE:
            problems.append(f"ScenarioError line of {len(ln)} characters: {ln[:120]!r}...")
    return problems


# The core's messages: "<field path>: <what>", the path dotted (nodes.3.name; a key that is
# not a word quoted: traces."bad key") or "spec" for the document as a whole.
_SEG = r'(?:[A-Za-z0-9_]+|"(?:[^"\\]|\\.)*")'
CORE_ERROR = re.compile(
    rf"^(?P<path>(?:[A-Za-z_][A-Za-z0-9_]*|\"(?:[^\"\\]|\\.)*\")(?:\.{_SEG})*): (?P<what>\S.*)$",
    re.S,
)
MAX_CORE_MESSAGE = 600


def core_violations(o: Outcome) -> list[str]:
    """``_core.run``: a result, or ValueError ``<field path>: <what>`` of bounded length."""
    problems = common_violations(o)
    if o.status != "done" or not o.exc_type:
        return problems
    if o.exc_type == "builtins.ValueError":
        problems = _expected(problems)
        if not CORE_ERROR.match(o.exc_message):
            problems.append(
                f"core message does not start with a field path: {o.exc_message[:200]!r}"
            )
        elif len(o.exc_message) > MAX_CORE_MESSAGE:
            problems.append(
                f"core message of {len(o.exc_message)} characters: {o.exc_message[:120]!r}..."
            )
    return problems
