"""Python the SEM way (issue 30, item 7): ``airtcp.sweep(...)`` returns a DataFrame of runs and
resumes its store; ``airtcp run FILE --seeds 1-5`` prints each flow's mean and interval."""

from __future__ import annotations

import inspect
import json
import math
import tempfile
from pathlib import Path

import pytest
from cli_runner import CliRunner
from rich.cells import cell_len
from scipy import stats

import airtcp
import airtcp.store
from airtcp import ScenarioError, seeds
from airtcp.cli import app
from airtcp.config import apply_value_overrides, load_toml
from airtcp.result import Result

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BULK = EXAMPLES / "bss-tcp-bulk.toml"
SHORT = {"duration_s": 1.0, "warmup_s": 0.2}
GRID = {"stations": [1, 2], "cc": ["newreno", "cubic"]}

runner = CliRunner()


def invoke(*args: str):
    """The command line as a pipe sees it: 80 columns."""
    return runner.invoke(app, list(args), env={"COLUMNS": "80", "LINES": None})


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A 2 x 2 grid with 2 seeds each into a store, and the calls to ``progress``."""
    store = tmp_path_factory.mktemp("sem") / "store"
    calls: list[tuple[int, int]] = []
    df = airtcp.sweep(
        BULK,
        GRID,
        seeds=2,
        store=store,
        workers=2,
        overrides=SHORT,
        progress=lambda done, total: calls.append((done, total)),
    )
    return df, store, calls


# --- airtcp.sweep -------------------------------------------------------------------------------


def test_sweep_returns_one_row_per_run_with_parameters_seed_hash_and_figures(swept):
    df, store, calls = swept
    assert len(df) == 2 * 2 * 2
    assert sorted(done for done, _ in calls) == list(range(1, 9))
    assert {total for _, total in calls} == {8}
    assert df.attrs == {"store": str(store), "computed": 8, "stored": 0}
    assert list(df.columns[:5]) == ["run_hash", "seed", "replication", "param.stations", "param.cc"]
    # Grid order (the first key slowest), the replications of a point together.
    points = list(zip(df["param.stations"], df["param.cc"], df["replication"], strict=True))
    assert points == [
        (n, cc, rep) for n in GRID["stations"] for cc in GRID["cc"] for rep in range(2)
    ]
    assert df["run_hash"].is_unique and df["seed"].is_unique
    for column in (
        "totals.goodput_bps",
        "totals.collision_probability",
        "flow0.goodput_bps",
        "flow0.active_goodput_bps",
        "flow0.loss_ratio",
        "flow0.tcp.retransmissions",
        "flow0.tcp.rtt_mean_s",
        "flow1.goodput_bps",
        "events",
        "error",
        "config.stations",
        "summary_json",
    ):
        assert column in df.columns, column
    assert df["error"].isna().all()
    assert (df["totals.goodput_bps"] > 0).all()
    # One station: no second flow.
    one = df[df["param.stations"] == 1]
    assert one["flow1.goodput_bps"].isna().all()
    assert (df[df["param.stations"] == 2]["flow1.goodput_bps"] > 0).all()
    # The store's own columns are all there, with the same rows: airtcp query reads the same.
    stored = airtcp.store.open(store)
    assert set(stored.columns) <= set(df.columns)
    assert set(df["run_hash"]) <= set(stored["run_hash"])


def test_seeds_are_derived_as_airtcp_sweep_derives_them(swept):
    df, _, _ = swept
    spec = airtcp.sweep.SweepSpec(
        apply_value_overrides(load_toml(BULK), SHORT),
        {k: list(v) for k, v in GRID.items()},
        [],
        replications=2,
        seed=1,
    )
    runs = airtcp.sweep.expand(spec)
    assert list(df["seed"]) == [r.seed for r in runs]
    assert list(df["run_hash"]) == [r.run_hash for r in runs]


def test_a_row_equals_airtcp_run_of_its_seed_and_parameters(swept):
    df, _, _ = swept
    row = df.iloc[5]
    params = {"stations": int(row["param.stations"]), "cc": row["param.cc"]}
    result = airtcp.run(BULK, seed=int(row["seed"]), overrides={**SHORT, **params})
    summary = result.summary
    assert {k: row[f"totals.{k}"] for k in summary["totals"]} == summary["totals"]
    for i, flow in enumerate(summary["flows"]):
        assert row[f"flow{i}.goodput_bps"] == flow["goodput_bps"]
        assert row[f"flow{i}.tcp.retransmissions"] == flow["tcp"]["retransmissions"]
        assert row[f"flow{i}.tcp.rtt_mean_s"] == flow["tcp"]["rtt_mean_s"]
    stored = json.loads(row["summary_json"])
    assert {k: v for k, v in stored.items() if k != "wall_seconds"} == {
        k: v for k, v in summary.items() if k != "wall_seconds"
    }


def test_a_rerun_reads_the_store_and_more_seeds_run_only_the_new_runs(swept, tmp_path):
    df, store, _ = swept
    files = sorted(store.glob("runs/*/*.parquet"))
    mtimes = [f.stat().st_mtime_ns for f in files]
    calls: list[tuple[int, int]] = []
    again = airtcp.sweep(
        BULK, GRID, seeds=2, store=store, overrides=SHORT, progress=lambda *a: calls.append(a)
    )
    assert calls == [] and again.attrs["computed"] == 0 and again.attrs["stored"] == 8
    assert [f.stat().st_mtime_ns for f in files] == mtimes, "nothing rewritten"
    cols = [c for c in df.columns if c != "wall_seconds"]
    assert again[cols].equals(df[cols])
    assert again["wall_seconds"].equals(df["wall_seconds"]), "read back as stored"
    more = airtcp.sweep(BULK, GRID, seeds=3, store=store, overrides=SHORT, workers=1)
    assert more.attrs["computed"] == 4 and more.attrs["stored"] == 8
    assert len(more) == 12
    first_two = more[more["replication"] < 2].reset_index(drop=True)
    assert list(first_two["run_hash"]) == list(df["run_hash"]), "a larger N keeps the first runs"


def test_explicit_seeds_are_run_as_given_and_equal_airtcp_run(tmp_path):
    scenario = airtcp.load(BULK)  # a Scenario, as airtcp.run takes
    df = airtcp.sweep(scenario, {"stations": [2]}, seeds=[7, 3], overrides=SHORT, workers=1)
    assert list(df["seed"]) == [7, 3] and list(df["replication"]) == [0, 1]
    assert df.attrs["store"] is None and df.attrs["computed"] == 2
    result = airtcp.run(BULK, seed=3, overrides={**SHORT, "stations": 2})
    assert df["totals.goodput_bps"].iloc[1] == result.summary["totals"]["goodput_bps"]
    assert df["flow1.goodput_bps"].iloc[1] == result.summary["flows"][1]["goodput_bps"]
    # A dict scenario, no grid: one point.
    data = load_toml(BULK)
    one = airtcp.sweep(data, seeds=[3], overrides={**SHORT, "stations": 2}, workers=1)
    assert one["run_hash"].iloc[0] == df["run_hash"].iloc[1]
    assert not [c for c in one.columns if c.startswith("param.")]


def test_without_a_store_the_temporary_one_is_removed(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    df = airtcp.sweep(BULK, {"stations": [1]}, overrides=SHORT, workers=1)
    assert len(df) == 1 and df.attrs["store"] is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"scenario": 3}, "scenario: a int (allowed: a scenario file's path, a dict or an"),
        ({"scenario": "nope.toml"}, "scenario: nope.toml: no such scenario file"),
        ({"scenario": EXAMPLES / "sweep-chain-retry.toml"}, "is a sweep file (it has base, seed"),
        ({"grid": ["stations"]}, "grid: ['stations'] (allowed: a dict of dotted keys to lists"),
        ({"grid": {"stations": 5}}, "grid['stations']: 5 (allowed: a list of values"),
        ({"grid": {"stations": "12"}}, "grid['stations']: '12' (allowed: a list of values"),
        ({"grid": {"stations": []}}, "grid['stations']: empty list"),
        ({"grid": {"stations": [float("nan")]}}, "grid['stations']: nan (allowed: finite"),
        ({"grid": {"stations": [0]}}, "run {'stations': 0}: stations: must be >= 1"),
        ({"grid": {"duration_s": [2.0]}}, "grid['duration_s']: also in overrides"),
        ({"grid": {3: [1]}}, "grid: key 3 (allowed: a dotted scenario key"),
        ({"seeds": 0}, "seeds: 0 (allowed: a number of replications 1..100000"),
        ({"seeds": True}, "seeds: True (allowed: a number of replications"),
        ({"seeds": "5"}, "seeds: '5' (allowed: a number of replications"),
        ({"seeds": []}, "seeds: [] (allowed: a number of replications"),
        ({"seeds": [1, 1]}, "seeds: 1 given twice"),
        ({"seeds": [1, -2]}, "seeds: -2 in the list (allowed:"),
        ({"seeds": [2**63]}, "seeds: 9223372036854775808 in the list"),
        ({"seeds": 1000, "grid": {"stations": list(range(1, 102))}}, "101000 runs (allowed: at"),
        ({"workers": -1}, "workers: -1 (allowed: integer 0..1024"),
        ({"workers": 1.5}, "workers: 1.5 (allowed: None or an integer 0..1024"),
        ({"overrides": ["duration_s=1"]}, "overrides: ['duration_s=1'] (allowed: a dict"),
        ({"store": 3}, "store: 3 (allowed: a directory path, or None"),
        ({"progress": 3}, "progress: 3 (allowed: None or a function of (done, total))"),
    ],
)
def test_bad_arguments_are_refused_before_anything_runs(tmp_path, kwargs, needle):
    args = {"scenario": BULK, "grid": None, "overrides": SHORT, "store": tmp_path / "s"}
    args.update(kwargs)
    with pytest.raises(ScenarioError) as exc:
        airtcp.sweep(args.pop("scenario"), args.pop("grid"), **args)
    assert needle in str(exc.value)
    assert not (tmp_path / "s").exists()


def test_a_store_that_is_not_airtcps_is_refused(tmp_path):
    (tmp_path / "mine.txt").write_text("not airtcp's")
    with pytest.raises(ScenarioError, match=f"store: {tmp_path}: is a directory that airtcp"):
        airtcp.sweep(BULK, overrides=SHORT, store=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_airtcp_sweep_is_the_module_and_callable():
    from airtcp import sweep

    assert sweep is airtcp.sweep and callable(sweep)
    assert sweep.read_runs and sweep.expand and sweep.run_sweep  # the machinery keeps its names
    params = inspect.signature(airtcp.sweep).parameters
    assert list(params)[:3] == ["scenario", "grid", "seeds"]
    assert "sweep" in dir(airtcp) and "sweep" in airtcp.__all__


# --- airtcp run --seeds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1-5", [1, 2, 3, 4, 5]),
        ("1,3,7", [1, 3, 7]),
        ("1-3,10", [1, 2, 3, 10]),
        ("4", [1, 2, 3, 4]),
        ("7-7", [7]),
        (" 2 , 0 ", [2, 0]),
    ],
)
def test_seeds_option_forms(text, expected):
    assert seeds.parse_seeds(text) == expected
    assert seeds.parse_seeds(seeds.seeds_text(expected)) == expected or len(expected) == 1


def run_seeds(*args: str):
    return invoke("run", str(BULK), "--set", "duration_s=1", "--set", "warmup_s=0.2", *args)


@pytest.fixture(scope="module")
def seeds_json():
    result = run_seeds("--set", "stations=2", "--seeds", "1-4", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_run_seeds_json_holds_each_summary_and_the_aggregate(seeds_json):
    data = seeds_json
    assert set(data) == {"seeds", "summaries", "aggregate"}
    assert data["seeds"] == [1, 2, 3, 4]
    assert [s["seed"] for s in data["summaries"]] == [1, 2, 3, 4]
    agg = data["aggregate"]
    assert agg["seeds"] == [1, 2, 3, 4] and agg["confidence"] == 0.95
    values = [s["flows"][1]["goodput_bps"] for s in data["summaries"]]
    e = agg["flows"][1]["goodput_bps"]
    mean = sum(values) / 4
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 3)
    half = stats.t.ppf(0.975, 3) * sd / 2
    assert e["n"] == 4
    assert e["mean"] == pytest.approx(mean, rel=1e-12)
    assert (e["low"], e["high"]) == pytest.approx((mean - half, mean + half), rel=1e-9)
    assert set(agg["flows"][0]) >= {"id", "kind", "src", "dst", "loss_ratio", "tcp"}
    assert set(agg["flows"][0]["tcp"]) == {"retransmissions", "timeouts", "rtt_mean_s"}
    assert "mean_delay_s" not in agg["flows"][0], "TCP flows measure no one-way delay"
    assert set(agg["totals"]) == {"goodput_bps", "collision_probability"}
    # Seed 3 of --seeds is `airtcp run --seed 3`.
    one = run_seeds("--set", "stations=2", "--seed", "3", "--json")
    alone = json.loads(one.stdout)
    assert alone["flows"] == data["summaries"][2]["flows"]


def test_run_seeds_prints_mean_interval_and_n_per_flow_and_total(seeds_json):
    result = run_seeds("--set", "stations=2", "--seeds", "1-4")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "flows: bss-tcp-bulk (seeds 1-4)" in text
    header = next(line for line in text.splitlines() if "metric" in line)
    assert all(h in header for h in ("flow", "mean", "95 % interval", "n"))
    for line in text.splitlines():
        assert cell_len(line) <= 80 or not line.startswith(("┃", "│")), line
    assert "…" not in text
    e = seeds_json["aggregate"]["flows"][1]["goodput_bps"]
    cells = f"{e['mean'] / 1e6:.3f} │ [{e['low'] / 1e6:.3f}, {e['high'] / 1e6:.3f}] │ 4 │"
    assert cells in text
    for metric in ("retransmissions", "timeouts (RTO)", "mean RTT ms", "loss %"):
        assert metric in text
    last = text.strip().splitlines()[-1]
    assert last.startswith("total goodput ") and "over n = 4 seeds (1-4)" in last
    quiet = run_seeds("--set", "stations=2", "--seeds", "1-4", "--quiet")
    assert quiet.stdout.splitlines() == [last]


def test_run_seeds_out_writes_a_run_directory_per_seed_and_the_aggregate(tmp_path):
    out = tmp_path / "seeds"
    result = run_seeds("--seeds", "2,5", "--out", str(out), "--workers", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == ["aggregate.json", "seed-2", "seed-5"]
    assert json.loads((out / "aggregate.json").read_text()) == data["aggregate"]
    for seed, summary in zip((2, 5), data["summaries"], strict=True):
        back = Result.read(out / f"seed-{seed}")
        assert back.summary == summary and back.summary["seed"] == seed
    # A second time: refused, or replaced whole with --force.
    again = run_seeds("--seeds", "2,5", "--out", str(out), "-q")
    assert again.exit_code == 2 and "add --force" in again.stderr
    forced = run_seeds("--seeds", "3", "--out", str(out), "-q", "--force")
    assert forced.exit_code == 0, forced.output
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == ["aggregate.json", "seed-1", "seed-2", "seed-3"]
    (out / "seed-1" / "notes.txt").write_text("mine")
    refused = run_seeds("--seeds", "3", "--out", str(out), "-q", "--force")
    assert refused.exit_code == 2 and "seed-1/notes.txt exists and airtcp did not" in refused.stderr
    assert (out / "seed-1" / "notes.txt").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--seeds", "1-3", "--seed", "2"), "--seeds: not with --seed"),
        (("--seeds", "3-1"), "--seeds '3-1': range '3-1' runs backwards"),
        (("--seeds", "1,x"), "--seeds '1,x': 'x' is not a seed or a range"),
        (("--seeds", "1,2,1"), "--seeds '1,2,1': seed 1 given twice"),
        (("--seeds", "0"), "--seeds '0': 0 seeds (allowed: N = 1..10000"),
        (("--seeds", "1-20000"), "more than 10000 seeds"),
        (("--seeds", "1-2", "--pcap", "PCAP"), "--pcap: one run at a time"),
        (
            (
                "--workers",
                "2",
            ),
            "--workers: only with --seeds",
        ),
        (("--seeds", "1-2", "--workers", "2000"), "--workers: 2000 (allowed: 0..1024"),
    ],
)
def test_run_seeds_errors(tmp_path, args, needle):
    args = tuple(str(tmp_path / "p") if a == "PCAP" else a for a in args)
    result = invoke("run", str(BULK), *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert needle in result.stderr, result.stderr
    assert not (tmp_path / "p").exists()
