"""A run grouped by question scored in windows equals the same run scored whole; a run that
is not grouped is refused by the window reader (the workflow then reads it whole)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool.model import Label, label_from_data
from labelpool.runs import read_run
from labelpool.runs.stream import Unstreamable, windows
from labelpool.scoring import score
from labelpool.scoring.evaluate import SystemScore, score_windows
from labelpool.scoring.measures import parse

MEASURES = parse(["P@5 R@10 nDCG@10 RR AP Success@3 Judged@5"])
FILLER = 3000  # questions the labels lack, so the file passes the 64 KiB head


def _labels(rnd: random.Random, nq: int) -> dict[str, Label]:
    out = {}
    for q in range(nq):
        judged = sorted(rnd.sample([f"d{i}" for i in range(20)], rnd.randint(0, 8)))
        relevant = [d for d in judged if rnd.random() < 0.4]
        out[f"q{q:03d}"] = label_from_data(
            {"id": f"q{q:03d}", "question": "?", "judged_ids": judged, "relevant_doc_ids": relevant}
        )
    return out


def _grouped_run(rnd: random.Random, nq: int, sep: str) -> str:
    lines = []
    questions = [f"q{q:03d}" for q in range(nq + 2) if rnd.random() < 0.8]
    questions += [f"z{i:05d}" for i in range(FILLER)]
    rnd.shuffle(questions)  # grouped, in any order of questions
    for qid in questions:
        depth = rnd.randint(1, 25) if qid[0] == "q" else 1
        docs = rnd.sample([f"d{i}" for i in range(30)], depth)
        for rank, doc in enumerate(docs, start=1):
            score = rnd.choice([1, 2, 3, 3.5, 4]) if rnd.random() < 0.5 else 10 - rank
            lines.append(sep.join([qid, "Q0", doc, str(rank), str(score), "sys"]) + "\n")
    return "".join(lines)


def _same(a: SystemScore, b: SystemScore) -> None:
    assert list(a.qids) == list(b.qids)
    assert a.skipped == b.skipped
    assert a.judged_seen == b.judged_seen
    assert a.unjudged_rate == b.unjudged_rate
    assert a.unjudged.tolist() == b.unjudged.tolist()
    assert a.warnings == b.warnings
    for m, variants in a.per_query.items():
        for variant, values in variants.items():
            assert values.tolist() == b.per_query[m][variant].tolist(), (m, variant)
    assert a.means == b.means


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from([" ", "\t"]), st.integers(20, 2500))
def test_windows_equal_whole(seed: int, sep: str, rows: int) -> None:
    """Parsed in 4 KiB blocks (about 150 rows), so that there are several windows."""
    rnd = random.Random(seed)
    nq = rnd.randint(1, 30)
    labels = _labels(rnd, nq)
    if not any(lab.is_judged for lab in labels.values()):
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sys.trec"
        path.write_text(_grouped_run(rnd, nq, sep))
        whole = score(read_run(path), labels, MEASURES, k=10)
        parts = list(windows(path, rows=rows, block=4096))
        assert len(parts) >= 2
        streamed = score_windows(
            iter(parts), labels, MEASURES, k=10, name="sys", path=path, sha256=whole.run_sha256
        )
    _same(streamed, whole)


def test_a_question_met_again_is_not_grouped(tmp_path: Path) -> None:
    rnd = random.Random(1)
    text = _grouped_run(rnd, 5, " ")
    path = tmp_path / "sys.trec"
    path.write_text(text + text.splitlines(keepends=True)[0].replace("Q0 ", "Q0 again-"))
    with pytest.raises(Unstreamable, match="not grouped by question"):
        for _ in windows(path, rows=100):
            pass


def test_small_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "sys.trec"
    path.write_text("q1 Q0 d1 1 1 s\n")
    with pytest.raises(Unstreamable):
        next(windows(path))
    assert np.array_equal(read_run(path).qids, np.array(["q1"], dtype=object))
