"""The headline section every reproduction's report opens with (issue 36): the paper's
headline, airtcp's figure and verdict on the paper's setting, and where that does not agree
the condition tried, its figure and verdict, and the command that makes the run."""

from __future__ import annotations

import dataclasses

from airtcp.reproduce import claims as cl
from airtcp.reproduce.common import Claim
from airtcp.reproduce.paper import QUICK_SUFFIX, Headline, headline_lines, pick_headlines


def _claim(text: str, verdict: str, runs: tuple[str, ...] = ("main",)) -> Claim:
    return Claim("IV", text, "paper's value", "airtcp's figure", verdict, "why", runs)


def test_picked_by_the_start_of_a_claims_text_and_left_out_when_not_run() -> None:
    claims = [_claim("drop change, queue 20", cl.DIFFERS), _claim("level", cl.AGREES)]
    picks = [("drop change", "drops almost removed", "the note"),
             ("gain", "throughput raised", "")]  # fmt: skip
    heads = pick_headlines(claims, picks)
    assert [(h.headline, h.claim.claim, h.likely) for h in heads] == [
        ("drops almost removed", "drop change, queue 20", "the note")
    ]


def test_the_section_shows_both_settings_and_marks_quick_verdicts() -> None:
    paper_row = _claim("drop change", cl.INCONCLUSIVE)
    under = dataclasses.replace(paper_row, airtcp="-90 %", verdict=cl.AGREES)
    heads = [
        Headline("drops almost removed", paper_row, condition="the empty queues' RTT",
                 under=under, command="airtcp run x.toml --set rtt=empty", likely="Why."),
        Headline("level", _claim("level", cl.AGREES)),
        Headline("fall past 9", _claim("fall", cl.DIFFERS), condition="a bench run",
                 likely="See the bench."),
    ]  # fmt: skip
    text = "\n".join(headline_lines(heads, quick=True, stable=set()))
    assert text.startswith("## Headline results\n")
    row = next(line for line in text.splitlines() if line.startswith("| drops almost removed"))
    # Quick mode: an undecided verdict on runs quick mode shortens reads "(quick)".
    assert f"**{cl.INCONCLUSIVE}{QUICK_SUFFIX}**" in row
    assert "| the empty queues' RTT | -90 % | **agrees** |" in row
    assert "| level | paper's value | airtcp's figure | **agrees** | - | - | - |" in text
    assert "not a sweep of this report: see the note below" in text
    assert "- **drops almost removed** Why. Run: `airtcp run x.toml --set rtt=empty`." in text
    # The same claim on runs quick mode runs as the full one: no "(quick)".
    stable = "\n".join(headline_lines(heads[:1], quick=True, stable={"main"}))
    assert f"**{cl.INCONCLUSIVE}**" in stable and QUICK_SUFFIX not in stable
    assert headline_lines([], quick=False, stable=set()) == []
