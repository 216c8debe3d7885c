"""Paper 004 (LN-MAC): the template, the FER calibration against simulated frames, the corrupt-
frame policy with CDO/CNO and LN-MAC end to end, the channel unchanged by the scheme, the pcap
options under tshark, and the reproduction's analysis (docs/paper-004.md)."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from scipy import integrate

import airtcp
from airtcp import _core, fading
from airtcp.config import ScenarioError, load_toml
from airtcp.config.templates import p004_distance_m, p004_mss_bytes
from airtcp.pcap import write_pcaps

EXAMPLE = Path(__file__).parents[2] / "examples" / "paper-004.toml"


def scenario(**knobs: Any) -> dict[str, Any]:
    return {**load_toml(EXAMPLE), **knobs}


# ---------------------------------------------------------------------------------------------
# the closed form


def test_rayleigh_fer_agrees_with_an_independent_quadrature() -> None:
    # FER = 1 - int_0^inf CS(h S) e^-h dh, here by scipy's adaptive quadrature on the same
    # chunk success function; fading.fer uses fixed Gauss-Legendre panels.
    frame = fading.FrameBits.dsss(1500)
    for snr_db in (5.0, 10.0, 20.0):

        def ok(h: float, snr_db: float = snr_db) -> float:
            s = snr_db + 10 * math.log10(h)
            p = _core.chunk_success("nist", "DsssRate1Mbps", s, 48)
            return p * _core.chunk_success("nist", "DsssRate11Mbps", s, 12000) * math.exp(-h)

        pts = [10 ** (k / 4) for k in range(-40, 7)]
        total = sum(
            integrate.quad(ok, a, b, limit=200)[0] for a, b in zip(pts, pts[1:], strict=False)
        )
        # Both quadratures agree to ~1e-12 (measured: 6e-13 at 5 dB, 2e-14 above).
        assert fading.fer(snr_db, frame) == pytest.approx(1 - total, abs=1e-10)


def test_the_calibration_inverts_the_fer_and_places_the_station() -> None:
    frame = fading.FrameBits.dsss(1500)
    snr = fading.snr_db_for_fer(0.4, frame)
    assert fading.fer(snr, frame) == pytest.approx(0.4, abs=1e-4)
    # Footnote 3 of the paper: 100 mW, exponent 4, 40.05 dB at 1 m: -107 dBm at ~150 m.
    link = fading.Link()
    assert link.mean_rx_dbm(150.0) == pytest.approx(-107.1, abs=0.1)
    d = fading.distance_for_snr_db(snr, link)
    assert link.mean_rx_dbm(d) - link.noise_dbm == pytest.approx(snr, abs=1e-9)
    # Rayleigh block fading: 300-byte frames fail almost as often as 1500-byte ones.
    assert 0.3 < fading.fer(snr, fading.FrameBits.dsss(300)) < 0.4
    with pytest.raises(ValueError, match="fer"):
        fading.snr_db_for_fer(1.0, frame)


# ---------------------------------------------------------------------------------------------
# the template


def test_the_template_builds_fig5_with_table_1() -> None:
    spec = airtcp.Scenario.from_dict(scenario(scheme="cdo", fer=0.3)).to_world_spec()
    names = [n["name"] for n in spec["nodes"]]
    assert names == ["A", "B", "C"]
    c = spec["nodes"][2]["position_m"]
    assert c[0] == pytest.approx(p004_distance_m(0.3)) and c[0] == pytest.approx(36.8, abs=0.1)
    w = spec["wifi"]
    assert (w["cw_min"], w["cw_max"], w["data_header_bytes"]) == (31, 255, 30)
    assert (w["short_retry_limit"], w["pass_corrupt"]) == (0, True)
    assert "lnmac" not in w
    tcp = spec["flows"][0]["tcp"]
    assert tcp["corruption"] == "aggressive"
    # The data frame is frame_bytes: 34 MAC + 8 LLC + 40 IP/TCP + 12 timestamps + 8 CDO + MSS.
    assert tcp["mss_bytes"] == 1500 - 34 - 8 - 40 - 12 - 8 == p004_mss_bytes(1500, "cdo")
    radio = spec["channel"]["radio"]
    assert radio["cca_threshold_dbm"] == -107.0 and radio["rx_sensitivity_dbm"] == -137.0
    four = airtcp.Scenario.from_dict(scenario(interferers=1, scheme="lnmac")).to_world_spec()
    assert [n["name"] for n in four["nodes"]] == ["A", "B", "C", "D", "E"]
    assert four["wifi"]["lnmac"] is True and "pass_corrupt" not in four["wifi"]
    assert len(four["flows"]) == 2
    # Keys beside the knobs are merged over the expansion.
    merged = airtcp.Scenario.from_dict(
        scenario(duration_s=3.0, warmup_s=1.0, tcp={"timestamps": False})
    )
    assert merged.to_world_spec()["flows"][0]["tcp"]["mss_bytes"] == 1500 - 82


@pytest.mark.parametrize(
    ("knobs", "needle"),
    [
        ({"scheme": "snoop"}, "scheme"),
        ({"fer": 1.5}, "fer"),
        ({"frame_bytes": 90}, "frame_bytes"),
        ({"retry_limit": 0}, "retry_limit"),
        ({"interferers": 2}, "interferers"),
        ({"template": "paper-999"}, "template"),
    ],
)
def test_bad_knobs_name_the_field(knobs: dict[str, Any], needle: str) -> None:
    with pytest.raises(ScenarioError) as err:
        airtcp.Scenario.from_dict(scenario(**knobs))
    assert needle in str(err.value)


def test_a_data_header_must_fit_the_access() -> None:
    with pytest.raises(ScenarioError, match="data_header_bytes"):
        airtcp.Scenario.from_dict({"standard": "80211b", "mac": {"data_header_bytes": 26}})
    with pytest.raises(ScenarioError, match="corruption"):
        airtcp.Scenario.from_dict({"traffic": "tcp", "tcp": {"corruption": "maybe"}})


# ---------------------------------------------------------------------------------------------
# the simulated channel against the closed form


@pytest.mark.parametrize("channel", ["rayleigh", "bit-errors"])
def test_measured_frame_errors_match_the_closed_form(channel: str) -> None:
    # A saturating UDP flow B -> C (no frames from C but MAC ACKs): the share of exchanges
    # that fail is 1 - (1 - FER(data)) (1 - FER(ACK)), the data frame 1500 bytes.
    from airtcp.reproduce.p004 import expected_exchange_failure

    cfg = scenario(errors=channel, fer=0.3, duration_s=10.0, warmup_s=0.0)
    cfg["flows"] = [{"kind": "udp_saturating", "src": "B", "dst": "C", "payload_bytes": 1500 - 70}]
    cfg["tcp"] = {}
    s = airtcp.run(cfg, seed=7).summary
    b = s["nodes"][1]["mac"]
    n = b["attempts"] - b["collisions"]
    got = (b["failures"] - b["collisions"]) / n
    _, expect = expected_exchange_failure(channel, 0.3, 1500)
    sigma = math.sqrt(expect * (1 - expect) / n)
    assert n > 3000
    assert abs(got - expect) < 4 * sigma, (got, expect, sigma)


# ---------------------------------------------------------------------------------------------
# the schemes end to end


def test_cdo_answers_corrupt_frames_and_plain_drops_them() -> None:
    plain = airtcp.run(scenario(retry_limit=2, duration_s=15.0), seed=3).summary
    cdo = airtcp.run(scenario(scheme="cdo", retry_limit=2, duration_s=15.0), seed=3).summary
    assert "corruption" not in plain["flows"][0]["tcp"]
    assert "rx_corrupt_up" not in plain["nodes"][2]["mac"]
    c = cdo["nodes"][2]["mac"]
    k = cdo["flows"][0]["tcp"]["corruption"]
    # Every corrupt data frame with an intact MAC header went up; the receiver answered those
    # whose headers held (payload only) with a CNO unless it held the segment.
    assert c["rx_corrupt_up"] > 20
    assert c["rx_payload_only"] <= c["rx_corrupt_up"]
    assert 0 < k["cno_sent"] <= c["rx_payload_only"]
    assert k["cno_sent"] + k["corrupt_ignored"] <= c["rx_payload_only"]
    # Each CNO that reached A made one retransmission (aggressive: no window cut).
    assert 0 < k["cno_received"] <= k["cno_sent"]
    # At most one each: none when a partial ACK in recovery has just resent the segment.
    assert 0 < k["cno_retransmits"] <= k["cno_received"]


def test_lnmac_notifies_segments_lost_over_the_air() -> None:
    s = airtcp.run(scenario(scheme="lnmac", fer=0.2, duration_s=15.0), seed=5).summary
    c = s["nodes"][2]["mac"]
    k = s["flows"][0]["tcp"]["corruption"]
    assert "rx_corrupt_up" not in c  # LN-MAC alone passes no corrupt frame up
    assert c["lnmac_notifications"] > 10
    # Every notification is answered with a CNO unless the segment arrived meanwhile.
    assert k["cno_sent"] + k["corrupt_ignored"] == c["lnmac_notifications"]
    # ... and each CNO that reached A retransmitted the segment (throughput is the
    # reproduction's business: one seed says little at FER 0.2 with one attempt).
    assert 0 < k["cno_retransmits"] <= k["cno_received"]


def test_the_scheme_does_not_change_the_channel() -> None:
    # With LN-MAC on and off the traffic differs, but the fade of a link in a coherence block is
    # the same: every data frame B -> C received in the same 10 ms block in both runs had the
    # same power (fades are a function of seed, link and time, never of the traffic).
    def powers(scheme: str) -> dict[int, set[float]]:
        cfg = scenario(scheme=scheme, retry_limit=6, duration_s=4.0, warmup_s=0.0)
        cfg["channel"] = {"coherence_ms": 10.0}
        cfg["traces"] = {"receptions": True}
        t = airtcp.run(cfg, seed=11).traces["receptions"].to_pandas()
        data = t[(t["node"] == 2) & (t["src"] == 1) & (t["kind"] == "data")]
        # A 1500-byte frame at 11 Mbit/s lasts 1.3 ms: one that ends 2 ms into a block began in it.
        data = data[(data["time_ns"] % 10_000_000) > 2_000_000]
        out: dict[int, set[float]] = {}
        for ns, dbm in zip(data["time_ns"], data["rx_dbm"], strict=True):
            out.setdefault(int(ns) // 10_000_000, set()).add(round(float(dbm), 9))
        return out

    on, off = powers("lnmac"), powers("plain")
    shared = sorted(set(on) & set(off))
    assert len(shared) > 100
    for block in shared:
        assert on[block] == off[block] and len(on[block]) == 1, block


def test_the_third_reading_answers_a_segment_once_an_rtt() -> None:
    # LN-MAC with corrupt frames passed up, 6 attempts, FER 40 %, D 20 ms, seed 1 (airtcp's
    # runs): every corrupt copy answered, 1424 CNOs and 362 copies ignored (segments held
    # already); one CNO per segment per RTT, 1284 and 462. The copies the MAC's retries bring
    # within an RTT are the ones left unanswered; most CNOs stay, each naming a segment whose
    # first corrupt copy the MAC would still have delivered.
    def counts(scheme: str) -> dict[str, int]:
        r = airtcp.run(EXAMPLE, seed=1, overrides={"scheme": scheme, "retry_limit": 6,
                                                   "fer": 0.4, "delay_ms": 20.0})  # fmt: skip
        return r.summary["flows"][0]["tcp"]["corruption"]

    every, once = counts("lnmac-cdo"), counts("lnmac-once")
    assert (
        once["cno_sent"] < every["cno_sent"] and once["corrupt_ignored"] > every["corrupt_ignored"]
    )
    assert (every["cno_sent"], once["cno_sent"]) == (1424, 1284)
    with pytest.raises(airtcp.ScenarioError, match=r"tcp\.cno_once_per_rtt"):
        airtcp.run(EXAMPLE, overrides={"scheme": "plain", "tcp.cno_once_per_rtt": True})


# ---------------------------------------------------------------------------------------------
# pcap


TSHARK = shutil.which("tshark")


@pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (scripts/setup.sh)")
def test_tshark_decodes_the_cdo_and_cno_options(tmp_path: Path) -> None:
    cfg = scenario(scheme="cdo", retry_limit=2, duration_s=3.0, warmup_s=0.0)
    cfg["traces"] = {"frames": True}
    result = airtcp.run(cfg, seed=3)
    assert result.summary["flows"][0]["tcp"]["corruption"]["cno_sent"] > 0
    pcaps = write_pcaps(result, tmp_path / "pcap")
    wired = next(p for p in pcaps if p.name.startswith("A-"))
    assert TSHARK is not None

    def rows(filt: str, fields: list[str]) -> list[list[str]]:
        cmd = [TSHARK, "-n", "-r", str(wired), "-T", "fields", "-E", "separator=\t", "-Y", filt]
        for f in fields:
            cmd += ["-e", f]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        return [line.split("\t") for line in out.splitlines()]

    fields = ["tcp.len", "tcp.option_len", "tcp.options.experimental.exid", "tcp.hdr_len"]
    data = rows("tcp.len > 0", fields)
    assert data and all("8" in r[1].split(",") and "0xcd01" in r[2] for r in data)
    cnos = rows("tcp.options.experimental.exid == 0xc701", fields)
    assert cnos and all(r[0] == "0" and "4" in r[1].split(",") for r in cnos)
    # Header lengths: 20 + 12 timestamps + 8 CDO on data, 20 + 12 + 4 CNO on a CNO ACK.
    assert {r[3] for r in data} == {"40"} and {r[3] for r in cnos} == {"36"}
    # The CDO's CRC32c covers addresses, ports, sequence and acknowledgment numbers, the
    # control bits but URG and PSH, and the ECN field: recompute every one here.
    fields = ["ip.src", "ip.dst", "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw",
              "tcp.flags", "ip.dsfield.ecn", "tcp.options.experimental.data"]  # fmt: skip
    raw = rows("tcp.len > 0", fields)
    assert raw
    for src, dst, sport, dport, seq, ack, flags, ecn, crc in raw:
        covered = (
            bytes(int(x) for x in src.split("."))
            + bytes(int(x) for x in dst.split("."))
            + int(sport).to_bytes(2, "big")
            + int(dport).to_bytes(2, "big")
            + int(seq).to_bytes(4, "big")
            + int(ack).to_bytes(4, "big")
            + bytes([int(flags, 16) & 0xD7, int(ecn)])
        )
        assert crc32c(covered) == int(crc, 16)


def crc32c(data: bytes) -> int:
    """CRC32c (Castagnoli, reflected 0x82F63B78; RFC 3720 B.4), bit by bit."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def test_crc32c_of_the_check_string() -> None:
    assert crc32c(b"123456789") == 0xE3069283  # RFC 3720 / iSCSI check value


# ---------------------------------------------------------------------------------------------
# the report


def _runs(rows: list[tuple[str, int, float]], **cond: Any) -> Any:
    """A table of runs as p004.table gives it: (scheme, replication, throughput [Mbit/s])."""
    import pandas as pd

    base = {"scenario": "paper-004", "channel": "rayleigh", "interferers": 0, "retry_limit": 1,
            "delay_ms": 20.0, "fer": 0.4, "frame_bytes": 1500, **cond}  # fmt: skip
    cols = [*base, "scheme", "replication", "throughput_mbps", "b_failed", "b_attempts"]
    return pd.DataFrame(
        [{**base, "scheme": s, "replication": r, "throughput_mbps": y} for s, r, y in rows],
        columns=cols,
    )


def test_a_paired_difference_by_hand() -> None:
    # Paired by seed: differences 2, 3, 4 -> 3 +- t(0.975, 2) * 1 / sqrt(3) = 3 +- 2.4841.
    from airtcp.reproduce import claims as cl
    from airtcp.reproduce import p004

    t = _runs([("lnmac", 0, 3.0), ("lnmac", 1, 5.0), ("lnmac", 2, 7.0),
               ("plain", 0, 1.0), ("plain", 1, 2.0), ("plain", 2, 3.0)])  # fmt: skip
    e = p004._pdiff(t, "lnmac", "plain", "throughput_mbps")
    assert (e.point, e.n) == (3.0, 3)
    assert (e.low, e.high) == pytest.approx((3 - 2.4841377, 3 + 2.4841377))
    assert cl.Direction(+1).verdict(e).word == "agrees"
    assert cl.Direction(-1).verdict(e).word == "differs"
    # Unpaired, the same numbers would not decide it (plain's spread adds to LN-MAC's).
    welch = cl.mean_interval([3.0, 5.0, 7.0]).low - cl.mean_interval([1.0, 2.0, 3.0]).high
    assert welch < 0 < e.low


def test_the_bonferroni_level_and_the_declared_combination() -> None:
    from airtcp.reproduce import claims as cl
    from airtcp.reproduce import p004

    assert p004._level(1) == pytest.approx(0.95) and p004._level(5) == pytest.approx(0.99)
    up = cl.Direction(+1)

    def v(lo: float, hi: float) -> cl.Verdict:
        return up.verdict(cl.Estimate((lo + hi) / 2, lo, hi, 6, "t"))

    agree, differ, open_ = v(0.1, 0.3), v(-0.3, -0.1), v(-0.1, 0.3)
    assert p004.every([("a", agree), ("b", agree)]).word == "agrees"
    # One condition against the paper is enough to differ; "at least one agrees" is no rule.
    combined = p004.every([("a", agree), ("b", differ), ("c", open_)])
    assert combined.word == "differs" and "b:" in combined.reason and "1 differs" in combined.reason
    undecided = p004.every([("a", agree), ("c", open_)])
    assert undecided.word == "inconclusive" and undecided.needed is not None
    with pytest.raises(ValueError):
        p004.every([])


def test_the_winner_must_be_the_papers() -> None:
    # LN-MAC 5, 6, 7; CDO/CNO 4, 5, 6.5; plain 1, 2, 3 (paired). LN-MAC - CDO: 1, 1, 0.5, mean
    # 0.8333, sd 0.2887; each rival at 1 - 0.05/2: t(0.9875, 2) = 6.2053, half 1.0342: the
    # margin's interval [-0.2009, 1.8676] spans 0.
    from airtcp.reproduce import claims as cl
    from airtcp.reproduce import p004

    lnmac, cdo, plain = {0: 5.0, 1: 6.0, 2: 7.0}, {0: 4.0, 1: 5.0, 2: 6.5}, {0: 1.0, 1: 2.0, 2: 3.0}
    samples = {"plain": plain, "cdo": cdo, "lnmac": lnmac}
    order = cl.Ordering("lnmac", ("plain", "cdo", "lnmac"))
    m = p004.winner_margin_t(samples, "lnmac")
    assert m.point == pytest.approx(0.8333333)
    assert (m.low, m.high) == pytest.approx((0.8333333 - 1.0342245, 0.8333333 + 1.0342245))
    assert "closest rival: cdo" in m.detail
    assert order.verdict(m).word == "inconclusive"
    # CDO/CNO 4 above LN-MAC in every replication: the paper's winner loses, named.
    m = p004.winner_margin_t({**samples, "cdo": {k: x + 4 for k, x in lnmac.items()}}, "lnmac")
    assert (m.point, m.low, m.high) == (-4.0, -4.0, -4.0)
    assert order.verdict(m).word == "differs" and "ahead of lnmac: cdo" in m.detail
    # LN-MAC's large gain over plain does not count when CDO/CNO is not beaten: the margin is
    # over the best rival, not the gain over plain.
    m = p004.winner_margin_t({"plain": plain, "cdo": {0: 5.0, 1: 6.0, 2: 7.0}, "lnmac": lnmac},
                             "lnmac")  # fmt: skip
    assert m.point == 0.0 and order.verdict(m).word != "agrees"


def test_footnote_3_and_the_pooled_failure_by_hand() -> None:
    import pandas as pd

    from airtcp.reproduce import p004

    # 100 mW (20 dBm) - (-107 dBm) - 40.05 dB at 1 m, exponent 4: 10^(86.95 / 40) = 149.19 m.
    t = _runs([])
    rows = p004.claims(t)
    (range_row,) = [r for r in rows if "footnote 3" in r.section]
    assert range_row.airtcp == "149.2 m" and range_row.verdict == "agrees"
    # Pooled: (10 + 30) / (100 + 100) = 0.2; a ratio in [0, 1] stays there.
    g = pd.DataFrame({"b_failed": [10, 30, 20], "b_attempts": [100, 100, 100]})
    e = p004._pooled(g)
    assert e.point == pytest.approx(0.2) and 0 <= e.low <= e.point <= e.high <= 1


def test_the_inventory_and_the_figure_names() -> None:
    from airtcp.reproduce import p004

    # Every claim of the paper: the evaluated ones by id, the rest with why.
    assert len(p004.EVALUATED) + len(p004.NOT_EVALUABLE) == p004.INVENTORY == 24
    assert len(set(p004.EVALUATED)) == len(p004.EVALUATED)
    assert all(n.why for n in p004.NOT_EVALUABLE)
    # The paper's figures by number, each with its axis.
    assert sorted(p004.FIGURES) == [6, 7, 8, 9, 10, 12, 13]


def test_the_analysis_reads_a_small_store(tmp_path: Path) -> None:
    from airtcp.reproduce import p004, paper
    from airtcp.sweep import SweepSpec, run_sweep

    spec = SweepSpec(
        base={**p004.BASE, "duration_s": 4.0, "warmup_s": 1.0, "retry_limit": 6},
        grid={"scheme": list(p004.SCHEMES), "fer": [0.1, 0.3]},
        zips=[],
        replications=2,
        seed=1,
        paired=("scheme",),
    )
    run_sweep(spec, tmp_path / "store", workers=1)
    t = p004.table(tmp_path / "store")
    assert len(t) == 20 and set(t["scheme"]) == set(p004.SCHEMES)
    # Paired: the five schemes of a replication share its seed.
    assert t.groupby(["fer", "replication"])["run_hash"].nunique().eq(5).all()
    detail: list = []
    claims = p004.claims(t, detail)
    assert {c.verdict for c in claims} <= set(paper.VERDICT_WORDS)
    sections = {c.section for c in claims}
    # Retry limit 6 only: Fig. 9's claims are judged, Fig. 10's (one attempt) are not there.
    assert "III-A, Fig. 9" in sections and "III-A, Fig. 10" not in sections
    assert any(d[0] == "fig9-cdo-duplicates" for d in detail)
    # The headlines: the paper's LN-MAC and, beside it, the third reading (one CNO per RTT).
    heads = p004.headlines(t, claims, quick=True)
    assert [h.headline for h in heads] == [p004.HEADLINES[q] for q in p004.HEADLINES
                                           if any(c.claim == q for c in claims)]  # fmt: skip
    assert heads and all(h.under is not None and h.under.claim == h.claim.claim for h in heads)
    # Figures and the report are drawn from whatever the store holds.
    paths, captions = p004.figures(t, tmp_path / "figures")
    assert all(p.exists() for p in paths)
    numbered = [p.name for p in paths if p.name.startswith("fig")]
    assert {int(n[3:].split("-")[0]) for n in numbered} == set(p004.FIGURES)
    for name in numbered:
        assert captions[name].startswith(f"Fig. {int(name[3:].split('-')[0])} of the paper")
    report = paper.Report(claims, p004.NOT_EVALUABLE, p004._method(t),
                          p004._sections(t, detail), paths, captions)  # fmt: skip
    text = "\n".join(paper.report_lines(p004, report, quick=True))
    assert text.startswith("# Paper 004 reproduced: LN-MAC")
    assert "| III-A, Fig. 9 |" in text and "0.1 | 1500 |" in text
    assert f"{len(claims) + len(p004.NOT_EVALUABLE)} claims in the paper" in text
    for word in ("matches", "partly", "not run"):
        assert f"**{word}**" not in text


def test_the_figures_intervals_stay_at_or_above_zero() -> None:
    # Student t at n = 3 reaches below 0 for a throughput or a count; the curves clip at 0.
    from airtcp.reproduce.common import mean_ci

    e = mean_ci([0.0, 0.0, 0.03], floor=0.0)
    assert e.low == 0.0 and e.high > e.value


@pytest.mark.slow
def test_reproduce_quick_end_to_end(tmp_path: Path) -> None:
    import json

    from airtcp.reproduce import p004, paper, reproduce

    out = tmp_path / "p004"
    text = reproduce("004", out, quick=True).read_text()
    assert f"**Coverage:** {p004.INVENTORY} claims in the paper" in text
    assert f"{len(p004.EVALUATED)} evaluated, {len(p004.NOT_EVALUABLE)} not evaluable" in text
    rows = json.loads((out / "claims.json").read_text())["claims"]
    assert len(rows) == len(p004.EVALUATED)
    words = {r["verdict"].removesuffix(" (quick)") for r in rows}
    assert words <= set(paper.VERDICT_WORDS)
    # Every differs names its cause: tested by a run, or a hypothesis.
    for r in rows:
        if r["verdict"] == "differs":
            assert "ause" in r["why"] or "ypothesis" in r["why"], r
    for no in p004.FIGURES:
        (png,) = (out / "figures").glob(f"fig{no}-*.png")
        assert png.read_bytes()[:4] == b"\x89PNG"
        assert f"Fig. {no} of the paper" in text
    assert (out / "report.html").exists() and (out / "runs.csv").exists()


def test_what_a_cause_run_shows() -> None:
    from airtcp.reproduce import claims as cl
    from airtcp.reproduce import p004

    def e(lo: float, hi: float) -> cl.Estimate:
        return cl.Estimate((lo + hi) / 2, lo, hi, 6, "t")

    effect = e(-0.033, -0.019)  # LN-MAC below plain
    assert "vanishes" in p004.cause_text(effect, e(-0.01, 0.01))
    assert "reverses" in p004.cause_text(effect, e(0.01, 0.02))
    assert "a part of the cause" in p004.cause_text(effect, e(-0.012, -0.002))
    assert "not the cause" in p004.cause_text(effect, e(-0.03, -0.02))
    assert "no effect" in p004.cause_text(e(-0.01, 0.01), e(-0.01, 0.01))
    # The same for an effect above 0 (LN-MAC's longer RTT).
    assert "vanishes" in p004.cause_text(e(0.8, 2.2), e(-0.1, 0.2))
    assert "a part of the cause" in p004.cause_text(e(0.8, 2.2), e(0.2, 0.5))
