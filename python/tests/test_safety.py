"""Safe with any input and any output path: one test per class of fault found by attacking the
command line with malformed scenarios and paths. Each test is named after its class and failed
before the fix it guards.

The contract: a user error exits 2 with ``error:`` lines that name the field, the bad value
(a short prefix of it) and what is allowed; nothing is written outside the output path given;
nothing airtcp did not create is removed; every size has a documented bound.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pytest
from cli_runner import CliRunner

import airtcp
from airtcp import sweep
from airtcp.cli import app
from airtcp.config import MAX_NODES, Scenario, ScenarioError
from airtcp.outpath import MARKER, OutputExistsError, child, safe_name

runner = CliRunner()

TINY = """
name = "tiny"
stations = 1
duration_s = 0.05
"""


def invoke(*args: str, cwd: Path | None = None):
    if cwd is None:
        return runner.invoke(app, list(args))
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return runner.invoke(app, list(args))
    finally:
        os.chdir(old)


def user_error(result, needle: str = "") -> str:
    """The one-line user error of ``result`` (exit 2, no traceback), containing ``needle``."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors, result.stderr
    assert needle in errors[0], errors[0]
    return errors[0]


def listing(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for a directory)."""
    return {
        str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


@pytest.fixture
def thesis(tmp_path: Path) -> Path:
    """A directory of the user's: a draft and a sweep store that airtcp did not write."""
    d = tmp_path / "thesis"
    (d / "store" / "runs").mkdir(parents=True)
    (d / "draft.tex").write_text("\\section{Results}")
    (d / "store" / "runs" / "keep.txt").write_text("precious")
    return d


# --- 1. Files outside the output directory ---------------------------------------------------


@pytest.mark.parametrize(
    "name", ["../victim/owned", "/etc/owned", "a/b", "..", ".", "-x", "a b", "x" * 65, "é", ""]
)
def test_files_outside_the_output_directory_node_names(name):
    data = {
        "topology": "custom",
        "nodes": [{"name": "ap", "role": "ap"}, {"name": name, "role": "sta"}],
        "flows": [{"kind": "udp_saturating", "src": "ap", "dst": "ap"}],
    }
    with pytest.raises(ScenarioError, match=r"nodes\.1\.name: not a valid node name"):
        Scenario.from_dict(data)


def test_files_outside_the_output_directory_pcap(tmp_path):
    # Even a result built outside the scenario checks (names unchecked) writes only inside.
    from airtcp.pcap import write_pcaps

    scenario = {"name": "t", "stations": 1, "duration_s": 0.05, "traces": {"frames": True}}
    result = airtcp.run(scenario, seed=1)
    result.summary["nodes"][1]["name"] = "../../escaped"
    out = tmp_path / "deep" / "pcap"
    write_pcaps(result, out)
    assert not (tmp_path / "escaped-wlan0.pcap").exists()
    assert sorted(p.name for p in out.glob("*.pcap")) == ["ap-wlan0.pcap", "node1-wlan0.pcap"]
    assert [p for p in tmp_path.rglob("*.pcap") if out not in p.parents] == []
    assert safe_name("sta1") and not safe_name("../x")
    with pytest.raises(OutputExistsError):
        child(tmp_path, "../x")


# --- 2. User data deleted --------------------------------------------------------------------


def test_user_data_deleted_validate_refuses_a_directory_it_did_not_create(thesis):
    before = listing(thesis)
    user_error(invoke("validate", "--out", str(thesis), "--duration-s", "0.1"), "did not create")
    assert listing(thesis) == before


def test_user_data_deleted_validate_refuses_a_file(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    user_error(invoke("validate", "--out", str(f)), "not a directory")
    assert f.read_text() == "mine"


@pytest.mark.parametrize("where", [".", ".."])
def test_user_data_deleted_dot_paths(tmp_path, where):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    (tmp_path / "a" / "mine.txt").write_text("x")
    (work / "mine.txt").write_text("y")
    before = listing(tmp_path)
    user_error(invoke("validate", "--out", where, cwd=work), "did not create")
    assert listing(tmp_path) == before  # no temporary directories left either


def test_user_data_deleted_run_out_and_pcap_write_into_an_empty_current_directory(tmp_path, tiny):
    work = tmp_path / "w"
    work.mkdir()
    result = invoke("run", str(tiny), "--out", ".", cwd=work)
    assert result.exit_code == 0, result.output
    assert (work / "summary.json").exists() and (work / MARKER).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.toml", "w"]  # nothing beside
    # airtcp's own run directory is still never overwritten
    user_error(invoke("run", str(tiny), "--out", ".", cwd=work), "never overwritten")


@pytest.mark.parametrize(
    "args",
    [
        ["run", "{tiny}", "--out", "{thesis}"],
        ["run", "{tiny}", "--pcap", "{thesis}"],
        ["sweep", "{sweep}", "--out", "{thesis}", "--workers", "1"],
        ["reproduce", "001", "--quick", "--out", "{thesis}"],
    ],
    ids=["run-out", "run-pcap", "sweep", "reproduce"],
)
def test_user_data_deleted_every_writing_command_refuses_a_foreign_directory(
    tmp_path, tiny, thesis, args
):
    sweep_file = tmp_path / "s.toml"
    sweep_file.write_text(f'base = "{tiny.name}"\n[grid]\nstations = [1]\n')
    subs = {"{tiny}": str(tiny), "{thesis}": str(thesis), "{sweep}": str(sweep_file)}
    before = listing(thesis)
    user_error(invoke(*(subs.get(a, a) for a in args)), str(thesis))
    assert listing(thesis) == before


def test_user_data_deleted_plot_refuses_to_overwrite_a_file_it_did_not_draw(tmp_path, tiny):
    run_dir = tmp_path / "run"
    assert (
        invoke("run", str(tiny), "--out", str(run_dir), "--set", "traces.mac_tx=true").exit_code
        == 0
    )
    mine = tmp_path / "figure.png"
    mine.write_bytes(b"\x89PNG my own figure")
    args = ["plot", "trace", str(run_dir), "--kind", "mac_tx", "--out", str(mine)]
    user_error(invoke(*args), "airtcp did not write it")
    assert mine.read_bytes() == b"\x89PNG my own figure"
    args[-1] = str(tmp_path / "fresh.png")
    assert invoke(*args).exit_code == 0
    assert invoke(*args).exit_code == 0  # an airtcp figure is redrawn in place


def test_user_data_deleted_sweep_reuses_only_its_own_store(tmp_path, tiny):
    sweep_file = tmp_path / "s.toml"
    sweep_file.write_text(f'base = "{tiny.name}"\n[grid]\nstations = [1]\n')
    out = tmp_path / "store"
    assert invoke("sweep", str(sweep_file), "--out", str(out), "--workers", "1").exit_code == 0
    assert json.loads((out / MARKER).read_text())["kind"] == "sweep"
    again = invoke("sweep", str(sweep_file), "--out", str(out), "--workers", "1")
    assert again.exit_code == 0 and "1 already stored" in again.stdout
    # a validation report's directory is airtcp's too, but not a store
    (out / MARKER).write_text(json.dumps({"created_by": "airtcp", "kind": "validate"}))
    user_error(invoke("sweep", str(sweep_file), "--out", str(out)), "not sweep output")


# --- 3. Tracebacks instead of exit 2 ---------------------------------------------------------


def _sweep(tmp_path: Path, text: str, name: str = "s.toml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


TRACEBACK_CASES = {
    "sweep-missing-base": (["sweep", "{sw:base = 'nope.toml'}"], "no such scenario file"),
    "sweep-base-is-a-directory": (["sweep", "{sw:base = '.'}"], "is a directory"),
    "sweep-base-invalid": (["sweep", "{sw:base = 'bad.toml'}"], "invalid TOML"),
    "sweep-latin-1": (["sweep", "{latin1}"], "not UTF-8"),
    "sweep-grid-5": (["sweep", "{sw:base = {}\ngrid = 5}"], "grid: 5"),
    "sweep-out-is-a-file": (["sweep", "{sw:base = {}}", "--out", "{file}"], "not a directory"),
    "sweep-out-dev-null": (["sweep", "{sw:base = {}}", "--out", "/dev/null"], "not a directory"),
    # /proc refuses a new directory even to root (a chmod 555 directory would not)
    "sweep-out-read-only": (["sweep", "{sw:base = {}}", "--out", "/proc/airtcp"], "cannot write"),
    "validate-nan": (["validate", "--duration-s", "nan"], "--duration-s: nan"),
    "validate-inf": (["validate", "--duration-s", "inf"], "--duration-s: inf"),
    "validate-tiny": (["validate", "--duration-s", "1e-12"], "--duration-s: 1e-12"),
    "validate-huge": (["validate", "--duration-s", "1e12"], "--duration-s: 1000000000000.0"),
    "query-empty-sql": (["query", "{store}", ""], "SQL is empty"),
    "query-truncated-row": (["query", "{broken}", "SELECT 1"], "not a readable Parquet file"),
    "plot-metric-truncated-row": (
        [
            "plot",
            "metric",
            "{broken}",
            "--x",
            "param.stations",
            "--y",
            "totals.goodput_bps",
            "--out",
            "{tmp}/m.png",
        ],
        "not a readable Parquet file",
    ),
    "plot-trace-bin-1e-12": (
        [
            "plot",
            "trace",
            "{rundir}",
            "--kind",
            "mac_tx",
            "--bin-s",
            "1e-12",
            "--out",
            "{tmp}/t.png",
        ],
        "--bin-s",
    ),
    "plot-sequence-to-inf": (
        ["plot", "sequence", "{rundir}", "--from", "0", "--to", "inf", "--out", "{tmp}/q.png"],
        "--to inf",
    ),
    "reproduce-out-file": (["reproduce", "001", "--quick", "--out", "{file}"], "not a directory"),
    "toml-nested-500": (["run", "{deep}"], "nested too deeply"),
    "set-nested-500": (["run", "{tiny}", "--set", "x=" + "[" * 500 + "]" * 500], "nested"),
    "set-key-500-deep": (["run", "{tiny}", "--set", ".".join(["a"] * 500) + "=1"], "nested"),
    "set-duration-1e300": (["run", "{tiny}", "--set", "duration_s=1e300"], "duration_s"),
    "set-link-rate-1e303": (
        ["run", "{wired}", "--set", "links.0.rate_mbps=1e303"],
        "links.0.rate_mbps: must be <=",
    ),
}


@pytest.fixture
def cases_env(tmp_path: Path, tiny: Path) -> dict[str, str]:
    (tmp_path / "bad.toml").write_text("stations = [")
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('base = {name = "caf\u00e9"}\n'.encode("latin-1"))
    f = tmp_path / "plain.txt"
    f.write_text("mine")
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 500 + "]" * 500 + "\n")
    wired = tmp_path / "wired.toml"
    wired.write_text(
        TINY + '[[nodes]]\nname = "srv"\nrole = "host"\n'
        '[[links]]\na = "ap"\nb = "srv"\nrate_mbps = 100\ndelay_ms = 1\n'
    )
    # a store with one good row, and a copy with a truncated row
    sweep_file = tmp_path / "ok.toml"
    sweep_file.write_text(f'base = "{tiny.name}"\n[grid]\nstations = [1, 2]\n')
    store = tmp_path / "store"
    sweep.run_sweep(sweep.load_sweep(sweep_file), store, workers=1)
    broken = tmp_path / "broken"
    sweep.run_sweep(sweep.load_sweep(sweep_file), broken, workers=1)
    row = sorted(broken.glob("runs/*/*.parquet"))[0]
    row.write_bytes(row.read_bytes()[:100])
    rundir = tmp_path / "rundir"
    assert (
        invoke("run", str(tiny), "--out", str(rundir), "--set", "traces.mac_tx=true").exit_code == 0
    )
    return {
        "{tmp}": str(tmp_path),
        "{tiny}": str(tiny),
        "{latin1}": str(latin1),
        "{file}": str(f),
        "{deep}": str(deep),
        "{wired}": str(wired),
        "{store}": str(store),
        "{broken}": str(broken),
        "{rundir}": str(rundir),
    }


def _expand(arg: str, env: dict[str, str], tmp_path: Path) -> str:
    if arg.startswith("{sw:"):
        return _sweep(tmp_path, arg[4:-1].replace("'", '"'), f"sw{abs(hash(arg))}.toml")
    for key, value in env.items():
        arg = arg.replace(key, value)
    return arg


@pytest.mark.parametrize("case", list(TRACEBACK_CASES))
def test_tracebacks_instead_of_exit_2(case, cases_env, tmp_path):
    args, needle = TRACEBACK_CASES[case]
    before = set(listing(tmp_path))
    result = invoke(*(_expand(a, cases_env, tmp_path) for a in args))
    user_error(result, needle)
    created = {p for p in set(listing(tmp_path)) - before if not p.startswith("sw")}
    assert created == set(), created  # a failed command writes nothing


def test_tracebacks_instead_of_exit_2_python_api():
    with pytest.raises(ScenarioError, match="a table key is not a string"):
        airtcp.run({5: 1})  # type: ignore[dict-item]
    with pytest.raises(ScenarioError, match="config: expected a Scenario"):
        airtcp.run(5)  # type: ignore[arg-type]


# --- 4. Messages that do not name the field --------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"duration_s": 1.85e10}, "duration_s: must be <="),
        ({"mac": {"queue_limit_packets": 2**32}}, "mac.queue_limit_packets: must be <="),
        (
            {"flows": [{"kind": "tcp_file", "src": "sta1", "dst": "ap", "file_bytes": 2**64}]},
            "flows.0.file_bytes: must be <=",
        ),
    ],
)
def test_messages_that_do_not_name_the_field_python_holds_the_core_bounds(data, field):
    with pytest.raises(ScenarioError) as err:
        Scenario.from_dict(data)
    assert str(err.value).startswith(field), str(err.value)
    assert "world spec" not in str(err.value)


def test_messages_that_do_not_name_the_field_short_echo_and_exact_numbers():
    with pytest.raises(ScenarioError) as err:
        Scenario.from_dict({"standard": "x" * 1_000_000})
    assert len(str(err.value)) < 400
    with pytest.raises(ScenarioError, match=r"got 54\.0000001;"):
        Scenario.from_dict({"data_rate_mbps": 54.0000001})


def test_messages_that_do_not_name_the_field_no_rust_option_in_core_messages():
    from airtcp import _core

    spec = json.loads(Scenario.from_dict({"duration_s": 0.01}).spec_json())
    spec["wifi"]["cw_min"] = 0
    with pytest.raises(ValueError) as err:
        _core.run(json.dumps(spec), 1)
    assert "Some(" not in str(err.value)
    assert str(err.value).startswith("wifi.cw_min"), str(err.value)


# --- 5. Accepted nonsense --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("base = {}\n[grid]\nduration_s = {start = 1, stop = nan}", "finite numbers"),
        ("base = {}\n[grid]\nduration_s = {start = 1, stop = inf}", "finite numbers"),
        ("base = {}\n[grid]\nstations = [nan]", "no dates, no nan or inf"),
        ("base = {}\n[[zip]]\nstations = []\nhops = []", "empty lists"),
        ("base = {}\nreplications = true", "replications: True"),
        ("base = {}\n[grid]\nstations = [1, 2]\n[[zip]]\nstations = [1, 2]", "already swept"),
        ("base = {}\n[grid]\nx = [1979-05-27]", "no dates"),
    ],
)
def test_accepted_nonsense_sweep_files(tmp_path, text, needle):
    p = tmp_path / "s.toml"
    p.write_text(text)
    with pytest.raises(sweep.SweepError, match=needle):
        sweep.load_sweep(p)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"flows": []}, "flows: an empty list leaves the scenario without traffic"),
        (
            {"flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1e12}]},
            "flows.0.rate_mbps: must be <=",
        ),
        (
            {
                "payload_bytes": 10,
                "flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 1000}],
            },
            "packets per second",
        ),
        ({"report_interval_s": 1e-9}, "report_interval_s: cuts duration_s"),
    ],
)
def test_accepted_nonsense_scenarios(data, needle):
    with pytest.raises(ScenarioError, match=needle):
        Scenario.from_dict(data)


def test_accepted_nonsense_analytic_payload_zero():
    user_error(
        invoke("analytic", "tmt", "--standard", "80211a", "--payload-bytes", "0"),
        "payload_bytes: 0",
    )
    user_error(
        invoke(
            "analytic", "bianchi", "--stations", "5", "--standard", "80211a", "--payload-bytes", "0"
        ),
        "payload_bytes: 0",
    )


# --- 6. Sizes bounded ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data,limit",
    [
        ({"stations": 5001}, 5000),
        ({"stations": 10**6}, 5000),
        ({"topology": "chain", "hops": 2001}, 2000),
    ],
)
def test_sizes_bounded_nodes(data, limit):
    with pytest.raises(ScenarioError, match=f"must be <= {limit}"):
        Scenario.from_dict(data)
    many = [{"name": f"n{i}", "role": "adhoc"} for i in range(MAX_NODES + 1)]
    with pytest.raises(ScenarioError, match="more than the limit of 5001"):
        Scenario.from_dict(
            {
                "topology": "custom",
                "nodes": many,
                "flows": [{"kind": "udp_saturating", "src": "n0", "dst": "n1"}],
            }
        )


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("base = {}\n[grid]\nduration_s = {start = 1, stop = 1e12}", "holds 1000000000000 values"),
        ("base = {}\nreplications = 100000000", "replications: 100000000"),
        (
            "base = {}\nreplications = 1000\n[grid]\nstations = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "
            "11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, "
            "32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, "
            "53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, "
            "74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, "
            "95, 96, 97, 98, 99, 100, 101]",
            "expands to 101000 runs",
        ),
    ],
)
def test_sizes_bounded_sweeps(tmp_path, text, needle):
    p = tmp_path / "s.toml"
    p.write_text(text)
    with pytest.raises(sweep.SweepError, match=needle):
        sweep.load_sweep(p)


def test_sizes_bounded_workers_never_exceed_the_runs(tmp_path, tiny, monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for one run")

    monkeypatch.setattr(sweep, "ProcessPoolExecutor", no_pool)
    p = tmp_path / "s.toml"
    p.write_text(f'base = "{tiny.name}"\n')
    ran, skipped = sweep.run_sweep(sweep.load_sweep(p), tmp_path / "o", workers=256)
    assert (ran, skipped) == (1, 0)
    with pytest.raises(sweep.SweepError, match="workers: 5000"):
        sweep.run_sweep(sweep.load_sweep(p), tmp_path / "o", workers=5000)


def test_sizes_bounded_query_table_rows_are_capped(tmp_path):
    out = tmp_path / "store"
    rows = pa.table({"run_hash": [f"{i:032x}" for i in range(1500)], "x": list(range(1500))})
    (out / "runs" / "00").mkdir(parents=True)
    import pyarrow.parquet as pq

    pq.write_table(rows, out / "runs" / "00" / "all.parquet")
    table = invoke("query", str(out), "SELECT x FROM runs ORDER BY x")
    assert table.exit_code == 0, table.output
    assert "the first 1000 rows" in table.stderr
    assert "│ 999 " in table.stdout and "│ 1000 " not in table.stdout
    every = invoke("query", str(out), "SELECT x FROM runs ORDER BY x", "--json")
    assert every.exit_code == 0
    assert len(every.stdout.splitlines()) == 1500  # --json is unbounded


def test_query_json_is_strict_json_nan_and_infinity_as_null(tmp_path):
    # `airtcp query --json` printed NaN and Infinity, which JSON parsers refuse.
    out = tmp_path / "store"
    (out / "runs" / "00").mkdir(parents=True)
    import pyarrow.parquet as pq

    rows = pa.table(
        {
            "run_hash": ["a", "b", "c"],
            "x": [float("nan"), float("inf"), 1.5],
            "xs": [[float("-inf"), 2.0], [], [float("nan")]],
        }
    )
    pq.write_table(rows, out / "runs" / "00" / "all.parquet")
    result = invoke("query", str(out), "SELECT x, xs FROM runs ORDER BY run_hash", "--json")
    assert result.exit_code == 0, result.output

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    parsed = [json.loads(line, parse_constant=refuse) for line in result.stdout.splitlines()]
    assert parsed == [
        {"x": None, "xs": [None, 2.0]},
        {"x": None, "xs": []},
        {"x": 1.5, "xs": [None]},
    ]


# --- 8. Leftovers ----------------------------------------------------------------------------


def test_leftovers_of_a_killed_sweep_are_removed_on_resume(tmp_path, tiny):
    p = tmp_path / "s.toml"
    p.write_text(f'base = "{tiny.name}"\n[grid]\nstations = [1, 2]\n')
    out = tmp_path / "o"
    sweep.run_sweep(sweep.load_sweep(p), out, workers=1)
    left = [
        out / "runs" / "ab" / ".tmp-x1.parquet",
        out / "traces" / "tcp" / "ab" / ".tmp-x.parquet",
    ]
    for f in left:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"PAR1 partial")
    user_file = out / "runs" / "ab" / "notes.txt"
    user_file.write_text("mine")
    sweep.run_sweep(sweep.load_sweep(p), out, workers=1)
    assert not any(f.exists() for f in left)
    assert user_file.exists()


_SLOW_FIGURE = r"""
import signal, sys, time
from pathlib import Path

# Ctrl-C as at a terminal, whatever the runner did: a background job of a non-interactive
# shell starts with SIGINT ignored, and Python then never raises KeyboardInterrupt.
signal.signal(signal.SIGINT, signal.default_int_handler)
from matplotlib.figure import Figure
from airtcp import plot

fig = Figure()
fig.add_subplot().plot([1, 2])


def slow(fname, **kw):  # the figure is being drawn into its temporary file when the kill comes
    print("drawing", flush=True)
    time.sleep(60)


fig.savefig = slow
plot.save(fig, Path(sys.argv[1]) / "fig.png")
"""


def _killed_mid_figure(figures: Path, sig: int) -> int:
    """Run a figure writer in its own process, send ``sig`` while it draws; its exit status."""
    import subprocess
    import sys

    with subprocess.Popen(
        [sys.executable, "-c", _SLOW_FIGURE, str(figures)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(airtcp.__file__).parents[1])},
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "drawing"
        assert [p.name for p in figures.iterdir()][0].startswith(".fig.png.")  # the temporary
        proc.send_signal(sig)
        return proc.wait(timeout=30)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_leftovers_a_figure_writer_stopped_by_a_signal_leaves_none(tmp_path, sig):
    # A kill during `reproduce` left a hidden 0-byte figure file (".fig.png.k7ah57f9.png").
    import signal

    status = _killed_mid_figure(tmp_path, getattr(signal, sig))
    assert status == -getattr(signal, sig)  # it still ends by the signal
    assert list(tmp_path.iterdir()) == []


def test_leftovers_of_a_figure_writer_killed_by_sigkill_are_removed_by_the_next(tmp_path):
    import signal

    from matplotlib.figure import Figure

    from airtcp import plot

    assert _killed_mid_figure(tmp_path, signal.SIGKILL) == -signal.SIGKILL
    (left,) = tmp_path.iterdir()  # SIGKILL cannot be caught
    older = tmp_path / ".fig.png.abcd1234.png"  # written before the process id was in the name
    older.write_bytes(b"")
    live = tmp_path / f".fig.png.{os.getpid()}-abcd1234.png"  # a writer that still runs
    live.write_bytes(b"")
    other = tmp_path / ".other.png.1-abcd1234.png"  # another figure's: not this writer's
    other.write_bytes(b"")
    fig = Figure()
    fig.add_subplot().plot([1, 2])
    plot.save(fig, tmp_path / "fig.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["fig.png", live.name, other.name])
    assert not left.exists()


def test_leftovers_of_a_killed_directory_writer_are_removed_by_the_next(tmp_path):
    import subprocess
    import sys

    from airtcp.outpath import atomic_directory

    with subprocess.Popen([sys.executable, "-c", "pass"]) as dead:
        dead.wait()
    stale = tmp_path / f".out.partial-{dead.pid}-abcd1234"
    (stale / "summary.json").parent.mkdir()
    (stale / "summary.json").write_text("{}")
    with atomic_directory(tmp_path / "out") as tmp:
        assert tmp.name.startswith(f".out.partial-{os.getpid()}-")
        (tmp / "summary.json").write_text("{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# --- 9. Powerful inputs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "COPY (SELECT 1) TO '{tmp}/leak.csv'",
        "SELECT * FROM read_csv('/etc/passwd')",
        "ATTACH '{tmp}/x.db'",
        "INSTALL httpfs",
        "SET enable_external_access = true",
    ],
)
def test_powerful_inputs_sql_has_no_file_access_by_default(tmp_path, cases_env, sql):
    sql = sql.replace("{tmp}", str(tmp_path))
    before = set(listing(tmp_path))
    user_error(invoke("query", cases_env["{store}"], sql), "query:")
    where = invoke(
        "plot",
        "metric",
        cases_env["{store}"],
        "--x",
        "param.stations",
        "--y",
        "totals.goodput_bps",
        "--out",
        str(tmp_path / "m.png"),
        "--where",
        "run_hash IN (SELECT column0 FROM read_csv('/etc/passwd'))",
    )
    user_error(where, "--where")
    assert set(listing(tmp_path)) == before


def test_powerful_inputs_external_access_on_request(tmp_path, cases_env):
    leak = tmp_path / "export.csv"
    result = invoke(
        "query",
        cases_env["{store}"],
        f"COPY (SELECT count(*) FROM runs) TO '{leak}'",
        "--allow-external-access",
    )
    assert result.exit_code == 0, result.output
    assert leak.read_text().strip().splitlines()[-1] == "2"
