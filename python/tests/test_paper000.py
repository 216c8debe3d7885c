"""Paper 000's scenario (template "paper-000"): what it builds, Linux 3.12's small queues
and mesh forwarding that keep the chain's RTT near its air time, and bad knobs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import airtcp
from airtcp.config import ScenarioError, load_toml
from airtcp.config.templates import P000_BURSTY, expand_template

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "paper-000.toml"


def scenario(**over: Any) -> dict[str, Any]:
    cfg = load_toml(EXAMPLE)
    cfg.update(over)
    return cfg


def test_the_template_builds_section_iv_a() -> None:
    s = expand_template(scenario(hops=5, retry_limit=16, cc="veno", scheme="alm-adaptive"))
    assert (s["topology"], s["hops"], s["retry_limit"], s["cc"]) == ("chain", 5, 16, "veno")
    assert s["mac"]["rate_control"] == "minstrel-rt2800"
    assert s["mac"]["queue_limit_packets"] == 16  # rt2800usb_queue_init, Linux 3.12
    assert s["tcp"]["small_queues"] and s["tcp"]["recovery"] == "sack"
    assert s["duration_s"] - s["warmup_s"] == 100.0  # §IV-A: 100 s runs
    assert s["channel"]["error"] == P000_BURSTY
    assert s["mesh"]["alm_retry"] is True
    assert expand_template(scenario(channel="ideal"))["channel"]["error"] == {"kind": "none"}


@pytest.mark.parametrize(
    ("over", "where", "allowed"),
    [
        ({"hops": 0}, "hops", "1..15"),
        ({"retry_limit": 32}, "retry_limit", "0..31"),
        ({"cc": "bbr"}, "cc", "westwood"),
        ({"channel": "rayleigh"}, "channel", "bursty"),
        ({"scheme": "adaptive"}, "scheme", "alm-adaptive"),
    ],
)
def test_bad_knobs_name_the_field(over: dict[str, Any], where: str, allowed: str) -> None:
    with pytest.raises(ScenarioError) as e:
        airtcp.run(scenario(**over))
    assert where in str(e.value) and allowed in str(e.value)


def rtt_s(seed: int, **over: Any) -> float:
    res = airtcp.run(scenario(channel="ideal", duration_s=25.0, **over), seed=seed)
    return float(res.summary["flows"][0]["tcp"]["rtt_mean_s"])


def test_small_queues_keep_the_queue_off_the_source() -> None:
    # One hop: without TCP Small Queues the window fills the sender's 16-frame driver queue
    # and the 1000-packet pfifo above (387 ms of RTT). With them at most 3 data packets wait
    # below TCP; what remains is the receiver's ACKs, which contend 1:1 with the data and
    # fill its 16-frame driver queue: (3 + 2 x 16) segments at 1530 segments/s = 23 ms in
    # steady state (hand count; the mean over the run is 32 ms with the start).
    for seed in (1, 2):
        assert rtt_s(seed, hops=1) < 0.05
        assert rtt_s(seed, hops=1, tcp={"small_queues": False}) > 0.3


def test_relays_forward_past_their_qdisc() -> None:
    # Linux 3.12 ieee80211_rx_h_mesh_fwding: a forwarded frame goes straight to the driver's
    # 16-frame queue (dropped if it is full), never to the relay's pfifo. A relay's backlog is
    # thus at most 16 frames: 39 ms of RTT on 3 hops over seeds 1-2 (a pfifo would hold 1000).
    for seed in (1, 2):
        assert rtt_s(seed, hops=3) < 0.06


def synthetic(shape: dict[int, float], reps: int = 4) -> Any:
    """A runs table where every CC on both chains and channels follows ``shape`` (Mbit/s at
    each retry limit) with +-1 % spread between runs."""
    import pandas as pd

    from airtcp.reproduce.p000 import CCS, HOPS

    rows = [
        {"channel": ch, "hops": h, "cc": cc, "scheme": "fixed", "retry_limit": r,
         "throughput_bps": 1e6 * y * (1 + 0.01 * (k - 1.5)), "final_limit_mean": float("nan"),
         "timeouts": 0}
        for ch in ("bursty", "ideal") for h in HOPS for cc in CCS
        for r, y in shape.items() for k in range(reps)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_the_gain_is_the_best_of_5_to_9_over_the_lowest_limit() -> None:
    from airtcp.reproduce.p000 import gain

    # Concave: 3.0 at 1, peak 4.5 at 7, 4.0 past 9: gain 4.5 / 3.0 - 1 = 50 % (hand count).
    t = synthetic({1: 3.0, 3: 4.0, 5: 4.4, 7: 4.5, 9: 4.4, 16: 4.0, 31: 4.0})
    g, top, low = gain(t, "bursty", 3, "veno")
    assert (top, low) == (7, 1)
    assert g.value == pytest.approx(0.5, rel=1e-9)
    assert g.low < 0.5 < g.high


def test_claims_see_a_concave_curve_and_not_a_flat_one() -> None:
    from airtcp.reproduce.p000 import claims

    concave = claims(synthetic({1: 3.0, 3: 4.0, 5: 4.4, 7: 4.5, 9: 4.4, 16: 4.0, 31: 3.9}))
    by = {c.claim: c.verdict for c in concave}
    assert by["3 hops, bursty channel: every CC peaks at a limit of 5-9"] == "matches"
    assert by["3 hops, bursty channel: throughput drops past 9 retries"] == "matches"
    assert by["5 hops, bursty channel: limits below 5 lose throughput"] == "matches"
    rising = claims(synthetic({1: 3.0, 3: 3.5, 5: 3.8, 7: 4.0, 9: 4.2, 16: 4.4, 31: 4.6}))
    by = {c.claim: c.verdict for c in rising}
    assert by["3 hops, bursty channel: every CC peaks at a limit of 5-9"] == "differs"
    assert by["5 hops, bursty channel: throughput drops past 7 retries"] == "differs"
    # Table III's thought experiment is closed form: 236.8 ms and 60.8 ms (analytic tests).
    assert by["5 hops, 9 retries, normal case: frame travel time"] == "matches"


def test_the_analysis_reads_a_small_store(tmp_path: Path) -> None:
    from airtcp.reproduce import p000
    from airtcp.sweep import SweepSpec, run_sweep

    spec = SweepSpec(
        base={**p000.BASE, "duration_s": 8.0, "warmup_s": 3.0},
        grid={"cc": list(p000.CCS), "retry_limit": [1, 5, 31]},
        zips=[],
        replications=1,
        seed=1,
    )
    run_sweep(spec, tmp_path / "store", workers=1)
    t = p000.table(tmp_path / "store")
    assert len(t) == 18 and set(t["hops"]) == {3}
    claims = p000.claims(t)
    assert {c.verdict for c in claims} <= {"matches", "partly", "differs"}
    assert not any(c.claim.startswith("5 hops, bursty") for c in claims)  # not run
    paths = p000.figures(t, tmp_path / "figures")
    assert all(p.exists() for p in paths)
    report = p000.write_report(tmp_path, t, claims, paths, quick=True).read_text()
    assert "| 3 | Vegas |" in report and "| III | 5 hops, 31 retries, best case |" in report


@pytest.mark.parametrize(
    ("key", "bad", "allowed"),
    [
        ("rto_estimator", "bsd", "linux"),
        ("ack_counting", "bytes", "acks"),
        ("small_queues", 2, "true"),
    ],
)
def test_linux_312_tcp_knobs_name_the_field(key: str, bad: object, allowed: str) -> None:
    with pytest.raises(ScenarioError) as e:
        airtcp.run(scenario(tcp={key: bad}))
    assert f"tcp.{key}" in str(e.value) and allowed in str(e.value)


def test_the_probe_replaces_the_tcp_flow() -> None:
    s = expand_template(scenario(probe_mbps=0.5, fixed_rate_mbps=24, hops=4))
    assert s["flows"] == [{"kind": "udp-cbr", "src": "n0", "dst": "n4", "rate_mbps": 0.5}]
    assert "cc" not in s and s["traces"]["packets"] is True
    assert (s["mac"]["rate_control"], s["data_rate_mbps"]) == ("constant", 24.0)
    with pytest.raises(ScenarioError, match="fixed_rate_mbps"):
        airtcp.run(scenario(fixed_rate_mbps=11))


def test_the_travel_fit_and_the_measured_map() -> None:
    import pandas as pd

    from airtcp.reproduce.p000 import LIMITS, measured_map, travel_fit

    # Travel = (2 + r / 10) us per unit of metric at every metric: the fit returns it exactly
    # (r = 1 at every limit); the map interpolates between limits and holds limit 1 at 0.
    rows = [
        {"channel": "bursty", "retry_limit": r, "alm": a, "mean_ms": a * (2 + r / 10) / 1e3,
         "p99_ms": a * (2 + r / 10) / 1e3}
        for r in LIMITS for a in (150.0, 800.0, 3000.0, 7000.0)
    ]  # fmt: skip
    tt = pd.DataFrame(rows)
    fit = travel_fit(tt, "bursty")
    assert fit[7][0] == pytest.approx(2.7) and fit[7][1] == pytest.approx(1.0)
    m = measured_map(tt)
    assert len(m) == 32 and m[0] == pytest.approx(2.1) and m[1] == pytest.approx(2.1)
    assert m[12] == pytest.approx(2.9 + (3.6 - 2.9) * 3 / 7)  # between 9 and 16


def test_a_bad_travel_map_in_a_scenario_names_the_field() -> None:
    with pytest.raises(ScenarioError) as e:
        airtcp.run(scenario(mesh={"alm_travel_us_per_metric": [1.0] * 5}))
    assert "mesh.alm_travel_us_per_metric" in str(e.value) and "32" in str(e.value)


def test_the_travel_analysis_reads_probe_runs(tmp_path: Path) -> None:
    from airtcp.reproduce import p000
    from airtcp.sweep import SweepSpec, run_sweep

    spec = SweepSpec(
        base={**p000.BASE, "probe_mbps": 0.5, "duration_s": 8.0, "channel": "ideal"},
        grid={"hops": [1, 2, 3], "retry_limit": [1, 7], "fixed_rate_mbps": [6, 54]},
        zips=[],
        replications=1,
        seed=1,
    )
    run_sweep(spec, tmp_path / "store", workers=1)
    tt = p000.travel_table(tmp_path / "store")
    assert len(tt) == 12 and tt["alm"].notna().all()
    # At 6 Mbit/s a hop's metric is 1 + 8192/6 = 1366 (no failures), at 54 Mbit/s 152.
    assert set(tt[tt["rate"] == 6]["alm"] / tt[tt["rate"] == 6]["hops"]) == {1366.0}
    assert set(tt[tt["rate"] == 54]["alm"] / tt[tt["rate"] == 54]["hops"]) == {152.0}
    fit = p000.travel_fit(tt, "ideal")
    assert set(fit) == {1, 7} and all(r > 0.9 for _, r in fit.values())
    assert p000.table(tmp_path / "store").empty  # probes are not Fig. 3's runs
    assert p000.travel_figure(tt, tmp_path / "figures").exists()


TEE = Path(__file__).resolve().parents[2] / "examples" / "paper-000-tee.toml"


def test_the_tee_is_a_chain_with_a_spur_and_two_flows() -> None:
    s = expand_template({**load_toml(TEE), "spur_m": 30.0})
    names = [n["name"] for n in s["nodes"]]
    assert names == ["n0", "n1", "n2", "n3", "n4", "n5", "s"]
    assert s["nodes"][-1]["y_m"] == 30.0 and s["channel"]["fading"] == "rayleigh"
    # 7 nodes, 21 pairs, the tee's 6 links open: 15 blocked.
    assert len(s["mesh"]["blocked_links"]) == 15 and ["n2", "s"] not in s["mesh"]["blocked_links"]
    assert [(f["src"], f["dst"]) for f in s["flows"]] == [("n0", "n5"), ("s", "n3")]
    res = airtcp.run({**load_toml(TEE), "duration_s": 15.0}, seed=1)
    peers = {n["name"]: sorted(p["peer"] for p in n["mesh"]["peers"]) for n in res.summary["nodes"]}
    assert peers["n2"] == ["n1", "n3", "s"] and peers["s"] == ["n2"]
    assert all(f["goodput_bps"] > 1e5 for f in res.summary["flows"])


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        (["n0", "nx"], "mesh.blocked_links.0.1: unknown node"),
        (["n1", "n1"], "mesh.blocked_links.0: a node has no link to itself"),
        (["n1", "n2", "n3"], "mesh.blocked_links.0: not a pair"),
    ],
)
def test_bad_blocked_links_name_the_field(pair: list[str], message: str) -> None:
    cfg = {**load_toml(TEE), "mesh": {"blocked_links": [pair]}}
    with pytest.raises(ScenarioError) as e:
        airtcp.run(cfg)
    assert message in str(e.value)


def test_the_tee_analysis_reads_its_runs(tmp_path: Path) -> None:
    from airtcp.reproduce import p000
    from airtcp.sweep import SweepSpec, run_sweep

    spec = SweepSpec(
        base={**p000.TEE_BASE, "duration_s": 8.0, "warmup_s": 3.0},
        grid={"retry_limit": list(p000.LIMITS)},
        zips=[],
        replications=2,
        seed=1,
    )
    run_sweep(spec, tmp_path / "store", workers=1)
    from airtcp import sweep as sw

    hashes = {r.run_hash for r in sw.expand(spec)}
    te = p000.tee_table(tmp_path / "store", hashes, set())
    assert len(te) == 14 and (te["total_mbps"] > 0).all()
    assert (te["limit_n2"] == -1).all()  # fixed limits: no remedy logs a limit
    claims = p000.tee_claims(te)
    assert [c.claim for c in claims] == [
        "uneven mesh: the limit trades the weak path against the long one"
    ]
    assert p000.tee_figure(te, tmp_path / "figures").exists()
