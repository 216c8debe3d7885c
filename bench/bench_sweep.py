"""Benchmark: the sweep machinery's overhead per run, outside the simulation itself.

    .venv/bin/python bench/bench_sweep.py                  # 200 runs; 1 and 2 workers, Dask 2
    .venv/bin/python bench/bench_sweep.py --runs 400 --no-dask

A sweep of `--runs` short runs (examples/bss-udp-saturation.toml, 802.11a, one station,
0.05 s; each a different seed through `replications`) is stored into a fresh directory by each
executor in turn. For each executor it prints the wall time of the whole `run_sweep` call
(expansion, validation, process start-up, simulation, Parquet writes), the simulated part (the
sum of the runs' `wall_seconds`, the core's own time) and the overhead per run:

    overhead per run = (wall x workers - sum of core seconds) / runs

that is, the worker-seconds each run costs beyond its simulation (target: under 20 ms). `--dask-local`
includes starting its cluster; `--dask ADDRESS` runs on a cluster that is already up.
Also checks that every executor stored the same rows.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path

from airtcp import sweep

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "examples" / "bss-udp-saturation.toml"


def _sweep_file(directory: Path, runs: int) -> Path:
    p = directory / "bench-sweep.toml"
    p.write_text(
        f"""
base = "{BASE}"
seed = 11
replications = {runs}
[grid]
stations = [1]
duration_s = [0.05]
warmup_s = [0.0]
"""
    )
    return p


def _rows(out: Path) -> list[dict]:
    rows = sweep.read_runs(out).to_pylist()
    for r in rows:
        r.pop("wall_seconds")
        s = json.loads(r.pop("summary_json"))
        s.pop("wall_seconds")
        r["summary"] = s
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster case")
    args = ap.parse_args()

    cases: list[tuple[str, dict, int]] = [
        ("pool, 1 worker", {"workers": 1}, 1),
        ("pool, 2 workers", {"workers": 2}, 2),
    ]
    cluster = None
    if not args.no_dask:
        import distributed

        cases.append(("dask --dask-local 2", {"dask_local": 2}, 2))
        # A cluster that is already up, reached by address (the cluster case): no start-up.
        start = time.perf_counter()
        logging.getLogger("distributed").setLevel(logging.WARNING)
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=":0", silence_logs=logging.WARNING
        )
        cluster_start_s = time.perf_counter() - start
        cases.append(("dask --dask ADDRESS, 2 workers", {"dask": cluster.scheduler_address}, 2))

    with tempfile.TemporaryDirectory(prefix="airtcp-bench-sweep-") as d:
        tmp = Path(d)
        spec = sweep.load_sweep(_sweep_file(tmp, args.runs))
        print(f"{args.runs} runs of {BASE.name} (802.11a, 1 station, 0.05 s simulated each)")
        header = f"{'executor':<30} {'wall s':>8} {'core s':>8} {'runs/s':>8} {'overhead/run':>13}"
        print(header)
        print("-" * len(header))
        reference = None
        for name, kwargs, workers in cases:
            out = tmp / name.replace(" ", "-").replace(",", "")
            start = time.perf_counter()
            ran, _ = sweep.run_sweep(spec, out, **kwargs)
            wall = time.perf_counter() - start
            assert ran == args.runs, f"{name}: ran {ran} of {args.runs}"
            core = sum(sweep.read_runs(out).column("wall_seconds").to_pylist())
            overhead_ms = (wall * workers - core) / ran * 1e3
            print(f"{name:<30} {wall:8.2f} {core:8.2f} {ran / wall:8.1f} {overhead_ms:10.2f} ms")
            rows = _rows(out)
            if reference is None:
                reference = rows
            elif rows != reference:
                raise SystemExit(f"{name}: stored rows differ from the first executor's")
        print("every executor stored identical rows")
    if cluster is not None:
        cluster.close()
        print(
            f"(a 2-worker Dask LocalCluster takes {cluster_start_s:.2f} s to start; "
            "--dask-local pays it inside its wall time)"
        )


if __name__ == "__main__":
    main()
