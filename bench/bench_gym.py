"""Benchmark: steps per second of airtcp.gym's environments (issue 18).

    .venv/bin/python bench/bench_gym.py
    .venv/bin/python bench/bench_gym.py --steps 5000 --worlds 1 8 32

For each environment and number of worlds K (one VectorEnv), random actions: steps per wall
second (a step = one world advanced to its next decision time, observed and acted on),
simulated seconds per wall second, and the cost of one step of an almost idle world (1-us steps
of the congestion environment: the agent-simulator round trip itself, in microseconds and in
cycles at the clock /proc/cpuinfo reports), alone and eight in one VectorEnv. ns3-ai's benchmark (docs/benchmarking in
hust-diangroup/ns3-ai, RL-TCP) documents the transfer costs of that round trip, in CPU
cycles per transfer, two transfers per step: ns3-gym (ZMQ + protobuf) 114-125 k cycles
C++ -> Python and 122-133 k back; ns3-ai's shared memory 5.6-7.6 k and 7.2-7.8 k. Neither
documents steps per second of a whole environment; their simulations run in ns-3, which
bench/bench_saturation.py puts 180-360 times slower than airtcp on WiFi scenarios.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import airtcp.gym as ag


def cpu_hz() -> float | None:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("cpu MHz"):
                return float(line.split(":")[1]) * 1e6
    except OSError:
        pass
    return None


def rate(make, k: int, steps: int, step_s: float) -> tuple[float, float]:
    venv = ag.VectorEnv([make] * k)
    venv.reset(seed=1)
    rng = np.random.default_rng(0)
    acts = rng.integers(0, int(venv.single_action_space.n), size=(steps, k))
    t0 = time.perf_counter()
    for t in range(steps):
        venv.step(acts[t])
    wall = time.perf_counter() - t0
    return steps * k / wall, steps * k * step_s / wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=2000, help="vector steps per measurement")
    ap.add_argument("--worlds", type=int, nargs="*", default=[1, 8])
    a = ap.parse_args()
    cases = [
        ("rate (100-ms steps)", lambda: ag.RateControlEnv(episode_s=1e3), 0.1),
        ("congestion (20-ms steps)", lambda: ag.CongestionControlEnv(episode_s=1e3), 0.02),
    ]
    print(f"{'environment':<26} {'worlds':>6} {'steps/s':>10} {'sim s/wall s':>12}")
    for name, make, step_s in cases:
        for k in a.worlds:
            sps, sim = rate(make, k, a.steps, step_s)
            print(f"{name:<26} {k:>6} {sps:>10,.0f} {sim:>12,.0f}")
    # The round trip alone: 1-us steps, almost never an event inside.
    env = ag.CongestionControlEnv(episode_s=1e3, step_ms=0.001)
    env.reset(seed=1)
    n = 20_000
    t0 = time.perf_counter()
    for _ in range(n):
        env.step(2)
    per_step = (time.perf_counter() - t0) / n
    hz = cpu_hz()
    cycles = f", {per_step * hz / 1e3:,.1f} k cycles at {hz / 1e9:.2f} GHz" if hz else ""
    print(f"one step of an idle world (observe + act + advance): {per_step * 1e6:.1f} us{cycles}")
    # The same round trip for 8 idle worlds in one VectorEnv (its batching included).
    sps, _ = rate(lambda: ag.CongestionControlEnv(episode_s=1e3, step_ms=0.001), 8, 5_000, 1e-6)
    print(f"idle worlds, 8 in one VectorEnv: {sps:,.0f} steps per second")
    print("documented (ns3-ai's benchmark, two transfers per step): ns3-gym 236-258 k cycles, "
          "ns3-ai 12.9-15.4 k cycles")  # fmt: skip


if __name__ == "__main__":
    main()
