"""Score one run against the labels: every measure raw, judged-only and optimistic, and the
unjudged rate beside them.

* :func:`score` ``(run, labels, measures, *, k=10, relevance_level=1) -> SystemScore``.
* :func:`unjudged_at` ``(run, labels, qids, k) -> (per_query, rate)``: the unjudged rate at
  any cut-off over the given questions (in their order).
* :class:`SystemScore`, :class:`MeasureMeans`.

Questions: run questions unknown to the labels are ignored (``skipped["not_in_labels"]``);
labels nobody has judged yet are left out of every average (``skipped["not_judged"]``);
judged questions the run lacks score 0, as trec_eval ``-c`` (``skipped["missing_from_run"]``,
still averaged over; ``SystemScore.missing`` names them). ``run_questions`` and ``run_sample``
(the first few run questions not scored) let a caller say when a run shares no question with
the labels. Pending batch entries and ``pooled_unjudged_ids`` are unjudged, whatever else the
label says (``skipped["pending_docs"]`` counts pending documents).

The unjudged rate (the headline) is, over all scored questions,
``1 - sum(judged in top k) / sum(min(k, returned))``: a pooled ratio, not a mean of the
per-question rates, so a question that returned 3 documents weighs less than one that
returned k. A document is judged when it is in ``judged_ids`` or in one of the question's
classes. It differs from trec_eval's ``unj@k`` (which divides by k, also when fewer documents
were returned) and from ir_measures' ``Judged@k`` (which breaks score ties by doc id ascending,
not trec_eval's descending, and divides by the length of the returned list). The per-question
rate of a question the run does not answer is 0 (nothing was seen).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from labelpool.model import Label
from labelpool.runs import Run, arrow_strings
from labelpool.scoring.join import TopRows, join, top_rows
from labelpool.scoring.measures import Measure, per_query, trec
from labelpool.scoring.measures.ranked import Ranked, condensed, optimistic
from labelpool.scoring.qrels import Qrels, qrels_for


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
    # judged questions with no relevant document (at the relevance level): averaged in, every
    # measure scores 0 on them; and labels nobody judged (only unjudged grades): left out
    no_relevant: tuple[str, ...] = field(default=())
    not_judged: tuple[str, ...] = field(default=())
    # the scored questions the run lacks (each scores 0, as trec_eval -c), sorted; how many
    # questions the run holds; and the first few of them that are not scored (run order)
    missing: tuple[str, ...] = field(default=())
    run_questions: int = 0
    run_sample: tuple[str, ...] = field(default=())
    # where the labels hold open disputes (``LabelSet.disputed``): the share of each question's
    # top k that is one, and (disputed, seen) summed; the policy that settled them
    disputed: np.ndarray | None = None
    disputed_seen: tuple[int, int] | None = None
    disputes: str | None = None
    # where machine verdicts count alone on some document: the share of each question's top
    # k that counts on a machine's verdict alone, and (machine-judged, seen) summed
    machine: np.ndarray | None = None
    machine_seen: tuple[int, int] | None = None
    judges: str = "all"  # whose verdicts counted (``--judges``: people, machines, all)

    @property
    def machine_rate(self) -> float | None:
        """The share of the top k judged only by a machine, pooled as the unjudged rate;
        None when no document of the labels counts on a machine's verdict alone."""
        if self.machine_seen is None:
            return None
        hit, seen = self.machine_seen
        return hit / seen if seen else 0.0

    @property
    def disputed_rate(self) -> float | None:
        """The share of the top k that is an open dispute, pooled as the unjudged rate; None
        when the labels hold no open dispute."""
        if self.disputed_seen is None:
            return None
        hit, seen = self.disputed_seen
        return hit / seen if seen else 0.0


SAMPLE = 3  # run questions kept in SystemScore.run_sample


def _unjudged(r: Ranked, k: int) -> tuple[np.ndarray, float, int, int]:
    within = r.pos < k
    judged = np.bincount(r.qi[within & r.judged], minlength=r.nq)
    return _rates(judged, np.minimum(r.returned, k))


def unjudged_in(rows: TopRows, k: int) -> tuple[np.ndarray, float]:
    """The unjudged rate at ``k`` read from rankings already cut (:func:`top_rows` at a
    depth of at least ``k``, or whole): (per question, pooled rate), equal to
    :func:`unjudged_at` over the rows' questions without joining the run again."""
    within = rows.rank <= k
    within &= rows.judged
    judged = np.bincount(rows.qi[within], minlength=rows.nq)
    del within
    per, rate, _, _ = _rates(judged, np.minimum(rows.length, k))
    return per, rate


def _rates(judged: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, float, int, int]:
    """Per question and pooled unjudged rates from judged and seen counts per question."""
    per = np.zeros(len(seen), dtype=np.float64)
    ok = seen > 0
    per[ok] = 1.0 - judged[ok] / seen[ok]
    total_seen = int(seen.sum())
    total_judged = int(judged.sum())
    rate = 1.0 - total_judged / total_seen if total_seen else 0.0
    return per, rate, total_judged, total_seen


def disputes_of(labels: Mapping[str, Label]) -> tuple[Mapping[str, frozenset[str]], str | None]:
    """The open disputes of a resolved label set (``labelset.resolved``) and the policy that
    settled them; ({}, None) for labels with none."""
    disputed: Mapping[str, frozenset[str]] = getattr(labels, "disputed", None) or {}
    by = getattr(labels, "resolved_by", None)
    return disputed, (by[0] if disputed and by else None)


def judges_of(labels: Mapping[str, Label]) -> str:
    """Whose verdicts a resolved label set counts (``all`` for one never resolved)."""
    by = getattr(labels, "resolved_by", None)
    return str(by[2]) if by else "all"


def machine_of(labels: Mapping[str, Label]) -> Mapping[str, frozenset[str]]:
    """The documents of a resolved label set (``labelset.resolved``) that count on a
    machine's verdict alone, by question; {} for labels with none."""
    found: Mapping[str, frozenset[str]] = getattr(labels, "machine_judged", None) or {}
    return found


def disputed_counts(
    run: Run, labels: Mapping[str, Label], qids: Sequence[str] | np.ndarray, k: int
) -> np.ndarray:
    """How many of each question's top ``k`` (of ``qids``, in their order) are open
    disputes of ``labels`` (:func:`disputes_of`); read only where disputes exist."""
    return doc_counts(run, labels, qids, k, disputes_of(labels)[0])


def doc_counts(
    run: Run,
    labels: Mapping[str, Label],
    qids: Sequence[str] | np.ndarray,
    k: int,
    disputed: Mapping[str, frozenset[str]],
) -> np.ndarray:
    """How many of each question's top ``k`` (of ``qids``, in their order) are among its
    documents in ``disputed`` (open disputes, or documents only a machine judged)."""
    wanted = np.asarray(list(qids), dtype=object)
    out = np.zeros(len(wanted), dtype=np.int64)
    at = {i: disputed[str(q)] for i, q in enumerate(wanted) if str(q) in disputed}
    if not at:
        return out
    rows = top_rows(run, qrels_for(labels), k, wanted)
    hit = np.flatnonzero(np.isin(rows.qi, np.fromiter(at, dtype=np.int64)))
    docs = rows.docs.take(hit).to_pylist() if len(hit) else []
    for qi, doc in zip(rows.qi[hit].tolist(), docs, strict=True):
        if doc in at[qi]:
            out[qi] += 1
    return out


def disputed_at(
    run: Run, labels: Mapping[str, Label], qids: Sequence[str] | np.ndarray, k: int
) -> float:
    """The pooled disputed rate of ``run`` at ``k`` over ``qids`` (as :func:`unjudged_at`)."""
    return share_at(run, labels, qids, k, disputes_of(labels)[0])


def machine_at(
    run: Run, labels: Mapping[str, Label], qids: Sequence[str] | np.ndarray, k: int
) -> float:
    """The pooled machine-judged rate of ``run`` at ``k`` over ``qids``: the share of the top
    ``k`` that counts on a machine's verdict alone (as :func:`unjudged_at`)."""
    return share_at(run, labels, qids, k, machine_of(labels))


def share_at(
    run: Run,
    labels: Mapping[str, Label],
    qids: Sequence[str] | np.ndarray,
    k: int,
    docs: Mapping[str, frozenset[str]],
) -> float:
    """The pooled share of ``run``'s top ``k`` over ``qids`` that is in ``docs``."""
    wanted = np.asarray(list(qids), dtype=object)
    joined = join(run, qrels_for(labels), k, wanted, labelled=False)
    seen = int(np.minimum(joined.ranked.returned, k).sum())
    hit = int(doc_counts(run, labels, wanted, k, docs).sum())
    return hit / seen if seen else 0.0


def unjudged_at(
    run: Run, labels: Mapping[str, Label], qids: Sequence[str] | np.ndarray, k: int
) -> tuple[np.ndarray, float]:
    """Unjudged rate of ``run`` at cut-off ``k`` over ``qids``: (per question, pooled rate)."""
    wanted = np.asarray(list(qids), dtype=object)
    joined = join(run, qrels_for(labels), k, wanted, labelled=False)
    per, rate, _, _ = _unjudged(joined.ranked, k)
    return per, rate


def score(
    run: Run,
    labels: Mapping[str, Label],
    measures: Sequence[Measure],
    *,
    k: int = 10,
    relevance_level: int = 1,
) -> SystemScore:
    """Every measure raw, judged-only and optimistic, and the unjudged rate at ``k``."""
    if k < 1:
        raise ValueError("k must be at least 1")
    if relevance_level < 1:
        raise ValueError("the relevance level must be at least 1")
    chosen = tuple(measures)
    qrels = qrels_for(labels)
    depth = max([k, *(m.cutoff for m in chosen if m.cutoff is not None)])
    joined = join(run, qrels, depth)
    raw = joined.ranked
    only = condensed(raw)
    per, rate, total_judged, total_seen = _unjudged(raw, k)
    per_q: dict[str, dict[str, np.ndarray]] = {}
    means: dict[str, MeasureMeans] = {}
    lifted: dict[int, Ranked] = {}
    by_trec = [m for m in chosen if m.spec is not None]  # trec_eval names: trec_eval's view
    trec_values = trec.per_query(by_trec, run, labels, qrels.qids, k, relevance_level)
    for m in chosen:
        if m.spec is not None:
            values = dict(trec_values[m.name])
            per_q[m.name] = values
            means[m.name] = means_of(values["raw"], values["judged_only"], values["optimistic"])
            continue
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
        means[m.name] = means_of(values["raw"], values["judged_only"], values["optimistic"])
    scored = {str(q) for q in qrels.qids}
    tied = [q for q in run.tied_questions if q in scored]
    answered = np.zeros(len(qrels.qids), dtype=bool)
    answered[joined.run_qi[joined.run_qi >= 0]] = True
    disputed, policy = disputes_of(labels)
    counts = disputed_counts(run, labels, qrels.qids, k) if disputed else None
    disputed_per = None
    seen = np.minimum(raw.returned, k)
    if counts is not None:
        disputed_per = np.divide(counts, seen, out=np.zeros(len(seen)), where=seen > 0)
    by_machine = machine_of(labels)
    machine_counts = doc_counts(run, labels, qrels.qids, k, by_machine) if by_machine else None
    machine_per = None
    if machine_counts is not None:
        machine_per = np.divide(machine_counts, seen, out=np.zeros(len(seen)), where=seen > 0)
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
        warnings=_warnings(run.name, tied, qrels.pending_docs),
        no_relevant=no_relevant(qrels, relevance_level),
        not_judged=tuple(sorted(qrels.label_ids - scored)),
        missing=tuple(str(q) for q in qrels.qids[~answered]),
        run_questions=len(run.qids),
        run_sample=tuple(str(run.qids[i]) for i in np.flatnonzero(joined.run_qi < 0)[:SAMPLE]),
        disputed=disputed_per,
        disputed_seen=None if counts is None else (int(counts.sum()), total_seen),
        disputes=policy,
        machine=machine_per,
        machine_seen=None if machine_counts is None else (int(machine_counts.sum()), total_seen),
        judges=judges_of(labels),
    )


def no_relevant(qrels: Qrels, relevance_level: int) -> tuple[str, ...]:
    """The scored questions none of whose judged documents is relevant at ``relevance_level``
    (they are averaged in: every measure scores 0 on them, for every system)."""
    has = np.zeros(len(qrels.qids), dtype=bool)
    has[qrels.ideal_q[qrels.ideal_g >= relevance_level]] = True
    return tuple(str(q) for q in qrels.qids[~has])


def _warnings(system: str, tied: Sequence[str], pending_docs: int) -> tuple[str, ...]:
    warnings: list[str] = []
    if tied:
        shown = ", ".join(tied[:5]) + (", ..." if len(tied) > 5 else "")
        warnings.append(
            f"{system}: {len(tied)} question(s) with all-equal scores, ranked by doc id "
            f"descending as trec_eval does: {shown}"
        )
    if pending_docs:
        warnings.append(f"{pending_docs} pending judgment(s) not merged yet count as unjudged")
    return tuple(warnings)


def score_windows(
    windows: Iterable[Run],
    labels: Mapping[str, Label],
    measures: Sequence[Measure],
    *,
    k: int = 10,
    relevance_level: int = 1,
    name: str,
    path: Path,
    sha256: str = "",
) -> SystemScore:
    """:func:`score` of a run given as windows that each hold whole questions (a question in
    one window only: :func:`labelpool.runs.stream.windows`), equal to scoring it whole.

    Every value is per question, so each question's values come from the window that holds
    it, and a question no window holds gets what an empty run gives it; totals add up.
    """
    qrels = qrels_for(labels)
    index = {str(q): i for i, q in enumerate(qrels.qids)}
    empty = Run(
        name=name,
        path=path,
        sha256=sha256,
        qids=np.zeros(0, dtype=object),
        offsets=np.zeros(1, dtype=np.int64),
        doc_codes=np.zeros(0, dtype=np.int32),
        doc_vocab=arrow_strings([]),
        scores=np.zeros(0, dtype=np.float64),
    )
    whole = score(empty, labels, measures, k=k, relevance_level=relevance_level)
    per_q = {m: {v: a.copy() for v, a in vs.items()} for m, vs in whole.per_query.items()}
    unjudged = whole.unjudged.copy()
    disputed = None if whole.disputed is None else whole.disputed.copy()
    machine = None if whole.machine is None else whole.machine.copy()
    machine_total = 0
    answered = np.zeros(len(qrels.qids), dtype=bool)
    judged_total = seen_total = not_in_labels = run_questions = disputed_total = 0
    tied: list[str] = []
    sample: list[str] = []
    for run in windows:
        part = score(run, labels, measures, k=k, relevance_level=relevance_level)
        mask = np.zeros(len(qrels.qids), dtype=bool)
        mask[[index[q] for q in map(str, run.qids) if q in index]] = True
        for m, variants in part.per_query.items():
            for variant, values in variants.items():
                per_q[m][variant][mask] = values[mask]
        unjudged[mask] = part.unjudged[mask]
        if disputed is not None and part.disputed is not None and part.disputed_seen:
            disputed[mask] = part.disputed[mask]
            disputed_total += part.disputed_seen[0]
        if machine is not None and part.machine is not None and part.machine_seen:
            machine[mask] = part.machine[mask]
            machine_total += part.machine_seen[0]
        answered |= mask
        judged_total += part.judged_seen[0]
        seen_total += part.judged_seen[1]
        not_in_labels += part.skipped["not_in_labels"]
        run_questions += part.run_questions
        sample += part.run_sample[: SAMPLE - len(sample)]
        tied += [q for q in run.tied_questions if q in index]
        del run, part
    return replace(
        whole,
        skipped={
            **whole.skipped,
            "not_in_labels": not_in_labels,
            "missing_from_run": int((~answered).sum()),
        },
        unjudged=unjudged,
        unjudged_rate=1.0 - judged_total / seen_total if seen_total else 0.0,
        judged_seen=(judged_total, seen_total),
        per_query=per_q,
        means={
            m: means_of(vs["raw"], vs["judged_only"], vs["optimistic"]) for m, vs in per_q.items()
        },
        warnings=_warnings(name, sorted(tied), qrels.pending_docs),
        missing=tuple(str(q) for q in qrels.qids[~answered]),
        run_questions=run_questions,
        run_sample=tuple(sample),
        disputed=disputed,
        disputed_seen=None if disputed is None else (disputed_total, seen_total),
        machine=machine,
        machine_seen=None if machine is None else (machine_total, seen_total),
    )


def mean(values: np.ndarray) -> float:
    """The mean of per-question values, 0 over no question."""
    return float(values.mean()) if len(values) else 0.0


def means_of(raw: np.ndarray, judged_only: np.ndarray, optimistic: np.ndarray) -> MeasureMeans:
    """The three means of one measure's per-question values."""
    return MeasureMeans(raw=mean(raw), judged_only=mean(judged_only), optimistic=mean(optimistic))
