"""``labelpool report``: the file, its determinism, its header, its exit codes, its words.

Through the command line on real files in real git repositories (the browser's view of the
same reports: ``test_report_browser.py``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from labelpool import __version__
from pool_scenario import git
from report_scenario import example_repo, labelpool

RUNS = ("runs/bm25.trec", "runs/dense.trec")


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_repo(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def written(example: Path) -> str:
    done = labelpool(example, "report", *RUNS, "-o", "report.html")
    assert done.returncode == 0, done.stderr
    return (example / "report.html").read_text(encoding="utf-8")


def test_two_runs_write_byte_identical_files(example: Path, written: str) -> None:
    done = labelpool(example, "report", *RUNS, "-o", "again.html")
    assert done.returncode == 0, done.stderr
    assert (example / "again.html").read_bytes() == (example / "report.html").read_bytes()


def test_self_contained_no_script_no_request(written: str) -> None:
    assert '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';' in written
    assert "<script" not in written.lower()
    # no attribute that could load anything: a fragment, or the colour bar's inline PNG
    for attr in re.findall(r'\s(?:src|href|xlink:href|action|srcset)="([^"]*)"', written):
        assert attr.startswith(("#", "data:image/png;base64,")), attr
    assert "url(http" not in written and "@import" not in written


def test_header_names_version_commit_blobs_measures(example: Path, written: str) -> None:
    head = git(example, "rev-parse", "HEAD").strip()
    assert head in written
    for run in RUNS:
        blob = git(example, "hash-object", run).strip()
        assert blob in written
    assert __version__ in written
    assert "10,000 bootstrap resamples, seed 0" in written
    for measure in ("R@10", "P@10", "nDCG@10", "RR@10", "AP@100", "Success@10"):
        assert f"<td>{measure}</td>" in written


def test_sections_in_order(written: str) -> None:
    order = [
        "<h1>labelpool report</h1>",
        "<h2>Summary</h2>",
        "<h2>Runs and measures</h2>",
        "<h2>Readings, measure by measure</h2>",
        "<h2>Scores</h2>",
        "<h2>Per question: R@10</h2>",
        "<h2>Every measure</h2>",
        "<h2>Documents to judge first</h2>",
        "<h2>Per question: the rankings side by side</h2>",
        "<h2>The pool</h2>",
        "<h2>Label history</h2>",
    ]
    places = [written.index(s) for s in order]
    assert places == sorted(places)
    assert "labelpool pool runs/bm25.trec runs/dense.trec --depth 10 --questions " in written
    assert "dense: 46% of its top 10 is unjudged" in written  # the high-rate warning
    assert "Runs of this report that built no pool: dense (46% of its top 10 unjudged)" in written
    assert written.count('<figure class="per-question">') == 3


def _text(html: str) -> str:
    """The words of an HTML fragment: code spans (commands, with their dots) and tags out."""
    html = re.sub(r"<code>.*?</code>", "CODE", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def _sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?=\s|$)", text))


def test_the_first_screen_is_one_sentence_per_finding(example: Path) -> None:
    """0.2: the report opened with one bullet per measure and run (24 bullets for 5 runs)
    before anything a reader can act on; now the summary right under the title holds one
    sentence per finding (the reading, the systems whose sign could flip, what to judge
    first), and the per-measure words come below."""
    runs = (*RUNS, "runs/hybrid.trec")
    done = labelpool(example, "report", *runs, "-o", "three.html")
    assert done.returncode == 0, done.stderr
    page = (example / "three.html").read_text(encoding="utf-8")
    body = page.split("<body>\n", 1)[1]
    assert body.startswith("<h1>labelpool report</h1>\n<h2>Summary</h2>\n")
    first = body.split("<h2>Summary</h2>", 1)[1].split("<h2>", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", first, flags=re.S)
    assert [_text(i).split(" ")[0] for i in items] == ["Reading", "Sign", "Judge"]
    assert [_sentences(_text(i)) for i in items] == [1, 1, 1]
    assert _sentences(_text(first)) == 3  # nothing else in the section
    words = [_text(i) for i in items]
    assert words[0] == (
        "Reading against bm25: dense is uninterpretable on 5 of 6 measures (its top 10 is 46% "
        "unjudged, bm25's 0%) and in need of relabelling on AP@100 (its top 100 is 84% "
        "unjudged, bm25's 80%); hybrid is uninterpretable on 5 of 6 measures (its top 10 is "
        "11% unjudged, bm25's 0%) and in need of relabelling on AP@100 (its top 100 is 81% "
        "unjudged, bm25's 80%)."
    )
    assert words[1].startswith("Sign could flip") and "dense (on R@10," in words[1]
    assert re.fullmatch(
        r"Judge first, to narrow the delta range of R@10 most \(listed below\): "
        r"dense, 20 documents over \d+ questions \(CODE\); "
        r"hybrid, 20 documents over \d+ questions \(CODE\)\.",
        words[2],
    ), words[2]
    assert "labelpool pool runs/bm25.trec runs/hybrid.trec --depth 10 --questions " in first
    # the detail is still there, below: every comparison's verdict in words
    detail = body.split("<h2>Readings, measure by measure</h2>", 1)[1].split("<h2>", 1)[0]
    assert body.index("<h2>Readings, measure by measure</h2>") > body.index(first)
    assert detail.count("<li><b>") == 12  # two challengers, six measures
    assert "Per question: 5 wins, 46 ties, 7 losses." in _text(detail)


def test_one_run_gives_the_scores_without_comparisons(example: Path) -> None:
    done = labelpool(example, "report", "runs/bm25.trec", "-o", "one.html")
    assert done.returncode == 0, done.stderr
    page = (example / "one.html").read_text(encoding="utf-8")
    assert "<h2>Scores</h2>" in page and "<h2>The pool</h2>" in page
    assert "Every measure" not in page and "per-question" not in page


def test_output_defaults_to_report_html_and_is_overwritten(example: Path) -> None:
    target = example / "report.html"
    target.write_text("old", encoding="utf-8")
    done = labelpool(example, "report", *RUNS)
    assert done.returncode == 0, done.stderr
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "wrote report.html" in done.stdout


def test_exit_codes_as_compare(example: Path) -> None:
    for args in (["runs/nope.trec", "runs/dense.trec"], [*RUNS, "-m", "nDCG@x"]):
        report = labelpool(example, "report", *args, "-o", "x.html")
        compare = labelpool(example, "compare", *args)
        assert report.returncode == compare.returncode == 2, (report.stderr, compare.stderr)
        assert "Traceback" not in report.stderr
    assert not (example / "x.html").exists()


def test_without_the_report_extra_exit_2_naming_it(example: Path) -> None:
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"  # as if matplotlib were not installed
        "from labelpool.cli import main; sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "report", *RUNS, "-o", "none.html"],
        cwd=example,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'labelpool[report]'" in done.stderr
    assert not (example / "none.html").exists()


def test_text_from_files_is_sanitised(tmp_path: Path) -> None:
    repo = example_repo(tmp_path)
    label = repo / "labels" / "cancel-order.yaml"
    text = label.read_text(encoding="utf-8")
    hostile = "question: '<img src=x onerror=alert(1)> ##[error]x'"
    label.write_text(re.sub(r"(?m)^question: .*$", hostile, text, count=1), encoding="utf-8")
    done = labelpool(repo, "report", *RUNS, "-o", "r.html")
    assert done.returncode == 0, done.stderr
    page = (repo / "r.html").read_text(encoding="utf-8")
    assert "<img" not in page and "##[" not in page
    assert "&lt;img src=x onerror=alert(1)&gt; #\\x23[error]x" in page


def test_history_outside_git_and_in_a_shallow_clone(tmp_path: Path) -> None:
    repo = example_repo(tmp_path)
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    done = labelpool(shallow, "report", *RUNS, "-o", "r.html")
    assert done.returncode == 0, done.stderr
    assert "shallow clone: the history before" in (shallow / "r.html").read_text("utf-8")
    plain = tmp_path / "plain"
    plain.mkdir()
    for name in ("labels", "runs", "corpus", "pyproject.toml"):
        git(tmp_path, "-C", str(repo), "archive", "-o", str(tmp_path / "a.tar"), "HEAD", name)
        subprocess.run(["tar", "-xf", str(tmp_path / "a.tar"), "-C", str(plain)], check=True)
    done = labelpool(plain, "report", *RUNS, "-o", "r.html")
    assert done.returncode == 0, done.stderr
    page = (plain / "r.html").read_text("utf-8")
    assert "not a git repository: no label history" in page
    blob = git(repo, "hash-object", "runs/bm25.trec").strip()
    assert blob in page  # git hash-object outside git too


def test_system_names_in_plots_are_text_not_tex_nor_markup(tmp_path: Path) -> None:
    """A run file named ``d$\\frac{1}{$<b>.trec``: its name reaches axis labels and the
    forest plot's rows; matplotlib must neither parse it as TeX (a crash) nor pass ``<b>``."""
    repo = example_repo(tmp_path)
    name = "d$\\frac{1}{$<b>"
    (repo / "runs" / f"{name}.trec").write_bytes((repo / RUNS[1]).read_bytes())
    done = labelpool(repo, "report", RUNS[0], f"runs/{name}.trec", "-o", "r.html")
    assert done.returncode == 0, done.stderr
    page = (repo / "r.html").read_text(encoding="utf-8")
    assert "$<b>" not in page  # the name's markup never reaches the page raw
    assert "d$\\frac{1}{$&lt;b&gt;" in page


def test_history_shows_the_batches_merged(tmp_path: Path) -> None:
    repo = example_repo(tmp_path)
    pooled = labelpool(repo, "pool", *RUNS, "--depth", "10", "--max-docs", "30")
    assert pooled.returncode == 0, pooled.stderr
    oracle = ("--oracle", "corpus/ground-truth.qrels", "--oracle-missing", "irrelevant")
    merged = labelpool(repo, "merge", *oracle)
    assert merged.returncode == 0, merged.stderr
    done = labelpool(repo, "report", *RUNS, "-o", "r.html")
    assert done.returncode == 0, done.stderr
    history = (repo / "r.html").read_text("utf-8").split("<h2>Label history</h2>", 1)[1]
    batch = git(repo, "log", "-1", "--format=%s").split("(", 1)[1].rstrip(")\n")
    assert "<h3>Batches merged</h3>" in history and batch in history
    assert "<td>labelpool oracle</td><td>30</td>" in history
    assert "Who judged how much, and when." in history and "<svg" in history
