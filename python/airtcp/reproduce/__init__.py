"""Paper reproductions: `airtcp reproduce ID` runs a paper's sweeps, draws its figures and writes
a report that sets each of the paper's claims beside airtcp's measurement.

Each paper is a module following the ``Paper`` protocol (reproduce.paper): its id, title,
template, sweeps and ``analyse``; one driver runs them and writes the report.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

__all__ = ["PAPERS", "ReproduceError", "reproduce"]

# Paper id -> (module name, one-line title).
PAPERS: dict[str, tuple[str, str]] = {
    "000": (
        "airtcp.reproduce.p000",
        "Rethfeldt et al., ARQ retry limits under TCP in 802.11s chains (ALM-driven adaptation)",
    ),
    "001": ("airtcp.reproduce.p001", "Brar et al., TCP in conflict-based wireless links"),
    "002": (
        "airtcp.reproduce.p002",
        "Nomoto et al., bufferbloat of TCP uploads over 802.11n (Block-Ack retry limit, CoDel)",
    ),
    "003": (
        "airtcp.reproduce.p003",
        "Kashibuchi et al., TCP over adaptive multi-rate 802.11 (ARF)",
    ),
    "004": ("airtcp.reproduce.p004", "Ravichandran et al., LN-MAC: explicit loss notification"),
}


class ReproduceError(ValueError):
    """An unknown paper or an unusable output directory."""


def reproduce(
    paper: str,
    out: str | Path,
    *,
    quick: bool = False,
    workers: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Path:
    """Reproduce paper ``paper`` into ``out``; return the path of its report.

    ``progress(stage, done, total)`` is called as runs finish. Runs are stored in ``out/store``
    (a sweep store): a rerun skips what is stored.
    """
    import importlib

    bare = paper.removeprefix("paper-")
    key = bare.zfill(3) if bare.isdigit() else bare  # "" and "paper-" name no paper
    if key not in PAPERS:
        allowed = ", ".join(PAPERS)
        raise ReproduceError(f"paper: {paper!r} is not reproducible yet (allowed: {allowed})")
    from airtcp.outpath import OutputExistsError, claim_directory
    from airtcp.plot import PlotError
    from airtcp.reproduce.paper import run
    from airtcp.sweep import SweepError

    module = importlib.import_module(PAPERS[key][0])
    try:
        target = claim_directory(out, "reproduce")  # refused before any run if in use
        report = run(module, target, quick=quick, workers=workers, progress=progress)
    except (OutputExistsError, SweepError, PlotError) as exc:
        raise ReproduceError(str(exc)) from None
    except OSError as exc:  # the directory vanished or turned read-only meanwhile
        raise ReproduceError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    return report
