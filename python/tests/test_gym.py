"""airtcp.gym (issue 18): Gymnasium environments stepping airtcp worlds in this process."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

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
    env = cls(episode_s=3.0)  # 30 steps stay within the episode (a step past it is refused)
    actions = [int(a) for a in rng.integers(0, env.action_space.n, size=30)]
    a = _episode(env, 4, actions)
    assert _episode(cls(episode_s=3.0), 4, actions) == a
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
    with pytest.raises(ValueError, match=r"actions: .* has shape \(3,\)"):
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


# Bad inputs (issue 29): every constructor argument and every action is checked against what
# the environment allows, and refused with an error naming the argument, the value and what is
# allowed, never a traceback from inside the environment.

_ENVS = [ag.RateControlEnv, ag.CongestionControlEnv]


@pytest.mark.parametrize("cls", _ENVS)
@pytest.mark.parametrize(
    ("step_ms", "error", "message"),
    [
        (float("inf"), ValueError, "step_ms: inf"),  # was OverflowError
        (float("nan"), ValueError, "step_ms: nan"),
        (5e-7, ValueError, "step_ms: 5e-07"),  # was a step of 0 ns: ZeroDivisionError
        (0.0009, ValueError, "step_ms: 0.0009"),  # under 1 us
        (-1.0, ValueError, "step_ms: -1.0"),
        (1e30, ValueError, "step_ms: 1e\\+30 .*longer than the episode"),  # overflowed u64
        (2_000.5, ValueError, "step_ms: 2000.5 .*longer than the episode"),
        ("5", TypeError, "step_ms: '5'"),
        (True, TypeError, "step_ms: True"),
        (None, TypeError, "step_ms: None"),
    ],
)
def test_a_bad_step_is_refused_at_construction(
    cls: type, step_ms: Any, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        cls(episode_s=2.0, step_ms=step_ms)


@pytest.mark.parametrize("cls", _ENVS)
def test_the_shortest_and_longest_steps_run(cls: type) -> None:
    # 1 us is the shortest step (bench/bench_gym.py's idle steps); one step may be the episode.
    env = cls(episode_s=0.01, step_ms=0.001)
    env.reset(seed=1)
    assert env.step(0)[1] >= 0 and env.step_ns == 1000
    env = cls(episode_s=0.01, step_ms=10.0)
    env.reset(seed=1)
    assert env.step(0)[3], "one step ends the episode"


@pytest.mark.parametrize("cls", _ENVS)
@pytest.mark.parametrize(
    ("episode_s", "error"),
    [
        (0, ValueError),
        (-1.0, ValueError),
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        (1e12, ValueError),
        ("3", TypeError),
        (True, TypeError),
    ],
)
def test_a_bad_episode_length_names_episode_s(cls: type, episode_s: Any, error: type) -> None:
    with pytest.raises(error, match="episode_s: "):
        cls(episode_s=episode_s)


@pytest.mark.parametrize(
    ("cls", "scenario"),
    [
        (ag.RateControlEnv, ag.rate_scenario(1.0)),
        (ag.CongestionControlEnv, ag.congestion_scenario(1.0)),
    ],
)
def test_episode_s_beside_a_scenario_is_refused_not_ignored(cls: type, scenario: dict) -> None:
    # The scenario's duration_s is the episode; an episode_s beside it was silently ignored.
    with pytest.raises(ValueError, match="episode_s: .*duration_s"):
        cls(episode_s=5.0, scenario=scenario)
    assert cls(scenario=scenario).step_ns > 0


@pytest.mark.parametrize("cls", _ENVS)
def test_a_bad_scenario_names_scenario(cls: type) -> None:
    with pytest.raises(TypeError, match="scenario: 'x'"):
        cls(scenario="x")  # was dict()'s "dictionary update sequence element" error


@pytest.mark.parametrize(
    ("delay_weight", "error"),
    [
        (float("nan"), ValueError),  # was NaN rewards
        (float("inf"), ValueError),
        (-0.1, ValueError),
        ("0.1", TypeError),  # was float("0.1")
        (None, TypeError),
    ],
)
def test_a_bad_delay_weight_is_refused(delay_weight: Any, error: type) -> None:
    with pytest.raises(error, match="delay_weight: "):
        ag.CongestionControlEnv(delay_weight=delay_weight)


def test_a_delay_weight_of_zero_or_a_numpy_number_is_a_weight() -> None:
    weights: list[Any] = [0, np.float32(0.5)]
    for w in weights:
        env = ag.CongestionControlEnv(episode_s=0.1, delay_weight=w)
        env.reset(seed=1)
        assert np.isfinite(env.step(2)[1])


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"stations": 0}, ValueError, "stations: 0"),
        ({"stations": 2.0}, TypeError, "stations: 2.0"),
        ({"stations": True}, TypeError, "stations: True"),
        ({"stations": 6000}, ValueError, "stations: "),
        ({"receivers": "sta1"}, TypeError, "receivers: 'sta1'"),  # was "no node 's'"
        ({"receivers": []}, ValueError, "receivers: "),
        ({"stations": 2, "receivers": ["sta1", "sta1"]}, ValueError, "receivers: 'sta1' twice"),
        ({"receivers": ["ap"]}, ValueError, "receivers: 'ap' is the sender"),
        ({"receivers": [1]}, TypeError, "receivers: 1"),
        ({"sender": None}, TypeError, "sender: None"),
    ],
)
def test_bad_rate_environment_arguments(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        ag.RateControlEnv(episode_s=1.0, **kwargs)


def test_stations_may_be_a_numpy_integer() -> None:
    env = ag.RateControlEnv(episode_s=1.0, stations=np.int64(2))  # was refused
    assert env.action_space == gymnasium.spaces.MultiDiscrete([8, 8])


def test_the_congestion_environment_checks_its_flow_at_construction() -> None:
    cfg = ag.congestion_scenario(1.0)
    cfg["tcp"] = {"cc": "cubic"}
    with pytest.raises(ValueError, match='flows.0: .*"cubic"'):
        ag.CongestionControlEnv(scenario=cfg)  # was an error at the first step
    with pytest.raises(ValueError, match="sender: 'ap' .*flow 0 is sent by 'server'"):
        ag.CongestionControlEnv(sender="ap")  # was accepted and ignored
    with pytest.raises(ValueError, match="receiver: 'ap' .*flow 0 goes to 'sta1'"):
        ag.CongestionControlEnv(receiver="ap")
    with pytest.raises(TypeError, match="receiver: 3"):
        ag.CongestionControlEnv(receiver=cast(Any, 3))


@pytest.mark.parametrize("cls", _ENVS)
def test_step_before_reset_asks_for_a_reset(cls: type) -> None:
    env = cls(episode_s=1.0)
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.step(0)  # was AttributeError: 'NoneType' object has no attribute ...


@pytest.mark.parametrize("cls", _ENVS)
def test_step_after_the_episode_ended_asks_for_a_reset(cls: type) -> None:
    env = cls(episode_s=0.2, step_ms=100.0)
    env.reset(seed=1)
    assert not env.step(0)[3] and env.step(0)[3]
    with pytest.raises(gymnasium.error.ResetNeeded, match="episode ended"):
        env.step(0)  # was truncated again, reward 0, the clock still running
    env.reset(seed=1)
    env.step(0)


# What gymnasium's Discrete.contains accepts is what the environments take: Python ints
# (bools are ints) and NumPy integer scalars or 0-d arrays of a dtype that casts to int64.
_DISCRETE_GOOD = [3, np.int64(3), np.int8(3), np.uint32(3), np.array(3), np.array(3, np.int16)]
_DISCRETE_BAD = [
    (7.9, TypeError),  # was int(7.9) = 7
    (3.0, TypeError),
    ("3", TypeError),  # was int("3")
    (b"1", TypeError),  # was int(b"1")
    (float("inf"), TypeError),  # was OverflowError
    (float("nan"), TypeError),  # was ValueError from int()
    (None, TypeError),
    (np.float64(3.0), TypeError),
    (np.uint64(3), TypeError),  # uint64 does not cast to int64
    (np.array([3]), ValueError),  # shape (1,), not a scalar
    (np.array(3.0), TypeError),
    (-1, ValueError),
    (2**70, ValueError),
]


@pytest.mark.parametrize("cls", _ENVS)
@pytest.mark.parametrize("action", _DISCRETE_GOOD, ids=repr)
def test_a_discrete_action_in_the_space_is_taken(cls: type, action: Any) -> None:
    env = cls(episode_s=1.0)
    assert env.action_space.contains(action)
    env.reset(seed=1)
    env.step(action)


@pytest.mark.parametrize("cls", _ENVS)
@pytest.mark.parametrize(("action", "error"), _DISCRETE_BAD, ids=repr)
def test_a_discrete_action_outside_the_space_is_refused(
    cls: type, action: Any, error: type
) -> None:
    env = cls(episode_s=1.0)
    assert not env.action_space.contains(action)
    env.reset(seed=1)
    with pytest.raises(error, match=r"action: .* \(allowed: an integer 0\.\.\d"):
        env.step(action)
    env.step(0)  # a refused action leaves the episode running


@pytest.mark.parametrize(
    "action",
    [[0, 3, 7], (0, 3, 7), np.array([0, 3, 7]), np.array([0, 3, 7], np.uint8)],
    ids=repr,
)
def test_a_multi_discrete_action_in_the_space_is_taken(action: Any) -> None:
    env = ag.RateControlEnv(episode_s=1.0, stations=3)
    assert env.action_space.contains(action)
    env.reset(seed=1)
    *_, info = env.step(action)
    assert info["mode"] == ["OfdmRate6Mbps", "OfdmRate18Mbps", "OfdmRate54Mbps"]


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ([0.0, 3.0, 7.9], TypeError),
        (np.array([0.0, 3.0, 7.0]), TypeError),
        (["0", "3", "7"], TypeError),
        ("037", TypeError),
        (b"037", TypeError),
        (3, TypeError),
        (np.array([0, 3, 7], np.uint64), TypeError),
        ([0, 3], ValueError),
        ([[0, 3, 7]], ValueError),
        ([0, [3], 7], ValueError),  # ragged: was numpy's "inhomogeneous shape"
        ([0, 3, 8], ValueError),
        ([-1, 3, 7], ValueError),
    ],
    ids=repr,
)
def test_a_multi_discrete_action_outside_the_space_is_refused(action: Any, error: type) -> None:
    env = ag.RateControlEnv(episode_s=1.0, stations=3)
    if not (isinstance(action, list) and [3] in action):  # contains raises on a ragged list
        assert not env.action_space.contains(action)
    env.reset(seed=1)
    with pytest.raises(error, match=r"action: .*\(allowed: .*shape \(3,\)"):
        env.step(action)


@pytest.mark.parametrize("cls", _ENVS)
def test_bad_seeds_and_options_name_the_argument(cls: type) -> None:
    env = cls(episode_s=1.0)
    a = env.reset(seed=np.int64(3))[0]  # was gymnasium's "Seed must be a python integer"
    assert (a == env.reset(seed=3)[0]).all()
    for seed, error in ((-1, ValueError), (1.5, TypeError), ("3", TypeError), (True, TypeError)):
        with pytest.raises(error, match="seed: "):
            env.reset(seed=seed)
    with pytest.raises(ValueError, match="options: .*'x'"):
        env.reset(options={"x": 1})  # was silently ignored
    env.reset(options={})


def test_the_vector_env_checks_a_batch_of_actions_as_its_space() -> None:
    venv = ag.VectorEnv([lambda: ag.RateControlEnv(episode_s=1.0)] * 2)
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        venv.step(np.array([1, 2]))  # was AttributeError
    venv.reset(seed=1)
    for bad, error in (
        (np.array([7.9, 1.0]), TypeError),  # was truncated to [7, 1]
        (["3", "1"], TypeError),  # was int("3")
        ([b"3", b"1"], TypeError),
        (np.array([1, 2], np.uint64), TypeError),
        (1, TypeError),
        ([1, [2]], ValueError),  # was numpy's "inhomogeneous shape"
        (np.array([1, 2, 3]), ValueError),
        (np.array([8, 1]), ValueError),
    ):
        if not isinstance(bad, list) or bad != [1, [2]]:  # gymnasium's contains raises on it
            assert not venv.action_space.contains(bad)
        with pytest.raises(error, match=r"actions: .*\(allowed: .*shape \(2,\)"):
            venv.step(bad)
    for good in ([1, 2], (1, 2), np.array([1, 2], np.int8), np.array([True, False])):
        assert venv.action_space.contains(good)
        venv.step(good)


def test_the_vector_env_checks_its_arguments_and_seeds() -> None:
    with pytest.raises(TypeError, match="env_fns: "):
        ag.VectorEnv(cast(Any, ag.RateControlEnv))  # was "'type' object is not iterable"
    with pytest.raises(TypeError, match="env_fns\\[1\\]: 3"):
        ag.VectorEnv(cast(Any, [ag.RateControlEnv, 3]))  # was "'int' object is not callable"
    with pytest.raises(TypeError, match="env_fns\\[0\\]: .*returned 'x'"):
        ag.VectorEnv(cast(Any, [lambda: "x"]))
    venv = ag.VectorEnv([lambda: ag.RateControlEnv(episode_s=1.0)] * 2)
    a = venv.reset(seed=np.int64(5))[0]  # was "'numpy.int64' object is not iterable"
    assert (a == venv.reset(seed=5)[0]).all() and (a == venv.reset(seed=[5, 6])[0]).all()
    bad_seeds: tuple[tuple[Any, type], ...] = (
        ("12", TypeError),
        (-1, ValueError),
        ([1, -1], ValueError),
        (1.5, TypeError),
    )
    for seed, error in bad_seeds:
        with pytest.raises(error, match="seed"):
            venv.reset(seed=seed)
    with pytest.raises(ValueError, match="seed: 3 seeds for 2"):
        venv.reset(seed=[1, 2, 3])


def _reference_cwnd_episode(seed: int, actions: list[int], step_ms: float, weight: float) -> list:
    """The congestion environment's step as it was written in Python before the core took it
    over (issue 37): the same world, driven through the Sim's primitive calls."""
    env = ag.CongestionControlEnv(episode_s=2.0, step_ms=step_ms, delay_weight=weight)
    # The world's seed, as reset(seed=seed) draws it from the environment's generator.
    world_seed = int(gymnasium.utils.seeding.np_random(seed)[0].integers(0, 2**63))
    sim = airtcp._core.Sim(env._spec_json, world_seed)
    step_ns = round(step_ms * 1e6)
    t_ns, delivered, counts = 0, 0, (0, 0)

    def observe(mbps: float) -> tuple:
        nonlocal counts
        cwnd, srtt_ns, min_rtt_ns, rtx, timeouts = sim.tcp_counts(0)
        srtt_ms, min_ms = srtt_ns / 1e6, min_rtt_ns / 1e6
        d_rtx, d_to = rtx - counts[0], timeouts - counts[1]
        counts = (rtx, timeouts)
        obs = np.array(
            [
                min(cwnd, 2000) / 100,
                min(srtt_ms / 100, 100.0),
                min(min_ms / 100, 100.0),
                min(mbps / 50, 100.0),
                min(d_rtx, 1e4),
                min(d_to, 1e3),
            ],
            dtype=np.float32,
        )
        reward = mbps - weight * max(0.0, srtt_ms - min_ms)
        return obs.tobytes(), reward, cwnd, srtt_ms, mbps

    out = [observe(0.0)]
    for a in actions:
        cwnd = out[-1][2]
        f = ag.CWND_FACTORS[a]
        new = min(max(round(cwnd * f), 1), 2000)
        if new == cwnd and f != 1.0:
            new = min(max(cwnd + (1 if f > 1 else -1), 1), 2000)
        sim.set_cwnd(0, new)
        t_ns += step_ns
        _, total = sim.advance_delivered(t_ns)
        mbps = (total - delivered) * 8 / (step_ns / 1e9) / 1e6
        delivered = total
        out.append(observe(mbps))
    return out


@pytest.mark.parametrize(("step_ms", "weight"), [(20.0, 0.1), (3.0, 0.0), (0.7, 2.5)])
def test_the_core_steps_the_congestion_environment_as_python_did(
    step_ms: float, weight: float
) -> None:
    # Observations bit for bit, rewards and infos equal: the formulas of docs/gym.md, once in
    # Python over the core's counters (the reference above), once in the core.
    rng = np.random.default_rng(7)
    steps = int(1500 / step_ms) if step_ms > 1 else 800
    actions = [int(a) for a in rng.integers(0, 5, size=steps)]
    env = ag.CongestionControlEnv(episode_s=2.0, step_ms=step_ms, delay_weight=weight)
    obs, info = env.reset(seed=9)
    got = [(obs.tobytes(), 0.0, info["cwnd"], info["srtt_ms"], info["goodput_mbps"])]
    for a in actions:
        obs, r, _, _, info = env.step(a)
        got.append((obs.tobytes(), r, info["cwnd"], info["srtt_ms"], info["goodput_mbps"]))
    ref = _reference_cwnd_episode(9, actions, step_ms, weight)
    assert got[0][0] == ref[0][0] and got[0][2:] == ref[0][2:]
    assert got[1:] == ref[1:]
    assert len({g[2] for g in got}) > 5, "the actions moved the window"
    assert any(g[4] > 0 for g in got), "data was delivered"


def _cc_env(episode_s: float) -> Callable[[], ag.CongestionControlEnv]:
    return lambda: ag.CongestionControlEnv(episode_s=episode_s, step_ms=20.0)


@pytest.mark.parametrize("copy", [True, False])
def test_the_batched_congestion_worlds_step_as_single_envs(copy: bool) -> None:
    # The VectorEnv's one core call for K worlds against K single environments, through
    # episode ends and the autoresets after them. The worlds' episodes differ in length, so
    # some steps mix worlds that reset with worlds that step (the general path).
    lengths = [0.1, 0.14, 0.1, 0.18]  # 5, 7, 5 and 9 steps of 20 ms
    k, steps = len(lengths), 23
    venv = ag.VectorEnv([_cc_env(e) for e in lengths], copy=copy)
    assert venv._batched
    obs0, _ = venv.reset(seed=30)
    rng = np.random.default_rng(2)
    acts = rng.integers(0, 5, size=(steps, k))
    singles = [_cc_env(e)() for e in lengths]
    assert np.array_equal(obs0, np.stack([s.reset(seed=30 + j)[0] for j, s in enumerate(singles)]))
    done = [False] * k
    ends = 0
    for t in range(steps):
        obs, r, term, trunc, info = venv.step(acts[t])
        assert (obs.dtype, r.dtype, term.dtype, trunc.dtype) == (
            np.float32,
            np.float64,
            np.bool_,
            np.bool_,
        )
        assert list(info) == [
            "cwnd",
            "_cwnd",
            "goodput_mbps",
            "_goodput_mbps",
            "srtt_ms",
            "_srtt_ms",
        ]
        assert info["cwnd"].dtype == np.int64 and info["_cwnd"].all()
        for j, s in enumerate(singles):
            if done[j]:
                o, i = s.reset()
                rr, tr = 0.0, False
            else:
                o, rr, _, tr, i = s.step(int(acts[t, j]))
            assert obs[j].tobytes() == o.tobytes(), (t, j)
            assert r[j] == rr and trunc[j] == tr and not term[j], (t, j)
            assert info["cwnd"][j] == i["cwnd"] and info["srtt_ms"][j] == i["srtt_ms"]
            assert info["goodput_mbps"][j] == i["goodput_mbps"]
            done[j] = tr
            ends += tr
    assert ends == 13, "episode ends: 4 + 3 + 4 + 2 in 23 steps"
    if not copy:
        # Only the observations are the kept array, which the next step overwrites (after the
        # step that resets the worlds ended at step 23).
        venv.step(acts[0])
        o1, r1, _, _, _ = venv.step(acts[0])
        o2, r2, _, _, _ = venv.step(acts[1])
        assert o1 is o2 and r1 is not r2


def test_the_batched_path_steps_the_world_an_env_was_reset_to() -> None:
    venv = ag.VectorEnv([_cc_env(1.0)] * 2)
    venv.reset(seed=1)
    for _ in range(3):
        venv.step(np.array([4, 4]))
    o, _ = venv.envs[0].reset(seed=99)  # apart from the VectorEnv
    obs, *_ = venv.step(np.array([2, 2]))
    alone = ag.CongestionControlEnv(episode_s=1.0, step_ms=20.0)
    alone.reset(seed=99)
    assert obs[0].tobytes() == alone.step(2)[0].tobytes()


def test_a_batch_with_a_closed_world_steps_none() -> None:
    envs = [_cc_env(1.0)() for _ in range(2)]
    for e in envs:
        e.reset(seed=3)
    envs[1].sim.summary_json()  # closes world 1's run
    before = envs[0].sim.now_ns
    arrays = [
        np.zeros(2 * 6, np.float32),
        np.zeros(2),
        np.zeros(2, np.uint8),
        np.zeros(2, np.int64),
    ]
    with pytest.raises(ValueError, match=r"sims\[1\]: the run has ended"):
        airtcp._core.cwnd_steps(
            [e.sim for e in envs],
            np.array([2, 2], dtype=np.int64),
            arrays[0],
            arrays[1],
            arrays[2],
            arrays[3],
            np.zeros(2),
            np.zeros(2),
        )
    assert envs[0].sim.now_ns == before, "world 0 did not step"


def test_the_core_agent_refuses_what_it_cannot_drive() -> None:
    env = ag.CongestionControlEnv(episode_s=0.04, step_ms=20.0)
    env.reset(seed=1)
    obs = np.zeros(6, np.float32)
    env.sim.cwnd_step(2, obs, 0)
    env.sim.cwnd_step(2, obs, 0)
    with pytest.raises(ValueError, match="the episode ended"):
        env.sim.cwnd_step(2, obs, 0)
    cfg = ag.congestion_scenario(1.0)
    cfg["tcp"] = {**cfg["tcp"], "cc": "cubic"}
    sim = airtcp._core.Sim(_spec_json(cfg), 1)
    with pytest.raises(ValueError, match='its cc is not "agent"'):
        sim.cwnd_agent(0, 20_000_000, 0.1)


def _spec_json(cfg: dict) -> str:
    from airtcp.run import to_scenario

    return to_scenario(cfg).spec_json()


def test_the_batched_step_names_a_bad_buffer() -> None:
    env = ag.CongestionControlEnv(episode_s=1.0)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="obs: 3 values, too few for row 0"):
        env.sim.cwnd_step(2, np.zeros(3, dtype=np.float32), 0)
    with pytest.raises(ValueError, match="not a writable"):
        ro = np.zeros(6, dtype=np.float32)
        ro.flags.writeable = False
        env.sim.cwnd_step(2, ro, 0)
    with pytest.raises(ValueError, match=r"action: 5 \(allowed: 0 to 4\)"):
        env.sim.cwnd_step(5, np.zeros(6, dtype=np.float32), 0)


def test_a_bad_batch_names_the_array_and_steps_no_world() -> None:
    envs = [_cc_env(1.0)() for _ in range(2)]
    for e in envs:
        e.reset(seed=4)
    sims = [e.sim for e in envs]

    def call(actions: Any, rewards: Any) -> None:
        airtcp._core.cwnd_steps(
            sims,
            actions,
            np.zeros(12, np.float32),
            rewards,
            np.zeros(2, np.uint8),
            np.zeros(2, np.int64),
            np.zeros(2),
            np.zeros(2),
        )

    with pytest.raises(ValueError, match=r"actions\[1\]: 5 \(allowed: 0 to 4\)"):
        call(np.array([2, 5], np.int64), np.zeros(2))
    with pytest.raises(ValueError, match="rewards: not a writable C-contiguous array of 2"):
        call(np.array([2, 2], np.int64), np.zeros(3))
    assert [s.now_ns for s in sims] == [0, 0], "no world stepped"
    call(np.array([2, 2], np.int64), np.zeros(2))
    assert [s.now_ns for s in sims] == [20_000_000] * 2
