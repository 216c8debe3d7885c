"""The radio channel model of a scenario (channel.model = "radio"): its defaults (ns-3's), its
errors, node mobility, and the three examples that use it."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import airtcp
from airtcp.config import Scenario, ScenarioError
from airtcp.config.load import load_toml


def _radio(**fields: object) -> dict[str, object]:
    return {"channel": {"model": "radio", **fields}}


def test_radio_defaults_are_ns3s() -> None:
    # ns-3 3.44: LogDistance n 3, L0 46.6777 dB at 1 m; YansWifiPhy 16.0206 dBm, NF 7 dB,
    # RxSensitivity -101 dBm, CcaSensitivity -82 dBm, ThresholdPreambleDetectionModel 4 dB and
    # -82 dBm, no frame capture. No range-model keys reach the world spec.
    spec = Scenario.from_dict(_radio()).to_world_spec()
    assert spec["channel"] == {
        "radio": {
            "path_loss": {
                "kind": "log-distance",
                "exponent": 3.0,
                "reference_distance_m": 1.0,
                "reference_loss_db": 46.6777,
            },
            "fading": {"kind": "none"},
            "tx_power_dbm": 16.0206,
            "tx_power_by_rate_dbm": [],
            "noise_figure_db": 7.0,
            "rx_sensitivity_dbm": -101.0,
            "rx_sensitivity_by_rate_dbm": [],
            "cca_threshold_dbm": -82.0,
            "error_model": "nist",
            "preamble_detection": {"snr_db": 4.0, "min_rssi_dbm": -82.0},
            "capture": None,
        }
    }


def test_radio_options_expand() -> None:
    spec = Scenario.from_dict(
        _radio(
            path_loss="friis",
            frequency_ghz=2.412,
            fading="nakagami",
            nakagami_m=2.0,
            coherence_ms=5.0,
            capture=True,
            preamble_detection=False,
        )
    ).to_world_spec()["channel"]["radio"]
    assert spec["path_loss"] == {"kind": "friis", "frequency_hz": 2.412e9, "system_loss_db": 0.0}
    assert spec["fading"] == {"kind": "nakagami", "m": 2.0, "coherence_ns": 5_000_000}
    assert spec["capture"] == {"margin_db": 5.0, "window_ns": 16_000}
    assert spec["preamble_detection"] is None


def test_doppler_fading_expands_and_names_its_knobs() -> None:
    spec = Scenario.from_dict(_radio(fading="doppler", doppler_hz=17.3)).to_world_spec()
    assert spec["channel"]["radio"]["fading"] == {"kind": "doppler", "doppler_hz": 17.3}
    # A moving node brings the carrier, whose wavelength turns its speed into Doppler.
    walking = {
        **_radio(fading="doppler", doppler_hz=0.0),
        "mobility": {"kind": "circle", "speed_mps": 1.0},
    }
    fading = Scenario.from_dict(walking).to_world_spec()["channel"]["radio"]["fading"]
    assert fading == {"kind": "doppler", "doppler_hz": 0.0, "carrier_hz": 5.15e9}


def test_a_circle_keeps_the_distance_to_the_origin() -> None:
    # examples/ampdu-aging.toml's station 5 m from the AP walking a circle at 1 m/s for 10 s:
    # chords of 2 x 5 x sin(pi / 64) = 0.4907 m (hand), 21 of them, each 0.4907 s; every
    # point 5 m from the origin, the chords' middles 5 cos(pi / 64) = 4.994 m.
    cfg = load_toml(AGING_EXAMPLE)
    cfg["mobility"] = {"kind": "circle", "speed_mps": 1.0}
    spec = Scenario.from_dict(cfg).to_world_spec()
    moving = [n for n in spec["nodes"] if n.get("mobility")]
    assert len(moving) == 1
    points = moving[0]["mobility"]["points"]
    assert len(points) == 22
    assert points[1]["time_ns"] == pytest.approx(0.4907e9, rel=1e-3)
    for p in points:
        assert np.hypot(*p["position_m"][:2]) == pytest.approx(5.0, abs=1e-9)
    cfg["mobility"] = {"kind": "circle", "speed_mps": 100.0}
    cfg["duration_s"] = 3600.0
    with pytest.raises(ScenarioError) as e:
        Scenario.from_dict(cfg).to_world_spec()
    assert "mobility.speed_mps" in str(e.value) and "200000 waypoints" in str(e.value)


def _circling(speed_mps: float, doppler_hz: float, seed: int) -> dict[str, int]:
    cfg = load_toml(AGING_EXAMPLE)
    cfg.update(duration_s=5.0)
    cfg["channel"] = {**cfg["channel"], "doppler_hz": doppler_hz, "frequency_ghz": 5.18}
    if speed_mps >= 0.0:
        cfg["mobility"] = {"kind": "circle", "speed_mps": speed_mps}
    else:
        cfg.pop("mobility", None)
    cfg["traces"] = {"mpdus": False}
    return airtcp.run(cfg, seed=seed).summary["nodes"][1]["mac"]


def test_a_station_walking_round_its_ap_fades_as_clarke_at_v_over_lambda() -> None:
    # The aging example's station walking round the AP at 1 m/s with no environment Doppler:
    # its links change as it travels through the scattered field, Clarke's f_D = v f / c =
    # 17.28 Hz at 5.18 GHz, so the preamble's estimate ages as under doppler_hz = 17.28 for a
    # station standing still (seeds 1-3, 5 s each: the share of MPDUs resent within 0.05 of
    # each other; measured 0.69 against 0.69). Standing on the circle (0 m/s) is the run of a
    # station that does not move.
    walking = [_circling(1.0, 0.0, s) for s in (1, 2, 3)]
    standing = [_circling(-1.0, 17.28, s) for s in (1, 2, 3)]

    def resent(macs: list[dict[str, int]]) -> float:
        return sum(m["mpdu_retries"] for m in macs) / sum(m["mpdus_sent"] for m in macs)

    assert resent(walking) > 0.3
    assert abs(resent(walking) - resent(standing)) < 0.05, (resent(walking), resent(standing))
    assert _circling(0.0, 0.0, 1) == _circling(-1.0, 0.0, 1)


DOPPLER_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rayleigh-tcp.toml"


def _mac(fading: dict[str, object], seed: int) -> dict[str, int]:
    cfg = load_toml(DOPPLER_EXAMPLE)
    cfg["channel"] = {**cfg["channel"], **fading}
    cfg["duration_s"] = 10.0
    res = airtcp.run(cfg, seed=seed)
    return res.summary["nodes"][1]["mac"]


def test_a_slow_doppler_channel_keeps_a_fade_across_the_retries() -> None:
    # Paper 004's 802.11b link (examples/rayleigh-tcp.toml): retries follow within about a
    # millisecond. Fading that changes slowly (f_D = 2 Hz, a coherence time of about 0.2 s)
    # makes a frame's retries see its fade again, so a fade that fails one attempt fails the
    # chain: frames given up at the retry limit are several times those of a fresh fade per
    # frame, over seeds 1-3 (11, 27 and 22 against 6, 3 and 5 in 10 s when measured).
    slow = sum(
        _mac({"fading": "doppler", "doppler_hz": 2.0}, s)["drops_retry_limit"] for s in (1, 2, 3)
    )
    fresh = sum(_mac({"fading": "rayleigh"}, s)["drops_retry_limit"] for s in (1, 2, 3))
    assert slow > 2 * fresh, (slow, fresh)


def test_tgn_fading_expands_with_tgns_environment_doppler() -> None:
    # Unset doppler_hz under a TGn model is TGn's v_0 = 1.2 km/h at the carrier (IEEE
    # 802.11-03/940r4 section 4.7): (1.2 / 3.6) x 5.15e9 / 299,792,458 = 5.72618 Hz at ns-3's
    # default 5.15 GHz (by hand).
    fading = Scenario.from_dict(_radio(fading="tgn-d")).to_world_spec()["channel"]["radio"][
        "fading"
    ]
    assert fading["kind"] == "tgn" and fading["model"] == "D"
    assert fading["doppler_hz"] == pytest.approx(5.72618, abs=1e-5)
    spec = Scenario.from_dict(_radio(fading="tgn-b", doppler_hz=17.3)).to_world_spec()
    assert spec["channel"]["radio"]["fading"] == {"kind": "tgn", "model": "B", "doppler_hz": 17.3}


HT_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ht-upload.toml"


def _ht(doppler_hz: float, estimation: str) -> dict[str, int]:
    cfg = load_toml(HT_EXAMPLE)
    cfg.update(distance_m=5.0, duration_s=3.0)
    cfg["channel"] = {"fading": "doppler", "doppler_hz": doppler_hz, "estimation": estimation}
    res = airtcp.run(cfg, seed=1)
    return res.summary["nodes"][1]["mac"]


def test_a_stale_estimate_loses_subframes_inside_the_aggregate() -> None:
    # An 802.11n station 5 m from its AP (SNR about 40 dB) uploads UDP at MCS 7 in A-MPDUs of
    # 28 subframes (5.5 ms). Standing still (f_D = 0) the estimate never ages: the two
    # estimation rules give the same run. At f_D = 10 Hz (0.6 m/s at 5 GHz) a subframe 5 ms
    # after the preamble meets E|h(t) - h(0)|^2 = 2 (1 - J0(0.31)) = 0.05 of the power, an
    # SINR near 13 dB where MCS 7 needs about 20: with the estimate taken at the preamble most
    # late subframes are lost while their PPDU is answered (Block-Ack retries), where the
    # ideal receiver loses about 1 % of them (measured: 68 % against 1.0 % of MPDUs resent).
    assert _ht(0.0, "ideal") == _ht(0.0, "preamble")
    ideal, stale = _ht(10.0, "ideal"), _ht(10.0, "preamble")
    assert ideal["mpdu_retries"] < 0.03 * ideal["mpdus_sent"]
    assert stale["mpdu_retries"] > 0.3 * stale["mpdus_sent"]
    # Whole PPDUs fail about as often: the loss is inside the aggregate.
    assert stale["failures"] < 3 * ideal["failures"] + 10


def _tgn(fading: str, doppler_hz: float, estimation: str) -> dict[str, int]:
    cfg = load_toml(AGING_EXAMPLE)
    cfg.update(duration_s=3.0)
    cfg["channel"] = {"fading": fading, "doppler_hz": doppler_hz, "estimation": estimation}
    cfg.pop("mobility", None)  # TGn's taps fade with the environment's Doppler alone
    cfg["traces"] = {"mpdus": False}
    return airtcp.run(cfg, seed=1).summary["nodes"][1]["mac"]


@pytest.mark.parametrize("fading", ["tgn-b", "tgn-d"])
def test_a_stale_estimate_of_a_tgn_channel_loses_subframes_not_ppdus(fading: str) -> None:
    # The aging example (MCS 7, 5 m, 20-subframe A-MPDUs) on TGn B and D: standing still the
    # two estimation rules give the same run; at 1 m/s (17.3 Hz) the preamble's estimate,
    # aged per subcarrier, loses most subframes while whole PPDUs fail about as often as
    # with an ideal receiver (measured over 10 s, D: 78 % against 9 % of MPDUs resent, 278
    # against 114 PPDUs; B: 70 % against 6 %, 191 against 109).
    assert _tgn(fading, 0.0, "ideal") == _tgn(fading, 0.0, "preamble")
    ideal, stale = _tgn(fading, 17.3, "ideal"), _tgn(fading, 17.3, "preamble")
    assert ideal["mpdu_retries"] < 0.15 * ideal["mpdus_sent"]
    assert stale["mpdu_retries"] > 0.5 * stale["mpdus_sent"]
    assert stale["failures"] < 3 * ideal["failures"] + 10


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_radio(fading="tgn-c"), "channel.fading"),
        (_radio(fading="tgn-d", doppler_hz=-2.0), "channel.doppler_hz"),
        (
            _radio(fading="tgn-b", coherence_ms=3.0),
            'channel.coherence_ms: not with channel.fading = "tgn-b"',
        ),
        (_radio(fading="doppler"), 'channel.doppler_hz: required with fading = "doppler"'),
        (_radio(estimation="once"), "channel.estimation"),
        (_radio(doppler_hz=5.0), 'channel.doppler_hz: only with channel.fading = "doppler"'),
        (
            _radio(fading="doppler", doppler_hz=5.0, coherence_ms=3.0),
            'channel.coherence_ms: not with channel.fading = "doppler"',
        ),
        (_radio(fading="doppler", doppler_hz=-1.0), "channel.doppler_hz"),
        (_radio(rx_range_m=10.0), 'channel.rx_range_m: only with channel.model = "range"'),
        ({"channel": {"fading": "rayleigh"}}, 'channel.fading: only with channel.model = "radio"'),
        (
            {"mobility": {"kind": "constant-velocity", "speed_mps": 1.0, "direction": "away"}},
            'mobility: needs channel.model = "radio"',
        ),
        (
            {**_radio(), "mobility": {"kind": "constant-velocity", "speed_mps": 1.0}},
            "mobility.direction: give exactly one of direction and heading_deg",
        ),
        (
            {
                **_radio(),
                "topology": "chain",
                "mobility": {"kind": "constant-velocity", "speed_mps": 1.0, "heading_deg": 0},
            },
            'mobility: moves the stations of topology "bss"',
        ),
        (
            _radio(tx_power_by_rate_dbm=[[5.5, 20.0]]),
            "channel.tx_power_by_rate_dbm.0: 5.5 Mbit/s is not a rate of 80211a",
        ),
        (_radio(rx_sensitivity_by_rate_dbm=[[6.0]]), "channel.rx_sensitivity_by_rate_dbm.0: "),
        (
            {**_radio(), "spacing_m": 500.0},
            "an access point whose frames it decodes at the lowest rate",
        ),
        (
            {
                **_radio(),
                "topology": "custom",
                "nodes": [
                    {"name": "ap", "role": "ap"},
                    {
                        "name": "s",
                        "role": "sta",
                        "mobility": {
                            "kind": "constant-velocity",
                            "speed_mps": 1,
                            "direction": "away",
                        },
                    },
                ],
                "flows": [{"kind": "udp_saturating", "src": "s", "dst": "ap"}],
            },
            "nodes.1.mobility.direction: s stands at the origin",
        ),
        (
            {
                **_radio(),
                "mobility": {
                    "kind": "random-waypoint",
                    "area_m": [0, 0, 10, 10],
                    "speed_min_mps": 0,
                    "speed_max_mps": 1,
                    "steady_state": True,
                },
            },
            "mobility.speed_min_mps: a steady-state start needs a positive minimum speed",
        ),
    ],
)
def test_radio_errors_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(ScenarioError) as e:
        Scenario.from_dict(data)
    assert message in str(e.value)


def test_mobility_of_bss_stations_points_away_from_the_ap() -> None:
    # Two stations at (20, 0) and (-20, 0): "away" at 5 m/s is +x for one, -x for the other.
    s = Scenario.from_dict(
        {
            **_radio(),
            "stations": 2,
            "spacing_m": 20.0,
            "mobility": {"kind": "constant-velocity", "speed_mps": 5.0, "direction": "away"},
        }
    )
    nodes = s.to_world_spec()["nodes"]
    assert "mobility" not in nodes[0]
    assert nodes[1]["mobility"]["velocity_mps"] == [5.0, 0.0, 0.0]
    assert nodes[2]["mobility"]["velocity_mps"] == [-5.0, 0.0, 0.0]


def test_waypoints_start_the_node_at_the_first_point() -> None:
    s = Scenario.from_dict(
        {
            **_radio(),
            "topology": "custom",
            "nodes": [
                {"name": "ap", "role": "ap"},
                {
                    "name": "s",
                    "role": "sta",
                    "mobility": {"kind": "waypoints", "points": [[0, 5, 0, 0], [2.5, 30, 0, 0]]},
                },
            ],
            "flows": [{"kind": "udp_saturating", "src": "s", "dst": "ap"}],
        }
    )
    node = s.to_world_spec()["nodes"][1]
    assert node["position_m"] == [5.0, 0.0, 0.0]
    assert node["mobility"]["points"][1] == {
        "time_ns": 2_500_000_000,
        "position_m": [30.0, 0.0, 0.0],
    }


def test_random_waypoint_with_zero_minimum_speed_warns() -> None:
    data = {
        **_radio(),
        "mobility": {
            "kind": "random-waypoint",
            "area_m": [-20, -20, 20, 20],
            "speed_min_mps": 0.0,
            "speed_max_mps": 10.0,
        },
    }
    with pytest.warns(UserWarning, match="decays towards zero"):
        Scenario.from_dict(data)
    data["mobility"]["speed_min_mps"] = 1.0  # type: ignore[index]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Scenario.from_dict(data)


def _load(path: Path, **sets: object) -> Scenario:
    data = load_toml(path)
    data.update(sets)
    return Scenario.from_dict(data)


def _goodput(path: Path, **sets: object) -> float:
    return float(airtcp.run(_load(path, **sets), seed=1).summary["totals"]["goodput_bps"])


def test_distance_example_goodput_falls_with_distance(examples_dir: Path) -> None:
    # 54 Mbit/s at the ns-3 defaults: SNR 24.3 dB at 20 m, above NIST's 22.7 dB for 90 % of
    # 1500-byte frames; 16.0 dB at 40 m, far below: nothing gets through (hand computation from
    # the link budget of docs/scenarios.md).
    path = examples_dir / "distance-udp.toml"
    near, far = (
        _goodput(path, spacing_m=20, duration_s=2),
        _goodput(path, spacing_m=40, duration_s=2),
    )
    assert near > 25e6
    assert far == 0.0
    # 6 Mbit/s still gets through at 40 m (SNR 16 dB against ~4 dB needed).
    assert _goodput(path, spacing_m=40, duration_s=2, data_rate_mbps=6) > 4.5e6


def test_mobile_and_rayleigh_examples_run(examples_dir: Path) -> None:
    r = airtcp.run(_load(examples_dir / "mobile-tcp.toml", duration_s=20), seed=1)
    assert r.summary["totals"]["goodput_bps"] > 5e6
    # Rayleigh fading at 25 m, exponent 4, 100 mW: mean -76.0 dBm, SNR 17.6 dB over the
    # 22 MHz noise floor. With ns-3's preamble detection (-82 dBm) every fade deeper than
    # -6 dB (22 % of frames, 1 - exp(-0.25)) is not even detected, and those detected survive
    # at 11 Mbit/s: the AP retries, the station sees no corrupt frame.
    r = airtcp.run(_load(examples_dir / "rayleigh-tcp.toml", duration_s=5), seed=1)
    ap, sta = (r.summary["nodes"][k]["mac"] for k in (0, 1))
    assert ap["retries"] > 0.1 * ap["attempts"]
    assert sta["rx_corrupt"] == 0
    # Without it, the station locks onto every frame above the sensitivity: deep fades now
    # fail in the MAC header or, with it intact, in the payload only (paper 004's case).
    data = load_toml(examples_dir / "rayleigh-tcp.toml")
    data["duration_s"] = 5.0
    data["channel"]["preamble_detection"] = False
    r = airtcp.run(Scenario.from_dict(data), seed=1)
    sta = r.summary["nodes"][1]["mac"]
    assert sta["rx_corrupt"] > 0 and 0 < sta["rx_payload_corrupt"] < sta["rx_corrupt"]
    assert r.summary["totals"]["goodput_bps"] > 0


def test_positions_and_receptions_traces(examples_dir: Path) -> None:
    from airtcp import plot

    data = load_toml(examples_dir / "mobile-tcp.toml")
    data["duration_s"] = 4.0
    data["traces"] = {"receptions": True, "positions": True}
    r = airtcp.run(Scenario.from_dict(data), seed=1)
    pos = r.traces["positions"].to_pandas()
    # sta1 (node 1) walks away from 10 m at 5 m/s: x = 10 + 5 t, exactly (closed form).
    assert set(pos["node"]) == {1}
    t_s = pos["time_ns"] / 1e9
    assert (abs(pos["x_m"] - (10.0 + 5.0 * t_s)) < 1e-9).all()
    rec = r.traces["receptions"].to_pandas()
    # The AP's 6 Mbit/s frames at the station, alone on the air: power = 20 dBm - 53.64 dB -
    # 20 log10(d) at the frame's start, SNR over -174 + 73.01 + 7 = -93.97 dBm (hand).
    first = rec[(rec["node"] == 1) & (rec["mode"] == "OfdmRate6Mbps") & ~rec["interfered"]].iloc[0]
    d = 10.0 + 5.0 * (first["time_ns"] / 1e9)
    assert abs(first["rx_dbm"] - (20.0 - 53.64 - 20 * np.log10(d))) < 0.01
    assert abs(first["snr_db"] - (first["rx_dbm"] + 93.966)) < 0.01
    assert (rec["min_sinr_db"] <= rec["snr_db"] + 1e-9).all()
    assert set(rec["outcome"]) <= {"ok", "phy_header_error", "header_error", "payload_error"}
    _, series = plot.trace(r, "positions")
    assert series["value"].iloc[-1] > 20.0
    _, series = plot.trace(r, "receptions", "snr")
    assert len(series) == len(rec)


def test_radio_traces_need_the_radio_model() -> None:
    with pytest.raises(ScenarioError) as e:
        Scenario.from_dict({"traces": {"positions": True}})
    assert 'traces.positions: needs channel.model = "radio"' in str(e.value)


AGING_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ampdu-aging.toml"


def _aging_goodput(speed_mps: float, **ht: object) -> float:
    """Goodput [bit/s] of examples/ampdu-aging.toml for 3 s at `speed_mps` with `[ht]` set."""
    cfg = load_toml(AGING_EXAMPLE)
    cfg.update(duration_s=3.0)
    cfg["ht"] = ht
    cfg["channel"] = {**cfg["channel"], "doppler_hz": 0.0, "frequency_ghz": 5.18}
    cfg["mobility"] = {"kind": "circle", "speed_mps": speed_mps}
    cfg["traces"] = {"mpdus": False}
    return float(airtcp.run(cfg, seed=1).summary["flows"][0]["goodput_bps"])


def test_subframe_errors_by_position_follow_the_aging_models_closed_form() -> None:
    # The aging example (the station walking round its AP at 1 m/s: f_D 17.28 Hz at 5.18 GHz;
    # MCS 7, 20-subframe A-MPDUs 190 us apart), 5 s: each position's share of subframes lost
    # among PPDUs a BlockAck answered, against the model computed apart from the simulator
    # (airtcp.fading.aging_subframe_errors: Clarke's Gaussian channel, MoFA's SINR, the NIST
    # curve; 50,000 draws, Monte Carlo error about 0.004) at the mean SNR of the world's own
    # link budget. Every position within its 99.9 % Wilson interval (z = 3.29, so 20 positions
    # together fail by chance about 2 % of the time) widened by the model's Monte Carlo error.
    from airtcp.config.budget import link_budgets, topology_of
    from airtcp.config.expand import SPEED_OF_LIGHT_MPS
    from airtcp.fading import aging_subframe_errors
    from airtcp.reproduce.claims import wilson_interval

    cfg = load_toml(AGING_EXAMPLE)
    cfg["duration_s"] = 5.0
    spec = Scenario.from_dict(cfg).to_world_spec()
    names = [n["name"] for n in spec["nodes"]]
    link = (names.index("sta1"), names.index("ap"), "HtMcs7", 1500)
    snr_db = float(link_budgets(topology_of(spec), [link])[0]["snr_db"])
    trace = airtcp.run(cfg, seed=1).traces["mpdus"].to_pandas()
    up = trace[(trace["node"] == names.index("sta1")) & trace["block_ack"]]
    by = up.groupby("position")
    n = by.size().to_numpy()
    k = by["fate"].apply(lambda f: int((f != "acked").sum())).to_numpy()
    offsets_s = by["offset_ns"].mean().to_numpy() * 1e-9
    step_s = float(np.diff(offsets_s).mean())
    model = aging_subframe_errors(
        1.0 * 5.18e9 / SPEED_OF_LIGHT_MPS,
        offsets_s + step_s / 2,
        round(step_s * 65e6),
        snr_db,
        draws=50_000,
    )
    lo, hi = wilson_interval(k, n, z=3.29)
    assert len(n) == 20 and n.min() > 500
    assert model[-1] > 0.8 and model[1] < 0.2  # the later subframes are the lost ones
    outside = (model < lo - 0.01) | (model > hi + 0.01)
    assert not outside.any(), list(zip(np.round(k / n, 3), np.round(model, 3), strict=True))


def test_under_mobility_shorter_aggregates_carry_more() -> None:
    # MoFA's finding in airtcp's aging model (examples/ampdu-aging.toml, MCS 7, 5 m): standing
    # still the longest aggregate carries the most (5.484 ms over 1 ms: 59.7 against 51.4
    # Mbit/s over 10 s); at 3 m/s (f_D 51.8 Hz) a 1 ms aggregate carries about three times a
    # 4 ms one (18.2 against 6.1 Mbit/s over 10 s), the later subframes lost to the stale
    # estimate.
    def fixed(speed_mps: float, max_us: int) -> float:
        return _aging_goodput(speed_mps, aggregation="ns3", max_ampdu_time_us=max_us)

    assert fixed(0.0, 5484) > fixed(0.0, 1000)
    assert fixed(3.0, 1000) > 2 * fixed(3.0, 4000)


def test_the_longest_aggregate_is_an_ht_mixed_ppdus() -> None:
    cfg = load_toml(AGING_EXAMPLE)
    cfg["ht"] = {"max_ampdu_time_us": 8000}
    with pytest.raises(ScenarioError) as e:
        airtcp.run(cfg)
    assert "ht.max_ampdu_time_us" in str(e.value) and "5484" in str(e.value)


def test_mofa_shortens_aggregates_only_under_mobility() -> None:
    # MoFA (ht.ampdu_adaptation = "mofa") against ath9k's fixed 4 ms in the aging example:
    # standing still its bound never drops below the limit (the same run); at 3 m/s it shortens
    # the aggregates the stale estimate spoils and carries several times as much (22.7 against
    # 6.1 Mbit/s over 10 s, near the best fixed length's 25.3).
    def mofa(speed_mps: float, adaptation: str) -> float:
        return _aging_goodput(speed_mps, aggregation="ath9k", ampdu_adaptation=adaptation)

    assert mofa(0.0, "mofa") == mofa(0.0, "none")
    assert mofa(3.0, "mofa") > 2.5 * mofa(3.0, "none")
