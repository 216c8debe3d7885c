"""Sweeps: expansion, stable hashes and seeds, resume, workers, failures."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from airtcp import sweep

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "sweep.toml"
    p.write_text(text)
    return p


SMALL = f"""
base = "{EXAMPLES / "bss-udp-saturation.toml"}"
seed = 7
replications = 2
[grid]
stations = [1, 2]
duration_s = [1.2]
warmup_s = [0.2]
[[zip]]
standard = ["80211a", "80211b"]
data_rate_mbps = [54, 11]
basic_rate_mbps = [6, 1]
"""


def test_grid_lists_ranges_and_zips_expand_to_their_product(tmp_path):
    spec = sweep.load_sweep(
        write(
            tmp_path,
            f"""
base = "{EXAMPLES / "chain-tcp.toml"}"
replications = 3
[grid]
hops = [3, 5]
retry_limit = {{start = 1, stop = 9, step = 4}}
[[zip]]
cc = ["cubic", "westwood"]
recovery = ["newreno", "sack"]
""",
        )
    )
    assert spec.grid["retry_limit"] == [1, 5, 9], "a range includes its stop"
    runs = sweep.expand(spec)
    assert len(runs) == 2 * 3 * 2 * 3
    pairs = {(r.params["cc"], r.params["recovery"]) for r in runs}
    assert pairs == {("cubic", "newreno"), ("westwood", "sack")}, "zipped values move together"
    assert len({r.run_hash for r in runs}) == len(runs)
    assert len({r.seed for r in runs}) == len(runs)


def test_the_example_sweep_has_the_shape_of_paper_000_fig_3():
    runs = sweep.expand(sweep.load_sweep(EXAMPLES / "sweep-chain-retry.toml"))
    # 2 path lengths x 7 retry limits x 2 congestion controls x 3 replications.
    assert len(runs) == 84


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("base = 3", "base: 3 (allowed: a scenario file path or an inline table)"),
        ("base = {}\nreplications = 0", "replications: 0 (allowed: integer 1..100000)"),
        ("base = {}\n[grid]\nstations = []", "grid.stations: empty list"),
        ('base = {}\ncolour = "red"', "colour: unknown field"),
        ("base = {}\n[[zip]]\na = [1]\nb = [1, 2]", "zip.0: lists of lengths [1, 2]"),
        ("base = {}\n[grid]\nstations = [0]", "run {'stations': 0}: stations"),
        ('base = {}\npaired = "cc"', "paired: 'cc' (allowed: an array of swept keys)"),
        (
            'base = {}\npaired = ["cc"]\n[grid]\nstations = [1]',
            "paired: 'cc' is not swept (allowed: stations)",
        ),
    ],
)
def test_bad_sweep_files_say_what_is_wrong(tmp_path, text, needle):
    with pytest.raises(sweep.SweepError) as exc:
        sweep.expand(sweep.load_sweep(write(tmp_path, text)))
    assert needle in str(exc.value)


def test_hashes_and_seeds_are_stable_across_processes(tmp_path):
    path = write(tmp_path, SMALL)
    here = [(r.run_hash, r.seed) for r in sweep.expand(sweep.load_sweep(path))]
    code = (
        "import json, sys; from airtcp import sweep; "
        f"print(json.dumps([(r.run_hash, r.seed) for r in sweep.expand(sweep.load_sweep({str(path)!r}))]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert [tuple(x) for x in json.loads(out)] == here


@pytest.mark.filterwarnings("ignore:.*speed_min_mps = 0")  # paper 003's B: stated there
def test_paired_keys_share_seeds_and_give_paired_walks(tmp_path):
    # Common random numbers: the runs that differ only in a paired key share each
    # replication's seed (hence the station's random waypoint walk); other axes do not.
    text = f"""
base = "{EXAMPLES / "paper-003.toml"}"
replications = 2
paired = ["scheme"]
[grid]
scheme = ["standard", "wnd_max"]
queue_packets = [20, 100]
mobility = ["random-waypoint"]
duration_s = [3.0]
"""
    runs = sweep.expand(sweep.load_sweep(write(tmp_path, text)))
    seeds: dict[tuple[int, int], set[int]] = {}
    for r in runs:
        seeds.setdefault((r.params["queue_packets"], r.replication), set()).add(r.seed)
    assert all(len(v) == 1 for v in seeds.values()), "one seed per (queue, replication)"
    assert len({next(iter(v)) for v in seeds.values()}) == 4, "other axes keep their own"
    assert len({r.run_hash for r in runs}) == len(runs)
    # Unpaired, the first value's runs keep the seeds they had: pairing moves only the others.
    plain = sweep.expand(sweep.load_sweep(write(tmp_path, text.replace('paired = ["scheme"]', ""))))
    first = {(r.params["queue_packets"], r.replication): r.seed for r in plain
             if r.params["scheme"] == "standard"}  # fmt: skip
    assert {k: next(iter(v)) for k, v in seeds.items()} == first
    assert len({r.seed for r in plain}) == len(plain)
    # A zip key pairs its whole zip (a scheme and the trace only it can give).
    zipped = text.replace('scheme = ["standard", "wnd_max"]\n', "") + (
        '[[zip]]\nscheme = ["standard", "wnd_max"]\n"traces.windows" = [false, true]\n'
    )
    z = sweep.expand(sweep.load_sweep(write(tmp_path, zipped)))
    assert {(r.params["queue_packets"], r.replication): r.seed for r in z} == first
    # The same seed gives the same walk under both schemes: identical frames and positions
    # until the first observation slot (100 ms) lets the scheme act.
    import airtcp

    pair = [r for r in runs if r.params["queue_packets"] == 20 and r.replication == 0]
    pos = []
    for r in pair:
        res = airtcp.run(
            airtcp.Scenario.from_dict(r.config), seed=r.seed, overrides={"traces.positions": True}
        )
        p = res.traces["positions"].to_pandas()
        pos.append(p[p["time_ns"] < 100_000_000][["time_ns", "x_m", "y_m"]])
    assert pos[0].equals(pos[1]) and len(pos[0]) > 10


def test_adding_a_grid_value_leaves_the_other_runs_alone(tmp_path):
    a = sweep.expand(sweep.load_sweep(write(tmp_path, SMALL)))
    b = sweep.expand(
        sweep.load_sweep(
            write(tmp_path, SMALL.replace("stations = [1, 2]", "stations = [1, 2, 3]"))
        )
    )
    assert {(r.run_hash, r.seed) for r in a} <= {(r.run_hash, r.seed) for r in b}


# --- --grid: axes from the command line --------------------------------------------------------


def test_grid_options_replace_an_axis_in_place_or_add_one(tmp_path):
    spec = sweep.load_sweep(write(tmp_path, SMALL), ["stations=3,4,5", "mac.short_retry_limit=2,4"])
    # The file's stations axis is replaced where it stood; the new key comes last.
    assert list(spec.grid) == ["stations", "duration_s", "warmup_s", "mac.short_retry_limit"]
    assert spec.grid["stations"] == [3, 4, 5]
    assert spec.grid["mac.short_retry_limit"] == [2, 4]
    runs = sweep.expand(spec)
    assert len(runs) == 3 * 2 * 2 * 2  # stations x retry limit x zip x replications
    assert {r.config["mac"]["short_retry_limit"] for r in runs} == {2, 4}
    # A --grid that restates the file's own axis changes no run (the same seeds and hashes).
    same = sweep.expand(sweep.load_sweep(write(tmp_path, SMALL), ["stations=1,2"]))
    assert [(r.run_hash, r.seed) for r in same] == [
        (r.run_hash, r.seed) for r in sweep.expand(sweep.load_sweep(write(tmp_path, SMALL)))
    ]


def test_grid_on_a_scenario_file_is_a_sweep_of_it(tmp_path):
    scenario = EXAMPLES / "bss-udp-saturation.toml"
    short = ["duration_s=0.3", "warmup_s=0.1"]
    spec = sweep.load_sweep(scenario, ["stations=1,2", *short])
    assert (spec.replications, spec.seed, spec.zips) == (1, 1, [])
    runs = sweep.expand(spec)
    assert [r.params["stations"] for r in runs] == [1, 2]
    assert all(r.config["name"] == "bss-udp-saturation" for r in runs)
    assert len(sweep.expand(sweep.load_sweep(scenario))) == 1, "no --grid: one run"
    # A sweep file with the scenario as its base and the same axes: the same runs.
    text = f'base = "{scenario}"\n[grid]\nstations = [1, 2]\nduration_s = [0.3]\nwarmup_s = [0.1]'
    as_file = sweep.expand(sweep.load_sweep(write(tmp_path, text)))
    assert [r.run_hash for r in as_file] == [r.run_hash for r in runs]


def test_grid_values_are_toml_values_or_text_split_outside_brackets(tmp_path):
    axes = sweep.parse_grid_options(
        [
            "spacing_m=10,20.5",
            'cc=cubic,"vegas"',
            "name=2024,x",  # a text field: 2024 stays text, as with --set
            "traces.tcp=true",
            "x=[1, 2],[3]",
            'channel.error={kind = "fer", fer = 0.1},{kind = "none"}',
            'a="1,2",b',
        ]
    )
    assert axes == {
        "spacing_m": [10, 20.5],
        "cc": ["cubic", "vegas"],
        "name": ["2024", "x"],
        "traces.tcp": [True],
        "x": [[1, 2], [3]],
        "channel.error": [{"kind": "fer", "fer": 0.1}, {"kind": "none"}],
        "a": ["1,2", "b"],
    }
    runs = sweep.expand(
        sweep.load_sweep(
            EXAMPLES / "bss-udp-saturation.toml",
            ['channel.error={kind = "fer", fer = 0.1},{kind = "none"}', "duration_s=1.3"],
        )
    )
    assert [r.config["channel"]["error"]["kind"] for r in runs] == ["fer", "none"]


@pytest.mark.parametrize(
    ("grid", "needle"),
    [
        (["stations"], "--grid 'stations': not KEY=V1,V2,... (allowed: KEY=V1,V2,..., e.g."),
        (["=1,2"], "--grid '=1,2': not KEY=V1,V2,..."),
        (["stations="], "--grid stations: no values (allowed:"),
        (["stations=1,,2"], "--grid stations: value 2 of '1,,2' is empty"),
        (["stations=1", "stations=2"], "--grid stations: given twice (allowed: each key once"),
        (["stations=nan"], "--grid stations: nan (allowed: finite numbers"),
        (["stations=1979-05-27"], "--grid stations: datetime.date(1979, 5, 27) (allowed:"),
        (["standard=80211a"], "--grid standard: swept in zip.0 of sweep.toml, whose values"),
        (["stations=0,1"], "run {'stations': 0, 'duration_s': 1.2, "),
        ([f"seed_x={','.join(map(str, range(100_001)))}"], "--grid seed_x: 100001 values"),
        (
            [f"a={','.join(map(str, range(300)))}", f"b={','.join(map(str, range(300)))}"],
            "the sweep expands to 720000 runs",  # x stations 2 x zip 2 x 2 replications
        ),
    ],
)
def test_bad_grid_options_name_the_option_and_the_value(tmp_path, grid, needle):
    with pytest.raises(sweep.SweepError) as exc:
        sweep.expand(sweep.load_sweep(write(tmp_path, SMALL), grid))
    assert needle in str(exc.value)


def test_cli_sweeps_a_scenario_file_over_grid_options(tmp_path):
    scenario = EXAMPLES / "bss-udp-saturation.toml"
    base = [sys.executable, "-m", "airtcp.cli", "sweep", str(scenario), "--workers", "1"]
    grid = ["--grid", "stations=1,2", "--grid", "duration_s=0.3", "--grid", "warmup_s=0.1"]
    ok = subprocess.run(
        [*base, *grid, "--out", str(tmp_path / "s")], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert "2 runs done (0 failed), 0 already stored" in ok.stdout
    rows = sweep.read_runs(tmp_path / "s").to_pylist()
    assert sorted(r["param.stations"] for r in rows) == [1, 2]
    bad = subprocess.run(
        [*base, "--grid", "stations=1", "--grid", "stations=2", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: --grid stations: given twice"), bad.stderr
    assert not (tmp_path / "x").exists()


def _comparable(out: Path) -> list[dict]:
    rows = sweep.read_runs(out).to_pylist()
    for r in rows:
        r.pop("wall_seconds", None)
        s = json.loads(r.pop("summary_json"))
        s.pop("wall_seconds")
        r["summary"] = s
    return sorted(rows, key=lambda r: r["run_hash"])


def test_one_and_two_workers_store_identical_results(tmp_path):
    spec = sweep.load_sweep(write(tmp_path, SMALL))
    assert sweep.run_sweep(spec, tmp_path / "one", workers=1) == (8, 0)
    assert sweep.run_sweep(spec, tmp_path / "two", workers=2) == (8, 0)
    assert _comparable(tmp_path / "one") == _comparable(tmp_path / "two")
    # A rerun skips everything stored.
    assert sweep.run_sweep(spec, tmp_path / "two", workers=2) == (0, 8)


def test_a_failing_run_is_recorded_and_the_others_finish(tmp_path, monkeypatch):
    run_module = sys.modules["airtcp.run"]  # the module (the package exports the function)
    real = run_module.run

    def flaky(config, seed=1, overrides=None):
        if config["stations"] == 2:
            raise RuntimeError("simulated crash")
        return real(config, seed=seed, overrides=overrides)

    monkeypatch.setattr(run_module, "run", flaky)
    spec = sweep.load_sweep(write(tmp_path, SMALL))
    assert sweep.run_sweep(spec, tmp_path / "out", workers=1) == (8, 0)
    rows = sweep.read_runs(tmp_path / "out").to_pylist()
    failed = [r for r in rows if r["error"]]
    assert len(failed) == 4 and all("simulated crash" in r["error"] for r in failed)
    assert all(r["totals.goodput_bps"] > 0 for r in rows if not r["error"])


def test_sigkill_mid_sweep_then_resume_gives_every_row_exactly_once(tmp_path):
    text = f"""
base = "{EXAMPLES / "bss-udp-saturation.toml"}"
seed = 3
replications = 40
[grid]
stations = [5, 10]
duration_s = [3.0]
warmup_s = [0.5]
"""
    path = write(tmp_path, text)
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "airtcp.cli",
        "sweep",
        str(path),
        "--out",
        str(out),
        "--workers",
        "2",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(sweep.stored_hashes(out)) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()

    # Its workers end with it (a forked worker would otherwise wait on its task pipe forever).
    def workers_left() -> list[str]:
        left = []
        for p in Path("/proc").iterdir():
            try:
                cmd = (p / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if p.name.isdigit() and str(path) in cmd:
                left.append(p.name)
        return left

    deadline = time.monotonic() + 10
    while workers_left() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert workers_left() == [], "sweep workers outlived the killed sweep"
    partial = sweep.stored_hashes(out)
    assert 0 < len(partial) < 80, len(partial)
    # Every file visible under its final name is one complete row; nothing half-written shows.
    killed = sweep.read_runs(out).to_pylist()
    assert sorted(r["run_hash"] for r in killed) == sorted(partial)
    assert all(r["error"] is None and r["totals.goodput_bps"] > 0 for r in killed)
    # Resume: only the missing runs run; every run ends up stored exactly once.
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = sweep.read_runs(out).to_pylist()
    expected = {r.run_hash for r in sweep.expand(sweep.load_sweep(path))}
    assert sorted(r["run_hash"] for r in rows) == sorted(expected)
    assert all(r["error"] is None for r in rows)


def test_duckdb_view_and_dataframe_see_every_stored_run(tmp_path, monkeypatch):
    from airtcp import store

    run_module = sys.modules["airtcp.run"]
    real = run_module.run

    def flaky(config, seed=1, overrides=None):
        if config["stations"] == 2 and config["standard"] == "80211b":
            raise RuntimeError("simulated crash")
        return real(config, seed=seed, overrides=overrides)

    monkeypatch.setattr(run_module, "run", flaky)
    out = tmp_path / "out"
    sweep.run_sweep(sweep.load_sweep(write(tmp_path, SMALL)), out, workers=1)
    # A half-written file left by a killed writer is never read.
    stray = next((out / "runs").iterdir()) / ".tmp-x.parquet"
    stray.write_bytes(b"not parquet")
    names, rows, _ = store.query(
        out,
        'SELECT "param.standard", count(*), count("totals.goodput_bps"), count(error) '
        "FROM runs GROUP BY 1 ORDER BY 1",
    )
    # 802.11a: 4 runs, all measured; 802.11b: 4 runs, the 2 with 2 stations failed (NULL metrics).
    assert rows == [("80211a", 4, 4, 0), ("80211b", 4, 2, 2)]
    df = store.open(out)
    assert len(df) == 8 and list(df["run_hash"]) == sorted(df["run_hash"])
    expected = sweep.read_runs(out).column("totals.goodput_bps").to_pylist()
    assert sorted(x for x in df["totals.goodput_bps"].dropna()) == sorted(
        x for x in expected if x is not None
    )
    with pytest.raises(store.StoreError, match="no stored runs"):
        store.query(tmp_path / "empty", "SELECT 1")
    with pytest.raises(store.StoreError, match="query: "):
        store.query(out, "SELEC 1")


def test_dask_local_cluster_and_local_pool_store_identical_results(tmp_path):
    import distributed

    spec = sweep.load_sweep(write(tmp_path, SMALL))
    assert sweep.run_sweep(spec, tmp_path / "pool", workers=2) == (8, 0)
    assert sweep.run_sweep(spec, tmp_path / "dask", dask_local=2) == (8, 0)
    assert _comparable(tmp_path / "pool") == _comparable(tmp_path / "dask")
    # A scheduler reached by its address, as on a cluster.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        assert sweep.run_sweep(spec, tmp_path / "addr", dask=cluster.scheduler_address) == (8, 0)
    assert _comparable(tmp_path / "pool") == _comparable(tmp_path / "addr")


def test_an_unreachable_dask_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep, "_DASK_CONNECT_TIMEOUT_S", 1)
    spec = sweep.load_sweep(write(tmp_path, SMALL))
    with pytest.raises(sweep.SweepError, match="cannot reach the scheduler at 'tcp://127.0.0.1:9'"):
        sweep.run_sweep(spec, tmp_path / "out", dask="tcp://127.0.0.1:9")
    with pytest.raises(sweep.SweepError, match="not both"):
        sweep.run_sweep(spec, tmp_path / "out", dask="tcp://127.0.0.1:9", dask_local=1)
    assert not (tmp_path / "out").exists(), "nothing is written"


TRACED = f"""
base = "{EXAMPLES / "bss-tcp-bulk.toml"}"
seed = 3
replications = 2
[grid]
cc = ["newreno", "cubic"]
duration_s = [0.6]
warmup_s = [0.1]
"traces.tcp" = [true]
"traces.mac_tx" = [true]
"""


def test_traces_are_stored_per_run_and_seen_as_views_keyed_by_run_hash(tmp_path):
    from airtcp import store
    from airtcp.run import run as run_one

    out = tmp_path / "out"
    spec = sweep.load_sweep(write(tmp_path, TRACED))
    assert sweep.run_sweep(spec, out, workers=1) == (4, 0)
    assert store.trace_kinds(out) == ["mac_tx", "tcp"]
    # Each view holds exactly the rows of each run's own trace (checked against a direct run).
    first = sweep.expand(spec)[0]
    direct = run_one(first.config, seed=first.seed).traces
    for kind in ("tcp", "mac_tx"):
        _, rows, _ = store.query(
            out, f"SELECT count(*) FROM {kind} WHERE run_hash = '{first.run_hash}'"
        )
        assert rows == [(direct[kind].num_rows,)] and rows[0][0] > 0
    _, rows, _ = store.query(
        out,
        'SELECT "param.cc", count(DISTINCT run_hash) FROM tcp JOIN runs USING (run_hash) '
        "GROUP BY 1 ORDER BY 1",
    )
    assert rows == [("cubic", 2), ("newreno", 2)]
    # Traces of a run whose row was never written (a kill between the two) stay invisible,
    # and the run is not counted as stored, so a rerun redoes it.
    victim = sweep._row_path(out, first.run_hash)
    victim.unlink()
    _, rows, _ = store.query(out, f"SELECT count(*) FROM tcp WHERE run_hash = '{first.run_hash}'")
    assert rows == [(0,)]
    assert sweep.run_sweep(spec, out, workers=1) == (1, 3)
    _, rows, _ = store.query(out, f"SELECT count(*) FROM tcp WHERE run_hash = '{first.run_hash}'")
    assert rows == [(direct["tcp"].num_rows,)]


def test_a_dask_worker_with_another_airtcp_version_stops_the_sweep(tmp_path):
    runs = sweep.expand(sweep.load_sweep(write(tmp_path, SMALL)))[:2]
    with pytest.raises(sweep.SweepError, match="a worker runs airtcp .* the sweep airtcp 0.0.0"):
        sweep._execute_chunk(runs, "0.0.0")


def test_cli_runs_a_sweep_on_a_dask_local_cluster_and_refuses_two_executors(tmp_path):
    path = write(tmp_path, SMALL)
    base = [sys.executable, "-m", "airtcp.cli", "sweep", str(path)]
    ok = subprocess.run(
        [*base, "--out", str(tmp_path / "dask"), "--dask-local", "2"],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert "8 runs done (0 failed), 0 already stored" in ok.stdout
    sweep.run_sweep(sweep.load_sweep(path), tmp_path / "pool", workers=1)
    assert _comparable(tmp_path / "dask") == _comparable(tmp_path / "pool")
    both = subprocess.run(
        [*base, "--out", str(tmp_path / "x"), "--dask", "tcp://127.0.0.1:9", "--dask-local", "1"],
        capture_output=True,
        text=True,
    )
    assert both.returncode == 2 and "not both" in both.stderr
    assert not (tmp_path / "x").exists()
