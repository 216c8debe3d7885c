"""The validation ladder's closed-form rungs: airtcp against TMT and Bianchi's model.

Each case runs airtcp on a saturation scenario and sets the result beside the closed form
from :mod:`airtcp.analytic`. ``airtcp validate`` prints the table and writes it under
``results/validation`` (``validation.json`` and ``validation.md``); ``python/tests/
test_validation.py`` asserts the same cases, so the figures in docs/validation.md and the
tests never drift apart.

Tolerances (the issue's acceptance bounds, see docs/validation.md):

- one station: goodput within 1 % of the theoretical maximum throughput (Jun et al. 2003);
- N stations: goodput within 3 % of Bianchi's throughput with the collision time the
  receivers impose (EIFS; DIFS with ``channel.preamble_detection``),
  collision probability per channel access within 0.02 of Bianchi's p. One known, explained
  exception: under DCF on 802.11a with N >= 10 the simulated p lies 0.015-0.035 *below*
  Bianchi's, because the standard's DCF freezes the backoff counter through busy slots
  (10.3.4.3) while Bianchi's chain decrements it in every slot (as EDCA does, 10.22.2.4).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from airtcp import analytic
from airtcp.outpath import atomic_directory
from airtcp.run import run

__all__ = [
    "MAX_DURATION_S",
    "MAX_SEEDS",
    "MIN_DURATION_S",
    "BianchiCase",
    "TmtCase",
    "bianchi_cases",
    "known_dcf_bias",
    "run_bianchi",
    "run_tmt",
    "tmt_cases",
    "write_report",
]

PAYLOAD_BYTES = 1500
# `airtcp validate`: measured seconds per run and replications per case. Below 0.1 s a
# saturated link delivers too few frames to compare; 10^4 s of every case takes hours.
MIN_DURATION_S = 0.1
MAX_DURATION_S = 10_000.0
MAX_SEEDS = 100


@dataclass(frozen=True)
class TmtCase:
    standard: str
    data_rate_mbps: float
    basic_rate_mbps: float
    erp_mixed: bool = False


@dataclass(frozen=True)
class BianchiCase:
    standard: str
    data_rate_mbps: float
    basic_rate_mbps: float
    stations: int
    access: str = "dcf"
    preamble_detection: bool = False

    @property
    def collision(self) -> str:
        """The Bianchi collision-time variant this case must match.

        Under the standard's EIFS rule bystanders defer EIFS after a collision (Tc = DATA +
        EIFS). With preamble detection, frames that start in the same slot are detected by
        nobody, so bystanders defer only DIFS (Tc = DATA + DIFS), as in ns-3.
        """
        return "difs" if self.preamble_detection else "eifs"


def tmt_cases() -> list[TmtCase]:
    """The single-station cases of the foundation issue."""
    return [
        TmtCase("80211b", 11, 1),
        TmtCase("80211a", 6, 6),
        TmtCase("80211a", 54, 6),
        TmtCase("80211g", 54, 6),
    ]


def bianchi_cases(
    variants: Iterable[tuple[str, bool]] = (("dcf", False), ("edca", False), ("dcf", True)),
) -> list[BianchiCase]:
    """N = 2, 5, 10, 20, 50 saturated stations on 802.11a 54/6 and 802.11b 11/1, for each
    (access, preamble_detection) variant."""
    return [
        BianchiCase(std, data, basic, n, acc, pd)
        for acc, pd in variants
        for std, data, basic in (("80211a", 54, 6), ("80211b", 11, 1))
        for n in (2, 5, 10, 20, 50)
    ]


def known_dcf_bias(case: BianchiCase) -> bool:
    """Cases where DCF's frozen backoff counter puts p below Bianchi's by more than 0.02."""
    return case.access == "dcf" and case.standard == "80211a" and case.stations >= 10


def _scenario(
    standard: str,
    data: float,
    basic: float,
    stations: int,
    access: str,
    duration_s: float,
    erp_mixed: bool = False,
    preamble_detection: bool = False,
) -> dict[str, Any]:
    return {
        "name": f"validation-{standard}-{stations}",
        "topology": "bss",
        "stations": stations,
        "standard": standard,
        "erp_mixed": erp_mixed,
        "data_rate_mbps": data,
        "basic_rate_mbps": basic,
        "payload_bytes": PAYLOAD_BYTES,
        "duration_s": duration_s + 1.0,
        "warmup_s": 1.0,
        "mac": {"access": access},
        "channel": {"preamble_detection": preamble_detection},
    }


def _mean_over_seeds(scenario: dict[str, Any], seeds: Sequence[int]) -> tuple[float, float, float]:
    goodputs, probs, walls = [], [], []
    for seed in seeds:
        r = run(scenario, seed=seed)
        goodputs.append(r.summary["totals"]["goodput_bps"])
        probs.append(r.summary["totals"]["collision_probability"])
        walls.append(r.summary["wall_seconds"])
    return statistics.fmean(goodputs), statistics.fmean(probs), sum(walls)


def run_tmt(case: TmtCase, duration_s: float = 20.0, seeds: Sequence[int] = (1,)) -> dict[str, Any]:
    """One saturated station against the theoretical maximum throughput."""
    sc = _scenario(
        case.standard,
        case.data_rate_mbps,
        case.basic_rate_mbps,
        1,
        "dcf",
        duration_s,
        case.erp_mixed,
    )
    goodput, _, wall = _mean_over_seeds(sc, seeds)
    tmt = analytic.tmt_bps(
        case.standard,
        case.data_rate_mbps,
        case.basic_rate_mbps,
        PAYLOAD_BYTES,
        erp_mixed=case.erp_mixed,
    )
    return {
        **asdict(case),
        "goodput_bps": goodput,
        "tmt_bps": tmt,
        "error": goodput / tmt - 1.0,
        "wall_seconds": wall,
    }


def run_bianchi(
    case: BianchiCase, duration_s: float = 30.0, seeds: Sequence[int] = (1, 2, 3)
) -> dict[str, Any]:
    """N saturated stations against Bianchi's model (both collision-time variants)."""
    sc = _scenario(
        case.standard,
        case.data_rate_mbps,
        case.basic_rate_mbps,
        case.stations,
        case.access,
        duration_s,
        preamble_detection=case.preamble_detection,
    )
    goodput, p, wall = _mean_over_seeds(sc, seeds)
    args = (case.stations, case.standard, case.data_rate_mbps, case.basic_rate_mbps, PAYLOAD_BYTES)
    eifs = analytic.bianchi(*args, access=case.access, collision="eifs")
    difs = analytic.bianchi(*args, access=case.access, collision="difs")
    ref = eifs if case.collision == "eifs" else difs
    return {
        **asdict(case),
        "collision": case.collision,
        "error": goodput / ref.throughput_bps - 1.0,
        "goodput_bps": goodput,
        "bianchi_eifs_bps": eifs.throughput_bps,
        "bianchi_difs_bps": difs.throughput_bps,
        "error_eifs": goodput / eifs.throughput_bps - 1.0,
        "error_difs": goodput / difs.throughput_bps - 1.0,
        "p": p,
        "bianchi_p": eifs.p,
        "p_error": p - eifs.p,
        "known_dcf_bias": known_dcf_bias(case),
        "wall_seconds": wall,
    }


def _markdown(tmt: list[dict[str, Any]], bianchi: list[dict[str, Any]]) -> str:
    lines = [
        "# airtcp validation against closed-form models",
        "",
        "## One saturated station vs. theoretical maximum throughput (1500-byte UDP payload)",
        "",
        "| standard | data/basic Mbit/s | airtcp Mbit/s | TMT Mbit/s | error |",
        "|---|---|---|---|---|",
    ]
    for r in tmt:
        lines.append(
            f"| {r['standard']} | {r['data_rate_mbps']:g}/{r['basic_rate_mbps']:g} "
            f"| {r['goodput_bps'] / 1e6:.3f} | {r['tmt_bps'] / 1e6:.3f} | {r['error'] * 100:+.2f} % |"
        )
    lines += [
        "",
        "## N saturated stations vs. Bianchi (finite retry limit 6; EIFS and DIFS collision time)",
        "",
        "Reference variant in bold: EIFS under the standard's rule, DIFS with preamble detection.",
        "",
        "| access | preamble det. | standard | N | airtcp Mbit/s | Bianchi-EIFS | err "
        "| Bianchi-DIFS | err | airtcp p | Bianchi p | dp |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in bianchi:
        mark = " (DCF freeze)" if r["known_dcf_bias"] else ""
        e, d = f"{r['error_eifs'] * 100:+.2f} %", f"{r['error_difs'] * 100:+.2f} %"
        e, d = (f"**{e}**", d) if r["collision"] == "eifs" else (e, f"**{d}**")
        lines.append(
            f"| {r['access']} | {'yes' if r['preamble_detection'] else 'no'} "
            f"| {r['standard']} {r['data_rate_mbps']:g}/{r['basic_rate_mbps']:g} "
            f"| {r['stations']} | {r['goodput_bps'] / 1e6:.3f} "
            f"| {r['bianchi_eifs_bps'] / 1e6:.3f} | {e} "
            f"| {r['bianchi_difs_bps'] / 1e6:.3f} | {d} "
            f"| {r['p']:.4f} | {r['bianchi_p']:.4f} | {r['p_error']:+.4f}{mark} |"
        )
    return "\n".join(lines) + "\n"


def write_report(
    out_dir: str | Path, tmt: list[dict[str, Any]], bianchi: list[dict[str, Any]]
) -> Path:
    """Write validation.json and validation.md into ``out_dir`` atomically; a report airtcp
    wrote there before is replaced, anything else in the directory is refused or left alone
    (:func:`airtcp.outpath.atomic_directory`)."""
    out = Path(out_dir)
    with atomic_directory(out, "validation report", kind="validate") as tmp:
        (tmp / "validation.json").write_text(json.dumps({"tmt": tmt, "bianchi": bianchi}, indent=2))
        (tmp / "validation.md").write_text(_markdown(tmt, bianchi))
    return out
