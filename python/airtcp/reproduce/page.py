"""A reproduction's report.md as one self-contained HTML page (``report.html`` beside it).

The reports are written in a small subset of Markdown, and :func:`to_html` converts exactly
that subset:

- headings (``#`` to ``######``), paragraphs (consecutive lines joined);
- pipe tables with a ``|---|`` separator row (``:`` in it aligns a column; ``\\|`` is a
  ``|`` within a cell);
- lists (``-``, ``*`` or ``1.``), an item running on over indented lines, nested by indent;
- fenced code blocks;
- inline: code spans (one or two backticks), ``**strong**``, ``*emphasis*`` and images.

An image is embedded in the page as a ``data:`` URI (PNG, SVG, JPEG or GIF read from the
report's directory); a line holding only an image becomes a figure. Nothing on the page is
fetched from anywhere: an image with a URL or outside the report's directory is not embedded,
and the page says so where it would have been. Links are left as their Markdown text. All
other text is escaped, so a ``<`` in a claim stays a ``<``.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["MIME", "to_html", "write_html"]

# The image types embedded, by file suffix.
MIME = {
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
}
# Marks a page airtcp wrote.
GENERATOR = "airtcp reproduce"

_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto;
       max-width: 1200px; padding: 0 16px 48px; color: #1b1b1b; background: #fff; }
h1 { font-size: 22px; margin: 20px 0 8px; } h2 { font-size: 18px; margin: 28px 0 8px;
     border-bottom: 1px solid #ddd; padding-bottom: 3px; } h3 { font-size: 15px; }
table { border-collapse: collapse; font-size: 12.5px; margin: 8px 0; }
th, td { border: 1px solid #d6d6d6; padding: 2px 6px; text-align: left; vertical-align: top; }
thead th { background: #f2f2f2; }
.scroll { overflow-x: auto; max-width: 100%; }
code { font-size: 12.5px; background: #f4f4f4; padding: 0 2px; }
pre { background: #f4f4f4; padding: 6px; overflow-x: auto; }
figure { margin: 18px 0; } figure img { max-width: 100%; height: auto; }
figcaption, .missing { font-size: 12px; color: #8a5a00; }
"""

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^([-*]|\d+[.)])\s+(.*)$")
_TABLE_SEP = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
_CODE = re.compile(r"(`+)(.+?)\1")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")

# An image's source -> its <img> element (or what the page says instead).
Embed = Callable[[str, str], str]


def to_html(markdown: str, base: Path) -> str:
    """The Markdown text ``markdown`` as one HTML document; its images are read from the
    directory ``base`` and embedded."""
    embed = _embedder(base)
    body = _blocks(markdown.splitlines(), embed)
    title = next(
        (m.group(2) for line in markdown.splitlines() if (m := _HEADING.match(line))), "report"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="generator" content="{GENERATOR}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(_plain(title))}</title><style>{_STYLE}</style></head><body>\n"
        f"{body}\n</body></html>\n"
    )


def write_html(markdown_path: Path) -> Path:
    """Write ``report.html`` beside the Markdown report ``markdown_path`` (its images
    embedded), atomically; return its path."""
    from airtcp.result import atomic_file

    text = to_html(markdown_path.read_text(encoding="utf-8"), markdown_path.parent)
    path = markdown_path.with_suffix(".html")
    with atomic_file(path, prefix=f".{path.stem}.", clean=True) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# Blocks


def _blocks(lines: Sequence[str], embed: Embed) -> str:
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
        elif stripped.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(lines[i + 1 : j]))}</code></pre>")
            i = j + 1
        elif m := _HEADING.match(stripped):
            level = len(m.group(1))
            out.append(f"<h{level}>{_inline(m.group(2), embed)}</h{level}>")
            i += 1
        elif stripped.startswith("|") and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]):
            j = i + 2
            while j < len(lines) and lines[j].strip().startswith("|"):
                j += 1
            out.append(_table(lines[i], lines[i + 1], lines[i + 2 : j], embed))
            i = j
        elif _ITEM.match(stripped) and line == line.lstrip():
            i = _list(lines, i, out, embed)
        elif (img := _IMAGE.fullmatch(stripped)) is not None:
            out.append(f"<figure>{embed(img.group(1), img.group(2))}</figure>")
            i += 1
        else:
            j = i + 1
            while j < len(lines) and _continues_paragraph(lines[j]):
                j += 1
            text = " ".join(x.strip() for x in lines[i:j])
            out.append(f"<p>{_inline(text, embed)}</p>")
            i = j
    return "\n".join(out)


def _continues_paragraph(line: str) -> bool:
    s = line.strip()
    return bool(s) and not (
        _HEADING.match(s)
        or s.startswith(("|", "```"))
        or (_ITEM.match(s) and line == line.lstrip())
        or _IMAGE.fullmatch(s)
    )


def _list(lines: Sequence[str], i: int, out: list[str], embed: Embed) -> int:
    """The list starting at line ``i`` (its items at no indent) into ``out``; return the
    index of the first line after it."""

    def kind(line: str) -> bool | None:
        """True for an ordered item at no indent, False for a bullet, None for neither."""
        m = _ITEM.match(line)
        return None if m is None else m.group(1)[0].isdigit()

    ordered = kind(lines[i])
    items: list[list[str]] = []
    while i < len(lines):
        line = lines[i]
        m = _ITEM.match(line)
        if m and kind(line) == ordered:
            items.append([m.group(2)])
        elif line.strip() and (line[0].isspace() or not _starts_block(line)):
            items[-1].append(line)  # the item runs on (indented, or a lazy continuation)
        elif not line.strip() and i + 1 < len(lines) and lines[i + 1][:1].isspace():
            items[-1].append("")  # a blank line inside an item
        elif not line.strip() and i + 1 < len(lines) and kind(lines[i + 1]) == ordered:
            pass  # a blank line between two items of the list
        else:
            break
        i += 1
    tag = "ol" if ordered else "ul"
    out.append(f"<{tag}>" + "".join(f"<li>{_item(x, embed)}</li>" for x in items) + f"</{tag}>")
    return i


def _starts_block(line: str) -> bool:
    s = line.strip()
    return bool(_ITEM.match(s) or _HEADING.match(s) or s.startswith(("|", "```")))


def _item(lines: list[str], embed: Embed) -> str:
    """One list item's lines (the first without its marker): a paragraph as inline text,
    anything else (a nested list) as blocks."""
    rest = lines[1:]
    indent = min((len(x) - len(x.lstrip()) for x in rest if x.strip()), default=0)
    body = _blocks([lines[0], *(x[indent:] for x in rest)], embed)
    if body.startswith("<p>") and body.count("<p>") == 1:
        return body.replace("<p>", "", 1).replace("</p>", "", 1)
    return body


def _table(head: str, sep: str, rows: Sequence[str], embed: Embed) -> str:
    align = []
    for c in _cells(sep):
        c = c.strip()
        right, left = c.endswith(":"), c.startswith(":")
        align.append(
            ' style="text-align: center"'
            if left and right
            else ' style="text-align: right"'
            if right
            else ""
        )

    def row(line: str, tag: str) -> str:
        cells = _cells(line)
        return (
            "<tr>"
            + "".join(
                f"<{tag}{align[k] if k < len(align) else ''}>{_inline(c.strip(), embed)}</{tag}>"
                for k, c in enumerate(cells)
            )
            + "</tr>"
        )

    body = "".join(row(r, "td") for r in rows)
    return (
        f'<div class="scroll"><table><thead>{row(head, "th")}</thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _cells(line: str) -> list[str]:
    """A table row's cells: split at each ``|`` not escaped as ``\\|`` (GitHub's rule: a code
    span does not protect one)."""
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") and not s.endswith("\\|") else s
    return [c.replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s)]


# ---------------------------------------------------------------------------------------------
# Inline


def _inline(text: str, embed: Embed) -> str:
    """Code spans and images kept whole; the rest escaped, then strong and emphasis."""
    parts: list[str] = []
    pos = 0
    for m in re.finditer(f"{_CODE.pattern}|{_IMAGE.pattern}", text):
        parts.append(_emphasis(html.escape(text[pos : m.start()], quote=False)))
        if m.group(1) is not None:
            parts.append(f"<code>{html.escape(m.group(2).strip(), quote=False)}</code>")
        else:
            parts.append(embed(m.group(3), m.group(4)))
        pos = m.end()
    parts.append(_emphasis(html.escape(text[pos:], quote=False)))
    return "".join(parts)


def _emphasis(text: str) -> str:
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    return _EM.sub(r"<em>\1</em>", text)


def _plain(text: str) -> str:
    """Inline Markdown as plain text (for the page's title)."""
    return re.sub(r"[`*]", "", text)


def _embedder(base: Path) -> Embed:
    root = base.resolve()

    def embed(alt: str, src: str) -> str:
        a = html.escape(alt)
        path = (root / src).resolve()
        mime = MIME.get(path.suffix.lower())
        if re.match(r"^[a-z][a-z0-9+.-]*:", src, flags=re.I) or not path.is_relative_to(root):
            return f'<span class="missing">[{a}: {html.escape(src)}, not embedded]</span>'
        if mime is None or not path.is_file():
            return f'<span class="missing">[{a}: {html.escape(src)} not found]</span>'
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'<img src="data:{mime};base64,{data}" alt="{a}" title="{html.escape(src)}">'

    return embed
