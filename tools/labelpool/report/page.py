"""The HTML document: one file, no script, no request (``default-src 'none'``)."""

from __future__ import annotations

from labelpool.report import figures, panels, sections
from labelpool.report.gather import ReportData
from labelpool.report.html import h

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
CSS = """
body{font:15px/1.45 system-ui,sans-serif;max-width:70rem;margin:1rem auto;padding:0 1rem;
color:#222;background:#fff}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.15rem .5rem;
border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f4f4f4}code{font-size:.9em}pre{background:#f6f6f6;padding:.5rem;
overflow-x:auto;white-space:pre-wrap}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}
figcaption{font-size:.92rem;color:#333;max-width:52rem}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:.1rem 1rem}
dl.facts dd{margin:0}.warn{color:#a40000}
.v-improvement{color:#1b7a3a}.v-regression{color:#a40000}
.v-relabel,.v-uninterpretable{color:#8a5a00}
details.q{border-bottom:1px solid #eee;padding:.2rem 0}
table.side td{min-width:12rem;font-family:monospace;font-size:.85rem}
table.side td:first-child{min-width:0;text-align:right}table.side details{display:inline}
.r i,.n i,.d i,.u i{display:inline-block;min-width:1.8em;text-align:center;border-radius:3px;
font-style:normal;font-weight:bold;font-size:.8em;color:#fff;font-family:sans-serif}
.r i{background:#1b7a3a}.n i{background:#777}.d i{background:#1f5fa8}
.u i{background:#fff;color:#b35900;border:1px dashed #b35900}
ul.findings li{margin:.3rem 0}
"""


def render(d: ReportData) -> str:
    """The report as one HTML document."""
    title = "labelpool report: " + ", ".join(r.name for r in d.runs)
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{h(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        "<h1>labelpool report</h1>\n",
        sections.summary(d),
        sections.header(d),
        sections.in_words(d),
        sections.scores(d),
    ]
    if d.compared is not None:
        parts += [figures.per_question(d), figures.overview(d), sections.judge_first(d)]
    parts += [panels.drilldown(d), panels.pool(d), panels.history(d.history)]
    parts.append("</body>\n</html>\n")
    return "".join(parts)
