"""Parse-time bombs (issue 29): inputs that cost minutes or gigabytes before anything said no.

Each case is one that a fuzz campaign found (or its neighbour just under a bound), run in a
child process that imports airtcp and runs a tiny scenario first, then times the case alone and
measures how far it raises the process's peak RSS. A case must be refused with a message that
names the file or field, within 1 s and 100 MB. Before the bounds, the dotted key took 60 s and
5.4 GB, the unknown keys and the matrix over 60 s each, /dev/zero grew to 6.8 GB in 12 s, a
named pipe blocked for ever and 100,000 flows ran (26 s, 860 MB). The child is killed after
30 s and limited to 4 GB of address space, so a regression fails here instead of taking the
machine.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_harness import ERROR_LINE

import airtcp

PYTHON_DIR = str(Path(airtcp.__file__).parents[1])
TESTS_DIR = str(Path(__file__).resolve().parent)  # cli_runner
SECONDS = 1.0  # the bound on the case's own time (the child's start-up is not counted)
MEGABYTES = 100  # the bound on how far the case raises the child's peak RSS
TIMEOUT_S = 30
ADDRESS_SPACE = 4 * 2**30

TINY = 'name = "tiny"\nstations = 1\nduration_s = 0.05\n'

# The child: warm up (imports, a tiny run), then one case; prints a JSON line.
CHILD = r"""
import json, resource, sys, time
from pathlib import Path

mode, target, tiny = sys.argv[1], sys.argv[2], sys.argv[3]
extra = sys.argv[4:]
import airtcp
from airtcp import sweep
from airtcp.cli import app
from cli_runner import CliRunner

runner = CliRunner()
assert runner.invoke(app, ["run", tiny]).exit_code == 0
airtcp.run(tiny)


def peak_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


data = json.loads(Path(target).read_text()) if mode == "api-dict" else None
out = {}
before = peak_kb()
t0 = time.perf_counter()
try:
    if mode in ("run", "sweep"):
        r = runner.invoke(app, [mode, target, *extra])
        out = {"exit": r.exit_code, "stderr": r.stderr, "stdout": r.stdout[-2000:],
               "exception": None if r.exception is None or isinstance(r.exception, SystemExit)
               else repr(r.exception)}
    elif mode == "api":  # airtcp.run(path)
        airtcp.run(target)
    elif mode == "api-dict":  # airtcp.run(dict), the dict read from a JSON file
        airtcp.run(data)
    elif mode == "api-override":  # airtcp.run(tiny, overrides={target: 1})
        airtcp.run(tiny, overrides={target: 1})
    elif mode == "load-sweep":
        sweep.load_sweep(target)
    else:
        raise SystemExit(f"unknown mode {mode}")
except Exception as exc:
    out = {"exception": type(exc).__name__, "message": str(exc)}
out["seconds"] = time.perf_counter() - t0
out["grew_mb"] = (peak_kb() - before) / 1024
print(json.dumps(out))
"""


def _child(mode: str, target: str, tiny: Path, *extra: str) -> dict:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, mode, target, str(tiny), *extra],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            preexec_fn=limit,
            env={**os.environ, "PYTHONPATH": os.pathsep.join([PYTHON_DIR, TESTS_DIR])},
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{mode} {target[:100]}: still running after {TIMEOUT_S} s")
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, (done.returncode, done.stdout[-2000:], done.stderr)
    return json.loads(lines[-1])


def _refused(out: dict, needle: str, exception: str = "ScenarioError") -> str:
    """The one refusal line of ``out``, which must contain ``needle``; the case's cost bounded."""
    if "exit" in out:  # the command line: exit 2, one "error:" line, no traceback
        assert out["exception"] is None, out
        assert out["exit"] == 2, out
        assert "Traceback" not in out["stderr"] + out["stdout"], out
        lines = out["stderr"].splitlines()
        assert len(lines) == 1 and ERROR_LINE.match(lines[0]), out  # "error: <path>: <what>"
        message = lines[0]
    else:
        assert out.get("exception") == exception, out
        message = out["message"]
    assert needle in message, message
    assert out["seconds"] < SECONDS, out
    assert out["grew_mb"] < MEGABYTES, out
    return message


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


# --- files that tomllib would parse for minutes ----------------------------------------------


def _dotted(path: Path) -> None:  # 100 kB, 50,000 levels (60 s and 5.4 GB)
    path.write_text("a" + ".a" * 49_999 + " = 1\n")


def _unknown_keys(path: Path) -> None:  # 300,000 keys in 4.9 MB (over 60 s)
    path.write_text("".join(f"k{i} = {i}\n" for i in range(300_000)))


def _keys_under_the_size(path: Path) -> None:  # 250,000 keys in 2.7 MB
    path.write_text("".join(f"k{i} = 1\n" for i in range(250_000)))


def _matrix(path: Path) -> None:  # 3000 x 3000 in 18 MB (over 60 s)
    row = "[" + ",".join("1" for _ in range(3000)) + "]"
    path.write_text("m = [" + ",".join(row for _ in range(3000)) + "]\n")


def _matrix_under_the_size(path: Path) -> None:  # 1000 x 1000 in 2 MB
    row = "[" + ",".join("1" for _ in range(1000)) + "]"
    path.write_text("m = [" + ",".join(row for _ in range(1000)) + "]\n")


def _nested_arrays(path: Path) -> None:  # 10^6 levels of [ in 2 MB
    path.write_text("x = " + "[" * 1_000_000 + "]" * 1_000_000 + "\n")


def _sparse_10_gb(path: Path) -> None:  # a regular file that is never read
    with path.open("wb") as f:
        f.truncate(10 * 2**30)


FILES = {
    "dotted-key-50000-levels": (_dotted, "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a"),
    "unknown-keys-300000": (_unknown_keys, "too large for a scenario file (got 4877780 bytes"),
    "keys-250000-in-2.7-MB": (_keys_under_the_size, "line 200001: too many keys and array"),
    "matrix-3000x3000": (_matrix, "too large for a scenario file (got 18006006 bytes"),
    "matrix-1000x1000": (_matrix_under_the_size, "line 1: too many keys and array elements"),
    "arrays-nested-10^6-deep": (_nested_arrays, "x: nested too deeply"),
    "sparse-10-GB": (_sparse_10_gb, "too large for a scenario file (got 10737418240 bytes"),
}


@pytest.mark.parametrize("case", list(FILES))
def test_bomb_file_run(case, tmp_path, tiny):
    make, needle = FILES[case]
    path = tmp_path / "bomb.toml"
    make(path)
    message = _refused(_child("run", str(path), tiny), needle)
    assert message.startswith(f"error: {path}"), message  # names the file


@pytest.mark.parametrize("case", ["dotted-key-50000-levels", "matrix-1000x1000", "sparse-10-GB"])
def test_bomb_file_python_api(case, tmp_path, tiny):
    make, needle = FILES[case]
    path = tmp_path / "bomb.toml"
    make(path)
    assert _refused(_child("api", str(path), tiny), needle).startswith(str(path))


@pytest.mark.parametrize("case", ["dotted-key-50000-levels", "keys-250000-in-2.7-MB"])
def test_bomb_sweep_file(case, tmp_path, tiny):
    make, needle = FILES[case]
    path = tmp_path / "bomb.toml"
    make(path)
    _refused(_child("load-sweep", str(path), tiny), needle, "SweepError")
    out = _child("sweep", str(path), tiny, "--out", str(tmp_path / "store"))
    _refused(out, needle)
    assert not (tmp_path / "store").exists()


def test_bomb_sweep_base(tmp_path, tiny):
    _dotted(tmp_path / "base.toml")
    path = tmp_path / "sweep.toml"
    path.write_text('base = "base.toml"\n')
    _refused(_child("load-sweep", str(path), tiny), "nested too deeply", "SweepError")


# --- files that are no regular files ----------------------------------------------------------


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return str(path)


def _socket(tmp_path: Path) -> str:
    path = tmp_path / "sock.toml"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    s.close()
    return str(path)


def _symlink_to_zero(tmp_path: Path) -> str:
    path = tmp_path / "zero.toml"
    path.symlink_to("/dev/zero")
    return str(path)


SPECIAL = {
    "dev-zero": (lambda tmp: "/dev/zero", "not a regular file (got a character device"),
    "symlink-to-dev-zero": (_symlink_to_zero, "not a regular file (got a character device"),
    "named-pipe": (_fifo, "not a regular file (got a named pipe (FIFO)"),
    "socket": (_socket, "not a regular file (got a socket"),
    "directory": (lambda tmp: str(tmp), "is a directory, not a scenario file"),
}


@pytest.mark.parametrize("case", list(SPECIAL))
def test_not_a_regular_file_run(case, tmp_path, tiny):
    make, needle = SPECIAL[case]
    target = make(tmp_path)
    message = _refused(_child("run", target, tiny), needle)
    assert message.startswith(f"error: {target}: "), message
    if case != "directory":
        assert "allowed: a regular scenario file of at most 4194304 bytes (4 MiB)" in message


@pytest.mark.parametrize("case", ["dev-zero", "named-pipe"])
def test_not_a_regular_file_python_api(case, tmp_path, tiny):
    make, needle = SPECIAL[case]
    assert _refused(_child("api", make(tmp_path), tiny), needle)


@pytest.mark.parametrize("case", ["dev-zero", "named-pipe"])
def test_not_a_regular_file_sweep(case, tmp_path, tiny):
    make, needle = SPECIAL[case]
    target = make(tmp_path)
    _refused(_child("load-sweep", target, tiny), needle.replace("scenario", "sweep"), "SweepError")
    base = tmp_path / "sweep.toml"
    base.write_text(f"base = {json.dumps(target)}\n")
    _refused(_child("load-sweep", str(base), tiny), needle, "SweepError")


# --- flows and overrides ----------------------------------------------------------------------


def test_bomb_flows_from_globs(tmp_path, tiny):
    # 1000 stations, 100 [[flows]] of src = "sta*": 100,000 flows ran (26 s, 860 MB)
    path = tmp_path / "flows.toml"
    path.write_text(
        "stations = 1000\nduration_s = 0.05\n"
        + '[[flows]]\nkind = "udp_cbr"\nsrc = "sta*"\ndst = "ap"\nrate_mbps = 0.01\n' * 100
    )
    message = _refused(_child("run", str(path), tiny), "flows: more than the limit of 10000 flows")
    assert "allowed: at most 10000 flows in all" in message


def test_bomb_flows_entries_python_api(tmp_path, tiny):
    # 100,000 [[flows]] entries: refused before any is validated
    data = {
        "topology": "custom",
        "duration_s": 0.05,
        "nodes": [{"name": "a", "role": "adhoc"}, {"name": "b", "role": "adhoc", "x_m": 1}],
        "flows": [{"kind": "udp_saturating", "src": "a", "dst": "b"}] * 100_000,
    }
    path = tmp_path / "flows.json"
    path.write_text(json.dumps(data))
    message = _refused(
        _child("api-dict", str(path), tiny), "flows: more than the limit of 10000 entries"
    )
    assert "(got 100000 entries; allowed: at most 10000 entries)" in message


def test_bomb_override_key_50000_parts(tiny):
    key = ".".join(["a"] * 50_000)
    _refused(_child("api-override", key, tiny), "nested too deeply (got 50000 parts")
