"""Property: the unjudged rate read from the cut rankings compare holds
(:func:`labelpool.scoring.evaluate.unjudged_in` over :func:`labelpool.scoring.join.top_rows`)
equals the reference (:func:`labelpool.scoring.evaluate.unjudged_at`, a join of the whole
run) to the last bit, at every cut-off: ties in scores, a document in several questions or
twice in one ranking, questions the run lacks and run questions the labels lack."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.model import Label, label_from_data
from labelpool.runs import Run, read_run
from labelpool.scoring.evaluate import unjudged_at, unjudged_in
from labelpool.scoring.join import top_rows
from labelpool.scoring.qrels import qrels_for

DOCS = tuple(f"d{i}" for i in range(8))
QIDS = tuple(f"q{i}" for i in range(5))

# per labelled question: judged documents with their grades, and pooled-but-unjudged ones
label_q = st.tuples(
    st.dictionaries(st.sampled_from(DOCS), st.integers(0, 3), max_size=6),
    st.sets(st.sampled_from(DOCS), max_size=2),
)
labels_st = st.dictionaries(st.sampled_from(QIDS), label_q, min_size=1, max_size=4)
# per run question: (document, score) rows; few scores, so ties are common
ranking = st.lists(st.tuples(st.sampled_from(DOCS), st.integers(1, 3)), max_size=10)
run_st = st.dictionaries(st.sampled_from(QIDS), ranking, max_size=5)


def _labels(spec: dict[str, tuple[dict[str, int], set[str]]]) -> dict[str, Label]:
    out = {}
    for q, (grades, pooled) in spec.items():
        judged = sorted(grades)
        data: dict[str, object] = {
            "id": q,
            "question": "?",
            "judged_ids": judged,
            "relevant_doc_ids": sorted(d for d, g in grades.items() if g > 0),
            "grades": {d: g for d, g in grades.items() if g > 1},
        }
        rest = sorted(pooled - set(judged))
        if rest:
            data["pooled_unjudged_ids"] = rest
        out[q] = label_from_data(data)
    return out


def _read(spec: dict[str, list[tuple[str, int]]]) -> Run:
    """A run file read as the CLI reads it (duplicates within a question dropped: the
    reader refuses them; ties in scores kept)."""
    lines = []
    for q, rows in spec.items():
        seen: set[str] = set()
        for d, s in rows:
            if d not in seen:
                seen.add(d)
                lines.append(f"{q} Q0 {d} 0 {s} sys\n")
    if not lines:
        lines.append("zz Q0 d0 0 1 sys\n")  # a run of one question the labels lack
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.trec"
        path.write_text("".join(lines))
        return read_run(path)


def _built(spec: dict[str, list[tuple[str, int]]]) -> Run:
    """A run built in memory in the given order, a document twice in a ranking allowed."""
    qids = sorted(spec)
    vocab = list(DOCS)
    codes = [vocab.index(d) for q in qids for d, _ in spec[q]]
    offsets = np.cumsum([0, *(len(spec[q]) for q in qids)]).astype(np.int64)
    return Run(
        name="built",
        path=Path("built"),
        sha256="0" * 64,
        qids=np.array(qids, dtype=object),
        offsets=offsets,
        doc_codes=np.array(codes, dtype=np.int32),
        doc_vocab=pa.array(vocab, type=pa.string()),
        scores=np.array([float(s) for q in qids for _, s in spec[q]], dtype=np.float64),
    )


def _same(run: Run, labels: dict[str, Label]) -> None:
    qrels = qrels_for(labels)
    qids = [str(q) for q in qrels.qids]
    for depth in (1, 3, 12, None):
        rows = top_rows(run, qrels, depth, qrels.qids)
        for k in range(1, 13):
            if depth is not None and k > depth:
                break
            want_per, want_rate = unjudged_at(run, labels, qids, k)
            got_per, got_rate = unjudged_in(rows, k)
            assert got_per.dtype == want_per.dtype
            assert got_per.tobytes() == want_per.tobytes(), (depth, k)
            assert repr(got_rate) == repr(want_rate), (depth, k)


@settings(max_examples=150, deadline=None)
@given(labels_st, run_st)
def test_rate_from_rows_equals_join_read(label_spec: dict, run_spec: dict) -> None:  # type: ignore[type-arg]
    _same(_read(run_spec), _labels(label_spec))


@settings(max_examples=150, deadline=None)
@given(labels_st, run_st)
def test_rate_from_rows_equals_join_duplicates(label_spec: dict, run_spec: dict) -> None:  # type: ignore[type-arg]
    _same(_built(run_spec), _labels(label_spec))
