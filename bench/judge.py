"""The judging page's speed: from a key press to the verdict on disk and the next document
shown, on a batch of 1,000 documents (``docs/benchmarks.md``, "The judging page").

    python bench/judge.py                      # 100 questions x 10 documents, 300 presses
    python bench/judge.py --questions 50 --docs 20 --presses 500

A label repository is generated in a temp folder (one pending batch written as ``labelpool
pool`` writes it, chunk text of about 600 characters per document in the corpus and in the
batch), committed, and served by ``labelpool judge --port 0 --no-browser``; headless Chromium
(Debian's ``chromium``, through Playwright) presses ``1``/``0`` and each press is timed from
just before the key event to the moment the page shows the next document with its answer in
(the server answers after the atomic write, fsync included). Every verdict is then checked on
disk. Prints the median, p95 and max in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from labelpool import batch

WORDS = [
    "order",
    "parcel",
    "return",
    "refund",
    "delivery",
    "warranty",
    "invoice",
    "account",
    "password",
    "store",
    "app",
    "payment",
    "card",
    "days",
    "free",
    "charge",
    "damaged",
    "item",
    "exchange",
    "policy",
    "customer",
    "service",
    "label",
]


def make_repo(root: Path, questions: int, docs: int, seed: int) -> None:
    rnd = random.Random(seed)
    (root / "labels").mkdir(parents=True)
    (root / "corpus").mkdir()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "bench"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n'
        'corpus = "corpus/corpus.jsonl"\n',
        encoding="utf-8",
    )
    with open(root / "corpus" / "corpus.jsonl", "w", encoding="utf-8") as corpus:
        for q in range(questions):
            ids = [f"doc-{q:04d}-{d:03d}#p{d % 7}" for d in range(docs)]
            texts = {}
            for doc in ids:
                text = " ".join(rnd.choice(WORDS) for _ in range(90))
                texts[doc] = text
                corpus.write(json.dumps({"_id": doc, "title": doc, "text": text}) + "\n")
            head = batch.NewBatch(
                batch="2026-12-04-a+b@20",
                systems=("a", "b"),
                depth=20,
                date="2026-12-04",
                runs={},
                docs=tuple(ids),
            )
            qtext = f"Question {q} about " + " ".join(rnd.choice(WORDS) for _ in range(8)) + "?"
            label = f"id: q{q:04d}\nquestion: {qtext}\njudged_ids: []\n"
            label = batch.append(label, batch.render(head, qtext, texts))
            (root / "labels" / f"q{q:04d}.yaml").write_text(label, encoding="utf-8")
    for args in (
        ("init", "-q", "-b", "main"),
        ("config", "user.name", "Bench Judge"),
        ("config", "user.email", "bench@example.org"),
        ("add", "-A"),
        ("commit", "-q", "-m", "batch"),
    ):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


SHOWN = (
    "() => document.body.dataset.busy !== '1' && document.getElementById('doc-id').textContent !== "
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("--docs", type=int, default=10)
    ap.add_argument("--presses", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        make_repo(root, args.questions, args.docs, args.seed)
        server = subprocess.Popen(
            [sys.executable, "-m", "labelpool", "judge", "--port", "0", "--no-browser"],
            cwd=root,
            stdout=subprocess.PIPE,
            text=True,
        )
        times: list[float] = []
        judged: list[tuple[str, str, str]] = []
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split(": ", 1)[1].strip()
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=shutil.which("chromium"), args=["--no-sandbox"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                t0 = time.perf_counter()
                page.goto(url)
                page.wait_for_selector("body[data-ready='1']")
                load = time.perf_counter() - t0
                for i in range(min(args.presses, args.questions * args.docs)):
                    shown = page.text_content("#doc-id") or ""
                    doc, qid = shown.split("  (")[0], shown.rsplit(" for ", 1)[1].rstrip(")")
                    key = "1" if i % 3 == 0 else "0"
                    start = time.perf_counter()
                    page.keyboard.press(key)
                    page.wait_for_function(SHOWN + json.dumps(shown), polling="raf")
                    times.append((time.perf_counter() - start) * 1000)
                    judged.append((qid, doc, "relevant" if key == "1" else "irrelevant"))
                browser.close()
        finally:
            server.terminate()
            server.wait()
        for qid, doc, verdict in judged:
            text = (root / "labels" / f"{qid}.yaml").read_text(encoding="utf-8")
            assert f"{{doc: {doc}, verdict: {verdict}}}" in text, (qid, doc)
    times.sort()
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(
        f"batch of {args.questions * args.docs} documents ({args.questions} questions x "
        f"{args.docs}); page load {load * 1000:.0f} ms; {len(times)} key presses, each "
        f"verdict checked on disk"
    )
    print(
        f"key press -> verdict on disk and next document shown: median "
        f"{statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
