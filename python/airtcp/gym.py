"""Gymnasium environments over airtcp worlds, for learning rate and congestion controllers.

Each environment holds one airtcp world in this process (``airtcp._core.Sim``): a step applies
the agent's action, advances the world to the next decision time and reads the observation
from it. No socket, no shared memory, no serialisation between agent and simulator.
:class:`VectorEnv` steps K independent worlds together and returns batched arrays.

- :class:`RateControlEnv`: an AP sends saturating UDP to one station that moves (random
  waypoint, radio model with Rayleigh fading by default). Every ``step_ms`` the agent picks the
  AP's data mode toward the station (``mac.rate_control = "agent"``): observation ``[SNR dB of
  the last frame the AP received from the station, share of the step's attempts that were
  acknowledged, attempts in the step / 100, current mode index / (modes - 1)]``; reward: the
  step's goodput [Mbit/s].
- :class:`CongestionControlEnv`: a station downloads over TCP from a server 20 ms behind the
  AP (``tcp.cc = "agent"``). Every ``step_ms`` the agent scales the congestion window by one of
  ``CWND_FACTORS``: observation ``[cwnd / 100, smoothed RTT ms / 100, lowest RTT ms / 100,
  the step's goodput / 50 Mbit/s, retransmissions in the step, timeouts in the step]``;
  reward: goodput [Mbit/s] - ``delay_weight`` x queueing delay (smoothed - lowest RTT) [ms].

An episode is one run of ``episode_s`` simulated seconds; it is truncated at its end (the
worlds have no terminal state). ``reset(seed=s)`` makes the world of seed ``s``: the same seed
and the same actions give the same episode, bit for bit. Both environments take a
``scenario`` (a dict as parsed from TOML) to replace the built-in one; it must have the node
and flow the environment drives (``sender``/``receiver`` names, flow 0).

    import airtcp.gym
    env = airtcp.gym.VectorEnv([airtcp.gym.RateControlEnv] * 8)   # or gymnasium.make(
    # "airtcp/RateControl-v0") / "airtcp/CongestionControl-v0" for one world
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

``examples/gym_rate_q_learning.py`` trains a tabular agent on the rate environment in about
a minute of CPU.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from airtcp.run import to_scenario

__all__ = ["CWND_FACTORS", "CongestionControlEnv", "RateControlEnv", "VectorEnv"]

# The congestion environment's actions: cwnd is multiplied by one of these [segments].
CWND_FACTORS = (0.5, 0.8, 1.0, 1.25, 2.0)
_CWND_MAX = 2000


def rate_scenario(episode_s: float, stations: int = 1) -> dict[str, Any]:
    """The rate environment's world: 802.11a, an AP and ``stations`` stations moving at 1-10
    m/s by random waypoint over 140 m x 140 m around it, ns-3's log-distance path loss
    (exponent 3) with Rayleigh fading, so a station's SNR spans about 0-60 dB; saturating UDP
    from the AP to each (the sources take turns in the AP's queue)."""
    return {
        "name": "gym-rate",
        "topology": "bss",
        "stations": stations,
        "spacing_m": 10.0,
        "standard": "80211a",
        "basic_rate_mbps": 6,
        "duration_s": episode_s,
        "warmup_s": 0.0,
        "mobility": {
            "kind": "random-waypoint",
            "area_m": [-70, -70, 70, 70],
            "speed_min_mps": 1.0,
            "speed_max_mps": 10.0,
            "steady_state": True,
        },
        "channel": {"model": "radio", "fading": "rayleigh"},
        "mac": {"rate_control": "agent"},
        "flows": [
            {"kind": "udp-saturating", "src": "ap", "dst": f"sta{k + 1}", "payload_bytes": 1500}
            for k in range(stations)
        ],
    }


def congestion_scenario(episode_s: float) -> dict[str, Any]:
    """The congestion environment's world: a station 10 m from an 802.11a AP at 24 Mbit/s
    downloads over TCP from a server behind a 100 Mbit/s, 20 ms link; the AP's queue (100
    packets) is the bottleneck, so a window beyond the path's ~80 segments only adds delay."""
    return {
        "name": "gym-cc",
        "topology": "bss",
        "stations": 1,
        "spacing_m": 10.0,
        "standard": "80211a",
        "data_rate_mbps": 24,
        "basic_rate_mbps": 6,
        "duration_s": episode_s,
        "warmup_s": 0.0,
        "nodes": [{"name": "server", "role": "host"}],
        "links": [{"a": "ap", "b": "server", "rate_mbps": 100, "delay_ms": 20}],
        "tcp": {"cc": "agent"},
        "flows": [{"kind": "tcp-bulk", "src": "server", "dst": "sta1"}],
    }


class _AirtcpEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One airtcp world stepped every ``step_ms``."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self, scenario: Mapping[str, Any], step_ms: float, sender: str, receivers: Sequence[str]
    ) -> None:
        if not step_ms > 0:
            raise ValueError(f"step_ms: must be > 0 (got {step_ms!r})")
        sc = to_scenario(dict(scenario))
        self._spec_json = sc.spec_json()
        spec = json.loads(self._spec_json)
        names = [n["name"] for n in spec["nodes"]]
        if not receivers:
            raise ValueError("receivers: at least one node")
        for field, name in (("sender", sender), *(("receivers", r) for r in receivers)):
            if name not in names:
                raise ValueError(f"{field}: no node {name!r} (nodes: {', '.join(names)})")
        if not spec.get("flows"):
            raise ValueError("scenario: no flow to drive (flows: an empty list)")
        self.sender = names.index(sender)
        self.receivers = [names.index(r) for r in receivers]
        self._flows = range(len(spec["flows"]))  # the reward counts every flow's goodput
        self.step_ns = round(step_ms * 1e6)
        self.sim: Any = None
        self._t_ns = 0
        self._delivered = 0

    def _new_sim(self, seed: int | None) -> None:
        from airtcp import _core

        super().reset(seed=seed)
        world_seed = int(self.np_random.integers(0, 2**63))
        self.sim = _core.Sim(self._spec_json, world_seed)
        self._t_ns = 0
        self._delivered = 0

    def _advance(self) -> tuple[float, bool]:
        """Advance one step: (the step's goodput [Mbit/s], whether the episode ended)."""
        self._t_ns += self.step_ns
        done = self.sim.advance(self._t_ns)
        delivered = sum(self.sim.delivered_bytes(f) for f in self._flows)
        mbps = (delivered - self._delivered) * 8 / (self.step_ns / 1e9) / 1e6
        self._delivered = delivered
        return mbps, done


class RateControlEnv(_AirtcpEnv):
    """Pick the AP's data mode toward each of ``stations`` moving stations every ``step_ms``
    (module docstring). One station: a ``Discrete`` action and an observation of shape (4,);
    more: a ``MultiDiscrete`` action (a mode per station) and one row of 4 per station."""

    def __init__(
        self,
        episode_s: float = 20.0,
        step_ms: float = 100.0,
        stations: int = 1,
        scenario: Mapping[str, Any] | None = None,
        sender: str = "ap",
        receivers: Sequence[str] | None = None,
    ) -> None:
        if isinstance(stations, bool) or not isinstance(stations, int) or stations < 1:
            raise ValueError(f"stations: must be an integer >= 1 (got {stations!r})")
        base = (
            copy.deepcopy(dict(scenario))
            if scenario is not None
            else rate_scenario(episode_s, stations)
        )
        if receivers is None:
            receivers = [f"sta{k + 1}" for k in range(stations)]
        super().__init__(base, step_ms, sender, receivers)
        from airtcp import _core

        modes = _core.Sim(self._spec_json, 0).agent_modes(self.sender)
        if not modes:
            raise ValueError(f'mac.rate_control: node {sender!r} must use "agent"')
        self.modes: list[tuple[str, int]] = list(modes)
        k, m = len(self.receivers), len(self.modes)
        self._multi = k > 1
        lo = np.array([-10.0, 0.0, 0.0, 0.0], dtype=np.float32)
        hi = np.array([80.0, 1.0, 100.0, 1.0], dtype=np.float32)
        if self._multi:
            self.action_space: spaces.Space[Any] = spaces.MultiDiscrete([m] * k)
            self.observation_space = spaces.Box(np.tile(lo, (k, 1)), np.tile(hi, (k, 1)))
        else:
            self.action_space = spaces.Discrete(m)
            self.observation_space = spaces.Box(lo, hi, dtype=np.float32)
        self._mode = [0] * k
        self._snr = [0.0] * k
        self._link = [(0, 0)] * k

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        rows, att, ack = [], [], []
        top = max(1, len(self.modes) - 1)
        for i, r in enumerate(self.receivers):
            snr = self.sim.peer_snr_db(self.sender, r)  # None before the first, or range model
            if snr is not None:
                self._snr[i] = float(np.clip(snr, -10.0, 80.0))
            attempts, acked, _, _ = self.sim.link(self.sender, r)
            d_att, d_ack = attempts - self._link[i][0], acked - self._link[i][1]
            self._link[i] = (attempts, acked)
            ok = d_ack / d_att if d_att else 0.0
            rows.append([self._snr[i], ok, min(d_att / 100.0, 100.0), self._mode[i] / top])
            att.append(d_att)
            ack.append(d_ack)
        obs = np.array(rows if self._multi else rows[0], dtype=np.float32)
        names = [self.modes[m][0] for m in self._mode]
        if self._multi:
            info: dict[str, Any] = {"attempts": att, "acked": ack, "mode": names}
        else:
            info = {"attempts": att[0], "acked": ack[0], "mode": names[0]}
        return obs, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._new_sim(seed)
        k = len(self.receivers)
        self._mode, self._snr, self._link = [0] * k, [0.0] * k, [(0, 0)] * k
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        acts = np.asarray(action).reshape(-1) if self._multi else [action]
        if not self.action_space.contains(np.asarray(action) if self._multi else int(action)):
            raise ValueError(f"action: {action!r} (allowed: {self.action_space})")
        for i, (r, a) in enumerate(zip(self.receivers, acts, strict=True)):
            self._mode[i] = int(a)
            self.sim.set_mode(self.sender, r, int(a))
        mbps, done = self._advance()
        obs, info = self._observe()
        info["goodput_mbps"] = mbps
        return obs, float(mbps), False, done, info


class CongestionControlEnv(_AirtcpEnv):
    """Scale a TCP sender's congestion window every ``step_ms`` (module docstring)."""

    def __init__(
        self,
        episode_s: float = 10.0,
        step_ms: float = 20.0,
        delay_weight: float = 0.1,
        scenario: Mapping[str, Any] | None = None,
        sender: str = "server",
        receiver: str = "sta1",
    ) -> None:
        base = (
            copy.deepcopy(dict(scenario))
            if scenario is not None
            else congestion_scenario(episode_s)
        )
        super().__init__(base, step_ms, sender, [receiver])
        from airtcp import _core

        if _core.Sim(self._spec_json, 0).tcp(0) is None:
            raise ValueError('flows.0: must be a TCP flow (its tcp.cc "agent")')
        self.delay_weight = float(delay_weight)
        self.action_space = spaces.Discrete(len(CWND_FACTORS))
        self.observation_space = spaces.Box(
            np.zeros(6, dtype=np.float32),
            np.array([_CWND_MAX / 100, 100.0, 100.0, 100.0, 1e4, 1e3], dtype=np.float32),
            dtype=np.float32,
        )
        self._counts = (0, 0)

    def _observe(self, mbps: float) -> tuple[np.ndarray, dict[str, Any], float]:
        t = self.sim.tcp(0)
        srtt_ms, min_ms = t["srtt_ns"] / 1e6, t["min_rtt_ns"] / 1e6
        d_rtx = t["retransmissions"] - self._counts[0]
        d_to = t["timeouts"] - self._counts[1]
        self._counts = (t["retransmissions"], t["timeouts"])
        obs = np.array(
            [
                min(t["cwnd"], _CWND_MAX) / 100,
                min(srtt_ms / 100, 100.0),
                min(min_ms / 100, 100.0),
                min(mbps / 50, 100.0),
                min(d_rtx, 1e4),
                min(d_to, 1e3),
            ],
            dtype=np.float32,
        )
        queueing_ms = max(0.0, srtt_ms - min_ms)
        info = {"cwnd": t["cwnd"], "srtt_ms": srtt_ms, "goodput_mbps": mbps}
        return obs, info, mbps - self.delay_weight * queueing_ms

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._new_sim(seed)
        self._counts = (0, 0)
        obs, info, _ = self._observe(0.0)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        a = int(action)
        if not self.action_space.contains(a):
            raise ValueError(f"action: {action!r} (allowed: 0..{len(CWND_FACTORS) - 1})")
        cwnd = self.sim.tcp(0)["cwnd"]
        new = int(np.clip(round(cwnd * CWND_FACTORS[a]), 1, _CWND_MAX))
        if new == cwnd and CWND_FACTORS[a] != 1.0:
            new = int(np.clip(cwnd + (1 if CWND_FACTORS[a] > 1 else -1), 1, _CWND_MAX))
        self.sim.set_cwnd(0, new)
        mbps, done = self._advance()
        obs, info, reward = self._observe(mbps)
        return obs, float(reward), False, done, info


class VectorEnv(gymnasium.vector.VectorEnv):
    """K independent airtcp worlds stepped together in this process, batched.

    ``env_fns``: one constructor per world (e.g. ``[RateControlEnv] * 8``), all of the same
    spaces. Episodes that end are reset at the next step (Gymnasium's ``NEXT_STEP`` autoreset:
    that step returns the new episode's first observation, reward 0). ``reset(seed=s)`` seeds
    world k with ``s + k``.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, env_fns: Sequence[Callable[[], _AirtcpEnv]]) -> None:
        if not env_fns:
            raise ValueError("env_fns: at least one environment")
        self.envs = [fn() for fn in env_fns]
        self.num_envs = len(self.envs)
        first = self.envs[0]
        for k, e in enumerate(self.envs):
            if (
                e.observation_space != first.observation_space
                or e.action_space != first.action_space
            ):
                raise ValueError(f"env_fns[{k}]: its spaces differ from env_fns[0]'s")
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        self._done = np.zeros(self.num_envs, dtype=bool)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + k for k in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: {len(seeds)} seeds for {self.num_envs} environments")
        obs, infos = [], []
        for e, s in zip(self.envs, seeds, strict=True):
            o, i = e.reset(seed=s)
            obs.append(o)
            infos.append(i)
        self._done[:] = False
        return np.stack(obs), _batch_infos(infos)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape[:1] != (self.num_envs,):
            raise ValueError(f"actions: shape {actions.shape} (allowed: ({self.num_envs},))")
        n = self.num_envs
        obs, infos = [], []
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        for k, e in enumerate(self.envs):
            if self._done[k]:
                o, i = e.reset()
            else:
                o, r, terminated[k], truncated[k], i = e.step(actions[k])
                rewards[k] = r
            obs.append(o)
            infos.append(i)
        self._done = terminated | truncated
        return np.stack(obs), rewards, terminated, truncated, _batch_infos(infos)


# gymnasium.make("airtcp/RateControl-v0") and "airtcp/CongestionControl-v0".
for _name, _cls in (("RateControl", RateControlEnv), ("CongestionControl", CongestionControlEnv)):
    if f"airtcp/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(f"airtcp/{_name}-v0", entry_point=f"airtcp.gym:{_cls.__name__}")


def _batch_infos(infos: list[dict[str, Any]]) -> dict[str, Any]:
    """Gymnasium's vector info layout: per key an array over the environments and a mask."""
    keys = sorted({k for i in infos for k in i})
    out: dict[str, Any] = {}
    for key in keys:
        values = [i.get(key) for i in infos]
        out[key] = np.array([0 if v is None else v for v in values])
        out[f"_{key}"] = np.array([key in i for i in infos])
    return out
