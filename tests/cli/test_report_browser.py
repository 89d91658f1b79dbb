"""``labelpool report`` in a real browser (Debian's chromium through Playwright, as the judging
page's tests): the report of the example and of CAsT 2021 (``../shared/data``) opens from
``file://`` with every request a ``file:`` or ``data:`` URL, no console error, JavaScript
off, one ``data-q`` mark per question in each per-question plot (the questions ``compare``
scores), and a full-page screenshot written to a temporary folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judge_scenario import browser
from labelpool import api
from report_scenario import CAST_RUNS, cast_repo, example_repo, labelpool

MARKS = """() => Array.from(document.querySelectorAll('figure.per-question svg')).map(
  svg => Array.from(svg.querySelectorAll('[data-q]')).map(e => e.getAttribute('data-q')))"""


def open_report(b: Any, html: Path, shot: Path) -> tuple[list[str], list[str], list[list[str]]]:
    """Open ``html`` with JavaScript off; (requested URLs, console errors, each per-question
    plot's data-q values); a full-page screenshot to ``shot``."""
    context = b.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(html.as_uri())
    page.wait_for_load_state("load")
    page.screenshot(path=str(shot), full_page=True)
    context.close()
    # the marks, read with JavaScript on (the page itself has none)
    context = b.new_context()
    page = context.new_page()
    page.goto(html.as_uri())
    marks = page.evaluate(MARKS)
    context.close()
    return requests, errors, marks


def check(b: Any, repo: Path, runs: list[str], tmp: Path) -> list[list[str]]:
    done = labelpool(repo, "report", *runs, "-o", "report.html")
    assert done.returncode == 0, done.stderr
    shot = tmp / f"{repo.name}.png"
    requests, errors, marks = open_report(b, repo / "report.html", shot)
    assert requests and all(u.startswith(("file:", "data:")) for u in requests), requests
    assert errors == []
    assert shot.stat().st_size > 10_000
    compared = api.compare(runs[0], runs[1:], repo=repo)
    questions = sorted(compared.comparisons[0].qids)
    assert marks, "no per-question plot"
    for plot in marks:
        assert sorted(plot) == questions  # one mark per question, each question once
    return marks


def test_example_report_in_chromium(tmp_path: Path) -> None:
    repo = example_repo(tmp_path)
    with browser() as b:
        marks = check(b, repo, ["runs/bm25.trec", "runs/dense.trec"], tmp_path)
    assert len(marks) == 3 and len(marks[0]) == 58


def test_cast_report_in_chromium(cast_dir: Path, tmp_path: Path) -> None:
    repo = cast_repo(tmp_path, cast_dir)
    with browser() as b:
        marks = check(b, repo, [f"runs/{n}.run" for n in CAST_RUNS], tmp_path)
    assert len(marks) == 3 * (len(CAST_RUNS) - 1) and len(marks[0]) == 158
    assert (repo / "report.html").stat().st_size < 2_000_000


def test_plots_fit_a_phone_screen(tmp_path: Path) -> None:
    width = 390
    repo = example_repo(tmp_path)
    done = labelpool(repo, "report", "runs/bm25.trec", "runs/dense.trec", "-o", "r.html")
    assert done.returncode == 0, done.stderr
    with browser() as b:
        page = b.new_page(viewport={"width": width, "height": 800})
        page.goto((repo / "r.html").as_uri())
        figure_width = page.evaluate(
            "() => Math.max(...Array.from(document.querySelectorAll('figure svg'))"
            ".map(s => s.getBoundingClientRect().width))"
        )
        assert figure_width <= width


def test_the_findings_are_the_first_screen(tmp_path: Path) -> None:
    """0.2: 24 bullets (one per measure and run) filled the first screens; now the title and
    one sentence per finding are what a 1280x900 window opens on, the per-measure words below."""
    repo = example_repo(tmp_path)
    runs = ["runs/bm25.trec", "runs/dense.trec", "runs/hybrid.trec"]
    done = labelpool(repo, "report", *runs, "-o", "r.html")
    assert done.returncode == 0, done.stderr
    with browser() as b:
        context = b.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto((repo / "r.html").as_uri())
        findings = page.locator("ul.findings li")
        assert findings.count() == 3
        last = findings.nth(2).bounding_box()
        assert last is not None and last["y"] + last["height"] <= 900
        detail = page.locator("h2", has_text="Readings, measure by measure").bounding_box()
        assert detail is not None and detail["y"] > last["y"]
        context.close()
