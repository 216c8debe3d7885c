"""Paper 001 end to end: the §II scenario, and `airtcp reproduce 001` writing its report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from airtcp.reproduce import ReproduceError, p001, reproduce
from airtcp.run import to_scenario

ROOT = Path(__file__).resolve().parents[2]


def _spec() -> dict:
    return json.loads(to_scenario(p001.scenario()).spec_json())


def test_the_scenario_is_defined_once() -> None:
    # Issue 31: the scenario lived in two TOML files, byte for byte, with no test tying them.
    # Now the template "paper-001" holds it; the example and the reproduction name it.
    example = ROOT / "examples" / "paper-001.toml"
    assert 'template = "paper-001"' in example.read_text()
    assert not (ROOT / "python" / "airtcp" / "reproduce" / "paper-001.toml").exists()
    from_example = to_scenario(example).spec_json()
    assert from_example == to_scenario(p001.scenario()).spec_json()
    # The frozen golden case runs the example: its world spec is the one it always was
    # (python/tests/test_golden.py guards the results).


def test_the_scenario_is_section_ii_of_the_paper() -> None:
    s = _spec()
    wifi = s["wifi"]
    # §II: 802.11b at 11 Mbit/s, basic rate 1 Mbit/s, long preamble, MAC retries disabled.
    assert (wifi["standard"], wifi["data_rate_mbps"], wifi["basic_rate_mbps"]) == ("80211b", 11, 1)
    assert wifi["preamble"] == "long"
    assert wifi["short_retry_limit"] == wifi["long_retry_limit"] == 0
    # §II: an AP, a wireless sender, a wired receiver behind the AP.
    roles = {n["name"]: (n["role"], n["wifi"]) for n in s["nodes"]}
    assert roles == {"ap": ("ap", True), "sta1": ("sta", True), "server": ("host", False)}
    # §II: one duplex link, 10 Mbit/s and 2 ms, AP <-> receiver.
    (link,) = s["wired_links"]
    names = [n["name"] for n in s["nodes"]]
    assert {names[link["a"]], names[link["b"]]} == {"ap", "server"}
    assert (link["rate_bps"], link["delay_ns"]) == (10_000_000, 2_000_000)
    assert link["loss"] == link["reverse_loss"] == 0.0
    # §II: no channel errors, no background traffic, a 1 MB file from the station to the server.
    assert s["channel"]["error"] == {"kind": "none"}
    (flow,) = s["flows"]
    assert (names[flow["src"]], names[flow["dst"]]) == ("sta1", "server")
    assert (flow["kind"], flow["file_bytes"]) == ("tcp_file", 1_000_000)
    # NS-2 2.1b9a defaults (docs/paper-001-ns2-defaults.md): packetSize_ 1000, window_ 20,
    # windowInit_ 2, no timestamps, an ACK per segment, minrto_ 1 s, rtxcur_init_ 6 s, queues 50.
    tcp = flow["tcp"]
    assert (tcp["mss_bytes"], tcp["rcv_buf_bytes"], tcp["initial_cwnd"]) == (1000, 20_000, 2)
    assert (tcp["timestamps"], tcp["ack_every"], tcp["limited_transmit"]) == (False, 1, True)
    assert (tcp["min_rto_ms"], tcp["initial_rto_ms"]) == (1000, 6000)
    assert tcp["clock_granularity_ms"] == 10  # ns-2.1b9a tcpTick_ 0.01 s
    assert wifi["queue_limit_packets"] == link["queue_limit_packets"] == 50


def test_the_sweeps_cover_the_papers_variants() -> None:
    specs = p001.sweeps(quick=True)
    tcp = specs["tcp"]
    assert tcp.grid == {"recovery": ["tahoe", "reno", "newreno"], "min_rto_ms": [1000, 200, 0]}
    skip = specs["ackskip"].base
    assert (skip["recovery"], skip["min_rto_ms"], skip["tcp"]["ack_every"]) == ("tahoe", 0, 2)
    (clap,) = specs["clap"].base["flows"]
    assert (clap["kind"], clap["file_bytes"]) == ("clap_file", 1_000_000)
    assert specs["clap"].base["clap"]["mss_bytes"] == 1000  # the TCP runs' segment size
    (probe,) = specs["probe"].base["flows"]
    assert (probe["kind"], probe["src"], probe["dst"]) == ("udp_saturating", "sta1", "server")
    # ns-2.1b9a's own NewReno beside RFC 6582's, at the headline's two minimum RTOs.
    ns2 = specs["ns2-newreno"]
    assert (ns2.base["recovery"], ns2.base["newreno_rule"]) == ("newreno", "ns-2.1b9a")
    assert ns2.grid == {"min_rto_ms": [1000, 200]} and ns2.replications == 30
    # ns-2's MAC rule as well: Tahoe and Reno, and ns-2.1b9a's NewReno (issue 36).
    mac, mac_newreno = specs["ns2-mac"], specs["ns2-mac-newreno"]
    assert mac.base["backoff_rule"] == mac_newreno.base["backoff_rule"] == "ns-2"
    assert mac.grid == {"recovery": ["tahoe", "reno", "newreno"], "min_rto_ms": [1000, 200]}
    assert mac_newreno.base["newreno_rule"] == "ns-2.1b9a" and mac_newreno.replications == 30


def test_ns2s_newreno_reaches_the_world_spec_and_needs_newreno() -> None:
    import airtcp
    from airtcp.config import ScenarioError

    spec = airtcp.Scenario.from_dict(
        {"template": "paper-001", "recovery": "newreno", "newreno_rule": "ns-2.1b9a"}
    ).to_world_spec()
    assert spec["flows"][0]["tcp"]["newreno_rule"] == "ns-2.1b9a"
    # RFC 6582's (the default) is not written: every other world's spec stays as it was.
    plain = airtcp.Scenario.from_dict({"template": "paper-001", "recovery": "newreno"})
    assert "newreno_rule" not in plain.to_world_spec()["flows"][0]["tcp"]
    with pytest.raises(
        ScenarioError, match=r'newreno_rule: .ns-2.1b9a. needs recovery = "newreno"'
    ):
        airtcp.Scenario.from_dict({"template": "paper-001", "newreno_rule": "ns-2.1b9a"})


def test_ns2s_backoff_rule_reaches_the_world_spec_only_when_set() -> None:
    import airtcp

    spec = airtcp.Scenario.from_dict(
        {"template": "paper-001", "backoff_rule": "ns-2"}
    ).to_world_spec()
    assert spec["wifi"]["backoff_rule"] == "ns-2"
    plain = airtcp.Scenario.from_dict({"template": "paper-001"}).to_world_spec()
    assert "backoff_rule" not in plain["wifi"]  # every other world's spec stays as it was

    # Every frame backs off under ns-2's rule: a lone 802.11b station sending a 0.5 Mbit/s CBR
    # on an idle medium waits, per frame, DIFS (50 us) and a backoff uniform in [0, 30] slots
    # of 20 us (mean 300 us) more than under the standard's, where a frame that finds the
    # medium idle for DIFS goes at once: 350 us by hand (2500 frames: se about 4 us).
    def delay(rule: str) -> float:
        cfg = {"topology": "bss", "stations": 1, "traffic": "udp", "standard": "80211b",
               "data_rate_mbps": 11, "duration_s": 60.0, "mac": {"backoff_rule": rule},
               "flows": [{"kind": "udp_cbr", "src": "sta1", "dst": "ap", "rate_mbps": 0.5}]}  # fmt: skip
        return airtcp.run(cfg, seed=2).summary["flows"][0]["mean_delay_s"]

    extra_us = 1e6 * (delay("ns-2") - delay("standard"))
    assert 335 < extra_us < 365, extra_us


def test_mean_and_ratio_intervals_by_hand() -> None:
    # Student t: [1, 2, 3] -> 2 +- t(0.975, 2) * 1 / sqrt(3) = 2 +- 4.3027 * 0.57735 = 2 +- 2.4841.
    from airtcp.reproduce import claims as cl
    from airtcp.reproduce.common import mean_ci

    e = mean_ci([1.0, 2.0, 3.0])
    assert (e.value, round(e.low, 4), round(e.high, 4)) == (2.0, -0.4841, 4.4841)
    # A ratio of constant samples has a degenerate interval at the ratio itself.
    r = cl.ratio_of_means([6.0, 6.0], [3.0, 3.0])  # the relative change: 2 / 1 - 1
    assert (r.point, r.low, r.high) == (1.0, 1.0, 1.0)
    # The report's rule (issue 31): a "+80 %" gain declared within a quarter of itself, the
    # band [+60, +100] %; the interval decides, not the point: +64 % [+22, +123] spans an edge.
    band = p001._change_band(0.80)
    assert band.band == pytest.approx((0.6, 1.0))
    est = cl.Estimate(0.64, 0.22, 1.23, 10, "t")
    assert band.verdict(est).word == "inconclusive"
    assert band.verdict(cl.Estimate(0.77, 0.65, 0.95, 30, "t")).word == "agrees"


def test_low_utilisation_intervals_count_long_runs_of_low_bins() -> None:
    import numpy as np

    # Available 5 Mbit/s: the threshold is 1.25. Runs of low bins: 6 bins (0.6 s, counted),
    # 3 bins (0.3 s, too short), 5 bins at the end (0.5 s, counted).
    bins = np.array([3, 0, 0, 0, 0, 0, 0, 3, 1, 1, 1, 3, 0, 0, 0, 0, 0]) * 1e6
    assert p001._low_util_intervals(bins, 5e6) == 2


@pytest.mark.slow
def test_reproduce_quick_writes_the_report_and_figures(tmp_path) -> None:
    out = tmp_path / "p001"
    seen: list[tuple[str, int, int]] = []
    report = reproduce("001", out, quick=True, progress=lambda *a: seen.append(a))
    text = report.read_text()
    assert text.startswith("# Paper 001 reproduced")
    for claim in (
        "Tahoe's throughput gain over Reno",
        "1-ACK-skip",
        "all three alike",
        "CLAP's gain over Tahoe at minRTO 1 s",
    ):
        assert claim.lower() in text.lower()
    # One verdict rule (issue 31): the words of reproduce.claims, no "matches".
    assert "**agrees**" in text and "**matches**" not in text
    # What quick mode's runs cannot decide says so; the coverage line heads the report.
    assert "**Coverage:** " in text
    # Every one of the paper's eleven figures, its number in the file name and the caption.
    names = {f for _, f in p001.PAPER_FIGURES.values()}
    assert len(p001.PAPER_FIGURES) == 11 and len(names) == 10  # Figs. 1-2 share a drawing
    for name in names:
        assert name.startswith("fig") and name[3:5].isdigit(), name
        assert (out / "figures" / name).read_bytes()[:4] == b"\x89PNG"
        assert f"![{name[:-4]}](figures/{name})" in text
    assert "*Fig. 9* (Reno/NewReno when the first retransmission is lost)" in text
    # The coverage line counts the inventory: the evaluated claims and the ones not evaluable.
    import json

    record = json.loads((out / "claims.json").read_text())
    n_eval, n_not = len(record["claims"]), len(record["not_evaluable"])
    assert n_not == len(p001.NOT_EVALUABLE) > 0
    assert (
        f"**Coverage:** {n_eval + n_not} claims in the paper (read sentence by sentence), "
        f"{n_eval} evaluated, {n_not} not evaluable"
    ) in text
    words = {"agrees", "agrees in direction", "differs", "inconclusive", "inconclusive (quick)"}
    assert {r["verdict"] for r in record["claims"]} <= words
    # Sec. V's "Tahoe still outperforms both at 0.2 s" and Insight II are claims now.
    assert "Highest throughput at minRTO 0.2 s" in text
    assert "Share of NewReno's deadlocks whose recovery lost a retransmission" in text
    # Quick mode runs the full mode's 30 TCP transfers a cell (0.1 s each): the TCP claims'
    # verdicts are the full report's (issue 31); the probe and CLAP runs are fewer.
    assert ("tcp", 270, 270) in seen and ("clap", 10, 10) in seen and ("probe", 3, 3) in seen
    full = p001.sweeps(quick=False)
    quick = p001.sweeps(quick=True)
    for name in ("tcp", "ackskip"):
        assert quick[name] == full[name], name
    assert "not measured" not in text
    # A rerun resumes: nothing is simulated again and the report is the same.
    again = reproduce("001", out, quick=True)
    assert again.read_text() == text


def test_unknown_paper_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(ReproduceError, match="'999' is not reproducible yet"):
        reproduce("999", tmp_path)
    r = subprocess.run(
        [sys.executable, "-m", "airtcp.cli", "reproduce", "999", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 2 and "allowed: 000, 001" in r.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_no_decided_quick_verdict_flips_in_the_full_run(tmp_path) -> None:
    """Issue 31: quick mode cannot mislead. Both modes of paper 001 (the full one takes about
    20 s); every claim quick mode decides (agrees, agrees in direction, differs) has the same
    verdict in the full run; the undecided ones say "inconclusive (quick)"."""
    import json

    verdicts = {}
    for mode in ("quick", "full"):
        reproduce("001", tmp_path / mode, quick=mode == "quick")
        rows = json.loads((tmp_path / mode / "claims.json").read_text())["claims"]
        verdicts[mode] = {(r["section"], r["claim"]): r["verdict"] for r in rows}
    assert verdicts["quick"].keys() == verdicts["full"].keys()
    # A verdict without "(quick)" is decided, or undecided on runs quick mode makes as the full
    # mode does: either way the full run must give the same.
    settled = {k: v for k, v in verdicts["quick"].items() if not v.endswith("(quick)")}
    assert settled, "quick mode settles none of the claims"
    flips = {k: (v, verdicts["full"][k]) for k, v in settled.items() if verdicts["full"][k] != v}
    assert not flips
    assert all(not v.endswith("(quick)") for v in verdicts["full"].values())
