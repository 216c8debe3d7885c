"""Gymnasium environments over airtcp worlds, for learning rate and congestion controllers.

Each environment holds one airtcp world in this process (``airtcp._core.Sim``): a step applies
the agent's action, advances the world to the next decision time and reads the observation
from it. No socket, no shared memory, no serialisation between agent and simulator.
:class:`VectorEnv` steps K independent worlds together and returns batched arrays.

- :class:`RateControlEnv`: an AP sends saturating UDP to one station that moves (random
  waypoint, radio model with Rayleigh fading by default). Every ``step_ms`` the agent picks the
  AP's data mode toward the station (``mac.rate_control = "agent"``): observation ``[SNR dB of
  the last frame the AP received from the station, share of the step's MPDU transmissions
  acknowledged, MPDU transmissions in the step / 100, current mode index / (modes - 1)]``;
  reward: the step's goodput [Mbit/s].
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

Inputs are checked as Gymnasium's spaces define them (docs/gym.md "Inputs"): an action is
taken only if ``action_space.contains`` it (no truncation of ``7.9``, no parsing of ``"3"``),
``step_ms`` is 1 us (:data:`MIN_STEP_MS`) up to the episode's length, ``episode_s`` and
``delay_weight`` are finite, and ``step()`` needs a running episode (``reset()`` first, and
again after the episode ended: ``gymnasium.error.ResetNeeded``). A refused input raises a
``TypeError`` (wrong kind) or ``ValueError`` (wrong value) naming the argument, the value and
what is allowed.

``examples/gym/rate_q_learning.py`` trains a tabular agent on the rate environment in about
a minute of CPU.
"""

from __future__ import annotations

import copy
import json
import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from airtcp import _core
from airtcp.config.limits import MAX_TIME_S
from airtcp.run import to_scenario

__all__ = ["CWND_FACTORS", "MIN_STEP_MS", "CongestionControlEnv", "RateControlEnv", "VectorEnv"]

# The congestion environment's actions: cwnd is multiplied by one of these [segments]. The
# core steps the environment (airtcp-core world::agent::CwndAgent) and owns the constants.
CWND_FACTORS: tuple[float, ...] = tuple(_core.CWND_FACTORS)
_CWND_MAX: int = _core.CWND_MAX
_CWND_OBS: int = _core.CWND_OBS
# The shortest step [ms]: 1 us, i.e. 1000 of the core's integer nanoseconds. Finer than any
# 802.11 timing of these worlds (OFDM aSlotTime 9 us, aSIFSTime 16 us; IEEE 802.11-2020
# Table 17-21), so a shorter step only adds calls; it keeps the step's goodput (bytes / step
# duration) away from a step rounded to 0 ns. The longest step is the episode (at most
# MAX_TIME_S), so the clock stays far inside the core's u64 nanoseconds.
MIN_STEP_MS = 1e-3
_STEP_ALLOWED = f"a number of milliseconds >= {MIN_STEP_MS:g} (1 us) and <= the episode's length"
_EPISODE_ALLOWED = f"a number of simulated seconds > 0 and <= {MAX_TIME_S:g}"
_SEED_ALLOWED = "None or an integer >= 0 (a Python int or a NumPy integer)"


def _number(value: Any, name: str, allowed: str) -> float:
    """``value`` as a finite float, else a TypeError (not a real number; bools are not) or a
    ValueError (NaN, infinite) naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: {value!r} is not a number (allowed: {allowed})")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name}: {value!r} is not finite (allowed: {allowed})")
    return x


def _episode_s(value: Any) -> float:
    x = _number(value, "episode_s", _EPISODE_ALLOWED)
    if not 0 < x <= MAX_TIME_S:
        raise ValueError(f"episode_s: {value!r} is out of range (allowed: {_EPISODE_ALLOWED})")
    return x


def _base_scenario(
    scenario: Any, episode_s: Any, default_s: float, make: Callable[[float], dict[str, Any]]
) -> dict[str, Any]:
    """The world to run: ``make(episode_s)`` (the built-in one), or a copy of ``scenario``,
    whose ``duration_s`` is the episode's length (an ``episode_s`` beside it is refused rather
    than ignored)."""
    if scenario is None:
        return make(default_s if episode_s is None else _episode_s(episode_s))
    if episode_s is not None:
        raise ValueError(
            f"episode_s: {episode_s!r} beside a scenario (allowed: None; the scenario's "
            "duration_s is the episode's length, set it there)"
        )
    if not isinstance(scenario, Mapping):
        raise TypeError(
            f"scenario: {scenario!r} is not a mapping (allowed: a dict as parsed from TOML, "
            "e.g. airtcp.gym.rate_scenario(20.0))"
        )
    return copy.deepcopy(dict(scenario))


def _seed(value: Any, name: str = "seed") -> int | None:
    """A seed as Gymnasium's ``reset`` takes it (a Python int >= 0, or None), NumPy integers
    converted; bools and floats refused."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: {value!r} is not an integer (allowed: {_SEED_ALLOWED})")
    if value < 0:
        raise ValueError(f"{name}: {value!r} is negative (allowed: {_SEED_ALLOWED})")
    return int(value)


def _check_options(options: Any) -> None:
    if options is None or (isinstance(options, Mapping) and not options):
        return
    error = ValueError if isinstance(options, Mapping) else TypeError
    raise error(f"options: {options!r} (allowed: None or {{}}; the environment takes no options)")


def _names(names: Sequence[str], most: int = 10) -> str:
    shown = ", ".join(names[:most])
    return shown + (f", ... ({len(names)} nodes)" if len(names) > most else "")


def _discrete_action(space: spaces.Discrete, action: Any, name: str) -> int:
    """``action`` as an int if ``space.contains`` it (a Python int, or a NumPy integer scalar
    or 0-d array whose dtype casts safely to the space's, within range), else a TypeError (not
    an integer) or ValueError (wrong shape or out of range) saying why."""
    if type(action) in (int, np.int64) and space.start <= action < space.start + space.n:
        return int(action)  # the common cases, without Gymnasium's checks (a few us a step)
    if space.contains(action):
        return int(action)
    lo, hi = int(space.start), int(space.start) + int(space.n) - 1
    allowed = (
        f"an integer {lo}..{hi}, as a Python int or a NumPy integer scalar or 0-d array; "
        f"the space is {space}"
    )
    numpy_int = isinstance(action, (np.generic, np.ndarray)) and np.issubdtype(
        action.dtype, np.integer
    )
    if not (isinstance(action, int) or numpy_int):
        raise TypeError(f"{name}: {action!r} is not an integer (allowed: {allowed})")
    if numpy_int and not np.can_cast(action.dtype, space.dtype):
        raise TypeError(
            f"{name}: {action!r} has dtype {action.dtype}, which does not cast safely to "
            f"{space.dtype} (allowed: {allowed})"
        )
    if numpy_int and action.shape != ():
        raise ValueError(
            f"{name}: {action!r} is an array of shape {action.shape}, not one integer "
            f"(allowed: {allowed})"
        )
    raise ValueError(f"{name}: {action!r} is out of range (allowed: {allowed})")


def _multi_discrete_action(space: spaces.MultiDiscrete, action: Any, name: str) -> np.ndarray:
    """``action`` as an int64 array if ``space.contains`` it (a list, tuple or NumPy array of
    the space's shape whose dtype casts safely to the space's, each entry within range), else
    a TypeError (not integers) or ValueError (wrong shape, out of range) saying why."""
    x = action
    if isinstance(action, np.ndarray) and space.contains(action):  # the common case, first
        return action.astype(np.int64, copy=False)
    lo, hi = space.start, space.start + space.nvec - 1
    each = (
        f"each entry {int(lo.flat[0])}..{int(hi.flat[0])}"
        if (lo == lo.flat[0]).all() and (hi == hi.flat[0]).all()
        else "entry i within start[i]..start[i] + nvec[i] - 1"
    )
    allowed = (
        f"an integer array of shape {space.shape}, {each}, as a list, tuple or NumPy array; "
        f"the space is {space}"
    )
    if isinstance(action, (str, bytes)) or not isinstance(action, (Sequence, np.ndarray)):
        raise TypeError(f"{name}: {action!r} is not an array of integers (allowed: {allowed})")
    if not isinstance(action, np.ndarray):
        try:
            x = np.array(action)
        except (ValueError, TypeError):
            raise ValueError(
                f"{name}: {action!r} is not a rectangular array (allowed: {allowed})"
            ) from None
    if space.contains(x):
        return x.astype(np.int64, copy=False)
    if not np.can_cast(x.dtype, space.dtype):
        raise TypeError(
            f"{name}: {action!r} has dtype {x.dtype}, which does not cast safely to "
            f"{space.dtype} (allowed: {allowed})"
        )
    if x.shape != space.shape:
        raise ValueError(f"{name}: {action!r} has shape {x.shape} (allowed: {allowed})")
    bad = tuple(int(i) for i in np.argwhere((x < lo) | (x > hi))[0])
    where = bad[0] if len(bad) == 1 else bad
    raise ValueError(f"{name}: {action!r} is out of range at [{where}] (allowed: {allowed})")


def _check_action(space: spaces.Space[Any], action: Any, name: str) -> Any:
    """``action`` checked against ``space`` as Gymnasium's ``contains`` defines membership."""
    if isinstance(space, spaces.Discrete):
        return _discrete_action(space, action, name)
    if isinstance(space, spaces.MultiDiscrete):
        return _multi_discrete_action(space, action, name)
    if not space.contains(action):
        raise ValueError(f"{name}: {action!r} (allowed: a member of {space})")
    return action


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
            {"kind": "udp_saturating", "src": "ap", "dst": f"sta{k + 1}", "payload_bytes": 1500}
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
        "flows": [{"kind": "tcp_bulk", "src": "server", "dst": "sta1"}],
    }


class _AirtcpEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One airtcp world stepped every ``step_ms``."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        scenario: Mapping[str, Any],
        step_ms: Any,
        sender: Any,
        receivers: Sequence[Any],
        receivers_field: str = "receivers",
    ) -> None:
        step = _number(step_ms, "step_ms", _STEP_ALLOWED)
        if not step >= MIN_STEP_MS:
            raise ValueError(f"step_ms: {step_ms!r} is under 1 us (allowed: {_STEP_ALLOWED})")
        sc = to_scenario(dict(scenario))
        self._spec_json = sc.spec_json()
        spec = json.loads(self._spec_json)
        self._duration_ns = int(spec["duration_ns"])
        if not step * 1e6 <= self._duration_ns:
            raise ValueError(
                f"step_ms: {step_ms!r} is longer than the episode ({self._duration_ns / 1e9:g} s)"
                f" (allowed: {_STEP_ALLOWED})"
            )
        names = [n["name"] for n in spec["nodes"]]
        self._node_names = names
        nodes = f"one of {_names(names)}"
        if not isinstance(sender, str):
            raise TypeError(f"sender: {sender!r} is not a node name (allowed: {nodes})")
        if sender not in names:
            raise ValueError(f"sender: no node {sender!r} (allowed: {nodes})")
        if not receivers:
            raise ValueError(f"{receivers_field}: no node (allowed: at least one node)")
        seen: set[str] = set()
        for r in receivers:
            if not isinstance(r, str):
                raise TypeError(f"{receivers_field}: {r!r} is not a node name (allowed: {nodes})")
            if r not in names:
                raise ValueError(f"{receivers_field}: no node {r!r} (allowed: {nodes})")
            if r == sender:
                raise ValueError(
                    f"{receivers_field}: {r!r} is the sender (allowed: nodes other than it)"
                )
            if r in seen:
                raise ValueError(
                    f"{receivers_field}: {r!r} twice (allowed: each node once, a row and an "
                    "action each)"
                )
            seen.add(r)
        if not spec.get("flows"):
            raise ValueError("scenario: no flow to drive (flows: an empty list)")
        self._spec = spec
        self.sender = names.index(sender)
        self.receivers = [names.index(r) for r in receivers]
        self.step_ns = round(step * 1e6)
        self.sim: Any = None
        self._ended = False
        self._t_ns = 0
        self._delivered = 0

    def _new_sim(self, seed: Any, options: Any) -> None:
        _check_options(options)
        super().reset(seed=_seed(seed))
        world_seed = int(self.np_random.integers(0, 2**63))
        self.sim = _core.Sim(self._spec_json, world_seed)
        self._ended = False
        self._t_ns = 0
        self._delivered = 0

    def _check_running(self) -> None:
        """``step()`` needs an episode: after ``reset()`` and before the episode ended."""
        name = type(self).__name__
        if self.sim is None:
            raise gymnasium.error.ResetNeeded(
                f"{name}.step(): no episode is running; call reset() first"
            )
        if self._ended:
            raise gymnasium.error.ResetNeeded(
                f"{name}.step(): the episode ended (truncated at "
                f"{self._duration_ns / 1e9:g} s); call reset() to start another"
            )

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._check_running()
        return self._step(_check_action(self.action_space, action, "action"))

    def _step(self, checked: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """:meth:`step` with ``checked`` already a member of the action space (VectorEnv
        checks a batch as a whole)."""
        raise NotImplementedError

    def _advance(self) -> tuple[float, bool]:
        """Advance one step: (the step's goodput [Mbit/s], whether the episode ended)."""
        self._t_ns += self.step_ns
        done, delivered = self.sim.advance_delivered(self._t_ns)  # every flow's, summed
        self._ended = done
        mbps = (delivered - self._delivered) * 8 / (self.step_ns / 1e9) / 1e6
        self._delivered = delivered
        return mbps, done


class RateControlEnv(_AirtcpEnv):
    """Pick the AP's data mode toward each of ``stations`` moving stations every ``step_ms``
    (module docstring). One station: a ``Discrete`` action and an observation of shape (4,);
    more: a ``MultiDiscrete`` action (a mode per station) and one row of 4 per station."""

    def __init__(
        self,
        episode_s: float | None = None,
        step_ms: float = 100.0,
        stations: int | np.integer[Any] = 1,
        scenario: Mapping[str, Any] | None = None,
        sender: str = "ap",
        receivers: Sequence[str] | None = None,
    ) -> None:
        allowed = "an integer >= 1, up to the scenario's limit on stations"
        if isinstance(stations, bool) or not isinstance(stations, (int, np.integer)):
            raise TypeError(f"stations: {stations!r} is not an integer (allowed: {allowed})")
        if stations < 1:
            raise ValueError(f"stations: {stations!r} is out of range (allowed: {allowed})")
        n = int(stations)
        base = _base_scenario(scenario, episode_s, 20.0, partial(rate_scenario, stations=n))
        if receivers is None:
            receivers = [f"sta{k + 1}" for k in range(n)]
        elif isinstance(receivers, (str, bytes)) or not isinstance(receivers, Sequence):
            raise TypeError(
                f"receivers: {receivers!r} is not a list of node names "
                "(allowed: a list or tuple of names, e.g. ['sta1'])"
            )
        super().__init__(base, step_ms, sender, receivers)
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
                self._snr[i] = min(max(float(snr), -10.0), 80.0)  # np.clip's, without its cost
            attempts, acked, _, _ = self.sim.link(self.sender, r)
            d_att, d_ack = attempts - self._link[i][0], acked - self._link[i][1]
            self._link[i] = (attempts, acked)
            # MPDUs acknowledged per MPDU transmission; one sent at a step's end and
            # acknowledged in the next counts there, so the share is held within [0, 1].
            ok = min(1.0, d_ack / d_att) if d_att else 0.0
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
        self._new_sim(seed, options)
        k = len(self.receivers)
        self._mode, self._snr, self._link = [0] * k, [0.0] * k, [(0, 0)] * k
        return self._observe()

    def _step(self, checked: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        acts = checked.reshape(-1) if self._multi else [checked]
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
        episode_s: float | None = None,
        step_ms: float = 20.0,
        delay_weight: float = 0.1,
        scenario: Mapping[str, Any] | None = None,
        sender: str = "server",
        receiver: str = "sta1",
    ) -> None:
        allowed = "a number >= 0 [Mbit/s of reward per ms of queueing delay]"
        weight = _number(delay_weight, "delay_weight", allowed)
        if weight < 0:
            raise ValueError(f"delay_weight: {delay_weight!r} is negative (allowed: {allowed})")
        base = _base_scenario(scenario, episode_s, 10.0, congestion_scenario)
        super().__init__(base, step_ms, sender, [receiver], "receiver")
        flow = self._spec["flows"][0]
        cc = (flow.get("tcp") or {}).get("cc")
        if cc is None:
            raise ValueError(
                f'flows.0: a {flow["kind"]} flow (allowed: a TCP flow with tcp.cc "agent")'
            )
        if cc != "agent":
            raise ValueError(
                f'flows.0: its tcp.cc is "{cc}" (allowed: "agent", the cc the environment drives)'
            )
        for field, name, end, verb in (
            ("sender", sender, flow["src"], "is sent by"),
            ("receiver", receiver, flow["dst"], "goes to"),
        ):
            if name != self._node_names[end]:
                raise ValueError(
                    f"{field}: {name!r} is not flow 0's (flow 0 {verb} "
                    f"{self._node_names[end]!r}; allowed: that node)"
                )
        self.delay_weight = weight
        self.action_space = spaces.Discrete(len(CWND_FACTORS))
        self.observation_space = spaces.Box(
            np.zeros(6, dtype=np.float32),
            np.array([_CWND_MAX / 100, 100.0, 100.0, 100.0, 1e4, 1e3], dtype=np.float32),
            dtype=np.float32,
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._new_sim(seed, options)
        self.sim.cwnd_agent(0, self.step_ns, self.delay_weight)
        obs = np.empty(_CWND_OBS, dtype=np.float32)
        _, _, cwnd, srtt_ms, mbps = self.sim.cwnd_observe(obs, 0)
        return obs, {"cwnd": cwnd, "srtt_ms": srtt_ms, "goodput_mbps": mbps}

    def _step(self, checked: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        # The core applies the factor to the window the last observation read, advances one
        # step and writes the observation (airtcp-core world::agent::CwndAgent::step).
        obs = np.empty(_CWND_OBS, dtype=np.float32)
        reward, done, cwnd, srtt_ms, mbps = self.sim.cwnd_step(int(checked), obs, 0)
        self._ended = done
        return obs, reward, False, done, {"cwnd": cwnd, "srtt_ms": srtt_ms, "goodput_mbps": mbps}


class VectorEnv(gymnasium.vector.VectorEnv):
    """K independent airtcp worlds stepped together in this process, batched.

    ``env_fns``: one constructor per world (e.g. ``[RateControlEnv] * 8``), all of the same
    spaces. Episodes that end are reset at the next step (Gymnasium's ``NEXT_STEP`` autoreset:
    that step returns the new episode's first observation, reward 0). ``reset(seed=s)`` seeds
    world k with ``s + k``. A batch of actions is checked as a whole against ``action_space``
    (the single environments' checks, batched) before any world steps. Worlds of
    :class:`CongestionControlEnv` step in one call to the core, which writes their
    observations, rewards and infos into arrays kept from step to step and returned as copies;
    with ``copy=False`` the observations' array itself is returned (Gymnasium's
    ``SyncVectorEnv(copy=False)``: the next step overwrites it).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, env_fns: Sequence[Callable[[], _AirtcpEnv]], copy: bool = True) -> None:
        allowed = "a non-empty list of callables returning environments, e.g. [RateControlEnv] * 8"
        if (
            callable(env_fns)
            or isinstance(env_fns, (str, bytes))
            or not isinstance(env_fns, Iterable)
        ):
            raise TypeError(f"env_fns: {env_fns!r} is not a list (allowed: {allowed})")
        fns = list(env_fns)
        if not fns:
            raise ValueError(f"env_fns: no environment (allowed: {allowed})")
        self.envs = []
        for k, fn in enumerate(fns):
            if not callable(fn):
                raise TypeError(f"env_fns[{k}]: {fn!r} is not callable (allowed: {allowed})")
            env = fn()
            if not isinstance(env, gymnasium.Env):
                raise TypeError(
                    f"env_fns[{k}]: {fn!r} returned {env!r}, not an environment "
                    f"(allowed: {allowed})"
                )
            self.envs.append(env)
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
        self._started = False
        self.copy = bool(copy)
        # Every world a CongestionControlEnv: one core call a step, into these arrays.
        self._batched = all(type(e) is CongestionControlEnv for e in self.envs)
        n = self.num_envs
        self._obs = np.zeros((n, *self.single_observation_space.shape), dtype=np.float32)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._ended = np.zeros(n, dtype=np.uint8)
        self._terminated = np.zeros(n, dtype=bool)  # these worlds never terminate
        self._info = {
            "cwnd": np.zeros(n, dtype=np.int64),
            "_cwnd": np.ones(n, dtype=bool),
            "goodput_mbps": np.zeros(n, dtype=np.float64),
            "_goodput_mbps": np.ones(n, dtype=bool),
            "srtt_ms": np.zeros(n, dtype=np.float64),
            "_srtt_ms": np.ones(n, dtype=bool),
        }

    def reset(
        self,
        *,
        seed: int | np.integer[Any] | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            first = _seed(seed)
            assert first is not None
            seeds = [first + k for k in range(n)]
        elif isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)):
            if len(seed) != n:
                raise ValueError(f"seed: {len(seed)} seeds for {n} environments (allowed: {n})")
            seeds = [_seed(s, f"seed[{k}]") for k, s in enumerate(seed)]
        else:
            raise TypeError(
                f"seed: {seed!r} (allowed: {_SEED_ALLOWED}, world k taking seed + k; or a "
                f"list of {n} such seeds)"
            )
        _check_options(options)
        obs, infos = [], []
        for e, s in zip(self.envs, seeds, strict=True):
            o, i = e.reset(seed=s, options=options)
            obs.append(o)
            infos.append(i)
        self._done[:] = False
        self._started = True
        return np.stack(obs), _batch_infos(infos)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise gymnasium.error.ResetNeeded("VectorEnv.step(): call reset() first")
        actions = _check_action(self.action_space, actions, "actions")
        if self._batched and not self._done.any():
            return self._step_batched(actions)
        n = self.num_envs
        obs, infos = [], []
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        for k, e in enumerate(self.envs):
            if self._done[k]:
                o, i = e.reset()
            else:
                # The batch was checked as a whole against action_space above.
                o, r, terminated[k], truncated[k], i = e._step(actions[k])
                rewards[k] = r
            obs.append(o)
            infos.append(i)
        self._done = terminated | truncated
        return np.stack(obs), rewards, terminated, truncated, _batch_infos(infos)

    def _step_batched(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every world's step in one call to the core (no world's episode has ended)."""
        info = self._info
        _core.cwnd_steps(
            [e.sim for e in self.envs],  # each world's current one (an env may be reset apart)
            np.ascontiguousarray(actions, dtype=np.int64),
            self._obs,
            self._rewards,
            self._ended,
            info["cwnd"],
            info["srtt_ms"],
            info["goodput_mbps"],
        )
        truncated = self._ended.view(bool)
        if truncated.any():
            self._done = truncated.copy()
            for k in np.flatnonzero(truncated):
                self.envs[k]._ended = True
        return (
            self._obs.copy() if self.copy else self._obs,
            self._rewards.copy(),
            self._terminated.copy(),
            truncated.copy(),
            {k: v.copy() for k, v in info.items()},
        )


# gymnasium.make("airtcp/RateControl-v0") and "airtcp/CongestionControl-v0"; from a string
# alone, "airtcp.gym:airtcp/RateControl-v0" imports this module first (Gymnasium >= 1.0 reads no
# plugin entry points). Registered once: a reload keeps the specs, without a warning.
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
