"""airtcp.gym (issue 18): Gymnasium environments stepping airtcp worlds in this process."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import airtcp
import airtcp.gym as ag


@pytest.mark.parametrize("env_id", ["airtcp/RateControl-v0", "airtcp/CongestionControl-v0"])
def test_environments_pass_gymnasiums_checker(env_id: str) -> None:
    env = gymnasium.make(env_id, episode_s=2.0)
    check_env(env.unwrapped, skip_render_check=True)


def _episode(env: gymnasium.Env, seed: int, actions: list[int]) -> list[tuple]:
    obs, _ = env.reset(seed=seed)
    out = [tuple(obs)]
    for a in actions:
        obs, r, term, trunc, _ = env.step(a)
        out.append((*obs, r, term, trunc))
    return out


@pytest.mark.parametrize("cls", [ag.RateControlEnv, ag.CongestionControlEnv])
def test_an_episode_is_a_pure_function_of_seed_and_actions(cls: type) -> None:
    rng = np.random.default_rng(0)
    env = cls(episode_s=1.0)
    actions = [int(a) for a in rng.integers(0, env.action_space.n, size=30)]
    a = _episode(env, 4, actions)
    assert _episode(cls(episode_s=1.0), 4, actions) == a
    assert _episode(env, 4, actions) == a, "a reset makes the same world again"
    assert _episode(env, 5, actions) != a


def test_a_fixed_mode_episode_delivers_what_a_run_at_that_rate_does() -> None:
    # Holding the top mode from t = 0 is constant rate control at 54 Mbit/s: the world steps
    # through the same events, so the goodput summed over the steps is the run's to the byte.
    env = ag.RateControlEnv(episode_s=3.0, step_ms=50.0)
    env.reset(seed=11)
    total_bytes = 0.0
    done = False
    while not done:
        _, r, _, done, _ = env.step(7)
        total_bytes += r * 1e6 * 0.05 / 8
    # The world's seed, as reset(seed=11) draws it from the environment's generator.
    seed = int(gymnasium.utils.seeding.np_random(11)[0].integers(0, 2**63))
    cfg = ag.rate_scenario(3.0)
    cfg["mac"] = {"rate_control": "constant"}
    cfg["data_rate_mbps"] = 54
    run = airtcp.run(cfg, seed=seed)
    assert round(total_bytes) == run.summary["flows"][0]["delivered_bytes"]


def test_the_vector_env_steps_k_worlds_as_k_single_envs() -> None:
    k, steps = 3, 10  # one whole episode of 1 s in steps of 100 ms
    venv = ag.VectorEnv([lambda: ag.RateControlEnv(episode_s=1.0)] * k)
    assert venv.observation_space.shape == (k, 4)
    obs, info = venv.reset(seed=20)
    rng = np.random.default_rng(1)
    acts = rng.integers(0, 8, size=(steps, k))
    rewards = []
    for t in range(steps):
        obs, r, term, trunc, info = venv.step(acts[t])
        assert obs.shape == (k, 4) and r.shape == (k,)
        assert "goodput_mbps" in info and info["_goodput_mbps"].all()
        rewards.append(r)
    # World j is the single environment seeded 20 + j with the same actions.
    for j in range(k):
        single = _episode(ag.RateControlEnv(episode_s=1.0), 20 + j, list(acts[:, j]))
        assert [s[4] for s in single[1:]] == [float(r[j]) for r in rewards]


def test_the_vector_env_resets_an_ended_world_at_the_next_step() -> None:
    venv = ag.VectorEnv([lambda: ag.CongestionControlEnv(episode_s=0.1, step_ms=20.0)] * 2)
    venv.reset(seed=1)
    for _ in range(4):
        _, _, _, trunc, _ = venv.step(np.array([2, 2]))
        assert not trunc.any()
    _, _, _, trunc, _ = venv.step(np.array([2, 2]))
    assert trunc.all(), "five steps of 20 ms end a 100-ms episode"
    obs, r, _, trunc, info = venv.step(np.array([2, 2]))
    assert not trunc.any() and (r == 0).all(), "the autoreset step"
    assert (info["cwnd"] == 10).all(), "a fresh connection's initial window"


def test_the_congestion_agent_controls_the_window() -> None:
    env = ag.CongestionControlEnv(episode_s=2.0)
    env.reset(seed=3)
    for _ in range(20):
        _, _, _, _, info = env.step(4)  # x2 each step
    assert info["cwnd"] == 2000, "doubling from 10 reaches the cap"
    for _ in range(20):
        _, _, _, _, info = env.step(0)  # halve
    assert info["cwnd"] == 1


def test_bad_input_names_the_field() -> None:
    env = ag.RateControlEnv(episode_s=1.0)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="action: 8"):
        env.step(8)
    with pytest.raises(ValueError, match="sender: no node 'nope'"):
        ag.RateControlEnv(sender="nope")
    cfg = ag.rate_scenario(1.0)
    cfg["mac"] = {"rate_control": "minstrel"}
    with pytest.raises(ValueError, match='must use "agent"'):
        ag.RateControlEnv(scenario=cfg)
    with pytest.raises(ValueError, match="step_ms"):
        ag.CongestionControlEnv(step_ms=0)
    with pytest.raises(ValueError, match="actions: shape"):
        venv = ag.VectorEnv([ag.RateControlEnv] * 2)
        venv.reset(seed=1)
        venv.step(np.array([1, 2, 3]))


def test_the_rate_environment_drives_each_station_of_a_cell() -> None:
    # Three stations: a mode per station, a row per station with its own SNR (the AP's last
    # ACK from it); different walks give different SNRs.
    env = ag.RateControlEnv(episode_s=2.0, stations=3)
    check_env(env, skip_render_check=True)
    assert isinstance(env.action_space, gymnasium.spaces.MultiDiscrete)
    obs, _ = env.reset(seed=2)
    assert obs.shape == (3, 4)
    for _ in range(5):
        obs, r, _, _, info = env.step(np.array([0, 3, 7]))
    assert info["mode"] == ["OfdmRate6Mbps", "OfdmRate18Mbps", "OfdmRate54Mbps"]
    assert len(set(obs[:, 0])) == 3, obs[:, 0]  # three SNRs
    assert min(info["attempts"]) > 0, (
        "every station is served in every step (the AP's sources take turns)"
    )
    assert all(-10 <= s <= 80 for s in obs[:, 0])
    venv = ag.VectorEnv([lambda: ag.RateControlEnv(episode_s=1.0, stations=3)] * 2)
    obs, _ = venv.reset(seed=1)
    assert obs.shape == (2, 3, 4) and venv.action_space.shape == (2, 3)
    obs, r, *_ = venv.step(venv.action_space.sample())
    assert obs.shape == (2, 3, 4) and r.shape == (2,)
