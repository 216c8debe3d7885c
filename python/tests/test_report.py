"""airtcp report: the HTML page of one run, checked as text and in a real headless browser.

The browser test loads the page from a file:// URL in Debian's Chromium (``chromium`` and
``chromium-driver``, installed by scripts/setup.sh) through Selenium, and checks that nothing
is logged to the console, that the page asks for nothing but itself, that every figure has
a size and its pixels are not blank, and that the mouse wheel zooms a figure. It is skipped,
saying why, where Chromium, its driver or Selenium is missing.

``AIRTCP_REPORT_SCREENSHOT=docs/figures/report-example.png`` makes it keep its screenshot
of the page there (the one in docs/plots.md).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from cli_runner import CliRunner

from airtcp import report
from airtcp.cli import app
from airtcp.result import Result

runner = CliRunner()

CHROMIUM = os.environ.get("AIRTCP_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("AIRTCP_CHROMEDRIVER", "/usr/bin/chromedriver")
TRACES = ("tcp", "tcp_segments", "mac_tx", "rates", "positions")


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> tuple[Path, Path]:
    """A mobile TCP run with five traces and its report: (run directory, page)."""
    pytest.importorskip("airtcp._core")
    tmp = tmp_path_factory.mktemp("report")
    examples = Path(__file__).resolve().parents[2] / "examples"
    run_dir = tmp / "run"
    sets = ["duration_s=4", "report_interval_s=0.5", *(f"traces.{k}=true" for k in TRACES)]
    args = ["run", str(examples / "mobile-tcp.toml"), "--out", str(run_dir), "--quiet"]
    result = runner.invoke(app, [*args, *(a for s in sets for a in ("--set", s))])
    assert result.exit_code == 0, result.output
    out = tmp / "page" / "report.html"
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"written {out}: ")
    return run_dir, out


def test_page_is_self_contained(page):
    _, out = page
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    # Nothing is fetched: no URL in a src or href, no external script, style sheet or font.
    refs = re.findall(r"""\b(?:src|href)\s*=\s*["']?([^"'\s>]+)""", text, flags=re.I)
    assert refs and all(r.startswith(("#", "data:")) for r in refs), refs
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", text, flags=re.I)
    assert "<link" not in text and "@import" not in text and "<script src" not in text
    # A figure per standard series the run has, and the topology; ids unique across SVGs.
    assert (
        text.count("<svg") == 9
    )  # interval, tcp_segments, cwnd, RTT, 2x mac_tx, rates, distance, topology
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids))
    assert "Not recorded in this run: packets, receptions" in text


def test_tables_hold_every_number_in_full(page):
    run_dir, out = page
    text = out.read_text(encoding="utf-8")
    summary = json.loads((run_dir / "summary.json").read_text())
    flow = summary["flows"][0]
    for value in (
        flow["goodput_bps"],
        flow["tcp"]["rtt_mean_s"],
        summary["nodes"][1]["mac"]["busy_air_fraction"],
    ):
        assert f">{value!r}</td>" in text
    assert f'<td class="num">{summary["nodes"][0]["mac"]["attempts"]}</td>' in text
    assert "<th>tcp.rtt_p95_s</th>" in text and "flow 0: server \u2192 sta1" in text


def test_report_of_a_result_and_overwrite_rules(page, tmp_path):
    run_dir, out = page
    text = report.report(Result.read(run_dir), title="T")
    assert "<title>T</title>" in text
    foreign = tmp_path / "mine.html"
    foreign.write_text("<html>my own page</html>")
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(foreign)])
    assert result.exit_code == 2 and "airtcp did not write it" in result.stderr
    assert foreign.read_text() == "<html>my own page</html>"
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(tmp_path / "r.txt")])
    assert result.exit_code == 2 and "not an .html file name" in result.stderr
    # Its own page is replaced.
    copy = tmp_path / "copy.html"
    shutil.copy(out, copy)
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(copy), "--title", "again"])
    assert result.exit_code == 0, result.output
    assert "<title>again</title>" in copy.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.html", "mine.html"]


# --- in a headless browser ----------------------------------------------------------------------


def _browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        pytest.skip(
            f"no headless browser: {', '.join(missing)} missing (scripts/setup.sh installs "
            "Debian's chromium and chromium-driver)"
        )
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1600",
        "--hide-scrollbars",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def _not_blank(png: bytes) -> tuple[int, float]:
    """Distinct colours and the share of pixels that are not white in a screenshot."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 24) or []
    white = sum(n for n, c in colors if min(c) >= 250)
    return len(colors), 1 - white / (image.width * image.height)


def test_page_in_a_headless_browser(page):
    _, out = page
    driver = _browser()
    try:
        driver.get(out.resolve().as_uri())
        assert driver.execute_script("return document.readyState") == "complete"
        errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
        assert errors == [], errors
        # The page asked for nothing but itself (the performance log lists every request).
        requests = []
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                requests.append(message["params"]["request"]["url"])
        assert requests and all(u.startswith(("file://", "data:")) for u in requests), requests

        boxes = driver.execute_script(
            "return [...document.querySelectorAll('svg.zoomable')].map(s => {"
            " const r = s.getBoundingClientRect(); return [r.width, r.height]; })"
        )
        assert len(boxes) == 9 and all(w > 300 and h > 150 for w, h in boxes), boxes
        figures = driver.find_elements("css selector", "figure.plot")
        for figure in (figures[0], figures[-1]):  # a time series and the topology
            driver.execute_script("arguments[0].scrollIntoView()", figure)
            colors, ink = _not_blank(figure.screenshot_as_png)
            assert colors > 30 and ink > 0.03, (colors, ink)

        # The wheel zooms a figure in about the pointer; a double click resets it.
        zoom = (
            "const s = document.querySelectorAll('svg.zoomable')[0];"
            "const r = s.getBoundingClientRect();"
            "s.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, bubbles: true,"
            " cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));"
            "return s.getAttribute('viewBox');"
        )
        home = driver.execute_script(
            "return document.querySelectorAll('svg.zoomable')[0].getAttribute('viewBox')"
        )
        zoomed = driver.execute_script(zoom)
        width = [float(v) for v in home.split()][2]
        assert float(zoomed.split()[2]) < 0.7 * width, (home, zoomed)
        reset = driver.execute_script(
            "const s = document.querySelectorAll('svg.zoomable')[0];"
            "s.dispatchEvent(new MouseEvent('dblclick', {bubbles: true}));"
            "return s.getAttribute('viewBox');"
        )
        assert [float(v) for v in reset.split()] == [float(v) for v in home.split()]
        assert driver.get_log("browser") == []

        driver.execute_script("window.scrollTo(0, 0)")
        # The whole page: a window as tall as the page plus the window's own frame.
        height, frame = driver.execute_script(
            "return [document.documentElement.scrollHeight,"
            " window.outerHeight - window.innerHeight]"
        )
        driver.set_window_size(1280, height + frame)
        shot = driver.get_screenshot_as_png()
        colors, ink = _not_blank(shot)
        assert colors > 100 and ink > 0.05, (colors, ink)
        if keep := os.environ.get("AIRTCP_REPORT_SCREENSHOT"):
            from PIL import Image

            # 256 colours: a third of the bytes, the same page to the eye.
            Image.open(io.BytesIO(shot)).convert("RGB").quantize(
                256, method=Image.Quantize.FASTOCTREE
            ).save(keep, optimize=True)
    finally:
        driver.quit()
