"""Score one run against the labels: every measure raw, judged-only and optimistic, and the
unjudged rate beside them.

Public API:

* :func:`score` ``(run, labels, measures, *, k=10, relevance_level=1) -> SystemScore``.
* :func:`unjudged_at` ``(run, labels, qids, k) -> (per_query, rate)``: the unjudged rate at
  any cut-off over the given questions (in their order).
* :func:`scored_qids` ``(labels) -> np.ndarray``: the judged questions, sorted by code point;
  every :class:`SystemScore` over the same labels uses exactly this order, so two systems'
  ``per_query`` arrays align question by question.
* :class:`SystemScore`, :class:`MeasureMeans`.

Questions: run questions unknown to the labels are ignored (``skipped["not_in_labels"]``);
labels nobody has judged yet are left out of every average (``skipped["not_judged"]``);
judged questions the run lacks score 0, as trec_eval ``-c`` (``skipped["missing_from_run"]``,
still averaged over). Pending batch entries and ``pooled_unjudged_ids`` are unjudged, whatever
else the label says (``skipped["pending_docs"]`` counts pending documents).

The unjudged rate (the headline) is, over all scored questions,
``1 - sum(judged in top k) / sum(min(k, returned))``: a pooled ratio, not a mean of the
per-question rates, so a question that returned 3 documents weighs less than one that
returned k. A document is judged when it is in ``judged_ids`` or in one of the question's
classes. It differs from trec_eval's ``unj@k`` (which divides by k, also when fewer documents
were returned) and from ir_measures' ``Judged@k`` (which breaks score ties by doc id ascending,
not trec_eval's descending, and divides by the length of the returned list). The per-question
rate of a question the run does not answer is 0 (nothing was seen).

* :func:`prepare` ``(labels, cache_file)`` / :func:`cache_file_for` ``(labels_dir)``: build
  the judgment arrays once, or load them from a cache file keyed by the labels' digest.

The join of (question, document) to grades is vectorised: the labels' documents become one
dictionary (a pyarrow array); the run's distinct document ids are looked up in it with
``pyarrow.compute.index_in`` and (question, code) pairs are matched with ``np.searchsorted``.
Only rows that can matter (each question's top ``depth`` and the labelled documents) become
per-row arrays, so 7 million run lines cost a few hundred thousand rows of arithmetic.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from labelpool import atomic
from labelpool.measures import Measure, parse
from labelpool.measures.compute import Ranked, condensed, optimistic, per_query
from labelpool.model import Label
from labelpool.runs import Run, arrow_strings, numpy_of

UNJUDGED = -1  # grade code of a pooled-but-unjudged or pending document


@dataclass(frozen=True)
class MeasureMeans:
    raw: float
    judged_only: float
    optimistic: float


@dataclass(frozen=True, eq=False)
class SystemScore:
    system: str
    run_path: Path
    run_sha256: str
    k: int
    relevance_level: int
    measures: tuple[Measure, ...]
    qids: np.ndarray  # judged questions averaged over, sorted (shared by every system)
    skipped: Mapping[str, int]
    unjudged: np.ndarray  # per question, at k
    unjudged_rate: float  # pooled over questions: 1 - judged / seen
    judged_seen: tuple[int, int]  # (judged, seen) summed over questions, at k
    per_query: Mapping[str, Mapping[str, np.ndarray]]  # measure -> raw/judged_only/optimistic
    means: Mapping[str, MeasureMeans]
    warnings: tuple[str, ...] = field(default=())


@dataclass(frozen=True, eq=False)
class _Qrels:
    """Judgments of the scored questions as arrays, sorted by (question, doc code) key."""

    qids: np.ndarray
    vocab: Any  # pyarrow StringArray of every labelled doc id
    keys: np.ndarray  # int64 qi * len(vocab) + code, sorted
    grade: np.ndarray  # int64 grade, or UNJUDGED
    target: np.ndarray  # int64 relevance target id (class or doc), -1 for none
    ideal_q: np.ndarray
    ideal_g: np.ndarray
    pending_docs: int
    not_judged: int
    label_ids: frozenset[str]


_CACHE: list[tuple[Mapping[str, Label], _Qrels]] = []


def scored_qids(labels: Mapping[str, Label]) -> np.ndarray:
    """Judged questions of ``labels``, sorted by code point (the order of every result)."""
    return np.array(sorted(q for q, lab in labels.items() if lab.is_judged), dtype=object)


def _qrels(labels: Mapping[str, Label]) -> _Qrels:
    for held, prepared in _CACHE:
        if held is labels:
            return prepared
    prepared = _build_qrels(labels, scored_qids(labels))
    _CACHE.append((labels, prepared))
    del _CACHE[:-4]
    return prepared


CACHE_FORMAT = 1


def prepare(labels: Mapping[str, Label], cache_file: Path | None) -> None:
    """Make the judgment arrays of ``labels`` ready for :func:`score`, through a file cache.

    ``cache_file`` (outside the tracked tree; safe to delete) holds the arrays of the last
    label set seen with its content digest (``LabelSet.digest``): when the digest matches they
    are loaded instead of rebuilt from every label; otherwise they are built and the file is
    replaced atomically. Without a digest or a file this only builds them in memory.
    """
    digest = str(getattr(labels, "digest", "") or "")
    if cache_file is None or not digest:
        _qrels(labels)
        return
    for held, _ in _CACHE:
        if held is labels:
            return
    loaded = _load_cached(cache_file, digest)
    if loaded is not None:
        _CACHE.append((labels, loaded))
        del _CACHE[:-4]
        return
    _save_cached(cache_file, digest, _qrels(labels))


def cache_file_for(labels_dir: Path) -> Path:
    """Where :func:`prepare` keeps the arrays of one label folder (labelpool's cache folder)."""
    import hashlib

    from labelpool import cache

    key = hashlib.sha256(str(labels_dir.resolve()).encode()).hexdigest()[:24]
    return cache.cache_dir() / f"score-qrels-{key}.npz"


def _load_cached(cache_file: Path, digest: str) -> _Qrels | None:
    import pyarrow as pa

    try:
        with np.load(cache_file, allow_pickle=False) as data:
            meta = data["meta"]
            if str(data["digest"]) != digest or int(meta[0]) != CACHE_FORMAT:
                return None
            offsets = data["vocab_offsets"]
            small = int(offsets[-1]) < 2**31  # the run's ids are pa.string: match the type
            vocab = pa.Array.from_buffers(
                pa.string() if small else pa.large_string(),
                len(offsets) - 1,
                [
                    None,
                    pa.py_buffer(offsets.astype(np.int32) if small else offsets),
                    pa.py_buffer(data["vocab_data"].tobytes()),
                ],
            )
            return _Qrels(
                qids=data["qids"].astype(object),
                vocab=vocab,
                keys=data["keys"],
                grade=data["grade"],
                target=data["target"],
                ideal_q=data["ideal_q"],
                ideal_g=data["ideal_g"],
                pending_docs=int(meta[1]),
                not_judged=int(meta[2]),
                label_ids=frozenset(str(q) for q in data["label_ids"]),
            )
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None  # missing, old or corrupt: rebuilt


def _save_cached(cache_file: Path, digest: str, q: _Qrels) -> None:
    import pyarrow as pa

    vocab = q.vocab.cast(pa.large_string())
    buffers = vocab.buffers()
    offsets = np.frombuffer(
        buffers[1], dtype=np.int64, count=len(vocab) + 1, offset=vocab.offset * 8
    )
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0)
    data = data[int(offsets[0]) : int(offsets[-1])]
    arrays = {
        "digest": np.array(digest),
        "meta": np.array([CACHE_FORMAT, q.pending_docs, q.not_judged], dtype=np.int64),
        "qids": np.array([str(x) for x in q.qids], dtype=str),
        "label_ids": np.array(sorted(q.label_ids), dtype=str),
        "vocab_offsets": offsets - offsets[0],
        "vocab_data": data.astype(np.uint8),
        "keys": q.keys,
        "grade": q.grade,
        "target": q.target,
        "ideal_q": q.ideal_q,
        "ideal_g": q.ideal_g,
    }
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        atomic.write_bytes(cache_file, buffer.getvalue())
    except OSError:
        pass  # a cache that cannot be written only costs time


def _build_qrels(labels: Mapping[str, Label], qids: np.ndarray) -> _Qrels:
    import pyarrow.compute as pc

    q_of: list[int] = []
    docs: list[str] = []
    grades: list[int] = []
    targets: list[int] = []
    ideal_q: list[int] = []
    ideal_g: list[int] = []
    pending = 0
    next_target = 0
    for i, qid in enumerate(qids):
        lab = labels[qid]
        marked = lab.unjudged_marked
        pending += len(lab.pending_ids)
        gain = lab.gain
        if marked:
            gain = {d: g for d, g in gain.items() if d not in marked}
        n = len(gain)
        q_of.extend([i] * n)
        docs.extend(gain)
        grades.extend(gain.values())
        relevant = [(d, g) for d, g in gain.items() if g > 0]
        if relevant:
            # one relevance target per class (or per relevant document outside classes)
            class_of = lab.class_of
            target_code: dict[str, int] = {}
            for d, g in relevant:
                name = class_of.get(d, d)
                if name not in target_code:
                    target_code[name] = next_target + len(target_code)
                    ideal_q.append(i)
                    ideal_g.append(g)
            next_target += len(target_code)
            targets.extend(
                target_code[class_of.get(d, d)] if g > 0 else -1 for d, g in gain.items()
            )
        else:
            targets.extend([-1] * n)
        if marked:
            q_of.extend([i] * len(marked))
            docs.extend(marked)
            grades.extend([UNJUDGED] * len(marked))
            targets.extend([-1] * len(marked))
    encoded = pc.dictionary_encode(arrow_strings(docs))
    vocab = encoded.dictionary
    codes = numpy_of(encoded.indices).astype(np.int64)
    width = max(len(vocab), 1)
    keys = np.asarray(q_of, dtype=np.int64) * width + codes
    order = np.argsort(keys, kind="stable")
    not_judged = sum(1 for lab in labels.values() if not lab.is_judged)
    return _Qrels(
        qids=qids,
        vocab=vocab,
        keys=keys[order],
        grade=np.asarray(grades, dtype=np.int64)[order],
        target=np.asarray(targets, dtype=np.int64)[order],
        ideal_q=np.asarray(ideal_q, dtype=np.int64),
        ideal_g=np.asarray(ideal_g, dtype=np.int64),
        pending_docs=pending,
        not_judged=not_judged,
        label_ids=frozenset(str(q) for q in labels),
    )


@dataclass(frozen=True, eq=False)
class _Joined:
    ranked: Ranked
    not_in_labels: int
    missing_from_run: int
    run_qi: np.ndarray  # scored-question index of each run question (-1: not in labels)


def _join(run: Run, qrels: _Qrels, depth: int, qids: np.ndarray | None = None) -> _Joined:
    """The rows of ``run`` that can matter, restricted to the scored questions.

    Kept: every row in a question's top ``depth`` (the deepest cut-off asked for) and every
    row whose document carries a label for its question (judged or marked unjudged); the
    other rows can change no measure, bound or rate, so millions of run lines shrink to the
    few that count before any per-row array is built. Positions stay the run's own.
    """
    import pyarrow.compute as pc

    if qids is None:
        qids = qrels.qids
    nq = len(qids)
    position = {str(q): i for i, q in enumerate(qids)}
    run_qi = np.array([position.get(str(q), -1) for q in run.qids], dtype=np.int64)
    counts = np.diff(run.offsets)
    starts = run.offsets[:-1]
    # the labels' question index of each scored question, for the grade lookup
    label_index = {str(q): i for i, q in enumerate(qrels.qids)}
    to_label = np.array([label_index.get(str(q), -1) for q in qids], dtype=np.int64)
    # run vocabulary -> labels vocabulary (a hash lookup over distinct ids only)
    found_at = pc.index_in(run.doc_vocab, value_set=qrels.vocab)  # null: not labelled
    in_labels = numpy_of(found_at, fill=-1).astype(np.int32, copy=False)
    scored = run_qi >= 0
    width = max(len(qrels.vocab), 1)
    wanted = np.zeros(len(run), dtype=bool)
    top_n = np.where(scored, np.minimum(counts, depth), 0)
    wanted[np.repeat(starts, top_n) + _ranks(top_n)] = True
    if len(qrels.keys):
        # rows whose document is labelled for their own question, found in slices of a
        # million rows so that no int64 array of the whole run is ever built
        per_q = np.where(scored, to_label[np.maximum(run_qi, 0)], -1).astype(np.int32)
        row_lq = np.repeat(per_q, counts)
        step = 1 << 20
        for lo in range(0, len(run), step):
            part_code = in_labels[run.doc_codes[lo : lo + step]]
            part_lq = row_lq[lo : lo + step]
            cand = np.flatnonzero((part_code >= 0) & (part_lq >= 0))
            key = part_lq[cand].astype(np.int64) * width + part_code[cand]
            at = np.minimum(np.searchsorted(qrels.keys, key), len(qrels.keys) - 1)
            wanted[lo + cand[qrels.keys[at] == key]] = True
        del row_lq
    rows = np.flatnonzero(wanted).astype(np.int64)
    del wanted
    run_q = np.searchsorted(run.offsets, rows, side="right") - 1
    row_qi = run_qi[run_q]
    pos = rows - starts[run_q]
    if len(row_qi) and bool((np.diff(row_qi) < 0).any()):
        order = np.lexsort((pos, row_qi))  # questions asked for in another order
        rows, row_qi, pos = rows[order], row_qi[order], pos[order]
    row_code = in_labels[run.doc_codes[rows]].astype(np.int64)
    lq = to_label[row_qi] if len(row_qi) else np.zeros(0, dtype=np.int64)
    row_key = lq * width + row_code
    if len(qrels.keys):
        at = np.minimum(np.searchsorted(qrels.keys, row_key), len(qrels.keys) - 1)
        found = (row_code >= 0) & (lq >= 0) & (qrels.keys[at] == row_key)
        grade = np.where(found, qrels.grade[at], UNJUDGED)
        target = np.where(found, qrels.target[at], -1)
    else:
        grade = np.full(len(rows), UNJUDGED, dtype=np.int64)
        target = np.full(len(rows), -1, dtype=np.int64)
    judged = grade != UNJUDGED
    gain = np.where(judged, grade, 0)
    # A relevance target is earned once: by its first member retrieved.
    has_target = np.flatnonzero(target >= 0)
    if len(has_target):
        _, first = np.unique(target[has_target], return_index=True)
        repeat = np.ones(len(has_target), dtype=bool)
        repeat[first] = False
        gain[has_target[repeat]] = 0
    returned = np.zeros(nq, dtype=np.int64)
    returned[run_qi[scored]] = counts[scored]
    if qids is qrels.qids:
        ideal_q, ideal_g = qrels.ideal_q, qrels.ideal_g
    else:
        back = np.full(len(qrels.qids), -1, dtype=np.int64)
        back[to_label[to_label >= 0]] = np.flatnonzero(to_label >= 0)
        mapped = back[qrels.ideal_q] if len(qrels.ideal_q) else qrels.ideal_q
        ideal_q, ideal_g = mapped[mapped >= 0], qrels.ideal_g[mapped >= 0]
    ranked = Ranked(nq, row_qi, pos, gain, judged, returned, ideal_q, ideal_g)
    answered = np.zeros(nq, dtype=bool)
    answered[run_qi[scored]] = True
    return _Joined(
        ranked=ranked,
        not_in_labels=sum(1 for q in run.qids if str(q) not in qrels.label_ids),
        missing_from_run=int((~answered).sum()),
        run_qi=run_qi,
    )


def _ranks(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., c-1 for every count ``c``, concatenated."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    return np.arange(total, dtype=np.int64) - np.repeat(ends - counts, counts)


def _unjudged(r: Ranked, k: int) -> tuple[np.ndarray, float, int, int]:
    within = r.pos < k
    judged = np.bincount(r.qi[within & r.judged], minlength=r.nq)
    seen = np.minimum(r.returned, k)
    per = np.zeros(r.nq, dtype=np.float64)
    ok = seen > 0
    per[ok] = 1.0 - judged[ok] / seen[ok]
    total_seen = int(seen.sum())
    total_judged = int(judged.sum())
    rate = 1.0 - total_judged / total_seen if total_seen else 0.0
    return per, rate, total_judged, total_seen


def unjudged_at(
    run: Run, labels: Mapping[str, Label], qids: Sequence[str] | np.ndarray, k: int
) -> tuple[np.ndarray, float]:
    """Unjudged rate of ``run`` at cut-off ``k`` over ``qids``: (per question, pooled rate)."""
    qrels = _qrels(labels)
    wanted = np.asarray(list(qids), dtype=object)
    joined = _join(run, qrels, k, wanted)
    per, rate, _, _ = _unjudged(joined.ranked, k)
    return per, rate


def score(
    run: Run,
    labels: Mapping[str, Label],
    measures: Iterable[Measure | str],
    *,
    k: int = 10,
    relevance_level: int = 1,
) -> SystemScore:
    """Every measure raw, judged-only and optimistic, and the unjudged rate at ``k``."""
    if k < 1:
        raise ValueError("k must be at least 1")
    if relevance_level < 1:
        raise ValueError("the relevance level must be at least 1")
    chosen = tuple(m if isinstance(m, Measure) else parse([m])[0] for m in measures)
    qrels = _qrels(labels)
    depth = max([k, *(m.cutoff for m in chosen if m.cutoff is not None)])
    joined = _join(run, qrels, depth)
    raw = joined.ranked
    only = condensed(raw)
    per, rate, total_judged, total_seen = _unjudged(raw, k)
    per_q: dict[str, dict[str, np.ndarray]] = {}
    means: dict[str, MeasureMeans] = {}
    lifted: dict[int, Ranked] = {}
    for m in chosen:
        values = {"raw": per_query(m, raw, relevance_level, k)}
        if m.family == "Judged":
            values["judged_only"] = values["raw"]
            values["optimistic"] = values["raw"]
        else:
            cut = m.depth(k)
            cut = k if cut is None else cut
            if cut not in lifted:
                lifted[cut] = optimistic(raw, cut, relevance_level)
            values["judged_only"] = per_query(m, only, relevance_level, k)
            values["optimistic"] = per_query(m, lifted[cut], relevance_level, k)
        per_q[m.name] = values
        means[m.name] = MeasureMeans(**{side: _mean(v) for side, v in values.items()})
    warnings: list[str] = []
    scored = {str(q) for q in qrels.qids}
    tied = [q for q in run.tied_questions if q in scored]
    if tied:
        shown = ", ".join(tied[:5]) + (", ..." if len(tied) > 5 else "")
        warnings.append(
            f"{run.name}: {len(tied)} question(s) with all-equal scores, ranked by doc id "
            f"descending as trec_eval does: {shown}"
        )
    if qrels.pending_docs:
        warnings.append(
            f"{qrels.pending_docs} pending judgment(s) not merged yet count as unjudged"
        )
    return SystemScore(
        system=run.name,
        run_path=run.path,
        run_sha256=run.sha256,
        k=k,
        relevance_level=relevance_level,
        measures=chosen,
        qids=qrels.qids,
        skipped={
            "not_in_labels": joined.not_in_labels,
            "not_judged": qrels.not_judged,
            "missing_from_run": joined.missing_from_run,
            "pending_docs": qrels.pending_docs,
        },
        unjudged=per,
        unjudged_rate=rate,
        judged_seen=(total_judged, total_seen),
        per_query=per_q,
        means=means,
        warnings=tuple(warnings),
    )


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if len(values) else 0.0


class NothingToScore(Exception):
    """The label set holds no judged question."""


def score_files(
    cfg: Any,
    paths: Sequence[Path],
    names: Sequence[str],
    measures: Sequence[Measure],
    *,
    k: int = 10,
    relevance_level: int = 1,
    on_progress: Any = None,
) -> list[SystemScore]:
    """Read and score each run file (named ``names``) against the repository's labels.

    The labels (Python YAML, which holds the GIL) load on a thread while pyarrow parses the
    first run (multi-threaded C++, which releases it), so that on a cold start they overlap.
    Raises :class:`labelpool.runs.RunError`, :class:`labelpool.labelset.LabelSetError` or
    :class:`NothingToScore`; ``on_progress()`` is called after each run.
    """
    from concurrent.futures import ThreadPoolExecutor

    from labelpool import labelset
    from labelpool.runs import read_run

    def load_labels() -> Any:
        labels = labelset.load(cfg)
        prepare(labels, cache_file_for(cfg.labels_dir))
        return labels

    results: list[SystemScore] = []
    with ThreadPoolExecutor(max_workers=1) as background:
        pending_labels = background.submit(load_labels)
        labels = None
        for system, path in zip(names, paths, strict=True):
            run = read_run(path, name=system)
            if labels is None:
                labels = pending_labels.result()
                if not len(scored_qids(labels)):
                    raise NothingToScore(
                        f"error: no judged question in {cfg.labels_dir}: nothing to score against"
                    )
            results.append(score(run, labels, measures, k=k, relevance_level=relevance_level))
            del run
            if on_progress is not None:
                on_progress()
    return results
