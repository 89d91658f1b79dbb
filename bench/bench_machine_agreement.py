"""The example machine judge (``judges/minilm.yaml``) against people's labels, and what its
verdicts do to the example's comparison: the figures of docs/machine-judges.md.

    python bench/bench_machine_agreement.py              # agreement on three sets, and compare
    python bench/bench_machine_agreement.py --fit        # the thresholds fitted on the example
    python bench/bench_machine_agreement.py --sets example --no-compare

(from the repository root, with the ``example`` extra installed). The judge runs as labelpool
runs a ``command`` judge: the definition's ``command`` as a subprocess in the repository root,
speaking the JSON-lines protocol (the requests are written ahead, so it embeds them in
batches). Every figure is labelpool's own: the panel of ``labelpool agreement``
(``labelpool.agreement.panel``, ``figures.summarise``: raw agreement, Cohen's kappa at the
relevance threshold and with quadratic weights, Krippendorff's alpha, 95% intervals from
resampling questions, seeded by ``--seed``).

* **example**: every judged document of every question of ``labels/`` (grade 0, 1, 2: the
  developers' ground truth of the example, read off ``corpus/ground-truth.qrels``), the text
  sent as ``judge --machine`` sends it (title, a blank line, text). The thresholds of
  ``judges/minilm.yaml`` were fitted here (``--fit``: the pair that maximises kappa with
  quadratic weights on a 0.01 grid), so these figures are in-sample.
* **vaswani** (``../shared/data/vaswani``, NPL: 11,429 abstracts, 93 queries, binary
  judgments by people): each query's judged-relevant documents, and as many documents drawn at
  random (seeded) from those it has no judgment for, counted irrelevant; the scale sent is
  ``[0, 1]``, so only the first threshold counts. Out-of-sample; random negatives are easy ones,
  which flatters the judge on its irrelevant side.
* **batch**: the 772 documents that ``pool runs/bm25.trec runs/dense.trec --depth 20`` adds
  to the example (the union of both top 20s less what ``labels/`` judged), graded by
  ``corpus/ground-truth.qrels`` (absent: 0). Same corpus and judges as the fit, other
  documents: mostly the dense run's, which the BM25-pooled labels never saw.
* **compare**: ``labelpool compare runs/bm25.trec runs/dense.trec`` on a copy of the example,
  before any pooling, then after ``pool runs/bm25.trec runs/dense.trec --depth 20`` with the
  batch filled by ``labelpool judge --machine minilm`` and ``merge``, and, for reference, the
  same batch filled by the ground truth (``merge --oracle``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from labelpool.agreement import kappa, panel  # noqa: E402
from labelpool.agreement.figures import Summary, summarise  # noqa: E402
from labelpool.machine import definition  # noqa: E402

VASWANI = ROOT.parent / "shared" / "data" / "vaswani"
EXAMPLE = ("pyproject.toml", "labels", "runs", "corpus", "schema", "judges", ".gitattributes")
PEOPLE, MACHINE = "people", "minilm"


@dataclass(frozen=True)
class Case:
    """One document to judge, and the people's grade of it."""

    question_id: str
    question: str
    doc_id: str
    text: str
    people: int


# ------------------------------------------------------------------------------ the judge
def judge_command() -> list[str]:
    """The definition's ``command`` (the argv labelpool runs), read by labelpool's loader."""
    return list(definition.load(ROOT, "minilm").command)


def ask(
    command: Sequence[str], cases: Sequence[Case], grades: Sequence[int]
) -> list[dict[str, Any]]:
    """The judge's answer to every case, in order (requests written ahead by a thread)."""
    proc = subprocess.Popen(
        list(command), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def write() -> None:
        for c in cases:
            obj = {
                "question_id": c.question_id,
                "question": c.question,
                "doc_id": c.doc_id,
                "text": c.text,
                "grades": list(grades),
            }
            stdin.write(json.dumps(obj, ensure_ascii=False) + "\n")
        stdin.close()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    out = [json.loads(line) for line in proc.stdout]
    writer.join()
    if proc.wait() != 0 or len(out) != len(cases):
        raise SystemExit(f"the judge failed: status {proc.returncode}, {len(out)} answers")
    for c, a in zip(cases, out, strict=True):
        if a.get("doc_id") != c.doc_id:
            raise SystemExit(f"the judge answered {a.get('doc_id')!r} for {c.doc_id!r}")
    return out


def grades_of(answers: Sequence[dict[str, Any]]) -> list[float]:
    """Each answer's grade; NaN (no verdict) for an error line."""
    return [float(a["grade"]) if "grade" in a else math.nan for a in answers]


def cosine(answer: dict[str, Any]) -> float:
    return float(str(answer["raw"]).split()[-1])


# ------------------------------------------------------------------------------ the sets
def example_cases(root: Path = ROOT) -> list[Case]:
    """Every judged document of every question of the example, with its grade."""
    texts = {}
    for line in (root / "corpus" / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            texts[d["_id"]] = f"{d['title']}\n\n{d['text']}"
    cases = []
    for path in sorted((root / "labels").glob("*.yaml")):
        label = yaml.safe_load(path.read_text(encoding="utf-8"))
        relevant = set(label.get("relevant_doc_ids") or [])
        grades = label.get("grades") or {}
        for doc in sorted(label.get("judged_ids") or []):
            people = int(grades.get(doc, 1)) if doc in relevant else 0
            cases.append(Case(label["id"], label["question"], doc, texts[doc], people))
    return cases


def trec_texts(path: Path, tag: str, key: str) -> dict[str, str]:
    """``<key>`` -> text of each ``<tag>`` element of a TREC-style file (whitespace joined)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    out = {}
    for block in re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.S):
        found = re.search(rf"<{key}>\s*(\S+?)\s*</{key}>", block)
        if found:
            body = re.sub(rf"<{key}>.*?</{key}>", " ", block, flags=re.S)
            body = re.sub(r"</?title>", " ", body)
            out[found.group(1)] = " ".join(body.split())
    return out


def vaswani_cases(data: Path, seed: int) -> list[Case]:
    """Each query's judged-relevant documents (1), and as many unjudged ones drawn at random (0)."""
    queries = trec_texts(data / "query-text.trec", "top", "num")
    docs = trec_texts(data / "corpus" / "doc-text.trec", "DOC", "DOCNO")
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in (data / "qrels").read_text(encoding="utf-8").splitlines():
        if line.strip():
            qid, _, doc, grade = line.split()
            qrels[qid][doc] = int(grade)
    rng = random.Random(seed)
    ids = sorted(docs, key=int)
    cases = []
    for qid in sorted(qrels, key=int):
        if qid not in queries:
            continue
        judged = qrels[qid]
        relevant = sorted((d for d, g in judged.items() if g > 0 and d in docs), key=int)
        negatives = rng.sample([d for d in ids if d not in judged], len(relevant))
        for doc, people in [(d, 1) for d in relevant] + [
            (d, 0) for d in sorted(negatives, key=int)
        ]:
            cases.append(Case(qid, queries[qid], doc, docs[doc], people))
    return cases


# ------------------------------------------------------------------------------ agreement
def agreement(cases: Sequence[Case], machine: Sequence[float], seed: int) -> Summary:
    """labelpool agreement's figures of people vs the machine on ``cases``."""
    questions = sorted({c.question_id for c in cases})
    index = {q: i for i, q in enumerate(questions)}
    rows = [
        (index[c.question_id], c.doc_id, (float(c.people), float(m)))
        for c, m in zip(cases, machine, strict=True)
    ]
    return summarise(panel.build((PEOPLE, MACHINE), questions, rows), replicates=1000, seed=seed)


def fit(people: np.ndarray, cosines: np.ndarray) -> tuple[float, float]:
    """The thresholds (t1 < t2, a 0.01 grid) that maximise quadratic-weighted kappa."""
    values = np.array([0, 1, 2])
    grid = np.round(np.arange(0.0, 1.0, 0.01), 2)
    best = (-2.0, 0.0, 0.0)
    for i, t1 in enumerate(grid):
        for t2 in grid[i + 1 :]:
            machine = (cosines >= t1).astype(np.int64) + (cosines >= t2)
            value = float(
                kappa.kappa_of(kappa.confusion(people, machine, 3), kappa.QUADRATIC, values)
            )
            if value > best[0] + 1e-12:
                best = (value, float(t1), float(t2))
    return best[1], best[2]


def report(name: str, summary: Summary) -> None:
    print(f"## {name}: {summary.documents} documents, {summary.questions} questions")
    (pair,) = summary.pairs
    print("| figure | value | 95% interval |")
    print("|---|---|---|")
    figures = [f for f in summary.figures if "alpha" in f.statistic] + list(pair.figures)
    for f in figures:
        value = "undefined" if f.value is None else f"{f.value:.3f}"
        ci = f"{f.interval[0]:.3f} to {f.interval[1]:.3f}" if f.interval else ""
        print(f"| {f.statistic}, {f.weighting} | {value} | {ci} |")
    print()
    print("| people \\ machine | " + " | ".join(str(v) for v in summary.values) + " |")
    print("|---" * (len(summary.values) + 1) + "|")
    for v, row in zip(summary.values, pair.confusion, strict=True):
        print(f"| {v} | " + " | ".join(str(n) for n in row) + " |")
    print()


# ------------------------------------------------------------------------------ compare
def labelpool(repo: Path, *args: str) -> str:
    """``labelpool ARGS`` of this checkout in ``repo``, its cache beside ``repo`` (a fresh one:
    ``judge --machine`` asks the judge, not an earlier run's response cache)."""
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT / "tools"),
        COLUMNS="100",
        LABELPOOL_CACHE_DIR=str(repo.parent / "cache"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "labelpool", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"labelpool {' '.join(args)}: {done.stderr}")
    return done.stdout


def example_copy(folder: Path) -> Path:
    repo = folder / "example"
    repo.mkdir()
    for name in EXAMPLE:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name)
        elif src.exists():
            shutil.copy2(src, repo / name)
    for cmd in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "example"]):
        subprocess.run(["git", *cmd], cwd=repo, check=True)
    return repo


def read_qrels(path: Path) -> dict[tuple[str, str], int]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            qid, _, doc, grade = line.split()
            out[qid, doc] = int(grade)
    return out


def pooled(repo: Path = ROOT) -> list[Case]:
    """The documents ``pool runs/bm25.trec runs/dense.trec --depth 20`` adds to the example
    (the union of both top 20s less what is judged), graded by the ground truth (0: absent)."""
    truth = read_qrels(repo / "corpus" / "ground-truth.qrels")
    texts = {}
    for line in (repo / "corpus" / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            texts[d["_id"]] = f"{d['title']}\n\n{d['text']}"
    top: dict[str, set[str]] = defaultdict(set)
    for run in ("bm25", "dense"):
        for line in (repo / "runs" / f"{run}.trec").read_text(encoding="utf-8").splitlines():
            qid, _, doc, rank, *_ = line.split()
            if int(rank) <= 20:
                top[qid].add(doc)
    cases = []
    for path in sorted((repo / "labels").glob("*.yaml")):
        label = yaml.safe_load(path.read_text(encoding="utf-8"))
        qid, judged = label["id"], set(label.get("judged_ids") or [])
        for doc in sorted(top[qid] - judged):
            people = truth.get((qid, doc), 0)
            cases.append(Case(qid, label["question"], doc, texts[doc], people))
    return cases


def compare_section(cases: Sequence[Case]) -> None:
    """compare before pooling, after ``judge --machine minilm`` fills the batch, and after the
    ground truth fills it instead (``merge --oracle``)."""
    measures = ("R@10", "nDCG@10")
    with tempfile.TemporaryDirectory() as tmp:
        base = example_copy(Path(tmp))
        print("## labelpool compare runs/bm25.trec runs/dense.trec: the example as shipped\n")
        print(labelpool(base, "compare", "runs/bm25.trec", "runs/dense.trec", *_m(measures)))
        labelpool(base, "pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "20")
        truth = Path(tmp) / "truth"
        shutil.copytree(base, truth)
        print(f"## ... after pool runs/bm25.trec runs/dense.trec --depth 20 ({len(cases)} docs)\n")
        print(labelpool(base, "judge", "--machine", "minilm"))
        print(labelpool(base, "merge"))
        print(labelpool(base, "compare", "runs/bm25.trec", "runs/dense.trec", *_m(measures)))
        gt = str(ROOT / "corpus" / "ground-truth.qrels")
        labelpool(truth, "merge", "--oracle", gt, "--oracle-missing", "irrelevant")
        relevant = sum(1 for c in cases if c.people > 0)
        print(f"## ... the same batch filled by the ground truth instead ({relevant} relevant)\n")
        print(labelpool(truth, "compare", "runs/bm25.trec", "runs/dense.trec", *_m(measures)))


def _m(measures: Sequence[str]) -> list[str]:
    return [a for m in measures for a in ("-m", m)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sets", default="example,vaswani,batch", help="of example, vaswani, batch"
    )
    parser.add_argument(
        "--fit", action="store_true", help="print the thresholds fitted on the example"
    )
    parser.add_argument("--no-compare", action="store_true", help="skip the comparison")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    command = judge_command()
    sets = args.sets.split(",")
    if "example" in sets or args.fit:
        cases = example_cases()
        answers = ask(command, cases, (0, 1, 2))
        if args.fit:
            people = np.array([c.people for c in cases])
            t1, t2 = fit(people, np.array([cosine(a) for a in answers]))
            print(f"fitted on the example ({len(cases)} documents): --thresholds {t1:.2f},{t2:.2f}")
            return 0
        summary = agreement(cases, grades_of(answers), args.seed)
        report("example (in-sample: the thresholds were fitted here)", summary)
    if "vaswani" in sets:
        if not VASWANI.is_dir():
            print(f"no {VASWANI}: Vaswani skipped\n")
        else:
            cases = vaswani_cases(VASWANI, args.seed)
            answers = ask(command, cases, (0, 1))
            summary = agreement(cases, grades_of(answers), args.seed)
            report("Vaswani (out-of-sample; negatives drawn at random)", summary)
    if "batch" in sets or not args.no_compare:
        cases = pooled()
        if "batch" in sets:
            answers = ask(command, cases, (0, 1, 2))
            summary = agreement(cases, grades_of(answers), args.seed)
            report("the example's bm25+dense batch (out of the fit; ground truth)", summary)
        if not args.no_compare:
            compare_section(cases)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
