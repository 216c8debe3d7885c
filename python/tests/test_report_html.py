"""A reproduction's report.html: the report.md beside it as one self-contained page, its tables
and text the same, every figure it links embedded, nothing fetched from anywhere
(airtcp.reproduce.page, written by common.write_report_lines)."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from airtcp.reproduce import reproduce
from airtcp.reproduce.common import (
    Claim,
    claims_table,
    figures_and_definitions,
    write_report_lines,
)
from airtcp.reproduce.page import to_html

DOC = """Measures:

- throughput: file bytes x 8 / completion time, ``report_interval_s`` bins;
  a continuation line with a < sign & an ampersand;
- a list with an item of its own:
  - a nested item
"""


class _Page(HTMLParser):
    """The page's tables (rows of cell texts), image sources, links and list items."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.srcs: list[str] = []
        self.urls: list[str] = []
        self.tags: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        self.urls += [v or "" for k, v in attrs if k in ("src", "href")]
        if tag == "img":
            self.srcs.append(a.get("src") or "")
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    return page


def _md_tables(md: str) -> list[list[list[str]]]:
    """Each pipe table of ``md`` as rows of cell texts, its inline marks removed (the
    separator row left out), as a reader of the page sees them."""
    tables: list[list[list[str]]] = []
    previous = ""
    for line in md.splitlines():
        if not line.startswith("|"):
            previous = line
            continue
        if re.fullmatch(r"\|(\s*:?-{3,}:?\s*\|)+", line):
            continue
        if not previous.startswith("|"):
            tables.append([])
        cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
        tables[-1].append([re.sub(r"[*`]", "", c.replace("\\|", "|")).strip() for c in cells])
        previous = line
    return tables


def _check_page(out: Path) -> str:
    """report.html beside ``out/report.md`` tells what the Markdown tells: the same tables,
    cell for cell; every figure the report links embedded as its own bytes; no URL."""
    md = (out / "report.md").read_text(encoding="utf-8")
    text = (out / "report.html").read_text(encoding="utf-8")
    page = _parse(text)
    assert page.tables == _md_tables(md)
    figures = re.findall(r"^!\[[^\]]*\]\((figures/[^)]+\.png)\)$", md, flags=re.M)
    assert figures and text.count('<img src="data:image/png;base64,') == len(figures)
    for src, name in zip(page.srcs, figures, strict=True):
        assert base64.b64decode(src.split(",", 1)[1]) == (out / name).read_bytes()
    assert all(u.startswith("data:") for u in page.urls)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text)
    return text


def test_a_report_as_one_page(tmp_path: Path) -> None:
    from matplotlib.figure import Figure

    from airtcp.plot import save

    paths = []
    for name in ("one", "two"):
        fig = Figure(figsize=(2, 2))
        fig.subplots().plot([0, 1], [1, 0])
        paths.append(save(fig, tmp_path / "figures" / f"{name}.png"))
    claims = [
        Claim("IV", "Tahoe's gain < 2 x Reno's & `cwnd` *grows*", "+80 %", "+77 % [+43, +110]",
              "agrees", "one run; see `docs/x.md`"),
        Claim("V", "a pipe a\\|b escaped", '"nearly doubled"', "x1.88", "differs", ""),
    ]  # fmt: skip
    lines = [
        "# Paper 999 reproduced: a *test* of `the page`",
        "",
        "Made by `airtcp reproduce 999`: a paragraph",
        "over two lines, with <b>tags</b> kept as text.",
        "",
        "## Claims",
        "",
        *claims_table(claims),
        "",
        *figures_and_definitions(paths, DOC, "Measures:", {"two.png": "Fig. 2: the caption."}),
    ]
    report = write_report_lines(tmp_path, lines)
    assert report == tmp_path / "report.md"
    text = _check_page(tmp_path)
    page = _parse(text)
    # The claims table: its header and both rows, an escaped pipe kept in its cell.
    assert page.tables[0][2][1] == "a pipe a|b escaped"
    assert "<td><strong>agrees</strong></td>" in text
    assert "Tahoe's gain &lt; 2 x Reno's &amp; <code>cwnd</code> <em>grows</em>" in text
    assert "<title>Paper 999 reproduced: a test of the page</title>" in text
    assert "<p>Made by <code>airtcp reproduce 999</code>: a paragraph over two lines, with " \
        "&lt;b&gt;tags&lt;/b&gt; kept as text.</p>" in text  # fmt: skip
    assert "<p>Fig. 2: the caption.</p>" in text
    # The definitions: a list whose items run on over indented lines, one with a nested list.
    assert (
        "<ul><li>throughput: file bytes x 8 / completion time, <code>report_interval_s</code> "
        "bins; a continuation line with a &lt; sign &amp; an ampersand;</li><li>a list with an "
        "item of its own:\n<ul><li>a nested item</li></ul></li></ul>"
    ) in text
    assert page.tags.count("li") == 3
    assert not list(tmp_path.glob(".report*"))  # no temporary file left behind


def test_only_images_beside_the_report_are_embedded(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"\x89PNG\r\n\x1a\nnot much")
    (tmp_path.parent / "outside.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    md = (
        "![a](a.png)\n\n![web](https://example.org/x.png)\n\n![up](../outside.png)\n\n"
        "![gone](figures/gone.png)\n\nInline ![a](a.png) too, and a [link](https://example.org)."
    )
    text = to_html(md, tmp_path)
    page = _parse(text)
    data = base64.b64encode((tmp_path / "a.png").read_bytes()).decode()
    assert page.srcs == [f"data:image/png;base64,{data}"] * 2
    assert "[web: https://example.org/x.png, not embedded]" in text
    assert "[up: ../outside.png, not embedded]" in text
    assert "[gone: figures/gone.png not found]" in text
    assert all(u.startswith("data:") for u in page.urls)
    assert "a [link](https://example.org)." in text  # a link stays its Markdown text


@pytest.mark.slow
def test_paper_001s_quick_report_as_one_page(tmp_path: Path) -> None:
    out = tmp_path / "p001"
    report = reproduce("001", out, quick=True)
    md = report.read_text(encoding="utf-8")
    text = _check_page(out)
    # Every row of the claims table is on the page, cell for cell (_check_page), and the
    # verdicts are the report's.
    # The headline table comes first (issue 36), then the claims table.
    tables = _md_tables(md)
    assert tables[0][0][:2] == ["headline", "paper"]
    claims = next(t for t in tables if t[0][:2] == ["§", "claim"])
    assert len(claims) > 10
    verdict = r"\| \*\*([^*]+)\*\* \|"
    in_claims = re.findall(verdict, md.split("\n## Claims\n", 1)[1].split("\n## ", 1)[0])
    assert len(in_claims) == len(claims) - 1
    assert re.findall(r"<td><strong>([^<]+)</strong></td>", text) == re.findall(verdict, md)
