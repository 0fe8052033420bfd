#!/usr/bin/env python3
"""The report as a person sees it: render a report.html in headless Chromium, take a full-page
screenshot, and check that the page shows its tables and charts.

Usage: scripts/report-screenshot.py REPORT.html [--out SHOT.png] [--width 1280]
                                    [--min-tables N] [--min-charts N]

  REPORT.html   a report made by `obsbench report` (e.g. results/latest/report.html)
  --out         where the screenshot goes (default: /tmp/<run folder>-report.png)
  --width       the window's width in CSS pixels (default 1280); the height is the page's own,
                measured in Chromium first (capped at --max-height, default 16000)
  --min-tables  fail with fewer <table> elements than this (default 1)
  --min-charts  fail with fewer charts than this (default 1): <img> elements plus inline <svg>
                charts (obsbench's report.html inlines its plots/*.svg)

Checks, on the DOM Chromium rendered (--dump-dom) and on the page as laid out at --width:
  - the count of <table> elements, and of charts (<img>, and outermost <svg> elements);
  - every <img> src (and every <image> href inside an inline SVG) is a data: URI or a file that
    exists, relative to the html (a remote URL or a missing file is an error);
  - every table and chart is laid out with a non-zero size, and no table is wider than the window
    (it would be cut off or scroll sideways).
Prints what it counted and where the screenshot is. Exit status: 0 all checks pass; 1 a check
failed (each failure said on stderr); 2 usage error, or Chromium missing (it says how to install it).

Needs Chromium (Debian: apt-get install -y chromium; or set CHROMIUM=/path/to/chrome) and python3.
"""
import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files"]
TIMEOUT = 180  # seconds for one Chromium run


def fail(message, status=1):
    print(f"report-screenshot: {message}", file=sys.stderr)
    sys.exit(status)


def find_chromium():
    wanted = os.environ.get("CHROMIUM")
    if wanted:
        path = shutil.which(wanted)
        if not path:
            fail(f"CHROMIUM={wanted}: not found or not executable", 2)
        return path
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    fail("Chromium not found (looked for " + ", ".join(CANDIDATES) + ").\n"
         "  Install it: sudo apt-get install -y chromium   (Debian/Ubuntu; on Ubuntu the package may be a snap: "
         "snap install chromium)\n  or point CHROMIUM at a Chrome or Chromium binary: CHROMIUM=/path/to/chrome "
         + os.path.basename(sys.argv[0]) + " REPORT.html", 2)


def chromium(binary, *arguments):
    """Runs headless Chromium; its stdout. Chromium's own chatter on stderr (D-Bus, GPU) is dropped
    unless it fails."""
    command = [binary, *FLAGS, *arguments]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail(f"Chromium took over {TIMEOUT} s: {' '.join(command)}")
    if result.returncode != 0:
        fail(f"Chromium exited {result.returncode}: {' '.join(command)}\n{result.stderr[-2000:]}")
    return result.stdout


class Census(html.parser.HTMLParser):
    """Counts tables and charts in a DOM and collects the image sources to check."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables = 0
        self.images = []        # <img> src values
        self.svg_images = []    # <image> href values inside inline SVGs
        self.svgs = 0           # outermost <svg> elements
        self.svg_depth = 0

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        if tag == "table":
            self.tables += 1
        elif tag == "img":
            self.images.append(attributes.get("src") or "")
        elif tag == "svg":
            if self.svg_depth == 0:
                self.svgs += 1
            self.svg_depth += 1
        elif tag == "image" and self.svg_depth:
            self.svg_images.append(attributes.get("href") or attributes.get("xlink:href") or "")

    def handle_startendtag(self, tag, attributes):
        self.handle_starttag(tag, attributes)
        if tag == "svg":
            self.svg_depth -= 1

    def handle_endtag(self, tag):
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1


def unresolved(source, folder):
    """Why an image source does not resolve to a file, or None when it does (or is inline data)."""
    if not source:
        return "empty src"
    parsed = urllib.parse.urlparse(source)
    if parsed.scheme == "data":
        return None
    if parsed.scheme in ("http", "https"):
        return "a remote URL (the report should stand on its own)"
    if parsed.scheme == "file":
        path = urllib.parse.unquote(parsed.path)
    elif parsed.scheme:
        return f"an unknown scheme {parsed.scheme}:"
    else:
        path = os.path.join(folder, urllib.parse.unquote(parsed.path))
    return None if os.path.isfile(path) else f"no such file: {os.path.normpath(path)}"


# A page that loads the report in a frame of the window's width and writes what the layout came to
# into its own DOM, for --dump-dom to print.
MEASURE = """<!doctype html><html><body style="margin:0">
<iframe id="report" src="{url}" scrolling="no" style="width:{width}px;height:800px;border:0"></iframe>
<pre id="measure"></pre>
<script>
document.getElementById("report").addEventListener("load", function () {{
  var out = document.getElementById("measure");
  try {{
    var page = this.contentDocument;
    function box(element) {{ var r = element.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; }}
    var charts = Array.prototype.filter.call(page.querySelectorAll("img, svg"), function (e) {{
      return e.tagName.toLowerCase() === "img" || !e.parentElement.closest("svg"); }});
    var result = {{
      height: Math.max(page.documentElement.scrollHeight, page.body ? page.body.scrollHeight : 0),
      width: page.documentElement.scrollWidth,
      tables: Array.prototype.map.call(page.querySelectorAll("table"), box),
      tableRows: Array.prototype.map.call(page.querySelectorAll("table"), function (t) {{ return t.rows.length; }}),
      charts: charts.map(box),
      brokenImages: Array.prototype.filter.call(page.querySelectorAll("img"), function (i) {{
        return !(i.complete && i.naturalWidth > 0); }}).map(function (i) {{ return i.getAttribute("src"); }})
    }};
    out.textContent = "MEASURE " + JSON.stringify(result);
  }} catch (error) {{ out.textContent = "MEASURE-ERROR " + error; }}
}});
</script></body></html>
"""


def measure(binary, url, width):
    """The report laid out at width: its height and the boxes of its tables and charts, or None."""
    with tempfile.TemporaryDirectory(prefix="report-screenshot-") as folder:
        page = os.path.join(folder, "measure.html")
        with open(page, "w") as handle:
            handle.write(MEASURE.format(url=url, width=width))
        dom = chromium(binary, "--virtual-time-budget=15000", "--dump-dom", "file://" + page)
    for line in dom.splitlines():
        if "MEASURE " in line:
            return json.loads(html.unescape(line.split("MEASURE ", 1)[1].split("</pre>", 1)[0]))
        if "MEASURE-ERROR" in line:
            print(f"report-screenshot: could not measure the page ({line.strip()}); using --max-height", file=sys.stderr)
            return None
    print("report-screenshot: the page did not finish loading to be measured; using --max-height", file=sys.stderr)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Screenshot a report.html in headless Chromium and check its tables and charts.")
    parser.add_argument("report", help="a report.html made by `obsbench report`")
    parser.add_argument("--out", help="the screenshot PNG (default /tmp/<run folder>-report.png)")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--max-height", type=int, default=16000, help="cap on the screenshot's height (Chromium's own limit is near 16384)")
    parser.add_argument("--min-tables", type=int, default=1)
    parser.add_argument("--min-charts", type=int, default=1)
    arguments = parser.parse_args(argv)

    report = os.path.abspath(arguments.report)
    if not os.path.isfile(report):
        fail(f"{arguments.report}: no such file (pass a report.html, e.g. results/latest/report.html)", 2)
    folder = os.path.dirname(report)
    out = os.path.abspath(arguments.out or os.path.join(tempfile.gettempdir(), f"{os.path.basename(folder) or 'report'}-report.png"))
    binary = find_chromium()
    url = "file://" + urllib.parse.quote(report)
    problems = []

    # 1. The DOM as Chromium built it: tables, charts, and where each image comes from.
    census = Census()
    census.feed(chromium(binary, "--virtual-time-budget=15000", "--dump-dom", url))
    charts = len(census.images) + census.svgs
    print(f"DOM: {census.tables} <table>, {len(census.images)} <img>, {census.svgs} inline <svg> "
          f"({charts} charts), {len(census.svg_images)} <image> inside SVGs")
    if census.tables < arguments.min_tables:
        problems.append(f"{census.tables} <table> elements, expected at least {arguments.min_tables}")
    if charts < arguments.min_charts:
        problems.append(f"{charts} charts (<img> + inline <svg>), expected at least {arguments.min_charts}")
    for kind, sources in (("<img> src", census.images), ("<image> href", census.svg_images)):
        for source in sources:
            why = unresolved(source, folder)
            if why:
                problems.append(f"{kind} {source[:120]!r} does not resolve: {why}")
    if census.images:
        print(f"images: {len(census.images) - sum(bool(unresolved(s, folder)) for s in census.images)} of {len(census.images)} <img> src resolve")

    # 2. The page laid out at the window's width: its height, and every table and chart's size.
    layout = measure(binary, url, arguments.width)
    height = arguments.max_height
    if layout:
        height = min(max(layout["height"], 200), arguments.max_height)
        print(f"layout at {arguments.width} px: page {layout['width']} × {layout['height']} px; "
              f"tables {len(layout['tables'])}, charts {len(layout['charts'])}")
        if layout["height"] > arguments.max_height:
            print(f"report-screenshot: the page is {layout['height']} px tall; the screenshot stops at {arguments.max_height} px "
                  f"(--max-height)", file=sys.stderr)
        for index, ((width, tall), rows) in enumerate(zip(layout["tables"], layout["tableRows"]), start=1):
            if width == 0 or tall == 0:
                problems.append(f"table {index} ({rows} rows) is laid out with no size ({width} × {tall} px): hidden")
            elif width > arguments.width:
                problems.append(f"table {index} ({rows} rows) is {width} px wide, wider than the {arguments.width} px window: cut off or scrolled sideways")
        for index, (width, tall) in enumerate(layout["charts"], start=1):
            if width < 50 or tall < 50:
                problems.append(f"chart {index} is laid out at {width} × {tall} px: not visible")
        for source in layout["brokenImages"]:
            problems.append(f"<img> {str(source)[:120]!r} did not load in Chromium")
        if layout["width"] > arguments.width:
            problems.append(f"the page is {layout['width']} px wide, wider than the {arguments.width} px window: it scrolls sideways")

    # 3. The screenshot.
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if os.path.exists(out):
        os.remove(out)
    chromium(binary, f"--window-size={arguments.width},{height}", f"--screenshot={out}", "--virtual-time-budget=15000", url)
    if not os.path.isfile(out) or os.path.getsize(out) == 0:
        problems.append(f"Chromium wrote no screenshot to {out}")
    else:
        print(f"screenshot: {out} ({arguments.width} × {height} px, {os.path.getsize(out):,} bytes)")

    for problem in problems:
        print(f"report-screenshot: {problem}", file=sys.stderr)
    if problems:
        print(f"report-screenshot: {len(problems)} check(s) failed for {arguments.report}", file=sys.stderr)
        return 1
    print(f"ok: {arguments.report} shows {census.tables} tables and {charts} charts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
