"""Train a rate controller on airtcp.gym's rate environment, on CPU, in about a minute.

    .venv/bin/python examples/gym/rate_q_learning.py            # 8 worlds, 60 episodes each
    .venv/bin/python examples/gym/rate_q_learning.py --rounds 10 --worlds 4

The agent is tabular: the state is the SNR the AP last measured from the station, in 2-dB
bins; its value per (bin, mode) is the running mean of the step's goodput (the action does not
change where the station walks, so the problem is a contextual bandit and no discounting is
needed), chosen epsilon-greedily with epsilon decaying from 1 to 0.02. Eight worlds step
together through airtcp.gym.VectorEnv.

It then plays greedily on worlds it never saw (seeds 1000-1007) and prints its goodput beside
Linux's Minstrel, ns-3's ARF, and the lowest and highest fixed rates on the same worlds (the
same station walks, the same fades), with the steps per second of training.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import airtcp
import airtcp.gym as ag

SNR_LO, SNR_HI, BIN_DB = -10.0, 60.0, 2.0
BINS = int((SNR_HI - SNR_LO) / BIN_DB) + 1


def state(obs: np.ndarray) -> np.ndarray:
    """The SNR bin of each world's observation."""
    return np.clip(((obs[:, 0] - SNR_LO) / BIN_DB).astype(int), 0, BINS - 1)


def baseline(
    rate_control: str, seeds: list[int], episode_s: float, data_mbps: float | None
) -> float:
    """Mean goodput [Mbit/s] of the rate environment's worlds run with `rate_control`."""
    from gymnasium.utils.seeding import np_random

    out = []
    for s in seeds:
        cfg = ag.rate_scenario(episode_s)
        cfg["mac"] = {"rate_control": rate_control}
        if data_mbps is not None:
            cfg["data_rate_mbps"] = data_mbps
        world_seed = int(np_random(s)[0].integers(0, 2**63))  # the seed reset(seed=s) uses
        res = airtcp.run(cfg, seed=world_seed)
        out.append(res.summary["flows"][0]["delivered_bytes"] * 8 / episode_s / 1e6)
    return float(np.mean(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=60, help="episodes per world")
    ap.add_argument("--episode-s", type=float, default=20.0)
    a = ap.parse_args()

    venv = ag.VectorEnv([lambda: ag.RateControlEnv(episode_s=a.episode_s)] * a.worlds)
    n_modes = int(venv.single_action_space.n)
    q = np.zeros((BINS, n_modes))
    visits = np.zeros((BINS, n_modes))
    rng = np.random.default_rng(0)
    steps_per_episode = round(a.episode_s / 0.1)
    total = a.rounds * steps_per_episode
    obs, _ = venv.reset(seed=0)
    t0 = time.perf_counter()
    steps = 0
    for t in range(total):
        eps = max(0.02, 1.0 - t / (0.6 * total))
        s = state(obs)
        greedy = q[s].argmax(axis=1)
        explore = rng.random(a.worlds) < eps
        act = np.where(explore, rng.integers(0, n_modes, a.worlds), greedy)
        obs, r, _, trunc, _ = venv.step(act)
        visits[s, act] += 1
        q[s, act] += (r - q[s, act]) / visits[s, act]
        steps += a.worlds
        if trunc.any():  # the autoreset step: its observation starts the next episode
            obs, _, _, _, _ = venv.step(np.zeros(a.worlds, dtype=int))
            steps += a.worlds
    train_s = time.perf_counter() - t0

    test_seeds = list(range(1000, 1000 + a.worlds))
    obs, _ = venv.reset(seed=test_seeds)
    got = np.zeros(a.worlds)
    for _ in range(steps_per_episode):
        obs, r, _, _, _ = venv.step(q[state(obs)].argmax(axis=1))
        got += r
    learned = float(got.mean() / steps_per_episode)

    names = [m[0] for m in venv.envs[0].modes]
    policy = ", ".join(
        f"{SNR_LO + b * BIN_DB:.0f} dB: {names[int(q[b].argmax())].removeprefix('OfdmRate')}"
        for b in range(0, BINS, 5)
        if visits[b].sum() > 0
    )
    print(f"trained on {steps} steps in {train_s:.1f} s ({steps / train_s:,.0f} steps/s, "
          f"{a.worlds} worlds of {a.episode_s:g} s, steps of 100 ms)")  # fmt: skip
    print(f"learned policy (SNR bin: mode): {policy}")
    print(f"goodput on unseen worlds (seeds {test_seeds[0]}-{test_seeds[-1]}), Mbit/s:")
    print(f"  learned         {learned:6.2f}")
    for label, rc, mbps in (
        ("minstrel", "minstrel", None),
        ("arf-ns3", "arf-ns3", None),
        ("fixed 6 Mbit/s", "constant", 6.0),
        ("fixed 54 Mbit/s", "constant", 54.0),
    ):
        print(f"  {label:<15} {baseline(rc, test_seeds, a.episode_s, mbps):6.2f}")


if __name__ == "__main__":
    main()
