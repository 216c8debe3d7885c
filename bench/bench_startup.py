"""Benchmark: start-up cost of the ``airtcp`` command, and the whole process beside ns-3 3.44.

    .venv/bin/python bench/bench_startup.py                 # 9 runs each, ns-3 3 runs
    .venv/bin/python bench/bench_startup.py --runs 21 --no-ns3
    .venv/bin/python bench/bench_startup.py --as-is         # keep PYTHONDONTWRITEBYTECODE etc.

Prints:

1. import time per top-level module: ``-X importtime`` of a fresh interpreter running the
   ``airtcp`` entry point (``--version``, then a short ``run --json``), self times summed per
   top-level package (airtcp's own modules one by one), median over the runs;
2. whole-process wall time (median, min, max over ``--runs``) of ``python -c pass`` (the
   interpreter's floor), ``airtcp --version``, a short ``airtcp run --json`` (the 802.11a
   example, 2 s) and the 802.11b saturation case (50 stations, 11/1 Mbit/s, 1500 B, 10 s after
   a 1 s warm-up, preamble detection as ns-3 models it); for the runs also the core's own
   ``wall_seconds`` and the overhead: whole process minus the core;
3. unless ``--no-ns3``: the same 802.11b case in ns-3 (bench/ns3/bss_saturation, built on first
   use by bench/ns3/build.sh against the PyPI wheel ns3==3.44.post0, as bench_saturation.py
   runs it), its process and Simulator::Run() times, and both ratios ns-3 / airtcp.

By default the subprocesses cache bytecode in a temporary directory (PYTHONPYCACHEPREFIX, with a
warm-up run first), as an installed airtcp has its .pyc files: with PYTHONDONTWRITEBYTECODE set,
every run would compile airtcp's own sources again (tens of ms for airtcp.config alone).
``--as-is`` runs with the environment unchanged. Speed is measured here, never in the test
suite (python/tests/test_startup.py checks only which modules a start-up imports).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "ns3"))

EXAMPLE = ROOT / "examples" / "bss-udp-saturation.toml"
SHORT_SETS = ["duration_s=2"]
# ns-3's bss_saturation with the arguments bench_saturation.py gives it (run_ns3 below).
B50 = {
    "stations": 50,
    "standard": "80211b",
    "data_rate_mbps": 11.0,
    "basic_rate_mbps": 1.0,
    "payload_bytes": 1500,
    "duration_s": 10.0,
    "warmup_s": 1.0,
    "retry_limit": 6,
}
B50_SETS = [
    f"stations={B50['stations']}",
    f"standard={B50['standard']}",
    f"data_rate_mbps={B50['data_rate_mbps']:g}",
    f"basic_rate_mbps={B50['basic_rate_mbps']:g}",
    f"payload_bytes={B50['payload_bytes']}",
    f"duration_s={B50['duration_s']:g}",
    f"warmup_s={B50['warmup_s']:g}",
    f"mac.short_retry_limit={B50['retry_limit']}",
    "mac.queue_limit_packets=100",
    "channel.preamble_detection=true",  # what ns-3's default receiver does (docs/validation.md)
]


def airtcp_command() -> list[str]:
    """The ``airtcp`` entry point of the running interpreter's environment."""
    script = Path(sys.executable).parent / "airtcp"
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "airtcp"]


def run_command(args: list[str], sets: list[str]) -> list[str]:
    return [*args, "run", str(EXAMPLE), "--json", *(x for s in sets for x in ("--set", s))]


def cpu_seconds() -> float:
    """User + system CPU time of the finished child processes so far [s]."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU time of one whole process [s] and its stdout; raises if it fails. The CPU
    time (user + system) varies less than the wall time on a busy machine."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    elapsed, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed, cpu, proc.stdout


def import_times(cmd: list[str], env: dict[str, str], runs: int) -> dict[str, float]:
    """Median over ``runs`` of the ``-X importtime`` self times [ms] summed per top-level
    package (airtcp's modules one by one); key "(total)" is the sum of all."""
    per_run: list[dict[str, float]] = []
    for _ in range(runs):
        proc = subprocess.run(
            [cmd[0], "-X", "importtime", *cmd[1:]], env=env, capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
        sums: dict[str, float] = defaultdict(float)
        for line in proc.stderr.splitlines():
            if not line.startswith("import time:") or "self [us]" in line:
                continue
            self_us, _, name = line.removeprefix("import time:").split("|", 2)
            name = name.strip()
            key = name if name.startswith("airtcp.") else name.split(".")[0]
            sums[key] += int(self_us) / 1e3
        sums["(total)"] = sum(sums.values())
        per_run.append(sums)
    keys = set().union(*per_run)
    return {k: statistics.median(r.get(k, 0.0) for r in per_run) for k in keys}


def stats(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def fmt(s: dict[str, float], scale: float = 1e3) -> str:
    return (
        f"median {s['median'] * scale:7.1f}  min {s['min'] * scale:7.1f}  "
        f"max {s['max'] * scale:7.1f} ms"
    )


def measure(cmd: list[str], env: dict[str, str], runs: int) -> dict[str, Any]:
    """Whole-process times of ``runs`` runs; for ``airtcp run --json`` also the core's
    ``wall_seconds`` and the overhead (process minus core) of each run."""
    walls: list[float] = []
    cpus: list[float] = []
    cores: list[float] = []
    for _ in range(runs):
        wall, cpu, out = timed(cmd, env)
        walls.append(wall)
        cpus.append(cpu)
        if out.startswith("{"):
            cores.append(json.loads(out)["wall_seconds"])
    row: dict[str, Any] = {"cmd": cmd[1:], "process_s": stats(walls), "cpu_s": stats(cpus)}
    if cores:
        row["core_s"] = stats(cores)
        row["overhead_s"] = stats([w - c for w, c in zip(walls, cores, strict=True)])
    return row


def run_ns3(runs: int) -> dict[str, Any]:
    import ns3_runner

    ns3_runner._binaries(sys.executable)  # build first (cached), so no run times the build
    rows = []
    for _ in range(runs):
        c0 = cpu_seconds()
        row = ns3_runner.run_bss(
            stations=B50["stations"],
            standard=B50["standard"],
            data_rate_mbps=B50["data_rate_mbps"],
            basic_rate_mbps=B50["basic_rate_mbps"],
            payload_bytes=B50["payload_bytes"],
            duration_s=B50["duration_s"],
            warmup_s=B50["warmup_s"],
            seed=1,
            qos=False,
            retry_limit=B50["retry_limit"],
        )
        row["cpu_seconds"] = cpu_seconds() - c0
        rows.append(row)
    return {
        "cmd": rows[0]["cmd"],
        "process_s": stats([r["process_wall_seconds"] for r in rows]),
        "cpu_s": stats([r["cpu_seconds"] for r in rows]),
        "core_s": stats([r["wall_seconds"] for r in rows]),
        "goodput_bps": rows[0]["goodput_bps"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=9, help="runs per command (default 9)")
    ap.add_argument("--ns3-runs", type=int, default=3, help="ns-3 runs (default 3)")
    ap.add_argument("--no-ns3", action="store_true", help="skip the ns-3 comparison")
    ap.add_argument(
        "--as-is", action="store_true", help="run with the environment unchanged (no .pyc cache)"
    )
    ap.add_argument("--top", type=int, default=15, help="modules shown per import table")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)

    env = dict(os.environ)
    cache = None
    if not args.as_is:
        cache = tempfile.TemporaryDirectory(prefix="airtcp-pycache-")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache.name
    airtcp = airtcp_command()
    version = [*airtcp, "--version"]
    short = run_command(airtcp, SHORT_SETS)
    b50 = run_command(airtcp, B50_SETS)
    for cmd in (version, short, b50):  # warm-up: fills the bytecode cache and the page cache
        timed(cmd, env)
    mode = "environment as is" if args.as_is else "bytecode cached in a temporary directory"
    print(f"python {sys.version.split()[0]}, {args.runs} runs per command, {mode}\n")

    report: dict[str, Any] = {"runs": args.runs, "as_is": args.as_is, "imports_ms": {}}
    for label, cmd in (("airtcp --version", version), ("airtcp run --json (short)", short)):
        times = import_times(cmd, env, args.runs)
        report["imports_ms"][label] = times
        total = times.pop("(total)")
        print(f"import time per top-level module, {label} (self ms, median): total {total:.1f}")
        for name, ms in sorted(times.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {ms:7.1f}  {name}")
        print()

    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "airtcp --version": version,
        "airtcp run --json (802.11a, 10 stations, 2 s)": short,
        "airtcp run --json (802.11b, 50 stations, 10 s)": b50,
    }
    print("whole process:")
    rows: dict[str, Any] = {}
    for label, cmd in cases.items():
        row = rows[label] = measure(cmd, env, args.runs)
        print(f"  {label:<48} {fmt(row['process_s'])}")
        print(f"  {'  CPU time (user + system)':<48} {fmt(row['cpu_s'])}")
        if "core_s" in row:
            print(f"  {'  core (wall_seconds)':<48} {fmt(row['core_s'])}")
            print(f"  {'  overhead (process - core)':<48} {fmt(row['overhead_s'])}")
    floor = rows["python -c pass"]["process_s"]["median"]
    startup = rows["airtcp --version"]["process_s"]["median"]
    print(f"  airtcp --version beyond the interpreter's floor: {(startup - floor) * 1e3:.1f} ms")
    report["processes"] = rows

    if not args.no_ns3:
        try:
            ns3 = run_ns3(args.ns3_runs)
        except Exception as exc:  # no compiler, no wheel: say so, keep airtcp's figures
            print(f"\nns-3: not run ({type(exc).__name__}: {str(exc).splitlines()[0]})")
        else:
            a = rows["airtcp run --json (802.11b, 50 stations, 10 s)"]
            process_ratio = ns3["process_s"]["median"] / a["process_s"]["median"]
            cpu_ratio = ns3["cpu_s"]["median"] / a["cpu_s"]["median"]
            core_ratio = ns3["core_s"]["median"] / a["core_s"]["median"]
            ns3.update(process_ratio=process_ratio, cpu_ratio=cpu_ratio, core_ratio=core_ratio)
            report["ns3"] = ns3
            print(f"\nns-3 3.44 bss_saturation, same case, {args.ns3_runs} runs:")
            print(f"  {'process':<48} {fmt(ns3['process_s'])}")
            print(f"  {'  CPU time (user + system)':<48} {fmt(ns3['cpu_s'])}")
            print(f"  {'Simulator::Run()':<48} {fmt(ns3['core_s'])}")
            print(
                f"  ns-3 / airtcp: whole process {process_ratio:.1f}x (CPU time {cpu_ratio:.1f}x), "
                f"core {core_ratio:.0f}x (medians)"
            )
    if cache is not None:
        cache.cleanup()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
