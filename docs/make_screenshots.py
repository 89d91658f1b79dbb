"""Make the screenshots the README and ``docs/`` show (run by hand; needs Playwright and
Debian's ``chromium``):
``python docs/make_screenshots.py`` writes ``docs/judge.png`` and ``docs/report.png``.

``docs/report.png``: ``labelpool report runs/bm25.trec runs/dense.trec -o report.html`` on a
copy of the example, opened from ``file://`` with JavaScript off, photographed at 1280x1400
from the first per-question plot down (the delta bars, and the scores against each other).

The shipped example is copied into a temp git repository, pooled
(``labelpool pool runs/bm25.trec runs/dense.trec --depth 20 --max-docs 30``), two documents are
judged by key, and the page is photographed at 1280x800 on a document with version facts.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "judge.png"
REPORT_OUT = ROOT / "docs" / "report.png"


def run(repo: Path, *args: str) -> None:
    subprocess.run(args, cwd=repo, check=True, capture_output=True)


def example(tmp: str) -> Path:
    """The shipped example, copied into a new git repository."""
    repo = Path(tmp) / "help-centre"
    repo.mkdir()
    for name in ("labels", "runs", "corpus", "schema", "pyproject.toml"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=shutil.ignore_patterns(".labelpool-*"))
        else:
            shutil.copy2(src, repo / name)
    run(repo, "git", "init", "-q", "-b", "main")
    run(repo, "git", "config", "user.name", "Ana Reviewer")
    run(repo, "git", "config", "user.email", "ana@example.org")
    run(repo, "git", "add", "-A")
    run(repo, "git", "commit", "-q", "-m", "labels")
    return repo


def report() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = example(tmp)
        lp = [sys.executable, "-m", "labelpool"]
        run(repo, *lp, "report", "runs/bm25.trec", "runs/dense.trec", "-o", "report.html")
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"), args=["--no-sandbox"]
            )
            context = browser.new_context(
                java_script_enabled=False, viewport={"width": 1280, "height": 1400}
            )
            page = context.new_page()
            page.goto((repo / "report.html").as_uri())
            top = page.locator("figure.per-question").first.bounding_box()
            assert top is not None
            page.screenshot(
                path=str(REPORT_OUT),
                full_page=True,
                clip={"x": 0, "y": top["y"] - 60, "width": 1280, "height": 1400},
            )
            browser.close()
    print(f"wrote {REPORT_OUT.relative_to(ROOT)}")


def main() -> None:
    report()
    with tempfile.TemporaryDirectory() as tmp:
        repo = example(tmp)
        lp = [sys.executable, "-m", "labelpool"]
        run(
            repo,
            *lp,
            "pool",
            "runs/bm25.trec",
            "runs/dense.trec",
            "--depth",
            "20",
            "--max-docs",
            "30",
        )
        server = subprocess.Popen(
            [*lp, "judge", "--port", "0", "--no-browser"],
            cwd=repo,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split(": ", 1)[1].strip()
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=shutil.which("chromium"), args=["--no-sandbox"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(url)
                page.wait_for_selector("body[data-ready='1']")
                for key in ("1", "0", "j"):
                    page.keyboard.press(key)
                    page.wait_for_function("() => document.body.dataset.busy !== '1'")
                for _ in range(30):  # a document with version facts and relevant ones
                    facts = page.text_content("#versions") or ""
                    summary = page.text_content("#relevant-summary") or ""
                    if "supersede" in facts and "(0)" not in summary:
                        break
                    page.keyboard.press("j")
                page.click("#relevant-summary")
                page.screenshot(path=str(OUT))
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
