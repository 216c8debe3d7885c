"""The ``Paper`` protocol every reproduction follows, and the one driver that runs it.

A paper is a module with

- ``ID`` ("001"), ``TITLE`` (the report's heading after "Paper NNN reproduced: "),
  ``TEMPLATE`` (the config template its runs start from, config/templates.py);
- ``sweeps(quick) -> dict[str, SweepSpec]``: the sweeps the driver runs first;
- optionally ``EXPECTED_WARNINGS``: regular expressions of warnings its runs raise on
  purpose (a paper's own setting the checks warn of), silenced while the driver runs it;
- ``analyse(ctx) -> Report``: from the stored runs (``ctx.root``, of the run hashes
  ``ctx.current``; more sweeps through ``ctx.run`` when one depends on a measured result) the
  claims with their verdicts, the claims not evaluable and why, the report's sections, its
  tables and its figures.

The driver (:func:`run`) runs the sweeps into ``OUT/store`` (resumable), calls ``analyse``,
writes each table as CSV, ``claims.json``, and ``report.md`` + ``report.html`` with the same
head for every paper: provenance, the coverage line ("N claims in the paper, N evaluated, N not
evaluable"), the verdict counts, the one verdict rule, the claims table and the claims not
evaluated. Every evaluated claim's verdict is one of :mod:`reproduce.claims`'s four words; in
quick mode an inconclusive one reads "inconclusive (quick)".
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from airtcp.reproduce import claims as cl
from airtcp.reproduce.common import (
    Claim,
    _version,
    claims_table,
    figures_and_definitions,
    run_sweeps,
    write_report_lines,
)

if TYPE_CHECKING:
    import pandas as pd

    from airtcp import sweep

__all__ = [
    "VERDICT_WORDS",
    "Context",
    "Headline",
    "NotEvaluable",
    "Paper",
    "Report",
    "coverage",
    "pick_headlines",
    "run",
    "under_condition",
]

VERDICT_WORDS = (cl.AGREES, cl.AGREES_IN_DIRECTION, cl.DIFFERS, cl.INCONCLUSIVE)
QUICK_SUFFIX = " (quick)"

RULE = (
    "Verdicts follow one rule for every claim (`airtcp.reproduce.claims`), decided by the 95 % "
    "interval, never by the point estimate: *agrees* = the whole interval satisfies the paper's "
    "statement (its value within the declared tolerance, its sign, its winner or its shape); "
    "*agrees in direction* = outside the paper's band but wholly on its side; *differs* = the "
    "whole interval contradicts it; *inconclusive* = the interval spans both, with about how "
    "many replications would decide it (*inconclusive (quick)*: quick mode's runs, fewer than "
    "the full run's, do not decide it; the full run may)."
)


@dataclass(frozen=True)
class NotEvaluable:
    """A claim of the paper the reproduction does not judge: where it is, what it says, and
    why it cannot be evaluated (no quantity the paper states, a testbed airtcp does not model,
    a figure with no readable values)."""

    section: str
    claim: str
    why: str


@dataclass(frozen=True)
class Headline:
    """One of the results that made the paper worth writing, at the top of its report.

    ``headline``: the result in the paper's words; ``claim``: it judged on the paper's setting
    (a row of the report's claims). Where that row does not agree: ``condition`` the setting
    under which the result was looked for, ``under`` the same claim judged there (None: not
    run in this mode), ``command`` the command that makes that run, and ``likely`` which
    condition the paper most likely had and why (or why the result does not appear)."""

    headline: str
    claim: Claim
    condition: str = ""
    under: Claim | None = None
    command: str = ""
    likely: str = ""


@dataclass
class Report:
    """What a paper's analysis hands the driver.

    ``claims``: the evaluated claims, each a table row with its verdict; ``not_evaluable``:
    the rest of the paper's claims (together: every claim of the paper, read sentence by
    sentence); ``method``: the paragraph after the provenance line (runs, estimators,
    scenario); ``sections``: (heading, Markdown lines) after the claims; ``figures`` and
    ``captions`` (file name -> caption); ``definitions``: the closing section's text;
    ``tables``: CSV file name -> frame, written beside the report; ``headlines``: the paper's
    headline results, first in the report."""

    claims: list[Claim]
    not_evaluable: list[NotEvaluable]
    method: str
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    captions: dict[str, str] = field(default_factory=dict)
    definitions: str = ""
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    headlines: list[Headline] = field(default_factory=list)


class Paper(Protocol):
    """A reproduction module (see the module docstring)."""

    ID: str
    TITLE: str
    TEMPLATE: str

    def sweeps(self, quick: bool) -> dict[str, sweep.SweepSpec]: ...

    def analyse(self, ctx: Context) -> Report: ...


@dataclass
class Context:
    """The analysis's view of a reproduction: where it writes (``out``, ``figures``), the
    store (``root``), the mode, the run hashes of the paper's sweeps (``current``: a store may
    hold others, of another mode or an older sweep), and :meth:`run` for a sweep that depends
    on a measured result."""

    out: Path
    quick: bool
    workers: int | None = None
    progress: Callable[[str, int, int], None] | None = None
    current: set[str] = field(default_factory=set)

    @property
    def root(self) -> Path:
        return self.out / "store"

    @property
    def figures(self) -> Path:
        return self.out / "figures"

    def run(self, specs: Mapping[str, sweep.SweepSpec]) -> set[str]:
        """Run ``specs`` into the store (resuming); return their run hashes."""
        return run_sweeps(specs, self.root, workers=self.workers, progress=self.progress)


def coverage(claims: Sequence[Claim], not_evaluable: Sequence[NotEvaluable]) -> str:
    """The report's coverage line and its verdict counts."""
    n = len(claims) + len(not_evaluable)
    counts = Counter(c.verdict.removesuffix(QUICK_SUFFIX) for c in claims)
    quick = sum(c.verdict.endswith(QUICK_SUFFIX) for c in claims)
    words = ", ".join(f"{counts[w]} {w}" for w in VERDICT_WORDS if counts[w])
    tail = (
        f" ({quick} of them for want of quick mode's runs: the full run may decide)"
        if quick
        else ""
    )
    return (
        f"**Coverage:** {n} claims in the paper (read sentence by sentence), {len(claims)} "
        f"evaluated, {len(not_evaluable)} not evaluable (listed below with why). "
        f"**Verdicts:** {words or 'none'}{tail}."
    )


def same_in_both_modes(paper: Paper) -> set[str]:
    """The names of ``paper``'s sweeps that quick mode runs exactly as the full mode does."""
    quick, full = paper.sweeps(True), paper.sweeps(False)
    return {name for name, spec in quick.items() if full.get(name) == spec}


def _checked(claims: Sequence[Claim], quick: bool, stable: set[str]) -> list[Claim]:
    """The claims with the one rule's words only. In quick mode an inconclusive verdict reads
    "inconclusive (quick)" unless all of its sweeps (``Claim.runs``) are in ``stable``, the
    sweeps quick mode runs as the full one does: the full run could not decide it either."""
    out = []
    for c in claims:
        if c.verdict not in VERDICT_WORDS:
            allowed = ", ".join(VERDICT_WORDS)
            raise ValueError(f"claim {c.claim!r}: verdict {c.verdict!r} is not one of {allowed}")
        as_full = bool(c.runs) and set(c.runs) <= stable
        if quick and c.verdict == cl.INCONCLUSIVE and not as_full:
            c = dataclasses.replace(c, verdict=c.verdict + QUICK_SUFFIX)
        out.append(c)
    return out


def headline_lines(headlines: Sequence[Headline], quick: bool, stable: set[str]) -> list[str]:
    """The report's first section: each headline, airtcp's figure on the paper's setting with
    its verdict, and where it differs the condition that was tried, its figure and verdict,
    and the command that makes the run."""
    if not headlines:
        return []

    def judged(c: Claim | None) -> tuple[str, str]:
        if c is None:
            return "not a sweep of this report: see the note below", "-"
        c = _checked([c], quick, stable)[0]
        return c.airtcp, f"**{c.verdict}**"

    lines = [
        "## Headline results",
        "",
        "| headline | paper | airtcp on the paper's setting | verdict | condition tried | "
        "airtcp there | verdict there |",
        "|---|---|---|---|---|---|---|",
    ]
    notes = []
    for h in headlines:
        figure, verdict = judged(h.claim)
        there, there_verdict = judged(h.under) if h.condition else ("-", "-")
        lines.append(f"| {h.headline} | {h.claim.paper} | {figure} | {verdict} | "
                     f"{h.condition or '-'} | {there} | {there_verdict} |")  # fmt: skip
        if h.command or h.likely:
            run = f" Run: `{h.command}`." if h.command else ""
            notes.append(f"- **{h.headline}** {h.likely}{run}")
    return [*lines, "", *notes, ""] if notes else [*lines, ""]


def pick_headlines(
    claims: Sequence[Claim], picks: Sequence[tuple[str, str, str]]
) -> list[Headline]:
    """Headlines from the report's claims: for each (start of a claim's text, the headline,
    the note on it), the first claim whose text starts so; a pick no claim matches (its runs
    not in the store) is left out."""
    out = []
    for start, headline, likely in picks:
        c = next((c for c in claims if c.claim.startswith(start)), None)
        if c is not None:
            out.append(Headline(headline, c, likely=likely))
    return out


def under_condition(
    heads: Sequence[Headline],
    under: Mapping[str, Claim],
    condition: str,
    command: str,
    note: Callable[[Headline, Claim], str] | None = None,
) -> list[Headline]:
    """Each headline whose claim has a counterpart in ``under`` (the same claim judged under
    ``condition``, by the claim's text) with it, the condition and ``command``; ``note``, if
    given, the headline's note from it and its counterpart. The others as they are."""
    out = []
    for h in heads:
        u = under.get(h.claim.claim)
        if u is None:
            out.append(h)
            continue
        likely = note(h, u) if note else h.likely
        out.append(dataclasses.replace(h, condition=condition, under=u, command=command,
                                       likely=likely))  # fmt: skip
    return out


def report_lines(
    paper: Paper, report: Report, quick: bool, claims: Sequence[Claim] | None = None
) -> list[str]:
    """The report's Markdown: the head every paper shares, then the paper's sections
    (``claims``: the report's claims already checked, else checked here)."""
    if claims is None:
        claims = _checked(report.claims, quick, same_in_both_modes(paper))
    lines = [
        f"# Paper {paper.ID} reproduced: {paper.TITLE}",
        "",
        f"Made by `airtcp reproduce {paper.ID}{' --quick' if quick else ''}` (airtcp "
        f"{_version()}); scenario: template `{paper.TEMPLATE}`. {report.method}",
        "",
        coverage(claims, report.not_evaluable),
        "",
        *headline_lines(report.headlines, quick, same_in_both_modes(paper)),
        RULE,
        "",
        "## Claims",
        "",
        *claims_table(claims),
        "",
    ]
    if report.not_evaluable:
        lines += [
            "## Claims not evaluated",
            "",
            "| § | claim | why not |",
            "|---|---|---|",
            *(f"| {c.section} | {c.claim} | {c.why} |" for c in report.not_evaluable),
            "",
        ]
    for heading, body in report.sections:
        lines += [f"## {heading}", "", *body, ""]
    lines += figures_and_definitions(report.figures, report.definitions, None, report.captions)
    return lines


def run(
    paper: Paper,
    out: Path,
    *,
    quick: bool = False,
    workers: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Path:
    """Run ``paper``'s sweeps into ``out/store`` (resuming), analyse them, write its tables,
    ``claims.json``, ``report.md`` and ``report.html`` into ``out``; return the report's path."""
    ctx = Context(out, quick, workers, progress)
    with warnings.catch_warnings():
        for pattern in getattr(paper, "EXPECTED_WARNINGS", ()):
            warnings.filterwarnings("ignore", message=pattern, category=UserWarning)
        ctx.current = ctx.run(paper.sweeps(quick))
        report = paper.analyse(ctx)
    checked = _checked(report.claims, quick, same_in_both_modes(paper))  # before any write
    lines = report_lines(paper, report, quick, checked)
    for name, frame in report.tables.items():
        frame.to_csv(out / name, index=False)
    record = {
        "claims": [dataclasses.asdict(c) for c in checked],
        "not_evaluable": [dataclasses.asdict(c) for c in report.not_evaluable],
        "headlines": [dataclasses.asdict(h) for h in report.headlines],
    }
    (out / "claims.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return write_report_lines(out, lines)
